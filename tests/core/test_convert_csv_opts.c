/*
** test_convert_csv_opts.c — jj_convert's CSV options for files as people
** keep them: thousands separators (opts.thousands), null markers for one
** column (opts.null_for), and no header record (JJ_CONVERT_CSV_NO_HEADER);
** each with its note, its bad uses, and the same document as before when
** it is not given.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_convert.h"

static jj_code conv_sep(const char *text, char sep, const char *schema,
                        conv_out *out) {
  jj_convert_opts o;
  memset(&o, 0, sizeof o);
  o.thousands = sep;
  o.schema = schema;
  return conv_opts(text, strlen(text), o, out);
}

TEST(thousands_inferred) {
  conv_out out;
  /* quoted when the separator is the delimiter; a sign, a fraction, a
  ** point with no digit after it, a spreadsheet number beside them */
  CHECK_EQ_INT(conv_sep("name,amount,rate\nA,\"1,234\",\"1,234.5\"\n"
                        "B,7,\"-12,345,678.25\"\nC,\"+1,000\",.5\n"
                        "D,\"999,999\",\"2,000.\"\n",
                        ',', NULL, &out),
               JJ_OK);
  CHECK_EQ_STR(body(&out),
               "\"columns\":[\"name\",\"amount\",\"rate\"],\"types\":[\"s\","
               "\"i\",\"f\"],\"rows\":[\n[\"A\",1234,1234.5],\n"
               "[\"B\",7,-12345678.25],\n[\"C\",1000,0.5],\n"
               "[\"D\",999999,2000.0]\n]}");
  CHECK(strstr(out.notes.p,
               "column \"amount\": 3 numbers with thousands separators "
               "(first: row 1, \"1,234\") read as integers\n") != NULL);
  CHECK(strstr(out.notes.p,
               "column \"rate\": 3 numbers with thousands separators "
               "(first: row 1, \"1,234.5\") read as floats\n") != NULL);
  CHECK(strstr(out.notes.p,
               "column \"rate\": 1 number written as spreadsheets write "
               "them (first: row 3, \".5\") read as floats\n") != NULL);
  conv_free(&out);
  /* another separator: a space or an apostrophe, unquoted */
  CHECK_EQ_INT(conv_sep("n;m\n1 234;1'000'000\n", ' ', NULL, &out), JJ_OK);
  CHECK_EQ_STR(body(&out), "\"columns\":[\"n\",\"m\"],\"types\":[\"i\",\"s\"],"
                           "\"rows\":[\n[1234,\"1'000'000\"]\n]}");
  conv_free(&out);
  CHECK_EQ_INT(conv_sep("m\n1'000'000\n", '\'', NULL, &out), JJ_OK);
  CHECK_EQ_STR(body(&out), "\"columns\":[\"m\"],\"types\":[\"i\"],"
                           "\"rows\":[\n[1000000]\n]}");
  conv_free(&out);
}

TEST(thousands_malformed_stay_text) {
  conv_out out;
  /* groups of other sizes, empty groups, a leading zero, an exponent, a
  ** separator at either end: text, and so is the column */
  static const char *const bad[] = {"12,34",  "1,,234",   "0,123",
                                    "1,2345", "1,234e5",  ",123",
                                    "1,234,", "1234,567", "1.234,5",
                                    "--1,234"};
  for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
    char text[64], want[160];
    snprintf(text, sizeof text, "a\n\"%s\"\n", bad[k]);
    snprintf(want, sizeof want,
             "\"columns\":[\"a\"],\"types\":[\"s\"],\"rows\":[\n[\"%s\"]\n]}",
             bad[k]);
    CHECK_EQ_INT(conv_sep(text, ',', NULL, &out), JJ_OK);
    CHECK_EQ_STR(body(&out), want);
    CHECK(strstr(out.notes.p, "thousands") == NULL);
    conv_free(&out);
  }
  /* in a column of text a grouped number is written as it stands */
  CHECK_EQ_INT(conv_sep("a\n\"1,234\"\nx\n", ',', NULL, &out), JJ_OK);
  CHECK_EQ_STR(body(&out), "\"columns\":[\"a\"],\"types\":[\"s\"],"
                           "\"rows\":[\n[\"1,234\"],\n[\"x\"]\n]}");
  CHECK(strstr(out.notes.p, "thousands") == NULL);
  conv_free(&out);
}

