/*
** test_chrono.c — dates and timestamps (core/chrono.c): every calendar rule,
** every message exactly, and a day-by-day round trip over 0000-9999 against
** a slow reference calendar written here independently.
*/
#include <stdlib.h>

#include "internal.h"
#include "jalapenojson.h"
#include "test.h"

#define DAY_FIRST (-719528) /* 0000-01-01 */
#define DAY_LAST 2932896    /* 9999-12-31 */

/* Parse a date expecting failure; check the whole error value. */
static void check_date_error(const char *text, const char *message) {
  jj_error err;
  int32_t days = 12345;
  jj_code rc = jj_date_parse(text, strlen(text), &days, &err);
  CHECK_EQ_INT(rc, JJ_ERR_DATE);
  CHECK_EQ_INT(err.code, JJ_ERR_DATE);
  CHECK_EQ_STR(err.message, message);
  CHECK_EQ_U64(err.offset, JJ_NO_OFFSET);
  CHECK_EQ_INT(err.row, 0);
  CHECK_EQ_INT(err.column, -1);
  CHECK_EQ_INT(days, 12345); /* untouched on failure */
}

/* Parse a timestamp expecting failure; check the whole error value. */
static void check_ts_error(const char *text, const char *message) {
  jj_error err;
  jj_timestamp ts = {7, 7, 7, 7};
  jj_code rc = jj_timestamp_parse(text, strlen(text), &ts, &err);
  CHECK_EQ_INT(rc, JJ_ERR_TIMESTAMP);
  CHECK_EQ_INT(err.code, JJ_ERR_TIMESTAMP);
  CHECK_EQ_STR(err.message, message);
  CHECK_EQ_U64(err.offset, JJ_NO_OFFSET);
  CHECK_EQ_INT(err.row, 0);
  CHECK_EQ_INT(err.column, -1);
  CHECK_EQ_INT(ts.seconds, 7);
}

/* Days of the date text, or INT32_MIN when it is refused. */
static int32_t date_days(const char *text) {
  int32_t days;
  if (jj_date_parse(text, strlen(text), &days, NULL) != JJ_OK) return INT32_MIN;
  return days;
}

TEST(date_reads_known_days) {
  CHECK_EQ_INT(date_days("1970-01-01"), 0);
  CHECK_EQ_INT(date_days("1970-01-02"), 1);
  CHECK_EQ_INT(date_days("1969-12-31"), -1);
  CHECK_EQ_INT(date_days("2024-03-01"), 19783);
  CHECK_EQ_INT(date_days("2000-03-01"), 11017);
  CHECK_EQ_INT(date_days("0000-01-01"), DAY_FIRST);
  CHECK_EQ_INT(date_days("9999-12-31"), DAY_LAST);
  /* days may be NULL */
  CHECK_EQ_INT(jj_date_parse("2024-03-01", 10, NULL, NULL), JJ_OK);
}

TEST(date_rejects_feb_29_in_common_year) {
  check_date_error("2023-02-29",
                   "\"2023-02-29\" is not a date (2023 is not a leap year)");
  /*                       ^^ */
}

TEST(date_leap_years_follow_gregorian_rules) {
  /* divisible by 4: leap */
  CHECK(date_days("2024-02-29") != INT32_MIN);
  CHECK(date_days("0004-02-29") != INT32_MIN);
  /* divisible by 100 but not 400: common */
  check_date_error("1900-02-29",
                   "\"1900-02-29\" is not a date (1900 is not a leap year)");
  check_date_error("2100-02-29",
                   "\"2100-02-29\" is not a date (2100 is not a leap year)");
  check_date_error("0100-02-29",
                   "\"0100-02-29\" is not a date (0100 is not a leap year)");
  /* divisible by 400: leap, year 0000 included */
  CHECK(date_days("2000-02-29") != INT32_MIN);
  CHECK(date_days("2400-02-29") != INT32_MIN);
  CHECK(date_days("0400-02-29") != INT32_MIN);
  CHECK(date_days("0000-02-29") != INT32_MIN);
  CHECK_EQ_INT(date_days("0000-03-01") - date_days("0000-02-28"), 2);
  /* not divisible by 4: common */
  check_date_error("2023-02-29",
                   "\"2023-02-29\" is not a date (2023 is not a leap year)");
  check_date_error("9999-02-29",
                   "\"9999-02-29\" is not a date (9999 is not a leap year)");
}

