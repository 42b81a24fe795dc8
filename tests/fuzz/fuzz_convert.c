/*
** fuzz_convert.c — libFuzzer harness for jj_convert and jj_to_text.  The
** first input byte picks the options (format, flags, a schema, the null
** text), the second the size of the reads and whether the input can be
** rewound (else it is spooled) and null padding; on_error is the first
** byte's bits 2-7 modulo 3; the third the CSV options for files as people
** keep them: no header (bit 0), a thousands separator (bits 1-2: none, ',',
** ' ', '\''), per-column null markers (bits 3-4: none, or one of three
** sets naming a, b, column_1, a column that may be missing); the rest is
** the JSON or CSV.  When the rest starts with '%', its first line is date
** and timestamp patterns (at most 4 of each) separated by '|', a timestamp
** one marked by a leading '@' ("%m/%d/%Y|@%Y/%m/%d %H:%M"), and the input
** follows the line.
** Properties checked:
**   - a failure has a code and a message; a success gives a document that
**     jj_parse_opts(JJ_PARSE_VALIDATE) accepts, with res.rows rows and
**     res.schema its schema;
**   - reading the same bytes in small reads, rewound or spooled, gives the
**     same result (the window's sliding and growing never changes what is
**     read);
**   - jj_convert_infer agrees with jj_convert on the schema;
**   - the rows set aside come to the reject callback in rising order, each
**     once, with a message, as many as res.rejected; the rows written and
**     the rows set aside are every data record (the last one's number at
**     most their sum), the same through small reads;
**   - the document exports to JSON, NDJSON and CSV without an error.
** A broken property aborts.
**
**   clang -fsanitize=address,undefined,fuzzer -Icore -Itests
**     tests/fuzz/fuzz_convert.c core/[a-z]*.c -lz -lbrotlienc -lbrotlidec -lm
**     -o /tmp/fuzz_convert
**   /tmp/fuzz_convert -max_total_time=180 -max_len=4096
**
** Not named test_*.c: it is not part of `make test`.
*/
#include <stdlib.h>
#include <string.h>

#include "jalapenojson.h"

#define REQUIRE(cond)     \
  do {                    \
    if (!(cond)) abort(); \
  } while (0)

typedef struct buf {
  char *p;
  size_t len;
} buf;

static int to_buf(void *ctx, const char *p, size_t n) {
  buf *b = ctx;
  char *q = realloc(b->p, b->len + n + 1);
  if (!q) return 1;
  memcpy(q + b->len, p, n);
  b->p = q;
  b->len += n;
  return 0;
}

/* The rows set aside: how many, the last row number, all in order. */
typedef struct rejects {
  uint64_t n;
  int64_t last;
  int ordered;
} rejects;

static void on_reject(void *ctx, const jj_error *e, const char *col,
                      size_t col_len) {
  rejects *r = ctx;
  REQUIRE(e->message[0] != '\0' && e->code != JJ_OK);
  REQUIRE(col || col_len == 0);
  if (e->row <= r->last) r->ordered = 0;
  r->last = e->row;
  r->n++;
}

static int discard(void *ctx, const char *p, size_t n) {
  (void)ctx, (void)p, (void)n;
  return 0;
}

/* Reads of at most `step` bytes. */
typedef struct slow {
  const char *p;
  size_t len, pos, step;
} slow;

static long slow_read(void *ctx, char *out, size_t cap) {
  slow *s = ctx;
  size_t n = s->len - s->pos;
  if (n > cap) n = cap;
  if (n > s->step) n = s->step;
  memcpy(out, s->p + s->pos, n);
  s->pos += n;
  return (long)n;
}

