/*
** test_convert_csv.c — jj_convert on CSV/TSV input (RFC 4180 edge cases,
** nulls, the header, the located errors), jj_to_text to JSON, NDJSON and
** CSV, the round trips JSON -> jj -> JSON and CSV -> jj -> CSV on generated
** data with every type, and JSONTestSuite's y_ files as values inside
** NDJSON (../shared/conformance/JSONTestSuite, found as
** test_conformance.c finds it).
*/
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "test_convert.h"

/* ---------------------------------------------------------------------- */
/* CSV in                                                                   */
/* ---------------------------------------------------------------------- */

TEST(csv_infers_types_per_column) {
  CHECK_CONV(
      "id,name,price,day,at\n1,ann,2.5,2024-02-29,2024-01-01T00:00:00Z\n"
      "2,bob,3,2024-03-01,2024-01-02T00:00:00+01:00\n",
      NULL, 0,
      "\"columns\":[\"id\",\"name\",\"price\",\"day\",\"at\"],\"types\":"
      "[\"i\",\"s\",\"f\",\"d\",\"t\"],\"rows\":[\n"
      "[1,\"ann\",2.5,\"2024-02-29\",\"2024-01-01T00:00:00Z\"],\n"
      "[2,\"bob\",3.0,\"2024-03-01\",\"2024-01-02T00:00:00+01:00\"]\n]}");
  /* leading zeros and spaces keep a column text; a plus sign is a number
  ** as spreadsheets write it (test_convert_csv_numbers.c); 1.50 is 1.5 */
  CHECK_CONV("a,b,c,d\n007,+1, 1,1.50\n", NULL, 0,
             "\"columns\":[\"a\",\"b\",\"c\",\"d\"],\"types\":[\"s\",\"i\","
             "\"s\",\"f\"],\"rows\":[\n[\"007\",1,\" 1\",1.5]\n]}");
  /* booleans only with the flag */
  CHECK_CONV("b\ntrue\nfalse\n", NULL, 0,
             "\"columns\":[\"b\"],\"types\":[\"s\"],\"rows\":[\n[\"true\"],\n"
             "[\"false\"]\n]}");
  CHECK_CONV("b\ntrue\nfalse\n\n", NULL, JJ_CONVERT_CSV_BOOLEANS,
             "\"columns\":[\"b\"],\"types\":[\"b\"],\"rows\":[\n[true],\n"
             "[false],\n[null]\n]}");
  /* quoted numbers are numbers: quoting only tells null from "" */
  CHECK_CONV(
      "n\n\"12\"\n3\n", NULL, 0,
      "\"columns\":[\"n\"],\"types\":[\"i\"],\"rows\":[\n[12],\n[3]\n]}");
}

TEST(csv_rfc4180_quoting) {
  /* a quoted delimiter, doubled quotes, embedded CRLF and LF, CRLF line
  ** ends, no newline at the end */
  CHECK_CONV(
      "a,b\r\n\"x,y\",\"say \"\"hi\"\"\"\r\n\"l1\r\nl2\",\"\n\"\r\n"
      "last,row",
      NULL, 0,
      "\"columns\":[\"a\",\"b\"],\"types\":[\"s\",\"s\"],\"rows\":[\n"
      "[\"x,y\",\"say \\\"hi\\\"\"],\n[\"l1\\r\\nl2\",\"\\n\"],\n"
      "[\"last\",\"row\"]\n]}");
  /* a quote inside an unquoted field is a character; a lone CR ends a line */
  CHECK_CONV("a\r5'11\"\rx\n", NULL, 0,
             "\"columns\":[\"a\"],\"types\":[\"s\"],\"rows\":[\n"
             "[\"5'11\\\"\"],\n[\"x\"]\n]}");
  /* a BOM is skipped */
  CHECK_CONV("\xEF\xBB\xBFk\n1\n", NULL, 0,
             "\"columns\":[\"k\"],\"types\":[\"i\"],\"rows\":[\n[1]\n]}");
}

