/*
** test_convert_ahead.c — CSV rows written in the converter's first pass
** (convert_ahead.c) make the document pass 2 would have made.
**
** The reference is the same CSV converted with the inferred types given as
** an explicit schema: a typed column is never written ahead, so that
** conversion is pass 2's, and a value written as its column's type is the
** same bytes whether the type was inferred or given.  Random tables mix
** what keeps a column's first type (integers in a column of floats, nulls
** first) with what ends writing ahead (a float after integers, text after
** numbers, a row set aside), numbers as spreadsheets write them and with
** thousands separators, small and past the 256 KiB kept in memory before
** the rows go to a temporary file.
** The numbers copied as the input spells them are checked against the
** core's own printer.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../core/convert_scan.h"
#include "test_convert.h"

/* A small deterministic generator (xorshift64*). */
static uint64_t rng_state = 0x9E3779B97F4A7C15u;
static uint64_t rnd(void) {
  rng_state ^= rng_state >> 12;
  rng_state ^= rng_state << 25;
  rng_state ^= rng_state >> 27;
  return rng_state * 2685821657736338717u;
}
static unsigned below(unsigned n) { return (unsigned)(rnd() % n); }

/* ---- the numbers copied as written ---- */

/* Whether jj_writer_double writes text[0..len) back for its value. */
static int prints_as_written(const char *p, size_t len) {
  double d;
  char out[40];
  if (jj_num_parse_double(p, len, &d) != JJ_NUM_OK) return 0;
  size_t n = jj_num_format_double(d, out);
  return n == len && !memcmp(out, p, len);
}

static void check_float(const char *s) {
  size_t len = strlen(s);
  if (cv_num_fast(s, len) != K_FLOAT) return;
  if (cv_float_canonical(s, len) && !prints_as_written(s, len)) {
    fprintf(stderr, "     %s is copied but prints otherwise\n", s);
    CHECK(0);
  }
}

TEST(floats_copied_only_when_printed_the_same) {
  static const char *const fixed[] = {
      "0.0001", "0.00001", "-0.0001", "0.5", "-0.5", "1.5", "1.50", "0.1",
      "123456789012345.5", "12345678901234.5", "99999999999999.9",
      "999999999999999.9", "0.000123456789012345", "0.00012345678901234",
      "9007199254740993.5", "1.000000000000001", "1.0000000000000001",
      "100000000000000.1", "0.30000000000000004", "0.3"};
  for (size_t i = 0; i < sizeof fixed / sizeof *fixed; i++) check_float(fixed[i]);
  CHECK(cv_float_canonical("0.0001", 6));
  CHECK(!cv_float_canonical("0.00001", 7)); /* repr: 1e-05 */
  CHECK(!cv_float_canonical("1.50", 4));
  CHECK(cv_float_canonical("12345678901234.5", 16));  /* 15 digits */
  CHECK(!cv_float_canonical("123456789012345.5", 17)); /* 16 */
  CHECK(!cv_int_canonical("-0", 2));
  CHECK(cv_int_canonical("-7", 2));
  /* random decimals: 0 to 16 digits before the point, 1 to 17 after */
  unsigned copied = 0;
  for (int n = 0; n < 200000; n++) {
    char s[48];
    size_t k = 0, whole = below(17), frac = 1 + below(17);
    if (below(2)) s[k++] = '-';
    if (!whole) s[k++] = '0';
    for (size_t i = 0; i < whole; i++)
      s[k++] = (char)(i ? '0' + below(10) : '1' + below(9));
    s[k++] = '.';
    for (size_t i = 0; i < frac; i++) /* zeros first, often */
      s[k++] = (char)(i < frac / 2 && below(2) ? '0' : '0' + below(10));
    s[k] = '\0';
    check_float(s);
    copied += cv_num_fast(s, k) == K_FLOAT && cv_float_canonical(s, k);
  }
  CHECK(copied > 50000); /* the shortcut is taken, not only refused */
}

/* ---- whole conversions against pass 2's ---- */

/* The inferred schema of a conversion, as a schema option. */
static char *schema_of(const jj_schema *s) {
  size_t n = jj_schema_columns(s), len;
  char *out = malloc(n * 40 + 1);
  size_t k = 0;
  for (size_t i = 0; i < n; i++) { /* the tests' names are short and plain */
    const char *name = jj_schema_name(s, i, &len);
    k += (size_t)sprintf(out + k, "%s%.*s:%c", i ? "," : "", (int)len, name,
                         jj_type_letter(jj_schema_type(s, i)));
  }
  out[k] = '\0';
  return out;
}

