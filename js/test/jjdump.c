/*
** jjdump.c — the C side of the JavaScript module's round-trip tests
** (js/test/roundtrip.test.mjs), built by `make js` as build/js/jjdump:
**
**   jjdump dump FILE        every value of every row, one line per row
**   jjdump copy FILE        the document rewritten by the C writer
**                           (jj_writer_copy_rows), to stdout
**   jjdump gen SEED ROWS    a random document (random schema, values with
**                           the edge cases of every type) written by the C
**                           writer, to stdout
**
** A dump line holds a row's values separated by ',' as the JS test writes
** them too: null "~"; an integer in decimal; a float "f:" and its 64 bits
** in hex ("f:nan" for any NaN: the format has one NaN); text "s:" and its
** UTF-8 bytes in hex; a date "d:" and its text; a timestamp "t:" and its
** text, "/", seconds, nanoseconds, zone minutes and fraction digits
** separated by "/"; a boolean "true" or "false"; bytes "x:" and hex; a
** nested table "[" its rows separated by ";" "]".  Exit status 1 with the
** error's message on stderr when the document is not valid.
*/
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jalapenojson.h"

static void hex(const unsigned char *p, size_t n) {
  for (size_t i = 0; i < n; i++) printf("%02x", p[i]);
}

static int dump_rows(jj_doc *doc, const char *row_sep, jj_error *err);

static int dump_value(jj_cursor *c, size_t col, jj_error *err) {
  jj_value v;
  int rc = jj_cursor_value(c, col, &v, err);
  if (rc < 0) return -1;
  if (rc == 0) {
    printf("~");
    return 0;
  }
  uint64_t bits;
  switch (v.type) {
    case JJ_INT: printf("%" PRId64, v.u.i); break;
    case JJ_FLOAT:
      memcpy(&bits, &v.u.f, 8);
      if (isnan(v.u.f))
        printf("f:nan");
      else
        printf("f:%016" PRIx64, bits);
      break;
    case JJ_TEXT:
      printf("s:");
      hex((const unsigned char *)v.u.text.p, v.u.text.len);
      break;
    case JJ_DATE: printf("d:%.*s", (int)v.u.date.len, v.u.date.p); break;
    case JJ_TIMESTAMP:
      printf("t:%.*s/%" PRId64 "/%d/%d/%d", (int)v.u.timestamp.len, v.u.timestamp.p,
             v.u.timestamp.ts.seconds, (int)v.u.timestamp.ts.nanos,
             (int)v.u.timestamp.ts.zone_minutes, (int)v.u.timestamp.ts.digits);
      break;
    case JJ_LOCAL_TIMESTAMP: printf("l:%.*s", (int)v.u.timestamp.len, v.u.timestamp.p); break;
    case JJ_BOOL: printf(v.u.b ? "true" : "false"); break;
    case JJ_BYTES:
      printf("x:");
      hex(v.u.bytes.p, v.u.bytes.len);
      break;
    case JJ_JSON: /* the canonical text */
      printf("j:");
      hex((const unsigned char *)v.u.json.p, v.u.json.len);
      break;
    case JJ_TABLE:
      printf("[");
      rc = dump_rows(v.u.table, ";", err);
      jj_doc_free(v.u.table);
      if (rc < 0) return -1;
      printf("]");
      break;
  }
  return 0;
}

static int dump_rows(jj_doc *doc, const char *row_sep, jj_error *err) {
  jj_cursor *c = jj_cursor_new(doc, err);
  size_t ncols = jj_schema_columns(jj_doc_schema(doc));
  int rc, first = 1;
  if (!c) return -1;
  while ((rc = jj_cursor_next(c, err)) == 1) {
    if (!first) printf("%s", row_sep);
    first = 0;
    for (size_t col = 0; col < ncols && rc >= 0; col++) {
      if (col) printf(",");
      if (dump_value(c, col, err) < 0) rc = -1;
    }
    if (rc < 0) break;
  }
  jj_cursor_free(c);
  return rc < 0 ? -1 : 0;
}

static char *slurp(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  char *p = NULL;
  size_t cap = 0, n = 0, got;
  if (!f) return NULL;
  do {
    if (n == cap) {
      cap = cap ? 2 * cap : 65536;
      char *q = realloc(p, cap);
      if (!q) exit(2);
      p = q;
    }
    got = fread(p + n, 1, cap - n, f);
    n += got;
  } while (got > 0);
  fclose(f);
  *len = n;
  return p ? p : malloc(1);
}

