/*
** test_reader.h — helpers shared by the reader's tests (test_reader*.c,
** test_cursor.c): run a document through jj_parse, cursors or validation
** and compare the error it stops at, field by field.
**
** Documents are NUL-terminated literals; their length is strlen().  Each
** helper reports the caller's line on failure.
*/
#ifndef JJ_TEST_READER_H
#define JJ_TEST_READER_H

#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "jalapenojson.h"
#include "test.h"

/* A one-column document of type t up to and including "rows":[ and a
** newline: 57 bytes, so row 1's '[' is byte 57 and its value byte 58. */
#define ONE(t) "{\"jalapenojson\":1,\"columns\":[\"v\"],\"types\":[\"" t "\"],\"rows\":[\n"
#define ONE_LEN 57

/* Compare every field of an error; report the caller's line. */
static inline void check_error_(const jj_error *e, jj_code code, int64_t row, int col,
                         size_t off, const char *msg, int line) {
  int ok = e->code == code && e->row == row && e->column == col &&
           e->offset == off && strcmp(e->message, msg) == 0;
  if (!test_check_(ok, __FILE__, line, "error matches")) {
    fprintf(stderr, "     got:  %s row %lld col %d off %lld: %s\n",
            jj_code_name(e->code), (long long)e->row, e->column,
            e->offset == JJ_NO_OFFSET ? -1LL : (long long)e->offset, e->message);
    fprintf(stderr, "     want: %s row %lld col %d off %lld: %s\n",
            jj_code_name(code), (long long)row, col,
            off == JJ_NO_OFFSET ? -1LL : (long long)off, msg);
  }
}
#define CHECK_ERROR(e, code, row, col, off, msg) \
  check_error_((e), (code), (row), (col), (off), (msg), __LINE__)

/* Read column col of c's row with the accessor of its type (what
** jj_doc_validate does); nested tables are read to the end.  Returns the
** accessor's result. */
static inline int read_any(jj_cursor *c, size_t col, jj_error *e) {
  const jj_schema *s = jj_doc_schema(jj_cursor_doc(c));
  int64_t i;
  double f;
  int b;
  int32_t d;
  jj_timestamp t;
  const char *p;
  const unsigned char *bp;
  size_t n;
  jj_doc *sub;
  switch (jj_schema_type(s, col)) {
    case JJ_INT: return jj_cursor_int(c, col, &i, e);
    case JJ_FLOAT: return jj_cursor_double(c, col, &f, e);
    case JJ_TEXT: return jj_cursor_text(c, col, &p, &n, e);
    case JJ_DATE: return jj_cursor_date(c, col, &d, e);
    case JJ_TIMESTAMP:
    case JJ_LOCAL_TIMESTAMP: return jj_cursor_timestamp(c, col, &t, e);
    case JJ_BOOL: return jj_cursor_bool(c, col, &b, e);
    case JJ_BYTES: return jj_cursor_bytes(c, col, &bp, &n, e);
    case JJ_JSON: return jj_cursor_json(c, col, &p, &n, e);
    case JJ_TABLE: {
      int rc = jj_cursor_table(c, col, &sub, e);
      if (rc == 1) {
        rc = jj_doc_validate(sub, e) == JJ_OK ? 1 : -1;
        jj_doc_free(sub);
      }
      return rc;
    }
  }
  return -1;
}

/* jj_parse must fail with this header error (no row, no column). */
static inline void parse_fails_(const char *doc, jj_code code, size_t off,
                         const char *msg, int line) {
  jj_error e;
  jj_doc *d = jj_parse(doc, strlen(doc), &e);
  test_check_(d == NULL, __FILE__, line, "jj_parse fails");
  jj_doc_free(d);
  check_error_(&e, code, 0, -1, off, msg, line);
}
#define PARSE_FAILS(doc, code, off, msg) parse_fails_((doc), (code), (off), (msg), __LINE__)

/* Walking the rows of doc with jj_cursor_next (reading nothing) must stop
** with this error; jj_doc_rows and jj_doc_validate must report it too. */
static inline void rows_fail_(const char *doc, jj_code code, int64_t row, int col,
                       size_t off, const char *msg, int line) {
  jj_error e;
  jj_doc *d = jj_parse(doc, strlen(doc), &e);
  if (!test_check_(d != NULL, __FILE__, line, "jj_parse succeeds")) {
    fprintf(stderr, "     %s\n", e.message);
    return;
  }
  jj_cursor *c = jj_cursor_new(d, &e);
  int rc;
  while ((rc = jj_cursor_next(c, &e)) == 1) {}
  test_check_(rc == -1, __FILE__, line, "jj_cursor_next fails");
  check_error_(&e, code, row, col, off, msg, line);
  test_check_(jj_cursor_next(c, &e) == -1, __FILE__, line, "and fails again");
  check_error_(&e, code, row, col, off, msg, line);
  jj_cursor_free(c);
  test_check_(jj_doc_rows(d, &e) == -1, __FILE__, line, "jj_doc_rows fails");
  check_error_(&e, code, row, col, off, msg, line);
  test_check_(jj_doc_validate(d, &e) == code, __FILE__, line, "validate fails");
  check_error_(&e, code, row, col, off, msg, line);
  jj_doc_free(d);
}
#define ROWS_FAIL(doc, code, row, col, off, msg) \
  rows_fail_((doc), (code), (row), (col), (off), (msg), __LINE__)

/* Reading column col of row `row` with its type's accessor must fail with
** this error (reported at row, col), while moving over the rows does not;
** jj_doc_validate and JJ_PARSE_VALIDATE report the same error. */
static inline void read_fails_(const char *doc, int64_t row, size_t col, jj_code code,
                        int64_t erow, int ecol, size_t off, const char *msg,
                        int line) {
  jj_error e;
  jj_doc *d = jj_parse(doc, strlen(doc), &e);
  if (!test_check_(d != NULL, __FILE__, line, "jj_parse succeeds")) {
    fprintf(stderr, "     %s\n", e.message);
    return;
  }
  test_check_(jj_doc_rows(d, &e) >= 0, __FILE__, line, "rows are well formed");
  jj_cursor *c = jj_cursor_new(d, &e);
  test_check_(jj_cursor_seek(c, row, &e) == 1, __FILE__, line, "seek");
  test_check_(read_any(c, col, &e) == -1, __FILE__, line, "the read fails");
  check_error_(&e, code, erow, ecol, off, msg, line);
  jj_cursor_free(c);
  test_check_(jj_doc_validate(d, &e) == code, __FILE__, line, "validate fails");
  check_error_(&e, code, erow, ecol, off, msg, line);
  jj_doc_free(d);
  test_check_(jj_parse_opts(doc, strlen(doc), JJ_PARSE_VALIDATE, 0, &e) == NULL,
              __FILE__, line, "JJ_PARSE_VALIDATE fails");
  check_error_(&e, code, erow, ecol, off, msg, line);
}
#define READ_FAILS(doc, row, col, code, off, msg) \
  read_fails_((doc), (row), (col), (code), (row), (col), (off), (msg), __LINE__)

#endif /* JJ_TEST_READER_H */
