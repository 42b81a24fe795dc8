/*
** test_file.c — reading documents from files (mapped, gzip, brotli) and
** writing them atomically: the old file survives every failure and no
** temporary file is left behind.
**
** Everything happens in a fresh mkdtemp directory under /tmp, which is the
** working directory during the tests (so messages show short names) and is
** removed at the end.  Tests run as root, so failures are made with a
** file size limit (RLIMIT_FSIZE), a bad level or a missing directory rather
** than with permissions.
*/
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"
#include "test.h"

static char tmpdir[] = "/tmp/jj-test-file-XXXXXX";

/* Write a file directly (not through the code under test). */
static void put_file(const char *name, const char *data, size_t len) {
  FILE *f = fopen(name, "wb");
  CHECK(f != NULL);
  if (!f) return;
  CHECK_EQ_U64(fwrite(data, 1, len, f), len);
  fclose(f);
}

/* Read a whole file into a malloc'd buffer (caller frees); NULL if absent. */
static char *get_file(const char *name, size_t *len) {
  FILE *f = fopen(name, "rb");
  if (!f) return NULL;
  jj_buf b = {0};
  char chunk[4096];
  size_t n;
  while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
    jj_buf_append(&b, chunk, n);
  fclose(f);
  jj_buf_append(&b, "", 1);
  *len = b.len - 1;
  return b.p;
}

/* The names in the directory (without . and ..), sorted, space-separated,
** in a static buffer: to assert no temporary file is left. */
static const char *listing(const char *dir) {
  static char out[32 * 257];
  char names[32][256];
  int n = 0;
  DIR *d = opendir(dir);
  struct dirent *e;
  while (d && (e = readdir(d)) != NULL && n < 32) {
    if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
    size_t len = strlen(e->d_name);
    if (len >= sizeof names[0]) len = sizeof names[0] - 1;
    memcpy(names[n], e->d_name, len);
    names[n++][len] = '\0';
  }
  if (d) closedir(d);
  for (int i = 1; i < n; i++) /* insertion sort: a handful of names */
    for (int j = i; j > 0 && strcmp(names[j - 1], names[j]) > 0; j--) {
      char t[256];
      memcpy(t, names[j], sizeof t);
      memcpy(names[j], names[j - 1], sizeof t);
      memcpy(names[j - 1], t, sizeof t);
    }
  out[0] = '\0';
  for (int i = 0; i < n; i++) {
    if (i) strcat(out, " ");
    strcat(out, names[i]);
  }
  return out;
}

static const char doc[] =
    "{\"jalapenojson\":1,\"columns\":[\"id\"],\"types\":[\"i\"],\"rows\":[\n"
    "[1],\n[2]\n]}";

TEST(plain_file_is_mapped_not_copied) {
  jj_error err;
  jj_file f;
  put_file("rows.jj", doc, sizeof doc - 1);
  CHECK_EQ_INT(jj_file_open("rows.jj", 0, &f, &err), JJ_OK);
  CHECK_EQ_MEM(f.data, f.len, doc, sizeof doc - 1);
  CHECK_EQ_INT(f.compression, JJ_PLAIN);
  CHECK(f.map_ != NULL && f.data == (const char *)f.map_);
  CHECK(f.heap_ == NULL);
  jj_file_close(&f);
  CHECK(f.data == NULL && f.map_ == NULL && f.len == 0);
  jj_file_close(&f); /* twice is harmless */
  unlink("rows.jj");
}

TEST(empty_file_reads_as_empty_string_without_mapping) {
  jj_error err;
  jj_file f;
  put_file("empty.jj", "", 0);
  CHECK_EQ_INT(jj_file_open("empty.jj", 0, &f, &err), JJ_OK);
  CHECK(f.data != NULL && f.len == 0 && f.data[0] == '\0');
  CHECK(f.map_ == NULL && f.heap_ == NULL);
  jj_file_close(&f);
  unlink("empty.jj");
}

TEST(character_device_is_read_not_mapped) {
  jj_error err;
  jj_file f;
  CHECK_EQ_INT(jj_file_open("/dev/null", 0, &f, &err), JJ_OK);
  CHECK_EQ_U64(f.len, 0);
  CHECK(f.data != NULL && f.map_ == NULL);
  jj_file_close(&f);
}

