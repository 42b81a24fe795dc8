/*
** export.c — jj_export(PATH, QUERY [, TYPES]): run a read-only query and
** stream its rows into a jalapenojson file of any size, in flat memory.
**
**   SELECT jj_export('paid.jj.gz', 'SELECT id, user, joined FROM rows
**                                   WHERE plan <> ''free''');
**   SELECT jj_export('out.jj', 'SELECT * FROM t', 'price:f,joined:d');
**   -> {"rows":2841,"bytes":40966}
**
** Why a query and not an aggregate over rows: a file must be renamed into
** place only when every row has been written, and an aggregate cannot tell
** that — SQLite calls its xFinal the same way when the query ends and
** when it is torn down by an error or an interrupt, so an aggregate would
** publish a partial file.  Stepping the query itself, jj_export sees
** SQLITE_DONE, an error or SQLITE_INTERRUPT for what it is.
**
** The rows go to the core's row builder (build_value.c gives it SQLite's
** values), which types every column from all of its values by the
** converter's rules, as jj_group does, so the two make the same document
** of the same rows.  Types, per column, the first that applies:
**   1. TYPES, the converter's schema option: "name:T,..." with T one of
**      i f s d t l b x, or jj for a nested table whose values are documents
**      (a name with other characters than letters, digits and spaces as a
**      JSON string);
**   2. the column's declared type when it is one of jalapenojson's SQL
**      names (INTEGER REAL TEXT DATE TIMESTAMP DATETIME BOOLEAN BLOB, any case), as
**      a typed jj_open table or a native table declares it;
**   3. inferred from every value (a NULL first row is no problem).
** When every column has a type by 1 or 2, each row is written as it comes;
** otherwise the builder keeps the rows compactly, in memory up to 4 MiB
** and then in a temporary file, until the last one has decided the types.
** They are written through the core's writer and the compressor (.gz, .br
** by the name, jj_compression_for_write) into a temporary file next to
** the target (jj_atomic_*), renamed over it at the end; any error removes the
** temporary file and leaves the old one as it was.  Memory stays flat
** whatever the row count.  The query runs on the same connection, so the
** progress handler ticks and sqlite3_interrupt() stops it, also while the
** rows are written.  The result is JSON text: {"rows":N,"bytes":M}, M the
** bytes of the file.  SQLITE_DIRECTONLY, like jj_write.  A database file
** of the connection is never a target (target.c), and a QUERY that
** reaches jj_export again is refused.
*/
#include <string.h>

#include "build_at.h"

#define EXPORT_MEMORY ((size_t)4 << 20)

typedef struct exporter {
  sqlite3_context *ctx;
  sqlite3_stmt *st;
  int ncol;
  jjx_col *cols;   /* ncol: the columns' names and explicit types;
                   ** sqlite3_free */
  sqlite3_value **vals; /* ncol: a row's values; sqlite3_free */
  jj_cell *cells;  /* ncol: those values as the builder's cells; sqlite3_free */
  jj_builder *b;
  jj_atomic *atomic;
  jj_deflater *z;
  jjx_poll poll;
  uint64_t bytes;  /* into the file */
  int sink_failed; /* the file refused bytes: commit tells why */
  jjx_notes notes; /* the builder's decisions, for jj_notes() */
} exporter;

static int count_sink(void *ctx, const char *p, size_t len) {
  exporter *e = ctx;
  e->bytes += len;
  if (jj_atomic_sink(e->atomic, p, len)) {
    e->sink_failed = 1;
    return -1;
  }
  return 0;
}

/* The jalapenojson type a declared SQL type names, or 0. */
static jj_type declared_type(const char *decl) {
  static const jj_type all[] = {JJ_INT,  JJ_FLOAT, JJ_TEXT, JJ_DATE,
                                JJ_TIMESTAMP, JJ_LOCAL_TIMESTAMP, JJ_BOOL,
                                JJ_BYTES};
  for (size_t i = 0; decl && i < sizeof all / sizeof *all; i++)
    if (sqlite3_stricmp(decl, jj_type_sql(all[i])) == 0) return all[i];
  return (jj_type)0;
}

