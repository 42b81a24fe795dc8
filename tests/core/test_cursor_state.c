/*
** test_cursor_state.c — every value accessor, in every state a cursor can
** be in, on every row scanner: on a row each reads its column (and gives
** the usage error for a column index of ncol or SIZE_MAX, or a column of
** another type); anywhere else (before the first row, past the last, after
** a failed move) each gives the usage error that names the state.
**
** Why: the accessors test one cursor field, `readable` (doc.h: ncol on a
** row, else 0), for both the state and the column index.  It is set with
** the state at every change of state (cursor.c, doc.c, rowscan.c); a
** change that forgot it would let an accessor read a stale row or refuse
** a good one, and the states below take every path that changes it:
** jj_cursor_next's first row, its common step (jj_row_next's instances)
** and its general one, the end of the rows and the errors there, seek
** (known row, past the end, rewind, forward over rows not yet indexed),
** skip (one row, several in a batch, past the end, stopping on the last
** good row before an error), and errors in a row met by each of them.
*/
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "jalapenojson.h"
#include "test.h"

#define NCOL 8
#define NROW 8

static const char *const col_names[NCOL] = {"id",  "name", "price", "day",
                                            "at",  "ok",   "blob",  "items"};

#define HEADER(count)                                                              \
  "{\"jalapenojson\":1,\"columns\":[\"id\",\"name\",\"price\",\"day\",\"at\",\"ok\"," \
  "\"blob\",\"items\"],\"types\":[\"i\",\"s\",\"f\",\"d\",\"t\",\"b\",\"x\","          \
  "{\"columns\":[\"sku\",\"qty\"],\"types\":[\"s\",\"i\"]}]" count ",\"rows\":[\n"

/* Row k's values as written: long enough (about 100 bytes) that the
** common step of jj_cursor_next (jj_row_next: a row behind ",\n[" with
** 64 bytes after it) takes every row after the first. */
static void row_text(jj_buf *b, int k, int broken) {
  char s[256];
  snprintf(s, sizeof s,
           "[%lld,\"name of row %d, long enough for the row scanners\",%d.25,"
           "\"2024-03-%02d\",\"2024-03-01T10:30:00Z\",%s,\"AAEC/w==\",[[\"a-%d\",%d]]%s]",
           100000000000LL + k, k, k, k, k % 2 ? "true" : "false", k, k,
           broken ? ",1" : ""); /* broken: a ninth value, JJ_ERR_ROW */
  if (jj_buf_append(b, s, strlen(s))) abort();
}

/* A document of NROW rows; row `bad` (0: none) has a ninth value and
** stands behind `sep` (the others behind the canonical ",\n"); `head` is
** the header, `tail` what follows the rows' ']'. */
static char *make_doc(int bad, const char *sep, const char *head, const char *tail,
                      size_t *len) {
  jj_buf b = {0};
  if (jj_buf_append(&b, head, strlen(head))) abort();
  for (int k = 1; k <= NROW; k++) {
    const char *between = k == bad ? sep : ",\n";
    if (k > 1 && jj_buf_append(&b, between, strlen(between))) abort();
    row_text(&b, k, k == bad);
  }
  if (jj_buf_append(&b, "\n]", 2) || jj_buf_append(&b, tail, strlen(tail))) abort();
  *len = b.len;
  return b.p; /* owned by the caller (free) */
}

/* ------------------------------------------------------------------ */
/* The accessors, one call each                                        */
/* ------------------------------------------------------------------ */

enum { A_INT, A_DOUBLE, A_TEXT, A_BOOL, A_DATE, A_TIMESTAMP, A_BYTES, A_TABLE,
       A_VALUE, A_RAW, NACC };
static const char *const acc_names[NACC] = {
    "jj_cursor_int",   "jj_cursor_double",    "jj_cursor_text",  "jj_cursor_bool",
    "jj_cursor_date",  "jj_cursor_timestamp", "jj_cursor_bytes", "jj_cursor_table",
    "jj_cursor_value", "jj_cursor_raw"};
