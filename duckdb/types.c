/*
** types.c — the core's column types as DuckDB's, and the values of a row
** written into DuckDB's vectors.
**
**   i  BIGINT                     f  DOUBLE (NaN, ±Infinity, -0.0 kept)
**   s  VARCHAR                    d  DATE (days since 1970-01-01)
**   t  TIMESTAMP WITH TIME ZONE   b  BOOLEAN
**   l  TIMESTAMP (no zone)        j  JSON (VARCHAR named JSON: the
**                                    value's canonical JSON text)
**   x  BLOB                       a nested table: LIST of STRUCT, its
**                                 columns the STRUCT's fields
**
** A timestamp is an instant: TIMESTAMP WITH TIME ZONE holds it in UTC, in
** microseconds, so the zone written in the document is not kept and a
** fraction finer than a microsecond is cut to the microsecond (as DuckDB's
** own cast from text cuts it); docs/duckdb.md says so.
**
** Every value is read through the core's accessor of its type, which checks
** it first: a bad value is an error, never a wrong value or a null.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jjduck.h"

/* NULL when out of memory. */
duckdb_logical_type jjd_logical_type(const jj_schema *s, size_t col) {
  switch (jj_schema_type(s, col)) {
    case JJ_INT: return duckdb_create_logical_type(DUCKDB_TYPE_BIGINT);
    case JJ_FLOAT: return duckdb_create_logical_type(DUCKDB_TYPE_DOUBLE);
    case JJ_TEXT: return duckdb_create_logical_type(DUCKDB_TYPE_VARCHAR);
    case JJ_DATE: return duckdb_create_logical_type(DUCKDB_TYPE_DATE);
    case JJ_TIMESTAMP:
      return duckdb_create_logical_type(DUCKDB_TYPE_TIMESTAMP_TZ);
    case JJ_LOCAL_TIMESTAMP:
      return duckdb_create_logical_type(DUCKDB_TYPE_TIMESTAMP);
    case JJ_JSON: { /* DuckDB's JSON is VARCHAR under that name */
      duckdb_logical_type t = duckdb_create_logical_type(DUCKDB_TYPE_VARCHAR);
      if (t) duckdb_logical_type_set_alias(t, "JSON");
      return t;
    }
    case JJ_BOOL: return duckdb_create_logical_type(DUCKDB_TYPE_BOOLEAN);
    case JJ_BYTES: return duckdb_create_logical_type(DUCKDB_TYPE_BLOB);
    case JJ_TABLE: break;
  }
  const jj_schema *t = jj_schema_table(s, col);
  size_t n = jj_schema_columns(t);
  duckdb_logical_type *types = malloc((n ? n : 1) * sizeof *types);
  const char **names = malloc((n ? n : 1) * sizeof *names);
  if (!types || !names) {
    free(types);
    free(names);
    return NULL;
  }
  for (size_t i = 0; i < n; i++) {
    types[i] = jjd_logical_type(t, i);
    names[i] = jj_schema_name(t, i, NULL);
    if (!types[i]) {
      while (i > 0) duckdb_destroy_logical_type(&types[--i]);
      free(types);
      free(names);
      return NULL;
    }
  }
  duckdb_logical_type row = duckdb_create_struct_type(types, names, n);
  for (size_t i = 0; i < n; i++) duckdb_destroy_logical_type(&types[i]);
  free(types);
  free(names);
  duckdb_logical_type list = duckdb_create_list_type(row);
  duckdb_destroy_logical_type(&row);
  return list;
}

const char *jjd_type_name(jj_type t) {
  switch (t) {
    case JJ_INT: return "BIGINT";
    case JJ_FLOAT: return "DOUBLE";
    case JJ_TEXT: return "VARCHAR";
    case JJ_DATE: return "DATE";
    case JJ_TIMESTAMP: return "TIMESTAMP WITH TIME ZONE";
    case JJ_LOCAL_TIMESTAMP: return "TIMESTAMP";
    case JJ_JSON: return "JSON";
    case JJ_BOOL: return "BOOLEAN";
    case JJ_BYTES: return "BLOB";
    case JJ_TABLE: return "LIST of STRUCT";
  }
  return "?";
}

void jjd_out_begin(jjd_out *o, duckdb_vector vec) {
  o->vec = vec;
  o->data = duckdb_vector_get_data(vec);
  o->validity = duckdb_vector_get_validity(vec);
}

void jjd_out_null(jjd_out *o, idx_t row) {
  if (!o->validity) {
    duckdb_vector_ensure_validity_writable(o->vec);
    o->validity = duckdb_vector_get_validity(o->vec);
  }
  o->validity[row / 64] &= ~((uint64_t)1 << (row % 64));
}

/* A value written over a slot that may have held a null (a list's child
** vector reused): its validity bit set again. */
static void set_valid(jjd_out *o, idx_t row) {
  if (o->validity) o->validity[row / 64] |= (uint64_t)1 << (row % 64);
}

/* A VARCHAR or BLOB value.  DuckDB keeps a string of at most 12 bytes
** inside its string_t (duckdb.h's duckdb_string_t, "inlined", the rest of
** the 12 bytes zero), so such a one is written there directly; a longer
** one is copied into the vector's own memory by DuckDB.  The call would
** check the text's UTF-8 once more (the core has checked it: a quarter of
** a full scan's time went there). */
static void put_string(jjd_out *o, idx_t row, const char *p, size_t len) {
  if (len <= 12) {
    duckdb_string_t *s = (duckdb_string_t *)o->data + row;
    memset(s, 0, sizeof *s);
    s->value.inlined.length = (uint32_t)len;
    if (len) memcpy(s->value.inlined.inlined, p, len);
    return;
  }
  duckdb_vector_assign_string_element_len(o->vec, row, p, len);
}