/* Prepare QUERY: one read-only statement with columns. */
static int prepare(exporter *e, sqlite3 *db, const char *sql) {
  const char *tail = NULL;
  int rc = sqlite3_prepare_v2(db, sql, -1, &e->st, &tail);
  if (rc != SQLITE_OK) {
    jjx_ctx_err(e->ctx, "jj_export: %s", sqlite3_errmsg(db));
    return -1;
  }
  while (tail && (*tail == ' ' || *tail == '\t' || *tail == '\n' ||
                  *tail == '\r' || *tail == ';'))
    tail++;
  if (!e->st || (tail && *tail)) {
    jjx_ctx_err(e->ctx, "jj_export: QUERY must be exactly one statement");
    return -1;
  }
  if (!sqlite3_stmt_readonly(e->st)) {
    jjx_ctx_err(e->ctx, "jj_export: QUERY must be read-only (a SELECT)");
    return -1;
  }
  e->ncol = sqlite3_column_count(e->st);
  if (e->ncol == 0) {
    jjx_ctx_err(e->ctx, "jj_export: QUERY returns no columns");
    return -1;
  }
  e->cols = sqlite3_malloc64((sqlite3_uint64)e->ncol * sizeof *e->cols);
  e->vals = sqlite3_malloc64((sqlite3_uint64)e->ncol * sizeof *e->vals);
  e->cells = sqlite3_malloc64((sqlite3_uint64)e->ncol * sizeof *e->cells);
  if (!e->cols || !e->vals || !e->cells)
    return sqlite3_result_error_nomem(e->ctx), -1;
  memset(e->cols, 0, (size_t)e->ncol * sizeof *e->cols);
  for (int c = 0; c < e->ncol; c++) { /* a pointer SQLite may move */
    const char *name = sqlite3_column_name(e->st, c);
    if (!name || !(e->cols[c].name = sqlite3_mprintf("%s", name)))
      return sqlite3_result_error_nomem(e->ctx), -1;
    e->cols[c].len = e->cols[c].given = strlen(e->cols[c].name);
  }
  return 0;
}

/* Report a step that failed: the query's own error. */
static int step_error(exporter *e, sqlite3 *db, int rc) {
  if (rc == SQLITE_INTERRUPT)
    sqlite3_result_error_code(e->ctx, SQLITE_INTERRUPT);
  else if (rc == SQLITE_NOMEM)
    sqlite3_result_error_nomem(e->ctx);
  else if (strncmp(sqlite3_errmsg(db), "jj_export: ", 11) == 0)
    jjx_ctx_err(e->ctx, "%s", sqlite3_errmsg(db)); /* a nested one's */
  else
    jjx_ctx_err(e->ctx, "jj_export: %s", sqlite3_errmsg(db));
  return -1;
}

/* Report the builder's error: the file's reason first when the file
** refused bytes (commit returns it and removes the temporary file). */
static int builder_error(exporter *e) {
  const jj_error *be = jj_builder_error(e->b);
  jj_error ae;
  if (e->sink_failed && e->atomic) {
    jj_atomic_commit(e->atomic, &ae); /* fails: frees, removes the file */
    e->atomic = NULL;
    jjx_ctx_err(e->ctx, "jj_export: %s", ae.message);
  } else if (be->code == JJ_ERR_NOMEM) {
    sqlite3_result_error_nomem(e->ctx);
  } else if (be->code == JJ_ERR_INTERRUPTED) {
    sqlite3_result_error_code(e->ctx, SQLITE_INTERRUPT);
  } else {
    jjx_ctx_err(e->ctx, "%s", be->message);
  }
  return -1;
}

/* The file's error after the builder finished. */
static int file_error(exporter *e, jj_code code, const jj_error *err) {
  if (code == JJ_ERR_NOMEM)
    sqlite3_result_error_nomem(e->ctx);
  else
    jjx_ctx_err(e->ctx, "jj_export: %s", err->message);
  return -1;
}

/* The builder, its columns in the query's order with their explicit
** types (TYPES, else the declared ones).  0, or -1 reported. */
static int start(exporter *e, sqlite3 *db, const char *spec) {
  jj_build_opts o;
  jj_error err;
  memset(&o, 0, sizeof o);
  o.name = "jj_export";
  o.flags = JJ_BUILD_FIXED_COLUMNS;
  o.schema = spec;
  o.schema_label = "TYPES";
  o.memory = EXPORT_MEMORY;
  o.interrupt = jjx_poll_check;
  o.interrupt_ctx = &e->poll;
  o.note = jjx_note;
  o.note_ctx = &e->notes;
  jjx_poll_begin(&e->poll, db);
  if (!(e->b = jj_builder_new(&o, &err))) {
    if (err.code == JJ_ERR_NOMEM) return sqlite3_result_error_nomem(e->ctx), -1;
    jjx_ctx_err(e->ctx, "%s", err.message);
    return -1;
  }
  for (int c = 0; c < e->ncol; c++) {
    const char *name = e->cols[c].name;
    size_t len = e->cols[c].len;
    if (jj_builder_column(e->b, name, len,
                          declared_type(sqlite3_column_decltype(e->st, c))))
      return builder_error(e);
    e->cols[c].type = jj_builder_column_type(e->b, name, len);
  }
  return 0;
}