/* The column each accessor reads (jj_cursor_value and jj_cursor_raw:
** any; 0 here) and one it cannot. */
static const size_t acc_col[NACC] = {0, 2, 1, 5, 3, 4, 6, 7, 0, 0};
static const size_t acc_wrong[NACC] = {1, 0, 6, 0, 4, 3, 1, 0, NCOL, NCOL};

/* What an accessor gave: its result, and for a read the value as text. */
typedef struct got {
  int rc;
  char text[128];
} got;

/* Call accessor a on column col; the value read, as text, in g->text. */
static got call(jj_cursor *c, int a, size_t col, jj_error *e) {
  got g;
  int64_t i = 0;
  double f = 0;
  int b = 0;
  int32_t days = 0;
  jj_timestamp ts;
  const char *p = NULL;
  const unsigned char *bp = NULL;
  size_t n = 0;
  jj_doc *t = NULL;
  jj_value v;
  memset(&ts, 0, sizeof ts);
  memset(&v, 0, sizeof v);
  g.text[0] = 0;
  switch (a) {
    case A_INT:
      g.rc = jj_cursor_int(c, col, &i, e);
      snprintf(g.text, sizeof g.text, "%lld", (long long)i);
      break;
    case A_DOUBLE:
      g.rc = jj_cursor_double(c, col, &f, e);
      snprintf(g.text, sizeof g.text, "%.2f", f);
      break;
    case A_TEXT:
      g.rc = jj_cursor_text(c, col, &p, &n, e);
      if (g.rc == 1) snprintf(g.text, sizeof g.text, "%.*s", (int)n, p);
      break;
    case A_BOOL:
      g.rc = jj_cursor_bool(c, col, &b, e);
      snprintf(g.text, sizeof g.text, "%d", b);
      break;
    case A_DATE:
      g.rc = jj_cursor_date(c, col, &days, e);
      snprintf(g.text, sizeof g.text, "%ld", (long)days);
      break;
    case A_TIMESTAMP:
      g.rc = jj_cursor_timestamp(c, col, &ts, e);
      snprintf(g.text, sizeof g.text, "%lld", (long long)ts.seconds);
      break;
    case A_BYTES:
      g.rc = jj_cursor_bytes(c, col, &bp, &n, e);
      if (g.rc == 1 && n == 4)
        snprintf(g.text, sizeof g.text, "%u %u %u %u", bp[0], bp[1], bp[2], bp[3]);
      break;
    case A_TABLE:
      g.rc = jj_cursor_table(c, col, &t, e);
      if (g.rc == 1) { /* the nested row's first value */
        jj_error te;
        jj_cursor *tc = jj_cursor_new(t, &te);
        if (tc && jj_cursor_next(tc, &te) == 1 && jj_cursor_text(tc, 0, &p, &n, &te) == 1)
          snprintf(g.text, sizeof g.text, "%.*s", (int)n, p);
        jj_cursor_free(tc);
        jj_doc_free(t);
      }
      break;
    case A_VALUE:
      g.rc = jj_cursor_value(c, col, &v, e);
      if (g.rc == 1 && v.type == JJ_INT)
        snprintf(g.text, sizeof g.text, "%lld", (long long)v.u.i);
      if (g.rc == 1 && v.type == JJ_TABLE) jj_doc_free(v.u.table);
      break;
    default:
      g.rc = jj_cursor_raw(c, col, &p, &n, e);
      if (g.rc == 1) snprintf(g.text, sizeof g.text, "%.*s", (int)n, p);
      break;
  }
  return g;
}

