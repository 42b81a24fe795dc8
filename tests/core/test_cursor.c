/*
** test_cursor.c — moving over rows and reading values: every type, the
** canonical and a pretty-printed layout, escapes and zero-copy text,
** scratch memory lifetime, seeking and the row index, several cursors,
** nested tables (and their error paths), lazy checking of unread columns,
** and the usage errors of the accessors.
*/
#include <math.h>

#include "test_reader.h"

/* Every type, canonical layout.  Row 1 starts at byte 172. */
#define ALL_HEADER                                                              \
  "{\"jalapenojson\":1,\"columns\":[\"id\",\"name\",\"price\",\"day\",\"at\",\"ok\","  \
  "\"blob\",\"items\"],\"types\":[\"i\",\"s\",\"f\",\"d\",\"t\",\"b\",\"x\","         \
  "{\"columns\":[\"sku\",\"qty\"],\"types\":[\"s\",\"i\"]}],\"rows\":[\n"
static const char all_canonical[] =
    ALL_HEADER
    "[1,\"caf\xc3\xa9\",19.99,\"2024-03-01\",\"2024-03-01T10:30:00.25+05:30\",true,"
    "\"AAEC/w==\",[[\"a-1\",2],[\"b\\\"2\",1]]],\n"
    "[2,null,\"NaN\",null,null,false,\"\",[]],\n"
    "[-3,\"tab\\there\",-0.0,\"0000-01-01\",\"1970-01-01T00:00:00Z\",null,null,null]\n"
    "]}";

/* The same table with whitespace everywhere JSON allows it. */
static const char all_pretty[] =
    "\n{ \"jalapenojson\" : 1 ,\n"
    "  \"columns\" : [ \"id\" , \"name\" , \"price\" , \"day\" , \"at\" , \"ok\" , \"blob\" , \"items\" ] ,\n"
    "  \"types\" : [ \"i\" , \"s\" , \"f\" , \"d\" , \"t\" , \"b\" , \"x\" ,\n"
    "    { \"columns\" : [ \"sku\" , \"qty\" ] , \"types\" : [ \"s\" , \"i\" ] } ] ,\n"
    "  \"rows\" : [\n"
    "    [ 1 , \"caf\xc3\xa9\" , 19.99 , \"2024-03-01\" , \"2024-03-01T10:30:00.25+05:30\" ,\r\n"
    "      true , \"AAEC/w==\" , [ [ \"a-1\" , 2 ] , [ \"b\\\"2\" , 1 ] ] ] ,\n"
    "    [ 2 , null , \"NaN\" , null , null , false , \"\" , [ ] ] ,\n"
    "\t[\t-3\t,\t\"tab\\there\"\t,\t-0.0\t,\t\"0000-01-01\"\t,\t\"1970-01-01T00:00:00Z\"\t,"
    "\tnull\t,\tnull\t,\tnull\t]\n"
    "  ]\n"
    "}\n\n";

