/*
** scan.c — a jj_open cursor moving over its rows: opening the document a
** scan reads (a SOURCE given, the typed table's declared one, or each file
** of a glob in turn), checking its columns, and stepping to the rows the
** plan wants (all, rowid = N, rowid IN (...), a LIMIT, the rows passing
** the WHERE comparisons the plan took: pushdown.c).  vtab.c's xFilter
** sets a scan up and xNext calls jjx_scan_advance (open_table.h, then
** jjx_scan_step here); only the structure of the rows passed over is
** scanned, no value is converted here (column.c converts what a query
** reads).  Called by vtab.c only; calls pushdown.c's
** jjx_filter_row, source.c (opening documents), glob.c, union.c, typed.c,
** settings.c and util.c.
**
** The columns of a document a scan opens must be:
**   typed table           the declared ones (a glob's file, a table-valued
**                         SOURCE, the declared file after it changed)
**   typed, union_by_name  a subset of the declared union, by name, of the
**                         same types (union.c); the cursor's umap says
**                         where each table column is
**   record form, glob     the first file's; with union_by_name, any, but a
**                         name has one type in every file
**
** Long reads poll sqlite3_interrupt() and tick the progress handler through
** the cursor's jjx_poll (settings.c): every MiB read or decompressed, and
** every file of a glob opened, every MiB of rows a far seek passes over
** (jjx_scan_seek), so a scan that spends its time in xFilter or between
** rows (a glob of empty files, rowid = 900000 on a fresh document) can be
** watched and stopped.
*/
#include <stdlib.h>
#include <string.h>

#include "ext.h"
#include "open_table.h"
#include "pushdown.h"

/* The smaller of a table's max_size option and the connection's limit, 0
** standing for "none" in both. */
static uint64_t min_limit(uint64_t option, uint64_t connection) {
  if (option == 0) return connection;
  if (connection == 0) return option;
  return option < connection ? option : connection;
}

jjx_limits jjx_scan_limits(const jjx_table *t, jjx_cursor *c, int declared,
                           int cached) {
  jjx_limits lim;
  memset(&lim, 0, sizeof lim);
  lim.max_size = min_limit(t->typed ? t->opt.max_size : 0, t->cfg->max_size);
  lim.by_option = t->typed && t->opt.max_size &&
                  lim.max_size == t->opt.max_size &&
                  lim.max_size != t->cfg->max_size;
  if (declared) {
    lim.parse_flags = t->opt.validate ? JJ_PARSE_VALIDATE : 0;
    lim.file_flags = t->opt.mmap ? JJ_FILE_MMAP : 0;
  }
  lim.db = t->db;
  lim.poll = &c->poll;
  if (cached) lim.cache = &t->cfg->cache;
  lim.cfg = t->cfg;
  lim.conv = t->typed ? &t->opt.conv : &c->ropt.conv;
  return lim;
}

