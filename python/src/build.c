/*
** build.c — Python rows into the core's row builder (jj_builder), which
** decides the types by the converter's rules (docs/convert.md, "The type of
** a column"); this file only maps each Python value to one of the
** builder's kinds:
**
**   None -> null          bool -> bool (before int: a bool is an int)
**   int -> int (beyond int64: a number, its decimal text)
**   float -> double       str -> text (a lone surrogate is a UTF-8 error)
**   bytes, bytearray, contiguous memoryview -> bytes
**   datetime.date (not a datetime) -> date   aware datetime -> timestamp
**   a list or tuple of dicts (or empty), a View -> a nested table
**   a dict, any other list or tuple -> its JSON text (json's compact form,
**   not ASCII-only: the text the converter keeps for the same JSON)
**
** and gives types= to the builder as its schema string (shape.c), the
** builder's notes into InferenceWarning, its errors into jalapenojson.Error.  Rows are
** dicts (any keys, in any order; a missing key is null), or tuples with
** columns=; columns= fixes the order and, for dicts, the keys allowed.
*/
#include "jjpy.h"
#include <stdarg.h>
#include <string.h>

struct jjpy_build {
  jjpy_state *st;
  jj_builder *b;
  PyObject *schema;   /* the schema string the builder borrows, or NULL */
  PyObject *notes;    /* list of str */
  PyObject *key;      /* the top-level column being given (for errors) */
  jjpy_shape top;
  int note_failed;    /* a note could not be kept (out of memory) */
  PyThreadState *ts;  /* the GIL released around jj_builder_finish */
  int signalled;      /* a signal handler raised */
  int depth;          /* nested tables around the value being given */
  struct {
    int64_t row;
    PyObject *name;   /* strong */
  } path[JJPY_MAX_PATH];
};

/* ---------------------------------------------------------------------- */
/* Messages                                                                */
/* ---------------------------------------------------------------------- */

/* "a str", "an int": the article and the type's name of v. */
static PyObject *a_type(PyObject *v) {
  const char *name = Py_TYPE(v)->tp_name;
  int an = name[0] && strchr("aeiouAEIOU", name[0]) != NULL;
  return PyUnicode_FromFormat("%s %s", an ? "an" : "a", name);
}

/* "row 2, column "items", row 1, column "q": " for row r (of the table
** being given) and column name (may be NULL). */
static PyObject *place(jjpy_build *bd, int64_t r, PyObject *name) {
  PyObject *msg = PyUnicode_FromString("");
  for (int i = 0; msg && i < bd->depth && i < JJPY_MAX_PATH; i++)
    Py_SETREF(msg, PyUnicode_FromFormat("%Urow %lld, column \"%U\", ", msg,
                                        (long long)bd->path[i].row,
                                        bd->path[i].name));
  if (msg && r <= 0 && !bd->depth) { /* before the rows: columns= */
    if (name) Py_SETREF(msg, PyUnicode_FromFormat("column \"%U\": ", name));
  } else if (msg) {
    Py_SETREF(msg, name ? PyUnicode_FromFormat("%Urow %lld, column \"%U\": ",
                                               msg, (long long)r, name)
                        : PyUnicode_FromFormat("%Urow %lld: ", msg,
                                               (long long)r));
  }
  return msg;
}

/* Raise Error(code) at row r, column name: the place, then the message.
** -1. */
static int fail(jjpy_build *bd, int64_t r, PyObject *name, jj_code code,
                const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  PyObject *what = PyUnicode_FromFormatV(fmt, ap);
  va_end(ap);
  PyObject *at = what ? place(bd, r, name) : NULL;
  if (at) {
    int64_t row = bd->depth ? bd->path[0].row : r;
    PyObject *col = bd->depth ? bd->path[0].name : name;
    const char *column = col ? PyUnicode_AsUTF8(col) : NULL;
    if (col && !column) PyErr_Clear(); /* a name with a lone surrogate */
    jjpy_raise_at(bd->st, code, row, column, JJ_NO_OFFSET, "%U%U", at, what);
  }
  Py_XDECREF(what);
  Py_XDECREF(at);
  return -1;
}

