/*
** writer.c — jj_writer: values in, canonical jalapenojson out.
**
** The output is exactly the canonical layout, byte for byte:
**
**   {"jalapenojson":1,"columns":["id","tags"],"types":["i",{"columns":
**   ["t"],"types":["s"]}],"meta":{"by":"x"},"rows":[
**   [1,[["a"],["b"]]],
**   [2,null]
**   ]}
**
** (the header is one line; it is wrapped here only to fit).  The header is
** written with the first value, so jj_writer_set_meta can come after
** jj_writer_new.  Top-level rows are separated by ",\n", nested rows by ",".
**
** Speed: every value reserves its worst-case size once, then writes
** straight into the buffer (no per-byte bounds checks).  The common case of
** a value is inline: the column types are cached in flat arrays (a `level`
** per schema), the room check is one comparison, and the uncommon cases
** (header not written, dead writer, wrong kind, buffer full) go to one
** out-of-line function that does the full checks in their usual order.
** Text that is plain printable ASCII (nothing to escape, nothing to
** validate) is checked and copied 8 bytes at a time in one pass; any other
** text is checked by jj_utf8_valid and escaped by jj_string_escape.
**
** Nesting: a stack of frames, one per open table (frame 0 is the document).
** A frame knows its schema, how many values the current row has, and how
** many rows ended.  jj_writer_begin_table pushes, jj_writer_end_table pops.
**
** Errors: the first error is kept in w->err and the writer is dead: every
** later call returns the same code.  Places are named like the reader's:
**   row 5, column "joined": "2023-02-30" is not a date (...)
**   row 3, column "items", row 2, column "sku": "\xff" is not valid UTF-8
**
** Memory: the writer owns its buffer and the meta copy; jj_writer_free
** releases them; jj_writer_take hands the buffer to the caller (jj_free).
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* Sink mode: pass the buffer on once it holds this much. */
#define FLUSH_AT 65536

/* The column types of one schema (the top level or a nested table) as a
** flat array, so the value path reads a byte instead of calling into
** schema.c; sub[i] is the level of nested column i.  Built once by
** jj_writer_new (level_new) and freed by jj_writer_free (level_free). */
typedef struct level {
  size_t ncols;
  struct level **sub;    /* ncols entries, NULL unless JJ_TABLE; or NULL
                         ** when the schema has no nested column */
  unsigned char types[]; /* ncols jj_type letters */
} level;

/* One open table. */
typedef struct frame {
  const jj_schema *s; /* borrowed from the writer's schema */
  const level *lv;    /* the cached types of s, owned by the writer */
  size_t ncols;
  size_t col;   /* values written in the current row */
  int64_t rows; /* rows ended in this table */
} frame;

struct jj_writer {
  const jj_schema *schema; /* borrowed: the caller keeps it alive */
  jj_sink sink;            /* NULL: build in memory */
  void *ctx;
  jj_buf out; /* owned; handed over by jj_writer_take */
  char *meta; /* owned copy of the meta JSON, or NULL */
  size_t meta_len;
  int started;  /* the header is written */
  int finished; /* jj_writer_finish succeeded */
  level *top;   /* owned: the cached types of `schema` (level_free) */
  frame *stack; /* owned, max_depth frames */
  size_t depth; /* index of the innermost open table */
  size_t max_depth;
  jj_error err; /* the first error; code JJ_OK while alive */
};

/* ---------------------------------------------------------------------- */
/* Errors                                                                  */
/* ---------------------------------------------------------------------- */

/* Build the place of the current row for a message: frames above the
** innermost become the path ("row 3, column "items", "), the innermost
** gives row and (if with_column) the column. */
static jj_code writer_vfail(jj_writer *w, jj_code code, int with_column,
                            const char *fmt, va_list ap) {
  char path[256];
  size_t used = 0;
  frame *f = &w->stack[w->depth];
  jj_where where = {f->rows + 1, -1, NULL, JJ_NO_OFFSET, NULL, 0, -1};
  path[0] = '\0';
  for (size_t i = 0; i < w->depth && used < sizeof path; i++) {
    int n =
        snprintf(path + used, sizeof path - used, "row %lld, column \"%s\", ",
                 (long long)(w->stack[i].rows + 1),
                 jj_schema_name(w->stack[i].s, w->stack[i].col, NULL));
    if (n < 0) break;
    used += (size_t)n;
  }
  if (w->depth) {
    where.path = path;
    where.outer_row = w->stack[0].rows + 1;
    where.outer_column = (int)w->stack[0].col;
  }
  if (with_column && f->col < f->ncols) {
    where.column = (int)f->col;
    where.column_name = jj_schema_name(f->s, f->col, NULL);
  }
  return jj_vfail(&w->err, code, &where, fmt, ap);
}

