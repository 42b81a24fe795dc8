/*
** test_numread_fast.c — the boundaries of the number shortcuts: the
** word float path of num.h (jj_num_short_double_in: up to 8 integer and
** 8 fraction digits, at most 2^53 as digits, one division by 10^f; the
** accessors' fallback after jj_num_dot_double_in, which
** test_numread_dot.c covers) and the
** inline integer path of value.c, against strtod and strtoll as the
** reference, bit for bit, through every way a number is read: the
** shortcut itself, jj_num_parse_double, and a document's float and
** integer columns through jj_cursor_double, jj_cursor_int and
** jj_cursor_value (which also puts values within 8 bytes of the
** document's end, where the shortcut declines).
**
** The cases: every digit count 1..20 in the integer part, the fraction and
** both; the fast path's edges (8 integer digits, 8 fraction digits, 16
** digits in all, 17 bytes, 2^53 - 1, 2^53 and 2^53 + 1 as digits with the
** '.' anywhere); halfway cases above 2^53; exponents at Clinger's edges
** (10^22, 10^23) and the double's (largest, overflow, smallest subnormal,
** below half of it); negative zero in every form; and what the shortcut
** must decline (leading zeros, a '.' without digits on a side, two dots,
** exponents), which then reads as the full parser reads it.
*/
#include <errno.h>
#include <locale.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "doc.h"
#include "num.h"
#include "test.h"

static uint64_t bits_of(double d) {
  uint64_t b;
  memcpy(&b, &d, 8);
  return b;
}

/* What a float column must give for t: strtod's double, or range_error
** (1) when strtod overflows to infinity (the reader refuses that). */
static double reference(const char *t, int *range_error) {
  errno = 0;
  double d = strtod(t, NULL);
  *range_error = isinf(d) && errno == ERANGE;
  return d;
}

/* The shapes the shortcut promises to take (when built with it):
** -?(0|[1-9][0-9]{0,7})(\.[0-9]{1,8})? whose digits are at most 2^53. */
static int promised(const char *t) {
  size_t n = strlen(t), i = t[0] == '-', ni = 0, nf = 0;
  uint64_t w = 0;
  if (t[i] == '0' && t[i + 1] >= '0' && t[i + 1] <= '9') return 0;
  for (; i < n && t[i] >= '0' && t[i] <= '9'; i++, ni++) w = w * 10 + (uint64_t)(t[i] - '0');
  if (ni == 0 || ni > 8) return 0;
  if (i < n) {
    if (t[i++] != '.') return 0;
    for (; i < n && t[i] >= '0' && t[i] <= '9'; i++, nf++)
      w = w * 10 + (uint64_t)(t[i] - '0');
    if (nf == 0 || nf > 8 || i != n) return 0;
  }
  return w <= (UINT64_C(1) << 53);
}

/* 1 when the shortcut is compiled in (it takes "1.5"). */
static int have_fast;

/* The shortcut and the full parser on t, placed as in a row: after a '['
** and followed by ",1]" and more bytes, and at the very end of the bytes
** that may be read (where a short number is declined). */
static void check_parsers(const char *t) {
  int range;
  double want = reference(t, &range), got = 0;
  size_t n = strlen(t);
  char row[96];
  memset(row, ']', sizeof row);
  row[0] = '[';
  memcpy(row + 1, t, n);
  memcpy(row + 1 + n, ",1]", 3);
  int fast = jj_num_short_double_in(row + 1, n, row, row + sizeof row, &got);
  if (!CHECK(!fast || (!range && bits_of(got) == bits_of(want))))
    fprintf(stderr, "     shortcut on %s: %a, strtod %a\n", t, got, want);
  if (!CHECK(fast || !have_fast || !promised(t)))
    fprintf(stderr, "     shortcut declined %s\n", t);
  /* at the end: p + len == hi */
  char *edge = malloc(n ? n : 1);
  memcpy(edge, t, n);
  got = 0;
  fast = jj_num_short_double_in(edge, n, edge, edge + n, &got);
  if (!CHECK(!fast || (!range && bits_of(got) == bits_of(want))))
    fprintf(stderr, "     shortcut at the end on %s: %a, strtod %a\n", t, got, want);
  free(edge);
  got = 0;
  int r = jj_num_parse_double(t, n, &got);
  if (range) {
    if (!CHECK(r == JJ_NUM_RANGE)) fprintf(stderr, "     %s: code %d, not RANGE\n", t, r);
  } else if (!CHECK(r == JJ_NUM_OK && bits_of(got) == bits_of(want))) {
    fprintf(stderr, "     parser on %s: code %d, %a, strtod %a\n", t, r, got, want);
  }
}

