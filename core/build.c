/*
** build.c — the row builder's values as they come (build.h has the plan).
**
** Each value is checked when it arrives, so an error names its row: the
** key (a column name, given once per row), text as UTF-8, dates and
** timestamps by the calendar, and a value of a column the explicit schema
** types against that type (the converter's words: "... is not a date (the
** schema says joined:d)").  A value of an inferred column folds its kind
** into the column (infer.h) and can make the column anything the lattice
** allows; the type is decided only at the end, from every row.
*/
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "build.h"

jj_builder *jj_builder_new(const jj_build_opts *opts, jj_error *err) {
  jj_builder *b = calloc(1, sizeof *b);
  if (!b) {
    if (err) jj_fail(err, JJ_ERR_NOMEM, NULL, "out of memory");
    return NULL;
  }
  if (opts) b->o = *opts;
  if (!b->o.memory) b->o.memory = BUILD_MEMORY;
  ic_init(&b->x, b->o.name, &b->err);
  b->x.spec_label = b->o.schema_label;
  b->x.note = b->o.note;
  b->x.note_ctx = b->o.note_ctx;
  b->lv[0].t = &b->x.top;
  b->col = -1;
  if (b->o.schema && ic_schema_parse(&b->x, b->o.schema)) {
    if (err) *err = b->err;
    jj_builder_free(b);
    return NULL;
  }
  return b;
}

void jj_builder_free(jj_builder *b) {
  if (!b) return;
  jj_writer_free(b->w); /* before the schema it borrows */
  ic_free(&b->x);
  jj_buf_free(&b->tape);
  jj_buf_free(&b->scratch);
  if (b->file) fclose(b->file);
  build_ahead_free(b);
  free(b);
}

int64_t jj_builder_rows(const jj_builder *b) { return b ? b->rows : 0; }

const jj_error *jj_builder_error(const jj_builder *b) {
  static const jj_error none = {JJ_ERR_USAGE, JJ_NO_OFFSET, 0, -1,
                                "no builder"};
  return b ? &b->err : &none;
}

/* A call that may only come while the builder takes values. */
static jj_code ready(jj_builder *b) {
  if (!b) return JJ_ERR_USAGE;
  if (b->failed) return b->failed;
  if (b->finished)
    return build_fail(b, JJ_ERR_USAGE, "a value after jj_builder_finish");
  return JJ_OK;
}

jj_code jj_builder_column(jj_builder *b, const char *name, size_t len,
                          jj_type type) {
  jj_code code = ready(b);
  if (code) return code;
  build_level *l = &b->lv[b->depth];
  if (b->in_row || b->col >= 0 || (b->depth ? l->rows : b->rows))
    return build_fail(b, JJ_ERR_USAGE,
                      "jj_builder_column comes before the first row of its "
                      "table");
  if (!name && len) return build_fail(b, JJ_ERR_USAGE, "a NULL name");
  if (type && !jj_type_name(type))
    return build_fail(b, JJ_ERR_USAGE, "an unknown type");
  char shown[JJ_SHOW_CAP];
  jj_show(shown, sizeof shown, name, len, 1);
  ic_table *t = l->t;
  long i = ic_find(t, name, len);
  if (i >= 0 && !b->depth)
    return build_fail(b, JJ_ERR_SCHEMA, "column %s is named twice", shown);
  if (i < 0) {
    if (!jj_utf8_valid(name, len, NULL))
      return build_fail(b, JJ_ERR_UTF8, "a column name is not valid UTF-8");
    if ((i = ic_column(&b->x, t, name, len, UINT64_MAX)) < 0)
      return b->failed = b->err.code;
  }
  /* a nested table's columns are declared again by each value: they must
  ** agree with the first */
  ic_col *c = &t->cols[i];
  if (type && c->forced != type) {
    if (!b->depth && c->forced) return JJ_OK; /* the schema option wins */
    if (c->forced || c->kinds)
      return build_fail(b, JJ_ERR_SCHEMA,
                        "column %s of the nested table is %s here, %s in an "
                        "earlier row",
                        shown, jj_type_name(type),
                        c->forced ? jj_type_name(c->forced) : "inferred");
    c->forced = type;
    if (type == JJ_TABLE && !ic_sub(&b->x, t, (size_t)i)) return build_nomem(b);
  }
  return JJ_OK;
}

