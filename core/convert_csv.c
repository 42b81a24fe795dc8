/*
** convert_csv.c — the CSV / TSV input (RFC 4180): a header record names
** the columns, every later record is a row.
**
** The record grammar, as read here:
**   - records end in LF, CRLF or a lone CR; the last one may end at the end
**     of the input without a line end;
**   - fields are separated by the delimiter (',' or as given or detected);
**   - a field that starts with '"' is quoted: it ends at a '"' not followed
**     by another ('""' is one '"' inside), may hold delimiters, CR and LF,
**     and must be followed by the delimiter or the line end (anything else
**     is an error: "a"b is ambiguous);
**   - a '"' inside an unquoted field is an ordinary character;
**   - an unquoted field equal to a null text (opts.null_text and
**     opts.null_texts; "" when neither is given) is null; a quoted one
**     never is, so "" is the empty text;
**   - a blank line is skipped, except in a table of one column, where it is
**     that column's empty field;
**   - a UTF-8 byte order mark at the start is skipped; the bytes must be
**     UTF-8.
** Each record must have as many fields as the header (JJ_ERR_ROW), unless
** JJ_CONVERT_CSV_NULL_PADDING fills a short one with nulls.  With on_error
** skip or null, a record whose contents fail (field count, a value that
** does not fit a forced type, bad UTF-8) is set aside in pass 1: the
** reject callback hears its error, pass 2 passes over its record number.
** A record that cannot be split (a broken quote) still stops the pass:
** where it ends is not known.  Numbers as spreadsheets write them (".5",
** "+5") and, when asked, with thousands separators ("1,234") count as the
** number they mean in a column of numbers (convert_csv_numbers.c).
** Header names: an empty one becomes "column_N" (N its 1-based position),
** a repeated one gets "_2", "_3", ... (the first free), each with a note.
** With JJ_CONVERT_CSV_NO_HEADER there is no header: the first record is
** read twice, once to name its columns column_1 ... column_N, once as
** the first row.  Per-column null markers (opts.null_for) are found by
** the column's name once the columns are known, so they apply from the
** first data record on.
*/
#include <stdlib.h>
#include <string.h>

#include "convert_scan.h"

/* The scanner's state for one pass. */
typedef struct cs {
  cv *c;
  int st;                  /* CV_MORE or CV_FAIL after a NULL return */
  struct {
    const char *p;
    size_t len;
  } nulls[JJ_CONVERT_MAX_NULLS + 1]; /* the texts that mean null */
  size_t n_nulls;
  size_t null_max; /* the longest of them: longer fields need no compare */
  uint64_t delim8; /* the delimiter in every byte (the scan of a field) */
  int fast_text; /* cv_text_fast applies (no CSV booleans) */
  struct {
    size_t col; /* the column's index */
    size_t first; /* the index of this column's first marker, whose count
                  ** is the column's */
    const char *p;
    size_t len;
    uint64_t n; /* fields made null, pass 1 (in the first's) */
    int64_t row; /* the first one's */
  } cn[JJ_CONVERT_MAX_NULL_FOR]; /* opts.null_for, resolved */
  size_t n_cn; /* 0 until the columns are known (no header: until the
               ** first record has named them and is read again) */
} cs;

static uint64_t off(const cv *c, const char *p) {
  return c->w.base + (uint64_t)(p - c->w.buf);
}

static const char *end_of(const cv *c) { return c->w.buf + c->w.len; }

/* Field counts of the first records (at most DETECT_RECORDS) of the
** window if `d` were the delimiter; the number of records seen. */
#define DETECT_RECORDS 20
static size_t field_counts(const cv *c, char d, size_t *counts) {
  const char *p = c->w.buf, *e = end_of(c);
  size_t n = 0, fields = 1;
  int quoted = 0, empty = 1; /* nothing in this record yet */
  if (c->w.len >= 3 && !memcmp(p, "\xEF\xBB\xBF", 3)) p += 3;
  for (; p < e && n < DETECT_RECORDS; p++) {
    if (*p == '"') quoted = !quoted;
    if (quoted || (*p != '\n' && *p != '\r')) {
      empty = 0;
      if (!quoted && *p == d) fields++;
      continue;
    }
    if (!empty) counts[n++] = fields; /* a blank line is no record */
    fields = 1;
    empty = 1;
  }
  if (p == e && n < DETECT_RECORDS && c->w.eof && !empty)
    counts[n++] = fields; /* the last record, without a line end */
  return n;
}

