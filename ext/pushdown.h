/*
** pushdown.h — WHERE comparisons on a typed table's columns decided by the
** table itself (pushdown.c): which constraints xBestIndex may take (plan.c),
** how they travel to xFilter (spelled in idxStr, their values in argv), and
** the cursor's filter that xNext applies to each row (scan.c) without
** handing anything to SQLite.  Included by plan.c, vtab.c, scan.c and
** pushdown.c; the filter's types are open_table.h's (the cursor holds it).
*/
#ifndef JJX_PUSHDOWN_H
#define JJX_PUSHDOWN_H

#include "open_table.h"

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
int jjx_filter_row(jjx_cursor *c, jj_error *err);

#endif /* JJX_PUSHDOWN_H */
