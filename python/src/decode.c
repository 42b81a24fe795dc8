/*
** decode.c — decode(data) and load(path): every row of a document at once,
** as a list of dicts (or tuples), like json.loads.
**
**   jj_parse_opts -> jj_cursor_next per row -> jj_cursor_value per column
**   -> values.c's switch -> a dict keyed by the column names (the same
**   interned str objects for every row)
**
** A nested table value becomes a list of rows the same way, recursively
** (table_list below is values.c's cv->table here).
*/
#include "jjpy.h"

/* A nested table as a list of its rows; the document is ours to free. */
static PyObject *table_list(jjpy_conv *cv, jj_doc *doc, void *ctx) {
  (void)ctx;
  PyObject *rows = jjpy_rows(cv, doc);
  jj_doc_free(doc);
  return rows;
}

PyObject *jjpy_rows(jjpy_conv *cv, jj_doc *doc) {
  jj_error err;
  PyObject *names = NULL, *list = NULL, *row;
  jj_cursor *c = jj_cursor_new(doc, &err);
  int r;
  if (!c) return jjpy_raise(cv->st, &err, cv->top, cv->label);
  if (!(names = jjpy_names(cv, jj_doc_schema(doc)))) goto fail;
  if (!(list = PyList_New(0))) goto fail;
  while ((r = jj_cursor_next(c, &err)) == 1) {
    if (!(row = jjpy_row(cv, c, names))) goto fail;
    if (PyList_Append(list, row) < 0) {
      Py_DECREF(row);
      goto fail;
    }
    Py_DECREF(row);
  }
  if (r < 0) {
    jjpy_raise(cv->st, &err, cv->top, cv->label);
    goto fail;
  }
  jj_cursor_free(c);
  Py_DECREF(names);
  return list;
fail:
  jj_cursor_free(c);
  Py_XDECREF(names);
  Py_XDECREF(list);
  return NULL;
}

/* Parse the document in src and read every row.  label: a file's name for
** the messages, or NULL. */
static PyObject *decode_source(jjpy_state *st, const jjpy_source *src,
                               const jjpy_opts *o, const char *label) {
  jj_error err;
  jjpy_conv cv;
  jj_doc *doc = jj_parse_opts(src->data, src->len, 0, o->max_depth, &err);
  if (!doc) return jjpy_raise(st, &err, NULL, label);
  jjpy_conv_init(&cv, st, o, src->data, jj_doc_schema(doc));
  cv.label = label;
  cv.table = table_list;
  PyObject *rows = jjpy_rows(&cv, doc);
  jjpy_conv_clear(&cv);
  jj_doc_free(doc);
  return rows;
}

static char *read_kws[] = {"data",     "rows",      "dates", "timestamps",
                           "max_size", "max_depth", NULL};

PyObject *jjpy_decode(PyObject *module, PyObject *args, PyObject *kwargs) {
  jjpy_state *st = PyModule_GetState(module);
  PyObject *data, *rows = NULL, *dates = NULL, *ts = NULL, *max_size = NULL,
                  *max_depth = NULL;
  jjpy_opts o;
  jjpy_source src;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|$OOOOO:decode", read_kws,
                                   &data, &rows, &dates, &ts, &max_size,
                                   &max_depth))
    return NULL;
  if (jjpy_opts_parse(&o, rows, dates, ts, max_size, max_depth) < 0)
    return NULL;
  if (jjpy_source_bytes(st, data, &o, &src) < 0) return NULL;
  PyObject *result = decode_source(st, &src, &o, NULL);
  jjpy_source_close(&src);
  return result;
}

PyObject *jjpy_load(PyObject *module, PyObject *args, PyObject *kwargs) {
  static char *kws[] = {"path",     "rows",      "dates", "timestamps",
                        "max_size", "max_depth", NULL};
  jjpy_state *st = PyModule_GetState(module);
  PyObject *path = NULL, *rows = NULL, *dates = NULL, *ts = NULL,
           *max_size = NULL, *max_depth = NULL;
  jjpy_opts o;
  jjpy_source src;
  /* O&: str, bytes or os.PathLike, to bytes in the file system encoding */
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O&|$OOOOO:load", kws,
                                   PyUnicode_FSConverter, &path, &rows,
                                   &dates, &ts, &max_size, &max_depth))
    return NULL;
  PyObject *result = NULL;
  const char *p = PyBytes_AS_STRING(path);
  if (jjpy_opts_parse(&o, rows, dates, ts, max_size, max_depth) == 0 &&
      jjpy_source_file(st, p, &o, &src) == 0) {
    result = decode_source(st, &src, &o, p);
    jjpy_source_close(&src);
  }
  Py_DECREF(path);
  return result;
}
