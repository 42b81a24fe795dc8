/*
** ext.h — what the files of the SQLite extension share: the extension API
** pointer, one error helper per error sink, resolving a SOURCE argument to
** an open document, and the declared SQL type of a column type.
**
** Files:
**   jalapenojson.c  the entry point: registration only
**   util.c          the helpers declared here: errors, buffer, type names
**   source.c        SOURCE (BLOB, document TEXT, file path, NULL) -> jj_doc
**   vtab.c          the jj_open module (record form and typed tables)
**   schema_vtab.c   the jj_schema table-valued function
**   group.c         the jj_group aggregate
**   write.c         the jj_write function
**
** Nothing in ext/ scans JSON bytes: every byte of a document is read by the
** core library (core/jalapenojson.h), ext/ only moves values across.
*/
#ifndef JJ_EXT_H
#define JJ_EXT_H

#include <stddef.h>
#include <stdint.h>

#include "sqlite3ext.h"
#include "jalapenojson.h"

/* Every file but jalapenojson.c sees the API pointer that file defines. */
#ifndef JJX_ENTRY_FILE
SQLITE_EXTENSION_INIT3
#endif

#if defined(__GNUC__) || defined(__clang__)
#define JJX_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))
#else
#define JJX_PRINTF(fmt, args)
#endif

/* ---------------------------------------------------------------------- */
/* Errors: one helper per sink, each frees the message it replaces.        */
/* ---------------------------------------------------------------------- */

/* The formatting helpers below use SQLite's printf (sqlite3_vmprintf): it
** has %lld, %s, %w, %Q but no %zu (its %z means "free this string"); cast
** sizes to long long. */

/* Set the table's error message (pVtab->zErrMsg), freeing the old one, and
** return SQLITE_ERROR for `return jjx_vtab_err(...)`. */
int jjx_vtab_err(sqlite3_vtab *vtab, const char *fmt, ...) JJX_PRINTF(2, 3);
/* The same for a cursor: SQLite reads cursor errors from its table. */
int jjx_cursor_err(sqlite3_vtab_cursor *cur, const char *fmt, ...)
    JJX_PRINTF(2, 3);
/* Fail a function call with a formatted message (sqlite3_result_error
** copies it; the formatted text is freed here).  Out of memory while
** formatting fails the call with SQLITE_NOMEM instead. */
void jjx_ctx_err(sqlite3_context *ctx, const char *fmt, ...) JJX_PRINTF(2, 3);
/* Hand an already formatted message (sqlite3_malloc'd, may be NULL for out
** of memory) to a table: frees the old message, takes ownership of msg.
** Returns SQLITE_NOMEM when msg is NULL, else `rc`. */
int jjx_vtab_take(sqlite3_vtab *vtab, char *msg, int rc);

/* The SQLite result code for a core error code. */
int jjx_rc(jj_code code);

/* ---------------------------------------------------------------------- */
/* Sources                                                                 */
/* ---------------------------------------------------------------------- */

/* Default decompression limit (max_size): 4 GiB. */
#define JJX_DEFAULT_MAX_SIZE ((uint64_t)4 << 30)

/* An open SOURCE: the bytes of one document and the document reading them.
** All fields are owned by the source and released by jjx_source_close;
** a zeroed struct is a valid "closed" source. */
typedef struct jjx_source {
  char *label;      /* "blob", or the path as the user wrote it; sqlite3_free */
  int is_file;      /* file: `file` is open (jj_file_close) */
  jj_file file;     /* the mapped or decompressed file */
  char *heap;       /* bytes we own (a copy of the argument, or the
                    ** decompressed blob); sqlite3_free */
  const char *data; /* the document bytes: file.data, heap */
  size_t len;
  jj_doc *doc;      /* reads data; jj_doc_free; NULL for a NULL source */
} jjx_source;

/* Open a SOURCE given as an SQL value: BLOB = document bytes (gzip by its
** magic, brotli tried when the bytes are not JSON), TEXT starting with '{'
** after whitespace = document, other TEXT = file path (jj_file_open: mmap,
** gzip by magic, brotli by a .br name), NULL = no document (s->doc stays
** NULL, SQLITE_OK).  A BLOB or TEXT argument is copied once: SQLite promises
** an argument only for the duration of the call that received it.
** `flags` go to jj_parse_opts (JJ_PARSE_VALIDATE).  On error returns an
** SQLite code with *pzErr set to "<label>: <core message>" (sqlite3_free)
** and the source closed. */
int jjx_source_open_value(jjx_source *s, sqlite3_value *v, uint64_t max_size,
                          unsigned flags, char **pzErr);
/* The same for a SOURCE given as text (a CREATE VIRTUAL TABLE argument
** after dequoting): a document if it starts with '{', else a path. */
int jjx_source_open_text(jjx_source *s, const char *text, size_t len,
                         uint64_t max_size, unsigned flags, char **pzErr);
/* Release everything the source owns; the struct is zeroed. */
void jjx_source_close(jjx_source *s);

/* An estimate of the rows in a document of `bytes` bytes when its header has
** no "count": about 60 bytes a row, at least 1. */
int64_t jjx_estimate_rows(uint64_t bytes);
/* Estimate the rows of a SOURCE value known at planning time (a literal
** argument): the declared count is not read (that would open the file);
** a path's size comes from stat().  -1 when unknown. */
int64_t jjx_estimate_value(sqlite3_value *v);

/* ---------------------------------------------------------------------- */
/* Types                                                                   */
/* ---------------------------------------------------------------------- */

/* The declared SQL type of a column type: INTEGER, REAL, TEXT, DATE,
** TIMESTAMP, BOOLEAN, BLOB; TEXT for a nested table.  Static. */
const char *jjx_sql_type(jj_type t);
/* The type's short name: its letter ("i" ... "x"), "jj" for a nested
** table.  Static. */
const char *jjx_type_name(jj_type t);

/* A growable byte buffer on sqlite3_realloc64, usable as a jj_sink (ctx is
** the jjx_buf).  The owner frees p with sqlite3_free (jjx_buf_free). */
typedef struct jjx_buf {
  char *p;
  size_t len;
  size_t cap;
  int oom; /* set when an append failed */
} jjx_buf;
int jjx_buf_append(jjx_buf *b, const void *p, size_t n); /* 0, or -1 OOM */
/* Grow so that n more bytes fit after len: 0, or -1 OOM (unchanged). */
int jjx_buf_grow(jjx_buf *b, size_t n);
/* The same, inline when the room is already there (the common case), so a
** caller can reserve once and then store straight into p + len. */
static inline int jjx_buf_reserve(jjx_buf *b, size_t n) {
  return b->cap - b->len >= n ? 0 : jjx_buf_grow(b, n);
}
int jjx_buf_sink(void *ctx, const char *data, size_t len);
void jjx_buf_free(jjx_buf *b);

/* ---------------------------------------------------------------------- */
/* What the entry point registers (its static tables point at these)       */
/* ---------------------------------------------------------------------- */

extern const sqlite3_module jjx_open_module;   /* vtab.c */
extern const sqlite3_module jjx_schema_module; /* schema_vtab.c */
void jjx_group_step(sqlite3_context *ctx, int argc, sqlite3_value **argv);
void jjx_group_final(sqlite3_context *ctx);     /* group.c */
void jjx_write_func(sqlite3_context *ctx, int argc, sqlite3_value **argv);
                                                /* write.c */

#endif /* JJ_EXT_H */
