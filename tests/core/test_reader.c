/*
** test_reader.c — jj_parse and the header: every header error with its
** code, byte offset and message; whitespace and escapes in the header;
** limits; the jj_doc_* accessors; the jj_schema builder.
*/
#include "test_reader.h"

/* ------------------------------------------------------------------ */
/* Headers that parse                                                  */
/* ------------------------------------------------------------------ */

TEST(reader_parses_the_readme_header) {
  static const char doc[] =
      "{\"jalapenojson\":1,\"columns\":[\"id\",\"user\",\"joined\"],"
      "\"types\":[\"i\",\"s\",\"d\"],\"rows\":[\n"
      "[1,\"u0042\",\"2024-03-01\"],\n"
      "[2,null,\"2023-11-17\"]\n"
      "]}";
  jj_error e;
  jj_doc *d = jj_parse(doc, sizeof doc - 1, &e);
  CHECK(d != NULL);
  CHECK_EQ_INT(e.code, JJ_OK);
  const jj_schema *s = jj_doc_schema(d);
  CHECK_EQ_INT(jj_schema_columns(s), 3);
  size_t len = 0;
  CHECK_EQ_STR(jj_schema_name(s, 2, &len), "joined");
  CHECK_EQ_INT(len, 6);
  CHECK_EQ_INT(jj_schema_type(s, 0), JJ_INT);
  CHECK_EQ_INT(jj_schema_type(s, 1), JJ_TEXT);
  CHECK_EQ_INT(jj_schema_type(s, 2), JJ_DATE);
  CHECK_EQ_INT(jj_schema_type(s, 3), 0);
  CHECK(jj_schema_name(s, 3, NULL) == NULL);
  CHECK_EQ_INT(jj_schema_find(s, "user", 4), 1);
  CHECK_EQ_INT(jj_schema_find(s, "use", 3), -1);
  CHECK_EQ_INT(jj_doc_declared_count(d), -1);
  const char *bytes = jj_doc_bytes(d, &len);
  CHECK(bytes == doc);
  CHECK_EQ_INT(len, sizeof doc - 1);
  CHECK_EQ_INT(jj_doc_rows(d, &e), 2);
  jj_doc_free(d);
}

TEST(reader_accepts_whitespace_everywhere_in_the_header) {
  static const char doc[] =
      " \t\r\n{ \"jalapenojson\" : 1 ,\n  \"columns\" : [ \"a\" , \"b\" ] ,\n"
      "  \"types\" : [ \"i\" , { \"columns\" : [ \"x\" ] , \"types\" : [ \"s\" ] } ] ,\n"
      "  \"count\" : 0 , \"meta\" : { \"k\" : [ 1 , 2 ] } ,\n"
      "  \"rows\" : [ ] } \n";
  jj_error e;
  jj_doc *d = jj_parse(doc, sizeof doc - 1, &e);
  CHECK(d != NULL);
  CHECK_EQ_INT(jj_schema_type(jj_doc_schema(d), 1), JJ_TABLE);
  CHECK_EQ_STR(jj_schema_name(jj_schema_table(jj_doc_schema(d), 1), 0, NULL), "x");
  CHECK_EQ_INT(jj_doc_declared_count(d), 0);
  CHECK_EQ_INT(jj_doc_rows(d, &e), 0);
  jj_doc_free(d);
}

TEST(reader_unescapes_keys_and_column_names) {
  static const char doc[] =
      "{\"jalapen\\u006fjson\":1,\"col\\u0075mns\":[\"a\\u00e9\\\"\",\"\\ud83d\\ude00\"],"
      "\"types\":[\"\\u0069\",\"s\"],\"rows\":[\n]}";
  jj_error e;
  jj_doc *d = jj_parse(doc, sizeof doc - 1, &e);
  CHECK(d != NULL);
  size_t len;
  CHECK_EQ_STR(jj_schema_name(jj_doc_schema(d), 0, &len), "a\xc3\xa9\"");
  CHECK_EQ_INT(len, 4);
  CHECK_EQ_STR(jj_schema_name(jj_doc_schema(d), 1, NULL), "\xf0\x9f\x98\x80");
  CHECK_EQ_INT(jj_schema_type(jj_doc_schema(d), 0), JJ_INT);
  jj_doc_free(d);
}