/* Read every row of an every-type document and check each value. */
static void check_all_types(const char *doc) {
  jj_error e;
  jj_doc *d = jj_parse(doc, strlen(doc), &e);
  if (!CHECK(d != NULL)) return;
  jj_cursor *c = jj_cursor_new(d, &e);
  int64_t i;
  double f;
  const char *p;
  size_t n;
  int32_t day;
  jj_timestamp ts;
  int b;
  const unsigned char *bytes;
  jj_doc *items;

  CHECK_EQ_INT(jj_cursor_next(c, &e), 1);
  CHECK_EQ_INT(jj_cursor_row(c), 1);
  CHECK_EQ_INT(jj_cursor_int(c, 0, &i, &e), 1);
  CHECK_EQ_INT(i, 1);
  CHECK_EQ_INT(jj_cursor_text(c, 1, &p, &n, &e), 1);
  CHECK_EQ_MEM(p, n, "caf\xc3\xa9", 5);
  CHECK_EQ_INT(jj_cursor_double(c, 2, &f, &e), 1);
  CHECK(f == 19.99);
  CHECK_EQ_INT(jj_cursor_date(c, 3, &day, &e), 1);
  CHECK_EQ_INT(day, 19783);
  CHECK_EQ_INT(jj_cursor_timestamp(c, 4, &ts, &e), 1);
  CHECK_EQ_INT(ts.seconds, 1709269200);
  CHECK_EQ_INT(ts.nanos, 250000000);
  CHECK_EQ_INT(ts.zone_minutes, 330);
  CHECK_EQ_INT(ts.digits, 2);
  CHECK_EQ_INT(jj_cursor_text(c, 4, &p, &n, &e), 1);
  CHECK_EQ_MEM(p, n, "2024-03-01T10:30:00.25+05:30", 28);
  CHECK_EQ_INT(jj_cursor_bool(c, 5, &b, &e), 1);
  CHECK_EQ_INT(b, 1);
  CHECK_EQ_INT(jj_cursor_bytes(c, 6, &bytes, &n, &e), 1);
  CHECK_EQ_MEM(bytes, n, "\x00\x01\x02\xff", 4);
  CHECK_EQ_INT(jj_cursor_table(c, 7, &items, &e), 1);
  CHECK_EQ_INT(jj_doc_rows(items, &e), 2);
  jj_cursor *ic = jj_cursor_new(items, &e);
  CHECK_EQ_INT(jj_cursor_next(ic, &e), 1);
  CHECK_EQ_INT(jj_cursor_text(ic, 0, &p, &n, &e), 1);
  CHECK_EQ_MEM(p, n, "a-1", 3);
  CHECK_EQ_INT(jj_cursor_int(ic, 1, &i, &e), 1);
  CHECK_EQ_INT(i, 2);
  CHECK_EQ_INT(jj_cursor_next(ic, &e), 1);
  CHECK_EQ_INT(jj_cursor_text(ic, 0, &p, &n, &e), 1);
  CHECK_EQ_MEM(p, n, "b\"2", 3);
  CHECK_EQ_INT(jj_cursor_next(ic, &e), 0);
  jj_cursor_free(ic);
  jj_doc_free(items);

  CHECK_EQ_INT(jj_cursor_next(c, &e), 1);
  CHECK_EQ_INT(jj_cursor_text(c, 1, &p, &n, &e), 0);
  CHECK_EQ_INT(jj_cursor_double(c, 2, &f, &e), 1);
  CHECK(isnan(f));
  CHECK_EQ_INT(jj_cursor_date(c, 3, &day, &e), 0);
  CHECK_EQ_INT(jj_cursor_timestamp(c, 4, &ts, &e), 0);
  CHECK_EQ_INT(jj_cursor_bool(c, 5, &b, &e), 1);
  CHECK_EQ_INT(b, 0);
  CHECK_EQ_INT(jj_cursor_bytes(c, 6, &bytes, &n, &e), 1);
  CHECK_EQ_INT(n, 0);
  CHECK_EQ_INT(jj_cursor_table(c, 7, &items, &e), 1);
  CHECK_EQ_INT(jj_doc_rows(items, &e), 0);
  jj_doc_free(items);

  CHECK_EQ_INT(jj_cursor_next(c, &e), 1);
  CHECK_EQ_INT(jj_cursor_int(c, 0, &i, &e), 1);
  CHECK_EQ_INT(i, -3);
  CHECK_EQ_INT(jj_cursor_text(c, 1, &p, &n, &e), 1);
  CHECK_EQ_MEM(p, n, "tab\there", 8);
  CHECK_EQ_INT(jj_cursor_double(c, 2, &f, &e), 1);
  CHECK(f == 0 && signbit(f));
  CHECK_EQ_INT(jj_cursor_date(c, 3, &day, &e), 1);
  CHECK_EQ_INT(day, -719528);
  CHECK_EQ_INT(jj_cursor_timestamp(c, 4, &ts, &e), 1);
  CHECK_EQ_INT(ts.seconds, 0);
  CHECK_EQ_INT(jj_cursor_bool(c, 5, &b, &e), 0);
  CHECK_EQ_INT(jj_cursor_bytes(c, 6, &bytes, &n, &e), 0);
  CHECK_EQ_INT(jj_cursor_table(c, 7, &items, &e), 0);
  for (size_t col = 5; col < 8; col++) CHECK_EQ_INT(jj_cursor_is_null(c, col), 1);
  CHECK_EQ_INT(jj_cursor_is_null(c, 0), 0);

  CHECK_EQ_INT(jj_cursor_next(c, &e), 0);
  CHECK_EQ_INT(jj_cursor_next(c, &e), 0);
  jj_cursor_free(c);
  CHECK_EQ_INT(jj_doc_rows(d, &e), 3);
  CHECK_EQ_INT(jj_doc_validate(d, &e), JJ_OK);
  jj_doc_free(d);
  d = jj_parse_opts(doc, strlen(doc), JJ_PARSE_VALIDATE, 0, &e);
  CHECK(d != NULL);
  jj_doc_free(d);
}

TEST(cursor_reads_every_type_in_the_canonical_layout) { check_all_types(all_canonical); }

TEST(cursor_reads_a_pretty_printed_document_the_same) { check_all_types(all_pretty); }

TEST(cursor_returns_raw_value_text) {
  jj_error e;
  jj_doc *d = jj_parse(all_canonical, sizeof all_canonical - 1, &e);
  jj_cursor *c = jj_cursor_new(d, &e);
  const char *p = NULL;
  size_t n;
  CHECK_EQ_INT(jj_cursor_next(c, &e), 1);
  CHECK_EQ_INT(jj_cursor_raw(c, 7, &p, &n, &e), 1);
  CHECK_EQ_MEM(p, n, "[[\"a-1\",2],[\"b\\\"2\",1]]", 22);
  CHECK_EQ_INT(jj_cursor_raw(c, 2, &p, &n, &e), 1);
  CHECK_EQ_MEM(p, n, "19.99", 5);
  CHECK_EQ_INT(jj_cursor_next(c, &e), 1);
  p = NULL;
  CHECK_EQ_INT(jj_cursor_raw(c, 1, &p, &n, &e), 0);
  CHECK(p == NULL);
  jj_cursor_free(c);
  jj_doc_free(d);
}

/* ------------------------------------------------------------------ */
/* Text memory                                                         */
/* ------------------------------------------------------------------ */

