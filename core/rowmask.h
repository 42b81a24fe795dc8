/*
** rowmask.h — the mask paths of the row scan: byte masks of 64-byte blocks
** (SSE2, or AVX2 where the CPU has it) and the check of a whole row of up
** to 128 bytes on those masks.
** Included by rowscan.c only (after it has decided JJ_SSE2 and JJ_AVX2),
** so everything here is static inline: rowscan.c instantiates the row
** check once per instruction set (an AVX2 instance under
** __attribute__((target("avx2,pclmul,popcnt,bmi"))), chosen per document at
** parse time, see jj_scan_choose).
**
** Why: a row's structure is found from seven masks of its bytes (quotes,
** commas, ']', bytes that stop the fast path, bytes >= 0x80, bytes that
** may stand outside strings, bytes that may start a value) and the inside of its strings (a prefix xor of the quotes: one
** carry-less multiply with AVX2), then a few operations on whole masks
** check every value at once.
** Rows of 65-128 bytes (the high-entropy benchmark rows) used to fall to
** the block path, which walks value by value; now they are checked in two
** windows at once.  (Keeping each 64-byte block's masks in the cursor
** from row to row, instead of classifying the 64 or 128 bytes after each
** row's '[', was tried and measured slower: the bookkeeping and the
** shifting of twelve cached words cost more than the classifying saved;
** so was checking 64 rows at a time in 64-byte blocks of the document,
** each byte classified once: see bench/README.md.)
*/
#ifndef JJ_ROWMASK_H
#define JJ_ROWMASK_H

#ifdef JJ_SSE2
#include <string.h>

#include "doc.h"

/* Bits from the first '"' of each pair up to (not including) its mate:
** "inside a string" for a window that starts outside one, as long as no
** backslash comes first. */
static inline uint64_t prefix_xor(uint64_t x) {
  x ^= x << 1;
  x ^= x << 2;
  x ^= x << 4;
  x ^= x << 8;
  x ^= x << 16;
  x ^= x << 32;
  return x;
}

/* The masks of 16 bytes at w, shifted to bit sh of the block's masks. */
static inline void chunk_masks(const char *w, int sh, jj_masks *m) {
  const __m128i x = _mm_loadu_si128((const __m128i *)(const void *)w);
  const __m128i comma = _mm_set1_epi8(','), c1f = _mm_set1_epi8(0x1f);
  const __m128i is_comma = _mm_cmpeq_epi8(x, comma);
  const __m128i is_quote = _mm_cmpeq_epi8(x, _mm_set1_epi8('"'));
  m->quote |= (uint64_t)(unsigned)_mm_movemask_epi8(is_quote) << sh;
  m->comma |= (uint64_t)(unsigned)_mm_movemask_epi8(is_comma) << sh;
  m->close |= (uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(x, _mm_set1_epi8(']'))) << sh;
  m->odd |= (uint64_t)(unsigned)_mm_movemask_epi8(
                _mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8('\\')),
                             _mm_cmpeq_epi8(_mm_max_epu8(x, c1f), c1f))) << sh;
  m->high |= (uint64_t)(unsigned)_mm_movemask_epi8(x) << sh;
  /* '+' ',' '-' '.' '/' '0'-'9' are 0x2b-0x39: all but '/'; and e E '"' */
  const __m128i y = _mm_sub_epi8(x, _mm_set1_epi8(0x2b));
  __m128i in = _mm_cmpeq_epi8(_mm_min_epu8(y, _mm_set1_epi8(14)), y);
  in = _mm_andnot_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8('/')), in);
  in = _mm_or_si128(in, _mm_cmpeq_epi8(_mm_or_si128(x, _mm_set1_epi8(0x20)),
                                       _mm_set1_epi8('e')));
  m->bare |= (uint64_t)(unsigned)_mm_movemask_epi8(_mm_or_si128(in, is_quote)) << sh;
  const __m128i d = _mm_sub_epi8(x, _mm_set1_epi8('0'));
  const __m128i lead = _mm_or_si128(_mm_cmpeq_epi8(_mm_min_epu8(d, _mm_set1_epi8(9)), d),
                                    _mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8('-')),
                                                 _mm_cmpeq_epi8(x, _mm_set1_epi8('"'))));
  m->lead |= (uint64_t)(unsigned)_mm_movemask_epi8(lead) << sh;
}

