/*
** wasm_malloc.c — malloc, calloc, realloc and free for the WebAssembly
** build, in place of wasi-libc's dlmalloc.  Why: dlmalloc is several KB of
** the module's size budget, and this module's allocations are few and
** simple (a document's bytes, its row index, cursors, batch buffers), all
** freed when a document or reader is.
**
** The design: blocks of power-of-two sizes (header included), one free
** list per size, carved from the end of linear memory, which grows with
** memory.grow when needed and never shrinks (WebAssembly cannot give memory
** back).  A block at most doubles a request; a freed block is reused by
** the next request of its size class, or, when it is the last block
** carved, returned to the unused end (so is a buffer realloc grew in
** place there).  A request whose class has no free block takes the
** smallest larger free block, split in halves (one half for each class
** between), before a block is carved and memory grows: so the memory that
** closed views held serves any size later, also when it is all in use.
** Halves are not joined again: a program that frees a 64 MiB document in
** the middle keeps that block for the next large one, or for smaller ones.
** Memory grows to 2 GiB at most (the link's --max-memory, in the
** Makefile), though wasm32 could address 4: JS receives an address as a
** signed 32-bit number, so one past 2 GiB would come back negative.
** Payloads are 16-byte aligned, like max_align_t.
** core/ calls malloc and free as any C program calls its C library's and
** knows nothing of this file: the WebAssembly link puts these in the
** library's place (core/ depends on the C library, not on js/).
*/
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define HEADER 16          /* the size class, padded to keep alignment */
#define MIN_CLASS 5        /* 32-byte blocks */
#define MAX_CLASS 31       /* 2 GiB: beyond it wasm32 cannot go anyway */
#define PAGE 65536

extern unsigned char __heap_base; /* the first free byte (wasm-ld) */

/* one list per class; the one past the last is never empty (it is no
** list), which ends malloc's search for a free block */
static void *free_list[MAX_CLASS + 2] = {[MAX_CLASS + 1] = free_list};
static uintptr_t top, limit; /* the unused end of memory: [top, limit) */

/* The class of a block holding n payload bytes, or 0 when too big. */
static unsigned class_of(size_t n) {
  if (n > ((size_t)1 << MAX_CLASS) - HEADER) return 0;
  /* the bits of n + HEADER - 1: 2^k is the power of two at or above n + HEADER */
  unsigned k = 32 - (unsigned)__builtin_clz((unsigned)(n + HEADER - 1));
  return k < MIN_CLASS ? MIN_CLASS : k;
}

/* Room for n more bytes at top: grow memory when needed.  0 when memory
** cannot grow that far. */
static int room_at_top(size_t n) {
  if (!top) top = limit = ((uintptr_t)&__heap_base + 15) & ~(uintptr_t)15;
  if (limit - top >= n) return 1;
  uintptr_t end = __builtin_wasm_memory_size(0) * PAGE;
  if (limit < end) limit = end; /* the pages of the initial memory */
  if (limit - top >= n) return 1;
  size_t pages = (n - (limit - top) + PAGE - 1) / PAGE;
  if (__builtin_wasm_memory_grow(0, pages) == (size_t)-1) return 0;
  limit += pages * PAGE;
  return 1;
}

/* A fresh block of 2^k bytes from the end of memory, or NULL. */
static unsigned char *carve(unsigned k) {
  size_t size = (size_t)1 << k;
  if (!room_at_top(size)) return NULL;
  unsigned char *b = (unsigned char *)top;
  top += size;
  return b;
}

void *malloc(size_t n) {
  unsigned k = class_of(n), j = k;
  if (!k) return NULL;
  /* the smallest free block of class k or larger */
  while (!free_list[j]) j++;
  unsigned char *b = j > MAX_CLASS ? carve(k) : free_list[j];
  if (!b) return NULL;
  if (j <= MAX_CLASS) {
    memcpy(&free_list[j], b + HEADER, sizeof(void *)); /* next link */
    /* a larger one: its first 2^k bytes for this request, the rest freed
    ** as blocks of 2^k, 2^(k+1), ... 2^(j-1) bytes */
    while (j-- > k) {
      unsigned char *half = b + ((size_t)1 << j);
      *(uint32_t *)half = j;
      free(half + HEADER);
    }
  }
  *(uint32_t *)b = k;
  return b + HEADER;
}

void free(void *p) {
  if (!p) return;
  unsigned char *b = (unsigned char *)p - HEADER;
  unsigned k = *(uint32_t *)b;
  /* The last block carved goes back to the top: a buffer grown in place
  ** (realloc below) has no class of its own to be reused by, and the
  ** next one grows in the same memory. */
  if ((uintptr_t)b + ((size_t)1 << k) == top) {
    top = (uintptr_t)b;
    return;
  }
  memcpy(b + HEADER, &free_list[k], sizeof(void *));
  free_list[k] = b;
}

void *calloc(size_t count, size_t size) {
  if (size && count > SIZE_MAX / size) return NULL;
  void *p = malloc(count * size);
  if (p) memset(p, 0, count * size);
  return p;
}

void *realloc(void *p, size_t n) {
  if (!p) return malloc(n);
  unsigned k = *(uint32_t *)((unsigned char *)p - HEADER);
  size_t room = ((size_t)1 << k) - HEADER;
  if (n <= room) return p;
#ifndef JJ_SMALL
  /* The last block carved grows in place (a buffer that keeps growing,
  ** the writer's output, is then never copied; the reader-only module,
  ** built for size and with no writer, copies). */
  unsigned char *b = (unsigned char *)p - HEADER;
  unsigned k2 = class_of(n);
  if (k2 && (uintptr_t)b + ((size_t)1 << k) == top) {
    size_t more = ((size_t)1 << k2) - ((size_t)1 << k);
    if (room_at_top(more)) {
      top += more;
      *(uint32_t *)b = k2;
      return p;
    }
  }
#endif
  void *q = malloc(n);
  if (!q) return NULL;
  memcpy(q, p, room);
  free(p);
  return q;
}
