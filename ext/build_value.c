/*
** build_value.c — SQLite's values into the core's row builder
** (jj_builder_*, core/jalapenojson.h), for jj_group and jj_export: the one
** place the extension says what a storage class is to the builder.  The
** builder decides the types (the converter's rules: every INTEGER is i,
** INTEGER and REAL f when every integer is exact, TEXT that is a date or
** timestamp d or t, a mix text with a note) and checks a value of a typed
** column; this file only moves values across.
**
**   NULL -> null   INTEGER -> int   REAL -> double   TEXT -> text
**   BLOB -> bytes  TEXT with SQLite's JSON subtype -> a JSON value
**
** Two things need SQLite to say: TEXT for a column typed i, f or b is
** converted as SQLite's own affinity would ('100', '1e2', '19.99': a
** number kept as the number, when no digit is lost), and the value of a
** nested table (jj) is a jalapenojson document whose rows become the
** nested rows.
*/
#include <string.h>

#include "ext.h"

const char *jjx_class_name(int t) {
  switch (t) {
    case SQLITE_INTEGER: return "INTEGER";
    case SQLITE_FLOAT: return "REAL";
    case SQLITE_TEXT: return "TEXT";
    case SQLITE_BLOB: return "BLOB";
  }
  return "NULL";
}

jj_code jjx_build_value(jj_builder *b, sqlite3_value *v) {
  switch (sqlite3_value_type(v)) {
    case SQLITE_INTEGER:
      return jj_builder_int(b, sqlite3_value_int64(v));
    case SQLITE_FLOAT:
      return jj_builder_double(b, sqlite3_value_double(v));
    case SQLITE_TEXT: {
      const char *p = (const char *)sqlite3_value_text(v);
      if (!p) return jj_builder_refuse(b, JJ_ERR_NOMEM, "out of memory");
      /* TEXT that SQLite's JSON functions marked (json(), json_object(),
      ** a JSON column) is a JSON value, not a string */
      if (sqlite3_value_subtype(v) == JSON_SUBTYPE)
        return jj_builder_json(b, p, (size_t)sqlite3_value_bytes(v));
      return jj_builder_text(b, p, (size_t)sqlite3_value_bytes(v));
    }
    case SQLITE_BLOB: {
      const void *p = sqlite3_value_blob(v);
      int n = sqlite3_value_bytes(v);
      return jj_builder_bytes(b, n ? p : "", (size_t)n);
    }
    default:
      return jj_builder_null(b);
  }
}

/* A value as a message shows it: numbers as SQL writes them, text as
** jjx_show quotes it (escaped, cut after 40 bytes).  sqlite3_free; NULL
** when out of memory. */
static char *show_text(sqlite3_value *v) {
  sqlite3_str *s = sqlite3_str_new(NULL);
  const char *p = (const char *)sqlite3_value_text(v);
  jjx_show(s, p ? p : "", p ? (size_t)sqlite3_value_bytes(v) : 0);
  return sqlite3_str_finish(s);
}

