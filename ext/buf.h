/*
** buf.h — a growable byte buffer on SQLite's allocator (buf.c), usable as a
** jj_sink.  Included by ext.h, so every file of the extension has it; a
** header of its own so that the inline growth test below, which calls
** buf.c, does not tie ext.h (which buf.c includes for the API pointer) to
** a file that stands on it.
*/
#ifndef JJX_BUF_H
#define JJX_BUF_H

#include <stddef.h>

/* A growable byte buffer on sqlite3_realloc64, usable as a jj_sink (ctx is
** the jjx_buf).  The owner frees p with sqlite3_free (jjx_buf_free). */
typedef struct jjx_buf {
  char *p;
  size_t len;
  size_t cap;
  int oom; /* set when an append failed */
} jjx_buf;
int jjx_buf_append(jjx_buf *b, const void *p, size_t n); /* 0, or -1 OOM */
/* Make room for n more bytes after len (nothing to do when they fit), so
** that a caller can store straight into p + len: 0, or -1 OOM (the buffer
** unchanged).  The test is inline: callers grow once per value on hot
** paths (a call per text value cost 1% of a full scan). */
int jjx_buf_grow_room(jjx_buf *b, size_t n);
static inline int jjx_buf_grow(jjx_buf *b, size_t n) {
  return b->cap - b->len >= n ? 0 : jjx_buf_grow_room(b, n);
}
int jjx_buf_sink(void *ctx, const char *data, size_t len);
void jjx_buf_free(jjx_buf *b);

#endif /* JJX_BUF_H */
