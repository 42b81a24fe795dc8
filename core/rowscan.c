/*
** rowscan.c — finding the values of one row: where each starts and ends,
** checked for structure (JSON syntax of strings, literals and nested
** values, the run of a number, the value count), nothing converted and
** nothing allocated.  cursor.c moves between rows and value.c reads
** values; this file is the cursor's inner loop, the reader's hottest code.
**
** Two ways, one answer:
**   - scan_row_with (rowbytes.h), the reference: value by value, the first
**     byte says what the value is; strings are searched for their closing
**     quote 16 bytes at a time with SSE2 (8 at a time portably), numbers
**     for the end of their run.  Whitespace is looked for only where the
**     canonical byte is not.  It finds and reports every error.
**   - scan_row_blocks (SSE2 only), for the common row: masks of 64 bytes at
**     once (quotes, terminators, number bytes, backslashes and control
**     bytes, bytes >= 0x80), the inside of strings by a prefix xor of the
**     quotes, then each value's end is a few bit operations instead of a
**     load that waits for the previous value's end.  It accepts only rows
**     whose every value it can vouch for and gives then the same spans and
**     flags as scan_row_with; for anything else, errors included, it
**     declines and scan_row_with runs.
**   - the mask path (rowmask.h; SSE2 or AVX2) goes first: the commonest
**     rows, strings and numbers whose ']' is within 64 bytes (one window)
**     or 128 (two), checked all at once on the masks, so the values cost
**     only the writing of their spans.  It declines to scan_row_blocks
**     (literals, longer rows) the same way.  With AVX2 a row's first look
**     is at its quotes and ']'s only, then one out-of-line function per
**     window count (scan_row_lazy).
** A string notes whether it holds a byte >= 0x80 (JJ_SPAN_HIGH), so pure
** ASCII text skips the UTF-8 check when read.  Each document chose its
** instance when it was parsed (doc->scan: scalar, SSE2 or AVX2, see
** jj_scan_choose); tests and fuzz_scan_paths compare all on the same input.
*/
#include <string.h>

#include "doc.h"

