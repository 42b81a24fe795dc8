/*
** glob.c — a SOURCE file name with glob characters: which files it names,
** in which order, and which of them a scan's filename constraints keep.
**
**   jj_open('day-*.jj.gz')       every matching regular file, in name order
**   jj_open('2024-0[1-3]-?.jj')  glob(3) syntax: * ? [...]
**   jj_open('odd\*name.jj')      a backslash escapes: the file "odd*name.jj"
**
** A name is a pattern when it has a '*', '?' or '[' that no backslash
** escapes.  A name whose only glob characters are escaped is one file: the
** backslashes before characters are removed, as glob(3) would.  A name
** without any of the three is used as it is (backslashes included), exactly
** as before globs existed.
**
** Expansion is glob(3) without its sorting (which follows the locale's
** collation); the names are sorted here bytewise (strcmp), so "name order"
** is the same everywhere.  Only regular files are kept (stat, which never
** blocks): directories, FIFOs, devices and sockets that match are skipped.
** At most JJX_GLOB_MAX_FILES names.
*/
#define _DEFAULT_SOURCE /* glob(3) under -std=c11 */
#include <glob.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ext.h"

int jjx_glob_kind(const char *p) {
  int escaped = 0;
  for (; *p; p++) {
    if (*p == '\\' && p[1]) {
      p++;
      if (*p == '*' || *p == '?' || *p == '[') escaped = 1;
      continue;
    }
    if (*p == '*' || *p == '?' || *p == '[') return JJX_GLOB_PATTERN;
  }
  return escaped ? JJX_GLOB_ESCAPED : JJX_GLOB_NONE;
}

char *jjx_glob_unescape(const char *p) {
  char *out = sqlite3_malloc64(strlen(p) + 1);
  size_t o = 0;
  if (!out) return NULL;
  for (; *p; p++) {
    if (*p == '\\' && p[1]) p++;
    out[o++] = *p;
  }
  out[o] = '\0';
  return out;
}

int jjx_value_is_glob(sqlite3_value *v) {
  if (sqlite3_value_type(v) != SQLITE_TEXT) return 0;
  const char *p = (const char *)sqlite3_value_text(v);
  if (!p) return 0;
  size_t i = 0;
  while (p[i] == ' ' || p[i] == '\t' || p[i] == '\n' || p[i] == '\r') i++;
  if (p[i] == '{') return 0; /* a document */
  return jjx_glob_kind(p) == JJX_GLOB_PATTERN;
}

