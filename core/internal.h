/*
** internal.h — declarations shared by the files of core/, not part of the
** public API.  Names here start with jj_ like the public ones but are not
** exported in jalapenojson.h; tests reach them by including this header.
**
** The order of core/'s files, from the bottom up, and which calls which:
** ARCHITECTURE.md, "core/, from the bottom up".
*/
#ifndef JJ_INTERNAL_H
#define JJ_INTERNAL_H

#include <stdarg.h>
#include <stdio.h>
#include <stddef.h>
#include <stdint.h>

#include "jalapenojson.h"
#include "num.h"

/* JJ_INLINE: inline even where the compiler would not, for a hot body that
** two callers share (an accessor and jj_cursor_value): with two callers
** gcc may keep one out-of-line copy, which costs the accessor a call.
** JJ_NOINLINE: a cold path kept out of a hot function, or an instance
** kept whole (rowscan.c). */
#if defined(__GNUC__) || defined(__clang__)
#define JJ_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))
#define JJ_LIKELY(x) __builtin_expect(!!(x), 1)
#define JJ_UNLIKELY(x) __builtin_expect(!!(x), 0)
#define JJ_INLINE inline __attribute__((always_inline))
#define JJ_NOINLINE __attribute__((noinline))
#else
#define JJ_PRINTF(fmt, args)
#define JJ_LIKELY(x) (x)
#define JJ_UNLIKELY(x) (x)
#define JJ_INLINE inline
#define JJ_NOINLINE
#endif

/* JJ_USAGE(report): the report of a usage error that only a C caller
** misusing the API meets (a NULL document or cursor, a cursor not on a
** row, a column index out of range, a type and a nested schema that
** disagree, a type no schema holds).  A build for size
** (JJ_SMALL: the reader-only WebAssembly module) traps there instead: its
** only C callers are the module's own (js/wasm.c, js/wasm_read.c), which
** never misuse it, so no input reaches those messages; a bug would still
** stop at the check instead of going on. */
#ifdef JJ_SMALL
#define JJ_USAGE(report) (__builtin_trap(), (void)sizeof(report), JJ_ERR_USAGE)
#else
#define JJ_USAGE(report) (report)
#endif

/* JJ_HOT: the functions every row or value runs (value.c's accessors,
** rowscan.c's instances and dispatches, jj_cursor_next) start on a
** 64-byte boundary.  Where they begin otherwise depends on the size of
** every function linked before them, and that alone moved timings by up
** to 13% on the same instructions (bench/README.md: a `WHERE joined >= ...`
** scan after value.c grew, the row scan after encode.c shrank by 32
** bytes).  Not in a build for size. */
#if (defined(__GNUC__) || defined(__clang__)) && !defined(JJ_SMALL) && \
    (defined(__x86_64__) || defined(__i386__))
#define JJ_HOT __attribute__((aligned(64)))
#else
#define JJ_HOT
#endif

/* JJ_SELECT: column selection (jj_cursor_select, select.c) takes effect:
** the row scan then locates only the selected columns.  Not in the
** WebAssembly builds, whose JS API reads through its own calls and never
** selects (there jj_cursor_select only checks its arguments): the
** selection's code would be bytes the modules carry for nothing. */
#if !defined(JJ_SMALL) && !defined(__wasm__)
#define JJ_SELECT 1
#else
#define JJ_SELECT 0
#endif

/* ---------------------------------------------------------------------- */
/* Errors (error.c)                                                        */
/* ---------------------------------------------------------------------- */

/* Where an error happened, as the reader and writer know it.  Any field may
** be "unknown": row 0, column -1, column_name NULL, offset JJ_NO_OFFSET,
** path NULL.  `path` is the place of a nested table inside its parents,
** e.g. `row 3, column "items", ` (already formatted, ends with ", "); the
** error's row/column fields are then taken from `outer_row`/`outer_column`
** so they always describe the outermost table. */
typedef struct jj_where {
  int64_t row;
  int column;
  const char *column_name; /* NUL-terminated */
  size_t offset;
  const char *path;
  int64_t outer_row;       /* used when path != NULL */
  int outer_column;
} jj_where;

/* Fill *err (if err is not NULL) with code and the message
**   [path]row R, column "name", byte N: <formatted detail>
** leaving out the parts that are unknown.  Returns code, so callers can
** write `return jj_fail(...)`. */
jj_code jj_fail(jj_error *err, jj_code code, const jj_where *where,
                const char *fmt, ...) JJ_PRINTF(4, 5);
