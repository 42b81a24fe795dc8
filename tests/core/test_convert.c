/*
** test_convert.c — jj_convert on JSON and NDJSON input: every inference
** rule of SPEC.md's "Converting", the explicit schema, the located errors;
** the window (rows larger than it, rows across its edge), limits, the
** spool of an input that cannot be rewound, an input that changes between
** the passes (test_convert_input.c).  CSV, export and round trips:
** test_convert_csv.c.
**
** Also a small command for tests/cli/test_convert.py:
**   test_convert --convert IN OUT [--schema S] [--flags N] [--null T]
**                [--delimiter C]
**   test_convert --export IN OUT json|ndjson|csv|tsv
** (exit 0 ok, 1 with the error on stderr; notes on stderr as "note: ...").
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_convert.h"

/* ---------------------------------------------------------------------- */
/* Inference                                                               */
/* ---------------------------------------------------------------------- */

TEST(convert_infers_each_scalar_type) {
  CHECK_CONV(
      "[{\"i\":1,\"f\":1.5,\"s\":\"x\",\"b\":true,\"d\":\"2024-02-29\","
      "\"t\":\"2024-03-01T10:30:00.25+05:30\"}]",
      NULL, 0,
      "\"columns\":[\"i\",\"f\",\"s\",\"b\",\"d\",\"t\"],\"types\":"
      "[\"i\",\"f\",\"s\",\"b\",\"d\",\"t\"],\"rows\":[\n"
      "[1,1.5,\"x\",true,\"2024-02-29\",\"2024-03-01T10:30:00.25+05:30\"]"
      "\n]}");
}

TEST(convert_numbers_exactly) {
  /* 1.0 is a float; -0 an integer 0; -0.0 stays negative zero */
  CHECK_CONV("{\"a\":1.0,\"b\":-0,\"c\":-0.0}", NULL, 0,
             "\"columns\":[\"a\",\"b\",\"c\"],\"types\":[\"f\",\"i\",\"f\"],"
             "\"rows\":[\n[1.0,0,-0.0]\n]}");
  /* int64 limits are integers */
  CHECK_CONV("{\"a\":-9223372036854775808}\n{\"a\":9223372036854775807}", NULL,
             0,
             "\"columns\":[\"a\"],\"types\":[\"i\"],\"rows\":[\n"
             "[-9223372036854775808],\n[9223372036854775807]\n]}");
  /* floats shortest */
  CHECK_CONV("{\"a\":0.1000}\n{\"a\":1e-7}\n{\"a\":12345678901234567890.5}",
             NULL, 0,
             "\"columns\":[\"a\"],\"types\":[\"f\"],\"rows\":[\n"
             "[0.1],\n[1e-07],\n[1.2345678901234567e+19]\n]}");
}

TEST(convert_ints_and_floats_become_f_when_exact) {
  conv_out o;
  conv("{\"p\":2}\n{\"p\":2.5}\n{\"p\":9007199254740992}", NULL, 0, &o);
  CHECK_EQ_INT(o.code, JJ_OK);
  CHECK_EQ_STR(body(&o),
               "\"columns\":[\"p\"],\"types\":[\"f\"],\"rows\":[\n"
               "[2.0],\n[2.5],\n[9007199254740992.0]\n]}");
  CHECK_EQ_STR(o.notes.p,
               "read as JSON objects one after another (its first character "
               "is '{')\n"
               "column \"p\": integers (row 1, 2), floats (row 2, 2.5) -> f "
               "(every integer is exact as a double)\n");
  CHECK_EQ_INT(o.res.decisions, 2);
  conv_free(&o);
}

TEST(convert_ints_and_floats_become_s_when_an_int_is_not_exact) {
  conv_out o;
  conv("{\"p\":2.5}\n{\"p\":9007199254740993}", NULL, 0, &o);
  CHECK_EQ_STR(body(&o),
               "\"columns\":[\"p\"],\"types\":[\"s\"],\"rows\":[\n"
               "[\"2.5\"],\n[\"9007199254740993\"]\n]}");
  CHECK(strstr(o.notes.p,
               "column \"p\": integers (row 2, 9007199254740993), "
               "floats (row 1, 2.5) -> s (an integer not exact as "
               "a double)\n") != NULL);
  conv_free(&o);
  /* alone, the same integer is an i */
  CHECK_CONV("{\"p\":9007199254740993}", NULL, 0,
             "\"columns\":[\"p\"],\"types\":[\"i\"],\"rows\":[\n"
             "[9007199254740993]\n]}");
}

