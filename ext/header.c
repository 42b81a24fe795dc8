/*
** header.c — a SOURCE's header read without its rows: what connecting a
** typed table and jj_schema need (the columns, the declared count, a row
** estimate).
**
** A file or compressed bytes are read (decompressed) JJX_HEADER_FIRST
** bytes at first, doubling until the header parses, up to
** JJX_HEADER_LIMIT; nothing blocks (regular files only) and the rows are
** never looked at.  A JSON or CSV file is the exception: converted whole
** (convert_source.c), with the converter's options, into the cache.  A
** glob reads its first file's header, or with union_by_name every file's,
** merged by union.c.
**
** Called by vtab.c and schema_vtab.c; calls source.c's helpers
** (source_raw.h), convert_source.c, glob.c, union.c, settings.c.
*/
#include <string.h>
#include <sys/stat.h>

#include "ext.h"
#include "source_raw.h"

/* ---------------------------------------------------------------------- */
/* Reading only the header                                                 */
/* ---------------------------------------------------------------------- */

/* 1 when a failed parse of a prefix of `len` bytes failed for a reason
** that more bytes cannot change: an error well before the end of the
** prefix that is not a string running past it (an unterminated string is
** reported where it starts). */
static int real_error(const jj_error *err, size_t len) {
  return err->offset != JJ_NO_OFFSET && err->offset + 64 <= len &&
         !strstr(err->message, "unterminated");
}

static int header_one(jjx_header *h, const raw *r, const jjx_copts *conv,
                      sqlite3 *db, jjx_settings *cfg, char **pzErr);

/* Read r's header into h (label set by the caller).  A pattern: the first
** file it matches (an error when none does), or with union_by_name every
** one's, merged into h->uni (the files of a glob are in name order). */
static int header_raw(jjx_header *h, const raw *r, int union_by_name,
                      const jjx_glob_limits *glob, const jjx_copts *conv,
                      sqlite3 *db, jjx_settings *cfg, char **pzErr) {
  h->nfiles = 1;
  h->uni.fold = 1; /* a CREATE's columns: SQL names */
  if (!r->glob && !union_by_name)
    return header_one(h, r, conv, db, cfg, pzErr);
  if (!r->glob) { /* the union of one document: its columns */
    int rc = header_one(h, r, conv, db, cfg, pzErr);
    if (rc == SQLITE_OK) rc = jjx_union_add(&h->uni, h->label, h->schema,
                                            pzErr);
    return rc;
  }
  jjx_files f;
  jjx_poll poll;
  memset(&f, 0, sizeof f);
  jjx_poll_begin(&poll, db);
  int rc = jjx_files_expand(&f, r->path, glob, &poll, pzErr);
  if (rc == SQLITE_OK && f.n == 0) {
    *pzErr = sqlite3_mprintf("%s: no file matches (escape * ? [ with \\ "
                             "to name a file that has them)", r->path);
    rc = *pzErr ? SQLITE_ERROR : SQLITE_NOMEM;
  }
  h->nfiles = f.n;
  int64_t est = 0;
  for (int i = 0; rc == SQLITE_OK && i < (union_by_name ? f.n : 1); i++) {
    jjx_header one;
    /* A header read is little work, but a glob of thousands of files is
    ** much: each after the first counts as JJX_TICK_HEADER steps (the
    ** first alone, as for one file, prepares no probe). */
    if (i > 0 && jjx_poll_tick(&poll, JJX_TICK_HEADER)) {
      *pzErr = sqlite3_mprintf("interrupted");
      rc = *pzErr ? SQLITE_INTERRUPT : SQLITE_NOMEM;
      break;
    }
    raw file = *r;
    file.glob = 0;
    file.path = f.name[i];
    memset(&one, 0, sizeof one);
    one.label = f.name[i];
    rc = header_one(&one, &file, conv, db, cfg, pzErr);
    if (rc == SQLITE_OK && union_by_name)
      rc = jjx_union_add(&h->uni, f.name[i], one.schema, pzErr);
    est += one.est_rows;
    if (rc == SQLITE_OK && i == 0) { /* the first file's is the header */
      h->schema = one.schema;
      h->count = one.count;
      h->notes = one.notes;
      one.schema = NULL;
      one.notes = NULL;
    }
    jj_schema_free(one.schema);
    sqlite3_free(one.notes);
  }
  jjx_poll_end(&poll);
  /* Estimates: the sum of every file's, else the first one's for each. */
  h->est_rows = union_by_name ? est : est * f.n;
  if (rc == SQLITE_OK && union_by_name) {
    jj_schema_free(h->schema);
    h->schema = jj_schema_copy(h->uni.schema);
    if (!h->schema) rc = SQLITE_NOMEM;
  }
  jjx_files_free(&f);
  return rc;
}

