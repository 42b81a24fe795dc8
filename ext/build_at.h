/*
** build_at.h — a value of a fixed column into the core's row builder, for
** the loops of jj_group (group.c) and jj_export (export.c) that give every
** row's values: inline there, since it runs for every value.
**
** NULL, INTEGER, REAL and TEXT (not JSON-subtyped, not for a column whose
** explicit type converts or reads text: i, f, b, j, jj) are given with
** their column's place in one call, jj_builder_*_at, which writes a value
** that keeps to its column at once; every other value as build_value.c
** gives it (jjx_build_value, jjx_build_typed) after jj_builder_key_at.
*/
#ifndef JJX_BUILD_AT_H
#define JJX_BUILD_AT_H

#include "ext.h"

/* The value v of the top table's column at place col (type: its explicit
** type, or 0 when inferred; name and len: its name, for messages), adding
** to *least (when not NULL) the fewest bytes it takes in the document
** with its separator: its text, a BLOB's base64, a number's shortest
** form.  The builder's code (its error says why). */
static inline jj_code jjx_build_at(jj_builder *b, sqlite3 *db, size_t col,
                                   sqlite3_value *v, jj_type type,
                                   const char *name, size_t len,
                                   uint64_t *least) {
  switch (sqlite3_value_type(v)) {
    case SQLITE_NULL:
      if (least) *least += 2;
      return jj_builder_null_at(b, col);
    case SQLITE_INTEGER:
      if (least) *least += 2;
      if (type == JJ_TABLE) break;
      return jj_builder_int_at(b, col, sqlite3_value_int64(v));
    case SQLITE_FLOAT:
      if (least) *least += 2;
      if (type == JJ_TABLE) break;
      return jj_builder_double_at(b, col, sqlite3_value_double(v));
    case SQLITE_TEXT: {
      const char *p = (const char *)sqlite3_value_text(v);
      size_t n = (size_t)sqlite3_value_bytes(v);
      if (least) *least += (uint64_t)n + 3;
      if (!p || type == JJ_INT || type == JJ_FLOAT || type == JJ_BOOL ||
          type == JJ_JSON || type == JJ_TABLE ||
          sqlite3_value_subtype(v) == JSON_SUBTYPE)
        break; /* out of memory is said by the general way */
      return jj_builder_text_at(b, col, p, n);
    }
    default:
      if (least) *least += ((uint64_t)sqlite3_value_bytes(v) + 2) / 3 * 4 + 3;
      break;
  }
  jj_code code = jj_builder_key_at(b, col);
  if (code) return code;
  return type ? jjx_build_typed(b, db, v, type, name, len)
              : jjx_build_value(b, v);
}

#endif /* JJX_BUILD_AT_H */
