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
#if defined(__GNUC__) || defined(__clang__)
#define JJ_NUM_UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
#define JJ_NUM_UNLIKELY(x) (x)
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

#if JJ_SWAR
/* Bit 7 of each byte of x (digit values: ASCII ^ '0') that is not 0..9:
** x + 0x76 sets bit 7 for 10..0x89, x's own bit 7 catches 0x80..0xFF.
** A byte of 0x8A or more carries into the next one and may flag it too:
** only a byte after a non-digit that is not the '.' (0x1E, like the
** digits, never carries), which the shortcut refuses anyway; the first
** non-digit is always flagged, and no non-digit is ever missed. */
static inline uint64_t jj_num_nondigit_values(uint64_t x) {
  return ((x + UINT64_C(0x7676767676767676)) | x) & UINT64_C(0x8080808080808080);
}

/* The same for ASCII text v (loaded little-endian). */
static inline uint64_t jj_num_nondigits(uint64_t v) {
  return jj_num_nondigit_values(v ^ UINT64_C(0x3030303030303030));
}

/* Value of 8 digit values 0..9 (first digit in the lowest byte; leading
** zero bytes for fewer digits): jj_num_8digits without its mask. */
static inline uint64_t jj_num_8values(uint64_t v) {
  v = v * 10 + (v >> 8); /* (v * (10 * 256 + 1)) >> 8, one instruction less */
  v = ((v & UINT64_C(0x00FF00FF00FF00FF)) * (100 * 65536 + 1)) >> 16;
  return ((v & UINT64_C(0x0000FFFF0000FFFF)) * (UINT64_C(10000) * 4294967296 + 1)) >> 32;
}
#endif

/* The float shortcut below needs the 8-byte words, and IEEE doubles without
** excess precision (x87 would round the division twice). */
#if JJ_SWAR && (defined(__GNUC__) || defined(__clang__)) &&               \
    defined(FLT_EVAL_METHOD) && FLT_EVAL_METHOD == 0 && FLT_RADIX == 2 && \
    DBL_MANT_DIG == 53
#define JJ_NUM_FAST 1
#else
#define JJ_NUM_FAST 0
#endif

#if JJ_SWAR
/* The top n bytes of a 64-bit word (little-endian: the last n bytes of
** the 8 read), n = 0..16, all of it from 8 on: masks the digits of a
** number read as a word ending with it (jj_num_short_int below, the float
** shortcuts below). */
static const uint64_t jj_num_top_bytes[17] = {
    0,
    UINT64_C(0xFF00000000000000),
    UINT64_C(0xFFFF000000000000),
    UINT64_C(0xFFFFFF0000000000),
    UINT64_C(0xFFFFFFFF00000000),
    UINT64_C(0xFFFFFFFFFF000000),
    UINT64_C(0xFFFFFFFFFFFF0000),
    UINT64_C(0xFFFFFFFFFFFFFF00),
    ~UINT64_C(0), ~UINT64_C(0), ~UINT64_C(0), ~UINT64_C(0), ~UINT64_C(0),
    ~UINT64_C(0), ~UINT64_C(0), ~UINT64_C(0), ~UINT64_C(0)};
#endif

#if JJ_NUM_FAST
/* The low f + 1 bytes of a word (little-endian: the first f + 1 read),
** f = 0..7: the fraction digits of jj_num_double_dot. */
static const uint64_t jj_num_low_bytes[8] = {
    UINT64_C(0xFF),           UINT64_C(0xFFFF),           UINT64_C(0xFFFFFF),
    UINT64_C(0xFFFFFFFF),     UINT64_C(0xFFFFFFFFFF),     UINT64_C(0xFFFFFFFFFFFF),
    UINT64_C(0xFFFFFFFFFFFFFF), ~UINT64_C(0)};

