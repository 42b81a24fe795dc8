/*
** test_object.c — jj_cursor_object (core/object.c) against an independent
** model of what it must write: every value read with jj_cursor_value and
** printed from the value (jj_int_format, jj_double_format, the JSON escape
** and base64 written here), which is how object.c wrote every value before
** it learnt to copy the row's own bytes when they are already that text.
**
** Two sources of documents:
**   - gen.h's random tables through the writer (every type, nested tables,
**     column names that need escapes): the canonical layout;
**   - documents written here as text, every value in one of many
**     spellings: numbers with exponents, trailing zeros, 16 and 17 digits,
**     "-0", strings with escapes, \u forms of plain letters, invalid UTF-8,
**     dates that do not exist, bad base64, values of the wrong kind.
** For every row the two must agree byte for byte, or fail with the same
** code, message and place (and then nothing reaches the sink).  The seed
** comes from JJ_SEED when set.  Prints "object: N passed, M failed".
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gen.h"
#include "jalapenojson.h"
#include "test.h"

/* ---------------------------------------------------------------------- */
/* The model                                                                */
/* ---------------------------------------------------------------------- */

static void model_escaped(gen_buf *b, const char *p, size_t n) {
  static const char hex[] = "0123456789abcdef";
  gen_buf_add(b, "\"", 1);
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)p[i];
    char e[6] = {'\\', 0, 0, 0, 0, 0};
    if (c == '"' || c == '\\') {
      e[1] = (char)c;
      gen_buf_add(b, e, 2);
    } else if (c == '\b' || c == '\f' || c == '\n' || c == '\r' || c == '\t') {
      e[1] = c == '\b' ? 'b' : c == '\f' ? 'f' : c == '\n' ? 'n' : c == '\r' ? 'r' : 't';
      gen_buf_add(b, e, 2);
    } else if (c < 0x20) {
      memcpy(e + 1, "u00", 3);
      e[4] = hex[c >> 4];
      e[5] = hex[c & 15];
      gen_buf_add(b, e, 6);
    } else {
      gen_buf_add(b, p + i, 1);
    }
  }
  gen_buf_add(b, "\"", 1);
}

static jj_code model_row(jj_cursor *c, gen_buf *b, jj_error *err);

/* One value as the model prints it; JJ_OK or the read's error. */
static jj_code model_value(jj_cursor *c, size_t col, gen_buf *b, jj_error *err) {
  jj_value v;
  char num[32], *enc;
  int r = jj_cursor_value(c, col, &v, err);
  if (r < 0) return err->code;
  if (r == 0) {
    gen_buf_add(b, "null", 4);
    return JJ_OK;
  }
  switch (v.type) {
    case JJ_INT: gen_buf_add(b, num, jj_int_format(v.u.i, num)); break;
    case JJ_FLOAT:
      if (isnan(v.u.f) || isinf(v.u.f)) {
        size_t n = jj_double_format(v.u.f, num);
        gen_buf_add(b, "\"", 1);
        gen_buf_add(b, num, n);
        gen_buf_add(b, "\"", 1);
      } else {
        gen_buf_add(b, num, jj_double_format(v.u.f, num));
      }
      break;
    case JJ_TEXT: model_escaped(b, v.u.text.p, v.u.text.len); break;
    case JJ_DATE: model_escaped(b, v.u.date.p, v.u.date.len); break;
    case JJ_TIMESTAMP:
    case JJ_LOCAL_TIMESTAMP: model_escaped(b, v.u.timestamp.p, v.u.timestamp.len); break;
    case JJ_BOOL: gen_buf_add(b, v.u.b ? "true" : "false", v.u.b ? 4 : 5); break;
    case JJ_JSON: gen_buf_add(b, v.u.json.p, v.u.json.len); break;
    case JJ_BYTES:
      enc = malloc(v.u.bytes.len / 3 * 4 + 8);
      if (!enc) abort();
      gen_buf_add(b, "\"", 1);
      gen_buf_add(b, enc, gen_base64(v.u.bytes.p, v.u.bytes.len, enc));
      gen_buf_add(b, "\"", 1);
      free(enc);
      break;
    case JJ_TABLE: {
      jj_cursor *sc = jj_cursor_new(v.u.table, err);
      jj_code code = sc ? JJ_OK : err->code;
      gen_buf_add(b, "[", 1);
      for (int first = 1; !code; first = 0) {
        int n = jj_cursor_next(sc, err);
        if (n < 0) code = err->code;
        if (n <= 0) break;
        if (!first) gen_buf_add(b, ",", 1);
        code = model_row(sc, b, err);
      }
      gen_buf_add(b, "]", 1);
      jj_cursor_free(sc);
      jj_doc_free(v.u.table);
      return code;
    }
  }
  return JJ_OK;
}