/* The masks of w[0..64) (the caller checked the 64 bytes exist), SSE2.
** A loop, not four calls in a row: gcc interleaves four inlined chunks
** and spills their vectors to the stack (measured 6% slower). */
static JJ_INLINE void window_masks(const char *w, jj_masks *m) {
  jj_masks r = {0, 0, 0, 0, 0, 0, 0, 0};
  for (int k = 0; k < 64; k += 16) chunk_masks(w + k, k, &r);
  r.str = prefix_xor(r.quote);
  *m = r;
}

/* The masks of w[0..32) only, in bits 0-31 (bits 32-63 are 0, and str
** goes on with the parity of the 32 bytes' quotes): for the second window
** of a row whose ']' is among those 32 bytes, where nothing past the ']'
** is looked at.  The caller checked the 32 bytes exist. */
static JJ_INLINE void half_masks(const char *w, jj_masks *m) {
  jj_masks r = {0, 0, 0, 0, 0, 0, 0, 0};
  chunk_masks(w, 0, &r);
  chunk_masks(w + 16, 16, &r);
  r.str = prefix_xor(r.quote);
  *m = r;
}

#ifdef JJ_AVX2
/* AVX2, PCLMUL, POPCNT and BMI1 (which came with AVX2 in Intel's Haswell
** and AMD's Excavator; its tzcnt, blsr and andn take about 4% off the
** instructions of reading a column: the span loops, the masks'
** and-nots).  JJ_CPU_AVX2 asks the CPU for all four
** (jj_scan_choose; the tests), from libgcc's (compiler-rt's) CPU model,
** probed once by the runtime, which also checks that the OS saves the AVX
** registers. */
#define JJ_TARGET_AVX2 __attribute__((target("avx2,pclmul,popcnt,bmi")))
#define JJ_CPU_AVX2()                                                            \
  (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("pclmul") &&         \
   __builtin_cpu_supports("popcnt") && __builtin_cpu_supports("bmi"))
static JJ_INLINE JJ_TARGET_AVX2 uint64_t avx2_bits(__m256i lo, __m256i hi) {
  return (uint64_t)(uint32_t)_mm256_movemask_epi8(lo) |
         (uint64_t)(uint32_t)_mm256_movemask_epi8(hi) << 32;
}
/* The vector constants of the AVX2 masks, in memory so that each is an
** operand of the instruction using it: built with _mm256_set1_epi8, gcc
** made every one again on every call (three instructions each, about 30
** a window).  Each 16-byte row is there twice, once per 128-bit lane.
**
** The sets of several bytes come from one class byte per byte (simdjson's
** classification): the AND of a row looked up by the byte's high nibble
** (K_HI) and one looked up by its low nibble (K_LO).  Each bit of the class
** is one rectangle of (high nibble, low nibble) pairs:
**   bit 7  0x00-0x1f (control bytes)   bit 6  '\\'
**   bit 5  '0'-'9'                     bit 4  '"' '-'
**   bit 3  '+' ',' '.'                 bit 2  'E' 'e'
** so the classes nest by value: odd bytes have a class >= 0x40, odd or
** lead bytes >= 0x10, odd or bare bytes >= 0x04, every other byte 0
** (vpshufb gives 0 for a byte >= 0x80 in K_LO's lookup).  Each mask is
** then a saturating add of 0x80 - threshold (bit 7 set exactly when the
** class reaches it) and a vpmovmskb: two instructions a mask per 32 bytes
** instead of a lookup, an and, a compare and a vpmovmskb each (21
** instructions fewer a high-entropy row of 96 bytes, callgrind). */
#define JJ_R8(c) c, c, c, c, c, c, c, c
#define JJ_R32(c) {JJ_R8(c), JJ_R8(c), JJ_R8(c), JJ_R8(c)}
#define JJ_LANES(...) {__VA_ARGS__, __VA_ARGS__}
enum { K_QUOTE, K_COMMA, K_CLOSE, K_0F, K_HI, K_LO, K_ODD, K_LEAD, K_BARE };
static const unsigned char jj_avx2_k[][32] = {
    JJ_R32('"'), JJ_R32(','), JJ_R32(']'), JJ_R32(0x0f),
    /* K_HI, by high nibble: 0-1 controls, 2 '"' '-' and '+' ',' '.',
    ** 3 digits, 4 and 6 'E' 'e', 5 '\\' */
    JJ_LANES(0x80, 0x80, 0x18, 0x20, 0x04, 0x40, 0x04, 0x00,
             0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00),
    /* K_LO, by low nibble: every one controls (0x80); 0-9 digits (0x20);
    ** 2 and d '"' '-' (0x10); b c e '+' ',' '.' (0x08); 5 'E' 'e' (0x04);
    ** c '\\' (0x40) */
    JJ_LANES(0xa0, 0xa0, 0xb0, 0xa0, 0xa0, 0xa4, 0xa0, 0xa0,
             0xa0, 0xa0, 0x80, 0x88, 0xc8, 0x90, 0x88, 0x80),
    /* 0x80 - the thresholds: odd, odd or lead, odd or bare */
    JJ_R32(0x80 - 0x40), JJ_R32(0x80 - 0x10), JJ_R32(0x80 - 0x04)};
