/*
** infer.c — encode's plan: which columns, which types.
**
** Names: columns=, else the keys of the first row (a dict).  Types:
** types= gives some or all (letters i f s d t b x, "jj" or a nested
** {"columns": [...], "types": [...]}, by position or by name); the others
** are inferred from every value as jj_group infers them from SQLite's
** storage classes, refusing to guess across kinds:
**
**   bool -> b   int -> i   float -> f   int and float -> f (each int
**   written as a float, exactly or not at all)   str -> s   bytes,
**   bytearray, memoryview -> x   datetime.date -> d   datetime.datetime
**   -> t   a list of rows -> a nested table   only None -> s
**
** Any other mix is an error naming the column and both kinds, as
** jj_group's "column "x" mixes TEXT and numbers (row 3 is REAL)".  bool
** is checked before int (a bool is an int in Python), datetime before
** date (a datetime is a date), and a bool is not a number here.
*/
#include "plan.h"
#include <stdarg.h>
#include <string.h>

unsigned jjpy_kind(jjpy_state *st, PyObject *v) {
  if (v == Py_None) return K_NONE;
  if (PyBool_Check(v)) return K_BOOL;
  if (PyLong_Check(v)) return K_INT;
  if (PyFloat_Check(v)) return K_FLOAT;
  if (PyUnicode_Check(v)) return K_STR;
  if (PyBytes_Check(v) || PyByteArray_Check(v) || PyMemoryView_Check(v))
    return K_BYTES;
  if (jjpy_is_datetime(v)) return K_DATETIME;
  if (jjpy_is_date(v)) return K_DATE;
  if (PyList_Check(v) || PyTuple_Check(v) || jjpy_is_view(st, v)) return K_TABLE;
  return K_OTHER;
}

PyObject *jjpy_item(PyObject *seq, Py_ssize_t i) {
  if (PyList_Check(seq))
    return i < PyList_GET_SIZE(seq) ? Py_NewRef(PyList_GET_ITEM(seq, i)) : NULL;
  return i < PyTuple_GET_SIZE(seq) ? Py_NewRef(PyTuple_GET_ITEM(seq, i)) : NULL;
}

PyObject *jjpy_table_rows(enc *e, PyObject *v) {
  (void)e;
  if (PyList_Check(v) || PyTuple_Check(v)) return Py_NewRef(v);
  return PySequence_List(v); /* a View: its rows */
}

PyObject *jjpy_a_type(PyObject *v) {
  const char *name = Py_TYPE(v)->tp_name;
  int an = strchr("aeiouAEIOU", name[0]) != NULL && name[0];
  return PyUnicode_FromFormat("%s %s", an ? "an" : "a", name);
}

int jjpy_enc_fail(enc *e, int64_t r, const col_plan *c, jj_code code,
                  const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  PyObject *what = PyUnicode_FromFormatV(fmt, ap);
  va_end(ap);
  PyObject *msg = what ? PyUnicode_FromString("") : NULL;
  for (int i = 0; msg && i < e->depth && i < JJPY_MAX_PATH; i++)
    Py_SETREF(msg, PyUnicode_FromFormat("%Urow %lld, column \"%U\", ", msg,
                                        (long long)e->path[i].row,
                                        e->path[i].name));
  if (msg)
    Py_SETREF(msg, c ? PyUnicode_FromFormat("%Urow %lld, column \"%U\": %U",
                                            msg, (long long)r, c->name, what)
                     : PyUnicode_FromFormat("%Urow %lld: %U", msg,
                                            (long long)r, what));
  Py_XDECREF(what);
  if (!msg) return -1;
  int64_t row = e->depth ? e->path[0].row : r;
  PyObject *name = e->depth ? e->path[0].name : c ? c->name : NULL;
  const char *column = name ? PyUnicode_AsUTF8(name) : NULL;
  if (name && !column) PyErr_Clear(); /* a name with a lone surrogate */
  jjpy_raise_at(e->st, code, row, column, JJ_NO_OFFSET, "%U", msg);
  Py_DECREF(msg);
  return -1;
}

/* ---------------------------------------------------------------------- */
/* Rows                                                                    */
/* ---------------------------------------------------------------------- */

