/*
** group_direct.h — jj_group's direct way (group_direct.c), as the files
** above it call it: starting the document after the first row, each
** value of a row written as it arrives (jjx_group_direct_value, inline:
** every value takes it), the end of a row, and the end.  Included by
** group.c, group_value.c and group_direct.c; stands on group_state.h.
*/
#ifndef JJ_EXT_GROUP_DIRECT_H
#define JJ_EXT_GROUP_DIRECT_H

#include <stdint.h>
#include <string.h>

#include "group_state.h"

/* After the first row is checked: start the document when every column's
** type is known (explicit, or the first row's value is not NULL; no nested
** tables), else leave g->w NULL.  0, or -1 out of memory (reported,
** g->failed set). */
int jjx_group_direct_start(sqlite3_context *ctx, group_ctx *g);
/* Value i of the row being added, g->row[i], would change what the
** document is (an INTEGER column's first REAL, an INTEGER a float column
** cannot hold exactly, TEXT that is not UTF-8): move every row written so
** far to the buffer, then values 0..i of this row, and carry on the
** buffered way, which then decides exactly as it always has.  0, or -1
** reported (g->failed set). */
int jjx_group_direct_move(sqlite3_context *ctx, group_ctx *g, int i);
/* A writer error on a checked value: memory (or a bug).  Reported, -1. */
int jjx_group_direct_fail(sqlite3_context *ctx, group_ctx *g, jj_code code);
/* End the row in the document; when the document has grown past
** g->limit, move it to the buffer (the buffered way decides which error
** that is).  0, or -1 reported. */
int jjx_group_direct_end_row(sqlite3_context *ctx, group_ctx *g);
/* The direct document, finished and handed to SQLite; or, when the column
** types are not what it was started with (they always are), moved to the
** buffer: then 1 is returned for xFinal to write the buffer.  0 when
** done (result or error set). */
int jjx_group_direct_finish(sqlite3_context *ctx, group_ctx *g);
/* 1 when p[0..n) is valid UTF-8: ASCII checked inline a word at a time
** (overlapping words, reads inside p[0..n)), the rest by the core's own
** check (jj_utf8_check), so it decides exactly as the writer does. */
static inline int jjx_group_text_ok(const unsigned char *p, size_t n) {
  const uint64_t highs = UINT64_C(0x8080808080808080);
  uint64_t x, bad = 0;
  if (n >= 8) {
    for (size_t i = 0; i + 8 < n; i += 8) {
      memcpy(&x, p + i, 8);
      bad |= x;
    }
    memcpy(&x, p + n - 8, 8);
    bad |= x;
  } else if (n >= 4) {
    uint32_t a, b;
    memcpy(&a, p, 4);
    memcpy(&b, p + n - 4, 4);
    bad = a | b;
  } else {
    for (size_t i = 0; i < n; i++) bad |= p[i];
  }
  return !(bad & highs) || jj_utf8_check((const char *)p, n, NULL);
}

/* The direct way's value path, inline since every value takes it: value
** i of the row (checked) written as group_write.c's write_value writes its
** buffered form, or, when it would change the document, the move to the
** buffer.  0, or -1 reported. */
static JJX_INLINE int jjx_group_direct_value(sqlite3_context *ctx, group_ctx *g,
                                         int i) {
  const group_val *v = &g->row[i];
  jj_type t = g->cols[i].direct;
  jj_writer *w = g->w;
  jj_code code;
  switch (v->st) {
    case SQLITE_INTEGER:
      if (t == JJ_INT) {
        code = jj_writer_int(w, v->u.i);
      } else if (t == JJ_BOOL) {
        code = jj_writer_bool(w, v->u.i != 0);
      } else { /* a float column: only when exact */
        double d = (double)v->u.i;
        if (!(d >= -9223372036854775808.0 && d < 9223372036854775808.0 &&
              (sqlite3_int64)d == v->u.i))
          return jjx_group_direct_move(ctx, g, i);
        code = jj_writer_double(w, d);
      }
      break;
    case SQLITE_FLOAT:
      if (t != JJ_FLOAT) return jjx_group_direct_move(ctx, g, i);
      code = jj_writer_double(w, v->u.d);
      break;
    case SQLITE_TEXT:
      if (t == JJ_DATE) {
        code = jj_writer_date(w, v->u.p, v->n);
      } else if (t == JJ_TIMESTAMP) {
        code = jj_writer_timestamp(w, v->u.p, v->n);
      } else {
        if (!jjx_group_text_ok(v->u.p, v->n))
          return jjx_group_direct_move(ctx, g, i);
        code = jj_writer_text(w, v->u.p, v->n);
      }
      break;
    case SQLITE_BLOB:
      code = jj_writer_bytes(w, v->u.p, v->n);
      break;
    default:
      code = jj_writer_null(w);
  }
  return code == JJ_OK ? 0 : jjx_group_direct_fail(ctx, g, code);
}

#endif /* JJ_EXT_GROUP_DIRECT_H */
