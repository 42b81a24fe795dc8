/*
** gen.h — random tables for the cross-cutting C tests (property round trip,
** differential against cJSON): a seeded PRNG, random schemas, a model of a
** table's values, and a function that writes the model through jj_writer.
**
**   gen_rng r;  gen_seed(&r, gen_seed_from_env(0x5eed));
**   jj_schema *s = gen_schema(&r, 0);
**   gen_table *t = gen_table_new(&r, s, gen_below(&r, 41), 0);
**   gen_write(w, t);   ...   gen_table_free(t); jj_schema_free(s);
**
** The expected values here are computed without the library (calendar
** arithmetic, base64, UTF-8), so a test compares the library against an
** independent model.  Everything is deterministic for a given seed; the
** seed comes from the environment variable JJ_SEED when it is set.
**
** Functions are `static inline` so that a test using only some of them
** compiles without unused-function warnings.  Every allocation is owned by
** the gen_table (or gen_buf) it went into and released by gen_table_free
** (gen_buf_free).
*/
#ifndef JJ_GEN_H
#define JJ_GEN_H

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jalapenojson.h"

/* ---------------------------------------------------------------------- */
/* PRNG: xoshiro256** seeded through splitmix64                             */
/* ---------------------------------------------------------------------- */

typedef struct gen_rng {
  uint64_t s[4];
} gen_rng;

/* splitmix64 step: spreads a seed over the xoshiro state. */
static inline uint64_t gen_splitmix(uint64_t *x) {
  uint64_t z = (*x += 0x9e3779b97f4a7c15u);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
  return z ^ (z >> 31);
}

/* Seed the generator; equal seeds give equal sequences. */
static inline void gen_seed(gen_rng *r, uint64_t seed) {
  for (int i = 0; i < 4; i++) r->s[i] = gen_splitmix(&seed);
}

/* The seed: $JJ_SEED (decimal or 0x hex) when set, else `fallback`. */
static inline uint64_t gen_seed_from_env(uint64_t fallback) {
  const char *e = getenv("JJ_SEED");
  if (e && *e) return strtoull(e, NULL, 0);
  return fallback;
}

static inline uint64_t gen_rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

/* Next 64 random bits (xoshiro256**). */
static inline uint64_t gen_next(gen_rng *r) {
  uint64_t *s = r->s;
  uint64_t result = gen_rotl(s[1] * 5, 7) * 9;
  uint64_t t = s[1] << 17;
  s[2] ^= s[0];
  s[3] ^= s[1];
  s[1] ^= s[2];
  s[0] ^= s[3];
  s[2] ^= t;
  s[3] = gen_rotl(s[3], 45);
  return result;
}

/* Uniform in [0, n) (n > 0; the tiny modulo bias does not matter here). */
static inline uint64_t gen_below(gen_rng *r, uint64_t n) { return gen_next(r) % n; }

/* True with probability pct/100. */
static inline int gen_chance(gen_rng *r, unsigned pct) { return gen_below(r, 100) < pct; }

/* ---------------------------------------------------------------------- */
/* A growable byte buffer, and a jj_sink that appends to it                 */
/* ---------------------------------------------------------------------- */

typedef struct gen_buf {
  char *p; /* malloc'd, freed by gen_buf_free */
  size_t len, cap;
} gen_buf;

/* Append n bytes; aborts the test program when out of memory (a test has
** nothing better to do). */
static inline void gen_buf_add(gen_buf *b, const void *p, size_t n) {
  if (b->len + n + 1 > b->cap) {
    size_t cap = b->cap ? b->cap : 256;
    while (b->len + n + 1 > cap) cap *= 2;
    char *q = realloc(b->p, cap);
    if (!q) {
      fprintf(stderr, "gen.h: out of memory\n");
      exit(2);
    }
    b->p = q;
    b->cap = cap;
  }
  if (n) memcpy(b->p + b->len, p, n);
  b->len += n;
  b->p[b->len] = '\0';
}

static inline void gen_buf_free(gen_buf *b) {
  free(b->p);
  b->p = NULL;
  b->len = b->cap = 0;
}

/* jj_sink appending to the gen_buf in ctx. */
static inline int gen_buf_sink(void *ctx, const char *data, size_t len) {
  gen_buf_add((gen_buf *)ctx, data, len);
  return 0;
}