TEST(convert_integers_beyond_int64) {
  /* 2^64 is a double exactly; 2^64 + 1 is not */
  CHECK_CONV("{\"a\":18446744073709551616}", NULL, 0,
             "\"columns\":[\"a\"],\"types\":[\"f\"],\"rows\":[\n"
             "[1.8446744073709552e+19]\n]}");
  CHECK_CONV("{\"a\":18446744073709551617}", NULL, 0,
             "\"columns\":[\"a\"],\"types\":[\"s\"],\"rows\":[\n"
             "[\"18446744073709551617\"]\n]}");
  CHECK_CONV("{\"a\":1e400}\n{\"a\":1}", NULL, 0,
             "\"columns\":[\"a\"],\"types\":[\"s\"],\"rows\":[\n"
             "[\"1e400\"],\n[\"1\"]\n]}");
  /* 10^22 = 2^22 5^22 is exact (5^22 < 2^53), 10^23 is not */
  CHECK_CONV("{\"a\":10000000000000000000000}", NULL, 0,
             "\"columns\":[\"a\"],\"types\":[\"f\"],\"rows\":[\n"
             "[1e+22]\n]}");
  CHECK_CONV("{\"a\":100000000000000000000000}", NULL, 0,
             "\"columns\":[\"a\"],\"types\":[\"s\"],\"rows\":[\n"
             "[\"100000000000000000000000\"]\n]}");
}

TEST(convert_booleans_and_mixes_with_text) {
  CHECK_CONV("[{\"b\":true},{\"b\":false},{\"b\":null}]", NULL, 0,
             "\"columns\":[\"b\"],\"types\":[\"b\"],\"rows\":[\n"
             "[true],\n[false],\n[null]\n]}");
  /* anything + text -> s, each value's text as written */
  CHECK_CONV("[{\"m\":true},{\"m\":1.50},{\"m\":\"x\"},{\"m\":null}]", NULL, 0,
             "\"columns\":[\"m\"],\"types\":[\"s\"],\"rows\":[\n"
             "[\"true\"],\n[\"1.50\"],\n[\"x\"],\n[null]\n]}");
}

TEST(convert_dates_and_timestamps_checked) {
  conv_out o;
  CHECK_CONV("[{\"d\":\"2024-02-29\"},{\"d\":\"0000-01-01\"}]", NULL, 0,
             "\"columns\":[\"d\"],\"types\":[\"d\"],\"rows\":[\n"
             "[\"2024-02-29\"],\n[\"0000-01-01\"]\n]}");
  conv("[{\"d\":\"2024-02-29\"},{\"d\":\"2023-02-29\"}]", NULL, 0, &o);
  CHECK_EQ_STR(body(&o),
               "\"columns\":[\"d\"],\"types\":[\"s\"],\"rows\":[\n"
               "[\"2024-02-29\"],\n[\"2023-02-29\"]\n]}");
  CHECK(strstr(o.notes.p,
               "column \"d\": dates (row 1, \"2024-02-29\"), "
               "YYYY-MM-DD text that is not a date (row 2, "
               "\"2023-02-29\") -> s\n") != NULL);
  conv_free(&o);
  /* with and without a zone: no one instant for both, so text */
  conv("{\"t\":\"2024-01-01T10:00:00Z\"}\n{\"t\":\"2024-01-01T10:00:00\"}",
       NULL, 0, &o);
  CHECK(strstr(body(&o), "\"types\":[\"s\"]") != NULL);
  CHECK(strstr(o.notes.p,
               "timestamps (row 1, \"2024-01-01T10:00:00Z\"), "
               "local timestamps (row 2, \"2024-01-01T10:00:00\") -> s "
               "(timestamps with and without a zone: no one instant for "
               "both)") != NULL);
  conv_free(&o);
  /* an hour that does not exist: timestamp-like text */
  conv("{\"t\":\"2024-01-01T10:00:00Z\"}\n{\"t\":\"2024-01-01T25:00:00Z\"}",
       NULL, 0, &o);
  CHECK(strstr(body(&o), "\"types\":[\"s\"]") != NULL);
  CHECK(strstr(o.notes.p,
               "timestamp-like text that is not an RFC 3339 "
               "timestamp (row 2, \"2024-01-01T25:00:00Z\") -> s") != NULL);
  conv_free(&o);
  /* dates and timestamps together are text */
  CHECK_CONV("{\"x\":\"2024-01-01\"}\n{\"x\":\"2024-01-01T00:00:00Z\"}", NULL,
             0,
             "\"columns\":[\"x\"],\"types\":[\"s\"],\"rows\":[\n"
             "[\"2024-01-01\"],\n[\"2024-01-01T00:00:00Z\"]\n]}");
}

