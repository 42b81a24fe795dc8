/*
** settings.c — what belongs to one connection: its size limit, set and read
** with jj_max_size(), its document cache (cache.c, jj_cache_size()), and
** the interrupt polling of long reads.
**
**   SELECT jj_max_size();            the limit now (default 1073741824)
**   SELECT jj_max_size(50000000);    set it, returns the previous one
**   SELECT jj_max_size(0);           no limit (said explicitly)
**
** The limit is the most document bytes a scan of this connection holds: a
** file read, a BLOB or document copied, anything decompressed.  It applies
** to the record form, typed tables (whose max_size option can only lower
** it) and BLOB sources.  jj_max_size is SQLITE_DIRECTONLY: no view or
** trigger of a database file can raise it.
**
** Long reads (a file read or decompressed in xFilter, a glob's files) poll
** sqlite3_interrupt() and tick the progress handler through jjx_poll
** (below), so an application's progress display and cancel button work
** during them as during the rows of a query.
*/
#include <string.h>

#include "ext.h"

jjx_settings *jjx_settings_new(void) {
  jjx_settings *s = sqlite3_malloc(sizeof *s);
  if (!s) return NULL;
  memset(s, 0, sizeof *s);
  s->refs = 1; /* the entry point's, dropped when registration is done */
  s->max_size = JJX_DEFAULT_MAX_SIZE;
  s->cache.budget = JJX_DEFAULT_CACHE_SIZE;
  return s;
}

/* SQLite calls registrations' destructors with the connection's mutex
** held, and registers under it too, so a plain counter is enough. */
void *jjx_settings_ref(jjx_settings *s) {
  s->refs++;
  return s;
}

void jjx_settings_unref(void *p) {
  jjx_settings *s = p;
  if (s && --s->refs == 0) {
    jjx_cache_trim(&s->cache, 0); /* entries still read are detached */
    sqlite3_free(s->notes);
    jjx_rejects_free_all(s);
    sqlite3_free(s);
  }
}

void jjx_max_size_func(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  jjx_settings *s = sqlite3_user_data(ctx);
  jjx_byte_setting(ctx, argc, argv, "jj_max_size", "no limit", &s->max_size);
}

/* ---------------------------------------------------------------------- */
/* Interrupt polling and progress ticks                                    */
/* ---------------------------------------------------------------------- */

/* Why a nested statement.  SQLite (3.40, and no later version either) has
** no call that runs the progress handler or reads it back; the VDBE calls
** it after every N steps of the statement running, counting from that
** statement's SQLITE_STMTSTATUS_VM_STEP, which sqlite3_reset does not
** clear.  So steps of one kept probe statement add up across polls exactly
** as the steps of a long query do: with sqlite3_progress_handler(db, N,
** ...) the handler runs once every N of them, and its nonzero return fails
** that step with SQLITE_INTERRUPT, as does sqlite3_interrupt().
**
** The probe is "SELECT 1, 2, ..., 40" (43 VM steps a run in 3.40) rather
** than "SELECT 1" (4): the cost of a run is mostly sqlite3_step and
** sqlite3_reset themselves, so a VM step costs about 0.012 us instead of
** 0.04 (3.40, -O2, measured in a loop of a million runs).  Ticks smaller
** than a run are owed and paid by a later run; the probe runs as soon as
** anything is owed, so the handler never hears of fewer steps than were
** counted.  A MiB of reading (JJX_TICK_MIB steps) costs about 1.2 us of
** stepping, against the ~2 ms of decompressing it or ~0.2 ms of reading it
** plain from the page cache; a glob's file (JJX_TICK_FILE) about 0.12 us
** against the microseconds of opening it.  The prepare (about 0.15 M
** instructions, callgrind) is paid once per jjx_poll, at its first tick. */

void jjx_poll_begin(jjx_poll *p, sqlite3 *db) {
  memset(p, 0, sizeof *p);
  p->db = db;
}

/* sqlite3_interrupt() without a statement: 3.41 and newer only. */
static int interrupted(sqlite3 *db) {
#if SQLITE_VERSION_NUMBER >= 3041000
  if (sqlite3_libversion_number() >= 3041000) return sqlite3_is_interrupted(db);
#endif
  (void)db;
  return 0;
}

/* Prepare the probe.  Out of memory here only means no ticks (and, before
** 3.41, no interrupt) for this read. */
static void prepare_probe(jjx_poll *p) {
  static const char sql[] =
      "SELECT 1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,"
      "24,25,26,27,28,29,30,31,32,33,34,35,36,37,38,39,40";
  p->tried = 1;
  if (sqlite3_prepare_v2(p->db, sql, -1, &p->probe, NULL) != SQLITE_OK) {
    sqlite3_finalize(p->probe);
    p->probe = NULL;
  }
}

int jjx_poll_tick(jjx_poll *p, int steps) {
  if (!p->db) return 0;
  if (!p->tried) prepare_probe(p);
  if (!p->probe) return interrupted(p->db);
  p->owed += steps;
  if (p->owed <= 0) return interrupted(p->db); /* paid by an earlier run */
  /* Runs until nothing is owed (each runs VM steps, whatever the version
  ** counts; the loop ends after `steps` runs at most all the same). */
  for (int i = 0; i < steps && p->owed > 0; i++) {
    int start = sqlite3_stmt_status(p->probe, SQLITE_STMTSTATUS_VM_STEP, 0);
    int rc = sqlite3_step(p->probe);
    sqlite3_reset(p->probe);
    if (rc == SQLITE_INTERRUPT) {
      p->owed = 0;
      return 1;
    }
    int ran = sqlite3_stmt_status(p->probe, SQLITE_STMTSTATUS_VM_STEP, 0) -
              start;
    p->owed -= ran > 0 ? ran : 1;
  }
  if (p->owed > 0) p->owed = 0; /* a version that counts no steps */
  return 0;
}

int jjx_poll_check(void *ctx) {
  return jjx_poll_tick(ctx, JJX_TICK_MIB);
}

void jjx_poll_end(jjx_poll *p) {
  sqlite3_finalize(p->probe);
  memset(p, 0, sizeof *p);
}

/* Validation is done here rather than by jj_parse_opts so that it polls:
** the core's own JJ_PARSE_VALIDATE has no callback. */
jj_doc *jjx_parse_polled(const char *p, size_t n, unsigned flags,
                         jjx_poll *poll, jj_error *err) {
  jj_doc *doc = jj_parse_opts(p, n, flags & ~JJ_PARSE_VALIDATE, 0, err);
  if (!doc || !(flags & JJ_PARSE_VALIDATE)) return doc;
  jj_code code = jj_doc_validate_poll(
      doc, poll && poll->db ? jjx_poll_check : NULL, poll, err);
  if (code == JJ_OK) return doc;
  jj_doc_free(doc);
  return NULL;
}

jj_doc *jjx_parse_checked(sqlite3 *db, const char *p, size_t n,
                          jj_error *err) {
  jjx_poll poll;
  jjx_poll_begin(&poll, db);
  jj_doc *doc = jjx_parse_polled(p, n, JJ_PARSE_VALIDATE, &poll, err);
  jjx_poll_end(&poll);
  return doc;
}
