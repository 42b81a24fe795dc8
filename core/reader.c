/*
** reader.c — jj_parse: read and check the header of a document.  The
** document itself is doc.c's; rows are left to cursors (cursor.c), and
** JJ_PARSE_VALIDATE to jj_doc_validate (validate.c).
**
** The header, in the order it must appear (any JSON whitespace between):
**   {"jalapenojson":1,"columns":[names],"types":[types], other keys ...,
**    "rows":[
** jj_parse stops at the '[' after "rows" and records where the rows begin;
** nothing after it is looked at until a cursor gets there.  Every error says
** the byte where it was found: `byte 17: duplicate column name "id"`.
*/
#include <stdarg.h>
#include <string.h>

#include "doc.h"

/* Header parsing state.  Errors go to err; p moves forward. */
typedef struct hdr {
  const char *base, *p, *end;
  unsigned max_depth;
  jj_error *err;
  const char *key;  /* the contents of the last key read, as written */
  size_t key_len;
} hdr;

/* Room for any known key written with escapes (6 bytes per character). */
#define KEY_CAP 96

/* One name of a "columns" array, kept until its type is known. */
typedef struct hname {
  size_t at;   /* offset of the name's string in the document */
  size_t off;  /* its decoded bytes in the level's name buffer */
  size_t len;
} hname;

/* Fail with `byte N: ...` where N is the offset of `at`. */
static jj_code h_fail(hdr *h, jj_code code, const char *at, const char *fmt,
                      ...) JJ_PRINTF(4, 5);
static jj_code h_fail(hdr *h, jj_code code, const char *at, const char *fmt,
                      ...) {
  jj_where w = {0, -1, NULL, (size_t)(at - h->base), NULL, 0, -1};
  va_list ap;
  va_start(ap, fmt);
  jj_vfail(h->err, code, &w, fmt, ap);
  va_end(ap);
  return code;
}

/* "expected <what>, found <byte>" at h->p, or the end of input. */
static jj_code h_expected(hdr *h, jj_code code, const char *what) {
  char s[JJ_SHOW_CAP];
  if (h->p >= h->end)
    return h_fail(h, JJ_ERR_SYNTAX, h->p, "unexpected end of input (expected %s)",
                  what);
  return h_fail(h, code, h->p, "expected %s, found %s", what,
                jj_show(s, sizeof s, h->p, 1, 1));
}

/* Skip one JSON value at h->p (checked, within the depth limit); the
** failure is reported where it is. */
static const char *h_skip(hdr *h) {
  const char *bad = h->p, *why = "";
  jj_code code = JJ_ERR_SYNTAX;
  const char *q = jj_json_skip(h->p, h->end, h->max_depth, &bad, &code, &why);
  if (!q) h_fail(h, code, bad, "%s", why);
  return q;
}

/* The error for a value at h->p that is not what it must be: at the end
** of input "expected <what>", else the value is skipped (checked) and
** quoted by fmt.  -1. */
static int h_wrong_value(hdr *h, const char *what, jj_code code, const char *fmt) {
  char s[JJ_SHOW_CAP];
  if (h->p >= h->end) return h_expected(h, code, what), -1;
  const char *q = h_skip(h);
  if (!q) return -1;
  return h_fail(h, code, h->p, fmt, jj_show_value(s, h->p, (size_t)(q - h->p))), -1;
}

/* Expect byte c after optional whitespace and step over it; with
** `code` the error used when another (non-end) byte stands there. */
static int h_punct(hdr *h, char c, jj_code code, const char *what) {
  h->p = jj_ws(h->p, h->end);
  if (h->p < h->end && *h->p == c) {
    h->p = jj_ws(h->p + 1, h->end);
    return 0;
  }
  h_expected(h, code, what);
  return -1;
}

