/*
** c_jj.c — jalapenojson's core library on the benchmark's tasks.  One
** measurement per process:
**
**   c_jj all|values|price|city|middle|count|convert jj DOC.jj DOC.sum
**   c_jj write jj ROWS.json EXPECTED.jj
**   c_jj nested jj DOC.jj DOC.sum      (one checked read, not timed)
**
** A read run is jj_parse (the header), a cursor, and the values the task
** asks for, columns found by name with jj_schema_find like the JSON readers
** find keys: integers with jj_cursor_int (checked to be integers that fit
** int64), price with jj_cursor_double (grammar checked, correctly rounded),
** text with jj_cursor_text (pointer + length, UTF-8 checked), dates with
** jj_cursor_text on the date column, which checks the calendar first (the
** same check as jj_cursor_date) and gives the text the checksum needs.
** Columns a task does not read are not converted; a task reading one
** column says which (jj_cursor_select), so that the rows' other values are
** not located either (every row is still checked whole).  "count" passes
** every row with jj_cursor_skip (each row's structure checked, no value
** read: SQLite's count(*) without SQLite).  "middle" moves to the
** row with jj_cursor_seek on a freshly parsed document.  Freeing is not
** timed.
**
** Two tasks take jalapenojson's reading apart: "values" reads every value as "all" does but takes no CRC-32 of
** the text (its checksum is "all"'s less the CRC; the texts' lengths go
** to a sink), and "convert" converts the price column's numbers alone, no
** row checked or walked: each price's text is found before timing (the
** bench's documents are canonical, one row a line), then converted by the
** reader the accessors inline (core/num.h: jj_num_dot_double_in, the
** other short forms, the full parser) with no accessor's checks around
** it, the least a correctly rounded price costs this reader.  "convert" is
** the one task here that uses a header of the core's own.
**
** JJ_SIMD=off|sse2|avx2|auto in the environment forces the row scanner
** (jj_parse_opts with JJ_PARSE_SCAN; see simd_flags).  The write run
** builds the document from the rows in memory with jj_writer (schema,
** values, finish, take), dates given as text and so checked by the writer.
*/
#define _POSIX_C_SOURCE 200809L
#include "jalapenojson.h"
#include "num.h" /* "convert" only: the accessors' number reader, alone */
#include "rows.h"

typedef struct ctx {
  const char *task;
  unsigned parse_flags; /* JJ_PARSE_SCAN(...) from JJ_SIMD */
  char *doc;
  size_t len;
  int64_t middle;
  mem_rows rows;
  expect_doc expect;
  volatile size_t sink; /* "values": the texts' lengths, read by no one */
  const char **num;  /* "convert": each row's price text and its length */
  size_t *num_len, nnum;
} ctx;

static int report(const jj_error *err) {
  fprintf(stderr, "bench: jalapenojson: %s\n", err->message);
  return -1;
}

/* Add column `col` (of kind `kind`) of the cursor's row to s. */
static int add_value(jj_cursor *cur, size_t col, enum bench_kind kind, bench_sum *s,
                     jj_error *err) {
  int64_t i;
  double d;
  const char *p;
  size_t n;
  switch (kind) {
    case KIND_INT:
      if (jj_cursor_int(cur, col, &i, err) != 1) return -1;
      bench_add_int(s, i);
      return 0;
    case KIND_FLOAT:
      if (jj_cursor_double(cur, col, &d, err) != 1) return -1;
      bench_add_float(s, d);
      return 0;
    default: /* text, and dates: jj_cursor_text checks a date column's calendar */
      if (jj_cursor_text(cur, col, &p, &n, err) != 1) return -1;
      bench_add_text(s, p, n);
      return 0;
  }
}

