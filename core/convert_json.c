/*
** convert_json.c — the JSON input: one array of objects, or objects one
** after another (NDJSON), each object a row.
**
** A recursive-descent scanner over the window.  Each row (a top-level
** object) is parsed whole from the window; a row that runs past the bytes
** there makes the scanner return CV_MORE, and the row is parsed again once
** the window holds more (convert.h says why that is safe).
**
**   pass 1  each key is found or made a column; each value goes to cv_fold;
**           an array whose elements are all objects is parsed as rows of
**           the column's nested table (folded the same way, recursively).
**   pass 2  the row is whole in the window (convert.h).  A value whose
**           column is the next to write is written at once (a nested table
**           straight from its array); one that comes early waits in its
**           column's slot, stamped with the object's id, until its turn;
**           at the object's end the rest are written from their slots, a
**           column not stamped by this object as null.  A nested table
**           that waited is parsed again from its slot when written.
**
** Checks: everything JSON requires (RFC 8259) except that a string may not
** be cut by the window; strings are checked (escapes, UTF-8) when their
** value is classified or written; an array or object kept as text is
** checked fully by cv_json_skip().  A duplicate key in one object is an
** error (JSON parsers disagree on which one wins), so is an empty key (a
** column needs a name).
**
** The lexical layer (white space, strings, numbers, literals, the syntax
** messages, values passed over whole) is convert_json_lex.c's, its fast
** paths inline in convert_json_lex.h; this file is the rows.
*/
#include <string.h>

#include "convert_json_lex.h"

static const char *object(js *j, cv_table *t, const char *p, unsigned depth);

/* Pass 1: the array at p, as rows of column col's nested table when every
** element is an object.  *kind: K_TABLE, K_EMPTY or K_JSON.  The objects
** are folded as they come, before the end of the array says whether they
** all are objects; that is safe because a column with any K_JSON value is
** text, its nested table dropped.  Two cases need to know first: a column
** the schema makes a nested table (a K_JSON value there may become null,
** and must leave no trace in the nested columns), and an object that
** breaks a row's rules (a duplicate or empty key), which is no error if
** the array turns out to be text. */
static const char *array1(js *j, cv_table *t, size_t col, const char *p,
                          unsigned depth, int *kind) {
  cv *c = j->c;
  const char *q = ws(p + 1);
  cv_table *sub;
  if (*q == ']') return *kind = K_EMPTY, q + 1;
  jj_type forced = t->cols[col].forced;
  if (*q != '{' || (forced && forced != JJ_TABLE))
    return *kind = K_JSON, cv_json_skip(j, p, depth);
  if (forced &&
      (!(q = cv_json_array_kind(j, p, depth, kind, 1)) || *kind != K_TABLE))
    return q;
  if (!(sub = ic_sub(&c->x, t, col))) return j->st = CV_FAIL, NULL;
  sub->row = 0;
  for (q = ws(p + 1);;) {
    sub->in_row = 1;
    sub->row++;
    const char *r = object(j, sub, q, depth + 1);
    sub->in_row = 0;
    if (!r && j->st == CV_FAIL) { /* text after all? */
      jj_error first = *c->x.err;
      int in_rows = c->x.top.in_row;
      size_t top_col = c->x.top.col;
      r = cv_json_array_kind(j, p, depth, kind, 0);
      if (!r && j->st == CV_MORE) return NULL; /* decide with more input */
      if (r && *kind == K_JSON) return r;
      *c->x.err = first; /* no: the object's error stands */
      c->x.top.in_row = in_rows;
      c->x.top.col = top_col;
      j->st = CV_FAIL;
      return NULL;
    }
    if (!(q = r)) return NULL;
    q = ws(q);
    if (*q == ']') return *kind = K_TABLE, q + 1;
    if (*q != ',') return cv_json_expected(j, q, "',' or ']'");
    q = ws(q + 1);
    if (*q != '{') /* not all objects: the whole array is text */
      return *kind = K_JSON, cv_json_skip(j, p, depth);
  }
}

static int put_value(cv *c, cv_table *t, size_t i, const cv_val *v);
static const char *table_direct(js *j, cv_table *sub, const char *p,
                                unsigned depth);

