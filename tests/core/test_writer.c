/*
** test_writer.c — jj_writer writes exactly the canonical bytes, checks
** every value, names the place of every error, and round-trips through the
** reader bit for bit; jj_writer_copy and jj_cursor_object (object.c) too.
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "test.h"

/* ---------------------------------------------------------------------- */
/* Helpers                                                                 */
/* ---------------------------------------------------------------------- */

/* A schema from "name:type" pairs ("id:i", "when:d"); a nested table is
** added with add_table.  Freed with jj_schema_free. */
static jj_schema *schema_of(const char *const *cols, size_t n) {
  jj_schema *s = jj_schema_new();
  for (size_t i = 0; i < n; i++) {
    const char *colon = strchr(cols[i], ':');
    CHECK_EQ_INT(jj_schema_add(s, cols[i], (size_t)(colon - cols[i]),
                               (jj_type)colon[1], NULL, NULL),
                 JJ_OK);
  }
  return s;
}

static void add_table(jj_schema *s, const char *name, jj_schema *t) {
  CHECK_EQ_INT(jj_schema_add(s, name, strlen(name), JJ_TABLE, t, NULL), JJ_OK);
}

/* Finish a buffer-mode writer and compare its document with `want`. */
static void check_doc(jj_writer *w, const char *want) {
  size_t len = 0;
  CHECK_EQ_INT(jj_writer_finish(w), JJ_OK);
  char *got = jj_writer_take(w, &len);
  CHECK(got != NULL);
  CHECK_EQ_MEM(got, len, want, strlen(want));
  CHECK(got && got[len] == '\0');
  jj_free(got);
}

/* Check the writer's error: code, message, row, column, no offset. */
static void check_err(const jj_writer *w, jj_code code, int64_t row, int col,
                      const char *msg) {
  const jj_error *e = jj_writer_error(w);
  CHECK_EQ_INT(e->code, code);
  CHECK_EQ_STR(e->message, msg);
  CHECK_EQ_INT(e->row, row);
  CHECK_EQ_INT(e->column, col);
  CHECK_EQ_U64(e->offset, JJ_NO_OFFSET);
}

/* A jj_sink into a jj_buf that records the largest chunk. */
typedef struct collect {
  jj_buf b;
  int calls;
  int fail_on; /* fail on this call (1-based), 0: never */
  size_t largest;
} collect;
static int collect_sink(void *ctx, const char *p, size_t len) {
  collect *c = ctx;
  if (++c->calls == c->fail_on) return 1;
  if (len > c->largest) c->largest = len;
  return jj_buf_append(&c->b, p, len);
}

#define H "{\"jalapenojson\":1,"

/* ---------------------------------------------------------------------- */
/* Canonical bytes                                                         */
/* ---------------------------------------------------------------------- */

TEST(writer_writes_every_scalar_type_canonically) {
  static const char *const cols[] = {"id:i", "price:f", "user:s", "joined:d",
                                     "seen:t", "ok:b", "blob:x"};
  jj_schema *s = schema_of(cols, 7);
  jj_writer *w = jj_writer_new(s, NULL, NULL, NULL);
  CHECK_EQ_INT(jj_writer_int(w, 1), JJ_OK);
  CHECK_EQ_INT(jj_writer_double(w, 19.99), JJ_OK);
  CHECK_EQ_INT(jj_writer_text(w, "u0042", 5), JJ_OK);
  CHECK_EQ_INT(jj_writer_date(w, "2024-03-01", 10), JJ_OK);
  CHECK_EQ_INT(jj_writer_timestamp(w, "2024-03-01T12:30:00.25+05:30", 28),
               JJ_OK);
  CHECK_EQ_INT(jj_writer_bool(w, 1), JJ_OK);
  CHECK_EQ_INT(jj_writer_bytes(w, "foo", 3), JJ_OK);
  CHECK_EQ_INT(jj_writer_end_row(w), JJ_OK);
  for (int i = 0; i < 7; i++) CHECK_EQ_INT(jj_writer_null(w), JJ_OK);
  CHECK_EQ_INT(jj_writer_end_row(w), JJ_OK);
  jj_timestamp ts = {0, 500000000, -90, 3};
  CHECK_EQ_INT(jj_writer_int(w, INT64_MIN), JJ_OK);
  CHECK_EQ_INT(jj_writer_double(w, 1.0), JJ_OK);
  CHECK_EQ_INT(jj_writer_text(w, "", 0), JJ_OK);
  CHECK_EQ_INT(jj_writer_date_days(w, -719528), JJ_OK);
  CHECK_EQ_INT(jj_writer_timestamp_value(w, &ts), JJ_OK);
  CHECK_EQ_INT(jj_writer_bool(w, 0), JJ_OK);
  CHECK_EQ_INT(jj_writer_bytes(w, "\xff\x00", 2), JJ_OK);
  CHECK_EQ_INT(jj_writer_end_row(w), JJ_OK);
  CHECK_EQ_INT(jj_writer_rows(w), 3);
  check_doc(w,
            H "\"columns\":[\"id\",\"price\",\"user\",\"joined\",\"seen\","
              "\"ok\",\"blob\"],\"types\":[\"i\",\"f\",\"s\",\"d\",\"t\","
              "\"b\",\"x\"],\"rows\":[\n"
              "[1,19.99,\"u0042\",\"2024-03-01\","
              "\"2024-03-01T12:30:00.25+05:30\",true,\"Zm9v\"],\n"
              "[null,null,null,null,null,null,null],\n"
              "[-9223372036854775808,1.0,\"\",\"0000-01-01\","
              "\"1969-12-31T22:30:00.500-01:30\",false,\"/wA=\"]\n]}");
  jj_writer_free(w);
  jj_schema_free(s);
}

TEST(writer_writes_nested_tables_inline) {
  static const char *const outer[] = {"id:i"};
  static const char *const inner[] = {"sku:s", "qty:i"};
  jj_schema *s = schema_of(outer, 1);
  add_table(s, "items", schema_of(inner, 2));
  jj_writer *w = jj_writer_new(s, NULL, NULL, NULL);
  jj_writer_int(w, 1);
  CHECK_EQ_INT(jj_writer_begin_table(w), JJ_OK);
  jj_writer_text(w, "a", 1);
  jj_writer_int(w, 2);
  CHECK_EQ_INT(jj_writer_end_row(w), JJ_OK);
  jj_writer_text(w, "b", 1);
  jj_writer_null(w);
  CHECK_EQ_INT(jj_writer_end_row(w), JJ_OK);
  CHECK_EQ_INT(jj_writer_end_table(w), JJ_OK);
  CHECK_EQ_INT(jj_writer_end_row(w), JJ_OK);
  jj_writer_int(w, 2);
  jj_writer_begin_table(w);
  jj_writer_end_table(w); /* an empty nested table */
  jj_writer_end_row(w);
  jj_writer_int(w, 3);
  jj_writer_null(w);
  CHECK_EQ_INT(jj_writer_end_row(w), JJ_OK);
  CHECK_EQ_INT(jj_writer_rows(w), 3);
  check_doc(w, H "\"columns\":[\"id\",\"items\"],\"types\":[\"i\",{\"columns\":"
                 "[\"sku\",\"qty\"],\"types\":[\"s\",\"i\"]}],\"rows\":[\n"
                 "[1,[[\"a\",2],[\"b\",null]]],\n"
                 "[2,[]],\n"
                 "[3,null]\n]}");
  jj_writer_free(w);
  jj_schema_free(s);
}

TEST(writer_nests_tables_two_levels_deep) {
  static const char *const a[] = {"k:i"};
  static const char *const b[] = {"n:s"};
  static const char *const c[] = {"v:b"};
  jj_schema *inner = schema_of(b, 1);
  add_table(inner, "deep", schema_of(c, 1));
  jj_schema *s = schema_of(a, 1);
  add_table(s, "mid", inner);
  jj_writer *w = jj_writer_new(s, NULL, NULL, NULL);
  jj_writer_int(w, 7);
  jj_writer_begin_table(w);
  jj_writer_text(w, "x", 1);
  jj_writer_begin_table(w);
  jj_writer_bool(w, 1);
  jj_writer_end_row(w);
  jj_writer_bool(w, 0);
  jj_writer_end_row(w);
  jj_writer_end_table(w);
  jj_writer_end_row(w);
  jj_writer_end_table(w);
  jj_writer_end_row(w);
  check_doc(w, H "\"columns\":[\"k\",\"mid\"],\"types\":[\"i\",{\"columns\":"
                 "[\"n\",\"deep\"],\"types\":[\"s\",{\"columns\":[\"v\"],"
                 "\"types\":[\"b\"]}]}],\"rows\":[\n"
                 "[7,[[\"x\",[[true],[false]]]]]\n]}");
  jj_writer_free(w);
  jj_schema_free(s);
}

