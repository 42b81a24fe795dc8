/*
** jjpy.h — what the files of the CPython module share.
**
** The module is a thin binding over core/ (its public header only): it turns
** jj_values into Python objects and Python objects into jj_writer calls, and
** jj_errors into jalapenojson.Error.  One job per file:
**
**   module.c   the module: state, Error, the function table, init
**   state.c    a type's module state; the reading keywords (jjpy_opts)
**   errors.c   jj_error and our own failures -> jalapenojson.Error
**   values.c   one jj_value -> a Python object, dates and timestamps both
**              ways (the only file that includes datetime.h: its C API is a
**              static pointer per translation unit)
**   source.c   the bytes of a document: bytes, str, other buffers, gzip and
**              brotli, files; the GIL released around decompression
**   decode.c   decode() and load(): every row at once
**   view.c     view(): the lazy sequence, its rows, columns and iterator
**   shape.c    columns= and types= as shapes and the builder's schema
**              string
**   build.c    Python rows -> the core's row builder (jj_builder): each
**              value mapped to one of its kinds, its notes as
**              InferenceWarning
**   encode.c   encode() and dump(): the builder finished into bytes or a
**              file
**   convert.c  from_json() and from_csv(): the core's converter on bytes
**
** Reference counts: every function returning PyObject * returns a new
** reference or NULL with an exception set, unless its comment says
** "borrowed".  Nothing here keeps a borrowed reference across a call that
** can run Python code.
*/
#ifndef JJPY_H
#define JJPY_H

/* Python.h comes before every other header (it sets feature macros), so
** each file includes this one first. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "jalapenojson.h"

/* Per-module state (CPython's Modules/_csv.c keeps its types the same way,
** so that a second interpreter gets its own). */
typedef struct jjpy_state {
  PyObject *Error;         /* jalapenojson.Error, a subclass of ValueError */
  PyTypeObject *View;      /* jalapenojson.View */
  PyTypeObject *ViewIter;  /* its iterator */
  PyObject *array_type;    /* array.array, imported at its first use */
  PyObject *zones;         /* dict: zone minutes -> datetime.timezone */
  PyObject *InferenceWarning; /* jalapenojson.InferenceWarning */
  PyObject *json_encode;   /* a json.JSONEncoder's encode (compact, not
                           ** ASCII-only), made at its first use */
  PyObject *json_loads;    /* json.loads, imported at its first use: a
                           ** JSON column's values as it gives them */
} jjpy_state;

jjpy_state *jjpy_state_of_type(PyTypeObject *tp);

/* How values are read (decode, view, load keywords). */
typedef struct jjpy_opts {
  int tuples;         /* rows="tuple": rows are tuples, not dicts */
  int dates_text;     /* dates="text": dates stay "YYYY-MM-DD" str */
  int ts_text;        /* timestamps="text": timestamps stay str as written */
  uint64_t max_size;  /* document bytes held after decompression; 0: none */
  unsigned max_depth; /* nesting limit for jj_parse_opts; 0: the default */
} jjpy_opts;

#define JJPY_DEFAULT_MAX_SIZE ((uint64_t)1 << 30) /* 1 GiB, the extension's */

/* Parse the reading keywords (rows, dates, timestamps, max_size, max_depth)
** from their objects (each may be NULL: the default).  0 or -1. */
int jjpy_opts_parse(jjpy_opts *o, PyObject *rows, PyObject *dates,
                    PyObject *timestamps, PyObject *max_size,
                    PyObject *max_depth);

/* ---------------------------------------------------------------------- */
/* Errors (errors.c)                                                       */
/* ---------------------------------------------------------------------- */

/* Raise err as jalapenojson.Error (MemoryError for JJ_ERR_NOMEM): message,
** code, row (None for 0), column (the name from `top`, None for -1),
** offset (None for JJ_NO_OFFSET).  `label` (may be NULL) is put before the
** message as "LABEL: ".  Returns NULL. */
PyObject *jjpy_raise(jjpy_state *st, const jj_error *err,
                     const jj_schema *top, const char *label);
/* Raise jalapenojson.Error with a message made by PyUnicode_FromFormatV and
** the given attributes: row <= 0, column NULL, offset JJ_NO_OFFSET give
** None.  Returns NULL. */
PyObject *jjpy_raise_at(jjpy_state *st, jj_code code, int64_t row,
                        const char *column, size_t offset, const char *fmt,
                        ...);

/* ---------------------------------------------------------------------- */
/* Values (values.c)                                                       */
/* ---------------------------------------------------------------------- */

typedef struct jjpy_conv jjpy_conv;
/* What a nested table value becomes: a list of rows (decode) or a View. */
typedef PyObject *(*jjpy_table_fn)(jjpy_conv *cv, jj_doc *doc, void *ctx);

