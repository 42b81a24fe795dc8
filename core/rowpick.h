/*
** rowpick.h — the spans of the selected columns only (jj_cursor_select,
** select.c), from the end bits of a row the mask paths (rowmask.h) have
** checked: spans_pick for any selection, span_pick_one and span_pick_one2
** for the commonest, one column, in a row of one window or two.
** Included by rowmask.h only, so everything here is static inline and
** lands in rowscan.c's instances.  Not in the WebAssembly builds
** (JJ_SELECT 0: nothing here is compiled there).
**
** Why a file of its own: what is picked and how is one job (which bits
** are a selected value's start and end, and whether it holds a byte >=
** 0x80), apart from making and checking the masks; and rowmask.h had
** grown past what reads in one sitting.
*/
#ifndef JJ_ROWPICK_H
#define JJ_ROWPICK_H

#include "doc.h"

#if JJ_SELECT
/* Take the end of the next value from the ends e0 (of the 64 bytes at w)
** and e1 (of the 64 after): its offset from w. */
static JJ_INLINE unsigned take_end(uint64_t *e0, uint64_t *e1) {
  if (*e0) {
    const unsigned o = (unsigned)__builtin_ctzll(*e0);
    *e0 &= *e0 - 1;
    return o;
  }
  const unsigned o = 64 + (unsigned)__builtin_ctzll(*e1);
  *e1 &= *e1 - 1;
  return o;
}
/* Bits 0..b-1 (b <= 64). */
static JJ_INLINE uint64_t bits_below(unsigned b) {
  return b >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << b) - 1;
}
/* The spans of the selected columns only (the bits of c->want, lowest
** first: select.c), the others left JJ_SPAN_UNLOCATED: a row the mask paths
** accepted, whose values end at the bits of e0 (the terminators and the
** ']' in the 64 bytes at w) and then e1 (the 64 after), one bit a value;
** h0, h1 the row's bytes >= 0x80 in the same windows.  The values before
** a selected one cost a cleared bit each (a popcount passes a whole
** window), not a span: reading one column of seven writes one. */
static JJ_INLINE void spans_pick(jj_cursor *c, const char *w, uint64_t e0, uint64_t e1,
                                 uint64_t h0, uint64_t h1) {
  jj_span *const v = c->v;
  uint64_t sel = c->want;
  unsigned k = 0, start = 0; /* values whose ends are taken; where value k starts */
  do {
    const unsigned j = (unsigned)__builtin_ctzll(sel);
    if (j > k) { /* pass values k..j-2 by their end bits, then j-1 ends where j starts */
      unsigned m = j - k - 1;
      const unsigned n0 = (unsigned)__builtin_popcountll(e0);
      if (m >= n0) {
        m -= n0;
        e0 = 0;
        for (; m; m--) e1 &= e1 - 1;
      } else {
        for (; m; m--) e0 &= e0 - 1;
      }
      start = take_end(&e0, &e1) + 1;
    }
    const unsigned end = take_end(&e0, &e1);
    size_t flags = 0;
    if (h0 | h1) { /* the value's bytes are bits start..end-1 of (h0, h1) */
      const uint64_t lo = bits_below(end) & ~bits_below(start);
      const uint64_t hi = bits_below(end > 64 ? end - 64 : 0) &
                          ~bits_below(start > 64 ? start - 64 : 0);
      flags = ((h0 & lo) | (h1 & hi)) ? JJ_SPAN_HIGH : 0;
    }
    v[j].p = w + start;
    v[j].n = (size_t)(end - start) | flags;
    k = j + 1;
    start = end + 1;
  } while ((sel &= sel - 1) != 0);
}

/* The highest set bit of x (x != 0). */
static JJ_INLINE unsigned top_bit(uint64_t x) { return 63u ^ (unsigned)__builtin_clzll(x); }