/* A text value: summed by CRC-32 ("all", "middle"), or when len is given
** only counted and its length added to *len ("values"). */
#if defined(__GNUC__) || defined(__clang__)
#define BENCH_INLINE static inline __attribute__((always_inline))
#define BENCH_NOINLINE __attribute__((noinline))
#else
#define BENCH_INLINE static inline
#define BENCH_NOINLINE
#endif
BENCH_INLINE void add_text_or_length(bench_sum *s, const char *p, size_t n, size_t *len) {
  if (len) {
    s->count++;
    *len += n;
  } else {
    bench_add_text(s, p, n);
  }
}

/* Every value of the cursor's row into s, the columns in order as
** c_simdjson.cpp's add_row reads them: one call per column, written out,
** with the column's own accessor (no dispatch on its kind per value).
** The texts as add_text_or_length takes them.  Always inline into the two
** functions below, so that each has len as a constant and the loop of its
** own task (one function testing len per text ran 1.4 M more
** instructions in "all" over 50,000 rows). */
BENCH_INLINE int row_values(jj_cursor *cur, const size_t *col, bench_sum *s, size_t *len,
                            jj_error *err) {
  int64_t i;
  double d;
  const char *p;
  size_t n;
  if (jj_cursor_int(cur, col[0], &i, err) != 1) return -1;
  bench_add_int(s, i);
  for (int c = 1; c <= 3; c++) {
    if (jj_cursor_text(cur, col[c], &p, &n, err) != 1) return -1;
    add_text_or_length(s, p, n, len);
  }
  if (jj_cursor_int(cur, col[4], &i, err) != 1) return -1;
  bench_add_int(s, i);
  if (jj_cursor_double(cur, col[5], &d, err) != 1) return -1;
  bench_add_float(s, d);
  /* the date column: jj_cursor_text checks the calendar first */
  if (jj_cursor_text(cur, col[6], &p, &n, err) != 1) return -1;
  add_text_or_length(s, p, n, len);
  return 0;
}

/* "all" and "middle": every value, the texts summed by CRC-32.  Out of
** line, as gcc placed it when it was written out on its own (the task's
** instructions unchanged). */
static BENCH_NOINLINE int add_row(jj_cursor *cur, const size_t *col, bench_sum *s,
                                  jj_error *err) {
  return row_values(cur, col, s, NULL, err);
}

/* "values": every value, the texts' lengths added to *len (inlined into
** the task's loop, as before). */
static int read_row(jj_cursor *cur, const size_t *col, bench_sum *s, size_t *len,
                    jj_error *err) {
  return row_values(cur, col, s, len, err);
}

/* "convert": the prices located by locate_prices, converted as
** jj_cursor_double converts them (value.c's read_double, read_double_full
** without the strings NaN and Infinity, which these rows do not hold), no
** row checked: only the conversion is timed. */
static int run_convert(void *p, bench_sum *s, uint64_t *ns) {
  const ctx *x = (const ctx *)p;
  const char *const base = x->doc, *const end = x->doc + x->len;
  const char *const last = end - (x->len < 17 ? x->len : 17); /* as jj_cursor_new's num_last */
  uint64_t t0 = bench_now_ns();
  for (size_t i = 0; i < x->nnum; i++) {
    const char *q = x->num[i];
    const size_t n = x->num_len[i];
    double d;
    if (!jj_num_dot_double_in(q, n, last, &d) &&
        !jj_num_short_double_in(q, n, base, end, &d) && jj_num_parse_double(q, n, &d) != JJ_NUM_OK) {
      fprintf(stderr, "bench: jalapenojson: row %zu: the price is not a number\n", i + 1);
      return -1;
    }
    bench_add_float(s, d);
  }
  *ns = bench_now_ns() - t0;
  return 0;
}

