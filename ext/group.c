/*
** group.c — jj_group(name1, value1, name2, value2, ...): an aggregate that
** returns the rows it saw as one canonical jalapenojson document (TEXT).
**
**   SELECT jj_group('id', id, 'user', user, 'joined:d', joined) FROM rows;
**
** A name may carry its type after its last colon: i f s d t l b x, or jj for
** a nested table whose values are jalapenojson documents (a nested
** jj_group, say).  The rest are typed from every value by the core's row
** builder, with the converter's rules and notes (jj_notes(); build_value.c
** gives it SQLite's values): all INTEGER i, INTEGER and REAL f (when every integer
** is exact as a double), TEXT s, or d and t when every text is a date or a
** timestamp, BLOB x, all NULL s, and a mix s with its values' text.  So
** jj_group, jj_export and the converter make the same document of the same
** values.
**
** The builder checks each value as its row arrives (a bad value stops the
** query at its row: dates and timestamps by the calendar, explicit types),
** keeps the rows compactly (in memory up to 4 MiB, then in a temporary
** file, so a large group does not grow SQLite's heap), and writes the
** document at the end into SQLite's memory (jj_allocator over
** sqlite3_realloc64), which SQLite takes without a copy.
**
** The document must fit SQLite's length limit (SQLITE_LIMIT_LENGTH): xStep
** keeps a lower bound of its size and stops as soon as that is over the
** limit, and the builder stops writing after the row that passes it, so
** an oversized result fails early and says so instead of building
** gigabytes first.  SQLite allows a function at most 127 arguments
** (SQLITE_MAX_FUNCTION_ARG), so jj_group takes at most 63 columns.  Rows
** are counted from 1 in the order xStep sees them.
*/
#include <string.h>

#include "build_at.h"

#define GROUP_MEMORY ((size_t)4 << 20)

typedef struct group_ctx {
  int ncol;          /* 0 until the first row */
  int failed;        /* an error was reported: ignore later rows */
  jjx_col *cols;     /* name: the name argument as given; sqlite3_free */
  jj_cell *cells;    /* a row's values; sqlite3_free */
  jj_builder *b;
  int64_t rows;      /* rows seen, this one too */
  sqlite3 *db;
  uint64_t min_len;  /* a lower bound of the document's length */
  uint64_t limit;    /* SQLITE_LIMIT_LENGTH */
  jjx_notes notes;   /* the builder's decisions, for jj_notes() */
} group_ctx;

/* SQLite's allocator for the document: sqlite3_result_text64 takes it
** without a copy, to free it with sqlite3_free. */
static void *sqlite_realloc(void *ctx, void *p, size_t n) {
  (void)ctx;
  return sqlite3_realloc64(p, n);
}

static void sqlite_free(void *ctx, void *p) {
  (void)ctx;
  sqlite3_free(p);
}

static const jj_allocator group_memory = {sqlite_realloc, sqlite_free, NULL};

static void too_long(sqlite3_context *ctx, group_ctx *g) {
  jjx_ctx_err(ctx, "jj_group: the document would be more than %llu bytes, "
                   "SQLite's length limit (SQLITE_LIMIT_LENGTH)",
              (unsigned long long)g->limit);
  g->failed = 1;
}

/* The builder's error as the function's. */
static void builder_failed(sqlite3_context *ctx, group_ctx *g) {
  const jj_error *e = jj_builder_error(g->b);
  g->failed = 1;
  if (e->code == JJ_ERR_NOMEM)
    sqlite3_result_error_nomem(ctx);
  else if (e->code == JJ_ERR_INTERRUPTED)
    sqlite3_result_error_code(ctx, SQLITE_INTERRUPT);
  else if (e->code == JJ_ERR_LIMIT)
    too_long(ctx, g);
  else
    jjx_ctx_err(ctx, "%s", e->message);
}

/* ---------------------------------------------------------------------- */
/* The first row: names and explicit types                                 */
/* ---------------------------------------------------------------------- */

