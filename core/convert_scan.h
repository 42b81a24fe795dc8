/*
** convert_scan.h — the inline fast paths of the converter's two scanners
** (convert_json.c, convert_csv.c), which run for every value: string ends,
** ASCII checks, key comparison, number and text shapes.  Not public;
** convert.h holds the rest of what the converter's files share.
*/
#ifndef JJ_CONVERT_SCAN_H
#define JJ_CONVERT_SCAN_H

#include "convert.h"

/* Past the closing quote of the JSON string at p (*p == '"'), *esc set when
** it has a backslash; NULL when it has a raw control character or does not
** end before `end` (jj_string_scan then says which).  Eight bytes at a
** time on little-endian machines. */
static inline const char *cv_str_end(const char *p, const char *end, int *esc) {
  const char *s = p + 1;
  *esc = 0;
  for (;;) {
#if JJ_SWAR && (defined(__GNUC__) || defined(__clang__))
    while (end - s >= 8) {
      uint64_t w, m;
      memcpy(&w, s, 8);
      if ((m = jj_special_mask(w)) != 0) {
        s += __builtin_ctzll(m) >> 3;
        break;
      }
      s += 8;
    }
#endif
    while (s < end && *s != '"' && *s != '\\' && (unsigned char)*s >= 0x20) s++;
    if (s >= end) return NULL;
    if (*s == '"') return s + 1;
    if (*s != '\\' || end - s < 2 || (unsigned char)s[1] < 0x20) return NULL;
    *esc = 1;
    s += 2;
  }
}

/* 1 when p[0..len) is all ASCII. */
static inline int cv_ascii(const char *p, size_t len) {
  uint64_t acc = 0;
  size_t i = 0;
  for (; i + 8 <= len; i += 8) {
    uint64_t w;
    memcpy(&w, p + i, 8);
    acc |= w;
  }
  for (; i < len; i++) acc |= (unsigned char)p[i];
  return !(acc & JJ_HIGHS);
}

/* a[0..n) == b[0..n), for short names. */
static inline int cv_eq(const char *a, const char *b, size_t n) {
  for (; n >= 8; n -= 8, a += 8, b += 8) {
    uint64_t x, y;
    memcpy(&x, a, 8);
    memcpy(&y, b, 8);
    if (x != y) return 0;
  }
  while (n--)
    if (*a++ != *b++) return 0;
  return 1;
}

/* An integer of at most 18 digits, -?(0|[1-9][0-9]*): 1 with *out, else 0
** (the full parser decides). */
static inline int cv_int_fast(const char *p, size_t len, int64_t *out) {
  int neg = len && *p == '-';
  size_t i = (size_t)neg;
  uint64_t v = 0;
  if (len - i == 0 || len - i > 18 || (p[i] == '0' && len - i > 1)) return 0;
  for (; i < len; i++) {
    unsigned d = (unsigned)(unsigned char)p[i] - '0';
    if (d > 9) return 0;
    v = v * 10 + d;
  }
  *out = neg ? -(int64_t)v : (int64_t)v;
  return 1;
}

/* The kind of a number token for the common cases: K_INT for at most 15
** digits (exact as a double too), K_FLOAT for -?(0|[1-9][0-9]*)\.[0-9]+
** shorter than 300 bytes (no exponent: always finite); -1 for anything
** else (the full classifier decides). */
static inline int cv_num_fast(const char *p, size_t len) {
  size_t i = len && *p == '-', start = i;
  while (i < len && (unsigned)(unsigned char)p[i] - '0' <= 9) i++;
  size_t ndig = i - start;
  if (ndig == 0 || (p[start] == '0' && ndig > 1)) return -1;
  if (i == len) return ndig <= 15 ? K_INT : -1;
  if (p[i] != '.' || len >= 300) return -1;
  size_t f = ++i;
  while (i < len && (unsigned)(unsigned char)p[i] - '0' <= 9) i++;
  return i == len && i > f ? K_FLOAT : -1;
}

/* Whether a number cv_num_fast calls K_INT is written back as it is by
** jj_writer_int: all but "-0". */
static inline int cv_int_canonical(const char *p, size_t len) {
  return !(len == 2 && p[0] == '-' && p[1] == '0');
}

/* Whether a number cv_num_fast calls K_FLOAT (-?(0|[1-9][0-9]*)\.[0-9]+)
** is the text jj_writer_double writes for its value: no 0 ends its
** fraction, at most 15 significant digits (so no shorter decimal reads
** back as the same double: DBL_DIG), and at least 1e-4 (Python's repr,
** the format's layout, writes smaller values with an exponent; 15 digits
** keep it below 1e16, where the exponent starts too). */
static inline int cv_float_canonical(const char *p, size_t len) {
  size_t i = p[0] == '-', sig;
  if (p[len - 1] == '0') return 0;
  if (p[i] == '0') { /* 0.ddd: the zeros after the point do not count */
    size_t z = i + 2;
    while (z < len && p[z] == '0') z++;
    if (z - (i + 2) >= 4) return 0; /* below 1e-4 */
    sig = len - z;
  } else {
    sig = len - i - 1; /* every digit but the point */
  }
  return sig <= 15;
}

/* Value v of kind k, which cv_num_fast or cv_text_fast said of v's own
** bytes (a field without doubled quotes), written ahead into column col
** when the column has the kind's type: text as it is, and the numbers and
** dates the input spells as the format does copied (the bytes
** jj_writer_int, jj_writer_double and jj_writer_date would write for their
** values).  1 written, 0 not (convert_ahead.c decides), -1 the writer
** failed. */
static inline int cv_ahead_fast(cv *c, const cv_col *col, int k,
                                const cv_val *v) {
  jj_code code;
  if (k == K_TEXT && col->type == JJ_TEXT)
    code = jj_writer_text(c->wr, v->p, v->len);
  else if (k == K_INT && col->type == JJ_INT && cv_int_canonical(v->p, v->len))
    code = jj_writer_canonical(c->wr, JJ_INT, v->p, v->len, 0);
  else if (k == K_FLOAT && col->type == JJ_FLOAT &&
           cv_float_canonical(v->p, v->len))
    code = jj_writer_canonical(c->wr, JJ_FLOAT, v->p, v->len, 0);
  else if (k == K_DATE && col->type == JJ_DATE) /* YYYY-MM-DD, a date */
    code = jj_writer_canonical(c->wr, JJ_DATE, v->p, v->len, 1);
  else
    return 0;
  return code ? -1 : 1;
}

/* The kind of plain ASCII text, or valid UTF-8 text, for the common cases
** (K_TEXT, K_DATE); -1 when the full classifier must decide.  CSV booleans
** are not looked for. */
static inline int cv_text_fast(const char *p, size_t len) {
  if (len == 10 && p[4] == '-' && p[7] == '-' && jj_date_ok(p, len))
    return K_DATE;
  if (len >= 10 && p[4] == '-') return -1; /* date- or timestamp-shaped */
  if ((len == 3 && p[0] == 'N') || (len == 8 && p[0] == 'I') ||
      (len == 9 && p[0] == '-'))
    return -1; /* NaN, Infinity, -Infinity? */
  return K_TEXT;
}

#endif /* JJ_CONVERT_SCAN_H */