static jj_code model_row(jj_cursor *c, gen_buf *b, jj_error *err) {
  const jj_schema *s = jj_doc_schema(jj_cursor_doc(c));
  gen_buf_add(b, "{", 1);
  for (size_t col = 0; col < jj_schema_columns(s); col++) {
    size_t len;
    const char *name = jj_schema_name(s, col, &len);
    if (col) gen_buf_add(b, ",", 1);
    model_escaped(b, name, len);
    gen_buf_add(b, ":", 1);
    jj_code code = model_value(c, col, b, err);
    if (code) return code;
  }
  gen_buf_add(b, "}", 1);
  return JJ_OK;
}

/* ---------------------------------------------------------------------- */
/* Comparing a document's rows                                              */
/* ---------------------------------------------------------------------- */

typedef struct sunk {
  gen_buf b;
  int calls;
} sunk;

static int sink(void *ctx, const char *p, size_t n) {
  sunk *s = ctx;
  s->calls++;
  gen_buf_add(&s->b, p, n);
  return 0;
}

static long rows_ok, rows_failed;

/* Every row of doc[0..len): jj_cursor_object and the model agree.  Rows
** after one the cursor cannot scan are not compared (the cursor is lost). */
static void compare_doc(const char *doc, size_t len, const char *what) {
  jj_error err;
  jj_doc *d = jj_parse(doc, len, &err);
  if (!CHECK(d != NULL)) {
    fprintf(stderr, "     %s: %s\n%.*s\n", what, err.message, (int)len, doc);
    return;
  }
  jj_cursor *c = jj_cursor_new(d, &err);
  for (;;) {
    int r = jj_cursor_next(c, &err);
    if (r <= 0) break;
    sunk got = {{0}, 0};
    gen_buf want = {0};
    jj_error e_got, e_want;
    memset(&e_got, 0, sizeof e_got);
    memset(&e_want, 0, sizeof e_want);
    jj_code c_got = jj_cursor_object(c, sink, &got, &e_got);
    jj_code c_want = model_row(c, &want, &e_want);
    int same = c_got == c_want &&
               (c_got ? strcmp(e_got.message, e_want.message) == 0 &&
                            e_got.row == e_want.row && e_got.column == e_want.column &&
                            e_got.offset == e_want.offset && got.calls == 0
                      : got.calls == 1 && got.b.len == want.len &&
                            memcmp(got.b.p, want.p, want.len) == 0);
    if (!CHECK(same)) {
      fprintf(stderr, "     %s, row %lld: object %d %s\n       got  %.*s\n       want %.*s (%d %s)\n",
              what, (long long)jj_cursor_row(c), c_got, c_got ? e_got.message : "",
              (int)got.b.len, got.b.p ? got.b.p : "", (int)want.len,
              want.p ? want.p : "", c_want, c_want ? e_want.message : "");
    }
    if (c_got) rows_failed++;
    else rows_ok++;
    gen_buf_free(&got.b);
    gen_buf_free(&want);
  }
  jj_cursor_free(c);
  jj_doc_free(d);
}

