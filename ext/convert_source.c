/*
** convert_source.c — a JSON, NDJSON, CSV or TSV file as jj_open's SOURCE.
**
** The file's name says its format (jj_format_for_path: .json, .ndjson,
** .jsonl, .csv, .tsv, each maybe with .gz or .br).  It is converted whole,
** by the converter with its default options (the command-line tool's
** `jalapenojson convert`), into a document in memory that is kept in the
** connection's cache like a document file: the columns are those the
** converter infers from every row, and a later statement, or the scan
** after the typed table's CREATE, reads the cached document until the file
** changes.  The converter's decisions go to sqlite3_log and to jj_notes().
**
** Called by source.c; calls notes.c.
*/
#include <stdio.h>
#include <string.h>

#include "ext.h"

jj_code jjx_convert_file(const char *path, jj_format fmt,
                         const jj_file_opts *fo, jjx_settings *cfg, jj_file *f,
                         jj_error *err) {
  jj_convert_opts co;
  jjx_notes notes;
  memset(&co, 0, sizeof co);
  co.from = fmt;
  co.max_size = fo->max_size;
  co.interrupt = fo->interrupt;
  co.interrupt_ctx = fo->interrupt_ctx;
  jjx_notes_begin(&notes, "jj_open");
  co.note = jjx_note;
  co.note_ctx = &notes;
  jj_code code = jj_file_convert(path, fo, &co, f, NULL, err);
  if (code == JJ_OK && cfg)
    jjx_notes_publish(&notes, cfg);
  else
    jjx_notes_discard(&notes);
  return code;
}

static jj_code nomem(jj_error *err) {
  memset(err, 0, sizeof *err);
  err->code = JJ_ERR_NOMEM;
  snprintf(err->message, sizeof err->message, "out of memory");
  return JJ_ERR_NOMEM;
}

jj_code jjx_convert_header(const char *path, jj_format fmt, jjx_settings *cfg,
                           sqlite3 *db, jj_schema **schema, int64_t *count,
                           jj_error *err) {
  jjx_cache *cache = cfg && cfg->cache.budget ? &cfg->cache : NULL;
  uint64_t max_size = cfg ? cfg->max_size : 0;
  jjx_centry *e = cache ? jjx_cache_get(cache, path, 0, max_size) : NULL;
  jj_file file;
  jj_doc *doc = NULL;
  *schema = NULL;
  if (!e) {
    jj_file_opts fo;
    jjx_poll poll;
    memset(&fo, 0, sizeof fo);
    fo.max_size = max_size;
    jjx_poll_begin(&poll, db); /* a large file converts for a while */
    if (db) {
      fo.interrupt = jjx_poll_check;
      fo.interrupt_ctx = &poll;
    }
    jj_code code = jjx_convert_file(path, fmt, &fo, cfg, &file, err);
    jjx_poll_end(&poll);
    if (code) return code;
    if (!(doc = jj_parse(file.data, file.len, err))) {
      jj_file_close(&file);
      return err->code;
    }
    if (cache && !(e = jjx_cache_put(cache, path, 0, &file, doc)))
      return nomem(err);
  }
  jj_doc *d = e ? e->doc : doc;
  *schema = jj_schema_copy(jj_doc_schema(d));
  *count = jj_doc_declared_count(d);
  if (e) {
    jjx_cache_release(e);
  } else {
    jj_doc_free(doc);
    jj_file_close(&file);
  }
  return *schema ? JJ_OK : nomem(err);
}
