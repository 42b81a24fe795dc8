/*
** build_finish.c — where the rows go as they end, and the document at the
** end: jj_builder_start, jj_builder_finish, jj_builder_take.
**
** A top-level row that ends is written at once when the types are known
** (build_straight, build_write.c), written ahead with the first row's types
** when the columns are fixed (build_ahead.c), or kept on the tape; at the
** end the types are decided and what was kept is written.
*/
#include <string.h>

#include "build.h"

jj_code build_row_end(jj_builder *b) {
  if ((b->straight || b->ahead) && b->next_col == b->x.top.n &&
      b->tape.len == b->row_at + 4) {
    /* every value of the row went to the writer as it came (build_at.c,
    ** build_direct): only the row's end is left to write */
    b->tape.len = b->row_at;
    b->next_col = 0;
    if (jj_writer_end_row(b->w)) return build_writer_failed(b);
    if (b->o.max_length && jj_writer_length(b->w) > b->o.max_length)
      return build_too_long(b);
    return JJ_OK;
  }
  jj_code code = build_straight(b);
  if (code || b->straight) return code;
  return build_ahead_row(b);
}

jj_code jj_builder_start(jj_builder *b, jj_sink sink, void *ctx) {
  if (!b) return JJ_ERR_USAGE;
  if (b->failed) return b->failed;
  if (b->started || b->rows || b->in_row || b->depth)
    return build_fail(b, JJ_ERR_USAGE,
                      "jj_builder_start comes once, before the first row");
  b->started = 1;
  b->sink = sink;
  b->sink_ctx = ctx;
  return JJ_OK;
}

jj_code jj_builder_finish(jj_builder *b, jj_sink sink, void *ctx,
                          jj_build_result *res) {
  if (res) memset(res, 0, sizeof *res);
  if (!b) return JJ_ERR_USAGE;
  if (b->failed) return b->failed;
  if (b->finished)
    return build_fail(b, JJ_ERR_USAGE, "jj_builder_finish called twice");
  if (b->depth || b->in_row || b->col >= 0)
    return build_fail(b, JJ_ERR_USAGE,
                      "jj_builder_finish with a row or nested table open");
  b->finished = 1;
  b->x.rows = b->rows;
  if (b->started) sink = b->sink, ctx = b->sink_ctx;
  if (!b->straight) {
    int done = 0;
    if (b->ahead) {
      if (build_ahead_finish(b, sink, ctx, &done)) return b->failed;
    } else if (ic_resolve(&b->x)) {
      return b->failed = b->err.code;
    }
    if (!done) {
      if (build_new_writer(b, sink, ctx)) return b->failed;
      if (build_write_rows(b)) return b->failed;
    }
  }
  if (jj_writer_finish(b->w)) return build_writer_failed(b);
  if (b->o.max_length && jj_writer_length(b->w) > b->o.max_length)
    return build_too_long(b);
  ic_nulled_notes(&b->x, &b->x.top);
  if (res) {
    res->rows = b->rows;
    res->schema = b->x.schema;
    res->nulled = b->nulled;
    res->decisions = b->x.decisions;
  }
  return JJ_OK;
}

char *jj_builder_take(jj_builder *b, size_t *len) {
  return b && !b->failed ? jj_writer_take(b->w, len) : NULL;
}
