/*
** test_compress.c — gzip and brotli streams: round trips of every size and
** shape, streaming in odd chunks, concatenated gzip members, truncated and
** corrupt input, the decompression limit and bombs, the interrupt
** callback, failing sinks, the names to write with.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

#include "internal.h"
#include "test.h"

/* Deterministic pseudo-random bytes (xorshift), so failures repeat. */
static void fill_random(unsigned char *p, size_t n, uint64_t seed) {
  uint64_t x = seed | 1;
  for (size_t i = 0; i < n; i++) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    p[i] = (unsigned char)(x >> 24);
  }
}

/* Repetitive text: a table-like document that compresses well. */
static void fill_repetitive(char *p, size_t n) {
  static const char row[] = "[12345,\"u0042\",\"2024-03-01\",true],\n";
  for (size_t i = 0; i < n; i++) p[i] = row[i % (sizeof row - 1)];
}

/* A jj_sink appending to a jj_buf. */
static int buf_sink(void *ctx, const char *p, size_t len) {
  return jj_buf_append(ctx, p, len);
}

/* A sink that fails on its Nth call (1-based) and counts calls. */
typedef struct failing {
  int calls;
  int fail_on;
} failing;
static int failing_sink(void *ctx, const char *p, size_t len) {
  failing *f = ctx;
  (void)p;
  (void)len;
  return ++f->calls == f->fail_on;
}

/* Compress with the whole-buffer call, decompress through the stream API
** in chunks of `chunk` bytes, compare. */
static void round_trip(jj_compression kind, int level, const char *data,
                       size_t len, size_t chunk) {
  jj_error err;
  char *z = NULL, *back = NULL;
  size_t zlen = 0, blen = 0;
  CHECK_EQ_INT(jj_compress(kind, level, data, len, &z, &zlen, &err), JJ_OK);
  CHECK(z != NULL);
  if (kind == JJ_GZIP) CHECK_EQ_INT(jj_detect_compression(z, zlen), JJ_GZIP);

  CHECK_EQ_INT(jj_decompress(kind, z, zlen, 0, &back, &blen, &err), JJ_OK);
  CHECK_EQ_MEM(back, blen, data, len);
  CHECK(back && back[blen] == '\0');
  jj_free(back);

  jj_buf b = {0};
  jj_inflater *in = jj_inflate_new(kind, 0, buf_sink, &b, &err);
  CHECK(in != NULL);
  jj_code code = JJ_OK;
  for (size_t i = 0; i < zlen && !code; i += chunk)
    code = jj_inflate_write(in, z + i, zlen - i < chunk ? zlen - i : chunk,
                            &err);
  CHECK_EQ_INT(code, JJ_OK);
  CHECK_EQ_INT(jj_inflate_finish(in, &err), JJ_OK);
  CHECK_EQ_MEM(b.p, b.len, data, len);
  jj_inflate_free(in);
  jj_buf_free(&b);
  jj_free(z);
}

/* Compress through jj_deflate_sink in chunks, then decompress whole. */
static void stream_compress(jj_compression kind, const char *data, size_t len,
                            size_t chunk) {
  jj_error err;
  jj_buf b = {0};
  char *back = NULL;
  size_t blen = 0;
  jj_deflater *z = jj_deflate_new(kind, -1, buf_sink, &b, &err);
  CHECK(z != NULL);
  int failed = 0;
  for (size_t i = 0; i < len; i += chunk)
    failed |= jj_deflate_sink(z, data + i, len - i < chunk ? len - i : chunk);
  CHECK_EQ_INT(failed, 0);
  CHECK_EQ_INT(jj_deflate_finish(z, &err), JJ_OK);
  jj_deflate_free(z);
  CHECK_EQ_INT(jj_decompress(kind, b.p, b.len, 0, &back, &blen, &err), JJ_OK);
  CHECK_EQ_MEM(back, blen, data, len);
  jj_free(back);
  jj_buf_free(&b);
}

TEST(gzip_and_brotli_round_trip_empty_input) {
  round_trip(JJ_GZIP, -1, "", 0, 1);
  round_trip(JJ_BROTLI, -1, "", 0, 1);
}

