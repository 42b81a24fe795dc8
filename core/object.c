/*
** object.c — jj_cursor_object: the current row as one self-describing JSON
** object, for tools that want records rather than tables:
**
**   {"id":1,"price":19.99,"joined":"2024-03-01","ok":true,
**    "items":[{"sku":"a","qty":2}],"note":null}
**
** Compact (no whitespace), keys are the column names escaped, values as
** jalapenojson.h documents.  Every value is checked exactly as its
** accessor checks it, and a bad one fails with the accessor's error.
**
** Most values are written as the bytes the row already holds, which is
** what makes the SQLite extension's record form (one object per row)
** cheap: about a quarter of the instructions of printing every value
** (callgrind, 7 columns).  A value is copied without being read when its
** bytes alone prove it valid and canonical (raw_is_valid: a short integer,
** a plain decimal, a string without escapes, a date that exists, a
** literal); else it is read by its accessor, then copied when its text is
** what printing would give (raw_is_output) or printed (escapes, numbers in
** another spelling, nested tables).  The keys are escaped once per cursor
** (keys_table).  tests/core/test_object.c compares the output and the errors
** with an independent model that prints every value, over random documents
** of every type and spelling.
**
** The object collects in the cursor's buffer (doc.h: reused for every row,
** freed with the cursor) and goes to the sink in one call once every value
** of the row has been read and checked, so a bad value never leaves half an
** object behind in the output.
*/
#include <math.h>
#include <string.h>

#include "doc.h"
#include "select.h"
#include "internal.h"

/* The output of one call: the top-level cursor's buffer (borrowed) plus
** the caller's sink.  Nested rows write into the same buffer. */
typedef struct out {
  jj_buf *b;
  jj_sink sink;
  void *ctx;
} out;

/* Pass the buffer's bytes from `from` on; JJ_ERR_IO when the sink
** refuses. */
static jj_code flush(out *o, size_t from, jj_error *err) {
  size_t n = o->b->len - from;
  o->b->len = from;
  if (n && o->sink(o->ctx, o->b->p + from, n))
    return jj_fail(err, JJ_ERR_IO, NULL, "write failed");
  return JJ_OK;
}

/* Room for n more bytes (the common case, room already there, inline). */
static inline jj_code room(out *o, size_t n, jj_error *err) {
  if (JJ_LIKELY(o->b->cap - o->b->len >= n)) return JJ_OK;
  if (jj_buf_reserve(o->b, n))
    return jj_fail(err, JJ_ERR_NOMEM, NULL, "out of memory");
  return JJ_OK;
}

/* Copy n bytes: most keys and values are a few bytes long, which two
** overlapping fixed-size moves copy faster than a call to memcpy (neither
** reads or writes outside s[0..n) and d[0..n)). */
static inline void copy(char *d, const char *s, size_t n) {
  if (n >= 8 && n <= 16) {
    uint64_t a, b;
    memcpy(&a, s, 8);
    memcpy(&b, s + n - 8, 8);
    memcpy(d, &a, 8);
    memcpy(d + n - 8, &b, 8);
  } else if (n >= 4 && n < 8) {
    uint32_t a, b;
    memcpy(&a, s, 4);
    memcpy(&b, s + n - 4, 4);
    memcpy(d, &a, 4);
    memcpy(d + n - 4, &b, 4);
  } else if (n < 4) {
    for (size_t i = 0; i < n; i++) d[i] = s[i];
  } else {
    memcpy(d, s, n);
  }
}

/* Append bytes; out of memory is the only failure. */
static inline jj_code put(out *o, const char *p, size_t n, jj_error *err) {
  if (room(o, n, err)) return JJ_ERR_NOMEM;
  copy(o->b->p + o->b->len, p, n);
  o->b->len += n;
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
  if (len > SIZE_MAX / 2)
    return jj_fail(err, JJ_ERR_NOMEM, NULL, "out of memory");
  if (room(o, JJ_BASE64_LEN(len) + 2, err)) return JJ_ERR_NOMEM;
  char *d = o->b->p + o->b->len;
  *d++ = '"';
  d += jj_base64_encode(p, len, d);
  *d++ = '"';
  o->b->len = (size_t)(d - o->b->p);
  return JJ_OK;
}

