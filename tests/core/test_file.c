/*
** test_file.c — reading documents from files (read, mapped, gzip, brotli)
** without trusting them: FIFOs, devices, /proc files, directories, files
** over the size limit, decompression bombs, header-only prefixes, the
** interrupt callback, jj_file_changed; and writing them atomically: the old
** file survives every failure and no temporary file is left behind.
**
** Everything happens in a fresh mkdtemp directory under /tmp, which is the
** working directory during the tests (so messages show short names) and is
** removed at the end.  Tests usually run as root, so failures are made with
** a file size limit (RLIMIT_FSIZE), a bad level or a missing directory
** rather than with permissions; what needs root (mknod) is skipped visibly
** without it.  alarm() turns a read that would block forever into a crash
** the suite reports, instead of a hang.
*/
#define _DEFAULT_SOURCE /* mknod, makedev */
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
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

TEST(plain_file_is_read_into_memory_not_mapped) {
  jj_error err;
  jj_file f;
  put_file("rows.jj", doc, sizeof doc - 1);
  CHECK_EQ_INT(jj_file_open("rows.jj", 0, &f, &err), JJ_OK);
  CHECK_EQ_MEM(f.data, f.len, doc, sizeof doc - 1);
  CHECK_EQ_INT(f.compression, JJ_PLAIN);
  CHECK_EQ_INT(f.complete, 1);
  /* a copy in memory: truncating the file cannot take the bytes away */
  CHECK(f.map_ == NULL && f.heap_ != NULL && f.data == f.heap_);
  CHECK(truncate("rows.jj", 0) == 0);
  CHECK_EQ_MEM(f.data, f.len, doc, sizeof doc - 1);
  jj_file_close(&f);
  CHECK(f.data == NULL && f.heap_ == NULL && f.len == 0);
  jj_file_close(&f); /* twice is harmless */
  jj_file_close(NULL);
  /* NULL options are the defaults */
  put_file("rows.jj", doc, sizeof doc - 1);
  CHECK_EQ_INT(jj_file_open_opts("rows.jj", NULL, &f, &err), JJ_OK);
  CHECK_EQ_MEM(f.data, f.len, doc, sizeof doc - 1);
  CHECK(f.map_ == NULL);
  jj_file_close(&f);
  unlink("rows.jj");
}

TEST(empty_file_reads_as_empty_string) {
  jj_error err;
  jj_file f;
  jj_file_opts o = {0, JJ_FILE_MMAP, 0, NULL, NULL};
  put_file("empty.jj", "", 0);
  CHECK_EQ_INT(jj_file_open("empty.jj", 0, &f, &err), JJ_OK);
  CHECK(f.data != NULL && f.len == 0 && f.data[0] == '\0');
  CHECK_EQ_INT(f.complete, 1);
  CHECK(f.map_ == NULL && f.heap_ == NULL);
  jj_file_close(&f);
  /* mmap refuses zero lengths; the mapping option still gives "" */
  CHECK_EQ_INT(jj_file_open_opts("empty.jj", &o, &f, &err), JJ_OK);
  CHECK(f.data != NULL && f.len == 0 && f.map_ == NULL);
  CHECK_EQ_INT(f.complete, 1);
  jj_file_close(&f);
  unlink("empty.jj");
}

