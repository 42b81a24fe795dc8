/*
** value.c — reading the values of a cursor's row: one accessor per type
** (jj_cursor_int, jj_cursor_text, ...), each converting and checking the
** one value it is asked for, and jj_cursor_value, which reads a value of
** any type into a jj_value with the same checks and errors.
**
** A value's bytes were found by the row scan (rowscan.c) and stand in the
** cursor's spans.  Text without escapes is handed out in place; text with
** escapes and decoded bytes go to the cursor's scratch memory (cursor.c)
** and are cached for the rest of the row, so reading a value twice does
** not decode it twice.
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "doc.h"
#include "select.h"

/* The accessors a row scan calls for every value (and value_of_type)
** start on a 64-byte boundary (JJ_HOT, internal.h). */
#define JJ_ACCESSOR JJ_HOT

/* The usage error for a call that cannot read this column now. */
static int misuse(const jj_cursor *c, size_t col, const char *fn,
                  jj_error *err) {
  if (!c) return JJ_USAGE(jj_fail(err, JJ_ERR_USAGE, NULL, "%s: no cursor", fn)), -1;
  if (c->state != JJ_CUR_ROW)
    return JJ_USAGE(jj_fail(err, JJ_ERR_USAGE, NULL, "%s: the cursor is not on a row (%s)", fn,
                   c->state == JJ_CUR_BEFORE ? "call jj_cursor_next first"
                   : c->state == JJ_CUR_END  ? "it is past the last row"
                                             : "its last move failed")), -1;
  if (col >= c->ncol)
    return JJ_USAGE(jj_cursor_fail(c, err, JJ_ERR_USAGE, c->row, c->ncol, NULL,
                  "%s: column index %zu is out of range (%zu columns)", fn, col,
                  c->ncol)), -1;
  return JJ_USAGE(jj_cursor_fail(c, err, JJ_ERR_USAGE, c->row, col, NULL,
                "%s cannot read %s column", fn, jj_type_name(c->cols[col].type))), -1;
}

/* The span of column col when the cursor is on a row and the column's type
** is one of t1..t3; NULL after a usage error otherwise. */
static inline const jj_span *value(jj_cursor *c, size_t col, jj_type t1,
                                   jj_type t2, jj_type t3, const char *fn,
                                   jj_error *err) {
  if (JJ_LIKELY(c && col < c->readable)) {
    jj_type t = JJ_CURSOR_TYPE(c, col);
    if (JJ_LIKELY(t == t1 || t == t2 || t == t3)) return jj_cursor_located(c, col, err);
  }
  misuse(c, col, fn, err);
  return NULL;
}

/* "expected <what the column holds>, found <value>" for a value of the
** wrong JSON kind. */
static int wrong_kind(jj_cursor *c, size_t col, const jj_span *s, jj_error *err) {
  char shown[JJ_SHOW_CAP];
  return jj_cursor_fail(c, err, JJ_ERR_TYPE, c->row, col, s->p, "expected %s, found %s",
                jj_type_expect(c->cols[col].type),
                jj_show_value(shown, s->p, JJ_SPAN_LEN(*s))), -1;
}

/* Decode string value s (it has escapes) into scratch memory, checked,
** cached for the rest of the row.  -1 on error. */
static int decoded(jj_cursor *c, size_t col, const jj_span *s, const char **p,
                   size_t *len, jj_error *err) {
  size_t n = JJ_SPAN_LEN(*s) - 2;
  if (!c->dec && !(c->dec = calloc(c->ncol, sizeof *c->dec)))
    return jj_fail(err, JJ_ERR_NOMEM, NULL, "out of memory"), -1;
  jj_decoded *k = &c->dec[col];
  if (k->gen == c->gen && k->p) {
    *p = k->p;
    *len = k->len;
    return 0;
  }
  char *out = jj_cursor_scratch(c, n ? n : 1), shown[JJ_SHOW_CAP];
  if (!out) return jj_fail(err, JJ_ERR_NOMEM, NULL, "out of memory"), -1;
  size_t bad = 0;
  jj_code code = JJ_ERR_SYNTAX;
  const char *why = "";
  size_t m = jj_string_decode(s->p + 1, n, out, &bad, &code, &why);
  if (m == (size_t)-1)
    return jj_cursor_fail(c, err, code, c->row, col, s->p, "%s is not %s (%s)",
                  jj_show(shown, sizeof shown, s->p + 1, n, 1),
                  code == JJ_ERR_UTF8 ? "valid UTF-8" : "a valid JSON string",
                  why), -1;
  *k = (jj_decoded){out, m, c->gen};
  *p = out;
  *len = m;
  return 0;
}

