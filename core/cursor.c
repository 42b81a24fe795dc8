/*
** cursor.c — walking the rows of a document and reading their values.
**
** Moving onto a row scans its structure only: for every value it records
** where the value starts and ends (strings are scanned for their closing
** quote, numbers for their run of number bytes, literals compared, arrays
** and objects skipped), without converting anything and without allocating.
** An accessor converts and checks one value when it is asked for, so a
** column that is never read costs one scan of its bytes.
**
** Finding a row's values is rowscan.c's job (jj_row_scan).
**
** Memory: a cursor owns its span array (one entry per column, allocated in
** jj_cursor_new) and a chain of scratch chunks for decoded text and bytes;
** the chunks are reused from row to row and never resized, so everything
** handed out for a row stays put until the cursor moves.  jj_cursor_free
** releases it all.
*/
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doc.h"

#define JJ_CHUNK_MIN 4096

struct jj_chunk_data {
  jj_chunk head;
  char data[];
};

/* ------------------------------------------------------------------ */
/* Errors                                                              */
/* ------------------------------------------------------------------ */

/* Fail at byte `at` of row `row`, column `col` (col >= ncol: no column),
** with the document's path for nested tables. */
jj_code jj_cursor_fail(const jj_cursor *c, jj_error *err, jj_code code,
                       int64_t row, size_t col, const char *at, const char *fmt,
                       ...) {
  const jj_doc *d = c->doc;
  int has_col = col < c->ncol;
  jj_where w = {row,
                has_col ? (int)col : -1,
                has_col ? c->cols[col].name : NULL,
                at ? (size_t)(at - d->base) : JJ_NO_OFFSET,
                d->path,
                d->outer_row,
                d->outer_column};
  va_list ap;
  va_start(ap, fmt);
  jj_vfail(err, code, &w, fmt, ap);
  va_end(ap);
  return code;
}

/* Length of the token at p for a message: up to the next delimiter. */
static size_t token_len(const char *p, const char *end) {
  const char *s = p;
  if (p < end && strchr(",]}[{\"", *p)) return 1;
  while (p < end && !strchr(",]}[{\" \t\r\n", *p) && p - s < 40) p++;
  return (size_t)(p - s);
}

/* "expected <what>, found <token>", or the end of the input. */
jj_code jj_cursor_expected(const jj_cursor *c, jj_error *err, int64_t row,
                           size_t col, const char *p, const char *what) {
  char s[JJ_SHOW_CAP];
  const char *end = c->doc->end;
  if (p >= end)
    return jj_cursor_fail(c, err, JJ_ERR_SYNTAX, row, col, p,
                  "unexpected end of input (expected %s)", what);
  return jj_cursor_fail(c, err, JJ_ERR_SYNTAX, row, col, p, "expected %s, found %s",
                what, jj_show(s, sizeof s, p, token_len(p, end), 1));
}

/* ------------------------------------------------------------------ */
/* Creating, scratch memory                                            */
/* ------------------------------------------------------------------ */

/* The caller frees the cursor with jj_cursor_free (before the doc). */
jj_cursor *jj_cursor_new(jj_doc *doc, jj_error *err) {
  jj_error_clear(err);
  if (!doc) {
    jj_fail(err, JJ_ERR_USAGE, NULL, "jj_cursor_new needs a document");
    return NULL;
  }
  jj_cursor *c = calloc(1, sizeof *c);
  if (c) c->v = calloc(doc->schema->n, sizeof *c->v);
  if (!c || !c->v) {
    free(c);
    jj_fail(err, JJ_ERR_NOMEM, NULL, "out of memory");
    return NULL;
  }
  c->doc = doc;
  c->ncol = doc->schema->n;
  c->cols = doc->schema->cols;
  c->pos = doc->rows;
  c->state = JJ_CUR_BEFORE;
  return c;
}

/* Frees the spans, decode cache and scratch chunks.  NULL is a no-op. */
void jj_cursor_free(jj_cursor *c) {
  if (!c) return;
  for (jj_chunk *k = c->chunks, *next; k; k = next) {
    next = k->next;
    free(k);
  }
  free(c->dec);
  free(c->v);
  jj_buf_free(&c->object);
  free(c);
}

