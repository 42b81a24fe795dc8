/*
** test_perf_paths.c — the reader's fast paths give exactly what the plain
** paths give.  A document scans rows with SIMD (a one-window path for
** rows of strings and numbers, a 64-byte block path for other simple rows,
** SSE2 string and number scanning for the rest) unless
** jj_parse_opts asks for another path (JJ_PARSE_SCAN: scalar, SSE2,
** AVX2); all run on the same documents here and must agree on every
** span, value and error.
** Also: the ASCII shortcut of text (strings with a byte >= 0x80 at every
** position and alignment are still UTF-8 checked), the inline integer,
** float and date shortcuts against the full parsers, and seeks on a
** pretty-printed document.
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "doc.h"
#include "test_reader.h"

/* A small deterministic generator (xorshift64*). */
static uint64_t rng_state = 0x9E3779B97F4A7C15ULL;
static uint64_t rnd(void) {
  rng_state ^= rng_state >> 12;
  rng_state ^= rng_state << 25;
  rng_state ^= rng_state >> 27;
  return rng_state * 0x2545F4914F6CDD1DULL;
}
static size_t pick(size_t n) { return (size_t)(rnd() % n); }

/* jj_num_short_double_in on a copy of p[0..len) followed by ',' bytes, as
** in a row (a short number is read as the 8 bytes from its first digit). */
static int short_double(const char *p, size_t len, double *out) {
  char buf[64];
  if (len > 40) return 0;
  memset(buf, ',', sizeof buf);
  memcpy(buf + 8, p, len);
  return jj_num_short_double_in(buf + 8, len, buf, buf + sizeof buf, out);
}

/* Append a NUL-terminated string to b (out of memory stops the test). */
static void put(jj_buf *b, const char *s) {
  if (jj_buf_append(b, s, strlen(s))) abort();
}
static void putn(jj_buf *b, const char *s, size_t n) {
  if (jj_buf_append(b, s, n)) abort();
}

/* A header with ncol text columns named c0, c1, ... */
static void header(jj_buf *b, size_t ncol, const char *type) {
  char name[32];
  put(b, "{\"jalapenojson\":1,\"columns\":[");
  for (size_t i = 0; i < ncol; i++) {
    snprintf(name, sizeof name, "%s\"c%zu\"", i ? "," : "", i);
    put(b, name);
  }
  put(b, "],\"types\":[");
  for (size_t i = 0; i < ncol; i++) {
    put(b, i ? ",\"" : "\"");
    put(b, type);
    put(b, "\"");
  }
  put(b, "],\"rows\":[\n");
}

/* Everything a reader sees of a document, as text: per row the move's
** result, per column the raw span (offset, length) and the text
** accessor's result (bytes or error), and any error in full. */
static void transcript(const char *doc, size_t len, jj_scan scan, jj_buf *out) {
  char line[512];
  jj_error e;
  jj_doc *d = jj_parse_opts(doc, len, JJ_PARSE_SCAN(scan), 0, &e);
  if (!d) {
    snprintf(line, sizeof line, "parse: %s\n", e.message);
    put(out, line);
    return;
  }
  size_t ncol = jj_schema_columns(jj_doc_schema(d));
  jj_cursor *c = jj_cursor_new(d, &e);
  int rc;
  while ((rc = jj_cursor_next(c, &e)) == 1) {
    snprintf(line, sizeof line, "row %lld\n", (long long)jj_cursor_row(c));
    put(out, line);
    for (size_t col = 0; col < ncol; col++) {
      const char *p;
      size_t n;
      int r = jj_cursor_raw(c, col, &p, &n, &e);
      snprintf(line, sizeof line, " raw %d %zu %zu", r, r == 1 ? (size_t)(p - doc) : 0,
               r == 1 ? n : 0);
      put(out, line);
      r = jj_cursor_text(c, col, &p, &n, &e);
      snprintf(line, sizeof line, " text %d ", r);
      put(out, line);
      if (r == 1) putn(out, p, n);
      if (r < 0) {
        snprintf(line, sizeof line, "%d %lld %lld %d %s", (int)e.code, (long long)e.offset,
                 (long long)e.row, e.column, e.message);
        put(out, line);
      }
      put(out, "\n");
    }
  }
  snprintf(line, sizeof line, "end %d", rc);
  put(out, line);
  if (rc < 0) {
    snprintf(line, sizeof line, " %d %lld %lld %d %s", (int)e.code, (long long)e.offset,
             (long long)e.row, e.column, e.message);
    put(out, line);
  }
  put(out, "\n");
  jj_cursor_free(c);
  jj_doc_free(d);
}