TEST(reader_skips_unknown_keys_and_reads_count) {
  static const char doc[] =
      "{\"jalapenojson\":1,\"columns\":[\"a\"],\"types\":[\"b\"],\"meta\":"
      "{\"rows\":[1],\"x\":\"}\"},\"later\":[[]],\"count\":2,\"rows\":[\n"
      "[true],\n[false]\n]}";
  jj_error e;
  jj_doc *d = jj_parse(doc, sizeof doc - 1, &e);
  CHECK(d != NULL);
  CHECK_EQ_INT(jj_doc_declared_count(d), 2);
  CHECK_EQ_INT(jj_doc_rows(d, &e), 2);
  CHECK_EQ_INT(jj_doc_validate(d, &e), JJ_OK);
  jj_doc_free(d);
}

TEST(reader_reads_the_header_only) {
  /* garbage after "rows":[ is not looked at by jj_parse */
  static const char doc[] = ONE("i") "[1],\n@@@";
  jj_error e;
  jj_doc *d = jj_parse(doc, sizeof doc - 1, &e);
  CHECK(d != NULL);
  jj_doc_free(d);
}

TEST(reader_needs_no_nul_after_the_bytes) {
  /* the bytes stop right after "rows":[ — nothing may be read past them */
  static const char full[] = ONE("i") "]}";
  char *copy = malloc(ONE_LEN + 2);
  memcpy(copy, full, ONE_LEN + 2);
  jj_error e;
  jj_doc *d = jj_parse(copy, ONE_LEN + 2, &e);
  CHECK(d != NULL);
  CHECK_EQ_INT(jj_doc_rows(d, &e), 0);
  jj_doc_free(d);
  d = jj_parse(copy, ONE_LEN, &e);
  CHECK(d != NULL);
  CHECK_EQ_INT(jj_doc_rows(d, &e), -1);
  CHECK_ERROR(&e, JJ_ERR_SYNTAX, 1, -1, ONE_LEN,
              "row 1, byte 57: unexpected end of input (expected a row)");
  jj_doc_free(d);
  free(copy);
}

TEST(reader_accepts_65535_columns_and_refuses_65536) {
  jj_buf b = {0};
  char name[16];
  jj_buf_append(&b, "{\"jalapenojson\":1,\"columns\":[", 29);
  for (int i = 0; i < 65536; i++) {
    int n = snprintf(name, sizeof name, "%s\"c%d\"", i ? "," : "", i);
    jj_buf_append(&b, name, (size_t)n);
  }
  size_t names_end = b.len;
  jj_buf_append(&b, "],\"types\":[", 11);
  for (int i = 0; i < 65535; i++) jj_buf_append(&b, i ? ",\"i\"" : "\"i\"", i ? 4 : 3);
  jj_buf_append(&b, "],\"rows\":[\n]}", 13);
  /* 65536 names */
  jj_error e;
  jj_doc *d = jj_parse(b.p, b.len, &e);
  CHECK(d == NULL);
  size_t last = names_end - strlen("\"c65535\"");
  char want[64];
  snprintf(want, sizeof want, "byte %zu: too many columns (at most 65535)", last);
  CHECK_ERROR(&e, JJ_ERR_SCHEMA, 0, -1, last, want);
  /* drop the last name: 65535 columns, 65535 types */
  memmove(b.p + last - 1, b.p + names_end, b.len - names_end);
  b.len -= names_end - last + 1;
  d = jj_parse(b.p, b.len, &e);
  CHECK(d != NULL);
  CHECK_EQ_INT(jj_schema_columns(jj_doc_schema(d)), 65535);
  CHECK_EQ_INT(jj_schema_find(jj_doc_schema(d), "c65534", 6), 65534);
  jj_doc_free(d);
  jj_buf_free(&b);
}

/* ------------------------------------------------------------------ */
/* Header errors                                                       */
/* ------------------------------------------------------------------ */

TEST(reader_rejects_empty_input_and_byte_order_mark) {
  PARSE_FAILS("", JJ_ERR_SYNTAX, 0, "byte 0: the document is empty");
  PARSE_FAILS(" \n", JJ_ERR_SYNTAX, 2, "byte 2: the document is empty");
  PARSE_FAILS("\xEF\xBB\xBF{\"jalapenojson\":1}", JJ_ERR_SYNTAX, 0,
  /*           ^ */
              "byte 0: a byte order mark is not allowed");
}

