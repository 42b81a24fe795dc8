/*
** schema_vtab.c — jj_schema(SOURCE): the columns a document declares,
** read from its header only (no row is looked at), so a user can see what
** CREATE VIRTUAL TABLE ... USING jj_open(SOURCE) will declare.
**
**   SELECT * FROM jj_schema('rows.jj');
**     position  INTEGER  1-based column position
**     name      TEXT     the column name
**     type      TEXT     the type letter (i f s d t b x), jj for a nested table
**     sql_type  TEXT     the declared SQL type jj_open gives the column
**     nested    TEXT     a nested table's schema as {"columns":..,"types":..}
**     source    HIDDEN   the SOURCE argument (BLOB, document, file name)
**
** Only the header is read, as when a typed table connects (source.c):
** at most JJX_HEADER_LIMIT bytes of a file or of decompressed data.
**
** An eponymous-only table-valued function (xCreate is NULL).
*/
#include <string.h>

#include "ext.h"

#define COL_POSITION 0
#define COL_NAME 1
#define COL_TYPE 2
#define COL_SQL_TYPE 3
#define COL_NESTED 4
#define COL_SOURCE 5

typedef struct schema_cursor {
  sqlite3_vtab_cursor base; /* base class, first */
  jjx_header src;           /* the header listed */
  const jj_schema *schema;  /* src.schema; NULL: no rows */
  size_t col;               /* current column, 0-based */
} schema_cursor;

static int jjSchemaConnect(sqlite3 *db, void *aux, int argc,
                           const char *const *argv, sqlite3_vtab **ppVtab,
                           char **pzErr) {
  (void)aux;
  (void)argc;
  (void)argv;
  (void)pzErr;
  int rc = sqlite3_declare_vtab(
      db, "CREATE TABLE x(position INTEGER, name TEXT, type TEXT, "
          "sql_type TEXT, nested TEXT, source HIDDEN)");
  if (rc != SQLITE_OK) return rc;
  /* It opens files named in SQL: direct use only, for the reason given in
  ** vtab.c (a hostile schema must not read files through a view). */
  if (sqlite3_libversion_number() >= 3031000) {
    rc = sqlite3_vtab_config(db, SQLITE_VTAB_DIRECTONLY);
    if (rc != SQLITE_OK) return rc;
  }
  sqlite3_vtab *t = sqlite3_malloc(sizeof *t);
  if (!t) return SQLITE_NOMEM;
  memset(t, 0, sizeof *t);
  *ppVtab = t;
  return SQLITE_OK;
}

/* idxNum 1: the SOURCE is argv[0].  Without a usable source = ? the plan
** is refused (SQLITE_CONSTRAINT), or an error if there is none at all. */
/* A plan without the SOURCE is not an error but a prohibitive cost: SQLite
** plans each term of an OR on its own, with only that term's constraints
** (`position = 1 OR position = 3`), and an error there would fail the whole
** statement although the plan with the SOURCE answers it.  If no SOURCE
** was given at all, that plan runs and xFilter says so. */
static int jjSchemaBestIndex(sqlite3_vtab *vtab, sqlite3_index_info *info) {
  int seen = 0;
  (void)vtab;
  for (int i = 0; i < info->nConstraint; i++) {
    const struct sqlite3_index_constraint *c = &info->aConstraint[i];
    if (c->iColumn != COL_SOURCE || c->op != SQLITE_INDEX_CONSTRAINT_EQ)
      continue;
    seen = 1;
    if (!c->usable) continue;
    info->aConstraintUsage[i].argvIndex = 1;
    info->aConstraintUsage[i].omit = 1;
    info->idxNum = 1;
    info->estimatedCost = 10;
    info->estimatedRows = 10;
    return SQLITE_OK;
  }
  if (seen) return SQLITE_CONSTRAINT;
  info->idxNum = 0;
  info->estimatedCost = 1e300;
  info->estimatedRows = (sqlite3_int64)1 << 62;
  return SQLITE_OK;
}

static int jjSchemaDisconnect(sqlite3_vtab *vtab) {
  sqlite3_free(vtab->zErrMsg);
  sqlite3_free(vtab);
  return SQLITE_OK;
}

static int jjSchemaOpen(sqlite3_vtab *vtab, sqlite3_vtab_cursor **ppCur) {
  (void)vtab;
  schema_cursor *c = sqlite3_malloc(sizeof *c);
  if (!c) return SQLITE_NOMEM;
  memset(c, 0, sizeof *c);
  *ppCur = &c->base;
  return SQLITE_OK;
}

