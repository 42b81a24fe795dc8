/*
** group_write.c — the bottom of jj_group: its buffer, in and out, and the
** document's memory.  Values go into the buffer as they arrive
** (jjx_group_buffer: group_value.c's rows, and group_direct.c's when the
** direct way moves its rows there), in the format group_state.h
** describes; at the end group.c's xFinal has them written row by row to
** the document (jjx_group_write_rows) with the column types it chose (an
** INTEGER in a float column only when exact, a nested document's rows
** copied as a nested table), stopping at SQLite's length limit, whose
** message every file of jj_group gives (jjx_group_too_long).  The writers
** of both ways build the document in SQLite's memory (jjx_group_memory).
** Calls only the core and util.c.
*/
#include <string.h>

#include "group_state.h"

/* ---------------------------------------------------------------------- */
/* The buffer, in                                                         */
/* ---------------------------------------------------------------------- */

/* memcpy(d, p, n) without a library call for the short values that are
** the common case: overlapping word copies (reads stay inside p[0..n)).
** Measured against libc's memcpy with bench/sqlite_bench export jj, 50,000
** rows, best of 8-12 interleaved runs: 21.60 / 20.96 ms (entropy /
** repetitive) against 22.52 / 21.79 ms, 4% of the whole aggregate. */
static inline void copy_bytes(unsigned char *d, const void *src, size_t n) {
  const unsigned char *p = src;
  if (n > 16) {
    memcpy(d, p, n);
  } else if (n >= 8) {
    uint64_t a, b;
    memcpy(&a, p, 8);
    memcpy(&b, p + n - 8, 8);
    memcpy(d, &a, 8);
    memcpy(d + n - 8, &b, 8);
  } else if (n >= 4) {
    uint32_t a, b;
    memcpy(&a, p, 4);
    memcpy(&b, p + n - 4, 4);
    memcpy(d, &a, 4);
    memcpy(d + n - 4, &b, 4);
  } else {
    for (size_t i = 0; i < n; i++) d[i] = p[i];
  }
}

/* Append a TEXT or BLOB value p[0..n) with its tag and 4-byte length.  0,
** or -1 when out of memory. */
static inline int buffer_bytes(jjx_buf *b, unsigned char tag, const void *p,
                               size_t n) {
  uint32_t n32 = (uint32_t)n; /* n is below SQLite's length limit */
  if (jjx_group_reserve(b, 5 + n)) return -1;
  unsigned char *d = (unsigned char *)b->p + b->len;
  d[0] = tag;
  memcpy(d + 1, &n32, 4);
  copy_bytes(d + 5, p, n);
  b->len += 5 + n;
  return 0;
}

/* See group_state.h: its tag, then 8 bytes for INTEGER and REAL or a 4-byte
** length and the bytes for TEXT and BLOB.  One room check and direct
** stores, no call per field. */
int jjx_group_buffer(jjx_buf *b, const group_val *v) {
  unsigned char *d;
  switch (v->st) {
    case SQLITE_INTEGER:
    case SQLITE_FLOAT:
      if (jjx_group_reserve(b, 9)) return -1;
      d = (unsigned char *)b->p + b->len;
      d[0] = v->st == SQLITE_INTEGER ? TAG_INT : TAG_REAL;
      memcpy(d + 1, &v->u, 8); /* the int64 or the double */
      b->len += 9;
      return 0;
    case SQLITE_TEXT:
    case SQLITE_BLOB:
      return buffer_bytes(b, v->st == SQLITE_TEXT ? TAG_TEXT : TAG_BLOB,
                          v->u.p, v->n);
    default:
      if (jjx_group_reserve(b, 1)) return -1;
      b->p[b->len++] = TAG_NULL;
      return 0;
  }
}

/* ---------------------------------------------------------------------- */
/* The document's memory and length                                       */
/* ---------------------------------------------------------------------- */

/* SQLite's allocator for the writers' buffers (group_state.h): the
** document is built where sqlite3_result_text64 takes it without a copy,
** to free it with sqlite3_free. */
static void *sqlite_realloc(void *ctx, void *p, size_t n) {
  (void)ctx;
  return sqlite3_realloc64(p, n);
}

static void sqlite_free(void *ctx, void *p) {
  (void)ctx;
  sqlite3_free(p);
}

const jj_allocator jjx_group_memory = {sqlite_realloc, sqlite_free, NULL};

void jjx_group_too_long(sqlite3_context *ctx, group_ctx *g) {
  jjx_ctx_err(ctx, "jj_group: the document would be more than %lld bytes, "
                   "SQLite's length limit (SQLITE_LIMIT_LENGTH)",
              (long long)g->limit);
  g->failed = 1;
}

/* ---------------------------------------------------------------------- */
/* The buffer, out: the document at the end                               */
/* ---------------------------------------------------------------------- */

