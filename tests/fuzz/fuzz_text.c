/*
** fuzz_text.c — libFuzzer harness for the building blocks of core/: JSON
** strings (scan, decode, escape), base64, dates, timestamps and
** jj_json_skip.  Besides "never crash, never read out of bounds" (the
** sanitizers watch that), it checks round trips that must hold for every
** accepted input; a broken property aborts.
**
**   clang -fsanitize=address,undefined,fuzzer -Icore -Itests
**     tests/fuzz/fuzz_text.c core/[a-z]*.c -lz -lbrotlienc -lbrotlidec -lm
**     -o /tmp/fuzz_text
**   /tmp/fuzz_text -max_total_time=60
**
** Not named test_*.c: it is not part of `make test`.
*/
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "jalapenojson.h"

#define REQUIRE(cond) \
  do {                \
    if (!(cond)) abort(); \
  } while (0)

/* The input as a string's contents: scan it with an opening quote added,
** decode what lies between the quotes, then escape the result and read it
** back, which must give the same bytes. */
static void fuzz_string(const char *data, size_t len) {
  char *s = malloc(len + 1);
  REQUIRE(s);
  s[0] = '"';
  memcpy(s + 1, data, len);
  int esc;
  size_t bad;
  const char *why;
  const char *end = jj_string_scan(s, s + len + 1, &esc, &bad, &why);
  if (!end) {
    REQUIRE(bad <= len + 1 && why);
    free(s);
    return;
  }
  size_t n = (size_t)(end - s) - 2;
  char *out = malloc(n ? n : 1);
  REQUIRE(out);
  jj_code code;
  size_t m = jj_string_decode(s + 1, n, out, &bad, &code, &why);
  size_t m2 = jj_string_decode(s + 1, n, NULL, &bad, &code, &why);
  REQUIRE(m == m2);
  if (m != (size_t)-1) {
    REQUIRE(m <= n);
    REQUIRE(jj_utf8_valid(out, m, NULL));
    REQUIRE(esc || (m == n && memcmp(out, s + 1, n) == 0));
    jj_buf b = {0};
    REQUIRE(jj_string_escape(&b, out, m) == 0);
    REQUIRE(b.len <= JJ_ESCAPED_MAX(m));
    const char *e2 = jj_string_scan(b.p, b.p + b.len, &esc, &bad, &why);
    REQUIRE(e2 == b.p + b.len);
    char *back = malloc(b.len);
    REQUIRE(back);
    size_t k = jj_string_decode(b.p + 1, b.len - 2, back, &bad, &code, &why);
    REQUIRE(k == m && memcmp(back, out, m) == 0);
    free(back);
    jj_buf_free(&b);
  } else {
    REQUIRE(bad < n && (code == JJ_ERR_SYNTAX || code == JJ_ERR_UTF8));
  }
  free(out);
  free(s);
}

/* Strict base64 has one encoding per byte string: whatever decodes must
** encode back to exactly the input. */
static void fuzz_base64(const char *data, size_t len) {
  unsigned char *out = malloc(len / 4 * 3 + 1);
  REQUIRE(out);
  size_t bad;
  const char *why;
  size_t n = jj_base64_decode(data, len, out, &bad, &why);
  if (n != (size_t)-1) {
    char *enc = malloc(JJ_BASE64_LEN(n) + 1);
    REQUIRE(enc);
    REQUIRE(jj_base64_encode(out, n, enc) == len);
    REQUIRE(memcmp(enc, data, len) == 0);
    free(enc);
  } else {
    REQUIRE(bad <= len && why);
  }
  free(out);
}

/* Accepted dates format back to the same text; accepted timestamps parse
** back from their formatted text to the same numbers. */
static void fuzz_chrono(const char *data, size_t len) {
  jj_error err;
  int32_t days;
  if (jj_date_parse(data, len, &days, &err) == JJ_OK) {
    char out[10];
    REQUIRE(jj_date_format(days, out) == JJ_OK);
    REQUIRE(len == 10 && memcmp(out, data, 10) == 0);
  } else {
    REQUIRE(err.code == JJ_ERR_DATE && strlen(err.message) > 0);
  }
  jj_timestamp ts, back;
  if (jj_timestamp_parse(data, len, &ts, &err) == JJ_OK) {
    char out[40];
    size_t n = jj_timestamp_format(&ts, out);
    REQUIRE(n > 0 && n <= 35);
    REQUIRE(jj_timestamp_parse(out, n, &back, NULL) == JJ_OK);
    REQUIRE(back.seconds == ts.seconds && back.nanos == ts.nanos &&
            back.zone_minutes == ts.zone_minutes && back.digits == ts.digits);
  } else {
    REQUIRE(err.code == JJ_ERR_TIMESTAMP && strlen(err.message) > 0);
  }
}

/* A value skipped once skips the same way when cut right after it, and
** never needs more depth than it was allowed. */
static void fuzz_json(const char *data, size_t len) {
  const char *bad;
  jj_code code;
  const char *why;
  unsigned depth = len ? (unsigned char)data[0] % 8 : 0;
  const char *end = jj_json_skip(data, data + len, depth, &bad, &code, &why);
  if (end) {
    REQUIRE(end > data && end <= data + len);
    size_t n = (size_t)(end - data);
    char *copy = malloc(n);
    REQUIRE(copy);
    memcpy(copy, data, n);
    REQUIRE(jj_json_skip(copy, copy + n, depth, &bad, &code, &why) == copy + n);
    free(copy);
  } else {
    REQUIRE(bad >= data && bad <= data + len && why);
  }
  /* and once more with the default limit */
  end = jj_json_skip(data, data + len, JJ_DEFAULT_MAX_DEPTH, &bad, &code, &why);
  REQUIRE(end || (bad >= data && bad <= data + len));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  /* an exact copy, so reading one byte too far is caught */
  char *p = malloc(size ? size : 1);
  if (!p) return 0;
  if (size) memcpy(p, data, size);
  size_t bad;
  (void)jj_utf8_valid(p, size, &bad);
  fuzz_string(p, size);
  fuzz_base64(p, size);
  fuzz_chrono(p, size);
  fuzz_json(p, size);
  free(p);
  return 0;
}
