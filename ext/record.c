/*
** record.c — the record form's fast path: `->`, `->>` and json_extract on
** jj_open(SOURCE)'s `record` column, overloaded through xFindFunction.
**
**   SELECT record->>'city', count(*) FROM jj_open('rows.jj') GROUP BY 1;
**   SELECT * FROM jj_open('rows.jj') WHERE record->>'price' > 100;
**
** SQLite still calls xColumn for `record` (its C API cannot tell a column
** read only by these functions from one used as text, so the text is
** always built: column.c builds it once per row, however many times the
** row asks).  What the overload saves is SQLite's JSON parse of that text:
**
**   1. The function receives the record's value.  column.c's
**      jjx_record_match answers the cursor whose current row's record text
**      is exactly those bytes (a memcmp), or NULL.  Equal bytes are the
**      whole argument for exactness: the text SQLite's function would parse
**      is the one the cursor's row renders, canonically (keys in schema
**      order, no whitespace, jj_cursor_object's rules).
**   2. The path must be one key: '$.name', '$."a.b"', and for -> and ->>
**      also 'name'; the key must need no JSON escape (so that SQLite's
**      comparison with the escaped label and ours with the column name
**      agree).  A missing key is SQL NULL, as SQLite answers.  What a path
**      means is kept with sqlite3_set_auxdata (path_info), so a constant
**      path is parsed and its key looked up once, not once per row.
**   3. The value is read with the typed reader and returned as SQLite's
**      function returns that JSON value: NULL / 'null', integers as
**      INTEGER (every int64 survives SQLite's digit loop), booleans as 1/0
**      / 'true', text, dates and timestamps that need no escape as they
**      are, floats as the double SQLite reads from the text jj_cursor_object
**      wrote (float_mode: this SQLite's strtod or its sqlite3AtoF), NaN and
**      the infinities as the strings the record holds.
**
** Everything else — another text, a nested path, an index, bytes, nested
** tables, a float SQLite would read with a sqlite3AtoF not reproduced here
** (an exponent form, SQLite 3.43 and later), several json_extract paths —
** is answered by SQLite's own function, run as a nested
** statement ("SELECT ?1 ->> ?2") on the same connection: the same result by
** construction, at the old speed.  tests/sql/test_record_paths.py compares all
** three functions with SQLite's on the same text over thousands of paths.
**
** Not overloaded: an aggregate's argument.  `sum(record->>'price')` gets
** SQLite's own ->>, because SQLite offers a function to xFindFunction only
** when its first argument is a column reference (TK_COLUMN in
** sqlite3VtabOverloadFunction, vtab.c), and an aggregate query has by then
** turned every column inside an aggregate's arguments into TK_AGG_COLUMN
** (analyzeAggregate, expr.c; 3.40 and today's SQLite alike).  README's
** record-form section gives the rewrite that keeps the fast path: the
** values in a subquery with LIMIT -1, which SQLite does not flatten into
** an aggregate query (select.c, flattening restriction 9).
*/
#include <float.h>
#include <math.h>
#include <string.h>

#include "ext.h"

enum { F_ARROW = 0, F_ARROW2 = 1, F_EXTRACT = 2 };

static const char *const fallback_sql[] = {
    "SELECT ?1 -> ?2",
    "SELECT ?1 ->> ?2",
    "SELECT json_extract(?1, ?2), json_type(?1, ?2) IN ('array', 'object')",
};

