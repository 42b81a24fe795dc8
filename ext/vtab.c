/*
** vtab.c — the jj_open module: a jalapenojson document read as a table.
**
** One module, two forms (zipfile.c's xConnect serves both the same way):
**
**   SELECT row, record FROM jj_open(SOURCE);
**       The eponymous form, no CREATE needed.  SQLite fixes a table-valued
**       function's columns when the module connects, before the argument is
**       known, so this form has fixed columns:
**         row     INTEGER  the 1-based row number (also the rowid)
**         record  TEXT     the row as a JSON object keyed by column name
**         source  HIDDEN   the SOURCE argument
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
** JJX_HEADER_LIMIT bytes), from a regular file only.  Reading the document
** is a scan, which SQLITE_VTAB_DIRECTONLY keeps from views and triggers.
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
** declared ones (a typed table, declared from the first file's header).
** filename constraints (plan.c) skip files without opening them.
**
** Options of the typed form: typed.c.  SOURCE is resolved by source.c
** (BLOB, document TEXT, file name, NULL).  Values come from the core's
** cursor, which checks each value as it is read and converts nothing that
** is not read.
*/
#include <stdlib.h>
#include <string.h>

#include "ext.h"
#include "plan.h"
#include "vtab.h"


/* How this table's scans open a SOURCE: the smaller of its max_size
** option and the connection's jj_max_size() now, with interrupts; through
** the connection's cache unless it is the typed table's declared file,
** which the table keeps itself. */
static jjx_limits scan_limits(const jjx_table *t, int declared, int cached) {
  jjx_limits lim;
  memset(&lim, 0, sizeof lim);
  lim.max_size = jjx_min_limit(t->typed ? t->opt.max_size : 0,
                               t->cfg->max_size);
  lim.by_option = t->typed && t->opt.max_size &&
                  lim.max_size == t->opt.max_size &&
                  lim.max_size != t->cfg->max_size;
  if (declared) {
    lim.parse_flags = t->opt.validate ? JJ_PARSE_VALIDATE : 0;
    lim.file_flags = t->opt.mmap ? JJ_FILE_MMAP : 0;
  }
  lim.db = t->db;
  if (cached) lim.cache = &t->cfg->cache;
  return lim;
}

/* ---------------------------------------------------------------------- */
/* Methods, in sqlite3_module slot order                                   */
/* ---------------------------------------------------------------------- */

static int jjOpenDisconnect(sqlite3_vtab *vtab);

/* Declare the typed table from its SOURCE's header (argv[3]) and options
** (argv[4..]).  Reads at most the header; the document waits for a scan. */
static int connect_typed(sqlite3 *db, jjx_table *t, int argc,
                         const char *const *argv, char **decl,
                         char **pzErr) {
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
  if (rc == SQLITE_OK) rc = jjx_header_decl(&h, &t->decl, pzErr);
  if (rc != SQLITE_OK) return rc;
  t->typed = 1;
  t->declared = h.schema; /* the table owns it now */
  h.schema = NULL;
  t->schema = t->declared;
  t->ncol = (int)jj_schema_columns(t->schema);
  for (int i = 0; i < t->ncol && i < 64; i++)
    if (jj_schema_type(t->schema, (size_t)i) == JJ_DATE)
      t->date_cols |= (uint64_t)1 << i;
  t->glob = t->decl.glob;
  t->est_rows = h.est_rows * h.nfiles;
  jjx_header_free(&h);
  *decl = jjx_declaration(t->decl.label, t->schema,
                          sqlite3_limit(db, SQLITE_LIMIT_COLUMN, -1), pzErr);
  if (!*decl) return *pzErr ? SQLITE_ERROR : SQLITE_NOMEM;
  return SQLITE_OK;
}

/* xCreate and xConnect (the same function, which makes the module usable
** as an eponymous table-valued function; a CREATE cannot be told from a
** database file's schema being loaded, so both are bounded).  argc == 3:
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
    rc = connect_typed(db, t, argc, argv, &decl, pzErr);
    if (rc != SQLITE_OK) goto fail;
  }
  rc = sqlite3_declare_vtab(
      db, decl ? decl : "CREATE TABLE x(row INTEGER, record TEXT, "
                        "source HIDDEN, filename HIDDEN)");
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

/* xBestIndex: plan.c, which knows only the form, the column count and
** the estimated rows. */
static int jjOpenBestIndex(sqlite3_vtab *vtab, sqlite3_index_info *info) {
  const jjx_table *t = (const jjx_table *)vtab;
  return jjx_open_plan(info, t->typed, t->ncol, t->est_rows, t->glob);
}