TEST(reader_rejects_a_document_that_is_not_an_object) {
  PARSE_FAILS("[1]", JJ_ERR_HEADER, 0,
  /*           ^ */
              "byte 0: expected '{' to start a jalapenojson document, found \"[\"");
  PARSE_FAILS("x{", JJ_ERR_HEADER, 0,
              "byte 0: expected '{' to start a jalapenojson document, found \"x\"");
}

TEST(reader_rejects_a_wrong_first_key) {
  PARSE_FAILS("{}", JJ_ERR_HEADER, 1,
  /*            ^ */
              "byte 1: expected \"jalapenojson\" as the first key, found \"}\"");
  PARSE_FAILS("{\"columns\":[\"a\"]}", JJ_ERR_HEADER, 1,
  /*            ^ */
              "byte 1: the first key must be \"jalapenojson\", found \"columns\"");
  PARSE_FAILS("{\"jalapenojson\" 1}", JJ_ERR_SYNTAX, 16,
  /*                             ^ */
              "byte 16: expected ':' after a key, found \"1\"");
  PARSE_FAILS("{", JJ_ERR_SYNTAX, 1, "byte 1: unexpected end of input (expected a key)");
}

TEST(reader_rejects_versions_other_than_the_integer_1) {
  PARSE_FAILS("{\"jalapenojson\":2}", JJ_ERR_VERSION, 16,
  /*                             ^ */
              "byte 16: version 2 is not supported (expected the integer 1)");
  PARSE_FAILS("{\"jalapenojson\":1.0}", JJ_ERR_VERSION, 16,
              "byte 16: version 1.0 is not supported (expected the integer 1)");
  PARSE_FAILS("{\"jalapenojson\":\"1\"}", JJ_ERR_VERSION, 16,
              "byte 16: version \"1\" is not supported (expected the integer 1)");
  PARSE_FAILS("{\"jalapenojson\":01}", JJ_ERR_SYNTAX, 16, "byte 16: invalid number");
}

TEST(reader_rejects_missing_or_misplaced_columns_and_types) {
  PARSE_FAILS("{\"jalapenojson\":1}", JJ_ERR_HEADER, 17,
  /*                              ^ */
              "byte 17: expected ',' and \"columns\" after the version, found \"}\"");
  PARSE_FAILS("{\"jalapenojson\":1,\"types\":[\"i\"]}", JJ_ERR_HEADER, 18,
  /*                               ^ */
              "byte 18: expected \"columns\" after \"jalapenojson\", found \"types\"");
  PARSE_FAILS("{\"jalapenojson\":1,\"columns\":[\"a\"],\"rows\":[]}", JJ_ERR_HEADER, 34,
  /*                                                   ^ */
              "byte 34: expected \"types\" after \"columns\", found \"rows\"");
  PARSE_FAILS("{\"jalapenojson\":1,\"columns\":[\"a\"]}", JJ_ERR_HEADER, 33,
              "byte 33: expected ',' and \"types\" after \"columns\", found \"}\"");
  PARSE_FAILS("{\"jalapenojson\":1,\"columns\":[\"a\"],\"types\":[\"i\"]}", JJ_ERR_HEADER, 47,
  /*                                                                    ^ */
              "byte 47: the header has no \"rows\"");
}

TEST(reader_rejects_bad_column_lists) {
  PARSE_FAILS("{\"jalapenojson\":1,\"columns\":\"a\"}", JJ_ERR_SCHEMA, 28,
  /*                                           ^ */
              "byte 28: \"columns\" must be an array of names, found \"a\"");
  PARSE_FAILS("{\"jalapenojson\":1,\"columns\":[],\"types\":[]}", JJ_ERR_SCHEMA, 28,
              "byte 28: a table needs at least one column");
  PARSE_FAILS("{\"jalapenojson\":1,\"columns\":[\"a\",1]}", JJ_ERR_SCHEMA, 33,
  /*                                                  ^ */
              "byte 33: column names must be strings, found 1");
  PARSE_FAILS("{\"jalapenojson\":1,\"columns\":[\"a\",\"\"],\"types\":[\"i\",\"i\"]}",
              JJ_ERR_SCHEMA, 33, "byte 33: column 2 has an empty name");
  PARSE_FAILS("{\"jalapenojson\":1,\"columns\":[\"a\",\"a\"],\"types\":[\"i\",\"i\"]}",
  /*                                                  ^ */
              JJ_ERR_SCHEMA, 33, "byte 33: duplicate column name \"a\"");
  PARSE_FAILS("{\"jalapenojson\":1,\"columns\":[\"a\" \"b\"]}", JJ_ERR_SYNTAX, 33,
              "byte 33: expected ',' or ']' after a column name, found \"\\\"\"");
  PARSE_FAILS("{\"jalapenojson\":1,\"columns\":[\"a\n\"]}", JJ_ERR_SYNTAX, 31,
              "byte 31: raw control character in string");
}

