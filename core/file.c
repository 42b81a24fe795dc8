/*
** file.c — getting a document's bytes from a file and putting them into
** one safely.
**
** Reading (jj_file_open):
**   plain file   open + fstat + mmap(PROT_READ, MAP_PRIVATE): never copied
**   empty file   data "" and len 0 (mmap refuses zero lengths)
**   gzip         detected by its magic bytes, whatever the name
**   brotli       detected by a ".br" name (brotli has no magic)
**   pipe, device read() into a heap buffer (they cannot be mapped)
** Compressed files are decompressed into a heap buffer, capped by `limit`.
**
** Writing (jj_atomic_*): bytes go to "<dir>/.<name>.tmp-XXXXXX" next to the
** target, then fsync + rename over the target + fsync of the directory.
** Readers of the target see the old file or the new one, never a mix, and
** any failure leaves the old file untouched and removes the temporary file.
** A symbolic link as target is replaced by the new file, not followed.
**
** Ownership: jj_file_close releases what jj_file_open set up.  A jj_atomic
** is freed by jj_atomic_commit or jj_atomic_abort, whichever comes first.
*/
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"

/* ---------------------------------------------------------------------- */
/* Reading                                                                 */
/* ---------------------------------------------------------------------- */

/* Read a file that cannot be mapped (a pipe, a character device) to its
** end into b, which the caller frees.  0, or -1 with errno set. */
static int read_all(int fd, jj_buf *b) {
  for (;;) {
    if (jj_buf_reserve(b, 65536)) {
      errno = ENOMEM;
      return -1;
    }
    ssize_t n = read(fd, b->p + b->len, b->cap - b->len);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return -1;
    if (n == 0) return 0;
    b->len += (size_t)n;
  }
}

/* Decompress raw[0..len) into f->heap_ (f->data points at it).  Errors
** name the file first: `"rows.jj.gz": gzip stream is truncated`. */
static jj_code inflate_into(const char *path, const char *raw, size_t len,
                            jj_compression kind, uint64_t limit, jj_file *f,
                            jj_error *err) {
  jj_error e;
  char *out;
  size_t out_len;
  jj_code code = jj_decompress(kind, raw, len, limit, &out, &out_len, &e);
  if (code) return jj_fail(err, code, NULL, "\"%s\": %s", path, e.message);
  f->heap_ = out;
  f->data = out;
  f->len = out_len;
  f->compression = kind;
  return JJ_OK;
}

/* Fill *f with the document bytes of path (see the file comment for how).
** On error *f is zeroed, so jj_file_close is still safe. */
jj_code jj_file_open(const char *path, uint64_t limit, jj_file *f,
                     jj_error *err) {
  struct stat st;
  jj_code code = JJ_OK;
  memset(f, 0, sizeof *f);
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return jj_fail(err, JJ_ERR_IO, NULL, "cannot open \"%s\": %s", path,
                   strerror(errno));
  if (fstat(fd, &st) != 0) {
    code = jj_fail(err, JJ_ERR_IO, NULL, "cannot read \"%s\": %s", path,
                   strerror(errno));
    goto done;
  }
  if (S_ISDIR(st.st_mode)) {
    code = jj_fail(err, JJ_ERR_IO, NULL, "\"%s\" is a directory", path);
    goto done;
  }
  jj_compression by_name = jj_compression_for_path(path);
  if (!S_ISREG(st.st_mode)) {
    jj_buf b = {0};
    if (read_all(fd, &b)) {
      jj_buf_free(&b);
      code = jj_fail(err, JJ_ERR_IO, NULL, "cannot read \"%s\": %s", path,
                     strerror(errno));
      goto done;
    }
    jj_compression kind = jj_detect_compression(b.p, b.len);
    if (kind == JJ_PLAIN && by_name == JJ_BROTLI) kind = JJ_BROTLI;
    if (kind != JJ_PLAIN) {
      code = inflate_into(path, b.p, b.len, kind, limit, f, err);
      jj_buf_free(&b);
    } else if (b.len) {
      f->heap_ = b.p;
      f->data = b.p;
      f->len = b.len;
    } else {
      jj_buf_free(&b);
    }
    goto done;
  }
  if (st.st_size == 0) goto done; /* "" whatever the name */
  if ((uint64_t)st.st_size > SIZE_MAX) {
    code = jj_fail(err, JJ_ERR_IO, NULL, "\"%s\" is too large to map", path);
    goto done;
  }
  size_t size = (size_t)st.st_size;
  void *map = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
  if (map == MAP_FAILED) {
    code = jj_fail(err, JJ_ERR_IO, NULL, "cannot map \"%s\": %s", path,
                   strerror(errno));
    goto done;
  }
  jj_compression kind = jj_detect_compression(map, size);
  if (kind == JJ_PLAIN && by_name == JJ_BROTLI) kind = JJ_BROTLI;
  if (kind != JJ_PLAIN) {
    code = inflate_into(path, map, size, kind, limit, f, err);
    munmap(map, size);
  } else {
    f->map_ = map;
    f->map_len_ = size;
    f->data = map;
    f->len = size;
  }
done:
  close(fd);
  if (code)
    memset(f, 0, sizeof *f);
  else if (!f->data)
    f->data = ""; /* empty file */
  return code;
}

