/*
** values.c — one value each way: a jj_value read by jj_cursor_value becomes
** a Python object (one switch over the type), and dates and datetimes
** become the format's text for the writer.
**
**   i -> int     f -> float (NaN, infinities, -0.0 as they are)
**   s -> str     b -> bool      x -> bytes
**   d -> datetime.date (or the str, dates="text")
**   t -> aware datetime.datetime with a fixed-offset timezone (or the str
**        as written, timestamps="text")
**   j -> what json.loads gives for its text: dict, list, str, int (exact at
**        any size), float (a number with a fraction or exponent: rounded to
**        a double, inf beyond one, as json.loads does), bool
**   nested table -> what cv->table makes of it (a list, or a View)
**
** Two values have no datetime without loss, and are errors naming the
** option that reads them as text rather than changed silently: a date or
** timestamp in year 0000 (datetime starts at year 1), and a timestamp with
** nonzero digits below the microsecond (datetime holds microseconds; more
** digits that are all zero lose nothing and are accepted).
**
** This is the only file that includes datetime.h: its C API is reached
** through a static pointer that PyDateTime_IMPORT sets in each file.
*/
#include "jjpy.h"
#include <string.h>
#include <datetime.h>

#define DATE_SLOTS 4096 /* a power of two: 11 years of consecutive days */

struct jjpy_date_slot {
  int32_t days;
  PyObject *obj; /* NULL: empty */
};

int jjpy_values_init(void) {
  PyDateTime_IMPORT;
  return PyDateTimeAPI ? 0 : -1;
}

void jjpy_conv_init(jjpy_conv *cv, jjpy_state *st, const jjpy_opts *o,
                    const char *base, const jj_schema *top) {
  memset(cv, 0, sizeof *cv);
  cv->st = st;
  cv->opts = *o;
  cv->base = base;
  cv->top = top;
}

void jjpy_conv_clear(jjpy_conv *cv) {
  if (cv->dates) {
    for (int i = 0; i < DATE_SLOTS; i++) Py_XDECREF(cv->dates[i].obj);
    PyMem_Free(cv->dates);
    cv->dates = NULL;
  }
  for (int i = 0; i < 4; i++) Py_CLEAR(cv->zone_obj[i]);
  for (int i = 0; i < cv->nnames; i++) Py_CLEAR(cv->names[i].names);
  cv->nnames = 0;
}

PyObject *jjpy_names(jjpy_conv *cv, const jj_schema *s) {
  for (int i = 0; i < cv->nnames; i++)
    if (cv->names[i].s == s) return Py_NewRef(cv->names[i].names);
  size_t n = jj_schema_columns(s);
  PyObject *t = PyTuple_New((Py_ssize_t)n);
  if (!t) return NULL;
  for (size_t i = 0; i < n; i++) {
    size_t len;
    const char *p = jj_schema_name(s, i, &len);
    PyObject *name = PyUnicode_DecodeUTF8(p, (Py_ssize_t)len, NULL);
    if (!name) {
      Py_DECREF(t);
      return NULL;
    }
    PyUnicode_InternInPlace(&name); /* keys compare by identity first */
    PyTuple_SET_ITEM(t, (Py_ssize_t)i, name);
  }
  if (cv->nnames < (int)(sizeof cv->names / sizeof cv->names[0])) {
    cv->names[cv->nnames].s = s;
    cv->names[cv->nnames++].names = Py_NewRef(t);
  }
  return t;
}

/* ---------------------------------------------------------------------- */
/* Errors of our own: where the value is                                   */
/* ---------------------------------------------------------------------- */