TEST(reader_rejects_invalid_column_names) {
  PARSE_FAILS("{\"jalapenojson\":1,\"columns\":[\"\xff\"],\"types\":[\"i\"]}",
  /*                                            ^ */
              JJ_ERR_UTF8, 29, "byte 29: column name \"\\xff\" is not valid UTF-8");
  PARSE_FAILS("{\"jalapenojson\":1,\"columns\":[\"a\\ud800\"],\"types\":[\"i\"]}",
  /*                                               ^ */
              JJ_ERR_UTF8, 31,
              "byte 31: lone surrogate \\ud800-\\udbff (no low surrogate after it)"
              " in column name \"a\\\\ud800\"");
  PARSE_FAILS("{\"jalapenojson\":1,\"columns\":[\"a\\u0000\"],\"types\":[\"i\"]}",
              JJ_ERR_SCHEMA, 29, "byte 29: column name \"a\\x00\" contains U+0000");
}

TEST(reader_rejects_bad_type_lists) {
  PARSE_FAILS("{\"jalapenojson\":1,\"columns\":[\"a\"],\"types\":\"i\"}", JJ_ERR_SCHEMA, 42,
  /*                                                             ^ */
              "byte 42: \"types\" must be an array, found \"i\"");
  PARSE_FAILS("{\"jalapenojson\":1,\"columns\":[\"a\",\"b\"],\"types\":[\"i\"],\"rows\":[]}",
  /*                                                                   ^ */
              JJ_ERR_SCHEMA, 46, "byte 46: \"columns\" has 2 names but \"types\" has 1");
  PARSE_FAILS("{\"jalapenojson\":1,\"columns\":[\"a\"],\"types\":[\"i\",\"s\",{}],\"rows\":[]}",
              JJ_ERR_SCHEMA, 42, "byte 42: \"columns\" has 1 names but \"types\" has 3");
  PARSE_FAILS("{\"jalapenojson\":1,\"columns\":[\"a\"],\"types\":[],\"rows\":[]}",
              JJ_ERR_SCHEMA, 42, "byte 42: \"columns\" has 1 names but \"types\" has 0");
  PARSE_FAILS("{\"jalapenojson\":1,\"columns\":[\"a\"],\"types\":[\"q\"],\"rows\":[]}",
  /*                                                              ^ */
              JJ_ERR_SCHEMA, 43, "byte 43: column \"a\" has type \"q\", which this reader does not know");
  PARSE_FAILS("{\"jalapenojson\":1,\"columns\":[\"a\"],\"types\":[\"ii\"],\"rows\":[]}",
              JJ_ERR_SCHEMA, 43, "byte 43: unknown type \"ii\" for column \"a\"");
  PARSE_FAILS("{\"jalapenojson\":1,\"columns\":[\"a\"],\"types\":[5],\"rows\":[]}",
              JJ_ERR_SCHEMA, 43, "byte 43: unknown type 5 for column \"a\"");
  PARSE_FAILS("{\"jalapenojson\":1,\"columns\":[\"a\"],\"types\":[\"\"],\"rows\":[]}",
              JJ_ERR_SCHEMA, 43, "byte 43: unknown type \"\" for column \"a\"");
}

