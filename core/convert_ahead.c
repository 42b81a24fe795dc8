/*
** convert_ahead.c — CSV rows written in the first pass, ahead of their
** types.
**
** The converter reads its input twice: pass 1 decides the types from every
** value, pass 2 writes.  Most columns of a real CSV keep the kind of value
** of their first row (integers stay integers, dates stay dates), so the
** first pass also writes each row as it ends, with the type each column's
** first value gave it, by a writer that writes only rows (internal.h).
** The rows' bytes are kept (in memory, then in a temporary file: memory
** stays bounded) and nothing reaches the sink before the end.  When pass 1
** is over and the types it decided are the ones the rows were written
** with, the document is the header of those types followed by the kept
** rows, and pass 2 is not needed: the input is read and split once.
**
** Text that date or timestamp patterns read (infer_dates.c) is written as
** the first pattern still reading every value of its column reads it: the
** pattern the end will decide, unless a later value rules it out (writing
** ahead then stops) or no value tells two spellings apart (the column
** stays text, and pass 2 writes).
**
** The rows are written ahead only while that is sure to give the bytes
** pass 2 would write: each value goes through cv_emit (pass 2's own
** writing) with a type its kind keeps (an integer in a column of floats
** included: written as the float pass 2 would write); the first value of
** another kind (a float after integers, text after numbers), a row set
** aside, or a value cv_emit would not write as it is stops writing ahead, and pass 2 runs as always.  So do an
** explicit schema (its checks and notes belong to pass 2) and JSON input.
** The document is the same either way; only the time differs.
*/
#include <stdlib.h>
#include <string.h>

#include "convert.h"
#include "datefmt.h"

/* Bytes of rows kept in memory before they go to the temporary file. */
#define AHEAD_MEMORY ((size_t)256 << 10)

/* The sink of the rows-only writer: the rows' bytes kept (-1, a failed
** write to the writer, when memory or the file fails). */
static int keep_rows(void *ctx, const char *p, size_t len) {
  cv *c = ctx;
  return jj_spool_add(&c->ahead_rows, p, len, AHEAD_MEMORY);
}


/* Stop writing ahead: the writer, its schema and the rows kept go. */
void cv_ahead_stop(cv *c) {
  if (!c->ahead) return;
  jj_writer_free(c->wr); /* before the schema it borrows */
  c->wr = NULL;
  jj_schema_free(c->ahead_schema);
  c->ahead_schema = NULL;
  free(c->ahead_types);
  c->ahead_types = NULL;
  free(c->ahead_pick);
  c->ahead_pick = NULL;
  jj_spool_free(&c->ahead_rows);
  c->ahead = 0;
}

void cv_ahead_begin(cv *c) {
  const cv_table *t = &c->x.top;
  jj_error err;
  if (!c->want_ahead || t->spec) return; /* an explicit schema */
  for (size_t i = 0; i < t->n; i++)
    if (t->cols[i].forced) return;
  jj_schema *s = jj_schema_new();
  /* a column of only nulls so far is text until its first value */
  for (size_t i = 0; s && i < t->n; i++)
    if (jj_schema_add(s, t->cols[i].name, t->cols[i].name_len, JJ_TEXT, NULL,
                      NULL)) {
      jj_schema_free(s);
      s = NULL;
    }
  unsigned char *types = s ? calloc(t->n ? t->n : 1, 1) : NULL;
  unsigned *pick = types ? calloc(t->n ? t->n : 1, sizeof *pick) : NULL;
  jj_writer *w = pick ? jj_writer_new(s, keep_rows, c, &err) : NULL;
  if (!w || jj_writer_rows_only(w)) {
    jj_writer_free(w);
    jj_schema_free(s);
    free(types);
    free(pick);
    return; /* pass 2 will write: the same document */
  }
  c->ahead_types = types;
  c->ahead_pick = pick;
  for (size_t i = 0; i < t->n; i++) c->x.top.cols[i].type = (jj_type)0;
  c->wr = w;
  c->ahead_schema = s;
  c->ahead = 1;
}

