/*
** cursor.c — walking the rows of a document.
**
** Moving onto a row scans its structure only: for every value it records
** where the value starts and ends (strings are scanned for their closing
** quote, numbers for their run of number bytes, literals compared, arrays
** and objects skipped), without converting anything and without allocating.
** An accessor (value.c) converts and checks one value when it is asked
** for, so a column that is never read costs one scan of its bytes.
**
** Finding a row's values is rowscan.c's job (jj_row_scan).
**
** Memory: a cursor owns its span array (one entry per column, allocated in
** jj_cursor_new) and a chain of scratch chunks for decoded text and bytes;
** the chunks are reused from row to row and never resized, so everything
** handed out for a row stays put until the cursor moves.  jj_cursor_free
** releases it all.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doc.h"

#define JJ_CHUNK_MIN 4096

struct jj_chunk_data {
  jj_chunk head;
  char data[];
};

/* ------------------------------------------------------------------ */
/* Creating, scratch memory                                            */
/* ------------------------------------------------------------------ */

/* doc->base + n and doc->end - n, or the other end of the document when
** it is shorter than n bytes (jj_cursor_new's bounds; a build without
** them, the small WebAssembly reader's, has neither). */
#if JJ_SWAR
static inline const char *base_plus(const jj_doc *d, size_t n) {
  const size_t bytes = (size_t)(d->end - d->base);
  return d->base + (bytes < n ? bytes : n);
}
#endif
#if JJ_SWAR || !defined(JJ_SMALL)
static inline const char *end_less(const jj_doc *d, size_t n) {
  const size_t bytes = (size_t)(d->end - d->base);
  return d->end - (bytes < n ? bytes : n);
}
#endif

/* The caller frees the cursor with jj_cursor_free (before the doc). */
jj_cursor *jj_cursor_new(jj_doc *doc, jj_error *err) {
  jj_error_clear(err);
  if (!doc) {
    JJ_USAGE(jj_fail(err, JJ_ERR_USAGE, NULL, "jj_cursor_new needs a document"));
    return NULL;
  }
  const size_t n = doc->schema->n;
  /* the struct and its n type bytes (doc.h) in one block; a schema's
  ** columns fit in memory already, so n bytes more cannot overflow */
  jj_cursor *c = calloc(1, sizeof *c + n);
  if (c) c->v = calloc(n, sizeof *c->v);
  if (!c || !c->v) {
    free(c);
    jj_fail(err, JJ_ERR_NOMEM, NULL, "out of memory");
    return NULL;
  }
  c->doc = doc;
  c->ncol = n;
  c->cols = doc->schema->cols;
#ifndef JJ_SMALL /* a build for size reads the schema's (JJ_CURSOR_TYPE) */
  for (size_t i = 0; i < n; i++) c->type[i] = (unsigned char)c->cols[i].type;
#endif
  /* the bounds of doc.h, worked out once.  A document is longer than 17
  ** bytes (its header starts {"jalapenojson":1), and a nested one ends
  ** past its parent's header; one shorter than a bound needs gets the
  ** bound that refuses every value (none starts at base or ends at end) */
#if JJ_SWAR /* the byte-at-a-time number readers take none */
  c->num_lo16 = base_plus(doc, 16);
  c->num_last = end_less(doc, 17);
#endif
#ifndef JJ_SMALL /* a build for size has no common step */
  c->step_last = end_less(doc, 67);
#endif
  c->pos = doc->rows;
  jj_cursor_state(c, JJ_CUR_BEFORE);
  return c;
}

/* Frees the spans, decode cache and scratch chunks.  NULL is a no-op. */
void jj_cursor_free(jj_cursor *c) {
  if (!c) return;
  for (jj_chunk *k = c->chunks, *next; k; k = next) {
    next = k->next;
    free(k);
  }
  free(c->dec);
  free(c->v);
#if JJ_SELECT
  free(c->all);
#endif
  jj_buf_free(&c->object);
  free(c);
}

/* The cursor leaves its row: values handed out for it expire.  The
** scratch chunks are emptied as jj_cursor_scratch comes to them (cur NULL:
** none is in use), not here: moving costs two stores whatever the chunks. */
static JJ_INLINE void moved(jj_cursor *c) {
  c->gen++;
  c->cur = NULL;
}

