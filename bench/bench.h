/*
** bench.h — what every benchmark program shares: the CRC-32 of text values,
** the checksum of a run and the expected one read from a .sum file, loading
** a document into memory before timing, and the measurement loop that
** implements the methodology of bench/README.md:
**
**   warm-up:  run the task until its runs add up to 200 ms;
**   measure:  at least 15 more runs and at least 500 ms of them, keep the
**             fastest;
**   check:    every run (warm-up included) is compared with the expected
**             checksum; a mismatch ends the process with exit status 3.
**
** Header-only (static functions) so that the C programs and the simdjson
** C++ program share one copy of the rules.  Each program prints one line:
**   ok TASK READER best_ns=N runs=R warm_runs=W
*/
#ifndef BENCH_H
#define BENCH_H

#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Under callgrind (BENCH_ONCE, see bench_measure) only the run itself is
** counted, not loading the input or setting up tables. */
#if defined(__has_include)
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define BENCH_COLLECT() CALLGRIND_TOGGLE_COLLECT
#endif
#endif
#ifndef BENCH_COLLECT
#define BENCH_COLLECT() ((void)0)
#endif

/* ---------------------------------------------------------------------- */
/* CRC-32 (ISO-HDLC: poly 0xEDB88320 reflected, init and final xor         */
/* 0xFFFFFFFF, as zlib's crc32()), slice-by-8 so that short strings cost   */
/* every reader the same few nanoseconds.                                  */
/* ---------------------------------------------------------------------- */

static uint32_t bench_crc_table[8][256];

/* Fill the tables once at program start (bench_init calls it). */
static inline void bench_crc_init(void) {
  for (uint32_t i = 0; i < 256; i++) {
    uint32_t c = i;
    for (int k = 0; k < 8; k++) c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
    bench_crc_table[0][i] = c;
  }
  for (uint32_t i = 0; i < 256; i++)
    for (int t = 1; t < 8; t++)
      bench_crc_table[t][i] = (bench_crc_table[t - 1][i] >> 8) ^
                              bench_crc_table[0][bench_crc_table[t - 1][i] & 0xFF];
}

/* Continue a CRC-32 over p[0..len): crc = bench_crc(crc, p, len), starting
** from 0, exactly like zlib's crc32(crc, p, len). */
static inline uint32_t bench_crc(uint32_t crc, const void *data, size_t len) {
  const unsigned char *p = (const unsigned char *)data;
  crc = ~crc;
  while (len >= 8) {
    uint32_t a, b;
    memcpy(&a, p, 4);
    memcpy(&b, p + 4, 4);
    a ^= crc;
    crc = bench_crc_table[7][a & 0xFF] ^ bench_crc_table[6][(a >> 8) & 0xFF] ^
          bench_crc_table[5][(a >> 16) & 0xFF] ^ bench_crc_table[4][a >> 24] ^
          bench_crc_table[3][b & 0xFF] ^ bench_crc_table[2][(b >> 8) & 0xFF] ^
          bench_crc_table[1][(b >> 16) & 0xFF] ^ bench_crc_table[0][b >> 24];
    p += 8;
    len -= 8;
  }
  while (len--) crc = bench_crc_table[0][(crc ^ *p++) & 0xFF] ^ (crc >> 8);
  return ~crc;
}

/* ---------------------------------------------------------------------- */
/* Checksums                                                               */
/* ---------------------------------------------------------------------- */

/* What a run read.  Which fields a task fills is defined in README.md
** ("Checksums"); the others stay 0. */
typedef struct bench_sum {
  uint64_t count;    /* values read (non-null) */
  int64_t sum_int;   /* exact sum of the integer values read */
  double sum_float;  /* sum of the float values, in document order */
  uint32_t crc;      /* CRC-32 over the text values read, in order */
  uint64_t chars;    /* SQL only: total length() of the text values */
} bench_sum;

/* Float sums are compared bit for bit, except where a reader's summation is
** not the left-to-right one (SQLite 3.43+ sums with Kahan-Babuska-Neumaier):
** then within `float_tol` relative. */
static double bench_float_tol = 0.0;

