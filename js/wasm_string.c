/*
** wasm_string.c — memchr and strlen for the reader-only WebAssembly build,
** in place of wasi-libc's.  Why: wasi-libc's read a word at a time, 540
** bytes of code in a module with a size budget; the reader calls them on
** short spans (a key, a name, a string's run up to its next backslash),
** where a byte loop costs next to nothing.  The reader+writer module,
** built for speed, keeps wasi-libc's.  core/ calls memchr and strlen as
** the C library's and knows nothing of this file, which the reader-only
** link puts in the library's place.
*/
#include <stddef.h>
#include <string.h>

void *memchr(const void *s, int c, size_t n) {
  const unsigned char *p = s;
  for (; n; n--, p++)
    if (*p == (unsigned char)c) return (void *)p;
  return NULL;
}

size_t strlen(const char *s) {
  const char *p = s;
  while (*p) p++;
  return (size_t)(p - s);
}