/* xDisconnect and xDestroy: the table owns its document. */
static int jjOpenDisconnect(sqlite3_vtab *vtab) {
  jjx_table *t = (jjx_table *)vtab;
  jjx_source_close(&t->src);
  jjx_decl_free(&t->decl);
  jj_schema_free(t->declared);
  sqlite3_free(t->base.zErrMsg);
  sqlite3_free(t);
  return SQLITE_OK;
}

static int jjOpenOpen(sqlite3_vtab *vtab, sqlite3_vtab_cursor **ppCur) {
  jjx_cursor *c = sqlite3_malloc(sizeof *c);
  (void)vtab;
  if (!c) return SQLITE_NOMEM;
  memset(c, 0, sizeof *c);
  c->eof = 1;
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
}

static int jjOpenClose(sqlite3_vtab_cursor *cur) {
  jjx_cursor *c = (jjx_cursor *)cur;
  jjx_table *t = (jjx_table *)cur->pVtab;
  if (c->reads_table) t->readers--;
  if (t->rec_last == c) t->rec_last = NULL;
  for (int i = 0; i < JJX_RECORD_SLOTS; i++) sqlite3_finalize(c->rec_fb[i]);
  cursor_reset(c);
  jjx_buf_free(&c->buf);
  sqlite3_free(c);
  return SQLITE_OK;
}

/* A row number from a constraint value, as SQLite compares a rowid: an
** integer, or a real or text that is exactly one.  0 when it names no row
** (NULL, 2.5, 'x', 0, negative). */
static int64_t value_row(sqlite3_value *v) {
  switch (sqlite3_value_numeric_type(v)) {
    case SQLITE_INTEGER: {
      sqlite3_int64 r = sqlite3_value_int64(v);
      return r > 0 ? r : 0;
    }
    case SQLITE_FLOAT: {
      double d = sqlite3_value_double(v);
      if (d >= 1 && d < 9.2e18 && d == (double)(int64_t)d) return (int64_t)d;
      return 0;
    }
    default:
      return 0;
  }
}

static int cmp_row(const void *a, const void *b) {
  int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return x < y ? -1 : x > y;
}

/* Collect the rows of `rowid IN (...)` into c->rows, ascending, without
** duplicates: one allocation per scan. */
static int collect_rows(jjx_cursor *c, sqlite3_value *list) {
  sqlite3_value *v = NULL;
  int cap = 0, rc;
  for (rc = sqlite3_vtab_in_first(list, &v); rc == SQLITE_OK && v;
       rc = sqlite3_vtab_in_next(list, &v)) {
    int64_t r = value_row(v);
    if ((r & JJX_ROW_MASK) == 0) continue; /* names no row */
    if (c->nrows == cap) {
      cap = cap ? cap * 2 : 16;
      int64_t *p = sqlite3_realloc64(c->rows, (sqlite3_uint64)cap * 8);
      if (!p) return SQLITE_NOMEM;
      c->rows = p;
    }
    c->rows[c->nrows++] = r;
  }
  if (rc != SQLITE_OK && rc != SQLITE_DONE) return rc;
  if (c->nrows) qsort(c->rows, (size_t)c->nrows, sizeof *c->rows, cmp_row);
  int n = 0;
  for (int i = 0; i < c->nrows; i++)
    if (n == 0 || c->rows[n - 1] != c->rows[i]) c->rows[n++] = c->rows[i];
  c->nrows = n;
  return SQLITE_OK;
}

/* Fail the scan with the core's error, prefixed with the source's name. */
static int scan_error(jjx_cursor *c, const jj_error *err) {
  if (err->code == JJ_ERR_NOMEM) return SQLITE_NOMEM;
  return jjx_cursor_err(&c->base, "%s: %s", c->label, err->message);
}

/* Move to the next wanted row, or to eof.  Only the structure of the rows
** passed over is scanned; no value is converted here. */
static int next_file(jjx_cursor *c);

