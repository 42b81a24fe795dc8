/*
** decl.c — the SOURCE argument of CREATE VIRTUAL TABLE ... USING
** jj_open(SOURCE, ...), as SQLite hands it over: the text as written in the
** statement, unparsed.  The typed table keeps it (jjx_decl) so that the
** document itself is read only by a scan (source.c opens it then).
** Called by vtab.c; calls glob.c and util.c.
**
**   jj_open('rows.jj')       a quoted file name, dequoted
**   jj_open(rows.jj)         a bare word, taken as written
**   jj_open('{"jalapeno..')  a document (text starting with '{')
**   jj_open(x'1f8b08...')    a BLOB literal: a document's bytes
**   jj_open('log-*.jj')      a glob pattern (glob.c); a name whose glob
**                            characters are all escaped is one file,
**                            unescaped
*/
#include <string.h>

#include "ext.h"

static int hexval(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

/* x'hex' (z[0..n) is the whole literal) into d->bytes. */
static int decode_blob(jjx_decl *d, const char *z, size_t n, char **pzErr) {
  const char *hex = z + 2;
  size_t digits = n - 3;
  const char *why = digits % 2 ? "an odd number of hex digits" : NULL;
  for (size_t i = 0; !why && i < digits; i++)
    if (hexval(hex[i]) < 0) why = "a character that is not a hex digit";
  if (why) {
    sqlite3_str *m = sqlite3_str_new(NULL);
    sqlite3_str_appendall(m, "jj_open: the BLOB literal ");
    jjx_show(m, z, n);
    sqlite3_str_appendf(m, " has %s", why);
    *pzErr = sqlite3_str_finish(m);
    return *pzErr ? SQLITE_ERROR : SQLITE_NOMEM;
  }
  d->kind = JJX_DECL_BLOB;
  d->len = digits / 2;
  d->bytes = sqlite3_malloc64(d->len ? d->len : 1);
  d->label = sqlite3_mprintf("blob");
  if (!d->bytes || !d->label) return SQLITE_NOMEM;
  for (size_t i = 0; i < d->len; i++)
    d->bytes[i] = (char)(hexval(hex[2 * i]) << 4 | hexval(hex[2 * i + 1]));
  return SQLITE_OK;
}

int jjx_decl_parse(jjx_decl *d, const char *z, size_t n, char **pzErr) {
  memset(d, 0, sizeof *d);
  *pzErr = NULL;
  if (n >= 3 && (z[0] == 'x' || z[0] == 'X') && z[1] == '\'' &&
      z[n - 1] == '\'') {
    int rc = decode_blob(d, z, n, pzErr);
    if (rc != SQLITE_OK) jjx_decl_free(d);
    return rc;
  }
  char *text = jjx_dequote(z, n);
  if (!text) return SQLITE_NOMEM;
  size_t len = strlen(text);
  if (jjx_looks_like_document(text, len)) {
    d->kind = JJX_DECL_TEXT;
    d->bytes = text;
    d->len = len;
    d->label = sqlite3_mprintf("blob");
    if (d->label) return SQLITE_OK;
    jjx_decl_free(d);
    return SQLITE_NOMEM;
  }
  d->kind = JJX_DECL_PATH;
  d->label = text;
  switch (jjx_glob_kind(text)) {
    case JJX_GLOB_PATTERN:
      d->glob = 1;
      break;
    case JJX_GLOB_ESCAPED:
      d->label = jjx_glob_unescape(text);
      sqlite3_free(text);
      if (!d->label) return SQLITE_NOMEM;
      break;
    default:
      break;
  }
  return SQLITE_OK;
}

void jjx_decl_free(jjx_decl *d) {
  sqlite3_free(d->label);
  sqlite3_free(d->bytes);
  memset(d, 0, sizeof *d);
}
