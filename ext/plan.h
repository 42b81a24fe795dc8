/*
** plan.h — what the jj_open module's planner (plan.c, xBestIndex) and its
** xFilter (vtab.c) share: the plan, told to xFilter by idxNum.  Only those
** two files include it; the record form's columns and the rowid's layout,
** which the cursor's files use too, are open_table.h's.
*/
#ifndef JJ_EXT_PLAN_H
#define JJ_EXT_PLAN_H

#include <stdint.h>

#include "ext.h"

/*
** The plan's idxNum.  xFilter's arguments come in the order of these bits:
**
**   bit   idxNum  argv           meaning
**   0x01  SOURCE  the SOURCE     source = ? (table-valued call)
**   0x200 OPTIONS the OPTIONS    options = ? (the record form's second
**                                argument; it comes right after SOURCE)
**   0x02  ROW     the row        rowid = ? (or row = ? in the record form:
**                                its row in each file of a pattern)
**   0x04  ROWS    an IN list     rowid IN (...), all values at once
**                                (sqlite3_vtab_in, SQLite >= 3.38)
**   0x08  LIMIT   the limit      LIMIT pushed down (SQLite >= 3.38)
**   0x10  OFFSET  the offset     OFFSET pushed down (with LIMIT only)
**   0x20  FNAME_EQ    a name     filename = ?     (SQLite checks these
**   0x40  FNAME_LIKE  a pattern  filename LIKE ?   three again: they only
**   0x80  FNAME_GLOB  a pattern  filename GLOB ?   skip files unopened)
**   0x400 WHERE   the values     col = ?, col < ?, col IS NULL, ... on the
**                                typed table's columns (pushdown.c)
**
** idxStr spells the same plan for EXPLAIN QUERY PLAN ("source,row=").
** Without IDX_SOURCE, the record form has no document (xFilter says so)
** and the typed form scans its declared one.
*/
#define IDX_SOURCE 0x01
#define IDX_ROW 0x02
#define IDX_ROWS 0x04
#define IDX_LIMIT 0x08
#define IDX_OFFSET 0x10
#define IDX_FNAME_EQ 0x20
#define IDX_FNAME_LIKE 0x40
#define IDX_FNAME_GLOB 0x80
#define IDX_OPTIONS 0x200
#define IDX_WHERE 0x400 /* WHERE comparisons on typed columns (pushdown.c),
                        ** spelled in idxStr ("c6>="), their values last
                        ** in argv, in idxStr's order */
#define IDX_ROWS_ONLY 0x800 /* typed: no value of the rows is read (count(*),
                           ** rowid, hidden columns only): xNext checks rows
                           ** ahead with jj_cursor_skip (scan.c); no argv */
#define IDX_BY_ROW 0x100 /* ROW, ROWS: the constraint is on the record
                         ** form's row column, over a SOURCE that may be a
                         ** pattern (no argv; otherwise it is the rowid) */

/* xBestIndex of a jj_open table: typed 1 for the typed form with `ncol`
** document columns (the hidden source and filename columns follow them)
** and an estimate of `est_rows` rows; typed 0 for the record form (ncol
** and est_rows unused).  glob: the typed table's declared SOURCE is a
** pattern (rows come file by file, so rowid does not ascend).  Fills info
** as SQLite asks (idxNum, idxStr, argv order, costs); returns SQLITE_OK,
** SQLITE_CONSTRAINT for a combination that cannot work, or SQLITE_NOMEM.
** push: the typed table's columns when it may take WHERE comparisons on
** them (pushdown.c), else NULL; text_ok: the connection is UTF-8. */
int jjx_open_plan(sqlite3_index_info *info, int typed, int ncol,
                  int64_t est_rows, int glob, const jj_schema *push,
                  int text_ok);

/* The columns a plan's idxStr says its scan reads ("read 1 5": bits 1
** and 5), or 0 for every column: vtab.c's xFilter hands them to the
** cursor (jj_cursor_select). */
uint64_t jjx_plan_reads(const char *idxStr);

#endif /* JJ_EXT_PLAN_H */
