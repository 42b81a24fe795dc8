/*
** column.c — the values of the jj_open module's current row: xColumn and
** xRowid, and the record form's fast path finding the cursor that built a
** record (record.c calls jjx_record_match).  Called by vtab.c (its xColumn
** and xRowid) and record.c; calls only open_table.h's jjx_column_read, the
** core and util.c.  The scan itself is vtab.c's (connect, filter) and
** scan.c's (moving between rows and files).
**
** SQLite calls xColumn only for the columns a statement uses, so nothing
** else is converted or checked; every value comes from the core's cursor
** (one switch over jj_cursor_value's jj_value), never from ext/ scanning
** bytes.
*/
#include <string.h>

#include "ext.h"
#include "open_table.h"

/* Hand SQLite a text value the core returned at p (n bytes).
**
** SQLite's consumers mostly want text NUL-terminated (sqlite3_column_text,
** which every binding and the CLI call, and the JSON functions), and
** SQLite marks a value terminated only when it was given with length -1.
** Text handed over with its length, SQLITE_STATIC (the document's own
** bytes, which are not terminated: a quote follows), is terminated later by
** a malloc, copy and free per value; with SQLITE_TRANSIENT and a length, by
** growing the copy.  So a value without a NUL byte is copied into the
** cursor's scratch with a terminator and handed over with -1 and
** SQLITE_TRANSIENT: SQLite copies it, terminator included, into the
** register's buffer, which it reuses from row to row.  callgrind, bench/
** sqlite_bench scan jjfile (every column of 50,000 high-entropy rows, read
** with sqlite3_column_text): 326.3 M instructions with SQLITE_STATIC and a
** length, 399.1 M with SQLITE_TRANSIENT and a length, 224.4 M this way
** (the floor table of bench/: 126.9 M); best of runs, 3 interleaved:
** 36.7-37.3 ms before, 24.6-25.0 ms after.  A filter that only compares
** the text paid the copy (`since`, WHERE joined >= ...: 81.0 -> 84.4 M);
** such comparisons are now the table's own (pushdown.c) and read no
** value through here.
**
** Text with no escape lies in the document, whose strings never hold a raw
** NUL (the row check refuses control bytes); decoded text can (\u0000) and
** is searched.  Text with a NUL keeps its length (SQLITE_TRANSIENT: decoded
** text lives in cursor scratch, reused when the cursor moves). */
static JJX_INLINE void result_text(sqlite3_context *ctx, jjx_cursor *c,
                        const jjx_table *t, const char *p, size_t n) {
  int in_doc = t->src.data && p >= t->src.data && p < t->src.data + t->src.len;
  if (n == 0) {
    sqlite3_result_text(ctx, "", -1, SQLITE_STATIC); /* terminated */
    return;
  }
  if ((in_doc || !memchr(p, 0, n)) && n < 0x7fffffff) {
    c->text.len = 0;
    if (jjx_buf_grow(&c->text, n + 1) == 0) {
      memcpy(c->text.p, p, n);
      c->text.p[n] = 0;
      sqlite3_result_text(ctx, c->text.p, -1, SQLITE_TRANSIENT);
      return;
    }
  }
  sqlite3_result_text64(ctx, p, n, SQLITE_TRANSIENT, SQLITE_UTF8);
}

/* Fail a column with the core's error, prefixed with the source's name. */
static int column_error(sqlite3_context *ctx, jjx_cursor *c,
                        const jj_error *err) {
  if (err->code == JJ_ERR_NOMEM)
    sqlite3_result_error_nomem(ctx);
  else
    jjx_ctx_err(ctx, "%s: %s", c->label, err->message);
  return SQLITE_OK; /* the error travels in ctx */
}

