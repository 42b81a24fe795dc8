/*
** test_reader_errors.c — what is wrong inside the rows: row structure (found
** when a cursor reaches the row) and every value error of every type (found
** when the value is read, and by jj_doc_validate / JJ_PARSE_VALIDATE), with
** exact codes, messages, rows, columns and byte offsets.  Ends with the
** error table of SPEC.md, input by input.
**
** Most documents are ONE("t"): one column "v" of type t whose first row
** starts at byte 57 (its first value at byte 58).
*/
#include <math.h>

#include "test_reader.h"

/* ------------------------------------------------------------------ */
/* Row structure                                                       */
/* ------------------------------------------------------------------ */

TEST(reader_rejects_rows_with_the_wrong_number_of_values) {
  ROWS_FAIL(ONE("i") "[]\n]}", JJ_ERR_ROW, 1, -1, 57,
  /*                  ^ */
            "row 1, byte 57: expected 1 value, found 0");
  ROWS_FAIL(ONE("i") "[ ]\n]}", JJ_ERR_ROW, 1, -1, 57,
            "row 1, byte 57: expected 1 value, found 0");
  ROWS_FAIL(ONE("i") "[1],\n[1,2]\n]}", JJ_ERR_ROW, 2, -1, 62,
  /*                        ^ */
            "row 2, byte 62: expected 1 value, found 2");
  ROWS_FAIL(ONE("i") "[1,2,[3,4],{\"a\":5}]\n]}", JJ_ERR_ROW, 1, -1, 57,
            "row 1, byte 57: expected 1 value, found 4");
  static const char two[] =
      "{\"jalapenojson\":1,\"columns\":[\"k\",\"v\"],\"types\":[\"i\",\"i\"],\"rows\":[\n"
      "[1,2],\n[3]\n]}";
  /*           ^ byte 72 */
  ROWS_FAIL(two, JJ_ERR_ROW, 2, -1, 72, "row 2, byte 72: expected 2 values, found 1");
}

TEST(reader_rejects_a_row_that_is_not_an_array) {
  ROWS_FAIL(ONE("i") "[1],\n5\n]}", JJ_ERR_ROW, 2, -1, 62,
  /*                        ^ */
            "row 2, byte 62: a row must be an array, found 5");
  ROWS_FAIL(ONE("i") "{\"v\":1}\n]}", JJ_ERR_ROW, 1, -1, 57,
            "row 1, byte 57: a row must be an array, found an object");
  ROWS_FAIL(ONE("i") "\"[1]\"\n]}", JJ_ERR_ROW, 1, -1, 57,
            "row 1, byte 57: a row must be an array, found \"[1]\"");
  ROWS_FAIL(ONE("i") "[1],\n]}", JJ_ERR_SYNTAX, 2, -1, 62,
  /*                        ^ */
            "row 2, byte 62: expected a row, found \"]\"");
}

TEST(reader_rejects_bad_separators_between_values_and_rows) {
  ROWS_FAIL(ONE("i") "[1 2]\n]}", JJ_ERR_SYNTAX, 1, 0, 60,
  /*                     ^ */
            "row 1, column \"v\", byte 60: expected ',' or ']' after a value, found \"2\"");
  ROWS_FAIL(ONE("i") "[1] [2]\n]}", JJ_ERR_SYNTAX, 0, -1, 61,
  /*                      ^ */
            "byte 61: expected ',' or ']' after row 1, found \"[\"");
  ROWS_FAIL(ONE("i") "[1,]\n]}", JJ_ERR_SYNTAX, 1, -1, 60,
  /*                     ^ */
            "row 1, byte 60: expected a value, found \"]\"");
  ROWS_FAIL(ONE("i") "[,1]\n]}", JJ_ERR_SYNTAX, 1, 0, 58,
            "row 1, column \"v\", byte 58: expected a value, found \",\"");
}