TEST(cursor_returns_text_without_escapes_as_a_pointer_into_the_input) {
  static const char doc[] =
      "{\"jalapenojson\":1,\"columns\":[\"a\",\"b\"],\"types\":[\"s\",\"s\"],\"rows\":[\n"
      "[\"plain\",\"esc\\u0041ped\"]\n]}";
  jj_error e;
  jj_doc *d = jj_parse(doc, sizeof doc - 1, &e);
  jj_cursor *c = jj_cursor_new(d, &e);
  const char *p, *q;
  size_t n;
  CHECK_EQ_INT(jj_cursor_next(c, &e), 1);
  CHECK_EQ_INT(jj_cursor_text(c, 0, &p, &n, &e), 1);
  CHECK(p == doc + 67);
  CHECK_EQ_MEM(p, n, "plain", 5);
  CHECK_EQ_INT(jj_cursor_text(c, 1, &p, &n, &e), 1);
  CHECK(p < doc || p >= doc + sizeof doc);
  CHECK_EQ_MEM(p, n, "escAped", 7);
  /* read twice in one row: decoded once, same memory */
  CHECK_EQ_INT(jj_cursor_text(c, 1, &q, &n, &e), 1);
  CHECK(q == p);
  jj_cursor_free(c);
  jj_doc_free(d);
}

TEST(cursor_keeps_every_decoded_value_of_a_row_valid_until_it_moves) {
  /* three escaped texts of 3000 bytes each: more than one scratch chunk */
  jj_buf b = {0};
  const char *head =
      "{\"jalapenojson\":1,\"columns\":[\"a\",\"b\",\"c\"],\"types\":[\"s\",\"s\",\"s\"],"
      "\"rows\":[\n";
  jj_buf_append(&b, head, strlen(head));
  for (int row = 0; row < 3; row++) {
    jj_buf_append(&b, row ? ",\n[" : "[", row ? 3 : 1);
    for (int col = 0; col < 3; col++) {
      jj_buf_append(&b, col ? ",\"" : "\"", col ? 2 : 1);
      char ch = (char)('a' + row * 3 + col);
      for (int k = 0; k < 1500; k++) {
        jj_buf_append(&b, &ch, 1);
        jj_buf_append(&b, "\\n", 2);
      }
      jj_buf_append(&b, "\"", 1);
    }
    jj_buf_append(&b, "]", 1);
  }
  jj_buf_append(&b, "\n]}", 3);
  jj_error e;
  jj_doc *d = jj_parse(b.p, b.len, &e);
  jj_cursor *c = jj_cursor_new(d, &e);
  int ok = 1;
  for (int row = 0; row < 3; row++) {
    const char *p[3];
    size_t n[3];
    CHECK_EQ_INT(jj_cursor_next(c, &e), 1);
    for (int col = 0; col < 3; col++) CHECK_EQ_INT(jj_cursor_text(c, (size_t)col, &p[col], &n[col], &e), 1);
    for (int col = 0; col < 3; col++) {
      ok &= n[col] == 3000;
      for (size_t k = 0; k < n[col] && ok; k += 2)
        ok &= p[col][k] == (char)('a' + row * 3 + col) && p[col][k + 1] == '\n';
    }
  }
  CHECK(ok);
  jj_cursor_free(c);
  jj_doc_free(d);
  jj_buf_free(&b);
}

/* ------------------------------------------------------------------ */
/* Seeking and counting                                                */
/* ------------------------------------------------------------------ */

/* 100 rows [k, "r<k>"] for k = 1..100. */
static char *hundred_rows(size_t *len) {
  jj_buf b = {0};
  const char *head =
      "{\"jalapenojson\":1,\"columns\":[\"k\",\"s\"],\"types\":[\"i\",\"s\"],\"count\":100,"
      "\"rows\":[\n";
  jj_buf_append(&b, head, strlen(head));
  for (int k = 1; k <= 100; k++) {
    char row[40];
    int n = snprintf(row, sizeof row, "%s[%d,\"r%d\"]", k > 1 ? ",\n" : "", k, k);
    jj_buf_append(&b, row, (size_t)n);
  }
  jj_buf_append(&b, "\n]}", 3);
  *len = b.len;
  return b.p;
}

/* The k of the cursor's current row, or -1. */
static int64_t key_of(jj_cursor *c) {
  int64_t k = -1;
  jj_error e;
  if (jj_cursor_int(c, 0, &k, &e) != 1) return -1;
  return k;
}