/* A nested table value `sub` (jj_cursor_value's, freed here) as a
** standalone document (TEXT), built in c->buf by the core's writer, which
** checks and copies each value. */
static int nested_column(sqlite3_context *ctx, jjx_cursor *c, jj_doc *sub) {
  jj_cursor *sc = NULL;
  jj_writer *w = NULL;
  jj_error err;
  c->buf.len = 0;
  c->rec_row = 0; /* the buffer no longer holds a record */
  c->buf.oom = 0;
  w = jj_writer_new(jj_doc_schema(sub), jjx_buf_sink, &c->buf, &err);
  if (!w) goto fail;
  sc = jj_cursor_new(sub, &err);
  if (!sc) goto fail;
  if (jj_writer_copy_rows(w, sc) != JJ_OK || jj_writer_finish(w) != JJ_OK)
    goto fail_writer;
  sqlite3_result_text64(ctx, c->buf.p ? c->buf.p : "", c->buf.len,
                        SQLITE_TRANSIENT, SQLITE_UTF8);
  jj_writer_free(w);
  jj_cursor_free(sc);
  jj_doc_free(sub);
  return SQLITE_OK;
fail_writer:
  err = *jj_writer_error(w);
fail:
  if (c->buf.oom) err.code = JJ_ERR_NOMEM;
  column_error(ctx, c, &err);
  jj_writer_free(w);
  jj_cursor_free(sc);
  jj_doc_free(sub);
  return SQLITE_OK;
}

/* The hidden source column: the file name for a file, else NULL (the
** column exists to pass the argument, not to read it back). */
static int source_column(sqlite3_context *ctx, jjx_cursor *c) {
  if (c->is_file) sqlite3_result_text(ctx, c->label, -1, SQLITE_TRANSIENT);
  return SQLITE_OK;
}

/* The record form's columns (its row number and record) and the hidden
** source column: out of line, so that a typed table's values, below,
** save no registers for them. */
static JJX_COLD int record_column(sqlite3_context *ctx, jjx_cursor *c,
                                  jjx_table *t, int col) {
  jj_error err;
  if (t->typed || (col != REC_ROW && col != REC_RECORD))
    return source_column(ctx, c);
  if (col == REC_ROW) {
    sqlite3_result_int64(ctx, jj_cursor_row(c->cur));
    return SQLITE_OK;
  }
  /* Built once per row however often the row asks (a ->> per key); the
  ** fast path (record.c) finds the cursor by this text. */
  int64_t row = jj_cursor_row(c->cur);
  if (c->rec_row != row) {
    c->rec_row = 0;
    c->buf.len = 0;
    c->buf.oom = 0;
    if (jj_cursor_object(c->cur, jjx_buf_sink, &c->buf, &err) != JJ_OK) {
      if (c->buf.oom) err.code = JJ_ERR_NOMEM;
      return column_error(ctx, c, &err);
    }
    if (jjx_buf_grow(&c->buf, 1)) {
      sqlite3_result_error_nomem(ctx);
      return SQLITE_OK;
    }
    c->buf.p[c->buf.len] = '\0'; /* after the text, outside its length */
    c->rec_row = row;
  }
  t->rec_last = c;
  /* Copied (SQLITE_TRANSIENT): the buffer is rewritten for the next row,
  ** and SQLite keeps a SQLITE_STATIC value's pointer wherever it copies
  ** the value (sqlite3VdbeMemCopy copies the bytes of any string except a
  ** static one), so max(record) would read a later row's bytes.  Length
  ** -1, so that SQLite copies the NUL with the text and marks it
  ** terminated (MEM_Term): every JSON function and the overload reads it
  ** with sqlite3_value_text, which otherwise adds the terminator by
  ** growing the value's buffer, once per row (a realloc; callgrind: about
  ** 270 instructions a row).  The text holds no NUL byte:
  ** jj_cursor_object escapes control characters. */
  sqlite3_result_text(ctx, c->buf.p, -1, SQLITE_TRANSIENT);
  sqlite3_result_subtype(ctx, JSON_SUBTYPE);
  return SQLITE_OK;
}

void jjx_ts_sql(jjx_cursor *c, jj_value *v) {
  jj_timestamp ts = v->u.timestamp.ts;
  char *o = c->ts;
  ts.zone_minutes = 0; /* a t in UTC; an l has none */
  size_t n = jj_local_timestamp_format(&ts, o);
  if (!n) return; /* a UTC date beyond 9999 (or before 0000): as written */
  o[10] = ' ';
  if (n > 19) { /* ".f": the fraction's trailing zeros, then a bare '.' */
    while (o[n - 1] == '0') n--;
    if (n == 20) n = 19;
  }
  v->u.text.p = o;
  v->u.text.len = n;
}