TEST(convert_nulls_missing_keys_and_column_order) {
  conv_out o;
  /* columns in order of first appearance; a missing key is null */
  conv("{\"b\":1}\n{\"a\":\"x\",\"b\":2}\n{\"c\":null}", NULL, 0, &o);
  CHECK_EQ_STR(body(&o),
               "\"columns\":[\"b\",\"a\",\"c\"],\"types\":[\"i\","
               "\"s\",\"s\"],\"rows\":[\n[1,null,null],\n[2,\"x\","
               "null],\n[null,null,null]\n]}");
  CHECK(strstr(o.notes.p, "column \"c\": no value but null -> s\n") != NULL);
  conv_free(&o);
}

TEST(convert_nested_arrays_of_objects) {
  CHECK_CONV(
      "[{\"o\":1,\"items\":[{\"sku\":\"a\",\"q\":2},{\"q\":1.5,"
      "\"sku\":\"b\"}]},{\"o\":2,\"items\":[]},{\"o\":3}]",
      NULL, 0,
      "\"columns\":[\"o\",\"items\"],\"types\":[\"i\",{\"columns\":"
      "[\"sku\",\"q\"],\"types\":[\"s\",\"f\"]}],\"rows\":[\n"
      "[1,[[\"a\",2.0],[\"b\",1.5]]],\n[2,[]],\n[3,null]\n]}");
  /* two levels */
  CHECK_CONV("{\"a\":[{\"b\":[{\"c\":1}]}]}", NULL, 0,
             "\"columns\":[\"a\"],\"types\":[{\"columns\":[\"b\"],\"types\":"
             "[{\"columns\":[\"c\"],\"types\":[\"i\"]}]}],\"rows\":[\n"
             "[[[[[1]]]]]\n]}");
}

