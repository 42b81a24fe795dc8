/*
** source.c — turn a SOURCE into an open document, or read only its header.
**
**   BLOB                      a document's bytes; gzip when the bytes start
**                             with gzip's magic; brotli tried when the bytes
**                             are not JSON (brotli has no magic)
**   TEXT starting with '{'    a document (after JSON whitespace)
**   other TEXT                a file name: a regular file only, read into
**                             memory (mapped with the typed table's mmap=1),
**                             gzip by magic, brotli by a ".br" name; a
**                             .json, .ndjson, .jsonl, .csv or .tsv name
**                             (maybe with .gz or .br) is converted whole
**                             (convert_source.c)
**   NULL                      no document: the scan returns no rows
**
** A scan opens the whole document within its limits (jjx_limits: the most
** bytes held, interrupt polling).  Connecting a typed table and jj_schema
** read the header only: at most JJX_HEADER_LIMIT bytes, read or
** decompressed, whatever the SOURCE is.
**
** Errors name the source first, the way the user wrote it:
**   rows.jj: row 1042, column "joined", byte 65123: "2023-02-29" is not ...
**   blob: byte 0: ...
** Errors of jj_file_open_opts already name the file ("cannot open "x.jj":
** No such file or directory") and are passed on as they are.
**
** File names: a pattern (glob.c) is expanded by the scan (scan.c); here a
** header read takes the first file it matches, or with union_by_name reads
** every file's header (each bounded as above) and merges them (union.c);
** a name whose glob characters are all escaped is the unescaped file.  A
** scan's file goes through the connection's cache (cache.c) when its
** limits name one.  Long reads poll interrupts and tick the progress
** handler through the scan's jjx_poll (settings.c) when the limits give
** one, else through one of their own.
**
** Called by scan.c and vtab.c (jj_open), schema_vtab.c (jj_schema); calls
** cache.c, glob.c, union.c, settings.c and util.c, never back up.
*/
#include <string.h>
#include <sys/stat.h>

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

/* How to lift the limit that stopped a read. */
static const char *hint(const jjx_limits *lim) {
  return lim->by_option ? "the table's max_size option"
                        : "raise it with SELECT jj_max_size(N)";
}

/* Fail with a core error, prefixed with `label` (NULL: the message names
** its file already).  "interrupted" stands alone, as SQLite's own. */
static int fail(const char *label, const jj_error *err, const jjx_limits *lim,
                char **pzErr) {
  if (err->code == JJ_ERR_NOMEM) return SQLITE_NOMEM;
  if (err->code == JJ_ERR_INTERRUPTED)
    *pzErr = sqlite3_mprintf("interrupted");
  else if (err->code == JJ_ERR_LIMIT && lim)
    *pzErr = sqlite3_mprintf("%s%s%s (%s)", label ? label : "",
                             label ? ": " : "", err->message, hint(lim));
  else
    *pzErr = sqlite3_mprintf("%s%s%s", label ? label : "", label ? ": " : "",
                             err->message);
  return *pzErr ? jjx_rc(err->code) : SQLITE_NOMEM;
}

/* Bytes held in memory (a copied BLOB or document) over the limit. */
static int too_big(const char *label, size_t len, const jjx_limits *lim,
                   char **pzErr) {
  *pzErr = sqlite3_mprintf("%s: the document is %llu bytes, over the limit "
                           "of %llu bytes (%s)",
                           label, (unsigned long long)len,
                           (unsigned long long)lim->max_size, hint(lim));
  return *pzErr ? SQLITE_ERROR : SQLITE_NOMEM;
}

/* A BLOB that is none of the three things a BLOB may be. */
static int not_ours(const char *label, const unsigned char *p, size_t len,
                    char **pzErr) {
  *pzErr = sqlite3_mprintf("%s: not a jalapenojson document, gzip or brotli "
                           "data (starts with 0x%02x%s",
                           label, p[0], len > 1 ? "" : ")");
  if (*pzErr && len > 1) {
    char *m = sqlite3_mprintf("%z 0x%02x)", *pzErr, p[1]);
    *pzErr = m;
  }
  return *pzErr ? SQLITE_ERROR : SQLITE_NOMEM;
}

