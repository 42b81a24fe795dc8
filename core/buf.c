/*
** buf.c — jj_buf, the growable byte buffer that text escaping, the schema's
** JSON, the writer and jj_cursor_object build their output in, and
** jj_spool: bytes in such a buffer up to a bound, then in a temporary file
** (the rows written ahead of their header by the row builder and the
** converter).  It knows nothing else of the library, so every file may use
** it.
**
** Memory: the buffer's owner frees b->p, with jj_buf_free or, when the
** bytes are handed on to a caller of the public API, with jj_free.  A
** buffer with an allocator (b->a, set by the writer for
** jj_writer_new_alloc) grows and frees through it instead, and its bytes
** go to a caller who frees them with that allocator's free.
**
** The SQLite extension has a buffer of the same shape of its own (jjx_buf,
** ext/util.c) on purpose: the extension sees only the public header, and
** what it builds goes to SQLite, which frees it with sqlite3_free, so it
** must come from sqlite3_realloc64.
*/
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* Grows by doubling from 256 bytes; refuses sizes near SIZE_MAX so that
** the doubling cannot overflow. */
int jj_buf_reserve(jj_buf *b, size_t more) {
  if (b->cap - b->len >= more) return 0;
  if (more > SIZE_MAX / 2 - b->len) return -1;
  size_t cap = b->cap ? b->cap : 256;
  while (cap - b->len < more) cap *= 2;
  char *p = b->a ? (b->a->realloc)(b->a->ctx, b->p, cap) /* (): no macro */
                 : realloc(b->p, cap);
  if (!p) return -1;
  b->p = p;
  b->cap = cap;
  return 0;
}

int jj_buf_append(jj_buf *b, const void *p, size_t n) {
  if (jj_buf_reserve(b, n)) return -1;
  if (n) memcpy(b->p + b->len, p, n);
  b->len += n;
  return 0;
}

int jj_buf_sink(void *ctx, const char *p, size_t n) {
  return jj_buf_append(ctx, p, n);
}

void jj_buf_free(jj_buf *b) {
  if (!b->a)
    free(b->p);
  else if (b->p)
    (b->a->free)(b->a->ctx, b->p);
  b->p = NULL;
  b->len = b->cap = 0;
}

int jj_spool_add(jj_spool *s, const char *p, size_t len, size_t memory) {
  if (s->mem.len + len <= memory) return jj_buf_append(&s->mem, p, len) ? -1 : 0;
  if (!s->file && !(s->file = tmpfile())) return -1;
  if (s->mem.len &&
      fwrite(s->mem.p, 1, s->mem.len, s->file) != s->mem.len)
    return -1;
  s->mem.len = 0;
  return fwrite(p, 1, len, s->file) == len ? 0 : -1;
}

int jj_spool_replay(jj_spool *s, int (*each)(void *ctx, const char *p,
                                             size_t len),
                    void *ctx) {
  int rc = 0;
  if (s->file) {
    char buf[1 << 16];
    size_t got;
    if (fflush(s->file) || fseek(s->file, 0, SEEK_SET)) return -1;
    while (!rc && (got = fread(buf, 1, sizeof buf, s->file)) > 0)
      rc = each(ctx, buf, got);
    if (!rc && ferror(s->file)) return -1;
  }
  return rc ? rc : s->mem.len ? each(ctx, s->mem.p, s->mem.len) : 0;
}

void jj_spool_free(jj_spool *s) {
  jj_buf_free(&s->mem);
  if (s->file) fclose(s->file);
  s->file = NULL;
}
