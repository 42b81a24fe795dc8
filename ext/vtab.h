/*
** vtab.h — what the jj_open module's files share: the table and the
** cursor (vtab.c connects and filters, scan.c moves over rows and files,
** column.c hands out the current row's values).  Only those include it.
*/
#ifndef JJX_VTAB_H
#define JJX_VTAB_H

#include "ext.h"
#include "plan.h"
#include "pushdown.h"

typedef struct jjx_table {
  sqlite3_vtab base;      /* base class, first */
  int typed;              /* 1: typed form; 0: record form */
  sqlite3 *db;            /* the connection, for limits and interrupts */
  jjx_settings *cfg;      /* the connection's settings (the module's pAux) */
  jjx_options opt;        /* typed: the CREATE's options */
  jjx_decl decl;          /* typed: the declared SOURCE as written */
  jj_schema *declared;    /* typed: the columns declared (a copy) */
  jjx_source src;         /* typed: the declared document once a scan has
                          ** opened it (src.doc != NULL); closed by
                          ** xDisconnect or when reopened */
  int readers;            /* cursors reading src (holding its bytes) */
  const jj_schema *schema;/* typed: == declared */
  int ncol;               /* typed: document columns; the hidden source
                          ** column follows them */
  int64_t est_rows;       /* typed: estimated rows of the document */
  uint64_t date_cols;     /* typed: bit i set when column i < 64 is a
                          ** date (jjOpenColumn's fast path); 0 with
                          ** union_by_name (a document's column i may be
                          ** another table column) */
  jjx_union uni;          /* typed, union_by_name: the declared columns as
                          ** a union (schema == declared's names), which
                          ** every document read is mapped onto */
  int glob;               /* typed: the declared SOURCE is a pattern */
  int text_ok;            /* typed: 1 when the connection's encoding is
                          ** UTF-8 (pushdown.c compares text as SQLite's
                          ** BINARY collation does), -1 when not, 0 until
                          ** the first xBestIndex asks */
  struct jjx_cursor *rec_last; /* record form: the cursor that built a
                          ** record last (record.c's fast path), or NULL */
  int rec_float;          /* record form: record.c's float_mode, 0 until
                          ** asked */
} jjx_table;

typedef struct jjx_cursor {
  sqlite3_vtab_cursor base; /* base class, first */
  jjx_source own;           /* a SOURCE given to this scan, or zeroed */
  int reads_table;          /* 1: holds the table's src (one of readers) */
  const char *label;        /* the scanned source's name, for messages */
  int is_file;              /* the scanned source is a file (label = path) */
  jj_cursor *cur;           /* over the scanned document; NULL: no rows */
  int eof;                  /* 1 after the last row */
  int list;                 /* 1: rows[] lists the wanted rows */
  int64_t *rows;            /* wanted rows, ascending; sqlite3_free */
  int nrows;                /* entries in rows[] */
  int irow;                 /* next entry of rows[] to visit */
  int64_t remaining;        /* LIMIT: rows still to return; -1: no limit */
  jjx_buf buf;              /* record JSON, nested tables; reused per row */
  jjx_buf text;             /* a text value NUL-terminated (column.c) */
  jjx_files files;          /* a pattern's files and the filename filter */
  int multi;                /* 1: reading files[] one after another */
  int declared;             /* 1: files[] are the typed table's own */
  int by_rowid;             /* rows[] are rowids (file and row), not rows */
  int64_t file_index;       /* files[] index of the file read (0: none) */
  int64_t rec_row;          /* buf holds the record of this row of the
                            ** current scan; 0: none */
  sqlite3_stmt *rec_fb[JJX_RECORD_SLOTS]; /* record.c's fallbacks */
  jjx_poll poll;            /* interrupts and progress ticks of this
                            ** cursor's reads; its probe lives until xClose */
  int remap;                /* 1: xColumn goes through vtab.c first (the
                            ** record form's options column, a union's map) */
  int *umap;                /* typed union_by_name: table column i is the
                            ** document's column umap[i] (-1: NULL); t->ncol
                            ** entries, sqlite3_free; used while remap */
  int union_by_name;        /* record form: OPTIONS said union_by_name=1 */
  jjx_union runi;           /* record form, union_by_name: the columns of
                            ** the files read so far (types must agree) */
  char *options;            /* record form: the OPTIONS text, read back by
                            ** its hidden column; sqlite3_free */
  jjx_filter filter;        /* typed: the WHERE comparisons the plan took
                            ** (pushdown.c); rows failing one are skipped */
  int rows_only;            /* the plan reads no value (IDX_ROWS_ONLY) */
  int64_t ahead;            /* rows_only: rows cur has checked past the one
                            ** SQLite is on (scan.c) */
} jjx_cursor;

