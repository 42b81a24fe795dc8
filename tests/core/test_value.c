/*
** test_value.c — jj_cursor_value: every type read into a jj_value gives
** what the per-type accessor gives; nulls; a bad value's error is the
** accessor's error to the letter (every field); the usage errors; nested
** tables (owned by the caller, readable, their errors carry the path);
** and what the pointers borrow.
*/
#include <math.h>

#include "test_reader.h"

/* Every type; the same rows as test_cursor.c's all_canonical. */
static const char all[] =
    "{\"jalapenojson\":1,\"columns\":[\"id\",\"name\",\"price\",\"day\",\"at\",\"ok\","
    "\"blob\",\"items\"],\"types\":[\"i\",\"s\",\"f\",\"d\",\"t\",\"b\",\"x\","
    "{\"columns\":[\"sku\",\"qty\"],\"types\":[\"s\",\"i\"]}],\"rows\":[\n"
    "[1,\"caf\xc3\xa9\",19.99,\"2024-03-01\",\"2024-03-01T10:30:00.25+05:30\",true,"
    "\"AAEC/w==\",[[\"a-1\",2],[\"b\\\"2\",1]]],\n"
    "[2,null,\"NaN\",null,null,false,\"\",[]],\n"
    "[-3,\"tab\\there\",-0.0,\"0000-01-01\",\"1970-01-01T00:00:00Z\",null,null,null]\n"
    "]}";

/* jj_cursor_value on column col must agree with the accessor of its type
** on the result, the value and (on error) the whole error. */
static void agrees(jj_cursor *c, size_t col, int line) {
  jj_value v;
  jj_error ev, ea;
  memset(&v, 0xA5, sizeof v);
  int rv = jj_cursor_value(c, col, &v, &ev);
  int ra;
  jj_type t = jj_schema_type(jj_doc_schema(jj_cursor_doc(c)), col);
  const char *p;
  size_t n;
  test_check_(rv < 0 || v.type == t, __FILE__, line, "type");
  test_check_(rv < 0 || v.is_null == (rv == 0), __FILE__, line, "is_null");
  switch (t) {
    case JJ_INT: {
      int64_t i = 0;
      ra = jj_cursor_int(c, col, &i, &ea);
      test_check_(ra != 1 || v.u.i == i, __FILE__, line, "int");
      break;
    }
    case JJ_FLOAT: {
      double f = 0;
      ra = jj_cursor_double(c, col, &f, &ea);
      test_check_(ra != 1 || memcmp(&v.u.f, &f, sizeof f) == 0, __FILE__, line, "double");
      break;
    }
    case JJ_TEXT:
      ra = jj_cursor_text(c, col, &p, &n, &ea);
      test_check_(ra != 1 || (v.u.text.p == p && v.u.text.len == n), __FILE__, line, "text");
      break;
    case JJ_DATE: {
      int32_t days = 0;
      ra = jj_cursor_date(c, col, &days, &ea);
      test_check_(ra != 1 || v.u.date.days == days, __FILE__, line, "days");
      jj_error et;
      int rt = jj_cursor_text(c, col, &p, &n, &et);
      test_check_(rt == ra, __FILE__, line, "date as text");
      test_check_(rt != 1 || (v.u.date.p == p && v.u.date.len == n), __FILE__, line,
                  "date text");
      if (rt < 0) check_error_(&et, ea.code, ea.row, ea.column, ea.offset, ea.message, line);
      break;
    }
    case JJ_TIMESTAMP:
    case JJ_LOCAL_TIMESTAMP: {
      jj_timestamp ts = {0, 0, 0, 0};
      ra = jj_cursor_timestamp(c, col, &ts, &ea);
      test_check_(ra != 1 || (v.u.timestamp.ts.seconds == ts.seconds &&
                              v.u.timestamp.ts.nanos == ts.nanos &&
                              v.u.timestamp.ts.zone_minutes == ts.zone_minutes &&
                              v.u.timestamp.ts.digits == ts.digits),
                  __FILE__, line, "timestamp numbers");
      jj_error et;
      int rt = jj_cursor_text(c, col, &p, &n, &et);
      test_check_(rt == ra, __FILE__, line, "timestamp as text");
      test_check_(rt != 1 || (v.u.timestamp.p == p && v.u.timestamp.len == n), __FILE__,
                  line, "timestamp text");
      if (rt < 0) check_error_(&et, ea.code, ea.row, ea.column, ea.offset, ea.message, line);
      break;
    }
    case JJ_BOOL: {
      int b = 7;
      ra = jj_cursor_bool(c, col, &b, &ea);
      test_check_(ra != 1 || v.u.b == b, __FILE__, line, "bool");
      break;
    }
    case JJ_BYTES: {
      const unsigned char *bp = NULL;
      ra = jj_cursor_bytes(c, col, &bp, &n, &ea);
      test_check_(ra != 1 || (v.u.bytes.p == bp && v.u.bytes.len == n), __FILE__, line,
                  "bytes");
      break;
    }
    case JJ_TABLE: {
      jj_doc *sub = NULL;
      ra = jj_cursor_table(c, col, &sub, &ea);
      if (ra == 1) {
        size_t a, b;
        const char *pa = jj_doc_bytes(sub, &a), *pb = jj_doc_bytes(v.u.table, &b);
        test_check_(pa == pb && a == b, __FILE__, line, "table bytes");
        jj_doc_free(sub);
      }
      if (rv == 1) jj_doc_free(v.u.table);
      break;
    }
    default:
      ra = -2;
      break;
  }
  test_check_(rv == ra, __FILE__, line, "same result");
  if (rv != ra) fprintf(stderr, "     jj_cursor_value %d, accessor %d\n", rv, ra);
  if (rv < 0 && ra < 0)
    check_error_(&ev, ea.code, ea.row, ea.column, ea.offset, ea.message, line);
}
#define AGREES(c, col) agrees((c), (col), __LINE__)