TEST(reader_rejects_malformed_nested_table_types) {
  PARSE_FAILS("{\"jalapenojson\":1,\"columns\":[\"a\"],\"types\":[{}],\"rows\":[]}",
  /*                                                               ^ */
              JJ_ERR_SCHEMA, 44,
              "byte 44: a nested table type must be {\"columns\":[...],\"types\":[...]}");
  PARSE_FAILS("{\"jalapenojson\":1,\"columns\":[\"a\"],\"types\":[{\"cols\":[]}],\"rows\":[]}",
              JJ_ERR_SCHEMA, 44,
              "byte 44: expected \"columns\" in a nested table type, found \"cols\"");
  PARSE_FAILS("{\"jalapenojson\":1,\"columns\":[\"a\"],\"types\":[{\"columns\":[\"x\"],"
              "\"types\":[\"i\"],\"n\":1}],\"rows\":[]}",
  /*                            ^ */
              JJ_ERR_SCHEMA, 73,
              "byte 73: a nested table type has only \"columns\" and \"types\"");
  PARSE_FAILS("{\"jalapenojson\":1,\"columns\":[\"a\"],\"types\":[{\"columns\":[\"x\",\"x\"],"
              "\"types\":[\"i\",\"i\"]}],\"rows\":[]}",
              JJ_ERR_SCHEMA, 59, "byte 59: duplicate column name \"x\"");
  PARSE_FAILS("{\"jalapenojson\":1,\"columns\":[\"a\"],\"types\":[{\"types\":[\"i\"],"
              "\"columns\":[\"x\"]}],\"rows\":[]}",
              JJ_ERR_SCHEMA, 44,
              "byte 44: expected \"columns\" in a nested table type, found \"types\"");
}

TEST(reader_counts_nested_schemas_against_the_depth_limit) {
  /* two levels of nested tables need values 4 deep */
  static const char doc[] =
      "{\"jalapenojson\":1,\"columns\":[\"a\"],\"types\":[{\"columns\":[\"b\"],"
      "\"types\":[{\"columns\":[\"c\"],\"types\":[\"i\"]}]}],\"rows\":[\n]}";
  /* byte 69 is the second '{' */
  jj_error e;
  jj_doc *d = jj_parse_opts(doc, sizeof doc - 1, 0, 4, &e);
  CHECK(d != NULL);
  jj_doc_free(d);
  d = jj_parse_opts(doc, sizeof doc - 1, 0, 3, &e);
  CHECK(d == NULL);
  CHECK_ERROR(&e, JJ_ERR_DEPTH, 0, -1, 69,
              "byte 69: nested tables deeper than the depth limit of 3");
  d = jj_parse_opts(doc, sizeof doc - 1, 0, 1, &e);
  CHECK(d == NULL);
  CHECK_ERROR(&e, JJ_ERR_DEPTH, 0, -1, 43,
              "byte 43: nested tables deeper than the depth limit of 1");
}

TEST(reader_rejects_bad_rows_count_and_repeated_keys) {
  PARSE_FAILS("{\"jalapenojson\":1,\"columns\":[\"a\"],\"types\":[\"i\"],\"rows\":{}}",
  /*                                                                              ^ */
              JJ_ERR_HEADER, 55, "byte 55: \"rows\" must be an array, found an object");
  PARSE_FAILS("{\"jalapenojson\":1,\"columns\":[\"a\"],\"types\":[\"i\"],\"count\":-1,"
  /*                                                                               ^ */
              "\"rows\":[]}",
              JJ_ERR_HEADER, 56,
              "byte 56: \"count\" must be a non-negative integer, found -1");
  PARSE_FAILS("{\"jalapenojson\":1,\"columns\":[\"a\"],\"types\":[\"i\"],\"count\":\"2\","
              "\"rows\":[]}",
              JJ_ERR_HEADER, 56,
              "byte 56: \"count\" must be a non-negative integer, found \"2\"");
  PARSE_FAILS("{\"jalapenojson\":1,\"columns\":[\"a\"],\"types\":[\"i\"],\"count\":2.0,"
              "\"rows\":[]}",
              JJ_ERR_HEADER, 56,
              "byte 56: \"count\" must be a non-negative integer, found 2.0");
  PARSE_FAILS("{\"jalapenojson\":1,\"columns\":[\"a\"],\"types\":[\"i\"],\"count\":1,"
              "\"count\":1,\"rows\":[]}",
  /*           ^ */
              JJ_ERR_HEADER, 58, "byte 58: repeated key \"count\"");
  PARSE_FAILS("{\"jalapenojson\":1,\"columns\":[\"a\"],\"types\":[\"i\"],\"columns\":[],"
              "\"rows\":[]}",
              JJ_ERR_HEADER, 48, "byte 48: repeated key \"columns\"");
  PARSE_FAILS("{\"jalapenojson\":1,\"columns\":[\"a\"],\"types\":[\"i\"] \"rows\":[]}",
  /*                                                                     ^ */
              JJ_ERR_SYNTAX, 48, "byte 48: expected ',' or '}' after a value, found \"\\\"\"");
}

