/*
** bind.c — read_jj's arguments, options and columns.
**
**   read_jj(path [, union_by_name := false] [, filename := false]
**           [, max_size := 1073741824] [, parallel := true])
**
** The path is a file or a glob (files.c).  The columns are the first
** file's header's, with their types (types.c); with union_by_name the
** union of every file's, by name, as in the SQLite extension: in order of
** first appearance (files in name order), a name with one type in every
** file (no widening), names matched as DuckDB matches column names,
** ignoring ASCII case.  filename adds a VARCHAR column (true: named
** "filename"; a text: that name) saying which file a row comes from, as
** DuckDB's own readers do.  max_size caps the document bytes of each file
** (its size, or what gzip or brotli decompress to; 0: no cap), the SQLite
** extension's limit; parallel := false reads each file from one thread.
**
** Binding reads headers only: the first file's, or every file's with
** union_by_name.
*/
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jjduck.h"

static int same_name(const char *a, size_t alen, const char *b, size_t blen) {
  if (alen != blen) return 0;
  for (size_t i = 0; i < alen; i++) {
    unsigned char x = (unsigned char)a[i], y = (unsigned char)b[i];
    if (x >= 'A' && x <= 'Z') x = (unsigned char)(x + 32);
    if (y >= 'A' && y <= 'Z') y = (unsigned char)(y + 32);
    if (x != y) return 0;
  }
  return 1;
}

int jjd_find_column(const jj_schema *s, const char *name, size_t len) {
  size_t n = jj_schema_columns(s);
  for (size_t i = 0; i < n; i++) {
    size_t l;
    const char *p = jj_schema_name(s, i, &l);
    if (same_name(p, l, name, len)) return (int)i;
  }
  return -1;
}

void jjd_bind_free(void *p) {
  jjd_bind *b = p;
  if (!b) return;
  size_t n = jj_schema_columns(b->schema);
  if (b->from)
    for (size_t i = 0; i < n; i++) free(b->from[i]);
  free(b->from);
  jj_schema_free(b->schema);
  jjd_files_free(&b->files);
  free(b->filename);
  free(b);
}

/* Two columns of one file, or of one of its nested tables (a STRUCT's
** fields), that DuckDB would take for one: an error.  `in` names the
** nested table, NULL at the top. */
static int case_twins(const jj_schema *s, const char *path, const char *in,
                      char *msg, size_t cap) {
  size_t n = jj_schema_columns(s);
  for (size_t i = 0; i < n; i++) {
    size_t l;
    const char *p = jj_schema_name(s, i, &l);
    for (size_t j = 0; j < i; j++) {
      size_t m;
      const char *q = jj_schema_name(s, j, &m);
      if (same_name(p, l, q, m)) {
        snprintf(msg, cap, "%s: columns \"%s\" and \"%s\"%s%s%s are one name "
                 "in DuckDB, which ignores case in column names", path, q, p,
                 in ? " of the nested table \"" : "", in ? in : "",
                 in ? "\"" : "");
        return -1;
      }
    }
    if (jj_schema_type(s, i) == JJ_TABLE &&
        case_twins(jj_schema_table(s, i), path, p, msg, cap) != 0)
      return -1;
  }
  return 0;
}

/* Add file path's columns s to the union b->schema. */
static int union_add(jjd_bind *b, const jj_schema *s, const char *path,
                     char *msg, size_t cap) {
  size_t n = jj_schema_columns(s);
  for (size_t c = 0; c < n; c++) {
    size_t len;
    const char *name = jj_schema_name(s, c, &len);
    jj_type t = jj_schema_type(s, c);
    int u = jjd_find_column(b->schema, name, len);
    if (u >= 0) {
      jj_type ut = jj_schema_type(b->schema, (size_t)u);
      if (ut != t || (t == JJ_TABLE &&
                      !jj_schema_equal(jj_schema_table(b->schema, (size_t)u),
                                       jj_schema_table(s, c), NULL))) {
        snprintf(msg, cap, "%s: column \"%s\" is %s here, %s in %s (with "
                 "union_by_name a column has one type in every file)", path,
                 name, t == ut ? "a nested table of other columns"
                               : jj_type_short(t),
                 t == ut ? "another" : jj_type_short(ut), b->from[u]);
        return -1;
      }
      continue;
    }
    size_t at = jj_schema_columns(b->schema);
    char **from = realloc(b->from, (at + 1) * sizeof *from);
    if (!from) goto nomem;
    b->from = from;
    if (!(b->from[at] = strdup(path))) goto nomem;
    jj_schema *nested = NULL;
    if (t == JJ_TABLE && !(nested = jj_schema_copy(jj_schema_table(s, c)))) {
      free(b->from[at]);
      goto nomem;
    }
    jj_error err;
    if (jj_schema_add(b->schema, name, len, t, nested, &err) != JJ_OK) {
      free(b->from[at]);
      snprintf(msg, cap, "%s: %s", path, err.message);
      return -1;
    }
  }
  return 0;
nomem:
  snprintf(msg, cap, "out of memory");
  return -1;
}

