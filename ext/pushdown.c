/*
** pushdown.c — WHERE comparisons on a typed table's columns (=, <>, <, <=,
** >, >=, IS, IS NOT, IS NULL, IS NOT NULL) decided by the table: xBestIndex
** (plan.c) takes a constraint with omit=1 only when the table decides it
** exactly as SQLite would; xNext (scan.c) then skips the rows that fail
** without handing a value to SQLite.  Called by plan.c (jjx_push_op,
** jjx_push_spell), vtab.c (jjx_filter_begin, jjx_filter_free) and scan.c
** (jjx_filter_row); calls only open_table.h's jjx_column_read and the
** core.  `WHERE joined >= ?` no longer has
** SQLite copy each date, try it as a number (a DATE column has NUMERIC
** affinity) and compare it; the table compares the date's bytes.
** callgrind (bench/sqlite_bench since jjfile, 50,000 rows, BENCH_ONCE=1,
** --collect-atstart=no): repetitive 75.7 M -> 34.8 M instructions,
** high-entropy 84.6 M -> 44.8 M (the floor table: 23.0 M and 23.8 M);
** most of what is left is the core's row scan and date check.
**
** What SQLite would do (3.40's vdbe.c OP_Lt..OP_Ge and sqlite3MemCompare;
** where.c passes the right-hand value to xFilter as the expression gives
** it, with no affinity applied, except the values of an IN list, which
** carry the column's):
**
**   - The comparison's affinity is the column's when the right-hand side
**     is a literal or a parameter, and NUMERIC when either side has numeric
**     affinity (sqlite3CompareAffinity).  INTEGER, REAL, BOOLEAN (NUMERIC),
**     DATE, TIMESTAMP and DATETIME (NUMERIC: their declared names hold none of INT,
**     CHAR, TEXT, BLOB, REAL) columns therefore always compare with numeric
**     affinity, whatever the right-hand expression is: a TEXT value on
**     either side that reads as a number becomes that number, exactly as
**     sqlite3_value_numeric_type() converts it (the same
**     applyNumericAffinity).  A date or timestamp never reads as a number
**     ("2024-" stops the number), so it stays text.
**   - NULL on either side: no comparison holds (IS and IS NOT excepted).
**     A NaN float is NULL in SQLite (sqlite3_result_double stores none).
**   - Then numbers < text < blobs; integers against reals exactly, as
**     sqlite3IntFloatCompare (no rounding of big integers to double); text
**     by the collation, BINARY only here: memcmp of the UTF-8 bytes, then
**     the length (so the connection must be UTF-8: in a UTF-16 database
**     BINARY compares UTF-16 units); blobs by memcmp, then the length.
**   - A TEXT column has TEXT affinity: the comparison's affinity then
**     depends on the right-hand expression (a number literal is compared
**     as text, a number from an INTEGER column of another table numerically,
**     a CAST(... AS INTEGER) literal numerically), which xFilter cannot see.
**     So a TEXT column's comparison is taken only when SQLite shows the
**     value at planning time (sqlite3_vtab_rhs_value: a literal) and it is
**     TEXT, BLOB or NULL: those compare alike under every affinity that
**     could apply.  Never an IN list: SQLite checks an IN constraint it
**     hands over again as `col = value` in the column's affinity, which is
**     not what IN does (the values of `IN (SELECT ...)` have the
**     comparison's affinity, NUMERIC against an INTEGER subquery column).
**     (The table takes no IN list, see jjx_push_op; where SQLite cannot
**     say which `=` is one, a numeric-affinity column compares each value
**     of the list exactly as IN would: the values have the affinity the
**     IN comparison has, numeric on both sides.)
**   - A BLOB column (BLOB affinity) compares alike under every affinity:
**     a blob is greater than any number or text, blobs compare by memcmp.
**   - A nested table column and any collation but BINARY: declined.
**   - A TEXT column = or IS a value SQLite does not show (a parameter,
**     another table's column): the table passes over the rows that fail
**     under every affinity the comparison could have and SQLite checks the
**     rest again (omit=0: a pre-filter, "p3=" in idxStr); see loose_value.
**
** Errors: each value is read as xColumn reads it (jjx_column_read), so a bad
** date, bad UTF-8 or a broken row fails the statement with the message
** xColumn gives, at the same row, and a bad value is never passed over as
** a failed comparison.  Every compared column of a row is read (see
** jjx_filter_row), so one difference remains: SQLite stops checking a row
** at the first WHERE term that fails, and does not read a bad value of a
** later term; the table reads it, and fails the statement there.
*/
#include <string.h>

