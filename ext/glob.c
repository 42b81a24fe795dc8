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
** Expansion (glob_walk.c) matches as glob(3) does, within bounds; the
** names are sorted bytewise (strcmp), not by the locale's collation, so
** "name order" is the same everywhere.  Only regular files are kept (stat,
** which never blocks): directories, FIFOs, devices and sockets that match
** are skipped.
*/
#include <string.h>

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

void jjx_glob_limits_default(jjx_glob_limits *l) {
  l->files = JJX_GLOB_MAX_FILES;
  l->dirs = JJX_GLOB_MAX_DIRS;
  l->bytes = JJX_GLOB_MAX_BYTES;
}

void jjx_glob_limits_lower(jjx_glob_limits *l, const jjx_glob_limits *by) {
  if (by->files > 0 && by->files < l->files) l->files = by->files;
  if (by->dirs > 0 && by->dirs < l->dirs) l->dirs = by->dirs;
  if (by->bytes > 0 && by->bytes < l->bytes) l->bytes = by->bytes;
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