TEST(mmap_option_maps_a_plain_file) {
  jj_error err;
  jj_file f;
  jj_file_opts o = {0, JJ_FILE_MMAP, 0, NULL, NULL};
  put_file("rows.jj", doc, sizeof doc - 1);
  CHECK_EQ_INT(jj_file_open_opts("rows.jj", &o, &f, &err), JJ_OK);
  CHECK_EQ_MEM(f.data, f.len, doc, sizeof doc - 1);
  CHECK(f.map_ != NULL && f.data == (const char *)f.map_ && f.heap_ == NULL);
  CHECK_EQ_INT(f.complete, 1);
  jj_file_close(&f);
  CHECK(f.map_ == NULL && f.data == NULL);
  /* a prefix of a mapping is a shorter length */
  o.prefix = 10;
  CHECK_EQ_INT(jj_file_open_opts("rows.jj", &o, &f, &err), JJ_OK);
  CHECK_EQ_MEM(f.data, f.len, doc, 10);
  CHECK_EQ_INT(f.complete, 0);
  jj_file_close(&f);
  /* the size limit holds for a mapping too */
  o.prefix = 0;
  o.max_size = 10;
  CHECK_EQ_INT(jj_file_open_opts("rows.jj", &o, &f, &err), JJ_ERR_LIMIT);
  CHECK_EQ_STR(err.message, "\"rows.jj\" is 69 bytes, over the limit of 10 bytes");
  CHECK(f.map_ == NULL && f.data == NULL);
  /* compressed files are decompressed, never mapped */
  o.max_size = 0;
  CHECK_EQ_INT(jj_file_write("rows.jj", doc, sizeof doc - 1, JJ_GZIP, -1,
                             NULL, &err), JJ_OK);
  CHECK_EQ_INT(jj_file_open_opts("rows.jj", &o, &f, &err), JJ_OK);
  CHECK_EQ_MEM(f.data, f.len, doc, sizeof doc - 1);
  CHECK(f.map_ == NULL && f.heap_ != NULL);
  jj_file_close(&f);
  unlink("rows.jj");
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

/* ---------------------------------------------------------------------- */
/* Hostile files                                                           */
/* ---------------------------------------------------------------------- */

/* Seconds since an arbitrary start, for "returns promptly" checks. */
static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Open with default options but `flags`, `max_size` and `prefix`. */
static jj_code open_with(const char *path, unsigned flags, uint64_t max_size,
                         size_t prefix, jj_file *f, jj_error *err) {
  jj_file_opts o = {max_size, flags, prefix, NULL, NULL};
  return jj_file_open_opts(path, &o, f, err);
}

/* An interrupt callback: counts its polls, asks to stop at poll `stop_at`
** (never when 0). */
typedef struct poller {
  int polls;
  int stop_at;
} poller;
static int poll_cb(void *ctx) {
  poller *q = ctx;
  return ++q->polls == q->stop_at;
}

TEST(fifo_is_refused_without_blocking) {
  jj_error err;
  jj_file f;
  CHECK_EQ_INT(mkfifo("pipe", 0600), 0);
  alarm(10); /* a blocking open or read would hang: crash instead */
  double t0 = now_s();
  CHECK_EQ_INT(jj_file_open("pipe", 0, &f, &err), JJ_ERR_IO);
  CHECK_EQ_STR(err.message, "\"pipe\" is not a regular file (a FIFO)");
  CHECK(f.data == NULL && f.heap_ == NULL);
  /* even a name that says gzip, and a prefix read */
  CHECK_EQ_INT(rename("pipe", "pipe.jj.gz"), 0);
  CHECK_EQ_INT(open_with("pipe.jj.gz", 0, 0, 4096, &f, &err), JJ_ERR_IO);
  CHECK_EQ_STR(err.message, "\"pipe.jj.gz\" is not a regular file (a FIFO)");
  /* with JJ_FILE_ANY_KIND and no writer: an empty document, at once */
  CHECK_EQ_INT(open_with("pipe.jj.gz", JJ_FILE_ANY_KIND, 0, 0, &f, &err),
               JJ_OK);
  CHECK(f.data != NULL && f.len == 0 && f.complete == 1);
  jj_file_close(&f);
  CHECK(now_s() - t0 < 5);
  alarm(0);
  unlink("pipe.jj.gz");
}

/* Start a child that writes `len` bytes of `data` (repeated) to the FIFO
** and exits.  A reader is held open (*keeper) so the child's open does not
** wait, and we wait until its first bytes are in the pipe, so the read
** under test cannot see the end before the writer started. */
static pid_t start_writer(const char *fifo, const char *data, size_t dlen,
                          size_t len, int *keeper) {
  *keeper = open(fifo, O_RDONLY | O_NONBLOCK);
  CHECK(*keeper >= 0);
  pid_t pid = fork();
  if (pid == 0) {
    close(*keeper); /* else the child holds a reader and never sees EPIPE */
    int fd = open(fifo, O_WRONLY);
    for (size_t done = 0; fd >= 0 && done < len;) {
      size_t n = len - done < dlen ? len - done : dlen;
      ssize_t w = write(fd, data, n);
      if (w <= 0) _exit(1);
      done += (size_t)w;
    }
    _exit(0);
  }
  struct pollfd p = {*keeper, POLLIN, 0};
  CHECK_EQ_INT(poll(&p, 1, 5000), 1);
  return pid;
}

TEST(fifo_with_any_kind_reads_what_a_writer_child_writes) {
  jj_error err;
  jj_file f;
  int keeper, status;
  CHECK_EQ_INT(mkfifo("pipe", 0600), 0);
  alarm(20);
  pid_t pid = start_writer("pipe", doc, sizeof doc - 1, sizeof doc - 1,
                           &keeper);
  CHECK_EQ_INT(waitpid(pid, &status, 0), pid); /* all in the pipe buffer */
  CHECK_EQ_INT(open_with("pipe", JJ_FILE_ANY_KIND, 0, 0, &f, &err), JJ_OK);
  CHECK_EQ_MEM(f.data, f.len, doc, sizeof doc - 1);
  CHECK_EQ_INT(f.complete, 1);
  jj_file_close(&f);
  close(keeper);

  /* a prefix of a stream: exactly its length is all of it, one less not */
  for (size_t p = sizeof doc - 2; p <= sizeof doc - 1; p++) {
    pid = start_writer("pipe", doc, sizeof doc - 1, sizeof doc - 1, &keeper);
    CHECK_EQ_INT(waitpid(pid, &status, 0), pid);
    CHECK_EQ_INT(open_with("pipe", JJ_FILE_ANY_KIND, 0, p, &f, &err), JJ_OK);
    CHECK_EQ_MEM(f.data, f.len, doc, p);
    CHECK_EQ_INT(f.complete, p == sizeof doc - 1);
    jj_file_close(&f);
    close(keeper);
  }

  /* 3 MiB, more than a pipe holds: read while the child writes */
  static char block[65536];
  memset(block, 'x', sizeof block);
  pid = start_writer("pipe", block, sizeof block, (size_t)3 << 20, &keeper);
  CHECK_EQ_INT(open_with("pipe", JJ_FILE_ANY_KIND, 0, 0, &f, &err), JJ_OK);
  CHECK_EQ_U64(f.len, (uint64_t)3 << 20);
  CHECK(f.len > 0 && f.data[0] == 'x' && f.data[f.len - 1] == 'x');
  jj_file_close(&f);
  close(keeper);
  CHECK_EQ_INT(waitpid(pid, &status, 0), pid);
  CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);

  /* the same writer against a 1 MiB cap: refused, the writer gets EPIPE */
  signal(SIGPIPE, SIG_IGN);
  pid = start_writer("pipe", block, sizeof block, (size_t)3 << 20, &keeper);
  CHECK_EQ_INT(open_with("pipe", JJ_FILE_ANY_KIND, 1 << 20, 0, &f, &err),
               JJ_ERR_LIMIT);
  CHECK_EQ_STR(err.message, "\"pipe\": size exceeds the limit of 1048576 bytes");
  CHECK(f.data == NULL && f.heap_ == NULL);
  close(keeper); /* the last reader gone, the blocked writer gets EPIPE */
  CHECK_EQ_INT(waitpid(pid, &status, 0), pid);
  alarm(0);
  unlink("pipe");
}