/* A note callback (jj_convert_opts.note, jj_build_opts.note) appending
** each decision and a newline to the gen_buf in ctx. */
static inline void gen_buf_note(void *ctx, const char *msg) {
  gen_buf_add((gen_buf *)ctx, msg, strlen(msg));
  gen_buf_add((gen_buf *)ctx, "\n", 1);
}

/* ---------------------------------------------------------------------- */
/* Independent helpers: UTF-8 encoding, calendar, base64                    */
/* ---------------------------------------------------------------------- */

/* Encode code point cp (not a surrogate, <= 0x10FFFF) as UTF-8 into out;
** returns the byte count. */
static inline size_t gen_utf8(uint32_t cp, char out[4]) {
  if (cp < 0x80) {
    out[0] = (char)cp;
    return 1;
  }
  if (cp < 0x800) {
    out[0] = (char)(0xC0 | (cp >> 6));
    out[1] = (char)(0x80 | (cp & 0x3F));
    return 2;
  }
  if (cp < 0x10000) {
    out[0] = (char)(0xE0 | (cp >> 12));
    out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
    out[2] = (char)(0x80 | (cp & 0x3F));
    return 3;
  }
  out[0] = (char)(0xF0 | (cp >> 18));
  out[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
  out[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
  out[3] = (char)(0x80 | (cp & 0x3F));
  return 4;
}

static inline int gen_is_leap(int y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

static inline int gen_days_in_month(int y, int m) {
  static const int dim[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return m == 2 && gen_is_leap(y) ? 29 : dim[m - 1];
}

/* Days since 1970-01-01 of a proleptic Gregorian date, by counting whole
** years and months (slow and obvious on purpose: it is the oracle; the
** 400-year cycle bounds the loop). */
static inline int32_t gen_days_from_civil(int y, int m, int d) {
  int64_t days = 0;
  /* 400 years are exactly 146097 days; shift to a year >= 1970. */
  int64_t yy = y;
  while (yy < 1970) {
    yy += 400;
    days -= 146097;
  }
  while (yy >= 2370) {
    yy -= 400;
    days += 146097;
  }
  for (int64_t k = 1970; k < yy; k++) days += gen_is_leap((int)k) ? 366 : 365;
  for (int k = 1; k < m; k++) days += gen_days_in_month(y, k);
  return (int32_t)(days + d - 1);
}

/* Standard base64 with padding of p[0..n) into out (room for
** (n + 2) / 3 * 4 bytes); returns the length. */
static inline size_t gen_base64(const unsigned char *p, size_t n, char *out) {
  static const char a[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  size_t o = 0;
  for (size_t i = 0; i < n; i += 3) {
    uint32_t v = (uint32_t)p[i] << 16;
    if (i + 1 < n) v |= (uint32_t)p[i + 1] << 8;
    if (i + 2 < n) v |= p[i + 2];
    out[o++] = a[(v >> 18) & 63];
    out[o++] = a[(v >> 12) & 63];
    out[o++] = i + 1 < n ? a[(v >> 6) & 63] : '=';
    out[o++] = i + 2 < n ? a[v & 63] : '=';
  }
  return o;
}

/* ---------------------------------------------------------------------- */
/* The model of a table                                                    */
/* ---------------------------------------------------------------------- */

typedef struct gen_table gen_table;

/* One value.  Which fields mean something depends on the column type. */
typedef struct gen_value {
  unsigned char null;
  unsigned char alt; /* write through the other API: jj_writer_date_days,
                     ** jj_writer_timestamp_value */
  int64_t i;         /* JJ_INT value; JJ_BOOL 0/1; JJ_DATE days since epoch */
  double f;          /* JJ_FLOAT */
  char *s;           /* text / date / timestamp text / bytes (malloc'd) */
  size_t len;
  jj_timestamp ts; /* JJ_TIMESTAMP as numbers */
  gen_table *t;    /* JJ_TABLE (owned) */
} gen_value;

struct gen_table {
  const jj_schema *schema; /* borrowed from the caller */
  size_t cols;
  int64_t rows;
  gen_value *v; /* rows * cols values, owned */
};

/* A column name: "c<k>" plus, half the time, "_" and a few characters that
** need escaping or are multi-byte.  The "_" keeps names distinct. */
static inline void gen_name(gen_rng *r, size_t k, gen_buf *out) {
  static const char *const bits[] = {"x", "\xc3\xa9",         "\"",   "\\", "\n",
                                     " ", "\xf0\x9d\x84\x9e", "\x01", "/",  "\xe2\x82\xac"};
  char tmp[32];
  int n = snprintf(tmp, sizeof tmp, "c%zu", k);
  out->len = 0;
  gen_buf_add(out, tmp, (size_t)n);
  if (gen_chance(r, 50)) {
    gen_buf_add(out, "_", 1);
    for (uint64_t i = gen_below(r, 4); i > 0; i--) {
      const char *b = bits[gen_below(r, sizeof bits / sizeof bits[0])];
      gen_buf_add(out, b, strlen(b));
    }
  }
}

/* A random schema: 1-12 columns at the top (depth 0), 1-4 in nested tables;
** nested tables only up to depth 2.  Returns a new schema (caller frees with
** jj_schema_free), or NULL with a message when the library refuses. */
static inline jj_schema *gen_schema(gen_rng *r, int depth) {
  static const jj_type scalars[] = {JJ_INT,  JJ_FLOAT, JJ_TEXT,           JJ_DATE, JJ_TIMESTAMP,
                                    JJ_BOOL, JJ_BYTES, JJ_LOCAL_TIMESTAMP};
  jj_schema *s = jj_schema_new();
  if (!s) return NULL;
  size_t n = depth == 0 ? 1 + (size_t)gen_below(r, 12) : 1 + (size_t)gen_below(r, 4);
  gen_buf name = {0};
  for (size_t k = 0; k < n; k++) {
    jj_error err;
    jj_schema *sub = NULL;
    jj_type type = scalars[gen_below(r, 8)];
    if (type == JJ_TEXT && k % 3 == 2) type = JJ_JSON; /* no draw: seeds keep their schemas */
    if (depth < 2 && gen_chance(r, 10)) {
      sub = gen_schema(r, depth + 1);
      if (!sub) break;
      type = JJ_TABLE;
    }
    gen_name(r, k, &name);
    if (jj_schema_add(s, name.p, name.len, type, sub, &err) != JJ_OK) {
      fprintf(stderr, "gen_schema: jj_schema_add refused: %s\n", err.message);
      jj_schema_free(s);
      gen_buf_free(&name);
      return NULL;
    }
  }
  gen_buf_free(&name);
  return s;
}

static inline int64_t gen_int(gen_rng *r) {
  static const int64_t special[] = {INT64_MIN,
                                    INT64_MAX,
                                    0,
                                    -1,
                                    1,
                                    INT64_MIN + 1,
                                    INT64_MAX - 1,
                                    (int64_t)1 << 53,
                                    ((int64_t)1 << 53) + 1,
                                    -((int64_t)1 << 53) - 1,
                                    1000000000000000000,
                                    -1000000000000000000,
                                    10,
                                    -10};
  switch (gen_below(r, 3)) {
    case 0: return special[gen_below(r, sizeof special / sizeof special[0])];
    case 1: return (int64_t)gen_next(r);
    default: return (int64_t)gen_below(r, 2001) - 1000;
  }
}

/* A double: special values, random bit patterns (any class), subnormals,
** or a short decimal read with strtod. */
static inline double gen_double(gen_rng *r) {
  static const double special[] = {0.0,
                                   -0.0,
                                   DBL_MAX,
                                   -DBL_MAX,
                                   DBL_MIN,
                                   -DBL_MIN,
                                   5e-324,
                                   -5e-324,
                                   1.0,
                                   -1.0,
                                   0.1,
                                   0.5,
                                   1e16,
                                   1e15,
                                   1.5e-05,
                                   1e-4,
                                   1e-5,
                                   1e22,
                                   1e23,
                                   9007199254740992.0,
                                   9007199254740994.0,
                                   0.3,
                                   2.2250738585072009e-308,
                                   123456789012345680000.0,
                                   1e21,
                                   1e-7,
                                   100.0,
                                   1.7976931348623157e308};
  uint64_t bits;
  double d;
  char text[64];
  switch (gen_below(r, 20)) {
    case 0:
    case 1:
    case 2:
    case 3:
    case 4: return special[gen_below(r, sizeof special / sizeof special[0])];
    case 5: return NAN;
    case 6: return gen_chance(r, 50) ? INFINITY : -INFINITY;
    case 7:
    case 8: /* subnormal */
      bits = (gen_next(r) & 0x000fffffffffffffu) | (gen_next(r) & 0x8000000000000000u);
      memcpy(&d, &bits, sizeof d);
      return d;
    case 9:
    case 10:
    case 11:
    case 12:
    case 13:
    case 14: /* any bit pattern */
      bits = gen_next(r);
      memcpy(&d, &bits, sizeof d);
      return d;
    default: { /* short decimal */
      uint64_t digits = 1 + gen_below(r, 9), m = gen_next(r);
      uint64_t p10 = 1;
      for (uint64_t k = 0; k < digits; k++) p10 *= 10;
      snprintf(text, sizeof text, "%s%llue%d", gen_chance(r, 30) ? "-" : "",
               (unsigned long long)(m % p10), (int)gen_below(r, 41) - 25);
      return strtod(text, NULL);
    }
  }
}

/* Random valid UTF-8 text of 0..100 code points (1% of the time up to
** 3100), mixing ASCII, every control character, '"', '\\', 2/3/4-byte characters and the edges
** U+0000, U+FFFF, U+10FFFF.  Returns malloc'd bytes, length in *len. */
static inline char *gen_text(gen_rng *r, size_t *len) {
  static const uint32_t special[] = {0,     0xFFFF, 0x10FFFF, 0xFFFE, 0x2028, 0x7F, 0x80,
                                     0x7FF, 0x800,  0x10000,  0xD7FF, 0xE000, '/'};
  gen_buf b = {0};
  uint64_t n = gen_chance(r, 30) ? gen_below(r, 4) : gen_below(r, 101);
  if (gen_chance(r, 1)) n = 101 + gen_below(r, 3000); /* rare long text */
  gen_buf_add(&b, "", 0);
  for (uint64_t k = 0; k < n; k++) {
    uint32_t cp;
    char u[4];
    switch (gen_below(r, 20)) {
      case 0:
      case 1: cp = (uint32_t)gen_below(r, 0x20); break;
      case 2: cp = gen_chance(r, 50) ? '"' : '\\'; break;
      case 3:
      case 4: cp = 0x80 + (uint32_t)gen_below(r, 0x800 - 0x80); break;
      case 5:
      case 6:
        do cp = 0x800 + (uint32_t)gen_below(r, 0x10000 - 0x800);
        while (cp >= 0xD800 && cp <= 0xDFFF);
        break;
      case 7:
      case 8: cp = 0x10000 + (uint32_t)gen_below(r, 0x100000); break;
      case 9: cp = special[gen_below(r, sizeof special / sizeof special[0])]; break;
      default: cp = 0x20 + (uint32_t)gen_below(r, 0x5F); break;
    }
    gen_buf_add(&b, u, gen_utf8(cp, u));
  }
  *len = b.len;
  return b.p;
}

/* Append text p[0..n) as a canonical JSON string (SPEC.md: only '"', '\\'
** and U+0000-U+001F escaped, \b \f \n \r \t or \u00xx). */
static inline void gen_json_string(gen_buf *b, const char *p, size_t n) {
  static const char hex[] = "0123456789abcdef";
  gen_buf_add(b, "\"", 1);
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)p[i];
    const char *e = c == '"' ? "\\\"" : c == '\\' ? "\\\\" : c == '\b' ? "\\b"
                  : c == '\f' ? "\\f" : c == '\n' ? "\\n" : c == '\r' ? "\\r"
                  : c == '\t' ? "\\t" : NULL;
    if (e) {
      gen_buf_add(b, e, 2);
    } else if (c < 0x20) {
      char u[6] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 15]};
      gen_buf_add(b, u, 6);
    } else {
      gen_buf_add(b, p + i, 1);
    }
  }
  gen_buf_add(b, "\"", 1);
}

/* A random JSON value in its canonical form (SPEC.md, "j (JSON)"), up to
** `depth` more levels of arrays and objects: numbers beyond int64 and
** double, exponents, every kind of text, empty and duplicate keys. */
static inline void gen_json_value(gen_rng *r, gen_buf *b, int depth) {
  static const char *const numbers[] = {"0", "-0", "1", "-1", "2.50", "1E5", "-1.5e-10", "1e400",
                                        "123456789012345678901234567890", "9223372036854775808",
                                        "0.1", "3.141592653589793238462643383279"};
  uint64_t k = gen_below(r, depth > 0 ? 8 : 5);
  char num[32];
  size_t n;
  char *t;
  switch (k) {
    case 0:
      if (gen_chance(r, 50))
        gen_buf_add(b, "true", 4);
      else
        gen_buf_add(b, "false", 5);
      break;
    case 1:
      t = gen_text(r, &n);
      gen_json_string(b, t, n);
      free(t);
      break;
    case 2:
      n = (size_t)snprintf(num, sizeof num, "%lld", (long long)(gen_below(r, 2000000) - 1000000));
      gen_buf_add(b, num, n);
      break;
    case 3: {
      const char *x = numbers[gen_below(r, 12)];
      gen_buf_add(b, x, strlen(x));
      break;
    }
    case 4: gen_buf_add(b, "null", 4); break;
    case 5:
    case 6: { /* an object, keys maybe repeated */
      uint64_t m = gen_below(r, 4);
      gen_buf_add(b, "{", 1);
      for (uint64_t i = 0; i < m; i++) {
        if (i) gen_buf_add(b, ",", 1);
        t = gen_text(r, &n);
        gen_json_string(b, t, gen_chance(r, 20) ? 0 : n);
        free(t);
        gen_buf_add(b, ":", 1);
        gen_json_value(r, b, depth - 1);
      }
      gen_buf_add(b, "}", 1);
      break;
    }
    default: { /* an array */
      uint64_t m = gen_below(r, 4);
      gen_buf_add(b, "[", 1);
      for (uint64_t i = 0; i < m; i++) {
        if (i) gen_buf_add(b, ",", 1);
        gen_json_value(r, b, depth - 1);
      }
      gen_buf_add(b, "]", 1);
    }
  }
}

/* A random value of a JSON column: canonical text, never null itself (a
** JSON null is the column's null), so an array or object half the time. */
static inline char *gen_json(gen_rng *r, size_t *len) {
  gen_buf b = {0};
  gen_buf_add(&b, "", 0);
  do {
    b.len = 0;
    gen_json_value(r, &b, 1 + (int)gen_below(r, 3));
  } while (b.len == 4 && memcmp(b.p, "null", 4) == 0);
  *len = b.len;
  return b.p;
}

/* A random valid date (edges and leap days half of the time): fills y/m/d. */
static inline void gen_date_parts(gen_rng *r, int *y, int *m, int *d) {
  static const int special[][3] = {{0, 1, 1},     {9999, 12, 31}, {2000, 2, 29},  {0, 2, 29},
                                   {2024, 2, 29}, {1970, 1, 1},   {1969, 12, 31}, {1900, 2, 28},
                                   {2100, 2, 28}, {1600, 2, 29},  {400, 2, 29},   {9996, 2, 29}};
  if (gen_chance(r, 40)) {
    const int *p = special[gen_below(r, sizeof special / sizeof special[0])];
    *y = p[0], *m = p[1], *d = p[2];
    return;
  }
  *y = (int)gen_below(r, 10000);
  *m = 1 + (int)gen_below(r, 12);
  *d = 1 + (int)gen_below(r, (uint64_t)gen_days_in_month(*y, *m));
}

/* Fill v with a random date: text, days, and which writer API to use. */
static inline void gen_date(gen_rng *r, gen_value *v) {
  int y, m, d;
  char text[16];
  gen_date_parts(r, &y, &m, &d);
  snprintf(text, sizeof text, "%04d-%02d-%02d", y, m, d);
  v->len = 10;
  v->s = malloc(11);
  if (!v->s) exit(2);
  memcpy(v->s, text, 11);
  v->i = gen_days_from_civil(y, m, d);
  v->alt = (unsigned char)gen_chance(r, 50);
}

/* Fill v with a random timestamp: text, numbers, and the writer API.
** Zones are Z, +14:00, -12:00, +05:30 or random nonzero offsets (a zero
** offset written as +00:00 would not survive the numeric form, which cannot
** tell it from Z). */
static inline void gen_timestamp(gen_rng *r, gen_value *v, int local) {
  static const int zones[] = {840, -720, 330};
  int y, mo, d, zone = 0, digits = (int)gen_below(r, 10);
  int h = (int)gen_below(r, 24), mi = (int)gen_below(r, 60), s = (int)gen_below(r, 60);
  uint32_t frac = 0, scale = 1;
  char text[48];
  gen_date_parts(r, &y, &mo, &d);
  if (gen_chance(r, 20)) h = 23, mi = 59, s = 59;
  for (int k = 0; k < digits; k++) frac = frac * 10 + (uint32_t)gen_below(r, 10);
  for (int k = digits; k < 9; k++) scale *= 10;
  switch (local ? 0 : gen_below(r, 4)) {
    case 0: zone = 0; break;
    case 1: zone = zones[gen_below(r, 3)]; break;
    default:
      do zone = (int)gen_below(r, 24 * 60) * (gen_chance(r, 50) ? 1 : -1);
      while (zone == 0);
  }
  int n = snprintf(text, sizeof text, "%04d-%02d-%02dT%02d:%02d:%02d", y, mo, d, h, mi, s);
  if (digits) n += snprintf(text + n, sizeof text - (size_t)n, ".%0*u", digits, frac);
  if (local)
    ; /* a local timestamp has no zone */
  else if (zone == 0)
    n += snprintf(text + n, sizeof text - (size_t)n, "Z");
  else
    n += snprintf(text + n, sizeof text - (size_t)n, "%c%02d:%02d", zone < 0 ? '-' : '+',
                  abs(zone) / 60, abs(zone) % 60);
  v->len = (size_t)n;
  v->s = malloc((size_t)n + 1);
  if (!v->s) exit(2);
  memcpy(v->s, text, (size_t)n + 1);
  v->ts.seconds =
      (int64_t)gen_days_from_civil(y, mo, d) * 86400 + h * 3600 + mi * 60 + s - (int64_t)zone * 60;
  v->ts.nanos = (int32_t)(frac * scale);
  v->ts.zone_minutes = (int16_t)zone;
  v->ts.digits = (uint8_t)digits;
  v->alt = (unsigned char)gen_chance(r, 50);
}

/* 0..50 random bytes (1% up to 3050; sometimes runs of 0x00 or 0xFF). */
static inline char *gen_bytes(gen_rng *r, size_t *len) {
  size_t n = (size_t)gen_below(r, 51);
  if (gen_chance(r, 1)) n = 51 + (size_t)gen_below(r, 3000); /* rare long bytes */
  char *p = malloc(n + 1);
  if (!p) exit(2);
  int fill = (int)gen_below(r, 8);
  for (size_t k = 0; k < n; k++)
    p[k] = (char)(fill == 0 ? 0 : fill == 1 ? 0xFF : (int)gen_below(r, 256));
  *len = n;
  return p;
}

/* A table of `rows` rows of schema s, ~10% nulls.  Nested values get 0-4
** rows.  Free with gen_table_free; the schema must outlive the table. */
static inline gen_table *gen_table_new(gen_rng *r, const jj_schema *s, int64_t rows, int depth) {
  gen_table *t = calloc(1, sizeof *t);
  if (!t) exit(2);
  t->schema = s;
  t->cols = jj_schema_columns(s);
  t->rows = rows;
  t->v = calloc((size_t)rows * t->cols + 1, sizeof *t->v);
  if (!t->v) exit(2);
  for (int64_t row = 0; row < rows; row++) {
    for (size_t col = 0; col < t->cols; col++) {
      gen_value *v = &t->v[(size_t)row * t->cols + col];
      if (gen_chance(r, 10)) {
        v->null = 1;
        continue;
      }
      switch (jj_schema_type(s, col)) {
        case JJ_INT: v->i = gen_int(r); break;
        case JJ_FLOAT: v->f = gen_double(r); break;
        case JJ_TEXT: v->s = gen_text(r, &v->len); break;
        case JJ_DATE: gen_date(r, v); break;
        case JJ_TIMESTAMP: gen_timestamp(r, v, 0); break;
        case JJ_LOCAL_TIMESTAMP: gen_timestamp(r, v, 1); break;
        case JJ_BOOL: v->i = gen_chance(r, 50); break;
        case JJ_BYTES: v->s = gen_bytes(r, &v->len); break;
        case JJ_JSON: v->s = gen_json(r, &v->len); break;
        case JJ_TABLE:
          v->t = gen_table_new(r, jj_schema_table(s, col), (int64_t)gen_below(r, 5), depth + 1);
          break;
      }
    }
  }
  return t;
}

static inline void gen_table_free(gen_table *t) {
  if (!t) return;
  for (size_t k = 0; k < (size_t)t->rows * t->cols; k++) {
    free(t->v[k].s);
    gen_table_free(t->v[k].t);
  }
  free(t->v);
  free(t);
}

/* Write the rows of t through w (for a nested table, between the caller's
** jj_writer_begin_table and jj_writer_end_table).  JJ_OK or the writer's
** error code (message in jj_writer_error). */
static inline jj_code gen_write_rows(jj_writer *w, const gen_table *t) {
  for (int64_t row = 0; row < t->rows; row++) {
    for (size_t col = 0; col < t->cols; col++) {
      const gen_value *v = &t->v[(size_t)row * t->cols + col];
      jj_code rc = JJ_OK;
      if (v->null) {
        rc = jj_writer_null(w);
      } else {
        switch (jj_schema_type(t->schema, col)) {
          case JJ_INT: rc = jj_writer_int(w, v->i); break;
          case JJ_FLOAT: rc = jj_writer_double(w, v->f); break;
          case JJ_TEXT: rc = jj_writer_text(w, v->s, v->len); break;
          case JJ_DATE:
            rc = v->alt ? jj_writer_date_days(w, (int32_t)v->i) : jj_writer_date(w, v->s, v->len);
            break;
          case JJ_TIMESTAMP:
            rc = v->alt ? jj_writer_timestamp_value(w, &v->ts)
                        : jj_writer_timestamp(w, v->s, v->len);
            break;
          case JJ_LOCAL_TIMESTAMP:
            rc = v->alt ? jj_writer_local_timestamp_value(w, &v->ts)
                        : jj_writer_local_timestamp(w, v->s, v->len);
            break;
          case JJ_BOOL: rc = jj_writer_bool(w, (int)v->i); break;
          case JJ_BYTES: rc = jj_writer_bytes(w, v->s, v->len); break;
          case JJ_JSON: rc = jj_writer_json(w, v->s, v->len); break;
          case JJ_TABLE:
            rc = jj_writer_begin_table(w);
            if (rc == JJ_OK) rc = gen_write_rows(w, v->t);
            if (rc == JJ_OK) rc = jj_writer_end_table(w);
            break;
        }
      }
      if (rc != JJ_OK) return rc;
    }
    jj_code rc = jj_writer_end_row(w);
    if (rc != JJ_OK) return rc;
  }
  return JJ_OK;
}

/* Write the whole document of t: into memory when out_sink is NULL (the
** bytes come back in *doc, malloc'd via jj_writer_take: free with jj_free),
** else through the sink.  Returns JJ_OK or the error, described in err. */
static inline jj_code gen_write(const gen_table *t, jj_sink out_sink, void *ctx, char **doc,
                                size_t *len, jj_error *err) {
  jj_writer *w = jj_writer_new(t->schema, out_sink, ctx, err);
  if (!w) return err->code ? err->code : JJ_ERR_USAGE;
  jj_code rc = gen_write_rows(w, t);
  if (rc == JJ_OK) rc = jj_writer_finish(w);
  if (rc == JJ_OK && !out_sink) {
    *doc = jj_writer_take(w, len);
    if (!*doc) {
      rc = err->code = JJ_ERR_NOMEM;
      snprintf(err->message, sizeof err->message, "jj_writer_take returned NULL");
    }
  } else if (rc != JJ_OK) {
    *err = *jj_writer_error(w);
  }
  jj_writer_free(w);
  return rc;
}

#endif /* JJ_GEN_H */