TEST(reader_rejects_broken_values_when_the_row_is_reached) {
  ROWS_FAIL(ONE("i") "[nul]\n]}", JJ_ERR_SYNTAX, 1, 0, 58,
  /*                   ^ */
            "row 1, column \"v\", byte 58: expected a value, found \"nul\"");
  ROWS_FAIL(ONE("i") "[True]\n]}", JJ_ERR_SYNTAX, 1, 0, 58,
            "row 1, column \"v\", byte 58: expected a value, found \"True\"");
  ROWS_FAIL(ONE("f") "[.5]\n]}", JJ_ERR_SYNTAX, 1, 0, 58,
            "row 1, column \"v\", byte 58: expected a value, found \".5\"");
  ROWS_FAIL(ONE("s") "[\"ab\x01\"]\n]}", JJ_ERR_SYNTAX, 1, 0, 61,
  /*                       ^ */
            "row 1, column \"v\", byte 61: raw control character in string");
  ROWS_FAIL(ONE("s") "[\"ab", JJ_ERR_SYNTAX, 1, 0, 58,
            "row 1, column \"v\", byte 58: unterminated string");
  ROWS_FAIL(ONE("i") "[[1,]]\n]}", JJ_ERR_SYNTAX, 1, 0, 61,
  /*                      ^ */
            "row 1, column \"v\", byte 61: unexpected character");
  ROWS_FAIL(ONE("i") "[1", JJ_ERR_SYNTAX, 1, 0, 59,
            "row 1, column \"v\", byte 59: unexpected end of input"
            " (expected ',' or ']' after a value)");
}

TEST(reader_rejects_what_follows_the_rows) {
  ROWS_FAIL(ONE("i") "[1]\n]", JJ_ERR_SYNTAX, 0, -1, 62,
            "byte 62: unexpected end of input (expected '}' after the rows)");
  ROWS_FAIL(ONE("i") "[1]\n]]", JJ_ERR_SYNTAX, 0, -1, 62,
  /*                        ^ */
            "byte 62: expected '}' after the rows, found \"]\"");
  ROWS_FAIL(ONE("i") "[1]\n]}x", JJ_ERR_SYNTAX, 0, -1, 63,
  /*                         ^ */
            "byte 63: unexpected data after the document");
  ROWS_FAIL(ONE("i") "[1]\n]} \n{}", JJ_ERR_SYNTAX, 0, -1, 65,
            "byte 65: unexpected data after the document");
  ROWS_FAIL(ONE("i") "[1]", JJ_ERR_SYNTAX, 0, -1, 60,
            "byte 60: unexpected end of input (expected ',' or ']' after row 1)");
}

TEST(reader_checks_the_declared_count_at_the_end) {
  static const char more[] =
      "{\"jalapenojson\":1,\"columns\":[\"v\"],\"types\":[\"i\"],\"count\":5,\"rows\":[\n"
  /*                                                                       ^ byte 56 */
      "[1],\n[2],\n[3],\n[4]\n]}";
  ROWS_FAIL(more, JJ_ERR_COUNT, 0, -1, 56,
            "byte 56: the header says \"count\":5 but there are 4 rows");
  static const char fewer[] =
      "{\"jalapenojson\":1,\"columns\":[\"v\"],\"types\":[\"i\"],\"count\":0,\"rows\":[\n"
      "[1]\n]}";
  ROWS_FAIL(fewer, JJ_ERR_COUNT, 0, -1, 56,
            "byte 56: the header says \"count\":0 but there is 1 row");
  static const char right[] =
      "{\"jalapenojson\":1,\"columns\":[\"v\"],\"types\":[\"i\"],\"count\":1,\"rows\":[\n"
      "[1]\n]}";
  jj_error e;
  jj_doc *d = jj_parse(right, sizeof right - 1, &e);
  CHECK_EQ_INT(jj_doc_rows(d, &e), 1);
  CHECK_EQ_INT(jj_doc_validate(d, &e), JJ_OK);
  jj_doc_free(d);
}