/* Split "name:T" at its last colon when T is a type; an unknown T is an
** error (so a name with a colon is written with its type: 'a:b:s'). */
static int parse_name(sqlite3_context *ctx, jjx_col *c, const char *arg,
                      size_t n) {
  const char *colon = NULL;
  for (size_t i = 0; i < n; i++)
    if (arg[i] == ':') colon = arg + i;
  c->len = n;
  if (colon) {
    const char *t = colon + 1;
    size_t tlen = n - (size_t)(t - arg);
    if (!(c->type = jj_type_from_short(t, tlen))) {
      jjx_ctx_err(ctx, "jj_group: unknown type \"%.*s\" in \"%s\" (use i, f, "
                       "s, d, t, l, b, x or jj)",
                  (int)tlen, t, arg);
      return -1;
    }
    c->len = (size_t)(colon - arg);
  }
  return 0;
}

/* Names from the first row (TEXT, non-empty, distinct), and the builder. */
static int first_row(sqlite3_context *ctx, group_ctx *g, int argc,
                     sqlite3_value **argv) {
  int n = argc / 2;
  jj_build_opts o;
  jj_error err;
  g->cols = sqlite3_malloc64((sqlite3_uint64)n * sizeof *g->cols);
  g->cells = sqlite3_malloc64((sqlite3_uint64)n * sizeof *g->cells);
  if (!g->cols || !g->cells) return sqlite3_result_error_nomem(ctx), -1;
  memset(g->cols, 0, (size_t)n * sizeof *g->cols);
  g->ncol = n;
  memset(&o, 0, sizeof o);
  o.name = "jj_group";
  o.flags = JJ_BUILD_FIXED_COLUMNS;
  o.memory = GROUP_MEMORY;
  o.alloc = &group_memory;
  o.max_length = g->limit;
  jjx_notes_begin(&g->notes, "jj_group");
  o.note = jjx_note;
  o.note_ctx = &g->notes;
  if (!(g->b = jj_builder_new(&o, &err)))
    return sqlite3_result_error_nomem(ctx), -1;
  for (int i = 0; i < n; i++) {
    jjx_col *c = &g->cols[i];
    sqlite3_value *name = argv[2 * i];
    if (sqlite3_value_type(name) != SQLITE_TEXT) {
      jjx_ctx_err(ctx, "jj_group: the name of column %d must be TEXT, not %s",
                  i + 1, jjx_class_name(sqlite3_value_type(name)));
      return -1;
    }
    const char *p = (const char *)sqlite3_value_text(name);
    size_t len = (size_t)sqlite3_value_bytes(name);
    if (!p || !(c->name = sqlite3_malloc64(len + 1)))
      return sqlite3_result_error_nomem(ctx), -1;
    memcpy(c->name, p, len + 1);
    c->given = len;
    if (parse_name(ctx, c, c->name, len)) return -1;
    if (c->len == 0) {
      jjx_ctx_err(ctx, "jj_group: column %d has an empty name", i + 1);
      return -1;
    }
    for (int j = 0; j < i; j++) {
      if (g->cols[j].len == c->len && !memcmp(g->cols[j].name, c->name, c->len)) {
        jjx_ctx_err(ctx, "jj_group: columns %d and %d are both named \"%.*s\"",
                    j + 1, i + 1, (int)c->len, c->name);
        return -1;
      }
    }
    if (jj_builder_column(g->b, c->name, c->len, c->type))
      return builder_failed(ctx, g), -1;
  }
  /* into SQLite's memory; with every column typed, as each row ends */
  if (jj_builder_start(g->b, NULL, NULL)) return builder_failed(ctx, g), -1;
  return 0;
}

/* ---------------------------------------------------------------------- */
/* xStep and xFinal                                                        */
/* ---------------------------------------------------------------------- */

