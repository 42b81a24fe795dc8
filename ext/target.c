/*
** target.c — what jj_write and jj_export may not write to: a database
** file of their own connection.
**
**   SELECT jj_write('data.db', jj_group('a', 1));
**   -> jj_write: "data.db" is the database file "main" of this
**      connection; refusing to replace it
**
** Writing replaces the target by rename (core/atomic.c): the connection
** keeps its descriptor of the old inode, so every later write of the
** connection goes to a file no name reaches any more and is lost, and the
** name now holds a document.  A -wal, -shm or -journal file replaced under
** the connection is worse: the database is corrupt.  SQLite's VACUUM INTO
** refuses an existing file for the same reason.
**
** Every database of the connection (main, temp, attached: PRAGMA
** database_list, sqlite3_db_filename) with a file name is compared, with
** its -wal, -shm and -journal names, to the target: by device and inode
** where both exist (the target followed through symbolic links, as the
** write follows them; another hard link of a database is refused too), and
** by canonical path (realpath of the file, or of its directory when the
** file does not exist yet), so that a -wal or -journal not there right now
** is not created under the connection either.  A database without a file
** (":memory:", an anonymous temp database) has nothing to compare.
*/
#define _DEFAULT_SOURCE /* realpath */

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ext.h"

/* The names beside a database file that belong to it. */
static const char *const suffixes[] = {"", "-wal", "-shm", "-journal"};

/* The canonical path of p (malloc), also when its last name does not
** exist yet: its directory's canonical path and that name.  NULL when it
** cannot be told (then only the device and inode compare). */
static char *canonical(const char *p) {
  char *r = realpath(p, NULL);
  if (r || errno != ENOENT) return r;
  const char *slash = strrchr(p, '/');
  const char *name = slash ? slash + 1 : p;
  if (!*name || strcmp(name, ".") == 0 || strcmp(name, "..") == 0) return NULL;
  char *dir;
  if (!slash) {
    dir = realpath(".", NULL);
  } else {
    size_t n = slash == p ? 1 : (size_t)(slash - p);
    char *d = malloc(n + 1);
    if (!d) return NULL;
    memcpy(d, p, n);
    d[n] = '\0';
    dir = realpath(d, NULL);
    free(d);
  }
  if (!dir) return NULL;
  size_t dn = strlen(dir), nn = strlen(name);
  char *out = malloc(dn + 1 + nn + 1);
  if (out) {
    memcpy(out, dir, dn);
    size_t at = dn;
    if (at == 0 || dir[at - 1] != '/') out[at++] = '/';
    memcpy(out + at, name, nn + 1);
  }
  free(dir);
  return out;
}

/* The path for a message: in double quotes, control bytes as \xNN, cut
** after 256 bytes (it may come from a table). */
static void show_path(sqlite3_str *m, const char *p) {
  size_t n = strlen(p);
  sqlite3_str_appendchar(m, 1, '"');
  for (size_t i = 0; i < n && i < 256; i++) {
    unsigned char c = (unsigned char)p[i];
    if (c < 0x20 || c == 0x7f || c == '"' || c == '\\')
      sqlite3_str_appendf(m, "\\x%02x", c);
    else
      sqlite3_str_appendchar(m, 1, (char)c);
  }
  sqlite3_str_appendall(m, n > 256 ? "...\"" : "\"");
}

/* 1 when `path` (stat'ed as *t when has_t; canonically `canon`, may be
** NULL) is `file` + suffixes[k]. */
static int same_file(const char *file, int k, int has_t, const struct stat *t,
                     const char *canon) {
  struct stat s;
  char *f = sqlite3_mprintf("%s%s", file, suffixes[k]);
  int same = 0;
  if (!f) return -1;
  if (has_t && stat(f, &s) == 0 && s.st_dev == t->st_dev &&
      s.st_ino == t->st_ino)
    same = 1;
  if (!same && canon) {
    char *c = canonical(f);
    same = c && strcmp(c, canon) == 0;
    free(c);
  }
  sqlite3_free(f);
  return same;
}

int jjx_refuse_db_target(sqlite3_context *ctx, const char *fn,
                         const char *path) {
  sqlite3 *db = sqlite3_context_db_handle(ctx);
  sqlite3_stmt *st = NULL;
  struct stat t;
  int has_t = stat(path, &t) == 0;
  char *canon = canonical(path);
  int refused = 0, rc;
  rc = sqlite3_prepare_v2(db, "PRAGMA database_list", -1, &st, NULL);
  if (rc != SQLITE_OK) {
    free(canon);
    sqlite3_finalize(st);
    if (rc == SQLITE_NOMEM)
      sqlite3_result_error_nomem(ctx);
    else
      jjx_ctx_err(ctx, "%s: cannot list the connection's databases to "
                       "check the target: %s",
                  fn, sqlite3_errmsg(db));
    return 1;
  }
  while (!refused && (rc = sqlite3_step(st)) == SQLITE_ROW) {
    const char *schema = (const char *)sqlite3_column_text(st, 1);
    const char *file = schema ? sqlite3_db_filename(db, schema) : NULL;
    if (!file || !*file) continue;
    for (int k = 0; k < 4 && !refused; k++) {
      int same = same_file(file, k, has_t, &t, canon);
      if (same < 0) {
        sqlite3_result_error_nomem(ctx);
        refused = 1;
      } else if (same) {
        sqlite3_str *m = sqlite3_str_new(db);
        sqlite3_str_appendf(m, "%s: ", fn);
        show_path(m, path);
        if (k == 0)
          sqlite3_str_appendf(m, " is the database file \"%w\"", schema);
        else
          sqlite3_str_appendf(m, " is the %s file of the database \"%w\"",
                              suffixes[k], schema);
        sqlite3_str_appendall(m, " of this connection; refusing to replace "
                                 "it");
        char *msg = sqlite3_str_finish(m);
        if (msg)
          sqlite3_result_error(ctx, msg, -1);
        else
          sqlite3_result_error_nomem(ctx);
        sqlite3_free(msg);
        refused = 1;
      }
    }
  }
  if (!refused && rc != SQLITE_DONE) {
    jjx_ctx_err(ctx, "%s: cannot list the connection's databases to check "
                     "the target: %s",
                fn, sqlite3_errmsg(db));
    refused = 1;
  }
  sqlite3_finalize(st);
  free(canon);
  return refused;
}