/* w / 10^f (w <= 2^53, f <= 8: both exact doubles, so one correctly
** rounded IEEE division), with the sign bit `sign` (0 or 1) set. */
static inline void jj_num_store_quotient(uint64_t w, size_t f, uint64_t sign, double *out) {
  static const double p10[9] = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8};
  double v = (double)(int64_t)w / p10[f];
  uint64_t bits;
  memcpy(&bits, &v, 8);
  bits |= sign << 63;
  memcpy(out, &bits, 8);
}

/* jj_num_short_double_in's numbers of m = 1 to 8 bytes after the sign
** (sign: 1 for a '-'), s[0..8) readable: one word.  Its digit values
** (byte ^ '0') are shifted to the top of the word, so the zero bytes
** shifted in below are leading zeros, and the number's bytes are then the
** only ones that can be non-digits; the '.' (if any) must be the only one.
** The integer digits are closed up over it, and one conversion reads all
** the digits.  1 with *out set, or 0. */
static JJ_NUM_INLINE int jj_num_double_word(const char *s, size_t m, uint64_t sign,
                                            double *out) {
  uint64_t x, y, ny, fb;
  const size_t sh = 64 - 8 * m; /* the bits above the number */
  size_t dot, j;
  memcpy(&x, s, 8);
  x ^= UINT64_C(0x3030303030303030); /* digit values 0..9; '.' is 0x1E */
  y = x << sh;
  ny = jj_num_nondigit_values(y);
  dot = ny != 0;
  fb = (ny & (0 - ny)) >> 7; /* bit 0 of the lowest non-digit byte, or 0 */
  /* j: that byte (7 when there is none, unused then); 7 - j fraction digits */
  j = (size_t)__builtin_ctzll(ny | (UINT64_C(1) << 63)) >> 3;
  /* refused: a second non-digit; one in the number's first byte (".5") or
  ** last ("5."); one that is not the '.'; a leading zero (the first digit 0
  ** and the second a digit) */
  if (((ny & (ny - 1)) | (ny & ((UINT64_C(0x80) << sh) | (UINT64_C(1) << 63)))) |
      (uint64_t)(dot & (((y >> (8 * j)) & 0xFF) != 0x1E)) |
      (uint64_t)(((x & 0xFF) == 0) & (m > 1) & ((ny & (UINT64_C(0x8000) << sh)) == 0)))
    return 0;
  /* the digits below the '.' (all without one) moved up over it, and
  ** those above it */
  jj_num_store_quotient(
      jj_num_8values(((y & (fb - 1)) << (8 * dot)) | (y & (0 - (fb << 8)))),
      (7 - j) & (0 - dot), sign, out);
  return 1;
}

