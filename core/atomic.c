/*
** atomic.c — putting a document into a file safely: readers of the target
** see the old file or the new one, never a mix, and a failure leaves the
** old file as it was.
**
**   1. Walk the path a name at a time (find_target).  A symbolic link is
**      followed and its final target is what gets replaced, so the link
**      stays a link; a dangling link is refused, and so is a link owned by
**      another user in a sticky world-writable directory such as /tmp
**      (the rule of Linux's fs.protected_symlinks, applied here because
**      reading a link and using its text bypasses the kernel's check);
**      likewise a file there owned by another user is not replaced (the
**      rule of fs.protected_regular: the new file would keep their owner).
**      A target that exists and is not a regular file (FIFO, device,
**      socket, directory) is refused before anything is created: renaming
**      over /dev/null as root would replace the device.
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
#define _DEFAULT_SOURCE /* readlink, lstat */
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

/* A growing NUL-terminated string (malloc). */
typedef struct sbuf {
  char *p;
  size_t n, cap;
} sbuf;

static int sb_add(sbuf *b, const char *s, size_t n) {
  if (b->n + n + 1 > b->cap) {
    size_t cap = b->cap ? b->cap : 64;
    while (cap < b->n + n + 1) cap *= 2;
    char *p = realloc(b->p, cap);
    if (!p) return -1;
    b->p = p;
    b->cap = cap;
  }
  memcpy(b->p + b->n, s, n);
  b->n += n;
  b->p[b->n] = '\0';
  return 0;
}

/* The text of the symbolic link `path` (malloc), or NULL with errno set.
** st_size is only a hint: /proc's links report 0 or 64. */
static char *read_link(const char *path, size_t hint) {
  size_t cap = hint + 2 > 128 ? hint + 2 : 128;
  for (;;) {
    char *p = malloc(cap);
    if (!p) return NULL;
    ssize_t n = readlink(path, p, cap);
    if (n < 0) {
      int e = errno;
      free(p);
      errno = e;
      return NULL;
    }
    if ((size_t)n < cap) {
      p[n] = '\0';
      return p;
    }
    free(p);
    if (cap > ((size_t)1 << 20)) {
      errno = ENAMETOOLONG;
      return NULL;
    }
    cap *= 2;
  }
}

/* "a pipe", ... for what a path leads to when it is not a regular file. */
static const char *plain_kind(mode_t m) {
  if (S_ISFIFO(m)) return "a pipe";
  if (S_ISSOCK(m)) return "a socket";
  if (S_ISCHR(m)) return "a character device";
  if (S_ISBLK(m)) return "a block device";
  if (S_ISDIR(m)) return "a directory";
  return NULL;
}

/* A link that leads nowhere by name may still lead somewhere: /dev/stdout
** is /proc/self/fd/1, whose text for a pipe is "pipe:[1234]", which the
** kernel follows and a name lookup cannot.  Say what it is then. */
static jj_code dangling(const jj_atomic *a, jj_error *err) {
  char shown[JJ_PATH_CAP]; /* the file, as a message names it */
  struct stat st;
  const char *kind = stat(a->path, &st) == 0 ? plain_kind(st.st_mode) : NULL;
  if (kind)
    return jj_fail(err, JJ_ERR_IO, NULL,
                   "%s is %s, not a regular file; only regular files are "
                   "replaced",
                   jj_show_path(shown, a->path), kind);
  return jj_fail(err, JJ_ERR_IO, NULL,
                 "%s is a symbolic link to a file that does not exist",
                 jj_show_path(shown, a->path));
}

