/*
** build_ahead.c — rows written ahead of their types.
**
** A host with fixed columns (a query's, a function's arguments) gives
** every row the same columns, and most columns keep the kind of value of
** the first row: integers stay integers, text stays text.  Keeping each
** row on the tape and writing it again at the end costs twice the work of
** writing it once, so from the first row on the rows are written as they
** end, with the first row's types, by a writer of their own
** (jj_writer_new_ahead, internal.h); their bytes are kept (the writer
** holds them in memory, then they go to a temporary file) instead of the
** tape.  A column of only nulls so far takes the type of its first value.
**
** The types the lattice decides at the end (infer_schema.c) may differ
** from the first row's without changing a byte: a column of text whose
** every value is a date is d, and a date is written as the same string as
** text.  Only the header changes: a document in memory whose rows the
** writer still holds is that writer's, its header's letters changed in
** place (jj_writer_keep); else the rows follow the final header in the
** document's own writer.  When a row
** brings a value the first row's type would write differently (an integer
** after floats is fine, a float after integers is not: 1 must become 1.0;
** text after numbers; nested rows), or the final types write other bytes,
** the rows written so far are read back into the tape and the builder goes
** on as if it had never written ahead: the same document either way.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "build.h"

/* The type a value of this op is written as in a column of no type yet;
** 0 for the ops that do not start one (numbers as text, dates and
** timestamps as values, JSON, nested rows). */
static jj_type op_type(int op) {
  switch (op) {
    case OP_INT:
      return JJ_INT;
    case OP_FLOAT:
      return JJ_FLOAT;
    case OP_TEXT:
      return JJ_TEXT;
    case OP_TRUE:
    case OP_FALSE:
      return JJ_BOOL;
    case OP_BYTES:
      return JJ_BYTES;
    default:
      return (jj_type)0;
  }
}

/* Whether a column of type `was` (written ahead) holds the same bytes as
** the same values written as the final type `now`. */
static int same_bytes(jj_type was, jj_type now) {
  if (!was || was == now) return 1; /* only nulls, or the same type */
  /* text written as text: a date or timestamp the lattice accepted is
  ** written as the same string (no character of it needs an escape) */
  return was == JJ_TEXT && (now == JJ_DATE || now == JJ_TIMESTAMP);
}

/* The sink of the writer ahead, which holds up to opts.memory bytes of
** its header and rows itself (so that rows that stay in memory are not
** copied at all: that writer becomes the document's): the rows' bytes
** kept, the header left out, in memory while they fit there, else with
** what memory kept in the temporary file (-1, which the writer reports as
** a failed write, when memory or the file fails). */
static int keep_rows(void *ctx, const char *p, size_t len) {
  jj_builder *b = ctx;
  /* a piece the writer passes on because it holds opts.memory bytes goes
  ** to the file whole, even when its header is left out */
  int full = b->ahead_rows.mem.len + len > b->o.memory;
  size_t head = len < b->ahead_skip ? len : b->ahead_skip;
  p += head, len -= head;
  b->ahead_skip -= head;
  if (!len) return 0;
  /* a full piece goes to the file (the bound 0), the rest to memory */
  return jj_spool_add(&b->ahead_rows, p, len, full ? 0 : SIZE_MAX);
}

/* The columns with the types written ahead (a column of only nulls as
** text); NULL when out of memory. */
static jj_schema *ahead_schema(jj_builder *b) {
  const ic_table *t = &b->x.top;
  jj_schema *s = jj_schema_new();
  for (size_t i = 0; s && i < t->n; i++) {
    jj_type ty = b->ahead_types[i] ? (jj_type)b->ahead_types[i] : JJ_TEXT;
    if (jj_schema_add(s, t->cols[i].name, t->cols[i].name_len, ty, NULL,
                      NULL)) {
      jj_schema_free(s);
      s = NULL;
    }
  }
  return s;
}

/* A document of s with no rows, less its last two bytes ("]}"): the
** header, up to and including "rows":[ and its newline; in out. */
static jj_code header_text(jj_builder *b, const jj_schema *s, jj_buf *out) {
  jj_error err;
  jj_writer *w = jj_writer_new(s, NULL, NULL, &err);
  size_t len = 0;
  char *doc = w && jj_writer_finish(w) == JJ_OK ? jj_writer_take(w, &len) : NULL;
  jj_writer_free(w);
  int bad = !doc || len < 2 || jj_buf_append(out, doc, len - 2);
  jj_free(doc);
  if (bad) return build_nomem(b);
  return JJ_OK;
}