/* Is `name` one of p's names?  (str keys only; exact str comparison, so no
** Python code runs.) */
static int is_name(plan *p, PyObject *key) {
  if (!PyUnicode_Check(key)) return 0;
  for (Py_ssize_t i = 0; i < p->ncol; i++)
    if (PyUnicode_Compare(key, p->cols[i].name) == 0) return 1;
  return 0;
}

int jjpy_row_shape(enc *e, plan *p, PyObject *row, int64_t r) {
  if (PyDict_Check(row)) {
    Py_ssize_t n = PyDict_GET_SIZE(row);
    if (n <= p->ncol) return 0; /* a missing key is found by its lookup */
    PyObject *keys = PyDict_Keys(row); /* a copy: safe to walk */
    if (!keys) return -1;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(keys); i++) {
      PyObject *k = PyList_GET_ITEM(keys, i);
      if (!is_name(p, k)) {
        jjpy_enc_fail(e, r, NULL, JJ_ERR_ROW,
                      "the key %R is not a column (a row has a value for "
                      "each column and nothing else)",
                      k);
        Py_DECREF(keys);
        return -1;
      }
    }
    Py_DECREF(keys);
    return 0;
  }
  if (PyTuple_Check(row) || PyList_Check(row)) {
    Py_ssize_t n = PySequence_Fast_GET_SIZE(row);
    if (n == p->ncol) return 0;
    return jjpy_enc_fail(e, r, NULL, JJ_ERR_ROW,
                         "expected %zd value%s, found %zd", p->ncol,
                         p->ncol == 1 ? "" : "s", n);
  }
  PyObject *a = jjpy_a_type(row);
  if (!a) return -1;
  jjpy_enc_fail(e, r, NULL, JJ_ERR_ROW,
                "a row must be a dict or a tuple, found %U", a);
  Py_DECREF(a);
  return -1;
}

PyObject *jjpy_row_value(enc *e, plan *p, PyObject *row, Py_ssize_t i,
                         int64_t r) {
  col_plan *c = &p->cols[i];
  PyObject *v;
  if (PyDict_Check(row)) {
    if ((v = PyDict_GetItemWithError(row, c->name))) return Py_NewRef(v);
    if (!PyErr_Occurred())
      jjpy_enc_fail(e, r, c, JJ_ERR_ROW,
                    "the row has no value (a row has a value for each "
                    "column: None for null)");
    return NULL;
  }
  if ((v = jjpy_item(row, i))) return v;
  jjpy_enc_fail(e, r, c, JJ_ERR_ROW, "the row changed while it was written");
  return NULL;
}

/* ---------------------------------------------------------------------- */
/* Names and given types                                                   */
/* ---------------------------------------------------------------------- */

static void plan_clear(plan *p) {
  for (Py_ssize_t i = 0; i < p->ncol; i++) {
    Py_XDECREF(p->cols[i].name);
    if (p->cols[i].nested) {
      plan_clear(p->cols[i].nested);
      PyMem_Free(p->cols[i].nested);
    }
  }
  PyMem_Free(p->cols);
  Py_CLEAR(p->spec);
  p->cols = NULL;
  p->ncol = 0;
}

static int apply_types(enc *e, plan *p, PyObject *spec);

/* Take the names: a sequence of str (not a str itself).  Then the types
** that were waiting for them (p->spec). */
static int set_names(enc *e, plan *p, PyObject *names) {
  if (PyUnicode_Check(names) || PyBytes_Check(names)) {
    PyErr_SetString(PyExc_TypeError, "columns must be a sequence of str, "
                                     "not a single str");
    return -1;
  }
  PyObject *seq = PySequence_Fast(names, "columns must be a sequence of str");
  if (!seq) return -1;
  Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
  p->cols = PyMem_Calloc(n ? (size_t)n : 1, sizeof *p->cols);
  if (!p->cols) {
    Py_DECREF(seq);
    return PyErr_NoMemory(), -1;
  }
  for (Py_ssize_t i = 0; i < n; i++) {
    PyObject *name = PySequence_Fast_GET_ITEM(seq, i);
    if (!PyUnicode_Check(name)) {
      PyErr_Format(PyExc_TypeError, "column names must be str, found %R", name);
      Py_DECREF(seq);
      return -1;
    }
    p->cols[i].name = Py_NewRef(name);
    p->ncol = i + 1;
  }
  Py_DECREF(seq);
  if (n == 0)
    return jjpy_raise_at(e->st, JJ_ERR_SCHEMA, 0, NULL, JJ_NO_OFFSET,
                         "a table needs at least one column"), -1;
  PyObject *spec = p->spec;
  p->spec = NULL;
  int rc = spec ? apply_types(e, p, spec) : 0;
  Py_XDECREF(spec);
  return rc;
}

