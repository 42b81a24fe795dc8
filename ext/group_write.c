/*
** group_write.c — jj_group's end: the values group_value.c buffered,
** written row by row to the document with the column types group.c chose
** (an INTEGER in a float column only when exact, a nested document's rows
** copied as a nested table), stopping at SQLite's length limit.
*/
#include <string.h>

#include "group.h"

/* write_value is every value's path at the end.  gcc stopped inlining it
** into its one caller when it moved out of group.c: 7.7 million more
** instructions (3.5%) for the export of 50,000 rows under callgrind, and
** the same in time, so it is forced. */
#if defined(__GNUC__) || defined(__clang__)
#define ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define ALWAYS_INLINE inline
#endif

/* Copy a nested document's rows into the writer as one nested value.  The
** document was validated in xStep, so only memory can fail here. */
static jj_code write_nested(jj_writer *w, const char *p, size_t len,
                            jj_error *err) {
  jj_doc *doc = jj_parse(p, len, err);
  jj_cursor *cur = NULL;
  jj_code code = JJ_ERR_NOMEM;
  if (!doc) return err->code;
  cur = jj_cursor_new(doc, err);
  if (!cur) goto done;
  if ((code = jj_writer_begin_table(w)) != JJ_OK) goto done;
  if ((code = jj_writer_copy_rows(w, cur)) != JJ_OK) goto done;
  code = jj_writer_end_table(w);
done:
  jj_cursor_free(cur);
  jj_doc_free(doc);
  return code;
}

/* Write one buffered value; *pp advances past it.  row is for messages. */
static ALWAYS_INLINE jj_code write_value(sqlite3_context *ctx,
                                         jj_writer *w, const group_col *c,
                                         jj_type type,
                                         const unsigned char **pp,
                                         int64_t row) {
  const unsigned char *p = *pp;
  unsigned char tag = *p++;
  sqlite3_int64 i;
  double d;
  uint32_t n;
  jj_error err;
  jj_code code;
  switch (tag) {
    case TAG_INT:
      memcpy(&i, p, 8);
      *pp = p + 8;
      switch (type) { /* no default: -Wswitch names a type added */
        case JJ_INT:
          return jj_writer_int(w, i);
        case JJ_BOOL:
          return jj_writer_bool(w, i != 0);
        case JJ_FLOAT:
          break; /* below */
        case JJ_TEXT:
        case JJ_DATE:
        case JJ_TIMESTAMP:
        case JJ_BYTES:
        case JJ_TABLE: /* xStep let no INTEGER in (the writer would not) */
          return jj_writer_int(w, i);
      }
      /* an INTEGER in a float column, written only if exact */
      d = (double)i;
      if (!(d >= -9223372036854775808.0 && d < 9223372036854775808.0 &&
            (sqlite3_int64)d == i)) {
        jjx_ctx_err(ctx, "jj_group: row %lld, column \"%.*s\": %lld cannot be "
                         "written as a float exactly (the column is %s)",
                    (long long)row, (int)c->name_len, c->arg, i,
                    jj_type_short(type));
        return JJ_ERR_RANGE;
      }
      return jj_writer_double(w, d);
    case TAG_REAL:
      memcpy(&d, p, 8);
      *pp = p + 8;
      return jj_writer_double(w, d);
    case TAG_TEXT:
    case TAG_BLOB:
      memcpy(&n, p, 4);
      p += 4;
      *pp = p + n;
      switch (type) { /* no default: -Wswitch names a type added */
        case JJ_DATE: return jj_writer_date(w, (const char *)p, n);
        case JJ_TIMESTAMP: return jj_writer_timestamp(w, (const char *)p, n);
        case JJ_BYTES: return jj_writer_bytes(w, p, n);
        case JJ_TABLE:
          code = write_nested(w, (const char *)p, n, &err);
          if (code != JJ_OK && code != JJ_ERR_NOMEM &&
              jj_writer_error(w)->code == JJ_OK)
            jjx_ctx_err(ctx, "jj_group: row %lld, column \"%.*s\": %s",
                        (long long)row, (int)c->name_len, c->arg, err.message);
          return code;
        case JJ_TEXT:
        case JJ_INT:
        case JJ_FLOAT:
        case JJ_BOOL: /* xStep let no TEXT or BLOB in (the writer would not) */
          return jj_writer_text(w, (const char *)p, n);
      }
      return JJ_ERR_USAGE; /* no other type */
    default:
      *pp = p;
      return jj_writer_null(w);
  }
}

jj_code jjx_group_write_rows(sqlite3_context *ctx, group_ctx *g,
                             jj_writer *w) {
  const unsigned char *p = (const unsigned char *)g->values.p;
  jj_code code = JJ_OK;
  for (int64_t row = 1; row <= g->rows && code == JJ_OK; row++) {
    for (int i = 0; i < g->ncol && code == JJ_OK; i++)
      code = write_value(ctx, w, &g->cols[i], g->cols[i].written, &p, row);
    if (code == JJ_OK) code = jj_writer_end_row(w);
    /* stop at SQLite's limit after the row that passed it, not after
    ** building the rest */
    if (code == JJ_OK && jj_writer_length(w) > g->limit) {
      jjx_group_too_long(ctx, g);
      return JJ_ERR_LIMIT;
    }
  }
  return code;
}
