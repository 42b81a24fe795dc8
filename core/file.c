/*
** file.c — getting a document's bytes from a file without trusting the
** file: it may be a FIFO that never ends, a device, a /proc file, a file
** someone truncates while we read it, or a 4 KB brotli bomb.
**
** Reading (jj_file_open_opts):
**   kind check   stat() before open() and fstat() after it: anything but a
**                regular file is refused before a byte is read (opening a
**                device can itself have effects, so it is not even opened
**                when stat says no), unless JJ_FILE_ANY_KIND; the open uses
**                O_NONBLOCK so a FIFO without a writer cannot hang us
**   plain file   read() into one heap buffer of exactly the file's size,
**                never more than st_size even if the file grows; a file
**                that shrinks meanwhile gives what could be read.  Not mmap
**                by default: a mapped file truncated by someone else kills
**                the process with SIGBUS (JJ_FILE_MMAP opts in)
**   stream       FIFOs, devices, /proc and /sys files (JJ_FILE_ANY_KIND):
**                read() to the end, capped by max_size
**   gzip/brotli  gzip by its magic bytes, brotli by a ".br" name; the file
**                is streamed in 64 KiB chunks through the inflater, so
**                memory is the output plus constant buffers
**   prefix       only the first `prefix` document bytes are kept; for a
**                compressed file the stream is stopped as soon as the sink
**                has them, so a bomb costs no more than its first bytes
** Errors name the file: `"rows.jj.gz": gzip stream is truncated`.
**
** Ownership: jj_file_close releases what jj_file_open_opts set up (a heap
** buffer or a mapping).
*/
#define _DEFAULT_SOURCE /* fstatfs */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/vfs.h>
#endif

#include "internal.h"

#define CHUNK 65536
/* Poll the interrupt callback after reading this many bytes. */
#define POLL_EVERY (1u << 20)

/* f_type of procfs, sysfs and the pseudo file systems mounted under /sys
** (linux/magic.h, not included: it is not always installed and these never
** change).  Their "regular" files claim a size of 0 or 4096 whatever they
** hold, and some never end (tracefs's trace_pipe). */
#ifdef __linux__
static const unsigned long pseudo_fs[] = {
    0x9fa0,     /* PROC_SUPER_MAGIC */
    0x62656572, /* SYSFS_MAGIC */
    0x27e0eb,   /* CGROUP_SUPER_MAGIC */
    0x63677270, /* CGROUP2_SUPER_MAGIC */
    0x64626720, /* DEBUGFS_MAGIC */
    0x74726163, /* TRACEFS_MAGIC */
    0x73636673, /* SECURITYFS_MAGIC */
};
#endif

/* A read in progress.  `out` is owned here until it is handed to the
** jj_file; every exit path either hands it over or frees it. */
typedef struct reader {
  const char *path;
  jj_file_opts o;
  int fd;
  int bounded;   /* a regular file: st_size bounds the read */
  uint64_t left; /* bounded: bytes of st_size not read yet */
  uint64_t work; /* bytes read since the interrupt was last polled */
  int poll;      /* poll on reads (the inflater polls by itself) */
  jj_buf out;    /* document bytes (compressed and stream paths) */
  int full;      /* prefix: the sink has its bytes and more came */
  int oom;       /* the sink could not grow `out` */
} reader;

/* "a FIFO", ... for a file that is not regular; NULL for a regular one. */
static const char *kind_name(mode_t m) {
  if (S_ISREG(m)) return NULL;
  if (S_ISFIFO(m)) return "a FIFO";
  if (S_ISCHR(m)) return "a character device";
  if (S_ISBLK(m)) return "a block device";
  if (S_ISSOCK(m)) return "a socket";
  if (S_ISDIR(m)) return "a directory";
  return "not a file";
}