TEST(convert_other_arrays_and_objects_as_json) {
  conv_out o;
  conv(
      "{\"v\":[1, 2 ,\"a b\"]}\n{\"v\":{\"k\" : [true, null]}}\n"
      "{\"v\":[{\"x\":1}, 2]}\n{\"v\":[]}",
      NULL, 0, &o);
  CHECK_EQ_STR(body(&o),
               "\"columns\":[\"v\"],\"types\":[\"j\"],\"rows\":[\n"
               "[[1,2,\"a b\"]],\n"
               "[{\"k\":[true,null]}],\n"
               "[[{\"x\":1},2]],\n[[]]\n]}");
  CHECK(strstr(o.notes.p, "-> j (kept as JSON)") != NULL);
  conv_free(&o);
  /* only empty arrays: JSON [] */
  conv("{\"v\":[]}", NULL, 0, &o);
  CHECK_EQ_STR(body(&o),
               "\"columns\":[\"v\"],\"types\":[\"j\"],\"rows\":[\n"
               "[[]]\n]}");
  CHECK(strstr(o.notes.p,
               "column \"v\": empty arrays (row 1, []) -> j (an empty array "
               "is no table of rows)\n") != NULL);
  conv_free(&o);
  /* objects without keys in arrays: no nested table to make */
  CHECK_CONV("{\"v\":[{}]}", NULL, 0,
             "\"columns\":[\"v\"],\"types\":[\"j\"],\"rows\":[\n"
             "[[{}]]\n]}");
  /* rows mixed with scalars, objects with numbers and text: all JSON */
  conv("{\"v\":[{\"x\":1}]}\n{\"v\":5}\n{\"v\":\"t\\/\\u00e9\"}\n{\"v\":1e400}", NULL, 0, &o);
  CHECK_EQ_STR(body(&o),
               "\"columns\":[\"v\"],\"types\":[\"j\"],\"rows\":[\n"
               "[[{\"x\":1}]],\n[5],\n[\"t/\u00e9\"],\n[1e400]\n]}");
  CHECK(strstr(o.notes.p, "-> j (every value kept as JSON)") != NULL);
  conv_free(&o);
  /* CSV never infers j; the schema option makes a field's JSON text one */
  CHECK_CONV("v\n\"{\"\"a\"\": [1, 2]}\"\n", NULL, 0,
             "\"columns\":[\"v\"],\"types\":[\"s\"],\"rows\":[\n"
             "[\"{\\\"a\\\": [1, 2]}\"]\n]}");
  CHECK_CONV("v\n\"{\"\"a\"\": [1, 2]}\"\n5\nnull\n", "v:j", 0,
             "\"columns\":[\"v\"],\"types\":[\"j\"],\"rows\":[\n"
             "[{\"a\":[1,2]}],\n[5],\n[null]\n]}");
  CHECK_CONV_ERR("v\n{\"a\":}\n", "v:j", 0, JJ_ERR_TYPE,
                 "in: row 1, column \"v\", byte 2: \"{\\\"a\\\":}\" is not JSON text (the "
                 "schema says v:j)");
}

TEST(convert_nan_strings_in_number_columns) {
  CHECK_CONV("{\"f\":1.5}\n{\"f\":\"NaN\"}\n{\"f\":\"-Infinity\"}", NULL, 0,
             "\"columns\":[\"f\"],\"types\":[\"f\"],\"rows\":[\n"
             "[1.5],\n[\"NaN\"],\n[\"-Infinity\"]\n]}");
  /* without a number they are text */
  CHECK_CONV("{\"f\":\"NaN\"}", NULL, 0,
             "\"columns\":[\"f\"],\"types\":[\"s\"],\"rows\":[\n[\"NaN\"]\n]}");
}

TEST(convert_keys_case_escapes_and_unicode) {
  conv_out o;
  conv("{\"Name\":1,\"name\":2,\"caf\\u00e9\":\"\\ud83d\\ude00\"}", NULL, 0,
       &o);
  CHECK_EQ_STR(body(&o),
               "\"columns\":[\"Name\",\"name\",\"café\"],\"types\":"
               "[\"i\",\"i\",\"s\"],\"rows\":[\n[1,2,\"😀\"]\n]}");
  CHECK(strstr(o.notes.p,
               "columns \"Name\" and \"name\" differ only in case "
               "(SQLite takes them for one name)\n") != NULL);
  conv_free(&o);
  /* an escaped key finds the column a plain one made */
  CHECK_CONV(
      "{\"ab\":1}\n{\"a\\u0062\":2}", NULL, 0,
      "\"columns\":[\"ab\"],\"types\":[\"i\"],\"rows\":[\n[1],\n[2]\n]}");
}

TEST(convert_bom_whitespace_and_crlf) {
  CHECK_CONV("\xEF\xBB\xBF \r\n[ {\"a\" : 1 } ,\r\n{\"a\":2}\t]\r\n", NULL, 0,
             "\"columns\":[\"a\"],\"types\":[\"i\"],\"rows\":[\n[1],\n[2]\n]}");
  CHECK_CONV("{\"a\":1}\r\n\r\n{\"a\":2}{\"a\":3}", NULL, 0,
             "\"columns\":[\"a\"],\"types\":[\"i\"],\"rows\":[\n[1],\n[2],\n"
             "[3]\n]}");
}

/* ---------------------------------------------------------------------- */
/* Errors, located                                                          */
/* ---------------------------------------------------------------------- */

