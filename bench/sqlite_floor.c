/*
** sqlite_floor.c — the floor under every virtual table: a do-nothing
** virtual table whose seven columns are already in memory as SQLite-ready
** values, so that xColumn only hands a value over.  The benchmark measures
** the jalapenojson table against it: what a full scan, sum(price), count(*)
** or a date filter costs SQLite itself when the rows come from a virtual
** table (a call per value, a step per row) is the time no virtual table
** can beat, whatever its format.
**
**   CREATE VIRTUAL TABLE temp.f USING bench_floor(t);
**   CREATE VIRTUAL TABLE temp.f USING bench_floor(t, length);
**
** xCreate copies every row of the native table `t` (id INTEGER, user TEXT,
** city TEXT, plan TEXT, seats INTEGER, price REAL, joined TEXT, in rowid
** order) into arrays: integers as int64, prices as double, text into one
** arena, each value NUL-terminated.  xColumn then calls one
** sqlite3_result_*: integers and doubles by value, text as SQLITE_STATIC
** with length -1.  That last choice is the cheapest SQLite offers and
** deliberate: text passed with its length is not marked NUL-terminated,
** and the first function that asks for terminated text (length(), the
** full scan's) makes SQLite copy it into a fresh allocation; with -1 SQLite
** finds the length itself (a strlen of a few bytes) and marks the value
** terminated, so nothing is ever copied.  Handing over sqlite3_value_dup'd
** values with sqlite3_result_value is dearer (SQLite copies every text
** value it is given that way).
**
** With the second argument `length`, text goes over with its length
** instead (still SQLITE_STATIC): the way a table that hands out bytes of a
** document must do it, since those bytes are not followed by a NUL.  That
** variant measures what SQLite's copy of unterminated text costs; the
** benchmark runs it on the full scan only (the one task that calls
** length()).
**
** xBestIndex takes `rowid = ?` (one row, idxNum 1) and nothing else: every
** other constraint is left to SQLite, which is what "do nothing" means.
** The module is registered by floor_register() in sqlite_bench.c's process
** only; it is never part of the extension.
*/
#include "sqlite_floor.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { F_ID, F_USER, F_CITY, F_PLAN, F_SEATS, F_PRICE, F_JOINED, F_COLUMNS };
#define F_TEXTS 4   /* user, city, plan, joined */

/* The table: every row's values, owned here, freed by xDisconnect. */
typedef struct floor_vtab {
  sqlite3_vtab base;     /* first: SQLite's part */
  sqlite3_int64 n;       /* rows */
  sqlite3_int64 *id, *seats;
  double *price;
  size_t *text_at;       /* n * F_TEXTS offsets into arena, row-major */
  char *arena;           /* every text value with its NUL */
  size_t *text_len;      /* n * F_TEXTS byte lengths (the `length` variant) */
  int with_length;       /* 1: text handed over with its length, not -1 */
} floor_vtab;

/* A cursor: the row it is on (0-based) and the row it stops before. */
typedef struct floor_cursor {
  sqlite3_vtab_cursor base;  /* first: SQLite's part */
  sqlite3_int64 i, end;
} floor_cursor;

static void floor_free(floor_vtab *t) {
  if (!t) return;
  free(t->id);
  free(t->seats);
  free(t->price);
  free(t->text_at);
  free(t->arena);
  free(t->text_len);
  sqlite3_free(t);
}