/* The delimiter among , tab ; | that splits the first records (up to 20,
** as far as the first window holds them) into the same number of fields
** each and the header more than one, the most fields winning and the order
** above breaking ties; else the one that gives the header the most fields
** (the rows are then ragged, an error that shows the problem); with none in
** the header (one column), the first that splits none of those records.
** Blank lines are not records here, quoted parts are skipped. */
void cv_csv_detect(cv *c) {
  static const char cand[4] = {',', '\t', ';', '|'};
  size_t counts[DETECT_RECORDS], best_fields = 0, most = 0;
  int best = -1, frequent = 0;
  while (!c->w.eof && c->w.len < c->w.cap && cv_more(c, 0) > 0) {
  }
  for (int i = 0; i < 4; i++) {
    size_t n = field_counts(c, cand[i], counts);
    int same = n > 0;
    for (size_t r = 1; r < n; r++) same &= counts[r] == counts[0];
    if (same && counts[0] > best_fields) best = i, best_fields = counts[0];
    if (n && counts[0] > most) most = counts[0], frequent = i;
  }
  c->delim = cand[best >= 0 && best_fields > 1 ? best
                  : most > 1                   ? frequent
                  : best >= 0                  ? best
                                               : 0];
}

/* Room for one more field in c->fields when it is full: its slot, or NULL
** (failed). */
static cv_val *more_fields(cs *j, const char *p) {
  cv *c = j->c;
  if (c->fields_cap > CV_MAX_COLUMNS) {
    cv_fail(c, JJ_ERR_ROW, off(c, p), "more than %d fields in a record",
            CV_MAX_COLUMNS);
    return NULL;
  }
  size_t cap = c->fields_cap ? c->fields_cap * 2 : 64;
  cv_val *f = realloc(c->fields, cap * sizeof *f);
  if (!f) return cv_nomem(c), NULL;
  c->fields = f;
  c->fields_cap = cap;
  return &c->fields[c->nfields++];
}

/* Room for one more field in c->fields: its slot, or NULL (failed). */
static inline cv_val *new_field(cs *j, const char *p) {
  cv *c = j->c;
  return c->nfields < c->fields_cap ? &c->fields[c->nfields++]
                                    : more_fields(j, p);
}

/* The first byte at or after p that ends an unquoted field (the
** delimiter, CR, LF, NUL), 8 bytes at a time where loads are little-endian:
** the window is followed by a NUL and defined room for 8-byte loads
** (CV_PAD). */
#define ZERO_BYTES(x) (((x) - JJ_ONES) & ~(x)) /* exact to the first */
static const char *field_end(const cs *j, const char *p) {
#if JJ_SWAR && (defined(__GNUC__) || defined(__clang__))
  for (;; p += 8) {
    uint64_t w, x, cr, lf;
    memcpy(&w, p, 8);
    x = w ^ j->delim8;
    cr = w ^ (JJ_ONES * '\r');
    lf = w ^ (JJ_ONES * '\n');
    uint64_t hit =
        (ZERO_BYTES(w) | ZERO_BYTES(x) | ZERO_BYTES(cr) | ZERO_BYTES(lf)) &
        JJ_HIGHS;
    if (hit) return p + (__builtin_ctzll(hit) >> 3);
  }
#else
  const char d = j->c->delim;
  while (*p && *p != d && *p != '\n' && *p != '\r') p++;
  return p;
#endif
}