void jjx_source_close(jjx_source *s) {
  if (s->entry) {
    jjx_cache_release(s->entry);
  } else {
    jj_doc_free(s->doc);
    if (s->is_file) jj_file_close(&s->file);
  }
  sqlite3_free(s->heap);
  sqlite3_free(s->label);
  memset(s, 0, sizeof *s);
}

/* After a failed parse of data[0..len): when the bytes are not a document
** but look like text (JSON of another shape, CSV), say what would read
** them. */
static int hint_other_formats(int rc, const jj_error *err, const char *data,
                              size_t len, char **pzErr) {
  size_t i = 0;
  while (i < len && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' ||
                     data[i] == '\r'))
    i++;
  unsigned char c = i < len ? (unsigned char)data[i] : 0;
  int textual = c == '[' || c == '"' || (c >= '0' && c <= '9') ||
                ((c | 0x20) >= 'a' && (c | 0x20) <= 'z');
  if (!*pzErr || err->code != JJ_ERR_HEADER || !textual) return rc;
  char *m = sqlite3_mprintf(
      "%z (a file named .json, .ndjson, .jsonl, .csv or .tsv is converted; "
      "bytes or text: jj_open(jj_from_json(...)) or jj_from_csv)",
      *pzErr);
  *pzErr = m;
  return m ? rc : SQLITE_NOMEM;
}

/* Parse s->data[0..len) as the source's document; validate=1
** (JJ_PARSE_VALIDATE) polls through the scan's poll, or one of the
** read's own. */
static int parse(jjx_source *s, const jjx_limits *lim, char **pzErr) {
  jj_error err;
  jjx_poll own;
  jjx_poll_begin(&own, lim->db);
  s->doc = jjx_parse_polled(s->data, s->len, lim->parse_flags,
                            lim->poll ? lim->poll : &own, &err);
  jjx_poll_end(&own);
  if (s->doc) return SQLITE_OK;
  return hint_other_formats(fail(s->label, &err, NULL, pzErr), &err, s->data,
                            s->len, pzErr);
}

/* ---------------------------------------------------------------------- */
/* BLOBs: plain, gzip or brotli                                            */
/* ---------------------------------------------------------------------- */

/* Decompressed bytes go here; a header read keeps only the first `stop`. */
typedef struct capped {
  jjx_buf out;
  size_t stop; /* keep at most this many bytes; 0: all */
  int full;    /* stop was reached (more would follow) */
} capped;

static int capped_sink(void *ctx, const char *data, size_t len) {
  capped *c = ctx;
  if (c->stop && len > c->stop - c->out.len) {
    c->full = 1;
    jjx_buf_append(&c->out, data, c->stop - c->out.len);
    return 1;
  }
  return jjx_buf_append(&c->out, data, len);
}

/* 1 when p[0..len) is JSON white space only (or nothing): an empty
** document, which the parser names as it names an empty file, rather
** than bytes that might be brotli. */
static int blank(const char *p, size_t len) {
  for (size_t i = 0; i < len; i++)
    if (p[i] != ' ' && p[i] != '\t' && p[i] != '\n' && p[i] != '\r')
      return 0;
  return 1;
}

