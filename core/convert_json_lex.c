/*
** convert_json_lex.c — the JSON scanner's lexical layer (convert_json.c
** parses the rows): what is wrong at a place (the syntax messages, and the
** end of the window, which may only mean more input is needed), a string's
** end by the full scanner, and a value passed over whole: checked (a value
** kept as text), only delimited (an array the caller parses next), or
** classified (an array of objects, empty, or other JSON).  The inline fast
** paths are in convert_json_lex.h.  It never calls back into
** convert_json.c.
*/
#include <string.h>

#include "convert_json_lex.h"

/* At the end of the window: more input is needed (CV_MORE), or the input
** ended where `what` was expected. */
const char *cv_json_at_end(js *j, const char *p, const char *what) {
  if (!j->c->w.eof) {
    j->st = CV_MORE;
    return NULL;
  }
  j->st = cv_fail(j->c, JJ_ERR_SYNTAX, off(j->c, p),
                  "unexpected end of input (expected %s)", what);
  return NULL;
}

/* "expected X, found Y" at p. */
const char *cv_json_expected(js *j, const char *p, const char *what) {
  char shown[JJ_SHOW_CAP];
  const char *e = end_of(j->c);
  size_t n = 0;
  if (p == e) return cv_json_at_end(j, p, what);
  while (n < 12 && p + n < e && p[n] != '\n' && p[n] != '\r') n++;
  j->st = cv_fail(j->c, JJ_ERR_SYNTAX, off(j->c, p), "expected %s, found %s",
                  what, jj_show(shown, sizeof shown, p, n ? n : 1, 1));
  return NULL;
}

/* The string's end by the full scanner, to say what is wrong with it. */
const char *cv_json_string_end_slow(js *j, const char *p, int *esc) {
  size_t bad;
  const char *why;
  const char *q = jj_string_scan(p, end_of(j->c), esc, &bad, &why);
  if (q) return q;
  if (bad == 0 && !j->c->w.eof) return j->st = CV_MORE, NULL;
  j->st = cv_fail(j->c, JJ_ERR_SYNTAX, off(j->c, p + bad), "%s", why);
  return NULL;
}

/* Past one whole JSON value at p (not a row), checked: strings decoded,
** numbers by the grammar, nesting at most CV_MAX_DEPTH. */
const char *cv_json_skip(js *j, const char *p, unsigned depth) {
  cv *c = j->c;
  int esc;
  const char *q;
  switch (*p) {
    case '"': {
      size_t bad;
      jj_code code;
      const char *why;
      if (!(q = string_end(j, p, &esc))) return NULL;
      if (jj_string_decode(p + 1, (size_t)(q - p) - 2, NULL, &bad, &code,
                           &why) == (size_t)-1) {
        j->st = cv_fail(c, code, off(c, p + 1 + bad),
                        "invalid JSON string (%s)", why);
        return NULL;
      }
      return q;
    }
    case 't':
      return literal(j, p, "true", 4);
    case 'f':
      return literal(j, p, "false", 5);
    case 'n':
      return literal(j, p, "null", 4);
    case '[':
    case '{': {
      char close = *p == '[' ? ']' : '}';
      if (depth > CV_MAX_DEPTH) {
        j->st = cv_fail(c, JJ_ERR_DEPTH, off(c, p),
                        "nesting deeper than the limit of %d", CV_MAX_DEPTH);
        return NULL;
      }
      p = ws(p + 1);
      if (*p == close) return p + 1;
      for (;;) {
        if (close == '}') {
          if (*p != '"') return cv_json_expected(j, p, "a key");
          if (!(p = string_end(j, p, &esc))) return NULL;
          if (*(p = ws(p)) != ':') return cv_json_expected(j, p, "':'");
          p = ws(p + 1);
        }
        if (!(p = cv_json_skip(j, p, depth + 1))) return NULL;
        p = ws(p);
        if (*p == close) return p + 1;
        if (*p != ',')
          return cv_json_expected(j, p,
                                  close == ']' ? "',' or ']'" : "',' or '}'");
        p = ws(p + 1);
      }
    }
    default: {
      double d;
      if ((*p < '0' || *p > '9') && *p != '-')
        return cv_json_expected(j, p, "a value");
      if (!(q = number_end(j, p))) return NULL;
      if (jj_num_parse_double(p, (size_t)(q - p), &d) == JJ_NUM_SYNTAX) {
        char shown[JJ_SHOW_CAP];
        j->st = cv_fail(c, JJ_ERR_SYNTAX, off(c, p), "%s is not a valid number",
                        jj_show(shown, sizeof shown, p, (size_t)(q - p), 0));
        return NULL;
      }
      return q;
    }
  }
}

/* Past the array or object at p by its brackets and strings alone, nothing
** else checked: for values that are parsed in full right after. */
const char *cv_json_skip_light(js *j, const char *p, unsigned depth) {
  unsigned level = 0;
  int esc;
  for (;;) {
    switch (*p) {
      case '"':
        if (!(p = string_end(j, p, &esc))) return NULL;
        continue;
      case '[':
      case '{':
        if (depth + level > CV_MAX_DEPTH) {
          j->st = cv_fail(j->c, JJ_ERR_DEPTH, off(j->c, p),
                          "nesting deeper than the limit of %d", CV_MAX_DEPTH);
          return NULL;
        }
        level++;
        break;
      case ']':
      case '}':
        if (--level == 0) return p + 1;
        break;
      case '\0':
        if (p == end_of(j->c))
          return cv_json_at_end(j, p, "the end of the value");
        break;
      default:
        break;
    }
    p++;
  }
}

/* Past the array at p; *kind says whether it holds only objects (K_TABLE),
** nothing (K_EMPTY) or else (K_JSON).  An array that is text is checked
** fully (skip); with `light` the objects of one that is not are only
** delimited (skip_light), for a caller that parses them next anyway.  Pass 2
** finds a nested table's value with it; pass 1 uses it when it must know
** before parsing the objects as rows. */
const char *cv_json_array_kind(js *j, const char *p, unsigned depth, int *kind,
                               int light) {
  const char *q = ws(p + 1);
  if (*q == ']') return *kind = K_EMPTY, q + 1;
  for (;;) {
    if (*q != '{') return *kind = K_JSON, cv_json_skip(j, p, depth);
    q = light ? cv_json_skip_light(j, q, depth + 1)
              : cv_json_skip(j, q, depth + 1);
    if (!q) return NULL;
    q = ws(q);
    if (*q == ']') return *kind = K_TABLE, q + 1;
    if (*q != ',') return cv_json_expected(j, q, "',' or ']'");
    q = ws(q + 1);
  }
}
