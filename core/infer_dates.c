/*
** infer_dates.c — text columns that are dates or timestamps in another
** spelling than ISO 8601 ("01/31/2015", "Jan 1 2000", "2001/01/01 00:47"):
** which of the converter's patterns (datefmt.h) read every text value of a
** column, the type that makes it, the note that says so, and a value's ISO
** text for the writer.
**
** Pass 1 keeps no values: each column keeps the bits of the patterns that
** have read all of its text so far (fmt_live), so a column of names stops
** being tried at its first value.  The row builder sets no patterns
** (ic.dates NULL): host values keep ISO 8601 only (docs/convert.md says
** why).
*/
#include <stdio.h>
#include <string.h>

#include "datefmt.h"
#include "infer.h"

#define B(k) (1u << (k))

void ic_dates_fold(ic *x, ic_col *col, const char *p, size_t len, int first) {
  const df_set *s = x->dates;
  uint32_t live = first ? (s->n >= 32 ? ~0u : (1u << s->n) - 1) : col->fmt_live;
  /* the longest value a pattern can read is far below 100 bytes */
  col->fmt_live = len && len < 100 ? df_match(s, live, p, len) : 0;
}

/* The example text as the value was (ex is quoted by jj_show); 0 when it
** was shortened or escaped. */
static size_t unquote(const char *ex, char *out, size_t cap) {
  size_t n = ex ? strlen(ex) : 0;
  if (n < 2 || ex[0] != '"' || ex[n - 1] != '"' || n - 2 >= cap ||
      memchr(ex, '\\', n))
    return 0;
  memcpy(out, ex + 1, n - 2);
  return n - 2;
}

jj_type ic_dates_decide(ic *x, ic_table *t, size_t i) {
  ic_col *col = &t->cols[i];
  const df_set *s = x->dates;
  uint32_t other = col->kinds & ~B(K_TEXT), live = col->fmt_live;
  char path[400], ex[100], iso[DF_ISO_CAP], with[200] = "";
  size_t n, exn;
  if (!(col->kinds & B(K_TEXT)) || !live) return (jj_type)0;
  /* ISO values of the same type may stand among them */
  if (other & ~(B(K_DATE) | B(K_LTS) | B(K_LTS_SP) | B(K_TS))) return (jj_type)0;
  if (other & B(K_DATE)) live &= df_kind_mask(s, DF_DATE);
  if (other & (B(K_LTS) | B(K_LTS_SP))) live &= df_kind_mask(s, DF_LOCAL);
  if (other & B(K_TS)) live &= df_kind_mask(s, DF_ZONED);
  if (!live) return (jj_type)0;
  unsigned first = 0;
  while (!(live >> first & 1u)) first++;
  const df_pat *f = &s->pat[first];
  const char *what = f->kind == DF_DATE ? "dates" : "timestamps";
  ic_col_path(t, i, path, sizeof path);
  if (!f->given && s->twin[first] && (live >> (s->twin[first] - 1) & 1u)) {
    ic_note(x,
            "column %s: %s written as %s or %s (row %lld, %s): no day is "
            "above 12 to tell which -> s (ambiguous; the %s format option "
            "decides)",
            path, what, f->text, s->pat[s->twin[first] - 1].text,
            (long long)col->ex_row[K_TEXT], col->ex[K_TEXT],
            f->kind == DF_DATE ? "date" : "timestamp");
    return JJ_TEXT;
  }
  col->fmt_pick = first + 1;
  for (int k = 0; k < K_COUNT; k++)
    if (other & B(k))
      snprintf(with, sizeof with, " and ISO 8601 %s (row %lld, %s)",
               k == K_DATE ? "dates" : "timestamps", (long long)col->ex_row[k],
               col->ex[k] ? col->ex[k] : "?");
  exn = unquote(col->ex[K_TEXT], ex, sizeof ex);
  if (exn && df_parse(f, ex, exn, iso, &n) == 1) {
    iso[n] = '\0';
  } else {
    snprintf(iso, sizeof iso, "%s", f->kind == DF_DATE ? "YYYY-MM-DD" : "ISO 8601");
  }
  jj_type ty = f->kind == DF_DATE    ? JJ_DATE
               : f->kind == DF_LOCAL ? JJ_LOCAL_TIMESTAMP
                                     : JJ_TIMESTAMP;
  ic_note(x, "column %s: %s written as %s (row %lld, %s)%s -> %c (written as %s)",
          path, what, f->text, (long long)col->ex_row[K_TEXT],
          col->ex[K_TEXT] ? col->ex[K_TEXT] : "?", with, (char)ty, iso);
  return ty;
}

size_t ic_dates_iso(const ic *x, const ic_col *col, const char *p, size_t len,
                    char *iso, int *shaped) {
  size_t n = 0;
  *shaped = 0;
  if (!x->dates || !col->fmt_pick) return 0;
  int r = df_parse(&x->dates->pat[col->fmt_pick - 1], p, len, iso, &n);
  *shaped = r < 0;
  return r == 1 ? n : 0;
}