/* The options; 0, or -1 with a message. */
static int options(duckdb_bind_info info, jjd_bind *b, char *msg,
                   size_t cap) {
  duckdb_value v;
  if ((v = duckdb_bind_get_named_parameter(info, "union_by_name"))) {
    if (!duckdb_is_null_value(v)) b->union_by_name = duckdb_get_bool(v);
    duckdb_destroy_value(&v);
  }
  if ((v = duckdb_bind_get_named_parameter(info, "parallel"))) {
    if (!duckdb_is_null_value(v)) b->parallel = duckdb_get_bool(v);
    duckdb_destroy_value(&v);
  }
  if ((v = duckdb_bind_get_named_parameter(info, "max_size"))) {
    if (!duckdb_is_null_value(v)) b->max_size = duckdb_get_uint64(v);
    duckdb_destroy_value(&v);
  }
  if ((v = duckdb_bind_get_named_parameter(info, "filename"))) {
    int rc = 0;
    if (!duckdb_is_null_value(v)) {
      duckdb_logical_type t = duckdb_get_value_type(v);
      duckdb_type id = duckdb_get_type_id(t);
      if (id == DUCKDB_TYPE_BOOLEAN) {
        if (duckdb_get_bool(v) && !(b->filename = strdup("filename"))) rc = -1;
      } else if (id == DUCKDB_TYPE_VARCHAR) {
        char *s = duckdb_get_varchar(v);
        if (!s || !*s || !(b->filename = strdup(s))) rc = -1;
        if (s && !*s) snprintf(msg, cap, "read_jj: filename is an empty name");
        duckdb_free(s);
      } else {
        snprintf(msg, cap, "read_jj: filename is true, false or the name of "
                 "the column");
        rc = -2;
      }
    }
    duckdb_destroy_value(&v);
    if (rc == -1 && !*msg) snprintf(msg, cap, "out of memory");
    if (rc) return -1;
  }
  return 0;
}

/* Read the headers into b->schema; 0, or -1 with a message. */
static int columns(jjd_bind *b, idx_t *rows, char *msg, size_t cap) {
  size_t n = b->union_by_name ? b->files.n : 1;
  uint64_t est = 0;
  if (!(b->schema = jj_schema_new())) {
    snprintf(msg, cap, "out of memory");
    return -1;
  }
  for (size_t i = 0; i < n; i++) {
    int64_t count;
    uint64_t size;
    const char *path = b->files.name[i];
    jj_schema *s = jjd_read_header(path, &count, &size, msg, cap);
    if (!s) return -1;
    int rc = case_twins(s, path, NULL, msg, cap);
    if (rc == 0) rc = union_add(b, s, path, msg, cap);
    jj_schema_free(s);
    if (rc) return -1;
    /* A compressed file holds several times its size in rows; a row of
    ** a typical document is some tens of bytes. */
    uint64_t one = count >= 0 ? (uint64_t)count : size / 32;
    est += b->union_by_name ? one : one * b->files.n;
  }
  *rows = (idx_t)est;
  return 0;
}

void jjd_bind_read_jj(duckdb_bind_info info) {
  char msg[1024] = "";
  idx_t rows = 0;
  jjd_bind *b = calloc(1, sizeof *b);
  if (!b) {
    duckdb_bind_set_error(info, "out of memory");
    return;
  }
  b->parallel = 1;
  b->max_size = JJD_DEFAULT_MAX_SIZE;
  duckdb_value v = duckdb_bind_get_parameter(info, 0);
  char *path = v && !duckdb_is_null_value(v) ? duckdb_get_varchar(v) : NULL;
  if (v) duckdb_destroy_value(&v);
  int rc = -1;
  if (!path)
    snprintf(msg, sizeof msg, "read_jj: the path is NULL");
  else if (options(info, b, msg, sizeof msg) == 0 &&
           jjd_files_expand(&b->files, path, msg, sizeof msg) == 0 &&
           columns(b, &rows, msg, sizeof msg) == 0)
    rc = 0;
  duckdb_free(path);
  if (rc == 0 && b->filename &&
      jjd_find_column(b->schema, b->filename, strlen(b->filename)) >= 0) {
    snprintf(msg, sizeof msg, "read_jj: the files have a column \"%s\" "
             "already; name the filename column otherwise (filename := "
             "'source_file')", b->filename);
    rc = -1;
  }
  size_t n = jj_schema_columns(b->schema);
  for (size_t i = 0; rc == 0 && i < n; i++) {
    duckdb_logical_type t = jjd_logical_type(b->schema, i);
    if (!t) {
      snprintf(msg, sizeof msg, "out of memory");
      rc = -1;
      break;
    }
    duckdb_bind_add_result_column(info, jj_schema_name(b->schema, i, NULL), t);
    duckdb_destroy_logical_type(&t);
  }
  if (rc == 0 && b->filename) {
    duckdb_logical_type t = duckdb_create_logical_type(DUCKDB_TYPE_VARCHAR);
    duckdb_bind_add_result_column(info, b->filename, t);
    duckdb_destroy_logical_type(&t);
  }
  if (rc != 0) {
    duckdb_bind_set_error(info, msg);
    jjd_bind_free(b);
    return;
  }
  duckdb_bind_set_cardinality(info, rows, false);
  duckdb_bind_set_bind_data(info, b, jjd_bind_free);
}
