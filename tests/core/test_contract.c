/*
** test_contract.c — what core/jalapenojson.h promises for NULL and for
** misuse, declaration by declaration (errors, schemas, reading, calendar,
** writing): the value answered for a NULL handle, JJ_ERR_USAGE where the
** call takes a jj_error, the static "no writer" error, and err == NULL
** accepted everywhere.  Under ASan+UBSan (make test runs it there too) a
** NULL that is dereferenced fails the run.
*/
#include <stdlib.h>

#include "jalapenojson.h"
#include "test.h"

static const char DOC[] =
    "{\"jalapenojson\":1,\"columns\":[\"n\",\"s\",\"t\"],"
    "\"types\":[\"i\",\"s\",{\"columns\":[\"k\"],\"types\":[\"b\"]}],"
    "\"rows\":[\n[1,\"a\",[[true]]],\n[null,null,null]\n]}";

/* err says JJ_ERR_USAGE and has a message. */
#define CHECK_USAGE(e)                    \
  do {                                    \
    CHECK_EQ_INT((e).code, JJ_ERR_USAGE); \
    CHECK((e).message[0] != '\0');        \
  } while (0)

static int sink_ok(void *ctx, const char *data, size_t len) {
  (void)ctx;
  (void)data;
  (void)len;
  return 0;
}

TEST(errors_and_free) {
  CHECK_EQ_STR(jj_code_name(JJ_OK), "ok");
  CHECK_EQ_STR(jj_code_name(JJ_ERR_DATE), "date");
  CHECK_EQ_STR(jj_code_name(JJ_ERR_NOMEM), "out of memory");
  CHECK_EQ_STR(jj_code_name(JJ_ERR_LIMIT), "limit");
  CHECK_EQ_STR(jj_code_name(JJ_ERR_INTERRUPTED), "interrupted");
  CHECK_EQ_STR(jj_code_name((jj_code)(JJ_ERR_INTERRUPTED + 1)), "unknown");
  CHECK_EQ_STR(jj_code_name((jj_code)1000), "unknown");
  CHECK_EQ_STR(jj_code_name((jj_code)-1), "unknown");
  jj_free(NULL);
}

TEST(schema_null) {
  size_t len = 7, column = 7;
  CHECK_EQ_INT(jj_schema_columns(NULL), 0);
  CHECK(jj_schema_name(NULL, 0, &len) == NULL);
  CHECK_EQ_INT(len, 7);
  CHECK_EQ_INT(jj_schema_type(NULL, 0), 0);
  CHECK(jj_schema_table(NULL, 0) == NULL);
  CHECK_EQ_INT(jj_schema_find(NULL, "a", 1), -1);
  CHECK_EQ_INT(jj_schema_equal(NULL, NULL, &column), 1);
  jj_schema *s = jj_schema_new();
  CHECK(s != NULL);
  CHECK_EQ_INT(jj_schema_equal(s, NULL, &column), 0);
  CHECK_EQ_INT(column, 0);
  CHECK_EQ_INT(jj_schema_find(s, NULL, 0), -1);
  CHECK(jj_schema_copy(NULL) == NULL);
  CHECK(jj_schema_to_json(NULL, &len) == NULL);
  jj_schema_free(NULL);

  jj_error err;
  CHECK_EQ_INT(jj_schema_add(NULL, "a", 1, JJ_INT, NULL, &err), JJ_ERR_USAGE);
  CHECK_USAGE(err);
  CHECK_EQ_INT(jj_schema_add(s, NULL, 1, JJ_INT, NULL, &err), JJ_ERR_USAGE);
  CHECK_EQ_INT(jj_schema_add(s, NULL, 0, JJ_INT, NULL, &err), JJ_ERR_SCHEMA);
  CHECK_EQ_INT(jj_schema_add(s, "a", 1, (jj_type)'q', NULL, NULL),
               JJ_ERR_USAGE);
  CHECK_EQ_INT(jj_schema_add(s, "t", 1, JJ_TABLE, NULL, NULL), JJ_ERR_USAGE);
  /* a nested schema is owned by s even when the add fails (no leak) */
  jj_schema *t = jj_schema_new();
  CHECK_EQ_INT(jj_schema_add(s, "i", 1, JJ_INT, t, NULL), JJ_ERR_USAGE);
  t = jj_schema_new();
  CHECK_EQ_INT(jj_schema_add(NULL, "t", 1, JJ_TABLE, t, NULL), JJ_ERR_USAGE);
  CHECK_EQ_INT(jj_schema_columns(s), 0); /* unchanged by the failures */
  CHECK_EQ_INT(jj_schema_add(s, "a", 1, JJ_INT, NULL, NULL), JJ_OK);
  CHECK(jj_schema_name(s, 1, NULL) == NULL);
  CHECK_EQ_STR(jj_schema_name(s, 0, NULL), "a");
  jj_schema_free(s);
}