/* The document bytes of a BLOB p[0..len): p itself when plain (*data ==
** p), else decompressed into c->out (all of it, or the first c->stop
** bytes; *complete says which).  lim NULL: a header read (no limit, no
** polling).  SQLITE_OK, or an error with *pzErr set. */
static int blob_bytes(const char *label, const char *p, size_t len,
                      const jjx_limits *lim, capped *c, const char **data,
                      size_t *dlen, int *complete, char **pzErr) {
  jj_compression kind = jj_detect_compression(p, len);
  int guessed = 0;
  jj_error err;
  jjx_poll own, *poll = lim ? lim->poll : NULL;
  *complete = 1;
  if (kind == JJ_PLAIN && !blank(p, len) && !jjx_looks_like_document(p, len)) {
    kind = JJ_BROTLI; /* not JSON: it may be brotli */
    guessed = 1;
  }
  if (kind == JJ_PLAIN) {
    *data = p;
    *dlen = len;
    return SQLITE_OK;
  }
  jj_inflater *z = jj_inflate_new(kind, lim ? lim->max_size : 0, capped_sink,
                                  c, &err);
  if (!z) return fail(label, &err, lim, pzErr);
  jjx_poll_begin(&own, lim ? lim->db : NULL);
  if (!poll) poll = &own;
  if (poll->db) jj_inflate_set_interrupt(z, jjx_poll_check, poll);
  jj_code code = jj_inflate_write(z, p, len, &err);
  if (code == JJ_OK) code = jj_inflate_finish(z, &err);
  jj_inflate_free(z);
  jjx_poll_end(&own);
  if (c->out.oom) return SQLITE_NOMEM;
  if (c->full) { /* the prefix asked for is there: enough for a header */
    code = JJ_OK;
    *complete = 0;
  }
  const char *out = c->out.p ? c->out.p : "";
  if (code == JJ_OK) {
    if (guessed && !jjx_looks_like_document(out, c->out.len))
      return not_ours(label, (const unsigned char *)p, len, pzErr);
    *data = out;
    *dlen = c->out.len;
    return SQLITE_OK;
  }
  /* Bytes that are not brotli at all: say what they are not, rather than
  ** a brotli error about bytes that were never meant to be brotli.  Over
  ** the limit or interrupted, they were brotli. */
  if (guessed && code != JJ_ERR_LIMIT && code != JJ_ERR_INTERRUPTED &&
      code != JJ_ERR_NOMEM && !jjx_looks_like_document(out, c->out.len))
    return not_ours(label, (const unsigned char *)p, len, pzErr);
  return fail(label, &err, lim, pzErr);
}

/* ---------------------------------------------------------------------- */
/* Opening a whole document                                                */
/* ---------------------------------------------------------------------- */

/* Bytes in memory: plain bytes are copied once, compressed ones are
** decompressed straight from the argument into memory the source owns.
**
** A plain BLOB that is a bound parameter is read where it is, not copied:
** a bound value's bytes stay put until the statement is reset (SQLite
** refuses a new binding while it runs, and keeps using them itself in
** registers it loaded once), and the scan's cursor, the only holder of
** the source, is closed by that reset.  Any other value (a column, a
** function's result) may be freed as soon as xFilter returns, so it is
** copied.  At 1,000,000 rows the copy was half the time of count(*). */
static int open_bytes(jjx_source *s, const raw *r, const jjx_limits *lim,
                      char **pzErr) {
  const char *data = r->p;
  size_t len = r->len;
  int complete, rc;
  if (r->kind == JJX_DECL_BLOB) {
    capped c;
    memset(&c, 0, sizeof c);
    rc = blob_bytes(s->label, r->p, r->len, lim, &c, &data, &len, &complete,
                    pzErr);
    if (rc != SQLITE_OK) {
      jjx_buf_free(&c.out);
      return rc;
    }
    if (data != r->p) { /* decompressed: the source owns the buffer now */
      s->heap = c.out.p;
      s->data = s->heap ? s->heap : "";
      s->len = len;
      return parse(s, lim, pzErr);
    }
    if (r->bound) {
      if (lim->max_size && len > lim->max_size)
        return too_big(s->label, len, lim, pzErr);
      s->data = data;
      s->len = len;
      return parse(s, lim, pzErr);
    }
  }
  if (lim->max_size && len > lim->max_size)
    return too_big(s->label, len, lim, pzErr);
  s->heap = sqlite3_malloc64(len ? len : 1);
  if (!s->heap) return SQLITE_NOMEM;
  if (len) memcpy(s->heap, data, len);
  s->data = s->heap;
  s->len = len;
  return parse(s, lim, pzErr);
}