TEST(devices_are_refused_unless_any_kind) {
  jj_error err;
  jj_file f;
  alarm(20);
  CHECK_EQ_INT(jj_file_open("/dev/zero", 0, &f, &err), JJ_ERR_IO);
  CHECK_EQ_STR(err.message,
               "\"/dev/zero\" is not a regular file (a character device)");
  CHECK(f.data == NULL);
  CHECK_EQ_INT(jj_file_open("/dev/null", 1000, &f, &err), JJ_ERR_IO);
  CHECK_EQ_STR(err.message,
               "\"/dev/null\" is not a regular file (a character device)");
  /* allowed, the size limit still ends a device that never ends */
  CHECK_EQ_INT(open_with("/dev/zero", JJ_FILE_ANY_KIND, 1 << 20, 0, &f, &err),
               JJ_ERR_LIMIT);
  CHECK_EQ_STR(err.message,
               "\"/dev/zero\": size exceeds the limit of 1048576 bytes");
  CHECK_EQ_INT(open_with("/dev/zero", JJ_FILE_ANY_KIND, 0, 4096, &f, &err),
               JJ_OK);
  CHECK_EQ_U64(f.len, 4096);
  CHECK(f.data[0] == 0 && f.data[4095] == 0 && f.complete == 0);
  jj_file_close(&f);
  /* and the interrupt: 3 MiB of zeros, stopped at the second poll */
  poller q = {0, 2};
  jj_file_opts o = {0, JJ_FILE_ANY_KIND, 0, poll_cb, &q};
  CHECK_EQ_INT(jj_file_open_opts("/dev/zero", &o, &f, &err),
               JJ_ERR_INTERRUPTED);
  CHECK_EQ_STR(err.message, "\"/dev/zero\": interrupted");
  CHECK_EQ_INT(q.polls, 2);
  CHECK_EQ_INT(open_with("/dev/null", JJ_FILE_ANY_KIND, 0, 0, &f, &err),
               JJ_OK);
  CHECK(f.data != NULL && f.len == 0 && f.complete == 1);
  jj_file_close(&f);
  alarm(0);
}

/* Nodes that need root to make: a block device and a copy of /dev/zero.
** Made in the test directory, never opened by the code under test. */
TEST(device_nodes_made_with_mknod_are_refused_by_kind) {
  jj_error err;
  jj_file f;
  if (geteuid() != 0) {
    printf("SKIP device_nodes_made_with_mknod_are_refused_by_kind: "
           "not root\n");
    return;
  }
  CHECK_EQ_INT(mknod("blk", S_IFBLK | 0600, makedev(7, 200)), 0);
  CHECK_EQ_INT(jj_file_open("blk", 0, &f, &err), JJ_ERR_IO);
  CHECK_EQ_STR(err.message, "\"blk\" is not a regular file (a block device)");
  CHECK_EQ_INT(mknod("zero.jj", S_IFCHR | 0600, makedev(1, 5)), 0);
  CHECK_EQ_INT(jj_file_open("zero.jj", 0, &f, &err), JJ_ERR_IO);
  CHECK_EQ_STR(err.message,
               "\"zero.jj\" is not a regular file (a character device)");
  unlink("blk");
  unlink("zero.jj");
}

TEST(sockets_and_directories_are_refused) {
  jj_error err;
  jj_file f;
  struct sockaddr_un sa;
  memset(&sa, 0, sizeof sa);
  sa.sun_family = AF_UNIX;
  strcpy(sa.sun_path, "sock");
  int s = socket(AF_UNIX, SOCK_STREAM, 0);
  CHECK(s >= 0 && bind(s, (struct sockaddr *)&sa, sizeof sa) == 0);
  CHECK_EQ_INT(jj_file_open("sock", 0, &f, &err), JJ_ERR_IO);
  CHECK_EQ_STR(err.message, "\"sock\" is not a regular file (a socket)");
  close(s);
  unlink("sock");
  mkdir("dir", 0755);
  CHECK_EQ_INT(jj_file_open("dir", 0, &f, &err), JJ_ERR_IO);
  CHECK_EQ_STR(err.message, "\"dir\" is a directory");
  CHECK_EQ_INT(open_with("dir", JJ_FILE_ANY_KIND, 0, 0, &f, &err), JJ_ERR_IO);
  CHECK_EQ_STR(err.message, "\"dir\" is a directory");
  rmdir("dir");
}

