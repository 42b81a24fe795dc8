/*
** rowscan.c — finding the values of one row: where each starts and ends,
** checked for structure (JSON syntax of strings, literals and nested
** values, the run of a number, the value count), nothing converted and
** nothing allocated.  cursor.c moves between rows and value.c reads
** values; this file is the cursor's inner loop, the reader's hottest code.
**
** Two ways, one answer:
**   - scan_row_with, the reference: value by value, the first byte says
**     what the value is; strings are searched for their closing quote 16
**     bytes at a time with SSE2 (8 at a time portably), numbers for the end
**     of their run.  Whitespace is looked for only where the canonical byte
**     is not.  It finds and reports every error.
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
#if defined(__BYTE_ORDER__) && defined(__ORDER_LITTLE_ENDIAN__) && \
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ &&                     \
    (defined(__GNUC__) || defined(__clang__))
#define JJ_LE_CTZ 1
#endif


/* Skip the values after the last expected one (p on the ',') to say how
** many the row has. */
static jj_code extra_values(jj_cursor *c, const char *p, const char *open,
                            int64_t row, jj_error *err) {
  const char *end = c->doc->end;
  size_t found = c->ncol;
  for (;;) {
    const char *bad = p, *why = "";
    jj_code code = JJ_ERR_SYNTAX;
    p = jj_ws(p + 1, end);
    const char *q = jj_json_skip(p, end, c->doc->max_depth, &bad, &code, &why);
    if (!q && bad == p && code == JJ_ERR_SYNTAX) return jj_cursor_expected(c, err, row, c->ncol, p, "a value");
    if (!q) return jj_cursor_fail(c, err, code, row, c->ncol, bad, "%s", why);
    found++;
    p = jj_ws(q, end);
    if (p < end && *p == ']') break;
    if (p >= end || *p != ',')
      return jj_cursor_expected(c, err, row, c->ncol, p, "',' or ']' after a value");
  }
  return jj_cursor_fail(c, err, JJ_ERR_ROW, row, c->ncol, open,
                "expected %zu value%s, found %zu", c->ncol,
                c->ncol == 1 ? "" : "s", found);
}

/* What the first byte of a value says it is (scan_row dispatches on it). */
enum { V_BAD, V_STR, V_NUM, V_NULL, V_TRUE, V_FALSE, V_NEST, V_WS, V_CLOSE };
static const unsigned char value_kind[256] = {
    ['"'] = V_STR, ['-'] = V_NUM, ['0'] = V_NUM, ['1'] = V_NUM, ['2'] = V_NUM,
    ['3'] = V_NUM, ['4'] = V_NUM, ['5'] = V_NUM, ['6'] = V_NUM, ['7'] = V_NUM,
    ['8'] = V_NUM, ['9'] = V_NUM, ['n'] = V_NULL, ['t'] = V_TRUE, ['f'] = V_FALSE,
    ['['] = V_NEST, ['{'] = V_NEST, [' '] = V_WS, ['\t'] = V_WS, ['\n'] = V_WS,
    ['\r'] = V_WS, [']'] = V_CLOSE};

#ifndef JJ_SMALL /* a build for size: jj_num_span's own table (numparse.c) */
/* Bytes of a number token (jj_num_span's set): the parsers check the
** grammar when the value is read. */
static const unsigned char num_byte[256] = {
    ['0'] = 1, ['1'] = 1, ['2'] = 1, ['3'] = 1, ['4'] = 1, ['5'] = 1, ['6'] = 1,
    ['7'] = 1, ['8'] = 1, ['9'] = 1, ['+'] = 1, ['-'] = 1, ['.'] = 1, ['e'] = 1,
    ['E'] = 1};

