/*
** numparse.c - JSON number parsing (see num.h).
**
** jj_num_parse_double is correctly rounded (round-half-even) for every input,
** locale independent and allocation free:
**   1. one pass checks the RFC 8259 grammar and gathers the digits: up to 19
**      significant digits w and the decimal exponent q (value = w * 10^q);
**   2. Clinger's fast path: w <= 2^53 and |q| <= 22 is one exactly rounded
**      IEEE multiplication or division;
**   3. Eisel-Lemire: w * 5^q with the truncated 128-bit table of numtables.c.
**      The truncation bounds the exact product by an interval; when every
**      value of the interval rounds the same way the result is proven, else
**      the case is left undecided. More than 19 significant digits are
**      bracketed between the 19-digit prefixes w and w+1 the same way;
**   4. exact fallback for the (rare) undecided cases: from a candidate known
**      to be <= the answer, compare the decimal input with the halfway point
**      to the next double in big-integer arithmetic (only 800 significant
**      digits matter; later ones only as "some digit is nonzero").
*/
#include <float.h>
#include <string.h>

#include "num.h"
#include "numtables.h"

#define INF_BITS UINT64_C(0x7FF0000000000000)
/* Keeps the rare slow paths (and their 500-byte big integers) out of the hot
** function's frame. */
#if defined(__GNUC__) || defined(__clang__)
#define JJ_NOINLINE __attribute__((noinline))
#else
#define JJ_NOINLINE
#endif

/* Not a result: results are non-negative bit patterns <= INF_BITS. */
#define UNDECIDED UINT64_MAX

/* Clinger's fast path needs IEEE doubles without excess precision (x87 would
** round twice). */
/* a test build may define it to 0 to send everything through Eisel-Lemire */
#ifndef JJ_CLINGER
#if defined(FLT_EVAL_METHOD) && FLT_EVAL_METHOD == 0 && FLT_RADIX == 2 && \
    DBL_MANT_DIG == 53
#define JJ_CLINGER 1
#else
#define JJ_CLINGER 0
#endif
#endif

/* Bytes that may appear in a number token: digits, '+', '-', '.', 'e', 'E'. */
static const unsigned char num_char[256] = {
    ['0'] = 1, ['1'] = 1, ['2'] = 1, ['3'] = 1, ['4'] = 1,
    ['5'] = 1, ['6'] = 1, ['7'] = 1, ['8'] = 1, ['9'] = 1,
    ['+'] = 1, ['-'] = 1, ['.'] = 1, ['e'] = 1, ['E'] = 1,
};

/* True for '0'..'9' (unsigned compare, one branch). */
static inline int is_digit(char c) { return (unsigned char)(c - '0') < 10; }

#if JJ_SWAR
/* Load 8 bytes (unaligned, no aliasing issue). */
static inline uint64_t load8(const char *p) {
  uint64_t v;
  memcpy(&v, p, 8);
  return v;
}

#endif

/* Accumulate a run of digits at *ps into *w (mod 2^64) and advance *ps past
** it. */
static inline void scan_digits(const char **ps, const char *end, uint64_t *w) {
  const char *s = *ps;
  uint64_t v = *w;
#if JJ_SWAR
  while (end - s >= 8) {
    uint64_t chunk = load8(s);
    if (!jj_num_is_8digits(chunk)) break;
    v = v * 100000000 + jj_num_8digits(chunk);
    s += 8;
  }
#endif
  for (; s < end; s++) {
    unsigned d = (unsigned)(unsigned char)*s - '0';
    if (d > 9) break;
    v = v * 10 + d;
  }
  *ps = s;
  *w = v;
}

/* Number of leading zero bits of x (x != 0). */
static inline int clz64(uint64_t x) {
#if defined(__GNUC__) || defined(__clang__)
  return __builtin_clzll(x);
#else
  int n = 0;
  if (!(x >> 32)) {
    n += 32;
    x <<= 32;
  }
  if (!(x >> 48)) {
    n += 16;
    x <<= 16;
  }
  if (!(x >> 56)) {
    n += 8;
    x <<= 8;
  }
  if (!(x >> 60)) {
    n += 4;
    x <<= 4;
  }
  if (!(x >> 62)) {
    n += 2;
    x <<= 2;
  }
  if (!(x >> 63)) {
    n += 1;
  }
  return n;
#endif
}

