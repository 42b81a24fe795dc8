/*
** test_infer_local.c — local timestamps (l) through the converter and the
** row builder: the kinds (the T form, SQLite's space form written with the
** T and told), the lattice with dates and zoned timestamps (text, told),
** an explicit t taking a zone-less value as UTC (told once per column), an
** explicit l refusing a zone with the calendar's words, nested tables, the
** reader and writer on the way, and the export back to CSV and JSON.
*/
#include "test_convert.h"

/* Expect a conversion to succeed with this body and notes containing
** `note` ("": no note about a column). */
static void conv_is(const char *text, const char *schema, const char *want, const char *note) {
  conv_out o;
  conv(text, schema, 0, &o);
  if (o.code) fprintf(stderr, "     error: %s\n", o.err.message);
  CHECK_EQ_INT(o.code, JJ_OK);
  CHECK_EQ_STR(body(&o), want);
  if (*note)
    CHECK(strstr(o.notes.p, note) != NULL);
  else
    CHECK(strstr(o.notes.p, "column ") == NULL);
  conv_free(&o);
}

TEST(converter_infers_l_from_both_forms) {
  conv_is("{\"a\":\"2024-03-01T10:30:00\"}\n{\"a\":\"2024-03-01T23:59:59.5\"}", NULL,
          "\"columns\":[\"a\"],\"types\":[\"l\"],\"rows\":[\n[\"2024-03-01T10:30:00\"],\n"
          "[\"2024-03-01T23:59:59.5\"]\n]}",
          "");
  conv_is("{\"a\":\"2024-03-01 10:30:00\"}\n{\"a\":\"2024-03-01T23:59:59.500\"}", NULL,
          "\"columns\":[\"a\"],\"types\":[\"l\"],\"rows\":[\n[\"2024-03-01T10:30:00\"],\n"
          "[\"2024-03-01T23:59:59.500\"]\n]}",
          "column \"a\": local timestamps (row 2, \"2024-03-01T23:59:59.500\"), local "
          "timestamps with a space for the T (row 1, \"2024-03-01 10:30:00\") -> l (written "
          "with T for the space)");
  /* CSV: SQLite's datetime() output */
  conv_is("id,at\n1,2024-03-01 10:30:00\n2,\n", NULL,
          "\"columns\":[\"id\",\"at\"],\"types\":[\"i\",\"l\"],\"rows\":[\n[1,\"2024-03-01T10:30:00\"],\n"
          "[2,null]\n]}",
          "-> l (written with T for the space)");
}

TEST(converter_lattice_of_dates_and_both_timestamps) {
  conv_is("{\"a\":\"2024-03-01T10:30:00\"}\n{\"a\":\"2024-03-01T10:30:00Z\"}", NULL,
          "\"columns\":[\"a\"],\"types\":[\"s\"],\"rows\":[\n[\"2024-03-01T10:30:00\"],\n"
          "[\"2024-03-01T10:30:00Z\"]\n]}",
          "column \"a\": timestamps (row 2, \"2024-03-01T10:30:00Z\"), local timestamps (row 1, "
          "\"2024-03-01T10:30:00\") -> s (timestamps with and without a zone: no one instant "
          "for both)");
  /* text kept as written in a text column: the space stays */
  conv_is("{\"a\":\"2024-03-01\"}\n{\"a\":\"2024-03-01 10:30:00\"}", NULL,
          "\"columns\":[\"a\"],\"types\":[\"s\"],\"rows\":[\n[\"2024-03-01\"],\n"
          "[\"2024-03-01 10:30:00\"]\n]}",
          "column \"a\": dates (row 1, \"2024-03-01\"), local timestamps with a space for the T "
          "(row 2, \"2024-03-01 10:30:00\") -> s");
  conv_is("{\"a\":\"2024-03-01T10:30:00\"}\n{\"a\":\"x\"}", NULL,
          "\"columns\":[\"a\"],\"types\":[\"s\"],\"rows\":[\n[\"2024-03-01T10:30:00\"],\n[\"x\"]\n]}",
          "-> s");
  /* not a local timestamp: the shapes that stay text */
  conv_is("{\"a\":\"2024-03-01T24:00:00\"}", NULL,
          "\"columns\":[\"a\"],\"types\":[\"s\"],\"rows\":[\n[\"2024-03-01T24:00:00\"]\n]}",
          "timestamp-like text that is not an RFC 3339 timestamp");
}

