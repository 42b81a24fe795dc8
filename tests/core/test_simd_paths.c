/*
** test_simd_paths.c — the row scanners forced with JJ_PARSE_SCAN (scalar,
** SSE2, AVX2) agree: the byte masks of rowmask.h against a byte-by-byte
** reference, and every path's spans, values, errors (code, row, column,
** byte offset, message) and row counts against the scalar path's, on rows
** of every length around the 16/32/64/128-byte windows, at every
** alignment, with escapes, quotes, backslashes, newlines in strings,
** bytes >= 0x80 and one broken byte at every position.  On a CPU or build
** without AVX2 the AVX2 runs take the widest path there is
** (jj_doc_scan says which; checked too).  test_perf_paths.c runs the same
** comparison on random documents.
*/
#include <stdlib.h>
#include <string.h>

#include "doc.h"
#include "test.h"

#if defined(__SSE2__) && !defined(JJ_NO_SIMD)
#include <emmintrin.h>
#define JJ_SSE2 1
#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define JJ_AVX2 1
#endif
#endif
#include "rowmask.h"
#include "scan_rows.h"

#ifdef JJ_SSE2
/* The masks of w[0..64) byte by byte, as doc.h defines them. */
static void reference_masks(const unsigned char *w, jj_masks *m) {
  memset(m, 0, sizeof *m);
  for (int k = 0; k < 64; k++) {
    const uint64_t bit = UINT64_C(1) << k;
    const unsigned char x = w[k];
    if (x == '"') m->quote |= bit;
    if (x == ',') m->comma |= bit;
    if (x == ']') m->close |= bit;
    if (x == '\\' || x < 0x20) m->odd |= bit;
    if (x >= 0x80) m->high |= bit;
    if ((x >= '0' && x <= '9') || x == '+' || x == '-' || x == '.' || x == 'e' || x == 'E' ||
        x == ',' || x == '"')
      m->bare |= bit;
    if ((x >= '0' && x <= '9') || x == '-' || x == '"') m->lead |= bit;
  }
  /* inside a string: an odd number of quotes at or before each byte */
  int inside = 0;
  for (int k = 0; k < 64; k++) {
    inside ^= w[k] == '"';
    if (inside) m->str |= UINT64_C(1) << k;
  }
}

static int same_masks(const jj_masks *a, const jj_masks *b) {
  return a->quote == b->quote && a->comma == b->comma && a->close == b->close &&
         a->odd == b->odd && a->high == b->high && a->bare == b->bare && a->lead == b->lead &&
         a->str == b->str;
}

/* The half masks of w[0..32): the reference's low 32 bits, zero above,
** but str, which goes on with the 32 bytes' parity. */
static int same_half_masks(const jj_masks *want, const jj_masks *got) {
  const uint64_t lo = 0xffffffffu, par = want->str >> 31 & 1 ? ~lo : 0;
  return got->quote == (want->quote & lo) && got->comma == (want->comma & lo) &&
         got->close == (want->close & lo) && got->odd == (want->odd & lo) &&
         got->high == (want->high & lo) && got->bare == (want->bare & lo) &&
         got->lead == (want->lead & lo) && got->str == ((want->str & lo) | par);
}

#ifdef JJ_AVX2
static JJ_TARGET_AVX2 void avx2_masks(const char *w, jj_masks *m) { window_masks_avx2(w, m); }
static JJ_TARGET_AVX2 void avx2_half_masks(const char *w, jj_masks *m) { half_masks_avx2(w, m); }
#endif

