/*
** numprint.c - shortest round-trip printing of doubles, and of int64 (see
** num.h).
**
** Doubles use Schubfach (R. Giulietti, "The Schubfach way to render doubles"):
** v and the bounds of its rounding interval are scaled by 10^-k, with k chosen
** so that the interval is between 10^k and 10^(k+1) wide, using one 126-bit
** approximation g of 10^-k and round-to-odd products, which keeps every
** comparison with a decimal candidate exact. At most one candidate with one
** digit less fits in the interval; otherwise the two neighbours of v at 10^k
** are tried and the closer one wins (ties to even). That is the shortest
** decimal that reads back to v and, among those, the closest: CPython's repr().
** g comes from the shared table of numtables.c: g = floor(T / 4) + 1.
*/
#include <float.h>
#include <string.h>

#include "jalapenojson.h"
#include "num.h"
#include "numtables.h"

#define MASK63 ((UINT64_C(1) << 63) - 1)
#define FRAC_MASK ((UINT64_C(1) << 52) - 1)

/* "00" .. "99": two digits per table lookup. */
static const char digit_pairs[201] =
    "0001020304050607080910111213141516171819"
    "2021222324252627282930313233343536373839"
    "4041424344454647484950515253545556575859"
    "6061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

/* Powers of ten that fit in uint64, for digit counting. */
static const uint64_t pow10_u64[20] = {UINT64_C(1),
                                       UINT64_C(10),
                                       UINT64_C(100),
                                       UINT64_C(1000),
                                       UINT64_C(10000),
                                       UINT64_C(100000),
                                       UINT64_C(1000000),
                                       UINT64_C(10000000),
                                       UINT64_C(100000000),
                                       UINT64_C(1000000000),
                                       UINT64_C(10000000000),
                                       UINT64_C(100000000000),
                                       UINT64_C(1000000000000),
                                       UINT64_C(10000000000000),
                                       UINT64_C(100000000000000),
                                       UINT64_C(1000000000000000),
                                       UINT64_C(10000000000000000),
                                       UINT64_C(100000000000000000),
                                       UINT64_C(1000000000000000000),
                                       UINT64_C(10000000000000000000)};

/* Number of decimal digits of f (f >= 1). */
static inline int count_digits(uint64_t f) {
#if defined(__GNUC__) || defined(__clang__)
  int bits = 64 - __builtin_clzll(f);
#else
  int bits = 0;
  for (uint64_t x = f; x; x >>= 1) bits++;
#endif
  int t = (bits * 1233) >> 12; /* ~ floor(log10(2^bits)) */
  return t + (f >= pow10_u64[t]);
}

/* Write exactly n decimal digits of f (f < 10^n) to dst[0..n), two digits per
** step. The low 8 digits are done in 32-bit arithmetic when f is long. */
static inline void write_digits(char *dst, uint64_t f, int n) {
  char *p = dst + n;
  if (f >= 100000000) {
    uint64_t hi = f / 100000000;
    uint32_t lo = (uint32_t)(f - hi * 100000000);
    for (int i = 0; i < 4; i++) {
      uint32_t r = lo % 100;
      lo /= 100;
      p -= 2;
      memcpy(p, digit_pairs + 2 * r, 2);
    }
    f = hi;
  }
  while (f >= 100) {
    uint64_t qt = f / 100;
    uint32_t r = (uint32_t)(f - qt * 100);
    p -= 2;
    memcpy(p, digit_pairs + 2 * r, 2);
    f = qt;
  }
  if (f >= 10) {
    p -= 2;
    memcpy(p, digit_pairs + 2 * f, 2);
  } else
    *--p = (char)('0' + f);
}

/* Schubfach's round-to-odd product: floor(g * cp / 2^127) with its lowest bit
** set when the (approximated) remainder is nonzero, where g = g1 * 2^63 +
** g0. */
static inline uint64_t rop(uint64_t g1, uint64_t g0, uint64_t cp) {
  uint64_t x0, x1 = jj_mul64(g0, cp, &x0);
  uint64_t y0, y1 = jj_mul64(g1, cp, &y0);
  uint64_t z = (y0 >> 1) + x1;
  uint64_t vbp = y1 + (z >> 63);
  (void)x0;
  return vbp | (((z & MASK63) + MASK63) >> 63);
}