TEST(parse_null) {
  jj_error err;
  CHECK(jj_parse(NULL, 0, &err) == NULL);
  CHECK_EQ_INT(err.code, JJ_ERR_SYNTAX);
  CHECK(jj_parse(NULL, 5, &err) == NULL);
  CHECK_USAGE(err);
  CHECK(jj_parse(NULL, 5, NULL) == NULL);
  CHECK(jj_parse_opts(NULL, 5, JJ_PARSE_VALIDATE, 0, &err) == NULL);
  CHECK_USAGE(err);
  jj_doc_free(NULL);
}

TEST(doc_null) {
  jj_error err;
  size_t len = 7;
  CHECK(jj_doc_schema(NULL) == NULL);
  CHECK_EQ_INT(jj_doc_declared_count(NULL), -1);
  CHECK_EQ_INT(jj_doc_rows(NULL, &err), -1);
  CHECK_USAGE(err);
  CHECK_EQ_INT(jj_doc_rows(NULL, NULL), -1);
  CHECK_EQ_INT(jj_doc_validate(NULL, &err), JJ_ERR_USAGE);
  CHECK_USAGE(err);
  CHECK_EQ_INT(jj_doc_validate(NULL, NULL), JJ_ERR_USAGE);
  CHECK(jj_doc_bytes(NULL, &len) == NULL);
  CHECK_EQ_INT(len, 7);
}

TEST(cursor_null) {
  jj_error err;
  int64_t i = 7;
  double d = 7;
  int b = 7;
  int32_t days = 7;
  jj_timestamp ts;
  const char *p = NULL;
  const unsigned char *bp = NULL;
  size_t len = 0;
  jj_doc *sub = NULL;
  CHECK(jj_cursor_new(NULL, &err) == NULL);
  CHECK_USAGE(err);
  CHECK(jj_cursor_new(NULL, NULL) == NULL);
  jj_cursor_free(NULL);
  CHECK_EQ_INT(jj_cursor_next(NULL, &err), -1);
  CHECK_USAGE(err);
  CHECK_EQ_INT(jj_cursor_next(NULL, NULL), -1);
  CHECK_EQ_INT(jj_cursor_seek(NULL, 1, &err), -1);
  CHECK_USAGE(err);
  CHECK_EQ_INT(jj_cursor_row(NULL), 0);
  CHECK(jj_cursor_doc(NULL) == NULL);
  CHECK_EQ_INT(jj_cursor_is_null(NULL, 0), -1);
  CHECK_EQ_INT(jj_cursor_int(NULL, 0, &i, &err), -1);
  CHECK_USAGE(err);
  CHECK_EQ_INT(jj_cursor_int(NULL, 0, &i, NULL), -1);
  CHECK_EQ_INT(jj_cursor_double(NULL, 0, &d, &err), -1);
  CHECK_USAGE(err);
  CHECK_EQ_INT(jj_cursor_bool(NULL, 0, &b, &err), -1);
  CHECK_USAGE(err);
  CHECK_EQ_INT(jj_cursor_text(NULL, 0, &p, &len, &err), -1);
  CHECK_USAGE(err);
  CHECK_EQ_INT(jj_cursor_date(NULL, 0, &days, &err), -1);
  CHECK_USAGE(err);
  CHECK_EQ_INT(jj_cursor_timestamp(NULL, 0, &ts, &err), -1);
  CHECK_USAGE(err);
  CHECK_EQ_INT(jj_cursor_bytes(NULL, 0, &bp, &len, &err), -1);
  CHECK_USAGE(err);
  CHECK_EQ_INT(jj_cursor_table(NULL, 0, &sub, &err), -1);
  CHECK_USAGE(err);
  CHECK_EQ_INT(jj_cursor_raw(NULL, 0, &p, &len, &err), -1);
  CHECK_USAGE(err);
  CHECK_EQ_INT(jj_cursor_object(NULL, sink_ok, NULL, &err), JJ_ERR_USAGE);
  CHECK_USAGE(err);
  CHECK_EQ_INT(jj_cursor_object(NULL, sink_ok, NULL, NULL), JJ_ERR_USAGE);
  CHECK_EQ_INT(i, 7);
  CHECK(d == 7);
  CHECK_EQ_INT(b, 7);
  CHECK_EQ_INT(days, 7);
}

