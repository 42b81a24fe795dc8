/*
** to_text.c — jj_to_text: a document out as JSON (an array of objects),
** NDJSON or CSV/TSV, streaming: one row at a time through a buffer that
** goes to the sink whenever it holds 64 KiB.
**
** JSON rows are jj_cursor_object's objects, so JSON out is exactly what the
** cursor reads (floats shortest, NaN and the infinities as the strings the
** format uses, dates and timestamps as text, bytes as base64, nested tables
** as arrays of objects).  CSV follows RFC 4180, and is written so that
** jj_convert reads it back to the same values: null is an unquoted empty
** field (or the null text), so the empty text is written quoted ("") and
** so is any value that equals the null text; nested tables are their JSON
** text.
**
** Only public calls are used but for the number printers, base64 and the
** buffer (internal.h).
*/
#include <math.h>
#include <string.h>

#include "internal.h"

#define FLUSH_AT 65536

typedef struct ex {
  jj_buf b;
  jj_sink sink;
  void *ctx;
  char delim;
  const char *null_text;
  size_t null_len;
  unsigned flags;
  jj_interrupt interrupt;
  void *interrupt_ctx;
  uint64_t written, polled;
  jj_error *err;
} ex;

static jj_code nomem(ex *x) {
  return jj_fail(x->err, JJ_ERR_NOMEM, NULL, "out of memory");
}

static jj_code put(ex *x, const char *p, size_t n) {
  return jj_buf_append(&x->b, p, n) ? nomem(x) : JJ_OK;
}

/* Hand the buffer to the sink; poll the interrupt every MiB. */
static jj_code flush(ex *x) {
  if (x->b.len && x->sink(x->ctx, x->b.p, x->b.len))
    return jj_fail(x->err, JJ_ERR_IO, NULL, "write failed");
  x->written += x->b.len;
  x->b.len = 0;
  if (x->interrupt && x->written - x->polled >= ((uint64_t)1 << 20)) {
    x->polled = x->written;
    if (x->interrupt(x->interrupt_ctx))
      return jj_fail(x->err, JJ_ERR_INTERRUPTED, NULL, "interrupted");
  }
  return JJ_OK;
}

/* jj_cursor_object's sink: into the buffer. */
static int to_buf(void *ctx, const char *p, size_t n) {
  return jj_buf_append(&((ex *)ctx)->b, p, n);
}

/* A nested table value as JSON text: [ {..}, ... ] into b. */
static jj_code table_json(ex *x, jj_cursor *c, size_t col) {
  jj_doc *sub = NULL;
  jj_cursor *sc = NULL;
  jj_code code;
  int r = jj_cursor_table(c, col, &sub, x->err);
  if (r < 0) return x->err->code;
  if (!(sc = jj_cursor_new(sub, x->err))) {
    jj_doc_free(sub);
    return x->err->code;
  }
  code = put(x, "[", 1);
  for (int first = 1; !code; first = 0) {
    r = jj_cursor_next(sc, x->err);
    if (r < 0) code = x->err->code;
    if (r <= 0) break;
    if (!first) code = put(x, ",", 1);
    if (!code) code = jj_cursor_object(sc, to_buf, x, x->err);
  }
  if (!code) code = put(x, "]", 1);
  jj_cursor_free(sc);
  jj_doc_free(sub);
  return code;
}

/* A CSV field: quoted when it holds the delimiter, a quote, CR or LF, is
** empty, equals the null text, or (with the flag) has a space at an end. */
static jj_code field(ex *x, const char *p, size_t len) {
  int q = len == 0 || (x->null_len == len && !memcmp(p, x->null_text, len)) ||
          ((x->flags & JJ_TO_TEXT_QUOTE_SPACE) &&
           (p[0] == ' ' || p[len - 1] == ' '));
  for (size_t i = 0; i < len && !q; i++)
    q = p[i] == x->delim || p[i] == '"' || p[i] == '\n' || p[i] == '\r';
  if (!q) return put(x, p, len);
  if (jj_buf_reserve(&x->b, len * 2 + 2)) return nomem(x);
  char *d = x->b.p + x->b.len;
  *d++ = '"';
  for (size_t i = 0; i < len; i++) {
    if (p[i] == '"') *d++ = '"';
    *d++ = p[i];
  }
  *d++ = '"';
  x->b.len = (size_t)(d - x->b.p);
  return JJ_OK;
}

