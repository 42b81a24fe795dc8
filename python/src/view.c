/*
** view.c — view(data): a lazy, read-only sequence of a document's rows.
**
**   v = jalapenojson.view(data)
**   v.columns, v.types          the header (read now)
**   len(v)                      finds the row boundaries once
**   v[i], v[-1], v[10:20]       rows (dicts, or tuples with rows="tuple"):
**                               jj_cursor_seek goes to a row without
**                               converting the rows before it
**   for row in v: ...           a cursor of the iterator's own
**   v.column("price", array=True)  one column: list, or array('d'/'q')
**
** A View keeps what its document borrows alive: the bytes (bytes or str
** referenced, anything else copied once, compressed input decompressed
** into its own memory; source.c).  A nested table value read from a View
** is a View too, sharing the top View's bytes and conversion state: it
** references the View it came from (its `parent`), whose document its own
** borrows, and frees its document first.
*/
#include "jjpy.h"
#include <string.h>

typedef struct View {
  PyObject_HEAD
  struct View *parent; /* the View whose row held this nested table, or NULL */
  int64_t place_row;   /* nested: the parent's row and column holding it */
  int place_col;
  jjpy_source src;     /* top level: the document's bytes */
  jjpy_conv *cv;       /* top level: owned (PyMem); nested: the top's */
  jj_doc *doc;         /* owned */
  jj_cursor *cur;      /* for indexing and column(), made at first use */
  PyObject *names;     /* tuple of str */
  int64_t nrows;       /* -1 until counted */
} View;

typedef struct ViewIter {
  PyObject_HEAD
  View *view;
  jj_cursor *cur; /* its own: iterating does not move the View's */
} ViewIter;

static jjpy_state *view_state(PyObject *o) {
  return jjpy_state_of_type(Py_TYPE(o));
}

int jjpy_is_view(jjpy_state *st, PyObject *o) {
  return Py_IS_TYPE(o, st->View);
}

/* Prepare the shared conversion state for reading v's rows: nested tables
** become Views of v, and errors of ours name the path of tables to v. */
static jjpy_conv *conv_for(View *v) {
  jjpy_conv *cv = v->cv;
  View *chain[JJPY_MAX_PATH];
  int n = 0;
  for (View *w = v; w->parent && n < JJPY_MAX_PATH; w = w->parent)
    chain[n++] = w;
  cv->depth = n;
  for (int i = 0; i < n; i++) { /* from the top down */
    View *w = chain[n - 1 - i];
    cv->path[i].row = w->place_row;
    cv->path[i].col = w->place_col;
    cv->path[i].s = jj_doc_schema(w->parent->doc);
  }
  cv->table_ctx = v;
  return cv;
}

/* The View's own cursor, made at first use.  NULL with an exception. */
static jj_cursor *cursor_of(View *v) {
  jj_error err;
  if (!v->cur && !(v->cur = jj_cursor_new(v->doc, &err)))
    jjpy_raise(v->cv->st, &err, v->cv->top, v->cv->label);
  return v->cur;
}

/* Begin reading rows with the shared state; -1 with RuntimeError when a
** read is already under way (re-entered from a finalizer). */
static int enter(View *v) {
  if (v->cv->busy) {
    PyErr_SetString(PyExc_RuntimeError,
                    "a jalapenojson View was used while it was being read "
                    "(from a finalizer?)");
    return -1;
  }
  v->cv->busy = 1;
  return 0;
}

static void leave(View *v) { v->cv->busy = 0; }

/* Make a View of doc (owned from here on): nested when parent is set. */
static PyObject *new_view(jjpy_state *st, View *parent, jj_doc *doc,
                          jjpy_conv *cv) {
  View *v = PyObject_New(View, st->View);
  if (!v) {
    jj_doc_free(doc);
    return NULL;
  }
  memset((char *)v + sizeof(PyObject), 0, sizeof *v - sizeof(PyObject));
  v->doc = doc;
  v->nrows = -1;
  v->cv = cv;
  if (parent) {
    v->parent = (View *)Py_NewRef(parent);
    int at = cv->depth - 1; /* values.c pushed the place of this value */
    if (at >= 0 && at < JJPY_MAX_PATH) {
      v->place_row = cv->path[at].row;
      v->place_col = cv->path[at].col;
    }
  }
  if (!(v->names = jjpy_names(cv, jj_doc_schema(doc)))) {
    if (!parent) v->cv = NULL; /* the caller still owns a top View's */
    Py_CLEAR(v);
  }
  return (PyObject *)v;
}