/* Every top-level column is inferred or has a scalar type, and the top
** table cannot grow: rows may be written ahead. */
static int may_write_ahead(const jj_builder *b) {
  const ic_table *t = &b->x.top;
  if (!(b->o.flags & JJ_BUILD_FIXED_COLUMNS) || !t->n || b->depth) return 0;
  for (size_t i = 0; i < t->n; i++)
    if (t->cols[i].forced == JJ_TABLE || t->cols[i].sub) return 0;
  return 1;
}

int build_ahead_fits(jj_builder *b, size_t col, int op, const char *pay) {
  ic_col *c = &b->x.top.cols[col];
  if (op == OP_NULL || c->forced) return 1; /* checked as it came */
  jj_type want = op_type(op);
  if (!c->type) { /* only nulls so far: the first value's type */
    if (!want) return 0;
    c->type = want;
    b->ahead_types[col] = (unsigned char)want;
    if (b->ahead) jj_writer_retype(b->w, col, want);
    return 1;
  }
  if (c->type == JJ_FLOAT && op == OP_INT) /* else the column becomes s */
    return ic_int_exact(get_i64(pay));
  return want == c->type;
}

/* Whether the values of a row's tape keep to the types written ahead.
** -1: the tape is broken. */
static int row_fits(jj_builder *b, const char *p, const char *end) {
  while (p < end) {
    uint64_t col, len;
    const char *pay;
    int op = (unsigned char)*p;
    if (!(p = build_entry(p, end, &col, &pay, &len)) || col >= b->x.top.n)
      return -1;
    if (!build_ahead_fits(b, (size_t)col, op, pay)) return 0;
  }
  return 1;
}

/* Begin: the writer ahead, with the first row's types. */
static jj_code begin(jj_builder *b) {
  ic_table *t = &b->x.top;
  jj_schema *s = ahead_schema(b);
  jj_buf head = {0};
  jj_error err;
  if (!s || header_text(b, s, &head)) {
    jj_schema_free(s);
    jj_buf_free(&head);
    if (b->failed) return b->failed;
    return build_nomem(b);
  }
  b->ahead_header = b->ahead_skip = head.len;
  jj_buf_free(&head);
  /* the writer borrows its schema: the builder's own comes at the end, so
  ** this one is kept by the writer's owner, freed with it; its buffer may
  ** become the document's, so it comes from the document's allocator */
  b->w = jj_writer_new_ahead(s, keep_rows, b, b->o.alloc, b->o.memory, &err);
  if (!b->w) {
    jj_schema_free(s);
    ic_fail(&b->x, err.code, UINT64_MAX, 0, "%s", err.message);
    return b->failed = err.code;
  }
  b->ahead_schema = s;
  for (size_t i = 0; i < t->n; i++)
    if (t->cols[i].forced) t->cols[i].type = t->cols[i].forced;
  b->ahead = 1;
  return JJ_OK;
}

/* Stop writing ahead: the writer and its rows go. */
static void end_ahead(jj_builder *b) {
  jj_writer_free(b->w);
  b->w = NULL;
  jj_schema_free(b->ahead_schema);
  b->ahead_schema = NULL;
  jj_spool_free(&b->ahead_rows);
  b->ahead = 0;
  b->ahead_off = 1;
}

/* The rows of one piece of the rows' bytes (whole rows, joined by ",\n")
** read back, each onto the tape as a row of entries, nulls left out. */
static jj_code replay_piece(jj_builder *b, const jj_buf *head,
                            const char *rows, size_t len) {
  const ic_table *t = &b->x.top;
  jj_buf doc = {0};
  jj_error err;
  jj_code code = JJ_OK;
  if (jj_buf_append(&doc, head->p, head->len) ||
      jj_buf_append(&doc, rows, len) || jj_buf_append(&doc, "\n]}", 3)) {
    jj_buf_free(&doc);
    return build_nomem(b);
  }
  jj_doc *d = jj_parse(doc.p, doc.len, &err);
  jj_cursor *cur = d ? jj_cursor_new(d, &err) : NULL;
  int r = cur ? jj_cursor_next(cur, &err) : -1;
  for (; r == 1 && !code; r = jj_cursor_next(cur, &err)) {
    if (b->tape.len > b->o.memory && build_spill(b)) break;
    size_t at = b->last_at = b->tape.len;
    if (jj_buf_reserve(&b->tape, 4)) {
      code = JJ_ERR_NOMEM;
      ic_nomem(&b->x);
      b->failed = code;
      break;
    }
    b->tape.len += 4;
    for (size_t i = 0; i < t->n && !code && r == 1; i++) {
      int64_t v;
      double f;
      int yes;
      const char *p;
      const unsigned char *u;
      size_t n;
      if (jj_cursor_is_null(cur, i)) continue;
      switch (b->ahead_types[i]) {
        case JJ_INT:
          if ((r = jj_cursor_int(cur, i, &v, &err)) == 1)
            code = build_tape_put(b, OP_INT, i, &v, 8, 0);
          break;
        case JJ_FLOAT:
          if ((r = jj_cursor_double(cur, i, &f, &err)) == 1)
            code = build_tape_put(b, OP_FLOAT, i, &f, 8, 0);
          break;
        case JJ_BOOL:
          if ((r = jj_cursor_bool(cur, i, &yes, &err)) == 1)
            code = build_tape_put(b, yes ? OP_TRUE : OP_FALSE, i, NULL, 0, 0);
          break;
        case JJ_BYTES:
          if ((r = jj_cursor_bytes(cur, i, &u, &n, &err)) == 1)
            code = build_tape_put(b, OP_BYTES, i, u, n, 1);
          break;
        default: /* text, dates, timestamps: as the host gave them */
          if ((r = jj_cursor_text(cur, i, &p, &n, &err)) == 1)
            code = build_tape_put(b, OP_TEXT, i, p, n, 1);
          break;
      }
    }
    if (code || r != 1) break;
    uint32_t n32 = (uint32_t)(b->tape.len - at - 4);
    memcpy(b->tape.p + at, &n32, 4);
  }
  jj_cursor_free(cur);
  jj_doc_free(d);
  jj_buf_free(&doc);
  if (b->failed) return b->failed;
  if (r == 0) return JJ_OK;
  /* the rows were written by this library a moment ago */
  return build_fail(b, JJ_ERR_USAGE, "the rows written ahead do not read back");
}