/* jj_num_short_double_in's numbers of m = 9 to 17 bytes after the sign:
** two words, the integer digits (up to 8) and the '.' in the first 8
** bytes, the fraction digits (up to 8) at the top of the last 8, two
** conversions.  1 with *out set, or 0. */
static JJ_NUM_INLINE int jj_num_double_2words(const char *s, size_t m, uint64_t sign,
                                              double *out) {
  static const uint32_t u10[9] = {1,      10,      100,      1000,     10000,
                                  100000, 1000000, 10000000, 100000000};
  uint64_t a, b, na, fmask, w;
  size_t k, f;
  memcpy(&a, s, 8);         /* the first 8 bytes */
  memcpy(&b, s + m - 8, 8); /* the last 8 */
  na = jj_num_nondigits(a);
  /* k: the integer digits, up to the first non-digit (the '.'), 8 when
  ** there is none in a (bit 63 keeps ctz defined; it counts only then) */
  k = ((size_t)__builtin_ctzll(na | (UINT64_C(1) << 63)) + (na == 0)) >> 3;
  /* f: the fraction digits, the bytes after the '.'; the top f bytes of b
  ** (f <= 8 below) */
  f = m - k - 1;
  fmask = jj_num_top_bytes[f & 15]; /* f 9..15: refused below */
  /* refused: no integer digit, no or more than 8 fraction digits, a byte
  ** after the '.' that is not a digit, the byte after the integer digits
  ** not the '.' (9 or more integer digits), a leading zero */
  if ((k == 0) | (f - 1 > 7) | ((jj_num_nondigits(b) & fmask) != 0) | (s[k] != '.') |
      ((*s == '0') & (k > 1)))
    return 0;
  a ^= UINT64_C(0x3030303030303030); /* digit values */
  b ^= UINT64_C(0x3030303030303030);
  /* the k integer digits at the top of a word (k >= 1: the shift < 64) */
  w = jj_num_8values(a << ((64 - 8 * k) & 63)) * u10[f] + jj_num_8values(b & fmask);
  if (w > (UINT64_C(1) << 53)) return 0; /* up to 16 digits */
  jj_num_store_quotient(w, f, sign, out);
  return 1;
}
/* jj_num_dot_double_in's number s[0..m) after the sign (sign: 1 for a
** '-'): 1 to 7 integer digits, the '.', 1 to 8 fraction digits; s[0..16)
** readable.  The integer digits are the bytes of the first word (from s)
** up to its first non-digit, which must be the '.' at k; the fraction is
** the word from s + k + 1 masked to its first f = m - k - 1 bytes.  Read
** as 8 digits, the fraction is its value times 10^(8 - f), so the number
** is exactly w / 10^8 with w = integer * 10^8 + fraction < 10^15 < 2^53:
** both operands exact doubles, one correctly rounded IEEE division by a
** constant, and nothing closed up over the '.', no table of powers, no
** range check.  1 with *out set, or 0. */
static JJ_NUM_INLINE int jj_num_double_dot(const char *s, size_t m, uint64_t sign,
                                           double *out) {
  const uint64_t zeros = UINT64_C(0x3030303030303030);
  uint64_t a, fr, na, bits;
  size_t k, f;
  double v;
  memcpy(&a, s, 8);
  a ^= zeros; /* digit values 0..9; '.' is 0x1E */
  na = jj_num_nondigit_values(a);
  /* k: the first non-digit (flagged exactly: carries only flag bytes after
  ** it), or 7 when the first 7 bytes are digits (byte 7 then decides) */
  k = (unsigned)__builtin_ctzll(na | (UINT64_C(1) << 63)) >> 3;
  f = m - k - 1;
  /* refused: no integer digit; no fraction digit or more than 8; the
  ** first non-digit not the '.' (or none in the first 8 bytes: 8 or more
  ** integer digits) */
  if (JJ_NUM_UNLIKELY(k == 0) || JJ_NUM_UNLIKELY(f - 1 > 7) || JJ_NUM_UNLIKELY(s[k] != '.'))
    return 0;
  /* refused: a leading zero.  Tested before the fraction is read, and the
  ** integer digits then moved to the top of a (k >= 1: the shift < 64),
  ** so that a and k are one value while the fraction is checked: with
  ** fewer values live, no callee-saved register is pushed */
  if (JJ_NUM_UNLIKELY(((a & 0xFF) == 0) & (k > 1))) return 0;
  a <<= (64 - 8 * k) & 63;
  memcpy(&fr, s + k + 1, 8);
  fr = (fr ^ zeros) & jj_num_low_bytes[f - 1]; /* the f fraction digits */
  /* refused: a fraction byte that is not a digit */
  if (JJ_NUM_UNLIKELY(jj_num_nondigit_values(fr) != 0)) return 0;
  v = (double)(int64_t)(jj_num_8values(a) * 100000000u + jj_num_8values(fr)) / 1e8;
  memcpy(&bits, &v, 8);
  bits |= sign << 63;
  memcpy(out, &bits, 8);
  return 1;
}
#endif

