/*
** atomic.c — putting a document into a file safely: readers of the target
** see the old file or the new one, never a mix, and a failure leaves the
** old file as it was.
**
**   1. lstat the target.  A symbolic link is followed (realpath) and its
**      final target is what gets replaced, so the link stays a link; a
**      dangling link is refused.  A target that exists and is not a regular
**      file (FIFO, device, socket, directory) is refused before anything is
**      created: renaming over /dev/null as root would replace the device.
**   2. Create ".NAME.jj-tmp-XXXXXX" in the target's directory (rename is
**      atomic only within one file system) with O_CREAT|O_EXCL in a retry
**      loop, XXXXXX random.  A new file is created with mode 0666 and the
**      kernel applies the umask (umask() itself is process-global and racy
**      to read); a replacement is created 0600, then gets the old file's
**      owner and group (fchown, where permitted) and mode (fchmod) before a
**      byte is written.
**   3. Write; then fsync, close, check the target is still not a special
**      file, rename over it, fsync the directory.
** On any failure only our own temporary file is removed.  Replacing a file
** gives the path a new inode: other hard links to the old file keep the
** old contents, as with any atomic replacement.
**
** Ownership: a jj_atomic is freed by jj_atomic_commit or jj_atomic_abort,
** whichever comes first.
*/
#define _DEFAULT_SOURCE /* realpath (XSI) */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"

/* Tries before giving up on finding an unused temporary name. */
#define TMP_TRIES 100
/* The most bytes of NAME in ".NAME.jj-tmp-XXXXXX": with the 15 added bytes
** the temporary name stays under NAME_MAX (255) for a name that fits. */
#define TMP_NAME_MAX 230

struct jj_atomic {
  int fd;           /* the temporary file, -1 once closed */
  char *path;       /* the target as the caller named it, for messages */
  char *target;     /* what is replaced: path, or where its link leads */
  char *tmp;        /* our temporary file, NULL until created */
  char *dir;        /* the target's directory, for its fsync */
  uint64_t written; /* bytes written so far */
  jj_error error;   /* the first write error; code JJ_OK while none */
};

/* Close and (when asked) remove our temporary file, free everything. */
static void atomic_free(jj_atomic *a, int unlink_tmp) {
  if (a->fd >= 0) close(a->fd);
  if (unlink_tmp && a->tmp) unlink(a->tmp);
  free(a->path);
  free(a->target);
  free(a->tmp);
  free(a->dir);
  free(a);
}

/* Copy s[0..n) as a new NUL-terminated string (freed by atomic_free). */
static char *dup_n(const char *s, size_t n) {
  char *p = malloc(n + 1);
  if (p) {
    memcpy(p, s, n);
    p[n] = '\0';
  }
  return p;
}

/* "a FIFO", ... for what is not a regular file. */
static const char *kind_name(mode_t m) {
  if (S_ISFIFO(m)) return "a FIFO";
  if (S_ISCHR(m)) return "a character device";
  if (S_ISBLK(m)) return "a block device";
  if (S_ISSOCK(m)) return "a socket";
  if (S_ISLNK(m)) return "a symbolic link";
  return "not a file";
}

/* Refuse to replace anything but a regular file. */
static jj_code check_target(const char *path, const struct stat *st,
                            jj_error *err) {
  char shown[JJ_PATH_CAP]; /* the file, as a message names it */
  if (S_ISREG(st->st_mode)) return JJ_OK;
  if (S_ISDIR(st->st_mode))
    return jj_fail(err, JJ_ERR_IO, NULL, "%s is a directory",
                   jj_show_path(shown, path));
  return jj_fail(err, JJ_ERR_IO, NULL,
                 "%s is not a regular file (%s); only regular files are "
                 "replaced",
                 jj_show_path(shown, path), kind_name(st->st_mode));
}

/* Where writing `path` must go, in a->target, and whether it exists (*st
** then holds its mode and owner).  A symbolic link leads to its final
** target. */
static jj_code find_target(jj_atomic *a, struct stat *st, int *exists,
                           jj_error *err) {
  char shown[JJ_PATH_CAP]; /* the file, as a message names it */
  *exists = 0;
  if (lstat(a->path, st) != 0) {
    if (errno != ENOENT)
      return jj_fail(err, JJ_ERR_IO, NULL, "cannot write %s: %s",
                     jj_show_path(shown, a->path), strerror(errno));
    a->target = dup_n(a->path, strlen(a->path)); /* a new file */
  } else if (S_ISLNK(st->st_mode)) {
    a->target = realpath(a->path, NULL);
    if (!a->target && errno == ENOENT)
      return jj_fail(err, JJ_ERR_IO, NULL,
                     "%s is a symbolic link to a file that does not "
                     "exist",
                     jj_show_path(shown, a->path));
    if (!a->target && errno != ENOMEM)
      return jj_fail(err, JJ_ERR_IO, NULL, "cannot write %s: %s",
                     jj_show_path(shown, a->path), strerror(errno));
    if (a->target && stat(a->target, st) != 0)
      return jj_fail(err, JJ_ERR_IO, NULL, "cannot write %s: %s",
                     jj_show_path(shown, a->path), strerror(errno));
    *exists = 1;
  } else {
    a->target = dup_n(a->path, strlen(a->path));
    *exists = 1;
  }
  if (!a->target) return jj_fail(err, JJ_ERR_NOMEM, NULL, "out of memory");
  return *exists ? check_target(a->path, st, err) : JJ_OK;
}