/* The rule of Linux's fs.protected_symlinks, whatever the sysctl says: a
** symbolic link in a sticky world-writable directory (/tmp) is followed
** only when this process's user or the directory's owner owns it.
** Otherwise anyone could plant /tmp/out.jj -> /etc/passwd for root to
** write through.  `dir` holds the link (lstat'ed as *link). */
static jj_code check_link(const jj_atomic *a, const char *dir,
                          const char *name, const struct stat *link,
                          jj_error *err) {
  char shown[JJ_PATH_CAP], shown_link[JJ_PATH_CAP];
  struct stat d;
  if (stat(*dir ? dir : ".", &d) != 0)
    return jj_fail(err, JJ_ERR_IO, NULL, "cannot write %s: %s",
                   jj_show_path(shown, a->path), strerror(errno));
  if (!(d.st_mode & S_ISVTX) || !(d.st_mode & S_IWOTH) ||
      link->st_uid == geteuid() || link->st_uid == d.st_uid)
    return JJ_OK;
  if (strcmp(name, a->path) == 0)
    return jj_fail(err, JJ_ERR_IO, NULL,
                   "%s is a symbolic link owned by another user (uid %lu) in "
                   "a sticky world-writable directory; it is not followed",
                   jj_show_path(shown, a->path), (unsigned long)link->st_uid);
  return jj_fail(err, JJ_ERR_IO, NULL,
                 "cannot write %s: %s is a symbolic link owned by another "
                 "user (uid %lu) in a sticky world-writable directory; it is "
                 "not followed",
                 jj_show_path(shown, a->path),
                 jj_show_path(shown_link, name), (unsigned long)link->st_uid);
}

/* The rule of Linux's fs.protected_regular, whatever the sysctl says: in
** a sticky world-writable directory, a file owned by neither this
** process's user nor the directory's owner is not replaced.  Replacing
** it would hand the new file to that file's owner (it keeps the old
** owner), so anyone could create /tmp/out.jj first to read what root
** writes there.  *st is the existing target. */
static jj_code check_foreign_file(const jj_atomic *a, const struct stat *st,
                                  jj_error *err) {
  char shown[JJ_PATH_CAP];
  struct stat d;
  if (st->st_uid == geteuid() || stat(a->dir, &d) != 0 ||
      !(d.st_mode & S_ISVTX) || !(d.st_mode & S_IWOTH) ||
      st->st_uid == d.st_uid)
    return JJ_OK;
  return jj_fail(err, JJ_ERR_IO, NULL,
                 "%s is owned by another user (uid %lu) in a sticky "
                 "world-writable directory; it is not replaced (the new "
                 "file would be theirs)",
                 jj_show_path(shown, a->path), (unsigned long)st->st_uid);
}

/* Links followed before giving up, as the kernel's ELOOP. */
#define MAX_LINKS 40

