/*
** test_mask_form.c — rows of the mask paths that keep their spans in mask
** form (doc.h's jj_cursor: a value's span worked out when it is read) give
** every reader what the scalar path gives: each typed accessor,
** jj_cursor_value, jj_cursor_raw, jj_cursor_is_null and jj_cursor_object,
** columns read one or two a row (the rows stay in mask form), all of them
** (the cursor writes spans out again, but for one row in JJ_PROBE_ROWS),
** in random order, each twice, after seeks and skips, over rows of one and
** two 64-byte windows, rows with bytes >= 0x80, rows the mask paths
** decline (an escape, a literal, a long row) and values of the wrong type.
** The same seeded script of reads runs on every path; the transcripts
** (values, return codes, errors in full) must be the same text.  It also
** counts the reads made on a row in mask form, which must be many on the
** SIMD paths: a test that never met one would prove nothing.
*/
#include <stdlib.h>
#include <string.h>

#include "doc.h"
#include "test.h"

static uint64_t rng;
static uint64_t rnd(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return rng;
}
static size_t pick(size_t n) { return (size_t)(rnd() % n); }

static void put(jj_buf *b, const char *s) {
  if (jj_buf_append(b, s, strlen(s)) != 0) abort();
}

/* Columns id i, user s, city s, plan s, seats i, price f, joined d, as
** the benchmark's; NCOL of them. */
#define NCOL 7
static const char types[NCOL] = {'i', 's', 's', 's', 'i', 'f', 'd'};

