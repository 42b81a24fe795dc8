/*
** test_text.c — the small building blocks under the reader and the writer:
** UTF-8 validation, JSON string scanning/unescaping/escaping (core/text.c),
** base64 (core/base64.c) and checked skipping of JSON values (core/json.c).
**
** Inputs under test are copied into heap blocks of exactly their length
** (exact()), so the sanitizer build catches any read past the end.
*/
#include <stdlib.h>

#include "internal.h"
#include "jalapenojson.h"
#include "test.h"

/* A heap copy of p[0..n) with no byte to spare; free with free(). */
static char *exact(const void *p, size_t n) {
  char *c = malloc(n ? n : 1);
  if (!c) abort();
  if (n) memcpy(c, p, n);
  return c;
}

/* A small deterministic generator for the random cases. */
static uint64_t rng_state = 0x2545F4914F6CDD1DULL;
static uint64_t rng(void) {
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return rng_state;
}

/* ---------------------------------------------------------------------- */
/* UTF-8                                                                   */
/* ---------------------------------------------------------------------- */

/* An independent, slow validator: decode each sequence by its lead bits,
** then refuse overlongs, surrogates and values above U+10FFFF.  *bad is the
** start of the first bad sequence, like jj_utf8_valid. */
static int ref_utf8(const unsigned char *s, size_t n, size_t *bad) {
  size_t i = 0;
  while (i < n) {
    unsigned c = s[i];
    size_t k;
    unsigned long cp, min;
    if (c < 0x80) {
      i++;
      continue;
    } else if ((c & 0xE0) == 0xC0) {
      k = 2, cp = c & 0x1F, min = 0x80;
    } else if ((c & 0xF0) == 0xE0) {
      k = 3, cp = c & 0x0F, min = 0x800;
    } else if ((c & 0xF8) == 0xF0) {
      k = 4, cp = c & 0x07, min = 0x10000;
    } else {
      goto fail;
    }
    if (n - i < k) goto fail;
    for (size_t j = 1; j < k; j++) {
      if ((s[i + j] & 0xC0) != 0x80) goto fail;
      cp = cp << 6 | (s[i + j] & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) goto fail;
    i += k;
  }
  return 1;
fail:
  *bad = i;
  return 0;
}

/* jj_utf8_valid on an exact heap copy; returns the bad offset or -1. */
static long utf8_bad(const char *p, size_t n) {
  char *c = exact(p, n);
  size_t bad = 999999;
  int ok = jj_utf8_valid(c, n, &bad);
  free(c);
  return ok ? -1 : (long)bad;
}

TEST(utf8_accepts_every_sequence_length_and_boundary) {
  static const char *const good[] = {
      "",
      "plain ascii, long enough to take the 16-byte path twice over....",
      "\x7f",
      "\xc2\x80",             /* U+0080 */
      "\xdf\xbf",             /* U+07FF */
      "\xe0\xa0\x80",         /* U+0800 */
      "\xed\x9f\xbf",         /* U+D7FF, just below the surrogates */
      "\xee\x80\x80",         /* U+E000, just above them */
      "\xef\xbf\xbf",         /* U+FFFF */
      "\xf0\x90\x80\x80",     /* U+10000 */
      "\xf4\x8f\xbf\xbf",     /* U+10FFFF */
      "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80 and ascii after it........",
  };
  for (size_t i = 0; i < sizeof good / sizeof good[0]; i++)
    CHECK_EQ_INT(utf8_bad(good[i], strlen(good[i])), -1);
  /* U+0000 is valid UTF-8 */
  CHECK_EQ_INT(utf8_bad("a\0b", 3), -1);
  /* bad may be NULL */
  CHECK_EQ_INT(jj_utf8_valid("\xff", 1, NULL), 0);
  CHECK_EQ_INT(jj_utf8_valid(NULL, 0, NULL), 1);
}

TEST(utf8_rejects_every_invalid_class_at_its_offset) {
  static const struct {
    const char *bytes;
    size_t off; /* offset of the bad sequence inside bytes */
  } bad[] = {
      {"\x80", 0},                 /* stray continuation */
      {"\xbf", 0},                 /* stray continuation */
      {"\xc3\xa9\xa9", 2},         /* continuation after a complete char */
      {"\xc0\x80", 0},             /* overlong NUL */
      {"\xc1\xbf", 0},             /* overlong 2-byte */
      {"\xe0\x80\x80", 0},         /* overlong 3-byte */
      {"\xe0\x9f\xbf", 0},         /* overlong 3-byte, highest */
      {"\xf0\x80\x80\x80", 0},     /* overlong 4-byte */
      {"\xf0\x8f\xbf\xbf", 0},     /* overlong 4-byte, highest */
      {"\xed\xa0\x80", 0},         /* U+D800 encoded */
      {"\xed\xbf\xbf", 0},         /* U+DFFF encoded */
      {"\xf4\x90\x80\x80", 0},     /* U+110000 */
      {"\xf5\x80\x80\x80", 0},     /* lead F5 */
      {"\xfe", 0},                 /* never a lead */
      {"\xff", 0},                 /* never a lead */
      {"\xc3", 0},                 /* truncated 2-byte */
      {"\xe2\x82", 0},             /* truncated 3-byte */
      {"\xf0\x9f\x98", 0},         /* truncated 4-byte */
      {"\xc3\x41", 0},             /* 2-byte, ASCII continuation */
      {"\xe2\x28\xa1", 0},         /* 3-byte, bad second byte */
      {"\xe2\x82\x28", 0},         /* 3-byte, bad third byte */
      {"\xf0\x9f\x41\x98", 0},     /* 4-byte, bad third byte */
      {"\xf0\x9f\x98\xc0", 0},     /* 4-byte, bad fourth byte */
  };
  char buf[128];
  long wrong = 0;
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    size_t n = strlen(bad[i].bytes);
    CHECK_EQ_INT(utf8_bad(bad[i].bytes, n), (long)bad[i].off);
    /* after every ASCII prefix length, so the fast path hands over at
    ** every alignment; at the very end of the input and followed by more */
    for (size_t pre = 0; pre <= 40; pre++) {
      memset(buf, 'a', pre);
      memcpy(buf + pre, bad[i].bytes, n);
      memset(buf + pre + n, 'z', 20);
      if (utf8_bad(buf, pre + n) != (long)(pre + bad[i].off)) wrong++;
      if (utf8_bad(buf, pre + n + 20) != (long)(pre + bad[i].off)) wrong++;
    }
  }
  CHECK_EQ_INT(wrong, 0);
}