/* Answer with SQLite's own function: the statement in *slot (prepared on
** first use, kept by the cursor until it closes), or a statement of this
** call when there is no slot or there are more than two arguments. */
static void fallback(sqlite3_context *ctx, int f, int argc,
                     sqlite3_value **argv, sqlite3_stmt **slot) {
  sqlite3 *db = sqlite3_context_db_handle(ctx);
  sqlite3_stmt *own = NULL, *st;
  int rc;
  if (argc != 2) slot = NULL;
  if (slot && *slot) {
    st = *slot;
  } else {
    char *sql = NULL;
    if (argc == 2) {
      sql = sqlite3_mprintf("%s", fallback_sql[f]);
    } else {
      sqlite3_str *s = sqlite3_str_new(db);
      sqlite3_str_appendall(s, "SELECT json_extract(?1");
      for (int i = 2; i <= argc; i++) sqlite3_str_appendf(s, ", ?%d", i);
      sqlite3_str_appendall(s, ")");
      sql = sqlite3_str_finish(s);
    }
    if (!sql) {
      sqlite3_result_error_nomem(ctx);
      return;
    }
    rc = sqlite3_prepare_v2(db, sql, -1, &own, NULL);
    sqlite3_free(sql);
    if (rc != SQLITE_OK) {
      jjx_ctx_err(ctx, "%s", sqlite3_errmsg(db));
      sqlite3_finalize(own);
      return;
    }
    st = own;
    if (slot) {
      *slot = own;
      own = NULL;
    }
  }
  for (int i = 0; i < argc; i++) sqlite3_bind_value(st, i + 1, argv[i]);
  rc = sqlite3_step(st);
  if (rc == SQLITE_ROW) {
    sqlite3_value *v = sqlite3_column_value(st, 0);
    sqlite3_result_value(ctx, v);
    /* A column value does not carry the subtype: -> always answers JSON,
    ** json_extract for an array or object (the statement's second column)
    ** or several paths (an array of their values). */
    if (sqlite3_value_type(v) == SQLITE_TEXT &&
        (f == F_ARROW || argc > 2 ||
         (f == F_EXTRACT && sqlite3_column_int(st, 1))))
      sqlite3_result_subtype(ctx, JSON_SUBTYPE);
  } else if (rc == SQLITE_INTERRUPT) {
    sqlite3_result_error_code(ctx, SQLITE_INTERRUPT);
  } else if (rc != SQLITE_DONE) {
    jjx_ctx_err(ctx, "%s", sqlite3_errmsg(db));
  }
  sqlite3_reset(st);
  sqlite3_clear_bindings(st);
  sqlite3_finalize(own);
}

/* 1 when no byte of p[0..n) needs a JSON escape ('"', '\\', U+0000-1F). */
static int plain(const char *p, size_t n) {
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)p[i];
    if (c < 0x20 || c == '"' || c == '\\') return 0;
  }
  return 1;
}

/* The one key of a path the fast path answers, or 0.  For -> and ->> a
** text not starting with '$' means '$.' + text (SQLite >= 3.38), unless it
** starts with a digit or '['. */
static int simple_key(int f, sqlite3_value *path, const char **key,
                      size_t *nkey) {
  if (sqlite3_value_type(path) != SQLITE_TEXT) return 0;
  const char *z = (const char *)sqlite3_value_text(path);
  size_t n = (size_t)sqlite3_value_bytes(path);
  if (!z || n == 0 || memchr(z, 0, n)) return 0;
  if (z[0] == '$') {
    if (n < 2 || z[1] != '.') return 0;
    z += 2;
    n -= 2;
  } else if (f == F_EXTRACT || z[0] == '[' || (z[0] >= '0' && z[0] <= '9')) {
    return 0;
  }
  if (n && z[0] == '"') { /* ."key": to the next quote, which ends the path */
    const char *q = memchr(z + 1, '"', n - 1);
    if (!q || q != z + n - 1) return 0;
    *key = z + 1;
    *nkey = n - 2;
  } else {
    if (n == 0 || memchr(z, '.', n) || memchr(z, '[', n)) return 0;
    *key = z;
    *nkey = n;
  }
  return plain(*key, *nkey);
}

