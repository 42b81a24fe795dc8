/*
** fuzz_reader.c — libFuzzer harness for the reader: jj_parse, cursors, every
** accessor on every column (fitting or not), seeking at random, nested
** tables.  Besides "never crash, never read out of bounds" (the sanitizers
** watch that) it checks properties that must hold for every input; a broken
** one aborts:
**   - a failure always fills the error (a code, a message);
**   - text handed out is valid UTF-8 and lies in the input or stays readable
**     until the cursor moves;
**   - jj_doc_validate fails exactly when reading every value with its own
**     accessor fails, with the same code;
**   - seeking to a row finds the same value text as walking to it.
**
**   clang -fsanitize=address,undefined,fuzzer -Icore -Itests
**     tests/fuzz/fuzz_reader.c core/[a-z]*.c -lz -lbrotlienc -lbrotlidec -lm
**     -o /tmp/fuzz_reader
**   /tmp/fuzz_reader -max_total_time=180
**
** The first input byte picks the depth limit; the rest is the document.
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

#define MAX_REMEMBERED 64

/* A failed call left a complete error behind. */
static void require_error(const jj_error *e) {
  REQUIRE(e->code != JJ_OK && e->message[0] != '\0');
  REQUIRE(strlen(e->message) < sizeof e->message);
}

/* Call every accessor on column col: only the one that fits the type may
** succeed; the others fail with JJ_ERR_USAGE.  Returns the result of the
** typed accessor and leaves its error in *typed_err. */
static int read_column(jj_cursor *c, size_t col, const jj_schema *s,
                       unsigned level, jj_error *typed_err);

/* Walk a document: every row, every column, every accessor; then seek. */
static void walk(jj_doc *d, unsigned level) {
  jj_error e, first;
  const jj_schema *s = jj_doc_schema(d);
  size_t ncol = jj_schema_columns(s);
  jj_cursor *c = jj_cursor_new(d, &e);
  if (!c) return;
  const char *seen[MAX_REMEMBERED];
  size_t seen_len[MAX_REMEMBERED];
  int64_t rows = 0;
  int rc;
  jj_code typed = JJ_OK;
  first.code = JJ_OK;
  while ((rc = jj_cursor_next(c, &e)) == 1) {
    rows++;
    REQUIRE(jj_cursor_row(c) == rows);
    for (size_t col = 0; col < ncol; col++) {
      jj_error te;
      if (read_column(c, col, s, level, &te) < 0 && typed == JJ_OK) {
        typed = te.code;
        first = te;
      }
    }
    const char *p;
    size_t n;
    if (rows <= MAX_REMEMBERED) {
      REQUIRE(jj_cursor_raw(c, 0, &p, &n, &e) >= 0);
      seen[rows - 1] = jj_cursor_is_null(c, 0) ? NULL : p;
      seen_len[rows - 1] = jj_cursor_is_null(c, 0) ? 0 : n;
    }
    REQUIRE(jj_cursor_raw(c, ncol, &p, &n, &e) == -1 && e.code == JJ_ERR_USAGE);
  }
  if (rc < 0) {
    require_error(&e);
    if (typed == JJ_OK) {
      typed = e.code;
      first = e;
    }
  } else {
    REQUIRE(jj_doc_rows(d, &e) == rows);
  }
  /* validation agrees with reading everything */
  jj_code v = jj_doc_validate(d, &e);
  REQUIRE(v == typed);
  if (v != JJ_OK) REQUIRE(strcmp(e.message, first.message) == 0);

  /* seek back and forth over the rows remembered */
  int64_t known = rows < MAX_REMEMBERED ? rows : MAX_REMEMBERED;
  for (int64_t k = known; k >= 1; k -= 1 + k / 3) {
    const char *p;
    size_t n;
    REQUIRE(jj_cursor_seek(c, k, &e) == 1);
    int got = jj_cursor_raw(c, 0, &p, &n, &e);
    if (seen[k - 1]) REQUIRE(got == 1 && p == seen[k - 1] && n == seen_len[k - 1]);
    else REQUIRE(got == 0);
  }
  if (rc == 0) REQUIRE(jj_cursor_seek(c, rows + 1, &e) == 0);
  REQUIRE(jj_cursor_seek(c, 0, &e) == 0 && jj_cursor_row(c) == 0);
  jj_cursor_free(c);
}