jj_type jj_builder_column_type(const jj_builder *b, const char *name,
                               size_t len) {
  if (!b || (!name && len)) return (jj_type)0;
  long i = ic_find(&b->x.top, name, len);
  if (i >= 0) return b->x.top.cols[i].forced;
  i = b->x.top.spec ? ic_find(b->x.top.spec, name, len) : -1;
  return i >= 0 ? b->x.top.spec->cols[i].forced : (jj_type)0;
}

jj_code jj_builder_refuse(jj_builder *b, jj_code code, const char *message) {
  if (!b) return code;
  if (b->failed) return b->failed;
  return build_fail(b, code ? code : JJ_ERR_TYPE, "%s",
                    message ? message : "refused");
}

/* The column of the next value is column i of the current table. */
static jj_code key_col(jj_builder *b, ic_table *t, long i) {
  ic_col *c = &t->cols[i];
  t->col = (size_t)i;
  if (c->stamp == b->lv[b->depth].serial)
    return build_fail(b, JJ_ERR_SCHEMA, "the key is given twice in one row");
  c->stamp = b->lv[b->depth].serial;
  b->col = i;
  return JJ_OK;
}

jj_code jj_builder_key_at(jj_builder *b, size_t col) {
  jj_code code = ready(b);
  if (code) return code;
  if (b->col >= 0)
    return build_fail(b, JJ_ERR_USAGE, "a key after a key, without a value");
  if ((code = build_row_begin(b))) return code;
  ic_table *t = b->lv[b->depth].t;
  if (col >= t->n) {
    t->col = (size_t)-1; /* the message names no column */
    return build_fail(b, JJ_ERR_USAGE, "column %zu is not named (%zu are)",
                      col, t->n);
  }
  return key_col(b, t, (long)col);
}

jj_code jj_builder_key(jj_builder *b, const char *name, size_t len) {
  jj_code code = ready(b);
  if (code) return code;
  if (b->col >= 0)
    return build_fail(b, JJ_ERR_USAGE, "a key after a key, without a value");
  if (!name && len) return build_fail(b, JJ_ERR_USAGE, "a NULL name");
  if ((code = build_row_begin(b))) return code;
  ic_table *t = b->lv[b->depth].t;
  long i = ic_find(t, name, len);
  if (i < 0 && !b->depth && (b->o.flags & JJ_BUILD_FIXED_COLUMNS))
    return build_fail(b, JJ_ERR_SCHEMA,
                      "key %s is not one of the columns named",
                      jj_show((char[JJ_SHOW_CAP]){0}, JJ_SHOW_CAP, name, len,
                              1));
  if (i < 0) {
    if (!jj_utf8_valid(name, len, NULL))
      return build_fail(b, JJ_ERR_UTF8, "key %s is not valid UTF-8",
                        jj_show((char[JJ_SHOW_CAP]){0}, JJ_SHOW_CAP, name, len,
                                1));
    if ((i = ic_column(&b->x, t, name, len, UINT64_MAX)) < 0)
      return b->failed = b->err.code;
  }
  return key_col(b, t, i);
}

/* The column of the value being given, or a usage failure. */
static ic_col *value_col(jj_builder *b) {
  if (ready(b)) return NULL;
  if (b->col < 0) {
    build_fail(b, JJ_ERR_USAGE, "a value without a key before it");
    return NULL;
  }
  return &b->lv[b->depth].t->cols[b->col];
}

/* Append an entry: op, column, then n bytes of p (with its length first
** when `counted`). */
static jj_code put(jj_builder *b, int op, const void *p, size_t n,
                   int counted) {
  if (!b->depth && (size_t)b->col == b->next_col && op != OP_TABLE &&
      (b->straight ||
       (b->ahead && build_ahead_fits(b, (size_t)b->col, op, p)))) {
    /* in order, into the document (or the rows written ahead) at once */
    jj_code code = build_direct(b, op, p, n);
    b->col = -1;
    b->next_col++;
    return code;
  }
  jj_code code = build_tape_put(b, op, (size_t)b->col, p, n, counted);
  b->col = -1;
  return code;
}

/* A value that does not fit its column's explicit type: an error, or with
** JJ_BUILD_BAD_TO_NULL a null (counted, and told at the end). */
static jj_code misfit_text(jj_builder *b, ic_col *c, const char *shown,
                           jj_code code, const char *p, size_t len) {
  jj_type ty = c->forced;
  if (!(b->o.flags & JJ_BUILD_BAD_TO_NULL)) {
    char name[JJ_SHOW_CAP], why[JJ_SHOW_CAP + 160];
    jj_show(name, sizeof name, c->name, c->name_len, 0);
    ic_misfit_words(ty, p, len, name, why, sizeof why);
    return build_fail(b, code, "%s is not %s%s", shown, ic_type_words(ty), why);
  }
  ic_nulled(&b->x, c, shown);
  b->nulled++;
  return put(b, OP_NULL, NULL, 0, 0);
}