/* Refuse what must not be read: a directory always, any other kind but a
** regular file unless JJ_FILE_ANY_KIND. */
static jj_code check_kind(const char *path, const struct stat *st,
                          unsigned flags, jj_error *err) {
  char shown[JJ_PATH_CAP]; /* the file, as a message names it */
  if (S_ISDIR(st->st_mode))
    return jj_fail(err, JJ_ERR_IO, NULL, "%s is a directory",
                   jj_show_path(shown, path));
  if (!S_ISREG(st->st_mode) && !(flags & JJ_FILE_ANY_KIND))
    return jj_fail(err, JJ_ERR_IO, NULL, "%s is not a regular file (%s)",
                   jj_show_path(shown, path), kind_name(st->st_mode));
  return JJ_OK;
}

/* 1 if the open file lives on one of the pseudo file systems above. */
static int is_proc_or_sys(int fd) {
#ifdef __linux__
  struct statfs fs;
  if (fstatfs(fd, &fs) != 0) return 0;
  for (size_t i = 0; i < sizeof pseudo_fs / sizeof pseudo_fs[0]; i++)
    if ((unsigned long)fs.f_type == pseudo_fs[i]) return 1;
#else
  (void)fd;
#endif
  return 0;
}

/* Read up to cap bytes into p; *got 0 at the end.  Never past st_size for
** a regular file.  Polls the interrupt every POLL_EVERY bytes. */
static jj_code read_some(reader *r, void *p, size_t cap, size_t *got,
                         jj_error *err) {
  char shown[JJ_PATH_CAP]; /* the file, as a message names it */
  ssize_t n;
  *got = 0;
  if (r->bounded && cap > r->left) cap = (size_t)r->left;
  if (cap == 0) return JJ_OK;
  do n = read(r->fd, p, cap);
  while (n < 0 && errno == EINTR);
  if (n < 0)
    return jj_fail(err, JJ_ERR_IO, NULL, "cannot read %s: %s",
                   jj_show_path(shown, r->path), strerror(errno));
  *got = (size_t)n;
  if (r->bounded) r->left -= (uint64_t)n;
  r->work += (uint64_t)n;
  if (r->poll && r->o.interrupt && r->work >= POLL_EVERY) {
    r->work = 0;
    if (r->o.interrupt(r->o.interrupt_ctx))
      return jj_fail(err, JJ_ERR_INTERRUPTED, NULL, "%s: interrupted",
                     jj_show_path(shown, r->path));
  }
  return JJ_OK;
}

/* A plain regular file of `size` bytes, `head` already read: one buffer of
** the size wanted, filled by read() until it is full or the file ends. */
static jj_code read_regular(reader *r, uint64_t size, const char *head,
                            size_t head_len, jj_file *f, jj_error *err) {
  char shown[JJ_PATH_CAP]; /* the file, as a message names it */
  uint64_t max = r->o.max_size;
  if (max && size > max)
    return jj_fail(err, JJ_ERR_LIMIT, NULL,
                   "%s is %llu bytes, over the limit of %llu bytes",
                   jj_show_path(shown, r->path), (unsigned long long)size,
                   (unsigned long long)max);
  size_t want = (size_t)size; /* size < SIZE_MAX: checked by the caller */
  if (r->o.prefix && r->o.prefix < want) want = r->o.prefix;
  f->complete = 1;
  if (want == 0) return JJ_OK; /* data "" without an allocation */
  char *buf = malloc(want + 1);
  if (!buf) return jj_fail(err, JJ_ERR_NOMEM, NULL, "out of memory");
  size_t len = head_len < want ? head_len : want, got = 1;
  memcpy(buf, head, len);
  while (len < want && got > 0) {
    size_t cap = want - len > POLL_EVERY ? POLL_EVERY : want - len;
    jj_code code = read_some(r, buf + len, cap, &got, err);
    if (code) {
      free(buf);
      return code;
    }
    len += got;
  }
  buf[len] = '\0';
  f->heap_ = buf;
  f->data = buf;
  f->len = len;
  /* the whole file was wanted, or it ended before the prefix did */
  f->complete = want == size || len < want;
  return JJ_OK;
}

