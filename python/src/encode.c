/*
** encode.c — encode(rows) -> bytes and dump(rows, path): the plan of
** infer.c written value by value with the core's writer.
**
** A value must fit its column's type (given, or inferred from all the
** values, which then fit by construction but for ranges):
**
**   i  int within int64 (not bool)
**   f  float, or an int that a double holds exactly (jj_group's rule)
**   s  str
**   d  datetime.date (not a datetime), or a str the writer checks
**   t  an aware datetime.datetime (written with the fewest fraction digits
**      that hold its microseconds, zone Z or +HH:MM), or a str checked
**   b  bool, or the int 0 or 1 (what sqlite3 gives for a BOOLEAN)
**   x  bytes, bytearray or a contiguous memoryview
**   nested table  a list or tuple of rows (dicts or tuples), or a View
**
** dump() streams the writer's output through a jj_deflater (plain, gzip or
** brotli by the name) into a jj_atomic temporary file renamed over the
** target on success; the GIL is released while those two work on each
** chunk, and while the file is flushed and renamed.
*/
#include "plan.h"

/* Raise the writer's error (it names the row and column). -1. */
static int writer_failed(enc *e, jj_writer *w) {
  jjpy_raise(e->st, jj_writer_error(w), e->schema, NULL);
  return -1;
}

/* "an integer column cannot hold a str". -1. */
static int wrong(enc *e, int64_t r, const col_plan *c, PyObject *v) {
  PyObject *a = jjpy_a_type(v);
  if (a)
    jjpy_enc_fail(e, r, c, JJ_ERR_TYPE, "%s column cannot hold %U",
                  jj_type_name(c->type), a);
  Py_XDECREF(a);
  return -1;
}

/* An int as int64; -1 with the error raised when it does not fit. */
static int int64_of(enc *e, int64_t r, const col_plan *c, PyObject *v,
                    long long *out) {
  int overflow;
  *out = PyLong_AsLongLongAndOverflow(v, &overflow);
  if (*out == -1 && PyErr_Occurred()) return -1;
  if (overflow)
    return jjpy_enc_fail(e, r, c, JJ_ERR_RANGE,
                         "%R does not fit a 64-bit integer", v);
  return 0;
}

/* The UTF-8 of a str; a lone surrogate is the core's UTF-8 error. */
static const char *utf8_of(enc *e, int64_t r, const col_plan *c, PyObject *v,
                           Py_ssize_t *len) {
  const char *p = PyUnicode_AsUTF8AndSize(v, len);
  if (p || !PyErr_ExceptionMatches(PyExc_UnicodeEncodeError)) return p;
  PyErr_Clear();
  jjpy_enc_fail(e, r, c, JJ_ERR_UTF8,
                "the str is not valid UTF-8 (it holds a lone surrogate)");
  return NULL;
}

static int write_table(enc *e, jj_writer *w, plan *p, PyObject *rows);

/* A nested table value: begin, its rows, end. */
static int write_nested(enc *e, jj_writer *w, const col_plan *c, PyObject *v,
                        int64_t r) {
  PyObject *rows = jjpy_table_rows(e, v);
  if (!rows) return -1;
  if (Py_EnterRecursiveCall(" while encoding a nested table")) {
    Py_DECREF(rows);
    return -1;
  }
  int rc = -1;
  if (jj_writer_begin_table(w) != JJ_OK) {
    writer_failed(e, w);
  } else {
    if (e->depth < JJPY_MAX_PATH) {
      e->path[e->depth].row = r;
      e->path[e->depth].name = c->name;
    }
    e->depth++;
    rc = write_table(e, w, c->nested, rows);
    e->depth--;
    if (rc == 0 && jj_writer_end_table(w) != JJ_OK) rc = writer_failed(e, w);
  }
  Py_LeaveRecursiveCall();
  Py_DECREF(rows);
  return rc;
}

