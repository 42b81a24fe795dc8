/*
** table.c — text for a terminal: cells made printable, their display
** width, and tables drawn with box lines as sqlite3's `.mode box` draws
** them:
**
**   ┌────┬───────┬────────────┐
**   │ id │ user  │   joined   │
**   ├────┼───────┼────────────┤
**   │  1 │ u0919 │ 2023-04-08 │
**   └────┴───────┴────────────┘
**
** Width is counted in terminal columns without the locale: East Asian
** wide and fullwidth characters (and emoji) take 2, combining marks and
** zero-width characters 0, the rest 1.  Control characters (C0, DEL, C1)
** and the bidirectional overrides, which would move the cursor or reorder
** the line, are shown escaped (\n, \t, \x1b, \u0085, \u202e), and so is a
** byte that is not UTF-8.  Numbers are aligned right, the rest left, the
** header centred.
**
** Also cli_schema_rows: a schema's columns as the rows of such a table
** (`schema`, and `convert`'s summary).
*/
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* The length of the UTF-8 sequence at p (1-4) with its code point, or 0
** when it is not valid UTF-8 (overlong, surrogate, beyond U+10FFFF, cut). */
static size_t utf8_decode(const unsigned char *p, size_t len, uint32_t *cp) {
  unsigned char c = p[0];
  size_t n;
  uint32_t v, min;
  if (c < 0x80) {
    *cp = c;
    return 1;
  }
  if (c >= 0xc2 && c <= 0xdf)
    n = 2, v = c & 0x1f, min = 0x80;
  else if (c >= 0xe0 && c <= 0xef)
    n = 3, v = c & 0x0f, min = 0x800;
  else if (c >= 0xf0 && c <= 0xf4)
    n = 4, v = c & 0x07, min = 0x10000;
  else
    return 0;
  if (len < n) return 0;
  for (size_t k = 1; k < n; k++) {
    if ((p[k] & 0xc0) != 0x80) return 0;
    v = v << 6 | (p[k] & 0x3f);
  }
  if (v < min || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff)) return 0;
  *cp = v;
  return n;
}

typedef struct range {
  uint32_t lo, hi;
} range;

/* East Asian Wide (W) and Fullwidth (F), and the emoji blocks terminals
** draw two columns wide. */
static const range wide[] = {
    {0x1100, 0x115f},   {0x231a, 0x231b},   {0x2329, 0x232a},
    {0x23e9, 0x23ec},   {0x23f0, 0x23f0},   {0x23f3, 0x23f3},
    {0x25fd, 0x25fe},   {0x2614, 0x2615},   {0x2648, 0x2653},
    {0x267f, 0x267f},   {0x2693, 0x2693},   {0x26a1, 0x26a1},
    {0x26aa, 0x26ab},   {0x26bd, 0x26be},   {0x26c4, 0x26c5},
    {0x26ce, 0x26ce},   {0x26d4, 0x26d4},   {0x26ea, 0x26ea},
    {0x26f2, 0x26f3},   {0x26f5, 0x26f5},   {0x26fa, 0x26fa},
    {0x26fd, 0x26fd},   {0x2705, 0x2705},   {0x270a, 0x270b},
    {0x2728, 0x2728},   {0x274c, 0x274c},   {0x274e, 0x274e},
    {0x2753, 0x2755},   {0x2757, 0x2757},   {0x2795, 0x2797},
    {0x27b0, 0x27b0},   {0x27bf, 0x27bf},   {0x2b1b, 0x2b1c},
    {0x2b50, 0x2b50},   {0x2b55, 0x2b55},   {0x2e80, 0x303e},
    {0x3041, 0x33ff},   {0x3400, 0x4dbf},   {0x4e00, 0x9fff},
    {0xa000, 0xa4cf},   {0xa960, 0xa97f},   {0xac00, 0xd7a3},
    {0xf900, 0xfaff},   {0xfe10, 0xfe19},   {0xfe30, 0xfe6f},
    {0xff00, 0xff60},   {0xffe0, 0xffe6},   {0x16fe0, 0x16fe4},
    {0x17000, 0x18cff}, {0x1b000, 0x1b2ff}, {0x1f004, 0x1f004},
    {0x1f0cf, 0x1f0cf}, {0x1f18e, 0x1f18e}, {0x1f191, 0x1f19a},
    {0x1f200, 0x1f251}, {0x1f300, 0x1f64f}, {0x1f680, 0x1f6ff},
    {0x1f900, 0x1f9ff}, {0x1fa70, 0x1faff}, {0x20000, 0x2fffd},
    {0x30000, 0x3fffd},
};