jj_code jj_vfail(jj_error *err, jj_code code, const jj_where *where,
                 const char *fmt, va_list ap);
/* Reset *err to JJ_OK (if err is not NULL). */
void jj_error_clear(jj_error *err);

/* Write a short, printable rendering of input p[0..len) for messages:
** wrapped in double quotes when `quote` is set, control characters and
** invalid UTF-8 shown as \xHH, cut after about 40 bytes with "...".  Always
** NUL-terminates; returns out. */
char *jj_show(char *out, size_t cap, const char *p, size_t len, int quote);
#define JJ_SHOW_CAP 96
/* Render a JSON value's text p[0..len) for a message: a string as its
** contents in double quotes, an array or object as "an array"/"an object",
** anything else as it stands.  Returns out (JJ_SHOW_CAP bytes). */
const char *jj_show_value(char *out, const char *p, size_t len);
/* A file name for a message: rendered as jj_show renders input, in double
** quotes, but cut only after JJ_PATH_SHOWN bytes.  A path may come from
** somewhere untrusted (a database file's schema names files for the SQLite
** extension), so its control characters must not reach a terminal as they
** are.  out has JJ_PATH_CAP bytes; returns out. */
#define JJ_PATH_SHOWN 256
#define JJ_PATH_CAP (JJ_PATH_SHOWN * 4 + 16)
const char *jj_show_path(char *out, const char *path);

/* ---------------------------------------------------------------------- */
/* Types (types.c; the public names are in jalapenojson.h)                 */
/* ---------------------------------------------------------------------- */

/* The JSON value a column of type t holds, in words, for "expected ..."
** messages: "an integer", "a number", "a string", "a date string", ...
** "?" for no type. */
const char *jj_type_expect(jj_type t);
/* The writer call that writes a value of type t ("jj_writer_date"), for
** messages that tell the caller what to use.  "?" for no type. */
const char *jj_type_writer(jj_type t);

/* ---------------------------------------------------------------------- */
/* A growable byte buffer (buf.c).  Owner frees p with jj_buf_free.       */
/* ---------------------------------------------------------------------- */
typedef struct jj_buf {
  char *p;
  size_t len;
  size_t cap;
  const jj_allocator *a; /* where p comes from; NULL: malloc (then p may
                         ** also be handed out for jj_free) */
} jj_buf;
/* Make room for `more` bytes after len; 0 on success, -1 out of memory
** (buffer unchanged). */
int jj_buf_reserve(jj_buf *b, size_t more);
int jj_buf_append(jj_buf *b, const void *p, size_t n);
/* A jj_sink appending to the jj_buf ctx (nonzero: out of memory). */
int jj_buf_sink(void *ctx, const char *p, size_t n);
void jj_buf_free(jj_buf *b);

/* Bytes kept in memory up to a bound, then in a temporary file with what
** memory held: the rows a writer writes ahead of its header (the row
** builder's and the converter's, build_ahead.c, convert_ahead.c). */
typedef struct jj_spool {
  jj_buf mem;
  FILE *file; /* NULL until memory would pass its bound */
} jj_spool;
/* Keep p[0..len): in memory while it stays within `memory` bytes, else
** what memory holds and p go to the file.  0, or -1 (out of memory, no
** temporary file, a failed write). */
int jj_spool_add(jj_spool *s, const char *p, size_t len, size_t memory);
/* Every byte kept, in order (the file's, then memory's), given to each in
** pieces: 0, each's nonzero answer, or -1 when the file cannot be read
** back. */
int jj_spool_replay(jj_spool *s, int (*each)(void *ctx, const char *p,
                                             size_t len),
                    void *ctx);
void jj_spool_free(jj_spool *s);

/* ---------------------------------------------------------------------- */
/* UTF-8 and JSON strings (text.c)                                         */
/* ---------------------------------------------------------------------- */

/* 1 if p[0..len) is valid UTF-8 (no overlongs, no surrogates, <= U+10FFFF);
** otherwise 0 and *bad (if not NULL) is the offset of the first bad byte. */
int jj_utf8_valid(const char *p, size_t len, size_t *bad);

/* Scan the JSON string whose opening quote is at p (p < end, *p == '"').
** On success returns a pointer just past the closing quote and sets
** *has_escape when a backslash occurs inside.  Checks only what finding the
** end needs plus raw control characters (< 0x20, JSON forbids them);
** escapes and UTF-8 are checked by jj_string_decode.  On failure returns
** NULL and *bad is the offset (from p) of the offending byte, *why a static
** reason ("unterminated string", "raw control character in string"). */
const char *jj_string_scan(const char *p, const char *end, int *has_escape,
                           size_t *bad, const char **why);