static int jjSchemaClose(sqlite3_vtab_cursor *cur) {
  schema_cursor *c = (schema_cursor *)cur;
  jjx_header_free(&c->src);
  sqlite3_free(c);
  return SQLITE_OK;
}

/* Read the SOURCE's header only. */
static int jjSchemaFilter(sqlite3_vtab_cursor *cur, int idxNum,
                          const char *idxStr, int argc, sqlite3_value **argv) {
  schema_cursor *c = (schema_cursor *)cur;
  char *msg = NULL;
  (void)idxStr;
  jjx_header_free(&c->src);
  c->schema = NULL;
  c->col = 0;
  if (idxNum != 1 || argc < 1)
    return jjx_vtab_err(cur->pVtab,
                        "jj_schema: no SOURCE given: use jj_schema(SOURCE)");
  int rc = jjx_header_value(&c->src, argv[0], &msg);
  if (rc != SQLITE_OK) return jjx_vtab_take(cur->pVtab, msg, rc);
  c->schema = c->src.schema;
  return SQLITE_OK;
}

static int jjSchemaNext(sqlite3_vtab_cursor *cur) {
  ((schema_cursor *)cur)->col++;
  return SQLITE_OK;
}

static int jjSchemaEof(sqlite3_vtab_cursor *cur) {
  schema_cursor *c = (schema_cursor *)cur;
  return !c->schema || c->col >= jj_schema_columns(c->schema);
}

static int jjSchemaColumn(sqlite3_vtab_cursor *cur, sqlite3_context *ctx,
                          int i) {
  schema_cursor *c = (schema_cursor *)cur;
  jj_type t = jj_schema_type(c->schema, c->col);
  switch (i) {
    case COL_POSITION:
      sqlite3_result_int64(ctx, (sqlite3_int64)c->col + 1);
      break;
    case COL_NAME: {
      size_t len;
      const char *name = jj_schema_name(c->schema, c->col, &len);
      sqlite3_result_text64(ctx, name, len, SQLITE_TRANSIENT, SQLITE_UTF8);
      break;
    }
    case COL_TYPE:
      sqlite3_result_text(ctx, jj_type_short(t), -1, SQLITE_STATIC);
      break;
    case COL_SQL_TYPE:
      sqlite3_result_text(ctx, jj_type_sql(t), -1, SQLITE_STATIC);
      break;
    case COL_NESTED:
      if (t == JJ_TABLE) {
        size_t len;
        char *json = jj_schema_to_json(jj_schema_table(c->schema, c->col),
                                       &len);
        if (!json) return SQLITE_NOMEM;
        sqlite3_result_text64(ctx, json, len, jj_free, SQLITE_UTF8);
      }
      break;
    default: /* the hidden source: the file name, as jj_open does */
      if (c->src.is_file)
        sqlite3_result_text(ctx, c->src.label, -1, SQLITE_TRANSIENT);
      break;
  }
  return SQLITE_OK;
}

static int jjSchemaRowid(sqlite3_vtab_cursor *cur, sqlite3_int64 *pRowid) {
  *pRowid = (sqlite3_int64)((schema_cursor *)cur)->col + 1;
  return SQLITE_OK;
}

const sqlite3_module jjx_schema_module = {
    0,                  /* iVersion */
    NULL,               /* xCreate: NULL makes it eponymous-only */
    jjSchemaConnect,    /* xConnect */
    jjSchemaBestIndex,  /* xBestIndex */
    jjSchemaDisconnect, /* xDisconnect */
    NULL,               /* xDestroy */
    jjSchemaOpen,       /* xOpen */
    jjSchemaClose,      /* xClose */
    jjSchemaFilter,     /* xFilter */
    jjSchemaNext,       /* xNext */
    jjSchemaEof,        /* xEof */
    jjSchemaColumn,     /* xColumn */
    jjSchemaRowid,      /* xRowid */
    NULL,               /* xUpdate */
    NULL,               /* xBegin */
    NULL,               /* xSync */
    NULL,               /* xCommit */
    NULL,               /* xRollback */
    NULL,               /* xFindFunction */
    NULL,               /* xRename */
    NULL,               /* xSavepoint */
    NULL,               /* xRelease */
    NULL,               /* xRollbackTo */
    NULL                /* xShadowName */
};