/* Step the query into the builder, then write the file.  0, or -1
** reported. */
static int run(exporter *e, sqlite3 *db, const char *path,
               jj_compression kind) {
  jj_error err;
  jj_build_result res;
  int rc;
  /* the file first: with every column typed the rows go to it as they
  ** come (jj_builder_start), else when the last has decided the types */
  e->atomic = jj_atomic_open(path, &err);
  if (!e->atomic) return file_error(e, err.code, &err);
  if (kind != JJ_PLAIN &&
      !(e->z = jj_deflate_new(kind, -1, count_sink, e, &err)))
    return file_error(e, err.code, &err);
  if (jj_builder_start(e->b, e->z ? jj_deflate_sink : count_sink,
                       e->z ? (void *)e->z : (void *)e))
    return builder_error(e);
  while ((rc = sqlite3_step(e->st)) == SQLITE_ROW) {
    for (int c = 0; c < e->ncol; c++) {
      e->vals[c] = sqlite3_column_value(e->st, c);
      jjx_cell(&e->cells[c], e->vals[c], e->cols[c].type, NULL);
    }
    if (jjx_build_row(e->b, db, e->cols, (size_t)e->ncol, e->vals, 1,
                      e->cells))
      return builder_error(e);
  }
  if (rc != SQLITE_DONE) return step_error(e, db, rc);
  if (jj_builder_finish(e->b, NULL, NULL, &res)) return builder_error(e);
  jj_code code;
  if (e->z && (code = jj_deflate_finish(e->z, &err)) != JJ_OK)
    return file_error(e, code, &err);
  code = jj_atomic_commit(e->atomic, &err);
  e->atomic = NULL;
  if (code != JJ_OK) return file_error(e, code, &err);
  char *json = sqlite3_mprintf("{\"rows\":%lld,\"bytes\":%llu}",
                               (long long)res.rows,
                               (unsigned long long)e->bytes);
  if (!json) {
    sqlite3_result_error_nomem(e->ctx);
    return -1;
  }
  sqlite3_result_text(e->ctx, json, -1, sqlite3_free);
  sqlite3_result_subtype(e->ctx, 74); /* JSON, for ->> */
  jjx_notes_publish(&e->notes, sqlite3_user_data(e->ctx));
  return 0;
}

void jjx_export_func(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  exporter e;
  jj_error err;
  jj_compression kind;
  memset(&e, 0, sizeof e);
  e.ctx = ctx;
  jjx_notes_begin(&e.notes, "jj_export");
  sqlite3 *db = sqlite3_context_db_handle(ctx);
  if (sqlite3_value_type(argv[0]) == SQLITE_NULL ||
      sqlite3_value_type(argv[1]) == SQLITE_NULL)
    return;
  if (sqlite3_value_type(argv[0]) != SQLITE_TEXT ||
      sqlite3_value_type(argv[1]) != SQLITE_TEXT ||
      (argc > 2 && sqlite3_value_type(argv[2]) != SQLITE_TEXT &&
       sqlite3_value_type(argv[2]) != SQLITE_NULL)) {
    jjx_ctx_err(ctx, "jj_export: expected (PATH TEXT, QUERY TEXT [, TYPES "
                     "TEXT])");
    return;
  }
  const char *path = (const char *)sqlite3_value_text(argv[0]);
  const char *sql = (const char *)sqlite3_value_text(argv[1]);
  const char *spec = argc > 2 ? (const char *)sqlite3_value_text(argv[2])
                              : NULL;
  if (!path || !sql) {
    sqlite3_result_error_nomem(ctx);
    return;
  }
  if (strlen(path) != (size_t)sqlite3_value_bytes(argv[0])) {
    jjx_ctx_err(ctx, "jj_export: a file name cannot contain a NUL byte");
    return;
  }
  if (jj_compression_for_write(path, &kind, &err) != JJ_OK) {
    jjx_ctx_err(ctx, "jj_export: %s", err.message);
    return;
  }
  /* The query runs on this connection and may reach jj_export again (a
  ** TEMP view over itself, a query text read from a table): each level
  ** would prepare and step another, until the stack overflows.  SQLite
  ** refuses a view defined through itself, but cannot see through a
  ** function's text argument, so a jj_export inside another is refused. */
  jjx_settings *s = sqlite3_user_data(ctx);
  if (s->exporting) {
    jjx_ctx_err(ctx, "jj_export: QUERY runs jj_export again (through a "
                     "view, a trigger or a query text); an export cannot "
                     "run inside another on the same connection");
    return;
  }
  if (jjx_refuse_db_target(ctx, "jj_export", path)) return;
  s->exporting = 1;
  if (prepare(&e, db, sql) == 0 && start(&e, db, spec) == 0)
    run(&e, db, path, kind);
  s->exporting = 0;
  jj_builder_free(e.b); /* before the compressor it may still write to */
  jj_deflate_free(e.z);
  if (e.atomic) jj_atomic_abort(e.atomic); /* not committed: removed */
  jjx_poll_end(&e.poll);
  sqlite3_finalize(e.st);
  for (int c = 0; e.cols && c < e.ncol; c++) sqlite3_free(e.cols[c].name);
  sqlite3_free(e.cols);
  sqlite3_free(e.vals);
  sqlite3_free(e.cells);
  jjx_notes_discard(&e.notes);
}