TEST(reader_checks_skipped_header_values) {
  PARSE_FAILS("{\"jalapenojson\":1,\"columns\":[\"a\"],\"types\":[\"i\"],\"meta\":[1,],"
  /*                                                                                 ^ */
              "\"rows\":[]}",
              JJ_ERR_SYNTAX, 58, "byte 58: unexpected character");
  static const char deep[] =
      "{\"jalapenojson\":1,\"columns\":[\"a\"],\"types\":[\"i\"],\"meta\":[[[1]]],\"rows\":[\n]}";
  /*                                                                        ^ byte 57 */
  jj_error e;
  CHECK(jj_parse_opts(deep, sizeof deep - 1, 0, 2, &e) == NULL);
  CHECK_ERROR(&e, JJ_ERR_DEPTH, 0, -1, 57, "byte 57: nesting deeper than the limit");
  jj_doc *d = jj_parse_opts(deep, sizeof deep - 1, 0, 3, &e);
  CHECK(d != NULL);
  jj_doc_free(d);
}

TEST(reader_fails_cleanly_on_every_truncated_header) {
  static const char doc[] =
      "{\"jalapenojson\":1,\"columns\":[\"a\",\"b\\u0063\"],\"types\":[\"i\",{\"columns\":"
      "[\"x\"],\"types\":[\"s\"]}],\"count\":0,\"meta\":{\"k\":[1,\"v\"]},\"rows\":[\n]}";
  size_t header = strstr(doc, "\"rows\":[") - doc + 8;
  int failures = 0;
  for (size_t n = 0; n < header; n++) {
    char *copy = malloc(n ? n : 1);
    memcpy(copy, doc, n);
    jj_error e;
    jj_doc *d = jj_parse(copy, n, &e);
    failures += d == NULL && e.code != JJ_OK && e.offset <= n;
    jj_doc_free(d);
    free(copy);
  }
  CHECK_EQ_INT(failures, header);
  jj_error e;
  jj_doc *d = jj_parse(doc, header, &e);
  CHECK(d != NULL);
  jj_doc_free(d);
}

/* ------------------------------------------------------------------ */
/* The schema builder                                                  */
/* ------------------------------------------------------------------ */

TEST(schema_builder_adds_finds_copies_and_compares) {
  jj_error e;
  jj_schema *items = jj_schema_new();
  CHECK_EQ_INT(jj_schema_add(items, "sku", 3, JJ_TEXT, NULL, &e), JJ_OK);
  CHECK_EQ_INT(jj_schema_add(items, "qty", 3, JJ_INT, NULL, &e), JJ_OK);
  jj_schema *s = jj_schema_new();
  CHECK_EQ_INT(jj_schema_add(s, "id", 2, JJ_INT, NULL, &e), JJ_OK);
  CHECK_EQ_INT(jj_schema_add(s, "items", 5, JJ_TABLE, items, &e), JJ_OK);
  CHECK_EQ_INT(jj_schema_columns(s), 2);
  CHECK(jj_schema_table(s, 1) == items);
  CHECK(jj_schema_table(s, 0) == NULL);
  CHECK_EQ_INT(jj_schema_find(s, "items", 5), 1);
  size_t len = 0;
  char *json = jj_schema_to_json(s, &len);
  CHECK_EQ_STR(json, "{\"columns\":[\"id\",\"items\"],\"types\":[\"i\",{\"columns\":"
                     "[\"sku\",\"qty\"],\"types\":[\"s\",\"i\"]}]}");
  CHECK_EQ_INT(len, strlen(json));
  jj_free(json);
  jj_schema *c = jj_schema_copy(s);
  size_t col = 99;
  CHECK(jj_schema_equal(s, c, &col));
  CHECK_EQ_INT(col, 99);
  CHECK_EQ_INT(jj_schema_add(c, "more", 4, JJ_BOOL, NULL, &e), JJ_OK);
  CHECK(!jj_schema_equal(s, c, &col));
  CHECK_EQ_INT(col, 2);
  jj_schema_free(c);
  /* a difference inside a nested table reports the column holding it */
  jj_schema *items2 = jj_schema_new();
  jj_schema_add(items2, "sku", 3, JJ_TEXT, NULL, &e);
  jj_schema_add(items2, "qty", 3, JJ_FLOAT, NULL, &e);
  c = jj_schema_new();
  jj_schema_add(c, "id", 2, JJ_INT, NULL, &e);
  jj_schema_add(c, "items", 5, JJ_TABLE, items2, &e);
  CHECK(!jj_schema_equal(s, c, &col));
  CHECK_EQ_INT(col, 1);
  jj_schema_free(c);
  jj_schema_free(s);
}