/* Raise Error for column col of c's row: "PATH row R, column "C", byte N:
** ..." with the top-level row and column as attributes, like the core's
** own errors.  Returns NULL. */
static PyObject *value_error(jjpy_conv *cv, jj_cursor *c, size_t col,
                             jj_code code, const char *what, const char *p,
                             size_t len, const char *hint) {
  const char *raw = NULL;
  size_t raw_len = 0, offset = JJ_NO_OFFSET;
  if (jj_cursor_raw(c, col, &raw, &raw_len, NULL) == 1 && raw >= cv->base)
    offset = (size_t)(raw - cv->base);
  const char *name =
      jj_schema_name(jj_doc_schema(jj_cursor_doc(c)), col, NULL);
  PyObject *path = PyUnicode_FromString("");
  for (int i = 0; path && i < cv->depth && i < JJPY_MAX_PATH; i++) {
    PyObject *more = PyUnicode_FromFormat(
        "%Urow %lld, column \"%s\", ", path, (long long)cv->path[i].row,
        jj_schema_name(cv->path[i].s, (size_t)cv->path[i].col, NULL));
    Py_SETREF(path, more);
  }
  PyObject *text = path ? PyUnicode_DecodeUTF8(p, (Py_ssize_t)len, "replace")
                        : NULL;
  if (!text) {
    Py_XDECREF(path);
    return NULL;
  }
  int64_t row = cv->depth ? cv->path[0].row : jj_cursor_row(c);
  const char *top =
      cv->depth ? jj_schema_name(cv->top, (size_t)cv->path[0].col, NULL) : name;
  jjpy_raise_at(cv->st, code, row, top, offset,
                "%s%s%Urow %lld, column \"%s\", byte %zu: \"%U\" %s (%s)",
                cv->label ? cv->label : "", cv->label ? ": " : "", path,
                (long long)jj_cursor_row(c), name,
                offset == JJ_NO_OFFSET ? (size_t)0 : offset, text, what, hint);
  Py_DECREF(text);
  Py_DECREF(path);
  return NULL;
}

/* ---------------------------------------------------------------------- */
/* Dates and timestamps -> Python                                          */
/* ---------------------------------------------------------------------- */

static int digits(const char *p, int n) {
  int v = 0;
  for (int i = 0; i < n; i++) v = v * 10 + (p[i] - '0');
  return v;
}

/* A date object for the checked text p ("YYYY-MM-DD", day `days`),
** shared through cv's cache.  NULL with *why set (year 0) or with an
** exception. */
static PyObject *make_date(jjpy_conv *cv, const char *p, int32_t days,
                           const char **why) {
  int y = digits(p, 4);
  if (y < 1) {
    *why = "is before year 1, the first a datetime.date holds";
    return NULL;
  }
  struct jjpy_date_slot *slot = NULL;
  if (cv) {
    if (!cv->dates && !(cv->dates = PyMem_Calloc(DATE_SLOTS, sizeof *cv->dates)))
      return PyErr_NoMemory();
    slot = &cv->dates[(uint32_t)days & (DATE_SLOTS - 1)];
    if (slot->obj && slot->days == days) return Py_NewRef(slot->obj);
  }
  PyObject *d = PyDate_FromDate(y, digits(p + 5, 2), digits(p + 8, 2));
  if (d && slot) {
    Py_XSETREF(slot->obj, Py_NewRef(d));
    slot->days = days;
  }
  return d;
}

/* The fixed-offset timezone of `minutes` east of UTC (borrowed from
** the caches: cv's last four, then the module's dict). */
static PyObject *zone(jjpy_state *st, jjpy_conv *cv, int minutes) {
  if (minutes == 0) return PyDateTime_TimeZone_UTC;
  if (cv)
    for (int i = 0; i < 4; i++)
      if (cv->zone_obj[i] && cv->zone_key[i] == minutes) return cv->zone_obj[i];
  PyObject *key = PyLong_FromLong(minutes), *tz;
  if (!key) return NULL;
  tz = PyDict_GetItemWithError(st->zones, key); /* borrowed */
  if (!tz && !PyErr_Occurred()) {
    PyObject *delta = PyDelta_FromDSU(0, minutes * 60, 0);
    tz = delta ? PyTimeZone_FromOffset(delta) : NULL;
    Py_XDECREF(delta);
    if (tz && PyDict_SetItem(st->zones, key, tz) < 0) Py_CLEAR(tz);
    Py_XDECREF(tz); /* the dict holds it */
  }
  Py_DECREF(key);
  if (tz && cv) {
    int i = cv->zone_next++ & 3;
    Py_XSETREF(cv->zone_obj[i], Py_NewRef(tz));
    cv->zone_key[i] = minutes;
  }
  return tz;
}

