/*
** build.h — what the row builder's two files share (not public).
**
**   build_tape.c   the tape a row is kept in, JSON text read off it, the
**                  temporary file, failures
**   build.c        the values as they come: each found its column, checked
**                  against an explicit type, folded into the column's kinds
**                  (infer.h) and appended to the row's tape; whole rows go
**                  to memory, then to a temporary file
**   build_write.c  the rows written: a row read off its tape through a
**                  jj_writer as its columns' types say; every row kept,
**                  read back at the end, and the rows of fixed, typed
**                  columns written as they end
**   build_ahead.c  fixed columns whose types are inferred: rows written as
**                  they end with the first row's types, kept as the
**                  document's bytes while those types hold
**   build_finish.c where a row goes when it ends (written, written ahead
**                  or kept), and the document at the end
**   build_at.c     a value with its column's place in one call: while
**                  rows are written as they come, a value that keeps to
**                  its column's type goes to the writer with no detour
**
** The tape of a row is a run of entries, each an op byte, the column's
** index (LEB128) and the value's bytes (LEB128 length first when it has
** one).  A nested table is OP_TABLE, then its rows, each closed by
** OP_ROW_END, then OP_TABLE_END.  A top-level row is stored as its length
** (4 bytes, the machine's order: the file never leaves the process) then
** its tape.  The tape holds the values as the host gave them
** (an int as an int, a date as days), so the same value is written the
** same way whichever column type it ends up in.
*/
#ifndef JJ_BUILD_H
#define JJ_BUILD_H

#include <stdio.h>

#include "infer.h"

enum {
  OP_NULL = 1,
  OP_FALSE,
  OP_TRUE,
  OP_INT,   /* 8 bytes */
  OP_FLOAT, /* 8 bytes */
  OP_NUM,   /* length, the number's text */
  OP_TEXT,  /* length, UTF-8 */
  OP_BYTES, /* length, bytes */
  OP_DATE,  /* 4 bytes: days */
  OP_TS,    /* 8 + 4 + 2 + 1 bytes: a jj_timestamp's fields */
  OP_JSON,  /* length, JSON text */
  OP_TABLE, /* rows follow, then OP_TABLE_END */
  OP_ROW_END,
  OP_TABLE_END
};

#define BUILD_MEMORY ((size_t)16 << 20)

/* A table whose row is being given: the top one, or a nested one. */
typedef struct build_level {
  ic_table *t;
  size_t tape_at; /* the nested table's OP_TABLE in the row's tape */
  int64_t rows;   /* rows ended in this table value */
  uint64_t serial; /* the row being given: its columns' stamps */
} build_level;

struct jj_builder {
  ic x; /* the columns, messages and notes, the schema (infer.h) */
  jj_build_opts o;
  jj_error err;
  jj_code failed;   /* sticky: every call after a failure returns it */
  jj_buf tape;      /* whole rows (each its 4-byte length, then its tape)
                    ** and the top-level row being given, until they
                    ** pass opts.memory and go to the file */
  size_t row_at;    /* the row being given: its length's place in tape */
  build_level lv[IC_MAX_DEPTH + 1];
  unsigned depth;   /* lv[depth] is the table being given */
  long col;         /* the column of the next value, -1 before a key */
  int in_row;       /* a row of lv[depth] has begun */
  uint64_t serial;  /* rows begun, nested ones too (column stamps) */
  int64_t rows;     /* top-level rows ended */
  uint64_t nulled;
  FILE *file;       /* the rows that passed opts.memory, in order */
  jj_buf scratch;   /* text forms and examples */
  jj_writer *w;     /* at the end; from the first row when straight */
  int finished;
  int started;      /* jj_builder_start gave where the document goes */
  jj_sink sink;     /* that sink and context */
  void *sink_ctx;
  int straight;     /* rows are written as they end (build_straight) */
  /* build_ahead.c: while `ahead`, w is a writer with the types of the
  ** first row (each column's ic_col.type, also in ahead_types: 0 while it
  ** has held only nulls); it holds its header and rows up to opts.memory
  ** bytes, then passes the rows to ahead_rows */
  int ahead;
  int ahead_off;    /* not tried, or given up: rows stay on the tape */
  unsigned char *ahead_types; /* owned, one per top-level column */
  jj_schema *ahead_schema; /* owned: the writer ahead's */
  jj_spool ahead_rows;
  size_t ahead_header; /* bytes of the header before the rows */
  size_t ahead_skip; /* of those, the bytes not yet passed to keep_rows,
                    ** which keeps only the rows */
  size_t last_at;   /* the tape: where the last row read back begins */
  size_t next_col;  /* straight or ahead: the columns before it in the row
                    ** being given went to the writer as they came */
};

/* Fail the builder as out of memory (its error says so); returns the
** code. */
static inline jj_code build_nomem(jj_builder *b) {
  ic_nomem(&b->x);
  return b->failed = JJ_ERR_NOMEM;
}

/* A top-level row's place on the tape: its length goes here at its end.
** JJ_OK or failed (out of memory). */
static inline jj_code build_row_tape(jj_builder *b) {
  b->row_at = b->tape.len;
  if (b->tape.cap - b->tape.len < 4 && jj_buf_reserve(&b->tape, 4))
    return build_nomem(b);
  b->tape.len += 4;
  return JJ_OK;
}

/* Begin a row of the current table, but not its place on the tape (a row
** whose values all go to the writer at once never needs one: build_at.c
** gives it when a value does). */
static inline void build_row_open(jj_builder *b) {
  build_level *l = &b->lv[b->depth];
  b->in_row = 1;
  l->serial = ++b->serial;
  l->t->in_row = 1;
  l->t->row = (b->depth ? l->rows : b->rows) + 1;
  l->t->col = (size_t)-1;
}