#undef JJ_R8
#undef JJ_R32
#undef JJ_LANES
/* Row i of the table k, which the caller made opaque (the empty asm in
** window_masks_avx2): gcc folds constant rows it can see back into the
** three-instruction broadcasts this table is there to avoid. */
static JJ_INLINE JJ_TARGET_AVX2 __m256i avx2_k(const unsigned char (*k)[32], int i) {
  return _mm256_loadu_si256((const __m256i *)(const void *)k[i]);
}
/* The class byte of each byte of x (see jj_avx2_k). */
static JJ_INLINE JJ_TARGET_AVX2 __m256i avx2_class(__m256i x, const unsigned char (*k)[32]) {
  const __m256i hi = _mm256_shuffle_epi8(
      avx2_k(k, K_HI), _mm256_and_si256(_mm256_srli_epi16(x, 4), avx2_k(k, K_0F)));
  return _mm256_and_si256(hi, _mm256_shuffle_epi8(avx2_k(k, K_LO), x));
}
/* The bytes of the class bytes ca, cb that reach the threshold whose row
** is i (K_ODD, K_LEAD, K_BARE). */
static JJ_INLINE JJ_TARGET_AVX2 uint64_t avx2_reach(__m256i ca, __m256i cb,
                                                    const unsigned char (*k)[32], int i) {
  return avx2_bits(_mm256_adds_epu8(ca, avx2_k(k, i)), _mm256_adds_epu8(cb, avx2_k(k, i)));
}
/* prefix_xor as one carry-less multiply by all ones. */
static JJ_INLINE JJ_TARGET_AVX2 uint64_t avx2_prefix_xor(uint64_t x) {
  return (uint64_t)_mm_cvtsi128_si64(
      _mm_clmulepi64_si128(_mm_cvtsi64_si128((long long)x), _mm_set1_epi8(-1), 0));
}
/* The masks of window_masks with AVX2, 32 bytes at a time, but for two:
** bare and lead also hold the odd bytes (the classes nest, see
** jj_avx2_k).  The checks on these masks (scan_row_window,
** scan_row_window2) decline a row with an odd byte before bare or lead is
** asked about one, so they decide alike on either form; test_simd_paths
** compares the masks with the byte-wise reference in this form and every
** path's results. */
static JJ_INLINE JJ_TARGET_AVX2 void window_masks_avx2(const char *w, jj_masks *m) {
  const __m256i a = _mm256_loadu_si256((const __m256i *)(const void *)w);
  const __m256i b = _mm256_loadu_si256((const __m256i *)(const void *)(w + 32));
  const unsigned char(*k)[32] = jj_avx2_k;
  __asm__("" : "+r"(k)); /* see avx2_k */
  const __m256i ca = avx2_class(a, k), cb = avx2_class(b, k);
  m->quote = avx2_bits(_mm256_cmpeq_epi8(a, avx2_k(k, K_QUOTE)), _mm256_cmpeq_epi8(b, avx2_k(k, K_QUOTE)));
  m->comma = avx2_bits(_mm256_cmpeq_epi8(a, avx2_k(k, K_COMMA)), _mm256_cmpeq_epi8(b, avx2_k(k, K_COMMA)));
  m->close = avx2_bits(_mm256_cmpeq_epi8(a, avx2_k(k, K_CLOSE)), _mm256_cmpeq_epi8(b, avx2_k(k, K_CLOSE)));
  m->odd = avx2_reach(ca, cb, k, K_ODD);
  m->high = avx2_bits(a, b);
  m->bare = avx2_reach(ca, cb, k, K_BARE);
  m->lead = avx2_reach(ca, cb, k, K_LEAD);
  m->str = avx2_prefix_xor(m->quote);
}
/* The quotes and ']'s of w[0..64) only, AVX2: all a row's first look
** needs to see whether its ']' is in the window (rowscan.c's
** scan_row_lazy), before the other masks are worth making. */
static JJ_INLINE JJ_TARGET_AVX2 void window_closes_avx2(const char *w, uint64_t *quote,
                                                        uint64_t *close) {
  const __m256i a = _mm256_loadu_si256((const __m256i *)(const void *)w);
  const __m256i b = _mm256_loadu_si256((const __m256i *)(const void *)(w + 32));
  const unsigned char(*k)[32] = jj_avx2_k;
  __asm__("" : "+r"(k)); /* see avx2_k */
  const __m256i q = avx2_k(k, K_QUOTE), cl = avx2_k(k, K_CLOSE);
  *quote = avx2_bits(_mm256_cmpeq_epi8(a, q), _mm256_cmpeq_epi8(b, q));
  *close = avx2_bits(_mm256_cmpeq_epi8(a, cl), _mm256_cmpeq_epi8(b, cl));
}
/* Where the first '\n' of w[0..128) is, 128 when none (rowscan.c's
** check_rows_with: where a row ends). */
static JJ_INLINE JJ_TARGET_AVX2 unsigned first_newline_avx2(const char *w) {
  const __m256i nl = _mm256_set1_epi8('\n');
  const uint64_t lo = avx2_bits(
      _mm256_cmpeq_epi8(_mm256_loadu_si256((const __m256i *)(const void *)w), nl),
      _mm256_cmpeq_epi8(_mm256_loadu_si256((const __m256i *)(const void *)(w + 32)), nl));
  const uint64_t hi = avx2_bits(
      _mm256_cmpeq_epi8(_mm256_loadu_si256((const __m256i *)(const void *)(w + 64)), nl),
      _mm256_cmpeq_epi8(_mm256_loadu_si256((const __m256i *)(const void *)(w + 96)), nl));
  return lo ? (unsigned)__builtin_ctzll(lo)
            : hi ? 64 + (unsigned)__builtin_ctzll(hi) : 128;
}
/* half_masks with AVX2 (one 32-byte load), bare and lead as
** window_masks_avx2's. */
static JJ_INLINE JJ_TARGET_AVX2 void half_masks_avx2(const char *w, jj_masks *m) {
  const __m256i a = _mm256_loadu_si256((const __m256i *)(const void *)w);
  const unsigned char(*k)[32] = jj_avx2_k;
  __asm__("" : "+r"(k)); /* see avx2_k */
  const __m256i ca = avx2_class(a, k);
#define JJ_BITS32(v) ((uint64_t)(uint32_t)_mm256_movemask_epi8(v))
  m->quote = JJ_BITS32(_mm256_cmpeq_epi8(a, avx2_k(k, K_QUOTE)));
  m->comma = JJ_BITS32(_mm256_cmpeq_epi8(a, avx2_k(k, K_COMMA)));
  m->close = JJ_BITS32(_mm256_cmpeq_epi8(a, avx2_k(k, K_CLOSE)));
  m->odd = JJ_BITS32(_mm256_adds_epu8(ca, avx2_k(k, K_ODD)));
  m->high = JJ_BITS32(a);
  m->bare = JJ_BITS32(_mm256_adds_epu8(ca, avx2_k(k, K_BARE)));
  m->lead = JJ_BITS32(_mm256_adds_epu8(ca, avx2_k(k, K_LEAD)));
#undef JJ_BITS32
  m->str = avx2_prefix_xor(m->quote);
}
#endif

