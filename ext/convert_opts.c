/*
** convert_opts.c — the converter's options as SQL spells them, in one
** table that every SQL entry to the converter reads:
**
**   jj_from_csv(data, 'delimiter=;', 'null=NA')         one argument each
**   CREATE VIRTUAL TABLE t USING jj_open('x.csv', delimiter=';', null=NA)
**   jj_open('x.csv', 'delimiter=";", null=NA')           one OPTIONS text
**   jj_schema('x.csv', 'schema="id:i,qty:f"')
**
** Each option sets fields of a jj_convert_opts (a jjx_copts holds it with
** the values it points to).  Adding one is an entry in `defs` below: its
** key, what input it applies to, whether it may be repeated, and the
** setter that fills its field (with a canonical spelling of the value,
** which the cache key is made of).
**
** An option names input it applies to: CSV and TSV only (delimiter, null,
** booleans, ...), or JSON too (schema, bad_to_null).  jjx_copts_check
** refuses one given for input it does not apply to (a JSON file, a .tsv
** file for the delimiter, a jalapenojson document), naming it and why.
**
** The canonical text (jjx_copts.key): the options given, in this table's
** order, values in one spelling (1/0, fail/skip/null, the delimiter's
** character or tab), repeated values sorted, values equal to the default
** left out; NULL when nothing is left.  So 'on_error=skip,null_padding=yes'
** and 'null_padding=1, on_error=skip' are one cache entry, and a file
** opened with other options is another (cache.c).
*/
#include <stdlib.h>
#include <string.h>

#include "ext.h"

/* Where an option applies. */
enum { ANY_TEXT, CSV_ONLY, CSV_NOT_TSV };

typedef struct copt_def copt_def;
/* Set the option's field from `val` (NUL-terminated, owned by o): 0 with
** *norm the canonical spelling (static or val), or -1 for a bad value. */
typedef int (*copt_set)(jjx_copts *o, const copt_def *d, const char *val,
                        const char **norm);
struct copt_def {
  const char *key;
  int scope;         /* ANY_TEXT, CSV_ONLY, CSV_NOT_TSV */
  int repeat;        /* 1: given again, each value is one more (in any
                     ** order); 2: the same, the order kept (it matters) */
  copt_set set;
  unsigned flag;     /* set_flag's JJ_CONVERT_* bit */
  const char *dflt;  /* the canonical value that is the default: left out
                     ** of the key; NULL: none is */
  const char *takes; /* the values it takes, for messages */
};

static int set_schema(jjx_copts *o, const copt_def *d, const char *val,
                      const char **norm) {
  (void)d;
  o->co.schema = val;
  *norm = val;
  return 0;
}

static int set_delimiter(jjx_copts *o, const copt_def *d, const char *val,
                         const char **norm) {
  (void)d;
  if (sqlite3_stricmp(val, "tab") == 0 || strcmp(val, "\t") == 0) {
    o->co.delimiter = '\t';
    *norm = "tab";
    return 0;
  }
  if (val[0] > 0 && val[0] < 0x7f && val[1] == '\0' && val[0] != '"' &&
      val[0] != '\r' && val[0] != '\n') {
    o->co.delimiter = val[0];
    *norm = val;
    return 0;
  }
  return -1;
}

/* null=TEXT: the first is null_text, each later one one more null text. */
static int set_null(jjx_copts *o, const copt_def *d, const char *val,
                    const char **norm) {
  (void)d;
  *norm = val;
  if (!o->co.null_text) {
    o->co.null_text = val;
    return 0;
  }
  if (o->co.n_null_texts == JJ_CONVERT_MAX_NULLS) return -1;
  o->nulls[o->co.n_null_texts++] = val;
  o->co.null_texts = o->nulls;
  return 0;
}

static int set_flag(jjx_copts *o, const copt_def *d, const char *val,
                    const char **norm) {
  int b = jjx_parse_bool(val);
  if (b < 0) return -1;
  if (b)
    o->co.flags |= d->flag;
  else
    o->co.flags &= ~d->flag;
  *norm = b ? "1" : "0";
  return 0;
}

/* header=0: JJ_CONVERT_CSV_NO_HEADER (the flag says the opposite). */
static int set_header(jjx_copts *o, const copt_def *d, const char *val,
                      const char **norm) {
  int b = jjx_parse_bool(val);
  if (b < 0) return -1;
  if (b)
    o->co.flags &= ~d->flag;
  else
    o->co.flags |= d->flag;
  *norm = b ? "1" : "0";
  return 0;
}

