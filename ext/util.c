/*
** util.c — small helpers every file of the extension uses: one error helper
** per error sink (table, cursor, function context; each frees the message
** it replaces, as zipfile.c does), SQL dequoting, excerpts for messages
** and what a SOURCE looks like
** before it is read (a document or a name; rows estimated from bytes).
** A column type's names come from the core's type table (jj_type_sql,
** jj_type_short).  Calls only SQLite and the core: every file stands on
** it.
*/
#include <stdarg.h>
#include <string.h>

#include "ext.h"

/* Replace the table's message with msg (owned from now on).  A NULL msg
** means formatting ran out of memory: the statement then fails with
** SQLITE_NOMEM and no message rather than a wrong one. */
int jjx_vtab_take(sqlite3_vtab *vtab, char *msg, int rc) {
  sqlite3_free(vtab->zErrMsg);
  vtab->zErrMsg = msg;
  return msg ? rc : SQLITE_NOMEM;
}

int jjx_vtab_err(sqlite3_vtab *vtab, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *msg = sqlite3_vmprintf(fmt, ap);
  va_end(ap);
  return jjx_vtab_take(vtab, msg, SQLITE_ERROR);
}

/* A cursor's error is reported through its table (SQLite reads
** pVtab->zErrMsg after xFilter/xNext fail). */
int jjx_cursor_err(sqlite3_vtab_cursor *cur, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *msg = sqlite3_vmprintf(fmt, ap);
  va_end(ap);
  return jjx_vtab_take(cur->pVtab, msg, SQLITE_ERROR);
}

/* sqlite3_result_error copies the text, so the formatted message is freed
** here; a later error on the same context replaces the earlier one. */
void jjx_ctx_err(sqlite3_context *ctx, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *msg = sqlite3_vmprintf(fmt, ap);
  va_end(ap);
  if (!msg) {
    sqlite3_result_error_nomem(ctx);
    return;
  }
  sqlite3_result_error(ctx, msg, -1);
  sqlite3_free(msg);
}

int jjx_parse_bool(const char *z) {
  static const char *const yes[] = {"1", "yes", "on", "true"};
  static const char *const no[] = {"0", "no", "off", "false"};
  for (size_t i = 0; i < 4; i++) {
    if (sqlite3_stricmp(z, yes[i]) == 0) return 1;
    if (sqlite3_stricmp(z, no[i]) == 0) return 0;
  }
  return -1;
}

char *jjx_dequote(const char *z, size_t n) {
  char q = n >= 2 ? z[0] : 0, end = q == '[' ? ']' : q;
  char *out = sqlite3_malloc64(n + 1);
  size_t o = 0;
  if (!out) return NULL;
  if ((q == '\'' || q == '"' || q == '`' || q == '[') && z[n - 1] == end) {
    for (size_t i = 1; i + 1 < n; i++) {
      out[o++] = z[i];
      if (z[i] == end && q != '[' && i + 2 < n && z[i + 1] == end) i++;
    }
  } else {
    memcpy(out, z, n);
    o = n;
  }
  out[o] = '\0';
  return out;
}

/* What a SOURCE is before it is read (decl.c, plan.c, source.c). */
/* JSON whitespace, the only bytes allowed before a document's '{'. */
static int is_ws(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

int jjx_looks_like_document(const char *p, size_t len) {
  size_t i = 0;
  while (i < len && is_ws(p[i])) i++;
  return i < len && p[i] == '{';
}

/* About 60 bytes a row, at least 1 (the planner's estimates, plan.c; the
** typed table's when the header has no "count", scan.c and source.c). */
int64_t jjx_estimate_rows(uint64_t bytes) {
  uint64_t n = bytes / 60;
  if (n < 1) n = 1;
  return n > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)n;
}

int jjx_rc(jj_code code) {
  switch (code) {
    case JJ_OK: return SQLITE_OK;
    case JJ_ERR_NOMEM: return SQLITE_NOMEM;
    case JJ_ERR_INTERRUPTED: return SQLITE_INTERRUPT;
    default: return SQLITE_ERROR;
  }
}

