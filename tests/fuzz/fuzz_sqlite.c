/*
** fuzz_sqlite.c — libFuzzer harness for the SQLite surface: the input is a
** document's bytes (plain, gzip or brotli), given to every entry point that
** reads one:
**   - the record form, SELECT row, record FROM jj_open(?) with the bytes as
**     a BLOB (and as TEXT when they start with '{'), and row = ? / IN /
**     LIMIT / OFFSET lookups on it;
**   - jj_schema(?);
**   - a typed table over the bytes written to a file (CREATE VIRTUAL TABLE
**     ... USING jj_open('file')), scanned whole, as a table-valued function
**     over the BLOB, and with validate=1;
**   - a jj_group round trip: the typed table's rows, written with jj_group
**     ('name:type' for each column of jj_schema) and read back.
** SQLite errors are expected (the input is hostile); properties that must
** hold for every input abort when broken:
**   - the same document read from a file and from a BLOB gives the same
**     values (every column's type and bytes), as BLOB and as TEXT;
**   - row = k and IN lists with LIMIT/OFFSET give the rows a full scan
**     gives at those positions;
**   - a table created with validate=1 reads every value without an error,
**     and so does the record form;
**   - the round trip gives the same values (doubles bit for bit), and
**     jj_group accepts what the typed table returns but for the documented
**     refusals (a nested column NULL in every row, an empty name, too many
**     columns for one call).
**
**   make fuzz-build     (build/fuzz/fuzz_sqlite; make fuzz runs it)
**   clang -fsanitize=fuzzer,address,undefined -Icore -Itests
**     tests/fuzz/fuzz_sqlite.c ext/[a-z]*.c core/[a-z]*.c -lsqlite3
**     -lz -lbrotlienc -lbrotlidec -lm -o /tmp/fuzz_sqlite
**   /tmp/fuzz_sqlite -max_total_time=60 CORPUS_DIR
**
** The extension is linked in and registered with sqlite3_auto_extension,
** as `.load` would.  Memory is bounded: SQLITE_LIMIT_LENGTH, a heap limit
** for SQLite's allocator (which decompresses BLOBs), max_size on the file.
** Not named test_*.c: it is not part of `make test` (which compiles it).
*/
#define _POSIX_C_SOURCE 200809L
#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define REQUIRE(cond)     \
  do {                    \
    if (!(cond)) abort(); \
  } while (0)

int sqlite3_jalapenojson_init(sqlite3 *db, char **pzErrMsg,
                              const sqlite3_api_routines *pApi);

#define MAX_COLS 64          /* jj_group takes 63 pairs (127 arguments) */
#define MAX_ROWS 4096        /* rows whose positions are remembered */
#define LIMIT_LENGTH 4000000 /* SQLITE_LIMIT_LENGTH */
#define TYPED_OPTIONS "max_size=16000000"

static int trace;      /* FUZZ_SQLITE_TRACE set: say what was checked */
static char dir[64];   /* this process's temporary directory */
static char path[96];  /* the input written as a file */