/* 1 when every path (scalar, SSE2, AVX2; those this build and CPU lack
** fall back to a narrower one) gives the scalar path's transcript (the
** first difference is printed otherwise). */
static int paths_agree(const char *doc, size_t len) {
  jj_buf a = {0};
  int ok = 1;
  transcript(doc, len, JJ_SCAN_SCALAR, &a);
  for (jj_scan s = JJ_SCAN_SSE2; s <= JJ_SCAN_AVX2 && ok; s++) {
    jj_buf b = {0};
    transcript(doc, len, s, &b);
    ok = a.len == b.len && memcmp(a.p, b.p, a.len) == 0;
    if (!ok)
      fprintf(stderr, "     document: %.*s\n     path %d:\n%.*s\n     scalar:\n%.*s\n", (int)len,
              doc, (int)s, (int)b.len, b.p, (int)a.len, a.p);
    jj_buf_free(&b);
  }
  jj_buf_free(&a);
  return ok;
}

/* A random JSON-ish value: mostly valid, sometimes broken, with the
** bytes that matter to the scanners (quotes, backslash runs, bytes >=
** 0x80, control bytes, brackets and commas inside strings, whitespace). */
static void random_value(jj_buf *b) {
  static const char *const plain[] = {
      "0", "-12", "149.99", "1e5", "-0.0", "12345678901234567890", "null", "true", "false",
      "[1,[2,\"]\"]]", "{\"a\":[1,\",\"]}", "[]", "\"2024-02-29\"", "\"2023-02-29\"",
      /* broken ones */
      "12a", "+1", "nul", "truex", "fals", ".5", "--1", "\"", "", "[1,", "{\"a\"}"};
  static const char *const parts[] = {
      "a", "Troms\xc3\xb8", " ", ",", "]", "[", "{", "\\\"", "\\\\", "\\\\\\\"", "\\n",
      "\\u00e9", "\xff", "\xc3", "\x01", "\t", "xxxxxxxxxxxxxxx", "\xe2\x82\xac", "\\"};
  if (pick(3)) {
    put(b, "\"");
    size_t k = pick(24);
    for (size_t i = 0; i < k; i++) {
      size_t j = pick(sizeof parts / sizeof parts[0]);
      if (j >= 12 && pick(4)) j = 0; /* the odd bytes now and then */
      put(b, parts[j]);
    }
    put(b, "\"");
  } else {
    size_t j = pick(sizeof plain / sizeof plain[0]);
    if (j >= 14 && pick(3)) j = pick(14);
    put(b, plain[j]);
  }
}

/* A random document of ncol text columns, mostly canonical. */
static void random_doc(jj_buf *b, size_t ncol) {
  static const char *const ws[] = {"", "", "", "", " ", "\n", "\t ", "\r\n  "};
  header(b, ncol, "s");
  size_t rows = pick(12);
  for (size_t r = 0; r < rows; r++) {
    size_t n = pick(16) ? ncol : ncol + pick(3) - 1;
    if (r) put(b, pick(8) ? ",\n" : " ,\n ");
    put(b, "[");
    for (size_t i = 0; i < n; i++) {
      if (i) put(b, ",");
      if (!pick(10)) put(b, ws[pick(8)]);
      random_value(b);
      if (!pick(10)) put(b, ws[pick(8)]);
    }
    put(b, "]");
  }
  put(b, "\n]}");
}

TEST(scan_paths_agree_on_random_documents) {
  int bad = 0;
  for (int k = 0; k < 20000 && bad < 5; k++) {
    jj_buf b = {0};
    random_doc(&b, 1 + pick(9));
    /* an exact-size copy, so a read past the end is caught under ASan */
    char *doc = malloc(b.len);
    memcpy(doc, b.p, b.len);
    if (!CHECK(paths_agree(doc, b.len))) bad++;
    free(doc);
    jj_buf_free(&b);
  }
}