/* A value printed from what was read (not null). */
static jj_code put_read(const jj_value *v, out *o, jj_error *err) {
  char num[32];
  switch (v->type) {
    case JJ_INT: return put(o, num, jj_num_format_int64(v->u.i, num), err);
    case JJ_FLOAT:
      if (isnan(v->u.f)) return put(o, "\"NaN\"", 5, err);
      if (isinf(v->u.f))
        return v->u.f > 0 ? put(o, "\"Infinity\"", 10, err) : put(o, "\"-Infinity\"", 11, err);
      return put(o, num, jj_num_format_double(v->u.f, num), err);
    case JJ_TEXT: return put_escaped(o, v->u.text.p, v->u.text.len, err);
    case JJ_DATE: return put_escaped(o, v->u.date.p, v->u.date.len, err);
    case JJ_TIMESTAMP:
    case JJ_LOCAL_TIMESTAMP: return put_escaped(o, v->u.timestamp.p, v->u.timestamp.len, err);
    case JJ_BOOL: return v->u.b ? put(o, "true", 4, err) : put(o, "false", 5, err);
    case JJ_BYTES: return put_base64(o, v->u.bytes.p, v->u.bytes.len, err);
    case JJ_JSON: return put(o, v->u.json.p, v->u.json.len, err); /* JSON as JSON */
    case JJ_TABLE: return put_table(v->u.table, o, err);
  }
  return JJ_OK; /* no other type: jj_cursor_value refused it */
}

/* 1 when the JSON integer p[0..n) is the decimal jj_num_format_int64
** prints for its value: digits, no leading zero, "-" only before a nonzero
** digit ("-0" prints as "0"). */
static inline int int_is_canonical(const char *p, size_t n) {
  size_t i = *p == '-';
  if (i == n) return 0;
  if (p[i] == '0') return n == 1;
  for (; i < n; i++)
    if ((unsigned)(unsigned char)p[i] - '0' > 9) return 0;
  return 1;
}

/* 1 when the number p[0..n), whose value v has been read from it, is the
** text jj_num_format_double prints for v (CPython's repr: the shortest
** digits that read back to v, laid out as "ddd.ddd", "ddd000.0" or
** "0.000ddd" when the decimal exponent allows, else "d.ddde+XX").  Only the
** plain layouts are accepted here, and only with at most 15 significant
** digits: two different decimals of 15 digits or fewer never read as the
** same double (DBL_DIG; every value such a layout can hold, 1e-4 <= |v| <
** 1e16 or 0, is a normal double), so such a text with no trailing zero is
** the shortest and only candidate the printer could choose.  Anything
** else (an exponent, trailing zeros, 16 or 17 digits, 0.00001) answers 0
** and is printed. */
static int float_is_canonical(const char *p, size_t n) {
  size_t i = *p == '-', k = 0;
  if (i < n && p[i] == '0') {
    i++; /* integer part "0" */
  } else {
    while (i + k < n && (unsigned)(unsigned char)p[i + k] - '0' <= 9) k++;
    if (k == 0 || k > 16) return 0; /* repr's plain layout: < 1e16 */
    i += k;
  }
  if (i + 1 >= n || p[i] != '.') return 0; /* repr always has a fraction */
  const char *f = p + i + 1;
  size_t fn = n - i - 1;
  for (size_t j = 0; j < fn; j++)
    if ((unsigned)(unsigned char)f[j] - '0' > 9) return 0; /* an exponent */
  if (fn == 1 && f[0] == '0') { /* X.0: X's digits without trailing zeros */
    if (k == 0) return 1;           /* 0.0 and -0.0 */
    const char *d = p + (*p == '-');
    size_t sig = k;
    while (d[sig - 1] == '0') sig--;
    return sig <= 15;
  }
  if (f[fn - 1] == '0') return 0; /* a trailing zero repr would drop */
  if (k) return k + fn <= 15;     /* ddd.ddd */
  size_t z = 0;                   /* 0.000ddd: at most three zeros */
  while (f[z] == '0') z++;
  return z <= 3 && fn - z <= 15;
}

