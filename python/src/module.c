/*
** module.c — jalapenojson._jalapenojson: the module object, its state, the
** Error class and the function table (the reading keywords and a type's
** state lookup are state.c's).
**
** Multi-phase initialisation with per-module state and heap types, as
** CPython's own Modules/_csv.c does, so nothing lives in a C global (the
** datetime C API pointer aside: a capsule the interpreter owns).
**
** The full C API, not the limited one: the datetime C API
** (PyDateTime_CAPI: making dates, datetimes and time zones, reading their
** fields) is not part of the limited API, and without it every date and
** timestamp would be a Python-level call (about 3x slower each).
*/
#include "jjpy.h"

static PyModuleDef jjpy_module;

static jjpy_state *state_of(PyObject *module) {
  return (jjpy_state *)PyModule_GetState(module);
}

/* ---------------------------------------------------------------------- */
/* The module                                                              */
/* ---------------------------------------------------------------------- */

PyDoc_STRVAR(decode_doc,
"decode(data, *, rows='dict', dates='date', timestamps='datetime',\n"
"       max_size=1073741824, max_depth=0) -> list\n--\n\n"
"Every row of a jalapenojson document (bytes, bytearray, memoryview or\n"
"str; gzip or brotli bytes are decompressed) as a dict, or a tuple with\n"
"rows='tuple'.");
PyDoc_STRVAR(view_doc,
"view(data, *, rows='dict', dates='date', timestamps='datetime',\n"
"     max_size=1073741824, max_depth=0) -> View\n--\n\n"
"A lazy sequence of the document's rows: reads the header now and a row\n"
"or a column when asked for.");
PyDoc_STRVAR(load_doc,
"load(path, *, rows='dict', dates='date', timestamps='datetime',\n"
"     max_size=1073741824, max_depth=0) -> list\n--\n\n"
"decode() of a file: plain, gzip (by its magic) or brotli (a .br name).");
PyDoc_STRVAR(encode_doc,
"encode(rows, columns=None, types=None) -> bytes\n--\n\n"
"A canonical jalapenojson document of rows: dicts (sparse keys welcome),\n"
"or tuples with columns.  The types are the CLI converter's for the same\n"
"values (each decision an InferenceWarning); types: letters (i f s d t b\n"
"x), 'jj' or nested schemas, by position or by name, fix some.");
PyDoc_STRVAR(dump_doc,
"dump(rows, path, columns=None, types=None, *, level=-1) -> None\n--\n\n"
"encode() to a file, atomically (a temporary file renamed over path);\n"
"gzip for a .gz name, brotli for .br.");
PyDoc_STRVAR(from_json_doc,
"from_json(data, *, schema=None, bad_to_null=False, date_format=None,\n"
"          timestamp_format=None) -> bytes\n--\n\n"
"The converter on JSON (an array of objects, or NDJSON) as bytes or str:\n"
"the document's bytes, each decision an InferenceWarning.  schema: a str\n"
"'id:i,joined:d' or a dict by name, as types=.  date_format,\n"
"timestamp_format: a strftime pattern or a list of them ('%m/%d/%Y') for\n"
"dates in another spelling than ISO 8601, instead of the ones detected;\n"
"'iso' for ISO 8601 alone.");
PyDoc_STRVAR(from_csv_doc,
"from_csv(data, *, schema=None, delimiter=None, null=None, booleans=False,\n"
"         empty_is_text=False, bad_to_null=False, null_padding=False,\n"
"         on_error='fail', rejects=None, thousands=None,\n"
"         header=True, date_format=None, timestamp_format=None) -> bytes\n--\n\n"
"The converter on CSV (bytes or str): the document's bytes.  delimiter:\n"
"detected among , tab ; | by default.  null: a text that means null, a\n"
"list of them, or a dict of them by column ({'rate': ['NA', '.'],\n"
"'*': ''}; '*' is every column).  thousands: a separator read in numbers\n"
"('1,234').  header=False: every record is a row, the columns named\n"
"column_1, column_2, ...  null_padding: short rows get nulls.  on_error:\n"
"'skip' sets a row that does not fit aside, 'null' makes a bad value\n"
"null; each row set aside is appended to the list rejects as a dict\n"
"(row, byte, column, code, message).  date_format, timestamp_format: as\n"
"from_json's.");