/* Every byte value at every position of a block, and random blocks;
** the whole window and its first half. */
TEST(block_masks_match_the_bytewise_reference) {
  unsigned char w[64];
  jj_masks want, got;
#ifdef JJ_AVX2
  const int avx2 = JJ_CPU_AVX2();
#endif
  for (int k = 0; k < 64 * 256 + 4000; k++) {
    for (int i = 0; i < 64; i++) w[i] = (unsigned char)"\"\\,]0e-x\x80\x1f "[pick(11)];
    if (k < 64 * 256) w[k / 256] = (unsigned char)(k % 256);
    else
      for (int i = 0; i < 64; i++) w[i] = (unsigned char)rnd();
    reference_masks(w, &want);
    window_masks((const char *)w, &got);
    if (!CHECK(same_masks(&want, &got))) break;
    half_masks((const char *)w, &got);
    if (!CHECK(same_half_masks(&want, &got))) break;
#ifdef JJ_AVX2
    if (avx2) { /* its bare and lead also hold the odd bytes (rowmask.h) */
      want.bare |= want.odd;
      want.lead |= want.odd;
      avx2_masks((const char *)w, &got);
      if (!CHECK(same_masks(&want, &got))) break;
      avx2_half_masks((const char *)w, &got);
      if (!CHECK(same_half_masks(&want, &got))) break;
    }
#endif
  }
}
#endif

/* How a walk ended: rc, then the error in full when rc < 0. */
static void error_line(const char *what, int64_t rc, const jj_error *e, jj_buf *out) {
  char line[600];
  snprintf(line, sizeof line, "%s %lld %d %lld %lld %d %s\n", what, (long long)rc,
           rc < 0 ? (int)e->code : 0, rc < 0 ? (long long)e->offset : 0,
           rc < 0 ? (long long)e->row : 0, rc < 0 ? e->column : 0, rc < 0 ? e->message : "");
  put(out, line);
}

/* What a reader sees, as text: per row every raw span and text value (or
** its error), in the column order `order` (order_of), then how the walk
** ended, then jj_doc_rows on a fresh parse (its count or error).  Errors
** in full: code, row, column, offset, message. */
static void transcript_in(const char *doc, size_t len, jj_scan scan, int order, jj_buf *out) {
  char line[600];
  jj_error e;
  jj_doc *d = jj_parse_opts(doc, len, JJ_PARSE_SCAN(scan), 0, &e);
  if (!d) {
    snprintf(line, sizeof line, "parse %d %s\n", (int)e.code, e.message);
    put(out, line);
    return;
  }
  jj_cursor *c = jj_cursor_new(d, &e);
  int rc;
  while ((rc = jj_cursor_next(c, &e)) == 1) row_line(c, doc, order, out);
  error_line("end", rc, &e, out);
  jj_cursor_free(c);
  jj_doc_free(d);
  d = jj_parse_opts(doc, len, JJ_PARSE_SCAN(scan), 0, &e);
  int64_t rows = jj_doc_rows(d, &e);
  snprintf(line, sizeof line, "rows %lld %s\n", (long long)rows, rows < 0 ? e.message : "");
  put(out, line);
  jj_doc_free(d);
}

