/*
** json.c — generic JSON scanning for the parts of a document that have no
** fixed shape: whitespace, and skipping one whole value while checking it
** completely (RFC 8259: structure, strings, numbers, literals), e.g. the
** header's free-form "meta", unknown header keys, and the writer's check of
** the meta text it is given.
**
** jj_json_skip is iterative: the kinds of the open containers live in a
** bit stack (1 = object, 0 = array) of JJ_STACK_BITS bits on the C stack,
** and only a document nested deeper than that (with a max_depth that
** allows it) moves the stack to the heap, freed before jj_json_skip
** returns.  So a hostile document can exhaust neither the C stack nor,
** beyond max_depth / 8 bytes, the heap.
*/
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define JJ_STACK_BITS 4096

/* Space, tab, line feed, carriage return: the only JSON whitespace. */
const char *jj_json_ws(const char *p, const char *end) {
  while (p < end) {
    char c = *p;
    if (c != ' ' && c != '\n' && c != '\r' && c != '\t') break;
    p++;
  }
  return p;
}

/* Check one string at p (*p == '"'): find its end, then check escapes and
** UTF-8 without writing anything (jj_string_decode with out NULL).
** Returns the end or NULL with the problem filled in. */
static const char *skip_string(const char *p, const char *end,
                               const char **bad, jj_code *code,
                               const char **why) {
  int esc = 0;
  size_t at;
  const char *q = jj_string_scan(p, end, &esc, &at, why);
  if (!q) {
    *bad = p + at;
    *code = JJ_ERR_SYNTAX;
    return NULL;
  }
  size_t len = (size_t)(q - p) - 2;
#ifdef JJ_SMALL /* a build for size: jj_string_decode checks every string */
  esc = 1;
#endif
  if (esc) {
    if (jj_string_decode(p + 1, len, NULL, &at, code, why) == (size_t)-1) {
      *bad = p + 1 + at;
      return NULL;
    }
  } else if (!jj_utf8_valid(p + 1, len, &at)) {
    *bad = p + 1 + at;
    *code = JJ_ERR_UTF8;
    *why = "invalid UTF-8";
    return NULL;
  }
  return q;
}

/* 1 when p[0..n) is exactly one number of the JSON grammar
** -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?, whatever its size. */
int jj_json_number_ok(const char *p, size_t n) {
  const char *e = p + n;
  if (p < e && *p == '-') p++;
  if (p < e && *p == '0') {
    p++;
  } else {
    const char *d = p;
    while (p < e && *p >= '0' && *p <= '9') p++;
    if (p == d) return 0;
  }
  if (p < e && *p == '.') {
    const char *d = ++p;
    while (p < e && *p >= '0' && *p <= '9') p++;
    if (p == d) return 0;
  }
  if (p < e && (*p == 'e' || *p == 'E')) {
    p++;
    if (p < e && (*p == '+' || *p == '-')) p++;
    const char *d = p;
    while (p < e && *p >= '0' && *p <= '9') p++;
    if (p == d) return 0;
  }
  return p == e;
}

/* A scalar: number or literal (strings and containers are handled by the
** caller).  Numbers only need to follow the grammar: a value too large for
** a double (1e400) is still valid JSON, so no number is converted. */
static const char *skip_scalar(const char *p, const char *end,
                               const char **bad, jj_code *code,
                               const char **why) {
  char c = *p;
  *bad = p;
  *code = JJ_ERR_SYNTAX;
  if (c == '-' || (c >= '0' && c <= '9')) {
    size_t n = jj_num_span(p, end);
    if (!n || !jj_json_number_ok(p, n)) {
      *why = "invalid number";
      return NULL;
    }
    return p + n;
  }
  if (c == 't' || c == 'f' || c == 'n') {
    const char *lit = c == 't' ? "true" : c == 'f' ? "false" : "null";
    size_t n = strlen(lit);
    if ((size_t)(end - p) < n || memcmp(p, lit, n) != 0) {
      *why = "invalid literal";
      return NULL;
    }
    return p + n;
  }
  *why = "unexpected character";
  return NULL;
}

/* The container stack: bit d says whether level d (0-based) is an object.
** Lives in `local` until it outgrows it, then in `heap` (freed by the one
** caller, jj_json_skip, on every return path). */
typedef struct kind_stack {
  uint64_t local[JJ_STACK_BITS / 64];
  uint64_t *heap;
  size_t cap_bits;
} kind_stack;