/* What accessor a reads from row k (days: 2024-03-01 is day 19783;
** 2024-03-01T10:30:00Z second 1709289000). */
static void expected(int a, int k, char *out, size_t cap) {
  switch (a) {
    case A_INT:
    case A_VALUE: snprintf(out, cap, "%lld", 100000000000LL + k); break;
    case A_RAW: snprintf(out, cap, "%lld", 100000000000LL + k); break;
    case A_DOUBLE: snprintf(out, cap, "%d.25", k); break;
    case A_TEXT:
      snprintf(out, cap, "name of row %d, long enough for the row scanners", k);
      break;
    case A_BOOL: snprintf(out, cap, "%d", k % 2); break;
    case A_DATE: snprintf(out, cap, "%d", 19783 + k - 1); break;
    case A_TIMESTAMP: snprintf(out, cap, "1709289000"); break;
    case A_BYTES: snprintf(out, cap, "0 1 2 255"); break;
    default: snprintf(out, cap, "a-%d", k); break;
  }
}

/* ------------------------------------------------------------------ */
/* The checks                                                          */
/* ------------------------------------------------------------------ */

/* The cursor is on row k: every accessor reads its column; a column index
** of ncol or SIZE_MAX, and a column of another type, give the usage
** error with the row (and column) in front.  `where` names the case. */
static void reads_row(jj_cursor *c, int k, const char *where) {
  char want[160];
  jj_error e;
  CHECK_EQ_INT(jj_cursor_row(c), k);
  for (int a = 0; a < NACC; a++) {
    got g = call(c, a, acc_col[a], &e);
    expected(a, k, want, sizeof want);
    if (!CHECK(g.rc == 1 && strcmp(g.text, want) == 0))
      fprintf(stderr, "     %s, row %d: %s gave %d \"%s\", not \"%s\" (%s)\n", where, k,
              acc_names[a], g.rc, g.text, want, g.rc < 0 ? e.message : "");
    const size_t bad[2] = {NCOL, SIZE_MAX};
    for (int j = 0; j < 2; j++) {
      g = call(c, a, bad[j], &e);
      snprintf(want, sizeof want, "row %d: %s: column index %zu is out of range (%d columns)",
               k, acc_names[a], bad[j], NCOL);
      if (!CHECK(g.rc == -1 && e.code == JJ_ERR_USAGE && e.row == k &&
                 strcmp(e.message, want) == 0))
        fprintf(stderr, "     %s: got %d %s\n     want %s\n", where, g.rc, e.message, want);
    }
    if (acc_wrong[a] < NCOL) {
      g = call(c, a, acc_wrong[a], &e);
      snprintf(want, sizeof want, "row %d, column \"%s\": %s cannot read ", k,
               col_names[acc_wrong[a]], acc_names[a]);
      if (!CHECK(g.rc == -1 && e.code == JJ_ERR_USAGE &&
                 strncmp(e.message, want, strlen(want)) == 0))
        fprintf(stderr, "     %s: got %d %s\n     want %s...\n", where, g.rc, e.message, want);
    }
  }
  for (size_t col = 0; col < NCOL; col++) CHECK_EQ_INT(jj_cursor_is_null(c, col), 0);
  CHECK_EQ_INT(jj_cursor_is_null(c, NCOL), -1);
  CHECK_EQ_INT(jj_cursor_is_null(c, SIZE_MAX), -1);
}

/* The cursor is not on a row (why: what the message says of it): every
** accessor, on every column, ncol and SIZE_MAX, gives the usage error
** that says so, with no place; jj_cursor_is_null gives -1. */
static void refuses_all(jj_cursor *c, const char *why, const char *where) {
  char want[200];
  jj_error e;
  for (int a = 0; a < NACC; a++)
    for (size_t col = 0; col <= NCOL + 1; col++) {
      const size_t at = col <= NCOL ? col : SIZE_MAX;
      got g = call(c, a, at, &e);
      snprintf(want, sizeof want, "%s: the cursor is not on a row (%s)", acc_names[a], why);
      if (!CHECK(g.rc == -1 && e.code == JJ_ERR_USAGE && e.row == 0 && e.column == -1 &&
                 e.offset == JJ_NO_OFFSET && strcmp(e.message, want) == 0))
        fprintf(stderr, "     %s, column %zu: got %d %s\n     want %s\n", where, at, g.rc,
                e.message, want);
    }
  for (size_t col = 0; col <= NCOL; col++) CHECK_EQ_INT(jj_cursor_is_null(c, col), -1);
  CHECK_EQ_INT(jj_cursor_is_null(c, SIZE_MAX), -1);
}

