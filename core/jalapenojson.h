/*
** jalapenojson.h — read and write jalapenojson, a typed, terse table format
** that is also one valid JSON text.  See SPEC.md for the format.
**
**   {"jalapenojson":1,"columns":["id","joined"],"types":["i","d"],"rows":[
**   [1,"2024-03-01"],
**   [2,null]
**   ]}
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

#define JJ_FORMAT_VERSION 1

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
** message ("row 3, column "items", row 2, column "sku": ..."). */
#define JJ_NO_OFFSET ((size_t)-1)
typedef struct jj_error {
  jj_code code;
  size_t offset;
  int64_t row;
  int column;
  char message[320];
} jj_error;

/* A short static name for a code ("syntax", "date", ...). Never NULL. */
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
  JJ_BOOL = 'b',
  JJ_BYTES = 'x',
  JJ_TABLE = '{'
} jj_type;

/* A schema: the ordered column names and types of a table.  A document owns
** its schema (jj_doc_schema); a caller builds one for the writer with
** jj_schema_new/jj_schema_add and frees it with jj_schema_free. */
typedef struct jj_schema jj_schema;

/* Number of columns. */
size_t jj_schema_columns(const jj_schema *s);
/* Name of column `col` (unescaped UTF-8, not NUL-terminated unless you use
** the returned pointer as a C string: it is also NUL-terminated). *len may
** be NULL.  Returns NULL if col is out of range. */
const char *jj_schema_name(const jj_schema *s, size_t col, size_t *len);
/* Type of column `col`; 0 if out of range. */
jj_type jj_schema_type(const jj_schema *s, size_t col);
/* Schema of a nested-table column; NULL if `col` is not a nested table. */
const jj_schema *jj_schema_table(const jj_schema *s, size_t col);
/* Index of the column named name[0..len) (exact byte comparison), or -1. */
int jj_schema_find(const jj_schema *s, const char *name, size_t len);
/* 1 if a and b have the same names and types, recursively; else 0 and, if
** `column` is not NULL, *column is the first column that differs (or the
** shorter schema's column count when only the counts differ). */
int jj_schema_equal(const jj_schema *a, const jj_schema *b, size_t *column);

/* An empty schema, or NULL when out of memory.  Free with jj_schema_free. */
jj_schema *jj_schema_new(void);
/* Append a column.  The name is copied and must be valid UTF-8 and distinct
** from the others.  For JJ_TABLE, `table` is the nested schema and becomes
** owned by `s` (even on failure); for other types it must be NULL.
** Returns JJ_OK or an error code with *err filled (err may be NULL). */
jj_code jj_schema_add(jj_schema *s, const char *name, size_t len, jj_type type,
                      jj_schema *table, jj_error *err);
/* Deep copy, or NULL when out of memory. */
jj_schema *jj_schema_copy(const jj_schema *s);
void jj_schema_free(jj_schema *s);
/* The schema as the canonical JSON of its header:
**   {"columns":[...],"types":[...]}
** Returns a NUL-terminated string to free with jj_free (length in *len if
** not NULL), or NULL when out of memory. */
char *jj_schema_to_json(const jj_schema *s, size_t *len);

/* ===================================================================== */
/* Reading                                                                */
/* ===================================================================== */

typedef struct jj_doc jj_doc;
typedef struct jj_cursor jj_cursor;

/* Options for jj_parse_opts. */
#define JJ_PARSE_VALIDATE 0x1u  /* check every row and value during parse */

/* Default limit of nested arrays/objects inside one value. */
#define JJ_DEFAULT_MAX_DEPTH 64

/* Parse the header of the document in data[0..len) (no NUL needed; a UTF-8
** BOM is an error).  The document borrows `data`.  Returns NULL on error
** with *err filled (err may be NULL).  Free with jj_doc_free. */
jj_doc *jj_parse(const char *data, size_t len, jj_error *err);
/* Same with flags (JJ_PARSE_VALIDATE) and a depth limit (0: default). */
jj_doc *jj_parse_opts(const char *data, size_t len, unsigned flags,
                      unsigned max_depth, jj_error *err);
/* Free a document (and nothing it borrows).  NULL is a no-op.  Cursors on
** it must be freed first. */
void jj_doc_free(jj_doc *doc);

/* The document's schema, owned by the document. */
const jj_schema *jj_doc_schema(const jj_doc *doc);
/* The header's "count", or -1 when the header has none. */
int64_t jj_doc_declared_count(const jj_doc *doc);
/* Number of rows.  Finds the row boundaries (not the values) once, then
** answers from memory.  Returns -1 on error with *err filled. */
int64_t jj_doc_rows(jj_doc *doc, jj_error *err);
/* Check every row and every value.  JJ_OK or the first error. */
jj_code jj_doc_validate(jj_doc *doc, jj_error *err);
/* The bytes the document reads (borrowed from the caller of jj_parse). */
const char *jj_doc_bytes(const jj_doc *doc, size_t *len);

