/*
** convert_infer.c — the tables and columns the converter finds, and the
** schema it makes of them.
**
** Columns are found by name through a small open-addressing hash per table,
** with a guess first: rows usually list their keys in the same order, so
** the column after the previous key is tried before hashing.  A column is
** created in pass 1 when its name first appears (so the order of columns is
** the order of first appearance); pass 2 only looks names up.
**
** The explicit schema (opts.schema) is parsed into tables of its own (the
** `spec` of each table); a column created from the data takes its forced
** type from there.  After pass 1, cv_resolve decides each column's type
** from the kinds of values it saw (the rules of docs/convert.md,
** repeated in decide() below), builds the jj_schema and tells each
** decision that is not obvious to the note callback.
*/
#include <stdlib.h>
#include <string.h>

#include "convert.h"

static uint32_t hash_name(const char *p, size_t len) {
  uint32_t h = 2166136261u;
  for (size_t i = 0; i < len; i++) h = (h ^ (unsigned char)p[i]) * 16777619u;
  return h;
}

/* Put column index i into t's hash (which has room). */
static void hash_put(cv_table *t, size_t i) {
  size_t m = t->hcap - 1;
  size_t h = hash_name(t->cols[i].name, t->cols[i].name_len) & m;
  while (t->hash[h]) h = (h + 1) & m;
  t->hash[h] = (uint32_t)(i + 1);
}

static long find(const cv_table *t, const char *name, size_t len) {
  if (!t->hcap) return -1;
  size_t m = t->hcap - 1, h = hash_name(name, len) & m;
  for (; t->hash[h]; h = (h + 1) & m) {
    const cv_col *col = &t->cols[t->hash[h] - 1];
    if (col->name_len == len && !memcmp(col->name, name, len))
      return (long)t->hash[h] - 1;
  }
  return -1;
}

long cv_find(const cv_table *t, const char *name, size_t len) {
  size_t g = t->col + 1 < t->n ? t->col + 1 : 0; /* the guess */
  if (g < t->n && t->cols[g].name_len == len &&
      !memcmp(t->cols[g].name, name, len))
    return (long)g;
  return find(t, name, len);
}

long cv_add(cv *c, cv_table *t, const char *name, size_t len) {
  if (c->ncols_all >= CV_MAX_COLUMNS) return -2;
  if (t->n == t->cap) {
    size_t cap = t->cap ? t->cap * 2 : 16;
    cv_col *cols = realloc(t->cols, cap * sizeof *cols);
    if (!cols) return cv_nomem(c), -1;
    t->cols = cols;
    t->cap = cap;
  }
  if ((t->n + 1) * 2 > t->hcap) { /* keep the hash at most half full */
    size_t hcap = t->hcap ? t->hcap * 2 : 32;
    uint32_t *h = calloc(hcap, sizeof *h);
    if (!h) return cv_nomem(c), -1;
    free(t->hash);
    t->hash = h;
    t->hcap = hcap;
    for (size_t i = 0; i < t->n; i++) hash_put(t, i);
  }
  cv_col *col = &t->cols[t->n];
  memset(col, 0, sizeof *col);
  if (!(col->name = malloc(len + 1))) return cv_nomem(c), -1;
  memcpy(col->name, name, len);
  col->name[len] = '\0';
  col->name_len = len;
  col->stamp = UINT64_MAX;
  col->plain = 1;
  for (size_t i = 0; i < len; i++)
    if (name[i] == '"' || name[i] == '\\' || (unsigned char)name[i] < 0x20)
      col->plain = 0;
  /* the first 8 bytes of the name and its closing quote, as they stand in
  ** memory, and which of them count (convert_json.c's raw key match) */
  unsigned char k8[8] = {0}, m8[8] = {0};
  for (size_t i = 0; i < 8 && i <= len; i++) {
    k8[i] = i < len ? (unsigned char)name[i] : '"';
    m8[i] = 0xFF;
  }
  memcpy(&col->key8, k8, 8);
  memcpy(&col->mask8, m8, 8);
  hash_put(t, t->n);
  c->ncols_all++;
  /* the explicit schema's type, if it names this column */
  long s = t->spec ? find(t->spec, name, len) : -1;
  if (s >= 0) {
    cv_col *sc = &t->spec->cols[s];
    sc->seen = 1;
    col->forced = sc->forced;
    if (sc->forced == JJ_TABLE && !cv_sub(c, t, t->n)) return -1;
    if (col->sub) col->sub->spec = sc->sub;
  }
  return (long)t->n++;
}

