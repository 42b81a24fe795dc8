/*
** text.c — UTF-8 validation and JSON strings: finding a string's end,
** unescaping it, escaping text for output.
**
** These are the reader's hot paths, so the common case (long runs of plain
** ASCII with nothing to do) goes 8 bytes at a time: a 64-bit word is loaded
** with memcpy (no alignment assumption, no aliasing trouble) and tested with
** the classic "has a zero byte" bit tricks, e.g. for '"':
**
**   q = w ^ 0x2222222222222222      a '"' byte becomes 0x00
**   (q - 0x0101..01) & ~q & 0x8080..80   nonzero iff some byte of q is zero
**
** The test is exact about whether a word holds a match; only bits above the
** first match can be wrong (borrows), so the first match is found from the
** lowest flagged byte on little-endian machines and byte by byte otherwise.
** Builds with JJ_SWAR 0 (num.h: the portable build, and the reader-only
** WebAssembly module, built for size) go byte by byte throughout.
**
** Nothing here allocates except jj_string_escape, which grows the caller's
** jj_buf (the caller frees it with jj_buf_free).
*/
#include <string.h>

#include "internal.h"

#if defined(__BYTE_ORDER__) && defined(__ORDER_LITTLE_ENDIAN__) && \
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ &&                     \
    (defined(__GNUC__) || defined(__clang__))
#define JJ_LE_CTZ 1
#endif

/* 1 for the bytes a JSON string cannot hold raw or that end a plain run:
** '"', '\\' and the controls U+0000-U+001F. */
static const unsigned char special[256] = {
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,  /* 0x00 */
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,  /* 0x10 */
    0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,  /* 0x20 '"' */
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,  /* 0x30 */
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,  /* 0x40 */
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0,  /* 0x50 '\\' */
};

/* First byte in [s, end) that is special, or end.  Used by the scanner and
** the escaper to skip plain runs quickly. */
static const char *find_special(const char *s, const char *end) {
#if JJ_SWAR
  while (end - s >= 16) {
    uint64_t w0, w1, m;
    memcpy(&w0, s, 8);
    memcpy(&w1, s + 8, 8);
    m = jj_special_mask(w0);
    if (!m) {
      m = jj_special_mask(w1);
      if (!m) {
        s += 16;
        continue;
      }
      s += 8;
    }
#ifdef JJ_LE_CTZ
    return s + (__builtin_ctzll(m) >> 3);
#else
    while (!special[(unsigned char)*s]) s++;
    return s;
#endif
  }
#endif
  while (s < end && !special[(unsigned char)*s]) s++;
  return s;
}

/* ---------------------------------------------------------------------- */
/* UTF-8                                                                   */
/* ---------------------------------------------------------------------- */

/* Validate UTF-8 per RFC 3629 (the ranges of its table 3-7): 2-byte leads
** C2-DF; E0 needs A0-BF next (no overlongs), ED needs 80-9F (no
** surrogates); F0 needs 90-BF, F4 needs 80-8F (nothing above U+10FFFF);
** C0, C1, F5-FF never occur.  *bad is the offset of the lead byte of the
** first invalid sequence (or of a stray continuation byte). */
int jj_utf8_valid(const char *p, size_t len, size_t *bad) {
  if (len == 0) return 1;
  const unsigned char *s = (const unsigned char *)p;
  const unsigned char *e = s + len;
  while (s < e) {
    unsigned c = *s;
    if (c < 0x80) {
      /* ASCII: 16, then 8 bytes at a time, then byte by byte up to the
      ** next multibyte lead (or the end). */
#if JJ_SWAR
      while (e - s >= 16) {
        uint64_t w0, w1;
        memcpy(&w0, s, 8);
        memcpy(&w1, s + 8, 8);
        if ((w0 | w1) & JJ_HIGHS) break;
        s += 16;
      }
      if (e - s >= 8) {
        uint64_t w;
        memcpy(&w, s, 8);
        if (!(w & JJ_HIGHS)) s += 8;
      }
#endif
      while (s < e && *s < 0x80) s++;
      continue;
    }
    unsigned lo = 0x80, hi = 0xBF;
    size_t n;
    if (c >= 0xC2 && c <= 0xDF) {
      n = 2;
    } else if (c >= 0xE0 && c <= 0xEF) {
      n = 3;
      if (c == 0xE0) lo = 0xA0;
      if (c == 0xED) hi = 0x9F;
    } else if (c >= 0xF0 && c <= 0xF4) {
      n = 4;
      if (c == 0xF0) lo = 0x90;
      if (c == 0xF4) hi = 0x8F;
    } else {
      goto fail;
    }
    if ((size_t)(e - s) < n) goto fail;
    if (s[1] < lo || s[1] > hi) goto fail;
    if (n > 2 && (s[2] & 0xC0) != 0x80) goto fail;
    if (n > 3 && (s[3] & 0xC0) != 0x80) goto fail;
    s += n;
  }
  return 1;
fail:
  if (bad) *bad = (size_t)(s - (const unsigned char *)p);
  return 0;
}