TEST(writer_writes_empty_document_and_meta) {
  static const char *const cols[] = {"a:i"};
  jj_schema *s = schema_of(cols, 1);
  jj_writer *w = jj_writer_new(s, NULL, NULL, NULL);
  check_doc(w, H "\"columns\":[\"a\"],\"types\":[\"i\"],\"rows\":[\n]}");
  CHECK_EQ_INT(jj_writer_rows(w), 0);
  jj_writer_free(w);

  w = jj_writer_new(s, NULL, NULL, NULL);
  const char *meta = " \n{\"by\": \"x\", \"n\": [1, 2.5]} \t";
  CHECK_EQ_INT(jj_writer_set_meta(w, meta, strlen(meta)), JJ_OK);
  jj_writer_int(w, 5);
  jj_writer_end_row(w);
  check_doc(w, H "\"columns\":[\"a\"],\"types\":[\"i\"],"
                 "\"meta\":{\"by\": \"x\", \"n\": [1, 2.5]},\"rows\":[\n"
                 "[5]\n]}");
  jj_writer_free(w);

  w = jj_writer_new(s, NULL, NULL, NULL);
  CHECK_EQ_INT(jj_writer_set_meta(w, "\"first\"", 7), JJ_OK);
  CHECK_EQ_INT(jj_writer_set_meta(w, "null", 4), JJ_OK); /* replaces */
  check_doc(w, H "\"columns\":[\"a\"],\"types\":[\"i\"],\"meta\":null,"
                 "\"rows\":[\n]}");
  jj_writer_free(w);
  jj_schema_free(s);
}

TEST(writer_escapes_only_quote_backslash_and_controls) {
  static const char *const cols[] = {"t:s"};
  jj_schema *s = schema_of(cols, 1);
  jj_writer *w = jj_writer_new(s, NULL, NULL, NULL);
  char in[40];
  for (int i = 0; i < 32; i++) in[i] = (char)i;
  memcpy(in + 32, "\"\\/\x7f", 4);
  CHECK_EQ_INT(jj_writer_text(w, in, 36), JJ_OK);
  jj_writer_end_row(w);
  /* astral (U+1F600), BMP (U+00E9, U+2028) and DEL stay raw */
  const char *raw = "\xf0\x9f\x98\x80 caf\xc3\xa9 \xe2\x80\xa8";
  CHECK_EQ_INT(jj_writer_text(w, raw, strlen(raw)), JJ_OK);
  jj_writer_end_row(w);
  check_doc(w,
            H "\"columns\":[\"t\"],\"types\":[\"s\"],\"rows\":[\n"
              "[\"\\u0000\\u0001\\u0002\\u0003\\u0004\\u0005\\u0006\\u0007"
              "\\b\\t\\n\\u000b\\f\\r\\u000e\\u000f\\u0010\\u0011\\u0012"
              "\\u0013\\u0014\\u0015\\u0016\\u0017\\u0018\\u0019\\u001a"
              "\\u001b\\u001c\\u001d\\u001e\\u001f\\\"\\\\/\x7f\"],\n"
              "[\"\xf0\x9f\x98\x80 caf\xc3\xa9 \xe2\x80\xa8\"]\n]}");
  jj_writer_free(w);
  jj_schema_free(s);

  /* column names are escaped the same way */
  jj_schema *q = jj_schema_new();
  jj_schema_add(q, "a\"b\n", 4, JJ_INT, NULL, NULL);
  w = jj_writer_new(q, NULL, NULL, NULL);
  check_doc(w,
            H "\"columns\":[\"a\\\"b\\n\"],\"types\":[\"i\"],\"rows\":[\n]}");
  jj_writer_free(w);
  jj_schema_free(q);
}

TEST(writer_writes_shortest_doubles_and_nonfinite_strings) {
  static const char *const cols[] = {"f:f"};
  static const struct {
    double v;
    const char *text;
  } cases[] = {
      {0.0, "0.0"},         {-0.0, "-0.0"},   {0.1, "0.1"},
      {1.0, "1.0"},         {-2.5, "-2.5"},   {1e16, "1e+16"},
      {1e15, "1000000000000000.0"},           {1.5e-05, "1.5e-05"},
      {0.0001, "0.0001"},   {5e-324, "5e-324"},
      {1.7976931348623157e308, "1.7976931348623157e+308"},
      {123456789012345678.0, "1.2345678901234568e+17"},
      {0.30000000000000004, "0.30000000000000004"},
  };
  jj_schema *s = schema_of(cols, 1);
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    jj_writer *w = jj_writer_new(s, NULL, NULL, NULL);
    jj_writer_double(w, cases[i].v);
    jj_writer_end_row(w);
    char want[200];
    snprintf(want, sizeof want,
             H "\"columns\":[\"f\"],\"types\":[\"f\"],\"rows\":[\n[%s]\n]}",
             cases[i].text);
    check_doc(w, want);
    jj_writer_free(w);
  }
  jj_writer *w = jj_writer_new(s, NULL, NULL, NULL);
  jj_writer_double(w, NAN);
  jj_writer_end_row(w);
  jj_writer_double(w, -NAN);
  jj_writer_end_row(w);
  jj_writer_double(w, INFINITY);
  jj_writer_end_row(w);
  jj_writer_double(w, -INFINITY);
  jj_writer_end_row(w);
  check_doc(w, H "\"columns\":[\"f\"],\"types\":[\"f\"],\"rows\":[\n"
                 "[\"NaN\"],\n[\"NaN\"],\n[\"Infinity\"],\n"
                 "[\"-Infinity\"]\n]}");
  jj_writer_free(w);
  jj_schema_free(s);
}

TEST(writer_writes_integers_bytes_and_dates_exactly) {
  static const char *const cols[] = {"i:i", "x:x", "d:d"};
  jj_schema *s = schema_of(cols, 3);
  jj_writer *w = jj_writer_new(s, NULL, NULL, NULL);
  jj_writer_int(w, INT64_MAX);
  jj_writer_bytes(w, "", 0);
  jj_writer_date_days(w, 0);
  jj_writer_end_row(w);
  jj_writer_int(w, 0);
  jj_writer_bytes(w, "f", 1);
  jj_writer_date_days(w, 2932896);
  jj_writer_end_row(w);
  jj_writer_int(w, -1);
  jj_writer_bytes(w, "fo", 2);
  jj_writer_date(w, "2024-02-29", 10);
  jj_writer_end_row(w);
  check_doc(w, H "\"columns\":[\"i\",\"x\",\"d\"],"
                 "\"types\":[\"i\",\"x\",\"d\"],"
                 "\"rows\":[\n"
                 "[9223372036854775807,\"\",\"1970-01-01\"],\n"
                 "[0,\"Zg==\",\"9999-12-31\"],\n"
                 "[-1,\"Zm8=\",\"2024-02-29\"]\n]}");
  jj_writer_free(w);
  jj_schema_free(s);
}

/* ---------------------------------------------------------------------- */
/* Errors                                                                  */
/* ---------------------------------------------------------------------- */

static const char *const user_cols[] = {"id:i", "user:s", "joined:d"};