/* Reinterpret a bit pattern as a double (memcpy: no aliasing UB, compiles to a
** move). */
static inline double bits_to_double(uint64_t b) {
  double d;
  memcpy(&d, &b, sizeof d);
  return d;
}

/* Token length: a table lookup per byte; the parsers check the grammar
** afterwards. */
size_t jj_num_span(const char *p, const char *end) {
  const char *s = p;
  if (p >= end || !(*p == '-' || is_digit(*p))) return 0;
  while (s < end && num_char[(unsigned char)*s]) s++;
  return (size_t)(s - p);
}

/* Check that [s, end) is exactly an optional fraction and an optional exponent
** of the JSON grammar; used by the integer parser to tell SYNTAX from
** NOT_INTEGER. */
static int valid_tail(const char *s, const char *end) {
  if (s < end && *s == '.') {
    const char *d = ++s;
    while (s < end && is_digit(*s)) s++;
    if (s == d) return 0;
  }
  if (s < end && (*s == 'e' || *s == 'E')) {
    s++;
    if (s < end && (*s == '+' || *s == '-')) s++;
    const char *d = s;
    while (s < end && is_digit(*s)) s++;
    if (s == d) return 0;
  }
  return s == end;
}

/* Integer column parse: digits (8 at a time), then grammar of any tail, then
** the int64 range. */
int jj_num_parse_int64(const char *p, size_t len, int64_t *out) {
  const char *s = p, *end = p + len;
  int neg = 0;
  if (s < end && *s == '-') {
    neg = 1;
    s++;
  }
  const char *d0 = s;
  uint64_t v = 0;
  /* Accumulates mod 2^64: exact up to 19 digits; longer runs are RANGE
  ** below. */
  scan_digits(&s, end, &v);
  size_t nd = (size_t)(s - d0);
  if (nd == 0 || (*d0 == '0' && nd > 1)) return JJ_NUM_SYNTAX;
  if (s != end) return valid_tail(s, end) ? JJ_NUM_NOT_INTEGER : JJ_NUM_SYNTAX;
  if (nd > 19) return JJ_NUM_RANGE;
  if (neg) {
    if (v > UINT64_C(9223372036854775808)) return JJ_NUM_RANGE;
    /* no signed overflow for INT64_MIN */
    *out = v == 0 ? 0 : -(int64_t)(v - 1) - 1;
  } else {
    if (v > (uint64_t)INT64_MAX) return JJ_NUM_RANGE;
    *out = (int64_t)v;
  }
  return JJ_NUM_OK;
}

/* -----------------------------------------------------------------------------
** Eisel-Lemire with a proven rounding decision.
**
** With w' = w << lz normalized (2^63 <= w' < 2^64) and T the truncated table
** entry for 5^q (T <= 5^q * 2^-e5 < T + 1, equality iff 0 <= q <=
** JJ_POW5_EXACT_MAX), the exact product X = w' * 5^q * 2^-e5 satisfies  w'*T <=
** X < w'*T + w'.  We round the top 128 bits of w'*T and accept the result only
** if every value of that interval rounds the same way.
** -------------------------------------------------------------------------- */

