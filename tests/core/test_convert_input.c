/*
** test_convert_input.c — jj_convert's reading: rows larger than the window
** and across its edge, the row and input limits, reads of any size with
** and without a rewind (the spool), an input that changes between the two
** passes, the interrupt, read and sink failures, misuse, stdio streams and
** pipes.
*/
#define _POSIX_C_SOURCE 200809L /* popen */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "test_convert.h"

/* Generated NDJSON, the same rows on both passes, never all in memory. */
typedef struct gen {
  long rows, next;
  char row[128];
  size_t len, pos;
} gen;

static long gen_read(void *ctx, char *buf, size_t cap) {
  gen *g = ctx;
  size_t n = 0;
  while (n < cap) {
    if (g->pos == g->len) {
      if (g->next == g->rows) break;
      long i = g->next++;
      g->len = (size_t)snprintf(g->row, sizeof g->row,
                                "{\"id\":%ld,\"name\":\"n%ld\",\"x\":%ld.5}\n",
                                i, i % 977, i % 1000);
      g->pos = 0;
    }
    size_t k = g->len - g->pos < cap - n ? g->len - g->pos : cap - n;
    memcpy(buf + n, g->row + g->pos, k);
    g->pos += k;
    n += k;
  }
  return (long)n;
}

static int gen_rewind(void *ctx) {
  gen *g = ctx;
  g->next = 0;
  g->len = g->pos = 0;
  return 0;
}

static int count_sink(void *ctx, const char *p, size_t n) {
  (void)p;
  *(size_t *)ctx += n;
  return 0;
}

static long peak_kb(void) {
  struct rusage u;
  getrusage(RUSAGE_SELF, &u);
  return u.ru_maxrss;
}

/* 400,000 rows (15 MB of input, 9 MB of output) through callbacks to
** a sink that only counts: the peak RSS may grow by the window, the writer's
** buffer and the columns, nowhere near the input or output.  Runs first, so
** that no earlier test has raised the peak. */
TEST(convert_memory_does_not_grow_with_the_rows) {
  gen g = {400000, 0, {0}, 0, 0};
  jj_input in;
  jj_error err;
  jj_convert_result res;
  size_t out = 0;
  long before = peak_kb();
  memset(&in, 0, sizeof in);
  in.read = gen_read;
  in.rewind = gen_rewind;
  in.ctx = &g;
  CHECK_EQ_INT(jj_convert(&in, NULL, count_sink, &out, &res, &err), JJ_OK);
  CHECK_EQ_INT(res.rows, 400000);
  CHECK(res.bytes > 14000000);
  CHECK(out > 8000000);
  long grew = peak_kb() - before;
  if (!CHECK(grew < 8 * 1024))
    fprintf(stderr, "     peak RSS grew %ld KiB\n", grew);
  jj_schema_free(res.schema);
}

/* ---------------------------------------------------------------------- */
/* The window, limits, spooling                                            */
/* ---------------------------------------------------------------------- */

/* An input handed out in small reads, optionally without rewind, and
** optionally different on the second pass. */
typedef struct chunky {
  const char *a, *b; /* pass 1 and pass 2 data */
  size_t alen, blen, pos;
  int pass;
  size_t step;
} chunky;

static long chunky_read(void *ctx, char *buf, size_t cap) {
  chunky *k = ctx;
  const char *d = k->pass == 2 && k->b ? k->b : k->a;
  size_t len = k->pass == 2 && k->b ? k->blen : k->alen;
  size_t n = len - k->pos;
  if (n > cap) n = cap;
  if (n > k->step) n = k->step;
  memcpy(buf, d + k->pos, n);
  k->pos += n;
  return (long)n;
}

static int chunky_rewind(void *ctx) {
  chunky *k = ctx;
  k->pos = 0;
  k->pass = 2;
  return 0;
}

