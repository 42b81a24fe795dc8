/*
** convert_value.c — one value of the input, seen twice:
**
**   pass 1  cv_kind says what it is (K_INT, K_DATE, ...), cv_fold adds that
**           to its column (or, for a column the schema types, checks that
**           it fits);
**   pass 2  cv_emit writes it as its column's decided type (an array or
**           object kept as text compacted here; a nested table's rows by
**           the JSON scanner, through c->json_table).
**
** The two passes must agree on every value, so both go through the same
** predicates: fits() is what a forced column's check in pass 1 and its
** write in pass 2 both ask.  A JSON value and a CSV field differ only in
** how they are spelled (V_NUM vs a V_FIELD that reads as a number, V_STR
** vs V_FIELD for text); the rules are docs/convert.md's.
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "convert.h"

int cv_text(cv *c, const cv_val *v, const char **p, size_t *len) {
  if (!v->esc) {
    *p = v->p;
    *len = v->len;
    return 0;
  }
  c->scratch.len = 0;
  if (jj_buf_reserve(&c->scratch, v->len + 1)) return cv_nomem(c);
  char *o = c->scratch.p;
  if (v->kind == V_FIELD) { /* "" stands for one quote */
    size_t n = 0;
    for (size_t i = 0; i < v->len; i++) {
      o[n++] = v->p[i];
      if (v->p[i] == '"') i++;
    }
    *len = n;
  } else {
    size_t bad;
    jj_code code;
    const char *why;
    char shown[JJ_SHOW_CAP];
    size_t n = jj_string_decode(v->p, v->len, o, &bad, &code, &why);
    if (n == (size_t)-1)
      return cv_fail(
          c, code, v->off + 1 + bad, "%s is not a valid JSON string (%s)",
          jj_show(shown, sizeof shown, v->p + bad, v->len - bad, 1), why);
    *len = n;
  }
  *p = o;
  return 0;
}

int cv_kind(cv *c, const cv_val *v, cv_col *col) {
  const char *p;
  size_t len, bad;
  char shown[JJ_SHOW_CAP];
  switch (v->kind) {
    case V_NULL:
      return -1;
    case V_TRUE:
    case V_FALSE:
      return K_BOOL;
    case V_NUM: {
      int k = ic_num_kind(v->p, v->len, &col->inexact);
      if (k < 0)
        return cv_fail(c, JJ_ERR_SYNTAX, v->off, "%s is not a valid number",
                       jj_show(shown, sizeof shown, v->p, v->len, 0)),
               -2;
      return k;
    }
    case V_FIELD:
      if (v->len && ((v->p[0] >= '0' && v->p[0] <= '9') || v->p[0] == '-')) {
        int k = ic_num_kind(v->p, v->len, &col->inexact);
        if (k >= 0) return k;
      }
      /* fall through */
    case V_STR:
      if (cv_text(c, v, &p, &len)) return -2;
      if ((!v->esc || v->kind == V_FIELD) && !jj_utf8_valid(p, len, &bad))
        return cv_fail(c, JJ_ERR_UTF8, v->off + (v->kind == V_STR) + bad,
                       "%s is not valid UTF-8",
                       jj_show(shown, sizeof shown, p, len, 1)),
               -2;
      return ic_text_kind(
          p, len,
          v->kind == V_FIELD && ((c->o.flags & JJ_CONVERT_CSV_BOOLEANS) ||
                                 col->forced == JJ_BOOL));
    default: /* V_ARR, V_OBJ: the JSON scanner has said which */
      return v->esc;
  }
}

/* The value as text for a message: strings and fields quoted, the rest as
** they stand. */
static const char *show(const cv_val *v, char *out) {
  return jj_show(out, JJ_SHOW_CAP, v->p, v->len,
                 v->kind == V_STR || v->kind == V_FIELD);
}

