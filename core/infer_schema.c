/*
** infer_schema.c — the explicit schema a caller gives, and the types the
** rest of the columns get from their values.
**
** The explicit schema ("id:i,joined:d,items:{qty:f},\"a,b\":s") is parsed
** into tables of its own (the `spec` of each table); a column made from
** the data takes its forced type from there.  After the last value
** ic_resolve decides each other column's type from the kinds of values it
** held (the rules of docs/convert.md, "The type of a column", written once
** here for every way values come in: decide() below), builds the jj_schema
** and tells each decision that is not obvious to the note callback.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "infer.h"

/* ---------------------------------------------------------------------- */
/* The explicit schema: "id:i,joined:d,items:{qty:f},\"a,b\":s"           */
/* ---------------------------------------------------------------------- */

static const char *skip_sp(const char *p) {
  while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') p++;
  return p;
}

/* A usage error about the schema option at byte p - start. */
static int spec_fail(ic *x, const char *start, const char *p,
                     const char *what) {
  return ic_fail(x, JJ_ERR_USAGE, UINT64_MAX, 0, "%s, at byte %zu: %s",
                 x->spec_label ? x->spec_label : "the schema option",
                 (size_t)(p - start), what);
}

/* name:type pairs into t up to `close` ('\0' or '}'); *pp advances. */
static int spec_list(ic *x, ic_table *t, const char *start, const char **pp,
                     char close, unsigned depth) {
  const char *p = skip_sp(*pp);
  char what[200], shown[JJ_SHOW_CAP];
  if (depth > IC_MAX_DEPTH / 2)
    return spec_fail(x, start, p, "nested tables too deep");
  while (*p != close) {
    const char *name = p, *end;
    size_t len;
    if (*p == '"') { /* a JSON string */
      int esc;
      size_t bad;
      jj_code code;
      const char *why;
      end = jj_string_scan(p, p + strlen(p), &esc, &bad, &why);
      if (!end) return spec_fail(x, start, p + bad, why);
      x->scratch.len = 0;
      if (jj_buf_reserve(&x->scratch, (size_t)(end - p))) return ic_nomem(x);
      len = jj_string_decode(p + 1, (size_t)(end - p) - 2, x->scratch.p, &bad,
                             &code, &why);
      if (len == (size_t)-1) return spec_fail(x, start, p + 1 + bad, why);
      name = x->scratch.p;
      p = end;
    } else {
      while (*p && !strchr(":,{}\"", *p)) p++;
      end = p;
      while (end > name && strchr(" \t\r\n", end[-1])) end--;
      len = (size_t)(end - name);
    }
    jj_show(shown, sizeof shown, name, len, 1);
    if (len == 0) return spec_fail(x, start, p, "expected a column name");
    if (ic_find(t, name, len) >= 0) {
      snprintf(what, sizeof what, "column %s is named twice", shown);
      return spec_fail(x, start, name, what);
    }
    long i = ic_add(x, t, name, len);
    if (i < 0)
      return i == -2 ? spec_fail(x, start, p, "too many columns") : IC_FAIL;
    x->ncols_all--; /* the spec's columns do not count against the data's */
    p = skip_sp(p);
    if (*p != ':') {
      snprintf(what, sizeof what, "expected ':' and a type after %s", shown);
      return spec_fail(x, start, p, what);
    }
    p = skip_sp(p + 1);
    ic_col *col = &t->cols[i];
    if (*p == '{') {
      col->forced = JJ_TABLE;
      if (!ic_sub(x, t, (size_t)i)) return IC_FAIL;
      p++;
      if (spec_list(x, col->sub, start, &p, '}', depth + 1)) return IC_FAIL;
      p++;
    } else if (p[0] == 'j' && p[1] == 'j') { /* a nested table, inferred */
      col->forced = JJ_TABLE;
      if (!ic_sub(x, t, (size_t)i)) return IC_FAIL;
      p += 2;
    } else if (*p && strchr("ifsdtlbxj", *p)) {
      col->forced = (jj_type)*p++;
    } else {
      snprintf(what, sizeof what,
               "unknown type %.1s for column %s (use one "
               "of i f s d t l b x j, {...} or jj for a nested table)",
               p, shown);
      return spec_fail(x, start, p, what);
    }
    p = skip_sp(p);
    if (*p == ',') {
      p = skip_sp(p + 1);
      if (*p == close) return spec_fail(x, start, p, "expected a column name");
    } else if (*p != close) {
      return spec_fail(x, start, p,
                       close ? "expected ',' or '}'" : "expected ','");
    }
  }
  *pp = p;
  return 0;
}