TEST(cursor_misuse) {
  jj_error err;
  int64_t i = 7;
  jj_doc *doc = jj_parse(DOC, sizeof DOC - 1, &err);
  CHECK(doc != NULL);
  if (!doc) return;
  jj_cursor *c = jj_cursor_new(doc, &err);
  CHECK(c != NULL);
  /* before the first row */
  CHECK_EQ_INT(jj_cursor_is_null(c, 0), -1);
  CHECK_EQ_INT(jj_cursor_int(c, 0, &i, &err), -1);
  CHECK_USAGE(err);
  CHECK_EQ_INT(jj_cursor_object(c, sink_ok, NULL, &err), JJ_ERR_USAGE);
  CHECK_EQ_INT(jj_cursor_next(c, &err), 1);
  CHECK_EQ_INT(jj_cursor_is_null(c, 0), 0);
  CHECK_EQ_INT(jj_cursor_int(c, 0, &i, &err), 1);
  CHECK_EQ_INT(jj_cursor_is_null(c, 3), -1);
  CHECK_EQ_INT(jj_cursor_int(c, 3, &i, &err), -1); /* out of range */
  CHECK_USAGE(err);
  CHECK_EQ_INT(jj_cursor_int(c, 1, &i, NULL), -1); /* a text column */
  CHECK_EQ_INT(jj_cursor_object(c, NULL, NULL, &err), JJ_ERR_USAGE);
  CHECK_USAGE(err);
  CHECK_EQ_INT(jj_cursor_object(c, sink_ok, NULL, NULL), JJ_OK);
  /* a nested table outlives the cursor, not the document */
  jj_doc *sub = NULL;
  CHECK_EQ_INT(jj_cursor_table(c, 2, &sub, &err), 1);
  CHECK_EQ_INT(jj_cursor_next(c, &err), 1);
  CHECK_EQ_INT(jj_cursor_is_null(c, 0), 1);
  CHECK_EQ_INT(jj_cursor_int(c, 0, &i, &err), 0);
  CHECK_EQ_INT(i, 1); /* untouched by the null */
  CHECK_EQ_INT(jj_cursor_next(c, &err), 0);
  CHECK_EQ_INT(jj_cursor_next(c, &err), 0); /* again 0 */
  CHECK_EQ_INT(jj_cursor_is_null(c, 0), -1);
  CHECK_EQ_INT(jj_cursor_seek(c, 0, &err), 0);
  CHECK_EQ_INT(jj_cursor_row(c), 0);
  jj_cursor_free(c);
  CHECK_EQ_INT(jj_doc_rows(sub, &err), 1);
  CHECK_EQ_INT(jj_doc_validate(sub, &err), JJ_OK);
  jj_doc_free(sub);
  jj_doc_free(doc);
}

TEST(calendar) {
  jj_error err;
  int32_t days = 7;
  char out[40] = "untouched";
  CHECK_EQ_INT(jj_date_parse(NULL, 0, &days, &err), JJ_ERR_DATE);
  CHECK_EQ_INT(jj_date_parse("2024-02-29", 10, NULL, NULL), JJ_OK);
  CHECK_EQ_INT(jj_date_parse("2023-02-29", 10, &days, NULL), JJ_ERR_DATE);
  CHECK_EQ_INT(days, 7);
  CHECK_EQ_INT(jj_timestamp_parse(NULL, 0, NULL, &err), JJ_ERR_TIMESTAMP);
  CHECK_EQ_INT(jj_timestamp_parse("2024-02-29T12:00:00Z", 20, NULL, NULL),
               JJ_OK);
  CHECK_EQ_INT(jj_date_format(INT32_MAX, out), JJ_ERR_DATE);
  CHECK_EQ_STR(out, "untouched");
  jj_timestamp ts = {0, -1, 0, 0};
  CHECK_EQ_INT(jj_timestamp_format(&ts, out), 0);
  CHECK_EQ_STR(out, "untouched");
}

TEST(writer_null) {
  jj_error err;
  size_t len = 7;
  CHECK(jj_writer_new(NULL, NULL, NULL, &err) == NULL);
  CHECK_USAGE(err);
  CHECK(jj_writer_new(NULL, NULL, NULL, NULL) == NULL);
  jj_schema *empty = jj_schema_new();
  CHECK(jj_writer_new(empty, NULL, NULL, &err) == NULL);
  CHECK_USAGE(err);
  jj_schema_free(empty);
  CHECK(jj_writer_new_alloc(NULL, NULL, &err) == NULL);
  CHECK_USAGE(err);
  CHECK_EQ_INT(jj_writer_rows(NULL), -1);
  CHECK_EQ_U64(jj_writer_length(NULL), 0);
  CHECK(jj_writer_take(NULL, &len) == NULL);
  CHECK_EQ_INT(len, 7);
  const jj_error *e = jj_writer_error(NULL);
  CHECK(e != NULL);
  if (e) {
    CHECK_EQ_INT(e->code, JJ_ERR_USAGE);
    CHECK_EQ_STR(e->message, "no writer");
    CHECK_EQ_INT(e->row, 0);
    CHECK_EQ_INT(e->column, -1);
    CHECK(e->offset == JJ_NO_OFFSET);
  }
  jj_writer_free(NULL);
}