/* TEXT for a column typed i, f or b, as SQLite's affinity converts it when
** a column stores it: sqlite3_value_numeric_type applies NUMERIC affinity
** (leading and trailing spaces allowed, '1e2', '100.0' and ' 7 ' are
** numbers, '12abc', '0x10' and '' are not) in place, so on a copy: the
** argument may be a register SQLite reads again.  Then:
**   i  an INTEGER (a text integer beyond 64 bits is a REAL, refused); or a
**      REAL that is a whole number below 2^53 in magnitude, as INTEGER
**      affinity would store it ('1e2' -> 100); a larger one may have lost
**      digits ('9007199254740993.0' reads as ...992), so it is refused
**   f  an INTEGER (written as a float if exact, as INTEGER values are) or
**      a REAL, as REAL affinity stores it ('1' -> 1.0, '19.99' -> 19.99)
**   b  "true" or "false" (the builder's own rule), or what i converts when
**      it is 0 or 1
** Anything else is refused with a message that says what to do. */
static jj_code text_number(jj_builder *b, sqlite3_value *v, jj_type type,
                           const char *name, size_t name_len) {
  const char *p = (const char *)sqlite3_value_text(v);
  int n = sqlite3_value_bytes(v);
  if (!p) return jj_builder_refuse(b, JJ_ERR_NOMEM, "out of memory");
  if (type == JJ_BOOL && ((n == 4 && !memcmp(p, "true", 4)) ||
                          (n == 5 && !memcmp(p, "false", 5))))
    return jj_builder_text(b, p, (size_t)n);
  sqlite3_value *copy = sqlite3_value_dup(v);
  if (!copy) return jj_builder_refuse(b, JJ_ERR_NOMEM, "out of memory");
  int st = sqlite3_value_numeric_type(copy), why = 1;
  sqlite3_int64 i = 0;
  double x = 0;
  if (st == SQLITE_INTEGER) {
    i = sqlite3_value_int64(copy);
  } else if (st == SQLITE_FLOAT) {
    x = sqlite3_value_double(copy);
    if (type != JJ_FLOAT) {
      st = 0;
      if (x > -9007199254740992.0 && x < 9007199254740992.0) {
        if (x == (double)(sqlite3_int64)x) i = (sqlite3_int64)x, st = SQLITE_INTEGER;
      } else { /* whole (every double this large is), but maybe rounded */
        why = x >= -9223372036854775808.0 && x < 9223372036854775808.0 ? 2 : 3;
      }
    }
  } else {
    st = 0;
  }
  sqlite3_value_free(copy);
  if (st && type == JJ_BOOL && (st != SQLITE_INTEGER || (i != 0 && i != 1)))
    st = 0;
  if (st == SQLITE_INTEGER) return jj_builder_int(b, i);
  if (st == SQLITE_FLOAT) return jj_builder_double(b, x);
  char *shown = show_text(v), *msg = NULL;
  if (shown)
    msg = sqlite3_mprintf(
        "%s %s; %suse a TEXT column (\"%.*s:s\")", shown,
        type == JJ_FLOAT  ? "is not a number"
        : type == JJ_BOOL ? "is not a boolean (0, 1, \"true\" or \"false\")"
        : why == 2 ? "is not exactly an integer (beyond 2^53 a point or an "
                     "exponent may have rounded it)"
        : why == 3 ? "is beyond the range of a 64-bit integer"
                   : "is not an integer",
        type == JJ_BOOL ? "" : "CAST it or ", (int)name_len, name);
  jj_code code = msg ? jj_builder_refuse(b, JJ_ERR_TYPE, msg)
                     : jj_builder_refuse(b, JJ_ERR_NOMEM, "out of memory");
  sqlite3_free(shown);
  sqlite3_free(msg);
  return code;
}

jj_code jjx_build_typed(jj_builder *b, sqlite3 *db, sqlite3_value *v,
                        jj_type type, const char *name, size_t len) {
  int st = sqlite3_value_type(v);
  if (st == SQLITE_NULL) return jj_builder_null(b);
  if (type == JJ_TABLE) {
    if (st != SQLITE_TEXT && st != SQLITE_BLOB) {
      char msg[80];
      sqlite3_snprintf(sizeof msg, msg, "%s is not a jalapenojson document",
                       jjx_class_name(st));
      return jj_builder_refuse(b, JJ_ERR_TYPE, msg);
    }
    return jjx_build_document(b, db, v);
  }
  if (st == SQLITE_TEXT &&
      (type == JJ_INT || type == JJ_FLOAT || type == JJ_BOOL))
    return text_number(b, v, type, name, len);
  if (st == SQLITE_TEXT && type == JJ_JSON) { /* TEXT is JSON text there */
    const char *p = (const char *)sqlite3_value_text(v);
    if (!p) return jj_builder_refuse(b, JJ_ERR_NOMEM, "out of memory");
    return jj_builder_json(b, p, (size_t)sqlite3_value_bytes(v));
  }
  return jjx_build_value(b, v);
}

static jj_code build_table(jj_builder *b, jj_doc *doc, jj_error *err);

