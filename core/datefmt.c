/*
** datefmt.c — strftime-style patterns for dates and timestamps: compiled
** (checked, with the byte of a mistake), matched against text, and the
** value written in its canonical ISO form (datefmt.h says the contract,
** docs/convert.md the language).
**
** Directives: %Y (4 digits) %y (2 digits: 69-99 are 1969-1999, 00-68 are
** 2000-2068, as POSIX strptime) %m %d (1 or 2 digits) %e (a day, a space
** before one digit allowed) %b %h (Jan..Dec) %B (January..December) %a
** (Mon..Sun) %A (Monday..Sunday) — names in any ASCII case — %H (0-23, 1 or
** 2 digits) %I (1-12, 1 or 2 digits, with %p) %p (AM or PM) %M %S (2
** digits) %f (1 to 9 digits of a second's fraction) %z (Z, +HH:MM, +HHMM
** or +HH) %T (%H:%M:%S) %F (%Y-%m-%d) %% (a percent sign).  A space takes
** one or more spaces; any other byte stands for itself.
*/
#include <stdio.h>
#include <string.h>

#include "datefmt.h"
#include "internal.h"

static const char *const months[12] = {"january", "february", "march",
                                       "april",   "may",      "june",
                                       "july",    "august",   "september",
                                       "october", "november", "december"};
static const char *const weekdays[7] = {"sunday",   "monday", "tuesday",
                                        "wednesday", "thursday", "friday",
                                        "saturday"};

/* The spellings the converter detects (docs/convert.md lists them in
** this order, which is also the order of preference). */
static const struct {
  const char *text;
  int kind;
  int twin; /* where the pattern with day and month swapped is: the next
            ** (1) or the one before (-1); 0 none */
} detected[] = {
    {"%m/%d/%Y", DF_DATE, 1},                   /* 0 */
    {"%d/%m/%Y", DF_DATE, -1},                   /* 1 */
    {"%Y/%m/%d", DF_DATE, 0},                   /* 2 */
    {"%d.%m.%Y", DF_DATE, 0},                   /* 3 */
    {"%b %d %Y", DF_DATE, 0},                   /* 4 */
    {"%b %d, %Y", DF_DATE, 0},                  /* 5 */
    {"%d %b %Y", DF_DATE, 0},                   /* 6 */
    {"%d-%b-%Y", DF_DATE, 0},                   /* 7 */
    {"%B %d, %Y", DF_DATE, 0},                  /* 8 */
    {"%B %d %Y", DF_DATE, 0},                   /* 9 */
    {"%d %B %Y", DF_DATE, 0},                   /* 10 */
    {"%Y/%m/%d %H:%M:%S", DF_LOCAL, 0},         /* 11 */
    {"%Y/%m/%d %H:%M", DF_LOCAL, 0},            /* 12 */
    {"%m/%d/%Y %H:%M:%S", DF_LOCAL, 1},        /* 13 */
    {"%d/%m/%Y %H:%M:%S", DF_LOCAL, -1},        /* 14 */
    {"%m/%d/%Y %H:%M", DF_LOCAL, 1},           /* 15 */
    {"%d/%m/%Y %H:%M", DF_LOCAL, -1},           /* 16 */
    {"%m/%d/%Y %I:%M:%S %p", DF_LOCAL, 0},      /* 17 */
    {"%m/%d/%Y %I:%M %p", DF_LOCAL, 0},         /* 18 */
};

/* The field a directive sets (a directive given twice is a mistake). */
static int field_of(int op) {
  switch (op) {
    case 'Y': case 'y': return 0;
    case 'm': case 'b': case 'B': return 1;
    case 'd': case 'e': return 2;
    case 'H': case 'I': return 3;
    case 'M': return 4;
    case 'S': return 5;
    case 'f': return 6;
    case 'p': return 7;
    case 'z': return 8;
    case 'a': case 'A': return 9;
    default: return -1;
  }
}

static int put(df_pat *f, int op, char lit) {
  if (f->n == DF_MAX_ITEMS) return -1;
  f->op[f->n] = (unsigned char)op;
  f->lit[f->n++] = lit;
  return 0;
}

