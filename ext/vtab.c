/*
** vtab.c — the jj_open module: a jalapenojson document read as a table.
**
** One module, two forms (zipfile.c's xConnect serves both the same way):
**
**   SELECT row, record FROM jj_open(SOURCE [, OPTIONS]);
**       The eponymous form, no CREATE needed.  SQLite fixes a table-valued
**       function's columns when the module connects, before the argument is
**       known, so this form has fixed columns:
**         row     INTEGER  the 1-based row number (also the rowid)
**         record  TEXT     the row as a JSON object keyed by column name
**         source  HIDDEN   the SOURCE argument
**         options HIDDEN   'union_by_name=1': a glob's files may differ in
**                          columns (union.c)
**         filename HIDDEN  the file the row comes from (NULL: not a file)
**
**   CREATE VIRTUAL TABLE temp.rows USING jj_open(SOURCE [, key=value ...]);
**   SELECT * FROM rows WHERE rowid = 1042;
**   SELECT * FROM rows('rows-2024-02.jj');
**       The typed form.  Connecting reads the document's header only, so
**       the table has the document's columns with their declared SQL types
**       (jj_type_sql) and the rowid is the 1-based row number.  The
**       document itself is read by the first scan and stays open, shared
**       by all cursors.  A hidden column `source` (source_2, ... if the
**       document has a column of that name) makes the table a table-valued
**       function over other SOURCEs of the same shape.
**
** Connecting is bounded whatever the arguments say, because SQLite also
** connects tables declared in a database file someone else wrote (for
** .schema, PRAGMA table_info, a view): at most the header is read (source.c,
** JJX_HEADER_LIMIT bytes), from a regular file only, and a glob is
** expanded within its bounds (glob_walk.c).  A table of a database's
** schema that cannot be declared fails with a message naming only its
** SOURCE as written (quiet, below).  Reading the document is a scan,
** which SQLITE_VTAB_DIRECTONLY keeps from views and triggers.
**
** The declared file at each scan: a scan that finds no other cursor of the
** table reading the document checks the file (jj_file_changed) and reads
** it again if it changed, requiring the same columns and types; while
** another cursor still reads, the scan shares its bytes.  So a statement
** sees the file as it was when its first scan of the table began, never a
** mix, and never other columns under the declared ones.
**
** Globs: a SOURCE file name with an unescaped * ? or [ (glob.c) reads
** every regular file it matches, in strcmp order, one after another, each
** through the connection's cache (cache.c); `row` and the rowid count from
** 1 in each file, the hidden filename column says which file.  Every file
** must have the columns of the first one read (the record form) or the
** declared ones (a typed table, declared from the first file's header),
** unless union_by_name says otherwise (union.c: a typed table then declares
** the union of every file's header, and xColumn below reads each table
** column from where the file has it, NULL where it has none).  filename
** constraints (plan.c) skip files without opening them.  The scan itself,
** moving over rows and files and checking each document's columns, is
** scan.c's.
**
** Options of the typed form: typed.c (the CREATE's SOURCE argument:
** decl.c).  SOURCE is resolved by source.c
** (BLOB, document TEXT, file name, NULL).  Values come from the core's
** cursor, which checks each value as it is read and converts nothing that
** is not read.
**
** This file is the module's top: SQLite calls its methods (the entry point
** registers jjx_open_module) and they call the parts below, none of which
** calls back up: column.c (xColumn, xRowid), scan.c (moving over rows and
** files), plan.c (xBestIndex), pushdown.c (the WHERE filter xFilter sets
** up), decl.c and typed.c (connecting), source.c (closing documents).
** They share open_table.h: the table, the cursor, the rowid's layout.
*/
#include <stdlib.h>
#include <string.h>

#include "ext.h"
#include "open_table.h"
#include "plan.h"
#include "pushdown.h"


/* ---------------------------------------------------------------------- */
/* Methods, in sqlite3_module slot order                                   */
/* ---------------------------------------------------------------------- */

static int jjOpenDisconnect(sqlite3_vtab *vtab);

