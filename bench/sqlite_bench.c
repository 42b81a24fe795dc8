/*
** sqlite_bench.c — the same rows read through SQLite in several ways, and
** exported two ways.  One measurement per process:
**
**   sqlite_bench TASK READER SET.json SET.jj SET.sum
**
**   TASK    scan    SELECT count(*), sum(id)+sum(seats), sum(price),
**                   sum(length(user)+length(city)+length(plan)+length(joined))
**           price   SELECT sum(price)
**           count   SELECT count(*)
**           since   SELECT count(*) ... WHERE joined >= '2024-01-01'
**           row     the middle row by rowid, every column
**           open    a typed table's cold start: CREATE, the first query
**                   (rowid = 1, which reads the whole file in, or maps it),
**                   DROP; the cost of reading instead of mapping
**           export  the native table as one document: jj_group(...) against
**                   json_group_array(json_object(...))
**   READER  native  an in-memory table (rows imported before timing)
**           floor   the do-nothing virtual table of sqlite_floor.c over
**                   the native table's rows (loaded at CREATE, before
**                   timing): what a virtual table cannot beat
**           floorlen  the same, text handed over with its length (not
**                   NUL-terminated: what SQLite then copies)
**           json1   the JSON document bound as TEXT, json_each + ->>
**           jjfile  CREATE VIRTUAL TABLE temp.r USING jj_open('SET.jj')
**                   (the default: the file is read into memory)
**           jjmmap  the same with mmap=1 (the file mapped, not copied)
**           jjblob  the same table's function form r(?1), the .jj bytes
**                   bound as a BLOB
**           jjrecord  the record form jj_open(?1) over the same BLOB, each
**                   column as record->>'name'
**           (export: jj or json1, both over the native table)
**
** The extension is loaded with sqlite3_load_extension from $JJ_EXTENSION
** (default ./jalapenojson).  A run is sqlite3_step until SQLITE_DONE on a
** statement prepared before timing, reading every result column; the reset
** that follows (which frees) is not timed.  Every run's result is checked
** against SET.sum; export results against SET.jj (jj_group) or, for
** json_group_array, parsed with cJSON once and then compared by length and
** CRC-32 on every run.
*/
#define _POSIX_C_SOURCE 200809L
#include <sqlite3.h>

#include "rows.h"
#include "sqlite_floor.h"

typedef struct ctx {
  const char *task, *reader;
  sqlite3 *db;
  sqlite3_stmt *stmt;
  expect_doc expect;     /* export: the document to produce */
  int export_checked;    /* json1 export: first output verified */
  bench_sum export_sum;  /* json1 export: {length, CRC} of the verified output */
  const char *sums;      /* the .sum text (for the json1 export check) */
  char *create_sql;      /* open: the CREATE VIRTUAL TABLE of one run */
} ctx;

static void die_sql(sqlite3 *db, const char *what) {
  fprintf(stderr, "bench: %s: %s\n", what, sqlite3_errmsg(db));
  exit(3);
}

static void exec(sqlite3 *db, const char *sql) {
  char *msg = NULL;
  if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK) {
    fprintf(stderr, "bench: %s\n  in: %s\n", msg ? msg : "error", sql);
    exit(3);
  }
}

/* Text of column c, added to the checksum (pointer + length). */
static void add_col_text(sqlite3_stmt *st, int c, bench_sum *s) {
  const unsigned char *p = sqlite3_column_text(st, c);
  bench_add_text(s, (const char *)p, (size_t)sqlite3_column_bytes(st, c));
}