/* ---------------------------------------------------------------------- */
/* Random documents                                                        */
/* ---------------------------------------------------------------------- */

static uint64_t rng_state;
static uint64_t rnd(void) { /* splitmix64 */
  uint64_t z = (rng_state += 0x9E3779B97F4A7C15u);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
  return z ^ (z >> 31);
}
static int pick(int n) { return (int)(rnd() % (uint64_t)n); }

static jj_schema *random_schema(int depth) {
  static const jj_type scalar[] = {JJ_INT,  JJ_FLOAT, JJ_TEXT,           JJ_DATE, JJ_TIMESTAMP,
                                   JJ_BOOL, JJ_BYTES, JJ_LOCAL_TIMESTAMP};
  jj_schema *s = jj_schema_new();
  int n = 1 + pick(6);
  for (int i = 0; i < n; i++) {
    char name[16];
    int len = snprintf(name, sizeof name, "c%d", i);
    jj_type t = depth < 2 && pick(6) == 0 ? JJ_TABLE : scalar[pick(8)];
    if (jj_schema_add(s, name, (size_t)len, t, t == JJ_TABLE ? random_schema(depth + 1) : NULL,
                      NULL) != JJ_OK)
      exit(2);
  }
  return s;
}

/* Text with what escaping and UTF-8 must get right. */
static void random_text(char *out, size_t *len) {
  static const char *const parts[] = {"a", "Z", " ", "\"", "\\", "/", "\n", "\t", "\x01", "\x1f",
                                      "\x7f", "\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x98\x80",
                                      "\xef\xbf\xbf", "\xe2\x80\xa8", "\0"};
  int n = pick(9);
  *len = 0;
  for (int i = 0; i < n; i++) {
    int k = pick((int)(sizeof parts / sizeof parts[0]));
    size_t plen = k == 16 ? 1 : strlen(parts[k]);
    memcpy(out + *len, parts[k], plen);
    *len += plen;
  }
}

static double random_double(void) {
  static const double special[] = {0.0, -0.0, 1.0, -1.5, 0.1, 19.99, 1e16, 1e-5, 5e-324,
                                   2.2250738585072014e-308, 1.7976931348623157e308};
  uint64_t bits;
  double d;
  switch (pick(5)) {
    case 0: return special[pick((int)(sizeof special / sizeof special[0]))];
    case 1: return pick(3) == 0 ? NAN : pick(2) ? INFINITY : -INFINITY;
    case 2: return (double)((int64_t)(rnd() % 2000001) - 1000000) / 100.0;
    default:
      do {
        bits = rnd();
        memcpy(&d, &bits, 8);
      } while (isnan(d) || isinf(d));
      return d;
  }
}

static int64_t random_int(void) {
  static const int64_t special[] = {0, -1, 1, INT64_MIN, INT64_MAX, 9007199254740991,
                                    9007199254740992, 9007199254740993, -9007199254740993};
  switch (pick(3)) {
    case 0: return special[pick((int)(sizeof special / sizeof special[0]))];
    case 1: return (int64_t)(rnd() % 2001) - 1000;
    default: return (int64_t)rnd();
  }
}

static void random_rows(jj_writer *w, const jj_schema *s, int rows);