/* Set column c's type from one entry of types=. */
static int apply_one(enc *e, col_plan *c, PyObject *spec) {
  if (spec == Py_None) return 0;
  if (PyUnicode_Check(spec)) {
    Py_ssize_t len;
    const char *s = PyUnicode_AsUTF8AndSize(spec, &len);
    jj_type t = s ? jj_type_from_short(s, (size_t)len) : 0;
    if (!s) return -1;
    if (!t)
      return jjpy_raise_at(e->st, JJ_ERR_SCHEMA, 0, NULL, JJ_NO_OFFSET,
                           "unknown type %R for column \"%U\" (use i, f, s, "
                           "d, t, b, x, jj or {\"columns\": [...], \"types\": "
                           "[...]})",
                           spec, c->name), -1;
    c->type = t;
    c->given = 1;
    if (t == JJ_TABLE && !(c->nested = PyMem_Calloc(1, sizeof *c->nested)))
      return PyErr_NoMemory(), -1;
    return 0;
  }
  if (PyDict_Check(spec)) {
    PyObject *cols = PyDict_GetItemString(spec, "columns");
    PyObject *types = PyDict_GetItemString(spec, "types");
    if (!cols || PyDict_GET_SIZE(spec) != 1 + (types != NULL)) {
      PyErr_Format(PyExc_TypeError,
                   "a nested table type for column \"%U\" is "
                   "{\"columns\": [...], \"types\": [...]} (types optional), "
                   "not %R",
                   c->name, spec);
      return -1;
    }
    c->type = JJ_TABLE;
    c->given = 1;
    if (!(c->nested = PyMem_Calloc(1, sizeof *c->nested)))
      return PyErr_NoMemory(), -1;
    c->nested->spec = Py_XNewRef(types);
    return set_names(e, c->nested, cols);
  }
  PyErr_Format(PyExc_TypeError,
               "the type of column \"%U\" must be a str, a dict or None, not "
               "%.100s",
               c->name, Py_TYPE(spec)->tp_name);
  return -1;
}

/* types=: None, a sequence (one per column) or a dict by name. */
static int apply_types(enc *e, plan *p, PyObject *spec) {
  if (!spec || spec == Py_None) return 0;
  if (PyDict_Check(spec)) {
    PyObject *key, *val;
    Py_ssize_t pos = 0, found = 0;
    for (Py_ssize_t i = 0; i < p->ncol; i++) {
      val = PyDict_GetItemWithError(spec, p->cols[i].name);
      if (!val && PyErr_Occurred()) return -1;
      if (val && (found++, apply_one(e, &p->cols[i], val) < 0)) return -1;
    }
    if (found == PyDict_GET_SIZE(spec)) return 0;
    while (PyDict_Next(spec, &pos, &key, &val))
      if (!is_name(p, key))
        return jjpy_raise_at(e->st, JJ_ERR_SCHEMA, 0, NULL, JJ_NO_OFFSET,
                             "types names %R, which is not a column", key), -1;
    return 0;
  }
  if (PyUnicode_Check(spec)) {
    PyErr_SetString(PyExc_TypeError, "types must be a sequence or a dict, "
                                     "not a str");
    return -1;
  }
  PyObject *seq = PySequence_Fast(spec, "types must be a sequence or a dict");
  if (!seq) return -1;
  int rc = 0;
  if (PySequence_Fast_GET_SIZE(seq) != p->ncol) {
    jjpy_raise_at(e->st, JJ_ERR_SCHEMA, 0, NULL, JJ_NO_OFFSET,
                  "types has %zd entries for %zd columns",
                  PySequence_Fast_GET_SIZE(seq), p->ncol);
    rc = -1;
  }
  for (Py_ssize_t i = 0; rc == 0 && i < p->ncol; i++)
    rc = apply_one(e, &p->cols[i], PySequence_Fast_GET_ITEM(seq, i));
  Py_DECREF(seq);
  return rc;
}

/* ---------------------------------------------------------------------- */
/* Inference                                                               */
/* ---------------------------------------------------------------------- */