/* The cursor leaves its row: values handed out for it expire. */
static void moved(jj_cursor *c) {
  c->gen++;
  for (jj_chunk *k = c->chunks; k; k = k->next) k->used = 0;
  c->cur = c->chunks;
}

/* n bytes of scratch memory valid until the cursor moves, or NULL.  A new
** chunk is appended at the end of the chain (freed by jj_cursor_free). */
static char *scratch(jj_cursor *c, size_t n) {
  jj_chunk *k = c->cur, *last = NULL;
  while (k && k->cap - k->used < n) {
    last = k;
    k = k->next;
  }
  if (!k) {
    size_t cap = JJ_CHUNK_MIN;
    while (last && last->next) last = last->next;
    if (last && last->cap <= SIZE_MAX / 4) cap = last->cap * 2;
    if (cap < n) cap = n;
    if (cap > SIZE_MAX - sizeof(struct jj_chunk_data)) return NULL;
    struct jj_chunk_data *m = malloc(sizeof *m + cap);
    if (!m) return NULL;
    k = &m->head;
    k->next = NULL;
    k->cap = cap;
    k->used = 0;
    if (last) last->next = k;
    else c->chunks = k;
  }
  c->cur = k;
  char *r = ((struct jj_chunk_data *)(void *)k)->data + k->used;
  k->used += n;
  return r;
}

/* ------------------------------------------------------------------ */
/* Rows                                                                */
/* ------------------------------------------------------------------ */

/* The cursor is at the ']' closing the rows: check what follows and the
** header's count, then stand at the end.  Returns 0, or -1 with *err. */
static int finish(jj_cursor *c, const char *p, jj_error *err) {
  jj_doc *d = c->doc;
  const char *end = d->end;
  p++;
  if (d->own_schema) { /* the top level ends with '}' and whitespace */
    p = jj_ws(p, end);
    if (p >= end || *p != '}') {
      c->state = JJ_CUR_LOST;
      return jj_cursor_expected(c, err, 0, c->ncol, p, "'}' after the rows"), -1;
    }
    p = jj_ws(p + 1, end);
  }
  if (p != end) {
    c->state = JJ_CUR_LOST;
    return jj_cursor_fail(c, err, JJ_ERR_SYNTAX, 0, c->ncol, p,
                  "unexpected data after the document"), -1;
  }
  if (d->count >= 0 && d->count != c->row) {
    jj_where w = {0, -1, NULL, d->count_at, NULL, 0, -1};
    c->state = JJ_CUR_LOST;
    return jj_fail(err, JJ_ERR_COUNT, &w,
                   "the header says \"count\":%lld but there %s %lld row%s",
                   (long long)d->count, c->row == 1 ? "is" : "are",
                   (long long)c->row, c->row == 1 ? "" : "s"), -1;
  }
  d->total = c->row;
  c->state = JJ_CUR_END;
  return 0;
}

/* Record the '[' of the cursor's new row in the document's index when it
** is the first row past the frontier (inline: once per row on a first
** pass). */
static inline int index_row(jj_cursor *c, const char *open, jj_error *err) {
  jj_doc *d = c->doc;
  if ((uint64_t)c->row <= d->nindex) return 0;
  if (JJ_UNLIKELY(d->nindex == d->icap)) {
    size_t cap = d->icap ? d->icap * 2 : 1024;
    size_t *ix = cap <= SIZE_MAX / sizeof *ix ? realloc(d->index, cap * sizeof *ix) : NULL;
    if (!ix) return jj_fail(err, JJ_ERR_NOMEM, NULL, "out of memory"), -1;
    d->index = ix;
    d->icap = cap;
  }
  d->index[d->nindex++] = (size_t)(open - d->base);
  return 0;
}