TEST(every_type_reads_as_its_accessor_reads_it) {
  jj_error e;
  jj_doc *d = jj_parse(all, strlen(all), &e);
  jj_cursor *c = jj_cursor_new(d, &e);
  int rows = 0;
  while (jj_cursor_next(c, &e) == 1) {
    rows++;
    for (size_t col = 0; col < 8; col++) AGREES(c, col);
  }
  CHECK_EQ_INT(rows, 3);
  jj_cursor_free(c);
  jj_doc_free(d);
}

TEST(the_values_of_row_one) {
  jj_error e;
  jj_value v;
  jj_doc *d = jj_parse(all, strlen(all), &e);
  jj_cursor *c = jj_cursor_new(d, &e);
  CHECK_EQ_INT(jj_cursor_next(c, &e), 1);
  CHECK_EQ_INT(jj_cursor_value(c, 0, &v, &e), 1);
  CHECK_EQ_INT(v.type, JJ_INT);
  CHECK_EQ_INT(v.is_null, 0);
  CHECK_EQ_INT(v.u.i, 1);
  CHECK_EQ_INT(jj_cursor_value(c, 1, &v, &e), 1);
  CHECK_EQ_MEM(v.u.text.p, v.u.text.len, "caf\xc3\xa9", 5);
  CHECK_EQ_INT(jj_cursor_value(c, 2, &v, &e), 1);
  CHECK(v.type == JJ_FLOAT && v.u.f == 19.99);
  CHECK_EQ_INT(jj_cursor_value(c, 3, &v, &e), 1);
  CHECK_EQ_INT(v.type, JJ_DATE);
  CHECK_EQ_MEM(v.u.date.p, v.u.date.len, "2024-03-01", 10);
  CHECK_EQ_INT(v.u.date.days, 19783);
  CHECK(v.u.text.p == v.u.date.p && v.u.text.len == 10); /* the shared start */
  CHECK_EQ_INT(jj_cursor_value(c, 4, &v, &e), 1);
  CHECK_EQ_MEM(v.u.timestamp.p, v.u.timestamp.len, "2024-03-01T10:30:00.25+05:30", 28);
  CHECK_EQ_INT(v.u.timestamp.ts.seconds, 1709269200);
  CHECK_EQ_INT(v.u.timestamp.ts.nanos, 250000000);
  CHECK_EQ_INT(v.u.timestamp.ts.zone_minutes, 330);
  CHECK_EQ_INT(v.u.timestamp.ts.digits, 2);
  CHECK_EQ_MEM(v.u.text.p, v.u.text.len, "2024-03-01T10:30:00.25+05:30", 28);
  CHECK_EQ_INT(jj_cursor_value(c, 5, &v, &e), 1);
  CHECK(v.type == JJ_BOOL && v.u.b == 1);
  CHECK_EQ_INT(jj_cursor_value(c, 6, &v, &e), 1);
  CHECK_EQ_MEM(v.u.bytes.p, v.u.bytes.len, "\x00\x01\x02\xff", 4);
  CHECK_EQ_INT(jj_cursor_value(c, 7, &v, &e), 1);
  CHECK_EQ_INT(v.type, JJ_TABLE);
  CHECK_EQ_INT(jj_doc_rows(v.u.table, &e), 2);
  jj_doc_free(v.u.table);
  /* row 2: NaN, false and an empty table; row 3: the nulls */
  CHECK_EQ_INT(jj_cursor_next(c, &e), 1);
  CHECK_EQ_INT(jj_cursor_value(c, 2, &v, &e), 1);
  CHECK(isnan(v.u.f));
  CHECK_EQ_INT(jj_cursor_value(c, 5, &v, &e), 1);
  CHECK_EQ_INT(v.u.b, 0);
  CHECK_EQ_INT(jj_cursor_value(c, 6, &v, &e), 1);
  CHECK_EQ_INT(v.u.bytes.len, 0);
  CHECK_EQ_INT(jj_cursor_value(c, 7, &v, &e), 1);
  CHECK_EQ_INT(jj_doc_rows(v.u.table, &e), 0);
  jj_doc_free(v.u.table);
  CHECK_EQ_INT(jj_cursor_value(c, 1, &v, &e), 0);
  CHECK_EQ_INT(v.type, JJ_TEXT);
  CHECK_EQ_INT(v.is_null, 1);
  CHECK_EQ_INT(jj_cursor_next(c, &e), 1);
  static const jj_type null_types[] = {JJ_BOOL, JJ_BYTES, JJ_TABLE};
  for (size_t col = 5; col < 8; col++) {
    memset(&v, 0, sizeof v);
    CHECK_EQ_INT(jj_cursor_value(c, col, &v, &e), 0);
    CHECK_EQ_INT(v.type, null_types[col - 5]);
    CHECK_EQ_INT(v.is_null, 1);
  }
  CHECK_EQ_INT(jj_cursor_value(c, 1, &v, &e), 1); /* decoded: "tab\there" */
  CHECK_EQ_MEM(v.u.text.p, v.u.text.len, "tab\there", 8);
  CHECK_EQ_INT(jj_cursor_value(c, 2, &v, &e), 1);
  CHECK(v.u.f == 0 && signbit(v.u.f));
  jj_cursor_free(c);
  jj_doc_free(d);
}

