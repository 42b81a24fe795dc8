/*
** doc.h — the structs behind jj_doc and jj_cursor, and what the files that
** read a document share: doc.c (the document itself, and errors that name
** a place in it), reader.c (the header), rowscan.c (a row's values),
** cursor.c (moving between rows), value.c (reading values) and
** validate.c.  Nothing outside core/ sees it.
**
** Offsets: every document, nested or not, knows `base`, the first byte of
** the top-level bytes, so error offsets and the row index are always
** absolute positions in what the caller passed to jj_parse.
**
** Threads: a document's row index (`index`, `nindex`, `total`) is updated by
** whichever cursor discovers a new row, so a document and all its cursors
** are used by one thread at a time.
*/
#ifndef JJ_DOC_H
#define JJ_DOC_H

#include <stddef.h>
#include <stdint.h>

#include "internal.h"
#include "schema.h"

/* A document: the top-level one (own_schema set) or a nested table value
** (path set).  Built only by jj_doc_new (doc.c). */
struct jj_doc {
  const char *base;   /* first byte of the top-level bytes */
  const char *begin;  /* first byte this document reads ('{' or the '[' of
                      ** a nested table value) ... */
  const char *end;    /* ... and one past its last byte */
  const jj_schema *schema; /* own_schema, or the parent's nested schema */
  jj_schema *own_schema;   /* top level only; freed by jj_doc_free */
  const char *rows;   /* first byte after the '[' that opens the rows */
  int64_t count;      /* the header's "count", -1 when absent */
  size_t count_at;    /* offset of the "count" value (for JJ_ERR_COUNT) */
  unsigned max_depth; /* nesting allowed inside one value of a row */
  jj_scan scan;       /* the row scanner (JJ_SCAN_SCALAR, _SSE2 or _AVX2,
                      ** never AUTO): chosen by jj_parse_opts with
                      ** jj_scan_choose, so one document always takes one
                      ** path (tests compare the paths); nested documents
                      ** inherit it */

  /* Row index: offsets (from base) of the '[' of rows 1..nindex, appended by
  ** any cursor that scans a row past the frontier.  total is the number of
  ** rows once a cursor has reached and checked the end, else -1. */
  size_t *index;
  size_t nindex, icap;
  int64_t total;

  /* Nested documents: where they sit, for error messages.  path is
  ** `row 3, column "items", ` (owned, freed by jj_doc_free); outer_row and
  ** outer_column are the top-level row and column holding the value. */
  char *path;
  int64_t outer_row;
  int outer_column;
};

/* Where one value of the current row lies.  n holds the length in its low
** bits, JJ_SPAN_ESC when the value is a string with a backslash, and
** JJ_SPAN_HIGH when a string without a backslash has a byte >= 0x80 (one
** without it is ASCII with no control character, so valid UTF-8 as it
** stands: the text accessor skips the UTF-8 check). */
typedef struct jj_span {
  const char *p;
  size_t n;
} jj_span;
#define JJ_SPAN_ESC (~(SIZE_MAX >> 1))
#define JJ_SPAN_HIGH (JJ_SPAN_ESC >> 1)
#define JJ_SPAN_LEN(s) ((s).n & ~(JJ_SPAN_ESC | JJ_SPAN_HIGH))
/* A span not located: a column jj_cursor_select left out, in a row the
** mask paths read.  Length 0 (no value is empty), both flags set so that
** every inline shortcut declines it without reading a byte past its
** `p` (the document's first byte, doc->begin) — the text shortcuts test
** the flags first, the number shortcuts see a length far too long — and
** the slow paths behind them locate it (jj_cursor_locate). */
#define JJ_SPAN_UNLOCATED (JJ_SPAN_ESC | JJ_SPAN_HIGH)

/* A decoded value kept for the rest of the row (text with escapes, bytes),
** so reading it twice does not decode it twice.  Valid while gen equals the
** cursor's gen. */
typedef struct jj_decoded {
  const char *p;
  size_t len;
  uint64_t gen;
} jj_decoded;