#define BEFORE "call jj_cursor_next first"
#define PAST "it is past the last row"
#define FAILED "its last move failed"

/* A document parsed with scanner s, and a cursor on it. */
typedef struct open_doc {
  jj_doc *d;
  jj_cursor *c;
} open_doc;

static open_doc open_with(const char *doc, size_t len, jj_scan s) {
  jj_error e;
  open_doc o;
  o.d = jj_parse_opts(doc, len, JJ_PARSE_SCAN(s), 0, &e);
  if (!o.d) {
    fprintf(stderr, "parse failed: %s\n", e.message);
    abort();
  }
  o.c = jj_cursor_new(o.d, &e);
  if (!o.c) abort();
  return o;
}

static void close_doc(open_doc o) {
  jj_cursor_free(o.c);
  jj_doc_free(o.d);
}

/* ------------------------------------------------------------------ */
/* The states                                                          */
/* ------------------------------------------------------------------ */

/* A good document: before, on every row by jj_cursor_next, past the end;
** seek to known rows, rewind, past the end. */
static void walk_and_seek(jj_scan s) {
  size_t len;
  char *doc = make_doc(0, "", HEADER(""), "}", &len);
  open_doc o = open_with(doc, len, s);
  jj_error e;
  refuses_all(o.c, BEFORE, "new cursor");
  for (int k = 1; k <= NROW; k++) {
    CHECK_EQ_INT(jj_cursor_next(o.c, &e), 1);
    reads_row(o.c, k, "jj_cursor_next");
  }
  CHECK_EQ_INT(jj_cursor_next(o.c, &e), 0);
  refuses_all(o.c, PAST, "after the last row");
  CHECK_EQ_INT(jj_cursor_next(o.c, &e), 0);
  refuses_all(o.c, PAST, "next again after the last row");
  CHECK_EQ_INT(jj_cursor_seek(o.c, 3, &e), 1);
  reads_row(o.c, 3, "seek to an indexed row");
  CHECK_EQ_INT(jj_cursor_seek(o.c, 0, &e), 0);
  refuses_all(o.c, BEFORE, "seek to 0");
  CHECK_EQ_INT(jj_cursor_seek(o.c, NROW, &e), 1);
  reads_row(o.c, NROW, "seek to the last row");
  CHECK_EQ_INT(jj_cursor_seek(o.c, NROW + 1, &e), 0);
  refuses_all(o.c, PAST, "seek past the end (count known)");
  CHECK_EQ_INT(jj_cursor_seek(o.c, 2, &e), 1);
  reads_row(o.c, 2, "seek back from the end");
  CHECK_EQ_INT(jj_cursor_next(o.c, &e), 1);
  reads_row(o.c, 3, "next after a seek");
  close_doc(o);

  /* a fresh document: seek forward over rows not yet indexed, then past
  ** the end before the end was ever reached */
  o = open_with(doc, len, s);
  CHECK_EQ_INT(jj_cursor_seek(o.c, 5, &e), 1);
  reads_row(o.c, 5, "seek over unindexed rows");
  CHECK_EQ_INT(jj_cursor_seek(o.c, 50, &e), 0);
  refuses_all(o.c, PAST, "seek past the end (count not known)");
  close_doc(o);
  o = open_with(doc, len, s);
  CHECK_EQ_INT(jj_cursor_seek(o.c, -7, &e), 0);
  refuses_all(o.c, BEFORE, "seek below 1 on a new cursor");
  close_doc(o);
  free(doc);
}