/* The contents of string value s: in place when it has no escapes (not
** yet UTF-8 checked: *checked = 0, or 1 when the scan saw only ASCII), else
** decoded (*checked = 1).  -1 on error. */
static inline int contents(jj_cursor *c, size_t col, const jj_span *s,
                           const char **p, size_t *len, int *checked,
                           jj_error *err) {
  if (JJ_LIKELY(!(s->n & JJ_SPAN_ESC))) {
    *p = s->p + 1;
    *len = JJ_SPAN_LEN(*s) - 2;
    *checked = !(s->n & JJ_SPAN_HIGH);
    return 0;
  }
  *checked = 1;
  return decoded(c, col, s, p, len, err);
}

/* 1 null, 0 not null, -1 not on a row or no such column. */
int jj_cursor_is_null(jj_cursor *c, size_t col) {
  if (!c || col >= c->readable) return -1;
#if JJ_SELECT /* else every span is located */
  const jj_span *s = jj_cursor_located(c, col, NULL);
  if (!s) return -1;
  return *s->p == 'n';
#else
  return *c->v[col].p == 'n';
#endif
}

/* The value's bytes as written, any column type; null gives 0. */
int jj_cursor_raw(jj_cursor *c, size_t col, const char **p, size_t *len,
                  jj_error *err) {
  if (!c || col >= c->readable) return misuse(c, col, "jj_cursor_raw", err);
  const jj_span *s = jj_cursor_located(c, col, err);
#if JJ_SELECT /* else every span is located */
  if (!s) return -1;
#endif
  if (*s->p == 'n') return 0;
  *p = s->p;
  *len = JJ_SPAN_LEN(*s);
  return 1;
}

/* The error of a number the parsers refused with code r (num.h): broken
** grammar is JJ_ERR_SYNTAX; a fraction in an integer column or a value out
** of range (`out_of_range` says which range) is JJ_ERR_RANGE.  Returns -1. */
static int number_fail(jj_cursor *c, size_t col, const jj_span *s, int r,
                       const char *out_of_range, jj_error *err) {
  char shown[JJ_SHOW_CAP];
  jj_show(shown, sizeof shown, s->p, JJ_SPAN_LEN(*s), 0);
  if (r == JJ_NUM_NOT_INTEGER)
    jj_cursor_fail(c, err, JJ_ERR_RANGE, c->row, col, s->p,
                   "%s is not an integer", shown);
  else if (r == JJ_NUM_RANGE)
    jj_cursor_fail(c, err, JJ_ERR_RANGE, c->row, col, s->p, "%s %s", shown,
                   out_of_range);
  else
    jj_cursor_fail(c, err, JJ_ERR_SYNTAX, c->row, col, s->p,
                   "%s is not a valid number", shown);
  return -1;
}

/* The read_* functions below read value s of column col, whose type the
** caller has checked: the bodies of the accessors, inline in them and in
** jj_cursor_value so that neither pays for the other's checks (JJ_INLINE:
** the accessors must not pay a call for the sharing either). */

/* read_int beyond the inline shortcut: a JSON integer that fits int64;
** fractions, exponents and overflow are JJ_ERR_RANGE, broken number
** grammar JJ_ERR_SYNTAX.  Out of line and reached by a tail call, like
** read_double_full. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline))
#endif
static int read_int_full(jj_cursor *c, size_t col, const jj_span *s, int64_t *out,
                         jj_error *err) {
#if JJ_SELECT /* the shortcut declines an unlocated span: locate it */
  if (!(s = jj_cursor_located(c, col, err))) return -1;
#endif
  char ch = *s->p;
  if ((ch >= '0' && ch <= '9') || ch == '-') {
    int r = jj_num_parse_int64(s->p, JJ_SPAN_LEN(*s), out);
    if (JJ_LIKELY(r == JJ_NUM_OK)) return 1;
    return number_fail(c, col, s, r, "does not fit a 64-bit integer", err);
  }
  if (ch == 'n') return 0;
  return wrong_kind(c, col, s, err);
}