/* A plain stream (FIFO, device, /proc file): read to the end, keeping at
** most max_size bytes (one more tells that it is over) or prefix + 1 (one
** more tells that the prefix is not all). */
static jj_code read_stream(reader *r, const char *head, size_t head_len,
                           jj_file *f, jj_error *err) {
  char shown[JJ_PATH_CAP]; /* the file, as a message names it */
  uint64_t max = r->o.max_size, cap = UINT64_MAX; /* bytes to read at most */
  if (r->o.prefix && r->o.prefix < cap - 1) cap = (uint64_t)r->o.prefix + 1;
  if (max && max < cap - 1) cap = max + 1;
  jj_code code = JJ_OK;
  size_t got = 1;
  if (jj_buf_append(&r->out, head, head_len))
    return jj_fail(err, JJ_ERR_NOMEM, NULL, "out of memory");
  while (got > 0 && r->out.len < cap) {
    if (jj_buf_reserve(&r->out, CHUNK + 1))
      return jj_fail(err, JJ_ERR_NOMEM, NULL, "out of memory");
    size_t room = r->out.cap - r->out.len - 1;
    if (room > cap - r->out.len) room = (size_t)(cap - r->out.len);
    code = read_some(r, r->out.p + r->out.len, room, &got, err);
    if (code) return code;
    r->out.len += got;
  }
  if (max && r->out.len > max)
    return jj_fail(err, JJ_ERR_LIMIT, NULL,
                   "%s: size exceeds the limit of %llu bytes",
                   jj_show_path(shown, r->path), (unsigned long long)max);
  f->complete = !(r->o.prefix && r->out.len > r->o.prefix);
  if (!f->complete) r->out.len = r->o.prefix;
  r->out.p[r->out.len] = '\0';
  f->heap_ = r->out.p;
  f->data = r->out.p;
  f->len = r->out.len;
  r->out.p = NULL; /* f owns it now */
  return JJ_OK;
}

/* The inflater's sink: keep everything, or with a prefix keep the first
** `prefix` bytes and stop the stream (nonzero) once more arrive. */
static int keep_sink(void *ctx, const char *p, size_t n) {
  reader *r = ctx;
  size_t take = n;
  if (r->o.prefix && take > r->o.prefix - r->out.len)
    take = r->o.prefix - r->out.len;
  if (jj_buf_append(&r->out, p, take)) {
    r->oom = 1;
    return 1;
  }
  if (take < n) r->full = 1;
  return take < n;
}

/* A compressed file, `head` already read: stream it through the inflater
** in CHUNK-sized reads.  Errors of the reads name the file already; the
** inflater's get the name put in front. */
static jj_code read_compressed(reader *r, jj_compression kind,
                               const char *head, size_t head_len, jj_file *f,
                               jj_error *err) {
  char shown[JJ_PATH_CAP]; /* the file, as a message names it */
  jj_error e;
  size_t got = 1;
  char *chunk = malloc(CHUNK);
  jj_inflater *z = jj_inflate_new(kind, r->o.max_size, keep_sink, r, &e);
  if (!chunk || !z) {
    free(chunk);
    jj_inflate_free(z);
    return jj_fail(err, JJ_ERR_NOMEM, NULL, "out of memory");
  }
  jj_inflate_set_interrupt(z, r->o.interrupt, r->o.interrupt_ctx);
  r->poll = 0; /* the inflater counts the input too */
  jj_code code = jj_inflate_write(z, head, head_len, &e), read_code = JJ_OK;
  while (!code && got > 0) {
    read_code = read_some(r, chunk, CHUNK, &got, err);
    if (read_code) break;
    code = jj_inflate_write(z, chunk, got, &e);
  }
  if (!code && !read_code) code = jj_inflate_finish(z, &e);
  free(chunk);
  jj_inflate_free(z);
  if (r->full) code = JJ_OK; /* stopped on purpose: the rest is unwanted */
  if (r->oom) return jj_fail(err, JJ_ERR_NOMEM, NULL, "out of memory");
  if (read_code) return read_code;
  if (code)
    return jj_fail(err, code, NULL, "%s: %s", jj_show_path(shown, r->path),
                   e.message);
  if (jj_buf_append(&r->out, "", 1))
    return jj_fail(err, JJ_ERR_NOMEM, NULL, "out of memory");
  r->out.len--; /* NUL-terminated, not counted */
  f->heap_ = r->out.p;
  f->data = r->out.p;
  f->len = r->out.len;
  f->compression = kind;
  f->complete = !r->full;
  r->out.p = NULL; /* f owns it now */
  return JJ_OK;
}