TEST(convert_refuses_duplicate_and_empty_keys) {
  CHECK_CONV_ERR("{\"a\":1}\n{\"a\":1,\"b\":2,\"a\":3}", NULL, 0, JJ_ERR_SCHEMA,
                 "in: row 2, column \"a\", byte 21: key \"a\" appears twice "
                 "in one object");
  /*                   ^ byte 21 is the second "a" of row 2 */
  CHECK_CONV_ERR("[{\"\":1}]", NULL, 0, JJ_ERR_SCHEMA,
                 "in: row 1, byte 2: an empty key cannot be a column name");
  CHECK_CONV_ERR("[{\"a\\u0000\":1}]", NULL, 0, JJ_ERR_SCHEMA,
                 "in: row 1, byte 2: key \"a\\x00\" contains U+0000, which a "
                 "column name cannot");
  /* inside an array that is text (not all objects) they are no error */
  CHECK_CONV("{\"v\":[{\"a\":1,\"a\":2},5]}\n{\"v\":[{\"\":1},\"x\"]}", NULL, 0,
             "\"columns\":[\"v\"],\"types\":[\"j\"],\"rows\":[\n"
             "[[{\"a\":1,\"a\":2},5]],\n"
             "[[{\"\":1},\"x\"]]\n]}");
  /* in a nested table too, with the path */
  CHECK_CONV_ERR("[{\"x\":[{\"k\":1,\"k\":2}]}]", NULL, 0, JJ_ERR_SCHEMA,
                 "in: row 1, column \"x\", row 1, column \"k\", byte 14: key "
                 "\"k\" appears twice in one object");
}

TEST(convert_refuses_rows_that_are_not_objects) {
  CHECK_CONV_ERR("[{\"a\":1},2]", NULL, 0, JJ_ERR_SYNTAX,
                 "in: row 2, byte 9: expected an object (a row), found \"2]\"");
  CHECK_CONV_ERR("{\"a\":1}\n[1]", NULL, 0, JJ_ERR_SYNTAX,
                 "in: row 2, byte 8: expected an object (one row per line), "
                 "found \"[1]\"");
  jj_convert_opts o;
  conv_out out;
  memset(&o, 0, sizeof o);
  o.from = JJ_FORMAT_JSON;
  conv_opts("\"x\"", 3, o, &out);
  CHECK_EQ_INT(out.code, JJ_ERR_SYNTAX);
  CHECK_EQ_STR(out.err.message,
               "in: row 1, byte 0: expected an object (one "
               "row per line), found \"\\\"x\\\"\"");
  conv_free(&out);
  CHECK_CONV_ERR("  ", NULL, 0, JJ_ERR_SYNTAX, "in: the input is empty");
  CHECK_CONV_ERR("[]", NULL, 0, JJ_ERR_SCHEMA,
                 "in: the input has no columns (it has no rows)");
  CHECK_CONV_ERR("[{}]", NULL, 0, JJ_ERR_SCHEMA,
                 "in: the input has no columns (its rows have no keys)");
}

