/*
** writer.c — jj_writer: values in, canonical jalapenojson out.
**
** The output is exactly the canonical layout, byte for byte:
**
**   {"jalapenojson":1,"columns":["id","tags"],"types":["i",{"columns":
**   ["t"],"types":["s"]}],"meta":{"by":"x"},"rows":[
**   [1,[["a"],["b"]]],
**   [2,null]
**   ]}
**
** (the header is one line; it is wrapped here only to fit).  The header is
** written with the first value, so jj_writer_set_meta can come after
** jj_writer_new.  Top-level rows are separated by ",\n", nested rows by ",".
**
** Speed: every value reserves its worst-case size once, then writes
** straight into the buffer (no per-byte bounds checks).  The common case of
** a value is inline (writer.h): the column types are cached in flat arrays
** (a `level` per schema), the room check is one comparison, and the
** uncommon cases (header not written, dead writer, wrong kind, buffer
** full) go to one out-of-line function here that does the full checks in
** their usual order.  The values themselves are encode.c's; copying from
** a cursor is copy.c's.
**
** Nesting: a stack of frames, one per open table (frame 0 is the document).
** A frame knows its schema, how many values the current row has, and how
** many rows ended.  jj_writer_begin_table pushes, jj_writer_end_table pops.
**
** Errors: the first error is kept in w->err and the writer is dead: every
** later call returns the same code.  Places are named like the reader's:
**   row 5, column "joined": "2023-02-30" is not a date (...)
**   row 3, column "items", row 2, column "sku": "\xff" is not valid UTF-8
**
** Memory: the writer owns its buffer and the meta copy; jj_writer_free
** releases them; jj_writer_take hands the buffer to the caller (jj_free).
** jj_writer_new_alloc's buffer comes from the caller's allocator instead
** (jj_buf's `a`): it grows and is freed through it, and the caller frees a
** taken document with it.
*/
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "writer.h"

/* ---------------------------------------------------------------------- */
/* Errors                                                                  */
/* ---------------------------------------------------------------------- */

/* See writer.h.  The path names the frames above the innermost; the
** innermost gives the row and (JJ_W_VALUE) the column. */
jj_code jj_writer_fail(jj_writer *w, jj_code code, int names, const char *fmt, ...) {
  char path[256];
  size_t used = 0;
  frame *f = &w->stack[w->depth];
  jj_where where = {f->rows + 1, -1, NULL, JJ_NO_OFFSET, NULL, 0, -1};
  va_list ap;
  path[0] = '\0';
  for (size_t i = 0; i < w->depth && used < sizeof path; i++) {
    int n =
        snprintf(path + used, sizeof path - used, "row %lld, column \"%s\", ",
                 (long long)(w->stack[i].rows + 1),
                 jj_schema_name(w->stack[i].s, w->stack[i].col, NULL));
    if (n < 0) break;
    used += (size_t)n;
  }
  if (w->depth) {
    where.path = path;
    where.outer_row = w->stack[0].rows + 1;
    where.outer_column = (int)w->stack[0].col;
  }
  if (names == JJ_W_VALUE && f->col < f->ncols) {
    where.column = (int)f->col;
    where.column_name = jj_schema_name(f->s, f->col, NULL);
  }
  va_start(ap, fmt);
  jj_vfail(&w->err, code, &where, fmt, ap);
  va_end(ap);
  if (names == JJ_W_COLUMN && w->depth == 0 && w->stack[0].col < w->stack[0].ncols)
    w->err.column = (int)w->stack[0].col;
  return code;
}

jj_code jj_writer_nomem(jj_writer *w) {
  return jj_fail(&w->err, JJ_ERR_NOMEM, NULL, "out of memory");
}

/* ---------------------------------------------------------------------- */
/* Creating, the header                                                    */
/* ---------------------------------------------------------------------- */