/* Numbers as a document: column f (float) and i (integer), one row each,
** every value read three ways; the last row's values end 4 bytes before
** the end of the document ("]\n]}"), where the float shortcut declines. */
static void check_document(const char *const *vals, size_t count) {
  size_t cap = 128 + count * 64, len = 0;
  char *doc = malloc(cap);
  len += (size_t)sprintf(doc + len,
                         "{\"jalapenojson\":1,\"columns\":[\"f\",\"i\"],"
                         "\"types\":[\"f\",\"f\"],\"rows\":[\n");
  for (size_t k = 0; k < count; k++)
    len += (size_t)sprintf(doc + len, "[%s,%s]%s\n", vals[k], vals[k], k + 1 < count ? "," : "");
  len += (size_t)sprintf(doc + len, "]}");
  jj_error e;
  jj_doc *d = jj_parse(doc, len, &e);
  if (!CHECK(d != NULL)) {
    fprintf(stderr, "     %s\n", e.message);
    free(doc);
    return;
  }
  jj_cursor *c = jj_cursor_new(d, &e);
  for (size_t k = 0; k < count; k++) {
    int range;
    double want = reference(vals[k], &range), a = 0;
    jj_value v;
    if (!CHECK(jj_cursor_next(c, &e) == 1)) break;
    int ra = jj_cursor_double(c, 0, &a, &e);
    int rv = jj_cursor_value(c, 1, &v, &e);
    if (range) {
      if (!CHECK(ra == -1 && rv == -1 && e.code == JJ_ERR_RANGE))
        fprintf(stderr, "     %s in a document: not a range error\n", vals[k]);
    } else if (!CHECK(ra == 1 && rv == 1 && bits_of(a) == bits_of(want) &&
                      bits_of(v.u.f) == bits_of(want))) {
      fprintf(stderr, "     %s in a document: %a and %a, strtod %a\n", vals[k], a, v.u.f, want);
    }
  }
  CHECK(jj_cursor_next(c, &e) == 0);
  jj_cursor_free(c);
  jj_doc_free(d);
  free(doc);
}

/* n digits "123456789012..." (the first never 0), into out. */
static void digits(char *out, size_t n, unsigned first) {
  for (size_t i = 0; i < n; i++) out[i] = (char)('0' + (first + i) % 10);
  if (n && out[0] == '0') out[0] = '9';
  out[n] = 0;
}

