/*
** build_tape.c — the row builder's tape (build.h has its layout): numbers
** in LEB128, entries found and passed over, and the JSON text of a value
** or of a nested table's rows, for a column of text and for the examples
** the notes quote; the builder's failures, and its rows moved to the
** temporary file.
*/
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "build.h"

size_t build_uvarint_put(char *out, uint64_t v) {
  size_t n = 0;
  while (v >= 0x80) {
    out[n++] = (char)(0x80 | (v & 0x7F));
    v >>= 7;
  }
  out[n++] = (char)v;
  return n;
}

const char *build_uvarint_get(const char *p, const char *end, uint64_t *v) {
  uint64_t r = 0;
  for (unsigned s = 0; p < end && s < 64; s += 7) {
    unsigned char ch = (unsigned char)*p++;
    r |= (uint64_t)(ch & 0x7F) << s;
    if (!(ch & 0x80)) return *v = r, p;
  }
  return NULL;
}

jj_code build_tape_put(jj_builder *b, int op, size_t col, const void *p,
                       size_t n, int counted) {
  if (n > SIZE_MAX - 32 || jj_buf_reserve(&b->tape, 21 + n)) {
    return build_nomem(b);
  }
  char *d = b->tape.p + b->tape.len;
  size_t h = 0;
  d[h++] = (char)op;
  h += build_uvarint_put(d + h, (uint64_t)col);
  if (counted) h += build_uvarint_put(d + h, n);
  if (n) memcpy(d + h, p, n);
  b->tape.len += h + n;
  return JJ_OK;
}

const char *build_entry(const char *p, const char *end, uint64_t *col,
                        const char **pay, uint64_t *len) {
  int op = (unsigned char)*p++;
  *len = 0;
  if (!(p = build_uvarint_get(p, end, col))) return NULL;
  switch (op) {
    case OP_NULL:
    case OP_FALSE:
    case OP_TRUE:
      *pay = p;
      return p;
    case OP_INT:
    case OP_FLOAT:
      *pay = p, *len = 8;
      return end - p >= 8 ? p + 8 : NULL;
    case OP_DATE:
      *pay = p, *len = 4;
      return end - p >= 4 ? p + 4 : NULL;
    case OP_TS:
      *pay = p, *len = 15;
      return end - p >= 15 ? p + 15 : NULL;
    case OP_NUM:
    case OP_TEXT:
    case OP_BYTES:
    case OP_JSON:
      if (!(p = build_uvarint_get(p, end, len)) || (uint64_t)(end - p) < *len)
        return NULL;
      *pay = p;
      return p + *len;
    case OP_TABLE:
      *pay = p;
      for (unsigned depth = 1; p < end;) { /* to the matching OP_TABLE_END */
        int o = (unsigned char)*p;
        if (o == OP_ROW_END) {
          p++;
        } else if (o == OP_TABLE_END) {
          p++;
          if (--depth == 0) return p;
        } else if (o == OP_TABLE) {
          uint64_t c;
          if (!(p = build_uvarint_get(p + 1, end, &c))) return NULL;
          depth++;
        } else {
          uint64_t c, n;
          const char *q;
          if (!(p = build_entry(p, end, &c, &q, &n))) return NULL;
        }
      }
      return NULL;
    default:
      return NULL;
  }
}

/* The JSON text of one entry's value, appended to out.  0 or -1. */
int build_value_json(const ic_table *t, int op, const char *pay,
                      uint64_t len, const char *end, jj_buf *out) {
  char tmp[48];
  size_t n;
  switch (op) {
    case OP_NULL:
      return jj_buf_append(out, "null", 4);
    case OP_FALSE:
      return jj_buf_append(out, "false", 5);
    case OP_TRUE:
      return jj_buf_append(out, "true", 4);
    case OP_INT:
      return jj_buf_append(out, tmp, jj_int_format(get_i64(pay), tmp));
    case OP_FLOAT: {
      double d = get_f64(pay);
      n = jj_double_format(d, tmp);
      if (d != d || d - d != 0) /* NaN, Infinity: JSON has them as text */
        return jj_string_escape(out, tmp, n);
      return jj_buf_append(out, tmp, n);
    }
    case OP_NUM:
    case OP_JSON:
      return jj_buf_append(out, pay, (size_t)len);
    case OP_TEXT:
      return jj_string_escape(out, pay, (size_t)len);
    case OP_BYTES: {
      jj_buf b64 = {0};
      int r = jj_buf_reserve(&b64, JJ_BASE64_LEN((size_t)len) + 1);
      if (!r) {
        b64.len = jj_base64_encode((const unsigned char *)pay, (size_t)len,
                                   b64.p);
        r = jj_string_escape(out, b64.p, b64.len);
      }
      jj_buf_free(&b64);
      return r;
    }
    case OP_DATE:
      if (jj_date_format(get_days(pay), tmp)) return -1;
      return jj_string_escape(out, tmp, 10);
    case OP_TS: {
      jj_timestamp ts = get_ts(pay);
      if (!(n = jj_timestamp_format(&ts, tmp))) return -1;
      return jj_string_escape(out, tmp, n);
    }
    case OP_TABLE:
      return build_rows_json(t, pay, end, out);
    default:
      return -1;
  }
}

int build_rows_json(const ic_table *t, const char *p, const char *end,
                    jj_buf *out) {
  int first_row = 1;
  if (jj_buf_append(out, "[", 1)) return -1;
  while (p < end && *p != OP_TABLE_END) {
    int first = 1;
    if (jj_buf_append(out, first_row ? "{" : ",{", first_row ? 1 : 2))
      return -1;
    first_row = 0;
    while (p < end && *p != OP_ROW_END) {
      uint64_t col, len;
      const char *pay, *next;
      int op = (unsigned char)*p;
      if (!(next = build_entry(p, end, &col, &pay, &len)) || col >= t->n)
        return -1;
      const ic_col *c = &t->cols[col];
      if ((!first && jj_buf_append(out, ",", 1)) ||
          jj_string_escape(out, c->name, c->name_len) ||
          jj_buf_append(out, ":", 1) ||
          build_value_json(c->sub, op, pay, len, end, out))
        return -1;
      first = 0;
      p = next;
    }
    if (p == end || jj_buf_append(out, "}", 1)) return -1;
    p++; /* OP_ROW_END */
  }
  return p < end ? jj_buf_append(out, "]", 1) : -1;
}

jj_code build_fail(jj_builder *b, jj_code code, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  ic_vfail(&b->x, code, UINT64_MAX, 1, fmt, ap);
  va_end(ap);
  return b->failed = code;
}

jj_code build_spill(jj_builder *b) {
  if (!b->tape.len) return JJ_OK;
  if (!b->file && !(b->file = tmpfile()))
    return build_fail(b, JJ_ERR_IO, "cannot make a temporary file for the rows");
  if (fwrite(b->tape.p, 1, b->tape.len, b->file) != b->tape.len)
    return build_fail(b, JJ_ERR_IO, "cannot write the temporary file");
  b->tape.len = 0;
  return JJ_OK;
}