int64_t jjx_value_row(sqlite3_value *v) {
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

int jjx_scan_collect(jjx_cursor *c, sqlite3_value *list) {
  sqlite3_value *v = NULL;
  int cap = 0, rc;
  for (rc = sqlite3_vtab_in_first(list, &v); rc == SQLITE_OK && v;
       rc = sqlite3_vtab_in_next(list, &v)) {
    int64_t r = jjx_value_row(v);
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
  if (err->code == JJ_ERR_INTERRUPTED)
    return jjx_vtab_take(c->base.pVtab, sqlite3_mprintf("interrupted"),
                         SQLITE_INTERRUPT);
  return jjx_cursor_err(&c->base, "%s: %s", c->label, err->message);
}

/* Tell the new cursor which columns the plan reads (c->reads: plan.c),
** so that its rows' other values are not located.  The document has the
** table's columns (check_file; union_by_name plans read every column). */
static int select_reads(jjx_cursor *c) {
  size_t cols[64], n = 0;
  jj_error err;
  if (!c->reads) return SQLITE_OK;
  for (uint64_t b = c->reads; b; b &= b - 1) cols[n++] = (size_t)__builtin_ctzll(b);
  return jj_cursor_select(c->cur, cols, n, &err) == JJ_OK ? SQLITE_OK : scan_error(c, &err);
}

/* A typed union_by_name table: map the document's columns onto the union
** (c->umap), reading through the map unless it is the identity. */
static int map_union(jjx_cursor *c, const char *label,
                     const jj_schema *got) {
  jjx_table *t = (jjx_table *)c->base.pVtab;
  char *msg = NULL;
  int identity = 0;
  if (!c->umap) {
    c->umap = sqlite3_malloc64(((size_t)t->ncol + 1) * sizeof *c->umap);
    if (!c->umap) return SQLITE_NOMEM;
  }
  c->remap = 0;
  int rc = jjx_union_map(&t->uni, label, got, c->umap, &identity, &msg);
  if (rc != SQLITE_OK) return jjx_vtab_take(&t->base, msg, rc);
  c->remap = !identity;
  return SQLITE_OK;
}

/* The columns of one file of a glob (see the top of the file). */
static int check_file(jjx_cursor *c, const char *label,
                      const jj_schema *got) {
  jjx_table *t = (jjx_table *)c->base.pVtab;
  char *msg = NULL;
  int rc;
  if (t->typed && t->opt.union_by_name) return map_union(c, label, got);
  if (!t->typed && c->union_by_name)
    rc = jjx_union_add(&c->runi, label, got, &msg);
  else
    rc = jjx_files_check(&c->files, label, t->typed ? t->schema : NULL, got,
                         &msg);
  return rc == SQLITE_OK ? rc : jjx_vtab_take(&t->base, msg, rc);
}

/* A seek past the rows whose place is known scans the structure of the
** rows in between inside one VM step: it goes in steps of about a MiB
** (SEEK_FIRST rows at first, then as many as the last step's bytes say),
** ticking the progress handler between them.  Within SEEK_FIRST rows of
** the known ones, and to a known row, it is one jj_cursor_seek. */
#define SEEK_FIRST 4096
#define SEEK_MIB ((uint64_t)1 << 20)

int jjx_scan_seek(jjx_cursor *c, int64_t row, jj_error *err) {
  jj_doc *doc = jj_cursor_doc(c->cur);
  uint64_t at, now, work = 0;
  int64_t step = SEEK_FIRST;
  int64_t known = jj_doc_rows_known(doc, &at);
  while (row - known > step) {
    int r = jj_cursor_seek(c->cur, known + step, err);
    if (r <= 0) return r;
    known = jj_doc_rows_known(doc, &now);
    uint64_t did = now > at ? now - at : 0;
    at = now;
    work += did;
    /* the next step: about a MiB of rows like these, 16 to 1M rows */
    step = did ? (int64_t)((uint64_t)step * SEEK_MIB / did) : step * 2;
    step = step < 16 ? 16 : step > (1 << 20) ? (1 << 20) : step;
    if (work >= SEEK_MIB) {
      int ticks = (int)(work / SEEK_MIB);
      work %= SEEK_MIB;
      if (jjx_poll_tick(&c->poll, ticks * JJX_TICK_MIB)) {
        memset(err, 0, sizeof *err);
        err->code = JJ_ERR_INTERRUPTED;
        memcpy(err->message, "interrupted", sizeof "interrupted");
        return -1;
      }
    }
  }
  return jj_cursor_seek(c->cur, row, err);
}

/* The next row of a scan that reads no value (IDX_ROWS_ONLY): rows are
** checked up to 64 at a time (fewer under a LIMIT) by jj_cursor_skip, which
** writes no spans for the rows it passes, and handed out one by one;
** c->ahead counts those the cursor is past, which jjx_scan_advance
** (open_table.h) hands out; this is called when none is left.  A broken
** row is never passed: skip stops before it, and its error comes when
** SQLite reaches it.  callgrind, count(*) over 50,000 rows: 31.4 -> 25.5 M
** instructions (high-entropy), 24.9 -> 19.6 M (repetitive). */
static int rows_only_step(jjx_cursor *c, jj_error *err) {
  int64_t n = c->remaining > 0 && c->remaining < 64 ? c->remaining : 64;
  int64_t k = jj_cursor_skip(c->cur, n, err);
  if (k <= 0) return (int)k;
  c->ahead = k - 1;
  return 1;
}

int jjx_scan_step(jjx_cursor *c) {
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
        r = jjx_scan_seek(c, c->rows[c->irow++] & JJX_ROW_MASK, &err);
    } else if (c->rows_only) {
      r = rows_only_step(c, &err);
    } else {
      r = jj_cursor_next(c->cur, &err);
    }
    if (r < 0) return scan_error(c, &err);
    /* the WHERE comparisons the table took (pushdown.c): a row failing
    ** one is passed over here, before LIMIT counts it */
    if (r > 0 && c->filter.n) {
      r = jjx_filter_row(c, &err);
      if (r < 0) return scan_error(c, &err);
      if (r == 0) continue;
    }
    if (r > 0) {
      c->eof = 0;
      if (c->remaining > 0) c->remaining--;
      return SQLITE_OK;
    }
    if (!c->multi) {
      c->eof = 1;
      return SQLITE_OK;
    }
    int rc = jjx_scan_next_file(c); /* this file is done: the next one */
    if (rc != SQLITE_OK) return rc;
  }
}