/* The builder's error (it names the row and the column itself). -1. */
static int builder_failed(jjpy_build *bd) {
  const jj_error *err = jj_builder_error(bd->b);
  if (err->code == JJ_ERR_NOMEM) return PyErr_NoMemory(), -1;
  PyObject *col = bd->depth ? bd->path[0].name : bd->key;
  const char *column = err->row > 0 && col ? PyUnicode_AsUTF8(col) : NULL;
  if (err->row > 0 && col && !column) PyErr_Clear();
  jjpy_raise_at(bd->st, err->code, err->row, column, JJ_NO_OFFSET, "%s",
                err->message);
  return -1;
}

#define CALL(bd, expr) ((expr) == JJ_OK ? 0 : builder_failed(bd))

/* Refuse the value being given (its key given): the builder places the
** message as it places its own errors, so every message of a value names
** its row and column in the core's words.  As a TypeError when `as_type`
** (a Python value the format has no kind for, as json.dumps raises one),
** else as the builder's error.  -1. */
static int refuse(jjpy_build *bd, int as_type, jj_code code, const char *fmt,
                  ...) {
  va_list ap;
  va_start(ap, fmt);
  PyObject *what = PyUnicode_FromFormatV(fmt, ap);
  va_end(ap);
  const char *msg = what ? PyUnicode_AsUTF8(what) : NULL;
  if (!msg) {
    Py_XDECREF(what);
    return -1;
  }
  jj_builder_refuse(bd->b, code, msg);
  Py_DECREF(what);
  if (as_type)
    PyErr_SetString(PyExc_TypeError, jj_builder_error(bd->b)->message);
  else
    builder_failed(bd);
  return -1;
}

/* ---------------------------------------------------------------------- */
/* Notes                                                                   */
/* ---------------------------------------------------------------------- */

int jjpy_warn_notes(jjpy_state *st, PyObject *notes) {
  for (Py_ssize_t i = 0; notes && i < PyList_GET_SIZE(notes); i++) {
    const char *msg = PyUnicode_AsUTF8(PyList_GET_ITEM(notes, i));
    if (!msg || PyErr_WarnEx(st->InferenceWarning, msg, 1) < 0) return -1;
  }
  return 0;
}

/* jj_build_opts.note: keep the sentence (the GIL taken back when it was
** released around jj_builder_finish). */
static void note(void *ctx, const char *msg) {
  jjpy_build *bd = ctx;
  if (bd->ts) PyEval_RestoreThread(bd->ts);
  PyObject *s = PyUnicode_DecodeUTF8(msg, (Py_ssize_t)strlen(msg), "replace");
  if (!s || PyList_Append(bd->notes, s) < 0) {
    PyErr_Clear();
    bd->note_failed = 1;
  }
  Py_XDECREF(s);
  if (bd->ts) bd->ts = PyEval_SaveThread();
}

/* jj_build_opts.interrupt: Python's signal handlers; nonzero when one
** raised (its exception then pending). */
static int interrupt(void *ctx) {
  jjpy_build *bd = ctx;
  if (bd->ts) PyEval_RestoreThread(bd->ts);
  int bad = PyErr_CheckSignals();
  if (bd->ts) bd->ts = PyEval_SaveThread();
  if (bad) bd->signalled = 1;
  return bad;
}

void jjpy_build_unlock(jjpy_build *bd) { bd->ts = PyEval_SaveThread(); }

void jjpy_build_relock(jjpy_build *bd) {
  PyEval_RestoreThread(bd->ts);
  bd->ts = NULL;
}

int jjpy_build_check(jjpy_build *bd, jj_code code) {
  if (bd->signalled) {
    if (!PyErr_Occurred()) PyErr_SetInterrupt();
    return -1;
  }
  if (bd->note_failed) return PyErr_NoMemory(), -1;
  if (code == JJ_OK) return 0;
  bd->depth = 0;
  Py_CLEAR(bd->key);
  return builder_failed(bd);
}

