/*
** infer.h — the rules that turn outside values into typed columns, shared
** by everything that makes a document from values that are not yet typed:
** the converter (JSON and CSV text, convert_*.c) and the row builder
** (values from a host: SQLite, Python, JavaScript, build*.c).  Not public.
**
**   infer.c         the tables of columns found by name (sparse keys, the
**                   order of first appearance, nested tables), the kinds of
**                   values and how text and number spellings are classified,
**                   the located messages and the notes
**   infer_schema.c  the explicit schema ("id:i,items:{qty:f}"), and the
**                   lattice that decides a column's type from the kinds of
**                   values it held, with the note that explains each
**                   decision that is not obvious
**
** A reader of values (the converter's scanners, the builder's pushes) finds
** each value's column with ic_find/ic_add, says what kind the value is
** (K_*), and folds that into the column: its `kinds` bits and the first
** example of each kind.  ic_resolve then decides every column's type (the
** rules of docs/convert.md, "The type of a column") and builds the schema.
** Both readers therefore give the same columns, the same types and the same
** notes for the same values, whichever way the values came in.
*/
#ifndef JJ_INFER_H
#define JJ_INFER_H

#include <stdarg.h>
#include <stdint.h>
#include <string.h>

#include "internal.h"

/* Input nesting allowed (arrays and objects inside a row). */
#define IC_MAX_DEPTH 64
/* Columns in all tables together. */
#define IC_MAX_COLUMNS 65535
/* The failure result of the functions below that return an int. */
#define IC_FAIL 2

/* Kinds of values told apart (bits of ic_col.kinds); nulls are not one. */
enum {
  K_BOOL,    /* true/false */
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
  K_LTS,     /* a valid local timestamp: a timestamp without zone */
  K_LTS_SP,  /* the same with a space for the T (SQLite's datetime()) */
  K_TEXT,    /* any other string */
  K_TABLE,   /* rows (a JSON array of objects, at least one) */
  K_EMPTY,   /* no rows (the JSON array []) */
  K_JSON,    /* any other JSON array or object */
  K_BYTES,   /* bytes (from a host: JSON and CSV have none) */
  K_COUNT
};

/* A value as its reader found it: where it is and what the reader calls
** it (the meaning of kind and esc is the reader's own). */
typedef struct ic_val {
  const char *p;
  size_t len;
  uint64_t off; /* input offset of the value's first byte */
  unsigned char kind;
  unsigned char esc;
} ic_val;

typedef struct ic_table ic_table;

/* A column of a table. */
typedef struct ic_col {
  char *name; /* NUL-terminated, owned */
  size_t name_len;
  uint32_t kinds;   /* 1u << K_* seen (nulls not counted) */
  unsigned inexact; /* an int64 not exact as a double was seen */
  unsigned seen;    /* the column appeared in the data */
  /* the name has no '"', '\\' or control bytes: a key without escapes can
  ** be compared raw */
  unsigned plain;
  uint64_t key8, mask8;    /* the raw match's first 8 bytes (convert_json.c) */
  jj_type forced;          /* 0, or the explicit schema's type */
  jj_type type;            /* the type decided by ic_resolve */
  ic_table *sub;           /* nested table, owned */
  int64_t ex_row[K_COUNT]; /* the first value of each kind: row, excerpt */
  char *ex[K_COUNT];       /* (owned, NULL until seen) */
  uint64_t nulled;         /* values made null (not fitting the schema) */
  int64_t nulled_row;
  char *nulled_ex; /* owned */
  unsigned utc_told; /* a zone-less value of a t column was noted */
  /* the converter's patterns (ic.dates) that read every text value seen
  ** so far; set at the first text value (infer_dates.c) */
  uint32_t fmt_live;
  unsigned fmt_pick; /* the pattern decided: its index + 1, or 0 */
  uint64_t stamp;  /* the row that last gave it a value (the reader's) */
  ic_val slot;     /* that value */
} ic_col;

/* A table: the top level, or the rows of a nested column. */
struct ic_table {
  ic_col *cols;
  size_t n, cap;
  uint32_t *hash; /* open addressing: column index + 1, 0 empty */
  size_t hcap;    /* a power of two, or 0 */
  ic_table *parent;
  size_t parent_col; /* the column of the parent holding this table */
  int64_t row;       /* the current row within this table's value */
  size_t col;        /* the column being read, for messages */
  int in_row;        /* reading a row of this table now */
  unsigned depth;    /* 0 for the top level */
  /* the explicit schema's table for this one, or NULL (borrowed from the
  ** spec tree, owned by the ic) */
  ic_table *spec;
};

/* The columns of one document being made, and where its messages go. */
typedef struct ic {
  const char *name; /* of the input, for messages; may be NULL */
  ic_table top;
  size_t ncols_all; /* columns in all tables */
  jj_error *err;
  void (*note)(void *ctx, const char *msg);
  void *note_ctx;
  unsigned decisions; /* notes told */
  int64_t rows;       /* top-level rows read */
  jj_schema *schema;  /* after ic_resolve, owned */
  jj_buf scratch;     /* decoded names of the schema option */
  const char *spec_label; /* the schema option in messages; NULL: "the
                          ** schema option" */
  /* the date and timestamp patterns text values are tried with (the
  ** converter's; NULL: ISO 8601 only, as the row builder reads) */
  const struct df_set *dates;
} ic;