TEST(thousands_not_asked) {
  conv_out out, plain;
  static const char text[] = "a,b\n\"1,234\",.5\n\"5,678\",+2\n";
  /* without the option: text, and the same bytes as a zeroed opts */
  CHECK_EQ_INT(conv_sep(text, 0, NULL, &out), JJ_OK);
  CHECK_EQ_INT(conv(text, NULL, 0, &plain), JJ_OK);
  CHECK_EQ_STR(body(&out), "\"columns\":[\"a\",\"b\"],\"types\":[\"s\",\"f\"],"
                           "\"rows\":[\n[\"1,234\",0.5],\n[\"5,678\",2.0]\n]}");
  CHECK(out.doc.len == plain.doc.len &&
        !memcmp(out.doc.p, plain.doc.p, out.doc.len));
  CHECK_EQ_STR(out.notes.p, plain.notes.p);
  conv_free(&out);
  conv_free(&plain);
}

TEST(thousands_not_json) {
  conv_out out, plain;
  /* JSON numbers have no separators; a JSON string stays a string */
  static const char text[] = "[{\"a\":\"1,234\",\"b\":1234}]";
  CHECK_EQ_INT(conv_sep(text, ',', NULL, &out), JJ_OK);
  CHECK_EQ_INT(conv(text, NULL, 0, &plain), JJ_OK);
  CHECK_EQ_STR(body(&out), "\"columns\":[\"a\",\"b\"],\"types\":[\"s\",\"i\"],"
                           "\"rows\":[\n[\"1,234\",1234]\n]}");
  CHECK_EQ_STR(out.doc.p, plain.doc.p);
  conv_free(&out);
  conv_free(&plain);
}

TEST(thousands_schema) {
  conv_out out;
  CHECK_EQ_INT(conv_sep("n,x\n\"1,234\",\"2,500.75\"\n", ',', "n:i,x:f", &out),
               JJ_OK);
  CHECK_EQ_STR(body(&out), "\"columns\":[\"n\",\"x\"],\"types\":[\"i\",\"f\"],"
                           "\"rows\":[\n[1234,2500.75]\n]}");
  conv_free(&out);
  /* a text schema keeps the field; an integer column refuses a fraction
  ** and shows it as written */
  CHECK_EQ_INT(conv_sep("n\n\"1,234\"\n", ',', "n:s", &out), JJ_OK);
  CHECK_EQ_STR(body(&out), "\"columns\":[\"n\"],\"types\":[\"s\"],"
                           "\"rows\":[\n[\"1,234\"]\n]}");
  conv_free(&out);
  CHECK_EQ_INT(conv_sep("n\n\"1,234.5\"\n", ',', "n:i", &out), JJ_ERR_TYPE);
  CHECK_EQ_STR(out.err.message, "in: row 1, column \"n\", byte 2: \"1,234.5\" "
                                "is not an integer (the schema says n:i)");
  conv_free(&out);
  /* without the option the schema refuses the grouped number */
  CHECK_EQ_INT(conv_sep("n\n\"1,234\"\n", 0, "n:i", &out), JJ_ERR_TYPE);
  conv_free(&out);
}

TEST(thousands_bad_separator) {
  static const char seps[] = {'.', '5', '-', '+', 'e', '"', '\n', '\x01',
                              (char)0xC3};
  for (size_t k = 0; k < sizeof seps; k++) {
    conv_out out;
    CHECK_EQ_INT(conv_sep("a\n1\n", seps[k], NULL, &out), JJ_ERR_USAGE);
    CHECK(strstr(out.err.message, "thousands separator cannot be") != NULL);
    conv_free(&out);
  }
}

