/*
** schema_vtab.c — jj_schema(SOURCE): the columns a document declares,
** read from its header only (no row is looked at), so a user can see what
** CREATE VIRTUAL TABLE ... USING jj_open(SOURCE) will declare.
**
**   SELECT * FROM jj_schema('rows.jj');
**     position  INTEGER  1-based column position
**     name      TEXT     the column name
**     type      TEXT     the type letter (i f s d t l b x), jj for a nested table
**     sql_type  TEXT     the declared SQL type jj_open gives the column
**     nested    TEXT     a nested table's schema as {"columns":..,"types":..}
**     note      TEXT     a JSON or CSV file: the converter's decisions
**                        about this column (a line each), else NULL
**     source    HIDDEN   the SOURCE argument (BLOB, document, file name)
**     options   HIDDEN   'union_by_name=1': a glob's union of columns; the
**                        converter's options ('on_error=skip, null=NA')
**     notes     HIDDEN   a JSON or CSV file: every decision the converter
**                        took (those about no one column too: the
**                        delimiter detected, rows set aside), a line each
**
**   SELECT * FROM jj_schema('log-*.jj', 'union_by_name=1');
**     what CREATE VIRTUAL TABLE ... USING jj_open('log-*.jj',
**     union_by_name=1) declares: every file's header read and merged
**
** Only the header is read, as when a typed table connects (source.c):
** at most JJX_HEADER_LIMIT bytes of a file or of decompressed data, of
** each file with union_by_name.  A JSON or CSV file is converted whole
** (with the converter's options given) and kept in the cache, as CREATE
** does; its decisions are those of that conversion.
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
#define COL_NOTE 5
#define COL_SOURCE 6
#define COL_OPTIONS 7
#define COL_NOTES 8

/* The table: its connection, whose progress handler a glob's headers
** tick. */
typedef struct schema_table {
  sqlite3_vtab base; /* base class, first */
  sqlite3 *db;
  jjx_settings *cfg; /* the connection's: a JSON or CSV file's limit, cache */
} schema_table;

typedef struct schema_cursor {
  sqlite3_vtab_cursor base; /* base class, first */
  jjx_header src;           /* the header listed */
  char *options;            /* the OPTIONS given, or NULL; sqlite3_free */
  const jj_schema *schema;  /* src.schema; NULL: no rows */
  size_t col;               /* current column, 0-based */
} schema_cursor;

static int jjSchemaConnect(sqlite3 *db, void *aux, int argc,
                           const char *const *argv, sqlite3_vtab **ppVtab,
                           char **pzErr) {
  (void)argc;
  (void)argv;
  (void)pzErr;
  int rc = sqlite3_declare_vtab(
      db, "CREATE TABLE x(position INTEGER, name TEXT, type TEXT, "
          "sql_type TEXT, nested TEXT, note TEXT, source HIDDEN, "
          "options HIDDEN, notes HIDDEN)");
  if (rc != SQLITE_OK) return rc;
  /* It opens files named in SQL: direct use only, for the reason given in
  ** vtab.c (a hostile schema must not read files through a view). */
  if (sqlite3_libversion_number() >= 3031000) {
    rc = sqlite3_vtab_config(db, SQLITE_VTAB_DIRECTONLY);
    if (rc != SQLITE_OK) return rc;
  }
  schema_table *t = sqlite3_malloc(sizeof *t);
  if (!t) return SQLITE_NOMEM;
  memset(t, 0, sizeof *t);
  t->db = db;
  t->cfg = aux;
  *ppVtab = &t->base;
  return SQLITE_OK;
}

