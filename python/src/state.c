/*
** state.c — what every reader of the module asks for: the module state
** from one of its types (jjpy_state_of_type, for View and its iterator)
** and the reading keywords (jjpy_opts_parse: rows, dates, timestamps,
** max_size, max_depth) that decode(), load() and view() share.
*/
#include "jjpy.h"

jjpy_state *jjpy_state_of_type(PyTypeObject *tp) {
  return (jjpy_state *)PyType_GetModuleState(tp);
}

/* ---------------------------------------------------------------------- */
/* The reading keywords                                                    */
/* ---------------------------------------------------------------------- */

/* Which of two spellings a keyword's str value is: 0 (the default, also
** for NULL), 1, or -1 with ValueError naming the keyword. */
static int choice(PyObject *v, const char *kw, const char *a, const char *b) {
  if (!v) return 0;
  if (PyUnicode_Check(v)) {
    if (PyUnicode_CompareWithASCIIString(v, a) == 0) return 0;
    if (PyUnicode_CompareWithASCIIString(v, b) == 0) return 1;
  }
  PyErr_Format(PyExc_ValueError, "%s must be \"%s\" or \"%s\", not %R", kw, a,
               b, v);
  return -1;
}

int jjpy_opts_parse(jjpy_opts *o, PyObject *rows, PyObject *dates,
                    PyObject *timestamps, PyObject *max_size,
                    PyObject *max_depth) {
  o->max_size = JJPY_DEFAULT_MAX_SIZE;
  o->max_depth = 0;
  if ((o->tuples = choice(rows, "rows", "dict", "tuple")) < 0) return -1;
  if ((o->dates_text = choice(dates, "dates", "date", "text")) < 0) return -1;
  if ((o->ts_text = choice(timestamps, "timestamps", "datetime", "text")) < 0)
    return -1;
  if (max_size && max_size != Py_None) {
    unsigned long long n = PyLong_AsUnsignedLongLong(max_size);
    if (n == (unsigned long long)-1 && PyErr_Occurred()) {
      if (PyErr_ExceptionMatches(PyExc_OverflowError) ||
          PyErr_ExceptionMatches(PyExc_TypeError)) {
        PyErr_Clear();
        PyErr_Format(PyExc_ValueError,
                     "max_size must be an int >= 0 (0: no limit), not %R",
                     max_size);
      }
      return -1;
    }
    o->max_size = n;
  } else if (max_size == Py_None) {
    o->max_size = 0;
  }
  if (max_depth && max_depth != Py_None) {
    long d = PyLong_AsLong(max_depth);
    if (d == -1 && PyErr_Occurred()) return -1;
    /* capped: the core parses nested table types recursively, and so do
    ** we when a nested table becomes a list (a C stack is not infinite) */
    if (d < 0 || d > 1024) {
      PyErr_Format(PyExc_ValueError,
                   "max_depth must be between 0 (the default, %d) and "
                   "1024, not %ld",
                   JJ_DEFAULT_MAX_DEPTH, d);
      return -1;
    }
    o->max_depth = (unsigned)d;
  }
  return 0;
}