/* values.c's cv->table in a View: a nested table is a View of its own. */
static PyObject *table_view(jjpy_conv *cv, jj_doc *doc, void *ctx) {
  return new_view(cv->st, (View *)ctx, doc, cv);
}

PyObject *jjpy_view(PyObject *module, PyObject *args, PyObject *kwargs) {
  static char *kws[] = {"data",     "rows",      "dates", "timestamps",
                        "max_size", "max_depth", NULL};
  jjpy_state *st = PyModule_GetState(module);
  PyObject *data, *rows = NULL, *dates = NULL, *ts = NULL, *max_size = NULL,
                  *max_depth = NULL;
  jjpy_opts o;
  jjpy_source src;
  jj_error err;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|$OOOOO:view", kws, &data,
                                   &rows, &dates, &ts, &max_size, &max_depth))
    return NULL;
  if (jjpy_opts_parse(&o, rows, dates, ts, max_size, max_depth) < 0)
    return NULL;
  if (jjpy_source_bytes(st, data, &o, &src) < 0) return NULL;
  jj_doc *doc = jj_parse_opts(src.data, src.len, 0, o.max_depth, &err);
  jjpy_conv *cv = doc ? PyMem_Malloc(sizeof *cv) : NULL;
  if (!cv) {
    if (doc) PyErr_NoMemory();
    else jjpy_raise(st, &err, NULL, NULL);
    jj_doc_free(doc);
    jjpy_source_close(&src);
    return NULL;
  }
  jjpy_conv_init(cv, st, &o, src.data, jj_doc_schema(doc));
  cv->table = table_view;
  View *v = (View *)new_view(st, NULL, doc, cv);
  if (!v) {
    jjpy_conv_clear(cv);
    PyMem_Free(cv);
    jjpy_source_close(&src);
    return NULL;
  }
  v->src = src; /* the View owns the bytes now */
  return (PyObject *)v;
}

static void view_dealloc(View *v) {
  PyTypeObject *tp = Py_TYPE(v);
  jj_cursor_free(v->cur);
  jj_doc_free(v->doc); /* before the parent's, which it borrows */
  Py_XDECREF(v->names);
  if (!v->parent && v->cv) {
    jjpy_conv_clear(v->cv);
    PyMem_Free(v->cv);
  }
  jjpy_source_close(&v->src);
  Py_XDECREF(v->parent);
  PyObject_Free(v);
  Py_DECREF(tp);
}

/* ---------------------------------------------------------------------- */
/* Length and rows                                                         */
/* ---------------------------------------------------------------------- */

static Py_ssize_t view_len(View *v) {
  jj_error err;
  if (v->nrows < 0) {
    int64_t n = jj_doc_rows(v->doc, &err);
    if (n < 0) return jjpy_raise(v->cv->st, &err, v->cv->top, NULL), -1;
    v->nrows = n;
  }
  return (Py_ssize_t)v->nrows;
}

/* Row i (0-based, >= 0) as a dict or tuple; IndexError past the end. */
static PyObject *view_row(View *v, Py_ssize_t i) {
  jj_error err;
  jj_cursor *c = cursor_of(v);
  if (!c || enter(v) < 0) return NULL;
  PyObject *row = NULL;
  int r = jj_cursor_seek(c, (int64_t)i + 1, &err);
  if (r < 0) jjpy_raise(v->cv->st, &err, v->cv->top, NULL);
  else if (r == 0) PyErr_SetString(PyExc_IndexError, "View index out of range");
  else row = jjpy_row(conv_for(v), c, v->names);
  leave(v);
  return row;
}

static PyObject *view_item(View *v, Py_ssize_t i) {
  if (i < 0) { /* sq_item gets i + len for a negative i; still negative */
    PyErr_SetString(PyExc_IndexError, "View index out of range");
    return NULL;
  }
  return view_row(v, i);
}