/* Read the native table named by argv[3] into *t.  Returns SQLITE_OK or
** an error with *err set (sqlite3_mprintf'd, SQLite frees it). */
static int floor_load(sqlite3 *db, const char *table, floor_vtab *t, char **err) {
  sqlite3_stmt *st = NULL;
  char *sql = sqlite3_mprintf("SELECT count(*), sum(length(CAST(user AS BLOB))) + "
                              "sum(length(CAST(city AS BLOB))) + sum(length(CAST(plan AS BLOB))) + "
                              "sum(length(CAST(joined AS BLOB))) FROM \"%w\"", table);
  int rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
  sqlite3_free(sql);
  if (rc != SQLITE_OK || sqlite3_step(st) != SQLITE_ROW) goto fail;
  t->n = sqlite3_column_int64(st, 0);
  size_t text_bytes = (size_t)sqlite3_column_int64(st, 1) + (size_t)t->n * F_TEXTS;
  sqlite3_finalize(st);
  st = NULL;
  size_t n = (size_t)t->n ? (size_t)t->n : 1;
  t->id = malloc(n * sizeof *t->id);
  t->seats = malloc(n * sizeof *t->seats);
  t->price = malloc(n * sizeof *t->price);
  t->text_at = malloc(n * F_TEXTS * sizeof *t->text_at);
  t->arena = malloc(text_bytes + 1);
  t->text_len = malloc(n * F_TEXTS * sizeof *t->text_len);
  if (!t->id || !t->seats || !t->price || !t->text_at || !t->arena || !t->text_len) {
    *err = sqlite3_mprintf("bench_floor: out of memory for %lld rows", (long long)t->n);
    return SQLITE_NOMEM;
  }
  sql = sqlite3_mprintf("SELECT id, user, city, plan, seats, price, joined FROM \"%w\" "
                        "ORDER BY rowid", table);
  rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
  sqlite3_free(sql);
  if (rc != SQLITE_OK) goto fail;
  static const int text_col[F_TEXTS] = {F_USER, F_CITY, F_PLAN, F_JOINED};
  size_t at = 0;
  sqlite3_int64 i = 0;
  while ((rc = sqlite3_step(st)) == SQLITE_ROW && i < t->n) {
    t->id[i] = sqlite3_column_int64(st, F_ID);
    t->seats[i] = sqlite3_column_int64(st, F_SEATS);
    t->price[i] = sqlite3_column_double(st, F_PRICE);
    for (int k = 0; k < F_TEXTS; k++) {
      const unsigned char *z = sqlite3_column_text(st, text_col[k]);
      size_t len = (size_t)sqlite3_column_bytes(st, text_col[k]);
      if (at + len + 1 > text_bytes) { /* the table changed since it was sized */
        *err = sqlite3_mprintf("bench_floor: table %s changed while it was read", table);
        sqlite3_finalize(st);
        return SQLITE_ERROR;
      }
      memcpy(t->arena + at, z ? (const char *)z : "", len);
      t->arena[at + len] = 0;
      t->text_at[(size_t)i * F_TEXTS + (size_t)k] = at;
      t->text_len[(size_t)i * F_TEXTS + (size_t)k] = len;
      at += len + 1;
    }
    i++;
  }
  if (rc != SQLITE_DONE || i != t->n) goto fail;
  sqlite3_finalize(st);
  return SQLITE_OK;
fail:
  *err = sqlite3_mprintf("bench_floor: cannot load table %s: %s", table, sqlite3_errmsg(db));
  sqlite3_finalize(st);
  return SQLITE_ERROR;
}

/* xCreate and xConnect: declare the seven columns, load the rows. */
static int floor_connect(sqlite3 *db, void *aux, int argc, const char *const *argv,
                         sqlite3_vtab **out, char **err) {
  (void)aux;
  if (argc < 4 || argc > 5 || (argc == 5 && strcmp(argv[4], "length") != 0)) {
    *err = sqlite3_mprintf("bench_floor: expected (TABLE [, length])");
    return SQLITE_ERROR;
  }
  floor_vtab *t = sqlite3_malloc(sizeof *t);
  if (!t) return SQLITE_NOMEM;
  memset(t, 0, sizeof *t);
  t->with_length = argc == 5;
  int rc = floor_load(db, argv[3], t, err);
  if (rc == SQLITE_OK)
    rc = sqlite3_declare_vtab(db, "CREATE TABLE x(id INTEGER, user TEXT, city TEXT, plan TEXT, "
                                  "seats INTEGER, price REAL, joined TEXT)");
  if (rc != SQLITE_OK) {
    floor_free(t);
    return rc;
  }
  *out = &t->base;
  return SQLITE_OK;
}

static int floor_disconnect(sqlite3_vtab *vt) {
  floor_free((floor_vtab *)vt);
  return SQLITE_OK;
}

