/*
** jalapenojson.h — read and write jalapenojson, a typed, terse table format
** that is also one valid JSON text.  See SPEC.md for the format.
**
**   {"jalapenojson":1,"columns":["id","joined"],"types":["i","d"],"rows":[
**   [1,"2024-03-01"],
**   [2,null]
**   ]}
**
** Building: C11; `make` builds the library as build/libjalapenojson.a.  A
** program needs zlib and brotli (Debian: zlib1g-dev, libbrotli-dev) and the
** math library, after the library on the link line:
**
**   cc -Icore app.c build/libjalapenojson.a -lz -lbrotlienc -lbrotlidec -lm
**
** A worked example, reading and writing (tests/core/test_header_example.c
** compiles and runs this very text, and fails when the copies differ):
**
**   #include <stdio.h>
**   #include "jalapenojson.h"
**
**   // Sum the float column "price" of a document file (plain, gzip or
**   // brotli).  Returns 0 with *sum set, or -1 with the error printed.
**   static int sum_price(const char *path, double *sum) {
**     jj_error err;
**     jj_file f;
**     jj_doc *doc = NULL;
**     jj_cursor *c = NULL;
**     int rc = -1, col;
**     *sum = 0;
**     if (jj_file_open(path, 0, &f, &err) != JJ_OK) goto done;
**     if (!(doc = jj_parse(f.data, f.len, &err))) goto done;
**     if (!(c = jj_cursor_new(doc, &err))) goto done;
**     if ((col = jj_schema_find(jj_doc_schema(doc), "price", 5)) < 0) {
**       snprintf(err.message, sizeof err.message, "no column \"price\"");
**       goto done;
**     }
**     while ((rc = jj_cursor_next(c, &err)) == 1) {
**       double v;
**       // 1: a value, 0: null, -1: an error (a bad value, or not a float
**       // column); err.message names the row and the column.
**       int r = jj_cursor_double(c, (size_t)col, &v, &err);
**       if (r < 0) {
**         rc = -1;
**         break;
**       }
**       if (r == 1) *sum += v;
**     }
**   done:  // rc: 0 after the last row, -1 on an error
**     if (rc < 0) fprintf(stderr, "%s: %s\n", path, err.message);
**     jj_cursor_free(c);  // cursors first; every free takes NULL
**     jj_doc_free(doc);
**     jj_file_close(&f);  // safe after a failed open too
**     return rc;
**   }
**
**   // Write a two-row document into memory.  Returns it (NUL-terminated,
**   // *len bytes) for the caller to free with jj_free, or NULL.
**   static char *two_rows(size_t *len) {
**     jj_error err;
**     jj_schema *s = jj_schema_new();
**     jj_writer *w = NULL;
**     char *doc = NULL;
**     if (jj_schema_add(s, "item", 4, JJ_TEXT, NULL, &err) == JJ_OK &&
**         jj_schema_add(s, "price", 5, JJ_FLOAT, NULL, &err) == JJ_OK &&
**         (w = jj_writer_new(s, NULL, NULL, &err)) != NULL) {
**       // After a failed call every later one returns the same error,
**       // so the last call's code is enough.
**       jj_writer_text(w, "tea", 3);
**       jj_writer_double(w, 2.5);
**       jj_writer_end_row(w);
**       jj_writer_text(w, "cake", 4);
**       jj_writer_null(w);
**       jj_writer_end_row(w);
**       if (jj_writer_finish(w) == JJ_OK)
**         doc = jj_writer_take(w, len);
**       else
**         err = *jj_writer_error(w);
**     }
**     if (!doc) fprintf(stderr, "%s\n", err.message);
**     jj_writer_free(w);  // the writer before the schema it borrows
**     jj_schema_free(s);
**     return doc;
**   }
**
** Ownership in one paragraph:
**   - jj_parse() borrows the bytes: they must stay valid and unchanged until
**     jj_doc_free().  The document never copies them.
**   - A cursor borrows its document; values borrow the cursor (text that had
**     escapes, decoded bytes) and stay valid until the cursor moves to another
**     row or is freed.  Text without escapes points straight into the bytes.
**   - A nested table (jj_cursor_table) is a document of its own that borrows
**     the parent's bytes and schema; free it with jj_doc_free() before the
**     parent.
**   - Everything returned as `char *` / `unsigned char *` that the caller
**     owns is released with jj_free().
**
** The rules every declaration follows (each says what is particular to it):
**   - Results: jj_code is JJ_OK (0) or the failure's code; a function that
**     returns a pointer returns NULL on failure; the cursor's int results are
**     1 / 0 / -1 as documented.  A failure fills *err when the function takes
**     one; `err` may always be NULL (the code or NULL still tells failure).
**   - NULL handles: every *_free accepts NULL and does nothing; a function
**     that only reports on a handle (jj_schema_columns, jj_doc_schema,
**     jj_cursor_row, jj_writer_rows, jj_writer_error, ...) answers the value
**     its comment gives for NULL; a function that takes a jj_error fails with
**     JJ_ERR_USAGE.  The one exception is the writer: the calls that write
**     (jj_writer_set_meta to jj_writer_finish) need a writer, NULL is
**     undefined behaviour there, so check what jj_writer_new returns.
**   - Other pointers: an out-parameter (out, p, len, days, ...) must point
**     to writable memory unless its comment says "may be NULL"; input bytes
**     given as (pointer, length) may be NULL only when the length is 0.
**
** Threads: there is no global state.  Distinct handles may be used from
** distinct threads at the same time; one handle is not safe to share without
** a lock.  Nothing here depends on the locale.
**
** Checks: jj_parse() reads and checks the header only.  The structure of a
** row (JSON syntax, value count) is checked when a cursor moves onto it; a
** value (its type, range, UTF-8, calendar) is checked when it is read, so a
** column that is never read costs nothing.  jj_doc_validate() checks every
** value of every row now (jj_parse_opts with JJ_PARSE_VALIDATE does the same
** at parse time).  Whatever is read is checked first: no accessor returns an
** unchecked or wrong value.
*/
#ifndef JALAPENOJSON_H
#define JALAPENOJSON_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The library's version, defined here once: the command-line tool, the
** SQLite extension (jj_version()), the Python and JavaScript packages, the
** pkg-config file and the shared library's file name all take it from
** these lines (the Makefile and python/setup.py read them; tests check the
** rest).  JJ_VERSION_NUMBER orders versions as integers, as
** SQLITE_VERSION_NUMBER does: MAJOR * 1000000 + MINOR * 1000 + PATCH. */
#define JJ_VERSION_MAJOR 0
#define JJ_VERSION_MINOR 1
#define JJ_VERSION_PATCH 0
#define JJ_VERSION_STRING "0.1.0"
#define JJ_VERSION_NUMBER \
  (JJ_VERSION_MAJOR * 1000000 + JJ_VERSION_MINOR * 1000 + JJ_VERSION_PATCH)

/* The version of the format this library reads and writes (the value of a
** document's "jalapenojson" key). */
#define JJ_FORMAT_VERSION 1

/* The version of the library linked in, which may differ from the header
** a program was compiled with when the library is shared: "0.1.0" and
** 1000 for 0.1.0.  Compare jj_version_number() with JJ_VERSION_NUMBER to
** tell. */
const char *jj_version(void);
int jj_version_number(void);

/* ===================================================================== */
/* Errors                                                                 */
/* ===================================================================== */

/* Every failure has one of these codes.  SPEC.md lists each with the
** smallest input that triggers it. */
typedef enum jj_code {
  JJ_OK = 0,
  JJ_ERR_NOMEM,       /* an allocation failed */
  JJ_ERR_USAGE,       /* the API was misused: wrong accessor for the column's
                      ** type, column out of range, writer value count */
  JJ_ERR_IO,          /* a file could not be opened, read or written */
  JJ_ERR_COMPRESSION, /* a gzip or brotli stream is corrupt or truncated */
  JJ_ERR_SYNTAX,      /* the bytes are not valid JSON */
  JJ_ERR_DEPTH,       /* nested tables or arrays deeper than the limit */
  JJ_ERR_HEADER,      /* valid JSON, but not a jalapenojson header: a key
                      ** missing or out of order, rows not last */
  JJ_ERR_VERSION,     /* "jalapenojson" is not 1 */
  JJ_ERR_SCHEMA,      /* columns/types wrong: duplicate or non-string name,
                      ** lengths differ, unknown type */
  JJ_ERR_ROW,         /* a row is not an array of exactly one value per column */
  JJ_ERR_COUNT,       /* the header's "count" disagrees with the rows */
  JJ_ERR_TYPE,        /* a value of the wrong JSON kind for its column */
  JJ_ERR_RANGE,       /* an integer that is not integral or overflows int64;
                      ** a float that overflows a double */
  JJ_ERR_UTF8,        /* invalid UTF-8 or a lone surrogate escape */
  JJ_ERR_DATE,        /* not a valid YYYY-MM-DD date */
  JJ_ERR_TIMESTAMP,   /* not a valid timestamp */
  JJ_ERR_BASE64,      /* not valid padded standard base64 */
  JJ_ERR_LIMIT,       /* a size limit was reached: a document larger than
                      ** max_size once read or decompressed */
  JJ_ERR_INTERRUPTED  /* the caller's jj_interrupt callback asked to stop */
} jj_code;

/* Where and what.  `message` is complete and names the place, e.g.
**   row 1042, column "joined", byte 65123: "2023-02-29" is not a date
**   (2023 is not a leap year)
** `row` is 1-based (0 when the error is not inside a row), `column` is
** 0-based (-1 when none), `offset` is the byte offset in the document
** (JJ_NO_OFFSET when there is none, e.g. for a writer error).  Row and column
** refer to the outermost table; a nested table's place is spelled out in the
** message ("row 3, column "items", row 2, column "sku": ...").  A plain
** value with no pointers: copy it freely.  A function that succeeds may
** leave *err as it was or clear it (code JJ_OK); only a failure's is
** meaningful. */
#define JJ_NO_OFFSET ((size_t)-1)
typedef struct jj_error {
  jj_code code;
  size_t offset;
  int64_t row;
  int column;
  char message[320]; /* NUL-terminated UTF-8 */
} jj_error;

/* A short static name for a code ("syntax", "date", ...): never NULL, and
** "unknown" for a value that is not a jj_code. */
const char *jj_code_name(jj_code code);