static PyObject *view_subscript(View *v, PyObject *key) {
  if (PyIndex_Check(key)) {
    Py_ssize_t i = PyNumber_AsSsize_t(key, PyExc_IndexError);
    if (i == -1 && PyErr_Occurred()) return NULL;
    if (i < 0) { /* only a negative index needs the length */
      Py_ssize_t n = view_len(v);
      if (n < 0) return NULL;
      i += n;
    }
    return view_item(v, i);
  }
  if (!PySlice_Check(key)) {
    PyErr_Format(PyExc_TypeError,
                 "View indices must be integers or slices, not %.100s",
                 Py_TYPE(key)->tp_name);
    return NULL;
  }
  Py_ssize_t start, stop, step;
  if (PySlice_Unpack(key, &start, &stop, &step) < 0) return NULL;
  Py_ssize_t n = view_len(v);
  if (n < 0) return NULL;
  Py_ssize_t count = PySlice_AdjustIndices(n, &start, &stop, step);
  PyObject *list = PyList_New(count);
  if (!list) return NULL;
  for (Py_ssize_t k = 0; k < count; k++) {
    PyObject *row = view_row(v, start + k * step);
    if (!row) {
      Py_DECREF(list);
      return NULL;
    }
    PyList_SET_ITEM(list, k, row);
  }
  return list;
}

/* ---------------------------------------------------------------------- */
/* Columns                                                                 */
/* ---------------------------------------------------------------------- */

/* The types of schema s: letters, and {"columns": [...], "types": [...]}
** for a nested table (the header's own spelling).  tuple: a tuple at the
** top, lists inside. */
static PyObject *types_of(const jj_schema *s, int tuple) {
  size_t n = jj_schema_columns(s);
  PyObject *out = tuple ? PyTuple_New((Py_ssize_t)n) : PyList_New((Py_ssize_t)n);
  for (size_t i = 0; out && i < n; i++) {
    jj_type t = jj_schema_type(s, i);
    PyObject *v;
    if (t == JJ_TABLE) {
      const jj_schema *sub = jj_schema_table(s, i);
      size_t m = jj_schema_columns(sub);
      PyObject *cols = PyList_New((Py_ssize_t)m), *types = NULL;
      for (size_t k = 0; cols && k < m; k++) {
        size_t len;
        const char *p = jj_schema_name(sub, k, &len);
        PyObject *name = PyUnicode_DecodeUTF8(p, (Py_ssize_t)len, NULL);
        if (!name) Py_CLEAR(cols);
        else PyList_SET_ITEM(cols, (Py_ssize_t)k, name);
      }
      if (cols) types = types_of(sub, 0);
      v = types ? Py_BuildValue("{sOsO}", "columns", cols, "types", types)
                : NULL;
      Py_XDECREF(cols);
      Py_XDECREF(types);
    } else {
      v = PyUnicode_FromString(jj_type_short(t));
    }
    if (!v) {
      Py_CLEAR(out);
      break;
    }
    if (tuple) PyTuple_SET_ITEM(out, (Py_ssize_t)i, v);
    else PyList_SET_ITEM(out, (Py_ssize_t)i, v);
  }
  return out;
}

static PyObject *view_get_columns(View *v, void *closure) {
  (void)closure;
  return Py_NewRef(v->names);
}

static PyObject *view_get_types(View *v, void *closure) {
  (void)closure;
  return types_of(jj_doc_schema(v->doc), 1);
}

/* array.array(code) filled with n items of 8 bytes at p. */
static PyObject *make_array(jjpy_state *st, const char *code, const void *p,
                            Py_ssize_t n) {
  if (!st->array_type) {
    PyObject *mod = PyImport_ImportModule("array");
    if (!mod) return NULL;
    st->array_type = PyObject_GetAttrString(mod, "array");
    Py_DECREF(mod);
    if (!st->array_type) return NULL;
  }
  PyObject *arr = PyObject_CallFunction(st->array_type, "s", code);
  PyObject *mem = arr ? PyMemoryView_FromMemory((char *)p, n * 8, PyBUF_READ)
                      : NULL;
  PyObject *r = mem ? PyObject_CallMethod(arr, "frombytes", "O", mem) : NULL;
  Py_XDECREF(mem);
  if (!r) Py_CLEAR(arr);
  Py_XDECREF(r);
  return arr;
}