TEST(csv_nulls_and_empty_text) {
  /* unquoted empty is null, quoted empty is the empty text */
  CHECK_CONV("a,b\n,\"\"\n", NULL, 0,
             "\"columns\":[\"a\",\"b\"],\"types\":[\"s\",\"s\"],\"rows\":[\n"
             "[null,\"\"]\n]}");
  /* an int column with a missing value stays int */
  CHECK_CONV("a,b\n1,x\n,y\n", NULL, 0,
             "\"columns\":[\"a\",\"b\"],\"types\":[\"i\",\"s\"],\"rows\":[\n"
             "[1,\"x\"],\n[null,\"y\"]\n]}");
  jj_convert_opts o;
  conv_out out;
  memset(&o, 0, sizeof o);
  o.null_text = "NULL";
  conv_opts("a,b\nNULL,\"NULL\"\n,x\n", 18, o, &out);
  CHECK_EQ_STR(body(&out),
               "\"columns\":[\"a\",\"b\"],\"types\":[\"s\",\"s\"],"
               "\"rows\":[\n[null,\"NULL\"],\n[\"\",\"x\"]\n]}");
  conv_free(&out);
  CHECK_CONV("a,b\n,x\n", NULL, JJ_CONVERT_CSV_EMPTY_IS_TEXT,
             "\"columns\":[\"a\",\"b\"],\"types\":[\"s\",\"s\"],\"rows\":[\n"
             "[\"\",\"x\"]\n]}");
}

TEST(csv_blank_lines) {
  /* skipped in a table of several columns */
  CHECK_CONV("\na,b\n\n1,2\n\r\n3,4\n\n", NULL, 0,
             "\"columns\":[\"a\",\"b\"],\"types\":[\"i\",\"i\"],\"rows\":[\n"
             "[1,2],\n[3,4]\n]}");
  /* the empty field of a table of one column */
  CHECK_CONV("a\n1\n\n2\n", NULL, 0,
             "\"columns\":[\"a\"],\"types\":[\"i\"],\"rows\":[\n[1],\n[null],\n"
             "[2]\n]}");
}

TEST(csv_header_names) {
  conv_out o;
  conv(",a,a,,a_2\n1,2,3,4,5\n", NULL, 0, &o);
  CHECK_EQ_INT(o.code, JJ_OK);
  CHECK_EQ_STR(body(&o),
               "\"columns\":[\"column_1\",\"a\",\"a_2\",\"column_4\","
               "\"a_2_2\"],\"types\":[\"i\",\"i\",\"i\",\"i\",\"i\"],"
               "\"rows\":[\n[1,2,3,4,5]\n]}");
  CHECK(strstr(o.notes.p,
               "column 1 has no name in the header: named "
               "\"column_1\"\n") != NULL);
  CHECK(strstr(o.notes.p,
               "header name \"a\" repeats in column 3: named "
               "\"a_2\"\n") != NULL);
  conv_free(&o);
  /* only a header: columns without rows */
  CHECK_CONV(
      "a,b\n", NULL, 0,
      "\"columns\":[\"a\",\"b\"],\"types\":[\"s\",\"s\"],\"rows\":[\n]}");
}