TEST(utf8_matches_reference_on_every_sequence_up_to_3_bytes) {
  unsigned char b[4];
  long wrong = 0;
  size_t r = 0, g = 0;
  for (unsigned long v = 0; v < (1UL << 24); v++) {
    b[0] = (unsigned char)(v >> 16), b[1] = (unsigned char)(v >> 8), b[2] = (unsigned char)v;
    int ok1 = ref_utf8(b, 3, &r), ok2 = jj_utf8_valid((const char *)b, 3, &g);
    if (ok1 != ok2 || (!ok1 && r != g)) wrong++;
  }
  for (unsigned long v = 0; v < (1UL << 16); v++) {
    b[0] = (unsigned char)(v >> 8), b[1] = (unsigned char)v;
    int ok1 = ref_utf8(b, 2, &r), ok2 = jj_utf8_valid((const char *)b, 2, &g);
    if (ok1 != ok2 || (!ok1 && r != g)) wrong++;
  }
  /* 4-byte leads with every second byte and sampled tails */
  static const unsigned char tails[] = {0x00, 0x41, 0x7f, 0x80, 0x8f, 0x90, 0xbf, 0xc0, 0xff};
  for (unsigned lead = 0xf0; lead <= 0xff; lead++)
    for (unsigned s2 = 0; s2 < 256; s2++)
      for (size_t t3 = 0; t3 < sizeof tails; t3++)
        for (size_t t4 = 0; t4 < sizeof tails; t4++) {
          b[0] = (unsigned char)lead, b[1] = (unsigned char)s2, b[2] = tails[t3], b[3] = tails[t4];
          int ok1 = ref_utf8(b, 4, &r), ok2 = jj_utf8_valid((const char *)b, 4, &g);
          if (ok1 != ok2 || (!ok1 && r != g)) wrong++;
        }
  CHECK_EQ_INT(wrong, 0);
}

/* ---------------------------------------------------------------------- */
/* String scanning                                                         */
/* ---------------------------------------------------------------------- */

/* Scan the string at the start of text[0..n), copied `shift` bytes into
** an exact heap block (so every start alignment can be tried); returns the
** offset just past it or -1 with *bad and *why set. */
static long scan_shifted(const char *text, size_t n, size_t shift, int *esc,
                         size_t *bad, const char **why) {
  char *c = malloc(shift + n);
  if (!c) abort();
  memset(c, '"', shift);
  memcpy(c + shift, text, n);
  int e = -1;
  const char *q = jj_string_scan(c + shift, c + shift + n, &e, bad, why);
  long r = q ? (long)(q - (c + shift)) : -1;
  if (esc) *esc = e;
  free(c);
  return r;
}

static long scan(const char *text, size_t n, int *esc, size_t *bad, const char **why) {
  return scan_shifted(text, n, 0, esc, bad, why);
}

TEST(scan_finds_closing_quote_and_reports_escapes) {
  int esc;
  size_t bad;
  const char *why;
  CHECK_EQ_INT(scan("\"\"", 2, &esc, &bad, &why), 2);
  CHECK_EQ_INT(esc, 0);
  CHECK_EQ_INT(scan("\"abc\",1", 7, &esc, &bad, &why), 5);
  CHECK_EQ_INT(esc, 0);
  CHECK_EQ_INT(scan("\"a\\nb\"x", 7, &esc, &bad, &why), 6);
  CHECK_EQ_INT(esc, 1);
  CHECK_EQ_INT(scan("\"a\\\"b\"", 6, &esc, &bad, &why), 6); /* "a\"b" */
  CHECK_EQ_INT(esc, 1);
  /* DEL and UTF-8 bytes are fine raw */
  CHECK_EQ_INT(scan("\"\x7f\xc3\xa9\"", 5, &esc, &bad, &why), 5);
  CHECK_EQ_INT(esc, 0);
}

