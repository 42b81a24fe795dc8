/*
** convert.h — what the files of the converter share (not public).
**
**   convert.c        the driver: options, the two passes, jj_convert
**   convert_input.c  jj_input helpers, the input window, the spool file,
**                    the located messages (infer.c's, with the converter's
**                    state)
**   convert_value.c  one value: what kind it is (pass 1), and writing it
**                    as its column's type (pass 2)
**   convert_json.c   the JSON / NDJSON scanner (both passes)
**   convert_csv.c    the CSV / TSV scanner (both passes)
**   convert_csv_numbers.c  CSV numbers as people write them (".5", "+5",
**                    "1,234"), read as numbers in a column of numbers
**   convert_ahead.c  CSV rows written in pass 1 with the types of their
**                    first values, which spare pass 2 when they hold
**   convert_scan.h   the two scanners' inline fast paths
**   to_text.c         jj_to_text (uses none of this)
**
** Both passes read the input through one window (cv_win): the scanners
** parse a whole row (a JSON object, a CSV record) from the window; when a
** row runs past the bytes in it they return CV_MORE, the window slides to
** the row's start and reads more (doubling itself when the row alone fills
** it), and the row is parsed again from its start.  So whatever pass 1
** does while parsing a row must be safe to do twice: it only sets bits and
** records first examples.  Pass 2 writes, which cannot be undone, so it
** never parses a row that is not whole in the window: a CSV record is
** split into fields before any is written; a JSON row is written as it is
** read, after the window has been made to hold at least pass 1's longest
** row from its start (a longer row is an error: the input changed).
**
** The columns, the kinds of values, the schema option, the types decided
** and the notes are infer.h's, shared with the row builder (build.c).
** The core internals used here (internal.h, num.h): jj_num_parse_int64,
** jj_num_parse_double, jj_num_format_double, jj_num_format_int64,
** jj_utf8_valid, jj_string_scan, jj_string_decode, jj_string_escape,
** jj_base64_decode, jj_date_ok, jj_show and jj_buf.
*/
#ifndef JJ_CONVERT_H
#define JJ_CONVERT_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "datefmt.h"
#include "infer.h"

/* The scanners' results besides a pointer: more input needed, or failed
** with cv->err filled. */
#define CV_MORE 1
#define CV_FAIL IC_FAIL

/* The window's size, and how often the interrupt is polled. */
#define CV_WINDOW ((size_t)1 << 20)
/* Bytes allocated after the window's capacity: the NUL after the data and
** room for 8-byte loads that start inside it. */
#define CV_PAD 16
#define CV_DEFAULT_MAX_ROW ((size_t)64 << 20)
/* Input nesting allowed and columns in all tables together: infer.h's. */
#define CV_MAX_DEPTH IC_MAX_DEPTH
#define CV_MAX_COLUMNS IC_MAX_COLUMNS

/* A value as a scanner found it. */
enum {
  V_NULL,
  V_TRUE,
  V_FALSE,
  V_NUM,  /* a JSON number token */
  V_STR,  /* a JSON string's contents (between the quotes) */
  V_ARR,  /* a JSON array, its whole text */
  V_OBJ,  /* a JSON object, its whole text */
  V_FIELD /* a CSV field's contents (between the quotes if quoted) */
};
typedef ic_val cv_val;
typedef ic_table cv_table;
typedef ic_col cv_col;

/* The input window. */
typedef struct cv_win {
  char *buf; /* cap + CV_PAD bytes (a NUL after the data) */
  size_t cap;
  size_t len;    /* bytes of data in buf */
  uint64_t base; /* input offset of buf[0] */
  int eof;
  uint64_t total;  /* bytes read in this pass */
  uint64_t polled; /* total at the last interrupt poll */
  FILE *spool;     /* the copy of a non-rewindable input */
  int from_spool;  /* pass 2 reads the spool */
} cv_win;