static const char *const edges[] = {
    /* 2^53 - 1, 2^53, 2^53 + 1 as digits, the '.' anywhere in the fast path's reach */
    "9007199254740991", "9007199254740992", "9007199254740993", "90071992.54740991",
    "90071992.54740992", "90071992.54740993", "9007199.254740992", "9007199.254740993",
    "9007199.254740991", "90071992.5474099", "9.007199254740993", "0.9007199254740993",
    "-90071992.54740993", "-9007199.254740992",
    /* halfway between doubles above 2^53: ties to even */
    "9007199254740995", "9007199254740997", "18014398509481986", "18014398509481990",
    /* the fast path's lengths: 8+8 digits (17 bytes), 9 integer digits, 9 fraction digits */
    "12345678.12345678", "99999999.99999999", "123456789.5", "1.123456789", "12345678.9",
    "1234567.12345678", "-12345678.12345678", "12345678", "123456789", "99999999",
    /* zeros and negative zero */
    "0", "-0", "0.0", "-0.0", "0.00000000", "-0.00000000", "0.000000000", "-0e0", "0e-5",
    "-0.0e+10",
    /* declined shapes that are numbers */
    "1e5", "1E5", "1.5e3", "1.5E-3", "-2.5e+2", "1e22", "1e23", "1e-22", "1e-23",
    "9007199254740993e0", "4.5e15", "0.1", "0.2", "0.3", "0.30000000000000004",
    /* the double's edges */
    "1.7976931348623157e308", "1.7976931348623158e308", "-1.7976931348623157e308",
    "1.7976931348623159e308", "1e309", "-1e309", "2.2250738585072014e-308",
    "2.2250738585072011e-308", "2.2250738585072012e-308", "4.9406564584124654e-324",
    "5e-324", "2.4703282292062327e-324", "2.4703282292062328e-324", "3e-324", "1e-400",
    "-5e-324", "-1e-400",
    /* Clinger's reach: 10^22 exact, 10^23 not */
    "10000000000000000000000", "100000000000000000000000", "0.0000000000000000000001",
    /* the prices of the benchmark's data */
    "19.99", "29.0", "149.99", "4.99", "9.99", "0.0", "49.5", "99.0", "73693.232",
    "37465.1286", "7609.6135", "5735.6841", "-0.5", "42",
};

/* Strings a float column refuses: syntax errors, read the same with and
** without the shortcut. */
static const char *const refused[] = {"01",  "-01", "00.5", ".5",   "5.",   "-",   "--1",
                                      "1.2.3", "1..2", "1.-5", "+1",  "1e",   "1.5e+", "0x10",
                                      "1.5.", "12345678.", "-.5", "123456789.1234567x"};

TEST(every_digit_count_matches_strtod) {
  char t[80], ip[32], fp[32];
  /* integer parts of 1..20 digits, fractions of 0..20 digits */
  for (size_t ni = 1; ni <= 20; ni++) {
    for (size_t nf = 0; nf <= 20; nf++) {
      for (unsigned first = 0; first < 10; first += 3) {
        digits(ip, ni, first + 1);
        digits(fp, nf, first + 5);
        if (nf) fp[nf - 1] = (char)('1' + first % 9); /* keep the last digit nonzero */
        snprintf(t, sizeof t, "%s%s%s%s", first & 1 ? "-" : "", ip, nf ? "." : "", fp);
        check_parsers(t);
      }
    }
  }
  /* 0.x with 1..20 fraction digits, leading zeros in the fraction */
  for (size_t nf = 1; nf <= 20; nf++) {
    memset(t, '0', sizeof t);
    t[1] = '.';
    t[1 + nf] = '7';
    t[2 + nf] = 0;
    check_parsers(t);
  }
}

TEST(edges_match_strtod) {
  for (size_t k = 0; k < sizeof edges / sizeof *edges; k++) check_parsers(edges[k]);
}

TEST(refused_numbers_are_syntax_errors) {
  for (size_t k = 0; k < sizeof refused / sizeof *refused; k++) {
    const char *t = refused[k];
    size_t n = strlen(t);
    char row[64];
    double got = 0;
    memset(row, ']', sizeof row);
    memcpy(row + 8, t, n);
    if (!CHECK(!jj_num_short_double_in(row + 8, n, row, row + sizeof row, &got)))
      fprintf(stderr, "     shortcut took %s\n", t);
    if (!CHECK(jj_num_parse_double(t, n, &got) == JJ_NUM_SYNTAX))
      fprintf(stderr, "     parser took %s\n", t);
  }
}