/* Write value v of column c, row r.  0 or -1 with the error raised. */
static int write_value(enc *e, jj_writer *w, const col_plan *c, PyObject *v,
                       int64_t r) {
  jj_code code;
  long long x;
  Py_ssize_t len;
  const char *p, *why;
  char text[40];
  if (v == Py_None) {
    code = jj_writer_null(w);
  } else {
    switch (c->type) {
      case JJ_INT:
        if (!PyLong_Check(v) || PyBool_Check(v)) return wrong(e, r, c, v);
        if (int64_of(e, r, c, v, &x)) return -1;
        code = jj_writer_int(w, x);
        break;
      case JJ_FLOAT:
        if (PyFloat_Check(v)) {
          code = jj_writer_double(w, PyFloat_AS_DOUBLE(v));
          break;
        }
        if (!PyLong_Check(v) || PyBool_Check(v)) return wrong(e, r, c, v);
        if (int64_of(e, r, c, v, &x)) return -1;
        { /* an int in a float column, written only if exact */
          double d = (double)x;
          if (!(d >= -9223372036854775808.0 && d < 9223372036854775808.0 &&
                (long long)d == x))
            return jjpy_enc_fail(e, r, c, JJ_ERR_RANGE,
                                 "%lld cannot be written as a float exactly "
                                 "(the column is f)",
                                 x);
          code = jj_writer_double(w, d);
        }
        break;
      case JJ_TEXT:
        if (!PyUnicode_Check(v)) return wrong(e, r, c, v);
        if (!(p = utf8_of(e, r, c, v, &len))) return -1;
        code = jj_writer_text(w, p, (size_t)len);
        break;
      case JJ_DATE:
        if (jjpy_is_date(v)) {
          jjpy_date_text(v, text);
          code = jj_writer_date(w, text, 10);
        } else if (PyUnicode_Check(v)) {
          if (!(p = utf8_of(e, r, c, v, &len))) return -1;
          code = jj_writer_date(w, p, (size_t)len);
        } else {
          return wrong(e, r, c, v);
        }
        break;
      case JJ_TIMESTAMP:
        if (jjpy_is_datetime(v)) {
          size_t n = jjpy_datetime_text(v, text, &why);
          if (!n && !why) return -1;
          if (!n)
            return jjpy_enc_fail(e, r, c, JJ_ERR_TIMESTAMP, "the datetime %R %s",
                                 v, why);
          code = jj_writer_timestamp(w, text, n);
        } else if (PyUnicode_Check(v)) {
          if (!(p = utf8_of(e, r, c, v, &len))) return -1;
          code = jj_writer_timestamp(w, p, (size_t)len);
        } else {
          return wrong(e, r, c, v);
        }
        break;
      case JJ_BOOL:
        if (PyBool_Check(v)) {
          code = jj_writer_bool(w, v == Py_True);
        } else if (PyLong_Check(v)) { /* sqlite3's 0 and 1 */
          if (int64_of(e, r, c, v, &x)) return -1;
          if (x != 0 && x != 1)
            return jjpy_enc_fail(e, r, c, JJ_ERR_TYPE,
                                 "a boolean column takes True, False, 0 or 1, "
                                 "not %lld",
                                 x);
          code = jj_writer_bool(w, (int)x);
        } else {
          return wrong(e, r, c, v);
        }
        break;
      case JJ_BYTES: {
        if (jjpy_kind(e->st, v) != K_BYTES) return wrong(e, r, c, v);
        Py_buffer b;
        if (PyObject_GetBuffer(v, &b, PyBUF_SIMPLE) < 0) return -1;
        code = jj_writer_bytes(w, b.buf, (size_t)b.len);
        PyBuffer_Release(&b);
        break;
      }
      case JJ_TABLE:
        if (jjpy_kind(e->st, v) != K_TABLE) return wrong(e, r, c, v);
        return write_nested(e, w, c, v, r);
      default:
        return wrong(e, r, c, v);
    }
  }
  return code == JJ_OK ? 0 : writer_failed(e, w);
}

static int write_table(enc *e, jj_writer *w, plan *p, PyObject *rows) {
  PyObject *row;
  for (Py_ssize_t i = 0; (row = jjpy_item(rows, i)); i++) {
    int64_t r = (int64_t)i + 1;
    int rc = jjpy_row_shape(e, p, row, r);
    for (Py_ssize_t k = 0; rc == 0 && k < p->ncol; k++) {
      PyObject *v = jjpy_row_value(e, p, row, k, r);
      rc = v ? write_value(e, w, &p->cols[k], v, r) : -1;
      Py_XDECREF(v);
    }
    Py_DECREF(row);
    if (rc) return -1;
    if (jj_writer_end_row(w) != JJ_OK) return writer_failed(e, w);
  }
  return 0;
}