TEST(writer_rejects_a_value_of_the_wrong_kind) {
  jj_schema *s = schema_of(user_cols, 3);
  jj_writer *w = jj_writer_new(s, NULL, NULL, NULL);
  jj_writer_int(w, 1);
  jj_writer_text(w, "a", 1);
  CHECK_EQ_INT(jj_writer_int(w, 20240301), JJ_ERR_USAGE);
  check_err(w, JJ_ERR_USAGE, 1, 2,
            "row 1: column \"joined\" is a date column: use jj_writer_date");
  /* the writer is dead: every call returns the same error */
  CHECK_EQ_INT(jj_writer_date(w, "2024-03-01", 10), JJ_ERR_USAGE);
  CHECK_EQ_INT(jj_writer_end_row(w), JJ_ERR_USAGE);
  CHECK_EQ_INT(jj_writer_set_meta(w, "1", 1), JJ_ERR_USAGE);
  CHECK_EQ_INT(jj_writer_finish(w), JJ_ERR_USAGE);
  check_err(w, JJ_ERR_USAGE, 1, 2,
            "row 1: column \"joined\" is a date column: use jj_writer_date");
  CHECK(jj_writer_take(w, NULL) == NULL);
  jj_writer_free(w);

  w = jj_writer_new(s, NULL, NULL, NULL);
  CHECK_EQ_INT(jj_writer_begin_table(w), JJ_ERR_USAGE);
  check_err(w, JJ_ERR_USAGE, 1, 0,
            "row 1: column \"id\" is an integer column: use jj_writer_int");
  jj_writer_free(w);

  w = jj_writer_new(s, NULL, NULL, NULL);
  jj_writer_int(w, 1);
  CHECK_EQ_INT(jj_writer_bytes(w, "a", 1), JJ_ERR_USAGE);
  check_err(w, JJ_ERR_USAGE, 1, 1,
            "row 1: column \"user\" is a text column: use jj_writer_text");
  jj_writer_free(w);
  jj_schema_free(s);
}

TEST(writer_rejects_wrong_value_counts) {
  jj_schema *s = schema_of(user_cols, 3);
  jj_writer *w = jj_writer_new(s, NULL, NULL, NULL);
  for (int r = 0; r < 2; r++) {
    jj_writer_int(w, r);
    jj_writer_null(w);
    jj_writer_null(w);
    jj_writer_end_row(w);
  }
  jj_writer_int(w, 3);
  jj_writer_null(w);
  CHECK_EQ_INT(jj_writer_end_row(w), JJ_ERR_USAGE);
  check_err(w, JJ_ERR_USAGE, 3, -1, "row 3: 2 values for 3 columns");
  jj_writer_free(w);

  w = jj_writer_new(s, NULL, NULL, NULL);
  jj_writer_int(w, 1);
  jj_writer_null(w);
  jj_writer_null(w);
  CHECK_EQ_INT(jj_writer_null(w), JJ_ERR_USAGE);
  check_err(w, JJ_ERR_USAGE, 1, -1, "row 1: 4 values for 3 columns");
  jj_writer_free(w);

  w = jj_writer_new(s, NULL, NULL, NULL);
  CHECK_EQ_INT(jj_writer_end_row(w), JJ_ERR_USAGE);
  check_err(w, JJ_ERR_USAGE, 1, -1, "row 1: 0 values for 3 columns");
  jj_writer_free(w);

  w = jj_writer_new(s, NULL, NULL, NULL);
  jj_writer_int(w, 1);
  CHECK_EQ_INT(jj_writer_finish(w), JJ_ERR_USAGE);
  check_err(w, JJ_ERR_USAGE, 1, -1, "row 1: 1 values for 3 columns");
  jj_writer_free(w);
  jj_schema_free(s);
}

/* The plain-ASCII fast path and the escaping path must agree byte for
** byte: text of every length from 0 to 40 with one special byte at every
** position (and none), checked against jj_string_escape, the rule itself.
** Enough rows that the buffer grows while they are written. */
TEST(writer_text_of_every_length_and_shape_matches_the_escaping_rule) {
  static const char *const cols[] = {"t:s"};
  static const char *const specials[] = {"\"", "\\", "\x01", "\x1f", "\x7f",
                                         " ", "\xc3\xa9", "\xe2\x82\xac",
                                         "\xf0\x9f\x98\x80"};
  jj_schema *s = schema_of(cols, 1);
  jj_writer *w = jj_writer_new(s, NULL, NULL, NULL);
  jj_buf want = {0};
  const char *head = H "\"columns\":[\"t\"],\"types\":[\"s\"],\"rows\":[\n";
  CHECK_EQ_INT(jj_buf_append(&want, head, strlen(head)), 0);
  int rows = 0;
  for (size_t len = 0; len <= 40; len++) {
    for (size_t k = 0; k <= sizeof specials / sizeof specials[0]; k++) {
      for (size_t pos = 0; pos < (k ? len : 1); pos++) {
        char in[48];
        size_t n = len;
        for (size_t i = 0; i < len; i++) in[i] = (char)('a' + i % 26);
        if (k) { /* the special sequence replaces the bytes from pos on */
          size_t sl = strlen(specials[k - 1]);
          if (pos + sl > len) continue;
          memcpy(in + pos, specials[k - 1], sl);
        }
        CHECK_EQ_INT(jj_writer_text(w, in, n), JJ_OK);
        CHECK_EQ_INT(jj_writer_end_row(w), JJ_OK);
        if (rows++) CHECK_EQ_INT(jj_buf_append(&want, ",\n", 2), 0);
        CHECK_EQ_INT(jj_buf_append(&want, "[", 1), 0);
        CHECK_EQ_INT(jj_string_escape(&want, in, n), 0);
        CHECK_EQ_INT(jj_buf_append(&want, "]", 1), 0);
      }
    }
  }
  CHECK(rows > 2000);
  CHECK_EQ_INT(jj_buf_append(&want, "\n]}", 3), 0);
  size_t len = 0;
  CHECK_EQ_INT(jj_writer_finish(w), JJ_OK);
  char *got = jj_writer_take(w, &len);
  CHECK_EQ_MEM(got, len, want.p, want.len);
  jj_free(got);
  jj_buf_free(&want);
  jj_writer_free(w);
  jj_schema_free(s);
}

/* Invalid UTF-8 anywhere in text of any length is refused, whichever path
** the text would have taken. */
TEST(writer_rejects_invalid_utf8_at_every_position_and_length) {
  static const char *const cols[] = {"t:s"};
  static const char *const bad[] = {"\xff", "\x80", "\xc3", "\xed\xa0\x80"};
  jj_schema *s = schema_of(cols, 1);
  for (size_t len = 1; len <= 24; len++) {
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
      size_t bl = strlen(bad[k]);
      for (size_t pos = 0; pos + bl <= len; pos++) {
        char in[32];
        memset(in, 'x', len);
        memcpy(in + pos, bad[k], bl);
        jj_writer *w = jj_writer_new(s, NULL, NULL, NULL);
        CHECK_EQ_INT(jj_writer_text(w, "ok", 2), JJ_OK);
        CHECK_EQ_INT(jj_writer_end_row(w), JJ_OK);
        CHECK_EQ_INT(jj_writer_text(w, in, len), JJ_ERR_UTF8);
        const jj_error *e = jj_writer_error(w);
        CHECK_EQ_INT(e->row, 2);
        CHECK_EQ_INT(e->column, 0);
        CHECK(strncmp(e->message, "row 2, column \"t\": \"", 20) == 0);
        CHECK(strstr(e->message, "\" is not valid UTF-8") != NULL);
        jj_writer_free(w);
      }
    }
  }
  jj_schema_free(s);
}