/* The float column's commonest number, inline in the accessors
** (jj_cursor_double, jj_cursor_value): -?(0|[1-9][0-9]{0,6})\.[0-9]{1,8}
** ("19.99", "-0.5", "73693.232", "37465.1286"), read by jj_num_double_dot
** when the 17 bytes from p may be read: p at or before `last`, the last
** byte 17 readable bytes can start at (the caller's end less 17, worked
** out once: the test is then one comparison).  Every byte of the
** number is checked here; nothing is assumed of the caller's scan.  1
** with *out set, or 0 (out untouched): the caller then tries
** jj_num_short_double_in and the full parser, out of line.  About 90
** instructions a price in jj_cursor_double under callgrind where the
** closing-up reader took 136: no digits moved over the '.', no table of
** powers, no 2^53 test, the sign a constant, one branch a test. */
static JJ_NUM_INLINE int jj_num_dot_double_in(const char *p, size_t len, const char *last,
                                              double *out) {
#if JJ_NUM_FAST
  if (p > last) return 0; /* else p[0] and s[0..16) may be read */
  /* the sign a constant in each copy: a register less kept, no arithmetic */
  if (*p == '-') return jj_num_double_dot(p + 1, len - 1, 1, out);
  return jj_num_double_dot(p, len, 0, out);
#else
  (void)p;
  (void)len;
  (void)last;
  (void)out;
  return 0;
#endif
}

/* The most common float, inline and without branches that depend on the
** digits: -?(0|[1-9][0-9]{0,7})(\.[0-9]{1,8})? ("19.99", "-0.5", "42",
** "73693.232"), at most 2^53 as an integer w of its digits.  10^f (f <= 8
** fraction digits) is an exact double, so w / 10^f is one correctly rounded
** IEEE division: the value jj_num_parse_double gives (Clinger's fast path,
** which it takes for the same inputs).  p[0..len) must lie inside [lo, hi),
** bytes the caller may read: the number is read as 8-byte words, its first
** 8 bytes and, when longer, its last 8; a short number's word may take in
** bytes after it, never at or past hi (a short number within 8 bytes of hi
** is declined: in a document only a value next to its last bytes).
** Every byte of the number is checked here; nothing is assumed of the
** caller's scan.  Returns 1 with *out set, or 0 (out untouched) for
** anything else, which the caller passes to jj_num_parse_double.  The
** accessors reach it out of line, for what jj_num_dot_double_in declines
** (no '.', 8 integer digits, 16 or 17 bytes, a number near hi). */
static JJ_NUM_INLINE int jj_num_short_double_in(const char *p, size_t len,
                                                const char *lo, const char *hi,
                                                double *out) {
#if JJ_NUM_FAST
  /* m: bytes after the sign */
  const size_t neg = len > 0 && *p == '-', m = len - neg;
  const char *s = p + neg;
  (void)lo; /* the last 8 bytes of a longer number start after p */
  if (m - 1 > 16) return 0; /* 1 to 17 bytes */
  if (m <= 8) return hi - s >= 8 && jj_num_double_word(s, m, neg, out);
  return jj_num_double_2words(s, m, neg, out);
#else
  (void)p;
  (void)len;
  (void)lo;
  (void)hi;
  (void)out;
  return 0;
#endif
}

/* Write the shortest decimal that reads back (round-to-nearest-even) to exactly
** v, in Python's repr() layout ("1.0", "0.0001", "1e+16", "1.5e-05", "5e-324",
** "-0.0"). v must be finite. Writes no NUL, returns the number of bytes written
** (at most 25); out must have room for 32 bytes. */
size_t jj_num_format_double(double v, char *out);

/* Write v in decimal (INT64_MIN included), no NUL, return length (at most
** 20). */
size_t jj_num_format_int64(int64_t v, char *out);

