/*
** chrono.c — dates ("YYYY-MM-DD"), timestamps
** ("YYYY-MM-DDTHH:MM:SS[.fraction](Z|+HH:MM|-HH:MM)") and local timestamps
** (the same without zone; SQLite's space for the T where asked):
** checking, converting to numbers and back.  A local timestamp's numbers
** count its wall-clock time as if it were UTC.
**
** The calendar is the proleptic Gregorian one for years 0000-9999 (0000 is
** a leap year, as every year divisible by 400).  Days count from 1970-01-01
** (day 0); 0000-01-01 is day -719528 and 9999-12-31 is day 2932896.
**
** Conversions use the constant-time "era" method: shift the year to start
** in March so February's leap day is the last day of the year, split the
** year into 400-year eras of 146097 days, and the days of the year before
** month m (counted from March) are (153 * m + 2) / 5.
**
** Errors go through jj_fail(err, code, NULL, ...) with no place: the caller
** (reader, writer) knows where the text was and adds it.  The text is
** quoted with jj_show, then the reason:
**   "2023-02-29" is not a date (2023 is not a leap year)
**   "2024-03-01T24:00:00Z" is not a timestamp (hour 24 does not exist)
** Nothing here allocates.
*/
#include <stdio.h>
#include <string.h>

#include "internal.h"

#define DAY_MIN (-719528) /* 0000-01-01 */
#define DAY_MAX 2932896   /* 9999-12-31 */
#define SEC_PER_DAY 86400

static const char month_names[12][10] = {
    "January", "February", "March",     "April",   "May",      "June",
    "July",    "August",   "September", "October", "November", "December"};

static int is_leap(int y) { return y % 4 == 0 && (y % 100 != 0 || y % 400 == 0); }

static int month_days(int y, int m) {
  static const unsigned char days[12] = {31, 28, 31, 30, 31, 30,
                                         31, 31, 30, 31, 30, 31};
  return m == 2 && is_leap(y) ? 29 : days[m - 1];
}

/* Days since 1970-01-01 of the valid date y-m-d. */
static int32_t days_from_civil(int y, int m, int d) {
  if (m <= 2) y--; /* the year now starts on March 1st */
  int era = (y >= 0 ? y : y - 399) / 400;
  int yoe = y - era * 400;                          /* 0..399 */
  int mp = m > 2 ? m - 3 : m + 9;                   /* March = 0 */
  int doy = (153 * mp + 2) / 5 + d - 1;             /* 0..365 */
  int doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;  /* 0..146096 */
  return (int32_t)(era * 146097 + doe - 719468);    /* 719468: 0000-03-01 */
}

/* The inverse of days_from_civil for any day in DAY_MIN..DAY_MAX. */
static void civil_from_days(int32_t z, int *y, int *m, int *d) {
  int32_t n = z + 719468;
  int32_t era = (n >= 0 ? n : n - 146096) / 146097;
  int32_t doe = n - era * 146097;                                /* 0..146096 */
  int32_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  int32_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);         /* 0..365 */
  int32_t mp = (5 * doy + 2) / 153;                              /* 0..11 */
  *d = (int)(doy - (153 * mp + 2) / 5 + 1);
  *m = (int)(mp < 10 ? mp + 3 : mp - 9);
  *y = (int)(yoe + era * 400 + (*m <= 2));
}

static int is_digit(char c) { return c >= '0' && c <= '9'; }

/* The number written by the n digits at p (the caller checked them). */
static int num(const char *p, int n) {
  int v = 0;
  for (int i = 0; i < n; i++) v = v * 10 + (p[i] - '0');
  return v;
}

#ifndef JJ_SMALL
/* 1 if p[0..10) has the shape YYYY-MM-DD (digits and dashes in place). */
static int date_shape(const char *p) {
  static const char mask[] = "dddd-dd-dd";
  for (int i = 0; i < 10; i++) {
    if (mask[i] == 'd' ? !is_digit(p[i]) : p[i] != '-') return 0;
  }
  return 1;
}
#else
/* A build for size checks dates and timestamps with one loop over a mask
** ('d' a digit, any other byte itself) as long as the mask: 0.03 KB less
** of its gzipped size.  The other builds keep the loop above, whose count
** is known, and spell the timestamp's shape out: this loop would cost
** jj_timestamp_parse 4% more instructions for the date, 14% for the whole
** shape (callgrind, gcc -O2). */
static int has_shape(const char *p, const char *mask) {
  for (; *mask; p++, mask++) {
    if (*mask == 'd' ? !is_digit(*p) : *p != *mask) return 0;
  }
  return 1;
}
static int date_shape(const char *p) { return has_shape(p, "dddd-dd-dd"); }
#endif