TEST(gzip_and_brotli_round_trip_small_text) {
  const char *s = "{\"jalapenojson\":1,\"columns\":[\"a\"],\"types\":[\"i\"],"
                  "\"rows\":[\n[1]\n]}";
  round_trip(JJ_GZIP, 1, s, strlen(s), 1);
  round_trip(JJ_GZIP, 9, s, strlen(s), 7);
  round_trip(JJ_BROTLI, 0, s, strlen(s), 1);
  round_trip(JJ_BROTLI, 11, s, strlen(s), 3);
}

TEST(gzip_and_brotli_round_trip_5mb_random_and_repetitive) {
  size_t n = 5 * 1024 * 1024;
  char *r = malloc(n), *t = malloc(n);
  fill_random((unsigned char *)r, n, 42);
  fill_repetitive(t, n);
  round_trip(JJ_GZIP, -1, r, n, 65537);
  round_trip(JJ_BROTLI, -1, r, n, 100003);
  round_trip(JJ_GZIP, -1, t, n, 4093);
  round_trip(JJ_BROTLI, -1, t, n, 777);
  stream_compress(JJ_GZIP, t, n, 12345);
  stream_compress(JJ_BROTLI, r, n, 65535);
  free(r);
  free(t);
}

TEST(streaming_in_one_byte_chunks_round_trips) {
  char t[20000];
  fill_repetitive(t, sizeof t);
  stream_compress(JJ_GZIP, t, sizeof t, 1);
  stream_compress(JJ_BROTLI, t, sizeof t, 1);
  round_trip(JJ_GZIP, -1, t, sizeof t, 1);
  round_trip(JJ_BROTLI, -1, t, sizeof t, 1);
}

TEST(plain_streams_pass_bytes_through) {
  jj_error err;
  char *out;
  size_t len;
  CHECK_EQ_INT(jj_compress(JJ_PLAIN, -1, "abc", 3, &out, &len, &err), JJ_OK);
  CHECK_EQ_MEM(out, len, "abc", 3);
  jj_free(out);
  CHECK_EQ_INT(jj_decompress(JJ_PLAIN, "abc", 3, 0, &out, &len, &err), JJ_OK);
  CHECK_EQ_MEM(out, len, "abc", 3);
  jj_free(out);
}

TEST(gzip_reads_concatenated_members_as_one_stream) {
  jj_error err;
  char *a, *b, *out;
  size_t alen, blen, len;
  CHECK_EQ_INT(jj_compress(JJ_GZIP, -1, "hello, ", 7, &a, &alen, &err), JJ_OK);
  CHECK_EQ_INT(jj_compress(JJ_GZIP, 9, "world", 5, &b, &blen, &err), JJ_OK);
  char *both = malloc(alen + blen);
  memcpy(both, a, alen);
  memcpy(both + alen, b, blen);
  CHECK_EQ_INT(jj_decompress(JJ_GZIP, both, alen + blen, 0, &out, &len, &err),
               JJ_OK);
  CHECK_EQ_STR(out, "hello, world");
  jj_free(out);

  /* the same fed one byte at a time, so the boundary falls mid-call too */
  jj_buf sb = {0};
  jj_inflater *in = jj_inflate_new(JJ_GZIP, 0, buf_sink, &sb, &err);
  jj_code code = JJ_OK;
  for (size_t i = 0; i < alen + blen && !code; i++)
    code = jj_inflate_write(in, both + i, 1, &err);
  CHECK_EQ_INT(code, JJ_OK);
  CHECK_EQ_INT(jj_inflate_finish(in, &err), JJ_OK);
  CHECK_EQ_MEM(sb.p, sb.len, "hello, world", 12);
  jj_inflate_free(in);
  jj_buf_free(&sb);

  /* a second member cut short is a truncated stream */
  CHECK_EQ_INT(jj_decompress(JJ_GZIP, both, alen + 5, 0, &out, &len, &err),
               JJ_ERR_COMPRESSION);
  CHECK_EQ_STR(err.message, "gzip stream is truncated");
  free(both);
  jj_free(a);
  jj_free(b);
}

