/*
** wasm_build.c — documents from values whose types are inferred, and the
** converter, for the JavaScript module (only in the reader+writer module,
** js/dist/jalapenojson.wasm).
**
**   jjw_build_*    the row builder (jj_builder_*), fed a tape of keys and
**                  values that JS packs (js/lib/build.js) and
**                  jjw_build_tape replays into jj_builder calls, one call
**                  from JS per batch instead of one per value;
**   jjw_convert    jj_convert over bytes in memory (JSON, NDJSON, CSV);
**                  the CSV rows it sets aside in jjw_rejects.
**
** The decisions (notes) are gathered here, NUL-separated, and handed to JS
** after the call (jjw_notes): JS then calls the caller's onNote, never from
** inside the module, which a callback could otherwise re-enter.
**
** No temporary file: WebAssembly has none (wasi-libc has no tmpfile), so
** the builder keeps every row in memory (its memory option is the most a
** size_t holds) and the converter reads its input from memory, which
** rewinds.  tmpfile below is there for the link only: nothing reaches it.
*/
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wasm.h"

/* wasi-libc has no tmpfile; the core names it on the paths a temporary
** file takes, which this module never takes (see above).  Should one be
** taken, the core reports the failure ("cannot make a temporary file"). */
FILE *tmpfile(void) { return NULL; } /* jjw_tmpfile (the Makefile) */

/* ---------------------------------------------------------------------- */
/* Notes and output                                                        */
/* ---------------------------------------------------------------------- */

/* Growable bytes: the notes (each followed by a NUL), or a document. */
typedef struct jjw_bytes {
  char *p;
  size_t len, cap;
  int failed; /* out of memory */
} jjw_bytes;

static int bytes_add(jjw_bytes *b, const char *p, size_t n) {
  if (b->failed) return -1;
  if (b->cap - b->len < n) {
    size_t cap = b->cap ? b->cap : 256;
    while (cap - b->len < n) {
      if (cap > SIZE_MAX / 2) return b->failed = 1, -1;
      cap *= 2;
    }
    char *q = realloc(b->p, cap);
    if (!q) return b->failed = 1, -1;
    b->p = q;
    b->cap = cap;
  }
  memcpy(b->p + b->len, p, n);
  b->len += n;
  return 0;
}

/* The notes of the last build or conversion: sentences, each followed by
** a NUL, jjw_len bytes in all (NULL when none).  Valid until the next
** one. */
static jjw_bytes notes;

static void note(void *ctx, const char *msg) {
  (void)ctx;
  bytes_add(&notes, msg, strlen(msg) + 1);
}

static void notes_reset(void) {
  free(notes.p);
  memset(&notes, 0, sizeof notes);
}

EXPORT(jjw_notes) const char *jjw_notes(void) {
  jjw_len = (uint32_t)notes.len;
  return notes.p;
}

/* ---------------------------------------------------------------------- */
/* The row builder                                                         */
/* ---------------------------------------------------------------------- */

/* A builder (NULL with the error): schema NULL or the explicit types
** ("id:i,items:{qty:f}", NUL-terminated, borrowed until jjw_build_free),
** flags JJ_BUILD_*. */
EXPORT(jjw_build_new) jj_builder *jjw_build_new(const char *schema, unsigned flags) {
  jj_build_opts o;
  memset(&o, 0, sizeof o);
  o.schema = schema;
  o.flags = flags;
  o.note = note;
  /* every row in memory: no temporary file in WebAssembly; the memory's
  ** own limit (2 GiB) is the bound, reported as out of memory */
  o.memory = SIZE_MAX;
  notes_reset();
  return jj_builder_new(&o, &jjw_err);
}

EXPORT(jjw_build_free) void jjw_build_free(jj_builder *b) { jj_builder_free(b); }

/* Name a top-level column (p[0..len)) before the first row.  0 or -1. */
EXPORT(jjw_build_column) int jjw_build_column(jj_builder *b, const char *p, size_t len) {
  if (jj_builder_column(b, p, len, 0) == JJ_OK) return 0;
  jjw_err = *jj_builder_error(b);
  return -1;
}

/* Tape operations (one byte each, then their operands, little-endian,
** unaligned; a length is 4 bytes, then that many bytes).  The numbers of
** the values are those of js/wasm_write.c's tape, so that JS packs both
** with the same code (js/lib/write.js, Tape). */
enum {
  B_NULL = 0,
  B_INT = 1,   /* 8 bytes */
  B_FLOAT = 2, /* 8 bytes */
  B_FALSE = 3,
  B_TRUE = 4,
  B_TEXT = 5,  /* length, UTF-8 */
  B_BYTES = 8, /* length, bytes */
  B_DAYS = 9,  /* 4 bytes: days since 1970-01-01 */
  B_TS = 10,   /* 8 (seconds, a double) + 4 (nanos) + 2 (zone) + 1 (digits) */
  B_BEGIN = 11,
  B_END_ROW = 12,
  B_END_TABLE = 13,
  B_KEY = 14,  /* length, the name's UTF-8 */
  B_NUM = 15,  /* length, a number's text */
  B_JSON = 16  /* length, JSON text */
};