TEST(scan_handles_runs_of_backslashes_before_a_quote) {
  /* "\\\\...\"tail" with k backslashes: an even run ends the string at the
  ** first quote, an odd run escapes it and the string ends at the second. */
  char text[64];
  for (int k = 0; k <= 12; k++) {
    size_t n = 0;
    text[n++] = '"';
    for (int j = 0; j < k; j++) text[n++] = '\\';
    text[n++] = '"';
    size_t first = n;
    memcpy(text + n, "tail\"", 5);
    n += 5;
    int esc;
    size_t bad;
    const char *why;
    long end = scan(text, n, &esc, &bad, &why);
    CHECK_EQ_INT(end, k % 2 == 0 ? (long)first : (long)n);
    CHECK_EQ_INT(esc, k > 0);
  }
}

TEST(scan_finds_quote_and_escape_at_every_alignment) {
  char text[80];
  long wrong = 0;
  for (size_t shift = 0; shift < 8; shift++) {
    for (size_t len = 0; len < 60; len++) {
      int esc;
      size_t bad;
      const char *why;
      /* plain: '"' + len letters + '"', then nothing or junk */
      text[0] = '"';
      for (size_t j = 0; j < len; j++) text[1 + j] = (char)('a' + j % 26);
      text[1 + len] = '"';
      memcpy(text + 2 + len, "zzzzzzzzzz", 10);
      for (size_t n = len + 2; n <= len + 12; n += 10) {
        if (scan_shifted(text, n, shift, &esc, &bad, &why) != (long)(len + 2) || esc != 0)
          wrong++;
      }
      /* an escaped quote at position len, then the real end */
      if (len >= 1) {
        text[len] = '\\';
        text[len + 1] = '"';
        text[len + 2] = '"';
        if (scan_shifted(text, len + 3, shift, &esc, &bad, &why) != (long)(len + 3) || esc != 1)
          wrong++;
      }
      /* unterminated: the quote is missing at every length */
      text[1 + len] = 'a';
      if (scan_shifted(text, len + 2, shift, &esc, &bad, &why) != -1 || bad != 0) wrong++;
    }
  }
  CHECK_EQ_INT(wrong, 0);
}

TEST(scan_rejects_raw_control_characters_at_every_position) {
  char text[64];
  long wrong = 0;
  for (size_t pos = 1; pos < 50; pos++) {
    for (unsigned ctl = 0; ctl < 0x20; ctl += 0x1f) { /* 0x00 and 0x1f */
      memset(text, 'a', sizeof text);
      text[0] = '"';
      text[pos] = (char)ctl;
      text[55] = '"';
      int esc;
      size_t bad = 0;
      const char *why = NULL;
      if (scan(text, 56, &esc, &bad, &why) != -1 || bad != pos ||
          strcmp(why, "raw control character in string") != 0)
        wrong++;
    }
  }
  CHECK_EQ_INT(wrong, 0);
  /* a newline right after a backslash is a raw control character too */
  size_t bad;
  const char *why;
  CHECK_EQ_INT(scan("\"ab\\\nc\"", 7, NULL, &bad, &why), -1);
  /*                     ^ byte 4 */
  CHECK_EQ_INT(bad, 4);
  CHECK_EQ_STR(why, "raw control character in string");
}

TEST(scan_reports_unterminated_strings_at_their_start) {
  static const char *const cases[] = {"\"", "\"abc", "\"abc\\\"", "\"abc\\",
                                      "\"a long string that never ends......"};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    size_t bad = 99;
    const char *why = NULL;
    CHECK_EQ_INT(scan(cases[i], strlen(cases[i]), NULL, &bad, &why), -1);
    CHECK_EQ_INT(bad, 0);
    CHECK_EQ_STR(why, "unterminated string");
  }
}

/* ---------------------------------------------------------------------- */
/* Decoding                                                                */
/* ---------------------------------------------------------------------- */

/* Decode text (string contents) from an exact copy into out; returns the
** length or -1 with *bad, *code, *why set.  Also checks that decoding with
** a NULL output gives the same answer. */
static long decode(const char *text, size_t n, char *out, size_t *bad,
                   jj_code *code, const char **why) {
  char *c = exact(text, n);
  size_t b2 = 0;
  jj_code c2 = JJ_OK;
  const char *w2 = NULL;
  size_t r = jj_string_decode(c, n, out, bad, code, why);
  size_t r2 = jj_string_decode(c, n, NULL, &b2, &c2, &w2);
  free(c);
  CHECK_EQ_U64(r2, r);
  if (r == (size_t)-1) {
    CHECK_EQ_U64(b2, *bad);
    CHECK_EQ_INT(c2, *code);
    CHECK(w2 == *why);
    return -1;
  }
  CHECK(r <= n);
  return (long)r;
}

/* Decode expecting success with output want[0..wn). */
static void check_decodes(const char *text, const char *want, size_t wn) {
  char out[256];
  size_t bad;
  jj_code code;
  const char *why;
  long n = decode(text, strlen(text), out, &bad, &code, &why);
  CHECK_EQ_MEM(out, n < 0 ? 0 : (size_t)n, want, wn);
  CHECK(n >= 0);
}