/* ---------------------------------------------------------------------- */
/* Documents from the writer                                                */
/* ---------------------------------------------------------------------- */

TEST(written_documents_match_the_model) {
  gen_rng r;
  gen_seed(&r, gen_seed_from_env(0x0b1ec7));
  for (int i = 0; i < 300; i++) {
    jj_schema *s = gen_schema(&r, 0);
    if (!CHECK(s != NULL)) return;
    gen_table *t = gen_table_new(&r, s, (int64_t)gen_below(&r, 30), 0);
    char *doc = NULL;
    size_t len = 0;
    jj_error err;
    CHECK_EQ_INT(gen_write(t, NULL, NULL, &doc, &len, &err), JJ_OK);
    if (doc) compare_doc(doc, len, "written document");
    jj_free(doc);
    gen_table_free(t);
    jj_schema_free(s);
  }
}

/* ---------------------------------------------------------------------- */
/* Documents written as text, in every spelling                             */
/* ---------------------------------------------------------------------- */

static const char *pick(gen_rng *r, const char *const *list, size_t n) {
  return list[gen_below(r, n)];
}
#define PICK(r, list) pick(r, list, sizeof list / sizeof list[0])

static void add_str(gen_buf *b, const char *s) { gen_buf_add(b, s, strlen(s)); }

/* A number's digits: n random digits, the first nonzero when `lead`. */
static void add_digits(gen_rng *r, gen_buf *b, int n, int lead) {
  for (int i = 0; i < n; i++) {
    char d = (char)('0' + gen_below(r, 10));
    if (i == 0 && lead && d == '0') d = '1';
    gen_buf_add(b, &d, 1);
  }
}

static void int_value(gen_rng *r, gen_buf *b) {
  static const char *const odd[] = {"-0", "0", "007", "1.0", "1e3", "-",
                                    "9223372036854775807", "-9223372036854775808",
                                    "9223372036854775808", "-9223372036854775809",
                                    "99999999999999999999", "123456789012345678",
                                    "1234567890123456789", "-1234567890123456789",
                                    "\"12\"", "true", "[]", "1.5", "1E2", "00"};
  char num[32];
  switch (gen_below(r, 4)) {
    case 0: add_str(b, PICK(r, odd)); break;
    case 1:
      if (gen_chance(r, 30)) gen_buf_add(b, "-", 1);
      add_digits(r, b, 1 + (int)gen_below(r, 20), 1);
      break;
    default: gen_buf_add(b, num, jj_int_format(gen_int(r), num));
  }
}

