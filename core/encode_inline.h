/*
** encode_inline.h — the bytes of the commonest values at a cursor: plain
** ASCII text checked as it is copied, a float, a date.  The writer's value
** functions (encode.c) put them where value_begin says; the row builder's
** quick runs (build_at.c) put a run of a row's values with one cursor and
** one reservation, since they run for every value a host gives.
*/
#ifndef JJ_ENCODE_INLINE_H
#define JJ_ENCODE_INLINE_H

#include <math.h>
#include <string.h>

#include "writer.h"

/* Bytes that JSON text needs no escape for and that are valid UTF-8 on
** their own: printable ASCII 0x20-0x7F except '"' and '\\' (the escaping
** rule itself lives in jj_string_escape, text.c).  Nonzero when one of the
** 8 bytes of w is not plain: a high bit, or a byte jj_special_mask flags
** (a control character, '"' or '\\').  Exact as a yes/no: the borrows that
** make jj_special_mask inexact start only at a byte it flags anyway. */
static JJ_INLINE uint64_t not_plain8(uint64_t w) {
  return (w & JJ_HIGHS) | jj_special_mask(w);
}

/* Copy p[0..len) to d when every byte is plain, 8 bytes at a time (the
** last word overlaps the one before; d has room for len rounded up to 8).
** Returns 1 when copied, 0 when some byte is not plain (d then holds
** garbage that the caller overwrites). */
static JJ_INLINE int copy_plain(char *d, const char *p, size_t len) {
  uint64_t x, bad = 0;
  if (len >= 8) {
    size_t i = 0;
    for (; i + 8 < len; i += 8) {
      memcpy(&x, p + i, 8);
      bad |= not_plain8(x);
      memcpy(d + i, &x, 8);
    }
    memcpy(&x, p + len - 8, 8);
    bad |= not_plain8(x);
    memcpy(d + len - 8, &x, 8);
    return bad == 0;
  }
  if (len >= 4) { /* two 4-byte words, overlapping when len < 8 */
    uint32_t a, b;
    memcpy(&a, p, 4);
    memcpy(&b, p + len - 4, 4);
    x = (uint64_t)a | (uint64_t)b << 32;
    memcpy(d, &a, 4);
    memcpy(d + len - 4, &b, 4);
    return not_plain8(x) == 0;
  }
  for (size_t i = 0; i < len; i++) { /* 0-3 bytes */
    unsigned char c = (unsigned char)p[i];
    if (c < 0x20 || c >= 0x80 || c == '"' || c == '\\') return 0;
    d[i] = (char)c;
  }
  return 1;
}

/* A float's bytes at d, at most 32: the shortest round trip; non-finite
** values as the strings the format uses.  Returns their end. */
static JJ_INLINE char *put_double(char *d, double v) {
  if (isnan(v)) {
    memcpy(d, "\"NaN\"", 5);
    return d + 5;
  }
  if (isinf(v)) {
    if (v > 0) {
      memcpy(d, "\"Infinity\"", 10);
      return d + 10;
    }
    memcpy(d, "\"-Infinity\"", 11);
    return d + 11;
  }
  return d + jj_num_format_double(v, d);
}

/* A date's 10 bytes p (checked by the caller) quoted at d; returns their
** end, d + 12. */
static JJ_INLINE char *put_date(char *d, const char *p) {
  d[0] = '"';
  memcpy(d + 1, p, 10);
  d[11] = '"';
  return d + 12;
}

#endif /* JJ_ENCODE_INLINE_H */