TEST(truncated_streams_are_compression_errors) {
  jj_error err;
  char t[5000], *z, *out = (char *)1;
  size_t zlen, len;
  fill_repetitive(t, sizeof t);
  CHECK_EQ_INT(jj_compress(JJ_GZIP, -1, t, sizeof t, &z, &zlen, &err), JJ_OK);
  CHECK_EQ_INT(jj_decompress(JJ_GZIP, z, zlen - 1, 0, &out, &len, &err),
               JJ_ERR_COMPRESSION);
  CHECK_EQ_STR(err.message, "gzip stream is truncated");
  CHECK(out == NULL);
  CHECK_EQ_INT(err.row, 0);
  CHECK_EQ_INT(err.column, -1);
  CHECK_EQ_U64(err.offset, JJ_NO_OFFSET);
  CHECK_EQ_INT(jj_decompress(JJ_GZIP, z, 0, 0, &out, &len, &err),
               JJ_ERR_COMPRESSION);
  CHECK_EQ_STR(err.message, "gzip stream is truncated");
  jj_free(z);

  CHECK_EQ_INT(jj_compress(JJ_BROTLI, -1, t, sizeof t, &z, &zlen, &err), JJ_OK);
  CHECK_EQ_INT(jj_decompress(JJ_BROTLI, z, zlen - 1, 0, &out, &len, &err),
               JJ_ERR_COMPRESSION);
  CHECK_EQ_STR(err.message, "brotli stream is truncated");
  CHECK_EQ_INT(jj_decompress(JJ_BROTLI, z, 0, 0, &out, &len, &err),
               JJ_ERR_COMPRESSION);
  CHECK_EQ_STR(err.message, "brotli stream is truncated");
  jj_free(z);
}

TEST(corrupt_streams_are_compression_errors) {
  jj_error err;
  char t[5000], *z, *out = (char *)1;
  size_t zlen, len;
  fill_repetitive(t, sizeof t);

  /* byte 10 is the first deflate block header: 0x07 = final block, type 3 */
  CHECK_EQ_INT(jj_compress(JJ_GZIP, -1, t, sizeof t, &z, &zlen, &err), JJ_OK);
  z[10] = 0x07;
  CHECK_EQ_INT(jj_decompress(JJ_GZIP, z, zlen, 0, &out, &len, &err),
               JJ_ERR_COMPRESSION);
  CHECK_EQ_STR(err.message, "gzip data is corrupt (invalid block type)");
  CHECK(out == NULL);
  jj_free(z);

  /* a flipped bit in the CRC-32 of the trailer */
  CHECK_EQ_INT(jj_compress(JJ_GZIP, -1, t, sizeof t, &z, &zlen, &err), JJ_OK);
  z[zlen - 8] ^= 1;
  CHECK_EQ_INT(jj_decompress(JJ_GZIP, z, zlen, 0, &out, &len, &err),
               JJ_ERR_COMPRESSION);
  CHECK_EQ_STR(err.message, "gzip data is corrupt (incorrect data check)");
  jj_free(z);

  /* not gzip at all */
  CHECK_EQ_INT(jj_decompress(JJ_GZIP, "{\"a\":1}", 7, 0, &out, &len, &err),
               JJ_ERR_COMPRESSION);
  CHECK_EQ_STR(err.message, "gzip data is corrupt (incorrect header check)");

  /* trailing garbage after a complete member is not a member */
  CHECK_EQ_INT(jj_compress(JJ_GZIP, -1, "x", 1, &z, &zlen, &err), JJ_OK);
  char *g = malloc(zlen + 2);
  memcpy(g, z, zlen);
  g[zlen] = 'x';
  g[zlen + 1] = 'y';
  CHECK_EQ_INT(jj_decompress(JJ_GZIP, g, zlen + 2, 0, &out, &len, &err),
               JJ_ERR_COMPRESSION);
  CHECK_EQ_STR(err.message, "gzip data is corrupt (incorrect header check)");
  free(g);
  jj_free(z);

  /* brotli: 0xff... is not a valid window/meta-block sequence */
  CHECK_EQ_INT(jj_decompress(JJ_BROTLI, "\xff\xff\xff\xff", 4, 0, &out, &len,
                             &err),
               JJ_ERR_COMPRESSION);
  CHECK_EQ_STR(err.message, "brotli data is corrupt");

  /* brotli: bytes after the end of a complete stream */
  CHECK_EQ_INT(jj_compress(JJ_BROTLI, -1, "abc", 3, &z, &zlen, &err), JJ_OK);
  g = malloc(zlen + 1);
  memcpy(g, z, zlen);
  g[zlen] = 0;
  CHECK_EQ_INT(jj_decompress(JJ_BROTLI, g, zlen + 1, 0, &out, &len, &err),
               JJ_ERR_COMPRESSION);
  CHECK_EQ_STR(err.message,
               "brotli data is corrupt (bytes after the end of the stream)");
  free(g);
  jj_free(z);
}

