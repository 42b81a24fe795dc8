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
**   - an unquoted field equal to the null text ("" unless opts.null_text)
**     is null; a quoted one never is, so "" is the empty text;
**   - a blank line is skipped, except in a table of one column, where it is
**     that column's empty field;
**   - a UTF-8 byte order mark at the start is skipped; the bytes must be
**     UTF-8.
** Each record must have as many fields as the header (JJ_ERR_ROW).  Header
** names: an empty one becomes "column_N" (N its 1-based position), a
** repeated one gets "_2", "_3", ... (the first free), each with a note.
*/
#include <stdlib.h>
#include <string.h>

#include "convert.h"

/* The scanner's state for one pass. */
typedef struct cs {
  cv *c;
  int st;                   /* CV_MORE or CV_FAIL after a NULL return */
  unsigned char stop[256];  /* bytes that end an unquoted field */
  const char *null_text;
  size_t null_len;
  int null_ok;              /* unquoted fields can be null at all */
} cs;

static uint64_t off(const cv *c, const char *p) {
  return c->w.base + (uint64_t)(p - c->w.buf);
}

static const char *end_of(const cv *c) { return c->w.buf + c->w.len; }

/* The first record's most frequent candidate outside quotes. */
void cv_csv_detect(cv *c) {
  static const char cand[4] = {',', '\t', ';', '|'};
  for (;;) {
    size_t count[4] = {0, 0, 0, 0};
    const char *p = c->w.buf, *e = end_of(c);
    int quoted = 0;
    if (c->w.len >= 3 && !memcmp(p, "\xEF\xBB\xBF", 3)) p += 3;
    for (; p < e; p++) {
      if (*p == '"') quoted = !quoted;
      if (quoted) continue;
      if (*p == '\n' || *p == '\r') break;
      for (int i = 0; i < 4; i++) count[i] += *p == cand[i];
    }
    if (p == e && !c->w.eof && cv_more(c, 0) > 0) continue;
    c->delim = ',';
    for (int i = 1, best = 0; i < 4; i++)
      if (count[i] > count[best]) best = i, c->delim = cand[i];
    return;
  }
}

/* Add one field to c->fields. */
static int add_field(cs *j, const cv_val *v) {
  cv *c = j->c;
  if (c->nfields == c->fields_cap) {
    if (c->fields_cap > CV_MAX_COLUMNS)
      return cv_fail(c, JJ_ERR_ROW, v->off,
                     "more than %d fields in a record", CV_MAX_COLUMNS);
    size_t cap = c->fields_cap ? c->fields_cap * 2 : 64;
    cv_val *f = realloc(c->fields, cap * sizeof *f);
    if (!f) return cv_nomem(c);
    c->fields = f;
    c->fields_cap = cap;
  }
  c->fields[c->nfields++] = *v;
  return 0;
}

/* The record at p into c->fields; past its line end. */
static const char *record(cs *j, const char *p) {
  cv *c = j->c;
  const char *e = end_of(c);
  char shown[JJ_SHOW_CAP];
  c->nfields = 0;
  for (;;) {
    cv_val v;
    v.off = off(c, p);
    v.kind = V_FIELD;
    v.esc = 0;
    if (*p == '"' && p < e) {
      const char *q = p + 1;
      for (;;) {
        q = memchr(q, '"', (size_t)(e - q));
        if (!q || (q + 1 == e && !c->w.eof)) {
          if (!c->w.eof) return j->st = CV_MORE, NULL;
          j->st = cv_fail(c, JJ_ERR_SYNTAX, v.off, "unterminated quoted field");
          return NULL;
        }
        if (q[1] != '"' || q + 1 == e) break;
        v.esc = 1;
        q += 2;
      }
      v.p = p + 1;
      v.len = (size_t)(q - p) - 1;
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
      while (q < e && !j->stop[(unsigned char)*q]) q++;
      if (q == e && !c->w.eof) return j->st = CV_MORE, NULL;
      v.p = p;
      v.len = (size_t)(q - p);
      if (j->null_ok && v.len == j->null_len &&
          !memcmp(p, j->null_text, v.len))
        v.kind = V_NULL;
      p = q;
    }
    if (add_field(j, &v)) return j->st = CV_FAIL, NULL;
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
      return cv_fail(c, JJ_ERR_UTF8, v->off, "header name %s is not valid "
                     "UTF-8", jj_show(shown, sizeof shown, p, len, 1));
    if (memchr(p, '\0', len))
      return cv_fail(c, JJ_ERR_SCHEMA, v->off, "header name %s contains "
                     "U+0000, which a column name cannot",
                     jj_show(shown, sizeof shown, p, len, 1));
    /* a name for the nameless, a suffix for the repeated */
    char *made = NULL;
    if (len == 0 || cv_find(&c->top, p, len) >= 0) {
      size_t cap = len + 32;
      if (!(made = malloc(cap))) return cv_nomem(c);
      for (unsigned k = 2;; k++) {
        int n = len ? snprintf(made, cap, "%.*s_%u", (int)len, p, k)
                    : snprintf(made, cap, "column_%zu", i + 1 + (k - 2));
        if (n > 0 && cv_find(&c->top, made, (size_t)n) < 0) break;
      }
      if (len)
        cv_note(c, "header name %s repeats in column %zu: named \"%s\"",
                jj_show(shown, sizeof shown, p, len, 1), i + 1, made);
      else
        cv_note(c, "column %zu has no name in the header: named \"%s\"",
                i + 1, made);
      p = made;
      len = strlen(made);
    }
    long k = cv_add(c, &c->top, p, len);
    free(made);
    if (k == -2) return cv_fail(c, JJ_ERR_SCHEMA, v->off, "too many columns");
    if (k < 0) return CV_FAIL;
    if (c->top.cols[k].forced == JJ_TABLE)
      return cv_fail_plain(c, JJ_ERR_USAGE, UINT64_MAX, "the schema says "
                           "column %s is a nested table, which CSV cannot "
                           "hold", jj_show(name, sizeof name, p, len, 1));
  }
  c->header_cols = c->nfields;
  return 0;
}