/* Where output bytes go (writer, compressors, jj_cursor_object).  Return 0
** on success, nonzero to stop the producer (it then fails with JJ_ERR_IO).
** The data is valid only during the call. */
typedef int (*jj_sink)(void *ctx, const char *data, size_t len);

/* Release memory the library handed to the caller (jj_writer_take,
** jj_decompress, jj_schema_to_json ...). NULL is a no-op. */
void jj_free(void *p);

/* ===================================================================== */
/* Types and schemas                                                      */
/* ===================================================================== */

/* Column types.  The enum value of a scalar type is its letter in the
** format; JJ_TABLE is a nested table (an object in "types"). */
typedef enum jj_type {
  JJ_INT = 'i',
  JJ_FLOAT = 'f',
  JJ_TEXT = 's',
  JJ_DATE = 'd',
  JJ_TIMESTAMP = 't',
  JJ_LOCAL_TIMESTAMP = 'l', /* a date and time without zone */
  JJ_BOOL = 'b',
  JJ_BYTES = 'x',
  JJ_JSON = 'j',
  JJ_TABLE = '{'
} jj_type;

/* A schema: the ordered column names and types of a table.  A document owns
** its schema (jj_doc_schema); a caller builds one for the writer with
** jj_schema_new/jj_schema_add and frees it with jj_schema_free.  The
** accessors below take NULL as a schema of no columns. */
typedef struct jj_schema jj_schema;

/* Number of columns (0 for NULL). */
size_t jj_schema_columns(const jj_schema *s);
/* Name of column `col`: UTF-8, NUL-terminated (a name never contains
** U+0000), owned by the schema; its length goes to *len (len may be NULL).
** NULL when s is NULL or col is out of range (*len untouched). */
const char *jj_schema_name(const jj_schema *s, size_t col, size_t *len);
/* Type of column `col`; 0 (no jj_type) when s is NULL or col is out of
** range. */
jj_type jj_schema_type(const jj_schema *s, size_t col);
/* Schema of a nested-table column, owned by s; NULL when `col` is not a
** nested table, is out of range, or s is NULL. */
const jj_schema *jj_schema_table(const jj_schema *s, size_t col);
/* Index of the column named name[0..len) (exact byte comparison), or -1
** (also when s or name is NULL). */
int jj_schema_find(const jj_schema *s, const char *name, size_t len);
/* 1 if a and b have the same names and types, recursively; else 0 and, if
** `column` is not NULL, *column is the first column that differs (or the
** shorter schema's column count when only the counts differ).  Two NULLs
** are equal; NULL and a schema differ at column 0. */
int jj_schema_equal(const jj_schema *a, const jj_schema *b, size_t *column);

/* A new empty schema for the caller to free with jj_schema_free, or NULL
** when out of memory. */
jj_schema *jj_schema_new(void);
/* Append a column.  The name is copied and must be valid UTF-8, non-empty,
** without U+0000 and distinct from the others.  For JJ_TABLE, `table` is
** the nested schema and becomes owned by `s` (even on failure: do not free
** it yourself); for other types it must be NULL.  Returns JJ_OK, or the
** error's code with *err filled (JJ_ERR_USAGE when s is NULL, name is NULL
** with len > 0, the type is unknown or `table` does not fit it;
** JJ_ERR_SCHEMA, JJ_ERR_UTF8, JJ_ERR_NOMEM); s is unchanged on failure. */
jj_code jj_schema_add(jj_schema *s, const char *name, size_t len, jj_type type,
                      jj_schema *table, jj_error *err);
/* A deep copy for the caller to free with jj_schema_free; NULL when s is
** NULL or out of memory. */
jj_schema *jj_schema_copy(const jj_schema *s);
/* Free a schema the caller owns (from jj_schema_new or jj_schema_copy) with
** its nested schemas; never a document's (jj_doc_schema).  NULL is a
** no-op. */
void jj_schema_free(jj_schema *s);
/* The schema as the canonical JSON of its header:
**   {"columns":[...],"types":[...]}
** Returns a NUL-terminated string to free with jj_free (length in *len if
** not NULL), or NULL when s is NULL or out of memory. */
char *jj_schema_to_json(const jj_schema *s, size_t *len);

/* ===================================================================== */
/* Reading                                                                */
/* ===================================================================== */

/* A parsed document (jj_parse): its schema and where its rows are.  It
** borrows the bytes it was parsed from. */
typedef struct jj_doc jj_doc;
/* A position in a document's rows and the values of the current row
** (jj_cursor_new). */
typedef struct jj_cursor jj_cursor;

/* Options for jj_parse_opts. */
#define JJ_PARSE_VALIDATE 0x1u  /* check every row and value during parse */

/* The code that finds the structure of each row (every row's structure is
** checked before its values are returned, on every path; the paths accept
** the same rows and give the same values and the same errors, only their
** speed differs).  JJ_SCAN_AUTO, the default, takes the widest this
** build and CPU have; the others force a path, for tests and benchmarks:
** the portable scalar code, SSE2 (x86-64's baseline), AVX2 (x86 with a
** CPU that has AVX2, PCLMUL, POPCNT and BMI1, checked at run time).  A path the build
** or CPU lacks gives the widest below it; jj_doc_scan says which one a
** document took. */
typedef enum jj_scan {
  JJ_SCAN_AUTO = 0,
  JJ_SCAN_SCALAR = 1,
  JJ_SCAN_SSE2 = 2,
  JJ_SCAN_AVX2 = 3
} jj_scan;
/* The jj_parse_opts flag asking for scanner s (a jj_scan), e.g.
** jj_parse_opts(data, len, JJ_PARSE_SCAN(JJ_SCAN_SCALAR), 0, &err).  No
** such flag: JJ_SCAN_AUTO.  Nested tables read from the document use the
** same path. */
#define JJ_PARSE_SCAN(s) (((unsigned)(s) & 3u) << 4)

/* Default limit of nested arrays/objects inside one value. */
#define JJ_DEFAULT_MAX_DEPTH 64

/* Parse the header of the document in data[0..len) (no NUL needed; a UTF-8
** BOM is an error).  The document borrows `data`.  Returns a document for
** the caller to free with jj_doc_free, or NULL with *err filled (NULL data
** with len 0 is an empty document: JJ_ERR_SYNTAX; with len > 0,
** JJ_ERR_USAGE). */
jj_doc *jj_parse(const char *data, size_t len, jj_error *err);
/* jj_parse with flags (JJ_PARSE_VALIDATE: also jj_doc_validate, and fail
** with its error) and a depth limit (0: JJ_DEFAULT_MAX_DEPTH). */
jj_doc *jj_parse_opts(const char *data, size_t len, unsigned flags,
                      unsigned max_depth, jj_error *err);
/* The row scanner the document uses (never JJ_SCAN_AUTO; JJ_SCAN_SCALAR
** for NULL). */
jj_scan jj_doc_scan(const jj_doc *doc);
/* Free a document: its schema and row index, never the bytes it borrows.
** NULL is a no-op.  Free its cursors and the nested tables read from it
** (jj_cursor_table) first. */
void jj_doc_free(jj_doc *doc);

/* The document's schema, owned by the document (valid until jj_doc_free);
** NULL for NULL. */
const jj_schema *jj_doc_schema(const jj_doc *doc);
/* The header's "count", or -1 when the header has none (or doc is NULL). */
int64_t jj_doc_declared_count(const jj_doc *doc);
/* Number of rows.  Finds the row boundaries (not the values) once, then
** answers from memory.  Returns -1 on error with *err filled (JJ_ERR_USAGE
** for NULL). */
int64_t jj_doc_rows(jj_doc *doc, jj_error *err);
/* Check every row and every value.  JJ_OK or the first error (JJ_ERR_USAGE
** for NULL). */
jj_code jj_doc_validate(jj_doc *doc, jj_error *err);
/* jj_doc_validate that calls interrupt(interrupt_ctx) about every MiB of
** rows checked (nested tables' included); a nonzero return stops it with
** JJ_ERR_INTERRUPTED ("interrupted").  interrupt NULL: jj_doc_validate.
** The callback is a jj_interrupt (declared with the compressors, below).
** Nothing is allocated for the caller; err may be NULL. */
jj_code jj_doc_validate_poll(jj_doc *doc, int (*interrupt)(void *ctx),
                             void *interrupt_ctx, jj_error *err);
/* How many rows, from the first, have a known place: seeking to one of
** them (jj_cursor_seek) takes constant time, seeking past them scans the
** structure of the rows in between.  Grows as cursors scan; 0 for NULL.
** *at (may be NULL) receives the byte offset in the document where the
** last of them starts (0 when none is known), so a caller seeking far in
** steps can tell how many bytes each step scanned. */
int64_t jj_doc_rows_known(const jj_doc *doc, uint64_t *at);
/* The bytes the document reads, borrowed from the caller of jj_parse (for a
** nested table, its part of them); the length goes to *len (len may be
** NULL).  NULL for NULL (*len untouched). */
const char *jj_doc_bytes(const jj_doc *doc, size_t *len);