/* Rows whose values end exactly around the 16- and 64-byte boundaries the
** fast paths work in: strings of every length 0..140 with an escaped
** quote or a backslash run at every position. */
TEST(scan_paths_agree_on_escapes_around_block_boundaries) {
  static const char *const esc[] = {"\\\"", "\\\\", "\\\\\\\\", "\\\\\\\"", "\\\\\"", "\""};
  for (size_t lead = 0; lead < 20; lead++) {
    for (size_t len = 0; len < 140; len += 1 + (len > 70)) {
      for (size_t e = 0; e < sizeof esc / sizeof esc[0]; e++) {
        jj_buf b = {0};
        header(&b, 3, "s");
        for (int row = 0; row < 3; row++) {
          put(&b, row ? ",\n[\"" : "[\"");
          for (size_t i = 0; i < lead; i++) put(&b, "p");
          put(&b, "\",\"");
          for (size_t i = 0; i < len; i++) put(&b, i == len / 2 ? esc[e] : "x");
          put(&b, "\",\"t\"]");
        }
        put(&b, "\n]}");
        char *doc = malloc(b.len);
        memcpy(doc, b.p, b.len);
        CHECK(paths_agree(doc, b.len));
        free(doc);
        jj_buf_free(&b);
      }
    }
  }
}

/* Rows the one-window path must refuse or read exactly as the scalar scan
** does: quotes in the middle or at one end of a value, values that start
** with a number byte no number starts with, empty values, literals next to
** numbers, a ']' or ',' inside strings, too few and too many values; each
** row followed by enough bytes for the 64-byte window. */
TEST(scan_paths_agree_on_odd_rows_in_one_window) {
  static const char *const rows[] = {
      "[\"a\",1]", "[\"a\"b\",1]", "[\"ab,1]", "[1\",\"a\"]", "[\"a\",1\"]",
      "[\"\",-]", "[\"\"\"\",1]", "[\"a\",+1]", "[\"a\",.5]", "[\"a\",e5]",
      "[\"a\",-e]", "[,1]", "[\"a\",]", "[]", "[\"a\",1,2]", "[\"a\"]",
      "[\"]\",\"],\"]", "[\"a\",1e]", "[\"a\",nul]", "[\"a\",null]", "[\"a\",1null]",
      "[\"a\",true]", "[\"\xc3\xa9\",1]", "[\"a\",\"\xc3\xa9\"]", "[\"a\" ,1]",
      "[\"a\",[1]]", "[\"a\\\"\",1]", "[\"\",\"\"]", "[\"\"\",1]", "[\"a\",1]]"};
  for (size_t k = 0; k < sizeof rows / sizeof rows[0]; k++) {
    jj_buf b = {0};
    header(&b, 2, "s");
    put(&b, rows[k]);
    put(&b, ",\n[\"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\",2]\n]}");
    char *doc = malloc(b.len);
    memcpy(doc, b.p, b.len);
    if (!CHECK(paths_agree(doc, b.len))) fprintf(stderr, "     row %s\n", rows[k]);
    free(doc);
    jj_buf_free(&b);
  }
}

/* A string with one byte >= 0x80 at position k (valid "é", or a stray
** 0xFF) after `lead` bytes of padding, for every k and alignment: the
** text is handed out as it stands when valid and refused when not, on
** both paths (the scan's "only ASCII" note must never cover it). */
TEST(text_with_a_high_byte_at_every_position_is_utf8_checked) {
  for (int invalid = 0; invalid < 2; invalid++) {
    for (size_t lead = 0; lead < 17; lead++) {
      for (size_t k = 0; k < 80; k++) {
        jj_buf b = {0};
        header(&b, 2, "s");
        put(&b, "[\"");
        for (size_t i = 0; i < lead; i++) put(&b, "a");
        put(&b, "\",\"");
        for (size_t i = 0; i < k; i++) put(&b, "b");
        put(&b, invalid ? "\xff" : "\xc3\xa9");
        put(&b, "c\"],\n[\"x\",\"y\"]\n]}");
        for (jj_scan scan = JJ_SCAN_SCALAR; scan <= JJ_SCAN_AVX2; scan++) {
          jj_error e;
          jj_doc *d = jj_parse_opts(b.p, b.len, JJ_PARSE_SCAN(scan), 0, &e);
          jj_cursor *c = jj_cursor_new(d, &e);
          const char *p;
          size_t n;
          CHECK_EQ_INT(jj_cursor_next(c, &e), 1);
          int r = jj_cursor_text(c, 1, &p, &n, &e);
          if (invalid) {
            CHECK_EQ_INT(r, -1);
            CHECK_EQ_INT(e.code, JJ_ERR_UTF8);
          } else {
            CHECK_EQ_INT(r, 1);
            CHECK_EQ_INT(n, k + 3);
          }
          jj_cursor_free(c);
          jj_doc_free(d);
        }
        jj_buf_free(&b);
      }
    }
  }
}

