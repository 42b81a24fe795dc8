/*
** convert.h — what the files of the converter share (not public).
**
**   convert.c        the driver: options, the two passes, jj_convert
**   convert_input.c  jj_input helpers, the input window, the spool file,
**                    located error messages
**   convert_infer.c  tables and columns: lookup by name, what pass 1 saw,
**                    the explicit schema, the inferred schema and notes
**   convert_value.c  one value: what kind it is (pass 1), and writing it
**                    as its column's type (pass 2)
**   convert_json.c   the JSON / NDJSON scanner (both passes)
**   convert_csv.c    the CSV / TSV scanner (both passes)
**   convert_scan.h   the two scanners' inline fast paths
**   export.c         jj_export (uses none of this)
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

#include "internal.h"

/* The scanners' results besides a pointer: more input needed, or failed
** with cv->err filled. */
#define CV_MORE 1
#define CV_FAIL 2

/* The window's size, and how often the interrupt is polled. */
#define CV_WINDOW ((size_t)1 << 20)
/* Bytes allocated after the window's capacity: the NUL after the data and
** room for 8-byte loads that start inside it. */
#define CV_PAD 16
#define CV_DEFAULT_MAX_ROW ((size_t)64 << 20)
/* Input nesting allowed (arrays and objects inside a row). */
#define CV_MAX_DEPTH 64
/* Columns in all tables together. */
#define CV_MAX_COLUMNS 65535

/* Kinds of values pass 1 tells apart (bits of cv_col.kinds). */
enum {
  K_BOOL,    /* true/false (JSON; CSV with the option) */
  K_INT,     /* an integer that fits int64 */
  K_BIG,     /* an integer beyond int64, exact as a double */
  K_BIGX,    /* an integer beyond int64, not exact as a double */
  K_FLOAT,   /* a number with a fraction or exponent, finite as a double */
  K_HUGE,    /* a number that overflows a double (1e400) */
  K_NANS,    /* the strings NaN, Infinity, -Infinity */
  K_DATE,    /* a valid date */
  K_BADDATE, /* shaped YYYY-MM-DD but not a date */
  K_TS,      /* a valid timestamp */
  K_BADTS,   /* shaped like a timestamp (a date shape then 'T'), invalid */
  K_TEXT,    /* any other string */
  K_TABLE,   /* a JSON array of objects (at least one) */
  K_EMPTY,   /* the JSON array [] */
  K_JSON,    /* any other JSON array or object */
  K_COUNT
};

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
typedef struct cv_val {
  const char *p; /* into the window */
  size_t len;
  uint64_t off; /* input offset of the value's first byte */
  unsigned char kind;
  unsigned char esc; /* V_STR: has a backslash; V_FIELD: has "" inside */
} cv_val;

typedef struct cv_table cv_table;

/* A column of a table. */
typedef struct cv_col {
  char *name; /* NUL-terminated, owned */
  size_t name_len;
  uint32_t kinds;   /* 1u << K_* seen in pass 1 (nulls not counted) */
  unsigned inexact; /* an int64 not exact as a double was seen */
  unsigned seen;    /* the column appeared in the data */
  /* the name has no '"', '\\' or control bytes: a key without escapes can
  ** be compared raw */
  unsigned plain;
  uint64_t key8, mask8;    /* the raw match's first 8 bytes (convert_infer.c) */
  jj_type forced;          /* 0, or the explicit schema's type */
  jj_type type;            /* the type decided after pass 1 */
  cv_table *sub;           /* nested table (K_TABLE values, or forced), owned */
  int64_t ex_row[K_COUNT]; /* the first value of each kind: row, excerpt */
  char *ex[K_COUNT];       /* (owned, NULL until seen) */
  uint64_t nulled;         /* pass 2: values made null */
  int64_t nulled_row;
  char *nulled_ex; /* owned */
  uint64_t stamp;  /* the object that last gave it a value */
  cv_val slot;     /* pass 2: that value */
} cv_col;