/* The record at p into c->fields; past its line end.  Each field is
** stored member by member (see convert_json.c's value()). */
static const char *record(cs *j, const char *p) {
  cv *c = j->c;
  const char *e = end_of(c);
  char shown[JJ_SHOW_CAP];
  c->nfields = 0;
  for (;;) {
    cv_val *v = new_field(j, p);
    if (!v) return j->st = CV_FAIL, NULL;
    v->off = off(c, p);
    if (*p == '"' && p < e) {
      const char *q = p + 1;
      int esc = 0;
      for (;;) {
        q = memchr(q, '"', (size_t)(e - q));
        if (!q || (q + 1 == e && !c->w.eof)) {
          if (!c->w.eof) return j->st = CV_MORE, NULL;
          j->st =
              cv_fail(c, JJ_ERR_SYNTAX, v->off, "unterminated quoted field");
          return NULL;
        }
        if (q[1] != '"' || q + 1 == e) break;
        esc = 1;
        q += 2;
      }
      v->p = p + 1;
      v->len = (size_t)(q - p) - 1;
      v->kind = V_FIELD;
      v->esc = (unsigned char)esc;
      p = q + 1;
      if (p < e && *p != c->delim && *p != '\n' && *p != '\r') {
        j->st = cv_fail(c, JJ_ERR_SYNTAX, off(c, p),
                        "expected the delimiter or the end of the line after "
                        "a quoted field, found %s",
                        jj_show(shown, sizeof shown, p, 1, 1));
        return NULL;
      }
    } else {
      const char *q = p;
      for (;;) { /* the NUL after the window ends it */
        q = field_end(j, q);
        if (*q || q == e) break;
        q++; /* a NUL byte in the data */
      }
      if (q == e && !c->w.eof) return j->st = CV_MORE, NULL;
      size_t len = (size_t)(q - p);
      v->p = p;
      v->len = len;
      v->esc = 0;
      v->kind = V_FIELD;
      for (size_t k = 0; len <= j->null_max && k < j->n_nulls; k++)
        if (len == j->nulls[k].len && !memcmp(p, j->nulls[k].p, len))
          v->kind = V_NULL;
      /* a per-column marker: esc tells row() which one, for the count (a
      ** null's esc means nothing else) */
      for (size_t k = 0; k < j->n_cn && v->kind == V_FIELD; k++)
        if (j->cn[k].col == c->nfields - 1 && len == j->cn[k].len &&
            !memcmp(p, j->cn[k].p, len))
          v->kind = V_NULL, v->esc = (unsigned char)(len ? k + 1 : 0);
      p = q;
    }
    if (p < e && *p == c->delim) {
      p++;
      continue;
    }
    if (p == e) return p; /* the last record, without a line end */
    if (*p == '\r') {
      if (p + 1 == e && !c->w.eof) return j->st = CV_MORE, NULL;
      if (p[1] == '\n') p++;
    }
    return p + 1;
  }
}

/* The header record: the columns, in order. */
static int header(cs *j) {
  cv *c = j->c;
  char name[JJ_SHOW_CAP], shown[JJ_SHOW_CAP];
  for (size_t i = 0; i < c->nfields; i++) {
    cv_val *v = &c->fields[i];
    const char *p = "";
    size_t len = 0, bad;
    if (v->kind != V_NULL && cv_text(c, v, &p, &len)) return CV_FAIL;
    if (!jj_utf8_valid(p, len, &bad))
      return cv_fail(c, JJ_ERR_UTF8, v->off,
                     "header name %s is not valid "
                     "UTF-8",
                     jj_show(shown, sizeof shown, p, len, 1));
    if (memchr(p, '\0', len))
      return cv_fail(c, JJ_ERR_SCHEMA, v->off,
                     "header name %s contains "
                     "U+0000, which a column name cannot",
                     jj_show(shown, sizeof shown, p, len, 1));
    /* a name for the nameless, a suffix for the repeated */
    char *made = NULL;
    if (len == 0 || ic_find(&c->x.top, p, len) >= 0) {
      size_t cap = len + 32;
      if (!(made = malloc(cap))) return cv_nomem(c);
      for (unsigned k = 2;; k++) {
        int n = len ? snprintf(made, cap, "%.*s_%u", (int)len, p, k)
                    : snprintf(made, cap, "column_%zu", i + 1 + (k - 2));
        if (n > 0 && ic_find(&c->x.top, made, (size_t)n) < 0) break;
      }
      if (len)
        cv_note(c, "header name %s repeats in column %zu: named \"%s\"",
                jj_show(shown, sizeof shown, p, len, 1), i + 1, made);
      else
        cv_note(c, "column %zu has no name in the header: named \"%s\"", i + 1,
                made);
      p = made;
      len = strlen(made);
    }
    long k = ic_add(&c->x, &c->x.top, p, len);
    free(made);
    if (k == -2) return cv_fail(c, JJ_ERR_SCHEMA, v->off, "too many columns");
    if (k < 0) return CV_FAIL;
    if (c->x.top.cols[k].forced == JJ_TABLE)
      return cv_fail_plain(c, JJ_ERR_USAGE, UINT64_MAX,
                           "the schema says "
                           "column %s is a nested table, which CSV cannot "
                           "hold",
                           jj_show(name, sizeof name, p, len, 1));
  }
  c->header_cols = c->nfields;
  return 0;
}

