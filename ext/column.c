/*
** column.c — the values of the jj_open module's current row: xColumn and
** xRowid, and the record form's fast path finding the cursor that built a
** record (record.c calls jjx_record_match).  The scan itself (connect,
** filter, moving between rows and files) is vtab.c's; both share vtab.h.
**
** SQLite calls xColumn only for the columns a statement uses, so nothing
** else is converted or checked; every value comes from the core's cursor
** (one switch over jj_cursor_value's jj_value), never from ext/ scanning
** bytes.
*/
#include <string.h>

#include "ext.h"
#include "plan.h"
#include "vtab.h"

/* How SQLite must treat text the core returned at p.  Text without escapes
** points into the document's bytes.  When those are the declared document's
** (t->src: read, mapped or owned by the table, and not closed while a
** cursor reads it, i.e. until every cursor of the statement is closed),
** SQLite may keep the pointer (SQLITE_STATIC) and skips a malloc+copy per
** value: that was the largest cost of a full scan.  Decoded text (in cursor scratch, reused when
** the cursor moves) and text of a per-scan SOURCE (freed with the cursor)
** are copied. */
static sqlite3_destructor_type text_lifetime(const jjx_table *t,
                                             const jjx_cursor *c,
                                             const char *p) {
  if (c->own.doc == NULL && t->src.data && p >= t->src.data &&
      p < t->src.data + t->src.len)
    return SQLITE_STATIC;
  return SQLITE_TRANSIENT;
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

/* One value of the current row.  SQLite calls this only for the columns
** the statement uses, so nothing else is converted or checked. */
int jjx_open_column(sqlite3_vtab_cursor *cur, sqlite3_context *ctx,
                    int col) {
  jjx_cursor *c = (jjx_cursor *)cur;
  jjx_table *t = (jjx_table *)cur->pVtab;
  jj_error err;
  if (!t->typed) {
    if (col == REC_ROW) {
      sqlite3_result_int64(ctx, jj_cursor_row(c->cur));
    } else if (col == REC_RECORD) {
      /* Built once per row however often the row asks (a ->> per key);
      ** the fast path (record.c) finds the cursor by this text. */
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
      /* Copied (SQLITE_TRANSIENT): the buffer is rewritten for the next
      ** row, and SQLite keeps a SQLITE_STATIC value's pointer wherever it
      ** copies the value (sqlite3VdbeMemCopy copies the bytes of any
      ** string except a static one), so max(record) would read a later
      ** row's bytes.  Length -1, so that SQLite copies the NUL with the
      ** text and marks it terminated (MEM_Term): every JSON function and
      ** the overload reads it with sqlite3_value_text, which otherwise
      ** adds the terminator by growing the value's buffer, once per row
      ** (a realloc; callgrind: about 270 instructions a row).  The text
      ** holds no NUL byte: jj_cursor_object escapes control characters. */
      sqlite3_result_text(ctx, c->buf.p, -1, SQLITE_TRANSIENT);
      sqlite3_result_subtype(ctx, JSON_SUBTYPE);
    } else {
      return source_column(ctx, c);
    }
    return SQLITE_OK;
  }
  if (col >= t->ncol) return source_column(ctx, c);
  jj_value v;
  int r;
  /* A date is read as its text, which SQL wants, by the per-type accessor:
  ** jj_cursor_value also counts its days (about 80 instructions a date
  ** under callgrind).  bench/sqlite_bench scan jjfile, 50,000 rows, best
  ** of 8 interleaved runs: every column through jj_cursor_value 39.6 ms
  ** (entropy) and 35.8 ms (repetitive); with this path 37.3 and 33.7 ms;
  ** the per-type switch it replaced 38.2 and 34.8 ms.  Every other type
  ** was as fast through jj_cursor_value, which also saves the schema
  ** lookup the old switch made per value. */
  if (col < 64 && (t->date_cols >> col & 1)) {
    r = jj_cursor_text(c->cur, (size_t)col, &v.u.text.p, &v.u.text.len, &err);
    v.type = JJ_DATE;
  } else {
    r = jj_cursor_value(c->cur, (size_t)col, &v, &err);
  }
  if (r < 0) return column_error(ctx, c, &err);
  if (r == 0) return SQLITE_OK; /* null, the context's default */
  switch (v.type) { /* no default: -Wswitch names a type added but not read */
    case JJ_INT:
      sqlite3_result_int64(ctx, v.u.i);
      break;
    case JJ_FLOAT:
      sqlite3_result_double(ctx, v.u.f);
      break;
    case JJ_TEXT:
    case JJ_DATE:
    case JJ_TIMESTAMP: /* SQL reads dates and timestamps as their text */
      sqlite3_result_text64(ctx, v.u.text.len ? v.u.text.p : "", v.u.text.len,
                            text_lifetime(t, c, v.u.text.p), SQLITE_UTF8);
      break;
    case JJ_BOOL:
      sqlite3_result_int(ctx, v.u.b != 0);
      break;
    case JJ_BYTES:
      sqlite3_result_blob64(ctx,
                            v.u.bytes.len ? v.u.bytes.p : (const void *)"",
                            v.u.bytes.len, SQLITE_TRANSIENT);
      break;
    case JJ_TABLE:
      return nested_column(ctx, c, v.u.table);
  }
  return SQLITE_OK;
}

int jjx_open_rowid(sqlite3_vtab_cursor *cur, sqlite3_int64 *pRowid) {
  const jjx_cursor *c = (const jjx_cursor *)cur;
  *pRowid = c->file_index << JJX_ROWID_SHIFT | jj_cursor_row(c->cur);
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
