/*
** base64.c — standard base64 (RFC 4648 section 4: A-Z a-z 0-9 + /, padded
** with '=') for the "x" column type.
**
** Decoding is strict so that each byte string has exactly one encoding:
**   "QQ=="  ok (one byte 0x41)       "QR=="  bad: unused bits not zero
**   "QQ"    bad: length % 4 != 0     "Q==="  bad: '=' too early
**   "QQ=A"  bad: '=' before the end  "QQ\n=" bad: invalid character
** Both directions go one 4-character group (3 bytes) at a time through
** static tables; nothing here allocates.
*/
#include "internal.h"

static const char alphabet[64] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/* Character -> 6-bit value; 0x80 marks every byte outside the alphabet
** (including '=', handled separately in the last group). */
#define X 0x80
static const unsigned char value[256] = {
    X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  /* 0x00 */
    X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  /* 0x10 */
    X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  62, X,  X,  X,  63, /* 0x20 */
    52, 53, 54, 55, 56, 57, 58, 59, 60, 61, X,  X,  X,  X,  X,  X,  /* 0x30 */
    X,  0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14, /* 0x40 */
    15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, X,  X,  X,  X,  X,  /* 0x50 */
    X,  26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, /* 0x60 */
    41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, X,  X,  X,  X,  X,  /* 0x70 */
    X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  /* 0x80 */
    X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  /* 0x90 */
    X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  /* 0xa0 */
    X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  /* 0xb0 */
    X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  /* 0xc0 */
    X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  /* 0xd0 */
    X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  /* 0xe0 */
    X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  /* 0xf0 */
};
#undef X

#ifndef JJ_SMALL
/* Report the first character of p[at..at+n) that is not in the alphabet
** ('=' included), at its offset. */
static size_t fail_char(const unsigned char *p, size_t at, size_t n,
                        size_t *bad, const char **why) {
  for (size_t k = 0; k < n; k++) {
    if (value[p[at + k]] & 0x80) {
      *bad = at + k;
      *why = p[at + k] == '=' ? "padding '=' before the end"
                              : "invalid base64 character";
      return (size_t)-1;
    }
  }
  return (size_t)-1; /* not reached: callers pass a group with a bad byte */
}

/* Full groups go through the fast loop (any bad byte sets bit 7 of the OR
** of the four values); the last group may hold 1 or 2 '=' and is checked
** on its own, including that the bits the padding leaves unused are 0. */
size_t jj_base64_decode(const char *p, size_t len, unsigned char *out,
                        size_t *bad, const char **why) {
  const unsigned char *s = (const unsigned char *)p;
  size_t i = 0, o = 0, full;
  if (len == 0) return 0;
  full = len % 4 ? len / 4 * 4 : len - 4; /* groups before the last */
  for (; i < full; i += 4) {
    unsigned a = value[s[i]], b = value[s[i + 1]];
    unsigned c = value[s[i + 2]], d = value[s[i + 3]];
    if ((a | b | c | d) & 0x80) return fail_char(s, i, 4, bad, why);
    uint32_t v = a << 18 | b << 12 | c << 6 | d;
    out[o] = (unsigned char)(v >> 16);
    out[o + 1] = (unsigned char)(v >> 8);
    out[o + 2] = (unsigned char)v;
    o += 3;
  }
  if (len % 4) {
    /* Report a bad character in the incomplete tail before its length. */
    for (size_t k = i; k < len; k++) {
      if (value[s[k]] & 0x80 && s[k] != '=') return fail_char(s, k, 1, bad, why);
    }
    *bad = i;
    *why = "length is not a multiple of 4";
    return (size_t)-1;
  }
  /* The last group: "abcd", "abc=" or "ab==". */
  size_t pad = s[i + 3] != '=' ? 0 : s[i + 2] != '=' ? 1 : 2;
  size_t data = 4 - pad;
  for (size_t k = 0; k < data; k++) {
    if (value[s[i + k]] & 0x80) return fail_char(s, i + k, 1, bad, why);
  }
  unsigned a = value[s[i]], b = value[s[i + 1]];
  unsigned c = pad < 2 ? value[s[i + 2]] : 0, d = pad < 1 ? value[s[i + 3]] : 0;
  if ((pad == 2 && (b & 0x0F)) || (pad == 1 && (c & 0x03))) {
    *bad = i + data - 1;
    *why = "unused bits of the last character are not zero";
    return (size_t)-1;
  }
  uint32_t v = a << 18 | b << 12 | c << 6 | d;
  out[o++] = (unsigned char)(v >> 16);
  if (pad < 2) out[o++] = (unsigned char)(v >> 8);
  if (pad < 1) out[o++] = (unsigned char)v;
  return o;
}