/* A typed value that is not a number or text (jjx_open_column hands those
** over itself), or a read's error. */
static JJX_COLD int other_value(sqlite3_context *ctx, jjx_cursor *c,
                                const jjx_table *t, int r, jj_value *v,
                                const jj_error *err) {
  if (r < 0) return column_error(ctx, c, err);
  switch (v->type) { /* no default: -Wswitch names a type added but not read */
    case JJ_INT:
      sqlite3_result_int64(ctx, v->u.i);
      break;
    case JJ_FLOAT:
      sqlite3_result_double(ctx, v->u.f);
      break;
    case JJ_TEXT:
    case JJ_DATE:
    case JJ_TIMESTAMP: /* SQL reads dates and timestamps as their text */
    case JJ_LOCAL_TIMESTAMP:
      result_text(ctx, c, t, v->u.text.p, v->u.text.len);
      break;
    case JJ_BOOL:
      sqlite3_result_int(ctx, v->u.b != 0);
      break;
    case JJ_BYTES:
      sqlite3_result_blob64(ctx,
                            v->u.bytes.len ? v->u.bytes.p : (const void *)"",
                            v->u.bytes.len, SQLITE_TRANSIENT);
      break;
    case JJ_JSON: /* its JSON text, marked as JSON for SQLite's functions */
      result_text(ctx, c, t, v->u.json.p, v->u.json.len);
      sqlite3_result_subtype(ctx, JSON_SUBTYPE);
      break;
    case JJ_TABLE:
      return nested_column(ctx, c, v->u.table);
  }
  return SQLITE_OK;
}

/* One value of the current row.  SQLite calls this only for the columns
** the statement uses, so nothing else is converted or checked.  A typed
** table's integers, floats and text are handed over here and everything
** else out of line (record_column, other_value), so that this, called
** for every value of a scan, saves fewer registers (4, was 6) and
** inlines the text copy: bench/sqlite_bench scan jjfile (every column of
** 50,000 rows), callgrind: 67 -> 63 instructions a value in this
** function, the scan 200.4 -> 198.9 M (high-entropy), 193.1 -> 191.6 M
** (repetitive). */
int jjx_open_column(sqlite3_vtab_cursor *cur, sqlite3_context *ctx,
                    int col) {
  jjx_cursor *c = (jjx_cursor *)cur;
  jjx_table *t = (jjx_table *)cur->pVtab;
  if (!t->typed || col >= t->ncol) return record_column(ctx, c, t, col);
  jj_error err;
  jj_value v;
  int r = jjx_column_read(c, t, col, &v, &err);
  if (JJX_LIKELY(r > 0)) {
    if (v.type == JJ_INT) {
      sqlite3_result_int64(ctx, v.u.i);
      return SQLITE_OK;
    }
    if (v.type == JJ_FLOAT) {
      sqlite3_result_double(ctx, v.u.f);
      return SQLITE_OK;
    }
    if (v.type == JJ_TEXT || v.type == JJ_DATE) {
      result_text(ctx, c, t, v.u.text.p, v.u.text.len);
      return SQLITE_OK;
    }
  } else if (r == 0) {
    return SQLITE_OK; /* null, the context's default */
  }
  return other_value(ctx, c, t, r, &v, &err);
}

int jjx_open_rowid(sqlite3_vtab_cursor *cur, sqlite3_int64 *pRowid) {
  const jjx_cursor *c = (const jjx_cursor *)cur;
  /* rows_only: the cursor may be past the row SQLite is on (scan.c) */
  *pRowid = c->file_index << JJX_ROWID_SHIFT | (jj_cursor_row(c->cur) - c->ahead);
  return SQLITE_OK;
}

jj_cursor *jjx_record_match(void *table, const char *text, size_t len,
                            sqlite3_stmt ***slots) {
  jjx_cursor *c = ((jjx_table *)table)->rec_last;
  *slots = c ? c->rec_fb : NULL;
  if (!c || !text || !c->cur || c->eof || c->rec_row == 0 ||
      c->rec_row != jj_cursor_row(c->cur) || len != c->buf.len ||
      memcmp(text, c->buf.p, len) != 0)
    return NULL;
  return c->cur;
}

int *jjx_record_float_mode(void *table) {
  return &((jjx_table *)table)->rec_float;
}
