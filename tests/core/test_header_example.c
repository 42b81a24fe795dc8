/*
** test_header_example.c — the worked example at the top of
** core/jalapenojson.h compiles, runs and does what it says.
**
** The lines between "example:begin" and "example:end" below are the
** header's example, character for character (the header has them indented
** by "**   " inside its comment).  The first test reads both files and
** fails when the two copies differ, so the header cannot show code that
** this program does not compile.  The others run the two functions: write
** the small document, save it gzip-compressed, sum its price column; and
** the error paths (no file, no "price" column, a price that is not a
** float).
*/
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <unistd.h>

#include "test.h"

// example:begin
#include <stdio.h>
#include "jalapenojson.h"

// Sum the float column "price" of a document file (plain, gzip or
// brotli).  Returns 0 with *sum set, or -1 with the error printed.
static int sum_price(const char *path, double *sum) {
  jj_error err;
  jj_file f;
  jj_doc *doc = NULL;
  jj_cursor *c = NULL;
  int rc = -1, col;
  *sum = 0;
  if (jj_file_open(path, 0, &f, &err) != JJ_OK) goto done;
  if (!(doc = jj_parse(f.data, f.len, &err))) goto done;
  if (!(c = jj_cursor_new(doc, &err))) goto done;
  if ((col = jj_schema_find(jj_doc_schema(doc), "price", 5)) < 0) {
    snprintf(err.message, sizeof err.message, "no column \"price\"");
    goto done;
  }
  while ((rc = jj_cursor_next(c, &err)) == 1) {
    double v;
    // 1: a value, 0: null, -1: an error (a bad value, or not a float
    // column); err.message names the row and the column.
    int r = jj_cursor_double(c, (size_t)col, &v, &err);
    if (r < 0) {
      rc = -1;
      break;
    }
    if (r == 1) *sum += v;
  }
done:  // rc: 0 after the last row, -1 on an error
  if (rc < 0) fprintf(stderr, "%s: %s\n", path, err.message);
  jj_cursor_free(c);  // cursors first; every free takes NULL
  jj_doc_free(doc);
  jj_file_close(&f);  // safe after a failed open too
  return rc;
}

// Write a two-row document into memory.  Returns it (NUL-terminated,
// *len bytes) for the caller to free with jj_free, or NULL.
static char *two_rows(size_t *len) {
  jj_error err;
  jj_schema *s = jj_schema_new();
  jj_writer *w = NULL;
  char *doc = NULL;
  if (jj_schema_add(s, "item", 4, JJ_TEXT, NULL, &err) == JJ_OK &&
      jj_schema_add(s, "price", 5, JJ_FLOAT, NULL, &err) == JJ_OK &&
      (w = jj_writer_new(s, NULL, NULL, &err)) != NULL) {
    // After a failed call every later one returns the same error,
    // so the last call's code is enough.
    jj_writer_text(w, "tea", 3);
    jj_writer_double(w, 2.5);
    jj_writer_end_row(w);
    jj_writer_text(w, "cake", 4);
    jj_writer_null(w);
    jj_writer_end_row(w);
    if (jj_writer_finish(w) == JJ_OK)
      doc = jj_writer_take(w, len);
    else
      err = *jj_writer_error(w);
  }
  if (!doc) fprintf(stderr, "%s\n", err.message);
  jj_writer_free(w);  // the writer before the schema it borrows
  jj_schema_free(s);
  return doc;
}
// example:end

/* The repository root, from this file's path (tests/ is below it). */
static char root[4096];

/* The whole file at root/rel, NUL-terminated, or NULL. */
static char *slurp(const char *rel) {
  char path[4200];
  snprintf(path, sizeof path, "%s%s", root, rel);
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  size_t cap = 1 << 16, n = 0, got;
  char *p = malloc(cap);
  while (p && (got = fread(p + n, 1, cap - n - 1, f)) > 0) {
    n += got;
    if (n + 1 == cap) {
      char *q = realloc(p, cap *= 2);
      if (!q) free(p);
      p = q;
    }
  }
  fclose(f);
  if (p) p[n] = '\0';
  return p;
}

/* Append the line [p, e) to the buffer out (size cap), then '\n'. */
static void put_line(char *out, size_t cap, const char *p, const char *e) {
  size_t n = strlen(out), k = (size_t)(e - p);
  if (n + k + 2 > cap) return;
  memcpy(out + n, p, k);
  out[n + k] = '\n';
  out[n + k + 1] = '\0';
}

/* The header's example: after the line that names this test, the lines
** that start with "**   " (the prefix removed) or are "**" (blank), up to
** the next other line; trailing blank lines dropped. */
static void header_copy(const char *h, char *out, size_t cap) {
  out[0] = '\0';
  const char *p = strstr(h, "tests/core/test_header_example.c");
  if (!p) return;
  p = strchr(p, '\n');
  int started = 0;
  while (p && *++p) {
    const char *e = strchr(p, '\n');
    if (!e) break;
    if (e - p >= 5 && memcmp(p, "**   ", 5) == 0) {
      started = 1;
      put_line(out, cap, p + 5, e);
    } else if (e - p == 2 && memcmp(p, "**", 2) == 0) {
      if (started) put_line(out, cap, p, p);
    } else if (started) {
      break;
    }
    p = e;
  }
  size_t n = strlen(out);
  while (n >= 2 && out[n - 1] == '\n' && out[n - 2] == '\n') out[--n] = '\0';
}