/* Convert csv inferred (rows written ahead) and with the inferred types
** given (pass 2): the same document, and the same rows set aside. */
static void check_same(const char *csv, size_t len, jj_on_error on,
                       char thousands) {
  jj_convert_opts o;
  conv_out ahead, given;
  memset(&o, 0, sizeof o);
  o.on_error = on;
  o.thousands = thousands;
  if (conv_opts(csv, len, o, &ahead) != JJ_OK) {
    fprintf(stderr, "     error: %s\n", ahead.err.message);
    CHECK(0);
    conv_free(&ahead);
    return;
  }
  char *schema = schema_of(ahead.res.schema);
  o.schema = schema;
  CHECK_EQ_INT(conv_opts(csv, len, o, &given), JJ_OK);
  if (strcmp(ahead.doc.p, given.doc.p)) {
    fprintf(stderr, "     schema %s: the documents differ\n", schema);
    CHECK(0);
  }
  CHECK_EQ_INT(ahead.res.rows, given.res.rows);
  CHECK_EQ_INT(ahead.res.rejected, given.res.rejected);
  free(schema);
  conv_free(&ahead);
  conv_free(&given);
}

/* One field of a column whose values are drawn from `kind`. */
static void field(tbuf *b, int kind, size_t row) {
  char s[64];
  static const char *const texts[] = {"Oslo", "Tromsø", "a b", "\"q\"\"uote\"",
                                      "x", "2024-13-01", "\"1,5\""};
  static const char *const floats[] = {"1.5", "0.25", "-3.125", "149.90",
                                       "0.00001", "12345678901234.5",
                                       "123456789012345.5", "0.1", "-0.0"};
  static const char *const ints[] = {"0", "-0", "7", "-12", "123456789012345",
                                     "9223372036854775807"};
  if (below(10) == 0) { /* a null */
    tbuf_sink(b, "", 0);
    return;
  }
  switch (kind) {
    case 0: /* integers */
      snprintf(s, sizeof s, "%s", ints[below(6)]);
      break;
    case 1: /* floats, integers among them */
      if (below(3) == 0) {
        snprintf(s, sizeof s, "%u", below(1000));
      } else {
        const char *f = floats[below(9)];
        snprintf(s, sizeof s, "%s", f);
      }
      break;
    case 2: /* dates */
      snprintf(s, sizeof s, "%04u-%02u-%02u", 1 + below(9999), 1 + below(12),
               1 + below(28));
      break;
    case 3: /* text */
      snprintf(s, sizeof s, "%s", texts[below(7)]);
      break;
    case 4: /* integers, then a float late */
      snprintf(s, sizeof s, row > 900 && below(50) == 0 ? "%u.5" : "%u",
               below(100));
      break;
    case 5: /* numbers, then text late */
      snprintf(s, sizeof s, row > 900 && below(80) == 0 ? "n/a" : "%u",
               below(100));
      break;
    case 6: /* numbers as spreadsheets write them, and with thousands
            ** separators (numbers with the option, else text) */
      snprintf(s, sizeof s,
               below(200) == 0 ? ".%u"
               : below(3) == 0 ? "\"1,%03u\""
                               : "%u.25",
               below(1000));
      break;
    default: /* timestamps, zoned or not, and booleans as text */
      snprintf(s, sizeof s,
               below(3) == 0   ? "2024-02-29T10:00:00Z"
               : below(2) == 0 ? "2024-02-29 10:00:00"
                               : "true");
  }
  tbuf_sink(b, s, strlen(s));
}

static void random_table(tbuf *b, size_t rows, int *kinds, size_t ncols,
                         int ragged) {
  for (size_t i = 0; i < ncols; i++) {
    char h[16];
    int n = snprintf(h, sizeof h, "%sc%zu", i ? "," : "", i);
    tbuf_sink(b, h, (size_t)n);
  }
  tbuf_sink(b, "\n", 1);
  for (size_t r = 0; r < rows; r++) {
    size_t n = ncols;
    if (ragged && below(400) == 0) n = ncols + 1; /* a row to set aside */
    for (size_t i = 0; i < n; i++) {
      if (i) tbuf_sink(b, ",", 1);
      field(b, i < ncols ? kinds[i] : 0, r);
    }
    int crlf = below(5) == 0;
    tbuf_sink(b, crlf ? "\r\n" : "\n", crlf ? 2 : 1);
  }
}