/* Round the 128-bit value top = (hi,lo), a lower bound of X / 2^64, to a double
** bit pattern.
** base: the biased exponent is s + base where s is the shift that leaves 53
** mantissa bits.
** fine == 0: X / 2^64 lies in [top, top + 2^64).
** fine == 1: X / 2^64 lies in [top + low/2^64, top + (low + wn)/2^64), and X is
**            exactly top * 2^64 + low when exact != 0.
** Returns the bits, INF_BITS on overflow, or UNDECIDED. *trunc receives the
** truncation of top (a lower bound of the correctly rounded result, used as the
** fallback's start). */
static uint64_t round_top(uint64_t hi, uint64_t lo, int base, int fine,
                          uint64_t low, uint64_t wn, int exact,
                          uint64_t *trunc) {
  int s = 74 + (int)(hi >> 63);
  int biased = s + base;
  if (biased >= 2047) {
    *trunc = INF_BITS;
    return INF_BITS; /* the lower bound already is >= 2^1024 */
  }
  /* subnormal: shift further so the exponent is that of 2^-1074 */
  if (biased <= 0) {
    s += 1 - biased;
    biased = 0;
    /* everything is below half of the smallest subnormal, unless top ~ 2^128 */
    if (s > 128) {
      *trunc = 0;
      return hi != UINT64_MAX ? 0 : UNDECIDED;
    }
  }
  int sh = s - 64; /* 10 .. 64 */
  uint64_t m = sh >= 64 ? 0 : hi >> sh;
  uint64_t rhi = sh >= 64 ? hi : hi & ((UINT64_C(1) << sh) - 1);
  uint64_t halfhi = UINT64_C(1) << (sh - 1);
  *trunc =
      biased ? ((uint64_t)biased << 52) | (m & ((UINT64_C(1) << 52) - 1)) : m;
  int up;
  if (!fine) {
    /* remainder + window < half (halfhi >= 2^9, no wrap) */
    if (rhi < halfhi - 1)
      up = 0;
    else if (rhi > halfhi || (rhi == halfhi && lo != 0))
      up = 1;
    else
      return UNDECIDED;
  } else {
    if (rhi < halfhi - 1 || (rhi == halfhi - 1 && lo != UINT64_MAX))
      up = 0; /* remainder <= half - 2, the interval is shorter than 2 */
    else if (rhi == halfhi - 1) { /* remainder == half - 1 */
      if (low <= (uint64_t)0 - wn)
        up = 0; /* low + wn <= 2^64: stays below half */
      else
        return UNDECIDED;
    } else if (rhi == halfhi && lo == 0) /* remainder == half */
      up = (exact && low == 0) ? (int)(m & 1) : 1;
    else
      up = 1;
  }
  if (up) {
    m++;
    /* m == 2^52 is exactly the bit pattern of the smallest normal */
    if (biased == 0) return m;
    if (m == (UINT64_C(1) << 53)) {
      m >>= 1;
      if (++biased >= 2047) return INF_BITS;
    }
  } else if (biased == 0)
    return m;
  return ((uint64_t)biased << 52) | (m & ((UINT64_C(1) << 52) - 1));
}

/* Eisel-Lemire for w * 10^q, w != 0, JJ_POW5_MIN <= q <= 308: returns the bits
** or UNDECIDED; *trunc receives a lower bound of the correct result. The second
** multiplication by the low table half is only needed when the first product
** lands within 2^64 of a halfway point. */
static uint64_t eisel_lemire(uint64_t w, int q, uint64_t *trunc) {
  int lz = clz64(w);
  uint64_t wn = w << lz;
  const uint64_t *t = jj_pow5_128[q - JJ_POW5_MIN];
  int base = jj_log2_pow10(q) - lz + 1012;
  uint64_t lo, hi = jj_mul64(wn, t[0], &lo);
  uint64_t r = round_top(hi, lo, base, 0, 0, 0, 0, trunc);
  if (r != UNDECIDED) return r;
  uint64_t l_lo, l_hi = jj_mul64(wn, t[1], &l_lo);
  lo += l_hi;
  hi += lo < l_hi;
  return round_top(hi, lo, base, 1, l_lo, wn, q >= 0 && q <= JJ_POW5_EXACT_MAX,
                   trunc);
}

/* -----------------------------------------------------------------------------
** Exact fallback: big-integer comparison against halfway points.
** -------------------------------------------------------------------------- */