cv_table *cv_sub(cv *c, cv_table *t, size_t i) {
  cv_col *col = &t->cols[i];
  if (col->sub) return col->sub;
  if (!(col->sub = calloc(1, sizeof *col->sub))) return cv_nomem(c), NULL;
  col->sub->parent = t;
  col->sub->parent_col = i;
  col->sub->depth = t->depth + 1;
  col->sub->col = (size_t)-1;
  return col->sub;
}

long cv_column(cv *c, cv_table *t, const char *name, size_t len, uint64_t off) {
  char shown[JJ_SHOW_CAP];
  long i = cv_find(t, name, len);
  if (i >= 0) return i;
  jj_show(shown, sizeof shown, name, len, 1);
  if (c->pass == 2)
    return cv_fail(c, JJ_ERR_SCHEMA, off,
                   "key %s was not there in the first pass (did the input "
                   "change between the passes?)",
                   shown),
           -1;
  if (len == 0)
    return cv_fail(c, JJ_ERR_SCHEMA, off,
                   "an empty key cannot be a column name"),
           -1;
  if (memchr(name, '\0', len))
    return cv_fail(c, JJ_ERR_SCHEMA, off,
                   "key %s contains U+0000, which a column name cannot", shown),
           -1;
  i = cv_add(c, t, name, len);
  if (i == -2)
    cv_fail(c, JJ_ERR_SCHEMA, off,
            "too many columns (at most %d in all "
            "tables together)",
            CV_MAX_COLUMNS);
  return i < 0 ? -1 : i;
}

void cv_table_free(cv_table *t) {
  if (!t) return;
  for (size_t i = 0; i < t->n; i++) {
    cv_col *col = &t->cols[i];
    free(col->name);
    free(col->nulled_ex);
    for (int k = 0; k < K_COUNT; k++) free(col->ex[k]);
    if (col->sub) {
      cv_table_free(col->sub);
      free(col->sub);
    }
  }
  free(t->cols);
  free(t->hash);
  memset(t, 0, sizeof *t);
}

/* ---------------------------------------------------------------------- */
/* The explicit schema: "id:i,joined:d,items:{qty:f},\"a,b\":s"           */
/* ---------------------------------------------------------------------- */

static const char *skip_sp(const char *p) {
  while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') p++;
  return p;
}

/* A usage error about the schema option at byte p - start. */
static int spec_fail(cv *c, const char *start, const char *p,
                     const char *what) {
  return cv_fail_plain(c, JJ_ERR_USAGE, UINT64_MAX,
                       "the schema option, at byte %zu: %s",
                       (size_t)(p - start), what);
}

/* name:type pairs into t up to `close` ('\0' or '}'); *pp advances. */
static int spec_list(cv *c, cv_table *t, const char *start, const char **pp,
                     char close, unsigned depth) {
  const char *p = skip_sp(*pp);
  char what[200], shown[JJ_SHOW_CAP];
  if (depth > CV_MAX_DEPTH / 2)
    return spec_fail(c, start, p, "nested tables too deep");
  while (*p != close) {
    const char *name = p, *end;
    size_t len;
    if (*p == '"') { /* a JSON string */
      int esc;
      size_t bad;
      jj_code code;
      const char *why;
      end = jj_string_scan(p, p + strlen(p), &esc, &bad, &why);
      if (!end) return spec_fail(c, start, p + bad, why);
      c->scratch.len = 0;
      if (jj_buf_reserve(&c->scratch, (size_t)(end - p))) return cv_nomem(c);
      len = jj_string_decode(p + 1, (size_t)(end - p) - 2, c->scratch.p, &bad,
                             &code, &why);
      if (len == (size_t)-1) return spec_fail(c, start, p + 1 + bad, why);
      name = c->scratch.p;
      p = end;
    } else {
      while (*p && !strchr(":,{}\"", *p)) p++;
      end = p;
      while (end > name && strchr(" \t\r\n", end[-1])) end--;
      len = (size_t)(end - name);
    }
    jj_show(shown, sizeof shown, name, len, 1);
    if (len == 0) return spec_fail(c, start, p, "expected a column name");
    if (find(t, name, len) >= 0) {
      snprintf(what, sizeof what, "column %s is named twice", shown);
      return spec_fail(c, start, name, what);
    }
    long i = cv_add(c, t, name, len);
    if (i < 0)
      return i == -2 ? spec_fail(c, start, p, "too many columns") : CV_FAIL;
    c->ncols_all--; /* the spec's columns do not count against the data's */
    p = skip_sp(p);
    if (*p != ':') {
      snprintf(what, sizeof what, "expected ':' and a type after %s", shown);
      return spec_fail(c, start, p, what);
    }
    p = skip_sp(p + 1);
    cv_col *col = &t->cols[i];
    if (*p == '{') {
      col->forced = JJ_TABLE;
      if (!cv_sub(c, t, (size_t)i)) return CV_FAIL;
      p++;
      if (spec_list(c, col->sub, start, &p, '}', depth + 1)) return CV_FAIL;
      p++;
    } else if (*p && strchr("ifsdtbx", *p)) {
      col->forced = (jj_type)*p++;
    } else {
      snprintf(what, sizeof what,
               "unknown type %.1s for column %s (use one "
               "of i f s d t b x, or {...} for a nested table)",
               p, shown);
      return spec_fail(c, start, p, what);
    }
    p = skip_sp(p);
    if (*p == ',') {
      p = skip_sp(p + 1);
      if (*p == close) return spec_fail(c, start, p, "expected a column name");
    } else if (*p != close) {
      return spec_fail(c, start, p,
                       close ? "expected ',' or '}'" : "expected ','");
    }
  }
  *pp = p;
  return 0;
}