/* End of the string whose opening quote is at s, the fast way: 16 bytes at
** a time with SSE2 (simd != 0 and compiled in), else 8 at a time with the
** bit tricks of text.c, else byte by byte.  Returns a pointer past the
** closing quote with *flags JJ_SPAN_ESC (a backslash inside) or
** JJ_SPAN_HIGH (no backslash, some byte >= 0x80), or NULL for anything
** unusual (a control character, no end): the caller then asks
** jj_string_scan, which says exactly what is wrong.  Agrees with
** jj_string_scan on every string it accepts: the first '"' not taken by a
** backslash ends it. */
#ifndef JJ_SMALL
static inline const char *string_end(const char *s, const char *end,
                                     size_t *flags, int simd) {
  const char *q = s + 1;
  unsigned hi = 0;
  size_t esc = 0;
  (void)simd;
  for (;;) {
#ifdef JJ_SSE2
    if (simd && end - q >= 16) {
      const __m128i x = _mm_loadu_si128((const __m128i *)(const void *)q);
      const __m128i c1f = _mm_set1_epi8(0x1f);
      __m128i sp = _mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8('"')),
                                _mm_cmpeq_epi8(x, _mm_set1_epi8('\\')));
      sp = _mm_or_si128(sp, _mm_cmpeq_epi8(_mm_max_epu8(x, c1f), c1f));
      unsigned m = (unsigned)_mm_movemask_epi8(sp);
      unsigned h = (unsigned)_mm_movemask_epi8(x);
      if (!m) {
        hi |= h;
        q += 16;
        continue;
      }
      unsigned k = (unsigned)__builtin_ctz(m);
      hi |= h & ((1u << k) - 1);
      q += k;
    } else
#endif
#ifdef JJ_LE_CTZ
    if (end - q >= 8) {
      uint64_t w, m;
      memcpy(&w, q, 8);
      m = jj_special_mask(w);
      if (!m) {
        hi |= (w & JJ_HIGHS) != 0;
        q += 8;
        continue;
      }
      unsigned k = (unsigned)__builtin_ctzll(m) >> 3;
      hi |= (w & JJ_HIGHS & ((UINT64_C(1) << (8 * k)) - 1)) != 0;
      q += k;
    } else
#endif
    {
      for (;;) {
        if (q >= end) return NULL;
        unsigned char b = (unsigned char)*q;
        if (b == '"' || b == '\\' || b < 0x20) break;
        hi |= b >> 7;
        q++;
      }
    }
    if (JJ_LIKELY(*q == '"')) {
      *flags = esc ? JJ_SPAN_ESC : hi ? JJ_SPAN_HIGH : 0;
      return q + 1;
    }
    if (*q != '\\' || end - q < 2 || (unsigned char)q[1] < 0x20) return NULL;
    esc = 1;
    q += 2;
  }
}
#endif

/* End of the number token at s (s[0] is '-' or a digit): past the longest
** run of num_byte bytes, as jj_num_span measures it.  With SSE2, 16 bytes
** are classified at once, so the varying lengths of numbers cost no
** mispredicted loop exits. */
static inline const char *number_end(const char *s, const char *end, int simd) {
  const char *q = s + 1;
  (void)simd;
#ifdef JJ_SSE2
  if (simd) {
    while (end - q >= 16) {
      const __m128i x = _mm_loadu_si128((const __m128i *)(const void *)q);
      /* '+' ',' '-' '.' '/' '0'-'9' are 0x2b-0x39: keep them but ',' '/' */
      const __m128i y = _mm_sub_epi8(x, _mm_set1_epi8(0x2b));
      __m128i in = _mm_cmpeq_epi8(_mm_min_epu8(y, _mm_set1_epi8(14)), y);
      in = _mm_andnot_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8(',')), in);
      in = _mm_andnot_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8('/')), in);
      in = _mm_or_si128(in, _mm_cmpeq_epi8(_mm_or_si128(x, _mm_set1_epi8(0x20)),
                                           _mm_set1_epi8('e')));
      unsigned m = ~(unsigned)_mm_movemask_epi8(in) & 0xffffu;
      if (m) return q + __builtin_ctz(m);
      q += 16;
    }
  }
#endif
  while (q < end && num_byte[(unsigned char)*q]) q++;
  return q;
}
#endif