/* Decode expecting failure at byte `at` with code and reason. */
static void check_decode_fails(const char *text, size_t at, jj_code code,
                               const char *why) {
  char out[256];
  size_t bad = 999;
  jj_code c = JJ_OK;
  const char *w = NULL;
  CHECK_EQ_INT(decode(text, strlen(text), out, &bad, &c, &w), -1);
  CHECK_EQ_INT(bad, at);
  CHECK_EQ_INT(c, code);
  CHECK_EQ_STR(w, why);
}

TEST(decode_handles_every_simple_escape) {
  check_decodes("\\\"\\\\\\/\\b\\f\\n\\r\\t", "\"\\/\b\f\n\r\t", 8);
  check_decodes("a\\nb", "a\nb", 3);
  check_decodes("", "", 0);
  check_decodes("no escapes at all", "no escapes at all", 17);
}

TEST(decode_turns_unicode_escapes_into_utf8) {
  check_decodes("\\u0041", "A", 1);
  check_decodes("\\u0000", "\0", 1); /* U+0000 is allowed */
  check_decodes("a\\u0000b", "a\0b", 3);
  check_decodes("\\u00e9\\u00E9", "\xc3\xa9\xc3\xa9", 4);
  check_decodes("\\u07ff", "\xdf\xbf", 2);
  check_decodes("\\u0800", "\xe0\xa0\x80", 3);
  check_decodes("\\u20AC", "\xe2\x82\xac", 3);
  check_decodes("\\uFFFF", "\xef\xbf\xbf", 3);
  check_decodes("\\uD83D\\uDE00", "\xf0\x9f\x98\x80", 4);
  check_decodes("\\ud800\\udc00", "\xf0\x90\x80\x80", 4);
  check_decodes("\\uDBFF\\uDFFF", "\xf4\x8f\xbf\xbf", 4);
  check_decodes("x\\uD83D\\uDE00y\xc3\xa9", "x\xf0\x9f\x98\x80y\xc3\xa9", 8);
}

TEST(decode_rejects_lone_surrogates) {
  const char *high = "lone surrogate \\ud800-\\udbff (no low surrogate after it)";
  const char *low = "lone surrogate \\udc00-\\udfff (no high surrogate before it)";
  check_decode_fails("\\uD800", 0, JJ_ERR_UTF8, high);
  check_decode_fails("ab\\uDBFFx", 2, JJ_ERR_UTF8, high);
  /*                  ^ byte 2 */
  check_decode_fails("\\uD800\\u0041", 0, JJ_ERR_UTF8, high);
  check_decode_fails("\\uD800\\uD800", 0, JJ_ERR_UTF8, high);
  check_decode_fails("\\uD800\\n", 0, JJ_ERR_UTF8, high);
  check_decode_fails("\\uD800\\uDC0", 0, JJ_ERR_UTF8, high);
  check_decode_fails("\\uDC00", 0, JJ_ERR_UTF8, low);
  check_decode_fails("xy\\uDFFF", 2, JJ_ERR_UTF8, low);
  /*                  ^ byte 2 */
  check_decode_fails("\\uD83D\\uDE00\\uDE00", 12, JJ_ERR_UTF8, low);
  /*                                  ^ byte 12 */
}

TEST(decode_rejects_invalid_escapes) {
  const char *hex = "invalid \\u escape (expected 4 hex digits)";
  check_decode_fails("\\x41", 0, JJ_ERR_SYNTAX, "invalid escape");
  check_decode_fails("ab\\U0041", 2, JJ_ERR_SYNTAX, "invalid escape");
  /*                  ^ byte 2 */
  check_decode_fails("\\a", 0, JJ_ERR_SYNTAX, "invalid escape");
  check_decode_fails("\\'", 0, JJ_ERR_SYNTAX, "invalid escape");
  check_decode_fails("\\0", 0, JJ_ERR_SYNTAX, "invalid escape");
  check_decode_fails("abc\\", 3, JJ_ERR_SYNTAX, "invalid escape");
  check_decode_fails("\\u12G4", 0, JJ_ERR_SYNTAX, hex);
  check_decode_fails("\\u12", 0, JJ_ERR_SYNTAX, hex);
  check_decode_fails("\\u", 0, JJ_ERR_SYNTAX, hex);
  check_decode_fails("ok\\n\\u-123", 4, JJ_ERR_SYNTAX, hex);
  /*                      ^ byte 4 */
}

TEST(decode_rejects_invalid_utf8_between_escapes) {
  check_decode_fails("ab\\n\xc3", 4, JJ_ERR_UTF8, "invalid UTF-8");
  /*                      ^ byte 4 */
  check_decode_fails("\xed\xa0\x80\\n", 0, JJ_ERR_UTF8, "invalid UTF-8");
  check_decode_fails("\xc3\\n\xa9", 0, JJ_ERR_UTF8, "invalid UTF-8");
  check_decode_fails("\\n\\t\xff", 4, JJ_ERR_UTF8, "invalid UTF-8");
}