size_t jjx_utf8_len(const unsigned char *p, size_t n) {
  size_t len = p[0] >= 0xf0 ? 4 : p[0] >= 0xe0 ? 3 : p[0] >= 0xc2 ? 2 : 0;
  if (len == 0 || p[0] > 0xf4 || n < len) return 0;
  for (size_t i = 1; i < len; i++)
    if ((p[i] & 0xc0) != 0x80) return 0;
  if (len == 3 && ((p[0] == 0xe0 && p[1] < 0xa0) ||   /* overlong */
                   (p[0] == 0xed && p[1] >= 0xa0)))   /* surrogate */
    return 0;
  if (len == 4 && ((p[0] == 0xf0 && p[1] < 0x90) ||   /* overlong */
                   (p[0] == 0xf4 && p[1] >= 0x90)))   /* > U+10FFFF */
    return 0;
  return len;
}

void jjx_show(sqlite3_str *out, const char *text, size_t len) {
  const unsigned char *p = (const unsigned char *)text;
  size_t i = 0;
  sqlite3_str_appendchar(out, 1, '"');
  while (i < len && i < 40) {
    size_t n;
    if (p[i] >= 0x20 && p[i] < 0x7f) {
      if (p[i] == '"' || p[i] == '\\') sqlite3_str_appendchar(out, 1, '\\');
      sqlite3_str_appendchar(out, 1, (char)p[i++]);
    } else if (p[i] >= 0x80 && (n = jjx_utf8_len(p + i, len - i)) > 0) {
      sqlite3_str_append(out, (const char *)p + i, (int)n);
      i += n;
    } else {
      sqlite3_str_appendf(out, "\\x%02x", p[i++]);
    }
  }
  sqlite3_str_appendchar(out, 1, '"');
  if (i < len) sqlite3_str_appendall(out, "...");
}

/* See ext.h. */
int jjx_byte_setting(sqlite3_context *ctx, int argc, sqlite3_value **argv,
                     const char *fn, const char *zero, uint64_t *setting) {
  sqlite3_int64 old = (sqlite3_int64)*setting;
  if (argc == 1) {
    sqlite3_value *v = argv[0];
    if (sqlite3_value_type(v) != SQLITE_INTEGER ||
        sqlite3_value_int64(v) < 0) {
      jjx_ctx_err(ctx, "%s: expected a number of bytes >= 0 (0: %s)", fn,
                  zero);
      return 0;
    }
    *setting = (uint64_t)sqlite3_value_int64(v);
  }
  sqlite3_result_int64(ctx, old);
  return argc == 1;
}

int jjx_state_connect(sqlite3 *db, void *aux, const char *decl,
                      sqlite3_vtab **ppVtab) {
  int rc = sqlite3_declare_vtab(db, decl);
  if (rc != SQLITE_OK) return rc;
  /* it names files this connection read: direct use only, as jj_open */
  if (sqlite3_libversion_number() >= 3031000) {
    rc = sqlite3_vtab_config(db, SQLITE_VTAB_DIRECTONLY);
    if (rc != SQLITE_OK) return rc;
  }
  jjx_state_table *t = sqlite3_malloc(sizeof *t);
  if (!t) return SQLITE_NOMEM;
  memset(t, 0, sizeof *t);
  t->cfg = aux;
  *ppVtab = &t->base;
  return SQLITE_OK;
}

int jjx_vtab_disconnect(sqlite3_vtab *vtab) {
  sqlite3_free(vtab->zErrMsg);
  sqlite3_free(vtab);
  return SQLITE_OK;
}

int jjx_cursor_new(size_t size, sqlite3_vtab_cursor **ppCur) {
  sqlite3_vtab_cursor *c = sqlite3_malloc64(size);
  if (!c) return SQLITE_NOMEM;
  memset(c, 0, size);
  *ppCur = c;
  return SQLITE_OK;
}

int jjx_snapshot_next(sqlite3_vtab_cursor *cur) {
  ((jjx_snapshot *)cur)->i++;
  return SQLITE_OK;
}

int jjx_snapshot_eof(sqlite3_vtab_cursor *cur) {
  const jjx_snapshot *c = (const jjx_snapshot *)cur;
  return c->i >= c->n;
}

int jjx_snapshot_rowid(sqlite3_vtab_cursor *cur, sqlite3_int64 *pRowid) {
  *pRowid = ((jjx_snapshot *)cur)->i + 1;
  return SQLITE_OK;
}