/* Scan row `row` whose '[' is at p, recording one span per column.  On
** success c->pos is past its ']'.  Inlined twice below: once with SIMD
** string scanning, once portable. */
static inline jj_code scan_row_with(jj_cursor *c, const char *p, int64_t row,
                                    jj_error *err, int simd) {
  const char *const end = c->doc->end, *const open = p;
  jj_span *const v = c->v;
  const size_t n = c->ncol;
  size_t i = 0;
  p++;
  for (;;) {
    const char *s = p;
    if (JJ_UNLIKELY(p >= end)) return jj_cursor_expected(c, err, row, i, p, "a value");
    const unsigned kind = value_kind[(unsigned char)*p];
    if (JJ_LIKELY(kind == V_STR)) {
      size_t flags = 0;
#ifdef JJ_SMALL /* a build for size: jj_string_scan for every string */
      p = NULL;
      (void)simd;
#else
      p = string_end(s, end, &flags, simd);
#endif
      if (JJ_UNLIKELY(!p)) { /* jj_string_scan says what is wrong */
        int esc = 0;
        size_t bad = 0;
        const char *why = "";
        p = jj_string_scan(s, end, &esc, &bad, &why);
        if (!p) return jj_cursor_fail(c, err, JJ_ERR_SYNTAX, row, i, s + bad, "%s", why);
        flags = esc ? JJ_SPAN_ESC : JJ_SPAN_HIGH; /* HIGH: UTF-8 checked on read */
      }
      v[i].p = s;
      v[i].n = (size_t)(p - s) | flags;
    } else if (JJ_LIKELY(kind == V_NUM)) {
#ifdef JJ_SMALL
      p += jj_num_span(p, end);
#else
      p = number_end(p, end, simd);
#endif
      v[i].p = s;
      v[i].n = (size_t)(p - s);
    } else switch (kind) {
      /* The three literals are spelled out alike on purpose: each compare
      ** has a constant length, so it is one load and one test. */
      case V_NULL:
        if (end - p < 4 || memcmp(p, "null", 4) != 0) goto bad_value;
        p += 4;
        v[i].p = s;
        v[i].n = 4;
        break;
      case V_TRUE:
        if (end - p < 4 || memcmp(p, "true", 4) != 0) goto bad_value;
        p += 4;
        v[i].p = s;
        v[i].n = 4;
        break;
      case V_FALSE:
        if (end - p < 5 || memcmp(p, "false", 5) != 0) goto bad_value;
        p += 5;
        v[i].p = s;
        v[i].n = 5;
        break;
      case V_NEST: {
        const char *bad = p, *why = "";
        jj_code code = JJ_ERR_SYNTAX;
        p = jj_json_skip(s, end, c->doc->max_depth, &bad, &code, &why);
        if (!p) return jj_cursor_fail(c, err, code, row, i, bad, "%s", why);
        v[i].p = s;
        v[i].n = (size_t)(p - s);
        break;
      }
      case V_WS:
        p = jj_json_ws(p, end);
        continue;
      case V_CLOSE:
        if (i == 0)
          return jj_cursor_fail(c, err, JJ_ERR_ROW, row, n, open,
                        "expected %zu value%s, found 0", n, n == 1 ? "" : "s");
        goto bad_value;
      default:
        goto bad_value;
    }
    i++;
#ifndef JJ_SMALL /* a build for size takes the general path below */
    if (JJ_LIKELY(p < end && *p == ',')) {
      if (JJ_UNLIKELY(i == n)) return extra_values(c, p, open, row, err);
      p++;
      continue;
    }
#endif
    p = jj_ws(p, end);
    if (JJ_LIKELY(p < end && *p == ']')) {
      if (JJ_UNLIKELY(i != n))
        return jj_cursor_fail(c, err, JJ_ERR_ROW, row, n, open,
                      "expected %zu value%s, found %zu", n, n == 1 ? "" : "s", i);
      c->pos = p + 1;
      return JJ_OK;
    }
    if (p < end && *p == ',') {
      if (JJ_UNLIKELY(i == n)) return extra_values(c, p, open, row, err);
      p++;
      continue;
    }
    return jj_cursor_expected(c, err, row, i - 1, p, "',' or ']' after a value");
  }
bad_value:
  return jj_cursor_expected(c, err, row, i, p, "a value");
}

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