static inline int bench_sum_equal(const bench_sum *a, const bench_sum *b) {
  if (a->count != b->count || a->sum_int != b->sum_int || a->crc != b->crc ||
      a->chars != b->chars)
    return 0;
  if (bench_float_tol == 0.0) return memcmp(&a->sum_float, &b->sum_float, sizeof(double)) == 0;
  return fabs(a->sum_float - b->sum_float) <= bench_float_tol * fabs(b->sum_float);
}

static inline void bench_sum_print(FILE *f, const char *what, const bench_sum *s) {
  fprintf(f, "%s: count=%" PRIu64 " sum_int=%" PRId64 " sum_float=%.17g crc=%08x chars=%" PRIu64 "\n",
          what, s->count, s->sum_int, s->sum_float, (unsigned)s->crc, s->chars);
}

/* Stop the benchmark: print why and exit 3 (run.sh stops on any failure). */
static inline void bench_die(const char *fmt, const char *arg) {
  fprintf(stderr, "bench: ");
  fprintf(stderr, fmt, arg);
  fputc('\n', stderr);
  exit(3);
}

/* The value text of `key` in the .sum file text (lines "key value"), or
** NULL when the key is missing. */
static inline const char *bench_sum_get(const char *text, const char *key) {
  size_t klen = strlen(key);
  const char *p = text;
  while (p && *p) {
    if (strncmp(p, key, klen) == 0 && p[klen] == ' ') return p + klen + 1;
    p = strchr(p, '\n');
    if (p) p++;
  }
  return NULL;
}

/* The integer value of `key`; dies when it is missing. */
static inline int64_t bench_sum_int(const char *text, const char *key) {
  const char *v = bench_sum_get(text, key);
  if (!v) bench_die("%s is missing from the .sum file", key);
  return strtoll(v, NULL, 10);
}

/* Read the expected checksum of task `task` ("all", "price", "city",
** "middle", "sql.scan", ...) from the .sum text; the fields that the task
** does not define are 0. Floats are stored as C99 hex floats (exact). */
static inline bench_sum bench_expect(const char *text, const char *task) {
  char key[64];
  const char *fields[] = {"count", "sum_int", "sum_float", "crc", "chars"};
  bench_sum s;
  memset(&s, 0, sizeof s);
  for (int i = 0; i < 5; i++) {
    snprintf(key, sizeof key, "%s.%s", task, fields[i]);
    const char *v = bench_sum_get(text, key);
    if (!v) continue;
    switch (i) {
      case 0: s.count = strtoull(v, NULL, 10); break;
      case 1: s.sum_int = strtoll(v, NULL, 10); break;
      case 2: s.sum_float = strtod(v, NULL); break;
      case 3: s.crc = (uint32_t)strtoul(v, NULL, 16); break;
      default: s.chars = strtoull(v, NULL, 10); break;
    }
  }
  return s;
}

/* What a read task must give: its own lines of the .sum file; "count"
** (the rows, counted with their structure checked: no value read) only
** the number of rows, the file's "rows" line; "stage1" (simdjson's
** structural index alone, c_simdjson.cpp) nothing: it reads no row, and
** its run fails unless the document parses as an array; "convert" (the
** prices alone, c_jj.c) what "price" gives; "values" (every value, the
** texts not summed: c_jj.c) "all"'s lines less the CRC. */
static inline bench_sum bench_expect_task(const char *text, const char *task) {
  bench_sum s;
  memset(&s, 0, sizeof s);
  if (strcmp(task, "stage1") == 0) return s;
  if (strcmp(task, "convert") == 0) return bench_expect(text, "price");
  if (strcmp(task, "values") == 0) {
    s = bench_expect(text, "all");
    s.crc = 0;
    return s;
  }
  if (strcmp(task, "count") != 0) return bench_expect(text, task);
  const char *v = bench_sum_get(text, "rows");
  if (!v) bench_die("%s is missing from the .sum file", "rows");
  s.count = strtoull(v, NULL, 10);
  return s;
}

/* ---------------------------------------------------------------------- */
/* Input                                                                   */
/* ---------------------------------------------------------------------- */

/* Bytes of every input buffer past its end that are readable and zero:
** simdjson needs 64, the others need none.  Every reader gets the same
** buffer, so the padding favours no one. */
#define BENCH_PADDING 64

