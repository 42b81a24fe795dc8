/*
** fuzz_select.c — libFuzzer harness for jj_cursor_select: the input
** document is read by two cursors, one without a selection and one told
** to read a few columns (which, and the order the columns are then read
** in, follow from the input's bytes), with each row scanner (scalar, SSE2,
** AVX2 where the build and CPU have them).  For every row, every column
** is read through jj_cursor_value and jj_cursor_raw (selected or not: a
** column not selected is located again), and the two transcripts (values,
** nulls, raw bytes, errors in full, how the walk ended, a seek back to
** the middle row) must be equal.  A difference aborts.
**
**   make fuzz-build && build/fuzz/fuzz_select -max_total_time=120
**
** Not named test_*.c: it is not part of `make test` (tests/core/test_select.c
** is its deterministic twin).
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "jalapenojson.h"
#include "transcript.h"


/* One row: every column in the order `order` gives, value then raw. */
static void read_row(jj_cursor *c, size_t ncol, uint64_t order, jj_buf *b) {
  const char *const base = jj_doc_bytes(jj_cursor_doc(c), NULL);
  for (size_t k = 0; k < ncol; k++) {
    const size_t col = (k + (size_t)(order % (ncol ? ncol : 1))) % ncol;
    jj_error err;
    jj_value v;
    const char *p;
    size_t n;
    int r = jj_cursor_value(c, col, &v, &err);
    add(b, " c%zu=%d", col, r);
    if (r < 0) add(b, "[%d %s]", (int)err.code, err.message);
    if (r == 1 && v.type == JJ_TABLE) jj_doc_free(v.u.table);
    if (r == 1 && (v.type == JJ_TEXT || v.type == JJ_DATE))
      add(b, "'%.*s'", (int)(v.u.text.len < 200 ? v.u.text.len : 200), v.u.text.p);
    if (r == 1 && v.type == JJ_INT) add(b, "i%lld", (long long)v.u.i);
    if (r == 1 && v.type == JJ_FLOAT) add(b, "f%a", v.u.f);
    r = jj_cursor_raw(c, col, &p, &n, &err);
    add(b, " raw=%d", r);
    if (r == 1) add(b, "@%td+%zu", p - base, n);
    add(b, " null=%d", jj_cursor_is_null(c, col));
    order = order * 6364136223846793005u + 1442695040888963407u;
  }
  add(b, "\n");
}

/* The walk of one cursor over doc, with the selection cols[0..nsel). */
static void walk(jj_doc *d, const size_t *cols, size_t nsel, uint64_t order, jj_buf *b) {
  jj_error err;
  const size_t ncol = jj_schema_columns(jj_doc_schema(d));
  jj_cursor *c = jj_cursor_new(d, &err);
  if (!c) abort();
  if (jj_cursor_select(c, cols, nsel, &err) != JJ_OK) abort();
  int r;
  int64_t rows = 0;
  while ((r = jj_cursor_next(c, &err)) == 1 && rows < 2000) {
    rows++;
    read_row(c, ncol, order, b);
  }
  add(b, "end %d", r);
  if (r < 0) add(b, " [%d %s]", (int)err.code, err.message);
  if (rows > 1) {
    r = jj_cursor_seek(c, rows / 2, &err);
    add(b, " seek %d\n", r);
    if (r == 1) read_row(c, ncol, order ^ 0x5555, b);
  }
  add(b, "\n");
  jj_cursor_free(c);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  /* the selection and the reading order from the input's bytes */
  uint64_t h = 1469598103934665603u;
  for (size_t i = 0; i < size; i++) h = (h ^ data[i]) * 1099511628211u;
  jj_buf plain = {0}, sel = {0};
  for (int scan = JJ_SCAN_SCALAR; scan <= JJ_SCAN_AVX2; scan++) {
    jj_error err;
    jj_doc *d = jj_parse_opts((const char *)data, size, JJ_PARSE_SCAN(scan), 0, &err);
    if (!d) break;
    const size_t ncol = jj_schema_columns(jj_doc_schema(d));
    size_t cols[4], nsel = ncol ? 1 + (size_t)(h >> 60) % 4 : 0;
    for (size_t i = 0; i < nsel; i++) cols[i] = (size_t)(h >> (8 * i)) % ncol;
    plain.len = sel.len = 0;
    walk(d, NULL, 0, h, &plain);
    walk(d, cols, nsel, h, &sel);
    if (plain.len != sel.len || memcmp(plain.p, sel.p, plain.len) != 0) {
      fprintf(stderr, "fuzz_select: scan %d: the selected cursor differs\n--- plain:\n%.*s\n"
                      "--- selected:\n%.*s\n",
              scan, (int)(plain.len < 4000 ? plain.len : 4000), plain.p,
              (int)(sel.len < 4000 ? sel.len : 4000), sel.p);
      abort();
    }
    jj_doc_free(d);
  }
  jj_buf_free(&plain);
  jj_buf_free(&sel);
  return 0;
}