int df_compile(const char *text, int kind, df_pat *out, char *why, size_t cap,
               size_t *at) {
  unsigned seen = 0;
  const char *p = text;
  memset(out, 0, sizeof *out);
  out->text = text;
  out->kind = (unsigned char)kind;
  *at = 0;
  if (!*p) return snprintf(why, cap, "the pattern is empty"), -1;
  for (; *p; p++) {
    const char *ops;
    *at = (size_t)(p - text);
    if (*p != '%') {
      if (put(out, 0, *p)) goto long_;
      continue;
    }
    switch (p[1]) {
      case '%': ops = NULL; break;
      case 'T': ops = "H:M:S"; break;
      case 'F': ops = "Y-m-d"; break;
      case 'h': ops = "b"; break;
      case 'Y': case 'y': case 'm': case 'd': case 'e': case 'b': case 'B':
      case 'a': case 'A': case 'H': case 'I': case 'M': case 'S': case 'f':
      case 'p': case 'z':
        ops = p + 1;
        break;
      case '\0':
        return snprintf(why, cap, "a %% at the end (write %%%% for a %% sign)"), -1;
      default:
        if ((unsigned char)p[1] < 0x20 || (unsigned char)p[1] >= 0x7f)
          return snprintf(why, cap, "unknown directive after %%"), -1;
        return snprintf(why, cap, "unknown directive %%%c", p[1]), -1;
    }
    p++;
    if (!ops) {
      if (put(out, 0, '%')) goto long_;
      continue;
    }
    /* one directive, or the several %T and %F stand for */
    size_t n_ops = ops == p ? 1 : strlen(ops);
    for (size_t i = 0; i < n_ops; i++) {
      int op = ops[i], fld = field_of(op);
      if (fld < 0) { /* the ':' and '-' of %T and %F */
        if (put(out, 0, (char)op)) goto long_;
        continue;
      }
      if (seen & (1u << fld))
        return snprintf(why, cap, "%%%c repeats a field given before", op), -1;
      if (kind == DF_DATE && fld >= 3 && fld <= 8)
        return snprintf(why, cap,
                        "%%%c in a date pattern (a date has no time of day; "
                        "give it as a timestamp pattern)",
                        op),
               -1;
      seen |= 1u << fld;
      if (op == 'z') out->kind = DF_ZONED;
      if (put(out, op, 0)) goto long_;
    }
  }
  *at = (size_t)(p - text);
  {
    int has_I = 0, has_p = 0, has_H = 0;
    for (unsigned i = 0; i < out->n; i++) {
      has_I |= out->op[i] == 'I';
      has_p |= out->op[i] == 'p';
      has_H |= out->op[i] == 'H';
    }
    if (!(seen & 1u)) return snprintf(why, cap, "no year (%%Y or %%y)"), -1;
    if (!(seen & 2u)) return snprintf(why, cap, "no month (%%m, %%b or %%B)"), -1;
    if (!(seen & 4u)) return snprintf(why, cap, "no day (%%d or %%e)"), -1;
    if (kind != DF_DATE && !(seen & 8u))
      return snprintf(why, cap, "no hour (%%H, or %%I with %%p)"), -1;
    if (kind != DF_DATE && !(seen & 16u))
      return snprintf(why, cap, "no minute (%%M)"), -1;
    if ((seen & 64u) && !(seen & 32u))
      return snprintf(why, cap, "%%f without %%S (a fraction of which second?)"), -1;
    if (has_I != has_p)
      return snprintf(why, cap, has_H ? "%%p goes with %%I, not %%H"
                                      : "%%I and %%p go together"),
             -1;
  }
  return 0;
long_:
  return snprintf(why, cap, "the pattern is longer than %d directives and bytes",
                  DF_MAX_ITEMS),
         -1;
}

/* Add the given patterns of one kind, or the detected ones of it. */
static int add_kind(df_set *s, const char *const *given, size_t n, int kind,
                    df_mistake *m) {
  m->timestamp = kind != DF_DATE;
  if (n > DF_MAX_GIVEN) {
    m->index = n, m->at = 0; /* names no one pattern */
    snprintf(m->why, sizeof m->why, "more than %d patterns", DF_MAX_GIVEN);
    return -1;
  }
  for (size_t i = 0; i < n; i++) {
    m->index = i;
    if (!given || !given[i]) {
      m->at = 0;
      snprintf(m->why, sizeof m->why, "the pattern is NULL");
      return -1;
    }
    if (!strcmp(given[i], "iso")) continue;
    if (df_compile(given[i], kind, &s->pat[s->n], m->why, sizeof m->why, &m->at))
      return -1;
    s->pat[s->n++].given = 1;
  }
  if (n) return 0;
  for (unsigned i = 0; i < sizeof detected / sizeof *detected; i++) {
    if ((detected[i].kind == DF_DATE) != (kind == DF_DATE)) continue;
    /* the table's patterns compile (test_convert_dates checks each) */
    if (df_compile(detected[i].text, detected[i].kind, &s->pat[s->n], m->why,
                   sizeof m->why, &m->at))
      return -1;
    s->twin[s->n] =
        (unsigned char)(detected[i].twin ? (int)s->n + detected[i].twin + 1 : 0);
    s->n++;
  }
  return 0;
}

