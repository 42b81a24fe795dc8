/*
** build_write.c — rows read back from their tape (build.h) and written
** through a jj_writer as their columns' types say: every row kept, at the
** end once the types are decided from every row (infer_schema.c, the
** converter's rules and notes), or each row as it ends when the types are
** known (build_straight) or held from the first row (build_ahead.c).
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

jj_code build_writer_failed(jj_builder *b) {
  const jj_error *e = jj_writer_error(b->w);
  ic_fail(&b->x, e->code, UINT64_MAX, 0, "%s", e->message);
  return b->failed = e->code;
}

static jj_code broken(jj_builder *b) {
  ic_fail(&b->x, JJ_ERR_USAGE, UINT64_MAX, 0, "the rows' tape is broken");
  return b->failed = JJ_ERR_USAGE;
}

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
    case JJ_TIMESTAMP: {
      jj_timestamp ts; /* no zone: UTC, as build.c noted */
      if (jj_timestamp_parse(p, len, NULL, NULL) &&
          !jj_local_timestamp_parse(p, len, 1, &ts, NULL))
        return jj_writer_timestamp_value(w, &ts);
      return jj_writer_timestamp(w, p, len);
    }
    case JJ_LOCAL_TIMESTAMP:
      return jj_writer_local_timestamp(w, p, len);
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

/* A value (an entry's op and payload) as column c's type. */
static jj_code put_payload(jj_builder *b, ic_col *c, int op, const char *pay,
                           uint64_t len, const char *end) {
  jj_writer *w = b->w;
  jj_code code;
  if (op == OP_NULL) {
    code = jj_writer_null(w);
  } else if (c->type == JJ_TEXT && op != OP_TEXT) { /* any value as text */
    b->scratch.len = 0;
    if (op == OP_NUM || op == OP_JSON)
      code = jj_writer_text(w, pay, (size_t)len);
    else if (build_value_json(c->sub, op, pay, len, end, &b->scratch))
      return build_nomem(b);
    else if (op == OP_DATE || op == OP_TS || op == OP_FLOAT) {
      /* without the quotes value_json gives them (no escapes inside) */
      const char *s = b->scratch.p;
      size_t n = b->scratch.len;
      if (n >= 2 && s[0] == '"') s++, n -= 2;
      code = jj_writer_text(w, s, n);
    } else {
      code = jj_writer_text(w, b->scratch.p, b->scratch.len);
    }
  } else if (c->type == JJ_JSON) { /* any value as its JSON */
    b->scratch.len = 0;
    if (op == OP_NUM || op == OP_JSON)
      code = jj_writer_json(w, pay, (size_t)len);
    else if (build_value_json(c->sub, op, pay, len, end, &b->scratch))
      return build_nomem(b);
    else
      code = jj_writer_json(w, b->scratch.p, b->scratch.len);
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
          if (!(p = build_write_row(b, c->sub, p, end, 0))) return b->failed;
        code = jj_writer_end_table(w);
        break;
      default:
        return broken(b);
    }
  }
  return code ? build_writer_failed(b) : JJ_OK;
}

/* The value of the entry at e as column i's type. */
static jj_code put_value(jj_builder *b, ic_table *t, size_t i, const char *e,
                         const char *end) {
  uint64_t col, len;
  const char *pay;
  if (!build_entry(e, end, &col, &pay, &len)) return broken(b);
  return put_payload(b, &t->cols[i], (unsigned char)*e, pay, len, end);
}

jj_code build_direct(jj_builder *b, int op, const char *p, size_t n) {
  /* a null, a boolean: no payload, p NULL (NULL + 0 is undefined in C) */
  return put_payload(b, &b->x.top.cols[b->col], op, p, n, p ? p + n : p);
}

/* Write the row whose entries start at p (ending at `end` for a top-level
** row, at OP_ROW_END for a nested one); the byte after it, or NULL after a
** failure.  The columns before `from` were written already (straight from
** the host, build_direct). */
const char *build_write_row(jj_builder *b, ic_table *t, const char *p,
                            const char *end, size_t from) {
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
  for (size_t i = from; i < t->n; i++) {
    t->col = i;
    if (t->cols[i].stamp != serial ? jj_writer_null(b->w) && build_writer_failed(b)
                                   : put_value(b, t, i, t->cols[i].slot.p,
                                               end))
      return NULL;
  }
  t->col = (size_t)-1;
  t->in_row = 0;
  if (jj_writer_end_row(b->w)) return build_writer_failed(b), NULL;
  return p < end ? p + 1 : p;
}

