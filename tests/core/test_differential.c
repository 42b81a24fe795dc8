/*
** test_differential.c — the reader against cJSON (Debian's libcjson): every
** document the writer produces for a few hundred random tables (gen.h), and
** a list of hand-written valid documents below, and the valid data files of
** the SQL tests (sql/data, not named bad*), is parsed by both, and every
** value the reader returns must agree with what cJSON sees:
**   i  exactly (cJSON keeps only a double: ints beyond 2^53 are SKIPPED)
**   f  bit for bit with cJSON's valuedouble (which is glibc strtod, correctly
**      rounded in the C locale: checked by cjson_rounds_correctly first);
**      NaN/Infinity/-Infinity against cJSON's strings
**   s  byte for byte (cJSON's strings end at U+0000: those are SKIPPED)
**   d t  the text, equal as strings;  x  our base64 of the decoded bytes
**      equal to cJSON's string;  b  true/false;  null;  nested tables row by
**      row, recursively.
** The header too: column names, type letters and nested schemas, row count.
** A skipped value is never counted as passed; the counts and reasons are
** printed at the end.  This program never calls setlocale: C locale.
*/
#include <cjson/cJSON.h>
#include <dirent.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "jalapenojson.h"
#include "gen.h"

#define DIFF_RANDOM_DOCS 400

static long diff_compared;   /* values compared and equal or not */
static long diff_skip_int53; /* ints beyond 2^53 */
static long diff_skip_nul;   /* text with U+0000 */
static long diff_skip_json;  /* JSON cJSON cannot hold (1e400, U+0000, a repeated key) */

/* 1 when JSON text p[0..n) holds what cJSON changes: a number beyond
** doubles (1e400), U+0000 (its strings end there), or a repeated empty key
** (the generator's way of repeating keys: cJSON finds the first). */
static int diff_json_beyond_cjson(const char *p, size_t n) {
  char *z = malloc(n + 1);
  if (!z) exit(2);
  memcpy(z, p, n);
  z[n] = 0;
  const char *e = strstr(z, "\"\":");
  int beyond = strstr(z, "1e400") || strstr(z, "\\u0000") || (e && strstr(e + 3, "\"\":"));
  free(z);
  return beyond;
}
static long diff_docs;       /* documents compared */
static const char *diff_doc_name = "";