/* ---- infer.c ---- */
/* Set up *x (err must not be NULL) / free what it holds. */
void ic_init(ic *x, const char *name, jj_error *err);
void ic_free(ic *x);
/* Free a table's columns and nested tables (not its spec). */
void ic_table_free(ic_table *t);
/* Index of the column named name[0..len) (tried first: the one after
** t->col), or -1. */
long ic_find(const ic_table *t, const char *name, size_t len);
/* Append a column (its forced type from t->spec); its index, -1 out of
** memory (failed), -2 over IC_MAX_COLUMNS (not failed yet). */
long ic_add(ic *x, ic_table *t, const char *name, size_t len);
/* The nested table of column i, made (and linked to t) when missing;
** NULL out of memory. */
ic_table *ic_sub(ic *x, ic_table *t, size_t i);
/* The column named name[0..len) of t, appended when new; its index, or -1
** after a located failure (an empty name, one with U+0000, too many
** columns; off: where the name is, UINT64_MAX: nowhere). */
long ic_column(ic *x, ic_table *t, const char *name, size_t len, uint64_t off);
/* Fail with a located message: NAME: row R, column "c", [row r, column
** "c2", ]byte B: <fmt>, the place from the tables being read (place 0:
** NAME: [byte B: ]<fmt>); off UINT64_MAX: no byte.  Returns IC_FAIL. */
int ic_fail(ic *x, jj_code code, uint64_t off, int place, const char *fmt,
            ...) JJ_PRINTF(5, 6);
int ic_vfail(ic *x, jj_code code, uint64_t off, int place, const char *fmt,
             va_list ap);
int ic_nomem(ic *x);
/* Tell a decision to the note callback; counts it. */
void ic_note(ic *x, const char *fmt, ...) JJ_PRINTF(2, 3);
/* The column's name with its parents', for notes: "items"."qty". */
void ic_col_path(const ic_table *t, size_t col, char *out, size_t cap);
/* Record the first example of kind k for the column: the current top-level
** row and `shown` (the value as a message quotes it). */
void ic_example(ic *x, ic_col *col, int k, const char *shown);
/* Fold kind k (a value's, not null) into the column: its bit, and the
** first example (shown is called only then, to quote the value). */
static inline void ic_fold_kind(ic *x, ic_col *col, int k, const char *shown) {
  if (!(col->kinds & (1u << k))) {
    col->kinds |= 1u << k;
    ic_example(x, col, k, shown);
  }
}

/* The kinds of spellings.  1 when the integer digits p[0..len) (sign
** allowed) are exactly a double. */
int ic_big_exact(const char *p, size_t len);
/* 1 when the int64 v is exactly a double. */
int ic_int_exact(int64_t v);
/* The kind of a number in JSON's grammar (K_INT, K_BIG, K_BIGX, K_FLOAT,
** K_HUGE); -1 when it breaks the grammar.  *inexact is set to 1 for an
** int64 that a double does not hold exactly. */
int ic_num_kind(const char *p, size_t len, unsigned *inexact);
/* The kind of a text (decoded, valid UTF-8): K_DATE, K_BADDATE, K_TS,
** K_BADTS, K_LTS, K_LTS_SP, K_NANS, K_TEXT; K_BOOL for "true"/"false" when `booleans`. */
int ic_text_kind(const char *p, size_t len, int booleans);
/* 1 when p[0..len) spells NaN, Infinity or -Infinity; *out gets the value
** (out may be NULL). */
int ic_nan_text(const char *p, size_t len, double *out);
/* A number in JSON's grammar as a double for a float column: 1 with *out
** set, 0 when no double is it exactly, -1 on a grammar error. */
int ic_num_double(const char *p, size_t len, double *out);

/* A value of an explicit t column that has no zone (a local timestamp,
** shown as `shown`) is taken as UTC: noted once per column. */
void ic_utc_note(ic *x, ic_table *t, size_t col, const char *shown);

/* ---- infer_dates.c ---- */
/* Fold a text value p[0..len) of an inferred column into the patterns
** that still read all of its text (x->dates not NULL); `first`: the
** column's first text value. */
void ic_dates_fold(ic *x, ic_col *col, const char *p, size_t len, int first);
/* 1 when the column's next text value must go to ic_dates_fold. */
static inline int ic_dates_live(const ic *x, const ic_col *col) {
  return x->dates && (col->fmt_live || !(col->kinds & (1u << K_TEXT)));
}
/* The type of an inferred column whose text values all read with one of
** the patterns (d, l or t, with a note saying which), JJ_TEXT with a note
** when two patterns read them differently, 0 when no pattern reads them
** all (or the column holds other kinds too). */
jj_type ic_dates_decide(ic *x, ic_table *t, size_t i);
/* The ISO text of p[0..len) in the pattern decided for the inferred
** column col: its length, 0 when the pattern does not read it (*shaped 1
** when it fit the shape, not the calendar; iso then holds that text). */
size_t ic_dates_iso(const ic *x, const ic_col *col, const char *p, size_t len,
                    char *iso, int *shaped);

/* ---- infer_schema.c ---- */
/* Parse the schema option into forced types (before any value). */
jj_code ic_schema_parse(ic *x, const char *spec);
/* After the last value: every forced column seen; decide types; build the
** schema (x->schema); tell the notes.  JJ_OK or failed. */
jj_code ic_resolve(ic *x);
/* The words for a type's values, for "... is not <this>". */
const char *ic_type_words(jj_type t);
/* " (why; the schema says name:T)" after "<value> is not <type words>":
** why, for a text (p NULL: none) that is not a date or timestamp, the
** calendar's reason ("2023 is not a leap year"). */
void ic_misfit_words(jj_type t, const char *p, size_t len, const char *name,
                     char *out, size_t cap);
/* Notes of the values made null, table by table. */
void ic_nulled_notes(ic *x, ic_table *t);
/* A column's nulled value: count it, keep the first as an example. */
void ic_nulled(ic *x, ic_col *col, const char *shown);

#endif /* JJ_INFER_H */
