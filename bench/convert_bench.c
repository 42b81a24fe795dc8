/*
** convert_bench.c — the converter's benchmark (bench/convert.sh runs it).
** One measurement per process, so that the peak RSS is the task's own:
**
**   convert_bench in  IN OUT [EXPECTED.jj [pad|skip|pad+skip]]
**                                            JSON/NDJSON/CSV -> jj (jj_convert
**                                            from the file, jj_input_file);
**                                            the output must equal EXPECTED
**                                            byte for byte when given, and is
**                                            read back and validated always;
**                                            pad: null padding, skip:
**                                            on_error skip (with a reject
**                                            callback, which no row may reach)
**   convert_bench out json|ndjson|csv IN.jj OUT   jj -> JSON/NDJSON/CSV
**                                            (jj_file_open, jj_to_text)
**   convert_bench stream ROWS                NDJSON rows generated on the fly
**                                            through jj_input callbacks (no
**                                            file, rewound by regenerating),
**                                            converted to a sink that only
**                                            counts: the converter's memory
**                                            alone, for ROWS = 1 M and 10 M
**
** Prints one line: "TASK wall_s=W cpu_s=C bytes=N mb_s=M rss_mb=R" (MB/s of
** the input, wall clock), exit status 0, or the error and 1.
*/
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "jalapenojson.h"

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static double cpu(void) {
  struct rusage u;
  getrusage(RUSAGE_SELF, &u);
  return (double)u.ru_utime.tv_sec + (double)u.ru_utime.tv_usec / 1e6 +
         (double)u.ru_stime.tv_sec + (double)u.ru_stime.tv_usec / 1e6;
}

static double rss_mb(void) {
  struct rusage u;
  getrusage(RUSAGE_SELF, &u);
  return (double)u.ru_maxrss / 1024.0; /* KiB on Linux */
}

static void report(const char *task, double wall, double c, uint64_t bytes) {
  printf("%s wall_s=%.3f cpu_s=%.3f bytes=%llu mb_s=%.1f rss_mb=%.1f\n", task,
         wall, c, (unsigned long long)bytes, (double)bytes / 1e6 / wall,
         rss_mb());
}

static int file_sink(void *ctx, const char *p, size_t n) {
  return fwrite(p, 1, n, ctx) != n;
}

static int fail(const char *what, const jj_error *err) {
  fprintf(stderr, "convert_bench: %s: %s\n", what, err->message);
  return 1;
}

/* The output read back: parsed, every value checked, rows counted. */
static int verify(const char *path, int64_t rows, const char *expected) {
  jj_file f, e;
  jj_error err;
  jj_doc *d;
  int rc = 1;
  if (jj_file_open(path, 0, &f, &err)) return fail(path, &err);
  if ((d = jj_parse_opts(f.data, f.len, JJ_PARSE_VALIDATE, 0, &err)) &&
      jj_doc_rows(d, &err) == rows)
    rc = 0;
  else if (d)
    fprintf(stderr, "convert_bench: %s: row count differs\n", path);
  else
    fail(path, &err);
  if (!rc && expected) {
    if (jj_file_open(expected, 0, &e, &err)) return fail(expected, &err);
    if (e.len != f.len || memcmp(e.data, f.data, f.len)) {
      fprintf(stderr, "convert_bench: %s differs from %s\n", path, expected);
      rc = 1;
    }
    jj_file_close(&e);
  }
  jj_doc_free(d);
  jj_file_close(&f);
  return rc;
}

/* A row set aside: counted (the benchmark's inputs have none). */
static void count_reject(void *ctx, const jj_error *e, const char *col,
                         size_t col_len) {
  (void)e, (void)col, (void)col_len;
  ++*(unsigned long *)ctx;
}

static int task_in(char **argv, int argc) {
  FILE *in = fopen(argv[2], "rb"), *out = fopen(argv[3], "wb");
  jj_input input;
  jj_error err;
  jj_convert_result res;
  jj_convert_opts o;
  unsigned long rejected = 0;
  const char *mode = argc > 5 ? argv[5] : "";
  memset(&o, 0, sizeof o);
  if (strstr(mode, "pad")) o.flags |= JJ_CONVERT_CSV_NULL_PADDING;
  if (strstr(mode, "thousands")) o.thousands = ','; /* no field has one */
  if (strstr(mode, "skip")) {
    o.on_error = JJ_ON_ERROR_SKIP;
    o.reject = count_reject;
    o.reject_ctx = &rejected;
  }
  if (!in || !out) {
    fprintf(stderr, "convert_bench: cannot open %s or %s\n", argv[2], argv[3]);
    return 1;
  }
  setvbuf(out, NULL, _IOFBF, 1 << 16);
  jj_input_file(&input, in, argv[2]);
  double t0 = now(), c0 = cpu();
  if (jj_convert(&input, &o, file_sink, out, &res, &err))
    return fail(argv[2], &err);
  if (rejected) {
    fprintf(stderr, "convert_bench: %lu rows set aside\n", rejected);
    return 1;
  }
  if (fflush(out)) return 1;
  double wall = now() - t0, c = cpu() - c0;
  fclose(out);
  fclose(in);
  jj_schema_free(res.schema);
  report("in", wall, c, res.bytes);
  return verify(argv[3], res.rows, argc > 4 ? argv[4] : NULL);
}