TEST(inflater_repeats_its_first_error) {
  jj_error err;
  jj_buf b = {0};
  jj_inflater *in = jj_inflate_new(JJ_GZIP, 0, buf_sink, &b, &err);
  CHECK_EQ_INT(jj_inflate_write(in, "nope", 4, &err), JJ_ERR_COMPRESSION);
  memset(&err, 0, sizeof err);
  CHECK_EQ_INT(jj_inflate_write(in, "\x1f\x8b", 2, &err), JJ_ERR_COMPRESSION);
  CHECK_EQ_STR(err.message, "gzip data is corrupt (incorrect header check)");
  CHECK_EQ_INT(jj_inflate_finish(in, &err), JJ_ERR_COMPRESSION);
  CHECK_EQ_STR(err.message, "gzip data is corrupt (incorrect header check)");
  jj_inflate_free(in);
  jj_buf_free(&b);
}

TEST(decompressed_size_above_the_limit_is_an_error) {
  jj_error err;
  char t[100000], *z, *out;
  size_t zlen, len;
  fill_repetitive(t, sizeof t);
  for (int kind = JJ_GZIP; kind <= JJ_BROTLI; kind++) {
    CHECK_EQ_INT(jj_compress(kind, -1, t, sizeof t, &z, &zlen, &err), JJ_OK);
    CHECK_EQ_INT(jj_decompress(kind, z, zlen, 99999, &out, &len, &err),
                 JJ_ERR_LIMIT);
    CHECK_EQ_STR(err.message,
                 "decompressed size exceeds the limit of 99999 bytes");
    CHECK(out == NULL);
    /* exactly at the limit is fine */
    CHECK_EQ_INT(jj_decompress(kind, z, zlen, 100000, &out, &len, &err),
                 JJ_OK);
    CHECK_EQ_U64(len, 100000);
    jj_free(out);
    jj_free(z);
  }
  CHECK_EQ_INT(jj_decompress(JJ_PLAIN, "abcd", 4, 3, &out, &len, &err),
               JJ_ERR_LIMIT);
  CHECK_EQ_STR(err.message, "decompressed size exceeds the limit of 3 bytes");
}

/* 64 MiB of zeros compressed: a bomb of a few dozen KB. */
static char *make_bomb(jj_compression kind, size_t *zlen) {
  jj_error err;
  size_t n = (size_t)64 << 20;
  char *zeros = calloc(1, n), *z = NULL;
  CHECK(zeros != NULL);
  if (!zeros) return NULL;
  CHECK_EQ_INT(jj_compress(kind, kind == JJ_GZIP ? 9 : 5, zeros, n, &z, zlen,
                           &err), JJ_OK);
  free(zeros);
  return z;
}

/* A sink that only counts. */
static int count_sink(void *ctx, const char *p, size_t len) {
  (void)p;
  *(uint64_t *)ctx += len;
  return 0;
}

/* An interrupt callback: counts its polls, asks to stop at poll `stop_at`
** (never when 0). */
typedef struct poller {
  int polls;
  int stop_at;
} poller;
static int poll_cb(void *ctx) {
  poller *q = ctx;
  return ++q->polls == q->stop_at;
}

TEST(bomb_stops_at_the_limit_with_little_output) {
  jj_error err;
  for (int kind = JJ_GZIP; kind <= JJ_BROTLI; kind++) {
    size_t zlen = 0;
    char *z = make_bomb(kind, &zlen);
    CHECK(zlen < ((size_t)1 << 20)); /* it is a bomb: over 64x */
    uint64_t got = 0;
    jj_inflater *in = jj_inflate_new(kind, 1000000, count_sink, &got, &err);
    CHECK_EQ_INT(jj_inflate_write(in, z, zlen, &err), JJ_ERR_LIMIT);
    CHECK_EQ_STR(err.message,
                 "decompressed size exceeds the limit of 1000000 bytes");
    CHECK(got <= 1000000);
    CHECK_EQ_STR(jj_code_name(err.code), "limit");
    jj_inflate_free(in);
    jj_free(z);
  }
}