/* The json_group_array output: verified in full once (parsed with cJSON,
** every value summed as the "all" task does), then by length + CRC. */
static int check_json_export(ctx *x, const char *out, size_t len, bench_sum *s) {
  bench_sum got;
  memset(&got, 0, sizeof got);
  got.count = len;
  got.crc = bench_crc(0, out, len);
  if (!x->export_checked) {
    bench_sum all, want = bench_expect(x->sums, "all");
    memset(&all, 0, sizeof all);
    cJSON *root = cJSON_ParseWithLength(out, len);
    const cJSON *o;
    cJSON_ArrayForEach(o, root) {
      for (int c = 0; c < BENCH_COLUMNS; c++) {
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, bench_names[c]);
        if (bench_kinds[c] == KIND_INT && cJSON_IsNumber(v)) bench_add_int(&all, (int64_t)v->valuedouble);
        else if (bench_kinds[c] == KIND_FLOAT && cJSON_IsNumber(v)) bench_add_float(&all, v->valuedouble);
        else if (cJSON_IsString(v)) bench_add_text(&all, v->valuestring, strlen(v->valuestring));
      }
    }
    cJSON_Delete(root);
    if (!bench_sum_equal(&all, &want)) {
      bench_sum_print(stderr, "bench: json_group_array output reads as", &all);
      bench_sum_print(stderr, "  expected", &want);
      return -1;
    }
    x->export_sum = got;
    x->export_checked = 1;
  }
  *s = got;
  return 0;
}

/* One export run: the one-row aggregate, timed until its text is in hand
** (the pointer is only valid until the next step, so it is checked here;
** the final step and the reset, which free, are not timed). */
static int run_export(ctx *x, bench_sum *s, uint64_t *ns) {
  sqlite3_stmt *st = x->stmt;
  int fail = 1;
  uint64_t t0 = bench_now_ns();
  if (sqlite3_step(st) == SQLITE_ROW) {
    const char *out = (const char *)sqlite3_column_text(st, 0);
    size_t len = (size_t)sqlite3_column_bytes(st, 0);
    *ns = bench_now_ns() - t0;
    if (out && strcmp(x->reader, "jj") == 0) {
      expect_doc_sum(&x->expect, out, len, s);
      fail = 0;
    } else if (out) {
      fail = check_json_export(x, out, len, s) != 0;
    }
    if (sqlite3_step(st) != SQLITE_DONE) fail = 1;
  }
  if (fail && sqlite3_errcode(x->db) != SQLITE_OK && sqlite3_errcode(x->db) < SQLITE_ROW)
    fprintf(stderr, "bench: %s/%s: %s\n", x->task, x->reader, sqlite3_errmsg(x->db));
  sqlite3_reset(st);
  return fail ? -1 : 0;
}

/* One cold start of a typed table: CREATE, the first query (rowid = 1:
** the whole document is read in, or mapped, then row 1 is found), DROP.
** The rowid read back is the checksum. */
static int run_open(ctx *x, bench_sum *s, uint64_t *ns) {
  sqlite3_stmt *st = NULL;
  int fail = 1;
  uint64_t t0 = bench_now_ns();
  if (sqlite3_exec(x->db, x->create_sql, NULL, NULL, NULL) == SQLITE_OK &&
      sqlite3_prepare_v2(x->db, "SELECT rowid FROM temp.o WHERE rowid = 1", -1, &st, NULL) ==
          SQLITE_OK &&
      sqlite3_step(st) == SQLITE_ROW) {
    bench_add_int(s, sqlite3_column_int64(st, 0));
    fail = sqlite3_step(st) != SQLITE_DONE;
  }
  sqlite3_finalize(st);
  fail |= sqlite3_exec(x->db, "DROP TABLE temp.o", NULL, NULL, NULL) != SQLITE_OK;
  *ns = bench_now_ns() - t0;
  if (fail) fprintf(stderr, "bench: open/%s: %s\n", x->reader, sqlite3_errmsg(x->db));
  return fail ? -1 : 0;
}