/* The converter. */
typedef struct cv {
  ic x; /* the columns, the messages and notes, the schema (infer.h) */
  const jj_input *in;
  jj_convert_opts o;
  jj_format fmt;    /* JSON (either form) or CSV once detected */
  int json_array;   /* JSON: the rows are in one array */
  char delim;
  int pass; /* 1 or 2 */
  cv_win w;
  uint64_t next_id;   /* object stamps */
  int64_t rows;       /* data rows written (pass 2) or kept (pass 1) */
  int64_t records;    /* CSV: data records read in this pass, set aside
                      ** or not (the row numbers of the messages) */
  int64_t *set_aside; /* CSV: record numbers set aside in pass 1, rising */
  size_t n_aside, aside_cap, next_aside; /* next_aside: pass 2's place */
  char *first_aside;  /* the first one's message, for the note */
  struct cv_sheet *sheet; /* CSV: per column, numbers as people write
                          ** them (pass 1; NULL until one is seen) */
  uint64_t padded;    /* CSV records padded with nulls (pass 1) */
  int64_t padded_row; /* the first one */
  size_t padded_fields;
  size_t longest_row; /* JSON: the most bytes of one row, in pass 1 */
  jj_writer *wr;      /* pass 2, or pass 1's rows-only writer (ahead) */
  int want_ahead;     /* pass 1 may write rows ahead (jj_convert) */
  int ahead;          /* pass 1 is writing rows ahead (convert_ahead.c) */
  jj_schema *ahead_schema; /* the rows-only writer's */
  unsigned char *ahead_types; /* per top column, the type written (0: only
                              ** nulls so far) */
  unsigned *ahead_pick; /* per top column, the pattern its spelled dates
                        ** were written by (fmt_pick's numbering; 0: none) */
  jj_spool ahead_rows; /* the rows written ahead */
  jj_buf scratch;     /* decoded strings and keys, JSON text */
  jj_buf scratch2;
  cv_val *fields; /* CSV: the current record's fields */
  size_t nfields, fields_cap;
  size_t header_cols; /* CSV: fields in the header */
  uint64_t nulled;
  jj_error local_err;
  df_set dates; /* the date and timestamp patterns (x.dates points here) */
  /* pass 2: write the nested table held by the array value v (only JSON
  ** input has arrays; cv_json_pass sets it, cv_emit calls it) */
  int (*json_table)(struct cv *c, cv_table *sub, const cv_val *v);
} cv;

/* ---- convert_input.c ---- */
/* Slide the window so that buf[keep] becomes buf[0] and read more (growing
** it when full).  1: more bytes came, 0: at the end, -1: failed. */
int cv_more(cv *c, size_t keep);
/* Start a pass: rewind the input (or open the spool) and read the first
** window.  JJ_OK or failed. */
jj_code cv_start_pass(cv *c);
void cv_win_free(cv_win *w);
/* Fail with a located message: NAME: row R, column "c", [row r, column
** "c2", ]byte B: <fmt>.  The place comes from the tables being read; off
** is the input offset (UINT64_MAX: none).  Returns CV_FAIL. */
int cv_fail(cv *c, jj_code code, uint64_t off, const char *fmt, ...)
    JJ_PRINTF(4, 5);
/* Fail with a message without a row or column (NAME: [byte B: ]...). */
int cv_fail_plain(cv *c, jj_code code, uint64_t off, const char *fmt, ...)
    JJ_PRINTF(4, 5);
/* Out of memory. */
int cv_nomem(cv *c);
/* Tell a decision to the note callback (infer.c). */
#define cv_note(c, ...) ic_note(&(c)->x, __VA_ARGS__)

/* ---- convert_value.c ---- */
/* The column named name[0..len) (raw bytes, unescaped), created in pass 1
** at the end; its index, or -1 after a failure (off: where the key is). */
long cv_column(cv *c, cv_table *t, const char *name, size_t len, uint64_t off);