/* Column i of the cursor's row, given to the builder. */
static jj_code build_cell(jj_builder *b, jj_cursor *c, const jj_schema *s,
                          size_t i, jj_error *err) {
  int got = -1;
  jj_code code = JJ_OK;
  switch (jj_schema_type(s, i)) { /* no default: -Wswitch names a type */
    case JJ_INT: {
      int64_t x;
      if ((got = jj_cursor_int(c, i, &x, err)) == 1) code = jj_builder_int(b, x);
      break;
    }
    case JJ_FLOAT: {
      double x;
      if ((got = jj_cursor_double(c, i, &x, err)) == 1)
        code = jj_builder_double(b, x);
      break;
    }
    case JJ_TEXT: {
      const char *p;
      size_t n;
      if ((got = jj_cursor_text(c, i, &p, &n, err)) == 1)
        code = jj_builder_text(b, p, n);
      break;
    }
    case JJ_DATE: {
      int32_t d;
      if ((got = jj_cursor_date(c, i, &d, err)) == 1)
        code = jj_builder_date(b, d);
      break;
    }
    case JJ_TIMESTAMP: {
      jj_timestamp ts;
      if ((got = jj_cursor_timestamp(c, i, &ts, err)) == 1)
        code = jj_builder_timestamp(b, &ts);
      break;
    }
    case JJ_LOCAL_TIMESTAMP: {
      jj_timestamp ts;
      if ((got = jj_cursor_timestamp(c, i, &ts, err)) == 1)
        code = jj_builder_local_timestamp(b, &ts);
      break;
    }
    case JJ_BOOL: {
      int x;
      if ((got = jj_cursor_bool(c, i, &x, err)) == 1)
        code = jj_builder_bool(b, x);
      break;
    }
    case JJ_BYTES: {
      const unsigned char *p;
      size_t n;
      if ((got = jj_cursor_bytes(c, i, &p, &n, err)) == 1)
        code = jj_builder_bytes(b, p, n);
      break;
    }
    case JJ_JSON: {
      const char *p;
      size_t n;
      if ((got = jj_cursor_json(c, i, &p, &n, err)) == 1)
        code = jj_builder_json(b, p, n);
      break;
    }
    case JJ_TABLE: {
      jj_doc *sub;
      if ((got = jj_cursor_table(c, i, &sub, err)) == 1) {
        code = build_table(b, sub, err);
        jj_doc_free(sub);
      }
      break;
    }
  }
  if (got == 0) return jj_builder_null(b);
  if (got < 0) return jj_builder_refuse(b, err->code, err->message);
  return code;
}

/* Every row of the cursor as rows of the nested table being given: each
** value as the builder's kind of its column's type.  A value that does
** not read (the document was checked whole: only memory) stops it. */
static jj_code build_rows(jj_builder *b, jj_cursor *c, jj_error *err) {
  const jj_schema *s = jj_doc_schema(jj_cursor_doc(c));
  size_t ncol = jj_schema_columns(s);
  jj_code code = JJ_OK;
  int r;
  while (code == JJ_OK && (r = jj_cursor_next(c, err)) == 1) {
    for (size_t i = 0; i < ncol && code == JJ_OK; i++) {
      size_t len;
      const char *name = jj_schema_name(s, i, &len);
      if ((code = jj_builder_key(b, name, len))) break;
      code = build_cell(b, c, s, i, err);
    }
    if (code == JJ_OK) code = jj_builder_end_row(b);
  }
  if (code == JJ_OK && r < 0)
    code = jj_builder_refuse(b, err->code, err->message);
  return code;
}

/* A document as a nested table value: its columns with their types
** (kept, even with no rows), then its rows. */
static jj_code build_table(jj_builder *b, jj_doc *doc, jj_error *err) {
  const jj_schema *s = jj_doc_schema(doc);
  jj_code code = jj_builder_begin_table(b);
  for (size_t i = 0; code == JJ_OK && i < jj_schema_columns(s); i++) {
    size_t len;
    const char *name = jj_schema_name(s, i, &len);
    code = jj_builder_column(b, name, len, jj_schema_type(s, i));
  }
  if (code) return code;
  jj_cursor *c = jj_cursor_new(doc, err);
  if (!c) return jj_builder_refuse(b, err->code, err->message);
  code = build_rows(b, c, err);
  jj_cursor_free(c);
  return code ? code : jj_builder_end_table(b);
}

jj_code jjx_build_document(jj_builder *b, sqlite3 *db, sqlite3_value *v) {
  jj_error err;
  const char *p = sqlite3_value_type(v) == SQLITE_BLOB
                      ? sqlite3_value_blob(v)
                      : (const char *)sqlite3_value_text(v);
  size_t n = (size_t)sqlite3_value_bytes(v);
  jj_doc *doc = jjx_parse_checked(db, p ? p : "", n, &err);
  if (!doc) {
    char msg[400];
    if (err.code == JJ_ERR_INTERRUPTED)
      return jj_builder_refuse(b, err.code, "interrupted");
    sqlite3_snprintf(sizeof msg, msg, "not a jalapenojson document: %s",
                     err.message);
    return jj_builder_refuse(b, err.code ? err.code : JJ_ERR_SYNTAX, msg);
  }
  jj_code code = build_table(b, doc, &err);
  jj_doc_free(doc);
  return code;
}