/* Nulls for the fields a short record lacks, counted in pass 1.  0 or
** CV_FAIL. */
static int pad(cs *j) {
  cv *c = j->c;
  size_t had = c->nfields;
  uint64_t at = c->fields[had - 1].off;
  while (c->nfields < c->header_cols) {
    cv_val *v = new_field(j, c->w.buf);
    if (!v) return CV_FAIL;
    memset(v, 0, sizeof *v);
    v->p = "";
    v->off = at;
    v->kind = V_NULL;
  }
  if (c->pass == 1 && !c->padded++) {
    c->padded_row = c->records + 1;
    c->padded_fields = had;
  }
  return 0;
}

/* Errors of a row's contents, which on_error may set the row aside for;
** the others are the reading's. */
static int rejectable(jj_code code) {
  return code != JJ_ERR_NOMEM && code != JJ_ERR_IO &&
         code != JJ_ERR_INTERRUPTED && code != JJ_ERR_LIMIT &&
         code != JJ_ERR_USAGE;
}

/* Pass 1: set the record that just failed aside (its error in c->x.err):
** tell the reject callback, remember its number for pass 2, clear the
** error.  0 or CV_FAIL. */
static int set_aside(cv *c) {
  jj_error *e = c->x.err;
  if (c->n_aside == c->aside_cap) {
    size_t cap = c->aside_cap ? c->aside_cap * 2 : 16;
    int64_t *a = realloc(c->set_aside, cap * sizeof *a);
    if (!a) return cv_nomem(c);
    c->set_aside = a;
    c->aside_cap = cap;
  }
  c->set_aside[c->n_aside++] = c->records + 1;
  if (!c->first_aside) {
    size_t n = strlen(e->message) + 1;
    if (!(c->first_aside = malloc(n))) return cv_nomem(c);
    memcpy(c->first_aside, e->message, n);
  }
  if (c->o.reject) {
    const cv_col *col = e->column >= 0 && (size_t)e->column < c->x.top.n
                            ? &c->x.top.cols[e->column]
                            : NULL;
    c->o.reject(c->o.reject_ctx, e, col ? col->name : NULL,
                col ? col->name_len : 0);
  }
  memset(e, 0, sizeof *e);
  return 0;
}