/* An integer: the common short one inline (jj_num_short_int checks every byte
** of it: anything else falls through), the rest by read_int_full. */
static JJ_INLINE int read_int(jj_cursor *c, size_t col, const jj_span *s, int64_t *out,
                           jj_error *err) {
  /* s->n unmasked: a string's flags make it far too long for jj_num_short_int */
  if (JJ_LIKELY(jj_num_short_int(s->p, s->n, c->num_lo16, out))) return 1;
  return read_int_full(c, col, s, out, err);
}

/* read_double beyond the inline shortcut: any JSON number, correctly
** rounded, or the strings "NaN", "Infinity", "-Infinity"; overflow to
** infinity is JJ_ERR_RANGE.  Out of line, so that the shortcut's callers
** keep their registers for it and reach this by a tail call. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline))
#endif
static int read_double_full(jj_cursor *c, size_t col, const jj_span *s, double *out,
                            jj_error *err) {
#if JJ_SELECT /* the shortcut declines an unlocated span: locate it */
  if (!(s = jj_cursor_located(c, col, err))) return -1;
#endif
  char ch = *s->p;
  /* the other short numbers (no '.', 8 integer digits, near the end) */
  if (jj_num_short_double_in(s->p, s->n, c->doc->base, c->doc->end, out)) return 1;
  if ((ch >= '0' && ch <= '9') || ch == '-') {
    int r = jj_num_parse_double(s->p, JJ_SPAN_LEN(*s), out);
    if (JJ_LIKELY(r == JJ_NUM_OK)) return 1;
    return number_fail(c, col, s, r, "is out of range for a double", err);
  }
  if (ch == '"') {
    const char *p;
    size_t len;
    int checked;
    if (contents(c, col, s, &p, &len, &checked, err)) return -1;
    if (len == 3 && memcmp(p, "NaN", 3) == 0) *out = NAN;
    else if (len == 8 && memcmp(p, "Infinity", 8) == 0) *out = INFINITY;
    else if (len == 9 && memcmp(p, "-Infinity", 9) == 0) *out = -INFINITY;
    else return wrong_kind(c, col, s, err);
    return 1;
  }
  if (ch == 'n') return 0;
  return wrong_kind(c, col, s, err);
}

/* A float: the common short number inline (num.h checks every byte of it,
** so a string, null or anything else falls through), the rest by
** read_double_full.  s->n unmasked: a string's flags (its top bits) make
** it far too long for the shortcut. */
static JJ_INLINE int read_double(jj_cursor *c, size_t col, const jj_span *s, double *out,
                              jj_error *err) {
  if (JJ_LIKELY(jj_num_dot_double_in(s->p, s->n, c->num_last, out))) return 1;
  return read_double_full(c, col, s, out, err);
}

/* true or false (checked literally when the row was scanned). */
static JJ_INLINE int read_bool(jj_cursor *c, size_t col, const jj_span *s, int *out,
                            jj_error *err) {
  switch (*s->p) {
    case 't': *out = 1; return 1;
    case 'f': *out = 0; return 1;
    case 'n': return 0;
  }
  return wrong_kind(c, col, s, err);
}

/* The contents of a string value of a text, date or timestamp column t
** (see contents): 1, 0 for null, -1 for another kind of value or bad
** contents. */
static inline int string_value(jj_cursor *c, size_t col, const jj_span *s,
                               const char **q, size_t *n, int *checked,
                               jj_error *err) {
  if (JJ_UNLIKELY(*s->p != '"')) {
    if (*s->p == 'n') return 0;
    wrong_kind(c, col, s, err);
    return -1; /* spelled out, not wrong_kind's result, so that gcc sees that
               ** q and n are set whenever 1 is returned */
  }
  return contents(c, col, s, q, n, checked, err) ? -1 : 1;
}

/* Check a date or timestamp's text, the calendar's message prefixed with
** the place. */
static int check_calendar(jj_cursor *c, size_t col, const jj_span *s, jj_type t,
                          const char *p, size_t len, int32_t *days,
                          jj_timestamp *ts, jj_error *err) {
  jj_error e;
  jj_code code = t == JJ_DATE        ? jj_date_parse(p, len, days, &e)
                 : t == JJ_TIMESTAMP ? jj_timestamp_parse(p, len, ts, &e)
                                     : jj_local_timestamp_parse(p, len, 0, ts, &e);
  if (JJ_LIKELY(code == JJ_OK)) return 0;
  return jj_cursor_fail(c, err, code, c->row, col, s->p, "%s", e.message), -1;
}

