/*
** object.c — jj_cursor_object: the current row as one self-describing JSON
** object, for tools that want records rather than tables:
**
**   {"id":1,"price":19.99,"joined":"2024-03-01","ok":true,
**    "items":[{"sku":"a","qty":2}],"note":null}
**
** Compact (no whitespace), keys are the column names escaped, values as
** jalapenojson.h documents.  Every value is read by jj_cursor_value, so it
** is checked exactly as a reader's accessor would check it.
**
** The object collects in the cursor's buffer (doc.h: reused for every row,
** freed with the cursor) and goes to the sink in one call once every value
** of the row has been read and checked, so a bad value never leaves half an
** object behind in the output.
*/
#include <math.h>
#include <string.h>

#include "doc.h"
#include "internal.h"

/* The output of one call: the top-level cursor's buffer (borrowed) plus
** the caller's sink.  Nested rows write into the same buffer. */
typedef struct out {
  jj_buf *b;
  jj_sink sink;
  void *ctx;
} out;

/* Pass the buffer on; JJ_ERR_IO when the sink refuses. */
static jj_code flush(out *o, jj_error *err) {
  size_t n = o->b->len;
  o->b->len = 0;
  if (n && o->sink(o->ctx, o->b->p, n))
    return jj_fail(err, JJ_ERR_IO, NULL, "write failed");
  return JJ_OK;
}

/* Append bytes; out of memory is the only failure. */
static jj_code put(out *o, const char *p, size_t n, jj_error *err) {
  if (jj_buf_append(o->b, p, n))
    return jj_fail(err, JJ_ERR_NOMEM, NULL, "out of memory");
  return JJ_OK;
}

/* Append p[0..n) as a JSON string. */
static jj_code put_escaped(out *o, const char *p, size_t n, jj_error *err) {
  if (jj_string_escape(o->b, p, n))
    return jj_fail(err, JJ_ERR_NOMEM, NULL, "out of memory");
  return JJ_OK;
}

static jj_code put_row(jj_cursor *c, out *o, jj_error *err);

/* A nested table as an array of objects; frees the table. */
static jj_code put_table(jj_doc *sub, out *o, jj_error *err) {
  jj_cursor *sc = jj_cursor_new(sub, err);
  jj_code code = sc ? put(o, "[", 1, err) : err->code;
  for (int first = 1; !code; first = 0) {
    int r = jj_cursor_next(sc, err);
    if (r < 0) code = err->code;
    if (r <= 0) break;
    if (!first) code = put(o, ",", 1, err);
    if (!code) code = put_row(sc, o, err);
  }
  if (!code) code = put(o, "]", 1, err);
  jj_cursor_free(sc);
  jj_doc_free(sub);
  return code;
}

/* Bytes as base64 text in quotes, encoded straight into the buffer. */
static jj_code put_base64(out *o, const unsigned char *p, size_t len, jj_error *err) {
  if (len > SIZE_MAX / 2 || jj_buf_reserve(o->b, JJ_BASE64_LEN(len) + 2))
    return jj_fail(err, JJ_ERR_NOMEM, NULL, "out of memory");
  char *d = o->b->p + o->b->len;
  *d++ = '"';
  d += jj_base64_encode(p, len, d);
  *d++ = '"';
  o->b->len = (size_t)(d - o->b->p);
  return JJ_OK;
}

/* One value of column col, read and checked by jj_cursor_value. */
static jj_code put_value(jj_cursor *c, size_t col, out *o, jj_error *err) {
  char num[32];
  jj_value v;
  int r = jj_cursor_value(c, col, &v, err);
  if (r <= 0) return r < 0 ? err->code : put(o, "null", 4, err);
  switch (v.type) {
    case JJ_INT: return put(o, num, jj_num_format_int64(v.u.i, num), err);
    case JJ_FLOAT:
      if (isnan(v.u.f)) return put(o, "\"NaN\"", 5, err);
      if (isinf(v.u.f))
        return v.u.f > 0 ? put(o, "\"Infinity\"", 10, err) : put(o, "\"-Infinity\"", 11, err);
      return put(o, num, jj_num_format_double(v.u.f, num), err);
    case JJ_TEXT: return put_escaped(o, v.u.text.p, v.u.text.len, err);
    case JJ_DATE: return put_escaped(o, v.u.date.p, v.u.date.len, err);
    case JJ_TIMESTAMP: return put_escaped(o, v.u.timestamp.p, v.u.timestamp.len, err);
    case JJ_BOOL: return v.u.b ? put(o, "true", 4, err) : put(o, "false", 5, err);
    case JJ_BYTES: return put_base64(o, v.u.bytes.p, v.u.bytes.len, err);
    case JJ_TABLE: return put_table(v.u.table, o, err);
  }
  return JJ_OK; /* no other type: jj_cursor_value refused it */
}

/* {"name":value,...} for the cursor's row. */
static jj_code put_row(jj_cursor *c, out *o, jj_error *err) {
  const jj_schema *s = jj_doc_schema(jj_cursor_doc(c));
  size_t n = jj_schema_columns(s);
  jj_code code = put(o, "{", 1, err);
  for (size_t col = 0; col < n && !code; col++) {
    size_t len;
    const char *name = jj_schema_name(s, col, &len);
    if (col) code = put(o, ",", 1, err);
    if (!code) code = put_escaped(o, name, len, err);
    if (!code) code = put(o, ":", 1, err);
    if (!code) code = put_value(c, col, o, err);
  }
  return code ? code : put(o, "}", 1, err);
}

/* Render the row, then pass it on. */
jj_code jj_cursor_object(jj_cursor *c, jj_sink sink, void *ctx, jj_error *err) {
  jj_error local;
  if (!err) err = &local; /* the accessors' codes are read back from it */
  if (jj_cursor_row(c) <= 0)
    return jj_fail(err, JJ_ERR_USAGE, NULL,
                   "jj_cursor_object needs a cursor on a row");
  if (!sink)
    return jj_fail(err, JJ_ERR_USAGE, NULL, "jj_cursor_object needs a sink");
  out o = {&c->object, sink, ctx};
  c->object.len = 0; /* whatever a failed call left */
  jj_code code = put_row(c, &o, err);
  if (!code) code = flush(&o, err);
  return code;
}
