/*
** test_convert_dates.c — dates and timestamps in other spellings than
** ISO 8601 (core/datefmt.c, core/infer_dates.c): every directive of the
** pattern language, the calendar's checks, the spellings detected without
** a pattern, the ambiguity of day and month, detection turned off, the
** schema's d, t and l reading given patterns, the located errors and the
** pattern mistakes, each with its exact message.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_convert.h"

/* Convert text with the date and timestamp patterns (NULL-terminated
** lists, NULL for none) and a schema option. */
static jj_code dconv(const char *text, const char *const *dates,
                     const char *const *stamps, const char *schema,
                     conv_out *out) {
  jj_convert_opts o;
  memset(&o, 0, sizeof o);
  o.schema = schema;
  o.date_formats = dates;
  while (dates && dates[o.n_date_formats]) o.n_date_formats++;
  o.timestamp_formats = stamps;
  while (stamps && stamps[o.n_timestamp_formats]) o.n_timestamp_formats++;
  return conv_opts(text, strlen(text), o, out);
}

/* One CSV value in column x read with one date pattern (schema x:d) or
** timestamp pattern (x:l, or x:t when zoned); its written value (the JSON
** text between "rows":[\n[ and ]), or the error message. */
static const char *one(const char *pattern, int ts, const char *value,
                       char *got, size_t cap) {
  char text[200];
  const char *const pats[] = {pattern, NULL};
  conv_out out;
  snprintf(text, sizeof text, "x\n\"%s\"\n", value);
  if (dconv(text, ts ? NULL : pats, ts ? pats : NULL,
            ts == 2 ? "x:t" : ts ? "x:l" : "x:d", &out)) {
    snprintf(got, cap, "%s", out.err.message);
  } else {
    const char *p = strstr(out.doc.p, "\"rows\":[\n[");
    const char *q = p ? strchr(p + 10, ']') : NULL;
    snprintf(got, cap, "%.*s", p && q ? (int)(q - p - 10) : 0, p ? p + 10 : "");
  }
  conv_free(&out);
  return got;
}

#define ONE(pattern, ts, value, want)                               \
  do {                                                              \
    char got_[400];                                                 \
    CHECK_EQ_STR(one((pattern), (ts), (value), got_, sizeof got_), \
                 (want));                                           \
  } while (0)

TEST(date_directives) {
  ONE("%m/%d/%Y", 0, "01/31/2015", "\"2015-01-31\"");
  ONE("%m/%d/%Y", 0, "1/2/2015", "\"2015-01-02\"");
  ONE("%d.%m.%Y", 0, "31.01.2015", "\"2015-01-31\"");
  ONE("%Y%m%d", 0, "20150131", "\"2015-01-31\""); /* quoted: text */
  ONE("%b %e %Y", 0, "Jan  1 2000", "\"2000-01-01\"");
  ONE("%b %e %Y", 0, "Jan 12 2000", "\"2000-01-12\"");
  ONE("%d-%b-%Y", 0, "01-JAN-2000", "\"2000-01-01\"");
  ONE("%d-%h-%Y", 0, "01-dec-2000", "\"2000-12-01\"");
  ONE("%B %d, %Y", 0, "September 5, 2001", "\"2001-09-05\"");
  ONE("%d %B %Y", 0, "5 MAY 2001", "\"2001-05-05\"");
  ONE("%m/%d/%y", 0, "01/31/68", "\"2068-01-31\"");
  ONE("%m/%d/%y", 0, "01/31/69", "\"1969-01-31\"");
  ONE("%a %b %d %Y", 0, "Sat Jan 01 2000", "\"2000-01-01\"");
  ONE("%A, %d %B %Y", 0, "saturday, 01 January 2000", "\"2000-01-01\"");
  ONE("%Y%%%m%%%d", 0, "2000%01%02", "\"2000-01-02\"");
  ONE("%F", 0, "2000-01-02", "\"2000-01-02\"");
  ONE("day %d of %m, %Y", 0, "day 3 of 04, 1999", "\"1999-04-03\"");
  /* the date's own checks, with the calendar's reason */
  ONE("%m/%d/%Y", 0, "02/29/2023",
      "in: row 1, column \"x\", byte 2: \"02/29/2023\" is not a date (2023 is "
      "not a leap year; the schema says x:d)");
  ONE("%m/%d/%Y", 0, "02/29/2024", "\"2024-02-29\"");
  ONE("%m/%d/%Y", 0, "13/01/2015",
      "in: row 1, column \"x\", byte 2: \"13/01/2015\" is not a date (month "
      "13 does not exist; the schema says x:d)");
  ONE("%m/%d/%Y", 0, "04/31/2015",
      "in: row 1, column \"x\", byte 2: \"04/31/2015\" is not a date (April "
      "has 30 days; the schema says x:d)");
  ONE("%a %b %d %Y", 0, "Sun Jan 01 2000",
      "in: row 1, column \"x\", byte 2: \"Sun Jan 01 2000\" is not a date "
      "(not that day of the week; the schema says x:d)");
  /* a shape the pattern does not have */
  ONE("%m/%d/%Y", 0, "01/31/15",
      "in: row 1, column \"x\", byte 2: \"01/31/15\" is not a date (expected "
      "YYYY-MM-DD or %m/%d/%Y; the schema says x:d)");
  ONE("%m/%d/%Y", 0, "01/31/2015 ",
      "in: row 1, column \"x\", byte 2: \"01/31/2015 \" is not a date "
      "(expected YYYY-MM-DD or %m/%d/%Y; the schema says x:d)");
  ONE("%b %d %Y", 0, "Jnu 1 2000",
      "in: row 1, column \"x\", byte 2: \"Jnu 1 2000\" is not a date "
      "(expected YYYY-MM-DD or %b %d %Y; the schema says x:d)");
  /* ISO always counts */
  ONE("%m/%d/%Y", 0, "2015-01-31", "\"2015-01-31\"");
}