TEST(reader_limits_the_depth_of_values) {
  static const char doc[] = ONE("i") "[[[[1]]]]\n]}";
  /*                                     ^ byte 60 is the third '[' */
  jj_error e;
  jj_doc *d = jj_parse_opts(doc, sizeof doc - 1, 0, 2, &e);
  jj_cursor *c = jj_cursor_new(d, &e);
  CHECK_EQ_INT(jj_cursor_next(c, &e), -1);
  CHECK_ERROR(&e, JJ_ERR_DEPTH, 1, 0, 60,
              "row 1, column \"v\", byte 60: nesting deeper than the limit");
  jj_cursor_free(c);
  jj_doc_free(d);
  d = jj_parse_opts(doc, sizeof doc - 1, 0, 3, &e);
  CHECK_EQ_INT(jj_doc_rows(d, &e), 1);
  jj_doc_free(d);
}

/* ------------------------------------------------------------------ */
/* Values, type by type                                                */
/* ------------------------------------------------------------------ */

TEST(reader_rejects_bad_integers) {
  READ_FAILS(ONE("i") "[\"abc\"]\n]}", 1, 0, JJ_ERR_TYPE, 58,
  /*                    ^ */
             "row 1, column \"v\", byte 58: expected an integer, found \"abc\"");
  READ_FAILS(ONE("i") "[true]\n]}", 1, 0, JJ_ERR_TYPE, 58,
             "row 1, column \"v\", byte 58: expected an integer, found true");
  READ_FAILS(ONE("i") "[[1]]\n]}", 1, 0, JJ_ERR_TYPE, 58,
             "row 1, column \"v\", byte 58: expected an integer, found an array");
  READ_FAILS(ONE("i") "[1.5]\n]}", 1, 0, JJ_ERR_RANGE, 58,
             "row 1, column \"v\", byte 58: 1.5 is not an integer");
  READ_FAILS(ONE("i") "[1e3]\n]}", 1, 0, JJ_ERR_RANGE, 58,
             "row 1, column \"v\", byte 58: 1e3 is not an integer");
  READ_FAILS(ONE("i") "[1.0]\n]}", 1, 0, JJ_ERR_RANGE, 58,
             "row 1, column \"v\", byte 58: 1.0 is not an integer");
  READ_FAILS(ONE("i") "[9223372036854775808]\n]}", 1, 0, JJ_ERR_RANGE, 58,
             "row 1, column \"v\", byte 58: 9223372036854775808 does not fit a 64-bit integer");
  READ_FAILS(ONE("i") "[-9223372036854775809]\n]}", 1, 0, JJ_ERR_RANGE, 58,
             "row 1, column \"v\", byte 58: -9223372036854775809 does not fit a 64-bit integer");
  READ_FAILS(ONE("i") "[01]\n]}", 1, 0, JJ_ERR_SYNTAX, 58,
             "row 1, column \"v\", byte 58: 01 is not a valid number");
  READ_FAILS(ONE("i") "[1.]\n]}", 1, 0, JJ_ERR_SYNTAX, 58,
             "row 1, column \"v\", byte 58: 1. is not a valid number");
  READ_FAILS(ONE("i") "[-]\n]}", 1, 0, JJ_ERR_SYNTAX, 58,
             "row 1, column \"v\", byte 58: - is not a valid number");
  READ_FAILS(ONE("i") "[1],\n[2],\n[1-2]\n]}", 3, 0, JJ_ERR_SYNTAX, 68,
  /*                                ^ */
             "row 3, column \"v\", byte 68: 1-2 is not a valid number");
}

TEST(reader_reads_integer_edge_values) {
  static const char doc[] =
      ONE("i") "[-0],\n[9223372036854775807],\n[-9223372036854775808],\n[null]\n]}";
  jj_error e;
  jj_doc *d = jj_parse(doc, sizeof doc - 1, &e);
  jj_cursor *c = jj_cursor_new(d, &e);
  int64_t v = 7;
  CHECK_EQ_INT(jj_cursor_next(c, &e), 1);
  CHECK_EQ_INT(jj_cursor_int(c, 0, &v, &e), 1);
  CHECK_EQ_INT(v, 0);
  CHECK_EQ_INT(jj_cursor_next(c, &e), 1);
  CHECK_EQ_INT(jj_cursor_int(c, 0, &v, &e), 1);
  CHECK_EQ_INT(v, INT64_MAX);
  CHECK_EQ_INT(jj_cursor_next(c, &e), 1);
  CHECK_EQ_INT(jj_cursor_int(c, 0, &v, &e), 1);
  CHECK_EQ_INT(v, INT64_MIN);
  CHECK_EQ_INT(jj_cursor_next(c, &e), 1);
  v = 7;
  CHECK_EQ_INT(jj_cursor_int(c, 0, &v, &e), 0);
  CHECK_EQ_INT(v, 7);
  CHECK_EQ_INT(jj_cursor_is_null(c, 0), 1);
  CHECK_EQ_INT(jj_cursor_next(c, &e), 0);
  jj_cursor_free(c);
  jj_doc_free(d);
}

