/*
** wasm_printf_js.c — snprintf and vsnprintf for the reader-only WebAssembly
** build (js/dist/jalapenojson-reader.wasm), done by JavaScript: the
** imported jjw_vsnprintf (js/lib/printf.js) reads the format and the
** arguments from the module's memory and writes the output back.  Why:
** the core formats only its messages, cold paths all, and the C version
** (js/wasm_printf.c, which the reader+writer module keeps) is about 450
** bytes of this module's gzipped size.
**
** Same contract as js/wasm_printf.c's, which printf.js follows: the
** conversions the core uses (%s, %.Ns, %.*s, %c, %d, %i, %u with the
** length modifiers l, ll and z, %%), another one written as '?', flags and
** widths skipped; at most n-1 bytes and a NUL written, the length the
** whole output would have returned.  The va_list is wasm32's: a pointer to
** the arguments in memory, each at its own alignment (js/lib/printf.js).
*/
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

__attribute__((import_module("env"), import_name("jjw_vsnprintf")))
int jjw_vsnprintf(char *buf, size_t n, const char *fmt, va_list ap);

int vsnprintf(char *restrict buf, size_t n, const char *restrict fmt, va_list ap) {
  return jjw_vsnprintf(buf, n, fmt, ap);
}

int snprintf(char *restrict buf, size_t n, const char *restrict fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int r = jjw_vsnprintf(buf, n, fmt, ap);
  va_end(ap);
  return r;
}
