/*
** jjduck.h — what the files of the DuckDB extension share.  The extension
** is written against DuckDB's C extension API at version 1.2.0 (the
** stable one), so one build loads in every DuckDB from 1.2 on; DuckDB's
** headers come from the npm registry at build time (duckdb/headers.sh).
** It reads documents through the core's public header only.
**
** Files:
**   extension.c    the entry point: registration only
**   bind.c         read_jj's arguments and options, its columns
**   files.c        a path or glob to its files; a file's header alone
**   types.c        the core's column types as DuckDB's, and one value of
**                  each written into a DuckDB vector
**   scan.c         the scan: files and their byte ranges shared out to
**                  DuckDB's threads, rows into DuckDB's chunks
**   range.c        one file opened for the scan: its columns checked, its
**                  rows cut into byte ranges at line ends; the serial walk
**                  that locates an error
**   replacement.c  FROM 'x.jj' (and a glob of such names) as read_jj
**
** DuckDB calls the scan from several threads at once: the global state is
** shared under its mutex, the local state is a thread's own, and no jj_doc
** or jj_cursor is ever used by two threads (the core's rule).
*/
#ifndef JJ_DUCK_H
#define JJ_DUCK_H

#define DUCKDB_EXTENSION_API_VERSION_MAJOR 1
#define DUCKDB_EXTENSION_API_VERSION_MINOR 2
#define DUCKDB_EXTENSION_API_VERSION_PATCH 0

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "duckdb_extension.h"
#include "jalapenojson.h"

/* Every file but extension.c sees the API table that file defines. */
DUCKDB_EXTENSION_EXTERN

/* A document read for its header only: a prefix of JJD_HEADER_FIRST
** bytes, doubled while the header is cut short, up to JJD_HEADER_LIMIT
** (the SQLite extension's bounds). */
#define JJD_HEADER_FIRST ((size_t)4096)
#define JJD_HEADER_LIMIT ((size_t)1 << 20)
/* The default of the max_size option: the SQLite extension's default
** jj_max_size(), 1 GiB of document bytes (decompressed) per file. */
#define JJD_DEFAULT_MAX_SIZE ((uint64_t)1 << 30)
/* At most this many files in a glob (the SQLite extension's bound). */
#define JJD_MAX_FILES 100000
/* The byte range a thread reads at a time from a split file. */
#define JJD_RANGE_BYTES ((size_t)4 << 20)

/* ---------------------------------------------------------------------- */
/* files.c                                                                 */
/* ---------------------------------------------------------------------- */

/* A path's files: itself when it has no unescaped * ? [, else the regular
** files its glob(3) pattern matches, in bytewise name order.  0, or -1
** with a message in msg[0..cap). */
typedef struct jjd_files {
  char **name;
  size_t n;
} jjd_files;
int jjd_files_expand(jjd_files *f, const char *path, char *msg, size_t cap);
void jjd_files_free(jjd_files *f);

/* The schema in path's header (a copy, the caller's to free), or NULL with
** a message naming the file; *count gets the header's "count" (-1 when
** none) and *size the file's size on disk. */
jj_schema *jjd_read_header(const char *path, int64_t *count, uint64_t *size,
                           char *msg, size_t cap);

/* ---------------------------------------------------------------------- */
/* bind.c                                                                  */
/* ---------------------------------------------------------------------- */

/* What read_jj binds: its files, its columns, its options. */
typedef struct jjd_bind {
  jjd_files files;
  jj_schema *schema;    /* the table's columns: the first file's, or with
                        ** union_by_name every file's by name */
  char **from;          /* per column of schema, the file that has it first
                        ** (for messages) */
  int union_by_name;
  int parallel;         /* split large files into byte ranges */
  char *filename;       /* the filename column's name, or NULL for none */
  uint64_t max_size;    /* document bytes per file (0: no limit) */
} jjd_bind;

/* The column of s named name[0..len) as DuckDB names match (ASCII case
** ignored), or -1. */
int jjd_find_column(const jj_schema *s, const char *name, size_t len);