/* Before "convert" is timed: where each row's value of column `col` lies,
** found by walking the rows' text (strings skipped to their closing quote,
** other values to the next ',' or ']'); dies on a document that is not one
** flat row a line, as gen writes them. */
static void locate_prices(ctx *x) {
  jj_error err;
  jj_doc *doc = jj_parse(x->doc, x->len, &err);
  if (!doc) bench_die("%s", err.message);
  const jj_schema *schema = jj_doc_schema(doc);
  const int col = jj_schema_find(schema, "price", 5);
  const size_t ncol = jj_schema_columns(schema);
  jj_doc_free(doc);
  const char *p = strstr(x->doc, "\"rows\":[\n"), *const end = x->doc + x->len;
  if (col < 0 || !p) bench_die("%s", "convert: no price column or no rows");
  size_t cap = 1024;
  x->num = malloc(cap * sizeof *x->num);
  x->num_len = malloc(cap * sizeof *x->num_len);
  for (p += 9; p < end && *p == '['; p += 2) { /* a row at p, then ",\n" */
    for (size_t c = 0; c < ncol; c++) {
      const char *v = ++p; /* past the '[' or the ',' */
      if (*p == '"') {
        for (p++; p < end && *p != '"'; p++)
          if (*p == '\\') p++;
        p++;
      }
      while (p < end && *p != ',' && *p != ']') p++;
      if (p >= end || (*p == ']') != (c + 1 == ncol)) bench_die("%s", "convert: a row is not flat");
      if (c != (size_t)col) continue;
      if (x->nnum == cap) {
        cap *= 2;
        x->num = realloc(x->num, cap * sizeof *x->num);
        x->num_len = realloc(x->num_len, cap * sizeof *x->num_len);
      }
      if (!x->num || !x->num_len) bench_die("%s", "out of memory");
      x->num[x->nnum] = v;
      x->num_len[x->nnum++] = (size_t)(p - v);
    }
    p++; /* past the ']' */
    if (p >= end || *p != ',') break;
  }
}

/* One read run. */
static int run_read(void *p, bench_sum *s, uint64_t *ns) {
  ctx *x = (ctx *)p;
  jj_error err;
  int rc = 0, more;
  size_t col[BENCH_COLUMNS];
  uint64_t t0 = bench_now_ns();
  jj_doc *doc = jj_parse_opts(x->doc, x->len, x->parse_flags, 0, &err);
  if (!doc) return report(&err);
  const jj_schema *schema = jj_doc_schema(doc);
  for (int c = 0; c < BENCH_COLUMNS; c++) {
    int at = jj_schema_find(schema, bench_names[c], strlen(bench_names[c]));
    if (at < 0) {
      jj_doc_free(doc);
      return -1;
    }
    col[c] = (size_t)at;
  }
  jj_cursor *cur = jj_cursor_new(doc, &err);
  if (!cur) {
    jj_doc_free(doc);
    return report(&err);
  }
  switch (x->task[0]) {
    case 'a':
      while ((more = jj_cursor_next(cur, &err)) == 1 && rc == 0)
        rc = add_row(cur, col, s, &err);
      break;
    case 'v': { /* values: the texts' lengths kept from the optimiser only */
      size_t len = 0;
      while ((more = jj_cursor_next(cur, &err)) == 1 && rc == 0)
        rc = read_row(cur, col, s, &len, &err);
      x->sink = len;
      break;
    }
    case 'p':
      if (jj_cursor_select(cur, &col[5], 1, &err) != JJ_OK) rc = -1;
      while ((more = jj_cursor_next(cur, &err)) == 1 && rc == 0)
        rc = add_value(cur, col[5], KIND_FLOAT, s, &err);
      break;
    case 'c':
      if (x->task[1] == 'o') { /* count: every row checked, no value read */
        int64_t n = jj_cursor_skip(cur, INT64_MAX, &err);
        more = n < 0 ? -1 : 0;
        if (n > 0) s->count = (uint64_t)n;
        break;
      }
      if (jj_cursor_select(cur, &col[2], 1, &err) != JJ_OK) rc = -1;
      while ((more = jj_cursor_next(cur, &err)) == 1 && rc == 0)
        rc = add_value(cur, col[2], KIND_TEXT, s, &err);
      break;
    default:
      more = jj_cursor_seek(cur, x->middle, &err);
      if (more != 1) break;
      rc = add_row(cur, col, s, &err);
      more = 0;
      break;
  }
  *ns = bench_now_ns() - t0;
  if (more < 0 || rc < 0) rc = report(&err);
  jj_cursor_free(cur);
  jj_doc_free(doc);
  return rc;
}