static void float_value(gen_rng *r, gen_buf *b) {
  static const char *const odd[] = {
      "\"NaN\"", "\"Infinity\"", "\"-Infinity\"", "\"\\u004eaN\"", "\"nan\"",
      "\"Inf\\u0069nity\"", "0", "-0", "0.0", "-0.0", "0.00", "1.", "-.5", "1e",
      "1e400", "-1e400", "1e-400", "01.5", "1.2.3", "5e-324", "1e16", "1e15",
      "9999999999999999.0", "999999999999999.0", "1000000000000000.0",
      "1234567890123456.0", "0.0001", "0.00001", "0.001", "1.5E+3", "2.5e-3",
      "29", "29.0", "29.00", "19.99", "19.990", "100", "1e2", "0.1", "0.30000000000000004",
      "123456789012345.6", "12345678901234.56", "1.7976931348623157e308",
      "\"12\"", "true", "[]", "-", "--1", "1e+", "0.1e1", "4.35", "0.000123",
      "10000000000000000.0", "9007199254740993.0", "9.000000000000001",
      "0.1000000000000000055511151231257827", "0.0001000000000000001"};
  char num[32];
  switch (gen_below(r, 7)) {
    case 0: add_str(b, PICK(r, odd)); break;
    case 6: { /* 15 to 17 significant digits, where the shortest text of
              ** the double read is sometimes another one */
      int total = 15 + (int)gen_below(r, 3), k = (int)gen_below(r, 17);
      if (k == 0) {
        gen_buf_add(b, "0.", 2);
        for (int z = (int)gen_below(r, 4); z > 0; z--) gen_buf_add(b, "0", 1);
        add_digits(r, b, total, 1);
      } else {
        add_digits(r, b, k, 1);
        gen_buf_add(b, ".", 1);
        add_digits(r, b, total > k ? total - k : 1, 0);
      }
      break;
    }
    case 1: gen_buf_add(b, num, jj_double_format(gen_double(r), num)); break;
    case 2: { /* a plain decimal: int part, fraction, maybe trailing zeros */
      if (gen_chance(r, 30)) gen_buf_add(b, "-", 1);
      int k = (int)gen_below(r, 18);
      if (k == 0) gen_buf_add(b, "0", 1);
      else add_digits(r, b, k, 1);
      if (gen_chance(r, 90)) {
        gen_buf_add(b, ".", 1);
        if (k == 0) for (int z = (int)gen_below(r, 6); z > 0; z--) gen_buf_add(b, "0", 1);
        add_digits(r, b, 1 + (int)gen_below(r, 17), 0);
      }
      if (gen_chance(r, 15)) {
        gen_buf_add(b, gen_chance(r, 50) ? "e" : "E", 1);
        if (gen_chance(r, 50)) gen_buf_add(b, gen_chance(r, 50) ? "-" : "+", 1);
        add_digits(r, b, 1 + (int)gen_below(r, 3), 0);
      }
      break;
    }
    case 3: { /* a canonical value in another spelling */
      double v = (double)(int64_t)gen_below(r, 2000000) / 100.0;
      int n = snprintf(num, sizeof num, gen_chance(r, 50) ? "%.2f" : "%.17g", v);
      gen_buf_add(b, num, (size_t)n);
      break;
    }
    default: { /* prices: up to 4 decimals, the common case */
      int n = snprintf(num, sizeof num, "%.*f", (int)gen_below(r, 5),
                       (double)(int64_t)gen_below(r, 100000000) / 1000.0);
      gen_buf_add(b, num, (size_t)n);
    }
  }
}

static void text_value(gen_rng *r, gen_buf *b) {
  static const char *const odd[] = {
      "\"\"", "\"plain\"", "\"Troms\xc3\xb8\"", "\"\xe6\x97\xa5\xe6\x9c\xac\"",
      "\"a\\\"quote\"", "\"back\\\\slash\"", "\"line\\nbreak\"", "\"\\u00e9\"",
      "\"\\u0041BC\"", "\"\\/slash\"", "\"nul\\u0000byte\"", "\"\\ud83d\\ude00\"",
      "\"\\ud800\"", "\"bad \xff byte\"", "\"over \xc0\xaf long\"", "\"del \x7f\"",
      "\"\\t\\r\\b\\f\"", "\"\\u001f\"", "\"\\u007f\"", "12", "true", "[\"a\"]",
      "\"emoji \xf0\x9f\x8e\x89\"", "\"\\x\"", "\"surrogate \xed\xa0\x80\""};
  if (gen_chance(r, 60)) {
    add_str(b, PICK(r, odd));
    return;
  }
  size_t n;
  char *t = gen_text(r, &n);
  model_escaped(b, t, n);
  free(t);
}

static void date_value(gen_rng *r, gen_buf *b) {
  static const char *const odd[] = {
      "\"2024-02-29\"", "\"2023-02-29\"", "\"1900-02-29\"", "\"2000-02-29\"",
      "\"0000-01-01\"", "\"9999-12-31\"", "\"2024-13-01\"", "\"2024-1-01\"",
      "\"\\u0032024-01-01\"", "\"2024-01-0\\u0031\"", "\"2024-01-01 \"",
      "\"2O24-01-01\"", "20240101", "\"\"", "\"2024-04-31\""};
  if (gen_chance(r, 40)) {
    add_str(b, PICK(r, odd));
    return;
  }
  int y, m, d;
  char tmp[32];
  gen_date_parts(r, &y, &m, &d);
  gen_buf_add(b, tmp, (size_t)snprintf(tmp, sizeof tmp, "\"%04d-%02d-%02d\"", y, m, d));
}

