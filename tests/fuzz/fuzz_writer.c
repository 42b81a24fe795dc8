/*
** fuzz_writer.c — libFuzzer harness for jj_writer.  The input is a program
** of writer calls (one opcode byte, then its operands) on a fixed schema
** with every type and a nested table.  Properties checked:
**   - buffer mode and sink mode give the same bytes and the same error;
**   - a document the writer finished is valid (jj_parse_opts with
**     JJ_PARSE_VALIDATE) with jj_writer_rows rows;
**   - copying it row by row with jj_writer_copy gives the same bytes again
**     (but for the meta), and jj_cursor_object succeeds on every row.
** A broken property aborts.
**
**   clang -fsanitize=address,undefined,fuzzer -Icore -Itests
**     tests/fuzz/fuzz_writer.c core/[a-z]*.c -lz -lbrotlienc -lbrotlidec -lm
**     -o /tmp/fuzz_writer
**   /tmp/fuzz_writer -max_total_time=60
**
** Not named test_*.c: it is not part of `make test`.
*/
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "jalapenojson.h"

#define REQUIRE(cond)     \
  do {                    \
    if (!(cond)) abort(); \
  } while (0)

/* The input, consumed from the front. */
typedef struct input {
  const unsigned char *p;
  size_t n;
} input;

/* Up to `want` bytes (fewer at the end); *len receives the count. */
static const unsigned char *take(input *in, size_t want, size_t *len) {
  const unsigned char *p = in->p;
  *len = want < in->n ? want : in->n;
  in->p += *len;
  in->n -= *len;
  return p;
}

static uint64_t take_u64(input *in, size_t bytes) {
  size_t len;
  const unsigned char *p = take(in, bytes, &len);
  uint64_t v = 0;
  for (size_t i = 0; i < len; i++) v = v << 8 | p[i];
  return v;
}

/* Run the program on w; returns the writer's final code.  *meta is set
** when a jj_writer_set_meta call succeeded. */
static jj_code run(jj_writer *w, input in, int *meta) {
  jj_code rc = JJ_OK;
  while (in.n > 0 && !rc) {
    size_t len;
    const unsigned char *p;
    switch (take_u64(&in, 1) % 18) {
      case 0:
        rc = jj_writer_null(w);
        break;
      case 1:
        rc = jj_writer_int(w, (int64_t)take_u64(&in, 8));
        break;
      case 2: {
        uint64_t bits = take_u64(&in, 8);
        double d;
        memcpy(&d, &bits, 8);
        rc = jj_writer_double(w, d);
        break;
      }
      case 3:
        p = take(&in, take_u64(&in, 1) % 24, &len);
        rc = jj_writer_text(w, (const char *)p, len);
        break;
      case 4:
        p = take(&in, 10, &len);
        rc = jj_writer_date(w, (const char *)p, len);
        break;
      case 5:
        rc = jj_writer_date_days(w, (int32_t)take_u64(&in, 4));
        break;
      case 6:
        p = take(&in, take_u64(&in, 1) % 40, &len);
        rc = jj_writer_timestamp(w, (const char *)p, len);
        break;
      case 7: {
        jj_timestamp ts;
        uint64_t secs = take_u64(&in, 8);
        ts.seconds = (int64_t)(secs >> (take_u64(&in, 1) % 64));
        ts.nanos = (int32_t)take_u64(&in, 4);
        ts.zone_minutes = (int16_t)take_u64(&in, 2);
        ts.digits = (uint8_t)take_u64(&in, 1);
        rc = jj_writer_timestamp_value(w, &ts);
        break;
      }
      case 8:
        rc = jj_writer_bool(w, (int)(take_u64(&in, 1) & 1));
        break;
      case 9:
        p = take(&in, take_u64(&in, 1) % 16, &len);
        rc = jj_writer_bytes(w, p, len);
        break;
      case 10:
        rc = jj_writer_begin_table(w);
        break;
      case 11:
        rc = jj_writer_end_table(w);
        break;
      case 12:
      case 13:
        rc = jj_writer_end_row(w);
        break;
      case 15: /* a local timestamp, T or space form */
        p = take(&in, take_u64(&in, 1) % 40, &len);
        rc = jj_writer_local_timestamp(w, (const char *)p, len);
        break;
      case 16: {
        jj_timestamp ts;
        uint64_t secs = take_u64(&in, 8);
        ts.seconds = (int64_t)(secs >> (take_u64(&in, 1) % 64));
        ts.nanos = (int32_t)take_u64(&in, 4);
        ts.zone_minutes = 0;
        ts.digits = (uint8_t)take_u64(&in, 1);
        rc = jj_writer_local_timestamp_value(w, &ts);
        break;
      }
      case 17:
        p = take(&in, take_u64(&in, 1) % 48, &len);
        rc = jj_writer_json(w, (const char *)p, len);
        break;
      default:
        p = take(&in, take_u64(&in, 1) % 32, &len);
        rc = jj_writer_set_meta(w, (const char *)p, len);
        *meta |= rc == JJ_OK;
        break;
    }
  }
  return rc ? rc : jj_writer_finish(w);
}