TEST(date_checks_days_of_every_month) {
  static const char *const names[12] = {
      "January", "February", "March",     "April",   "May",      "June",
      "July",    "August",   "September", "October", "November", "December"};
  static const int len2023[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  char text[32], want[128];
  for (int m = 1; m <= 12; m++) {
    snprintf(text, sizeof text, "2023-%02d-%02d", m, len2023[m - 1]);
    CHECK(date_days(text) != INT32_MIN);
    if (m == 2) continue; /* day 29 is the leap-year message */
    snprintf(text, sizeof text, "2023-%02d-%02d", m, len2023[m - 1] + 1);
    snprintf(want, sizeof want, "\"%s\" is not a date (%s has %d days)", text,
             names[m - 1], len2023[m - 1]);
    check_date_error(text, want);
  }
  check_date_error("2023-04-31", "\"2023-04-31\" is not a date (April has 30 days)");
  check_date_error("2023-02-30", "\"2023-02-30\" is not a date (February 2023 has 28 days)");
  check_date_error("2024-02-30", "\"2024-02-30\" is not a date (February 2024 has 29 days)");
  check_date_error("2023-01-32", "\"2023-01-32\" is not a date (January has 31 days)");
  check_date_error("2023-01-99", "\"2023-01-99\" is not a date (January has 31 days)");
}

TEST(date_rejects_months_and_days_that_do_not_exist) {
  check_date_error("2023-13-01", "\"2023-13-01\" is not a date (month 13 does not exist)");
  check_date_error("2023-00-10", "\"2023-00-10\" is not a date (month 00 does not exist)");
  check_date_error("2023-99-99", "\"2023-99-99\" is not a date (month 99 does not exist)");
  check_date_error("2023-01-00", "\"2023-01-00\" is not a date (day 00 does not exist)");
}

TEST(date_rejects_text_not_shaped_yyyy_mm_dd) {
  check_date_error("2023-1-5", "\"2023-1-5\" is not a date (expected YYYY-MM-DD)");
  check_date_error("", "\"\" is not a date (expected YYYY-MM-DD)");
  check_date_error("2023-01-01 ", "\"2023-01-01 \" is not a date (expected YYYY-MM-DD)");
  /*                          ^ */
  check_date_error("2023/01/01", "\"2023/01/01\" is not a date (expected YYYY-MM-DD)");
  /*                    ^ */
  check_date_error("2023-01-0a", "\"2023-01-0a\" is not a date (expected YYYY-MM-DD)");
  /*                          ^ */
  check_date_error("+202-01-01", "\"+202-01-01\" is not a date (expected YYYY-MM-DD)");
  /*                ^ */
  check_date_error("10000-01-01", "\"10000-01-01\" is not a date (expected YYYY-MM-DD)");
  check_date_error("2024-03-01T00:00:00Z",
                   "\"2024-03-01T00:00:00Z\" is not a date (expected YYYY-MM-DD)");
  /* the input is quoted with jj_show: control bytes become \xHH */
  check_date_error("2023-01-\n1", "\"2023-01-\\x0a1\" is not a date (expected YYYY-MM-DD)");
  /* a date needs no NUL: only len bytes are read */
  CHECK_EQ_INT(jj_date_parse("2024-03-01junk", 10, NULL, NULL), JJ_OK);
}

TEST(date_parse_accepts_null_error) {
  CHECK_EQ_INT(jj_date_parse("2023-02-29", 10, NULL, NULL), JJ_ERR_DATE);
}

/* The reference calendar: walk day by day from 0000-01-01, counting days
** with nothing but month lengths and the leap rule. */
static int ref_leap(int y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }
static int ref_month_len(int y, int m) {
  if (m == 2) return ref_leap(y) ? 29 : 28;
  return (m == 4 || m == 6 || m == 9 || m == 11) ? 30 : 31;
}

TEST(date_days_round_trip_every_day_of_0000_to_9999) {
  /* days from 0000-01-01 to 1970-01-01, by whole years */
  long epoch = 0;
  for (int y = 0; y < 1970; y++) epoch += ref_leap(y) ? 366 : 365;
  CHECK_EQ_INT(-epoch, DAY_FIRST);
  long bad_format = 0, bad_parse = 0, count = 0;
  int y = 0, m = 1, d = 1;
  char text[10], want[32];
  for (long n = -epoch;; n++) {
    snprintf(want, sizeof want, "%04d-%02d-%02d", y, m, d);
    if (jj_date_format((int32_t)n, text) != JJ_OK || memcmp(text, want, 10))
      bad_format++;
    int32_t back;
    if (jj_date_parse(want, 10, &back, NULL) != JJ_OK || back != n) bad_parse++;
    count++;
    if (y == 9999 && m == 12 && d == 31) {
      CHECK_EQ_INT(n, DAY_LAST);
      break;
    }
    if (++d > ref_month_len(y, m)) {
      d = 1;
      if (++m > 12) {
        m = 1;
        y++;
      }
    }
  }
  CHECK_EQ_INT(count, 3652425);
  CHECK_EQ_INT(bad_format, 0);
  CHECK_EQ_INT(bad_parse, 0);
}

/* The inline check (internal.h: jj_date_ok, used by the cursor and by
** jj_date_parse's fast path) and the calendar that words errors
** (jj_date_parse with days wanted) agree on every YYYY-MM-DD with months
** 00-13 and days 00-32 of every year. */
TEST(date_inline_check_agrees_with_the_calendar_everywhere) {
  long mismatches = 0, accepted = 0;
  char text[48]; /* room for any three ints: no truncation warning */
  for (int y = 0; y <= 9999; y++)
    for (int m = 0; m <= 13; m++)
      for (int d = 0; d <= 32; d++) {
        snprintf(text, sizeof text, "%04d-%02d-%02d", y, m, d);
        int32_t days;
        int slow = jj_date_parse(text, 10, &days, NULL) == JJ_OK;
        int fast = jj_date_ok(text, 10);
        int parse = jj_date_parse(text, 10, NULL, NULL) == JJ_OK;
        if (fast != slow || parse != slow) {
          if (mismatches++ < 5) fprintf(stderr, "     disagree on %s\n", text);
        }
        accepted += slow;
      }
  CHECK_EQ_INT(mismatches, 0);
  CHECK_EQ_INT(accepted, 3652425); /* the days of 0000-01-01..9999-12-31 */
}

/* jj_date_days counts the days of every date jj_date_ok accepts as
** jj_date_parse counts them (the reader's shortcut for a date's days). */
TEST(date_days_of_the_inline_check_agree_with_the_calendar_everywhere) {
  long mismatches = 0, counted = 0;
  char text[48]; /* room for any three ints: no truncation warning */
  for (int y = 0; y <= 9999; y++)
    for (int m = 1; m <= 12; m++)
      for (int d = 1; d <= 31; d++) {
        snprintf(text, sizeof text, "%04d-%02d-%02d", y, m, d);
        int32_t days;
        if (!jj_date_ok(text, 10)) continue;
        counted++;
        if (jj_date_parse(text, 10, &days, NULL) != JJ_OK || jj_date_days(text) != days)
          if (mismatches++ < 5) fprintf(stderr, "     disagree on %s\n", text);
      }
  CHECK_EQ_INT(mismatches, 0);
  CHECK_EQ_INT(counted, 3652425);
}

/* The inline check reads a date's bytes eight at a time (internal.h): a
** byte that is off by any amount anywhere must still be refused exactly
** when the calendar refuses it.  Every byte value at every position of
** dates spread over the years, every month's first and last days and the
** 29ths of February of leap and common years. */
TEST(date_inline_check_agrees_on_every_wrong_byte) {
  static const char *const dates[] = {
      "2014-01-08", "0000-01-01", "9999-12-31", "2000-02-29", "1900-02-28",
      "2024-02-29", "2023-02-28", "1999-12-31", "2022-11-30", "1970-01-01",
      "0400-02-29", "2100-02-28", "1234-05-06", "2019-10-31", "2018-09-30"};
  long mismatches = 0, refused = 0;
  for (size_t k = 0; k < sizeof dates / sizeof *dates; k++)
    for (int at = 0; at < 10; at++)
      for (int byte = 0; byte < 256; byte++) {
        char text[10];
        memcpy(text, dates[k], 10);
        text[at] = (char)byte;
        int32_t days;
        int slow = jj_date_parse(text, 10, &days, NULL) == JJ_OK;
        int fast = jj_date_ok(text, 10);
        if (fast != slow && mismatches++ < 5)
          fprintf(stderr, "     disagree on %.10s (byte %d at %d)\n", text, byte, at);
        refused += !slow;
      }
  CHECK_EQ_INT(mismatches, 0);
  CHECK(refused > 15 * 10 * 240); /* nearly every changed byte is refused */
}

TEST(date_format_refuses_days_outside_0000_to_9999) {
  char out[10];
  CHECK_EQ_INT(jj_date_format(DAY_FIRST - 1, out), JJ_ERR_DATE);
  CHECK_EQ_INT(jj_date_format(DAY_LAST + 1, out), JJ_ERR_DATE);
  CHECK_EQ_INT(jj_date_format(INT32_MIN, out), JJ_ERR_DATE);
  CHECK_EQ_INT(jj_date_format(INT32_MAX, out), JJ_ERR_DATE);
  CHECK_EQ_INT(jj_date_format(0, out), JJ_OK);
  CHECK_EQ_MEM(out, 10, "1970-01-01", 10);
}

/* ---------------------------------------------------------------------- */
/* Timestamps                                                              */
/* ---------------------------------------------------------------------- */

static jj_timestamp ts_parse(const char *text, jj_code *rc) {
  jj_timestamp ts = {0, 0, 0, 0};
  *rc = jj_timestamp_parse(text, strlen(text), &ts, NULL);
  return ts;
}

TEST(timestamp_reads_utc_instant_and_zone) {
  jj_code rc;
  jj_timestamp ts = ts_parse("2024-03-01T12:34:56Z", &rc);
  CHECK_EQ_INT(rc, JJ_OK);
  CHECK_EQ_INT(ts.seconds, 19783LL * 86400 + 12 * 3600 + 34 * 60 + 56);
  CHECK_EQ_INT(ts.nanos, 0);
  CHECK_EQ_INT(ts.zone_minutes, 0);
  CHECK_EQ_INT(ts.digits, 0);

  ts = ts_parse("1970-01-01T05:30:00+05:30", &rc);
  CHECK_EQ_INT(rc, JJ_OK);
  CHECK_EQ_INT(ts.seconds, 0);
  CHECK_EQ_INT(ts.zone_minutes, 330);

  ts = ts_parse("1969-12-31T16:00:00-08:00", &rc);
  CHECK_EQ_INT(rc, JJ_OK);
  CHECK_EQ_INT(ts.seconds, 0);
  CHECK_EQ_INT(ts.zone_minutes, -480);

  ts = ts_parse("2024-03-01T00:00:00+00:00", &rc);
  CHECK_EQ_INT(rc, JJ_OK);
  CHECK_EQ_INT(ts.zone_minutes, 0);
  ts = ts_parse("2024-03-01T00:00:00-00:00", &rc);
  CHECK_EQ_INT(rc, JJ_OK);
  CHECK_EQ_INT(ts.zone_minutes, 0);

  ts = ts_parse("0000-01-01T00:00:00+23:59", &rc);
  CHECK_EQ_INT(rc, JJ_OK);
  CHECK_EQ_INT(ts.seconds, (int64_t)DAY_FIRST * 86400 - (23 * 60 + 59) * 60);
  CHECK_EQ_INT(ts.zone_minutes, 23 * 60 + 59);

  ts = ts_parse("9999-12-31T23:59:59.999999999-23:59", &rc);
  CHECK_EQ_INT(rc, JJ_OK);
  CHECK_EQ_INT(ts.seconds, (int64_t)DAY_LAST * 86400 + 86399 + (23 * 60 + 59) * 60);
  CHECK_EQ_INT(ts.nanos, 999999999);
  /* out may be NULL */
  CHECK_EQ_INT(jj_timestamp_parse("2024-03-01T00:00:00Z", 20, NULL, NULL), JJ_OK);
}

TEST(timestamp_fraction_of_1_to_9_digits_scales_to_nanos) {
  static const int32_t want[10] = {0,      100000000, 120000000, 123000000,
                                   123400000, 123450000, 123456000, 123456700,
                                   123456780, 123456789};
  char text[64];
  for (int n = 1; n <= 9; n++) {
    jj_code rc;
    snprintf(text, sizeof text, "2024-03-01T00:00:00.%.*sZ", n, "123456789");
    jj_timestamp ts = ts_parse(text, &rc);
    CHECK_EQ_INT(rc, JJ_OK);
    CHECK_EQ_INT(ts.nanos, want[n]);
    CHECK_EQ_INT(ts.digits, n);
    CHECK_EQ_INT(ts.seconds, 19783LL * 86400);
  }
  jj_code rc;
  jj_timestamp ts = ts_parse("2024-03-01T00:00:00.000000001+01:00", &rc);
  CHECK_EQ_INT(rc, JJ_OK);
  CHECK_EQ_INT(ts.nanos, 1);
  CHECK_EQ_INT(ts.digits, 9);
  ts = ts_parse("2024-03-01T00:00:00.0Z", &rc);
  CHECK_EQ_INT(rc, JJ_OK);
  CHECK_EQ_INT(ts.nanos, 0);
  CHECK_EQ_INT(ts.digits, 1);
}

TEST(timestamp_rejects_times_that_do_not_exist) {
  check_ts_error("2024-03-01T24:00:00Z",
                 "\"2024-03-01T24:00:00Z\" is not a timestamp (hour 24 does not exist)");
  /*                         ^^ */
  check_ts_error("2024-03-01T23:60:00Z",
                 "\"2024-03-01T23:60:00Z\" is not a timestamp (minute 60 does not exist)");
  /*                            ^^ */
  check_ts_error("2024-03-01T23:59:60Z",
                 "\"2024-03-01T23:59:60Z\" is not a timestamp (second 60 does not exist)");
  /*                               ^^ */
  check_ts_error("2024-03-01T99:99:99Z",
                 "\"2024-03-01T99:99:99Z\" is not a timestamp (hour 99 does not exist)");
  check_ts_error("2024-03-01T00:00:00+24:00",
                 "\"2024-03-01T00:00:00+24:00\" is not a timestamp (zone hour 24 does not exist)");
  /*                                  ^^ */
  check_ts_error("2024-03-01T00:00:00-05:60",
                 "\"2024-03-01T00:00:00-05:60\" is not a timestamp (zone minute 60 does not exist)");
  /*                                     ^^ */
}

TEST(timestamp_date_part_problems_use_date_reasons) {
  check_ts_error("2023-02-29T00:00:00Z",
                 "\"2023-02-29T00:00:00Z\" is not a timestamp (2023 is not a leap year)");
  check_ts_error("2023-04-31T00:00:00Z",
                 "\"2023-04-31T00:00:00Z\" is not a timestamp (April has 30 days)");
  check_ts_error("2023-13-01T00:00:00Z",
                 "\"2023-13-01T00:00:00Z\" is not a timestamp (month 13 does not exist)");
  check_ts_error("2023-00-01T00:00:00Z",
                 "\"2023-00-01T00:00:00Z\" is not a timestamp (month 00 does not exist)");
  check_ts_error("2023-01-00T00:00:00Z",
                 "\"2023-01-00T00:00:00Z\" is not a timestamp (day 00 does not exist)");
  /* the date is checked before the time */
  check_ts_error("1900-02-29T24:00:00Z",
                 "\"1900-02-29T24:00:00Z\" is not a timestamp (1900 is not a leap year)");
}

TEST(timestamp_requires_a_zone) {
  check_ts_error("2024-03-01T00:00:00",
                 "\"2024-03-01T00:00:00\" is not a timestamp (missing zone: add Z or +HH:MM)");
  /*                                  ^ end */
  check_ts_error("2024-03-01T00:00:00.5",
                 "\"2024-03-01T00:00:00.5\" is not a timestamp (missing zone: add Z or +HH:MM)");
  /* missing zone is reported before an impossible date */
  check_ts_error("2023-02-29T00:00:00",
                 "\"2023-02-29T00:00:00\" is not a timestamp (missing zone: add Z or +HH:MM)");
}

TEST(timestamp_rejects_text_not_shaped_like_one) {
  static const char *const bad[] = {
      "",
      "2024-03-01",
      "2024-03-01t00:00:00Z",       /* lowercase t */
      "2024-03-01 00:00:00Z",       /* space instead of T */
      "2024-03-01T00:00:00z",       /* lowercase z */
      "2024-03-01T00:00Z",          /* no seconds */
      "2024-03-01T0:00:00Z",        /* one-digit hour */
      "2024-3-01T00:00:00Z",        /* one-digit month */
      "2024-03-01T00:00:00.Z",      /* '.' without digits */
      "2024-03-01T00:00:00.1234567890Z", /* 10 fraction digits */
      "2024-03-01T00:00:00,5Z",     /* comma fraction */
      "2024-03-01T00:00:00+0530",   /* zone without ':' */
      "2024-03-01T00:00:00+05",     /* zone without minutes */
      "2024-03-01T00:00:00+05:30:00",
      "2024-03-01T00:00:00Z ",      /* trailing space */
      "2024-03-01T00:00:00ZZ",
      "2024-03-01T00:00:00 Z",
      "2024-03-01T00:00:00UTC",
  };
  char want[256];
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    char shown[JJ_SHOW_CAP];
    jj_show(shown, sizeof shown, bad[i], strlen(bad[i]), 1);
    snprintf(want, sizeof want,
             "%s is not a timestamp (expected YYYY-MM-DDTHH:MM:SS[.fraction](Z|+HH:MM))",
             shown);
    check_ts_error(bad[i], want);
  }
  check_ts_error("2024-03-01T00:00:00z",
                 "\"2024-03-01T00:00:00z\" is not a timestamp "
                 "(expected YYYY-MM-DDTHH:MM:SS[.fraction](Z|+HH:MM))");
  /*                                  ^ */
}

