/* GENERATED FILE - do not edit by hand.
** Regenerate with: python3 tools/gen_numtables.py (from the repository root)
** Internal to core/numparse.c and core/numprint.c. */
#ifndef JJ_NUMTABLES_H
#define JJ_NUMTABLES_H

#include <stdint.h>

#define JJ_POW5_MIN (-342)
#define JJ_POW5_MAX 324
#define JJ_POW5_COUNT 667
/* 5^j < 2^128, so the table entry is exact, iff
** 0 <= j <= JJ_POW5_EXACT_MAX. */
#define JJ_POW5_EXACT_MAX 55

/* Leading 128 bits of 5^j, truncated; see numtables.c. */
extern const uint64_t jj_pow5_128[JJ_POW5_COUNT][2];

/* floor((x * mul + add) / 2^shift) for small signed x, without relying on
** the implementation-defined right shift of negative numbers (a bias keeps
** it non-negative). */
static inline int jj_mulshift_floor(int x, int64_t mul, int shift,
                                    int64_t add) {
  /* |x * mul + add| < bias * 2^shift here */
  const int64_t bias = (int64_t)1 << 12;
  return (int)((int64_t)((uint64_t)(x * mul + add + (bias << shift)) >> shift) -
               bias);
}

/* floor(e*log2(10)), |e| <= 400; constants verified exhaustively by the
** generator. */
static inline int jj_log2_pow10(int x) {
  return jj_mulshift_floor(x, 108853, 15, 0);
}

/* floor(q*log10(2)), -1200 <= q <= 1100; constants verified exhaustively by the
** generator. */
static inline int jj_log10_pow2(int x) {
  return jj_mulshift_floor(x, 78913, 18, 0);
}

/* floor(log10(3/4*2^q)),
** -1200 <= q <= 1100; constants verified exhaustively by the
** generator. */
static inline int jj_log10_3q_pow2(int x) {
  return jj_mulshift_floor(x, 157827, 19, -65507);
}

/* 64x64 -> 128 bit product, shared by the parser and the printer: returns
** the high half and stores the low half. */
#ifdef __SIZEOF_INT128__
__extension__ typedef unsigned __int128 jj_u128;
#endif
static inline uint64_t jj_mul64(uint64_t a, uint64_t b, uint64_t *lo) {
#ifdef __SIZEOF_INT128__
  jj_u128 p = (jj_u128)a * b;
  *lo = (uint64_t)p;
  return (uint64_t)(p >> 64);
#else
  uint64_t a0 = (uint32_t)a, a1 = a >> 32, b0 = (uint32_t)b, b1 = b >> 32;
  uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
  uint64_t mid = (p00 >> 32) + (uint32_t)p01 + (uint32_t)p10;
  *lo = (mid << 32) | (uint32_t)p00;
  return p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
#endif
}

#endif /* JJ_NUMTABLES_H */