TEST(converter_explicit_t_takes_no_zone_as_utc_and_l_refuses_a_zone) {
  conv_is("{\"a\":\"2024-03-01 10:30:00.25\"}\n{\"a\":\"2024-03-01T10:30:00\"}\n"
          "{\"a\":\"2024-03-01T10:30:00+01:00\"}",
          "a:t",
          "\"columns\":[\"a\"],\"types\":[\"t\"],\"rows\":[\n[\"2024-03-01T10:30:00.25Z\"],\n"
          "[\"2024-03-01T10:30:00Z\"],\n[\"2024-03-01T10:30:00+01:00\"]\n]}",
          "column \"a\": \"2024-03-01 10:30:00.25\" has no zone, taken as UTC with every "
          "zone-less value of the column (the schema says t; SQLite's datetime() writes UTC)");
  conv_out o;
  conv("{\"a\":\"2024-03-01 10:00:00\"}\n{\"a\":\"2024-03-01T10:00:00\"}", "a:t", 0, &o);
  const char *first = strstr(o.notes.p, "taken as UTC");
  CHECK(first && !strstr(first + 1, "taken as UTC")); /* once per column */
  conv_free(&o);
  conv_is("{\"a\":\"2024-03-01 10:30:00\"}", "a:l",
          "\"columns\":[\"a\"],\"types\":[\"l\"],\"rows\":[\n[\"2024-03-01T10:30:00\"]\n]}", "");
  CHECK_CONV_ERR("{\"a\":\"2024-03-01T10:30:00Z\"}", "a:l", 0, JJ_ERR_TIMESTAMP,
                 "in: row 1, column \"a\", byte 5: \"2024-03-01T10:30:00Z\" is not a local "
                 "timestamp (a local timestamp has no zone; the schema says a:l)");
  CHECK_CONV_ERR("{\"a\":\"2023-02-29 10:30:00\"}", "a:l", 0, JJ_ERR_TIMESTAMP,
                 "in: row 1, column \"a\", byte 5: \"2023-02-29 10:30:00\" is not a local "
                 "timestamp (2023 is not a leap year; the schema says a:l)");
  /* bad values made null, counted */
  conv("{\"a\":\"2024-03-01T10:30:00Z\"}\n{\"a\":\"2024-03-01T10:30:00\"}", "a:l",
       JJ_CONVERT_BAD_TO_NULL, &o);
  CHECK_EQ_INT(o.code, JJ_OK);
  CHECK_EQ_STR(body(&o), "\"columns\":[\"a\"],\"types\":[\"l\"],\"rows\":[\n[null],\n"
                         "[\"2024-03-01T10:30:00\"]\n]}");
  CHECK(strstr(o.notes.p, "1 value that did not fit the schema's l became null") != NULL);
  conv_free(&o);
}

TEST(converter_nested_tables_of_local_timestamps) {
  conv_is("[{\"o\":1,\"items\":[{\"at\":\"2024-03-01 10:30:00\"},{\"at\":\"2024-03-02T00:00:00.5\"}]}]",
          NULL,
          "\"columns\":[\"o\",\"items\"],\"types\":[\"i\",{\"columns\":[\"at\"],\"types\":[\"l\"]}],"
          "\"rows\":[\n[1,[[\"2024-03-01T10:30:00\"],[\"2024-03-02T00:00:00.5\"]]]\n]}",
          "column \"items\".\"at\": ");
}

