/*
** rejects.c — the rows a conversion set aside (on_error=skip or null), as
** a table: jj_rejects, like DuckDB's reject_errors.
**
**   CREATE VIRTUAL TABLE t USING jj_open('orders.csv', on_error=skip);
**   SELECT row, column, message FROM jj_rejects WHERE source = 'orders.csv';
**
**     source   TEXT     the file converted (NULL: jj_from_csv/jj_from_json)
**     options  TEXT     its converter options, canonical (convert_opts.c)
**     row      INTEGER  the row of the input set aside (1: the first after
**                       the header); NULL on the "not listed" row below
**     byte     INTEGER  where in the input (decompressed) its error is
**     column   TEXT     the column at fault; NULL: the row's (field count)
**     code     TEXT     the error's kind (jj_code_name: "row", "type", ...)
**     message  TEXT     the error, as on_error=fail would have said it
**
** For each file and set of options, the rows of its latest conversion: a
** file converted again (it changed, or left the cache) replaces its rows,
** a conversion that set nothing aside removes them; a statement served
** from the cache converts nothing and changes nothing.  The latest
** JJX_REJECT_SETS conversions that set rows aside are kept (newest first),
** each with its first JJX_REJECT_ROWS rows; rows past that are counted on
** one last row (row NULL, code "not_listed"), so no row set aside goes
** unmentioned.  Each row is also a "set aside:" line of jj_notes().
**
** jj_rejects names files this connection read: SQLITE_VTAB_DIRECTONLY, as
** jj_cache.  Eponymous only.
*/
#include <string.h>

#include "ext.h"

#define JJX_REJECT_SETS 64
#define JJX_REJECT_ROWS 10000

typedef struct reject_row {
  int64_t row;
  int64_t byte; /* -1: none */
  char *column; /* NULL: the row's */
  const char *code;
  char *message;
} reject_row;

struct jjx_reject_set {
  jjx_reject_set *next;
  char *source;  /* NULL: a function's */
  char *options; /* NULL: none */
  reject_row *rows;
  int n, cap;
  int64_t more;  /* set aside past JJX_REJECT_ROWS, or lost to memory */
};

static void set_free(jjx_reject_set *s) {
  if (!s) return;
  for (int i = 0; i < s->n; i++) {
    sqlite3_free(s->rows[i].column);
    sqlite3_free(s->rows[i].message);
  }
  sqlite3_free(s->rows);
  sqlite3_free(s->source);
  sqlite3_free(s->options);
  sqlite3_free(s);
}

void jjx_rejects_begin(jjx_reject_run *r, jjx_notes *notes) {
  memset(r, 0, sizeof *r);
  r->notes = notes;
}

void jjx_reject_cb(void *ctx, const jj_error *err, const char *col,
                   size_t col_len) {
  jjx_reject_run *r = ctx;
  char line[sizeof err->message + 16];
  sqlite3_snprintf((int)sizeof line, line, "set aside: %s", err->message);
  if (r->notes) jjx_note(r->notes, line);
  if (!r->set) {
    r->set = sqlite3_malloc(sizeof *r->set);
    if (!r->set) {
      r->lost++;
      return;
    }
    memset(r->set, 0, sizeof *r->set);
  }
  jjx_reject_set *s = r->set;
  if (s->n == JJX_REJECT_ROWS) {
    s->more++;
    return;
  }
  if (s->n == s->cap) {
    int cap = s->cap ? s->cap * 2 : 16;
    if (cap > JJX_REJECT_ROWS) cap = JJX_REJECT_ROWS;
    reject_row *p = sqlite3_realloc64(s->rows, (sqlite3_uint64)cap *
                                                   sizeof *p);
    if (!p) {
      s->more++;
      return;
    }
    s->rows = p;
    s->cap = cap;
  }
  reject_row *w = &s->rows[s->n];
  w->row = err->row;
  w->byte = err->offset == JJ_NO_OFFSET ? -1 : (int64_t)err->offset;
  w->code = jj_code_name(err->code);
  w->column = col ? sqlite3_mprintf("%.*s", (int)col_len, col) : NULL;
  w->message = sqlite3_mprintf("%s", err->message);
  if (!w->message || (col && !w->column)) {
    sqlite3_free(w->column);
    sqlite3_free(w->message);
    s->more++;
    return;
  }
  s->n++;
}