static void cleanup(void) {
  if (path[0]) unlink(path);
  if (dir[0]) rmdir(dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  REQUIRE(sqlite3_auto_extension((void (*)(void))sqlite3_jalapenojson_init) ==
          SQLITE_OK);
  sqlite3_hard_heap_limit64(256 << 20);
  trace = getenv("FUZZ_SQLITE_TRACE") != NULL;
  const char *tmp = getenv("TMPDIR");
  snprintf(dir, sizeof dir, "%s/jj-fuzz-XXXXXX",
           tmp && strlen(tmp) < 40 ? tmp : "/tmp");
  REQUIRE(mkdtemp(dir) != NULL);
  snprintf(path, sizeof path, "%s/doc.jj", dir);
  atexit(cleanup);
  return 0;
}

/* ---------------------------------------------------------------------- */
/* Results, serialised for exact comparison                                */
/* ---------------------------------------------------------------------- */

/* A statement's rows: every value as a type byte, then its bytes (integers
** and doubles as their 8 bytes, text and blobs with their length).  at[r]
** is where row r starts (r < MAX_ROWS). */
typedef struct result {
  unsigned char *p;
  size_t len, cap;
  size_t at[MAX_ROWS + 1];
  int64_t rows;
  int rc; /* SQLITE_DONE, or the error */
} result;

static void put(result *r, const void *p, size_t n) {
  if (r->len + n > r->cap) {
    size_t cap = r->cap ? r->cap : 256;
    while (cap < r->len + n) cap *= 2;
    r->p = realloc(r->p, cap);
    REQUIRE(r->p);
    r->cap = cap;
  }
  if (n) memcpy(r->p + r->len, p, n);
  r->len += n;
}

static void put_value(result *r, sqlite3_stmt *st, int col) {
  unsigned char type = (unsigned char)sqlite3_column_type(st, col);
  put(r, &type, 1);
  if (type == SQLITE_INTEGER) {
    int64_t v = sqlite3_column_int64(st, col);
    put(r, &v, sizeof v);
  } else if (type == SQLITE_FLOAT) {
    double v = sqlite3_column_double(st, col);
    put(r, &v, sizeof v);
  } else if (type == SQLITE_TEXT || type == SQLITE_BLOB) {
    const void *p = type == SQLITE_TEXT
                        ? (const void *)sqlite3_column_text(st, col)
                        : sqlite3_column_blob(st, col);
    uint64_t n = (uint64_t)sqlite3_column_bytes(st, col);
    put(r, &n, sizeof n);
    put(r, p, (size_t)n);
  }
}

/* Kinds of parameter ?1. */
enum { NONE, AS_BLOB, AS_TEXT };

/* Run sql (with ?1 bound to data) to the end, into *r. */
static void run(sqlite3 *db, const char *sql, int kind, const void *data,
                size_t size, result *r) {
  sqlite3_stmt *st = NULL;
  r->len = 0;
  r->rows = 0;
  r->rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
  if (r->rc != SQLITE_OK) return;
  if (kind == AS_BLOB)
    r->rc = sqlite3_bind_blob64(st, 1, size ? data : "", size,
                                SQLITE_TRANSIENT);
  else if (kind == AS_TEXT)
    r->rc = sqlite3_bind_text64(st, 1, data, size, SQLITE_TRANSIENT,
                                SQLITE_UTF8);
  if (r->rc == SQLITE_OK) {
    int n = sqlite3_column_count(st);
    while ((r->rc = sqlite3_step(st)) == SQLITE_ROW) {
      if (r->rows < MAX_ROWS) r->at[r->rows] = r->len;
      for (int c = 0; c < n; c++) put_value(r, st, c);
      r->rows++;
    }
    if (r->rows <= MAX_ROWS) r->at[r->rows] = r->len;
  }
  sqlite3_finalize(st);
}

static int ok(const result *r) { return r->rc == SQLITE_DONE; }

static int same(const result *a, const result *b) {
  return a->rows == b->rows && a->len == b->len &&
         (a->len == 0 || memcmp(a->p, b->p, a->len) == 0);
}

/* Errors that say "too big" or "no memory": limits, not findings. */
static int limited(int rc) {
  return rc == SQLITE_TOOBIG || rc == SQLITE_NOMEM;
}

/* Run sql and return its only value as text (sqlite3_malloc), NULL when it
** failed or was NULL; *rc gets the step's code. */
static char *scalar(sqlite3 *db, const char *sql, int *rc, char **err) {
  sqlite3_stmt *st = NULL;
  char *out = NULL;
  *err = NULL;
  *rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
  if (*rc == SQLITE_OK) {
    *rc = sqlite3_step(st);
    if (*rc == SQLITE_ROW && sqlite3_column_type(st, 0) != SQLITE_NULL)
      out = sqlite3_mprintf("%s", (const char *)sqlite3_column_text(st, 0));
  }
  if (*rc != SQLITE_ROW && *rc != SQLITE_DONE)
    *err = sqlite3_mprintf("%s", sqlite3_errmsg(db));
  sqlite3_finalize(st);
  return out;
}

/* ---------------------------------------------------------------------- */
/* The properties                                                          */
/* ---------------------------------------------------------------------- */

static result rec, other, typed, typed_blob, again;

/* row = k, and an IN list with LIMIT and OFFSET, against the full scan's
** rows (rec, which has every row). */
static void lookups(sqlite3 *db, const void *data, size_t size) {
  int64_t n = rec.rows;
  if (n > MAX_ROWS) return;
  int64_t ks[] = {1, n, (n + 1) / 2, n + 1};
  for (size_t i = 0; i < sizeof ks / sizeof ks[0]; i++) {
    char sql[128];
    snprintf(sql, sizeof sql,
             "SELECT row, record FROM jj_open(?1) WHERE row = %lld",
             (long long)ks[i]);
    run(db, sql, AS_BLOB, data, size, &other);
    if (limited(other.rc)) continue;
    REQUIRE(ok(&other));
    if (ks[i] < 1 || ks[i] > n) {
      REQUIRE(other.rows == 0);
      continue;
    }
    size_t from = rec.at[ks[i] - 1], to = rec.at[ks[i]];
    REQUIRE(other.rows == 1 && other.len == to - from &&
            memcmp(other.p, rec.p + from, to - from) == 0);
  }
  /* rows n, 1, n+1, (n+1)/2 and 1 again, LIMIT 2 OFFSET 1: the second and
  ** third of those that exist, in row order */
  char sql[192];
  snprintf(sql, sizeof sql,
           "SELECT row, record FROM jj_open(?1) WHERE row IN (%lld, 1, "
           "%lld, %lld, 1) LIMIT 2 OFFSET 1",
           (long long)n, (long long)n + 1, (long long)(n + 1) / 2);
  run(db, sql, AS_BLOB, data, size, &other);
  if (limited(other.rc)) return;
  REQUIRE(ok(&other));
  int64_t want[3], k = 0;
  int64_t cand[] = {1, (n + 1) / 2, n};
  for (int i = 0; i < 3; i++)
    if (cand[i] >= 1 && cand[i] <= n && (k == 0 || want[k - 1] != cand[i]))
      want[k++] = cand[i];
  result expect = {0};
  for (int64_t i = 1; i < k && i < 3; i++)
    put(&expect, rec.p + rec.at[want[i] - 1],
        rec.at[want[i]] - rec.at[want[i] - 1]);
  REQUIRE(other.rows == (k > 1 ? (k - 1 < 2 ? k - 1 : 2) : 0));
  REQUIRE(other.len == expect.len &&
          (expect.len == 0 || memcmp(other.p, expect.p, expect.len) == 0));
  free(expect.p);
}

/* jj_group's refusals that a valid typed table can meet. */
static int documented_refusal(const char *err) {
  return err && (strstr(err, "is NULL in every row") ||
                 strstr(err, "has an empty name") ||
                 strstr(err, "too many arguments") ||
                 strstr(err, "string or blob too big") ||
                 strstr(err, "out of memory"));
}

/* The typed table t's rows through jj_group and back.  names/types come
** from jj_schema. */
static void round_trip(sqlite3 *db, int ncol, char **names, char **types) {
  sqlite3_str *q = sqlite3_str_new(db);
  sqlite3_str_appendall(q, "SELECT jj_group(");
  for (int i = 0; i < ncol; i++) {
    char *spec = sqlite3_mprintf("%s:%s", names[i], types[i]);
    REQUIRE(spec);
    sqlite3_str_appendf(q, "%s%Q, \"%w\"", i ? ", " : "", spec, names[i]);
    sqlite3_free(spec);
  }
  /* a scan gives the rows in order (no ORDER BY rowid: a column of the
  ** document may be named rowid) */
  sqlite3_str_appendall(q, ") FROM t");
  char *sql = sqlite3_str_finish(q);
  REQUIRE(sql);
  int rc;
  char *err;
  char *doc = scalar(db, sql, &rc, &err);
  sqlite3_free(sql);
  if (rc != SQLITE_ROW) {
    if (!documented_refusal(err)) {
      fprintf(stderr, "fuzz_sqlite: jj_group refused the typed table's "
                      "rows: %s\n", err ? err : "?");
      abort();
    }
    sqlite3_free(err);
    return;
  }
  sqlite3_free(err);
  if (!doc) { /* no rows */
    REQUIRE(typed.rows == 0);
    return;
  }
  run(db, "SELECT * FROM t(?1)", AS_TEXT, doc, strlen(doc), &again);
  if (!limited(again.rc)) {
    if (!ok(&again) || !same(&typed, &again)) {
      fprintf(stderr, "fuzz_sqlite: the round trip differs (rc %d: %s)\n",
              again.rc, ok(&again) ? "values" : sqlite3_errmsg(db));
      abort();
    }
  }
  if (trace) fprintf(stderr, "round trip: %lld rows, %d columns\n",
                     (long long)typed.rows, ncol);
  sqlite3_free(doc);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  sqlite3 *db = NULL;
  if (size > LIMIT_LENGTH / 2) return 0;
  REQUIRE(sqlite3_open(":memory:", &db) == SQLITE_OK);
  sqlite3_limit(db, SQLITE_LIMIT_LENGTH, LIMIT_LENGTH);

  /* the record form: BLOB, then TEXT (a document only when it starts with
  ** '{', else the text would name a file) */
  run(db, "SELECT row, record FROM jj_open(?1)", AS_BLOB, data, size, &rec);
  size_t ws = 0;
  while (ws < size && strchr(" \t\r\n", data[ws]) && data[ws]) ws++;
  if (ws < size && data[ws] == '{') {
    run(db, "SELECT row, record FROM jj_open(?1)", AS_TEXT, data, size,
        &other);
    if (ok(&rec) && ok(&other)) REQUIRE(same(&rec, &other));
  }
  if (ok(&rec)) lookups(db, data, size);

  /* jj_schema: every column; names and types for the round trip */
  char *names[MAX_COLS], *types[MAX_COLS];
  int ncol = 0, schema_ok = 1;
  sqlite3_stmt *st = NULL;
  if (sqlite3_prepare_v2(db, "SELECT name, type, * FROM jj_schema(?1)", -1,
                         &st, NULL) == SQLITE_OK) {
    sqlite3_bind_blob64(st, 1, size ? (const void *)data : "", size,
                        SQLITE_TRANSIENT);
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
      if (ncol == MAX_COLS) {
        schema_ok = 0;
        continue;
      }
      names[ncol] = sqlite3_mprintf("%s", sqlite3_column_text(st, 0));
      types[ncol] = sqlite3_mprintf("%s", sqlite3_column_text(st, 1));
      REQUIRE(names[ncol] && types[ncol]);
      ncol++;
    }
    if (rc != SQLITE_DONE) schema_ok = 0;
  } else {
    schema_ok = 0;
  }
  sqlite3_finalize(st);

  /* the typed table over the same bytes in a file */
  FILE *f = fopen(path, "wb");
  REQUIRE(f && fwrite(data, 1, size, f) == size && fclose(f) == 0);
  char *sql = sqlite3_mprintf(
      "CREATE VIRTUAL TABLE temp.t USING jj_open(%Q, " TYPED_OPTIONS ")",
      path);
  REQUIRE(sql);
  int created = sqlite3_exec(db, sql, NULL, NULL, NULL) == SQLITE_OK;
  sqlite3_free(sql);
  if (created) {
    run(db, "SELECT * FROM t", NONE, NULL, 0, &typed);
    run(db, "SELECT * FROM t(?1)", AS_BLOB, data, size, &typed_blob);
    if (ok(&typed) && ok(&typed_blob)) REQUIRE(same(&typed, &typed_blob));
    if (ok(&typed) && ok(&rec)) REQUIRE(typed.rows == rec.rows);

    /* validate=1: CREATE reads the header only (like any typed table);
    ** the scan that opens the document checks every value of every row
    ** first.  So it fails exactly when reading every value does (the
    ** typed table's SELECT *), and when it succeeds, the typed table and
    ** the record form read the same rows. */
    sql = sqlite3_mprintf("CREATE VIRTUAL TABLE temp.v USING jj_open(%Q, "
                          "validate=1, " TYPED_OPTIONS ")",
                          path);
    REQUIRE(sql);
    int valid = sqlite3_exec(db, sql, NULL, NULL, NULL) == SQLITE_OK;
    sqlite3_free(sql);
    if (valid) {
      run(db, "SELECT * FROM v", NONE, NULL, 0, &other);
      if (!limited(other.rc) && !limited(typed.rc))
        REQUIRE(ok(&other) == ok(&typed));
      if (ok(&other) && ok(&typed)) REQUIRE(same(&typed, &other));
      if (ok(&other)) REQUIRE(ok(&rec) || limited(rec.rc));
    }

    if (trace)
      fprintf(stderr, "record %d (%lld rows), typed %d, blob %d, valid %d\n",
              rec.rc, (long long)rec.rows, typed.rc, typed_blob.rc, valid);
    if (ok(&typed) && ok(&rec) && schema_ok && ncol > 0)
      round_trip(db, ncol, names, types);
  }
  for (int i = 0; i < ncol; i++) {
    sqlite3_free(names[i]);
    sqlite3_free(types[i]);
  }
  REQUIRE(sqlite3_close(db) == SQLITE_OK);
  return 0;
}