TEST(reader_rejects_bad_floats) {
  READ_FAILS(ONE("f") "[\"abc\"]\n]}", 1, 0, JJ_ERR_TYPE, 58,
  /*                    ^ */
             "row 1, column \"v\", byte 58: expected a number, found \"abc\"");
  READ_FAILS(ONE("f") "[\"nan\"]\n]}", 1, 0, JJ_ERR_TYPE, 58,
             "row 1, column \"v\", byte 58: expected a number, found \"nan\"");
  READ_FAILS(ONE("f") "[\"+Infinity\"]\n]}", 1, 0, JJ_ERR_TYPE, 58,
             "row 1, column \"v\", byte 58: expected a number, found \"+Infinity\"");
  READ_FAILS(ONE("f") "[false]\n]}", 1, 0, JJ_ERR_TYPE, 58,
             "row 1, column \"v\", byte 58: expected a number, found false");
  READ_FAILS(ONE("f") "[1e400]\n]}", 1, 0, JJ_ERR_RANGE, 58,
             "row 1, column \"v\", byte 58: 1e400 is out of range for a double");
  READ_FAILS(ONE("f") "[-1e400]\n]}", 1, 0, JJ_ERR_RANGE, 58,
             "row 1, column \"v\", byte 58: -1e400 is out of range for a double");
  READ_FAILS(ONE("f") "[01.5]\n]}", 1, 0, JJ_ERR_SYNTAX, 58,
             "row 1, column \"v\", byte 58: 01.5 is not a valid number");
  READ_FAILS(ONE("f") "[1e]\n]}", 1, 0, JJ_ERR_SYNTAX, 58,
             "row 1, column \"v\", byte 58: 1e is not a valid number");
}

TEST(reader_reads_float_specials_and_extremes) {
  static const char doc[] =
      ONE("f") "[\"NaN\"],\n[\"Infinity\"],\n[\"-Infinity\"],\n[-0.0],\n[1e-400],\n"
               "[\"\\u004eaN\"],\n[0.1]\n]}";
  jj_error e;
  jj_doc *d = jj_parse(doc, sizeof doc - 1, &e);
  jj_cursor *c = jj_cursor_new(d, &e);
  double v;
  CHECK_EQ_INT(jj_cursor_next(c, &e), 1);
  CHECK_EQ_INT(jj_cursor_double(c, 0, &v, &e), 1);
  CHECK(v != v);
  CHECK_EQ_INT(jj_cursor_next(c, &e), 1);
  CHECK_EQ_INT(jj_cursor_double(c, 0, &v, &e), 1);
  CHECK(isinf(v) && v > 0);
  CHECK_EQ_INT(jj_cursor_next(c, &e), 1);
  CHECK_EQ_INT(jj_cursor_double(c, 0, &v, &e), 1);
  CHECK(isinf(v) && v < 0);
  CHECK_EQ_INT(jj_cursor_next(c, &e), 1);
  CHECK_EQ_INT(jj_cursor_double(c, 0, &v, &e), 1);
  CHECK(v == 0 && 1 / v < 0);
  CHECK_EQ_INT(jj_cursor_next(c, &e), 1);
  CHECK_EQ_INT(jj_cursor_double(c, 0, &v, &e), 1);
  CHECK(v == 0);
  CHECK_EQ_INT(jj_cursor_next(c, &e), 1); /* "NaN" spelled with an escape */
  CHECK_EQ_INT(jj_cursor_double(c, 0, &v, &e), 1);
  CHECK(v != v);
  CHECK_EQ_INT(jj_cursor_next(c, &e), 1);
  CHECK_EQ_INT(jj_cursor_double(c, 0, &v, &e), 1);
  CHECK(v == 0.1);
  jj_cursor_free(c);
  jj_doc_free(d);
}