jj_code cv_schema_parse(cv *c, const char *spec) {
  const char *p = spec;
  if (!(c->top.spec = calloc(1, sizeof *c->top.spec)))
    return cv_nomem(c), c->err->code;
  return spec_list(c, c->top.spec, spec, &p, '\0', 0) ? c->err->code : JJ_OK;
}

/* ---------------------------------------------------------------------- */
/* Deciding the types                                                      */
/* ---------------------------------------------------------------------- */

#define B(k) (1u << (k))
#define NUMBERS (B(K_INT) | B(K_BIG) | B(K_BIGX) | B(K_FLOAT) | B(K_HUGE))

static const char *const kind_words[K_COUNT] = {
    "booleans",
    "integers",
    "integers beyond 64 bits",
    "integers beyond 64 bits not exact as doubles",
    "floats",
    "numbers beyond the range of doubles",
    "NaN/Infinity strings",
    "dates",
    "YYYY-MM-DD text that is not a date",
    "timestamps",
    "timestamp-like text that is not an RFC 3339 timestamp",
    "text",
    "arrays of objects",
    "empty arrays",
    "other arrays and objects"};

/* Tell "column "a": integers (row 1, 5), floats (row 2, 1.5) -> f (why)". */
static void tell(cv *c, cv_table *t, size_t i, char type, const char *why) {
  char path[400], list[1200];
  size_t used = 0;
  const cv_col *col = &t->cols[i];
  list[0] = '\0';
  for (int k = 0; k < K_COUNT && used < sizeof list; k++) {
    if (!(col->kinds & B(k))) continue;
    int n = snprintf(list + used, sizeof list - used, "%s%s (row %lld, %s)",
                     used ? ", " : "", kind_words[k], (long long)col->ex_row[k],
                     col->ex[k] ? col->ex[k] : "?");
    if (n > 0) used += (size_t)n;
  }
  cv_col_path(t, i, path, sizeof path);
  if (type == '{')
    cv_note(c, "column %s: %s -> a nested table%s%s", path, list,
            *why ? " " : "", why);
  else
    cv_note(c, "column %s: %s -> %c%s%s", path, list, type, *why ? " " : "",
            why);
}

/* The type of an inferred column (docs/convert.md, "The type of a column"). */
static jj_type decide(cv *c, cv_table *t, size_t i) {
  cv_col *col = &t->cols[i];
  uint32_t k = col->kinds;
  if (k == 0) {
    char path[400];
    cv_col_path(t, i, path, sizeof path);
    cv_note(c, "column %s: no value but null -> s", path);
    return JJ_TEXT;
  }
  if (k == B(K_BOOL)) return JJ_BOOL;
  if (k == B(K_INT)) return JJ_INT;
  if (k == B(K_FLOAT)) return JJ_FLOAT;
  if (k == B(K_DATE)) return JJ_DATE;
  if (k == B(K_TS)) return JJ_TIMESTAMP;
  if (!(k & ~(B(K_TEXT) | B(K_NANS)))) return JJ_TEXT; /* plain text */
  if ((k & NUMBERS) && !(k & ~(NUMBERS | B(K_NANS)))) {
    if (k & B(K_HUGE))
      return tell(c, t, i, 's', "(a number beyond the range of doubles)"),
             JJ_TEXT;
    if (k & B(K_BIGX))
      return tell(c, t, i, 's', "(an integer not exact as a double)"), JJ_TEXT;
    if ((k & B(K_INT)) && col->inexact)
      return tell(c, t, i, 's', "(an integer not exact as a double)"), JJ_TEXT;
    tell(c, t, i, 'f',
         k & (B(K_INT) | B(K_BIG)) ? "(every integer is exact as a double)"
                                   : "");
    return JJ_FLOAT;
  }
  if (k & B(K_TABLE) && !(k & ~(B(K_TABLE) | B(K_EMPTY)))) return JJ_TABLE;
  if (k == B(K_EMPTY))
    return tell(c, t, i, 's', "(their JSON text \"[]\")"), JJ_TEXT;
  tell(c, t, i, 's',
       k & (B(K_TABLE) | B(K_EMPTY) | B(K_JSON)) ? "(arrays and objects as "
                                                   "their JSON text)"
                                                 : "");
  return JJ_TEXT;
}