/* Significant digits kept exactly; a halfway point between doubles has at most
** 768 significant digits, so digits past this position only matter as "nonzero"
** (sticky). */
#define MAX_SIG_DIGITS 800
/* 128 x 32 = 4096 bits; the comparisons need at most about 2700 bits. */
#define BIG_LIMBS 128

/* Fixed-capacity unsigned big integer, little-endian 32-bit limbs. */
typedef struct {
  uint32_t d[BIG_LIMBS];
  int n;
} big_t;

/* b = b * mul + add (mul, add < 2^32). The callers never exceed the capacity
** (see BIG_LIMBS). */
static void big_mul_add(big_t *b, uint32_t mul, uint32_t add) {
  uint64_t carry = add;
  for (int i = 0; i < b->n; i++) {
    uint64_t x = (uint64_t)b->d[i] * mul + carry;
    b->d[i] = (uint32_t)x;
    carry = x >> 32;
  }
  if (carry && b->n < BIG_LIMBS) b->d[b->n++] = (uint32_t)carry;
}

/* b = b * 5^e. */
static void big_mul_pow5(big_t *b, int e) {
  static const uint32_t p5[14] = {
      1u,     5u,      25u,      125u,     625u,      3125u,      15625u,
      78125u, 390625u, 1953125u, 9765625u, 48828125u, 244140625u, 1220703125u};
  for (; e >= 13; e -= 13) big_mul_add(b, p5[13], 0);
  if (e > 0) big_mul_add(b, p5[e], 0);
}

/* b = b << bits. */
static void big_shl(big_t *b, int bits) {
  int limbs = bits / 32, r = bits % 32;
  if (b->n == 0) return;
  int n = b->n + limbs + 1;
  if (n > BIG_LIMBS) n = BIG_LIMBS;
  for (int i = n - 1; i >= limbs; i--) {
    int j = i - limbs;
    uint64_t cur = j < b->n ? b->d[j] : 0;
    uint64_t prev = (j - 1 >= 0 && j - 1 < b->n) ? b->d[j - 1] : 0;
    b->d[i] = (uint32_t)(r ? (cur << r) | (prev >> (32 - r)) : cur);
  }
  for (int i = 0; i < limbs && i < n; i++) b->d[i] = 0;
  b->n = n;
  while (b->n > 0 && b->d[b->n - 1] == 0) b->n--;
}

/* Three-way comparison of a and b (both normalized: no leading zero limbs). */
static int big_cmp(const big_t *a, const big_t *b) {
  if (a->n != b->n) return a->n < b->n ? -1 : 1;
  for (int i = a->n - 1; i >= 0; i--)
    if (a->d[i] != b->d[i]) return a->d[i] < b->d[i] ? -1 : 1;
  return 0;
}

/* Set b to the 64-bit value v. */
static void big_set_u64(big_t *b, uint64_t v) {
  b->n = 0;
  while (v) {
    b->d[b->n++] = (uint32_t)v;
    v >>= 32;
  }
}

/* Significant digits of a number: the concatenation a[0..na) b[0..nb), first
** digit nonzero; value = 0.DIGITS * 10^dp. */
typedef struct {
  const char *a, *b;
  size_t na, nb;
  int64_t dp;
} digits_t;

/* i-th significant digit as a value 0..9. */
static inline unsigned sig_digit(const digits_t *g, size_t i) {
  return (unsigned)((i < g->na ? g->a[i] : g->b[i - g->na]) - '0');
}

/* Compare the decimal D * 10^k (plus something in (0, 10^k) if sticky) with
** (2m+1) * 2^f: both sides are made integers by moving the powers of 5 and 2
** across. Returns <0, 0 or >0. */
static int cmp_halfway(const big_t *dig, int k, int sticky, uint64_t m, int f) {
  big_t a = *dig, b;
  big_set_u64(&b, 2 * m + 1);
  if (k >= 0)
    big_mul_pow5(&a, k);
  else
    big_mul_pow5(&b, -k);
  if (k > f)
    big_shl(&a, k - f);
  else if (f > k)
    big_shl(&b, f - k);
  int c = big_cmp(&a, &b);
  return (c == 0 && sticky) ? 1 : c;
}