/* Rows of `n` objects with a string of `slen` bytes each. */
static char *big_rows(size_t n, size_t slen, size_t *len) {
  size_t cap = n * (slen + 40) + 16, at = 0;
  char *p = malloc(cap);
  for (size_t i = 0; i < n; i++) {
    at += (size_t)snprintf(p + at, cap - at, "{\"i\":%zu,\"s\":\"", i);
    memset(p + at, 'a' + (int)(i % 26), slen);
    at += slen;
    at += (size_t)snprintf(p + at, cap - at, "\"}\n");
  }
  *len = at;
  return p;
}

TEST(convert_rows_larger_than_the_window) {
  size_t len;
  char *in = big_rows(3, (size_t)3 << 20, &len); /* 3 MiB strings */
  jj_convert_opts o;
  conv_out out;
  memset(&o, 0, sizeof o);
  conv_opts(in, len, o, &out);
  CHECK_EQ_INT(out.code, JJ_OK);
  CHECK_EQ_INT(out.res.rows, 3);
  CHECK_EQ_U64(out.res.bytes, len);
  conv_free(&out);
  o.max_row = 2 << 20; /* now too large */
  conv_opts(in, len, o, &out);
  CHECK_EQ_INT(out.code, JJ_ERR_LIMIT);
  CHECK_EQ_STR(out.err.message,
               "in: row 1, byte 0: a row larger than the "
               "limit of 2097152 bytes");
  conv_free(&out);
  o.max_row = 0;
  o.max_size = len - 1;
  conv_opts(in, len, o, &out);
  CHECK_EQ_INT(out.code, JJ_ERR_LIMIT);
  char want[100];
  snprintf(want, sizeof want, "in: the input exceeds the limit of %zu bytes",
           len - 1);
  CHECK_EQ_STR(out.err.message, want);
  conv_free(&out);
  free(in);
}

/* A conversion through chunky with reads of `step` bytes. */
static jj_code conv_chunky(chunky *k, int rewind, tbuf *doc, jj_error *err,
                           jj_convert_result *res) {
  jj_input in;
  memset(&in, 0, sizeof in);
  in.read = chunky_read;
  in.rewind = rewind ? chunky_rewind : NULL;
  in.ctx = k;
  in.name = "chunky";
  return jj_convert(&in, NULL, tbuf_sink, doc, res, err);
}

TEST(convert_same_output_whatever_the_reads_and_rewinds) {
  size_t len;
  char *in = big_rows(20000, 50, &len); /* 2 MiB: rows across the window */
  conv_out ref;
  jj_convert_opts o;
  memset(&o, 0, sizeof o);
  conv_opts(in, len, o, &ref);
  CHECK_EQ_INT(ref.code, JJ_OK);
  size_t steps[] = {1, 7, 4096, 1 << 20};
  for (size_t s = 0; s < sizeof steps / sizeof *steps; s++) {
    for (int rewind = 0; rewind < 2; rewind++) {
      chunky k = {in, NULL, len, 0, 0, 1, steps[s]};
      tbuf doc = {0};
      jj_error err;
      jj_convert_result res;
      if (steps[s] == 1 && len > 100000) k.alen = k.blen = 0;
      if (steps[s] == 1) { /* a short input byte by byte */
        k.a = "{\"a\":1,\"b\":\"x\"}\n{\"a\":2}";
        k.alen = strlen(k.a);
      }
      jj_code code = conv_chunky(&k, rewind, &doc, &err, &res);
      CHECK_EQ_INT(code, JJ_OK);
      if (steps[s] != 1)
        CHECK_EQ_MEM(doc.p, doc.len, ref.doc.p, ref.doc.len);
      else
        CHECK(strstr(doc.p, "[1,\"x\"],\n[2,null]") != NULL);
      jj_schema_free(res.schema);
      tbuf_free(&doc);
    }
  }
  conv_free(&ref);
  free(in);
}

