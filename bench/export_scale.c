/*
** export_scale.c — one export of a large table to a file, its time and
** its memory (jj_export against jj_group and json_group_array).
** One export per process, so that the process's peak resident memory is
** that export's:
**
**   export_scale METHOD SOURCE.db OUT
**
**   METHOD  jj_export   SELECT jj_export(OUT, 'SELECT * FROM t', 'joined:d')
**                       (streams rows through the writer into the file)
**           jj_group    SELECT jj_write(OUT, (SELECT jj_group(...) FROM t))
**                       (the whole document in memory, then written)
**           json        SELECT json_group_array(json_object(...)) FROM t,
**                       the text then written to OUT with fwrite
**
** SOURCE.db holds table t (id INTEGER, user TEXT, city TEXT, plan TEXT,
** seats INTEGER, price REAL, joined TEXT), written by bench/scale.py; it is
** a file, so SQLite keeps only its page cache (2 MB by default) of it in
** memory and the peak is the export's own.  The extension is loaded from
** $JJ_EXTENSION (default ./jalapenojson).
**
** Prints one line:
**   ok METHOD ns=N base_kb=B peak_kb=P bytes=F rows=R
** ns: the statement from its first step to the file written and closed;
** base_kb: resident memory just before (VmRSS); peak_kb: the process's
** peak (VmHWM) after; bytes: the file's size; rows: the rows
** read back from the file (jalapenojson: count(*) of jj_open(OUT), json:
** the number of objects), checked against count(*) of t.  A failed export
** prints "failed METHOD ns=N peak_kb=P error=MESSAGE" and exits 4: at
** 10,000,000 rows json_group_array's text is larger than SQLite's largest
** string (SQLITE_MAX_LENGTH, 10^9 bytes by default) and that is a result.
*/
#define _POSIX_C_SOURCE 200809L
#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static uint64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* A field of /proc/self/status in KiB ("VmRSS:", "VmHWM:"), or 0. */
static long status_kb(const char *field) {
  FILE *f = fopen("/proc/self/status", "r");
  char line[256];
  long kb = 0;
  if (!f) return 0;
  while (fgets(line, sizeof line, f))
    if (strncmp(line, field, strlen(field)) == 0) kb = strtol(line + strlen(field), NULL, 10);
  fclose(f);
  return kb;
}

static long rss_kb(void) { return status_kb("VmRSS:"); }

/* The process's peak resident memory: VmHWM, the high-water mark of this
** program's own address space.  (getrusage's ru_maxrss would do on most
** systems, but Linux carries it across execve: a child of a 14 MB Python
** starts with ru_maxrss = 14 MB.) */
static long peak_kb(void) { return status_kb("VmHWM:"); }

static void die(sqlite3 *db, const char *what) {
  fprintf(stderr, "export_scale: %s: %s\n", what, db ? sqlite3_errmsg(db) : "?");
  exit(3);
}

static int64_t one_int(sqlite3 *db, const char *sql, const char *bind) {
  sqlite3_stmt *st;
  if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) die(db, sql);
  if (bind) sqlite3_bind_text(st, 1, bind, -1, SQLITE_STATIC);
  if (sqlite3_step(st) != SQLITE_ROW) die(db, sql);
  int64_t v = sqlite3_column_int64(st, 0);
  sqlite3_finalize(st);
  return v;
}

/* The objects in json_group_array's text: one per `{"id":`. */
static int64_t count_objects(const char *p, size_t n) {
  static const char key[] = "{\"id\":";
  int64_t k = 0;
  for (const char *e = p + n, *q = p; q && q < e; q++) {
    q = memchr(q, '{', (size_t)(e - q));
    if (!q) break;
    if ((size_t)(e - q) >= sizeof key - 1 && memcmp(q, key, sizeof key - 1) == 0) k++;
  }
  return k;
}

#define GROUP_ARGS "'id', id, 'user', user, 'city', city, 'plan', plan, 'seats', seats, " \
                   "'price', price"

