/*
** test_values_date_text.c — a date column read through jj_cursor_text,
** whose inline check (value.c: text_date, inline in jj_cursor_text, with
** internal.h's jj_date_ok) takes the commonest dates and sends every other
** value on to the full reader.  Every byte value at every position of
** dates spread over the calendar (the 29th of February of leap and common
** years, months' last days), each in its own row of one document: the
** accessor must accept exactly what the calendar (jj_date_parse asked for
** the days: its checks, not the inline one) accepts, hand out the text in
** place, and refuse the rest with the calendar's message, the row, the
** column and the value's byte offset.  Then the values the inline check
** must pass on: other lengths, escapes, null, numbers.
*/
#include <stdlib.h>

#include "jalapenojson.h"
#include "test.h"

#define HEAD "{\"jalapenojson\":1,\"columns\":[\"v\"],\"types\":[\"d\"],\"rows\":[\n"

/* One row: its text (10 bytes) and where its value starts. */
typedef struct {
  char text[10];
  size_t at;
} date_row;

/* Check a value jj_cursor_text refused: the calendar's message after
** the place, the row, column 0, the value's offset. */
static int refused_as(const jj_error *e, jj_code code, int64_t row, size_t at,
                      const char *why) {
  char want[400];
  snprintf(want, sizeof want, "row %" PRId64 ", column \"v\", byte %zu: %s", row, at, why);
  return e->code == code && e->row == row && e->column == 0 && e->offset == at &&
         strcmp(e->message, want) == 0;
}

TEST(dates_read_as_text_agree_with_the_calendar_on_every_wrong_byte) {
  static const char *const dates[] = {"2024-02-29", "2023-02-28", "1900-02-28",
                                       "2000-02-29", "0000-01-01", "9999-12-31",
                                       "2021-04-30", "1970-01-31", "2019-11-09"};
  const size_t ndates = sizeof dates / sizeof *dates, cap = ndates * 10 * 256;
  date_row *rows = malloc(cap * sizeof *rows);
  char *doc = malloc(sizeof HEAD + cap * 16 + 8);
  if (!CHECK(rows && doc)) {
    free(rows);
    free(doc);
    return;
  }
  size_t len = sizeof HEAD - 1, nrows = 0;
  memcpy(doc, HEAD, len);
  for (size_t k = 0; k < ndates; k++)
    for (int at = 0; at < 10; at++)
      for (int byte = 0; byte < 256; byte++) {
        /* bytes that would end the string or break the JSON text */
        if (byte == '"' || byte == '\\' || byte < 0x20) continue;
        date_row *r = &rows[nrows++];
        memcpy(r->text, dates[k], 10);
        r->text[at] = (char)byte;
        if (nrows > 1) doc[len++] = ',', doc[len++] = '\n';
        doc[len++] = '[';
        r->at = len;
        doc[len++] = '"';
        memcpy(doc + len, r->text, 10);
        len += 10;
        doc[len++] = '"';
        doc[len++] = ']';
      }
  memcpy(doc + len, "\n]}", 3);
  len += 3;
  jj_error e;
  jj_doc *d = jj_parse(doc, len, &e);
  jj_cursor *c = d ? jj_cursor_new(d, &e) : NULL;
  if (!CHECK(c)) {
    fprintf(stderr, "     %s\n", e.message);
  } else {
    long mismatches = 0, accepted = 0, refused = 0;
    for (size_t i = 0; i < nrows; i++) {
      const date_row *r = &rows[i];
      if (jj_cursor_next(c, &e) != 1) {
        mismatches++;
        break;
      }
      jj_error calendar;
      int32_t days;
      int ok = jj_date_parse(r->text, 10, &days, &calendar) == JJ_OK;
      const char *p = NULL;
      size_t n = 0;
      int got = jj_cursor_text(c, 0, &p, &n, &e);
      int right = ok ? got == 1 && p == doc + r->at + 1 && n == 10
                     : got == -1 && refused_as(&e, JJ_ERR_DATE, (int64_t)i + 1, r->at,
                                               calendar.message);
      if (!right && mismatches++ < 5)
        fprintf(stderr, "     row %zu %.10s: got %d (%s), calendar %s\n", i + 1, r->text, got,
                got == -1 ? e.message : "", ok ? "accepts" : calendar.message);
      accepted += ok;
      refused += !ok;
    }
    CHECK_EQ_INT(mismatches, 0);
    CHECK_EQ_INT(jj_cursor_next(c, &e), 0);
    /* each date itself, nine bytes changed to the same value, accepted */
    CHECK(accepted >= (long)(ndates * 10));
    CHECK(refused > (long)(ndates * 10 * 200)); /* nearly every change refused */
  }
  jj_cursor_free(c);
  jj_doc_free(d);
  free(rows);
  free(doc);
}

/* What the inline check must leave to the full reader: 9 and 11 bytes,
** an escape, null, a number; each read as jj_cursor_date reads it. */
TEST(dates_read_as_text_pass_other_values_on) {
  static const char doc[] = HEAD "[\"2024-02-2\"],\n[\"2024-02-290\"],\n"
                                 "[\"2024\\u002d02-29\"],\n[null],\n[20240229],\n"
                                 "[\"2024-02-29\"]\n]}";
  jj_error e;
  jj_doc *d = jj_parse(doc, sizeof doc - 1, &e);
  jj_cursor *c = d ? jj_cursor_new(d, &e) : NULL;
  const char *p;
  size_t n;
  if (!CHECK(c)) {
    jj_doc_free(d);
    return;
  }
  CHECK_EQ_INT(jj_cursor_next(c, &e), 1);
  CHECK_EQ_INT(jj_cursor_text(c, 0, &p, &n, &e), -1);
  CHECK(refused_as(&e, JJ_ERR_DATE, 1, 58,
                   "\"2024-02-2\" is not a date (expected YYYY-MM-DD)"));
  CHECK_EQ_INT(jj_cursor_next(c, &e), 1);
  CHECK_EQ_INT(jj_cursor_text(c, 0, &p, &n, &e), -1);
  CHECK(refused_as(&e, JJ_ERR_DATE, 2, 73,
                   "\"2024-02-290\" is not a date (expected YYYY-MM-DD)"));
  CHECK_EQ_INT(jj_cursor_next(c, &e), 1);
  CHECK_EQ_INT(jj_cursor_text(c, 0, &p, &n, &e), 1);
  CHECK(n == 10 && memcmp(p, "2024-02-29", 10) == 0); /* decoded */
  CHECK_EQ_INT(jj_cursor_next(c, &e), 1);
  CHECK_EQ_INT(jj_cursor_text(c, 0, &p, &n, &e), 0);
  CHECK_EQ_INT(jj_cursor_next(c, &e), 1);
  CHECK_EQ_INT(jj_cursor_text(c, 0, &p, &n, &e), -1);
  CHECK(refused_as(&e, JJ_ERR_TYPE, 5, 119, "expected a date string, found 20240229"));
  CHECK_EQ_INT(jj_cursor_next(c, &e), 1);
  CHECK_EQ_INT(jj_cursor_text(c, 0, &p, &n, &e), 1);
  CHECK(n == 10 && memcmp(p, "2024-02-29", 10) == 0 && p > doc && p < doc + sizeof doc);
  jj_cursor_free(c);
  jj_doc_free(d);
}

int main(void) {
  RUN(dates_read_as_text_agree_with_the_calendar_on_every_wrong_byte);
  RUN(dates_read_as_text_pass_other_values_on);
  return test_summary("values_date_text");
}