/* Decode the contents of a JSON string (between the quotes, escapes
** included) into out, which must have room for len bytes (decoding never
** grows).  out may be NULL to check only; the return value is then the
** length the output would have.  Checks escapes (\uXXXX pairs, lone
** surrogates are errors) and UTF-8.  Returns the decoded length, or
** (size_t)-1 with *bad the offset in p of the problem, *code JJ_ERR_SYNTAX
** (bad escape) or JJ_ERR_UTF8, and *why a static reason. */
size_t jj_string_decode(const char *p, size_t len, char *out, size_t *bad,
                        jj_code *code, const char **why);

/* Word-at-a-time string scanning (text.c, rowscan.c).  JJ_ONES has 0x01 in
** every byte, JJ_HIGHS 0x80.  jj_special_mask(w) sets the high bit of every
** byte of w that is '"', '\\' or below 0x20; it is exact up to the first
** such byte (borrows may flag bytes after it), which is all a search for
** the first special byte needs. */
#define JJ_ONES UINT64_C(0x0101010101010101)
#define JJ_HIGHS UINT64_C(0x8080808080808080)
static JJ_INLINE uint64_t jj_special_mask(uint64_t w) {
  uint64_t q = w ^ (JJ_ONES * '"');
  uint64_t b = w ^ (JJ_ONES * '\\');
  uint64_t zq = (q - JJ_ONES) & ~q;
  uint64_t zb = (b - JJ_ONES) & ~b;
  uint64_t lt = (w - JJ_ONES * 0x20) & ~w;
  return (zq | zb | lt) & JJ_HIGHS;
}

/* Append the JSON string for valid UTF-8 text p[0..len) to b, quotes
** included, escaping only '"', '\\' and U+0000-U+001F (\b \f \n \r \t,
** others \u00XX).  0 on success, -1 out of memory. */
int jj_string_escape(jj_buf *b, const char *p, size_t len);
/* Upper bound of jj_string_escape's output for len input bytes. */
#define JJ_ESCAPED_MAX(len) ((len) * 6 + 2)

/* ---------------------------------------------------------------------- */
/* Dates (chrono.c has the rest)                                           */
/* ---------------------------------------------------------------------- */