TEST(convert_reports_broken_json_where_it_breaks) {
  CHECK_CONV_ERR("[{\"a\":1}", NULL, 0, JJ_ERR_SYNTAX,
                 "in: byte 8: unexpected end of input (expected ',' or ']')");
  CHECK_CONV_ERR("[{\"a\":1} x", NULL, 0, JJ_ERR_SYNTAX,
                 "in: byte 9: expected ',' or ']' after a row, found \"x\"");
  CHECK_CONV_ERR("[{\"a\":1}] x", NULL, 0, JJ_ERR_SYNTAX,
                 "in: byte 10: unexpected data after the array of rows");
  CHECK_CONV_ERR("{\"a\":1,\"b\":tru}", NULL, 0, JJ_ERR_SYNTAX,
                 "in: row 1, column \"b\", byte 11: expected a value, found "
                 "\"tru}\"");
  CHECK_CONV_ERR("{\"a\":01}", NULL, 0, JJ_ERR_SYNTAX,
                 "in: row 1, column \"a\", byte 5: 01 is not a valid number");
  CHECK_CONV_ERR("{\"a\":\"x\\q\"}", NULL, 0, JJ_ERR_SYNTAX,
                 "in: row 1, column \"a\", byte 7: \"\\\\q\" is not a valid "
                 "JSON string (invalid escape)");
  CHECK_CONV_ERR("{\"a\":\"x\xff\"}", NULL, 0, JJ_ERR_UTF8,
                 "in: row 1, column \"a\", byte 7: \"x\\xff\" is not valid "
                 "UTF-8");
  CHECK_CONV_ERR("{\"a\":\"x\ny\"}", NULL, 0, JJ_ERR_SYNTAX,
                 "in: row 1, column \"a\", byte 7: raw control character in "
                 "string");
  CHECK_CONV_ERR("{\"a\":\"xy}", NULL, 0, JJ_ERR_SYNTAX,
                 "in: row 1, column \"a\", byte 5: unterminated string");
  CHECK_CONV_ERR("{\"a\" 1}", NULL, 0, JJ_ERR_SYNTAX,
                 "in: row 1, column \"a\", byte 5: expected ':' after the key, "
                 "found \"1}\"");
  CHECK_CONV_ERR("{\"a\":1 \"b\":2}", NULL, 0, JJ_ERR_SYNTAX,
                 "in: row 1, column \"a\", byte 7: expected ',' or '}' after a "
                 "value, found \"\\\"b\\\":2}\"");
  CHECK_CONV_ERR("{\"a\":[1,{\"b\":2]}", NULL, 0, JJ_ERR_SYNTAX,
                 "in: row 1, column \"a\", byte 14: expected ',' or '}', found "
                 "\"]}\"");
}

TEST(convert_limits_nesting) {
  char in[200];
  size_t n = 0;
  n += (size_t)snprintf(in + n, sizeof in - n, "{\"a\":");
  for (int i = 0; i < 64; i++) in[n++] = '[';
  for (int i = 0; i < 64; i++) in[n++] = ']';
  in[n++] = '}';
  in[n] = '\0';
  CHECK_CONV_ERR(in, NULL, 0, JJ_ERR_DEPTH,
                 "in: row 1, column \"a\", byte 68: nesting deeper than the "
                 "limit of 64");
  in[5 + 63] = ' '; /* 63 arrays inside the row: fine */
  in[5 + 64] = ' ';
  conv_out o;
  conv(in, NULL, 0, &o);
  CHECK_EQ_INT(o.code, JJ_OK);
  conv_free(&o);
}

/* ---------------------------------------------------------------------- */
/* The explicit schema                                                     */
/* ---------------------------------------------------------------------- */

TEST(convert_schema_overrides_inference) {
  CHECK_CONV("{\"id\":1,\"n\":2,\"x\":[1]}\n{\"id\":2,\"n\":3.0,\"x\":{}}",
             "id:s, n : f,x:s", 0,
             "\"columns\":[\"id\",\"n\",\"x\"],\"types\":[\"s\",\"f\",\"s\"],"
             "\"rows\":[\n[\"1\",2.0,\"[1]\"],\n[\"2\",3.0,\"{}\"]\n]}");
  /* a nested table with one column typed, the other inferred */
  CHECK_CONV("{\"it\":[{\"q\":1,\"s\":\"a\"}]}", "it:{q:f}", 0,
             "\"columns\":[\"it\"],\"types\":[{\"columns\":[\"q\",\"s\"],"
             "\"types\":[\"f\",\"s\"]}],\"rows\":[\n[[[1.0,\"a\"]]]\n]}");
  /* bytes only by the schema; a JSON-string name */
  CHECK_CONV("{\"a,b\":\"AAEC/w==\"}", "\"a,b\":x", 0,
             "\"columns\":[\"a,b\"],\"types\":[\"x\"],\"rows\":[\n"
             "[\"AAEC/w==\"]\n]}");
  /* the order stays the input's */
  CHECK_CONV("{\"a\":1,\"b\":2}", "b:f,a:f", 0,
             "\"columns\":[\"a\",\"b\"],\"types\":[\"f\",\"f\"],\"rows\":[\n"
             "[1.0,2.0]\n]}");
}

