/*
** convert.c — from_json(data) and from_csv(data): the core's converter
** (jj_convert over jj_input_memory) on bytes or str, the document's bytes
** out; its notes as InferenceWarning, its errors as jalapenojson.Error
** (offset: the byte of the input).  from_csv's rows set aside (on_error)
** are appended as dicts to the caller's `rejects` list.
**
** The conversion runs with the GIL released, over bytes that cannot change
** meanwhile: a bytes object or a str's UTF-8 as they are, other buffers
** copied once.  The note and interrupt callbacks take the GIL back for a
** moment (Ctrl-C stops a long conversion).
*/
#include "jjpy.h"
#include <stdlib.h>
#include <string.h>

typedef struct conv {
  PyThreadState *ts; /* the GIL released */
  PyObject *notes;   /* list of str */
  PyObject *rejects; /* the caller's list of the rows set aside, or NULL */
  int note_failed;
  int signalled;
  char *p;           /* the document (malloc) */
  size_t len, cap;
  int oom;
} conv;

static void note(void *ctx, const char *msg) {
  conv *c = ctx;
  PyEval_RestoreThread(c->ts);
  PyObject *s = PyUnicode_DecodeUTF8(msg, (Py_ssize_t)strlen(msg), "replace");
  if (!s || PyList_Append(c->notes, s) < 0) {
    PyErr_Clear();
    c->note_failed = 1;
  }
  Py_XDECREF(s);
  c->ts = PyEval_SaveThread();
}

/* A row set aside: a dict appended to the caller's rejects list. */
static void reject(void *ctx, const jj_error *e, const char *col,
                   size_t col_len) {
  conv *c = ctx;
  PyEval_RestoreThread(c->ts);
  PyObject *d = NULL, *v;
  if (!c->rejects) goto out;
  if (!(d = PyDict_New())) goto fail;
  v = PyLong_FromLongLong((long long)e->row);
  if (!v || PyDict_SetItemString(d, "row", v) < 0) goto fail_v;
  Py_DECREF(v);
  v = e->offset == JJ_NO_OFFSET ? Py_NewRef(Py_None)
                                : PyLong_FromSize_t(e->offset);
  if (!v || PyDict_SetItemString(d, "byte", v) < 0) goto fail_v;
  Py_DECREF(v);
  v = col ? PyUnicode_DecodeUTF8(col, (Py_ssize_t)col_len, "replace")
          : Py_NewRef(Py_None);
  if (!v || PyDict_SetItemString(d, "column", v) < 0) goto fail_v;
  Py_DECREF(v);
  v = PyUnicode_FromString(jj_code_name(e->code));
  if (!v || PyDict_SetItemString(d, "code", v) < 0) goto fail_v;
  Py_DECREF(v);
  v = PyUnicode_DecodeUTF8(e->message, (Py_ssize_t)strlen(e->message),
                           "replace");
  if (!v || PyDict_SetItemString(d, "message", v) < 0) goto fail_v;
  Py_DECREF(v);
  if (PyList_Append(c->rejects, d) < 0) goto fail;
  goto out;
fail_v:
  Py_XDECREF(v);
fail:
  PyErr_Clear();
  c->note_failed = 1;
out:
  Py_XDECREF(d);
  c->ts = PyEval_SaveThread();
}

static int interrupt(void *ctx) {
  conv *c = ctx;
  PyEval_RestoreThread(c->ts);
  int bad = PyErr_CheckSignals();
  c->ts = PyEval_SaveThread();
  if (bad) c->signalled = 1;
  return bad;
}

/* The document into a growing buffer. */
static int sink(void *ctx, const char *data, size_t len) {
  conv *c = ctx;
  if (len > c->cap - c->len) {
    size_t cap = c->cap ? c->cap : 4096;
    while (cap - c->len < len) {
      if (cap > SIZE_MAX / 2) return c->oom = 1, -1;
      cap *= 2;
    }
    char *p = realloc(c->p, cap);
    if (!p) return c->oom = 1, -1;
    c->p = p;
    c->cap = cap;
  }
  memcpy(c->p + c->len, data, len);
  c->len += len;
  return 0;
}

/* A boolean keyword as a flag. */
static int flag(PyObject *v, unsigned bit, unsigned *flags) {
  int t = v ? PyObject_IsTrue(v) : 0;
  if (t < 0) return -1;
  if (t) *flags |= bit;
  return 0;
}