TEST(csv_delimiters) {
  conv_out o;
  conv("a;b;c\n1;x,y;2\n", NULL, 0, &o);
  CHECK_EQ_STR(body(&o),
               "\"columns\":[\"a\",\"b\",\"c\"],\"types\":[\"i\","
               "\"s\",\"i\"],\"rows\":[\n[1,\"x,y\",2]\n]}");
  CHECK(strstr(o.notes.p, "read as CSV with the delimiter ';'") != NULL);
  CHECK_EQ_INT(o.res.delimiter, ';');
  CHECK_EQ_INT(o.res.format, JJ_FORMAT_CSV);
  conv_free(&o);
  CHECK_CONV("a\tb\n1\t\"q\tq\"\n", NULL, 0,
             "\"columns\":[\"a\",\"b\"],\"types\":[\"i\",\"s\"],\"rows\":[\n"
             "[1,\"q\\tq\"]\n]}");
  CHECK_CONV("a|b\n1|2\n", NULL, 0,
             "\"columns\":[\"a\",\"b\"],\"types\":[\"i\",\"i\"],\"rows\":[\n"
             "[1,2]\n]}");
  jj_convert_opts opts;
  memset(&opts, 0, sizeof opts);
  opts.from = JJ_FORMAT_TSV;
  conv_opts("a,b\tc\n1,2\t3\n", 12, opts, &o);
  CHECK_EQ_STR(body(&o),
               "\"columns\":[\"a,b\",\"c\"],\"types\":[\"s\",\"i\"],"
               "\"rows\":[\n[\"1,2\",3]\n]}");
  conv_free(&o);
  opts.from = JJ_FORMAT_CSV;
  opts.delimiter = ':';
  conv_opts("[a:b\n1:2\n", 9, opts, &o); /* forced CSV, even with '[' */
  CHECK_EQ_STR(body(&o),
               "\"columns\":[\"[a\",\"b\"],\"types\":[\"i\",\"i\"],"
               "\"rows\":[\n[1,2]\n]}");
  conv_free(&o);
}

TEST(csv_errors_are_located) {
  CHECK_CONV_ERR("a,b\n1,2\n3\n", NULL, 0, JJ_ERR_ROW,
                 "in: row 2, byte 8: expected 2 fields (as in the header), "
                 "found 1");
  CHECK_CONV_ERR("a,b\n1,2,3\n", NULL, 0, JJ_ERR_ROW,
                 "in: row 1, byte 4: expected 2 fields (as in the header), "
                 "found 3");
  CHECK_CONV_ERR("a,b\n1,\"x\n", NULL, 0, JJ_ERR_SYNTAX,
                 "in: row 1, byte 6: unterminated quoted field");
  CHECK_CONV_ERR("a,b\n1,\"x\"y\n", NULL, 0, JJ_ERR_SYNTAX,
                 "in: row 1, byte 9: expected the delimiter or the end of the "
                 "line after a quoted field, found \"y\"");
  CHECK_CONV_ERR("a,b\n1,x\xc3\n", NULL, 0, JJ_ERR_UTF8,
                 "in: row 1, column \"b\", byte 7: \"x\\xc3\" is not valid "
                 "UTF-8");
  CHECK_CONV_ERR("a,\xff\n1,2\n", NULL, 0, JJ_ERR_UTF8,
                 "in: byte 2: header name \"\\xff\" is not valid UTF-8");
  CHECK_CONV_ERR("age\n30\n12abc\n", "age:i", 0, JJ_ERR_TYPE,
                 "in: row 2, column \"age\", byte 7: \"12abc\" is not an "
                 "integer (the schema says age:i)");
  CHECK_CONV_ERR("a\n1\n", "a:{}", 0, JJ_ERR_USAGE,
                 "in: the schema says column \"a\" is a nested table, which "
                 "CSV cannot hold");
  jj_convert_opts o;
  conv_out out;
  memset(&o, 0, sizeof o);
  o.from = JJ_FORMAT_CSV;
  conv_opts("", 0, o, &out);
  CHECK_EQ_INT(out.code, JJ_ERR_SYNTAX);
  CHECK_EQ_STR(out.err.message, "in: the input has no header record");
  conv_free(&out);
}

TEST(csv_schema_forces_types) {
  CHECK_CONV("id,ok,raw\n007,true,AAEC\n", "id:s,ok:b,raw:x", 0,
             "\"columns\":[\"id\",\"ok\",\"raw\"],\"types\":[\"s\",\"b\","
             "\"x\"],\"rows\":[\n[\"007\",true,\"AAEC\"]\n]}");
  conv_out o;
  conv("n\n1\nx\n2.5\n", "n:f", JJ_CONVERT_BAD_TO_NULL, &o);
  CHECK_EQ_STR(body(&o),
               "\"columns\":[\"n\"],\"types\":[\"f\"],\"rows\":[\n"
               "[1.0],\n[null],\n[2.5]\n]}");
  CHECK_EQ_INT(o.res.nulled, 1);
  conv_free(&o);
}