TEST(gzip_file_is_found_by_magic_and_brotli_by_name) {
  jj_error err;
  jj_file f;
  uint64_t written = 0;
  /* gzip content under a plain name: the magic decides */
  CHECK_EQ_INT(jj_file_write("rows.jj", doc, sizeof doc - 1, JJ_GZIP, -1,
                             &written, &err), JJ_OK);
  CHECK_EQ_INT(jj_file_open("rows.jj", 0, &f, &err), JJ_OK);
  CHECK_EQ_INT(f.compression, JJ_GZIP);
  CHECK_EQ_MEM(f.data, f.len, doc, sizeof doc - 1);
  CHECK(f.map_ == NULL && f.heap_ != NULL);
  jj_file_close(&f);

  CHECK_EQ_INT(jj_file_write("rows.jj.br", doc, sizeof doc - 1, JJ_BROTLI, 11,
                             &written, &err), JJ_OK);
  CHECK_EQ_INT(jj_file_open("rows.jj.br", 0, &f, &err), JJ_OK);
  CHECK_EQ_INT(f.compression, JJ_BROTLI);
  CHECK_EQ_MEM(f.data, f.len, doc, sizeof doc - 1);
  jj_file_close(&f);
  unlink("rows.jj");
  unlink("rows.jj.br");
}

TEST(open_errors_name_the_file) {
  jj_error err;
  jj_file f;
  CHECK_EQ_INT(jj_file_open("rows.jj", 0, &f, &err), JJ_ERR_IO);
  CHECK_EQ_STR(err.message,
               "cannot open \"rows.jj\": No such file or directory");
  CHECK_EQ_INT(err.row, 0);
  CHECK_EQ_U64(err.offset, JJ_NO_OFFSET);
  CHECK(f.data == NULL && f.map_ == NULL && f.heap_ == NULL);

  mkdir("dir", 0755);
  CHECK_EQ_INT(jj_file_open("dir", 0, &f, &err), JJ_ERR_IO);
  CHECK_EQ_STR(err.message, "\"dir\" is a directory");
  rmdir("dir");

  /* a gzip file cut short */
  char *z;
  size_t zlen;
  CHECK_EQ_INT(jj_compress(JJ_GZIP, -1, doc, sizeof doc - 1, &z, &zlen, &err),
               JJ_OK);
  put_file("cut.jj.gz", z, zlen - 4);
  CHECK_EQ_INT(jj_file_open("cut.jj.gz", 0, &f, &err), JJ_ERR_COMPRESSION);
  CHECK_EQ_STR(err.message, "\"cut.jj.gz\": gzip stream is truncated");
  CHECK(f.heap_ == NULL && f.map_ == NULL);

  /* the limit is passed through */
  put_file("ok.jj.gz", z, zlen);
  CHECK_EQ_INT(jj_file_open("ok.jj.gz", 10, &f, &err), JJ_ERR_LIMIT);
  CHECK_EQ_STR(err.message,
               "\"ok.jj.gz\": decompressed size exceeds the limit of 10 bytes");
  CHECK_EQ_INT(jj_file_open("ok.jj.gz", sizeof doc - 1, &f, &err), JJ_OK);
  jj_file_close(&f);
  jj_free(z);

  /* a .br name with bytes that are not brotli */
  put_file("bad.jj.br", doc, sizeof doc - 1);
  CHECK_EQ_INT(jj_file_open("bad.jj.br", 0, &f, &err), JJ_ERR_COMPRESSION);
  CHECK_EQ_STR(err.message, "\"bad.jj.br\": brotli data is corrupt");
  unlink("cut.jj.gz");
  unlink("ok.jj.gz");
  unlink("bad.jj.br");
  CHECK_EQ_STR(listing("."), "");
}

TEST(atomic_write_replaces_the_file_and_keeps_its_mode) {
  jj_error err;
  uint64_t written = 0;
  size_t len;
  struct stat st;
  put_file("out.jj", "old contents", 12);
  chmod("out.jj", 0600);
  CHECK_EQ_INT(jj_file_write("out.jj", doc, sizeof doc - 1, JJ_PLAIN, -1,
                             &written, &err), JJ_OK);
  CHECK_EQ_U64(written, sizeof doc - 1);
  char *got = get_file("out.jj", &len);
  CHECK_EQ_MEM(got, len, doc, sizeof doc - 1);
  free(got);
  CHECK(stat("out.jj", &st) == 0 && (st.st_mode & 07777) == 0600);
  CHECK_EQ_STR(listing("."), "out.jj");

  /* a new file gets 0644 */
  CHECK_EQ_INT(jj_file_write("new.jj", "x", 1, JJ_PLAIN, -1, NULL, &err),
               JJ_OK);
  CHECK(stat("new.jj", &st) == 0 && (st.st_mode & 07777) == 0644);
  unlink("new.jj");
  unlink("out.jj");
}