/* Every byte value 0..255 at every position of numbers of each length
** and shape the shortcut takes (and in the byte after them): it declines
** or agrees with the full parser, which refuses all but digits. */
TEST(every_byte_at_every_position) {
  static const char *const base[] = {"7", "42", "0.5", "19.99", "-149.99", "1234.5678",
                                     "73693.232", "-37465.1286", "12345678.12345678",
                                     "9.99999999", "1234567.1"};
  int bad = 0;
  for (size_t k = 0; k < sizeof base / sizeof *base; k++) {
    size_t n = strlen(base[k]);
    for (size_t at = 0; at <= n; at++) {
      for (int byte = 0; byte < 256; byte++) {
        char row[64], t[32];
        double fast = 0, full = 0;
        memset(row, ']', sizeof row);
        memcpy(t, base[k], n);
        t[at] = (char)byte; /* at == n: the byte after the number, inside it */
        size_t len = n + (at == n);
        memcpy(row + 8, t, len);
        int f = jj_num_short_double_in(row + 8, len, row, row + sizeof row, &fast);
        int r = jj_num_parse_double(t, len, &full);
        if (f && !(r == JJ_NUM_OK && bits_of(fast) == bits_of(full)) && bad++ < 5)
          fprintf(stderr, "     byte 0x%02x at %zu of %s: shortcut %a, parser %d %a\n", byte, at,
                  base[k], fast, r, full);
      }
    }
  }
  CHECK(bad == 0);
}

/* Random numbers of the shortcut's shapes and just beyond them, with the
** bytes around them random too. */
TEST(random_short_numbers_match_strtod) {
  uint64_t s = 0x243F6A8885A308D3u;
  char t[48];
  for (int k = 0; k < 300000; k++) {
    s ^= s << 13;
    s ^= s >> 7;
    s ^= s << 17;
    size_t n = 0, ni = 1 + (size_t)(s % 10), nf = (size_t)(s >> 8) % 11;
    if ((s >> 16) & 1) t[n++] = '-';
    for (size_t i = 0; i < ni; i++) t[n++] = (char)('0' + (s >> (20 + 3 * i)) % 10);
    if (ni > 1 && t[n - ni] == '0') t[n - ni] = '5';
    if (nf) t[n++] = '.';
    for (size_t i = 0; i < nf; i++) t[n++] = (char)('0' + ((s >> (4 * i)) ^ (uint64_t)k) % 10);
    t[n] = 0;
    int range;
    double want = reference(t, &range), got = 0;
    char row[80];
    for (size_t i = 0; i < sizeof row; i++) row[i] = "0123456789.-e,]"[(s >> (i % 60)) % 15];
    size_t at = (size_t)(s >> 40) % (sizeof row - n);
    memcpy(row + at, t, n);
    int fast = jj_num_short_double_in(row + at, n, row, row + sizeof row, &got);
    if (!CHECK(!fast || bits_of(got) == bits_of(want))) {
      fprintf(stderr, "     shortcut on %s: %a, strtod %a\n", t, got, want);
      break;
    }
    int near_end = n - (t[0] == '-') <= 8 && sizeof row - at - (t[0] == '-') < 8;
    if (!CHECK(fast || !have_fast || near_end || !promised(t))) {
      fprintf(stderr, "     shortcut declined %s\n", t);
      break;
    }
  }
}

TEST(documents_match_strtod) {
  check_document(edges, sizeof edges / sizeof *edges);
  /* each value alone, last in its document (the shortcut declines there) */
  for (size_t k = 0; k < sizeof edges / sizeof *edges; k++) check_document(edges + k, 1);
  char buf[40][48];
  const char *vals[40];
  for (size_t n = 1; n <= 20; n++) {
    digits(buf[2 * n - 2], n, (unsigned)n);
    char *neg = buf[2 * n - 1]; /* "-D.D": n digits on each side */
    neg[0] = '-';
    memcpy(neg + 1, buf[2 * n - 2], n);
    neg[n + 1] = '.';
    memcpy(neg + n + 2, buf[2 * n - 2], n + 1);
    vals[2 * n - 2] = buf[2 * n - 2];
    vals[2 * n - 1] = buf[2 * n - 1];
  }
  check_document(vals, 40);
}