/* One write run: rows in memory -> jalapenojson text. */
static int run_write(void *p, bench_sum *s, uint64_t *ns) {
  ctx *x = (ctx *)p;
  static const jj_type types[BENCH_COLUMNS] = {JJ_INT, JJ_TEXT, JJ_TEXT, JJ_TEXT,
                                               JJ_INT, JJ_FLOAT, JJ_DATE};
  jj_error err;
  uint64_t t0 = bench_now_ns();
  jj_schema *schema = jj_schema_new();
  for (int c = 0; c < BENCH_COLUMNS; c++)
    if (!schema || jj_schema_add(schema, bench_names[c], strlen(bench_names[c]), types[c], NULL,
                                 &err) != JJ_OK) {
      jj_schema_free(schema);
      return -1;
    }
  jj_writer *w = jj_writer_new(schema, NULL, NULL, &err);
  if (!w) {
    jj_schema_free(schema);
    return report(&err);
  }
  jj_code rc = JJ_OK;
  for (size_t i = 0; i < x->rows.n && rc == JJ_OK; i++) {
    const mem_row *r = &x->rows.rows[i];
    if ((rc = jj_writer_int(w, r->id)) || (rc = jj_writer_text(w, r->text[0], r->text_len[0])) ||
        (rc = jj_writer_text(w, r->text[1], r->text_len[1])) ||
        (rc = jj_writer_text(w, r->text[2], r->text_len[2])) ||
        (rc = jj_writer_int(w, r->seats)) || (rc = jj_writer_double(w, r->price)) ||
        (rc = jj_writer_date(w, r->joined, 10)))
      break;
    rc = jj_writer_end_row(w);
  }
  if (rc == JJ_OK) rc = jj_writer_finish(w);
  size_t len = 0;
  char *out = rc == JJ_OK ? jj_writer_take(w, &len) : NULL;
  *ns = bench_now_ns() - t0;
  int fail = !out;
  if (fail) report(jj_writer_error(w));
  else expect_doc_sum(&x->expect, out, len, s);
  jj_free(out);
  jj_writer_free(w);
  jj_schema_free(schema);
  return fail ? -1 : 0;
}

/* Add every value of a (nested) document, in document order, to s: the
** orders set's checksum.  Used once, to check the nested file. */
static int sum_nested(jj_doc *doc, bench_sum *s, jj_error *err) {
  const jj_schema *schema = jj_doc_schema(doc);
  jj_cursor *cur = jj_cursor_new(doc, err);
  int more, rc = 0;
  if (!cur) return -1;
  while (rc == 0 && (more = jj_cursor_next(cur, err)) == 1) {
    for (size_t c = 0; c < jj_schema_columns(schema) && rc == 0; c++) {
      jj_type t = jj_schema_type(schema, c);
      if (t == JJ_TABLE) {
        jj_doc *sub = NULL;
        rc = jj_cursor_table(cur, c, &sub, err) == 1 ? sum_nested(sub, s, err) : -1;
        jj_doc_free(sub);
      } else {
        rc = add_value(cur, c, t == JJ_INT ? KIND_INT : t == JJ_FLOAT ? KIND_FLOAT : KIND_TEXT, s,
                       err);
      }
    }
  }
  if (more < 0) rc = -1;
  jj_cursor_free(cur);
  return rc;
}