/* Levels of nested tables in s, counting s itself; 0 when a table has no
** columns (the format needs at least one). */
static size_t schema_depth(const jj_schema *s) {
  size_t deepest = 0, n = jj_schema_columns(s);
  if (n == 0) return 0;
  for (size_t i = 0; i < n; i++) {
    const jj_schema *t = jj_schema_table(s, i);
    if (t) {
      size_t d = schema_depth(t);
      if (d == 0) return 0;
      if (d > deepest) deepest = d;
    }
  }
  return deepest + 1;
}

/* Free a level and the levels below it.  NULL is a no-op. */
static void level_free(level *lv) {
  if (!lv) return;
  if (lv->sub)
    for (size_t i = 0; i < lv->ncols; i++) level_free(lv->sub[i]);
  free(lv->sub);
  free(lv);
}

/* The cached types of s and of its nested tables; NULL when out of
** memory.  Freed with level_free. */
static level *level_new(const jj_schema *s) {
  size_t n = jj_schema_columns(s);
  level *lv = malloc(sizeof *lv + n);
  if (!lv) return NULL;
  lv->ncols = n;
  lv->sub = NULL;
  for (size_t i = 0; i < n; i++) {
    lv->types[i] = (unsigned char)jj_schema_type(s, i);
    if (lv->types[i] != JJ_TABLE) continue;
    if (!lv->sub && !(lv->sub = calloc(n, sizeof *lv->sub))) goto oom;
    if (!(lv->sub[i] = level_new(jj_schema_table(s, i)))) goto oom;
  }
  return lv;
oom:
  level_free(lv); /* sub entries not yet built are NULL (calloc) */
  return NULL;
}

/* The writer borrows s; its frames are sized by the schema's nesting.  In
** sink mode the buffer starts at its full 64 KiB so it never grows for
** ordinary values.  With an allocator (memory mode only) the buffer grows
** and is freed through the writer's copy of it. */
static jj_writer *writer_new(const jj_schema *s, jj_sink sink, void *ctx,
                             const jj_allocator *a, jj_error *err) {
  if (!s) {
    jj_fail(err, JJ_ERR_USAGE, NULL, "jj_writer_new needs a schema");
    return NULL;
  }
  size_t depth = schema_depth(s);
  if (depth == 0) {
    jj_fail(err, JJ_ERR_USAGE, NULL, "a table needs at least one column");
    return NULL;
  }
  jj_writer *w = calloc(1, sizeof *w);
  if (!w) goto oom;
  w->schema = s;
  w->sink = sink;
  w->ctx = ctx;
  w->flush_at = FLUSH_AT;
  w->max_depth = depth;
  if (a) {
    w->alloc = *a;
    w->out.a = &w->alloc;
  }
  w->stack = calloc(w->max_depth, sizeof *w->stack);
  w->top = level_new(s);
  if (!w->stack || !w->top || jj_buf_reserve(&w->out, sink ? FLUSH_AT + 4096 : 4096)) {
    jj_writer_free(w);
    goto oom;
  }
  w->stack[0].s = s;
  w->stack[0].lv = w->top;
  w->stack[0].ncols = jj_schema_columns(s);
  jj_error_clear(&w->err);
  return w;
oom:
  jj_fail(err, JJ_ERR_NOMEM, NULL, "out of memory");
  return NULL;
}

jj_writer *jj_writer_new(const jj_schema *s, jj_sink sink, void *ctx,
                         jj_error *err) {
  return writer_new(s, sink, ctx, NULL, err);
}

jj_writer *jj_writer_new_alloc(const jj_schema *s, const jj_allocator *a,
                               jj_error *err) {
  return writer_new(s, NULL, NULL, a, err);
}

/* "columns":[...],"types":[...] of s, nested schemas as objects. */
static int put_schema(jj_buf *b, const jj_schema *s) {
  size_t n = jj_schema_columns(s);
  if (jj_buf_append(b, "\"columns\":[", 11)) return -1;
  for (size_t i = 0; i < n; i++) {
    size_t len;
    const char *name = jj_schema_name(s, i, &len);
    if ((i && jj_buf_append(b, ",", 1)) || jj_string_escape(b, name, len))
      return -1;
  }
  if (jj_buf_append(b, "],\"types\":[", 11)) return -1;
  for (size_t i = 0; i < n; i++) {
    jj_type t = jj_schema_type(s, i);
    if (i && jj_buf_append(b, ",", 1)) return -1;
    if (t == JJ_TABLE) {
      if (jj_buf_append(b, "{", 1) || put_schema(b, jj_schema_table(s, i)) ||
          jj_buf_append(b, "}", 1))
        return -1;
    } else {
      char q[3] = {'"', jj_type_letter(t), '"'};
      if (jj_buf_append(b, q, 3)) return -1;
    }
  }
  return jj_buf_append(b, "]", 1);
}