/* Correctly rounded bits of D * 10^k (+ sticky), starting from a candidate
** known to be <= the answer: step up while the input lies above the halfway
** point to the next double (or on it with an odd mantissa: ties go to even).
** The candidate is within two steps of the answer. */
JJ_NOINLINE static uint64_t exact_round(const big_t *dig, int k, int sticky,
                                        uint64_t cand) {
  while (cand < INF_BITS) {
    uint64_t ef = cand >> 52, m = cand & ((UINT64_C(1) << 52) - 1);
    int e = -1074;
    if (ef) {
      m |= UINT64_C(1) << 52;
      e = (int)ef - 1075;
    }
    int c = cmp_halfway(dig, k, sticky, m, e - 1);
    if (c < 0 || (c == 0 && !(m & 1))) break;
    cand++;
  }
  return cand;
}

/* Exact fallback for a value w * 10^k with at most 19 digits. */
JJ_NOINLINE static uint64_t exact_round_u64(uint64_t w, int k, uint64_t cand) {
  big_t d;
  big_set_u64(&d, w);
  return exact_round(&d, k, 0, cand);
}

/* Build the big integer of the first (up to MAX_SIG_DIGITS) significant digits;
** *k receives the decimal exponent of its last digit, *sticky whether any later
** digit is nonzero. */
static void big_from_sig(const digits_t *g, big_t *b, int *k, int *sticky) {
  size_t n = g->na + g->nb, take = n < MAX_SIG_DIGITS ? n : MAX_SIG_DIGITS,
         i = 0;
  b->n = 0;
  while (i < take) {
    uint32_t chunk = 0, mul = 1;
    for (int j = 0; j < 9 && i < take; j++, i++) {
      chunk = chunk * 10 + sig_digit(g, i);
      mul *= 10;
    }
    big_mul_add(b, mul, chunk);
  }
  *sticky = 0;
  for (i = take; i < n; i++)
    if (sig_digit(g, i)) {
      *sticky = 1;
      break;
    }
  *k = (int)(g->dp - (int64_t)take);
}

/* Finish a parse: store the signed double or report overflow. */
static inline int finish(uint64_t bits, int neg, double *out) {
  if (bits >= INF_BITS) return JJ_NUM_RANGE;
  *out = bits_to_double(bits | ((uint64_t)neg << 63));
  return JJ_NUM_OK;
}

/* Slow path: more than 19 digits (maybe leading zeros of a fraction). Finds the
** significant digits, brackets the value between the 19-digit prefixes w and
** w+1, falls back if needed. */
JJ_NOINLINE static int parse_long(const char *ip, size_t ni, const char *fp,
                                  size_t nf, int64_t exp, int neg,
                                  double *out) {
  digits_t g;
  if (ni == 1 && ip[0] == '0') { /* only the fraction has significant digits */
    size_t z = 0;
    while (z < nf && fp[z] == '0') z++;
    g.a = fp + z;
    g.na = nf - z;
    g.b = fp + nf;
    g.nb = 0;
    g.dp = exp - (int64_t)z;
  } else {
    g.a = ip;
    g.na = ni;
    g.b = fp;
    g.nb = nf;
    g.dp = exp + (int64_t)ni;
  }
  size_t n = g.na + g.nb;
  /* zero, or below 10^-325: rounds to (signed) zero */
  if (n == 0 || g.dp <= -325) return finish(0, neg, out);
  if (g.dp >= 310) /* at least 10^309 */
    return JJ_NUM_RANGE;
  size_t nw = n < 19 ? n : 19;
  uint64_t w = 0;
  for (size_t i = 0; i < nw; i++) w = w * 10 + sig_digit(&g, i);
  int truncated = 0;
  for (size_t i = nw; i < n; i++)
    if (sig_digit(&g, i)) {
      truncated = 1;
      break;
    }
  int q = (int)(g.dp - (int64_t)nw); /* in [-344, 308] */
  /* w * 10^q < 10^-324: below half of the smallest subnormal */
  if (q < JJ_POW5_MIN) return finish(0, neg, out);
  uint64_t trunc1, trunc2;
  uint64_t r1 = eisel_lemire(w, q, &trunc1);
  if (!truncated) {
    if (r1 != UNDECIDED) return finish(r1, neg, out);
  } else {
    uint64_t r2 = eisel_lemire(w + 1, q, &trunc2);
    if (r1 != UNDECIDED && r1 == r2) return finish(r1, neg, out);
    if (r1 == INF_BITS) return JJ_NUM_RANGE;
  }
  big_t d;
  int k, sticky;
  big_from_sig(&g, &d, &k, &sticky);
  return finish(exact_round(&d, k, sticky, r1 != UNDECIDED ? r1 : trunc1), neg,
                out);
}