/* Format ts and compare with want ("" = expect 0). */
static void check_format(jj_timestamp ts, const char *want) {
  char out[40];
  size_t n = jj_timestamp_format(&ts, out);
  CHECK_EQ_MEM(out, n, want, strlen(want));
}

TEST(timestamp_format_writes_local_time_in_its_zone) {
  jj_timestamp ts = {0, 0, 0, 0};
  check_format(ts, "1970-01-01T00:00:00Z");
  ts.zone_minutes = 330;
  check_format(ts, "1970-01-01T05:30:00+05:30");
  ts.zone_minutes = -480;
  check_format(ts, "1969-12-31T16:00:00-08:00");
  ts.zone_minutes = -30;
  check_format(ts, "1969-12-31T23:30:00-00:30");
  ts.zone_minutes = 0;
  ts.nanos = 120000000;
  ts.digits = 2;
  check_format(ts, "1970-01-01T00:00:00.12Z");
  ts.digits = 9;
  check_format(ts, "1970-01-01T00:00:00.120000000Z");
  ts.nanos = 0;
  ts.digits = 3;
  check_format(ts, "1970-01-01T00:00:00.000Z");
  ts.seconds = -1;
  ts.nanos = 999999999;
  ts.digits = 9;
  check_format(ts, "1969-12-31T23:59:59.999999999Z");
}

