/*
** source.c — turn a SOURCE argument into an open document.
**
**   BLOB                      a document's bytes; gzip when the bytes start
**                             with gzip's magic; brotli tried when the bytes
**                             are not JSON (brotli has no magic)
**   TEXT starting with '{'    a document (after JSON whitespace)
**   other TEXT                a file name: jj_file_open maps a plain file
**                             (never copied), decompresses gzip (by magic)
**                             and brotli (by a .br name)
**   NULL                      no document: the scan returns no rows
**
** Errors name the source first, the way the user wrote it:
**   rows.jj: row 1042, column "joined", byte 65123: "2023-02-29" is not ...
**   blob: byte 0: ...
** Errors of jj_file_open already name the file ("cannot open "x.jj": No
** such file or directory") and are passed on as they are.
*/
#include <string.h>
#include <sys/stat.h>

#include "ext.h"

/* JSON whitespace, the only bytes allowed before a document's '{'. */
static int is_ws(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* 1 if p[0..len) starts with '{' after JSON whitespace. */
static int looks_like_document(const char *p, size_t len) {
  size_t i = 0;
  while (i < len && is_ws(p[i])) i++;
  return i < len && p[i] == '{';
}

void jjx_source_close(jjx_source *s) {
  jj_doc_free(s->doc);
  if (s->is_file) jj_file_close(&s->file);
  sqlite3_free(s->heap);
  sqlite3_free(s->label);
  memset(s, 0, sizeof *s);
}

/* Parse s->data[0..len) as the source's document. */
static int parse(jjx_source *s, unsigned flags, char **pzErr) {
  jj_error err;
  s->doc = jj_parse_opts(s->data, s->len, flags, 0, &err);
  if (s->doc) return SQLITE_OK;
  *pzErr = sqlite3_mprintf("%s: %s", s->label, err.message);
  return jjx_rc(err.code);
}

/* Decompression of a blob goes through this sink, which enforces max_size
** itself so that a blob over the limit is told apart from a blob that is
** simply not brotli. */
typedef struct capped {
  jjx_buf out;    /* decompressed bytes; handed to the source or freed */
  uint64_t limit; /* max_size; 0: none */
  int over;       /* set when the limit was hit */
} capped;

static int capped_sink(void *ctx, const char *data, size_t len) {
  capped *c = ctx;
  if (c->limit && (len > c->limit || c->out.len > c->limit - len)) {
    c->over = 1;
    return 1;
  }
  return jjx_buf_append(&c->out, data, len);
}

/* Decompress a blob of `kind` into c->out.  JJ_OK, or the core's error;
** c->over / c->out.oom say when the limit or memory stopped it. */
static jj_code inflate_blob(jj_compression kind, const void *p, size_t len,
                            capped *c, jj_error *err) {
  jj_inflater *z = jj_inflate_new(kind, 0, capped_sink, c, err);
  if (!z) return err->code;
  jj_code code = jj_inflate_write(z, p, len, err);
  if (code == JJ_OK) code = jj_inflate_finish(z, err);
  jj_inflate_free(z);
  return code;
}

/* A BLOB source.  Plain bytes are copied once (see ext.h); compressed bytes
** are decompressed straight from the argument into memory we own. */
static int open_blob(jjx_source *s, const void *p, size_t len,
                     uint64_t max_size, unsigned flags, char **pzErr) {
  jj_compression kind = jj_detect_compression(p, len);
  if (kind == JJ_PLAIN && !looks_like_document(p, len) && len > 0)
    kind = JJ_BROTLI; /* not JSON: it may be brotli */
  if (kind != JJ_PLAIN) {
    capped c = {{0}, max_size, 0};
    jj_error err;
    jj_code code = inflate_blob(kind, p, len, &c, &err);
    if (code == JJ_OK && (kind == JJ_GZIP || looks_like_document(c.out.p,
                                                                  c.out.len))) {
      s->heap = c.out.p; /* the source owns it now */
      s->data = c.out.p ? c.out.p : "";
      s->len = c.out.len;
      return parse(s, flags, pzErr);
    }
    jjx_buf_free(&c.out);
    if (c.over) {
      *pzErr = sqlite3_mprintf(
          "%s: decompressed data exceeds the limit of %llu bytes (max_size)",
          s->label, (unsigned long long)max_size);
      return SQLITE_ERROR;
    }
    if (c.out.oom || code == JJ_ERR_NOMEM) return SQLITE_NOMEM;
    if (kind == JJ_GZIP) {
      *pzErr = sqlite3_mprintf("%s: %s", s->label, err.message);
      return jjx_rc(code);
    }
    /* Not brotli either: parse the bytes as they are, so that the error is
    ** the reader's own ("byte 0: ..."). */
  }
  s->heap = sqlite3_malloc64(len ? len : 1);
  if (!s->heap) return SQLITE_NOMEM;
  if (len) memcpy(s->heap, p, len);
  s->data = s->heap;
  s->len = len;
  return parse(s, flags, pzErr);
}

/* A file source: mapped (or decompressed) by the core. */
static int open_path(jjx_source *s, const char *path, uint64_t max_size,
                     unsigned flags, char **pzErr) {
  jj_error err;
  if (jj_file_open(path, max_size, &s->file, &err) != JJ_OK) {
    *pzErr = sqlite3_mprintf("%s", err.message);
    return jjx_rc(err.code);
  }
  s->is_file = 1;
  s->data = s->file.data;
  s->len = s->file.len;
  return parse(s, flags, pzErr);
}

/* Shared by both entry points: label the source, then open it. */
static int open_text(jjx_source *s, const char *text, size_t len,
                     uint64_t max_size, unsigned flags, char **pzErr) {
  int rc;
  if (looks_like_document(text, len)) {
    s->label = sqlite3_mprintf("blob");
    if (!s->label) return SQLITE_NOMEM;
    s->heap = sqlite3_malloc64(len);
    if (!s->heap) return SQLITE_NOMEM;
    memcpy(s->heap, text, len);
    s->data = s->heap;
    s->len = len;
    return parse(s, flags, pzErr);
  }
  if (memchr(text, '\0', len)) {
    *pzErr = sqlite3_mprintf("a file name cannot contain a NUL byte");
    return SQLITE_ERROR;
  }
  s->label = sqlite3_mprintf("%.*s", (int)len, text);
  if (!s->label) return SQLITE_NOMEM;
  rc = open_path(s, s->label, max_size, flags, pzErr);
  return rc;
}

int jjx_source_open_text(jjx_source *s, const char *text, size_t len,
                         uint64_t max_size, unsigned flags, char **pzErr) {
  memset(s, 0, sizeof *s);
  *pzErr = NULL;
  int rc = open_text(s, text, len, max_size, flags, pzErr);
  if (rc != SQLITE_OK) jjx_source_close(s);
  return rc;
}

int jjx_source_open_value(jjx_source *s, sqlite3_value *v, uint64_t max_size,
                          unsigned flags, char **pzErr) {
  int rc = SQLITE_OK;
  memset(s, 0, sizeof *s);
  *pzErr = NULL;
  switch (sqlite3_value_type(v)) {
    case SQLITE_NULL:
      return SQLITE_OK;
    case SQLITE_BLOB: {
      const void *p = sqlite3_value_blob(v);
      size_t len = (size_t)sqlite3_value_bytes(v);
      s->label = sqlite3_mprintf("blob");
      if (!s->label) return SQLITE_NOMEM;
      rc = open_blob(s, p, len, max_size, flags, pzErr);
      break;
    }
    case SQLITE_TEXT: {
      const char *p = (const char *)sqlite3_value_text(v);
      if (!p) return SQLITE_NOMEM;
      rc = open_text(s, p, (size_t)sqlite3_value_bytes(v), max_size, flags,
                     pzErr);
      break;
    }
    default:
      *pzErr = sqlite3_mprintf(
          "SOURCE must be a BLOB, a document, a file name or NULL, not %s",
          sqlite3_value_type(v) == SQLITE_INTEGER ? "an INTEGER" : "a REAL");
      return SQLITE_ERROR;
  }
  if (rc != SQLITE_OK) jjx_source_close(s);
  return rc;
}

int64_t jjx_estimate_rows(uint64_t bytes) {
  uint64_t n = bytes / 60;
  if (n < 1) n = 1;
  return n > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)n;
}

/* Planning-time estimate for a literal SOURCE; the file is only stat()ed. */
int64_t jjx_estimate_value(sqlite3_value *v) {
  struct stat st;
  switch (sqlite3_value_type(v)) {
    case SQLITE_NULL:
      return 1;
    case SQLITE_BLOB:
      return jjx_estimate_rows((uint64_t)sqlite3_value_bytes(v));
    case SQLITE_TEXT: {
      const char *p = (const char *)sqlite3_value_text(v);
      size_t len = (size_t)sqlite3_value_bytes(v);
      if (!p) return -1;
      if (looks_like_document(p, len)) return jjx_estimate_rows(len);
      if (stat(p, &st) != 0 || st.st_size < 0) return -1;
      /* A compressed file holds several times its size in rows. */
      if (jj_compression_for_path(p) != JJ_PLAIN)
        return jjx_estimate_rows((uint64_t)st.st_size * 8);
      return jjx_estimate_rows((uint64_t)st.st_size);
    }
    default:
      return -1;
  }
}