/* Check the calendar of the well-shaped date at p.  Returns 1 and sets
** *days, or 0 with the reason written into why[0..cap). */
static int date_check(const char *p, int32_t *days, char *why, size_t cap) {
  int y = num(p, 4), m = num(p + 5, 2), d = num(p + 8, 2);
  if (m < 1 || m > 12) {
    snprintf(why, cap, "month %.2s does not exist", p + 5);
    return 0;
  }
  if (d < 1) {
    snprintf(why, cap, "day %.2s does not exist", p + 8);
    return 0;
  }
  if (d > month_days(y, m)) {
    if (m == 2 && d == 29)
      snprintf(why, cap, "%.4s is not a leap year", p);
    else if (m == 2) /* February's length depends on the year: say which */
      snprintf(why, cap, "February %.4s has %d days", p, month_days(y, m));
    else
      snprintf(why, cap, "%s has %d days", month_names[m - 1],
               month_days(y, m));
    return 0;
  }
  *days = days_from_civil(y, m, d);
  return 1;
}

/* See internal.h: the digits of a date jj_date_ok accepted. */
int32_t jj_date_days(const char *p) {
  return days_from_civil(num(p, 4), num(p + 5, 2), num(p + 8, 2));
}

/* "YYYY-MM-DD" exactly, then the calendar. */
jj_code jj_date_parse(const char *p, size_t len, int32_t *days,
                      jj_error *err) {
  char why[64], shown[JJ_SHOW_CAP];
  int32_t n;
  /* The common case first, inline (the writer and jj_group check every date
  ** they are given, so this is on their hot path). */
  if (!days && jj_date_ok(p, len)) return JJ_OK;
  if (len != 10 || !date_shape(p)) {
    if (!err) return JJ_ERR_DATE; /* a question, not a message: no words */
    snprintf(why, sizeof why, "expected YYYY-MM-DD");
  } else if (date_check(p, &n, why, sizeof why)) {
    if (days) *days = n;
    return JJ_OK;
  }
  if (!err) return JJ_ERR_DATE;
  return jj_fail(err, JJ_ERR_DATE, NULL, "%s is not a date (%s)",
                 jj_show(shown, sizeof shown, p, len, 1), why);
}

/* Write y-m-d as "YYYY-MM-DD" (year 0..9999). */
static void put_date(char *out, int y, int m, int d) {
  out[0] = (char)('0' + y / 1000);
  out[1] = (char)('0' + y / 100 % 10);
  out[2] = (char)('0' + y / 10 % 10);
  out[3] = (char)('0' + y % 10);
  out[4] = '-';
  out[5] = (char)('0' + m / 10);
  out[6] = (char)('0' + m % 10);
  out[7] = '-';
  out[8] = (char)('0' + d / 10);
  out[9] = (char)('0' + d % 10);
}

/* Two digits of v (0..99) at out. */
static void put2(char *out, int v) {
  out[0] = (char)('0' + v / 10);
  out[1] = (char)('0' + v % 10);
}

jj_code jj_date_format(int32_t days, char out[10]) {
  int y, m, d;
  if (days < DAY_MIN || days > DAY_MAX) return JJ_ERR_DATE;
  civil_from_days(days, &y, &m, &d);
  put_date(out, y, m, d);
  return JJ_OK;
}

/* ---------------------------------------------------------------------- */
/* Timestamps                                                              */
/* ---------------------------------------------------------------------- */

static const int32_t pow10_9[10] = {1000000000, 100000000, 10000000, 1000000,
                                    100000,     10000,     1000,     100,
                                    10,         1};

/* 1 when the two digits at p (a field of a time or zone) are at most max;
** else 0 with the reason "<what> NN does not exist" in why[0..cap). */
static int field_ok(const char *p, int max, const char *what, char *why, size_t cap) {
  if (num(p, 2) <= max) return 1;
  snprintf(why, cap, "%s %.2s does not exist", what, p);
  return 0;
}

