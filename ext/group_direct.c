/*
** group_direct.c — jj_group's direct way: when the first row tells every
** column's type, each row is written to the document as it arrives, with
** no buffer and no second pass at the end.
**
** The buffered way (group_value.c, group_write.c) stays the definition of
** what jj_group returns.  The direct way writes a row only when the
** buffered way would write exactly the same bytes for it and could not
** fail on it later; a row that would change that moves the document's rows
** into the buffer (to_buffer: they are read back with the core's reader,
** which gives every value back exactly) and the aggregate carries on the
** buffered way, so every result and every error is the buffered way's.
** What moves it:
**   - an INTEGER column's first REAL (the column becomes f: its integers
**     are then written as floats, or refused when not exact, at the end);
**   - an INTEGER a float column cannot hold exactly (the buffered way
**     reports it at the end, after checking every later row);
**   - TEXT that is not valid UTF-8 (the same: the writer refuses it at the
**     end);
**   - the document growing past SQLite's length limit (the buffered way
**     reports that at the end too; the buffer then holds about as much as
**     it would have).
** Columns the first row does not type (an inferred column whose first value
** is NULL) and nested tables (jj) take the buffered way from the start.
**
** Memory: the writer (g->w) and its schema (g->schema) belong to the
** aggregate context (group.c's group_free frees them); the document is
** built in SQLite's memory (group_write.c's jjx_group_memory) and handed
** over without a copy.
**
** Called by group_value.c (each row, through group_direct.h's inline
** jjx_group_direct_value) and group.c (the end); calls group_write.c
** (the buffer the rows move to), never back up.
*/
#include <string.h>

#include "group_direct.h"
#include "group_state.h"

/* ---------------------------------------------------------------------- */
/* Starting                                                                */
/* ---------------------------------------------------------------------- */

/* Column c's type in the document, when the first row's value v decides it
** for good (jjx_group_column_type, group_state.h, on every later row),
** else 0.  An INTEGER column may still become f: that moves the rows
** (above). */
static jj_type first_type(const group_col *c, const group_val *v) {
  if (c->type) return c->type == JJ_TABLE ? 0 : c->type;
  switch (v->st) {
    case SQLITE_INTEGER: return JJ_INT;
    case SQLITE_FLOAT: return JJ_FLOAT;
    case SQLITE_TEXT: return JJ_TEXT;
    case SQLITE_BLOB: return JJ_BYTES;
  }
  return 0;
}

static int fail_nomem(sqlite3_context *ctx, group_ctx *g) {
  sqlite3_result_error_nomem(ctx);
  g->failed = 1;
  return -1;
}

int jjx_group_direct_start(sqlite3_context *ctx, group_ctx *g) {
  jj_error err;
  for (int i = 0; i < g->ncol; i++)
    if (!first_type(&g->cols[i], &g->row[i])) return 0; /* the buffer */
  jj_schema *s = jj_schema_new();
  if (!s) return fail_nomem(ctx, g);
  for (int i = 0; i < g->ncol; i++) {
    group_col *c = &g->cols[i];
    if (jj_schema_add(s, c->arg, c->name_len, first_type(c, &g->row[i]), NULL,
                      &err) != JJ_OK) {
      jj_schema_free(s);
      /* a name the schema refuses: xFinal reports it, as it always has */
      return err.code == JJ_ERR_NOMEM ? fail_nomem(ctx, g) : 0;
    }
  }
  jj_writer *w = jj_writer_new_alloc(s, &jjx_group_memory, &err);
  if (!w) {
    jj_schema_free(s);
    return err.code == JJ_ERR_NOMEM ? fail_nomem(ctx, g) : 0;
  }
  for (int i = 0; i < g->ncol; i++)
    g->cols[i].direct = first_type(&g->cols[i], &g->row[i]);
  g->schema = s;
  g->w = w;
  return 0;
}

/* ---------------------------------------------------------------------- */
/* Moving to the buffer                                                    */
/* ---------------------------------------------------------------------- */

/* Read value col of the cursor's row back as the checked value it was
** written from (a float column's INTEGER as the double it was written as:
** the buffered way writes both alike).  1, or -1 with *err set. */
static int read_back(jj_cursor *cur, size_t col, jj_type t, group_val *v,
                     jj_error *err) {
  int r;
  if (jj_cursor_is_null(cur, col) == 1) {
    v->st = SQLITE_NULL;
    return 1;
  }
  switch (t) {
    case JJ_INT: {
      int64_t i = 0;
      r = jj_cursor_int(cur, col, &i, err);
      v->st = SQLITE_INTEGER;
      v->u.i = i;
      return r;
    }
    case JJ_BOOL: {
      int b = 0;
      r = jj_cursor_bool(cur, col, &b, err);
      v->st = SQLITE_INTEGER;
      v->u.i = b;
      return r;
    }
    case JJ_FLOAT:
      v->st = SQLITE_FLOAT;
      return jj_cursor_double(cur, col, &v->u.d, err);
    case JJ_BYTES: {
      const unsigned char *p = NULL;
      r = jj_cursor_bytes(cur, col, &p, &v->n, err);
      v->st = SQLITE_BLOB;
      v->u.p = p;
      return r;
    }
    default: { /* s, d, t */
      const char *p = NULL;
      r = jj_cursor_text(cur, col, &p, &v->n, err);
      v->st = SQLITE_TEXT;
      v->u.p = p;
      return r;
    }
  }
}