/* The inline float shortcut gives the full parser's double, bit for bit,
** and declines what it cannot do exactly. */
TEST(short_double_matches_the_full_parser) {
  static const char *const fixed[] = {"0",  "-0",   "0.0",   "-0.0", "19.99", "149.99",
                                      "1.5", "00.5", "0.",    ".5",   "-",     "1e5",
                                      "123456789012345", "1234567890123456",
                                      "0.000000000000001", "9007199254740993", "1.2.3"};
  char s[40];
  for (size_t k = 0; k < sizeof fixed / sizeof fixed[0] + 200000; k++) {
    const char *t = s;
    if (k < sizeof fixed / sizeof fixed[0]) {
      t = fixed[k];
    } else {
      size_t n = 0, ni = 1 + pick(9), nf = pick(10);
      if (pick(4) == 0) s[n++] = '-';
      for (size_t i = 0; i < ni; i++) s[n++] = (char)('0' + pick(10));
      if (nf) s[n++] = '.';
      for (size_t i = 0; i < nf; i++) s[n++] = (char)('0' + pick(10));
      s[n] = 0;
    }
    double a = 0, b = 0;
    size_t len = strlen(t);
    int fast = short_double(t, len, &a);
    int full = jj_num_parse_double(t, len, &b);
    if (fast) {
      uint64_t x, y;
      memcpy(&x, &a, 8);
      memcpy(&y, &b, 8);
      if (!CHECK(full == JJ_NUM_OK && x == y)) fprintf(stderr, "     input %s\n", t);
    }
  }
}

/* Compare jj_num_short_double_in on t[0..len) (inside [lo, hi)) with the
** full parser: bit for bit when it accepts; and it must accept every
** number of the shape it promises (`shape`) when the platform has the fast
** path.  1 when all is well. */
static int short_double_agrees(const char *t, size_t len, const char *lo, const char *hi,
                               int shape, int have_fast) {
  double a = 0, b = 0;
  int fast = jj_num_short_double_in(t, len, lo, hi, &a);
  int full = jj_num_parse_double(t, len, &b);
  uint64_t x, y;
  memcpy(&x, &a, 8);
  memcpy(&y, &b, 8);
  if (fast && (full != JJ_NUM_OK || x != y)) return 0;
  /* a number of up to 8 bytes after its sign is read as the 8 bytes from
  ** there, so one nearer hi is declined (and read by the full parser) */
  size_t neg = len > 0 && *t == '-';
  if (len - neg <= 8 && hi - (t + neg) < 8) shape = 0;
  if (have_fast && shape && !fast) return 0;
  return 1;
}