/* Read a key and the ':' after it; leave h->p on the value.  The decoded
** key goes to key[0..*klen) when it fits (known keys are short), else *klen
** is cap + 1 so it matches no known key. */
static int h_key(hdr *h, char *key, size_t cap, size_t *klen, const char **at) {
  h->p = jj_ws(h->p, h->end);
  *at = h->p;
  if (h->p >= h->end || *h->p != '"') {
    h_expected(h, JJ_ERR_SYNTAX, "a key");
    return -1;
  }
  const char *q = h_skip(h);
  if (!q) return -1;
  const char *s = h->p + 1;
  size_t n = (size_t)(q - s) - 1;
  h->key = s;
  h->key_len = n;
  *klen = cap + 1;
  if (n <= cap) {
    size_t bad;
    jj_code code;
    const char *why;
    if (memchr(s, '\\', n))
      *klen = jj_string_decode(s, n, key, &bad, &code, &why); /* checked */
    else
      memcpy(key, s, *klen = n);
  }
  h->p = q;
  return h_punct(h, ':', JJ_ERR_SYNTAX, "':' after a key");
}

/* 1 when the decoded key is `name`. */
static int key_is(const char *key, size_t klen, const char *name) {
  return klen == strlen(name) && memcmp(key, name, klen) == 0;
}

/* The last key read, quoted for a message. */
static const char *key_shown(const hdr *h, char *out) {
  return jj_show(out, JJ_SHOW_CAP, h->key, h->key_len, 1);
}

/* Read "columns": an array of names, decoded into *buf, one hname each in
** *names.  Both buffers belong to the caller (freed with jj_buf_free). */
static int h_names(hdr *h, jj_buf *buf, jj_buf *names, size_t *count) {
  char s[JJ_SHOW_CAP];
  const char *open = h->p;
  *count = 0;
  if (h->p >= h->end || *h->p != '[')
    return h_wrong_value(h, "'['", JJ_ERR_SCHEMA, "\"columns\" must be an array of names, found %s");
  h->p = jj_ws(h->p + 1, h->end);
  if (h->p < h->end && *h->p == ']') {
    h_fail(h, JJ_ERR_SCHEMA, open, "a table needs at least one column");
    return -1;
  }
  for (;;) {
    const char *v = h->p;
    if (v < h->end && *v == '"') {
      int esc = 0;
      size_t bad = 0, n;
      const char *why = "";
      jj_code code = JJ_ERR_SYNTAX;
      const char *q = jj_string_scan(v, h->end, &esc, &bad, &why);
      if (!q) return h_fail(h, JJ_ERR_SYNTAX, v + bad, "%s", why), -1;
      n = (size_t)(q - v) - 2;
      if (*count >= JJ_MAX_COLUMNS)
        return h_fail(h, JJ_ERR_SCHEMA, v, "too many columns (at most %d)",
                      JJ_MAX_COLUMNS), -1;
      if (jj_buf_reserve(buf, n + 1) || jj_buf_reserve(names, sizeof(hname)))
        return h_fail(h, JJ_ERR_NOMEM, v, "out of memory"), -1;
      hname hn = {(size_t)(v - h->base), buf->len, n};
      if (esc) {
        hn.len = jj_string_decode(v + 1, n, buf->p + buf->len, &bad, &code, &why);
        if (hn.len == (size_t)-1)
          return h_fail(h, code, v + 1 + bad, "%s in column name %s", why,
                        jj_show(s, sizeof s, v + 1, n, 1)), -1;
      } else {
        memcpy(buf->p + buf->len, v + 1, n);
      }
      buf->len += hn.len;
      memcpy(names->p + names->len, &hn, sizeof hn);
      names->len += sizeof hn;
      ++*count;
      h->p = q;
    } else {
      return h_wrong_value(h, "a column name", JJ_ERR_SCHEMA,
                           "column names must be strings, found %s");
    }
    h->p = jj_ws(h->p, h->end);
    if (h->p < h->end && *h->p == ']') break;
    if (h_punct(h, ',', JJ_ERR_SYNTAX, "',' or ']' after a column name"))
      return -1;
  }
  h->p++;
  return 0;
}