/* ---------------------------------------------------------------------- */
/* Export                                                                   */
/* ---------------------------------------------------------------------- */

static const char every_type[] =
    "{\"jalapenojson\":1,\"columns\":[\"id\",\"name\",\"price\",\"day\",\"at\","
    "\"ok\",\"blob\",\"items\"],\"types\":[\"i\",\"s\",\"f\",\"d\",\"t\",\"b\","
    "\"x\",{\"columns\":[\"sku\",\"qty\"],\"types\":[\"s\",\"i\"]}],\"rows\":["
    "\n"
    "[1,\"café, "
    "\\\"the\\\"\",19.99,\"2024-03-01\",\"2024-03-01T10:30:00.25+05:30\","
    "true,\"AAEC/w==\",[[\"a-1\",2],[\"b\\\"2\",1]]],\n"
    "[2,\"\",\"NaN\",null,null,false,\"\",[]],\n"
    "[-3,\"tab\\there\\nline\",-0.0,\"0000-01-01\",\"1970-01-01T00:00:00Z\","
    "null,null,null]\n]}";

TEST(export_json_ndjson_csv) {
  tbuf b = {0};
  jj_error err;
  CHECK_EQ_INT(export_doc(every_type, sizeof every_type - 1, JJ_FORMAT_NDJSON,
                          NULL, &b, &err),
               JJ_OK);
  CHECK_EQ_STR(
      b.p,
      "{\"id\":1,\"name\":\"café, \\\"the\\\"\",\"price\":19.99,\"day\":"
      "\"2024-03-01\",\"at\":\"2024-03-01T10:30:00.25+05:30\",\"ok\":"
      "true,\"blob\":\"AAEC/w==\",\"items\":[{\"sku\":\"a-1\",\"qty\":2},"
      "{\"sku\":\"b\\\"2\",\"qty\":1}]}\n"
      "{\"id\":2,\"name\":\"\",\"price\":\"NaN\",\"day\":null,\"at\":"
      "null,\"ok\":false,\"blob\":\"\",\"items\":[]}\n"
      "{\"id\":-3,\"name\":\"tab\\there\\nline\",\"price\":-0.0,\"day\":"
      "\"0000-01-01\",\"at\":\"1970-01-01T00:00:00Z\",\"ok\":null,"
      "\"blob\":null,\"items\":null}\n");
  tbuf_free(&b);
  CHECK_EQ_INT(export_doc(every_type, sizeof every_type - 1, JJ_FORMAT_CSV,
                          NULL, &b, &err),
               JJ_OK);
  CHECK_EQ_STR(
      b.p,
      "id,name,price,day,at,ok,blob,items\n"
      "1,\"café, \"\"the\"\"\",19.99,2024-03-01,"
      "2024-03-01T10:30:00.25+05:30,true,AAEC/w==,"
      "\"[{\"\"sku\"\":\"\"a-1\"\",\"\"qty\"\":2},{\"\"sku\"\":"
      "\"\"b\\\"\"2\"\",\"\"qty\"\":1}]\"\n"
      "2,\"\",NaN,,,false,\"\",[]\n"
      "-3,\"tab\there\nline\",-0.0,0000-01-01,1970-01-01T00:00:00Z,,,\n");
  tbuf_free(&b);
  jj_to_text_opts eo;
  memset(&eo, 0, sizeof eo);
  eo.flags = JJ_TO_TEXT_CRLF | JJ_TO_TEXT_NO_HEADER;
  eo.null_text = "-3";
  eo.delimiter = ';';
  static const char small[] =
      "{\"jalapenojson\":1,\"columns\":[\"a\",\"b\"],"
      "\"types\":[\"i\",\"s\"],\"rows\":[\n[-3,null],\n"
      "[1,\"x;y\"]\n]}";
  CHECK_EQ_INT(
      export_doc(small, sizeof small - 1, JJ_FORMAT_CSV, &eo, &b, &err), JJ_OK);
  CHECK_EQ_STR(b.p, "\"-3\";-3\r\n1;\"x;y\"\r\n");
  tbuf_free(&b);
  CHECK_EQ_INT(
      export_doc(small, sizeof small - 1, JJ_FORMAT_JSON, NULL, &b, &err),
      JJ_OK);
  CHECK_EQ_STR(b.p, "[\n{\"a\":-3,\"b\":null},\n{\"a\":1,\"b\":\"x;y\"}\n]\n");
  tbuf_free(&b);
  static const char none[] =
      "{\"jalapenojson\":1,\"columns\":[\"a\"],"
      "\"types\":[\"i\"],\"rows\":[\n]}";
  CHECK_EQ_INT(
      export_doc(none, sizeof none - 1, JJ_FORMAT_JSON, NULL, &b, &err), JJ_OK);
  CHECK_EQ_STR(b.p, "[]\n");
  tbuf_free(&b);
  CHECK_EQ_INT(export_doc(none, sizeof none - 1, JJ_FORMAT_TSV, NULL, &b, &err),
               JJ_OK);
  CHECK_EQ_STR(b.p, "a\n");
  tbuf_free(&b);
}