static int advance(jjx_cursor *c) {
  jj_error err;
  int r;
  for (;;) {
    if (c->remaining == 0 || !c->cur) {
      c->eof = 1;
      return SQLITE_OK;
    }
    if (c->list) {
      r = 0;
      /* rows[] ascends: past the end of the document, so is every later
      ** one */
      if (c->irow < c->nrows && (!c->by_rowid ||
                                 c->rows[c->irow] >> JJX_ROWID_SHIFT ==
                                     c->file_index))
        r = jj_cursor_seek(c->cur, c->rows[c->irow++] & JJX_ROW_MASK, &err);
    } else {
      r = jj_cursor_next(c->cur, &err);
    }
    if (r < 0) return scan_error(c, &err);
    if (r > 0) {
      c->eof = 0;
      if (c->remaining > 0) c->remaining--;
      return SQLITE_OK;
    }
    if (!c->multi) {
      c->eof = 1;
      return SQLITE_OK;
    }
    int rc = next_file(c); /* this file is done: the next one */
    if (rc != SQLITE_OK) return rc;
  }
}

/* A pattern's scan: close the file read, open the next one the filename
** filter keeps (c->cur NULL when none is left) and check its columns. */
static int next_file(jjx_cursor *c) {
  jjx_table *t = (jjx_table *)c->base.pVtab;
  jj_error err;
  char *msg = NULL;
  jj_cursor_free(c->cur);
  c->cur = NULL;
  jjx_source_close(&c->own);
  c->label = NULL;
  c->is_file = 0;
  const char *name;
  for (;;) {
    name = jjx_files_next(&c->files);
    if (!name) return SQLITE_OK;
    c->file_index = c->files.next - 1;
    if (!c->list) break;
    if (!c->by_rowid) { /* row = N: row N of every file */
      c->irow = 0;
      break;
    }
    /* rowid = N: only the files N names */
    while (c->irow < c->nrows &&
           c->rows[c->irow] >> JJX_ROWID_SHIFT < c->file_index)
      c->irow++;
    if (c->irow == c->nrows) return SQLITE_OK;
    if (c->rows[c->irow] >> JJX_ROWID_SHIFT == c->file_index) break;
  }
  jjx_limits lim = scan_limits(t, c->declared, 1);
  int rc = jjx_source_open_path(&c->own, name, &lim, &msg);
  if (rc != SQLITE_OK) return jjx_vtab_take(c->base.pVtab, msg, rc);
  c->label = c->own.label;
  c->is_file = 1;
  rc = jjx_files_check(&c->files, c->label, t->typed ? t->schema : NULL,
                       jj_doc_schema(c->own.doc), &msg);
  if (rc != SQLITE_OK) return jjx_vtab_take(c->base.pVtab, msg, rc);
  c->cur = jj_cursor_new(c->own.doc, &err);
  return c->cur ? SQLITE_OK : scan_error(c, &err);
}

/* The declared document for a scan by cursor c.  The first scan opens it
** (within the limits of that moment); a later scan that finds no cursor
** reading it reopens it when the file changed or the limit was lowered
** under its size, and requires the declared columns and types.  A cursor
** keeps the bytes it started with until it is closed (the end of its
** statement), so every scan of one statement reads the same bytes. */
static int table_document(jjx_table *t, jjx_cursor *c) {
  char *msg = NULL;
  if (c->reads_table) return SQLITE_OK;
  jjx_limits lim = scan_limits(t, 1, 0);
  if (t->src.doc && t->readers == 0 &&
      ((t->src.is_file && jj_file_changed(&t->src.file, t->decl.label)) ||
       (lim.max_size && t->src.len > lim.max_size)))
    jjx_source_close(&t->src);
  if (!t->src.doc) {
    int rc = jjx_source_open_decl(&t->src, &t->decl, &lim, &msg);
    if (rc != SQLITE_OK) return jjx_vtab_take(&t->base, msg, rc);
    const jj_schema *found = jj_doc_schema(t->src.doc);
    if (!jj_schema_equal(t->declared, found, NULL)) {
      msg = jjx_shape_error(t->src.label,
                            "the file changed since the table was created: ",
                            t->declared, found);
      jjx_source_close(&t->src);
      return jjx_vtab_take(&t->base, msg, SQLITE_ERROR);
    }
    int64_t count = jj_doc_declared_count(t->src.doc);
    t->est_rows = count >= 0 ? count : jjx_estimate_rows(t->src.len);
  }
  c->reads_table = 1;
  t->readers++;
  return SQLITE_OK;
}

