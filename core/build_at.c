/*
** build_at.c — a value with its column's place in one call
** (jj_builder_null_at, _int_at, _double_at, _text_at): the way a host with
** fixed columns (a query's, an aggregate's arguments) gives its rows.
**
** Once the first row has fixed the types the rows are written with (every
** column typed: build_straight; or the first row's types: build_ahead.c),
** most values of most rows are of the kind their column already holds and
** arrive in the columns' order.  Such a value needs only the checks that
** make it what its column writes, then the writer: no tape entry, no
** fold (its kind is already in the column), no second look at its key.
** This file gives it exactly that.  Any other value (the first row, a
** column out of order, a new kind, a value that does not fit, a key given
** twice, a builder that failed) takes the general way, jj_builder_key_at
** and then the value call of build.c, so the document, the notes and the
** errors are the same whichever way a value went; the quick way only
** decides whether it applies and never fails on its own account.
**
** What the general way does for a value that goes to the writer at once
** (build.c's key_col, the value call, put and build_direct), and the quick
** way does too: the row begun, the column stamped as given in this row
** and named for messages, the value's checks (an integer's exactness for a
** column that may become float; text's UTF-8 and kind; a date by the
** calendar), the writer's call, the next column expected.
*/
#include "build.h"

/* Column col of the top table when its value may take the quick way:
** rows are written as they come, no failure, no nested table or key
** open, col the next column of the row and not given in it yet.  NULL
** otherwise (the general way). */
static inline ic_col *quick_col(jj_builder *b, size_t col) {
  if (!(b->straight | b->ahead) || b->failed || b->finished || b->depth ||
      b->col >= 0 || col != b->next_col || col >= b->x.top.n)
    return NULL;
  ic_col *c = &b->x.top.cols[col];
  /* given twice in this row: the general way says so */
  if (b->in_row && c->stamp == b->lv[0].serial) return NULL;
  return c;
}

/* The key's part of a quick value (build.c's key_col and put): the row
** begun, the column stamped and named, the next column expected. */
static inline void quick_key(jj_builder *b, ic_col *c, size_t col) {
  if (!b->in_row) build_row_begin(b);
  c->stamp = b->lv[0].serial;
  c->seen = 1;
  b->x.top.col = col;
  b->next_col = col + 1;
}

/* The writer's answer as the builder's. */
static inline jj_code written(jj_builder *b, jj_code code) {
  return code ? build_writer_failed(b) : JJ_OK;
}

/* Whether a value of kind k (K_*) keeps column c to type t: the column is
** written as t, and either the schema makes it t or it has held a value of
** kind k already (so the value changes nothing the types are decided
** from). */
static inline int holds(const ic_col *c, jj_type t, int k) {
  return c->type == t &&
         (c->forced ? c->forced == t : (c->kinds >> k) & 1u);
}

/* ic_text_kind(p, len, 0) without its call for the usual text: only
** text that begins with a digit (a date, a timestamp), 'N' (NaN), 'I'
** (Infinity) or '-' (-Infinity) is ever another kind than K_TEXT. */
static inline int text_kind(const char *p, size_t len) {
  unsigned char c = len ? (unsigned char)p[0] : '0';
  if ((c < '0' || c > '9') && c != 'N' && c != 'I' && c != '-') return K_TEXT;
  return ic_text_kind(p, len, 0);
}

jj_code jj_builder_null_at(jj_builder *b, size_t col) {
  ic_col *c = b ? quick_col(b, col) : NULL;
  if (c) { /* a null fits every column and folds nothing */
    quick_key(b, c, col);
    return written(b, jj_writer_null(b->w));
  }
  jj_code code = jj_builder_key_at(b, col);
  return code ? code : jj_builder_null(b);
}

jj_code jj_builder_int_at(jj_builder *b, size_t col, int64_t v) {
  ic_col *c = b ? quick_col(b, col) : NULL;
  if (c && holds(c, JJ_INT, K_INT)) {
    /* an inferred column is float at the end only when every integer is
    ** exact as a double: each one beyond 2^53 is looked at */
    if (!c->forced && (uint64_t)v + (UINT64_C(1) << 53) > UINT64_C(1) << 54 &&
        !ic_int_exact(v))
      c->inexact = 1;
    quick_key(b, c, col);
    return written(b, jj_writer_int(b->w, v));
  }
  jj_code code = jj_builder_key_at(b, col);
  return code ? code : jj_builder_int(b, v);
}

jj_code jj_builder_double_at(jj_builder *b, size_t col, double v) {
  ic_col *c = b ? quick_col(b, col) : NULL;
  if (c && holds(c, JJ_FLOAT, K_FLOAT)) {
    quick_key(b, c, col);
    return written(b, jj_writer_double(b->w, v));
  }
  jj_code code = jj_builder_key_at(b, col);
  return code ? code : jj_builder_double(b, v);
}

jj_code jj_builder_text_at(jj_builder *b, size_t col, const char *p,
                           size_t len) {
  ic_col *c = b && p ? quick_col(b, col) : NULL;
  if (c && c->type == JJ_TEXT &&
      (c->forced == JJ_TEXT ||
       (!c->forced && holds(c, JJ_TEXT, text_kind(p, len))))) {
    /* text, or in an inferred column text of a kind it has held (a date
    ** among dates): written as text either way.  Plain ASCII is valid
    ** UTF-8, checked as it is copied; other text is checked first (its
    ** kind above read only its bytes) */
    int code = jj_writer_text_plain(b->w, p, len);
    if (code >= 0 || jj_utf8_valid(p, len, NULL)) {
      quick_key(b, c, col);
      return written(b, code >= 0 ? (jj_code)code : jj_writer_text(b->w, p, len));
    }
  }
  if (c && c->forced == JJ_DATE && c->type == JJ_DATE) {
    /* a date the calendar accepts at once, checked as it is written (a
    ** valid date is ASCII: valid UTF-8); another the general way checks */
    int code = jj_writer_date_plain(b->w, p, len);
    if (code >= 0) {
      quick_key(b, c, col);
      return written(b, (jj_code)code);
    }
  }
  jj_code code = jj_builder_key_at(b, col);
  return code ? code : jj_builder_text(b, p, len);
}
