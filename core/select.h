/*
** select.h — reading a span that column selection may have left
** unlocated (select.c): value.c and object.c read every span through
** jj_cursor_located.
*/
#ifndef JJ_SELECT_H
#define JJ_SELECT_H

#include "doc.h"

/* The span of column col of the cursor's row (on a row: the caller
** checked) when c->v[col] is JJ_SPAN_UNLOCATED: the row is scanned again
** with every span into c->all (once a row); NULL with *err when out of
** memory. */
const jj_span *jj_cursor_locate(jj_cursor *c, size_t col, jj_error *err);

/* c->v[col] of a cursor on a row, located (jj_cursor_locate when it is
** not); NULL after an error.  Every read of a span goes through this
** except value.c's inline shortcuts, which decline an unlocated span by
** its flags and length and go on to a path that does. */
#if JJ_SELECT
static inline const jj_span *jj_cursor_located(jj_cursor *c, size_t col, jj_error *err) {
  if (JJ_UNLIKELY(JJ_SPAN_LEN(c->v[col]) == 0)) return jj_cursor_locate(c, col, err);
  return &c->v[col];
}
#else /* every value is located: never NULL */
#define jj_cursor_located(c, col, err) ((void)(err), (const jj_span *)&(c)->v[col])
#endif

#endif /* JJ_SELECT_H */
