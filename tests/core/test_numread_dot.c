/*
** test_numread_dot.c — the float column's inline reader of num.h
** (jj_num_dot_double_in: -?(0|[1-9][0-9]{0,6})\.[0-9]{1,8}, the integer
** and the fraction digits read as two words without closing up over the
** '.', one division by 10^8) and the sign-split integer shortcut of
** value.c, at their boundaries and on millions of random inputs, against
** strtod, strtoll and the full parsers, bit for bit:
**   - every shape: 0..9 integer digits, 0..10 fraction digits, with and
**     without the '.', with and without '-', every byte value 0..255 at
**     every position of each (the digits' neighbours '/' and ':' among
**     them), leading zeros;
**   - every distance from the number to the end of the readable bytes
**     (the number is copied into a buffer that ends exactly there, so a
**     sanitizer build sees any read past it), 16 bytes from the first
**     digit declined, 17 taken;
**   - random numbers in and around the shape with random bytes around
**     them;
**   - documents: the same numbers through jj_cursor_double and
**     jj_cursor_value, and integers through jj_cursor_int and
**     jj_cursor_value, values and errors (code, offset, message) alike.
** A declined number leaves *out untouched and is read by the full parser,
** which is what the accessors then give.
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

/* xorshift64*: a fixed sequence, so a failure repeats. */
static uint64_t rng = 0x9E3779B97F4A7C15ULL;
static uint64_t rnd(void) {
  rng ^= rng >> 12;
  rng ^= rng << 25;
  rng ^= rng >> 27;
  return rng * 0x2545F4914F6CDD1DULL;
}
static size_t pick(size_t n) { return (size_t)(rnd() % n); }

/* 1 when the reader is compiled in (JJ_NUM_FAST): it takes "1.5". */
static int have_fast;
static long taken; /* numbers the reader took, to show it was exercised */

/* The shape the reader promises to take: -?(0|[1-9][0-9]{0,6})\.[0-9]{1,8}. */
static int promised(const char *t, size_t n) {
  size_t i = n > 0 && t[0] == '-', ni = 0, nf = 0;
  for (; i < n && t[i] >= '0' && t[i] <= '9'; i++) ni++;
  if (ni == 0 || ni > 7 || (ni > 1 && t[n > 0 && t[0] == '-'] == '0')) return 0;
  if (i >= n || t[i++] != '.') return 0;
  for (; i < n && t[i] >= '0' && t[i] <= '9'; i++) nf++;
  return nf >= 1 && nf <= 8 && i == n;
}

/* t[0..n) copied `after` bytes before the end of a buffer of its own
** (filler around it), read by the reader: it must decline, or give
** exactly what the full parser gives (which must then accept it), and take
** every promised number whose 17 bytes from its first byte are readable.
** `why` names the case in a failure.  Returns 1 if the reader took it. */
static int check_at(const char *t, size_t n, size_t after, const char *why) {
  if (!CHECK(n <= 40)) return 0; /* the cases here are shorter */
  /* 17 bytes or more before it: the reader's bound, hi - 17, lies in
  ** the buffer */
  const size_t before = 17 + pick(8), total = before + n + after;
  char *buf = malloc(total);
  static const char filler[] = "0123456789.-,]e ";
  for (size_t i = 0; i < total; i++) buf[i] = filler[pick(sizeof filler - 1)];
  memcpy(buf + before, t, n);
  const char *p = buf + before, *hi = buf + total;
  double got = -1234.5, full = 0;
  int fast = jj_num_dot_double_in(p, n, hi - 17, &got);
  int r = jj_num_parse_double(t, n, &full);
  int ok = fast ? r == JJ_NUM_OK && bits_of(got) == bits_of(full)
                : bits_of(got) == bits_of(-1234.5); /* untouched */
  if (!CHECK(ok))
    fprintf(stderr, "     %s: reader %d %a on \"%.*s\", parser %d %a\n", why, fast, got,
            (int)n, t, r, full);
  if (!CHECK(!fast || hi - p >= 17))
    fprintf(stderr, "     %s: took \"%.*s\" %td bytes from the end\n", why, (int)n, t, hi - p);
  if (!CHECK(fast || !have_fast || hi - p < 17 || !promised(t, n)))
    fprintf(stderr, "     %s: declined \"%.*s\"\n", why, (int)n, t);
  free(buf);
  taken += fast;
  return fast;
}