/* Begin a row of the current table when none is open (build.c, and the
** quick values of build_at.c: inline, since every row begins so).  JJ_OK
** or failed. */
static inline jj_code build_row_begin(jj_builder *b) {
  if (b->in_row) return JJ_OK;
  build_row_open(b);
  return b->depth ? JJ_OK : build_row_tape(b);
}

/* ---- build_tape.c ---- */
/* LEB128. */
size_t build_uvarint_put(char *out, uint64_t v);
const char *build_uvarint_get(const char *p, const char *end, uint64_t *v);
/* The entry at p (an op, not OP_ROW_END or OP_TABLE_END): its column in
** *col, its payload at *pay (length *len for the ops that have one);
** returns the entry's end (a nested table's end after its OP_TABLE_END),
** or NULL when the tape is broken. */
const char *build_entry(const char *p, const char *end, uint64_t *col,
                        const char **pay, uint64_t *len);
/* JSON text of the nested table whose rows start at p (after OP_TABLE and
** its column), appended to out: [{"key":value,...},...].  0 or -1 (out of
** memory or a broken tape). */
int build_rows_json(const ic_table *t, const char *p, const char *end,
                    jj_buf *out);

/* The fixed-size payloads. */
static inline int64_t get_i64(const char *p) {
  int64_t v;
  memcpy(&v, p, 8);
  return v;
}

static inline double get_f64(const char *p) {
  double v;
  memcpy(&v, p, 8);
  return v;
}

static inline int32_t get_days(const char *p) {
  int32_t v;
  memcpy(&v, p, 4);
  return v;
}

static inline jj_timestamp get_ts(const char *p) {
  jj_timestamp ts;
  memcpy(&ts.seconds, p, 8);
  memcpy(&ts.nanos, p + 8, 4);
  memcpy(&ts.zone_minutes, p + 12, 2);
  ts.digits = (uint8_t)p[14];
  return ts;
}

/* The JSON text of one entry's value (op, payload, length; t: the nested
** table's columns for OP_TABLE), appended to out.  0 or -1. */
int build_value_json(const ic_table *t, int op, const char *pay, uint64_t len,
                     const char *end, jj_buf *out);

/* Append the rows in memory to the temporary file (made at the first
** call) and empty the buffer.  JJ_OK or failed. */
jj_code build_spill(jj_builder *b);
/* Fail the builder with a located message (the place from the tables
** being given); returns the code. */
jj_code build_fail(jj_builder *b, jj_code code, const char *fmt, ...)
    JJ_PRINTF(3, 4);
/* Append a tape entry: op, column, then n bytes of p (with its length
** first when `counted`).  JJ_OK or failed (out of memory). */
jj_code build_tape_put(jj_builder *b, int op, size_t col, const void *p,
                       size_t n, int counted);
/* ---- build_write.c ---- */
/* The top-level row just ended (its tape at tape.p + row_at + 4), written
** now when the columns are fixed and typed and the document has a sink
** (the first row decides; the writer made then), and taken off the tape.
** JJ_OK (also when it is kept for the end) or failed. */
jj_code build_straight(jj_builder *b);
/* Straight, a value of the top table's next column (b->col) in its row:
** written now as its column's type (op and payload as the tape's). */
jj_code build_direct(jj_builder *b, int op, const char *p, size_t n);
/* Write the row whose entries start at p through b->w as its columns'
** types (ic_col.type) say; the byte after it, or NULL after a failure
** (the columns before `from` were written already). */
const char *build_write_row(jj_builder *b, ic_table *t, const char *p,
                            const char *end, size_t from);
/* The writer of the document, to sink (NULL: memory, from opts.alloc),
** for the resolved schema.  JJ_OK or failed. */
jj_code build_new_writer(jj_builder *b, jj_sink sink, void *ctx);
/* The document is past opts.max_length: fail.  Returns the code. */
jj_code build_too_long(jj_builder *b);
/* The writer failed: its error becomes the builder's.  Returns the code. */
jj_code build_writer_failed(jj_builder *b);
/* Every row kept, through build_write_row: from the temporary file when
** the rows went there, else from memory.  JJ_OK or failed. */
jj_code build_write_rows(jj_builder *b);
/* ---- build_finish.c ---- */
/* The top-level row just ended: written (straight or ahead) or kept.
** JJ_OK or failed. */
jj_code build_row_end(jj_builder *b);
/* ---- build_ahead.c ---- */
/* The top-level row just ended, the columns fixed, not all typed: at the
** first row, begin writing ahead when its values allow; then write each
** row that keeps to the types, and at the first that does not, put every
** row written back on the tape and stop.  JJ_OK (the row kept or written)
** or failed. */
jj_code build_ahead_row(jj_builder *b);
/* jj_builder_finish with rows written ahead: resolve the types; when they
** write the same bytes as those of the first row, the document is those
** rows under the final header (*done 1); else the rows are back on the
** tape for write_rows (*done 0).  JJ_OK or failed. */
jj_code build_ahead_finish(jj_builder *b, jj_sink sink, void *ctx, int *done);
void build_ahead_free(jj_builder *b);
/* While writing ahead, whether a value (op, payload) of top-level column
** col keeps to the type written ahead; a column of no type yet (only
** nulls) takes the value's.  A value that fits is written at once when it
** is the row's next column (build_direct); one that does not goes to the
** tape, and the row's end gives up writing ahead. */
int build_ahead_fits(jj_builder *b, size_t col, int op, const char *pay);

#endif /* JJ_BUILD_H */