/* Convert `data` as o says (its schema and null_text set from the
** objects).  The document's bytes, or NULL. */
static PyObject *convert(PyObject *module, PyObject *data, PyObject *schema,
                         PyObject *rejects, jj_convert_opts *o) {
  jjpy_state *st = PyModule_GetState(module);
  PyObject *spec = NULL, *result = NULL;
  Py_buffer view = {0};
  int have_view = 0;
  char *copy = NULL;
  const char *p;
  Py_ssize_t n;
  conv c;
  memset(&c, 0, sizeof c);
  if (schema && schema != Py_None) {
    if (!PyUnicode_Check(schema) && !PyDict_Check(schema)) {
      PyErr_Format(PyExc_TypeError,
                   "schema must be a str (\"id:i,joined:d\") or a dict by "
                   "name, not %.100s",
                   Py_TYPE(schema)->tp_name);
      return NULL;
    }
    if (!(spec = jjpy_schema_string(st, NULL, schema))) return NULL;
    if (!(o->schema = PyUnicode_AsUTF8(spec))) goto done;
  }
  if (PyUnicode_Check(data)) {
    if (!(p = PyUnicode_AsUTF8AndSize(data, &n))) {
      if (PyErr_ExceptionMatches(PyExc_UnicodeEncodeError)) {
        PyErr_Clear();
        jjpy_raise_at(st, JJ_ERR_UTF8, 0, NULL, JJ_NO_OFFSET,
                      "the str is not valid UTF-8 (it holds a lone "
                      "surrogate)");
      }
      goto done;
    }
  } else if (PyBytes_Check(data)) {
    p = PyBytes_AS_STRING(data);
    n = PyBytes_GET_SIZE(data);
  } else if (PyObject_CheckBuffer(data)) {
    /* a bytearray may change while the GIL is released: a copy */
    if (PyObject_GetBuffer(data, &view, PyBUF_SIMPLE) < 0) goto done;
    have_view = 1;
    if (!(copy = malloc(view.len ? (size_t)view.len : 1))) {
      PyErr_NoMemory();
      goto done;
    }
    memcpy(copy, view.buf, (size_t)view.len);
    p = copy;
    n = view.len;
  } else {
    PyErr_Format(PyExc_TypeError, "data must be bytes or str, not %.100s",
                 Py_TYPE(data)->tp_name);
    goto done;
  }
  if (!(c.notes = PyList_New(0))) goto done;
  o->note = note;
  o->note_ctx = &c;
  o->interrupt = interrupt;
  o->interrupt_ctx = &c;
  c.rejects = rejects;
  o->reject = reject;
  o->reject_ctx = &c;
  jj_input in;
  jj_input_memory(&in, p, (size_t)n, NULL);
  jj_convert_result res;
  jj_error err;
  c.ts = PyEval_SaveThread();
  jj_code code = jj_convert(&in, o, sink, &c, &res, &err);
  PyEval_RestoreThread(c.ts);
  if (code == JJ_OK) jj_schema_free(res.schema);
  if (c.signalled) {
    if (!PyErr_Occurred()) PyErr_SetInterrupt();
  } else if (c.oom || c.note_failed) {
    PyErr_NoMemory();
  } else if (code != JJ_OK) {
    jjpy_raise(st, &err, NULL, NULL);
  } else if (jjpy_warn_notes(st, c.notes) == 0) {
    result = PyBytes_FromStringAndSize(c.p ? c.p : "", (Py_ssize_t)c.len);
  }
done:
  free(c.p);
  free(copy);
  if (have_view) PyBuffer_Release(&view);
  Py_XDECREF(c.notes);
  Py_XDECREF(spec);
  return result;
}

PyObject *jjpy_from_json(PyObject *module, PyObject *args, PyObject *kwargs) {
  static char *kws[] = {"data", "schema", "bad_to_null", NULL};
  PyObject *data, *schema = NULL, *bad = NULL;
  jj_convert_opts o;
  memset(&o, 0, sizeof o);
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|$OO:from_json", kws,
                                   &data, &schema, &bad) ||
      flag(bad, JJ_CONVERT_BAD_TO_NULL, &o.flags) < 0)
    return NULL;
  o.from = JJ_FORMAT_JSON; /* an array of objects, or NDJSON */
  return convert(module, data, schema, NULL, &o);
}

