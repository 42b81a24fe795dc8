/*
** jj-demo.c — the library end to end, as sample code:
**
**   build/jj-demo orders.jj       (or orders.jj.gz to write it gzipped)
**
** 1. builds a schema with every column type, including a nested table,
** 2. writes three rows through jj_writer straight into the file, atomically
**    (a crash leaves the old file, never half a new one),
** 3. reads the file back (jj_file_open), parses it and prints every row as a
**    plain JSON object, then a summary line.
** Any error ends the program with its message and exit status 1.
*/
#include <stdio.h>
#include <string.h>

#include "jalapenojson.h"

/* Print bytes to stdout (a jj_sink). */
static int print_sink(void *ctx, const char *p, size_t len) {
  (void)ctx;
  return fwrite(p, 1, len, stdout) != len;
}

/* The schema: one column of each type, plus "items" (sku, qty) nested. */
static jj_schema *make_schema(jj_error *err) {
  static const struct {
    const char *name;
    jj_type type;
  } cols[] = {
      {"id", JJ_INT},       {"customer", JJ_TEXT},     {"total", JJ_FLOAT},
      {"ordered", JJ_DATE}, {"shipped", JJ_TIMESTAMP}, {"paid", JJ_BOOL},
      {"receipt", JJ_BYTES}};
  jj_schema *s = jj_schema_new(), *items = jj_schema_new();
  if (!s || !items || jj_schema_add(items, "sku", 3, JJ_TEXT, NULL, err) ||
      jj_schema_add(items, "qty", 3, JJ_INT, NULL, err)) {
    jj_schema_free(s);
    jj_schema_free(items);
    return NULL;
  }
  for (size_t i = 0; i < sizeof cols / sizeof cols[0]; i++)
    if (jj_schema_add(s, cols[i].name, strlen(cols[i].name), cols[i].type, NULL,
                      err)) {
      jj_schema_free(s);
      jj_schema_free(items);
      return NULL;
    }
  if (jj_schema_add(s, "items", 5, JJ_TABLE, items, err)) { /* takes items */
    jj_schema_free(s);
    return NULL;
  }
  return s;
}

/* Three orders; the writer checks every value (try a bad date). */
static jj_code write_rows(jj_writer *w) {
  static const char *const customers[] = {"Ada", "Grace \"Amazing\"", NULL};
  static const char *const ordered[] = {"2024-02-29", "2024-03-01", NULL};
  jj_code rc = JJ_OK;
  for (int i = 0; i < 3 && !rc; i++) {
    rc = jj_writer_int(w, 1001 + i);
    if (!rc)
      rc = customers[i] ? jj_writer_text(w, customers[i], strlen(customers[i]))
                        : jj_writer_null(w);
    if (!rc) rc = jj_writer_double(w, i == 2 ? 0.1 + 0.2 : 19.5 * (i + 1));
    if (!rc)
      rc = ordered[i] ? jj_writer_date(w, ordered[i], 10) : jj_writer_null(w);
    if (!rc) rc = jj_writer_timestamp(w, "2024-03-04T09:30:00.125+01:00", 29);
    if (!rc) rc = jj_writer_bool(w, i != 1);
    if (!rc) rc = jj_writer_bytes(w, "\x00\x01\xfe\xff", (size_t)i + 1);
    if (!rc) rc = jj_writer_begin_table(w); /* items: i + 1 rows */
    for (int k = 0; k <= i && !rc; k++) {
      char sku[16];
      int n = snprintf(sku, sizeof sku, "SKU-%d", 7 * (k + 1));
      rc = jj_writer_text(w, sku, (size_t)n);
      if (!rc) rc = jj_writer_int(w, k + 1);
      if (!rc) rc = jj_writer_end_row(w);
    }
    if (!rc) rc = jj_writer_end_table(w);
    if (!rc) rc = jj_writer_end_row(w);
  }
  return rc ? rc : jj_writer_finish(w);
}

/* writer -> (gzip) -> temporary file -> rename over `path`. */
static jj_code write_file(const char *path, const jj_schema *s, jj_error *err) {
  jj_compression kind = jj_compression_for_path(path);
  jj_deflater *z = NULL;
  jj_writer *w = NULL;
  jj_atomic *a = jj_atomic_open(path, err);
  if (!a) return err->code;
  if (kind != JJ_PLAIN) {
    z = jj_deflate_new(kind, -1, jj_atomic_sink, a, err);
    if (!z) goto fail;
  }
  w = z ? jj_writer_new(s, jj_deflate_sink, z, err)
        : jj_writer_new(s, jj_atomic_sink, a, err);
  if (!w) goto fail;
  if (write_rows(w)) {
    *err = *jj_writer_error(w);
    goto fail;
  }
  if (z && jj_deflate_finish(z, err)) goto fail;
  jj_writer_free(w);
  jj_deflate_free(z);
  return jj_atomic_commit(a, err); /* frees a */
fail:
  jj_writer_free(w);
  jj_deflate_free(z);
  jj_atomic_abort(a); /* the old file, if any, is untouched */
  return err->code;
}

/* Map the file, parse it, print each row as a JSON object. */
static jj_code print_file(const char *path, jj_error *err) {
  static const char *const how[] = {"plain", "gzip", "brotli"};
  jj_file f;
  jj_cursor *c = NULL;
  int64_t rows = 0;
  int more = -1;
  if (jj_file_open(path, 0, &f, err)) return err->code;
  jj_doc *doc = jj_parse(f.data, f.len, err); /* borrows f.data */
  if (doc) c = jj_cursor_new(doc, err);
  while (c && (more = jj_cursor_next(c, err)) == 1) {
    if (jj_cursor_object(c, print_sink, NULL, err)) {
      more = -1;
      break;
    }
    putchar('\n');
    rows++;
  }
  if (more == 0)
    printf("%s: %lld rows, %zu columns, %zu bytes of JSON, stored %s\n", path,
           (long long)rows, jj_schema_columns(jj_doc_schema(doc)), f.len,
           how[f.compression]);
  jj_cursor_free(c);
  jj_doc_free(doc); /* before the bytes it borrows */
  jj_file_close(&f);
  return more == 0 ? JJ_OK : err->code;
}

/* jj-demo FILE: write, read back, print; exit 1 with the message on error. */
int main(int argc, char **argv) {
  jj_error err = {0};
  if (argc != 2) {
    fprintf(stderr, "usage: %s FILE.jj[.gz|.br]\n", argv[0]);
    return 2;
  }
  jj_schema *s = make_schema(&err);
  if (!s || write_file(argv[1], s, &err) || print_file(argv[1], &err)) {
    fprintf(stderr, "jj-demo: %s\n", err.code ? err.message : "out of memory");
    jj_schema_free(s);
    return 1;
  }
  jj_schema_free(s);
  return 0;
}
