/*
** cache.c — the per-connection document cache: a file a scan opened
** (read or decompressed, parsed, with the row index its cursors built) is
** kept for the next statement of the same connection, so the second
**   SELECT record FROM jj_open('big.jj.gz') WHERE row = 10
** neither decompresses nor scans again: it costs one stat and a seek.
**
** An entry is used while its file is the one read: before each use
** jj_file_changed compares the file at the path (device, inode, size,
** modification and change times) with the one read; a changed file is
** read again.
** Entries are keyed by the path as written, the parse flags (a typed
** table's validate=1 document is another entry) and, for a JSON or CSV
** file, the converter's options in their canonical text (convert_opts.c:
** the same options in any order or spelling are one entry, other options
** another).  Mapped files (mmap=1) are
** never cached; a typed table's declared file is kept by the table itself
** (vtab.c), not here, so no document is held twice.
**
** Budget: jj_cache_size() document bytes (256 MiB by default; 0 turns the
** cache off), counted as the decompressed size of each entry; the row index
** adds 8 bytes a row visited.  Beyond it the least recently used entries
** not in use by a running statement are dropped; a document that does not
** fit is read for its statement only.  jj_max_size() still bounds every
** document, cached or not.
**
**   SELECT jj_cache_size();          the budget now
**   SELECT jj_cache_size(0);         turn it off (and empty it); returns
**                                    the previous budget
**   SELECT * FROM jj_cache;          path, bytes, hits, in_use, options
**                                    (the converter's, or NULL) per entry
*/
#include <string.h>

#include "ext.h"

static void unlink_entry(jjx_cache *c, jjx_centry *e) {
  if (e->prev) e->prev->next = e->next;
  else c->head = e->next;
  if (e->next) e->next->prev = e->prev;
  else c->tail = e->prev;
  e->prev = e->next = NULL;
  c->used -= e->file.len;
}

static void push_front(jjx_cache *c, jjx_centry *e) {
  e->prev = NULL;
  e->next = c->head;
  if (c->head) c->head->prev = e;
  c->head = e;
  if (!c->tail) c->tail = e;
  c->used += e->file.len;
}

static void free_entry(jjx_centry *e) {
  jj_doc_free(e->doc);
  jj_file_close(&e->file);
  sqlite3_free(e->path);
  sqlite3_free(e->conv);
  sqlite3_free(e->notes);
  sqlite3_free(e);
}

/* Take e out of the cache; freed now when unused, else by its last user. */
static void detach(jjx_cache *c, jjx_centry *e) {
  unlink_entry(c, e);
  e->cache = NULL;
  if (e->refs == 0) free_entry(e);
}

void jjx_cache_release(jjx_centry *e) {
  if (e && --e->refs == 0 && !e->cache) free_entry(e);
}

/* Drop unused entries, least recently used first, until `need` more bytes
** fit under the budget.  1 when they fit. */
static int make_room(jjx_cache *c, uint64_t budget, uint64_t need) {
  jjx_centry *e = c->tail;
  while (e && c->used + need > budget) {
    jjx_centry *prev = e->prev;
    if (e->refs == 0) detach(c, e);
    e = prev;
  }
  return c->used + need <= budget;
}

void jjx_cache_trim(jjx_cache *c, uint64_t budget) {
  make_room(c, budget, 0);
  /* what is still over is in use: detach it, freed when the scan ends */
  while (c->used > budget && c->tail) detach(c, c->tail);
}

/* The same converter options: both none, or the same canonical text. */
static int same_conv(const char *a, const char *b) {
  return a == b || (a && b && strcmp(a, b) == 0);
}

jjx_centry *jjx_cache_get(jjx_cache *c, const char *path, unsigned flags,
                          const char *conv, uint64_t max_size) {
  for (jjx_centry *e = c->head; e; e = e->next) {
    if (e->parse_flags != flags || strcmp(e->path, path) != 0 ||
        !same_conv(e->conv, conv))
      continue;
    if (jj_file_changed(&e->file, path)) {
      detach(c, e);
      return NULL;
    }
    if (max_size && e->file.len > max_size) return NULL;
    unlink_entry(c, e);
    push_front(c, e);
    e->hits++;
    e->refs++;
    return e;
  }
  return NULL;
}

jjx_centry *jjx_cache_put(jjx_cache *c, const char *path, unsigned flags,
                          const char *conv, jj_file *f, jj_doc *doc) {
  jjx_centry *e = sqlite3_malloc(sizeof *e);
  char *name = sqlite3_mprintf("%s", path);
  char *key = conv ? sqlite3_mprintf("%s", conv) : NULL;
  if (!e || !name || (conv && !key)) {
    sqlite3_free(e);
    sqlite3_free(name);
    sqlite3_free(key);
    jj_doc_free(doc);
    jj_file_close(f);
    return NULL;
  }
  memset(e, 0, sizeof *e);
  e->path = name;
  e->conv = key;
  e->parse_flags = flags;
  e->file = *f;
  memset(f, 0, sizeof *f);
  e->doc = doc;
  e->refs = 1;
  /* an older entry for the same name, flags and options is of another
  ** file */
  for (jjx_centry *o = c->head; o; o = o->next) {
    if (o->parse_flags == flags && strcmp(o->path, path) == 0 &&
        same_conv(o->conv, conv)) {
      detach(c, o);
      break;
    }
  }
  if (c->budget && e->file.len <= c->budget &&
      make_room(c, c->budget, e->file.len)) {
    e->cache = c;
    push_front(c, e);
  }
  return e;
}