/* The rows kept read back: pieces gathered until they hold whole rows. */
typedef struct rows_back {
  jj_builder *b;
  const jj_buf *head;
  jj_buf piece; /* rows read, the last maybe not whole */
  jj_code code;
} rows_back;

/* jj_spool_replay's each: the whole rows of what came so far onto the
** tape, the rest kept for the next piece.  0, or 1 after a failure. */
static int row_pieces(void *ctx, const char *p, size_t len) {
  rows_back *r = ctx;
  if (jj_buf_append(&r->piece, p, len)) {
    r->code = build_nomem(r->b);
    return 1;
  }
  size_t cut = r->piece.len;
  while (cut && r->piece.p[cut - 1] != '\n') cut--;
  if (cut < 2) return 0; /* one row longer than the piece: read on */
  r->code = replay_piece(r->b, r->head, r->piece.p, cut - 2); /* less ",\n" */
  memmove(r->piece.p, r->piece.p + cut, r->piece.len - cut);
  r->piece.len -= cut;
  return r->code != JJ_OK;
}

/* Every row written ahead, back onto the (empty) tape, in order. */
static jj_code replay(jj_builder *b) {
  jj_buf head = {0};
  jj_schema *s = ahead_schema(b);
  jj_code code = s ? header_text(b, s, &head) : JJ_ERR_NOMEM;
  jj_schema_free(s);
  if (code) {
    jj_buf_free(&head);
    return b->failed ? b->failed : build_nomem(b);
  }
  if (jj_writer_rows_flush(b->w)) {
    jj_buf_free(&head);
    return build_writer_failed(b);
  }
  /* the rows kept, in pieces of whole rows (joined by ",\n") */
  rows_back r = {b, &head, {0}, JJ_OK};
  int rc = jj_spool_replay(&b->ahead_rows, row_pieces, &r);
  if (!rc && !r.code && r.piece.len) /* the last rows */
    r.code = replay_piece(b, &head, r.piece.p, r.piece.len);
  if (rc < 0 && !r.code)
    r.code = build_fail(b, JJ_ERR_IO, "cannot read the temporary file back");
  jj_buf_free(&r.piece);
  jj_buf_free(&head);
  return r.code ? b->failed : JJ_OK;
}

/* A row does not keep to the types: the rows written so far go back onto
** the tape, then the row just ended, and the builder goes on with the
** tape alone.  The row's first next_col values went to the writer as they
** came: the row is ended there with nulls and read back with the others,
** its values the start of the row on the tape (nulls are left out). */
static jj_code give_up(jj_builder *b) {
  jj_buf row = {0};
  size_t k = b->next_col;
  for (size_t i = k; k && i < b->x.top.n; i++)
    if (jj_writer_null(b->w)) break;
  if ((k && jj_writer_end_row(b->w)) ||
      jj_buf_append(&row, b->tape.p + b->row_at + 4,
                    b->tape.len - b->row_at - 4)) {
    jj_buf_free(&row);
    return jj_writer_error(b->w)->code ? build_writer_failed(b)
                                       : build_nomem(b);
  }
  b->tape.len = 0;
  jj_code code = replay(b);
  end_ahead(b);
  b->next_col = 0;
  if (!code) {
    if (k) { /* the last row read back is this one's start */
      b->row_at = b->last_at;
    } else {
      b->row_at = b->tape.len;
      if (jj_buf_append(&b->tape, "\0\0\0\0", 4)) code = JJ_ERR_NOMEM;
    }
    if (!code && jj_buf_append(&b->tape, row.p, row.len)) code = JJ_ERR_NOMEM;
    if (code) {
      ic_nomem(&b->x);
      b->failed = code;
    } else {
      size_t n = b->tape.len - b->row_at - 4;
      if (n > UINT32_MAX) {
        code = build_fail(b, JJ_ERR_LIMIT, "a row holds more than 4 GiB");
      } else {
        uint32_t n32 = (uint32_t)n;
        memcpy(b->tape.p + b->row_at, &n32, 4);
      }
    }
  }
  jj_buf_free(&row);
  return code ? b->failed : JJ_OK;
}