/* Dates: days 01-28 of months 01-12 are taken without the calendar; every
** other text goes to chrono.c, which accepts the real 29ths, 30ths and
** 31sts and words each refusal. */
TEST(writer_checks_every_date_field_on_both_paths) {
  static const char *const cols[] = {"d:d"};
  static const char *const good[] = {"0000-01-01", "9999-12-31", "2023-02-28",
                                     "2024-02-29", "2000-02-29", "2023-01-31",
                                     "2023-04-30", "2023-12-01"};
  static const struct {
    const char *in;
    const char *msg;
  } bad[] = {
      {"2023-02-29", "\"2023-02-29\" is not a date (2023 is not a leap year)"},
      {"1900-02-29", "\"1900-02-29\" is not a date (1900 is not a leap year)"},
      {"2023-04-31", "\"2023-04-31\" is not a date (April has 30 days)"},
      {"2023-13-01", "\"2023-13-01\" is not a date (month 13 does not exist)"},
      {"2023-00-10", "\"2023-00-10\" is not a date (month 00 does not exist)"},
      /*     ^ month 00 */
      {"2023-01-00", "\"2023-01-00\" is not a date (day 00 does not exist)"},
      {"2023/01/01", "\"2023/01/01\" is not a date (expected YYYY-MM-DD)"},
      /*    ^ a slash where the dash goes */
      {"2023-01-0:", "\"2023-01-0:\" is not a date (expected YYYY-MM-DD)"},
      /*          ^ ':' follows '9' */
      {"2023-01-0/", "\"2023-01-0/\" is not a date (expected YYYY-MM-DD)"},
      /*          ^ '/' precedes '0' */
      {"2023-1-01", "\"2023-1-01\" is not a date (expected YYYY-MM-DD)"},
      {"2023-01-011", "\"2023-01-011\" is not a date (expected YYYY-MM-DD)"},
  };
  jj_schema *s = schema_of(cols, 1);
  jj_writer *w = jj_writer_new(s, NULL, NULL, NULL);
  for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
    CHECK_EQ_INT(jj_writer_date(w, good[i], 10), JJ_OK);
    CHECK_EQ_INT(jj_writer_end_row(w), JJ_OK);
  }
  check_doc(w, H "\"columns\":[\"d\"],\"types\":[\"d\"],\"rows\":[\n"
                 "[\"0000-01-01\"],\n[\"9999-12-31\"],\n[\"2023-02-28\"],\n"
                 "[\"2024-02-29\"],\n[\"2000-02-29\"],\n[\"2023-01-31\"],\n"
                 "[\"2023-04-30\"],\n[\"2023-12-01\"]\n]}");
  jj_writer_free(w);
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    char msg[200];
    w = jj_writer_new(s, NULL, NULL, NULL);
    CHECK_EQ_INT(jj_writer_date(w, bad[i].in, strlen(bad[i].in)), JJ_ERR_DATE);
    snprintf(msg, sizeof msg, "row 1, column \"d\": %s", bad[i].msg);
    check_err(w, JJ_ERR_DATE, 1, 0, msg);
    jj_writer_free(w);
  }
  jj_schema_free(s);
}

TEST(writer_checks_text_dates_and_timestamps_naming_the_place) {
  static const char *const cols[] = {"id:i", "user:s", "joined:d", "seen:t"};
  jj_schema *s = schema_of(cols, 4);
  jj_writer *w = jj_writer_new(s, NULL, NULL, NULL);
  for (int r = 1; r <= 4; r++) {
    jj_writer_int(w, r);
    jj_writer_text(w, "u", 1);
    jj_writer_date(w, "2023-02-28", 10);
    jj_writer_null(w);
    jj_writer_end_row(w);
  }
  jj_writer_int(w, 5);
  jj_writer_text(w, "u", 1);
  CHECK_EQ_INT(jj_writer_date(w, "2023-02-30", 10), JJ_ERR_DATE);
  check_err(w, JJ_ERR_DATE, 5, 2,
            "row 5, column \"joined\": \"2023-02-30\" is not a date "
            "(February 2023 has 28 days)");
  jj_writer_free(w);

  w = jj_writer_new(s, NULL, NULL, NULL);
  jj_writer_int(w, 1);
  CHECK_EQ_INT(jj_writer_text(w, "ab\xff", 3), JJ_ERR_UTF8);
  /*                                ^ 0xff is never UTF-8 */
  check_err(w, JJ_ERR_UTF8, 1, 1,
            "row 1, column \"user\": \"ab\\xff\" is not valid UTF-8");
  jj_writer_free(w);

  w = jj_writer_new(s, NULL, NULL, NULL);
  jj_writer_int(w, 1);
  CHECK_EQ_INT(jj_writer_text(w, "\xed\xa0\x80", 3), JJ_ERR_UTF8);
  /*                              ^ a UTF-8 encoded surrogate */
  check_err(w, JJ_ERR_UTF8, 1, 1,
            "row 1, column \"user\": \"\\xed\\xa0\\x80\" is not valid UTF-8");
  jj_writer_free(w);

  w = jj_writer_new(s, NULL, NULL, NULL);
  jj_writer_int(w, 1);
  jj_writer_text(w, "u", 1);
  jj_writer_date(w, "2024-02-29", 10);
  const char *bad_ts = "2024-03-01T24:00:00Z";
  /*                               ^ hour 24 */
  CHECK_EQ_INT(jj_writer_timestamp(w, bad_ts, 20), JJ_ERR_TIMESTAMP);
  check_err(w, JJ_ERR_TIMESTAMP, 1, 3,
            "row 1, column \"seen\": \"2024-03-01T24:00:00Z\" is not a "
            "timestamp (hour 24 does not exist)");
  jj_writer_free(w);

  w = jj_writer_new(s, NULL, NULL, NULL);
  jj_writer_int(w, 1);
  jj_writer_text(w, "u", 1);
  CHECK_EQ_INT(jj_writer_date_days(w, 2932897), JJ_ERR_DATE);
  check_err(w, JJ_ERR_DATE, 1, 2,
            "row 1, column \"joined\": day 2932897 is not a date in the years "
            "0000-9999");
  jj_writer_free(w);

  w = jj_writer_new(s, NULL, NULL, NULL);
  jj_writer_int(w, 1);
  jj_writer_text(w, "u", 1);
  jj_writer_null(w);
  jj_timestamp ts = {0, 5, 0, 0}; /* 5 ns cannot be written with 0 digits */
  CHECK_EQ_INT(jj_writer_timestamp_value(w, &ts), JJ_ERR_TIMESTAMP);
  check_err(w, JJ_ERR_TIMESTAMP, 1, 3,
            "row 1, column \"seen\": 0 seconds, 5 nanoseconds, zone 0 "
            "minutes, 0 digits is not a timestamp in the years 0000-9999");
  jj_writer_free(w);
  jj_schema_free(s);
}

TEST(writer_errors_inside_nested_tables_spell_out_the_path) {
  static const char *const outer[] = {"id:i"};
  static const char *const inner[] = {"sku:s", "qty:i"};
  jj_schema *s = schema_of(outer, 1);
  add_table(s, "items", schema_of(inner, 2));
  jj_writer *w = jj_writer_new(s, NULL, NULL, NULL);
  jj_writer_int(w, 1);
  jj_writer_null(w);
  jj_writer_end_row(w);
  jj_writer_int(w, 2);
  jj_writer_begin_table(w);
  for (int r = 0; r < 2; r++) {
    jj_writer_text(w, "a", 1);
    jj_writer_int(w, r);
    jj_writer_end_row(w);
  }
  CHECK_EQ_INT(jj_writer_text(w, "\xc3", 1), JJ_ERR_UTF8);
  /*                              ^ a lead byte with nothing after it */
  check_err(w, JJ_ERR_UTF8, 2, 1,
            "row 2, column \"items\", row 3, column \"sku\": \"\\xc3\" is not "
            "valid UTF-8");
  jj_writer_free(w);

  w = jj_writer_new(s, NULL, NULL, NULL);
  jj_writer_int(w, 1);
  jj_writer_begin_table(w);
  jj_writer_text(w, "a", 1);
  CHECK_EQ_INT(jj_writer_end_table(w), JJ_ERR_USAGE);
  check_err(w, JJ_ERR_USAGE, 1, 1,
            "row 1, column \"items\", row 1: 1 values for 2 columns");
  jj_writer_free(w);

  w = jj_writer_new(s, NULL, NULL, NULL);
  jj_writer_int(w, 1);
  jj_writer_begin_table(w);
  CHECK_EQ_INT(jj_writer_finish(w), JJ_ERR_USAGE);
  check_err(w, JJ_ERR_USAGE, 1, 1,
            "row 1, column \"items\", row 1: nested table not ended (use "
            "jj_writer_end_table)");
  jj_writer_free(w);

  w = jj_writer_new(s, NULL, NULL, NULL);
  CHECK_EQ_INT(jj_writer_end_table(w), JJ_ERR_USAGE);
  check_err(w, JJ_ERR_USAGE, 0, -1,
            "jj_writer_end_table without jj_writer_begin_table");
  jj_writer_free(w);
  jj_schema_free(s);
}

