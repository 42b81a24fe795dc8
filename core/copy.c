/*
** copy.c — copying from a cursor into a writer: one value
** (jj_writer_copy) or every remaining row (jj_writer_copy_rows, which the
** nested-table copy uses too).  The column kinds, and the schemas of nested
** tables, are checked once; then each value is read by jj_cursor_value,
** which checks it as a reader does, and written without checking again.
** A reader error becomes the writer's error.
*/
#include "writer.h"

/* Take over an error from the reader: the writer dies with it. */
static jj_code adopt(jj_writer *w, const jj_error *e) {
  w->err = *e;
  return e->code;
}

static jj_code copy_rows(jj_writer *w, jj_cursor *c);

/* A nested table (its schema known to equal the column's), row by row;
** frees the table. */
static jj_code copy_table(jj_writer *w, jj_doc *sub) {
  jj_error e;
  jj_code code = jj_writer_begin_table(w);
  jj_cursor *sc = code ? NULL : jj_cursor_new(sub, &e);
  if (!code && !sc) code = adopt(w, &e);
  if (!code) code = copy_rows(w, sc);
  if (!code) code = jj_writer_end_table(w);
  jj_cursor_free(sc);
  jj_doc_free(sub);
  return code;
}

/* Read column col and write it into the writer's current column, whose
** kind the caller has checked; the value was checked by the read. */
static jj_code copy_value(jj_writer *w, jj_cursor *c, size_t col) {
  jj_error e;
  jj_value v;
  int r = jj_cursor_value(c, col, &v, &e);
  if (r <= 0) return r < 0 ? adopt(w, &e) : jj_writer_null(w);
  switch (v.type) {
    case JJ_INT: return jj_writer_int(w, v.u.i);
    case JJ_FLOAT: return jj_writer_double(w, v.u.f);
    case JJ_TEXT: return jj_writer_put_checked(w, JJ_TEXT, v.u.text.p, v.u.text.len);
    case JJ_DATE: return jj_writer_put_checked(w, JJ_DATE, v.u.date.p, v.u.date.len);
    case JJ_TIMESTAMP:
    case JJ_LOCAL_TIMESTAMP:
      return jj_writer_put_checked(w, v.type, v.u.timestamp.p, v.u.timestamp.len);
    case JJ_BOOL: return jj_writer_bool(w, v.u.b);
    case JJ_BYTES: return jj_writer_bytes(w, v.u.bytes.p, v.u.bytes.len);
    case JJ_JSON: return jj_writer_json(w, v.u.json.p, v.u.json.len);
    case JJ_TABLE: return copy_table(w, v.u.table);
  }
  return JJ_OK; /* no other type: jj_cursor_value refused it */
}

/* Every remaining row of c, each value copied (the caller made sure c's
** schema is the current table's). */
static jj_code copy_rows(jj_writer *w, jj_cursor *c) {
  size_t n = jj_schema_columns(jj_doc_schema(jj_cursor_doc(c)));
  jj_error e;
  jj_code code = JJ_OK;
  int r;
  while (!code && (r = jj_cursor_next(c, &e)) != 0) {
    if (r < 0) return adopt(w, &e);
    for (size_t k = 0; k < n && !code; k++) code = copy_value(w, c, k);
    if (!code) code = jj_writer_end_row(w);
  }
  return code;
}

/* Copy the rest of a reader's rows into the current table: the schemas
** must be equal, checked once, then every value is copied unchecked. */
jj_code jj_writer_copy_rows(jj_writer *w, jj_cursor *c) {
  jj_code rc = jj_writer_ready(w);
  if (rc) return rc;
  frame *f = &w->stack[w->depth];
  size_t differs = 0;
  if (f->col != 0)
    return jj_writer_fail(w, JJ_ERR_USAGE, JJ_W_COLUMN,
                          "jj_writer_copy_rows needs the start of a row (%zu of "
                          "its %zu values are written)",
                          f->col, f->ncols);
  if (!jj_schema_equal(f->s, jj_doc_schema(jj_cursor_doc(c)), &differs))
    return jj_writer_fail(w, JJ_ERR_USAGE, JJ_W_COLUMN,
                          "the source's columns differ from the table's (from "
                          "column %zu)",
                          differs + 1);
  return copy_rows(w, c);
}

/* Copy one value from a reader: the column kinds (and nested schemas)
** must match, then the value is read and written. */
jj_code jj_writer_copy(jj_writer *w, jj_cursor *c, size_t col) {
  jj_code rc = jj_writer_ready(w);
  if (rc) return rc;
  frame *f = &w->stack[w->depth];
  const jj_schema *src = jj_doc_schema(jj_cursor_doc(c));
  size_t differs = 0;
  if (col >= jj_schema_columns(src))
    return jj_writer_fail(w, JJ_ERR_USAGE, JJ_W_COLUMN,
                          "source column %zu is out of range (%zu columns)", col,
                          jj_schema_columns(src));
  if (f->col >= f->ncols) return jj_writer_too_many(w);
  jj_type want = jj_schema_type(f->s, f->col);
  jj_type have = jj_schema_type(src, col);
  const char *name = jj_schema_name(f->s, f->col, NULL);
  const char *src_name = jj_schema_name(src, col, NULL);
  if (want != have)
    return jj_writer_fail(w, JJ_ERR_USAGE, JJ_W_COLUMN,
                          "column \"%s\" is %s column, the source column \"%s\" "
                          "is %s column",
                          name, jj_type_name(want), src_name, jj_type_name(have));
  if (want == JJ_TABLE && !jj_schema_equal(jj_schema_table(f->s, f->col),
                                           jj_schema_table(src, col), &differs))
    return jj_writer_fail(w, JJ_ERR_USAGE, JJ_W_COLUMN,
                          "column \"%s\" and the source column \"%s\" have "
                          "different nested schemas (from nested column %zu)",
                          name, src_name, differs + 1);
  return copy_value(w, c, col);
}