PyObject *jjpy_from_csv(PyObject *module, PyObject *args, PyObject *kwargs) {
  static char *kws[] = {"data",     "schema",        "delimiter",
                        "null",     "booleans",      "empty_is_text",
                        "bad_to_null", "null_padding", "on_error",
                        "rejects",  NULL};
  PyObject *data, *schema = NULL, *delim = NULL, *null = NULL,
           *booleans = NULL, *empty = NULL, *bad = NULL, *pad = NULL,
           *on_error = NULL, *rejects = NULL;
  jj_convert_opts o;
  memset(&o, 0, sizeof o);
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|$OOOOOOOOO:from_csv", kws,
                                   &data, &schema, &delim, &null, &booleans,
                                   &empty, &bad, &pad, &on_error, &rejects) ||
      flag(booleans, JJ_CONVERT_CSV_BOOLEANS, &o.flags) < 0 ||
      flag(empty, JJ_CONVERT_CSV_EMPTY_IS_TEXT, &o.flags) < 0 ||
      flag(bad, JJ_CONVERT_BAD_TO_NULL, &o.flags) < 0 ||
      flag(pad, JJ_CONVERT_CSV_NULL_PADDING, &o.flags) < 0)
    return NULL;
  if (on_error && on_error != Py_None) {
    const char *w = PyUnicode_Check(on_error) ? PyUnicode_AsUTF8(on_error)
                                              : NULL;
    if (w && !strcmp(w, "fail"))
      o.on_error = JJ_ON_ERROR_FAIL;
    else if (w && !strcmp(w, "skip"))
      o.on_error = JJ_ON_ERROR_SKIP;
    else if (w && !strcmp(w, "null"))
      o.on_error = JJ_ON_ERROR_NULL;
    else {
      PyErr_Clear();
      PyErr_SetString(PyExc_ValueError,
                      "on_error must be \"fail\", \"skip\" or \"null\"");
      return NULL;
    }
  }
  if (rejects == Py_None) rejects = NULL;
  if (rejects && !PyList_Check(rejects)) {
    PyErr_Format(PyExc_TypeError,
                 "rejects must be a list (the rows set aside are appended "
                 "to it), not %.100s",
                 Py_TYPE(rejects)->tp_name);
    return NULL;
  }
  o.from = JJ_FORMAT_CSV;
  if (delim && delim != Py_None) {
    /* as the csv module: a 1-character str */
    if (!PyUnicode_Check(delim) || PyUnicode_GET_LENGTH(delim) != 1 ||
        PyUnicode_READ_CHAR(delim, 0) > 0x7F) {
      PyErr_SetString(PyExc_TypeError,
                      "delimiter must be a 1-character ASCII str");
      return NULL;
    }
    o.delimiter = (char)PyUnicode_READ_CHAR(delim, 0);
    if (o.delimiter == '\t') o.from = JJ_FORMAT_TSV;
  }
  /* null: a str, or a list or tuple of str (each means null, the first
  ** as a str alone does); each str held here, since another thread may
  ** change the list while the conversion runs without the GIL */
  const char *nulls[JJ_CONVERT_MAX_NULLS];
  PyObject *held[JJ_CONVERT_MAX_NULLS + 1];
  Py_ssize_t n_held = 0;
  if (null && (PyList_Check(null) || PyTuple_Check(null))) {
    PyObject *seq = PySequence_Fast(null, "null");
    if (!seq) return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    int refused = n == 0 || n > JJ_CONVERT_MAX_NULLS + 1;
    if (refused)
      PyErr_Format(PyExc_ValueError, "null takes 1 to %d texts, not %zd",
                   JJ_CONVERT_MAX_NULLS + 1, n);
    for (Py_ssize_t i = 0; !refused && i < n; i++) {
      PyObject *t = PySequence_Fast_GET_ITEM(seq, i);
      const char *u = PyUnicode_Check(t) ? PyUnicode_AsUTF8(t) : NULL;
      if (!u) {
        if (!PyErr_Occurred())
          PyErr_Format(PyExc_TypeError,
                       "null must be a str or a list of str, not a list "
                       "holding %.100s",
                       Py_TYPE(t)->tp_name);
        refused = 1;
      } else {
        held[n_held++] = Py_NewRef(t);
        if (i == 0)
          o.null_text = u;
        else
          nulls[o.n_null_texts++] = u;
      }
    }
    Py_DECREF(seq);
    if (refused) {
      while (n_held) Py_DECREF(held[--n_held]);
      return NULL;
    }
    o.null_texts = nulls;
  } else if (null && null != Py_None) {
    if (!PyUnicode_Check(null)) {
      PyErr_Format(PyExc_TypeError,
                   "null must be a str or a list of str, not %.100s",
                   Py_TYPE(null)->tp_name);
      return NULL;
    }
    if (!(o.null_text = PyUnicode_AsUTF8(null))) return NULL;
  }
  PyObject *doc = convert(module, data, schema, rejects, &o);
  while (n_held) Py_DECREF(held[--n_held]);
  return doc;
}
