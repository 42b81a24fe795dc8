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

/* Read value `col` of c's row, checked as its accessor checks it; a
** nested table is validated in turn. */
static jj_code validate_value(jj_cursor *c, size_t col, jj_error *err) {
  jj_value v;
  jj_code code = JJ_OK;
  int r = jj_cursor_value(c, col, &v, err);
  if (r <= 0) return r < 0 ? err->code : JJ_OK;
  switch (v.type) {
    case JJ_INT:
    case JJ_FLOAT:
    case JJ_TEXT:
    case JJ_DATE:
    case JJ_TIMESTAMP:
    case JJ_BOOL:
    case JJ_BYTES: break; /* read is checked */
    case JJ_TABLE:
      code = jj_doc_validate(v.u.table, err);
      jj_doc_free(v.u.table);
      break;
  }
  return code;
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
  int rc;
  jj_code code = JJ_OK;
  while (code == JJ_OK && (rc = jj_cursor_next(c, err)) != 0) {
    if (rc < 0) {
      code = err->code;
      break;
    }
    for (size_t i = 0; i < ncol && code == JJ_OK; i++)
      code = validate_value(c, i, err);
  }
  jj_cursor_free(c);
  return code;
}
