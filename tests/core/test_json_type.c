/*
** test_json_type.c — the JSON column type `j` (SPEC.md, "j (JSON)"): the
** reader hands out a value's canonical text (the document's own bytes
** when written canonically, the canonical form otherwise), refuses bad
** JSON, bad UTF-8 and values nested too deep with located errors; the
** writer checks and canonicalises what it is given; copies, records,
** exports and validation carry the value as JSON, nested tables included.
** Prints "json_type: N passed, M failed".
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "jalapenojson.h"
#include "test.h"

#define HEAD "{\"jalapenojson\":1,\"columns\":[\"a\"],\"types\":[\"j\"],\"rows\":[\n"

/* Column 0 of row 1 of `doc` read with jj_cursor_json: 1 with the text in
** out (NUL-terminated), 0 null, -1 with the error's message in out. */
static int read1(const char *doc, char *out, size_t cap, jj_error *e) {
  jj_doc *d = jj_parse(doc, strlen(doc), e);
  if (!d) return snprintf(out, cap, "%s", e->message), -1;
  jj_cursor *c = jj_cursor_new(d, e);
  int r = jj_cursor_next(c, e);
  const char *p = NULL;
  size_t n = 0;
  if (r == 1) r = jj_cursor_json(c, 0, &p, &n, e);
  if (r == 1)
    snprintf(out, cap, "%.*s", (int)n, p);
  else if (r < 0)
    snprintf(out, cap, "%s", e->message);
  jj_cursor_free(c);
  jj_doc_free(d);
  return r;
}

#define CHECK_READ(row, want)                                   \
  do {                                                          \
    char got_[512];                                             \
    jj_error e_;                                                \
    CHECK_EQ_INT(read1(HEAD row "\n]}", got_, sizeof got_, &e_), 1); \
    CHECK_EQ_STR(got_, (want));                                 \
  } while (0)

#define CHECK_READ_ERR(row, code_, want)                        \
  do {                                                          \
    char got_[512];                                             \
    jj_error e_;                                                \
    CHECK_EQ_INT(read1(HEAD row "\n]}", got_, sizeof got_, &e_), -1); \
    CHECK_EQ_INT(e_.code, (code_));                             \
    CHECK_EQ_STR(got_, (want));                                 \
  } while (0)

TEST(values_read_as_canonical_json) {
  CHECK_READ("[{\"high\":62,\"low\":15}]", "{\"high\":62,\"low\":15}");
  CHECK_READ("[ { \"high\" : 62 ,\n\t\"low\" : [ 1 , 2 ] } ]", "{\"high\":62,\"low\":[1,2]}");
  /* numbers as written, whatever a double makes of them */
  CHECK_READ("[[1E5,-0,2.50,1e400,123456789012345678901234567890]]",
             "[1E5,-0,2.50,1e400,123456789012345678901234567890]");
  /* keys in order, repeated keys kept */
  CHECK_READ("[{\"b\":1,\"a\":2,\"b\":3}]", "{\"b\":1,\"a\":2,\"b\":3}");
  /* strings escaped as text columns' are: \/ and \u of printable
  ** characters unescaped, control characters as \b ... or \u00xx */
  CHECK_READ("[[\"\\/\\u00e9\\ud83d\\ude00\\u001F\\u0008\\\"\"]]",
             "[\"/\xc3\xa9\xf0\x9f\x98\x80\\u001f\\b\\\"\"]");
  CHECK_READ("[\"a\"]", "\"a\"");
  CHECK_READ("[5]", "5");
  CHECK_READ("[true]", "true");
  CHECK_READ("[{}]", "{}");
  CHECK_READ("[[]]", "[]");
  CHECK_READ("[[null]]", "[null]");
  char out[64];
  jj_error e;
  CHECK_EQ_INT(read1(HEAD "[null]\n]}", out, sizeof out, &e), 0); /* JSON null: the column's */
}