/* Fail naming the row and column of the value being written. */
static jj_code value_fail(jj_writer *w, jj_code code, const char *fmt, ...)
    JJ_PRINTF(3, 4);
static jj_code value_fail(jj_writer *w, jj_code code, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  writer_vfail(w, code, 1, fmt, ap);
  va_end(ap);
  return code;
}

/* Fail naming the row only (value counts, column kinds: the message names
** the column itself). */
static jj_code row_fail(jj_writer *w, jj_code code, const char *fmt, ...)
    JJ_PRINTF(3, 4);
static jj_code row_fail(jj_writer *w, jj_code code, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  writer_vfail(w, code, 0, fmt, ap);
  va_end(ap);
  return code;
}

/* A column-kind error: the message names the column, the error's column
** field holds it too (at the top level; nested, it is the outer one). */
static jj_code kind_fail(jj_writer *w, const char *fmt, ...) JJ_PRINTF(2, 3);
static jj_code kind_fail(jj_writer *w, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  writer_vfail(w, JJ_ERR_USAGE, 0, fmt, ap);
  va_end(ap);
  if (w->depth == 0 && w->stack[0].col < w->stack[0].ncols)
    w->err.column = (int)w->stack[0].col;
  return JJ_ERR_USAGE;
}

/* Out of memory kills the writer like any other error. */
static jj_code nomem(jj_writer *w) {
  return jj_fail(&w->err, JJ_ERR_NOMEM, NULL, "out of memory");
}

/* Take over an error from elsewhere (the reader, during jj_writer_copy). */
static jj_code adopt(jj_writer *w, const jj_error *e) {
  w->err = *e;
  return e->code;
}

/* ---------------------------------------------------------------------- */
/* Creating, the header                                                    */
/* ---------------------------------------------------------------------- */

/* Levels of nested tables in s, counting s itself; 0 when a table has no
** columns (the format needs at least one). */
static size_t schema_depth(const jj_schema *s) {
  size_t deepest = 0, n = jj_schema_columns(s);
  if (n == 0) return 0;
  for (size_t i = 0; i < n; i++) {
    const jj_schema *t = jj_schema_table(s, i);
    if (t) {
      size_t d = schema_depth(t);
      if (d == 0) return 0;
      if (d > deepest) deepest = d;
    }
  }
  return deepest + 1;
}

/* Free a level and the levels below it.  NULL is a no-op. */
static void level_free(level *lv) {
  if (!lv) return;
  if (lv->sub)
    for (size_t i = 0; i < lv->ncols; i++) level_free(lv->sub[i]);
  free(lv->sub);
  free(lv);
}

/* The cached types of s and of its nested tables; NULL when out of
** memory.  Freed with level_free. */
static level *level_new(const jj_schema *s) {
  size_t n = jj_schema_columns(s);
  level *lv = malloc(sizeof *lv + n);
  if (!lv) return NULL;
  lv->ncols = n;
  lv->sub = NULL;
  for (size_t i = 0; i < n; i++) {
    lv->types[i] = (unsigned char)jj_schema_type(s, i);
    if (lv->types[i] != JJ_TABLE) continue;
    if (!lv->sub && !(lv->sub = calloc(n, sizeof *lv->sub))) goto oom;
    if (!(lv->sub[i] = level_new(jj_schema_table(s, i)))) goto oom;
  }
  return lv;
oom:
  level_free(lv); /* sub entries not yet built are NULL (calloc) */
  return NULL;
}

/* The writer borrows s; its frames are sized by the schema's nesting.  In
** sink mode the buffer starts at its full 64 KiB so it never grows for
** ordinary values. */
jj_writer *jj_writer_new(const jj_schema *s, jj_sink sink, void *ctx,
                         jj_error *err) {
  if (!s) {
    jj_fail(err, JJ_ERR_USAGE, NULL, "jj_writer_new needs a schema");
    return NULL;
  }
  size_t depth = schema_depth(s);
  if (depth == 0) {
    jj_fail(err, JJ_ERR_USAGE, NULL, "a table needs at least one column");
    return NULL;
  }
  jj_writer *w = calloc(1, sizeof *w);
  if (!w) goto oom;
  w->schema = s;
  w->sink = sink;
  w->ctx = ctx;
  w->max_depth = depth;
  w->stack = calloc(w->max_depth, sizeof *w->stack);
  w->top = level_new(s);
  if (!w->stack || !w->top || jj_buf_reserve(&w->out, sink ? FLUSH_AT + 4096 : 4096)) {
    jj_writer_free(w);
    goto oom;
  }
  w->stack[0].s = s;
  w->stack[0].lv = w->top;
  w->stack[0].ncols = jj_schema_columns(s);
  jj_error_clear(&w->err);
  return w;
oom:
  jj_fail(err, JJ_ERR_NOMEM, NULL, "out of memory");
  return NULL;
}