/* Unmap or free, then zero the struct so a second close is harmless. */
void jj_file_close(jj_file *f) {
  if (!f) return;
  if (f->map_) munmap(f->map_, f->map_len_);
  free(f->heap_);
  memset(f, 0, sizeof *f);
}

/* ---------------------------------------------------------------------- */
/* Atomic writing                                                          */
/* ---------------------------------------------------------------------- */

struct jj_atomic {
  int fd;           /* the temporary file, -1 once closed */
  char *path;       /* the target, owned */
  char *tmp;        /* the temporary file's name, owned */
  char *dir;        /* the target's directory, owned */
  uint64_t written; /* bytes written so far */
  jj_error error;   /* the first write error; code JJ_OK while none */
};

/* Close and remove the temporary file, free everything. */
static void atomic_free(jj_atomic *a, int unlink_tmp) {
  if (a->fd >= 0) close(a->fd);
  if (unlink_tmp && a->tmp) unlink(a->tmp);
  free(a->path);
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

/* Create the temporary file next to path with the target's mode (0644
** for a new file).  The handle is freed by commit or abort. */
jj_atomic *jj_atomic_open(const char *path, jj_error *err) {
  struct stat st;
  const char *slash = strrchr(path, '/');
  const char *name = slash ? slash + 1 : path;
  size_t dir_len = slash ? (size_t)(slash - path) : 0;
  mode_t mode = 0644;
  if (*name == '\0') {
    jj_fail(err, JJ_ERR_IO, NULL, "\"%s\" is not a file name", path);
    return NULL;
  }
  if (stat(path, &st) == 0) {
    if (S_ISDIR(st.st_mode)) {
      jj_fail(err, JJ_ERR_IO, NULL, "\"%s\" is a directory", path);
      return NULL;
    }
    mode = st.st_mode & 07777;
  }
  jj_atomic *a = calloc(1, sizeof *a);
  if (!a) goto nomem;
  a->fd = -1;
  jj_error_clear(&a->error);
  a->path = dup_n(path, strlen(path));
  /* "/x" lives in "/", "x" in "." */
  a->dir = slash ? dup_n(dir_len ? path : "/", dir_len ? dir_len : 1)
                 : dup_n(".", 1);
  size_t tmp_cap = dir_len + strlen(name) + 16;
  a->tmp = malloc(tmp_cap);
  if (!a->path || !a->dir || !a->tmp) {
    atomic_free(a, 0);
    goto nomem;
  }
  memcpy(a->tmp, path, dir_len + (slash ? 1 : 0));
  strcpy(a->tmp + dir_len + (slash ? 1 : 0), ".");
  strcat(a->tmp, name);
  strcat(a->tmp, ".tmp-XXXXXX");
  a->fd = mkstemp(a->tmp);
  if (a->fd < 0) {
    int e = errno;
    free(a->tmp);
    a->tmp = NULL;
    atomic_free(a, 0);
    jj_fail(err, JJ_ERR_IO, NULL,
            "cannot create a temporary file for \"%s\": %s", path, strerror(e));
    return NULL;
  }
  if (fcntl(a->fd, F_SETFD, FD_CLOEXEC) != 0 || fchmod(a->fd, mode) != 0) {
    int e = errno;
    atomic_free(a, 1);
    jj_fail(err, JJ_ERR_IO, NULL, "cannot write \"%s\": %s", path, strerror(e));
    return NULL;
  }
  return a;
nomem:
  jj_fail(err, JJ_ERR_NOMEM, NULL, "out of memory");
  return NULL;
}

/* jj_sink-compatible: write everything, retrying short writes and EINTR.
** The first error is kept for jj_atomic_commit to report. */
int jj_atomic_sink(void *atomic, const char *p, size_t len) {
  jj_atomic *a = atomic;
  if (a->error.code) return -1;
  while (len > 0) {
    ssize_t n = write(a->fd, p, len > (1u << 30) ? (1u << 30) : len);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      jj_fail(&a->error, JJ_ERR_IO, NULL, "cannot write \"%s\": %s", a->path,
              n < 0 ? strerror(errno) : "no progress");
      return -1;
    }
    p += n;
    len -= (size_t)n;
    a->written += (uint64_t)n;
  }
  return 0;
}

/* Make the new file durable, then put it in place.  The directory fsync
** after the rename is best effort: the file is already in place then, and
** some file systems refuse fsync on directories. */
jj_code jj_atomic_commit(jj_atomic *a, jj_error *err) {
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
  if (!bad) {
    what = "rename to";
    bad = rename(a->tmp, a->path) != 0;
  }
  if (bad) {
    code = jj_fail(err, JJ_ERR_IO, NULL, "cannot %s \"%s\": %s", what, a->path,
                   strerror(errno));
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
** (old file untouched, no temporary file left). */
jj_code jj_file_write(const char *path, const char *data, size_t len,
                      jj_compression kind, int level, uint64_t *written,
                      jj_error *err) {
  jj_error e;
  jj_deflater *z = NULL;
  if (written) *written = 0;
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
  jj_code code = jj_atomic_commit(a, err);
  if (!code && written) *written = n;
  return code;
fail:
  jj_deflate_free(z);
  jj_atomic_abort(a);
  if (err) *err = e;
  return e.code;
}