/* A cursor over rows, positioned before the first row, for the caller to
** free with jj_cursor_free before the document.  Several cursors may share
** a document.  NULL on error with *err filled (JJ_ERR_USAGE for a NULL
** doc, JJ_ERR_NOMEM). */
jj_cursor *jj_cursor_new(jj_doc *doc, jj_error *err);
/* Free a cursor; the values it handed out in its own memory expire.  NULL
** is a no-op. */
void jj_cursor_free(jj_cursor *c);
/* Move to the next row: 1 when on a row, 0 at the end (after checking the
** closing brackets and the header's "count"; again 0 on later calls), -1
** on error with *err filled (JJ_ERR_USAGE for NULL).  After -1 the cursor
** is not on a row. */
int jj_cursor_next(jj_cursor *c, jj_error *err);
/* Move to row `row` (1-based).  1 when on it, 0 if there is no such row
** (row < 1 moves before the first row), -1 on error (JJ_ERR_USAGE for
** NULL).  Moving forward scans only the structure of the rows in between;
** rows seen once are found again in constant time. */
int jj_cursor_seek(jj_cursor *c, int64_t row, jj_error *err);
/* Move up to n rows forward as n calls of jj_cursor_next would, checking
** the structure of every row passed as they do (a broken row is never
** passed over, and the rows count exactly), but making only the row it
** stops on readable: faster when the rows between are not read (counting,
** a far seek).  Returns how many rows it moved: n; fewer at the end of the
** rows (the cursor is then at the end, as after jj_cursor_next returned
** 0); or fewer before a row with an error (the cursor is then on the last
** good row, and the next call reports the error).  -1 with *err when the
** first row it tries fails, JJ_ERR_USAGE for NULL or n < 0. */
int64_t jj_cursor_skip(jj_cursor *c, int64_t n, jj_error *err);
/* The current 1-based row number (0 before the first row, and for NULL). */
int64_t jj_cursor_row(const jj_cursor *c);
/* The document the cursor reads (not owned by the cursor); NULL for NULL. */
jj_doc *jj_cursor_doc(const jj_cursor *c);
/* Say which columns the caller will read: cols[0..n), 0-based, in any
** order (repeats allowed); n 0 (cols may then be NULL) means every column,
** the default.  Nothing else changes: every row's structure is still
** checked before the cursor stands on it, and every column can still be
** read.  But the common row (strings and numbers within 128 bytes) then
** has only the selected columns' values located, which makes reading a
** few columns of many faster; reading another column of such a row scans
** the row again (once a row).  A hint: documents of 64 columns or more
** ignore it, and so do the WebAssembly builds (the JS API reads its own
** way).
** Applies from the call on, to the current row too.  JJ_OK, or
** JJ_ERR_USAGE (c NULL, cols NULL with n > 0, a column out of range: the
** selection is then as it was).  Nothing is allocated here; the first
** read of a column not selected gives the cursor a second array of one
** span per column (owned, freed by jj_cursor_free; out of memory is that
** read's JJ_ERR_NOMEM).  err may be NULL. */
jj_code jj_cursor_select(jj_cursor *c, const size_t *cols, size_t n, jj_error *err);

/* Value accessors.  All take the 0-based column and return
**   1  the value is present and *out is set,
**   0  the value is null (*out untouched),
**  -1  error (*err filled): the value does not fit the column's type, or
**      the call is misused (JJ_ERR_USAGE): c is NULL, the cursor is not on
**      a row, col is out of range, or the accessor does not match the
**      column's type.
** err may be NULL; the out-parameters may not. */

/* 1 if the value is null, 0 if not, -1 when c is NULL, not on a row, or
** col is out of range.  It has no err to fill: the typed accessors report
** the same misuse as JJ_ERR_USAGE with a message. */
int jj_cursor_is_null(jj_cursor *c, size_t col);
/* A JJ_INT value (a JSON integer that fits int64). */
int jj_cursor_int(jj_cursor *c, size_t col, int64_t *out, jj_error *err);
/* A JJ_FLOAT value; "NaN", "Infinity", "-Infinity" give those values. */
int jj_cursor_double(jj_cursor *c, size_t col, double *out, jj_error *err);
/* A JJ_BOOL value: *out is 1 for true, 0 for false. */
int jj_cursor_bool(jj_cursor *c, size_t col, int *out, jj_error *err);
/* Text of a JJ_TEXT, JJ_DATE or JJ_TIMESTAMP column (dates and timestamps
** are checked first).  *p points into the document when the string has no
** escapes, otherwise into cursor-owned memory valid until the cursor moves.
** Valid UTF-8, not NUL-terminated, may contain U+0000. */
int jj_cursor_text(jj_cursor *c, size_t col, const char **p, size_t *len,
                   jj_error *err);
/* A JJ_DATE as days since 1970-01-01 (negative before). */
int jj_cursor_date(jj_cursor *c, size_t col, int32_t *days, jj_error *err);

/* A timestamp as numbers: the instant in UTC plus the written zone. */
typedef struct jj_timestamp {
  int64_t seconds;      /* seconds since 1970-01-01T00:00:00Z */
  int32_t nanos;        /* 0..999999999 */
  int16_t zone_minutes; /* the zone written: +05:30 is 330, Z is 0 */
  uint8_t digits;       /* fraction digits written, 0..9 */
} jj_timestamp;
/* A JJ_TIMESTAMP value, checked, as numbers.  A JJ_LOCAL_TIMESTAMP value
** reads here too: its seconds count the wall-clock time written as if it
** were UTC, zone_minutes is 0 (it has no zone), digits as written. */
int jj_cursor_timestamp(jj_cursor *c, size_t col, jj_timestamp *out,
                        jj_error *err);
/* Decoded bytes of a JJ_BYTES column, in cursor-owned memory valid until
** the cursor moves (*p is not NULL even for 0 bytes). */
int jj_cursor_bytes(jj_cursor *c, size_t col, const unsigned char **p,
                    size_t *len, jj_error *err);
/* A JJ_JSON value: its canonical JSON text (SPEC.md, "j (JSON)"), valid
** UTF-8 JSON without whitespace outside strings, numbers as written, keys
** in their order.  Checked first (JSON grammar, UTF-8, the depth limit).
** *p points into the document when the value is written canonically (as
** every writer of the format writes it), otherwise into cursor-owned
** memory valid until the cursor moves.  A JSON null is the column's null
** (0); a string value comes with its quotes ("\"a\"", 3 bytes). */
int jj_cursor_json(jj_cursor *c, size_t col, const char **p, size_t *len,
                   jj_error *err);
/* A nested table value as a document of its own (schema
** jj_schema_table(schema, col)).  *out borrows the parent document's bytes
** and schema, not the cursor: free it with jj_doc_free before the parent
** document (the cursor may move or be freed first). */
int jj_cursor_table(jj_cursor *c, size_t col, jj_doc **out, jj_error *err);
/* The value's JSON text exactly as it stands in the document (structure
** checked, value not converted), any column type, for copying.  Returns 1
** with *p pointing into the document's bytes, 0 for null, -1 on misuse. */
int jj_cursor_raw(jj_cursor *c, size_t col, const char **p, size_t *len,
                  jj_error *err);
/* The current row as one plain JSON object keyed by column name, for tools
** that want self-describing records:
**   {"id":1,"price":19.99,"joined":"2024-03-01","ok":true,"items":[{...}]}
** Every value is checked first.  Floats are written shortest (NaN and the
** infinities as the strings "NaN", "Infinity", "-Infinity"), dates and
** timestamps as their text, bytes as base64 text, nested tables as arrays
** of objects, nulls as null.  The whole object goes to sink(ctx, ...) in
** one call once every value is read, so a bad value writes nothing.  JJ_OK
** or an error: JJ_ERR_IO when the sink fails, JJ_ERR_USAGE when c is NULL
** or not on a row or sink is NULL, a value's error. */
jj_code jj_cursor_object(jj_cursor *c, jj_sink sink, void *ctx,
                         jj_error *err);

/* ===================================================================== */
/* What each type is called                                               */
/* ===================================================================== */

/* Every type's letter and names come from one table (core/types.c), so the
** reader, the writer, the messages and the SQLite extension spell them
** alike.  Each function answers for every jj_type; for a value that is no
** jj_type it returns 0 or NULL as said.  Strings are static. */

/* The type's letter in a header's "types": 'i', 'f', 's', 'd', 't', 'l', 'b',
** 'x', 'j'.  0 for JJ_TABLE (a nested table is an object there, not a letter)
** and for anything that is no type. */
char jj_type_letter(jj_type t);
/* The scalar type whose letter is `letter`; 0 for any other value ('{'
** and 0 included).  jj_type_from_letter(jj_type_letter(t)) == t for every
** scalar type. */
jj_type jj_type_from_letter(int letter);
/* The type as messages name a column's type, with its article: "an
** integer", "a float", "a text", "a date", "a timestamp", "a local
** timestamp", "a boolean", "a bytes", "a JSON", "a nested table" (as in
** "column "x" is a date column").  NULL for anything that is no type. */
const char *jj_type_name(jj_type t);
/* The SQL declared type of a column: "INTEGER", "REAL", "TEXT", "DATE",
** "TIMESTAMP", "DATETIME" (a local timestamp), "BOOLEAN", "BLOB", "JSON";
** "TEXT" for a nested table, which SQL
** reads as its document's JSON text.  NULL for anything that is no type. */
const char *jj_type_sql(jj_type t);
/* The short name tools spell a type with (the SQLite extension's
** "name:i" arguments and schema listings): the letter as a string for a
** scalar type, "jj" for a nested table.  NULL for anything that is no
** type. */
const char *jj_type_short(jj_type t);
/* The type whose short name is exactly p[0..len), or 0 (p may be NULL). */
jj_type jj_type_from_short(const char *p, size_t len);

/* ===================================================================== */
/* One value of any type                                                  */
/* ===================================================================== */

/* A value of any column type, as jj_cursor_value reads it: `type` says
** which member of `u` holds it.  What the pointers point to lives exactly
** as long as with the per-type accessors: until the cursor moves to
** another row or is freed (text without escapes points into the
** document's bytes).  A nested table is the one thing the caller owns.
** text, date and timestamp begin alike (p, then len), so u.text.p and
** u.text.len are the text of a date or a timestamp too.  A
** JJ_LOCAL_TIMESTAMP value is in u.timestamp as well (its ts as
** jj_cursor_timestamp reads it: no zone). */
typedef struct jj_value {
  jj_type type; /* the column's type, also when the value is null */
  int is_null;  /* 1: the value is null and nothing in u is set */
  union {
    int64_t i; /* JJ_INT */
    double f;  /* JJ_FLOAT; NaN and the infinities included */
    int b;     /* JJ_BOOL: 1 true, 0 false */
    struct {
      const char *p; /* JJ_TEXT: valid UTF-8, not NUL-terminated, may
                     ** contain U+0000 */
      size_t len;
    } text;
    struct {
      const char *p; /* JJ_DATE: its checked text "YYYY-MM-DD" (len 10) */
      size_t len;
      int32_t days;  /* days since 1970-01-01 (negative before) */
    } date;
    struct {
      const char *p;   /* JJ_TIMESTAMP, JJ_LOCAL_TIMESTAMP: its checked
                       ** text, as written */
      size_t len;
      jj_timestamp ts; /* the same instant as numbers: UTC seconds, nanos,
                       ** the written zone and fraction digits */
    } timestamp;
    struct {
      const unsigned char *p; /* JJ_BYTES: the decoded bytes */
      size_t len;
    } bytes;
    struct {
      const char *p; /* JJ_JSON: the canonical JSON text, as jj_cursor_json
                     ** gives it */
      size_t len;
    } json;
    jj_doc *table; /* JJ_TABLE: a document of its own, as jj_cursor_table
                   ** gives it (schema jj_schema_table(schema, col)).  The
                   ** caller owns it: free it with jj_doc_free, before the
                   ** parent document */
  } u;
} jj_value;