/* One data record: fold (pass 1) or write (pass 2) its fields. */
static int row(cs *j) {
  cv *c = j->c;
  const char sep = c->o.thousands;
  if (c->nfields < c->header_cols &&
      (c->o.flags & JJ_CONVERT_CSV_NULL_PADDING) && pad(j))
    return CV_FAIL;
  if (c->nfields != c->header_cols)
    return cv_fail(c, JJ_ERR_ROW, c->fields[0].off,
                   "expected %zu field%s (as in the %s), found %zu",
                   c->header_cols, c->header_cols == 1 ? "" : "s",
                   c->o.flags & JJ_CONVERT_CSV_NO_HEADER ? "first record"
                                                         : "header",
                   c->nfields);
  for (size_t i = 0; i < c->nfields; i++) {
    const cv_val *v = &c->fields[i];
    cv_col *col = &c->x.top.cols[i];
    int k = -1;
    int64_t n;
    cv_val alt;
    char num[CV_NUM_MAX + 2];
    c->x.top.col = i;
    if (v->kind == V_FIELD && !v->esc && v->len && v->len <= CV_NUM_MAX &&
        (v->p[0] == '+' || v->p[0] == '.' || v->p[v->len - 1] == '.' ||
         (v->p[0] == '-' && v->len > 1 && v->p[1] == '.') ||
         (sep && memchr(v->p, sep, v->len))) &&
        !(v = cv_csv_number(c, i, v, &alt, num)))
      return CV_FAIL;
    if (c->pass == 1) { /* the common kinds inline, the rest by cv_fold */
      if (!col->forced && v->kind == V_FIELD && !v->esc && v->len) {
        if ((unsigned)(unsigned char)v->p[0] - '0' <= 9 || v->p[0] == '-') {
          k = cv_num_fast(v->p, v->len);
          if (k < 0 && v->len == 10 && v->p[4] == '-' && v->p[7] == '-' &&
              jj_date_ok(v->p, v->len))
            k = K_DATE; /* YYYY-MM-DD, as cv_text_fast finds it */
        }
        else if (j->fast_text && (cv_ascii(v->p, v->len) ||
                                  jj_utf8_valid(v->p, v->len, NULL)))
          k = cv_text_fast(v->p, v->len); /* its rules hold for UTF-8 */
      }
      int fast = k >= 0;
      /* text goes to cv_fold while it may be dates (infer_dates.c) */
      if (k < 0 || !(col->kinds & (1u << k)) ||
          (k == K_TEXT && ic_dates_live(&c->x, col)))
        if (cv_fold(c, &c->x.top, i, v, &k)) return CV_FAIL;
      if (c->ahead && k == K_TEXT && col->fmt_live) {
        cv_ahead_spelled(c, i, v); /* text read as dates (infer_dates.c) */
      } else if (c->ahead) {
        int done = fast ? cv_ahead_fast(c, col, k, v) : 0;
        if (done < 0) cv_ahead_stop(c);
        if (!done) cv_ahead_value(c, i, k, v);
      }
    } else if (!col->forced && v->kind == V_FIELD && !v->esc &&
               col->type == JJ_INT && cv_int_fast(v->p, v->len, &n)) {
      if (jj_writer_int(c->wr, n)) return cv_wfail(c);
    } else if (!col->forced && v->kind == V_FIELD && !v->esc &&
               col->type == JJ_TEXT) {
      if (jj_writer_text(c->wr, v->p, v->len)) return cv_wfail(c);
    } else if (cv_emit(c, &c->x.top, i, v)) {
      return CV_FAIL;
    }
  }
  c->x.top.col = (size_t)-1;
  if (c->pass == 2 && jj_writer_end_row(c->wr)) return cv_wfail(c);
  if (c->ahead) cv_ahead_end_row(c);
  for (size_t i = 0; c->pass == 1 && j->n_cn && i < c->nfields; i++) {
    const cv_val *v = &c->fields[i];
    if (v->kind == V_NULL && v->esc && !j->cn[j->cn[v->esc - 1].first].n++)
      j->cn[j->cn[v->esc - 1].first].row = c->records + 1;
  }
  return 0;
}