/* jj_cursor_skip(k) from the start to the end or an error, as the calls
** return (how many rows moved, then the row it stands on), and what the
** same walk must give from jj_cursor_next's (want: the row it stops on
** is the k-th after the last; at the end, the rows left; before a broken
** row, the rows before it, standing on the last of them, then the
** error).  Returns 1 when they are the same text. */
static int skip_agrees(const char *doc, size_t len, jj_scan scan, int64_t k) {
  jj_error e;
  jj_buf got = {0}, want = {0}, rows = {0};
  size_t *at = NULL, nrows = 0; /* where each row's line starts in rows */
  jj_doc *d = jj_parse_opts(doc, len, JJ_PARSE_SCAN(scan), 0, &e);
  if (!d) return 1; /* nothing to walk: the transcript compares the parse */
  jj_cursor *c = jj_cursor_new(d, &e);
  int rc;
  while ((rc = jj_cursor_next(c, &e)) == 1) {
    at = realloc(at, (nrows + 2) * sizeof *at);
    at[nrows++] = rows.len;
    row_line(c, doc, 0, &rows);
  }
  jj_error last = e;
  if (at) at[nrows] = rows.len;
  for (size_t done = 0;;) { /* what the calls must return */
    char line[64];
    if (done + (size_t)k <= nrows) {
      done += (size_t)k;
      snprintf(line, sizeof line, "moved %lld\n", (long long)k);
      put(&want, line);
      jj_buf_append(&want, rows.p + at[done - 1], at[done] - at[done - 1]);
    } else if (done < nrows) {
      snprintf(line, sizeof line, "moved %lld\n", (long long)(nrows - done));
      put(&want, line);
      if (rc < 0) jj_buf_append(&want, rows.p + at[nrows - 1], at[nrows] - at[nrows - 1]);
      done = nrows;
    } else {
      error_line("last", rc, &last, &want);
      break;
    }
  }
  jj_cursor_free(c);
  jj_doc_free(d); /* a new document: the walk is its first, which indexes */
  d = jj_parse_opts(doc, len, JJ_PARSE_SCAN(scan), 0, &e);
  c = jj_cursor_new(d, &e);
  for (;;) { /* what they return */
    int64_t m = jj_cursor_skip(c, k, &e);
    if (m <= 0) {
      error_line("last", m, &e, &got);
      break;
    }
    char line[64];
    snprintf(line, sizeof line, "moved %lld\n", (long long)m);
    put(&got, line);
    if (jj_cursor_row(c) > 0 && jj_cursor_is_null(c, 0) >= 0) row_line(c, doc, 0, &got);
  }
  /* then every row the walk passed, by the index it left (jj_cursor_seek
  ** goes straight to an indexed row): the row jj_cursor_next gave */
  for (size_t r = 1; r <= nrows; r++) {
    char line[64];
    snprintf(line, sizeof line, "seek %zu\n", r);
    put(&want, line);
    jj_buf_append(&want, rows.p + at[r - 1], at[r] - at[r - 1]);
    put(&got, line);
    if (jj_cursor_seek(c, (int64_t)r, &e) == 1) row_line(c, doc, 0, &got);
    else error_line("seek", -1, &e, &got);
  }
  const int ok = got.len == want.len && memcmp(got.p, want.p, got.len) == 0;
  if (!ok)
    fprintf(stderr, "     document: %.*s\n     skip %lld, path %d:\n%.*s\n     want:\n%.*s\n",
            (int)len, doc, (long long)k, (int)scan, (int)got.len, got.p, (int)want.len, want.p);
  jj_cursor_free(c);
  jj_doc_free(d);
  jj_buf_free(&got);
  jj_buf_free(&want);
  jj_buf_free(&rows);
  free(at);
  return ok;
}

/* Every path gives the scalar path's transcript, reading the columns in
** order and out of order, and jj_cursor_skip on every path passes the
** rows as jj_cursor_next does; the document is copied to a buffer of its
** exact size, so a read past its end shows under ASan. */
static int paths_agree_in(const char *src, size_t len, int order) {
  char *doc = malloc(len);
  memcpy(doc, src, len);
  jj_buf a = {0};
  int ok = 1;
  transcript_in(doc, len, JJ_SCAN_SCALAR, order, &a);
  for (jj_scan s = JJ_SCAN_SSE2; s <= JJ_SCAN_AVX2 && ok; s++) {
    jj_buf b = {0};
    transcript_in(doc, len, s, order, &b);
    ok = a.len == b.len && memcmp(a.p, b.p, a.len) == 0;
    if (!ok)
      fprintf(stderr, "     document: %.*s\n     path %d:\n%.*s\n     scalar:\n%.*s\n", (int)len,
              doc, (int)s, (int)b.len, b.p, (int)a.len, a.p);
    jj_buf_free(&b);
  }
  jj_buf_free(&a);
  free(doc);
  return ok;
}
static int paths_agree(const char *src, size_t len) {
  if (!paths_agree_in(src, len, 0) || !paths_agree_in(src, len, 1)) return 0;
  char *doc = malloc(len);
  memcpy(doc, src, len);
  int ok = 1;
  for (jj_scan s = JJ_SCAN_SCALAR; s <= JJ_SCAN_AVX2 && ok; s++)
    ok = skip_agrees(doc, len, s, 2) && skip_agrees(doc, len, s, 3) &&
         skip_agrees(doc, len, s, 7); /* several rows checked in one call (jj_rows_check) */
  free(doc);
  return ok;
}

