/*
** datefmt.h — dates and timestamps in other spellings than ISO 8601:
** strftime-style patterns ("%m/%d/%Y", "%b %d %Y %I:%M %p") compiled once,
** then matched against text, which comes out in the canonical ISO form
** that jj_writer_date / _timestamp / _local_timestamp take.  Not public.
**
** The pattern language and the set of spellings the converter detects on
** its own are docs/convert.md's ("Dates and timestamps in other
** spellings").  Matching is one pass from left to right without going
** back: a number takes as many digits as its field allows (greedy), a
** space in the pattern takes one or more spaces.  A value that matches
** the shape is then checked by chrono.c on its ISO text, so a pattern
** accepts exactly the calendar's dates (no February 30th).
*/
#ifndef JJ_DATEFMT_H
#define JJ_DATEFMT_H

#include <stddef.h>
#include <stdint.h>

#include "jalapenojson.h"

/* The most directives and literal bytes in one compiled pattern. */
#define DF_MAX_ITEMS 64
/* The most patterns in a set (bits of a uint32_t mask). */
#define DF_MAX_PATTERNS 32
/* The most patterns a caller may give of each kind. */
#define DF_MAX_GIVEN JJ_CONVERT_MAX_FORMATS
/* Room for a value's ISO text: "YYYY-MM-DDTHH:MM:SS.nnnnnnnnn+HH:MM". */
#define DF_ISO_CAP 40

/* What a pattern's values are. */
enum { DF_DATE, DF_LOCAL, DF_ZONED };

/* A compiled pattern. */
typedef struct df_pat {
  const char *text;               /* the pattern as given (borrowed) */
  unsigned char op[DF_MAX_ITEMS]; /* directive letters; 0: literal lit[i] */
  char lit[DF_MAX_ITEMS];
  unsigned char n;
  unsigned char kind;  /* DF_DATE, DF_LOCAL, DF_ZONED */
  unsigned char given; /* the caller's (1) or a detected spelling (0) */
} df_pat;

/* The patterns a conversion tries on text values. */
typedef struct df_set {
  df_pat pat[DF_MAX_PATTERNS];
  unsigned n;
  /* pairs told apart only by the order of day and month (detected set):
  ** twin[i] is the other's index + 1, 0 for none */
  unsigned char twin[DF_MAX_PATTERNS];
} df_set;

/* Compile `text` as a pattern of kind `kind` (DF_DATE, or DF_LOCAL for a
** timestamp pattern: one with %z becomes DF_ZONED).  0, or -1 with the
** reason in why and its byte offset in *at. */
int df_compile(const char *text, int kind, df_pat *out, char *why, size_t cap,
               size_t *at);
/* Where a given pattern did not compile. */
typedef struct df_mistake {
  int timestamp; /* in the timestamp patterns (1) or the date ones (0) */
  size_t index;  /* which of them */
  size_t at;     /* its byte */
  char why[120];
} df_mistake;
/* The set a conversion tries: the given date patterns (n_dates of them),
** or when none are given the detected date spellings; then the same for
** timestamps.  The pattern "iso" stands for ISO 8601 alone (which always
** counts): given alone it turns that kind's detection off.  0, or -1 with
** *m filled (a pattern that does not compile, more than DF_MAX_GIVEN). */
int df_set_build(df_set *s, const char *const *dates, size_t n_dates,
                 const char *const *stamps, size_t n_stamps, df_mistake *m);
/* Match p[0..len) against f: 1 with the ISO text in iso (*n bytes), 0 when
** the shape differs, -1 when the shape fits but the calendar or the clock
** does not (the ISO text is then in iso, for the reason). */
int df_parse(const df_pat *f, const char *p, size_t len, char iso[DF_ISO_CAP],
             size_t *n);
/* The patterns among `live` that read p[0..len) as a valid value. */
uint32_t df_match(const df_set *s, uint32_t live, const char *p, size_t len);
/* The first given pattern of set s whose kind is among `kinds` (bits 1 << DF_*)
** that reads p[0..len): its index with the ISO text in iso (*n bytes), or
** -1; *shaped (may be NULL) is set to 1 when some such pattern fit the
** shape, and its ISO text is left in iso. */
int df_first(const df_set *s, unsigned kinds, const char *p, size_t len,
             char iso[DF_ISO_CAP], size_t *n, int *shaped);
/* Mask of the patterns of s of kind k. */
uint32_t df_kind_mask(const df_set *s, int k);

#endif /* JJ_DATEFMT_H */