/* See jalapenojson.h: the check every reader and writer path makes. */
int jj_utf8_check(const char *p, size_t len, size_t *bad) {
  return jj_utf8_valid(p, len, bad);
}

/* ---------------------------------------------------------------------- */
/* JSON strings                                                            */
/* ---------------------------------------------------------------------- */

/* Find the closing quote: jump over plain runs with find_special, step
** over the byte after each backslash (so \" and runs like \\\\" come out
** right), stop at the first raw control character. */
const char *jj_string_scan(const char *p, const char *end, int *has_escape,
                           size_t *bad, const char **why) {
  const char *s = p + 1;
  int esc = 0;
  for (;;) {
    s = find_special(s, end);
    if (JJ_UNLIKELY(s == end)) break;
    unsigned char c = (unsigned char)*s;
    if (JJ_LIKELY(c == '"')) {
      *has_escape = esc;
      return s + 1;
    }
    if (c == '\\') {
      esc = 1;
      if (end - s < 2) break;
      if ((unsigned char)s[1] < 0x20) {
        s++;
        goto control;
      }
      s += 2;
      continue;
    }
    goto control;
  }
  *bad = 0; /* the string that never ends is reported where it starts */
  *why = "unterminated string";
  return NULL;
control:
  *bad = (size_t)(s - p);
  *why = "raw control character in string";
  return NULL;
}

/* Value of one hex digit, or -1. */
static int hexval(unsigned char c) {
  if (c >= '0' && c <= '9') return c - '0';
  c |= 0x20;
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;
}

/* The 4 hex digits at p (caller checked there are 4 bytes), or -1. */
static long hex4(const char *p) {
  int a = hexval((unsigned char)p[0]), b = hexval((unsigned char)p[1]);
  int c = hexval((unsigned char)p[2]), d = hexval((unsigned char)p[3]);
  if ((a | b | c | d) < 0) return -1;
  return (long)a << 12 | (long)b << 8 | (long)c << 4 | (long)d;
}