/* Rows of every length 2..200 (so ending on both sides of the 16, 32, 64
** and 128-byte edges), after a first row that shifts them to every
** alignment, with 1..9 columns, plain and with escapes and high bytes;
** the last row also ends the document, so the second window runs past
** the end. */
TEST(paths_agree_on_rows_of_every_length) {
  int bad = 0;
  for (size_t len = 2; len <= 200 && bad < 5; len++) {
    for (size_t ncol = 1; ncol <= 9; ncol++) {
      if (2 + (ncol - 1) + ncol > len) break;
      for (int odd = 0; odd < 3; odd++) {
        jj_buf b = {0};
        header(&b, ncol);
        size_t lead = pick(70);
        if (ncol * 3 + 1 <= lead + 2) row_of_length(&b, ncol, lead + 2 + ncol * 3, 0);
        else row_of_length(&b, ncol, ncol * 3 + 1, 0);
        for (int r = 0; r < 4; r++) {
          put(&b, ",\n");
          row_of_length(&b, ncol, len, odd);
        }
        put(&b, "\n]}");
        if (!CHECK(paths_agree(b.p, b.len))) bad++;
        jj_buf_free(&b);
      }
    }
  }
}

/* One byte of a valid row of 40..140 bytes replaced, at every position,
** by each byte that matters to the scanners: every path accepts the same
** rows and reports the same error at the same row, column and byte. */
TEST(paths_agree_on_one_broken_byte_anywhere) {
  static const char subst[] = {'"', '\\', ']', '[', ',', '\x01', ' ', '\n', 'x', '\xff', '0', '}'};
  int bad = 0;
  for (size_t len = 40; len <= 140 && bad < 5; len += 9) {
    jj_buf b = {0};
    header(&b, 5);
    row_of_length(&b, 5, 30, 0);
    put(&b, ",\n");
    const size_t at = b.len;
    row_of_length(&b, 5, len, 2);
    put(&b, ",\n");
    row_of_length(&b, 5, 70, 0);
    put(&b, "\n]}");
    for (size_t k = 0; k < len && bad < 5; k++) {
      for (size_t s = 0; s < sizeof subst; s++) {
        const char keep = b.p[at + k];
        b.p[at + k] = subst[s];
        if (!CHECK(paths_agree(b.p, b.len))) bad++;
        b.p[at + k] = keep;
      }
    }
    jj_buf_free(&b);
  }
}

/* Rows the mask paths take, between separators that are not the
** canonical ",\n[" (whitespace before the ',', after the '\n', a "\r\n",
** a blank line): jj_cursor_skip's several-rows check (jj_rows_check)
** stops at each, and where it guesses a row's end from the next '\n' the
** guess is wrong; every path passes and reads the same rows. */
TEST(paths_agree_between_odd_separators) {
  static const char *const sep[] = {" ,\n", ",\n\n", ",\r\n", "\n,", ",\n ", ",", ", \n"};
  int bad = 0;
  for (int k = 0; k < 200 && bad < 5; k++) {
    jj_buf b = {0};
    const size_t ncol = 1 + pick(6);
    header(&b, ncol);
    for (size_t r = 0, rows = 2 + pick(20); r < rows; r++) {
      if (r) put(&b, pick(3) ? ",\n" : sep[pick(sizeof sep / sizeof *sep)]);
      row_of_length(&b, ncol, 2 + 3 * ncol + pick(130), 0);
    }
    put(&b, "\n]}");
    if (!CHECK(paths_agree(b.p, b.len))) bad++;
    jj_buf_free(&b);
  }
}