/* SQLite 3.38-3.42's sqlite3AtoF for a JSON number without an exponent
** (z[0..n): -?digits(.digits)?), with long double the x87 80-bit type, as
** Debian and every x86-64 build have it.  1 with *out set, 0 when the form
** is not that one. */
static int sqlite_atof(const char *z, size_t n, double *out) {
#if LDBL_MANT_DIG == 64
  const int64_t largest = INT64_MAX;
  size_t i = 0;
  int sign = 1, d = 0, nDigit = 0, e, esign;
  int64_t s = 0;
  if (i < n && z[i] == '-') {
    sign = -1;
    i++;
  }
  while (i < n && z[i] >= '0' && z[i] <= '9') {
    s = s * 10 + (z[i++] - '0');
    nDigit++;
    if (s >= (largest - 9) / 10)
      while (i < n && z[i] >= '0' && z[i] <= '9') i++, d++;
  }
  if (i < n && z[i] == '.') {
    i++;
    while (i < n && z[i] >= '0' && z[i] <= '9') {
      if (s < (largest - 9) / 10) {
        s = s * 10 + (z[i] - '0');
        d--;
        nDigit++;
      }
      i++;
    }
  }
  if (i != n || nDigit == 0) return 0;
  e = d;
  esign = e < 0 ? -1 : 1;
  if (e < 0) e = -e;
  if (!s) {
    *out = (sign < 0 && nDigit) ? -(double)0 : (double)0;
    return 1;
  }
  if (esign > 0) {
    while (s < largest / 10 && e > 0) e--, s *= 10;
  } else {
    while (!(s % 10) && e > 0) e--, s /= 10;
  }
  s = sign < 0 ? -s : s;
  if (e == 0) {
    *out = (double)s;
    return 1;
  }
  if (e > 307) return 0;
  long double scale = 1.0;
  while (e % 22) {
    scale *= 1.0e+1L;
    e -= 1;
  }
  while (e > 0) {
    scale *= 1.0e+22L;
    e -= 22;
  }
  *out = esign < 0 ? (double)((long double)s / scale)
                   : (double)((long double)s * scale);
  return 1;
#else
  (void)z;
  (void)n;
  (void)out;
  return 0;
#endif
}

/* How this SQLite's ->> and json_extract turn a JSON number into a double.
** In 3.38-3.42, json.c's jsonReturn (case JSON_REAL) calls sqlite3AtoF
** when SQLite is built as the amalgamation and the C library's strtod
** otherwise; Debian's libsqlite3 3.40.1 is the latter.  The two disagree
** on about one decimal in four thousand (65.23195796113: strtod gives the
** correctly rounded double, sqlite3AtoF the next one up).  SQLite's API
** does not say which one it runs, so the first float answer of a table
** asks: three such decimals through json_extract, compared bit for bit.
**   FLOAT_EXACT  SQLite answered the correctly rounded doubles (strtod):
**                the answer is the value read, which the record's text
**                (shortest round trip) reads back to exactly
**   FLOAT_ATOF   SQLite answered what sqlite_atof computes
**   FLOAT_ASK    anything else (3.43's new sqlite3AtoF, a locale whose
**                decimal point is not '.', an error): SQLite's function
**                answers every float */
enum { FLOAT_UNKNOWN = 0, FLOAT_EXACT, FLOAT_ATOF, FLOAT_ASK };

static int float_mode(sqlite3_context *ctx, void *table) {
  static const char *const probe[3] = {"65.23195796113", "3.29043991911",
                                       "416.92448050502"};
  static const double exact[3] = {65.23195796113, 3.29043991911,
                                  416.92448050502};
  int *mode = jjx_record_float_mode(table);
  if (*mode != FLOAT_UNKNOWN) return *mode;
  *mode = FLOAT_ASK;
  if (sqlite3_libversion_number() >= 3043000) return *mode;
  sqlite3_stmt *st = NULL;
  int exact_all = 1, atof_all = 1;
  if (sqlite3_prepare_v2(sqlite3_context_db_handle(ctx),
                         "SELECT json_extract(?1, '$[0]'), "
                         "json_extract(?1, '$[1]'), json_extract(?1, '$[2]')",
                         -1, &st, NULL) != SQLITE_OK)
    return *mode; /* asked again by nobody: every float falls back */
  sqlite3_bind_text(st, 1, "[65.23195796113,3.29043991911,416.92448050502]",
                    -1, SQLITE_STATIC);
  if (sqlite3_step(st) == SQLITE_ROW) {
    for (int i = 0; i < 3; i++) {
      double got = sqlite3_column_double(st, i), emulated;
      if (sqlite3_column_type(st, i) != SQLITE_FLOAT ||
          memcmp(&got, &exact[i], sizeof got) != 0)
        exact_all = 0;
      if (sqlite3_column_type(st, i) != SQLITE_FLOAT ||
          !sqlite_atof(probe[i], strlen(probe[i]), &emulated) ||
          memcmp(&got, &emulated, sizeof got) != 0)
        atof_all = 0;
    }
    if (exact_all) *mode = FLOAT_EXACT;
    else if (atof_all) *mode = FLOAT_ATOF;
  }
  sqlite3_finalize(st);
  return *mode;
}

