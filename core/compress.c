/*
** compress.c — gzip (zlib) and brotli streams, both directions.
**
** Everything streams through one fixed 64 KiB output buffer that lives in
** the stream's struct, so memory stays flat whatever the data size:
**
**   compressed bytes -> jj_inflate_write -> zlib/brotli -> out[64K] -> sink
**   plain bytes      -> jj_deflate_sink  -> zlib/brotli -> out[64K] -> sink
**
** gzip uses windowBits 15+16 (gzip wrapper, not zlib or raw deflate) and
** reads concatenated members as one stream, as gzip(1) does.  brotli writes
** with a 4 MiB window (lgwin 22).  A stream remembers its first error: every
** later call reports the same one, so a producer that only sees the sink's
** nonzero return still gets the real reason from jj_deflate_finish.
**
** Hostile input: a few KB of gzip or brotli can decompress to gigabytes, so
** the inflater enforces the caller's limit before each sink call
** (JJ_ERR_LIMIT) and polls the caller's interrupt callback about every MiB
** of work, counting both input consumed and output produced (a stream of
** empty brotli metadata blocks consumes input without producing output).
**
** Ownership: jj_inflate_new/jj_deflate_new return a handle freed with
** jj_inflate_free/jj_deflate_free.  jj_decompress/jj_compress return a new
** buffer freed with jj_free.
*/
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <brotli/decode.h>
#include <brotli/encode.h>
#include <zlib.h>

#include "internal.h"

#define OUT_SIZE 65536
/* Poll the interrupt callback after this much input + output. */
#define POLL_EVERY (1u << 20)
/* zlib counts input in uInt; larger inputs are fed in slices of this. */
#define ZLIB_SLICE (1u << 30)

/* Default and allowed levels (jalapenojson.h). */
#define GZIP_DEFAULT 6
#define BROTLI_DEFAULT 5
#define BROTLI_WINDOW 22

/* ---------------------------------------------------------------------- */
/* Detection                                                               */
/* ---------------------------------------------------------------------- */

/* gzip starts with 1f 8b; JSON text never starts with byte 0x1f. */
jj_compression jj_detect_compression(const void *data, size_t len) {
  const unsigned char *p = data;
  if (len >= 2 && p[0] == 0x1f && p[1] == 0x8b) return JJ_GZIP;
  return JJ_PLAIN;
}

/* Case-sensitive on purpose: no case-insensitive lookups anywhere. */
jj_compression jj_compression_for_path(const char *path) {
  size_t n = path ? strlen(path) : 0;
  if (n >= 3 && memcmp(path + n - 3, ".gz", 3) == 0) return JJ_GZIP;
  if (n >= 3 && memcmp(path + n - 3, ".br", 3) == 0) return JJ_BROTLI;
  return JJ_PLAIN;
}

/* Suffixes of compressors (and compressed tar archives) this library does
** not write: a file named so would be plain bytes under a name that lies,
** which tools and people then fail to open. */
static const char *const other_suffixes[] = {
    ".zst", ".xz",  ".bz2", ".lz4",  ".lzma", ".lz",
    ".Z",   ".zip", ".7z",  ".tgz", ".tbz2", ".txz"};

/* Like jj_compression_for_path, but a name promising another compressor is
** a usage error.  Case-sensitive like the rest. */
jj_code jj_compression_for_write(const char *path, jj_compression *kind,
                                 jj_error *err) {
  jj_compression k = jj_compression_for_path(path);
  if (kind) *kind = JJ_PLAIN;
  if (!path)
    return jj_fail(err, JJ_ERR_USAGE, NULL,
                   "jj_compression_for_write needs a file name");
  size_t n = strlen(path);
  for (size_t i = 0; k == JJ_PLAIN && i < sizeof other_suffixes /
                                              sizeof other_suffixes[0]; i++) {
    size_t m = strlen(other_suffixes[i]);
    if (n >= m && memcmp(path + n - m, other_suffixes[i], m) == 0)
      return jj_fail(err, JJ_ERR_USAGE, NULL,
                     "\"%s\": %s compression is not supported (use .gz, .br "
                     "or no suffix)",
                     path, other_suffixes[i]);
  }
  if (kind) *kind = k;
  return JJ_OK;
}

