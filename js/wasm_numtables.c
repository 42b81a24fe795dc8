/*
** wasm_numtables.c — the WebAssembly build's jj_pow5_128, in place of
** core/numtables.c.  Why: that table (667 entries of 128 bits, the leading
** bits of 5^j) is 10.7 KB of data that no compressor shrinks, a third of
** the module's gzipped size.  Here it is an empty array that the JS module
** fills when it instantiates the module (js/lib/instance.js, fillPow5, with
** exact BigInt arithmetic, as tools/gen_numtables.py computes it), before
** any number is parsed or printed; the JS tests check it against
** core/numtables.c entry by entry.  The parser and the printer
** (core/numparse.c, core/numprint.c) are unchanged: they read it through
** numtables.h's declaration.
**
** numtables.h is not included: it declares the table const, and this
** definition must be writable.  667 is JJ_POW5_COUNT (5^-342 .. 5^324).
*/
#include <stdint.h>

uint64_t jj_pow5_128[667][2] __attribute__((aligned(16)));

/* Where JS writes the table: {high, low} 64-bit words per entry. */
__attribute__((export_name("jjw_pow5"))) void *jjw_pow5(void) {
  return jj_pow5_128;
}