TEST(writer_rejects_calls_out_of_order) {
  static const char *const cols[] = {"a:i"};
  jj_schema *s = schema_of(cols, 1);
  jj_writer *w = jj_writer_new(s, NULL, NULL, NULL);
  jj_writer_int(w, 1);
  CHECK_EQ_INT(jj_writer_set_meta(w, "{}", 2), JJ_ERR_USAGE);
  check_err(w, JJ_ERR_USAGE, 0, -1, "meta must be set before the first value");
  jj_writer_free(w);

  w = jj_writer_new(s, NULL, NULL, NULL);
  CHECK(jj_writer_take(w, NULL) == NULL); /* not finished */
  CHECK_EQ_INT(jj_writer_finish(w), JJ_OK);
  CHECK_EQ_INT(jj_writer_int(w, 1), JJ_ERR_USAGE);
  check_err(w, JJ_ERR_USAGE, 0, -1, "the document is already finished");
  jj_writer_free(w);

  w = jj_writer_new(s, NULL, NULL, NULL);
  CHECK_EQ_INT(jj_writer_finish(w), JJ_OK);
  CHECK_EQ_INT(jj_writer_finish(w), JJ_ERR_USAGE);
  jj_writer_free(w);

  /* a take hands the buffer over once */
  w = jj_writer_new(s, NULL, NULL, NULL);
  jj_writer_finish(w);
  size_t len = 0;
  char *doc = jj_writer_take(w, &len);
  CHECK(doc != NULL && len == strlen(doc));
  CHECK(jj_writer_take(w, &len) == NULL);
  jj_free(doc);
  jj_writer_free(w);
  jj_schema_free(s);

  jj_error err;
  jj_schema *empty = jj_schema_new();
  CHECK(jj_writer_new(empty, NULL, NULL, &err) == NULL);
  CHECK_EQ_INT(err.code, JJ_ERR_USAGE);
  CHECK_EQ_STR(err.message, "a table needs at least one column");
  jj_schema *t = jj_schema_new();
  jj_schema_add(t, "a", 1, JJ_TABLE, empty, NULL);
  CHECK(jj_writer_new(t, NULL, NULL, &err) == NULL);
  CHECK_EQ_STR(err.message, "a table needs at least one column");
  jj_schema_free(t);
}

TEST(writer_checks_meta_is_one_json_value) {
  static const char *const cols[] = {"a:i"};
  jj_schema *s = schema_of(cols, 1);
  jj_writer *w = jj_writer_new(s, NULL, NULL, NULL);
  CHECK_EQ_INT(jj_writer_set_meta(w, "{} []", 5), JJ_ERR_SYNTAX);
  /*                                     ^ byte 3 */
  check_err(w, JJ_ERR_SYNTAX, 0, -1, "meta, byte 3: more than one JSON value");
  jj_writer_free(w);

  w = jj_writer_new(s, NULL, NULL, NULL);
  CHECK_EQ_INT(jj_writer_set_meta(w, "  ", 2), JJ_ERR_SYNTAX);
  check_err(w, JJ_ERR_SYNTAX, 0, -1, "meta is empty");
  jj_writer_free(w);

  w = jj_writer_new(s, NULL, NULL, NULL);
  CHECK_EQ_INT(jj_writer_set_meta(w, "{\"a\":}", 6), JJ_ERR_SYNTAX);
  /*                                         ^ byte 5: a value is missing */
  check_err(w, JJ_ERR_SYNTAX, 0, -1, "meta, byte 5: unexpected character");
  jj_writer_free(w);
  jj_schema_free(s);
}

/* ---------------------------------------------------------------------- */
/* Sink mode                                                               */
/* ---------------------------------------------------------------------- */

/* The 50,000 rows of the benchmark shape: int, 3 short strings, int,
** double, date.  Returns the first error. */
static jj_code write_bench_rows(jj_writer *w, int rows) {
  jj_code code = JJ_OK;
  char text[32];
  for (int r = 0; r < rows && !code; r++) {
    int n = snprintf(text, sizeof text, "user%d", r);
    code = jj_writer_int(w, r);
    if (!code) code = jj_writer_text(w, text, (size_t)n);
    if (!code) code = jj_writer_text(w, "alpha", 5);
    if (!code) code = jj_writer_text(w, "line\n\"q\"", 8);
    if (!code) code = jj_writer_int(w, (int64_t)r * 7919);
    if (!code) code = jj_writer_double(w, r / 7.0);
    if (!code) code = jj_writer_date_days(w, r % 20000);
    if (!code) code = jj_writer_end_row(w);
  }
  return code;
}

static const char *const bench_cols[] = {"id:i", "name:s", "tag:s", "note:s",
                                         "n:i", "score:f", "day:d"};

TEST(sink_mode_gives_the_same_bytes_as_buffer_mode) {
  jj_schema *s = schema_of(bench_cols, 7);
  jj_writer *w = jj_writer_new(s, NULL, NULL, NULL);
  CHECK_EQ_INT(write_bench_rows(w, 20000), JJ_OK);
  CHECK_EQ_INT(jj_writer_finish(w), JJ_OK);
  size_t len;
  char *whole = jj_writer_take(w, &len);
  jj_writer_free(w);

  collect c = {{0}, 0, 0, 0};
  w = jj_writer_new(s, collect_sink, &c, NULL);
  CHECK_EQ_INT(write_bench_rows(w, 20000), JJ_OK);
  CHECK_EQ_INT(jj_writer_finish(w), JJ_OK);
  CHECK(jj_writer_take(w, NULL) == NULL); /* nothing to take in sink mode */
  jj_writer_free(w);
  CHECK_EQ_MEM(c.b.p, c.b.len, whole, len);
  CHECK(c.calls > 10);
  CHECK(c.largest <= 65536 + 200); /* 64 KiB plus one value */
  jj_buf_free(&c.b);
  jj_free(whole);
  jj_schema_free(s);
}

TEST(sink_failure_is_an_io_error_and_kills_the_writer) {
  jj_schema *s = schema_of(bench_cols, 7);
  collect c = {{0}, 0, 3, 0};
  jj_writer *w = jj_writer_new(s, collect_sink, &c, NULL);
  CHECK_EQ_INT(write_bench_rows(w, 20000), JJ_ERR_IO);
  check_err(w, JJ_ERR_IO, 0, -1, "write failed");
  CHECK_EQ_INT(c.calls, 3);
  CHECK_EQ_INT(jj_writer_int(w, 1), JJ_ERR_IO);
  CHECK_EQ_INT(jj_writer_finish(w), JJ_ERR_IO);
  CHECK_EQ_INT(c.calls, 3); /* nothing more reached the sink */
  jj_writer_free(w);
  jj_buf_free(&c.b);

  /* a small document reaches the sink only at finish */
  collect d = {{0}, 0, 1, 0};
  w = jj_writer_new(s, collect_sink, &d, NULL);
  CHECK_EQ_INT(write_bench_rows(w, 3), JJ_OK);
  CHECK_EQ_INT(d.calls, 0);
  CHECK_EQ_INT(jj_writer_finish(w), JJ_ERR_IO);
  CHECK_EQ_INT(d.calls, 1);
  jj_writer_free(w);
  jj_buf_free(&d.b);
  jj_schema_free(s);
}

/* An allocator for jj_writer_new_alloc that counts its calls and blocks
** and refuses blocks over `most` bytes.  Its blocks start 16 bytes into
** what malloc gave, so one freed with free() or jj_free would be an
** invalid free (ASan stops there; glibc aborts). */
typedef struct counting {
  int reallocs, frees;
  size_t most; /* refuse a block larger than this; 0: never */
  int live;    /* blocks held */
  void *last;  /* the last block returned */
} counting;
static void *counting_realloc(void *ctx, void *p, size_t n) {
  counting *a = ctx;
  a->reallocs++;
  if (a->most && n > a->most) return NULL;
  unsigned char *q = realloc(p ? (unsigned char *)p - 16 : NULL, n + 16);
  if (!q) return NULL;
  if (!p) a->live++;
  memcpy(q, "counting", 8);
  return a->last = q + 16;
}
static void counting_free(void *ctx, void *p) {
  counting *a = ctx;
  unsigned char *q = (unsigned char *)p - 16;
  CHECK(memcmp(q, "counting", 8) == 0);
  a->frees++;
  a->live--;
  free(q);
}