/* The per-column null markers by column index, once the columns are
** known; a name that is not a column is a usage error.  0 or CV_FAIL. */
static int column_nulls(cs *j) {
  cv *c = j->c;
  const jj_convert_opts *o = &c->o;
  char name[JJ_SHOW_CAP];
  j->n_cn = 0;
  if (o->n_null_for > JJ_CONVERT_MAX_NULL_FOR || (o->n_null_for && !o->null_for))
    return cv_fail_plain(c, JJ_ERR_USAGE, UINT64_MAX,
                         "at most %d per-column null markers",
                         JJ_CONVERT_MAX_NULL_FOR);
  for (size_t k = 0; k < o->n_null_for; k++) {
    const jj_convert_null_for *m = &o->null_for[k];
    if (!m->column || !m->text)
      return cv_fail_plain(c, JJ_ERR_USAGE, UINT64_MAX,
                           "per-column null marker %zu has a NULL %s", k + 1,
                           m->column ? "text" : "column");
    long i = ic_find(&c->x.top, m->column, strlen(m->column));
    if (i < 0 || (size_t)i >= c->header_cols)
      return cv_fail_plain(
          c, JJ_ERR_USAGE, UINT64_MAX,
          "column %s has a null marker but is not in the %s",
          jj_show(name, sizeof name, m->column, strlen(m->column), 1),
          o->flags & JJ_CONVERT_CSV_NO_HEADER ? "input (without a header, "
                                                "the columns are column_1, "
                                                "column_2, ...)"
                                              : "header");
    j->cn[k].col = (size_t)i;
    j->cn[k].first = k;
    for (size_t e = 0; e < k; e++)
      if (j->cn[e].col == (size_t)i) {
        j->cn[k].first = e;
        break;
      }
    j->cn[k].p = m->text;
    j->cn[k].len = strlen(m->text);
    j->cn[k].n = 0;
  }
  j->n_cn = o->n_null_for;
  return 0;
}

/* Pass 1's note for each column with fields made null by its own markers
** (not the empty field's). */
static void column_null_notes(cs *j) {
  cv *c = j->c;
  char name[JJ_SHOW_CAP], shown[JJ_SHOW_CAP];
  for (size_t k = 0; k < j->n_cn; k++) {
    if (j->cn[k].first != k || !j->cn[k].n) continue;
    const cv_col *col = &c->x.top.cols[j->cn[k].col];
    shown[0] = '\0';
    for (size_t e = k; e < j->n_cn; e++) { /* its markers, as given */
      size_t at = strlen(shown);
      if (j->cn[e].col != j->cn[k].col || !j->cn[e].len) continue;
      snprintf(shown + at, sizeof shown - at, "%s", at ? ", " : "");
      at = strlen(shown);
      jj_show(shown + at, sizeof shown - at, j->cn[e].p, j->cn[e].len, 1);
    }
    cv_note(c,
            "column %s: %llu field%s read as null by its null markers (%s; "
            "first: row %lld)",
            jj_show(name, sizeof name, col->name, col->name_len, 1),
            (unsigned long long)j->cn[k].n, j->cn[k].n == 1 ? "" : "s", shown,
            (long long)j->cn[k].row);
  }
}

/* No header: the first record's fields name the columns column_1 ...
** column_N (pass 1), or must be as many (pass 2).  0 or CV_FAIL. */
static int name_columns(cs *j) {
  cv *c = j->c;
  char name[32];
  if (c->pass == 2)
    return c->nfields == c->header_cols
               ? 0
               : cv_fail_plain(c, JJ_ERR_ROW, UINT64_MAX,
                               "the first record changed between the "
                               "passes");
  for (size_t i = 0; i < c->nfields; i++) {
    int n = snprintf(name, sizeof name, "column_%zu", i + 1);
    long k = ic_add(&c->x, &c->x.top, name, (size_t)n);
    if (k == -2)
      return cv_fail(c, JJ_ERR_SCHEMA, c->fields[i].off, "too many columns");
    if (k < 0) return CV_FAIL;
    if (c->x.top.cols[k].forced == JJ_TABLE)
      return cv_fail_plain(c, JJ_ERR_USAGE, UINT64_MAX,
                           "the schema says column \"%s\" is a nested "
                           "table, which CSV cannot hold",
                           name);
  }
  c->header_cols = c->nfields;
  cv_note(c,
          "no header record: the %zu column%s named column_1%s%s, the "
          "first record is row 1",
          c->nfields, c->nfields == 1 ? " is" : "s are",
          c->nfields > 1 ? " to " : "", c->nfields > 1 ? name : "");
  return 0;
}

