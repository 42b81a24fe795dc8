/*
** write.c — jj_write(path, document): write a jalapenojson document to a
** file and return the number of bytes written.
**
**   SELECT jj_write('paid.jj.gz', jj_group('id', id)) FROM rows;
**
** The document (TEXT or BLOB) is checked completely before the file is
** touched, so nothing but a valid document is ever written.  The file is
** gzip when the path ends in .gz, brotli when it ends in .br, plain
** otherwise; the suffix of another compressor (.zst, .xz, .bz2, ...) is an
** error (jj_compression_for_write).  The write is atomic (the core's
** jj_file_write: a temporary file ".NAME.jj-tmp-XXXXXX" in the same
** directory, flushed, renamed over the target), so a failure leaves the old
** file as it was and no partial file behind.  Only a regular file is
** replaced (a symbolic link's target is), never a database file of the
** connection (target.c), keeping its mode and owner; the core's errors
** pass through as "jj_write: ...".  A NULL path or document returns NULL
** and writes nothing, as SQL functions do with NULL.
**
** Checking and writing a big document takes a while inside one VM step:
** both poll sqlite3_interrupt() and tick the progress handler every MiB
** (jjx_poll, settings.c), and an interrupted write is a failed one: the
** temporary file is removed, the old file kept, the error "interrupted".
*/
#include <stdio.h>
#include <string.h>

#define CHUNK ((size_t)1 << 20) /* bytes written between polls */

#include "ext.h"

/* The atomic file as a jj_sink, remembering whether it failed (its own
** error is the one to report then, through jj_atomic_commit). */
typedef struct out {
  jj_atomic *a;
  uint64_t bytes; /* written to the file */
  int failed;
} out;

static int out_sink(void *ctx, const char *p, size_t len) {
  out *o = ctx;
  int r = jj_atomic_sink(o->a, p, len);
  if (r)
    o->failed = 1;
  else
    o->bytes += len;
  return r;
}

/* jj_file_write, fed a MiB at a time with a poll between: write
** data[0..len) to `path` atomically, compressed as `kind`.  JJ_OK with
** *written set, or an error in *err (the old file kept, no temporary file
** left). */
static jj_code write_file(const char *path, const char *data, size_t len,
                          jj_compression kind, jjx_poll *poll,
                          uint64_t *written, jj_error *err) {
  jj_deflater *z = NULL;
  out o = {NULL, 0, 0};
  *written = 0;
  o.a = jj_atomic_open(path, err);
  if (!o.a) return err->code;
  if (kind != JJ_PLAIN) {
    z = jj_deflate_new(kind, -1, out_sink, &o, err);
    if (!z) goto fail;
  }
  for (size_t at = 0; at < len && !o.failed; at += CHUNK) {
    size_t part = len - at < CHUNK ? len - at : CHUNK;
    if (at > 0 && jjx_poll_tick(poll, JJX_TICK_MIB)) {
      err->code = JJ_ERR_INTERRUPTED;
      snprintf(err->message, sizeof err->message, "interrupted");
      goto fail;
    }
    if (z)
      jj_deflate_sink(z, data + at, part);
    else
      out_sink(&o, data + at, part);
  }
  /* A write error inside the compressor reaches here as "write failed";
  ** the atomic file holds the real reason and its commit reports it. */
  if (z && jj_deflate_finish(z, err) != JJ_OK && !o.failed) goto fail;
  jj_deflate_free(z);
  jj_code code = jj_atomic_commit(o.a, err);
  if (code == JJ_OK) *written = o.bytes;
  return code;
fail:
  jj_deflate_free(z);
  jj_atomic_abort(o.a);
  return err->code;
}

void jjx_write_func(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  jj_error err;
  jjx_poll poll;
  uint64_t written = 0;
  (void)argc;
  int pt = sqlite3_value_type(argv[0]), dt = sqlite3_value_type(argv[1]);
  if (pt == SQLITE_NULL || dt == SQLITE_NULL) return;
  if (pt != SQLITE_TEXT) {
    jjx_ctx_err(ctx, "jj_write: the path must be TEXT");
    return;
  }
  if (dt != SQLITE_TEXT && dt != SQLITE_BLOB) {
    jjx_ctx_err(ctx, "jj_write: the document must be TEXT or BLOB");
    return;
  }
  const char *path = (const char *)sqlite3_value_text(argv[0]);
  const char *data = dt == SQLITE_TEXT
                         ? (const char *)sqlite3_value_text(argv[1])
                         : (const char *)sqlite3_value_blob(argv[1]);
  size_t len = (size_t)sqlite3_value_bytes(argv[1]);
  if (!path || (dt == SQLITE_TEXT && !data)) {
    sqlite3_result_error_nomem(ctx);
    return;
  }
  if (strlen(path) != (size_t)sqlite3_value_bytes(argv[0])) {
    jjx_ctx_err(ctx, "jj_write: a file name cannot contain a NUL byte");
    return;
  }
  jj_compression kind;
  if (jj_compression_for_write(path, &kind, &err) != JJ_OK) {
    jjx_ctx_err(ctx, "jj_write: %s", err.message);
    return;
  }
  if (!data) data = "";
  if (jjx_refuse_db_target(ctx, "jj_write", path)) return;
  jjx_poll_begin(&poll, sqlite3_context_db_handle(ctx));
  /* Refuse anything that is not a whole, valid document first. */
  jj_doc *doc = jjx_parse_polled(data, len, JJ_PARSE_VALIDATE, &poll, &err);
  if (!doc) {
    jjx_poll_end(&poll);
    if (err.code == JJ_ERR_NOMEM)
      sqlite3_result_error_nomem(ctx);
    else if (err.code == JJ_ERR_INTERRUPTED)
      sqlite3_result_error_code(ctx, SQLITE_INTERRUPT);
    else
      jjx_ctx_err(ctx, "jj_write: not a valid document: %s", err.message);
    return;
  }
  jj_doc_free(doc);
  jj_code code = write_file(path, data, len, kind, &poll, &written, &err);
  jjx_poll_end(&poll);
  if (code == JJ_ERR_NOMEM)
    sqlite3_result_error_nomem(ctx);
  else if (code == JJ_ERR_INTERRUPTED)
    sqlite3_result_error_code(ctx, SQLITE_INTERRUPT);
  else if (code != JJ_OK)
    jjx_ctx_err(ctx, "jj_write: %s", err.message);
  else
    sqlite3_result_int64(ctx, (sqlite3_int64)written);
}