TEST(convert_schema_misfits_are_located_errors) {
  CHECK_CONV_ERR(
      "[{\"name\":\"a\",\"age\":30},\n {\"name\":\"b\",\"age\":"
      "\"12abc\"}]",
      "age:i", 0, JJ_ERR_TYPE,
      "in: row 2, column \"age\", byte 43: \"12abc\" is not an "
      "integer (the schema says age:i)");
  CHECK_CONV_ERR("{\"a\":1.5}", "a:i", 0, JJ_ERR_RANGE,
                 "in: row 1, column \"a\", byte 5: 1.5 is not an integer (the "
                 "schema says a:i)");
  CHECK_CONV_ERR("{\"d\":\"2023-02-29\"}", "d:d", 0, JJ_ERR_DATE,
                 "in: row 1, column \"d\", byte 5: \"2023-02-29\" is not a "
                 "date (2023 is not a leap year; the schema says d:d)");
  CHECK_CONV_ERR("{\"f\":9007199254740993}", "f:f", 0, JJ_ERR_RANGE,
                 "in: row 1, column \"f\", byte 5: 9007199254740993 is not a "
                 "float (exactly) (the schema says f:f)");
  CHECK_CONV_ERR("{\"x\":\"QQ=\"}", "x:x", 0, JJ_ERR_BASE64,
                 "in: row 1, column \"x\", byte 5: \"QQ=\" is not base64 "
                 "bytes (the schema says x:x)");
  CHECK_CONV_ERR("{\"t\":[1]}", "t:{}", 0, JJ_ERR_TYPE,
                 "in: row 1, column \"t\", byte 5: [1] is not an array of "
                 "objects (the schema says t:{)");
}

TEST(convert_schema_bad_to_null_counts) {
  conv_out o;
  conv("{\"a\":1}\n{\"a\":\"x\"}\n{\"a\":\"y\"}\n{\"a\":4}", "a:i",
       JJ_CONVERT_BAD_TO_NULL, &o);
  CHECK_EQ_INT(o.code, JJ_OK);
  CHECK_EQ_STR(body(&o),
               "\"columns\":[\"a\"],\"types\":[\"i\"],\"rows\":[\n"
               "[1],\n[null],\n[null],\n[4]\n]}");
  CHECK_EQ_INT(o.res.nulled, 2);
  CHECK(strstr(o.notes.p,
               "column \"a\": 2 values that did not fit the "
               "schema's i became null (the first: row 2, \"x\")\n") != NULL);
  conv_free(&o);
}

TEST(convert_schema_table_bad_arrays_leave_no_trace) {
  conv_out o;
  conv("{\"t\":[{\"a\":1}]}\n{\"t\":[{\"b\":\"x\"},2]}\n{\"t\":[{\"a\":2.5}]}",
       "t:{}", JJ_CONVERT_BAD_TO_NULL, &o);
  CHECK_EQ_INT(o.code, JJ_OK);
  CHECK_EQ_STR(body(&o),
               "\"columns\":[\"t\"],\"types\":[{\"columns\":[\"a\"],"
               "\"types\":[\"f\"]}],\"rows\":[\n[[[1.0]]],\n[null],\n"
               "[[[2.5]]]\n]}");
  CHECK_EQ_INT(o.res.nulled, 1);
  conv_free(&o);
}

TEST(convert_schema_option_errors) {
  CHECK_CONV_ERR("{\"a\":1}", "b:i", 0, JJ_ERR_SCHEMA,
                 "in: the schema names column \"b\", which the input does not "
                 "have");
  CHECK_CONV_ERR("{\"a\":1}", "a:q", 0, JJ_ERR_USAGE,
                 "in: the schema option, at byte 2: unknown type q for column "
                 "\"a\" (use one of i f s d t l b x j, {...} or jj for a nested "
                 "table)");
  CHECK_CONV_ERR("{\"a\":1}", "a:i,a:f", 0, JJ_ERR_USAGE,
                 "in: the schema option, at byte 4: column \"a\" is named "
                 "twice");
  CHECK_CONV_ERR("{\"a\":1}", "a", 0, JJ_ERR_USAGE,
                 "in: the schema option, at byte 1: expected ':' and a type "
                 "after \"a\"");
  CHECK_CONV_ERR("{\"a\":1}", "a:i,", 0, JJ_ERR_USAGE,
                 "in: the schema option, at byte 4: expected a column name");
  CHECK_CONV_ERR("{\"a\":1}", "a:{b:i", 0, JJ_ERR_USAGE,
                 "in: the schema option, at byte 6: expected ',' or '}'");
}

