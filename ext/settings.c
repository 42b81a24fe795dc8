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
    sqlite3_free(s);
  }
}

void jjx_max_size_func(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  jjx_settings *s = sqlite3_user_data(ctx);
  sqlite3_int64 old = (sqlite3_int64)s->max_size;
  if (argc == 1) {
    sqlite3_value *v = argv[0];
    if (sqlite3_value_type(v) != SQLITE_INTEGER ||
        sqlite3_value_int64(v) < 0) {
      jjx_ctx_err(ctx, "jj_max_size: expected a number of bytes >= 0 "
                       "(0: no limit)");
      return;
    }
    s->max_size = (uint64_t)sqlite3_value_int64(v);
  }
  sqlite3_result_int64(ctx, old);
}

/* ---------------------------------------------------------------------- */
/* Interrupt polling                                                       */
/* ---------------------------------------------------------------------- */

void jjx_poll_begin(jjx_poll *p, sqlite3 *db) {
  memset(p, 0, sizeof *p);
  p->db = db;
  if (!db) return;
#if SQLITE_VERSION_NUMBER >= 3041000
  if (sqlite3_libversion_number() >= 3041000) {
    p->native = 1;
    return;
  }
#endif
  /* Out of memory here only means the read cannot be interrupted. */
  if (sqlite3_prepare_v2(db, "SELECT 1", -1, &p->probe, NULL) != SQLITE_OK) {
    sqlite3_finalize(p->probe);
    p->probe = NULL;
  }
}

int jjx_poll_check(void *ctx) {
  jjx_poll *p = ctx;
  if (!p->db) return 0;
#if SQLITE_VERSION_NUMBER >= 3041000
  if (p->native) return sqlite3_is_interrupted(p->db);
#endif
  if (!p->probe) return 0;
  int rc = sqlite3_step(p->probe);
  sqlite3_reset(p->probe);
  return rc == SQLITE_INTERRUPT;
}

void jjx_poll_end(jjx_poll *p) {
  sqlite3_finalize(p->probe);
  memset(p, 0, sizeof *p);
}