jj_code ic_schema_parse(ic *x, const char *spec) {
  const char *p = spec;
  if (!(x->top.spec = calloc(1, sizeof *x->top.spec)))
    return ic_nomem(x), x->err->code;
  return spec_list(x, x->top.spec, spec, &p, '\0', 0) ? x->err->code : JJ_OK;
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
    "local timestamps",
    "local timestamps with a space for the T",
    "text",
    "arrays of objects",
    "empty arrays",
    "other arrays and objects",
    "bytes"};

/* "integers (row 1, 5), floats (row 2, 1.5)": the kinds a column held. */
static void kinds_list(const ic_col *col, char *list, size_t cap) {
  size_t used = 0;
  list[0] = '\0';
  for (int k = 0; k < K_COUNT && used < cap; k++) {
    if (!(col->kinds & B(k))) continue;
    int n = snprintf(list + used, cap - used, "%s%s (row %lld, %s)",
                     used ? ", " : "", kind_words[k], (long long)col->ex_row[k],
                     col->ex[k] ? col->ex[k] : "?");
    if (n > 0) used += (size_t)n;
  }
}

/* Tell "column "a": integers (row 1, 5), floats (row 2, 1.5) -> f (why)". */
static void tell(ic *x, ic_table *t, size_t i, char type, const char *why) {
  char path[400], list[1200];
  kinds_list(&t->cols[i], list, sizeof list);
  ic_col_path(t, i, path, sizeof path);
  if (type == '{')
    ic_note(x, "column %s: %s -> a nested table%s%s", path, list,
            *why ? " " : "", why);
  else
    ic_note(x, "column %s: %s -> %c%s%s", path, list, type, *why ? " " : "",
            why);
}

/* The type of an inferred column (docs/convert.md, "The type of a column");
** 0 after a failure. */
static jj_type decide(ic *x, ic_table *t, size_t i) {
  ic_col *col = &t->cols[i];
  uint32_t k = col->kinds;
  if (k == 0) {
    char path[400];
    ic_col_path(t, i, path, sizeof path);
    ic_note(x, "column %s: no value but null -> s", path);
    return JJ_TEXT;
  }
  if (k & B(K_BYTES)) { /* bytes have no text that reads back as bytes */
    char path[400], list[1200];
    if (k == B(K_BYTES)) return JJ_BYTES;
    kinds_list(col, list, sizeof list);
    ic_col_path(t, i, path, sizeof path);
    ic_fail(x, JJ_ERR_TYPE, UINT64_MAX, 0,
            "column %s mixes bytes with other values: %s (give it a type, or "
            "make every value bytes)",
            path, list);
    return (jj_type)0;
  }
  if (x->dates && (k & B(K_TEXT))) { /* dates in another spelling? */
    jj_type ty = ic_dates_decide(x, t, i);
    if (ty) return ty;
  }
  if (k == B(K_BOOL)) return JJ_BOOL;
  if (k == B(K_INT)) return JJ_INT;
  if (k == B(K_FLOAT)) return JJ_FLOAT;
  if (k == B(K_DATE)) return JJ_DATE;
  if (k == B(K_TS)) return JJ_TIMESTAMP;
  if (k == B(K_LTS)) return JJ_LOCAL_TIMESTAMP;
  if (k & B(K_LTS_SP) && !(k & ~(B(K_LTS) | B(K_LTS_SP))))
    return tell(x, t, i, 'l', "(written with T for the space)"),
           JJ_LOCAL_TIMESTAMP;
  if (k & (B(K_LTS) | B(K_LTS_SP)) && k & B(K_TS) &&
      !(k & ~(B(K_TS) | B(K_LTS) | B(K_LTS_SP))))
    return tell(x, t, i, 's',
                "(timestamps with and without a zone: no one instant for "
                "both)"),
           JJ_TEXT;
  if (!(k & ~(B(K_TEXT) | B(K_NANS)))) return JJ_TEXT; /* plain text */
  if ((k & NUMBERS) && !(k & ~(NUMBERS | B(K_NANS)))) {
    if (k & B(K_HUGE))
      return tell(x, t, i, 's', "(a number beyond the range of doubles)"),
             JJ_TEXT;
    if (k & B(K_BIGX))
      return tell(x, t, i, 's', "(an integer not exact as a double)"), JJ_TEXT;
    if ((k & B(K_INT)) && col->inexact)
      return tell(x, t, i, 's', "(an integer not exact as a double)"), JJ_TEXT;
    tell(x, t, i, 'f',
         k & (B(K_INT) | B(K_BIG)) ? "(every integer is exact as a double)"
                                   : "");
    return JJ_FLOAT;
  }
  if (k & B(K_TABLE) && !(k & ~(B(K_TABLE) | B(K_EMPTY)))) return JJ_TABLE;
  /* An object, an array that is not rows, or rows among other values:
  ** every one of them is a JSON value, so the column keeps them as JSON. */
  if (k & (B(K_TABLE) | B(K_EMPTY) | B(K_JSON)))
    return tell(x, t, i, 'j',
                k == B(K_EMPTY)               ? "(an empty array is no table of rows)"
                : k & ~(B(K_TABLE) | B(K_EMPTY) | B(K_JSON)) ? "(every value kept as JSON)"
                                              : "(kept as JSON)"),
           JJ_JSON;
  tell(x, t, i, 's', "");
  return JJ_TEXT;
}