/* One compared value: a check of its own (counted in the summary), and on
** failure the document, row and column (file:line alone would not say). */
#define DIFF_EXPECT(cond, ...)                               \
  do {                                                       \
    diff_compared++;                                         \
    if (!test_check_(!!(cond), __FILE__, __LINE__, #cond)) { \
      fprintf(stderr, "     %s: ", diff_doc_name);           \
      fprintf(stderr, __VA_ARGS__);                          \
      fputc('\n', stderr);                                   \
    }                                                        \
  } while (0)
#define DIFF_FAIL(...) DIFF_EXPECT(0, __VA_ARGS__)

/* ---------------------------------------------------------------------- */
/* Hand-written valid documents                                            */
/* ---------------------------------------------------------------------- */

typedef struct diff_case {
  const char *name;
  const char *doc;
} diff_case;

static const diff_case diff_cases[] = {
    {"spec_example",
     "{\"jalapenojson\":1,\"columns\":[\"id\",\"user\",\"city\",\"plan\",\"seats\",\"price\","
     "\"joined\"],\"types\":[\"i\",\"s\",\"s\",\"s\",\"i\",\"f\",\"d\"],\"rows\":[\n"
     "[1,\"u0042\",\"Troms\xc3\xb8\",\"pro\",3,19.99,\"2024-03-01\"],\n"
     "[2,\"u0007\",\"Oslo\",\"free\",1,0.5,\"2023-11-17\"]\n]}"},
    {"every_type",
     "{\"jalapenojson\":1,\"columns\":[\"i\",\"f\",\"s\",\"d\",\"t\",\"b\",\"x\"],"
     "\"types\":[\"i\",\"f\",\"s\",\"d\",\"t\",\"b\",\"x\"],\"rows\":[\n"
     "[-7,2.5,\"h\xc3\xa9\",\"2000-02-29\",\"2024-02-29T23:59:59.123456789+14:00\","
     "true,\"AAEC/w==\"],\n"
     "[null,null,null,null,null,null,null],\n"
     "[0,-0.0,\"\",\"0000-01-01\",\"0000-01-01T00:00:00Z\",false,\"\"]\n]}"},
    {"empty_table", "{\"jalapenojson\":1,\"columns\":[\"a\"],\"types\":[\"i\"],\"rows\":[\n]}"},
    {"empty_table_no_newline",
     "{\"jalapenojson\":1,\"columns\":[\"a\"],\"types\":[\"s\"],\"rows\":[]}"},
    {"whitespace_everywhere",
     " \t\r\n{ \"jalapenojson\" : 1 ,\n \"columns\" : [ \"a\" , \"b\" ] ,\r\n \"types\" :"
     "[ \"i\" ,\t\"s\" ] , \"rows\" : [ [ 1 , \"x\" ] ,\r\n\t[ -2 ,\"y\" ]\n\n ] } \n\t "},
    {"count_meta_unknown_keys",
     "{\"jalapenojson\":1,\"columns\":[\"a\"],\"types\":[\"s\"],\"count\":2,"
     "\"meta\":{\"x\":[1,2.5e3,{\"y\":null,\"z\":\"\\u00e9\"}],\"t\":true},\"zzz\":[[]],"
     "\"rows\":[\n[\"x\"],\n[\"y\"]\n]}"},
    {"string_escapes",
     "{\"jalapenojson\":1,\"columns\":[\"s\"],\"types\":[\"s\"],\"rows\":[\n"
     "[\"\\\"\\\\\\/\\b\\f\\n\\r\\t\"],\n"
     "[\"\\u00e9\\u20AC\\ud834\\uDD1E\\u0041\\u007f\\u0080\"],\n"
     "[\"\\uDBFF\\uDFFF\\uffff\\uFFFE\\u2028\\u2029\\u0001\\u001f\"],\n"
     "[\"a\\u0000b\"],\n"
     "[\"\\\\u0000\"],\n"
     "[\"/*c*/ //x\"]\n]}"},
    {"raw_utf8_text",
     "{\"jalapenojson\":1,\"columns\":[\"s\"],\"types\":[\"s\"],\"rows\":[\n"
     "[\"\xe2\x80\xa8\xe2\x80\xa9\xef\xbf\xbf\xf4\x8f\xbf\xbf\xef\xbb\xbf\x7f\"],\n"
     "[\"\xf0\x9d\x84\x9e\xe2\x82\xac\xc2\xa2$\"],\n"
     "[\"\xe2\x8d\x82\xe3\x88\xb4\xe2\x8d\x82\"]\n]}"},
    {"extreme_ints",
     "{\"jalapenojson\":1,\"columns\":[\"v\"],\"types\":[\"i\"],\"rows\":[\n"
     "[-0],\n[0],\n[9223372036854775807],\n[-9223372036854775808],\n[9007199254740992],\n"
     "[-9007199254740992],\n[9007199254740993],\n[-9007199254740993],\n[123],\n[-1]\n]}"},
    {"hard_rounding_floats",
     "{\"jalapenojson\":1,\"columns\":[\"v\"],\"types\":[\"f\"],\"rows\":[\n"
     "[0.1],\n[9007199254740993],\n[9007199254740995],\n[2.2250738585072011e-308],\n"
     "[2.2250738585072012e-308],\n[4.9406564584124654e-324],\n[2.4703282292062328e-324],\n"
     "[2.4703282292062327e-324],\n[1.7976931348623157e308],\n[1.7976931348623158e308],\n"
     "[1.00000000000000011102230246251565404236316680908203125],\n"
     "[1.00000000000000011102230246251565404236316680908203126],\n"
     "[1.00000000000000011102230246251565404236316680908203124],\n"
     "[1e23],\n[123456789012345678901234567890],\n[0.30000000000000004],\n[3.0e-320],\n"
     "[7.2057594037927933e16]\n]}"},
    {"float_forms",
     "{\"jalapenojson\":1,\"columns\":[\"v\"],\"types\":[\"f\"],\"rows\":[\n"
     "[-0],\n[-0.0],\n[0e0],\n[-0E-0],\n[1E2],\n[1e+2],\n[1e-2],\n[1E22],\n[123.456e78],\n"
     "[-123],\n[1e-400],\n[-1e-400],\n[\"NaN\"],\n[\"Infinity\"],\n[\"-Infinity\"],\n"
     "[20e1],\n[0.000001],\n[1.5e-05],\n[1e+16]\n]}"},
    {"dates",
     "{\"jalapenojson\":1,\"columns\":[\"d\"],\"types\":[\"d\"],\"rows\":[\n"
     "[\"0000-01-01\"],\n[\"9999-12-31\"],\n[\"2000-02-29\"],\n[\"0000-02-29\"],\n"
     "[\"2024-02-29\"],\n[\"1970-01-01\"],\n[\"1969-12-31\"],\n[\"1900-02-28\"],\n"
     "[\"\\u0032024-01-01\"]\n]}"},
    {"timestamps",
     "{\"jalapenojson\":1,\"columns\":[\"t\"],\"types\":[\"t\"],\"rows\":[\n"
     "[\"2024-03-01T12:00:00Z\"],\n[\"2024-03-01T12:00:00.5+05:30\"],\n"
     "[\"9999-12-31T23:59:59.999999999-12:00\"],\n[\"0000-01-01T00:00:00+14:00\"],\n"
     "[\"1970-01-01T00:00:00.000000001Z\"],\n[\"2000-02-29T01:02:03.1234-00:30\"]\n]}"},
    {"bytes",
     "{\"jalapenojson\":1,\"columns\":[\"x\"],\"types\":[\"x\"],\"rows\":[\n"
     "[\"\"],\n[\"AA==\"],\n[\"AAE=\"],\n[\"AAEC\"],\n[\"/+/+\"],\n[\"////\"],\n"
     "[\"aGVsbG8gd29ybGQ=\"],\n[\"\\/w==\"]\n]}"},
    {"bools_and_nulls",
     "{\"jalapenojson\":1,\"columns\":[\"a\",\"b\"],\"types\":[\"b\",\"b\"],\"rows\":[\n"
     "[true,false],\n[null,true],\n[false,null],\n[null,null]\n]}"},
    {"orders_with_line_items",
     "{\"jalapenojson\":1,\"columns\":[\"order\",\"items\"],\"types\":[\"i\",{\"columns\":"
     "[\"sku\",\"qty\"],\"types\":[\"s\",\"i\"]}],\"rows\":[\n"
     "[1,[[\"a\",2],[\"b\",1]]],\n[2,[]],\n[3,null],\n[4,[[null,null]]]\n]}"},
    {"two_level_nesting",
     "{\"jalapenojson\":1,\"columns\":[\"k\",\"n\"],\"types\":[\"s\",{\"columns\":[\"m\"],"
     "\"types\":[{\"columns\":[\"v\",\"w\"],\"types\":[\"f\",\"d\"]}]}],\"rows\":[\n"
     "[\"a\",[[[[1.5,\"2020-02-29\"],[null,null]]],[[]],[null]]],\n"
     "[\"b\", [ [ [ [ -0.0 , \"0001-01-01\" ] ] ] ] ]\n]}"},
    {"nested_with_whitespace",
     "{\"jalapenojson\":1,\"columns\":[\"t\"],\"types\":[ { \"columns\" : [ \"x\" ] , "
     "\"types\" : [ \"x\" ] } ],\"rows\":[\n[ [ [ \"AA==\" ] , [ null ] ] ]\n]}"},
    {"unicode_and_escaped_names",
     "{\"jalapenojson\":1,\"columns\":[\"\\u00e9t\xc3\xa9\",\"a\\\"b\",\"\\\\\","
     "\"\xf0\x9d\x84\x9e\","
     "\"\\n\"],\"types\":[\"i\",\"i\",\"i\",\"i\",\"i\"],\"rows\":[\n[1,2,3,4,5]\n]}"},
    {"crlf_rows",
     "{\"jalapenojson\":1,\"columns\":[\"a\",\"b\"],\"types\":[\"s\",\"f\"],\"rows\":[\r\n"
     "[\"x\",1.25],\r\n[\"y\",-2]\r\n]}\r\n"},
    {"many_columns",
     "{\"jalapenojson\":1,\"columns\":[\"c1\",\"c2\",\"c3\",\"c4\",\"c5\",\"c6\",\"c7\",\"c8\","
     "\"c9\",\"c10\",\"c11\",\"c12\"],\"types\":[\"i\",\"f\",\"s\",\"d\",\"t\",\"b\",\"x\",\"i\","
     "\"f\",\"s\",\"d\",\"t\"],\"rows\":[\n"
     "[1,1,\"1\",\"2001-01-01\",\"2001-01-01T01:01:01Z\",true,\"AQ==\",-1,-1,\"-1\","
     "\"2001-12-31\",\"2001-12-31T23:59:59-23:59\"],\n"
     "[null,null,null,null,null,null,null,null,null,null,null,null]\n]}"},
    {"long_text",
     "{\"jalapenojson\":1,\"columns\":[\"s\"],\"types\":[\"s\"],\"rows\":[\n"
     "[\"Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor "
     "incididunt ut labore et dolore magna aliqua. \\u00c5 \xc3\x85 \\ud83d\\ude00 "
     "\xf0\x9f\x98\x80 Ut enim ad minim veniam, quis nostrud exercitation ullamco\"]\n]}"},
    {"count_zero_empty",
     "{\"jalapenojson\":1,\"columns\":[\"a\"],\"types\":[\"d\"],\"count\":0,\"rows\":[\n]}"},
    {"meta_before_count",
     "{\"jalapenojson\":1,\"columns\":[\"a\"],\"types\":[\"i\"],\"meta\":null,\"count\":3,"
     "\"rows\":[\n[1],\n[2],\n[3]\n]}"},
    {"int_column_big_negative",
     "{\"jalapenojson\":1,\"columns\":[\"a\",\"b\"],\"types\":[\"i\",\"f\"],\"rows\":[\n"
     "[-1234567890123,-1234567890123],\n[4503599627370496,4503599627370497],\n"
     "[9007199254740991,9007199254740991]\n]}"},
    {"subnormal_decimals",
     "{\"jalapenojson\":1,\"columns\":[\"v\"],\"types\":[\"f\"],\"rows\":[\n"
     "[5e-324],\n[-5e-324],\n[1e-310],\n[2.225073858507201e-308],\n[4.4501477170144023e-308],\n"
     "[2.2250738585072014e-308],\n[1.1125369292536007e-308]\n]}"},
    {"string_that_looks_like_json",
     "{\"jalapenojson\":1,\"columns\":[\"s\",\"d\"],\"types\":[\"s\",\"s\"],\"rows\":[\n"
     "[\"[1,2]\",\"{\\\"a\\\":null}\"],\n[\"]}\",\",\\n\"]\n]}"},
    {"single_value_doc",
     "{\"jalapenojson\":1,\"columns\":[\"only\"],\"types\":[\"t\"],"
     "\"rows\":[[\"2024-02-29T00:00:00Z\"]]}"},
    {"bytes_all_padding_forms",
     "{\"jalapenojson\":1,\"columns\":[\"x\",\"y\"],\"types\":[\"x\",\"x\"],\"rows\":[\n"
     "[\"Zg==\",\"Zm8=\"],\n[\"Zm9v\",\"Zm9vYg==\"],\n[\"Zm9vYmE=\",\"Zm9vYmFy\"]\n]}"},
    {"nested_empty_schema_rows",
     "{\"jalapenojson\":1,\"columns\":[\"a\",\"n\"],\"types\":[\"b\",{\"columns\":[\"z\"],"
     "\"types\":[\"s\"]}],\"rows\":[\n[true,[]],\n[false,[[\"\\u0000\"],[\"q\"]]]\n]}"},
};

/* ---------------------------------------------------------------------- */
/* Comparing                                                                */
/* ---------------------------------------------------------------------- */

static void diff_rows(jj_doc *doc, const cJSON *rows, const char *path);

/* 1 when the cJSON string item equals p[0..len) byte for byte. */
static int diff_str_eq(const cJSON *item, const char *p, size_t len) {
  return cJSON_IsString(item) && strlen(item->valuestring) == len &&
         (len == 0 || memcmp(item->valuestring, p, len) == 0);
}

/* Compare the schema with cJSON's "columns" and "types" (recursively). */
static void diff_schema(const jj_schema *s, const cJSON *cols, const cJSON *types,
                        const char *path) {
  size_t n = jj_schema_columns(s), len;
  if (!cJSON_IsArray(cols) || !cJSON_IsArray(types) || (size_t)cJSON_GetArraySize(cols) != n ||
      (size_t)cJSON_GetArraySize(types) != n) {
    DIFF_FAIL("%sheader: %zu columns, cJSON sees another header", path, n);
    return;
  }
  for (size_t k = 0; k < n; k++) {
    const char *name = jj_schema_name(s, k, &len);
    const cJSON *t = cJSON_GetArrayItem(types, (int)k);
    DIFF_EXPECT(diff_str_eq(cJSON_GetArrayItem(cols, (int)k), name, len),
                "%scolumn %zu: name \"%.*s\" differs from cJSON's", path, k, (int)len, name);
    if (jj_schema_type(s, k) == JJ_TABLE) {
      DIFF_EXPECT(cJSON_IsObject(t), "%scolumn %zu: nested table, cJSON sees no object", path, k);
      if (cJSON_IsObject(t))
        diff_schema(jj_schema_table(s, k), cJSON_GetObjectItemCaseSensitive(t, "columns"),
                    cJSON_GetObjectItemCaseSensitive(t, "types"), path);
    } else {
      char letter[2] = {(char)jj_schema_type(s, k), 0};
      DIFF_EXPECT(cJSON_IsString(t) && strcmp(t->valuestring, letter) == 0,
                  "%scolumn %zu: type %s differs from cJSON's", path, k, letter);
    }
  }
}

/* Compare column col of the cursor's current row with cJSON's item v. */
static void diff_value(jj_cursor *c, size_t col, jj_type type, const cJSON *v, const char *path) {
  jj_error err;
  int64_t row = jj_cursor_row(c);
  int null = jj_cursor_is_null(c, col);
  memset(&err, 0, sizeof err);
  if (null || cJSON_IsNull(v)) {
    DIFF_EXPECT(null == cJSON_IsNull(v), "%srow %lld col %zu: reader null=%d, cJSON null=%d", path,
                (long long)row, col, null, cJSON_IsNull(v) ? 1 : 0);
    return;
  }
  switch (type) {
    case JJ_INT: {
      int64_t got = 0;
      if (jj_cursor_int(c, col, &got, &err) != 1) {
        DIFF_FAIL("%srow %lld col %zu: reader error %s", path, (long long)row, col, err.message);
      } else if (got > ((int64_t)1 << 53) || got < -((int64_t)1 << 53)) {
        diff_skip_int53++;
      } else {
        DIFF_EXPECT(cJSON_IsNumber(v) && v->valuedouble == (double)got,
                    "%srow %lld col %zu: reader int %lld, cJSON %.17g", path, (long long)row, col,
                    (long long)got, cJSON_IsNumber(v) ? v->valuedouble : NAN);
      }
      break;
    }
    case JJ_FLOAT: {
      double got = 0;
      if (jj_cursor_double(c, col, &got, &err) != 1) {
        DIFF_FAIL("%srow %lld col %zu: reader error %s", path, (long long)row, col, err.message);
      } else if (isnan(got) || isinf(got)) {
        const char *name = isnan(got) ? "NaN" : got > 0 ? "Infinity" : "-Infinity";
        DIFF_EXPECT(diff_str_eq(v, name, strlen(name)),
                    "%srow %lld col %zu: reader %s, cJSON does not see that string", path,
                    (long long)row, col, name);
      } else {
        DIFF_EXPECT(cJSON_IsNumber(v) && memcmp(&got, &v->valuedouble, sizeof got) == 0,
                    "%srow %lld col %zu: reader double %a, cJSON %a", path, (long long)row, col,
                    got, cJSON_IsNumber(v) ? v->valuedouble : NAN);
      }
      break;
    }
    case JJ_TEXT:
    case JJ_DATE:
    case JJ_TIMESTAMP:
    case JJ_LOCAL_TIMESTAMP: {
      const char *p = NULL;
      size_t len = 0;
      if (jj_cursor_text(c, col, &p, &len, &err) != 1) {
        DIFF_FAIL("%srow %lld col %zu: reader error %s", path, (long long)row, col, err.message);
      } else if (len && memchr(p, 0, len)) {
        diff_skip_nul++;
      } else {
        DIFF_EXPECT(diff_str_eq(v, p, len),
                    "%srow %lld col %zu: reader text \"%.*s\" (%zu bytes), cJSON \"%s\"", path,
                    (long long)row, col, (int)len, p, len,
                    cJSON_IsString(v) ? v->valuestring : "?");
      }
      break;
    }
    case JJ_BOOL: {
      int got = -1;
      if (jj_cursor_bool(c, col, &got, &err) != 1)
        DIFF_FAIL("%srow %lld col %zu: reader error %s", path, (long long)row, col, err.message);
      else
        DIFF_EXPECT(got == 1   ? cJSON_IsTrue(v)
                    : got == 0 ? cJSON_IsFalse(v)
                               : 0,
                    "%srow %lld col %zu: reader bool %d, cJSON type %d", path, (long long)row, col,
                    got, v->type);
      break;
    }
    case JJ_BYTES: {
      const unsigned char *p = NULL;
      size_t len = 0;
      if (jj_cursor_bytes(c, col, &p, &len, &err) != 1) {
        DIFF_FAIL("%srow %lld col %zu: reader error %s", path, (long long)row, col, err.message);
      } else {
        char *enc = malloc(len / 3 * 4 + 8);
        if (!enc) exit(2);
        size_t n = gen_base64(p, len, enc);
        DIFF_EXPECT(diff_str_eq(v, enc, n),
                    "%srow %lld col %zu: reader bytes encode as \"%.*s\", cJSON \"%s\"", path,
                    (long long)row, col, (int)n, enc, cJSON_IsString(v) ? v->valuestring : "?");
        free(enc);
      }
      break;
    }
    case JJ_JSON: { /* cJSON parses the value's text to the value it parsed */
      const char *p = NULL;
      size_t len = 0;
      if (jj_cursor_json(c, col, &p, &len, &err) != 1) {
        DIFF_FAIL("%srow %lld col %zu: reader error %s", path, (long long)row, col, err.message);
      } else {
        cJSON *mine = cJSON_ParseWithLength(p, len);
        int beyond = diff_json_beyond_cjson(p, len);
        diff_skip_json += beyond;
        DIFF_EXPECT(mine && (beyond || cJSON_Compare(mine, v, 1)),
                    "%srow %lld col %zu: reader JSON %.*s differs from cJSON's value", path,
                    (long long)row, col, (int)len, p);
        cJSON_Delete(mine);
      }
      break;
    }
    case JJ_TABLE: {
      jj_doc *sub = NULL;
      if (jj_cursor_table(c, col, &sub, &err) != 1) {
        DIFF_FAIL("%srow %lld col %zu: reader error %s", path, (long long)row, col, err.message);
      } else {
        char subpath[256];
        snprintf(subpath, sizeof subpath, "%srow %lld col %zu: ", path, (long long)row, col);
        diff_rows(sub, v, subpath);
        jj_doc_free(sub);
      }
      break;
    }
  }
}

/* Compare every row of doc with cJSON's array of rows. */
static void diff_rows(jj_doc *doc, const cJSON *rows, const char *path) {
  jj_error err;
  const jj_schema *s = jj_doc_schema(doc);
  size_t cols = jj_schema_columns(s);
  int64_t n = jj_doc_rows(doc, &err);
  DIFF_EXPECT(cJSON_IsArray(rows) && n == cJSON_GetArraySize(rows),
              "%sreader sees %lld rows (%s), cJSON %d", path, (long long)n,
              n < 0 ? err.message : "ok", cJSON_IsArray(rows) ? cJSON_GetArraySize(rows) : -1);
  if (!cJSON_IsArray(rows) || n != cJSON_GetArraySize(rows)) return;
  jj_cursor *c = jj_cursor_new(doc, &err);
  if (!CHECK(c != NULL)) return;
  const cJSON *row = rows->child;
  int rc;
  while ((rc = jj_cursor_next(c, &err)) == 1 && row) {
    if (!cJSON_IsArray(row) || (size_t)cJSON_GetArraySize(row) != cols) {
      DIFF_FAIL("%srow %lld: cJSON sees no array of %zu values", path, (long long)jj_cursor_row(c),
                cols);
    } else {
      const cJSON *v = row->child;
      for (size_t col = 0; col < cols; col++, v = v->next)
        diff_value(c, col, jj_schema_type(s, col), v, path);
    }
    row = row->next;
  }
  if (rc < 0) DIFF_FAIL("%sreader error: %s", path, err.message);
  jj_cursor_free(c);
}

/* Parse doc[0..len) with both and compare everything. */
static void diff_document(const char *name, const char *doc, size_t len) {
  jj_error err;
  diff_doc_name = name;
  cJSON *root = cJSON_ParseWithLength(doc, len);
  jj_doc *d = jj_parse_opts(doc, len, JJ_PARSE_VALIDATE, 0, &err);
  if (!root) DIFF_FAIL("cJSON cannot parse this valid document");
  if (!d) DIFF_FAIL("reader rejects this valid document: %s", err.message);
  if (root && d) {
    const cJSON *version = cJSON_GetObjectItemCaseSensitive(root, "jalapenojson");
    DIFF_EXPECT(cJSON_IsNumber(version) && version->valuedouble == 1,
                "cJSON sees no \"jalapenojson\":1");
    diff_schema(jj_doc_schema(d), cJSON_GetObjectItemCaseSensitive(root, "columns"),
                cJSON_GetObjectItemCaseSensitive(root, "types"), "");
    diff_rows(d, cJSON_GetObjectItemCaseSensitive(root, "rows"), "");
    diff_docs++;
  }
  jj_doc_free(d);
  cJSON_Delete(root);
}

/* ---------------------------------------------------------------------- */
/* Tests                                                                    */
/* ---------------------------------------------------------------------- */

/* The oracle first: cJSON's numbers are glibc strtod, correctly rounded in
** the C locale, including halfway cases, subnormals and the edges (bit
** patterns from Python's float()). */
TEST(cjson_rounds_correctly) {
  static const struct {
    const char *text;
    uint64_t bits;
  } cases[] = {
      {"0.1", 0x3fb999999999999au},
      {"9007199254740993", 0x4340000000000000u},
      {"9007199254740995", 0x4340000000000002u},
      {"2.2250738585072011e-308", 0x000fffffffffffffu},
      {"2.2250738585072012e-308", 0x0010000000000000u},
      {"4.9406564584124654e-324", 0x1u},
      {"2.4703282292062328e-324", 0x1u},
      {"2.4703282292062327e-324", 0x0u},
      {"1.7976931348623158e308", 0x7fefffffffffffffu},
      {"1.00000000000000011102230246251565404236316680908203125", 0x3ff0000000000000u},
      {"1.00000000000000011102230246251565404236316680908203126", 0x3ff0000000000001u},
      {"1e23", 0x44b52d02c7e14af6u},
      {"-0", 0x8000000000000000u},
      {"123456789012345678901234567890", 0x45f8ee90ff6c373eu},
      {"7.2057594037927933e16", 0x4370000000000000u},
  };
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    char json[96];
    snprintf(json, sizeof json, "[%s]", cases[k].text);
    cJSON *root = cJSON_Parse(json);
    uint64_t bits = 0;
    if (root && cJSON_IsNumber(root->child)) memcpy(&bits, &root->child->valuedouble, 8);
    CHECK_EQ_U64(bits, cases[k].bits);
    cJSON_Delete(root);
  }
}