static jj_code misfit_code(jj_builder *b, ic_col *c, const char *shown,
                           jj_code code) {
  return misfit_text(b, c, shown, code, NULL, 0);
}

/* The same, the error's code from the column's type: a number that is out
** of an int or float column's range is JJ_ERR_RANGE, anything else that is
** not its type JJ_ERR_TYPE. */
static jj_code misfit(jj_builder *b, ic_col *c, const char *shown) {
  jj_type ty = c->forced;
  return misfit_code(b, c, shown,
                     ty == JJ_DATE        ? JJ_ERR_DATE
                     : ty == JJ_TIMESTAMP ? JJ_ERR_TIMESTAMP
                     : ty == JJ_LOCAL_TIMESTAMP ? JJ_ERR_TIMESTAMP
                     : ty == JJ_BYTES     ? JJ_ERR_BASE64
                                          : JJ_ERR_TYPE);
}

/* Whether a text or number spelling fits the explicit type t. */
static int text_fits(jj_type t, const char *p, size_t len, int is_num) {
  int64_t i;
  double d;
  switch (t) {
    case JJ_TEXT:
    case JJ_JSON: /* text is a JSON string, a number its number */
      return 1;
    case JJ_INT:
      return jj_num_parse_int64(p, len, &i) == JJ_NUM_OK;
    case JJ_FLOAT:
      return ic_num_double(p, len, &d) > 0 || (!is_num && ic_nan_text(p, len, NULL));
    case JJ_BOOL:
      return !is_num && ((len == 4 && !memcmp(p, "true", 4)) ||
                         (len == 5 && !memcmp(p, "false", 5)));
    case JJ_DATE:
      return !is_num && (jj_date_ok(p, len) ||
                         jj_date_parse(p, len, NULL, NULL) == JJ_OK);
    case JJ_TIMESTAMP: /* without zone: taken as UTC (spelled) */
      return !is_num && (jj_timestamp_parse(p, len, NULL, NULL) == JJ_OK ||
                         jj_local_timestamp_parse(p, len, 1, NULL, NULL) == JJ_OK);
    case JJ_LOCAL_TIMESTAMP:
      return !is_num && jj_local_timestamp_parse(p, len, 1, NULL, NULL) == JJ_OK;
    case JJ_BYTES: {
      unsigned char out[64];
      size_t bad;
      const char *why;
      if (is_num || len % 4) return 0;
      for (size_t at = 0; at < len; at += 64) { /* 64 chars: 48 bytes */
        size_t n = len - at < 64 ? len - at : 64;
        if (jj_base64_decode(p + at, n, out, &bad, &why) == (size_t)-1)
          return 0;
      }
      return 1;
    }
    default:
      return 0;
  }
}

jj_code jj_builder_null(jj_builder *b) {
  return value_col(b) ? put(b, OP_NULL, NULL, 0, 0) : jj_builder_error(b)->code;
}

jj_code jj_builder_bool(jj_builder *b, int v) {
  ic_col *c = value_col(b);
  if (!c) return jj_builder_error(b)->code;
  if (c->forced && c->forced != JJ_BOOL && c->forced != JJ_TEXT && c->forced != JJ_JSON)
    return misfit(b, c, v ? "true" : "false");
  if (!c->forced) ic_fold_kind(&b->x, c, K_BOOL, v ? "true" : "false");
  return put(b, v ? OP_TRUE : OP_FALSE, NULL, 0, 0);
}

/* The example a note or an error quotes is made only when one needs it:
** the first value of a kind in a column, or a value that does not fit. */
#define NEW_KIND(c, k) (!((c)->kinds & (1u << (k))))

static const char *show_int(int64_t v, char out[21]) {
  out[jj_int_format(v, out)] = '\0';
  return out;
}

static const char *show_double(double v, char out[32]) {
  out[jj_double_format(v, out)] = '\0';
  return out;
}