/* 1 when the value of column col, read into *v (not null), prints as the
** bytes p[0..n) the row holds for it (span flags `flags`): then those
** bytes are copied instead of printed. */
static inline int raw_is_output(const jj_value *v, const char *p, size_t n,
                                size_t flags) {
  switch (v->type) {
    case JJ_INT: return int_is_canonical(p, n);
    case JJ_FLOAT: /* "NaN" and the infinities as the strings they are */
      return *p == '"' ? !(flags & JJ_SPAN_ESC) : float_is_canonical(p, n);
    case JJ_TEXT:
    case JJ_DATE:
    case JJ_TIMESTAMP:
    case JJ_LOCAL_TIMESTAMP:
      /* No backslash: no '"' inside either, and the scan refused raw
      ** control characters, so escaping gives the bytes back. */
      return !(flags & JJ_SPAN_ESC);
    case JJ_BYTES: return !(flags & JJ_SPAN_ESC); /* base64.c: one encoding
                                                  ** per byte string */
    case JJ_BOOL: return 1; /* the literal, checked by the scan */
    case JJ_JSON: /* the read gives the canonical text */
    case JJ_TABLE: return 0;
  }
  return 0;
}

/* 1 when the bytes p[0..n) of a value of type t are, by their form alone,
** a value the type's accessor accepts and the text this file prints for it,
** so that they can be copied without being read: each case is a subset of
** what the accessor accepts (value.c), and anything else is read, which
** reports the errors.
**   i  the canonical decimal of 1 to 18 digits (short_int reads it)
**   f  float_is_canonical's plain decimals (a JSON number, finite)
**   s  a string the scan found pure ASCII without escapes (nothing for the
**      UTF-8 check to refuse), or one whose bytes are valid UTF-8
**   d  such a string holding a date jj_date_ok accepts (the calendar)
**   b  the literals true and false (the scan checked their spelling) */
static inline int raw_is_valid(jj_type t, const char *p, size_t n,
                               size_t flags) {
  switch (t) {
    case JJ_INT: return n - (*p == '-') <= 18 && int_is_canonical(p, n);
    case JJ_FLOAT: return float_is_canonical(p, n);
    case JJ_TEXT:
      return *p == '"' && !(flags & JJ_SPAN_ESC) &&
             (!(flags & JJ_SPAN_HIGH) || jj_utf8_valid(p + 1, n - 2, NULL));
    case JJ_DATE:
      return *p == '"' && !(flags & (JJ_SPAN_ESC | JJ_SPAN_HIGH)) &&
             jj_date_ok(p + 1, n - 2);
    case JJ_BOOL: return *p == 't' || *p == 'f';
    case JJ_TIMESTAMP:
    case JJ_LOCAL_TIMESTAMP:
    case JJ_BYTES:
    case JJ_JSON:
    case JJ_TABLE: return 0;
  }
  return 0;
}

/* One value of column col of a cursor on a row: null and raw_is_valid's
** values copied, any other read by its accessor (a date or timestamp by
** jj_cursor_text: the same checks and errors as jj_cursor_value's, without
** the day count the text does not need), then copied or printed. */
static jj_code put_value(jj_cursor *c, size_t col, out *o, jj_error *err) {
  const jj_span *s = jj_cursor_located(c, col, err);
  if (!s) return err->code;
  size_t n = JJ_SPAN_LEN(*s);
  jj_type t = c->cols[col].type;
  /* null: every accessor answers 0 for it, and the scan checked it */
  if (*s->p == 'n' || raw_is_valid(t, s->p, n, s->n)) return put(o, s->p, n, err);
  jj_value v;
  int r;
  if (t == JJ_DATE || t == JJ_TIMESTAMP || t == JJ_LOCAL_TIMESTAMP) {
    v.type = t;
    r = jj_cursor_text(c, col, &v.u.text.p, &v.u.text.len, err);
  } else {
    r = jj_cursor_value(c, col, &v, err);
  }
  if (r < 0) return err->code;
  if (r == 0) return put(o, "null", 4, err); /* not reached: 'n' above */
  if (raw_is_output(&v, s->p, n, s->n)) return put(o, s->p, n, err);
  return put_read(&v, o, err);
}

