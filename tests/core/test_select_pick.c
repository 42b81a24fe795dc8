/*
** test_select_pick.c — the span of a single selected column (rowpick.h's
** span_pick_one and span_pick_one2, the mask paths' commonest selection)
** is exactly the span a cursor without a selection locates: the same
** first byte, the same length, the same JJ_SPAN_HIGH flag; and every
** other column is JJ_SPAN_UNLOCATED.  Each column 0..ncol-1 selected
** alone in turn, on random documents of string and number columns whose
** rows end in the first 64-byte window or the second (every length up to
** 128 bytes and a few past), with bytes >= 0x80 before, inside and after
** the selected value, read by jj_cursor_next (jj_row_next's instances)
** and jj_cursor_seek (jj_row_scan's), with every row scanner.  The spans
** are compared as the cursor holds them (doc.h), since a wrong flag on a
** valid value changes no accessor's answer, only which check it skips.
*/
#include <stdlib.h>
#include <string.h>

#include "doc.h"
#include "scan_rows.h" /* the seeded generator: rnd, pick; put, header_kinds */
#include "test.h"

/* A value of a string column ('s': "..." of lowercase letters, now and
** then a two-byte 'é', sometimes empty) or a number column ('f'). */
static void value(jj_buf *b, char kind, size_t len, int high) {
  if (kind == 'f') {
    char num[40];
    size_t k = 0;
    if (!pick(4)) num[k++] = '-';
    num[k++] = (char)('1' + pick(9));
    while (k < len && k < 20) num[k++] = (char)('0' + pick(10));
    if (k < len && k < 30) {
      num[k++] = '.';
      num[k++] = (char)('0' + pick(10));
    }
    num[k] = '\0';
    put(b, num);
    return;
  }
  put(b, "\"");
  for (size_t k = 0; k < len; k++) {
    if (high && !pick(6)) {
      put(b, "\xc3\xa9");
      k++;
    } else {
      const char ch[2] = {(char)('a' + pick(26)), '\0'};
      put(b, ch);
    }
  }
  put(b, "\"");
}

/* A document of ncol columns of the kinds in kind, rows whose values
** share a random budget of bytes (most rows 2-130 bytes long); counts
** the rows that end in the first window and in the second. */
static void document(jj_buf *b, size_t ncol, const char *kind, size_t rows, size_t *one,
                     size_t *two) {
  header_kinds(b, ncol, kind);
  for (size_t r = 0; r < rows; r++) {
    const size_t budget = 1 + pick(140 / ncol + 2); /* bytes a value, about */
    const int high = (int)pick(3);                  /* 0: an ASCII row */
    const size_t at = b->len;
    put(b, r ? ",\n[" : "[");
    for (size_t i = 0; i < ncol; i++) {
      if (i) put(b, ",");
      value(b, kind[i], pick(budget + 1), high && !pick(2));
    }
    put(b, "]");
    const size_t len = b->len - at - (r ? 4 : 2); /* between '[' and ']' */
    if (len < 64) ++*one;
    else if (len < 128) ++*two;
  }
  put(b, "\n]}");
}

/* 1 when cursor b (column j selected) holds a's span for column j, and
** for every other column either a's span or, when mask_path (a SIMD
** scanner: the scalar one writes every span), JJ_SPAN_UNLOCATED (the
** slow paths write every span too: select.c); else 0, the first
** difference told. */
static int spans_match(const jj_cursor *a, const jj_cursor *b, size_t j, const char *doc,
                       const char *how, int mask_path) {
  for (size_t k = 0; k < b->ncol; k++) {
    const jj_span got = b->v[k];
    if ((got.p == a->v[k].p && got.n == a->v[k].n) ||
        (k != j && got.p == b->doc->begin && got.n == JJ_SPAN_UNLOCATED && mask_path))
      continue;
    fprintf(stderr,
            "     %s, row %lld, column %zu of %zu selected: span %zu is at %lld, n %#zx; "
            "the plain cursor's at %lld, n %#zx\n",
            how, (long long)b->row, j, b->ncol, k, (long long)(got.p - doc), got.n,
            (long long)(a->v[k].p - doc), a->v[k].n);
    return 0;
  }
  return 1;
}