/* Every shape -?D{1,8}(.D{0,8})? with random digits (leading zeros now
** and then, which only "0" and "0.x" may have), read where the 8-byte
** loads reach into random neighbouring bytes (digits, '.', '-' and
** others) and where they must not (an exact-size copy, caught by ASan),
** gives the full parser's double; near misses (".5", "5.", "00.5",
** "1.2.3", "1e5", 9 digits) are declined or agree. */
TEST(short_double_shapes_match_the_full_parser_exhaustively) {
  static const char around[] = "0123456789.-+eE,] \"x\xff";
  double one;
  int have_fast = short_double("1.5", 3, &one);
  int bad = 0;
  for (size_t ni = 0; ni <= 9; ni++) {
    for (size_t nf = 0; nf <= 9; nf++) {
      for (int k = 0; k < 400 && bad < 5; k++) {
        char s[40], wide[80];
        size_t n = 0;
        int neg = k & 1, shape = ni >= 1 && ni <= 8 && nf <= 8;
        if (neg) s[n++] = '-';
        for (size_t i = 0; i < ni; i++) s[n++] = (char)('0' + pick(10));
        if (ni > 1 && s[neg] == '0') shape = 0; /* a leading zero */
        if (nf || k % 7 == 0) s[n++] = '.';
        if (!nf && k % 7 == 0) shape = 0; /* "5." */
        for (size_t i = 0; i < nf; i++) s[n++] = (char)('0' + pick(10));
        uint64_t w = 0; /* the digits as an integer: up to 2^53 only */
        for (size_t i = 0; i < n; i++)
          if (s[i] >= '0' && s[i] <= '9') w = w * 10 + (uint64_t)(s[i] - '0');
        if (w > (UINT64_C(1) << 53)) shape = 0;
        if (k % 50 == 3) { /* a stray byte somewhere */
          s[pick(n)] = around[pick(sizeof around - 1)];
          shape = 0;
        }
        char *exact = malloc(n);
        memcpy(exact, s, n);
        for (size_t i = 0; i < sizeof wide; i++) wide[i] = around[pick(sizeof around - 1)];
        size_t at = pick(sizeof wide - n + 1);
        memcpy(wide + at, s, n);
        if (!CHECK(short_double_agrees(exact, n, exact, exact + n, shape, have_fast) &&
                   short_double_agrees(wide + at, n, wide, wide + sizeof wide, shape,
                                       have_fast))) {
          fprintf(stderr, "     input %.*s\n", (int)n, s);
          bad++;
        }
        free(exact);
      }
    }
  }
  static const char *const odd[] = {".5", "5.", "00.5", "-00.5", "01", "1.2.3", "1e5", "-",
                                    "--1", "1.-5", "123456789", "123456789.5",
                                    "99999999.99999999", "-0", "-0.0", "0.00000000"};
  for (size_t k = 0; k < sizeof odd / sizeof odd[0]; k++) {
    size_t n = strlen(odd[k]);
    char wide[40];
    memset(wide, '7', sizeof wide);
    memcpy(wide + 16, odd[k], n);
    int shape = k >= 13;
    if (!CHECK(short_double_agrees(odd[k], n, odd[k], odd[k] + n, shape, have_fast) &&
               short_double_agrees(wide + 16, n, wide, wide + sizeof wide, shape, have_fast)))
      fprintf(stderr, "     input %s\n", odd[k]);
  }
}

/* A float column read through the cursor: a leading zero goes past the
** inline shortcut to the full parser, which refuses it with the same
** error as always; "-0.0" keeps its sign. */
TEST(float_column_refuses_a_leading_zero_through_the_full_parser) {
  static const char doc[] =
      "{\"jalapenojson\":1,\"columns\":[\"p\"],\"types\":[\"f\"],\"rows\":[\n"
      "[19.99],\n[-0.0],\n"
      "[00.5]\n]}";
  /*    ^ byte 75 */
  jj_error e;
  jj_doc *d = jj_parse(doc, sizeof doc - 1, &e);
  jj_cursor *c = jj_cursor_new(d, &e);
  double v = 0;
  CHECK_EQ_INT(jj_cursor_next(c, &e), 1);
  CHECK_EQ_INT(jj_cursor_double(c, 0, &v, &e), 1);
  CHECK(v == 19.99);
  CHECK_EQ_INT(jj_cursor_next(c, &e), 1);
  CHECK_EQ_INT(jj_cursor_double(c, 0, &v, &e), 1);
  CHECK(v == 0 && signbit(v));
  CHECK_EQ_INT(jj_cursor_next(c, &e), 1);
  CHECK_EQ_INT(jj_cursor_double(c, 0, &v, &e), -1);
  CHECK_EQ_INT(e.code, JJ_ERR_SYNTAX);
  CHECK_EQ_INT(e.offset, 75);
  CHECK_EQ_INT(e.row, 3);
  CHECK_EQ_INT(e.column, 0);
  CHECK_EQ_STR(e.message, "row 3, column \"p\", byte 75: 00.5 is not a valid number");
  jj_cursor_free(c);
  jj_doc_free(d);
}

