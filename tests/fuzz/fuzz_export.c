/*
** fuzz_export.c — libFuzzer harness for the extension's converting and
** exporting functions: jj_from_json, jj_from_csv and jj_export.
**
** The input is "TYPES\nBYTES": TYPES (up to the first newline, may be
** empty) is jj_export's third argument, BYTES are given, as TEXT and as a
** BLOB, to
**   - jj_from_json(?) and jj_from_csv(?) (with and without a header), and
**     every document they return is exported (jj_export of the typed table
**     over it, written with jj_write) with and without TYPES;
**   - a table of three columns whose declared types and values are cut
**     from BYTES (integers, reals, text, blobs, NULLs), exported with and
**     without TYPES, also through a TEMP view over a jj_export of itself
**     (which must be refused, never recurse).
** Errors are expected (the input is hostile); what must hold:
**   - jj_from_json / jj_from_csv return NULL, an error or a document that
**     jj_open reads whole with validate=1;
**   - a jj_export that succeeds wrote exactly the rows and bytes its
**     result reports, a document read back whole with validate=1;
**   - a failed jj_export left no file and no temporary file behind;
**   - the nested export fails with its message and the connection works.
**
**   make fuzz-build     (build/fuzz/fuzz_export; make fuzz runs it)
**   build/fuzz/fuzz_export -max_total_time=60 CORPUS_DIR
**
** Files go to a directory of the process's own (mkdtemp), removed at exit;
** no SQL comes from the input, so nothing else can be written.  Memory is
** bounded: SQLITE_LIMIT_LENGTH and a heap limit for SQLite's allocator.
*/
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define REQUIRE(cond)     \
  do {                    \
    if (!(cond)) abort(); \
  } while (0)

int sqlite3_jalapenojson_init(sqlite3 *db, char **pzErrMsg,
                              const sqlite3_api_routines *pApi);

#define LIMIT_LENGTH 4000000 /* SQLITE_LIMIT_LENGTH */
#define MAX_INPUT 200000     /* longer inputs are cut */

static char dir[64];  /* this process's temporary directory */
static char out[96];  /* what jj_export writes */
static char doc[96];  /* what jj_write writes (a converted document) */

/* Remove everything in dir (our files, and any temporary file a bug
** left, which check_clean has reported by then). */
static void empty_dir(void) {
  DIR *d = opendir(dir);
  struct dirent *e;
  char p[400];
  if (!d) return;
  while ((e = readdir(d)) != NULL) {
    if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
    snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
    unlink(p);
  }
  closedir(d);
}