/* jj_cursor_skip: one row, several (the batch check), none, past the end. */
static void skips(jj_scan s) {
  size_t len;
  char *doc = make_doc(0, "", HEADER(""), "}", &len);
  open_doc o = open_with(doc, len, s);
  jj_error e;
  CHECK_EQ_INT(jj_cursor_skip(o.c, 0, &e), 0);
  refuses_all(o.c, BEFORE, "skip 0 before the first row");
  CHECK_EQ_INT(jj_cursor_skip(o.c, 1, &e), 1);
  reads_row(o.c, 1, "skip 1");
  CHECK_EQ_INT(jj_cursor_skip(o.c, 4, &e), 4);
  reads_row(o.c, 5, "skip 4");
  CHECK_EQ_INT(jj_cursor_skip(o.c, 0, &e), 0);
  reads_row(o.c, 5, "skip 0 on a row");
  CHECK_EQ_INT(jj_cursor_skip(o.c, -1, &e), -1);
  CHECK_EQ_INT(e.code, JJ_ERR_USAGE);
  reads_row(o.c, 5, "skip refused");
  CHECK_EQ_INT(jj_cursor_skip(o.c, 100, &e), NROW - 5);
  refuses_all(o.c, PAST, "skip past the end");
  CHECK_EQ_INT(jj_cursor_skip(o.c, 1, &e), 0);
  refuses_all(o.c, PAST, "skip at the end");
  close_doc(o);
  free(doc);
}

/* A row with an error (row `bad`): met by jj_cursor_next (the first row's
** general path, the common step behind ",\n", the general path behind
** other whitespace), by jj_cursor_skip (in its batch check, or one row at
** a time: it stands on the last good row, or fails when none was passed)
** and by seek; a good row reads again after each. */
static void row_errors(jj_scan s, const char *sep) {
  size_t len;
  jj_error e;
  for (int bad = 1; bad <= NROW; bad += 3) { /* 1, 4, 7 */
    char where[64];
    char *doc = make_doc(bad, sep, HEADER(""), "}", &len);
    open_doc o = open_with(doc, len, s);
    for (int k = 1; k < bad; k++) CHECK_EQ_INT(jj_cursor_next(o.c, &e), 1);
    CHECK_EQ_INT(jj_cursor_next(o.c, &e), -1);
    CHECK_EQ_INT(e.code, JJ_ERR_ROW);
    snprintf(where, sizeof where, "next onto bad row %d", bad);
    refuses_all(o.c, FAILED, where);
    CHECK_EQ_INT(jj_cursor_next(o.c, &e), -1); /* the same row fails again */
    refuses_all(o.c, FAILED, where);
    if (bad > 1) {
      CHECK_EQ_INT(jj_cursor_seek(o.c, bad - 1, &e), 1);
      reads_row(o.c, bad - 1, "seek back after a failed move");
    }
    CHECK_EQ_INT(jj_cursor_seek(o.c, bad, &e), -1);
    snprintf(where, sizeof where, "seek onto bad row %d", bad);
    refuses_all(o.c, FAILED, where);
    CHECK_EQ_INT(jj_cursor_seek(o.c, 0, &e), 0);
    refuses_all(o.c, BEFORE, "rewind after a failed move");
    close_doc(o);

    /* skip over the bad row from the start: stands on the last good row
    ** (batch check from row 1 on, or the first row's own error) */
    o = open_with(doc, len, s);
    snprintf(where, sizeof where, "skip over bad row %d", bad);
    if (bad == 1) {
      CHECK_EQ_INT(jj_cursor_skip(o.c, NROW, &e), -1);
      refuses_all(o.c, FAILED, where);
    } else {
      CHECK_EQ_INT(jj_cursor_next(o.c, &e), 1);
      CHECK_EQ_INT(jj_cursor_skip(o.c, NROW, &e), bad - 2);
      reads_row(o.c, bad - 1, where);
      CHECK_EQ_INT(jj_cursor_skip(o.c, 1, &e), -1);
      refuses_all(o.c, FAILED, "skip onto the bad row");
      /* from the row before it, several: the first row checked fails */
      CHECK_EQ_INT(jj_cursor_seek(o.c, bad - 1, &e), 1);
      reads_row(o.c, bad - 1, "seek back after a failed skip");
      CHECK_EQ_INT(jj_cursor_skip(o.c, NROW, &e), -1);
      refuses_all(o.c, FAILED, "skip several, the first bad");
    }
    close_doc(o);
    free(doc);
  }
}