/* Step from the current row (or the start) to the next one. */
int jj_cursor_next(jj_cursor *c, jj_error *err) {
  if (!c) return jj_fail(err, JJ_ERR_USAGE, NULL, "no cursor"), -1;
  jj_doc *d = c->doc;
  const char *p = c->pos, *const end = d->end;
  if (c->state == JJ_CUR_END) return 0;
  moved(c);
  if (JJ_LIKELY(c->row > 0)) {
    if (JJ_UNLIKELY(p >= end || *p != ',')) {
      p = jj_ws(p, end);
      if (p < end && *p == ']') return finish(c, p, err);
      if (p >= end || *p != ',') {
        c->state = JJ_CUR_LOST;
        char s[64];
        snprintf(s, sizeof s, "',' or ']' after row %lld", (long long)c->row);
        return jj_cursor_expected(c, err, 0, c->ncol, p, s), -1;
      }
    }
    p++;
    if (JJ_LIKELY(p < end && *p == '\n')) p++; /* the canonical ",\n" */
    p = jj_ws(p, end);
  } else {
    p = jj_ws(p, end);
    if (p < end && *p == ']') return finish(c, p, err);
  }
  if (JJ_UNLIKELY(p >= end || *p != '[')) {
    char s[JJ_SHOW_CAP];
    c->state = JJ_CUR_LOST;
    if (p < end && *p && strchr("\"{-0123456789tfn", *p)) {
      const char *bad = p, *why = "";
      jj_code code = JJ_ERR_SYNTAX;
      const char *q = jj_json_skip(p, end, d->max_depth, &bad, &code, &why);
      return jj_cursor_fail(c, err, JJ_ERR_ROW, c->row + 1, c->ncol, p,
                    "a row must be an array, found %s",
                    jj_show_value(s, p, q ? (size_t)(q - p) : token_len(p, end))), -1;
    }
    return jj_cursor_expected(c, err, c->row + 1, c->ncol, p, "a row"), -1;
  }
  if (jj_row_scan(c, p, c->row + 1, err) != JJ_OK) {
    c->state = JJ_CUR_LOST;
    return -1;
  }
  c->row++;
  c->state = JJ_CUR_ROW;
  if (index_row(c, p, err)) {
    c->state = JJ_CUR_LOST;
    c->row--;
    return -1;
  }
  return 1;
}

/* Go to row `row`: straight there when the index knows it, else from the
** last known row forward, one row's structure at a time.  row < 1 rewinds
** to before the first row (and returns 0, there is no row 0). */
int jj_cursor_seek(jj_cursor *c, int64_t row, jj_error *err) {
  if (!c) return jj_fail(err, JJ_ERR_USAGE, NULL, "no cursor"), -1;
  jj_doc *d = c->doc;
  if (row < 1 || (d->total >= 0 && row > d->total)) {
    moved(c);
    c->row = row < 1 ? 0 : d->total;
    c->pos = d->rows;
    c->state = row < 1 ? JJ_CUR_BEFORE : JJ_CUR_END;
    return 0;
  }
  if ((uint64_t)row <= d->nindex) {
    moved(c);
    if (jj_row_scan(c, d->base + d->index[row - 1], row, err) != JJ_OK) {
      c->row = 0; /* cannot happen: the row was scanned before */
      c->pos = d->rows;
      c->state = JJ_CUR_LOST;
      return -1;
    }
    c->row = row;
    c->state = JJ_CUR_ROW;
    return 1;
  }
  if (d->nindex > 0 && (uint64_t)c->row < d->nindex &&
      jj_cursor_seek(c, (int64_t)d->nindex, err) < 0)
    return -1;
  while (c->row < row || c->state != JJ_CUR_ROW) {
    int rc = jj_cursor_next(c, err);
    if (rc <= 0) return rc;
  }
  return 1;
}

/* Where the cursor is, and what it reads. */
int64_t jj_cursor_row(const jj_cursor *c) { return c ? c->row : 0; }

jj_doc *jj_cursor_doc(const jj_cursor *c) { return c ? c->doc : NULL; }

/* ------------------------------------------------------------------ */
/* Values                                                              */
/* ------------------------------------------------------------------ */

/* The usage error for a call that cannot read this column now. */
static int misuse(const jj_cursor *c, size_t col, const char *fn,
                  jj_error *err) {
  if (!c) return jj_fail(err, JJ_ERR_USAGE, NULL, "%s: no cursor", fn), -1;
  if (c->state != JJ_CUR_ROW)
    return jj_fail(err, JJ_ERR_USAGE, NULL, "%s: the cursor is not on a row (%s)", fn,
                   c->state == JJ_CUR_BEFORE ? "call jj_cursor_next first"
                   : c->state == JJ_CUR_END  ? "it is past the last row"
                                             : "its last move failed"), -1;
  if (col >= c->ncol)
    return jj_cursor_fail(c, err, JJ_ERR_USAGE, c->row, c->ncol, NULL,
                  "%s: column index %zu is out of range (%zu columns)", fn, col,
                  c->ncol), -1;
  return jj_cursor_fail(c, err, JJ_ERR_USAGE, c->row, col, NULL,
                "%s cannot read %s column", fn, jj_type_name(c->cols[col].type)), -1;
}