static void random_value(jj_writer *w, const jj_schema *s, size_t col) {
  char text[128];
  size_t len;
  unsigned char bytes[16];
  jj_timestamp ts;
  if (pick(8) == 0) {
    jj_writer_null(w);
    return;
  }
  switch (jj_schema_type(s, col)) {
    case JJ_INT: jj_writer_int(w, random_int()); break;
    case JJ_FLOAT: jj_writer_double(w, random_double()); break;
    case JJ_TEXT:
      random_text(text, &len);
      jj_writer_text(w, text, len);
      break;
    case JJ_DATE: jj_writer_date_days(w, (int32_t)(pick(3652059) - 719528)); break;
    case JJ_TIMESTAMP:
      /* years 0001-9998, so that any zone keeps it in 0000-9999 */
      ts.seconds = (int64_t)(rnd() % 315400000000u) - 62100000000;
      ts.digits = (uint8_t)pick(10);
      ts.nanos = 0;
      for (int d = 0; d < ts.digits; d++) ts.nanos = ts.nanos * 10 + pick(10);
      for (int d = ts.digits; d < 9; d++) ts.nanos *= 10;
      ts.zone_minutes = (int16_t)(pick(3) == 0 ? 0 : pick(2879) - 1439);
      jj_writer_timestamp_value(w, &ts);
      break;
    case JJ_LOCAL_TIMESTAMP: /* the wall clock of years 0001-9998 */
      ts.seconds = (int64_t)(rnd() % 315400000000u) - 62100000000;
      ts.digits = (uint8_t)pick(10);
      ts.nanos = 0;
      for (int d = 0; d < ts.digits; d++) ts.nanos = ts.nanos * 10 + pick(10);
      for (int d = ts.digits; d < 9; d++) ts.nanos *= 10;
      ts.zone_minutes = 0;
      jj_writer_local_timestamp_value(w, &ts);
      break;
    case JJ_BOOL: jj_writer_bool(w, pick(2)); break;
    case JJ_BYTES:
      len = (size_t)pick(13);
      for (size_t i = 0; i < len; i++) bytes[i] = (unsigned char)rnd();
      jj_writer_bytes(w, bytes, len);
      break;
    case JJ_JSON: /* no schema of gen() has one: the JS tests write their own */
      jj_writer_json(w, "{}", 2);
      break;
    case JJ_TABLE:
      jj_writer_begin_table(w);
      random_rows(w, jj_schema_table(s, col), pick(4));
      jj_writer_end_table(w);
      break;
  }
}

static void random_rows(jj_writer *w, const jj_schema *s, int rows) {
  for (int r = 0; r < rows; r++) {
    for (size_t col = 0; col < jj_schema_columns(s); col++) random_value(w, s, col);
    jj_writer_end_row(w);
  }
}

static int gen(uint64_t seed, int rows) {
  rng_state = seed;
  jj_schema *s = random_schema(0);
  jj_writer *w = jj_writer_new(s, NULL, NULL, NULL);
  size_t len;
  char *doc;
  if (!w) exit(2);
  random_rows(w, s, rows);
  if (jj_writer_finish(w) != JJ_OK || !(doc = jj_writer_take(w, &len))) {
    fprintf(stderr, "jjdump: %s\n", jj_writer_error(w)->message);
    return 1;
  }
  fwrite(doc, 1, len, stdout);
  jj_free(doc);
  jj_writer_free(w);
  jj_schema_free(s);
  return 0;
}

int main(int argc, char **argv) {
  jj_error err;
  size_t len;
  if (argc == 4 && !strcmp(argv[1], "gen"))
    return gen(strtoull(argv[2], NULL, 10), atoi(argv[3]));
  if (argc != 3 || (strcmp(argv[1], "dump") && strcmp(argv[1], "copy"))) {
    fprintf(stderr, "usage: jjdump dump|copy FILE | jjdump gen SEED ROWS\n");
    return 2;
  }
  char *data = slurp(argv[2], &len);
  if (!data) {
    fprintf(stderr, "jjdump: cannot read %s\n", argv[2]);
    return 2;
  }
  jj_doc *doc = jj_parse(data, len, &err);
  int rc = doc ? 0 : -1;
  if (doc && !strcmp(argv[1], "dump")) {
    rc = dump_rows(doc, "\n", &err);
    if (rc == 0) printf("\n");
  } else if (doc) {
    jj_cursor *c = jj_cursor_new(doc, &err);
    jj_writer *w = c ? jj_writer_new(jj_doc_schema(doc), NULL, NULL, &err) : NULL;
    char *out;
    size_t olen;
    rc = -1;
    if (w && jj_writer_copy_rows(w, c) == JJ_OK && jj_writer_finish(w) == JJ_OK &&
        (out = jj_writer_take(w, &olen))) {
      fwrite(out, 1, olen, stdout);
      jj_free(out);
      rc = 0;
    } else if (w) {
      err = *jj_writer_error(w);
    }
    jj_writer_free(w);
    jj_cursor_free(c);
  }
  if (rc < 0) fprintf(stderr, "jjdump: %s\n", err.message);
  jj_doc_free(doc);
  free(data);
  return rc < 0 ? 1 : 0;
}