TEST(export_errors) {
  tbuf b = {0};
  jj_error err;
  static const char bad[] =
      "{\"jalapenojson\":1,\"columns\":[\"a\"],"
      "\"types\":[\"d\"],\"rows\":[\n[\"2023-02-29\"]\n]}";
  CHECK_EQ_INT(export_doc(bad, sizeof bad - 1, JJ_FORMAT_CSV, NULL, &b, &err),
               JJ_ERR_DATE);
  CHECK_EQ_STR(err.message,
               "row 1, column \"a\", byte 58: \"2023-02-29\" is "
               "not a date (2023 is not a leap year)");
  tbuf_free(&b);
  CHECK_EQ_INT(export_doc(bad, sizeof bad - 1, JJ_FORMAT_AUTO, NULL, &b, &err),
               JJ_ERR_USAGE);
  tbuf_free(&b);
  b.fail_after = 1;
  CHECK_EQ_INT(export_doc(every_type, sizeof every_type - 1, JJ_FORMAT_JSON,
                          NULL, &b, &err),
               JJ_ERR_IO);
  tbuf_free(&b);
  CHECK_EQ_INT(jj_to_text(NULL, JJ_FORMAT_JSON, NULL, tbuf_sink, &b, &err),
               JJ_ERR_USAGE);
}

/* ---------------------------------------------------------------------- */
/* Round trips on generated data                                           */
/* ---------------------------------------------------------------------- */

/* splitmix64 */
static uint64_t rnd(uint64_t *s) {
  uint64_t z = (*s += 0x9E3779B97F4A7C15u);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
  return z ^ (z >> 31);
}

/* Text with quotes, commas, newlines, tabs, unicode and a few plain runs. */
static void gen_text(uint64_t *s, char *out, size_t cap) {
  static const char *bits[] = {"a", "Z", " ", ",",   "\"", "\n", "\r\n", "\t",
                               "é", "€", "😀", "x y", ";",  "|",  "\\",   "''"};
  size_t n = rnd(s) % 6, at = 0;
  out[0] = '\0';
  for (size_t i = 0; i < n; i++) {
    const char *b = bits[rnd(s) % 16];
    if (at + strlen(b) + 1 >= cap) break;
    strcpy(out + at, b);
    at += strlen(b);
  }
  if (at == 0) strcpy(out, "plain"); /* "" would be a CSV null question */
}