static void timestamp_value(gen_rng *r, gen_buf *b) {
  static const char *const odd[] = {
      "\"2024-03-01T12:30:00Z\"", "\"1999-12-31T23:59:59.125+05:30\"",
      "\"2024-02-29T00:00:00-23:59\"", "\"2023-02-29T00:00:00Z\"",
      "\"2024-03-01T24:00:00Z\"", "\"2024-03-01T12:30:00\"",
      "\"2024-03-01T12:30:00\\u005a\"", "\"2024-03-01t12:30:00z\"", "0",
      "\"2024-03-01T12:30:00.123456789Z\""};
  add_str(b, PICK(r, odd));
}

static void bytes_value(gen_rng *r, gen_buf *b) {
  static const char *const odd[] = {"\"\"", "\"QQ==\"", "\"QR==\"", "\"QQ\"",
                                    "\"Q===\"", "\"ab\\/c\"", "\"Zm9v\"",
                                    "\"Zm9\\u0076\"", "\"Zm 9v\"", "7", "\"+/+/\""};
  if (gen_chance(r, 40)) {
    add_str(b, PICK(r, odd));
    return;
  }
  size_t n;
  char *p = gen_bytes(r, &n);
  char *enc = malloc(n / 3 * 4 + 8);
  if (!enc) abort();
  gen_buf_add(b, "\"", 1);
  gen_buf_add(b, enc, gen_base64((const unsigned char *)p, n, enc));
  gen_buf_add(b, "\"", 1);
  free(enc);
  free(p);
}

static void bool_value(gen_rng *r, gen_buf *b) {
  static const char *const odd[] = {"true", "false", "true", "false", "1", "\"true\""};
  add_str(b, PICK(r, odd));
}

/* The nested column: a table of [k s, v f] rows. */
static void table_value(gen_rng *r, gen_buf *b) {
  static const char *const odd[] = {"[]", "{}", "[[\"a\",1.50]]", "[[\"b\",\"NaN\"],[\"\\u0063\",2e3]]",
                                    "[[1,2]]", "[[\"x\",1],[\"y\"]]", "\"[]\""};
  if (gen_chance(r, 40)) {
    add_str(b, PICK(r, odd));
    return;
  }
  gen_buf_add(b, "[", 1);
  for (uint64_t i = gen_below(r, 4); i > 0; i--) {
    gen_buf_add(b, "[", 1);
    text_value(r, b);
    gen_buf_add(b, ",", 1);
    float_value(r, b);
    gen_buf_add(b, i > 1 ? "]," : "]", i > 1 ? 2 : 1);
  }
  gen_buf_add(b, "]", 1);
}

TEST(every_spelling_matches_the_model) {
  static const char header[] =
      "{\"jalapenojson\":1,\"columns\":[\"i\",\"f\",\"s\",\"d\",\"t\",\"b\",\"x\","
      "\"n\",\"q\\\"k\",\"\\u00fc\"],\"types\":[\"i\",\"f\",\"s\",\"d\",\"t\",\"b\","
      "\"x\",{\"columns\":[\"k\",\"v\"],\"types\":[\"s\",\"f\"]},\"f\",\"i\"],"
      "\"rows\":[\n";
  void (*const put[])(gen_rng *, gen_buf *) = {
      int_value, float_value, text_value, date_value, timestamp_value,
      bool_value, bytes_value, table_value, float_value, int_value};
  gen_rng r;
  gen_seed(&r, gen_seed_from_env(0x5be111));
  for (int i = 0; i < 400; i++) {
    gen_buf doc = {0};
    add_str(&doc, header);
    int rows = 1 + (int)gen_below(&r, 25);
    for (int row = 0; row < rows; row++) {
      gen_buf_add(&doc, row ? ",\n[" : "[", row ? 3 : 1);
      for (size_t col = 0; col < sizeof put / sizeof put[0]; col++) {
        if (col) gen_buf_add(&doc, ",", 1);
        if (gen_chance(&r, 8)) add_str(&doc, "null");
        else put[col](&r, &doc);
      }
      gen_buf_add(&doc, "]", 1);
    }
    add_str(&doc, "\n]}");
    compare_doc(doc.p, doc.len, "spelled document");
    gen_buf_free(&doc);
  }
  /* Both kinds of row were met often: the comparison is not vacuous. */
  CHECK(rows_ok > 1000);
  CHECK(rows_failed > 1000);
}