/* 1 when p[0..n) is a date "YYYY-MM-DD" that exists, decided inline: the
** common case of every date read or written.  0 means "ask jj_date_parse"
** (chrono.c), which accepts exactly the same dates, computes days and says
** why the others fail; test_chrono checks the two agree on every day. */
#ifdef JJ_SMALL
/* A build for size (JJ_SMALL: the reader-only WebAssembly module) has no
** shortcut: every date goes to jj_date_parse. */
static inline int jj_date_ok(const char *p, size_t n) {
  (void)p;
  (void)n;
  return 0;
}
#else
/* The month lengths jj_date_ok checks against (February with its 29th;
** that day is checked against the year on its own). */
#define JJ_MONTH_DAYS {0, 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31}
#if JJ_SWAR
/* Eight bytes at a time: "YYYY-MM-" and "YY-MM-DD" (the date's bytes 2-9)
** as two little-endian words, each xored with the bytes it should be
** ('0' where a digit goes, '-' where a dash goes): then every digit is
** 0-9 and every dash 0.  Adding 0x76 to a digit's byte (0x7F to a dash's)
** sets its top bit exactly when it is above 9 (a dash above 0); a byte
** below 0x80 cannot carry into the next, and one at 0x80 or above is
** caught by its own top bit, so one test covers the sixteen bytes.
** Three constants besides the two patterns (the check with nibble masks
** took seven, and the registers to hold them), and the month and day
** read again as bytes: a date read by jj_cursor_text, its checks and
** text_date included, 96 -> 71 instructions (callgrind, 50,000 rows).  test_chrono changes every byte of
** dates to every value. */
static inline int jj_date_ok(const char *p, size_t n) {
  static const unsigned char mdays[13] = JJ_MONTH_DAYS;
  if (n != 10) return 0;
  uint64_t a, b;
  memcpy(&a, p, 8);
  memcpy(&b, p + 2, 8);
  a ^= UINT64_C(0x2d30302d30303030); /* "0000-00-", byte 0 lowest */
  b ^= UINT64_C(0x30302d30302d3030); /* "00-00-00" */
  const uint64_t over_a = UINT64_C(0x7f76767f76767676); /* 0x7F at the dashes */
  const uint64_t over_b = UINT64_C(0x76767f76767f7676);
  if (((a + over_a) | a | (b + over_b) | b) & UINT64_C(0x8080808080808080)) return 0;
  /* the month less 1 and the day less 1 read again from p, their digits
  ** now known (the bytes less '0' * 11 + 1 at once: one lea with the
  ** multiply): the two words die at the check, so fewer registers are
  ** saved; so is the year of a 29th of February (the only month of 29
  ** days) */
  const unsigned m1 = (unsigned char)p[5] * 10u + (unsigned char)p[6] - ('0' * 11u + 1);
  if (m1 > 11) return 0;
  const unsigned last = mdays[m1 + 1];
  const unsigned d1 = (unsigned char)p[8] * 10u + (unsigned char)p[9] - ('0' * 11u + 1);
  if (d1 >= last) return 0;
  if (d1 == 28 && last == 29) { /* February 29th: leap years only */
    const unsigned y = (unsigned)(p[0] & 15) * 1000 + (unsigned)(p[1] & 15) * 100 +
                       (unsigned)(p[2] & 15) * 10 + (unsigned)(p[3] & 15);
    if (y % 4 != 0 || (y % 100 == 0 && y % 400 != 0)) return 0;
  }
  return 1;
}
#else
static inline int jj_date_ok(const char *p, size_t n) {
  static const unsigned char mdays[13] = JJ_MONTH_DAYS;
  if (n != 10 || p[4] != '-' || p[7] != '-') return 0;
  unsigned y0 = (unsigned)(unsigned char)p[0] - '0', y1 = (unsigned)(unsigned char)p[1] - '0';
  unsigned y2 = (unsigned)(unsigned char)p[2] - '0', y3 = (unsigned)(unsigned char)p[3] - '0';
  unsigned m0 = (unsigned)(unsigned char)p[5] - '0', m1 = (unsigned)(unsigned char)p[6] - '0';
  unsigned d0 = (unsigned)(unsigned char)p[8] - '0', d1 = (unsigned)(unsigned char)p[9] - '0';
  if ((y0 > 9) | (y1 > 9) | (y2 > 9) | (y3 > 9) | (m0 > 9) | (m1 > 9) | (d0 > 9) | (d1 > 9))
    return 0;
  unsigned m = m0 * 10 + m1, d = d0 * 10 + d1;
  if (m - 1 > 11 || d - 1 >= mdays[m]) return 0;
  if (m == 2 && d == 29) { /* leap years only */
    unsigned y = y0 * 1000 + y1 * 100 + y2 * 10 + y3;
    if (y % 4 != 0 || (y % 100 == 0 && y % 400 != 0)) return 0;
  }
  return 1;
}
#endif /* JJ_SWAR */
#endif /* JJ_SMALL */

/* Days since 1970-01-01 of the date at p, which jj_date_ok has accepted
** (chrono.c): the day count without checking again. */
int32_t jj_date_days(const char *p);

/* ---------------------------------------------------------------------- */
/* Base64, standard alphabet with padding (base64.c)                       */
/* ---------------------------------------------------------------------- */

/* Decode p[0..len) into out (room for len/4*3 bytes).  Strict: length a
** multiple of 4, only A-Z a-z 0-9 + /, '=' only as 1 or 2 final padding
** characters, and the unused low bits of the last character zero (so each
** byte string has exactly one encoding).  Returns the decoded length, or
** (size_t)-1 with *bad the offset of the problem and *why a reason. */
size_t jj_base64_decode(const char *p, size_t len, unsigned char *out,
                        size_t *bad, const char **why);
/* Encode into out (room for JJ_BASE64_LEN(len) bytes); returns length. */
size_t jj_base64_encode(const unsigned char *p, size_t len, char *out);
#define JJ_BASE64_LEN(n) (((n) + 2) / 3 * 4)

/* ---------------------------------------------------------------------- */
/* Generic JSON scanning (json.c)                                          */
/* ---------------------------------------------------------------------- */

/* Skip JSON whitespace (space, \t, \n, \r). */
const char *jj_json_ws(const char *p, const char *end);

/* 1 when p[0..n) is exactly one number in JSON's grammar (any size). */
int jj_json_number_ok(const char *p, size_t n);