static void cleanup(void) {
  if (!dir[0]) return;
  empty_dir();
  rmdir(dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  REQUIRE(sqlite3_auto_extension((void (*)(void))sqlite3_jalapenojson_init) ==
          SQLITE_OK);
  sqlite3_hard_heap_limit64(256 << 20);
  const char *tmp = getenv("TMPDIR");
  snprintf(dir, sizeof dir, "%s/jj-fuzzx-XXXXXX",
           tmp && strlen(tmp) < 40 ? tmp : "/tmp");
  REQUIRE(mkdtemp(dir) != NULL);
  snprintf(out, sizeof out, "%s/out.jj", dir);
  snprintf(doc, sizeof doc, "%s/doc.jj", dir);
  atexit(cleanup);
  return 0;
}

/* No temporary file is left in dir. */
static void check_clean(void) {
  DIR *d = opendir(dir);
  struct dirent *e;
  REQUIRE(d);
  while ((e = readdir(d)) != NULL) REQUIRE(!strstr(e->d_name, ".jj-tmp-"));
  closedir(d);
}

/* Run sql with up to three bound TEXT/BLOB arguments; the first column of
** its only row, as text, copied into buf (NUL-terminated, cut), or "" when
** it has no row or a NULL.  The step's result code. */
static int one(sqlite3 *db, const char *sql, const char *a, size_t an,
               int a_blob, const char *b, char *buf, size_t cap) {
  sqlite3_stmt *st = NULL;
  buf[0] = '\0';
  int rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
  if (rc != SQLITE_OK) return rc;
  if (a && a_blob)
    sqlite3_bind_blob64(st, 1, a, an, SQLITE_STATIC);
  else if (a)
    sqlite3_bind_text64(st, 1, a, an, SQLITE_STATIC, SQLITE_UTF8);
  if (b) sqlite3_bind_text(st, 2, b, -1, SQLITE_STATIC);
  rc = sqlite3_step(st);
  if (rc == SQLITE_ROW) {
    const unsigned char *t = sqlite3_column_text(st, 0);
    if (t) snprintf(buf, cap, "%s", (const char *)t);
    rc = sqlite3_step(st);
  }
  sqlite3_finalize(st);
  return rc;
}

/* The rows of file `path` read whole (every value of every row) with
** validate=1, or -1 on an error. */
static int64_t count_rows(sqlite3 *db, const char *path) {
  char sql[256];
  sqlite3_stmt *st = NULL;
  int64_t rows = 0;
  sqlite3_exec(db, "DROP TABLE IF EXISTS temp.back", NULL, NULL, NULL);
  sqlite3_snprintf(sizeof sql, sql,
                   "CREATE VIRTUAL TABLE temp.back USING jj_open(%Q, "
                   "validate=1)",
                   path);
  if (sqlite3_exec(db, sql, NULL, NULL, NULL) != SQLITE_OK) return -1;
  if (sqlite3_prepare_v2(db, "SELECT * FROM back", -1, &st, NULL) !=
      SQLITE_OK)
    rows = -1;
  int rc = SQLITE_DONE;
  while (rows >= 0 && (rc = sqlite3_step(st)) == SQLITE_ROW) {
    for (int c = 0; c < sqlite3_column_count(st); c++)
      (void)sqlite3_column_bytes(st, c); /* the value made, as text */
    rows++;
  }
  if (rc != SQLITE_DONE) rows = -1;
  sqlite3_finalize(st);
  sqlite3_exec(db, "DROP TABLE IF EXISTS temp.back", NULL, NULL, NULL);
  return rows;
}

/* Export `query` (with TYPES, or NULL) into `out` and check what it
** reports: the rows and bytes of the file on success, no file and no
** temporary file on failure. */
static void export_query(sqlite3 *db, const char *query, const char *types) {
  char sql[300];
  sqlite3_snprintf(sizeof sql, sql,
                   types ? "SELECT jj_export(?1, %Q, ?2)"
                         : "SELECT jj_export(?1, %Q)",
                   query);
  char res[200];
  struct stat st;
  unlink(out);
  int rc = one(db, sql, out, strlen(out), 0, types, res, sizeof res);
  check_clean();
  if (rc != SQLITE_DONE) {
    REQUIRE(stat(out, &st) != 0);
    return;
  }
  long long rows = -1, bytes = -1;
  REQUIRE(sscanf(res, "{\"rows\":%lld,\"bytes\":%lld}", &rows, &bytes) == 2);
  REQUIRE(stat(out, &st) == 0 && (long long)st.st_size == bytes);
  REQUIRE(count_rows(db, out) == rows);
}

/* A converted document: written with jj_write, read whole, exported. */
static void converted(sqlite3 *db, const char *fn_sql, const char *p,
                      size_t n, int as_blob, const char *types) {
  sqlite3_stmt *st = NULL;
  int rc = sqlite3_prepare_v2(db, fn_sql, -1, &st, NULL);
  REQUIRE(rc == SQLITE_OK);
  if (as_blob)
    sqlite3_bind_blob64(st, 1, p, n, SQLITE_STATIC);
  else
    sqlite3_bind_text64(st, 1, p, n, SQLITE_STATIC, SQLITE_UTF8);
  sqlite3_bind_text(st, 2, doc, -1, SQLITE_STATIC);
  unlink(doc);
  rc = sqlite3_step(st);
  int written = rc == SQLITE_ROW &&
                sqlite3_column_type(st, 0) == SQLITE_INTEGER;
  sqlite3_finalize(st);
  check_clean();
  if (!written) return;
  REQUIRE(count_rows(db, doc) >= 0); /* a converted document is valid */
  sqlite3_exec(db, "DROP TABLE IF EXISTS temp.conv", NULL, NULL, NULL);
  char sql[200];
  sqlite3_snprintf(sizeof sql, sql,
                   "CREATE VIRTUAL TABLE temp.conv USING jj_open(%Q)", doc);
  if (sqlite3_exec(db, sql, NULL, NULL, NULL) != SQLITE_OK) return;
  export_query(db, "SELECT * FROM conv", NULL);
  export_query(db, "SELECT * FROM conv", types);
  sqlite3_exec(db, "DROP TABLE IF EXISTS temp.conv", NULL, NULL, NULL);
}

/* Declared types a fuzzed table's columns may have. */
static const char *const decls[] = {"",     "INTEGER",   "REAL",    "TEXT",
                                    "DATE", "TIMESTAMP", "BOOLEAN", "BLOB"};

/* A table of three columns cut from p[0..n): declared types from the first
** byte, then values: a tag byte (its low 3 bits the kind), a length byte,
** that many bytes. */
static void table_export(sqlite3 *db, const unsigned char *p, size_t n,
                         const char *types) {
  char sql[200];
  sqlite3_stmt *ins = NULL;
  if (n == 0) return;
  sqlite3_exec(db, "DROP TABLE IF EXISTS temp.src", NULL, NULL, NULL);
  sqlite3_snprintf(sizeof sql, sql,
                   "CREATE TEMP TABLE src(a %s, b %s, c %s)", decls[p[0] & 7],
                   decls[p[0] >> 3 & 7], decls[(p[0] >> 6 | p[0] << 2) & 7]);
  REQUIRE(sqlite3_exec(db, sql, NULL, NULL, NULL) == SQLITE_OK);
  REQUIRE(sqlite3_prepare_v2(db, "INSERT INTO src VALUES (?, ?, ?)", -1, &ins,
                             NULL) == SQLITE_OK);
  size_t at = 1;
  int col = 0, rows = 0;
  while (at + 2 <= n && rows < 2000) {
    unsigned tag = p[at], len = p[at + 1];
    at += 2;
    if (len > n - at) len = (unsigned)(n - at);
    const unsigned char *v = p + at;
    at += len;
    uint64_t i = 0;
    double d;
    switch (tag & 7) {
      case 0: sqlite3_bind_null(ins, col + 1); break;
      case 1:
        for (unsigned k = 0; k < len && k < 8; k++) i = i << 8 | v[k];
        sqlite3_bind_int64(ins, col + 1,
                           (sqlite3_int64)(tag & 8 ? 0 - i : i));
        break;
      case 2:
        memset(&d, 0, sizeof d);
        memcpy(&d, v, len < sizeof d ? len : sizeof d);
        sqlite3_bind_double(ins, col + 1, d);
        break;
      case 3: case 4: case 5:
        sqlite3_bind_text(ins, col + 1, (const char *)v, (int)len,
                          SQLITE_TRANSIENT);
        break;
      default:
        sqlite3_bind_blob(ins, col + 1, v, (int)len, SQLITE_TRANSIENT);
        break;
    }
    if (++col == 3) {
      sqlite3_step(ins);
      sqlite3_reset(ins);
      sqlite3_clear_bindings(ins);
      col = 0;
      rows++;
    }
  }
  sqlite3_finalize(ins);
  export_query(db, "SELECT * FROM src", NULL);
  export_query(db, "SELECT * FROM src", types);
  export_query(db, "SELECT a, b FROM src ORDER BY c", types);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  sqlite3 *db = NULL;
  char buf[200];
  if (size > MAX_INPUT) size = MAX_INPUT;
  const char *p = (const char *)data;
  const char *nl = memchr(p, '\n', size);
  size_t tn = nl ? (size_t)(nl - p) : 0;
  char *types = NULL;
  if (nl && tn < 200 && !memchr(p, '\0', tn)) {
    types = malloc(tn + 1);
    REQUIRE(types);
    memcpy(types, p, tn);
    types[tn] = '\0';
  }
  const char *body = nl ? nl + 1 : p;
  size_t bn = size - (size_t)(body - p);

  REQUIRE(sqlite3_open(":memory:", &db) == SQLITE_OK);
  sqlite3_limit(db, SQLITE_LIMIT_LENGTH, LIMIT_LENGTH);
  for (int as_blob = 0; as_blob < 2; as_blob++) {
    converted(db, "SELECT jj_write(?2, jj_from_json(?1))", body, bn, as_blob,
              types);
    converted(db, "SELECT jj_write(?2, jj_from_csv(?1))", body, bn, as_blob,
              types);
    converted(db,
              "SELECT jj_write(?2, jj_from_csv(?1, 'delimiter=;', "
              "'empty_is_text=1'))",
              body, bn, as_blob, types);
  }
  table_export(db, (const unsigned char *)body, bn, types);
  /* A view over a jj_export of itself: refused, the connection usable. */
  sqlite3_snprintf(sizeof buf, buf,
                   "CREATE TEMP VIEW v AS SELECT jj_export(%Q, "
                   "'SELECT * FROM v') AS r",
                   out);
  REQUIRE(sqlite3_exec(db, buf, NULL, NULL, NULL) == SQLITE_OK);
  REQUIRE(one(db, "SELECT * FROM v", NULL, 0, 0, NULL, buf, sizeof buf) ==
          SQLITE_ERROR);
  REQUIRE(one(db, "SELECT 6 * 7", NULL, 0, 0, NULL, buf, sizeof buf) ==
              SQLITE_DONE &&
          strcmp(buf, "42") == 0);
  check_clean();
  REQUIRE(sqlite3_close(db) == SQLITE_OK);
  empty_dir();
  free(types);
  return 0;
}