/* A chunk of cursor scratch memory.  Chunks are kept and reused from row to
** row; a chunk is never resized, so pointers into it stay valid until the
** cursor moves. */
typedef struct jj_chunk {
  struct jj_chunk *next;
  size_t cap, used;
  /* cap bytes follow */
} jj_chunk;

/* The byte masks of 64 bytes, bit k for byte k (rowscan.c, rowmask.h). */
typedef struct jj_masks {
  uint64_t quote; /* '"' */
  uint64_t comma; /* ',' */
  uint64_t close; /* ']' */
  uint64_t odd;   /* '\\' or a byte below 0x20: the mask paths give up */
  uint64_t high;  /* bytes >= 0x80 */
  uint64_t bare;  /* the bytes a row of the mask paths may hold outside
                  ** its strings: number bytes ('0'-'9' '+' '-' '.' 'e'
                  ** 'E'), ',' and '"' (so that one test checks them all,
                  ** rowmask.h) */
  uint64_t lead;  /* bytes a value of the mask paths starts with: '"',
                  ** '-' and '0'-'9'.  The AVX2 masks' bare and lead also
                  ** hold the odd bytes (one class byte per byte, rowmask.h):
                  ** the checks refuse those first, so the same rows pass */
  uint64_t str;   /* the prefix xor of quote: from each '"' up to (not
                  ** including) the next, "inside a string" for 64 bytes
                  ** that start outside one (rowmask.h) */
} jj_masks;

enum { JJ_CUR_BEFORE = 0, JJ_CUR_ROW = 1, JJ_CUR_END = 2, JJ_CUR_LOST = 3 };

struct jj_cursor {
  jj_doc *doc;
  size_t ncol;
  const jj_col *cols;  /* the schema's columns */
  jj_span *v;          /* ncol spans of the current row (owned) */
  jj_decoded *dec;     /* ncol decode cache entries, allocated on first use */
  uint64_t gen;        /* bumped whenever the cursor moves */
  int64_t row;         /* last row scanned successfully (0: none) */
  const char *pos;     /* just past that row's ']' (or doc->rows) */
  int state;           /* JJ_CUR_*: LOST after an error in a row; set only
                       ** by jj_cursor_state (with readable) */
  /* ncol while the cursor is on a row (state JJ_CUR_ROW), else 0: the
  ** accessors' one test `col < readable` says both that the cursor is on
  ** a row and that the column exists.  Written only with the state, by
  ** jj_cursor_state below, so the two never disagree. */
  size_t readable;
  jj_chunk *chunks;    /* scratch memory (owned); cur: the last chunk in
                       ** use for this row, NULL when none is yet (the
                       ** chunks after it are emptied as they are reached) */
  jj_chunk *cur;
  int wide;            /* the last row scanned was longer than the two
                       ** 64-byte windows of rowscan.c's mask path: the
                       ** next row is likely to be as well, so skip it */
  jj_buf object;       /* jj_cursor_object's row text (owned), reused for
                       ** every row so a record scan allocates once */
  /* The columns the caller said it reads (jj_cursor_select, select.c):
  ** bit k of want for column k, set when they are a proper subset of
  ** fewer than 64 columns; the mask paths (rowmask.h) then locate only
  ** theirs, and every other span is JJ_SPAN_UNLOCATED.  want 0: every
  ** column (the default). */
  uint64_t want;
  jj_span *all;        /* every span of row all_gen, scanned again for a
                       ** column not selected (owned; NULL until needed) */
  uint64_t all_gen;    /* the gen of the row in `all`; 0: none */
  /* The inline number readers' bounds (num.h), from the document's
  ** readable bytes base..end, worked out once (jj_cursor_new) so that
  ** each read tests one comparison: an integer ending at num_lo16 or
  ** later has 16 readable bytes before its end (base + 16), a float
  ** starting at num_last or before 17 after its start (end - 17).  Not
  ** set without JJ_SWAR: the byte-at-a-time readers take none. */
  const char *num_lo16, *num_last;
#ifndef JJ_SMALL
  /* The last position of jj_cursor_next's common step (cursor.c): end -
  ** 67, so that its test of the 66 bytes it needs after the ',' is one
  ** comparison. */
  const char *step_last;
#endif
  /* The columns' types (jj_type, all letters or '{': one byte each), ncol
  ** of them in the cursor's own allocation (jj_cursor_new), so that an
  ** accessor tests a column's type with one load from the cursor where
  ** cols[col].type takes a pointer load and an index scaled by 32.  Read
  ** through JJ_CURSOR_TYPE; not set in a build for size (JJ_SMALL). */
  unsigned char type[];
};