/* The type a value of kind k is written as in a column of no type yet; 0
** for the kinds that start none here. */
static jj_type kind_type(int k) {
  switch (k) {
    case K_BOOL:
      return JJ_BOOL;
    case K_INT:
      return JJ_INT;
    case K_FLOAT:
      return JJ_FLOAT;
    case K_DATE:
      return JJ_DATE;
    case K_TS:
      return JJ_TIMESTAMP;
    case K_LTS:
    case K_LTS_SP:
      return JJ_LOCAL_TIMESTAMP;
    case K_TEXT:
      return JJ_TEXT;
    default:
      return (jj_type)0;
  }
}

int cv_ahead_value(cv *c, size_t i, int k, const cv_val *v) {
  cv_col *col = &c->x.top.cols[i];
  if (v->kind != V_NULL) {
    jj_type want = kind_type(k);
    if (!col->type) { /* its first value: the column's type from now on */
      if (!want) return cv_ahead_stop(c), 0;
      col->type = want;
      c->ahead_types[i] = (unsigned char)want;
      jj_writer_retype(c->wr, i, want);
    } else if (want != col->type &&
               !(col->type == JJ_FLOAT && k == K_INT)) {
      return cv_ahead_stop(c), 0;
    }
  }
  if (cv_emit(c, &c->x.top, i, v)) cv_ahead_stop(c);
  return 0;
}

void cv_ahead_spelled(cv *c, size_t i, const cv_val *v) {
  cv_col *col = &c->x.top.cols[i];
  unsigned pick = 1; /* the lowest pattern still live, as decided at the end */
  while (!(col->fmt_live >> (pick - 1) & 1u)) pick++;
  int kind = c->x.dates->pat[pick - 1].kind;
  jj_type ty = kind == DF_DATE    ? JJ_DATE
               : kind == DF_LOCAL ? JJ_LOCAL_TIMESTAMP
                                  : JJ_TIMESTAMP;
  if (!col->type) {
    col->type = ty;
    c->ahead_types[i] = (unsigned char)ty;
    jj_writer_retype(c->wr, i, ty);
  }
  if (col->type != ty || (c->ahead_pick[i] && c->ahead_pick[i] != pick)) {
    cv_ahead_stop(c);
    return;
  }
  c->ahead_pick[i] = pick;
  col->fmt_pick = pick; /* pass 2's pattern for the value, for cv_emit */
  int failed = cv_emit(c, &c->x.top, i, v);
  col->fmt_pick = 0; /* decided at the end */
  if (failed) cv_ahead_stop(c);
}

void cv_ahead_end_row(cv *c) {
  if (jj_writer_end_row(c->wr)) cv_ahead_stop(c);
}

int cv_ahead_finish(cv *c, jj_sink sink, void *ctx) {
  const cv_table *t = &c->x.top;
  int same = c->ahead && jj_writer_rows_flush(c->wr) == JJ_OK;
  for (size_t i = 0; same && i < t->n; i++) {
    jj_type was = (jj_type)c->ahead_types[i]; /* 0: only nulls, any type */
    same = (!was || was == t->cols[i].type) &&
           c->ahead_pick[i] == (c->ahead_pick[i] ? t->cols[i].fmt_pick : 0);
  }
  if (!same) {
    cv_ahead_stop(c);
    return 0;
  }
  jj_writer *rows_only = c->wr;
  jj_writer *w = jj_writer_new(c->x.schema, sink, ctx, c->x.err);
  c->wr = rows_only;
  if (!w) return CV_FAIL;
  /* the rows' count with the last (empty) piece */
  jj_code code = jj_spool_replay(&c->ahead_rows, jj_writer_append_piece, w)
                     ? JJ_ERR_IO
                     : jj_writer_append_rows(w, "", 0, c->rows);
  cv_ahead_stop(c);
  c->wr = w; /* the document's writer, finished by jj_convert */
  if (code) {
    const jj_error *e = jj_writer_error(w);
    return cv_fail_plain(c, e->code ? e->code : JJ_ERR_IO, UINT64_MAX, "%s",
                         e->code ? e->message
                                 : "cannot read the temporary file of rows "
                                   "back");
  }
  return 1;
}
