/*
** vtab.h — what the jj_open module's two files share: the table and the
** cursor (vtab.c scans, column.c hands out the current row's values).
** Only those two files include it.
*/
#ifndef JJX_VTAB_H
#define JJX_VTAB_H

#include "ext.h"
#include "plan.h"

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
                          ** date (jjOpenColumn's fast path) */
  int glob;               /* typed: the declared SOURCE is a pattern */
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
  jjx_files files;          /* a pattern's files and the filename filter */
  int multi;                /* 1: reading files[] one after another */
  int declared;             /* 1: files[] are the typed table's own */
  int by_rowid;             /* rows[] are rowids (file and row), not rows */
  int64_t file_index;       /* files[] index of the file read (0: none) */
  int64_t rec_row;          /* buf holds the record of this row of the
                            ** current scan; 0: none */
  sqlite3_stmt *rec_fb[JJX_RECORD_SLOTS]; /* record.c's fallbacks */
} jjx_cursor;

/* xColumn and xRowid (column.c), named in vtab.c's module table. */
int jjx_open_column(sqlite3_vtab_cursor *cur, sqlite3_context *ctx, int col);
int jjx_open_rowid(sqlite3_vtab_cursor *cur, sqlite3_int64 *pRowid);

#endif /* JJX_VTAB_H */