/* The value at p of column col of t.  Pass 1 folds it; pass 2 writes it
** when `direct` (its column is the next to write), else keeps it in the
** column's slot. */
static const char *value(js *j, cv_table *t, size_t col, const char *p,
                         unsigned depth, int direct) {
  /* The value is built in locals and stored field by field: a struct built
  ** byte by byte and then copied whole stalls the store forwarding. */
  cv *c = j->c;
  const char *q, *vp = p;
  int esc = 0, kind;
  switch (*p) {
    case '"':
      if (!(q = string_end(j, p, &esc))) return NULL;
      kind = V_STR;
      vp = p + 1;
      break;
    case 't':
      kind = V_TRUE;
      if (!(q = literal(j, p, "true", 4))) return NULL;
      break;
    case 'f':
      kind = V_FALSE;
      if (!(q = literal(j, p, "false", 5))) return NULL;
      break;
    case 'n':
      kind = V_NULL;
      if (!(q = literal(j, p, "null", 4))) return NULL;
      break;
    case '[':
      esc = K_JSON;
      if (c->pass == 1)
        q = array1(j, t, col, p, depth, &esc);
      else if (direct && t->cols[col].type == JJ_TABLE && !t->cols[col].forced)
        return table_direct(j, t->cols[col].sub, p, depth);
      else if (t->cols[col].type == JJ_TABLE)
        q = cv_json_array_kind(j, p, depth, &esc, 1);
      else
        q = cv_json_skip(j, p, depth);
      if (!q) return NULL;
      kind = V_ARR;
      break;
    case '{':
      if (!(q = cv_json_skip(j, p, depth))) return NULL;
      kind = V_OBJ;
      esc = K_JSON;
      break;
    default:
      if ((*p < '0' || *p > '9') && *p != '-')
        return cv_json_expected(j, p, "a value");
      if (!(q = number_end(j, p))) return NULL;
      kind = V_NUM;
  }
  size_t vlen = (size_t)(q - vp) - (kind == V_STR);
  cv_col *cc = &t->cols[col];
  if (c->pass == 2 && direct) {
    cv_val v = {vp, vlen, off(c, p), (unsigned char)kind, (unsigned char)esc};
    return put_value(c, t, col, &v) ? (j->st = CV_FAIL, NULL) : q;
  }
  if (c->pass == 2) {
    cc->slot.p = vp;
    cc->slot.len = vlen;
    cc->slot.off = off(c, p);
    cc->slot.kind = (unsigned char)kind;
    cc->slot.esc = (unsigned char)esc;
    return q;
  }
  /* pass 1: the common kinds inline, the rest by cv_fold */
  int k = -1;
  if (!cc->forced) {
    if (kind == V_NUM)
      k = cv_num_fast(vp, vlen);
    else if (kind == V_STR && !esc && cv_ascii(vp, vlen))
      k = cv_text_fast(vp, vlen);
  }
  /* text goes to cv_fold while it may still be dates in another spelling */
  if (k < 0 || !(cc->kinds & (1u << k)) ||
      (k == K_TEXT && ic_dates_live(&c->x, cc))) {
    cv_val v = {vp, vlen, off(c, p), (unsigned char)kind, (unsigned char)esc};
    if (k < 0 || k == K_TEXT) {
      if (cv_fold(c, t, col, &v, NULL)) return j->st = CV_FAIL, NULL;
    } else {
      cc->kinds |= 1u << k;
      cv_example(c, cc, k, &v);
    }
  }
  return q;
}

/* Pass 2: write v in column i of t; the common cases inline, the rest by
** cv_emit.  0 or CV_FAIL. */
static int put_value(cv *c, cv_table *t, size_t i, const cv_val *v) {
  cv_col *col = &t->cols[i];
  int64_t n;
  t->col = i;
  if (!col->forced && v->kind == V_NUM && col->type == JJ_INT &&
      cv_int_fast(v->p, v->len, &n))
    return jj_writer_int(c->wr, n) ? cv_wfail(c) : 0;
  if (!col->forced && v->kind == V_STR && !v->esc && col->type == JJ_TEXT)
    return jj_writer_text(c->wr, v->p, v->len) ? cv_wfail(c) : 0;
  if (!col->forced && v->kind == V_STR && !v->esc && col->type == JJ_DATE &&
      jj_date_ok(v->p, v->len)) /* the writer checks it again */
    return jj_writer_date(c->wr, v->p, v->len) ? cv_wfail(c) : 0;
  return cv_emit(c, t, i, v);
}

/* Pass 2: write the columns from k on that the object `id` left in slots,
** up to the first it has not given yet (all of them at its end, the ones
** it did not give as nulls); the next column to write. */
static size_t put_slots(cv *c, cv_table *t, uint64_t id, size_t k, int end) {
  static const cv_val null = {NULL, 0, 0, V_NULL, 0};
  for (; k < t->n; k++) {
    int given = t->cols[k].stamp == id;
    if (!given && !end) break;
    if (put_value(c, t, k, given ? &t->cols[k].slot : &null)) return SIZE_MAX;
  }
  return k;
}