/* JSON text p[0..n) with the whitespace outside strings removed, into out:
** at most cap bytes of it; the bytes written. */
static size_t compact(const char *p, size_t n, char *out, size_t cap) {
  size_t o = 0;
  int in_str = 0;
  for (size_t i = 0; i < n && o < cap; i++) {
    char ch = p[i];
    if (in_str) {
      if (ch == '\\' && i + 1 < n) {
        out[o++] = ch;
        if (o == cap) break;
        ch = p[++i];
      } else if (ch == '"') {
        in_str = 0;
      }
    } else if (ch == ' ' || ch == '\n' || ch == '\r' || ch == '\t') {
      continue;
    } else if (ch == '"') {
      in_str = 1;
    }
    out[o++] = ch;
  }
  return o;
}

void cv_example(cv *c, cv_col *col, int k, const cv_val *v) {
  char shown[JJ_SHOW_CAP], text[64];
  const char *p;
  size_t len;
  if (col->ex[k]) return;
  /* as the row builder shows the same value: a string with escapes as its
  ** text, an array or object as the JSON text the column would hold
  ** (compacted; more than jj_show's 40 bytes of it means "..."), a CSV
  ** field that is a number or a boolean (K_BOOL to K_HUGE) unquoted, as
  ** JSON spells it */
  if (v->kind == V_FIELD && k <= K_HUGE)
    ic_example(&c->x, col, k, jj_show(shown, sizeof shown, v->p, v->len, 0));
  else if (v->kind == V_STR && v->esc && cv_text(c, v, &p, &len) == 0)
    ic_example(&c->x, col, k, jj_show(shown, sizeof shown, p, len, 1));
  else if (v->kind == V_ARR || v->kind == V_OBJ)
    ic_example(&c->x, col, k,
               jj_show(shown, sizeof shown, text,
                       compact(v->p, v->len, text, sizeof text), 0));
  else
    ic_example(&c->x, col, k, show(v, shown));
}

/* The text of a string value for the checks below (decoded); NULL (no
** failure) for a value that is not a string. */
static int str_of(cv *c, const cv_val *v, const char **p, size_t *len) {
  if (v->kind != V_STR && v->kind != V_FIELD) return 1;
  return cv_text(c, v, p, len) ? CV_FAIL : 0;
}

/* The kinds of pattern (bits 1 << DF_*) a column of type t reads. */
static unsigned pattern_kinds(jj_type t) {
  return t == JJ_DATE               ? 1u << DF_DATE
         : t == JJ_LOCAL_TIMESTAMP ? 1u << DF_LOCAL
                                    : 1u << DF_LOCAL | 1u << DF_ZONED;
}

/* A value of a forced date, timestamp or local timestamp column in one
** of the given patterns of its type (datefmt.c): the length of its ISO
** text in iso, or 0 (*shaped 1 when a pattern fit its shape, not the
** calendar: iso then holds that text, *n its length, for the reason). */
static size_t given_iso(cv *c, jj_type t, const char *p, size_t len,
                        char iso[DF_ISO_CAP], int *shaped, size_t *n) {
  *n = 0;
  return df_first(&c->dates, pattern_kinds(t), p, len, iso, n, shaped) >= 0
             ? *n
             : 0;
}

/* " or %m/%d/%Y or %d %b %Y": the given patterns of type t, for a misfit's
** message. */
static void given_list(const cv *c, jj_type t, char *out, size_t cap) {
  size_t used = 0;
  out[0] = '\0';
  for (unsigned i = 0; i < c->dates.n && used < cap; i++) {
    const df_pat *f = &c->dates.pat[i];
    if (!f->given || !(pattern_kinds(t) >> f->kind & 1u)) continue;
    int k = snprintf(out + used, cap - used, " or %s", f->text);
    if (k > 0) used += (size_t)k;
  }
}

