/*
** files.c — read_jj's path to the files it names, and a file's header read
** without its rows.
**
** A path with an unescaped *, ? or [ is a glob(3) pattern, as in the
** SQLite extension: the regular files it matches (directories, FIFOs,
** devices and sockets are left out, unopened), sorted bytewise (strcmp,
** never the locale's collation), at most JJD_MAX_FILES.  A path without one
** is one file, its name as written; a name whose glob characters are all
** escaped is one file too, its backslashes removed as glob(3) does.
**
** A header is read from a prefix of the file (JJD_HEADER_FIRST bytes,
** doubled while the header is cut short, at most JJD_HEADER_LIMIT), so
** binding a query over a large or compressed file reads a few KiB of it.
*/
#define _POSIX_C_SOURCE 200809L
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "jjduck.h"

/* 1 when p has a *, ? or [ not escaped with a backslash. */
static int has_glob(const char *p) {
  for (; *p; p++) {
    if (*p == '\\' && p[1]) {
      p++;
      continue;
    }
    if (*p == '*' || *p == '?' || *p == '[') return 1;
  }
  return 0;
}

static int by_name(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* p with its backslash escapes removed, for a name that escapes its glob
** characters (a name without any is used exactly as written). */
static char *unescape(const char *p) {
  char *out = malloc(strlen(p) + 1), *q = out;
  if (!out) return NULL;
  for (; *p; p++) {
    if (*p == '\\' && p[1]) p++;
    *q++ = *p;
  }
  *q = '\0';
  return out;
}

static int escapes_glob(const char *p) {
  for (; *p; p++)
    if (*p == '\\' && (p[1] == '*' || p[1] == '?' || p[1] == '[')) return 1;
  return 0;
}

int jjd_files_expand(jjd_files *f, const char *path, char *msg, size_t cap) {
  memset(f, 0, sizeof *f);
  if (!has_glob(path)) {
    f->name = malloc(sizeof *f->name);
    if (f->name) f->name[0] = escapes_glob(path) ? unescape(path) : strdup(path);
    if (!f->name || !f->name[0]) {
      free(f->name);
      f->name = NULL;
      snprintf(msg, cap, "out of memory");
      return -1;
    }
    f->n = 1;
    return 0;
  }
  glob_t g;
  memset(&g, 0, sizeof g);
  int rc = glob(path, GLOB_NOSORT, NULL, &g);
  if (rc != 0 && rc != GLOB_NOMATCH) {
    globfree(&g);
    snprintf(msg, cap, "%s: %s", path,
             rc == GLOB_NOSPACE ? "out of memory" : "cannot read a directory");
    return -1;
  }
  if (g.gl_pathc > JJD_MAX_FILES) {
    snprintf(msg, cap, "%s: matches more than %d files", path, JJD_MAX_FILES);
    globfree(&g);
    return -1;
  }
  f->name = calloc(g.gl_pathc ? g.gl_pathc : 1, sizeof *f->name);
  if (!f->name) {
    globfree(&g);
    snprintf(msg, cap, "out of memory");
    return -1;
  }
  for (size_t i = 0; i < g.gl_pathc; i++) {
    struct stat st;
    if (stat(g.gl_pathv[i], &st) != 0 || !S_ISREG(st.st_mode)) continue;
    if (!(f->name[f->n] = strdup(g.gl_pathv[i]))) {
      globfree(&g);
      jjd_files_free(f);
      snprintf(msg, cap, "out of memory");
      return -1;
    }
    f->n++;
  }
  globfree(&g);
  qsort(f->name, f->n, sizeof *f->name, by_name);
  if (f->n == 0) {
    snprintf(msg, cap, "%s: no file matches (escape * ? [ with \\ to name a "
             "file that has them)", path);
    jjd_files_free(f);
    return -1;
  }
  return 0;
}

void jjd_files_free(jjd_files *f) {
  for (size_t i = 0; i < f->n; i++) free(f->name[i]);
  free(f->name);
  memset(f, 0, sizeof *f);
}

/* 1 when a failed parse of a prefix of len bytes failed for a reason more
** bytes cannot change: an error well before the prefix's end that is not
** a string running past it (an unterminated string is reported where it
** starts). */
static int real_error(const jj_error *err, size_t len) {
  return err->offset != JJ_NO_OFFSET && err->offset + 64 <= len &&
         !strstr(err->message, "unterminated");
}

jj_schema *jjd_read_header(const char *path, int64_t *count, uint64_t *size,
                           char *msg, size_t cap) {
  size_t want = JJD_HEADER_FIRST;
  for (;;) {
    jj_file f;
    jj_error err;
    jj_file_opts o;
    memset(&o, 0, sizeof o);
    o.prefix = want;
    if (jj_file_open_opts(path, &o, &f, &err) != JJ_OK) {
      snprintf(msg, cap, "%s", err.message);
      return NULL;
    }
    jj_doc *doc = jj_parse(f.data, f.len, &err);
    int complete = f.complete;
    size_t len = f.len;
    jj_schema *s = NULL;
    if (doc) {
      s = jj_schema_copy(jj_doc_schema(doc));
      *count = jj_doc_declared_count(doc);
      jj_doc_free(doc);
    }
    jj_file_close(&f);
    if (doc) {
      struct stat st;
      *size = stat(path, &st) == 0 && st.st_size > 0 ? (uint64_t)st.st_size : 0;
      if (!s) snprintf(msg, cap, "out of memory");
      return s;
    }
    if (err.code == JJ_ERR_NOMEM || complete || real_error(&err, len)) {
      snprintf(msg, cap, "%s: %s", path, err.message);
      return NULL;
    }
    if (want >= JJD_HEADER_LIMIT) {
      snprintf(msg, cap, "%s: the header is larger than %zu bytes", path,
               JJD_HEADER_LIMIT);
      return NULL;
    }
    want *= 2;
  }
}