/* "columns":[...],"types":[...] of s, nested schemas as objects. */
static int put_schema(jj_buf *b, const jj_schema *s) {
  size_t n = jj_schema_columns(s);
  if (jj_buf_append(b, "\"columns\":[", 11)) return -1;
  for (size_t i = 0; i < n; i++) {
    size_t len;
    const char *name = jj_schema_name(s, i, &len);
    if ((i && jj_buf_append(b, ",", 1)) || jj_string_escape(b, name, len))
      return -1;
  }
  if (jj_buf_append(b, "],\"types\":[", 11)) return -1;
  for (size_t i = 0; i < n; i++) {
    jj_type t = jj_schema_type(s, i);
    if (i && jj_buf_append(b, ",", 1)) return -1;
    if (t == JJ_TABLE) {
      if (jj_buf_append(b, "{", 1) || put_schema(b, jj_schema_table(s, i)) ||
          jj_buf_append(b, "}", 1))
        return -1;
    } else {
      char q[3] = {'"', jj_type_letter(t), '"'};
      if (jj_buf_append(b, q, 3)) return -1;
    }
  }
  return jj_buf_append(b, "]", 1);
}

/* Write the header up to and including "rows":[ and its newline. */
static jj_code put_header(jj_writer *w) {
  w->started = 1;
  if (jj_buf_append(&w->out, "{\"jalapenojson\":1,", 18) ||
      put_schema(&w->out, w->schema) ||
      (w->meta && (jj_buf_append(&w->out, ",\"meta\":", 8) ||
                   jj_buf_append(&w->out, w->meta, w->meta_len))) ||
      jj_buf_append(&w->out, ",\"rows\":[\n", 10))
    return nomem(w);
  return JJ_OK;
}

/* Check json is one JSON value (whitespace around it is dropped) and keep
** a copy for the header; a later call replaces it. */
jj_code jj_writer_set_meta(jj_writer *w, const char *json, size_t len) {
  const char *bad, *why;
  jj_code code;
  if (w->err.code) return w->err.code;
  if (w->started || w->finished)
    return jj_fail(&w->err, JJ_ERR_USAGE, NULL,
                   "meta must be set before the first value");
  const char *p = json ? jj_json_ws(json, json + len) : NULL;
  if (!p || p == json + len)
    return jj_fail(&w->err, JJ_ERR_SYNTAX, NULL, "meta is empty");
  const char *end =
      jj_json_skip(p, json + len, JJ_DEFAULT_MAX_DEPTH, &bad, &code, &why);
  if (!end)
    return jj_fail(&w->err, code, NULL, "meta, byte %zu: %s",
                   (size_t)(bad - json), why);
  const char *rest = jj_json_ws(end, json + len);
  if (rest != json + len)
    return jj_fail(&w->err, JJ_ERR_SYNTAX, NULL,
                   "meta, byte %zu: more than one JSON value",
                   (size_t)(rest - json));
  char *copy = malloc((size_t)(end - p));
  if (!copy) return nomem(w);
  memcpy(copy, p, (size_t)(end - p));
  free(w->meta);
  w->meta = copy;
  w->meta_len = (size_t)(end - p);
  return JJ_OK;
}

/* ---------------------------------------------------------------------- */
/* The value path                                                          */
/* ---------------------------------------------------------------------- */

/* Pass everything buffered to the sink (sink mode). */
static jj_code flush(jj_writer *w) {
  size_t n = w->out.len;
  w->out.len = 0;
  if (n && w->sink(w->ctx, w->out.p, n))
    return jj_fail(&w->err, JJ_ERR_IO, NULL, "write failed");
  return JJ_OK;
}