/* Write code point cp (a scalar value) as UTF-8 to out (when not NULL);
** returns its length. */
static size_t put_utf8(char *out, unsigned long cp) {
  if (cp < 0x80) {
    if (out) out[0] = (char)cp;
    return 1;
  }
  if (cp < 0x800) {
    if (out) {
      out[0] = (char)(0xC0 | (cp >> 6));
      out[1] = (char)(0x80 | (cp & 0x3F));
    }
    return 2;
  }
  if (cp < 0x10000) {
    if (out) {
      out[0] = (char)(0xE0 | (cp >> 12));
      out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
      out[2] = (char)(0x80 | (cp & 0x3F));
    }
    return 3;
  }
  if (out) {
    out[0] = (char)(0xF0 | (cp >> 18));
    out[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    out[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
    out[3] = (char)(0x80 | (cp & 0x3F));
  }
  return 4;
}

/* Unescape p[0..len) into out.  Runs between backslashes are checked as
** UTF-8 and copied whole (a backslash can never sit inside a valid
** multibyte sequence, so checking run by run is exact).  Each escape's
** output is never longer than the escape itself (6 bytes of \uXXXX give at
** most 3, 12 bytes of a surrogate pair give 4), so out needs only len
** bytes.  out may be NULL to check without writing (jj_json_skip does
** this); the return value is then the length the output would have. */
size_t jj_string_decode(const char *p, size_t len, char *out, size_t *bad,
                        jj_code *code, const char **why) {
  size_t i = 0, o = 0, at = 0;
  while (i < len) {
    const char *bs = memchr(p + i, '\\', len - i);
    size_t run = bs ? (size_t)(bs - (p + i)) : len - i;
    if (run) {
      size_t b;
      if (!jj_utf8_valid(p + i, run, &b)) {
        at = i + b;
        *code = JJ_ERR_UTF8;
        *why = "invalid UTF-8";
        goto fail;
      }
      if (out) memcpy(out + o, p + i, run);
      o += run;
      i += run;
    }
    if (!bs) break;
    at = i;
    if (len - i < 2) goto bad_escape;
    char c = p[i + 1], r;
    switch (c) {
      case '"': r = '"'; break;
      case '\\': r = '\\'; break;
      case '/': r = '/'; break;
      case 'b': r = '\b'; break;
      case 'f': r = '\f'; break;
      case 'n': r = '\n'; break;
      case 'r': r = '\r'; break;
      case 't': r = '\t'; break;
      case 'u': {
        long cp = len - i >= 6 ? hex4(p + i + 2) : -1;
        if (cp < 0) {
          *code = JJ_ERR_SYNTAX;
          *why = "invalid \\u escape (expected 4 hex digits)";
          goto fail;
        }
        i += 6;
        if (cp >= 0xDC00 && cp <= 0xDFFF) {
          *code = JJ_ERR_UTF8;
          *why = "lone surrogate \\udc00-\\udfff (no high surrogate before it)";
          goto fail;
        }
        if (cp >= 0xD800 && cp <= 0xDBFF) {
          long lo = -1;
          if (len - i >= 6 && p[i] == '\\' && p[i + 1] == 'u')
            lo = hex4(p + i + 2);
          if (lo < 0xDC00 || lo > 0xDFFF) {
            *code = JJ_ERR_UTF8;
            *why = "lone surrogate \\ud800-\\udbff (no low surrogate after it)";
            goto fail;
          }
          cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
          i += 6;
        }
        o += put_utf8(out ? out + o : NULL, (unsigned long)cp);
        continue;
      }
      default:
        goto bad_escape;
    }
    if (out) out[o] = r;
    o++;
    i += 2;
  }
  return o;
bad_escape:
  *code = JJ_ERR_SYNTAX;
  *why = "invalid escape";
fail:
  *bad = at;
  return (size_t)-1;
}

/* The escape for each control character, "" where \u00XX is used. */
static const char short_escape[32] = {
    0, 0, 0, 0, 0, 0, 0, 0, 'b', 't', 'n', 0, 'f', 'r', 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0,   0,   0,   0, 0,   0,   0, 0};

/* Append "p" escaped.  Plain runs go in with one memcpy.  Room is
** reserved step by step for exactly what comes next (the run and one
** escape of at most 6 bytes, or the run and the closing quote), never
** more, so when the caller has made JJ_ESCAPED_MAX(len) bytes free the
** buffer is never reallocated and this cannot fail (the writer relies on
** that).  On failure b->len is put back as it was. */
int jj_string_escape(jj_buf *b, const char *p, size_t len) {
  static const char hex[] = "0123456789abcdef";
  size_t start = b->len;
  const char *s = p, *e = len ? p + len : p; /* p may be NULL when len is 0 */
  if (jj_buf_reserve(b, len + 2)) return -1;
  b->p[b->len++] = '"';
  for (;;) {
    const char *q = find_special(s, e);
    size_t run = (size_t)(q - s);
    if (jj_buf_reserve(b, run + (q == e ? 1 : 6))) {
      b->len = start;
      return -1;
    }
    if (run) memcpy(b->p + b->len, s, run);
    b->len += run;
    if (q == e) break;
    unsigned char c = (unsigned char)*q;
    char *o = b->p + b->len;
    o[0] = '\\';
    if (c == '"' || c == '\\') {
      o[1] = (char)c;
      b->len += 2;
    } else if (short_escape[c]) {
      o[1] = short_escape[c];
      b->len += 2;
    } else {
      memcpy(o + 1, "u00", 3);
      o[4] = hex[c >> 4];
      o[5] = hex[c & 15];
      b->len += 6;
    }
    s = q + 1;
  }
  b->p[b->len++] = '"';
  return 0;
}
