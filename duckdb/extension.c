/*
** extension.c — the DuckDB extension's entry point: registration only.
**
**   LOAD 'build/jalapenojson.duckdb_extension';
**   SELECT * FROM read_jj('rows.jj');
**   SELECT count(*) FROM 'rows.jj.gz';
**
** DuckDB finds jalapenojson_init_c_api (the file's name before its first
** dot, then _init_c_api) and calls it with the API table of the version
** asked for, 1.2.0 (jjduck.h): the DUCKDB_EXTENSION_ENTRYPOINT macro fetches
** the table into duckdb_ext_api, the one definition of it, and opens a
** connection for the registration below.
*/
#define DUCKDB_EXTENSION_NAME jalapenojson
#include "jjduck.h"

/* read_jj(path [, union_by_name, filename, max_size, parallel]). */
static int register_read_jj(duckdb_connection con) {
  duckdb_table_function f = duckdb_create_table_function();
  duckdb_logical_type varchar = duckdb_create_logical_type(DUCKDB_TYPE_VARCHAR);
  duckdb_logical_type boolean = duckdb_create_logical_type(DUCKDB_TYPE_BOOLEAN);
  duckdb_logical_type ubigint = duckdb_create_logical_type(DUCKDB_TYPE_UBIGINT);
  /* filename is true/false or the column's name, as read_csv's is. */
  duckdb_logical_type any = duckdb_create_logical_type(DUCKDB_TYPE_ANY);
  duckdb_table_function_set_name(f, "read_jj");
  duckdb_table_function_add_parameter(f, varchar);
  duckdb_table_function_add_named_parameter(f, "union_by_name", boolean);
  duckdb_table_function_add_named_parameter(f, "filename", any);
  duckdb_table_function_add_named_parameter(f, "max_size", ubigint);
  duckdb_table_function_add_named_parameter(f, "parallel", boolean);
  duckdb_table_function_set_bind(f, jjd_bind_read_jj);
  duckdb_table_function_set_init(f, jjd_init_global);
  duckdb_table_function_set_local_init(f, jjd_init_local);
  duckdb_table_function_set_function(f, jjd_scan);
  duckdb_table_function_supports_projection_pushdown(f, true);
  duckdb_state rc = duckdb_register_table_function(con, f);
  duckdb_destroy_logical_type(&varchar);
  duckdb_destroy_logical_type(&boolean);
  duckdb_destroy_logical_type(&ubigint);
  duckdb_destroy_logical_type(&any);
  duckdb_destroy_table_function(&f);
  return rc == DuckDBSuccess;
}

DUCKDB_EXTENSION_ENTRYPOINT(duckdb_connection con, duckdb_extension_info info,
                            struct duckdb_extension_access *access) {
  if (!register_read_jj(con)) {
    access->set_error(info, "jalapenojson: read_jj could not be registered");
    return false;
  }
  duckdb_database *db = access->get_database(info);
  duckdb_add_replacement_scan(*db, jjd_replacement, NULL, NULL);
  return true;
}