/* The span of column col when the cursor is on a row and the column's type
** is one of t1..t3; NULL after a usage error otherwise. */
static inline const jj_span *value(jj_cursor *c, size_t col, jj_type t1,
                                   jj_type t2, jj_type t3, const char *fn,
                                   jj_error *err) {
  if (JJ_LIKELY(c && c->state == JJ_CUR_ROW && col < c->ncol)) {
    jj_type t = c->cols[col].type;
    if (JJ_LIKELY(t == t1 || t == t2 || t == t3)) return &c->v[col];
  }
  misuse(c, col, fn, err);
  return NULL;
}

/* "expected <what the column holds>, found <value>" for a value of the
** wrong JSON kind. */
static int wrong_kind(jj_cursor *c, size_t col, const jj_span *s, jj_error *err) {
  char shown[JJ_SHOW_CAP];
  return jj_cursor_fail(c, err, JJ_ERR_TYPE, c->row, col, s->p, "expected %s, found %s",
                jj_type_expect(c->cols[col].type),
                jj_show_value(shown, s->p, JJ_SPAN_LEN(*s))), -1;
}

/* Decode string value s (it has escapes) into scratch memory, checked,
** cached for the rest of the row.  -1 on error. */
static int decoded(jj_cursor *c, size_t col, const jj_span *s, const char **p,
                   size_t *len, jj_error *err) {
  size_t n = JJ_SPAN_LEN(*s) - 2;
  if (!c->dec && !(c->dec = calloc(c->ncol, sizeof *c->dec)))
    return jj_fail(err, JJ_ERR_NOMEM, NULL, "out of memory"), -1;
  jj_decoded *k = &c->dec[col];
  if (k->gen == c->gen && k->p) {
    *p = k->p;
    *len = k->len;
    return 0;
  }
  char *out = scratch(c, n ? n : 1), shown[JJ_SHOW_CAP];
  if (!out) return jj_fail(err, JJ_ERR_NOMEM, NULL, "out of memory"), -1;
  size_t bad = 0;
  jj_code code = JJ_ERR_SYNTAX;
  const char *why = "";
  size_t m = jj_string_decode(s->p + 1, n, out, &bad, &code, &why);
  if (m == (size_t)-1)
    return jj_cursor_fail(c, err, code, c->row, col, s->p, "%s is not %s (%s)",
                  jj_show(shown, sizeof shown, s->p + 1, n, 1),
                  code == JJ_ERR_UTF8 ? "valid UTF-8" : "a valid JSON string",
                  why), -1;
  *k = (jj_decoded){out, m, c->gen};
  *p = out;
  *len = m;
  return 0;
}

/* The contents of string value s: in place when it has no escapes (not
** yet UTF-8 checked: *checked = 0, or 1 when the scan saw only ASCII), else
** decoded (*checked = 1).  -1 on error. */
static inline int contents(jj_cursor *c, size_t col, const jj_span *s,
                           const char **p, size_t *len, int *checked,
                           jj_error *err) {
  if (JJ_LIKELY(!(s->n & JJ_SPAN_ESC))) {
    *p = s->p + 1;
    *len = JJ_SPAN_LEN(*s) - 2;
    *checked = !(s->n & JJ_SPAN_HIGH);
    return 0;
  }
  *checked = 1;
  return decoded(c, col, s, p, len, err);
}

/* 1 null, 0 not null, -1 not on a row or no such column. */
int jj_cursor_is_null(jj_cursor *c, size_t col) {
  if (!c || c->state != JJ_CUR_ROW || col >= c->ncol) return -1;
  return *c->v[col].p == 'n';
}

/* The value's bytes as written, any column type; null gives 0. */
int jj_cursor_raw(jj_cursor *c, size_t col, const char **p, size_t *len,
                  jj_error *err) {
  if (!c || c->state != JJ_CUR_ROW || col >= c->ncol)
    return misuse(c, col, "jj_cursor_raw", err);
  const jj_span *s = &c->v[col];
  if (*s->p == 'n') return 0;
  *p = s->p;
  *len = JJ_SPAN_LEN(*s);
  return 1;
}