/* A file: read (or mapped, or decompressed) by the core, which refuses
** anything but a regular file before reading a byte. */
static void use_entry(jjx_source *s, jjx_centry *e) {
  s->entry = e;
  s->is_file = 1;
  s->doc = e->doc;
  s->data = e->file.data;
  s->len = e->file.len;
}

static int open_path(jjx_source *s, const char *path, const jjx_limits *lim,
                     char **pzErr) {
  jj_error err;
  jjx_poll own, *poll = lim->poll ? lim->poll : &own;
  jj_file_opts o;
  jjx_cache *cache = (lim->file_flags & JJ_FILE_MMAP) ? NULL : lim->cache;
  jj_format fmt = jj_format_for_path(path);
  const char *conv = fmt && lim->conv ? lim->conv->key : NULL;
  char *notes = NULL;
  if (jjx_copts_check(lim->conv, fmt, 1, path, pzErr))
    return *pzErr ? SQLITE_ERROR : SQLITE_NOMEM;
  if (cache) {
    jjx_centry *e = jjx_cache_get(cache, path, lim->parse_flags, conv,
                                  lim->max_size);
    if (e) {
      use_entry(s, e);
      return SQLITE_OK;
    }
  }
  memset(&o, 0, sizeof o);
  jjx_poll_begin(&own, lim->db);
  o.max_size = lim->max_size;
  o.flags = lim->file_flags;
  if (poll->db) {
    o.interrupt = jjx_poll_check;
    o.interrupt_ctx = poll;
  }
  jj_code code = fmt ? jjx_convert_file(path, fmt, &o, lim->conv, lim->cfg,
                                        &s->file, cache ? &notes : NULL, &err)
                     : jj_file_open_opts(path, &o, &s->file, &err);
  jjx_poll_end(&own);
  if (code != JJ_OK) return fail(NULL, &err, lim, pzErr);
  s->is_file = 1;
  s->data = s->file.data;
  s->len = s->file.len;
  int rc = parse(s, lim, pzErr);
  if (rc != SQLITE_OK || !cache) {
    sqlite3_free(notes);
    return rc;
  }
  jjx_centry *e = jjx_cache_put(cache, path, lim->parse_flags, conv,
                                &s->file, s->doc);
  s->doc = NULL; /* the entry owns file and doc now (or freed them) */
  s->is_file = 0;
  if (!e) {
    sqlite3_free(notes);
    return SQLITE_NOMEM;
  }
  e->notes = notes; /* jj_schema's, when it reads the header from here */
  use_entry(s, e);
  return SQLITE_OK;
}

int jjx_source_open_path(jjx_source *s, const char *path,
                         const jjx_limits *lim, char **pzErr) {
  memset(s, 0, sizeof *s);
  *pzErr = NULL;
  s->label = sqlite3_mprintf("%s", path);
  int rc = s->label ? open_path(s, path, lim, pzErr) : SQLITE_NOMEM;
  if (rc != SQLITE_OK) jjx_source_close(s);
  return rc;
}

static int open_raw(jjx_source *s, const raw *r, const jjx_limits *lim,
                    char **pzErr) {
  if (r->kind == JJX_DECL_PATH) return open_path(s, r->path, lim, pzErr);
  if (jjx_copts_check(lim->conv, JJ_FORMAT_AUTO, 0, s->label, pzErr))
    return *pzErr ? SQLITE_ERROR : SQLITE_NOMEM;
  return open_bytes(s, r, lim, pzErr);
}