/* What a parse accepts: a zone required (t), or none allowed (l), with
** a space for the T too (SQLite's form, accepted where inferred). */
enum { WITH_ZONE, LOCAL, LOCAL_SPACE };

/* First the shape (date, 'T', time, fraction, zone), so a text that is
** not a timestamp at all gets "expected ..."; then the values, date first,
** then the time, then the zone. */
static int ts_check(const char *p, size_t len, int mode, jj_timestamp *out,
                    char *why, size_t cap) {
  size_t i = 19, digits = 0;
  int32_t nanos = 0, days;
  int zone = 0;
  const char *zp = NULL; /* the zone's "+HH:MM", NULL for Z or none */

  if (len >= 19 && mode == LOCAL_SPACE && p[10] == ' ') {
    /* the space form: the same shape once the T is in place */
    char t[40];
    if (len > sizeof t) goto shape;
    memcpy(t, p, len);
    t[10] = 'T';
    if (ts_check(t, len, LOCAL, out, why, cap)) return 1;
    if (!strncmp(why, "expected", 8)) goto shape;
    return 0;
  }
#ifdef JJ_SMALL /* see has_shape */
  if (len < 19 || !has_shape(p, "dddd-dd-ddTdd:dd:dd")) goto shape;
#else
  if (len < 19 || !date_shape(p) || p[10] != 'T' || !is_digit(p[11]) ||
      !is_digit(p[12]) || p[13] != ':' || !is_digit(p[14]) ||
      !is_digit(p[15]) || p[16] != ':' || !is_digit(p[17]) ||
      !is_digit(p[18]))
    goto shape;
#endif
  if (i < len && p[i] == '.') {
    i++;
    while (i < len && is_digit(p[i]) && digits < 10) {
      if (digits < 9) nanos = nanos * 10 + (p[i] - '0');
      digits++;
      i++;
    }
    if (digits == 0 || digits > 9) goto shape;
#ifdef JJ_SMALL /* a build for size: no table of powers here */
    for (size_t k = digits; k < 9; k++) nanos *= 10;
#else
    nanos *= pow10_9[digits];
#endif
  }
  if (mode != WITH_ZONE) {
    if (i == len) {
      zp = NULL;
    } else if (p[i] == 'Z' || p[i] == '+' || p[i] == '-') {
      snprintf(why, cap, "a local timestamp has no zone");
      return 0;
    } else {
      goto shape;
    }
  } else if (i == len) {
    snprintf(why, cap, "missing zone: add Z or +HH:MM");
    return 0;
  } else if (p[i] == 'Z' && len - i == 1) {
    zp = NULL;
#ifdef JJ_SMALL
  } else if ((p[i] == '+' || p[i] == '-') && len - i == 6 && has_shape(p + i + 1, "dd:dd")) {
#else
  } else if ((p[i] == '+' || p[i] == '-') && len - i == 6 &&
             is_digit(p[i + 1]) && is_digit(p[i + 2]) && p[i + 3] == ':' &&
             is_digit(p[i + 4]) && is_digit(p[i + 5])) {
#endif
    zp = p + i;
  } else {
    goto shape;
  }

  if (!date_check(p, &days, why, cap) ||
      !field_ok(p + 11, 23, "hour", why, cap) ||
      !field_ok(p + 14, 59, "minute", why, cap) ||
      !field_ok(p + 17, 59, "second", why, cap))
    return 0;
  int hh = num(p + 11, 2), mi = num(p + 14, 2), ss = num(p + 17, 2);
  if (zp) {
    if (!field_ok(zp + 1, 23, "zone hour", why, cap) ||
        !field_ok(zp + 4, 59, "zone minute", why, cap))
      return 0;
    zone = (num(zp + 1, 2) * 60 + num(zp + 4, 2)) * (zp[0] == '-' ? -1 : 1);
  }
  if (out) {
    out->seconds = (int64_t)days * SEC_PER_DAY + hh * 3600 + mi * 60 + ss -
                   (int64_t)zone * 60;
    out->nanos = nanos;
    out->zone_minutes = (int16_t)zone;
    out->digits = (uint8_t)digits;
  }
  return 1;

shape:
  if (mode == WITH_ZONE)
    snprintf(why, cap, "expected YYYY-MM-DDTHH:MM:SS[.fraction](Z|+HH:MM)");
  else
    snprintf(why, cap, "expected YYYY-MM-DD%sHH:MM:SS[.fraction]",
             mode == LOCAL_SPACE ? "(T| )" : "T");
  return 0;
}