TEST(decode_escape_at_every_alignment) {
  char text[96], want[96], out[96];
  long wrong = 0;
  for (size_t pos = 0; pos < 40; pos++) {
    for (int kind = 0; kind < 3; kind++) {
      static const char *const esc[] = {"\\n", "\\u00e9", "\\ud83d\\ude00"};
      static const char *const dec[] = {"\n", "\xc3\xa9", "\xf0\x9f\x98\x80"};
      size_t n = 0, w = 0;
      for (size_t j = 0; j < pos; j++) text[n++] = want[w++] = (char)('A' + j % 26);
      memcpy(text + n, esc[kind], strlen(esc[kind]));
      n += strlen(esc[kind]);
      memcpy(want + w, dec[kind], strlen(dec[kind]));
      w += strlen(dec[kind]);
      for (size_t j = 0; j < 20; j++) text[n++] = want[w++] = 'z';
      size_t bad;
      jj_code code;
      const char *why;
      long got = decode(text, n, out, &bad, &code, &why);
      if (got != (long)w || memcmp(out, want, w) != 0) wrong++;
    }
  }
  CHECK_EQ_INT(wrong, 0);
}

/* ---------------------------------------------------------------------- */
/* Escaping                                                                */
/* ---------------------------------------------------------------------- */

/* Escape p[0..n) into a fresh buffer and compare with want. */
static void check_escapes(const char *p, size_t n, const char *want) {
  jj_buf b = {0};
  char *c = exact(p, n);
  CHECK_EQ_INT(jj_string_escape(&b, c, n), 0);
  CHECK_EQ_MEM(b.p, b.len, want, strlen(want));
  CHECK(b.len <= JJ_ESCAPED_MAX(n));
  free(c);
  jj_buf_free(&b);
}

TEST(escape_writes_only_the_required_escapes) {
  check_escapes("", 0, "\"\"");
  check_escapes("plain / text \x7f", 14, "\"plain / text \x7f\"");
  check_escapes("caf\xc3\xa9 \xf0\x9f\x98\x80", 10, "\"caf\xc3\xa9 \xf0\x9f\x98\x80\"");
  check_escapes("say \"hi\" \\o/", 12, "\"say \\\"hi\\\" \\\\o/\"");
  check_escapes("\b\f\n\r\t", 5, "\"\\b\\f\\n\\r\\t\"");
  check_escapes("\0\x01\x1f\x0b", 4, "\"\\u0000\\u0001\\u001f\\u000b\"");
  /* every control character, each alone */
  static const char *const shorts = "btn\0fr";
  for (unsigned c = 0; c < 0x20; c++) {
    char in = (char)c, want[16];
    if (c >= 8 && c <= 13 && c != 11)
      snprintf(want, sizeof want, "\"\\%c\"", shorts[c - 8]);
    else
      snprintf(want, sizeof want, "\"\\u%04x\"", c);
    check_escapes(&in, 1, want);
  }
}

TEST(escape_appends_after_existing_bytes) {
  jj_buf b = {0};
  CHECK_EQ_INT(jj_buf_append(&b, "[", 1), 0);
  CHECK_EQ_INT(jj_string_escape(&b, "a\"b", 3), 0);
  CHECK_EQ_INT(jj_string_escape(&b, NULL, 0), 0);
  CHECK_EQ_MEM(b.p, b.len, "[\"a\\\"b\"\"\"", 9);
  jj_buf_free(&b);
}

TEST(escape_never_grows_a_buffer_with_escaped_max_free) {
  /* worst case (every byte \u00XX), best case, and mixed endings */
  static const char *const texts[] = {"\x01\x02\x03", "abc", "ab\x01", "\001ab",
                                      "\"", "", "a\nb\x1f\"\\z"};
  for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
    size_t n = strlen(texts[i]);
    jj_buf b = {0};
    CHECK_EQ_INT(jj_buf_append(&b, "xyz", 3), 0);
    CHECK_EQ_INT(jj_buf_reserve(&b, JJ_ESCAPED_MAX(n)), 0);
    b.cap = b.len + JJ_ESCAPED_MAX(n); /* pretend there is no spare room */
    char *before = b.p;
    CHECK_EQ_INT(jj_string_escape(&b, texts[i], n), 0);
    CHECK(b.p == before);
    CHECK(b.len <= b.cap);
    jj_buf_free(&b);
  }
}

TEST(escape_round_trips_through_scan_and_decode) {
  static const char *const pieces[] = {"a", "Z", " ", "\"", "\\", "/", "\n", "\t",
                                       "\x01", "\x1f", "\x7f", "\xc3\xa9",
                                       "\xe2\x82\xac", "\xf0\x9f\x98\x80", "\0"};
  long wrong = 0;
  for (int iter = 0; iter < 3000; iter++) {
    char text[400];
    size_t n = 0, count = rng() % 60;
    for (size_t k = 0; k < count; k++) {
      const char *pc = pieces[rng() % (sizeof pieces / sizeof pieces[0])];
      size_t pl = pc[0] ? strlen(pc) : 1;
      memcpy(text + n, pc, pl);
      n += pl;
    }
    jj_buf b = {0};
    if (jj_string_escape(&b, text, n) != 0) abort();
    int esc;
    size_t bad;
    jj_code code;
    const char *why;
    const char *end = jj_string_scan(b.p, b.p + b.len, &esc, &bad, &why);
    char *out = malloc(b.len);
    size_t m = end == b.p + b.len
                   ? jj_string_decode(b.p + 1, b.len - 2, out, &bad, &code, &why)
                   : (size_t)-1;
    if (m != n || memcmp(out, text, n) != 0) wrong++;
    free(out);
    jj_buf_free(&b);
  }
  CHECK_EQ_INT(wrong, 0);
}