static int slow_rewind(void *ctx) {
  ((slow *)ctx)->pos = 0;
  return 0;
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);
int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size) {
  static const char *schemas[] = {NULL,  "a:i", "a:f,b:s", "a:d",
                                  "a:t", "a:b", "a:x",     "a:{b:i}"};
  static const jj_format formats[] = {JJ_FORMAT_AUTO, JJ_FORMAT_JSON,
                                      JJ_FORMAT_CSV, JJ_FORMAT_TSV};
  static const char seps[] = {0, ',', ' ', '\''};
  static const jj_convert_null_for markers[3][2] = {
      {{"a", "NA"}, {"a", "."}},
      {{"b", ""}, {"a", "-"}},
      {{"column_1", "x"}, {"column_2", "NA"}}};
  if (size < 3) return 0;
  unsigned sel = data[0], step = data[1] % 64 + 1, csv = data[2];
  const char *text = (const char *)data + 3;
  size_t len = size - 3;
  jj_convert_opts o;
  memset(&o, 0, sizeof o);
  o.from = formats[sel & 3];
  o.schema = schemas[(sel >> 2) & 7];
  o.flags = (sel >> 5) & 7;
  o.null_text = sel & 0x80 ? "NULL" : NULL;
  o.max_row = 1 << 16;
  if (data[1] & 0x80) o.flags |= JJ_CONVERT_CSV_NULL_PADDING;
  o.on_error = (jj_on_error)((sel >> 2) % 3);
  if (csv & 1) o.flags |= JJ_CONVERT_CSV_NO_HEADER;
  o.thousands = seps[(csv >> 1) & 3];
  if ((csv >> 3) & 3) {
    o.null_for = markers[((csv >> 3) & 3) - 1];
    o.n_null_for = 2;
  }
  rejects rj = {0, 0, 1}, rj2 = {0, 0, 1};
  o.reject = on_reject;
  o.reject_ctx = &rj;
  /* date and timestamp patterns from the first line */
  char line[256];
  const char *dates[4], *stamps[4];
  o.date_formats = dates;
  o.timestamp_formats = stamps;
  if (len && text[0] == '%') {
    const char *nl = memchr(text, '\n', len);
    size_t n = nl ? (size_t)(nl - text) : len;
    if (n >= sizeof line) n = sizeof line - 1;
    memcpy(line, text, n);
    line[n] = '\0';
    text += nl ? (size_t)(nl - text) + 1 : len;
    len = (size_t)((const char *)data + size - text);
    for (char *p = line; p;) {
      char *bar = strchr(p, '|');
      if (bar) *bar = '\0';
      if (*p == '@' && o.n_timestamp_formats < 4)
        stamps[o.n_timestamp_formats++] = p + 1;
      else if (*p != '@' && o.n_date_formats < 4)
        dates[o.n_date_formats++] = p;
      p = bar ? bar + 1 : NULL;
    }
  }

  jj_input in;
  jj_error err, err2;
  jj_convert_result res, res2;
  buf doc = {NULL, 0}, doc2 = {NULL, 0};
  jj_input_memory(&in, text, len, "fuzz");
  jj_code code = jj_convert(&in, &o, to_buf, &doc, &res, &err);

  /* the same through small reads */
  slow s = {text, len, 0, step};
  jj_input in2;
  memset(&in2, 0, sizeof in2);
  in2.read = slow_read;
  in2.rewind = data[1] & 0x40 ? NULL : slow_rewind; /* NULL: spooled */
  in2.ctx = &s;
  in2.name = "fuzz";
  o.reject_ctx = &rj2;
  jj_code code2 = jj_convert(&in2, &o, to_buf, &doc2, &res2, &err2);
  REQUIRE(code == code2);
  if (code) {
    REQUIRE(err.message[0] != '\0');
    REQUIRE(!strcmp(err.message, err2.message) || code == JJ_ERR_LIMIT);
  } else {
    REQUIRE(doc.len == doc2.len && !memcmp(doc.p, doc2.p, doc.len));
    REQUIRE(res.rows == res2.rows);
    REQUIRE(rj.ordered && rj.n == res.rejected && rj2.n == rj.n &&
            rj2.last == rj.last);
    REQUIRE(rj.last <= res.rows + (int64_t)rj.n);
    REQUIRE(o.on_error != JJ_ON_ERROR_FAIL || rj.n == 0);
    jj_doc *d = jj_parse_opts(doc.p, doc.len, JJ_PARSE_VALIDATE, 0, &err);
    REQUIRE(d != NULL);
    REQUIRE(jj_doc_rows(d, &err) == res.rows);
    REQUIRE(jj_schema_equal(jj_doc_schema(d), res.schema, NULL));
    jj_input_memory(&in, text, len, "fuzz");
    o.reject = NULL;
    jj_convert_result inf;
    REQUIRE(jj_convert_infer(&in, &o, &inf, &err) == JJ_OK);
    REQUIRE(jj_schema_equal(inf.schema, res.schema, NULL));
    REQUIRE(inf.rows == res.rows && inf.rejected == res.rejected);
    jj_schema_free(inf.schema);
    for (int f = JJ_FORMAT_JSON; f <= JJ_FORMAT_CSV; f++)
      REQUIRE(jj_to_text(d, (jj_format)f, NULL, discard, NULL, &err) ==
              JJ_OK);
    jj_doc_free(d);
    jj_schema_free(res.schema);
    jj_schema_free(res2.schema);
  }
  free(doc.p);
  free(doc2.p);
  return 0;
}