#if defined(__SSE2__) && !defined(JJ_NO_SIMD)
/* A build that maps the SSE2 intrinsics itself (the WebAssembly one)
** includes its mapping before this file and says so. */
#ifndef JJ_SSE2_PROVIDED
#include <emmintrin.h>
#endif
#define JJ_SSE2 1
/* AVX2 is compiled in on x86 with gcc or clang (functions under
** target("avx2,pclmul,popcnt,bmi"), the rest of the build stays baseline
** x86-64) and used only when the CPU says it has all four
** (jj_scan_choose).  Not on WebAssembly,
** whose build maps the SSE2 intrinsics only (js/sse2). */
#if (defined(__x86_64__) || defined(__i386__)) && \
    (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define JJ_AVX2 1
#endif
#endif
#include "rowmask.h"
#include "rowbytes.h"

#ifdef JJ_SSE2
/* The row at p ('[') the fast way, for the common row: values separated
** by ',' with no whitespace, no backslash or control byte, no nested value,
** no value longer than about 60 bytes, at least 64 bytes left.  The masks
** of 64 bytes are computed at once, so finding each value's end is a few
** bit operations instead of a chain of dependent loads.  Returns 1 with
** every span set and c->pos past the ']', exactly as scan_row_with would
** set them (the same spans and flags), or 0 when the row is not that
** simple or has an error: the caller then scans it with scan_row_with,
** which also finds and reports any error.  Only accepts: nothing here
** reports an error. */
static inline int scan_row_blocks(jj_cursor *c, const char *p) {
  const char *const end = c->doc->end;
  jj_span *const v = c->v;
  const size_t n = c->ncol;
  const char *w = p + 1; /* a window starts at a value's first byte */
  size_t i = 0;
  for (;;) {
    jj_masks m;
    if (end - w < 64) return 0;
    window_masks(w, &m);
    uint64_t term = (m.comma | m.close) & ~m.str, done = 0;
    unsigned start = 0;
    while (term) {
      const uint64_t tb = term & (0 - term); /* the next terminator's bit */
      const uint64_t range = (tb - 1) & ~done; /* the value's bytes */
      const unsigned e = (unsigned)__builtin_ctzll(tb);
      const char *s = w + start;
      const size_t len = e - start;
      size_t flags = 0;
      term ^= tb;
      done |= (tb - 1) | tb;
      if ((m.odd & range) || !range) return 0;
      if (*s == '"') {
        if ((m.quote & range) != ((range & (0 - range)) | (tb >> 1)) || len < 2) return 0;
        flags = (m.high & range) ? JJ_SPAN_HIGH : 0;
      } else if (value_kind[(unsigned char)*s] == V_NUM) {
        if ((m.bare & ~m.quote & range) != range) return 0; /* no '"', no ',' then */
      } else if (!(len == 4 && (memcmp(s, "null", 4) == 0 || memcmp(s, "true", 4) == 0)) &&
                 !(len == 5 && memcmp(s, "false", 5) == 0)) {
        return 0;
      }
      v[i].p = s;
      v[i].n = len | flags;
      i++;
      if (w[e] == ']') {
        if (i != n) return 0;
        c->pos = w + e + 1;
        return 1;
      }
      if (i == n) return 0;
      start = e + 1;
    }
    if (start == 0) return 0; /* one value fills the window */
    w += start;
  }
}
#endif

#ifdef JJ_SSE2
/* Every row the mask paths decline: the block path, then the
** value-by-value scan (which also finds and reports any error).  One copy,
** out of line, shared by every instance: the SSE2 code it runs is the same
** for all, and keeping it out saves the mask paths its registers. */
static JJ_NOINLINE JJ_HOT jj_code scan_row_slow(jj_cursor *c, const char *p, int64_t row,
                                         jj_error *err) {
  jj_code rc = JJ_OK;
  if (JJ_LIKELY(scan_row_blocks(c, p))) c->wide = c->pos - p > 129; /* past the two windows of the mask path */
  else rc = scan_row_simd(c, p, row, err);
#if JJ_SELECT
  /* every span written: those not selected must not outlive this row
  ** (select.c) */
  if (c->want) jj_row_unlocate(c);
#endif
  return rc;
}

#ifndef JJ_SMALL
/* jj_row_next's rows the mask paths decline (scan_row_slow), finished as
** every instance finishes its rows (doc.h's jj_row_done). */
static JJ_NOINLINE JJ_HOT int next_slow(jj_cursor *c, const char *p, jj_error *err) {
  if (scan_row_slow(c, p, c->row + 1, err) != JJ_OK) {
    jj_cursor_state(c, JJ_CUR_LOST);
    return -1;
  }
  return jj_row_done(c, p, err);
}
#endif

/* How an instance ends: the row at p taken by the mask path, or declined
** to scan_row_slow.  next 1 (a constant: jj_row_next's instances) finishes
** the row as jj_row_next does (1 or -1); else a jj_code. */
static JJ_INLINE int row_taken(jj_cursor *c, const char *p, jj_error *err,
                               const int next) {
#ifndef JJ_SMALL
  if (next) return jj_row_done(c, p, err);
#endif
  (void)c;
  (void)p;
  (void)err;
  (void)next;
  return JJ_OK;
}
static JJ_INLINE int row_declined(jj_cursor *c, const char *p, int64_t row,
                                  jj_error *err, const int next) {
#ifndef JJ_SMALL
  if (next) return next_slow(c, p, err);
#endif
  (void)next;
  return scan_row_slow(c, p, row, err);
}

/* The SSE2 mask path (when 64 bytes follow the '['), else scan_row_slow:
** the masks of the 64 bytes after the '[' at once, the row checked on
** them when its ']' is among them, else by `second` (an instance of
** scan_row_second, out of line so that the one-window path stays small)
** on those of 128 bytes.  spans 0: checked only, as in rowmask.h.  next 1
** (a constant: jj_row_next's instance): the caller has checked that 64
** bytes follow, row is not used, and the row is finished as jj_row_next
** does (1 or -1, not a jj_code). */
static JJ_INLINE int scan_row_eager(jj_cursor *c, const char *p, int64_t row,
                                    jj_error *err,
                                    int (*second)(jj_cursor *, const char *,
                                                  const jj_masks *, uint64_t),
                                    const int spans, const int next) {
  if (JJ_LIKELY(!c->wide && (next || c->doc->end - p > 64))) {
    const char *const w = p + 1;
    jj_masks m0;
    window_masks(w, &m0);
    if (JJ_LIKELY(m0.close & ~m0.str) ? scan_row_window(c, w, &m0, m0.str, spans)
                                      : second(c, w, &m0, m0.str))
      return row_taken(c, p, err, next);
  }
  return row_declined(c, p, row, err, next);
}

#ifdef JJ_AVX2
/* A row's first look with AVX2: the quotes of the 64 bytes after the '['
** at p and the inside of strings (in); whether a ']' lies outside them. */
static JJ_INLINE JJ_TARGET_AVX2 int first_look_avx2(const char *p, uint64_t *quote,
                                                    uint64_t *in) {
  uint64_t close;
  window_closes_avx2(p + 1, quote, &close);
  *in = avx2_prefix_xor(*quote);
  return (close & ~*in) != 0;
}

/* The AVX2 mask path, else scan_row_slow: a dispatch on the quotes and
** ']'s of the 64 bytes after the '[' alone, which tail-calls `one` (an
** instance of scan_row_one) when the row's ']' is among them, else `two`
** (scan_row_two), handing over the quotes and the inside of strings (in):
** no masks go through memory, and this function keeps few registers.
** (SSE2 makes all the masks at once: its masks cost twice the
** instructions, and classifying the quotes and ']'s twice cost it more
** than it saved.) */
static JJ_INLINE JJ_TARGET_AVX2 jj_code scan_row_lazy(
    jj_cursor *c, const char *p, int64_t row, jj_error *err,
    jj_code (*one)(jj_cursor *, const char *, int64_t, jj_error *, uint64_t, uint64_t),
    jj_code (*two)(jj_cursor *, const char *, int64_t, jj_error *, uint64_t, uint64_t)) {
  if (JJ_LIKELY(!c->wide && c->doc->end - p > 64)) {
    uint64_t quote, in;
    if (first_look_avx2(p, &quote, &in)) return one(c, p, row, err, quote, in);
    return two(c, p, row, err, quote, in);
  }
  return scan_row_slow(c, p, row, err);
}

/* The rest of the masks of the 64 bytes after the '[' at p, whose quotes
** and inside of strings the caller has made (scan_row_lazy). */
static JJ_INLINE JJ_TARGET_AVX2 void rest_masks_avx2(const char *p, uint64_t quote,
                                                     uint64_t in, jj_masks *m) {
  window_masks_avx2(p + 1, m);
  m->quote = quote; /* the same: gcc drops the making of these two */
  m->str = in;
}

/* A row whose ']' is in the 64 bytes after its '[': checked on their
** masks (scan_row_window), else scan_row_slow. */
static JJ_INLINE JJ_TARGET_AVX2 int scan_row_one(jj_cursor *c, const char *p,
                                                 int64_t row, jj_error *err,
                                                 uint64_t quote, uint64_t in,
                                                 const int spans, const int next) {
  jj_masks m0;
  rest_masks_avx2(p, quote, in, &m0);
  if (JJ_LIKELY(scan_row_window(c, p + 1, &m0, in, spans)))
    return row_taken(c, p, err, next);
  return row_declined(c, p, row, err, next);
}

/* A row with no ']' outside strings in the 64 bytes after its '[':
** checked in two windows (scan_row_second), else scan_row_slow. */
static JJ_INLINE JJ_TARGET_AVX2 int scan_row_two(jj_cursor *c, const char *p,
                                                 int64_t row, jj_error *err,
                                                 uint64_t quote, uint64_t in,
                                                 const int spans, const int next) {
  jj_masks m0;
  rest_masks_avx2(p, quote, in, &m0);
  if (JJ_LIKELY(scan_row_second(c, p + 1, &m0, in, window_masks_avx2, half_masks_avx2,
                                spans)))
    return row_taken(c, p, err, next);
  return row_declined(c, p, row, err, next);
}
#endif

/* The instances: rows read (spans written), rows passed over
** (jj_row_check: checked only, else scan_row_slow, which also reports
** errors; not in a build for size, whose jj_row_check scans in full), and
** jj_row_next's rows (spans written, the cursor moved onto the row; not in
** a build for size either).  Each out of line, so that jj_row_scan and
** jj_row_next are dispatches that save no registers. */
static JJ_NOINLINE JJ_HOT int second_sse2(jj_cursor *c, const char *w, const jj_masks *m0,
                                   uint64_t in0) {
  return scan_row_second(c, w, m0, in0, window_masks, half_masks, JJ_SPANS_WANTED);
}
static JJ_NOINLINE JJ_HOT jj_code scan_row_sse2(jj_cursor *c, const char *p, int64_t row,
                                         jj_error *err) {
  return scan_row_eager(c, p, row, err, second_sse2, JJ_SPANS_WANTED, 0);
}
#ifndef JJ_SMALL
static JJ_NOINLINE JJ_HOT int second_check_sse2(jj_cursor *c, const char *w, const jj_masks *m0,
                                         uint64_t in0) {
  return scan_row_second(c, w, m0, in0, window_masks, half_masks, JJ_SPANS_NONE);
}
static JJ_NOINLINE JJ_HOT jj_code check_row_sse2(jj_cursor *c, const char *p, int64_t row,
                                          jj_error *err) {
  return scan_row_eager(c, p, row, err, second_check_sse2, JJ_SPANS_NONE, 0);
}
static JJ_NOINLINE JJ_HOT int next_sse2(jj_cursor *c, jj_error *err, const char *p) {
  return scan_row_eager(c, p, 0, err, second_sse2, JJ_SPANS_WANTED, 1);
}
#endif
#endif /* JJ_SSE2 */
#ifdef JJ_AVX2
#define JJ_AVX2_INSTANCE(name, body, spans)                                         \
  static JJ_NOINLINE JJ_HOT JJ_TARGET_AVX2 jj_code name(jj_cursor *c, const char *p,      \
                                                 int64_t row, jj_error *err,       \
                                                 uint64_t quote, uint64_t in) {    \
    return body(c, p, row, err, quote, in, spans, 0);                              \
  }
JJ_AVX2_INSTANCE(one_avx2, scan_row_one, JJ_SPANS_WANTED)
JJ_AVX2_INSTANCE(two_avx2, scan_row_two, JJ_SPANS_WANTED)
static JJ_NOINLINE JJ_HOT JJ_TARGET_AVX2 jj_code scan_row_avx2(jj_cursor *c, const char *p,
                                                        int64_t row, jj_error *err) {
  return scan_row_lazy(c, p, row, err, one_avx2, two_avx2);
}
#ifndef JJ_SMALL
JJ_AVX2_INSTANCE(one_check_avx2, scan_row_one, JJ_SPANS_NONE)
JJ_AVX2_INSTANCE(two_check_avx2, scan_row_two, JJ_SPANS_NONE)
static JJ_NOINLINE JJ_HOT JJ_TARGET_AVX2 jj_code check_row_avx2(jj_cursor *c, const char *p,
                                                         int64_t row, jj_error *err) {
  return scan_row_lazy(c, p, row, err, one_check_avx2, two_check_avx2);
}
/* jj_row_next's: scan_row_lazy's steps with the caller's checks (64 bytes
** follow the '[') and no row number (next_slow takes c->row + 1); err
** before p as in jj_row_next (doc.h). */
#define JJ_NEXT_INSTANCE(name, body, spans)                                          \
  static JJ_NOINLINE JJ_HOT JJ_TARGET_AVX2 int name(jj_cursor *c, jj_error *err,         \
                                                    const char *p, uint64_t quote,    \
                                                    uint64_t in) {                    \
    return body(c, p, 0, err, quote, in, spans, 1);                                 \
  }
JJ_NEXT_INSTANCE(next_one_avx2, scan_row_one, JJ_SPANS_EVERY)
JJ_NEXT_INSTANCE(next_two_avx2, scan_row_two, JJ_SPANS_EVERY)
#if JJ_SELECT
JJ_NEXT_INSTANCE(next_one_pick_avx2, scan_row_one, JJ_SPANS_ONE)
JJ_NEXT_INSTANCE(next_two_pick_avx2, scan_row_two, JJ_SPANS_ONE)
JJ_NEXT_INSTANCE(next_one_picks_avx2, scan_row_one, JJ_SPANS_WANTED)
JJ_NEXT_INSTANCE(next_two_picks_avx2, scan_row_two, JJ_SPANS_WANTED)
#endif
#undef JJ_NEXT_INSTANCE
/* (the caller has checked c->wide too).  An instance per selection: every
** column (c->want 0), one (the commonest selection: a reader of one
** column), or several. */
static JJ_NOINLINE JJ_HOT JJ_TARGET_AVX2 int next_avx2(jj_cursor *c, jj_error *err,
                                                const char *p) {
  uint64_t quote, in;
  /* the selection first, before the first look: the window count's test
  ** is then the flags of the and-not that made it (testing it first cost
  ** a test and a register move more a row) */
#if JJ_SELECT
  const uint64_t want = c->want;
  if (JJ_UNLIKELY(want)) { /* the every-column path falls through */
    if (!(want & (want - 1))) {
      if (first_look_avx2(p, &quote, &in)) return next_one_pick_avx2(c, err, p, quote, in);
      return next_two_pick_avx2(c, err, p, quote, in);
    }
    if (first_look_avx2(p, &quote, &in)) return next_one_picks_avx2(c, err, p, quote, in);
    return next_two_picks_avx2(c, err, p, quote, in);
  }
#endif
  if (first_look_avx2(p, &quote, &in)) return next_one_avx2(c, err, p, quote, in);
  return next_two_avx2(c, err, p, quote, in);
}
#endif
#undef JJ_AVX2_INSTANCE
#endif

#if !defined(JJ_SMALL) && defined(JJ_SSE2)
/* jj_rows_check's loop, once per instance: row after row behind the
** canonical ",\n[", each checked exactly as next_row's jj_row_check would
** (check_row_sse2 / check_row_avx2: the mask path, the same `wide` and
** end tests, else scan_row_slow, which reports the errors) but with the
** masks made at once and no call per row; the row counted and its '['
** indexed as next_row does (an entry already there is written again with
** the same offset: no test per row).  `masks`, `half` as scan_row_second's. */
static JJ_INLINE jj_code check_rows_with(jj_cursor *c, int64_t n, int64_t *done,
                                         jj_error *err,
                                         void (*masks)(const char *, jj_masks *),
                                         void (*half)(const char *, jj_masks *),
                                         unsigned (*newline)(const char *)) {
  jj_doc *const d = c->doc;
  const char *const end = d->end;
  const char *pos = c->pos;
  int64_t k = 0;
  jj_code rc = JJ_OK;
  for (; k < n; k++) {
    const char *p = pos;
    /* far from the end (all but the last rows): the end tests below are
    ** known to hold, and the compiler drops them.  Measured (count(*),
    ** 50,000 high-entropy rows): 19.48 -> 19.38 M instructions, and
    ** 0.96-0.97x the time in interleaved runs (best of 7-9) */
    if (JJ_LIKELY(end - p > 131)) {
      if (memcmp(p, ",\n[", 3) != 0) break;
    } else if (end - p <= 2 || memcmp(p, ",\n[", 3) != 0) {
      break; /* next_row's */
    }
    p += 2;
    /* Where the row ends if the mask path takes it: no row it takes holds
    ** a '\n' (a control byte), so its ']' is two bytes before the first
    ** '\n' after its '['.  Only a guess, confirmed by the check below; but
    ** the next row's loads then wait on this short chain of the '\n's, not
    ** on the check's (the quotes' carry-less multiply, the ']' outside
    ** strings): rows overlap.  A wrong guess costs nothing but the overlap
    ** (c->pos is taken then).  Measured: 30 more instructions a row, 4-11%
    ** less time (count(*), bench/: interleaved runs). */
    const char *guess = NULL;
    if (newline && end - p > 129) guess = p + newline(p + 1); /* p + 1 + e - 1 */
    int ok = 0;
    if (JJ_LIKELY(!c->wide && end - p > 64)) {
      jj_masks m0;
      masks(p + 1, &m0);
      ok = (m0.close & ~m0.str)
               ? scan_row_window(c, p + 1, &m0, m0.str, JJ_SPANS_NONE)
               : scan_row_second(c, p + 1, &m0, m0.str, masks, half, JJ_SPANS_NONE);
    }
    if (!ok && (rc = scan_row_slow(c, p, c->row + 1, err)) != JJ_OK) break;
    d->index[c->row++] = (size_t)(p - d->base); /* on a later pass: the same */
    if (JJ_LIKELY(c->pos == guess)) {
      __asm__("" : "+r"(guess)); /* the compiler may not take c->pos for it */
      pos = guess;
    } else {
      pos = c->pos;
    }
  }
  if ((uint64_t)c->row > d->nindex) d->nindex = (size_t)c->row;
  *done = k;
  return rc;
}

static JJ_NOINLINE JJ_HOT jj_code check_rows_sse2(jj_cursor *c, int64_t n, int64_t *done,
                                           jj_error *err) {
  return check_rows_with(c, n, done, err, window_masks, half_masks, NULL);
}
#endif
#if !defined(JJ_SMALL) && defined(JJ_AVX2)
static JJ_NOINLINE JJ_HOT JJ_TARGET_AVX2 jj_code check_rows_avx2(jj_cursor *c, int64_t n,
                                                          int64_t *done, jj_error *err) {
  return check_rows_with(c, n, done, err, window_masks_avx2, half_masks_avx2,
                         first_newline_avx2);
}
#endif

#ifndef JJ_SMALL
/* See doc.h.  A build without SIMD (JJ_NO_SIMD) checks no row here. */
JJ_HOT jj_code jj_rows_check(jj_cursor *c, int64_t n, int64_t *done, jj_error *err) {
  (void)n;
  (void)err;
  switch (c->doc->scan) {
#ifdef JJ_AVX2
    case JJ_SCAN_AVX2: return check_rows_avx2(c, n, done, err);
#endif
#ifdef JJ_SSE2
    case JJ_SCAN_SSE2: return check_rows_sse2(c, n, done, err);
#endif
    default: *done = 0; return JJ_OK;
  }
}
#endif

/* See doc.h. */
void jj_row_unlocate(jj_cursor *c) {
  const jj_span none = {c->doc->begin, JJ_SPAN_UNLOCATED};
  for (size_t k = 0; k < c->ncol; k++)
    if (!(c->want >> k & 1)) c->v[k] = none;
}

/* See doc.h. */
jj_scan jj_scan_choose(jj_scan want) {
  jj_scan best = JJ_SCAN_SCALAR;
#ifdef JJ_SSE2
  best = JJ_SCAN_SSE2;
#endif
#ifdef JJ_AVX2
  if (JJ_CPU_AVX2()) best = JJ_SCAN_AVX2; /* rowmask.h */
#endif
  return want == JJ_SCAN_AUTO || want > best ? best : want;
}

/* See doc.h: the instance the document chose when it was parsed. */
JJ_HOT jj_code jj_row_scan(jj_cursor *c, const char *p, int64_t row, jj_error *err) {
  switch (c->doc->scan) {
#ifdef JJ_AVX2
    case JJ_SCAN_AVX2: return scan_row_avx2(c, p, row, err);
#endif
#ifdef JJ_SSE2
    case JJ_SCAN_SSE2: return scan_row_sse2(c, p, row, err);
#endif
    default: return scan_row_portable(c, p, row, err);
  }
}

#ifndef JJ_SMALL
/* jj_row_next's scalar instance (and every row of a build without SIMD):
** jj_row_scan, the row finished likewise. */
static JJ_NOINLINE JJ_HOT int next_scalar(jj_cursor *c, jj_error *err, const char *p) {
  if (jj_row_scan(c, p, c->row + 1, err) != JJ_OK) {
    jj_cursor_state(c, JJ_CUR_LOST);
    return -1;
  }
  return jj_row_done(c, p, err);
}

/* jj_row_next's other rows: the SSE2 and scalar instances, and AVX2 rows
** after a wide one (next_avx2 leaves those to the slow path's test). */
static JJ_NOINLINE JJ_HOT int next_other(jj_cursor *c, jj_error *err, const char *p) {
  switch (c->doc->scan) {
#ifdef JJ_SSE2
    case JJ_SCAN_AVX2: return next_slow(c, p, err);
    case JJ_SCAN_SSE2: return next_sse2(c, err, p);
#endif
    default: return next_scalar(c, err, p);
  }
}

/* See doc.h: the instance the document chose, as jj_row_scan's; the
** commonest, an AVX2 row after one in its windows, first. */
JJ_HOT int jj_row_next(jj_cursor *c, jj_error *err, const char *p) {
#ifdef JJ_AVX2
  if (JJ_LIKELY(c->doc->scan == JJ_SCAN_AVX2 && !c->wide)) return next_avx2(c, err, p);
#endif
  return next_other(c, err, p);
}
#endif

/* See doc.h. */
JJ_HOT jj_code jj_row_check(jj_cursor *c, const char *p, int64_t row, jj_error *err) {
#ifndef JJ_SMALL
  switch (c->doc->scan) {
#ifdef JJ_AVX2
    case JJ_SCAN_AVX2: return check_row_avx2(c, p, row, err);
#endif
#ifdef JJ_SSE2
    case JJ_SCAN_SSE2: return check_row_sse2(c, p, row, err);
#endif
    default: break;
  }
#endif
  return jj_row_scan(c, p, row, err);
}