/* An SQL value as a raw SOURCE, with its label (SQLITE_OK and kind 0 for
** NULL). */
static int value_raw(sqlite3_value *v, raw *r, char **label, char **pzErr) {
  memset(r, 0, sizeof *r);
  switch (sqlite3_value_type(v)) {
    case SQLITE_NULL:
      return SQLITE_OK;
    case SQLITE_BLOB:
      r->kind = JJX_DECL_BLOB;
      r->p = sqlite3_value_blob(v);
      r->len = (size_t)sqlite3_value_bytes(v);
      r->bound = sqlite3_value_frombind(v);
      if (!r->p) r->p = "";
      break;
    case SQLITE_TEXT:
      r->p = (const char *)sqlite3_value_text(v);
      if (!r->p) return SQLITE_NOMEM;
      r->len = (size_t)sqlite3_value_bytes(v);
      if (jjx_looks_like_document(r->p, r->len)) {
        r->kind = JJX_DECL_TEXT;
        break;
      }
      if (memchr(r->p, '\0', r->len)) {
        *pzErr = sqlite3_mprintf("a file name cannot contain a NUL byte");
        return SQLITE_ERROR;
      }
      r->kind = JJX_DECL_PATH;
      switch (jjx_glob_kind(r->p)) {
        case JJX_GLOB_ESCAPED: /* one file, named without the escapes */
          *label = jjx_glob_unescape(r->p);
          break;
        case JJX_GLOB_PATTERN:
          r->glob = 1;
          /* fall through */
        default:
          *label = sqlite3_mprintf("%s", r->p);
      }
      r->path = *label;
      return *label ? SQLITE_OK : SQLITE_NOMEM;
    default:
      *pzErr = sqlite3_mprintf(
          "SOURCE must be a BLOB, a document, a file name or NULL, not %s",
          sqlite3_value_type(v) == SQLITE_INTEGER ? "an INTEGER" : "a REAL");
      return SQLITE_ERROR;
  }
  *label = sqlite3_mprintf("blob");
  return *label ? SQLITE_OK : SQLITE_NOMEM;
}

static raw decl_raw(const jjx_decl *d) {
  raw r = {d->kind, d->glob, NULL, d->bytes ? d->bytes : "", d->len, 0};
  if (d->kind == JJX_DECL_PATH) r.path = d->label;
  return r;
}

int jjx_source_open_value(jjx_source *s, sqlite3_value *v,
                          const jjx_limits *lim, char **pzErr) {
  raw r;
  memset(s, 0, sizeof *s);
  *pzErr = NULL;
  int rc = value_raw(v, &r, &s->label, pzErr);
  if (rc == SQLITE_OK && r.kind) rc = open_raw(s, &r, lim, pzErr);
  if (rc != SQLITE_OK) jjx_source_close(s);
  return rc;
}

int jjx_source_open_decl(jjx_source *s, const jjx_decl *d,
                         const jjx_limits *lim, char **pzErr) {
  raw r = decl_raw(d);
  memset(s, 0, sizeof *s);
  *pzErr = NULL;
  s->label = sqlite3_mprintf("%s", d->label);
  int rc = s->label ? open_raw(s, &r, lim, pzErr) : SQLITE_NOMEM;
  if (rc != SQLITE_OK) jjx_source_close(s);
  return rc;
}

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
      return fail(NULL, &err, &lim, pzErr);
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
        return fail(NULL, &err, NULL, pzErr);
      data = f.data;
      len = f.len;
      complete = f.complete;
      compressed = f.compression != JJ_PLAIN;
    } else if (r->kind == JJX_DECL_BLOB) {
      rc = blob_bytes(h->label, r->p, r->len, NULL, &c, &data, &len,
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
      rc = hint_other_formats(fail(h->label, &err, NULL, pzErr), &err, data,
                              len, pzErr);
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
  int rc = value_raw(v, &r, &h->label, pzErr);
  h->is_file = r.kind == JJX_DECL_PATH;
  if (rc == SQLITE_OK && r.kind)
    rc = header_raw(h, &r, union_by_name, NULL, conv, db, cfg, pzErr);
  if (rc != SQLITE_OK) jjx_header_free(h);
  return rc;
}

int jjx_header_decl(jjx_header *h, const jjx_decl *d, int union_by_name,
                    const jjx_glob_limits *glob, const jjx_copts *conv,
                    sqlite3 *db, jjx_settings *cfg, char **pzErr) {
  raw r = decl_raw(d);
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
