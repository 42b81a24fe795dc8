/*
** group.c — jj_group(name1, value1, name2, value2, ...): an aggregate that
** returns the rows it saw as one canonical jalapenojson document (TEXT).
**
**   SELECT jj_group('id', id, 'user', user, 'joined:d', joined) FROM rows;
**
** A name may carry its type after its last colon: i f s d t b x, or jj for
** a nested table whose values are jalapenojson documents (a nested
** jj_group, say).  Without one the type follows the values' storage
** classes: all INTEGER -> i, INTEGER and REAL -> f, TEXT -> s, BLOB -> x,
** all NULL -> s.  Since that needs every value, xStep buffers the values
** compactly in one growable buffer in the aggregate context (no allocation
** per row), and xFinal chooses the types, writes the document with the
** core's writer and hands its buffer to SQLite without a copy.
**
** What can be checked when a value arrives is checked in xStep, so a bad
** value stops the query at its row: names, explicit types (dates and
** timestamps with the core's calendar), storage classes that do not mix.
** Rows are counted from 1 in the order xStep sees them.
**
** The document must fit SQLite's length limit (SQLITE_LIMIT_LENGTH): xStep
** keeps a lower bound of its size and stops as soon as that is over the
** limit, and xFinal stops writing at the limit, so an oversized result
** fails early and says so instead of building gigabytes first.  SQLite
** allows a function at most 127 arguments (SQLITE_MAX_FUNCTION_ARG), so
** jj_group takes at most 63 columns.
*/
#include <string.h>

#include "ext.h"

/* Storage classes seen in a column, as bits. */
#define K_INT 1u
#define K_REAL 2u
#define K_TEXT 4u
#define K_BLOB 8u

/* Tags of the buffered values: a byte, then 8 bytes for INTEGER and REAL
** or a 4-byte length and the bytes for TEXT and BLOB. */
enum { TAG_NULL, TAG_INT, TAG_REAL, TAG_TEXT, TAG_BLOB };

typedef struct group_col {
  char *arg;           /* the name argument as given; sqlite3_free */
  size_t arg_len;
  size_t name_len;     /* the name is arg[0..name_len) (before ":T") */
  int type;            /* the explicit jj_type, or 0 to infer */
  unsigned kinds;      /* K_* seen */
  jj_schema *nested;   /* jj: the first document's schema; jj_schema_free */
  int64_t nested_row;  /* the row that document came from */
  jj_type written;     /* xFinal: the column's type in the document */
} group_col;

typedef struct group_ctx {
  int ncol;            /* 0 until the first row */
  int failed;          /* an error was reported: ignore later rows */
  int64_t rows;        /* rows seen */
  group_col *cols;     /* ncol entries; sqlite3_free */
  jjx_buf values;      /* the buffered values, row by row */
  size_t limit;        /* SQLITE_LIMIT_LENGTH, read at the first row */
  uint64_t min_len;    /* the document is at least this long */
} group_ctx;

/* ---------------------------------------------------------------------- */
/* Messages                                                                */
/* ---------------------------------------------------------------------- */

static const char *class_name(int t) {
  switch (t) {
    case SQLITE_INTEGER: return "INTEGER";
    case SQLITE_FLOAT: return "REAL";
    case SQLITE_TEXT: return "TEXT";
    case SQLITE_BLOB: return "BLOB";
  }
  return "NULL";
}

