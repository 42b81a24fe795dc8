/*
** infer.c — the columns a document is made of as values come in, and what
** kind each value is.
**
** Columns are found by name through a small open-addressing hash per table,
** with a guess first: rows usually list their keys in the same order, so
** the column after the previous key is tried before hashing.  A column is
** made when its name first appears, so the order of columns is the order
** of first appearance, and a key first seen at row N has been null before.
**
** A value's kind comes from how it is spelled (a number in JSON's grammar,
** text shaped as a date or a timestamp) or, from a host, from its type;
** infer_schema.c decides a column's type from the kinds it held.  The
** messages here name the place from the tables being read: the input, the
** row, the column, the nested row and column, and the byte.
*/
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "infer.h"

void ic_init(ic *x, const char *name, jj_error *err) {
  memset(x, 0, sizeof *x);
  x->name = name;
  x->err = err;
  x->top.col = (size_t)-1;
}

void ic_free(ic *x) {
  ic_table *spec = x->top.spec;
  ic_table_free(&x->top);
  if (spec) {
    ic_table_free(spec);
    free(spec);
  }
  jj_schema_free(x->schema);
  jj_buf_free(&x->scratch);
  x->schema = NULL;
}

static uint32_t hash_name(const char *p, size_t len) {
  uint32_t h = 2166136261u;
  for (size_t i = 0; i < len; i++) h = (h ^ (unsigned char)p[i]) * 16777619u;
  return h;
}

/* Put column index i into t's hash (which has room). */
static void hash_put(ic_table *t, size_t i) {
  size_t m = t->hcap - 1;
  size_t h = hash_name(t->cols[i].name, t->cols[i].name_len) & m;
  while (t->hash[h]) h = (h + 1) & m;
  t->hash[h] = (uint32_t)(i + 1);
}

static long find(const ic_table *t, const char *name, size_t len) {
  if (!t->hcap) return -1;
  size_t m = t->hcap - 1, h = hash_name(name, len) & m;
  for (; t->hash[h]; h = (h + 1) & m) {
    const ic_col *col = &t->cols[t->hash[h] - 1];
    if (col->name_len == len && !memcmp(col->name, name, len))
      return (long)t->hash[h] - 1;
  }
  return -1;
}

long ic_find(const ic_table *t, const char *name, size_t len) {
  size_t g = t->col + 1 < t->n ? t->col + 1 : 0; /* the guess */
  if (g < t->n && t->cols[g].name_len == len &&
      !memcmp(t->cols[g].name, name, len))
    return (long)g;
  return find(t, name, len);
}

long ic_add(ic *x, ic_table *t, const char *name, size_t len) {
  if (x->ncols_all >= IC_MAX_COLUMNS) return -2;
  if (t->n == t->cap) {
    size_t cap = t->cap ? t->cap * 2 : 16;
    ic_col *cols = realloc(t->cols, cap * sizeof *cols);
    if (!cols) return ic_nomem(x), -1;
    t->cols = cols;
    t->cap = cap;
  }
  if ((t->n + 1) * 2 > t->hcap) { /* keep the hash at most half full */
    size_t hcap = t->hcap ? t->hcap * 2 : 32;
    uint32_t *h = calloc(hcap, sizeof *h);
    if (!h) return ic_nomem(x), -1;
    free(t->hash);
    t->hash = h;
    t->hcap = hcap;
    for (size_t i = 0; i < t->n; i++) hash_put(t, i);
  }
  ic_col *col = &t->cols[t->n];
  memset(col, 0, sizeof *col);
  if (!(col->name = malloc(len + 1))) return ic_nomem(x), -1;
  memcpy(col->name, name, len);
  col->name[len] = '\0';
  col->name_len = len;
  col->stamp = UINT64_MAX;
  col->plain = 1;
  for (size_t i = 0; i < len; i++)
    if (name[i] == '"' || name[i] == '\\' || (unsigned char)name[i] < 0x20)
      col->plain = 0;
  /* the first 8 bytes of the name and its closing quote, as they stand in
  ** memory, and which of them count (convert_json.c's raw key match) */
  unsigned char k8[8] = {0}, m8[8] = {0};
  for (size_t i = 0; i < 8 && i <= len; i++) {
    k8[i] = i < len ? (unsigned char)name[i] : '"';
    m8[i] = 0xFF;
  }
  memcpy(&col->key8, k8, 8);
  memcpy(&col->mask8, m8, 8);
  hash_put(t, t->n);
  x->ncols_all++;
  /* the explicit schema's type, if it names this column */
  long s = t->spec ? find(t->spec, name, len) : -1;
  if (s >= 0) {
    ic_col *sc = &t->spec->cols[s];
    sc->seen = 1;
    col->forced = sc->forced;
    if (sc->forced == JJ_TABLE && !ic_sub(x, t, t->n)) return -1;
    if (col->sub) col->sub->spec = sc->sub;
  }
  return (long)t->n++;
}

