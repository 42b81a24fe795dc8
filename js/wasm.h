/*
** wasm.h — what the files of the WebAssembly ABI share (js/wasm.c,
** js/wasm_read.c, js/wasm_write.c): the export macro, the last error and
** the second result that JS reads after a call, and the document handle.
** Only the public API of core/ (jalapenojson.h) is used below it.
*/
#ifndef JJW_WASM_H
#define JJW_WASM_H

#include <stdint.h>
#include <string.h>

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

/* The tapes JS packs (js/lib/write.js) for the writer (wasm_write.c) and
** the builder (wasm_build.c): numbers little-endian and unaligned. */
static inline uint32_t jjw_u32_at(const unsigned char *p) {
  uint32_t v;
  memcpy(&v, p, 4);
  return v;
}
/* A timestamp's 15 bytes: the seconds as a double, the nanoseconds (4),
** the zone in minutes (2), the fraction digits (1). */
static inline jj_timestamp jjw_ts_at(const unsigned char *p) {
  jj_timestamp ts;
  double d;
  int16_t zone;
  memcpy(&d, p, 8);
  ts.seconds = (int64_t)d;
  ts.nanos = (int32_t)jjw_u32_at(p + 8);
  memcpy(&zone, p + 12, 2);
  ts.zone_minutes = zone;
  ts.digits = p[14];
  return ts;
}
/* A tape JS packed wrong: jjw_err is JJ_ERR_USAGE with `message` (under
** 40 bytes).  Returns -1. */
int jjw_tape_malformed(const char *message);

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