/* This file's copy: the lines strictly between the two marker lines. */
static void test_copy(const char *t, char *out, size_t cap) {
  out[0] = '\0';
  const char *p = strstr(t, "\n// example:begin\n");
  const char *end = strstr(t, "\n// example:end\n");
  if (!p || !end) return;
  for (p += strlen("\n// example:begin\n"); p <= end;) {
    const char *e = strchr(p, '\n');
    put_line(out, cap, p, e);
    p = e + 1;
  }
}

TEST(header_and_test_copies_are_the_same) {
  static char from_header[16384], from_test[16384];
  char *h = slurp("core/jalapenojson.h"),
       *t = slurp("tests/core/test_header_example.c");
  CHECK(h != NULL);
  CHECK(t != NULL);
  if (h && t) {
    header_copy(h, from_header, sizeof from_header);
    test_copy(t, from_test, sizeof from_test);
    CHECK(strlen(from_test) > 1000);
    CHECK_EQ_STR(from_header, from_test);
  }
  free(h);
  free(t);
}

TEST(header_states_the_link_line) {
  char *h = slurp("core/jalapenojson.h");
  CHECK(h && strstr(h, "-lz -lbrotlienc -lbrotlidec -lm"));
  free(h);
}

TEST(writes_saves_and_sums) {
  size_t len = 0;
  char *doc = two_rows(&len);
  CHECK(doc != NULL);
  if (!doc) return;
  CHECK_EQ_STR(doc,
               "{\"jalapenojson\":1,\"columns\":[\"item\",\"price\"],"
               "\"types\":[\"s\",\"f\"],\"rows\":[\n"
               "[\"tea\",2.5],\n"
               "[\"cake\",null]\n"
               "]}");
  CHECK_EQ_INT(len, strlen(doc));
  jj_error err;
  CHECK_EQ_INT(jj_file_write("prices.jj.gz", doc, len, JJ_GZIP, -1, NULL, &err),
               JJ_OK);
  jj_free(doc);
  double sum = -1;
  CHECK_EQ_INT(sum_price("prices.jj.gz", &sum), 0);
  CHECK(sum == 2.5);
}

/* Write `text` to `name` (plain). */
static void save(const char *name, const char *text) {
  jj_error err;
  CHECK_EQ_INT(
      jj_file_write(name, text, strlen(text), JJ_PLAIN, -1, NULL, &err), JJ_OK);
}

TEST(errors_return_minus_one) {
  double sum = -1;
  CHECK_EQ_INT(sum_price("no-such-file.jj", &sum), -1);
  CHECK(sum == 0);
  save(
      "no-price.jj",
      "{\"jalapenojson\":1,\"columns\":[\"a\"],\"types\":[\"i\"],\"rows\":[]}");
  CHECK_EQ_INT(sum_price("no-price.jj", &sum), -1);
  save("text-price.jj",
       "{\"jalapenojson\":1,\"columns\":[\"price\"],\"types\":[\"s\"],"
       "\"rows\":[[\"x\"]]}");
  CHECK_EQ_INT(sum_price("text-price.jj", &sum), -1);
  save("bad-row.jj",
       "{\"jalapenojson\":1,\"columns\":[\"price\"],\"types\":[\"f\"],"
       "\"rows\":[[1.5],[true]]}");
  CHECK_EQ_INT(sum_price("bad-row.jj", &sum), -1);
  save("empty.jj",
       "{\"jalapenojson\":1,\"columns\":[\"price\"],\"types\":[\"f\"],"
       "\"rows\":[]}");
  CHECK_EQ_INT(sum_price("empty.jj", &sum), 0);
  CHECK(sum == 0);
}

int main(void) {
  /* root: __FILE__ up to "tests/" (the Makefile compiles from the root). */
  const char *file = __FILE__,
             *at = strstr(file, "tests/core/test_header_example.c");
  size_t n = at ? (size_t)(at - file) : 0;
  if (n >= sizeof root) n = 0;
  memcpy(root, file, n);
  root[n] = '\0';
  RUN(header_and_test_copies_are_the_same);
  RUN(header_states_the_link_line);

  /* The runs write their files in a fresh directory. */
  char dir[] = "/tmp/jj-test-header-XXXXXX";
  if (!mkdtemp(dir) || chdir(dir) != 0) {
    perror("test_header_example: temporary directory");
    return 1;
  }
  RUN(writes_saves_and_sums);
  RUN(errors_return_minus_one);
  const char *made[] = {"prices.jj.gz", "no-price.jj", "text-price.jj",
                        "bad-row.jj", "empty.jj"};
  for (size_t i = 0; i < sizeof made / sizeof made[0]; i++) remove(made[i]);
  if (chdir("/") != 0 || rmdir(dir) != 0)
    perror("test_header_example: cleanup");
  return test_summary("header_example");
}