/* Build from values with the builder; the document or NULL. */
static char *build(const char *schema, tbuf *notes, jj_error *err, int (*give)(jj_builder *)) {
  jj_build_opts bo;
  memset(&bo, 0, sizeof bo);
  bo.schema = schema;
  bo.note = tbuf_note;
  bo.note_ctx = notes;
  jj_builder *b = jj_builder_new(&bo, err);
  char *doc = NULL;
  size_t len;
  if (b && give(b) == 0 && jj_builder_finish(b, NULL, NULL, NULL) == JJ_OK)
    doc = jj_builder_take(b, &len);
  else if (b)
    *err = *jj_builder_error(b);
  jj_builder_free(b);
  if (!notes->p) tbuf_sink(notes, "", 0);
  return doc;
}

static int give_values(jj_builder *b) {
  jj_timestamp ts = {19783LL * 86400 + 37800, 250000000, 0, 2}; /* 2024-03-01T10:30:00.25 */
  int rc = 0;
  rc |= jj_builder_key(b, "a", 1) || jj_builder_local_timestamp(b, &ts) || jj_builder_end_row(b);
  rc |= jj_builder_key(b, "a", 1) || jj_builder_text(b, "2024-03-01 11:00:00", 19) ||
        jj_builder_end_row(b);
  return rc;
}

TEST(builder_local_timestamps_inferred_forced_and_refused) {
  tbuf notes = {0};
  jj_error err;
  char *doc = build(NULL, &notes, &err, give_values);
  CHECK(doc != NULL);
  if (doc)
    CHECK_EQ_STR(doc, "{\"jalapenojson\":1,\"columns\":[\"a\"],\"types\":[\"l\"],\"rows\":[\n"
                      "[\"2024-03-01T10:30:00.25\"],\n[\"2024-03-01T11:00:00\"]\n]}");
  CHECK(strstr(notes.p, "-> l (written with T for the space)") != NULL);
  jj_free(doc);
  tbuf_free(&notes);
  doc = build("a:t", &notes, &err, give_values);
  CHECK(doc != NULL);
  if (doc)
    CHECK_EQ_STR(doc, "{\"jalapenojson\":1,\"columns\":[\"a\"],\"types\":[\"t\"],\"rows\":[\n"
                      "[\"2024-03-01T10:30:00.25Z\"],\n[\"2024-03-01T11:00:00Z\"]\n]}");
  CHECK(strstr(notes.p, "column \"a\": \"2024-03-01T10:30:00.25\" has no zone, taken as UTC") != NULL);
  jj_free(doc);
  tbuf_free(&notes);
  /* a zoned timestamp into an explicit l: refused, named */
  jj_build_opts bo;
  memset(&bo, 0, sizeof bo);
  bo.schema = "a:l";
  jj_builder *b = jj_builder_new(&bo, &err);
  jj_timestamp z = {0, 0, 60, 0};
  CHECK_EQ_INT(jj_builder_key(b, "a", 1), JJ_OK);
  CHECK_EQ_INT(jj_builder_timestamp(b, &z), JJ_ERR_TIMESTAMP);
  CHECK_EQ_STR(jj_builder_error(b)->message,
               "row 1, column \"a\": \"1970-01-01T01:00:00+01:00\" is not a local timestamp (the "
               "schema says a:l)");
  jj_builder_free(b);
  /* out of range numbers */
  b = jj_builder_new(NULL, &err);
  jj_timestamp far = {2932896LL * 86400 + 86400, 0, 0, 0};
  CHECK_EQ_INT(jj_builder_key(b, "a", 1), JJ_OK);
  CHECK_EQ_INT(jj_builder_local_timestamp(b, &far), JJ_ERR_TIMESTAMP);
  jj_builder_free(b);
}

