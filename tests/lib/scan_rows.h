/*
** scan_rows.h — what the row scanners' tests share (test_simd_paths.c,
** test_row_step.c): a seeded generator, documents of text columns, rows
** of an exact length, and a row as a reader sees it (every raw span and
** text value, in order or out of order), as one line of text.
** Functions are static inline: a test using some of them compiles clean.
*/
#ifndef JJ_TEST_SCAN_ROWS_H
#define JJ_TEST_SCAN_ROWS_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doc.h"

static uint64_t rng_state = 0x2545F4914F6CDD1DULL;
static inline uint64_t rnd(void) {
  rng_state ^= rng_state >> 12;
  rng_state ^= rng_state << 25;
  rng_state ^= rng_state >> 27;
  return rng_state * 0x2545F4914F6CDD1DULL;
}
static inline size_t pick(size_t n) { return (size_t)(rnd() % n); }

static inline void put(jj_buf *b, const char *s) {
  if (jj_buf_append(b, s, strlen(s))) abort();
}

/* A header with ncol columns named c0, c1, ...: column i of the type
** letter kind[i], or every column "s" when kind is NULL. */
static inline void header_kinds(jj_buf *b, size_t ncol, const char *kind) {
  char s[32];
  put(b, "{\"jalapenojson\":1,\"columns\":[");
  for (size_t i = 0; i < ncol; i++) {
    snprintf(s, sizeof s, "%s\"c%zu\"", i ? "," : "", i);
    put(b, s);
  }
  put(b, "],\"types\":[");
  for (size_t i = 0; i < ncol; i++) {
    snprintf(s, sizeof s, "%s\"%c\"", i ? "," : "", kind ? kind[i] : 's');
    put(b, s);
  }
  put(b, "],\"rows\":[\n");
}

/* A header with ncol columns of type "s" (names c0, c1, ...). */
static inline void header(jj_buf *b, size_t ncol) { header_kinds(b, ncol, NULL); }

/* One value as a reader sees it: the raw span, then the text (or its
** error in full). */
static inline void read_one(jj_cursor *c, const char *doc, size_t col, jj_buf *out) {
  char line[600];
  jj_error e;
  const char *p;
  size_t n;
  int r = jj_cursor_raw(c, col, &p, &n, &e);
  snprintf(line, sizeof line, " [%d %zu %zu", r, r == 1 ? (size_t)(p - doc) : 0, r == 1 ? n : 0);
  put(out, line);
  r = jj_cursor_text(c, col, &p, &n, &e);
  if (r == 1) snprintf(line, sizeof line, " %.*s]", (int)n, p);
  else snprintf(line, sizeof line, " %d %d %lld %s]", r, (int)e.code, (long long)e.offset, e.message);
  put(out, line);
}

/* The columns in the order a reader takes them: in order (0), or out of
** order (1: the last, the middle one, the first twice, then all from the
** last back), so a path that finds a span only when it is read is asked
** for every column after others and after itself. */
static inline size_t order_of(size_t ncol, int order, size_t *cols) {
  size_t k = 0;
  if (order == 0) {
    for (size_t i = 0; i < ncol; i++) cols[k++] = i;
    return k;
  }
  cols[k++] = ncol - 1;
  cols[k++] = ncol / 2;
  cols[k++] = 0;
  cols[k++] = 0;
  for (size_t i = ncol; i-- > 0;) cols[k++] = i;
  return k;
}

/* The values of the cursor's row in the column order `order` (order_of),
** as one line. */
static inline void row_line(jj_cursor *c, const char *doc, int order, jj_buf *out) {
  char line[64];
  size_t cols[4 + 16];
  const size_t ncol = jj_schema_columns(jj_doc_schema(jj_cursor_doc(c)));
  if (ncol > 16) abort(); /* the documents here have at most 9 columns */
  snprintf(line, sizeof line, "row %lld:", (long long)jj_cursor_row(c));
  put(out, line);
  const size_t k = order_of(ncol, order, cols);
  for (size_t i = 0; i < k; i++) read_one(c, doc, cols[i], out);
  put(out, "\n");
}
/* One row of ncol values whose text is exactly len bytes from '[' to ']'
** (len >= 2 + 3 * ncol - 1 + ... is arranged by the caller: short rows
** get fewer columns), made of strings and numbers; when `odd`, some
** strings hold an escape, "é" or ",]", and when odd is 2 also invalid
** UTF-8 or a raw newline and tab (which the reader refuses). */
static inline void row_of_length(jj_buf *b, size_t ncol, size_t len, int odd) {
  size_t inner = len - 2 - (ncol - 1); /* bytes of the values */
  put(b, "[");
  for (size_t i = 0; i < ncol; i++) {
    size_t share = i + 1 == ncol ? inner : inner / (ncol - i);
    inner -= share;
    if (i) put(b, ",");
    if (share < 2 || pick(3) == 0) { /* a number of share digits */
      for (size_t k = 0; k < share; k++) put(b, k == 0 && share > 1 && pick(4) == 0 ? "-" : "7");
    } else {
      put(b, "\"");
      for (size_t k = 0; k + 2 < share; k++) {
        if (odd && k + 4 < share && pick(8) == 0) {
          static const char *const two[] = {"\\\"", "\\\\", "\\n",  "\xc3\xa9",
                                            ",]",     "\"\"",   "\xff\xfe", "\n\t"};
          const char *t = two[pick(odd > 1 ? 8 : 6)];
          if (t[0] == '"') t = "ab";
          put(b, t);
          k++;
        } else {
          put(b, "x");
        }
      }
      put(b, "\"");
    }
  }
  put(b, "]");
}

#endif /* JJ_TEST_SCAN_ROWS_H */
