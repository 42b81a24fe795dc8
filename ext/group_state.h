/*
** group_state.h — what the files of the jj_group aggregate share: its
** state in the aggregate context, the format of its buffered values, the
** column types, and the calls down to group_value.c and group_write.c.
** It calls nothing above it.  The files, from the top down:
**
**   group.c         the aggregate: xStep and xFinal, the names and
**                   explicit types (first row), the column types, the
**                   document built at the end; calls the three below
**   group_value.c   the values: checked against their column as each row
**                   arrives, then written (the direct way) or buffered;
**                   the length limit kept where the bytes are counted
**   group_direct.c  the direct way (group_direct.h): each row written to
**                   the document as it arrives, when every column's type
**                   is known from the first row; else, or when a later
**                   row changes what the document would be, the rows go
**                   to the buffer
**   group_write.c   the buffer, in (each value) and out (the document at
**                   the end); the document's memory; the length limit's
**                   message
** Each calls only the files below it.  Only they include this header.
*/
#ifndef JJ_EXT_GROUP_STATE_H
#define JJ_EXT_GROUP_STATE_H

#include <stddef.h>
#include <stdint.h>

#include "ext.h"

/* The buffer.  A column's type may depend on every value (all INTEGER is
** i, one REAL makes it f), so the values wait in one growable buffer in
** the aggregate context (group_ctx.values), row by row, in a format of our
** own: a tag byte, then 8 bytes for INTEGER and REAL or a 4-byte length
** and the bytes for TEXT and BLOB.  No allocation per value, and nothing
** that needs freeing but the buffer (sqlite3_value_dup would allocate per
** value and copy as much).  group_write.c writes it (jjx_group_buffer, for
** group_value.c and group_direct.c) and reads it back at the end. */
enum { TAG_NULL, TAG_INT, TAG_REAL, TAG_TEXT, TAG_BLOB };

/* Storage classes seen in a column, as bits. */
#define K_INT 1u
#define K_REAL 2u
#define K_TEXT 4u
#define K_BLOB 8u

/* One value of the row being added, checked (group_value.c): its storage
** class after a TEXT number's conversion (SQLITE_INTEGER, SQLITE_FLOAT,
** SQLITE_TEXT, SQLITE_BLOB or SQLITE_NULL) and the value.  TEXT and BLOB
** bytes are SQLite's, valid while the row's arguments are. */
typedef struct group_val {
  int st;
  union {
    sqlite3_int64 i;
    double d;
    const void *p;
  } u;
  size_t n; /* TEXT and BLOB: the byte count */
} group_val;

typedef struct group_col {
  char *arg;           /* the name argument as given; sqlite3_free */
  size_t arg_len;
  size_t name_len;     /* the name is arg[0..name_len) (before ":T") */
  jj_type type;        /* the explicit type, or 0 to infer */
  unsigned kinds;      /* K_* seen */
  jj_schema *nested;   /* jj: the first document's schema; jj_schema_free */
  int64_t nested_row;  /* the row that document came from */
  jj_type written;     /* xFinal: the column's type in the document */
  jj_type direct;      /* the direct way: the column's type in the
                       ** document being written, else 0 */
} group_col;

typedef struct group_ctx {
  int ncol;            /* 0 until the first row */
  int failed;          /* an error was reported: ignore later rows */
  int64_t rows;        /* rows seen */
  group_col *cols;     /* ncol entries; sqlite3_free */
  jjx_buf values;      /* the buffered values, row by row (group_value.c) */
  group_val *row;      /* ncol entries: the row being added; sqlite3_free */
  jj_schema *schema;   /* the direct way: the document's schema, and */
  jj_writer *w;        /* its writer (NULL: the buffer); jj_schema_free,
                       ** jj_writer_free (group.c's group_free) */
  size_t limit;        /* SQLITE_LIMIT_LENGTH, read at the first row */
  uint64_t min_len;    /* the document is at least this long */
} group_ctx;

/* The type of a column in the document: explicit, or from the storage
** classes seen (all INTEGER i, with a REAL f, TEXT or none s, BLOB x).
** group.c's xFinal writes the document with it; group_direct.c checks
** that its document was started with these types. */
static inline jj_type jjx_group_column_type(const group_col *c) {
  if (c->type) return c->type;
  if (c->kinds & K_REAL) return JJ_FLOAT;
  if (c->kinds & K_INT) return JJ_INT;
  if (c->kinds & K_BLOB) return JJ_BYTES;
  return JJ_TEXT;
}

/* ---------------------------------------------------------------------- */
/* The values (group_value.c)                                             */
/* ---------------------------------------------------------------------- */

/* "INTEGER", "REAL", "TEXT", "BLOB" or "NULL" for a storage class. */
const char *jjx_class_name(int st);

/* Check and buffer the values of row g->rows (argv: the name, value
** pairs; the names are checked already) and stop when the document is
** sure to be longer than g->limit.  0, or -1 with the error reported and
** g->failed set. */
int jjx_group_add_row(sqlite3_context *ctx, group_ctx *g,
                      sqlite3_value **argv);

/* A TEXT value v for an explicit i, f or b column, converted by SQLite's
** affinity rules: SQLITE_INTEGER with *i, SQLITE_FLOAT with *d, 0 when it
** does not convert without loss (*why says how: 1 not a number or not a
** whole one, 2 a whole number written as a REAL beyond 2^53, which may
** have been rounded, 3 beyond 64 bits), -1 when out of memory. */
int jjx_group_from_text(sqlite3_value *v, jj_type type, sqlite3_int64 *i,
                        double *d, int *why);

/* ---------------------------------------------------------------------- */
/* The buffer and the document (group_write.c)                            */
/* ---------------------------------------------------------------------- */

/* Room for n more bytes in b: the check inline, since every buffered value
** passes here, the growth (rare) out of line.  0, or -1 OOM. */
static inline int jjx_group_reserve(jjx_buf *b, size_t n) {
  return b->cap - b->len >= n ? 0 : jjx_buf_grow(b, n);
}

/* Append one checked value to the buffer.  0, or -1 OOM. */
int jjx_group_buffer(jjx_buf *b, const group_val *v);

/* Write every buffered row to w (each column's type is cols[i].written).
** JJ_OK; JJ_ERR_LIMIT when the document grew past g->limit (reported,
** the rest not written); else the first error: the writer's (for the
** caller to report: jj_writer_error) or one worded here about a value
** (reported; jj_writer_error(w) may still say JJ_OK). */
jj_code jjx_group_write_rows(sqlite3_context *ctx, group_ctx *g,
                             jj_writer *w);

/* SQLite's allocator for a writer's buffer, so that the document is built
** where sqlite3_result_text64 takes it without a copy (the writers of
** group.c's xFinal and of the direct way). */
extern const jj_allocator jjx_group_memory;

/* Fail the aggregate: the document would not fit in an SQLite value. */
void jjx_group_too_long(sqlite3_context *ctx, group_ctx *g);

#endif /* JJ_EXT_GROUP_STATE_H */
