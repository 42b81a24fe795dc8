/*
** source.c — turn a SOURCE into an open document (header.c reads only
** its header, with the helpers shared in source_raw.h).
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
** bytes held, interrupt polling, the converter's options of a JSON or CSV
** file, refused for any other SOURCE).  Connecting a typed table and
** jj_schema read the header only (header.c).
**
** Errors name the source first, the way the user wrote it:
**   rows.jj: row 1042, column "joined", byte 65123: "2023-02-29" is not ...
**   blob: byte 0: ...
** Errors of jj_file_open_opts already name the file ("cannot open "x.jj":
** No such file or directory") and are passed on as they are.
**
** File names: a pattern (glob.c) is expanded by the scan (scan.c); a name
** whose glob characters are all escaped is the unescaped file.  A
** scan's file goes through the connection's cache (cache.c) when its
** limits name one.  Long reads poll interrupts and tick the progress
** handler through the scan's jjx_poll (settings.c) when the limits give
** one, else through one of their own.
**
** Called by scan.c and vtab.c (jj_open), header.c; calls cache.c,
** convert_source.c, glob.c, settings.c and util.c, never back up.
*/
#include <string.h>

#include "ext.h"
#include "source_raw.h"

/* How to lift the limit that stopped a read. */
static const char *hint(const jjx_limits *lim) {
  return lim->by_option ? "the table's max_size option"
                        : "raise it with SELECT jj_max_size(N)";
}

int jjx_source_fail(const char *label, const jj_error *err,
                    const jjx_limits *lim, char **pzErr) {
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

int jjx_hint_formats(int rc, const jj_error *err, const char *data,
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
  return jjx_hint_formats(jjx_source_fail(s->label, &err, NULL, pzErr), &err,
                          s->data, s->len, pzErr);
}

/* ---------------------------------------------------------------------- */
/* BLOBs: plain, gzip or brotli                                            */
/* ---------------------------------------------------------------------- */

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

int jjx_blob_bytes(const char *label, const char *p, size_t len,
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
  if (!z) return jjx_source_fail(label, &err, lim, pzErr);
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
  return jjx_source_fail(label, &err, lim, pzErr);
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
    rc = jjx_blob_bytes(s->label, r->p, r->len, lim, &c, &data, &len,
                        &complete, pzErr);
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
  if (code != JJ_OK) return jjx_source_fail(NULL, &err, lim, pzErr);
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

int jjx_value_raw(sqlite3_value *v, raw *r, char **label, char **pzErr) {
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

raw jjx_decl_raw(const jjx_decl *d) {
  raw r = {d->kind, d->glob, NULL, d->bytes ? d->bytes : "", d->len, 0};
  if (d->kind == JJX_DECL_PATH) r.path = d->label;
  return r;
}

int jjx_source_open_value(jjx_source *s, sqlite3_value *v,
                          const jjx_limits *lim, char **pzErr) {
  raw r;
  memset(s, 0, sizeof *s);
  *pzErr = NULL;
  int rc = jjx_value_raw(v, &r, &s->label, pzErr);
  if (rc == SQLITE_OK && r.kind) rc = open_raw(s, &r, lim, pzErr);
  if (rc != SQLITE_OK) jjx_source_close(s);
  return rc;
}

int jjx_source_open_decl(jjx_source *s, const jjx_decl *d,
                         const jjx_limits *lim, char **pzErr) {
  raw r = jjx_decl_raw(d);
  memset(s, 0, sizeof *s);
  *pzErr = NULL;
  s->label = sqlite3_mprintf("%s", d->label);
  int rc = s->label ? open_raw(s, &r, lim, pzErr) : SQLITE_NOMEM;
  if (rc != SQLITE_OK) jjx_source_close(s);
  return rc;
}