/* spans_pick for exactly one selected column, j of n (c->want is 1 << j:
** the commonest selection, one column read), of a row in one window: the
** bits of starts are where its n values start (bit 0 and the bit after
** each terminator), those of ends where they end (the terminators and the
** ']'), high its bytes >= 0x80.  No loop over the selection, no test of
** which window a bit is in, the flag without a branch: value j starts at
** the lowest start bit once j are cleared and ends at the first end bit
** from there; or, for a column in the second half, ends at the highest
** end bit once n - 1 - j are cleared and starts at the highest start bit
** below that (a cleared bit costs 3 instructions from below, 4 from above:
** column 5 of 7 clears one instead of five).  The ']' is in the window,
** so every bit position here is below 64 and every shift defined. */
static JJ_INLINE void span_pick_one(jj_span *v, const char *w, uint64_t starts,
                                    uint64_t ends, uint64_t high, unsigned j, size_t n) {
  unsigned s, e;
  if (2 * (size_t)j < n) {
    for (unsigned m = j; m; m--) starts &= starts - 1;
    s = (unsigned)__builtin_ctzll(starts);
    e = s + (unsigned)__builtin_ctzll(ends >> s);
  } else {
    for (size_t m = n - 1 - j; m; m--) ends ^= UINT64_C(1) << top_bit(ends);
    e = top_bit(ends);
    s = top_bit(starts & ((UINT64_C(1) << e) - 1)); /* bit 0 is set, e > 0 */
  }
  const uint64_t hv = high & ((UINT64_C(1) << e) - (UINT64_C(1) << s));
  v[j].p = w + s;
  v[j].n = (size_t)(e - s) | (hv ? JJ_SPAN_HIGH : 0);
}

/* span_pick_one for a row in two windows: the starts, ends and high bits
** of the 64 bytes at w in s0, e0, h0, of the 64 after in s1, e1, h1 (the
** ']' among the latter).  From below only, and with selects instead of
** branches where a row decides: whether a value ends in the first window
** or the second changes from row to row (in the high-entropy benchmark
** rows price does so in 3 rows of 10), and branching on it, or a loop of
** as many turns as bits above it, cost 4% more time than the old
** spans_pick for 5% fewer instructions (interleaved runs): the end is
** looked for in the 64 bits from the value's start, taken from both
** windows at once.  Value j starts in the second window when the first
** holds no more than j starts, which depends on the row only for a column
** near the first window's end (price: 7 rows in 100).  The price: a
** column that always ends in the first window (city) takes 2-3% more
** time than with that branch, which the CPU predicts for it (its chain
** from start to end is longer); clearing the start and end bits side by
** side, with a branch for columns of the first half only, was measured
** too: 1% more time on city, 4.5% less on price, against 2.5% and 5.5%. */
static JJ_INLINE void span_pick_one2(jj_span *v, const char *w, uint64_t s0, uint64_t s1,
                                     uint64_t e0, uint64_t e1, uint64_t h0, uint64_t h1,
                                     unsigned j) {
  const unsigned n0 = (unsigned)__builtin_popcountll(s0);
  if (JJ_UNLIKELY(j >= n0)) { /* it starts, so ends, in the second window */
    for (unsigned m = j - n0; m; m--) s1 &= s1 - 1;
    const unsigned at = (unsigned)__builtin_ctzll(s1);
    const unsigned len = (unsigned)__builtin_ctzll(e1 >> at);
    const uint64_t hv = (h1 >> at) & ((UINT64_C(1) << len) - 1);
    v[j].p = w + 64 + at;
    v[j].n = (size_t)len | (hv ? JJ_SPAN_HIGH : 0);
    return;
  }
  for (unsigned m = j; m; m--) s0 &= s0 - 1;
  const unsigned at = (unsigned)__builtin_ctzll(s0);
  /* the 64 ends and high bits from the value's start on, bit 0 its first
  ** byte (never an end: no value is empty); (x << 1) << (63 - at) is x
  ** << (64 - at), defined for at 0 too */
  const uint64_t ends = (e0 >> at) | ((e1 << 1) << (63 - at));
  const uint64_t highs = (h0 >> at) | ((h1 << 1) << (63 - at));
  size_t len;
  uint64_t hv;
  if (JJ_LIKELY(ends != 0)) {
    len = (size_t)__builtin_ctzll(ends);
    hv = highs & ((UINT64_C(1) << len) - 1);
  } else { /* 64 bytes or more: it ends in e1, at or past bit at */
    const unsigned rest = (unsigned)__builtin_ctzll(e1 >> at); /* its bytes past 64 */
    len = 64 + (size_t)rest;
    hv = highs | ((h1 >> at) & ((UINT64_C(1) << rest) - 1));
  }
  v[j].p = w + at;
  v[j].n = len | (hv ? JJ_SPAN_HIGH : 0);
}
#endif

#endif /* JJ_ROWPICK_H */