/* The texts that mean null: null_text (NULL: none, "" the empty field),
** null_texts, and the empty field when neither is given; "" never with
** JJ_CONVERT_CSV_EMPTY_IS_TEXT.  0 or CV_FAIL (too many, or a NULL). */
static int null_texts(cs *j) {
  const jj_convert_opts *o = &j->c->o;
  int empty_text = (o->flags & JJ_CONVERT_CSV_EMPTY_IS_TEXT) != 0;
  if (o->n_null_texts > JJ_CONVERT_MAX_NULLS ||
      (o->n_null_texts && !o->null_texts))
    return cv_fail_plain(j->c, JJ_ERR_USAGE, UINT64_MAX,
                         "at most %d null texts", JJ_CONVERT_MAX_NULLS);
  for (size_t k = 0; k <= o->n_null_texts; k++) {
    const char *t = k == 0 ? o->null_text : o->null_texts[k - 1];
    if (k > 0 && !t)
      return cv_fail_plain(j->c, JJ_ERR_USAGE, UINT64_MAX,
                           "null text %zu is NULL", k);
    if (!t || (!*t && empty_text)) continue;
    j->nulls[j->n_nulls].p = t;
    j->nulls[j->n_nulls++].len = strlen(t);
    if (strlen(t) > j->null_max) j->null_max = strlen(t);
  }
  if (!o->null_text && !o->n_null_texts && !empty_text) {
    j->nulls[0].p = "";
    j->nulls[j->n_nulls++].len = 0;
  }
  return 0;
}

int cv_csv_pass(cv *c) {
  cs j;
  const char *p = c->w.buf;
  int have_header = 0;
  int no_header = (c->o.flags & JJ_CONVERT_CSV_NO_HEADER) != 0;
  memset(&j, 0, sizeof j);
  j.c = c;
  j.delim8 = JJ_ONES * (unsigned char)c->delim;
  if (null_texts(&j)) return CV_FAIL;
  j.fast_text = !(c->o.flags & JJ_CONVERT_CSV_BOOLEANS);
  if (c->w.len >= 3 && !memcmp(p, "\xEF\xBB\xBF", 3)) p += 3;
  for (;;) {
    if (p == end_of(c)) {
      if (!c->w.eof) {
        if (cv_more(c, (size_t)(p - c->w.buf)) < 0) return CV_FAIL;
        p = c->w.buf;
        continue;
      }
      if (!have_header)
        return cv_fail_plain(c, JJ_ERR_SYNTAX, UINT64_MAX,
                             no_header ? "the input has no records"
                                       : "the input has no header record");
      if (c->pass == 1) column_null_notes(&j);
      return 0;
    }
    if ((*p == '\n' || *p == '\r') && (!have_header || c->header_cols > 1)) {
      p++; /* a blank line */
      continue;
    }
    c->x.top.in_row = have_header || no_header;
    c->x.top.row = c->records + 1;
    c->x.top.col = (size_t)-1;
    const char *q = record(&j, p);
    if (!q && j.st == CV_MORE) {
      c->x.top.col = (size_t)-1;
      int r = cv_more(c, (size_t)(p - c->w.buf));
      if (r < 0) return CV_FAIL;
      p = c->w.buf;
      continue;
    }
    if (!q) return CV_FAIL;
    if (!have_header && no_header) {
      if (name_columns(&j) || column_nulls(&j)) return CV_FAIL;
      have_header = 1;
      if (c->pass == 1) cv_ahead_begin(c);
      continue; /* the same record again, as the first row */
    } else if (!have_header) {
      if (c->pass == 1 ? header(&j)
          : c->nfields != c->header_cols
              ? cv_fail_plain(c, JJ_ERR_ROW, UINT64_MAX,
                              "the header changed between the "
                              "passes")
              : 0)
        return CV_FAIL;
      if (column_nulls(&j)) return CV_FAIL;
      have_header = 1;
      if (c->pass == 1) cv_ahead_begin(c);
    } else if (c->pass == 2 && c->next_aside < c->n_aside &&
               c->set_aside[c->next_aside] == c->records + 1) {
      c->next_aside++; /* set aside in pass 1 */
      c->records++;
    } else {
      if (!row(&j))
        c->rows++;
      else if (c->pass == 2 || c->o.on_error == JJ_ON_ERROR_FAIL ||
               !rejectable(c->x.err->code) || (cv_ahead_stop(c), set_aside(c)))
        return CV_FAIL;
      c->records++;
    }
    c->x.top.in_row = 0;
    p = q;
  }
}