/* The two instances of scan_row_with (the SIMD one where SSE2 is). */
#ifdef JJ_SSE2
static jj_code scan_row_simd(jj_cursor *c, const char *p, int64_t row,
                             jj_error *err) {
  return scan_row_with(c, p, row, err, 1);
}
#endif
static jj_code scan_row_portable(jj_cursor *c, const char *p, int64_t row,
                                 jj_error *err) {
  return scan_row_with(c, p, row, err, 0);
}

#ifdef JJ_SSE2
/* Every row the mask paths decline: the block path, then the
** value-by-value scan (which also finds and reports any error).  One copy,
** out of line, shared by every instance: the SSE2 code it runs is the same
** for all, and keeping it out saves the mask paths its registers. */
static JJ_NOINLINE jj_code scan_row_slow(jj_cursor *c, const char *p, int64_t row,
                                         jj_error *err) {
  if (JJ_LIKELY(scan_row_blocks(c, p))) {
    c->wide = c->pos - p > 129; /* past the two windows of the mask path */
    return JJ_OK;
  }
  return scan_row_simd(c, p, row, err);
}

/* The SSE2 mask path (when 64 bytes follow the '['), else scan_row_slow:
** the masks of the 64 bytes after the '[' at once, the row checked on
** them when its ']' is among them, else by `second` (an instance of
** scan_row_second, out of line so that the one-window path stays small)
** on those of 128 bytes.  spans 0: checked only, as in rowmask.h. */
static JJ_INLINE jj_code scan_row_eager(jj_cursor *c, const char *p, int64_t row,
                                        jj_error *err,
                                        int (*second)(jj_cursor *, const char *,
                                                      const jj_masks *, uint64_t),
                                        const int spans) {
  if (JJ_LIKELY(!c->wide && c->doc->end - p > 64)) {
    const char *const w = p + 1;
    jj_masks m0;
    window_masks(w, &m0);
    if (JJ_LIKELY(m0.close & ~m0.str) ? scan_row_window(c, w, &m0, m0.str, spans)
                                      : second(c, w, &m0, m0.str))
      return JJ_OK;
  }
  return scan_row_slow(c, p, row, err);
}

#ifdef JJ_AVX2
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
    uint64_t quote, close;
    window_closes_avx2(p + 1, &quote, &close);
    const uint64_t in = avx2_prefix_xor(quote);
    if (close & ~in) return one(c, p, row, err, quote, in);
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
static JJ_INLINE JJ_TARGET_AVX2 jj_code scan_row_one(jj_cursor *c, const char *p,
                                                     int64_t row, jj_error *err,
                                                     uint64_t quote, uint64_t in,
                                                     const int spans) {
  jj_masks m0;
  rest_masks_avx2(p, quote, in, &m0);
  if (JJ_LIKELY(scan_row_window(c, p + 1, &m0, in, spans))) return JJ_OK;
  return scan_row_slow(c, p, row, err);
}

/* A row with no ']' outside strings in the 64 bytes after its '[':
** checked in two windows (scan_row_second), else scan_row_slow. */
static JJ_INLINE JJ_TARGET_AVX2 jj_code scan_row_two(jj_cursor *c, const char *p,
                                                     int64_t row, jj_error *err,
                                                     uint64_t quote, uint64_t in,
                                                     const int spans) {
  jj_masks m0;
  rest_masks_avx2(p, quote, in, &m0);
  if (JJ_LIKELY(scan_row_second(c, p + 1, &m0, in, window_masks_avx2, half_masks_avx2,
                                spans)))
    return JJ_OK;
  return scan_row_slow(c, p, row, err);
}
#endif