/* A one-column document of type `type` with one row holding `value`. */
static void bad_value_agrees(const char *type, const char *value, jj_code code, int line) {
  char doc[256];
  int n = snprintf(doc, sizeof doc, ONE("%s") "[%s]\n]}", type, value);
  jj_error e;
  jj_doc *d = jj_parse(doc, (size_t)n, &e);
  jj_cursor *c = d ? jj_cursor_new(d, &e) : NULL;
  if (!test_check_(c && jj_cursor_next(c, &e) == 1, __FILE__, line, "row")) {
    jj_cursor_free(c);
    jj_doc_free(d);
    return;
  }
  jj_value v;
  jj_error ev;
  test_check_(jj_cursor_value(c, 0, &v, &ev) == -1, __FILE__, line, "refused");
  test_check_(ev.code == code, __FILE__, line, "code");
  if (ev.code != code) fprintf(stderr, "     %s: %s\n", value, ev.message);
  agrees(c, 0, line);
  jj_cursor_free(c);
  jj_doc_free(d);
}
#define BAD(type, value, code) bad_value_agrees((type), (value), (code), __LINE__)

TEST(a_bad_value_gives_the_accessor_s_error) {
  BAD("i", "1.5", JJ_ERR_RANGE);
  BAD("i", "99999999999999999999", JJ_ERR_RANGE);
  BAD("i", "01", JJ_ERR_SYNTAX);
  BAD("i", "\"1\"", JJ_ERR_TYPE);
  BAD("i", "true", JJ_ERR_TYPE);
  BAD("f", "1e999", JJ_ERR_RANGE);
  BAD("f", "\"nan\"", JJ_ERR_TYPE);
  BAD("f", "[1]", JJ_ERR_TYPE);
  BAD("f", "1.", JJ_ERR_SYNTAX);
  BAD("s", "\"\xff\"", JJ_ERR_UTF8);
  BAD("s", "\"\\ud800\"", JJ_ERR_UTF8);
  BAD("s", "\"\\x\"", JJ_ERR_SYNTAX);
  BAD("s", "1", JJ_ERR_TYPE);
  BAD("d", "\"2023-02-29\"", JJ_ERR_DATE);
  BAD("d", "\"2024-3-1\"", JJ_ERR_DATE);
  BAD("d", "\"2024-01-0\\u0031x\"", JJ_ERR_DATE);
  BAD("d", "20240301", JJ_ERR_TYPE);
  BAD("t", "\"2024-01-01T24:00:00Z\"", JJ_ERR_TIMESTAMP);
  BAD("t", "\"2024-01-01\"", JJ_ERR_TIMESTAMP);
  BAD("t", "false", JJ_ERR_TYPE);
  BAD("b", "1", JJ_ERR_TYPE);
  BAD("b", "\"true\"", JJ_ERR_TYPE);
  BAD("x", "\"abc\"", JJ_ERR_BASE64);
  BAD("x", "\"AB==\"", JJ_ERR_BASE64);
  BAD("x", "[]", JJ_ERR_TYPE);
}

