/*
** buf.c — the byte buffer of buf.h: growing by doubling, appending, the
** jj_sink shape, freeing.  ext.h for SQLite's API pointer (and buf.h).
*/
#include <stdint.h>
#include <string.h>

#include "ext.h"

/* jjx_buf_grow's growing (buf.h): by doubling; the buffer is unchanged
** when the allocation fails. */
int jjx_buf_grow_room(jjx_buf *b, size_t n) {
  size_t cap = b->cap ? b->cap : 256;
  while (cap - b->len < n) {
    if (cap > SIZE_MAX / 2) {
      b->oom = 1;
      return -1;
    }
    cap *= 2;
  }
  char *q = sqlite3_realloc64(b->p, cap);
  if (!q) {
    b->oom = 1;
    return -1;
  }
  b->p = q;
  b->cap = cap;
  return 0;
}

int jjx_buf_append(jjx_buf *b, const void *p, size_t n) {
  if (jjx_buf_grow(b, n)) return -1;
  if (n) memcpy(b->p + b->len, p, n);
  b->len += n;
  return 0;
}

/* The jj_sink shape of jjx_buf_append: nonzero stops the producer. */
int jjx_buf_sink(void *ctx, const char *data, size_t len) {
  return jjx_buf_append(ctx, data, len);
}

void jjx_buf_free(jjx_buf *b) {
  sqlite3_free(b->p);
  memset(b, 0, sizeof *b);
}