/* See doc.h.  The chunks up to cur are this row's; those after it (all of
** them when cur is NULL) hold an earlier row's bytes and are emptied when
** first reached.  A new chunk is appended at the end of the chain (freed
** by jj_cursor_free). */
char *jj_cursor_scratch(jj_cursor *c, size_t n) {
  jj_chunk *k = c->cur, *last = NULL;
  if (!k && (k = c->chunks) != NULL) k->used = 0;
  while (k && k->cap - k->used < n) {
    last = k;
    if ((k = k->next) != NULL) k->used = 0;
  }
  if (!k) {
    size_t cap = JJ_CHUNK_MIN;
    while (last && last->next) last = last->next;
    if (last && last->cap <= SIZE_MAX / 4) cap = last->cap * 2;
    if (cap < n) cap = n;
    if (cap > SIZE_MAX - sizeof(struct jj_chunk_data)) return NULL;
    struct jj_chunk_data *m = malloc(sizeof *m + cap);
    if (!m) return NULL;
    k = &m->head;
    k->next = NULL;
    k->cap = cap;
    k->used = 0;
    if (last) last->next = k;
    else c->chunks = k;
  }
  c->cur = k;
  char *r = ((struct jj_chunk_data *)(void *)k)->data + k->used;
  k->used += n;
  return r;
}

/* ------------------------------------------------------------------ */
/* Rows                                                                */
/* ------------------------------------------------------------------ */

/* The cursor is at the ']' closing the rows: check what follows and the
** header's count, then stand at the end.  Returns 0, or -1 with *err. */
static int finish(jj_cursor *c, const char *p, jj_error *err) {
  jj_doc *d = c->doc;
  const char *end = d->end;
  p++;
  if (d->own_schema) { /* the top level ends with '}' and whitespace */
    p = jj_ws(p, end);
    if (p >= end || *p != '}') {
      jj_cursor_state(c, JJ_CUR_LOST);
      return jj_cursor_expected(c, err, 0, c->ncol, p, "'}' after the rows"), -1;
    }
    p = jj_ws(p + 1, end);
  }
  if (p != end) {
    jj_cursor_state(c, JJ_CUR_LOST);
    return jj_cursor_fail(c, err, JJ_ERR_SYNTAX, 0, c->ncol, p,
                  "unexpected data after the document"), -1;
  }
  if (d->count >= 0 && d->count != c->row) {
    jj_where w = {0, -1, NULL, d->count_at, NULL, 0, -1};
    jj_cursor_state(c, JJ_CUR_LOST);
    return jj_fail(err, JJ_ERR_COUNT, &w,
                   "the header says \"count\":%lld but there %s %lld row%s",
                   (long long)d->count, c->row == 1 ? "is" : "are",
                   (long long)c->row, c->row == 1 ? "" : "s"), -1;
  }
  d->total = c->row;
  jj_cursor_state(c, JJ_CUR_END);
  return 0;
}


/* Record the '[' of the cursor's new row in the document's index when it
** is the first row past the frontier (inline: once per row on a first
** pass). */
static inline int index_row(jj_cursor *c, const char *open, jj_error *err) {
  jj_doc *d = c->doc;
  if ((uint64_t)c->row <= d->nindex) return 0;
  if (JJ_UNLIKELY(d->nindex == d->icap)) {
    size_t cap = d->icap ? d->icap * 2 : JJ_INDEX_FIRST;
    size_t *ix = cap <= SIZE_MAX / sizeof *ix ? realloc(d->index, cap * sizeof *ix) : NULL;
    if (!ix) return jj_fail(err, JJ_ERR_NOMEM, NULL, "out of memory"), -1;
    d->index = ix;
    d->icap = cap;
  }
  d->index[d->nindex++] = (size_t)(open - d->base);
  return 0;
}

/* The cursor's errors between rows, out of line so that jj_cursor_next's
** common path keeps no message buffers: p is not where a ',' or ']' ends
** the last row (after_row) or not a row's '['.  Returns -1 with *err. */
static JJ_NOINLINE int between_rows_error(jj_cursor *c, const char *p, int after_row,
                                          jj_error *err) {
  const char *const end = c->doc->end;
  jj_cursor_state(c, JJ_CUR_LOST);
  if (after_row) {
    char s[64];
    snprintf(s, sizeof s, "',' or ']' after row %lld", (long long)c->row);
    return jj_cursor_expected(c, err, 0, c->ncol, p, s), -1;
  }
  if (p < end && *p && strchr("\"{-0123456789tfn", *p)) {
    char s[JJ_SHOW_CAP];
    const char *bad = p, *why = "";
    jj_code code = JJ_ERR_SYNTAX;
    const char *q = jj_json_skip(p, end, c->doc->max_depth, &bad, &code, &why);
    return jj_cursor_fail(c, err, JJ_ERR_ROW, c->row + 1, c->ncol, p,
                  "a row must be an array, found %s",
                  jj_show_value(s, p, q ? (size_t)(q - p) : jj_token_len(p, end))), -1;
  }
  return jj_cursor_expected(c, err, c->row + 1, c->ncol, p, "a row"), -1;
}