/* A value as a message shows it: numbers as SQL writes them, text as
** jjx_show quotes it (escaped, cut after 40 bytes), a blob as x'hex' (cut
** after 16 bytes).  sqlite3_free; NULL when out of memory. */
static char *show_value(sqlite3_value *v) {
  sqlite3_str *s = sqlite3_str_new(NULL);
  switch (sqlite3_value_type(v)) {
    case SQLITE_INTEGER:
      sqlite3_str_appendf(s, "%lld", sqlite3_value_int64(v));
      break;
    case SQLITE_FLOAT:
      sqlite3_str_appendf(s, "%!.15g", sqlite3_value_double(v));
      break;
    case SQLITE_TEXT: {
      const char *p = (const char *)sqlite3_value_text(v);
      jjx_show(s, p ? p : "", p ? (size_t)sqlite3_value_bytes(v) : 0);
      break;
    }
    case SQLITE_BLOB: {
      const unsigned char *p = sqlite3_value_blob(v);
      int n = sqlite3_value_bytes(v);
      sqlite3_str_appendall(s, "x'");
      for (int i = 0; p && i < n && i < 16; i++)
        sqlite3_str_appendf(s, "%02x", p[i]);
      sqlite3_str_appendall(s, n > 16 ? "'..." : "'");
      break;
    }
    default:
      sqlite3_str_appendall(s, "NULL");
  }
  return sqlite3_str_finish(s);
}

/* Fail the aggregate: the document would not fit in an SQLite value. */
static void fail_length(sqlite3_context *ctx, group_ctx *g) {
  jjx_ctx_err(ctx, "jj_group: the document would be more than %lld bytes, "
                   "SQLite's length limit (SQLITE_LIMIT_LENGTH)",
              (long long)g->limit);
  g->failed = 1;
}

/* The fewest bytes a value of storage class st (n bytes of TEXT or BLOB)
** takes in the document, with its separator: a lower bound whatever the
** column's type turns out to be (a nested table's rows may be shorter than
** its document). */
static uint64_t min_written(const group_col *c, int st, size_t n) {
  switch (st) {
    case SQLITE_INTEGER: return 2;                  /* 1, */
    case SQLITE_FLOAT: return 4;                    /* 1.0, */
    case SQLITE_TEXT:
      return c->type == JJ_TABLE ? 3 : (uint64_t)n + 3; /* "text", */
    case SQLITE_BLOB:
      return c->type == JJ_TABLE ? 3 : ((uint64_t)n + 2) / 3 * 4 + 3;
    default: return 5;                              /* null, */
  }
}

/* Fail the aggregate: `row R, column "C": V is K, expected W`. */
static void fail_value(sqlite3_context *ctx, group_ctx *g, group_col *c,
                       sqlite3_value *v, const char *want) {
  char *shown = show_value(v);
  if (!shown) {
    sqlite3_result_error_nomem(ctx);
  } else {
    jjx_ctx_err(ctx, "jj_group: row %lld, column \"%.*s\": %s is %s, "
                     "expected %s",
                (long long)g->rows, (int)c->name_len, c->arg, shown,
                class_name(sqlite3_value_type(v)), want);
  }
  sqlite3_free(shown);
  g->failed = 1;
}

/* ---------------------------------------------------------------------- */
/* The first row: names and explicit types                                 */
/* ---------------------------------------------------------------------- */

/* Split "name:T" at its last colon when T is a type; an unknown T is an
** error (so a name with a colon is written with its type: 'a:b:s'). */
static int parse_name(sqlite3_context *ctx, group_col *c) {
  static const struct {
    const char *suffix;
    int type;
  } types[] = {{"i", JJ_INT},       {"f", JJ_FLOAT}, {"s", JJ_TEXT},
               {"d", JJ_DATE},      {"t", JJ_TIMESTAMP},
               {"b", JJ_BOOL},      {"x", JJ_BYTES}, {"jj", JJ_TABLE}};
  const char *colon = NULL;
  for (size_t i = 0; i < c->arg_len; i++)
    if (c->arg[i] == ':') colon = c->arg + i;
  c->name_len = c->arg_len;
  if (!colon) return 0;
  const char *t = colon + 1;
  size_t tlen = c->arg_len - (size_t)(t - c->arg);
  for (size_t k = 0; k < sizeof types / sizeof types[0]; k++) {
    if (strlen(types[k].suffix) == tlen && memcmp(types[k].suffix, t, tlen) == 0) {
      c->type = types[k].type;
      c->name_len = (size_t)(colon - c->arg);
      return 0;
    }
  }
  jjx_ctx_err(ctx, "jj_group: unknown type \"%.*s\" in \"%s\" (use i, f, s, "
                   "d, t, b, x or jj)",
              (int)tlen, t, c->arg);
  return -1;
}