/* idxNum 0: every row (cost n); idxNum 1: rowid = argv[0] (one row). */
static int floor_best_index(sqlite3_vtab *vt, sqlite3_index_info *info) {
  floor_vtab *t = (floor_vtab *)vt;
  for (int i = 0; i < info->nConstraint; i++) {
    const struct sqlite3_index_constraint *c = &info->aConstraint[i];
    if (c->usable && c->iColumn == -1 && c->op == SQLITE_INDEX_CONSTRAINT_EQ) {
      info->aConstraintUsage[i].argvIndex = 1;
      info->aConstraintUsage[i].omit = 1;
      info->idxNum = 1;
      info->estimatedCost = 1;
      info->estimatedRows = 1;
      info->idxFlags = SQLITE_INDEX_SCAN_UNIQUE;
      return SQLITE_OK;
    }
  }
  info->idxNum = 0;
  info->estimatedCost = (double)t->n;
  info->estimatedRows = t->n;
  return SQLITE_OK;
}

static int floor_open(sqlite3_vtab *vt, sqlite3_vtab_cursor **out) {
  (void)vt;
  floor_cursor *c = sqlite3_malloc(sizeof *c);
  if (!c) return SQLITE_NOMEM;
  memset(c, 0, sizeof *c);
  *out = &c->base;
  return SQLITE_OK;
}

static int floor_close(sqlite3_vtab_cursor *cur) {
  sqlite3_free(cur);
  return SQLITE_OK;
}

static int floor_filter(sqlite3_vtab_cursor *cur, int idx_num, const char *idx_str, int argc,
                        sqlite3_value **argv) {
  (void)idx_str;
  floor_cursor *c = (floor_cursor *)cur;
  floor_vtab *t = (floor_vtab *)cur->pVtab;
  c->i = 0;
  c->end = t->n;
  if (idx_num == 1 && argc == 1) {
    sqlite3_int64 r = sqlite3_value_int64(argv[0]);
    int ok = sqlite3_value_numeric_type(argv[0]) == SQLITE_INTEGER && r >= 1 && r <= t->n;
    c->i = ok ? r - 1 : t->n;
    c->end = ok ? r : t->n;
  }
  return SQLITE_OK;
}

static int floor_next(sqlite3_vtab_cursor *cur) {
  ((floor_cursor *)cur)->i++;
  return SQLITE_OK;
}

static int floor_eof(sqlite3_vtab_cursor *cur) {
  floor_cursor *c = (floor_cursor *)cur;
  return c->i >= c->end;
}

/* The one call per value: hand it over, nothing else. */
static int floor_column(sqlite3_vtab_cursor *cur, sqlite3_context *ctx, int col) {
  floor_cursor *c = (floor_cursor *)cur;
  floor_vtab *t = (floor_vtab *)cur->pVtab;
  size_t row = (size_t)c->i;
  switch (col) {
    case F_ID: sqlite3_result_int64(ctx, t->id[row]); break;
    case F_SEATS: sqlite3_result_int64(ctx, t->seats[row]); break;
    case F_PRICE: sqlite3_result_double(ctx, t->price[row]); break;
    case F_USER: case F_CITY: case F_PLAN: case F_JOINED: {
      size_t k = row * F_TEXTS + (size_t)(col == F_JOINED ? 3 : col - F_USER);
      sqlite3_result_text(ctx, t->arena + t->text_at[k], t->with_length ? (int)t->text_len[k] : -1,
                          SQLITE_STATIC);
      break;
    }
    default: break;
  }
  return SQLITE_OK;
}

static int floor_rowid(sqlite3_vtab_cursor *cur, sqlite3_int64 *rowid) {
  *rowid = ((floor_cursor *)cur)->i + 1;
  return SQLITE_OK;
}

static sqlite3_module floor_module = {
    0,                /* iVersion */
    floor_connect,    /* xCreate */
    floor_connect,    /* xConnect */
    floor_best_index, /* xBestIndex */
    floor_disconnect, /* xDisconnect */
    floor_disconnect, /* xDestroy */
    floor_open,       /* xOpen */
    floor_close,      /* xClose */
    floor_filter,     /* xFilter */
    floor_next,       /* xNext */
    floor_eof,        /* xEof */
    floor_column,     /* xColumn */
    floor_rowid,      /* xRowid */
    NULL,             /* xUpdate */
    NULL,             /* xBegin */
    NULL,             /* xSync */
    NULL,             /* xCommit */
    NULL,             /* xRollback */
    NULL,             /* xFindFunction */
    NULL,             /* xRename */
    NULL,             /* xSavepoint */
    NULL,             /* xRelease */
    NULL,             /* xRollbackTo */
    NULL,             /* xShadowName */
};

int floor_register(sqlite3 *db) {
  return sqlite3_create_module(db, "bench_floor", &floor_module, NULL);
}