#include "open_table.h"
#include "pushdown.h"

/* idxStr spellings, by jjx_pop. */
static const char *const op_spelling[JJX_P_COUNT] = {
    "=", "<>", "<", "<=", ">", ">=", " is", " is not", " is null", " not null"};

/* 1 for the column types whose declared SQL type has numeric affinity. */
static int numeric_affinity(jj_type type) {
  return type == JJ_INT || type == JJ_FLOAT || type == JJ_BOOL ||
         type == JJ_DATE || type == JJ_TIMESTAMP || type == JJ_LOCAL_TIMESTAMP;
}

/* The jjx_pop of an SQLite constraint op, or -1. */
static int pop_of(int op) {
  switch (op) {
    case SQLITE_INDEX_CONSTRAINT_EQ: return JJX_P_EQ;
    case SQLITE_INDEX_CONSTRAINT_NE: return JJX_P_NE;
    case SQLITE_INDEX_CONSTRAINT_LT: return JJX_P_LT;
    case SQLITE_INDEX_CONSTRAINT_LE: return JJX_P_LE;
    case SQLITE_INDEX_CONSTRAINT_GT: return JJX_P_GT;
    case SQLITE_INDEX_CONSTRAINT_GE: return JJX_P_GE;
    case SQLITE_INDEX_CONSTRAINT_IS: return JJX_P_IS;
    case SQLITE_INDEX_CONSTRAINT_ISNOT: return JJX_P_ISNOT;
    case SQLITE_INDEX_CONSTRAINT_ISNULL: return JJX_P_ISNULL;
    case SQLITE_INDEX_CONSTRAINT_ISNOTNULL: return JJX_P_NOTNULL;
    default: return -1;
  }
}

int jjx_push_op(sqlite3_index_info *info, int i, jj_type type, int text_ok) {
  int op = pop_of(info->aConstraint[i].op);
  /* sqlite3_vtab_collation: 3.22; rhs_value and vtab_in: 3.38 */
  int version = sqlite3_libversion_number();
  if (op < 0 || type == JJ_TABLE || type == JJ_JSON || version < 3022000) return -1;
  if (op == JJX_P_ISNULL || op == JJX_P_NOTNULL) return op;
  /* An IN list stays SQLite's, which checks it on each row of one scan:
  ** handed over, it would call xFilter once per value, a scan each, and
  ** the rows would come in the list's order (sqlite3_vtab_in tells IN
  ** from 3.38 on, for the first 32 constraints; before that an IN is one
  ** `=` per value, which the table decides exactly, see TEXT below). */
  if (version >= 3038000 && i < 32 && sqlite3_vtab_in(info, i, -1))
    return -1;
  const char *coll = sqlite3_vtab_collation(info, i);
  if (!coll || sqlite3_stricmp(coll, "BINARY") != 0) return -1;
  switch (type) {
    case JJ_INT:
    case JJ_FLOAT:
    case JJ_BOOL:
    case JJ_BYTES:
      return op;
    case JJ_DATE:
    case JJ_TIMESTAMP:
    case JJ_LOCAL_TIMESTAMP:
      return text_ok ? op : -1;
    case JJ_TEXT: {
      sqlite3_value *v = NULL;
      /* An IN list (which sqlite3_vtab_in tells from 3.38 on, for the first
      ** 32 constraints) stays SQLite's: a constraint it hands over is
      ** checked again as `col = value` with the column's affinity, not as
      ** IN ('12.0' IN (SELECT 12) holds, '12.0' = 12 does not). */
      if (!text_ok || version < 3038000 || i >= 32 ||
          sqlite3_vtab_in(info, i, -1))
        return -1;
      /* = and IS against a value not seen: a pre-filter (jjx_filter_row) */
      int loose = op == JJX_P_EQ || op == JJX_P_IS ? op | JJX_P_LOOSE : -1;
      if (sqlite3_vtab_rhs_value(info, i, &v) != SQLITE_OK || !v)
        return loose;
      int kind = sqlite3_value_type(v);
      return kind == SQLITE_TEXT || kind == SQLITE_BLOB || kind == SQLITE_NULL
                 ? op
                 : loose;
    }
    case JJ_JSON: /* refused above: SQLite compares JSON's text itself */
    case JJ_TABLE:
      break;
  }
  return -1;
}

