/*
** typed.c — what the typed form of jj_open (vtab.c) needs around its
** CREATE VIRTUAL TABLE arguments: the options, the CREATE TABLE statement
** it declares, and the message for a document of another shape.
**
** Options (parsed from a table of known keys, csv.c-like):
**   max_size=N   the most document bytes a scan of this table holds; it can
**                only lower the connection's jj_max_size() (0: no limit of
**                its own)
**   mmap=1       map the declared plain file instead of reading it
**   union_by_name=1  a glob's files may have different columns: the table
**                has their union, matched by name (union.c); also a
**                key of jj_open(SOURCE, OPTIONS) and jj_schema's OPTIONS
**   validate=1   check every value when a scan first opens the document
**   timestamps=sql|as_written  t and l columns as SQLite writes date and
**                time (the default, column.c's jjx_ts_sql) or as the
**                document writes them
**   glob_max_files=N, glob_max_dirs=N, glob_max_bytes=N
**                what expanding a glob may do (glob_walk.c): names
**                matched, directories opened, bytes of names; each only
**                lowers its default (0: the default)
**   the converter's (convert_opts.c): schema, delimiter, null, ...  a JSON
**                or CSV file is converted with them; also keys of the
**                OPTIONS text
**
** Names from a document reach messages only through jjx_show (short,
** escaped), since a database file or a document may be hostile.
*/
#include <string.h>

#include "ext.h"

/* Trim SQL whitespace from both ends of z[0..*n). */
const char *jjx_trim(const char *z, size_t *n) {
  while (*n && (z[0] == ' ' || z[0] == '\t' || z[0] == '\n' || z[0] == '\r'))
    z++, (*n)--;
  while (*n && (z[*n - 1] == ' ' || z[*n - 1] == '\t' || z[*n - 1] == '\n' ||
                z[*n - 1] == '\r'))
    (*n)--;
  return z;
}

/* A non-negative decimal integer; 0 on success. */
static int parse_size(const char *z, uint64_t *out) {
  uint64_t v = 0;
  if (!*z) return -1;
  for (; *z; z++) {
    if (*z < '0' || *z > '9') return -1;
    if (v > (UINT64_MAX - 9) / 10) return -1;
    v = v * 10 + (uint64_t)(*z - '0');
  }
  *out = v;
  return 0;
}

/* The known keys, in one table: errors for unknown and repeated keys quote
** the argument as written.  The record form and jj_schema know only the
** keys that change what is read from a glob (`text`). */
enum {
  OPT_GLOB_MAX_BYTES,
  OPT_GLOB_MAX_DIRS,
  OPT_GLOB_MAX_FILES,
  OPT_MAX_SIZE,
  OPT_MMAP,
  OPT_TIMESTAMPS,
  OPT_UNION_BY_NAME,
  OPT_VALIDATE,
  NKEYS
};
static const char *const option_keys[NKEYS] = {
    "glob_max_bytes", "glob_max_dirs", "glob_max_files", "max_size",
    "mmap",           "timestamps",    "union_by_name", "validate"};
static const int option_in_text[NKEYS] = {0, 0, 0, 0, 0, 0, 1, 0};

/* What one parse is doing: the function named in messages, the form
** (text: an OPTIONS argument), the keys seen. */
typedef struct parsing {
  const char *fn;
  int text;
  int seen[NKEYS];
  jjx_options *o;
} parsing;