jj_code jj_builder_int(jj_builder *b, int64_t v) {
  ic_col *c = value_col(b);
  char shown[21];
  if (!c) return jj_builder_error(b)->code;
  switch ((int)c->forced) {
    case 0:
      if (!ic_int_exact(v)) c->inexact = 1;
      if (NEW_KIND(c, K_INT)) ic_fold_kind(&b->x, c, K_INT, show_int(v, shown));
      break;
    case JJ_INT:
    case JJ_TEXT:
    case JJ_JSON:
      break;
    case JJ_FLOAT:
      if (!ic_int_exact(v))
        return misfit_code(b, c, show_int(v, shown), JJ_ERR_RANGE);
      break;
    case JJ_BOOL: /* what SQLite and Python give for a boolean */
      if (v != 0 && v != 1) return misfit(b, c, show_int(v, shown));
      return put(b, v ? OP_TRUE : OP_FALSE, NULL, 0, 0);
    default:
      return misfit(b, c, show_int(v, shown));
  }
  char le[8];
  memcpy(le, &v, 8);
  return put(b, OP_INT, le, 8, 0);
}

jj_code jj_builder_double(jj_builder *b, double v) {
  ic_col *c = value_col(b);
  char shown[32];
  if (!c) return jj_builder_error(b)->code;
  if (c->forced && c->forced != JJ_FLOAT && c->forced != JJ_TEXT && c->forced != JJ_JSON)
    return misfit(b, c, show_double(v, shown));
  if (!c->forced && NEW_KIND(c, K_FLOAT))
    ic_fold_kind(&b->x, c, K_FLOAT, show_double(v, shown));
  char le[8];
  memcpy(le, &v, 8);
  return put(b, OP_FLOAT, le, 8, 0);
}

/* Text or a number's text: checked, folded, appended. */
static jj_code spelled(jj_builder *b, const char *p, size_t len, int is_num) {
  ic_col *c = value_col(b);
  char shown[JJ_SHOW_CAP];
  size_t bad;
  if (!c) return jj_builder_error(b)->code;
  if (!p && len) return build_fail(b, JJ_ERR_USAGE, "a NULL value");
#define SHOWN jj_show(shown, sizeof shown, p, len, !is_num)
  if (!is_num && !jj_utf8_valid(p, len, &bad))
    return build_fail(b, JJ_ERR_UTF8, "%s is not valid UTF-8", SHOWN);
  if (c->forced) {
    if (!text_fits(c->forced, p, len, is_num))
      return misfit_text(b, c, SHOWN,
                         is_num && (c->forced == JJ_INT || c->forced == JJ_FLOAT)
                             ? JJ_ERR_RANGE
                             : c->forced == JJ_INT || c->forced == JJ_FLOAT
                             ? JJ_ERR_TYPE
                             : c->forced == JJ_DATE      ? JJ_ERR_DATE
                             : c->forced == JJ_TIMESTAMP ? JJ_ERR_TIMESTAMP
                             : c->forced == JJ_LOCAL_TIMESTAMP ? JJ_ERR_TIMESTAMP
                             : c->forced == JJ_BYTES     ? JJ_ERR_BASE64
                                                         : JJ_ERR_TYPE,
                         is_num ? NULL : p, len);
    if (c->forced == JJ_TIMESTAMP && !c->utc_told &&
        jj_timestamp_parse(p, len, NULL, NULL) != JJ_OK)
      ic_utc_note(&b->x, b->lv[b->depth].t, (size_t)b->col, SHOWN);
  } else {
    int k = is_num ? ic_num_kind(p, len, &c->inexact)
                   : ic_text_kind(p, len, 0);
    if (k < 0) return build_fail(b, JJ_ERR_SYNTAX, "%s is not a number", SHOWN);
    if (NEW_KIND(c, k)) ic_fold_kind(&b->x, c, k, SHOWN);
  }
#undef SHOWN
  return put(b, is_num ? OP_NUM : OP_TEXT, p, len, 1);
}

jj_code jj_builder_number(jj_builder *b, const char *p, size_t len) {
  return spelled(b, p, len, 1);
}

jj_code jj_builder_text(jj_builder *b, const char *p, size_t len) {
  return spelled(b, p, len, 0);
}

/* Bytes as a message shows them: x'00ff', the first 16 then "...". */
static const char *show_bytes(const void *p, size_t len, char out[48]) {
  static const char hex[] = "0123456789abcdef";
  const unsigned char *u = p;
  size_t n = 0;
  out[n++] = 'x', out[n++] = '\'';
  for (size_t i = 0; i < len && i < 16; i++) {
    out[n++] = hex[u[i] >> 4];
    out[n++] = hex[u[i] & 15];
  }
  out[n++] = '\'';
  if (len > 16) out[n++] = '.', out[n++] = '.', out[n++] = '.';
  out[n] = '\0';
  return out;
}

