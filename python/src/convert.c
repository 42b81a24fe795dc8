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

/* date_format= and timestamp_format=: a str or a list or tuple of str,
** each str held while the conversion runs without the GIL. */
typedef struct fmts {
  const char *v[2][JJ_CONVERT_MAX_FORMATS];
  PyObject *held[2 * JJ_CONVERT_MAX_FORMATS];
  size_t n_held;
} fmts;

static void fmts_free(fmts *f) {
  while (f->n_held) Py_DECREF(f->held[--f->n_held]);
}

/* Keyword `kw` (ts: the timestamp one) into o.  0, or -1 raised. */
static int formats(PyObject *v, const char *kw, int ts, fmts *f,
                   jj_convert_opts *o) {
  size_t *n = ts ? &o->n_timestamp_formats : &o->n_date_formats;
  if (!v || v == Py_None) return 0;
  PyObject *seq = PyUnicode_Check(v) ? PyTuple_Pack(1, v)
                  : PyList_Check(v) || PyTuple_Check(v)
                      ? PySequence_Fast(v, kw)
                      : NULL;
  if (!seq) {
    if (!PyErr_Occurred())
      PyErr_Format(PyExc_TypeError, "%s must be a str or a list of str, not %.100s",
                   kw, Py_TYPE(v)->tp_name);
    return -1;
  }
  Py_ssize_t k = PySequence_Fast_GET_SIZE(seq);
  int refused = k == 0 || k > JJ_CONVERT_MAX_FORMATS;
  if (refused)
    PyErr_Format(PyExc_ValueError, "%s takes 1 to %d patterns, not %zd", kw,
                 JJ_CONVERT_MAX_FORMATS, k);
  for (Py_ssize_t i = 0; !refused && i < k; i++) {
    PyObject *t = PySequence_Fast_GET_ITEM(seq, i);
    const char *u = PyUnicode_Check(t) ? PyUnicode_AsUTF8(t) : NULL;
    if (!u) {
      if (!PyErr_Occurred())
        PyErr_Format(PyExc_TypeError,
                     "%s must be a str or a list of str, not a list holding "
                     "%.100s",
                     kw, Py_TYPE(t)->tp_name);
      refused = 1;
    } else {
      f->held[f->n_held++] = Py_NewRef(t);
      f->v[ts][(*n)++] = u;
    }
  }
  Py_DECREF(seq);
  if (ts)
    o->timestamp_formats = f->v[1];
  else
    o->date_formats = f->v[0];
  return refused ? -1 : 0;
}

PyObject *jjpy_from_json(PyObject *module, PyObject *args, PyObject *kwargs) {
  static char *kws[] = {"data", "schema", "bad_to_null", "date_format",
                        "timestamp_format", NULL};
  PyObject *data, *schema = NULL, *bad = NULL, *dfmt = NULL, *tfmt = NULL;
  jj_convert_opts o;
  fmts f;
  memset(&o, 0, sizeof o);
  f.n_held = 0;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|$OOOO:from_json", kws,
                                   &data, &schema, &bad, &dfmt, &tfmt) ||
      flag(bad, JJ_CONVERT_BAD_TO_NULL, &o.flags) < 0)
    return NULL;
  PyObject *doc = NULL;
  o.from = JJ_FORMAT_JSON; /* an array of objects, or NDJSON */
  if (formats(dfmt, "date_format", 0, &f, &o) == 0 &&
      formats(tfmt, "timestamp_format", 1, &f, &o) == 0)
    doc = convert(module, data, schema, NULL, &o);
  fmts_free(&f);
  return doc;
}

/* The null option's texts, each str held here (another thread may change
** a list or dict while the conversion runs without the GIL). */
typedef struct nulls_opt {
  const char *more[JJ_CONVERT_MAX_NULLS];
  jj_convert_null_for per[JJ_CONVERT_MAX_NULL_FOR];
  PyObject *held[JJ_CONVERT_MAX_NULLS + 3 + 3 * JJ_CONVERT_MAX_NULL_FOR];
  Py_ssize_t n_held;
} nulls_opt;

static const char nulls_words[] =
    "null must be a str, a list of str, or a dict of them by column "
    "(\"*\": every column)";