TEST(convert_notices_an_input_that_changed) {
  chunky k = {
      "{\"a\":1}\n{\"a\":2}", "{\"a\":1}\n{\"a\":\"x\"}", 15, 17, 0, 1, 4096};
  tbuf doc = {0};
  jj_error err;
  jj_convert_result res;
  CHECK_EQ_INT(conv_chunky(&k, 1, &doc, &err, &res), JJ_ERR_TYPE);
  CHECK_EQ_STR(err.message,
               "chunky: row 2, column \"a\", byte 13: \"x\" is "
               "not an integer as the first pass found (did the "
               "input change between the passes?)");
  tbuf_free(&doc);
  chunky k2 = {"{\"a\":1}", "{\"b\":1}", 7, 7, 0, 1, 4096};
  CHECK_EQ_INT(conv_chunky(&k2, 1, &doc, &err, &res), JJ_ERR_SCHEMA);
  CHECK_EQ_STR(err.message,
               "chunky: row 1, byte 1: key \"b\" was not there in "
               "the first pass (did the input change between the "
               "passes?)");
  tbuf_free(&doc);
  chunky k3 = {"{\"a\":1}", "{\"a\":1}{\"a\":1}", 7, 14, 0, 1, 4096};
  CHECK_EQ_INT(conv_chunky(&k3, 1, &doc, &err, &res), JJ_ERR_ROW);
  CHECK_EQ_STR(err.message,
               "chunky: the second pass read 2 rows, the first 1 "
               "(did the input change between the passes?)");
  tbuf_free(&doc);
}

/* Pass 2 writes a JSON row as it reads it, trusting pass 1's longest row
** to know the row is whole in the window; a longer row then is an error,
** not a half-written one.  A 64-byte window makes the point with small
** rows. */
TEST(convert_notices_a_row_longer_than_in_pass_1) {
  static char a[400], b[600];
  size_t n = 0;
  for (int i = 0; i < 40; i++)
    n += (size_t)snprintf(a + n, sizeof a - n, "{\"a\":%d}\n", i % 10);
  /* b: a with a row of 104 bytes after its first 200, more than the
  ** window holds */
  size_t m = 200;
  memcpy(b, a, m);
  m += (size_t)snprintf(b + m, sizeof b - m, "{\"a\":");
  memset(b + m, '7', 96);
  m += 96;
  b[m++] = '}';
  b[m++] = '\n';
  memcpy(b + m, a + 200, n - 200);
  m += n - 200;
  chunky k = {a, b, n, m, 0, 1, 4096};
  jj_input in;
  jj_convert_opts o;
  jj_error err;
  tbuf doc = {0};
  memset(&in, 0, sizeof in);
  in.read = chunky_read;
  in.rewind = chunky_rewind;
  in.ctx = &k;
  memset(&o, 0, sizeof o);
  o.max_row = 64;
  CHECK_EQ_INT(jj_convert(&in, &o, tbuf_sink, &doc, NULL, &err), JJ_ERR_SYNTAX);
  if (!CHECK(strstr(err.message,
                    "the row is longer than in the first pass (did the "
                    "input change between the passes?)") != NULL))
    fprintf(stderr, "     %s\n", err.message);
  tbuf_free(&doc);
  /* unchanged, the same small window converts it */
  k = (chunky){a, NULL, n, 0, 0, 1, 4096};
  if (!CHECK(jj_convert(&in, &o, tbuf_sink, &doc, NULL, &err) == JJ_OK))
    fprintf(stderr, "     %s\n", err.message);
  CHECK(doc.p && strstr(doc.p, "[9]\n]}") != NULL);
  tbuf_free(&doc);
}

static int stop_now(void *ctx) {
  (void)ctx;
  return 1;
}

static long fail_read(void *ctx, char *buf, size_t cap) {
  (void)ctx, (void)buf, (void)cap;
  return -1;
}