jj_code build_too_long(jj_builder *b) {
  ic_fail(&b->x, JJ_ERR_LIMIT, UINT64_MAX, 0,
          "the document would be longer than %llu bytes",
          (unsigned long long)b->o.max_length);
  return b->failed = JJ_ERR_LIMIT;
}

/* At least n bytes of the temporary file from *at on in b->tape (read
** in pieces of 1 MiB or more, what is left moved to the front first).
** JJ_OK, or failed (the file ended early, out of memory). */
static jj_code file_bytes(jj_builder *b, size_t *at, size_t n) {
  if (b->tape.len - *at >= n) return JJ_OK;
  size_t left = b->tape.len - *at;
  memmove(b->tape.p, b->tape.p + *at, left);
  b->tape.len = left;
  *at = 0;
  size_t want = n > ((size_t)1 << 20) ? n : (size_t)1 << 20;
  if (jj_buf_reserve(&b->tape, want - left)) return build_nomem(b);
  b->tape.len += fread(b->tape.p + left, 1, b->tape.cap - left, b->file);
  if (b->tape.len < n)
    return build_fail(b, JJ_ERR_IO, "cannot read the temporary file back");
  return JJ_OK;
}

jj_code build_write_rows(jj_builder *b) {
  uint64_t polled = 0, done = 0;
  size_t at = 0;
  if (b->file) {
    if (build_spill(b) || fflush(b->file) || fseek(b->file, 0, SEEK_SET))
      return b->failed ? b->failed
                       : build_fail(b, JJ_ERR_IO,
                                    "cannot read the temporary file back");
    b->tape.len = 0;
  }
  b->x.top.row = 0;
  for (int64_t r = 0; r < b->rows; r++) {
    uint32_t len;
    if (b->file && file_bytes(b, &at, 4)) return b->failed;
    if (b->tape.len - at < 4) return broken(b);
    memcpy(&len, b->tape.p + at, 4);
    if (b->file && file_bytes(b, &at, 4 + (size_t)len)) return b->failed;
    if (b->tape.len - at - 4 < len) return broken(b);
    const char *row = b->tape.p + at + 4;
    at += 4 + (size_t)len;
    if (!build_write_row(b, &b->x.top, row, row + len, 0)) return b->failed;
    if (b->o.max_length && jj_writer_length(b->w) > b->o.max_length)
      return build_too_long(b);
    done += len;
    if (b->o.interrupt && done - polled >= ((uint64_t)1 << 20)) {
      polled = done;
      if (b->o.interrupt(b->o.interrupt_ctx))
        return build_fail(b, JJ_ERR_INTERRUPTED, "interrupted");
    }
  }
  return JJ_OK;
}

jj_code build_new_writer(jj_builder *b, jj_sink sink, void *ctx) {
  b->w = sink ? jj_writer_new(b->x.schema, sink, ctx, &b->err)
         : b->o.alloc ? jj_writer_new_alloc(b->x.schema, b->o.alloc, &b->err)
                      : jj_writer_new(b->x.schema, NULL, NULL, &b->err);
  return b->w ? JJ_OK : (b->failed = b->err.code);
}

/* Every top-level column named by jj_builder_column with a scalar type
** (and JJ_BUILD_FIXED_COLUMNS: no other can come): the types are known
** before any row. */
static int types_known(const jj_builder *b) {
  const ic_table *t = &b->x.top;
  if (!(b->o.flags & JJ_BUILD_FIXED_COLUMNS) || !t->n) return 0;
  for (size_t i = 0; i < t->n; i++)
    if (!t->cols[i].forced || t->cols[i].forced == JJ_TABLE) return 0;
  return 1;
}

jj_code build_straight(jj_builder *b) {
  if (!b->straight) {
    if (b->rows != 1 || !b->started || !types_known(b)) return JJ_OK;
    if (ic_resolve(&b->x)) return b->failed = b->err.code;
    if (build_new_writer(b, b->sink, b->sink_ctx)) return b->failed;
    b->straight = 1;
  }
  const char *row = b->tape.p + b->row_at + 4;
  if (!build_write_row(b, &b->x.top, row, b->tape.p + b->tape.len, b->next_col))
    return b->failed;
  b->tape.len = b->row_at;
  b->next_col = 0;
  if (b->o.max_length && jj_writer_length(b->w) > b->o.max_length)
    return build_too_long(b);
  return JJ_OK;
}