/* Replay tape[0..len) into the builder.  0, or -1 with the builder's error
** (a malformed tape is JJ_ERR_USAGE: JS never writes one). */
EXPORT(jjw_build_tape) int jjw_build_tape(jj_builder *b, const unsigned char *tape, size_t len) {
  const unsigned char *p = tape, *end = tape + len;
  while (p < end) {
    unsigned op = *p++;
    size_t need = op == B_INT || op == B_FLOAT ? 8
                  : op == B_DAYS               ? 4
                  : op == B_TS                 ? 15
                  : op == B_KEY || op == B_NUM || op == B_TEXT ||
                          op == B_BYTES || op == B_JSON
                      ? 4
                      : 0;
    if ((size_t)(end - p) < need) goto bad;
    jj_code rc;
    int64_t i;
    double d;
    uint32_t n;
    switch (op) {
      case B_NULL: rc = jj_builder_null(b); break;
      case B_FALSE:
      case B_TRUE: rc = jj_builder_bool(b, op == B_TRUE); break;
      case B_INT:
        memcpy(&i, p, 8);
        rc = jj_builder_int(b, i);
        break;
      case B_FLOAT:
        memcpy(&d, p, 8);
        rc = jj_builder_double(b, d);
        break;
      case B_KEY:
      case B_NUM:
      case B_TEXT:
      case B_BYTES:
      case B_JSON: {
        n = jjw_u32_at(p);
        if ((size_t)(end - p) - 4 < n) goto bad;
        p += 4;
        const char *s = (const char *)p;
        rc = op == B_KEY    ? jj_builder_key(b, s, n)
             : op == B_NUM  ? jj_builder_number(b, s, n)
             : op == B_TEXT ? jj_builder_text(b, s, n)
             : op == B_JSON ? jj_builder_json(b, s, n)
                            : jj_builder_bytes(b, p, n);
        p += n;
        need = 0;
        break;
      }
      case B_DAYS: rc = jj_builder_date(b, (int32_t)jjw_u32_at(p)); break;
      case B_TS: {
        jj_timestamp ts = jjw_ts_at(p);
        rc = jj_builder_timestamp(b, &ts);
        break;
      }
      case B_BEGIN: rc = jj_builder_begin_table(b); break;
      case B_END_ROW: rc = jj_builder_end_row(b); break;
      case B_END_TABLE: rc = jj_builder_end_table(b); break;
      default: goto bad;
    }
    if (rc != JJ_OK) {
      jjw_err = *jj_builder_error(b);
      return -1;
    }
    p += need;
  }
  return 0;
bad:
  return jjw_tape_malformed("malformed build tape");
}

/* Decide the types, write the document and hand it over (free with
** jjw_jj_free), its length in jjw_ret_len; NULL with the error.  The notes
** told are in jjw_notes either way. */
EXPORT(jjw_build_finish) char *jjw_build_finish(jj_builder *b) {
  size_t len = 0;
  char *p;
  if (jj_builder_finish(b, NULL, NULL, NULL) != JJ_OK || !(p = jj_builder_take(b, &len))) {
    jjw_err = *jj_builder_error(b);
    if (jjw_err.code == JJ_OK) jjw_nomem();
    return NULL;
  }
  if (notes.failed) {
    jj_free(p);
    jjw_nomem();
    return NULL;
  }
  jjw_len = (uint32_t)len;
  return p;
}

/* ---------------------------------------------------------------------- */
/* The converter                                                           */
/* ---------------------------------------------------------------------- */

static int to_bytes(void *ctx, const char *data, size_t len) {
  return bytes_add(ctx, data, len);
}

/* The rows the last conversion set aside, five NUL-terminated fields each:
** the row, the byte offset ("" when none), the column ("-" when none, else
** "=" and its name), the code's name, the message; jjw_len bytes in all
** (NULL when none).  Valid until the next conversion. */
static jjw_bytes rejects;