/* ---------------------------------------------------------------------- */
/* Base64                                                                  */
/* ---------------------------------------------------------------------- */

/* Decode text from an exact copy; returns length or -1 with bad/why. */
static long b64(const char *text, size_t n, unsigned char *out, size_t *bad,
                const char **why) {
  char *c = exact(text, n);
  size_t r = jj_base64_decode(c, n, out, bad, why);
  free(c);
  return r == (size_t)-1 ? -1 : (long)r;
}

TEST(base64_matches_rfc4648_vectors) {
  static const char *const plain[] = {"", "f", "fo", "foo", "foob", "fooba", "foobar"};
  static const char *const code[] = {"", "Zg==", "Zm8=", "Zm9v", "Zm9vYg==", "Zm9vYmE=", "Zm9vYmFy"};
  for (int i = 0; i < 7; i++) {
    char enc[16];
    unsigned char dec[16];
    size_t bad;
    const char *why;
    size_t n = jj_base64_encode((const unsigned char *)plain[i], strlen(plain[i]), enc);
    CHECK_EQ_MEM(enc, n, code[i], strlen(code[i]));
    CHECK_EQ_INT(n, JJ_BASE64_LEN(strlen(plain[i])));
    long m = b64(code[i], strlen(code[i]), dec, &bad, &why);
    CHECK_EQ_MEM(dec, m < 0 ? 0 : (size_t)m, plain[i], strlen(plain[i]));
  }
  char enc[8];
  unsigned char all[3] = {0xfb, 0xff, 0xfe};
  CHECK_EQ_MEM(enc, jj_base64_encode(all, 3, enc), "+//+", 4);
}

TEST(base64_round_trips_random_lengths_0_to_100) {
  long wrong = 0;
  for (size_t len = 0; len <= 100; len++) {
    for (int iter = 0; iter < 20; iter++) {
      unsigned char in[100], dec[100];
      char enc[JJ_BASE64_LEN(100)];
      for (size_t k = 0; k < len; k++) in[k] = (unsigned char)rng();
      size_t n = jj_base64_encode(in, len, enc);
      size_t bad;
      const char *why;
      long m = b64(enc, n, dec, &bad, &why);
      if (n != JJ_BASE64_LEN(len) || m != (long)len || memcmp(dec, in, len) != 0) wrong++;
    }
  }
  CHECK_EQ_INT(wrong, 0);
}

