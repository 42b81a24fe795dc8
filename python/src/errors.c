/*
** errors.c — every failure becomes one jalapenojson.Error (a ValueError)
** carrying the core's located message and its place as attributes:
**
**   code    jj_code_name(): "syntax", "date", "io", "limit", ...
**   row     1-based row of the top-level table, None outside a row
**   column  the top-level column's name (a str), None when none; names
**           rather than indexes because rows are dicts keyed by them
**   offset  byte offset in the document, None when there is none
**
** JJ_ERR_NOMEM becomes MemoryError, as everywhere in Python.
*/
#include "jjpy.h"
#include <stdarg.h>
#include <string.h>

/* Raise Error(msg) with its attributes; steals nothing (the caller keeps
** its references).  Returns NULL. */
static PyObject *raise_error(jjpy_state *st, PyObject *msg, jj_code code,
                       int64_t row, const char *column, size_t column_len,
                       size_t offset) {
  PyObject *exc = NULL, *v = NULL;
  exc = PyObject_CallOneArg(st->Error, msg);
  if (!exc) return NULL;
  if (!(v = PyUnicode_FromString(jj_code_name(code))) ||
      PyObject_SetAttrString(exc, "code", v) < 0)
    goto fail;
  Py_CLEAR(v);
  if (row > 0) {
    if (!(v = PyLong_FromLongLong(row)) ||
        PyObject_SetAttrString(exc, "row", v) < 0)
      goto fail;
    Py_CLEAR(v);
  }
  if (column) {
    if (!(v = PyUnicode_DecodeUTF8(column, (Py_ssize_t)column_len,
                                   "replace")) ||
        PyObject_SetAttrString(exc, "column", v) < 0)
      goto fail;
    Py_CLEAR(v);
  }
  if (offset != JJ_NO_OFFSET) {
    if (!(v = PyLong_FromSize_t(offset)) ||
        PyObject_SetAttrString(exc, "offset", v) < 0)
      goto fail;
    Py_CLEAR(v);
  }
  PyErr_SetObject(st->Error, exc);
fail:
  Py_XDECREF(v);
  Py_DECREF(exc);
  return NULL;
}

PyObject *jjpy_raise(jjpy_state *st, const jj_error *err,
                     const jj_schema *top, const char *label) {
  if (err->code == JJ_ERR_NOMEM) return PyErr_NoMemory();
  /* the core's messages are UTF-8 (bad input bytes shown as \xHH);
  ** "replace" only guards against a bug there */
  PyObject *msg =
      label ? PyUnicode_FromFormat("%s: %s", label, err->message)
            : PyUnicode_DecodeUTF8(err->message,
                                   (Py_ssize_t)strlen(err->message),
                                   "replace");
  if (!msg) return NULL;
  size_t len = 0;
  const char *column =
      err->column >= 0 ? jj_schema_name(top, (size_t)err->column, &len) : NULL;
  raise_error(st, msg, err->code, err->row, column, len, err->offset);
  Py_DECREF(msg);
  return NULL;
}

PyObject *jjpy_raise_at(jjpy_state *st, jj_code code, int64_t row,
                        const char *column, size_t offset, const char *fmt,
                        ...) {
  va_list ap;
  va_start(ap, fmt);
  PyObject *msg = PyUnicode_FromFormatV(fmt, ap);
  va_end(ap);
  if (!msg) return NULL;
  raise_error(st, msg, code, row, column, column ? strlen(column) : 0, offset);
  Py_DECREF(msg);
  return NULL;
}