/* Take the names from the first row: TEXT, non-empty, distinct. */
static int first_row(sqlite3_context *ctx, group_ctx *g, int argc,
                     sqlite3_value **argv) {
  int n = argc / 2;
  g->cols = sqlite3_malloc64((sqlite3_uint64)n * sizeof *g->cols);
  if (!g->cols) {
    sqlite3_result_error_nomem(ctx);
    return -1;
  }
  memset(g->cols, 0, (size_t)n * sizeof *g->cols);
  g->ncol = n;
  for (int i = 0; i < n; i++) {
    group_col *c = &g->cols[i];
    sqlite3_value *name = argv[2 * i];
    if (sqlite3_value_type(name) != SQLITE_TEXT) {
      jjx_ctx_err(ctx, "jj_group: the name of column %d must be TEXT, not %s",
                  i + 1, class_name(sqlite3_value_type(name)));
      return -1;
    }
    const char *p = (const char *)sqlite3_value_text(name);
    c->arg_len = (size_t)sqlite3_value_bytes(name);
    c->arg = sqlite3_malloc64(c->arg_len + 1);
    if (!p || !c->arg) {
      sqlite3_result_error_nomem(ctx);
      return -1;
    }
    memcpy(c->arg, p, c->arg_len + 1);
    if (parse_name(ctx, c)) return -1;
    if (c->name_len == 0) {
      jjx_ctx_err(ctx, "jj_group: column %d has an empty name", i + 1);
      return -1;
    }
    for (int j = 0; j < i; j++) {
      if (g->cols[j].name_len == c->name_len &&
          memcmp(g->cols[j].arg, c->arg, c->name_len) == 0) {
        jjx_ctx_err(ctx, "jj_group: columns %d and %d are both named \"%.*s\"",
                    j + 1, i + 1, (int)c->name_len, c->arg);
        return -1;
      }
    }
  }
  return 0;
}

/* ---------------------------------------------------------------------- */
/* xStep                                                                   */
/* ---------------------------------------------------------------------- */