/* The uncommon reasons a value cannot start: dead, finished, header not
** yet written.  JJ_OK when the value may go on. */
static jj_code begin_slow(jj_writer *w) {
  if (w->err.code) return w->err.code;
  if (w->finished)
    return jj_fail(&w->err, JJ_ERR_USAGE, NULL,
                   "the document is already finished");
  return w->started ? JJ_OK : put_header(w);
}

/* A value beyond the last column of the row. */
static jj_code too_many(jj_writer *w) {
  frame *f = &w->stack[w->depth];
  return row_fail(w, JJ_ERR_USAGE, "%zu values for %zu columns", f->col + 1,
                  f->ncols);
}

/* Room for `need` more bytes plus the separator and slack, without
** growing the buffer. */
static inline int has_room(const jj_writer *w, size_t need) {
  size_t room = w->out.cap - w->out.len;
  return room >= 8 && room - 8 >= need;
}

/* Write the separator before a value (",\n[" or "," or "[" as the row
** and table call for) at d; returns where the value goes. */
static inline char *put_separator(const jj_writer *w, const frame *f,
                                  char *d) {
  if (f->col == 0) {
    if (f->rows) {
      *d++ = ',';
      if (w->depth == 0) *d++ = '\n';
    }
    *d++ = '[';
  } else {
    *d++ = ',';
  }
  return d;
}

/* The checks of a value's start, in the order errors are reported: the
** writer's state, the column count, the column's kind.  JJ_OK when the
** value may go on, else the writer is dead. */
static jj_code value_check(jj_writer *w, jj_type t) {
  if (JJ_UNLIKELY(!w->started || w->err.code || w->finished) && begin_slow(w))
    return w->err.code;
  frame *f = &w->stack[w->depth];
  if (JJ_UNLIKELY(f->col >= f->ncols)) return too_many(w);
  jj_type ct = (jj_type)f->lv->types[f->col];
  if (JJ_UNLIKELY(t && t != ct))
    return kind_fail(w, "column \"%s\" is %s column: use %s",
                     jj_schema_name(f->s, f->col, NULL), jj_type_name(ct),
                     jj_type_writer(ct));
  return JJ_OK;
}

/* Grow the buffer for `need` bytes plus separator and slack. */
static jj_code value_reserve(jj_writer *w, size_t need) {
  if (JJ_UNLIKELY(need > SIZE_MAX - 8 || jj_buf_reserve(&w->out, need + 8)))
    return nomem(w);
  return JJ_OK;
}

/* value_begin when anything is unusual: every check, then the room. */
static char *value_begin_slow(jj_writer *w, jj_type t, size_t need) {
  if (value_check(w, t) || value_reserve(w, need)) return NULL;
  return put_separator(w, &w->stack[w->depth], w->out.p + w->out.len);
}

/* Start a value of kind t (0: null, fits any column) that needs at most
** `need` bytes: check the row and column, reserve, write the separator.
** Returns where the value goes (out.len not yet advanced), or NULL with
** the writer dead.  Inline: this is every value's path. */
static inline char *value_begin(jj_writer *w, jj_type t, size_t need) {
  frame *f = &w->stack[w->depth];
  if (JJ_UNLIKELY(!w->started || w->err.code || w->finished ||
                  f->col >= f->ncols ||
                  (t && t != (jj_type)f->lv->types[f->col]) ||
                  !has_room(w, need)))
    return value_begin_slow(w, t, need);
  return put_separator(w, f, w->out.p + w->out.len);
}

/* The value ended at d: count it, flush when the buffer is full. */
static inline jj_code value_end(jj_writer *w, char *d) {
  w->out.len = (size_t)(d - w->out.p);
  w->stack[w->depth].col++;
  if (w->sink && w->out.len >= FLUSH_AT) return flush(w);
  return JJ_OK;
}

/* Write p[0..len) as a JSON string into a column of kind t; the caller
** has checked it (UTF-8, date, timestamp). */
static jj_code put_string(jj_writer *w, jj_type t, const char *p, size_t len) {
  if (len > (SIZE_MAX - 16) / 6) return nomem(w);
  char *d = value_begin(w, t, JJ_ESCAPED_MAX(len));
  if (!d) return w->err.code;
  w->out.len = (size_t)(d - w->out.p);
  jj_string_escape(&w->out, p, len); /* cannot fail: room is reserved */
  return value_end(w, w->out.p + w->out.len);
}

/* Bytes that JSON text needs no escape for and that are valid UTF-8 on
** their own: printable ASCII 0x20-0x7F except '"' and '\\' (the escaping
** rule itself lives in jj_string_escape, text.c). */
#define ONES UINT64_C(0x0101010101010101)
#define HIGHS UINT64_C(0x8080808080808080)