TEST(cursor_seeks_forward_backward_and_past_the_end) {
  size_t len;
  char *doc = hundred_rows(&len);
  jj_error e;
  jj_doc *d = jj_parse(doc, len, &e);
  jj_cursor *c = jj_cursor_new(d, &e);
  CHECK_EQ_INT(jj_cursor_seek(c, 50, &e), 1);
  CHECK_EQ_INT(jj_cursor_row(c), 50);
  CHECK_EQ_INT(key_of(c), 50);
  CHECK_EQ_INT(jj_cursor_seek(c, 3, &e), 1);
  CHECK_EQ_INT(key_of(c), 3);
  CHECK_EQ_INT(jj_cursor_next(c, &e), 1);
  CHECK_EQ_INT(key_of(c), 4);
  CHECK_EQ_INT(jj_cursor_seek(c, 75, &e), 1);
  CHECK_EQ_INT(key_of(c), 75);
  CHECK_EQ_INT(jj_cursor_seek(c, 100, &e), 1);
  CHECK_EQ_INT(key_of(c), 100);
  CHECK_EQ_INT(jj_cursor_next(c, &e), 0);
  CHECK_EQ_INT(jj_cursor_seek(c, 101, &e), 0);
  CHECK_EQ_INT(jj_cursor_seek(c, INT64_MAX, &e), 0);
  CHECK_EQ_INT(jj_cursor_int(c, 0, &(int64_t){0}, &e), -1);
  CHECK_ERROR(&e, JJ_ERR_USAGE, 0, -1, JJ_NO_OFFSET,
              "jj_cursor_int: the cursor is not on a row (it is past the last row)");
  CHECK_EQ_INT(jj_cursor_seek(c, 1, &e), 1);
  CHECK_EQ_INT(key_of(c), 1);
  CHECK_EQ_INT(jj_cursor_seek(c, 0, &e), 0); /* rewinds */
  CHECK_EQ_INT(jj_cursor_row(c), 0);
  CHECK_EQ_INT(jj_cursor_next(c, &e), 1);
  CHECK_EQ_INT(key_of(c), 1);
  jj_cursor_free(c);
  jj_doc_free(d);
  free(doc);
}

TEST(cursor_seek_past_the_end_of_an_unscanned_document) {
  size_t len;
  char *doc = hundred_rows(&len);
  jj_error e;
  jj_doc *d = jj_parse(doc, len, &e);
  jj_cursor *c = jj_cursor_new(d, &e);
  CHECK_EQ_INT(jj_cursor_seek(c, 500, &e), 0);
  CHECK_EQ_INT(jj_doc_rows(d, &e), 100);
  CHECK_EQ_INT(jj_cursor_seek(c, 99, &e), 1);
  CHECK_EQ_INT(key_of(c), 99);
  jj_cursor_free(c);
  jj_doc_free(d);
  free(doc);
}

/* jj_cursor_skip: moves n rows and stands on the last; 0 rows moves
** nothing; at the end it says how many were left; misuse is refused. */
TEST(cursor_skip_moves_n_rows_and_refuses_misuse) {
  size_t len;
  char *doc = hundred_rows(&len);
  jj_error e;
  jj_doc *d = jj_parse(doc, len, &e);
  jj_cursor *c = jj_cursor_new(d, &e);
  CHECK_EQ_INT(jj_cursor_skip(c, 0, &e), 0);
  CHECK_EQ_INT(jj_cursor_row(c), 0);
  CHECK_EQ_INT(jj_cursor_skip(c, 37, &e), 37);
  CHECK_EQ_INT(key_of(c), 37);
  CHECK_EQ_INT(jj_cursor_skip(c, 1000, &e), 63);
  CHECK_EQ_INT(jj_cursor_skip(c, 5, &e), 0);
  CHECK_EQ_INT(jj_cursor_skip(c, -1, &e), -1);
  CHECK_EQ_INT(e.code, JJ_ERR_USAGE);
  CHECK_EQ_STR(e.message, "jj_cursor_skip: n is -1, below 0");
  CHECK_EQ_INT(jj_cursor_skip(NULL, 1, &e), -1);
  CHECK_EQ_INT(e.code, JJ_ERR_USAGE);
  jj_cursor_free(c);
  jj_doc_free(d);
  free(doc);
}

/* jj_cursor_skip over many canonical rows (those jj_rows_check takes
** several at a time, at most 4096 a call): any n, however large, moves
** exactly the rows there are; a second cursor over the indexed rows
** skips the same way; the index they leave finds every row. */
TEST(cursor_skip_passes_many_rows_and_indexes_them) {
  enum { ROWS = 10000 };
  jj_buf b = {0};
  char row[160];
  int n = snprintf(row, sizeof row,
                   "{\"jalapenojson\":1,\"columns\":[\"k\",\"s\"],\"types\":[\"i\",\"s\"],\"count\":%d,"
                   "\"rows\":[\n", ROWS);
  jj_buf_append(&b, row, (size_t)n);
  for (int k = 1; k <= ROWS; k++) {
    n = snprintf(row, sizeof row, "%s[%d,\"%0*d\"]", k > 1 ? ",\n" : "", k, k % 90, k);
    jj_buf_append(&b, row, (size_t)n);
  }
  jj_buf_append(&b, "\n]}", 3);
  jj_error e;
  jj_doc *d = jj_parse(b.p, b.len, &e);
  CHECK(d != NULL);
  if (!d) return;
  jj_cursor *c = jj_cursor_new(d, &e);
  CHECK_EQ_INT(jj_cursor_skip(c, 5, &e), 5);
  CHECK_EQ_INT(key_of(c), 5);
  CHECK_EQ_INT(jj_cursor_skip(c, INT64_MAX, &e), ROWS - 5);
  CHECK_EQ_INT(jj_cursor_row(c), ROWS);
  CHECK_EQ_INT(jj_doc_rows(d, &e), ROWS);
  jj_cursor *c2 = jj_cursor_new(d, &e); /* over rows the index has */
  CHECK_EQ_INT(jj_cursor_skip(c2, 4999, &e), 4999);
  CHECK_EQ_INT(key_of(c2), 4999);
  CHECK_EQ_INT(jj_cursor_skip(c2, 5000, &e), 5000);
  CHECK_EQ_INT(key_of(c2), 9999);
  CHECK_EQ_INT(jj_cursor_skip(c2, 3, &e), 1);
  int bad = 0;
  for (int k = ROWS; k >= 1 && bad < 3; k -= 7)
    if (jj_cursor_seek(c, k, &e) != 1 || key_of(c) != k) bad++;
  CHECK_EQ_INT(bad, 0);
  jj_cursor_free(c2);
  jj_cursor_free(c);
  jj_doc_free(d);
  jj_buf_free(&b);
}