/* The key of column col with what precedes it, `{"name":` or `,"name":`,
** written from the schema. */
static jj_code put_key(const jj_schema *s, size_t col, out *o, jj_error *err) {
  size_t len;
  const char *name = jj_schema_name(s, col, &len);
  jj_code code = put(o, col ? "," : "{", 1, err);
  if (!code) code = put_escaped(o, name, len, err);
  return code ? code : put(o, ":", 1, err);
}

/* {"name":value,...} for a row of a nested table's cursor, into the
** top-level buffer. */
static jj_code put_row(jj_cursor *c, out *o, jj_error *err) {
  const jj_schema *s = jj_doc_schema(jj_cursor_doc(c));
  size_t n = jj_schema_columns(s);
  jj_code code = n ? JJ_OK : put(o, "{", 1, err);
  for (size_t col = 0; col < n && !code; col++) {
    code = put_key(s, col, o, err);
    if (!code) code = put_value(c, col, o, err);
  }
  return code ? code : put(o, "}", 1, err);
}

/* The top-level cursor's keys, escaped once: the first bytes of its
** buffer c->object hold, from the cursor's first call on, a table of
** ncol + 1 size_t offsets into the buffer (0: where the row text starts;
** 1 + i: where the key of column i ends; column 0's key starts right after
** the table), then every key as put_key writes it.  Only this file uses
** c->object (cursor.c frees it), so the table stays until the cursor is
** freed: it is built when the buffer is allocated, and a build that
** fails frees the buffer again, so c->object.p != NULL says it is there.
** A record scan then copies each key instead of escaping the column name
** again for every row. */
static jj_code keys_table(jj_cursor *c, jj_error *err) {
  if (c->object.p) return JJ_OK;
  const jj_schema *s = jj_doc_schema(c->doc);
  size_t head = (c->ncol + 1) * sizeof(size_t), at;
  out k = {&c->object, NULL, NULL};
  jj_code code = room(&k, head + 256, err);
  if (!code) c->object.len = head;
  for (size_t col = 0; col < c->ncol && !code; col++) {
    code = put_key(s, col, &k, err);
    at = c->object.len;
    if (!code) memcpy(c->object.p + (col + 1) * sizeof(size_t), &at, sizeof at);
  }
  at = c->object.len;
  if (!code) memcpy(c->object.p, &at, sizeof at);
  else jj_buf_free(&c->object); /* half a table: built again next time */
  return code;
}

/* The top-level row: keys from keys_table, values as put_value writes
** them, after the table in c->object. */
static jj_code put_top_row(jj_cursor *c, out *o, jj_error *err) {
  size_t n = c->ncol, from = (n + 1) * sizeof(size_t), to;
  jj_code code = n ? JJ_OK : put(o, "{", 1, err);
  for (size_t col = 0; col < n && !code; col++, from = to) {
    memcpy(&to, o->b->p + (col + 1) * sizeof(size_t), sizeof to);
    if (room(o, to - from, err)) return JJ_ERR_NOMEM;
    copy(o->b->p + o->b->len, o->b->p + from, to - from);
    o->b->len += to - from;
    code = put_value(c, col, o, err);
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
  if (c->state != JJ_CUR_ROW && c->ncol > 0) {
    /* After a failed move: the accessor's usage error, as it says it. */
    jj_value v;
    if (jj_cursor_value(c, 0, &v, err) < 0) return err->code;
  }
  jj_code code = keys_table(c, err);
  if (code) return code;
  out o = {&c->object, sink, ctx};
  size_t text;
  memcpy(&text, c->object.p, sizeof text);
  c->object.len = text; /* the row after the keys; whatever a failed call
                        ** left is dropped */
  code = put_top_row(c, &o, err);
  if (!code) code = flush(&o, text, err);
  return code;
}