/* A value of a d, t or l column in another spelling: the length of its
** ISO text in iso, or 0. */
static size_t spelled(cv *c, const cv_col *cc, const char *p, size_t len,
                      char iso[DF_ISO_CAP], int *shaped) {
  size_t n;
  return cc->forced ? given_iso(c, cc->type, p, len, iso, shaped, &n)
                    : ic_dates_iso(&c->x, cc, p, len, iso, shaped);
}

/* Whether v fits type t, for a forced column: 1 yes, 0 no, CV_FAIL.  k is
** its pass-1 kind when known (-3 when not). */
static int fits(cv *c, jj_type t, const cv_val *v, int k) {
  const char *p;
  size_t len;
  double d;
  int64_t i;
  int r, shaped;
  size_t n;
  char iso[DF_ISO_CAP];
  switch (t) {
    case JJ_TEXT:
      return 1;
    case JJ_INT: /* a number, or text that spells one (as the builder) */
      if (v->kind == V_NUM || v->kind == V_FIELD)
        return jj_num_parse_int64(v->p, v->len, &i) == JJ_NUM_OK;
      if ((r = str_of(c, v, &p, &len))) return r == 1 ? 0 : r;
      return jj_num_parse_int64(p, len, &i) == JJ_NUM_OK;
    case JJ_FLOAT:
      if (v->kind == V_NUM || v->kind == V_FIELD) {
        r = ic_num_double(v->p, v->len, &d);
        if (r >= 0 || v->kind == V_NUM) return r > 0;
      }
      if ((r = str_of(c, v, &p, &len))) return r == 1 ? 0 : r;
      return ic_num_double(p, len, &d) > 0 || ic_nan_text(p, len, NULL);
    case JJ_BOOL:
      if (v->kind == V_TRUE || v->kind == V_FALSE) return 1;
      return v->kind == V_FIELD && ((v->len == 4 && !memcmp(v->p, "true", 4)) ||
                                    (v->len == 5 && !memcmp(v->p, "false", 5)));
    case JJ_DATE:
      if ((r = str_of(c, v, &p, &len))) return r == 1 ? 0 : r;
      return jj_date_ok(p, len) || jj_date_parse(p, len, NULL, NULL) == JJ_OK ||
             given_iso(c, t, p, len, iso, &shaped, &n);
    case JJ_TIMESTAMP: /* without zone: taken as UTC (cv_emit) */
      if ((r = str_of(c, v, &p, &len))) return r == 1 ? 0 : r;
      return jj_timestamp_parse(p, len, NULL, NULL) == JJ_OK ||
             jj_local_timestamp_parse(p, len, 1, NULL, NULL) == JJ_OK ||
             given_iso(c, t, p, len, iso, &shaped, &n);
    case JJ_LOCAL_TIMESTAMP:
      if ((r = str_of(c, v, &p, &len))) return r == 1 ? 0 : r;
      return jj_local_timestamp_parse(p, len, 1, NULL, NULL) == JJ_OK ||
             given_iso(c, t, p, len, iso, &shaped, &n);
    case JJ_BYTES: {
      size_t bad;
      const char *why;
      if ((r = str_of(c, v, &p, &len))) return r == 1 ? 0 : r;
      if (jj_buf_reserve(&c->scratch2, len / 4 * 3 + 1)) return cv_nomem(c);
      return jj_base64_decode(p, len, (unsigned char *)c->scratch2.p, &bad,
                              &why) != (size_t)-1;
    }
    case JJ_TABLE:
      if (k == -3 && v->kind == V_ARR) k = v->esc;
      return k == K_TABLE || k == K_EMPTY;
    case JJ_JSON: /* every JSON value is one; a CSV field must be its text */
      if (v->kind != V_FIELD) return 1;
      if ((r = str_of(c, v, &p, &len))) return r == 1 ? 0 : r;
      {
        size_t bad;
        jj_code code;
        const char *why;
        return jj_json_canon(p, len, IC_MAX_DEPTH, NULL, &bad, &code, &why) >= 0;
      }
    default:
      return 0;
  }
}