/* 1 when sql, after white space and comments, is CREATE VIRTUAL TABLE
** and names `name` before its USING (ASCII case ignored). */
static int creates(const char *sql, const char *name) {
  static const char *const words[] = {"CREATE", "VIRTUAL", "TABLE"};
  const char *p = sql;
  for (int w = 0; w < 3; w++) {
    for (;;) { /* white space and comments before each word */
      while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r' ||
             *p == '\f')
        p++;
      if (p[0] == '-' && p[1] == '-') {
        p = strchr(p, '\n');
        if (!p) return 0;
      } else if (p[0] == '/' && p[1] == '*') {
        p = strstr(p + 2, "*/");
        if (!p) return 0;
        p += 2;
      } else {
        break;
      }
    }
    size_t n = strlen(words[w]);
    if (sqlite3_strnicmp(p, words[w], (int)n) != 0) return 0;
    p += n;
  }
  size_t len = strlen(name);
  for (; *p && sqlite3_strnicmp(p, "USING", 5) != 0; p++)
    if (sqlite3_strnicmp(p, name, (int)len) == 0) return 1;
  return 0;
}

/* 0 when SQLite calls this to run the user's CREATE VIRTUAL TABLE
** (xCreate), 1 when it connects a table read from a database's schema
** (xConnect).  The module's xCreate must be its xConnect (else it is no
** eponymous table-valued function), so they are told apart by what is
** running: xCreate runs only while the CREATE statement steps, a table of
** the schema is connected while a statement using it is prepared, when
** no running statement of the connection creates a table of its name.
** A mistake can only make a message of the user's own table shorter. */
static int connecting_schema(sqlite3 *db, const char *name) {
  for (sqlite3_stmt *st = sqlite3_next_stmt(db, NULL); st;
       st = sqlite3_next_stmt(db, st)) {
    const char *sql = sqlite3_stmt_busy(st) ? sqlite3_sql(st) : NULL;
    if (sql && creates(sql, name)) return 0;
  }
  return 1;
}

/* The message of a typed table of a database's schema that cannot be
** declared: only what the schema says (its name, its SOURCE as written),
** never which files a glob matched nor what a file holds, which the
** detailed message may quote; the user's own CREATE, or jj_schema, gets
** that one.  Interrupts and out of memory stay what they are. */
static int quiet(const jjx_table *t, const char *name, int rc,
                 char **pzErr) {
  if (rc == SQLITE_NOMEM || rc == SQLITE_INTERRUPT) return rc;
  sqlite3_free(*pzErr);
  *pzErr = sqlite3_mprintf(
      "%s: cannot declare the table \"%s\" of the database's schema from "
      "it (the reason is told only to a CREATE VIRTUAL TABLE or jj_schema "
      "that you run: it may name the files found and quote them)",
      t->decl.kind == JJX_DECL_PATH ? t->decl.label : "its SOURCE", name);
  return *pzErr ? SQLITE_ERROR : SQLITE_NOMEM;
}

/* Declare the typed table from its SOURCE's header (argv[3]) and options
** (argv[4..]).  Reads at most the header; the document waits for a scan.
** from_schema: the table is a database schema's, not the user's CREATE. */
static int connect_typed(sqlite3 *db, jjx_table *t, int argc,
                         const char *const *argv, int from_schema,
                         char **decl, char **pzErr) {
  jjx_header h;
  size_t n = strlen(argv[3]);
  const char *arg = jjx_trim(argv[3], &n);
  if (n && arg[0] != '\'' && arg[0] != '"' && memchr(arg, '=', n)) {
    *pzErr = sqlite3_mprintf(
        "jj_open: the first argument must be SOURCE, not \"%.*s\"", (int)n,
        arg);
    return SQLITE_ERROR;
  }
  int rc = jjx_parse_options(argc - 4, argv + 4, &t->opt, pzErr);
  if (rc == SQLITE_OK) rc = jjx_decl_parse(&t->decl, arg, n, pzErr);
  if (rc != SQLITE_OK) return rc; /* quoting the schema's own text */
  rc = jjx_header_decl(&h, &t->decl, t->opt.union_by_name, &t->opt.glob,
                       &t->opt.conv, db, t->cfg, pzErr);
  if (rc != SQLITE_OK) return from_schema ? quiet(t, argv[2], rc, pzErr) : rc;
  t->typed = 1;
  t->declared = h.schema; /* the table owns it now, and the union */
  h.schema = NULL;
  t->uni = h.uni;
  memset(&h.uni, 0, sizeof h.uni);
  t->schema = t->declared;
  t->ncol = (int)jj_schema_columns(t->schema);
  for (int i = 0; i < t->ncol && i < 64 && !t->opt.union_by_name; i++)
    if (jj_schema_type(t->schema, (size_t)i) == JJ_DATE)
      t->date_cols |= (uint64_t)1 << i;
  t->glob = t->decl.glob;
  t->est_rows = h.est_rows;
  jjx_header_free(&h);
  *decl = jjx_declaration(t->decl.label, t->schema,
                          sqlite3_limit(db, SQLITE_LIMIT_COLUMN, -1), pzErr);
  if (!*decl && *pzErr && from_schema)
    return quiet(t, argv[2], SQLITE_ERROR, pzErr);
  if (!*decl) return *pzErr ? SQLITE_ERROR : SQLITE_NOMEM;
  return SQLITE_OK;
}

