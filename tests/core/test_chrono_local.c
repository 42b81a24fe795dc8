/*
** test_chrono_local.c — local timestamps (core/chrono.c's
** jj_local_timestamp_parse and _format): the grammar
** YYYY-MM-DDTHH:MM:SS[.f{1,9}] without zone, and SQLite's space for the T
** where asked.  Every byte value at every position of a set of values is
** checked against a slow reference written here independently; every
** month's length of leap and common years; fractions of 1 to 9 digits;
** zones, separators and fields out of range refused with their words; the
** numbers both ways.
*/
#include <stdlib.h>

#include "internal.h"
#include "jalapenojson.h"
#include "test.h"

/* ---- the reference: slow, spelled out, no code shared with chrono.c ---- */

static int ref_leap(int y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

static int ref_month_days(int y, int m) {
  switch (m) {
    case 2: return ref_leap(y) ? 29 : 28;
    case 4: case 6: case 9: case 11: return 30;
    default: return 31;
  }
}

static int ref_digits(const char *p, int n, int *v) {
  *v = 0;
  for (int i = 0; i < n; i++) {
    if (p[i] < '0' || p[i] > '9') return 0;
    *v = *v * 10 + (p[i] - '0');
  }
  return 1;
}

/* 1 when p[0..len) is a local timestamp (with a space for the T when
** space_ok); *secs the wall clock's seconds since 1970-01-01 counted day
** by day, *nanos, *ndig. */
static int ref_local(const char *p, size_t len, int space_ok, int64_t *secs,
                     int32_t *nanos, int *ndig) {
  int y, mo, d, h, mi, s;
  if (len < 19 || len == 20 || len > 29) return 0;
  if (!ref_digits(p, 4, &y) || p[4] != '-' || !ref_digits(p + 5, 2, &mo) ||
      p[7] != '-' || !ref_digits(p + 8, 2, &d))
    return 0;
  if (!(p[10] == 'T' || (space_ok && p[10] == ' '))) return 0;
  if (!ref_digits(p + 11, 2, &h) || p[13] != ':' || !ref_digits(p + 14, 2, &mi) ||
      p[16] != ':' || !ref_digits(p + 17, 2, &s))
    return 0;
  int32_t f = 0;
  int n = (int)len - 20;
  if (len > 19) {
    int v;
    if (p[19] != '.' || !ref_digits(p + 20, n, &v)) return 0;
    f = v;
    for (int k = n; k < 9; k++) f *= 10;
  } else {
    n = 0;
  }
  if (mo < 1 || mo > 12 || d < 1 || d > ref_month_days(y, mo)) return 0;
  if (h > 23 || mi > 59 || s > 59) return 0;
  int64_t days = 0; /* from 1970-01-01, a year and a month at a time */
  for (int yy = 1970; yy < y; yy++) days += ref_leap(yy) ? 366 : 365;
  for (int yy = y; yy < 1970; yy++) days -= ref_leap(yy) ? 366 : 365;
  for (int mm = 1; mm < mo; mm++) days += ref_month_days(y, mm);
  days += d - 1;
  *secs = days * 86400 + h * 3600 + mi * 60 + s;
  *nanos = f;
  *ndig = n;
  return 1;
}

/* Parse expecting failure with exactly this message. */
static void check_local_error(const char *text, int space_ok, const char *message) {
  jj_error err;
  jj_timestamp ts = {7, 7, 7, 7};
  CHECK_EQ_INT(jj_local_timestamp_parse(text, strlen(text), space_ok, &ts, &err),
               JJ_ERR_TIMESTAMP);
  CHECK_EQ_INT(err.code, JJ_ERR_TIMESTAMP);
  CHECK_EQ_STR(err.message, message);
  CHECK_EQ_U64(err.offset, JJ_NO_OFFSET);
  CHECK_EQ_INT(ts.seconds, 7); /* untouched on failure */
}

TEST(local_reads_the_wall_clock_as_if_utc) {
  jj_timestamp ts;
  CHECK_EQ_INT(jj_local_timestamp_parse("2024-03-01T12:34:56", 19, 0, &ts, NULL), JJ_OK);
  CHECK_EQ_INT(ts.seconds, 19783LL * 86400 + 12 * 3600 + 34 * 60 + 56);
  CHECK_EQ_INT(ts.nanos, 0);
  CHECK_EQ_INT(ts.zone_minutes, 0);
  CHECK_EQ_INT(ts.digits, 0);
  CHECK_EQ_INT(jj_local_timestamp_parse("2024-03-01 12:34:56.5", 21, 1, &ts, NULL), JJ_OK);
  CHECK_EQ_INT(ts.seconds, 19783LL * 86400 + 12 * 3600 + 34 * 60 + 56);
  CHECK_EQ_INT(ts.nanos, 500000000);
  CHECK_EQ_INT(ts.digits, 1);
  CHECK_EQ_INT(jj_local_timestamp_parse("0000-01-01T00:00:00", 19, 0, &ts, NULL), JJ_OK);
  CHECK_EQ_INT(ts.seconds, -719528LL * 86400);
  CHECK_EQ_INT(jj_local_timestamp_parse("9999-12-31T23:59:59.999999999", 29, 0, &ts, NULL),
               JJ_OK);
  CHECK_EQ_INT(ts.seconds, 2932896LL * 86400 + 86399);
  CHECK_EQ_INT(ts.nanos, 999999999);
  /* out and err may be NULL */
  CHECK_EQ_INT(jj_local_timestamp_parse("2024-03-01T00:00:00", 19, 0, NULL, NULL), JJ_OK);
}

TEST(local_fraction_of_1_to_9_digits_scales_to_nanos) {
  static const int32_t want[10] = {0,         100000000, 120000000, 123000000, 123400000,
                                   123450000, 123456000, 123456700, 123456780, 123456789};
  char text[64];
  jj_timestamp ts;
  for (int n = 1; n <= 9; n++) {
    for (int space = 0; space < 2; space++) {
      snprintf(text, sizeof text, "2024-03-01%c00:00:00.%.*s", space ? ' ' : 'T', n,
               "123456789");
      CHECK_EQ_INT(jj_local_timestamp_parse(text, strlen(text), 1, &ts, NULL), JJ_OK);
      CHECK_EQ_INT(ts.nanos, want[n]);
      CHECK_EQ_INT(ts.digits, n);
    }
  }
  check_local_error("2024-03-01T00:00:00.1234567890", 0,
                    "\"2024-03-01T00:00:00.1234567890\" is not a local timestamp "
                    "(expected YYYY-MM-DDTHH:MM:SS[.fraction])");
  check_local_error("2024-03-01T00:00:00.", 0,
                    "\"2024-03-01T00:00:00.\" is not a local timestamp "
                    "(expected YYYY-MM-DDTHH:MM:SS[.fraction])");
}

TEST(local_checks_every_month_of_leap_and_common_years) {
  static const int years[] = {0, 1, 4, 100, 400, 1900, 1970, 2000, 2023, 2024, 9999};
  char text[64];
  long agreed = 0;
  for (size_t k = 0; k < sizeof years / sizeof years[0]; k++) {
    for (int m = 0; m <= 13; m++) {
      for (int d = 0; d <= 32; d++) {
        snprintf(text, sizeof text, "%04d-%02d-%02dT23:59:59.25", years[k], m, d);
        int64_t secs = 0;
        int32_t nanos = 0;
        int nd = 0;
        int want = ref_local(text, 22, 0, &secs, &nanos, &nd);
        jj_timestamp ts = {0, 0, 0, 0};
        jj_error err, date_err;
        int got = jj_local_timestamp_parse(text, 22, 0, &ts, &err) == JJ_OK;
        CHECK_EQ_INT(got, want);
        if (got && want) {
          CHECK_EQ_INT(ts.seconds, secs);
          CHECK_EQ_INT(ts.nanos, nanos);
          CHECK_EQ_INT(ts.digits, nd);
          agreed++;
        } else if (!got) {
          /* the date's reason, as a date column gives it */
          CHECK_EQ_INT(jj_date_parse(text, 10, NULL, &date_err), JJ_ERR_DATE);
          const char *why = strchr(date_err.message, '(');
          CHECK(why && strstr(err.message, why) != NULL);
        }
      }
    }
  }
  CHECK_EQ_INT(agreed, 11 * 365 + 5); /* 0, 4, 400, 2000, 2024 are leap years */
}

TEST(local_every_byte_at_every_position_agrees_with_the_reference) {
  static const char *const values[] = {
      "2024-02-29T23:59:59",      "2023-02-28 00:00:00",       "1900-02-28T12:30:45.5",
      "2000-02-29 01:02:03.123",  "0000-01-01T00:00:00.000000001",
      "9999-12-31 23:59:59.999999999", "2021-04-30T10:00:00.12"};
  long checked = 0, accepted = 0;
  char text[64];
  for (size_t v = 0; v < sizeof values / sizeof values[0]; v++) {
    size_t len = strlen(values[v]);
    for (size_t at = 0; at < len; at++) {
      for (int b = 0; b < 256; b++) {
        memcpy(text, values[v], len);
        text[at] = (char)b;
        for (int space_ok = 0; space_ok < 2; space_ok++) {
          int64_t secs = 0;
          int32_t nanos = 0;
          int nd = 0;
          int want = ref_local(text, len, space_ok, &secs, &nanos, &nd);
          jj_timestamp ts = {0, 0, 0, 0};
          int got = jj_local_timestamp_parse(text, len, space_ok, &ts, NULL) == JJ_OK;
          CHECK_EQ_INT(got, want);
          if (got && want)
            CHECK(ts.seconds == secs && ts.nanos == nanos && ts.digits == nd &&
                  ts.zone_minutes == 0);
          /* a timestamp (t) refuses every local one: no zone */
          if (want) CHECK_EQ_INT(jj_timestamp_parse(text, len, NULL, NULL), JJ_ERR_TIMESTAMP);
          accepted += got;
          checked++;
        }
      }
    }
  }
  CHECK(checked > 80000);
  CHECK(accepted > 700);
}

TEST(local_refuses_a_zone_bad_separators_and_fields_out_of_range) {
  static const char *const zoned[] = {"2024-03-01T00:00:00Z", "2024-03-01T00:00:00+05:30",
                                      "2024-03-01T00:00:00-00:00", "2024-03-01T00:00:00.5Z"};
  char want[200];
  for (size_t i = 0; i < sizeof zoned / sizeof zoned[0]; i++) {
    snprintf(want, sizeof want, "\"%s\" is not a local timestamp (a local timestamp has no zone)",
             zoned[i]);
    check_local_error(zoned[i], 0, want);
    check_local_error(zoned[i], 1, want);
  }
  static const char *const shapes[] = {
      "2024-03-01t00:00:00", "2024-03-01_00:00:00", "2024-03-01/00:00:00",
      "2024-03-01T00:00",    "2024-03-01T0:00:00",  "2024-3-01T00:00:00",
      "2024-03-01T00:00:00,5", "2024-03-01T00:00:00 ", " 2024-03-01T00:00:00",
      "2024-03-01T00-00-00", "2024-03-01",          ""};
  for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
    char shown[JJ_SHOW_CAP];
    jj_show(shown, sizeof shown, shapes[i], strlen(shapes[i]), 1);
    snprintf(want, sizeof want,
             "%s is not a local timestamp (expected YYYY-MM-DDTHH:MM:SS[.fraction])", shown);
    check_local_error(shapes[i], 0, want);
    snprintf(want, sizeof want,
             "%s is not a local timestamp (expected YYYY-MM-DD(T| )HH:MM:SS[.fraction])", shown);
    check_local_error(shapes[i], 1, want);
  }
  /* the space only where asked (SQLite's form) */
  check_local_error("2024-03-01 00:00:00", 0,
                    "\"2024-03-01 00:00:00\" is not a local timestamp "
                    "(expected YYYY-MM-DDTHH:MM:SS[.fraction])");
  check_local_error("2024-03-01 24:00:00", 1,
                    "\"2024-03-01 24:00:00\" is not a local timestamp (hour 24 does not exist)");
  check_local_error("2024-03-01T23:60:00", 0,
                    "\"2024-03-01T23:60:00\" is not a local timestamp (minute 60 does not exist)");
  /* no leap second, as t */
  check_local_error("2016-12-31T23:59:60", 0,
                    "\"2016-12-31T23:59:60\" is not a local timestamp (second 60 does not exist)");
  check_local_error("2023-02-29 10:00:00", 1,
                    "\"2023-02-29 10:00:00\" is not a local timestamp (2023 is not a leap year)");
}