/* Pass 2: a nested table's array at p, written as it is read (its column
** is the next to write): the rows of `sub`, each object written by
** object().  Past the array. */
static const char *table_direct(js *j, cv_table *sub, const char *p,
                                unsigned depth) {
  cv *c = j->c;
  if (jj_writer_begin_table(c->wr)) return j->st = cv_wfail(c), NULL;
  sub->row = 0;
  for (p = ws(p + 1); *p != ']';) {
    if (*p != '{') return cv_json_expected(j, p, "an object");
    sub->in_row = 1;
    sub->row++;
    p = object(j, sub, p, depth + 1);
    sub->in_row = 0;
    if (!p) return NULL;
    p = ws(p);
    if (*p == ']') break;
    if (*p != ',') return cv_json_expected(j, p, "',' or ']'");
    p = ws(p + 1);
  }
  if (jj_writer_end_table(c->wr)) return j->st = cv_wfail(c), NULL;
  return p + 1;
}

/* The object at p as a row of t.  Pass 2 writes each value as soon as its
** column is the next to write (k), and keeps the others in their slots
** until it is; the caller has made sure the whole object is in the
** window. */
static const char *object(js *j, cv_table *t, const char *p, unsigned depth) {
  cv *c = j->c;
  uint64_t id = ++c->next_id;
  size_t k = 0;
  char shown[JJ_SHOW_CAP];
  int esc;
  t->col = (size_t)-1;
  if (depth > CV_MAX_DEPTH) {
    j->st = cv_fail(c, JJ_ERR_DEPTH, off(c, p),
                    "nesting deeper than the limit of %d", CV_MAX_DEPTH);
    return NULL;
  }
  p = ws(p + 1);
  if (*p != '}') {
    for (;;) {
      const char *q, *key;
      size_t klen;
      long i;
      if (*p != '"') return cv_json_expected(j, p, "a key");
      /* the key the rows before had next, compared raw */
      size_t g = t->col + 1 < t->n ? t->col + 1 : 0;
      if (g < t->n && t->cols[g].plain) {
        /* the name and its closing quote: the first 8 bytes in one load
        ** (the window has CV_PAD readable bytes after its data), the rest
        ** compared after */
        const cv_col *gc = &t->cols[g];
        size_t n = gc->name_len;
        uint64_t w8;
        memcpy(&w8, p + 1, 8);
        if ((size_t)(end_of(c) - p) > n + 1 && !((w8 ^ gc->key8) & gc->mask8) &&
            (n < 8 || (p[n + 1] == '"' && cv_eq(p + 9, gc->name + 8, n - 8)))) {
          i = (long)g;
          q = p + n + 2;
          goto found;
        }
      }
      if (!(q = string_end(j, p, &esc))) return NULL;
      key = p + 1;
      klen = (size_t)(q - p) - 2;
      if (esc) {
        cv_val kv = {key, klen, off(c, p), V_STR, 1};
        if (cv_text(c, &kv, &key, &klen)) return j->st = CV_FAIL, NULL;
      } else if (!jj_utf8_valid(key, klen, NULL)) {
        j->st = cv_fail(c, JJ_ERR_UTF8, off(c, p), "key %s is not valid UTF-8",
                        jj_show(shown, sizeof shown, key, klen, 1));
        return NULL;
      }
      if ((i = cv_column(c, t, key, klen, off(c, p))) < 0)
        return j->st = CV_FAIL, NULL;
    found:
      t->col = (size_t)i;
      if (t->cols[i].stamp == id) {
        j->st = cv_fail(c, JJ_ERR_SCHEMA, off(c, p),
                        "key %s appears twice in one object",
                        jj_show(shown, sizeof shown, t->cols[i].name,
                                t->cols[i].name_len, 1));
        return NULL;
      }
      t->col = (size_t)i;
      t->cols[i].stamp = id;
      p = ws(q);
      if (*p != ':') return cv_json_expected(j, p, "':' after the key");
      p = ws(p + 1);
      int direct = c->pass == 2 && (size_t)i == k;
      if (!(p = value(j, t, (size_t)i, p, depth + 1, direct))) return NULL;
      if (direct && (k = put_slots(c, t, id, k + 1, 0)) == SIZE_MAX)
        return j->st = CV_FAIL, NULL;
      t->col = (size_t)i; /* for the messages below */
      p = ws(p);
      if (*p == '}') break;
      if (*p != ',') return cv_json_expected(j, p, "',' or '}' after a value");
      p = ws(p + 1);
    }
  }
  if (c->pass == 2 && (put_slots(c, t, id, k, 1) == SIZE_MAX ||
                       (jj_writer_end_row(c->wr) && cv_wfail(c))))
    return j->st = CV_FAIL, NULL;
  t->col = (size_t)-1;
  return p + 1;
}

