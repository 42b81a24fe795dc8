/*
** test_convert.h — helpers the converter's test programs share
** (test_convert.c: JSON in; test_convert_csv.c: CSV in, export, round
** trips).  Conversions run from memory into a growing buffer; the notes
** collect into one string, a line each.
*/
#ifndef JJ_TEST_CONVERT_H
#define JJ_TEST_CONVERT_H

#include <stdlib.h>
#include <string.h>

#include "jalapenojson.h"
#include "test.h"

/* A growing byte buffer as a jj_sink. */
typedef struct tbuf {
  char *p;
  size_t len, cap;
  int fail_after; /* > 0: the sink fails on that call */
  int calls;
} tbuf;

static inline int tbuf_sink(void *ctx, const char *p, size_t n) {
  tbuf *b = ctx;
  if (b->fail_after && ++b->calls >= b->fail_after) return 1;
  if (b->len + n + 1 > b->cap) {
    size_t cap = (b->len + n + 1) * 2;
    char *q = realloc(b->p, cap);
    if (!q) return 1;
    b->p = q;
    b->cap = cap;
  }
  memcpy(b->p + b->len, p, n);
  b->len += n;
  b->p[b->len] = '\0';
  return 0;
}

static inline void tbuf_free(tbuf *b) {
  free(b->p);
  memset(b, 0, sizeof *b);
}

static inline void tbuf_note(void *ctx, const char *msg) {
  tbuf *b = ctx;
  tbuf_sink(b, msg, strlen(msg));
  tbuf_sink(b, "\n", 1);
}

/* The result of one conversion: the document (or ""), the notes, the
** error (code JJ_OK on success). */
typedef struct conv_out {
  tbuf doc, notes;
  jj_error err;
  jj_code code;
  jj_convert_result res;
} conv_out;

static inline void conv_free(conv_out *o) {
  tbuf_free(&o->doc);
  tbuf_free(&o->notes);
  jj_schema_free(o->res.schema);
  memset(o, 0, sizeof *o);
}

/* Convert text[0..len) named "in" with the options; o is filled. */
static inline jj_code conv_opts(const char *text, size_t len,
                                jj_convert_opts opts, conv_out *o) {
  jj_input in;
  memset(o, 0, sizeof *o);
  jj_input_memory(&in, text, len, "in");
  opts.note = tbuf_note;
  opts.note_ctx = &o->notes;
  o->code = jj_convert(&in, &opts, tbuf_sink, &o->doc, &o->res, &o->err);
  if (!o->doc.p) tbuf_sink(&o->doc, "", 0);
  if (!o->notes.p) tbuf_sink(&o->notes, "", 0);
  return o->code;
}

/* Convert a NUL-terminated text with a schema option (may be NULL) and
** flags. */
static inline jj_code conv(const char *text, const char *schema, unsigned flags,
                           conv_out *o) {
  jj_convert_opts opts;
  memset(&opts, 0, sizeof opts);
  opts.schema = schema;
  opts.flags = flags;
  return conv_opts(text, strlen(text), opts, o);
}

/* The header and rows of a canonical document with the first line's
** "jalapenojson":1 prefix taken off, for shorter expectations: the part
** from "columns". */
static inline const char *body(const conv_out *o) {
  const char *p = strstr(o->doc.p, "\"columns\"");
  return p ? p : o->doc.p;
}

/* Export a document's bytes as `to` into b; the code. */
static inline jj_code export_doc(const char *doc, size_t len, jj_format to,
                                 const jj_to_text_opts *eo, tbuf *b,
                                 jj_error *err) {
  jj_doc *d = jj_parse(doc, len, err);
  if (!d) return err->code;
  jj_code code = jj_to_text(d, to, eo, tbuf_sink, b, err);
  if (!b->p) tbuf_sink(b, "", 0);
  jj_doc_free(d);
  return code;
}

/* Expect a conversion to succeed with exactly this body. */
#define CHECK_CONV(text, schema, flags, want)                         \
  do {                                                                \
    conv_out o_;                                                      \
    conv((text), (schema), (flags), &o_);                             \
    if (o_.code) fprintf(stderr, "     error: %s\n", o_.err.message); \
    CHECK_EQ_INT(o_.code, JJ_OK);                                     \
    CHECK_EQ_STR(body(&o_), (want));                                  \
    conv_free(&o_);                                                   \
  } while (0)

/* Expect a conversion to fail with this code and message. */
#define CHECK_CONV_ERR(text, schema, flags, code_, msg) \
  do {                                                  \
    conv_out o_;                                        \
    conv((text), (schema), (flags), &o_);               \
    CHECK_EQ_INT(o_.code, (code_));                     \
    CHECK_EQ_STR(o_.err.message, (msg));                \
    conv_free(&o_);                                     \
  } while (0)

#endif /* JJ_TEST_CONVERT_H */