/* Does anything in p still wait for the values (names or types)? */
static int needs_values(const plan *p) {
  if (p->ncol == 0) return 1;
  for (Py_ssize_t i = 0; i < p->ncol; i++) {
    const col_plan *c = &p->cols[i];
    if (!c->given || (c->nested && needs_values(c->nested))) return 1;
  }
  return 0;
}

static const char *class_name(unsigned k) {
  if (k & (K_INT | K_FLOAT)) return "numbers";
  switch (k) {
    case K_BOOL: return "bools";
    case K_STR: return "strs";
    case K_BYTES: return "bytes";
    case K_DATE: return "dates";
    case K_DATETIME: return "datetimes";
  }
  return "nested tables";
}

static unsigned class_of(unsigned k) {
  return k & (K_INT | K_FLOAT) ? (K_INT | K_FLOAT) : k;
}

static int infer_table(enc *e, plan *p, PyObject *rows);

/* A nested table value: its rows go into c's nested plan. */
static int infer_nested(enc *e, col_plan *c, PyObject *v, int64_t r) {
  if (!c->nested && !(c->nested = PyMem_Calloc(1, sizeof *c->nested)))
    return PyErr_NoMemory(), -1;
  PyObject *rows = jjpy_table_rows(e, v);
  if (!rows) return -1;
  if (Py_EnterRecursiveCall(" while encoding a nested table")) {
    Py_DECREF(rows);
    return -1;
  }
  if (e->depth < JJPY_MAX_PATH) {
    e->path[e->depth].row = r;
    e->path[e->depth].name = c->name;
  }
  e->depth++;
  int rc = infer_table(e, c->nested, rows);
  e->depth--;
  Py_LeaveRecursiveCall();
  Py_DECREF(rows);
  return rc;
}

/* Look at value v of column c in row r. */
static int infer_value(enc *e, col_plan *c, PyObject *v, int64_t r) {
  unsigned k = jjpy_kind(e->st, v);
  if (k == K_NONE) return 0;
  if (c->given)
    return c->type == JJ_TABLE && k == K_TABLE ? infer_nested(e, c, v, r) : 0;
  if (k == K_OTHER) {
    PyObject *a = jjpy_a_type(v);
    if (a)
      jjpy_enc_fail(e, r, c, JJ_ERR_TYPE,
                    "cannot write %U (a value is None, bool, int, float, "
                    "str, bytes, date, datetime or a list of rows)",
                    a);
    Py_XDECREF(a);
    return -1;
  }
  if (c->kinds && class_of(c->kinds) != class_of(k)) {
    PyObject *a = jjpy_a_type(v);
    if (a)
      jjpy_enc_fail(e, r, c, JJ_ERR_TYPE,
                    "the column mixes %s and %s (this value is %U; give its "
                    "type with types= to write one kind)",
                    class_name(c->kinds), class_name(k), a);
    Py_XDECREF(a);
    return -1;
  }
  c->kinds |= k;
  return k == K_TABLE ? infer_nested(e, c, v, r) : 0;
}

static int infer_table(enc *e, plan *p, PyObject *rows) {
  PyObject *row;
  for (Py_ssize_t i = 0; (row = jjpy_item(rows, i)); i++) {
    int64_t r = (int64_t)i + 1;
    int rc = 0;
    if (p->ncol == 0) { /* a nested table's names: its first dict row's */
      if (!PyDict_Check(row)) {
        jjpy_enc_fail(e, r, NULL, JJ_ERR_SCHEMA,
                      "a nested table's rows must be dicts to name its "
                      "columns (or give them: types= {\"columns\": [...], "
                      "\"types\": [...]})");
        Py_DECREF(row);
        return -1;
      }
      PyObject *keys = PyDict_Keys(row);
      rc = keys ? set_names(e, p, keys) : -1;
      Py_XDECREF(keys);
    }
    if (rc == 0) rc = jjpy_row_shape(e, p, row, r);
    for (Py_ssize_t k = 0; rc == 0 && k < p->ncol; k++) {
      col_plan *c = &p->cols[k];
      if (c->given && !(c->nested && needs_values(c->nested))) continue;
      PyObject *v = jjpy_row_value(e, p, row, k, r);
      rc = v ? infer_value(e, c, v, r) : -1;
      Py_XDECREF(v);
    }
    Py_DECREF(row);
    if (rc) return -1;
  }
  return 0;
}