/* The instances: rows read (spans written), and rows passed over
** (jj_row_check: checked only, else scan_row_slow, which also reports
** errors; not in a build for size, whose jj_row_check scans in full).
** Each out of line, so that jj_row_scan is a dispatch that saves no
** registers. */
static JJ_NOINLINE int second_sse2(jj_cursor *c, const char *w, const jj_masks *m0,
                                   uint64_t in0) {
  return scan_row_second(c, w, m0, in0, window_masks, half_masks, 1);
}
static JJ_NOINLINE jj_code scan_row_sse2(jj_cursor *c, const char *p, int64_t row,
                                         jj_error *err) {
  return scan_row_eager(c, p, row, err, second_sse2, 1);
}
#ifndef JJ_SMALL
static JJ_NOINLINE int second_check_sse2(jj_cursor *c, const char *w, const jj_masks *m0,
                                         uint64_t in0) {
  return scan_row_second(c, w, m0, in0, window_masks, half_masks, 0);
}
static JJ_NOINLINE jj_code check_row_sse2(jj_cursor *c, const char *p, int64_t row,
                                          jj_error *err) {
  return scan_row_eager(c, p, row, err, second_check_sse2, 0);
}
#endif
#endif /* JJ_SSE2 */
#ifdef JJ_AVX2
#define JJ_AVX2_INSTANCE(name, body, spans)                                         \
  static JJ_NOINLINE JJ_TARGET_AVX2 jj_code name(jj_cursor *c, const char *p,      \
                                                 int64_t row, jj_error *err,       \
                                                 uint64_t quote, uint64_t in) {    \
    return body(c, p, row, err, quote, in, spans);                                 \
  }
JJ_AVX2_INSTANCE(one_avx2, scan_row_one, 1)
JJ_AVX2_INSTANCE(two_avx2, scan_row_two, 1)
static JJ_NOINLINE JJ_TARGET_AVX2 jj_code scan_row_avx2(jj_cursor *c, const char *p,
                                                        int64_t row, jj_error *err) {
  return scan_row_lazy(c, p, row, err, one_avx2, two_avx2);
}
#ifndef JJ_SMALL
JJ_AVX2_INSTANCE(one_check_avx2, scan_row_one, 0)
JJ_AVX2_INSTANCE(two_check_avx2, scan_row_two, 0)
static JJ_NOINLINE JJ_TARGET_AVX2 jj_code check_row_avx2(jj_cursor *c, const char *p,
                                                         int64_t row, jj_error *err) {
  return scan_row_lazy(c, p, row, err, one_check_avx2, two_check_avx2);
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
    if (end - p <= 2 || memcmp(p, ",\n[", 3) != 0) break; /* next_row's */
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
      ok = (m0.close & ~m0.str) ? scan_row_window(c, p + 1, &m0, m0.str, 0)
                                : scan_row_second(c, p + 1, &m0, m0.str, masks, half, 0);
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

static JJ_NOINLINE jj_code check_rows_sse2(jj_cursor *c, int64_t n, int64_t *done,
                                           jj_error *err) {
  return check_rows_with(c, n, done, err, window_masks, half_masks, NULL);
}
#endif
#if !defined(JJ_SMALL) && defined(JJ_AVX2)
static JJ_NOINLINE JJ_TARGET_AVX2 jj_code check_rows_avx2(jj_cursor *c, int64_t n,
                                                          int64_t *done, jj_error *err) {
  return check_rows_with(c, n, done, err, window_masks_avx2, half_masks_avx2,
                         first_newline_avx2);
}
#endif

#ifndef JJ_SMALL
/* See doc.h.  A build without SIMD (JJ_NO_SIMD) checks no row here. */
jj_code jj_rows_check(jj_cursor *c, int64_t n, int64_t *done, jj_error *err) {
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
jj_code jj_row_scan(jj_cursor *c, const char *p, int64_t row, jj_error *err) {
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

/* See doc.h. */
jj_code jj_row_check(jj_cursor *c, const char *p, int64_t row, jj_error *err) {
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
