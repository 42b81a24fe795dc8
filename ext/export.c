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
** Each row goes through the core's writer, the compressor (.gz, .br by the
** name, jj_compression_for_write) and into a temporary file next to the
** target (jj_atomic_*), renamed over it after the last row; any error
** removes the temporary file and leaves the old one as it was.  Memory is
** the writer's buffer (64 KiB), the compressor's state and one row.  The
** query runs on the same connection, so the progress handler ticks and
** sqlite3_interrupt() stops it.
**
** Types, per column, the first that applies:
**   1. TYPES: "name:T,..." with T one of i f s d t b x jj;
**   2. the column's declared type when it is one of jalapenojson's SQL
**      names (INTEGER REAL TEXT DATE TIMESTAMP BOOLEAN BLOB, any case), as
**      a typed jj_open table or a native table declares it;
**   3. the first row's value: INTEGER i, REAL f, TEXT s, BLOB x;
**   4. with no rows at all, s.
** A column still without a type (NULL in the first row) is an error that
** says how to give one.  Since the header goes out with the first row, a
** later value must fit the chosen type: an inferred INTEGER column meeting
** a REAL is an error naming 'name:f'.  A nested table (jj) takes its
** columns from the first row's document.  The header has no "count" (it is
** written before the rows are known).  The result is JSON text:
** {"rows":N,"bytes":M}, M the bytes of the file.  SQLITE_DIRECTONLY, like
** jj_write.  A database file of the connection is never a target
** (target.c), and a QUERY that reaches jj_export again is refused.
*/
#include <string.h>

#include "ext.h"