/* Errors at the end of the rows (jj_cursor_next's finish) and between
** rows: the cursor is lost, and a seek back reads again. */
static void end_errors(jj_scan s) {
  static const struct {
    const char *head, *tail, *what;
    jj_code code;
  } cases[] = {
      {HEADER(",\"count\":9"), "}", "a count the rows do not match", JJ_ERR_COUNT},
      {HEADER(""), "}x", "data after the document", JJ_ERR_SYNTAX},
      {HEADER(""), "]", "no '}' after the rows", JJ_ERR_SYNTAX},
  };
  jj_error e;
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    size_t len;
    char *doc = make_doc(0, "", cases[i].head, cases[i].tail, &len);
    open_doc o = open_with(doc, len, s);
    for (int k = 1; k <= NROW; k++) CHECK_EQ_INT(jj_cursor_next(o.c, &e), 1);
    reads_row(o.c, NROW, cases[i].what);
    CHECK_EQ_INT(jj_cursor_next(o.c, &e), -1);
    CHECK_EQ_INT(e.code, cases[i].code);
    refuses_all(o.c, FAILED, cases[i].what);
    CHECK_EQ_INT(jj_cursor_seek(o.c, 4, &e), 1);
    reads_row(o.c, 4, cases[i].what);
    close_doc(o);
    free(doc);
  }
  /* between rows: something other than ',' or ']' after a row, and a row
  ** that is not an array */
  static const char *const between[] = {"x", ",7"};
  for (size_t i = 0; i < 2; i++) {
    jj_buf b = {0};
    const char *head = HEADER("");
    if (jj_buf_append(&b, head, strlen(head))) abort();
    row_text(&b, 1, 0);
    if (jj_buf_append(&b, between[i], strlen(between[i])) ||
        jj_buf_append(&b, "\n]}", 3))
      abort();
    open_doc o = open_with(b.p, b.len, s);
    CHECK_EQ_INT(jj_cursor_next(o.c, &e), 1);
    reads_row(o.c, 1, "before an error between rows");
    CHECK_EQ_INT(jj_cursor_next(o.c, &e), -1);
    refuses_all(o.c, FAILED, between[i]);
    close_doc(o);
    jj_buf_free(&b);
  }
}

/* No cursor: every accessor says so. */
static void no_cursor(void) {
  jj_error e;
  char want[80];
  for (int a = 0; a < NACC; a++) {
    got g = call(NULL, a, 0, &e);
    snprintf(want, sizeof want, "%s: no cursor", acc_names[a]);
    CHECK(g.rc == -1 && e.code == JJ_ERR_USAGE && strcmp(e.message, want) == 0);
  }
  CHECK_EQ_INT(jj_cursor_is_null(NULL, 0), -1);
}

TEST(accessors_in_every_cursor_state_on_every_scanner) {
  for (jj_scan s = JJ_SCAN_SCALAR; s <= JJ_SCAN_AVX2; s++) {
    walk_and_seek(s);
    skips(s);
    row_errors(s, ",\n");
    row_errors(s, ",\r\n");
    end_errors(s);
  }
  no_cursor();
}

int main(void) {
  RUN(accessors_in_every_cursor_state_on_every_scanner);
  return test_summary("cursor_state");
}