TEST(doc_rows_scans_once_and_answers_from_memory) {
  size_t len;
  char *doc = hundred_rows(&len);
  jj_error e;
  jj_doc *d = jj_parse(doc, len, &e);
  CHECK_EQ_INT(jj_doc_rows(d, &e), 100);
  /* the answer no longer depends on the bytes after the header */
  doc[len - 1] = 'x';
  CHECK_EQ_INT(jj_doc_rows(d, &e), 100);
  doc[len - 1] = '}';
  jj_doc_free(d);
  free(doc);
}

TEST(cursors_on_one_document_share_the_row_index) {
  size_t len;
  char *doc = hundred_rows(&len);
  jj_error e;
  jj_doc *d = jj_parse(doc, len, &e);
  jj_cursor *a = jj_cursor_new(d, &e), *b = jj_cursor_new(d, &e);
  for (int k = 0; k < 60; k++) CHECK_EQ_INT(jj_cursor_next(a, &e), 1);
  /* b finds row 60 through the index a built, then goes on alone */
  CHECK_EQ_INT(jj_cursor_seek(b, 60, &e), 1);
  CHECK_EQ_INT(key_of(b), 60);
  CHECK_EQ_INT(jj_cursor_seek(b, 90, &e), 1);
  CHECK_EQ_INT(jj_cursor_next(a, &e), 1);
  CHECK_EQ_INT(key_of(a), 61);
  CHECK_EQ_INT(key_of(b), 90);
  const char *p;
  size_t n;
  CHECK_EQ_INT(jj_cursor_text(a, 1, &p, &n, &e), 1);
  CHECK_EQ_MEM(p, n, "r61", 3);
  jj_cursor_free(a);
  jj_cursor_free(b);
  jj_doc_free(d);
  free(doc);
}

/* ------------------------------------------------------------------ */
/* Lazy checks                                                         */
/* ------------------------------------------------------------------ */

TEST(cursor_never_checks_a_column_it_does_not_read) {
  static const char doc[] =
      "{\"jalapenojson\":1,\"columns\":[\"k\",\"bad\"],\"types\":[\"i\",\"d\"],\"rows\":[\n"
      "[1,\"2023-02-29\"],\n[2,01]\n]}";
  /*      ^ byte 70 */
  jj_error e;
  jj_doc *d = jj_parse(doc, sizeof doc - 1, &e);
  jj_cursor *c = jj_cursor_new(d, &e);
  int64_t sum = 0, k;
  while (jj_cursor_next(c, &e) == 1) {
    CHECK_EQ_INT(jj_cursor_int(c, 0, &k, &e), 1);
    sum += k;
  }
  CHECK_EQ_INT(sum, 3);
  jj_cursor_free(c);
  CHECK_EQ_INT(jj_doc_validate(d, &e), JJ_ERR_DATE);
  CHECK_ERROR(&e, JJ_ERR_DATE, 1, 1, 70,
              "row 1, column \"bad\", byte 70: \"2023-02-29\" is not a date (2023 is not a leap year)");
  jj_doc_free(d);
}

/* ------------------------------------------------------------------ */
/* Nested tables                                                       */
/* ------------------------------------------------------------------ */

/* orders(id, lines(sku, parts(n))): a table in a table in a table. */
static const char nested2[] =
    "{\"jalapenojson\":1,\"columns\":[\"id\",\"lines\"],\"types\":[\"i\",{\"columns\":"
    "[\"sku\",\"parts\"],\"types\":[\"s\",{\"columns\":[\"n\"],\"types\":[\"i\"]}]}],"
    "\"rows\":[\n"
    "[1,[[\"a\",[[1],[2]]],[\"b\",null]]],\n"
    "[2,[[\"c\",[[3],[\"x\"]]]]]\n"
  /*                  ^ byte 189 */
    "]}";