TEST(proc_and_sys_files_are_refused) {
#ifdef __linux__
  jj_error err;
  jj_file f;
  CHECK_EQ_INT(jj_file_open("/proc/self/status", 0, &f, &err), JJ_ERR_IO);
  CHECK_EQ_STR(err.message,
               "\"/proc/self/status\" is a /proc or /sys file, not a regular "
               "file");
  CHECK(f.data == NULL);
  /* allowed: read as a stream, whatever st_size claims (0 here) */
  CHECK_EQ_INT(open_with("/proc/self/status", JJ_FILE_ANY_KIND, 0, 0, &f,
                         &err), JJ_OK);
  CHECK(f.len > 0 && strncmp(f.data, "Name:", 5) == 0 && f.complete == 1);
  jj_file_close(&f);
  const char *sys = access("/sys/kernel/uevent_seqnum", R_OK) == 0
                        ? "/sys/kernel/uevent_seqnum"
                        : NULL;
  if (sys) {
    CHECK_EQ_INT(jj_file_open(sys, 0, &f, &err), JJ_ERR_IO);
    CHECK_EQ_STR(err.message, "\"/sys/kernel/uevent_seqnum\" is a /proc or "
                              "/sys file, not a regular file");
  } else {
    printf("SKIP proc_and_sys_files_are_refused: no "
           "/sys/kernel/uevent_seqnum\n");
  }
#else
  printf("SKIP proc_and_sys_files_are_refused: not Linux\n");
#endif
}

TEST(plain_file_over_the_limit_is_refused_before_reading) {
  jj_error err;
  jj_file f;
  put_file("rows.jj", doc, sizeof doc - 1);
  CHECK_EQ_INT(jj_file_open("rows.jj", 68, &f, &err), JJ_ERR_LIMIT);
  CHECK_EQ_STR(err.message,
               "\"rows.jj\" is 69 bytes, over the limit of 68 bytes");
  CHECK_EQ_STR(jj_code_name(err.code), "limit");
  CHECK(f.data == NULL && f.heap_ == NULL);
  /* also when only a prefix is asked for: the file is over either way */
  CHECK_EQ_INT(open_with("rows.jj", 0, 68, 10, &f, &err), JJ_ERR_LIMIT);
  CHECK_EQ_INT(jj_file_open("rows.jj", 69, &f, &err), JJ_OK);
  CHECK_EQ_MEM(f.data, f.len, doc, sizeof doc - 1);
  jj_file_close(&f);
  unlink("rows.jj");
}

/* 64 MiB of zeros, compressed into bomb.jj.gz and bomb.jj.br (made once). */
static void make_bombs(void) {
  static int made;
  if (made++) return;
  jj_error err;
  size_t n = (size_t)64 << 20;
  char *zeros = calloc(1, n);
  for (int kind = JJ_GZIP; kind <= JJ_BROTLI; kind++) {
    char *z = NULL;
    size_t zlen = 0;
    CHECK_EQ_INT(jj_compress(kind, kind == JJ_GZIP ? 9 : 5, zeros, n, &z,
                             &zlen, &err), JJ_OK);
    CHECK(zlen < ((size_t)1 << 20));
    put_file(kind == JJ_GZIP ? "bomb.jj.gz" : "bomb.jj.br", z, zlen);
    jj_free(z);
  }
  free(zeros);
}

TEST(decompression_bombs_stop_at_the_limit) {
  jj_error err;
  jj_file f;
  make_bombs();
  CHECK_EQ_INT(jj_file_open("bomb.jj.gz", 1 << 20, &f, &err), JJ_ERR_LIMIT);
  CHECK_EQ_STR(err.message, "\"bomb.jj.gz\": decompressed size exceeds the "
                            "limit of 1048576 bytes");
  CHECK(f.data == NULL && f.heap_ == NULL);
  CHECK_EQ_INT(jj_file_open("bomb.jj.br", 1 << 20, &f, &err), JJ_ERR_LIMIT);
  CHECK_EQ_STR(err.message, "\"bomb.jj.br\": decompressed size exceeds the "
                            "limit of 1048576 bytes");
  CHECK(f.data == NULL && f.heap_ == NULL);
}

TEST(prefix_reads_of_a_bomb_are_bounded_by_the_prefix) {
  jj_error err;
  jj_file f;
  make_bombs();
  for (int kind = JJ_GZIP; kind <= JJ_BROTLI; kind++) {
    const char *name = kind == JJ_GZIP ? "bomb.jj.gz" : "bomb.jj.br";
    poller q = {0, 0};
    jj_file_opts o = {0, 0, 8192, poll_cb, &q};
    double t0 = now_s();
    CHECK_EQ_INT(jj_file_open_opts(name, &o, &f, &err), JJ_OK);
    CHECK(now_s() - t0 < 2);
    CHECK_EQ_U64(f.len, 8192);
    CHECK(f.data[0] == 0 && f.data[8191] == 0);
    CHECK_EQ_INT(f.complete, 0);
    CHECK_EQ_INT(f.compression, kind);
    /* less than a MiB of work was done: the stream was stopped early */
    CHECK_EQ_INT(q.polls, 0);
    jj_file_close(&f);
  }
}