/* Read column `col` of the cursor's row, whatever its type, into *out.
** Returns as the accessors do: 1 the value is in out->u; 0 null
** (out->is_null set); -1 error (*err filled, *out unspecified).  out->type
** is the column's type whenever 1 or 0 is returned.  The value is checked
** exactly as the accessor of its type checks it, and an error for a bad
** value is that accessor's error, to the letter (jj_cursor_text's for a
** text column, jj_cursor_date's for a date, ...); only a call that cannot
** read (no cursor, not on a row, column out of range) names
** jj_cursor_value.  Costs: a timestamp is parsed once for its text and its
** numbers; a date costs its day count more than jj_cursor_text; a nested
** table allocates a document as jj_cursor_table does.  Where the type is
** known, the per-type accessor is the fastest read.  err may be NULL. */
int jj_cursor_value(jj_cursor *c, size_t col, jj_value *out, jj_error *err);

/* 1 when p[0..len) is UTF-8 as the reader and writer require it (RFC 3629:
** no overlong forms, no surrogates, nothing above U+10FFFF), else 0 with
** *bad (may be NULL) the offset of the first byte that is not. */
int jj_utf8_check(const char *p, size_t len, size_t *bad);

/* ===================================================================== */
/* Calendar helpers (used by reader and writer, handy for callers)        */
/* ===================================================================== */

/* Check p[0..len) as a date "YYYY-MM-DD" (years 0000-9999, the Gregorian
** calendar); JJ_OK with *days set (days since 1970-01-01; days may be NULL)
** or JJ_ERR_DATE with a message that says why ("2023 is not a leap
** year"). */
jj_code jj_date_parse(const char *p, size_t len, int32_t *days, jj_error *err);
/* Write the date `days` since 1970-01-01 as "YYYY-MM-DD" (exactly 10 bytes
** to out, no NUL).  Returns JJ_OK, or JJ_ERR_DATE (out untouched, no
** jj_error) when outside years 0000-9999. */
jj_code jj_date_format(int32_t days, char out[10]);
/* Check p[0..len) as a timestamp YYYY-MM-DDTHH:MM:SS[.fraction](Z|+HH:MM);
** JJ_OK with *out set (out may be NULL) or JJ_ERR_TIMESTAMP with *err
** filled. */
jj_code jj_timestamp_parse(const char *p, size_t len, jj_timestamp *out,
                           jj_error *err);
/* Write *ts in its zone with ts->digits fraction digits to out (no NUL);
** returns the length (at most 35), or 0 when a field is out of range or the
** date is outside years 0000-9999 (out untouched). */
size_t jj_timestamp_format(const jj_timestamp *ts, char out[40]);
/* Check p[0..len) as a local timestamp (no zone):
** YYYY-MM-DDTHH:MM:SS[.fraction], or with a space for the T when
** `space_ok` (SQLite's datetime() writes that form).  JJ_OK with *out set
** (out may be NULL: seconds count the wall-clock time as if it were UTC,
** zone_minutes 0) or JJ_ERR_TIMESTAMP with *err filled. */
jj_code jj_local_timestamp_parse(const char *p, size_t len, int space_ok,
                                 jj_timestamp *out, jj_error *err);
/* Write *ts as a local timestamp YYYY-MM-DDTHH:MM:SS[.fraction] with
** ts->digits fraction digits (its zone_minutes ignored); returns the
** length (at most 29), or 0 as jj_timestamp_format. */
size_t jj_local_timestamp_format(const jj_timestamp *ts, char out[40]);

/* Numbers as a document writes them (no NUL; out may not be NULL):
** jj_double_format writes the shortest decimal that reads back to exactly
** v, in the canonical layout ("1.0", "1e+16", "-0.0"), and "NaN",
** "Infinity", "-Infinity" for the rest (without quotes); returns the
** length, at most 25.  jj_int_format writes v in decimal; at most 20. */
size_t jj_double_format(double v, char out[32]);
size_t jj_int_format(int64_t v, char out[21]);

/* ===================================================================== */
/* Writing                                                                */
/* ===================================================================== */

/* A writer of one document (jj_writer_new).  Every call below except
** jj_writer_new, jj_writer_new_alloc, jj_writer_rows, jj_writer_length,
** jj_writer_take, jj_writer_error and jj_writer_free needs a writer: w
** must not be NULL. */
typedef struct jj_writer jj_writer;

/* A writer for documents of schema `s` (borrowed: it must outlive the
** writer).  With sink NULL the document is built in memory (jj_writer_take);
** otherwise bytes are passed to sink(ctx, ...) in chunks of bounded size
** (the writer buffers at most 64 KiB plus one value).  The header is written
** with the first value (or by jj_writer_finish).  Returns a writer for the
** caller to free with jj_writer_free, or NULL with *err filled
** (JJ_ERR_USAGE when s is NULL or a table of it has no columns,
** JJ_ERR_NOMEM). */
jj_writer *jj_writer_new(const jj_schema *s, jj_sink sink, void *ctx,
                         jj_error *err);
/* Where a writer that builds in memory gets its document's buffer, for a
** caller that hands the document on to code that frees it its own way
** (the SQLite extension: sqlite3_realloc64 memory for
** sqlite3_result_text64 with sqlite3_free).  realloc(ctx, p, n) returns a
** block of at least n bytes (n > 0) holding p's bytes, p NULL for a new
** block, or NULL when it cannot (p is then left as it was); free(ctx, p)
** releases a block realloc returned (never called with NULL). */
typedef struct jj_allocator {
  void *(*realloc)(void *ctx, void *p, size_t n);
  void (*free)(void *ctx, void *p);
  void *ctx;
} jj_allocator;
/* jj_writer_new(s, NULL, NULL, err), but the document's buffer comes from
** *a (the struct is copied; a->ctx must outlive the writer; a NULL: the
** library's own, as jj_writer_new).  A refused allocation fails the
** writer (or this call) with JJ_ERR_NOMEM.  jj_writer_take then hands
** over memory of the allocator: the caller frees it with a->free, not
** jj_free; jj_writer_free releases a buffer not taken with a->free.  The
** writer's small bookkeeping (itself, its frames, the meta copy) is the
** library's own memory, as always. */
jj_writer *jj_writer_new_alloc(const jj_schema *s, const jj_allocator *a,
                               jj_error *err);
/* Optional metadata for the header, written as "meta" between "types" and
** "rows": any JSON value (checked to be one valid JSON text, and copied;
** a later call replaces it).  Must be called before the first value.
** JJ_OK or an error code, which makes the writer fail like any other. */
jj_code jj_writer_set_meta(jj_writer *w, const char *json, size_t len);

/* Values, in column order.  Each returns JJ_OK or an error code with the
** writer's error filled (jj_writer_error); after an error every later
** call returns that same code and writes nothing (jj_writer_take returns
** NULL; jj_writer_error, jj_writer_rows and jj_writer_free work as ever).
** The value must match the column's type: a date column takes
** jj_writer_date (checked) or jj_writer_date_days, and so on;
** jj_writer_null fits any column.  Too many values for the row, or a call
** after jj_writer_finish, is JJ_ERR_USAGE. */

/* A null, in a column of any type. */
jj_code jj_writer_null(jj_writer *w);
/* A JJ_INT value. */
jj_code jj_writer_int(jj_writer *w, int64_t v);
/* A JJ_FLOAT value, written shortest; NaN and infinities as "NaN",
** "Infinity", "-Infinity". */
jj_code jj_writer_double(jj_writer *w, double v);
/* A JJ_BOOL value: any nonzero v is true. */
jj_code jj_writer_bool(jj_writer *w, int v);
/* A JJ_TEXT value, p[0..len) in UTF-8 (copied; escaped as JSON needs);
** invalid UTF-8 is an error (JJ_ERR_UTF8). */
jj_code jj_writer_text(jj_writer *w, const char *p, size_t len);
/* A JJ_DATE value as text "YYYY-MM-DD", checked (JJ_ERR_DATE). */
jj_code jj_writer_date(jj_writer *w, const char *p, size_t len);
/* A JJ_DATE value as days since 1970-01-01 (JJ_ERR_DATE outside years
** 0000-9999). */
jj_code jj_writer_date_days(jj_writer *w, int32_t days);
/* A JJ_TIMESTAMP value as text, checked (JJ_ERR_TIMESTAMP) and written as
** given. */
jj_code jj_writer_timestamp(jj_writer *w, const char *p, size_t len);
/* A JJ_TIMESTAMP value from numbers (ts must not be NULL), written as
** jj_timestamp_format writes it (JJ_ERR_TIMESTAMP when it cannot). */
jj_code jj_writer_timestamp_value(jj_writer *w, const jj_timestamp *ts);
/* A JJ_LOCAL_TIMESTAMP value as text, checked (JJ_ERR_TIMESTAMP): the T
** form is written as given, SQLite's form with a space for the T is
** written with the T. */
jj_code jj_writer_local_timestamp(jj_writer *w, const char *p, size_t len);
/* A JJ_LOCAL_TIMESTAMP value from numbers (ts must not be NULL), written
** as jj_local_timestamp_format writes it. */
jj_code jj_writer_local_timestamp_value(jj_writer *w, const jj_timestamp *ts);
/* A JJ_BYTES value, p[0..len), written as base64. */
jj_code jj_writer_bytes(jj_writer *w, const void *p, size_t len);
/* A JJ_JSON value: p[0..len) is one JSON value as text (any JSON: an
** object, array, string, number, true or false; whitespace anywhere JSON
** allows it), checked (JJ_ERR_SYNTAX, JJ_ERR_UTF8, JJ_ERR_DEPTH beyond
** JJ_DEFAULT_MAX_DEPTH less two levels a nested table it stands in) and
** written in its canonical form: no whitespace, strings re-escaped as
** text is, numbers and key order as given.  The text "null" writes null. */
jj_code jj_writer_json(jj_writer *w, const char *p, size_t len);
/* Begin a JJ_TABLE value: then rows of the nested schema follow (each
** ended with jj_writer_end_row), then jj_writer_end_table. */
jj_code jj_writer_begin_table(jj_writer *w);
/* End the nested table begun last; it counts as one value of the
** enclosing row.  JJ_ERR_USAGE with no table open or a row unfinished. */
jj_code jj_writer_end_table(jj_writer *w);
/* Copy column `col` of the cursor's current row (checked, re-encoded
** canonically; nested tables are copied row by row). The source column's
** type must equal the writer's column type (and nested schemas match).
** A reader error becomes the writer's error; a NULL cursor is
** JJ_ERR_USAGE. */
jj_code jj_writer_copy(jj_writer *w, jj_cursor *c, size_t col);
/* Copy every remaining row of the cursor (jj_cursor_next to the end) into
** the current table (the top level, or a nested table opened with
** jj_writer_begin_table), each row ended.  The cursor's schema must equal
** the table's; the writer must be at the start of a row.  A reader error
** becomes the writer's error; a NULL cursor is JJ_ERR_USAGE. */
jj_code jj_writer_copy_rows(jj_writer *w, jj_cursor *c);
/* End the current row: every column must have had a value (JJ_ERR_USAGE
** otherwise). */
jj_code jj_writer_end_row(jj_writer *w);
/* Rows ended so far at the top level; -1 for NULL. */
int64_t jj_writer_rows(const jj_writer *w);
/* Bytes of the document so far: the header once written, then every value
** and row (in memory the buffer's length, until jj_writer_take hands it
** over; with a sink what was passed on plus what waits in the buffer); 0
** for NULL.  Lets a caller with a size
** limit stop between rows instead of after the whole document. */
uint64_t jj_writer_length(const jj_writer *w);
/* Write the closing "]}" (and the header, when no value was written) and
** flush everything to the sink.  JJ_ERR_USAGE with a row or nested table
** unfinished, or when called twice. */
jj_code jj_writer_finish(jj_writer *w);
/* After jj_writer_finish with sink NULL: hand over the document (*len
** bytes, NUL-terminated for convenience; len may be NULL) to the caller,
** who frees it with jj_free (with the allocator's free after
** jj_writer_new_alloc).  NULL if there is nothing to take: w is NULL,
** not finished, has failed, writes to a sink, or was taken already. */
char *jj_writer_take(jj_writer *w, size_t *len);
/* The writer's error (code JJ_OK when none), owned by the writer and valid
** until jj_writer_free.  For NULL (jj_writer_new failed), a static error
** with code JJ_ERR_USAGE and message "no writer": never NULL. */
const jj_error *jj_writer_error(const jj_writer *w);
/* Free the writer and what it holds (not the schema, not a taken
** document).  NULL is a no-op. */
void jj_writer_free(jj_writer *w);