static int h_schema(hdr *h, jj_schema *s, unsigned level, jj_code keycode);

/* Read "types" for the names already read, adding the columns to s. */
static int h_types(hdr *h, jj_schema *s, const char *namebuf,
                   const hname *names, size_t count, unsigned level) {
  char shown[JJ_SHOW_CAP];
  const char *open = h->p;
  size_t i = 0;
  if (h->p >= h->end || *h->p != '[')
    return h_wrong_value(h, "'['", JJ_ERR_SCHEMA, "\"types\" must be an array, found %s");
  h->p = jj_ws(h->p + 1, h->end);
  if (h->p < h->end && *h->p == ']') {
    h->p++;
    return h_fail(h, JJ_ERR_SCHEMA, open,
                  "\"columns\" has %zu names but \"types\" has 0", count), -1;
  }
  for (;; i++) {
    const char *v = h->p, *q;
    if (i == count) { /* count the extra types for the message */
      size_t more = 0;
      for (;;) {
        if (!(q = h_skip(h))) return -1;
        more++;
        h->p = jj_ws(q, h->end);
        if (h->p < h->end && *h->p == ']') break;
        if (h_punct(h, ',', JJ_ERR_SYNTAX, "',' or ']' after a type")) return -1;
      }
      return h_fail(h, JJ_ERR_SCHEMA, open,
                    "\"columns\" has %zu names but \"types\" has %zu", count,
                    count + more), -1;
    }
    const hname *hn = &names[i];
    jj_schema *table = NULL;
    jj_type type;
    if (v < h->end && *v == '{') {
      if (2 * (level + 1) > h->max_depth)
        return h_fail(h, JJ_ERR_DEPTH, v,
                      "nested tables deeper than the depth limit of %u",
                      h->max_depth), -1;
      if (!(table = jj_schema_new()))
        return h_fail(h, JJ_ERR_NOMEM, v, "out of memory"), -1;
      if (h_schema(h, table, level + 1, JJ_ERR_SCHEMA)) {
        jj_schema_free(table);
        return -1;
      }
      type = JJ_TABLE;
    } else {
      if (v >= h->end) return h_expected(h, JJ_ERR_SYNTAX, "a type"), -1;
      if (!(q = h_skip(h))) return -1;
      char letter[16];
      size_t n = 0, bad;
      jj_code code;
      const char *why;
      if (*v == '"' && (size_t)(q - v) - 2 <= sizeof letter)
        n = jj_string_decode(v + 1, (size_t)(q - v) - 2, letter, &bad, &code, &why);
      type = *v == '"' && n == 1 ? jj_type_from_letter((unsigned char)letter[0]) : (jj_type)0;
      if (!type && n == 1 && *v == '"')
        /* a letter a later version may give meaning to: refused, never
        ** read as something else (SPEC.md, "Versions") */
        return h_fail(h, JJ_ERR_SCHEMA, v,
                      "column %s has type %s, which this reader does not know",
                      jj_show(shown + JJ_SHOW_CAP / 2, JJ_SHOW_CAP / 2,
                              namebuf + hn->off, hn->len, 1),
                      jj_show_value(shown, v, (size_t)(q - v))), -1;
      if (!type)
        return h_fail(h, JJ_ERR_SCHEMA, v, "unknown type %s for column %s",
                      jj_show_value(shown, v, (size_t)(q - v)),
                      jj_show(shown + JJ_SHOW_CAP / 2, JJ_SHOW_CAP / 2,
                              namebuf + hn->off, hn->len, 1)), -1;
      h->p = q;
    }
    jj_error e;
    if (jj_schema_add(s, namebuf + hn->off, hn->len, type, table, &e))
      return h_fail(h, e.code, h->base + hn->at, "%s", e.message), -1;
    h->p = jj_ws(h->p, h->end);
    if (h->p < h->end && *h->p == ']') break;
    if (h_punct(h, ',', JJ_ERR_SYNTAX, "',' or ']' after a type")) return -1;
  }
  h->p++;
  if (i + 1 < count)
    return h_fail(h, JJ_ERR_SCHEMA, open,
                  "\"columns\" has %zu names but \"types\" has %zu", count, i + 1), -1;
  return 0;
}