void jjx_rejects_discard(jjx_reject_run *r) {
  set_free(r->set);
  r->set = NULL;
  r->lost = 0;
}

/* 1 when both are NULL or both the same text. */
static int same(const char *a, const char *b) {
  return a == b || (a && b && strcmp(a, b) == 0);
}

void jjx_rejects_publish(jjx_reject_run *r, jjx_settings *cfg,
                         const char *source, const char *options) {
  jjx_reject_set **pp = &cfg->rejects;
  int kept = 0;
  while (*pp) { /* drop the conversion's older rows, and the oldest sets */
    jjx_reject_set *s = *pp;
    if ((same(s->source, source) && same(s->options, options)) ||
        kept == JJX_REJECT_SETS - 1) {
      *pp = s->next;
      set_free(s);
    } else {
      kept++;
      pp = &s->next;
    }
  }
  jjx_reject_set *s = r->set;
  if (!s && !r->lost) return; /* nothing set aside */
  r->set = NULL;
  if (!s) { /* even the set did not fit: keep nothing rather than lie */
    cfg->rejects_lost = 1;
    return;
  }
  s->more += r->lost;
  s->source = source ? sqlite3_mprintf("%s", source) : NULL;
  s->options = options ? sqlite3_mprintf("%s", options) : NULL;
  if ((source && !s->source) || (options && !s->options)) {
    set_free(s);
    cfg->rejects_lost = 1;
    return;
  }
  s->next = cfg->rejects;
  cfg->rejects = s;
}

void jjx_rejects_free_all(jjx_settings *cfg) {
  while (cfg->rejects) {
    jjx_reject_set *s = cfg->rejects;
    cfg->rejects = s->next;
    set_free(s);
  }
}

/* ---------------------------------------------------------------------- */
/* jj_rejects                                                              */
/* ---------------------------------------------------------------------- */

/* A snapshot of the sets taken by xFilter: a conversion during the scan
** (a join reading a file) changes the list, not what is being read. */
typedef struct rejects_cursor {
  jjx_snapshot s; /* first */
  char **cells;    /* per row: source, options, column, message, code */
  int64_t *nums;   /* per row: row, byte (-1: NULL); row -1: not listed */
} rejects_cursor;

#define CELLS 5
enum { C_SOURCE, C_OPTIONS, C_COLUMN, C_MESSAGE, C_CODE };

static int jjRejectsConnect(sqlite3 *db, void *aux, int argc,
                            const char *const *argv, sqlite3_vtab **ppVtab,
                            char **pzErr) {
  (void)argc;
  (void)argv;
  (void)pzErr;
  return jjx_state_connect(db, aux,
                           "CREATE TABLE x(source TEXT, options TEXT, row "
                           "INTEGER, byte INTEGER, \"column\" TEXT, code "
                           "TEXT, message TEXT)",
                           ppVtab);
}

static int jjRejectsBestIndex(sqlite3_vtab *vtab, sqlite3_index_info *info) {
  (void)vtab;
  info->estimatedCost = 100;
  info->estimatedRows = 100;
  return SQLITE_OK;
}

static int jjRejectsOpen(sqlite3_vtab *vtab, sqlite3_vtab_cursor **ppCur) {
  (void)vtab;
  return jjx_cursor_new(sizeof(rejects_cursor), ppCur);
}

static void rejects_reset(rejects_cursor *c) {
  for (int i = 0; i < c->s.n * CELLS; i++) sqlite3_free(c->cells[i]);
  sqlite3_free(c->cells);
  sqlite3_free(c->nums);
  c->cells = NULL;
  c->nums = NULL;
  c->s.n = c->s.i = 0;
}

static int jjRejectsClose(sqlite3_vtab_cursor *cur) {
  rejects_reset((rejects_cursor *)cur);
  sqlite3_free(cur);
  return SQLITE_OK;
}

/* Copy z into a cell (NULL stays NULL); 0, or -1 out of memory. */
static int cell(char **out, const char *z) {
  *out = z ? sqlite3_mprintf("%s", z) : NULL;
  return z && !*out ? -1 : 0;
}

