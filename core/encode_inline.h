/*
** encode_inline.h — the writer's commonest values encoded inline: null,
** an integer, a float, plain ASCII text, a date the inline calendar
** accepts.
** encode.c's functions are these; the row builder's quick values
** (build_at.c) call them inline, since they run for every value a host
** gives and a call's frame would cost as much as the value.
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

/* null fits every column, nested tables included. */
static inline jj_code encode_null(jj_writer *w) {
  char *d = value_begin(w, 0, 4);
  if (!d) return w->err.code;
  memcpy(d, "null", 4);
  return value_end(w, d + 4);
}

/* Decimal, INT64_MIN included (num.h). */
static inline jj_code encode_int(jj_writer *w, int64_t v) {
  char *d = value_begin(w, JJ_INT, 24);
  if (!d) return w->err.code;
  return value_end(w, d + jj_num_format_int64(v, d));
}

/* Shortest round trip; non-finite values as the strings the format uses. */
static inline jj_code encode_double(jj_writer *w, double v) {
  char *d = value_begin(w, JJ_FLOAT, 32);
  if (!d) return w->err.code;
  if (isnan(v)) {
    memcpy(d, "\"NaN\"", 5);
    d += 5;
  } else if (isinf(v)) {
    const char *s = v > 0 ? "\"Infinity\"" : "\"-Infinity\"";
    size_t n = strlen(s);
    memcpy(d, s, n);
    d += n;
  } else {
    d += jj_num_format_double(v, d);
  }
  return value_end(w, d);
}

/* A date jj_date_ok accepts: the code of writing it; -1, nothing written,
** for any other text. */
static JJ_INLINE int encode_date_plain(jj_writer *w, const char *p, size_t len) {
  if (!jj_date_ok(p, len)) return -1;
  char *d = value_begin(w, JJ_DATE, 12);
  if (!d) return (int)w->err.code;
  d[0] = '"';
  memcpy(d + 1, p, 10);
  d[11] = '"';
  return (int)value_end(w, d + 12);
}

/* The fast way of text: plain ASCII into a text column with room for it.
** The code of writing it, or -1 when it does not go this way (nothing
** written). */
static JJ_INLINE int encode_text_plain(jj_writer *w, const char *p, size_t len) {
  frame *f = &w->stack[w->depth];
  if (JJ_LIKELY(jj_writer_open(w) && f->col < f->ncols && f->lv->types[f->col] == JJ_TEXT &&
                len < SIZE_MAX / 2 && has_room(w, len + 2))) {
    /* room: the quotes and the text; the separator is in the slack */
    char *d = put_separator(w, f, w->out.p + w->out.len);
    if (JJ_LIKELY(copy_plain(d + 1, p, len))) {
      d[0] = '"';
      d[len + 1] = '"';
      return (int)value_end(w, d + len + 2);
    }
  }
  return -1;
}

#endif /* JJ_ENCODE_INLINE_H */