/* A jalapenojson document of n rows with every scalar type, nulls, and (for
** JSON) a nested table, written by jj_writer: the canonical form that the
** round trips must give back exactly. */
static char *gen_doc(size_t n, int nested, uint64_t seed, size_t *len) {
  jj_schema *s = jj_schema_new(), *sub = jj_schema_new();
  jj_error err;
  char text[200];
  jj_schema_add(s, "id", 2, JJ_INT, NULL, &err);
  jj_schema_add(s, "text", 4, JJ_TEXT, NULL, &err);
  jj_schema_add(s, "f", 1, JJ_FLOAT, NULL, &err);
  jj_schema_add(s, "day", 3, JJ_DATE, NULL, &err);
  jj_schema_add(s, "at", 2, JJ_TIMESTAMP, NULL, &err);
  jj_schema_add(s, "ok", 2, JJ_BOOL, NULL, &err);
  if (nested) {
    jj_schema_add(sub, "sku", 3, JJ_TEXT, NULL, &err);
    jj_schema_add(sub, "qty", 3, JJ_INT, NULL, &err);
    jj_schema_add(s, "items", 5, JJ_TABLE, sub, &err);
  } else {
    jj_schema_free(sub);
  }
  jj_writer *w = jj_writer_new(s, NULL, NULL, &err);
  for (size_t i = 0; i < n; i++) {
    uint64_t r = rnd(&seed);
    int null = r % 7 == 0 && i > 0; /* row 1 has every value */
    jj_writer_int(w, (int64_t)(rnd(&seed) >> (r % 64)) * (r & 1 ? -1 : 1));
    gen_text(&seed, text, sizeof text);
    if (null)
      jj_writer_null(w);
    else
      jj_writer_text(w, text, strlen(text));
    double f;
    uint64_t bits = rnd(&seed);
    memcpy(&f, &bits, 8);
    if (f != f || f - f != 0) f = (double)(int64_t)bits / 7.0;
    if (r % 5 == 1) f = (double)(int64_t)(r % 1000); /* integral floats */
    if (null && r % 2)
      jj_writer_null(w);
    else
      jj_writer_double(w, f);
    if (r % 11 == 3)
      jj_writer_null(w);
    else
      jj_writer_date_days(w, (int32_t)(rnd(&seed) % 2900000) - 719528);
    jj_timestamp ts = {(int64_t)(rnd(&seed) % 4000000000u) - 2000000000, 0, 0,
                       0};
    ts.digits = (uint8_t)(rnd(&seed) % 10);
    ts.zone_minutes = (int16_t)((int)(rnd(&seed) % 1439) - 719);
    ts.nanos = (int32_t)(rnd(&seed) % 1000000000);
    {
      int32_t m = 1;
      for (int d = ts.digits; d < 9; d++) m *= 10;
      ts.nanos = ts.nanos / m * m;
    }
    if (r % 13 == 5)
      jj_writer_null(w);
    else
      jj_writer_timestamp_value(w, &ts);
    if (r % 3 == 0 && i > 0)
      jj_writer_null(w);
    else
      jj_writer_bool(w, (int)(r >> 40) & 1);
    if (nested) {
      if (r % 9 == 4 && i > 0) {
        jj_writer_null(w);
      } else {
        size_t k = rnd(&seed) % 4;
        jj_writer_begin_table(w);
        for (size_t j = 0; j < k; j++) {
          gen_text(&seed, text, sizeof text);
          jj_writer_text(w, text, strlen(text));
          jj_writer_int(w, (int64_t)(rnd(&seed) % 100));
          jj_writer_end_row(w);
        }
        jj_writer_end_table(w);
      }
    }
    jj_writer_end_row(w);
  }
  char *doc = jj_writer_finish(w) == JJ_OK ? jj_writer_take(w, len) : NULL;
  if (!doc) fprintf(stderr, "gen_doc: %s\n", jj_writer_error(w)->message);
  jj_writer_free(w);
  jj_schema_free(s);
  return doc;
}