/* A JSON token as the function's answer: -> gives it as JSON text. */
static void json_text(sqlite3_context *ctx, const char *p, size_t n) {
  sqlite3_result_text64(ctx, p, n, SQLITE_TRANSIENT, SQLITE_UTF8);
  sqlite3_result_subtype(ctx, JSON_SUBTYPE);
}

/* A JSON string's answer: ->> and json_extract its text, -> the string. */
static void string_value(sqlite3_context *ctx, int f, const char *p,
                         size_t n) {
  if (f != F_ARROW) {
    sqlite3_result_text64(ctx, n ? p : "", n, SQLITE_TRANSIENT, SQLITE_UTF8);
    return;
  }
  char *q = sqlite3_malloc64(n + 2);
  if (!q) {
    sqlite3_result_error_nomem(ctx);
    return;
  }
  q[0] = '"';
  if (n) memcpy(q + 1, p, n);
  q[n + 1] = '"';
  sqlite3_result_text64(ctx, q, n + 2, sqlite3_free, SQLITE_UTF8);
  sqlite3_result_subtype(ctx, JSON_SUBTYPE);
}

/* Answer column `col` of the cursor's row; 0 when the fast path does not
** cover its type or value (the caller then asks SQLite). */
static int answer(sqlite3_context *ctx, int f, jj_cursor *c, size_t col,
                  void *table) {
  jj_value v;
  char num[32];
  if (jj_cursor_value(c, col, &v, NULL) < 0) return 0;
  if (v.is_null) {
    if (f == F_ARROW) json_text(ctx, "null", 4);
    return 1; /* SQL NULL: the context's default */
  }
  switch (v.type) {
    case JJ_INT:
      if (f == F_ARROW)
        json_text(ctx, num, jj_int_format(v.u.i, num));
      else
        sqlite3_result_int64(ctx, v.u.i);
      return 1;
    case JJ_FLOAT: {
      double d = v.u.f;
      if (isnan(d)) return string_value(ctx, f, "NaN", 3), 1;
      if (isinf(d))
        return string_value(ctx, f, d > 0 ? "Infinity" : "-Infinity",
                            d > 0 ? 8 : 9),
               1;
      if (f == F_ARROW) return json_text(ctx, num, jj_double_format(d, num)), 1;
      switch (float_mode(ctx, table)) {
        case FLOAT_EXACT: break;
        case FLOAT_ATOF:
          if (!sqlite_atof(num, jj_double_format(d, num), &d)) return 0;
          break;
        default: return 0;
      }
      sqlite3_result_double(ctx, d);
      return 1;
    }
    case JJ_TEXT:
    case JJ_DATE:
    case JJ_TIMESTAMP: /* the record holds them as written */
    case JJ_LOCAL_TIMESTAMP:
      if (!plain(v.u.text.p, v.u.text.len)) return 0;
      string_value(ctx, f, v.u.text.p, v.u.text.len);
      return 1;
    case JJ_BOOL:
      if (f == F_ARROW)
        json_text(ctx, v.u.b ? "true" : "false", v.u.b ? 4 : 5);
      else
        sqlite3_result_int(ctx, v.u.b != 0);
      return 1;
    case JJ_BYTES:
    case JJ_JSON:
      return 0;
    case JJ_TABLE: /* the caller does not ask for these */
      jj_doc_free(v.u.table);
      return 0;
  }
  return 0;
}

/* What a path argument of one call site means, kept with
** sqlite3_set_auxdata while the argument stays the same (a literal or a
** bound parameter: SQLite keeps it across the rows of a statement), so
** that a row costs a compare instead of parsing the path and hashing the
** key: the key (simple_key's answer, 0 bytes when the path is not one
** key) and the column it was last found at.  The column is a hint, checked
** against the name at that column of the row's schema (names are unique),
** because one call site can read documents of different schemas. */
typedef struct path_info {
  int simple;   /* 1: the path is the one key text[0..nkey) */
  int col;      /* where the key was found last, -1: not yet or missing */
  size_t npath; /* the path's bytes, compared before use */
  size_t nkey;
  char text[];  /* the path (npath bytes), then the key (nkey bytes) */
} path_info;