/* One option: key[0..klen), its value v (unquoted), `arg` the item as
** written for messages.  A key of neither table is unknown. */
static int apply(parsing *ps, const char *key, size_t klen, const char *v,
                 size_t vlen, const char *arg, int n, char **pzErr) {
  const char *fn = ps->fn;
  jjx_options *o = ps->o;
  size_t k;
  for (k = 0; k < NKEYS; k++)
    if ((!ps->text || option_in_text[k]) && strlen(option_keys[k]) == klen &&
        memcmp(option_keys[k], key, klen) == 0)
      break;
  if (k == NKEYS) {
    int rc = jjx_copts_set(&o->conv, fn, key, klen, v, vlen, pzErr);
    if (rc != SQLITE_NOTFOUND) return rc;
    char *conv = jjx_copts_known(0);
    if (!conv) return SQLITE_NOMEM;
    *pzErr = sqlite3_mprintf(
        ps->text ? "%s: unknown option \"%.*s\" in OPTIONS (known: "
                   "union_by_name; the converter's: %s; the others are a "
                   "typed table's)"
                 : "%s: unknown option \"%.*s\" (known: glob_max_bytes, "
                   "glob_max_dirs, glob_max_files, max_size, mmap, "
                   "timestamps, union_by_name, validate; the converter's: "
                   "%s)",
        fn, n, arg, conv);
    sqlite3_free(conv);
    return *pzErr ? SQLITE_ERROR : SQLITE_NOMEM;
  }
  if (ps->seen[k]++) {
    *pzErr = sqlite3_mprintf("%s: option \"%s\" given twice: \"%.*s\"", fn,
                             option_keys[k], n, arg);
    return SQLITE_ERROR;
  }
  int bad = 0;
  uint64_t count = 0;
  if (k == OPT_MAX_SIZE) {
    bad = parse_size(v, &o->max_size) != 0;
  } else if (k == OPT_TIMESTAMPS) {
    o->ts_as_written = sqlite3_stricmp(v, "as_written") == 0;
    bad = !o->ts_as_written && sqlite3_stricmp(v, "sql") != 0;
  } else if (k <= OPT_GLOB_MAX_FILES) { /* only lowers: see glob.c */
    bad = parse_size(v, &count) != 0;
    int64_t lim = count > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)count;
    if (k == OPT_GLOB_MAX_BYTES)
      o->glob.bytes = lim;
    else if (k == OPT_GLOB_MAX_DIRS)
      o->glob.dirs = lim;
    else
      o->glob.files = lim;
  } else {
    int b = jjx_parse_bool(v);
    bad = b < 0;
    if (k == OPT_MMAP)
      o->mmap = b;
    else if (k == OPT_UNION_BY_NAME)
      o->union_by_name = b;
    else
      o->validate = b;
  }
  if (bad) {
    *pzErr = sqlite3_mprintf("%s: bad value in \"%.*s\": expected %s", fn,
                             n, arg,
                             k == OPT_MAX_SIZE || k == OPT_GLOB_MAX_BYTES
                                 ? "a number of bytes"
                             : k < OPT_MAX_SIZE      ? "a number"
                             : k == OPT_TIMESTAMPS ? "sql or as_written"
                                                     : "1 or 0");
    return SQLITE_ERROR;
  }
  return SQLITE_OK;
}

/* One CREATE argument arg[0..n) (trimmed): key=value, the value maybe SQL
** quoted. */
static int parse_arg(parsing *ps, const char *arg, size_t n, char **pzErr) {
  size_t klen, vlen;
  const char *eq = memchr(arg, '=', n);
  if (!eq) {
    *pzErr = sqlite3_mprintf("%s: expected key=value after SOURCE, got "
                             "\"%.*s\"",
                             ps->fn, (int)n, arg);
    return SQLITE_ERROR;
  }
  klen = (size_t)(eq - arg);
  const char *key = jjx_trim(arg, &klen);
  vlen = n - (size_t)(eq + 1 - arg);
  const char *val = jjx_trim(eq + 1, &vlen);
  char *v = jjx_dequote(val, vlen);
  if (!v) return SQLITE_NOMEM;
  int rc = apply(ps, key, klen, v, strlen(v), arg, (int)n, pzErr);
  sqlite3_free(v);
  return rc;
}

int jjx_parse_options(int argc, const char *const *argv, jjx_options *o,
                      char **pzErr) {
  parsing ps;
  memset(&ps, 0, sizeof ps);
  ps.fn = "jj_open";
  ps.o = o;
  for (int i = 0; i < argc; i++) {
    size_t n = strlen(argv[i]);
    const char *arg = jjx_trim(argv[i], &n);
    int rc = parse_arg(&ps, arg, n, pzErr);
    if (rc != SQLITE_OK) return rc;
  }
  return jjx_copts_finish(&o->conv);
}

/* An item of an OPTIONS text (jjx_option_items). */
static int text_item(void *ctx, const char *key, size_t klen, const char *val,
                     size_t vlen, char **pzErr) {
  char *arg = sqlite3_mprintf("%.*s=%s", (int)klen, key, val);
  if (!arg) return SQLITE_NOMEM;
  int rc = apply(ctx, key, klen, val, vlen, arg, (int)strlen(arg), pzErr);
  sqlite3_free(arg);
  return rc;
}

int jjx_parse_option_text(const char *fn, const char *text, jjx_options *o,
                          char **pzErr) {
  parsing ps;
  memset(&ps, 0, sizeof ps);
  ps.fn = fn;
  ps.text = 1;
  ps.o = o;
  int rc = jjx_option_items(fn, text, text_item, &ps, pzErr);
  return rc == SQLITE_OK ? jjx_copts_finish(&o->conv) : rc;
}

/* 1 if a column of s is named `name` as SQL compares names (ASCII case
** folded). */
static int name_taken(const jj_schema *s, const char *name) {
  for (size_t i = 0; i < jj_schema_columns(s); i++)
    if (sqlite3_stricmp(jj_schema_name(s, i, NULL), name) == 0) return 1;
  return 0;
}

/* Append column `col`'s name of s to a message, as an excerpt. */
static void show_name(sqlite3_str *m, const jj_schema *s, size_t col) {
  size_t len;
  const char *name = jj_schema_name(s, col, &len);
  jjx_show(m, name, len);
}