/* Integers: every digit count 1..20, int64's edges, against strtoll; and
** the errors the integer column gives for what is not an int64. */
TEST(integer_column_matches_strtoll) {
  static const char *const ints[] = {
      "0", "-0", "7", "-7", "9223372036854775807", "-9223372036854775808",
      "9223372036854775806", "-9223372036854775807", "99999999", "100000000",
      "9999999999999999", "10000000000000000", "999999999999999999", "1000000000000000000"};
  static const char *const bad[] = {"9223372036854775808", "-9223372036854775809",
                                    "10000000000000000000", "1.5", "1e3", "01", "-", "1.0"};
  char digs[24][24];
  const char *vals[24 + sizeof ints / sizeof *ints];
  size_t count = 0;
  for (size_t n = 1; n <= 19; n++) {
    digits(digs[n], n, (unsigned)n);
    vals[count++] = digs[n];
  }
  for (size_t k = 0; k < sizeof ints / sizeof *ints; k++) vals[count++] = ints[k];
  for (int last = 0; last < 2; last++) {
    for (size_t k = 0; k < count; k++) {
      char doc[256];
      size_t len = (size_t)snprintf(
          doc, sizeof doc,
          "{\"jalapenojson\":1,\"columns\":[\"i\",\"j\"],\"types\":[\"i\",\"i\"],\"rows\":[\n"
          "[%s,%s]\n]}",
          last ? "1" : vals[k], vals[k]);
      jj_error e;
      jj_doc *d = jj_parse(doc, len, &e);
      jj_cursor *c = d ? jj_cursor_new(d, &e) : NULL;
      int64_t got = 0;
      jj_value v;
      errno = 0;
      long long want = strtoll(vals[k], NULL, 10);
      if (!CHECK(c && jj_cursor_next(c, &e) == 1 && jj_cursor_int(c, 0, &got, &e) == 1 &&
                 jj_cursor_value(c, 1, &v, &e) == 1 && v.u.i == want &&
                 (last || got == want)))
        fprintf(stderr, "     integer %s\n", vals[k]);
      jj_cursor_free(c);
      jj_doc_free(d);
    }
  }
  for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
    char doc[256];
    size_t len = (size_t)snprintf(
        doc, sizeof doc,
        "{\"jalapenojson\":1,\"columns\":[\"i\"],\"types\":[\"i\"],\"rows\":[\n[%s]\n]}", bad[k]);
    jj_error e;
    jj_doc *d = jj_parse(doc, len, &e);
    jj_cursor *c = d ? jj_cursor_new(d, &e) : NULL;
    int64_t got = 0;
    int ok = c && jj_cursor_next(c, &e) == 1;
    if (!CHECK(ok && jj_cursor_int(c, 0, &got, &e) == -1 &&
               (e.code == JJ_ERR_RANGE || e.code == JJ_ERR_SYNTAX)))
      fprintf(stderr, "     integer column took %s\n", bad[k]);
    jj_cursor_free(c);
    jj_doc_free(d);
  }
}

int main(void) {
  double one = 0;
  char row[32] = "1.5,1]]]]]]]]]]]]]]]]]]]]]]]]]";
  setlocale(LC_NUMERIC, "C");
  have_fast = jj_num_short_double_in(row, 3, row, row + sizeof row, &one) && one == 1.5;
  RUN(every_digit_count_matches_strtod);
  RUN(edges_match_strtod);
  RUN(refused_numbers_are_syntax_errors);
  RUN(every_byte_at_every_position);
  RUN(random_short_numbers_match_strtod);
  RUN(documents_match_strtod);
  RUN(integer_column_matches_strtoll);
  return test_summary("numread_fast");
}