/* Record level `depth` as object or array; -1 when out of memory. */
static int stack_set(kind_stack *k, size_t depth, int is_object) {
  if (depth >= k->cap_bits) {
#ifdef JJ_SMALL
    /* A build for size (the reader-only WebAssembly module) has depth
    ** limits of at most 1024 (js/lib/read.js's MAX_DEPTH), so its stack
    ** never outgrows `local`: no heap path (0.1 KB of its gzipped size);
    ** a deeper limit would stop here rather than overflow. */
    __builtin_trap();
#endif
    size_t cap = k->cap_bits * 2;
    uint64_t *h = realloc(k->heap, cap / 8);
    if (!h) return -1;
    if (!k->heap) memcpy(h, k->local, sizeof k->local);
    k->heap = h;
    k->cap_bits = cap;
  }
  uint64_t *w = k->heap ? k->heap : k->local;
  uint64_t bit = (uint64_t)1 << (depth % 64);
  if (is_object)
    w[depth / 64] |= bit;
  else
    w[depth / 64] &= ~bit;
  return 0;
}

static int stack_is_object(const kind_stack *k, size_t depth) {
  const uint64_t *w = k->heap ? k->heap : k->local;
  return (int)(w[depth / 64] >> (depth % 64) & 1);
}

/* One loop, two states: "expect a value" (at the top of the loop) and
** "after a value" (the inner loop that closes containers and finds the
** next element).  depth counts the open containers. */
const char *jj_json_skip(const char *p, const char *end, unsigned max_depth,
                         const char **bad, jj_code *code, const char **why) {
  kind_stack k;
  size_t depth = 0;
  k.heap = NULL;
  k.cap_bits = JJ_STACK_BITS;
  *code = JJ_ERR_SYNTAX;
  for (;;) {
    /* Expect a value at p. */
    if (p == end) goto eof;
    char c = *p;
    if (c == '[' || c == '{') {
      if (depth >= max_depth) {
        *bad = p;
        *code = JJ_ERR_DEPTH;
        *why = "nesting deeper than the limit";
        goto fail;
      }
      if (stack_set(&k, depth, c == '{')) {
        *bad = p;
        *code = JJ_ERR_NOMEM;
        *why = "out of memory";
        goto fail;
      }
      depth++;
      p = jj_json_ws(p + 1, end);
      if (p == end) goto eof;
      if (*p == (c == '[' ? ']' : '}')) {
        p++;
        depth--;
      } else if (c == '{') {
        goto key;
      } else {
        continue; /* the array's first value */
      }
    } else if (c == '"') {
      p = skip_string(p, end, bad, code, why);
      if (!p) goto fail;
    } else {
      p = skip_scalar(p, end, bad, code, why);
      if (!p) goto fail;
    }
    /* After a value: close containers, or find the next element. */
    for (;;) {
      if (depth == 0) {
        free(k.heap);
        return p;
      }
      int obj = stack_is_object(&k, depth - 1);
      p = jj_json_ws(p, end);
      if (p == end) goto eof;
      if (*p == (obj ? '}' : ']')) {
        p++;
        depth--;
        continue;
      }
      if (*p != ',') {
        *bad = p;
        *why = obj ? "expected ',' or '}'" : "expected ',' or ']'";
        goto fail;
      }
      p = jj_json_ws(p + 1, end);
      if (obj) goto key;
      break; /* the array's next value */
    }
    continue;
  key:
    /* An object member: "key" ws ':' ws, then its value. */
    if (p == end) goto eof;
    if (*p != '"') {
      *bad = p;
      *why = "expected a string key";
      goto fail;
    }
    p = skip_string(p, end, bad, code, why);
    if (!p) goto fail;
    p = jj_json_ws(p, end);
    if (p == end) goto eof;
    if (*p != ':') {
      *bad = p;
      *why = "expected ':'";
      goto fail;
    }
    p = jj_json_ws(p + 1, end);
  }
eof:
  *bad = end;
  *code = JJ_ERR_SYNTAX;
  *why = "unexpected end of input";
fail:
  free(k.heap);
  return NULL;
}