/* Check a value against its column's explicit type.  0, or -1 with the
** error reported.  st is the value's storage class. */
static int check_explicit(sqlite3_context *ctx, group_ctx *g, group_col *c,
                          sqlite3_value *v, int st) {
  jj_error err;
  switch (c->type) {
    case JJ_INT:
      if (st != SQLITE_INTEGER) return fail_value(ctx, g, c, v, "INTEGER"), -1;
      return 0;
    case JJ_FLOAT:
      if (st != SQLITE_INTEGER && st != SQLITE_FLOAT)
        return fail_value(ctx, g, c, v, "INTEGER or REAL"), -1;
      return 0;
    case JJ_TEXT:
      if (st != SQLITE_TEXT) return fail_value(ctx, g, c, v, "TEXT"), -1;
      return 0;
    case JJ_DATE:
    case JJ_TIMESTAMP: {
      if (st != SQLITE_TEXT)
        return fail_value(ctx, g, c, v,
                          c->type == JJ_DATE ? "a date (TEXT)"
                                             : "a timestamp (TEXT)"),
               -1;
      const char *p = (const char *)sqlite3_value_text(v);
      size_t len = (size_t)sqlite3_value_bytes(v);
      jj_code code = c->type == JJ_DATE ? jj_date_parse(p, len, NULL, &err)
                                        : jj_timestamp_parse(p, len, NULL, &err);
      if (code != JJ_OK) {
        jjx_ctx_err(ctx, "jj_group: row %lld, column \"%.*s\": %s",
                    (long long)g->rows, (int)c->name_len, c->arg, err.message);
        g->failed = 1;
        return -1;
      }
      return 0;
    }
    case JJ_BOOL:
      if (st != SQLITE_INTEGER || (sqlite3_value_int64(v) != 0 &&
                                   sqlite3_value_int64(v) != 1))
        return fail_value(ctx, g, c, v, "a boolean (0 or 1)"), -1;
      return 0;
    case JJ_BYTES:
      if (st != SQLITE_BLOB) return fail_value(ctx, g, c, v, "BLOB"), -1;
      return 0;
    case JJ_TABLE: {
      if (st != SQLITE_TEXT && st != SQLITE_BLOB)
        return fail_value(ctx, g, c, v, "a jalapenojson document"), -1;
      /* The whole document is checked now, so that xFinal only copies. */
      const char *p = st == SQLITE_TEXT ? (const char *)sqlite3_value_text(v)
                                        : sqlite3_value_blob(v);
      size_t len = (size_t)sqlite3_value_bytes(v);
      jj_doc *doc = jj_parse_opts(p ? p : "", len, JJ_PARSE_VALIDATE, 0, &err);
      if (!doc) {
        if (err.code == JJ_ERR_NOMEM) {
          sqlite3_result_error_nomem(ctx);
        } else {
          jjx_ctx_err(ctx, "jj_group: row %lld, column \"%.*s\": not a "
                           "jalapenojson document: %s",
                      (long long)g->rows, (int)c->name_len, c->arg,
                      err.message);
        }
        g->failed = 1;
        return -1;
      }
      size_t col;
      int rc = 0;
      if (!c->nested) {
        c->nested = jj_schema_copy(jj_doc_schema(doc));
        c->nested_row = g->rows;
        if (!c->nested) {
          sqlite3_result_error_nomem(ctx);
          rc = -1;
        }
      } else if (!jj_schema_equal(c->nested, jj_doc_schema(doc), &col)) {
        jjx_ctx_err(ctx, "jj_group: row %lld, column \"%.*s\": the nested "
                         "table's columns differ from row %lld's (column "
                         "%lld)",
                    (long long)g->rows, (int)c->name_len, c->arg,
                    (long long)c->nested_row, (long long)col + 1);
        rc = -1;
      }
      jj_doc_free(doc);
      if (rc) g->failed = 1;
      return rc;
    }
  }
  return 0;
}

/* The class of a storage class for mixing: numbers, TEXT or BLOB. */
static unsigned class_of(unsigned k) {
  return k & (K_INT | K_REAL) ? (K_INT | K_REAL) : k;
}

/* An inferred column: the value's class must be the column's so far. */
static int check_inferred(sqlite3_context *ctx, group_ctx *g, group_col *c,
                          unsigned k, int st) {
  if (c->kinds && class_of(c->kinds) != class_of(k)) {
    unsigned both = class_of(c->kinds) | class_of(k);
    const char *a = both & K_BLOB ? "BLOB" : "TEXT";
    const char *b = both & K_INT ? "numbers" : "TEXT";
    jjx_ctx_err(ctx, "jj_group: column \"%.*s\" mixes %s and %s (row %lld is "
                     "%s)",
                (int)c->name_len, c->arg, a, b, (long long)g->rows,
                class_name(st));
    g->failed = 1;
    return -1;
  }
  return 0;
}

/* memcpy(d, p, n) without a library call for the short values that are
** the common case: overlapping word copies (reads stay inside p[0..n)). */
static inline void copy_bytes(unsigned char *d, const void *src, size_t n) {
  const unsigned char *p = src;
  if (n > 16) {
    memcpy(d, p, n);
  } else if (n >= 8) {
    uint64_t a, b;
    memcpy(&a, p, 8);
    memcpy(&b, p + n - 8, 8);
    memcpy(d, &a, 8);
    memcpy(d + n - 8, &b, 8);
  } else if (n >= 4) {
    uint32_t a, b;
    memcpy(&a, p, 4);
    memcpy(&b, p + n - 4, 4);
    memcpy(d, &a, 4);
    memcpy(d + n - 4, &b, 4);
  } else {
    for (size_t i = 0; i < n; i++) d[i] = p[i];
  }
}

