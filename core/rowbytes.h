/*
** rowbytes.h — the byte-wise path of the row scan (rowscan.c): value by
** value, the first byte says what the value is; strings searched for
** their closing quote 16 bytes at a time with SSE2 (8 at a time
** portably), numbers for the end of their run.  The general path every row
** can take, and the one that finds and reports every error: the mask and
** block paths of rowscan.c decline to it.
** Included by rowscan.c only (after it has decided JJ_SSE2), so everything
** here is static: scan_row_with is instantiated twice (scan_row_simd where
** SSE2 is, scan_row_portable), as in one file, which keeps the code the
** compiler makes for rowscan.c as it was before the split.
*/
#ifndef JJ_ROWBYTES_H
#define JJ_ROWBYTES_H

#include <string.h>

#include "doc.h"

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

#endif /* JJ_ROWBYTES_H */