/* Text of an s, d, t or l column (type t): zero-copy without escapes (UTF-8
** checked for s, the calendar for d and t), else decoded into scratch
** memory. */
static JJ_INLINE int read_text(jj_cursor *c, size_t col, const jj_span *s, jj_type t,
                            const char **p, size_t *len, jj_error *err) {
  const char *q;
  size_t n;
  int checked, r = string_value(c, col, s, &q, &n, &checked, err);
  if (r <= 0) return r;
  if (t == JJ_TEXT) {
    if (!checked && JJ_UNLIKELY(!jj_utf8_valid(q, n, NULL))) {
      char shown[JJ_SHOW_CAP];
      return jj_cursor_fail(c, err, JJ_ERR_UTF8, c->row, col, s->p, "%s is not valid UTF-8",
                    jj_show(shown, sizeof shown, q, n, 1)), -1;
    }
  } else if (t != JJ_DATE || !jj_date_ok(q, n)) {
    jj_timestamp ts;
    int32_t days;
    if (check_calendar(c, col, s, t, q, n, &days, &ts, err)) return -1;
  }
  *p = q;
  *len = n;
  return 1;
}

/* A date's days (t JJ_DATE, *days) or a timestamp's numbers (*ts), and
** the checked text in *p, *len when p is not NULL.  A date that the inline
** check accepts has its days counted from its digits; any other goes to
** the calendar, which says what is wrong. */
static JJ_INLINE int read_calendar(jj_cursor *c, size_t col, const jj_span *s, jj_type t,
                                int32_t *days, jj_timestamp *ts, const char **p,
                                size_t *len, jj_error *err) {
  const char *q;
  size_t n;
  int checked, r = string_value(c, col, s, &q, &n, &checked, err);
  if (r <= 0) return r;
  if (t == JJ_DATE && jj_date_ok(q, n)) {
    if (days) *days = jj_date_days(q);
  } else if (check_calendar(c, col, s, t, q, n, days, ts, err)) return -1;
  if (p) {
    *p = q;
    *len = n;
  }
  return 1;
}

/* Decoded base64 in scratch memory (valid until the cursor moves), cached
** for the rest of the row. */
static int read_bytes(jj_cursor *c, size_t col, const jj_span *s, const unsigned char **p,
                      size_t *len, jj_error *err) {
  if (*s->p != '"') {
    if (*s->p == 'n') return 0;
    return wrong_kind(c, col, s, err);
  }
  if (c->dec && c->dec[col].gen == c->gen && c->dec[col].p) {
    *p = (const unsigned char *)c->dec[col].p;
    *len = c->dec[col].len;
    return 1;
  }
  const char *q;
  size_t n, bad = 0;
  int checked;
  const char *why = "";
  if (contents(c, col, s, &q, &n, &checked, err)) return -1;
  unsigned char *out = (unsigned char *)jj_cursor_scratch(c, n / 4 * 3 + 1);
  if (!out || (!c->dec && !(c->dec = calloc(c->ncol, sizeof *c->dec))))
    return jj_fail(err, JJ_ERR_NOMEM, NULL, "out of memory"), -1;
  size_t m = jj_base64_decode(q, n, out, &bad, &why);
  if (m == (size_t)-1) {
    char shown[JJ_SHOW_CAP];
    return jj_cursor_fail(c, err, JJ_ERR_BASE64, c->row, col, s->p,
                  "%s is not valid base64 (%s)",
                  jj_show(shown, sizeof shown, q, n, 1), why), -1;
  }
  c->dec[col] = (jj_decoded){(const char *)out, m, c->gen};
  *p = out;
  *len = m;
  return 1;
}