/* Nonzero when one of the 8 bytes of w is not plain: a high bit, a
** control character, '"' or '\\'.  Exact as a yes/no (the carries of the
** subtractions only reach bytes above a byte that already matched). */
static inline uint64_t not_plain8(uint64_t w) {
  uint64_t q = w ^ (ONES * '"'), b = w ^ (ONES * '\\');
  return (w | ((w - ONES * 0x20) & ~w) | ((q - ONES) & ~q) |
          ((b - ONES) & ~b)) &
         HIGHS;
}

/* Copy p[0..len) to d when every byte is plain, 8 bytes at a time (the
** last word overlaps the one before; d has room for len rounded up to 8).
** Returns 1 when copied, 0 when some byte is not plain (d then holds
** garbage that the caller overwrites). */
static inline int copy_plain(char *d, const char *p, size_t len) {
  uint64_t x, bad = 0;
  if (len >= 8) {
    size_t i = 0;
    for (; i + 8 < len; i += 8) {
      memcpy(&x, p + i, 8);
      bad |= not_plain8(x);
      memcpy(d + i, &x, 8);
    }
    memcpy(&x, p + len - 8, 8);
    bad |= not_plain8(x);
    memcpy(d + len - 8, &x, 8);
    return bad == 0;
  }
  if (len >= 4) { /* two 4-byte words, overlapping when len < 8 */
    uint32_t a, b;
    memcpy(&a, p, 4);
    memcpy(&b, p + len - 4, 4);
    x = (uint64_t)a | (uint64_t)b << 32;
    memcpy(d, &a, 4);
    memcpy(d + len - 4, &b, 4);
    return not_plain8(x) == 0;
  }
  for (size_t i = 0; i < len; i++) { /* 0-3 bytes */
    unsigned char c = (unsigned char)p[i];
    if (c < 0x20 || c >= 0x80 || c == '"' || c == '\\') return 0;
    d[i] = (char)c;
  }
  return 1;
}

/* ---------------------------------------------------------------------- */
/* Values                                                                  */
/* ---------------------------------------------------------------------- */

/* null fits every column, nested tables included. */
jj_code jj_writer_null(jj_writer *w) {
  char *d = value_begin(w, 0, 4);
  if (!d) return w->err.code;
  memcpy(d, "null", 4);
  return value_end(w, d + 4);
}

/* Decimal, INT64_MIN included (num.h). */
jj_code jj_writer_int(jj_writer *w, int64_t v) {
  char *d = value_begin(w, JJ_INT, 24);
  if (!d) return w->err.code;
  return value_end(w, d + jj_num_format_int64(v, d));
}

/* Shortest round trip; non-finite values as the strings the format uses. */
jj_code jj_writer_double(jj_writer *w, double v) {
  char *d = value_begin(w, JJ_FLOAT, 32);
  if (!d) return w->err.code;
  if (isnan(v)) {
    memcpy(d, "\"NaN\"", 5);
    d += 5;
  } else if (isinf(v)) {
    const char *s = v > 0 ? "\"Infinity\"" : "\"-Infinity\"";
    size_t n = strlen(s);
    memcpy(d, s, n);
    d += n;
  } else {
    d += jj_num_format_double(v, d);
  }
  return value_end(w, d);
}

/* Any nonzero v is true. */
jj_code jj_writer_bool(jj_writer *w, int v) {
  char *d = value_begin(w, JJ_BOOL, 5);
  if (!d) return w->err.code;
  memcpy(d, v ? "true" : "false", v ? 4 : 5);
  return value_end(w, d + (v ? 4 : 5));
}

/* Text must be valid UTF-8; it is escaped minimally (internal.h).  Plain
** ASCII is copied by copy_plain in the same pass that checks it; anything
** else goes the slow way (jj_utf8_valid, then jj_string_escape).  Errors
** come in the same order on both paths: the place (state, column kind),
** then UTF-8, then memory. */
jj_code jj_writer_text(jj_writer *w, const char *p, size_t len) {
  char shown[JJ_SHOW_CAP];
  frame *f = &w->stack[w->depth];
  if (JJ_LIKELY(w->started && !w->err.code && !w->finished &&
                f->col < f->ncols && f->lv->types[f->col] == JJ_TEXT &&
                len < SIZE_MAX / 2 && has_room(w, len + 2))) {
    /* room: the quotes and the text; the separator is in the slack */
    char *d = put_separator(w, f, w->out.p + w->out.len);
    if (JJ_LIKELY(copy_plain(d + 1, p, len))) {
      d[0] = '"';
      d[len + 1] = '"';
      return value_end(w, d + len + 2);
    }
  }
  if (value_check(w, JJ_TEXT)) return w->err.code;
  if (JJ_UNLIKELY(!jj_utf8_valid(p, len, NULL)))
    return value_fail(w, JJ_ERR_UTF8, "%s is not valid UTF-8",
                      jj_show(shown, sizeof shown, p, len, 1));
  return put_string(w, JJ_TEXT, p, len);
}