TEST(writer_builds_in_the_callers_allocator) {
  jj_schema *s = schema_of(bench_cols, 7);
  jj_writer *w = jj_writer_new(s, NULL, NULL, NULL);
  CHECK_EQ_INT(write_bench_rows(w, 3000), JJ_OK);
  CHECK_EQ_INT(jj_writer_finish(w), JJ_OK);
  size_t len, got_len = 0;
  char *whole = jj_writer_take(w, &len);
  jj_writer_free(w);

  /* the same bytes, in the allocator's memory, grown through it */
  counting c = {0, 0, 0, 0, NULL};
  jj_allocator a = {counting_realloc, counting_free, &c};
  w = jj_writer_new_alloc(s, &a, NULL);
  memset(&a, 0, sizeof a); /* the writer keeps a copy */
  CHECK(w != NULL);
  CHECK_EQ_INT(c.reallocs, 1); /* the first buffer */
  CHECK_EQ_INT(write_bench_rows(w, 3000), JJ_OK);
  CHECK(c.reallocs > 3);
  CHECK_EQ_INT(jj_writer_finish(w), JJ_OK);
  CHECK_EQ_U64(jj_writer_length(w), len);
  char *got = jj_writer_take(w, &got_len);
  CHECK(got != NULL && got == c.last);
  CHECK_EQ_MEM(got, got_len, whole, len);
  CHECK(got && got[got_len] == '\0');
  jj_writer_free(w); /* the taken document is not the writer's */
  CHECK_EQ_INT(c.frees, 0);
  CHECK_EQ_INT(c.live, 1);
  counting_free(&c, got);
  CHECK_EQ_INT(c.live, 0);

  /* a buffer not taken goes back to the allocator */
  counting d = {0, 0, 0, 0, NULL};
  jj_allocator b = {counting_realloc, counting_free, &d};
  w = jj_writer_new_alloc(s, &b, NULL);
  CHECK_EQ_INT(write_bench_rows(w, 10), JJ_OK);
  jj_writer_free(w);
  CHECK_EQ_INT(d.frees, 1);
  CHECK_EQ_INT(d.live, 0);

  /* a refused block is out of memory, and the writer is dead */
  counting e = {0, 0, 20000, 0, NULL};
  jj_allocator ea = {counting_realloc, counting_free, &e};
  w = jj_writer_new_alloc(s, &ea, NULL);
  CHECK_EQ_INT(write_bench_rows(w, 3000), JJ_ERR_NOMEM);
  check_err(w, JJ_ERR_NOMEM, 0, -1, "out of memory");
  CHECK_EQ_INT(jj_writer_end_row(w), JJ_ERR_NOMEM);
  CHECK_EQ_INT(jj_writer_finish(w), JJ_ERR_NOMEM);
  CHECK(jj_writer_take(w, NULL) == NULL);
  CHECK(jj_writer_length(w) <= 20000);
  jj_writer_free(w);
  CHECK_EQ_INT(e.live, 0);

  /* so is a refused first buffer: no writer */
  counting f = {0, 0, 100, 0, NULL};
  jj_allocator fa = {counting_realloc, counting_free, &f};
  jj_error err;
  CHECK(jj_writer_new_alloc(s, &fa, &err) == NULL);
  CHECK_EQ_INT(err.code, JJ_ERR_NOMEM);
  CHECK_EQ_INT(f.reallocs, 1);
  CHECK_EQ_INT(f.live, 0);

  /* no allocator: the library's own memory, freed with jj_free */
  w = jj_writer_new_alloc(s, NULL, NULL);
  CHECK_EQ_INT(write_bench_rows(w, 3000), JJ_OK);
  CHECK_EQ_INT(jj_writer_finish(w), JJ_OK);
  got = jj_writer_take(w, &got_len);
  CHECK_EQ_MEM(got, got_len, whole, len);
  jj_free(got);
  jj_writer_free(w);
  jj_free(whole);
  jj_schema_free(s);
}

TEST(writer_length_counts_the_document_so_far) {
  jj_schema *s = schema_of(bench_cols, 7);
  CHECK_EQ_U64(jj_writer_length(NULL), 0);
  collect c = {{0}, 0, 0, 0};
  jj_writer *w = jj_writer_new(s, collect_sink, &c, NULL);
  CHECK_EQ_U64(jj_writer_length(w), 0); /* the header waits for a value */
  for (int rows = 0; rows < 5000; rows += 500) {
    CHECK_EQ_INT(write_bench_rows(w, 500), JJ_OK);
    CHECK(jj_writer_length(w) >= c.b.len);
  }
  CHECK(c.calls > 1);
  CHECK_EQ_INT(jj_writer_finish(w), JJ_OK);
  CHECK_EQ_U64(jj_writer_length(w), c.b.len);
  jj_writer_free(w);

  w = jj_writer_new(s, NULL, NULL, NULL);
  CHECK_EQ_INT(write_bench_rows(w, 2), JJ_OK);
  uint64_t before = jj_writer_length(w);
  CHECK_EQ_INT(jj_writer_finish(w), JJ_OK);
  size_t len;
  char *doc = jj_writer_take(w, &len);
  CHECK_EQ_U64(before + 3, len); /* finish adds "\n]}" */
  jj_free(doc);
  jj_writer_free(w);
  jj_buf_free(&c.b);
  jj_schema_free(s);
}

/* ---------------------------------------------------------------------- */
/* Through the reader                                                      */
/* ---------------------------------------------------------------------- */

/* Bit-exact double comparison (NaN equals NaN). */
static int same_double(double a, double b) {
  uint64_t x, y;
  if (isnan(a) || isnan(b)) return isnan(a) && isnan(b);
  memcpy(&x, &a, 8);
  memcpy(&y, &b, 8);
  return x == y;
}