TEST(a_canonical_value_is_the_document_s_own_bytes) {
  const char *doc = HEAD "[{\"k\":[1,\"\\u0000\"]}]\n]}";
  jj_error e;
  jj_doc *d = jj_parse(doc, strlen(doc), &e);
  jj_cursor *c = jj_cursor_new(d, &e);
  const char *p = NULL;
  size_t n = 0;
  CHECK_EQ_INT(jj_cursor_next(c, &e), 1);
  CHECK_EQ_INT(jj_cursor_json(c, 0, &p, &n, &e), 1);
  CHECK(p == doc + strlen(HEAD) + 1); /* in place, after the row's '[' */
  CHECK_EQ_INT((int)n, 18);
  jj_value v;
  CHECK_EQ_INT(jj_cursor_value(c, 0, &v, &e), 1);
  CHECK_EQ_INT(v.type, JJ_JSON);
  CHECK(v.u.json.p == p && v.u.json.len == n);
  int64_t i;
  CHECK_EQ_INT(jj_cursor_int(c, 0, &i, &e), -1);
  CHECK_EQ_STR(e.message, "row 1, column \"a\": jj_cursor_int cannot read a JSON column");
  jj_cursor_free(c);
  jj_doc_free(d);
}

TEST(bad_values_are_located_errors) {
  /* arrays and objects: the row scan checks their JSON (byte 58 is the
  ** value's first byte; the error points at the fault) */
  CHECK_READ_ERR("[{\"a\":}]", JJ_ERR_SYNTAX, "row 1, column \"a\", byte 63: unexpected character");
  CHECK_READ_ERR("[[01]]", JJ_ERR_SYNTAX, "row 1, column \"a\", byte 59: invalid number");
  CHECK_READ_ERR("[[\"\\ud800\"]]", JJ_ERR_UTF8,
                 "row 1, column \"a\", byte 60: lone surrogate \\ud800-\\udbff (no low "
                 "surrogate after it)");
  CHECK_READ_ERR("[[\"\xff\"]]", JJ_ERR_UTF8, "row 1, column \"a\", byte 60: invalid UTF-8");
  /* a value that is a string or a number: the read checks it */
  CHECK_READ_ERR("[01]", JJ_ERR_SYNTAX, "row 1, column \"a\", byte 58: not valid JSON: invalid number");
  CHECK_READ_ERR("[1.]", JJ_ERR_SYNTAX, "row 1, column \"a\", byte 58: not valid JSON: invalid number");
  CHECK_READ_ERR("[\"\\ud800\"]", JJ_ERR_UTF8,
                 "row 1, column \"a\", byte 59: not valid JSON: lone surrogate \\ud800-\\udbff "
                 "(no low surrogate after it)");
  CHECK_READ_ERR("[\"\xc3\"]", JJ_ERR_UTF8,
                 "row 1, column \"a\", byte 59: not valid JSON: invalid UTF-8 in a string");
  CHECK_READ_ERR("[\"\\q\"]", JJ_ERR_SYNTAX,
                 "row 1, column \"a\", byte 59: not valid JSON: invalid escape");
}

TEST(the_depth_limit_holds_for_json_values) {
  const char *ok = HEAD "[[[[1]]]]\n]}", *deep = HEAD "[[[[[1]]]]]\n]}";
  jj_error e;
  jj_doc *d = jj_parse_opts(ok, strlen(ok), 0, 3, &e);
  CHECK(d && jj_doc_validate(d, &e) == JJ_OK);
  jj_doc_free(d);
  d = jj_parse_opts(deep, strlen(deep), 0, 3, &e);
  CHECK(d != NULL);
  CHECK_EQ_INT(jj_doc_validate(d, &e), JJ_ERR_DEPTH);
  CHECK(strstr(e.message, "nesting deeper than the limit") != NULL);
  CHECK(strncmp(e.message, "row 1, column \"a\", byte ", 24) == 0);
  jj_doc_free(d);
}

/* Write each of `vals` into a one-column j document; the document, or
** NULL with the writer's message in msg. */
static char *write_vals(const char *const *vals, size_t n, char *msg, size_t cap) {
  msg[0] = 0;
  jj_error e;
  jj_schema *s = jj_schema_new();
  jj_schema_add(s, "a", 1, JJ_JSON, NULL, &e);
  jj_writer *w = jj_writer_new(s, NULL, NULL, &e);
  jj_code code = JJ_OK;
  for (size_t i = 0; i < n && !code; i++) {
    code = jj_writer_json(w, vals[i], strlen(vals[i]));
    if (!code) code = jj_writer_end_row(w);
  }
  if (!code) code = jj_writer_finish(w);
  char *doc = code ? NULL : jj_writer_take(w, NULL);
  if (code) snprintf(msg, cap, "%.300s", jj_writer_error(w)->message);
  jj_writer_free(w);
  jj_schema_free(s);
  return doc;
}

