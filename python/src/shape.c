/*
** shape.c — the columns a caller gives (columns=, types=, a View's nested
** tables) as shapes, and types= as the row builder's schema string
** ("id:i,items:{qty:f}"): letters, "jj", {"columns": [...], "types":
** [...]}, by name or by position.
*/
#include "jjpy.h"
#include <string.h>

void jjpy_shape_clear(jjpy_shape *s) {
  for (Py_ssize_t i = 0; i < s->nsub; i++) jjpy_shape_clear(&s->sub[i]);
  PyMem_Free(s->sub);
  Py_CLEAR(s->names);
  Py_CLEAR(s->subs);
  s->sub = NULL;
  s->nsub = s->cap = 0;
}

/* The shape of the nested column `name` of s, or NULL. */
jjpy_shape *jjpy_shape_sub(jjpy_shape *s, PyObject *name) {
  if (!s || !s->subs) return NULL;
  PyObject *i = PyDict_GetItemWithError(s->subs, name);
  if (!i) {
    PyErr_Clear(); /* a str key: no error but a broken __eq__ we never call */
    return NULL;
  }
  return &s->sub[PyLong_AsSsize_t(i)];
}

/* A new nested shape for `name` in s. */
static jjpy_shape *shape_add(jjpy_shape *s, PyObject *name) {
  if (s->nsub == s->cap) {
    Py_ssize_t cap = s->cap ? s->cap * 2 : 4;
    jjpy_shape *sub = PyMem_Realloc(s->sub, (size_t)cap * sizeof *sub);
    if (!sub) return PyErr_NoMemory(), NULL;
    s->sub = sub;
    s->cap = cap;
  }
  if (!s->subs && !(s->subs = PyDict_New())) return NULL;
  PyObject *i = PyLong_FromSsize_t(s->nsub);
  if (!i || PyDict_SetItem(s->subs, name, i) < 0) {
    Py_XDECREF(i);
    return NULL;
  }
  Py_DECREF(i);
  memset(&s->sub[s->nsub], 0, sizeof *s->sub);
  return &s->sub[s->nsub++];
}

/* ---------------------------------------------------------------------- */
/* types= as the builder's schema string                                  */
/* ---------------------------------------------------------------------- */

/* A name as the schema string spells it: bare, or a JSON string when it
** holds , : { } " \ or a space or control character. */
static PyObject *spec_name(jjpy_state *st, PyObject *name) {
  Py_ssize_t n = PyUnicode_GET_LENGTH(name);
  int plain = n > 0;
  for (Py_ssize_t i = 0; plain && i < n; i++) {
    Py_UCS4 ch = PyUnicode_READ_CHAR(name, i);
    if (ch <= 0x20 || ch == 0x7F || strchr(",:{}\"\\", (int)ch)) plain = 0;
  }
  if (plain) return Py_NewRef(name);
  PyObject *enc = NULL;
  (void)st;
  PyObject *json = PyImport_ImportModule("json");
  if (json) {
    PyObject *dumps = PyObject_GetAttrString(json, "dumps");
    PyObject *kw = dumps ? Py_BuildValue("{s:O}", "ensure_ascii", Py_False)
                         : NULL;
    PyObject *args = kw ? PyTuple_Pack(1, name) : NULL;
    if (args) enc = PyObject_Call(dumps, args, kw);
    Py_XDECREF(args);
    Py_XDECREF(kw);
    Py_XDECREF(dumps);
    Py_DECREF(json);
  }
  return enc;
}

static int spec_list(jjpy_state *st, jjpy_shape *sh, PyObject *names,
                     PyObject *types, PyObject *out);

/* A sequence of str as a tuple (columns=, a nested "columns"); what names
** the argument in messages. */
PyObject *jjpy_names_tuple(jjpy_state *st, PyObject *names) {
  if (PyUnicode_Check(names) || PyBytes_Check(names)) {
    PyErr_SetString(PyExc_TypeError, "columns must be a sequence of str, "
                                     "not a single str");
    return NULL;
  }
  PyObject *t = PySequence_Tuple(names);
  if (!t) {
    if (PyErr_ExceptionMatches(PyExc_TypeError)) {
      PyErr_Clear();
      PyErr_SetString(PyExc_TypeError, "columns must be a sequence of str");
    }
    return NULL;
  }
  for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(t); i++)
    if (!PyUnicode_CheckExact(PyTuple_GET_ITEM(t, i)) &&
        !PyUnicode_Check(PyTuple_GET_ITEM(t, i))) {
      PyErr_Format(PyExc_TypeError, "column names must be str, found %R",
                   PyTuple_GET_ITEM(t, i));
      Py_DECREF(t);
      return NULL;
    }
  if (PyTuple_GET_SIZE(t) == 0) {
    Py_DECREF(t);
    jjpy_raise_at(st, JJ_ERR_SCHEMA, 0, NULL, JJ_NO_OFFSET,
                  "a table needs at least one column");
    return NULL;
  }
  return t;
}