/* Shortest decimal f * 10^e for the positive finite double with bit pattern
** bits (not zero). f may carry trailing zeros; the caller strips them. */
static void to_decimal(uint64_t bits, uint64_t *f, int *e) {
  int bq = (int)(bits >> 52);
  uint64_t t = bits & FRAC_MASK, c;
  int q, irregular = 0;
  if (bq) {
    c = t | (UINT64_C(1) << 52);
    q = bq - 1075;
    if (q < 0 && q > -53) { /* small integers: v itself is the shortest */
      uint64_t fi = c >> -q;
      if (fi << -q == c) {
        *f = fi;
        *e = 0;
        return;
      }
    }
    irregular = t == 0 && bq > 1; /* lower neighbour is only half an ulp away */
  } else {
    q = -1074;
    c = t;
  }
  uint64_t out = c & 1; /* odd mantissa: interval endpoints excluded */
  uint64_t cb = c << 2, cbr = cb + 2, cbl;
  int k;
  if (!irregular) {
    cbl = cb - 2;
    k = jj_log10_pow2(q);
  } else {
    cbl = cb - 1;
    k = jj_log10_3q_pow2(q);
  }
  /* 1..5 (checked by the generator): cb << h < 2^60 */
  int h = q + jj_log2_pow10(-k) + 2;
  /* g = floor(10^-k * 2^-r) + 1 with 2^125 <= g < 2^126, split into 63-bit
  ** halves */
  const uint64_t *tp = jj_pow5_128[-k - JJ_POW5_MIN];
  uint64_t g1 = tp[0] >> 1;
  uint64_t g0 = (((tp[0] << 62) | (tp[1] >> 2)) & MASK63) + 1;
  if (g0 >> 63) {
    g0 = 0;
    g1++;
  }
  uint64_t vb = rop(g1, g0, cb << h);
  uint64_t vbl = rop(g1, g0, cbl << h);
  uint64_t vbr = rop(g1, g0, cbr << h);
  uint64_t s = vb >> 2;
  /* is there a candidate with one digit less? (at most one fits) */
  if (s >= 10) {
    uint64_t sp10 = (s / 10) * 10, tp10 = sp10 + 10;
    int upin = vbl + out <= sp10 << 2;
    int wpin = (tp10 << 2) + out <= vbr;
    if (upin != wpin) {
      *f = upin ? sp10 : tp10;
      *e = k;
      return;
    }
  }
  uint64_t tt = s + 1;
  int uin = vbl + out <= s << 2;
  int win = (tt << 2) + out <= vbr;
  if (uin != win) {
    *f = uin ? s : tt;
    *e = k;
    return;
  }
  /* both in the interval: take the closer one (vb against their midpoint), ties
  ** to the even one */
  uint64_t mid = (s + tt) << 1;
  *f = (vb < mid || (vb == mid && !(s & 1))) ? s : tt;
  *e = k;
}