/* Read `"columns":[...],"types":[...]` into s (the keys' order is fixed).
** For a nested table (level > 0) the braces around them too.  keycode is
** the error for a wrong key: JJ_ERR_HEADER at the top, JJ_ERR_SCHEMA in a
** nested table type. */
static int h_schema(hdr *h, jj_schema *s, unsigned level, jj_code keycode) {
  char key[KEY_CAP], shown[JJ_SHOW_CAP];
  size_t klen, count;
  const char *at;
  jj_buf buf = {0}, names = {0};
  int rc = -1;
  if (level > 0) {
    h->p = jj_ws(h->p + 1, h->end); /* past '{' */
    if (h->p < h->end && *h->p != '"') {
      h_fail(h, JJ_ERR_SCHEMA, h->p,
             "a nested table type must be {\"columns\":[...],\"types\":[...]}");
      goto done;
    }
  }
  if (h_key(h, key, sizeof key, &klen, &at)) goto done;
  if (!key_is(key, klen, "columns")) {
    h_fail(h, keycode, at, "expected \"columns\"%s, found %s",
           level ? " in a nested table type" : " after \"jalapenojson\"",
           key_shown(h, shown));
    goto done;
  }
  if (h_names(h, &buf, &names, &count)) goto done;
  if (h_punct(h, ',', keycode, "',' and \"types\" after \"columns\"")) goto done;
  if (h_key(h, key, sizeof key, &klen, &at)) goto done;
  if (!key_is(key, klen, "types")) {
    h_fail(h, keycode, at, "expected \"types\" after \"columns\", found %s",
           key_shown(h, shown));
    goto done;
  }
  if (h_types(h, s, buf.p, (const hname *)(void *)names.p, count, level)) goto done;
  if (level > 0) {
    h->p = jj_ws(h->p, h->end);
    if (h->p < h->end && *h->p != '}') {
      h_fail(h, JJ_ERR_SCHEMA, h->p,
             "a nested table type has only \"columns\" and \"types\"");
      goto done;
    }
    if (h_punct(h, '}', JJ_ERR_SYNTAX, "'}'")) goto done;
  }
  rc = 0;
done:
  jj_buf_free(&buf);
  jj_buf_free(&names);
  return rc;
}

/* Read the keys after "types" up to and including `"rows":[`. */
static int h_rest(hdr *h, jj_doc *doc) {
  char key[KEY_CAP], shown[JJ_SHOW_CAP];
  size_t klen;
  const char *at;
  for (;;) {
    h->p = jj_ws(h->p, h->end);
    if (h->p < h->end && *h->p == '}')
      return h_fail(h, JJ_ERR_HEADER, h->p, "the header has no \"rows\""), -1;
    if (h_punct(h, ',', JJ_ERR_SYNTAX, "',' or '}' after a value")) return -1;
    if (h_key(h, key, sizeof key, &klen, &at)) return -1;
    if (key_is(key, klen, "rows")) {
      if (h->p < h->end && *h->p == '[') {
        doc->rows = h->p + 1;
        return 0;
      }
      return h_wrong_value(h, "'['", JJ_ERR_HEADER, "\"rows\" must be an array, found %s");
    }
    if (key_is(key, klen, "jalapenojson") || key_is(key, klen, "columns") ||
        key_is(key, klen, "types") ||
        (key_is(key, klen, "count") && doc->count >= 0))
      return h_fail(h, JJ_ERR_HEADER, at, "repeated key %s", key_shown(h, shown)), -1;
    const char *v = h->p, *q = h_skip(h);
    if (!q) return -1;
    if (key_is(key, klen, "count")) {
      int64_t n = -1;
      if (jj_num_parse_int64(v, (size_t)(q - v), &n) != JJ_NUM_OK || n < 0)
        return h_fail(h, JJ_ERR_HEADER, v,
                      "\"count\" must be a non-negative integer, found %s",
                      jj_show_value(shown, v, (size_t)(q - v))), -1;
      doc->count = n;
      doc->count_at = (size_t)(v - h->base);
    }
    h->p = q;
  }
}