void jjx_push_spell(sqlite3_str *m, int col, int op) {
  sqlite3_str_appendf(m, "%c%d%s,", (op & JJX_P_LOOSE) ? 'p' : 'c', col,
                      op_spelling[op & ~JJX_P_LOOSE]);
}

void jjx_filter_free(jjx_filter *f) {
  for (int k = 0; k < f->n; k++) sqlite3_free(f->preds[k].rhs.p);
  sqlite3_free(f->preds);
  f->preds = NULL;
  f->n = 0;
}

/* Copy n bytes of p (may be NULL when n is 0) into r->p. */
static int rhs_copy(jjx_rhs *r, const void *p, size_t n) {
  r->p = sqlite3_malloc64(n ? n : 1);
  if (!r->p) return SQLITE_NOMEM;
  if (n) memcpy(r->p, p, n);
  r->n = n;
  return SQLITE_OK;
}

/* v as SQLite compares it against a column of type `type` (see the top). */
static int rhs_take(jjx_rhs *r, sqlite3_value *v, jj_type type) {
  int kind = sqlite3_value_type(v);
  memset(r, 0, sizeof *r);
  if (kind == SQLITE_TEXT && numeric_affinity(type)) {
    /* applyNumericAffinity on a copy: it converts the value in place */
    sqlite3_value *d = sqlite3_value_dup(v);
    if (!d) return SQLITE_NOMEM;
    int got = sqlite3_value_numeric_type(d);
    if (got == SQLITE_INTEGER) r->i = sqlite3_value_int64(d);
    if (got == SQLITE_FLOAT) r->f = sqlite3_value_double(d);
    sqlite3_value_free(d);
    if (got == SQLITE_INTEGER || got == SQLITE_FLOAT) {
      r->kind = got;
      return SQLITE_OK;
    }
  }
  r->kind = kind;
  switch (kind) {
    case SQLITE_INTEGER:
      r->i = sqlite3_value_int64(v);
      return SQLITE_OK;
    case SQLITE_FLOAT:
      r->f = sqlite3_value_double(v);
      return SQLITE_OK;
    case SQLITE_TEXT: {
      const unsigned char *p = sqlite3_value_text(v);
      if (!p) return SQLITE_NOMEM;
      return rhs_copy(r, p, (size_t)sqlite3_value_bytes(v));
    }
    case SQLITE_BLOB: {
      const void *p = sqlite3_value_blob(v);
      size_t n = (size_t)sqlite3_value_bytes(v);
      if (!p && n) return SQLITE_NOMEM;
      return rhs_copy(r, p, n);
    }
    default:
      return SQLITE_OK; /* NULL */
  }
}

/* A pre-filter's value (a TEXT column = or IS v, v unseen at planning).
** Whatever affinity the comparison has, a text value that does not read as
** a number equals exactly the text with its bytes (under NUMERIC affinity a
** column text that reads as a number becomes a number, which equals no
** text), a blob equals no text and NULL nothing (IS NULL only NULL); a
** number or a text reading as one may equal other bytes ('12' = 12, or
** '12.0' = '12.00' numerically): then no row is passed over. */
static int loose_value(jjx_pred *p, sqlite3_value *v) {
  if (p->rhs.kind == SQLITE_INTEGER || p->rhs.kind == SQLITE_FLOAT) {
    p->pass_all = 1;
  } else if (p->rhs.kind == SQLITE_TEXT) {
    sqlite3_value *d = sqlite3_value_dup(v);
    if (!d) return SQLITE_NOMEM;
    p->pass_all = sqlite3_value_numeric_type(d) != SQLITE_TEXT;
    sqlite3_value_free(d);
  }
  return SQLITE_OK;
}

/* One "c<col><op>" item of idxStr (z[0..n)) into *col and *op; 0 on
** success. */
static int parse_item(const char *z, size_t n, int *col, jjx_pop *op) {
  size_t k = 1;
  long v = 0;
  if (n < 3 || (z[0] != 'c' && z[0] != 'p') || z[1] < '0' || z[1] > '9')
    return -1;
  while (k < n && z[k] >= '0' && z[k] <= '9' && v < 100000)
    v = v * 10 + (z[k++] - '0');
  for (int o = 0; o < JJX_P_COUNT; o++)
    if (strlen(op_spelling[o]) == n - k &&
        memcmp(op_spelling[o], z + k, n - k) == 0) {
      *col = (int)v;
      *op = (jjx_pop)o;
      return 0;
    }
  return -1;
}