int jjx_scan_next_file(jjx_cursor *c) {
  jjx_table *t = (jjx_table *)c->base.pVtab;
  jj_error err;
  char *msg = NULL;
  jj_cursor_free(c->cur);
  c->cur = NULL;
  c->ahead = 0;
  jjx_source_close(&c->own);
  c->label = NULL;
  c->is_file = 0;
  c->rec_row = 0; /* the record built is of this file: rows restart at 1 */
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
  /* A file opened is work the progress handler hears of: a glob of many
  ** small or empty files runs few VM steps of its own. */
  if (jjx_poll_tick(&c->poll, JJX_TICK_FILE))
    return jjx_vtab_take(c->base.pVtab, sqlite3_mprintf("interrupted"),
                         SQLITE_INTERRUPT);
  jjx_limits lim = jjx_scan_limits(t, c, c->declared, 1);
  int rc = jjx_source_open_path(&c->own, name, &lim, &msg);
  if (rc != SQLITE_OK) return jjx_vtab_take(c->base.pVtab, msg, rc);
  c->label = c->own.label;
  c->is_file = 1;
  rc = check_file(c, c->label, jj_doc_schema(c->own.doc));
  if (rc != SQLITE_OK) return rc;
  c->cur = jj_cursor_new(c->own.doc, &err);
  return c->cur ? select_reads(c) : scan_error(c, &err);
}

/* The declared document for a scan by cursor c.  The first scan opens it
** (within the limits of that moment); a later scan that finds no cursor
** reading it reopens it when the file changed or the limit was lowered
** under its size, and requires the declared columns and types (a union
** table maps them instead: open_single).  A cursor keeps the bytes it
** started with until it is closed (the end of its statement), so every scan
** of one statement reads the same bytes. */
static int table_document(jjx_table *t, jjx_cursor *c) {
  char *msg = NULL;
  if (c->reads_table) return SQLITE_OK;
  /* a JSON or CSV file: the cached document its CREATE converted */
  int converted = t->decl.kind == JJX_DECL_PATH &&
                  jj_format_for_path(t->decl.label) != JJ_FORMAT_AUTO;
  jjx_limits lim = jjx_scan_limits(t, c, 1, converted);
  const jj_file *held = t->src.entry ? &t->src.entry->file : &t->src.file;
  if (t->src.doc && t->readers == 0 &&
      ((t->src.is_file && jj_file_changed(held, t->decl.label)) ||
       (lim.max_size && t->src.len > lim.max_size)))
    jjx_source_close(&t->src);
  if (!t->src.doc) {
    int rc = jjx_source_open_decl(&t->src, &t->decl, &lim, &msg);
    if (rc != SQLITE_OK) return jjx_vtab_take(&t->base, msg, rc);
    const jj_schema *found = jj_doc_schema(t->src.doc);
    if (!t->opt.union_by_name &&
        !jj_schema_equal(t->declared, found, NULL)) {
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

int jjx_scan_open_single(jjx_cursor *c, sqlite3_value *source) {
  jjx_table *t = (jjx_table *)c->base.pVtab;
  jj_doc *doc;
  jj_error err;
  if (source) {
    char *msg = NULL;
    jjx_limits lim = jjx_scan_limits(t, c, 0, 1);
    int rc = jjx_source_open_value(&c->own, source, &lim, &msg);
    if (rc != SQLITE_OK) return jjx_vtab_take(c->base.pVtab, msg, rc);
    doc = c->own.doc;
    c->label = c->own.label;
    c->is_file = c->own.is_file;
    if (!doc) return SQLITE_OK; /* NULL source: no rows */
    if (t->typed && !t->opt.union_by_name &&
        !jj_schema_equal(t->schema, jj_doc_schema(doc), NULL))
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
  if (t->typed && t->opt.union_by_name) {
    int rc = map_union(c, c->label, jj_doc_schema(doc));
    if (rc != SQLITE_OK) return rc;
  }
  c->cur = jj_cursor_new(doc, &err);
  return c->cur ? select_reads(c) : scan_error(c, &err);
}
