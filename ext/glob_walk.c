/*
** glob_walk.c — expand a glob pattern into the regular files it names,
** within bounds, by walking the directories it names one component at a
** time.
**
** Not glob(3): glob builds its whole list before returning and cannot be
** stopped, so a pattern written in a database file someone gives you
** (every process's root under /proc, or a chain of wildcard components
** over a symbolic link to its own directory) would read directories and
** grow the list without bound while SQLite merely reads the schema.  Here every directory
** opened, every name matched and every byte of names kept is counted as
** it happens, and the walk stops at the first bound passed with an error
** naming where; the interrupt is polled and the progress handler ticked
** along the way (settings.c).
**
** The same matches as glob(3) with its default flags: the pattern is
** split at '/', a component without an unescaped * ? [ is a name (its
** backslashes removed), any other is matched against each directory entry
** by fnmatch(3) with FNM_PERIOD (a leading '.' is matched only by a '.').
** A pattern ending in '/' names directories, so no file.  Directories
** that cannot be opened are skipped, as glob(3) skips them.  Two
** differences, both for hostile trees: a directory reached through a
** wildcard that is also a directory above it on the same path (a
** symbolic link loop) is not entered again, and a directory on /proc,
** /sys, /dev or another pseudo file system is refused with an error, as
** a single /proc or /sys file is by the core.
**
** Each directory is opened with open(O_DIRECTORY | O_NONBLOCK) by its
** full path, checked with fstat and fstatfs, read to the end and closed
** before any below it is opened, so one descriptor at a time is open.
*/
#define _DEFAULT_SOURCE /* fdopendir, dirfd, d_type under -std=c11 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/vfs.h>
#endif

#include "ext.h"

/* Longer patterns name no file (PATH_MAX on Linux).  The walk recurses
** once per component (a few hundred bytes of stack each), so their number
** is bounded too, far below what a thread's stack holds. */
#define PATTERN_MAX 4096
#define COMPONENTS_MAX 256
/* The progress handler is ticked one step for every directory opened
** after the first and every NAMES_PER_TICK names read. */
#define NAMES_PER_TICK 1024

/* f_type of the file systems a glob never reads: those core/file.c refuses
** for a single file (procfs, sysfs and what is mounted under /sys), and
** the ones mounted under /dev. */
#ifdef __linux__
static const unsigned long pseudo_fs[] = {
    0x9fa0,     /* PROC_SUPER_MAGIC */
    0x62656572, /* SYSFS_MAGIC */
    0x27e0eb,   /* CGROUP_SUPER_MAGIC */
    0x63677270, /* CGROUP2_SUPER_MAGIC */
    0x64626720, /* DEBUGFS_MAGIC */
    0x74726163, /* TRACEFS_MAGIC */
    0x73636673, /* SECURITYFS_MAGIC */
    0x62656570, /* CONFIGFS_MAGIC */
    0xcafe4a11, /* BPF_FS_MAGIC */
    0x6165676c, /* PSTOREFS_MAGIC */
    0xde5e81e4, /* EFIVARFS_MAGIC */
    0x42494e4d, /* BINFMTFS_MAGIC */
    0x1cd1,     /* DEVPTS_SUPER_MAGIC */
    0x19800202, /* MQUEUE_MAGIC */
};
#endif

typedef struct walk {
  const char *pattern;     /* as given, for messages */
  char **comp;             /* the components (sqlite3_malloc'd copies) */
  int *wild;               /* per component: 1 pattern, 0 a name */
  int ncomp;
  jjx_files *f;            /* names kept go here */
  int cap;                 /* entries allocated in f->name */
  jjx_glob_limits lim;
  int64_t matched, dirs, bytes, names_read;
  jjx_poll *poll;          /* NULL: no polling */
  struct stat dev_dir;     /* /dev, to refuse a directory under it */
  int have_dev;            /* dev_dir is set and /dev is a mount of its own */
  dev_t *on_dev;           /* the directories on the current path */
  ino_t *on_ino;
  char *msg;               /* the error, once there is one */
  int rc;
} walk;