/* Append a TEXT or BLOB value p[0..n) with its tag and 4-byte length.  0,
** or -1 when out of memory. */
static inline int buffer_bytes(jjx_buf *b, unsigned char tag, const void *p,
                               size_t n) {
  uint32_t n32 = (uint32_t)n; /* n is below SQLite's length limit */
  if (jjx_buf_reserve(b, 5 + n)) return -1;
  unsigned char *d = (unsigned char *)b->p + b->len;
  d[0] = tag;
  memcpy(d + 1, &n32, 4);
  copy_bytes(d + 5, p, n);
  b->len += 5 + n;
  return 0;
}

/* Append one value of storage class st to the buffer: its tag, then 8
** bytes for INTEGER and REAL or a 4-byte length and the bytes for TEXT and
** BLOB.  One room check and direct stores, no call per field.  0, or -1
** when out of memory. */
static inline int buffer_value(jjx_buf *b, sqlite3_value *v, int st) {
  unsigned char *d;
  switch (st) {
    case SQLITE_INTEGER:
    case SQLITE_FLOAT: {
      if (jjx_buf_reserve(b, 9)) return -1;
      d = (unsigned char *)b->p + b->len;
      if (st == SQLITE_INTEGER) {
        sqlite3_int64 i = sqlite3_value_int64(v);
        d[0] = TAG_INT;
        memcpy(d + 1, &i, 8);
      } else {
        double x = sqlite3_value_double(v);
        d[0] = TAG_REAL;
        memcpy(d + 1, &x, 8);
      }
      b->len += 9;
      return 0;
    }
    case SQLITE_TEXT:
    case SQLITE_BLOB: {
      const void *p = st == SQLITE_TEXT ? (const void *)sqlite3_value_text(v)
                                        : sqlite3_value_blob(v);
      size_t n = (size_t)sqlite3_value_bytes(v);
      if (st == SQLITE_TEXT && !p) return -1;
      return buffer_bytes(b, st == SQLITE_TEXT ? TAG_TEXT : TAG_BLOB, p, n);
    }
    default:
      if (jjx_buf_reserve(b, 1)) return -1;
      b->p[b->len++] = TAG_NULL;
      return 0;
  }
}

/* 1 when a[0..n) and b[0..n) are the same bytes: words compared as
** wholes (overlapping at the end), since names are short and this runs for
** every name of every row. */
static inline int same_bytes(const char *a, const char *b, size_t n) {
  if (n >= 8) {
    uint64_t x, y, diff = 0;
    for (size_t i = 0; i + 8 < n; i += 8) {
      memcpy(&x, a + i, 8);
      memcpy(&y, b + i, 8);
      diff |= x ^ y;
    }
    memcpy(&x, a + n - 8, 8);
    memcpy(&y, b + n - 8, 8);
    return (diff | (x ^ y)) == 0;
  }
  if (n >= 4) {
    uint32_t x0, y0, x1, y1;
    memcpy(&x0, a, 4);
    memcpy(&y0, b, 4);
    memcpy(&x1, a + n - 4, 4);
    memcpy(&y1, b + n - 4, 4);
    return ((x0 ^ y0) | (x1 ^ y1)) == 0;
  }
  unsigned diff = 0;
  for (size_t i = 0; i < n; i++) diff |= (unsigned char)(a[i] ^ b[i]);
  return diff == 0;
}

/* 1 when the name argument of a later row is still c's name: TEXT with
** the same bytes (names are normally constants). */
static inline int same_name(sqlite3_value *name, const group_col *c) {
  if (sqlite3_value_type(name) != SQLITE_TEXT ||
      (size_t)sqlite3_value_bytes(name) != c->arg_len)
    return 0;
  const char *p = (const char *)sqlite3_value_text(name);
  return p && same_bytes(p, c->arg, c->arg_len);
}