TEST(interrupt_stops_reading_and_decompressing_a_file) {
  jj_error err;
  jj_file f;
  make_bombs();
  for (int kind = JJ_GZIP; kind <= JJ_BROTLI; kind++) {
    const char *name = kind == JJ_GZIP ? "bomb.jj.gz" : "bomb.jj.br";
    poller q = {0, 3};
    jj_file_opts o = {0, 0, 0, poll_cb, &q};
    CHECK_EQ_INT(jj_file_open_opts(name, &o, &f, &err), JJ_ERR_INTERRUPTED);
    CHECK_EQ_INT(q.polls, 3);
    CHECK_EQ_STR(err.message, kind == JJ_GZIP ? "\"bomb.jj.gz\": interrupted"
                                              : "\"bomb.jj.br\": interrupted");
    CHECK(f.data == NULL && f.heap_ == NULL);
  }
  /* a plain file of 3 MiB, stopped at the first poll */
  static char big[3 << 20];
  memset(big, ' ', sizeof big);
  put_file("big.jj", big, sizeof big);
  poller q = {0, 1};
  jj_file_opts o = {0, 0, 0, poll_cb, &q};
  CHECK_EQ_INT(jj_file_open_opts("big.jj", &o, &f, &err), JJ_ERR_INTERRUPTED);
  CHECK_EQ_STR(err.message, "\"big.jj\": interrupted");
  q.polls = 0;
  q.stop_at = 0;
  CHECK_EQ_INT(jj_file_open_opts("big.jj", &o, &f, &err), JJ_OK);
  CHECK_EQ_U64(f.len, sizeof big);
  CHECK(q.polls >= 2 && q.polls <= 3);
  jj_file_close(&f);
  unlink("big.jj");
  unlink("bomb.jj.gz");
  unlink("bomb.jj.br");
}

TEST(prefix_reads_hold_the_first_bytes_and_say_if_that_was_all) {
  jj_error err;
  jj_file f;
  static char big[100000];
  for (size_t i = 0; i < sizeof big; i++) big[i] = (char)('a' + i * 7 % 26);
  const char *names[] = {"p.jj", "p.jj.gz", "p.jj.br"};
  for (int kind = JJ_PLAIN; kind <= JJ_BROTLI; kind++) {
    const char *name = names[kind];
    CHECK_EQ_INT(jj_file_write(name, big, sizeof big, kind, -1, NULL, &err),
                 JJ_OK);
    size_t prefixes[] = {1, 2, 3, 4096, 65536, 65537, 99999, 100000, 100001};
    for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++) {
      size_t p = prefixes[i], want = p < sizeof big ? p : sizeof big;
      CHECK_EQ_INT(open_with(name, 0, 0, p, &f, &err), JJ_OK);
      CHECK_EQ_MEM(f.data, f.len, big, want);
      CHECK_EQ_INT(f.complete, p >= sizeof big);
      CHECK_EQ_INT(f.compression, kind);
      jj_file_close(&f);
    }
    unlink(name);
  }
}

TEST(file_changed_tells_a_different_file_from_the_same) {
  jj_error err;
  jj_file f;
  struct timespec ts[2] = {{1000000000, 5}, {1000000000, 5}};
  put_file("rows.jj", doc, sizeof doc - 1);
  CHECK_EQ_INT(jj_file_open("rows.jj", 0, &f, &err), JJ_OK);
  CHECK_EQ_INT(jj_file_changed(&f, "rows.jj"), 0);
  CHECK_EQ_INT(jj_file_changed(&f, "rows.jj"), 0);
  /* rewritten in place, same size: only the modification time differs */
  put_file("rows.jj", doc, sizeof doc - 1);
  CHECK_EQ_INT(utimensat(AT_FDCWD, "rows.jj", ts, 0), 0);
  CHECK_EQ_INT(jj_file_changed(&f, "rows.jj"), 1);
  jj_file_close(&f);
  CHECK_EQ_INT(jj_file_open("rows.jj", 0, &f, &err), JJ_OK);
  CHECK_EQ_INT(jj_file_changed(&f, "rows.jj"), 0);
  ts[1].tv_nsec = 6; /* one nanosecond later */
  CHECK_EQ_INT(utimensat(AT_FDCWD, "rows.jj", ts, 0), 0);
  CHECK_EQ_INT(jj_file_changed(&f, "rows.jj"), 1);
  jj_file_close(&f);
  /* replaced by rename, same bytes and times: another inode */
  CHECK_EQ_INT(jj_file_open("rows.jj", 0, &f, &err), JJ_OK);
  put_file("other.jj", doc, sizeof doc - 1);
  CHECK_EQ_INT(utimensat(AT_FDCWD, "other.jj", ts, 0), 0);
  CHECK_EQ_INT(rename("other.jj", "rows.jj"), 0);
  CHECK_EQ_INT(jj_file_changed(&f, "rows.jj"), 1);
  jj_file_close(&f);
  /* removed: cannot be examined */
  CHECK_EQ_INT(jj_file_open("rows.jj", 0, &f, &err), JJ_OK);
  unlink("rows.jj");
  CHECK_EQ_INT(jj_file_changed(&f, "rows.jj"), -1);
  jj_file_close(&f);
}

/* The mode bits of `name` (lstat), or -1. */
static int mode_of(const char *name) {
  struct stat st;
  return lstat(name, &st) == 0 ? (int)(st.st_mode & 07777) : -1;
}