/* The fast path for the doubles tables hold most: v = m / 10^k for a small
** k (prices, measures, whole numbers).  K is the largest k <= 8 with
** w = 10^K * ulp(v) < 1/8; the nearest integer m to v * 10^K is taken
** when m / 10^K, one correctly rounded division of two exact doubles,
** gives v back: then the decimal m * 10^-K reads back as v, exactly as
** Schubfach's checks would find, and m's trailing zeros are dropped.
** It is Schubfach's answer too: the decimals that read back as v lie
** within w/2 of v at scale 10^K, so at most one integer is among them,
** and it is the nearest to the computed product t (whose rounding adds
** less than w: |t - m| < 3w/2 < 1/2).  A shorter decimal that read back
** would be such an integer too (times a power of ten), so it is m without
** its trailing zeros; one with more fraction digits has more significant
** digits (an equal count needs w >= 1/5).  When the check fails no
** decimal with at most K fraction digits reads back as v, and the caller
** takes Schubfach's way.  1 with *f and *e (v = f * 10^e), else 0.
** Needs IEEE double arithmetic without excess precision; elsewhere it is
** compiled out.  tests/core/test_numprint_fast.py checks it against CPython's repr()
** around every boundary it relies on. */
static int short_decimal(double v, uint64_t bits, uint64_t *f, int *e) {
#if defined(FLT_EVAL_METHOD) && FLT_EVAL_METHOD == 0 && FLT_RADIX == 2 && \
    DBL_MANT_DIG == 53
  static const double p10[9] = {1e0, 1e1, 1e2, 1e3, 1e4,
                                1e5, 1e6, 1e7, 1e8};
  int bq = (int)(bits >> 52);
  /* 2^-10 <= v < 2^51: ulp(v) = 2^(bq - 1075), a normal double */
  if (bq < 1023 - 10 || bq >= 1023 + 51) return 0;
  double ulp;
  uint64_t ub = (uint64_t)(bq - 52) << 52;
  memcpy(&ulp, &ub, sizeof ulp);
  int k = 8;
  while (ulp * p10[k] >= 0.125) /* exact: a power of two times 10^k */
    if (--k < 0) return 0;
  double width = ulp * p10[k];
  double t = v * p10[k];
  uint64_t m = (uint64_t)t;
  double frac = t - (double)m; /* exact: t and m are within 1 */
  if (frac >= 0.5) {
    m++;
    frac = 1.0 - frac;
  }
  /* a candidate is within 3/2 * width of t: no division when m is farther */
  if (!(frac <= 2 * width) || m == 0 || (double)m / p10[k] != v) return 0;
  while (k >= 4 && m % 10000 == 0) {
    m /= 10000;
    k -= 4;
  }
  while (k > 0 && m % 10 == 0) {
    m /= 10;
    k--;
  }
  *f = m;
  *e = -k;
  return 1;
#else
  (void)v;
  (void)bits;
  (void)f;
  (void)e;
  return 0;
#endif
}

/* Write exactly 8 digits of x (x < 10^8): two independent halves, then pairs,
** so the dependency chain is two divisions deep instead of four. */
static inline void write8(char *p, uint32_t x) {
  uint32_t hi = x / 10000, lo = x - hi * 10000;
  uint32_t a = hi / 100, b = hi - a * 100, c = lo / 100, d = lo - c * 100;
  memcpy(p, digit_pairs + 2 * a, 2);
  memcpy(p + 2, digit_pairs + 2 * b, 2);
  memcpy(p + 4, digit_pairs + 2 * c, 2);
  memcpy(p + 6, digit_pairs + 2 * d, 2);
}

/* Number of '0' characters at the end of the 17 digit characters dig[0..17),
** whose first nonzero character ends the count. Little-endian: 8 characters at
** once, the last one being the most significant byte of the loaded word, so a
** leading-zero count finds the run. */
static inline int trailing_zero_chars(const char *dig) {
#if JJ_SWAR && (defined(__GNUC__) || defined(__clang__))
  const uint64_t zeros = UINT64_C(0x3030303030303030);
  uint64_t w;
  memcpy(&w, dig + 9, 8);
  if (w != zeros) return __builtin_clzll(w ^ zeros) / 8;
  memcpy(&w, dig + 1, 8);
  if (w != zeros) return 8 + __builtin_clzll(w ^ zeros) / 8;
  return 16; /* dig[0] is then the only nonzero digit */
#else
  int n = 17;
  while (dig[n - 1] == '0') n--;
  return 17 - n;
#endif
}