static int jjRejectsFilter(sqlite3_vtab_cursor *cur, int idxNum,
                           const char *idxStr, int argc,
                           sqlite3_value **argv) {
  rejects_cursor *c = (rejects_cursor *)cur;
  jjx_settings *cfg = ((jjx_state_table *)cur->pVtab)->cfg;
  int64_t total = 0;
  (void)idxNum;
  (void)idxStr;
  (void)argc;
  (void)argv;
  rejects_reset(c);
  if (cfg->rejects_lost)
    return jjx_vtab_err(cur->pVtab, "jj_rejects: the rows set aside by a "
                                    "conversion were lost (out of memory)");
  for (jjx_reject_set *s = cfg->rejects; s; s = s->next)
    total += s->n + (s->more > 0);
  if (total == 0) return SQLITE_OK;
  c->cells = sqlite3_malloc64((sqlite3_uint64)total * CELLS * sizeof(char *));
  c->nums = sqlite3_malloc64((sqlite3_uint64)total * 2 * sizeof(int64_t));
  if (!c->cells || !c->nums) return SQLITE_NOMEM;
  for (jjx_reject_set *s = cfg->rejects; s; s = s->next) {
    for (int k = 0; k <= s->n; k++) {
      if (k == s->n && !s->more) break;
      char **w = &c->cells[c->s.n * CELLS];
      char *more = NULL;
      if (k == s->n) {
        more = sqlite3_mprintf("%lld more rows were set aside, not listed "
                               "(jj_rejects keeps the first %d of a "
                               "conversion)",
                               (long long)s->more, JJX_REJECT_ROWS);
        if (!more) return SQLITE_NOMEM;
      }
      const reject_row *r = k < s->n ? &s->rows[k] : NULL;
      memset(w, 0, CELLS * sizeof *w);
      c->s.n++; /* its cells are freed by the reset from here on */
      w[C_MESSAGE] = more;
      if (cell(&w[C_SOURCE], s->source) || cell(&w[C_OPTIONS], s->options) ||
          cell(&w[C_CODE], r ? r->code : "not_listed") ||
          (r && (cell(&w[C_COLUMN], r->column) ||
                 cell(&w[C_MESSAGE], r->message))))
        return SQLITE_NOMEM;
      c->nums[(c->s.n - 1) * 2] = r ? r->row : -1;
      c->nums[(c->s.n - 1) * 2 + 1] = r ? r->byte : -1;
    }
  }
  return SQLITE_OK;
}

static int jjRejectsColumn(sqlite3_vtab_cursor *cur, sqlite3_context *ctx,
                           int col) {
  rejects_cursor *c = (rejects_cursor *)cur;
  char **w = &c->cells[c->s.i * CELLS];
  const char *text = NULL;
  int64_t num = -1;
  switch (col) {
    case 0: text = w[C_SOURCE]; break;
    case 1: text = w[C_OPTIONS]; break;
    case 2: num = c->nums[c->s.i * 2]; break;
    case 3: num = c->nums[c->s.i * 2 + 1]; break;
    case 4: text = w[C_COLUMN]; break;
    case 5: text = w[C_CODE]; break;
    default: text = w[C_MESSAGE]; break;
  }
  if (col == 2 || col == 3) {
    if (num >= 0) sqlite3_result_int64(ctx, num);
  } else if (text) {
    sqlite3_result_text(ctx, text, -1, SQLITE_TRANSIENT);
  }
  return SQLITE_OK;
}

const sqlite3_module jjx_rejects_module = {
    0,                   /* iVersion */
    NULL,                /* xCreate: eponymous only */
    jjRejectsConnect,    /* xConnect */
    jjRejectsBestIndex,  /* xBestIndex */
    jjx_vtab_disconnect, /* xDisconnect */
    NULL,                /* xDestroy */
    jjRejectsOpen,       /* xOpen */
    jjRejectsClose,      /* xClose */
    jjRejectsFilter,     /* xFilter */
    jjx_snapshot_next,   /* xNext */
    jjx_snapshot_eof,    /* xEof */
    jjRejectsColumn,     /* xColumn */
    jjx_snapshot_rowid,  /* xRowid */
    NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL};