/* The path's info: from the auxdata when it is there, else built into
** *own (the caller hands it to SQLite, or frees it).  NULL for a path
** that is not text, or out of memory. */
static path_info *path_of(sqlite3_context *ctx, int f, sqlite3_value *path,
                          path_info **own) {
  *own = NULL;
  if (sqlite3_value_type(path) != SQLITE_TEXT) return NULL;
  const char *z = (const char *)sqlite3_value_text(path);
  size_t n = (size_t)sqlite3_value_bytes(path);
  path_info *pi = sqlite3_get_auxdata(ctx, 1);
  if (pi && pi->npath == n && z && memcmp(pi->text, z, n) == 0) return pi;
  const char *key = NULL;
  size_t nkey = 0;
  int simple = simple_key(f, path, &key, &nkey);
  if (!simple) nkey = 0;
  pi = sqlite3_malloc64(sizeof *pi + n + nkey + 1);
  if (!pi) return NULL;
  pi->simple = simple;
  pi->col = -1;
  pi->npath = n;
  pi->nkey = nkey;
  if (n) memcpy(pi->text, z, n);
  if (nkey) memcpy(pi->text + n, key, nkey);
  *own = pi;
  return pi;
}

/* The column of the one key `pi` names in the cursor's schema, or -1. */
static int key_column(const jj_schema *s, path_info *pi) {
  const char *key = pi->text + pi->npath;
  size_t len;
  if (pi->col >= 0 && (size_t)pi->col < jj_schema_columns(s)) {
    const char *name = jj_schema_name(s, (size_t)pi->col, &len);
    if (len == pi->nkey && memcmp(name, key, len) == 0) return pi->col;
  }
  return pi->col = jj_schema_find(s, key, pi->nkey);
}

/* The fast path's answer; 0 when SQLite's function must answer. */
static int fast(sqlite3_context *ctx, int f, jj_cursor *c, path_info *pi,
                void *table) {
  if (!pi || !pi->simple) return 0;
  const jj_schema *s = jj_doc_schema(jj_cursor_doc(c));
  int col = key_column(s, pi);
  if (col < 0) return 1; /* no such key: NULL, the context's default */
  jj_type t = jj_schema_type(s, (size_t)col);
  return t != JJ_BYTES && t != JJ_TABLE && t != JJ_JSON && answer(ctx, f, c, (size_t)col, table);
}

static void record_func(sqlite3_context *ctx, int f, int argc,
                        sqlite3_value **argv) {
  void *table = sqlite3_user_data(ctx);
  sqlite3_stmt **slots = NULL;
  jj_cursor *c = NULL;
  if (argc == 2 && sqlite3_value_type(argv[0]) == SQLITE_TEXT) {
    const char *text = (const char *)sqlite3_value_text(argv[0]);
    size_t len = (size_t)sqlite3_value_bytes(argv[0]);
    c = text ? jjx_record_match(table, text, len, &slots) : NULL;
  } else {
    jjx_record_match(table, NULL, 0, &slots);
  }
  int done = 0;
  if (c) {
    path_info *own, *pi = path_of(ctx, f, argv[1], &own);
    done = fast(ctx, f, c, pi, table);
    /* Last: SQLite may free it at once when the path is not constant. */
    if (own) sqlite3_set_auxdata(ctx, 1, own, sqlite3_free);
  }
  if (!done) fallback(ctx, f, argc, argv, slots ? &slots[f] : NULL);
}

static void arrow_func(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  record_func(ctx, F_ARROW, argc, argv);
}
static void arrow2_func(sqlite3_context *ctx, int argc,
                        sqlite3_value **argv) {
  record_func(ctx, F_ARROW2, argc, argv);
}
static void extract_func(sqlite3_context *ctx, int argc,
                         sqlite3_value **argv) {
  record_func(ctx, F_EXTRACT, argc, argv);
}

int jjx_record_find(int nArg, const char *zName,
                    void (**pxFunc)(sqlite3_context *, int, sqlite3_value **)) {
  if (nArg == 2 && strcmp(zName, "->") == 0) {
    *pxFunc = arrow_func;
  } else if (nArg == 2 && strcmp(zName, "->>") == 0) {
    *pxFunc = arrow2_func;
  } else if (nArg >= 2 && sqlite3_stricmp(zName, "json_extract") == 0) {
    *pxFunc = extract_func;
  } else {
    return 0;
  }
  return 1;
}
