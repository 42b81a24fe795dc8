/*
** version.c — jj_version(): the extension's version ("0.1.0"), the
** library's JJ_VERSION_STRING it was built with, for bug reports and for
** checking which build a connection loaded, as sqlite_version() is.
*/
#include "ext.h"

void jjx_version_func(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  (void)argc;
  (void)argv;
  sqlite3_result_text(ctx, jj_version(), -1, SQLITE_STATIC);
}