TEST(random_tables_as_pass_two_writes_them) {
  for (int t = 0; t < 300; t++) {
    int kinds[8];
    size_t ncols = 1 + below(8), rows = below(4) ? below(1200) : 8000 + below(8000);
    for (size_t i = 0; i < ncols; i++) kinds[i] = (int)below(8);
    tbuf b = {0};
    int ragged = t % 5 == 0;
    random_table(&b, rows, kinds, ncols, ragged);
    check_same(b.p, b.len, ragged ? JJ_ON_ERROR_SKIP : JJ_ON_ERROR_FAIL,
               t % 3 ? ',' : 0);
    tbuf_free(&b);
  }
}

/* Past the rows kept in memory, a column that changes at the very end:
** the rows read back from the temporary file are not used. */
TEST(a_change_after_the_temporary_file) {
  for (int late = 0; late < 2; late++) {
    tbuf b = {0};
    tbuf_sink(&b, "id,qty,name,day\n", 16);
    for (int r = 0; r < 40000; r++) {
      char line[96];
      int n = snprintf(line, sizeof line, "%d,%d.5,name %d,2024-01-%02d\n", r,
                       r % 97, r, 1 + r % 28);
      tbuf_sink(&b, line, (size_t)n);
    }
    if (late) tbuf_sink(&b, "40000.5,1,x,2024-01-01\n", 23);
    CHECK(b.len > 1000000);
    check_same(b.p, b.len, JJ_ON_ERROR_FAIL, 0);
    conv_out o;
    conv(b.p, NULL, 0, &o);
    CHECK_EQ_INT(o.code, JJ_OK);
    CHECK_EQ_INT(jj_schema_type(o.res.schema, 0), late ? JJ_FLOAT : JJ_INT);
    CHECK(strstr(o.doc.p, late ? "[0.0,0.5,\"name 0\",\"2024-01-01\"]"
                               : "[0,0.5,\"name 0\",\"2024-01-01\"]") != NULL);
    conv_free(&o);
    tbuf_free(&b);
  }
}

/* One text of a column of dates or timestamps in other spellings: month
** first (a day above 12 now and then tells it), day first from row
** `turn` on (the column then reads with neither), ISO dates among them,
** timestamps without zone, or a word late. */
static void spelled(char *s, size_t cap, int kind, unsigned row, unsigned turn) {
  unsigned m = 1 + below(12), d = 1 + below(below(4) ? 12 : 28), y = 1990 + below(40);
  switch (kind) {
    case 0:
      snprintf(s, cap, row >= turn ? "%02u/%02u/%u" : "%02u/%02u/%u",
               row >= turn ? d : m, row >= turn ? m : d, y);
      break;
    case 1:
      snprintf(s, cap, below(5) ? "%02u/%02u/%u" : "%u-%02u-%02u",
               below(5) ? m : y, below(5) ? d : m, below(5) ? y : d);
      break;
    case 2:
      snprintf(s, cap, "%u/%02u/%02u %02u:%02u", y, m, d, below(24), below(60));
      break;
    default:
      snprintf(s, cap, row == turn ? "soon" : "%s %u %u",
               (const char *[]){"Jan", "Feb", "Mar", "Dec"}[below(4)], d, y);
  }
}

