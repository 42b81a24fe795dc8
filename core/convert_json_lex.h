/*
** convert_json_lex.h — what the JSON scanner's two files share
** (convert_json.c the rows, convert_json_lex.c the lexical layer): the
** scanner's state, the inline fast paths every value takes (white space,
** a string's or a number's end, a literal), and convert_json_lex.c's
** calls.  Not public; only those two files include it.
*/
#ifndef JJ_CONVERT_JSON_LEX_H
#define JJ_CONVERT_JSON_LEX_H

#include <string.h>

#include "convert_scan.h"

/* The scanner's state for one pass. */
typedef struct js {
  cv *c;
  int st; /* CV_MORE or CV_FAIL after a NULL return */
} js;

/* Every function below that returns a position returns NULL when it
** stops, with j->st CV_MORE (the window ends before the value does: read
** more and parse the row again) or CV_FAIL (the error is in j->c). */

/* At the end of the window: more input is needed (CV_MORE), or the input
** ended where `what` was expected. */
const char *cv_json_at_end(js *j, const char *p, const char *what);

/* "expected X, found Y" at p. */
const char *cv_json_expected(js *j, const char *p, const char *what);

/* The end of the string whose quote is at p by the full scanner, to say
** what is wrong with it (cv_str_end found no end). */
const char *cv_json_string_end_slow(js *j, const char *p, int *esc);

/* Past one whole JSON value at p (not a row), checked: strings decoded,
** numbers by the grammar, nesting at most CV_MAX_DEPTH. */
const char *cv_json_skip(js *j, const char *p, unsigned depth);

/* Past the array or object at p by its brackets and strings alone, nothing
** else checked: for values that are parsed in full right after. */
const char *cv_json_skip_light(js *j, const char *p, unsigned depth);

/* Past the array at p; *kind says whether it holds only objects (K_TABLE),
** nothing (K_EMPTY) or else (K_JSON).  An array that is text is checked
** fully (cv_json_skip); with `light` the objects of one that is not are
** only delimited (cv_json_skip_light), for a caller that parses them next
** anyway. */
const char *cv_json_array_kind(js *j, const char *p, unsigned depth, int *kind,
                               int light);

/* The offset in the input of p in the window. */
static inline uint64_t off(const cv *c, const char *p) {
  return c->w.base + (uint64_t)(p - c->w.buf);
}

static inline const char *end_of(const cv *c) { return c->w.buf + c->w.len; }

static inline const char *ws(const char *p) {
  while (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t') p++;
  return p;
}

/* Past the string whose quote is at p; *esc set when it has a backslash. */
static inline const char *string_end(js *j, const char *p, int *esc) {
  const char *q = cv_str_end(p, end_of(j->c), esc);
  return q ? q : cv_json_string_end_slow(j, p, esc);
}

/* The number's bytes from p (delimited here, checked by its reader). */
static inline const char *number_end(js *j, const char *p) {
  static const unsigned char num[256] = {
      ['0'] = 1, ['1'] = 1, ['2'] = 1, ['3'] = 1, ['4'] = 1,
      ['5'] = 1, ['6'] = 1, ['7'] = 1, ['8'] = 1, ['9'] = 1,
      ['-'] = 1, ['+'] = 1, ['.'] = 1, ['e'] = 1, ['E'] = 1};
  const char *q = p;
  while (num[(unsigned char)*q]) q++;
  if (q == end_of(j->c) && !j->c->w.eof) return j->st = CV_MORE, NULL;
  return q;
}

/* Past the literal `lit` at p. */
static inline const char *literal(js *j, const char *p, const char *lit,
                                  size_t n) {
  if ((size_t)(end_of(j->c) - p) < n && !j->c->w.eof)
    return j->st = CV_MORE, NULL;
  if ((size_t)(end_of(j->c) - p) < n || memcmp(p, lit, n))
    return cv_json_expected(j, p, "a value");
  return p + n;
}

#endif /* JJ_CONVERT_JSON_LEX_H */