TEST(interrupt_callback_stops_a_large_decompression) {
  jj_error err;
  for (int kind = JJ_GZIP; kind <= JJ_BROTLI; kind++) {
    size_t zlen = 0;
    char *z = make_bomb(kind, &zlen);
    uint64_t got = 0;
    poller q = {0, 3};
    jj_inflater *in = jj_inflate_new(kind, 0, count_sink, &got, &err);
    jj_inflate_set_interrupt(in, poll_cb, &q);
    CHECK_EQ_INT(jj_inflate_write(in, z, zlen, &err), JJ_ERR_INTERRUPTED);
    CHECK_EQ_STR(err.message, "interrupted");
    CHECK_EQ_STR(jj_code_name(err.code), "interrupted");
    CHECK_EQ_INT(q.polls, 3);
    /* about one poll per MiB of output: stopped after 2-4 MiB of 64 */
    CHECK(got >= ((uint64_t)2 << 20) && got <= ((uint64_t)4 << 20));
    /* the stream stays stopped */
    CHECK_EQ_INT(jj_inflate_finish(in, &err), JJ_ERR_INTERRUPTED);
    jj_inflate_free(in);

    /* a callback that never asks to stop: all 64 MiB, ~64 polls */
    got = 0;
    q.polls = 0;
    q.stop_at = 0;
    in = jj_inflate_new(kind, 0, count_sink, &got, &err);
    jj_inflate_set_interrupt(in, poll_cb, &q);
    CHECK_EQ_INT(jj_inflate_write(in, z, zlen, &err), JJ_OK);
    CHECK_EQ_INT(jj_inflate_finish(in, &err), JJ_OK);
    CHECK_EQ_U64(got, (uint64_t)64 << 20);
    CHECK(q.polls >= 64 && q.polls <= 66);
    jj_inflate_free(in);
    jj_free(z);
  }
}

/* Empty gzip members decompress to nothing: input alone must be polled. */
TEST(interrupt_is_polled_on_input_that_produces_no_output) {
  jj_error err;
  char *one;
  size_t one_len;
  CHECK_EQ_INT(jj_compress(JJ_GZIP, -1, "", 0, &one, &one_len, &err), JJ_OK);
  size_t n = ((size_t)3 << 20) / one_len, len = n * one_len;
  char *many = malloc(len);
  for (size_t i = 0; i < n; i++) memcpy(many + i * one_len, one, one_len);
  uint64_t got = 0;
  poller q = {0, 0};
  jj_inflater *in = jj_inflate_new(JJ_GZIP, 0, count_sink, &got, &err);
  jj_inflate_set_interrupt(in, poll_cb, &q);
  CHECK_EQ_INT(jj_inflate_write(in, many, len, &err), JJ_OK);
  CHECK_EQ_INT(jj_inflate_finish(in, &err), JJ_OK);
  CHECK_EQ_U64(got, 0);
  CHECK(q.polls >= 2);
  jj_inflate_free(in);

  q.polls = 0;
  q.stop_at = 1;
  in = jj_inflate_new(JJ_GZIP, 0, count_sink, &got, &err);
  jj_inflate_set_interrupt(in, poll_cb, &q);
  CHECK_EQ_INT(jj_inflate_write(in, many, len, &err), JJ_ERR_INTERRUPTED);
  CHECK_EQ_INT(q.polls, 1);
  jj_inflate_free(in);
  free(many);
  jj_free(one);
}

/* SPEC.md's error table rows for the two codes of size and interruption
** (tests/core/test_reader_errors.c asserts the others). */
TEST(spec_error_table_limit_and_interrupted_rows) {
  jj_error err;
  char *out = (char *)1;
  size_t len;
  CHECK_EQ_INT(jj_decompress(JJ_PLAIN, "abcd", 4, 3, &out, &len, &err),
               JJ_ERR_LIMIT);
  CHECK_EQ_STR(err.message, "decompressed size exceeds the limit of 3 bytes");
  CHECK(out == NULL);
  uint64_t got = 0;
  poller q = {0, 1};
  char *mib = calloc(1, (size_t)1 << 20);
  jj_inflater *in = jj_inflate_new(JJ_PLAIN, 0, count_sink, &got, &err);
  jj_inflate_set_interrupt(in, poll_cb, &q);
  CHECK_EQ_INT(jj_inflate_write(in, mib, (size_t)1 << 20, &err),
               JJ_ERR_INTERRUPTED);
  CHECK_EQ_STR(err.message, "interrupted");
  CHECK_EQ_U64(got, 0);
  jj_inflate_free(in);
  free(mib);
}

