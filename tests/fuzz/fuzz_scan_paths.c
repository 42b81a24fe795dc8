/*
** fuzz_scan_paths.c — libFuzzer harness comparing the row scanners: the
** input document is read with the scalar path (JJ_PARSE_SCAN
** (JJ_SCAN_SCALAR)) and with SSE2 and AVX2 (each where the build and CPU
** have it), and every path must give the same transcript: per row the
** raw span of every value (offset and length), the text accessor's result
** (bytes, or error code, row, column, offset and message), and how the
** walk ended (the error in full); then jj_doc_rows on a fresh parse (count
** or error); then a walk by jj_cursor_skip on a fresh parse, a cycle of
** counts per call (what each call passed, the row it stands on and its
** first value's span, how the walk ended), which the SIMD paths run
** through jj_rows_check and the scalar path row by row.  A difference
** aborts.
**
**   make fuzz-build && build/fuzz/fuzz_scan_paths -max_total_time=180
**
** Not named test_*.c: it is not part of `make test`.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "jalapenojson.h"
#include "transcript.h"


static void add_error(jj_buf *b, const jj_error *e) {
  add(b, " err %d %lld %lld %d %s", (int)e->code,
      e->offset == JJ_NO_OFFSET ? -1LL : (long long)e->offset, (long long)e->row, e->column,
      e->message);
}

static void skip_walk(const char *doc, size_t len, jj_scan scan, jj_buf *out);

static void transcript(const char *doc, size_t len, jj_scan scan, jj_buf *out) {
  jj_error e;
  jj_doc *d = jj_parse_opts(doc, len, JJ_PARSE_SCAN(scan), 0, &e);
  if (!d) {
    add(out, "parse");
    add_error(out, &e);
    return;
  }
  size_t ncol = jj_schema_columns(jj_doc_schema(d));
  jj_cursor *c = jj_cursor_new(d, &e);
  if (!c) abort();
  int rc;
  while ((rc = jj_cursor_next(c, &e)) == 1) {
    add(out, "\nrow %lld", (long long)jj_cursor_row(c));
    for (size_t col = 0; col < ncol; col++) {
      const char *p;
      size_t n;
      int r = jj_cursor_raw(c, col, &p, &n, &e);
      add(out, " [%d %zu %zu", r, r == 1 ? (size_t)(p - doc) : 0, r == 1 ? n : 0);
      r = jj_cursor_text(c, col, &p, &n, &e);
      if (r == 1) {
        add(out, " text %zu ", n);
        if (jj_buf_append(out, p, n)) abort();
      } else if (r < 0) {
        add_error(out, &e);
      }
      add(out, "]");
    }
  }
  add(out, "\nend %d", rc);
  if (rc < 0) add_error(out, &e);
  jj_cursor_free(c);
  jj_doc_free(d);
  d = jj_parse_opts(doc, len, JJ_PARSE_SCAN(scan), 0, &e);
  if (!d) abort(); /* it parsed a moment ago */
  int64_t rows = jj_doc_rows(d, &e);
  add(out, "\nrows %lld", (long long)rows);
  if (rows < 0) add_error(out, &e);
  jj_doc_free(d);
  skip_walk(doc, len, scan, out);
}

/* The document walked by jj_cursor_skip, ks[i % 7] rows a call (the
** counts cross the batches of jj_rows_check and the first row). */
static void skip_walk(const char *doc, size_t len, jj_scan scan, jj_buf *out) {
  static const int64_t ks[7] = {1, 2, 3, 7, 64, 5, 4096};
  jj_error e;
  jj_doc *d = jj_parse_opts(doc, len, JJ_PARSE_SCAN(scan), 0, &e);
  if (!d) return; /* the transcript's parse said why */
  size_t ncol = jj_schema_columns(jj_doc_schema(d));
  jj_cursor *c = jj_cursor_new(d, &e);
  if (!c) abort();
  for (size_t i = 0;; i++) {
    int64_t got = jj_cursor_skip(c, ks[i % 7], &e);
    add(out, "\nskip %lld: %lld", (long long)ks[i % 7], (long long)got);
    if (got < 0) add_error(out, &e);
    if (got <= 0) break;
    add(out, " at %lld", (long long)jj_cursor_row(c));
    if (ncol > 0) {
      const char *p;
      size_t n;
      int r = jj_cursor_raw(c, 0, &p, &n, &e);
      add(out, " [%d %zu %zu]", r, r == 1 ? (size_t)(p - doc) : 0, r == 1 ? n : 0);
      if (r < 0) add_error(out, &e);
    }
  }
  jj_cursor_free(c);
  jj_doc_free(d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *doc = (const char *)data;
  jj_buf want = {0};
  transcript(doc, size, JJ_SCAN_SCALAR, &want);
  for (jj_scan s = JJ_SCAN_SSE2; s <= JJ_SCAN_AVX2; s++) {
    jj_buf got = {0};
    transcript(doc, size, s, &got);
    if (got.len != want.len || memcmp(got.p, want.p, got.len) != 0) {
      fprintf(stderr, "path %d differs from the scalar path:\n%.*s\n--- scalar:\n%.*s\n", (int)s,
              (int)got.len, got.p, (int)want.len, want.p);
      abort();
    }
    jj_buf_free(&got);
  }
  jj_buf_free(&want);
  return 0;
}