/* An aware datetime for the checked timestamp text p[0..len) with its
** numbers ts: the fields as written, the zone as a fixed offset.  NULL
** with *why set (year 0, digits below the microsecond) or an exception. */
static PyObject *make_datetime(jjpy_state *st, jjpy_conv *cv, const char *p,
                               const jj_timestamp *ts, int naive,
                               const char **why) {
  int y = digits(p, 4);
  if (y < 1) {
    *why = "is before year 1, the first a datetime holds";
    return NULL;
  }
  if (ts->nanos % 1000) {
    *why = "has digits below the microsecond, which a datetime cannot hold";
    return NULL;
  }
  /* a local timestamp (no zone) is a naive datetime */
  PyObject *tz = naive ? Py_None : zone(st, cv, ts->zone_minutes);
  if (!tz) return NULL;
  return PyDateTimeAPI->DateTime_FromDateAndTime(
      y, digits(p + 5, 2), digits(p + 8, 2), digits(p + 11, 2),
      digits(p + 14, 2), digits(p + 17, 2), ts->nanos / 1000, tz,
      PyDateTimeAPI->DateTimeType);
}

/* ---------------------------------------------------------------------- */
/* A value                                                                 */
/* ---------------------------------------------------------------------- */

/* A JSON value: json.loads of its canonical text. */
static PyObject *json_value(jjpy_state *st, const char *p, size_t len) {
  if (!st->json_loads) {
    PyObject *json = PyImport_ImportModule("json");
    if (!json) return NULL;
    st->json_loads = PyObject_GetAttrString(json, "loads");
    Py_DECREF(json);
    if (!st->json_loads) return NULL;
  }
  PyObject *text = PyUnicode_DecodeUTF8(p, (Py_ssize_t)len, NULL);
  if (!text) return NULL;
  PyObject *o = PyObject_CallOneArg(st->json_loads, text);
  Py_DECREF(text);
  return o;
}

/* A nested table: cv->table turns the document (which it then owns) into a
** list or a View; the place is pushed for errors of ours inside it. */
static PyObject *table_value(jjpy_conv *cv, jj_cursor *c, size_t col,
                             jj_doc *doc) {
  if (Py_EnterRecursiveCall(" while reading a nested table")) {
    jj_doc_free(doc);
    return NULL;
  }
  if (cv->depth < JJPY_MAX_PATH) {
    cv->path[cv->depth].row = jj_cursor_row(c);
    cv->path[cv->depth].col = (int)col;
    cv->path[cv->depth].s = jj_doc_schema(jj_cursor_doc(c));
  }
  cv->depth++;
  PyObject *o = cv->table(cv, doc, cv->table_ctx);
  cv->depth--;
  Py_LeaveRecursiveCall();
  return o;
}

PyObject *jjpy_value(jjpy_conv *cv, jj_cursor *c, size_t col) {
  jj_value v;
  jj_error err;
  const char *why = NULL;
  PyObject *o;
  int r = jj_cursor_value(c, col, &v, &err);
  if (r < 0) return jjpy_raise(cv->st, &err, cv->top, cv->label);
  if (r == 0) Py_RETURN_NONE;
  switch (v.type) {
    case JJ_INT: return PyLong_FromLongLong(v.u.i);
    case JJ_FLOAT: return PyFloat_FromDouble(v.u.f);
    case JJ_TEXT:
      /* checked UTF-8 already: this cannot fail but for memory */
      return PyUnicode_DecodeUTF8(v.u.text.p, (Py_ssize_t)v.u.text.len, NULL);
    case JJ_BOOL: return PyBool_FromLong(v.u.b);
    case JJ_BYTES:
      return PyBytes_FromStringAndSize((const char *)v.u.bytes.p,
                                       (Py_ssize_t)v.u.bytes.len);
    case JJ_DATE:
      if (cv->opts.dates_text)
        return PyUnicode_FromStringAndSize(v.u.date.p, 10);
      o = make_date(cv, v.u.date.p, v.u.date.days, &why);
      if (o || !why) return o;
      return value_error(cv, c, col, JJ_ERR_DATE, why, v.u.date.p, 10,
                         "read dates as text: dates=\"text\"");
    case JJ_TIMESTAMP:
    case JJ_LOCAL_TIMESTAMP:
      if (cv->opts.ts_text)
        return PyUnicode_FromStringAndSize(v.u.timestamp.p,
                                           (Py_ssize_t)v.u.timestamp.len);
      o = make_datetime(cv->st, cv, v.u.timestamp.p, &v.u.timestamp.ts,
                        v.type == JJ_LOCAL_TIMESTAMP, &why);
      if (o || !why) return o;
      return value_error(cv, c, col, JJ_ERR_TIMESTAMP, why, v.u.timestamp.p,
                         v.u.timestamp.len,
                         "read timestamps as text: timestamps=\"text\"");
    case JJ_JSON: return json_value(cv->st, v.u.json.p, v.u.json.len);
    case JJ_TABLE: return table_value(cv, c, col, v.u.table);
  }
  return jjpy_raise_at(cv->st, JJ_ERR_USAGE, jj_cursor_row(c), NULL,
                       JJ_NO_OFFSET, "unknown column type %d", (int)v.type);
}