/* The common integer, inline: 1 to 18 digits with no leading zero, maybe a
** '-'.  Such a number always fits int64 and reads the same as
** jj_num_parse_int64 reads it; anything else returns 0 (*out untouched)
** and goes to the full parser.  Up to 8 digits are one 8-byte word ending
** with the number (bytes before it, from lo on, may be read), so their
** varying count costs no mispredicted loop exit. */
static inline int short_int(const char *p, size_t n, const char *lo, int64_t *out) {
  size_t neg = *p == '-';
  const char *d = p + neg, *e = p + n;
  size_t nd = n - neg;
  if (nd == 0 || nd > 18 || (*d == '0' && nd > 1)) return 0;
  uint64_t v = 0;
#if JJ_SWAR
  if (nd <= 8 && e - lo >= 8) {
    const uint64_t keep = ~UINT64_C(0) << (8 * (8 - nd));
    memcpy(&v, e - 8, 8);
    v = (v & keep) | (UINT64_C(0x3030303030303030) & ~keep); /* '0'-padded */
    if (!jj_num_is_8digits(v)) return 0;
    v = jj_num_8digits(v);
    *out = neg ? -(int64_t)v : (int64_t)v;
    return 1;
  }
#else
  (void)lo;
#endif
  for (; d < e; d++) {
    unsigned k = (unsigned)(unsigned char)*d - '0';
    if (k > 9) return 0;
    v = v * 10 + k;
  }
  *out = neg ? -(int64_t)v : (int64_t)v;
  return 1;
}

/* The error of a number the parsers refused with code r (num.h): broken
** grammar is JJ_ERR_SYNTAX; a fraction in an integer column or a value out
** of range (`out_of_range` says which range) is JJ_ERR_RANGE.  Returns -1. */
static int number_fail(jj_cursor *c, size_t col, const jj_span *s, int r,
                       const char *out_of_range, jj_error *err) {
  char shown[JJ_SHOW_CAP];
  jj_show(shown, sizeof shown, s->p, JJ_SPAN_LEN(*s), 0);
  if (r == JJ_NUM_NOT_INTEGER)
    jj_cursor_fail(c, err, JJ_ERR_RANGE, c->row, col, s->p,
                   "%s is not an integer", shown);
  else if (r == JJ_NUM_RANGE)
    jj_cursor_fail(c, err, JJ_ERR_RANGE, c->row, col, s->p, "%s %s", shown,
                   out_of_range);
  else
    jj_cursor_fail(c, err, JJ_ERR_SYNTAX, c->row, col, s->p,
                   "%s is not a valid number", shown);
  return -1;
}

/* A JSON integer that fits int64; fractions, exponents and overflow are
** JJ_ERR_RANGE, broken number grammar JJ_ERR_SYNTAX. */
int jj_cursor_int(jj_cursor *c, size_t col, int64_t *out, jj_error *err) {
  const jj_span *s = value(c, col, JJ_INT, JJ_INT, JJ_INT, "jj_cursor_int", err);
  if (!s) return -1;
  char ch = *s->p;
  if (JJ_LIKELY((ch >= '0' && ch <= '9') || ch == '-')) {
    size_t n = JJ_SPAN_LEN(*s);
    if (JJ_LIKELY(short_int(s->p, n, c->doc->base, out))) return 1;
    int r = jj_num_parse_int64(s->p, n, out);
    if (JJ_LIKELY(r == JJ_NUM_OK)) return 1;
    return number_fail(c, col, s, r, "does not fit a 64-bit integer", err);
  }
  if (ch == 'n') return 0;
  return wrong_kind(c, col, s, err);
}

