/*
** test_row_step.c — jj_cursor_next's step on every row scanner (scalar,
** SSE2, AVX2, forced with JJ_PARSE_SCAN): the instances of jj_row_next
** finish the row themselves (row number, index entry), and a row that
** fails leaves the cursor as before: the next call meets the same error,
** the row number stays, seeks from the index and over unindexed rows meet
** it again; every row is indexed at the right place (the index growing
** past 1024), so scrambled seeks and second walks read what the first
** walk read.
*/
#include <stdlib.h>
#include <string.h>

#include "doc.h"
#include "scan_rows.h"
#include "test.h"

/* ------------------------------------------------------------------ */
/* jj_cursor_next's step: jj_row_next's instances finish the row        */
/* themselves (row, index), errors leave the cursor as before           */
/* ------------------------------------------------------------------ */

/* A move's result as one line: rc, then the error in full. */
static void move_text(int64_t rc, const jj_error *e, char *out, size_t cap) {
  if (rc >= 0) snprintf(out, cap, "rc %lld", (long long)rc);
  else
    snprintf(out, cap, "rc %lld code %d row %lld column %d offset %lld: %s", (long long)rc,
             (int)e->code, (long long)e->row, e->column, (long long)e->offset, e->message);
}

/* Walks doc on path `scan` with jj_cursor_next to its end or error (its
** line in `first`), then checks that the cursor stays where the error
** left it: the next call meets the same error, the row number does not
** move, no value is handed out; after a seek to the last good row (from
** the index, and on a new document, by passing over the rows) and after
** a seek to the row before it, jj_cursor_next meets it again; and
** jj_doc_rows reports it.  Returns the number of checks that failed. */
static int error_stays(const char *doc, size_t len, jj_scan scan, char *first, size_t cap) {
  char again[600];
  jj_error e;
  int bad = 0;
  jj_doc *d = jj_parse_opts(doc, len, JJ_PARSE_SCAN(scan), 0, &e);
  if (!d) {
    snprintf(first, cap, "parse %d %s", (int)e.code, e.message);
    return 0;
  }
  jj_cursor *c = jj_cursor_new(d, &e);
  int64_t rows = 0;
  int rc;
  while ((rc = jj_cursor_next(c, &e)) == 1) rows++;
  move_text(rc, &e, first, cap);
  if (rc < 0) {
    const char *p;
    size_t n;
    bad += jj_cursor_row(c) != rows;
    move_text(jj_cursor_next(c, &e), &e, again, sizeof again);
    bad += strcmp(again, first) != 0;
    bad += jj_cursor_row(c) != rows;
    bad += jj_cursor_raw(c, 0, &p, &n, &e) != -1 || e.code != JJ_ERR_USAGE;
    if (rows >= 1) { /* from the index */
      bad += jj_cursor_seek(c, rows, &e) != 1 || jj_cursor_row(c) != rows;
      for (int k = 0; k < 2; k++) {
        move_text(jj_cursor_next(c, &e), &e, again, sizeof again);
        bad += strcmp(again, first) != 0;
      }
    }
    if (rows >= 2) {
      bad += jj_cursor_seek(c, rows - 1, &e) != 1;
      bad += jj_cursor_next(c, &e) != 1 || jj_cursor_row(c) != rows;
      move_text(jj_cursor_next(c, &e), &e, again, sizeof again);
      bad += strcmp(again, first) != 0;
    }
    jj_cursor_free(c);
    jj_doc_free(d);
    /* a new document: the rows before the error passed over (no index) */
    d = jj_parse_opts(doc, len, JJ_PARSE_SCAN(scan), 0, &e);
    c = jj_cursor_new(d, &e);
    if (rows >= 1) bad += jj_cursor_seek(c, rows, &e) != 1 || jj_cursor_row(c) != rows;
    move_text(jj_cursor_next(c, &e), &e, again, sizeof again);
    bad += strcmp(again, first) != 0;
    jj_cursor_free(c);
    jj_doc_free(d);
    d = jj_parse_opts(doc, len, JJ_PARSE_SCAN(scan), 0, &e);
    const int64_t total = jj_doc_rows(d, &e);
    move_text(total, &e, again, sizeof again);
    bad += total != -1 || strcmp(again, first) != 0;
    jj_doc_free(d);
  } else {
    bad += rows != 4;
    jj_cursor_free(c);
    jj_doc_free(d);
  }
  if (bad)
    fprintf(stderr, "     document: %.*s\n     path %d: %s (%d checks failed)\n", (int)len, doc,
            (int)scan, first, bad);
  return bad;
}

