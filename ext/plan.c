/*
** plan.c — the jj_open module's xBestIndex: which constraints the table
** takes (the SOURCE, the rowid, an IN list, LIMIT and OFFSET), in which
** argv order, and at what cost.  The plan goes to xFilter (vtab.c) as the
** idxNum bits of plan.h.  tests/sql/test_planner.py checks every plan against
** the rows a plain table gives for thousands of random queries.  Called by
** vtab.c's xBestIndex; calls pushdown.c (which WHERE comparisons the table
** takes), glob.c and util.c.
**
** Rows come out in row order, so ORDER BY rowid is consumed.  LIMIT and
** OFFSET are taken only when every other constraint is handled here and the
** order is ours: otherwise SQLite would drop rows after we counted them.
**
** A plan without the SOURCE.  SQLite plans each term of an OR on its own
** (`WHERE row = 1 OR row > 38`), with only that term's constraints: the
** SOURCE of `jj_open('f')` is not among them.  Such a plan must not fail
** planning (that failed the whole statement) and must never be chosen
** over one that has the SOURCE, so it gets a prohibitive cost:
**   - the record form has no document without a SOURCE: every plan without
**     one is prohibitive; if SQLite runs one anyway, the user gave no
**     argument at all (`SELECT * FROM jj_open`) and xFilter says so;
**   - the typed table scans its own document without a SOURCE, which is
**     right unless the query gave one (`rows(x.src)`): colUsed then has the
**     source column, and a plan without it would read the wrong document.
**     (Columns from 63 on share colUsed's last bit: in a table that wide,
**     a query using one makes every plan look costly, never wrong; the
**     plans keep their order among themselves.)
** A SOURCE constraint that exists but is not usable (its value comes from
** a table not yet scanned in this join order) makes the plan unworkable:
** SQLITE_CONSTRAINT, which SQLite (3.26 and newer) takes as "not this
** combination", never as an error.  The record form's OPTIONS (the second
** argument, options = ?) go with the SOURCE the same way: taken, omitted,
** and an unusable one makes the plan unworkable.
**
** Globs.  A SOURCE that names files by a pattern returns each file's rows
** in turn; the record form's row counts from 1 in each file, the rowid is
** file << JJX_ROWID_SHIFT | row (plan.h), unique and ascending.  So
** ORDER BY rowid is always consumed and rowid = ? always unique, but
** ORDER BY row and row = ? only when the SOURCE is known not to be a
** pattern (a literal argument SQLite shows us, 3.38 and newer).  filename = ?, LIKE ? and GLOB ? are passed to
** xFilter to skip whole files, and left for SQLite to check again (omit 0),
** so they count as constraints SQLite still filters on.
*/
#include <string.h>
#include <sys/stat.h>

#include "open_table.h"
#include "plan.h"
#include "pushdown.h"

/* Rows assumed for a SOURCE whose size is unknown at planning time. */
#define UNKNOWN_ROWS 100000
/* WHERE comparisons taken at most: SQLite omits (trusts) a constraint only
** among the first 16 argv values, later ones it would check again. */
#define MAX_PUSH 16