/* ===================================================================== */
/* Compression and files                                                  */
/* ===================================================================== */

typedef enum jj_compression {
  JJ_PLAIN = 0,
  JJ_GZIP = 1,
  JJ_BROTLI = 2
} jj_compression;

/* JJ_GZIP if the bytes start with gzip's magic, else JJ_PLAIN (brotli has
** no magic number: callers decide by file name or by trying). */
jj_compression jj_detect_compression(const void *data, size_t len);
/* The compression a file name implies: ".gz" -> JJ_GZIP, ".br" ->
** JJ_BROTLI, else JJ_PLAIN. */
jj_compression jj_compression_for_path(const char *path);

/* A streaming decompressor: feed compressed bytes with jj_inflate_write,
** decompressed bytes go to sink; jj_inflate_finish checks the stream is
** complete.  `limit` caps the decompressed size (0: no cap), a guard
** against decompression bombs: JJ_ERR_LIMIT "decompressed size exceeds the
** limit of N bytes", checked before any byte beyond it reaches the sink.
** Like any producer, a nonzero return of the sink stops the stream
** (JJ_ERR_IO "write failed"); the stream is then dead and jj_inflate_free
** is all that is left to call. */
typedef struct jj_inflater jj_inflater;
jj_inflater *jj_inflate_new(jj_compression kind, uint64_t limit, jj_sink sink,
                            void *ctx, jj_error *err);
jj_code jj_inflate_write(jj_inflater *z, const void *p, size_t len,
                         jj_error *err);
jj_code jj_inflate_finish(jj_inflater *z, jj_error *err);
void jj_inflate_free(jj_inflater *z);

/* A streaming compressor: itself usable as a jj_sink (jj_deflate_sink with
** the jj_deflater as ctx).  level: gzip 1-9, brotli 0-11; -1 for the
** default (gzip 6, brotli 5). */
typedef struct jj_deflater jj_deflater;
jj_deflater *jj_deflate_new(jj_compression kind, int level, jj_sink sink,
                            void *ctx, jj_error *err);
int jj_deflate_sink(void *deflater, const char *p, size_t len);
jj_code jj_deflate_finish(jj_deflater *z, jj_error *err);
void jj_deflate_free(jj_deflater *z);

/* Whole buffers: decompress into a new buffer (free with jj_free), at most
** `limit` bytes (0: no cap; JJ_ERR_LIMIT beyond, as jj_inflate_new). */
jj_code jj_decompress(jj_compression kind, const void *in, size_t len,
                      uint64_t limit, char **out, size_t *out_len,
                      jj_error *err);
/* Compress into a new buffer (free with jj_free). */
jj_code jj_compress(jj_compression kind, int level, const void *in,
                    size_t len, char **out, size_t *out_len, jj_error *err);

/* Polled by long operations (reading, decompressing) about every MiB of
** work; a nonzero return stops the operation with JJ_ERR_INTERRUPTED
** ("interrupted").  The SQLite extension passes one that reports
** sqlite3_interrupt(). */
typedef int (*jj_interrupt)(void *ctx);
/* Poll `fn(ctx)` while this inflater works (NULL: never): after every MiB
** of input consumed plus output produced, so also at least once per
** jj_inflate_write call given a MiB or more of input. */
void jj_inflate_set_interrupt(jj_inflater *z, jj_interrupt fn, void *ctx);

/* How jj_file_open_opts reads.  A zeroed struct is the safe default: a
** regular file read into memory, no size limit, the whole document. */
#define JJ_FILE_MMAP 0x1u     /* map a plain file instead of reading it: no
                              ** copy, but a file truncated while mapped kills
                              ** the process with SIGBUS (opt in knowingly) */
#define JJ_FILE_ANY_KIND 0x2u /* also read FIFOs, devices and /proc or /sys
                              ** files (read to the end, still capped by
                              ** max_size: set one, /dev/zero never ends);
                              ** without it they and sockets are refused
                              ** before any byte is read.  Never directories */
typedef struct jj_file_opts {
  uint64_t max_size;      /* the most document bytes to hold, after
                          ** decompression (JJ_ERR_LIMIT beyond); 0: none */
  unsigned flags;         /* JJ_FILE_MMAP, JJ_FILE_ANY_KIND */
  size_t prefix;          /* nonzero: read (or decompress) only the first
                          ** `prefix` document bytes, enough for a header;
                          ** jj_file.complete says if that was all of it */
  jj_interrupt interrupt; /* polled while reading and decompressing; NULL */
  void *interrupt_ctx;
} jj_file_opts;

/* A document's bytes loaded from a file: read into memory (or mapped with
** JJ_FILE_MMAP) when plain, decompressed into memory when its magic says
** gzip or its name ends in .br.  Close with jj_file_close. */
typedef struct jj_file {
  const char *data;           /* the document bytes */
  size_t len;
  jj_compression compression; /* how the file was stored */
  int complete;               /* 1: data is the whole document; 0: only the
                              ** prefix that jj_file_opts.prefix asked for */
  void *map_;                 /* private: mmap'd region, or NULL */
  size_t map_len_;            /* private */
  char *heap_;                /* private: bytes read or decompressed */
  uint64_t dev_, ino_, size_; /* private: the file read, for jj_file_changed */
  int64_t mtime_ns_, ctime_ns_; /* private */
} jj_file;
/* Open `path` as `opts` say (NULL: the defaults above).  Before reading a
** byte, a path that is not a regular file is refused unless
** JJ_FILE_ANY_KIND; the open never blocks (O_NONBLOCK until fstat).  On
** error *f is zeroed (jj_file_close is still safe) and *err says what and
** names the file (here and in jj_atomic_open's messages in double quotes,
** '"', '\\', control characters and invalid UTF-8 escaped as in \x1b, cut
** with "..." after 256 bytes: a name may come from an untrusted place):
**   JJ_ERR_IO     cannot open "x.jj": No such file or directory
**                 "x" is a directory            (even with JJ_FILE_ANY_KIND)
**                 "x" is not a regular file (a FIFO)    (or a character
**                 device, a block device, a socket)
**                 "/proc/self/status" is a /proc or /sys file, not a
**                 regular file                  (Linux: procfs, sysfs and
**                 the pseudo file systems under /sys)
**   JJ_ERR_LIMIT  "x.jj" is 5000 bytes, over the limit of 4096 bytes
**                 (a plain regular file, refused before reading it, also
**                 when only a prefix was asked for)
**                 "x.jj.gz": decompressed size exceeds the limit of N bytes
**                 "x": size exceeds the limit of N bytes    (a stream)
**   JJ_ERR_INTERRUPTED  "x.jj": interrupted
**   JJ_ERR_COMPRESSION  "x.jj.gz": gzip stream is truncated (and the other
**                 inflater messages, after the name)
** A plain file is never read past the size fstat gave at open; if it
** shrinks meanwhile, data is what could be read.  A compressed file is
** streamed from the file in 64 KiB reads, so a prefix read holds at most
** `prefix` bytes plus constant buffers however large the document.  data
** is NUL-terminated when it was read or decompressed (not when mapped).
** With JJ_FILE_ANY_KIND a read may wait for a FIFO's writer; the interrupt
** is polled between reads, not during one. */
jj_code jj_file_open_opts(const char *path, const jj_file_opts *opts,
                          jj_file *f, jj_error *err);
/* jj_file_open_opts with only a size limit (0: none): the defaults above,
** so a plain file is read into memory, not mapped. */
jj_code jj_file_open(const char *path, uint64_t limit, jj_file *f,
                     jj_error *err);
/* 1 if the file now at `path` is not the one f was read from (another
** file, or its size, modification or change time changed), 0 if it is the
** same, -1 if it cannot be examined (treat as changed).  Compares st_dev,
** st_ino, st_size, st_mtim and st_ctim (nanoseconds) with those fstat gave
** at open (a rewrite that restores the modification time, as cp -p does,
** still changes st_ctim);
** `path` is followed if it is a symbolic link, as the open did. */
int jj_file_changed(const jj_file *f, const char *path);
/* Release what jj_file_open set up; the struct is zeroed.  NULL is a
** no-op. */
void jj_file_close(jj_file *f);