#else /* JJ_SMALL */
/* A build for size (the reader-only WebAssembly module): one character
** per step through the same table, the rules above folded into where the
** data ends, `stop`: 0.24 KB less of that module's gzipped size, for 2.6
** times the instructions (callgrind, natively, 4 KB strings), which is
** why the other builds keep the loop above.  The same result and the same
** first error at the same offset (js/test/reader.test.mjs compares the two
** on thousands of strings):
**   - a byte outside the alphabet before `stop` ('=' included: "padding
**     '=' before the end"), or one that is not '=' after it;
**   - then a length that is not a multiple of 4, at the incomplete group;
**   - then padding that leaves bits of the last character set, at it.
** `stop`: with a length not a multiple of 4, the end of the last full
** group (the characters after it are checked, never decoded: out has
** room for len / 4 * 3 bytes); else the end less the one or two '=' that
** end the last group.  The bits of each character go into acc, 6 at a
** time, and a byte is written whenever 8 are there (nbits counts those
** not yet written). */
size_t jj_base64_decode(const char *p, size_t len, unsigned char *out,
                        size_t *bad, const char **why) {
  const unsigned char *s = (const unsigned char *)p;
  size_t stop = len / 4 * 4, o = 0, i;
  uint32_t acc = 0;
  unsigned nbits = 0;
  if (len % 4 == 0 && len) stop = len - (s[len - 1] != '=' ? 0 : s[len - 2] != '=' ? 1 : 2);
  for (i = 0; i < len; i++) {
    unsigned v = value[s[i]];
    if (v & 0x80) {
      if (i < stop || s[i] != '=') {
        *bad = i;
        *why = s[i] == '=' ? "padding '=' before the end" : "invalid base64 character";
        return (size_t)-1;
      }
    } else if (i < stop) {
      acc = acc << 6 | v;
      nbits += 6;
      if (nbits >= 8) {
        nbits -= 8;
        out[o++] = (unsigned char)(acc >> nbits);
      }
    }
  }
  if (len % 4) {
    *bad = stop;
    *why = "length is not a multiple of 4";
    return (size_t)-1;
  }
  if (acc & ((1u << nbits) - 1)) {
    *bad = stop - 1;
    *why = "unused bits of the last character are not zero";
    return (size_t)-1;
  }
  return o;
}
#endif /* JJ_SMALL */

/* Three bytes to four characters; the last 1 or 2 bytes get padding. */
size_t jj_base64_encode(const unsigned char *p, size_t len, char *out) {
  size_t i = 0, o = 0;
  for (; len - i >= 3; i += 3) {
    uint32_t v = (uint32_t)p[i] << 16 | (uint32_t)p[i + 1] << 8 | p[i + 2];
    out[o] = alphabet[v >> 18];
    out[o + 1] = alphabet[(v >> 12) & 63];
    out[o + 2] = alphabet[(v >> 6) & 63];
    out[o + 3] = alphabet[v & 63];
    o += 4;
  }
  if (len - i == 1) {
    uint32_t v = (uint32_t)p[i] << 16;
    out[o] = alphabet[v >> 18];
    out[o + 1] = alphabet[(v >> 12) & 63];
    out[o + 2] = '=';
    out[o + 3] = '=';
    o += 4;
  } else if (len - i == 2) {
    uint32_t v = (uint32_t)p[i] << 16 | (uint32_t)p[i + 1] << 8;
    out[o] = alphabet[v >> 18];
    out[o + 1] = alphabet[(v >> 12) & 63];
    out[o + 2] = alphabet[(v >> 6) & 63];
    out[o + 3] = '=';
    o += 4;
  }
  return o;
}