/* value.c's integers (jj_cursor_int, jj_cursor_value). */
#if JJ_SWAR
/* jj_num_short_int's digits d[0..nd) after the sign (neg: 1 for a '-', a
** constant in each of jj_num_short_int's two copies). */
static JJ_NUM_INLINE int jj_num_short_digits(const char *d, size_t nd, const char *lo16,
                                             int neg, int64_t *out) {
  /* the top nd bytes of the last word, and of the one before it */
  const uint64_t *const low = jj_num_top_bytes;
  const uint64_t zeros = UINT64_C(0x3030303030303030);
  uint64_t l, v;
  /* 17 digits or more: the parser (and a string's flags, which make nd
  ** far too long: tested before d + nd is formed) */
  if (nd - 1 > 15) return 0;
  const char *e = d + nd;
  if (e < lo16) return 0;
  /* the leading zero first: the byte is at hand (the sign test read it)
  ** and nothing is kept for a test after the digits */
  if (JJ_NUM_UNLIKELY(*d == '0') && nd > 1) return 0;
  memcpy(&l, e - 8, 8);
  if (nd <= 8) {
    l = (l ^ zeros) & low[nd];
    if (JJ_NUM_UNLIKELY(jj_num_nondigit_values(l) != 0)) return 0;
    v = jj_num_8values(l);
  } else {
    uint64_t h;
    l ^= zeros; /* all eight bytes are digits: no mask */
    memcpy(&h, e - 16, 8);
    h = (h ^ zeros) & low[nd - 8];
    /* both words in one test (jj_num_nondigit_values of each, or-ed):
    ** each constant used once, so none is kept in a saved register */
    if (JJ_NUM_UNLIKELY((((l + UINT64_C(0x7676767676767676)) | l | (h + UINT64_C(0x7676767676767676)) | h) &
                     UINT64_C(0x8080808080808080)) != 0))
      return 0;
    v = jj_num_8values(h) * 100000000u + jj_num_8values(l);
  }
  *out = neg ? -(int64_t)v : (int64_t)v;
  return 1;
}
#endif

/* The common integer, inline: 1 to 16 digits with no leading zero, maybe a
** '-'.  Such a number always fits int64 and reads the same as
** jj_num_parse_int64 reads it; anything else returns 0 (*out untouched)
** and goes to the full parser.  The digits are read as the 8 bytes ending
** with the number (and the 8 before them for more than 8 digits): its
** end must be at or past lo16, the first byte the caller may read plus
** 16 (worked out once by the caller: the test is one comparison).  Their
** digit values (byte ^ '0')
** masked to the number's bytes: zeros above are leading zeros, so the
** varying count costs no loop and the check is one test of both words.
** The sign picks one of two copies of jj_num_short_digits, so that it is a
** constant there (no register kept for it, no arithmetic).
** Inline even where gcc would keep one copy for its three callers (the
** call cost about 10 instructions an integer); not in a build for size. */
#if JJ_SWAR && !defined(JJ_SMALL)
static JJ_NUM_INLINE int jj_num_short_int(const char *p, size_t n, const char *lo16,
                                          int64_t *out) {
#else
static inline int jj_num_short_int(const char *p, size_t n, const char *lo16, int64_t *out) {
#endif
#if JJ_SWAR
  if (*p == '-') return jj_num_short_digits(p + 1, n - 1, lo16, 1, out);
  return jj_num_short_digits(p, n, lo16, 0, out);
#elif defined(JJ_SMALL) /* a build for size: every integer by the parser */
  (void)p;
  (void)n;
  (void)lo16;
  (void)out;
  return 0;
#else
  /* byte by byte: up to 18 digits always fit */
  size_t neg = *p == '-';
  const char *d = p + neg, *e = p + n;
  size_t nd = n - neg;
  uint64_t v = 0;
  (void)lo16;
  if (nd == 0 || nd > 18 || (*d == '0' && nd > 1)) return 0;
  for (; d < e; d++) {
    unsigned k = (unsigned)(unsigned char)*d - '0';
    if (k > 9) return 0;
    v = v * 10 + k;
  }
  *out = neg ? -(int64_t)v : (int64_t)v;
  return 1;
#endif
}


#endif /* JJ_NUM_H */