/* One data record: fold (pass 1) or write (pass 2) its fields. */
static int row(cs *j) {
  cv *c = j->c;
  if (c->nfields != c->header_cols)
    return cv_fail(c, JJ_ERR_ROW, c->fields[0].off,
                   "expected %zu field%s (as in the header), found %zu",
                   c->header_cols, c->header_cols == 1 ? "" : "s",
                   c->nfields);
  for (size_t i = 0; i < c->nfields; i++) {
    c->top.col = i;
    if (c->pass == 1 ? cv_fold(c, &c->top, i, &c->fields[i])
                     : cv_emit(c, &c->top, i, &c->fields[i]))
      return CV_FAIL;
  }
  c->top.col = (size_t)-1;
  if (c->pass == 2) {
    jj_code code = jj_writer_end_row(c->wr);
    if (code)
      return cv_fail_plain(c, code, UINT64_MAX, "%s",
                           jj_writer_error(c->wr)->message);
  }
  return 0;
}

int cv_csv_pass(cv *c) {
  cs j;
  const char *p = c->w.buf;
  int have_header = 0;
  memset(&j, 0, sizeof j);
  j.c = c;
  j.stop['\n'] = j.stop['\r'] = 1;
  j.stop[(unsigned char)c->delim] = 1;
  j.null_text = c->o.null_text ? c->o.null_text : "";
  j.null_len = strlen(j.null_text);
  j.null_ok = j.null_len > 0 || !(c->o.flags & JJ_CONVERT_CSV_EMPTY_IS_TEXT);
  if (c->w.len >= 3 && !memcmp(p, "\xEF\xBB\xBF", 3)) p += 3;
  for (;;) {
    if (p == end_of(c)) {
      int r = c->w.eof ? 0 : cv_more(c, (size_t)(p - c->w.buf));
      if (r < 0) return CV_FAIL;
      p = c->w.buf;
      if (r > 0) continue;
      if (!have_header)
        return cv_fail_plain(c, JJ_ERR_SYNTAX, UINT64_MAX,
                             "the input has no header record");
      return 0;
    }
    if ((*p == '\n' || *p == '\r') && (!have_header || c->header_cols > 1)) {
      p++; /* a blank line */
      continue;
    }
    c->top.in_row = have_header;
    c->top.row = c->rows + 1;
    c->top.col = (size_t)-1;
    const char *q = record(&j, p);
    if (!q && j.st == CV_MORE) {
      int r = cv_more(c, (size_t)(p - c->w.buf));
      if (r < 0) return CV_FAIL;
      p = c->w.buf;
      continue;
    }
    if (!q) return CV_FAIL;
    if (!have_header) {
      if (c->pass == 1 ? header(&j) : c->nfields != c->header_cols
                             ? cv_fail_plain(c, JJ_ERR_ROW, UINT64_MAX,
                                             "the header changed between the "
                                             "passes")
                             : 0)
        return CV_FAIL;
      have_header = 1;
    } else {
      if (row(&j)) return CV_FAIL;
      c->rows++;
    }
    c->top.in_row = 0;
    p = q;
  }
}