#define JJPY_MAX_PATH 40 /* nested levels the place of an error keeps */

/* The state of reading one document: options, caches, where we are.  One
** per decode() call or per top-level View (nested views share their
** parent's). */
struct jjpy_conv {
  jjpy_state *st;
  jjpy_opts opts;
  const char *base;         /* the top document's first byte: offsets */
  const char *label;        /* a file's name before messages, or NULL */
  const jj_schema *top;     /* the top schema: column names in errors */
  jjpy_table_fn table;      /* a nested table value */
  void *table_ctx;
  /* date objects by day (direct-mapped, allocated at the first date):
  ** dates repeat in real tables, and a date object is immutable */
  struct jjpy_date_slot *dates;
  int zone_key[4];          /* the last zones seen and their tzinfo */
  PyObject *zone_obj[4];
  int zone_next;
  /* column names (a tuple of str) per schema: nested tables repeat */
  struct {
    const jj_schema *s;
    PyObject *names;
  } names[16];
  int nnames;
  /* a View's conversion is under way: set while a View (or one nested in
  ** it, sharing this state) reads rows, so that a finalizer run by the
  ** garbage collector in the middle cannot move the cursor whose memory a
  ** value being converted points into (it gets RuntimeError instead) */
  int busy;
  /* the place of the value being read, for the errors raised here rather
  ** than by the core: the nested tables around it */
  int depth;
  struct {
    int64_t row;           /* the row holding the nested table */
    int col;               /* its column */
    const jj_schema *s;    /* the schema of that row's table */
  } path[JJPY_MAX_PATH];
};

/* Import the datetime C API.  0 or -1. */
int jjpy_values_init(void);
void jjpy_conv_init(jjpy_conv *cv, jjpy_state *st, const jjpy_opts *o,
                    const char *base, const jj_schema *top);
void jjpy_conv_clear(jjpy_conv *cv);
/* The names of schema s as a tuple of str, cached in cv (borrowed). */
PyObject *jjpy_names(jjpy_conv *cv, const jj_schema *s);
/* Column col of the cursor's row as a Python object (None for null). */
PyObject *jjpy_value(jjpy_conv *cv, jj_cursor *c, size_t col);
/* The cursor's row as a dict keyed by `names` or a tuple (opts.tuples). */
PyObject *jjpy_row(jjpy_conv *cv, jj_cursor *c, PyObject *names);

/* Encoding side: 1 if o is a datetime.datetime / a datetime.date that is
** not a datetime. */
int jjpy_is_datetime(PyObject *o);
int jjpy_is_date(PyObject *o);
/* "YYYY-MM-DD" of a date into out[10]. */
void jjpy_date_text(PyObject *date, char out[10]);
/* A date as days since 1970-01-01. */
int32_t jjpy_date_days(PyObject *date);
/* An aware datetime as the core's timestamp: the instant, its zone in
** minutes, the fewest fraction digits that hold its microseconds.  0; 1
** with *why set to a static reason (naive, an offset with seconds, an
** offset of None); -1 with a Python exception (utcoffset() failed). */
int jjpy_datetime_ts(PyObject *dt, jj_timestamp *ts, const char **why);
/* A naive datetime as the core's local timestamp (seconds of its wall time
** counted as if UTC, zone 0, the fewest fraction digits). */
void jjpy_naive_ts(PyObject *dt, jj_timestamp *ts);
/* 1 if the datetime dt is naive (no tzinfo). */
int jjpy_is_naive(PyObject *dt);

/* The module's sqlite3 helpers (_parse_date, ...), in module.c's table. */
PyObject *jjpy_parse_date(PyObject *module, PyObject *arg);
PyObject *jjpy_parse_timestamp(PyObject *module, PyObject *args,
                               PyObject *kwargs);
PyObject *jjpy_format_date(PyObject *module, PyObject *arg);
PyObject *jjpy_format_timestamp(PyObject *module, PyObject *arg);
PyObject *jjpy_parse_local_timestamp(PyObject *module, PyObject *args,
                                     PyObject *kwargs);

/* ---------------------------------------------------------------------- */
/* Document bytes (source.c)                                              */
/* ---------------------------------------------------------------------- */

/* The bytes of a document and what keeps them alive. */
typedef struct jjpy_source {
  PyObject *obj;      /* bytes or str whose memory data points into */
  char *heap;         /* or our copy / decompressed bytes; free() */
  jj_file file;       /* or a file (load) */
  int is_file;
  const char *data;
  size_t len;
} jjpy_source;