/* 1 when a[0..n) and b[0..n) are the same bytes: words compared as
** wholes (overlapping at the end), since names are short and this runs
** for every name of every row, where a call to memcmp costs more than the
** comparison. */
static inline int same_bytes(const char *a, const char *b, size_t n) {
  if (n >= 8) {
    uint64_t x, y, diff = 0;
    for (size_t i = 0; i + 8 < n; i += 8) {
      memcpy(&x, a + i, 8);
      memcpy(&y, b + i, 8);
      diff |= x ^ y;
    }
    memcpy(&x, a + n - 8, 8);
    memcpy(&y, b + n - 8, 8);
    return (diff | (x ^ y)) == 0;
  }
  if (n >= 4) {
    uint32_t x0, y0, x1, y1;
    memcpy(&x0, a, 4);
    memcpy(&y0, b, 4);
    memcpy(&x1, a + n - 4, 4);
    memcpy(&y1, b + n - 4, 4);
    return ((x0 ^ y0) | (x1 ^ y1)) == 0;
  }
  unsigned diff = 0;
  for (size_t i = 0; i < n; i++) diff |= (unsigned char)(a[i] ^ b[i]);
  return diff == 0;
}

/* 1 when a later row's name argument is still c's: TEXT, the same bytes
** (the length first: SQLite may reuse the memory of an argument, so its
** bytes are compared every row, never its pointer). */
static inline int same_name(sqlite3_value *name, const jjx_col *c) {
  if (sqlite3_value_type(name) != SQLITE_TEXT) return 0;
  const char *p = (const char *)sqlite3_value_text(name);
  return p && (size_t)sqlite3_value_bytes(name) == c->given &&
         same_bytes(p, c->name, c->given);
}

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
  if (g->ncol == 0) {
    g->db = sqlite3_context_db_handle(ctx);
    g->limit = (uint64_t)sqlite3_limit(g->db, SQLITE_LIMIT_LENGTH, -1);
    if (first_row(ctx, g, argc, argv)) {
      g->failed = 1;
      return;
    }
  }
  const jjx_col *cols = g->cols;
  uint64_t least = g->min_len;
  int later = g->rows++ > 0;
  for (int i = 0; i < g->ncol; i++) {
    /* the names are normally constants; a name that changes is an error */
    if (later && !same_name(argv[2 * i], &cols[i])) {
      jjx_ctx_err(ctx, "jj_group: row %lld: the name of column %d changed "
                       "from \"%s\"",
                  (long long)g->rows, i + 1, cols[i].name);
      g->failed = 1;
      return;
    }
    jjx_cell(&g->cells[i], argv[2 * i + 1], cols[i].type, &least);
  }
  g->min_len = least;
  if (jjx_build_row(g->b, g->db, cols,
                    (size_t)g->ncol, argv + 1, 2, g->cells)) {
    builder_failed(ctx, g);
    return;
  }
  if (g->min_len > g->limit) too_long(ctx, g);
}

void jjx_group_final(sqlite3_context *ctx) {
  group_ctx *g = sqlite3_aggregate_context(ctx, 0);
  if (!g) { /* no rows: NULL, and no decisions */
    jjx_notes none;
    jjx_notes_begin(&none, "jj_group");
    jjx_notes_publish(&none, sqlite3_user_data(ctx));
    return;
  }
  if (!g->failed && g->b) {
    size_t len;
    char *doc = NULL;
    if (jj_builder_finish(g->b, NULL, NULL, NULL) ||
        !(doc = jj_builder_take(g->b, &len)))
      builder_failed(ctx, g);
    else {
      sqlite3_result_text64(ctx, doc, len, sqlite3_free, SQLITE_UTF8);
      jjx_notes_publish(&g->notes, sqlite3_user_data(ctx));
    }
  }
  jjx_notes_discard(&g->notes);
  jj_builder_free(g->b);
  for (int i = 0; i < g->ncol; i++) sqlite3_free(g->cols[i].name);
  sqlite3_free(g->cols);
  sqlite3_free(g->cells);
  memset(g, 0, sizeof *g);
}