/* TIMESTAMP WITH TIME ZONE: microseconds since 1970-01-01 UTC.  nanos is
** 0..999999999 after the (floored) seconds, so the division cuts towards
** the past, as a cut to the microsecond must. */
static int64_t micros(const jj_timestamp *ts) {
  return ts->seconds * 1000000 + ts->nanos / 1000;
}

/* A nested table's rows appended to the list vector's child, a STRUCT. */
static int put_table(jj_cursor *c, size_t col, const jj_schema *nested,
                     jjd_out *o, idx_t row, jj_error *err) {
  jj_doc *doc;
  int r = jj_cursor_table(c, col, &doc, err);
  if (r <= 0) {
    if (r == 0) jjd_out_null(o, row);
    return r;
  }
  jj_cursor *nc = jj_cursor_new(doc, err);
  if (!nc) {
    jj_doc_free(doc);
    return -1;
  }
  duckdb_vector child = duckdb_list_vector_get_child(o->vec);
  size_t ncols = jj_schema_columns(nested);
  idx_t start = duckdb_list_vector_get_size(o->vec), at = start;
  int rc = 0;
  while (rc == 0 && (r = jj_cursor_next(nc, err)) == 1) {
    if (duckdb_list_vector_reserve(o->vec, at + 1) != DuckDBSuccess) {
      err->code = JJ_ERR_NOMEM;
      snprintf(err->message, sizeof err->message, "out of memory");
      rc = -1;
      break;
    }
    for (size_t i = 0; rc == 0 && i < ncols; i++) {
      jjd_out field;
      /* Looked up again for each row: reserving may move the data. */
      jjd_out_begin(&field, duckdb_struct_vector_get_child(child, i));
      rc = jjd_put(nc, i, jj_schema_type(nested, i),
                   jj_schema_table(nested, i), &field, at, err);
    }
    if (rc == 0) {
      jjd_out self;
      jjd_out_begin(&self, child);
      set_valid(&self, at);
    }
    at++;
    duckdb_list_vector_set_size(o->vec, at);
  }
  if (r < 0) rc = -1;
  jj_cursor_free(nc);
  jj_doc_free(doc);
  if (rc == 0) {
    /* The list's data looked up now: the child's growth leaves it, but
    ** nothing is assumed. */
    duckdb_list_entry *e = duckdb_vector_get_data(o->vec);
    e[row].offset = start;
    e[row].length = at - start;
    set_valid(o, row);
  }
  return rc;
}

int jjd_put(jj_cursor *c, size_t col, jj_type t, const jj_schema *nested,
            jjd_out *o, idx_t row, jj_error *err) {
  int r;
  switch (t) {
    case JJ_INT:
      r = jj_cursor_int(c, col, (int64_t *)o->data + row, err);
      break;
    case JJ_FLOAT:
      r = jj_cursor_double(c, col, (double *)o->data + row, err);
      break;
    case JJ_BOOL: {
      int v;
      if ((r = jj_cursor_bool(c, col, &v, err)) == 1)
        ((bool *)o->data)[row] = v != 0;
      break;
    }
    case JJ_DATE: {
      int32_t days;
      if ((r = jj_cursor_date(c, col, &days, err)) == 1)
        ((duckdb_date *)o->data)[row].days = days;
      break;
    }
    case JJ_TIMESTAMP:
    case JJ_LOCAL_TIMESTAMP: { /* a local one reads as if in UTC, zone 0 */
      jj_timestamp ts;
      if ((r = jj_cursor_timestamp(c, col, &ts, err)) == 1)
        ((duckdb_timestamp *)o->data)[row].micros = micros(&ts);
      break;
    }
    case JJ_JSON: {
      const char *p;
      size_t len;
      if ((r = jj_cursor_json(c, col, &p, &len, err)) == 1)
        put_string(o, row, p, len);
      break;
    }
    case JJ_TEXT: {
      const char *p;
      size_t len;
      if ((r = jj_cursor_text(c, col, &p, &len, err)) == 1)
        put_string(o, row, p, len);
      break;
    }
    case JJ_BYTES: {
      const unsigned char *p;
      size_t len;
      if ((r = jj_cursor_bytes(c, col, &p, &len, err)) == 1)
        put_string(o, row, (const char *)p, len);
      break;
    }
    case JJ_TABLE:
      return put_table(c, col, nested, o, row, err);
    default:
      r = -1;
      err->code = JJ_ERR_USAGE;
      snprintf(err->message, sizeof err->message, "unknown column type");
  }
  if (r < 0) return -1;
  if (r == 0)
    jjd_out_null(o, row);
  else
    set_valid(o, row);
  return 0;
}

int jjd_check(jj_cursor *c, size_t col, jj_type t, const jj_schema *nested,
              jj_error *err) {
  jj_value v;
  int r = jj_cursor_value(c, col, &v, err);
  if (r < 0) return -1;
  if (r == 0 || t != JJ_TABLE) return 0;
  jj_cursor *nc = jj_cursor_new(v.u.table, err);
  int rc = nc ? 0 : -1;
  size_t ncols = jj_schema_columns(nested);
  while (rc == 0 && (r = jj_cursor_next(nc, err)) == 1)
    for (size_t i = 0; rc == 0 && i < ncols; i++)
      rc = jjd_check(nc, i, jj_schema_type(nested, i),
                     jj_schema_table(nested, i), err);
  if (r < 0) rc = -1;
  jj_cursor_free(nc);
  jj_doc_free(v.u.table);
  return rc;
}
