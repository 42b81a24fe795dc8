/*
** test_select.c — jj_cursor_select: a cursor told which columns it reads
** gives, for every column (selected or not), through every accessor, after
** every kind of move, exactly what a cursor without a selection gives on
** the same document: values, nulls, raw bytes, record objects, errors
** (code and message) and the moves' results.  Random documents of every
** column type, mostly canonical rows of one and two 64-byte windows (the
** mask paths that locate only the selected columns), with wide rows,
** whitespace, escapes, bytes >= 0x80, nulls and broken values among them
** (the paths that locate every column), read with each row scanner
** (scalar, SSE2, AVX2), the selection changed now and then mid-document.
*/
#include <stdlib.h>
#include <string.h>

#include "jalapenojson.h"
#include "scan_rows.h" /* the seeded generator: rnd, pick, rng_state */
#include "test.h"


/* A growing text (aborts when out of memory: a test program). */
typedef struct text {
  char *p;
  size_t len, cap;
} text;
static void addn(text *t, const char *s, size_t n) {
  if (t->len + n + 1 > t->cap) {
    t->cap = (t->len + n + 1) * 2;
    if (!(t->p = realloc(t->p, t->cap))) abort();
  }
  memcpy(t->p + t->len, s, n);
  t->len += n;
  t->p[t->len] = '\0';
}
static void add(text *t, const char *s) { addn(t, s, strlen(s)); }
static void addf(text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
#include <stdarg.h>
static void addf(text *t, const char *fmt, ...) {
  char b[256];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(b, sizeof b, fmt, ap);
  va_end(ap);
  addn(t, b, n < (int)sizeof b ? (size_t)n : sizeof b - 1);
}

static const char types[] = "ifsdtbx"; /* int float text date timestamp bool bytes */

/* A value for a column of type ty: mostly good, sometimes null, now and
** then of the wrong kind or broken in its own type's way (errors only a
** read finds: the row's structure stays good unless `structural`). */
static void value(text *t, char ty, int long_text) {
  static const char *const ints[] = {"0", "7", "-12", "123456789012", "-9223372036854775808",
                                     "9223372036854775807", "42"};
  static const char *const floats[] = {"0.5", "73693.232", "-0.0", "1e5", "12", "37465.1286",
                                       "\"NaN\"", "-1.25e-3", "3.141592653589793"};
  static const char *const texts[] = {"\"\"", "\"a\"", "\"Troms\xc3\xb8\"", "\"x\\\"y\"",
                                      "\"tab\\tand\\u00e9\"", "\"\xe2\x82\xac 5\"",
                                      "\"plain words\"", "\"dQdCLsG8As\""};
  static const char *const dates[] = {"\"2024-02-29\"", "\"1965-08-08\"", "\"2082-06-05\""};
  static const char *const stamps[] = {"\"2024-03-01T12:00:00Z\"",
                                       "\"1999-12-31T23:59:59.125+05:30\""};
  static const char *const bools[] = {"true", "false"};
  static const char *const bytes[] = {"\"\"", "\"QQ==\"", "\"aGVsbG8=\""};
  /* errors a read reports (structure fine): wrong kind or broken */
  static const char *const bad[] = {"\"1\"", "1.5", "\"2023-02-29\"", "\"QQ=\"", "99999999999999999999",
                                    "true", "\"2024-03-01T24:00:00Z\"", "[1,2]", "{\"a\":1}",
                                    "\"\\ud800\"", "\"\xff\"", "\"ab\xc3\"", "\"\xe2\x82\""};
  if (!pick(9)) {
    add(t, "null");
    return;
  }
  if (!pick(25)) {
    add(t, bad[pick(sizeof bad / sizeof bad[0])]);
    return;
  }
  switch (ty) {
    case 'i': add(t, ints[pick(sizeof ints / sizeof ints[0])]); break;
    case 'f': add(t, floats[pick(sizeof floats / sizeof floats[0])]); break;
    case 's':
      if (long_text) {
        add(t, "\"");
        for (size_t n = 20 + pick(120); n; n--) addn(t, &"abcdefghij"[pick(10)], 1);
        add(t, "\"");
      } else {
        add(t, texts[pick(sizeof texts / sizeof texts[0])]);
      }
      break;
    case 'd': add(t, dates[pick(sizeof dates / sizeof dates[0])]); break;
    case 't': add(t, stamps[pick(sizeof stamps / sizeof stamps[0])]); break;
    case 'b': add(t, bools[pick(2)]); break;
    default: add(t, bytes[pick(sizeof bytes / sizeof bytes[0])]); break;
  }
}

/* A random document of ncol columns (types in ty), rows mostly canonical;
** a few with whitespace, a long text (past the two windows), or, rarely,
** a structural error (a missing value) so the moves fail too. */
static void random_doc(text *t, size_t ncol, const char *ty) {
  add(t, "{\"jalapenojson\":1,\"columns\":[");
  for (size_t i = 0; i < ncol; i++) addf(t, "%s\"c%zu\"", i ? "," : "", i);
  add(t, "],\"types\":[");
  for (size_t i = 0; i < ncol; i++) addf(t, "%s\"%c\"", i ? "," : "", ty[i]);
  add(t, "],\"rows\":[\n");
  size_t rows = pick(40);
  for (size_t r = 0; r < rows; r++) {
    const int ws = !pick(12), wide = !pick(10), broken = !pick(150);
    if (r) add(t, ws && pick(2) ? " ,\n " : ",\n");
    add(t, "[");
    for (size_t i = 0; i < ncol - (broken ? 1 : 0); i++) {
      if (i) add(t, ws && !pick(3) ? " , " : ",");
      value(t, ty[i], wide && !pick(3));
    }
    add(t, "]");
  }
  add(t, "\n]}");
}

/* What reading column col with accessor `how` gives, as text. */
static void read_as(jj_cursor *c, size_t col, unsigned how, text *out) {
  jj_error err;
  int r = 0;
  memset(&err, 0, sizeof err);
  addf(out, "  c%zu/%u: ", col, how);
  switch (how) {
    case 0: { /* jj_cursor_value */
      jj_value v;
      r = jj_cursor_value(c, col, &v, &err);
      if (r == 1) switch (v.type) {
          case JJ_INT: addf(out, "i%lld", (long long)v.u.i); break;
          case JJ_FLOAT: addf(out, "f%a", v.u.f); break;
          case JJ_BOOL: addf(out, "b%d", v.u.b); break;
          case JJ_TEXT: addn(out, v.u.text.p, v.u.text.len); break;
          case JJ_DATE: addf(out, "d%ld ", (long)v.u.date.days); addn(out, v.u.date.p, v.u.date.len); break;
          case JJ_TIMESTAMP:
          case JJ_LOCAL_TIMESTAMP:
            addf(out, "t%lld.%d ", (long long)v.u.timestamp.ts.seconds, (int)v.u.timestamp.ts.nanos);
            break;
          case JJ_BYTES: addf(out, "x%zu ", v.u.bytes.len); addn(out, (const char *)v.u.bytes.p, v.u.bytes.len); break;
          case JJ_JSON: addf(out, "j"); addn(out, v.u.json.p, v.u.json.len); break;
          case JJ_TABLE: jj_doc_free(v.u.table); break;
        }
      break;
    }
    case 1: { /* the column type's own accessor (or a wrong one) */
      int64_t i;
      double d;
      int b;
      const char *p;
      size_t n;
      int32_t days;
      jj_timestamp ts;
      const unsigned char *bp;
      switch (pick(7)) {
        case 0: if ((r = jj_cursor_int(c, col, &i, &err)) == 1) addf(out, "i%lld", (long long)i); break;
        case 1: if ((r = jj_cursor_double(c, col, &d, &err)) == 1) addf(out, "f%a", d); break;
        case 2: if ((r = jj_cursor_text(c, col, &p, &n, &err)) == 1) addn(out, p, n); break;
        case 3: if ((r = jj_cursor_bool(c, col, &b, &err)) == 1) addf(out, "b%d", b); break;
        case 4: if ((r = jj_cursor_date(c, col, &days, &err)) == 1) addf(out, "d%ld", (long)days); break;
        case 5:
          if ((r = jj_cursor_timestamp(c, col, &ts, &err)) == 1)
            addf(out, "t%lld.%d", (long long)ts.seconds, (int)ts.nanos);
          break;
        default:
          if ((r = jj_cursor_bytes(c, col, &bp, &n, &err)) == 1) addn(out, (const char *)bp, n);
          break;
      }
      break;
    }
    case 2: /* the accessor that fits the type, as a reader of one column does */
    {
      jj_value v;
      r = jj_cursor_value(c, col, &v, &err); /* the reference's type */
      int64_t i;
      double d;
      const char *p;
      size_t n;
      switch (v.type) {
        case JJ_INT: if ((r = jj_cursor_int(c, col, &i, &err)) == 1) addf(out, "i%lld", (long long)i); break;
        case JJ_FLOAT: if ((r = jj_cursor_double(c, col, &d, &err)) == 1) addf(out, "f%a", d); break;
        case JJ_TEXT:
        case JJ_DATE:
        case JJ_TIMESTAMP:
        case JJ_LOCAL_TIMESTAMP: if ((r = jj_cursor_text(c, col, &p, &n, &err)) == 1) addn(out, p, n); break;
        default: break;
      }
      break;
    }
    case 3: r = jj_cursor_is_null(c, col); break;
    default: {
      const char *p;
      size_t n;
      if ((r = jj_cursor_raw(c, col, &p, &n, &err)) == 1) addn(out, p, n);
      break;
    }
  }
  addf(out, " -> %d", r);
  if (r < 0 && how != 3) addf(out, " [%d] %s", (int)err.code, err.message);
  add(out, "\n");
}

static int object_sink(void *ctx, const char *p, size_t n) {
  addn((text *)ctx, p, n);
  return 0;
}

/* A random selection of ncol columns (empty now and then: every column),
** for jj_cursor_select. */
static size_t random_selection(size_t ncol, size_t *cols) {
  size_t n = pick(4) ? 1 + pick(ncol < 4 ? ncol : 4) : 0;
  for (size_t i = 0; i < n; i++) cols[i] = pick(ncol);
  return n;
}

/* Read doc with scanner `scan` by two cursors, one with selections, in
** the same random steps; 1 when their transcripts are equal. */
static int cursors_agree(const char *doc, size_t len, jj_scan scan, size_t ncol) {
  jj_error err;
  jj_doc *d = jj_parse_opts(doc, len, JJ_PARSE_SCAN(scan), 0, &err);
  if (!d) return 1; /* a header error: nothing to compare */
  jj_cursor *a = jj_cursor_new(d, &err), *b = jj_cursor_new(d, &err);
  if (!a || !b) abort();
  text ta = {0}, tb = {0};
  size_t cols[8];
  size_t ns = random_selection(ncol, cols);
  if (jj_cursor_select(b, cols, ns, &err) != JJ_OK) abort();
  for (int step = 0; step < 80; step++) {
    int ra, rb;
    const unsigned move = (unsigned)pick(20);
    if (move == 0) {
      const int64_t row = (int64_t)pick(45);
      ra = jj_cursor_seek(a, row, &err);
      addf(&ta, "seek %lld -> %d %s\n", (long long)row, ra, ra < 0 ? err.message : "");
      rb = jj_cursor_seek(b, row, &err);
      addf(&tb, "seek %lld -> %d %s\n", (long long)row, rb, rb < 0 ? err.message : "");
    } else if (move == 1) {
      const int64_t n = (int64_t)pick(6);
      const int64_t ka = jj_cursor_skip(a, n, &err);
      addf(&ta, "skip %lld -> %lld %s\n", (long long)n, (long long)ka, ka < 0 ? err.message : "");
      const int64_t kb = jj_cursor_skip(b, n, &err);
      addf(&tb, "skip %lld -> %lld %s\n", (long long)n, (long long)kb, kb < 0 ? err.message : "");
      ra = rb = jj_cursor_row(a) > 0;
    } else if (move == 2) { /* a new selection, on the row it stands on */
      ns = random_selection(ncol, cols);
      if (jj_cursor_select(b, cols, ns, &err) != JJ_OK) abort();
      ra = rb = jj_cursor_row(a) > 0;
    } else {
      ra = jj_cursor_next(a, &err);
      addf(&ta, "next -> %d %s\n", ra, ra < 0 ? err.message : "");
      rb = jj_cursor_next(b, &err);
      addf(&tb, "next -> %d %s\n", rb, rb < 0 ? err.message : "");
    }
    addf(&ta, "row %lld\n", (long long)jj_cursor_row(a));
    addf(&tb, "row %lld\n", (long long)jj_cursor_row(b));
    if (ra != 1 || rb != 1) {
      if (ra == 0 && rb == 0 && move >= 3) break; /* both at the end */
      continue;
    }
    /* read some columns, selected or not, in a random order, some twice */
    for (size_t k = pick(2 * ncol + 1); k; k--) {
      const size_t col = pick(ncol);
      const unsigned how = (unsigned)pick(5);
      const uint64_t keep = rng_state; /* the same accessor choice for both */
      read_as(a, col, how, &ta);
      rng_state = keep;
      read_as(b, col, how, &tb);
    }
    if (!pick(15)) { /* the row as a record object */
      jj_code ca = jj_cursor_object(a, object_sink, &ta, &err);
      addf(&ta, " object %d %s\n", (int)ca, ca ? err.message : "");
      jj_code cb = jj_cursor_object(b, object_sink, &tb, &err);
      addf(&tb, " object %d %s\n", (int)cb, cb ? err.message : "");
    }
  }
  int same = ta.len == tb.len && memcmp(ta.p, tb.p, ta.len) == 0;
  if (!same) {
    size_t i = 0;
    while (i < ta.len && i < tb.len && ta.p[i] == tb.p[i]) i++;
    size_t from = i > 300 ? i - 300 : 0;
    fprintf(stderr, "scan %d: transcripts differ at byte %zu\n--- plain:\n%.400s\n--- selected:\n%.400s\n",
            (int)scan, i, ta.p + from, tb.p + from);
  }
  free(ta.p);
  free(tb.p);
  jj_cursor_free(a);
  jj_cursor_free(b);
  jj_doc_free(d);
  return same;
}

TEST(selected_cursor_reads_what_a_plain_one_reads) {
  int bad = 0;
  for (int k = 0; k < 3000 && bad < 3; k++) {
    const size_t ncol = 1 + pick(9);
    char ty[16];
    for (size_t i = 0; i < ncol; i++) ty[i] = pick(3) ? types[pick(3)] : types[pick(7)];
    text t = {0};
    random_doc(&t, ncol, ty);
    /* an exact-size copy, so a read past the end is caught under ASan */
    char *doc = malloc(t.len);
    memcpy(doc, t.p, t.len);
    for (int scan = JJ_SCAN_SCALAR; scan <= JJ_SCAN_AVX2; scan++)
      if (!CHECK(cursors_agree(doc, t.len, (jj_scan)scan, ncol))) bad++;
    free(doc);
    free(t.p);
  }
}

/* The benchmark's shape: seven columns, one read, rows of one and two
** windows; every other column read now and then (located again). */
TEST(one_column_of_seven) {
  static const char doc[] =
      "{\"jalapenojson\":1,\"columns\":[\"id\",\"user\",\"city\",\"plan\",\"seats\",\"price\","
      "\"joined\"],\"types\":[\"i\",\"s\",\"s\",\"s\",\"i\",\"f\",\"d\"],\"rows\":[\n"
      "[202397826475,\"YQ1yvtshZJR9T\",\"dQdCLsG8As\",\"7lfZD\",780281,73693.232,\"2014-01-08\"],\n"
      "[1,\"a\",\"b\",\"c\",2,3.5,\"2020-01-01\"],\n"
      "[247073216566,\"SkbmORnvk8m\",\"1uoxjUSOa83\",\"5Musot\",648884,37465.1286,\"2016-06-26\"],\n"
      "[2,\"Troms\xc3\xb8\",\"\xe2\x82\xac\",\"c\",null,-0.5,\"2020-01-02\"],\n"
      "[3,\"a\\\"b\",\"c d\",\"e\",4,5.25,\"2020-01-03\"]\n]}";
  for (int scan = JJ_SCAN_SCALAR; scan <= JJ_SCAN_AVX2; scan++) {
    jj_error err;
    jj_doc *d = jj_parse_opts(doc, sizeof doc - 1, JJ_PARSE_SCAN(scan), 0, &err);
    jj_cursor *c = d ? jj_cursor_new(d, &err) : NULL;
    const size_t price = 5;
    CHECK(c && jj_cursor_select(c, &price, 1, &err) == JJ_OK);
    static const double want[] = {73693.232, 3.5, 37465.1286, -0.5, 5.25};
    static const char *const city[] = {"dQdCLsG8As", "b", "1uoxjUSOa83", "\xe2\x82\xac", "c d"};
    for (int r = 0; r < 5; r++) {
      double x = 0;
      const char *p = NULL;
      size_t n = 0;
      CHECK(jj_cursor_next(c, &err) == 1);
      CHECK(jj_cursor_double(c, 5, &x, &err) == 1 && x == want[r]);
      if (r % 2) { /* a column not selected */
        CHECK(jj_cursor_text(c, 2, &p, &n, &err) == 1 && n == strlen(city[r]) &&
              memcmp(p, city[r], n) == 0);
        CHECK(jj_cursor_is_null(c, 4) == (r == 3));
      }
    }
    CHECK(jj_cursor_next(c, &err) == 0);
    jj_cursor_free(c);
    jj_doc_free(d);
  }
}

TEST(select_refuses_misuse) {
  static const char doc[] = "{\"jalapenojson\":1,\"columns\":[\"a\",\"b\"],\"types\":[\"i\",\"s\"],"
                            "\"rows\":[\n[1,\"x\"]\n]}";
  jj_error err;
  jj_doc *d = jj_parse(doc, sizeof doc - 1, &err);
  jj_cursor *c = jj_cursor_new(d, &err);
  const size_t two = 2, one = 1;
  CHECK(jj_cursor_select(NULL, &one, 1, &err) == JJ_ERR_USAGE);
  CHECK(jj_cursor_select(c, NULL, 1, &err) == JJ_ERR_USAGE);
  CHECK(jj_cursor_select(c, &two, 1, &err) == JJ_ERR_USAGE &&
        strstr(err.message, "column index 2 is out of range (2 columns)") != NULL);
  CHECK(jj_cursor_select(c, &one, 1, &err) == JJ_OK);
  CHECK(jj_cursor_select(c, NULL, 0, &err) == JJ_OK);
  int64_t i = 0;
  CHECK(jj_cursor_select(c, &one, 1, &err) == JJ_OK && jj_cursor_next(c, &err) == 1 &&
        jj_cursor_int(c, 0, &i, &err) == 1 && i == 1);
  jj_cursor_free(c);
  jj_doc_free(d);
}

/* 70 columns: more than the mask paths' rows can hold, so the selection
** is a hint the cursor ignores; reading any column still works. */
TEST(select_on_a_wide_schema) {
  text t = {0};
  char ty[70];
  memset(ty, 'i', sizeof ty);
  add(&t, "{\"jalapenojson\":1,\"columns\":[");
  for (size_t i = 0; i < 70; i++) addf(&t, "%s\"c%zu\"", i ? "," : "", i);
  add(&t, "],\"types\":[");
  for (size_t i = 0; i < 70; i++) addf(&t, "%s\"%c\"", i ? "," : "", ty[i]);
  add(&t, "],\"rows\":[\n");
  for (int r = 0; r < 3; r++) {
    add(&t, r ? ",\n[" : "[");
    for (int i = 0; i < 70; i++) addf(&t, "%s%d", i ? "," : "", r * 100 + i);
    add(&t, "]");
  }
  add(&t, "\n]}");
  jj_error err;
  jj_doc *d = jj_parse(t.p, t.len, &err);
  jj_cursor *c = d ? jj_cursor_new(d, &err) : NULL;
  const size_t cols[] = {65, 3};
  CHECK(c && jj_cursor_select(c, cols, 2, &err) == JJ_OK);
  for (int r = 0; r < 3; r++) {
    int64_t a = -1, b = -1;
    CHECK(jj_cursor_next(c, &err) == 1);
    CHECK(jj_cursor_int(c, 65, &a, &err) == 1 && a == r * 100 + 65);
    CHECK(jj_cursor_int(c, 69, &b, &err) == 1 && b == r * 100 + 69);
  }
  jj_cursor_free(c);
  jj_doc_free(d);
  free(t.p);
}

int main(void) {
  RUN(selected_cursor_reads_what_a_plain_one_reads);
  RUN(one_column_of_seven);
  RUN(select_refuses_misuse);
  RUN(select_on_a_wide_schema);
  return test_summary("select");
}