/* The key table object.c keeps in the cursor's buffer survives a failed
** row: the good rows after it come out whole. */
TEST(a_cursor_writes_after_a_failed_row) {
  static const char src[] =
      "{\"jalapenojson\":1,\"columns\":[\"a\",\"b\"],\"types\":[\"i\",\"d\"],\"rows\":[\n"
      "[1,\"2024-01-01\"],\n[2,\"2023-02-29\"],\n[3,\"2024-02-29\"]\n]}";
  jj_error err;
  jj_doc *d = jj_parse(src, sizeof src - 1, &err);
  if (!CHECK(d != NULL)) return;
  jj_cursor *c = jj_cursor_new(d, &err);
  static const char *const want[] = {"{\"a\":1,\"b\":\"2024-01-01\"}", NULL,
                                     "{\"a\":3,\"b\":\"2024-02-29\"}"};
  for (int i = 0; i < 3; i++) {
    sunk o = {{0}, 0};
    CHECK_EQ_INT(jj_cursor_next(c, &err), 1);
    jj_code code = jj_cursor_object(c, sink, &o, &err);
    if (want[i]) {
      CHECK_EQ_INT(code, JJ_OK);
      CHECK_EQ_MEM(o.b.p, o.b.len, want[i], strlen(want[i]));
    } else {
      CHECK_EQ_INT(code, JJ_ERR_DATE);
      CHECK_EQ_INT(o.calls, 0);
    }
    gen_buf_free(&o.b);
  }
  jj_cursor_free(c);
  jj_doc_free(d);
}

/* After a failed move the call fails as it did when every value went
** through jj_cursor_value: with that function's usage error. */
TEST(a_lost_cursor_gets_jj_cursor_value_s_usage_error) {
  static const char src[] =
      "{\"jalapenojson\":1,\"columns\":[\"a\"],\"types\":[\"d\"],\"rows\":[\n"
      "[\"2024-01-01\"],\n[1,2]\n]}";
  jj_error err;
  jj_doc *d = jj_parse(src, sizeof src - 1, &err);
  if (!CHECK(d != NULL)) return;
  jj_cursor *c = jj_cursor_new(d, &err);
  sunk o = {{0}, 0};
  CHECK_EQ_INT(jj_cursor_next(c, &err), 1);
  CHECK_EQ_INT(jj_cursor_next(c, &err), -1);
  CHECK_EQ_INT(jj_cursor_object(c, sink, &o, &err), JJ_ERR_USAGE);
  CHECK_EQ_STR(err.message,
               "jj_cursor_value: the cursor is not on a row (its last move failed)");
  CHECK_EQ_INT(o.calls, 0);
  gen_buf_free(&o.b);
  jj_cursor_free(c);
  jj_doc_free(d);
}

int main(void) {
  RUN(written_documents_match_the_model);
  RUN(every_spelling_matches_the_model);
  RUN(a_cursor_writes_after_a_failed_row);
  RUN(a_lost_cursor_gets_jj_cursor_value_s_usage_error);
  return test_summary("object");
}