static jj_code conv_for(const char *text, const jj_convert_null_for *m,
                        size_t n, unsigned flags, conv_out *out) {
  jj_convert_opts o;
  memset(&o, 0, sizeof o);
  o.null_for = m;
  o.n_null_for = n;
  o.flags = flags;
  return conv_opts(text, strlen(text), o, out);
}

TEST(null_for_columns) {
  static const jj_convert_null_for m[] = {
      {"rate", "NA"}, {"rate", "."}, {"code", "-"}};
  conv_out out;
  /* NA and . are null in rate only, - in code only; the empty field stays
  ** null everywhere; a quoted "NA" is text */
  CHECK_EQ_INT(conv_for("area,rate,code,note\nA,.097,x,NA\nB,NA,-,.\n"
                        "C,.,\"-\",-\nD,,y,\n",
                        m, 3, 0, &out),
               JJ_OK);
  CHECK_EQ_STR(body(&out),
               "\"columns\":[\"area\",\"rate\",\"code\",\"note\"],\"types\":"
               "[\"s\",\"f\",\"s\",\"s\"],\"rows\":[\n"
               "[\"A\",0.097,\"x\",\"NA\"],\n[\"B\",null,null,\".\"],\n"
               "[\"C\",null,\"-\",\"-\"],\n[\"D\",null,\"y\",null]\n]}");
  CHECK(strstr(out.notes.p, "column \"rate\": 2 fields read as null by its "
                            "null markers (\"NA\", \".\"; first: row 2)\n") !=
        NULL);
  CHECK(strstr(out.notes.p, "column \"code\": 1 field read as null by its "
                            "null markers (\"-\"; first: row 2)\n") != NULL);
  CHECK(strstr(out.notes.p, "column \"note\"") == NULL);
  conv_free(&out);
}

TEST(null_for_with_global) {
  static const jj_convert_null_for m[] = {{"b", ""}, {"a", "x"}};
  jj_convert_opts o;
  conv_out out;
  /* with empty-is-text, "" for b alone makes b's empty field null; the
  ** global marker NULL applies to both; an empty marker is not counted */
  memset(&o, 0, sizeof o);
  o.null_text = "NULL";
  o.null_for = m;
  o.n_null_for = 2;
  o.flags = JJ_CONVERT_CSV_EMPTY_IS_TEXT;
  static const char text[] = "a,b\n,\nNULL,NULL\nx,x\n";
  CHECK_EQ_INT(conv_opts(text, strlen(text), o, &out), JJ_OK);
  CHECK_EQ_STR(body(&out), "\"columns\":[\"a\",\"b\"],\"types\":[\"s\",\"s\"],"
                           "\"rows\":[\n[\"\",null],\n[null,null],\n"
                           "[null,\"x\"]\n]}");
  CHECK(strstr(out.notes.p, "column \"a\": 1 field read as null by its null "
                            "markers (\"x\"; first: row 3)\n") != NULL);
  CHECK(strstr(out.notes.p, "column \"b\"") == NULL);
  conv_free(&out);
}

