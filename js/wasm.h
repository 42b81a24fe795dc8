/*
** wasm.h — what the files of the WebAssembly ABI share (js/wasm.c,
** js/wasm_read.c, js/wasm_write.c): the export macro, the last error and
** the second result that JS reads after a call, and the document handle.
** Only the public API of core/ (jalapenojson.h) is used below it.
*/
#ifndef JJW_WASM_H
#define JJW_WASM_H

#include <stdint.h>

#include "jalapenojson.h"

#define EXPORT(name) __attribute__((export_name(#name)))

/* The error of the last call that failed (JS reads it with jjw_err_*):
** module state, as the module serves one JS thread (js/wasm.c). */
extern jj_error jjw_err;
/* A second result (a length) for calls that return a pointer
** (jjw_ret_len). */
extern uint32_t jjw_len;

/* Out of memory without a jj_error from the core (our own allocations):
** fills jjw_err. */
void jjw_nomem(void);

/* A document: the top level owns its bytes, a nested table borrows its
** parent's.  Reference counted, because a nested table must be freed
** before its parent and JS frees views in any order (explicit close or
** garbage collection). */
typedef struct jjw_doc {
  jj_doc *doc;
  char *bytes;            /* owned (top level), NULL for a nested table */
  struct jjw_doc *parent; /* nested: the document whose bytes it borrows */
  int refs;               /* holders: JS, readers, nested tables, batches */
} jjw_doc;

/* A handle of doc (taken over) with its bytes (owned, or NULL) and parent
** (a reference taken); NULL when out of memory, doc and bytes freed then. */
jjw_doc *jjw_doc_wrap(jj_doc *doc, char *bytes, jjw_doc *parent);
/* Drop one reference; the last frees the document, then releases the
** parent. */
void jjw_doc_release(jjw_doc *h);

#endif /* JJW_WASM_H */