/* Finish the document, read its rows back into the buffer, drop the writer.
** With `upto` >= 0 its last row is the row being added, values 0..upto-1
** written and the rest padded with nulls: that row is taken from g->row
** instead, values 0..upto.  0, or -1 reported. */
static int to_buffer(sqlite3_context *ctx, group_ctx *g, int upto) {
  jj_error err;
  jj_doc *doc = NULL;
  jj_cursor *cur = NULL;
  size_t len = 0;
  char *text = NULL;
  int rc = -1, r = 0;
  int64_t rows = jj_writer_rows(g->w) - (upto >= 0);
  jj_code code = jj_writer_finish(g->w);
  if (code == JJ_OK) text = jj_writer_take(g->w, &len);
  if (!text) {
    const jj_error *we = jj_writer_error(g->w);
    if (code == JJ_ERR_NOMEM || code == JJ_OK || we->code == JJ_ERR_NOMEM) {
      fail_nomem(ctx, g);
    } else {
      jjx_ctx_err(ctx, "jj_group: %s", we->message);
      g->failed = 1;
    }
    goto done;
  }
  jj_writer_free(g->w);
  g->w = NULL;
  if (!(doc = jj_parse(text, len, &err)) || !(cur = jj_cursor_new(doc, &err)))
    goto read_failed;
  while (rows-- > 0 && (r = jj_cursor_next(cur, &err)) == 1) {
    for (int i = 0; i < g->ncol; i++) {
      group_val v;
      if (read_back(cur, (size_t)i, g->cols[i].direct, &v, &err) < 0)
        goto read_failed;
      if (jjx_group_buffer(&g->values, &v)) {
        fail_nomem(ctx, g);
        goto done;
      }
    }
  }
  if (r < 0) goto read_failed;
  for (int i = 0; i < g->ncol; i++) g->cols[i].direct = 0;
  for (int i = 0; i <= upto; i++)
      if (jjx_group_buffer(&g->values, &g->row[i])) {
        fail_nomem(ctx, g);
        goto done;
      }
  rc = 0;
  goto done;
read_failed: /* only memory can fail: the writer wrote it */
  if (err.code == JJ_ERR_NOMEM) {
    fail_nomem(ctx, g);
  } else {
    jjx_ctx_err(ctx, "jj_group: reading back its own rows: %s", err.message);
    g->failed = 1;
  }
done:
  jj_cursor_free(cur);
  jj_doc_free(doc);
  sqlite3_free(text);
  jj_writer_free(g->w);
  g->w = NULL;
  jj_schema_free(g->schema);
  g->schema = NULL;
  return rc;
}

/* ---------------------------------------------------------------------- */
/* Rows                                                                    */
/* ---------------------------------------------------------------------- */

int jjx_group_direct_move(sqlite3_context *ctx, group_ctx *g, int i) {
  jj_code code = JJ_OK;
  for (int j = i; j < g->ncol && code == JJ_OK; j++) code = jj_writer_null(g->w);
  if (code == JJ_OK) code = jj_writer_end_row(g->w);
  if (code != JJ_OK) return jjx_group_direct_fail(ctx, g, code);
  return to_buffer(ctx, g, i);
}

int jjx_group_direct_fail(sqlite3_context *ctx, group_ctx *g, jj_code code) {
  if (code == JJ_ERR_NOMEM) return fail_nomem(ctx, g);
  jjx_ctx_err(ctx, "jj_group: %s", jj_writer_error(g->w)->message);
  g->failed = 1;
  return -1;
}

int jjx_group_direct_end_row(sqlite3_context *ctx, group_ctx *g) {
  jj_code code = jj_writer_end_row(g->w);
  if (code != JJ_OK) return jjx_group_direct_fail(ctx, g, code);
  /* past the limit: the buffered way decides which error it is */
  if (jj_writer_length(g->w) > g->limit) return to_buffer(ctx, g, -1);
  return 0;
}

/* ---------------------------------------------------------------------- */
/* The end                                                                 */
/* ---------------------------------------------------------------------- */

int jjx_group_direct_finish(sqlite3_context *ctx, group_ctx *g) {
  for (int i = 0; i < g->ncol; i++)
    if (jjx_group_column_type(&g->cols[i]) != g->cols[i].direct)
      return to_buffer(ctx, g, -1) == 0; /* never: the rows moved first */
  jj_writer *w = g->w;
  jj_code code = jj_writer_finish(w);
  if (code == JJ_OK && jj_writer_length(w) > g->limit) {
    jjx_group_too_long(ctx, g); /* by the closing "]}" */
    return 0;
  }
  if (code != JJ_OK) {
    if (code == JJ_ERR_NOMEM) return fail_nomem(ctx, g), 0;
    jjx_ctx_err(ctx, "jj_group: %s", jj_writer_error(w)->message);
    return 0;
  }
  size_t len;
  char *doc = jj_writer_take(w, &len);
  if (!doc) return fail_nomem(ctx, g), 0;
  /* no copy: SQLite takes the buffer, sqlite3_realloc64 memory */
  sqlite3_result_text64(ctx, doc, len, sqlite3_free, SQLITE_UTF8);
  return 0;
}