/* Any JSON number, correctly rounded, or the strings "NaN", "Infinity",
** "-Infinity"; overflow to infinity is JJ_ERR_RANGE. */
int jj_cursor_double(jj_cursor *c, size_t col, double *out, jj_error *err) {
  const jj_span *s = value(c, col, JJ_FLOAT, JJ_FLOAT, JJ_FLOAT, "jj_cursor_double", err);
  if (!s) return -1;
  char ch = *s->p;
  if (JJ_LIKELY((ch >= '0' && ch <= '9') || ch == '-')) {
    size_t n = JJ_SPAN_LEN(*s);
    if (JJ_LIKELY(jj_num_short_double_in(s->p, n, c->doc->base, c->doc->end, out))) return 1;
    int r = jj_num_parse_double(s->p, n, out);
    if (JJ_LIKELY(r == JJ_NUM_OK)) return 1;
    return number_fail(c, col, s, r, "is out of range for a double", err);
  }
  if (ch == '"') {
    const char *p;
    size_t len;
    int checked;
    if (contents(c, col, s, &p, &len, &checked, err)) return -1;
    if (len == 3 && memcmp(p, "NaN", 3) == 0) *out = NAN;
    else if (len == 8 && memcmp(p, "Infinity", 8) == 0) *out = INFINITY;
    else if (len == 9 && memcmp(p, "-Infinity", 9) == 0) *out = -INFINITY;
    else return wrong_kind(c, col, s, err);
    return 1;
  }
  if (ch == 'n') return 0;
  return wrong_kind(c, col, s, err);
}

/* true or false (checked literally when the row was scanned). */
int jj_cursor_bool(jj_cursor *c, size_t col, int *out, jj_error *err) {
  const jj_span *s = value(c, col, JJ_BOOL, JJ_BOOL, JJ_BOOL, "jj_cursor_bool", err);
  if (!s) return -1;
  switch (*s->p) {
    case 't': *out = 1; return 1;
    case 'f': *out = 0; return 1;
    case 'n': return 0;
  }
  return wrong_kind(c, col, s, err);
}

/* The contents of a string value of a text, date or timestamp column t
** (see contents): 1, 0 for null, -1 for another kind of value or bad
** contents. */
static inline int string_value(jj_cursor *c, size_t col, const jj_span *s,
                               const char **q, size_t *n, int *checked,
                               jj_error *err) {
  if (JJ_UNLIKELY(*s->p != '"')) {
    if (*s->p == 'n') return 0;
    wrong_kind(c, col, s, err);
    return -1; /* spelled out, not wrong_kind's result, so that gcc sees that
               ** q and n are set whenever 1 is returned */
  }
  return contents(c, col, s, q, n, checked, err) ? -1 : 1;
}

/* Check a date or timestamp's text, the calendar's message prefixed with
** the place. */
static int check_calendar(jj_cursor *c, size_t col, const jj_span *s, jj_type t,
                          const char *p, size_t len, int32_t *days,
                          jj_timestamp *ts, jj_error *err) {
  jj_error e;
  jj_code code = t == JJ_DATE ? jj_date_parse(p, len, days, &e)
                              : jj_timestamp_parse(p, len, ts, &e);
  if (JJ_LIKELY(code == JJ_OK)) return 0;
  return jj_cursor_fail(c, err, code, c->row, col, s->p, "%s", e.message), -1;
}

/* Text of an s, d or t column: zero-copy without escapes (UTF-8 checked
** for s, the calendar for d and t), else decoded into scratch memory. */
int jj_cursor_text(jj_cursor *c, size_t col, const char **p, size_t *len,
                   jj_error *err) {
  const jj_span *s = value(c, col, JJ_TEXT, JJ_DATE, JJ_TIMESTAMP, "jj_cursor_text", err);
  if (!s) return -1;
  jj_type t = c->cols[col].type;
  const char *q;
  size_t n;
  int checked, r = string_value(c, col, s, &q, &n, &checked, err);
  if (r <= 0) return r;
  if (t == JJ_TEXT) {
    if (!checked && JJ_UNLIKELY(!jj_utf8_valid(q, n, NULL))) {
      char shown[JJ_SHOW_CAP];
      return jj_cursor_fail(c, err, JJ_ERR_UTF8, c->row, col, s->p, "%s is not valid UTF-8",
                    jj_show(shown, sizeof shown, q, n, 1)), -1;
    }
  } else if (t != JJ_DATE || !jj_date_ok(q, n)) {
    jj_timestamp ts;
    int32_t days;
    if (check_calendar(c, col, s, t, q, n, &days, &ts, err)) return -1;
  }
  *p = q;
  *len = n;
  return 1;
}