/* One value of a CSV record. */
static jj_code csv_value(ex *x, jj_cursor *c, size_t col, jj_type t) {
  char num[40];
  const char *p = num;
  size_t len = 0;
  int r;
  switch (t) {
    case JJ_INT: {
      int64_t v;
      if ((r = jj_cursor_int(c, col, &v, x->err)) > 0)
        len = jj_num_format_int64(v, num);
      break;
    }
    case JJ_FLOAT: {
      double v;
      if ((r = jj_cursor_double(c, col, &v, x->err)) > 0) {
        if (isnan(v))
          p = "NaN", len = 3;
        else if (isinf(v))
          p = v > 0 ? "Infinity" : "-Infinity", len = strlen(p);
        else
          len = jj_num_format_double(v, num);
      }
      break;
    }
    case JJ_BOOL: {
      int v;
      if ((r = jj_cursor_bool(c, col, &v, x->err)) > 0)
        p = v ? "true" : "false", len = strlen(p);
      break;
    }
    case JJ_BYTES: {
      const unsigned char *b;
      size_t n;
      if ((r = jj_cursor_bytes(c, col, &b, &n, x->err)) > 0) {
        jj_buf enc = {0};
        jj_code code;
        if (n > SIZE_MAX / 2 || jj_buf_reserve(&enc, JJ_BASE64_LEN(n) + 1))
          return nomem(x);
        enc.len = jj_base64_encode(b, n, enc.p);
        code = field(x, enc.p, enc.len);
        jj_buf_free(&enc);
        return code;
      }
      break;
    }
    case JJ_TABLE: {
      if (jj_cursor_is_null(c, col) == 1) {
        r = 0;
        break;
      }
      /* the JSON text at the end of the buffer, then moved in as a field */
      size_t at = x->b.len;
      jj_code code = table_json(x, c, col);
      if (code) return code;
      jj_buf tmp = {0};
      if (jj_buf_append(&tmp, x->b.p + at, x->b.len - at)) return nomem(x);
      x->b.len = at;
      code = field(x, tmp.p, tmp.len);
      jj_buf_free(&tmp);
      return code;
    }
    case JJ_JSON: /* its JSON text, a string with its quotes */
      r = jj_cursor_json(c, col, &p, &len, x->err);
      break;
    default:
      r = jj_cursor_text(c, col, &p, &len, x->err);
  }
  if (r < 0) return x->err->code;
  if (r == 0) return put(x, x->null_text, x->null_len);
  return field(x, p, len);
}

static jj_code csv(ex *x, jj_doc *doc, jj_cursor *c) {
  const jj_schema *s = jj_doc_schema(doc);
  size_t n = jj_schema_columns(s);
  const char *eol = x->flags & JJ_TO_TEXT_CRLF ? "\r\n" : "\n";
  size_t eol_len = strlen(eol);
  jj_code code = JJ_OK;
  int r;
  if (!(x->flags & JJ_TO_TEXT_NO_HEADER)) {
    for (size_t i = 0; i < n && !code; i++) {
      size_t len;
      const char *name = jj_schema_name(s, i, &len);
      if (i) code = put(x, &x->delim, 1);
      if (!code) code = field(x, name, len);
    }
    if (!code) code = put(x, eol, eol_len);
  }
  while (!code && (r = jj_cursor_next(c, x->err)) == 1) {
    for (size_t i = 0; i < n && !code; i++) {
      if (i) code = put(x, &x->delim, 1);
      if (!code) code = csv_value(x, c, i, jj_schema_type(s, i));
    }
    if (!code) code = put(x, eol, eol_len);
    if (!code && x->b.len >= FLUSH_AT) code = flush(x);
  }
  if (!code && r < 0) code = x->err->code;
  return code;
}

static jj_code json(ex *x, jj_cursor *c, int nd) {
  jj_code code = nd ? JJ_OK : put(x, "[", 1);
  int r, first = 1;
  while (!code && (r = jj_cursor_next(c, x->err)) == 1) {
    if (!nd) code = put(x, first ? "\n" : ",\n", first ? 1 : 2);
    if (!code) code = jj_cursor_object(c, to_buf, x, x->err);
    if (!code && nd) code = put(x, "\n", 1);
    if (!code && x->b.len >= FLUSH_AT) code = flush(x);
    first = 0;
  }
  if (!code && r < 0) code = x->err->code;
  if (!code && !nd) code = put(x, first ? "]\n" : "\n]\n", first ? 2 : 3);
  return code;
}

jj_code jj_to_text(jj_doc *doc, jj_format to, const jj_to_text_opts *opts,
                   jj_sink sink, void *sink_ctx, jj_error *err) {
  jj_error local;
  ex x;
  jj_cursor *c;
  jj_code code;
  memset(&x, 0, sizeof x);
  x.err = err ? err : &local;
  if (!doc || !sink)
    return jj_fail(x.err, JJ_ERR_USAGE, NULL,
                   "jj_to_text needs a document "
                   "and a sink");
  if (to < JJ_FORMAT_JSON || to > JJ_FORMAT_TSV)
    return jj_fail(x.err, JJ_ERR_USAGE, NULL,
                   "jj_to_text cannot write the "
                   "format %s",
                   jj_format_name(to));
  x.sink = sink;
  x.ctx = sink_ctx;
  x.delim = to == JJ_FORMAT_TSV       ? '\t'
            : opts && opts->delimiter ? opts->delimiter
                                      : ',';
  if (x.delim == '"' || x.delim == '\n' || x.delim == '\r')
    return jj_fail(x.err, JJ_ERR_USAGE, NULL,
                   "the delimiter cannot be a quote or a line end");
  x.null_text = opts && opts->null_text ? opts->null_text : "";
  x.null_len = strlen(x.null_text);
  x.flags = opts ? opts->flags : 0;
  x.interrupt = opts ? opts->interrupt : NULL;
  x.interrupt_ctx = opts ? opts->interrupt_ctx : NULL;
  if (!(c = jj_cursor_new(doc, x.err))) return x.err->code;
  code = to == JJ_FORMAT_CSV || to == JJ_FORMAT_TSV
             ? csv(&x, doc, c)
             : json(&x, c, to == JJ_FORMAT_NDJSON);
  if (!code) code = flush(&x);
  jj_cursor_free(c);
  jj_buf_free(&x.b);
  return code;
}