/* Skip one complete JSON value starting at p (no leading whitespace),
** checking it fully (strings decoded and UTF-8 checked, number grammar,
** literals, nesting at most max_depth levels).  Returns a pointer past it,
** or NULL with *bad the absolute pointer of the problem, *code and *why set.
*/
const char *jj_json_skip(const char *p, const char *end, unsigned max_depth,
                         const char **bad, jj_code *code, const char **why);

/* ---------------------------------------------------------------------- */
/* The writer inside the core: rows ahead of their header, checked values  */
/* ---------------------------------------------------------------------- */

/* Write p[0..len) as a JSON string into a column of kind t, unchecked: the
** caller has checked it (UTF-8, date, timestamp), as jj_writer_copy has
** (encode.c). */
jj_code jj_writer_put_checked(jj_writer *w, jj_type t, const char *p,
                              size_t len);
/* Write p[0..len) as it is (between quotes when `quoted`) into a column
** of kind t: the caller has checked that it is the value's canonical form
** and needs no escape, the bytes jj_writer_int, jj_writer_double or
** jj_writer_date would write for its value.  The converter copies the
** numbers and dates its input already spells so (encode.c). */
jj_code jj_writer_canonical(jj_writer *w, jj_type t, const char *p,
                            size_t len, int quoted);

/* A new writer with a sink writes only rows from here on: no header, no
** end; the converter writes rows with the first row's types before it
** knows the final ones (convert_ahead.c).  JJ_ERR_USAGE unless new. */
jj_code jj_writer_rows_only(jj_writer *w);
/* A writer of rows with the first row's types, for the row builder, which
** does not know the final types yet (build_ahead.c): jj_writer_new with
** its buffer from `a` (NULL: the library's), holding up to `hold` bytes
** (at least its usual 64 KiB) before passing them to its sink. */
jj_writer *jj_writer_new_ahead(const jj_schema *s, jj_sink sink, void *ctx,
                               const jj_allocator *a, size_t hold,
                               jj_error *err);
/* The bytes a writer holds, not yet passed to its sink (*len of them). */
const char *jj_writer_held(const jj_writer *w, size_t *len);
/* Such a writer whose bytes are all still held becomes the writer of the
** document in memory: `head` (len bytes, the header of the final types,
** which write the same rows, as long as its own header) replaces its own
** header, and it has no sink from now on.  1 done; 0 when it cannot (bytes
** went to the sink, a row is open: the writer as it was). */
int jj_writer_keep(jj_writer *w, const char *head, size_t len);
/* Column col of the top table holds type t from now on; the caller has
** written only nulls in it (their bytes do not depend on the type). */
void jj_writer_retype(jj_writer *w, size_t col, jj_type t);
/* Either writer: pass what it holds to its sink (rows whole). */
jj_code jj_writer_rows_flush(jj_writer *w);
/* Append p[0..len), rows either writer wrote (no header) for the same
** columns with types that write the same bytes, to w's top table (its header
** written first); `rows` whole rows end in this piece.  Pieces continue
** one another: the first starts at a row, the separators are inside. */
jj_code jj_writer_append_rows(jj_writer *w, const char *p, size_t len,
                              int64_t rows);
/* jj_spool_replay's each for the writer w: the piece appended as
** jj_writer_append_rows appends it, no row ended in it (the caller counts
** them with the last).  0, or 1 with the writer's error. */
int jj_writer_append_piece(void *w, const char *p, size_t len);

/* ---------------------------------------------------------------------- */
/* JSON values of a JSON column, canonical (json_canon.c)                  */
/* ---------------------------------------------------------------------- */

/* Check p[0..len) as one JSON value (JSON whitespace around it allowed),
** nesting at most max_depth arrays and objects.  With out NULL: 1 when the
** text is the value's canonical form already (SPEC.md, "j (JSON)"), 0
** when it is valid but spelled otherwise.  With out: the canonical form
** appended to out, and 1 or 0 as before.  -1 when it is not valid JSON:
** *bad the offset in p of the problem, *code (JJ_ERR_SYNTAX, JJ_ERR_UTF8,
** JJ_ERR_DEPTH, JJ_ERR_NOMEM) and *why a static reason; out is as it was. */
int jj_json_canon(const char *p, size_t len, unsigned max_depth, jj_buf *out,
                  size_t *bad, jj_code *code, const char **why);
/* 1 when p[0..len), known to be valid JSON (the row scan has checked an
** array or object), is in its canonical form; one pass, no allocation. */
int jj_json_is_canonical(const char *p, size_t len);

#endif /* JJ_INTERNAL_H */