/* ---------------------------------------------------------------------- */
/* The schema                                                              */
/* ---------------------------------------------------------------------- */

/* The schema of plan p, choosing each inferred type; `where` names the
** nested table (NULL at the top) in the messages of jj_schema_add. */
static jj_schema *plan_schema(enc *e, plan *p, const char *where) {
  jj_error err;
  jj_schema *s = jj_schema_new();
  if (!s) return (jj_schema *)PyErr_NoMemory();
  for (Py_ssize_t i = 0; i < p->ncol; i++) {
    col_plan *c = &p->cols[i];
    jj_schema *nested = NULL;
    Py_ssize_t len;
    const char *name = PyUnicode_AsUTF8AndSize(c->name, &len);
    if (!name) goto fail;
    if (!c->given) {
      unsigned k = c->kinds;
      c->type = k & K_FLOAT ? JJ_FLOAT : k & K_INT ? JJ_INT
                : k & K_BOOL ? JJ_BOOL : k & K_BYTES ? JJ_BYTES
                : k & K_DATE ? JJ_DATE : k & K_DATETIME ? JJ_TIMESTAMP
                : k & K_TABLE ? JJ_TABLE : JJ_TEXT;
    }
    if (c->type == JJ_TABLE) {
      if (!c->nested || c->nested->ncol == 0) {
        jjpy_raise_at(e->st, JJ_ERR_SCHEMA, 0, name, JJ_NO_OFFSET,
                      "%s%s%scolumn \"%U\" has no nested row to take its "
                      "columns from: give its type as {\"columns\": [...], "
                      "\"types\": [...]}",
                      where ? "nested table \"" : "", where ? where : "",
                      where ? "\": " : "", c->name);
        goto fail;
      }
      if (!(nested = plan_schema(e, c->nested, name))) goto fail;
    }
    if (jj_schema_add(s, name, (size_t)len, c->type, nested, &err) != JJ_OK) {
      char label[200];
      PyOS_snprintf(label, sizeof label, "nested table \"%s\"", where ? where : "");
      jjpy_raise(e->st, &err, NULL, where ? label : NULL);
      goto fail;
    }
  }
  return s;
fail:
  jj_schema_free(s);
  return NULL;
}

/* The rows as a list or tuple; never a str, bytes or dict (iterable, but
** surely not rows). */
static PyObject *rows_of(PyObject *rows) {
  if (PyList_Check(rows) || PyTuple_Check(rows)) return Py_NewRef(rows);
  if (PyUnicode_Check(rows) || PyBytes_Check(rows) || PyDict_Check(rows)) {
    PyErr_Format(PyExc_TypeError,
                 "rows must be a list or iterable of dicts or tuples, not "
                 "%.100s",
                 Py_TYPE(rows)->tp_name);
    return NULL;
  }
  return PySequence_List(rows);
}

int jjpy_plan_prepare(enc *e, PyObject *rows, PyObject *columns,
                      PyObject *types) {
  if (!(e->rows = rows_of(rows))) return -1;
  if (columns && columns != Py_None) {
    if (set_names(e, &e->top, columns) < 0) return -1;
  } else {
    PyObject *first = jjpy_item(e->rows, 0);
    int rc = -1;
    if (!first)
      jjpy_raise_at(e->st, JJ_ERR_USAGE, 0, NULL, JJ_NO_OFFSET,
                    "no rows and no columns: give columns= (and types=) to "
                    "write a table without rows");
    else if (!PyDict_Check(first))
      jjpy_raise_at(e->st, JJ_ERR_USAGE, 0, NULL, JJ_NO_OFFSET,
                    "rows that are not dicts need columns= to name their "
                    "values");
    else {
      PyObject *keys = PyDict_Keys(first);
      rc = keys ? set_names(e, &e->top, keys) : -1;
      Py_XDECREF(keys);
    }
    Py_XDECREF(first);
    if (rc < 0) return -1;
  }
  if (apply_types(e, &e->top, types) < 0) return -1;
  if (needs_values(&e->top) && infer_table(e, &e->top, e->rows) < 0) return -1;
  return (e->schema = plan_schema(e, &e->top, NULL)) ? 0 : -1;
}

void jjpy_plan_free(enc *e) {
  jj_schema_free(e->schema);
  e->schema = NULL;
  plan_clear(&e->top);
  Py_CLEAR(e->rows);
}