TEST(atomic_write_replaces_the_file_and_keeps_its_mode) {
  jj_error err;
  uint64_t written = 0;
  size_t len;
  mode_t old_mask = umask(077);
  put_file("out.jj", "old contents", 12);
  chmod("out.jj", 0640);
  CHECK_EQ_INT(jj_file_write("out.jj", doc, sizeof doc - 1, JJ_PLAIN, -1,
                             &written, &err), JJ_OK);
  CHECK_EQ_U64(written, sizeof doc - 1);
  char *got = get_file("out.jj", &len);
  CHECK_EQ_MEM(got, len, doc, sizeof doc - 1);
  free(got);
  /* the replaced file's mode, not the umask's idea */
  CHECK_EQ_INT(mode_of("out.jj"), 0640);
  chmod("out.jj", 0604);
  CHECK_EQ_INT(jj_file_write("out.jj", "x", 1, JJ_GZIP, -1, NULL, &err),
               JJ_OK);
  CHECK_EQ_INT(mode_of("out.jj"), 0604);
  CHECK_EQ_STR(listing("."), "out.jj");

  /* a new file gets 0666 & ~umask, applied by the kernel at creation */
  CHECK_EQ_INT(jj_file_write("new.jj", "x", 1, JJ_PLAIN, -1, NULL, &err),
               JJ_OK);
  CHECK_EQ_INT(mode_of("new.jj"), 0600);
  unlink("new.jj");
  umask(022);
  CHECK_EQ_INT(jj_file_write("new.jj", "x", 1, JJ_PLAIN, -1, NULL, &err),
               JJ_OK);
  CHECK_EQ_INT(mode_of("new.jj"), 0644);
  umask(old_mask);
  unlink("new.jj");
  unlink("out.jj");
}

TEST(atomic_write_keeps_the_owner_when_root) {
  jj_error err;
  struct stat st;
  if (geteuid() != 0) {
    printf("SKIP atomic_write_keeps_the_owner_when_root: not root\n");
    return;
  }
  put_file("owned.jj", "old", 3);
  CHECK_EQ_INT(chown("owned.jj", 1234, 5678), 0);
  chmod("owned.jj", 06750); /* set-ID bits survive: mode is set after owner */
  CHECK_EQ_INT(jj_file_write("owned.jj", doc, sizeof doc - 1, JJ_PLAIN, -1,
                             NULL, &err), JJ_OK);
  CHECK(stat("owned.jj", &st) == 0);
  CHECK_EQ_INT(st.st_uid, 1234);
  CHECK_EQ_INT(st.st_gid, 5678);
  CHECK_EQ_INT(st.st_mode & 07777, 06750);
  unlink("owned.jj");
}

TEST(atomic_write_refuses_fifos_sockets_and_directories) {
  jj_error err;
  CHECK_EQ_INT(mkfifo("pipe.jj", 0600), 0);
  alarm(10);
  CHECK_EQ_INT(jj_file_write("pipe.jj", doc, sizeof doc - 1, JJ_PLAIN, -1,
                             NULL, &err), JJ_ERR_IO);
  CHECK_EQ_STR(err.message, "\"pipe.jj\" is not a regular file (a FIFO); "
                            "only regular files are replaced");
  CHECK(jj_atomic_open("pipe.jj", &err) == NULL);
  CHECK_EQ_STR(err.message, "\"pipe.jj\" is not a regular file (a FIFO); "
                            "only regular files are replaced");
  alarm(0);
  struct stat st;
  CHECK(lstat("pipe.jj", &st) == 0 && S_ISFIFO(st.st_mode));
  CHECK_EQ_STR(listing("."), "pipe.jj"); /* nothing was created */
  unlink("pipe.jj");

  struct sockaddr_un sa;
  memset(&sa, 0, sizeof sa);
  sa.sun_family = AF_UNIX;
  strcpy(sa.sun_path, "sock.jj");
  int s = socket(AF_UNIX, SOCK_STREAM, 0);
  CHECK(s >= 0 && bind(s, (struct sockaddr *)&sa, sizeof sa) == 0);
  CHECK_EQ_INT(jj_file_write("sock.jj", "x", 1, JJ_PLAIN, -1, NULL, &err),
               JJ_ERR_IO);
  CHECK_EQ_STR(err.message, "\"sock.jj\" is not a regular file (a socket); "
                            "only regular files are replaced");
  close(s);
  unlink("sock.jj");

  mkdir("dir.jj", 0755);
  CHECK_EQ_INT(jj_file_write("dir.jj", "x", 1, JJ_PLAIN, -1, NULL, &err),
               JJ_ERR_IO);
  CHECK_EQ_STR(err.message, "\"dir.jj\" is a directory");
  CHECK(lstat("dir.jj", &st) == 0 && S_ISDIR(st.st_mode));
  CHECK_EQ_STR(listing("dir.jj"), "");
  rmdir("dir.jj");
  CHECK_EQ_STR(listing("."), "");
}