/* Column col's type as the accessors test it: the cursor's byte; a build
** for size (JJ_SMALL) keeps no bytes and reads the schema's column. */
#ifdef JJ_SMALL
#define JJ_CURSOR_TYPE(c, col) ((c)->cols[col].type)
#else
#define JJ_CURSOR_TYPE(c, col) ((jj_type)(c)->type[col])
#endif

/* Every change of a cursor's state goes through here: readable follows
** it (ncol on a row, 0 otherwise). */
static inline void jj_cursor_state(jj_cursor *c, int state) {
  c->state = state;
  c->readable = state == JJ_CUR_ROW ? c->ncol : 0;
}

/* The one constructor of jj_doc: every field is set here, so a field added
** to the struct gets its value for top-level and nested documents alike
** (doc.c).
**   parent NULL: the top-level document over begin..end.  It owns a new,
**     empty schema for jj_parse to fill (jj_parse also sets `rows`, the
**     header's count and the row scanner); max_depth is the parse's depth limit.
**   parent set: the nested table value begin..end (its '[' at begin) of
**     column `col` of the parent's row `row`.  It borrows the parent's
**     bytes and that column's nested schema, inherits the parent's settings
**     (its depth limit less the two levels the value's rows take, the
**     row scanner) and records its place for messages (path, outer row
**     and column); max_depth is not used.
** NULL when out of memory (*err filled).  The caller frees it with
** jj_doc_free, a nested one before its parent. */
jj_doc *jj_doc_new(const jj_doc *parent, int64_t row, size_t col,
                   const char *begin, const char *end, unsigned max_depth,
                   jj_error *err);

/* Fail at byte `at` of row `row`, column `col` (col >= ncol: no column),
** with the document's path for nested tables (doc.c). */
jj_code jj_cursor_fail(const jj_cursor *c, jj_error *err, jj_code code,
                       int64_t row, size_t col, const char *at, const char *fmt,
                       ...) JJ_PRINTF(7, 8);
/* "expected <what>, found <token>" at p, or the end of the input
** (doc.c). */
jj_code jj_cursor_expected(const jj_cursor *c, jj_error *err, int64_t row,
                           size_t col, const char *p, const char *what);
/* Length of the token at p (p < end) for a message: one delimiter, or up
** to the next delimiter or whitespace, at most 40 bytes (doc.c). */
size_t jj_token_len(const char *p, const char *end);

/* n bytes of cursor scratch memory, valid until the cursor moves, or NULL
** when out of memory (cursor.c; the cursor owns and reuses it). */
char *jj_cursor_scratch(jj_cursor *c, size_t n);