PyObject *jjpy_row(jjpy_conv *cv, jj_cursor *c, PyObject *names) {
  Py_ssize_t n = PyTuple_GET_SIZE(names);
  if (cv->opts.tuples) {
    PyObject *t = PyTuple_New(n);
    if (!t) return NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
      PyObject *v = jjpy_value(cv, c, (size_t)i);
      if (!v) {
        Py_DECREF(t);
        return NULL;
      }
      PyTuple_SET_ITEM(t, i, v);
    }
    return t;
  }
  PyObject *d = PyDict_New();
  if (!d) return NULL;
  for (Py_ssize_t i = 0; i < n; i++) {
    PyObject *v = jjpy_value(cv, c, (size_t)i);
    if (!v || PyDict_SetItem(d, PyTuple_GET_ITEM(names, i), v) < 0) {
      Py_XDECREF(v);
      Py_DECREF(d);
      return NULL;
    }
    Py_DECREF(v);
  }
  return d;
}

/* ---------------------------------------------------------------------- */
/* Python -> the format's text                                             */
/* ---------------------------------------------------------------------- */

int jjpy_is_datetime(PyObject *o) { return PyDateTime_Check(o); }
int jjpy_is_date(PyObject *o) { return PyDate_Check(o) && !PyDateTime_Check(o); }

static void put(char *out, int v, int n) {
  for (int i = n - 1; i >= 0; i--, v /= 10) out[i] = (char)('0' + v % 10);
}

void jjpy_date_text(PyObject *d, char out[10]) {
  put(out, PyDateTime_GET_YEAR(d), 4);
  out[4] = '-';
  put(out + 5, PyDateTime_GET_MONTH(d), 2);
  out[7] = '-';
  put(out + 8, PyDateTime_GET_DAY(d), 2);
}