/* The compression to write `path` with: ".gz" -> JJ_GZIP, ".br" ->
** JJ_BROTLI, any other name -> JJ_PLAIN, except names ending in a suffix of
** another compressor or compressed archive (.zst, .xz, .bz2, .lz4, .lzma,
** .lz, .Z, .zip, .7z, .tgz, .tbz2, .txz; case-sensitive like .gz and .br),
** which are JJ_ERR_USAGE errors naming the supported ones:
**   "out.jj.zst": .zst compression is not supported (use .gz, .br or no
**   suffix)
** *kind (may be NULL) is JJ_PLAIN on error. */
jj_code jj_compression_for_write(const char *path, jj_compression *kind,
                                 jj_error *err);

/* Atomic file writing: bytes go to a temporary file ".NAME.jj-tmp-XXXXXX"
** in the target's directory; jj_atomic_commit flushes it to disk and
** renames it over the target; jj_atomic_abort (or any failure) removes it,
** so the old file stays as it was and no partial file is left.  Usable as a
** jj_sink via jj_atomic_sink.  Only a regular file is replaced: a target
** that is a FIFO, device, socket or directory is refused; a symbolic link
** is followed and its target replaced (a dangling link is refused, and so
** is a link in a sticky world-writable directory such as /tmp owned by
** neither this process's user nor the directory's owner, and a file there
** owned by another user is not replaced).  The
** replaced file's mode (and owner, where permitted) is kept; a new file gets
** 0666 & ~umask.  Errors (JJ_ERR_IO) name the target as given:
**   "x" is not a regular file (a FIFO); only regular files are replaced
**   "x" is a directory
**   "x" is a symbolic link to a file that does not exist
**   "/dev/stdout" is a pipe, not a regular file; only regular files are
**   replaced                      (a link the kernel follows to a pipe)
**   "x" is a symbolic link owned by another user (uid 1001) in a sticky
**   world-writable directory; it is not followed
**   "x" is owned by another user (uid 1001) in a sticky world-writable
**   directory; it is not replaced (the new file would be theirs)
**   "x/" is not a file name
**   cannot create a temporary file for "x": Permission denied
**   cannot write "x": No space left on device        (also "rename to")
** NAME is cut to its first 230 bytes in the temporary name, so that it
** stays a valid name for any target name that is. */
typedef struct jj_atomic jj_atomic;
jj_atomic *jj_atomic_open(const char *path, jj_error *err);
int jj_atomic_sink(void *atomic, const char *p, size_t len);
jj_code jj_atomic_commit(jj_atomic *a, jj_error *err); /* frees a */
void jj_atomic_abort(jj_atomic *a);                    /* frees a */

/* Write data[0..len) to `path` atomically, compressed as `kind` (level -1:
** default).  *written (may be NULL) receives the bytes written to disk.
** A name jj_compression_for_write refuses (.zst, ...) is refused here too,
** before anything is created; `kind` itself is not matched to the name. */
jj_code jj_file_write(const char *path, const char *data, size_t len,
                      jj_compression kind, int level, uint64_t *written,
                      jj_error *err);

/* ===================================================================== */
/* Converting                                                             */
/* ===================================================================== */

/* JSON and CSV in, a jalapenojson document out (jj_convert), and back
** (jj_to_text).  docs/convert.md has the rules of
** type inference; this section has the calls.  In short:
**   - JSON is one array of objects, or objects one after another (NDJSON);
**     CSV/TSV is RFC 4180 with a header row.  Each object or record is a
**     row; a JSON key or a CSV header name is a column, in order of first
**     appearance.
**   - Types are inferred from every value of the input, never a sample:
**     a first pass reads everything and decides the schema, a second pass
**     writes through jj_writer.  Memory does not grow with the input: it
**     holds a window of the input (1 MiB, or the largest row), the column
**     states and the writer's buffer.
**   - An explicit schema ("id:i,joined:d") overrides the inference of the
**     columns it names; a value that does not fit it is a located error,
**     or a null with JJ_CONVERT_BAD_TO_NULL.
**   - Each decision that is not obvious (a mixed column, JSON kept as
**     text, a renamed CSV header ...) is told to opts->note as a sentence.
** Errors name the input, the row, the column, the byte and the value:
**   people.json: row 3, column "age", byte 118: "12abc" is not an integer
**   (the schema says age:i) */

/* Input and output formats.  JJ_FORMAT_AUTO (input only) looks at the first
** byte that is not whitespace (after a UTF-8 byte order mark): '[' is
** JSON, '{' is NDJSON, anything else CSV (the delimiter then detected). */
typedef enum jj_format {
  JJ_FORMAT_AUTO = 0,
  JJ_FORMAT_JSON,   /* one array of objects (as output: "[\n{...},\n...\n]") */
  JJ_FORMAT_NDJSON, /* one object per line */
  JJ_FORMAT_CSV,    /* RFC 4180, header row; delimiter from the options */
  JJ_FORMAT_TSV     /* CSV with a tab as the delimiter */
} jj_format;

/* A short static name: "auto", "json", "ndjson", "csv", "tsv"; "unknown"
** for other values.  Never NULL. */
const char *jj_format_name(jj_format f);

/* An input the converter reads twice (once to infer, once to write), so a
** whole input never has to be held in memory.
**   read    fills buf with up to cap bytes (fewer is fine); returns the
**           count, 0 at the end, -1 on an error (the converter then fails
**           with JJ_ERR_IO "NAME: cannot read the input").  Must not be
**           NULL.  The first pass reads from where the input stands.
**   rewind  goes back to where the first pass began, for the second pass;
**           0 on success.
**           NULL for an input that cannot (a pipe): the converter then
**           copies what the first pass reads into a temporary file
**           (tmpfile(), as large as the input) and reads that back.
**   ctx     passed to both.
**   name    for messages ("people.json: row 3 ..."); may be NULL (no name).
** The private fields are the helpers' state: the struct must not be moved
** or copied after jj_input_memory / jj_input_file (ctx points into it). */
typedef struct jj_input {
  long (*read)(void *ctx, char *buf, size_t cap);
  int (*rewind)(void *ctx);
  void *ctx;
  const char *name;
  const char *mem_;   /* private: jj_input_memory's bytes */
  size_t mem_len_;    /* private */
  size_t mem_pos_;    /* private */
  void *file_;        /* private: jj_input_file's FILE * */
  long long start_;   /* private: where the file was when given */
} jj_input;

/* An input over p[0..len) (borrowed: it must stay valid while the input is
** used; p may be NULL only when len is 0).  `name` (may be NULL) is
** borrowed too.  Never fails. */
void jj_input_memory(jj_input *in, const void *p, size_t len,
                     const char *name);
/* An input over an open stream f (a FILE *, borrowed, not closed; NULL
** makes an input whose first read fails), from where it stands now.  A
** seekable f is rewound to that place for the second pass (fseeko); for
** one that is not (a pipe, a terminal) rewind is NULL and the converter
** spools.  `name` (may be NULL) is borrowed.  Never fails. */
void jj_input_file(jj_input *in, void *f, const char *name);

/* Flags of jj_convert_opts. */
#define JJ_CONVERT_CSV_BOOLEANS 0x1u /* CSV fields "true"/"false" (exactly,
                                     ** lowercase) are booleans; without it
                                     ** they are text */
#define JJ_CONVERT_BAD_TO_NULL 0x2u  /* a value that does not fit the
                                     ** explicit schema becomes null (counted
                                     ** and told to `note`) instead of an
                                     ** error */
#define JJ_CONVERT_CSV_EMPTY_IS_TEXT 0x4u /* an unquoted empty CSV field is
                                          ** the empty text, not null (null
                                          ** is then only null_text, when it
                                          ** is not empty) */
#define JJ_CONVERT_CSV_NULL_PADDING 0x8u /* a CSV record with fewer fields
                                         ** than the header gets nulls for
                                         ** the missing last ones (counted,
                                         ** and told to `note`) */
#define JJ_CONVERT_CSV_NO_HEADER 0x10u /* CSV: no header record; every
                                       ** record is a row, the columns named
                                       ** column_1, column_2, ... (told to
                                       ** `note`) */

/* The most patterns jj_convert_opts.date_formats (and timestamp_formats)
** may hold. */
#define JJ_CONVERT_MAX_FORMATS 16

/* The most texts jj_convert_opts.null_texts may hold. */
#define JJ_CONVERT_MAX_NULLS 16
/* The most markers jj_convert_opts.null_for may hold. */
#define JJ_CONVERT_MAX_NULL_FOR 64

/* A CSV text that means null in one column only, besides null_text and
** null_texts (which mean null in every column). */
typedef struct jj_convert_null_for {
  const char *column; /* the column's name as the document has it (after
                      ** column_N and NAME_2 renaming) */
  const char *text;   /* an unquoted field equal to it is null there */
} jj_convert_null_for;

/* What the converter does with a CSV/TSV row that cannot be read as the
** header and the schema say (a wrong field count, a value that does not
** fit a forced type, bad UTF-8). */
typedef enum jj_on_error {
  JJ_ON_ERROR_FAIL = 0, /* the conversion stops with the row's error */
  JJ_ON_ERROR_SKIP,     /* the row is set aside: given to opts->reject,
                        ** counted, told to `note`, not written */
  JJ_ON_ERROR_NULL      /* a value that does not fit becomes null (as
                        ** JJ_CONVERT_BAD_TO_NULL); a row with a wrong field
                        ** count is set aside as with SKIP */
} jj_on_error;