static int task_out(char **argv) {
  jj_format to = !strcmp(argv[2], "json")     ? JJ_FORMAT_JSON
                 : !strcmp(argv[2], "ndjson") ? JJ_FORMAT_NDJSON
                                              : JJ_FORMAT_CSV;
  jj_file f;
  jj_error err;
  FILE *out = fopen(argv[4], "wb");
  if (!out) return 1;
  setvbuf(out, NULL, _IOFBF, 1 << 16);
  double t0 = now(), c0 = cpu();
  if (jj_file_open(argv[3], 0, &f, &err)) return fail(argv[3], &err);
  jj_doc *d = jj_parse(f.data, f.len, &err);
  if (!d || jj_to_text(d, to, NULL, file_sink, out, &err))
    return fail(argv[3], &err);
  if (fflush(out)) return 1;
  report("out", now() - t0, cpu() - c0, f.len);
  jj_doc_free(d);
  jj_file_close(&f);
  return fclose(out) != 0;
}

/* Generated NDJSON: row i is the same on both passes. */
typedef struct gen {
  uint64_t rows, next;
  char pending[256];
  size_t plen, ppos;
  uint64_t bytes;
} gen;

static long gen_read(void *ctx, char *buf, size_t cap) {
  gen *g = ctx;
  size_t n = 0;
  while (n < cap) {
    if (g->ppos == g->plen) {
      if (g->next == g->rows) break;
      uint64_t i = g->next++;
      g->plen = (size_t)snprintf(
          g->pending, sizeof g->pending,
          "{\"id\":%llu,\"user\":\"u%04llu\",\"price\":%llu.%02llu,\"ok\":%s,"
          "\"day\":\"20%02llu-%02llu-%02llu\"}\n",
          (unsigned long long)i, (unsigned long long)(i * 7919 % 2000),
          (unsigned long long)(i % 500), (unsigned long long)(i % 100),
          i % 3 ? "true" : "false", (unsigned long long)(i % 30),
          (unsigned long long)(i % 12 + 1), (unsigned long long)(i % 28 + 1));
      g->ppos = 0;
    }
    size_t k = g->plen - g->ppos;
    if (k > cap - n) k = cap - n;
    memcpy(buf + n, g->pending + g->ppos, k);
    g->ppos += k;
    n += k;
  }
  g->bytes += n;
  return (long)n;
}

static int gen_rewind(void *ctx) {
  gen *g = ctx;
  g->next = 0;
  g->plen = g->ppos = 0;
  return 0;
}

static int count_sink(void *ctx, const char *p, size_t n) {
  (void)p;
  *(uint64_t *)ctx += n;
  return 0;
}

static int task_stream(char **argv) {
  gen g;
  jj_input in;
  jj_error err;
  jj_convert_result res;
  uint64_t out = 0;
  memset(&g, 0, sizeof g);
  g.rows = strtoull(argv[2], NULL, 10);
  memset(&in, 0, sizeof in);
  in.read = gen_read;
  in.rewind = gen_rewind;
  in.ctx = &g;
  in.name = "generated";
  double t0 = now(), c0 = cpu();
  if (jj_convert(&in, NULL, count_sink, &out, &res, &err))
    return fail("stream", &err);
  report("stream", now() - t0, cpu() - c0, res.bytes);
  printf("stream rows=%lld out_bytes=%llu\n", (long long)res.rows,
         (unsigned long long)out);
  jj_schema_free(res.schema);
  return res.rows == (int64_t)g.rows ? 0 : 1;
}

int main(int argc, char **argv) {
  if (argc >= 4 && !strcmp(argv[1], "in")) return task_in(argv, argc);
  if (argc >= 5 && !strcmp(argv[1], "out")) return task_out(argv);
  if (argc >= 3 && !strcmp(argv[1], "stream")) return task_stream(argv);
  fprintf(stderr,
          "usage: convert_bench in IN OUT [EXPECTED [pad|skip|pad+skip|thousands]]"
          " | out json|ndjson|csv IN.jj OUT | stream ROWS\n");
  return 2;
}