/* One run: step the prepared statement to the end, reading every column
** into the checksum. */
static int run_query(void *p, bench_sum *s, uint64_t *ns) {
  ctx *x = (ctx *)p;
  if (x->task[0] == 'e') return run_export(x, s, ns);
  if (x->task[0] == 'o') return run_open(x, s, ns);
  sqlite3_stmt *st = x->stmt;
  int rc, fail = 0;
  uint64_t t0 = bench_now_ns();
  while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
    switch (x->task[0]) {
      case 's':
        if (x->task[1] == 'c') { /* scan */
          s->count = (uint64_t)sqlite3_column_int64(st, 0);
          s->sum_int = sqlite3_column_int64(st, 1);
          s->sum_float = sqlite3_column_double(st, 2);
          s->chars = (uint64_t)sqlite3_column_int64(st, 3);
        } else { /* since */
          s->count = (uint64_t)sqlite3_column_int64(st, 0);
        }
        break;
      case 'p':
        s->sum_float = sqlite3_column_double(st, 0);
        break;
      case 'c': /* count */
        s->count = (uint64_t)sqlite3_column_int64(st, 0);
        break;
      default: /* row */
        for (int c = 0; c < BENCH_COLUMNS; c++) {
          if (sqlite3_column_type(st, c) == SQLITE_NULL) fail = 1;
          else if (bench_kinds[c] == KIND_INT) bench_add_int(s, sqlite3_column_int64(st, c));
          else if (bench_kinds[c] == KIND_FLOAT) bench_add_float(s, sqlite3_column_double(st, c));
          else add_col_text(st, c, s);
        }
        break;
    }
  }
  *ns = bench_now_ns() - t0;
  if (rc != SQLITE_DONE) {
    fprintf(stderr, "bench: %s/%s: %s\n", x->task, x->reader, sqlite3_errmsg(x->db));
    fail = 1;
  }
  sqlite3_reset(st);
  return fail ? -1 : 0;
}

/* The SQL of a task for a reader; FROM is the row source. */
static char *task_sql(const char *task, const char *reader) {
  int json = strcmp(reader, "json1") == 0, rec = strcmp(reader, "jjrecord") == 0;
  const char *from = json ? "json_each(?1)"
                     : rec ? "jj_open(?1)"
                     : strcmp(reader, "native") == 0 ? "t"
                     : strncmp(reader, "floor", 5) == 0 ? "temp.f"
                     : strcmp(reader, "jjfile") == 0 || strcmp(reader, "jjmmap") == 0
                         ? "temp.r"
                                                     : "temp.r(?1)";
  /* a column: plain, or value->>'name' over json_each */
#define COL(n) (json ? "value->>'" n "'" : rec ? "record->>'" n "'" : n)
  if (strcmp(task, "scan") == 0)
    return sqlite3_mprintf("SELECT count(*), sum(%s)+sum(%s), sum(%s), "
                           "sum(length(%s)+length(%s)+length(%s)+length(%s)) FROM %s",
                           COL("id"), COL("seats"), COL("price"), COL("user"), COL("city"),
                           COL("plan"), COL("joined"), from);
  if (strcmp(task, "price") == 0) return sqlite3_mprintf("SELECT sum(%s) FROM %s", COL("price"), from);
  if (strcmp(task, "count") == 0) return sqlite3_mprintf("SELECT count(*) FROM %s", from);
  if (strcmp(task, "since") == 0)
    return sqlite3_mprintf("SELECT count(*) FROM %s WHERE %s >= ?2", from, COL("joined"));
  if (strcmp(task, "row") == 0) {
    if (json)
      return sqlite3_mprintf(
          "WITH r(j) AS MATERIALIZED (SELECT ?1 -> ('$[' || (?2 - 1) || ']')) "
          "SELECT j->>'id', j->>'user', j->>'city', j->>'plan', j->>'seats', j->>'price', "
          "j->>'joined' FROM r");
    if (rec)
      return sqlite3_mprintf("SELECT %s, %s, %s, %s, %s, %s, %s FROM %s WHERE row = ?2",
                             COL("id"), COL("user"), COL("city"), COL("plan"), COL("seats"),
                             COL("price"), COL("joined"), from);
    return sqlite3_mprintf("SELECT id, user, city, plan, seats, price, joined FROM %s "
                           "WHERE rowid = ?2", from);
  }
#undef COL
  if (strcmp(reader, "jj") == 0)
    return sqlite3_mprintf("SELECT jj_group('id', id, 'user', user, 'city', city, 'plan', plan, "
                           "'seats', seats, 'price', price, 'joined:d', joined) FROM t");
  return sqlite3_mprintf("SELECT json_group_array(json_object('id', id, 'user', user, 'city', "
                         "city, 'plan', plan, 'seats', seats, 'price', price, 'joined', joined)) "
                         "FROM t");
}