/* Every hand-written valid document. */
TEST(hand_written_documents_agree_with_cjson) {
  for (size_t k = 0; k < sizeof diff_cases / sizeof diff_cases[0]; k++)
    diff_document(diff_cases[k].name, diff_cases[k].doc, strlen(diff_cases[k].doc));
}

/* The valid data files of the SQL tests: sql/data/NAME.jj (also .gz, .br),
** named by expectation: those whose name starts with "bad" are invalid and
** left out.  Run from the repository root (tests/run.sh does). */
static long diff_data_files;
TEST(sql_data_documents_agree_with_cjson) {
  DIR *dp = opendir("sql/data");
  struct dirent *de;
  if (!dp) return;
  while ((de = readdir(dp)) != NULL) {
    const char *n = de->d_name;
    size_t len = strlen(n);
    int jj = (len > 3 && !strcmp(n + len - 3, ".jj")) ||
             (len > 6 && !strcmp(n + len - 6, ".jj.gz")) ||
             (len > 6 && !strcmp(n + len - 6, ".jj.br"));
    if (!jj || !strncmp(n, "bad", 3)) continue;
    char path[512];
    jj_file f;
    jj_error err;
    snprintf(path, sizeof path, "sql/data/%s", n);
    diff_doc_name = path;
    if (jj_file_open(path, 0, &f, &err) != JJ_OK) {
      DIFF_FAIL("cannot open: %s", err.message);
      continue;
    }
    diff_document(path, f.data, f.len);
    diff_data_files++;
    jj_file_close(&f);
  }
  closedir(dp);
}

