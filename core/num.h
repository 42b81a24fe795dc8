/* num.h - internal number conversion for jalapenojson (core/numparse.c,
** core/numprint.c).
**
** Parsing is RFC 8259 strict, locale independent and correctly rounded for any
** input length; printing produces the shortest round-trip form in Python repr()
** layout. */
#ifndef JJ_NUM_H
#define JJ_NUM_H

#include <float.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Eight bytes at a time (SWAR: digit runs in the parser, digit pairs in the
** printer) needs little-endian 8-byte loads.  A test build may define JJ_SWAR
** to 0 to check the portable loops. */
#ifndef JJ_SWAR
#if defined(__BYTE_ORDER__) && defined(__ORDER_LITTLE_ENDIAN__) && \
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define JJ_SWAR 1
#else
#define JJ_SWAR 0
#endif
#endif

/* Inline even where the compiler would not: the float accessor and
** jj_cursor_value both read floats through jj_num_short_double_in below, and
** with two callers gcc may keep one out-of-line copy, a call that costs about
** as much as the number takes to read. */
#if defined(__GNUC__) || defined(__clang__)
#define JJ_NUM_INLINE inline __attribute__((always_inline))
#else
#define JJ_NUM_INLINE inline
#endif

/* Result codes of the number parsers. */
enum {
  JJ_NUM_OK = 0,
  JJ_NUM_SYNTAX = 1,
  JJ_NUM_NOT_INTEGER = 2,
  JJ_NUM_RANGE = 3
};

/* Length of the JSON number token starting at p (p < end): the longest run of
** bytes from the set [0-9+-.eE]. The caller then calls a parser on exactly that
** span, which checks the RFC 8259 grammar. Returns 0 if p does not start with
** '-' or a digit. */
size_t jj_num_span(const char *p, const char *end);

/* Parse exactly p[0..len) as a JSON number (RFC 8259 grammar:
** -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?), no leading/trailing
** whitespace. Integer column rule: no fraction and no exponent allowed (1.0 and
** 1e3 -> JJ_NUM_NOT_INTEGER), value must fit int64 (9223372036854775808 ->
** JJ_NUM_RANGE, -9223372036854775808 ok), "-0" reads as 0. Grammar violations
** -> JJ_NUM_SYNTAX. Grammar is checked before the integer rules (so "1.e3" is
** SYNTAX, "1.5" is NOT_INTEGER). *out is written only on JJ_NUM_OK. */
int jj_num_parse_int64(const char *p, size_t len, int64_t *out);

/* Parse exactly p[0..len) as a JSON number into the nearest IEEE-754 double,
** correctly rounded (round-half-even), for any input length. Locale independent
** (never calls strtod).
** Results that overflow to infinity -> JJ_NUM_RANGE (no value written);
** underflow gives (signed) zero or the correctly rounded subnormal. "-0",
** "-0.0", "-0e5" give -0.0. Grammar as above -> JJ_NUM_SYNTAX. Exponents of any
** length saturate (no integer overflow). */
int jj_num_parse_double(const char *p, size_t len, double *out);

#if JJ_SWAR
/* True if all 8 bytes of v are ASCII digits: high nibbles are 3 and adding 6
** does not carry out (numparse.c's digit runs and jj_num_short_double_in
** below). */
static inline int jj_num_is_8digits(uint64_t v) {
  return ((v & UINT64_C(0xF0F0F0F0F0F0F0F0)) |
          (((v + UINT64_C(0x0606060606060606)) &
            UINT64_C(0xF0F0F0F0F0F0F0F0)) >>
           4)) == UINT64_C(0x3333333333333333);
}

/* Value of 8 ASCII digits (first digit in the lowest byte): pairs, then quads,
** then halves. */
static inline uint32_t jj_num_8digits(uint64_t v) {
  v = (v & UINT64_C(0x0F0F0F0F0F0F0F0F)) * (10 * 256 + 1) >> 8;
  v = (v & UINT64_C(0x00FF00FF00FF00FF)) * (100 * 65536 + 1) >> 16;
  return (uint32_t)((v & UINT64_C(0x0000FFFF0000FFFF)) *
                        (UINT64_C(10000) * 4294967296 + 1) >>
                    32);
}
#endif

/* jj_num_short_double_in on a copy of p[0..len) with room around it (for a
** number too near an edge of the bytes the caller may read); defined below.
** Inline like the function that calls it, so that this header needs nothing
** from numparse.c. */
static inline int jj_num_short_double_padded(const char *p, size_t len,
                                             double *out);