TEST(timestamp_directives) {
  ONE("%Y/%m/%d %H:%M:%S", 1, "2015/01/01 01:00:00", "\"2015-01-01T01:00:00\"");
  ONE("%Y/%m/%d %H:%M", 1, "2001/01/01 00:47", "\"2001-01-01T00:47:00\"");
  ONE("%d/%m/%Y %T", 1, "31/01/2015 23:59:58", "\"2015-01-31T23:59:58\"");
  ONE("%Y/%m/%d %H:%M:%S.%f", 1, "2015/01/01 01:00:00.125",
      "\"2015-01-01T01:00:00.125\"");
  ONE("%Y/%m/%d %H:%M:%S.%f", 1, "2015/01/01 01:00:00.123456789",
      "\"2015-01-01T01:00:00.123456789\"");
  ONE("%m/%d/%Y %I:%M %p", 1, "1/31/2015 12:05 AM", "\"2015-01-31T00:05:00\"");
  ONE("%m/%d/%Y %I:%M %p", 1, "1/31/2015 12:05 pm", "\"2015-01-31T12:05:00\"");
  ONE("%m/%d/%Y %I:%M %p", 1, "1/31/2015 1:05 PM", "\"2015-01-31T13:05:00\"");
  ONE("%b %d %Y %H:%M", 1, "Jun 12 1998 7:30", "\"1998-06-12T07:30:00\"");
  ONE("%Y/%m/%d %H:%M %z", 2, "2015/01/01 01:00 +0100",
      "\"2015-01-01T01:00:00+01:00\"");
  ONE("%Y/%m/%d %H:%M %z", 2, "2015/01/01 01:00 -05:30",
      "\"2015-01-01T01:00:00-05:30\"");
  ONE("%Y/%m/%d %H:%M %z", 2, "2015/01/01 01:00 +02",
      "\"2015-01-01T01:00:00+02:00\"");
  ONE("%Y/%m/%d %H:%M%z", 2, "2015/01/01 01:00Z", "\"2015-01-01T01:00:00Z\"");
  /* the clock's checks */
  ONE("%Y/%m/%d %H:%M", 1, "2015/01/01 24:00",
      "in: row 1, column \"x\", byte 2: \"2015/01/01 24:00\" is not a local "
      "timestamp (hour 24 does not exist; the schema says x:l)");
  ONE("%Y/%m/%d %H:%M", 1, "2015/01/01 10:60",
      "in: row 1, column \"x\", byte 2: \"2015/01/01 10:60\" is not a local "
      "timestamp (minute 60 does not exist; the schema says x:l)");
  ONE("%m/%d/%Y %I:%M %p", 1, "1/31/2015 13:05 PM",
      "in: row 1, column \"x\", byte 2: \"1/31/2015 13:05 PM\" is not a local "
      "timestamp (expected YYYY-MM-DD(T| )HH:MM:SS[.fraction] or "
      "%m/%d/%Y %I:%M %p; the schema says x:l)");
  /* a zoned value is no local timestamp; a t column takes a zone-less one
  ** as UTC (noted) */
  ONE("%Y/%m/%d %H:%M %z", 1, "2015/01/01 01:00 +0100",
      "in: row 1, column \"x\", byte 2: \"2015/01/01 01:00 +0100\" is not a "
      "local timestamp (expected YYYY-MM-DD(T| )HH:MM:SS[.fraction]; the schema "
      "says x:l)");
  ONE("%Y/%m/%d %H:%M", 2, "2015/01/01 01:00", "\"2015-01-01T01:00:00Z\"");
}