/* thousands=C: one character that cannot be part of a number itself. */
static int set_thousands(jjx_copts *o, const copt_def *d, const char *val,
                         const char **norm) {
  unsigned char c = (unsigned char)val[0];
  (void)d;
  if (!c || val[1] || c >= 0x7f || (c < 0x20 && c != '\t') ||
      (c >= '0' && c <= '9') || strchr("+-.eE\"", c))
    return -1;
  o->co.thousands = (char)c;
  *norm = val;
  return 0;
}

/* null_for=COLUMN=TEXT: TEXT means null in COLUMN only (split at the first
** '='; the column's name is kept in aux[] of the slot being set). */
static int set_null_for(jjx_copts *o, const copt_def *d, const char *val,
                        const char **norm) {
  const char *eq = strchr(val, '=');
  (void)d;
  if (!eq || eq == val || o->co.n_null_for == JJ_CONVERT_MAX_NULL_FOR)
    return -1;
  char *col = sqlite3_mprintf("%.*s", (int)(eq - val), val);
  if (!col) return -1;
  o->aux[o->n] = col;
  o->null_for[o->co.n_null_for].column = col;
  o->null_for[o->co.n_null_for++].text = eq + 1;
  o->co.null_for = o->null_for;
  *norm = val;
  return 0;
}

/* date_format=PATTERN, timestamp_format=PATTERN: one more pattern, tried
** in the order given ("iso": only ISO 8601); the converter checks it. */
static int set_format(jjx_copts *o, const copt_def *d, const char *val,
                      const char **norm) {
  int ts = d->flag != 0;
  size_t *n = ts ? &o->co.n_timestamp_formats : &o->co.n_date_formats;
  const char **slots = ts ? o->timestamps : o->dates;
  if (!*val || *n == JJ_CONVERT_MAX_FORMATS) return -1;
  slots[(*n)++] = val;
  if (ts)
    o->co.timestamp_formats = o->timestamps;
  else
    o->co.date_formats = o->dates;
  *norm = val;
  return 0;
}

static int set_on_error(jjx_copts *o, const copt_def *d, const char *val,
                        const char **norm) {
  static const char *const names[] = {"fail", "skip", "null"};
  (void)d;
  for (int i = 0; i < 3; i++) {
    if (sqlite3_stricmp(val, names[i]) == 0) {
      o->co.on_error = (jj_on_error)i; /* JJ_ON_ERROR_FAIL, _SKIP, _NULL */
      *norm = names[i];
      return 0;
    }
  }
  return -1;
}

static const copt_def defs[] = {
    {"schema", ANY_TEXT, 0, set_schema, 0, NULL,
     "types for some columns, as 'id:i,joined:d'"},
    {"delimiter", CSV_NOT_TSV, 0, set_delimiter, 0, NULL,
     "one ASCII character (not '\"', CR or LF) or tab"},
    {"null", CSV_ONLY, 1, set_null, 0, NULL,
     "a text that means null (at most 17 of them)"},
    {"booleans", CSV_ONLY, 0, set_flag, JJ_CONVERT_CSV_BOOLEANS, "0",
     "1 or 0 (yes/no, on/off, true/false)"},
    {"empty_is_text", CSV_ONLY, 0, set_flag, JJ_CONVERT_CSV_EMPTY_IS_TEXT,
     "0", "1 or 0 (yes/no, on/off, true/false)"},
    {"bad_to_null", ANY_TEXT, 0, set_flag, JJ_CONVERT_BAD_TO_NULL, "0",
     "1 or 0 (yes/no, on/off, true/false)"},
    {"null_padding", CSV_ONLY, 0, set_flag, JJ_CONVERT_CSV_NULL_PADDING, "0",
     "1 or 0 (yes/no, on/off, true/false)"},
    {"on_error", CSV_ONLY, 0, set_on_error, 0, "fail", "fail, skip or null"},
    {"null_for", CSV_ONLY, 1, set_null_for, 0, NULL,
     "COLUMN=TEXT: TEXT means null in that column (at most 64)"},
    {"thousands", CSV_ONLY, 0, set_thousands, 0, NULL,
     "one ASCII character that groups digits (not a digit, sign, '.', 'e' "
     "or '\"')"},
    {"header", CSV_ONLY, 0, set_header, JJ_CONVERT_CSV_NO_HEADER, "1",
     "1 or 0 (yes/no, on/off, true/false)"},
    {"date_format", ANY_TEXT, 2, set_format, 0, NULL,
     "a strftime-style pattern such as '%m/%d/%Y', or iso (at most 16)"},
    {"timestamp_format", ANY_TEXT, 2, set_format, 1, NULL,
     "a strftime-style pattern such as '%Y/%m/%d %H:%M', or iso (at most "
     "16)"},
};
#define NDEFS ((int)(sizeof defs / sizeof *defs))