static int stop(walk *w, int rc, char *msg) {
  w->rc = msg || rc == SQLITE_NOMEM ? rc : SQLITE_NOMEM;
  w->msg = msg;
  return w->rc;
}

/* Count one tick's worth of work: SQLITE_OK, or SQLITE_INTERRUPT. */
static int tick(walk *w) {
  if (w->poll && jjx_poll_tick(w->poll, 1))
    return stop(w, SQLITE_INTERRUPT, sqlite3_mprintf("interrupted"));
  return SQLITE_OK;
}

/* 1 when the directory open as fd (with fstat `st`) is on a file system a
** glob does not read. */
static int refused_dir(const walk *w, int fd, const struct stat *st) {
  if (w->have_dev && st->st_dev == w->dev_dir.st_dev) return 1;
  if (st->st_dev == w->dev_dir.st_dev && st->st_ino == w->dev_dir.st_ino)
    return 1;
#ifdef __linux__
  struct statfs sf;
  if (fstatfs(fd, &sf) == 0)
    for (size_t i = 0; i < sizeof pseudo_fs / sizeof *pseudo_fs; i++)
      if ((unsigned long)sf.f_type == pseudo_fs[i]) return 1;
#else
  (void)fd;
#endif
  return 0;
}

/* Keep path as a match when it is a regular file. */
static int keep(walk *w, const char *path, size_t len) {
  struct stat st;
  if (++w->matched > w->lim.files)
    return stop(w, SQLITE_ERROR,
                sqlite3_mprintf("%s: matches more than %lld names (the "
                                "last one %s)",
                                w->pattern, (long long)w->lim.files, path));
  w->bytes += (int64_t)len + 1;
  if (w->bytes > w->lim.bytes)
    return stop(w, SQLITE_ERROR,
                sqlite3_mprintf("%s: the names it matches add up to more "
                                "than %lld bytes (at %s)",
                                w->pattern, (long long)w->lim.bytes, path));
  if (stat(path, &st) != 0 || !S_ISREG(st.st_mode)) return SQLITE_OK;
  if (w->f->n == w->cap) {
    int cap = w->cap ? w->cap * 2 : 16;
    char **p = sqlite3_realloc64(w->f->name, (uint64_t)cap * sizeof *p);
    if (!p) return stop(w, SQLITE_NOMEM, NULL);
    w->f->name = p;
    w->cap = cap;
  }
  char *copy = sqlite3_malloc64(len + 1);
  if (!copy) return stop(w, SQLITE_NOMEM, NULL);
  memcpy(copy, path, len + 1);
  w->f->name[w->f->n++] = copy;
  return SQLITE_OK;
}

/* Open the directory `path` ("" is "."): a descriptor, or -1 when it is
** no directory that can be read (skipped), or -2 with w->rc set. */
static int open_dir(walk *w, const char *path, int depth, int check_loop) {
  if (++w->dirs > w->lim.dirs) {
    stop(w, SQLITE_ERROR,
         sqlite3_mprintf("%s: names more than %lld directories to read "
                         "(stopped at %s)",
                         w->pattern, (long long)w->lim.dirs,
                         *path ? path : "."));
    return -2;
  }
  if (w->dirs > 1 && tick(w) != SQLITE_OK) return -2;
  int fd = open(*path ? path : ".",
                O_RDONLY | O_DIRECTORY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return -1;
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISDIR(st.st_mode)) {
    close(fd);
    return -1;
  }
  if (refused_dir(w, fd, &st)) {
    close(fd);
    stop(w, SQLITE_ERROR,
         sqlite3_mprintf("%s: %s is a /proc, /sys or /dev directory, which "
                         "a glob does not read",
                         w->pattern, *path ? path : "."));
    return -2;
  }
  for (int i = 0; check_loop && i < depth; i++)
    if (w->on_dev[i] == st.st_dev && w->on_ino[i] == st.st_ino) {
      close(fd); /* a link back up: its names were or will be seen */
      return -1;
    }
  w->on_dev[depth] = st.st_dev;
  w->on_ino[depth] = st.st_ino;
  return fd;
}