TEST(cursor_reads_tables_nested_in_tables) {
  jj_error e;
  jj_doc *d = jj_parse(nested2, sizeof nested2 - 1, &e);
  CHECK(d != NULL);
  jj_cursor *c = jj_cursor_new(d, &e);
  jj_doc *lines, *parts;
  CHECK_EQ_INT(jj_cursor_next(c, &e), 1);
  CHECK_EQ_INT(jj_cursor_table(c, 1, &lines, &e), 1);
  CHECK(jj_doc_schema(lines) == jj_schema_table(jj_doc_schema(d), 1));
  size_t n;
  const char *bytes = jj_doc_bytes(lines, &n);
  CHECK_EQ_MEM(bytes, n, "[[\"a\",[[1],[2]]],[\"b\",null]]", 28);
  jj_cursor *lc = jj_cursor_new(lines, &e);
  CHECK_EQ_INT(jj_cursor_seek(lc, 2, &e), 1);
  CHECK_EQ_INT(jj_cursor_table(lc, 1, &parts, &e), 0);
  CHECK_EQ_INT(jj_cursor_seek(lc, 1, &e), 1);
  CHECK_EQ_INT(jj_cursor_table(lc, 1, &parts, &e), 1);
  jj_cursor *pc = jj_cursor_new(parts, &e);
  int64_t sum = 0, v;
  while (jj_cursor_next(pc, &e) == 1 && jj_cursor_int(pc, 0, &v, &e) == 1) sum += v;
  CHECK_EQ_INT(sum, 3);
  jj_cursor_free(pc);
  jj_doc_free(parts);
  jj_cursor_free(lc);
  jj_doc_free(lines);
  jj_cursor_free(c);
  jj_doc_free(d);
}

TEST(cursor_reports_errors_deep_in_nested_tables_with_their_path) {
  /* row 2, column "lines", row 1, column "parts", row 2, column "n" */
  jj_error e;
  jj_doc *d = jj_parse(nested2, sizeof nested2 - 1, &e);
  size_t at = strstr(nested2, "[\"x\"]") - nested2 + 1;
  CHECK_EQ_INT(at, 189); /* see the caret under nested2 */
  CHECK_EQ_INT(jj_doc_validate(d, &e), JJ_ERR_TYPE);
  CHECK_ERROR(&e, JJ_ERR_TYPE, 2, 1, 189,
              "row 2, column \"lines\", row 1, column \"parts\", row 2, column \"n\", "
              "byte 189: expected an integer, found \"x\"");
  jj_doc_free(d);
}

TEST(cursor_limits_the_depth_inside_nested_tables) {
  /* with max_depth 4 a value of "n" may not be an array: the outer value
  ** would nest 5 deep ([lines [line [parts [part [x]]]]]) */
  static const char doc[] =
      "{\"jalapenojson\":1,\"columns\":[\"lines\"],\"types\":[{\"columns\":[\"parts\"],"
      "\"types\":[{\"columns\":[\"n\"],\"types\":[\"i\"]}]}],\"rows\":[\n"
      "[[[[[[1]]]]]]\n]}";
  /*        ^ byte 126 */
  jj_error e;
  jj_doc *d = jj_parse_opts(doc, sizeof doc - 1, 0, 4, &e);
  CHECK(d != NULL);
  CHECK_EQ_INT(jj_doc_rows(d, &e), -1);
  CHECK_ERROR(&e, JJ_ERR_DEPTH, 1, 0, 126,
              "row 1, column \"lines\", byte 126: nesting deeper than the limit");
  jj_doc_free(d);
  d = jj_parse_opts(doc, sizeof doc - 1, 0, 5, &e);
  CHECK_EQ_INT(jj_doc_validate(d, &e), JJ_ERR_TYPE);
  CHECK_ERROR(&e, JJ_ERR_TYPE, 1, 0, 126,
              "row 1, column \"lines\", row 1, column \"parts\", row 1, column \"n\", "
              "byte 126: expected an integer, found an array");
  jj_doc_free(d);
}

/* ------------------------------------------------------------------ */
/* Usage errors                                                        */
/* ------------------------------------------------------------------ */

TEST(cursor_refuses_accessors_that_do_not_fit) {
  jj_error e;
  jj_doc *d = jj_parse(all_canonical, sizeof all_canonical - 1, &e);
  jj_cursor *c = jj_cursor_new(d, &e);
  int64_t i;
  double f;
  const char *p;
  size_t n;
  int b;
  CHECK_EQ_INT(jj_cursor_int(c, 0, &i, &e), -1);
  CHECK_ERROR(&e, JJ_ERR_USAGE, 0, -1, JJ_NO_OFFSET,
              "jj_cursor_int: the cursor is not on a row (call jj_cursor_next first)");
  CHECK_EQ_INT(jj_cursor_is_null(c, 0), -1);
  CHECK_EQ_INT(jj_cursor_next(c, &e), 1);
  CHECK_EQ_INT(jj_cursor_int(c, 1, &i, &e), -1);
  CHECK_ERROR(&e, JJ_ERR_USAGE, 1, 1, JJ_NO_OFFSET,
              "row 1, column \"name\": jj_cursor_int cannot read a text column");
  CHECK_EQ_INT(jj_cursor_double(c, 0, &f, &e), -1);
  CHECK_ERROR(&e, JJ_ERR_USAGE, 1, 0, JJ_NO_OFFSET,
              "row 1, column \"id\": jj_cursor_double cannot read an integer column");
  CHECK_EQ_INT(jj_cursor_text(c, 6, &p, &n, &e), -1);
  CHECK_ERROR(&e, JJ_ERR_USAGE, 1, 6, JJ_NO_OFFSET,
              "row 1, column \"blob\": jj_cursor_text cannot read a bytes column");
  CHECK_EQ_INT(jj_cursor_bool(c, 7, &b, &e), -1);
  CHECK_ERROR(&e, JJ_ERR_USAGE, 1, 7, JJ_NO_OFFSET,
              "row 1, column \"items\": jj_cursor_bool cannot read a nested table column");
  CHECK_EQ_INT(jj_cursor_date(c, 4, &(int32_t){0}, &e), -1);
  CHECK_ERROR(&e, JJ_ERR_USAGE, 1, 4, JJ_NO_OFFSET,
              "row 1, column \"at\": jj_cursor_date cannot read a timestamp column");
  CHECK_EQ_INT(jj_cursor_int(c, 8, &i, &e), -1);
  CHECK_ERROR(&e, JJ_ERR_USAGE, 1, -1, JJ_NO_OFFSET,
              "row 1: jj_cursor_int: column index 8 is out of range (8 columns)");
  CHECK_EQ_INT(jj_cursor_raw(c, 9, &p, &n, &e), -1);
  CHECK_EQ_INT(e.code, JJ_ERR_USAGE);
  CHECK_EQ_INT(jj_cursor_is_null(c, 8), -1);
  jj_cursor_free(c);
  jj_doc_free(d);
}