/* jj_cursor_next's body; check_only: jj_row_check instead of jj_row_scan
** (a constant in each caller: the row passed over keeps no spans). */
static JJ_INLINE int next_row(jj_cursor *c, const int check_only, jj_error *err) {
  const char *p = c->pos, *const end = c->doc->end;
  if (c->state == JJ_CUR_END) return 0;
  if (!check_only) moved(c); /* jj_cursor_skip moves once for the rows it passes */
#ifndef JJ_SMALL /* a build for size takes the general path */
  if (JJ_LIKELY(c->row > 0 && end - p > 2 && memcmp(p, ",\n[", 3) == 0)) {
    p += 2; /* the canonical ",\n[" between rows: one test for the three bytes */
  } else
#endif
  {
    if (c->row > 0) {
      if (JJ_UNLIKELY(p >= end || *p != ',')) {
        p = jj_ws(p, end);
        if (p < end && *p == ']') return finish(c, p, err);
        if (p >= end || *p != ',') return between_rows_error(c, p, 1, err);
      }
      p = jj_ws(p + 1, end);
    } else {
      p = jj_ws(p, end);
      if (p < end && *p == ']') return finish(c, p, err);
    }
    if (JJ_UNLIKELY(p >= end || *p != '[')) return between_rows_error(c, p, 0, err);
  }
  if ((check_only ? jj_row_check(c, p, c->row + 1, err)
                  : jj_row_scan(c, p, c->row + 1, err)) != JJ_OK) {
    jj_cursor_state(c, JJ_CUR_LOST);
    return -1;
  }
  c->row++;
  jj_cursor_state(c, JJ_CUR_ROW);
  if (index_row(c, p, err)) {
    jj_cursor_state(c, JJ_CUR_LOST);
    c->row--;
    return -1;
  }
  return 1;
}

#ifndef JJ_SMALL
/* jj_cursor_next's usage error, out of line so that its common path does
** not keep err aside for it. */
static JJ_NOINLINE int no_cursor(jj_error *err) {
  return JJ_USAGE(jj_fail(err, JJ_ERR_USAGE, NULL, "no cursor")), -1;
}

/* jj_cursor_next's general step, out of line so that jj_cursor_next
** itself saves no registers. */
static JJ_NOINLINE int next_row_any(jj_cursor *c, jj_error *err) {
  return next_row(c, 0, err);
}
#endif

/* Step from the current row (or the start) to the next one.  The common
** step (on a row, the canonical ",\n[" next, 64 bytes after its '[') is
** a tail call to the scanner's instance of jj_row_next, which also moves
** the cursor onto the row: no registers saved here, no dispatch on the
** scan's result.  callgrind, C price over 50,000 high-entropy rows: 25.33
** -> 23.63 M instructions (the step was 61 here, 7 of dispatch and 7 of
** checks in the instance; now 17 here, 8 in jj_row_next and 14 to finish
** the row in the instance); 0.92x the time (interleaved runs).  The
** room after p tested against step_last (doc.h): 3 instructions less. */
JJ_HOT int jj_cursor_next(jj_cursor *c, jj_error *err) {
#ifndef JJ_SMALL
  if (JJ_UNLIKELY(!c)) return no_cursor(err);
  const char *const p = c->pos;
  if (JJ_LIKELY(c->state == JJ_CUR_ROW && p <= c->step_last && /* end - p > 66 */
                memcmp(p, ",\n[", 3) == 0)) {
    moved(c);
    return jj_row_next(c, err, p + 2);
  }
  return next_row_any(c, err);
#else
  if (!c) return JJ_USAGE(jj_fail(err, JJ_ERR_USAGE, NULL, "no cursor")), -1;
  return next_row(c, 0, err);
#endif
}

