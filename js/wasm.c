/*
** wasm.c — the small ABI the JavaScript module (jalapenojson.js) calls, over
** the public API of core/ (jalapenojson.h) only: memory, errors, documents
** and their schemas.  Reading rows is js/wasm_read.c's, writing
** js/wasm_write.c's (only in the reader+writer module).  Built for wasm32
** by `make js` into js/dist/jalapenojson.wasm (reader and writer) and
** js/dist/jalapenojson-reader.wasm (reader only).
**
** Handles (all pointers into wasm memory, 0 for none):
**   jjw_doc     a document (wasm.h): reference counted.
**   jj_schema   a document's schema, or a nested table column's, owned by
**               the document: JS reads its columns one by one.
**   jjw_reader  a cursor over a jjw_doc with its batch buffers
**               (js/wasm_read.c).
** Errors: a call that fails returns 0 or -1 and leaves the error in one
** jj_error (jjw_err) that JS reads with jjw_err_*.
*/
#include <stdlib.h>
#include <string.h>

#include "wasm.h"

jj_error jjw_err;
uint32_t jjw_len;

/* ---------------------------------------------------------------------- */
/* Memory and errors                                                       */
/* ---------------------------------------------------------------------- */

/* malloc(0) too is a block (js/wasm_malloc.c), never NULL but for want of
** memory. */
EXPORT(jjw_alloc) void *jjw_alloc(size_t n) { return malloc(n); }
EXPORT(jjw_free) void jjw_free(void *p) { free(p); }

/* Out of line: link-time optimization would copy it into each of its
** callers, all cold paths (0.02 KB of the reader-only module gzipped).  No
** message: JS words every out-of-memory error itself (lib/instance.js's
** outOfMemory, which says how full the memory is and what to do). */
__attribute__((noinline)) void jjw_nomem(void) {
  jjw_err.code = JJ_ERR_NOMEM;
  jjw_err.offset = JJ_NO_OFFSET;
  jjw_err.row = 0;
  jjw_err.column = -1;
}

int jjw_tape_malformed(const char *message) {
  jjw_err.code = JJ_ERR_USAGE;
  jjw_err.offset = JJ_NO_OFFSET;
  jjw_err.row = 0;
  jjw_err.column = -1;
  memcpy(jjw_err.message, message, strlen(message) + 1);
  return -1;
}

EXPORT(jjw_err_code) int jjw_err_code(void) { return (int)jjw_err.code; }
/* As 32-bit numbers: a document in the memory (2 GiB at most, see
** js/wasm_malloc.c) has fewer bytes and rows than 2^31; JJ_NO_OFFSET
** becomes -1. */
EXPORT(jjw_err_offset) int jjw_err_offset(void) { return (int)jjw_err.offset; }
EXPORT(jjw_err_row) int jjw_err_row(void) { return (int)jjw_err.row; }
EXPORT(jjw_err_column) int jjw_err_column(void) { return jjw_err.column; }
/* NUL-terminated UTF-8 (the core guarantees the NUL). */
EXPORT(jjw_err_message) const char *jjw_err_message(void) { return jjw_err.message; }
EXPORT(jjw_code_name) const char *jjw_code_name(int code) {
  return jj_code_name((jj_code)code);
}

EXPORT(jjw_ret_len) uint32_t jjw_ret_len(void) { return jjw_len; }

/* ---------------------------------------------------------------------- */
/* Documents                                                               */
/* ---------------------------------------------------------------------- */

void jjw_doc_release(jjw_doc *h) {
  while (h && --h->refs == 0) {
    jjw_doc *parent = h->parent;
    jj_doc_free(h->doc);
    free(h->bytes);
    free(h);
    h = parent;
  }
}

jjw_doc *jjw_doc_wrap(jj_doc *doc, char *bytes, jjw_doc *parent) {
  jjw_doc *h = malloc(sizeof *h);
  if (!h) {
    jj_doc_free(doc);
    free(bytes);
    jjw_nomem();
    return NULL;
  }
  h->doc = doc;
  h->bytes = bytes;
  h->parent = parent;
  h->refs = 1;
  if (parent) parent->refs++;
  return h;
}

/* Parse the document in p[0..len), which jjw_alloc made: the handle owns
** it from now on, also when the parse fails (it is freed then). */
EXPORT(jjw_open) jjw_doc *jjw_open(char *p, size_t len, unsigned max_depth) {
  jj_doc *doc = jj_parse_opts(p, len, 0, max_depth, &jjw_err);
  if (!doc) {
    free(p);
    return NULL;
  }
  return jjw_doc_wrap(doc, p, NULL);
}

EXPORT(jjw_retain) void jjw_retain(jjw_doc *h) { h->refs++; }
EXPORT(jjw_release) void jjw_release(jjw_doc *h) { jjw_doc_release(h); }

/* Number of rows (scans the rows' structure once), -1 on error. */
EXPORT(jjw_rows) double jjw_rows(jjw_doc *h) {
  return (double)jj_doc_rows(h->doc, &jjw_err);
}

/* ---------------------------------------------------------------------- */
/* Schemas: read column by column (the names as UTF-8 bytes that JS        */
/* decodes, the types as their jj_type values)                             */
/* ---------------------------------------------------------------------- */

EXPORT(jjw_schema) const jj_schema *jjw_schema(jjw_doc *h) { return jj_doc_schema(h->doc); }
EXPORT(jjw_columns) uint32_t jjw_columns(const jj_schema *s) {
  return (uint32_t)jj_schema_columns(s);
}
/* The name of column i, its length in jjw_ret_len. */
EXPORT(jjw_column_name) const char *jjw_column_name(const jj_schema *s, uint32_t i) {
  size_t len = 0;
  const char *name = jj_schema_name(s, i, &len);
  jjw_len = (uint32_t)len;
  return name;
}
/* The type of column i: its letter, or '{' (JJ_TABLE) for a nested table,
** whose schema is jjw_column_table. */
EXPORT(jjw_column_type) int jjw_column_type(const jj_schema *s, uint32_t i) {
  return (int)jj_schema_type(s, i);
}
EXPORT(jjw_column_table) const jj_schema *jjw_column_table(const jj_schema *s, uint32_t i) {
  return jj_schema_table(s, i);
}