TEST(compressed_write_reports_the_bytes_on_disk) {
  jj_error err;
  uint64_t written = 0;
  struct stat st;
  char big[100000];
  for (size_t i = 0; i < sizeof big; i++) big[i] = doc[i % (sizeof doc - 1)];
  for (int kind = JJ_GZIP; kind <= JJ_BROTLI; kind++) {
    const char *name = kind == JJ_GZIP ? "big.jj.gz" : "big.jj.br";
    CHECK_EQ_INT(jj_file_write(name, big, sizeof big, kind, -1, &written,
                               &err), JJ_OK);
    CHECK(stat(name, &st) == 0);
    CHECK_EQ_U64(written, (uint64_t)st.st_size);
    CHECK(written > 0 && written < sizeof big / 10);
    jj_file f;
    CHECK_EQ_INT(jj_file_open(name, 0, &f, &err), JJ_OK);
    CHECK_EQ_MEM(f.data, f.len, big, sizeof big);
    jj_file_close(&f);
    unlink(name);
  }
}

TEST(aborted_write_leaves_the_old_file_and_no_temp_file) {
  jj_error err;
  size_t len;
  put_file("keep.jj", "old", 3);
  jj_atomic *a = jj_atomic_open("keep.jj", &err);
  CHECK(a != NULL);
  CHECK_EQ_INT(jj_atomic_sink(a, "new contents", 12), 0);
  /* the temporary file sits next to the target while writing */
  CHECK(strncmp(listing("."), ".keep.jj.tmp-", 13) == 0);
  jj_atomic_abort(a);
  char *got = get_file("keep.jj", &len);
  CHECK_EQ_MEM(got, len, "old", 3);
  free(got);
  CHECK_EQ_STR(listing("."), "keep.jj");
  unlink("keep.jj");
}

TEST(bad_level_fails_before_touching_the_old_file) {
  jj_error err;
  size_t len;
  uint64_t written = 99;
  put_file("keep.jj", "old", 3);
  CHECK_EQ_INT(jj_file_write("keep.jj", doc, sizeof doc - 1, JJ_GZIP, 42,
                             &written, &err), JJ_ERR_USAGE);
  CHECK_EQ_STR(err.message, "gzip level 42 is out of range (1-9, or -1 for 6)");
  CHECK_EQ_U64(written, 0);
  char *got = get_file("keep.jj", &len);
  CHECK_EQ_MEM(got, len, "old", 3);
  free(got);
  CHECK_EQ_STR(listing("."), "keep.jj");
  unlink("keep.jj");
}

/* A disk that fills up midway: RLIMIT_FSIZE makes write() fail with EFBIG
** once the temporary file reaches 64 KiB (SIGXFSZ ignored). */
TEST(write_failing_midway_leaves_the_old_file_and_no_temp_file) {
  jj_error err;
  size_t len;
  struct rlimit old, small = {65536, 65536};
  static char big[1 << 20];
  memset(big, 'x', sizeof big);
  for (size_t i = 0; i < sizeof big; i += 7) big[i] = (char)(i * 31 % 251);
  put_file("keep.jj", "old", 3);
  getrlimit(RLIMIT_FSIZE, &old);
  small.rlim_max = old.rlim_max;
  signal(SIGXFSZ, SIG_IGN);
  CHECK_EQ_INT(setrlimit(RLIMIT_FSIZE, &small), 0);

  jj_code plain = jj_file_write("keep.jj", big, sizeof big, JJ_PLAIN, -1, NULL,
                                &err);
  jj_error plain_err = err;
  jj_code gz = jj_file_write("keep.jj", big, sizeof big, JJ_GZIP, 1, NULL,
                             &err);
  jj_error gz_err = err;
  setrlimit(RLIMIT_FSIZE, &old);

  CHECK_EQ_INT(plain, JJ_ERR_IO);
  CHECK_EQ_STR(plain_err.message, "cannot write \"keep.jj\": File too large");
  /* through the compressor the real reason still comes out */
  CHECK_EQ_INT(gz, JJ_ERR_IO);
  CHECK_EQ_STR(gz_err.message, "cannot write \"keep.jj\": File too large");
  char *got = get_file("keep.jj", &len);
  CHECK_EQ_MEM(got, len, "old", 3);
  free(got);
  CHECK_EQ_STR(listing("."), "keep.jj");
  unlink("keep.jj");
}