/* Shared by jj_cursor_date and jj_cursor_timestamp. */
static int calendar(jj_cursor *c, size_t col, jj_type t, int32_t *days,
                    jj_timestamp *ts, jj_error *err) {
  const jj_span *s = value(c, col, t, t, t,
                           t == JJ_DATE ? "jj_cursor_date" : "jj_cursor_timestamp", err);
  if (!s) return -1;
  const char *q;
  size_t n;
  int checked, r = string_value(c, col, s, &q, &n, &checked, err);
  if (r <= 0) return r;
  return check_calendar(c, col, s, t, q, n, days, ts, err) ? -1 : 1;
}

/* Days since 1970-01-01 of a checked date. */
int jj_cursor_date(jj_cursor *c, size_t col, int32_t *days, jj_error *err) {
  return calendar(c, col, JJ_DATE, days, NULL, err);
}

/* The instant and written zone of a checked timestamp. */
int jj_cursor_timestamp(jj_cursor *c, size_t col, jj_timestamp *out,
                        jj_error *err) {
  return calendar(c, col, JJ_TIMESTAMP, NULL, out, err);
}

/* Decoded base64 in scratch memory (valid until the cursor moves), cached
** for the rest of the row. */
int jj_cursor_bytes(jj_cursor *c, size_t col, const unsigned char **p,
                    size_t *len, jj_error *err) {
  const jj_span *s = value(c, col, JJ_BYTES, JJ_BYTES, JJ_BYTES, "jj_cursor_bytes", err);
  if (!s) return -1;
  if (*s->p != '"') {
    if (*s->p == 'n') return 0;
    return wrong_kind(c, col, s, err);
  }
  if (c->dec && c->dec[col].gen == c->gen && c->dec[col].p) {
    *p = (const unsigned char *)c->dec[col].p;
    *len = c->dec[col].len;
    return 1;
  }
  const char *q;
  size_t n, bad = 0;
  int checked;
  const char *why = "";
  if (contents(c, col, s, &q, &n, &checked, err)) return -1;
  unsigned char *out = (unsigned char *)scratch(c, n / 4 * 3 + 1);
  if (!out || (!c->dec && !(c->dec = calloc(c->ncol, sizeof *c->dec))))
    return jj_fail(err, JJ_ERR_NOMEM, NULL, "out of memory"), -1;
  size_t m = jj_base64_decode(q, n, out, &bad, &why);
  if (m == (size_t)-1) {
    char shown[JJ_SHOW_CAP];
    return jj_cursor_fail(c, err, JJ_ERR_BASE64, c->row, col, s->p,
                  "%s is not valid base64 (%s)",
                  jj_show(shown, sizeof shown, q, n, 1), why), -1;
  }
  c->dec[col] = (jj_decoded){(const char *)out, m, c->gen};
  *p = out;
  *len = m;
  return 1;
}

/* A nested table value as a document borrowing the parent's bytes and
** nested schema; the caller frees it with jj_doc_free (before the parent).
** Its errors carry the path to it. */
int jj_cursor_table(jj_cursor *c, size_t col, jj_doc **out, jj_error *err) {
  const jj_span *s = value(c, col, JJ_TABLE, JJ_TABLE, JJ_TABLE, "jj_cursor_table", err);
  if (!s) return -1;
  if (*s->p != '[') {
    if (*s->p == 'n') return 0;
    return wrong_kind(c, col, s, err);
  }
  const jj_doc *d = c->doc;
  const jj_col *k = &c->cols[col];
  size_t plen = d->path ? strlen(d->path) : 0, cap = plen + k->len + 48;
  jj_doc *t = calloc(1, sizeof *t);
  char *path = malloc(cap);
  if (!t || !path) {
    free(t);
    free(path);
    return jj_fail(err, JJ_ERR_NOMEM, NULL, "out of memory"), -1;
  }
  snprintf(path, cap, "%srow %lld, column \"%s\", ", d->path ? d->path : "",
           (long long)c->row, k->name);
  t->base = d->base;
  t->begin = s->p;
  t->end = s->p + JJ_SPAN_LEN(*s);
  t->schema = k->table;
  t->rows = s->p + 1;
  t->count = -1;
  t->count_at = JJ_NO_OFFSET;
  t->max_depth = d->max_depth > 2 ? d->max_depth - 2 : 0;
  t->portable = d->portable;
  t->total = -1;
  t->path = path;
  t->outer_row = d->path ? d->outer_row : c->row;
  t->outer_column = d->path ? d->outer_column : (int)col;
  *out = t;
  return 1;
}