TEST(writer_round_trips_every_value_through_the_reader) {
  static const char *const cols[] = {"i:i", "f:f", "s:s", "d:d",
                                     "t:t", "b:b", "x:x"};
  static const char *const inner[] = {"k:s"};
  jj_schema *s = schema_of(cols, 7);
  add_table(s, "n", schema_of(inner, 1));
  uint64_t x = 0x9e3779b97f4a7c15u;
  /* text lengths that do not cut the 2-byte character at 4..5 */
  static const size_t lens[8] = {0, 1, 2, 3, 4, 6, 7, 8};
  enum { ROWS = 500 };
  jj_writer *w = jj_writer_new(s, NULL, NULL, NULL);
  /* values derived from the row number so the reader side can redo them */
  for (int r = 0; r < ROWS; r++) {
    uint64_t bits = x * (uint64_t)(r + 1) ^ ((uint64_t)r << 52);
    double dv;
    memcpy(&dv, &bits, 8);
    char text[8] = {(char)('a' + r % 26), (char)(r % 32), '"', '\\',
                    (char)0xc3, (char)0xa9, 0, 'z'};
    unsigned char blob[5] = {(unsigned char)r, 0, 255, (unsigned char)(r >> 8),
                             7};
    jj_timestamp ts = {(int64_t)r * 86399 - 1000000, (r % 10) * 100000000,
                       (int16_t)((r % 47) * 60 - 1380),
                       (uint8_t)(r % 10 ? 1 : 0)};
    if (r % 10 == 0) ts.nanos = 0;
    jj_writer_int(w, (int64_t)(bits ^ 0x8000000000000000u));
    jj_writer_double(w, dv);
    jj_writer_text(w, text, lens[r % 8]);
    jj_writer_date_days(w, r * 5000 - 719528);
    jj_writer_timestamp_value(w, &ts);
    jj_writer_bool(w, r & 1);
    jj_writer_bytes(w, blob, (size_t)(r % 6));
    if (r % 3 == 0) {
      jj_writer_null(w);
    } else {
      jj_writer_begin_table(w);
      for (int k = 0; k < r % 4; k++) {
        jj_writer_text(w, text, 1);
        jj_writer_end_row(w);
      }
      jj_writer_end_table(w);
    }
    jj_writer_end_row(w);
  }
  /* the special doubles and a row of nulls */
  const double special[] = {-0.0, NAN, INFINITY, -INFINITY, 5e-324, 0.1};
  for (int k = 0; k < 6; k++) {
    jj_writer_null(w);
    jj_writer_double(w, special[k]);
    for (int c = 0; c < 6; c++) jj_writer_null(w);
    jj_writer_end_row(w);
  }
  CHECK_EQ_INT(jj_writer_finish(w), JJ_OK);
  size_t len;
  char *doc = jj_writer_take(w, &len);
  jj_writer_free(w);

  jj_error err;
  jj_doc *d = jj_parse_opts(doc, len, JJ_PARSE_VALIDATE, 0, &err);
  CHECK(d != NULL);
  if (!d) {
    fprintf(stderr, "     %s\n", err.message);
    jj_free(doc);
    jj_schema_free(s);
    return;
  }
  CHECK(jj_schema_equal(jj_doc_schema(d), s, NULL));
  jj_cursor *c = jj_cursor_new(d, &err);
  int bad = 0;
  for (int r = 0; r < ROWS; r++) {
    bad += jj_cursor_next(c, &err) != 1;
    uint64_t bits = x * (uint64_t)(r + 1) ^ ((uint64_t)r << 52);
    double dv, gd;
    memcpy(&dv, &bits, 8);
    char text[8] = {(char)('a' + r % 26), (char)(r % 32), '"', '\\',
                    (char)0xc3, (char)0xa9, 0, 'z'};
    unsigned char blob[5] = {(unsigned char)r, 0, 255, (unsigned char)(r >> 8),
                             7};
    int64_t gi;
    int32_t gdays;
    jj_timestamp gts;
    int gb;
    const char *gp;
    const unsigned char *gx;
    size_t gl;
    bad += jj_cursor_int(c, 0, &gi, &err) != 1 ||
           (uint64_t)gi != (bits ^ 0x8000000000000000u);
    bad += jj_cursor_double(c, 1, &gd, &err) != 1 || !same_double(gd, dv);
    bad += jj_cursor_text(c, 2, &gp, &gl, &err) != 1 ||
           gl != lens[r % 8] || (gl && memcmp(gp, text, gl) != 0);
    bad += jj_cursor_date(c, 3, &gdays, &err) != 1 ||
           gdays != r * 5000 - 719528;
    bad += jj_cursor_timestamp(c, 4, &gts, &err) != 1 ||
           gts.seconds != (int64_t)r * 86399 - 1000000 ||
           gts.nanos != (r % 10 ? (r % 10) * 100000000 : 0) ||
           gts.zone_minutes != (r % 47) * 60 - 1380 ||
           gts.digits != (r % 10 ? 1 : 0);
    bad += jj_cursor_bool(c, 5, &gb, &err) != 1 || gb != (r & 1);
    bad += jj_cursor_bytes(c, 6, &gx, &gl, &err) != 1 ||
           gl != (size_t)(r % 6) || (gl && memcmp(gx, blob, gl) != 0);
    jj_doc *sub = NULL;
    int has = jj_cursor_table(c, 7, &sub, &err);
    bad += has != (r % 3 != 0);
    if (has == 1) {
      bad += jj_doc_rows(sub, &err) != r % 4;
      jj_doc_free(sub);
    }
    if (bad) {
      fprintf(stderr, "     row %d differs: %s\n", r + 1, err.message);
      break;
    }
  }
  CHECK_EQ_INT(bad, 0);
  for (int k = 0; k < 6; k++) {
    double gd = 0;
    CHECK_EQ_INT(jj_cursor_next(c, &err), 1);
    CHECK_EQ_INT(jj_cursor_double(c, 1, &gd, &err), 1);
    CHECK(same_double(gd, special[k]));
    CHECK_EQ_INT(jj_cursor_is_null(c, 0), 1);
  }
  CHECK_EQ_INT(jj_cursor_next(c, &err), 0);
  jj_cursor_free(c);
  jj_doc_free(d);
  jj_free(doc);
  jj_schema_free(s);
}

/* ---------------------------------------------------------------------- */
/* jj_writer_copy                                                          */
/* ---------------------------------------------------------------------- */

static const char copy_src[] =
    H "\"columns\":[\"i\",\"f\",\"s\",\"d\",\"t\",\"b\",\"x\",\"n\"],"
      "\"types\":[\"i\",\"f\",\"s\",\"d\",\"t\",\"b\",\"x\",{\"columns\":"
      "[\"k\",\"v\"],\"types\":[\"s\",\"f\"]}],\"rows\":[\n"
      "[1,0.5,\"a\\\"\\u0001\",\"2024-02-29\",\"2024-03-01T00:00:00.5Z\","
      "true,\"Zm9v\",[[\"p\",1e+16],[\"q\",\"NaN\"]]],\n"
      "[null,null,null,null,null,null,null,null],\n"
      "[-7,-0.0,\"\",\"0000-01-01\",\"9999-12-31T23:59:59-23:59\",false,"
      "\"\",[]]\n]}";

TEST(writer_copy_reencodes_rows_to_identical_bytes) {
  jj_error err;
  jj_doc *d = jj_parse(copy_src, sizeof copy_src - 1, &err);
  CHECK(d != NULL);
  if (!d) return;
  jj_writer *w = jj_writer_new(jj_doc_schema(d), NULL, NULL, &err);
  jj_cursor *c = jj_cursor_new(d, &err);
  jj_code code = JJ_OK;
  while (!code && jj_cursor_next(c, &err) == 1) {
    for (size_t col = 0; col < 8 && !code; col++)
      code = jj_writer_copy(w, c, col);
    if (!code) code = jj_writer_end_row(w);
  }
  CHECK_EQ_INT(code, JJ_OK);
  check_doc(w, copy_src);
  jj_writer_free(w);
  jj_cursor_free(c);
  jj_doc_free(d);
}

TEST(writer_copy_rows_copies_whole_tables_and_checks_the_schema_once) {
  jj_error err;
  jj_doc *d = jj_parse(copy_src, sizeof copy_src - 1, &err);
  CHECK(d != NULL);
  if (!d) return;
  /* equal schemas: the same bytes as value-by-value copying */
  jj_writer *w = jj_writer_new(jj_doc_schema(d), NULL, NULL, &err);
  jj_cursor *c = jj_cursor_new(d, &err);
  CHECK_EQ_INT(jj_writer_copy_rows(w, c), JJ_OK);
  CHECK_EQ_INT(jj_writer_rows(w), 3);
  check_doc(w, copy_src);
  jj_writer_free(w);
  jj_cursor_free(c);
  /* another schema: refused before any row is copied */
  jj_schema *other = jj_schema_new();
  CHECK_EQ_INT(jj_schema_add(other, "i", 1, JJ_INT, NULL, &err), JJ_OK);
  CHECK_EQ_INT(jj_schema_add(other, "g", 1, JJ_FLOAT, NULL, &err), JJ_OK);
  w = jj_writer_new(other, NULL, NULL, &err);
  c = jj_cursor_new(d, &err);
  CHECK_EQ_INT(jj_writer_copy_rows(w, c), JJ_ERR_USAGE);
  CHECK_EQ_STR(jj_writer_error(w)->message,
               "row 1: the source's columns differ from the table's (from "
               "column 2)");
  CHECK_EQ_INT(jj_cursor_row(c), 0);
  jj_writer_free(w);
  /* not at the start of a row */
  w = jj_writer_new(jj_doc_schema(d), NULL, NULL, &err);
  CHECK_EQ_INT(jj_writer_int(w, 1), JJ_OK);
  CHECK_EQ_INT(jj_writer_copy_rows(w, c), JJ_ERR_USAGE);
  CHECK_EQ_STR(jj_writer_error(w)->message,
               "row 1: jj_writer_copy_rows needs the start of a row (1 of "
               "its 8 values are written)");
  jj_writer_free(w);
  jj_cursor_free(c);
  jj_schema_free(other);
  jj_doc_free(d);
}