jj_code build_ahead_row(jj_builder *b) {
  if (b->ahead_off) return JJ_OK;
  const char *row = b->tape.p + b->row_at + 4, *end = b->tape.p + b->tape.len;
  if (!b->ahead) {
    if (b->rows != 1 || !may_write_ahead(b)) {
      b->ahead_off = 1;
      return JJ_OK;
    }
    if (!b->ahead_types &&
        !(b->ahead_types = calloc(b->x.top.n, 1)))
      return build_nomem(b);
    for (size_t i = 0; i < b->x.top.n; i++) /* an explicit type holds */
      b->ahead_types[i] = (unsigned char)b->x.top.cols[i].forced;
  }
  int fits = row_fits(b, row, end);
  if (fits < 0) return build_fail(b, JJ_ERR_USAGE, "the rows' tape is broken");
  if (!fits) {
    if (b->ahead) return give_up(b);
    b->ahead_off = 1;
    return JJ_OK;
  }
  if (!b->ahead && begin(b)) return b->failed;
  if (!build_write_row(b, &b->x.top, row, end, b->next_col)) return b->failed;
  b->tape.len = b->row_at;
  b->next_col = 0;
  if (b->o.max_length && jj_writer_length(b->w) > b->o.max_length)
    return build_too_long(b);
  return JJ_OK;
}

jj_code build_ahead_finish(jj_builder *b, jj_sink sink, void *ctx,
                           int *done) {
  ic_table *t = &b->x.top;
  *done = 0;
  if (ic_resolve(&b->x)) return b->failed = b->err.code;
  int same = 1;
  for (size_t i = 0; i < t->n && same; i++)
    same = same_bytes((jj_type)b->ahead_types[i], t->cols[i].type);
  if (!same) {
    if (replay(b)) return b->failed;
    end_ahead(b);
    return JJ_OK;
  }
  jj_writer *ahead_w = b->w;
  if (jj_writer_error(ahead_w)->code) return build_writer_failed(b);
  if (!sink && !b->ahead_rows.file && !b->ahead_rows.mem.len) {
    /* every row still in the writer, the document in memory: the writer
    ** becomes the document's, its header the final one (the same rows; a
    ** type's letter for another, so the same length), nothing copied */
    jj_buf head = {0};
    if (header_text(b, b->x.schema, &head)) {
      jj_buf_free(&head);
      return b->failed;
    }
    int kept = head.len == b->ahead_header &&
               jj_writer_keep(ahead_w, head.p, head.len);
    jj_buf_free(&head);
    if (kept) { /* the writer's schema (ahead_schema) is freed after it */
      jj_spool_free(&b->ahead_rows);
      b->ahead = 0;
      b->ahead_off = 1;
      *done = 1;
      return JJ_OK;
    }
  }
  /* the rows under the final header, by the document's own writer: those
  ** in the temporary file, those kept in memory, those the writer ahead
  ** holds (after its header when it has passed nothing on), in order */
  b->w = NULL;
  jj_code code = build_new_writer(b, sink, ctx);
  jj_writer *w = b->w;
  b->w = ahead_w;
  if (code) return b->failed;
  if (jj_spool_replay(&b->ahead_rows, jj_writer_append_piece, w))
    code = JJ_ERR_IO;
  if (!code) {
    size_t held;
    const char *rows = jj_writer_held(ahead_w, &held);
    size_t head = b->ahead_skip < held ? b->ahead_skip : held;
    code = jj_writer_append_rows(w, rows + head, held - head, b->rows);
  }
  end_ahead(b);
  b->w = w;
  if (code) {
    if (!jj_writer_error(w)->code)
      return build_fail(b, JJ_ERR_IO, "cannot read the temporary file back");
    return build_writer_failed(b);
  }
  *done = 1;
  return JJ_OK;
}

void build_ahead_free(jj_builder *b) {
  jj_schema_free(b->ahead_schema);
  b->ahead_schema = NULL;
  jj_spool_free(&b->ahead_rows);
  free(b->ahead_types);
  b->ahead_types = NULL;
}