TEST(timestamp_format_writes_plus_zero_zone_as_z) {
  jj_code rc;
  char out[40];
  jj_timestamp ts = ts_parse("2024-03-01T10:00:00+00:00", &rc);
  CHECK_EQ_INT(rc, JJ_OK);
  size_t n = jj_timestamp_format(&ts, out);
  CHECK_EQ_MEM(out, n, "2024-03-01T10:00:00Z", 20);
}

TEST(timestamp_format_refuses_out_of_range_fields) {
  jj_timestamp ts = {0, 0, 0, 0};
  ts.nanos = -1;
  check_format(ts, "");
  ts.nanos = 1000000000;
  check_format(ts, "");
  ts.nanos = 0;
  ts.digits = 10;
  check_format(ts, "");
  ts.digits = 0;
  ts.zone_minutes = 24 * 60;
  check_format(ts, "");
  ts.zone_minutes = -24 * 60;
  check_format(ts, "");
  ts.zone_minutes = 0;
  ts.nanos = 5; /* not expressible in 0 digits */
  check_format(ts, "");
  ts.nanos = 123456789;
  ts.digits = 3;
  check_format(ts, "");
  ts.nanos = 0;
  ts.digits = 0;
  ts.seconds = INT64_MAX;
  check_format(ts, "");
  ts.seconds = INT64_MIN;
  check_format(ts, "");
  /* the last instant of 9999 in UTC is 10000-01-01 at +01:00 */
  ts.seconds = (int64_t)DAY_LAST * 86400 + 86399;
  check_format(ts, "9999-12-31T23:59:59Z");
  ts.zone_minutes = 60;
  check_format(ts, "");
  ts.zone_minutes = -60;
  check_format(ts, "9999-12-31T22:59:59-01:00");
  /* the first instant of 0000 in UTC is year -1 at -00:01 */
  ts.seconds = (int64_t)DAY_FIRST * 86400;
  ts.zone_minutes = 0;
  check_format(ts, "0000-01-01T00:00:00Z");
  ts.zone_minutes = -1;
  check_format(ts, "");
  ts.zone_minutes = 1;
  check_format(ts, "0000-01-01T00:01:00+00:01");
}