/* The names in directory fd that component `pat` matches, each followed
** by a NUL, in *out (count *n). */
static int read_matches(walk *w, int fd, const char *pat, const char *path,
                        jjx_buf *out, int *n) {
  DIR *d = fdopendir(fd);
  if (!d) {
    close(fd);
    return SQLITE_OK;
  }
  struct dirent *e;
  *n = 0;
  while ((e = readdir(d)) != NULL) {
    if (++w->names_read % NAMES_PER_TICK == 0 && tick(w) != SQLITE_OK) break;
    if (fnmatch(pat, e->d_name, FNM_PERIOD) != 0) continue;
    size_t len = strlen(e->d_name);
    w->bytes += (int64_t)len + 1;
    if (w->bytes > w->lim.bytes) {
      stop(w, SQLITE_ERROR,
           sqlite3_mprintf("%s: the names it matches add up to more than "
                           "%lld bytes (in %s)",
                           w->pattern, (long long)w->lim.bytes,
                           *path ? path : "."));
      break;
    }
    if (jjx_buf_append(out, e->d_name, len + 1) != 0) {
      stop(w, SQLITE_NOMEM, NULL);
      break;
    }
    (*n)++;
  }
  closedir(d);
  return w->rc;
}

/* path (a directory, its text in pb) + "/" + name, or name alone when
** path is empty; the new length in *len. */
static int append(walk *w, jjx_buf *pb, size_t at, const char *name,
                  size_t *len) {
  pb->len = at;
  if (at && pb->p[at - 1] != '/' && jjx_buf_append(pb, "/", 1) != 0)
    return stop(w, SQLITE_NOMEM, NULL);
  if (jjx_buf_append(pb, name, strlen(name) + 1) != 0)
    return stop(w, SQLITE_NOMEM, NULL);
  *len = pb->len - 1;
  return SQLITE_OK;
}

/* Match components i.. below the directory whose path is pb->p[0..at)
** (NUL-terminated there).  depth: directories on the path above. */
static int descend(walk *w, jjx_buf *pb, size_t at, int i, int depth,
                   int check_loop) {
  int fd = open_dir(w, pb->p, depth, check_loop);
  if (fd == -2) return w->rc;
  if (fd < 0) return SQLITE_OK;
  size_t len;
  if (!w->wild[i]) { /* a name: no need to read the directory */
    close(fd);
    if (append(w, pb, at, w->comp[i], &len) != SQLITE_OK) return w->rc;
    if (i + 1 == w->ncomp) return keep(w, pb->p, len);
    return descend(w, pb, len, i + 1, depth + 1, 0);
  }
  jjx_buf names;
  int n = 0;
  memset(&names, 0, sizeof names);
  if (read_matches(w, fd, w->comp[i], pb->p, &names, &n) == SQLITE_OK) {
    const char *name = names.p;
    for (int k = 0; k < n && w->rc == SQLITE_OK; k++) {
      size_t nlen = strlen(name);
      /* "." and ".." (matched by a component such as ".*") go where they
      ** say, as in glob(3): only as deep as the pattern is long */
      int dots = strcmp(name, ".") == 0 || strcmp(name, "..") == 0;
      if (append(w, pb, at, name, &len) != SQLITE_OK) break;
      if (i + 1 == w->ncomp)
        keep(w, pb->p, len);
      else
        descend(w, pb, len, i + 1, depth + 1, !dots);
      name += nlen + 1;
    }
  }
  jjx_buf_free(&names);
  return w->rc;
}