static PyMethodDef jjpy_methods[] = {
    {"decode", (PyCFunction)(void (*)(void))jjpy_decode,
     METH_VARARGS | METH_KEYWORDS, decode_doc},
    {"view", (PyCFunction)(void (*)(void))jjpy_view,
     METH_VARARGS | METH_KEYWORDS, view_doc},
    {"load", (PyCFunction)(void (*)(void))jjpy_load,
     METH_VARARGS | METH_KEYWORDS, load_doc},
    {"encode", (PyCFunction)(void (*)(void))jjpy_encode,
     METH_VARARGS | METH_KEYWORDS, encode_doc},
    {"dump", (PyCFunction)(void (*)(void))jjpy_dump,
     METH_VARARGS | METH_KEYWORDS, dump_doc},
    {"from_json", (PyCFunction)(void (*)(void))jjpy_from_json,
     METH_VARARGS | METH_KEYWORDS, from_json_doc},
    {"from_csv", (PyCFunction)(void (*)(void))jjpy_from_csv,
     METH_VARARGS | METH_KEYWORDS, from_csv_doc},
    {"_parse_date", jjpy_parse_date, METH_O,
     "date of b'YYYY-MM-DD' (the sqlite3 converter)"},
    {"_parse_timestamp", (PyCFunction)(void (*)(void))jjpy_parse_timestamp,
     METH_VARARGS | METH_KEYWORDS,
     "aware datetime (or str with text=True) of a timestamp's bytes"},
    {"_format_date", jjpy_format_date, METH_O,
     "'YYYY-MM-DD' of a date (the sqlite3 adapter)"},
    {"_format_timestamp", jjpy_format_timestamp, METH_O,
     "the timestamp text of a datetime (the sqlite3 adapter): an aware one "
     "with its zone, a naive one in SQLite's form"},
    {"_parse_local_timestamp",
     (PyCFunction)(void (*)(void))jjpy_parse_local_timestamp,
     METH_VARARGS | METH_KEYWORDS,
     "naive datetime (or str with text=True) of a local timestamp's bytes"},
    {NULL, NULL, 0, NULL}};

PyDoc_STRVAR(error_doc,
"A document, file or value that cannot be read or written.\n\n"
"str(e) is the located message.  Attributes: code (the failure's kind:\n"
"'syntax', 'date', 'io', ...), row (1-based, None outside a row),\n"
"column (the column's name, None when none), offset (the byte offset in\n"
"the document, None when none).  Inside a nested table row and column are\n"
"those of the top-level value holding it; the message spells the path.");

/* Error: a ValueError whose class attributes give every instance row,
** column, offset and code (None until errors.c sets them). */
static PyObject *make_error(void) {
  PyObject *dict = PyDict_New(), *type = NULL;
  if (!dict) return NULL;
  if (PyDict_SetItemString(dict, "row", Py_None) == 0 &&
      PyDict_SetItemString(dict, "column", Py_None) == 0 &&
      PyDict_SetItemString(dict, "offset", Py_None) == 0 &&
      PyDict_SetItemString(dict, "code", Py_None) == 0)
    type = PyErr_NewExceptionWithDoc("jalapenojson.Error", error_doc,
                                     PyExc_ValueError, dict);
  Py_DECREF(dict);
  return type;
}

PyDoc_STRVAR(inference_warning_doc,
"A decision of type inference that is not obvious (a column of mixed\n"
"values written as text, integers and floats made floats, a column of\n"
"nulls only ...), the converter's note as the message.  Make them errors\n"
"with warnings.simplefilter('error', jalapenojson.InferenceWarning).");