/* The most common float, inline and nearly without branches that depend on the
** digits: -?(0|[1-9][0-9]{0,7})(\.[0-9]{1,8})? ("19.99", "-0.5", "42").  The
** digits are an integer w (< 2^53, checked) and 10^f (f <= 8) an exact double,
** so w / 10^f is one correctly rounded IEEE division: the value
** jj_num_parse_double gives (Clinger's fast path, which it takes for the same
** inputs).  p[0..len) must lie inside [lo, hi), bytes the caller may read: the
** number is read as 8-byte words (its last 8 bytes, and its first 8 when it is
** longer), which may take in bytes around it, never outside [lo, hi) (near the
** edges jj_num_short_double_padded works on a copy). Returns 1 with *out set,
** or 0 (out untouched) for anything else, which the caller passes to
** jj_num_parse_double. */
static JJ_NUM_INLINE int jj_num_short_double_in(const char *p, size_t len,
                                                const char *lo, const char *hi,
                                                double *out) {
#if JJ_SWAR && (defined(__GNUC__) || defined(__clang__)) &&               \
    defined(FLT_EVAL_METHOD) && FLT_EVAL_METHOD == 0 && FLT_RADIX == 2 && \
    DBL_MANT_DIG == 53
  static const double p10[16] = {1e0, 1e1, 1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15};
  static const uint64_t u10[16] = {1,
                                   10,
                                   100,
                                   1000,
                                   10000,
                                   100000,
                                   1000000,
                                   10000000,
                                   100000000,
                                   1000000000,
                                   10000000000,
                                   100000000000,
                                   1000000000000,
                                   10000000000000,
                                   100000000000000,
                                   1000000000000000};
  const uint64_t zeros = UINT64_C(0x3030303030303030),
                 ones = UINT64_C(0x0101010101010101);
  /* m: bytes after the sign */
  const size_t neg = len > 0 && *p == '-', m = len - neg;
  const char *s = p + neg;
  uint64_t a, b, keep, w, bits;
  size_t k, f;
  int bad;
  double v;
  if (m - 1 > 16) return 0; /* 1 to 17 bytes */
  if (hi - s < 8 || s + m - lo < 8)
    return jj_num_short_double_padded(p, len, out);
  memcpy(&b, s + m - 8, 8); /* the number's last 8 bytes */
  if (m <= 8) {
    /* All of it in b's top m bytes: '0' below them, then the bytes before the
    ** '.' (if any, at byte k) moved up over it; what is left must be 8
    ** digits. */
    uint64_t d, dot, below;
    keep = ~UINT64_C(0) << (8 * (8 - m));
    b = (b & keep) | (zeros & ~keep);
    d = b ^ UINT64_C(0x2e2e2e2e2e2e2e2e);
    dot = (d - ones) & ~d & (ones << 7); /* exact up to the first '.' */
    dot &= 0 - dot;
    /* 7 without a '.' */
    k = (size_t)__builtin_ctzll(dot | (UINT64_C(1) << 63)) >> 3;
    below = (dot >> 7) - (dot != 0);
    b = (b & ~(below | (dot >> 7) * 0xFF)) | ((b & below) << 8) |
        ((uint64_t)(dot != 0) * 0x30);
    f = 7 - k;
    k = m - f - (dot != 0); /* integer digits */
    bad = (!jj_num_is_8digits(b)) | ((dot != 0) & ((k == 0) | (f == 0)));
    w = jj_num_8digits(b);
  } else {
    /* The integer digits at the start of a ('0'-padded on the left), the
    ** fraction digits at the end of b. */
    const uint64_t nib = UINT64_C(0xF0F0F0F0F0F0F0F0);
    uint64_t t, x;
    size_t kk, r;
    memcpy(&a, s, 8);
    /* A nonzero byte of t is a non-digit byte of a; exact up to the first one
    ** (a carry out of a byte >= 0xFA only affects the bytes after it). */
    t = ((a & nib) | (((a + 6 * ones) & nib) >> 4)) ^ (zeros + 3 * ones);
    k = t ? (size_t)__builtin_ctzll(t) >> 3 : 8; /* integer digits */
    /* k, kept in 1..8 for the shifts (k == 0 is refused below) */
    kk = k | (k == 0);
    r = m - kk; /* the '.' and the fraction digits */
    f = r - 1;
    bad = (k == 0) | (s[kk] != '.') | (r - 2 > 7);
    x = (a << (8 * (8 - kk))) | ((zeros >> (8 * kk - 8)) >> 8);
    keep = ~((~UINT64_C(0) >> (4 * f)) >> (4 * f)); /* the top f bytes of b */
    b = (b & keep) | (zeros & ~keep);
    w = jj_num_8digits(x) * u10[f] + jj_num_8digits(b);
    bad |= (!jj_num_is_8digits(b)) | (w > (UINT64_C(1) << 53));
  }
  if (bad | ((*s == '0') & (k > 1))) return 0; /* no leading zero */
  v = (double)(int64_t)w / p10[f];
  memcpy(&bits, &v, 8);
  bits |= (uint64_t)neg << 63;
  memcpy(out, &bits, 8);
  return 1;
#else
  (void)p;
  (void)len;
  (void)lo;
  (void)hi;
  (void)out;
  return 0;
#endif
}

/* The number in the middle of a buffer of spaces, so that the 8-byte words the
** inline path reads stay inside it.  Longer numbers are not short: 0. */
static inline int jj_num_short_double_padded(const char *p, size_t len,
                                             double *out) {
  char pad[48];
  if (len > 18) return 0;
  memset(pad, ' ', sizeof pad);
  memcpy(pad + 16, p, len);
  return jj_num_short_double_in(pad + 16, len, pad, pad + sizeof pad, out);
}

/* Write the shortest decimal that reads back (round-to-nearest-even) to exactly
** v, in Python's repr() layout ("1.0", "0.0001", "1e+16", "1.5e-05", "5e-324",
** "-0.0"). v must be finite. Writes no NUL, returns the number of bytes written
** (at most 25); out must have room for 32 bytes. */
size_t jj_num_format_double(double v, char *out);

/* Write v in decimal (INT64_MIN included), no NUL, return length (at most
** 20). */
size_t jj_num_format_int64(int64_t v, char *out);

#endif /* JJ_NUM_H */