/* A cursor over rows, positioned before the first row.  NULL on error.
** Free with jj_cursor_free.  Several cursors may share a document. */
jj_cursor *jj_cursor_new(jj_doc *doc, jj_error *err);
void jj_cursor_free(jj_cursor *c);
/* Move to the next row: 1 when on a row, 0 at the end (after checking the
** closing brackets and the header's "count"), -1 on error (*err filled). */
int jj_cursor_next(jj_cursor *c, jj_error *err);
/* Move to row `row` (1-based).  1 when on it, 0 if there is no such row,
** -1 on error.  Moving forward scans only the structure of the rows in
** between; rows seen once are found again in constant time. */
int jj_cursor_seek(jj_cursor *c, int64_t row, jj_error *err);
/* The current 1-based row number (0 before the first row). */
int64_t jj_cursor_row(const jj_cursor *c);
/* The document the cursor reads. */
jj_doc *jj_cursor_doc(const jj_cursor *c);

/* Value accessors.  All take the 0-based column and return
**   1  the value is present and *out is set,
**   0  the value is null (*out untouched),
**  -1  error (*err filled): the value does not fit the column's type, or
**      the accessor does not match the column's type (JJ_ERR_USAGE).
** err may be NULL. */
int jj_cursor_is_null(jj_cursor *c, size_t col);

int jj_cursor_int(jj_cursor *c, size_t col, int64_t *out, jj_error *err);
/* For JJ_FLOAT columns; "NaN", "Infinity", "-Infinity" give those values. */
int jj_cursor_double(jj_cursor *c, size_t col, double *out, jj_error *err);
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
int jj_cursor_timestamp(jj_cursor *c, size_t col, jj_timestamp *out,
                        jj_error *err);
/* Decoded bytes of a JJ_BYTES column, in cursor-owned memory valid until
** the cursor moves. */
int jj_cursor_bytes(jj_cursor *c, size_t col, const unsigned char **p,
                    size_t *len, jj_error *err);
/* A nested table value as a document of its own (schema
** jj_schema_table(schema, col)).  *out is freed with jj_doc_free. */
int jj_cursor_table(jj_cursor *c, size_t col, jj_doc **out, jj_error *err);
/* The value's JSON text exactly as it stands in the document (structure
** checked, value not converted), for copying.  Returns 1 (0 for null). */
int jj_cursor_raw(jj_cursor *c, size_t col, const char **p, size_t *len,
                  jj_error *err);
/* The current row as one plain JSON object keyed by column name, for tools
** that want self-describing records:
**   {"id":1,"price":19.99,"joined":"2024-03-01","ok":true,"items":[{...}]}
** Every value is checked first.  Floats are written shortest (NaN and the
** infinities as the strings "NaN", "Infinity", "-Infinity"), dates and
** timestamps as their text, bytes as base64 text, nested tables as arrays
** of objects, nulls as null.  Bytes go to sink(ctx, ...).  JJ_OK or an
** error (JJ_ERR_IO when the sink fails). */
jj_code jj_cursor_object(jj_cursor *c, jj_sink sink, void *ctx,
                         jj_error *err);

/* ===================================================================== */
/* What each type is called                                               */
/* ===================================================================== */

/* Every type's letter and names come from one table (core/types.c), so the
** reader, the writer, the messages and the SQLite extension spell them
** alike.  Each function answers for every jj_type; for a value that is no
** jj_type it returns 0 or NULL as said.  Strings are static. */

/* The type's letter in a header's "types": 'i', 'f', 's', 'd', 't', 'b',
** 'x'.  0 for JJ_TABLE (a nested table is an object there, not a letter)
** and for anything that is no type. */
char jj_type_letter(jj_type t);
/* The scalar type whose letter is `letter`; 0 for any other value ('{'
** and 0 included).  jj_type_from_letter(jj_type_letter(t)) == t for every
** scalar type. */
jj_type jj_type_from_letter(int letter);
/* The type as messages name a column's type, with its article: "an
** integer", "a float", "a text", "a date", "a timestamp", "a boolean", "a
** bytes", "a nested table" (as in "column "x" is a date column").  NULL
** for anything that is no type. */
const char *jj_type_name(jj_type t);
/* The SQL declared type of a column: "INTEGER", "REAL", "TEXT", "DATE",
** "TIMESTAMP", "BOOLEAN", "BLOB"; "TEXT" for a nested table, which SQL
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
** u.text.len are the text of a date or a timestamp too. */
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
      const char *p;   /* JJ_TIMESTAMP: its checked text, as written */
      size_t len;
      jj_timestamp ts; /* the same instant as numbers: UTC seconds, nanos,
                       ** the written zone and fraction digits */
    } timestamp;
    struct {
      const unsigned char *p; /* JJ_BYTES: the decoded bytes */
      size_t len;
    } bytes;
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