/* idxNum bit 1: the SOURCE is argv[0]; bit 2: the OPTIONS follow it.
** Without a usable source = ? the plan is refused (SQLITE_CONSTRAINT), or
** an error if there is none at all; an unusable options = ? refuses it
** too (the plan would read without them). */
/* A plan without the SOURCE is not an error but a prohibitive cost: SQLite
** plans each term of an OR on its own, with only that term's constraints
** (`position = 1 OR position = 3`), and an error there would fail the whole
** statement although the plan with the SOURCE answers it.  If no SOURCE
** was given at all, that plan runs and xFilter says so. */
static int jjSchemaBestIndex(sqlite3_vtab *vtab, sqlite3_index_info *info) {
  int seen = 0, isrc = -1, iopt = -1, unusable_opt = 0;
  (void)vtab;
  for (int i = 0; i < info->nConstraint; i++) {
    const struct sqlite3_index_constraint *c = &info->aConstraint[i];
    if (c->op != SQLITE_INDEX_CONSTRAINT_EQ) continue;
    if (c->iColumn == COL_OPTIONS) {
      if (!c->usable) unusable_opt = 1;
      else if (iopt < 0) iopt = i;
      continue;
    }
    if (c->iColumn != COL_SOURCE) continue;
    seen = 1;
    if (c->usable && isrc < 0) isrc = i;
  }
  if (isrc >= 0) {
    if (unusable_opt && iopt < 0) return SQLITE_CONSTRAINT;
    info->aConstraintUsage[isrc].argvIndex = 1;
    info->aConstraintUsage[isrc].omit = 1;
    info->idxNum = 1;
    if (iopt >= 0) {
      info->aConstraintUsage[iopt].argvIndex = 2;
      info->aConstraintUsage[iopt].omit = 1;
      info->idxNum |= 2;
    }
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

static int jjSchemaOpen(sqlite3_vtab *vtab, sqlite3_vtab_cursor **ppCur) {
  (void)vtab;
  return jjx_cursor_new(sizeof(schema_cursor), ppCur);
}

static int jjSchemaClose(sqlite3_vtab_cursor *cur) {
  schema_cursor *c = (schema_cursor *)cur;
  jjx_header_free(&c->src);
  sqlite3_free(c->options);
  sqlite3_free(c);
  return SQLITE_OK;
}

/* Read the SOURCE's header only. */
static int jjSchemaFilter(sqlite3_vtab_cursor *cur, int idxNum,
                          const char *idxStr, int argc, sqlite3_value **argv) {
  schema_cursor *c = (schema_cursor *)cur;
  jjx_options o;
  char *msg = NULL;
  int rc;
  (void)idxStr;
  jjx_header_free(&c->src);
  sqlite3_free(c->options);
  c->options = NULL;
  c->schema = NULL;
  c->col = 0;
  memset(&o, 0, sizeof o);
  if (!(idxNum & 1) || argc < 1)
    return jjx_vtab_err(cur->pVtab,
                        "jj_schema: no SOURCE given: use jj_schema(SOURCE)");
  if ((idxNum & 2) && argc > 1 &&
      sqlite3_value_type(argv[1]) != SQLITE_NULL) {
    const char *text = (const char *)sqlite3_value_text(argv[1]);
    if (!text) return SQLITE_NOMEM;
    rc = jjx_parse_option_text("jj_schema", text, &o, &msg);
    if (rc == SQLITE_OK && !(c->options = sqlite3_mprintf("%s", text)))
      rc = SQLITE_NOMEM;
    if (rc != SQLITE_OK) {
      jjx_copts_free(&o.conv);
      return msg ? jjx_vtab_take(cur->pVtab, msg, rc) : rc;
    }
  }
  schema_table *t = (schema_table *)cur->pVtab;
  rc = jjx_header_value(&c->src, argv[0], o.union_by_name, &o.conv, t->db,
                        t->cfg, &msg);
  jjx_copts_free(&o.conv);
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

/* The converter's decisions about the current column: the lines of the
** notes that start with 'column "name":' (or 'column "name".' for a
** nested table's column), the name shown as the core shows it (jjx_show
** shows it alike: quoted, escaped, cut after 40 bytes).  NULL: none. */
static int column_note(schema_cursor *c, sqlite3_context *ctx) {
  const char *p = c->src.notes;
  if (!p) return SQLITE_OK;
  size_t len;
  const char *name = jj_schema_name(c->schema, c->col, &len);
  sqlite3_str *pre = sqlite3_str_new(NULL), *out = sqlite3_str_new(NULL);
  sqlite3_str_appendall(pre, "column ");
  jjx_show(pre, name, len);
  int plen = sqlite3_str_length(pre), n = 0;
  const char *want = sqlite3_str_value(pre);
  while (want && *p) {
    const char *end = strchr(p, '\n');
    size_t l = end ? (size_t)(end - p) : strlen(p);
    if (l > (size_t)plen && memcmp(p, want, (size_t)plen) == 0 &&
        (p[plen] == ':' || p[plen] == '.')) {
      if (n++) sqlite3_str_appendchar(out, 1, '\n');
      sqlite3_str_append(out, p, (int)l);
    }
    p = end ? end + 1 : p + l;
  }
  int bad = sqlite3_str_errcode(pre) || sqlite3_str_errcode(out);
  sqlite3_free(sqlite3_str_finish(pre));
  char *text = sqlite3_str_finish(out);
  if (bad || (n && !text)) {
    sqlite3_free(text);
    return SQLITE_NOMEM;
  }
  if (n)
    sqlite3_result_text(ctx, text, -1, sqlite3_free);
  else
    sqlite3_free(text);
  return SQLITE_OK;
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
    case COL_OPTIONS:
      if (c->options)
        sqlite3_result_text(ctx, c->options, -1, SQLITE_TRANSIENT);
      break;
    case COL_NOTES:
      if (c->src.notes)
        sqlite3_result_text(ctx, c->src.notes, -1, SQLITE_TRANSIENT);
      break;
    case COL_NOTE:
      return column_note(c, ctx);
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
    0,                   /* iVersion */
    NULL,                /* xCreate: NULL makes it eponymous-only */
    jjSchemaConnect,     /* xConnect */
    jjSchemaBestIndex,   /* xBestIndex */
    jjx_vtab_disconnect, /* xDisconnect */
    NULL,                /* xDestroy */
    jjSchemaOpen,        /* xOpen */
    jjSchemaClose,       /* xClose */
    jjSchemaFilter,      /* xFilter */
    jjSchemaNext,        /* xNext */
    jjSchemaEof,         /* xEof */
    jjSchemaColumn,      /* xColumn */
    jjSchemaRowid,       /* xRowid */
    NULL,                /* xUpdate */
    NULL,                /* xBegin */
    NULL,                /* xSync */
    NULL,                /* xCommit */
    NULL,                /* xRollback */
    NULL,                /* xFindFunction */
    NULL,                /* xRename */
    NULL,                /* xSavepoint */
    NULL,                /* xRelease */
    NULL,                /* xRollbackTo */
    NULL                /* xShadowName */
};
