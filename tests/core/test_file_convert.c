/*
** test_file_convert.c — jj_file_convert: a JSON, NDJSON, CSV or TSV file
** opened as a document (the converter's document, byte for byte, from
** plain and gzip files), its identity kept for jj_file_changed, its errors
** the converter's and the file reader's, its limit on both sides; and
** jj_format_for_path.
*/
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "../lib/gen.h"
#include "../lib/test.h"
#include "jalapenojson.h"

static char tmpdir[] = "/tmp/jj-test-file-convert-XXXXXX";

static void put(const char *name, const char *text) {
  FILE *f = fopen(name, "wb");
  fputs(text, f);
  fclose(f);
}

static const char CSV[] = "id,name,day\n1,Ada,2024-01-31\n2,\"Lin, Bo\",\n";

/* The converter's document for the same bytes, from memory. */
static char *converted(const char *text, jj_format fmt) {
  jj_input in;
  jj_convert_opts o;
  gen_buf out = {0};
  memset(&o, 0, sizeof o);
  o.from = fmt;
  jj_input_memory(&in, text, strlen(text), "x");
  if (jj_convert(&in, &o, gen_buf_sink, &out, NULL, NULL) != JJ_OK) return NULL;
  gen_buf_add(&out, "", 1);
  return out.p;
}

TEST(format_for_path_looks_past_gz_and_br) {
  CHECK_EQ_INT(jj_format_for_path("a.json"), JJ_FORMAT_JSON);
  CHECK_EQ_INT(jj_format_for_path("dir/A.JSON.GZ"), JJ_FORMAT_JSON);
  CHECK_EQ_INT(jj_format_for_path("a.ndjson.br"), JJ_FORMAT_NDJSON);
  CHECK_EQ_INT(jj_format_for_path("a.jsonl"), JJ_FORMAT_NDJSON);
  CHECK_EQ_INT(jj_format_for_path("a.csv.gz"), JJ_FORMAT_CSV);
  CHECK_EQ_INT(jj_format_for_path("a.tsv"), JJ_FORMAT_TSV);
  CHECK_EQ_INT(jj_format_for_path("a.jj"), JJ_FORMAT_AUTO);
  CHECK_EQ_INT(jj_format_for_path("a.jj.gz"), JJ_FORMAT_AUTO);
  CHECK_EQ_INT(jj_format_for_path("csv"), JJ_FORMAT_AUTO);
  CHECK_EQ_INT(jj_format_for_path(".gz"), JJ_FORMAT_AUTO);
  CHECK_EQ_INT(jj_format_for_path(NULL), JJ_FORMAT_AUTO);
}

TEST(plain_and_gzip_files_give_the_converters_document) {
  char *want = converted(CSV, JJ_FORMAT_CSV);
  put("p.csv", CSV);
  gzFile z = gzopen("p.csv.gz", "wb");
  gzputs(z, CSV);
  gzclose(z);
  const char *names[] = {"p.csv", "p.csv.gz"};
  for (int i = 0; i < 2; i++) {
    jj_file f;
    jj_error err;
    jj_convert_result res;
    jj_convert_opts o;
    memset(&o, 0, sizeof o);
    o.from = JJ_FORMAT_CSV;
    CHECK_EQ_INT(jj_file_convert(names[i], NULL, &o, &f, &res, &err), JJ_OK);
    CHECK(want && f.len == strlen(want) && !memcmp(f.data, want, f.len));
    CHECK_EQ_INT(res.rows, 2);
    CHECK_EQ_INT(f.compression, i ? JJ_GZIP : JJ_PLAIN);
    CHECK_EQ_INT(jj_file_changed(&f, names[i]), 0);
    jj_schema_free(res.schema);
    jj_doc *d = jj_parse(f.data, f.len, &err);
    CHECK(d != NULL);
    jj_doc_free(d);
    jj_file_close(&f);
  }
  free(want);
}

TEST(errors_are_the_converters_and_the_readers) {
  jj_file f;
  jj_error err;
  jj_convert_opts o;
  memset(&o, 0, sizeof o);
  o.from = JJ_FORMAT_CSV;
  put("bad.csv", "a,b\n1,2\n3\n");
  CHECK_EQ_INT(jj_file_convert("bad.csv", NULL, &o, &f, NULL, &err), JJ_ERR_ROW);
  CHECK(strstr(err.message, "bad.csv: row 2") != NULL);
  CHECK(f.data == NULL);
  CHECK_EQ_INT(jj_file_convert("missing.csv", NULL, &o, &f, NULL, &err), JJ_ERR_IO);
  CHECK(strstr(err.message, "missing.csv") != NULL);
  /* the limit: the file read, then the document made */
  jj_file_opts fo;
  memset(&fo, 0, sizeof fo);
  fo.max_size = 10;
  put("p.csv", CSV);
  CHECK_EQ_INT(jj_file_convert("p.csv", &fo, &o, &f, NULL, &err), JJ_ERR_LIMIT);
  fo.max_size = strlen(CSV) + 1; /* the file fits, its document does not */
  CHECK_EQ_INT(jj_file_convert("p.csv", &fo, &o, &f, NULL, &err), JJ_ERR_LIMIT);
  CHECK(strstr(err.message, "converted document") != NULL);
}

int main(void) {
  if (!mkdtemp(tmpdir) || chdir(tmpdir) != 0) {
    perror("test_file_convert setup");
    return 1;
  }
  RUN(format_for_path_looks_past_gz_and_br);
  RUN(plain_and_gzip_files_give_the_converters_document);
  RUN(errors_are_the_converters_and_the_readers);
  int rc = test_summary("file_convert");
  unlink("p.csv");
  unlink("p.csv.gz");
  unlink("bad.csv");
  rmdir(tmpdir);
  return rc;
}