/* Read one SOURCE's header into h.  Prefixes of JJX_HEADER_FIRST bytes,
** doubled while the header is cut short, up to JJX_HEADER_LIMIT. */
static int header_one(jjx_header *h, const raw *r, const jjx_copts *conv,
                      sqlite3 *db, jjx_settings *cfg, char **pzErr) {
  size_t want = JJX_HEADER_FIRST;
  uint64_t size = r->len;
  int compressed = 0;
  jj_format fmt = r->kind == JJX_DECL_PATH ? jj_format_for_path(r->path) : 0;
  if (jjx_copts_check(conv, fmt, r->kind == JJX_DECL_PATH, h->label, pzErr))
    return *pzErr ? SQLITE_ERROR : SQLITE_NOMEM;
  if (fmt) { /* JSON or CSV: converted whole, its rows counted */
    jj_error err;
    jjx_limits lim; /* what the scan's would say of the limit */
    memset(&lim, 0, sizeof lim);
    lim.max_size = cfg ? cfg->max_size : 0;
    if (jjx_convert_header(r->path, fmt, conv, cfg, db, &h->schema,
                           &h->count, &h->notes, &err))
      return jjx_source_fail(NULL, &err, &lim, pzErr);
    h->est_rows = h->count > 0 ? h->count : 1;
    return SQLITE_OK;
  }
  for (;;) {
    jj_file f;
    capped c;
    jj_error err;
    const char *data = r->p;
    size_t len = r->len;
    int complete = 1, rc = SQLITE_OK;
    memset(&f, 0, sizeof f);
    memset(&c, 0, sizeof c);
    c.stop = want;
    if (r->kind == JJX_DECL_PATH) {
      jj_file_opts o;
      memset(&o, 0, sizeof o);
      o.prefix = want;
      if (jj_file_open_opts(r->path, &o, &f, &err) != JJ_OK)
        return jjx_source_fail(NULL, &err, NULL, pzErr);
      data = f.data;
      len = f.len;
      complete = f.complete;
      compressed = f.compression != JJ_PLAIN;
    } else if (r->kind == JJX_DECL_BLOB) {
      rc = jjx_blob_bytes(h->label, r->p, r->len, NULL, &c, &data, &len,
                      &complete, pzErr);
      compressed = data != r->p;
    }
    jj_doc *doc = rc == SQLITE_OK ? jj_parse(data, len, &err) : NULL;
    if (doc) {
      h->schema = jj_schema_copy(jj_doc_schema(doc));
      h->count = jj_doc_declared_count(doc);
      jj_doc_free(doc);
    }
    if (rc == SQLITE_OK && !doc && err.code != JJ_ERR_NOMEM &&
        (complete || real_error(&err, len))) /* while data is still here */
      rc = jjx_hint_formats(jjx_source_fail(h->label, &err, NULL, pzErr),
                            &err, data, len, pzErr);
    jj_file_close(&f);
    jjx_buf_free(&c.out);
    if (rc != SQLITE_OK) return rc;
    if (doc) break;
    if (err.code == JJ_ERR_NOMEM) return SQLITE_NOMEM;
    if (want >= JJX_HEADER_LIMIT) {
      *pzErr = sqlite3_mprintf("%s: the header is larger than %llu bytes",
                               h->label,
                               (unsigned long long)JJX_HEADER_LIMIT);
      return *pzErr ? SQLITE_ERROR : SQLITE_NOMEM;
    }
    want = want * 2 < JJX_HEADER_LIMIT ? want * 2 : JJX_HEADER_LIMIT;
  }
  if (!h->schema) return SQLITE_NOMEM;
  if (r->kind == JJX_DECL_PATH) {
    struct stat st;
    size = stat(r->path, &st) == 0 && st.st_size > 0 ? (uint64_t)st.st_size
                                                     : 0;
  }
  /* A compressed document holds several times its size in rows. */
  h->est_rows = h->count >= 0 ? h->count
                              : jjx_estimate_rows(compressed ? size * 8 : size);
  return SQLITE_OK;
}

int jjx_header_value(jjx_header *h, sqlite3_value *v, int union_by_name,
                     const jjx_copts *conv, sqlite3 *db, jjx_settings *cfg,
                     char **pzErr) {
  raw r;
  memset(h, 0, sizeof *h);
  *pzErr = NULL;
  int rc = jjx_value_raw(v, &r, &h->label, pzErr);
  h->is_file = r.kind == JJX_DECL_PATH;
  if (rc == SQLITE_OK && r.kind)
    rc = header_raw(h, &r, union_by_name, NULL, conv, db, cfg, pzErr);
  if (rc != SQLITE_OK) jjx_header_free(h);
  return rc;
}

int jjx_header_decl(jjx_header *h, const jjx_decl *d, int union_by_name,
                    const jjx_glob_limits *glob, const jjx_copts *conv,
                    sqlite3 *db, jjx_settings *cfg, char **pzErr) {
  raw r = jjx_decl_raw(d);
  memset(h, 0, sizeof *h);
  *pzErr = NULL;
  h->is_file = d->kind == JJX_DECL_PATH;
  h->label = sqlite3_mprintf("%s", d->label);
  int rc = h->label ? header_raw(h, &r, union_by_name, glob, conv, db, cfg,
                                 pzErr)
                     : SQLITE_NOMEM;
  if (rc != SQLITE_OK) jjx_header_free(h);
  return rc;
}

void jjx_header_free(jjx_header *h) {
  jj_schema_free(h->schema);
  sqlite3_free(h->notes);
  jjx_union_free(&h->uni);
  sqlite3_free(h->label);
  memset(h, 0, sizeof *h);
}