/* w * 10^q64 (w != 0, at most 19 digits) beyond Clinger's reach: Eisel-Lemire,
** else exact. Out of line: keeps the common short numbers' path light on
** registers. */
JJ_NOINLINE static int convert(uint64_t w, int64_t q64, int neg, double *out) {
  if (q64 < JJ_POW5_MIN) /* w < 10^19, so w * 10^q < 10^-324 */
    return finish(0, neg, out);
  if (q64 > 308) return JJ_NUM_RANGE;
  uint64_t trunc;
  uint64_t r = eisel_lemire(w, (int)q64, &trunc);
  if (r == UNDECIDED) r = exact_round_u64(w, (int)q64, trunc);
  return finish(r, neg, out);
}

/* Grammar and digit scan in one pass, then the cheapest conversion that is
** provably exact. */
int jj_num_parse_double(const char *p, size_t len, double *out) {
  static const double pow10[23] = {
      1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
      1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
  const char *s = p, *end = p + len;
  int neg = 0;
  if (s < end && *s == '-') {
    neg = 1;
    s++;
  }
  /* integer part: "0" or [1-9][0-9]*; digits accumulate mod 2^64 (exact when <=
  ** 19 in total) */
  const char *ip = s;
  uint64_t w = 0;
  scan_digits(&s, end, &w);
  size_t ni = (size_t)(s - ip);
  if (ni == 0 || (*ip == '0' && ni > 1)) return JJ_NUM_SYNTAX;
  const char *fp = s;
  size_t nf = 0;
  if (s < end && *s == '.') {
    fp = ++s;
    scan_digits(&s, end, &w);
    nf = (size_t)(s - fp);
    if (nf == 0) return JJ_NUM_SYNTAX;
  }
  int64_t exp = 0;
  if (s < end && (*s == 'e' || *s == 'E')) {
    int eneg = 0;
    s++;
    if (s < end && (*s == '+' || *s == '-')) {
      eneg = *s == '-';
      s++;
    }
    const char *ep = s;
    while (s < end && is_digit(*s)) {
      /* saturate: anything beyond is zero or infinity anyway */
      if (exp < 100000000) exp = exp * 10 + (*s - '0');
      s++;
    }
    if (s == ep) return JJ_NUM_SYNTAX;
    if (eneg) exp = -exp;
  }
  if (s != end) return JJ_NUM_SYNTAX;

  if (ni + nf > 19) return parse_long(ip, ni, fp, nf, exp, neg, out);
  if (w == 0) return finish(0, neg, out);
  int64_t q64 = exp - (int64_t)nf;
#if JJ_CLINGER
  if (q64 >= -22 && q64 <= 22 && w <= (UINT64_C(1) << 53)) {
    /* both operands exact, so one IEEE operation gives the correctly rounded
    ** result */
    /* w <= 2^53: a signed conversion is one instruction */
    double d = (double)(int64_t)w;
    d = q64 < 0 ? d / pow10[-q64] : d * pow10[q64];
    *out = neg ? -d : d;
    return JJ_NUM_OK;
  }
#else
  (void)pow10;
#endif
  return convert(w, q64, neg, out);
}