/* Write the header up to and including "rows":[ and its newline. */
static jj_code put_header(jj_writer *w) {
  w->phase = W_OPEN;
  if (jj_buf_append(&w->out, "{\"jalapenojson\":1,", 18) ||
      put_schema(&w->out, w->schema) ||
      (w->meta && (jj_buf_append(&w->out, ",\"meta\":", 8) ||
                   jj_buf_append(&w->out, w->meta, w->meta_len))) ||
      jj_buf_append(&w->out, ",\"rows\":[\n", 10))
    return jj_writer_nomem(w);
  return JJ_OK;
}

/* Check json is one JSON value (whitespace around it is dropped) and keep
** a copy for the header; a later call replaces it. */
jj_code jj_writer_set_meta(jj_writer *w, const char *json, size_t len) {
  const char *bad, *why;
  jj_code code;
  if (w->err.code) return w->err.code;
  if (w->phase != W_NEW)
    return jj_fail(&w->err, JJ_ERR_USAGE, NULL,
                   "meta must be set before the first value");
  const char *p = json ? jj_json_ws(json, json + len) : NULL;
  if (!p || p == json + len)
    return jj_fail(&w->err, JJ_ERR_SYNTAX, NULL, "meta is empty");
  const char *end =
      jj_json_skip(p, json + len, JJ_DEFAULT_MAX_DEPTH, &bad, &code, &why);
  if (!end)
    return jj_fail(&w->err, code, NULL, "meta, byte %zu: %s",
                   (size_t)(bad - json), why);
  const char *rest = jj_json_ws(end, json + len);
  if (rest != json + len)
    return jj_fail(&w->err, JJ_ERR_SYNTAX, NULL,
                   "meta, byte %zu: more than one JSON value",
                   (size_t)(rest - json));
  char *copy = malloc((size_t)(end - p));
  if (!copy) return jj_writer_nomem(w);
  memcpy(copy, p, (size_t)(end - p));
  free(w->meta);
  w->meta = copy;
  w->meta_len = (size_t)(end - p);
  return JJ_OK;
}

/* ---------------------------------------------------------------------- */
/* The value path                                                          */
/* ---------------------------------------------------------------------- */

/* See writer.h. */
jj_code jj_writer_flush(jj_writer *w) {
  size_t n = w->out.len;
  w->out.len = 0;
  w->flushed += n;
  if (n && w->sink(w->ctx, w->out.p, n))
    return jj_fail(&w->err, JJ_ERR_IO, NULL, "write failed");
  return JJ_OK;
}

/* See writer.h: the uncommon reasons a value cannot start. */
jj_code jj_writer_ready_slow(jj_writer *w) {
  if (w->err.code) return w->err.code;
  if (w->phase == W_FINISHED)
    return jj_fail(&w->err, JJ_ERR_USAGE, NULL,
                   "the document is already finished");
  return w->phase == W_OPEN ? JJ_OK : put_header(w);
}

/* A row of `values` values in a table of another column count: one more
** than fits (jj_writer_too_many) or one ended short (short_row). */
static jj_code count_fail(jj_writer *w, size_t values) {
  return jj_writer_fail(w, JJ_ERR_USAGE, JJ_W_ROW, "%zu values for %zu columns", values,
                        w->stack[w->depth].ncols);
}

jj_code jj_writer_too_many(jj_writer *w) {
  return count_fail(w, w->stack[w->depth].col + 1);
}