TEST(failing_sink_stops_the_streams_with_io_error) {
  jj_error err;
  char t[300000], *z;
  size_t zlen;
  fill_random((unsigned char *)t, sizeof t, 7);

  /* deflater: incompressible data fills the 64 KiB buffer several times */
  for (int kind = JJ_GZIP; kind <= JJ_BROTLI; kind++) {
    failing f = {0, 2};
    jj_deflater *d = jj_deflate_new(kind, 1, failing_sink, &f, &err);
    CHECK_EQ_INT(jj_deflate_sink(d, t, sizeof t), -1);
    CHECK_EQ_INT(jj_deflate_sink(d, t, 1), -1);
    CHECK_EQ_INT(jj_deflate_finish(d, &err), JJ_ERR_IO);
    CHECK_EQ_STR(err.message, "write failed");
    CHECK_EQ_INT(f.calls, 2);
    jj_deflate_free(d);
  }

  /* inflater */
  CHECK_EQ_INT(jj_compress(JJ_GZIP, 1, t, sizeof t, &z, &zlen, &err), JJ_OK);
  failing f = {0, 3};
  jj_inflater *in = jj_inflate_new(JJ_GZIP, 0, failing_sink, &f, &err);
  CHECK_EQ_INT(jj_inflate_write(in, z, zlen, &err), JJ_ERR_IO);
  CHECK_EQ_STR(err.message, "write failed");
  CHECK_EQ_INT(f.calls, 3);
  jj_inflate_free(in);
  jj_free(z);
}

TEST(levels_out_of_range_are_usage_errors) {
  jj_error err;
  jj_buf b = {0};
  char *out = (char *)1;
  size_t len;
  CHECK(jj_deflate_new(JJ_GZIP, 10, buf_sink, &b, &err) == NULL);
  CHECK_EQ_INT(err.code, JJ_ERR_USAGE);
  CHECK_EQ_STR(err.message, "gzip level 10 is out of range (1-9, or -1 for 6)");
  CHECK(jj_deflate_new(JJ_GZIP, 0, buf_sink, &b, &err) == NULL);
  CHECK(jj_deflate_new(JJ_BROTLI, 12, buf_sink, &b, &err) == NULL);
  CHECK_EQ_STR(err.message,
               "brotli level 12 is out of range (0-11, or -1 for 5)");
  CHECK_EQ_INT(jj_compress(JJ_BROTLI, -2, "a", 1, &out, &len, &err),
               JJ_ERR_USAGE);
  CHECK(out == NULL);
}

TEST(gzip_output_is_readable_by_zlib_and_uses_the_level) {
  jj_error err;
  char t[200000], *z1, *z9;
  size_t n1, n9;
  fill_repetitive(t, sizeof t);
  for (size_t i = 0; i < sizeof t; i += 97) t[i] = (char)('a' + i % 26);
  CHECK_EQ_INT(jj_compress(JJ_GZIP, 1, t, sizeof t, &z1, &n1, &err), JJ_OK);
  CHECK_EQ_INT(jj_compress(JJ_GZIP, 9, t, sizeof t, &z9, &n9, &err), JJ_OK);
  CHECK(n9 < n1);
  /* zlib's own gzip reader agrees */
  z_stream zs;
  memset(&zs, 0, sizeof zs);
  char *back = malloc(sizeof t + 1);
  CHECK_EQ_INT(inflateInit2(&zs, 15 + 16), Z_OK);
  zs.next_in = (Bytef *)z9;
  zs.avail_in = (uInt)n9;
  zs.next_out = (Bytef *)back;
  zs.avail_out = sizeof t + 1;
  CHECK_EQ_INT(inflate(&zs, Z_FINISH), Z_STREAM_END);
  CHECK_EQ_MEM(back, zs.total_out, t, sizeof t);
  inflateEnd(&zs);
  free(back);
  jj_free(z1);
  jj_free(z9);
}

TEST(detection_by_magic_and_by_name) {
  CHECK_EQ_INT(jj_detect_compression("\x1f\x8b\x08", 3), JJ_GZIP);
  CHECK_EQ_INT(jj_detect_compression("\x1f", 1), JJ_PLAIN);
  CHECK_EQ_INT(jj_detect_compression("{\"jalapenojson\"", 15), JJ_PLAIN);
  CHECK_EQ_INT(jj_detect_compression(NULL, 0), JJ_PLAIN);
  CHECK_EQ_INT(jj_compression_for_path("rows.jj.gz"), JJ_GZIP);
  CHECK_EQ_INT(jj_compression_for_path("dir/rows.jj.br"), JJ_BROTLI);
  CHECK_EQ_INT(jj_compression_for_path("rows.jj"), JJ_PLAIN);
  CHECK_EQ_INT(jj_compression_for_path("rows.GZ"), JJ_PLAIN);
  CHECK_EQ_INT(jj_compression_for_path(".br"), JJ_BROTLI);
  CHECK_EQ_INT(jj_compression_for_path("br"), JJ_PLAIN);
  CHECK_EQ_INT(jj_compression_for_path(NULL), JJ_PLAIN);
}

