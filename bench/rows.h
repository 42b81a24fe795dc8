/*
** rows.h — the seven columns of the flat row sets, and the rows held in
** memory that the "write every value" task starts from.
**
** The rows are loaded from the set's JSON file with cJSON before timing
** (so every writer starts from the very same structs); text is kept both
** NUL-terminated (cJSON needs that) and with its length (jalapenojson's
** writer takes pointer + length).  Dates are kept as their 10-byte text.
*/
#ifndef BENCH_ROWS_H
#define BENCH_ROWS_H

#include <cjson/cJSON.h>

#include "bench.h"

/* How a task reads a column.  Dates are text to the JSON parsers and are
** checked by jalapenojson (see README.md). */
enum bench_kind { KIND_INT, KIND_FLOAT, KIND_TEXT, KIND_DATE };

#define BENCH_COLUMNS 7
static const char *const bench_names[BENCH_COLUMNS] = {"id",    "user",  "city",  "plan",
                                                       "seats", "price", "joined"};
static const enum bench_kind bench_kinds[BENCH_COLUMNS] = {
    KIND_INT, KIND_TEXT, KIND_TEXT, KIND_TEXT, KIND_INT, KIND_FLOAT, KIND_DATE};

/* Add one value to a run's checksum (README.md, "Checksums"). */
static inline void bench_add_int(bench_sum *s, int64_t v) { s->count++; s->sum_int += v; }
static inline void bench_add_float(bench_sum *s, double v) { s->count++; s->sum_float += v; }
static inline void bench_add_text(bench_sum *s, const char *p, size_t n) {
  s->count++;
  s->crc = bench_crc(s->crc, p, n);
}

/* One row in memory. */
typedef struct mem_row {
  int64_t id, seats;
  double price;
  const char *text[3];   /* user, city, plan: NUL-terminated, owned by mem_rows */
  size_t text_len[3];
  char joined[11];       /* "YYYY-MM-DD" and a NUL */
} mem_row;

/* All rows; free with mem_rows_free. */
typedef struct mem_rows {
  mem_row *rows;
  size_t n;
  cJSON *tree;           /* owns the strings the rows point to */
} mem_rows;

/* Load the rows of a flat set's JSON file (array of objects).  Dies on a
** file that does not have the expected shape. */
static inline mem_rows mem_rows_load(const char *path) {
  size_t len;
  char *buf = bench_load(path, &len);
  mem_rows m;
  m.tree = cJSON_ParseWithLength(buf, len);
  free(buf);
  if (!cJSON_IsArray(m.tree)) bench_die("%s is not a JSON array", path);
  m.n = (size_t)cJSON_GetArraySize(m.tree);
  m.rows = (mem_row *)calloc(m.n, sizeof *m.rows);
  if (!m.rows) bench_die("out of memory for %s", path);
  size_t i = 0;
  const cJSON *o;
  cJSON_ArrayForEach(o, m.tree) {
    mem_row *r = &m.rows[i++];
    const cJSON *v[BENCH_COLUMNS];
    for (int c = 0; c < BENCH_COLUMNS; c++) {
      v[c] = cJSON_GetObjectItemCaseSensitive(o, bench_names[c]);
      int want_text = bench_kinds[c] == KIND_TEXT || bench_kinds[c] == KIND_DATE;
      if (want_text ? !cJSON_IsString(v[c]) : !cJSON_IsNumber(v[c]))
        bench_die("%s: a row does not have the seven columns", path);
    }
    r->id = (int64_t)v[0]->valuedouble;
    r->seats = (int64_t)v[4]->valuedouble;
    r->price = v[5]->valuedouble;
    for (int t = 0; t < 3; t++) {
      r->text[t] = v[1 + t]->valuestring;
      r->text_len[t] = strlen(r->text[t]);
    }
    if (strlen(v[6]->valuestring) != 10) bench_die("%s: a date is not 10 bytes", path);
    memcpy(r->joined, v[6]->valuestring, 11);
  }
  return m;
}

static inline void mem_rows_free(mem_rows *m) {
  free(m->rows);
  cJSON_Delete(m->tree);
}

/* The expected output of a writer: the generated file, its length and
** CRC-32.  A run's checksum is {length, CRC} where the CRC is taken from
** the file when the output is byte-identical (a memcmp, not timed). */
typedef struct expect_doc {
  char *bytes;
  size_t len;
  bench_sum sum;
} expect_doc;

static inline expect_doc expect_doc_load(const char *path) {
  expect_doc e;
  e.bytes = bench_load(path, &e.len);
  memset(&e.sum, 0, sizeof e.sum);
  e.sum.count = e.len;
  e.sum.crc = bench_crc(0, e.bytes, e.len);
  return e;
}

/* The checksum of a writer's output out[0..len). */
static inline void expect_doc_sum(const expect_doc *e, const char *out, size_t len,
                                  bench_sum *s) {
  s->count = len;
  s->crc = (len == e->len && memcmp(out, e->bytes, len) == 0) ? e->sum.crc
                                                              : bench_crc(0, out, len);
}

/* Usage line and exit 2. */
static inline void bench_usage(const char *prog, const char *tasks) {
  fprintf(stderr, "usage: %s TASK READER FILE...\n  tasks: %s\n", prog, tasks);
  exit(2);
}

#endif /* BENCH_ROWS_H */
