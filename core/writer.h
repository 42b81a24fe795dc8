/*
** writer.h — what the writer's files share (writer.c, encode.c, copy.c):
** the struct behind jj_writer, its one failure helper, and the inline path
** every value takes.  Nothing outside these three files includes it.
**
**   writer.c  creating, the header, the state of rows and nested tables,
**             errors, finishing; the slow halves of the inline path
**   encode.c  the values: one function per type, encoding straight into
**             the buffer
**   copy.c    copying from a cursor (jj_writer_copy, jj_writer_copy_rows)
*/
#ifndef JJ_WRITER_H
#define JJ_WRITER_H

#include <stddef.h>
#include <stdint.h>

#include "internal.h"

/* For the slow halves of the value path: kept out of the fast halves so
** that those need no stack frame. */
#if defined(__GNUC__) || defined(__clang__)
#define JJ_W_NOINLINE __attribute__((noinline))
#else
#define JJ_W_NOINLINE
#endif

/* Sink mode: pass the buffer on once it holds this much (a writer's
** flush_at). */
#define FLUSH_AT 65536

/* The column types of one schema (the top level or a nested table) as a
** flat array, so the value path reads a byte instead of calling into
** schema.c; sub[i] is the level of nested column i.  Built once by
** jj_writer_new (level_new) and freed by jj_writer_free (level_free). */
typedef struct level {
  size_t ncols;
  struct level **sub;    /* ncols entries, NULL unless JJ_TABLE; or NULL
                         ** when the schema has no nested column */
  unsigned char types[]; /* ncols jj_type letters */
} level;

/* One open table. */
typedef struct frame {
  const jj_schema *s; /* borrowed from the writer's schema */
  const level *lv;    /* the cached types of s, owned by the writer */
  size_t ncols;
  size_t col;   /* values written in the current row */
  int64_t rows; /* rows ended in this table */
} frame;

enum { W_NEW, W_OPEN, W_FINISHED }; /* jj_writer.phase */

struct jj_writer {
  const jj_schema *schema; /* borrowed: the caller keeps it alive */
  jj_sink sink;            /* NULL: build in memory */
  void *ctx;
  size_t flush_at; /* sink mode: pass the buffer on once it holds this
                   ** much (FLUSH_AT; more for the row builder's
                   ** writer ahead of the types) */
  jj_buf out; /* owned; handed over by jj_writer_take; out.a points at
              ** alloc after jj_writer_new_alloc */
  jj_allocator alloc; /* jj_writer_new_alloc's allocator (copied) */
  uint64_t flushed;   /* bytes passed to the sink so far */
  char *meta; /* owned copy of the meta JSON, or NULL */
  size_t meta_len;
  int phase; /* W_NEW, W_OPEN (the header is written) or W_FINISHED
             ** (jj_writer_finish succeeded): one field, so that the value
             ** path tests it once */
  level *top;   /* owned: the cached types of `schema` (level_free) */
  frame *stack; /* owned, max_depth frames */
  size_t depth; /* index of the innermost open table */
  size_t max_depth;
  jj_error err; /* the first error; code JJ_OK while alive */
};

/* What a writer error names besides the row of the innermost table. */
enum {
  JJ_W_ROW,    /* the row only: value counts, nesting */
  JJ_W_VALUE,  /* the row and the column of the value being written */
  JJ_W_COLUMN  /* the row; the message names the column itself, and at the
               ** top level the error's column field holds it too (a
               ** column's kind, a copy's source) */
};

/* Kill the writer with its first error (writer.c): code and the message
**   [path]row R[, column "name"]: <formatted detail>
** where the path names the open tables above the innermost ("row 3,
** column "items", ") and `names` says what else is named.  Returns code. */
jj_code jj_writer_fail(jj_writer *w, jj_code code, int names, const char *fmt, ...)
    JJ_PRINTF(4, 5);
/* Out of memory kills the writer like any other error (writer.c). */
jj_code jj_writer_nomem(jj_writer *w);