TEST(compression_for_write_by_suffix) {
  jj_error err;
  jj_compression kind = JJ_GZIP;
  CHECK_EQ_INT(jj_compression_for_write("rows.jj.gz", &kind, &err), JJ_OK);
  CHECK_EQ_INT(kind, JJ_GZIP);
  CHECK_EQ_INT(jj_compression_for_write("dir/rows.jj.br", &kind, &err), JJ_OK);
  CHECK_EQ_INT(kind, JJ_BROTLI);
  const char *plain[] = {"rows.jj", "rows", "rows.json", "rows.ZST",
                         "rows.zstd.jj", "rows.gz.jj", ".gzz", "x.z", "zip"};
  for (size_t i = 0; i < sizeof plain / sizeof plain[0]; i++) {
    kind = JJ_GZIP;
    CHECK_EQ_INT(jj_compression_for_write(plain[i], &kind, &err), JJ_OK);
    CHECK_EQ_INT(kind, JJ_PLAIN);
  }
  const char *other[] = {".zst", ".xz",  ".bz2", ".lz4",  ".lzma", ".lz",
                         ".Z",   ".zip", ".7z",  ".tgz", ".tbz2", ".txz"};
  for (size_t i = 0; i < sizeof other / sizeof other[0]; i++) {
    char name[64], want[160];
    snprintf(name, sizeof name, "out.jj%s", other[i]);
    snprintf(want, sizeof want,
             "\"%s\": %s compression is not supported (use .gz, .br or no "
             "suffix)",
             name, other[i]);
    kind = JJ_GZIP;
    CHECK_EQ_INT(jj_compression_for_write(name, &kind, &err), JJ_ERR_USAGE);
    CHECK_EQ_STR(err.message, want);
    CHECK_EQ_INT(kind, JJ_PLAIN);
    /* kind may be NULL: a check only */
    CHECK_EQ_INT(jj_compression_for_write(name, NULL, &err), JJ_ERR_USAGE);
  }
  CHECK_EQ_INT(jj_compression_for_write("out.jj.zst", &kind, &err),
               JJ_ERR_USAGE);
  CHECK_EQ_STR(err.message, "\"out.jj.zst\": .zst compression is not "
                            "supported (use .gz, .br or no suffix)");
  CHECK_EQ_INT(jj_compression_for_write(NULL, &kind, &err), JJ_ERR_USAGE);
  CHECK_EQ_STR(err.message, "jj_compression_for_write needs a file name");
  CHECK_EQ_INT(jj_compression_for_write("x.gz", NULL, NULL), JJ_OK);
}

int main(void) {
  RUN(gzip_and_brotli_round_trip_empty_input);
  RUN(gzip_and_brotli_round_trip_small_text);
  RUN(gzip_and_brotli_round_trip_5mb_random_and_repetitive);
  RUN(streaming_in_one_byte_chunks_round_trips);
  RUN(plain_streams_pass_bytes_through);
  RUN(gzip_reads_concatenated_members_as_one_stream);
  RUN(truncated_streams_are_compression_errors);
  RUN(corrupt_streams_are_compression_errors);
  RUN(inflater_repeats_its_first_error);
  RUN(decompressed_size_above_the_limit_is_an_error);
  RUN(bomb_stops_at_the_limit_with_little_output);
  RUN(interrupt_callback_stops_a_large_decompression);
  RUN(interrupt_is_polled_on_input_that_produces_no_output);
  RUN(spec_error_table_limit_and_interrupted_rows);
  RUN(failing_sink_stops_the_streams_with_io_error);
  RUN(levels_out_of_range_are_usage_errors);
  RUN(gzip_output_is_readable_by_zlib_and_uses_the_level);
  RUN(detection_by_magic_and_by_name);
  RUN(compression_for_write_by_suffix);
  return test_summary("compress");
}