ic_table *ic_sub(ic *x, ic_table *t, size_t i) {
  ic_col *col = &t->cols[i];
  if (col->sub) return col->sub;
  if (!(col->sub = calloc(1, sizeof *col->sub))) return ic_nomem(x), NULL;
  col->sub->parent = t;
  col->sub->parent_col = i;
  col->sub->depth = t->depth + 1;
  col->sub->col = (size_t)-1;
  return col->sub;
}

long ic_column(ic *x, ic_table *t, const char *name, size_t len,
               uint64_t off) {
  char shown[JJ_SHOW_CAP];
  long i = ic_find(t, name, len);
  if (i >= 0) return i;
  jj_show(shown, sizeof shown, name, len, 1);
  if (len == 0)
    return ic_fail(x, JJ_ERR_SCHEMA, off, 1,
                   "an empty key cannot be a column name"),
           -1;
  if (memchr(name, '\0', len))
    return ic_fail(x, JJ_ERR_SCHEMA, off, 1,
                   "key %s contains U+0000, which a column name cannot", shown),
           -1;
  i = ic_add(x, t, name, len);
  if (i == -2)
    ic_fail(x, JJ_ERR_SCHEMA, off, 1,
            "too many columns (at most %d in all tables together)",
            IC_MAX_COLUMNS);
  return i < 0 ? -1 : i;
}

void ic_table_free(ic_table *t) {
  if (!t) return;
  for (size_t i = 0; i < t->n; i++) {
    ic_col *col = &t->cols[i];
    free(col->name);
    free(col->nulled_ex);
    for (int k = 0; k < K_COUNT; k++) free(col->ex[k]);
    if (col->sub) {
      ic_table_free(col->sub);
      free(col->sub);
    }
  }
  free(t->cols);
  free(t->hash);
  memset(t, 0, sizeof *t);
}

/* ---------------------------------------------------------------------- */
/* Messages                                                                */
/* ---------------------------------------------------------------------- */

/* Append to a message, never past its end. */
static void put(char *m, size_t cap, size_t *used, const char *fmt, ...)
    JJ_PRINTF(4, 5);
static void put(char *m, size_t cap, size_t *used, const char *fmt, ...) {
  va_list ap;
  if (*used + 1 >= cap) return;
  va_start(ap, fmt);
  int n = vsnprintf(m + *used, cap - *used, fmt, ap);
  va_end(ap);
  if (n > 0) *used = *used + (size_t)n >= cap ? cap - 1 : *used + (size_t)n;
}

/* A column name for a message: quoted, cut, control bytes shown. */
static const char *shown_name(const ic_col *col, char *out) {
  return jj_show(out, JJ_SHOW_CAP, col->name, col->name_len, 1);
}

