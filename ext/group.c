/*
** group.c — jj_group(name1, value1, name2, value2, ...): an aggregate that
** returns the rows it saw as one canonical jalapenojson document (TEXT).
**
**   SELECT jj_group('id', id, 'user', user, 'joined:d', joined) FROM rows;
**
** A name may carry its type after its last colon: i f s d t b x, or jj for
** a nested table whose values are jalapenojson documents (a nested
** jj_group, say).  Without one the type follows the values' storage
** classes: all INTEGER -> i, INTEGER and REAL -> f, TEXT -> s, BLOB -> x,
** all NULL -> s.  That needs every value, so in general xStep buffers the
** values compactly in one growable buffer in the aggregate context (no
** allocation per row), and xFinal chooses the types and writes the
** document with the core's writer straight into SQLite's memory
** (jj_writer_new_alloc), which SQLite then takes without a copy, whatever
** the document's size.  The usual case is faster: when the first row types
** every column (an explicit type or a value that is not NULL), each row is
** written to the document as it arrives (group_direct.c), and the rows
** move to the buffer only if a later row would make the document another
** one (an INTEGER column's first REAL, say), so the result is always the
** buffered way's.
**
** What can be checked when a value arrives is checked in xStep, so a bad
** value stops the query at its row: names, explicit types (dates and
** timestamps with the core's calendar), storage classes that do not mix.
** An explicit i, f or b column also takes TEXT that SQLite's affinity
** converts without loss ('100', '1e2', '19.99'; jjx_group_from_text
** in group_value.c), kept as the number; other TEXT is an error that
** suggests a CAST or a TEXT column.
** Rows are counted from 1 in the order xStep sees them.
**
** The document must fit SQLite's length limit (SQLITE_LIMIT_LENGTH): xStep
** keeps a lower bound of its size and stops as soon as that is over the
** limit, and xFinal stops writing after the row that passes it, so an
** oversized result fails early and says so instead of building gigabytes
** first.  SQLite
** allows a function at most 127 arguments (SQLITE_MAX_FUNCTION_ARG), so
** jj_group takes at most 63 columns.
**
** This file, the top: the entry points, the names and explicit types, the
** document at the end.  It calls the rest, none of which calls back up:
** the values are group_value.c's (checking, then writing or buffering),
** which calls group_direct.c (the direct way, group_direct.h), and both
** call group_write.c (the buffer, in and out, the document's memory);
** group_state.h holds what the four share.
*/
#include <string.h>

#include "group_direct.h"
#include "group_state.h"

/* ---------------------------------------------------------------------- */
/* The first row: names and explicit types                                 */
/* ---------------------------------------------------------------------- */

/* Split "name:T" at its last colon when T is a type; an unknown T is an
** error (so a name with a colon is written with its type: 'a:b:s'). */
static int parse_name(sqlite3_context *ctx, group_col *c) {
  const char *colon = NULL;
  for (size_t i = 0; i < c->arg_len; i++)
    if (c->arg[i] == ':') colon = c->arg + i;
  c->name_len = c->arg_len;
  if (!colon) return 0;
  const char *t = colon + 1;
  size_t tlen = c->arg_len - (size_t)(t - c->arg);
  jj_type type = jj_type_from_short(t, tlen);
  if (type) {
    c->type = type;
    c->name_len = (size_t)(colon - c->arg);
    return 0;
  }
  jjx_ctx_err(ctx, "jj_group: unknown type \"%.*s\" in \"%s\" (use i, f, s, "
                   "d, t, b, x or jj)",
              (int)tlen, t, c->arg);
  return -1;
}

/* Take the names from the first row: TEXT, non-empty, distinct. */
static int first_row(sqlite3_context *ctx, group_ctx *g, int argc,
                     sqlite3_value **argv) {
  int n = argc / 2;
  g->cols = sqlite3_malloc64((sqlite3_uint64)n * sizeof *g->cols);
  if (!g->cols) {
    sqlite3_result_error_nomem(ctx);
    return -1;
  }
  memset(g->cols, 0, (size_t)n * sizeof *g->cols);
  g->ncol = n;
  g->row = sqlite3_malloc64((sqlite3_uint64)n * sizeof *g->row);
  if (!g->row) {
    sqlite3_result_error_nomem(ctx);
    return -1;
  }
  memset(g->row, 0, (size_t)n * sizeof *g->row);
  for (int i = 0; i < n; i++) {
    group_col *c = &g->cols[i];
    sqlite3_value *name = argv[2 * i];
    if (sqlite3_value_type(name) != SQLITE_TEXT) {
      jjx_ctx_err(ctx, "jj_group: the name of column %d must be TEXT, not %s",
                  i + 1, jjx_class_name(sqlite3_value_type(name)));
      return -1;
    }
    const char *p = (const char *)sqlite3_value_text(name);
    c->arg_len = (size_t)sqlite3_value_bytes(name);
    c->arg = sqlite3_malloc64(c->arg_len + 1);
    if (!p || !c->arg) {
      sqlite3_result_error_nomem(ctx);
      return -1;
    }
    memcpy(c->arg, p, c->arg_len + 1);
    if (parse_name(ctx, c)) return -1;
    if (c->name_len == 0) {
      jjx_ctx_err(ctx, "jj_group: column %d has an empty name", i + 1);
      return -1;
    }
    for (int j = 0; j < i; j++) {
      if (g->cols[j].name_len == c->name_len &&
          memcmp(g->cols[j].arg, c->arg, c->name_len) == 0) {
        jjx_ctx_err(ctx, "jj_group: columns %d and %d are both named \"%.*s\"",
                    j + 1, i + 1, (int)c->name_len, c->arg);
        return -1;
      }
    }
  }
  return 0;
}