/* ---------------------------------------------------------------------- */
/* The command for tests/cli/test_convert.py                                   */
/* ---------------------------------------------------------------------- */

static void print_note(void *ctx, const char *msg) {
  (void)ctx;
  fprintf(stderr, "note: %s\n", msg);
}

static int file_sink(void *ctx, const char *p, size_t n) {
  return fwrite(p, 1, n, ctx) != n;
}

static int command(int argc, char **argv) {
  jj_convert_opts o;
  jj_error err;
  int rc = 1;
  memset(&o, 0, sizeof o);
  o.note = print_note;
  for (int i = 4; i + 1 < argc; i += 2) {
    if (!strcmp(argv[i], "--schema")) o.schema = argv[i + 1];
    if (!strcmp(argv[i], "--flags")) o.flags = (unsigned)atoi(argv[i + 1]);
    if (!strcmp(argv[i], "--null")) o.null_text = argv[i + 1];
    if (!strcmp(argv[i], "--delimiter")) o.delimiter = argv[i + 1][0];
  }
  FILE *in = fopen(argv[2], "rb"), *out = fopen(argv[3], "wb");
  if (!in || !out) {
    fprintf(stderr, "cannot open %s or %s\n", argv[2], argv[3]);
    return 1;
  }
  if (!strcmp(argv[1], "--convert")) {
    jj_input input;
    jj_convert_result res;
    jj_input_file(&input, in, argv[2]);
    if (jj_convert(&input, &o, file_sink, out, &res, &err) == JJ_OK) {
      jj_schema_free(res.schema);
      rc = 0;
    }
  } else {
    static const char *names[] = {"json", "ndjson", "csv", "tsv"};
    jj_format to = JJ_FORMAT_AUTO;
    for (int i = 0; i < 4; i++)
      if (argc > 4 && !strcmp(argv[4], names[i])) to = (jj_format)(i + 1);
    jj_file f;
    jj_doc *d = NULL;
    if (jj_file_open(argv[2], 0, &f, &err) == JJ_OK &&
        (d = jj_parse(f.data, f.len, &err)) != NULL &&
        jj_to_text(d, to, NULL, file_sink, out, &err) == JJ_OK)
      rc = 0;
    jj_doc_free(d);
    jj_file_close(&f);
  }
  if (rc) fprintf(stderr, "%s\n", err.message);
  fclose(in);
  if (fclose(out)) rc = 1;
  return rc;
}

int main(int argc, char **argv) {
  if (argc >= 4 &&
      (!strcmp(argv[1], "--convert") || !strcmp(argv[1], "--export")))
    return command(argc, argv);
  RUN(convert_infers_each_scalar_type);
  RUN(convert_numbers_exactly);
  RUN(convert_ints_and_floats_become_f_when_exact);
  RUN(convert_ints_and_floats_become_s_when_an_int_is_not_exact);
  RUN(convert_integers_beyond_int64);
  RUN(convert_booleans_and_mixes_with_text);
  RUN(convert_dates_and_timestamps_checked);
  RUN(convert_nulls_missing_keys_and_column_order);
  RUN(convert_nested_arrays_of_objects);
  RUN(convert_other_arrays_and_objects_as_json);
  RUN(convert_nan_strings_in_number_columns);
  RUN(convert_keys_case_escapes_and_unicode);
  RUN(convert_bom_whitespace_and_crlf);
  RUN(convert_refuses_duplicate_and_empty_keys);
  RUN(convert_refuses_rows_that_are_not_objects);
  RUN(convert_reports_broken_json_where_it_breaks);
  RUN(convert_limits_nesting);
  RUN(convert_schema_overrides_inference);
  RUN(convert_schema_misfits_are_located_errors);
  RUN(convert_schema_bad_to_null_counts);
  RUN(convert_schema_table_bad_arrays_leave_no_trace);
  RUN(convert_schema_option_errors);
  return test_summary("convert");
}