static int by_name(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

void jjx_files_free(jjx_files *f) {
  for (int i = 0; i < f->n; i++) sqlite3_free(f->name[i]);
  sqlite3_free(f->name);
  sqlite3_free(f->eq);
  sqlite3_free(f->like);
  sqlite3_free(f->glob);
  jj_schema_free(f->shape);
  sqlite3_free(f->shape_from);
  memset(f, 0, sizeof *f);
}

int jjx_files_expand(jjx_files *f, const char *pattern, char **pzErr) {
  glob_t g;
  memset(&g, 0, sizeof g);
  for (int i = 0; i < f->n; i++) sqlite3_free(f->name[i]);
  sqlite3_free(f->name);
  f->name = NULL;
  f->n = f->next = 0;
  int r = glob(pattern, GLOB_NOSORT, NULL, &g);
  if (r == GLOB_NOMATCH) {
    globfree(&g);
    return SQLITE_OK;
  }
  if (r == GLOB_NOSPACE) {
    globfree(&g);
    return SQLITE_NOMEM;
  }
  if (r != 0) {
    globfree(&g);
    *pzErr = sqlite3_mprintf("%s: cannot read the directories it names",
                             pattern);
    return *pzErr ? SQLITE_ERROR : SQLITE_NOMEM;
  }
  if (g.gl_pathc > JJX_GLOB_MAX_FILES) {
    *pzErr = sqlite3_mprintf("%s: matches %lld names, more than %d", pattern,
                             (long long)g.gl_pathc, JJX_GLOB_MAX_FILES);
    globfree(&g);
    return *pzErr ? SQLITE_ERROR : SQLITE_NOMEM;
  }
  f->name = sqlite3_malloc64((g.gl_pathc ? g.gl_pathc : 1) * sizeof *f->name);
  int rc = f->name ? SQLITE_OK : SQLITE_NOMEM;
  for (size_t i = 0; rc == SQLITE_OK && i < g.gl_pathc; i++) {
    struct stat st;
    if (stat(g.gl_pathv[i], &st) != 0 || !S_ISREG(st.st_mode)) continue;
    f->name[f->n] = sqlite3_mprintf("%s", g.gl_pathv[i]);
    if (!f->name[f->n]) rc = SQLITE_NOMEM;
    else f->n++;
  }
  globfree(&g);
  if (rc == SQLITE_OK && f->n > 1)
    qsort(f->name, (size_t)f->n, sizeof *f->name, by_name);
  return rc;
}

/* A copy of a constraint's text into *slot; NULL never matches. */
static int set_filter(jjx_files *f, char **slot, sqlite3_value *v) {
  const char *p = (const char *)sqlite3_value_text(v);
  if (!p) {
    if (sqlite3_value_type(v) != SQLITE_NULL) return SQLITE_NOMEM;
    f->never = 1;
    return SQLITE_OK;
  }
  sqlite3_free(*slot);
  *slot = sqlite3_mprintf("%s", p);
  f->filtered = 1;
  return *slot ? SQLITE_OK : SQLITE_NOMEM;
}

int jjx_files_filter(jjx_files *f, int op, sqlite3_value *v) {
  switch (op) {
    case SQLITE_INDEX_CONSTRAINT_EQ:
      return set_filter(f, &f->eq, v);
    case SQLITE_INDEX_CONSTRAINT_LIKE:
      return set_filter(f, &f->like, v);
    default:
      return set_filter(f, &f->glob, v);
  }
}

/* LIKE as SQLite's own (ASCII case folded; PRAGMA case_sensitive_like only
** makes SQLite's check, which still runs, stricter), GLOB as SQLite's. */
int jjx_files_pass(const jjx_files *f, const char *name) {
  if (f->never) return 0;
  if (!f->filtered) return 1;
  if (!name) return 0; /* not a file: filename is NULL */
  if (f->eq && strcmp(f->eq, name) != 0) return 0;
  if (f->like && sqlite3_strlike(f->like, name, 0) != 0) return 0;
  if (f->glob && sqlite3_strglob(f->glob, name) != 0) return 0;
  return 1;
}

const char *jjx_files_next(jjx_files *f) {
  while (f->next < f->n) {
    const char *name = f->name[f->next++];
    if (jjx_files_pass(f, name)) return name;
  }
  return NULL;
}

/* Append the way to read files of other columns to a shape message. */
static char *with_hint(char *msg, int typed) {
  if (!msg) return NULL;
  return sqlite3_mprintf(
      "%z (%s)", msg,
      typed ? "a table created with union_by_name=1 reads files of other "
              "columns"
            : "jj_open(SOURCE, 'union_by_name=1') reads files of other "
              "columns");
}

int jjx_files_check(jjx_files *f, const char *label, const jj_schema *want,
                    const jj_schema *got, char **pzErr) {
  if (want) {
    if (jj_schema_equal(want, got, NULL)) return SQLITE_OK;
    *pzErr = with_hint(jjx_shape_error(label, "", want, got), 1);
    return *pzErr ? SQLITE_ERROR : SQLITE_NOMEM;
  }
  if (!f->shape) { /* the first file read sets the columns */
    f->shape = jj_schema_copy(got);
    f->shape_from = sqlite3_mprintf("%s", label);
    return f->shape && f->shape_from ? SQLITE_OK : SQLITE_NOMEM;
  }
  if (jj_schema_equal(f->shape, got, NULL)) return SQLITE_OK;
  char *what = sqlite3_mprintf("not the columns of %s: ", f->shape_from);
  if (!what) return SQLITE_NOMEM;
  *pzErr = with_hint(jjx_shape_error(label, what, f->shape, got), 0);
  sqlite3_free(what);
  return *pzErr ? SQLITE_ERROR : SQLITE_NOMEM;
}