/* Each column of doc selected alone, with scanner scan: the walk by
** jj_cursor_next, then every row again by jj_cursor_seek, last first. */
static int every_column_alone(const char *doc, size_t len, jj_scan scan) {
  jj_error err;
  jj_doc *d = jj_parse_opts(doc, len, JJ_PARSE_SCAN(scan), 0, &err);
  if (!d) {
    fprintf(stderr, "     %s\n", err.message);
    return 0;
  }
  jj_cursor *a = jj_cursor_new(d, &err), *b = jj_cursor_new(d, &err);
  if (!a || !b) abort();
  const size_t ncol = a->ncol;
  int ok = 1;
  for (size_t j = 0; j < ncol && ok; j++) {
    if (jj_cursor_seek(a, 0, &err) != 0 || jj_cursor_seek(b, 0, &err) != 0 ||
        jj_cursor_select(b, &j, 1, &err) != JJ_OK)
      return 0;
    if (ncol > 1 && b->want != UINT64_C(1) << j) return 0; /* else no selection at all */
    int ra, rb;
    while (ok && (ra = jj_cursor_next(a, &err)) == 1) {
      rb = jj_cursor_next(b, &err);
      ok = rb == 1 && spans_match(a, b, j, doc, "next", scan != JJ_SCAN_SCALAR);
    }
    ok = ok && ra == 0 && jj_cursor_next(b, &err) == 0;
    for (int64_t r = a->row; ok && r > 0; r--)
      ok = jj_cursor_seek(a, r, &err) == 1 && jj_cursor_seek(b, r, &err) == 1 &&
           spans_match(a, b, j, doc, "seek", scan != JJ_SCAN_SCALAR);
  }
  jj_cursor_free(a);
  jj_cursor_free(b);
  jj_doc_free(d);
  return ok;
}

TEST(one_selected_column_gets_the_plain_span) {
  size_t one = 0, two = 0, docs = 0;
  int bad = 0;
  for (int k = 0; k < 400 && bad < 3; k++) {
    const size_t ncol = 1 + pick(k % 4 ? 9 : 40);
    char kind[64];
    for (size_t i = 0; i < ncol; i++) kind[i] = pick(3) ? 's' : 'f';
    jj_buf b = {0};
    document(&b, ncol, kind, 1 + pick(60), &one, &two);
    /* an exact-size copy, so a read past the end is caught under ASan */
    char *doc = malloc(b.len);
    if (!doc) abort();
    memcpy(doc, b.p, b.len);
    for (int scan = JJ_SCAN_SCALAR; scan <= JJ_SCAN_AVX2; scan++)
      if (!CHECK(every_column_alone(doc, b.len, (jj_scan)scan))) {
        fprintf(stderr, "     scanner %d, document:\n%.*s\n", scan, (int)b.len, doc);
        bad++;
      }
    free(doc);
    jj_buf_free(&b);
    docs++;
  }
  /* the test reaches both mask paths, many times */
  CHECK(one > 2000 && two > 2000);
  if (one <= 2000 || two <= 2000)
    fprintf(stderr, "     %zu documents: %zu rows of one window, %zu of two\n", docs, one, two);
}

/* The edges by hand: a value ending at the last byte of a window, the ']'
** the window's last byte, a value across the two windows, a value >= 0x80
** only in its last byte before the window ends. */
TEST(one_selected_column_at_the_window_edges) {
  for (size_t pad = 50; pad < 80; pad++) {
    for (int high = 0; high < 3; high++) {
      jj_buf b = {0};
      put(&b, "{\"jalapenojson\":1,\"columns\":[\"a\",\"b\",\"c\"],\"types\":[\"s\",\"s\",\"f\"],"
              "\"rows\":[\n");
      for (size_t r = 0; r < 6; r++) {
        put(&b, r ? ",\n[\"" : "[\"");
        for (size_t k = 0; k < pad + r; k++)
          put(&b, high == 1 && k == pad + r - 2 ? "\xc3\xa9" : "x");
        put(&b, "\",\"");
        put(&b, high == 2 ? "\xc3\xa9" : "y");
        put(&b, "\",1.5]");
      }
      put(&b, "\n]}");
      char *doc = malloc(b.len);
      if (!doc) abort();
      memcpy(doc, b.p, b.len);
      for (int scan = JJ_SCAN_SCALAR; scan <= JJ_SCAN_AVX2; scan++)
        if (!CHECK(every_column_alone(doc, b.len, (jj_scan)scan)))
          fprintf(stderr, "     scanner %d, pad %zu, high %d\n", scan, pad, high);
      free(doc);
      jj_buf_free(&b);
    }
  }
}

int main(void) {
  RUN(one_selected_column_gets_the_plain_span);
  RUN(one_selected_column_at_the_window_edges);
  return test_summary("select_pick");
}