int jjx_filter_begin(jjx_filter *f, const char *idxStr, const jj_schema *s,
                     int argc, sqlite3_value **argv, char **msg) {
  const char *z = idxStr ? idxStr : "";
  int cap = 0;
  jjx_filter_free(f);
  while (*z) {
    const char *end = strchr(z, ',');
    size_t n = end ? (size_t)(end - z) : strlen(z);
    int col;
    jjx_pop op;
    if ((z[0] == 'c' || z[0] == 'p') && n > 1 && z[1] >= '0' && z[1] <= '9') {
      if (parse_item(z, n, &col, &op) != 0 || f->n >= argc ||
          (size_t)col >= jj_schema_columns(s)) {
        *msg = sqlite3_mprintf("jj_open: a plan this table did not make "
                               "(\"%.*s\" in \"%s\")",
                               (int)n, z, idxStr);
        return SQLITE_ERROR;
      }
      if (f->n == cap) {
        cap = cap ? cap * 2 : 4;
        jjx_pred *p = sqlite3_realloc64(f->preds, (size_t)cap * sizeof *p);
        if (!p) return SQLITE_NOMEM;
        f->preds = p;
      }
      jjx_pred *p = &f->preds[f->n];
      memset(p, 0, sizeof *p);
      p->col = col;
      p->op = op;
      p->type = jj_schema_type(s, (size_t)col);
      p->loose = z[0] == 'p';
      f->n++;
      int rc = rhs_take(&p->rhs, argv[f->n - 1], p->type);
      if (rc != SQLITE_OK) return rc;
      if (p->loose) {
        rc = loose_value(p, argv[f->n - 1]);
        if (rc != SQLITE_OK) return rc;
      }
      p->text_text = (p->type == JJ_TEXT || p->type == JJ_DATE ||
                      p->type == JJ_TIMESTAMP ||
                      p->type == JJ_LOCAL_TIMESTAMP) &&
                     p->rhs.kind == SQLITE_TEXT && op != JJX_P_ISNULL &&
                     op != JJX_P_NOTNULL;
      /* planned only for a literal TEXT, BLOB or NULL (jjx_push_op) */
      if (p->type == JJ_TEXT && !p->loose && op != JJX_P_ISNULL &&
          op != JJX_P_NOTNULL &&
          (p->rhs.kind == SQLITE_INTEGER || p->rhs.kind == SQLITE_FLOAT)) {
        *msg = sqlite3_mprintf("jj_open: a number reached a comparison of "
                               "a TEXT column planned for a literal text");
        return SQLITE_ERROR;
      }
    }
    z += n + (end != NULL);
  }
  return SQLITE_OK;
}

/* -------------------------------------------------------------------- */
/* Comparing, as sqlite3MemCompare does                                 */
/* -------------------------------------------------------------------- */

/* i against r exactly (sqlite3IntFloatCompare): no rounding of i to a
** double decides anything; r is never NaN (SQLite has none). */
static int int_float_cmp(int64_t i, double r) {
  if (r < -9223372036854775808.0) return 1;
  if (r >= 9223372036854775808.0) return -1;
  int64_t y = (int64_t)r; /* r truncated; exact in range */
  if (i < y) return -1;
  if (i > y) return 1;
  double s = (double)i; /* i == y: exact, or r is that integer */
  return s < r ? -1 : s > r;
}

/* BINARY collation and blobs: memcmp, then the shorter first. */
static int bytes_cmp(const void *a, size_t na, const void *b, size_t nb) {
  int c = memcmp(a, b, na < nb ? na : nb);
  if (c) return c;
  return na < nb ? -1 : na > nb;
}

/* The storage class order: numbers < text < blobs. */
static int class_of(int kind) {
  return kind == SQLITE_TEXT ? 2 : kind == SQLITE_BLOB ? 3 : 1;
}

/* A column value as SQLite holds it: kind and one of i, f, (p, n). */
typedef struct colval {
  int kind;
  int64_t i;
  double f;
  const void *p;
  size_t n;
} colval;

/* a against r, neither NULL: <0, 0, >0. */
static int compare(const colval *a, const jjx_rhs *r) {
  int ca = class_of(a->kind), cr = class_of(r->kind);
  if (ca != cr) return ca < cr ? -1 : 1;
  if (ca == 1) {
    if (a->kind == SQLITE_INTEGER && r->kind == SQLITE_INTEGER)
      return a->i < r->i ? -1 : a->i > r->i;
    if (a->kind == SQLITE_FLOAT && r->kind == SQLITE_FLOAT)
      return a->f < r->f ? -1 : a->f > r->f;
    if (a->kind == SQLITE_INTEGER) return int_float_cmp(a->i, r->f);
    return -int_float_cmp(r->i, a->f);
  }
  return bytes_cmp(a->p, a->n, r->p, r->n);
}