static void reject(void *ctx, const jj_error *e, const char *col,
                   size_t col_len) {
  char num[32];
  (void)ctx;
  bytes_add(&rejects, num,
            (size_t)snprintf(num, sizeof num, "%lld", (long long)e->row) + 1);
  if (e->offset == JJ_NO_OFFSET)
    bytes_add(&rejects, "", 1);
  else
    bytes_add(&rejects, num,
              (size_t)snprintf(num, sizeof num, "%zu", e->offset) + 1);
  bytes_add(&rejects, col ? "=" : "-", 1);
  if (col) bytes_add(&rejects, col, col_len);
  bytes_add(&rejects, "", 1);
  const char *code = jj_code_name(e->code);
  bytes_add(&rejects, code, strlen(code) + 1);
  bytes_add(&rejects, e->message, strlen(e->message) + 1);
}

EXPORT(jjw_rejects) const char *jjw_rejects(void) {
  jjw_len = (uint32_t)rejects.len;
  return rejects.p;
}

/* The date and timestamp patterns of the next jjw_convert (then
** forgotten): each n NUL-terminated texts one after another, held by the
** caller until that call returns. */
static const char *date_fmts, *stamp_fmts;
static int n_date_fmts, n_stamp_fmts;

EXPORT(jjw_convert_formats)
void jjw_convert_formats(const char *dates, int n_dates, const char *stamps,
                         int n_stamps) {
  date_fmts = dates, n_date_fmts = n_dates;
  stamp_fmts = stamps, n_stamp_fmts = n_stamps;
}

/* texts[0..n) of a list jjw_convert_formats was given, into out. */
static size_t split_formats(const char *p, int n, const char **out) {
  size_t k = 0;
  for (; p && (int)k < n && k < JJ_CONVERT_MAX_FORMATS; k++) {
    out[k] = p;
    p += strlen(p) + 1;
  }
  return k;
}

/* Convert in[0..in_len) (JSON or NDJSON when `csv` is 0, else CSV) to a
** document, handed over as jjw_build_finish does.  schema: NULL or
** NUL-terminated; nulls: n_nulls NUL-terminated texts one after another
** that mean null (the first is null_text); delimiter 0 detects; flags
** JJ_CONVERT_*;
** name: the input's name in messages (NULL: none); on_error a
** jj_on_error; null_for: n_null_for pairs of NUL-terminated texts, a
** column's name then a text that means null there; thousands: 0 or the
** thousands separator. */
EXPORT(jjw_convert)
char *jjw_convert(const char *in, size_t in_len, int csv, int delimiter,
                  const char *schema, const char *nulls, int n_nulls,
                  unsigned flags, const char *name, int on_error,
                  const char *null_for, int n_null_for, int thousands) {
  const char *more[JJ_CONVERT_MAX_NULLS];
  jj_convert_null_for per[JJ_CONVERT_MAX_NULL_FOR];
  jj_input input;
  jj_convert_opts o;
  jjw_bytes out = {0};
  jj_convert_result res;
  memset(&o, 0, sizeof o);
  o.from = csv ? JJ_FORMAT_CSV : JJ_FORMAT_JSON;
  o.delimiter = (char)delimiter;
  o.schema = schema;
  for (int k = 0; k < n_nulls && k <= JJ_CONVERT_MAX_NULLS; k++) {
    if (k == 0)
      o.null_text = nulls;
    else
      more[o.n_null_texts++] = nulls;
    nulls += strlen(nulls) + 1;
  }
  o.null_texts = more;
  for (int k = 0; k < n_null_for && k < JJ_CONVERT_MAX_NULL_FOR; k++) {
    per[k].column = null_for;
    null_for += strlen(null_for) + 1;
    per[k].text = null_for;
    null_for += strlen(null_for) + 1;
    o.n_null_for++;
  }
  o.null_for = per;
  o.thousands = (char)thousands;
  const char *dates[JJ_CONVERT_MAX_FORMATS], *stamps[JJ_CONVERT_MAX_FORMATS];
  o.date_formats = dates;
  o.n_date_formats = split_formats(date_fmts, n_date_fmts, dates);
  o.timestamp_formats = stamps;
  o.n_timestamp_formats = split_formats(stamp_fmts, n_stamp_fmts, stamps);
  date_fmts = stamp_fmts = NULL;
  n_date_fmts = n_stamp_fmts = 0;
  o.flags = flags;
  o.note = note;
  o.on_error = (jj_on_error)on_error;
  o.reject = reject;
  notes_reset();
  free(rejects.p);
  memset(&rejects, 0, sizeof rejects);
  jj_input_memory(&input, in, in_len, name);
  jj_code rc = jj_convert(&input, &o, to_bytes, &out, &res, &jjw_err);
  if (rc == JJ_OK) jj_schema_free(res.schema);
  if (rc != JJ_OK || out.failed || notes.failed || rejects.failed) {
    if (rc == JJ_OK || (rc == JJ_ERR_IO && out.failed)) jjw_nomem();
    free(out.p);
    return NULL;
  }
  jjw_len = (uint32_t)out.len;
  /* a document is never empty: out.p is set */
  return out.p;
}