/* A JSON value's canonical text: the document's own bytes when written
** canonically (one checking walk), else the canonical form built in
** scratch memory (a second walk), cached for the rest of the row.  The
** depth limit is the document's (a nested table's is its parent's less
** the two levels its rows take). */
#ifdef JJ_SMALL
/* A build for size (the reader-only WebAssembly module, whose JS hands the
** text to JSON.parse) checks the value and hands out its bytes as they
** stand, canonical or not: an array or object was checked by the row scan,
** a string or number is checked here by jj_json_skip, which the module has
** anyway; json_canon.c would add 1.5 KB to its 13 gzipped. */
static int read_json(jj_cursor *c, size_t col, const jj_span *s, const char **p,
                     size_t *len, jj_error *err) {
  if (*s->p == 'n') return 0;
  const char *end = s->p + JJ_SPAN_LEN(*s), *bad = s->p, *why = "";
  jj_code code = JJ_ERR_SYNTAX;
  if (*s->p != '[' && *s->p != '{' &&
      jj_json_skip(s->p, end, c->doc->max_depth, &bad, &code, &why) != end)
    return jj_cursor_fail(c, err, code, c->row, col, bad, "not valid JSON: %s", why), -1;
  *p = s->p;
  *len = JJ_SPAN_LEN(*s);
  return 1;
}
#else
static int read_json(jj_cursor *c, size_t col, const jj_span *s, const char **p,
                     size_t *len, jj_error *err) {
  if (*s->p == 'n') return 0;
  if (c->dec && c->dec[col].gen == c->gen && c->dec[col].p) {
    *p = c->dec[col].p;
    *len = c->dec[col].len;
    return 1;
  }
  size_t n = JJ_SPAN_LEN(*s), bad = 0;
  jj_code code = JJ_ERR_SYNTAX;
  const char *why = "";
  unsigned depth = c->doc->max_depth;
  /* an array or object was checked as JSON by the row scan (SPEC.md
  ** section 6): only its spelling is left to see */
  int r = (*s->p == '[' || *s->p == '{') && jj_json_is_canonical(s->p, n)
              ? 1
              : jj_json_canon(s->p, n, depth, NULL, &bad, &code, &why);
  if (r == 1) {
    *p = s->p;
    *len = n;
    return 1;
  }
  jj_buf b = {NULL, 0, 0, NULL};
  if (r == 0) r = jj_json_canon(s->p, n, depth, &b, &bad, &code, &why);
  if (r < 0) {
    jj_buf_free(&b);
    if (code == JJ_ERR_NOMEM) return jj_fail(err, JJ_ERR_NOMEM, NULL, "out of memory"), -1;
    return jj_cursor_fail(c, err, code, c->row, col, s->p + bad, "not valid JSON: %s", why), -1;
  }
  char *out = jj_cursor_scratch(c, b.len ? b.len : 1);
  if (!out || (!c->dec && !(c->dec = calloc(c->ncol, sizeof *c->dec)))) {
    jj_buf_free(&b);
    return jj_fail(err, JJ_ERR_NOMEM, NULL, "out of memory"), -1;
  }
  memcpy(out, b.p, b.len);
  c->dec[col] = (jj_decoded){out, b.len, c->gen};
  *p = out;
  *len = b.len;
  jj_buf_free(&b);
  return 1;
}
#endif /* JJ_SMALL */

/* A nested table value as a document borrowing the parent's bytes and
** nested schema (doc.c builds it); the caller frees it with jj_doc_free
** (before the parent).  Its errors carry the path to it. */
static int read_table(jj_cursor *c, size_t col, const jj_span *s, jj_doc **out,
                      jj_error *err) {
  if (*s->p != '[') {
    if (*s->p == 'n') return 0;
    return wrong_kind(c, col, s, err);
  }
  jj_doc *t = jj_doc_new(c->doc, c->row, col, s->p, s->p + JJ_SPAN_LEN(*s), 0, err);
  if (!t) return -1;
  *out = t;
  return 1;
}

/* ------------------------------------------------------------------ */
/* The accessors: the checks of the call, then the body above          */
/* ------------------------------------------------------------------ */

/* Spelled out like jj_cursor_double. */
JJ_ACCESSOR int jj_cursor_int(jj_cursor *c, size_t col, int64_t *out, jj_error *err) {
  if (JJ_LIKELY(c && col < c->readable && JJ_CURSOR_TYPE(c, col) == JJ_INT))
    return read_int(c, col, &c->v[col], out, err);
  return misuse(c, col, "jj_cursor_int", err);
}

/* Spelled out rather than through value(): the hot path is then the checks
** and the inline number, nothing kept for a call but the slow path's tail
** call. */
JJ_ACCESSOR int jj_cursor_double(jj_cursor *c, size_t col, double *out, jj_error *err) {
  if (JJ_LIKELY(c && col < c->readable && JJ_CURSOR_TYPE(c, col) == JJ_FLOAT))
    return read_double(c, col, &c->v[col], out, err);
  return misuse(c, col, "jj_cursor_double", err);
}