/* The read value v (r: 1 present, 0 null) as SQLite would hold it; 0 when
** SQLite would hold NULL. */
static int to_colval(const jj_value *v, colval *a) {
  switch (v->type) {
    case JJ_INT:
      a->kind = SQLITE_INTEGER;
      a->i = v->u.i;
      return 1;
    case JJ_BOOL:
      a->kind = SQLITE_INTEGER;
      a->i = v->u.b != 0;
      return 1;
    case JJ_FLOAT:
      if (v->u.f != v->u.f) return 0; /* NaN: SQLite stores NULL */
      a->kind = SQLITE_FLOAT;
      a->f = v->u.f;
      return 1;
    case JJ_TEXT:
    case JJ_DATE:
    case JJ_TIMESTAMP:
    case JJ_LOCAL_TIMESTAMP:
      a->kind = SQLITE_TEXT;
      a->p = v->u.text.p;
      a->n = v->u.text.len;
      return 1;
    case JJ_BYTES:
      a->kind = SQLITE_BLOB;
      a->p = v->u.bytes.p;
      a->n = v->u.bytes.len;
      return 1;
    case JJ_JSON: /* never planned (jjx_push_op) */
      return 0;
    case JJ_TABLE: /* never planned (jjx_push_op); freed all the same */
      jj_doc_free(v->u.table);
      return 0;
  }
  return 0;
}

/* Whether `a op r` holds; a_null: the column value is NULL. */
static int holds(jjx_pop op, int a_null, const colval *a, const jjx_rhs *r) {
  int r_null = r->kind == SQLITE_NULL;
  switch (op) {
    case JJX_P_ISNULL: return a_null;
    case JJX_P_NOTNULL: return !a_null;
    case JJX_P_IS:
      if (a_null || r_null) return a_null && r_null;
      return compare(a, r) == 0;
    case JJX_P_ISNOT:
      if (a_null || r_null) return !(a_null && r_null);
      return compare(a, r) != 0;
    default:
      break;
  }
  if (a_null || r_null) return 0;
  int c = compare(a, r);
  switch (op) {
    case JJX_P_EQ: return c == 0;
    case JJX_P_NE: return c != 0;
    case JJX_P_LT: return c < 0;
    case JJX_P_LE: return c <= 0;
    case JJX_P_GT: return c > 0;
    case JJX_P_GE: return c >= 0;
    default: return 0;
  }
}

/* Every compared column is read, also after a comparison failed: SQLite
** checks the WHERE terms in the clause's order, which xBestIndex does not
** show (it lists =, <, <=, >, >=, IS and IS NULL in that order, then <>,
** IS NOT and IS NOT NULL in reverse), so a row failing one comparison may
** be a row whose bad value SQLite reads first.  Reading them all, a bad
** value SQLite would read is never passed over. */
int jjx_filter_row(jjx_cursor *c, jj_error *err) {
  const jjx_table *t = (const jjx_table *)c->base.pVtab;
  const jjx_filter *f = &c->filter;
  int pass = 1;
  for (int k = 0; k < f->n; k++) {
    const jjx_pred *p = &f->preds[k];
    jj_value v;
    colval a;
    a.kind = SQLITE_NULL;
    int r = jjx_column_read(c, t, p->col, &v, err);
    if (r < 0) return -1;
    if (!pass || p->pass_all) continue;
    if (r > 0 && p->text_text) { /* `joined >= ?`: the bytes, no more */
      int cmp = bytes_cmp(v.u.text.p, v.u.text.len, p->rhs.p, p->rhs.n);
      pass = p->op == JJX_P_GE   ? cmp >= 0
             : p->op == JJX_P_LT ? cmp < 0
             : p->op == JJX_P_GT ? cmp > 0
             : p->op == JJX_P_LE ? cmp <= 0
             : p->op == JJX_P_NE || p->op == JJX_P_ISNOT ? cmp != 0
                                                         : cmp == 0;
      continue;
    }
    int present = r > 0 && to_colval(&v, &a);
    pass = holds(p->op, !present, &a, &p->rhs);
  }
  return pass;
}