/* Integers through the cursor (inline shortcut for up to 18 digits) read
** as jj_num_parse_int64 reads them, errors included. */
TEST(short_int_matches_the_full_parser) {
  static const char *const vals[] = {"0", "-0", "7", "-7", "00", "-00", "01",
                                     "123456789012345678", "-123456789012345678",
                                     "999999999999999999", "9223372036854775807",
                                     "-9223372036854775808", "9223372036854775808",
                                     "1.0", "1e3", "-", "1-", "12345678901234567890"};
  for (size_t k = 0; k < sizeof vals / sizeof vals[0]; k++) {
    jj_buf b = {0};
    header(&b, 1, "i");
    put(&b, "[");
    put(&b, vals[k]);
    put(&b, "]\n]}");
    jj_error e;
    jj_doc *d = jj_parse(b.p, b.len, &e);
    jj_cursor *c = jj_cursor_new(d, &e);
    int64_t got = 0, want = 0;
    CHECK_EQ_INT(jj_cursor_next(c, &e), 1);
    int r = jj_cursor_int(c, 0, &got, &e);
    int w = jj_num_parse_int64(vals[k], strlen(vals[k]), &want);
    CHECK_EQ_INT(r, w == JJ_NUM_OK ? 1 : -1);
    if (r == 1) CHECK_EQ_INT(got, want);
    jj_cursor_free(c);
    jj_doc_free(d);
    jj_buf_free(&b);
  }
}

/* Random integers of 1 to 19 digits (signs, leading zeros, a stray byte
** now and then) through the cursor, read where the inline word reaches
** into the bytes before them: the same as jj_num_parse_int64, value and
** verdict. */
TEST(short_int_matches_the_full_parser_on_random_integers) {
  static const char stray[] = ".e+-E"; /* number bytes, never first: the row scans */
  jj_buf b = {0};
  char vals[3000][24];
  header(&b, 1, "i");
  for (int k = 0; k < 3000; k++) {
    size_t n = 0, nd = 1 + pick(19);
    if (pick(3) == 0) vals[k][n++] = '-';
    for (size_t i = 0; i < nd; i++) vals[k][n++] = (char)('0' + pick(10));
    if (n > 1 && pick(40) == 0) vals[k][1 + pick(n - 1)] = stray[pick(sizeof stray - 1)];
    vals[k][n] = 0;
    put(&b, k ? ",\n[" : "[");
    put(&b, vals[k]);
    put(&b, "]");
  }
  put(&b, "\n]}");
  jj_error e;
  jj_doc *d = jj_parse(b.p, b.len, &e);
  jj_cursor *c = jj_cursor_new(d, &e);
  for (int k = 0; k < 3000 && jj_cursor_next(c, &e) == 1; k++) {
    int64_t got = 0, want = 0;
    int r = jj_cursor_int(c, 0, &got, &e);
    int w = jj_num_parse_int64(vals[k], strlen(vals[k]), &want);
    if (!CHECK(r == (w == JJ_NUM_OK ? 1 : -1) && (r != 1 || got == want)))
      fprintf(stderr, "     input %s\n", vals[k]);
  }
  CHECK_EQ_INT(jj_cursor_row(c), 3000);
  jj_cursor_free(c);
  jj_doc_free(d);
  jj_buf_free(&b);
}