int jjx_open_plan(sqlite3_index_info *info, int typed, int ncol,
                  int64_t est_rows, int glob, const jj_schema *push,
                  int text_ok) {
  int source_col = typed ? ncol : REC_SOURCE;
  int fname_col = typed ? ncol + 1 : REC_FILENAME;
  int ifname[3] = {-1, -1, -1}; /* filename =, LIKE, GLOB */
  int by_row = 0; /* the row constraint is on the row column, not rowid */
  int newer = sqlite3_libversion_number() >= 3038000;
  int isrc = -1, iopt = -1, irow = -1, ilimit = -1, ioffset = -1;
  int unusable_source = 0, unusable_options = 0;
  int argv = 0, others = 0;
  int npush = 0, pushed[MAX_PUSH];
  int push_op[MAX_PUSH]; /* jjx_push_op's: a jjx_pop, maybe JJX_P_LOOSE */
  const struct sqlite3_index_constraint *c = info->aConstraint;

  for (int i = 0; i < info->nConstraint; i++) {
    int col = c[i].iColumn, op = c[i].op;
    if (newer && op == SQLITE_INDEX_CONSTRAINT_LIMIT) {
      if (c[i].usable) ilimit = i;
      continue;
    }
    if (newer && op == SQLITE_INDEX_CONSTRAINT_OFFSET) {
      if (c[i].usable) ioffset = i;
      continue;
    }
    if (col == source_col && op == SQLITE_INDEX_CONSTRAINT_EQ) {
      if (!c[i].usable)
        unusable_source = 1;
      else if (isrc < 0)
        isrc = i;
      else
        others++;
      continue;
    }
    if (!typed && col == REC_OPTIONS && op == SQLITE_INDEX_CONSTRAINT_EQ) {
      /* rides with the SOURCE: unusable, it makes the plan unworkable */
      if (!c[i].usable)
        unusable_options = 1;
      else if (iopt < 0)
        iopt = i;
      else
        others++;
      continue;
    }
    if (col == fname_col && c[i].usable &&
        (op == SQLITE_INDEX_CONSTRAINT_EQ ||
         op == SQLITE_INDEX_CONSTRAINT_LIKE ||
         op == SQLITE_INDEX_CONSTRAINT_GLOB)) {
      int k = op == SQLITE_INDEX_CONSTRAINT_EQ     ? 0
              : op == SQLITE_INDEX_CONSTRAINT_LIKE ? 1
                                                   : 2;
      if (ifname[k] < 0) ifname[k] = i;
      others++; /* checked again by SQLite */
      continue;
    }
    if ((col == -1 || (!typed && col == REC_ROW)) &&
        op == SQLITE_INDEX_CONSTRAINT_EQ && c[i].usable && irow < 0) {
      irow = i;
      by_row = col != -1;
      continue;
    }
    if (push && col >= 0 && col < ncol && c[i].usable && npush < MAX_PUSH) {
      int pop = jjx_push_op(info, i, jj_schema_type(push, (size_t)col),
                            text_ok);
      if (pop >= 0) { /* decided exactly by the table: omitted */
        pushed[npush] = i;
        push_op[npush++] = pop;
        if (pop & JJX_P_LOOSE) others++; /* a pre-filter: checked again */
        continue;
      }
    }
    others++;
  }
  if ((unusable_source && isrc < 0) || (unusable_options && iopt < 0))
    return SQLITE_CONSTRAINT;
  sqlite3_uint64 source_bit = (sqlite3_uint64)1
                              << (source_col < 63 ? source_col : 63);
  int no_source = isrc < 0 && (!typed || (info->colUsed & source_bit));

  int64_t rows = typed ? est_rows : UNKNOWN_ROWS;
  int ordered = !glob; /* rows come in rowid order */
  if (isrc >= 0) {
    sqlite3_value *v = NULL;
    info->aConstraintUsage[isrc].argvIndex = ++argv;
    info->aConstraintUsage[isrc].omit = 1;
    info->idxNum |= IDX_SOURCE;
    ordered = 0;
    if (newer && sqlite3_vtab_rhs_value(info, isrc, &v) == SQLITE_OK && v) {
      int64_t est = jjx_estimate_value(v);
      if (est >= 0) rows = est;
      ordered = !jjx_value_is_glob(v);
    }
  }
  if (iopt >= 0) { /* xFilter takes it right after the SOURCE */
    info->aConstraintUsage[iopt].argvIndex = ++argv;
    info->aConstraintUsage[iopt].omit = 1;
    info->idxNum |= IDX_OPTIONS;
  }
  if (irow >= 0) {
    info->aConstraintUsage[irow].argvIndex = ++argv;
    info->aConstraintUsage[irow].omit = 1;
    if (by_row && !ordered) info->idxNum |= IDX_BY_ROW;
    if (newer && sqlite3_vtab_in(info, irow, -1)) {
      sqlite3_vtab_in(info, irow, 1);
      info->idxNum |= IDX_ROWS;
      rows = rows < 10 ? rows : 10;
    } else {
      info->idxNum |= IDX_ROW;
      rows = 1;
      if (ordered || !by_row)
        info->idxFlags |= SQLITE_INDEX_SCAN_UNIQUE;
    }
  }
  /* The comparisons' share of rows: an equality a tenth, a range a third
  ** (the guesses SQLite makes for a column without statistics). */
  int64_t before_where = rows;
  for (int k = 0; k < npush; k++) {
    int op = push_op[k] & ~JJX_P_LOOSE;
    if (op == JJX_P_EQ || op == JJX_P_IS || op == JJX_P_ISNULL)
      rows = rows / 10 + 1;
    else if (op != JJX_P_NE && op != JJX_P_ISNOT && op != JJX_P_NOTNULL)
      rows = rows / 3 + 1;
  }
  if (info->nOrderBy == 1 && !info->aOrderBy[0].desc &&
      (info->aOrderBy[0].iColumn == -1 ||
       (ordered && !typed && info->aOrderBy[0].iColumn == REC_ROW)))
    info->orderByConsumed = 1;
  if (ilimit >= 0 && others == 0 &&
      (info->nOrderBy == 0 || info->orderByConsumed)) {
    sqlite3_value *v = NULL;
    info->aConstraintUsage[ilimit].argvIndex = ++argv;
    info->aConstraintUsage[ilimit].omit = 1;
    info->idxNum |= IDX_LIMIT;
    if (sqlite3_vtab_rhs_value(info, ilimit, &v) == SQLITE_OK && v &&
        sqlite3_value_int64(v) >= 0 && sqlite3_value_int64(v) < rows)
      rows = sqlite3_value_int64(v);
    if (ioffset >= 0) {
      info->aConstraintUsage[ioffset].argvIndex = ++argv;
      info->aConstraintUsage[ioffset].omit = 1;
      info->idxNum |= IDX_OFFSET;
    }
  }
  for (int k = 0; k < 3; k++) {
    if (ifname[k] < 0) continue;
    info->aConstraintUsage[ifname[k]].argvIndex = ++argv;
    info->idxNum |= IDX_FNAME_EQ << k;
    rows = rows / (k == 0 ? 10 : 2) + 1;
  }

  for (int k = 0; k < npush; k++) { /* last in argv, in idxStr's order */
    info->aConstraintUsage[pushed[k]].argvIndex = ++argv;
    info->aConstraintUsage[pushed[k]].omit = !(push_op[k] & JJX_P_LOOSE);
    info->idxNum |= IDX_WHERE;
  }

  /* No column of the rows read (count(*), the rowid, hidden columns): the
  ** scan may check rows ahead without making them readable. */
  if (typed && ncol > 0 && ncol < 63 && !npush && irow < 0 &&
      !(info->colUsed & (((sqlite3_uint64)1 << ncol) - 1)))
    info->idxNum |= IDX_ROWS_ONLY;

  /* A typed table whose query reads some of its columns, not all (and no
  ** union_by_name: push is set): its scan locates only those (xFilter
  ** passes them to jj_cursor_select), a few cleared bits instead of a
  ** span per value on the common row; "read 5" in idxStr. */
  sqlite3_uint64 reads = 0;
  if (push && ncol > 1 && ncol < 63 && !(info->idxNum & IDX_ROWS_ONLY)) {
    const sqlite3_uint64 all = ((sqlite3_uint64)1 << ncol) - 1;
    reads = info->colUsed & all;
    if (reads == all) reads = 0;
  }

  /* Cost: a row's structure is scanned whatever is read; each column read
  ** costs about as much again (colUsed: bit 63 stands for columns >= 63).
  ** Comparisons taken still scan every row: a tenth off, so that the plan
  ** is preferred to the same scan without them, but never so cheap that
  ** SQLite would scan the document once per term of an OR (MULTI-INDEX
  ** OR: two scans, rows in another order) instead of once. */
  int used = 0;
  for (int b = 0; b < 64; b++)
    if (info->colUsed & ((sqlite3_uint64)1 << b)) used++;
  if (rows < 1) rows = 1;
  info->estimatedRows = rows;
  info->estimatedCost = (double)rows * (1.0 + used);
  if (npush)
    info->estimatedCost =
        (double)(before_where < 1 ? 1 : before_where) * (1.0 + used) * 0.9;
  /* No SOURCE (see above): dearer than any plan with one, in the same
  ** order among themselves; the record form's has no rows to estimate. */
  if (no_source) info->estimatedCost *= 1e250;
  if (no_source && !typed) info->estimatedRows = (sqlite3_int64)1 << 62;
  sqlite3_str *m = sqlite3_str_new(NULL);
  sqlite3_str_appendf(
      m, "%s%s%s%s%s%s%s%s%s%s", (info->idxNum & IDX_SOURCE) ? "source," : "",
      (info->idxNum & IDX_OPTIONS) ? "options," : "",
      (info->idxNum & IDX_ROW) ? "row=," : "",
      (info->idxNum & IDX_ROWS) ? "row in," : "",
      (info->idxNum & IDX_LIMIT) ? "limit," : "",
      (info->idxNum & IDX_OFFSET) ? "offset," : "",
      (info->idxNum & IDX_FNAME_EQ) ? "filename=," : "",
      (info->idxNum & IDX_FNAME_LIKE) ? "filename like," : "",
      (info->idxNum & IDX_FNAME_GLOB) ? "filename glob," : "",
      (info->idxNum & IDX_ROWS_ONLY) ? "rows only," : "");
  for (int k = 0; k < npush; k++)
    jjx_push_spell(m, info->aConstraint[pushed[k]].iColumn, push_op[k]);
  if (reads) {
    sqlite3_str_appendall(m, "read");
    for (int b = 0; b < ncol; b++)
      if (reads >> b & 1) sqlite3_str_appendf(m, " %d", b);
    sqlite3_str_appendall(m, ",");
  }
  /* an empty string is NULL without an error: "" then */
  if (sqlite3_str_errcode(m) != SQLITE_OK) {
    sqlite3_free(sqlite3_str_finish(m));
    return SQLITE_NOMEM;
  }
  info->idxStr = sqlite3_str_finish(m);
  if (!info->idxStr) info->idxStr = sqlite3_mprintf("%s", "");
  if (!info->idxStr) return SQLITE_NOMEM;
  size_t n = strlen(info->idxStr);
  if (n) info->idxStr[n - 1] = '\0'; /* drop the last comma */
  info->needToFreeIdxStr = 1;
  return SQLITE_OK;
}

