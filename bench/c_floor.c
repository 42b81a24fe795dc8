/*
** c_floor.c — the floor under every reader: one memchr pass over the
** document, looking for a NUL byte that a JSON text cannot contain.  It is
** what touching every byte once costs (glibc's vectorised memchr), the
** time no parser of that document can beat.  One measurement per process:
**
**   c_floor memchr floor DOC
**
** The run's checksum is {count: 1 if a NUL was found}: expected 0.
*/
#define _POSIX_C_SOURCE 200809L
#include "bench.h"

typedef struct ctx {
  const char *doc;
  size_t len;
} ctx;

static int run_memchr(void *p, bench_sum *s, uint64_t *ns) {
  const ctx *x = (const ctx *)p;
  uint64_t t0 = bench_now_ns();
  const void *hit = memchr(x->doc, 0, x->len);
  *ns = bench_now_ns() - t0;
  s->count = hit != NULL;
  return 0;
}

int main(int argc, char **argv) {
  if (argc != 4 || strcmp(argv[1], "memchr") != 0 || strcmp(argv[2], "floor") != 0) {
    fprintf(stderr, "usage: %s memchr floor DOC\n", argv[0]);
    return 2;
  }
  ctx x;
  char *doc = bench_load(argv[3], &x.len);
  x.doc = doc;
  bench_sum want;
  memset(&want, 0, sizeof want);
  bench_measure("memchr", "floor", run_memchr, &x, &want);
  free(doc);
  return 0;
}
