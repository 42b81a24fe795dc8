/*
** source_raw.h — what source.c (opening a SOURCE whole) shares with
** header.c (reading only its header): a SOURCE reduced to what is read,
** the error helpers that name it, and a BLOB's bytes (plain, gzip or
** brotli).  Only those two files include it.
*/
#ifndef JJX_SOURCE_RAW_H
#define JJX_SOURCE_RAW_H

#include "ext.h"

/* A SOURCE reduced to what is read: a file name or bytes in memory. */
typedef struct raw {
  int kind;         /* JJX_DECL_PATH, _TEXT, _BLOB; 0: NULL */
  int glob;         /* PATH: path is a pattern */
  const char *path; /* PATH: NUL-terminated */
  const char *p;    /* TEXT, BLOB: the bytes (borrowed) */
  size_t len;
  int bound;        /* BLOB: a bound parameter's bytes (see open_bytes) */
} raw;

/* Decompressed bytes go here; a header read keeps only the first `stop`. */
typedef struct capped {
  jjx_buf out;
  size_t stop; /* keep at most this many bytes; 0: all */
  int full;    /* stop was reached (more would follow) */
} capped;

/* Fail with a core error, prefixed with `label` (NULL: the message names
** its file already); a limit's message says how to lift it (lim may be
** NULL: it does not).  "interrupted" stands alone, as SQLite's own. */
int jjx_source_fail(const char *label, const jj_error *err,
                    const jjx_limits *lim, char **pzErr);
/* After a failed parse of data[0..len): when the bytes are not a document
** but look like text (JSON of another shape, CSV), add what would read
** them to *pzErr.  Returns rc. */
int jjx_hint_formats(int rc, const jj_error *err, const char *data,
                     size_t len, char **pzErr);
/* The document bytes of a BLOB p[0..len): p itself when plain (*data ==
** p), else decompressed into c->out (all of it, or the first c->stop
** bytes; *complete says which).  lim NULL: a header read (no limit, no
** polling).  SQLITE_OK, or an error with *pzErr set. */
int jjx_blob_bytes(const char *label, const char *p, size_t len,
                   const jjx_limits *lim, capped *c, const char **data,
                   size_t *dlen, int *complete, char **pzErr);
/* An SQL value as a raw SOURCE, with its label (SQLITE_OK and kind 0 for
** NULL). */
int jjx_value_raw(sqlite3_value *v, raw *r, char **label, char **pzErr);
/* A declared SOURCE as a raw one (borrowing d's bytes). */
raw jjx_decl_raw(const jjx_decl *d);

#endif /* JJX_SOURCE_RAW_H */