/* Open the document of a scan that reads one: the SOURCE given, else the
** typed table's declared one.  c->cur stays NULL for a NULL SOURCE. */
static int open_single(jjx_cursor *c, jjx_table *t, sqlite3_value *source) {
  jj_doc *doc;
  jj_error err;
  if (source) {
    char *msg = NULL;
    jjx_limits lim = scan_limits(t, 0, 1);
    int rc = jjx_source_open_value(&c->own, source, &lim, &msg);
    if (rc != SQLITE_OK) return jjx_vtab_take(c->base.pVtab, msg, rc);
    doc = c->own.doc;
    c->label = c->own.label;
    c->is_file = c->own.is_file;
    if (!doc) return SQLITE_OK; /* NULL source: no rows */
    if (t->typed && !jj_schema_equal(t->schema, jj_doc_schema(doc), NULL))
      return jjx_vtab_take(
          c->base.pVtab,
          jjx_shape_error(c->label, "", t->schema, jj_doc_schema(doc)),
          SQLITE_ERROR);
  } else {
    int rc = table_document(t, c);
    if (rc != SQLITE_OK) return rc;
    doc = t->src.doc;
    c->label = t->src.label;
    c->is_file = t->src.is_file;
  }
  c->cur = jj_cursor_new(doc, &err);
  return c->cur ? SQLITE_OK : scan_error(c, &err);
}

/* Start a scan: take the plan's arguments, open the SOURCE (or the first
** file of a pattern), then position on the first wanted row. */
static int jjOpenFilter(sqlite3_vtab_cursor *cur, int idxNum,
                        const char *idxStr, int argc, sqlite3_value **argv) {
  static const int fname_ops[3] = {SQLITE_INDEX_CONSTRAINT_EQ,
                                   SQLITE_INDEX_CONSTRAINT_LIKE,
                                   SQLITE_INDEX_CONSTRAINT_GLOB};
  jjx_cursor *c = (jjx_cursor *)cur;
  jjx_table *t = (jjx_table *)cur->pVtab;
  sqlite3_value *source = NULL, *row = NULL, *list = NULL;
  jj_error err;
  int i = 0, rc;
  int64_t offset = 0;
  (void)idxStr;
  (void)argc;
  cursor_reset(c);
  if (!t->typed && !(idxNum & IDX_SOURCE)) /* xBestIndex: no SOURCE */
    return jjx_vtab_err(cur->pVtab, "jj_open: no SOURCE given: use "
                                    "jj_open(SOURCE), or CREATE VIRTUAL "
                                    "TABLE ... USING jj_open(SOURCE)");
  c->by_rowid = !(idxNum & IDX_BY_ROW);
  if (idxNum & IDX_SOURCE) source = argv[i++];
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
  if (row) {
    int64_t r = value_row(row);
    if ((r & JJX_ROW_MASK) == 0) return SQLITE_OK; /* names no row */
    c->rows = sqlite3_malloc64(sizeof *c->rows);
    if (!c->rows) return SQLITE_NOMEM;
    c->rows[0] = r;
    c->nrows = 1;
    c->list = 1;
  } else if (list) {
    c->list = 1;
    rc = collect_rows(c, list);
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
    rc = jjx_files_expand(&c->files, pattern, &msg);
    if (rc != SQLITE_OK) return jjx_vtab_take(cur->pVtab, msg, rc);
    if (c->list && c->nrows == 0) return SQLITE_OK;
    rc = next_file(c);
  } else {
    rc = open_single(c, t, source);
    if (rc == SQLITE_OK && c->cur &&
        !jjx_files_pass(&c->files, c->is_file ? c->label : NULL)) {
      jj_cursor_free(c->cur); /* filename constraints exclude it */
      c->cur = NULL;
    }
  }
  if (rc != SQLITE_OK || !c->cur) return rc;
  /* OFFSET: a scan of one document jumps (rows seen before are found in
  ** constant time); a list or a pattern's files skip their first rows. */
  if (offset > 0 && !c->list && !c->multi) {
    int r = jj_cursor_seek(c->cur, offset, &err);
    if (r < 0) return scan_error(c, &err);
    if (r == 0) return SQLITE_OK; /* fewer rows than the offset */
    offset = 0;
  }
  int64_t limit = c->remaining;
  c->remaining = -1;
  for (; offset > 0; offset--) {
    rc = advance(c);
    if (rc != SQLITE_OK || c->eof) return rc;
  }
  c->remaining = limit;
  return advance(c);
}

static int jjOpenNext(sqlite3_vtab_cursor *cur) {
  return advance((jjx_cursor *)cur);
}

static int jjOpenEof(sqlite3_vtab_cursor *cur) {
  return ((jjx_cursor *)cur)->eof;
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
    jjx_open_column,   /* xColumn (column.c) */
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