/* Split w->pattern at '/' into components; *absolute when it starts with
** '/'.  A pattern ending in '/' gets ncomp 0 (it names no file). */
static int split(walk *w, int *absolute) {
  const char *p = w->pattern;
  *absolute = *p == '/';
  size_t n = strlen(p);
  if (n == 0 || p[n - 1] == '/') return SQLITE_OK;
  int most = 1;
  for (size_t k = 0; k < n; k++) most += p[k] == '/';
  if (most > COMPONENTS_MAX) {
    w->msg = sqlite3_mprintf("%.64s...: a pattern of more than %d "
                             "components names no file this reads",
                             p, COMPONENTS_MAX);
    return w->msg ? SQLITE_ERROR : SQLITE_NOMEM;
  }
  w->comp = sqlite3_malloc64((uint64_t)most * sizeof *w->comp);
  w->wild = sqlite3_malloc64((uint64_t)most * sizeof *w->wild);
  w->on_dev = sqlite3_malloc64((uint64_t)(most + 1) * sizeof *w->on_dev);
  w->on_ino = sqlite3_malloc64((uint64_t)(most + 1) * sizeof *w->on_ino);
  if (!w->comp || !w->wild || !w->on_dev || !w->on_ino) return SQLITE_NOMEM;
  while (*p) {
    const char *end = strchr(p, '/');
    size_t len = end ? (size_t)(end - p) : strlen(p);
    if (len) { /* "a//b" is "a/b" */
      char *c = sqlite3_mprintf("%.*s", (int)len, p);
      if (!c) return SQLITE_NOMEM;
      int kind = jjx_glob_kind(c);
      w->wild[w->ncomp] = kind == JJX_GLOB_PATTERN;
      if (kind == JJX_GLOB_ESCAPED) {
        char *u = jjx_glob_unescape(c);
        sqlite3_free(c);
        if (!u) return SQLITE_NOMEM;
        c = u;
      }
      w->comp[w->ncomp++] = c;
    }
    p = end ? end + 1 : p + len;
  }
  return SQLITE_OK;
}

static int by_name(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

int jjx_files_expand(jjx_files *f, const char *pattern,
                     const jjx_glob_limits *lim, jjx_poll *poll,
                     char **pzErr) {
  walk w;
  int absolute = 0;
  memset(&w, 0, sizeof w);
  for (int i = 0; i < f->n; i++) sqlite3_free(f->name[i]);
  sqlite3_free(f->name);
  f->name = NULL;
  f->n = f->next = 0;
  w.pattern = pattern;
  w.f = f;
  w.poll = poll;
  jjx_glob_limits_default(&w.lim);
  if (lim) jjx_glob_limits_lower(&w.lim, lim);
  if (strlen(pattern) > PATTERN_MAX) {
    *pzErr = sqlite3_mprintf("%.64s...: a pattern of more than %d bytes "
                             "names no file", pattern, PATTERN_MAX);
    return *pzErr ? SQLITE_ERROR : SQLITE_NOMEM;
  }
  int rc = split(&w, &absolute);
  if (rc == SQLITE_OK && w.ncomp > 0) {
    struct stat root;
    if (stat("/dev", &w.dev_dir) == 0)
      w.have_dev = stat("/", &root) == 0 && root.st_dev != w.dev_dir.st_dev;
    else
      memset(&w.dev_dir, 0xff, sizeof w.dev_dir); /* matches no directory */
    jjx_buf pb;
    memset(&pb, 0, sizeof pb);
    if (jjx_buf_append(&pb, absolute ? "/" : "", absolute ? 2 : 1) != 0)
      rc = SQLITE_NOMEM;
    else
      rc = descend(&w, &pb, absolute ? 1 : 0, 0, 0, 0);
    jjx_buf_free(&pb);
  }
  for (int i = 0; i < w.ncomp; i++) sqlite3_free(w.comp[i]);
  sqlite3_free(w.comp);
  sqlite3_free(w.wild);
  sqlite3_free(w.on_dev);
  sqlite3_free(w.on_ino);
  if (rc != SQLITE_OK) {
    for (int i = 0; i < f->n; i++) sqlite3_free(f->name[i]);
    sqlite3_free(f->name);
    f->name = NULL;
    f->n = 0;
    *pzErr = w.msg;
    return rc;
  }
  if (f->n > 1) qsort(f->name, (size_t)f->n, sizeof *f->name, by_name);
  return SQLITE_OK;
}
