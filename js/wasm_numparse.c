/*
** wasm_numparse.c — jj_num_parse_double for the reader-only WebAssembly
** build (js/dist/jalapenojson-reader.wasm), in place of core/numparse.c's.
** Why: core/numparse.c's is correctly rounded for every input with
** Eisel-Lemire over a 10.7 KB table of powers of five and a big-integer
** fallback, about 3 KB of code that the size-budgeted reader module can
** leave to JavaScript, whose Number() is correctly rounded too (exactly
** so for up to 20 significant digits by ECMA-262; js/lib/number.js makes
** longer ones exact with BigInt).  The reader+writer module keeps the core's
** (it is built for speed, and its writer prints numbers with the table).
**
** The Makefile compiles core/numparse.c for this module with
** -Djj_num_parse_double=jj_num_parse_double_core, so the core's definition
** gets a name nothing calls and --gc-sections drops it with its helpers;
** jj_num_span and jj_num_parse_int64 are still the core's.
**
** Same contract as num.h's declaration: the RFC 8259 grammar checked here
** (JJ_NUM_SYNTAX), then Clinger's fast path (at most 19 digits, the
** integer w <= 2^53 and the decimal exponent in [-22, 22]: one exactly
** rounded IEEE operation, as core/numparse.c takes it for the same
** inputs), zero (any exponent), else the imported jjw_number; overflow to
** infinity is JJ_NUM_RANGE.
*/
#include <stddef.h>
#include <stdint.h>

#include "num.h"

/* js/lib/number.js: the correctly rounded double of p[0..len), a JSON
** number that passed the grammar check below; +-Infinity when it
** overflows. */
__attribute__((import_module("env"), import_name("jjw_number")))
double jjw_number(const char *p, size_t len);

/* Skip a run of digits at p[*i..len); the digits go into *w (mod 2^64:
** exact while at most 19 in total) and their count is returned. */
static size_t digits(const char *p, size_t len, size_t *i, uint64_t *w) {
  size_t start = *i;
  for (; *i < len && (unsigned char)(p[*i] - '0') < 10; ++*i) *w = *w * 10 + (uint64_t)(p[*i] - '0');
  return *i - start;
}

int jj_num_parse_double(const char *p, size_t len, double *out) {
  size_t i = p && len && *p == '-', ni, nf = 0;
  uint64_t w = 0, e = 0;
  int eneg = 0;
  ni = digits(p, len, &i, &w);
  if (ni == 0 || (p[i - ni] == '0' && ni > 1)) return JJ_NUM_SYNTAX;
  if (i < len && p[i] == '.') {
    i++;
    if ((nf = digits(p, len, &i, &w)) == 0) return JJ_NUM_SYNTAX;
  }
  if (i < len && (p[i] == 'e' || p[i] == 'E')) {
    i++;
    if (i < len && (p[i] == '+' || p[i] == '-')) eneg = p[i++] == '-';
    size_t ne = i;
    /* the exponent's value matters only when small (the fast path) */
    while (i < len && (unsigned char)(p[i] - '0') < 10) {
      if (e < 1000) e = e * 10 + (uint64_t)(p[i] - '0');
      i++;
    }
    if (i == ne) return JJ_NUM_SYNTAX;
  }
  if (i != len) return JJ_NUM_SYNTAX;
  double d;
  int64_t q = (eneg ? -(int64_t)e : (int64_t)e) - (int64_t)nf;
  if (w == 0 && ni + nf <= 19) {
    d = 0; /* every digit is 0 (with at most 19, w is exact) */
  } else if (ni + nf <= 19 && w <= (UINT64_C(1) << 53) && q >= -22 && q <= 22) {
    /* 10^|q| <= 10^22 is exact as a double, and so is every step of this
    ** product; w is exact too, so one IEEE operation rounds once */
    double s = 1;
    for (int64_t k = q < 0 ? -q : q; k > 0; k--) s *= 10;
    d = q < 0 ? (double)(int64_t)w / s : (double)(int64_t)w * s;
  } else {
    d = jjw_number(p, len);
    if (d - d != 0) return JJ_NUM_RANGE; /* infinite (never NaN) */
    *out = d; /* the sign is already in it, -0 included */
    return JJ_NUM_OK;
  }
  *out = p[0] == '-' ? -d : d;
  return JJ_NUM_OK;
}