/* strtod's double for t, which the full parser and the reader must give
** too (t a valid JSON number that does not overflow). */
static void check_strtod(const char *t) {
  size_t n = strlen(t);
  double full = 0;
  errno = 0;
  double want = strtod(t, NULL);
  if (!CHECK(jj_num_parse_double(t, n, &full) == JJ_NUM_OK && bits_of(full) == bits_of(want)))
    fprintf(stderr, "     parser on %s: %a, strtod %a\n", t, full, want);
  check_at(t, n, 8, "strtod");
}

/* Every shape -?D{ni}(.D{nf})? for ni 0..9, nf 0..10 (leading zero or
** not), every byte value at every position and just after, every distance
** to the end for the untouched ones. */
TEST(every_shape_every_byte_every_end) {
  char t[32];
  for (int neg = 0; neg < 2; neg++)
    for (size_t ni = 0; ni <= 9; ni++)
      for (size_t nf = 0; nf <= 10; nf++)
        for (int dot = 0; dot < 2; dot++)
          for (int zero = 0; zero < 2; zero++) {
            size_t n = 0;
            if (neg) t[n++] = '-';
            for (size_t i = 0; i < ni; i++) t[n++] = (char)('1' + (ni * 7 + i * 3) % 9);
            if (zero && ni) t[neg] = '0';
            if (dot) t[n++] = '.';
            for (size_t i = 0; i < nf; i++) t[n++] = (char)('0' + (nf * 5 + i * 7) % 10);
            if (!dot && nf == 0 && ni == 0) continue;
            t[n] = 0;
            for (size_t after = 0; after <= 18; after++) check_at(t, n, after, "distance");
            if (promised(t, n)) check_strtod(t);
            for (size_t at = 0; at <= n; at++)
              for (int byte = 0; byte < 256; byte++) {
                char u[32];
                memcpy(u, t, n);
                u[at] = (char)byte; /* at == n: one byte more */
                check_at(u, n + (at == n), 1 + pick(12), "byte");
              }
          }
}

/* The edges of the shape and values that are hard to round. */
TEST(edges_match_strtod) {
  static const char *const v[] = {
      "0.5", "-0.5", "0.0", "-0.0", "0.00000000", "-0.00000000", "0.1", "0.2", "0.3",
      "0.7", "1.1", "9999999.99999999", "-9999999.99999999", "1234567.12345678",
      "1000000.00000001", "9007199.254740993", "9007199.25474099", "90071.99254740993",
      "0.00000001", "0.00000005", "0.99999999", "1.5", "2.5", "3.14159265",
      "73693.232", "37465.1286", "149.99", "4.99", "29.0", "5735.6841",
      /* a tie of the old reader's exact 2^53 range, and neighbours */
      "4503599.62737049", "4503599.62737050", "4503599.62737051",
      /* just outside: 8 integer digits, 9 fraction digits, a leading zero */
      "12345678.5", "1.123456789", "00.5", "01.5", "-01.5", "0.", ".5", "1.5.5"};
  for (size_t k = 0; k < sizeof v / sizeof *v; k++) {
    if (promised(v[k], strlen(v[k]))) check_strtod(v[k]);
    for (size_t after = 0; after <= 20; after++) check_at(v[k], strlen(v[k]), after, "edge");
  }
}