TEST(null_for_renamed_and_bad) {
  static const jj_convert_null_for renamed[] = {{"column_2", "?"},
                                                {"a_2", "?"}};
  static const jj_convert_null_for missing[] = {{"rate", "NA"}};
  static const jj_convert_null_for nul[] = {{"a", NULL}};
  conv_out out;
  /* the names the document has, after renaming */
  CHECK_EQ_INT(conv_for("a,,a\n?,?,?\n", renamed, 2, 0, &out), JJ_OK);
  CHECK_EQ_STR(body(&out),
               "\"columns\":[\"a\",\"column_2\",\"a_2\"],\"types\":[\"s\","
               "\"s\",\"s\"],\"rows\":[\n[\"?\",null,null]\n]}");
  conv_free(&out);
  CHECK_EQ_INT(conv_for("a,b\n1,2\n", missing, 1, 0, &out), JJ_ERR_USAGE);
  CHECK_EQ_STR(out.err.message,
               "in: column \"rate\" has a null marker but is not in the "
               "header");
  CHECK_EQ_STR(out.doc.p, "");
  conv_free(&out);
  CHECK_EQ_INT(conv_for("a\n1\n", nul, 1, 0, &out), JJ_ERR_USAGE);
  CHECK_EQ_STR(out.err.message,
               "in: per-column null marker 1 has a NULL text");
  conv_free(&out);
  CHECK_EQ_INT(conv_for("a\n1\n", missing, JJ_CONVERT_MAX_NULL_FOR + 1, 0,
                        &out),
               JJ_ERR_USAGE);
  conv_free(&out);
}

TEST(no_header) {
  conv_out out;
  CHECK_EQ_INT(conv("1,x,2024-01-01\n2,y,2024-01-02\n", NULL,
                    JJ_CONVERT_CSV_NO_HEADER, &out),
               JJ_OK);
  CHECK_EQ_STR(body(&out),
               "\"columns\":[\"column_1\",\"column_2\",\"column_3\"],"
               "\"types\":[\"i\",\"s\",\"d\"],\"rows\":[\n"
               "[1,\"x\",\"2024-01-01\"],\n[2,\"y\",\"2024-01-02\"]\n]}");
  CHECK(strstr(out.notes.p, "no header record: the 3 columns are named "
                            "column_1 to column_3, the first record is row "
                            "1\n") != NULL);
  CHECK_EQ_INT(out.res.rows, 2);
  conv_free(&out);
  /* one column; a schema and markers by those names */
  static const jj_convert_null_for m[] = {{"column_2", "NA"}};
  jj_convert_opts o;
  memset(&o, 0, sizeof o);
  o.flags = JJ_CONVERT_CSV_NO_HEADER;
  o.schema = "column_1:f";
  o.null_for = m;
  o.n_null_for = 1;
  static const char text[] = "1,NA\n2,3\n";
  CHECK_EQ_INT(conv_opts(text, strlen(text), o, &out), JJ_OK);
  CHECK_EQ_STR(body(&out), "\"columns\":[\"column_1\",\"column_2\"],"
                           "\"types\":[\"f\",\"i\"],\"rows\":[\n"
                           "[1.0,null],\n[2.0,3]\n]}");
  CHECK(strstr(out.notes.p, "column \"column_2\": 1 field read as null by "
                            "its null markers (\"NA\"; first: row 1)\n") !=
        NULL);
  conv_free(&out);
  CHECK_EQ_INT(conv("only\n", NULL, JJ_CONVERT_CSV_NO_HEADER, &out), JJ_OK);
  CHECK_EQ_STR(body(&out), "\"columns\":[\"column_1\"],\"types\":[\"s\"],"
                           "\"rows\":[\n[\"only\"]\n]}");
  CHECK(strstr(out.notes.p, "the 1 column is named column_1, ") != NULL);
  conv_free(&out);
  o.schema = NULL;
  static const jj_convert_null_for far[] = {{"column_9", "NA"}};
  o.null_for = far;
  CHECK_EQ_INT(conv_opts(text, strlen(text), o, &out), JJ_ERR_USAGE);
  CHECK_EQ_STR(out.err.message,
               "in: column \"column_9\" has a null marker but is not in the "
               "input (without a header, the columns are column_1, "
               "column_2, ...)");
  conv_free(&out);
}