TEST(the_writer_canonicalises) {
  const char *vals[] = {" { \"a\" : [ 1 , 2.50 , 1E5 ] ,\n \"b\" : \"\\u00e9\\/\\n\" } ",
                        "\"x\"", "-0", "null", "[]", "{\"k\":1,\"k\":2}"};
  char msg[400];
  char *doc = write_vals(vals, 6, msg, sizeof msg);
  CHECK(doc != NULL);
  if (doc)
    CHECK_EQ_STR(doc, HEAD "[{\"a\":[1,2.50,1E5],\"b\":\"\xc3\xa9/\\n\"}],\n[\"x\"],\n[-0],\n[null],\n"
                           "[[]],\n[{\"k\":1,\"k\":2}]\n]}");
  jj_free(doc);
  const char *bad[] = {"{\"a\":1"};
  CHECK(write_vals(bad, 1, msg, sizeof msg) == NULL);
  CHECK_EQ_STR(msg, "row 1, column \"a\": not valid JSON: unexpected end of input (at byte 6 "
                    "of the value)");
  const char *two[] = {"1 2"};
  CHECK(write_vals(two, 1, msg, sizeof msg) == NULL);
  CHECK_EQ_STR(msg, "row 1, column \"a\": not valid JSON: unexpected data after the value (at "
                    "byte 2 of the value)");
  const char *empty[] = {" "};
  CHECK(write_vals(empty, 1, msg, sizeof msg) == NULL);
  /* 64 levels read back with the default limit; 65 do not */
  char deep[200];
  memset(deep, '[', 65);
  memset(deep + 65, ']', 65);
  deep[130] = 0;
  const char *d65[] = {deep};
  CHECK(write_vals(d65, 1, msg, sizeof msg) == NULL);
  CHECK(strstr(msg, "nesting deeper than the limit") != NULL);
  const char *d64[] = {deep + 1};
  deep[129] = 0;
  doc = write_vals(d64, 1, msg, sizeof msg);
  CHECK(doc != NULL);
  jj_error e;
  jj_doc *d = doc ? jj_parse(doc, strlen(doc), &e) : NULL;
  CHECK(d && jj_doc_validate(d, &e) == JJ_OK);
  jj_doc_free(d);
  jj_free(doc);
  /* a text call into a j column is the wrong kind */
  jj_schema *s = jj_schema_new();
  jj_schema_add(s, "a", 1, JJ_JSON, NULL, &e);
  jj_writer *w = jj_writer_new(s, NULL, NULL, &e);
  CHECK_EQ_INT(jj_writer_text(w, "x", 1), JJ_ERR_USAGE);
  jj_writer_free(w);
  jj_schema_free(s);
}

