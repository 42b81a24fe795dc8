/*
** notes.c — the decisions of type inference where SQL can see them.
**
**   SELECT jj_export('out.jj', 'SELECT * FROM t');
**   SELECT jj_notes();
**   -> column "qty": integers (row 1, 3), text (row 7, "n/a") -> s
**
** The converter tells each decision it takes (a mixed column made text, a
** value made null, a header renamed) as a sentence; the CLI prints them
** and the bindings raise warnings.  In SQL a function's result is its
** value, so jj_group, jj_export, jj_from_json and jj_from_csv collect
** theirs while they run, and when one finishes without an error its
** sentences replace the connection's: jj_notes() returns them, one a line
** (NULL when that call decided nothing), until the next such call
** finishes.  Each sentence also goes to sqlite3_log() as SQLITE_NOTICE,
** prefixed with the function's name, so an application with a log
** callback sees every group's of a GROUP BY, not only the last.
*/
#include <string.h>

#include "ext.h"

void jjx_notes_begin(jjx_notes *n, const char *fn) {
  memset(n, 0, sizeof *n);
  n->fn = fn;
}

void jjx_note(void *ctx, const char *msg) {
  jjx_notes *n = ctx;
  sqlite3_log(SQLITE_NOTICE, "%s: %s", n->fn, msg);
  if (!n->text && !(n->text = sqlite3_str_new(NULL))) {
    n->lost = 1;
    return;
  }
  if (n->count++) sqlite3_str_appendchar(n->text, 1, '\n');
  sqlite3_str_appendall(n->text, msg);
}

void jjx_notes_discard(jjx_notes *n) {
  sqlite3_free(sqlite3_str_finish(n->text));
  n->text = NULL;
  n->count = 0;
}

void jjx_notes_publish(jjx_notes *n, jjx_settings *s) {
  char *text = sqlite3_str_finish(n->text); /* NULL for none, or no memory */
  n->text = NULL;
  sqlite3_free(s->notes);
  s->notes = text;
  s->notes_lost = n->lost || (n->count > 0 && !text);
  n->count = 0;
}

void jjx_notes_func(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  jjx_settings *s = sqlite3_user_data(ctx);
  (void)argc;
  (void)argv;
  if (s->notes_lost)
    jjx_ctx_err(ctx, "jj_notes: the last call's decisions were lost (out of "
                     "memory)");
  else if (s->notes)
    sqlite3_result_text(ctx, s->notes, -1, SQLITE_TRANSIENT);
}