int jjpy_build_warn(jjpy_build *bd) {
  return jjpy_warn_notes(bd->st, bd->notes);
}

jj_builder *jjpy_builder(jjpy_build *bd) { return bd->b; }

void jjpy_build_free(jjpy_build *bd) {
  if (!bd) return;
  jj_builder_free(bd->b);
  Py_XDECREF(bd->schema);
  Py_XDECREF(bd->notes);
  Py_XDECREF(bd->key);
  for (int i = 0; i < bd->depth && i < JJPY_MAX_PATH; i++)
    Py_XDECREF(bd->path[i].name);
  jjpy_shape_clear(&bd->top);
  PyMem_Free(bd);
}

/* ---------------------------------------------------------------------- */
/* Values                                                                  */
/* ---------------------------------------------------------------------- */

static int give_row(jjpy_build *bd, jjpy_shape *sh, PyObject *row, int64_t r);

/* Item i of a list or tuple (new reference), NULL without an exception
** when the list has shrunk below i meanwhile. */
static PyObject *item(PyObject *seq, Py_ssize_t i) {
  if (PyList_Check(seq))
    return i < PyList_GET_SIZE(seq) ? Py_NewRef(PyList_GET_ITEM(seq, i)) : NULL;
  return i < PyTuple_GET_SIZE(seq) ? Py_NewRef(PyTuple_GET_ITEM(seq, i)) : NULL;
}

/* The UTF-8 of a str, or NULL with *lone set and no exception when it
** holds a lone surrogate (the caller says whose UTF-8 error that is). */
static const char *utf8_of(PyObject *v, Py_ssize_t *len, int *lone) {
  const char *p = PyUnicode_AsUTF8AndSize(v, len);
  *lone = !p && PyErr_ExceptionMatches(PyExc_UnicodeEncodeError);
  if (*lone) PyErr_Clear();
  return p;
}

/* The UTF-8 of a value's str (its key given); a lone surrogate is the
** core's UTF-8 error, placed by the builder. */
static const char *value_utf8(jjpy_build *bd, PyObject *v, Py_ssize_t *len,
                              const char *what) {
  int lone;
  const char *p = utf8_of(v, len, &lone);
  if (lone)
    refuse(bd, 0, JJ_ERR_UTF8,
           "the %s is not valid UTF-8 (it holds a lone surrogate)", what);
  return p;
}

/* The UTF-8 of a column name; a lone surrogate is the core's UTF-8 error
** at row r (no column yet). */
static const char *name_utf8(jjpy_build *bd, int64_t r, PyObject *name,
                             Py_ssize_t *len) {
  int lone;
  const char *p = utf8_of(name, len, &lone);
  if (lone)
    fail(bd, r, NULL, JJ_ERR_UTF8,
         "the column name is not valid UTF-8 (it holds a lone surrogate)");
  return p;
}

/* The key of the next value. */
static int give_key(jjpy_build *bd, PyObject *name, int64_t r) {
  Py_ssize_t len;
  const char *p = name_utf8(bd, r, name, &len);
  if (!p) return -1;
  if (!bd->depth) Py_XSETREF(bd->key, Py_NewRef(name));
  return CALL(bd, jj_builder_key(bd->b, p, (size_t)len));
}

/* A nested table: its rows (a list or tuple) with shape sh. */
static int give_table(jjpy_build *bd, jjpy_shape *sh, PyObject *name,
                      PyObject *rows, int64_t r) {
  if (Py_EnterRecursiveCall(" while encoding a nested table")) return -1;
  int rc = CALL(bd, jj_builder_begin_table(bd->b));
  if (rc == 0) {
    if (bd->depth < JJPY_MAX_PATH) {
      bd->path[bd->depth].row = r;
      bd->path[bd->depth].name = Py_NewRef(name);
    }
    bd->depth++;
    PyObject *row;
    for (Py_ssize_t i = 0; rc == 0 && (row = item(rows, i)); i++) {
      rc = give_row(bd, sh, row, (int64_t)i + 1);
      Py_DECREF(row);
    }
    bd->depth--;
    if (bd->depth < JJPY_MAX_PATH) Py_CLEAR(bd->path[bd->depth].name);
    if (rc == 0) rc = CALL(bd, jj_builder_end_table(bd->b));
  }
  Py_LeaveRecursiveCall();
  return rc;
}