/* Copy a nested document's rows into the writer as one nested value.  The
** document was validated in xStep, so only memory can fail here. */
static jj_code write_nested(jj_writer *w, const char *p, size_t len,
                            jj_error *err) {
  jj_doc *doc = jj_parse(p, len, err);
  jj_cursor *cur = NULL;
  jj_code code = JJ_ERR_NOMEM;
  if (!doc) return err->code;
  cur = jj_cursor_new(doc, err);
  if (!cur) goto done;
  if ((code = jj_writer_begin_table(w)) != JJ_OK) goto done;
  if ((code = jj_writer_copy_rows(w, cur)) != JJ_OK) goto done;
  code = jj_writer_end_table(w);
done:
  jj_cursor_free(cur);
  jj_doc_free(doc);
  return code;
}

/* Write one buffered value; *pp advances past it.  row is for messages.
** Every value's path at the end: gcc stopped inlining it into its one
** caller when it moved out of group.c (7.7 million more instructions,
** 3.5%, for the export of 50,000 rows under callgrind, and the same in
** time), so it is forced. */
static JJX_INLINE jj_code write_value(sqlite3_context *ctx,
                                         jj_writer *w, const group_col *c,
                                         jj_type type,
                                         const unsigned char **pp,
                                         int64_t row) {
  const unsigned char *p = *pp;
  unsigned char tag = *p++;
  sqlite3_int64 i;
  double d;
  uint32_t n;
  jj_error err;
  jj_code code;
  switch (tag) {
    case TAG_INT:
      memcpy(&i, p, 8);
      *pp = p + 8;
      switch (type) { /* no default: -Wswitch names a type added */
        case JJ_INT:
          return jj_writer_int(w, i);
        case JJ_BOOL:
          return jj_writer_bool(w, i != 0);
        case JJ_FLOAT:
          break; /* below */
        case JJ_TEXT:
        case JJ_DATE:
        case JJ_TIMESTAMP:
        case JJ_BYTES:
        case JJ_TABLE: /* xStep let no INTEGER in (the writer would not) */
          return jj_writer_int(w, i);
      }
      /* an INTEGER in a float column, written only if exact */
      d = (double)i;
      if (!(d >= -9223372036854775808.0 && d < 9223372036854775808.0 &&
            (sqlite3_int64)d == i)) {
        jjx_ctx_err(ctx, "jj_group: row %lld, column \"%.*s\": %lld cannot be "
                         "written as a float exactly (the column is %s)",
                    (long long)row, (int)c->name_len, c->arg, i,
                    jj_type_short(type));
        return JJ_ERR_RANGE;
      }
      return jj_writer_double(w, d);
    case TAG_REAL:
      memcpy(&d, p, 8);
      *pp = p + 8;
      return jj_writer_double(w, d);
    case TAG_TEXT:
    case TAG_BLOB:
      memcpy(&n, p, 4);
      p += 4;
      *pp = p + n;
      switch (type) { /* no default: -Wswitch names a type added */
        case JJ_DATE: return jj_writer_date(w, (const char *)p, n);
        case JJ_TIMESTAMP: return jj_writer_timestamp(w, (const char *)p, n);
        case JJ_BYTES: return jj_writer_bytes(w, p, n);
        case JJ_TABLE:
          code = write_nested(w, (const char *)p, n, &err);
          if (code != JJ_OK && code != JJ_ERR_NOMEM &&
              jj_writer_error(w)->code == JJ_OK)
            jjx_ctx_err(ctx, "jj_group: row %lld, column \"%.*s\": %s",
                        (long long)row, (int)c->name_len, c->arg, err.message);
          return code;
        case JJ_TEXT:
        case JJ_INT:
        case JJ_FLOAT:
        case JJ_BOOL: /* xStep let no TEXT or BLOB in (the writer would not) */
          return jj_writer_text(w, (const char *)p, n);
      }
      return JJ_ERR_USAGE; /* no other type */
    default:
      *pp = p;
      return jj_writer_null(w);
  }
}

jj_code jjx_group_write_rows(sqlite3_context *ctx, group_ctx *g,
                             jj_writer *w) {
  const unsigned char *p = (const unsigned char *)g->values.p;
  jj_code code = JJ_OK;
  for (int64_t row = 1; row <= g->rows && code == JJ_OK; row++) {
    for (int i = 0; i < g->ncol && code == JJ_OK; i++)
      code = write_value(ctx, w, &g->cols[i], g->cols[i].written, &p, row);
    if (code == JJ_OK) code = jj_writer_end_row(w);
    /* stop at SQLite's limit after the row that passed it, not after
    ** building the rest */
    if (code == JJ_OK && jj_writer_length(w) > g->limit) {
      jjx_group_too_long(ctx, g);
      return JJ_ERR_LIMIT;
    }
  }
  return code;
}