/* xCreate and xConnect (the same function, which makes the module usable
** as an eponymous table-valued function; both are bounded, and a table of
** a database's schema gets short messages: connecting_schema).  argc == 3:
** the record form; argv[3] = SOURCE, argv[4..] = options: the typed form. */
static int jjOpenConnect(sqlite3 *db, void *aux, int argc,
                         const char *const *argv, sqlite3_vtab **ppVtab,
                         char **pzErr) {
  char *decl = NULL;
  int rc = SQLITE_OK;
  *ppVtab = NULL;
  jjx_table *t = sqlite3_malloc(sizeof *t);
  if (!t) return SQLITE_NOMEM;
  memset(t, 0, sizeof *t);
  t->db = db;
  t->cfg = aux;
  if (argc > 3) {
    rc = connect_typed(db, t, argc, argv, connecting_schema(db, argv[2]),
                       &decl, pzErr);
    if (rc != SQLITE_OK) goto fail;
  }
  rc = sqlite3_declare_vtab(
      db, decl ? decl : "CREATE TABLE x(row INTEGER, record TEXT, "
                        "source HIDDEN, options HIDDEN, filename HIDDEN)");
  sqlite3_free(decl);
  if (rc != SQLITE_OK) {
    *pzErr = sqlite3_mprintf("jj_open: %s", sqlite3_errmsg(db));
    goto fail;
  }
  /* The table reads files named by its argument or by SQL text.  Marked
  ** direct-only, it cannot be used from a view or trigger, so a hostile
  ** database schema cannot make a query read a file the user did not name
  ** (the reason csv.c gives for the same flag).  SQLITE_VTAB_DIRECTONLY
  ** exists since SQLite 3.31; older hosts keep the default. */
  if (sqlite3_libversion_number() >= 3031000) {
    rc = sqlite3_vtab_config(db, SQLITE_VTAB_DIRECTONLY);
    if (rc != SQLITE_OK) goto fail;
  }
  *ppVtab = &t->base;
  return SQLITE_OK;
fail:
  jjOpenDisconnect(&t->base);
  return rc;
}

/* 1 when the connection keeps text as UTF-8 (PRAGMA encoding; every
** database of a connection has the main one's).  Asked once per table, at
** its first plan with a constraint on a text, date or timestamp column
** (a statement the table prepares: an application's trace hook sees it);
** a PRAGMA that cannot run (an authorizer refusing it)
** counts as not UTF-8, which only declines text comparisons. */
static int db_is_utf8(sqlite3 *db) {
  sqlite3_stmt *st = NULL;
  int yes = 0;
  if (sqlite3_prepare_v2(db, "PRAGMA encoding", -1, &st, NULL) == SQLITE_OK &&
      sqlite3_step(st) == SQLITE_ROW) {
    const char *e = (const char *)sqlite3_column_text(st, 0);
    yes = e && strcmp(e, "UTF-8") == 0;
  }
  sqlite3_finalize(st);
  return yes;
}

/* xBestIndex: plan.c, which knows only the form, the column count, the
** estimated rows and, for comparisons it may take, the columns' types. */
static int jjOpenBestIndex(sqlite3_vtab *vtab, sqlite3_index_info *info) {
  jjx_table *t = (jjx_table *)vtab;
  /* WHERE comparisons (pushdown.c): the typed table's, unless
  ** union_by_name (a file's column i may be another table column) */
  const jj_schema *push = t->typed && !t->opt.union_by_name ? t->schema : NULL;
  for (int i = 0; push && t->text_ok == 0 && i < info->nConstraint; i++) {
    int col = info->aConstraint[i].iColumn; /* text compared: ask once */
    jj_type type = col >= 0 && col < t->ncol
                       ? jj_schema_type(push, (size_t)col)
                       : JJ_TABLE;
    if (type == JJ_TEXT || type == JJ_DATE || type == JJ_TIMESTAMP ||
        type == JJ_LOCAL_TIMESTAMP)
      t->text_ok = db_is_utf8(t->db) ? 1 : -1;
  }
  return jjx_open_plan(info, t->typed, t->ncol, t->est_rows, t->glob, push,
                       t->text_ok > 0);
}