TEST(a_bad_nested_value_gives_the_accessor_s_error) {
  static const char doc[] =
      "{\"jalapenojson\":1,\"columns\":[\"t\"],\"types\":[{\"columns\":[\"a\"],"
      "\"types\":[\"i\"]}],\"rows\":[\n"
      "[{\"a\":1}],\n"
      "[[[1.5]]]\n"
      "]}";
  jj_error e, ev;
  jj_value v;
  jj_doc *d = jj_parse(doc, strlen(doc), &e);
  jj_cursor *c = jj_cursor_new(d, &e);
  CHECK_EQ_INT(jj_cursor_next(c, &e), 1);
  CHECK_EQ_INT(jj_cursor_value(c, 0, &v, &ev), -1);
  CHECK_EQ_INT(ev.code, JJ_ERR_TYPE);
  AGREES(c, 0);
  /* row 2's table is a document; its bad integer shows when it is read,
  ** with the path to it */
  CHECK_EQ_INT(jj_cursor_next(c, &e), 1);
  CHECK_EQ_INT(jj_cursor_value(c, 0, &v, &ev), 1);
  jj_cursor *ic = jj_cursor_new(v.u.table, &e);
  CHECK_EQ_INT(jj_cursor_next(ic, &e), 1);
  jj_value iv;
  CHECK_EQ_INT(jj_cursor_value(ic, 0, &iv, &ev), -1);
  CHECK_ERROR(&ev, JJ_ERR_RANGE, 2, 0, 99,
              "row 2, column \"t\", row 1, column \"a\", byte 99: 1.5 is not an integer");
  AGREES(ic, 0);
  jj_cursor_free(ic);
  jj_doc_free(v.u.table);
  jj_cursor_free(c);
  jj_doc_free(d);
}