TEST(cursor_refuses_reads_after_a_failed_move) {
  jj_error e;
  static const char doc[] = ONE("i") "[1],\n[1,2]\n]}";
  jj_doc *d = jj_parse(doc, sizeof doc - 1, &e);
  jj_cursor *c = jj_cursor_new(d, &e);
  int64_t i;
  CHECK_EQ_INT(jj_cursor_next(c, &e), 1);
  CHECK_EQ_INT(jj_cursor_next(c, &e), -1);
  CHECK_EQ_INT(jj_cursor_int(c, 0, &i, &e), -1);
  CHECK_ERROR(&e, JJ_ERR_USAGE, 0, -1, JJ_NO_OFFSET,
              "jj_cursor_int: the cursor is not on a row (its last move failed)");
  CHECK_EQ_INT(jj_cursor_seek(c, 1, &e), 1);
  CHECK_EQ_INT(jj_cursor_int(c, 0, &i, &e), 1);
  CHECK_EQ_INT(jj_cursor_seek(c, 2, &e), -1);
  CHECK_EQ_INT(e.code, JJ_ERR_ROW);
  jj_cursor_free(c);
  jj_doc_free(d);
}

/* ------------------------------------------------------------------ */
/* SPEC.md's worked examples                                           */
/* ------------------------------------------------------------------ */

TEST(spec_worked_examples_fail_as_documented) {
  static const char small[] =
      "{\"jalapenojson\":1,\"columns\":[\"id\",\"user\",\"joined\"],\"types\":[\"i\",\"s\",\"d\"],"
      "\"count\":2,\"rows\":[\n"
      "[1,\"u0042\",\"2024-03-01\"],\n"
      "[2,null,\"2023-02-29\"]\n"
  /*           ^ byte 126 */
      "]}";
  static const char orders[] =
      "{\"jalapenojson\":1,\"columns\":[\"order\",\"placed\",\"lines\"],\"types\":[\"i\",\"t\","
      "{\"columns\":[\"sku\",\"qty\",\"price\"],\"types\":[\"s\",\"i\",\"f\"]}],\"rows\":[\n"
      "[1001,\"2024-03-01T09:15:00Z\",[[\"A-17\",2,9.5],[\"B-02\",\"1\",120.0]]]\n"
  /*                                                              ^ byte 191 */
      "]}";
  jj_error e;
  jj_doc *d = jj_parse(small, sizeof small - 1, &e);
  CHECK_EQ_INT(jj_doc_rows(d, &e), 2);
  CHECK_EQ_INT(jj_doc_validate(d, &e), JJ_ERR_DATE);
  CHECK_ERROR(&e, JJ_ERR_DATE, 2, 2, 126,
              "row 2, column \"joined\", byte 126: \"2023-02-29\" is not a date"
              " (2023 is not a leap year)");
  jj_doc_free(d);
  d = jj_parse(orders, sizeof orders - 1, &e);
  CHECK_EQ_INT(jj_doc_validate(d, &e), JJ_ERR_TYPE);
  CHECK_ERROR(&e, JJ_ERR_TYPE, 1, 2, 191,
              "row 1, column \"lines\", row 2, column \"qty\", byte 191: expected an integer,"
              " found \"1\"");
  jj_doc_free(d);
}

/* ------------------------------------------------------------------ */
/* Scratch memory reused from row to row                              */
/* ------------------------------------------------------------------ */

/* One row of three escaped texts of lens[col] bytes each when decoded
** (`x\n` pairs, x naming the row and column). */
static void escaped_row(jj_buf *b, int first, int row, const size_t lens[3]) {
  jj_buf_append(b, first ? "[" : ",\n[", first ? 1 : 3);
  for (int col = 0; col < 3; col++) {
    jj_buf_append(b, col ? ",\"" : "\"", col ? 2 : 1);
    char ch = (char)('a' + (row * 3 + col) % 26);
    for (size_t k = 0; k < lens[col] / 2; k++) {
      jj_buf_append(b, &ch, 1);
      jj_buf_append(b, "\\n", 2);
    }
    jj_buf_append(b, "\"", 1);
  }
  jj_buf_append(b, "]", 1);
}