static int read_column(jj_cursor *c, size_t col, const jj_schema *s,
                       unsigned level, jj_error *te) {
  jj_type t = jj_schema_type(s, col);
  int64_t i;
  double f;
  int b;
  int32_t day;
  jj_timestamp ts;
  const char *p;
  const unsigned char *bp;
  size_t n;
  jj_doc *sub = NULL;
  int r[9];
  jj_error errs[9];
  r[0] = jj_cursor_int(c, col, &i, &errs[0]);
  r[1] = jj_cursor_double(c, col, &f, &errs[1]);
  r[2] = jj_cursor_text(c, col, &p, &n, &errs[2]);
  if (r[2] == 1) REQUIRE(jj_utf8_valid(p, n, NULL));
  r[3] = jj_cursor_date(c, col, &day, &errs[3]);
  r[4] = jj_cursor_timestamp(c, col, &ts, &errs[4]);
  r[5] = jj_cursor_bool(c, col, &b, &errs[5]);
  r[6] = jj_cursor_bytes(c, col, &bp, &n, &errs[6]);
  if (r[6] == 1 && n) REQUIRE(bp[0] == bp[0] && bp[n - 1] == bp[n - 1]);
  r[7] = jj_cursor_table(c, col, &sub, &errs[7]);
  if (r[7] == 1) {
    walk(sub, level + 1);
    /* a nested table is read when all its values are */
    if (jj_doc_validate(sub, &errs[7]) != JJ_OK) r[7] = -1;
    jj_doc_free(sub);
  }
  const char *jp;
  size_t jn;
  r[8] = jj_cursor_json(c, col, &jp, &jn, &errs[8]);
  if (r[8] == 1) { /* canonical JSON, which checks as canonical */
    size_t bad;
    jj_code code;
    const char *why;
    REQUIRE(jj_utf8_valid(jp, jn, NULL));
    REQUIRE(jj_json_canon(jp, jn, 4096, NULL, &bad, &code, &why) == 1);
  }
  static const jj_type fits[9] = {JJ_INT,       JJ_FLOAT, JJ_TEXT,  JJ_DATE, JJ_TIMESTAMP,
                                  JJ_BOOL,      JJ_BYTES, JJ_TABLE, JJ_JSON};
  /* a local timestamp reads through the timestamp's accessor */
  jj_type tt = t == JJ_LOCAL_TIMESTAMP ? JJ_TIMESTAMP : t;
  int mine = -1;
  for (int k = 0; k < 9; k++) {
    int fit = fits[k] == tt || (k == 2 && (tt == JJ_DATE || tt == JJ_TIMESTAMP));
    if (!fit) REQUIRE(r[k] == -1 && errs[k].code == JJ_ERR_USAGE);
    if (r[k] < 0) require_error(&errs[k]);
    if (fits[k] == tt) mine = k;
  }
  REQUIRE(mine >= 0);
  /* text of a date or timestamp column succeeds exactly when its reader does */
  if (tt == JJ_DATE || tt == JJ_TIMESTAMP) REQUIRE(r[2] == r[mine]);
  REQUIRE((r[mine] == 0) == (jj_cursor_is_null(c, col) == 1));
  *te = errs[mine];
  return r[mine];
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1) return 0;
  unsigned depth = data[0] % 16; /* 0: the default */
  const char *doc = (const char *)data + 1;
  size_t len = size - 1;
  jj_error e;
  jj_doc *d = jj_parse_opts(doc, len, 0, depth, &e);
  if (!d) {
    require_error(&e);
    REQUIRE(e.offset == JJ_NO_OFFSET || e.offset <= len);
    REQUIRE(e.row == 0 && e.column == -1);
    return 0;
  }
  walk(d, 0);
  jj_doc *v = jj_parse_opts(doc, len, JJ_PARSE_VALIDATE, depth, &e);
  REQUIRE((v == NULL) == (jj_doc_validate(d, &e) != JJ_OK));
  jj_doc_free(v);
  jj_doc_free(d);
  return 0;
}