void jjd_bind_read_jj(duckdb_bind_info info);
void jjd_bind_free(void *p);

/* ---------------------------------------------------------------------- */
/* types.c                                                                 */
/* ---------------------------------------------------------------------- */

/* DuckDB's type for column col of s (the caller destroys it). */
duckdb_logical_type jjd_logical_type(const jj_schema *s, size_t col);
/* The SQL name of that type for messages ("BIGINT", "STRUCT(...)[]" is
** spelled LIST OF STRUCT). */
const char *jjd_type_name(jj_type t);

/* Where one output column's values go for one chunk: its vector, with the
** vector's data and validity looked up once. */
typedef struct jjd_out {
  duckdb_vector vec;
  void *data;
  uint64_t *validity; /* NULL until a null is written */
} jjd_out;
void jjd_out_begin(jjd_out *o, duckdb_vector vec);
void jjd_out_null(jjd_out *o, idx_t row);
/* Write column col (of type t; nested its schema when a table) of c's row
** into o at row.  0, or -1 with *err filled. */
int jjd_put(jj_cursor *c, size_t col, jj_type t, const jj_schema *nested,
            jjd_out *o, idx_t row, jj_error *err);
/* Read column col of c's row as jjd_put does, without writing it: every
** check it makes (a nested table's rows and values included).  0, or -1
** with *err filled. */
int jjd_check(jj_cursor *c, size_t col, jj_type t, const jj_schema *nested,
              jj_error *err);

/* ---------------------------------------------------------------------- */
/* range.c                                                                 */
/* ---------------------------------------------------------------------- */

/* One file of the scan, opened: its bytes, its full document (header
** read), its columns mapped to the table's, and its rows cut into ranges
** at line ends.  cuts[0..ncuts]: range k is bytes [cuts[k], cuts[k+1]);
** one range (head NULL) reads the document itself. */
typedef struct jjd_open {
  const char *path;
  uint64_t max_size;
  jj_file file;      /* the whole document, or (read in ranges from the
                     ** file) the prefix that holds its header */
  int fd;            /* read in ranges: the file (has_fd set) */
  int has_fd;
  uint64_t size;     /* the document's bytes */
  jj_doc *doc;       /* its header read */
  int *map;          /* table column -> document column, -1 none */
  char *head;        /* a header of the document's columns without "count":
                     ** each range is read as head + its rows + "]}" */
  size_t head_len;
  size_t *cuts;
  size_t ncuts;      /* the number of ranges */
} jjd_open;

/* Open bind's file `i` into o.  0, or -1 with a message. */
int jjd_open_file(jjd_open *o, const jjd_bind *b, size_t i, char *msg,
                  size_t cap);
void jjd_open_free(jjd_open *o);
/* The document range k reads, in *buf (grown as needed; the caller frees
** it with free): head + its rows + the end, and its length; for a file of
** one range, the file's own bytes (buf untouched).  NULL when out of
** memory or the file cannot be read. */
const char *jjd_range_bytes(const jjd_open *o, size_t k, char **buf,
                            size_t *cap, size_t *len);
/* The first error of the file's rows, read serially from the start as one
** thread would read them (the doc columns cols[0..n), n 0 every column),
** into msg: what a range's error or a wrong row count is reported as, with
** the row, column and byte of the whole file.  Returns 1 with the message,
** 0 when the serial walk finds none. */
int jjd_locate(const jjd_open *o, const size_t *cols, size_t n, char *msg,
               size_t cap);

/* ---------------------------------------------------------------------- */
/* scan.c                                                                  */
/* ---------------------------------------------------------------------- */

void jjd_init_global(duckdb_init_info info);
void jjd_init_local(duckdb_init_info info);
void jjd_scan(duckdb_function_info info, duckdb_data_chunk output);

/* ---------------------------------------------------------------------- */
/* replacement.c                                                           */
/* ---------------------------------------------------------------------- */

void jjd_replacement(duckdb_replacement_scan_info info, const char *name,
                     void *data);

#endif /* JJ_DUCK_H */