/* A View's rows as a nested table (its columns name tuple rows). */
static int give_view(jjpy_build *bd, jjpy_shape *given, PyObject *name,
                     PyObject *v, int64_t r) {
  jjpy_shape sh = {0};
  PyObject *rows = NULL;
  int rc = -1;
  if ((sh.names = PyObject_GetAttrString(v, "columns")) &&
      (rows = PySequence_List(v))) {
    if (given) { /* nested shapes given within it */
      sh.subs = given->subs;
      sh.sub = given->sub;
      sh.nsub = given->nsub;
    }
    rc = give_table(bd, &sh, name, rows, r);
  }
  Py_XDECREF(sh.names);
  Py_XDECREF(rows);
  return rc;
}

/* The JSON text of a dict or a list that is not rows. */
static int give_json(jjpy_build *bd, PyObject *v) {
  jjpy_state *st = bd->st;
  if (!st->json_encode) {
    PyObject *json = PyImport_ImportModule("json"), *cls = NULL, *kw = NULL,
             *enc = NULL, *empty = NULL;
    if (json && (cls = PyObject_GetAttrString(json, "JSONEncoder")) &&
        (kw = Py_BuildValue("{s:O,s:(ss)}", "ensure_ascii", Py_False,
                            "separators", ",", ":")) &&
        (empty = PyTuple_New(0)) && (enc = PyObject_Call(cls, empty, kw)))
      st->json_encode = PyObject_GetAttrString(enc, "encode");
    Py_XDECREF(json);
    Py_XDECREF(cls);
    Py_XDECREF(kw);
    Py_XDECREF(empty);
    Py_XDECREF(enc);
    if (!st->json_encode) return -1;
  }
  PyObject *text = PyObject_CallOneArg(st->json_encode, v);
  if (!text) {
    if (!PyErr_ExceptionMatches(PyExc_TypeError) &&
        !PyErr_ExceptionMatches(PyExc_ValueError))
      return -1;
    /* TypeError naming the place, the json module's words after it, the
    ** json module's exception its cause */
    PyObject *type, *cause, *tb;
    PyErr_Fetch(&type, &cause, &tb);
    PyErr_NormalizeException(&type, &cause, &tb);
    PyObject *a = a_type(v);
    if (a && cause) refuse(bd, 1, JJ_ERR_TYPE, "%U has no JSON text: %S", a, cause);
    Py_XDECREF(a);
    Py_XDECREF(type);
    Py_XDECREF(tb);
    if (cause && PyErr_ExceptionMatches(PyExc_TypeError)) {
      PyObject *t2, *exc, *tb2;
      PyErr_Fetch(&t2, &exc, &tb2);
      PyErr_NormalizeException(&t2, &exc, &tb2);
      if (exc) PyException_SetCause(exc, Py_NewRef(cause));
      PyErr_Restore(t2, exc, tb2);
    }
    Py_XDECREF(cause);
    return -1;
  }
  Py_ssize_t len;
  const char *p = value_utf8(bd, text, &len, "JSON text");
  int rc = p ? CALL(bd, jj_builder_json(bd->b, p, (size_t)len)) : -1;
  Py_DECREF(text);
  return rc;
}

/* Whether a list or tuple holds rows: every item a dict (or, when the
** nested columns are given, a tuple or list), or none. */
static int is_rows(PyObject *v, const jjpy_shape *sub) {
  Py_ssize_t n = PySequence_Fast_GET_SIZE(v);
  PyObject **items = PySequence_Fast_ITEMS(v);
  for (Py_ssize_t i = 0; i < n; i++)
    if (!PyDict_Check(items[i]) &&
        !(sub && sub->names &&
          (PyTuple_Check(items[i]) || PyList_Check(items[i]))))
      return 0;
  return 1;
}