/* Scan row `row` whose '[' is at p into c->v (one span per column) and set
** c->pos past its ']'; JJ_OK or the error (rowscan.c). */
jj_code jj_row_scan(jj_cursor *c, const char *p, int64_t row, jj_error *err);
/* Mark every column the cursor's selection leaves out JJ_SPAN_UNLOCATED
** (select.c; after a path that wrote every span, so that none is left a
** row behind: rowscan.c's slow path; and when a selection is made). */
void jj_row_unlocate(jj_cursor *c);
/* jj_row_scan for a row passed over: the same check, the same errors and
** c->pos, but the spans in c->v may be left as they were (rowscan.c). */
jj_code jj_row_check(jj_cursor *c, const char *p, int64_t row, jj_error *err);
/* The entries the document's index starts with, doubled as rows are found:
** few, so that a small document's index is small (in the WebAssembly
** module every open view holds one: 128 bytes, where 1,024 entries were
** 8 KiB), and the doublings a large one adds cost nothing next to its rows. */
#define JJ_INDEX_FIRST 16

#ifndef JJ_SMALL
/* jj_cursor_next's common step: the cursor on row c->row (state
** JJ_CUR_ROW, its values already expired), the next row's '[' at p behind
** the canonical ",\n[", at least 64 bytes after it.  The row is scanned as
** jj_row_scan would (the same spans, c->pos and errors) and the cursor
** moved onto it as jj_cursor_next does (c->row, the index): 1, or -1 with
** *err and the cursor LOST.  One instance per scanner, each finishing the
** row itself (jj_row_done), so that jj_cursor_next reaches it by a tail
** call and keeps no registers; err comes before p so that jj_cursor_next
** passes its own two arguments on in the registers they came in
** (rowscan.c). */
int jj_row_next(jj_cursor *c, jj_error *err, const char *p);
/* jj_row_done's rare case: the index is full.  Grows it, records the row
** and moves onto it (1), or reports that memory ran out, the cursor LOST
** and its row unchanged (-1; doc.c: the document owns its index). */
int jj_row_index_full(jj_cursor *c, const char *p, jj_error *err);
/* Room in the document's index for `rows` entries (doc.c): 0, or -1 when
** out of memory (nothing reported; the index is as it was). */
int jj_doc_index_room(jj_doc *d, uint64_t rows);
/* The end of jj_row_next once the row at p is scanned: the cursor moves
** onto it, its '[' recorded in the document's index when it is the first
** row past the frontier.  The state stays JJ_CUR_ROW.  1, or -1 as
** jj_row_index_full. */
static inline int jj_row_done(jj_cursor *c, const char *p, jj_error *err) {
  jj_doc *const d = c->doc;
  const uint64_t row = (uint64_t)c->row + 1;
  if (row > d->nindex) {
    if (JJ_UNLIKELY(d->nindex == d->icap)) return jj_row_index_full(c, p, err);
    d->index[d->nindex++] = (size_t)(p - d->base);
  }
  c->row = (int64_t)row;
  return 1;
}
/* Up to n rows after the cursor's row (c->row > 0, state JJ_CUR_ROW, the
** index with room for rows up to c->row + n),
** each behind the canonical ",\n[", checked as jj_row_check does (the
** same errors) in one call: c->row, c->pos and the index advance past each
** row checked, counted in *done.  Stops early at a row not behind ",\n["
** (JJ_OK: the caller's general path takes it), or at a row's error,
** returned with *err (the cursor still on the last good row); rows are
** only ever counted once checked.  The scalar instance checks none
** (rowscan.c; not in a build for size). */
jj_code jj_rows_check(jj_cursor *c, int64_t n, int64_t *done, jj_error *err);
#endif

/* The scanner a document asks for (JJ_SCAN_AUTO: the widest) that this
** build and CPU have: the asked one, else the widest below it
** (rowscan.c). */
jj_scan jj_scan_choose(jj_scan want);

/* Skip JSON whitespace; inline because the common case is "none" (a
** build for size calls jj_json_ws). */
#ifdef JJ_SMALL
#define jj_ws jj_json_ws
#else
static inline const char *jj_ws(const char *p, const char *end) {
  if (p < end && (unsigned char)*p <= ' ') return jj_json_ws(p, end);
  return p;
}
#endif

#endif /* JJ_DOC_H */