/* A value that does not fit a forced type: an error, or (with the flag) a
** null counted in pass 2. */
static int misfit(cv *c, cv_table *t, size_t col, const cv_val *v) {
  if (c->ahead) return CV_FAIL; /* written ahead: pass 2 will say it */
  cv_col *cc = &t->cols[col];
  char shown[JJ_SHOW_CAP], name[JJ_SHOW_CAP];
  jj_type ty = cc->forced ? cc->forced : cc->type;
  if (!cc->forced)
    return cv_fail(c, JJ_ERR_TYPE, v->off,
                   "%s is not %s as the first pass found (did the input "
                   "change between the passes?)",
                   show(v, shown), ic_type_words(ty));
  if (!(c->o.flags & JJ_CONVERT_BAD_TO_NULL)) {
    jj_code code = ty == JJ_DATE                    ? JJ_ERR_DATE
                   : ty == JJ_TIMESTAMP             ? JJ_ERR_TIMESTAMP
                   : ty == JJ_LOCAL_TIMESTAMP       ? JJ_ERR_TIMESTAMP
                   : ty == JJ_BYTES                 ? JJ_ERR_BASE64
                   : ty == JJ_INT || ty == JJ_FLOAT ? JJ_ERR_RANGE
                                                    : JJ_ERR_TYPE;
    double d;
    if ((ty == JJ_INT || ty == JJ_FLOAT) &&
        (v->kind == V_FIELD
             ? jj_num_parse_double(v->p, v->len, &d) == JJ_NUM_SYNTAX
             : v->kind != V_NUM))
      code = JJ_ERR_TYPE; /* not a number at all */
    char why[JJ_SHOW_CAP + 160];
    const char *p = NULL;
    size_t len = 0;
    jj_show(name, sizeof name, cc->name, cc->name_len, 0);
    int r = str_of(c, v, &p, &len), shaped = 0;
    char iso[DF_ISO_CAP], formats[200] = "";
    if (r == CV_FAIL) return r;
    if (r == 0 && (ty == JJ_DATE || ty == JJ_TIMESTAMP ||
                   ty == JJ_LOCAL_TIMESTAMP)) {
      size_t n;
      given_iso(c, ty, p, len, iso, &shaped, &n);
      if (shaped) p = iso, len = n; /* the calendar's reason for it */
      given_list(c, ty, formats, sizeof formats);
    }
    ic_misfit_words(ty, r == 0 ? p : NULL, len, name, why, sizeof why);
    if (shaped && !strncmp(why, " (the schema", 12)) {
      /* a valid date whose weekday (%a, %A) is another day's */
      char tail[sizeof why];
      memcpy(tail, why + 2, sizeof why - 2);
      snprintf(why, sizeof why, " (not that day of the week; %.200s", tail);
    } else if (formats[0] && !shaped && !strncmp(why, " (expected ", 11)) {
      /* "(expected YYYY-MM-DD or %m/%d/%Y; the schema says x:d)" */
      const char *semi = strchr(why, ';');
      char more[sizeof why];
      snprintf(more, sizeof more, "%.*s%s%s", semi ? (int)(semi - why) : 0, why,
               formats, semi ? semi : "");
      memcpy(why, more, sizeof why);
    }
    return cv_fail(c, code, v->off, "%s is not %s%s", show(v, shown),
                   ic_type_words(ty), why);
  }
  if (c->pass == 2) {
    ic_nulled(&c->x, cc, show(v, shown));
    c->nulled++;
    if (jj_writer_null(c->wr)) return cv_wfail(c);
  }
  return 0;
}

long cv_column(cv *c, cv_table *t, const char *name, size_t len, uint64_t off) {
  char shown[JJ_SHOW_CAP];
  long i = ic_find(t, name, len);
  if (i >= 0 || c->pass == 1) return i >= 0 ? i : ic_column(&c->x, t, name, len, off);
  return cv_fail(c, JJ_ERR_SCHEMA, off,
                 "key %s was not there in the first pass (did the input "
                 "change between the passes?)",
                 jj_show(shown, sizeof shown, name, len, 1)),
         -1;
}