int ic_vfail(ic *x, jj_code code, uint64_t off, int place, const char *fmt,
                 va_list ap) {
  jj_error *e = x->err;
  size_t used = 0, cap = sizeof e->message;
  char name[JJ_SHOW_CAP];
  const char *sep = "";
  e->code = code;
  e->row = 0;
  e->column = -1;
  e->offset = off == UINT64_MAX ? JJ_NO_OFFSET : (size_t)off;
  e->message[0] = '\0';
  if (x->name) put(e->message, cap, &used, "%s: ", x->name);
  for (const ic_table *t = &x->top; place && t && t->in_row;) {
    put(e->message, cap, &used, "%srow %lld", sep, (long long)t->row);
    sep = ", ";
    if (t == &x->top) e->row = t->row;
    if (t->col >= t->n) break;
    put(e->message, cap, &used, ", column %s",
        shown_name(&t->cols[t->col], name));
    if (t == &x->top) e->column = (int)t->col;
    t = t->cols[t->col].sub;
  }
  if (off != UINT64_MAX) {
    put(e->message, cap, &used, "%sbyte %llu", sep, (unsigned long long)off);
    sep = ", ";
  }
  if (*sep) put(e->message, cap, &used, ": ");
  if (used + 1 < cap) vsnprintf(e->message + used, cap - used, fmt, ap);
  return IC_FAIL;
}

int ic_fail(ic *x, jj_code code, uint64_t off, int place, const char *fmt,
            ...) {
  va_list ap;
  va_start(ap, fmt);
  ic_vfail(x, code, off, place, fmt, ap);
  va_end(ap);
  return IC_FAIL;
}

int ic_nomem(ic *x) {
  return ic_fail(x, JJ_ERR_NOMEM, UINT64_MAX, 0, "out of memory");
}

void ic_note(ic *x, const char *fmt, ...) {
  char msg[512];
  va_list ap;
  x->decisions++;
  if (!x->note) return;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  x->note(x->note_ctx, msg);
}

void ic_utc_note(ic *x, ic_table *t, size_t col, const char *shown) {
  char path[400];
  if (t->cols[col].utc_told) return;
  t->cols[col].utc_told = 1;
  ic_col_path(t, col, path, sizeof path);
  ic_note(x,
          "column %s: %s has no zone, taken as UTC with every zone-less "
          "value of the column (the schema says t; SQLite's datetime() "
          "writes UTC)",
          path, shown);
}

/* "a"."b": the names from the top table down to this column. */
void ic_col_path(const ic_table *t, size_t col, char *out, size_t cap) {
  char shown[JJ_SHOW_CAP];
  size_t used = 0;
  if (t->parent) {
    ic_col_path(t->parent, t->parent_col, out, cap);
    used = strlen(out);
    put(out, cap, &used, ".");
  } else if (cap) {
    out[0] = '\0';
  }
  put(out, cap, &used, "%s", shown_name(&t->cols[col], shown));
}

void ic_example(ic *x, ic_col *col, int k, const char *shown) {
  if (col->ex[k]) return;
  col->ex_row[k] = x->top.row;
  col->ex[k] = malloc(strlen(shown) + 1);
  if (col->ex[k]) strcpy(col->ex[k], shown);
}

/* ---------------------------------------------------------------------- */
/* Kinds                                                                   */
/* ---------------------------------------------------------------------- */

static int is_digit(char ch) { return ch >= '0' && ch <= '9'; }

/* YYYY-MM-DD by shape alone (digits and dashes where they belong). */
static int date_shape(const char *p, size_t len) {
  if (len < 10 || p[4] != '-' || p[7] != '-') return 0;
  for (int i = 0; i < 10; i++)
    if (i != 4 && i != 7 && !is_digit(p[i])) return 0;
  return 1;
}

/* 1 when p[0..len) spells NaN, Infinity or -Infinity (the float column's
** strings in SPEC.md); *out gets the value when out is not NULL. */
int ic_nan_text(const char *p, size_t len, double *out) {
  double v;
  if (len == 3 && !memcmp(p, "NaN", 3))
    v = NAN;
  else if (len == 8 && !memcmp(p, "Infinity", 8))
    v = INFINITY;
  else if (len == 9 && !memcmp(p, "-Infinity", 9))
    v = -INFINITY;
  else
    return 0;
  if (out) *out = v;
  return 1;
}