/* A table: the top level, or the rows of a nested column. */
struct cv_table {
  cv_col *cols;
  size_t n, cap;
  uint32_t *hash; /* open addressing: column index + 1, 0 empty */
  size_t hcap;    /* a power of two, or 0 */
  cv_table *parent;
  size_t parent_col; /* the column of the parent holding this table */
  int64_t row;       /* the current row within this table's value */
  size_t col;        /* the column being read, for messages */
  int in_row;        /* reading a row of this table now */
  unsigned depth;    /* 0 for the top level */
  /* the explicit schema's table for this one, or NULL (borrowed from the
  ** spec tree, owned by cv) */
  cv_table *spec;
};

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
  const jj_input *in;
  jj_convert_opts o;
  const char *name; /* in->name, or NULL */
  jj_format fmt;    /* JSON (either form) or CSV once detected */
  int json_array;   /* JSON: the rows are in one array */
  char delim;
  int pass; /* 1 or 2 */
  cv_win w;
  cv_table top;
  size_t ncols_all;   /* columns in all tables */
  uint64_t next_id;   /* object stamps */
  int64_t rows;       /* data rows done in this pass */
  size_t longest_row; /* JSON: the most bytes of one row, in pass 1 */
  jj_writer *wr;      /* pass 2 */
  jj_schema *schema;  /* after pass 1 */
  jj_buf scratch;     /* decoded strings and keys, JSON text */
  jj_buf scratch2;
  cv_val *fields; /* CSV: the current record's fields */
  size_t nfields, fields_cap;
  size_t header_cols; /* CSV: fields in the header */
  uint64_t nulled;
  unsigned decisions;
  jj_error *err;
  jj_error local_err;
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
/* Tell a decision to the note callback; counts it. */
void cv_note(cv *c, const char *fmt, ...) JJ_PRINTF(2, 3);
/* The column's name with its parents', for notes: "items"."qty". */
void cv_col_path(const cv_table *t, size_t col, char *out, size_t cap);

/* ---- convert_infer.c ---- */
/* Free a table's columns and nested tables (not its spec). */
void cv_table_free(cv_table *t);
/* Index of the column named name[0..len) (tried first: the one after
** t->col), or -1. */
long cv_find(const cv_table *t, const char *name, size_t len);
/* Append a column (its forced type from t->spec); its index, -1 out of
** memory (failed), -2 over CV_MAX_COLUMNS (not failed yet). */
long cv_add(cv *c, cv_table *t, const char *name, size_t len);
/* The nested table of column i, made (and linked to t) when missing;
** NULL out of memory. */
cv_table *cv_sub(cv *c, cv_table *t, size_t i);
/* The column named name[0..len) (raw bytes, unescaped), created in pass 1
** at the end; its index, or -1 after a failure (off: where the key is). */
long cv_column(cv *c, cv_table *t, const char *name, size_t len, uint64_t off);
/* Parse opts->schema into forced types (before pass 1). */
jj_code cv_schema_parse(cv *c, const char *spec);
/* After pass 1: every forced column seen; decide types; build the schema
** (c->schema); tell the notes. */
jj_code cv_resolve(cv *c);

/* ---- convert_value.c ---- */
/* Record the first example of kind k for column col. */
void cv_example(cv *c, cv_col *col, int k, const cv_val *v);
/* The kind (K_*) of a value for inference; -1 for null, -2 when failed
** (bad UTF-8 or escape).  V_ARR and V_OBJ carry their kind in esc. */
int cv_kind(cv *c, const cv_val *v, cv_col *col);
/* Pass 1: fold v into column col of t (its kind, or for a forced column
** whether it fits).  0 or CV_FAIL. */
int cv_fold(cv *c, cv_table *t, size_t col, const cv_val *v);
/* The writer's error as the converter's: CV_FAIL. */
int cv_wfail(cv *c);
/* Pass 2: write v as column col's type.  0 or CV_FAIL. */
int cv_emit(cv *c, cv_table *t, size_t col, const cv_val *v);
/* The decoded text of a string value (JSON escapes, CSV doubled quotes)
** in *p, *len (into c->scratch when it needs decoding).  0, or CV_FAIL. */
int cv_text(cv *c, const cv_val *v, const char **p, size_t *len);
/* 1 when the integer digits p[0..len) (sign allowed) are exactly a
** double. */
int cv_big_exact(const char *p, size_t len);
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

#endif /* JJ_CONVERT_H */