int main(int argc, char **argv) {
  if (argc != 4 || (strcmp(argv[1], "jj_export") && strcmp(argv[1], "jj_group") &&
                    strcmp(argv[1], "json"))) {
    fprintf(stderr, "usage: %s jj_export|jj_group|json SOURCE.db OUT\n", argv[0]);
    return 2;
  }
  const char *method = argv[1], *out = argv[3];
  sqlite3 *db = NULL;
  if (sqlite3_open_v2(argv[2], &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) die(db, argv[2]);
  sqlite3_enable_load_extension(db, 1);
  const char *ext = getenv("JJ_EXTENSION") ? getenv("JJ_EXTENSION") : "./jalapenojson";
  char *msg = NULL;
  if (sqlite3_load_extension(db, ext, NULL, &msg) != SQLITE_OK) {
    fprintf(stderr, "export_scale: cannot load %s: %s\n", ext, msg ? msg : "?");
    return 3;
  }
  int64_t want_rows = one_int(db, "SELECT count(*) FROM t", NULL);
  remove(out);

  const char *sql = strcmp(method, "jj_export") == 0
                        ? "SELECT jj_export(?1, 'SELECT * FROM t', 'joined:d')"
                    : strcmp(method, "jj_group") == 0
                        ? "SELECT jj_write(?1, (SELECT jj_group(" GROUP_ARGS ", 'joined:d', joined) "
                          "FROM t))"
                        : "SELECT json_group_array(json_object(" GROUP_ARGS ", 'joined', joined)) "
                          "FROM t";
  sqlite3_stmt *st;
  if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) die(db, sql);
  if (method[1] == 'j') sqlite3_bind_text(st, 1, out, -1, SQLITE_STATIC);
  long base = rss_kb();
  uint64_t t0 = now_ns();
  int rc = sqlite3_step(st);
  int64_t got_rows = -1;
  if (rc == SQLITE_ROW && method[1] == 's') { /* json: write the text out */
    const char *text = (const char *)sqlite3_column_text(st, 0);
    size_t len = (size_t)sqlite3_column_bytes(st, 0);
    FILE *f = fopen(out, "wb");
    if (!f || !text || fwrite(text, 1, len, f) != len || fclose(f) != 0) {
      fprintf(stderr, "export_scale: cannot write %s\n", out);
      return 3;
    }
    uint64_t ns = now_ns() - t0;
    got_rows = count_objects(text, len);
    printf("ok %s ns=%llu base_kb=%ld peak_kb=%ld bytes=%zu rows=%lld\n", method,
           (unsigned long long)ns, base, peak_kb(), len, (long long)got_rows);
  } else if (rc == SQLITE_ROW) {
    uint64_t ns = now_ns() - t0;
    long peak = peak_kb();
    sqlite3_finalize(st);
    st = NULL;
    FILE *f = fopen(out, "rb");
    long bytes = -1;
    if (f && fseek(f, 0, SEEK_END) == 0) bytes = ftell(f);
    if (f) fclose(f);
    got_rows = one_int(db, "SELECT count(*) FROM jj_open(?1)", out);
    printf("ok %s ns=%llu base_kb=%ld peak_kb=%ld bytes=%ld rows=%lld\n", method,
           (unsigned long long)ns, base, peak, bytes, (long long)got_rows);
  } else {
    uint64_t ns = now_ns() - t0;
    printf("failed %s ns=%llu peak_kb=%ld error=%s\n", method, (unsigned long long)ns, peak_kb(),
           sqlite3_errmsg(db));
    sqlite3_finalize(st);
    sqlite3_close(db);
    remove(out);
    return 4;
  }
  sqlite3_finalize(st);
  sqlite3_close(db);
  remove(out);
  if (got_rows != want_rows) {
    fprintf(stderr, "export_scale: %s wrote %lld rows, the table has %lld\n", method,
            (long long)got_rows, (long long)want_rows);
    return 3;
  }
  return 0;
}