TEST(writer_copy_rejects_mismatched_columns_and_passes_reader_errors) {
  static const char src[] =
      H "\"columns\":[\"a\",\"n\"],\"types\":[\"d\",{\"columns\":[\"k\"],"
        "\"types\":[\"i\"]}],\"rows\":[\n"
        "[\"2023-02-29\",[[1]]]\n]}";
  /*      ^ byte 94: 2023 is not a leap year */
  jj_error err;
  jj_doc *d = jj_parse(src, sizeof src - 1, &err);
  CHECK(d != NULL);
  if (!d) return;
  jj_cursor *c = jj_cursor_new(d, &err);
  CHECK_EQ_INT(jj_cursor_next(c, &err), 1);

  static const char *const ts_cols[] = {"when:t"};
  jj_schema *s = schema_of(ts_cols, 1);
  jj_writer *w = jj_writer_new(s, NULL, NULL, NULL);
  CHECK_EQ_INT(jj_writer_copy(w, c, 0), JJ_ERR_USAGE);
  check_err(w, JJ_ERR_USAGE, 1, 0,
            "row 1: column \"when\" is a timestamp column, the source column "
            "\"a\" is a date column");
  jj_writer_free(w);
  jj_schema_free(s);

  static const char *const tcols[] = {"k:s"};
  s = jj_schema_new();
  add_table(s, "m", schema_of(tcols, 1));
  w = jj_writer_new(s, NULL, NULL, NULL);
  CHECK_EQ_INT(jj_writer_copy(w, c, 1), JJ_ERR_USAGE);
  check_err(w, JJ_ERR_USAGE, 1, 0,
            "row 1: column \"m\" and the source column \"n\" have different "
            "nested schemas (from nested column 1)");
  CHECK_EQ_INT(jj_writer_copy(w, c, 5), JJ_ERR_USAGE); /* dead: same error */
  jj_writer_free(w);

  w = jj_writer_new(s, NULL, NULL, NULL);
  CHECK_EQ_INT(jj_writer_copy(w, c, 5), JJ_ERR_USAGE);
  check_err(w, JJ_ERR_USAGE, 1, 0,
            "row 1: source column 5 is out of range (2 columns)");
  jj_writer_free(w);
  jj_schema_free(s);

  /* the reader's own error comes through unchanged */
  w = jj_writer_new(jj_doc_schema(d), NULL, NULL, NULL);
  jj_error want;
  const char *p;
  size_t len;
  CHECK_EQ_INT(jj_cursor_text(c, 0, &p, &len, &want), -1);
  CHECK_EQ_INT(jj_writer_copy(w, c, 0), JJ_ERR_DATE);
  const jj_error *got = jj_writer_error(w);
  CHECK_EQ_STR(got->message, want.message);
  CHECK_EQ_STR(got->message, "row 1, column \"a\", byte 94: \"2023-02-29\" is "
                             "not a date (2023 is not a leap year)");
  CHECK_EQ_INT(got->row, 1);
  CHECK_EQ_INT(got->column, 0);
  CHECK_EQ_U64(got->offset, 94);
  jj_writer_free(w);
  jj_cursor_free(c);
  jj_doc_free(d);
}

/* ---------------------------------------------------------------------- */
/* jj_cursor_object                                                        */
/* ---------------------------------------------------------------------- */

TEST(cursor_object_writes_each_row_as_a_compact_object) {
  jj_error err;
  jj_doc *d = jj_parse(copy_src, sizeof copy_src - 1, &err);
  CHECK(d != NULL);
  if (!d) return;
  jj_cursor *c = jj_cursor_new(d, &err);
  static const char *const want[] = {
      "{\"i\":1,\"f\":0.5,\"s\":\"a\\\"\\u0001\",\"d\":\"2024-02-29\","
      "\"t\":\"2024-03-01T00:00:00.5Z\",\"b\":true,\"x\":\"Zm9v\","
      "\"n\":[{\"k\":\"p\",\"v\":1e+16},{\"k\":\"q\",\"v\":\"NaN\"}]}",
      "{\"i\":null,\"f\":null,\"s\":null,\"d\":null,\"t\":null,\"b\":null,"
      "\"x\":null,\"n\":null}",
      "{\"i\":-7,\"f\":-0.0,\"s\":\"\",\"d\":\"0000-01-01\","
      "\"t\":\"9999-12-31T23:59:59-23:59\",\"b\":false,\"x\":\"\",\"n\":[]}"};
  for (int r = 0; r < 3; r++) {
    collect o = {{0}, 0, 0, 0};
    CHECK_EQ_INT(jj_cursor_next(c, &err), 1);
    CHECK_EQ_INT(jj_cursor_object(c, collect_sink, &o, &err), JJ_OK);
    CHECK_EQ_MEM(o.b.p, o.b.len, want[r], strlen(want[r]));
    jj_buf_free(&o.b);
  }
  collect o = {{0}, 0, 1, 0};
  CHECK_EQ_INT(jj_cursor_object(c, collect_sink, &o, &err), JJ_ERR_IO);
  CHECK_EQ_STR(err.message, "write failed");
  jj_buf_free(&o.b);
  jj_cursor_free(c);
  jj_doc_free(d);
}

TEST(cursor_object_reports_the_first_bad_value) {
  static const char src[] =
      H "\"columns\":[\"a\",\"b\"],\"types\":[\"i\",\"d\"],\"rows\":[\n"
        "[1,\"2023-02-29\"]\n]}";
  /*        ^ byte 68: 2023 is not a leap year */
  jj_error err, want;
  jj_doc *d = jj_parse(src, sizeof src - 1, &err);
  CHECK(d != NULL);
  if (!d) return;
  jj_cursor *c = jj_cursor_new(d, &err);
  jj_cursor_next(c, &err);
  collect o = {{0}, 0, 0, 0};
  int32_t days;
  CHECK_EQ_INT(jj_cursor_date(c, 1, &days, &want), -1);
  CHECK_EQ_INT(jj_cursor_object(c, collect_sink, &o, &err), JJ_ERR_DATE);
  CHECK_EQ_STR(err.message, want.message);
  CHECK_EQ_STR(err.message, "row 1, column \"b\", byte 68: \"2023-02-29\" is "
                            "not a date (2023 is not a leap year)");
  CHECK_EQ_INT(err.row, 1);
  CHECK_EQ_INT(err.column, 1);
  CHECK_EQ_U64(err.offset, 68);
  CHECK_EQ_INT(o.calls, 0); /* nothing half-written reached the sink */
  jj_buf_free(&o.b);
  jj_cursor_free(c);
  jj_doc_free(d);
}

int main(void) {
  RUN(writer_writes_every_scalar_type_canonically);
  RUN(writer_writes_nested_tables_inline);
  RUN(writer_nests_tables_two_levels_deep);
  RUN(writer_writes_empty_document_and_meta);
  RUN(writer_escapes_only_quote_backslash_and_controls);
  RUN(writer_writes_shortest_doubles_and_nonfinite_strings);
  RUN(writer_writes_integers_bytes_and_dates_exactly);
  RUN(writer_rejects_a_value_of_the_wrong_kind);
  RUN(writer_rejects_wrong_value_counts);
  RUN(writer_text_of_every_length_and_shape_matches_the_escaping_rule);
  RUN(writer_rejects_invalid_utf8_at_every_position_and_length);
  RUN(writer_checks_every_date_field_on_both_paths);
  RUN(writer_checks_text_dates_and_timestamps_naming_the_place);
  RUN(writer_errors_inside_nested_tables_spell_out_the_path);
  RUN(writer_rejects_calls_out_of_order);
  RUN(writer_checks_meta_is_one_json_value);
  RUN(sink_mode_gives_the_same_bytes_as_buffer_mode);
  RUN(sink_failure_is_an_io_error_and_kills_the_writer);
  RUN(writer_builds_in_the_callers_allocator);
  RUN(writer_length_counts_the_document_so_far);
  RUN(writer_round_trips_every_value_through_the_reader);
  RUN(writer_copy_reencodes_rows_to_identical_bytes);
  RUN(writer_copy_rows_copies_whole_tables_and_checks_the_schema_once);
  RUN(writer_copy_rejects_mismatched_columns_and_passes_reader_errors);
  RUN(cursor_object_writes_each_row_as_a_compact_object);
  RUN(cursor_object_reports_the_first_bad_value);
  return test_summary("writer");
}