/* xDisconnect and xDestroy: the table owns its document. */
static int jjOpenDisconnect(sqlite3_vtab *vtab) {
  jjx_table *t = (jjx_table *)vtab;
  jjx_source_close(&t->src);
  jjx_decl_free(&t->decl);
  jjx_copts_free(&t->opt.conv);
  jj_schema_free(t->declared);
  jjx_union_free(&t->uni);
  sqlite3_free(t->base.zErrMsg);
  sqlite3_free(t);
  return SQLITE_OK;
}

static int jjOpenOpen(sqlite3_vtab *vtab, sqlite3_vtab_cursor **ppCur) {
  jjx_cursor *c = sqlite3_malloc(sizeof *c);
  if (!c) return SQLITE_NOMEM;
  memset(c, 0, sizeof *c);
  c->eof = 1;
  jjx_poll_begin(&c->poll, ((jjx_table *)vtab)->db);
  *ppCur = &c->base;
  return SQLITE_OK;
}

/* Release what one scan holds (not the reusable buffer). */
static void cursor_reset(jjx_cursor *c) {
  jj_cursor_free(c->cur);
  c->cur = NULL;
  jjx_source_close(&c->own);
  sqlite3_free(c->rows);
  c->rows = NULL;
  c->nrows = c->irow = 0;
  c->list = 0;
  c->eof = 1;
  c->remaining = -1;
  c->label = NULL;
  c->is_file = 0;
  jjx_files_free(&c->files);
  c->multi = c->declared = c->by_rowid = 0;
  c->file_index = 0;
  c->rec_row = 0;
  c->remap = c->union_by_name = 0;
  jjx_filter_free(&c->filter);
  c->rows_only = 0;
  c->reads = 0;
  c->ahead = 0;
  jjx_union_free(&c->runi);
  sqlite3_free(c->options);
  c->options = NULL;
  jjx_copts_free(&c->ropt.conv);
  memset(&c->ropt, 0, sizeof c->ropt);
}

static int jjOpenClose(sqlite3_vtab_cursor *cur) {
  jjx_cursor *c = (jjx_cursor *)cur;
  jjx_table *t = (jjx_table *)cur->pVtab;
  if (c->reads_table) t->readers--;
  if (t->rec_last == c) t->rec_last = NULL;
  for (int i = 0; i < JJX_RECORD_SLOTS; i++) sqlite3_finalize(c->rec_fb[i]);
  cursor_reset(c);
  jjx_buf_free(&c->buf);
  jjx_buf_free(&c->text);
  sqlite3_free(c->umap);
  jjx_poll_end(&c->poll); /* before the statement ends: see jjx_poll */
  sqlite3_free(c);
  return SQLITE_OK;
}

/* The record form's OPTIONS (jj_open(SOURCE, OPTIONS)): union_by_name and
** the converter's options (kept by the cursor for this scan's files). */
static int record_options(jjx_cursor *c, sqlite3_value *v) {
  char *msg = NULL;
  const char *text = (const char *)sqlite3_value_text(v);
  if (!text) return SQLITE_NOMEM;
  int rc = jjx_parse_option_text("jj_open", text, &c->ropt, &msg);
  if (rc != SQLITE_OK) return msg ? jjx_vtab_take(c->base.pVtab, msg, rc) : rc;
  c->union_by_name = c->ropt.union_by_name;
  c->options = sqlite3_mprintf("%s", text);
  return c->options ? SQLITE_OK : SQLITE_NOMEM;
}

/* Start a scan: take the plan's arguments, open the SOURCE (or the first
** file of a pattern), then position on the first wanted row. */
/* Move to the next wanted row, or to eof (the next file of a glob).  A
** row that a scan reading no value (rows_only) has checked ahead (scan.c's
** rows_only_step, c->ahead) is handed out here, with no call: count(*)
** over 50,000 high-entropy rows, callgrind, 36 instructions a row in the
** call -> 5.  Such a scan has no rowid list and no WHERE filter (plan.c),
** so nothing else applies to it; the other rows are jjx_scan_step's
** (scan.c). */
static inline int jjx_scan_advance(jjx_cursor *c) {
  if (c->ahead > 0 && c->rows_only && c->remaining != 0) {
    c->ahead--;
    if (c->remaining > 0) c->remaining--;
    return SQLITE_OK;
  }
  return jjx_scan_step(c);
}

