/*
** encode.c — the writer's values: one function per type, each checking
** what its type needs (UTF-8, the calendar) and encoding straight into the
** writer's buffer after the inline start of writer.h, which has reserved
** the value's worst-case size.
**
** Text that is plain printable ASCII (nothing to escape, nothing to
** validate) is checked and copied 8 bytes at a time in one pass; any other
** text is checked by jj_utf8_valid and escaped by jj_string_escape.
*/
#include <math.h>
#include <string.h>

#include "encode_inline.h"

/* See writer.h: escaped into room reserved for the worst case. */
jj_code jj_writer_put_checked(jj_writer *w, jj_type t, const char *p, size_t len) {
  if (len > (SIZE_MAX - 16) / 6) return jj_writer_nomem(w);
  char *d = value_begin(w, t, JJ_ESCAPED_MAX(len));
  if (!d) return w->err.code;
  w->out.len = (size_t)(d - w->out.p);
  jj_string_escape(&w->out, p, len); /* cannot fail: room is reserved */
  return value_end(w, w->out.p + w->out.len);
}

jj_code jj_writer_canonical(jj_writer *w, jj_type t, const char *p,
                            size_t len, int quoted) {
  char *d = value_begin(w, t, len + 2);
  if (!d) return w->err.code;
  if (quoted) *d++ = '"';
  memcpy(d, p, len);
  d += len;
  if (quoted) *d++ = '"';
  return value_end(w, d);
}

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