TEST(writer_after_error) {
  jj_schema *s = jj_schema_new();
  CHECK_EQ_INT(jj_schema_add(s, "n", 1, JJ_INT, NULL, NULL), JJ_OK);
  jj_writer *w = jj_writer_new(s, NULL, NULL, NULL);
  CHECK(w != NULL);
  if (!w) return;
  CHECK_EQ_INT(jj_writer_error(w)->code, JJ_OK);
  CHECK_EQ_INT(jj_writer_rows(w), 0);
  CHECK(jj_writer_take(w, NULL) == NULL); /* not finished */
  CHECK_EQ_INT(jj_writer_copy(w, NULL, 0), JJ_ERR_USAGE);
  /* every later call returns the same code */
  CHECK_EQ_INT(jj_writer_int(w, 1), JJ_ERR_USAGE);
  CHECK_EQ_INT(jj_writer_end_row(w), JJ_ERR_USAGE);
  CHECK_EQ_INT(jj_writer_set_meta(w, "1", 1), JJ_ERR_USAGE);
  CHECK_EQ_INT(jj_writer_finish(w), JJ_ERR_USAGE);
  CHECK(jj_writer_take(w, NULL) == NULL);
  CHECK_EQ_INT(jj_writer_error(w)->code, JJ_ERR_USAGE);
  jj_writer_free(w);

  w = jj_writer_new(s, NULL, NULL, NULL);
  CHECK_EQ_INT(jj_writer_copy_rows(w, NULL), JJ_ERR_USAGE);
  jj_writer_free(w);

  w = jj_writer_new(s, NULL, NULL, NULL);
  CHECK_EQ_INT(jj_writer_set_meta(w, NULL, 0), JJ_ERR_SYNTAX);
  jj_writer_free(w);

  /* taken once, then nothing to take */
  w = jj_writer_new(s, NULL, NULL, NULL);
  CHECK_EQ_INT(jj_writer_text(w, NULL, 0), JJ_ERR_USAGE); /* an int column */
  jj_writer_free(w);
  w = jj_writer_new(s, NULL, NULL, NULL);
  CHECK_EQ_INT(jj_writer_int(w, 5), JJ_OK);
  CHECK_EQ_INT(jj_writer_end_row(w), JJ_OK);
  CHECK_EQ_INT(jj_writer_rows(w), 1);
  CHECK_EQ_INT(jj_writer_finish(w), JJ_OK);
  CHECK_EQ_INT(jj_writer_finish(w), JJ_ERR_USAGE);
  jj_writer_free(w);
  w = jj_writer_new(s, NULL, NULL, NULL);
  CHECK_EQ_INT(jj_writer_finish(w), JJ_OK);
  char *doc = jj_writer_take(w, NULL);
  CHECK(doc != NULL);
  CHECK(jj_writer_take(w, NULL) == NULL);
  jj_free(doc);
  jj_writer_free(w);
  /* a sink writer has nothing to take */
  w = jj_writer_new(s, sink_ok, NULL, NULL);
  CHECK_EQ_INT(jj_writer_finish(w), JJ_OK);
  CHECK(jj_writer_take(w, NULL) == NULL);
  jj_writer_free(w);
  jj_schema_free(s);
}

TEST(writer_empty_inputs) {
  jj_schema *s = jj_schema_new();
  CHECK_EQ_INT(jj_schema_add(s, "s", 1, JJ_TEXT, NULL, NULL), JJ_OK);
  CHECK_EQ_INT(jj_schema_add(s, "x", 1, JJ_BYTES, NULL, NULL), JJ_OK);
  jj_writer *w = jj_writer_new(s, NULL, NULL, NULL);
  CHECK_EQ_INT(jj_writer_text(w, NULL, 0), JJ_OK);
  CHECK_EQ_INT(jj_writer_bytes(w, NULL, 0), JJ_OK);
  CHECK_EQ_INT(jj_writer_end_row(w), JJ_OK);
  CHECK_EQ_INT(jj_writer_finish(w), JJ_OK);
  size_t len = 0;
  char *doc = jj_writer_take(w, &len);
  CHECK_EQ_STR(doc,
               "{\"jalapenojson\":1,\"columns\":[\"s\",\"x\"],"
               "\"types\":[\"s\",\"x\"],\"rows\":[\n[\"\",\"\"]\n]}");
  jj_free(doc);
  jj_writer_free(w);
  jj_schema_free(s);
}

int main(void) {
  RUN(errors_and_free);
  RUN(schema_null);
  RUN(parse_null);
  RUN(doc_null);
  RUN(cursor_null);
  RUN(cursor_misuse);
  RUN(calendar);
  RUN(writer_null);
  RUN(writer_after_error);
  RUN(writer_empty_inputs);
  return test_summary("contract");
}