/* Random canonical documents of rows near the window sizes: the row
** count of every path is exact, and agrees with the header's "count"
** check (a wrong count is the same JJ_ERR_COUNT on every path). */
TEST(row_counts_are_exact_on_every_path) {
  for (int k = 0; k < 300; k++) {
    jj_buf b = {0};
    const size_t ncol = 1 + pick(7), rows = pick(60);
    const int wrong = pick(4) == 0;
    char head[64];
    header(&b, ncol);
    b.len -= strlen(",\"rows\":[\n");
    snprintf(head, sizeof head, ",\"count\":%zu,\"rows\":[\n", rows + (size_t)wrong);
    put(&b, head);
    for (size_t r = 0; r < rows; r++) {
      if (r) put(&b, ",\n");
      size_t len = 2 + 3 * ncol + pick(150);
      row_of_length(&b, ncol, len, (int)pick(2));
    }
    put(&b, "\n]}");
    for (jj_scan s = JJ_SCAN_SCALAR; s <= JJ_SCAN_AVX2; s++) {
      jj_error e;
      jj_doc *d = jj_parse_opts(b.p, b.len, JJ_PARSE_SCAN(s), 0, &e);
      int64_t n = jj_doc_rows(d, &e);
      if (wrong) {
        CHECK_EQ_INT(n, -1);
        CHECK_EQ_INT(e.code, JJ_ERR_COUNT);
      } else {
        CHECK_EQ_INT(n, (int64_t)rows);
      }
      jj_doc_free(d);
    }
    CHECK(paths_agree(b.p, b.len));
    jj_buf_free(&b);
  }
}

/* Nested tables as each path reads them: per row the text column, then
** the table's rows with their columns out of order (order_of), then the
** text column again; errors in full. */
static void nested_transcript(const char *doc, size_t len, jj_scan scan, jj_buf *out) {
  char line[600];
  jj_error e;
  jj_doc *d = jj_parse_opts(doc, len, JJ_PARSE_SCAN(scan), 0, &e);
  if (!d) {
    snprintf(line, sizeof line, "parse %d %s\n", (int)e.code, e.message);
    put(out, line);
    return;
  }
  jj_cursor *c = jj_cursor_new(d, &e);
  int rc;
  while ((rc = jj_cursor_next(c, &e)) == 1) {
    jj_doc *sub = NULL;
    read_one(c, doc, 1, out);
    int r = jj_cursor_table(c, 0, &sub, &e);
    snprintf(line, sizeof line, " table %d %d %lld\n", r, r < 0 ? (int)e.code : 0,
             r < 0 ? (long long)e.offset : 0);
    put(out, line);
    if (r == 1) {
      jj_cursor *sc = jj_cursor_new(sub, &e);
      size_t cols[4 + 16], ncol = jj_schema_columns(jj_doc_schema(sub));
      int src;
      while ((src = jj_cursor_next(sc, &e)) == 1) {
        const size_t k = order_of(ncol, 1, cols);
        put(out, "  sub:");
        for (size_t i = 0; i < k; i++) read_one(sc, doc, cols[i], out);
        put(out, "\n");
      }
      snprintf(line, sizeof line, "  sub end %d %d %lld %s\n", src, src < 0 ? (int)e.code : 0,
               src < 0 ? (long long)e.offset : 0, src < 0 ? e.message : "");
      put(out, line);
      jj_cursor_free(sc);
      jj_doc_free(sub);
    }
    read_one(c, doc, 1, out);
    put(out, "\n");
  }
  snprintf(line, sizeof line, "end %d %d %lld %s\n", rc, rc < 0 ? (int)e.code : 0,
           rc < 0 ? (long long)e.offset : 0, rc < 0 ? e.message : "");
  put(out, line);
  jj_cursor_free(c);
  jj_doc_free(d);
}