/* Check the header; the caller frees the document with jj_doc_free. */
jj_doc *jj_parse_opts(const char *data, size_t len, unsigned flags,
                      unsigned max_depth, jj_error *err) {
  char key[KEY_CAP], shown[JJ_SHOW_CAP];
  size_t klen;
  const char *at;
  hdr h = {data, data, data + len, max_depth ? max_depth : JJ_DEFAULT_MAX_DEPTH,
           err, NULL, 0};
  jj_error_clear(err);
  if (!data && len) {
    JJ_USAGE(jj_fail(err, JJ_ERR_USAGE, NULL, "jj_parse needs the document's bytes"));
    return NULL;
  }
  jj_doc *doc = jj_doc_new(NULL, 0, 0, data, data + len, h.max_depth, err);
  if (!doc) return NULL;
  doc->scan = jj_scan_choose((jj_scan)((flags >> 4) & 3u));

  if (len >= 3 && memcmp(data, "\xEF\xBB\xBF", 3) == 0) {
    h_fail(&h, JJ_ERR_SYNTAX, data, "a byte order mark is not allowed");
    goto fail;
  }
  h.p = jj_ws(h.p, h.end);
  if (h.p >= h.end) {
    h_fail(&h, JJ_ERR_SYNTAX, h.p, "the document is empty");
    goto fail;
  }
  if (*h.p != '{') {
    h_expected(&h, JJ_ERR_HEADER, "'{' to start a jalapenojson document");
    goto fail;
  }
  h.p = jj_ws(h.p + 1, h.end);
  if (h.p < h.end && *h.p != '"') {
    h_expected(&h, JJ_ERR_HEADER, "\"jalapenojson\" as the first key");
    goto fail;
  }
  if (h_key(&h, key, sizeof key, &klen, &at)) goto fail;
  if (!key_is(key, klen, "jalapenojson")) {
    h_fail(&h, JJ_ERR_HEADER, at, "the first key must be \"jalapenojson\", found %s",
           key_shown(&h, shown));
    goto fail;
  }
  const char *v = h.p, *q = h_skip(&h);
  if (!q) goto fail;
  if (q - v != 1 || *v != '1') {
    h_fail(&h, JJ_ERR_VERSION, v,
           "version %s is not supported (expected the integer 1)",
           jj_show_value(shown, v, (size_t)(q - v)));
    goto fail;
  }
  h.p = q;
  if (h_punct(&h, ',', JJ_ERR_HEADER, "',' and \"columns\" after the version"))
    goto fail;
  if (h_schema(&h, doc->own_schema, 0, JJ_ERR_HEADER)) goto fail;
  if (h_rest(&h, doc)) goto fail;
  if ((flags & JJ_PARSE_VALIDATE) && jj_doc_validate(doc, err)) goto fail;
  return doc;
fail:
  jj_doc_free(doc);
  return NULL;
}

/* See jalapenojson.h. */
jj_scan jj_doc_scan(const jj_doc *doc) { return doc ? doc->scan : JJ_SCAN_SCALAR; }

/* jj_parse_opts with no flags and the default depth. */
jj_doc *jj_parse(const char *data, size_t len, jj_error *err) {
  return jj_parse_opts(data, len, 0, 0, err);
}