static jj_code ts_parse(const char *p, size_t len, int mode, jj_timestamp *out,
                        jj_error *err) {
  char why[80], shown[JJ_SHOW_CAP];
  if (ts_check(p, len, mode, out, why, sizeof why)) return JJ_OK;
  if (!err) return JJ_ERR_TIMESTAMP; /* a question, not a message */
  return jj_fail(err, JJ_ERR_TIMESTAMP, NULL, "%s is not %s (%s)",
                 jj_show(shown, sizeof shown, p, len, 1),
                 mode == WITH_ZONE ? "a timestamp" : "a local timestamp", why);
}

jj_code jj_timestamp_parse(const char *p, size_t len, jj_timestamp *out,
                           jj_error *err) {
  return ts_parse(p, len, WITH_ZONE, out, err);
}

jj_code jj_local_timestamp_parse(const char *p, size_t len, int space_ok,
                                 jj_timestamp *out, jj_error *err) {
  return ts_parse(p, len, space_ok ? LOCAL_SPACE : LOCAL, out, err);
}

/* The local time (UTC instant plus zone) as text.  A zone of 0 minutes is
** written "Z", so "+00:00" read by jj_timestamp_parse comes back as "Z"
** (the numbers cannot tell them apart).  nanos must be expressible in
** `digits` digits (a multiple of 10^(9-digits)): nothing is silently cut.
** Returns 0 when a field is out of range or the local date is outside
** 0000-9999. */
static size_t ts_format(const jj_timestamp *ts, int with_zone, char out[40]) {
  const int64_t lo = (int64_t)DAY_MIN * SEC_PER_DAY - SEC_PER_DAY;
  const int64_t hi = ((int64_t)DAY_MAX + 2) * SEC_PER_DAY;
  int zone = with_zone ? ts->zone_minutes : 0, digits = ts->digits;
  if (ts->nanos < 0 || ts->nanos > 999999999 || digits > 9) return 0;
  if (zone < -(23 * 60 + 59) || zone > 23 * 60 + 59) return 0;
  if (ts->nanos % pow10_9[digits] != 0) return 0;
  if (ts->seconds < lo || ts->seconds > hi) return 0; /* no overflow below */
  int64_t local = ts->seconds + (int64_t)zone * 60;
  int64_t days = local / SEC_PER_DAY, sod = local % SEC_PER_DAY;
  if (sod < 0) {
    sod += SEC_PER_DAY;
    days--;
  }
  if (days < DAY_MIN || days > DAY_MAX) return 0;
  int y, m, d;
  civil_from_days((int32_t)days, &y, &m, &d);
  put_date(out, y, m, d);
  out[10] = 'T';
  put2(out + 11, (int)(sod / 3600));
  out[13] = ':';
  put2(out + 14, (int)(sod / 60 % 60));
  out[16] = ':';
  put2(out + 17, (int)(sod % 60));
  size_t n = 19;
  if (digits) {
    int32_t f = ts->nanos / pow10_9[digits];
    out[n++] = '.';
    for (int k = digits - 1; k >= 0; k--) {
      out[n + (size_t)k] = (char)('0' + f % 10);
      f /= 10;
    }
    n += (size_t)digits;
  }
  if (!with_zone) return n;
  if (zone == 0) {
    out[n++] = 'Z';
  } else {
    int a = zone < 0 ? -zone : zone;
    out[n++] = zone < 0 ? '-' : '+';
    put2(out + n, a / 60);
    out[n + 2] = ':';
    put2(out + n + 3, a % 60);
    n += 5;
  }
  return n;
}

size_t jj_timestamp_format(const jj_timestamp *ts, char out[40]) {
  return ts_format(ts, 1, out);
}

/* The wall-clock time with no zone: seconds read as UTC, zone ignored. */
size_t jj_local_timestamp_format(const jj_timestamp *ts, char out[40]) {
  return ts_format(ts, 0, out);
}