/* A date column read as text accepts exactly the dates jj_date_parse
** accepts: every day of a leap and a common year and of 1900 and 2000,
** plus shapes that are not dates. */
TEST(date_text_shortcut_matches_jj_date_parse) {
  static const char *const odd[] = {"2024-1-01", "2024-01-1 ", "202a-01-01", "2024/01/01",
                                    "0000-02-29", "9999-12-31", "2024-00-10", "2024-13-01",
                                    "2024-01-00", "2024-01-32", "2024-04-31", "20240101xx"};
  for (int k = 0; k < 4 * 13 * 33 + 12; k++) {
    static const int years[4] = {2024, 2023, 1900, 2000};
    char s[16];
    if (k < 4 * 13 * 33)
      snprintf(s, sizeof s, "%04d-%02d-%02d", years[k / (13 * 33)], k / 33 % 13, k % 33);
    else
      snprintf(s, sizeof s, "%s", odd[k - 4 * 13 * 33]);
    jj_buf b = {0};
    header(&b, 1, "d");
    put(&b, "[\"");
    put(&b, s);
    put(&b, "\"]\n]}");
    jj_error e, e2;
    jj_doc *d = jj_parse(b.p, b.len, &e);
    jj_cursor *c = jj_cursor_new(d, &e);
    const char *p;
    size_t n;
    CHECK_EQ_INT(jj_cursor_next(c, &e), 1);
    int r = jj_cursor_text(c, 0, &p, &n, &e);
    jj_code want = jj_date_parse(s, strlen(s), NULL, &e2);
    if (!CHECK(r == (want == JJ_OK ? 1 : -1))) fprintf(stderr, "     date %s\n", s);
    if (r < 0) CHECK_EQ_INT(e.code, JJ_ERR_DATE);
    jj_cursor_free(c);
    jj_doc_free(d);
    jj_buf_free(&b);
  }
}

/* Seeks on a pretty-printed document (whitespace everywhere, so the block
** path gives way to the scalar scan) land on the rows that stepping
** reaches, forward, backward and after the index knows them. */
TEST(seeks_on_a_pretty_printed_document_find_the_stepped_rows) {
  jj_buf b = {0};
  char v[64];
  put(&b, "{ \"jalapenojson\" : 1 , \"columns\" : [ \"id\" , \"name\" ] ,\n"
          "  \"types\" : [ \"i\" , \"s\" ] , \"rows\" : [\n");
  for (int r = 1; r <= 300; r++) {
    snprintf(v, sizeof v, "%s  [ %d ,\t\"n%d, [x]\" ]", r > 1 ? " ,\n" : "", r * 7, r);
    put(&b, v);
  }
  put(&b, "\n  ]\n}\n");
  for (jj_scan scan = JJ_SCAN_SCALAR; scan <= JJ_SCAN_AVX2; scan++) {
    jj_error e;
    jj_doc *d = jj_parse_opts(b.p, b.len, JJ_PARSE_SCAN(scan), 0, &e);
    jj_cursor *c = jj_cursor_new(d, &e);
    static const int order[] = {150, 3, 299, 300, 1, 200, 151, 2};
    for (size_t k = 0; k < sizeof order / sizeof order[0]; k++) {
      int64_t id;
      const char *p;
      size_t n;
      CHECK_EQ_INT(jj_cursor_seek(c, order[k], &e), 1);
      CHECK_EQ_INT(jj_cursor_int(c, 0, &id, &e), 1);
      CHECK_EQ_INT(id, order[k] * 7);
      snprintf(v, sizeof v, "n%d, [x]", order[k]);
      CHECK_EQ_INT(jj_cursor_text(c, 1, &p, &n, &e), 1);
      CHECK_EQ_MEM(p, n, v, strlen(v));
    }
    CHECK_EQ_INT(jj_cursor_seek(c, 301, &e), 0);
    CHECK_EQ_INT(jj_doc_rows(d, &e), 300);
    jj_cursor_free(c);
    jj_doc_free(d);
  }
  jj_buf_free(&b);
}

int main(void) {
  RUN(scan_paths_agree_on_random_documents);
  RUN(scan_paths_agree_on_escapes_around_block_boundaries);
  RUN(scan_paths_agree_on_odd_rows_in_one_window);
  RUN(text_with_a_high_byte_at_every_position_is_utf8_checked);
  RUN(short_double_matches_the_full_parser);
  RUN(short_double_shapes_match_the_full_parser_exhaustively);
  RUN(float_column_refuses_a_leading_zero_through_the_full_parser);
  RUN(short_int_matches_the_full_parser);
  RUN(short_int_matches_the_full_parser_on_random_integers);
  RUN(date_text_shortcut_matches_jj_date_parse);
  RUN(seeks_on_a_pretty_printed_document_find_the_stepped_rows);
  return test_summary("perf_paths");
}