void jjx_group_step(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  group_ctx *g = sqlite3_aggregate_context(ctx, sizeof *g);
  if (!g) {
    sqlite3_result_error_nomem(ctx);
    return;
  }
  if (g->failed) return;
  if (argc < 2 || argc % 2) {
    jjx_ctx_err(ctx, "jj_group: expected name, value pairs, got %d "
                     "argument%s",
                argc, argc == 1 ? "" : "s");
    g->failed = 1;
    return;
  }
  g->rows++;
  if (g->ncol == 0) {
    if (first_row(ctx, g, argc, argv)) {
      g->failed = 1;
      return;
    }
    g->limit = (size_t)sqlite3_limit(sqlite3_context_db_handle(ctx),
                                     SQLITE_LIMIT_LENGTH, -1);
  }
  /* Each value is checked, then buffered: a failed row leaves a partial
  ** row behind, which is never read (the aggregate has failed). */
  for (int i = 0; i < g->ncol; i++) {
    group_col *c = &g->cols[i];
    sqlite3_value *name = argv[2 * i], *v = argv[2 * i + 1];
    /* the names are normally constants; a name that changes is an error */
    if (g->rows > 1 && !same_name(name, c)) {
      jjx_ctx_err(ctx, "jj_group: row %lld: the name of column %d changed "
                       "from \"%s\"",
                  (long long)g->rows, i + 1, c->arg);
      g->failed = 1;
      return;
    }
    int st = sqlite3_value_type(v);
    if (c->type == JJ_DATE && st == SQLITE_TEXT) {
      /* the usual explicit column, dates: the text is read once and checked
      ** by the core's calendar; check_explicit words the error */
      const char *p = (const char *)sqlite3_value_text(v);
      size_t n = (size_t)sqlite3_value_bytes(v);
      if ((!p || jj_date_parse(p, n, NULL, NULL) != JJ_OK) &&
          check_explicit(ctx, g, c, v, st))
        return;
      c->kinds |= K_TEXT;
      g->min_len += (uint64_t)n + 3;
      if (!p || buffer_bytes(&g->values, TAG_TEXT, p, n)) {
        sqlite3_result_error_nomem(ctx);
        g->failed = 1;
        return;
      }
      continue;
    }
    if (st != SQLITE_NULL) {
      unsigned k = st == SQLITE_INTEGER ? K_INT
                   : st == SQLITE_FLOAT ? K_REAL
                   : st == SQLITE_TEXT  ? K_TEXT
                                        : K_BLOB;
      if (c->type ? check_explicit(ctx, g, c, v, st)
                  : check_inferred(ctx, g, c, k, st))
        return;
      c->kinds |= k;
    }
    g->min_len += min_written(c, st, st == SQLITE_TEXT || st == SQLITE_BLOB
                                         ? (size_t)sqlite3_value_bytes(v)
                                         : 0);
    if (buffer_value(&g->values, v, st)) {
      sqlite3_result_error_nomem(ctx);
      g->failed = 1;
      return;
    }
  }
  /* a row is at least "[" and "\n" around its values: stop at SQLite's
  ** limit now rather than after buffering everything */
  g->min_len += 2;
  if (g->min_len > g->limit) fail_length(ctx, g);
}

/* ---------------------------------------------------------------------- */
/* xFinal                                                                  */
/* ---------------------------------------------------------------------- */

/* The type of a column: explicit, or from the classes seen. */
static jj_type column_type(const group_col *c) {
  if (c->type) return (jj_type)c->type;
  if (c->kinds & K_REAL) return JJ_FLOAT;
  if (c->kinds & K_INT) return JJ_INT;
  if (c->kinds & K_BLOB) return JJ_BYTES;
  return JJ_TEXT;
}

/* Copy a nested document's rows into the writer as one nested value.  The
** document was validated in xStep, so only memory can fail here. */
static jj_code write_nested(jj_writer *w, const char *p, size_t len,
                            jj_error *err) {
  jj_doc *doc = jj_parse(p, len, err);
  jj_cursor *cur = NULL;
  jj_code code = JJ_ERR_NOMEM;
  if (!doc) return err->code;
  cur = jj_cursor_new(doc, err);
  if (!cur) goto done;
  if ((code = jj_writer_begin_table(w)) != JJ_OK) goto done;
  if ((code = jj_writer_copy_rows(w, cur)) != JJ_OK) goto done;
  code = jj_writer_end_table(w);
done:
  jj_cursor_free(cur);
  jj_doc_free(doc);
  return code;
}