int df_set_build(df_set *s, const char *const *dates, size_t n_dates,
                 const char *const *stamps, size_t n_stamps, df_mistake *m) {
  memset(s, 0, sizeof *s);
  return add_kind(s, dates, n_dates, DF_DATE, m) ||
                 add_kind(s, stamps, n_stamps, DF_LOCAL, m)
             ? -1
             : 0;
}

/* Up to `most` digits at *pp (at least `least`): the number, or -1. */
static int digits(const char **pp, const char *end, int least, int most) {
  const char *p = *pp;
  int v = 0, n = 0;
  while (n < most && p < end && *p >= '0' && *p <= '9') v = v * 10 + (*p++ - '0'), n++;
  if (n < least) return -1;
  *pp = p;
  return v;
}

/* v (0 <= v < 10^width) in `width` digits at o; past them. */
static char *put_num(char *o, int v, int width) {
  for (int i = width - 1; i >= 0; i--, v /= 10) o[i] = (char)('0' + v % 10);
  return o + width;
}

static int lower(int ch) { return ch >= 'A' && ch <= 'Z' ? ch + 32 : ch; }

/* One of the names at *pp, whole (full) or its first three letters: its
** index, or -1. */
static int name(const char **pp, const char *end, const char *const *names,
                int count, int full) {
  for (int i = 0; i < count; i++) {
    size_t n = full ? strlen(names[i]) : 3, k = 0;
    if ((size_t)(end - *pp) < n) continue;
    while (k < n && lower((unsigned char)(*pp)[k]) == names[i][k]) k++;
    if (k == n) {
      *pp += n;
      return i;
    }
  }
  return -1;
}

