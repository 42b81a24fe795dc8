/*
** validate.c — whole-document walks over the rows: counting them
** (jj_doc_rows) and checking every value (jj_doc_validate).  Each drives a
** private cursor, so it sits above the cursor (cursor.c) and the accessors
** (value.c); jj_parse reaches it only for JJ_PARSE_VALIDATE.
*/
#include <stdint.h>

#include "doc.h"

/* Scan the rows' structure to the end once (a private cursor starting at
** the last row already known), then answer from doc->total. */
int64_t jj_doc_rows(jj_doc *doc, jj_error *err) {
  jj_error_clear(err);
  if (!doc) return jj_fail(err, JJ_ERR_USAGE, NULL, "no document"), -1;
  if (doc->total >= 0) return doc->total;
  jj_cursor *c = jj_cursor_new(doc, err);
  if (!c) return -1;
  int rc = jj_cursor_seek(c, INT64_MAX, err);
  jj_cursor_free(c);
  return rc < 0 ? -1 : doc->total;
}

/* Read value `col` of c's row with the accessor of its type; nested tables
** are validated recursively. */
static jj_code validate_value(jj_cursor *c, size_t col, jj_type type,
                              jj_error *err) {
  union {
    int64_t i;
    double f;
    int b;
    int32_t d;
    jj_timestamp t;
  } u;
  const char *p;
  const unsigned char *bp;
  size_t n;
  jj_doc *t;
  int rc;
  switch (type) {
    case JJ_INT: rc = jj_cursor_int(c, col, &u.i, err); break;
    case JJ_FLOAT: rc = jj_cursor_double(c, col, &u.f, err); break;
    case JJ_TEXT: rc = jj_cursor_text(c, col, &p, &n, err); break;
    case JJ_DATE: rc = jj_cursor_date(c, col, &u.d, err); break;
    case JJ_TIMESTAMP: rc = jj_cursor_timestamp(c, col, &u.t, err); break;
    case JJ_BOOL: rc = jj_cursor_bool(c, col, &u.b, err); break;
    case JJ_BYTES: rc = jj_cursor_bytes(c, col, &bp, &n, err); break;
    case JJ_TABLE:
      rc = jj_cursor_table(c, col, &t, err);
      if (rc == 1) {
        jj_code code = jj_doc_validate(t, err);
        jj_doc_free(t);
        return code;
      }
      break;
    default: rc = -1; jj_fail(err, JJ_ERR_USAGE, NULL, "unknown column type"); break;
  }
  return rc < 0 ? (err ? err->code : JJ_ERR_USAGE) : JJ_OK;
}

/* Every row, every value, the end and "count": a private cursor reads it
** all and the first error is returned. */
jj_code jj_doc_validate(jj_doc *doc, jj_error *err) {
  jj_error local;
  if (!err) err = &local;
  jj_error_clear(err);
  if (!doc) return jj_fail(err, JJ_ERR_USAGE, NULL, "no document");
  jj_cursor *c = jj_cursor_new(doc, err);
  if (!c) return err->code;
  size_t ncol = doc->schema->n;
  const jj_col *cols = doc->schema->cols;
  int rc;
  jj_code code = JJ_OK;
  while (code == JJ_OK && (rc = jj_cursor_next(c, err)) != 0) {
    if (rc < 0) {
      code = err->code;
      break;
    }
    for (size_t i = 0; i < ncol && code == JJ_OK; i++)
      code = validate_value(c, i, cols[i].type, err);
  }
  jj_cursor_free(c);
  return code;
}