TEST(reader_rejects_bad_text) {
  READ_FAILS(ONE("s") "[5]\n]}", 1, 0, JJ_ERR_TYPE, 58,
  /*                    ^ */
             "row 1, column \"v\", byte 58: expected a string, found 5");
  READ_FAILS(ONE("s") "[{\"a\":1}]\n]}", 1, 0, JJ_ERR_TYPE, 58,
             "row 1, column \"v\", byte 58: expected a string, found an object");
  READ_FAILS(ONE("s") "[\"ok\xff\"]\n]}", 1, 0, JJ_ERR_UTF8, 58,
             "row 1, column \"v\", byte 58: \"ok\\xff\" is not valid UTF-8");
  READ_FAILS(ONE("s") "[\"\xed\xa0\x80\"]\n]}", 1, 0, JJ_ERR_UTF8, 58,
             "row 1, column \"v\", byte 58: \"\\xed\\xa0\\x80\" is not valid UTF-8");
  READ_FAILS(ONE("s") "[\"\\ud800\"]\n]}", 1, 0, JJ_ERR_UTF8, 58,
             "row 1, column \"v\", byte 58: \"\\\\ud800\" is not valid UTF-8 (lone surrogate"
             " \\ud800-\\udbff (no low surrogate after it))");
  READ_FAILS(ONE("s") "[\"\\udc00x\"]\n]}", 1, 0, JJ_ERR_UTF8, 58,
             "row 1, column \"v\", byte 58: \"\\\\udc00x\" is not valid UTF-8 (lone surrogate"
             " \\udc00-\\udfff (no high surrogate before it))");
  READ_FAILS(ONE("s") "[\"\\q\"]\n]}", 1, 0, JJ_ERR_SYNTAX, 58,
             "row 1, column \"v\", byte 58: \"\\\\q\" is not a valid JSON string (invalid escape)");
  READ_FAILS(ONE("s") "[\"\\u12\"]\n]}", 1, 0, JJ_ERR_SYNTAX, 58,
             "row 1, column \"v\", byte 58: \"\\\\u12\" is not a valid JSON string"
             " (invalid \\u escape (expected 4 hex digits))");
  READ_FAILS(ONE("s") "[\"a\\n\xff\"]\n]}", 1, 0, JJ_ERR_UTF8, 58,
             "row 1, column \"v\", byte 58: \"a\\\\n\\xff\" is not valid UTF-8 (invalid UTF-8)");
}

TEST(reader_rejects_bad_dates) {
  READ_FAILS(ONE("d") "[\"2023-02-29\"]\n]}", 1, 0, JJ_ERR_DATE, 58,
  /*                    ^ */
             "row 1, column \"v\", byte 58: \"2023-02-29\" is not a date (2023 is not a leap year)");
  READ_FAILS(ONE("d") "[\"2023-1-01\"]\n]}", 1, 0, JJ_ERR_DATE, 58,
             "row 1, column \"v\", byte 58: \"2023-1-01\" is not a date (expected YYYY-MM-DD)");
  READ_FAILS(ONE("d") "[\"2023-13-01\"]\n]}", 1, 0, JJ_ERR_DATE, 58,
             "row 1, column \"v\", byte 58: \"2023-13-01\" is not a date (month 13 does not exist)");
  READ_FAILS(ONE("d") "[20230101]\n]}", 1, 0, JJ_ERR_TYPE, 58,
             "row 1, column \"v\", byte 58: expected a date string, found 20230101");
  READ_FAILS(ONE("d") "[\"2023\\u002d01-01x\"]\n]}", 1, 0, JJ_ERR_DATE, 58,
             "row 1, column \"v\", byte 58: \"2023-01-01x\" is not a date (expected YYYY-MM-DD)");
}

