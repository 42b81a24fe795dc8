/*
** json_canon.c — a value of a JSON column (type `j`) checked and put in its
** canonical form (SPEC.md, "j (JSON)"): one JSON value, no whitespace
** outside strings, numbers exactly as written, keys in their order with
** duplicates kept, and strings escaped as the format escapes text
** columns' strings (only '"', '\\' and U+0000-U+001F, everything else raw
** UTF-8).  So a canonical value has one spelling, and reading a document
** and writing it again gives the same bytes.
**
** One walk does both jobs: with no output buffer it checks the value and
** says whether it is canonical already (the reader then hands out the
** document's own bytes); with one it appends the canonical text (the
** writer, and the reader for a value written some other way).
**
** Iterative, like jj_json_skip (json.c): the kinds of the open containers
** live in a bit stack on the C stack, moved to the heap only for a depth
** limit above JJ_CANON_BITS, and freed before returning.
*/
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define JJ_CANON_BITS 4096

/* The walk's state: where it is, what it writes, and the first fault. */
typedef struct canon {
  const char *p, *begin, *end;
  jj_buf *out;   /* NULL: check only */
  jj_buf tmp;    /* a string's decoded contents before re-escaping */
  int canonical; /* 0 once something is spelled other than canonically */
  const char *bad;
  jj_code code;
  const char *why;
  uint64_t local[JJ_CANON_BITS / 64];
  uint64_t *heap;
  size_t cap_bits;
} canon;

static int fault(canon *k, const char *at, jj_code code, const char *why) {
  k->bad = at;
  k->code = code;
  k->why = why;
  return -1;
}

static int emit(canon *k, const char *p, size_t n) {
  if (k->out && jj_buf_append(k->out, p, n))
    return fault(k, k->p, JJ_ERR_NOMEM, "out of memory");
  return 0;
}

/* Whitespace is never canonical: skipping any marks the value. */
static void ws(canon *k) {
  const char *q = jj_json_ws(k->p, k->end);
  if (q != k->p) k->canonical = 0;
  k->p = q;
}

/* 1 when every escape in s[0..n) is the one jj_string_escape writes:
** \" \\ \b \f \n \r \t, or \u00XX in lowercase hex for the other
** characters below U+0020. */
static int escapes_canonical(const char *s, size_t n) {
  static const char hex[] = "0123456789abcdef";
  for (size_t i = 0; i < n; i++) {
    if (s[i] != '\\') continue;
    if (i + 1 >= n) return 0;
    char c = s[++i];
    if (c == '"' || c == '\\' || c == 'b' || c == 'f' || c == 'n' || c == 'r' || c == 't')
      continue;
    if (c != 'u' || n - i < 5 || s[i + 1] != '0' || s[i + 2] != '0') return 0;
    int hi = s[i + 3] == '0' ? 0 : s[i + 3] == '1' ? 1 : -1;
    const char *lo = memchr(hex, s[i + 4], 16);
    if (hi < 0 || !lo || !s[i + 4]) return 0;
    int v = hi * 16 + (int)(lo - hex);
    if (v == 8 || v == 9 || v == 10 || v == 12 || v == 13) return 0;
    i += 4;
  }
  return 1;
}

/* A string at k->p: checked (escapes, UTF-8), written re-escaped. */
static int string(canon *k) {
  const char *s = k->p, *why = "";
  int esc = 0;
  size_t at = 0;
  const char *q = jj_string_scan(s, k->end, &esc, &at, &why);
  if (!q) return fault(k, s + at, JJ_ERR_SYNTAX, why);
  size_t n = (size_t)(q - s) - 2;
  k->p = q;
  if (!esc) {
    if (!jj_utf8_valid(s + 1, n, &at))
      return fault(k, s + 1 + at, JJ_ERR_UTF8, "invalid UTF-8 in a string");
    return emit(k, s, n + 2);
  }
  jj_code code = JJ_ERR_SYNTAX;
  if (!escapes_canonical(s + 1, n)) k->canonical = 0;
  if (!k->out) {
    if (jj_string_decode(s + 1, n, NULL, &at, &code, &why) == (size_t)-1)
      return fault(k, s + 1 + at, code, why);
    return 0;
  }
  k->tmp.len = 0;
  if (jj_buf_reserve(&k->tmp, n + 1)) return fault(k, s, JJ_ERR_NOMEM, "out of memory");
  size_t m = jj_string_decode(s + 1, n, k->tmp.p, &at, &code, &why);
  if (m == (size_t)-1) return fault(k, s + 1 + at, code, why);
  if (jj_string_escape(k->out, k->tmp.p, m)) return fault(k, s, JJ_ERR_NOMEM, "out of memory");
  return 0;
}

/* A number, by the JSON grammar only: kept as written, whatever its size
** (no double holds 1e400 or a 30-digit integer, the text does). */
static int number(canon *k) {
  const char *s = k->p;
  size_t n = jj_num_span(s, k->end);
  if (!n || !jj_json_number_ok(s, n)) return fault(k, s, JJ_ERR_SYNTAX, "invalid number");
  k->p = s + n;
  return emit(k, s, n);
}