char *jjx_copts_known(int json_only) {
  sqlite3_str *s = sqlite3_str_new(NULL);
  int n = 0;
  for (int i = 0; i < NDEFS; i++)
    if (!json_only || defs[i].scope == ANY_TEXT)
      sqlite3_str_appendf(s, "%s%s", n++ ? ", " : "", defs[i].key);
  return sqlite3_str_finish(s);
}

int jjx_copts_has_key(const char *key, size_t klen) {
  for (int k = 0; k < NDEFS; k++)
    if (strlen(defs[k].key) == klen && memcmp(defs[k].key, key, klen) == 0)
      return 1;
  return 0;
}

int jjx_copts_set(jjx_copts *o, const char *fn, const char *key, size_t klen,
                  const char *val, size_t vlen, char **pzErr) {
  int k;
  for (k = 0; k < NDEFS; k++)
    if (strlen(defs[k].key) == klen && memcmp(defs[k].key, key, klen) == 0)
      break;
  if (k == NDEFS) return SQLITE_NOTFOUND;
  int seen = 0;
  for (int i = 0; i < o->n; i++) seen += o->def[i] == k;
  if (seen && !defs[k].repeat) {
    *pzErr = sqlite3_mprintf("%s: option \"%s\" given twice", fn,
                             defs[k].key);
    return *pzErr ? SQLITE_ERROR : SQLITE_NOMEM;
  }
  if (o->n == JJX_COPTS_MAX) {
    *pzErr = sqlite3_mprintf("%s: more than %d converter options", fn,
                             JJX_COPTS_MAX);
    return *pzErr ? SQLITE_ERROR : SQLITE_NOMEM;
  }
  char *v = sqlite3_malloc64(vlen + 1);
  if (!v) return SQLITE_NOMEM;
  memcpy(v, val, vlen);
  v[vlen] = '\0';
  const char *norm = v;
  if (strlen(v) != vlen || defs[k].set(o, &defs[k], v, &norm) != 0) {
    *pzErr = sqlite3_mprintf("%s: option \"%s\" takes %s, not \"%s\"", fn,
                             defs[k].key, defs[k].takes, v);
    sqlite3_free(v);
    return *pzErr ? SQLITE_ERROR : SQLITE_NOMEM;
  }
  o->val[o->n] = v;
  o->norm[o->n] = norm;
  o->def[o->n++] = k;
  return SQLITE_OK;
}