/* The same texts as CSV (rows written ahead) and as JSON strings (the
** JSON converter writes in pass 2 only): the same document. */
TEST(dates_in_other_spellings_as_pass_two_writes_them) {
  for (int t = 0; t < 120; t++) {
    tbuf csv = {0}, json = {0};
    size_t ncols = 1 + below(3), rows = below(3) ? 1 + below(60) : 2000 + below(6000);
    int kinds[3];
    unsigned turn = below(2) ? (unsigned)rows + 1 : below((unsigned)rows + 1);
    for (size_t i = 0; i < ncols; i++) {
      char h[8];
      kinds[i] = (int)below(4);
      int n = snprintf(h, sizeof h, "%sc%zu", i ? "," : "", i);
      tbuf_sink(&csv, h, (size_t)n);
    }
    tbuf_sink(&csv, "\n", 1);
    tbuf_sink(&json, "[", 1);
    for (size_t r = 0; r < rows; r++) {
      tbuf_sink(&json, r ? ",{" : "{", r ? 2 : 1);
      for (size_t i = 0; i < ncols; i++) {
        char s[40], kv[64];
        int null = below(12) == 0;
        if (!null) spelled(s, sizeof s, kinds[i], (unsigned)r, turn);
        if (i) tbuf_sink(&csv, ",", 1);
        if (!null) tbuf_sink(&csv, s, strlen(s));
        int n = snprintf(kv, sizeof kv, "%s\"c%zu\":%s%s%s", i ? "," : "", i,
                         null ? "null" : "\"", null ? "" : s, null ? "" : "\"");
        tbuf_sink(&json, kv, (size_t)n);
      }
      tbuf_sink(&json, "}", 1);
      tbuf_sink(&csv, "\n", 1);
    }
    tbuf_sink(&json, "]", 1);
    conv_out a, b;
    jj_convert_opts o;
    memset(&o, 0, sizeof o);
    if (t % 4 == 0) { /* a pattern given */
      static const char *const fmt[] = {"%m/%d/%Y"};
      o.date_formats = fmt;
      o.n_date_formats = 1;
    }
    CHECK_EQ_INT(conv_opts(csv.p, csv.len, o, &a), JJ_OK);
    CHECK_EQ_INT(conv_opts(json.p, json.len, o, &b), JJ_OK);
    if (a.code == JJ_OK && b.code == JJ_OK && strcmp(a.doc.p, b.doc.p)) {
      fprintf(stderr, "     table %d: CSV and JSON documents differ\n", t);
      CHECK(0);
    }
    conv_free(&a);
    conv_free(&b);
    tbuf_free(&csv);
    tbuf_free(&json);
  }
}

/* The cases one by one, with the bytes pass 2 writes. */
TEST(what_keeps_and_what_ends_writing_ahead) {
  /* integers in a column of floats keep it: written as floats */
  CHECK_CONV("a\n1.5\n2\n-0\n", NULL, 0,
             "\"columns\":[\"a\"],\"types\":[\"f\"],\"rows\":[\n"
             "[1.5],\n[2.0],\n[-0.0]\n]}");
  /* a float after integers: the integers become floats */
  CHECK_CONV("a\n1\n-0\n2.50\n", NULL, 0,
             "\"columns\":[\"a\"],\"types\":[\"f\"],\"rows\":[\n"
             "[1.0],\n[-0.0],\n[2.5]\n]}");
  /* -0 in a column of integers is 0 */
  CHECK_CONV("a\n-0\n3\n", NULL, 0,
             "\"columns\":[\"a\"],\"types\":[\"i\"],\"rows\":[\n"
             "[0],\n[3]\n]}");
  /* nulls first, then the column's first value decides */
  CHECK_CONV("a,b\n,\n,x\n2024-02-29,y\n", NULL, 0,
             "\"columns\":[\"a\",\"b\"],\"types\":[\"d\",\"s\"],\"rows\":[\n"
             "[null,null],\n[null,\"x\"],\n[\"2024-02-29\",\"y\"]\n]}");
  /* text after numbers: the numbers are written as their text */
  CHECK_CONV("a\n007\n1e3\nx\n", NULL, 0,
             "\"columns\":[\"a\"],\"types\":[\"s\"],\"rows\":[\n"
             "[\"007\"],\n[\"1e3\"],\n[\"x\"]\n]}");
  /* a number as spreadsheets write it, in a column of floats */
  CHECK_CONV("a\n0.5\n.25\n", NULL, 0,
             "\"columns\":[\"a\"],\"types\":[\"f\"],\"rows\":[\n"
             "[0.5],\n[0.25]\n]}");
}

int main(void) {
  RUN(floats_copied_only_when_printed_the_same);
  RUN(random_tables_as_pass_two_writes_them);
  RUN(a_change_after_the_temporary_file);
  RUN(dates_in_other_spellings_as_pass_two_writes_them);
  RUN(what_keeps_and_what_ends_writing_ahead);
  return test_summary("convert_ahead");
}
