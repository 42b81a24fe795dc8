/*
** c_cjson.c — cJSON (Debian's libcjson, the library most C code uses) on
** the benchmark's tasks.  One measurement per process:
**
**   c_cjson all|price|city|middle cjson DOC.json DOC.sum
**   c_cjson write cjson ROWS.json EXPECTED.json
**
** A read run is cJSON_ParseWithLength over the whole document, then the
** values the task asks for, looked up by name (cJSON_GetObjectItem-
** CaseSensitive, what cJSON code does): numbers as the doubles cJSON
** parsed (with strtod, after its own grammar check), text as valuestring +
** strlen (cJSON keeps no length), dates as unchecked text.  cJSON_Delete is
** not timed.  The write run builds the tree from the rows in memory the
** cheapest way cJSON offers (constant keys, string references: nothing
** copied) and prints it with cJSON_PrintUnformatted; freeing is not timed.
*/
#define _POSIX_C_SOURCE 200809L
#include "rows.h"

typedef struct ctx {
  const char *task;
  char *doc;
  size_t len;
  int64_t middle; /* 1-based */
  mem_rows rows;
  expect_doc expect;
} ctx;

/* Add the value of column c of object `o` to s; 0 or -1 when it is
** missing or of the wrong JSON kind. */
static int add_value(const cJSON *o, int c, bench_sum *s) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, bench_names[c]);
  switch (bench_kinds[c]) {
    case KIND_INT:
      if (!cJSON_IsNumber(v)) return -1;
      bench_add_int(s, (int64_t)v->valuedouble);
      return 0;
    case KIND_FLOAT:
      if (!cJSON_IsNumber(v)) return -1;
      bench_add_float(s, v->valuedouble);
      return 0;
    default:
      if (!cJSON_IsString(v)) return -1;
      bench_add_text(s, v->valuestring, strlen(v->valuestring));
      return 0;
  }
}

/* One read run: parse, then read what the task asks for. */
static int run_read(void *p, bench_sum *s, uint64_t *ns) {
  ctx *x = (ctx *)p;
  int rc = 0;
  uint64_t t0 = bench_now_ns();
  cJSON *root = cJSON_ParseWithLength(x->doc, x->len);
  if (!cJSON_IsArray(root)) {
    cJSON_Delete(root);
    return -1;
  }
  const cJSON *o;
  switch (x->task[0]) {
    case 'a': /* all */
      cJSON_ArrayForEach(o, root) {
        for (int c = 0; c < BENCH_COLUMNS; c++) rc |= add_value(o, c, s);
      }
      break;
    case 'p': /* price */
      cJSON_ArrayForEach(o, root) rc |= add_value(o, 5, s);
      break;
    case 'c': /* city */
      cJSON_ArrayForEach(o, root) rc |= add_value(o, 2, s);
      break;
    default: /* middle */
      o = cJSON_GetArrayItem(root, (int)(x->middle - 1));
      if (!o) rc = -1;
      for (int c = 0; o && c < BENCH_COLUMNS; c++) rc |= add_value(o, c, s);
      break;
  }
  *ns = bench_now_ns() - t0;
  cJSON_Delete(root);
  return rc;
}

/* One write run: rows in memory -> tree -> unformatted text. */
static int run_write(void *p, bench_sum *s, uint64_t *ns) {
  ctx *x = (ctx *)p;
  uint64_t t0 = bench_now_ns();
  cJSON *root = cJSON_CreateArray();
  for (size_t i = 0; i < x->rows.n; i++) {
    const mem_row *r = &x->rows.rows[i];
    cJSON *o = cJSON_CreateObject();
    cJSON_AddItemToArray(root, o);
    cJSON_AddItemToObjectCS(o, "id", cJSON_CreateNumber((double)r->id));
    cJSON_AddItemToObjectCS(o, "user", cJSON_CreateStringReference(r->text[0]));
    cJSON_AddItemToObjectCS(o, "city", cJSON_CreateStringReference(r->text[1]));
    cJSON_AddItemToObjectCS(o, "plan", cJSON_CreateStringReference(r->text[2]));
    cJSON_AddItemToObjectCS(o, "seats", cJSON_CreateNumber((double)r->seats));
    cJSON_AddItemToObjectCS(o, "price", cJSON_CreateNumber(r->price));
    cJSON_AddItemToObjectCS(o, "joined", cJSON_CreateStringReference(r->joined));
  }
  char *out = cJSON_PrintUnformatted(root);
  *ns = bench_now_ns() - t0;
  if (!out) {
    cJSON_Delete(root);
    return -1;
  }
  expect_doc_sum(&x->expect, out, strlen(out), s);
  cJSON_free(out);
  cJSON_Delete(root);
  return 0;
}

int main(int argc, char **argv) {
  const char *tasks = "all price city middle write";
  if (argc != 5 || strcmp(argv[2], "cjson") != 0 || !strstr(tasks, argv[1]))
    bench_usage(argv[0], tasks);
  bench_crc_init();
  ctx x;
  memset(&x, 0, sizeof x);
  x.task = argv[1];
  if (strcmp(x.task, "write") == 0) {
    x.rows = mem_rows_load(argv[3]);
    x.expect = expect_doc_load(argv[4]);
    bench_measure(x.task, "cjson", run_write, &x, &x.expect.sum);
    return 0;
  }
  size_t sum_len;
  char *sums = bench_load(argv[4], &sum_len);
  bench_sum want = bench_expect(sums, x.task);
  x.middle = bench_sum_int(sums, "middle_row");
  x.doc = bench_load(argv[3], &x.len);
  bench_measure(x.task, "cjson", run_read, &x, &want);
  return 0;
}