static int cmp_text(const void *a, const void *b) {
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Append a value of the canonical text: quoted in double quotes (doubled
** inside) when it has a comma, a quote, white space at an end, or is
** empty, so that the OPTIONS parser reads it back as it is. */
static void append_value(sqlite3_str *s, const char *v) {
  size_t n = strlen(v);
  int plain = n > 0 && !strpbrk(v, ",\"'") && v[0] != ' ' && v[0] != '\t' &&
              v[n - 1] != ' ' && v[n - 1] != '\t';
  if (plain) {
    sqlite3_str_appendall(s, v);
    return;
  }
  sqlite3_str_appendchar(s, 1, '"');
  for (; *v; v++) {
    if (*v == '"') sqlite3_str_appendchar(s, 1, '"');
    sqlite3_str_appendchar(s, 1, *v);
  }
  sqlite3_str_appendchar(s, 1, '"');
}

int jjx_copts_finish(jjx_copts *o) {
  sqlite3_str *s = sqlite3_str_new(NULL);
  const char *vals[JJX_COPTS_MAX];
  int items = 0;
  sqlite3_free(o->key);
  o->key = NULL;
  for (int k = 0; k < NDEFS; k++) {
    int n = 0;
    for (int i = 0; i < o->n; i++)
      if (o->def[i] == k &&
          !(defs[k].dflt && strcmp(o->norm[i], defs[k].dflt) == 0))
        vals[n++] = o->norm[i];
    if (defs[k].repeat == 1) qsort(vals, (size_t)n, sizeof *vals, cmp_text);
    for (int i = 0; i < n; i++) {
      sqlite3_str_appendf(s, "%s%s=", items++ ? "," : "", defs[k].key);
      append_value(s, vals[i]);
    }
  }
  char *key = sqlite3_str_finish(s);
  if (items && !key) return SQLITE_NOMEM;
  if (!items) sqlite3_free(key);
  else o->key = key;
  return SQLITE_OK;
}

int jjx_copts_check(const jjx_copts *o, jj_format fmt, int is_file,
                    const char *label, char **pzErr) {
  for (int i = 0; o && i < o->n; i++) {
    const copt_def *d = &defs[o->def[i]];
    const char *why = NULL;
    if (fmt == JJ_FORMAT_AUTO)
      why = is_file ? "the converter's options apply to a .json, .ndjson, "
                      ".jsonl, .csv or .tsv file, and this file is a "
                      "jalapenojson document"
                    : "the converter's options apply to a .json, .ndjson, "
                      ".jsonl, .csv or .tsv file, not to a document given "
                      "as a value (jj_from_csv and jj_from_json take them)";
    else if (d->scope != ANY_TEXT &&
             (fmt == JJ_FORMAT_JSON || fmt == JJ_FORMAT_NDJSON))
      why = "it applies to CSV and TSV only, and this file is JSON";
    else if (d->scope == CSV_NOT_TSV && fmt == JJ_FORMAT_TSV)
      why = "a .tsv file's delimiter is tab";
    if (why) {
      *pzErr = sqlite3_mprintf("%s: option \"%s\" does not apply: %s", label,
                               d->key, why);
      return *pzErr ? SQLITE_ERROR : SQLITE_NOMEM;
    }
  }
  return SQLITE_OK;
}

const char *jjx_copts_first_csv(const jjx_copts *o) {
  for (int i = 0; i < o->n; i++)
    if (defs[o->def[i]].scope != ANY_TEXT) return defs[o->def[i]].key;
  return NULL;
}

void jjx_copts_free(jjx_copts *o) {
  for (int i = 0; i < o->n; i++) {
    sqlite3_free(o->val[i]);
    sqlite3_free(o->aux[i]);
  }
  sqlite3_free(o->key);
  memset(o, 0, sizeof *o);
}

/* ---------------------------------------------------------------------- */
/* The OPTIONS text: 'key=value, key="a,b"'                                */
/* ---------------------------------------------------------------------- */

int jjx_option_items(const char *fn, const char *text, jjx_option_item each,
                     void *ctx, char **pzErr) {
  const char *p = text;
  while (p && *p) {
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') p++;
    const char *start = p;
    while (*p && *p != '=' && *p != ',') p++;
    size_t klen = (size_t)(p - start);
    const char *key = jjx_trim(start, &klen);
    if (*p != '=') {
      if (klen == 0 && !*p) break; /* trailing white space */
      *pzErr = sqlite3_mprintf("%s: expected key=value in OPTIONS, got "
                               "\"%.*s\"",
                               fn, (int)(p - start), start);
      return *pzErr ? SQLITE_ERROR : SQLITE_NOMEM;
    }
    p++;
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') p++;
    sqlite3_str *v = sqlite3_str_new(NULL);
    if (*p == '"' || *p == '\'') { /* quoted: up to the lone closing quote */
      char q = *p++;
      for (;; p++) {
        if (!*p) {
          sqlite3_free(sqlite3_str_finish(v));
          *pzErr = sqlite3_mprintf("%s: the value of \"%.*s\" in OPTIONS "
                                   "has no closing %c",
                                   fn, (int)klen, key, q);
          return *pzErr ? SQLITE_ERROR : SQLITE_NOMEM;
        }
        if (*p == q && p[1] != q) break;
        if (*p == q) p++; /* a doubled quote is one */
        sqlite3_str_appendchar(v, 1, *p);
      }
      p++;
      while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') p++;
      if (*p && *p != ',') {
        sqlite3_free(sqlite3_str_finish(v));
        *pzErr = sqlite3_mprintf("%s: expected a comma after the quoted "
                                 "value of \"%.*s\" in OPTIONS",
                                 fn, (int)klen, key);
        return *pzErr ? SQLITE_ERROR : SQLITE_NOMEM;
      }
    } else {
      const char *vs = p;
      while (*p && *p != ',') p++;
      size_t vlen = (size_t)(p - vs);
      vs = jjx_trim(vs, &vlen);
      sqlite3_str_append(v, vs, (int)vlen);
    }
    int vlen = sqlite3_str_length(v);
    char *val = sqlite3_str_finish(v);
    if (!val && vlen == 0) val = sqlite3_mprintf("%s", "");
    if (!val) return SQLITE_NOMEM;
    int rc = each(ctx, key, klen, val, (size_t)vlen, pzErr);
    sqlite3_free(val);
    if (rc != SQLITE_OK) return rc;
    if (*p == ',') p++;
  }
  return SQLITE_OK;
}
