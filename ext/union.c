/*
** union.c — union_by_name: the files of a glob read as one table although
** their columns differ, each file's columns matched to the table's by name.
**
**   CREATE VIRTUAL TABLE t USING jj_open('log-*.jj', union_by_name=1);
**   SELECT record FROM jj_open('log-*.jj', 'union_by_name=1');
**   SELECT * FROM jj_schema('log-*.jj', 'union_by_name=1');
**
** The union's columns are every file's, in order of first appearance with
** the files in name order; a name has one type in every file (a nested
** table: the same columns), else an error names both files, the column and
** both types.  There is no widening (not even i into f): a column that is
** an integer in one file and a float in another is more likely two
** different things than one, and CAST says which the user means.
**
** Names: a typed table matches them as SQL does (ASCII case folded, fold
** 1): "ID" in one file is the column "id" of another, named as first seen;
** two columns of one file whose names differ only in case are an error, as
** for any typed table.  The record form matches JSON keys exactly (fold 0).
**
** A typed table fixes its union when it connects (source.c reads every
** file's header); a scan maps each document it reads onto it
** (jjx_union_map): union column i is the document's column map[i], or
** NULL (-1).  A document with a column the union lacks, or another type
** for one of its columns, is an error that says what to do.
*/
#include <string.h>

#include "ext.h"

void jjx_union_free(jjx_union *u) {
  jj_schema_free(u->schema);
  jj_schema_free(u->index);
  for (size_t i = 0; i < u->n; i++) sqlite3_free(u->from[i]);
  sqlite3_free(u->from);
  memset(u, 0, sizeof *u);
}

/* name[0..len) with ASCII letters in lower case, in buf (NUL-terminated)
** when it fits, else a new string; *alloc says whether to sqlite3_free. */
static char *fold_name(const char *name, size_t len, char *buf, size_t cap,
                       int *alloc) {
  char *out = buf;
  *alloc = 0;
  if (len >= cap) {
    out = sqlite3_malloc64(len + 1);
    if (!out) return NULL;
    *alloc = 1;
  }
  for (size_t i = 0; i < len; i++) {
    char ch = name[i];
    out[i] = ch >= 'A' && ch <= 'Z' ? (char)(ch + 32) : ch;
  }
  out[len] = '\0';
  return out;
}

/* The union column named like column `col` of s, or -1 (-2: out of
** memory).  fold: through the lower-case index, else exactly. */
static int find_column(const jjx_union *u, const jj_schema *s, size_t col) {
  size_t len;
  const char *name = jj_schema_name(s, col, &len);
  if (!u->fold) return jj_schema_find(u->schema, name, len);
  char buf[128];
  int alloc;
  char *key = fold_name(name, len, buf, sizeof buf, &alloc);
  if (!key) return -2;
  int i = jj_schema_find(u->index, key, len);
  if (alloc) sqlite3_free(key);
  return i;
}

/* 1 when column a of sa and column b of sb have the same type (a nested
** table: the same columns, recursively). */
static int same_type(const jj_schema *sa, size_t a, const jj_schema *sb,
                     size_t b) {
  jj_type ta = jj_schema_type(sa, a), tb = jj_schema_type(sb, b);
  if (ta != tb) return 0;
  return ta != JJ_TABLE ||
         jj_schema_equal(jj_schema_table(sa, a), jj_schema_table(sb, b),
                         NULL);
}

/* A column's type for a message: its letter, or a nested table's columns. */
static void show_type(sqlite3_str *m, const jj_schema *s, size_t col) {
  jj_type t = jj_schema_type(s, col);
  if (t == JJ_TABLE)
    jjx_show_schema(m, jj_schema_table(s, col));
  else
    sqlite3_str_appendall(m, jj_type_short(t));
}

/* "<label>: column "tag" is i here, s in <from> (union_by_name: ...)" */
static int type_error(const jjx_union *u, size_t ucol, const char *label,
                      const jj_schema *s, size_t col, char **pzErr) {
  size_t len;
  const char *name = jj_schema_name(s, col, &len);
  sqlite3_str *m = sqlite3_str_new(NULL);
  sqlite3_str_appendf(m, "%s: column ", label);
  jjx_show(m, name, len);
  sqlite3_str_appendall(m, " is ");
  show_type(m, s, col);
  sqlite3_str_appendall(m, " here, ");
  show_type(m, u->schema, ucol);
  sqlite3_str_appendf(m, " in %s (with union_by_name a column has one type "
                         "in every file)", u->from[ucol]);
  *pzErr = sqlite3_str_finish(m);
  return *pzErr ? SQLITE_ERROR : SQLITE_NOMEM;
}

/* Two columns of one document that are one name in SQL. */
static int twin_error(const char *label, const jj_schema *s, size_t first,
                      size_t second, char **pzErr) {
  size_t l1, l2;
  const char *n1 = jj_schema_name(s, first, &l1);
  const char *n2 = jj_schema_name(s, second, &l2);
  sqlite3_str *m = sqlite3_str_new(NULL);
  sqlite3_str_appendf(m, "%s: columns %lld ", label, (long long)first + 1);
  jjx_show(m, n1, l1);
  sqlite3_str_appendf(m, " and %lld ", (long long)second + 1);
  jjx_show(m, n2, l2);
  sqlite3_str_appendall(m, " have the same name in SQL (names are compared "
                           "ignoring ASCII case)");
  *pzErr = sqlite3_str_finish(m);
  return *pzErr ? SQLITE_ERROR : SQLITE_NOMEM;
}