int cv_wfail(cv *c) {
  if (c->ahead) return CV_FAIL; /* written ahead: the rows go */
  const jj_error *e = jj_writer_error(c->wr);
  return cv_fail_plain(c, e->code, UINT64_MAX, "%s", e->message);
}

int cv_fold(cv *c, cv_table *t, size_t col, const cv_val *v, int *kind) {
  cv_col *cc = &t->cols[col];
  int k = cv_kind(c, v, cc);
  if (k == -2) return CV_FAIL;
  if (kind) *kind = k;
  if (k < 0) return 0; /* null */
  if (cc->forced) {
    int r = fits(c, cc->forced, v, k);
    if (r == CV_FAIL) return r;
    return r ? 0 : misfit(c, t, col, v);
  }
  if (k == K_TEXT && ic_dates_live(&c->x, cc)) { /* another date spelling? */
    const char *p;
    size_t len;
    if (cv_text(c, v, &p, &len)) return CV_FAIL;
    ic_dates_fold(&c->x, cc, p, len, !(cc->kinds & (1u << K_TEXT)));
  }
  if (!(cc->kinds & (1u << k))) {
    cc->kinds |= 1u << k;
    cv_example(c, cc, k, v);
  }
  return 0;
}

int cv_json_compact(cv *c, const cv_val *v, const char **p, size_t *len) {
  jj_buf *b = &c->scratch2;
  b->len = 0;
  if (jj_buf_reserve(b, v->len)) return cv_nomem(c);
  b->len = compact(v->p, v->len, b->p, v->len);
  *p = b->p;
  *len = b->len;
  return 0;
}

