/*
** c_yyjson.c — yyjson, when YYJSON_DIR points at a local yyjson source
** tree (run.sh compiles its yyjson.c into a temporary directory; yyjson is
** never part of this repository).  One measurement per process:
**
**   c_yyjson all|price|city|middle yyjson DOC.json DOC.sum
**
** A run is yyjson_read over the whole document (default flags: the input
** is copied, not modified; numbers grammar-checked and correctly rounded),
** then the values the task asks for, looked up by name with an object
** iterator (yyjson_obj_iter_get, yyjson's fast path for keys in order):
** integers with yyjson_get_sint, price with yyjson_get_num (a JSON "29"
** is an integer to yyjson), text as yyjson_get_str + yyjson_get_len, dates
** as unchecked text.  yyjson_doc_free is not timed.
*/
#define _POSIX_C_SOURCE 200809L
#include <yyjson.h>

#include "rows.h"

typedef struct ctx {
  const char *task;
  char *doc;
  size_t len;
  int64_t middle;
} ctx;

/* Add column c of the object behind `it` to s; -1 on a missing value or a
** wrong JSON kind. */
static int add_value(yyjson_obj_iter *it, int c, bench_sum *s) {
  yyjson_val *v = yyjson_obj_iter_get(it, bench_names[c]);
  switch (bench_kinds[c]) {
    case KIND_INT:
      if (!yyjson_is_int(v)) return -1;
      bench_add_int(s, yyjson_get_sint(v));
      return 0;
    case KIND_FLOAT:
      if (!yyjson_is_num(v)) return -1;
      bench_add_float(s, yyjson_get_num(v));
      return 0;
    default:
      if (!yyjson_is_str(v)) return -1;
      bench_add_text(s, yyjson_get_str(v), yyjson_get_len(v));
      return 0;
  }
}

/* One run: read the document, then what the task asks for. */
static int run_read(void *p, bench_sum *s, uint64_t *ns) {
  ctx *x = (ctx *)p;
  int rc = 0;
  uint64_t t0 = bench_now_ns();
  yyjson_doc *doc = yyjson_read(x->doc, x->len, 0);
  yyjson_val *root = yyjson_doc_get_root(doc);
  if (!yyjson_is_arr(root)) {
    yyjson_doc_free(doc);
    return -1;
  }
  size_t idx, max;
  yyjson_val *o;
  yyjson_obj_iter it;
  switch (x->task[0]) {
    case 'a':
      yyjson_arr_foreach(root, idx, max, o) {
        it = yyjson_obj_iter_with(o);
        for (int c = 0; c < BENCH_COLUMNS; c++) rc |= add_value(&it, c, s);
      }
      break;
    case 'p':
      yyjson_arr_foreach(root, idx, max, o) {
        it = yyjson_obj_iter_with(o);
        rc |= add_value(&it, 5, s);
      }
      break;
    case 'c':
      yyjson_arr_foreach(root, idx, max, o) {
        it = yyjson_obj_iter_with(o);
        rc |= add_value(&it, 2, s);
      }
      break;
    default:
      o = yyjson_arr_get(root, (size_t)(x->middle - 1));
      if (!yyjson_is_obj(o)) {
        rc = -1;
        break;
      }
      it = yyjson_obj_iter_with(o);
      for (int c = 0; c < BENCH_COLUMNS; c++) rc |= add_value(&it, c, s);
      break;
  }
  *ns = bench_now_ns() - t0;
  yyjson_doc_free(doc);
  return rc;
}

int main(int argc, char **argv) {
  const char *tasks = "all price city middle";
  if (argc != 5 || strcmp(argv[2], "yyjson") != 0 || !strstr(tasks, argv[1]))
    bench_usage(argv[0], tasks);
  bench_crc_init();
  ctx x;
  memset(&x, 0, sizeof x);
  x.task = argv[1];
  size_t sum_len;
  char *sums = bench_load(argv[4], &sum_len);
  bench_sum want = bench_expect(sums, x.task);
  x.middle = bench_sum_int(sums, "middle_row");
  x.doc = bench_load(argv[3], &x.len);
  bench_measure(x.task, "yyjson", run_read, &x, &want);
  return 0;
}