/* How to convert.  A zeroed struct is the default: format and delimiter
** detected, everything inferred, CSV nulls are unquoted empty fields, no
** notes, no interrupt, no size limit, rows up to 64 MiB. */
typedef struct jj_convert_opts {
  jj_format from;        /* JJ_FORMAT_AUTO, or the input's format (JSON and
                         ** NDJSON both accept either form) */
  char delimiter;        /* CSV: 0 detects among , \t ; | from the first
                         ** records (docs/convert.md, "Input forms"; JJ_FORMAT_TSV: tab); a
                         ** quote, CR or LF is JJ_ERR_USAGE */
  const char *schema;    /* NULL, or types for some columns, overriding the
                         ** inference: "id:i,joined:d,tags:s", a nested
                         ** table as "items:{qty:f}" (its other columns
                         ** still inferred); names may be JSON strings
                         ** ("\"a,b\":s"); letters as in SPEC.md */
  unsigned flags;        /* JJ_CONVERT_* */
  const char *null_text; /* CSV: an unquoted field equal to this is null;
                         ** NULL or "" means the empty field */
  const char *const *null_texts; /* CSV: more texts that mean null, as
                         ** null_text does ("NA", "."), n_null_texts of them
                         ** (at most JJ_CONVERT_MAX_NULLS); with them and
                         ** null_text NULL the empty field is null only when
                         ** "" is among them */
  size_t n_null_texts;
  void (*note)(void *ctx, const char *msg); /* each decision, a sentence
                         ** without a trailing period (may be NULL) */
  void *note_ctx;
  jj_interrupt interrupt; /* polled about every MiB read (may be NULL) */
  void *interrupt_ctx;
  uint64_t max_size;     /* the most input bytes to read; 0: no limit
                         ** (JJ_ERR_LIMIT beyond) */
  size_t max_row;        /* the largest row (a JSON object with everything
                         ** in it, a CSV record) held at once; 0: 64 MiB
                         ** (JJ_ERR_LIMIT beyond, located) */
  jj_on_error on_error;  /* CSV/TSV rows that do not fit; JSON input: only
                         ** NULL has an effect (bad values null) */
  /* each row set aside, in input order, during the first pass: its error
  ** (row, byte offset, column index or -1, message as the failure would
  ** have said) and its column's name (NULL, 0 when the error is the
  ** row's); may be NULL */
  void (*reject)(void *ctx, const jj_error *err, const char *column,
                 size_t column_len);
  void *reject_ctx;
  /* CSV: per-column null markers, n_null_for of them (at most
  ** JJ_CONVERT_MAX_NULL_FOR); a column not in the input is JJ_ERR_USAGE */
  const jj_convert_null_for *null_for;
  size_t n_null_for;
  char thousands; /* CSV: 0, or the thousands separator of numbers
                  ** ("1,234.5"); not a digit, sign, '.', 'e', quote or
                  ** control byte but tab (JJ_ERR_USAGE) */
  /* Dates and timestamps in other spellings than ISO 8601 (which always
  ** counts): strftime-style patterns, at most JJ_CONVERT_MAX_FORMATS of each ("%m/%d/%Y",
  ** "%d %b %Y"; timestamps "%Y/%m/%d %H:%M", "%m/%d/%Y %I:%M %p %z"; the
  ** language and the spellings detected are docs/convert.md's, "Dates and
  ** timestamps in other spellings").  None given: a text column whose
  ** every value is one detected spelling becomes d or l (noted).  Given:
  ** they replace that kind's detected spellings, and a column the schema
  ** types d, t or l reads them too.  "iso" alone: ISO 8601 only (that
  ** kind's detection off).  A pattern that does not compile is
  ** JJ_ERR_USAGE naming it and the byte. */
  const char *const *date_formats;
  size_t n_date_formats;
  const char *const *timestamp_formats; /* with %z: t; without: l */
  size_t n_timestamp_formats;
} jj_convert_opts;

/* What a conversion found.  The caller owns `schema` and frees it with
** jj_schema_free (NULL after a failure). */
typedef struct jj_convert_result {
  int64_t rows;          /* rows written (jj_convert_infer: rows read) */
  jj_schema *schema;     /* the schema written, inferred and overridden */
  jj_format format;      /* the input's format as read (never AUTO) */
  char delimiter;        /* CSV/TSV: the delimiter used; else 0 */
  uint64_t bytes;        /* input bytes read by one pass */
  uint64_t nulled;       /* values made null by JJ_CONVERT_BAD_TO_NULL */
  uint64_t rejected;     /* CSV rows set aside (JJ_ON_ERROR_SKIP, NULL) */
  uint64_t padded;       /* CSV rows padded (JJ_CONVERT_CSV_NULL_PADDING) */
  unsigned decisions;    /* sentences given to opts->note */
} jj_convert_result;

/* Convert `in` (read twice, see jj_input) as `opts` say (NULL: defaults) to
** a jalapenojson document written to sink(sink_ctx, ...) in chunks (the
** writer's; compression is the caller's: a jj_deflater is a sink).  Nothing
** is written before the first pass has read the whole input, so an
** inference error or a value that does not fit the schema leaves the sink
** untouched.  `res` (may be NULL) receives the result; its schema is the
** caller's to free.  Returns JJ_OK or an error with *err filled (err may be
** NULL), the place named as above (JJ_ERR_USAGE when in, in->read or sink
** is NULL, or the schema option does not parse; JJ_ERR_SYNTAX for broken
** JSON or CSV and a JSON row that is not an object; JJ_ERR_UTF8,
** JJ_ERR_DEPTH; JJ_ERR_SCHEMA for an empty or duplicate key, too many
** columns, a schema naming a column the input lacks; JJ_ERR_ROW for a CSV
** record with the wrong field count; JJ_ERR_TYPE, JJ_ERR_RANGE,
** JJ_ERR_DATE, JJ_ERR_TIMESTAMP, JJ_ERR_BASE64 for a value that does not
** fit the explicit schema; JJ_ERR_LIMIT, JJ_ERR_INTERRUPTED, JJ_ERR_IO,
** JJ_ERR_NOMEM).  After a failure in the second pass (the sink failed, the
** input changed) the sink may have received part of a document. */
jj_code jj_convert(const jj_input *in, const jj_convert_opts *opts,
                   jj_sink sink, void *sink_ctx, jj_convert_result *res,
                   jj_error *err);
/* The first pass only: read all of `in` once and infer the schema (notes
** and errors as jj_convert), for a preview.  res must not be NULL; on
** JJ_OK res->schema is the caller's to free, res->rows the rows read. */
jj_code jj_convert_infer(const jj_input *in, const jj_convert_opts *opts,
                         jj_convert_result *res, jj_error *err);

/* The table format a file name says, looking past a final .gz or .br:
** .json -> JJ_FORMAT_JSON, .ndjson or .jsonl -> JJ_FORMAT_NDJSON, .csv ->
** JJ_FORMAT_CSV, .tsv -> JJ_FORMAT_TSV (ASCII case ignored); anything else
** (.jj, no extension) JJ_FORMAT_AUTO: a jalapenojson document. */
jj_format jj_format_for_path(const char *path);
/* Open a JSON, NDJSON, CSV or TSV file (plain, gzip or brotli) as a
** jalapenojson document: the file read as jj_file_open_opts reads one
** (the same refusals, fopts->max_size on the bytes read, the identity
** jj_file_changed compares), then converted into memory by jj_convert as
** copts say (NULL: defaults; copts->from JJ_FORMAT_AUTO detects) — f->data
** is the document, f->compression the file's.  fopts->max_size also bounds
** the document made (JJ_ERR_LIMIT); prefix and JJ_FILE_MMAP do not apply.
** res (may be NULL) as jj_convert's: its schema is the caller's.  Errors
** name the file ("people.csv: row 3, ...").  On error *f is zeroed. */
jj_code jj_file_convert(const char *path, const jj_file_opts *fopts,
                        const jj_convert_opts *copts, jj_file *f,
                        jj_convert_result *res, jj_error *err);

/* Flags of jj_to_text_opts. */
#define JJ_TO_TEXT_CRLF 0x1u        /* CSV records end in CRLF, not LF */
#define JJ_TO_TEXT_NO_HEADER 0x2u   /* CSV without the header record */
#define JJ_TO_TEXT_QUOTE_SPACE 0x4u /* CSV: also quote text with a leading
                                    ** or trailing space */

/* How to write a document as text.  A zeroed struct: CSV with ',' and LF, a header, nulls as
** empty fields. */
typedef struct jj_to_text_opts {
  char delimiter;        /* CSV: 0 is ','; JJ_FORMAT_TSV always tab */
  unsigned flags;        /* JJ_TO_TEXT_* */
  const char *null_text; /* CSV spelling of null (NULL: the empty field) */
  jj_interrupt interrupt; /* polled about every MiB written (may be NULL) */
  void *interrupt_ctx;
} jj_to_text_opts;

/* Write every row of `doc` from the first (a cursor of its own; doc is
** only read) to sink as `to`:
**   JJ_FORMAT_JSON    "[\n" objects separated by ",\n" "\n]\n" ("[]\n"
**                     for no rows)
**   JJ_FORMAT_NDJSON  one object per line, each ending in "\n"
**   JJ_FORMAT_CSV/TSV a header record, then a record per row
** Objects are jj_cursor_object's: floats shortest, "NaN"/"Infinity" as
** strings, dates and timestamps as text, bytes as base64, nested tables as
** arrays of objects.  CSV: RFC 4180 quoting of fields holding the
** delimiter, '"', CR or LF (and the empty text, and text equal to
** null_text, so that neither reads back as null); null as an unquoted empty
** field (or null_text); integers and floats as in JSON (NaN, Infinity,
** -Infinity bare); booleans true/false; nested tables as their JSON text.
** Every value is checked as it is read: a bad one stops the writing
** with its error (JJ_OK, or JJ_ERR_USAGE for a NULL doc or sink or an unknown
** format, JJ_ERR_IO when the sink fails, JJ_ERR_INTERRUPTED, a reader
** error).  Memory: one row at a time. */
jj_code jj_to_text(jj_doc *doc, jj_format to, const jj_to_text_opts *opts,
                   jj_sink sink, void *sink_ctx, jj_error *err);

/* ===================================================================== */
/* Building a document from values                                       */
/* ===================================================================== */

/* A row builder: values from a host (SQLite, Python, JavaScript, a C
** program) in, one document out, with the columns and types inferred by
** the converter's rules (docs/convert.md, "The type of a column"): a key
** first seen at row N adds a column (null in the rows before), integers
** and floats make a float column when every integer is exact, text that is
** a date or a timestamp makes a date or timestamp column, rows make a
** nested table, a column of mixed kinds becomes text with a note, bytes
** mixed with anything else are an error.  The same values give the same
** document and the same notes as the converter gives for their JSON.
**
** Each row: for each value, jj_builder_key names its column (in any order,
** any subset), then one value call.  A nested table is a value:
** jj_builder_begin_table, then its rows (keys and values, each row ended
** with jj_builder_end_row), then jj_builder_end_table.  jj_builder_finish
** decides the types and writes the document.  Rows wait in memory up to
** opts.memory bytes, then in a temporary file (tmpfile()), so memory stays
** flat whatever the row count.  Every call returns JJ_OK or an error code
** with the builder's error filled (jj_builder_error), the place named:
**   rows: row 3, column "price": "12abc" is not a float (exactly) (the
**   schema says price:f)
** after which every later call returns that code. */
typedef struct jj_builder jj_builder;