char *jjx_declaration(const char *label, const jj_schema *s, int max_columns,
                      char **pzErr) {
  size_t n = jj_schema_columns(s);
  sqlite3_str *m = NULL;
  char hidden[32] = "source", fname[32] = "filename";
  /* two more columns: the hidden source and filename */
  if (n + 2 > (size_t)max_columns) {
    *pzErr = sqlite3_mprintf(
        "%s: has %lld columns; a typed table can have at most %d (SQLite's "
        "SQLITE_LIMIT_COLUMN is %d and two columns are the hidden source "
        "and filename); the record form reads any number",
        label, (long long)n, max_columns - 2, max_columns);
    return NULL;
  }
  for (size_t i = 0; i < n && !m; i++) {
    size_t len;
    const char *name = jj_schema_name(s, i, &len);
    if (strlen(name) != len) {
      m = sqlite3_str_new(NULL);
      sqlite3_str_appendf(m, "%s: column %lld ", label, (long long)i + 1);
      show_name(m, s, i);
      sqlite3_str_appendall(m, ": a name with a NUL byte cannot be an SQL "
                               "column");
    }
    for (size_t j = 0; j < i && !m; j++) {
      if (sqlite3_stricmp(jj_schema_name(s, j, NULL), name) == 0) {
        m = sqlite3_str_new(NULL);
        sqlite3_str_appendf(m, "%s: columns %lld ", label, (long long)j + 1);
        show_name(m, s, j);
        sqlite3_str_appendf(m, " and %lld ", (long long)i + 1);
        show_name(m, s, i);
        sqlite3_str_appendall(m, " have the same name in SQL (names are "
                                 "compared ignoring ASCII case)");
      }
    }
  }
  if (m) {
    *pzErr = sqlite3_str_finish(m);
    return NULL;
  }
  sqlite3_str *sql = sqlite3_str_new(NULL);
  for (size_t i = 0; i < n; i++)
    sqlite3_str_appendf(sql, "%s\"%w\" %s", i ? ", " : "CREATE TABLE x(",
                        jj_schema_name(s, i, NULL),
                        jj_type_sql(jj_schema_type(s, i)));
  for (int k = 2; name_taken(s, hidden); k++)
    sqlite3_snprintf(sizeof hidden, hidden, "source_%d", k);
  for (int k = 2; name_taken(s, fname); k++)
    sqlite3_snprintf(sizeof fname, fname, "filename_%d", k);
  sqlite3_str_appendf(sql, "%s\"%w\" HIDDEN, \"%w\" HIDDEN)",
                      n ? ", " : "CREATE TABLE x(", hidden, fname);
  return sqlite3_str_finish(sql);
}

/* A nested schema for a message: its JSON (printable: names are valid
** UTF-8 and JSON escapes control characters), cut after 80 bytes at a
** character boundary. */
void jjx_show_schema(sqlite3_str *m, const jj_schema *s) {
  size_t len, cut;
  char *json = jj_schema_to_json(s, &len);
  if (!json) {
    sqlite3_str_appendall(m, "(out of memory)");
    return;
  }
  for (cut = len <= 80 ? len : 80;
       cut < len && ((unsigned char)json[cut] & 0xc0) == 0x80; cut--) {
  }
  sqlite3_str_append(m, json, (int)cut);
  if (cut < len) sqlite3_str_appendall(m, "...");
  jj_free(json);
}

char *jjx_shape_error(const char *label, const char *what,
                      const jj_schema *want, const jj_schema *got) {
  size_t col, nw = jj_schema_columns(want), ng = jj_schema_columns(got);
  sqlite3_str *m = sqlite3_str_new(NULL);
  sqlite3_str_appendf(m, "%s: %s", label, what);
  if (jj_schema_equal(want, got, &col) || col >= nw || col >= ng) {
    /* what names the other side when there is one ("not the columns of
    ** a.jj: "): then no table is speaking */
    sqlite3_str_appendf(m, what[0] ? "has %lld columns, not %lld"
                                   : "has %lld columns, the table declares "
                                     "%lld",
                        (long long)ng, (long long)nw);
    return sqlite3_str_finish(m);
  }
  const char *wn = jj_schema_name(want, col, NULL);
  const char *gn = jj_schema_name(got, col, NULL);
  jj_type wt = jj_schema_type(want, col), gt = jj_schema_type(got, col);
  if (strcmp(wn, gn) != 0) {
    sqlite3_str_appendf(m, "column %lld differs: declared ", (long long)col + 1);
    show_name(m, want, col);
    sqlite3_str_appendf(m, " %s, found ", jj_type_short(wt));
    show_name(m, got, col);
    sqlite3_str_appendf(m, " %s", jj_type_short(gt));
    return sqlite3_str_finish(m);
  }
  sqlite3_str_appendf(m, "column %lld ", (long long)col + 1);
  show_name(m, want, col);
  sqlite3_str_appendall(m, " differs: declared ");
  if (wt == JJ_TABLE && gt == JJ_TABLE) {
    jjx_show_schema(m, jj_schema_table(want, col));
    sqlite3_str_appendall(m, ", found ");
    jjx_show_schema(m, jj_schema_table(got, col));
  } else {
    sqlite3_str_appendf(m, "%s, found %s", jj_type_short(wt),
                        jj_type_short(gt));
  }
  return sqlite3_str_finish(m);
}