TEST(base64_rejects_every_invalid_form) {
  static const struct {
    const char *text;
    size_t bad;
    const char *why;
  } cases[] = {
      {"Zg", 0, "length is not a multiple of 4"},
      {"Zg=", 0, "length is not a multiple of 4"},
      {"Zm9vY", 4, "length is not a multiple of 4"},
      /*   ^ byte 4 */
      {"Zm9vY!", 5, "invalid base64 character"},
      {"Zm 9", 2, "invalid base64 character"},
      {"Zm9v\nYg==", 4, "invalid base64 character"},
      {"Zm-v", 2, "invalid base64 character"},  /* base64url's '-' */
      {"Zm_v", 2, "invalid base64 character"},  /* base64url's '_' */
      {"Zm9\xc3", 3, "invalid base64 character"},
      {"Zm9vZm9vZ.==", 9, "invalid base64 character"},
      {"Zg==Zm8=", 2, "padding '=' before the end"},
      /* ^ byte 2 */
      {"Z===", 1, "padding '=' before the end"},
      {"====", 0, "padding '=' before the end"},
      {"Zg=a", 2, "padding '=' before the end"},
      {"Zm9v====", 4, "padding '=' before the end"},
      {"Zh==", 1, "unused bits of the last character are not zero"},
      /* ^ 'h' = 33 leaves bits 0001 below the byte */
      {"Zm9=", 2, "unused bits of the last character are not zero"},
      {"Zm9vZm/=", 6, "unused bits of the last character are not zero"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    unsigned char out[16];
    size_t bad = 999;
    const char *why = NULL;
    CHECK_EQ_INT(b64(cases[i].text, strlen(cases[i].text), out, &bad, &why), -1);
    CHECK_EQ_INT(bad, cases[i].bad);
    CHECK_EQ_STR(why, cases[i].why);
  }
}

TEST(base64_accepts_exactly_one_encoding_per_byte_string) {
  static const char alpha[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  char t[4];
  unsigned char out[3];
  size_t bad;
  const char *why;
  long one = 0, two = 0;
  for (int a = 0; a < 64; a++)
    for (int b = 0; b < 64; b++) {
      t[0] = alpha[a], t[1] = alpha[b], t[2] = '=', t[3] = '=';
      if (jj_base64_decode(t, 4, out, &bad, &why) == 1) one++;
      for (int c = 0; c < 64; c++) {
        t[2] = alpha[c], t[3] = '=';
        if (jj_base64_decode(t, 4, out, &bad, &why) == 2) two++;
      }
    }
  CHECK_EQ_INT(one, 256);
  CHECK_EQ_INT(two, 65536);
}

/* ---------------------------------------------------------------------- */
/* JSON skipping                                                           */
/* ---------------------------------------------------------------------- */

/* Skip one value of text (exact copy); returns the end offset or -1. */
static long skip(const char *text, size_t n, unsigned depth, long *bad,
                 jj_code *code, const char **why) {
  char *c = exact(text, n);
  const char *b = NULL;
  const char *q = jj_json_skip(c, c + n, depth, &b, code, why);
  long r = q ? (long)(q - c) : -1;
  if (!q) *bad = (long)(b - c);
  free(c);
  return r;
}

TEST(json_ws_skips_only_json_whitespace) {
  const char *s = " \t\r\n x";
  CHECK(jj_json_ws(s, s + 6) == s + 5);
  const char *v = "\v\f";
  CHECK(jj_json_ws(v, v + 2) == v);
  CHECK(jj_json_ws(s, s + 2) == s + 2);
}

TEST(json_skip_accepts_valid_values_and_stops_after_one) {
  static const struct {
    const char *text;
    long end;
  } ok[] = {
      /* end -1: the whole text is the value */
      {"0", -1}, {"-0.5e+10", -1}, {"1e400", -1}, {"-1E-400", -1},
      {"\"\"", -1}, {"\"a\\u00e9\\n\\u0000\"", -1}, {"true", -1},
      {"false", -1}, {"null", -1}, {"[]", -1}, {"{}", -1}, {"[ ]", -1},
      {"{ }", -1}, {"[1,2,3]", -1}, {"[ 1 , \"x\" ,null ]", -1},
      {"{\"a\":[1,{\"b\":null}],\"c\":\"d\"}", -1},
      {"{ \"a\" : 1 , \"b\" : [ ] }", -1}, {"[[[]],[{}]]", -1},
      {"[\r\n1\n\t]", -1}, {"\"\\ud83d\\ude00\"", -1},
      {"\"caf\xc3\xa9\"", -1},
      /* a value followed by something else: skip stops after the value */
      {"1 2", 1}, {"true,", 4}, {"[1]]", 3}, {"{\"\":0}x", 6}, {"12abc", 2},
  };
  for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
    long bad = -1;
    jj_code code = JJ_OK;
    const char *why = NULL;
    size_t n = strlen(ok[i].text);
    long end = skip(ok[i].text, n, 64, &bad, &code, &why);
    CHECK_EQ_INT(end, ok[i].end < 0 ? (long)n : ok[i].end);
    if (end < 0) fprintf(stderr, "     %s: %s at %ld\n", ok[i].text, why, bad);
  }
}

TEST(json_skip_rejects_with_reason_code_and_offset) {
  static const struct {
    const char *text;
    long bad;
    jj_code code;
    const char *why;
  } cases[] = {
      {"", 0, JJ_ERR_SYNTAX, "unexpected end of input"},
      {"[", 1, JJ_ERR_SYNTAX, "unexpected end of input"},
      {"[1,", 3, JJ_ERR_SYNTAX, "unexpected end of input"},
      {"[1 ", 3, JJ_ERR_SYNTAX, "unexpected end of input"},
      {"{\"a\"", 4, JJ_ERR_SYNTAX, "unexpected end of input"},
      {"{\"a\":", 5, JJ_ERR_SYNTAX, "unexpected end of input"},
      {"{", 1, JJ_ERR_SYNTAX, "unexpected end of input"},
      {"[1 2]", 3, JJ_ERR_SYNTAX, "expected ',' or ']'"},
      /*   ^ byte 3 */
      {"[1}", 2, JJ_ERR_SYNTAX, "expected ',' or ']'"},
      {"{\"a\":1 \"b\":2}", 7, JJ_ERR_SYNTAX, "expected ',' or '}'"},
      /*       ^ byte 7 */
      {"{\"a\":1]", 6, JJ_ERR_SYNTAX, "expected ',' or '}'"},
      {"{\"a\" 1}", 5, JJ_ERR_SYNTAX, "expected ':'"},
      /*     ^ byte 5 */
      {"{1:2}", 1, JJ_ERR_SYNTAX, "expected a string key"},
      {"{\"a\":1,}", 7, JJ_ERR_SYNTAX, "expected a string key"},
      /*       ^ byte 7 */
      {"[1,]", 3, JJ_ERR_SYNTAX, "unexpected character"},
      {"[,1]", 1, JJ_ERR_SYNTAX, "unexpected character"},
      {"+1", 0, JJ_ERR_SYNTAX, "unexpected character"},
      {"True", 0, JJ_ERR_SYNTAX, "unexpected character"},
      {"]", 0, JJ_ERR_SYNTAX, "unexpected character"},
      {"'a'", 0, JJ_ERR_SYNTAX, "unexpected character"},
      {"tru", 0, JJ_ERR_SYNTAX, "invalid literal"},
      {"[nul]", 1, JJ_ERR_SYNTAX, "invalid literal"},
      {"fals", 0, JJ_ERR_SYNTAX, "invalid literal"},
      {"-", 0, JJ_ERR_SYNTAX, "invalid number"},
      {"[01]", 1, JJ_ERR_SYNTAX, "invalid number"},
      {"1.", 0, JJ_ERR_SYNTAX, "invalid number"},
      {"1e", 0, JJ_ERR_SYNTAX, "invalid number"},
      {"-.5", 0, JJ_ERR_SYNTAX, "invalid number"},
      {"1.5.2", 0, JJ_ERR_SYNTAX, "invalid number"},
      {"\"abc", 0, JJ_ERR_SYNTAX, "unterminated string"},
      {"[\"a\nb\"]", 3, JJ_ERR_SYNTAX, "raw control character in string"},
      /*     ^ byte 3 */
      {"\"a\\x\"", 2, JJ_ERR_SYNTAX, "invalid escape"},
      {"[\"\\ud800\"]", 2, JJ_ERR_UTF8,
       "lone surrogate \\ud800-\\udbff (no low surrogate after it)"},
      {"\"ab\xff\"", 3, JJ_ERR_UTF8, "invalid UTF-8"},
      {"{\"k\xc0\x80\":1}", 3, JJ_ERR_UTF8, "invalid UTF-8"},
      /*     ^ byte 3 */
      {"{\"a\\q\":1}", 3, JJ_ERR_SYNTAX, "invalid escape"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    long bad = -2;
    jj_code code = JJ_OK;
    const char *why = NULL;
    CHECK_EQ_INT(skip(cases[i].text, strlen(cases[i].text), 64, &bad, &code, &why), -1);
    CHECK_EQ_INT(bad, cases[i].bad);
    CHECK_EQ_INT(code, cases[i].code);
    CHECK_EQ_STR(why, cases[i].why);
  }
}

/* `levels` nested arrays (or objects {"a":...}) around a 1. */
static char *nested(size_t levels, int objects, size_t *n) {
  char *p = malloc(levels * 6 + 2);
  size_t k = 0;
  if (!p) abort();
  for (size_t i = 0; i < levels; i++) {
    if (objects)
      memcpy(p + k, "{\"a\":", 5), k += 5;
    else
      p[k++] = '[';
  }
  p[k++] = '1';
  for (size_t i = 0; i < levels; i++) p[k++] = objects ? '}' : ']';
  *n = k;
  return p;
}

TEST(json_skip_allows_nesting_at_the_limit_and_not_one_beyond) {
  static const unsigned limits[] = {0, 1, 64, 4096, 10000};
  for (size_t i = 0; i < sizeof limits / sizeof limits[0]; i++) {
    for (int obj = 0; obj < 2; obj++) {
      unsigned lim = limits[i];
      size_t n;
      long bad = -1;
      jj_code code = JJ_OK;
      const char *why = NULL;
      char *p = nested(lim, obj, &n);
      CHECK_EQ_INT(skip(p, n, lim, &bad, &code, &why), (long)n);
      free(p);
      p = nested(lim + 1, obj, &n);
      CHECK_EQ_INT(skip(p, n, lim, &bad, &code, &why), -1);
      CHECK_EQ_INT(bad, (long)lim * (obj ? 5 : 1)); /* the opener past the limit */
      CHECK_EQ_INT(code, JJ_ERR_DEPTH);
      CHECK_EQ_STR(why, "nesting deeper than the limit");
      free(p);
    }
  }
  /* the depth counts open containers, not all containers seen */
  long bad;
  jj_code code;
  const char *why;
  CHECK_EQ_INT(skip("[[1],[2],{\"a\":[3]}]", 19, 3, &bad, &code, &why), 19);
  CHECK_EQ_INT(skip("[[1],[2],{\"a\":[3]}]", 19, 2, &bad, &code, &why), -1);
  CHECK_EQ_INT(bad, 14);
  /*               ^ byte 14, the third level */
}

int main(void) {
  RUN(utf8_accepts_every_sequence_length_and_boundary);
  RUN(utf8_rejects_every_invalid_class_at_its_offset);
  RUN(utf8_matches_reference_on_every_sequence_up_to_3_bytes);
  RUN(scan_finds_closing_quote_and_reports_escapes);
  RUN(scan_handles_runs_of_backslashes_before_a_quote);
  RUN(scan_finds_quote_and_escape_at_every_alignment);
  RUN(scan_rejects_raw_control_characters_at_every_position);
  RUN(scan_reports_unterminated_strings_at_their_start);
  RUN(decode_handles_every_simple_escape);
  RUN(decode_turns_unicode_escapes_into_utf8);
  RUN(decode_rejects_lone_surrogates);
  RUN(decode_rejects_invalid_escapes);
  RUN(decode_rejects_invalid_utf8_between_escapes);
  RUN(decode_escape_at_every_alignment);
  RUN(escape_writes_only_the_required_escapes);
  RUN(escape_appends_after_existing_bytes);
  RUN(escape_never_grows_a_buffer_with_escaped_max_free);
  RUN(escape_round_trips_through_scan_and_decode);
  RUN(base64_matches_rfc4648_vectors);
  RUN(base64_round_trips_random_lengths_0_to_100);
  RUN(base64_rejects_every_invalid_form);
  RUN(base64_accepts_exactly_one_encoding_per_byte_string);
  RUN(json_ws_skips_only_json_whitespace);
  RUN(json_skip_accepts_valid_values_and_stops_after_one);
  RUN(json_skip_rejects_with_reason_code_and_offset);
  RUN(json_skip_allows_nesting_at_the_limit_and_not_one_beyond);
  return test_summary("text");
}
