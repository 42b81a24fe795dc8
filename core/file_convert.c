/*
** file_convert.c — a JSON, NDJSON, CSV or TSV file opened as a document:
** read as jj_file_open_opts reads a document file (its refusals, limits
** and identity), then converted into memory, so that whatever holds a
** jj_file (the SQLite extension's cache, a reader) holds the converted
** document the same way, and jj_file_changed still tells when the file
** under it changed.
*/
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* 1 when name[0..n) ends in the ASCII suffix s, case ignored. */
static int ends_in(const char *name, size_t n, const char *s) {
  size_t k = strlen(s);
  if (n < k) return 0;
  for (size_t i = 0; i < k; i++) {
    char c = name[n - k + i];
    if (c >= 'A' && c <= 'Z') c = (char)(c - 'A' + 'a');
    if (c != s[i]) return 0;
  }
  return 1;
}

jj_format jj_format_for_path(const char *path) {
  if (!path) return JJ_FORMAT_AUTO;
  size_t n = strlen(path);
  if (ends_in(path, n, ".gz")) n -= 3;
  else if (ends_in(path, n, ".br")) n -= 3;
  if (ends_in(path, n, ".json")) return JJ_FORMAT_JSON;
  if (ends_in(path, n, ".ndjson") || ends_in(path, n, ".jsonl"))
    return JJ_FORMAT_NDJSON;
  if (ends_in(path, n, ".csv")) return JJ_FORMAT_CSV;
  if (ends_in(path, n, ".tsv")) return JJ_FORMAT_TSV;
  return JJ_FORMAT_AUTO;
}

jj_code jj_file_convert(const char *path, const jj_file_opts *fopts,
                        const jj_convert_opts *copts, jj_file *f,
                        jj_convert_result *res, jj_error *err) {
  jj_file_opts fo;
  jj_convert_opts co;
  jj_error e;
  jj_input in;
  jj_buf out = {0};
  if (res) memset(res, 0, sizeof *res);
  if (!err) err = &e;
  memset(&fo, 0, sizeof fo);
  if (fopts) fo = *fopts;
  fo.prefix = 0;
  fo.flags &= ~JJ_FILE_MMAP; /* the bytes are read once, then dropped */
  jj_code code = jj_file_open_opts(path, &fo, f, err);
  if (code) return code;
  memset(&co, 0, sizeof co);
  if (copts) co = *copts;
  if (!co.interrupt) co.interrupt = fo.interrupt, co.interrupt_ctx = fo.interrupt_ctx;
  /* named as the caller named the file, as the converter's messages are */
  jj_input_memory(&in, f->data, f->len, path);
  code = jj_convert(&in, &co, jj_buf_sink, &out, res, err);
  if (!code && fo.max_size && out.len > fo.max_size)
    code = jj_fail(err, JJ_ERR_LIMIT, NULL,
                   "%s: the converted document is %zu bytes, over the limit "
                   "of %llu bytes",
                   path, out.len, (unsigned long long)fo.max_size);
  if (!code && !out.p && jj_buf_append(&out, "", 0))
    code = jj_fail(err, JJ_ERR_NOMEM, NULL, "out of memory");
  if (code) {
    jj_buf_free(&out);
    jj_file_close(f);
    if (res) {
      jj_schema_free(res->schema);
      res->schema = NULL;
    }
    return code;
  }
  /* the document replaces the file's bytes; the identity stays */
  free(f->heap_);
  f->heap_ = out.p;
  f->data = out.p;
  f->len = out.len;
  f->complete = 1;
  return JJ_OK;
}
