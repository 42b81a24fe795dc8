/*
** group_value.c — jj_group's values: each row's arguments checked as they
** arrive (the names unchanged, each value against its column's explicit
** type, TEXT for a number converted as SQLite's affinity would, or the
** storage classes seen so far) into the row's group_val array, then
** written straight to the document (group_direct.c) or buffered (the
** format is group_state.h's) until group_write.c writes them at the end.
** The length limit is kept here, where the bytes are counted.  Called by
** group.c's xStep; calls group_direct.c and group_write.c, never back up.
*/
#include <string.h>

#include "group_direct.h"
#include "group_state.h"

/* ---------------------------------------------------------------------- */
/* Messages                                                                */
/* ---------------------------------------------------------------------- */

const char *jjx_class_name(int t) {
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

/* Fail the aggregate: `row R, column "C": V is K, expected W` where W is
** want followed by how (say, a type's words and " (TEXT)"). */
static void fail_value(sqlite3_context *ctx, group_ctx *g, group_col *c,
                       sqlite3_value *v, const char *want, const char *how) {
  char *shown = show_value(v);
  if (!shown) {
    sqlite3_result_error_nomem(ctx);
  } else {
    jjx_ctx_err(ctx, "jj_group: row %lld, column \"%.*s\": %s is %s, "
                     "expected %s%s",
                (long long)g->rows, (int)c->name_len, c->arg, shown,
                jjx_class_name(sqlite3_value_type(v)), want, how);
  }
  sqlite3_free(shown);
  g->failed = 1;
}

/* ---------------------------------------------------------------------- */
/* Checking a row as it arrives                                            */
/* ---------------------------------------------------------------------- */

/* Check a value against its column's explicit type.  0, or -1 with the
** error reported.  st is the value's storage class. */
static int check_explicit(sqlite3_context *ctx, group_ctx *g, group_col *c,
                          sqlite3_value *v, int st) {
  jj_error err;
  switch (c->type) { /* no default: -Wswitch names a type added */
    case JJ_INT:
      if (st != SQLITE_INTEGER)
        return fail_value(ctx, g, c, v, "INTEGER", ""), -1;
      return 0;
    case JJ_FLOAT:
      if (st != SQLITE_INTEGER && st != SQLITE_FLOAT)
        return fail_value(ctx, g, c, v, "INTEGER or REAL", ""), -1;
      return 0;
    case JJ_TEXT:
      if (st != SQLITE_TEXT) return fail_value(ctx, g, c, v, "TEXT", ""), -1;
      return 0;
    case JJ_DATE:
    case JJ_TIMESTAMP: {
      if (st != SQLITE_TEXT)
        return fail_value(ctx, g, c, v, jj_type_name(c->type), " (TEXT)"),
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
        return fail_value(ctx, g, c, v, jj_type_name(JJ_BOOL), " (0 or 1)"),
               -1;
      return 0;
    case JJ_BYTES:
      if (st != SQLITE_BLOB) return fail_value(ctx, g, c, v, "BLOB", ""), -1;
      return 0;
    case JJ_TABLE: {
      if (st != SQLITE_TEXT && st != SQLITE_BLOB)
        return fail_value(ctx, g, c, v, "a jalapenojson document", ""), -1;
      /* The whole document is checked now, so that xFinal only copies. */
      const char *p = st == SQLITE_TEXT ? (const char *)sqlite3_value_text(v)
                                        : sqlite3_value_blob(v);
      size_t len = (size_t)sqlite3_value_bytes(v);
      jj_doc *doc = jjx_parse_checked(sqlite3_context_db_handle(ctx),
                                      p ? p : "", len, &err);
      if (!doc) {
        if (err.code == JJ_ERR_NOMEM) {
          sqlite3_result_error_nomem(ctx);
        } else if (err.code == JJ_ERR_INTERRUPTED) {
          sqlite3_result_error_code(ctx, SQLITE_INTERRUPT);
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
                jjx_class_name(st));
    g->failed = 1;
    return -1;
  }
  return 0;
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

/* ---------------------------------------------------------------------- */
/* TEXT for a number or a boolean: SQLite's affinity                       */
/* ---------------------------------------------------------------------- */

/* SQLite itself decides what the text is: sqlite3_value_numeric_type
** applies NUMERIC affinity (as a column's affinity converts a value when
** it is stored: leading and trailing spaces allowed, '1e2', '100.0' and
** ' 7 ' are numbers, '12abc', '0x10' and '' are not).  It converts the
** value in place, so it works on a copy: the argument may be a register
** SQLite reads again.  Then:
**   i  an INTEGER (a text integer beyond 64 bits is a REAL, refused); or
**      a REAL that is a whole number below 2^53 in
**      magnitude, as INTEGER affinity would store it ('1e2' -> 100); a
**      larger one may have lost digits ('9007199254740993.0' reads as
**      ...992), so it is refused
**   f  an INTEGER (written as a float if exact, as INTEGER values are) or
**      a REAL, as REAL affinity stores it ('1' -> 1.0, '19.99' -> 19.99)
**   b  "true" or "false", or what i converts when it is 0 or 1 */
int jjx_group_from_text(sqlite3_value *v, jj_type type, sqlite3_int64 *i,
                        double *d, int *why) {
  *why = 1;
  if (type == JJ_BOOL) {
    const char *p = (const char *)sqlite3_value_text(v);
    int n = sqlite3_value_bytes(v);
    if (!p) return -1;
    if ((n == 4 && memcmp(p, "true", 4) == 0) ||
        (n == 5 && memcmp(p, "false", 5) == 0)) {
      *i = n == 4;
      return SQLITE_INTEGER;
    }
  }
  sqlite3_value *copy = sqlite3_value_dup(v);
  if (!copy) return -1;
  int st = sqlite3_value_numeric_type(copy), out = 0;
  if (st == SQLITE_INTEGER) {
    *i = sqlite3_value_int64(copy);
    out = SQLITE_INTEGER;
  } else if (st == SQLITE_FLOAT) {
    double x = sqlite3_value_double(copy);
    if (type == JJ_FLOAT) {
      *d = x;
      out = SQLITE_FLOAT;
    } else if (x > -9007199254740992.0 && x < 9007199254740992.0) {
      if (x == (double)(sqlite3_int64)x) {
        *i = (sqlite3_int64)x;
        out = SQLITE_INTEGER;
      }
    } else {
      /* whole (every double this large is), but maybe rounded */
      *why = x >= -9223372036854775808.0 && x < 9223372036854775808.0 ? 2 : 3;
    }
  }
  sqlite3_value_free(copy);
  if (out && type == JJ_BOOL && (out != SQLITE_INTEGER || (*i != 0 && *i != 1)))
    out = 0;
  return out;
}

/* A TEXT value for an explicit i, f or b column: converted as SQLite's
** affinity would (jjx_group_from_text) into *out as the number, or
** refused with a message that says what to do.  0, or -1 reported. */
static int text_number(sqlite3_context *ctx, group_ctx *g, group_col *c,
                       sqlite3_value *v, group_val *out) {
  sqlite3_int64 i = 0;
  double d = 0;
  int why;
  int st = jjx_group_from_text(v, c->type, &i, &d, &why);
  if (st > 0) {
    out->st = st;
    if (st == SQLITE_INTEGER)
      out->u.i = i;
    else
      out->u.d = d;
    c->kinds |= st == SQLITE_INTEGER ? K_INT : K_REAL;
    g->min_len += min_written(c, st, 0);
    return 0;
  }
  if (st < 0) goto nomem;
  char *shown = show_value(v);
  if (!shown) goto nomem;
  const char *what = c->type == JJ_FLOAT ? "is not a number"
                     : c->type == JJ_BOOL
                         ? "is not a boolean (0, 1, \"true\" or \"false\")"
                     : why == 2 ? "is not exactly an integer (beyond 2^53 a "
                                  "point or an exponent may have rounded it)"
                     : why == 3 ? "is beyond the range of a 64-bit integer"
                                : "is not an integer";
  jjx_ctx_err(ctx, "jj_group: row %lld, column \"%.*s\": %s %s; %suse a "
                   "TEXT column (\"%.*s:s\")",
              (long long)g->rows, (int)c->name_len, c->arg, shown, what,
              c->type == JJ_BOOL ? "" : "CAST it or ", (int)c->name_len,
              c->arg);
  sqlite3_free(shown);
  g->failed = 1;
  return -1;
nomem:
  sqlite3_result_error_nomem(ctx);
  g->failed = 1;
  return -1;
}

/* 1 when a[0..n) and b[0..n) are the same bytes: words compared as
** wholes (overlapping at the end), since names are short and this runs for
** every name of every row.  Measured against libc's memcmp as copy_bytes
** was: 21.24 / 20.45 ms against 21.60 / 20.96 ms (2%). */
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

/* Hand the checked value i of the row on: to the document (the direct
** way) or to the buffer; unless `wait`: the first row's values wait until
** every one is checked, since they decide whether there is a direct way.
** 0, or -1 reported. */
static JJX_INLINE int pass_on(sqlite3_context *ctx, group_ctx *g, int i,
                          int wait) {
  if (g->w) return jjx_group_direct_value(ctx, g, i);
  if (wait || !jjx_group_buffer(&g->values, &g->row[i])) return 0;
  sqlite3_result_error_nomem(ctx);
  g->failed = 1;
  return -1;
}

int jjx_group_add_row(sqlite3_context *ctx, group_ctx *g,
                      sqlite3_value **argv) {
  /* Each value is checked into g->row, then passed on: a failed row
  ** leaves a partial row behind, which is never read (the aggregate has
  ** failed).  What stays the same for the row is read once: every SQLite
  ** call would make the compiler read it again. */
  const int ncol = g->ncol, first = g->rows == 1;
  group_col *const cols = g->cols;
  group_val *const row = g->row;
  for (int i = 0; i < ncol; i++) {
    group_col *c = &cols[i];
    group_val *out = &row[i];
    sqlite3_value *name = argv[2 * i], *v = argv[2 * i + 1];
    /* the names are normally constants; a name that changes is an error */
    if (!first && !same_name(name, c)) {
      jjx_ctx_err(ctx, "jj_group: row %lld: the name of column %d changed "
                       "from \"%s\"",
                  (long long)g->rows, i + 1, c->arg);
      g->failed = 1;
      return -1;
    }
    int st = sqlite3_value_type(v);
    if (c->type == JJ_DATE && st == SQLITE_TEXT) {
      /* the usual explicit column, dates: the text is read once and checked
      ** by the core's calendar; check_explicit words the error */
      const char *p = (const char *)sqlite3_value_text(v);
      size_t n = (size_t)sqlite3_value_bytes(v);
      if (p && g->w) {
        /* the direct way: the writer checks the date as it writes it (the
        ** same calendar), so it is checked once; a bad one ends the
        ** aggregate here either way, worded by check_explicit */
        jj_code code = jj_writer_date(g->w, p, n);
        if (code != JJ_OK)
          return code == JJ_ERR_DATE && check_explicit(ctx, g, c, v, st)
                     ? -1
                     : jjx_group_direct_fail(ctx, g, code);
        c->kinds |= K_TEXT;
        g->min_len += (uint64_t)n + 3;
        out->st = SQLITE_TEXT;
        out->u.p = p;
        out->n = n;
        continue;
      }
      if ((!p || jj_date_parse(p, n, NULL, NULL) != JJ_OK) &&
          check_explicit(ctx, g, c, v, st))
        return -1;
      if (!p) goto nomem;
      c->kinds |= K_TEXT;
      g->min_len += (uint64_t)n + 3;
      out->st = SQLITE_TEXT;
      out->u.p = p;
      out->n = n;
    } else if (st == SQLITE_TEXT && (c->type == JJ_INT ||
                                     c->type == JJ_FLOAT ||
                                     c->type == JJ_BOOL)) {
      if (text_number(ctx, g, c, v, out)) return -1; /* reported */
    } else {
      out->st = st;
      out->n = 0;
      if (st == SQLITE_INTEGER)
        out->u.i = sqlite3_value_int64(v);
      else if (st == SQLITE_FLOAT)
        out->u.d = sqlite3_value_double(v);
      if (st != SQLITE_NULL) {
        unsigned k = st == SQLITE_INTEGER ? K_INT
                     : st == SQLITE_FLOAT ? K_REAL
                     : st == SQLITE_TEXT  ? K_TEXT
                                          : K_BLOB;
        /* (a class already seen in an inferred column cannot mix) */
        if (c->type ? check_explicit(ctx, g, c, v, st)
                    : !(c->kinds & k) && check_inferred(ctx, g, c, k, st))
          return -1;
        c->kinds |= k;
        if (st == SQLITE_TEXT || st == SQLITE_BLOB) {
          out->u.p = st == SQLITE_TEXT ? (const void *)sqlite3_value_text(v)
                                       : sqlite3_value_blob(v);
          out->n = (size_t)sqlite3_value_bytes(v);
          if (st == SQLITE_TEXT && !out->u.p) goto nomem;
        }
      }
      g->min_len += min_written(c, st, out->n);
    }
    if (pass_on(ctx, g, i, first)) return -1; /* reported */
  }
  if (first) { /* the values wait for this (pass_on) */
    if (jjx_group_direct_start(ctx, g)) return -1; /* reported */
    for (int i = 0; i < ncol; i++)
      if (pass_on(ctx, g, i, 0)) return -1; /* reported */
  }
  /* a row is at least "[" and "\n" around its values */
  g->min_len += 2;
  if (g->w && jjx_group_direct_end_row(ctx, g)) return -1; /* reported */
  /* stop at SQLite's limit now rather than after buffering everything */
  if (g->min_len > g->limit) {
    jjx_group_too_long(ctx, g);
    return -1;
  }
  return 0;
nomem:
  sqlite3_result_error_nomem(ctx);
  g->failed = 1;
  return -1;
}