/* A hash of the time, the process, an address and the attempt: different
** per call and per process without any state kept between calls. */
static uint64_t random_bits(const void *addr, unsigned attempt) {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  uint64_t x = (uint64_t)ts.tv_sec * 1000000007u ^ (uint64_t)ts.tv_nsec ^
               (uint64_t)getpid() << 32 ^ (uint64_t)(uintptr_t)addr ^
               (uint64_t)attempt * 0x9e3779b97f4a7c15u;
  x ^= x >> 30; /* splitmix64's finalizer */
  x *= 0xbf58476d1ce4e5b9u;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebu;
  return x ^ x >> 31;
}

/* Create our temporary file next to a->target: a->tmp and a->fd. */
static jj_code create_tmp(jj_atomic *a, mode_t mode, jj_error *err) {
  char shown[JJ_PATH_CAP]; /* the file, as a message names it */
  static const char digits[] =
      "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  const char *slash = strrchr(a->target, '/');
  const char *name = slash ? slash + 1 : a->target;
  size_t dir_len = slash ? (size_t)(slash - a->target) : 0;
  size_t name_len = strlen(name);
  if (name_len > TMP_NAME_MAX) name_len = TMP_NAME_MAX;
  /* "/x" lives in "/", "x" in "." */
  a->dir = slash ? dup_n(dir_len ? a->target : "/", dir_len ? dir_len : 1)
                 : dup_n(".", 1);
  size_t head = slash ? dir_len + 1 : 0;
  char *tmp = malloc(head + 1 + name_len + sizeof ".jj-tmp-XXXXXX");
  if (!a->dir || !tmp) {
    free(tmp);
    return jj_fail(err, JJ_ERR_NOMEM, NULL, "out of memory");
  }
  memcpy(tmp, a->target, head);
  tmp[head] = '.';
  memcpy(tmp + head + 1, name, name_len);
  char *x = tmp + head + 1 + name_len;
  memcpy(x, ".jj-tmp-XXXXXX", sizeof ".jj-tmp-XXXXXX");
  x += sizeof ".jj-tmp-" - 1;
  for (unsigned attempt = 0; attempt < TMP_TRIES; attempt++) {
    uint64_t r = random_bits(&tmp, attempt);
    for (int i = 0; i < 6; i++, r /= 62) x[i] = digits[r % 62];
    a->fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
    if (a->fd >= 0) {
      a->tmp = tmp; /* ours: from now on removed on failure */
      return JJ_OK;
    }
    if (errno != EEXIST) break;
  }
  int e = errno;
  free(tmp);
  return jj_fail(err, JJ_ERR_IO, NULL,
                 "cannot create a temporary file for %s: %s",
                 jj_show_path(shown, a->path), strerror(e));
}

/* Give the temporary file the replaced file's owner, group and mode.  A
** user who may not give files away still keeps the group where allowed;
** the mode goes last since a change of owner clears set-user-ID bits. */
static jj_code copy_owner_and_mode(jj_atomic *a, const struct stat *st,
                                   jj_error *err) {
  char shown[JJ_PATH_CAP]; /* the file, as a message names it */
  struct stat mine;
  if (fstat(a->fd, &mine) == 0 &&
      (mine.st_uid != st->st_uid || mine.st_gid != st->st_gid) &&
      fchown(a->fd, st->st_uid, st->st_gid) != 0) {
    if (errno != EPERM)
      return jj_fail(err, JJ_ERR_IO, NULL, "cannot write %s: %s",
                     jj_show_path(shown, a->path), strerror(errno));
    (void)!fchown(a->fd, (uid_t)-1, st->st_gid);
  }
  if (fchmod(a->fd, st->st_mode & 07777) != 0)
    return jj_fail(err, JJ_ERR_IO, NULL, "cannot write %s: %s",
                   jj_show_path(shown, a->path), strerror(errno));
  return JJ_OK;
}