/* Write one buffered value; *pp advances past it.  row is for messages. */
static inline jj_code write_value(sqlite3_context *ctx, jj_writer *w,
                           const group_col *c, jj_type type,
                           const unsigned char **pp, int64_t row) {
  const unsigned char *p = *pp;
  unsigned char tag = *p++;
  sqlite3_int64 i;
  double d;
  uint32_t n;
  jj_error err;
  jj_code code;
  switch (tag) {
    case TAG_INT:
      memcpy(&i, p, 8);
      *pp = p + 8;
      if (type == JJ_INT) return jj_writer_int(w, i);
      if (type == JJ_BOOL) return jj_writer_bool(w, i != 0);
      /* an INTEGER in a float column, written only if exact */
      d = (double)i;
      if (!(d >= -9223372036854775808.0 && d < 9223372036854775808.0 &&
            (sqlite3_int64)d == i)) {
        jjx_ctx_err(ctx, "jj_group: row %lld, column \"%.*s\": %lld cannot be "
                         "written as a float exactly (the column is f)",
                    (long long)row, (int)c->name_len, c->arg, i);
        return JJ_ERR_RANGE;
      }
      return jj_writer_double(w, d);
    case TAG_REAL:
      memcpy(&d, p, 8);
      *pp = p + 8;
      return jj_writer_double(w, d);
    case TAG_TEXT:
    case TAG_BLOB:
      memcpy(&n, p, 4);
      p += 4;
      *pp = p + n;
      switch (type) {
        case JJ_DATE: return jj_writer_date(w, (const char *)p, n);
        case JJ_TIMESTAMP: return jj_writer_timestamp(w, (const char *)p, n);
        case JJ_BYTES: return jj_writer_bytes(w, p, n);
        case JJ_TABLE:
          code = write_nested(w, (const char *)p, n, &err);
          if (code != JJ_OK && code != JJ_ERR_NOMEM &&
              jj_writer_error(w)->code == JJ_OK)
            jjx_ctx_err(ctx, "jj_group: row %lld, column \"%.*s\": %s",
                        (long long)row, (int)c->name_len, c->arg, err.message);
          return code;
        default: return jj_writer_text(w, (const char *)p, n);
      }
    default:
      *pp = p;
      return jj_writer_null(w);
  }
}

/* Release the context's memory (xFinal runs once, also after an error). */
static void group_free(group_ctx *g) {
  for (int i = 0; i < g->ncol; i++) {
    sqlite3_free(g->cols[i].arg);
    jj_schema_free(g->cols[i].nested);
  }
  sqlite3_free(g->cols);
  jjx_buf_free(&g->values);
  g->ncol = 0;
  g->cols = NULL;
}

/* The large document's sink: a buffer that stops at the length limit. */
typedef struct out_buf {
  jjx_buf b;    /* the document; handed to SQLite */
  size_t limit; /* SQLITE_LIMIT_LENGTH */
  int over;     /* the document would be longer than limit */
} out_buf;

static int out_sink(void *ctx, const char *data, size_t len) {
  out_buf *o = ctx;
  if (len > o->limit - o->b.len) {
    o->over = 1;
    return 1;
  }
  return jjx_buf_append(&o->b, data, len);
}