/* Each detected spelling, with no pattern given: the column's type and
** its values written in ISO 8601. */
TEST(detected_spellings) {
  static const struct {
    const char *value, *type, *iso;
  } cases[] = {
      {"01/31/2015", "d", "2015-01-31"},
      {"31/01/2015", "d", "2015-01-31"},
      {"2015/01/31", "d", "2015-01-31"},
      {"31.01.2015", "d", "2015-01-31"},
      {"Jan 1 2000", "d", "2000-01-01"},
      {"Jun 12 1998", "d", "1998-06-12"},
      {"Jan 1, 2000", "d", "2000-01-01"},
      {"1 Jan 2000", "d", "2000-01-01"},
      {"01-Jan-2000", "d", "2000-01-01"},
      {"January 1, 2000", "d", "2000-01-01"},
      {"January 1 2000", "d", "2000-01-01"},
      {"1 January 2000", "d", "2000-01-01"},
      {"2015/01/01 01:00:00", "l", "2015-01-01T01:00:00"},
      {"2001/01/01 00:47", "l", "2001-01-01T00:47:00"},
      {"01/31/2015 01:00:00", "l", "2015-01-31T01:00:00"},
      {"31/01/2015 01:00:00", "l", "2015-01-31T01:00:00"},
      {"01/31/2015 01:00", "l", "2015-01-31T01:00:00"},
      {"31/01/2015 01:00", "l", "2015-01-31T01:00:00"},
      {"1/31/2015 1:00:00 PM", "l", "2015-01-31T13:00:00"},
      {"1/31/2015 1:00 PM", "l", "2015-01-31T13:00:00"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    char text[200], want[300];
    conv_out out;
    snprintf(text, sizeof text, "x\n\"%s\"\n", cases[i].value);
    snprintf(want, sizeof want,
             "\"columns\":[\"x\"],\"types\":[\"%s\"],\"rows\":[\n[\"%s\"]\n]}",
             cases[i].type, cases[i].iso);
    CHECK_EQ_INT(dconv(text, NULL, NULL, NULL, &out), JJ_OK);
    CHECK_EQ_STR(body(&out), want);
    conv_free(&out);
  }
}

TEST(detection_notes) {
  conv_out out;
  CHECK_EQ_INT(dconv("id,when,ts\n1,01/31/2015,2015/01/01 01:00:00\n"
                     "2,2/1/2016,2001/01/01 00:47:05\n3,,\n",
                     NULL, NULL, NULL, &out),
               JJ_OK);
  CHECK_EQ_STR(body(&out),
               "\"columns\":[\"id\",\"when\",\"ts\"],\"types\":[\"i\",\"d\","
               "\"l\"],\"rows\":[\n[1,\"2015-01-31\",\"2015-01-01T01:00:00\"],"
               "\n[2,\"2016-02-01\",\"2001-01-01T00:47:05\"],\n[3,null,null]\n]}");
  CHECK(strstr(out.notes.p,
               "column \"when\": dates written as %m/%d/%Y (row 1, "
               "\"01/31/2015\") -> d (written as 2015-01-31)\n") != NULL);
  CHECK(strstr(out.notes.p,
               "column \"ts\": timestamps written as %Y/%m/%d %H:%M:%S (row 1, "
               "\"2015/01/01 01:00:00\") -> l (written as "
               "2015-01-01T01:00:00)\n") != NULL);
  conv_free(&out);
  /* JSON strings too, ISO dates among them */
  CHECK_EQ_INT(dconv("[{\"d\":\"Jan 1 2000\"},{\"d\":\"Jun 12 1998\"},"
                     "{\"d\":\"2000-01-05\"},{\"d\":null}]",
                     NULL, NULL, NULL, &out),
               JJ_OK);
  CHECK_EQ_STR(body(&out),
               "\"columns\":[\"d\"],\"types\":[\"d\"],\"rows\":[\n"
               "[\"2000-01-01\"],\n[\"1998-06-12\"],\n[\"2000-01-05\"],\n"
               "[null]\n]}");
  CHECK_EQ_STR(out.notes.p,
               "read as a JSON array of objects (its first character is '[')\n"
               "column \"d\": dates written as %b %d %Y (row 1, \"Jan 1 "
               "2000\") and ISO 8601 dates (row 3, \"2000-01-05\") -> d "
               "(written as 2000-01-01)\n");
  conv_free(&out);
  /* NDJSON, an escaped string */
  CHECK_EQ_INT(dconv("{\"d\":\"2015\\/01\\/31\"}\n", NULL, NULL, NULL, &out),
               JJ_OK);
  CHECK_EQ_STR(body(&out), "\"columns\":[\"d\"],\"types\":[\"d\"],\"rows\":[\n"
                           "[\"2015-01-31\"]\n]}");
  conv_free(&out);
}

TEST(ambiguous_and_mixed) {
  conv_out out;
  /* no day above 12: month first or day first cannot be told */
  CHECK_EQ_INT(dconv("d,t\n01/02/2015,01/02/2015 10:00\n03/04/2015,"
                     "03/04/2015 11:00\n",
                     NULL, NULL, NULL, &out),
               JJ_OK);
  CHECK_EQ_STR(body(&out),
               "\"columns\":[\"d\",\"t\"],\"types\":[\"s\",\"s\"],\"rows\":[\n"
               "[\"01/02/2015\",\"01/02/2015 10:00\"],\n[\"03/04/2015\","
               "\"03/04/2015 11:00\"]\n]}");
  CHECK_EQ_STR(out.notes.p,
               "read as CSV with the delimiter ',' (detected among , tab ; | "
               "from the first records)\n"
               "column \"d\": dates written as %m/%d/%Y or %d/%m/%Y (row 1, "
               "\"01/02/2015\"): no day is above 12 to tell which -> s "
               "(ambiguous; the date format option decides)\n"
               "column \"t\": timestamps written as %m/%d/%Y %H:%M or "
               "%d/%m/%Y %H:%M (row 1, \"01/02/2015 10:00\"): no day is above "
               "12 to tell which -> s (ambiguous; the timestamp format option "
               "decides)\n");
  conv_free(&out);
  /* the option decides */
  {
    const char *const dm[] = {"%d/%m/%Y", NULL};
    CHECK_EQ_INT(dconv("d\n01/02/2015\n03/04/2015\n", dm, NULL, NULL, &out),
                 JJ_OK);
    CHECK_EQ_STR(body(&out), "\"columns\":[\"d\"],\"types\":[\"d\"],\"rows\":"
                             "[\n[\"2015-02-01\"],\n[\"2015-04-03\"]\n]}");
    conv_free(&out);
  }
  /* one day above 12 tells */
  CHECK_EQ_INT(dconv("d\n01/02/2015\n03/14/2015\n", NULL, NULL, NULL, &out),
               JJ_OK);
  CHECK_EQ_STR(body(&out), "\"columns\":[\"d\"],\"types\":[\"d\"],\"rows\":"
                           "[\n[\"2015-01-02\"],\n[\"2015-03-14\"]\n]}");
  conv_free(&out);
  /* some values only, two spellings, an invalid date, a date and a
  ** timestamp: text as written, no note about dates */
  static const char *const mixed[] = {
      "d\n01/31/2015\nsoon\n", "d\n01/31/2015\nJan 1 2000\n",
      "d\n01/31/2015\n02/30/2015\n", "d\n01/31/2015\n2015/01/01 01:00\n",
      "d\n01/31/2015\n2015-01-01T01:00:00\n", "d\nNaN\n01/31/2015\n"};
  for (size_t i = 0; i < sizeof mixed / sizeof *mixed; i++) {
    CHECK_EQ_INT(dconv(mixed[i], NULL, NULL, NULL, &out), JJ_OK);
    CHECK(strstr(body(&out), "\"types\":[\"s\"]") != NULL);
    CHECK(strstr(out.notes.p, "written as") == NULL);
    conv_free(&out);
  }
  /* a column of names stops being tried at its first value, and a later
  ** date-like value does not bring it back */
  CHECK_EQ_INT(dconv("d\nOslo\n01/31/2015\n", NULL, NULL, NULL, &out), JJ_OK);
  CHECK(strstr(body(&out), "\"types\":[\"s\"]") != NULL);
  conv_free(&out);
}

TEST(detection_off_and_replaced) {
  conv_out out;
  const char *const iso[] = {"iso", NULL};
  const char *const dots[] = {"%d.%m.%Y", NULL};
  const char *text = "d,t\n01/31/2015,2015/01/01 01:00\n";
  /* "iso" for dates: dates stay text, timestamps still detected */
  CHECK_EQ_INT(dconv(text, iso, NULL, NULL, &out), JJ_OK);
  CHECK(strstr(body(&out), "\"types\":[\"s\",\"l\"]") != NULL);
  conv_free(&out);
  /* both off */
  CHECK_EQ_INT(dconv(text, iso, iso, NULL, &out), JJ_OK);
  CHECK_EQ_STR(body(&out), "\"columns\":[\"d\",\"t\"],\"types\":[\"s\",\"s\"],"
                           "\"rows\":[\n[\"01/31/2015\",\"2015/01/01 01:00\"]"
                           "\n]}");
  conv_free(&out);
  /* a given pattern replaces the detected ones of its kind */
  CHECK_EQ_INT(dconv("d,e\n01/31/2015,31.01.2015\n", dots, NULL, NULL, &out),
               JJ_OK);
  CHECK_EQ_STR(body(&out), "\"columns\":[\"d\",\"e\"],\"types\":[\"s\",\"d\"],"
                           "\"rows\":[\n[\"01/31/2015\",\"2015-01-31\"]\n]}");
  CHECK(strstr(out.notes.p, "column \"e\": dates written as %d.%m.%Y (row 1, "
                            "\"31.01.2015\") -> d (written as 2015-01-31)\n"));
  conv_free(&out);
  /* ISO still counts beside "iso" and given patterns */
  CHECK_EQ_INT(dconv("d\n2015-01-31\n", iso, NULL, NULL, &out), JJ_OK);
  CHECK(strstr(body(&out), "\"types\":[\"d\"]") != NULL);
  conv_free(&out);
  /* the first given pattern that reads every value wins */
  {
    const char *const two[] = {"%d/%m/%Y", "%m/%d/%Y", NULL};
    CHECK_EQ_INT(dconv("d\n01/02/2015\n", two, NULL, NULL, &out), JJ_OK);
    CHECK(strstr(body(&out), "[\"2015-02-01\"]") != NULL);
    conv_free(&out);
    CHECK_EQ_INT(dconv("d\n01/02/2015\n01/31/2015\n", two, NULL, NULL, &out),
                 JJ_OK);
    CHECK(strstr(body(&out), "[\"2015-01-02\"],\n[\"2015-01-31\"]") != NULL);
    conv_free(&out);
  }
  /* a given zoned timestamp pattern makes t */
  {
    const char *const z[] = {"%Y/%m/%d %H:%M %z", NULL};
    CHECK_EQ_INT(dconv("t\n2015/01/01 01:00 +01:00\n", NULL, z, NULL, &out),
                 JJ_OK);
    CHECK_EQ_STR(body(&out), "\"columns\":[\"t\"],\"types\":[\"t\"],\"rows\":"
                             "[\n[\"2015-01-01T01:00:00+01:00\"]\n]}");
    conv_free(&out);
  }
}

TEST(schema_with_patterns) {
  conv_out out;
  const char *const us[] = {"%m/%d/%Y", NULL};
  /* a forced d reads ISO only without a pattern */
  CHECK_EQ_INT(dconv("id,when\n1,01/31/2015\n", NULL, NULL, "when:d", &out),
               JJ_ERR_DATE);
  CHECK_EQ_STR(out.err.message,
               "in: row 1, column \"when\", byte 10: \"01/31/2015\" is not a "
               "date (expected YYYY-MM-DD; the schema says when:d)");
  conv_free(&out);
  /* and the given patterns with one */
  CHECK_EQ_INT(dconv("id,when\n1,01/31/2015\n2,2015-02-01\n", us, NULL,
                     "when:d", &out),
               JJ_OK);
  CHECK_EQ_STR(body(&out), "\"columns\":[\"id\",\"when\"],\"types\":[\"i\","
                           "\"d\"],\"rows\":[\n[1,\"2015-01-31\"],\n"
                           "[2,\"2015-02-01\"]\n]}");
  conv_free(&out);
  /* a value that fits no pattern: located, or null with the flag */
  CHECK_EQ_INT(dconv("id,when\n1,01/31/2015\n2,31/01/2015\n", us, NULL,
                     "when:d", &out),
               JJ_ERR_DATE);
  CHECK_EQ_STR(out.err.message,
               "in: row 2, column \"when\", byte 23: \"31/01/2015\" is not a "
               "date (month 31 does not exist; the schema says when:d)");
  conv_free(&out);
  {
    jj_convert_opts o;
    memset(&o, 0, sizeof o);
    o.schema = "when:d";
    o.flags = JJ_CONVERT_BAD_TO_NULL;
    o.date_formats = us;
    o.n_date_formats = 1;
    const char *text = "id,when\n1,01/31/2015\n2,soon\n";
    CHECK_EQ_INT(conv_opts(text, strlen(text), o, &out), JJ_OK);
    CHECK(strstr(body(&out), "[1,\"2015-01-31\"],\n[2,null]") != NULL);
    CHECK_EQ_U64(out.res.nulled, 1);
    conv_free(&out);
  }
  /* JSON: a forced l reads a timestamp pattern */
  {
    const char *const ts[] = {"%d.%m.%Y %H:%M", NULL};
    CHECK_EQ_INT(dconv("[{\"at\":\"31.01.2015 10:30\"}]", NULL, ts, "at:l",
                       &out),
                 JJ_OK);
    CHECK_EQ_STR(body(&out), "\"columns\":[\"at\"],\"types\":[\"l\"],\"rows\":"
                             "[\n[\"2015-01-31T10:30:00\"]\n]}");
    conv_free(&out);
  }
}

/* A pattern that does not compile: a usage error naming it and the byte. */
static void mistake(const char *pattern, int ts, const char *want) {
  conv_out out;
  const char *const pats[] = {"%Y", pattern, NULL};
  const char *const *list = pats + 1;
  CHECK_EQ_INT(dconv("x\n1\n", ts ? NULL : list, ts ? list : NULL, NULL, &out),
               JJ_ERR_USAGE);
  CHECK_EQ_STR(out.err.message, want);
  conv_free(&out);
}

TEST(pattern_mistakes) {
  mistake("%d/%q/%Y", 0, "in: the date format \"%d/%q/%Y\", at byte 3: "
                         "unknown directive %q");
  mistake("%d/%m/%Y %", 0, "in: the date format \"%d/%m/%Y %\", at byte 9: a "
                           "% at the end (write %% for a % sign)");
  mistake("%d/%m/%Y/%Y", 0, "in: the date format \"%d/%m/%Y/%Y\", at byte 9: "
                            "%Y repeats a field given before");
  mistake("%d/%m/%y %Y", 0, "in: the date format \"%d/%m/%y %Y\", at byte 9: "
                            "%Y repeats a field given before");
  mistake("%d/%m/%Y %H", 0, "in: the date format \"%d/%m/%Y %H\", at byte 9: "
                            "%H in a date pattern (a date has no time of day; "
                            "give it as a timestamp pattern)");
  mistake("%d/%m", 0, "in: the date format \"%d/%m\", at byte 5: no year (%Y "
                      "or %y)");
  mistake("%d/%Y", 0, "in: the date format \"%d/%Y\", at byte 5: no month "
                      "(%m, %b or %B)");
  mistake("%m/%Y", 0, "in: the date format \"%m/%Y\", at byte 5: no day (%d "
                      "or %e)");
  mistake("", 0, "in: the date format \"\", at byte 0: the pattern is empty");
  mistake("%d/%m/%Y", 1, "in: the timestamp format \"%d/%m/%Y\", at byte 8: no "
                         "hour (%H, or %I with %p)");
  mistake("%d/%m/%Y %H", 1, "in: the timestamp format \"%d/%m/%Y %H\", at byte "
                            "11: no minute (%M)");
  mistake("%d/%m/%Y %I:%M", 1, "in: the timestamp format \"%d/%m/%Y %I:%M\", at "
                               "byte 14: %I and %p go together");
  mistake("%d/%m/%Y %H:%M %p", 1, "in: the timestamp format \"%d/%m/%Y %H:%M "
                                  "%p\", at byte 17: %p goes with %I, not %H");
  mistake("%d/%m/%Y %H:%M.%f", 1, "in: the timestamp format \"%d/%m/%Y "
                                  "%H:%M.%f\", at byte 17: %f without %S (a "
                                  "fraction of which second?)");
  {
    char longp[200];
    memset(longp, 'x', 150);
    memcpy(longp, "%Y%m%d", 6);
    longp[150] = '\0';
    conv_out out;
    const char *const pats[] = {longp, NULL};
    CHECK_EQ_INT(dconv("x\n1\n", pats, NULL, NULL, &out), JJ_ERR_USAGE);
    CHECK(strstr(out.err.message, "at byte 67: the pattern is longer than 64 "
                                  "directives and bytes") != NULL);
    conv_free(&out);
  }
  { /* NULL in the list, too many */
    conv_out out;
    const char *many[JJ_CONVERT_MAX_FORMATS + 1];
    jj_convert_opts o;
    memset(&o, 0, sizeof o);
    many[0] = NULL;
    o.date_formats = many;
    o.n_date_formats = 1;
    CHECK_EQ_INT(conv_opts("x\n1\n", 4, o, &out), JJ_ERR_USAGE);
    CHECK_EQ_STR(out.err.message, "in: the date formats: the pattern is NULL");
    conv_free(&out);
    for (size_t k = 0; k <= JJ_CONVERT_MAX_FORMATS; k++) many[k] = "%d/%m/%Y";
    o.timestamp_formats = many;
    o.n_timestamp_formats = 0;
    o.n_date_formats = JJ_CONVERT_MAX_FORMATS;
    CHECK_EQ_INT(conv_opts("x\n1\n", 4, o, &out), JJ_OK);
    conv_free(&out);
    o.n_date_formats = JJ_CONVERT_MAX_FORMATS + 1;
    CHECK_EQ_INT(conv_opts("x\n1\n", 4, o, &out), JJ_ERR_USAGE);
    CHECK_EQ_STR(out.err.message, "in: the date formats: more than 16 patterns");
    conv_free(&out);
  }
}

/* Many rows: the candidates of a column narrow as values come (pass 1
** keeps only bits), and a late misfit turns the column back to text. */
TEST(many_rows) {
  size_t n = 5000, cap = n * 24 + 16, len = 0;
  char *text = malloc(cap);
  conv_out out;
  CHECK(text != NULL);
  if (!text) return;
  len += (size_t)snprintf(text + len, cap - len, "d\n");
  for (size_t i = 0; i < n; i++)
    len += (size_t)snprintf(text + len, cap - len, "%zu/%zu/2015\n", i % 12 + 1,
                            i % 28 + 1);
  CHECK_EQ_INT(conv_opts(text, len, (jj_convert_opts){0}, &out), JJ_OK);
  CHECK(strstr(body(&out), "\"types\":[\"d\"]") != NULL);
  CHECK(strstr(body(&out), "[\"2015-12-24\"]") != NULL);
  conv_free(&out);
  len += (size_t)snprintf(text + len, cap - len, "later\n");
  CHECK_EQ_INT(conv_opts(text, len, (jj_convert_opts){0}, &out), JJ_OK);
  CHECK(strstr(body(&out), "\"types\":[\"s\"]") != NULL);
  conv_free(&out);
  free(text);
}

int main(void) {
  RUN(date_directives);
  RUN(timestamp_directives);
  RUN(detected_spellings);
  RUN(detection_notes);
  RUN(ambiguous_and_mixed);
  RUN(detection_off_and_replaced);
  RUN(schema_with_patterns);
  RUN(pattern_mistakes);
  RUN(many_rows);
  return test_summary("convert_dates");
}