/* ---------------------------------------------------------------------- */
/* Decompression                                                           */
/* ---------------------------------------------------------------------- */

struct jj_inflater {
  jj_compression kind;
  uint64_t limit; /* 0: no cap */
  uint64_t total; /* decompressed bytes passed to the sink so far */
  jj_sink sink;
  void *ctx;
  z_stream zs;            /* gzip */
  BrotliDecoderState *br; /* brotli, owned */
  int member_done;        /* gzip: the last member ended cleanly */
  int done;               /* brotli: the stream ended */
  jj_interrupt interrupt; /* polled every POLL_EVERY bytes of work; NULL */
  void *interrupt_ctx;
  uint64_t work; /* bytes in + out since the last poll */
  jj_error error; /* the first error; code JJ_OK while none */
  unsigned char out[OUT_SIZE];
};

/* Record the stream's first error and copy it to the caller's. */
static jj_code infl_fail(jj_inflater *z, jj_error *err, jj_code code,
                         const char *fmt, ...) JJ_PRINTF(4, 5);
static jj_code infl_fail(jj_inflater *z, jj_error *err, jj_code code,
                         const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  jj_vfail(&z->error, code, NULL, fmt, ap);
  va_end(ap);
  if (err) *err = z->error;
  return code;
}

/* Count n bytes of work; every POLL_EVERY bytes ask the callback whether
** to go on. */
static jj_code infl_tick(jj_inflater *z, size_t n, jj_error *err) {
  z->work += n;
  if (z->work < POLL_EVERY || !z->interrupt) return JJ_OK;
  z->work = 0;
  if (z->interrupt(z->interrupt_ctx))
    return infl_fail(z, err, JJ_ERR_INTERRUPTED, "interrupted");
  return JJ_OK;
}

/* Pass n decompressed bytes to the sink, enforcing the limit first. */
static jj_code infl_emit(jj_inflater *z, const unsigned char *p, size_t n,
                         jj_error *err) {
  if (n == 0) return JJ_OK;
  if (z->limit && (n > z->limit || z->total > z->limit - n))
    return infl_fail(z, err, JJ_ERR_LIMIT,
                     "decompressed size exceeds the limit of %llu bytes",
                     (unsigned long long)z->limit);
  jj_code code = infl_tick(z, n, err);
  if (code) return code;
  z->total += n;
  if (z->sink(z->ctx, (const char *)p, n))
    return infl_fail(z, err, JJ_ERR_IO, "write failed");
  return JJ_OK;
}

/* A decompressor for `kind` (JJ_PLAIN passes bytes through, with the
** limit).  Freed with jj_inflate_free. */
jj_inflater *jj_inflate_new(jj_compression kind, uint64_t limit, jj_sink sink,
                            void *ctx, jj_error *err) {
  if (!sink) {
    jj_fail(err, JJ_ERR_USAGE, NULL, "jj_inflate_new needs a sink");
    return NULL;
  }
  if (kind != JJ_PLAIN && kind != JJ_GZIP && kind != JJ_BROTLI) {
    jj_fail(err, JJ_ERR_USAGE, NULL, "unknown compression %d", (int)kind);
    return NULL;
  }
  jj_inflater *z = calloc(1, sizeof *z);
  if (!z) goto nomem;
  z->kind = kind;
  z->limit = limit;
  z->sink = sink;
  z->ctx = ctx;
  jj_error_clear(&z->error);
  if (kind == JJ_GZIP && inflateInit2(&z->zs, 15 + 16) != Z_OK) {
    free(z);
    goto nomem;
  }
  if (kind == JJ_BROTLI) {
    z->br = BrotliDecoderCreateInstance(NULL, NULL, NULL);
    if (!z->br) {
      free(z);
      goto nomem;
    }
  }
  return z;
nomem:
  jj_fail(err, JJ_ERR_NOMEM, NULL, "out of memory");
  return NULL;
}