/* Every document the writer produces for DIFF_RANDOM_DOCS random tables. */
TEST(writer_documents_agree_with_cjson) {
  uint64_t seed = gen_seed_from_env(20240301) ^ 0xd1ffu;
  char name[64];
  for (long k = 0; k < DIFF_RANDOM_DOCS; k++) {
    gen_rng r;
    jj_error err;
    char *doc = NULL;
    size_t len = 0;
    gen_seed(&r, seed ^ ((uint64_t)k * 0x9e3779b97f4a7c15u));
    jj_schema *s = gen_schema(&r, 0);
    if (!CHECK(s != NULL)) continue;
    gen_table *t = gen_table_new(&r, s, (int64_t)gen_below(&r, 41), 0);
    snprintf(name, sizeof name, "random document %ld", k);
    diff_doc_name = name;
    if (gen_write(t, NULL, NULL, &doc, &len, &err) == JJ_OK)
      diff_document(name, doc, len);
    else
      DIFF_FAIL("the writer failed: %s", err.message);
    jj_free(doc);
    gen_table_free(t);
    jj_schema_free(s);
  }
}

int main(void) {
  printf("differential: seed %llu (set JJ_SEED to reproduce)\n",
         (unsigned long long)gen_seed_from_env(20240301));
  RUN(cjson_rounds_correctly);
  RUN(hand_written_documents_agree_with_cjson);
  RUN(sql_data_documents_agree_with_cjson);
  RUN(writer_documents_agree_with_cjson);
  printf(
      "differential: compared %ld values in %ld documents (%zu hand-written, %ld from "
      "sql/data, %d from the writer)\n",
      diff_compared, diff_docs, sizeof diff_cases / sizeof diff_cases[0], diff_data_files,
      DIFF_RANDOM_DOCS);
  printf(
      "differential: skipped %ld values: %ld ints beyond 2^53 (cJSON keeps only a double), "
      "%ld strings with U+0000 (cJSON strings end there), %ld JSON values beyond cJSON "
      "(1e400, U+0000, a repeated key; still parsed)\n",
      diff_skip_int53 + diff_skip_nul + diff_skip_json, diff_skip_int53, diff_skip_nul,
      diff_skip_json);
  return test_summary("differential");
}