/* ---- convert_value.c ---- */
/* Record the first example of kind k for column col. */
void cv_example(cv *c, cv_col *col, int k, const cv_val *v);
/* The kind (K_*) of a value for inference; -1 for null, -2 when failed
** (bad UTF-8 or escape).  V_ARR and V_OBJ carry their kind in esc. */
int cv_kind(cv *c, const cv_val *v, cv_col *col);
/* Pass 1: fold v into column col of t (its kind, or for a forced column
** whether it fits); *kind (may be NULL) its kind, -1 for null.  0 or
** CV_FAIL. */
int cv_fold(cv *c, cv_table *t, size_t col, const cv_val *v, int *kind);
/* The writer's error as the converter's: CV_FAIL. */
int cv_wfail(cv *c);
/* Pass 2: write v as column col's type.  0 or CV_FAIL. */
int cv_emit(cv *c, cv_table *t, size_t col, const cv_val *v);
/* The decoded text of a string value (JSON escapes, CSV doubled quotes)
** in *p, *len (into c->scratch when it needs decoding).  0, or CV_FAIL. */
int cv_text(cv *c, const cv_val *v, const char **p, size_t *len);
/* JSON text of an array or object value, compacted (whitespace outside
** strings removed), into c->scratch2. */
int cv_json_compact(cv *c, const cv_val *v, const char **p, size_t *len);

/* ---- convert_json.c ---- */
/* Pass 1 or 2 over JSON input: every row.  0 or CV_FAIL. */
int cv_json_pass(cv *c);

/* ---- convert_csv.c ---- */
/* Detect the delimiter from the header (when not given). */
void cv_csv_detect(cv *c);
/* Pass 1 or 2 over CSV input.  0 or CV_FAIL. */
int cv_csv_pass(cv *c);

/* ---- convert_csv_numbers.c ---- */
/* Longer fields are never read as numbers written as people write them. */
#define CV_NUM_MAX 64
/* Field v of column i (1 to CV_NUM_MAX bytes, no doubled quotes) if it is
** a number as spreadsheets write it (".5", "5.", "+5") or, with
** opts.thousands, with thousands separators ("1,234"), and this pass
** reads it as a number (pass 1 always, unless the schema types the column
** other than i or f; pass 2 when the column is i or f): that number as
** JSON spells it in *alt, its text in num (CV_NUM_MAX + 2 bytes), counted
** in pass 1; else v.  NULL when out of memory (failed). */
const cv_val *cv_csv_number(cv *c, size_t i, const cv_val *v, cv_val *alt,
                            char *num);
/* After the types are decided: a note for each column of numbers that
** held some written either way, with the count and the first. */
void cv_csv_sheet_notes(cv *c);

/* ---- convert_ahead.c ---- */
/* After the header of pass 1: write the rows ahead from now on, when
** c->want_ahead and no column has a type given. */
void cv_ahead_begin(cv *c);
/* Value v of kind k (-1: null) of top column i, written ahead (or writing
** ahead stops, when its type would not hold it), as pass 2 writes it; the
** common cases go first to cv_ahead_fast (convert_scan.h).  Always 0. */
int cv_ahead_value(cv *c, size_t i, int k, const cv_val *v);
/* Text value v of top column i that date or timestamp patterns still read
** (col->fmt_live): written ahead as the first of them reads it, the
** pattern the column will most likely be decided to have (or writing ahead
** stops, when another pattern than an earlier value's would read it). */
void cv_ahead_spelled(cv *c, size_t i, const cv_val *v);
/* The end of a row written ahead. */
void cv_ahead_end_row(cv *c);
/* Stop writing ahead (pass 2 will write); nothing when not writing. */
void cv_ahead_stop(cv *c);
/* After the types are decided: when the rows written ahead have them, the
** document (their header, then the rows) into a writer to sink, left in
** c->wr for jj_convert to finish: 1.  0 when pass 2 must write (ahead
** stopped), CV_FAIL on failure. */
int cv_ahead_finish(cv *c, jj_sink sink, void *ctx);

#endif /* JJ_CONVERT_H */
