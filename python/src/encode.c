/*
** encode.c — encode(rows) -> bytes and dump(rows, path): the rows given to
** the core's row builder (build.c), which decides the types and writes the
** document, in memory or to a file.
**
** jj_builder_finish runs with the GIL released (the rows are the
** builder's by then; its note and interrupt callbacks take the GIL back
** for a moment).  dump() streams the document through a jj_deflater
** (plain, gzip or brotli by the name) into a jj_atomic temporary file
** renamed over the target on success, the GIL released while the file is
** flushed and renamed too.  The builder's notes become InferenceWarning
** after the document is made, before the file is renamed: a warning made
** an error leaves no file.
*/
#include "jjpy.h"

PyObject *jjpy_encode(PyObject *module, PyObject *args, PyObject *kwargs) {
  static char *kws[] = {"rows", "columns", "types", NULL};
  PyObject *rows, *columns = NULL, *types = NULL, *result = NULL;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|OO:encode", kws, &rows,
                                   &columns, &types))
    return NULL;
  jjpy_build *bd =
      jjpy_build_rows(PyModule_GetState(module), rows, columns, types);
  if (!bd) return NULL;
  jjpy_build_unlock(bd);
  jj_code code = jj_builder_finish(jjpy_builder(bd), NULL, NULL, NULL);
  jjpy_build_relock(bd);
  if (jjpy_build_check(bd, code) == 0 && jjpy_build_warn(bd) == 0) {
    size_t len;
    char *doc = jj_builder_take(jjpy_builder(bd), &len);
    if (doc) {
      result = PyBytes_FromStringAndSize(doc, (Py_ssize_t)len);
      jj_free(doc);
    } else {
      PyErr_NoMemory();
    }
  }
  jjpy_build_free(bd);
  return result;
}

/* ---------------------------------------------------------------------- */
/* dump                                                                    */
/* ---------------------------------------------------------------------- */

PyObject *jjpy_dump(PyObject *module, PyObject *args, PyObject *kwargs) {
  static char *kws[] = {"rows", "path", "columns", "types", "level", NULL};
  PyObject *rows, *path = NULL, *columns = NULL, *types = NULL;
  int level = -1, ok = 0;
  jjpy_state *st = PyModule_GetState(module);
  jjpy_build *bd = NULL;
  jj_error err;
  jj_compression kind;
  jj_atomic *a = NULL;
  jj_deflater *z = NULL;
  jj_code code;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OO&|OO$i:dump", kws, &rows,
                                   PyUnicode_FSConverter, &path, &columns,
                                   &types, &level))
    return NULL;
  const char *p = PyBytes_AS_STRING(path);
  /* the name first (.zst is refused), then the values, then the file:
  ** a bad value creates no temporary file */
  if (jj_compression_for_write(p, &kind, &err) != JJ_OK) {
    jjpy_raise(st, &err, NULL, NULL);
    goto done;
  }
  if (!(bd = jjpy_build_rows(st, rows, columns, types))) goto done;
  if (!(a = jj_atomic_open(p, &err)) ||
      !(z = jj_deflate_new(kind, level, jj_atomic_sink, a, &err))) {
    jjpy_raise(st, &err, NULL, NULL);
    goto done;
  }
  jjpy_build_unlock(bd);
  code = jj_builder_finish(jjpy_builder(bd), jj_deflate_sink, z, NULL);
  jj_code zcode = code == JJ_OK ? jj_deflate_finish(z, &err) : JJ_OK;
  jjpy_build_relock(bd);
  if (jjpy_build_check(bd, code) < 0) goto done;
  if (zcode != JJ_OK) {
    jjpy_raise(st, &err, NULL, NULL);
    goto done;
  }
  if (jjpy_build_warn(bd) < 0) goto done;
  ok = 1;
done:
  /* A failed write to the file reaches the builder or the deflater as
  ** "write failed"; the atomic file keeps the real reason (disk full, ...),
  ** which commit reports (removing the temporary file).  A zero-length
  ** write asks the atomic file whether it has failed. */
  if (a && !ok && jj_atomic_sink(a, NULL, 0) != 0) {
    jj_deflate_free(z);
    z = NULL;
    jj_atomic_commit(a, &err);
    a = NULL;
    PyErr_Clear();
    jjpy_raise(st, &err, NULL, NULL);
  }
  if (a && ok) {
    jj_deflate_free(z);
    z = NULL;
    Py_BEGIN_ALLOW_THREADS
    code = jj_atomic_commit(a, &err); /* fsync and rename: may be slow */
    Py_END_ALLOW_THREADS
    a = NULL;
    if (code != JJ_OK) {
      jjpy_raise(st, &err, NULL, NULL);
      ok = 0;
    }
  }
  jj_deflate_free(z);
  jj_atomic_abort(a);
  jjpy_build_free(bd);
  Py_XDECREF(path);
  if (!ok) return NULL;
  Py_RETURN_NONE;
}