/* Value v of column `name` (of the table with shape sh) in row r. */
static int give_value(jjpy_build *bd, jjpy_shape *sh, PyObject *name, PyObject *v,
                      int64_t r) {
  jj_builder *b = bd->b;
  if (v == Py_None) return CALL(bd, jj_builder_null(b));
  if (PyBool_Check(v)) return CALL(bd, jj_builder_bool(b, v == Py_True));
  if (PyLong_Check(v)) {
    int overflow;
    long long x = PyLong_AsLongLongAndOverflow(v, &overflow);
    if (x == -1 && PyErr_Occurred()) return -1;
    if (!overflow) return CALL(bd, jj_builder_int(b, (int64_t)x));
    /* beyond 64 bits: its decimal text, a number (an int subclass's own
    ** repr might be a name) */
    PyObject *text = PyLong_Type.tp_repr(v);
    Py_ssize_t len;
    const char *p = text ? PyUnicode_AsUTF8AndSize(text, &len) : NULL;
    int rc = p ? CALL(bd, jj_builder_number(b, p, (size_t)len)) : -1;
    Py_XDECREF(text);
    return rc;
  }
  if (PyFloat_Check(v)) {
    double d = PyFloat_AsDouble(v);
    if (d == -1.0 && PyErr_Occurred()) return -1;
    return CALL(bd, jj_builder_double(b, d));
  }
  if (PyUnicode_Check(v)) {
    Py_ssize_t len;
    const char *p = value_utf8(bd, v, &len, "str");
    return p ? CALL(bd, jj_builder_text(b, p, (size_t)len)) : -1;
  }
  if (PyBytes_Check(v) || PyByteArray_Check(v) || PyMemoryView_Check(v)) {
    Py_buffer buf;
    if (PyObject_GetBuffer(v, &buf, PyBUF_SIMPLE) < 0) return -1;
    int rc = CALL(bd, jj_builder_bytes(b, buf.buf, (size_t)buf.len));
    PyBuffer_Release(&buf);
    return rc;
  }
  if (jjpy_is_datetime(v)) {
    jj_timestamp ts;
    const char *why;
    if (jjpy_is_naive(v)) { /* no zone: a local timestamp, l */
      jjpy_naive_ts(v, &ts);
      return CALL(bd, jj_builder_local_timestamp(b, &ts));
    }
    int rc = jjpy_datetime_ts(v, &ts, &why);
    if (rc < 0) return -1;
    if (rc) return refuse(bd, 0, JJ_ERR_TIMESTAMP, "the datetime %R %s", v, why);
    return CALL(bd, jj_builder_timestamp(b, &ts));
  }
  if (jjpy_is_date(v)) return CALL(bd, jj_builder_date(b, jjpy_date_days(v)));
  jjpy_shape *sub = jjpy_shape_sub(sh, name);
  if (PyList_Check(v) || PyTuple_Check(v)) {
    if (!is_rows(v, sub)) return give_json(bd, v);
    PyObject *rows = Py_NewRef(v); /* a list that changes meanwhile: item() */
    jjpy_shape empty = {0};
    int rc = give_table(bd, sub ? sub : &empty, name, rows, r);
    Py_DECREF(rows);
    return rc;
  }
  if (PyDict_Check(v)) return give_json(bd, v);
  if (jjpy_is_view(bd->st, v)) return give_view(bd, sub, name, v, r);
  PyObject *a = a_type(v);
  if (a)
    refuse(bd, 1, JJ_ERR_TYPE,
           "cannot write %U (a value is None, bool, int, float, str, "
           "bytes, date, datetime, a list of dicts (rows), a dict or a "
           "list)",
           a);
  Py_XDECREF(a);
  return -1;
}