/* Random numbers in the shape and next to it (one digit more or less on
** either side, a stray byte, a leading zero, no '.'), random bytes around
** them, random distances to the end; the valid ones also against strtod. */
TEST(random_numbers_match_the_parsers) {
  static const char stray[] = "/:.-+eE0 x\x80";
  char t[40];
  for (long k = 0; k < 1000000; k++) {
    size_t n = 0, ni = pick(10), nf = pick(11);
    if (pick(4) == 0) t[n++] = '-';
    for (size_t i = 0; i < ni; i++) t[n++] = (char)('0' + pick(10));
    if (ni > 1 && t[n - ni] == '0' && pick(8)) t[n - ni] = (char)('1' + pick(9));
    if (pick(16)) t[n++] = '.';
    for (size_t i = 0; i < nf; i++) t[n++] = (char)('0' + pick(10));
    if (n > 0 && pick(32) == 0) t[pick(n)] = stray[pick(sizeof stray - 1)];
    if (n == 0) t[n++] = '7';
    t[n] = 0;
    check_at(t, n, pick(4) ? 8 + pick(8) : pick(20), "random");
    if (promised(t, n) && k % 4 == 0) check_strtod(t);
  }
}

/* A one-column document of the values (type "f" or "i"), each row "[v]",
** the last one ending 4 bytes before the document's end. */
static jj_doc *document(const char *const *vals, size_t count, const char *type,
                        char **text) {
  size_t cap = 128 + count * 48, len = 0;
  char *doc = malloc(cap);
  len += (size_t)sprintf(doc, "{\"jalapenojson\":1,\"columns\":[\"v\"],\"types\":[\"%s\"],"
                              "\"rows\":[\n", type);
  for (size_t k = 0; k < count; k++)
    len += (size_t)sprintf(doc + len, "[%s]%s\n", vals[k], k + 1 < count ? "," : "");
  len += (size_t)sprintf(doc + len, "]}");
  jj_error e;
  jj_doc *d = jj_parse(doc, len, &e);
  if (!CHECK(d != NULL)) fprintf(stderr, "     %s\n", e.message);
  *text = doc;
  return d;
}

/* Two errors alike: code, place and message. */
static int same_error(const jj_error *a, const jj_error *b) {
  return a->code == b->code && a->offset == b->offset && a->row == b->row &&
         a->column == b->column && strcmp(a->message, b->message) == 0;
}

/* Floats and integers read by both accessors of their column: the value
** the full parser gives, or its error (jj_cursor_double and jj_cursor_int
** against jj_cursor_value, and the message against number_fail's words). */
static void check_document(const char *const *vals, size_t count, int is_int) {
  char *text;
  jj_doc *d = document(vals, count, is_int ? "i" : "f", &text);
  jj_error e, ev;
  jj_cursor *c = d ? jj_cursor_new(d, &e) : NULL;
  for (size_t k = 0; c && k < count; k++) {
    size_t n = strlen(vals[k]);
    jj_value v;
    if (!CHECK(jj_cursor_next(c, &e) == 1)) break;
    if (is_int) {
      int64_t got = 0, want = 0;
      int r = jj_cursor_int(c, 0, &got, &e), rv = jj_cursor_value(c, 0, &v, &ev);
      int w = jj_num_parse_int64(vals[k], n, &want);
      if (!CHECK(r == (w == JJ_NUM_OK ? 1 : -1) && rv == r &&
                 (r != 1 || (got == want && v.u.i == want)) && (r == 1 || same_error(&e, &ev))))
        fprintf(stderr, "     integer %s: %d %d\n", vals[k], r, rv);
    } else {
      double got = 0, want = 0;
      int r = jj_cursor_double(c, 0, &got, &e), rv = jj_cursor_value(c, 0, &v, &ev);
      int w = jj_num_parse_double(vals[k], n, &want);
      if (!CHECK(r == (w == JJ_NUM_OK ? 1 : -1) && rv == r &&
                 (r != 1 || (bits_of(got) == bits_of(want) &&
                             bits_of(v.u.f) == bits_of(want))) &&
                 (r == 1 || same_error(&e, &ev))))
        fprintf(stderr, "     float %s: %d %d %a %a\n", vals[k], r, rv, got, want);
      if (r == -1 && w == JJ_NUM_SYNTAX) {
        char msg[128];
        snprintf(msg, sizeof msg, "%s is not a valid number", vals[k]);
        if (!CHECK(strstr(e.message, msg) != NULL && e.code == JJ_ERR_SYNTAX &&
                   text + e.offset == strstr(text + e.offset, vals[k])))
          fprintf(stderr, "     float %s: %s\n", vals[k], e.message);
      }
    }
  }
  if (c) CHECK(jj_cursor_next(c, &e) == 0);
  jj_cursor_free(c);
  jj_doc_free(d);
  free(text);
}