TEST(convert_interrupt_io_errors_and_usage) {
  size_t len;
  char *in = big_rows(30000, 50, &len);
  jj_convert_opts o;
  conv_out out;
  memset(&o, 0, sizeof o);
  o.interrupt = stop_now;
  conv_opts(in, len, o, &out);
  CHECK_EQ_INT(out.code, JJ_ERR_INTERRUPTED);
  CHECK_EQ_STR(out.err.message, "in: interrupted");
  conv_free(&out);
  free(in);
  jj_input bad;
  jj_error err;
  jj_convert_result res;
  memset(&bad, 0, sizeof bad);
  bad.read = fail_read;
  bad.name = "x";
  CHECK_EQ_INT(jj_convert(&bad, NULL, tbuf_sink, NULL, &res, &err), JJ_ERR_IO);
  CHECK_EQ_STR(err.message, "x: cannot read the input");
  CHECK_EQ_INT(jj_convert(NULL, NULL, tbuf_sink, NULL, NULL, &err),
               JJ_ERR_USAGE);
  jj_input_memory(&bad, "{\"a\":1}", 7, NULL);
  CHECK_EQ_INT(jj_convert(&bad, NULL, NULL, NULL, NULL, &err), JJ_ERR_USAGE);
  CHECK_EQ_INT(jj_convert_infer(&bad, NULL, NULL, &err), JJ_ERR_USAGE);
  /* a sink that fails */
  tbuf doc = {0};
  doc.fail_after = 1;
  CHECK_EQ_INT(jj_convert(&bad, NULL, tbuf_sink, &doc, NULL, &err), JJ_ERR_IO);
  CHECK_EQ_STR(err.message, "write failed");
  tbuf_free(&doc);
  /* infer only (a new input: the last one was read to its end) */
  jj_input_memory(&bad, "{\"a\":1}", 7, NULL);
  CHECK_EQ_INT(jj_convert_infer(&bad, NULL, &res, &err), JJ_OK);
  CHECK_EQ_INT(res.rows, 1);
  CHECK_EQ_INT(jj_schema_type(res.schema, 0), JJ_INT);
  CHECK_EQ_INT(res.format, JJ_FORMAT_NDJSON);
  jj_schema_free(res.schema);
  CHECK_EQ_STR(jj_format_name(JJ_FORMAT_TSV), "tsv");
  CHECK_EQ_STR(jj_format_name((jj_format)99), "unknown");
}

TEST(convert_reads_a_stdio_stream_and_a_pipe) {
  FILE *f = tmpfile();
  fputs("junk{\"a\":1}\n{\"a\":2}\n", f);
  fseek(f, 4, SEEK_SET); /* from where it stands */
  jj_input in;
  jj_error err;
  jj_convert_result res;
  tbuf doc = {0};
  jj_input_file(&in, f, "t.ndjson");
  CHECK(in.rewind != NULL);
  CHECK_EQ_INT(jj_convert(&in, NULL, tbuf_sink, &doc, &res, &err), JJ_OK);
  CHECK_EQ_INT(res.rows, 2);
  jj_schema_free(res.schema);
  tbuf_free(&doc);
  fclose(f);
  /* a pipe cannot seek: the converter spools it */
  FILE *p = popen("printf '{\"a\":1}\\n{\"a\":2.5}\\n'", "r");
  jj_input_file(&in, p, "pipe");
  CHECK(in.rewind == NULL);
  CHECK_EQ_INT(jj_convert(&in, NULL, tbuf_sink, &doc, &res, &err), JJ_OK);
  CHECK(doc.p && strstr(doc.p, "[1.0],\n[2.5]") != NULL);
  jj_schema_free(res.schema);
  tbuf_free(&doc);
  pclose(p);
}

int main(void) {
  RUN(convert_memory_does_not_grow_with_the_rows);
  RUN(convert_rows_larger_than_the_window);
  RUN(convert_same_output_whatever_the_reads_and_rewinds);
  RUN(convert_notices_an_input_that_changed);
  RUN(convert_notices_a_row_longer_than_in_pass_1);
  RUN(convert_interrupt_io_errors_and_usage);
  RUN(convert_reads_a_stdio_stream_and_a_pipe);
  return test_summary("convert_input");
}