/* Days from 1970-01-01 to y-m-d of the proleptic Gregorian calendar (the
** civil-from-days algorithm run backwards: eras of 400 years). */
static int64_t days_of(int y, int m, int d) {
  y -= m <= 2;
  int64_t era = (y >= 0 ? y : y - 399) / 400;
  int64_t yoe = y - era * 400;
  int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

int32_t jjpy_date_days(PyObject *d) {
  return (int32_t)days_of(PyDateTime_GET_YEAR(d), PyDateTime_GET_MONTH(d),
                          PyDateTime_GET_DAY(d));
}

/* The zone of an aware datetime in minutes east of UTC: 0, 1 with *why
** (naive, seconds in the offset), -1 with an exception (utcoffset()
** failed: a tzinfo of the caller's may raise). */
static int utc_offset(PyObject *dt, int *minutes, const char **why) {
  if (PyDateTime_DATE_GET_TZINFO(dt) == Py_None) {
    *why = "is naive (it has no tzinfo); a timestamp needs its UTC offset";
    return 1;
  }
  PyObject *off = PyObject_CallMethod(dt, "utcoffset", NULL);
  if (!off) return -1;
  int rc = 0;
  if (off == Py_None) {
    *why = "has a tzinfo whose utcoffset() is None; a timestamp needs its "
           "UTC offset";
    rc = 1;
  } else if (!PyDelta_Check(off)) {
    PyErr_Format(PyExc_TypeError, "utcoffset() returned %R, not a timedelta",
                 off);
    rc = -1;
  } else {
    /* Python keeps utcoffset() strictly within a day */
    long secs = PyDateTime_DELTA_GET_DAYS(off) * 86400L +
                PyDateTime_DELTA_GET_SECONDS(off);
    if (PyDateTime_DELTA_GET_MICROSECONDS(off) || secs % 60) {
      *why = "has a UTC offset with seconds; a timestamp's zone is whole "
             "minutes";
      rc = 1;
    } else {
      *minutes = (int)(secs / 60);
    }
  }
  Py_DECREF(off);
  return rc;
}

/* ts's nanos and digits from dt's microseconds: the fewest fraction digits
** that hold them (.25, not .250000). */
static void fraction(PyObject *dt, jj_timestamp *ts) {
  int us = PyDateTime_DATE_GET_MICROSECOND(dt), k = 0;
  ts->nanos = us * 1000;
  if (us) {
    k = 6;
    while (us % 10 == 0) us /= 10, k--;
  }
  ts->digits = (uint8_t)k;
}

int jjpy_is_naive(PyObject *dt) {
  return PyDateTime_DATE_GET_TZINFO(dt) == Py_None;
}

void jjpy_naive_ts(PyObject *dt, jj_timestamp *ts) {
  /* no zone: its wall time, as jjpy_datetime_ts counts it with offset 0 */
  int64_t days = days_of(PyDateTime_GET_YEAR(dt), PyDateTime_GET_MONTH(dt),
                         PyDateTime_GET_DAY(dt));
  ts->seconds = days * 86400 + PyDateTime_DATE_GET_HOUR(dt) * 3600 +
                PyDateTime_DATE_GET_MINUTE(dt) * 60 +
                PyDateTime_DATE_GET_SECOND(dt);
  fraction(dt, ts);
  ts->zone_minutes = 0;
}

int jjpy_datetime_ts(PyObject *dt, jj_timestamp *ts, const char **why) {
  int minutes = 0;
  *why = NULL;
  int rc = utc_offset(dt, &minutes, why);
  if (rc) return rc;
  /* the wall time's fields, less the zone: the instant in UTC */
  int64_t days = days_of(PyDateTime_GET_YEAR(dt), PyDateTime_GET_MONTH(dt),
                         PyDateTime_GET_DAY(dt));
  ts->seconds = days * 86400 + PyDateTime_DATE_GET_HOUR(dt) * 3600 +
                PyDateTime_DATE_GET_MINUTE(dt) * 60 +
                PyDateTime_DATE_GET_SECOND(dt) - (int64_t)minutes * 60;
  fraction(dt, ts);
  ts->zone_minutes = (int16_t)minutes;
  return 0;
}

/* ---------------------------------------------------------------------- */
/* The sqlite3 converters and adapters (jalapenojson.register_sqlite3)    */
/* ---------------------------------------------------------------------- */

/* The bytes of a converter's argument (bytes from sqlite3, or str). */
static int text_arg(PyObject *arg, const char **p, Py_ssize_t *len) {
  if (PyBytes_Check(arg)) return PyBytes_AsStringAndSize(arg, (char **)p, len);
  if (PyUnicode_Check(arg)) return (*p = PyUnicode_AsUTF8AndSize(arg, len)) ? 0 : -1;
  PyErr_Format(PyExc_TypeError, "expected bytes or str, not %.100s",
               Py_TYPE(arg)->tp_name);
  return -1;
}

static jjpy_state *module_state(PyObject *module) {
  return (jjpy_state *)PyModule_GetState(module);
}

PyObject *jjpy_parse_date(PyObject *module, PyObject *arg) {
  jjpy_state *st = module_state(module);
  const char *p, *why = NULL;
  Py_ssize_t len;
  int32_t days;
  jj_error err;
  if (text_arg(arg, &p, &len) < 0) return NULL;
  if (jj_date_parse(p, (size_t)len, &days, &err) != JJ_OK)
    return jjpy_raise(st, &err, NULL, NULL);
  PyObject *d = make_date(NULL, p, days, &why);
  if (d || !why) return d;
  return jjpy_raise_at(st, JJ_ERR_DATE, 0, NULL, JJ_NO_OFFSET, "\"%s\" %s", p,
                       why); /* checked: exactly the 10 bytes, no NUL */
}

PyObject *jjpy_parse_timestamp(PyObject *module, PyObject *args,
                               PyObject *kwargs) {
  static char *kws[] = {"value", "text", NULL};
  jjpy_state *st = module_state(module);
  PyObject *arg;
  int as_text = 0;
  const char *p, *why = NULL;
  Py_ssize_t len;
  jj_timestamp ts;
  jj_error err;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|$p:_parse_timestamp", kws,
                                   &arg, &as_text))
    return NULL;
  if (text_arg(arg, &p, &len) < 0) return NULL;
  /* a typed table gives a t column in SQLite's form, in UTC and without
  ** zone (ext/column.c's jjx_ts_sql): read back as UTC */
  if (jj_timestamp_parse(p, (size_t)len, &ts, &err) != JJ_OK &&
      jj_local_timestamp_parse(p, (size_t)len, 1, &ts, NULL) != JJ_OK)
    return jjpy_raise(st, &err, NULL, NULL);
  if (as_text) return PyUnicode_FromStringAndSize(p, len);
  PyObject *dt = make_datetime(st, NULL, p, &ts, 0, &why);
  if (dt || !why) return dt;
  return jjpy_raise_at(st, JJ_ERR_TIMESTAMP, 0, NULL, JJ_NO_OFFSET,
                       "%R %s (register_sqlite3(timestamps=\"text\") reads "
                       "timestamps as text)",
                       arg, why);
}