/* See the file comment.  The handle is freed by commit or abort. */
jj_atomic *jj_atomic_open(const char *path, jj_error *err) {
  char shown[JJ_PATH_CAP]; /* the file, as a message names it */
  struct stat st;
  int exists;
  if (!path || !*path || path[strlen(path) - 1] == '/') {
    jj_fail(err, JJ_ERR_IO, NULL, "%s is not a file name",
            jj_show_path(shown, path ? path : ""));
    return NULL;
  }
  jj_atomic *a = calloc(1, sizeof *a);
  if (!a || !(a->path = dup_n(path, strlen(path)))) {
    free(a);
    jj_fail(err, JJ_ERR_NOMEM, NULL, "out of memory");
    return NULL;
  }
  a->fd = -1;
  jj_error_clear(&a->error);
  jj_code code = find_target(a, &st, &exists, err);
  if (!code) code = create_tmp(a, exists ? 0600 : 0666, err);
  if (!code && exists) code = copy_owner_and_mode(a, &st, err);
  if (code) {
    atomic_free(a, 1);
    return NULL;
  }
  return a;
}

/* jj_sink-compatible: write everything, retrying short writes and EINTR.
** The first error is kept for jj_atomic_commit to report. */
int jj_atomic_sink(void *atomic, const char *p, size_t len) {
  char shown[JJ_PATH_CAP]; /* the file, as a message names it */
  jj_atomic *a = atomic;
  if (a->error.code) return -1;
  while (len > 0) {
    ssize_t n = write(a->fd, p, len > (1u << 30) ? (1u << 30) : len);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      jj_fail(&a->error, JJ_ERR_IO, NULL, "cannot write %s: %s",
              jj_show_path(shown, a->path),
              n < 0 ? strerror(errno) : "no progress");
      return -1;
    }
    p += n;
    len -= (size_t)n;
    a->written += (uint64_t)n;
  }
  return 0;
}

/* Make the new file durable, then put it in place.  The target is checked
** again just before the rename: it may have been replaced by a special
** file since jj_atomic_open (this narrows the window; POSIX has no rename
** that refuses to replace a device).  The directory fsync after the rename
** is best effort: the file is in place then, and some file systems refuse
** fsync on directories. */
jj_code jj_atomic_commit(jj_atomic *a, jj_error *err) {
  char shown[JJ_PATH_CAP]; /* the file, as a message names it */
  struct stat st;
  jj_code code = a->error.code;
  if (code) {
    if (err) *err = a->error;
    atomic_free(a, 1);
    return code;
  }
  const char *what = "write";
  int bad = fsync(a->fd) != 0;
  if (!bad) {
    bad = close(a->fd) != 0;
    a->fd = -1;
  }
  if (!bad && lstat(a->target, &st) == 0 &&
      (code = check_target(a->path, &st, err)) != JJ_OK) {
    atomic_free(a, 1);
    return code;
  }
  if (!bad) {
    what = "rename to";
    bad = rename(a->tmp, a->target) != 0;
  }
  if (bad) {
    code = jj_fail(err, JJ_ERR_IO, NULL, "cannot %s %s: %s", what,
                   jj_show_path(shown, a->path), strerror(errno));
    atomic_free(a, 1);
    return code;
  }
  int dfd = open(a->dir, O_RDONLY | O_CLOEXEC);
  if (dfd >= 0) {
    (void)fsync(dfd);
    close(dfd);
  }
  atomic_free(a, 0);
  return JJ_OK;
}

/* Give up: the temporary file is removed, the target untouched. */
void jj_atomic_abort(jj_atomic *a) {
  if (a) atomic_free(a, 1);
}

/* Atomic open, optional compressor, one write, commit.  Any failure aborts
** (old file untouched, no temporary file left).  The name is checked like
** jj_compression_for_write's, so no caller writes plain bytes under a name
** that promises .zst; a kind that differs from what .gz/.br say is the
** caller's choice (the magic bytes tell gzip on reading anyway). */
jj_code jj_file_write(const char *path, const char *data, size_t len,
                      jj_compression kind, int level, uint64_t *written,
                      jj_error *err) {
  jj_error e;
  jj_deflater *z = NULL;
  if (written) *written = 0;
  jj_code code = jj_compression_for_write(path, NULL, err);
  if (code) return code;
  jj_atomic *a = jj_atomic_open(path, &e);
  if (!a) {
    if (err) *err = e;
    return e.code;
  }
  if (kind != JJ_PLAIN) {
    z = jj_deflate_new(kind, level, jj_atomic_sink, a, &e);
    if (!z) goto fail;
    jj_deflate_sink(z, data, len);
    /* A write error inside reaches here as JJ_ERR_IO "write failed"; the
    ** atomic file holds the real reason and commit reports that. */
    if (jj_deflate_finish(z, &e) && !a->error.code) goto fail;
    jj_deflate_free(z);
    z = NULL;
  } else {
    jj_atomic_sink(a, data, len);
  }
  uint64_t n = a->written;
  code = jj_atomic_commit(a, err);
  if (!code && written) *written = n;
  return code;
fail:
  jj_deflate_free(z);
  jj_atomic_abort(a);
  if (err) *err = e;
  return e.code;
}