/* Rows passed over are only checked (next_row with check_only); the row
** the cursor stops on is scanned again in full, which is cheaper than
** scanning every row in full when more than one is passed.  When a row
** fails after some were passed, the last good one is scanned in full
** again (its '[' is in the index, which every row passed was added to) so
** the cursor stands on it, and the next call meets the error again.
** The rows passed over behind the canonical ",\n[" are checked by
** jj_rows_check, several in one call (no call, state or index capacity
** test per row); the others (the first row, one after other whitespace) by
** next_row.  SQLite count(*) over 50,000 rows: callgrind 20.75 -> 19.50
** M instructions (high-entropy), 16.50 -> 14.90 M (repetitive); best
** time 4-5% less (high-entropy), 11% (repetitive): see rowscan.c's
** check_rows_with for why time and instructions differ. */
int64_t jj_cursor_skip(jj_cursor *c, int64_t n, jj_error *err) {
  if (!c) return JJ_USAGE(jj_fail(err, JJ_ERR_USAGE, NULL, "no cursor")), -1;
  if (n < 0)
    return jj_fail(err, JJ_ERR_USAGE, NULL, "jj_cursor_skip: n is %lld, below 0",
                   (long long)n), -1;
  if (n > 1 && c->state != JJ_CUR_END)
    moved(c); /* once for the rows passed over (next_row check_only does not) */
  int64_t moved = 0;
#ifndef JJ_SMALL
  int batch = 1; /* jj_rows_check is tried again only after it made progress */
#endif
  for (; moved < n; moved++) {
    int rc;
#ifndef JJ_SMALL
    /* the rows passed over behind ",\n[" in one call (doc.h), which
    ** indexes them as next_row does; at most 4096 a call, so that the
    ** index grows for no more rows than that past the cursor, whatever n */
    const int64_t want = n - 1 - moved < 4096 ? n - 1 - moved : 4096;
    if (batch && want > 0 && c->state == JJ_CUR_ROW && c->row > 0 &&
        !jj_doc_index_room(c->doc, (uint64_t)c->row + (uint64_t)want)) {
      int64_t done = 0;
      const jj_code code = jj_rows_check(c, want, &done, err);
      moved += done;
      batch = done > 0;
      if (code != JJ_OK) {
        jj_cursor_state(c, JJ_CUR_LOST); /* as next_row after its jj_row_check fails */
        rc = -1;
        goto failed;
      }
    }
#endif
    rc = moved + 1 < n ? next_row(c, 1, err) : jj_cursor_next(c, err);
    if (rc == 1) continue;
#ifndef JJ_SMALL
  failed:
#endif
    if (rc == 0 || moved == 0) return rc == 0 ? moved : -1;
    /* the error is for the next call: stand on the last good row */
    jj_doc *d = c->doc;
    if (jj_row_scan(c, d->base + d->index[c->row - 1], c->row, err) != JJ_OK) return -1;
    jj_cursor_state(c, JJ_CUR_ROW);
    jj_error_clear(err);
    return moved;
  }
  return moved;
}

/* Go to row `row`: straight there when the index knows it, else from the
** last known row forward, one row's structure at a time.  row < 1 rewinds
** to before the first row (and returns 0, there is no row 0). */
int jj_cursor_seek(jj_cursor *c, int64_t row, jj_error *err) {
  if (!c) return JJ_USAGE(jj_fail(err, JJ_ERR_USAGE, NULL, "no cursor")), -1;
  jj_doc *d = c->doc;
  if (row < 1 || (d->total >= 0 && row > d->total)) {
    moved(c);
    c->row = row < 1 ? 0 : d->total;
    c->pos = d->rows;
    jj_cursor_state(c, row < 1 ? JJ_CUR_BEFORE : JJ_CUR_END);
    return 0;
  }
  if ((uint64_t)row <= d->nindex) {
    moved(c);
    if (jj_row_scan(c, d->base + d->index[row - 1], row, err) != JJ_OK) {
      c->row = 0; /* cannot happen: the row was scanned before */
      c->pos = d->rows;
      jj_cursor_state(c, JJ_CUR_LOST);
      return -1;
    }
    c->row = row;
    jj_cursor_state(c, JJ_CUR_ROW);
    return 1;
  }
  if (d->nindex > 0 && (uint64_t)c->row < d->nindex &&
      jj_cursor_seek(c, (int64_t)d->nindex, err) < 0)
    return -1;
#ifndef JJ_SMALL
  while (c->row < row || c->state != JJ_CUR_ROW) { /* the rows between: checked only */
    int64_t k = jj_cursor_skip(c, c->row < row ? row - c->row : 1, err);
    if (k <= 0) return (int)k;
  }
#else /* a build for size, whose jj_row_check scans in full: one row at a time */
  while (c->row < row || c->state != JJ_CUR_ROW) {
    int rc = jj_cursor_next(c, err);
    if (rc <= 0) return rc;
  }
#endif
  return 1;
}

/* Where the cursor is, and what it reads. */
int64_t jj_cursor_row(const jj_cursor *c) { return c ? c->row : 0; }

jj_doc *jj_cursor_doc(const jj_cursor *c) { return c ? c->doc : NULL; }
