/*
** wasm_write.c — writing documents for the JavaScript module (only in the
** reader+writer module, js/dist/jalapenojson.wasm): schemas built column
** by column, and a writer fed by a tape of values.  JS packs a batch of
** values into the tape (js/lib/write.js) that jjw_write_tape replays here
** into jj_writer calls, one call from JS per batch instead of one per
** value.
*/
#include <string.h>

#include "wasm.h"

/* What the core hands over (a written document). */
EXPORT(jjw_jj_free) void jjw_jj_free(void *p) { jj_free(p); }

EXPORT(jjw_schema_new) jj_schema *jjw_schema_new(void) {
  jj_schema *s = jj_schema_new();
  if (!s) jjw_nomem();
  return s;
}
EXPORT(jjw_schema_free) void jjw_schema_free(jj_schema *s) { jj_schema_free(s); }
/* Append a column (type: its letter, or '{' with `table`, which s then
** owns).  The name is p[0..len).  0 or the error's code. */
EXPORT(jjw_schema_add)
int jjw_schema_add(jj_schema *s, const char *p, size_t len, int type, jj_schema *table) {
  return (int)jj_schema_add(s, p, len, (jj_type)type, table, &jjw_err);
}

/* A writer into memory for s (borrowed), with optional meta JSON. */
EXPORT(jjw_writer_new)
jj_writer *jjw_writer_new(const jj_schema *s, const char *meta, size_t meta_len) {
  jj_writer *w = jj_writer_new(s, NULL, NULL, &jjw_err);
  if (w && meta && jj_writer_set_meta(w, meta, meta_len) != JJ_OK) {
    jjw_err = *jj_writer_error(w);
    jj_writer_free(w);
    return NULL;
  }
  return w;
}
EXPORT(jjw_writer_free) void jjw_writer_free(jj_writer *w) { jj_writer_free(w); }

/* The writer's error into jjw_err; returns -1. */
static int writer_failed(jj_writer *w) {
  jjw_err = *jj_writer_error(w);
  return -1;
}

/* Tape operations (one byte each, then their operands, little-endian,
** unaligned). */
enum {
  OP_NULL, OP_INT, OP_FLOAT, OP_FALSE, OP_TRUE, OP_TEXT, OP_DATE, OP_TS,
  OP_BYTES, OP_DAYS, OP_TS_VALUE, OP_BEGIN, OP_END_ROW, OP_END_TABLE,
  OP_LTS, /* a local timestamp's text */
  OP_JSON
};


/* Replay tape[0..len) into the writer.  0, or -1 with the writer's error
** (a malformed tape is JJ_ERR_USAGE: JS never writes one). */
EXPORT(jjw_write_tape) int jjw_write_tape(jj_writer *w, const unsigned char *tape, size_t len) {
  const unsigned char *p = tape, *end = tape + len;
  while (p < end) {
    unsigned op = *p++;
    size_t need = op == OP_INT || op == OP_FLOAT ? 8
                  : (op >= OP_TEXT && op <= OP_BYTES) || op == OP_LTS || op == OP_JSON ? 4
                  : op == OP_DAYS ? 4
                  : op == OP_TS_VALUE ? 15 : 0;
    if ((size_t)(end - p) < need) goto bad;
    jj_code rc;
    int64_t i;
    double d;
    uint32_t n;
    switch (op) {
      case OP_NULL: rc = jj_writer_null(w); break;
      case OP_INT:
        memcpy(&i, p, 8);
        rc = jj_writer_int(w, i);
        break;
      case OP_FLOAT:
        memcpy(&d, p, 8);
        rc = jj_writer_double(w, d);
        break;
      case OP_FALSE:
      case OP_TRUE: rc = jj_writer_bool(w, op == OP_TRUE); break;
      case OP_TEXT:
      case OP_DATE:
      case OP_TS:
      case OP_BYTES:
      case OP_LTS:
      case OP_JSON:
        n = jjw_u32_at(p);
        if ((size_t)(end - p) - 4 < n) goto bad;
        p += 4;
        rc = op == OP_JSON   ? jj_writer_json(w, (const char *)p, n)
             : op == OP_TEXT ? jj_writer_text(w, (const char *)p, n)
             : op == OP_DATE ? jj_writer_date(w, (const char *)p, n)
             : op == OP_TS   ? jj_writer_timestamp(w, (const char *)p, n)
             : op == OP_LTS  ? jj_writer_local_timestamp(w, (const char *)p, n)
                             : jj_writer_bytes(w, p, n);
        p += n;
        need = 0;
        break;
      case OP_DAYS: rc = jj_writer_date_days(w, (int32_t)jjw_u32_at(p)); break;
      case OP_TS_VALUE: {
        jj_timestamp ts = jjw_ts_at(p);
        rc = jj_writer_timestamp_value(w, &ts);
        break;
      }
      case OP_BEGIN: rc = jj_writer_begin_table(w); break;
      case OP_END_ROW: rc = jj_writer_end_row(w); break;
      case OP_END_TABLE: rc = jj_writer_end_table(w); break;
      default: goto bad;
    }
    if (rc != JJ_OK) return writer_failed(w);
    p += need;
  }
  return 0;
bad:
  return jjw_tape_malformed("malformed write tape");
}

/* Finish and hand over the document (free with jjw_jj_free), its length in
** jjw_ret_len; NULL with the error. */
EXPORT(jjw_writer_take) char *jjw_writer_take(jj_writer *w) {
  size_t len = 0;
  char *p;
  if (jj_writer_finish(w) != JJ_OK || !(p = jj_writer_take(w, &len))) {
    writer_failed(w);
    return NULL;
  }
  jjw_len = (uint32_t)len;
  return p;
}