TEST(round_trip_json_jj_json) {
  for (int nd = 0; nd < 2; nd++) {
    size_t len;
    char *doc = gen_doc(3000, 1, 42 + (uint64_t)nd, &len);
    tbuf json = {0}, back = {0};
    jj_error err;
    conv_out o;
    jj_convert_opts opts;
    CHECK(doc != NULL);
    /* jj -> JSON -> jj must give the same document, then the same JSON */
    CHECK_EQ_INT(export_doc(doc, len, nd ? JJ_FORMAT_NDJSON : JJ_FORMAT_JSON,
                            NULL, &json, &err),
                 JJ_OK);
    memset(&opts, 0, sizeof opts);
    conv_opts(json.p, json.len, opts, &o);
    if (o.code) fprintf(stderr, "     %s\n", o.err.message);
    CHECK_EQ_INT(o.code, JJ_OK);
    CHECK_EQ_MEM(o.doc.p, o.doc.len, doc, len);
    CHECK_EQ_INT(
        export_doc(o.doc.p, o.doc.len, nd ? JJ_FORMAT_NDJSON : JJ_FORMAT_JSON,
                   NULL, &back, &err),
        JJ_OK);
    CHECK_EQ_MEM(back.p, back.len, json.p, json.len);
    conv_free(&o);
    tbuf_free(&json);
    tbuf_free(&back);
    jj_free(doc);
  }
}

TEST(round_trip_csv_jj_csv) {
  for (int tsv = 0; tsv < 2; tsv++) {
    size_t len;
    char *doc = gen_doc(3000, 0, 7 + (uint64_t)tsv, &len);
    tbuf csv = {0}, back = {0};
    jj_error err;
    conv_out o;
    jj_convert_opts opts;
    jj_to_text_opts eo;
    memset(&eo, 0, sizeof eo);
    eo.flags = tsv ? 0 : JJ_TO_TEXT_CRLF;
    CHECK_EQ_INT(export_doc(doc, len, tsv ? JJ_FORMAT_TSV : JJ_FORMAT_CSV, &eo,
                            &csv, &err),
                 JJ_OK);
    memset(&opts, 0, sizeof opts);
    opts.flags = JJ_CONVERT_CSV_BOOLEANS;
    conv_opts(csv.p, csv.len, opts, &o);
    if (o.code) fprintf(stderr, "     %s\n", o.err.message);
    CHECK_EQ_INT(o.code, JJ_OK);
    /* CSV has no types, but every column's values say it here */
    CHECK_EQ_MEM(o.doc.p, o.doc.len, doc, len);
    CHECK_EQ_INT(
        export_doc(o.doc.p, o.doc.len, tsv ? JJ_FORMAT_TSV : JJ_FORMAT_CSV, &eo,
                   &back, &err),
        JJ_OK);
    CHECK_EQ_MEM(back.p, back.len, csv.p, csv.len);
    conv_free(&o);
    tbuf_free(&csv);
    tbuf_free(&back);
    jj_free(doc);
  }
}

/* ---------------------------------------------------------------------- */
/* JSONTestSuite's y_ files as values                                      */
/* ---------------------------------------------------------------------- */

#define SUITE_DEFAULT "../shared/conformance/JSONTestSuite/test_parsing"

/* The suite's directory as test_conformance.c finds it ($JJ_JSONTESTSUITE,
** else ../shared beside the clone), or NULL. */
static DIR *suite_open(char *dir, size_t cap) {
  const char *env = getenv("JJ_JSONTESTSUITE");
  const char *path = env && *env ? env : SUITE_DEFAULT;
  DIR *d = opendir(path);
  if (d) snprintf(dir, cap, "%s", path);
  return d;
}

/* Under CI (CI=true) a missing suite is a failure, not a skip. */
static int suite_required(void) {
  const char *ci = getenv("CI");
  return ci && (!strcmp(ci, "true") || !strcmp(ci, "1"));
}

/* The JSON text without whitespace outside strings. */
static size_t compact(const char *p, size_t len, char *out) {
  size_t o = 0;
  int in = 0;
  for (size_t i = 0; i < len; i++) {
    char ch = p[i];
    if (in) {
      if (ch == '\\')
        out[o++] = ch, ch = p[++i];
      else if (ch == '"')
        in = 0;
    } else if (ch == ' ' || ch == '\n' || ch == '\r' || ch == '\t') {
      continue;
    } else if (ch == '"') {
      in = 1;
    }
    out[o++] = ch;
  }
  return o;
}