static int literal(canon *k) {
  const char *s = k->p;
  const char *lit = *s == 't' ? "true" : *s == 'f' ? "false" : "null";
  size_t n = strlen(lit);
  if ((size_t)(k->end - s) < n || memcmp(s, lit, n) != 0)
    return fault(k, s, JJ_ERR_SYNTAX, "invalid literal");
  k->p = s + n;
  return emit(k, s, n);
}

static int push(canon *k, size_t depth, int is_object) {
  if (depth >= k->cap_bits) {
    size_t cap = k->cap_bits * 2;
    uint64_t *h = realloc(k->heap, cap / 8);
    if (!h) return fault(k, k->p, JJ_ERR_NOMEM, "out of memory");
    if (!k->heap) memcpy(h, k->local, sizeof k->local);
    k->heap = h;
    k->cap_bits = cap;
  }
  uint64_t *w = k->heap ? k->heap : k->local, bit = (uint64_t)1 << (depth % 64);
  if (is_object)
    w[depth / 64] |= bit;
  else
    w[depth / 64] &= ~bit;
  return 0;
}

static int is_object(const canon *k, size_t depth) {
  const uint64_t *w = k->heap ? k->heap : k->local;
  return (int)(w[depth / 64] >> (depth % 64) & 1);
}

/* The walk: "expect a value" at the top of the loop, "after a value" in
** the inner loop, as in jj_json_skip. */
static int walk(canon *k, unsigned max_depth) {
  size_t depth = 0;
  ws(k);
  for (;;) {
    if (k->p == k->end) goto eof;
    char c = *k->p;
    if (c == '[' || c == '{') {
      if (depth >= max_depth)
        return fault(k, k->p, JJ_ERR_DEPTH, "nesting deeper than the limit");
      if (push(k, depth, c == '{') || emit(k, k->p, 1)) return -1;
      depth++;
      k->p++;
      ws(k);
      if (k->p == k->end) goto eof;
      if (*k->p == (c == '[' ? ']' : '}')) {
        if (emit(k, k->p, 1)) return -1;
        k->p++;
        depth--;
      } else if (c == '{') {
        goto key;
      } else {
        continue;
      }
    } else if (c == '"') {
      if (string(k)) return -1;
    } else if (c == '-' || (c >= '0' && c <= '9')) {
      if (number(k)) return -1;
    } else if (c == 't' || c == 'f' || c == 'n') {
      if (literal(k)) return -1;
    } else {
      return fault(k, k->p, JJ_ERR_SYNTAX, "expected a JSON value");
    }
    for (;;) {
      ws(k);
      if (depth == 0) {
        if (k->p != k->end) return fault(k, k->p, JJ_ERR_SYNTAX, "unexpected data after the value");
        return 0;
      }
      if (k->p == k->end) goto eof;
      int obj = is_object(k, depth - 1);
      if (*k->p == (obj ? '}' : ']')) {
        if (emit(k, k->p, 1)) return -1;
        k->p++;
        depth--;
        continue;
      }
      if (*k->p != ',')
        return fault(k, k->p, JJ_ERR_SYNTAX, obj ? "expected ',' or '}'" : "expected ',' or ']'");
      if (emit(k, ",", 1)) return -1;
      k->p++;
      ws(k);
      if (obj) goto key;
      break;
    }
    continue;
  key:
    if (k->p == k->end) goto eof;
    if (*k->p != '"') return fault(k, k->p, JJ_ERR_SYNTAX, "expected a string key");
    if (string(k)) return -1;
    ws(k);
    if (k->p == k->end) goto eof;
    if (*k->p != ':') return fault(k, k->p, JJ_ERR_SYNTAX, "expected ':'");
    if (emit(k, ":", 1)) return -1;
    k->p++;
    ws(k);
  }
eof:
  return fault(k, k->end, JJ_ERR_SYNTAX, "unexpected end of input");
}

/* See internal.h: one pass, outside strings looking for whitespace, inside
** them for escapes to check. */
int jj_json_is_canonical(const char *p, size_t len) {
  const char *e = p + len;
  while (p < e) {
    char c = *p++;
    if (c == ' ' || c == '\n' || c == '\r' || c == '\t') return 0;
    if (c != '"') continue;
    const char *s = p; /* the string's contents */
    for (;;) {
      while (p < e && *p != '"' && *p != '\\') p++;
      if (p >= e) return 0;
      if (*p == '"') break;
      p += p + 1 < e && p[1] == 'u' ? 6 : 2;
      if (p > e) return 0;
    }
    if (memchr(s, '\\', (size_t)(p - s)) && !escapes_canonical(s, (size_t)(p - s))) return 0;
    p++;
  }
  return 1;
}

int jj_json_canon(const char *p, size_t len, unsigned max_depth, jj_buf *out,
                  size_t *bad, jj_code *code, const char **why) {
  canon k;
  k.p = k.begin = p;
  k.end = p + len;
  k.out = out;
  k.tmp = (jj_buf){NULL, 0, 0, NULL};
  k.canonical = 1;
  k.bad = NULL;
  k.heap = NULL;
  k.cap_bits = JJ_CANON_BITS;
  size_t start = out ? out->len : 0;
  int r = walk(&k, max_depth);
  free(k.heap);
  jj_buf_free(&k.tmp);
  if (r) {
    if (out) out->len = start;
    *bad = (size_t)(k.bad - p);
    *code = k.code;
    *why = k.why;
    return -1;
  }
  return k.canonical;
}