/* The claims the report makes about jalapenojson's reading, checked before
** every measurement: jj_cursor_text on a date column rejects a date that
** does not exist, and jj_cursor_int rejects a number that is not an
** integer.  If either stopped being true the comparison would be unfair,
** so the benchmark stops. */
static void check_reader_checks(void) {
  static const char doc[] = "{\"jalapenojson\":1,\"columns\":[\"n\",\"d\"],"
                            "\"types\":[\"i\",\"d\"],\"rows\":[\n[1.5,\"2023-02-29\"]\n]}";
  jj_error err;
  jj_doc *d = jj_parse(doc, sizeof doc - 1, &err);
  jj_cursor *c = d ? jj_cursor_new(d, &err) : NULL;
  const char *p;
  size_t n;
  int64_t i;
  int ok = c && jj_cursor_next(c, &err) == 1 && jj_cursor_text(c, 1, &p, &n, &err) == -1 &&
           err.code == JJ_ERR_DATE && jj_cursor_int(c, 0, &i, &err) == -1 &&
           err.code == JJ_ERR_RANGE;
  jj_cursor_free(c);
  jj_doc_free(d);
  if (!ok) bench_die("%s", "jalapenojson no longer checks dates or integers as README.md says");
}

/* The row scanner JJ_SIMD asks for: off (the portable scalar code), sse2,
** avx2, or auto (unset or empty: the library's own choice, the widest the
** CPU has).  A path the CPU lacks falls back to a narrower one, so the
** path taken is printed to stderr for the record. */
static unsigned simd_flags(void) {
  static const char *const names[] = {"auto", "off", "sse2", "avx2"};
  const char *v = getenv("JJ_SIMD");
  if (!v || !*v) return 0;
  for (unsigned i = 0; i < 4; i++)
    if (strcmp(v, names[i]) == 0) return JJ_PARSE_SCAN(i);
  bench_die("JJ_SIMD=%s: expected off, sse2, avx2 or auto", v);
  return 0;
}

int main(int argc, char **argv) {
  const char *tasks = "all values price city middle count convert write nested";
  if (argc != 5 || strcmp(argv[2], "jj") != 0 || !strstr(tasks, argv[1]))
    bench_usage(argv[0], tasks);
  bench_crc_init();
  check_reader_checks();
  ctx x;
  memset(&x, 0, sizeof x);
  x.task = argv[1];
  x.parse_flags = simd_flags();
  if (getenv("JJ_SIMD")) {
    static const char *const names[] = {"auto", "off", "sse2", "avx2"};
    static const char doc[] = "{\"jalapenojson\":1,\"columns\":[\"n\"],\"types\":[\"i\"],"
                              "\"rows\":[]}";
    jj_doc *d = jj_parse_opts(doc, sizeof doc - 1, x.parse_flags, 0, NULL);
    fprintf(stderr, "c_jj: JJ_SIMD=%s: scanner %s\n", getenv("JJ_SIMD"), names[jj_doc_scan(d)]);
    jj_doc_free(d);
  }
  if (strcmp(x.task, "write") == 0) {
    x.rows = mem_rows_load(argv[3]);
    x.expect = expect_doc_load(argv[4]);
    bench_measure(x.task, "jj", run_write, &x, &x.expect.sum);
    return 0;
  }
  size_t sum_len;
  char *sums = bench_load(argv[4], &sum_len);
  x.doc = bench_load(argv[3], &x.len);
  if (strcmp(x.task, "nested") == 0) {
    bench_sum got, want = bench_expect(sums, "all");
    jj_error err;
    memset(&got, 0, sizeof got);
    jj_doc *doc = jj_parse(x.doc, x.len, &err);
    int rc = doc ? sum_nested(doc, &got, &err) : -1;
    jj_doc_free(doc);
    if (rc != 0) report(&err);
    bench_check("nested", "jj", rc, &got, &want, 1);
    printf("ok nested jj checked\n");
    return 0;
  }
  bench_sum want = bench_expect_task(sums, x.task);
  x.middle = bench_sum_int(sums, "middle_row");
  if (strcmp(x.task, "convert") == 0) {
    locate_prices(&x);
    bench_measure(x.task, "jj", run_convert, &x, &want);
    free(x.num);
    free(x.num_len);
    return 0;
  }
  bench_measure(x.task, "jj", run_read, &x, &want);
  return 0;
}