/* Names equal but for ASCII case, next to each other when sorted, in the
** order of their columns (qsort is not stable, and its instability differs
** between C libraries: the notes must not). */
typedef struct lname {
  const char *p;
  size_t len, at;
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

static int lname_order(const void *a, const void *b) {
  const lname *x = a, *y = b;
  int d = lname_cmp(a, b);
  return d ? d : x->at < y->at ? -1 : x->at > y->at;
}

static void case_notes(ic *x, ic_table *t) {
  char a[JJ_SHOW_CAP], b[JJ_SHOW_CAP];
  lname *v = t->n > 1 ? malloc(t->n * sizeof *v) : NULL;
  if (!v) return;
  for (size_t i = 0; i < t->n; i++)
    v[i] = (lname){t->cols[i].name, t->cols[i].name_len, i};
  qsort(v, t->n, sizeof *v, lname_order);
  for (size_t i = 1; i < t->n; i++)
    if (!lname_cmp(&v[i - 1], &v[i]))
      ic_note(x,
              "columns %s and %s differ only in case (SQLite takes them "
              "for one name)",
              jj_show(a, sizeof a, v[i - 1].p, v[i - 1].len, 1),
              jj_show(b, sizeof b, v[i].p, v[i].len, 1));
  free(v);
}

/* A schema column no data column matched. */
static int unseen(ic *x, const ic_table *spec) {
  char shown[JJ_SHOW_CAP];
  for (size_t i = 0; spec && i < spec->n; i++) {
    if (!spec->cols[i].seen)
      return ic_fail(x, JJ_ERR_SCHEMA, UINT64_MAX, 0,
                           "the schema names column %s, which the input does "
                           "not have",
                           jj_show(shown, sizeof shown, spec->cols[i].name,
                                   spec->cols[i].name_len, 1));
  }
  return 0;
}

static jj_schema *resolve(ic *x, ic_table *t) {
  jj_schema *s = jj_schema_new();
  if (!s) return ic_nomem(x), NULL;
  if (unseen(x, t->spec)) goto fail;
  for (size_t i = 0; i < t->n; i++) {
    ic_col *col = &t->cols[i];
    jj_schema *sub = NULL;
    col->type = col->forced ? col->forced : decide(x, t, i);
    if (!col->type) goto fail;
    if (col->type == JJ_TABLE) {
      if (!ic_sub(x, t, i)) goto fail;
      if (!(sub = resolve(x, col->sub))) goto fail;
      if (jj_schema_columns(sub) == 0) { /* only {} objects */
        jj_schema_free(sub);
        sub = NULL;
        if (col->forced) {
          char path[400];
          ic_col_path(t, i, path, sizeof path);
          ic_fail(x, JJ_ERR_SCHEMA, UINT64_MAX, 0,
                        "column %s: the schema says a nested table, but "
                        "no value of it has a column",
                        path);
          goto fail;
        }
        tell(x, t, i, 'j', "(objects without keys, kept as JSON)");
        col->type = JJ_JSON;
      }
    }
    if (jj_schema_add(s, col->name, col->name_len, col->type, sub, x->err))
      goto fail;
  }
  case_notes(x, t);
  return s;
fail:
  jj_schema_free(s);
  return NULL;
}

jj_code ic_resolve(ic *x) {
  jj_schema_free(x->schema);
  x->schema = resolve(x, &x->top);
  if (!x->schema) return x->err->code;
  if (jj_schema_columns(x->schema) == 0)
    return ic_fail(x, JJ_ERR_SCHEMA, UINT64_MAX, 0,
                         "the input has no columns (%s)",
                         x->rows ? "its rows have no keys" : "it has no rows"),
           x->err->code;
  return JJ_OK;
}

/* ---------------------------------------------------------------------- */
/* Values that did not fit                                                 */
/* ---------------------------------------------------------------------- */

/* What a type's values are, for "... is not <this>". */
const char *ic_type_words(jj_type t) {
  switch (t) {
    case JJ_INT:
      return "an integer";
    case JJ_FLOAT:
      return "a float (exactly)";
    case JJ_BOOL:
      return "a boolean";
    case JJ_DATE:
      return "a date";
    case JJ_TIMESTAMP:
      return "a timestamp";
    case JJ_LOCAL_TIMESTAMP:
      return "a local timestamp";
    case JJ_BYTES:
      return "base64 bytes";
    case JJ_TABLE:
      return "an array of objects";
    case JJ_JSON:
      return "JSON text";
    default:
      return "text";
  }
}

/* Notes of the values made null, table by table. */
void ic_nulled_notes(ic *x, ic_table *t) {
  for (size_t i = 0; i < t->n; i++) {
    ic_col *col = &t->cols[i];
    if (col->sub) ic_nulled_notes(x, col->sub);
    if (!col->nulled) continue;
    char path[400];
    ic_col_path(t, i, path, sizeof path);
    ic_note(x,
            "column %s: %llu value%s that did not fit the schema's %c "
            "became null (the first: row %lld, %s)",
            path, (unsigned long long)col->nulled, col->nulled == 1 ? "" : "s",
            col->type == JJ_TABLE ? '{' : (char)col->type,
            (long long)col->nulled_row, col->nulled_ex ? col->nulled_ex : "?");
  }
}

void ic_nulled(ic *x, ic_col *col, const char *shown) {
  if (!col->nulled++) {
    col->nulled_row = x->top.row;
    if ((col->nulled_ex = malloc(strlen(shown) + 1)))
      strcpy(col->nulled_ex, shown);
  }
}

void ic_misfit_words(jj_type t, const char *p, size_t len, const char *name,
                     char *out, size_t cap) {
  jj_error err;
  err.message[0] = '\0';
  if (p && t == JJ_DATE) jj_date_parse(p, len, NULL, &err);
  if (p && t == JJ_TIMESTAMP) jj_timestamp_parse(p, len, NULL, &err);
  if (p && t == JJ_LOCAL_TIMESTAMP) jj_local_timestamp_parse(p, len, 1, NULL, &err);
  /* the calendar's reason is the parenthesis its message ends with, which
  ** may hold parentheses of its own ("(expected YYYY-MM-DD(T| )HH:MM...)") */
  size_t n = strlen(err.message), depth = 0;
  const char *why = NULL;
  for (size_t i = n; n >= 3 && err.message[n - 1] == ')' && i-- > 0;) {
    if (err.message[i] == ')') depth++;
    if (err.message[i] == '(' && --depth == 0) {
      why = err.message + i;
      break;
    }
  }
  n = why ? strlen(why) : 0;
  snprintf(out, cap, " (%.*s%sthe schema says %s:%c)", why ? (int)n - 2 : 0,
           why ? why + 1 : "", why ? "; " : "", name,
           t == JJ_TABLE ? '{' : (char)t);
}