TEST(reader_writer_and_export_of_l) {
  jj_schema *s = jj_schema_new();
  jj_error err;
  CHECK_EQ_INT(jj_schema_add(s, "at", 2, JJ_LOCAL_TIMESTAMP, NULL, &err), JJ_OK);
  jj_writer *w = jj_writer_new(s, NULL, NULL, &err);
  jj_timestamp ts = {0, 500000000, 330, 3};
  CHECK_EQ_INT(jj_writer_local_timestamp(w, "2024-03-01 10:30:00", 19), JJ_OK);
  CHECK_EQ_INT(jj_writer_end_row(w), JJ_OK);
  CHECK_EQ_INT(jj_writer_local_timestamp_value(w, &ts), JJ_OK);
  CHECK_EQ_INT(jj_writer_end_row(w), JJ_OK);
  CHECK_EQ_INT(jj_writer_finish(w), JJ_OK);
  size_t len;
  char *doc = jj_writer_take(w, &len);
  CHECK_EQ_STR(doc, "{\"jalapenojson\":1,\"columns\":[\"at\"],\"types\":[\"l\"],\"rows\":[\n"
                    "[\"2024-03-01T10:30:00\"],\n[\"1970-01-01T00:00:00.500\"]\n]}");
  jj_writer_free(w);
  /* a zone is refused by the writer, in the calendar's words */
  w = jj_writer_new(s, NULL, NULL, &err);
  CHECK_EQ_INT(jj_writer_local_timestamp(w, "2024-03-01T10:30:00Z", 20), JJ_ERR_TIMESTAMP);
  CHECK(strstr(jj_writer_error(w)->message, "a local timestamp has no zone") != NULL);
  jj_writer_free(w);
  /* read back: text, numbers, jj_cursor_value */
  jj_doc *d = jj_parse(doc, len, &err);
  jj_cursor *c = jj_cursor_new(d, &err);
  const char *p;
  size_t n;
  jj_value v;
  CHECK_EQ_INT(jj_cursor_next(c, &err), 1);
  CHECK_EQ_INT(jj_cursor_text(c, 0, &p, &n, &err), 1);
  CHECK_EQ_MEM(p, n, "2024-03-01T10:30:00", 19);
  CHECK_EQ_INT(jj_cursor_value(c, 0, &v, &err), 1);
  CHECK_EQ_INT(v.type, JJ_LOCAL_TIMESTAMP);
  CHECK_EQ_INT(v.u.timestamp.ts.seconds, 19783LL * 86400 + 37800);
  CHECK_EQ_INT(v.u.timestamp.ts.zone_minutes, 0);
  int32_t days;
  CHECK_EQ_INT(jj_cursor_date(c, 0, &days, &err), -1); /* not a date column */
  CHECK_EQ_INT(err.code, JJ_ERR_USAGE);
  jj_cursor_free(c);
  tbuf out = {0};
  CHECK_EQ_INT(jj_to_text(d, JJ_FORMAT_CSV, NULL, tbuf_sink, &out, &err), JJ_OK);
  CHECK_EQ_STR(out.p, "at\n2024-03-01T10:30:00\n1970-01-01T00:00:00.500\n");
  tbuf_free(&out);
  jj_doc_free(d);
  jj_free(doc);
  /* a bad value in an l column: located, in the calendar's words */
  const char *bad = "{\"jalapenojson\":1,\"columns\":[\"at\"],\"types\":[\"l\"],\"rows\":[\n"
                    "[\"2024-03-01 10:30:00\"]\n]}";
  d = jj_parse(bad, strlen(bad), &err);
  c = jj_cursor_new(d, &err);
  CHECK_EQ_INT(jj_cursor_next(c, &err), 1);
  CHECK_EQ_INT(jj_cursor_text(c, 0, &p, &n, &err), -1);
  CHECK_EQ_STR(err.message, "row 1, column \"at\", byte 59: \"2024-03-01 10:30:00\" is not a local "
                            "timestamp (expected YYYY-MM-DDTHH:MM:SS[.fraction])");
  jj_cursor_free(c);
  jj_doc_free(d);
  jj_schema_free(s);
}

int main(void) {
  RUN(converter_infers_l_from_both_forms);
  RUN(converter_lattice_of_dates_and_both_timestamps);
  RUN(converter_explicit_t_takes_no_zone_as_utc_and_l_refuses_a_zone);
  RUN(converter_nested_tables_of_local_timestamps);
  RUN(builder_local_timestamps_inferred_forced_and_refused);
  RUN(reader_writer_and_export_of_l);
  return test_summary("infer_local");
}