/* Rows holding a nested table of ncol text columns (rows of every length,
** with escapes, quotes and bytes >= 0x80 across the 64-byte windows, some
** broken) and a text column: every path reads the nested values out of
** order as the scalar path does. */
TEST(paths_agree_on_nested_tables_read_out_of_order) {
  int bad = 0;
  for (int k = 0; k < 400 && bad < 5; k++) {
    const size_t ncol = 1 + pick(6), rows = 1 + pick(4);
    char name[32];
    jj_buf b = {0};
    put(&b, "{\"jalapenojson\":1,\"columns\":[\"t\",\"s\"],\"types\":[{\"columns\":[");
    for (size_t i = 0; i < ncol; i++) {
      snprintf(name, sizeof name, "%s\"c%zu\"", i ? "," : "", i);
      put(&b, name);
    }
    put(&b, "],\"types\":[");
    for (size_t i = 0; i < ncol; i++) put(&b, i ? ",\"s\"" : "\"s\"");
    put(&b, "]},\"s\"],\"rows\":[\n");
    for (size_t r = 0; r < rows; r++) {
      if (r) put(&b, ",\n");
      put(&b, "[[");
      const size_t sub = pick(4);
      for (size_t q = 0; q < sub; q++) {
        if (q) put(&b, ",");
        row_of_length(&b, ncol, 2 + 3 * ncol + pick(140), (int)pick(3));
      }
      put(&b, "],\"after\"]");
    }
    put(&b, "\n]}");
    char *doc = malloc(b.len);
    memcpy(doc, b.p, b.len);
    jj_buf want = {0};
    nested_transcript(doc, b.len, JJ_SCAN_SCALAR, &want);
    for (jj_scan s = JJ_SCAN_SSE2; s <= JJ_SCAN_AVX2; s++) {
      jj_buf got = {0};
      nested_transcript(doc, b.len, s, &got);
      if (!CHECK(want.len == got.len && memcmp(want.p, got.p, want.len) == 0)) {
        fprintf(stderr, "     document: %.*s\n     path %d:\n%.*s\n     scalar:\n%.*s\n",
                (int)b.len, doc, (int)s, (int)got.len, got.p, (int)want.len, want.p);
        bad++;
      }
      jj_buf_free(&got);
    }
    jj_buf_free(&want);
    free(doc);
    jj_buf_free(&b);
  }
}

/* The option picks the path: scalar when asked, never AUTO, never wider
** than asked, the widest when not asked; nested tables inherit it. */
TEST(parse_option_chooses_the_path) {
  static const char doc[] = "{\"jalapenojson\":1,\"columns\":[\"t\"],"
                            "\"types\":[{\"columns\":[\"n\"],\"types\":[\"i\"]}],"
                            "\"rows\":[\n[[[1],[2]]]\n]}";
  jj_scan widest = JJ_SCAN_SCALAR;
  for (jj_scan s = JJ_SCAN_AUTO; s <= JJ_SCAN_AVX2; s++) {
    jj_error e;
    jj_doc *d = jj_parse_opts(doc, sizeof doc - 1, JJ_PARSE_SCAN(s), 0, &e);
    if (!CHECK(d != NULL)) return;
    jj_scan got = jj_doc_scan(d);
    CHECK(got != JJ_SCAN_AUTO);
    if (s == JJ_SCAN_AUTO) widest = got;
    else CHECK(got <= s);
    if (s == JJ_SCAN_SCALAR) CHECK_EQ_INT(got, JJ_SCAN_SCALAR);
    if (s != JJ_SCAN_AUTO) CHECK(got <= widest);
    jj_cursor *c = jj_cursor_new(d, &e);
    jj_doc *sub = NULL;
    CHECK_EQ_INT(jj_cursor_next(c, &e), 1);
    CHECK_EQ_INT(jj_cursor_table(c, 0, &sub, &e), 1);
    CHECK_EQ_INT(jj_doc_scan(sub), got);
    CHECK_EQ_INT(jj_doc_rows(sub, &e), 2);
    jj_doc_free(sub);
    jj_cursor_free(c);
    jj_doc_free(d);
  }
#ifdef JJ_SSE2
  CHECK(widest >= JJ_SCAN_SSE2);
#endif
#ifdef JJ_AVX2
  CHECK_EQ_INT(widest == JJ_SCAN_AVX2, JJ_CPU_AVX2());
#endif
  CHECK_EQ_INT(jj_doc_scan(NULL), JJ_SCAN_SCALAR);
}

