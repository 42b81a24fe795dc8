/* GENERATED FILE - do not edit by hand.
 * Regenerate with: python3 tools/gen_numtables.py   (from the repository root)
 * Internal to core/numparse.c and core/numprint.c. */
#ifndef JJ_NUMTABLES_H
#define JJ_NUMTABLES_H

#include <stdint.h>

#define JJ_POW5_MIN (-342)
#define JJ_POW5_MAX 324
#define JJ_POW5_COUNT 667
/* 5^j < 2^128, so the table entry is exact, iff 0 <= j <= JJ_POW5_EXACT_MAX. */
#define JJ_POW5_EXACT_MAX 55

/* Leading 128 bits of 5^j, truncated; see numtables.c. */
extern const uint64_t jj_pow5_128[JJ_POW5_COUNT][2];

/* floor((x * mul + add) / 2^shift) for small signed x, without relying on the
   implementation-defined right shift of negative numbers (a bias keeps it non-negative). */
static inline int jj_mulshift_floor(int x, int64_t mul, int shift, int64_t add) {
  const int64_t bias = (int64_t)1 << 12; /* |x * mul + add| < bias * 2^shift here */
  return (int)((int64_t)((uint64_t)(x * mul + add + (bias << shift)) >> shift) - bias);
}

/* floor(e*log2(10)), |e| <= 400; constants verified exhaustively by the generator. */
static inline int jj_log2_pow10(int x) { return jj_mulshift_floor(x, 108853, 15, 0); }

/* floor(q*log10(2)), -1200 <= q <= 1100; constants verified exhaustively by the generator. */
static inline int jj_log10_pow2(int x) { return jj_mulshift_floor(x, 78913, 18, 0); }

/* floor(log10(3/4*2^q)), -1200 <= q <= 1100; constants verified exhaustively by the generator. */
static inline int jj_log10_3q_pow2(int x) { return jj_mulshift_floor(x, 157827, 19, -65507); }

#endif /* JJ_NUMTABLES_H */