#include "rowpick.h" /* the spans of the selected columns */

/* What a mask path writes, its `spans` argument (a constant in each
** instance): nothing (0: rows passed over, checked only), the spans
** c->want asks for (1: every span when it is 0, else the selected ones),
** or, for the instances that know which (rowscan.c's jj_row_next ones,
** chosen by c->want), every span (2) or the one selected column's (3: c->want
** has one bit).  The one column's instance holds neither the every-span
** loops nor spans_pick's, whose registers it would otherwise keep (its
** spills went from five words to one, err), and the every-column one no
** test of c->want (rowscan.c's next_avx2 makes it once). */
enum { JJ_SPANS_NONE, JJ_SPANS_WANTED, JJ_SPANS_EVERY, JJ_SPANS_ONE };

/* The commonest row of all, in one window: strings and numbers only,
** separated by ',' with no whitespace, the ']' within the 64 bytes at w
** (the byte after the '['), whose masks are m and whose "inside a string"
** bits (the masks' str) are in.  The row is checked with a few
** operations on whole masks instead of value by value:
**   - the row's bytes R run up to the first ']' outside strings, and its
**     terminators T are the ','s outside strings before it;
**   - no backslash or control byte in R;
**   - every '"' in R is the first or the last byte of a value: then, as
**     the terminators are those outside strings, each quote opens a value
**     that starts with one and closes it at its last byte, and a value
**     that does not start with a quote holds none;
**   - every byte of R outside strings is a bare byte (a number byte, ','
**     or '"': the terminators and closing quotes are bare, so every other
**     byte there must be a number byte);
**   - every value starts with '"', '-' or a digit (the lead mask at the
**     byte after each terminator: this also refuses empty values), and
**     there are n of them (counted before any span is written).
** Those are exactly the rows of strings and numbers scan_row_with accepts
** without whitespace, with the same spans and flags.  The caller has
** checked that a ']' lies outside strings in the window.  Returns 1 with
** every span and c->pos set, or 0 (nothing reported; spans may be
** overwritten).  With spans 0 (a constant: the check-only instances of
** rowscan.c, for rows passed over) the row is checked the same and c->pos
** set, but no span is written. */
static JJ_INLINE int scan_row_window(jj_cursor *c, const char *w, const jj_masks *m,
                                     uint64_t in, const int spans) {
  jj_span *const v = c->v;
  const size_t n = c->ncol;
  const uint64_t closes = m->close & ~in;
  const uint64_t cb = closes & (0 - closes); /* the row's ']' */
  const uint64_t row = cb - 1;               /* the row's bytes before it */
  const uint64_t term = m->comma & ~in & row;
  const uint64_t first = (term << 1) | 1, last = (term | cb) >> 1;
  /* A branch per condition: all of them or-ed into one test took 4
  ** instructions a row off the AVX2 instances, but was no faster there and
  ** made the SSE2 one 5% slower (interleaved runs). */
  if ((m->odd & row) || (m->quote & row & ~(first | last)) ||
      (row & ~(in | m->bare)) || (first & ~m->lead) ||
      (size_t)__builtin_popcountll(term) + 1 != n)
    return 0;
  if (!spans) {
    c->pos = w + __builtin_ctzll(cb) + 1;
    return 1;
  }
#if JJ_SELECT
  if (spans == JJ_SPANS_ONE) { /* the one selected column (select.c) */
    span_pick_one(v, w, first, term | cb, m->high & row, (unsigned)__builtin_ctzll(c->want), n);
    c->pos = w + __builtin_ctzll(cb) + 1;
    return 1;
  }
  if (spans == JJ_SPANS_WANTED && c->want) { /* the selected columns only */
    spans_pick(c, w, term | cb, 0, m->high & row, 0);
    c->pos = w + __builtin_ctzll(cb) + 1;
    return 1;
  }
#endif
  /* the spans, the count being right: s is the value's first byte, q its
  ** terminator */
  uint64_t t = term, high = m->high & row;
  const char *s = w, *q;
  jj_span *o = v;
  if (!high) { /* pure ASCII: no flags to work out */
    for (; t; t &= t - 1, o++) {
      q = w + __builtin_ctzll(t);
      o->p = s;
      o->n = (size_t)(q - s);
      s = q + 1;
    }
  } else {
    for (; t; t &= t - 1, o++) {
      const uint64_t hv = high & ((t & (0 - t)) - 1); /* the value's bytes >= 0x80 */
      q = w + __builtin_ctzll(t);
      o->p = s;
      o->n = (size_t)(q - s) | (hv ? JJ_SPAN_HIGH : 0);
      high ^= hv;
      s = q + 1;
    }
  }
  /* the last value, up to the ']' */
  q = w + __builtin_ctzll(cb);
  o->p = s;
  o->n = (size_t)(q - s) | (high ? JJ_SPAN_HIGH : 0);
  c->pos = q + 1;
  return 1;
}