/* Every byte value 0-255 at every position of a row the mask paths take
** in one window (46 bytes), in two with the ']' in the second window's
** first half (90) and in its second half (118), numbers and strings
** mixed (the bytes that start, end or stop a value, the class bytes of
** rowmask.h's AVX2 masks and their nibble neighbours all come by): the
** paths read the same values and errors, and jj_rows_check passes the
** rows as jj_cursor_next does.  Lighter than paths_agree (in-order reads,
** one skip length) so that the 65,000 documents stay quick. */
static int every_byte_agrees(const char *src, size_t len) {
  char *doc = malloc(len);
  memcpy(doc, src, len);
  jj_buf a = {0};
  int ok = 1;
  transcript_in(doc, len, JJ_SCAN_SCALAR, 0, &a);
  for (jj_scan s = JJ_SCAN_SSE2; s <= JJ_SCAN_AVX2 && ok; s++) {
    jj_buf b = {0};
    transcript_in(doc, len, s, 0, &b);
    ok = a.len == b.len && memcmp(a.p, b.p, a.len) == 0;
    if (!ok)
      fprintf(stderr, "     document: %.*s\n     path %d:\n%.*s\n     scalar:\n%.*s\n", (int)len,
              doc, (int)s, (int)b.len, b.p, (int)a.len, a.p);
    jj_buf_free(&b);
    if (ok) ok = skip_agrees(doc, len, s, 5);
  }
  jj_buf_free(&a);
  free(doc);
  return ok;
}

TEST(paths_agree_on_every_byte_value_anywhere) {
  static const size_t lens[] = {46, 90, 118};
  int bad = 0;
  for (size_t l = 0; l < sizeof lens / sizeof *lens && bad < 5; l++) {
    const size_t len = lens[l];
    jj_buf b = {0};
    header(&b, 6);
    row_of_length(&b, 6, 40, 0);
    put(&b, ",\n");
    const size_t at = b.len;
    row_of_length(&b, 6, len, 0);
    for (int r = 0; r < 3; r++) {
      put(&b, ",\n");
      row_of_length(&b, 6, len, 0);
    }
    put(&b, "\n]}");
    for (size_t k = 0; k < len && bad < 5; k++) {
      const char keep = b.p[at + k];
      for (int x = 0; x < 256 && bad < 5; x++) {
        b.p[at + k] = (char)x;
        if (!CHECK(every_byte_agrees(b.p, b.len))) bad++;
      }
      b.p[at + k] = keep;
    }
    jj_buf_free(&b);
  }
}

int main(void) {
#ifdef JJ_SSE2
  RUN(block_masks_match_the_bytewise_reference);
#endif
  RUN(paths_agree_on_rows_of_every_length);
  RUN(paths_agree_on_one_broken_byte_anywhere);
  RUN(paths_agree_between_odd_separators);
  RUN(row_counts_are_exact_on_every_path);
  RUN(paths_agree_on_nested_tables_read_out_of_order);
  RUN(parse_option_chooses_the_path);
  RUN(paths_agree_on_every_byte_value_anywhere);
  return test_summary("simd_paths");
}
