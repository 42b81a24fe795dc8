/*
** open_table.h — what the files of the jj_open module share: the table and
** its cursor, the rowid's layout, the record form's columns, the WHERE
** comparisons a cursor applies, and reading one column of the current row
** (jjx_column_read).  It stands under every file of the module and calls
** only the core:
**
**   vtab.c      the module's methods, on top: calls every file below
**   column.c    xColumn and xRowid: the current row's values
**   scan.c      the cursor moving over rows and files (then pushdown.c's
**               row filter, source.c)
**   plan.c      xBestIndex (plan.h: its idxNum bits; then pushdown.c)
**   pushdown.c  the WHERE comparisons the table decides (pushdown.h)
**
** Only those five files include it.
*/
#ifndef JJX_OPEN_TABLE_H
#define JJX_OPEN_TABLE_H

#include <stdint.h>

#include "ext.h"

/* Columns of the record form (jj_open(SOURCE) without CREATE). */
#define REC_ROW 0
#define REC_RECORD 1
#define REC_SOURCE 2
#define REC_OPTIONS 3 /* jj_open(SOURCE, OPTIONS): 'union_by_name=1' */
#define REC_FILENAME 4

/* The rowid of a row read from the k-th file (0-based, in name order) a
** pattern matches: k << JJX_ROWID_SHIFT | the row in its file.  The one
** file of a SOURCE that is not a pattern is file 0: rowid = row.  Unique in
** a scan, as SQLite's OR optimisation needs (it drops rows by rowid), and
** ascending in scan order. */
#define JJX_ROWID_SHIFT 40
#define JJX_ROW_MASK (((int64_t)1 << JJX_ROWID_SHIFT) - 1)

/* ---------------------------------------------------------------------- */
/* The WHERE comparisons a cursor applies (pushdown.c decides and checks  */
/* them; the cursor holds them)                                           */
/* ---------------------------------------------------------------------- */

/* The comparisons taken, in the order their spellings are tried. */
typedef enum jjx_pop {
  JJX_P_EQ,
  JJX_P_NE,
  JJX_P_LT,
  JJX_P_LE,
  JJX_P_GT,
  JJX_P_GE,
  JJX_P_IS,
  JJX_P_ISNOT,
  JJX_P_ISNULL,
  JJX_P_NOTNULL,
  JJX_P_COUNT
} jjx_pop;

/* The right-hand value of one comparison, as SQLite compares it: a TEXT
** value that numeric affinity turns into a number is that number (the
** columns whose comparisons apply numeric affinity only).  kind is
** SQLITE_NULL, SQLITE_INTEGER, SQLITE_FLOAT, SQLITE_TEXT or SQLITE_BLOB; p
** (text or blob bytes, n of them) is owned: sqlite3_free. */
typedef struct jjx_rhs {
  int kind;
  int64_t i;
  double f;
  char *p;
  size_t n;
} jjx_rhs;

/* One comparison of the filter: document column `col` (0-based) op rhs. */
typedef struct jjx_pred {
  int col;
  jj_type type; /* the column's declared type */
  jjx_pop op;
  jjx_rhs rhs;
  int loose;    /* a pre-filter SQLite checks again (omit=0): a TEXT column
                ** = or IS a value the plan could not see */
  int pass_all; /* loose, and the value may equal text that differs in its
                ** bytes (a number, text reading as one): no row fails */
  int text_text; /* a text column against a text value (not IS NULL):
                 ** a value present compares by its bytes alone */
} jjx_pred;

/* A cursor's filter: every comparison must hold (they are ANDed), checked
** in order, the first that fails ends the row's check.  preds is owned
** (sqlite3_free, after each rhs.p); jjx_filter_free empties it. */
typedef struct jjx_filter {
  int n;
  jjx_pred *preds;
} jjx_filter;

/* ---------------------------------------------------------------------- */
/* The table and its cursor                                               */
/* ---------------------------------------------------------------------- */

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
  jjx_options ropt;         /* record form: the OPTIONS text parsed (its
                            ** converter's options: jjx_copts_free) */
  jjx_filter filter;        /* typed: the WHERE comparisons the plan took
                            ** (pushdown.c); rows failing one are skipped */
  int rows_only;            /* the plan reads no value (IDX_ROWS_ONLY) */
  uint64_t reads;           /* the plan reads these columns only ("read"
                            ** in idxStr; 0: every column): the cursor
                            ** is told (jj_cursor_select, scan.c) */
  int64_t ahead;            /* rows_only: rows cur has checked past the one
                            ** SQLite is on (scan.c) */
  char ts[40];              /* the timestamp read last, in SQLite's form
                            ** (jjx_ts_sql) */
} jjx_cursor;

/* The scan (scan.c). */
/* How cursor c of table t opens a SOURCE: the smaller of the table's
** max_size option and the connection's jj_max_size() now, polling through
** c->poll, with the converter's options of the table (typed) or of the
** OPTIONS text (record form); declared: the typed table's own (its
** validate and mmap apply); cached: through the connection's cache (not
** for the declared single document file, which the table keeps itself;
** a declared JSON or CSV file is kept there since its CREATE converted
** it). */
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
/* Move to the next wanted row, or to eof (the next file of a glob).
** vtab.c's xNext and xFilter call it through jjx_scan_advance, which hands
** out a row checked ahead without the call (see there). */
int jjx_scan_step(jjx_cursor *c);
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
/* A t or l value's text in SQLite's own form, as its datetime() writes
** one: "YYYY-MM-DD HH:MM:SS[.fff...]", a t converted to UTC, the
** fraction's trailing zeros dropped.  v->u.text then points to c->ts
** (valid until the next read).  So xColumn and the WHERE filter both
** compare as `ts >= datetime('now', '-1 day')` expects (column.c). */
void jjx_ts_sql(jjx_cursor *c, jj_value *v);

static inline int jjx_column_read(jjx_cursor *c, const jjx_table *t,
                                  int col, jj_value *v, jj_error *err) {
  if (col < 64 && (t->date_cols >> col & 1)) {
    v->type = JJ_DATE;
    return jj_cursor_text(c->cur, (size_t)col, &v->u.text.p, &v->u.text.len,
                          err);
  }
  int r = jj_cursor_value(c->cur, (size_t)col, v, err);
  if (r > 0 && (v->type == JJ_TIMESTAMP || v->type == JJ_LOCAL_TIMESTAMP) &&
      !t->opt.ts_as_written)
    jjx_ts_sql(c, v);
  return r;
}

/* xColumn and xRowid (column.c); vtab.c's xColumn maps union columns and
** answers the options column before calling jjx_open_column. */
int jjx_open_column(sqlite3_vtab_cursor *cur, sqlite3_context *ctx, int col);
int jjx_open_rowid(sqlite3_vtab_cursor *cur, sqlite3_int64 *pRowid);

#endif /* JJX_OPEN_TABLE_H */