/* v (a str, or a list or tuple of str) as texts that mean null: in every
** column when column is NULL (the first as null_text), else in that one.
** 0, or -1 with an exception. */
static int texts_of(nulls_opt *no, PyObject *v, const char *column,
                    jj_convert_opts *o) {
  int many = PyList_Check(v) || PyTuple_Check(v);
  PyObject *seq = many ? PySequence_Fast(v, "null") : Py_NewRef(v);
  if (!seq) return -1;
  Py_ssize_t n = many ? PySequence_Fast_GET_SIZE(seq) : 1;
  int refused = 0;
  if (many && (n == 0 || (!column && n > JJ_CONVERT_MAX_NULLS + 1))) {
    PyErr_Format(PyExc_ValueError, "null takes 1 to %d texts%s, not %zd",
                 column ? JJ_CONVERT_MAX_NULL_FOR : JJ_CONVERT_MAX_NULLS + 1,
                 column ? " for a column" : "", n);
    refused = 1;
  }
  for (Py_ssize_t i = 0; !refused && i < n; i++) {
    PyObject *t = many ? PySequence_Fast_GET_ITEM(seq, i) : seq;
    const char *u = PyUnicode_Check(t) ? PyUnicode_AsUTF8(t) : NULL;
    if (!u) {
      if (!PyErr_Occurred())
        PyErr_Format(PyExc_TypeError, "%s, not %s%.100s", nulls_words,
                     many ? "a list holding " : "", Py_TYPE(t)->tp_name);
      refused = 1;
    } else if (column && o->n_null_for == JJ_CONVERT_MAX_NULL_FOR) {
      PyErr_Format(PyExc_ValueError,
                   "null takes at most %d texts for columns",
                   JJ_CONVERT_MAX_NULL_FOR);
      refused = 1;
    } else {
      no->held[no->n_held++] = Py_NewRef(t);
      if (column) {
        no->per[o->n_null_for].column = column;
        no->per[o->n_null_for++].text = u;
        o->null_for = no->per;
      } else if (!o->null_text) {
        o->null_text = u;
      } else {
        no->more[o->n_null_texts++] = u;
        o->null_texts = no->more;
      }
    }
  }
  Py_DECREF(seq);
  return refused ? -1 : 0;
}

/* The null option: texts for every column, or a dict of them by column
** name ("*" for every column).  0, or -1 with an exception. */
static int nulls_of(nulls_opt *no, PyObject *null, jj_convert_opts *o) {
  if (!PyDict_Check(null)) {
    if (!PyUnicode_Check(null) && !PyList_Check(null) && !PyTuple_Check(null)) {
      PyErr_Format(PyExc_TypeError, "%s, not %.100s", nulls_words,
                   Py_TYPE(null)->tp_name);
      return -1;
    }
    return texts_of(no, null, NULL, o);
  }
  PyObject *key, *value;
  Py_ssize_t pos = 0;
  while (PyDict_Next(null, &pos, &key, &value)) {
    const char *name = PyUnicode_Check(key) ? PyUnicode_AsUTF8(key) : NULL;
    if (!name) {
      if (!PyErr_Occurred())
        PyErr_Format(PyExc_TypeError,
                     "null's keys must be column names (str), not %.100s",
                     Py_TYPE(key)->tp_name);
      return -1;
    }
    no->held[no->n_held++] = Py_NewRef(key);
    if (texts_of(no, value, strcmp(name, "*") ? name : NULL, o) < 0) return -1;
  }
  return 0;
}

PyObject *jjpy_from_csv(PyObject *module, PyObject *args, PyObject *kwargs) {
  static char *kws[] = {"data",     "schema",        "delimiter",
                        "null",     "booleans",      "empty_is_text",
                        "bad_to_null", "null_padding", "on_error",
                        "rejects",  "thousands",     "header",
                        "date_format", "timestamp_format", NULL};
  PyObject *data, *schema = NULL, *delim = NULL, *null = NULL,
           *booleans = NULL, *empty = NULL, *bad = NULL, *pad = NULL,
           *on_error = NULL, *rejects = NULL, *thousands = NULL,
           *header = NULL, *dfmt = NULL, *tfmt = NULL;
  jj_convert_opts o;
  memset(&o, 0, sizeof o);
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|$OOOOOOOOOOOOO:from_csv",
                                   kws, &data, &schema, &delim, &null,
                                   &booleans, &empty, &bad, &pad, &on_error,
                                   &rejects, &thousands, &header, &dfmt,
                                   &tfmt) ||
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
  int with_header = header && header != Py_None ? PyObject_IsTrue(header) : 1;
  if (with_header < 0) return NULL;
  if (!with_header) o.flags |= JJ_CONVERT_CSV_NO_HEADER;
  if (thousands && thousands != Py_None) {
    /* the converter says which characters cannot be one */
    if (!PyUnicode_Check(thousands) || PyUnicode_GET_LENGTH(thousands) != 1 ||
        PyUnicode_READ_CHAR(thousands, 0) > 0x7F) {
      PyErr_SetString(PyExc_TypeError,
                      "thousands must be a 1-character ASCII str");
      return NULL;
    }
    o.thousands = (char)PyUnicode_READ_CHAR(thousands, 0);
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
  nulls_opt no;
  no.n_held = 0;
  if (null && null != Py_None && nulls_of(&no, null, &o) < 0) {
    while (no.n_held) Py_DECREF(no.held[--no.n_held]);
    return NULL;
  }
  fmts f;
  PyObject *doc = NULL;
  f.n_held = 0;
  if (formats(dfmt, "date_format", 0, &f, &o) == 0 &&
      formats(tfmt, "timestamp_format", 1, &f, &o) == 0)
    doc = convert(module, data, schema, rejects, &o);
  fmts_free(&f);
  while (no.n_held) Py_DECREF(no.held[--no.n_held]);
  return doc;
}
