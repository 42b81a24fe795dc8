/*
** select.c — column selection: the caller says which columns it reads
** (jj_cursor_select), and the row scan's mask paths locate only those
** (rowpick.h's spans_pick) instead of every value of the row.
**
** Why: on the common row the structure check is done on whole masks at
** once, and what is left per value is writing its span; reading one
** column of seven then paid for seven spans (about 60 instructions a
** row).  A column not selected is not silently stale: its span is
** JJ_SPAN_UNLOCATED (doc.h), which every inline shortcut of value.c
** declines and every slow path there resolves with jj_cursor_locate: the
** row scanned again, every span written into c->all, once a row.  Paths
** that write every span anyway (rowscan.c's slow path, the byte-wise and
** scalar scans) leave real spans behind, so the slow path marks the
** columns not selected again (rowscan.c's jj_row_unlocate) before the
** next row can take the mask path and leave them a row behind.
*/
#include <stdlib.h>

#include "select.h"

/* See jalapenojson.h. */
jj_code jj_cursor_select(jj_cursor *c, const size_t *cols, size_t n, jj_error *err) {
  jj_error_clear(err);
  if (!c) return JJ_USAGE(jj_fail(err, JJ_ERR_USAGE, NULL, "jj_cursor_select: no cursor"));
  if (n > 0 && !cols)
    return JJ_USAGE(jj_fail(err, JJ_ERR_USAGE, NULL,
                            "jj_cursor_select: no column list for %zu columns", n));
  for (size_t i = 0; i < n; i++)
    if (cols[i] >= c->ncol)
      return JJ_USAGE(jj_fail(err, JJ_ERR_USAGE, NULL,
                              "jj_cursor_select: column index %zu is out of range "
                              "(%zu columns)", cols[i], c->ncol));
#if JJ_SELECT /* else every value is located */
  /* none named, or more columns than the mask paths' rows can hold (a
  ** row of 128 bytes has at most 64 values), or every column: the
  ** default.  Spans left unlocated are located when read. */
  uint64_t want = 0;
  if (c->ncol < 64)
    for (size_t i = 0; i < n; i++) want |= UINT64_C(1) << cols[i];
  if (n == 0 || c->ncol >= 64 || want == (UINT64_C(1) << c->ncol) - 1) {
    c->want = 0;
    return JJ_OK;
  }
  c->want = want;
  jj_row_unlocate(c); /* the current row's others too: no span a row behind */
#endif
  return JJ_OK;
}

/* See select.h.  The row's '[' is in the document's index (every row a
** cursor stands on is: cursor.c, rowscan.c's jj_rows_check).  The scan
** cannot fail on a row that passed it before; if it did, its error is
** returned as any read's. */
const jj_span *jj_cursor_locate(jj_cursor *c, size_t col, jj_error *err) {
  if (c->all_gen != c->gen) {
    if (!c->all && !(c->all = calloc(c->ncol, sizeof *c->all))) {
      jj_fail(err, JJ_ERR_NOMEM, NULL, "out of memory");
      return NULL;
    }
    const jj_doc *d = c->doc;
    jj_span *const v = c->v;
    const char *const pos = c->pos;
    const int wide = c->wide;
    const uint64_t want = c->want;
    c->v = c->all;
    c->want = 0; /* every span, and no unlocating after the slow path */
    jj_code rc = jj_row_scan(c, d->base + d->index[c->row - 1], c->row, err);
    c->v = v;
    c->pos = pos;
    c->wide = wide;
    c->want = want;
    if (rc != JJ_OK) return NULL;
    c->all_gen = c->gen;
  }
  return &c->all[col];
}