/* See writer.h. */
jj_code jj_writer_check(jj_writer *w, jj_type t) {
  jj_code rc = jj_writer_ready(w);
  if (rc) return rc;
  frame *f = &w->stack[w->depth];
  if (JJ_UNLIKELY(f->col >= f->ncols)) return jj_writer_too_many(w);
  jj_type ct = (jj_type)f->lv->types[f->col];
  if (JJ_UNLIKELY(t && t != ct))
    return jj_writer_fail(w, JJ_ERR_USAGE, JJ_W_COLUMN,
                          "column \"%s\" is %s column: use %s",
                          jj_schema_name(f->s, f->col, NULL), jj_type_name(ct),
                          jj_type_writer(ct));
  return JJ_OK;
}

/* Grow the buffer for `need` bytes plus separator and slack. */
static jj_code value_reserve(jj_writer *w, size_t need) {
  if (JJ_UNLIKELY(need > SIZE_MAX - 8 || jj_buf_reserve(&w->out, need + 8)))
    return jj_writer_nomem(w);
  return JJ_OK;
}

/* See writer.h: every check, then the room. */
char *jj_writer_value_slow(jj_writer *w, jj_type t, size_t need) {
  if (jj_writer_check(w, t) || value_reserve(w, need)) return NULL;
  return put_separator(w, &w->stack[w->depth], w->out.p + w->out.len);
}

/* ---------------------------------------------------------------------- */
/* Rows and nested tables                                                  */
/* ---------------------------------------------------------------------- */

/* Open a nested table value: '[' now, rows follow in a new frame. */
jj_code jj_writer_begin_table(jj_writer *w) {
  char *d = value_begin(w, JJ_TABLE, 1);
  if (!d) return w->err.code;
  frame *f = &w->stack[w->depth];
  *d++ = '[';
  w->out.len = (size_t)(d - w->out.p);
  frame *inner = &w->stack[++w->depth]; /* depth < max_depth: the schema
                                        ** has a level below this one */
  inner->s = jj_schema_table(f->s, f->col);
  inner->lv = f->lv->sub[f->col];
  inner->ncols = jj_schema_columns(inner->s);
  inner->col = 0;
  inner->rows = 0;
  return JJ_OK;
}

/* An unfinished row, reported like the reader's row errors. */
jj_code jj_writer_short_row(jj_writer *w) {
  return count_fail(w, w->stack[w->depth].col);
}

/* Close the nested table (no row may be half written); it counts as one
** value of the enclosing row. */
jj_code jj_writer_end_table(jj_writer *w) {
  if (w->err.code) return w->err.code;
  if (w->depth == 0)
    return jj_fail(&w->err, JJ_ERR_USAGE, NULL,
                   "jj_writer_end_table without jj_writer_begin_table");
  if (w->stack[w->depth].col) return jj_writer_short_row(w);
  if (jj_buf_reserve(&w->out, 1)) return jj_writer_nomem(w);
  w->out.p[w->out.len++] = ']';
  w->depth--;
  return value_end(w, w->out.p + w->out.len);
}

/* Close the row; its first value wrote the separator and the '['. */
jj_code jj_writer_end_row(jj_writer *w) { return writer_end_row(w); }

int64_t jj_writer_rows(const jj_writer *w) {
  return w ? w->stack[0].rows : -1;
}

uint64_t jj_writer_length(const jj_writer *w) {
  return w ? writer_length(w) : 0;
}

/* Close the document (the header too, when no row was written) and flush
** it in sink mode. */
jj_code jj_writer_finish(jj_writer *w) {
  if (w->err.code) return w->err.code;
  if (w->phase == W_FINISHED)
    return jj_fail(&w->err, JJ_ERR_USAGE, NULL,
                   "the document is already finished");
  if (w->depth)
    return jj_writer_fail(w, JJ_ERR_USAGE, JJ_W_ROW,
                          "nested table not ended (use jj_writer_end_table)");
  if (w->stack[0].col) return jj_writer_short_row(w);
  if (w->phase == W_NEW && put_header(w)) return w->err.code;
  /* one spare byte for the NUL jj_writer_take adds */
  if (jj_buf_reserve(&w->out, 4)) return jj_writer_nomem(w);
  if (w->stack[0].rows) w->out.p[w->out.len++] = '\n';
  memcpy(w->out.p + w->out.len, "]}", 2);
  w->out.len += 2;
  w->phase = W_FINISHED;
  return w->sink ? jj_writer_flush(w) : JJ_OK;
}