TEST(reader_checks_dates_read_as_text) {
  static const char doc[] = ONE("d") "[\"2024-02-29\"],\n[\"2023-02-29\"]\n]}";
  /*                                                      ^ byte 74 */
  jj_error e;
  jj_doc *d = jj_parse(doc, sizeof doc - 1, &e);
  jj_cursor *c = jj_cursor_new(d, &e);
  const char *p;
  size_t n;
  CHECK_EQ_INT(jj_cursor_next(c, &e), 1);
  CHECK_EQ_INT(jj_cursor_text(c, 0, &p, &n, &e), 1);
  CHECK_EQ_MEM(p, n, "2024-02-29", 10);
  CHECK_EQ_INT(jj_cursor_next(c, &e), 1);
  CHECK_EQ_INT(jj_cursor_text(c, 0, &p, &n, &e), -1);
  CHECK_ERROR(&e, JJ_ERR_DATE, 2, 0, 74,
              "row 2, column \"v\", byte 74: \"2023-02-29\" is not a date (2023 is not a leap year)");
  jj_cursor_free(c);
  jj_doc_free(d);
}

TEST(reader_rejects_bad_timestamps) {
  READ_FAILS(ONE("t") "[\"2024-03-01T24:00:00Z\"]\n]}", 1, 0, JJ_ERR_TIMESTAMP, 58,
  /*                    ^ */
             "row 1, column \"v\", byte 58: \"2024-03-01T24:00:00Z\" is not a timestamp"
             " (hour 24 does not exist)");
  READ_FAILS(ONE("t") "[\"2024-03-01T10:00:00\"]\n]}", 1, 0, JJ_ERR_TIMESTAMP, 58,
             "row 1, column \"v\", byte 58: \"2024-03-01T10:00:00\" is not a timestamp"
             " (missing zone: add Z or +HH:MM)");
  READ_FAILS(ONE("t") "[1709287200]\n]}", 1, 0, JJ_ERR_TYPE, 58,
             "row 1, column \"v\", byte 58: expected a timestamp string, found 1709287200");
}

TEST(reader_rejects_bad_booleans) {
  READ_FAILS(ONE("b") "[1]\n]}", 1, 0, JJ_ERR_TYPE, 58,
  /*                    ^ */
             "row 1, column \"v\", byte 58: expected true or false, found 1");
  READ_FAILS(ONE("b") "[\"true\"]\n]}", 1, 0, JJ_ERR_TYPE, 58,
             "row 1, column \"v\", byte 58: expected true or false, found \"true\"");
}

TEST(reader_rejects_bad_base64) {
  READ_FAILS(ONE("x") "[\"QUJD=\"]\n]}", 1, 0, JJ_ERR_BASE64, 58,
  /*                    ^ */
             "row 1, column \"v\", byte 58: \"QUJD=\" is not valid base64"
             " (length is not a multiple of 4)");
  READ_FAILS(ONE("x") "[\"QU!D\"]\n]}", 1, 0, JJ_ERR_BASE64, 58,
             "row 1, column \"v\", byte 58: \"QU!D\" is not valid base64 (invalid base64 character)");
  READ_FAILS(ONE("x") "[\"QR==\"]\n]}", 1, 0, JJ_ERR_BASE64, 58,
             "row 1, column \"v\", byte 58: \"QR==\" is not valid base64"
             " (unused bits of the last character are not zero)");
  READ_FAILS(ONE("x") "[5]\n]}", 1, 0, JJ_ERR_TYPE, 58,
             "row 1, column \"v\", byte 58: expected a base64 string, found 5");
}

/* ------------------------------------------------------------------ */
/* Nested tables                                                       */
/* ------------------------------------------------------------------ */

/* One column "v" holding a table of one integer column "x": 85 bytes. */
#define NESTED \
  "{\"jalapenojson\":1,\"columns\":[\"v\"],\"types\":[{\"columns\":[\"x\"],\"types\":[\"i\"]}],\"rows\":[\n"
#define NESTED_LEN 85

