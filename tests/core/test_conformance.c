/*
** test_conformance.c — the reader against JSONTestSuite's parsing cases
** (../shared/conformance/JSONTestSuite/test_parsing/ from the repository
** root, see PROVENANCE.md there; $JJ_JSONTESTSUITE overrides the
** directory).  A clone with no ../shared beside it skips the test with a
** line that says how to point at the cases, and counts nothing; with
** CI=true a missing directory is a failure instead.  Files are read as raw
** bytes and used unchanged.
**
** How a case becomes a jalapenojson document (the mapping):
**   A case's shape is its first byte after JSON whitespace.
**   ROW     '[': the file is a row as it stands:
**             {"jalapenojson":1,"columns":["c0",...],"types":[...],"rows":[\n
**             <file bytes>\n]}
**           The array's top-level elements are found lexically (commas at
**           depth one, outside strings), one column each, typed by the
**           element's first byte: '"' s; '-' '+' '.' or a digit f; true or
**           false b; null s (null fits any type).  An element that decides
**           nothing (empty, garbage such as Inf or 'x') takes the type the
**           file name names (`_number` f, `_string` s), else s.  When an
**           element is itself an array or object no column type holds it:
**           the file is used as META instead.
**   SCALAR  any other first byte: the file is the one value of a row:
**             ..."rows":[\n[<file bytes>\n]\n]}
**           typed the same way.
**   META    '{' (and arrays holding arrays or objects): the file is the
**           value of the header's free-form "meta" key, which must be one
**           valid JSON value:  ...,"types":["s"],"meta":<file bytes>\n,
**           "rows":[\n]}.  Only acceptance can be checked there.
**   Number columns whose text is integer-shaped (only digits and signs)
**   also give a second document with those columns typed i.
**   A case none of whose columns is s, f or i (and, for META, that holds no
**   '"' and no digit) has no string or number: not applicable.
** The newline after the file's bytes keeps an unterminated string in the
** file unterminated in the document (JSON forbids a raw newline there), so
** wrapping never turns an n_ text into a valid document.
**
** y_ cases must be accepted, by jj_parse_opts(JJ_PARSE_VALIDATE) and by
** reading every value through a cursor, with the right values: numbers
** equal to strtod/strtoll of the element's text (C locale), strings equal to
** a small decoder below (and to cJSON's decoding where cJSON can represent
** the string, i.e. it has no U+0000).  n_ cases must be rejected by both
** paths with an error code and message, never a crash.  i_ cases are run and
** what happened is printed.
*/
#include <cjson/cJSON.h>
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "jalapenojson.h"
#include "gen.h"

#define CONF_DEFAULT_DIR "../shared/conformance/JSONTestSuite/test_parsing"
#define CONF_MAX_COLS 32

enum { CONF_ROW, CONF_SCALAR, CONF_META, CONF_NA };

/* One element of a case: its text (trimmed), and what it is. */
typedef struct conf_elem {
  const char *p;
  size_t len;
  char kind; /* 's' string, 'f' number, 'b' bool, '0' null, '{' nested, '?' */
} conf_elem;

typedef struct conf_case {
  const char *name;
  const char *data; /* the file's bytes (malloc'd by conf_read) */
  size_t len;
  int mapping;
  size_t n; /* columns */
  conf_elem el[CONF_MAX_COLS];
  char types[CONF_MAX_COLS]; /* column type letters */
} conf_case;

static long conf_y_values, conf_y_meta, conf_n_rejected, conf_na_none, conf_na_wide,
    conf_i_accepted, conf_i_rejected, conf_cjson_strings, conf_cjson_skipped_nul, conf_docs;

static int conf_verbose; /* $JJ_CONFORMANCE_VERBOSE: print every n_ error too */
static int conf_skipped; /* the cases are not there: nothing to report */