void jjx_cache_size_func(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  jjx_settings *s = sqlite3_user_data(ctx);
  if (jjx_byte_setting(ctx, argc, argv, "jj_cache_size", "no cache",
                       &s->cache.budget))
    jjx_cache_trim(&s->cache, s->cache.budget); /* a smaller budget */
}

/* ---------------------------------------------------------------------- */
/* jj_cache: the entries, most recently used first                         */
/* ---------------------------------------------------------------------- */

typedef struct cache_row {
  char *path;
  char *conv;
  sqlite3_int64 bytes, hits;
  int in_use;
} cache_row;


typedef struct cache_cursor {
  jjx_snapshot s; /* first */
  cache_row *rows; /* a snapshot taken by xFilter */
} cache_cursor;

static int jjCacheConnect(sqlite3 *db, void *aux, int argc,
                          const char *const *argv, sqlite3_vtab **ppVtab,
                          char **pzErr) {
  (void)argc;
  (void)argv;
  (void)pzErr;
  return jjx_state_connect(db, aux,
                           "CREATE TABLE x(path TEXT, bytes INTEGER, hits "
                           "INTEGER, in_use INTEGER, options TEXT)",
                           ppVtab);
}

static int jjCacheBestIndex(sqlite3_vtab *vtab, sqlite3_index_info *info) {
  (void)vtab;
  info->estimatedCost = 10;
  info->estimatedRows = 10;
  return SQLITE_OK;
}

static int jjCacheOpen(sqlite3_vtab *vtab, sqlite3_vtab_cursor **ppCur) {
  (void)vtab;
  return jjx_cursor_new(sizeof(cache_cursor), ppCur);
}

static void cache_cursor_reset(cache_cursor *c) {
  for (int i = 0; i < c->s.n; i++) {
    sqlite3_free(c->rows[i].path);
    sqlite3_free(c->rows[i].conv);
  }
  sqlite3_free(c->rows);
  c->rows = NULL;
  c->s.n = c->s.i = 0;
}

static int jjCacheClose(sqlite3_vtab_cursor *cur) {
  cache_cursor_reset((cache_cursor *)cur);
  sqlite3_free(cur);
  return SQLITE_OK;
}

static int jjCacheFilter(sqlite3_vtab_cursor *cur, int idxNum,
                         const char *idxStr, int argc, sqlite3_value **argv) {
  cache_cursor *c = (cache_cursor *)cur;
  jjx_cache *cache = &((jjx_state_table *)cur->pVtab)->cfg->cache;
  int n = 0;
  (void)idxNum;
  (void)idxStr;
  (void)argc;
  (void)argv;
  cache_cursor_reset(c);
  for (jjx_centry *e = cache->head; e; e = e->next) n++;
  if (n == 0) return SQLITE_OK;
  c->rows = sqlite3_malloc64((sqlite3_uint64)n * sizeof *c->rows);
  if (!c->rows) return SQLITE_NOMEM;
  for (jjx_centry *e = cache->head; e; e = e->next) {
    cache_row *r = &c->rows[c->s.n];
    r->path = sqlite3_mprintf("%s", e->path);
    r->conv = e->conv ? sqlite3_mprintf("%s", e->conv) : NULL;
    if (!r->path || (e->conv && !r->conv)) {
      sqlite3_free(r->path);
      sqlite3_free(r->conv);
      return SQLITE_NOMEM;
    }
    r->bytes = (sqlite3_int64)e->file.len;
    r->hits = e->hits;
    r->in_use = e->refs > 0;
    c->s.n++;
  }
  return SQLITE_OK;
}

static int jjCacheColumn(sqlite3_vtab_cursor *cur, sqlite3_context *ctx,
                         int col) {
  cache_cursor *c = (cache_cursor *)cur;
  const cache_row *r = &c->rows[c->s.i];
  switch (col) {
    case 0:
      sqlite3_result_text(ctx, r->path, -1, SQLITE_TRANSIENT);
      break;
    case 1:
      sqlite3_result_int64(ctx, r->bytes);
      break;
    case 2:
      sqlite3_result_int64(ctx, r->hits);
      break;
    case 3:
      sqlite3_result_int(ctx, r->in_use);
      break;
    default:
      if (r->conv) sqlite3_result_text(ctx, r->conv, -1, SQLITE_TRANSIENT);
      break;
  }
  return SQLITE_OK;
}

const sqlite3_module jjx_cache_module = {
    0,                   /* iVersion */
    NULL,                /* xCreate: eponymous only */
    jjCacheConnect,      /* xConnect */
    jjCacheBestIndex,    /* xBestIndex */
    jjx_vtab_disconnect, /* xDisconnect */
    NULL,                /* xDestroy */
    jjCacheOpen,         /* xOpen */
    jjCacheClose,        /* xClose */
    jjCacheFilter,       /* xFilter */
    jjx_snapshot_next,   /* xNext */
    jjx_snapshot_eof,    /* xEof */
    jjCacheColumn,       /* xColumn */
    jjx_snapshot_rowid,  /* xRowid */
    NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL};
