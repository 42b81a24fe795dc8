/*
** build_write.c — jj_builder_finish: the types decided from every row
** (infer_schema.c, the converter's rules and notes), then each row read
** back from its tape (build.h) and written through a jj_writer.
**
** A row's entries come in the order the host gave them; each is stamped
** into its column's slot, then the columns are written in order, a column
** the row did not give as null.  A value becomes its column's type the
** way the converter makes a JSON value its column's: an integer in a float
** column as a double (the lattice chose f only when every one is exact),
** a value of a text column as its text (numbers as they print, dates and
** timestamps in their canonical form, rows and JSON values as JSON text),
** text of a column the schema types as that type.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "build.h"

/* ---------------------------------------------------------------------- */
/* Writing                                                                 */
/* ---------------------------------------------------------------------- */

static jj_code wfail(jj_builder *b) {
  const jj_error *e = jj_writer_error(b->w);
  ic_fail(&b->x, e->code, UINT64_MAX, 0, "%s", e->message);
  return b->failed = e->code;
}

static jj_code nomem(jj_builder *b) {
  ic_nomem(&b->x);
  return b->failed = JJ_ERR_NOMEM;
}

static jj_code broken(jj_builder *b) {
  ic_fail(&b->x, JJ_ERR_USAGE, UINT64_MAX, 0, "the rows' tape is broken");
  return b->failed = JJ_ERR_USAGE;
}

static const char *write_row(jj_builder *b, ic_table *t, const char *p,
                             const char *end);

/* A numeric or spelled value for a column the explicit schema types. */
static jj_code put_spelled(jj_builder *b, jj_type ty, const char *p,
                           size_t len) {
  jj_writer *w = b->w;
  int64_t i;
  double d;
  switch (ty) {
    case JJ_INT:
      return jj_num_parse_int64(p, len, &i) == JJ_NUM_OK ? jj_writer_int(w, i)
                                                         : JJ_ERR_TYPE;
    case JJ_FLOAT:
      if (ic_num_double(p, len, &d) > 0 || ic_nan_text(p, len, &d))
        return jj_writer_double(w, d);
      return JJ_ERR_TYPE;
    case JJ_BOOL:
      return jj_writer_bool(w, len == 4);
    case JJ_DATE:
      return jj_writer_date(w, p, len);
    case JJ_TIMESTAMP:
      return jj_writer_timestamp(w, p, len);
    case JJ_BYTES: {
      size_t bad, n;
      const char *why;
      b->scratch.len = 0;
      if (jj_buf_reserve(&b->scratch, len / 4 * 3 + 1)) return JJ_ERR_NOMEM;
      n = jj_base64_decode(p, len, (unsigned char *)b->scratch.p, &bad, &why);
      if (n == (size_t)-1) return JJ_ERR_BASE64;
      return jj_writer_bytes(w, b->scratch.p, n);
    }
    default:
      return jj_writer_text(w, p, len);
  }
}

/* One entry's value as its column's type. */
static jj_code put_value(jj_builder *b, ic_table *t, size_t i, const char *e,
                         const char *end) {
  ic_col *c = &t->cols[i];
  jj_writer *w = b->w;
  uint64_t col, len;
  const char *pay;
  int op = (unsigned char)*e;
  if (!build_entry(e, end, &col, &pay, &len)) return broken(b);
  jj_code code;
  if (op == OP_NULL) {
    code = jj_writer_null(w);
  } else if (c->type == JJ_TEXT && op != OP_TEXT) { /* any value as text */
    b->scratch.len = 0;
    if (op == OP_NUM || op == OP_JSON)
      code = jj_writer_text(w, pay, (size_t)len);
    else if (build_value_json(c->sub, op, pay, len, end, &b->scratch))
      return nomem(b);
    else if (op == OP_DATE || op == OP_TS || op == OP_FLOAT) {
      /* without the quotes value_json gives them (no escapes inside) */
      const char *s = b->scratch.p;
      size_t n = b->scratch.len;
      if (n >= 2 && s[0] == '"') s++, n -= 2;
      code = jj_writer_text(w, s, n);
    } else {
      code = jj_writer_text(w, b->scratch.p, b->scratch.len);
    }
  } else {
    switch (op) {
      case OP_FALSE:
      case OP_TRUE:
        code = jj_writer_bool(w, op == OP_TRUE);
        break;
      case OP_INT:
        code = c->type == JJ_FLOAT ? jj_writer_double(w, (double)get_i64(pay))
                                   : jj_writer_int(w, get_i64(pay));
        break;
      case OP_FLOAT:
        code = jj_writer_double(w, get_f64(pay));
        break;
      case OP_NUM:
      case OP_TEXT:
        code = put_spelled(b, c->type, pay, (size_t)len);
        break;
      case OP_BYTES:
        code = jj_writer_bytes(w, pay, (size_t)len);
        break;
      case OP_DATE:
        code = jj_writer_date_days(w, get_days(pay));
        break;
      case OP_TS: {
        jj_timestamp ts = get_ts(pay);
        code = jj_writer_timestamp_value(w, &ts);
        break;
      }
      case OP_TABLE:
        if ((code = jj_writer_begin_table(w))) break;
        c->sub->row = 0; /* rows counted from 1 in each nested value */
        for (const char *p = pay; p < end && *p != OP_TABLE_END;)
          if (!(p = write_row(b, c->sub, p, end))) return b->failed;
        code = jj_writer_end_table(w);
        break;
      default:
        return broken(b);
    }
  }
  return code ? wfail(b) : JJ_OK;
}