/* Column col of every row as an array of 8-byte numbers, or NULL without
** an exception when a null turns up (the caller makes a list instead). */
static PyObject *number_array(View *v, jj_cursor *c, size_t col, int is_int,
                              int *failed) {
  jj_error err;
  size_t n = 0, cap = 1024;
  char *buf = PyMem_Malloc(cap * 8);
  PyObject *arr = NULL;
  int r, got = 1;
  if (!buf) return *failed = 1, PyErr_NoMemory();
  while ((r = jj_cursor_next(c, &err)) == 1) {
    if (n == cap) {
      char *more = cap < PY_SSIZE_T_MAX / 16 ? PyMem_Realloc(buf, cap * 16) : NULL;
      if (!more) {
        PyMem_Free(buf);
        return *failed = 1, PyErr_NoMemory();
      }
      buf = more;
      cap *= 2;
    }
    got = is_int ? jj_cursor_int(c, col, (int64_t *)(void *)(buf + n * 8), &err)
                 : jj_cursor_double(c, col, (double *)(void *)(buf + n * 8), &err);
    if (got <= 0) break; /* a null (0: no array) or an error */
    n++;
  }
  if (r < 0 || got < 0) {
    *failed = 1;
    jjpy_raise(v->cv->st, &err, v->cv->top, NULL);
  } else if (got > 0) {
    arr = make_array(v->cv->st, is_int ? "q" : "d", buf, (Py_ssize_t)n);
    if (!arr) *failed = 1;
  }
  PyMem_Free(buf);
  return arr;
}

/* The end of column(): the view's cursor reads every column again. */
static void column_done(View *v, jj_cursor *c) {
  jj_cursor_select(c, NULL, 0, NULL);
  leave(v);
}

static PyObject *view_column(View *v, PyObject *args, PyObject *kwargs) {
  static char *kws[] = {"column", "array", NULL};
  PyObject *key, *list = NULL, *val;
  int want_array = 0, r;
  jj_error err;
  Py_ssize_t col;
  const jj_schema *s = jj_doc_schema(v->doc);
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|$p:column", kws, &key,
                                   &want_array))
    return NULL;
  if (PyUnicode_Check(key)) {
    Py_ssize_t len;
    const char *p = PyUnicode_AsUTF8AndSize(key, &len);
    if (!p) return NULL;
    if ((col = jj_schema_find(s, p, (size_t)len)) < 0) {
      PyErr_SetObject(PyExc_KeyError, key);
      return NULL;
    }
  } else if (PyIndex_Check(key)) {
    col = PyNumber_AsSsize_t(key, PyExc_IndexError);
    if (col == -1 && PyErr_Occurred()) return NULL;
    if (col < 0) col += PyTuple_GET_SIZE(v->names);
    if (col < 0 || col >= PyTuple_GET_SIZE(v->names)) {
      PyErr_SetString(PyExc_IndexError, "column index out of range");
      return NULL;
    }
  } else {
    PyErr_Format(PyExc_TypeError, "column must be a name or an index, not %.100s",
                 Py_TYPE(key)->tp_name);
    return NULL;
  }
  jj_cursor *c = cursor_of(v);
  if (!c || enter(v) < 0) return NULL;
  jj_type t = jj_schema_type(s, (size_t)col);
  /* only this column's values are located as the rows are checked (the
  ** view's cursor reads every column again after: column_done) */
  const size_t only = (size_t)col;
  jj_cursor_select(c, &only, 1, NULL);
  if (want_array && (t == JJ_INT || t == JJ_FLOAT)) {
    int failed = 0;
    jj_cursor_seek(c, 0, NULL); /* before the first row */
    PyObject *arr = number_array(v, c, (size_t)col, t == JJ_INT, &failed);
    if (arr || failed) {
      column_done(v, c);
      return arr;
    }
  }
  jjpy_conv *cv = conv_for(v);
  if (!(list = PyList_New(0))) goto fail;
  jj_cursor_seek(c, 0, NULL);
  while ((r = jj_cursor_next(c, &err)) == 1) {
    if (!(val = jjpy_value(cv, c, (size_t)col))) goto fail;
    if (PyList_Append(list, val) < 0) {
      Py_DECREF(val);
      goto fail;
    }
    Py_DECREF(val);
  }
  if (r == 0) {
    column_done(v, c);
    return list;
  }
  jjpy_raise(cv->st, &err, cv->top, NULL);
fail:
  column_done(v, c);
  Py_XDECREF(list);
  return NULL;
}