/* The scan (scan.c). */
/* How cursor c of table t opens a SOURCE: the smaller of the table's
** max_size option and the connection's jj_max_size() now, polling through
** c->poll; declared: the typed table's own (its validate and mmap apply);
** cached: through the connection's cache (not for the declared single
** file, which the table keeps itself). */
jjx_limits jjx_scan_limits(const jjx_table *t, jjx_cursor *c, int declared,
                           int cached);
/* A row number from a constraint value, as SQLite compares a rowid: an
** integer, or a real or text that is exactly one.  0 when it names no row
** (NULL, 2.5, 'x', 0, negative). */
int64_t jjx_value_row(sqlite3_value *v);
/* The rows of `rowid IN (...)` into c->rows, ascending, without
** duplicates. */
int jjx_scan_collect(jjx_cursor *c, sqlite3_value *list);
/* Open the one document a scan reads: `source` when given, else the typed
** table's declared one; c->cur stays NULL for a NULL SOURCE. */
int jjx_scan_open_single(jjx_cursor *c, sqlite3_value *source);
/* A glob's scan: close the file read, open the next one the filename
** filter keeps (c->cur NULL when none is left) and check its columns. */
int jjx_scan_next_file(jjx_cursor *c);
/* Move to the next wanted row, or to eof (the next file of a glob). */
int jjx_scan_advance(jjx_cursor *c);
/* jj_cursor_seek(c->cur, row, err), ticking the progress handler every MiB
** of rows scanned to reach it: -1 with err JJ_ERR_INTERRUPTED ("interrupted")
** when stopped. */
int jjx_scan_seek(jjx_cursor *c, int64_t row, jj_error *err);

/* Read document column col of the current row exactly as xColumn reads it
** (the same accessor, so the same value and the same error): 1 a value in
** *v, 0 null, -1 an error in *err.  A nested table in *v is the caller's
** to free.  xColumn (column.c) and the WHERE filter (pushdown.c) use it.
**
** A date is read as its text, which SQL wants, by the per-type accessor:
** jj_cursor_value also counts its days (about 80 instructions a date
** under callgrind).  bench/sqlite_bench scan jjfile, 50,000 rows, best
** of 8 interleaved runs: every column through jj_cursor_value 39.6 ms
** (entropy) and 35.8 ms (repetitive); with this path 37.3 and 33.7 ms;
** the per-type switch it replaced 38.2 and 34.8 ms.  Every other type
** was as fast through jj_cursor_value, which also saves the schema
** lookup the old switch made per value. */
static inline int jjx_column_read(jjx_cursor *c, const jjx_table *t,
                                  int col, jj_value *v, jj_error *err) {
  if (col < 64 && (t->date_cols >> col & 1)) {
    v->type = JJ_DATE;
    return jj_cursor_text(c->cur, (size_t)col, &v->u.text.p, &v->u.text.len,
                          err);
  }
  return jj_cursor_value(c->cur, (size_t)col, v, err);
}


/* xColumn and xRowid (column.c); vtab.c's xColumn maps union columns and
** answers the options column before calling jjx_open_column. */
int jjx_open_column(sqlite3_vtab_cursor *cur, sqlite3_context *ctx, int col);
int jjx_open_rowid(sqlite3_vtab_cursor *cur, sqlite3_int64 *pRowid);

#endif /* JJX_VTAB_H */