/* _SQL_TYPES: each type's short name -> the SQL type the extension's
** typed tables declare (jj_type_sql), for register_sqlite3's converters:
** one spelling, the core's type table. */
static int add_sql_types(PyObject *m) {
  static const jj_type all[] = {JJ_INT,  JJ_FLOAT, JJ_TEXT,  JJ_DATE,
                                JJ_TIMESTAMP, JJ_LOCAL_TIMESTAMP, JJ_BOOL,
                                JJ_BYTES, JJ_JSON, JJ_TABLE};
  PyObject *d = PyDict_New();
  if (!d) return -1;
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
    PyObject *v = PyUnicode_FromString(jj_type_sql(all[i]));
    if (!v || PyDict_SetItemString(d, jj_type_short(all[i]), v) < 0) {
      Py_XDECREF(v);
      Py_DECREF(d);
      return -1;
    }
    Py_DECREF(v);
  }
  int rc = PyModule_AddObjectRef(m, "_SQL_TYPES", d);
  Py_DECREF(d);
  return rc;
}

static int jjpy_exec(PyObject *m) {
  jjpy_state *st = state_of(m);
  if (jjpy_values_init() < 0) return -1;
  if (!(st->Error = make_error())) return -1;
  if (PyModule_AddObjectRef(m, "Error", st->Error) < 0) return -1;
  if (!(st->InferenceWarning = PyErr_NewExceptionWithDoc(
            "jalapenojson.InferenceWarning", inference_warning_doc,
            PyExc_UserWarning, NULL)) ||
      PyModule_AddObjectRef(m, "InferenceWarning", st->InferenceWarning) < 0)
    return -1;
  if (!(st->View = jjpy_view_type(m))) return -1;
  if (PyModule_AddObjectRef(m, "View", (PyObject *)st->View) < 0) return -1;
  if (!(st->ViewIter = jjpy_view_iter_type(m))) return -1;
  if (!(st->zones = PyDict_New())) return -1;
  /* The version of the core compiled into this module (the header's). */
  if (PyModule_AddStringConstant(m, "__version__", jj_version()) < 0)
    return -1;
  return add_sql_types(m);
}

static int jjpy_traverse(PyObject *m, visitproc visit, void *arg) {
  jjpy_state *st = state_of(m);
  if (!st) return 0;
  Py_VISIT(st->Error);
  Py_VISIT(st->View);
  Py_VISIT(st->ViewIter);
  Py_VISIT(st->array_type);
  Py_VISIT(st->zones);
  Py_VISIT(st->InferenceWarning);
  Py_VISIT(st->json_encode);
  Py_VISIT(st->json_loads);
  return 0;
}

static int jjpy_clear(PyObject *m) {
  jjpy_state *st = state_of(m);
  if (!st) return 0;
  Py_CLEAR(st->Error);
  Py_CLEAR(st->View);
  Py_CLEAR(st->ViewIter);
  Py_CLEAR(st->array_type);
  Py_CLEAR(st->zones);
  Py_CLEAR(st->InferenceWarning);
  Py_CLEAR(st->json_encode);
  Py_CLEAR(st->json_loads);
  return 0;
}

static void jjpy_free(void *m) { jjpy_clear((PyObject *)m); }

static PyModuleDef_Slot jjpy_slots[] = {{Py_mod_exec, (void *)jjpy_exec},
                                        {0, NULL}};

static PyModuleDef jjpy_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "jalapenojson._jalapenojson",
    .m_doc = "The C side of jalapenojson: see the package for the API.",
    .m_size = sizeof(jjpy_state),
    .m_methods = jjpy_methods,
    .m_slots = jjpy_slots,
    .m_traverse = jjpy_traverse,
    .m_clear = jjpy_clear,
    .m_free = jjpy_free,
};

PyMODINIT_FUNC PyInit__jalapenojson(void) {
  return PyModuleDef_Init(&jjpy_module);
}