typedef struct exporter {
  sqlite3_context *ctx;
  sqlite3_stmt *st;
  int ncol;
  jj_type *types;      /* ncol; sqlite3_free */
  int *explicit_type;  /* ncol: 1 when TYPES or the declaration gave it */
  jj_schema *schema;
  jj_atomic *atomic;
  jj_deflater *z;
  jj_writer *w;
  uint64_t bytes;      /* into the file */
  int sink_failed;     /* the file refused bytes: commit tells why */
  int64_t rows;
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

/* TYPES: "name:T" items separated by commas (names without commas). */
static int parse_types(exporter *e, const char *spec) {
  const char *p = spec;
  while (p && *p) {
    const char *end = strchr(p, ',');
    size_t n = end ? (size_t)(end - p) : strlen(p);
    const char *item = jjx_trim(p, &n);
    const char *colon = NULL;
    for (size_t i = 0; i < n; i++)
      if (item[i] == ':') colon = item + i;
    if (n) {
      jj_type t = colon ? jj_type_from_short(colon + 1,
                                             n - (size_t)(colon + 1 - item))
                        : (jj_type)0;
      if (!t) {
        jjx_ctx_err(e->ctx, "jj_export: \"%.*s\" in TYPES is not name:T (T "
                            "one of i, f, s, d, t, b, x, jj)",
                    (int)n, item);
        return -1;
      }
      size_t nl = (size_t)(colon - item);
      int found = -1;
      for (int c = 0; c < e->ncol && found < 0; c++) {
        const char *name = sqlite3_column_name(e->st, c);
        if (name && strlen(name) == nl && memcmp(name, item, nl) == 0)
          found = c;
      }
      if (found < 0) {
        jjx_ctx_err(e->ctx, "jj_export: TYPES names \"%.*s\", which is not a "
                            "column of the query",
                    (int)nl, item);
        return -1;
      }
      e->types[found] = t;
      e->explicit_type[found] = 1;
    }
    p = end ? end + 1 : NULL;
  }
  return 0;
}

/* The jalapenojson type a declared SQL type names, or 0. */
static jj_type declared_type(const char *decl) {
  static const jj_type all[] = {JJ_INT,  JJ_FLOAT, JJ_TEXT, JJ_DATE,
                                JJ_TIMESTAMP, JJ_BOOL, JJ_BYTES};
  for (size_t i = 0; decl && i < sizeof all / sizeof *all; i++)
    if (sqlite3_stricmp(decl, jj_type_sql(all[i])) == 0) return all[i];
  return (jj_type)0;
}

/* Fail with a value's place: row, column, what it is and what was wanted. */
static void value_error(exporter *e, int c, const char *what) {
  const char *name = sqlite3_column_name(e->st, c);
  jjx_ctx_err(e->ctx, "jj_export: row %lld, column \"%s\": %s%s%s%s",
              (long long)e->rows, name ? name : "?", what,
              e->explicit_type[c] ? "" : " (the type came from the first "
                                         "row; give it in TYPES: '",
              e->explicit_type[c] ? "" : (name ? name : "?"),
              e->explicit_type[c] ? "" : ":T')");
}

/* A nested document value: checked, its schema fixed by the first. */
static jj_code write_nested(exporter *e, int c) {
  jj_error err;
  const char *p = sqlite3_column_type(e->st, c) == SQLITE_BLOB
                      ? sqlite3_column_blob(e->st, c)
                      : (const char *)sqlite3_column_text(e->st, c);
  size_t n = (size_t)sqlite3_column_bytes(e->st, c);
  jj_doc *doc = jjx_parse_checked(sqlite3_db_handle(e->st), p ? p : "", n,
                                  &err);
  jj_cursor *cur = NULL;
  jj_code code;
  if (!doc && err.code == JJ_ERR_INTERRUPTED) {
    sqlite3_result_error_code(e->ctx, SQLITE_INTERRUPT);
    return err.code;
  }
  if (!doc) {
    char msg[400];
    sqlite3_snprintf(sizeof msg, msg, "not a jalapenojson document: %s",
                     err.message);
    value_error(e, c, msg);
    return err.code ? err.code : JJ_ERR_SYNTAX;
  }
  if (!jj_schema_equal(jj_schema_table(e->schema, (size_t)c),
                       jj_doc_schema(doc), NULL)) {
    value_error(e, c, "the nested table's columns differ from the first "
                      "row's");
    jj_doc_free(doc);
    return JJ_ERR_SCHEMA;
  }
  cur = jj_cursor_new(doc, &err);
  code = cur ? jj_writer_begin_table(e->w) : JJ_ERR_NOMEM;
  if (code == JJ_OK) code = jj_writer_copy_rows(e->w, cur);
  if (code == JJ_OK) code = jj_writer_end_table(e->w);
  jj_cursor_free(cur);
  jj_doc_free(doc);
  return code;
}

/* Write column c of the current row.  JJ_OK, or an error (reported here
** when it is about the value, else left for the writer's message). */
static jj_code write_value(exporter *e, int c) {
  sqlite3_stmt *st = e->st;
  int cls = sqlite3_column_type(st, c);
  jj_type t = e->types[c];
  if (cls == SQLITE_NULL) return jj_writer_null(e->w);
  const char *want = NULL;
  switch (t) { /* no default: -Wswitch names a type added */
    case JJ_INT:
      if (cls == SQLITE_INTEGER)
        return jj_writer_int(e->w, sqlite3_column_int64(st, c));
      want = "INTEGER";
      break;
    case JJ_FLOAT:
      if (cls == SQLITE_FLOAT)
        return jj_writer_double(e->w, sqlite3_column_double(st, c));
      if (cls == SQLITE_INTEGER) {
        sqlite3_int64 i = sqlite3_column_int64(st, c);
        double d = (double)i;
        if (d >= -9223372036854775808.0 && d < 9223372036854775808.0 &&
            (sqlite3_int64)d == i)
          return jj_writer_double(e->w, d);
        value_error(e, c, "an INTEGER that is not exactly a float");
        return JJ_ERR_RANGE;
      }
      want = "INTEGER or REAL";
      break;
    case JJ_TEXT:
    case JJ_DATE:
    case JJ_TIMESTAMP:
      if (cls == SQLITE_TEXT) {
        const char *p = (const char *)sqlite3_column_text(st, c);
        size_t n = (size_t)sqlite3_column_bytes(st, c);
        if (!p) return JJ_ERR_NOMEM;
        return t == JJ_TEXT   ? jj_writer_text(e->w, p, n)
               : t == JJ_DATE ? jj_writer_date(e->w, p, n)
                              : jj_writer_timestamp(e->w, p, n);
      }
      want = "TEXT";
      break;
    case JJ_BOOL:
      if (cls == SQLITE_INTEGER && (sqlite3_column_int64(st, c) == 0 ||
                                    sqlite3_column_int64(st, c) == 1))
        return jj_writer_bool(e->w, sqlite3_column_int(st, c));
      want = "0 or 1";
      break;
    case JJ_BYTES:
      if (cls == SQLITE_BLOB)
        return jj_writer_bytes(e->w, sqlite3_column_blob(st, c),
                               (size_t)sqlite3_column_bytes(st, c));
      want = "BLOB";
      break;
    case JJ_TABLE:
      if (cls == SQLITE_TEXT || cls == SQLITE_BLOB)
        return write_nested(e, c);
      want = "a jalapenojson document";
      break;
  }
  char msg[160];
  static const char *const names[] = {"", "INTEGER", "REAL", "TEXT", "BLOB",
                                      "NULL"};
  sqlite3_snprintf(sizeof msg, msg, "a %s value in %s column, expected %s",
                   names[cls], jj_type_name(t), want);
  value_error(e, c, msg);
  return JJ_ERR_TYPE;
}

/* Choose every column's type (the first row is current when has_row) and
** build the schema.  0, or -1 reported. */
static int choose_types(exporter *e, int has_row) {
  jj_error err;
  e->schema = jj_schema_new();
  if (!e->schema) return sqlite3_result_error_nomem(e->ctx), -1;
  for (int c = 0; c < e->ncol; c++) {
    const char *name = sqlite3_column_name(e->st, c);
    jj_type t = e->types[c];
    jj_schema *nested = NULL;
    if (!t && (t = declared_type(sqlite3_column_decltype(e->st, c))))
      e->explicit_type[c] = 1;
    if (!t && has_row) {
      switch (sqlite3_column_type(e->st, c)) {
        case SQLITE_INTEGER: t = JJ_INT; break;
        case SQLITE_FLOAT: t = JJ_FLOAT; break;
        case SQLITE_TEXT: t = JJ_TEXT; break;
        case SQLITE_BLOB: t = JJ_BYTES; break;
        default:
          jjx_ctx_err(e->ctx, "jj_export: column \"%s\" is NULL in the first "
                              "row and has no declared type: give its type "
                              "in TYPES, e.g. '%s:s'",
                      name ? name : "?", name ? name : "?");
          return -1;
      }
    }
    if (!t) t = JJ_TEXT; /* no rows: nothing to contradict it */
    if (t == JJ_TABLE) {
      int cls = has_row ? sqlite3_column_type(e->st, c) : SQLITE_NULL;
      const char *p = cls == SQLITE_BLOB
                          ? sqlite3_column_blob(e->st, c)
                          : (const char *)sqlite3_column_text(e->st, c);
      jj_doc *doc = cls == SQLITE_TEXT || cls == SQLITE_BLOB
                        ? jj_parse(p ? p : "", (size_t)sqlite3_column_bytes(
                                                   e->st, c), &err)
                        : NULL;
      if (!doc) {
        jjx_ctx_err(e->ctx, "jj_export: column \"%s\" is a nested table (jj): "
                            "its first row must hold a jalapenojson document",
                    name ? name : "?");
        return -1;
      }
      nested = jj_schema_copy(jj_doc_schema(doc));
      jj_doc_free(doc);
      if (!nested) return sqlite3_result_error_nomem(e->ctx), -1;
    }
    e->types[c] = t;
    if (jj_schema_add(e->schema, name ? name : "", name ? strlen(name) : 0, t,
                      nested, &err) != JJ_OK) {
      if (err.code == JJ_ERR_NOMEM) return sqlite3_result_error_nomem(e->ctx), -1;
      jjx_ctx_err(e->ctx, "jj_export: %s", err.message);
      return -1;
    }
  }
  return 0;
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
  e->types = sqlite3_malloc64((sqlite3_uint64)e->ncol * sizeof *e->types);
  e->explicit_type =
      sqlite3_malloc64((sqlite3_uint64)e->ncol * sizeof *e->explicit_type);
  if (!e->types || !e->explicit_type)
    return sqlite3_result_error_nomem(e->ctx), -1;
  memset(e->types, 0, (size_t)e->ncol * sizeof *e->types);
  memset(e->explicit_type, 0, (size_t)e->ncol * sizeof *e->explicit_type);
  return 0;
}

/* Report a step that failed: the query's own error. */
static void step_error(exporter *e, sqlite3 *db, int rc) {
  if (rc == SQLITE_INTERRUPT)
    sqlite3_result_error_code(e->ctx, SQLITE_INTERRUPT);
  else if (rc == SQLITE_NOMEM)
    sqlite3_result_error_nomem(e->ctx);
  else if (strncmp(sqlite3_errmsg(db), "jj_export: ", 11) == 0)
    jjx_ctx_err(e->ctx, "%s", sqlite3_errmsg(db)); /* a nested one's */
  else
    jjx_ctx_err(e->ctx, "jj_export: %s", sqlite3_errmsg(db));
}

/* Report the pipeline's error: the file's reason first (commit returns it
** and removes the temporary file), else the writer's or compressor's. */
static void pipe_error(exporter *e, jj_code code, const jj_error *err) {
  jj_error ae;
  if (e->sink_failed && e->atomic) {
    jj_atomic_commit(e->atomic, &ae); /* fails: frees, removes the file */
    e->atomic = NULL;
    jjx_ctx_err(e->ctx, "jj_export: %s", ae.message);
  } else if (code == JJ_ERR_NOMEM) {
    sqlite3_result_error_nomem(e->ctx);
  } else {
    jjx_ctx_err(e->ctx, "jj_export: %s", err->message);
  }
}

static void run(exporter *e, sqlite3 *db, const char *path,
                jj_compression kind) {
  jj_error err;
  int rc = sqlite3_step(e->st);
  if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
    step_error(e, db, rc);
    return;
  }
  if (choose_types(e, rc == SQLITE_ROW)) return;
  e->atomic = jj_atomic_open(path, &err);
  if (!e->atomic) {
    pipe_error(e, err.code, &err);
    return;
  }
  if (kind != JJ_PLAIN) {
    e->z = jj_deflate_new(kind, -1, count_sink, e, &err);
    if (!e->z) {
      pipe_error(e, err.code, &err);
      return;
    }
  }
  e->w = e->z ? jj_writer_new(e->schema, jj_deflate_sink, e->z, &err)
              : jj_writer_new(e->schema, count_sink, e, &err);
  if (!e->w) {
    pipe_error(e, err.code, &err);
    return;
  }
  jj_code code = JJ_OK;
  while (rc == SQLITE_ROW) {
    e->rows++;
    for (int c = 0; c < e->ncol && code == JJ_OK; c++) code = write_value(e, c);
    if (code == JJ_OK) code = jj_writer_end_row(e->w);
    if (code != JJ_OK) break;
    rc = sqlite3_step(e->st);
  }
  if (code != JJ_OK) {
    const jj_error *we = jj_writer_error(e->w);
    if (we->code != JJ_OK || e->sink_failed) pipe_error(e, we->code, we);
    /* else the value's error is reported */
    return;
  }
  if (rc != SQLITE_DONE) {
    step_error(e, db, rc);
    return;
  }
  code = jj_writer_finish(e->w);
  if (code != JJ_OK) {
    pipe_error(e, code, jj_writer_error(e->w));
    return;
  }
  if (e->z && (code = jj_deflate_finish(e->z, &err)) != JJ_OK) {
    pipe_error(e, code, &err);
    return;
  }
  code = jj_atomic_commit(e->atomic, &err);
  e->atomic = NULL;
  if (code != JJ_OK) {
    pipe_error(e, code, &err);
    return;
  }
  char *json = sqlite3_mprintf("{\"rows\":%lld,\"bytes\":%llu}",
                               (long long)e->rows,
                               (unsigned long long)e->bytes);
  if (!json) {
    sqlite3_result_error_nomem(e->ctx);
    return;
  }
  sqlite3_result_text(e->ctx, json, -1, sqlite3_free);
  sqlite3_result_subtype(e->ctx, 74); /* JSON, for ->> */
}

void jjx_export_func(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  exporter e;
  jj_error err;
  jj_compression kind;
  memset(&e, 0, sizeof e);
  e.ctx = ctx;
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
  if (prepare(&e, db, sql) == 0 && parse_types(&e, spec) == 0)
    run(&e, db, path, kind);
  s->exporting = 0;
  jj_writer_free(e.w);
  jj_deflate_free(e.z);
  if (e.atomic) jj_atomic_abort(e.atomic); /* not committed: removed */
  jj_schema_free(e.schema);
  sqlite3_finalize(e.st);
  sqlite3_free(e.types);
  sqlite3_free(e.explicit_type);
}
