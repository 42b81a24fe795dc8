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
** replaced (a symbolic link's target is), keeping its mode and owner; the
** core's errors pass through as "jj_write: ...".  A NULL path or document returns NULL and
** writes nothing, as SQL functions do with NULL.
*/
#include <string.h>

#include "ext.h"

void jjx_write_func(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  jj_error err;
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
  /* Refuse anything that is not a whole, valid document first. */
  jj_doc *doc = jj_parse_opts(data ? data : "", len, JJ_PARSE_VALIDATE, 0,
                              &err);
  if (!doc) {
    if (err.code == JJ_ERR_NOMEM)
      sqlite3_result_error_nomem(ctx);
    else
      jjx_ctx_err(ctx, "jj_write: not a valid document: %s", err.message);
    return;
  }
  jj_doc_free(doc);
  jj_code code = jj_file_write(path, data ? data : "", len, kind, -1,
                               &written, &err);
  if (code != JJ_OK) {
    if (code == JJ_ERR_NOMEM)
      sqlite3_result_error_nomem(ctx);
    else
      jjx_ctx_err(ctx, "jj_write: %s", err.message);
    return;
  }
  sqlite3_result_int64(ctx, (sqlite3_int64)written);
}