/* As root, renaming over a device node replaces the device.  A copy of
** /dev/null made with mknod in the test directory stands in for it. */
TEST(atomic_write_as_root_leaves_a_device_node_a_device) {
  jj_error err;
  struct stat st;
  if (geteuid() != 0) {
    printf("SKIP atomic_write_as_root_leaves_a_device_node_a_device: "
           "not root\n");
    return;
  }
  CHECK_EQ_INT(mknod("null.jj", S_IFCHR | 0666, makedev(1, 3)), 0);
  CHECK_EQ_INT(jj_file_write("null.jj", doc, sizeof doc - 1, JJ_PLAIN, -1,
                             NULL, &err), JJ_ERR_IO);
  CHECK_EQ_STR(err.message, "\"null.jj\" is not a regular file (a character "
                            "device); only regular files are replaced");
  CHECK(lstat("null.jj", &st) == 0 && S_ISCHR(st.st_mode) &&
        st.st_rdev == makedev(1, 3));
  CHECK_EQ_INT(mknod("blk.jj", S_IFBLK | 0600, makedev(7, 200)), 0);
  CHECK_EQ_INT(jj_file_write("blk.jj", "x", 1, JJ_GZIP, -1, NULL, &err),
               JJ_ERR_IO);
  CHECK_EQ_STR(err.message, "\"blk.jj\" is not a regular file (a block "
                            "device); only regular files are replaced");
  CHECK(lstat("blk.jj", &st) == 0 && S_ISBLK(st.st_mode));
  CHECK_EQ_STR(listing("."), "blk.jj null.jj");
  unlink("null.jj");
  unlink("blk.jj");
}

TEST(atomic_write_through_a_symbolic_link_replaces_its_target) {
  jj_error err;
  size_t len;
  char buf[256];
  struct stat st;
  mkdir("real", 0755);
  put_file("real/t.jj", "old", 3);
  chmod("real/t.jj", 0640);
  CHECK_EQ_INT(symlink("real/t.jj", "link.jj"), 0);
  CHECK_EQ_INT(symlink("link.jj", "link2.jj"), 0); /* a chain of two */
  CHECK_EQ_INT(jj_file_write("link2.jj", doc, sizeof doc - 1, JJ_PLAIN, -1,
                             NULL, &err), JJ_OK);
  /* the links are still links, to the same place */
  CHECK(lstat("link.jj", &st) == 0 && S_ISLNK(st.st_mode));
  CHECK(lstat("link2.jj", &st) == 0 && S_ISLNK(st.st_mode));
  ssize_t n = readlink("link.jj", buf, sizeof buf - 1);
  CHECK_EQ_MEM(buf, n < 0 ? 0 : (size_t)n, "real/t.jj", 9);
  char *got = get_file("real/t.jj", &len);
  CHECK_EQ_MEM(got, len, doc, sizeof doc - 1);
  free(got);
  CHECK_EQ_INT(mode_of("real/t.jj"), 0640);
  /* the temporary file went to the target's directory, and is gone */
  CHECK_EQ_STR(listing("real"), "t.jj");
  CHECK_EQ_STR(listing("."), "link.jj link2.jj real");

  /* a link to a FIFO is refused by what it leads to */
  CHECK_EQ_INT(mkfifo("real/pipe", 0600), 0);
  CHECK_EQ_INT(symlink("real/pipe", "plink.jj"), 0);
  CHECK_EQ_INT(jj_file_write("plink.jj", "x", 1, JJ_PLAIN, -1, NULL, &err),
               JJ_ERR_IO);
  CHECK_EQ_STR(err.message, "\"plink.jj\" is not a regular file (a FIFO); "
                            "only regular files are replaced");
  CHECK(lstat("real/pipe", &st) == 0 && S_ISFIFO(st.st_mode));
  unlink("plink.jj");
  unlink("real/pipe");
  unlink("link2.jj");
  unlink("link.jj");
  unlink("real/t.jj");
  rmdir("real");
}

TEST(atomic_write_refuses_a_dangling_link) {
  jj_error err;
  struct stat st;
  CHECK_EQ_INT(symlink("nowhere/t.jj", "dangling.jj"), 0);
  CHECK_EQ_INT(jj_file_write("dangling.jj", "x", 1, JJ_PLAIN, -1, NULL,
                             &err), JJ_ERR_IO);
  CHECK_EQ_STR(err.message, "\"dangling.jj\" is a symbolic link to a file "
                            "that does not exist");
  CHECK(jj_atomic_open("dangling.jj", &err) == NULL);
  CHECK(lstat("dangling.jj", &st) == 0 && S_ISLNK(st.st_mode));
  CHECK_EQ_STR(listing("."), "dangling.jj");
  unlink("dangling.jj");
}

TEST(atomic_write_refuses_names_of_other_compressors) {
  jj_error err;
  uint64_t written = 7;
  CHECK_EQ_INT(jj_file_write("out.jj.zst", doc, sizeof doc - 1, JJ_PLAIN, -1,
                             &written, &err), JJ_ERR_USAGE);
  CHECK_EQ_STR(err.message, "\"out.jj.zst\": .zst compression is not "
                            "supported (use .gz, .br or no suffix)");
  CHECK_EQ_U64(written, 0);
  CHECK_EQ_INT(jj_file_write("out.tgz", doc, sizeof doc - 1, JJ_GZIP, -1,
                             NULL, &err), JJ_ERR_USAGE);
  CHECK_EQ_STR(listing("."), "");
}