/* Four rows of 5 values, of 30 to 140 bytes (one window, two, longer),
** the first, second, third or fourth broken (a value too few, a control
** byte or a '"' in the middle, a row that is not an array, the document
** cut off after it): on every path the walk stops at the same error and
** the cursor stays there (error_stays); every path gives the scalar
** path's error. */
TEST(next_meets_its_error_again_on_every_path) {
  static const size_t lens[] = {30, 70, 100, 140};
  int bad = 0;
  for (int k = 0; k < 240 && bad < 5; k++) {
    const size_t broken = (size_t)k % 4, kind = (size_t)k / 4 % 5;
    jj_buf b = {0};
    header(&b, 5);
    size_t cut = 0;
    for (size_t r = 0; r < 4; r++) {
      if (r) put(&b, ",\n");
      const size_t len = lens[pick(4)], at = b.len;
      if (r == broken && kind == 0) {
        row_of_length(&b, 4, len, 0);
      } else if (r == broken && kind == 3) {
        put(&b, "{\"a\":1}");
      } else {
        row_of_length(&b, 5, len, 0);
        if (r == broken && kind == 1) b.p[at + len / 2] = '\x01';
        if (r == broken && kind == 2) { /* a '"' where there is none */
          size_t q = at + len / 2;
          while (b.p[q] == '"') q++;
          b.p[q] = '"';
        }
        if (r == broken && kind == 4) cut = b.len;
      }
    }
    put(&b, "\n]}");
    const size_t len = cut ? cut : b.len;
    char *doc = malloc(len); /* exactly sized: ASan sees a read past it */
    memcpy(doc, b.p, len);
    char want[600], got[600];
    if (!CHECK(error_stays(doc, len, JJ_SCAN_SCALAR, want, sizeof want) == 0)) bad++;
    if (!CHECK(strncmp(want, "rc -1 ", 6) == 0)) bad++; /* every document here is broken */
    for (jj_scan s = JJ_SCAN_SSE2; s <= JJ_SCAN_AVX2; s++) {
      if (!CHECK(error_stays(doc, len, s, got, sizeof got) == 0)) bad++;
      if (!CHECK(strcmp(got, want) == 0)) {
        fprintf(stderr, "     path %d: %s\n     scalar: %s\n", (int)s, got, want);
        bad++;
      }
    }
    free(doc);
    jj_buf_free(&b);
  }
}

/* 1,500 rows of 1 to 5 values, 5 to 200 bytes, mostly behind the
** canonical ",\n[" (some behind other separators): on every path, the
** rows jj_cursor_next reaches are all indexed (the index grows past 1024
** on the way) at the right place: seeks to every row in a scrambled order
** give what the walk gave, so does a second walk over the indexed rows,
** and a walk that starts after a seek into rows not yet indexed. */
TEST(next_indexes_every_row_on_every_path) {
  enum { ROWS = 1500 };
  jj_buf b = {0};
  const size_t ncol = 1 + pick(5);
  header(&b, ncol);
  for (size_t r = 0; r < ROWS; r++) {
    if (r) put(&b, pick(20) ? ",\n" : ", \n");
    row_of_length(&b, ncol, 2 + 3 * ncol + pick(190), (int)pick(2));
  }
  put(&b, "\n]}");
  for (jj_scan s = JJ_SCAN_SCALAR; s <= JJ_SCAN_AVX2; s++) {
    jj_error e;
    jj_buf walk = {0}, got = {0};
    size_t at[ROWS + 1];
    jj_doc *d = jj_parse_opts(b.p, b.len, JJ_PARSE_SCAN(s), 0, &e);
    if (!CHECK(d != NULL)) break;
    jj_cursor *c = jj_cursor_new(d, &e);
    int rc, rows = 0;
    while (rows < ROWS && (rc = jj_cursor_next(c, &e)) == 1) {
      at[rows++] = walk.len;
      row_line(c, b.p, 0, &walk);
    }
    at[rows] = walk.len;
    CHECK_EQ_INT(rows, ROWS);
    CHECK_EQ_INT(jj_cursor_next(c, &e), 0);
    int bad = 0;
    for (int k = 0; k < rows && bad < 3; k++) { /* every row once, scrambled */
      const int r = (int)((size_t)k * 7919 % ROWS);
      got.len = 0;
      if (jj_cursor_seek(c, r + 1, &e) != 1) bad++;
      else row_line(c, b.p, 0, &got);
      if (got.len != at[r + 1] - at[r] || memcmp(got.p, walk.p + at[r], got.len) != 0) bad++;
    }
    CHECK_EQ_INT(bad, 0);
    jj_cursor *c2 = jj_cursor_new(d, &e); /* over the indexed rows */
    got.len = 0;
    while (jj_cursor_next(c2, &e) == 1) row_line(c2, b.p, 0, &got);
    CHECK(got.len == walk.len && memcmp(got.p, walk.p, got.len) == 0);
    jj_cursor_free(c2);
    jj_cursor_free(c);
    jj_doc_free(d);
    d = jj_parse_opts(b.p, b.len, JJ_PARSE_SCAN(s), 0, &e); /* no index yet */
    c = jj_cursor_new(d, &e);
    got.len = 0;
    CHECK_EQ_INT(jj_cursor_seek(c, 700, &e), 1);
    while (jj_cursor_next(c, &e) == 1) row_line(c, b.p, 0, &got);
    CHECK(got.len == walk.len - at[700] && memcmp(got.p, walk.p + at[700], got.len) == 0);
    bad = 0;
    for (int r = 1; r <= ROWS && bad < 3; r += 13) {
      got.len = 0;
      if (jj_cursor_seek(c, r, &e) != 1) bad++;
      else row_line(c, b.p, 0, &got);
      if (got.len != at[r] - at[r - 1] || memcmp(got.p, walk.p + at[r - 1], got.len) != 0) bad++;
    }
    CHECK_EQ_INT(bad, 0);
    jj_cursor_free(c);
    jj_doc_free(d);
    jj_buf_free(&walk);
    jj_buf_free(&got);
  }
  jj_buf_free(&b);
}

int main(void) {
  RUN(next_meets_its_error_again_on_every_path);
  RUN(next_indexes_every_row_on_every_path);
  return test_summary("row_step");
}
