/*
** group.h — what the three files of the jj_group aggregate share: its
** state in the aggregate context, the format of its buffered values and
** the calls between them.  Only they include it.
**
**   group.c        the aggregate: the names and explicit types (first
**                  row), the names of later rows, the column types, the
**                  document built by the core's writer in SQLite's memory
**   group_value.c  the values: checked against their column as each row
**                  arrives and buffered; the length limit, where the bytes
**                  are counted
**   group_write.c  the buffered values written to the document at the end
** group.c calls the other two; group_write.c calls group_value.c's
** jjx_group_too_long; group_value.c calls neither.
*/
#ifndef JJ_EXT_GROUP_H
#define JJ_EXT_GROUP_H

#include <stddef.h>
#include <stdint.h>

#include "ext.h"

/* The buffer.  A column's type may depend on every value (all INTEGER is
** i, one REAL makes it f), so the values wait in one growable buffer in
** the aggregate context (group_ctx.values), row by row, in a format of our
** own: a tag byte, then 8 bytes for INTEGER and REAL or a 4-byte length
** and the bytes for TEXT and BLOB.  No allocation per value, and nothing
** that needs freeing but the buffer (sqlite3_value_dup would allocate per
** value and copy as much).  group_value.c writes it, group_write.c reads
** it. */
enum { TAG_NULL, TAG_INT, TAG_REAL, TAG_TEXT, TAG_BLOB };

/* Storage classes seen in a column, as bits. */
#define K_INT 1u
#define K_REAL 2u
#define K_TEXT 4u
#define K_BLOB 8u

typedef struct group_col {
  char *arg;           /* the name argument as given; sqlite3_free */
  size_t arg_len;
  size_t name_len;     /* the name is arg[0..name_len) (before ":T") */
  jj_type type;        /* the explicit type, or 0 to infer */
  unsigned kinds;      /* K_* seen */
  jj_schema *nested;   /* jj: the first document's schema; jj_schema_free */
  int64_t nested_row;  /* the row that document came from */
  jj_type written;     /* xFinal: the column's type in the document */
} group_col;

typedef struct group_ctx {
  int ncol;            /* 0 until the first row */
  int failed;          /* an error was reported: ignore later rows */
  int64_t rows;        /* rows seen */
  group_col *cols;     /* ncol entries; sqlite3_free */
  jjx_buf values;      /* the buffered values, row by row (group_value.c) */
  size_t limit;        /* SQLITE_LIMIT_LENGTH, read at the first row */
  uint64_t min_len;    /* the document is at least this long */
} group_ctx;

/* "INTEGER", "REAL", "TEXT", "BLOB" or "NULL" for a storage class. */
const char *jjx_class_name(int st);

/* Check and buffer the values of row g->rows (argv: the name, value
** pairs; the names are checked already) and stop when the document is
** sure to be longer than g->limit.  0, or -1 with the error reported and
** g->failed set. */
int jjx_group_add_row(sqlite3_context *ctx, group_ctx *g,
                      sqlite3_value **argv);

/* Write every buffered row to w (each column's type is cols[i].written;
** group_write.c).
** JJ_OK; JJ_ERR_LIMIT when the document grew past g->limit (reported,
** the rest not written); else the first error: the writer's (for the
** caller to report: jj_writer_error) or one worded here about a value
** (reported; jj_writer_error(w) may still say JJ_OK). */
jj_code jjx_group_write_rows(sqlite3_context *ctx, group_ctx *g,
                             jj_writer *w);

/* A TEXT value v for an explicit i, f or b column, converted by SQLite's
** affinity rules (group_value.c): SQLITE_INTEGER with *i, SQLITE_FLOAT
** with *d, 0 when it does not convert without loss (*why says how: 1 not
** a number or not a whole one, 2 a whole number written as a REAL beyond
** 2^53, which may have been rounded, 3 beyond 64 bits), -1 when out of
** memory. */
int jjx_group_from_text(sqlite3_value *v, jj_type type, sqlite3_int64 *i,
                        double *d, int *why);

/* Fail the aggregate: the document would not fit in an SQLite value. */
void jjx_group_too_long(sqlite3_context *ctx, group_ctx *g);

#endif /* JJ_EXT_GROUP_H */
