/*
** convert_opts.h — what the extension's entries to the converter share
** (ext.h includes it): the converter's options as SQL spells them
** (convert_opts.c), the rows a conversion sets aside (rejects.c), and a
** JSON or CSV file as a SOURCE (convert_source.c).  Used by
** convert_sql.c (jj_from_csv, jj_from_json), typed.c (the CREATE's and the
** OPTIONS text's options), source.c and header.c.
*/
#ifndef JJX_CONVERT_OPTS_H
#define JJX_CONVERT_OPTS_H

#include <stddef.h>
#include <stdint.h>

#include "sqlite3ext.h"
#include "jalapenojson.h"

struct jjx_notes;    /* ext.h: one call's decisions */
struct jjx_settings; /* ext.h: the connection's settings */

/* The converter's options as SQL gives them (convert_opts.c): one table
** of keys read by jj_from_csv, jj_from_json, jj_open over a JSON or CSV
** file and jj_schema.  co has the fields the options set (the caller adds
** the format, callbacks and limits to a copy); its pointers point into
** the struct, which must not be moved once a value is set.  Zeroed: none
** given. */
#define JJX_COPTS_MAX 96 /* values given, repeats (null, null_for) included */
typedef struct jjx_copts {
  jj_convert_opts co;
  const char *nulls[JJ_CONVERT_MAX_NULLS]; /* co.null_texts */
  jj_convert_null_for null_for[JJ_CONVERT_MAX_NULL_FOR]; /* co.null_for */
  const char *dates[JJ_CONVERT_MAX_FORMATS];      /* co.date_formats */
  const char *timestamps[JJ_CONVERT_MAX_FORMATS]; /* co.timestamp_formats */
  char *val[JJX_COPTS_MAX];  /* each value given, owned (sqlite3_free) */
  char *aux[JJX_COPTS_MAX];  /* what a setter keeps beside it (null_for's
                             ** column name), owned; NULL: nothing */
  const char *norm[JJX_COPTS_MAX]; /* its canonical spelling */
  int def[JJX_COPTS_MAX];    /* its entry of the table */
  int n;
  char *key;                 /* the canonical text (jjx_copts_finish), or
                             ** NULL: all defaults; sqlite3_free */
} jjx_copts;
/* Set option key[0..klen) to val[0..vlen) (copied): SQLITE_OK,
** SQLITE_NOTFOUND when key is no converter option (nothing set), or an
** error in *pzErr ("<fn>: option "delimiter" takes ..., not "ab""; given
** twice). */
int jjx_copts_set(jjx_copts *o, const char *fn, const char *key, size_t klen,
                  const char *val, size_t vlen, char **pzErr);
/* 1 when key[0..klen) is a converter option. */
int jjx_copts_has_key(const char *key, size_t klen);
/* Make o->key, the canonical text, once every option is set. */
int jjx_copts_finish(jjx_copts *o);
/* The options' keys for a message, all or those JSON takes (sqlite3_free). */
char *jjx_copts_known(int json_only);
/* The first option given that applies to CSV and TSV only, or NULL. */
const char *jjx_copts_first_csv(const jjx_copts *o);
/* SQLITE_OK when every option of o (may be NULL) applies to input of
** format fmt (JJ_FORMAT_AUTO: a jalapenojson document, a file when
** is_file), else an error "<label>: option "delimiter" does not apply:
** <why>". */
int jjx_copts_check(const jjx_copts *o, jj_format fmt, int is_file,
                    const char *label, char **pzErr);
void jjx_copts_free(jjx_copts *o);
/* Split an OPTIONS text into its items: "key=value" separated by commas; a
** value in '...' or "..." (the quote doubled inside) may hold commas and
** white space at its ends; an unquoted one is trimmed.  each(ctx, key,
** klen, value, vlen, pzErr) gets every item, in order; the first error
** stops.  "" and NULL have none. */
typedef int (*jjx_option_item)(void *ctx, const char *key, size_t klen,
                               const char *val, size_t vlen, char **pzErr);
int jjx_option_items(const char *fn, const char *text, jjx_option_item each,
                     void *ctx, char **pzErr);

/* The rows a conversion sets aside (rejects.c): jjx_reject_cb is the
** converter's reject callback (ctx a jjx_reject_run), which tells each to
** `notes` as "set aside: <the error>" and keeps it; when the conversion
** succeeds, jjx_rejects_publish makes them jj_rejects' rows for (source,
** options) (NULL source: a function's), replacing that pair's earlier
** ones; jjx_rejects_discard drops what is left (call it either way). */
typedef struct jjx_reject_set jjx_reject_set;
typedef struct jjx_reject_run {
  struct jjx_notes *notes;
  jjx_reject_set *set; /* NULL until a row is set aside */
  int64_t lost;        /* rows not kept: out of memory */
} jjx_reject_run;
void jjx_rejects_begin(jjx_reject_run *r, struct jjx_notes *notes);
void jjx_reject_cb(void *ctx, const jj_error *err, const char *col,
                   size_t col_len);
void jjx_rejects_publish(jjx_reject_run *r, struct jjx_settings *cfg,
                         const char *source, const char *options);
void jjx_rejects_discard(jjx_reject_run *r);
void jjx_rejects_free_all(struct jjx_settings *cfg);

/* A JSON, NDJSON, CSV or TSV file as a SOURCE (convert_source.c).
** jjx_convert_file: the file converted into *f as jj_file_convert does
** with the options conv (NULL: the defaults; fo: its limit and interrupt
** polling), the decisions to sqlite3_log and, when it succeeds and cfg is
** given, to jj_notes() and its rows set aside to jj_rejects; *notes_out
** (may be NULL) a copy of the decisions (NULL: none).
** jjx_convert_header: the converted document's columns, row count and
** decisions (*notes, NULL: none; sqlite3_free), from cfg's cache or
** converted now and kept there (cfg NULL: no cache, no limit), polling
** db's interrupt (NULL: none); JJ_OK or the error in *err. */
jj_code jjx_convert_file(const char *path, jj_format fmt,
                         const jj_file_opts *fo, const jjx_copts *conv,
                         struct jjx_settings *cfg, jj_file *f,
                         char **notes_out,
                         jj_error *err);
jj_code jjx_convert_header(const char *path, jj_format fmt,
                           const jjx_copts *conv, struct jjx_settings *cfg,
                           sqlite3 *db, jj_schema **schema, int64_t *count,
                           char **notes, jj_error *err);

#endif /* JJX_CONVERT_OPTS_H */