jj_code jj_builder_bytes(jj_builder *b, const void *p, size_t len) {
  ic_col *c = value_col(b);
  char shown[48];
  if (!c) return jj_builder_error(b)->code;
  if (!p && len) return build_fail(b, JJ_ERR_USAGE, "a NULL value");
  if (c->forced && c->forced != JJ_BYTES)
    return misfit(b, c, show_bytes(p, len, shown));
  if (!c->forced && NEW_KIND(c, K_BYTES))
    ic_fold_kind(&b->x, c, K_BYTES, show_bytes(p, len, shown));
  return put(b, OP_BYTES, p, len, 1);
}

/* A date or timestamp's text quoted, as a JSON string of it is shown. */
static const char *show_quoted(const char *t, size_t n, char out[48]) {
  snprintf(out, 48, "\"%.*s\"", (int)n, t);
  return out;
}

jj_code jj_builder_date(jj_builder *b, int32_t days) {
  ic_col *c = value_col(b);
  char d[10], shown[48];
  if (!c) return jj_builder_error(b)->code;
  if (days < -719528 || days > 2932896 || jj_date_format(days, d))
    return build_fail(b, JJ_ERR_DATE,
                      "the date %ld days from 1970-01-01 is outside years "
                      "0000-9999",
                      (long)days);
  if (c->forced && c->forced != JJ_DATE && c->forced != JJ_TEXT && c->forced != JJ_JSON)
    return misfit(b, c, show_quoted(d, 10, shown));
  if (!c->forced && NEW_KIND(c, K_DATE))
    ic_fold_kind(&b->x, c, K_DATE, show_quoted(d, 10, shown));
  char le[4];
  memcpy(le, &days, 4);
  return put(b, OP_DATE, le, 4, 0);
}

jj_code jj_builder_timestamp(jj_builder *b, const jj_timestamp *ts) {
  ic_col *c = value_col(b);
  char t[40], shown[48];
  size_t n;
  if (!c) return jj_builder_error(b)->code;
  if (!ts) return build_fail(b, JJ_ERR_USAGE, "a NULL timestamp");
  if (!(n = jj_timestamp_format(ts, t)))
    return build_fail(b, JJ_ERR_TIMESTAMP,
                      "the timestamp is outside years 0000-9999 (or a field "
                      "is out of range)");
  if (c->forced && c->forced != JJ_TIMESTAMP && c->forced != JJ_TEXT &&
      c->forced != JJ_JSON)
    return misfit(b, c, show_quoted(t, n, shown));
  if (!c->forced && NEW_KIND(c, K_TS))
    ic_fold_kind(&b->x, c, K_TS, show_quoted(t, n, shown));
  char le[15];
  memcpy(le, &ts->seconds, 8);
  memcpy(le + 8, &ts->nanos, 4);
  memcpy(le + 12, &ts->zone_minutes, 2);
  le[14] = (char)ts->digits;
  return put(b, OP_TS, le, 15, 0);
}

/* As its text: a text's kind is K_LTS, and an explicit t column takes it
** as UTC, as it takes such text. */
jj_code jj_builder_local_timestamp(jj_builder *b, const jj_timestamp *ts) {
  char t[40];
  size_t n;
  if (ready(b)) return jj_builder_error(b)->code;
  if (!ts) return build_fail(b, JJ_ERR_USAGE, "a NULL timestamp");
  if (!(n = jj_local_timestamp_format(ts, t)))
    return build_fail(b, JJ_ERR_TIMESTAMP,
                      "the local timestamp is outside years 0000-9999 (or a "
                      "field is out of range)");
  return spelled(b, t, n, 0);
}