/* JJ_FILE_MMAP: map the plain regular file (no copy). */
static jj_code map_regular(reader *r, uint64_t size, jj_file *f,
                           jj_error *err) {
  char shown[JJ_PATH_CAP]; /* the file, as a message names it */
  if (r->o.max_size && size > r->o.max_size)
    return jj_fail(err, JJ_ERR_LIMIT, NULL,
                   "%s is %llu bytes, over the limit of %llu bytes",
                   jj_show_path(shown, r->path), (unsigned long long)size,
                   (unsigned long long)r->o.max_size);
  f->complete = 1;
  if (size == 0) return JJ_OK; /* mmap refuses zero lengths */
  void *map = mmap(NULL, (size_t)size, PROT_READ, MAP_PRIVATE, r->fd, 0);
  if (map == MAP_FAILED)
    return jj_fail(err, JJ_ERR_IO, NULL, "cannot map %s: %s",
                   jj_show_path(shown, r->path), strerror(errno));
  f->map_ = map;
  f->map_len_ = (size_t)size;
  f->data = map;
  f->len = (size_t)size;
  if (r->o.prefix && r->o.prefix < f->len) {
    f->len = r->o.prefix; /* the mapping stays whole; only len is cut */
    f->complete = 0;
  }
  return JJ_OK;
}