/* A pretty document (whitespace and escapes anywhere) copied through the
** writer, as a record, and exported, in a nested table too. */
TEST(copies_records_and_exports_carry_json) {
  const char *doc =
      "{\"jalapenojson\":1,\"columns\":[\"id\",\"g\",\"t\"],\"types\":[\"i\",\"j\","
      "{\"columns\":[\"p\"],\"types\":[\"j\"]}],\"rows\":[\n"
      "[1, { \"type\" : \"Point\", \"coordinates\" : [ 1.5 , -2 ] }, [[ {\"\\u0041\":true} ]]],\n"
      "[2, \"s\", [[null], [[ ]]]]\n]}";
  jj_error e;
  jj_doc *d = jj_parse(doc, strlen(doc), &e);
  CHECK(d && jj_doc_validate(d, &e) == JJ_OK);
  /* the copy is canonical */
  jj_writer *w = jj_writer_new(jj_doc_schema(d), NULL, NULL, &e);
  jj_cursor *c = jj_cursor_new(d, &e);
  CHECK_EQ_INT(jj_writer_copy_rows(w, c), JJ_OK);
  CHECK_EQ_INT(jj_writer_finish(w), JJ_OK);
  char *copy = jj_writer_take(w, NULL);
  CHECK_EQ_STR(copy, "{\"jalapenojson\":1,\"columns\":[\"id\",\"g\",\"t\"],\"types\":[\"i\",\"j\","
                     "{\"columns\":[\"p\"],\"types\":[\"j\"]}],\"rows\":[\n"
                     "[1,{\"type\":\"Point\",\"coordinates\":[1.5,-2]},[[{\"A\":true}]]],\n"
                     "[2,\"s\",[[null],[[]]]]\n]}");
  jj_free(copy);
  jj_writer_free(w);
  jj_cursor_free(c);
  /* records embed the value as JSON */
  c = jj_cursor_new(d, &e);
  jj_cursor_next(c, &e);
  jj_buf b = {0};
  CHECK_EQ_INT(jj_cursor_object(c, (jj_sink)jj_buf_append, &b, &e), JJ_OK);
  jj_buf_append(&b, "", 1);
  CHECK_EQ_STR(b.p, "{\"id\":1,\"g\":{\"type\":\"Point\",\"coordinates\":[1.5,-2]},"
                    "\"t\":[{\"p\":{\"A\":true}}]}");
  jj_buf_free(&b);
  jj_cursor_free(c);
  /* NDJSON writes JSON, CSV its text */
  CHECK_EQ_INT(jj_to_text(d, JJ_FORMAT_NDJSON, NULL, (jj_sink)jj_buf_append, &b, &e), JJ_OK);
  jj_buf_append(&b, "", 1);
  CHECK_EQ_STR(b.p, "{\"id\":1,\"g\":{\"type\":\"Point\",\"coordinates\":[1.5,-2]},"
                    "\"t\":[{\"p\":{\"A\":true}}]}\n"
                    "{\"id\":2,\"g\":\"s\",\"t\":[{\"p\":null},{\"p\":[]}]}\n");
  jj_buf_free(&b);
  CHECK_EQ_INT(jj_to_text(d, JJ_FORMAT_CSV, NULL, (jj_sink)jj_buf_append, &b, &e), JJ_OK);
  jj_buf_append(&b, "", 1);
  CHECK_EQ_STR(b.p, "id,g,t\n1,\"{\"\"type\"\":\"\"Point\"\",\"\"coordinates\"\":[1.5,-2]}\","
                    "\"[{\"\"p\"\":{\"\"A\"\":true}}]\"\n"
                    "2,\"\"\"s\"\"\",\"[{\"\"p\"\":null},{\"\"p\"\":[]}]\"\n");
  jj_buf_free(&b);
  jj_doc_free(d);
}

/* jj_json_canon on its own: valid, canonical or not, and the canonical
** form of a canonical text is itself. */
TEST(canon_says_whether_text_is_canonical) {
  size_t bad;
  jj_code code;
  const char *why;
  CHECK_EQ_INT(jj_json_canon("{\"a\":[1,\"\\u001f\"]}", 18, 64, NULL, &bad, &code, &why), 1);
  CHECK_EQ_INT(jj_json_canon("{\"a\": 1}", 8, 64, NULL, &bad, &code, &why), 0);
  CHECK_EQ_INT(jj_json_canon("\"\\u001F\"", 8, 64, NULL, &bad, &code, &why), 0);
  CHECK_EQ_INT(jj_json_canon("\"\\u0041\"", 8, 64, NULL, &bad, &code, &why), 0);
  CHECK_EQ_INT(jj_json_canon("\"\\u0009\"", 8, 64, NULL, &bad, &code, &why), 0);
  CHECK_EQ_INT(jj_json_canon("\"\\t\"", 4, 64, NULL, &bad, &code, &why), 1);
  CHECK_EQ_INT(jj_json_canon("tru", 3, 64, NULL, &bad, &code, &why), -1);
  CHECK_EQ_INT(code, JJ_ERR_SYNTAX);
  CHECK_EQ_INT(jj_json_canon("[[1]]", 5, 1, NULL, &bad, &code, &why), -1);
  CHECK_EQ_INT(code, JJ_ERR_DEPTH);
  CHECK_EQ_INT((int)bad, 1);
}

int main(void) {
  RUN(values_read_as_canonical_json);
  RUN(a_canonical_value_is_the_document_s_own_bytes);
  RUN(bad_values_are_located_errors);
  RUN(the_depth_limit_holds_for_json_values);
  RUN(the_writer_canonicalises);
  RUN(copies_records_and_exports_carry_json);
  RUN(canon_says_whether_text_is_canonical);
  return test_summary("json_type");
}