/* A key of a dict row that columns= does not name: the error.  -1. */
static int extra_key(jjpy_build *bd, jjpy_shape *sh, PyObject *row, int64_t r) {
  PyObject *keys = PyDict_Keys(row); /* a copy: safe to walk */
  if (!keys) return -1;
  for (Py_ssize_t i = 0; i < PyList_GET_SIZE(keys); i++) {
    PyObject *k = PyList_GET_ITEM(keys, i);
    int found = PySequence_Contains(sh->names, k);
    if (found < 0) break;
    if (!found) {
      fail(bd, r, NULL, JJ_ERR_ROW,
           "the key %R is not a column (the columns are given: %R)", k,
           sh->names);
      break;
    }
  }
  Py_DECREF(keys);
  if (!PyErr_Occurred()) /* the row changed meanwhile */
    fail(bd, r, NULL, JJ_ERR_ROW, "the row changed while it was written");
  return -1;
}

static int give_row(jjpy_build *bd, jjpy_shape *sh, PyObject *row, int64_t r) {
  int rc = 0;
  if (PyDict_Check(row)) {
    if (sh->names) { /* in the given order, a missing key null */
      Py_ssize_t found = 0, n = PyTuple_GET_SIZE(sh->names);
      for (Py_ssize_t i = 0; rc == 0 && i < n; i++) {
        PyObject *name = PyTuple_GET_ITEM(sh->names, i);
        PyObject *v = PyDict_GetItemWithError(row, name);
        if (!v && PyErr_Occurred()) return -1;
        Py_XINCREF(v);
        found += v != NULL;
        rc = give_key(bd, name, r);
        if (rc == 0)
          rc = v ? give_value(bd, sh, name, v, r)
                 : CALL(bd, jj_builder_null(bd->b));
        Py_XDECREF(v);
      }
      if (rc == 0 && found != PyDict_GET_SIZE(row))
        return extra_key(bd, sh, row, r);
    } else { /* the keys as they come */
      PyObject *key, *v;
      Py_ssize_t pos = 0;
      Py_INCREF(row);
      while (rc == 0 && PyDict_Next(row, &pos, &key, &v)) {
        Py_INCREF(key);
        Py_INCREF(v);
        if (!PyUnicode_Check(key)) {
          PyErr_Format(PyExc_TypeError, "column names must be str, found %R",
                       key);
          rc = -1;
        } else if ((rc = give_key(bd, key, r)) == 0) {
          rc = give_value(bd, sh, key, v, r);
        }
        Py_DECREF(key);
        Py_DECREF(v);
      }
      Py_DECREF(row);
    }
  } else if (PyTuple_Check(row) || PyList_Check(row)) {
    if (!sh->names)
      return fail(bd, r, NULL, JJ_ERR_USAGE,
                  bd->depth ? "a nested table's rows must be dicts to name "
                              "its columns (or give them: types= "
                              "{\"columns\": [...], \"types\": [...]})"
                            : "rows that are not dicts need columns= to "
                              "name their values");
    Py_ssize_t n = PyTuple_GET_SIZE(sh->names);
    Py_ssize_t have = PyTuple_Check(row) ? PyTuple_GET_SIZE(row)
                                         : PyList_GET_SIZE(row);
    if (have != n)
      return fail(bd, r, NULL, JJ_ERR_ROW, "expected %zd value%s, found %zd",
                  n, n == 1 ? "" : "s", have);
    for (Py_ssize_t i = 0; rc == 0 && i < n; i++) {
      PyObject *name = PyTuple_GET_ITEM(sh->names, i);
      PyObject *v = item(row, i);
      if (!v)
        return fail(bd, r, name, JJ_ERR_ROW,
                    "the row changed while it was written");
      rc = give_key(bd, name, r);
      if (rc == 0) rc = give_value(bd, sh, name, v, r);
      Py_DECREF(v);
    }
  } else {
    PyObject *a = a_type(row);
    if (a)
      fail(bd, r, NULL, JJ_ERR_ROW, "a row must be a dict or a tuple, found %U",
           a);
    Py_XDECREF(a);
    return -1;
  }
  return rc ? -1 : CALL(bd, jj_builder_end_row(bd->b));
}