/* Everything after the open: identity, kind, then the right reader. */
static jj_code read_open(reader *r, jj_file *f, jj_error *err) {
  char shown[JJ_PATH_CAP]; /* the file, as a message names it */
  struct stat st;
  char head[2];
  size_t head_len = 0, got = 1;
  if (fstat(r->fd, &st) != 0)
    return jj_fail(err, JJ_ERR_IO, NULL, "cannot read %s: %s",
                   jj_show_path(shown, r->path), strerror(errno));
  /* again on what was opened: the path may have been swapped meanwhile */
  jj_code code = check_kind(r->path, &st, r->o.flags, err);
  if (code) return code;
  int special = !S_ISREG(st.st_mode) || is_proc_or_sys(r->fd);
  if (special && !(r->o.flags & JJ_FILE_ANY_KIND))
    return jj_fail(err, JJ_ERR_IO, NULL,
                   "%s is a /proc or /sys file, not a regular file",
                   jj_show_path(shown, r->path));
  f->dev_ = (uint64_t)st.st_dev;
  f->ino_ = (uint64_t)st.st_ino;
  f->size_ = (uint64_t)st.st_size;
  f->mtime_ns_ = (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec;
  f->ctime_ns_ = (int64_t)st.st_ctim.tv_sec * 1000000000 + st.st_ctim.tv_nsec;
  /* from here on reads may wait for a writer, as a reader of a FIFO asked
  ** to (JJ_FILE_ANY_KIND) expects */
  int fl = fcntl(r->fd, F_GETFL);
  if (fl < 0 || fcntl(r->fd, F_SETFL, fl & ~O_NONBLOCK) != 0)
    return jj_fail(err, JJ_ERR_IO, NULL, "cannot read %s: %s",
                   jj_show_path(shown, r->path), strerror(errno));
  uint64_t size = st.st_size > 0 ? (uint64_t)st.st_size : 0;
  r->bounded = !special;
  r->left = size;
  if (r->bounded && size >= SIZE_MAX)
    return jj_fail(err, JJ_ERR_LIMIT, NULL, "%s is too large to read",
                   jj_show_path(shown, r->path));
  /* gzip's magic needs two bytes; a FIFO may hand them over one by one */
  while (head_len < 2 && got > 0) {
    code = read_some(r, head + head_len, 2 - head_len, &got, err);
    if (code) return code;
    head_len += got;
  }
  jj_compression kind = jj_detect_compression(head, head_len);
  if (kind == JJ_PLAIN && jj_compression_for_path(r->path) == JJ_BROTLI)
    kind = JJ_BROTLI;
  if (kind != JJ_PLAIN)
    return read_compressed(r, kind, head, head_len, f, err);
  if (special) return read_stream(r, head, head_len, f, err);
  if (r->o.flags & JJ_FILE_MMAP) return map_regular(r, size, f, err);
  return read_regular(r, size, head, head_len, f, err);
}

/* Fill *f with the document bytes of path (see the file comment for how).
** On error *f is zeroed, so jj_file_close is still safe. */
jj_code jj_file_open_opts(const char *path, const jj_file_opts *opts,
                          jj_file *f, jj_error *err) {
  char shown[JJ_PATH_CAP]; /* the file, as a message names it */
  static const jj_file_opts defaults = {0, 0, 0, NULL, NULL};
  struct stat st;
  reader r;
  memset(f, 0, sizeof *f);
  memset(&r, 0, sizeof r);
  r.path = path;
  r.o = opts ? *opts : defaults;
  r.poll = 1;
  if (!path) return jj_fail(err, JJ_ERR_USAGE, NULL, "no file name");
  /* refuse a device or FIFO by its name first: opening one can have
  ** effects of its own (a tape rewinds, a watchdog starts) */
  if (stat(path, &st) != 0)
    return jj_fail(err, JJ_ERR_IO, NULL, "cannot open %s: %s",
                   jj_show_path(shown, path), strerror(errno));
  jj_code code = check_kind(path, &st, r.o.flags, err);
  if (code) return code;
  r.fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (r.fd < 0)
    return jj_fail(err, JJ_ERR_IO, NULL, "cannot open %s: %s",
                   jj_show_path(shown, path), strerror(errno));
  code = read_open(&r, f, err);
  close(r.fd);
  jj_buf_free(&r.out); /* NULL once handed to f */
  if (code) {
    jj_file_close(f);
    return code;
  }
  if (!f->data) f->data = ""; /* an empty document */
  return JJ_OK;
}

/* The defaults with a size limit. */
jj_code jj_file_open(const char *path, uint64_t limit, jj_file *f,
                     jj_error *err) {
  jj_file_opts o = {0, 0, 0, NULL, NULL};
  o.max_size = limit;
  return jj_file_open_opts(path, &o, f, err);
}

/* Compare the identity recorded at open with what `path` names now.  The
** change time too: a copy that restores the modification time (cp -p,
** rsync -t, tar) cannot restore it, since setting the times sets it. */
int jj_file_changed(const jj_file *f, const char *path) {
  struct stat st;
  if (!f || !path || stat(path, &st) != 0) return -1;
  int64_t mtime_ns =
      (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec;
  int64_t ctime_ns =
      (int64_t)st.st_ctim.tv_sec * 1000000000 + st.st_ctim.tv_nsec;
  return (uint64_t)st.st_dev != f->dev_ || (uint64_t)st.st_ino != f->ino_ ||
         (uint64_t)st.st_size != f->size_ || mtime_ns != f->mtime_ns_ ||
         ctime_ns != f->ctime_ns_;
}

/* Unmap or free, then zero the struct so a second close is harmless. */
void jj_file_close(jj_file *f) {
  if (!f) return;
  if (f->map_) munmap(f->map_, f->map_len_);
  free(f->heap_);
  memset(f, 0, sizeof *f);
}