TEST(schema_builder_rejects_what_a_header_may_not_hold) {
  jj_error e;
  jj_schema *s = jj_schema_new();
  CHECK_EQ_INT(jj_schema_add(s, "a", 1, JJ_INT, NULL, &e), JJ_OK);
  CHECK_EQ_INT(jj_schema_add(s, "a", 1, JJ_TEXT, NULL, &e), JJ_ERR_SCHEMA);
  CHECK_ERROR(&e, JJ_ERR_SCHEMA, 0, -1, JJ_NO_OFFSET, "duplicate column name \"a\"");
  CHECK_EQ_INT(jj_schema_add(s, "", 0, JJ_TEXT, NULL, &e), JJ_ERR_SCHEMA);
  CHECK_ERROR(&e, JJ_ERR_SCHEMA, 0, -1, JJ_NO_OFFSET, "column 2 has an empty name");
  CHECK_EQ_INT(jj_schema_add(s, "\xc3", 1, JJ_TEXT, NULL, &e), JJ_ERR_UTF8);
  CHECK_ERROR(&e, JJ_ERR_UTF8, 0, -1, JJ_NO_OFFSET, "column name \"\\xc3\" is not valid UTF-8");
  CHECK_EQ_INT(jj_schema_add(s, "b", 1, (jj_type)'q', NULL, &e), JJ_ERR_USAGE);
  CHECK_ERROR(&e, JJ_ERR_USAGE, 0, -1, JJ_NO_OFFSET, "unknown column type 113");
  CHECK_EQ_INT(jj_schema_add(s, "b", 1, JJ_TABLE, NULL, &e), JJ_ERR_USAGE);
  CHECK_ERROR(&e, JJ_ERR_USAGE, 0, -1, JJ_NO_OFFSET, "a nested table column needs its schema");
  /* the nested schema is owned by s even on failure: no leak under ASan */
  CHECK_EQ_INT(jj_schema_add(s, "b", 1, JJ_INT, jj_schema_new(), &e), JJ_ERR_USAGE);
  CHECK_ERROR(&e, JJ_ERR_USAGE, 0, -1, JJ_NO_OFFSET,
              "only a nested table column takes a schema");
  CHECK_EQ_INT(jj_schema_add(s, "a", 1, JJ_TABLE, jj_schema_new(), &e), JJ_ERR_SCHEMA);
  CHECK_EQ_INT(jj_schema_columns(s), 1);
  char *json = jj_schema_to_json(s, NULL);
  CHECK_EQ_STR(json, "{\"columns\":[\"a\"],\"types\":[\"i\"]}");
  jj_free(json);
  jj_schema_free(s);
}

int main(void) {
  RUN(reader_parses_the_readme_header);
  RUN(reader_accepts_whitespace_everywhere_in_the_header);
  RUN(reader_unescapes_keys_and_column_names);
  RUN(reader_skips_unknown_keys_and_reads_count);
  RUN(reader_reads_the_header_only);
  RUN(reader_needs_no_nul_after_the_bytes);
  RUN(reader_accepts_65535_columns_and_refuses_65536);
  RUN(reader_rejects_empty_input_and_byte_order_mark);
  RUN(reader_rejects_a_document_that_is_not_an_object);
  RUN(reader_rejects_a_wrong_first_key);
  RUN(reader_rejects_versions_other_than_the_integer_1);
  RUN(reader_rejects_missing_or_misplaced_columns_and_types);
  RUN(reader_rejects_bad_column_lists);
  RUN(reader_rejects_invalid_column_names);
  RUN(reader_rejects_bad_type_lists);
  RUN(reader_rejects_malformed_nested_table_types);
  RUN(reader_counts_nested_schemas_against_the_depth_limit);
  RUN(reader_rejects_bad_rows_count_and_repeated_keys);
  RUN(reader_checks_skipped_header_values);
  RUN(reader_fails_cleanly_on_every_truncated_header);
  RUN(schema_builder_adds_finds_copies_and_compares);
  RUN(schema_builder_rejects_what_a_header_may_not_hold);
  return test_summary("reader");
}