/* Flags of jj_build_opts. */
#define JJ_BUILD_BAD_TO_NULL 0x1u /* a value that does not fit the explicit
                                  ** schema becomes null (counted, and told
                                  ** to `note`) instead of an error */
#define JJ_BUILD_FIXED_COLUMNS 0x2u /* the top table has only the columns
                                  ** named with jj_builder_column (another
                                  ** key is JJ_ERR_SCHEMA); when every one
                                  ** has a scalar type and jj_builder_start
                                  ** gave the sink, rows are written as
                                  ** they end, none kept; when some are
                                  ** inferred, rows are written as they
                                  ** end with the first row's types while
                                  ** the values keep to them (the same
                                  ** document: only faster) */

/* How to build.  A zeroed struct: every type inferred, no notes, rows in
** memory up to 16 MiB, no length limit. */
typedef struct jj_build_opts {
  const char *schema; /* NULL, or types for some columns, as
                      ** jj_convert_opts.schema: "id:i,items:{qty:f}" */
  unsigned flags;     /* JJ_BUILD_* */
  const char *name;   /* what the rows are, for messages (may be NULL) */
  void (*note)(void *ctx, const char *msg); /* each decision, a sentence
                      ** without a trailing period (may be NULL) */
  void *note_ctx;
  size_t memory;      /* bytes of rows held in memory before they move to
                      ** a temporary file; 0: 16 MiB */
  const jj_allocator *alloc; /* where an in-memory document's buffer comes
                      ** from (jj_writer_new_alloc); NULL: the library's */
  jj_interrupt interrupt; /* polled about every MiB written (may be NULL) */
  void *interrupt_ctx;
  uint64_t max_length; /* the most bytes the document may have; 0: no
                      ** limit (JJ_ERR_LIMIT beyond, found as soon as a
                      ** row passes it) */
  const char *schema_label; /* what the schema option is called in its
                      ** errors; NULL: "the schema option" */
} jj_build_opts;

/* A new builder (opts NULL: defaults; the strings are borrowed until
** jj_builder_free), or NULL with *err filled: JJ_ERR_USAGE when the schema
** option does not parse, JJ_ERR_NOMEM. */
jj_builder *jj_builder_new(const jj_build_opts *opts, jj_error *err);
/* Name a column of the top table before any row, so that columns come in
** this order even when a row gives them in another or leaves them out
** (a host with a fixed list of columns: a query's, a function's names).
** Right after jj_builder_begin_table it names a column of that nested
** table (a typed host's nested table: a document's columns, even when it
** has no rows); each value may name its columns again, with the same types
** (JJ_ERR_SCHEMA otherwise).
** `type` 0: the schema option's type when it names the column, else
** inferred; a type: that one, unless the schema option names the column
** (the option wins: a user's explicit types over a host's declared ones).
** JJ_TABLE: a nested table whose columns are inferred. */
jj_code jj_builder_column(jj_builder *b, const char *name, size_t len,
                          jj_type type);
/* The explicit type of the top table's column named name[0..len) (the
** schema option's or jj_builder_column's), 0 when it is inferred or there
** is no such column (or b is NULL).  A host asks it to give a column's
** values as that type needs (text as numbers, documents as rows). */
jj_type jj_builder_column_type(const jj_builder *b, const char *name,
                               size_t len);
/* Where the document goes, before the first row (optional; sink NULL:
** into memory, for jj_builder_take).  Rows are then written as they end
** when their types are known (JJ_BUILD_FIXED_COLUMNS), and
** jj_builder_finish ignores its own sink and context. */
jj_code jj_builder_start(jj_builder *b, jj_sink sink, void *ctx);
/* The column of the next value by its place among the current table's
** columns (those jj_builder_column named first, in order): for a host
** with fixed columns, no lookup by name. */
jj_code jj_builder_key_at(jj_builder *b, size_t col);
/* The column of the next value in the current row (UTF-8, not empty,
** without U+0000; given once per row). */
jj_code jj_builder_key(jj_builder *b, const char *name, size_t len);
/* A value with its column's place, in one call: jj_builder_key_at(b, col)
** and then the value call, with the same checks, errors, notes and
** document.  For a host with fixed columns (JJ_BUILD_FIXED_COLUMNS) that
** gives each row's values in the columns' order: from the second row on,
** a value of the kind its column has held goes to the document at once,
** without being kept or looked at again; any other the general way. */
jj_code jj_builder_null_at(jj_builder *b, size_t col);
jj_code jj_builder_int_at(jj_builder *b, size_t col, int64_t v);
jj_code jj_builder_double_at(jj_builder *b, size_t col, double v);
jj_code jj_builder_text_at(jj_builder *b, size_t col, const char *p,
                           size_t len);
/* A value of a row given whole (jj_builder_row): the kinds a host with
** fixed columns gives most, or JJ_CELL_HOST for one the host gives itself
** (its callback). */
typedef enum jj_cell_kind {
  JJ_CELL_NULL,
  JJ_CELL_INT,    /* u.i */
  JJ_CELL_DOUBLE, /* u.d */
  JJ_CELL_TEXT,   /* u.text: UTF-8 (checked), not NUL-terminated */
  JJ_CELL_HOST
} jj_cell_kind;
typedef struct jj_cell {
  jj_cell_kind kind;
  union {
    int64_t i;
    double d;
    struct {
      const char *p;
      size_t len;
    } text;
  } u;
} jj_cell;
/* Gives the value of a JJ_CELL_HOST cell of column col, its key given: one
** value call (jj_builder_bytes, _json, _begin_table ...).  JJ_OK or the
** builder's failure. */
typedef jj_code (*jj_cell_host)(void *ctx, jj_builder *b, size_t col);
/* A whole row of the top table: cells[i] is the value of column i (n of
** them, the columns jj_builder_column named), then the row's end: the
** same checks, errors, notes and document as jj_builder_*_at for each and
** jj_builder_end_row.  host(ctx, b, i) gives the value of a JJ_CELL_HOST
** cell (host NULL: such a cell is JJ_ERR_USAGE).  While rows are written as
** they come, the state that lets a value go to the document at once is
** checked once for the row, not once for each value.  JJ_OK or the
** failure. */
jj_code jj_builder_row(jj_builder *b, const jj_cell *cells, size_t n,
                       jj_cell_host host, void *ctx);
/* The values. */
jj_code jj_builder_null(jj_builder *b);
jj_code jj_builder_bool(jj_builder *b, int v);
jj_code jj_builder_int(jj_builder *b, int64_t v);
jj_code jj_builder_double(jj_builder *b, double v);
/* A number in JSON's grammar as text: an integer beyond 64 bits, say. */
jj_code jj_builder_number(jj_builder *b, const char *p, size_t len);
/* Text, valid UTF-8 (checked); a date or timestamp spelled as SPEC.md
** spells them counts as one. */
jj_code jj_builder_text(jj_builder *b, const char *p, size_t len);
jj_code jj_builder_bytes(jj_builder *b, const void *p, size_t len);
/* A date as days since 1970-01-01 (years 0000-9999). */
jj_code jj_builder_date(jj_builder *b, int32_t days);
/* A timestamp as numbers (written as jj_timestamp_format writes it). */
jj_code jj_builder_timestamp(jj_builder *b, const jj_timestamp *ts);
/* A local timestamp (no zone) as numbers, as jj_local_timestamp_format
** writes it; an inferred column of them is JJ_LOCAL_TIMESTAMP. */
jj_code jj_builder_local_timestamp(jj_builder *b, const jj_timestamp *ts);
/* A JSON value given as its text (an object or an array that is not
** rows, or any other JSON value a host marks as JSON: SQLite's
** JSON-subtyped TEXT), checked as JSON (JJ_ERR_SYNTAX, JJ_ERR_UTF8,
** JJ_ERR_DEPTH); "null" is a null.  Its kind makes a column `j` (JJ_JSON),
** written in its canonical form; a column the schema makes `s` takes it as
** its text. */
jj_code jj_builder_json(jj_builder *b, const char *p, size_t len);
/* A nested table: its rows follow, then jj_builder_end_table. */
jj_code jj_builder_begin_table(jj_builder *b);
jj_code jj_builder_end_table(jj_builder *b);
/* End the current row (of the top table, or of the nested table open). */
jj_code jj_builder_end_row(jj_builder *b);
/* Refuse the value being given with the host's own reason (a value of a
** type the host cannot give, say): the builder fails with `code` and the
** message placed as its own errors are ("NAME: row 3, column "x": "
** message).  Returns code. */
jj_code jj_builder_refuse(jj_builder *b, jj_code code, const char *message);

/* Top-level rows ended so far (0 for NULL). */
int64_t jj_builder_rows(const jj_builder *b);

/* What a build made: the rows, the schema written (owned by the builder,
** valid until jj_builder_free), the values made null, the notes told. */
typedef struct jj_build_result {
  int64_t rows;
  const jj_schema *schema;
  uint64_t nulled;
  unsigned decisions;
} jj_build_result;

/* Decide the types (notes told), then write the document to sink(ctx, ...)
** (sink NULL: in memory, for jj_builder_take).  Nothing reaches the sink
** before the types are decided, so an inference error leaves it
** untouched.  res may be NULL.  JJ_OK, or an error code with the error
** filled (the types: a schema naming a column no row had, rows without
** columns, bytes mixed with other values; the sink; JJ_ERR_INTERRUPTED). */
jj_code jj_builder_finish(jj_builder *b, jj_sink sink, void *ctx,
                          jj_build_result *res);
/* After jj_builder_finish with sink NULL: the document (*len bytes), for
** the caller to free with jj_free (with the allocator's free when opts
** gave one); NULL if there is none. */
char *jj_builder_take(jj_builder *b, size_t *len);
/* The builder's error (code JJ_OK when none); never NULL. */
const jj_error *jj_builder_error(const jj_builder *b);
/* Free the builder, its rows and temporary file.  NULL is a no-op. */
void jj_builder_free(jj_builder *b);

#ifdef __cplusplus
}
#endif
#endif /* JALAPENOJSON_H */