/* Where writing a->path must go, in a->target, and whether it exists (*st
** then holds its mode and owner).  The path is walked a name at a time as
** realpath does, every symbolic link read and checked (check_link) before
** it is followed, so the target is a path without links: the rename
** replaces the final file, the links stay.  A name missing on the way
** ends the walk: the rest is kept as it is (creating the temporary file
** then fails with the system's reason), unless a link led there
** (dangling). */
static jj_code find_target(jj_atomic *a, struct stat *st, int *exists,
                           jj_error *err) {
  char shown[JJ_PATH_CAP]; /* the file, as a message names it */
  sbuf res = {NULL, 0, 0};  /* resolved so far: no links; "" is "." */
  sbuf cand = {NULL, 0, 0}; /* res + "/" + the name looked at */
  char *todo = dup_n(a->path, strlen(a->path)); /* names still to walk */
  size_t pos = 0;
  int links = 0, via_link = 0, done = 0;
  jj_code code = JJ_OK;
  *exists = 0;
  if (!todo || sb_add(&res, "", 0) || (*todo == '/' && sb_add(&res, "/", 1)))
    goto nomem;
  while (!done) {
    while (todo[pos] == '/') pos++;
    const char *name = todo + pos;
    size_t len = strcspn(name, "/");
    pos += len;
    while (todo[pos] == '/') pos++;
    int last = todo[pos] == '\0';
    if (len == 0 || (len == 1 && name[0] == '.')) {
      if (last) {
        cand.n = 0; /* ends in a directory */
        break;
      }
      continue;
    }
    if (len == 2 && name[0] == '.' && name[1] == '.') {
      char *slash = strrchr(res.p, '/');
      const char *tail = slash ? slash + 1 : res.p;
      if (res.n == 0 || strcmp(tail, "..") == 0) {
        if ((res.n && res.p[res.n - 1] != '/' && sb_add(&res, "/", 1)) ||
            sb_add(&res, "..", 2))
          goto nomem;
      } else if (strcmp(res.p, "/") != 0) {
        res.n = slash ? (slash == res.p ? 1 : (size_t)(slash - res.p)) : 0;
        res.p[res.n] = '\0';
      }
      if (last) {
        cand.n = 0;
        break;
      }
      continue;
    }
    cand.n = 0;
    if (sb_add(&cand, res.p, res.n) ||
        (res.n && res.p[res.n - 1] != '/' && sb_add(&cand, "/", 1)) ||
        sb_add(&cand, name, len))
      goto nomem;
    if (lstat(cand.p, st) != 0) {
      if (errno != ENOENT) {
        code = jj_fail(err, JJ_ERR_IO, NULL, "cannot write %s: %s",
                       jj_show_path(shown, a->path), strerror(errno));
        goto out;
      }
      if (via_link) {
        code = dangling(a, err);
        goto out;
      }
      /* A new file, or a missing directory on the way. */
      if (!last && (sb_add(&cand, "/", 1) ||
                    sb_add(&cand, todo + pos, strlen(todo + pos))))
        goto nomem;
      break;
    }
    if (S_ISLNK(st->st_mode)) {
      if (++links > MAX_LINKS) {
        code = jj_fail(err, JJ_ERR_IO, NULL, "cannot write %s: %s",
                       jj_show_path(shown, a->path), strerror(ELOOP));
        goto out;
      }
      if ((code = check_link(a, res.p, cand.p, st, err)) != JJ_OK) goto out;
      char *link = read_link(cand.p, (size_t)st->st_size);
      if (!link) {
        if (errno == ENOMEM) goto nomem;
        code = jj_fail(err, JJ_ERR_IO, NULL, "cannot write %s: %s",
                       jj_show_path(shown, a->path), strerror(errno));
        goto out;
      }
      if (last) via_link = 1;
      /* The link's text takes its place in what is left to walk. */
      sbuf next = {NULL, 0, 0};
      int bad = sb_add(&next, link, strlen(link)) ||
                (!last && (sb_add(&next, "/", 1) ||
                           sb_add(&next, todo + pos, strlen(todo + pos))));
      free(link);
      if (bad) {
        free(next.p);
        goto nomem;
      }
      free(todo);
      todo = next.p;
      pos = 0;
      if (*todo == '/') {
        res.n = 0;
        if (sb_add(&res, "/", 1)) goto nomem;
      }
      continue;
    }
    if (last) {
      *exists = 1;
      done = 1;
      break;
    }
    if (!S_ISDIR(st->st_mode)) {
      code = jj_fail(err, JJ_ERR_IO, NULL, "cannot write %s: %s",
                     jj_show_path(shown, a->path), strerror(ENOTDIR));
      goto out;
    }
    res.n = 0;
    if (sb_add(&res, cand.p, cand.n)) goto nomem;
  }
  if (!done && cand.n == 0) {
    /* The path ended in "." or "..": a directory, or nothing at all. */
    if (lstat(res.n ? res.p : ".", st) != 0) {
      code = jj_fail(err, JJ_ERR_IO, NULL, "%s is not a file name",
                     jj_show_path(shown, a->path));
      goto out;
    }
    *exists = 1;
    if (sb_add(&cand, res.n ? res.p : ".", res.n ? res.n : 1)) goto nomem;
  }
  a->target = cand.p;
  cand.p = NULL;
  code = *exists ? check_target(a->path, st, err) : JJ_OK;
  goto out;
nomem:
  code = jj_fail(err, JJ_ERR_NOMEM, NULL, "out of memory");
out:
  free(todo);
  free(res.p);
  free(cand.p);
  return code;
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
  if (!code && exists) code = check_foreign_file(a, &st, err);
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
