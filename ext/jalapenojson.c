/*
** jalapenojson.c — the SQLite extension's entry point: registration only.
**
**   sqlite3
**   .load ./jalapenojson
**
** registers, from the static tables below:
**   jj_open      module: a document as a table (vtab.c)
**   jj_schema    module: a document's columns (schema_vtab.c)
**   jj_group     aggregate: rows -> a document (group.c)
**   jj_write     function: a document -> a file (write.c)
**   jj_from_json function: JSON -> a document (convert_sql.c)
**   jj_from_csv  function: CSV -> a document (convert_sql.c)
**   jj_export    function: a query's rows streamed to a file (export.c)
**   jj_max_size  function: the connection's size limit (settings.c)
**   jj_cache     module: the connection's document cache (cache.c)
**   jj_cache_size function: its budget (cache.c)
**   jj_version   function: the library's version (version.c)
**
** Each connection gets its own settings (jjx_settings), handed to every
** registration as pAux / user data; each registration holds a reference
** and drops it in its destructor, so there is no global state.
*/
#define JJX_ENTRY_FILE
#include "ext.h"

/* jj_group reads its arguments' subtype (a TEXT that json() or
** json_object() made is a JSON value, build_value.c); SQLite asks a
** function that does so to say it (SQLITE_SUBTYPE, 3.30 on). */
#ifdef SQLITE_SUBTYPE
#define JJX_SUBTYPE SQLITE_SUBTYPE
#else
#define JJX_SUBTYPE 0
#endif
SQLITE_EXTENSION_INIT1

static const struct {
  const char *name;
  const sqlite3_module *module;
} modules[] = {
    {"jj_open", &jjx_open_module},
    {"jj_schema", &jjx_schema_module},
    {"jj_cache", &jjx_cache_module},
    {"jj_rejects", &jjx_rejects_module},
};

/* jj_group is a pure function of its rows, jj_from_json and jj_from_csv
** of their arguments, jj_version of nothing; jj_write and jj_export touch
** the file system (jj_export also runs the query it is given),
** jj_max_size raises what scans may read and jj_cache_size what they
** keep: those are SQLITE_DIRECTONLY, so no view, trigger or schema object
** of an untrusted database file can write files or lift the limit through
** them. */
static const struct {
  const char *name;
  int nargs;
  int flags;
  void (*func)(sqlite3_context *, int, sqlite3_value **);
  void (*step)(sqlite3_context *, int, sqlite3_value **);
  void (*final)(sqlite3_context *);
} functions[] = {
    {"jj_group", -1, SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS | JJX_SUBTYPE,
     NULL, jjx_group_step, jjx_group_final},
    {"jj_from_json", -1, SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS,
     jjx_from_json_func, NULL, NULL},
    {"jj_from_csv", -1, SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS,
     jjx_from_csv_func, NULL, NULL},
    {"jj_write", 2, SQLITE_UTF8 | SQLITE_DIRECTONLY, jjx_write_func, NULL,
     NULL},
    {"jj_export", 2, SQLITE_UTF8 | SQLITE_DIRECTONLY, jjx_export_func, NULL,
     NULL},
    {"jj_export", 3, SQLITE_UTF8 | SQLITE_DIRECTONLY, jjx_export_func, NULL,
     NULL},
    {"jj_max_size", 0, SQLITE_UTF8 | SQLITE_DIRECTONLY, jjx_max_size_func,
     NULL, NULL},
    {"jj_max_size", 1, SQLITE_UTF8 | SQLITE_DIRECTONLY, jjx_max_size_func,
     NULL, NULL},
    {"jj_cache_size", 0, SQLITE_UTF8 | SQLITE_DIRECTONLY,
     jjx_cache_size_func, NULL, NULL},
    {"jj_cache_size", 1, SQLITE_UTF8 | SQLITE_DIRECTONLY,
     jjx_cache_size_func, NULL, NULL},
    {"jj_notes", 0, SQLITE_UTF8, jjx_notes_func, NULL, NULL},
    {"jj_version", 0, SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS,
     jjx_version_func, NULL, NULL},
};

#ifdef _WIN32
__declspec(dllexport)
#endif
int sqlite3_jalapenojson_init(sqlite3 *db, char **pzErrMsg,
                              const sqlite3_api_routines *pApi) {
  int rc = SQLITE_OK;
  SQLITE_EXTENSION_INIT2(pApi);
  jjx_settings *s = jjx_settings_new();
  if (!s) return SQLITE_NOMEM;
  /* SQLite calls the destructor when a registration fails too, so the
  ** reference is taken before every call. */
  for (size_t i = 0; rc == SQLITE_OK && i < sizeof modules / sizeof *modules;
       i++)
    rc = sqlite3_create_module_v2(db, modules[i].name, modules[i].module,
                                  jjx_settings_ref(s), jjx_settings_unref);
  for (size_t i = 0;
       rc == SQLITE_OK && i < sizeof functions / sizeof *functions; i++)
    rc = sqlite3_create_function_v2(
        db, functions[i].name, functions[i].nargs, functions[i].flags,
        jjx_settings_ref(s), functions[i].func, functions[i].step,
        functions[i].final, jjx_settings_unref);
  jjx_settings_unref(s);
  if (rc != SQLITE_OK && pzErrMsg)
    *pzErrMsg = sqlite3_mprintf("jalapenojson: registration failed: %s",
                                sqlite3_errstr(rc));
  return rc;
}