int cv_emit(cv *c, cv_table *t, size_t col, const cv_val *v) {
  cv_col *cc = &t->cols[col];
  jj_writer *w = c->wr;
  const char *p = NULL; /* set on every path that reads it; gcc's */
  size_t len = 0;       /* -Wmaybe-uninitialized cannot tell */
  double d;
  int64_t i;
  jj_code code;
  int r, shaped;
  char iso[DF_ISO_CAP];
  size_t n;
  if (v->kind == V_NULL) return jj_writer_null(w) ? cv_wfail(c) : 0;
  if (cc->forced && cc->type != JJ_TEXT) {
    r = fits(c, cc->type, v, -3);
    if (r == CV_FAIL) return r;
    if (!r) return misfit(c, t, col, v);
  }
  switch (cc->type) {
    case JJ_INT:
      if (v->kind == V_NUM || v->kind == V_FIELD) {
        p = v->p, len = v->len;
      } else if ((r = str_of(c, v, &p, &len))) {
        return r == 1 ? misfit(c, t, col, v) : r;
      }
      if (jj_num_parse_int64(p, len, &i) != JJ_NUM_OK)
        return misfit(c, t, col, v);
      code = jj_writer_int(w, i);
      break;
    case JJ_FLOAT:
      r = v->kind == V_NUM || v->kind == V_FIELD ? ic_num_double(v->p, v->len, &d)
                                                 : -1;
      if (r < 0) {
        if ((r = str_of(c, v, &p, &len)) == CV_FAIL) return r;
        r = r == 0 && (ic_num_double(p, len, &d) > 0 || ic_nan_text(p, len, &d));
      }
      if (r <= 0) return misfit(c, t, col, v);
      code = jj_writer_double(w, d);
      break;
    case JJ_BOOL:
      if (!cc->forced && !fits(c, JJ_BOOL, v, -3)) return misfit(c, t, col, v);
      code = jj_writer_bool(
          w, v->kind == V_TRUE || (v->kind == V_FIELD && v->p[0] == 't'));
      break;
    case JJ_DATE:
      if ((r = str_of(c, v, &p, &len)))
        return r == 1 ? misfit(c, t, col, v) : r;
      if (!jj_date_ok(p, len) && jj_date_parse(p, len, NULL, NULL)) {
        if (!(n = spelled(c, cc, p, len, iso, &shaped)))
          return misfit(c, t, col, v);
        p = iso, len = n; /* another spelling, written in ISO 8601 */
      }
      code = jj_writer_date(w, p, len);
      break;
    case JJ_TIMESTAMP:
      if ((r = str_of(c, v, &p, &len)))
        return r == 1 ? misfit(c, t, col, v) : r;
      if (jj_timestamp_parse(p, len, NULL, NULL) &&
          jj_local_timestamp_parse(p, len, 1, NULL, NULL)) {
        if (!(n = spelled(c, cc, p, len, iso, &shaped)))
          return misfit(c, t, col, v);
        p = iso, len = n; /* another spelling, written in ISO 8601 */
      }
      if (jj_timestamp_parse(p, len, NULL, NULL)) {
        jj_timestamp ts; /* an explicit t column takes no zone as UTC */
        char shown[JJ_SHOW_CAP];
        if (jj_local_timestamp_parse(p, len, 1, &ts, NULL))
          return misfit(c, t, col, v);
        ic_utc_note(&c->x, t, col, show(v, shown));
        code = jj_writer_timestamp_value(w, &ts);
        break;
      }
      code = jj_writer_timestamp(w, p, len);
      break;
    case JJ_LOCAL_TIMESTAMP: /* SQLite's space form is written with a T */
      if ((r = str_of(c, v, &p, &len)))
        return r == 1 ? misfit(c, t, col, v) : r;
      if (jj_local_timestamp_parse(p, len, 1, NULL, NULL)) {
        if (!(n = spelled(c, cc, p, len, iso, &shaped)))
          return misfit(c, t, col, v);
        p = iso, len = n; /* another spelling, written in ISO 8601 */
      }
      code = jj_writer_local_timestamp(w, p, len);
      break;
    case JJ_BYTES: {
      size_t bad;
      const char *why;
      if ((r = str_of(c, v, &p, &len)))
        return r == 1 ? misfit(c, t, col, v) : r;
      if (jj_buf_reserve(&c->scratch2, len / 4 * 3 + 1)) return cv_nomem(c);
      n = jj_base64_decode(p, len, (unsigned char *)c->scratch2.p, &bad, &why);
      if (n == (size_t)-1) return misfit(c, t, col, v);
      code = jj_writer_bytes(w, c->scratch2.p, n);
      break;
    }
    case JJ_TABLE:
      if (v->kind != V_ARR || v->esc == K_JSON) return misfit(c, t, col, v);
      return c->json_table(c, cc->sub, v);
    case JJ_JSON: /* the value's own JSON text, canonical (a string with
                  ** its quotes, which the scanner leaves around it) */
      if (v->kind == V_FIELD) {
        if ((r = cv_text(c, v, &p, &len))) return r;
      } else if (v->kind == V_STR) {
        p = v->p - 1, len = v->len + 2;
      } else if (v->kind == V_TRUE || v->kind == V_FALSE) {
        p = v->kind == V_TRUE ? "true" : "false", len = v->kind == V_TRUE ? 4 : 5;
      } else {
        p = v->p, len = v->len;
      }
      code = jj_writer_json(w, p, len);
      break;
    default: /* text, from whatever the value is */
      switch (v->kind) {
        case V_TRUE:
          p = "true", len = 4;
          break;
        case V_FALSE:
          p = "false", len = 5;
          break;
        case V_NUM:
          p = v->p, len = v->len;
          break;
        case V_ARR:
        case V_OBJ:
          if ((r = cv_json_compact(c, v, &p, &len))) return r;
          break;
        default:
          if ((r = cv_text(c, v, &p, &len))) return r;
      }
      code = jj_writer_text(w, p, len); /* checks UTF-8 (pass 1 did too) */
  }
  return code ? cv_wfail(c) : 0;
}