/* The document in `obj`: bytes and str as they are, other buffers copied
** once (a bytearray may change under a lazy view), gzip by magic and
** brotli by trying when the bytes do not start like a document, within
** max_size.  0 or -1 with the exception set. */
int jjpy_source_bytes(jjpy_state *st, PyObject *obj, const jjpy_opts *o,
                      jjpy_source *src);
/* A file read by jj_file_open_opts with the GIL released (Ctrl-C stops
** it).  0 or -1. */
int jjpy_source_file(jjpy_state *st, const char *path, const jjpy_opts *o,
                     jjpy_source *src);
void jjpy_source_close(jjpy_source *src);

/* ---------------------------------------------------------------------- */
/* The functions (decode.c, view.c, encode.c)                             */
/* ---------------------------------------------------------------------- */

/* Every row of doc (a list), rows as cv's options say. */
PyObject *jjpy_rows(jjpy_conv *cv, jj_doc *doc);
PyObject *jjpy_decode(PyObject *module, PyObject *args, PyObject *kwargs);
PyObject *jjpy_load(PyObject *module, PyObject *args, PyObject *kwargs);
PyObject *jjpy_view(PyObject *module, PyObject *args, PyObject *kwargs);
PyObject *jjpy_encode(PyObject *module, PyObject *args, PyObject *kwargs);
PyObject *jjpy_dump(PyObject *module, PyObject *args, PyObject *kwargs);
PyObject *jjpy_from_json(PyObject *module, PyObject *args, PyObject *kwargs);
PyObject *jjpy_from_csv(PyObject *module, PyObject *args, PyObject *kwargs);

/* ---------------------------------------------------------------------- */
/* Rows into the row builder (build.c)                                    */
/* ---------------------------------------------------------------------- */

typedef struct jjpy_build jjpy_build;
/* A builder holding every row of `rows` (dicts, or tuples with columns),
** with columns= and types= applied, ready for jj_builder_finish (its
** builder: jjpy_builder).  NULL with the exception set. */
jjpy_build *jjpy_build_rows(jjpy_state *st, PyObject *rows, PyObject *columns,
                            PyObject *types);
jj_builder *jjpy_builder(jjpy_build *bd);
/* jj_build_opts' note and interrupt callbacks as jjpy_build_rows set them
** take the GIL back when it was released with this call pair around
** jj_builder_finish. */
void jjpy_build_unlock(jjpy_build *bd);
void jjpy_build_relock(jjpy_build *bd);
/* After jj_builder_finish: 0, or -1 with the exception set when finish
** failed (code: its code) or a signal handler raised meanwhile. */
int jjpy_build_check(jjpy_build *bd, jj_code code);
/* Issue the notes as InferenceWarning.  0, or -1 when a warning raised
** (warnings made errors). */
int jjpy_build_warn(jjpy_build *bd);
void jjpy_build_free(jjpy_build *bd);

/* A table's columns as columns=, types= or a View give them (shape.c). */
typedef struct jjpy_shape jjpy_shape;
struct jjpy_shape {
  PyObject *names;   /* tuple of str, in order; NULL: the rows' keys */
  PyObject *subs;    /* dict: name -> index in sub; NULL: no nested given */
  jjpy_shape *sub;   /* PyMem */
  Py_ssize_t nsub, cap;
};
void jjpy_shape_clear(jjpy_shape *s);
/* A sequence of str (columns=, a nested "columns") as a tuple. */
PyObject *jjpy_names_tuple(jjpy_state *st, PyObject *names);
/* The shape of the nested column `name` of s, or NULL (borrowed). */
jjpy_shape *jjpy_shape_sub(jjpy_shape *s, PyObject *name);
/* The schema string of a table (as jjpy_schema_string), sh its shape (may
** be NULL), which gains the nested tables types= gives. */
PyObject *jjpy_schema_of(jjpy_state *st, jjpy_shape *sh, PyObject *names,
                         PyObject *types);
/* The schema string of jj_build_opts / jj_convert_opts from a types= or
** schema= object (letters, "jj", {"columns": [...], "types": [...]}, by
** name; by position with `names`, a tuple of str, or NULL).  A str is
** taken as the string itself.  New reference (a str), or NULL. */
PyObject *jjpy_schema_string(jjpy_state *st, PyObject *names, PyObject *types);
/* Notes collected as a list of str, issued as InferenceWarning (stack
** level 1: the line that called the module's function).  0 or -1. */
int jjpy_warn_notes(jjpy_state *st, PyObject *notes);

/* The View and iterator types (view.c), made in the module's exec. */
PyTypeObject *jjpy_view_type(PyObject *module);
PyTypeObject *jjpy_view_iter_type(PyObject *module);
/* 1 if o is a View (encode takes a nested View as a list of rows). */
int jjpy_is_view(jjpy_state *st, PyObject *o);

#endif /* JJPY_H */
