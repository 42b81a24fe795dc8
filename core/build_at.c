/*
** build_at.c — values with their columns' places (jj_builder_cells_at,
** and one at a time jj_builder_null_at, _int_at, _double_at, _text_at):
** the way a host with fixed columns (a query's, an aggregate's arguments)
** gives its rows.
**
** Once the first row has fixed the types the rows are written with (every
** column typed: build_straight; or the first row's types: build_ahead.c),
** most values of most rows are of the kind their column already holds and
** arrive in the columns' order.  Such a value needs only the checks that
** make it what its column writes, then the writer: no tape entry, no
** fold (its kind is already in the column), no second look at its key;
** and the builder's state that lets it go so is the same for every value
** of a row, so a row given as cells is checked once.  This file gives it
** exactly that.  Any other value (the first row, a
** column out of order, a new kind, a value that does not fit, a key given
** twice, a builder that failed) takes the general way, jj_builder_key_at
** and then the value call of build.c, so the document, the notes and the
** errors are the same whichever way a value went; the quick way only
** decides whether it applies and never fails on its own account.
**
** What the general way does for a value that goes to the writer at once
** (build.c's key_col, the value call, put and build_direct), and the quick
** way does too: the row begun, the column stamped as given in this row
** (not in a row given whole, where each column comes once) and named for
** messages, the value's checks (an integer's exactness for a column that
** may become float; text's UTF-8 and kind; a date by the calendar), the
** value's bytes, the next column expected.  The bytes of a run of values
** go into the writer's buffer through one cursor held in locals: the
** writer's checks of its state and of the row's place are made once for
** the run, its column types read for each value, and its buffer grown
** only when a value would not fit.
*/
#include "build.h"
#include "encode_inline.h"