int df_parse(const df_pat *f, const char *p, size_t len, char iso[DF_ISO_CAP],
             size_t *n) {
  const char *end = p + len, *frac = NULL;
  int y = 0, mo = 0, d = 0, h = 0, mi = 0, s = 0, pm = -1, wd = -1, v;
  int nfrac = 0, zone = 0, zoned = 0, zneg = 0;
  for (unsigned i = 0; i < f->n; i++) {
    switch (f->op[i]) {
      case 0:
        if (f->lit[i] == ' ') {
          if (p == end || *p != ' ') return 0;
          while (p < end && *p == ' ') p++;
        } else if (p == end || *p++ != f->lit[i]) {
          return 0;
        }
        continue;
      case 'Y': v = y = digits(&p, end, 4, 4); break;
      case 'y':
        v = digits(&p, end, 2, 2);
        y = v < 0 ? v : v < 69 ? 2000 + v : 1900 + v;
        break;
      case 'm': v = mo = digits(&p, end, 1, 2); break;
      case 'e':
        if (p < end && *p == ' ') p++;
        /* fall through */
      case 'd': v = d = digits(&p, end, 1, 2); break;
      case 'b': v = name(&p, end, months, 12, 0), mo = v + 1; break;
      case 'B': v = name(&p, end, months, 12, 1), mo = v + 1; break;
      case 'a': v = wd = name(&p, end, weekdays, 7, 0); break;
      case 'A': v = wd = name(&p, end, weekdays, 7, 1); break;
      case 'H': v = h = digits(&p, end, 1, 2); break;
      case 'I':
        v = h = digits(&p, end, 1, 2);
        if (v == 0 || v > 12) return 0;
        break;
      case 'M': v = mi = digits(&p, end, 2, 2); break;
      case 'S': v = s = digits(&p, end, 2, 2); break;
      case 'f':
        frac = p;
        v = digits(&p, end, 1, 9);
        nfrac = (int)(p - frac);
        break;
      case 'p':
        v = -1;
        if (end - p >= 2 && lower((unsigned char)p[1]) == 'm') {
          int c0 = lower((unsigned char)p[0]);
          if (c0 == 'a' || c0 == 'p') v = pm = c0 == 'p', p += 2;
        }
        break;
      case 'z':
        zoned = 1;
        if (p < end && *p == 'Z') {
          p++, v = 0, zoned = 2; /* Z, not +00:00 */
          break;
        }
        if (p == end || (*p != '+' && *p != '-')) return 0;
        {
          int sign = *p++ == '-' ? -1 : 1, zh = digits(&p, end, 2, 2), zm = 0;
          if (zh < 0) return 0;
          if (p < end && *p == ':') {
            p++;
            if ((zm = digits(&p, end, 2, 2)) < 0) return 0;
          } else if (p < end && *p >= '0' && *p <= '9') {
            if ((zm = digits(&p, end, 2, 2)) < 0) return 0;
          }
          /* written as read: chrono.c checks the zone's hour and minute */
          zone = zh * 100 + zm, zneg = sign < 0;
          v = 0; /* chrono.c checks the range */
        }
        break;
      default:
        return 0;
    }
    if (v < 0) return 0;
  }
  if (p != end) return 0;
  if (pm >= 0) h = h % 12 + 12 * pm;
  /* the fields fit their places; the calendar and the clock say the rest */
  /* the ISO text, digit by digit (every value read takes this path) */
  char *o = iso;
  o = put_num(o, y, 4), *o++ = '-', o = put_num(o, mo, 2), *o++ = '-';
  o = put_num(o, d, 2);
  if (f->kind != DF_DATE) {
    *o++ = 'T', o = put_num(o, h, 2), *o++ = ':', o = put_num(o, mi, 2);
    *o++ = ':', o = put_num(o, s, 2);
    if (nfrac) *o++ = '.', memcpy(o, frac, (size_t)nfrac), o += nfrac;
    if (zoned == 2) {
      *o++ = 'Z';
    } else if (zoned) {
      *o++ = zneg ? '-' : '+', o = put_num(o, zone / 100, 2), *o++ = ':';
      o = put_num(o, zone % 100, 2); /* zone: hhmm as read */
    }
  }
  *n = (size_t)(o - iso);
  if (!jj_date_ok(iso, 10) && jj_date_parse(iso, 10, NULL, NULL) != JJ_OK)
    return -1;
  if (wd >= 0) { /* 1970-01-01 was a Thursday (4 when Sunday is 0) */
    int32_t days = jj_date_days(iso);
    if (((days % 7 + 7) % 7 + 4) % 7 != wd) return -1;
  }
  if (f->kind == DF_LOCAL)
    return jj_local_timestamp_parse(iso, *n, 0, NULL, NULL) == JJ_OK ? 1 : -1;
  if (f->kind == DF_ZONED)
    return jj_timestamp_parse(iso, *n, NULL, NULL) == JJ_OK ? 1 : -1;
  return 1;
}

uint32_t df_match(const df_set *s, uint32_t live, const char *p, size_t len) {
  char iso[DF_ISO_CAP];
  size_t n;
  uint32_t out = 0;
  for (unsigned i = 0; i < s->n; i++)
    if ((live >> i & 1u) && df_parse(&s->pat[i], p, len, iso, &n) == 1)
      out |= 1u << i;
  return out;
}

int df_first(const df_set *s, unsigned kinds, const char *p, size_t len,
             char iso[DF_ISO_CAP], size_t *n, int *shaped) {
  char tmp[DF_ISO_CAP];
  size_t tn;
  int first_shaped = 0;
  if (shaped) *shaped = 0;
  for (unsigned i = 0; i < s->n; i++) {
    if (!s->pat[i].given || !(kinds >> s->pat[i].kind & 1u)) continue;
    int r = df_parse(&s->pat[i], p, len, tmp, &tn);
    if (r == 1) {
      memcpy(iso, tmp, tn);
      *n = tn;
      return (int)i;
    }
    if (r < 0 && !first_shaped) { /* keep the first misfit's ISO text */
      first_shaped = 1;
      memcpy(iso, tmp, tn);
      *n = tn;
    }
  }
  if (shaped) *shaped = first_shaped;
  return -1;
}

uint32_t df_kind_mask(const df_set *s, int k) {
  uint32_t m = 0;
  for (unsigned i = 0; i < s->n; i++)
    if (s->pat[i].kind == k) m |= 1u << i;
  return m;
}