/* Sign, Schubfach digits written 17 at a time and trimmed, then repr()'s
** layout. */
size_t jj_num_format_double(double v, char *out) {
  uint64_t bits;
  memcpy(&bits, &v, sizeof bits);
  char *o = out;
  if (bits >> 63) *o++ = '-';
  bits &= ~(UINT64_C(1) << 63);
  if (bits == 0) {
    memcpy(o, "0.0", 3);
    return (size_t)(o - out) + 3;
  }
  uint64_t f;
  int e;
  double a;
  memcpy(&a, &bits, sizeof a); /* |v| */
  if (short_decimal(a, bits, &f, &e)) {
    /* f < 2^51 < 10^16 and 2^-10 <= |v|: always the ddd.ddd layout below,
    ** written straight from the integer part (the double's: f / 10^-e is
    ** not a whole number when e < 0, as f has no trailing zero then, so
    ** no integer lies between it and |v|) and the -e fraction digits */
    uint64_t ip = (uint64_t)a;
    int n = count_digits(ip | (ip == 0));
    write_digits(o, ip, n);
    o[n] = '.';
    if (e == 0) {
      o[n + 1] = '0';
      return (size_t)(o - out) + (size_t)n + 2;
    }
    memcpy(o + n + 1, "00000000", 8); /* -e <= 8 digits, zero padded */
    write_digits(o + n + 1, f - ip * pow10_u64[-e], -e);
    return (size_t)(o - out) + (size_t)(n + 1 - e);
  }
  to_decimal(bits, &f, &e); /* f < 10^17 */

  /* All 17 digits of f with leading zeros, then trim: no divisions for the
  ** trailing zeros. The bytes after the digits are only ever copied past the
  ** end of the result. */
  char dig[48] = {0};
  uint64_t hi9 = f / 100000000;
  uint32_t top = (uint32_t)(hi9 / 100000000);
  dig[0] = (char)('0' + top);
  write8(dig + 1, (uint32_t)(hi9 - (uint64_t)top * 100000000));
  write8(dig + 9, (uint32_t)(f - hi9 * 100000000));
  int nf = count_digits(f);
  const char *d = dig + 17 - nf;
  int n = nf - trailing_zero_chars(dig); /* d[0] is not '0', so n >= 1 */
  int decpt = nf + e;                    /* v = 0.DIGITS * 10^decpt */

  /* Layout. Copies have fixed sizes (no library calls); every store stays below
  ** out + 26. */
  if (decpt > -4 && decpt <= 16) {
    if (decpt <= 0) { /* 0.000ddd */
      memcpy(o, "0.000", 5);
      memcpy(o + 2 - decpt, d, 17);
      return (size_t)(o - out) + (size_t)(2 - decpt + n);
    }
    memcpy(o, d, 16);
    if (decpt < n) { /* ddd.ddd: the fraction has n - decpt <= 16 digits */
      o[decpt] = '.';
      memcpy(o + decpt + 1, d + decpt, 8);
      if (n - decpt > 8) memcpy(o + decpt + 9, d + decpt + 8, 8);
      return (size_t)(o - out) + (size_t)n + 1;
    }
    /* ddd000.0: decpt - n <= 15 zeros */
    memcpy(o + n, "00000000", 8);
    if (decpt - n > 8) memcpy(o + n + 8, "00000000", 8);
    o[decpt] = '.';
    o[decpt + 1] = '0';
    return (size_t)(o - out) + (size_t)decpt + 2;
  }
  /* d.ddde+XX */
  o[0] = d[0];
  if (n > 1) {
    o[1] = '.';
    memcpy(o + 2, d + 1, 16);
    o += n + 1;
  } else
    o += 1;
  int x = decpt - 1;
  *o++ = 'e';
  if (x < 0) {
    *o++ = '-';
    x = -x;
  } else
    *o++ = '+';
  if (x >= 100) {
    *o++ = (char)('0' + x / 100);
    x %= 100;
  }
  memcpy(o, digit_pairs + 2 * x, 2);
  return (size_t)(o + 2 - out);
}

/* Sign, then the magnitude as unsigned (INT64_MIN has no positive int64). */
size_t jj_num_format_int64(int64_t v, char *out) {
  char *o = out;
  uint64_t u = (uint64_t)v;
  if (v < 0) {
    *o++ = '-';
    u = 0 - u; /* well defined for INT64_MIN too */
  }
  int n = count_digits(u | (u == 0)); /* 0 has one digit */
  write_digits(o, u, n);
  return (size_t)(o - out) + (size_t)n;
}

/* The public spelling of the two printers above (jalapenojson.h): what a
** document holds, with the three non-finite values as their words. */
size_t jj_double_format(double v, char out[32]) {
  if (v != v) return memcpy(out, "NaN", 3), 3;
  if (v > DBL_MAX) return memcpy(out, "Infinity", 8), 8;
  if (v < -DBL_MAX) return memcpy(out, "-Infinity", 9), 9;
  return jj_num_format_double(v, out);
}

size_t jj_int_format(int64_t v, char out[21]) {
  return jj_num_format_int64(v, out);
}