/* Random floats and integers through documents (leading zeros, signs,
** stray number bytes the row scan lets through), every shape's edges. */
TEST(documents_match_the_parsers) {
  static const char stray[] = ".e+-E0";
  enum { COUNT = 4000 };
  static char buf[COUNT][32];
  const char *vals[COUNT];
  for (int round = 0; round < 20; round++)
    for (int is_int = 0; is_int < 2; is_int++) {
      for (size_t k = 0; k < COUNT; k++) {
        size_t n = 0, ni = 1 + pick(is_int ? 18 : 9), nf = is_int ? 0 : pick(10);
        if (pick(3) == 0) buf[k][n++] = '-';
        for (size_t i = 0; i < ni; i++) buf[k][n++] = (char)('0' + pick(10));
        if (ni > 1 && buf[k][n - ni] == '0' && pick(8)) buf[k][n - ni] = '4';
        if (nf) buf[k][n++] = '.';
        for (size_t i = 0; i < nf; i++) buf[k][n++] = (char)('0' + pick(10));
        if (n > 1 && pick(40) == 0) buf[k][1 + pick(n - 1)] = stray[pick(sizeof stray - 1)];
        buf[k][n] = 0;
        vals[k] = buf[k];
      }
      check_document(vals, COUNT, is_int);
    }
  static const char *const floats[] = {"0.5", "-0.5", "-0.0", "9999999.99999999", "01.5",
                                       "-01.5", "00.5", "1.5", "12345678.5", "1.123456789",
                                       "1.5.5", "1.5e3", "1.", "-1.5"};
  check_document(floats, sizeof floats / sizeof *floats, 0);
  for (size_t k = 0; k < sizeof floats / sizeof *floats; k++) check_document(floats + k, 1, 0);
  static const char *const ints[] = {"0", "-0", "-7", "-00", "-01", "01", "-1234567890123456",
                                     "1234567890123456", "-12345678901234567", "-", "1-",
                                     "-9223372036854775808", "-9223372036854775809", "1.0"};
  check_document(ints, sizeof ints / sizeof *ints, 1);
  for (size_t k = 0; k < sizeof ints / sizeof *ints; k++) check_document(ints + k, 1, 1);
}

int main(void) {
  char row[32] = "1.5,1]]]]]]]]]]]]]]]]]]]]]]]]]";
  double one = 0;
  setlocale(LC_NUMERIC, "C");
  have_fast = jj_num_dot_double_in(row, 3, row + sizeof row - 17, &one) && one == 1.5;
  RUN(every_shape_every_byte_every_end);
  RUN(edges_match_strtod);
  RUN(random_numbers_match_the_parsers);
  RUN(documents_match_the_parsers);
  /* the reader must have been exercised where it is built in */
  printf("(the float reader of num.h took %ld numbers%s)\n", taken,
         have_fast ? "" : " (not built in: JJ_NUM_FAST is 0)");
  CHECK(!have_fast || taken > 300000);
  return test_summary("numread_dot");
}
