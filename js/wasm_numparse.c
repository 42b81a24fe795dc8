/*
** wasm_numparse.c — jj_num_parse_double and jj_num_parse_int64 for the
** reader-only WebAssembly build (js/dist/jalapenojson-reader.wasm), in place
** of core/numparse.c's.  Why: core/numparse.c's float parser is correctly
** rounded for every input with Eisel-Lemire over a 10.7 KB table of powers
** of five and a big-integer fallback, about 3 KB of code that the
** size-budgeted reader module can leave to JavaScript, whose Number() is
** correctly rounded too (exactly so for up to 20 significant digits by
** ECMA-262; js/lib/number.js makes longer ones exact with BigInt).  The
** integer parser is here too because it can share this file's grammar
** check (one instead of two in the module).  The reader+writer module
** keeps the core's (it is built for speed, and its writer prints numbers
** with the table).
**
** The Makefile compiles core/numparse.c for this module with
** -Djj_num_parse_double=jj_num_parse_double_core and the same for
** jj_num_parse_int64, so the core's definitions get names nothing calls
** and --gc-sections drops them with their helpers; jj_num_span is still
** the core's.
**
** Same contracts as num.h's declarations: the RFC 8259 grammar checked here
** (JJ_NUM_SYNTAX).  Integers: then a fraction or exponent is
** JJ_NUM_NOT_INTEGER, more than 19 digits or outside int64 JJ_NUM_RANGE.
** Floats: then Clinger's fast path (at most 19 digits, the integer
** w <= 2^53 and the decimal exponent in [-22, 22]: one exactly rounded
** IEEE operation, as core/numparse.c takes it for the same inputs), zero
** (any exponent), else the imported jjw_number; overflow to infinity is
** JJ_NUM_RANGE.  js/test/reader.test.mjs compares both with the C reader.
*/
#include <stddef.h>
#include <stdint.h>

#include "num.h"

/* js/lib/number.js: the correctly rounded double of p[0..len), a JSON
** number that passed the grammar check below; +-Infinity when it
** overflows. */
__attribute__((import_module("env"), import_name("jjw_number")))
double jjw_number(const char *p, size_t len);

/* Skip the run of digits at s (up to end); the digits go into *w (mod
** 2^64: exact while at most 19 in total).  Returns the run's end. */
static const char *digits(const char *s, const char *end, uint64_t *w) {
  for (; s < end && (unsigned char)(*s - '0') < 10; s++) *w = *w * 10 + (uint64_t)(*s - '0');
  return s;
}

/* The parts of the JSON number p[0..len): its digits (the integer's and
** the fraction's) in w, their counts, the exponent (its magnitude capped
** at 1000: beyond it only its sign matters), and whether it has one.
** JJ_NUM_OK, or JJ_NUM_SYNTAX when p[0..len) is not exactly a JSON number
** (RFC 8259). */
typedef struct parts {
  uint64_t w;
  size_t ni, nf;
  int64_t e;
  int has_e;
} parts;

static int grammar(const char *p, size_t len, parts *g) {
  const char *s = p, *end = p + len, *q;
  uint64_t e = 0;
  int eneg = 0;
  g->w = 0;
  g->nf = 0;
  g->has_e = 0;
  if (s < end && *s == '-') s++;
  q = digits(s, end, &g->w);
  g->ni = (size_t)(q - s);
  if (g->ni == 0 || (*s == '0' && g->ni > 1)) return JJ_NUM_SYNTAX;
  s = q;
  if (s < end && *s == '.') {
    q = digits(++s, end, &g->w);
    if ((g->nf = (size_t)(q - s)) == 0) return JJ_NUM_SYNTAX;
    s = q;
  }
  if (s < end && (*s == 'e' || *s == 'E')) {
    g->has_e = 1;
    if (++s < end && (*s == '+' || *s == '-')) eneg = *s++ == '-';
    /* the exponent's value matters only when small (the fast path) */
    for (q = s; s < end && (unsigned char)(*s - '0') < 10; s++)
      if (e < 1000) e = e * 10 + (uint64_t)(*s - '0');
    if (s == q) return JJ_NUM_SYNTAX;
  }
  g->e = eneg ? -(int64_t)e : (int64_t)e;
  return s == end ? JJ_NUM_OK : JJ_NUM_SYNTAX;
}

/* num.h's contract, as core/numparse.c's: the grammar first (SYNTAX), then
** a fraction or exponent is NOT_INTEGER, more than 19 digits or a value
** outside int64 RANGE. */
int jj_num_parse_int64(const char *p, size_t len, int64_t *out) {
  parts g;
  if (grammar(p, len, &g)) return JJ_NUM_SYNTAX;
  if (g.nf || g.has_e) return JJ_NUM_NOT_INTEGER;
  int neg = *p == '-';
  if (g.ni > 19 || g.w > (uint64_t)INT64_MAX + (uint64_t)neg) return JJ_NUM_RANGE;
  /* no signed overflow for INT64_MIN */
  *out = !neg ? (int64_t)g.w : g.w == 0 ? 0 : -(int64_t)(g.w - 1) - 1;
  return JJ_NUM_OK;
}

int jj_num_parse_double(const char *p, size_t len, double *out) {
  parts g;
  if (grammar(p, len, &g)) return JJ_NUM_SYNTAX;
  double d;
  int64_t q = g.e - (int64_t)g.nf;
  if (g.w == 0 && g.ni + g.nf <= 19) {
    d = 0; /* every digit is 0 (with at most 19, w is exact) */
  } else if (g.ni + g.nf <= 19 && g.w <= (UINT64_C(1) << 53) && q >= -22 && q <= 22) {
    /* 10^|q| <= 10^22 is exact as a double, and so is every step of this
    ** product; w is exact too, so one IEEE operation rounds once */
    double s = 1;
    for (int64_t k = q < 0 ? -q : q; k > 0; k--) s *= 10;
    d = q < 0 ? (double)(int64_t)g.w / s : (double)(int64_t)g.w * s;
  } else {
    d = jjw_number(p, len);
    if (d - d != 0) return JJ_NUM_RANGE; /* infinite (never NaN) */
    *out = d; /* the sign is already in it, -0 included */
    return JJ_NUM_OK;
  }
  *out = p[0] == '-' ? -d : d;
  return JJ_NUM_OK;
}