/* Feed gzip bytes.  After a member ends, more input starts a new member
** (concatenated gzip files are one stream). */
static jj_code gz_write(jj_inflater *z, const unsigned char *p, size_t len,
                        jj_error *err) {
  while (len > 0) {
    if (z->member_done) {
      if (inflateReset(&z->zs) != Z_OK)
        return infl_fail(z, err, JJ_ERR_COMPRESSION, "gzip reset failed");
      z->member_done = 0;
    }
    uInt slice = len > ZLIB_SLICE ? ZLIB_SLICE : (uInt)len;
    z->zs.next_in = (Bytef *)(uintptr_t)p; /* zlib does not write input */
    z->zs.avail_in = slice;
    do {
      z->zs.next_out = z->out;
      z->zs.avail_out = OUT_SIZE;
      int rc = inflate(&z->zs, Z_NO_FLUSH);
      jj_code e = infl_emit(z, z->out, OUT_SIZE - z->zs.avail_out, err);
      if (e) return e;
      if (rc == Z_STREAM_END) {
        z->member_done = 1;
        break;
      }
      if (rc == Z_MEM_ERROR)
        return infl_fail(z, err, JJ_ERR_NOMEM, "out of memory");
      if (rc == Z_DATA_ERROR || rc == Z_NEED_DICT || rc == Z_STREAM_ERROR ||
          (rc == Z_BUF_ERROR && z->zs.avail_in > 0))
        return infl_fail(z, err, JJ_ERR_COMPRESSION,
                         "gzip data is corrupt (%s)",
                         z->zs.msg ? z->zs.msg : "invalid data");
      if (rc == Z_BUF_ERROR) break; /* needs more input */
    } while (z->zs.avail_in > 0 || z->zs.avail_out == 0);
    size_t used = slice - z->zs.avail_in;
    p += used;
    len -= used;
  }
  return JJ_OK;
}

/* Feed brotli bytes; anything after the end of the stream is an error. */
static jj_code br_write(jj_inflater *z, const unsigned char *p, size_t len,
                        jj_error *err) {
  size_t avail_in = len;
  const uint8_t *next_in = p;
  if (len == 0) return JJ_OK;
  if (z->done)
    return infl_fail(z, err, JJ_ERR_COMPRESSION,
                     "brotli data is corrupt (bytes after the end of the "
                     "stream)");
  while (!z->done) {
    size_t avail_out = OUT_SIZE;
    uint8_t *next_out = z->out;
    BrotliDecoderResult r = BrotliDecoderDecompressStream(
        z->br, &avail_in, &next_in, &avail_out, &next_out, NULL);
    jj_code e = infl_emit(z, z->out, OUT_SIZE - avail_out, err);
    if (e) return e;
    if (r == BROTLI_DECODER_RESULT_ERROR) {
      BrotliDecoderErrorCode c = BrotliDecoderGetErrorCode(z->br);
      if (c == BROTLI_DECODER_ERROR_ALLOC_CONTEXT_MODES ||
          c == BROTLI_DECODER_ERROR_ALLOC_TREE_GROUPS ||
          c == BROTLI_DECODER_ERROR_ALLOC_CONTEXT_MAP ||
          c == BROTLI_DECODER_ERROR_ALLOC_RING_BUFFER_1 ||
          c == BROTLI_DECODER_ERROR_ALLOC_RING_BUFFER_2 ||
          c == BROTLI_DECODER_ERROR_ALLOC_BLOCK_TYPE_TREES)
        return infl_fail(z, err, JJ_ERR_NOMEM, "out of memory");
      return infl_fail(z, err, JJ_ERR_COMPRESSION, "brotli data is corrupt");
    }
    if (r == BROTLI_DECODER_RESULT_SUCCESS) {
      z->done = 1;
      if (avail_in > 0)
        return infl_fail(z, err, JJ_ERR_COMPRESSION,
                         "brotli data is corrupt (bytes after the end of "
                         "the stream)");
    }
    if (r == BROTLI_DECODER_RESULT_NEEDS_MORE_INPUT) break;
  }
  return JJ_OK;
}

