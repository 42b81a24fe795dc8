/*
** convert_source.c — a JSON, NDJSON, CSV or TSV file as jj_open's SOURCE.
**
** The file's name says its format (jj_format_for_path: .json, .ndjson,
** .jsonl, .csv, .tsv, each maybe with .gz or .br).  It is converted whole,
** by the converter with the options given (convert_opts.c: a typed
** table's, or those of the OPTIONS text; none: the defaults, as the
** command-line tool's `jalapenojson convert`), into a document in memory
** that is kept in the connection's cache like a document file, under the
** options' canonical text: the columns are those the converter infers
** from every row, and a later statement, or the scan after the typed
** table's CREATE, reads the cached document until the file changes.  The
** converter's decisions go to sqlite3_log and jj_notes(), and stay with
** the cached document for jj_schema; the rows it sets aside go to
** jj_rejects (rejects.c).
**
** Called by source.c; calls notes.c, rejects.c, cache.c.
*/
#include <stdio.h>
#include <string.h>

#include "ext.h"

static jj_code nomem(jj_error *err) {
  memset(err, 0, sizeof *err);
  err->code = JJ_ERR_NOMEM;
  snprintf(err->message, sizeof err->message, "out of memory");
  return JJ_ERR_NOMEM;
}

/* The converter's options for one file: the options given (conv, may be
** NULL) with the format, limits and callbacks of this read. */
static void options_for(jj_convert_opts *co, const jjx_copts *conv,
                        jj_format fmt, const jj_file_opts *fo) {
  if (conv)
    *co = conv->co;
  else
    memset(co, 0, sizeof *co);
  co->from = fmt;
  co->max_size = fo->max_size;
  co->interrupt = fo->interrupt;
  co->interrupt_ctx = fo->interrupt_ctx;
}

jj_code jjx_convert_file(const char *path, jj_format fmt,
                         const jj_file_opts *fo, const jjx_copts *conv,
                         jjx_settings *cfg, jj_file *f, char **notes_out,
                         jj_error *err) {
  jj_convert_opts co;
  jjx_notes notes;
  jjx_reject_run rejects;
  options_for(&co, conv, fmt, fo);
  jjx_notes_begin(&notes, "jj_open");
  jjx_rejects_begin(&rejects, &notes);
  co.note = jjx_note;
  co.note_ctx = &notes;
  co.reject = jjx_reject_cb;
  co.reject_ctx = &rejects;
  if (notes_out) *notes_out = NULL;
  jj_code code = jj_file_convert(path, fo, &co, f, NULL, err);
  if (code == JJ_OK && notes_out && notes.text &&
      sqlite3_str_length(notes.text) > 0 &&
      !(*notes_out = sqlite3_mprintf("%s", sqlite3_str_value(notes.text)))) {
    jj_file_close(f);
    code = nomem(err);
  }
  if (code == JJ_OK && cfg) {
    jjx_notes_publish(&notes, cfg);
    jjx_rejects_publish(&rejects, cfg, path, conv ? conv->key : NULL);
  }
  jjx_rejects_discard(&rejects);
  jjx_notes_discard(&notes);
  return code;
}

jj_code jjx_convert_header(const char *path, jj_format fmt,
                           const jjx_copts *conv, jjx_settings *cfg,
                           sqlite3 *db, jj_schema **schema, int64_t *count,
                           char **notes, jj_error *err) {
  jjx_cache *cache = cfg && cfg->cache.budget ? &cfg->cache : NULL;
  uint64_t max_size = cfg ? cfg->max_size : 0;
  const char *key = conv ? conv->key : NULL;
  jjx_centry *e = cache ? jjx_cache_get(cache, path, 0, key, max_size) : NULL;
  jj_file file;
  jj_doc *doc = NULL;
  char *told = NULL;
  *schema = NULL;
  *notes = NULL;
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
    jj_code code = jjx_convert_file(path, fmt, &fo, conv, cfg, &file, &told,
                                    err);
    jjx_poll_end(&poll);
    if (code) return code;
    if (!(doc = jj_parse(file.data, file.len, err))) {
      jj_file_close(&file);
      sqlite3_free(told);
      return err->code;
    }
    if (cache) {
      if (!(e = jjx_cache_put(cache, path, 0, key, &file, doc))) {
        sqlite3_free(told);
        return nomem(err);
      }
      e->notes = told; /* the entry's now */
      told = NULL;
    }
  }
  jj_doc *d = e ? e->doc : doc;
  *schema = jj_schema_copy(jj_doc_schema(d));
  *count = jj_doc_declared_count(d);
  const char *text = e ? e->notes : told;
  if (text && *schema && !(*notes = sqlite3_mprintf("%s", text))) {
    jj_schema_free(*schema);
    *schema = NULL;
  }
  sqlite3_free(told);
  if (e) {
    jjx_cache_release(e);
  } else {
    jj_doc_free(doc);
    jj_file_close(&file);
  }
  return *schema ? JJ_OK : nomem(err);
}