/* 1 when the writer's state lets a value or row go straight on: the header
** is written, no error, not finished.  The one test of that state; where
** it fails, jj_writer_ready_slow sorts out why. */
static inline int jj_writer_open(const jj_writer *w) {
  return w->phase == W_OPEN && !w->err.code;
}
/* Why a value or row cannot go straight on: dead, finished, or the header
** is not yet written (then it is written now).  JJ_OK when it may go on,
** else the writer's error (writer.c). */
jj_code jj_writer_ready_slow(jj_writer *w);
/* JJ_OK when a value or row may go on now, else the writer's error. */
static inline jj_code jj_writer_ready(jj_writer *w) {
  return JJ_LIKELY(jj_writer_open(w)) ? JJ_OK : jj_writer_ready_slow(w);
}

/* The checks of a value's start, in the order errors are reported: the
** writer's state, the column count, the column's kind (t; 0 for null,
** which fits any column).  JJ_OK when the value may go on, else the
** writer's error (writer.c). */
jj_code jj_writer_check(jj_writer *w, jj_type t);
/* A value beyond the last column of the row (writer.c). */
jj_code jj_writer_too_many(jj_writer *w);
/* Pass everything buffered to the sink (sink mode; writer.c). */
jj_code jj_writer_flush(jj_writer *w);
/* value_begin when anything is unusual: every check in the order errors
** are reported (state, column count, column kind), then the room; NULL
** with the writer dead (writer.c). */
char *jj_writer_value_slow(jj_writer *w, jj_type t, size_t need);

/* Room for `need` more bytes plus the separator and slack, without
** growing the buffer. */
static inline int has_room(const jj_writer *w, size_t need) {
  size_t room = w->out.cap - w->out.len;
  return room >= 8 && room - 8 >= need;
}

/* Write the separator before the value of column col (",\n[" or "," or
** "[" as the row and table call for: rows ended so far in the table, top
** when it is the document's) at d; returns where the value goes. */
static inline char *separator_at(char *d, size_t col, int64_t rows,
                                 int top) {
  if (col == 0) {
    if (rows) {
      *d++ = ',';
      if (top) *d++ = '\n';
    }
    *d++ = '[';
  } else {
    *d++ = ',';
  }
  return d;
}

/* The separator before the next value of table f. */
static inline char *put_separator(const jj_writer *w, const frame *f,
                                  char *d) {
  return separator_at(d, f->col, f->rows, w->depth == 0);
}

/* Start a value of kind t (0: null, fits any column) that needs at most
** `need` bytes: check the row and column, reserve, write the separator.
** Returns where the value goes (out.len not yet advanced), or NULL with
** the writer dead.  Inline: this is every value's path. */
static inline char *value_begin(jj_writer *w, jj_type t, size_t need) {
  frame *f = &w->stack[w->depth];
  if (JJ_UNLIKELY(!jj_writer_open(w) || f->col >= f->ncols ||
                  (t && t != (jj_type)f->lv->types[f->col]) ||
                  !has_room(w, need)))
    return jj_writer_value_slow(w, t, need);
  return put_separator(w, f, w->out.p + w->out.len);
}

/* The value ended at d: count it, flush when the buffer is full. */
static inline jj_code value_end(jj_writer *w, char *d) {
  w->out.len = (size_t)(d - w->out.p);
  w->stack[w->depth].col++;
  if (w->sink && w->out.len >= w->flush_at) return jj_writer_flush(w);
  return JJ_OK;
}

/* A row that ends before its last column (writer.c). */
jj_code jj_writer_short_row(jj_writer *w);

/* jj_writer_end_row, inline for the row builder's rows written whole. */
static inline jj_code writer_end_row(jj_writer *w) {
  jj_code rc = jj_writer_ready(w);
  if (rc) return rc;
  frame *f = &w->stack[w->depth];
  if (JJ_UNLIKELY(f->col < f->ncols)) return jj_writer_short_row(w);
  if (JJ_UNLIKELY(w->out.len == w->out.cap) && jj_buf_reserve(&w->out, 1))
    return jj_writer_nomem(w);
  w->out.p[w->out.len++] = ']'; /* the first value opened the row */
  f->col = 0;
  f->rows++;
  if (w->sink && w->out.len >= w->flush_at) return jj_writer_flush(w);
  return JJ_OK;
}

/* The document's bytes so far: passed to the sink and held. */
static inline uint64_t writer_length(const jj_writer *w) {
  return w->flushed + w->out.len;
}

#endif /* JJ_WRITER_H */