/* Poll fn(ctx) while decompressing; NULL stops polling. */
void jj_inflate_set_interrupt(jj_inflater *z, jj_interrupt fn, void *ctx) {
  z->interrupt = fn;
  z->interrupt_ctx = ctx;
  z->work = 0;
}

/* Decompress p[0..len) to the sink.  After an error, returns it again.
** Input goes in slices of POLL_EVERY bytes, each counted as work before it
** is decompressed, so a call with much input polls at least once even when
** the input decompresses to nothing. */
jj_code jj_inflate_write(jj_inflater *z, const void *p, size_t len,
                         jj_error *err) {
  const unsigned char *in = p;
  if (z->error.code) {
    if (err) *err = z->error;
    return z->error.code;
  }
  do {
    size_t n = len > POLL_EVERY ? POLL_EVERY : len;
    jj_code code = z->kind == JJ_PLAIN ? JJ_OK : infl_tick(z, n, err);
    if (!code) {
      if (z->kind == JJ_GZIP)
        code = gz_write(z, in, n, err);
      else if (z->kind == JJ_BROTLI)
        code = br_write(z, in, n, err);
      else
        code = infl_emit(z, in, n, err);
    }
    if (code) return code;
    in += n;
    len -= n;
  } while (len > 0);
  return JJ_OK;
}

/* The stream must have ended exactly: a missing tail is "truncated". */
jj_code jj_inflate_finish(jj_inflater *z, jj_error *err) {
  if (z->error.code) {
    if (err) *err = z->error;
    return z->error.code;
  }
  if (z->kind == JJ_GZIP && !z->member_done)
    return infl_fail(z, err, JJ_ERR_COMPRESSION, "gzip stream is truncated");
  if (z->kind == JJ_BROTLI && !z->done)
    return infl_fail(z, err, JJ_ERR_COMPRESSION, "brotli stream is truncated");
  return JJ_OK;
}

/* Release the zlib/brotli state and the handle.  NULL is a no-op. */
void jj_inflate_free(jj_inflater *z) {
  if (!z) return;
  if (z->kind == JJ_GZIP) inflateEnd(&z->zs);
  if (z->br) BrotliDecoderDestroyInstance(z->br);
  free(z);
}

/* ---------------------------------------------------------------------- */
/* Compression                                                             */
/* ---------------------------------------------------------------------- */

struct jj_deflater {
  jj_compression kind;
  jj_sink sink;
  void *ctx;
  z_stream zs;            /* gzip */
  BrotliEncoderState *br; /* brotli, owned */
  jj_error error;         /* the first error; code JJ_OK while none */
  unsigned char out[OUT_SIZE];
};

/* Record the stream's first error (jj_deflate_sink has no error out). */
static int defl_fail(jj_deflater *z, jj_code code, const char *msg) {
  if (!z->error.code) jj_fail(&z->error, code, NULL, "%s", msg);
  return -1;
}

/* Pass n compressed bytes from the output buffer to the sink. */
static int defl_emit(jj_deflater *z, size_t n) {
  if (n && z->sink(z->ctx, (const char *)z->out, n))
    return defl_fail(z, JJ_ERR_IO, "write failed");
  return 0;
}

