/*
** build_at.h — a row of fixed columns into the core's row builder, for the
** loops of jj_group (group.c) and jj_export (export.c) that give every
** row's values: inline there, since it runs for every row.
**
** A row is given in one call, jj_builder_row, which writes each value
** that keeps to its column at once: NULL, INTEGER, REAL and TEXT (not
** JSON-subtyped, not for a column whose explicit type converts or reads
** text: i, f, b, j, jj) as the row's cells; every other value as
** build_value.c gives it (jjx_build_value, jjx_build_typed), called back.
*/
#ifndef JJX_BUILD_AT_H
#define JJX_BUILD_AT_H

#include "ext.h"

/* A top-level column of the rows. */
typedef struct jjx_col {
  char *name;   /* for messages (NUL-terminated); sqlite3_free */
  size_t len;   /* its bytes (jj_group: before ":T") */
  size_t given; /* jj_group: the bytes of the name argument, ":T" too */
  jj_type type; /* the explicit type, or 0 when inferred */
} jjx_col;

/* The cell of value v of a column of explicit type `type` (0: inferred),
** JJ_CELL_HOST for one jjx_build_value or jjx_build_typed gives, adding to
** *least (when not NULL) the fewest bytes it takes in the document with
** its separator: its text, a BLOB's base64, a number's shortest form. */
static inline void jjx_cell(jj_cell *cell, sqlite3_value *v, jj_type type,
                            uint64_t *least) {
  uint64_t size = 2;
  cell->kind = JJ_CELL_HOST;
  switch (sqlite3_value_type(v)) {
    case SQLITE_NULL:
      cell->kind = JJ_CELL_NULL;
      break;
    case SQLITE_INTEGER:
      if (type == JJ_TABLE) break;
      cell->kind = JJ_CELL_INT;
      cell->u.i = sqlite3_value_int64(v);
      break;
    case SQLITE_FLOAT:
      if (type == JJ_TABLE) break;
      cell->kind = JJ_CELL_DOUBLE;
      cell->u.d = sqlite3_value_double(v);
      break;
    case SQLITE_TEXT: {
      const char *p = (const char *)sqlite3_value_text(v);
      size_t n = (size_t)sqlite3_value_bytes(v);
      size = (uint64_t)n + 3;
      if (!p || type == JJ_INT || type == JJ_FLOAT || type == JJ_BOOL ||
          type == JJ_JSON || type == JJ_TABLE ||
          sqlite3_value_subtype(v) == JSON_SUBTYPE)
        break; /* out of memory is said by the general way */
      cell->kind = JJ_CELL_TEXT;
      cell->u.text.p = p;
      cell->u.text.len = n;
      break;
    }
    default:
      size = ((uint64_t)sqlite3_value_bytes(v) + 2) / 3 * 4 + 3;
      break;
  }
  if (least) *least += size;
}

/* The values of a row jjx_build_row gives. */
typedef struct jjx_row {
  sqlite3 *db;
  const jjx_col *cols;
  sqlite3_value *const *v; /* column i's value: v[i * stride] */
  size_t stride;
} jjx_row;

/* jj_builder_row's host callback: a JJ_CELL_HOST cell's value. */
static jj_code jjx_build_host(void *ctx, jj_builder *b, size_t col) {
  const jjx_row *r = ctx;
  const jjx_col *c = &r->cols[col];
  sqlite3_value *v = r->v[col * r->stride];
  return c->type ? jjx_build_typed(b, r->db, v, c->type, c->name, c->len)
                 : jjx_build_value(b, v);
}

/* One row: the values v[0], v[stride], ... of columns cols[0..n), whose
** cells (jjx_cell) are cells[0..n), into the builder's top table, and the
** row's end.  The builder's code (its error says why). */
static inline jj_code jjx_build_row(jj_builder *b, sqlite3 *db,
                                    const jjx_col *cols, size_t n,
                                    sqlite3_value *const *v, size_t stride,
                                    const jj_cell *cells) {
  jjx_row r = {db, cols, v, stride};
  return jj_builder_row(b, cells, n, jjx_build_host, &r);
}

#endif /* JJX_BUILD_AT_H */