/* Dates are checked by chrono.c; its message follows the place. */
jj_code jj_writer_date(jj_writer *w, const char *p, size_t len) {
  jj_error e;
  char *d = value_begin(w, JJ_DATE, 12);
  if (!d) return w->err.code;
  if (JJ_UNLIKELY(jj_date_parse(p, len, NULL, &e) != JJ_OK))
    return value_fail(w, e.code, "%s", e.message);
  d[0] = '"';
  memcpy(d + 1, p, 10);
  d[11] = '"';
  return value_end(w, d + 12);
}

/* Days since 1970-01-01, written as YYYY-MM-DD (years 0000-9999). */
jj_code jj_writer_date_days(jj_writer *w, int32_t days) {
  char *d = value_begin(w, JJ_DATE, 12);
  if (!d) return w->err.code;
  if (jj_date_format(days, d + 1))
    return value_fail(w, JJ_ERR_DATE,
                      "day %ld is not a date in the years 0000-9999",
                      (long)days);
  d[0] = '"';
  d[11] = '"';
  return value_end(w, d + 12);
}

/* Timestamp text is checked by chrono.c and written as given. */
jj_code jj_writer_timestamp(jj_writer *w, const char *p, size_t len) {
  jj_error e;
  /* a valid timestamp is at most 35 bytes: reserve for that */
  char *d = value_begin(w, JJ_TIMESTAMP, 40);
  if (!d) return w->err.code;
  if (JJ_UNLIKELY(jj_timestamp_parse(p, len, NULL, &e)))
    return value_fail(w, e.code, "%s", e.message);
  *d++ = '"';
  memcpy(d, p, len);
  d += len;
  *d++ = '"';
  return value_end(w, d);
}

/* A timestamp from numbers, in its own zone with ts->digits digits. */
jj_code jj_writer_timestamp_value(jj_writer *w, const jj_timestamp *ts) {
  char *d = value_begin(w, JJ_TIMESTAMP, 42);
  if (!d) return w->err.code;
  size_t n = jj_timestamp_format(ts, d + 1);
  if (n == 0)
    return value_fail(w, JJ_ERR_TIMESTAMP,
                      "%lld seconds, %ld nanoseconds, zone %d minutes, %d "
                      "digits is not a timestamp in the years 0000-9999",
                      (long long)ts->seconds, (long)ts->nanos,
                      (int)ts->zone_minutes, (int)ts->digits);
  d[0] = '"';
  d[n + 1] = '"';
  return value_end(w, d + n + 2);
}

/* Bytes as padded standard base64, encoded straight into the buffer. */
jj_code jj_writer_bytes(jj_writer *w, const void *p, size_t len) {
  if (len > SIZE_MAX / 2) return nomem(w);
  char *d = value_begin(w, JJ_BYTES, JJ_BASE64_LEN(len) + 2);
  if (!d) return w->err.code;
  *d++ = '"';
  d += jj_base64_encode(p, len, d);
  *d++ = '"';
  return value_end(w, d);
}

/* ---------------------------------------------------------------------- */
/* Rows and nested tables                                                  */
/* ---------------------------------------------------------------------- */

/* Open a nested table value: '[' now, rows follow in a new frame. */
jj_code jj_writer_begin_table(jj_writer *w) {
  char *d = value_begin(w, JJ_TABLE, 1);
  if (!d) return w->err.code;
  frame *f = &w->stack[w->depth];
  *d++ = '[';
  w->out.len = (size_t)(d - w->out.p);
  frame *inner = &w->stack[++w->depth]; /* depth < max_depth: the schema
                                        ** has a level below this one */
  inner->s = jj_schema_table(f->s, f->col);
  inner->lv = f->lv->sub[f->col];
  inner->ncols = jj_schema_columns(inner->s);
  inner->col = 0;
  inner->rows = 0;
  return JJ_OK;
}