/* How many columns from col on may take the quick way as a run of cells:
** rows are written as they come, no failure, no nested table or key open,
** col the next column of the row.  0: the general way. */
static inline size_t quick_room(const jj_builder *b, size_t col) {
  if (!(b->straight | b->ahead) || b->failed || b->finished || b->depth ||
      b->col >= 0 || col != b->next_col || col >= b->x.top.n)
    return 0;
  return b->x.top.n - col;
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

/* Whether cell v keeps column c, and as what: the type the writer writes
** it as (0 for null, which fits every column), or -1 when the general way
** gives it.  An integer in an inferred column that may become float is
** looked at: each one beyond 2^53 must be exact as a double. */
static JJ_INLINE int keeps(ic_col *c, const jj_cell *v) {
  switch (v->kind) {
    case JJ_CELL_NULL: /* a null fits every column and folds nothing */
      return 0;
    case JJ_CELL_INT: {
      int64_t i = v->u.i;
      if (!holds(c, JJ_INT, K_INT)) return -1;
      if (!c->forced &&
          (uint64_t)i + (UINT64_C(1) << 53) > UINT64_C(1) << 54 &&
          !ic_int_exact(i))
        c->inexact = 1;
      return JJ_INT;
    }
    case JJ_CELL_DOUBLE:
      return holds(c, JJ_FLOAT, K_FLOAT) ? JJ_FLOAT : -1;
    case JJ_CELL_TEXT: {
      const char *p = v->u.text.p;
      size_t len = v->u.text.len;
      if (!p || len >= SIZE_MAX / 2) return -1;
      /* text, or in an inferred column text of a kind it has held (a
      ** date among dates): written as text either way */
      if (c->type == JJ_TEXT &&
          (c->forced == JJ_TEXT ||
           (!c->forced && holds(c, JJ_TEXT, text_kind(p, len)))))
        return JJ_TEXT;
      /* a date the calendar accepts at once (a valid date is ASCII:
      ** valid UTF-8); another the general way checks */
      if (c->forced == JJ_DATE && c->type == JJ_DATE && jj_date_ok(p, len))
        return JJ_DATE;
      return -1;
    }
    default:
      return -1;
  }
}

/* The writer's buffer as a quick run writes it: a cursor and the end of
** the buffer, in locals, so that a value costs its checks and its bytes.
** The writer sees the run's values when the cursor is put back
** (cursor_commit). */
typedef struct cursor {
  jj_writer *w;
  char *d, *end;
} cursor;

static inline void cursor_take(cursor *r, jj_writer *w) {
  r->w = w;
  r->d = w->out.p + w->out.len;
  r->end = w->out.p + w->out.cap;
}

static inline void cursor_commit(cursor *r, frame *f, size_t col) {
  r->w->out.len = (size_t)(r->d - r->w->out.p);
  f->col = col;
}

/* Room for a value of `need` bytes (less than SIZE_MAX / 2) and, in the
** writer's slack of 8, its separator: 1, or 0 when the buffer cannot grow
** (the general way says so). */
static inline int cursor_room(cursor *r, frame *f, size_t col, size_t need) {
  if (JJ_LIKELY(need + 8 <= (size_t)(r->end - r->d))) return 1;
  cursor_commit(r, f, col);
  if (jj_buf_reserve(&r->w->out, need + 8)) return 0;
  cursor_take(r, r->w);
  return 1;
}

/* The cells v[0..n) of columns col... of the row begun (n within
** quick_room) written at once while each keeps to its column, as build.c's
** key_col, put and build_direct would: the column named for messages, the
** next column expected; with `stamp`, the column stamped as given in this
** row, which a row given whole, each column once, does not need.  The
** number written; *code the writer's failure, if any (the failed cell not
** counted). */
static JJ_INLINE size_t quick_run(jj_builder *b, size_t col,
                                  const jj_cell *v, size_t n, int stamp,
                                  jj_code *code) {
  jj_writer *w = b->w;
  frame *f = &w->stack[w->depth];
  /* the writer's row where the builder's is: else the general way */
  if (!jj_writer_open(w) || f->col != col || n > f->ncols - col) return 0;
  const unsigned char *types = f->lv->types;
  const int64_t rows = f->rows;
  const int top = w->depth == 0;
  uint64_t serial = b->lv[0].serial;
  ic_col *c = &b->x.top.cols[col];
  jj_code failed = JJ_OK;
  size_t named = 0; /* the cell a failure is of */
  cursor r;
  cursor_take(&r, w);
  size_t i = 0;
  for (; i < n; i++, c++) {
    const jj_cell *x = &v[i];
    /* given twice in this row: the general way says so */
    if (stamp && c->stamp == serial) break;
    int t = keeps(c, x);
    if (t < 0 || (t && t != types[col + i])) break;
    size_t need = t == JJ_TEXT ? x->u.text.len + 2 : 32;
    if (!cursor_room(&r, f, col + i, need)) break;
    char *d = separator_at(r.d, col + i, rows, top);
    switch (t) {
      case 0:
        memcpy(d, "null", 4);
        d += 4;
        break;
      case JJ_INT:
        d += jj_num_format_int64(x->u.i, d);
        break;
      case JJ_FLOAT:
        d = put_double(d, x->u.d);
        break;
      case JJ_DATE:
        d = put_date(d, x->u.text.p);
        break;
      default: /* JJ_TEXT */
        if (JJ_LIKELY(copy_plain(d + 1, x->u.text.p, x->u.text.len))) {
          d[0] = '"';
          d[x->u.text.len + 1] = '"';
          d += x->u.text.len + 2;
          break;
        }
        /* text that is not plain ASCII: checked first (its kind above
        ** read only its bytes), then escaped by the writer */
        cursor_commit(&r, f, col + i);
        if (!jj_utf8_valid(x->u.text.p, x->u.text.len, NULL)) goto done;
        if ((failed = jj_writer_text(w, x->u.text.p, x->u.text.len))) {
          named = i;
          goto done;
        }
        cursor_take(&r, w);
        d = r.d;
        break;
    }
    r.d = d;
    if (stamp) c->stamp = serial;
  }
  cursor_commit(&r, f, col + i);
  /* a run passes the buffer on once, at its end */
  if (i && w->sink && w->out.len >= w->flush_at &&
      (failed = jj_writer_flush(w)))
    named = i - 1;
done:
  if (failed) {
    b->x.top.col = col + named;
    b->next_col = col + named + 1;
    *code = build_writer_failed(b);
    return named;
  }
  if (i) {
    b->x.top.col = col + i - 1;
    b->next_col = col + i;
  }
  return i;
}

/* One cell the general way: its key, then its value call. */
static jj_code general(jj_builder *b, size_t col, const jj_cell *v) {
  if (v->kind < JJ_CELL_NULL || v->kind >= JJ_CELL_HOST)
    return build_fail(b, JJ_ERR_USAGE, "a cell of unknown kind %d",
                      (int)v->kind);
  jj_code code = jj_builder_key_at(b, col);
  if (code) return code;
  switch (v->kind) {
    case JJ_CELL_INT:
      return jj_builder_int(b, v->u.i);
    case JJ_CELL_DOUBLE:
      return jj_builder_double(b, v->u.d);
    case JJ_CELL_TEXT:
      return jj_builder_text(b, v->u.text.p, v->u.text.len);
    default:
      return jj_builder_null(b);
  }
}

/* The cells of columns col, col + 1, ... of the current row, each the
** quick way when the state and the value allow, else the general way, up
** to the first JJ_CELL_HOST cell; *given: the cells given before it or
** before a failure. */
static jj_code cells_at(jj_builder *b, size_t col, const jj_cell *cells,
                        size_t n, size_t *given) {
  size_t i = 0;
  jj_code code = JJ_OK;
  while (i < n && cells[i].kind != JJ_CELL_HOST) {
    size_t run = quick_room(b, col + i);
    if (run) {
      if ((code = build_row_begin(b))) break;
      i += quick_run(b, col + i, cells + i, run < n - i ? run : n - i, 1,
                     &code);
      if (code || i == n || cells[i].kind == JJ_CELL_HOST) break;
    }
    /* a value the quick way does not take, and the state after it
    ** looked at again */
    if ((code = general(b, col + i, &cells[i]))) break;
    i++;
  }
  *given = i;
  return code;
}

/* The end of a row whose every value went to the writer at once and
** which has no place on the tape: jj_builder_end_row's and
** build_row_end's work for it. */
static jj_code quick_end(jj_builder *b) {
  ic_table *t = &b->x.top;
  t->in_row = 0;
  t->col = (size_t)-1;
  b->in_row = 0;
  b->rows++;
  b->next_col = 0;
  if (writer_end_row(b->w)) return build_writer_failed(b);
  if (b->o.max_length && writer_length(b->w) > b->o.max_length)
    return build_too_long(b);
  return JJ_OK;
}

jj_code jj_builder_row(jj_builder *b, const jj_cell *cells, size_t n,
                       jj_cell_host host, void *ctx) {
  size_t i = 0, given;
  jj_code code = JJ_OK;
  if (!b) return JJ_ERR_USAGE;
  if (b->failed) return b->failed;
  if (!cells && n) return build_fail(b, JJ_ERR_USAGE, "a row of NULL cells");
  if (b->in_row || b->depth || b->col >= 0)
    return build_fail(b, JJ_ERR_USAGE,
                      "jj_builder_row inside a row or a nested table");
  if (n && quick_room(b, 0) == n) {
    /* the row begun without its place on the tape, which only a value
    ** the general way needs: given to it before the first such value */
    build_row_open(b);
    i = quick_run(b, 0, cells, n, 0, &code);
    if (code) return code;
    if (i == n) return quick_end(b);
    if ((code = build_row_tape(b))) return code;
  }
  while (i < n) {
    if (cells[i].kind != JJ_CELL_HOST) {
      if ((code = cells_at(b, i, cells + i, n - i, &given))) return code;
      i += given;
      continue;
    }
    if (!host)
      return build_fail(b, JJ_ERR_USAGE,
                        "a JJ_CELL_HOST cell without a host callback");
    if ((code = jj_builder_key_at(b, i)) || (code = host(ctx, b, i)))
      return code;
    if (b->col >= 0)
      return build_fail(b, JJ_ERR_USAGE,
                        "the host callback gave no value for column %zu", i);
    i++;
  }
  return jj_builder_end_row(b);
}

/* One cell at its column. */
static jj_code one(jj_builder *b, size_t col, jj_cell cell) {
  size_t given;
  return b ? cells_at(b, col, &cell, 1, &given) : JJ_ERR_USAGE;
}

jj_code jj_builder_null_at(jj_builder *b, size_t col) {
  return one(b, col, (jj_cell){.kind = JJ_CELL_NULL});
}

jj_code jj_builder_int_at(jj_builder *b, size_t col, int64_t v) {
  return one(b, col, (jj_cell){.kind = JJ_CELL_INT, .u.i = v});
}

jj_code jj_builder_double_at(jj_builder *b, size_t col, double v) {
  return one(b, col, (jj_cell){.kind = JJ_CELL_DOUBLE, .u.d = v});
}

jj_code jj_builder_text_at(jj_builder *b, size_t col, const char *p,
                           size_t len) {
  return one(b, col, (jj_cell){.kind = JJ_CELL_TEXT, .u.text = {p, len}});
}