TEST(no_header_counts) {
  conv_out out;
  /* field counts as in the first record; padding and set-aside as with a
  ** header */
  CHECK_CONV_ERR("1,2\n3\n", NULL, JJ_CONVERT_CSV_NO_HEADER, JJ_ERR_ROW,
                 "in: row 2, byte 4: expected 2 fields (as in the first "
                 "record), found 1");
  CHECK_EQ_INT(conv("1,2\n3\n", NULL,
                    JJ_CONVERT_CSV_NO_HEADER | JJ_CONVERT_CSV_NULL_PADDING,
                    &out),
               JJ_OK);
  CHECK_EQ_STR(body(&out), "\"columns\":[\"column_1\",\"column_2\"],"
                           "\"types\":[\"i\",\"i\"],\"rows\":[\n[1,2],\n"
                           "[3,null]\n]}");
  conv_free(&out);
  jj_convert_opts o;
  memset(&o, 0, sizeof o);
  o.flags = JJ_CONVERT_CSV_NO_HEADER;
  o.on_error = JJ_ON_ERROR_SKIP;
  static const char text[] = "1,2\n3\n4,5\n";
  CHECK_EQ_INT(conv_opts(text, strlen(text), o, &out), JJ_OK);
  CHECK_EQ_STR(body(&out), "\"columns\":[\"column_1\",\"column_2\"],"
                           "\"types\":[\"i\",\"i\"],\"rows\":[\n[1,2],\n"
                           "[4,5]\n]}");
  CHECK_EQ_INT((int)out.res.rejected, 1);
  conv_free(&out);
  /* nothing to read: blank lines only */
  o.from = JJ_FORMAT_CSV;
  o.on_error = JJ_ON_ERROR_FAIL;
  CHECK_EQ_INT(conv_opts("\n\n", 2, o, &out), JJ_ERR_SYNTAX);
  CHECK_EQ_STR(out.err.message, "in: the input has no records");
  conv_free(&out);
  /* a broken first record is located in row 1 */
  CHECK_CONV_ERR("\"a,b\n", NULL, JJ_CONVERT_CSV_NO_HEADER, JJ_ERR_SYNTAX,
                 "in: row 1, byte 0: unterminated quoted field");
}

/* Records re-read when they cross the input window (1 MiB): each counted
** once, in the notes and the rows. */
TEST(counts_across_windows) {
  enum { ROWS = 200000 };
  static const char rec[] = "r,NA,\"12,345\"\n";
  size_t n = sizeof rec - 1, len = ROWS * n;
  char *text = malloc(len + 1);
  CHECK(text != NULL);
  if (!text) return;
  for (size_t i = 0; i < ROWS; i++) memcpy(text + i * n, rec, n);
  static const jj_convert_null_for m[] = {{"column_2", "NA"}};
  jj_convert_opts o;
  memset(&o, 0, sizeof o);
  o.flags = JJ_CONVERT_CSV_NO_HEADER;
  o.thousands = ',';
  o.null_for = m;
  o.n_null_for = 1;
  conv_out out;
  CHECK_EQ_INT(conv_opts(text, len, o, &out), JJ_OK);
  CHECK_EQ_INT(out.res.rows, ROWS);
  CHECK(strstr(out.notes.p, "column \"column_2\": 200000 fields read as null "
                            "by its null markers (\"NA\"; first: row 1)\n") !=
        NULL);
  CHECK(strstr(out.notes.p, "column \"column_3\": 200000 numbers with "
                            "thousands separators (first: row 1, \"12,345\") "
                            "read as integers\n") != NULL);
  CHECK(strstr(out.doc.p, "\"types\":[\"s\",\"s\",\"i\"]") != NULL);
  conv_free(&out);
  free(text);
}

int main(void) {
  RUN(thousands_inferred);
  RUN(thousands_malformed_stay_text);
  RUN(thousands_not_asked);
  RUN(thousands_not_json);
  RUN(thousands_schema);
  RUN(thousands_bad_separator);
  RUN(null_for_columns);
  RUN(null_for_with_global);
  RUN(null_for_renamed_and_bad);
  RUN(no_header);
  RUN(no_header_counts);
  RUN(counts_across_windows);
  return test_summary("convert_csv_opts");
}