/* ---- rows ahead of their types (internal.h) ---- */

jj_code jj_writer_rows_only(jj_writer *w) {
  if (w->phase != W_NEW || !w->sink || w->err.code)
    return jj_fail(&w->err, JJ_ERR_USAGE, NULL,
                   "a rows-only writer must be new and have a sink");
  w->phase = W_OPEN;
  return JJ_OK;
}

jj_writer *jj_writer_new_ahead(const jj_schema *s, jj_sink sink, void *ctx,
                               const jj_allocator *a, size_t hold,
                               jj_error *err) {
  jj_writer *w = writer_new(s, sink, ctx, a, err);
  if (w && hold > FLUSH_AT) w->flush_at = hold;
  return w;
}

const char *jj_writer_held(const jj_writer *w, size_t *len) {
  *len = w->out.len;
  return w->out.p;
}

int jj_writer_keep(jj_writer *w, const char *head, size_t len) {
  if (w->err.code || w->flushed || w->phase != W_OPEN || w->depth ||
      w->stack[0].col || w->out.len < len)
    return 0;
  memcpy(w->out.p, head, len);
  w->sink = NULL;
  w->ctx = NULL;
  return 1;
}

void jj_writer_retype(jj_writer *w, size_t col, jj_type t) {
  if (col < w->top->ncols) w->top->types[col] = (unsigned char)t;
}

jj_code jj_writer_rows_flush(jj_writer *w) {
  if (w->err.code) return w->err.code;
  if (w->depth || w->stack[0].col)
    return jj_writer_fail(w, JJ_ERR_USAGE, JJ_W_ROW, "a row is not ended");
  return jj_writer_flush(w);
}

jj_code jj_writer_append_rows(jj_writer *w, const char *p, size_t len,
                              int64_t rows) {
  jj_code rc = jj_writer_ready(w);
  if (rc) return rc;
  if (w->depth || w->stack[0].col)
    return jj_writer_fail(w, JJ_ERR_USAGE, JJ_W_ROW, "a row is not ended");
  if (!w->sink && jj_buf_reserve(&w->out, len)) /* at once, not doubling */
    return jj_writer_nomem(w);
  while (len) { /* in pieces, so a sink's buffer stays small */
    size_t n = len < FLUSH_AT ? len : FLUSH_AT;
    if (jj_buf_append(&w->out, p, n)) return jj_writer_nomem(w);
    p += n, len -= n;
    if (w->sink && w->out.len >= w->flush_at && jj_writer_flush(w))
      return w->err.code;
  }
  w->stack[0].rows += rows;
  return JJ_OK;
}

int jj_writer_append_piece(void *w, const char *p, size_t len) {
  return jj_writer_append_rows(w, p, len, 0) != JJ_OK;
}

/* Hand over the finished buffer (caller frees with jj_free, or the
** allocator's free); once. */
char *jj_writer_take(jj_writer *w, size_t *len) {
  if (!w || w->phase != W_FINISHED || w->sink || w->err.code || !w->out.p) return NULL;
  char *p = w->out.p;
  p[w->out.len] = '\0'; /* room reserved by jj_writer_finish */
  if (len) *len = w->out.len;
  w->out.p = NULL;
  w->out.len = w->out.cap = 0;
  return p;
}

/* For no writer (jj_writer_new failed), a usage error that says so. */
const jj_error *jj_writer_error(const jj_writer *w) {
  static const jj_error none = {JJ_ERR_USAGE, JJ_NO_OFFSET, 0, -1,
                                "no writer"};
  return w ? &w->err : &none;
}

/* Free the buffer (unless taken), the meta copy and the frames. */
void jj_writer_free(jj_writer *w) {
  if (!w) return;
  jj_buf_free(&w->out);
  free(w->meta);
  free(w->stack);
  level_free(w->top);
  free(w);
}
