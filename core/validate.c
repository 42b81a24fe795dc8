/*
** validate.c — whole-document walks over the rows: counting them
** (jj_doc_rows) and checking every value (jj_doc_validate).  Each drives a
** private cursor, so it sits above the cursor (cursor.c) and the accessors
** (value.c); jj_parse reaches it only for JJ_PARSE_VALIDATE.  A validation
** polls its caller's interrupt callback about every MiB of rows checked
** (jj_doc_validate_poll), as file.c and compress.c poll while reading.
*/
#include <stdint.h>

#include "doc.h"

/* Scan the rows' structure to the end once (a private cursor starting at
** the last row already known), then answer from doc->total. */
int64_t jj_doc_rows(jj_doc *doc, jj_error *err) {
  jj_error_clear(err);
  if (!doc) return JJ_USAGE(jj_fail(err, JJ_ERR_USAGE, NULL, "no document")), -1;
  if (doc->total >= 0) return doc->total;
  jj_cursor *c = jj_cursor_new(doc, err);
  if (!c) return -1;
  int rc = jj_cursor_seek(c, INT64_MAX, err);
  jj_cursor_free(c);
  return rc < 0 ? -1 : doc->total;
}

/* The rows whose place is known (the row index's frontier): a seek to
** one of them is immediate, one past them scans the rows between. */
int64_t jj_doc_rows_known(const jj_doc *doc, uint64_t *at) {
  size_t n = doc ? doc->nindex : 0;
  if (at) *at = n ? (uint64_t)doc->index[n - 1] : 0;
  return (int64_t)n;
}

/* Poll the caller's callback after this many bytes of rows checked. */
#define POLL_EVERY (1u << 20)

/* A walk's interrupt polling, shared by the nested tables it validates
** (nested rows lie inside their outer row, so the end of the last row
** checked only moves forward): the callback is asked again once a row ends
** at or past `next`, a byte offset; SIZE_MAX when there is no callback, so
** the cost per row is one comparison. */
typedef struct walk {
  jj_interrupt interrupt;
  void *interrupt_ctx;
  size_t next;
} walk;

/* c is on a row: poll when it ends POLL_EVERY bytes past the last poll.
** Not in a build for size (the reader-only WebAssembly module), whose one
** caller, js/wasm_read.c, validates without a callback: no indirect call
** (0.05 KB of its gzipped size). */
static jj_code tick(walk *w, const jj_cursor *c, jj_error *err) {
#ifdef JJ_SMALL
  (void)w;
  (void)c;
  (void)err;
  return JJ_OK;
#else
  size_t at = (size_t)(c->pos - c->doc->base);
  if (JJ_LIKELY(at < w->next)) return JJ_OK;
  w->next = at + POLL_EVERY;
  if (w->interrupt(w->interrupt_ctx))
    return jj_fail(err, JJ_ERR_INTERRUPTED, NULL, "interrupted");
  return JJ_OK;
#endif
}

static jj_code validate(jj_doc *doc, walk *w, jj_error *err);

/* Read value `col` of c's row, checked as its accessor checks it; a
** nested table is validated in turn. */
static jj_code validate_value(jj_cursor *c, size_t col, walk *w,
                              jj_error *err) {
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
    case JJ_LOCAL_TIMESTAMP:
    case JJ_BOOL:
    case JJ_BYTES:
    case JJ_JSON: break; /* read is checked */
    case JJ_TABLE:
      code = validate(v.u.table, w, err);
      jj_doc_free(v.u.table);
      break;
  }
  return code;
}

/* Every row, every value, the end and "count": a private cursor reads it
** all and the first error is returned. */
static jj_code validate(jj_doc *doc, walk *w, jj_error *err) {
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
    code = tick(w, c, err);
    for (size_t i = 0; i < ncol && code == JJ_OK; i++)
      code = validate_value(c, i, w, err);
  }
  jj_cursor_free(c);
  return code;
}

jj_code jj_doc_validate_poll(jj_doc *doc, int (*interrupt)(void *ctx),
                             void *interrupt_ctx, jj_error *err) {
  jj_error local;
  walk w = {interrupt, interrupt_ctx, SIZE_MAX};
  if (!err) err = &local;
  jj_error_clear(err);
#ifdef JJ_SMALL /* no polling compiled in (see tick) */
  if (interrupt) return JJ_USAGE(JJ_ERR_USAGE);
#endif
  if (!doc) return JJ_USAGE(jj_fail(err, JJ_ERR_USAGE, NULL, "no document"));
  if (interrupt) w.next = (size_t)(doc->rows - doc->base) + POLL_EVERY;
  return validate(doc, &w, err);
}

jj_code jj_doc_validate(jj_doc *doc, jj_error *err) {
  return jj_doc_validate_poll(doc, NULL, NULL, err);
}