/* Combining marks and zero-width characters (the common blocks). */
static const range zero[] = {
    {0x0300, 0x036f},   {0x0483, 0x0489},   {0x0591, 0x05bd},
    {0x05bf, 0x05bf},   {0x05c1, 0x05c2},   {0x05c4, 0x05c5},
    {0x05c7, 0x05c7},   {0x0610, 0x061a},   {0x064b, 0x065f},
    {0x0670, 0x0670},   {0x06d6, 0x06dc},   {0x06df, 0x06e4},
    {0x0900, 0x0902},   {0x093c, 0x093c},   {0x0941, 0x0948},
    {0x094d, 0x094d},   {0x0e31, 0x0e31},   {0x0e34, 0x0e3a},
    {0x0e47, 0x0e4e},   {0x1ab0, 0x1aff},   {0x1dc0, 0x1dff},
    {0x200b, 0x200d},   {0x2060, 0x2064},   {0x20d0, 0x20ff},
    {0x302a, 0x302d},   {0x3099, 0x309a},   {0xfe00, 0xfe0f},
    {0xfe20, 0xfe2f},   {0xfeff, 0xfeff},   {0x1f3fb, 0x1f3ff},
    {0xe0001, 0xe007f}, {0xe0100, 0xe01ef},
};

static int in_ranges(const range *r, size_t n, uint32_t cp) {
  size_t lo = 0, hi = n;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (cp < r[mid].lo)
      hi = mid;
    else if (cp > r[mid].hi)
      lo = mid + 1;
    else
      return 1;
  }
  return 0;
}

/* One character as shown: its text in out (at most 7 bytes), its width;
** returns the bytes of p consumed (at least 1). */
static size_t piece(const char *p, size_t len, char *out, size_t *out_len,
                    size_t *width) {
  static const char hex[] = "0123456789abcdef";
  uint32_t cp;
  size_t n = utf8_decode((const unsigned char *)p, len, &cp);
  if (n == 0) { /* not UTF-8: the byte */
    unsigned char b = (unsigned char)p[0];
    out[0] = '\\', out[1] = 'x', out[2] = hex[b >> 4], out[3] = hex[b & 15];
    *out_len = *width = 4;
    return 1;
  }
  if (cp < 0x20 || cp == 0x7f) {
    char e = cp == '\n' ? 'n' : cp == '\t' ? 't' : cp == '\r' ? 'r' : 0;
    out[0] = '\\';
    if (e) {
      out[1] = e;
      *out_len = *width = 2;
    } else {
      out[1] = 'x', out[2] = hex[cp >> 4], out[3] = hex[cp & 15];
      *out_len = *width = 4;
    }
    return n;
  }
  if ((cp >= 0x80 && cp <= 0x9f) || (cp >= 0x202a && cp <= 0x202e) ||
      (cp >= 0x2066 && cp <= 0x2069)) {
    out[0] = '\\', out[1] = 'u';
    for (int k = 0; k < 4; k++) out[2 + k] = hex[(cp >> (12 - 4 * k)) & 15];
    *out_len = *width = 6;
    return n;
  }
  memcpy(out, p, n);
  *out_len = n;
  *width = in_ranges(zero, sizeof zero / sizeof *zero, cp)   ? 0
           : in_ranges(wide, sizeof wide / sizeof *wide, cp) ? 2
                                                             : 1;
  return n;
}

size_t cli_display_width(const char *p, size_t len) {
  size_t w = 0, k = 0;
  while (k < len) {
    char out[8];
    size_t ol, pw;
    k += piece(p + k, len - k, out, &ol, &pw);
    w += pw;
  }
  return w;
}

int cli_cell_escape(cli_buf *b, const char *p, size_t len, size_t max) {
  size_t limit = (size_t)-1, w = 0, k = 0;
  if (max && cli_display_width(p, len) > max) limit = max - 1;
  while (k < len) {
    char out[8];
    size_t ol, pw;
    size_t n = piece(p + k, len - k, out, &ol, &pw);
    if (w + pw > limit) break;
    if (cli_buf_sink(b, out, ol)) return -1;
    w += pw;
    k += n;
  }
  if (k < len && cli_buf_sink(b, "\xe2\x80\xa6", 3)) return -1; /* … */
  return 0;
}

/* ---------------------------------------------------------------------- */
/* Tables                                                                  */
/* ---------------------------------------------------------------------- */

int cli_table_init(cli_table *t, size_t ncol) {
  memset(t, 0, sizeof *t);
  t->ncol = ncol;
  t->right = calloc(ncol ? ncol : 1, 1);
  return t->right ? 0 : -1;
}

int cli_table_add(cli_table *t, const char *p, size_t len, size_t max) {
  cli_buf b = {0};
  if (t->ncells == t->cap) {
    size_t cap = t->cap ? t->cap * 2 : 64;
    char **q = realloc(t->cells, cap * sizeof *q);
    if (!q) return -1;
    t->cells = q;
    t->cap = cap;
  }
  if (cli_cell_escape(&b, p, len, max) || cli_buf_sink(&b, "", 1)) {
    cli_buf_free(&b);
    return -1;
  }
  t->cells[t->ncells++] = b.p;
  return 0;
}