static PyObject *view_repr(View *v) {
  return PyUnicode_FromFormat("<jalapenojson.View columns=%R>", v->names);
}

/* ---------------------------------------------------------------------- */
/* The iterator                                                            */
/* ---------------------------------------------------------------------- */

static PyObject *view_iter(View *v) {
  jjpy_state *st = view_state((PyObject *)v);
  jj_error err;
  ViewIter *it = PyObject_New(ViewIter, st->ViewIter);
  if (!it) return NULL;
  it->cur = NULL;
  it->view = (View *)Py_NewRef(v);
  if (!(it->cur = jj_cursor_new(v->doc, &err))) {
    Py_DECREF(it);
    return jjpy_raise(st, &err, v->cv->top, NULL);
  }
  return (PyObject *)it;
}

static PyObject *iter_next(ViewIter *it) {
  jj_error err;
  if (!it->cur) return NULL; /* ended (or failed) before */
  if (enter(it->view) < 0) return NULL;
  int r = jj_cursor_next(it->cur, &err);
  PyObject *row = r == 1 ? jjpy_row(conv_for(it->view), it->cur, it->view->names) : NULL;
  leave(it->view);
  if (r == 1) return row;
  jj_cursor_free(it->cur);
  it->cur = NULL;
  if (r < 0) jjpy_raise(it->view->cv->st, &err, it->view->cv->top, NULL);
  return NULL; /* r == 0: StopIteration */
}

static void iter_dealloc(ViewIter *it) {
  PyTypeObject *tp = Py_TYPE(it);
  jj_cursor_free(it->cur); /* before the View and its document */
  Py_XDECREF(it->view);
  PyObject_Free(it);
  Py_DECREF(tp);
}

/* ---------------------------------------------------------------------- */
/* The types                                                               */
/* ---------------------------------------------------------------------- */

static PyMethodDef view_methods[] = {
    {"column", (PyCFunction)(void (*)(void))view_column,
     METH_VARARGS | METH_KEYWORDS,
     "column(column, *, array=False) -> list | array\n--\n\n"
     "Every value of one column (a name or an index).  array=True gives\n"
     "array('q') for an integer column and array('d') for a float column\n"
     "when it has no nulls, else a list."},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef view_getset[] = {
    {"columns", (getter)view_get_columns, NULL, "the column names (a tuple)",
     NULL},
    {"types", (getter)view_get_types, NULL,
     "the column types: letters, or {'columns': [...], 'types': [...]} for a "
     "nested table",
     NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static PyType_Slot view_slots[] = {
    {Py_tp_dealloc, view_dealloc},
    {Py_tp_repr, view_repr},
    {Py_tp_iter, view_iter},
    {Py_tp_methods, view_methods},
    {Py_tp_getset, view_getset},
    {Py_sq_length, view_len},
    {Py_sq_item, view_item},
    {Py_mp_length, view_len},
    {Py_mp_subscript, view_subscript},
    {Py_tp_doc, (void *)"A lazy sequence of a jalapenojson document's rows "
                        "(see jalapenojson.view)."},
    {0, NULL}};

static PyType_Spec view_spec = {
    .name = "jalapenojson.View",
    .basicsize = sizeof(View),
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_IMMUTABLETYPE |
             Py_TPFLAGS_DISALLOW_INSTANTIATION | Py_TPFLAGS_SEQUENCE,
    .slots = view_slots,
};

static PyType_Slot iter_slots[] = {{Py_tp_dealloc, iter_dealloc},
                                   {Py_tp_iter, PyObject_SelfIter},
                                   {Py_tp_iternext, iter_next},
                                   {0, NULL}};

static PyType_Spec iter_spec = {
    .name = "jalapenojson.ViewIterator",
    .basicsize = sizeof(ViewIter),
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_IMMUTABLETYPE |
             Py_TPFLAGS_DISALLOW_INSTANTIATION,
    .slots = iter_slots,
};

PyTypeObject *jjpy_view_type(PyObject *module) {
  return (PyTypeObject *)PyType_FromModuleAndSpec(module, &view_spec, NULL);
}

PyTypeObject *jjpy_view_iter_type(PyObject *module) {
  return (PyTypeObject *)PyType_FromModuleAndSpec(module, &iter_spec, NULL);
}