/* Names equal but for ASCII case, next to each other when sorted. */
typedef struct lname {
  const char *p;
  size_t len;
} lname;

static int lower(int ch) { return ch >= 'A' && ch <= 'Z' ? ch + 32 : ch; }

static int lname_cmp(const void *a, const void *b) {
  const lname *x = a, *y = b;
  for (size_t i = 0; i < x->len && i < y->len; i++) {
    int d = lower((unsigned char)x->p[i]) - lower((unsigned char)y->p[i]);
    if (d) return d;
  }
  return x->len < y->len ? -1 : x->len > y->len;
}

static void case_notes(cv *c, cv_table *t) {
  char a[JJ_SHOW_CAP], b[JJ_SHOW_CAP];
  lname *v = t->n > 1 ? malloc(t->n * sizeof *v) : NULL;
  if (!v) return;
  for (size_t i = 0; i < t->n; i++)
    v[i] = (lname){t->cols[i].name, t->cols[i].name_len};
  qsort(v, t->n, sizeof *v, lname_cmp);
  for (size_t i = 1; i < t->n; i++)
    if (!lname_cmp(&v[i - 1], &v[i]))
      cv_note(c,
              "columns %s and %s differ only in case (SQLite takes them "
              "for one name)",
              jj_show(a, sizeof a, v[i - 1].p, v[i - 1].len, 1),
              jj_show(b, sizeof b, v[i].p, v[i].len, 1));
  free(v);
}

/* A schema column no data column matched. */
static int unseen(cv *c, const cv_table *spec) {
  char shown[JJ_SHOW_CAP];
  for (size_t i = 0; spec && i < spec->n; i++) {
    if (!spec->cols[i].seen)
      return cv_fail_plain(c, JJ_ERR_SCHEMA, UINT64_MAX,
                           "the schema names column %s, which the input does "
                           "not have",
                           jj_show(shown, sizeof shown, spec->cols[i].name,
                                   spec->cols[i].name_len, 1));
  }
  return 0;
}

static jj_schema *resolve(cv *c, cv_table *t) {
  jj_schema *s = jj_schema_new();
  if (!s) return cv_nomem(c), NULL;
  if (unseen(c, t->spec)) goto fail;
  for (size_t i = 0; i < t->n; i++) {
    cv_col *col = &t->cols[i];
    jj_schema *sub = NULL;
    col->type = col->forced ? col->forced : decide(c, t, i);
    if (col->type == JJ_TABLE) {
      if (!cv_sub(c, t, i)) goto fail;
      if (!(sub = resolve(c, col->sub))) goto fail;
      if (jj_schema_columns(sub) == 0) { /* only {} objects */
        jj_schema_free(sub);
        sub = NULL;
        if (col->forced) {
          char path[400];
          cv_col_path(t, i, path, sizeof path);
          cv_fail_plain(c, JJ_ERR_SCHEMA, UINT64_MAX,
                        "column %s: the schema "
                        "says a nested table, but its objects have no keys",
                        path);
          goto fail;
        }
        tell(c, t, i, 's', "(objects without keys: their JSON text)");
        col->type = JJ_TEXT;
      }
    }
    if (jj_schema_add(s, col->name, col->name_len, col->type, sub, c->err))
      goto fail;
  }
  case_notes(c, t);
  return s;
fail:
  jj_schema_free(s);
  return NULL;
}

jj_code cv_resolve(cv *c) {
  jj_schema_free(c->schema);
  c->schema = resolve(c, &c->top);
  if (!c->schema) return c->err->code;
  if (jj_schema_columns(c->schema) == 0)
    return cv_fail_plain(c, JJ_ERR_SCHEMA, UINT64_MAX,
                         "the input has no columns (%s)",
                         c->rows ? "its rows have no keys" : "it has no rows"),
           c->err->code;
  return JJ_OK;
}