int jj_cursor_bool(jj_cursor *c, size_t col, int *out, jj_error *err) {
  const jj_span *s = value(c, col, JJ_BOOL, JJ_BOOL, JJ_BOOL, "jj_cursor_bool", err);
  return s ? read_bool(c, col, s, out, err) : -1;
}

static JJ_NOINLINE int text_all_cases(jj_cursor *c, size_t col, const char **p,
                                      size_t *len, jj_error *err) {
  /* a local timestamp's text too: the third type is whichever of the two
  ** timestamps the column is */
  jj_type ts = c && col < c->readable && JJ_CURSOR_TYPE(c, col) == JJ_LOCAL_TIMESTAMP
                   ? JJ_LOCAL_TIMESTAMP
                   : JJ_TIMESTAMP;
  const jj_span *s = value(c, col, JJ_TEXT, JJ_DATE, ts, "jj_cursor_text", err);
  return s ? read_text(c, col, s, JJ_CURSOR_TYPE(c, col), p, len, err) : -1;
}
/* A date column's plain string of 12 bytes, quotes included, at q
** (jj_cursor_text checked all that: the length a date's text has) that the
** inline check accepts, else text_all_cases.  Out of line, reached by a
** tail call with the span's bytes in hand: inline, the check's registers
** were saved and restored on every text read, not only a date's (gcc
** placed the saves before the common path: 4 instructions a text value). */
static JJ_NOINLINE int text_date(jj_cursor *c, size_t col, const char **p, size_t *len,
                                 jj_error *err, const char *q) {
  if (JJ_LIKELY(jj_date_ok(q + 1, 10))) {
    *p = q + 1;
    *len = 10;
    return 1;
  }
  return text_all_cases(c, col, p, len, err);
}
/* The commonest reads inline: a string without escapes and bytes >= 0x80
** (which the row scan found free of control bytes, so valid UTF-8 as it
** stands) in a text column, or a date the inline check accepts
** (text_date); every other case, errors included, goes on to
** text_all_cases, which reads them as before (read_text).  Saves the
** registers read_text's many paths cost every call: about 20 instructions
** a value under callgrind. */
JJ_ACCESSOR int jj_cursor_text(jj_cursor *c, size_t col, const char **p, size_t *len,
                   jj_error *err) {
  if (JJ_LIKELY(c && col < c->readable)) {
    /* the pointer read before the length, and the length stored first:
    ** so ordered, gcc keeps p where it came (no copy, 1 instruction) */
    const jj_span *s = &c->v[col];
    const char *q = s->p;
    const size_t n = s->n; /* no flags (tested next): the length */
    if (JJ_LIKELY(!(n & (JJ_SPAN_ESC | JJ_SPAN_HIGH)) && *q == '"')) {
      const jj_type t = JJ_CURSOR_TYPE(c, col);
      if (JJ_LIKELY(t == JJ_TEXT)) {
        *len = n - 2;
        *p = q + 1;
        return 1;
      }
      if (t == JJ_DATE && n == 12) return text_date(c, col, p, len, err, q);
    }
  }
  return text_all_cases(c, col, p, len, err);
}

int jj_cursor_date(jj_cursor *c, size_t col, int32_t *days, jj_error *err) {
  const jj_span *s = value(c, col, JJ_DATE, JJ_DATE, JJ_DATE, "jj_cursor_date", err);
  return s ? read_calendar(c, col, s, JJ_DATE, days, NULL, NULL, NULL, err) : -1;
}

int jj_cursor_timestamp(jj_cursor *c, size_t col, jj_timestamp *out,
                        jj_error *err) {
  const jj_span *s = value(c, col, JJ_TIMESTAMP, JJ_LOCAL_TIMESTAMP, JJ_TIMESTAMP,
                           "jj_cursor_timestamp", err);
  return s ? read_calendar(c, col, s, JJ_CURSOR_TYPE(c, col), NULL, out, NULL, NULL, err)
           : -1;
}

int jj_cursor_bytes(jj_cursor *c, size_t col, const unsigned char **p,
                    size_t *len, jj_error *err) {
  const jj_span *s = value(c, col, JJ_BYTES, JJ_BYTES, JJ_BYTES, "jj_cursor_bytes", err);
  return s ? read_bytes(c, col, s, p, len, err) : -1;
}

int jj_cursor_json(jj_cursor *c, size_t col, const char **p, size_t *len,
                   jj_error *err) {
  const jj_span *s = value(c, col, JJ_JSON, JJ_JSON, JJ_JSON, "jj_cursor_json", err);
  return s ? read_json(c, col, s, p, len, err) : -1;
}