PyObject *jjpy_encode(PyObject *module, PyObject *args, PyObject *kwargs) {
  static char *kws[] = {"rows", "columns", "types", NULL};
  PyObject *rows, *columns = NULL, *types = NULL, *result = NULL;
  enc e;
  jj_error err;
  jj_writer *w = NULL;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|OO:encode", kws, &rows,
                                   &columns, &types))
    return NULL;
  memset(&e, 0, sizeof e);
  e.st = PyModule_GetState(module);
  if (jjpy_plan_prepare(&e, rows, columns, types) < 0) goto done;
  if (!(w = jj_writer_new(e.schema, NULL, NULL, &err))) {
    jjpy_raise(e.st, &err, NULL, NULL);
    goto done;
  }
  if (write_table(&e, w, &e.top, e.rows) < 0) goto done;
  if (jj_writer_finish(w) != JJ_OK) {
    writer_failed(&e, w);
    goto done;
  }
  size_t len;
  char *doc = jj_writer_take(w, &len);
  if (!doc) {
    PyErr_NoMemory();
    goto done;
  }
  result = PyBytes_FromStringAndSize(doc, (Py_ssize_t)len);
  jj_free(doc);
done:
  jj_writer_free(w);
  jjpy_plan_free(&e);
  return result;
}

/* ---------------------------------------------------------------------- */
/* dump                                                                    */
/* ---------------------------------------------------------------------- */

/* The writer's sink in dump: the deflater (which feeds the atomic file),
** with the GIL released while it compresses and writes. */
static int unlocked_sink(void *ctx, const char *data, size_t len) {
  int r;
  Py_BEGIN_ALLOW_THREADS
  r = jj_deflate_sink(ctx, data, len);
  Py_END_ALLOW_THREADS
  return r;
}

PyObject *jjpy_dump(PyObject *module, PyObject *args, PyObject *kwargs) {
  static char *kws[] = {"rows", "path", "columns", "types", "level", NULL};
  PyObject *rows, *path = NULL, *columns = NULL, *types = NULL;
  int level = -1, ok = 0;
  enc e;
  jj_error err;
  jj_compression kind;
  jj_atomic *a = NULL;
  jj_deflater *z = NULL;
  jj_writer *w = NULL;
  jj_code code;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OO&|OO$i:dump", kws, &rows,
                                   PyUnicode_FSConverter, &path, &columns,
                                   &types, &level))
    return NULL;
  memset(&e, 0, sizeof e);
  e.st = PyModule_GetState(module);
  const char *p = PyBytes_AS_STRING(path);
  /* the name first (.zst is refused), then the values, then the file:
  ** a bad value creates no temporary file */
  if (jj_compression_for_write(p, &kind, &err) != JJ_OK) {
    jjpy_raise(e.st, &err, NULL, NULL);
    goto done;
  }
  if (jjpy_plan_prepare(&e, rows, columns, types) < 0) goto done;
  if (!(a = jj_atomic_open(p, &err)) ||
      !(z = jj_deflate_new(kind, level, jj_atomic_sink, a, &err)) ||
      !(w = jj_writer_new(e.schema, unlocked_sink, z, &err))) {
    jjpy_raise(e.st, &err, NULL, NULL);
    goto done;
  }
  if (write_table(&e, w, &e.top, e.rows) < 0 ||
      (code = jj_writer_finish(w)) != JJ_OK) {
    if (!PyErr_Occurred()) writer_failed(&e, w);
    goto done;
  }
  Py_BEGIN_ALLOW_THREADS
  code = jj_deflate_finish(z, &err);
  Py_END_ALLOW_THREADS
  if (code != JJ_OK) {
    jjpy_raise(e.st, &err, NULL, NULL);
    goto done;
  }
  ok = 1;
done:
  /* A failed write to the file reaches the writer or the deflater as "write
  ** failed"; the atomic file keeps the real reason (disk full, ...), which
  ** commit reports (removing the temporary file).  A zero-length write
  ** asks the atomic file whether it has failed. */
  if (a && !ok && jj_atomic_sink(a, NULL, 0) != 0) {
    jj_deflate_free(z);
    z = NULL;
    jj_atomic_commit(a, &err);
    a = NULL;
    PyErr_Clear();
    jjpy_raise(e.st, &err, NULL, NULL);
  }
  if (a && ok) {
    jj_deflate_free(z);
    z = NULL;
    Py_BEGIN_ALLOW_THREADS
    code = jj_atomic_commit(a, &err); /* fsync and rename: may be slow */
    Py_END_ALLOW_THREADS
    a = NULL;
    if (code != JJ_OK) {
      jjpy_raise(e.st, &err, NULL, NULL);
      ok = 0;
    }
  }
  jj_writer_free(w);
  jj_deflate_free(z);
  jj_atomic_abort(a);
  jjpy_plan_free(&e);
  Py_XDECREF(path);
  if (!ok) return NULL;
  Py_RETURN_NONE;
}