TEST(jsontestsuite_y_files_as_values) {
  char dir[512], path[1024];
  DIR *d = suite_open(dir, sizeof dir);
  long files = 0, text_exact = 0, scalars = 0;
  if (!d) {
    if (!CHECK(!suite_required())) {
      fprintf(stderr, "     JSONTestSuite not found under CI=true (set "
                      "JJ_JSONTESTSUITE=/path/to/JSONTestSuite/test_parsing)\n");
      return;
    }
    printf("convert_csv: SKIPPED \xe2\x80\x94 JSONTestSuite not found; set "
           "JJ_JSONTESTSUITE=/path/to/JSONTestSuite/test_parsing\n");
    return;
  }
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    if (strncmp(e->d_name, "y_", 2)) continue;
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    FILE *f = fopen(path, "rb");
    char raw[4096];
    size_t n = f ? fread(raw, 1, sizeof raw, f) : 0;
    if (f) fclose(f);
    /* one row: {"v": <the file>}, twice, as NDJSON */
    char in[9000], want[4096];
    int len = snprintf(in, sizeof in, "{\"v\":%.*s}\n{\"v\":%.*s}\n", (int)n,
                       raw, (int)n, raw);
    conv_out o;
    jj_convert_opts opts;
    memset(&opts, 0, sizeof opts);
    conv_opts(in, (size_t)len, opts, &o);
    files++;
    if (!test_check_(o.code == JJ_OK, __FILE__, __LINE__, e->d_name)) {
      fprintf(stderr, "     %s\n", o.err.message);
      conv_free(&o);
      continue;
    }
    /* arrays and objects are JSON values: the input without whitespace
    ** (and, where it has escapes, with them as the format writes them) */
    size_t t = 0;
    while (t < n && strchr(" \t\r\n", raw[t])) t++;
    jj_doc *doc = jj_parse(o.doc.p, o.doc.len, NULL);
    jj_cursor *c = jj_cursor_new(doc, NULL);
    CHECK(jj_cursor_next(c, NULL) == 1);
    if (t < n && (raw[t] == '[' || raw[t] == '{')) {
      const char *p, *why;
      size_t plen, wlen = compact(raw, n, want), bad;
      jj_code code;
      jj_buf canon = {0};
      if (memchr(raw, '\\', n)) { /* escapes: the canonical form */
        CHECK(jj_json_canon(raw, n, 64, &canon, &bad, &code, &why) >= 0);
        wlen = canon.len < sizeof want ? canon.len : 0;
        if (wlen) memcpy(want, canon.p, wlen);
      }
      jj_buf_free(&canon);
      CHECK(jj_schema_type(jj_doc_schema(doc), 0) == JJ_JSON);
      int r = jj_cursor_json(c, 0, &p, &plen, NULL);
      if (r == 1 && plen == wlen && !memcmp(p, want, wlen))
        text_exact++;
      else
        test_check_(0, __FILE__, __LINE__, e->d_name);
    } else {
      scalars++; /* a scalar: its type read back as a value of it */
      CHECK(jj_cursor_is_null(c, 0) >= 0);
    }
    jj_cursor_free(c);
    jj_doc_free(doc);
    conv_free(&o);
  }
  closedir(d);
  CHECK(files >= 90);
  fprintf(stderr,
          "jsontestsuite: %ld y_ files converted, %ld arrays/objects "
          "kept exactly as JSON, %ld scalars\n",
          files, text_exact, scalars);
}

int main(void) {
  RUN(csv_infers_types_per_column);
  RUN(csv_rfc4180_quoting);
  RUN(csv_nulls_and_empty_text);
  RUN(csv_blank_lines);
  RUN(csv_header_names);
  RUN(csv_delimiters);
  RUN(csv_errors_are_located);
  RUN(csv_schema_forces_types);
  RUN(export_json_ndjson_csv);
  RUN(export_errors);
  RUN(round_trip_json_jj_json);
  RUN(round_trip_csv_jj_csv);
  RUN(jsontestsuite_y_files_as_values);
  return test_summary("convert_csv");
}