jj_code jj_builder_json(jj_builder *b, const char *p, size_t len) {
  ic_col *c = value_col(b);
  char shown[JJ_SHOW_CAP];
  size_t bad;
  if (!c) return jj_builder_error(b)->code;
  if (!p && len) return build_fail(b, JJ_ERR_USAGE, "a NULL value");
  jj_code code = JJ_ERR_SYNTAX;
  const char *why = "";
  if (jj_json_canon(p, len, IC_MAX_DEPTH, NULL, &bad, &code, &why) < 0)
    return build_fail(b, code, "not valid JSON: %s (at byte %zu of the value)", why, bad);
  const char *s = jj_json_ws(p, p + len);
  if ((size_t)(p + len - s) >= 4 && memcmp(s, "null", 4) == 0)
    return put(b, OP_NULL, NULL, 0, 0); /* JSON's null (valid: nothing else) */
  if (c->forced && c->forced != JJ_TEXT && c->forced != JJ_JSON)
    return misfit(b, c, jj_show(shown, sizeof shown, p, len, 0));
  if (!c->forced && NEW_KIND(c, K_JSON))
    ic_fold_kind(&b->x, c, K_JSON, jj_show(shown, sizeof shown, p, len, 0));
  return put(b, OP_JSON, p, len, 1);
}

jj_code jj_builder_begin_table(jj_builder *b) {
  ic_col *c = value_col(b);
  if (!c) return jj_builder_error(b)->code;
  if (b->depth >= IC_MAX_DEPTH)
    return build_fail(b, JJ_ERR_DEPTH, "nested tables deeper than %d",
                      IC_MAX_DEPTH);
  if (c->forced && c->forced != JJ_TABLE && c->forced != JJ_TEXT && c->forced != JJ_JSON)
    return misfit(b, c, "rows");
  ic_table *t = b->lv[b->depth].t;
  size_t at = b->tape.len;
  ic_table *sub = ic_sub(&b->x, t, (size_t)b->col);
  if (!sub) return build_nomem(b);
  jj_code code = put(b, OP_TABLE, NULL, 0, 0);
  if (code) return code;
  b->depth++;
  b->lv[b->depth] = (build_level){sub, at, 0, 0};
  b->in_row = 0;
  sub->in_row = 0;
  return JJ_OK;
}

jj_code jj_builder_end_row(jj_builder *b) {
  jj_code code = ready(b);
  if (code) return code;
  if (b->col >= 0)
    return build_fail(b, JJ_ERR_USAGE, "a key without a value ends the row");
  /* a row without values is a row of nulls */
  if ((code = build_row_begin(b))) return code;
  build_level *l = &b->lv[b->depth];
  l->t->in_row = 0;
  l->t->col = (size_t)-1;
  b->in_row = 0;
  if (b->depth) {
    l->rows++;
    char op = OP_ROW_END;
    return jj_buf_append(&b->tape, &op, 1) ? build_nomem(b) : JJ_OK;
  }
  /* a whole top-level row: its length before it; past opts.memory the
  ** rows go to the temporary file, in one write */
  size_t len = b->tape.len - b->row_at - 4;
  if (len > UINT32_MAX)
    return build_fail(b, JJ_ERR_LIMIT, "a row holds more than 4 GiB");
  uint32_t n32 = (uint32_t)len;
  memcpy(b->tape.p + b->row_at, &n32, 4);
  b->rows++;
  if ((code = build_row_end(b))) return code;
  return b->tape.len > b->o.memory ? build_spill(b) : JJ_OK;
}

jj_code jj_builder_end_table(jj_builder *b) {
  jj_code code = ready(b);
  if (code) return code;
  if (!b->depth)
    return build_fail(b, JJ_ERR_USAGE, "jj_builder_end_table without a table");
  if (b->in_row || b->col >= 0)
    return build_fail(b, JJ_ERR_USAGE, "a nested table ends inside a row");
  build_level *l = &b->lv[b->depth];
  char op = OP_TABLE_END;
  if (jj_buf_append(&b->tape, &op, 1)) return build_nomem(b);
  b->depth--;
  b->in_row = 1;
  ic_table *t = b->lv[b->depth].t;
  ic_col *c = &t->cols[l->t->parent_col];
  t->col = l->t->parent_col;
  if (!c->forced) {
    int k = l->rows ? K_TABLE : K_EMPTY;
    if (!(c->kinds & (1u << k))) { /* the example: the rows' JSON text */
      const char *p = b->tape.p + l->tape_at, *end = b->tape.p + b->tape.len;
      uint64_t col, len;
      const char *pay;
      char shown[JJ_SHOW_CAP];
      b->scratch.len = 0;
      if (!build_entry(p, end, &col, &pay, &len) ||
          build_rows_json(l->t, pay, end, &b->scratch))
        return build_nomem(b);
      ic_fold_kind(&b->x, c, k,
                   jj_show(shown, sizeof shown, b->scratch.p, b->scratch.len,
                           0));
    }
  }
  return JJ_OK;
}