/* ===================================================================== */
/* Calendar helpers (used by reader and writer, handy for callers)        */
/* ===================================================================== */

/* Check text as a date "YYYY-MM-DD"; JJ_OK or JJ_ERR_DATE with a message
** that says why ("2023 is not a leap year").  *days may be NULL. */
jj_code jj_date_parse(const char *p, size_t len, int32_t *days, jj_error *err);
/* Write the date `days` since 1970-01-01 as "YYYY-MM-DD" (10 bytes, no NUL).
** Returns JJ_ERR_DATE when outside years 0000-9999. */
jj_code jj_date_format(int32_t days, char out[10]);
/* Check text as a timestamp; JJ_OK or JJ_ERR_TIMESTAMP.  out may be NULL. */
jj_code jj_timestamp_parse(const char *p, size_t len, jj_timestamp *out,
                           jj_error *err);
/* Write a timestamp in its zone with `digits` fraction digits (no NUL);
** returns the length (at most 35), or 0 when out of range. */
size_t jj_timestamp_format(const jj_timestamp *ts, char out[40]);

/* ===================================================================== */
/* Writing                                                                */
/* ===================================================================== */

typedef struct jj_writer jj_writer;

/* A writer for documents of schema `s` (borrowed: it must outlive the
** writer).  With sink NULL the document is built in memory (jj_writer_take);
** otherwise bytes are passed to sink(ctx, ...) in chunks of bounded size
** (the writer buffers at most 64 KiB plus one value).  The header is written
** with the first value (or by jj_writer_finish).  NULL on error.  Free with
** jj_writer_free. */
jj_writer *jj_writer_new(const jj_schema *s, jj_sink sink, void *ctx,
                         jj_error *err);
/* Optional metadata for the header, written as "meta" between "types" and
** "rows": any JSON value (checked to be one valid JSON text, and copied).
** Must be called before the first value. */
jj_code jj_writer_set_meta(jj_writer *w, const char *json, size_t len);

/* Values, in column order.  Each returns JJ_OK or an error code with the
** writer's error filled (jj_writer_error); after an error the writer only
** accepts jj_writer_free.  The value must match the column's type: a date
** column takes jj_writer_date (checked) or jj_writer_date_days, and so on;
** jj_writer_null fits any column. */
jj_code jj_writer_null(jj_writer *w);
jj_code jj_writer_int(jj_writer *w, int64_t v);
/* NaN and infinities are written as "NaN", "Infinity", "-Infinity". */
jj_code jj_writer_double(jj_writer *w, double v);
jj_code jj_writer_bool(jj_writer *w, int v);
/* UTF-8 text; invalid UTF-8 is an error (JJ_ERR_UTF8). */
jj_code jj_writer_text(jj_writer *w, const char *p, size_t len);
jj_code jj_writer_date(jj_writer *w, const char *p, size_t len);
jj_code jj_writer_date_days(jj_writer *w, int32_t days);
jj_code jj_writer_timestamp(jj_writer *w, const char *p, size_t len);
jj_code jj_writer_timestamp_value(jj_writer *w, const jj_timestamp *ts);
jj_code jj_writer_bytes(jj_writer *w, const void *p, size_t len);
/* A nested table value: begin, then rows of the nested schema (each ended
** with jj_writer_end_row), then end. */
jj_code jj_writer_begin_table(jj_writer *w);
jj_code jj_writer_end_table(jj_writer *w);
/* Copy column `col` of the cursor's current row (checked, re-encoded
** canonically; nested tables are copied row by row). The source column's
** type must equal the writer's column type (and nested schemas match). */
jj_code jj_writer_copy(jj_writer *w, jj_cursor *c, size_t col);
/* Copy every remaining row of the cursor (jj_cursor_next to the end) into
** the current table (the top level, or a nested table opened with
** jj_writer_begin_table), each row ended.  The cursor's schema must equal
** the table's; the writer must be at the start of a row.  A reader error
** becomes the writer's error. */
jj_code jj_writer_copy_rows(jj_writer *w, jj_cursor *c);
/* End the current row: every column must have had a value. */
jj_code jj_writer_end_row(jj_writer *w);
/* Rows written so far at the top level. */
int64_t jj_writer_rows(const jj_writer *w);
/* Write the closing "]}" and flush everything to the sink. */
jj_code jj_writer_finish(jj_writer *w);
/* After jj_writer_finish with sink NULL: hand over the document (*len
** bytes, NUL-terminated for convenience) to the caller, who frees it with
** jj_free.  NULL if there is nothing to take. */
char *jj_writer_take(jj_writer *w, size_t *len);
/* The writer's error (code JJ_OK when none). */
const jj_error *jj_writer_error(const jj_writer *w);
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
** against decompression bombs (JJ_ERR_COMPRESSION when exceeded). */
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