/* What the first window of a row checked in two windows decides alone,
** folded into a few words as soon as its masks are made, so that its seven
** masks need not stay live (in registers, or spilled) while the second
** window's are made: t its terminators, in its "inside a string" bits,
** high its bytes >= 0x80, bad the bytes that fail a condition of
** scan_row_window's (the first window is all row), q its quotes neither
** first nor last in their value, but for whether byte 63 is last, which
** the second window's first byte decides. */
typedef struct jj_first {
  uint64_t t, in, high, bad, q;
} jj_first;

static JJ_INLINE void first_window(const jj_masks *a, uint64_t in0, jj_first *f) {
  const uint64_t t0 = a->comma & ~in0, first0 = (t0 << 1) | 1;
  f->t = t0;
  f->in = in0;
  f->high = a->high;
  f->bad = a->odd | ~(in0 | a->bare) | (first0 & ~a->lead);
  f->q = a->quote & ~(first0 | (t0 >> 1));
}

/* The same check for a row whose ']' lies in the second window: the 128
** bits are the pairs (a, b), a the first 64 bytes at w (summed up in f by
** first_window), b the next 64; in1 "inside a string", carried across the
** windows by the caller; cb the ']''s bit in b.  Every operation of
** scan_row_window, done on two words (shifts carry a bit across), so the
** same rows are accepted with the same spans.  Returns 1 or 0 as
** scan_row_window, spans likewise. */
static JJ_INLINE int scan_row_window2(jj_cursor *c, const char *w, const jj_first *f,
                                      const jj_masks *b, uint64_t in1, uint64_t cb,
                                      const int spans) {
  jj_span *const v = c->v;
  const size_t n = c->ncol;
  const uint64_t row1 = cb - 1; /* the first window is all row */
  const uint64_t t0 = f->t, t1 = b->comma & ~in1 & row1;
  const uint64_t first1 = (t1 << 1) | (t0 >> 63);
  const uint64_t tc1 = t1 | cb;
  if ((row1 & (b->odd | (b->quote & ~(first1 | (tc1 >> 1))) | ~(in1 | b->bare))) |
      (first1 & ~b->lead))
    return 0;
  if (f->bad | (f->q & ~(tc1 << 63)) |
      (((size_t)__builtin_popcountll(t0) + (size_t)__builtin_popcountll(t1) + 1) ^ n))
    return 0;
  if (!spans) {
    c->pos = w + 64 + __builtin_ctzll(cb) + 1;
    return 1;
  }
#if JJ_SELECT
  if (spans == JJ_SPANS_ONE) { /* the one selected column (select.c) */
    span_pick_one2(v, w, (t0 << 1) | 1, first1, t0, tc1, f->high, b->high & row1,
                   (unsigned)__builtin_ctzll(c->want));
    c->pos = w + 64 + __builtin_ctzll(cb) + 1;
    return 1;
  }
  if (spans == JJ_SPANS_WANTED && c->want) { /* the selected columns only */
    spans_pick(c, w, t0, tc1, f->high, b->high & row1);
    c->pos = w + 64 + __builtin_ctzll(cb) + 1;
    return 1;
  }
#endif
  uint64_t h0 = f->high, h1 = b->high & row1;
  const char *s = w, *q, *const w1 = w + 64;
  jj_span *o = v;
  if (!(h0 | h1)) { /* pure ASCII: no flags to work out */
    for (uint64_t t = t0; t; t &= t - 1, o++) {
      q = w + __builtin_ctzll(t);
      o->p = s;
      o->n = (size_t)(q - s);
      s = q + 1;
    }
    for (uint64_t t = t1; t; t &= t - 1, o++) {
      q = w1 + __builtin_ctzll(t);
      o->p = s;
      o->n = (size_t)(q - s);
      s = q + 1;
    }
    q = w1 + __builtin_ctzll(cb);
    o->p = s;
    o->n = (size_t)(q - s);
    c->pos = q + 1;
    return 1;
  }
  /* values ending in the first window, then those ending in the second;
  ** a value's bytes >= 0x80 are those below its end not yet taken */
  for (uint64_t t = t0; t; t &= t - 1, o++) {
    const uint64_t below = (t & (0 - t)) - 1, hv = h0 & below;
    q = w + __builtin_ctzll(t);
    o->p = s;
    o->n = (size_t)(q - s) | (hv ? JJ_SPAN_HIGH : 0);
    h0 ^= hv;
    s = q + 1;
  }
  for (uint64_t t = t1; t; t &= t - 1, o++) {
    const uint64_t below = (t & (0 - t)) - 1, hv = h0 | (h1 & below);
    q = w1 + __builtin_ctzll(t);
    o->p = s;
    o->n = (size_t)(q - s) | (hv ? JJ_SPAN_HIGH : 0);
    h0 = 0;
    h1 &= ~below;
    s = q + 1;
  }
  q = w1 + __builtin_ctzll(cb);
  o->p = s;
  o->n = (size_t)(q - s) | ((h0 | h1) ? JJ_SPAN_HIGH : 0);
  c->pos = q + 1;
  return 1;
}