/* Pass 2: write the nested table held by the array value v (cv_emit calls
** it through c->json_table, which cv_json_pass sets). */
static int json_table(cv *c, cv_table *sub, const cv_val *v) {
  js j = {c, 0};
  const char *p = ws(v->p + 1);
  jj_code code = jj_writer_begin_table(c->wr);
  sub->row = 0;
  /* The array was only delimited (skip_light): its objects and commas are
  ** checked here, and nothing may run past its end. */
  const char *end = v->p + v->len - 1; /* the ']' */
  while (!code && p != end) {
    if (*p != '{') return cv_json_expected(&j, p, "an object"), CV_FAIL;
    sub->in_row = 1;
    sub->row++;
    p = object(&j, sub, p, 2 * sub->depth + 1);
    sub->in_row = 0;
    if (!p && j.st == CV_MORE) /* only if the input changed */
      return cv_fail(c, JJ_ERR_SYNTAX, v->off, "unterminated array");
    if (!p) return CV_FAIL;
    if ((p = ws(p)) > end)
      return cv_json_expected(&j, end, "an object"), CV_FAIL;
    if (p == end) break;
    if (*p != ',') return cv_json_expected(&j, p, "',' or ']'"), CV_FAIL;
    if ((p = ws(p + 1)) == end)
      return cv_json_expected(&j, p, "an object"), CV_FAIL;
  }
  if (!code) code = jj_writer_end_table(c->wr);
  return code ? cv_wfail(c) : 0;
}

/* Where the rows are: after '[' (first element or ']'), after ',', after a
** row in the array, after ']'; NDJSON: before an object or the end. */
enum { S_FIRST, S_ELEM, S_SEP, S_DONE, S_ND };

int cv_json_pass(cv *c) {
  js j = {c, 0};
  const char *p = c->w.buf;
  int s = -1;
  c->json_table = json_table;
  if (c->w.len >= 3 && !memcmp(p, "\xEF\xBB\xBF", 3)) p += 3;
  for (;;) {
    p = ws(p);
    if (p == end_of(c)) {
      if (!c->w.eof) {
        if (cv_more(c, (size_t)(p - c->w.buf)) < 0) return CV_FAIL;
        p = c->w.buf;
        continue;
      }
      if (s == S_ND || s == S_DONE) return 0;
      return cv_json_at_end(&j, p,
                            s < 0        ? "'[' or '{'"
                            : s == S_SEP ? "',' or ']'"
                                         : "an object"),
             CV_FAIL;
    }
    if (s < 0) { /* the first byte decides the form */
      s = *p == '[' ? S_FIRST : S_ND;
      c->json_array = s == S_FIRST;
      if (*p == '[') p++;
      continue;
    }
    switch (s) {
      case S_DONE:
        return cv_fail_plain(c, JJ_ERR_SYNTAX, off(c, p),
                             "unexpected data after the array of rows");
      case S_SEP:
        if (*p == ',')
          s = S_ELEM;
        else if (*p == ']')
          s = S_DONE;
        else
          return cv_json_expected(&j, p, "',' or ']' after a row"), CV_FAIL;
        p++;
        continue;
      case S_FIRST:
        if (*p == ']') {
          s = S_DONE;
          p++;
          continue;
        }
        break;
      default:
        break;
    }
    if (*p != '{') {
      c->x.top.in_row = 1;
      c->x.top.row = c->rows + 1;
      cv_json_expected(
          &j, p,
          s == S_ND ? "an object (one row per line)" : "an object (a row)");
      return CV_FAIL;
    }
    c->x.top.in_row = 1;
    c->x.top.row = c->rows + 1;
    /* pass 2 writes as it reads: the row must be whole in the window, and
    ** pass 1 measured the longest */
    if (c->pass == 2 && !c->w.eof &&
        (size_t)(end_of(c) - p) <= c->longest_row) {
      if (cv_more(c, (size_t)(p - c->w.buf)) < 0) return CV_FAIL;
      p = c->w.buf;
    }
    const char *q = object(&j, &c->x.top, p, 1);
    if (!q && j.st == CV_MORE && c->pass == 2)
      return cv_fail(c, JJ_ERR_SYNTAX, off(c, p),
                     "the row is longer than in the first pass (did the "
                     "input change between the passes?)"),
             CV_FAIL;
    if (!q && j.st == CV_MORE) {
      c->x.top.col = (size_t)-1; /* a message now is about the row */
      int r = cv_more(c, (size_t)(p - c->w.buf));
      if (r < 0) return CV_FAIL;
      p = c->w.buf;
      continue; /* again, with more bytes or at the end */
    }
    if (!q) return CV_FAIL;
    c->x.top.in_row = 0;
    c->rows++;
    if ((size_t)(q - p) > c->longest_row) c->longest_row = (size_t)(q - p);
    p = q;
    if (s != S_ND) s = S_SEP;
  }
}