/* Whole buffers: decompress into a new buffer (free with jj_free). */
jj_code jj_decompress(jj_compression kind, const void *in, size_t len,
                      uint64_t limit, char **out, size_t *out_len,
                      jj_error *err);
/* Compress into a new buffer (free with jj_free). */
jj_code jj_compress(jj_compression kind, int level, const void *in,
                    size_t len, char **out, size_t *out_len, jj_error *err);

/* Polled by long operations (reading, decompressing) about every MiB of
** output; a nonzero return stops the operation with JJ_ERR_INTERRUPTED.
** The SQLite extension passes one that reports sqlite3_interrupt(). */
typedef int (*jj_interrupt)(void *ctx);
/* Poll `fn(ctx)` while this inflater works (NULL: never). */
void jj_inflate_set_interrupt(jj_inflater *z, jj_interrupt fn, void *ctx);

/* How jj_file_open_opts reads.  A zeroed struct is the safe default: a
** regular file read into memory, no size limit, the whole document. */
#define JJ_FILE_MMAP 0x1u     /* map a plain file instead of reading it: no
                              ** copy, but a file truncated while mapped kills
                              ** the process with SIGBUS (opt in knowingly) */
#define JJ_FILE_ANY_KIND 0x2u /* also read FIFOs, character devices, sockets
                              ** and /proc or /sys files (read to the end,
                              ** still capped by max_size); without it they
                              ** are refused before any byte is read */
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
  int64_t mtime_ns_;          /* private */
} jj_file;
/* Open `path` as `opts` say (NULL: the defaults above).  Before reading a
** byte, a path that is not a regular file is refused unless
** JJ_FILE_ANY_KIND; the open never blocks (O_NONBLOCK until fstat).  On
** error *f is zeroed (jj_file_close is still safe) and *err says what and
** names the file. */
jj_code jj_file_open_opts(const char *path, const jj_file_opts *opts,
                          jj_file *f, jj_error *err);
/* jj_file_open_opts with only a size limit (0: none). */
jj_code jj_file_open(const char *path, uint64_t limit, jj_file *f,
                     jj_error *err);
/* 1 if the file now at `path` is not the one f was read from (another
** file, or its size or modification time changed), 0 if it is the same,
** -1 if it cannot be examined (treat as changed). */
int jj_file_changed(const jj_file *f, const char *path);
/* Release what jj_file_open set up; the struct is zeroed.  NULL is a
** no-op. */
void jj_file_close(jj_file *f);

/* The compression to write `path` with: ".gz" -> JJ_GZIP, ".br" ->
** JJ_BROTLI, any other name -> JJ_PLAIN, except names ending in a suffix of
** another compressor (.zst, .xz, .bz2, .lz4, .lzma, .lz, .Z, .zip, .7z),
** which are JJ_ERR_USAGE errors naming the supported ones. */
jj_code jj_compression_for_write(const char *path, jj_compression *kind,
                                 jj_error *err);

/* Atomic file writing: bytes go to a temporary file ".NAME.jj-tmp-XXXXXX"
** in the target's directory; jj_atomic_commit flushes it to disk and
** renames it over the target; jj_atomic_abort (or any failure) removes it,
** so the old file stays as it was and no partial file is left.  Usable as a
** jj_sink via jj_atomic_sink.  Only a regular file is replaced: a target
** that is a FIFO, device, socket or directory is refused; a symbolic link
** is followed and its target replaced (a dangling link is refused).  The
** replaced file's mode (and owner, where permitted) is kept; a new file gets
** 0666 & ~umask. */
typedef struct jj_atomic jj_atomic;
jj_atomic *jj_atomic_open(const char *path, jj_error *err);
int jj_atomic_sink(void *atomic, const char *p, size_t len);
jj_code jj_atomic_commit(jj_atomic *a, jj_error *err); /* frees a */
void jj_atomic_abort(jj_atomic *a);                    /* frees a */

/* Write data[0..len) to `path` atomically, compressed as `kind` (level -1:
** default).  *written (may be NULL) receives the bytes written to disk. */
jj_code jj_file_write(const char *path, const char *data, size_t len,
                      jj_compression kind, int level, uint64_t *written,
                      jj_error *err);

#ifdef __cplusplus
}
#endif
#endif /* JALAPENOJSON_H */