/* A small deterministic generator for the random round trips. */
static uint64_t rng_state = 0x9E3779B97F4A7C15ULL;
static uint64_t rng(void) {
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return rng_state;
}

TEST(timestamp_round_trips_through_text_and_numbers) {
  static const int32_t unit[10] = {1000000000, 100000000, 10000000, 1000000,
                                   100000,     10000,     1000,     100,
                                   10,         1};
  const int64_t span = ((int64_t)DAY_LAST - DAY_FIRST + 1) * 86400;
  long mismatches = 0, refused = 0;
  for (int i = 0; i < 200000; i++) {
    jj_timestamp ts, back = {0, 0, 0, 0};
    char out[40];
    int64_t local = (int64_t)DAY_FIRST * 86400 + (int64_t)(rng() % (uint64_t)span);
    ts.digits = (uint8_t)(rng() % 10);
    ts.nanos = (int32_t)(rng() % 1000000000u);
    ts.nanos -= ts.nanos % unit[ts.digits];
    ts.zone_minutes = (int16_t)((int)(rng() % (2 * 1439 + 1)) - 1439);
    ts.seconds = local - (int64_t)ts.zone_minutes * 60;
    size_t n = jj_timestamp_format(&ts, out);
    if (n == 0) {
      refused++;
      continue;
    }
    if (jj_timestamp_parse(out, n, &back, NULL) != JJ_OK ||
        back.seconds != ts.seconds || back.nanos != ts.nanos ||
        back.zone_minutes != ts.zone_minutes || back.digits != ts.digits)
      mismatches++;
  }
  CHECK_EQ_INT(refused, 0);
  CHECK_EQ_INT(mismatches, 0);
}