PyObject *jjpy_parse_local_timestamp(PyObject *module, PyObject *args,
                                     PyObject *kwargs) {
  static char *kws[] = {"value", "text", NULL};
  jjpy_state *st = module_state(module);
  PyObject *arg;
  int as_text = 0;
  const char *p, *why = NULL;
  Py_ssize_t len;
  jj_timestamp ts;
  jj_error err;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|$p:_parse_local_timestamp",
                                   kws, &arg, &as_text))
    return NULL;
  if (text_arg(arg, &p, &len) < 0) return NULL;
  /* SQLite's form (a typed table's l column) or the format's */
  if (jj_local_timestamp_parse(p, (size_t)len, 1, &ts, &err) != JJ_OK)
    return jjpy_raise(st, &err, NULL, NULL);
  if (as_text) return PyUnicode_FromStringAndSize(p, len);
  PyObject *dt = make_datetime(st, NULL, p, &ts, 1, &why);
  if (dt || !why) return dt;
  return jjpy_raise_at(st, JJ_ERR_TIMESTAMP, 0, NULL, JJ_NO_OFFSET,
                       "%R %s (register_sqlite3(timestamps=\"text\") reads "
                       "timestamps as text)",
                       arg, why);
}

PyObject *jjpy_format_date(PyObject *module, PyObject *arg) {
  char out[10];
  (void)module;
  if (!PyDate_Check(arg) || PyDateTime_Check(arg)) {
    PyErr_Format(PyExc_TypeError, "expected a datetime.date, not %.100s",
                 Py_TYPE(arg)->tp_name);
    return NULL;
  }
  jjpy_date_text(arg, out);
  return PyUnicode_FromStringAndSize(out, 10);
}

PyObject *jjpy_format_timestamp(PyObject *module, PyObject *arg) {
  char out[40];
  const char *why;
  jj_timestamp ts;
  if (!PyDateTime_Check(arg)) {
    PyErr_Format(PyExc_TypeError, "expected a datetime.datetime, not %.100s",
                 Py_TYPE(arg)->tp_name);
    return NULL;
  }
  if (jjpy_is_naive(arg)) { /* SQLite's form, as its datetime() writes */
    jjpy_naive_ts(arg, &ts);
    size_t n = jj_local_timestamp_format(&ts, out);
    if (n) {
      out[10] = ' ';
      return PyUnicode_FromStringAndSize(out, (Py_ssize_t)n);
    }
    return jjpy_raise_at(module_state(module), JJ_ERR_TIMESTAMP, 0, NULL,
                         JJ_NO_OFFSET, "datetime %R is outside years 0000-9999",
                         arg);
  }
  int rc = jjpy_datetime_ts(arg, &ts, &why);
  if (rc < 0) return NULL;
  size_t n = rc ? 0 : jj_timestamp_format(&ts, out);
  if (n) return PyUnicode_FromStringAndSize(out, (Py_ssize_t)n);
  return jjpy_raise_at(module_state(module), JJ_ERR_TIMESTAMP, 0, NULL,
                       JJ_NO_OFFSET, "datetime %R %s", arg,
                       why ? why : "is outside years 0000-9999");
}