/* An unfinished row, reported like the reader's row errors. */
static jj_code short_row(jj_writer *w) {
  frame *f = &w->stack[w->depth];
  return row_fail(w, JJ_ERR_USAGE, "%zu values for %zu columns", f->col,
                  f->ncols);
}

/* Close the nested table (no row may be half written); it counts as one
** value of the enclosing row. */
jj_code jj_writer_end_table(jj_writer *w) {
  if (w->err.code) return w->err.code;
  if (w->depth == 0)
    return jj_fail(&w->err, JJ_ERR_USAGE, NULL,
                   "jj_writer_end_table without jj_writer_begin_table");
  if (w->stack[w->depth].col) return short_row(w);
  if (jj_buf_reserve(&w->out, 1)) return nomem(w);
  w->out.p[w->out.len++] = ']';
  w->depth--;
  return value_end(w, w->out.p + w->out.len);
}

/* Close the row; its first value wrote the separator and the '['. */
jj_code jj_writer_end_row(jj_writer *w) {
  if (JJ_UNLIKELY(!w->started || w->err.code || w->finished) && begin_slow(w))
    return w->err.code;
  frame *f = &w->stack[w->depth];
  if (JJ_UNLIKELY(f->col < f->ncols)) return short_row(w);
  if (JJ_UNLIKELY(w->out.len == w->out.cap) && jj_buf_reserve(&w->out, 1))
    return nomem(w);
  w->out.p[w->out.len++] = ']'; /* the first value opened the row */
  f->col = 0;
  f->rows++;
  if (w->sink && w->out.len >= FLUSH_AT) return flush(w);
  return JJ_OK;
}

int64_t jj_writer_rows(const jj_writer *w) { return w->stack[0].rows; }

/* Close the document (the header too, when no row was written) and flush
** it in sink mode. */
jj_code jj_writer_finish(jj_writer *w) {
  if (w->err.code) return w->err.code;
  if (w->finished)
    return jj_fail(&w->err, JJ_ERR_USAGE, NULL,
                   "the document is already finished");
  if (w->depth)
    return row_fail(w, JJ_ERR_USAGE,
                    "nested table not ended (use jj_writer_end_table)");
  if (w->stack[0].col) return short_row(w);
  if (!w->started && put_header(w)) return w->err.code;
  /* one spare byte for the NUL jj_writer_take adds */
  if (jj_buf_reserve(&w->out, 4)) return nomem(w);
  if (w->stack[0].rows) w->out.p[w->out.len++] = '\n';
  memcpy(w->out.p + w->out.len, "]}", 2);
  w->out.len += 2;
  w->finished = 1;
  return w->sink ? flush(w) : JJ_OK;
}

/* Hand over the finished buffer (caller frees with jj_free); once. */
char *jj_writer_take(jj_writer *w, size_t *len) {
  if (!w->finished || w->sink || w->err.code || !w->out.p) return NULL;
  char *p = w->out.p;
  p[w->out.len] = '\0'; /* room reserved by jj_writer_finish */
  if (len) *len = w->out.len;
  w->out.p = NULL;
  w->out.len = w->out.cap = 0;
  return p;
}

const jj_error *jj_writer_error(const jj_writer *w) { return &w->err; }

/* Free the buffer (unless taken), the meta copy and the frames. */
void jj_writer_free(jj_writer *w) {
  if (!w) return;
  jj_buf_free(&w->out);
  free(w->meta);
  free(w->stack);
  level_free(w->top);
  free(w);
}

/* ---------------------------------------------------------------------- */
/* Copying from a cursor                                                   */
/* ---------------------------------------------------------------------- */

static jj_code copy_value(jj_writer *w, jj_cursor *c, size_t col, jj_type t);
static jj_code copy_rows(jj_writer *w, jj_cursor *c);

/* A nested table, row by row (schemas already known to be equal). */
static jj_code copy_table(jj_writer *w, jj_cursor *c, size_t col) {
  jj_error e;
  jj_doc *sub = NULL;
  int r = jj_cursor_table(c, col, &sub, &e);
  if (r < 0) return adopt(w, &e);
  if (r == 0) return jj_writer_null(w);
  jj_code code = jj_writer_begin_table(w);
  jj_cursor *sc = code ? NULL : jj_cursor_new(sub, &e);
  if (!code && !sc) code = adopt(w, &e);
  if (!code) code = copy_rows(w, sc);
  if (!code) code = jj_writer_end_table(w);
  jj_cursor_free(sc);
  jj_doc_free(sub);
  return code;
}