static int jjOpenFilter(sqlite3_vtab_cursor *cur, int idxNum,
                        const char *idxStr, int argc, sqlite3_value **argv) {
  static const int fname_ops[3] = {SQLITE_INDEX_CONSTRAINT_EQ,
                                   SQLITE_INDEX_CONSTRAINT_LIKE,
                                   SQLITE_INDEX_CONSTRAINT_GLOB};
  jjx_cursor *c = (jjx_cursor *)cur;
  jjx_table *t = (jjx_table *)cur->pVtab;
  sqlite3_value *source = NULL, *options = NULL, *row = NULL, *list = NULL;
  jj_error err;
  int i = 0, rc;
  int64_t offset = 0;
  cursor_reset(c);
  if (!t->typed && !(idxNum & IDX_SOURCE)) /* xBestIndex: no SOURCE */
    return jjx_vtab_err(cur->pVtab, "jj_open: no SOURCE given: use "
                                    "jj_open(SOURCE), or CREATE VIRTUAL "
                                    "TABLE ... USING jj_open(SOURCE)");
  c->by_rowid = !(idxNum & IDX_BY_ROW);
  c->rows_only = (idxNum & IDX_ROWS_ONLY) != 0;
  c->reads = jjx_plan_reads(idxStr);
  c->remap = !t->typed; /* the record form's options column */
  if (idxNum & IDX_SOURCE) source = argv[i++];
  if (idxNum & IDX_OPTIONS) options = argv[i++];
  if (options && sqlite3_value_type(options) != SQLITE_NULL) {
    rc = record_options(c, options);
    if (rc != SQLITE_OK) return rc;
  }
  if (idxNum & IDX_ROW) row = argv[i++];
  else if (idxNum & IDX_ROWS) list = argv[i++];
  if (idxNum & IDX_LIMIT) {
    sqlite3_int64 n = sqlite3_value_int64(argv[i++]);
    c->remaining = n < 0 ? -1 : n;
  }
  if (idxNum & IDX_OFFSET) {
    sqlite3_int64 n = sqlite3_value_int64(argv[i++]);
    offset = n > 0 ? n : 0;
  }
  for (int k = 0; k < 3; k++) {
    if (!(idxNum & (IDX_FNAME_EQ << k))) continue;
    rc = jjx_files_filter(&c->files, fname_ops[k], argv[i++]);
    if (rc != SQLITE_OK) return rc;
  }
  if (idxNum & IDX_WHERE) { /* the comparisons come last */
    char *msg = NULL;
    rc = jjx_filter_begin(&c->filter, idxStr, t->schema, argc - i, argv + i,
                          &msg);
    if (rc != SQLITE_OK) return msg ? jjx_vtab_take(cur->pVtab, msg, rc) : rc;
  }
  if (row) {
    int64_t r = jjx_value_row(row);
    if ((r & JJX_ROW_MASK) == 0) return SQLITE_OK; /* names no row */
    c->rows = sqlite3_malloc64(sizeof *c->rows);
    if (!c->rows) return SQLITE_NOMEM;
    c->rows[0] = r;
    c->nrows = 1;
    c->list = 1;
  } else if (list) {
    c->list = 1;
    rc = jjx_scan_collect(c, list);
    if (rc != SQLITE_OK) return rc;
  }
  const char *pattern = NULL;
  if (source && jjx_value_is_glob(source))
    pattern = (const char *)sqlite3_value_text(source);
  else if (!source && t->glob)
    pattern = t->decl.label;
  if (pattern) { /* every file it matches, one after another */
    char *msg = NULL;
    c->multi = 1;
    c->declared = !source;
    rc = jjx_files_expand(&c->files, pattern, t->typed ? &t->opt.glob : NULL,
                          &c->poll, &msg);
    if (rc != SQLITE_OK) return jjx_vtab_take(cur->pVtab, msg, rc);
    if (c->list && c->nrows == 0) return SQLITE_OK;
    rc = jjx_scan_next_file(c);
  } else {
    rc = jjx_scan_open_single(c, source);
    if (rc == SQLITE_OK && c->cur &&
        !jjx_files_pass(&c->files, c->is_file ? c->label : NULL)) {
      jj_cursor_free(c->cur); /* filename constraints exclude it */
      c->cur = NULL;
    }
  }
  if (rc != SQLITE_OK || !c->cur) return rc;
  /* OFFSET: a scan of one document jumps (rows seen before are found in
  ** constant time); a list, a pattern's files or a filter (pushdown.c:
  ** OFFSET counts the rows passing it) skip their first rows. */
  if (offset > 0 && !c->list && !c->multi && !c->filter.n) {
    int r = jjx_scan_seek(c, offset, &err);
    if (r < 0)
      return err.code == JJ_ERR_NOMEM ? SQLITE_NOMEM
             : err.code == JJ_ERR_INTERRUPTED
                 ? jjx_vtab_take(cur->pVtab, sqlite3_mprintf("interrupted"),
                                 SQLITE_INTERRUPT)
                 : jjx_cursor_err(cur, "%s: %s", c->label, err.message);
    if (r == 0) return SQLITE_OK; /* fewer rows than the offset */
    offset = 0;
  }
  int64_t limit = c->remaining;
  c->remaining = -1;
  for (; offset > 0; offset--) {
    rc = jjx_scan_advance(c);
    if (rc != SQLITE_OK || c->eof) return rc;
  }
  c->remaining = limit;
  return jjx_scan_advance(c);
}