/* Append column `col` of s to the union, first seen in `label`. */
static int append(jjx_union *u, const char *label, const jj_schema *s,
                  size_t col) {
  jj_error err;
  size_t len;
  const char *name = jj_schema_name(s, col, &len);
  jj_type t = jj_schema_type(s, col);
  jj_schema *nested = NULL;
  if (t == JJ_TABLE && !(nested = jj_schema_copy(jj_schema_table(s, col))))
    return SQLITE_NOMEM;
  if (!u->schema && !(u->schema = jj_schema_new())) {
    jj_schema_free(nested);
    return SQLITE_NOMEM;
  }
  if (u->fold && !u->index && !(u->index = jj_schema_new())) {
    jj_schema_free(nested);
    return SQLITE_NOMEM;
  }
  if (u->n == u->cap) {
    size_t cap = u->cap ? u->cap * 2 : 16;
    char **p = sqlite3_realloc64(u->from, cap * sizeof *p);
    if (!p) {
      jj_schema_free(nested);
      return SQLITE_NOMEM;
    }
    u->from = p;
    u->cap = cap;
  }
  u->from[u->n] = sqlite3_mprintf("%s", label);
  if (!u->from[u->n]) {
    jj_schema_free(nested);
    return SQLITE_NOMEM;
  }
  /* The names come from a parsed header: valid, distinct from the union's
  ** (find_column said so), so only memory can fail here. */
  if (jj_schema_add(u->schema, name, len, t, nested, &err) != JJ_OK) {
    sqlite3_free(u->from[u->n]);
    return SQLITE_NOMEM;
  }
  u->n++;
  if (u->fold) {
    char buf[128];
    int alloc;
    char *key = fold_name(name, len, buf, sizeof buf, &alloc);
    jj_code code = key ? jj_schema_add(u->index, key, len, JJ_INT, NULL, &err)
                       : JJ_ERR_NOMEM;
    if (alloc) sqlite3_free(key);
    if (code != JJ_OK) return SQLITE_NOMEM; /* index and schema now differ:
                                            ** the caller drops the union */
  }
  return SQLITE_OK;
}

/* "<label>: column "x" is not a column of the table: ..." */
static int new_column_error(const char *label, const jj_schema *s, size_t col,
                            char **pzErr) {
  size_t len;
  const char *name = jj_schema_name(s, col, &len);
  sqlite3_str *m = sqlite3_str_new(NULL);
  sqlite3_str_appendf(m, "%s: column ", label);
  jjx_show(m, name, len);
  sqlite3_str_appendall(m, " is not a column of the table: with "
                           "union_by_name its columns are those of the "
                           "files it found when it was created (create it "
                           "again to read ");
  jjx_show(m, name, len);
  sqlite3_str_appendall(m, ")");
  *pzErr = sqlite3_str_finish(m);
  return *pzErr ? SQLITE_ERROR : SQLITE_NOMEM;
}

/* Match every column j of s to a union column i, checking its type and that
** no two columns of s are one; seen[i] = j + 1 (seen: zeroed, room for the
** union's columns and s's).  grow: a column the union lacks is appended;
** else it is an error. */
static int walk(jjx_union *u, const char *label, const jj_schema *s,
                int grow, int *seen, char **pzErr) {
  size_t n = jj_schema_columns(s);
  for (size_t j = 0; j < n; j++) {
    int i = find_column(u, s, j), rc;
    if (i == -2) return SQLITE_NOMEM;
    if (i < 0) {
      if (!grow) return new_column_error(label, s, j, pzErr);
      if ((rc = append(u, label, s, j)) != SQLITE_OK) return rc;
      i = (int)u->n - 1;
    } else if (seen[i]) {
      return twin_error(label, s, (size_t)seen[i] - 1, j, pzErr);
    } else if (!same_type(u->schema, (size_t)i, s, j)) {
      return type_error(u, (size_t)i, label, s, j, pzErr);
    }
    seen[i] = (int)j + 1;
  }
  return SQLITE_OK;
}

/* seen[] for walk: zeroed, room for both schemas' columns. */
static int *new_seen(const jjx_union *u, const jj_schema *s) {
  size_t n = u->n + jj_schema_columns(s) + 1;
  int *seen = sqlite3_malloc64(n * sizeof *seen);
  if (seen) memset(seen, 0, n * sizeof *seen);
  return seen;
}

int jjx_union_add(jjx_union *u, const char *label, const jj_schema *s,
                  char **pzErr) {
  int *seen = new_seen(u, s);
  if (!seen) return SQLITE_NOMEM;
  int rc = walk(u, label, s, 1, seen, pzErr);
  sqlite3_free(seen);
  return rc;
}

int jjx_union_map(const jjx_union *u, const char *label, const jj_schema *s,
                  int *map, int *identity, char **pzErr) {
  int *seen = new_seen(u, s);
  if (!seen) return SQLITE_NOMEM;
  /* grow 0: walk does not change the union */
  int rc = walk((jjx_union *)u, label, s, 0, seen, pzErr);
  if (rc == SQLITE_OK) {
    *identity = jj_schema_columns(s) == u->n;
    for (size_t i = 0; i < u->n; i++) {
      map[i] = seen[i] - 1; /* -1: the document lacks it, NULL */
      if (map[i] != (int)i) *identity = 0;
    }
  }
  sqlite3_free(seen);
  return rc;
}