TEST(reader_rejects_bad_nested_table_values) {
  READ_FAILS(NESTED "[5]\n]}", 1, 0, JJ_ERR_TYPE, 86,
  /*                  ^ byte 86 */
             "row 1, column \"v\", byte 86: expected an array of rows, found 5");
  READ_FAILS(NESTED "[{\"x\":1}]\n]}", 1, 0, JJ_ERR_TYPE, 86,
             "row 1, column \"v\", byte 86: expected an array of rows, found an object");
  READ_FAILS(NESTED "[[[1,2]]]\n]}", 1, 0, JJ_ERR_ROW, 87,
  /*                   ^ byte 87 */
             "row 1, column \"v\", row 1, byte 87: expected 1 value, found 2");
  READ_FAILS(NESTED "[[[1],5]]\n]}", 1, 0, JJ_ERR_ROW, 91,
  /*                       ^ byte 91 */
             "row 1, column \"v\", row 2, byte 91: a row must be an array, found 5");
  READ_FAILS(NESTED "[[]],\n[[[1],[\"a\"]]]\n]}", 2, 0, JJ_ERR_TYPE, 98,
  /*                               ^ byte 98 */
             "row 2, column \"v\", row 2, column \"x\", byte 98: expected an integer,"
             " found \"a\"");
}

/* ------------------------------------------------------------------ */
/* The error table of SPEC.md                                          */
/* ------------------------------------------------------------------ */

/* Each row of SPEC.md's table that is a document: parsed with
** JJ_PARSE_VALIDATE (and the depth limit given), it fails with exactly this
** code and message.  Keep this list and the table in the same order. */
static const struct {
  jj_code code;
  unsigned max_depth;
  const char *input;
  const char *message;
} spec_table[] = {
    {JJ_ERR_SYNTAX, 0, "", "byte 0: the document is empty"},
    {JJ_ERR_DEPTH, 1, "{\"jalapenojson\":1,\"columns\":[\"a\"],\"types\":[\"i\"],\"rows\":[[[[1]]]]}",
     "row 1, column \"a\", byte 58: nesting deeper than the limit"},
    {JJ_ERR_HEADER, 0, "{}", "byte 1: expected \"jalapenojson\" as the first key, found \"}\""},
    {JJ_ERR_VERSION, 0, "{\"jalapenojson\":2}",
     "byte 16: version 2 is not supported (expected the integer 1)"},
    {JJ_ERR_SCHEMA, 0, "{\"jalapenojson\":1,\"columns\":[],\"types\":[]}",
     "byte 28: a table needs at least one column"},
    {JJ_ERR_ROW, 0, "{\"jalapenojson\":1,\"columns\":[\"a\"],\"types\":[\"i\"],\"rows\":[[]]}",
     "row 1, byte 56: expected 1 value, found 0"},
    {JJ_ERR_COUNT, 0,
     "{\"jalapenojson\":1,\"columns\":[\"a\"],\"types\":[\"i\"],\"count\":1,\"rows\":[]}",
     "byte 56: the header says \"count\":1 but there are 0 rows"},
    {JJ_ERR_TYPE, 0, "{\"jalapenojson\":1,\"columns\":[\"a\"],\"types\":[\"i\"],\"rows\":[[\"1\"]]}",
     "row 1, column \"a\", byte 57: expected an integer, found \"1\""},
    {JJ_ERR_RANGE, 0, "{\"jalapenojson\":1,\"columns\":[\"a\"],\"types\":[\"i\"],\"rows\":[[1.5]]}",
     "row 1, column \"a\", byte 57: 1.5 is not an integer"},
    {JJ_ERR_UTF8, 0,
     "{\"jalapenojson\":1,\"columns\":[\"a\"],\"types\":[\"s\"],\"rows\":[[\"\\udc00\"]]}",
     "row 1, column \"a\", byte 57: \"\\\\udc00\" is not valid UTF-8 (lone surrogate "
     "\\udc00-\\udfff (no high surrogate before it))"},
    {JJ_ERR_DATE, 0,
     "{\"jalapenojson\":1,\"columns\":[\"a\"],\"types\":[\"d\"],\"rows\":[[\"2023-02-29\"]]}",
     "row 1, column \"a\", byte 57: \"2023-02-29\" is not a date (2023 is not a leap year)"},
    {JJ_ERR_TIMESTAMP, 0,
     "{\"jalapenojson\":1,\"columns\":[\"a\"],\"types\":[\"t\"],\"rows\":"
     "[[\"2024-03-01T24:00:00Z\"]]}",
     "row 1, column \"a\", byte 57: \"2024-03-01T24:00:00Z\" is not a timestamp "
     "(hour 24 does not exist)"},
    {JJ_ERR_BASE64, 0, "{\"jalapenojson\":1,\"columns\":[\"a\"],\"types\":[\"x\"],\"rows\":[[\"QQ=\"]]}",
     "row 1, column \"a\", byte 57: \"QQ=\" is not valid base64 (length is not a multiple of 4)"},
};

