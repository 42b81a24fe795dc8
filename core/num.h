/* num.h - internal number conversion for jalapenojson (core/numparse.c, core/numprint.c).
 *
 * Parsing is RFC 8259 strict, locale independent and correctly rounded for any input
 * length; printing produces the shortest round-trip form in Python repr() layout. */
#ifndef JJ_NUM_H
#define JJ_NUM_H

#include <float.h>
#include <stddef.h>
#include <stdint.h>

/* Eight bytes at a time (SWAR: digit runs in the parser, digit pairs in the
   printer) needs little-endian 8-byte loads.  A test build may define JJ_SWAR
   to 0 to check the portable loops. */
#ifndef JJ_SWAR
#if defined(__BYTE_ORDER__) && defined(__ORDER_LITTLE_ENDIAN__) && \
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define JJ_SWAR 1
#else
#define JJ_SWAR 0
#endif
#endif

/* Result codes of the number parsers. */
enum { JJ_NUM_OK = 0, JJ_NUM_SYNTAX = 1, JJ_NUM_NOT_INTEGER = 2, JJ_NUM_RANGE = 3 };

/* Length of the JSON number token starting at p (p < end): the longest run of bytes from the set
   [0-9+-.eE]. The caller then calls a parser on exactly that span, which checks the RFC 8259
   grammar. Returns 0 if p does not start with '-' or a digit. */
size_t jj_num_span(const char *p, const char *end);

/* Parse exactly p[0..len) as a JSON number (RFC 8259 grammar:
   -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?), no leading/trailing whitespace. Integer column
   rule: no fraction and no exponent allowed (1.0 and 1e3 -> JJ_NUM_NOT_INTEGER), value must fit
   int64 (9223372036854775808 -> JJ_NUM_RANGE, -9223372036854775808 ok), "-0" reads as 0. Grammar
   violations -> JJ_NUM_SYNTAX. Grammar is checked before the integer rules (so "1.e3" is SYNTAX,
   "1.5" is NOT_INTEGER). *out is written only on JJ_NUM_OK. */
int jj_num_parse_int64(const char *p, size_t len, int64_t *out);

/* Parse exactly p[0..len) as a JSON number into the nearest IEEE-754 double, correctly rounded
   (round-half-even), for any input length. Locale independent (never calls strtod).
   Results that overflow to infinity -> JJ_NUM_RANGE (no value written); underflow gives (signed)
   zero or the correctly rounded subnormal. "-0", "-0.0", "-0e5" give -0.0. Grammar as above ->
   JJ_NUM_SYNTAX. Exponents of any length saturate (no integer overflow). */
int jj_num_parse_double(const char *p, size_t len, double *out);

/* The most common float, inline: [-](0|[1-9][0-9]*)[.[0-9]+] with at most 15 digits in all
   ("19.99", "-0.5", "42").  The digits are then an exact integer w < 2^53 and 10^f an exact
   double, so w / 10^f is one correctly rounded IEEE division: the value jj_num_parse_double gives
   (Clinger's fast path, which it takes for the same inputs).  Returns 1 with *out set, or 0 (out
   untouched) for anything else, which the caller passes to jj_num_parse_double. */
static inline int jj_num_short_double(const char *p, size_t len, double *out) {
#if defined(FLT_EVAL_METHOD) && FLT_EVAL_METHOD == 0 && FLT_RADIX == 2 && DBL_MANT_DIG == 53
  static const double p10[16] = {1e0, 1e1, 1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15};
  const char *s = p, *e = p + len, *ip, *fp;
  int neg = len > 0 && *s == '-';
  uint64_t w = 0;
  unsigned d;
  s += neg;
  if (e - s > 16) return 0;
  for (ip = s; s < e && (d = (unsigned)(unsigned char)*s - '0') < 10; s++) w = w * 10 + d;
  if (s == ip || (*ip == '0' && s - ip > 1)) return 0;
  fp = s; /* no fraction: 10^0 below */
  if (s < e) {
    if (*s != '.') return 0;
    for (fp = ++s; s < e && (d = (unsigned)(unsigned char)*s - '0') < 10; s++) w = w * 10 + d;
    if (s == fp || s != e || s - ip > 16) return 0; /* the '.' is not a digit */
  } else if (s - ip > 15) {
    return 0;
  }
  double v = (double)(int64_t)w / p10[e - fp];
  *out = neg ? -v : v;
  return 1;
#else
  (void)p;
  (void)len;
  (void)out;
  return 0;
#endif
}

/* Write the shortest decimal that reads back (round-to-nearest-even) to exactly v, in Python's
   repr() layout ("1.0", "0.0001", "1e+16", "1.5e-05", "5e-324", "-0.0"). v must be finite. Writes
   no NUL, returns the number of bytes written (at most 25); out must have room for 32 bytes. */
size_t jj_num_format_double(double v, char *out);

/* Write v in decimal (INT64_MIN included), no NUL, return length (at most 20). */
size_t jj_num_format_int64(int64_t v, char *out);

#endif /* JJ_NUM_H */