int main(void) {
  RUN(date_reads_known_days);
  RUN(date_rejects_feb_29_in_common_year);
  RUN(date_leap_years_follow_gregorian_rules);
  RUN(date_checks_days_of_every_month);
  RUN(date_rejects_months_and_days_that_do_not_exist);
  RUN(date_rejects_text_not_shaped_yyyy_mm_dd);
  RUN(date_parse_accepts_null_error);
  RUN(date_days_round_trip_every_day_of_0000_to_9999);
  RUN(date_inline_check_agrees_with_the_calendar_everywhere);
  RUN(date_days_of_the_inline_check_agree_with_the_calendar_everywhere);
  RUN(date_inline_check_agrees_on_every_wrong_byte);
  RUN(date_format_refuses_days_outside_0000_to_9999);
  RUN(timestamp_reads_utc_instant_and_zone);
  RUN(timestamp_fraction_of_1_to_9_digits_scales_to_nanos);
  RUN(timestamp_rejects_times_that_do_not_exist);
  RUN(timestamp_date_part_problems_use_date_reasons);
  RUN(timestamp_requires_a_zone);
  RUN(timestamp_rejects_text_not_shaped_like_one);
  RUN(timestamp_format_writes_local_time_in_its_zone);
  RUN(timestamp_format_writes_plus_zero_zone_as_z);
  RUN(timestamp_format_refuses_out_of_range_fields);
  RUN(timestamp_round_trips_through_text_and_numbers);
  return test_summary("chrono");
}
