/*
** test_types.c — the type table (core/types.c): letters, names, SQL types
** and short names for every type, their round trips, and what answers for
** a value that is no type.  Also that the header reader accepts exactly
** the letters the table knows.
*/
#include <stdio.h>

#include "internal.h"
#include "jalapenojson.h"
#include "test.h"

/* Every type, with what the table must say of it. */
static const struct {
  jj_type type;
  char letter;
  const char *name, *sql, *short_name, *expect, *writer;
} want[] = {
    {JJ_INT, 'i', "an integer", "INTEGER", "i", "an integer", "jj_writer_int"},
    {JJ_FLOAT, 'f', "a float", "REAL", "f", "a number", "jj_writer_double"},
    {JJ_TEXT, 's', "a text", "TEXT", "s", "a string", "jj_writer_text"},
    {JJ_DATE, 'd', "a date", "DATE", "d", "a date string", "jj_writer_date"},
    {JJ_TIMESTAMP, 't', "a timestamp", "TIMESTAMP", "t", "a timestamp string",
     "jj_writer_timestamp"},
    {JJ_LOCAL_TIMESTAMP, 'l', "a local timestamp", "DATETIME", "l", "a local timestamp string",
     "jj_writer_local_timestamp"},
    {JJ_BOOL, 'b', "a boolean", "BOOLEAN", "b", "true or false", "jj_writer_bool"},
    {JJ_BYTES, 'x', "a bytes", "BLOB", "x", "a base64 string", "jj_writer_bytes"},
    {JJ_JSON, 'j', "a JSON", "JSON", "j", "a JSON value", "jj_writer_json"},
    {JJ_TABLE, 0, "a nested table", "TEXT", "jj", "an array of rows",
     "jj_writer_begin_table"},
};
#define NTYPES (sizeof want / sizeof want[0])

TEST(every_type_has_its_letter_and_names) {
  for (size_t i = 0; i < NTYPES; i++) {
    jj_type t = want[i].type;
    CHECK_EQ_INT(jj_type_letter(t), want[i].letter);
    CHECK_EQ_STR(jj_type_name(t), want[i].name);
    CHECK_EQ_STR(jj_type_sql(t), want[i].sql);
    CHECK_EQ_STR(jj_type_short(t), want[i].short_name);
    CHECK_EQ_STR(jj_type_expect(t), want[i].expect);
    CHECK_EQ_STR(jj_type_writer(t), want[i].writer);
  }
}

TEST(scalar_letters_round_trip_and_equal_the_enum_values) {
  for (size_t i = 0; i < NTYPES; i++) {
    jj_type t = want[i].type;
    if (t == JJ_TABLE) continue;
    CHECK_EQ_INT(jj_type_from_letter(jj_type_letter(t)), t);
    CHECK_EQ_INT(jj_type_letter(t), (int)t); /* the header's promise */
  }
}

TEST(short_names_round_trip) {
  for (size_t i = 0; i < NTYPES; i++) {
    const char *s = jj_type_short(want[i].type);
    CHECK_EQ_INT(jj_type_from_short(s, strlen(s)), want[i].type);
  }
  CHECK_EQ_INT(jj_type_from_short("jjx", 2), JJ_TABLE); /* exactly len bytes */
}

TEST(only_the_nine_letters_are_types) {
  int found = 0;
  for (int c = -1; c < 256; c++) {
    jj_type t = jj_type_from_letter(c);
    if (t) {
      found++;
      CHECK_EQ_INT(jj_type_letter(t), c);
    }
  }
  CHECK_EQ_INT(found, 9);
  CHECK_EQ_INT(jj_type_from_letter('{'), 0);
  CHECK_EQ_INT(jj_type_from_letter(0), 0);
  CHECK_EQ_INT(jj_type_from_letter('I'), 0);
}

TEST(no_type_gets_zero_or_null) {
  jj_type none[] = {(jj_type)0, (jj_type)'a', (jj_type)'{' + 1, (jj_type)-1, (jj_type)'[' };
  for (size_t i = 0; i < sizeof none / sizeof none[0]; i++) {
    CHECK_EQ_INT(jj_type_letter(none[i]), 0);
    CHECK(jj_type_name(none[i]) == NULL);
    CHECK(jj_type_sql(none[i]) == NULL);
    CHECK(jj_type_short(none[i]) == NULL);
    CHECK_EQ_STR(jj_type_expect(none[i]), "?");
    CHECK_EQ_STR(jj_type_writer(none[i]), "?");
  }
  CHECK_EQ_INT(jj_type_from_short("", 0), 0);
  CHECK_EQ_INT(jj_type_from_short("k", 1), 0);
  CHECK_EQ_INT(jj_type_from_short("int", 3), 0);
  CHECK_EQ_INT(jj_type_from_short("I", 1), 0);
  CHECK_EQ_INT(jj_type_from_short(NULL, 0), 0);
}

/* A header whose one column has type letter c (written as \u00XX) parses
** exactly when the table knows the letter, with that type. */
TEST(the_reader_accepts_exactly_the_table_s_letters) {
  for (int c = 0; c < 128; c++) {
    char doc[128];
    int n = snprintf(doc, sizeof doc,
                     "{\"jalapenojson\":1,\"columns\":[\"v\"],\"types\":[\"\\u%04x\"],"
                     "\"rows\":[]}", c);
    jj_error e;
    jj_doc *d = jj_parse(doc, (size_t)n, &e);
    jj_type t = jj_type_from_letter(c);
    CHECK_EQ_INT(d != NULL, t != 0);
    if (d) CHECK_EQ_INT(jj_schema_type(jj_doc_schema(d), 0), t);
    else CHECK_EQ_INT(e.code, JJ_ERR_SCHEMA);
    jj_doc_free(d);
  }
}

/* jj_schema_add takes every type of the table and nothing else. */
TEST(schema_add_takes_the_table_s_types_only) {
  jj_schema *s = jj_schema_new();
  jj_error e;
  char name[2] = "a";
  for (size_t i = 0; i < NTYPES; i++, name[0]++) {
    jj_schema *sub = NULL;
    if (want[i].type == JJ_TABLE) {
      sub = jj_schema_new();
      CHECK_EQ_INT(jj_schema_add(sub, "x", 1, JJ_INT, NULL, &e), JJ_OK);
    }
    CHECK_EQ_INT(jj_schema_add(s, name, 1, want[i].type, sub, &e), JJ_OK);
  }
  CHECK_EQ_INT(jj_schema_add(s, "z", 1, (jj_type)'q', NULL, &e), JJ_ERR_USAGE);
  CHECK_EQ_STR(e.message, "unknown column type 113");
  char *json = jj_schema_to_json(s, NULL);
  CHECK_EQ_STR(json, "{\"columns\":[\"a\",\"b\",\"c\",\"d\",\"e\",\"f\",\"g\",\"h\",\"i\",\"j\"],"
                     "\"types\":[\"i\",\"f\",\"s\",\"d\",\"t\",\"l\",\"b\",\"x\",\"j\","
                     "{\"columns\":[\"x\"],\"types\":[\"i\"]}]}");
  jj_free(json);
  jj_schema_free(s);
}

int main(void) {
  RUN(every_type_has_its_letter_and_names);
  RUN(scalar_letters_round_trip_and_equal_the_enum_values);
  RUN(short_names_round_trip);
  RUN(only_the_nine_letters_are_types);
  RUN(no_type_gets_zero_or_null);
  RUN(the_reader_accepts_exactly_the_table_s_letters);
  RUN(schema_add_takes_the_table_s_types_only);
  return test_summary("types");
}