static int jjOpenNext(sqlite3_vtab_cursor *cur) {
  return jjx_scan_advance((jjx_cursor *)cur);
}

static int jjOpenEof(sqlite3_vtab_cursor *cur) {
  return ((jjx_cursor *)cur)->eof;
}

/* xColumn: what column.c cannot know.  A union_by_name table's column is
** the document's column umap[col], or NULL when the document lacks it (the
** map is skipped when a document has the union's columns in order, so
** such a table pays a branch a value); the record form's options column is
** the OPTIONS given.  Everything else is column.c's. */
static int jjOpenColumn(sqlite3_vtab_cursor *cur, sqlite3_context *ctx,
                        int col) {
  jjx_cursor *c = (jjx_cursor *)cur;
  if (c->remap) {
    const jjx_table *t = (const jjx_table *)cur->pVtab;
    if (!t->typed) {
      if (col == REC_OPTIONS) {
        if (c->options)
          sqlite3_result_text(ctx, c->options, -1, SQLITE_TRANSIENT);
        return SQLITE_OK;
      }
    } else if (col < t->ncol) {
      col = c->umap[col];
      if (col < 0) return SQLITE_OK; /* NULL, the context's default */
    }
  }
  return jjx_open_column(cur, ctx, col);
}

/* xFindFunction: ->, ->> and json_extract on the record form (record.c);
** a typed table's columns are plain values already. */
static int jjOpenFindFunction(sqlite3_vtab *vtab, int nArg, const char *zName,
                              void (**pxFunc)(sqlite3_context *, int,
                                              sqlite3_value **),
                              void **ppArg) {
  if (((jjx_table *)vtab)->typed || !jjx_record_find(nArg, zName, pxFunc))
    return 0;
  *ppArg = vtab;
  return 1;
}

const sqlite3_module jjx_open_module = {
    0,                 /* iVersion */
    jjOpenConnect,     /* xCreate: the same as xConnect, so the module is
                       ** also an eponymous table-valued function */
    jjOpenConnect,     /* xConnect */
    jjOpenBestIndex,   /* xBestIndex */
    jjOpenDisconnect,  /* xDisconnect */
    jjOpenDisconnect,  /* xDestroy: nothing is stored but the declaration */
    jjOpenOpen,        /* xOpen */
    jjOpenClose,       /* xClose */
    jjOpenFilter,      /* xFilter */
    jjOpenNext,        /* xNext */
    jjOpenEof,         /* xEof */
    jjOpenColumn,      /* xColumn (then column.c's) */
    jjx_open_rowid,    /* xRowid (column.c) */
    NULL,              /* xUpdate: read-only */
    NULL,              /* xBegin */
    NULL,              /* xSync */
    NULL,              /* xCommit */
    NULL,              /* xRollback */
    jjOpenFindFunction, /* xFindFunction: the record form's fast path */
    NULL,              /* xRename */
    NULL,              /* xSavepoint */
    NULL,              /* xRelease */
    NULL,              /* xRollbackTo */
    NULL               /* xShadowName */
};