/* Write the row whose entries start at p (ending at `end` for a top-level
** row, at OP_ROW_END for a nested one); the byte after it, or NULL after a
** failure. */
static const char *write_row(jj_builder *b, ic_table *t, const char *p,
                             const char *end) {
  uint64_t serial = ++b->serial;
  t->in_row = 1;
  t->row++;
  while (p < end && *p != OP_ROW_END) {
    uint64_t col, len;
    const char *pay, *next = build_entry(p, end, &col, &pay, &len);
    if (!next || col >= t->n) return broken(b), NULL;
    t->cols[col].stamp = serial;
    t->cols[col].slot.p = p;
    p = next;
  }
  for (size_t i = 0; i < t->n; i++) {
    t->col = i;
    if (t->cols[i].stamp != serial ? jj_writer_null(b->w) && wfail(b)
                                   : put_value(b, t, i, t->cols[i].slot.p,
                                               end))
      return NULL;
  }
  t->col = (size_t)-1;
  t->in_row = 0;
  if (jj_writer_end_row(b->w)) return wfail(b), NULL;
  return p < end ? p + 1 : p;
}

/* Past opts.max_length. */
static jj_code too_long(jj_builder *b) {
  ic_fail(&b->x, JJ_ERR_LIMIT, UINT64_MAX, 0,
          "the document would be longer than %llu bytes",
          (unsigned long long)b->o.max_length);
  return b->failed = JJ_ERR_LIMIT;
}

/* Every stored row, through write_row. */
static jj_code write_rows(jj_builder *b) {
  const char *p = b->mem.p, *end = b->mem.p + b->mem.len;
  uint64_t polled = 0, done = 0;
  if (b->file && (fflush(b->file) || fseek(b->file, 0, SEEK_SET)))
    return build_fail(b, JJ_ERR_IO, "cannot read the temporary file back");
  b->x.top.row = 0;
  for (int64_t r = 0; r < b->rows; r++) {
    uint64_t len;
    const char *row;
    if (b->file) { /* the length, then the row into the tape buffer */
      char head[10];
      size_t h = 0;
      int ch;
      do {
        if ((ch = getc(b->file)) == EOF || h == sizeof head) return broken(b);
        head[h++] = (char)ch;
      } while (ch & 0x80);
      build_uvarint_get(head, head + h, &len);
      b->tape.len = 0;
      if (jj_buf_reserve(&b->tape, (size_t)len + 1)) return nomem(b);
      if (fread(b->tape.p, 1, (size_t)len, b->file) != len)
        return build_fail(b, JJ_ERR_IO, "cannot read the temporary file back");
      row = b->tape.p;
    } else {
      if (!(p = build_uvarint_get(p, end, &len)) || (uint64_t)(end - p) < len)
        return broken(b);
      row = p;
      p += len;
    }
    if (!write_row(b, &b->x.top, row, row + len)) return b->failed;
    if (b->o.max_length && jj_writer_length(b->w) > b->o.max_length)
      return too_long(b);
    done += len;
    if (b->o.interrupt && done - polled >= ((uint64_t)1 << 20)) {
      polled = done;
      if (b->o.interrupt(b->o.interrupt_ctx))
        return build_fail(b, JJ_ERR_INTERRUPTED, "interrupted");
    }
  }
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
  if (ic_resolve(&b->x)) return b->failed = b->err.code;
  b->w = sink ? jj_writer_new(b->x.schema, sink, ctx, &b->err)
         : b->o.alloc ? jj_writer_new_alloc(b->x.schema, b->o.alloc, &b->err)
                      : jj_writer_new(b->x.schema, NULL, NULL, &b->err);
  if (!b->w) return b->failed = b->err.code;
  if (write_rows(b)) return b->failed;
  if (jj_writer_finish(b->w)) return wfail(b);
  if (b->o.max_length && jj_writer_length(b->w) > b->o.max_length)
    return too_long(b);
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