/* ---------------------------------------------------------------------- */
/* The rows of a SOURCE known when planning                               */
/* ---------------------------------------------------------------------- */

/* Planning-time estimate for a literal SOURCE; the file is only stat()ed. */
int64_t jjx_estimate_value(sqlite3_value *v) {
  struct stat st;
  switch (sqlite3_value_type(v)) {
    case SQLITE_NULL:
      return 1;
    case SQLITE_BLOB:
      return jjx_estimate_rows((uint64_t)sqlite3_value_bytes(v));
    case SQLITE_TEXT: {
      const char *p = (const char *)sqlite3_value_text(v);
      size_t len = (size_t)sqlite3_value_bytes(v);
      if (!p) return -1;
      if (jjx_looks_like_document(p, len)) return jjx_estimate_rows(len);
      if (stat(p, &st) != 0 || st.st_size < 0) return -1;
      /* A compressed file holds several times its size in rows. */
      if (jj_compression_for_path(p) != JJ_PLAIN)
        return jjx_estimate_rows((uint64_t)st.st_size * 8);
      return jjx_estimate_rows((uint64_t)st.st_size);
    }
    default:
      return -1;
  }
}

/* The columns of a plan's "read" item (jjx_open_plan), as bits; 0 when it
** has none (every column is read).  Numbers past 62 are ignored: the plan
** makes none. */
uint64_t jjx_plan_reads(const char *idxStr) {
  const char *z = idxStr ? strstr(idxStr, "read") : NULL;
  uint64_t bits = 0;
  if (!z || (z != idxStr && z[-1] != ',')) return 0;
  for (z += 4; *z == ' ';) {
    unsigned v = 0;
    int digits = 0;
    for (z++; *z >= '0' && *z <= '9' && v < 1000; z++, digits++) v = v * 10 + (unsigned)(*z - '0');
    if (!digits || v > 62) return 0;
    bits |= UINT64_C(1) << v;
  }
  return bits;
}