/* One column's entry of types= ("name:L" or "name:{...}") onto out, a
** list of str; sh gets the nested table's shape. */
static int spec_one(jjpy_state *st, jjpy_shape *sh, PyObject *name, PyObject *t,
                    PyObject *out) {
  if (t == Py_None) return 0;
  PyObject *n = spec_name(st, name), *item = NULL;
  if (!n) return -1;
  int rc = -1;
  if (PyUnicode_Check(t)) {
    Py_ssize_t len;
    const char *s = PyUnicode_AsUTF8AndSize(t, &len);
    if (!s) goto done;
    if (len == 2 && !memcmp(s, "jj", 2)) {
      item = PyUnicode_FromFormat("%U:{}", n);
    } else if (len == 1 && strchr("ifsdtlbxj", s[0])) {
      item = PyUnicode_FromFormat("%U:%s", n, s);
    } else {
      jjpy_raise_at(st, JJ_ERR_SCHEMA, 0, NULL, JJ_NO_OFFSET,
                    "unknown type %R for column \"%U\" (use i, f, s, d, t, l, b, "
                    "x, j, jj or {\"columns\": [...], \"types\": [...]})",
                    t, name);
      goto done;
    }
  } else if (PyDict_Check(t)) {
    PyObject *cols = PyDict_GetItemString(t, "columns");
    PyObject *types = PyDict_GetItemString(t, "types");
    if (!cols || PyDict_GET_SIZE(t) != 1 + (types != NULL)) {
      PyErr_Format(PyExc_TypeError,
                   "a nested table type for column \"%U\" is "
                   "{\"columns\": [...], \"types\": [...]} (types optional), "
                   "not %R",
                   name, t);
      goto done;
    }
    jjpy_shape *sub = sh ? shape_add(sh, name) : NULL;
    if (sh && !sub) goto done;
    PyObject *tuple = jjpy_names_tuple(st, cols), *inner = NULL;
    if (!tuple) goto done;
    if (sub) sub->names = Py_NewRef(tuple);
    if ((inner = PyList_New(0)) &&
        spec_list(st, sub, tuple, types, inner) == 0) {
      PyObject *sep = PyUnicode_FromString(",");
      PyObject *joined = sep ? PyUnicode_Join(sep, inner) : NULL;
      if (joined) item = PyUnicode_FromFormat("%U:{%U}", n, joined);
      Py_XDECREF(joined);
      Py_XDECREF(sep);
    }
    Py_XDECREF(inner);
    Py_DECREF(tuple);
  } else {
    PyErr_Format(PyExc_TypeError,
                 "the type of column \"%U\" must be a str, a dict or None, "
                 "not %.100s",
                 name, Py_TYPE(t)->tp_name);
  }
  if (item && PyList_Append(out, item) == 0) rc = 0;
done:
  Py_XDECREF(item);
  Py_DECREF(n);
  return rc;
}

/* types= of one table (None, a sequence by position in `names`, a dict by
** name) onto out. */
static int spec_list(jjpy_state *st, jjpy_shape *sh, PyObject *names,
                     PyObject *types, PyObject *out) {
  if (!types || types == Py_None) return 0;
  if (PyDict_Check(types)) {
    PyObject *key, *val;
    Py_ssize_t pos = 0;
    PyObject *items = PyDict_Items(types); /* a copy: safe to walk */
    if (!items) return -1;
    int rc = 0;
    for (pos = 0; rc == 0 && pos < PyList_GET_SIZE(items); pos++) {
      key = PyTuple_GET_ITEM(PyList_GET_ITEM(items, pos), 0);
      val = PyTuple_GET_ITEM(PyList_GET_ITEM(items, pos), 1);
      if (!PyUnicode_Check(key)) {
        PyErr_Format(PyExc_TypeError, "types names must be str, found %R",
                     key);
        rc = -1;
      } else if (names && !PySequence_Contains(names, key)) {
        jjpy_raise_at(st, JJ_ERR_SCHEMA, 0, NULL, JJ_NO_OFFSET,
                      "types names %R, which is not a column", key);
        rc = -1;
      } else {
        rc = spec_one(st, sh, key, val, out);
      }
    }
    Py_DECREF(items);
    return rc;
  }
  if (PyUnicode_Check(types)) {
    PyErr_SetString(PyExc_TypeError, "types must be a sequence or a dict, "
                                     "not a str");
    return -1;
  }
  PyObject *seq = PySequence_Tuple(types);
  if (!seq) {
    if (PyErr_ExceptionMatches(PyExc_TypeError)) {
      PyErr_Clear();
      PyErr_SetString(PyExc_TypeError, "types must be a sequence or a dict");
    }
    return -1;
  }
  int rc = 0;
  if (!names) {
    jjpy_raise_at(st, JJ_ERR_USAGE, 0, NULL, JJ_NO_OFFSET,
                  "types by position need the columns' order: give "
                  "columns=, or types as a dict by name");
    rc = -1;
  } else if (PyTuple_GET_SIZE(seq) != PyTuple_GET_SIZE(names)) {
    jjpy_raise_at(st, JJ_ERR_SCHEMA, 0, NULL, JJ_NO_OFFSET,
                  "types has %zd entries for %zd columns",
                  PyTuple_GET_SIZE(seq), PyTuple_GET_SIZE(names));
    rc = -1;
  }
  for (Py_ssize_t i = 0; rc == 0 && i < PyTuple_GET_SIZE(seq); i++)
    rc = spec_one(st, sh, PyTuple_GET_ITEM(names, i),
                  PyTuple_GET_ITEM(seq, i), out);
  Py_DECREF(seq);
  return rc;
}

PyObject *jjpy_schema_of(jjpy_state *st, jjpy_shape *sh, PyObject *names,
                         PyObject *types) {
  if (!types || types == Py_None) return PyUnicode_FromString("");
  if (PyUnicode_Check(types)) return Py_NewRef(types);
  PyObject *out = PyList_New(0), *joined = NULL;
  if (out && spec_list(st, sh, names, types, out) == 0) {
    PyObject *sep = PyUnicode_FromString(",");
    if (sep) joined = PyUnicode_Join(sep, out);
    Py_XDECREF(sep);
  }
  Py_XDECREF(out);
  return joined;
}

PyObject *jjpy_schema_string(jjpy_state *st, PyObject *names,
                             PyObject *types) {
  return jjpy_schema_of(st, NULL, names, types);
}

