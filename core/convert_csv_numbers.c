/*
** convert_csv_numbers.c — CSV numbers as people write them, read as the
** numbers they mean in a column of numbers:
**
**   spreadsheet forms   ".5", "-.5", "5.", "+5" (always);
**   thousands groups    "1,234", "-1,234,567.89" (only with
**                       jj_convert_opts.thousands: the separator given).
**
** Pass 1 folds the number into the column's kind; pass 2 writes it when
** the column is i or f, else the field as written.  Each column of numbers
** that held some is told in a note with the count and the first, so a
** reader sees what was read differently from its spelling.  JSON strings
** are never read this way: JSON has its own numbers.
*/
#include <stdlib.h>
#include <string.h>

#include "convert.h"

/* A column's numbers written as people write them (pass 1): the count and
** the first, of each spelling. */
struct cv_sheet {
  uint64_t n;
  int64_t row;                /* the first one's */
  char ex[CV_NUM_MAX + 1];    /* ... as written */
  uint64_t grouped;           /* with thousands separators */
  int64_t grouped_row;
  char grouped_ex[CV_NUM_MAX + 1];
};

static int digit(char ch) { return ch >= '0' && ch <= '9'; }

/* A number as spreadsheets write it (a leading '+', no digit before the
** point, none after it) as JSON writes it, into out (room for len + 2
** bytes): its length, or 0 when p[0..len) is no such number (already in
** JSON's form, or not a number: "007", ".", "+-1" stay as they are). */
static size_t sheet_number(const char *p, size_t len, char *out) {
  size_t i = 0, n = 0, start, digits;
  int changed = 0;
  if (i < len && p[i] == '+')
    i++, changed = 1;
  else if (i < len && p[i] == '-')
    out[n++] = p[i++];
  for (start = i; i < len && digit(p[i]);) out[n++] = p[i++];
  digits = i - start;
  if (digits > 1 && p[start] == '0') return 0;
  if (!digits) {
    if (i == len || p[i] != '.') return 0;
    out[n++] = '0';
    changed = 1;
  }
  if (i < len && p[i] == '.') {
    out[n++] = p[i++];
    for (start = i; i < len && digit(p[i]);) out[n++] = p[i++];
    if (i == start) {
      if (!digits) return 0;
      out[n++] = '0';
      changed = 1;
    }
  }
  if (i < len && (p[i] == 'e' || p[i] == 'E')) {
    out[n++] = p[i++];
    if (i < len && (p[i] == '+' || p[i] == '-')) out[n++] = p[i++];
    for (start = i; i < len && digit(p[i]);) out[n++] = p[i++];
    if (i == start) return 0;
  }
  return i == len && changed ? n : 0;
}

/* A number with thousands separators `sep` (a sign, 1 to 3 digits not
** starting with 0, then at least one group of sep and 3 digits, then maybe
** a point and digits: "1,234", "+12,345.5", "1,234.") as JSON writes it,
** into out (room for len + 2 bytes): its length, or 0 when p[0..len) is no
** such number ("12,34", "1,,234", "0,123", "1,234e5" stay text). */
static size_t grouped_number(const char *p, size_t len, char sep, char *out) {
  size_t i = 0, n = 0, start, groups = 0;
  if (i < len && (p[i] == '+' || p[i] == '-'))
    if (p[i++] == '-') out[n++] = '-';
  for (start = i; i < len && digit(p[i]);) out[n++] = p[i++];
  if (i == start || i - start > 3 || p[start] == '0') return 0;
  while (i < len && p[i] == sep) {
    i++;
    for (int k = 0; k < 3; k++, i++) {
      if (i == len || !digit(p[i])) return 0;
      out[n++] = p[i];
    }
    groups++;
  }
  if (!groups) return 0;
  if (i < len && p[i] == '.') {
    out[n++] = p[i++];
    for (start = i; i < len && digit(p[i]);) out[n++] = p[i++];
    if (i == start) out[n++] = '0';
  }
  return i == len ? n : 0;
}

/* Count the first and later ones of a spelling in pass 1. */
static void count(cv *c, uint64_t *n, int64_t *row, char *ex, const cv_val *v) {
  if (!(*n)++) {
    *row = c->records + 1;
    memcpy(ex, v->p, v->len);
    ex[v->len] = '\0';
  }
}

const cv_val *cv_csv_number(cv *c, size_t i, const cv_val *v, cv_val *alt,
                            char *num) {
  const cv_col *col = &c->x.top.cols[i];
  jj_type t = col->forced ? col->forced : c->pass == 2 ? col->type : JJ_INT;
  size_t n = 0;
  int grouped = 0;
  if (t != JJ_INT && t != JJ_FLOAT) return v;
  if (c->o.thousands && memchr(v->p, c->o.thousands, v->len))
    grouped = (n = grouped_number(v->p, v->len, c->o.thousands, num)) != 0;
  if (!n && !(n = sheet_number(v->p, v->len, num))) return v;
  if (col->forced == JJ_INT && memchr(num, '.', n))
    return v; /* "5." is no integer: the error shows it as written */
  if (c->pass == 1) {
    if (!c->sheet && !(c->sheet = calloc(c->header_cols, sizeof *c->sheet)))
      return cv_nomem(c), NULL;
    struct cv_sheet *s = &c->sheet[i];
    if (grouped)
      count(c, &s->grouped, &s->grouped_row, s->grouped_ex, v);
    else
      count(c, &s->n, &s->row, s->ex, v);
  }
  *alt = *v;
  alt->p = num;
  alt->len = n;
  return alt;
}

void cv_csv_sheet_notes(cv *c) {
  char shown[JJ_SHOW_CAP], name[JJ_SHOW_CAP];
  for (size_t i = 0; c->sheet && i < c->header_cols; i++) {
    const struct cv_sheet *s = &c->sheet[i];
    const cv_col *col = &c->x.top.cols[i];
    const char *as = col->type == JJ_INT ? "integers" : "floats";
    if (col->type != JJ_INT && col->type != JJ_FLOAT) continue;
    jj_show(name, sizeof name, col->name, col->name_len, 1);
    if (s->n)
      cv_note(c,
              "column %s: %llu number%s written as spreadsheets write them "
              "(first: row %lld, %s) read as %s",
              name, (unsigned long long)s->n, s->n == 1 ? "" : "s",
              (long long)s->row,
              jj_show(shown, sizeof shown, s->ex, strlen(s->ex), 1), as);
    if (s->grouped)
      cv_note(c,
              "column %s: %llu number%s with thousands separators (first: "
              "row %lld, %s) read as %s",
              name, (unsigned long long)s->grouped,
              s->grouped == 1 ? "" : "s", (long long)s->grouped_row,
              jj_show(shown, sizeof shown, s->grouped_ex,
                      strlen(s->grouped_ex), 1),
              as);
  }
}