/* The masks of the 64 bytes at w + at, of which avail - at exist (none
** when avail <= at): those past the end are classified as NUL bytes,
** control bytes, so no row the paths accept can reach into them. */
static JJ_INLINE void masks_from(const char *w, size_t avail, size_t at, jj_masks *m,
                                 void (*masks)(const char *, jj_masks *)) {
  if (JJ_LIKELY(avail >= at + 64)) {
    masks(w + at, m);
  } else {
    char pad[64];
    memset(pad, 0, sizeof pad);
    if (avail > at) memcpy(pad, w + at, avail - at);
    masks(pad, m);
  }
}

/* The row whose first value is at w, when the 64 bytes there (masks m0,
** "inside a string" in0) hold no ']' outside strings: checked in two
** windows when its ']' is in the next 64 bytes (of which `half` classifies
** the first 32 alone: most such rows end there).  Returns 1 with every
** span and c->pos set, or 0 as scan_row_window, spans likewise
** (rowscan.c's scan_row_two). */
static JJ_INLINE int scan_row_second(jj_cursor *c, const char *w, const jj_masks *m0,
                                     uint64_t in0, void (*masks)(const char *, jj_masks *),
                                     void (*half)(const char *, jj_masks *),
                                     const int spans) {
  jj_masks m1;
  jj_first f;
  const size_t avail = (size_t)(c->doc->end - w);
  const uint64_t carry = 0 - (in0 >> 63);
  first_window(m0, in0, &f);
#ifndef JJ_SMALL /* a build for size classifies the whole window */
  if (JJ_LIKELY(avail >= 96)) { /* rows of 65-96 bytes: 32 more bytes do */
    half(w + 64, &m1);
    const uint64_t in1 = m1.str ^ carry, closes = m1.close & ~in1;
    if (closes) return scan_row_window2(c, w, &f, &m1, in1, closes & (0 - closes), spans);
  }
#else
  (void)half;
#endif
  masks_from(w, avail, 64, &m1, masks);
  const uint64_t in1 = m1.str ^ carry;
  const uint64_t closes = m1.close & ~in1;
  if (!closes) return 0;
  return scan_row_window2(c, w, &f, &m1, in1, closes & (0 - closes), spans);
}

#endif /* JJ_SSE2 */
#endif /* JJ_ROWMASK_H */
