/*
** replacement.c — a table name that is a jalapenojson file read as
** read_jj(name): FROM 'rows.jj', FROM 'rows.jj.gz', FROM 'rows.jj.br' and
** globs of such names.
**
** DuckDB asks every replacement scan about a table name it cannot find;
** this one answers for names ending in .jj, .jj.gz or .jj.br (as DuckDB's
** own readers answer for .csv or .parquet), and leaves every other name to
** the others.  The options then take their defaults; read_jj(...) gives
** them.
*/
#include <string.h>

#include "jjduck.h"

static int ends_with(const char *s, size_t len, const char *tail) {
  size_t n = strlen(tail);
  return len >= n && memcmp(s + len - n, tail, n) == 0;
}

void jjd_replacement(duckdb_replacement_scan_info info, const char *name,
                     void *data) {
  (void)data;
  size_t len = strlen(name);
  if (!ends_with(name, len, ".jj") && !ends_with(name, len, ".jj.gz") &&
      !ends_with(name, len, ".jj.br"))
    return;
  duckdb_value path = duckdb_create_varchar(name);
  duckdb_replacement_scan_set_function_name(info, "read_jj");
  duckdb_replacement_scan_add_parameter(info, path);
  duckdb_destroy_value(&path);
}