int ic_big_exact(const char *p, size_t len) {
  char d[400];
  size_t n = 0, z = 0;
  if (len && *p == '-') p++, len--;
  while (len > 1 && *p == '0') p++, len--;
  if (len > sizeof d) return 0; /* beyond 1e400: no double */
  memcpy(d, p, len);
  n = len;
  while (n > 1 && d[n - 1] == '0') n--, z++; /* D = d * 10^z */
  if (n + z > 309) return 0;                 /* >= 1e309 overflows */
  /* halve d while it is even: its odd part stays */
  while ((d[n - 1] - '0') % 2 == 0 && !(n == 1 && d[0] == '0')) {
    int carry = 0;
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {
      int v = carry * 10 + (d[i] - '0');
      d[i] = (char)('0' + v / 2);
      carry = v % 2;
    }
    while (o < n - 1 && d[o] == '0') o++;
    memmove(d, d + o, n - o);
    n -= o;
  }
  if (n > 16) return 0;
  uint64_t odd = 0, lim = UINT64_C(1) << 53;
  for (size_t i = 0; i < n; i++) odd = odd * 10 + (uint64_t)(d[i] - '0');
  for (size_t i = 0; i < z && odd < lim; i++) odd *= 5; /* 10^z = 5^z 2^z */
  return odd < lim; /* odd * 2^k with odd < 2^53 is a double */
}

/* A number token (JSON grammar) as a double for a float column: 1 with *out
** set, 0 when it is not one exactly (an integer that a double cannot hold
** exactly, or a value beyond the range of doubles), -1 on a grammar
** error. */
int ic_num_double(const char *p, size_t len, double *out) {
  int r = jj_num_parse_double(p, len, out);
  if (r == JJ_NUM_SYNTAX) return -1;
  if (r != JJ_NUM_OK) return 0;
  if (fabs(*out) >= 9007199254740992.0 && !memchr(p, '.', len) &&
      !memchr(p, 'e', len) && !memchr(p, 'E', len))
    return ic_big_exact(p, len);
  return 1;
}

int ic_int_exact(int64_t v) {
  if (v >= -(INT64_C(1) << 53) && v <= INT64_C(1) << 53) return 1;
  uint64_t m = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
  while (!(m & 1)) m >>= 1; /* m is not 0 here */
  return m < (UINT64_C(1) << 53);
}

int ic_num_kind(const char *p, size_t len, unsigned *inexact) {
  int64_t v;
  double d;
  switch (jj_num_parse_int64(p, len, &v)) {
    case JJ_NUM_OK:
      if ((v > (INT64_C(1) << 53) || v < -(INT64_C(1) << 53)) &&
          !ic_big_exact(p, len))
        *inexact = 1;
      return K_INT;
    case JJ_NUM_NOT_INTEGER:
      /* only an exponent or a very long number can overflow */
      if ((len > 300 || memchr(p, 'e', len) || memchr(p, 'E', len)) &&
          jj_num_parse_double(p, len, &d) != JJ_NUM_OK)
        return K_HUGE;
      return K_FLOAT;
    case JJ_NUM_RANGE:
      return ic_big_exact(p, len) ? K_BIG : K_BIGX;
    default:
      return -1;
  }
}

/* See infer.h. */
int ic_text_kind(const char *p, size_t len, int booleans) {
  if (date_shape(p, len)) {
    if (len == 10) {
      if (jj_date_ok(p, len) || jj_date_parse(p, len, NULL, NULL) == JJ_OK)
        return K_DATE;
      return K_BADDATE;
    }
    if (p[10] == 'T' || p[10] == ' ') {
      if (jj_timestamp_parse(p, len, NULL, NULL) == JJ_OK) return K_TS;
      if (jj_local_timestamp_parse(p, len, 1, NULL, NULL) == JJ_OK)
        return p[10] == 'T' ? K_LTS : K_LTS_SP;
      return K_BADTS;
    }
    return K_TEXT;
  }
  if (ic_nan_text(p, len, NULL)) return K_NANS;
  if (booleans && ((len == 4 && !memcmp(p, "true", 4)) ||
                   (len == 5 && !memcmp(p, "false", 5))))
    return K_BOOL;
  return K_TEXT;
}