TEST(atomic_write_of_a_long_name_shortens_only_the_temporary_name) {
  jj_error err;
  char name[251];
  memset(name, 'n', 247);
  memcpy(name + 247, ".jj", 4);
  CHECK_EQ_INT(jj_file_write(name, "x", 1, JJ_PLAIN, -1, NULL, &err), JJ_OK);
  CHECK_EQ_STR(listing("."), name);
  unlink(name);
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
  chmod("keep.jj", 0604);
  jj_atomic *a = jj_atomic_open("keep.jj", &err);
  CHECK(a != NULL);
  CHECK_EQ_INT(jj_atomic_sink(a, "new contents", 12), 0);
  /* the temporary file sits next to the target while writing, named
  ** .NAME.jj-tmp-XXXXXX, already with the target's mode */
  const char *l = listing(".");
  CHECK(strncmp(l, ".keep.jj.jj-tmp-", 16) == 0);
  CHECK(strlen(l) == 16 + 6 + 1 + 7 && strcmp(l + 23, "keep.jj") == 0);
  char tmp[23];
  memcpy(tmp, l, 22);
  tmp[22] = '\0';
  CHECK_EQ_INT(mode_of(tmp), 0604);
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

/* A file name may come from somewhere untrusted (the SQLite extension
** opens files a database file's schema names): in messages its control
** characters are escaped as \xHH, '"' and '\' too, valid UTF-8 stays, and
** it is cut after 256 bytes, so none of it reaches a terminal as it is. */
TEST(messages_escape_the_names_of_files) {
  jj_error err;
  jj_file f;
  CHECK_EQ_INT(jj_file_open("no\x1b[31mred\n\"q\\\xc3\xa9.jj", 0, &f, &err),
               JJ_ERR_IO);
  CHECK_EQ_STR(err.message, "cannot open \"no\\x1b[31mred\\x0a\\\"q\\\\\xc3\xa9"
                            ".jj\": No such file or directory");
  CHECK(mkdir("d\x1b[31m", 0755) == 0);
  CHECK_EQ_INT(jj_file_open("d\x1b[31m", 0, &f, &err), JJ_ERR_IO);
  CHECK_EQ_STR(err.message, "\"d\\x1b[31m\" is a directory");
  CHECK(jj_atomic_open("d\x1b[31m", &err) == NULL);
  CHECK_EQ_STR(err.message, "\"d\\x1b[31m\" is a directory");
  CHECK(jj_atomic_open("d\x1b[31m/", &err) == NULL);
  CHECK_EQ_STR(err.message, "\"d\\x1b[31m/\" is not a file name");
  rmdir("d\x1b[31m");
  CHECK(jj_atomic_open("nodir\x1b[31m/x\n.jj", &err) == NULL);
  CHECK_EQ_STR(err.message, "cannot create a temporary file for "
                            "\"nodir\\x1b[31m/x\\x0a.jj\": No such file or "
                            "directory");
  /* a long name is cut after 256 bytes */
  char name[301], want[320];
  for (int i = 0; i < 300; i++) name[i] = i % 2 ? '/' : 'a';
  name[300] = '\0';
  snprintf(want, sizeof want,
           "cannot open \"%.256s\"...: No such file or directory", name);
  CHECK_EQ_INT(jj_file_open(name, 0, &f, &err), JJ_ERR_IO);
  CHECK_EQ_STR(err.message, want);
  CHECK_EQ_STR(listing("."), "");
}

int main(void) {
  char cwd[4096];
  if (!getcwd(cwd, sizeof cwd) || !mkdtemp(tmpdir) || chdir(tmpdir) != 0) {
    perror("test_file setup");
    return 1;
  }
  RUN(plain_file_is_read_into_memory_not_mapped);
  RUN(empty_file_reads_as_empty_string);
  RUN(mmap_option_maps_a_plain_file);
  RUN(gzip_file_is_found_by_magic_and_brotli_by_name);
  RUN(fifo_is_refused_without_blocking);
  RUN(fifo_with_any_kind_reads_what_a_writer_child_writes);
  RUN(devices_are_refused_unless_any_kind);
  RUN(device_nodes_made_with_mknod_are_refused_by_kind);
  RUN(sockets_and_directories_are_refused);
  RUN(proc_and_sys_files_are_refused);
  RUN(plain_file_over_the_limit_is_refused_before_reading);
  RUN(decompression_bombs_stop_at_the_limit);
  RUN(prefix_reads_of_a_bomb_are_bounded_by_the_prefix);
  RUN(interrupt_stops_reading_and_decompressing_a_file);
  RUN(prefix_reads_hold_the_first_bytes_and_say_if_that_was_all);
  RUN(file_changed_tells_a_different_file_from_the_same);
  RUN(open_errors_name_the_file);
  RUN(atomic_write_replaces_the_file_and_keeps_its_mode);
  RUN(atomic_write_keeps_the_owner_when_root);
  RUN(atomic_write_refuses_fifos_sockets_and_directories);
  RUN(atomic_write_as_root_leaves_a_device_node_a_device);
  RUN(atomic_write_through_a_symbolic_link_replaces_its_target);
  RUN(atomic_write_refuses_a_dangling_link);
  RUN(atomic_write_refuses_names_of_other_compressors);
  RUN(atomic_write_of_a_long_name_shortens_only_the_temporary_name);
  RUN(compressed_write_reports_the_bytes_on_disk);
  RUN(aborted_write_leaves_the_old_file_and_no_temp_file);
  RUN(bad_level_fails_before_touching_the_old_file);
  RUN(write_failing_midway_leaves_the_old_file_and_no_temp_file);
  RUN(writer_streams_through_deflater_into_atomic_file);
  RUN(atomic_open_errors_name_the_target);
  RUN(messages_escape_the_names_of_files);
  CHECK_EQ_STR(listing("."), "");
  if (chdir(cwd) != 0 || rmdir(tmpdir) != 0) perror("test_file cleanup");
  return test_summary("file");
}