/* Every remaining row of c, each value read with its accessor and written
** unchecked (the caller made sure c's schema is the current table's). */
static jj_code copy_rows(jj_writer *w, jj_cursor *c) {
  const jj_schema *s = jj_doc_schema(jj_cursor_doc(c));
  size_t n = jj_schema_columns(s);
  jj_error e;
  jj_code code = JJ_OK;
  int r;
  while (!code && (r = jj_cursor_next(c, &e)) != 0) {
    if (r < 0) return adopt(w, &e);
    for (size_t k = 0; k < n && !code; k++)
      code = copy_value(w, c, k, jj_schema_type(s, k));
    if (!code) code = jj_writer_end_row(w);
  }
  return code;
}

/* Read column col (of type t) with its accessor and write it; the reader
** has checked the value, so it is written without checking again. */
static jj_code copy_value(jj_writer *w, jj_cursor *c, size_t col, jj_type t) {
  jj_error e;
  int r;
  switch (t) {
    case JJ_INT: {
      int64_t v;
      r = jj_cursor_int(c, col, &v, &e);
      if (r > 0) return jj_writer_int(w, v);
      break;
    }
    case JJ_FLOAT: {
      double v;
      r = jj_cursor_double(c, col, &v, &e);
      if (r > 0) return jj_writer_double(w, v);
      break;
    }
    case JJ_BOOL: {
      int v;
      r = jj_cursor_bool(c, col, &v, &e);
      if (r > 0) return jj_writer_bool(w, v);
      break;
    }
    case JJ_BYTES: {
      const unsigned char *p;
      size_t len;
      r = jj_cursor_bytes(c, col, &p, &len, &e);
      if (r > 0) return jj_writer_bytes(w, p, len);
      break;
    }
    case JJ_TABLE:
      return copy_table(w, c, col);
    default: { /* text, date, timestamp: checked text */
      const char *p;
      size_t len;
      r = jj_cursor_text(c, col, &p, &len, &e);
      if (r > 0) return put_string(w, t, p, len);
      break;
    }
  }
  return r < 0 ? adopt(w, &e) : jj_writer_null(w);
}

/* Copy the rest of a reader's rows into the current table: the schemas
** must be equal, checked once, then every value is copied unchecked. */
jj_code jj_writer_copy_rows(jj_writer *w, jj_cursor *c) {
  if (JJ_UNLIKELY(!w->started || w->err.code || w->finished) && begin_slow(w))
    return w->err.code;
  frame *f = &w->stack[w->depth];
  size_t differs = 0;
  if (f->col != 0)
    return kind_fail(w, "jj_writer_copy_rows needs the start of a row "
                        "(%zu of its %zu values are written)", f->col, f->ncols);
  if (!jj_schema_equal(f->s, jj_doc_schema(jj_cursor_doc(c)), &differs))
    return kind_fail(w, "the source's columns differ from the table's (from "
                        "column %zu)", differs + 1);
  return copy_rows(w, c);
}

/* Copy one value from a reader: the column kinds (and nested schemas)
** must match, then the value is read with its accessor and written. */
jj_code jj_writer_copy(jj_writer *w, jj_cursor *c, size_t col) {
  if (JJ_UNLIKELY(!w->started || w->err.code || w->finished) && begin_slow(w))
    return w->err.code;
  frame *f = &w->stack[w->depth];
  const jj_schema *src = jj_doc_schema(jj_cursor_doc(c));
  size_t differs = 0;
  if (col >= jj_schema_columns(src))
    return kind_fail(w, "source column %zu is out of range (%zu columns)", col,
                     jj_schema_columns(src));
  if (f->col >= f->ncols) return too_many(w);
  jj_type want = jj_schema_type(f->s, f->col);
  jj_type have = jj_schema_type(src, col);
  const char *name = jj_schema_name(f->s, f->col, NULL);
  const char *src_name = jj_schema_name(src, col, NULL);
  if (want != have)
    return kind_fail(w,
                     "column \"%s\" is %s column, the source column \"%s\" "
                     "is %s column",
                     name, jj_type_name(want), src_name, jj_type_name(have));
  if (want == JJ_TABLE && !jj_schema_equal(jj_schema_table(f->s, f->col),
                                           jj_schema_table(src, col), &differs))
    return kind_fail(w,
                     "column \"%s\" and the source column \"%s\" have "
                     "different nested schemas (from nested column %zu)",
                     name, src_name, differs + 1);
  return copy_value(w, c, col, want);
}