static int conf_ws(char ch) { return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r'; }

/* ---------------------------------------------------------------------- */
/* Classifying a case                                                       */
/* ---------------------------------------------------------------------- */

/* What an element is, by its first byte (see the mapping above). */
static char conf_kind(const char *p, size_t len) {
  if (len == 0) return '?';
  if (p[0] == '"') return 's';
  if (p[0] == '-' || p[0] == '+' || p[0] == '.' || (p[0] >= '0' && p[0] <= '9')) return 'f';
  if (p[0] == '[' || p[0] == '{') return '{';
  if ((len == 4 && !memcmp(p, "true", 4)) || (len == 5 && !memcmp(p, "false", 5))) return 'b';
  if (len == 4 && !memcmp(p, "null", 4)) return '0';
  return '?';
}

/* Trim JSON whitespace from both ends of [*p, *p + *len). */
static void conf_trim(const char **p, size_t *len) {
  while (*len && conf_ws(**p)) ++*p, --*len;
  while (*len && conf_ws((*p)[*len - 1])) --*len;
}

/* Record one element; 0 when there are too many. */
static int conf_add(conf_case *c, const char *p, size_t len) {
  if (c->n == CONF_MAX_COLS) return 0;
  conf_trim(&p, &len);
  c->el[c->n].p = p;
  c->el[c->n].len = len;
  c->el[c->n].kind = conf_kind(p, len);
  c->n++;
  return 1;
}

/* Split the top-level array starting at data[at] == '[' into elements,
** lexically: commas at depth one outside strings; stops at the matching
** bracket or the end of the file.  `[]` has no elements. */
static int conf_split(conf_case *c, size_t at) {
  const char *d = c->data;
  size_t start = at + 1, k;
  int depth = 0, in_str = 0;
  for (k = at + 1; k < c->len; k++) {
    char ch = d[k];
    if (in_str) {
      if (ch == '\\')
        k++;
      else if (ch == '"')
        in_str = 0;
    } else if (ch == '"') {
      in_str = 1;
    } else if (ch == '[' || ch == '{') {
      depth++;
    } else if ((ch == ']' || ch == '}') && depth > 0) {
      depth--;
    } else if (ch == ']' || ch == '}') {
      break;
    } else if (ch == ',' && depth == 0) {
      if (!conf_add(c, d + start, k - start)) return 0;
      start = k + 1;
    }
  }
  if (k > c->len) k = c->len;
  const char *p = d + start;
  size_t len = k - start;
  conf_trim(&p, &len);
  if (len > 0 || c->n > 0) return conf_add(c, d + start, k - start);
  return 1;
}

/* Decide the mapping and the column types of a case. */
static void conf_classify(conf_case *c) {
  char hint = strstr(c->name, "number") ? 'f' : strstr(c->name, "string") ? 's' : 0;
  int nested = 0, typed = 0;
  size_t at = 0;
  while (at < c->len && conf_ws(c->data[at])) at++;
  c->n = 0;
  if (at < c->len && c->data[at] == '{') {
    c->mapping = CONF_META;
  } else if (at < c->len && c->data[at] == '[') {
    c->mapping = conf_split(c, at) ? CONF_ROW : CONF_NA;
  } else {
    c->mapping = CONF_SCALAR;
    conf_add(c, c->data, c->len);
  }
  for (size_t k = 0; k < c->n; k++) {
    char kind = c->el[k].kind;
    if (kind == '{') nested = 1;
    if (kind == '?' && hint) kind = hint;
    if (kind == 's' || kind == 'f') typed = 1;
    c->types[k] = kind == 'f' ? 'f' : kind == 'b' ? 'b' : 's';
  }
  if (c->mapping == CONF_NA) return; /* more than CONF_MAX_COLS elements */
  if (nested) c->mapping = CONF_META;
  if (c->mapping == CONF_META) {
    typed = memchr(c->data, '"', c->len) != NULL;
    for (size_t k = 0; k < c->len && !typed; k++) typed = c->data[k] >= '0' && c->data[k] <= '9';
  }
  if (!typed || (c->mapping != CONF_META && c->n == 0)) c->mapping = CONF_NA;
}

/* 1 when an element's text is integer-shaped: only signs and digits, with
** at least one digit. */
static int conf_int_shaped(const conf_elem *e) {
  int digits = 0;
  for (size_t k = 0; k < e->len; k++) {
    if (e->p[k] >= '0' && e->p[k] <= '9')
      digits = 1;
    else if (e->p[k] != '-' && e->p[k] != '+')
      return 0;
  }
  return digits;
}

/* The document for a case with the given column types, into b. */
static void conf_document(const conf_case *c, const char *types, gen_buf *b) {
  char tmp[32];
  b->len = 0;
  gen_buf_add(b, "{\"jalapenojson\":1,\"columns\":[", 29);
  size_t n = c->mapping == CONF_META ? 1 : c->n;
  for (size_t k = 0; k < n; k++)
    gen_buf_add(b, tmp, (size_t)snprintf(tmp, sizeof tmp, "%s\"c%zu\"", k ? "," : "", k));
  gen_buf_add(b, "],\"types\":[", 11);
  for (size_t k = 0; k < n; k++)
    gen_buf_add(b, tmp,
                (size_t)snprintf(tmp, sizeof tmp, "%s\"%c\"", k ? "," : "",
                                 c->mapping == CONF_META ? 's' : types[k]));
  if (c->mapping == CONF_META) {
    gen_buf_add(b, "],\"meta\":", 9);
    gen_buf_add(b, c->data, c->len);
    gen_buf_add(b, "\n,\"rows\":[\n]}", 13);
    return;
  }
  gen_buf_add(b, "],\"rows\":[\n", 11);
  if (c->mapping == CONF_SCALAR) gen_buf_add(b, "[", 1);
  gen_buf_add(b, c->data, c->len);
  gen_buf_add(b, c->mapping == CONF_SCALAR ? "\n]\n]}" : "\n]}", c->mapping == CONF_SCALAR ? 5 : 3);
}

/* ---------------------------------------------------------------------- */
/* Expected values, computed without the library                           */
/* ---------------------------------------------------------------------- */

static int conf_hex4(const char *p, uint32_t *out) {
  *out = 0;
  for (int k = 0; k < 4; k++) {
    char ch = p[k];
    int v = ch >= '0' && ch <= '9'   ? ch - '0'
            : ch >= 'a' && ch <= 'f' ? ch - 'a' + 10
            : ch >= 'A' && ch <= 'F' ? ch - 'A' + 10
                                     : -1;
    if (v < 0) return 0;
    *out = *out * 16 + (uint32_t)v;
  }
  return 1;
}

/* Decode the JSON string p[0..len) (quotes included) into out (room for
** len bytes); returns the length, or -1 when it is not a valid string. */
static long conf_decode(const char *p, size_t len, char *out) {
  size_t o = 0;
  if (len < 2 || p[0] != '"' || p[len - 1] != '"') return -1;
  for (size_t k = 1; k + 1 < len; k++) {
    if (p[k] != '\\') {
      out[o++] = p[k];
      continue;
    }
    if (++k + 1 >= len) return -1;
    const char *simple = strchr("\"\\/bfnrt", p[k]);
    if (simple && p[k]) {
      out[o++] = "\"\\/\b\f\n\r\t"[simple - "\"\\/bfnrt"];
      continue;
    }
    uint32_t cp, lo;
    if (p[k] != 'u' || k + 5 > len - 1 || !conf_hex4(p + k + 1, &cp)) return -1;
    k += 4;
    if (cp >= 0xDC00 && cp <= 0xDFFF) return -1;
    if (cp >= 0xD800 && cp <= 0xDBFF) {
      if (k + 7 > len - 1 || p[k + 1] != '\\' || p[k + 2] != 'u' || !conf_hex4(p + k + 3, &lo) ||
          lo < 0xDC00 || lo > 0xDFFF)
        return -1;
      cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
      k += 6;
    }
    o += gen_utf8(cp, out + o);
  }
  return (long)o;
}

/* ---------------------------------------------------------------------- */
/* Running a document                                                       */
/* ---------------------------------------------------------------------- */

/* Read every value of every row through a cursor with the accessor of its
** column's type.  JJ_OK when everything reads, else the first error. */
static jj_code conf_read_all(jj_doc *d, jj_error *err) {
  jj_cursor *cur = jj_cursor_new(d, err);
  if (!cur) return err->code;
  const jj_schema *s = jj_doc_schema(d);
  int rc;
  while ((rc = jj_cursor_next(cur, err)) == 1) {
    for (size_t col = 0; col < jj_schema_columns(s) && rc >= 0; col++) {
      int64_t i;
      double f;
      const char *p;
      size_t len;
      int b;
      switch (jj_schema_type(s, col)) {
        case JJ_INT: rc = jj_cursor_int(cur, col, &i, err); break;
        case JJ_FLOAT: rc = jj_cursor_double(cur, col, &f, err); break;
        case JJ_BOOL: rc = jj_cursor_bool(cur, col, &b, err); break;
        default: rc = jj_cursor_text(cur, col, &p, &len, err); break;
      }
    }
    if (rc < 0) break;
  }
  jj_cursor_free(cur);
  return rc < 0 ? (err->code ? err->code : JJ_ERR_USAGE) : JJ_OK;
}

/* The error must be a real one: a code, a message, a sane place (a case
** is at most one row; "row 2" is where a stray comma after it points). */
static int conf_error_sane(const jj_error *err, size_t len) {
  return err->code != JJ_OK && err->message[0] != '\0' &&
         (err->offset == JJ_NO_OFFSET || err->offset <= len) && err->row >= 0 && err->row <= 2;
}

/* A y_ case: accepted by both paths, every value as expected. */
static void conf_expect_accept(const conf_case *c, const char *types, const char *doc, size_t len) {
  jj_error err;
  jj_doc *d = jj_parse_opts(doc, len, JJ_PARSE_VALIDATE, 0, &err);
  if (!CHECK(d != NULL)) {
    fprintf(stderr, "     %s: rejected with JJ_PARSE_VALIDATE: %s\n     document: %.*s\n", c->name,
            err.message, (int)(len > 300 ? 300 : len), doc);
    return;
  }
  jj_doc_free(d);
  d = jj_parse(doc, len, &err);
  if (!CHECK(d != NULL)) return;
  jj_cursor *cur = jj_cursor_new(d, &err);
  int rc = cur ? jj_cursor_next(cur, &err) : -1;
  if (c->mapping == CONF_META) {
    if (!CHECK(rc == 0)) fprintf(stderr, "     %s: %s\n", c->name, err.message);
  } else if (CHECK(rc == 1)) {
    char *want = malloc(c->len + 1);
    if (!want) exit(2);
    for (size_t k = 0; k < c->n; k++) {
      const conf_elem *e = &c->el[k];
      int ok = 0;
      char text[400];
      snprintf(text, sizeof text, "%.*s", (int)e->len, e->p);
      if (e->kind == '0') {
        ok = jj_cursor_is_null(cur, k) == 1;
      } else if (types[k] == 'f') {
        double got = 0, exp = strtod(text, NULL);
        ok = jj_cursor_double(cur, k, &got, &err) == 1 && memcmp(&got, &exp, sizeof got) == 0;
        if (!ok)
          fprintf(stderr, "     %s: %s read as %a, strtod gives %a\n", c->name, text, got, exp);
      } else if (types[k] == 'i') {
        int64_t got = 0;
        long long exp = strtoll(text, NULL, 10);
        ok = jj_cursor_int(cur, k, &got, &err) == 1 && got == exp;
        if (!ok) fprintf(stderr, "     %s: %s read as int %lld\n", c->name, text, (long long)got);
      } else if (types[k] == 'b') {
        int got = -1;
        ok = jj_cursor_bool(cur, k, &got, &err) == 1 && got == (e->p[0] == 't');
      } else {
        const char *p = NULL;
        size_t plen = 0;
        long wlen = conf_decode(e->p, e->len, want);
        ok = wlen >= 0 && jj_cursor_text(cur, k, &p, &plen, &err) == 1 && plen == (size_t)wlen &&
             memcmp(p, want, plen) == 0;
        if (!ok) fprintf(stderr, "     %s: %s read as %zu bytes\n", c->name, text, plen);
      }
      if (!CHECK(ok))
        fprintf(stderr, "     %s column %zu (%c): %s\n", c->name, k, types[k], err.message);
    }
    free(want);
    rc = jj_cursor_next(cur, &err);
    if (!CHECK(rc == 0)) fprintf(stderr, "     %s: end of rows: %s\n", c->name, err.message);
  } else {
    fprintf(stderr, "     %s: first row: %s\n", c->name, err.message);
  }
  jj_cursor_free(cur);
  jj_doc_free(d);
}

/* An n_ case: rejected by JJ_PARSE_VALIDATE and by reading every value. */
static void conf_expect_reject(const conf_case *c, const char *doc, size_t len) {
  jj_error err;
  memset(&err, 0, sizeof err);
  jj_doc *d = jj_parse_opts(doc, len, JJ_PARSE_VALIDATE, 0, &err);
  if (!CHECK(d == NULL)) {
    fprintf(stderr, "     %s: accepted with JJ_PARSE_VALIDATE:\n     %.*s\n", c->name,
            (int)(len > 300 ? 300 : len), doc);
    jj_doc_free(d);
    return;
  }
  if (!CHECK(conf_error_sane(&err, len)))
    fprintf(stderr, "     %s: odd error: code %d, offset %zu, row %lld, \"%s\"\n", c->name,
            err.code, err.offset, (long long)err.row, err.message);
  if (conf_verbose) printf("  %-52s %s: %s\n", c->name, jj_code_name(err.code), err.message);
  memset(&err, 0, sizeof err);
  d = jj_parse(doc, len, &err);
  if (d) {
    jj_code code = conf_read_all(d, &err);
    if (!CHECK(code != JJ_OK && conf_error_sane(&err, len)))
      fprintf(stderr, "     %s: reading every value gave no error (or an odd one: %s)\n", c->name,
              err.message);
    CHECK(jj_doc_validate(d, &err) != JJ_OK);
    jj_doc_free(d);
  } else {
    CHECK(conf_error_sane(&err, len));
  }
}

/* An i_ case: run both paths (sanitizers watch) and say what happened. */
static void conf_report_i(const conf_case *c, const char *doc, size_t len, const char *variant) {
  jj_error err, err2;
  memset(&err, 0, sizeof err);
  memset(&err2, 0, sizeof err2);
  jj_doc *d = jj_parse_opts(doc, len, JJ_PARSE_VALIDATE, 0, &err);
  int accepted = d != NULL;
  jj_doc_free(d);
  d = jj_parse(doc, len, &err2);
  jj_code code = d ? conf_read_all(d, &err2) : err2.code;
  jj_doc_free(d);
  /* Both paths must agree on accepting. */
  if (!CHECK(accepted == (code == JJ_OK)))
    fprintf(stderr, "     %s: JJ_PARSE_VALIDATE %s, reading %s\n", c->name,
            accepted ? "accepts" : "rejects", code == JJ_OK ? "accepts" : "rejects");
  printf("  %-52s %-6s %s%s%s\n", c->name, variant, accepted ? "accepted" : "rejected",
         accepted ? "" : ": ", accepted ? "" : err.message);
  if (accepted)
    conf_i_accepted++;
  else
    conf_i_rejected++;
}

/* Cross-check the string decoder with cJSON on a y_ case, where cJSON can
** represent the strings (no U+0000). */
static void conf_cjson_check(const conf_case *c) {
  cJSON *root = cJSON_ParseWithLength(c->data, c->len);
  if (!CHECK(root != NULL)) return;
  char *want = malloc(c->len + 1);
  if (!want) exit(2);
  for (size_t k = 0; k < c->n; k++) {
    if (c->el[k].kind != 's') continue;
    const cJSON *item = c->mapping == CONF_SCALAR ? root : cJSON_GetArrayItem(root, (int)k);
    long wlen = conf_decode(c->el[k].p, c->el[k].len, want);
    if (wlen < 0 || memchr(want, 0, (size_t)wlen)) {
      conf_cjson_skipped_nul++;
      continue;
    }
    conf_cjson_strings++;
    if (!CHECK(cJSON_IsString(item) && strlen(item->valuestring) == (size_t)wlen &&
               memcmp(item->valuestring, want, (size_t)wlen) == 0))
      fprintf(stderr, "     %s: the test's decoder and cJSON disagree\n", c->name);
  }
  free(want);
  cJSON_Delete(root);
}

/* One file: classify, build the document(s), expect what its prefix says. */
static void conf_run(conf_case *c) {
  gen_buf doc = {0};
  char itypes[CONF_MAX_COLS];
  int any_int = 0;
  conf_classify(c);
  if (c->mapping == CONF_NA) {
    if (conf_verbose) printf("  %-52s not applicable\n", c->name);
    if (c->name[0] != 'i' && c->n == CONF_MAX_COLS)
      conf_na_wide++;
    else if (c->name[0] != 'i')
      conf_na_none++;
    return;
  }
  if (c->name[0] == 'y' && c->mapping == CONF_META)
    conf_y_meta++;
  else if (c->name[0] == 'y')
    conf_y_values++;
  else if (c->name[0] == 'n')
    conf_n_rejected++;
  for (size_t k = 0; k < c->n; k++) {
    itypes[k] = c->types[k];
    if (c->types[k] == 'f' && c->el[k].kind != '?' && conf_int_shaped(&c->el[k])) {
      itypes[k] = 'i';
      any_int = 1;
    }
  }
  for (int variant = 0; variant < 1 + any_int; variant++) {
    const char *types = variant ? itypes : c->types;
    conf_document(c, types, &doc);
    conf_docs++;
    if (c->name[0] == 'y')
      conf_expect_accept(c, types, doc.p, doc.len);
    else if (c->name[0] == 'n')
      conf_expect_reject(c, doc.p, doc.len);
    else
      conf_report_i(c, doc.p, doc.len, variant ? "(i)" : c->mapping == CONF_META ? "(meta)" : "");
  }
  if (c->name[0] == 'y' && c->mapping != CONF_META) conf_cjson_check(c);
  gen_buf_free(&doc);
}

/* ---------------------------------------------------------------------- */
/* The suite                                                                */
/* ---------------------------------------------------------------------- */

static int conf_cmp(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Read a whole file as bytes (malloc'd, freed by the caller); NULL on error. */
static char *conf_read(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  gen_buf b = {0};
  char chunk[4096];
  size_t n;
  if (!f) return NULL;
  gen_buf_add(&b, "", 0);
  while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) gen_buf_add(&b, chunk, n);
  int bad = ferror(f);
  fclose(f);
  if (bad) {
    gen_buf_free(&b);
    return NULL;
  }
  *len = b.len;
  return b.p;
}

/* Under CI (CI=true, as CI services set it) a missing suite is a failure. */
static int conf_ci(void) {
  const char *ci = getenv("CI");
  return ci && (!strcmp(ci, "true") || !strcmp(ci, "1"));
}

TEST(jsontestsuite_cases_map_to_documents) {
  const char *dir = getenv("JJ_JSONTESTSUITE");
  int overridden = dir && *dir;
  if (!overridden) dir = CONF_DEFAULT_DIR;
  DIR *dp = opendir(dir);
  if (!dp && !overridden && !conf_ci()) {
    printf("conformance: SKIPPED \xe2\x80\x94 JSONTestSuite not found at %s; set "
           "JJ_JSONTESTSUITE=/path/to/JSONTestSuite/test_parsing\n", dir);
    conf_skipped = 1;
    return;
  }
  if (!CHECK(dp != NULL)) {
    fprintf(stderr, "     cannot open %s (run from the repository root, or set "
                    "JJ_JSONTESTSUITE=/path/to/JSONTestSuite/test_parsing)\n", dir);
    return;
  }
  char **names = NULL;
  size_t count = 0, cap = 0;
  long y = 0, n = 0, i = 0;
  struct dirent *de;
  while ((de = readdir(dp)) != NULL) {
    if (de->d_name[0] != 'y' && de->d_name[0] != 'n' && de->d_name[0] != 'i') continue;
    if (count == cap) {
      cap = cap ? cap * 2 : 512;
      char **more = realloc(names, cap * sizeof *names);
      if (!more) exit(2);
      names = more;
    }
    size_t nlen = strlen(de->d_name);
    names[count] = malloc(nlen + 1);
    if (!names[count]) exit(2);
    memcpy(names[count], de->d_name, nlen + 1);
    count++;
  }
  closedir(dp);
  qsort(names, count, sizeof *names, conf_cmp);
  printf("conformance: i_ cases (implementation-defined), what the reader does:\n");
  for (size_t k = 0; k < count; k++) {
    char path[4096];
    conf_case c;
    memset(&c, 0, sizeof c);
    snprintf(path, sizeof path, "%s/%s", dir, names[k]);
    c.name = names[k];
    c.data = conf_read(path, &c.len);
    if (!CHECK(c.data != NULL)) {
      fprintf(stderr, "     cannot read %s\n", path);
    } else {
      y += names[k][0] == 'y', n += names[k][0] == 'n', i += names[k][0] == 'i';
      conf_run(&c);
    }
    free((void *)c.data);
    free(names[k]);
  }
  free(names);
  /* PROVENANCE.md: 95 y_, 188 n_, 35 i_; a partial copy is a failure. */
  if (!overridden) {
    CHECK_EQ_INT(y, 95);
    CHECK_EQ_INT(n, 188);
    CHECK_EQ_INT(i, 35);
  }
}

int main(void) {
  conf_verbose = getenv("JJ_CONFORMANCE_VERBOSE") != NULL;
  RUN(jsontestsuite_cases_map_to_documents);
  if (conf_skipped) return test_summary("conformance");
  printf(
      "conformance: checked %ld y_ (accepted: %ld with every value compared, %ld through "
      "\"meta\") and %ld n_ (rejected); %ld not applicable (%ld no string or number, %ld more "
      "than %d elements); %ld i_ documents run (%ld accepted, %ld rejected); %ld documents "
      "in all\n",
      conf_y_values + conf_y_meta, conf_y_values, conf_y_meta, conf_n_rejected,
      conf_na_none + conf_na_wide, conf_na_none, conf_na_wide, CONF_MAX_COLS,
      conf_i_accepted + conf_i_rejected, conf_i_accepted, conf_i_rejected, conf_docs);
  printf(
      "conformance: string decoding cross-checked with cJSON for %ld strings, %ld skipped "
      "(U+0000: cJSON strings end there)\n",
      conf_cjson_strings, conf_cjson_skipped_nul);
  return test_summary("conformance");
}