TEST(a_call_that_cannot_read_names_jj_cursor_value) {
  jj_error e;
  jj_value v;
  jj_doc *d = jj_parse(all, strlen(all), &e);
  jj_cursor *c = jj_cursor_new(d, &e);
  CHECK_EQ_INT(jj_cursor_value(NULL, 0, &v, &e), -1);
  CHECK_ERROR(&e, JJ_ERR_USAGE, 0, -1, JJ_NO_OFFSET, "jj_cursor_value: no cursor");
  CHECK_EQ_INT(jj_cursor_value(c, 0, &v, &e), -1);
  CHECK_ERROR(&e, JJ_ERR_USAGE, 0, -1, JJ_NO_OFFSET,
              "jj_cursor_value: the cursor is not on a row (call jj_cursor_next first)");
  CHECK_EQ_INT(jj_cursor_next(c, &e), 1);
  CHECK_EQ_INT(jj_cursor_value(c, 8, &v, &e), -1);
  CHECK_ERROR(&e, JJ_ERR_USAGE, 1, -1, JJ_NO_OFFSET,
              "row 1: jj_cursor_value: column index 8 is out of range (8 columns)");
  CHECK_EQ_INT(jj_cursor_value(c, 0, &v, NULL), 1); /* err may be NULL */
  CHECK_EQ_INT(jj_cursor_value(c, 8, &v, NULL), -1);
  while (jj_cursor_next(c, &e) == 1) continue;
  CHECK_EQ_INT(jj_cursor_value(c, 0, &v, &e), -1);
  CHECK_ERROR(&e, JJ_ERR_USAGE, 0, -1, JJ_NO_OFFSET,
              "jj_cursor_value: the cursor is not on a row (it is past the last row)");
  jj_cursor_free(c);
  jj_doc_free(d);
}

/* Decoded text and bytes stay valid while the cursor stays on the row,
** whatever else is read; a nested table outlives the cursor's moves. */
TEST(what_a_value_borrows) {
  static const char doc[] =
      "{\"jalapenojson\":1,\"columns\":[\"s\",\"x\",\"t\"],\"types\":[\"s\",\"x\","
      "{\"columns\":[\"a\"],\"types\":[\"s\"]}],\"rows\":[\n"
      "[\"a\\nb\",\"AAEC\",[[\"in\\u0041\"]]],\n"
      "[\"c\\nd\",\"AwQF\",null]\n"
      "]}";
  jj_error e;
  jj_value s, x, t, again;
  jj_doc *d = jj_parse(doc, strlen(doc), &e);
  jj_cursor *c = jj_cursor_new(d, &e);
  CHECK_EQ_INT(jj_cursor_next(c, &e), 1);
  CHECK_EQ_INT(jj_cursor_value(c, 0, &s, &e), 1);
  CHECK_EQ_INT(jj_cursor_value(c, 1, &x, &e), 1);
  CHECK_EQ_INT(jj_cursor_value(c, 2, &t, &e), 1);
  CHECK_EQ_INT(jj_cursor_value(c, 0, &again, &e), 1);
  CHECK(again.u.text.p == s.u.text.p); /* cached for the row */
  CHECK_EQ_MEM(s.u.text.p, s.u.text.len, "a\nb", 3);
  CHECK_EQ_MEM(x.u.bytes.p, x.u.bytes.len, "\x00\x01\x02", 3);
  CHECK_EQ_INT(jj_cursor_next(c, &e), 1);
  jj_cursor *ic = jj_cursor_new(t.u.table, &e);
  jj_value in;
  CHECK_EQ_INT(jj_cursor_next(ic, &e), 1);
  CHECK_EQ_INT(jj_cursor_value(ic, 0, &in, &e), 1);
  CHECK_EQ_MEM(in.u.text.p, in.u.text.len, "inA", 3);
  jj_cursor_free(ic);
  jj_doc_free(t.u.table);
  jj_cursor_free(c);
  jj_doc_free(d);
}

int main(void) {
  RUN(every_type_reads_as_its_accessor_reads_it);
  RUN(the_values_of_row_one);
  RUN(a_bad_value_gives_the_accessor_s_error);
  RUN(a_bad_nested_value_gives_the_accessor_s_error);
  RUN(a_call_that_cannot_read_names_jj_cursor_value);
  RUN(what_a_value_borrows);
  return test_summary("value");
}