/* A compressor for `kind` at `level` (-1: default).  JJ_PLAIN passes bytes
** through.  Freed with jj_deflate_free. */
jj_deflater *jj_deflate_new(jj_compression kind, int level, jj_sink sink,
                            void *ctx, jj_error *err) {
  if (!sink) {
    jj_fail(err, JJ_ERR_USAGE, NULL, "jj_deflate_new needs a sink");
    return NULL;
  }
  if (kind == JJ_GZIP && level != -1 && (level < 1 || level > 9)) {
    jj_fail(err, JJ_ERR_USAGE, NULL,
            "gzip level %d is out of range (1-9, or -1 for 6)", level);
    return NULL;
  }
  if (kind == JJ_BROTLI && level != -1 && (level < 0 || level > 11)) {
    jj_fail(err, JJ_ERR_USAGE, NULL,
            "brotli level %d is out of range (0-11, or -1 for 5)", level);
    return NULL;
  }
  if (kind != JJ_PLAIN && kind != JJ_GZIP && kind != JJ_BROTLI) {
    jj_fail(err, JJ_ERR_USAGE, NULL, "unknown compression %d", (int)kind);
    return NULL;
  }
  jj_deflater *z = calloc(1, sizeof *z);
  if (!z) goto nomem;
  z->kind = kind;
  z->sink = sink;
  z->ctx = ctx;
  jj_error_clear(&z->error);
  if (kind == JJ_GZIP &&
      deflateInit2(&z->zs, level == -1 ? GZIP_DEFAULT : level, Z_DEFLATED,
                   15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
    free(z);
    goto nomem;
  }
  if (kind == JJ_BROTLI) {
    z->br = BrotliEncoderCreateInstance(NULL, NULL, NULL);
    if (!z->br) {
      free(z);
      goto nomem;
    }
    BrotliEncoderSetParameter(z->br, BROTLI_PARAM_QUALITY,
                              (uint32_t)(level == -1 ? BROTLI_DEFAULT : level));
    BrotliEncoderSetParameter(z->br, BROTLI_PARAM_LGWIN, BROTLI_WINDOW);
  }
  return z;
nomem:
  jj_fail(err, JJ_ERR_NOMEM, NULL, "out of memory");
  return NULL;
}

/* Run zlib over the pending input with `flush` until it needs more input
** (Z_NO_FLUSH) or has written the whole stream (Z_FINISH). */
static int gz_run(jj_deflater *z, int flush) {
  int rc;
  do {
    z->zs.next_out = z->out;
    z->zs.avail_out = OUT_SIZE;
    rc = deflate(&z->zs, flush);
    if (rc == Z_STREAM_ERROR)
      return defl_fail(z, JJ_ERR_COMPRESSION, "gzip compression failed");
    if (defl_emit(z, OUT_SIZE - z->zs.avail_out)) return -1;
  } while (flush == Z_FINISH ? rc != Z_STREAM_END : z->zs.avail_out == 0);
  return 0;
}

/* Run brotli with `op` until the input is consumed and nothing is pending
** (PROCESS) or the stream is complete (FINISH). */
static int br_run(jj_deflater *z, BrotliEncoderOperation op, const uint8_t *p,
                  size_t len) {
  size_t avail_in = len;
  const uint8_t *next_in = p;
  for (;;) {
    if (op == BROTLI_OPERATION_FINISH
            ? BrotliEncoderIsFinished(z->br)
            : avail_in == 0 && !BrotliEncoderHasMoreOutput(z->br))
      return 0;
    size_t avail_out = OUT_SIZE;
    uint8_t *next_out = z->out;
    if (!BrotliEncoderCompressStream(z->br, op, &avail_in, &next_in, &avail_out,
                                     &next_out, NULL))
      return defl_fail(z, JJ_ERR_COMPRESSION, "brotli compression failed");
    if (defl_emit(z, OUT_SIZE - avail_out)) return -1;
  }
}

/* jj_sink-compatible: compress p[0..len), pass output on.  Nonzero after
** any error (the reason is reported by jj_deflate_finish). */
int jj_deflate_sink(void *deflater, const char *p, size_t len) {
  jj_deflater *z = deflater;
  if (z->error.code) return -1;
  if (len == 0) return 0;
  switch (z->kind) {
    case JJ_GZIP:
      while (len > 0) {
        uInt slice = len > ZLIB_SLICE ? ZLIB_SLICE : (uInt)len;
        z->zs.next_in = (Bytef *)(uintptr_t)p;
        z->zs.avail_in = slice;
        if (gz_run(z, Z_NO_FLUSH)) return -1;
        p += slice;
        len -= slice;
      }
      return 0;
    case JJ_BROTLI:
      return br_run(z, BROTLI_OPERATION_PROCESS, (const uint8_t *)p, len);
    default:
      if (z->sink(z->ctx, p, len))
        return defl_fail(z, JJ_ERR_IO, "write failed");
      return 0;
  }
}

/* Write the end of the stream.  JJ_OK, or the first error of the stream. */
jj_code jj_deflate_finish(jj_deflater *z, jj_error *err) {
  if (!z->error.code) {
    if (z->kind == JJ_GZIP) {
      z->zs.next_in = NULL;
      z->zs.avail_in = 0;
      gz_run(z, Z_FINISH);
    } else if (z->kind == JJ_BROTLI) {
      br_run(z, BROTLI_OPERATION_FINISH, NULL, 0);
    }
  }
  if (z->error.code && err) *err = z->error;
  return z->error.code;
}

/* Release the zlib/brotli state and the handle.  NULL is a no-op. */
void jj_deflate_free(jj_deflater *z) {
  if (!z) return;
  if (z->kind == JJ_GZIP) deflateEnd(&z->zs);
  if (z->br) BrotliEncoderDestroyInstance(z->br);
  free(z);
}

/* ---------------------------------------------------------------------- */
/* Whole buffers                                                           */
/* ---------------------------------------------------------------------- */

/* Hand the buffer over NUL-terminated (so an empty result is "" and not
** NULL); the caller frees *out with jj_free. */
static jj_code buf_take(jj_buf *b, char **out, size_t *out_len, jj_error *err) {
  if (jj_buf_reserve(b, 1)) {
    jj_buf_free(b);
    return jj_fail(err, JJ_ERR_NOMEM, NULL, "out of memory");
  }
  b->p[b->len] = '\0';
  *out = b->p;
  if (out_len) *out_len = b->len;
  return JJ_OK;
}

/* A failed buffer sink means the jj_buf could not grow. */
static jj_code nomem_if_io(jj_code code, jj_error *err) {
  if (code == JJ_ERR_IO)
    return jj_fail(err, JJ_ERR_NOMEM, NULL, "out of memory");
  return code;
}

/* Decompress a whole buffer; *out (NUL-terminated) is freed with jj_free.
** On error *out is NULL. */
jj_code jj_decompress(jj_compression kind, const void *in, size_t len,
                      uint64_t limit, char **out, size_t *out_len,
                      jj_error *err) {
  jj_buf b = {0};
  jj_error e;
  *out = NULL;
  if (out_len) *out_len = 0;
  jj_inflater *z = jj_inflate_new(kind, limit, jj_buf_sink, &b, &e);
  if (!z) {
    if (err) *err = e;
    return e.code;
  }
  jj_code code = jj_inflate_write(z, in, len, &e);
  if (!code) code = jj_inflate_finish(z, &e);
  jj_inflate_free(z);
  if (code) {
    jj_buf_free(&b);
    if (err) *err = e;
    return nomem_if_io(code, err);
  }
  return buf_take(&b, out, out_len, err);
}

/* Compress a whole buffer; *out is freed with jj_free.  On error *out is
** NULL. */
jj_code jj_compress(jj_compression kind, int level, const void *in, size_t len,
                    char **out, size_t *out_len, jj_error *err) {
  jj_buf b = {0};
  jj_error e;
  *out = NULL;
  if (out_len) *out_len = 0;
  jj_deflater *z = jj_deflate_new(kind, level, jj_buf_sink, &b, &e);
  if (!z) {
    if (err) *err = e;
    return e.code;
  }
  jj_deflate_sink(z, in, len);
  jj_code code = jj_deflate_finish(z, &e);
  jj_deflate_free(z);
  if (code) {
    jj_buf_free(&b);
    if (err) *err = e;
    return nomem_if_io(code, err);
  }
  return buf_take(&b, out, out_len, err);
}