static int buf_sink(void *ctx, const char *p, size_t len) {
  return jj_buf_append(ctx, p, len);
}

/* Read doc back: valid, `rows` rows; copy it through jj_writer_copy (the
** same bytes unless it has a meta, which the copy does not carry) and
** render every row with jj_cursor_object. */
static void check_doc(const char *doc, size_t len, int64_t rows, int meta) {
  jj_error err;
  jj_doc *d = jj_parse_opts(doc, len, JJ_PARSE_VALIDATE, 0, &err);
  REQUIRE(d);
  REQUIRE(jj_doc_rows(d, &err) == rows);
  const jj_schema *s = jj_doc_schema(d);
  jj_writer *w = jj_writer_new(s, NULL, NULL, &err);
  jj_cursor *c = jj_cursor_new(d, &err);
  REQUIRE(w && c);
  jj_buf obj = {0};
  int more;
  while ((more = jj_cursor_next(c, &err)) == 1) {
    for (size_t col = 0; col < jj_schema_columns(s); col++)
      REQUIRE(jj_writer_copy(w, c, col) == JJ_OK);
    REQUIRE(jj_writer_end_row(w) == JJ_OK);
    REQUIRE(jj_cursor_object(c, buf_sink, &obj, &err) == JJ_OK);
  }
  REQUIRE(more == 0);
  REQUIRE(jj_writer_finish(w) == JJ_OK);
  size_t copy_len;
  char *copy = jj_writer_take(w, &copy_len);
  REQUIRE(copy);
  REQUIRE(meta || (copy_len == len && memcmp(copy, doc, len) == 0));
  jj_free(copy);
  jj_buf_free(&obj);
  jj_writer_free(w);
  jj_cursor_free(c);
  jj_doc_free(d);
}

/* i, f, s, d, t, b, x, l, j (each named by its letter), n {k s, v i} */
static jj_schema *make_schema(void) {
  static const char names[] = "ifsdtbxlj";
  jj_schema *s = jj_schema_new(), *n = jj_schema_new();
  REQUIRE(s && n);
  for (size_t i = 0; i < 9; i++)
    REQUIRE(jj_schema_add(s, names + i, 1, (jj_type)names[i], NULL, NULL) ==
            JJ_OK);
  REQUIRE(jj_schema_add(n, "k", 1, JJ_TEXT, NULL, NULL) == JJ_OK);
  REQUIRE(jj_schema_add(n, "v", 1, JJ_INT, NULL, NULL) == JJ_OK);
  REQUIRE(jj_schema_add(s, "n", 1, JJ_TABLE, n, NULL) == JJ_OK);
  return s;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  input in = {data, size};
  jj_schema *s = make_schema();
  jj_buf sunk = {0};
  jj_writer *a = jj_writer_new(s, NULL, NULL, NULL);
  jj_writer *b = jj_writer_new(s, buf_sink, &sunk, NULL);
  REQUIRE(a && b);
  int meta = 0;
  jj_code ra = run(a, in, &meta), rb = run(b, in, &meta);
  REQUIRE(ra == rb);
  REQUIRE(strcmp(jj_writer_error(a)->message, jj_writer_error(b)->message) ==
          0);
  if (ra == JJ_OK) {
    size_t len;
    char *doc = jj_writer_take(a, &len);
    REQUIRE(doc && len == sunk.len && memcmp(doc, sunk.p, len) == 0);
    check_doc(doc, len, jj_writer_rows(a), meta);
    jj_free(doc);
  }
  jj_buf_free(&sunk);
  jj_writer_free(a);
  jj_writer_free(b);
  jj_schema_free(s);
  return 0;
}