/* Import the rows of the JSON document into the in-memory table t (not
** timed), in document order so that rowid N is row N. */
static void import_native(sqlite3 *db, const char *json, size_t len) {
  sqlite3_stmt *st;
  exec(db, "CREATE TABLE t(id INTEGER, user TEXT, city TEXT, plan TEXT, seats INTEGER, "
           "price REAL, joined TEXT)");
  if (sqlite3_prepare_v2(db,
                         "INSERT INTO t SELECT value->>'id', value->>'user', value->>'city', "
                         "value->>'plan', value->>'seats', value->>'price', value->>'joined' "
                         "FROM json_each(?1) ORDER BY key",
                         -1, &st, NULL) != SQLITE_OK)
    die_sql(db, "import");
  sqlite3_bind_text(st, 1, json, (int)len, SQLITE_STATIC);
  if (sqlite3_step(st) != SQLITE_DONE) die_sql(db, "import");
  sqlite3_finalize(st);
}

int main(int argc, char **argv) {
  const char *tasks = "scan price count since row export open";
  if (argc == 2 && strcmp(argv[1], "version") == 0) { /* for the report's header */
    printf("%s\n", sqlite3_libversion());
    return 0;
  }
  if (argc != 6 || !strstr(tasks, argv[1])) bench_usage(argv[0], tasks);
  ctx x;
  memset(&x, 0, sizeof x);
  x.task = argv[1];
  x.reader = argv[2];
  int is_export = strcmp(x.task, "export") == 0, is_open = strcmp(x.task, "open") == 0;
  const char *readers = is_export ? " jj json1 "
                        : is_open ? " jjfile jjmmap "
                                  : " native floor floorlen json1 jjfile jjmmap jjblob jjrecord ";
  char padded[32];
  snprintf(padded, sizeof padded, " %s ", x.reader);
  if (strlen(x.reader) > 16 || !strstr(readers, padded)) bench_usage(argv[0], tasks);
  bench_crc_init();

  size_t json_len, jj_len, sum_len;
  char *json = bench_load(argv[3], &json_len);
  char *jj = bench_load(argv[4], &jj_len);
  x.sums = bench_load(argv[5], &sum_len);
  if (sqlite3_open(":memory:", &x.db) != SQLITE_OK) die_sql(x.db, "open");
  /* The extension only where it is measured: the peers run without it. */
  if (x.reader[0] == 'j' && x.reader[1] == 'j') {
    sqlite3_enable_load_extension(x.db, 1);
    const char *ext = getenv("JJ_EXTENSION") ? getenv("JJ_EXTENSION") : "./jalapenojson";
    char *msg = NULL;
    if (sqlite3_load_extension(x.db, ext, NULL, &msg) != SQLITE_OK) {
      fprintf(stderr, "bench: cannot load %s: %s\n", ext, msg ? msg : "?");
      return 3;
    }
  }

  /* What the reader reads, set up before timing. */
  int floor = strncmp(x.reader, "floor", 5) == 0;
  if (strcmp(x.reader, "native") == 0 || floor || is_export) import_native(x.db, json, json_len);
  if (floor) {
    if (floor_register(x.db) != SQLITE_OK) die_sql(x.db, "bench_floor");
    exec(x.db, strcmp(x.reader, "floorlen") == 0
                   ? "CREATE VIRTUAL TABLE temp.f USING bench_floor(t, length)"
                   : "CREATE VIRTUAL TABLE temp.f USING bench_floor(t)");
  }
  int mapped = strcmp(x.reader, "jjmmap") == 0;
  if (is_open) {
    x.create_sql = sqlite3_mprintf("CREATE VIRTUAL TABLE temp.o USING jj_open(%Q%s)", argv[4],
                                   mapped ? ", mmap=1" : "");
  } else if (strcmp(x.reader, "jjfile") == 0 || mapped || strcmp(x.reader, "jjblob") == 0) {
    char *sql = sqlite3_mprintf("CREATE VIRTUAL TABLE temp.r USING jj_open(%Q%s)", argv[4],
                                mapped ? ", mmap=1" : "");
    exec(x.db, sql);
    sqlite3_free(sql);
  }
  char *sql = is_open ? sqlite3_mprintf("SELECT 1") : task_sql(x.task, x.reader);
  if (sqlite3_prepare_v2(x.db, sql, -1, &x.stmt, NULL) != SQLITE_OK) die_sql(x.db, sql);
  sqlite3_free(sql);
  if (strcmp(x.reader, "json1") == 0 && !is_export)
    sqlite3_bind_text(x.stmt, 1, json, (int)json_len, SQLITE_STATIC);
  if (strcmp(x.reader, "jjblob") == 0 || strcmp(x.reader, "jjrecord") == 0)
    sqlite3_bind_blob(x.stmt, 1, jj, (int)jj_len, SQLITE_STATIC);
  if (strcmp(x.task, "since") == 0) {
    const char *since = bench_sum_get(x.sums, "since");
    if (!since) bench_die("%s has no since date", argv[5]);
    sqlite3_bind_text(x.stmt, 2, since, 10, SQLITE_STATIC);
  }
  if (strcmp(x.task, "row") == 0) sqlite3_bind_int64(x.stmt, 2, bench_sum_int(x.sums, "middle_row"));

  /* What the run must read.  SQLite 3.43+ sums with Kahan-Babuska-
  ** Neumaier: compare with that sum, within 1e-12 relative. */
  bench_sum want;
  int kbn = sqlite3_libversion_number() >= 3043000;
  if (is_export) {
    x.expect = expect_doc_load(argv[4]);
    want = x.expect.sum;
    if (strcmp(x.reader, "json1") == 0) {
      /* the first run defines {length, CRC}; it is verified in full */
      bench_sum probe;
      uint64_t ns;
      memset(&probe, 0, sizeof probe);
      if (run_query(&x, &probe, &ns) != 0) bench_die("%s", "json_group_array output is wrong");
      want = x.export_sum;
    }
  } else if (is_open) {
    memset(&want, 0, sizeof want);
    bench_add_int(&want, 1); /* the rowid of row 1 */
  } else {
    char key[32];
    snprintf(key, sizeof key, "sql.%s", x.task);
    want = bench_expect(x.sums, key);
    if (kbn && (x.task[0] == 'p' || x.task[1] == 'c')) {
      snprintf(key, sizeof key, "sql.%s.sum_float_kbn", x.task);
      const char *v = bench_sum_get(x.sums, key);
      if (v) want.sum_float = strtod(v, NULL);
      bench_float_tol = 1e-12;
    }
  }
  char label[32];
  snprintf(label, sizeof label, "%s", x.reader);
  bench_measure(x.task, label, run_query, &x, &want);
  sqlite3_finalize(x.stmt);
  sqlite3_free(x.create_sql);
  sqlite3_close(x.db);
  free(json);
  free(jj);
  free((char *)x.sums);
  free(x.expect.bytes); /* export only; NULL (zeroed ctx) otherwise */
  return 0;
}