/* ---------------------------------------------------------------------- */
/* The rows                                                                */
/* ---------------------------------------------------------------------- */

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

jjpy_build *jjpy_build_rows(jjpy_state *st, PyObject *rows, PyObject *columns,
                            PyObject *types) {
  jjpy_build *bd = PyMem_Calloc(1, sizeof *bd);
  PyObject *seq = NULL, *vcols = NULL, *vtypes = NULL, *names = NULL;
  jj_error err;
  if (!bd) return (jjpy_build *)PyErr_NoMemory();
  bd->st = st;
  if (columns == Py_None) columns = NULL;
  if (types == Py_None) types = NULL;
  /* a View: its columns and types unless given, so that it writes back as
  ** the document it reads */
  if (jjpy_is_view(st, rows) && !columns) {
    if (!(vcols = PyObject_GetAttrString(rows, "columns"))) goto fail;
    columns = vcols;
    if (!types) {
      if (!(vtypes = PyObject_GetAttrString(rows, "types"))) goto fail;
      types = vtypes;
    }
  }
  if (!(seq = rows_of(rows)) || !(bd->notes = PyList_New(0))) goto fail;
  if (columns) {
    if (!(bd->top.names = jjpy_names_tuple(st, columns))) goto fail;
    names = Py_NewRef(bd->top.names);
  } else {
    PyObject *first = item(seq, 0);
    if (!first) {
      jjpy_raise_at(st, JJ_ERR_USAGE, 0, NULL, JJ_NO_OFFSET,
                    "no rows and no columns: give columns= (and types=) to "
                    "write a table without rows");
    } else if (!PyDict_Check(first)) {
      jjpy_raise_at(st, JJ_ERR_USAGE, 0, NULL, JJ_NO_OFFSET,
                    "rows that are not dicts need columns= to name their "
                    "values");
    } else if (types && !PyDict_Check(types)) {
      /* types by position: the first row's keys name them */
      PyObject *keys = PyDict_Keys(first);
      if (keys) names = PyList_AsTuple(keys);
      Py_XDECREF(keys);
    }
    Py_XDECREF(first);
    if (PyErr_Occurred()) goto fail;
  }
  if (!(bd->schema = jjpy_schema_of(st, &bd->top, names, types))) goto fail;
  jj_build_opts o;
  memset(&o, 0, sizeof o);
  if (PyUnicode_GET_LENGTH(bd->schema) &&
      !(o.schema = PyUnicode_AsUTF8(bd->schema)))
    goto fail;
  o.note = note;
  o.note_ctx = bd;
  o.interrupt = interrupt;
  o.interrupt_ctx = bd;
  if (!(bd->b = jj_builder_new(&o, &err))) {
    jjpy_raise(st, &err, NULL, NULL);
    goto fail;
  }
  for (Py_ssize_t i = 0; bd->top.names && i < PyTuple_GET_SIZE(bd->top.names);
       i++) {
    Py_ssize_t len;
    PyObject *name = PyTuple_GET_ITEM(bd->top.names, i);
    const char *p = name_utf8(bd, 0, name, &len);
    if (!p || CALL(bd, jj_builder_column(bd->b, p, (size_t)len, 0))) goto fail;
  }
  PyObject *row;
  for (Py_ssize_t i = 0; (row = item(seq, i)); i++) {
    int rc = give_row(bd, &bd->top, row, (int64_t)i + 1);
    Py_DECREF(row);
    if (rc) goto fail;
  }
  Py_CLEAR(bd->key);
  Py_DECREF(seq);
  Py_XDECREF(vcols);
  Py_XDECREF(vtypes);
  Py_XDECREF(names);
  return bd;
fail:
  Py_XDECREF(seq);
  Py_XDECREF(vcols);
  Py_XDECREF(vtypes);
  Py_XDECREF(names);
  jjpy_build_free(bd);
  return NULL;
}