TEST(local_format_writes_the_t_form_without_zone) {
  char out[40];
  jj_timestamp ts = {0, 0, 330, 0}; /* the zone is ignored: none is written */
  CHECK_EQ_MEM(out, jj_local_timestamp_format(&ts, out), "1970-01-01T00:00:00", 19);
  ts.nanos = 250000000;
  ts.digits = 2;
  CHECK_EQ_MEM(out, jj_local_timestamp_format(&ts, out), "1970-01-01T00:00:00.25", 22);
  ts.digits = 9;
  CHECK_EQ_MEM(out, jj_local_timestamp_format(&ts, out), "1970-01-01T00:00:00.250000000", 29);
  ts.digits = 1; /* .25 in one digit: refused, nothing is cut */
  CHECK_EQ_INT(jj_local_timestamp_format(&ts, out), 0);
  ts = (jj_timestamp){2932896LL * 86400 + 86400, 0, 0, 0}; /* 10000-01-01 */
  CHECK_EQ_INT(jj_local_timestamp_format(&ts, out), 0);
  ts = (jj_timestamp){-719528LL * 86400 - 1, 0, 0, 0}; /* year -1 */
  CHECK_EQ_INT(jj_local_timestamp_format(&ts, out), 0);
  /* random instants of 0000-9999 both ways */
  uint64_t x = 0x9E3779B97F4A7C15ULL;
  long bad = 0;
  for (int i = 0; i < 100000; i++) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    jj_timestamp a = {-719528LL * 86400 + (int64_t)(x % (3652425ULL * 86400)), 0, 0, 0}, b;
    a.digits = (uint8_t)(x >> 40) % 10;
    a.nanos = a.digits ? (int32_t)((x >> 20) % 1000000000u) : 0;
    static const int32_t unit[10] = {1000000000, 100000000, 10000000, 1000000, 100000,
                                     10000,      1000,      100,      10,      1};
    a.nanos -= a.nanos % unit[a.digits];
    size_t n = jj_local_timestamp_format(&a, out);
    if (!n || jj_local_timestamp_parse(out, n, 0, &b, NULL) != JJ_OK || b.seconds != a.seconds ||
        b.nanos != a.nanos || b.digits != a.digits)
      bad++;
  }
  CHECK_EQ_INT(bad, 0);
}

int main(void) {
  RUN(local_reads_the_wall_clock_as_if_utc);
  RUN(local_fraction_of_1_to_9_digits_scales_to_nanos);
  RUN(local_checks_every_month_of_leap_and_common_years);
  RUN(local_every_byte_at_every_position_agrees_with_the_reference);
  RUN(local_refuses_a_zone_bad_separators_and_fields_out_of_range);
  RUN(local_format_writes_the_t_form_without_zone);
  return test_summary("chrono_local");
}
