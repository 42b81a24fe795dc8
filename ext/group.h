/*
** group.h — what the four files of the jj_group aggregate share: its
** state in the aggregate context, the format of its buffered values and
** the calls between them.  Only they include it.
**
**   group.c         the aggregate: the names and explicit types (first
**                   row), the names of later rows, the column types, the
**                   document built by the core's writer in SQLite's memory
**   group_value.c   the values: checked against their column as each row
**                   arrives, then written or buffered; the length limit,
**                   where the bytes are counted
**   group_direct.c  the direct way: each row written to the document as
**                   it arrives, when every column's type is known from
**                   the first row; else, or when a later row changes what
**                   the document would be, the rows go to the buffer
**   group_write.c   the buffered values written to the document at the end
** group.c calls the others; group_value.c calls group_direct.c;
** group_direct.c and group_write.c call group_value.c's jjx_group_too_long.
*/
#ifndef JJ_EXT_GROUP_H
#define JJ_EXT_GROUP_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

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

/* "INTEGER", "REAL", "TEXT", "BLOB" or "NULL" for a storage class. */
const char *jjx_class_name(int st);

/* Check and buffer the values of row g->rows (argv: the name, value
** pairs; the names are checked already) and stop when the document is
** sure to be longer than g->limit.  0, or -1 with the error reported and
** g->failed set. */
int jjx_group_add_row(sqlite3_context *ctx, group_ctx *g,
                      sqlite3_value **argv);

/* The type of a column in the document: explicit, or from the storage
** classes seen (all INTEGER i, with a REAL f, TEXT or none s, BLOB x;
** group.c). */
jj_type jjx_group_column_type(const group_col *c);

/* SQLite's allocator for a writer's buffer, so that the document is built
** where sqlite3_result_text64 takes it without a copy (group.c). */
extern const jj_allocator jjx_group_memory;

/* Room for n more bytes in b: the check inline, since every buffered value
** passes here, the growth (rare) out of line.  0, or -1 OOM. */
static inline int jjx_group_reserve(jjx_buf *b, size_t n) {
  return b->cap - b->len >= n ? 0 : jjx_buf_grow(b, n);
}

/* Append one checked value to the buffer (group_value.c).  0, or -1 OOM. */
int jjx_group_buffer(jjx_buf *b, const group_val *v);

/* The direct way (group_direct.c).  After the first row is checked:
** start the document when every column's type is known (explicit, or the
** first row's value is not NULL; no nested tables), else leave g->w NULL.
** 0, or -1 out of memory (reported, g->failed set). */
int jjx_group_direct_start(sqlite3_context *ctx, group_ctx *g);
/* Value i of the row being added, g->row[i], would change what the
** document is (an INTEGER column's first REAL, an INTEGER a float column
** cannot hold exactly, TEXT that is not UTF-8): move every row written so
** far to the buffer, then values 0..i of this row, and carry on the
** buffered way, which then decides exactly as it always has.  0, or -1
** reported (g->failed set). */
int jjx_group_direct_move(sqlite3_context *ctx, group_ctx *g, int i);
/* A writer error on a checked value: memory (or a bug).  Reported, -1. */
int jjx_group_direct_fail(sqlite3_context *ctx, group_ctx *g, jj_code code);
/* End the row in the document; when the document has grown past
** g->limit, move it to the buffer (the buffered way decides which error
** that is).  0, or -1 reported. */
int jjx_group_direct_end_row(sqlite3_context *ctx, group_ctx *g);
/* The direct document, finished and handed to SQLite; or, when the column
** types are not what it was started with (they always are), moved to the
** buffer: then 1 is returned for xFinal to write the buffer.  0 when
** done (result or error set). */
int jjx_group_direct_finish(sqlite3_context *ctx, group_ctx *g);
/* 1 when p[0..n) is valid UTF-8: ASCII checked inline a word at a time
** (overlapping words, reads inside p[0..n)), the rest by the core's own
** check (jj_utf8_check), so it decides exactly as the writer does. */
static inline int jjx_group_text_ok(const unsigned char *p, size_t n) {
  const uint64_t highs = UINT64_C(0x8080808080808080);
  uint64_t x, bad = 0;
  if (n >= 8) {
    for (size_t i = 0; i + 8 < n; i += 8) {
      memcpy(&x, p + i, 8);
      bad |= x;
    }
    memcpy(&x, p + n - 8, 8);
    bad |= x;
  } else if (n >= 4) {
    uint32_t a, b;
    memcpy(&a, p, 4);
    memcpy(&b, p + n - 4, 4);
    bad = a | b;
  } else {
    for (size_t i = 0; i < n; i++) bad |= p[i];
  }
  return !(bad & highs) || jj_utf8_check((const char *)p, n, NULL);
}

/* The direct way's value path, inline since every value takes it: value
** i of the row (checked) written as group_write.c's write_value writes its
** buffered form, or, when it would change the document, the move to the
** buffer.  0, or -1 reported. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((always_inline))
#endif
static inline int jjx_group_direct_value(sqlite3_context *ctx, group_ctx *g,
                                         int i) {
  const group_val *v = &g->row[i];
  jj_type t = g->cols[i].direct;
  jj_writer *w = g->w;
  jj_code code;
  switch (v->st) {
    case SQLITE_INTEGER:
      if (t == JJ_INT) {
        code = jj_writer_int(w, v->u.i);
      } else if (t == JJ_BOOL) {
        code = jj_writer_bool(w, v->u.i != 0);
      } else { /* a float column: only when exact */
        double d = (double)v->u.i;
        if (!(d >= -9223372036854775808.0 && d < 9223372036854775808.0 &&
              (sqlite3_int64)d == v->u.i))
          return jjx_group_direct_move(ctx, g, i);
        code = jj_writer_double(w, d);
      }
      break;
    case SQLITE_FLOAT:
      if (t != JJ_FLOAT) return jjx_group_direct_move(ctx, g, i);
      code = jj_writer_double(w, v->u.d);
      break;
    case SQLITE_TEXT:
      if (t == JJ_DATE) {
        code = jj_writer_date(w, v->u.p, v->n);
      } else if (t == JJ_TIMESTAMP) {
        code = jj_writer_timestamp(w, v->u.p, v->n);
      } else {
        if (!jjx_group_text_ok(v->u.p, v->n))
          return jjx_group_direct_move(ctx, g, i);
        code = jj_writer_text(w, v->u.p, v->n);
      }
      break;
    case SQLITE_BLOB:
      code = jj_writer_bytes(w, v->u.p, v->n);
      break;
    default:
      code = jj_writer_null(w);
  }
  return code == JJ_OK ? 0 : jjx_group_direct_fail(ctx, g, code);
}

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