/* Moving empties the scratch chunks (they are emptied as they are reached
** again, doc.h): rows of the same shape decode into the same bytes, the
** second and later chunks included; a row that needs a bigger chunk gets
** one appended, and the rows after it go back to the first chunks; every
** value stays right while its row is read. */
TEST(cursor_reuses_its_scratch_memory_from_row_to_row) {
  /* decoded lengths; a text asks for its escaped length, 1.5 times as
  ** much (value.c): 3000 asks for 4500 */
  static const size_t shapes[][3] = {
      {3000, 3000, 3000},   /* 4500 in chunk A (4500), two in B (9000) */
      {3000, 3000, 3000},   /* the same bytes again */
      {1000, 1000, 1000},   /* 1500 each: all in A */
      {3000, 3000, 3000},   /* as row 1: B emptied when reached */
      {3000, 9000, 20000},  /* A; 13500 fits neither A nor B: C (18000) is
                            ** made; 30000 fits no chunk: D (36000) */
      {3000, 3000, 3000},   /* as row 1 */
      {4000, 8000, 16000},  /* 6000 in B, 12000 in C, 24000 in D, each
                            ** emptied when reached */
      {4000, 8000, 16000}}; /* as row 7 */
  enum { ROWS = sizeof shapes / sizeof *shapes };
  jj_buf b = {0};
  const char *head =
      "{\"jalapenojson\":1,\"columns\":[\"a\",\"b\",\"c\"],\"types\":[\"s\",\"s\",\"s\"],"
      "\"rows\":[\n";
  jj_buf_append(&b, head, strlen(head));
  for (int row = 0; row < ROWS; row++) escaped_row(&b, row == 0, row, shapes[row]);
  jj_buf_append(&b, "\n]}", 3);
  jj_error e;
  jj_doc *d = jj_parse(b.p, b.len, &e);
  jj_cursor *c = jj_cursor_new(d, &e);
  const char *at[ROWS][3];
  int ok = 1;
  for (int row = 0; row < ROWS; row++) {
    size_t n[3];
    CHECK_EQ_INT(jj_cursor_next(c, &e), 1);
    for (int col = 0; col < 3; col++)
      CHECK_EQ_INT(jj_cursor_text(c, (size_t)col, &at[row][col], &n[col], &e), 1);
    for (int col = 0; col < 3; col++) {
      const char ch = (char)('a' + (row * 3 + col) % 26);
      ok &= n[col] == shapes[row][col];
      for (size_t k = 0; k < n[col] && ok; k += 2)
        ok &= at[row][col][k] == ch && at[row][col][k + 1] == '\n';
    }
  }
  CHECK(ok);
  /* the same shape, the same bytes (chunk by chunk) */
  for (int col = 0; col < 3; col++) {
    CHECK(at[1][col] == at[0][col]);
    CHECK(at[3][col] == at[0][col]);
    CHECK(at[5][col] == at[0][col]);
    CHECK(at[7][col] == at[6][col]);
  }
  CHECK(at[0][2] == at[0][1] + 4500);
  CHECK(at[2][0] == at[0][0] && at[2][1] == at[0][0] + 1500 && at[2][2] == at[0][0] + 3000);
  CHECK(at[4][0] == at[0][0]);
  CHECK(at[6][0] == at[0][1] && at[6][1] == at[4][1] && at[6][2] == at[4][2]);
  jj_cursor_free(c);
  jj_doc_free(d);
  jj_buf_free(&b);
}

int main(void) {
  RUN(cursor_reads_every_type_in_the_canonical_layout);
  RUN(cursor_reads_a_pretty_printed_document_the_same);
  RUN(cursor_returns_raw_value_text);
  RUN(cursor_returns_text_without_escapes_as_a_pointer_into_the_input);
  RUN(cursor_keeps_every_decoded_value_of_a_row_valid_until_it_moves);
  RUN(cursor_seeks_forward_backward_and_past_the_end);
  RUN(cursor_seek_past_the_end_of_an_unscanned_document);
  RUN(cursor_skip_moves_n_rows_and_refuses_misuse);
  RUN(cursor_skip_passes_many_rows_and_indexes_them);
  RUN(doc_rows_scans_once_and_answers_from_memory);
  RUN(cursors_on_one_document_share_the_row_index);
  RUN(cursor_never_checks_a_column_it_does_not_read);
  RUN(cursor_reads_tables_nested_in_tables);
  RUN(cursor_reports_errors_deep_in_nested_tables_with_their_path);
  RUN(cursor_limits_the_depth_inside_nested_tables);
  RUN(cursor_refuses_accessors_that_do_not_fit);
  RUN(cursor_refuses_reads_after_a_failed_move);
  RUN(spec_worked_examples_fail_as_documented);
  RUN(cursor_reuses_its_scratch_memory_from_row_to_row);
  return test_summary("cursor");
}