TEST(spec_error_table_documents_are_refused_as_written) {
  for (size_t k = 0; k < sizeof spec_table / sizeof spec_table[0]; k++) {
    jj_error e;
    const char *in = spec_table[k].input;
    jj_doc *d = jj_parse_opts(in, strlen(in), JJ_PARSE_VALIDATE,
                              spec_table[k].max_depth, &e);
    CHECK(d == NULL);
    CHECK_EQ_INT(e.code, spec_table[k].code);
    CHECK_EQ_STR(e.message, spec_table[k].message);
  }
}

TEST(spec_error_table_api_rows_fail_as_written) {
  /* JJ_ERR_USAGE: jj_cursor_int on a text column */
  static const char doc[] =
      "{\"jalapenojson\":1,\"columns\":[\"a\"],\"types\":[\"s\"],\"rows\":[[\"x\"]]}";
  jj_error e;
  jj_doc *d = jj_parse(doc, sizeof doc - 1, &e);
  jj_cursor *c = jj_cursor_new(d, &e);
  int64_t i;
  CHECK_EQ_INT(jj_cursor_next(c, &e), 1);
  CHECK_EQ_INT(jj_cursor_int(c, 0, &i, &e), -1);
  CHECK_EQ_INT(e.code, JJ_ERR_USAGE);
  CHECK_EQ_STR(e.message, "row 1, column \"a\": jj_cursor_int cannot read a text column");
  jj_cursor_free(c);
  jj_doc_free(d);
  /* JJ_ERR_IO: a file that is not there */
  jj_file f;
  CHECK_EQ_INT(jj_file_open("/nonexistent/missing.jj", 0, &f, &e), JJ_ERR_IO);
  CHECK_EQ_STR(e.message, "cannot open \"/nonexistent/missing.jj\": No such file or directory");
  /* JJ_ERR_COMPRESSION: a gzip stream cut after its magic */
  char *out = NULL;
  size_t n;
  CHECK_EQ_INT(jj_decompress(JJ_GZIP, "\x1f\x8b", 2, 0, &out, &n, &e), JJ_ERR_COMPRESSION);
  CHECK_EQ_STR(e.message, "gzip stream is truncated");
  jj_free(out);
}

int main(void) {
  RUN(reader_rejects_rows_with_the_wrong_number_of_values);
  RUN(reader_rejects_a_row_that_is_not_an_array);
  RUN(reader_rejects_bad_separators_between_values_and_rows);
  RUN(reader_rejects_broken_values_when_the_row_is_reached);
  RUN(reader_rejects_what_follows_the_rows);
  RUN(reader_checks_the_declared_count_at_the_end);
  RUN(reader_limits_the_depth_of_values);
  RUN(reader_rejects_bad_integers);
  RUN(reader_reads_integer_edge_values);
  RUN(reader_rejects_bad_floats);
  RUN(reader_reads_float_specials_and_extremes);
  RUN(reader_rejects_bad_text);
  RUN(reader_rejects_bad_dates);
  RUN(reader_checks_dates_read_as_text);
  RUN(reader_rejects_bad_timestamps);
  RUN(reader_rejects_bad_booleans);
  RUN(reader_rejects_bad_base64);
  RUN(reader_rejects_bad_nested_table_values);
  RUN(spec_error_table_documents_are_refused_as_written);
  RUN(spec_error_table_api_rows_fail_as_written);
  return test_summary("reader_errors");
}