jj_code jj_writer_double(jj_writer *w, double v) {
  char *d = value_begin(w, JJ_FLOAT, 32);
  if (!d) return w->err.code;
  return value_end(w, put_double(d, v));
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
** then UTF-8, then memory.
** The slow way is a function of its own so that the fast one needs no
** frame: saving and restoring the registers the slow way uses cost about
** 15 instructions a value (callgrind, jj_group's export of 50,000 rows). */
static JJ_W_NOINLINE jj_code text_slow(jj_writer *w, const char *p, size_t len) {
  char shown[JJ_SHOW_CAP];
  if (jj_writer_check(w, JJ_TEXT)) return w->err.code;
  if (JJ_UNLIKELY(!jj_utf8_valid(p, len, NULL)))
    return jj_writer_fail(w, JJ_ERR_UTF8, JJ_W_VALUE, "%s is not valid UTF-8",
                          jj_show(shown, sizeof shown, p, len, 1));
  return jj_writer_put_checked(w, JJ_TEXT, p, len);
}

jj_code jj_writer_text(jj_writer *w, const char *p, size_t len) {
  frame *f = &w->stack[w->depth];
  if (JJ_LIKELY(jj_writer_open(w) && f->col < f->ncols &&
                f->lv->types[f->col] == JJ_TEXT && len < SIZE_MAX / 2 &&
                has_room(w, len + 2))) {
    /* room: the quotes and the text; the separator is in the slack */
    char *d = put_separator(w, f, w->out.p + w->out.len);
    if (JJ_LIKELY(copy_plain(d + 1, p, len))) {
      d[0] = '"';
      d[len + 1] = '"';
      return value_end(w, d + len + 2);
    }
  }
  return text_slow(w, p, len);
}

/* A date jj_date_ok did not accept: chrono.c decides, and words the
** error, which follows the place.  Out of line, as text_slow is. */
static JJ_W_NOINLINE jj_code date_slow(jj_writer *w, const char *p, size_t len) {
  jj_error e;
  if (jj_date_parse(p, len, NULL, &e) == JJ_OK) return JJ_OK;
  return jj_writer_fail(w, e.code, JJ_W_VALUE, "%s", e.message);
}

/* Dates are checked by the calendar: inline for the common case
** (jj_date_ok), else by chrono.c. */
jj_code jj_writer_date(jj_writer *w, const char *p, size_t len) {
  char *d = value_begin(w, JJ_DATE, 12);
  if (!d) return w->err.code;
  if (JJ_UNLIKELY(!jj_date_ok(p, len)) && date_slow(w, p, len))
    return w->err.code;
  return value_end(w, put_date(d, p));
}

/* Days since 1970-01-01, written as YYYY-MM-DD (years 0000-9999). */
jj_code jj_writer_date_days(jj_writer *w, int32_t days) {
  char *d = value_begin(w, JJ_DATE, 12);
  if (!d) return w->err.code;
  if (jj_date_format(days, d + 1))
    return jj_writer_fail(w, JJ_ERR_DATE, JJ_W_VALUE,
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
    return jj_writer_fail(w, e.code, JJ_W_VALUE, "%s", e.message);
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
    return jj_writer_fail(w, JJ_ERR_TIMESTAMP, JJ_W_VALUE,
                          "%lld seconds, %ld nanoseconds, zone %d minutes, %d "
                          "digits is not a timestamp in the years 0000-9999",
                          (long long)ts->seconds, (long)ts->nanos,
                          (int)ts->zone_minutes, (int)ts->digits);
  d[0] = '"';
  d[n + 1] = '"';
  return value_end(w, d + n + 2);
}

/* Local timestamp text is checked by chrono.c and written with a T: the
** T form as given, SQLite's space form with its space made a T. */
jj_code jj_writer_local_timestamp(jj_writer *w, const char *p, size_t len) {
  jj_error e;
  /* a valid local timestamp is at most 29 bytes: reserve for that */
  char *d = value_begin(w, JJ_LOCAL_TIMESTAMP, 40);
  if (!d) return w->err.code;
  if (JJ_UNLIKELY(jj_local_timestamp_parse(p, len, 1, NULL, &e)))
    return jj_writer_fail(w, e.code, JJ_W_VALUE, "%s", e.message);
  *d++ = '"';
  memcpy(d, p, len);
  d[10] = 'T';
  d += len;
  *d++ = '"';
  return value_end(w, d);
}

/* A local timestamp from numbers, with ts->digits digits and no zone. */
jj_code jj_writer_local_timestamp_value(jj_writer *w, const jj_timestamp *ts) {
  char *d = value_begin(w, JJ_LOCAL_TIMESTAMP, 42);
  if (!d) return w->err.code;
  size_t n = jj_local_timestamp_format(ts, d + 1);
  if (n == 0)
    return jj_writer_fail(w, JJ_ERR_TIMESTAMP, JJ_W_VALUE,
                          "%lld seconds, %ld nanoseconds, %d digits is not a "
                          "local timestamp in the years 0000-9999",
                          (long long)ts->seconds, (long)ts->nanos,
                          (int)ts->digits);
  d[0] = '"';
  d[n + 1] = '"';
  return value_end(w, d + n + 2);
}

/* Bytes as padded standard base64, encoded straight into the buffer. */
jj_code jj_writer_bytes(jj_writer *w, const void *p, size_t len) {
  if (len > SIZE_MAX / 2) return jj_writer_nomem(w);
  char *d = value_begin(w, JJ_BYTES, JJ_BASE64_LEN(len) + 2);
  if (!d) return w->err.code;
  *d++ = '"';
  d += jj_base64_encode(p, len, d);
  *d++ = '"';
  return value_end(w, d);
}

/* A JSON value, checked and written in its canonical form straight after
** the separator (json_canon.c).  Its depth limit is the reader's default
** less the two levels each enclosing nested table's rows take, so that
** whatever is written reads back.  JSON's null is the column's null. */
jj_code jj_writer_json(jj_writer *w, const char *p, size_t len) {
  const char *s = len ? jj_json_ws(p, p + len) : p, *e = p + len;
  while (e > s && (e[-1] == ' ' || e[-1] == '\n' || e[-1] == '\r' || e[-1] == '\t')) e--;
  if (e - s == 4 && memcmp(s, "null", 4) == 0) {
    if (jj_writer_check(w, JJ_JSON)) return w->err.code;
    return jj_writer_null(w);
  }
  char *d = value_begin(w, JJ_JSON, 2);
  if (!d) return w->err.code;
  size_t start = w->out.len, bad = 0;
  w->out.len = (size_t)(d - w->out.p);
  unsigned depth = (unsigned)(JJ_DEFAULT_MAX_DEPTH - 2 * w->depth);
  jj_code code = JJ_ERR_SYNTAX;
  const char *why = "";
  if (jj_json_canon(p, len, depth, &w->out, &bad, &code, &why) < 0) {
    w->out.len = start;
    if (code == JJ_ERR_NOMEM) return jj_writer_nomem(w);
    return jj_writer_fail(w, code, JJ_W_VALUE, "not valid JSON: %s (at byte %zu of the value)",
                          why, bad);
  }
  return value_end(w, w->out.p + w->out.len);
}