/* A string value of about len bytes, now and then with "é", a byte that
** is not UTF-8 (its JJ_SPAN_HIGH must send it to the check) or an escape
** (the mask paths decline the row). */
static void string_value(jj_buf *b, size_t len) {
  static const char abc[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  const size_t r = pick(40);
  put(b, "\"");
  for (size_t i = 0; i < len; i++) {
    if (r == 0 && i == len / 2) put(b, "\xc3\xa9");
    else if (r == 2 && i == len / 2) put(b, "\xff"); /* not UTF-8: an error to read */
    else if (r == 1 && i == len / 3) put(b, "\\n");
    else {
      char ch[2] = {abc[pick(sizeof abc - 1)], 0};
      put(b, ch);
    }
  }
  put(b, "\"");
}

/* A document of nrows rows of 20 to 140 bytes. */
static void make_doc(jj_buf *b, size_t nrows) {
  char num[64];
  put(b, "{\"jalapenojson\":1,\"columns\":[\"id\",\"user\",\"city\",\"plan\",\"seats\","
         "\"price\",\"joined\"],\"types\":[\"i\",\"s\",\"s\",\"s\",\"i\",\"f\",\"d\"],"
         "\"rows\":[\n");
  for (size_t r = 0; r < nrows; r++) {
    const size_t wide = pick(3); /* short, two windows, or long strings */
    put(b, r ? ",\n[" : "[");
    for (size_t k = 0; k < NCOL; k++) {
      if (k) put(b, ",");
      const size_t odd = pick(60);
      if (odd == 0) { /* a literal: declined by the mask paths */
        put(b, "null");
        continue;
      }
      if (odd == 1 && types[k] != 's') { /* the wrong type: an error to read */
        put(b, "\"x\"");
        continue;
      }
      switch (types[k]) {
        case 'i':
          snprintf(num, sizeof num, "%s%llu", pick(4) ? "" : "-",
                   (unsigned long long)(rnd() % (wide ? 1000000000000ULL : 1000)));
          put(b, num);
          break;
        case 'f':
          snprintf(num, sizeof num, "%llu.%llu", (unsigned long long)pick(100000),
                   (unsigned long long)pick(10000));
          put(b, num);
          break;
        case 'd':
          snprintf(num, sizeof num, "\"%04d-%02d-%02d\"", 1900 + (int)pick(200),
                   1 + (int)pick(12), 1 + (int)pick(28));
          put(b, num);
          break;
        default:
          string_value(b, 1 + pick(wide == 2 ? 30 : wide ? 14 : 5));
      }
    }
    put(b, "]");
  }
  put(b, "\n]}");
}

static int sink(void *ctx, const char *data, size_t len) {
  return jj_buf_append((jj_buf *)ctx, data, len);
}

/* One read of column col with reader `how`, as one line of text. */
static void read_one(jj_cursor *c, size_t col, int how, const char *doc, jj_buf *out,
                     long *masked) {
  char line[700];
  jj_error e;
  int r = 0;
  if (c->state == JJ_CUR_MASKROW) ++*masked;
  switch (how) {
    case 0: { /* the column's own accessor */
      if (types[col] == 'i') {
        int64_t v = 0;
        r = jj_cursor_int(c, col, &v, &e);
        snprintf(line, sizeof line, " i%zu:%d:%lld", col, r, (long long)v);
      } else if (types[col] == 'f') {
        double v = 0;
        r = jj_cursor_double(c, col, &v, &e);
        snprintf(line, sizeof line, " f%zu:%d:%.17g", col, r, v);
      } else {
        const char *p = "";
        size_t n = 0;
        r = jj_cursor_text(c, col, &p, &n, &e);
        snprintf(line, sizeof line, " t%zu:%d:%.*s", col, r, r == 1 ? (int)n : 0, p);
      }
      break;
    }
    case 1: { /* jj_cursor_value */
      jj_value v;
      memset(&v, 0, sizeof v);
      r = jj_cursor_value(c, col, &v, &e);
      if (r == 1 && v.type == JJ_INT) snprintf(line, sizeof line, " v%zu:%lld", col, (long long)v.u.i);
      else if (r == 1 && v.type == JJ_FLOAT) snprintf(line, sizeof line, " v%zu:%.17g", col, v.u.f);
      else if (r == 1 && v.type == JJ_TEXT)
        snprintf(line, sizeof line, " v%zu:%.*s", col, (int)v.u.text.len, v.u.text.p);
      else if (r == 1 && v.type == JJ_DATE) snprintf(line, sizeof line, " v%zu:%d", col, (int)v.u.date.days);
      else snprintf(line, sizeof line, " v%zu:%d", col, r);
      break;
    }
    case 2: { /* the bytes as written, and null */
      const char *p = doc;
      size_t n = 0;
      r = jj_cursor_raw(c, col, &p, &n, &e);
      snprintf(line, sizeof line, " r%zu:%d:%zu:%zu:%d", col, r, (size_t)(p - doc), n,
               jj_cursor_is_null(c, col));
      break;
    }
    default: { /* the row as an object */
      jj_buf o = {0};
      r = jj_cursor_object(c, sink, &o, &e) == JJ_OK ? 1 : -1;
      snprintf(line, sizeof line, " o:%d:%.*s", r, (int)(o.len < 400 ? o.len : 400), o.p);
      jj_buf_free(&o);
    }
  }
  put(out, line);
  if (r < 0) {
    snprintf(line, sizeof line, " [%d %lld %lld %d %s]", (int)e.code, (long long)e.offset,
             (long long)e.row, e.column, e.message);
    put(out, line);
  }
}

/* The script: rows read one or two columns at a time (phase 0), all of
** them (phase 1), or either (phase 2), each column twice, in random order;
** now and then a seek back or a skip forward. */
static void transcript(const char *doc, size_t len, jj_scan scan, uint64_t seed, jj_buf *out,
                       long *masked) {
  char line[700];
  jj_error e;
  jj_doc *d = jj_parse_opts(doc, len, JJ_PARSE_SCAN(scan), 0, &e);
  if (!d) {
    put(out, "parse failed\n");
    return;
  }
  jj_cursor *c = jj_cursor_new(d, &e);
  rng = seed;
  int rc;
  for (size_t step = 0;; step++) {
    const size_t phase = step < 300 ? 0 : step < 700 ? 1 : 2, move = pick(50);
    if (move == 0 && jj_cursor_row(c) > 8) { /* back a few rows, in the index */
      rc = jj_cursor_seek(c, jj_cursor_row(c) - 1 - (int64_t)pick(8), &e);
    } else if (move == 1) {
      rc = (int)jj_cursor_skip(c, 1 + (int64_t)pick(5), &e);
      if (rc > 0 && c->state != JJ_CUR_ROW && c->state != JJ_CUR_MASKROW) rc = 0;
    } else {
      rc = jj_cursor_next(c, &e);
    }
    snprintf(line, sizeof line, "%d row %lld:", rc, (long long)jj_cursor_row(c));
    put(out, line);
    if (rc <= 0) break;
    const size_t reads = phase == 0 || (phase == 2 && pick(2)) ? 1 + pick(2) : NCOL;
    for (size_t i = 0; i < reads; i++) {
      const size_t col = reads == NCOL ? (i * 3 + step) % NCOL : pick(NCOL);
      const int how = pick(20) == 0 ? 2 + (int)pick(2) : (int)pick(2);
      read_one(c, col, how, doc, out, masked);
      read_one(c, col, how, doc, out, masked);
    }
    put(out, "\n");
  }
  if (rc < 0) {
    snprintf(line, sizeof line, "error %d %lld %s\n", (int)e.code, (long long)e.offset, e.message);
    put(out, line);
  }
  jj_cursor_free(c);
  jj_doc_free(d);
}

TEST(mask_form_reads_agree_with_the_scalar_path) {
  long masked_total = 0;
  for (uint64_t seed = 1; seed <= 6; seed++) {
    jj_buf doc = {0};
    rng = seed * 0x9E3779B97F4A7C15ULL;
    make_doc(&doc, 900);
    jj_buf want = {0};
    long masked = 0;
    transcript(doc.p, doc.len, JJ_SCAN_SCALAR, seed, &want, &masked);
    CHECK_EQ_INT(masked, 0); /* the scalar path has no mask form */
    for (jj_scan s = JJ_SCAN_SSE2; s <= JJ_SCAN_AVX2; s++) {
      jj_buf got = {0};
      transcript(doc.p, doc.len, s, seed, &got, &masked_total);
      if (!CHECK(got.len == want.len && memcmp(got.p, want.p, want.len) == 0)) {
        size_t at = 0;
        while (at < got.len && at < want.len && got.p[at] == want.p[at]) at++;
        const size_t from = at > 300 ? at - 300 : 0;
        fprintf(stderr, "     path %d, seed %llu, first difference at %zu:\n     got  ...%.*s\n"
                        "     want ...%.*s\n", (int)s, (unsigned long long)seed, at,
                (int)(at + 200 < got.len ? at + 200 - from : got.len - from), got.p + from,
                (int)(at + 200 < want.len ? at + 200 - from : want.len - from), want.p + from);
      }
      jj_buf_free(&got);
    }
    jj_buf_free(&want);
    jj_buf_free(&doc);
  }
#ifdef JJ_MASK_FORM
#if defined(__SSE2__)
  /* thousands of reads met a row in mask form on the SIMD paths */
  CHECK(masked_total > 5000);
  fprintf(stderr, "     (%ld reads on rows in mask form)\n", masked_total);
#endif
#else
  CHECK_EQ_INT(masked_total, 0);
#endif
}

int main(void) {
  RUN(mask_form_reads_agree_with_the_scalar_path);
  return test_summary("mask_form");
}
