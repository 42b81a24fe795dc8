/*
** jalapenojson.c — the SQLite extension's entry point: registration only.
**
**   sqlite3
**   .load ./jalapenojson
**
** registers, from the static tables below:
**   jj_open    module: a document as a table (vtab.c)
**   jj_schema  module: a document's columns (schema_vtab.c)
**   jj_group   aggregate: rows -> a document (group.c)
**   jj_write   function: a document -> a file (write.c)
*/
#define JJX_ENTRY_FILE
#include "ext.h"
SQLITE_EXTENSION_INIT1

static const struct {
  const char *name;
  const sqlite3_module *module;
} modules[] = {
    {"jj_open", &jjx_open_module},
    {"jj_schema", &jjx_schema_module},
};

/* jj_group is a pure function of its rows; jj_write touches the file system
** and is SQLITE_DIRECTONLY, so no view, trigger or schema object of an
** untrusted database file can write files through it. */
static const struct {
  const char *name;
  int nargs;
  int flags;
  void (*func)(sqlite3_context *, int, sqlite3_value **);
  void (*step)(sqlite3_context *, int, sqlite3_value **);
  void (*final)(sqlite3_context *);
} functions[] = {
    {"jj_group", -1, SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS,
     NULL, jjx_group_step, jjx_group_final},
    {"jj_write", 2, SQLITE_UTF8 | SQLITE_DIRECTONLY, jjx_write_func, NULL,
     NULL},
};

#ifdef _WIN32
__declspec(dllexport)
#endif
int sqlite3_jalapenojson_init(sqlite3 *db, char **pzErrMsg,
                              const sqlite3_api_routines *pApi) {
  int rc = SQLITE_OK;
  SQLITE_EXTENSION_INIT2(pApi);
  for (size_t i = 0; rc == SQLITE_OK && i < sizeof modules / sizeof *modules;
       i++)
    rc = sqlite3_create_module(db, modules[i].name, modules[i].module, NULL);
  for (size_t i = 0;
       rc == SQLITE_OK && i < sizeof functions / sizeof *functions; i++)
    rc = sqlite3_create_function_v2(db, functions[i].name, functions[i].nargs,
                                    functions[i].flags, NULL, functions[i].func,
                                    functions[i].step, functions[i].final,
                                    NULL);
  if (rc != SQLITE_OK && pzErrMsg)
    *pzErrMsg = sqlite3_mprintf("jalapenojson: registration failed: %s",
                                sqlite3_errstr(rc));
  return rc;
}
