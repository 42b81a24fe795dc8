/*
** doc.c — a document (jj_doc): its one constructor, what it owns, its
** accessors, and the errors that name a place in it ("row 3, column "id",
** byte 120: ...", with the path of a nested table in front).  The header
** is read by reader.c, rows by rowscan.c and cursor.c; they all report
** their errors through here.
**
** Memory: a document owns its row index, its path (nested tables) and, at
** the top level, its schema; it never owns the bytes it reads.
*/
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doc.h"

/* See doc.h.  Fields are set in the order of the struct. */
jj_doc *jj_doc_new(const jj_doc *parent, int64_t row, size_t col,
                   const char *begin, const char *end, unsigned max_depth,
                   jj_error *err) {
  jj_doc *d = calloc(1, sizeof *d);
  jj_schema *own = parent ? NULL : jj_schema_new();
  char *path = NULL;
  const jj_col *k = parent ? &parent->schema->cols[col] : NULL;
  if (parent) {
    size_t plen = parent->path ? strlen(parent->path) : 0, cap = plen + k->len + 48;
    if ((path = malloc(cap)) != NULL)
      snprintf(path, cap, "%srow %lld, column \"%s\", ",
               parent->path ? parent->path : "", (long long)row, k->name);
  }
  if (!d || (parent ? !path : !own)) {
    free(d);
    free(path);
    jj_schema_free(own);
    jj_fail(err, JJ_ERR_NOMEM, NULL, "out of memory");
    return NULL;
  }
  d->base = parent ? parent->base : begin;
  d->begin = begin;
  d->end = end;
  d->schema = parent ? k->table : own;
  d->own_schema = own;
  d->rows = parent ? begin + 1 : NULL; /* top level: jj_parse finds them */
  d->count = -1;                       /* top level: jj_parse may set it */
  d->count_at = JJ_NO_OFFSET;
  d->max_depth = !parent ? max_depth : parent->max_depth > 2 ? parent->max_depth - 2 : 0;
  d->scan = parent ? parent->scan : JJ_SCAN_SCALAR; /* top level: jj_parse_opts */
  d->index = NULL;
  d->nindex = d->icap = 0;
  d->total = -1;
  d->path = path;
  d->outer_row = !parent ? 0 : parent->path ? parent->outer_row : row;
  d->outer_column = !parent ? -1 : parent->path ? parent->outer_column : (int)col;
  return d;
}

/* Frees what the document owns: its schema (top level), row index and
** path; never the bytes. */
void jj_doc_free(jj_doc *doc) {
  if (!doc) return;
  jj_schema_free(doc->own_schema);
  free(doc->index);
  free(doc->path);
  free(doc);
}

/* Accessors: the document owns (or, nested, borrows) what they return. */
const jj_schema *jj_doc_schema(const jj_doc *doc) { return doc ? doc->schema : NULL; }

int64_t jj_doc_declared_count(const jj_doc *doc) { return doc ? doc->count : -1; }

const char *jj_doc_bytes(const jj_doc *doc, size_t *len) {
  if (!doc) return NULL;
  if (len) *len = (size_t)(doc->end - doc->begin);
  return doc->begin;
}

/* ------------------------------------------------------------------ */
/* Errors at a place in the document                                   */
/* ------------------------------------------------------------------ */

/* Fail at byte `at` of row `row`, column `col` (col >= ncol: no column),
** with the document's path for nested tables. */
jj_code jj_cursor_fail(const jj_cursor *c, jj_error *err, jj_code code,
                       int64_t row, size_t col, const char *at, const char *fmt,
                       ...) {
  const jj_doc *d = c->doc;
  int has_col = col < c->ncol;
  jj_where w = {row,
                has_col ? (int)col : -1,
                has_col ? c->cols[col].name : NULL,
                at ? (size_t)(at - d->base) : JJ_NO_OFFSET,
                d->path,
                d->outer_row,
                d->outer_column};
  va_list ap;
  va_start(ap, fmt);
  jj_vfail(err, code, &w, fmt, ap);
  va_end(ap);
  return code;
}

/* See doc.h: what "found ..." quotes. */
size_t jj_token_len(const char *p, const char *end) {
  const char *s = p;
  if (p < end && strchr(",]}[{\"", *p)) return 1;
  while (p < end && !strchr(",]}[{\" \t\r\n", *p) && p - s < 40) p++;
  return (size_t)(p - s);
}

/* "expected <what>, found <token>", or the end of the input. */
jj_code jj_cursor_expected(const jj_cursor *c, jj_error *err, int64_t row,
                           size_t col, const char *p, const char *what) {
  char s[JJ_SHOW_CAP];
  const char *end = c->doc->end;
  if (p >= end)
    return jj_cursor_fail(c, err, JJ_ERR_SYNTAX, row, col, p,
                  "unexpected end of input (expected %s)", what);
  return jj_cursor_fail(c, err, JJ_ERR_SYNTAX, row, col, p, "expected %s, found %s",
                what, jj_show(s, sizeof s, p, jj_token_len(p, end), 1));
}

#ifndef JJ_SMALL /* a build for size grows the index in cursor.c only */
/* See doc.h.  The index doubles from JJ_INDEX_FIRST entries, as cursor.c's
** index_row grows it one row at a time. */
int jj_doc_index_room(jj_doc *d, uint64_t rows) {
  if (d->icap >= rows) return 0;
  size_t cap = d->icap ? d->icap : JJ_INDEX_FIRST;
  while (cap < rows && cap <= SIZE_MAX / 2) cap *= 2;
  if (cap < rows) return -1;
  size_t *ix = cap <= SIZE_MAX / sizeof *ix ? realloc(d->index, cap * sizeof *ix) : NULL;
  if (!ix) return -1;
  d->index = ix;
  d->icap = cap;
  return 0;
}

/* See doc.h: jj_row_done when the index has no room left. */
int jj_row_index_full(jj_cursor *c, const char *p, jj_error *err) {
  jj_doc *const d = c->doc;
  if (jj_doc_index_room(d, (uint64_t)d->nindex + 1)) {
    jj_cursor_state(c, JJ_CUR_LOST);
    return jj_fail(err, JJ_ERR_NOMEM, NULL, "out of memory"), -1;
  }
  d->index[d->nindex++] = (size_t)(p - d->base);
  c->row++;
  return 1;
}
#endif