/* ---------------------------------------------------------------------- */
/* xStep                                                                   */
/* ---------------------------------------------------------------------- */

void jjx_group_step(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  group_ctx *g = sqlite3_aggregate_context(ctx, sizeof *g);
  if (!g) {
    sqlite3_result_error_nomem(ctx);
    return;
  }
  if (g->failed) return;
  if (argc < 2 || argc % 2) {
    jjx_ctx_err(ctx, "jj_group: expected name, value pairs, got %d "
                     "argument%s",
                argc, argc == 1 ? "" : "s");
    g->failed = 1;
    return;
  }
  g->rows++;
  if (g->ncol == 0) {
    if (first_row(ctx, g, argc, argv)) {
      g->failed = 1;
      return;
    }
    g->limit = (size_t)sqlite3_limit(sqlite3_context_db_handle(ctx),
                                     SQLITE_LIMIT_LENGTH, -1);
  }
  jjx_group_add_row(ctx, g, argv); /* an error is reported, g->failed set */
}

/* ---------------------------------------------------------------------- */
/* xFinal                                                                  */
/* ---------------------------------------------------------------------- */

/* Release the context's memory (xFinal runs once, also after an error). */
static void group_free(group_ctx *g) {
  for (int i = 0; i < g->ncol; i++) {
    sqlite3_free(g->cols[i].arg);
    jj_schema_free(g->cols[i].nested);
  }
  sqlite3_free(g->cols);
  sqlite3_free(g->row);
  jjx_buf_free(&g->values);
  jj_writer_free(g->w); /* before the schema it borrows */
  jj_schema_free(g->schema);
  g->ncol = 0;
  g->cols = NULL;
  g->row = NULL;
  g->w = NULL;
  g->schema = NULL;
}

/* Build the schema, write every buffered row, hand the document over. */
static void finish(sqlite3_context *ctx, group_ctx *g) {
  jj_error err;
  jj_writer *w = NULL;
  jj_code code = JJ_OK;
  jj_schema *s = jj_schema_new();
  if (!s) goto nomem;
  for (int i = 0; i < g->ncol; i++) {
    group_col *c = &g->cols[i];
    jj_type t = jjx_group_column_type(c);
    jj_schema *nested = NULL;
    c->written = t;
    if (t == JJ_TABLE) {
      if (!c->nested) {
        jjx_ctx_err(ctx, "jj_group: column \"%.*s\" is NULL in every row: a "
                         "nested table takes its columns from a document",
                    (int)c->name_len, c->arg);
        goto done;
      }
      nested = jj_schema_copy(c->nested);
      if (!nested) goto nomem;
    }
    code = jj_schema_add(s, c->arg, c->name_len, t, nested, &err);
    if (code != JJ_OK) {
      if (code == JJ_ERR_NOMEM) goto nomem;
      jjx_ctx_err(ctx, "jj_group: %s", err.message);
      goto done;
    }
  }
  w = jj_writer_new_alloc(s, &jjx_group_memory, &err);
  if (!w) {
    if (err.code == JJ_ERR_NOMEM) goto nomem;
    jjx_ctx_err(ctx, "jj_group: %s", err.message);
    goto done;
  }
  code = jjx_group_write_rows(ctx, g, w);
  if (code == JJ_OK) code = jj_writer_finish(w);
  if (code == JJ_OK && jj_writer_length(w) > g->limit) {
    jjx_group_too_long(ctx, g); /* by the closing "]}" */
    goto done;
  }
  if (code != JJ_OK) {
    const jj_error *we = jj_writer_error(w);
    if (code == JJ_ERR_NOMEM || we->code == JJ_ERR_NOMEM) goto nomem;
    if (we->code != JJ_OK) jjx_ctx_err(ctx, "jj_group: %s", we->message);
    goto done; /* else reported: a value, or the length */
  }
  /* no copy: SQLite takes the buffer, sqlite3_realloc64 memory */
  size_t len;
  char *doc = jj_writer_take(w, &len);
  if (!doc) goto nomem;
  sqlite3_result_text64(ctx, doc, len, sqlite3_free, SQLITE_UTF8);
  goto done;
nomem:
  sqlite3_result_error_nomem(ctx);
done:
  jj_writer_free(w);
  jj_schema_free(s);
}

void jjx_group_final(sqlite3_context *ctx) {
  group_ctx *g = sqlite3_aggregate_context(ctx, 0);
  if (!g) return; /* no rows: NULL */
  if (!g->failed && g->rows > 0 && (!g->w || jjx_group_direct_finish(ctx, g)))
    finish(ctx, g);
  group_free(g);
}
