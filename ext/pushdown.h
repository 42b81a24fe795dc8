/*
** pushdown.h — WHERE comparisons on a typed table's columns decided by the
** table itself (pushdown.c): which constraints xBestIndex may take (plan.c),
** how they travel to xFilter (spelled in idxStr, their values in argv), and
** the cursor's filter that xNext applies to each row (scan.c) without
** handing anything to SQLite.  Included by plan.c, vtab.h and pushdown.c.
*/
#ifndef JJX_PUSHDOWN_H
#define JJX_PUSHDOWN_H

#include <stdint.h>

#include "ext.h"

/* The comparisons taken, in the order their spellings are tried. */
typedef enum jjx_pop {
  JJX_P_EQ,
  JJX_P_NE,
  JJX_P_LT,
  JJX_P_LE,
  JJX_P_GT,
  JJX_P_GE,
  JJX_P_IS,
  JJX_P_ISNOT,
  JJX_P_ISNULL,
  JJX_P_NOTNULL,
  JJX_P_COUNT
} jjx_pop;

/* The right-hand value of one comparison, as SQLite compares it: a TEXT
** value that numeric affinity turns into a number is that number (the
** columns whose comparisons apply numeric affinity only).  kind is
** SQLITE_NULL, SQLITE_INTEGER, SQLITE_FLOAT, SQLITE_TEXT or SQLITE_BLOB; p
** (text or blob bytes, n of them) is owned: sqlite3_free. */
typedef struct jjx_rhs {
  int kind;
  int64_t i;
  double f;
  char *p;
  size_t n;
} jjx_rhs;

/* One comparison of the filter: document column `col` (0-based) op rhs. */
typedef struct jjx_pred {
  int col;
  jj_type type; /* the column's declared type */
  jjx_pop op;
  jjx_rhs rhs;
  int loose;    /* a pre-filter SQLite checks again (omit=0): a TEXT column
                ** = or IS a value the plan could not see */
  int pass_all; /* loose, and the value may equal text that differs in its
                ** bytes (a number, text reading as one): no row fails */
  int text_text; /* a text column against a text value (not IS NULL):
                 ** a value present compares by its bytes alone */
} jjx_pred;

/* A cursor's filter: every comparison must hold (they are ANDed), checked
** in order, the first that fails ends the row's check.  preds is owned
** (sqlite3_free, after each rhs.p); jjx_filter_free empties it. */
typedef struct jjx_filter {
  int n;
  jjx_pred *preds;
} jjx_filter;

/* xBestIndex: the comparison constraint i of info (usable, on a document
** column of type `type`) as a jjx_pop when the table decides it exactly as
** SQLite would (omit it), that jjx_pop | JJX_P_LOOSE when the table can
** only pass over rows that certainly fail it (SQLite checks the others
** again), else -1.  text_ok: the connection's text encoding is UTF-8
** (SQLite's BINARY collation then orders text as its UTF-8 bytes). */
#define JJX_P_LOOSE 0x100
int jjx_push_op(sqlite3_index_info *info, int i, jj_type type, int text_ok);
/* Append the spelling of column col's op (a jjx_push_op result) to idxStr
** being built: "c6>=" (decided), "p3=" (a pre-filter). */
void jjx_push_spell(sqlite3_str *m, int col, int op);

/* xFilter: the comparisons idxStr spells, their values the next argc
** entries of argv (in the same order), over schema s; *f is emptied
** first.  SQLITE_OK, SQLITE_NOMEM, or SQLITE_ERROR with *msg (sqlite3_free)
** for an idxStr this module did not write. */
int jjx_filter_begin(jjx_filter *f, const char *idxStr, const jj_schema *s,
                     int argc, sqlite3_value **argv, char **msg);
void jjx_filter_free(jjx_filter *f);

/* 1 when the cursor's current row passes every comparison of its filter, 0
** when one fails, -1 when a value it reads is bad (*err filled: the same
** error xColumn gives for that value). */
struct jjx_cursor;
int jjx_filter_row(struct jjx_cursor *c, jj_error *err);

#endif /* JJX_PUSHDOWN_H */