/* A line of box drawing: left, the fill over each column, joints, right. */
static void rule(FILE *f, const size_t *w, size_t ncol, const char *l,
                 const char *mid, const char *r) {
  fputs(l, f);
  for (size_t c = 0; c < ncol; c++) {
    for (size_t k = 0; k < w[c] + 2; k++) fputs("\xe2\x94\x80", f); /* ─ */
    fputs(c + 1 < ncol ? mid : r, f);
  }
  fputc('\n', f);
}

static void pad(FILE *f, size_t n) {
  while (n--) fputc(' ', f);
}

int cli_table_print(const cli_table *t, FILE *f) {
  size_t ncol = t->ncol, rows = ncol ? t->ncells / ncol : 0;
  if (!ncol) return 0;
  size_t *w = calloc(ncol, sizeof *w);
  if (!w) return -1;
  for (size_t k = 0; k < rows * ncol; k++) {
    size_t cw = cli_display_width(t->cells[k], strlen(t->cells[k]));
    if (cw > w[k % ncol]) w[k % ncol] = cw;
  }
  rule(f, w, ncol, "\xe2\x94\x8c", "\xe2\x94\xac", "\xe2\x94\x90"); /* ┌┬┐ */
  for (size_t r = 0; r < rows; r++) {
    fputs("\xe2\x94\x82", f); /* │ */
    for (size_t c = 0; c < ncol; c++) {
      const char *s = t->cells[r * ncol + c];
      size_t gap = w[c] - cli_display_width(s, strlen(s));
      size_t before = r == 0 ? gap / 2 : t->right[c] ? gap : 0;
      pad(f, 1 + before);
      fputs(s, f);
      pad(f, gap - before + 1);
      fputs("\xe2\x94\x82", f);
    }
    fputc('\n', f);
    if (r == 0) /* ├┼┤ */
      rule(f, w, ncol, "\xe2\x94\x9c", "\xe2\x94\xbc", "\xe2\x94\xa4");
  }
  rule(f, w, ncol, "\xe2\x94\x94", "\xe2\x94\xb4", "\xe2\x94\x98"); /* └┴┘ */
  free(w);
  return ferror(f) ? -1 : 0;
}

int cli_table_print_tsv(const cli_table *t, FILE *f) {
  for (size_t k = 0; k < t->ncells; k++) {
    fputs(t->cells[k], f);
    fputc((k + 1) % t->ncol ? '\t' : '\n', f);
  }
  return ferror(f) ? -1 : 0;
}

int cli_table_print_plain(const cli_table *t, FILE *f, const char *indent) {
  size_t ncol = t->ncol, rows = ncol ? t->ncells / ncol : 0;
  if (!ncol) return 0;
  size_t *w = calloc(ncol, sizeof *w);
  if (!w) return -1;
  for (size_t k = ncol; k < rows * ncol; k++) {
    size_t cw = cli_display_width(t->cells[k], strlen(t->cells[k]));
    if (cw > w[k % ncol]) w[k % ncol] = cw;
  }
  for (size_t r = 1; r < rows; r++) {
    fputs(indent, f);
    for (size_t c = 0; c < ncol; c++) {
      const char *s = t->cells[r * ncol + c];
      fputs(s, f);
      if (c + 1 < ncol) pad(f, w[c] - cli_display_width(s, strlen(s)) + 2);
    }
    fputc('\n', f);
  }
  free(w);
  return ferror(f) ? -1 : 0;
}

void cli_table_free(cli_table *t) {
  for (size_t k = 0; k < t->ncells; k++) free(t->cells[k]);
  free(t->cells);
  free(t->right);
  memset(t, 0, sizeof *t);
}

int cli_schema_rows(cli_table *t, const jj_schema *s, const char *pos,
                    const char *name) {
  size_t ncol = jj_schema_columns(s);
  for (size_t k = 0; k < ncol; k++) {
    size_t nlen;
    const char *n = jj_schema_name(s, k, &nlen);
    jj_type type = jj_schema_type(s, k);
    char p[256];
    cli_buf full = {0};
    snprintf(p, sizeof p, "%s%zu", pos, k + 1);
    int bad =
        cli_buf_sink(&full, name, strlen(name)) ||
        cli_buf_sink(&full, n, nlen) || cli_table_add(t, p, strlen(p), 0) ||
        cli_table_add(t, full.p, full.len, 0) ||
        cli_table_add(t, jj_type_short(type), strlen(jj_type_short(type)), 0) ||
        cli_table_add(t, jj_type_sql(type), strlen(jj_type_sql(type)), 0);
    if (!bad && type == JJ_TABLE) {
      strcat(p, ".");
      bad = cli_buf_sink(&full, ".", 2) ||
            cli_schema_rows(t, jj_schema_table(s, k), p, full.p);
    }
    cli_buf_free(&full);
    if (bad) return -1;
  }
  return 0;
}