/* Build the schema, write every buffered row, hand the document over. */
static void finish(sqlite3_context *ctx, group_ctx *g) {
  jj_error err;
  out_buf ob = {{NULL, 0, 0, 0}, g->limit, 0};
  jjx_buf *out = &ob.b;
  jj_writer *w = NULL;
  jj_code code = JJ_OK;
  jj_schema *s = jj_schema_new();
  if (!s) goto nomem;
  for (int i = 0; i < g->ncol; i++) {
    group_col *c = &g->cols[i];
    jj_type t = column_type(c);
    jj_schema *nested = NULL;
    c->written = t;
    if (t == JJ_TABLE) {
      if (!c->nested) {
        jjx_ctx_err(ctx, "jj_group: column \"%.*s\" is NULL in every row: a "
                         "nested table takes its columns from a document",
                    (int)c->name_len, c->arg);
        goto done;
      }
      nested = jj_schema_copy(c->nested);
      if (!nested) goto nomem;
    }
    code = jj_schema_add(s, c->arg, c->name_len, t, nested, &err);
    if (code != JJ_OK) {
      if (code == JJ_ERR_NOMEM) goto nomem;
      jjx_ctx_err(ctx, "jj_group: %s", err.message);
      goto done;
    }
  }
  /* A large document: the writer passes its output on in 64 KiB chunks to
  ** `out`, sized up front from the buffered values (each becomes about as
  ** many bytes of text, plus a separator and, for short values, a little
  ** more), so the document is usually built without growing (copying) it.
  ** A small one is built in the writer's own buffer, which starts small. */
  int to_out = g->values.len >= 65536;
  if (to_out) {
    uint64_t want = (uint64_t)g->values.len +
                    (uint64_t)g->rows * ((uint64_t)g->ncol * 4 + 4) + 4096;
    if (want > g->limit) want = g->limit; /* never more than can be kept */
    if (want < SIZE_MAX && jjx_buf_reserve(out, (size_t)want)) goto nomem;
  }
  w = jj_writer_new(s, to_out ? out_sink : NULL, to_out ? &ob : NULL, &err);
  if (!w) {
    if (err.code == JJ_ERR_NOMEM) goto nomem;
    jjx_ctx_err(ctx, "jj_group: %s", err.message);
    goto done;
  }
  const unsigned char *p = (const unsigned char *)g->values.p;
  for (int64_t row = 1; row <= g->rows && code == JJ_OK; row++) {
    for (int i = 0; i < g->ncol && code == JJ_OK; i++)
      code = write_value(ctx, w, &g->cols[i], g->cols[i].written, &p, row);
    if (code == JJ_OK) code = jj_writer_end_row(w);
  }
  if (code == JJ_OK) code = jj_writer_finish(w);
  if (code != JJ_OK) {
    const jj_error *we = jj_writer_error(w);
    if (ob.over) {
      fail_length(ctx, g);
      goto done;
    }
    if (code == JJ_ERR_NOMEM || we->code == JJ_ERR_NOMEM || out->oom)
      goto nomem; /* out->oom: the sink failed, the writer says JJ_ERR_IO */
    if (we->code != JJ_OK) jjx_ctx_err(ctx, "jj_group: %s", we->message);
    goto done; /* else write_value reported it */
  }
  /* no copy: SQLite takes the buffer and frees it with sqlite3_free (the
  ** writer's own buffer with jj_free) */
  if (to_out) {
    sqlite3_result_text64(ctx, out->p, out->len, sqlite3_free, SQLITE_UTF8);
    memset(out, 0, sizeof *out);
  } else {
    size_t len;
    char *doc = jj_writer_take(w, &len);
    if (!doc) goto nomem;
    if (len > g->limit) {
      jj_free(doc);
      fail_length(ctx, g);
      goto done;
    }
    sqlite3_result_text64(ctx, doc, len, jj_free, SQLITE_UTF8);
  }
  goto done;
nomem:
  sqlite3_result_error_nomem(ctx);
done:
  jjx_buf_free(out);
  jj_writer_free(w);
  jj_schema_free(s);
}

void jjx_group_final(sqlite3_context *ctx) {
  group_ctx *g = sqlite3_aggregate_context(ctx, 0);
  if (!g) return; /* no rows: NULL */
  if (!g->failed && g->rows > 0) finish(ctx, g);
  group_free(g);
}