TEST(writer_streams_through_deflater_into_atomic_file) {
  jj_error err;
  jj_schema *s = jj_schema_new();
  CHECK_EQ_INT(jj_schema_add(s, "id", 2, JJ_INT, NULL, &err), JJ_OK);
  jj_atomic *a = jj_atomic_open("w.jj.gz", &err);
  jj_deflater *z = jj_deflate_new(JJ_GZIP, -1, jj_atomic_sink, a, &err);
  jj_writer *w = jj_writer_new(s, jj_deflate_sink, z, &err);
  jj_code code = JJ_OK;
  for (int i = 1; i <= 2 && !code; i++) {
    code = jj_writer_int(w, i);
    if (!code) code = jj_writer_end_row(w);
  }
  CHECK_EQ_INT(code, JJ_OK);
  CHECK_EQ_INT(jj_writer_finish(w), JJ_OK);
  CHECK_EQ_INT(jj_deflate_finish(z, &err), JJ_OK);
  CHECK_EQ_INT(jj_atomic_commit(a, &err), JJ_OK);
  jj_deflate_free(z);
  jj_writer_free(w);
  jj_schema_free(s);
  jj_file f;
  CHECK_EQ_INT(jj_file_open("w.jj.gz", 0, &f, &err), JJ_OK);
  CHECK_EQ_MEM(f.data, f.len, doc, sizeof doc - 1);
  jj_file_close(&f);
  unlink("w.jj.gz");
}

TEST(atomic_open_errors_name_the_target) {
  jj_error err;
  CHECK(jj_atomic_open("nodir/x.jj", &err) == NULL);
  CHECK_EQ_INT(err.code, JJ_ERR_IO);
  CHECK_EQ_STR(err.message, "cannot create a temporary file for "
                            "\"nodir/x.jj\": No such file or directory");
  CHECK_EQ_INT(jj_file_write("nodir/x.jj", "x", 1, JJ_PLAIN, -1, NULL, &err),
               JJ_ERR_IO);
  CHECK_EQ_STR(err.message, "cannot create a temporary file for "
                            "\"nodir/x.jj\": No such file or directory");
  mkdir("sub", 0755);
  CHECK(jj_atomic_open("sub", &err) == NULL);
  CHECK_EQ_STR(err.message, "\"sub\" is a directory");
  CHECK(jj_atomic_open("sub/", &err) == NULL);
  CHECK_EQ_STR(err.message, "\"sub/\" is not a file name");
  /* a target in a subdirectory: the temporary file goes there too */
  CHECK_EQ_INT(jj_file_write("sub/x.jj", "x", 1, JJ_PLAIN, -1, NULL, &err),
               JJ_OK);
  CHECK_EQ_STR(listing("sub"), "x.jj");
  unlink("sub/x.jj");
  rmdir("sub");
  CHECK_EQ_STR(listing("."), "");
}

int main(void) {
  char cwd[4096];
  if (!getcwd(cwd, sizeof cwd) || !mkdtemp(tmpdir) || chdir(tmpdir) != 0) {
    perror("test_file setup");
    return 1;
  }
  RUN(plain_file_is_mapped_not_copied);
  RUN(empty_file_reads_as_empty_string_without_mapping);
  RUN(character_device_is_read_not_mapped);
  RUN(gzip_file_is_found_by_magic_and_brotli_by_name);
  RUN(open_errors_name_the_file);
  RUN(atomic_write_replaces_the_file_and_keeps_its_mode);
  RUN(compressed_write_reports_the_bytes_on_disk);
  RUN(aborted_write_leaves_the_old_file_and_no_temp_file);
  RUN(bad_level_fails_before_touching_the_old_file);
  RUN(write_failing_midway_leaves_the_old_file_and_no_temp_file);
  RUN(writer_streams_through_deflater_into_atomic_file);
  RUN(atomic_open_errors_name_the_target);
  CHECK_EQ_STR(listing("."), "");
  if (chdir(cwd) != 0 || rmdir(tmpdir) != 0) perror("test_file cleanup");
  return test_summary("file");
}