int jj_cursor_table(jj_cursor *c, size_t col, jj_doc **out, jj_error *err) {
  const jj_span *s = value(c, col, JJ_TABLE, JJ_TABLE, JJ_TABLE, "jj_cursor_table", err);
  return s ? read_table(c, col, s, out, err) : -1;
}

/* out->is_null from the read's result r, which is returned. */
static inline int tagged(jj_value *out, int r) {
  out->is_null = r == 0;
  return r;
}

/* jj_cursor_value on a row and column already checked: the body of the
** column type's accessor into the member of out->u that the type names.
** Out of line: the numbers' shortcuts in jj_cursor_value below keep their
** registers (this one keeps a large frame for the calendar and bytes). */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline))
#endif
static JJ_ACCESSOR int value_of_type(jj_cursor *c, size_t col, jj_value *out, jj_error *err) {
  const jj_span *s = jj_cursor_located(c, col, err);
  jj_type t = JJ_CURSOR_TYPE(c, col);
  out->type = t;
#if JJ_SELECT /* else every span is located */
  if (!s) return -1;
#endif
  switch (t) { /* no default: -Wswitch names a type added but not read */
    case JJ_INT: return tagged(out, read_int(c, col, s, &out->u.i, err));
    case JJ_FLOAT: return tagged(out, read_double(c, col, s, &out->u.f, err));
    case JJ_TEXT:
      return tagged(out, read_text(c, col, s, t, &out->u.text.p, &out->u.text.len, err));
    case JJ_DATE:
      return tagged(out, read_calendar(c, col, s, t, &out->u.date.days, NULL,
                                       &out->u.date.p, &out->u.date.len, err));
    case JJ_TIMESTAMP:
    case JJ_LOCAL_TIMESTAMP:
      return tagged(out, read_calendar(c, col, s, t, NULL, &out->u.timestamp.ts,
                                       &out->u.timestamp.p, &out->u.timestamp.len, err));
    case JJ_BOOL: return tagged(out, read_bool(c, col, s, &out->u.b, err));
    case JJ_BYTES:
      return tagged(out, read_bytes(c, col, s, &out->u.bytes.p, &out->u.bytes.len, err));
    case JJ_JSON:
      return tagged(out, read_json(c, col, s, &out->u.json.p, &out->u.json.len, err));
    case JJ_TABLE: return tagged(out, read_table(c, col, s, &out->u.table, err));
  }
  /* a schema holds no other type (jj_schema_add refuses them) */
  return JJ_USAGE(jj_fail(err, JJ_ERR_USAGE, NULL, "jj_cursor_value: unknown column type")), -1;
}

/* The checks of the call once; a short float or integer (the commonest
** numbers) read right here, anything else by value_of_type. */
JJ_ACCESSOR int jj_cursor_value(jj_cursor *c, size_t col, jj_value *out, jj_error *err) {
  if (!c || col >= c->readable) return misuse(c, col, "jj_cursor_value", err);
#if JJ_SWAR /* not in the byte-at-a-time builds (the small WebAssembly reader) */
  const jj_type t = JJ_CURSOR_TYPE(c, col);
  const jj_span *s = &c->v[col];
  /* s->n unmasked: a string's flags make it far too long for either */
  if ((t == JJ_FLOAT &&
       jj_num_dot_double_in(s->p, s->n, c->num_last, &out->u.f)) ||
      (t == JJ_INT && jj_num_short_int(s->p, s->n, c->num_lo16, &out->u.i))) {
    out->type = t;
    out->is_null = 0;
    return 1;
  }
#endif
#ifndef JJ_SMALL /* a build for size reads text by value_of_type */
  /* text without escapes or bytes >= 0x80: valid as it stands (see
  ** jj_cursor_text) */
  if (JJ_CURSOR_TYPE(c, col) == JJ_TEXT &&
      !(c->v[col].n & (JJ_SPAN_ESC | JJ_SPAN_HIGH)) && *c->v[col].p == '"') {
    out->type = JJ_TEXT;
    out->is_null = 0;
    out->u.text.p = c->v[col].p + 1;
    out->u.text.len = JJ_SPAN_LEN(c->v[col]) - 2;
    return 1;
  }
#endif
  return value_of_type(c, col, out, err);
}