/* Read a whole file into memory before timing.  Returns a malloc'd buffer
** of *len bytes plus BENCH_PADDING zero bytes (the caller frees it, at
** exit); dies on failure. */
static inline char *bench_load(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) bench_die("cannot open %s", path);
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *buf = (char *)malloc((size_t)n + BENCH_PADDING);
  if (!buf) bench_die("out of memory reading %s", path);
  if (fread(buf, 1, (size_t)n, f) != (size_t)n) bench_die("cannot read %s", path);
  fclose(f);
  memset(buf + n, 0, BENCH_PADDING);
  *len = (size_t)n;
  return buf;
}

static inline uint64_t bench_now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* ---------------------------------------------------------------------- */
/* The measurement loop                                                    */
/* ---------------------------------------------------------------------- */

/* One run of a task: does the work, timing only the part that counts with
** bench_now_ns() (not the freeing), stores the run's checksum in *out and
** the timed nanoseconds in *ns.  Returns 0, or nonzero when the reader
** reported an error (the run then fails the benchmark). */
typedef int (*bench_fn)(void *ctx, bench_sum *out, uint64_t *ns);

#define BENCH_WARM_NS 200000000u    /* warm-up: runs adding up to 200 ms */
#define BENCH_MIN_NS 500000000u     /* then at least 500 ms of runs ... */
#define BENCH_MIN_RUNS 15           /* ... and at least 15 of them */

/* Run one check of a run's result against the expectation; dies on a
** mismatch with both checksums on stderr. */
static inline void bench_check(const char *task, const char *reader, int rc,
                               const bench_sum *got, const bench_sum *want, unsigned run) {
  if (rc != 0) {
    fprintf(stderr, "bench: %s/%s run %u: the reader failed\n", task, reader, run);
    exit(3);
  }
  if (!bench_sum_equal(got, want)) {
    fprintf(stderr, "bench: %s/%s run %u: checksum mismatch\n", task, reader, run);
    bench_sum_print(stderr, "  got     ", got);
    bench_sum_print(stderr, "  expected", want);
    exit(3);
  }
}

/* Warm up, measure, check every run, print the one result line.  With the
** environment variable BENCH_ONCE set, run (and check) the task exactly
** once instead: what run.sh uses to profile a task under callgrind. */
static inline void bench_measure(const char *task, const char *reader, bench_fn fn, void *ctx,
                                 const bench_sum *want) {
  uint64_t spent = 0, best = UINT64_MAX, ns;
  unsigned warm = 0, runs = 0;
  bench_sum got;
  if (getenv("BENCH_ONCE")) {
    memset(&got, 0, sizeof got);
    ns = 0;
    BENCH_COLLECT();
    int rc = fn(ctx, &got, &ns);
    BENCH_COLLECT();
    bench_check(task, reader, rc, &got, want, 1);
    printf("ok %s %s once_ns=%" PRIu64 "\n", task, reader, ns);
    return;
  }
  /* BENCH_QUICK (run.sh --quick, a smoke test of the whole pipeline):
  ** one warm-up run and 3 measured runs, every one still checked. */
  int quick = getenv("BENCH_QUICK") != NULL;
  uint64_t warm_ns = quick ? 1 : BENCH_WARM_NS, min_ns = quick ? 0 : BENCH_MIN_NS;
  unsigned min_runs = quick ? 3 : BENCH_MIN_RUNS;
  while (spent < warm_ns) {
    memset(&got, 0, sizeof got);
    ns = 0;
    int rc = fn(ctx, &got, &ns);
    bench_check(task, reader, rc, &got, want, warm + 1);
    spent += ns ? ns : 1;
    warm++;
  }
  spent = 0;
  while (runs < min_runs || spent < min_ns) {
    memset(&got, 0, sizeof got);
    ns = 0;
    int rc = fn(ctx, &got, &ns);
    bench_check(task, reader, rc, &got, want, warm + runs + 1);
    spent += ns ? ns : 1;
    if (ns < best) best = ns;
    runs++;
  }
  printf("ok %s %s best_ns=%" PRIu64 " runs=%u warm_runs=%u\n", task, reader, best, runs, warm);
  fflush(stdout);
}

#endif /* BENCH_H */
