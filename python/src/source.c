/*
** source.c — the bytes a document is read from, and what keeps them alive
** for as long as a jj_doc borrows them:
**
**   bytes        used in place (immutable), the object referenced
**   str          its UTF-8 (in place for ASCII; CPython caches it on the
**                str otherwise), the object referenced; never compressed
**   other buffer copied once: a bytearray or a memoryview of one can
**                change while a lazy View reads it, and the core reads
**                bytes that must not change under it
**   gzip         by its magic bytes, decompressed into our memory
**   brotli       tried when the bytes do not start like a document (brotli
**                has no magic), as the SQLite extension does for a BLOB;
**                when that fails, the bytes are parsed as they are, so the
**                parser's message says what is wrong with them
**   file         jj_file_open_opts (regular files only, max_size, gzip by
**                magic, brotli by a .br name)
**
** Decompression and file reads run with the GIL released; the core polls
** an interrupt callback about every MiB, which takes the GIL back for a
** moment to run Python's signal handlers, so Ctrl-C stops a long read.
*/
#include "jjpy.h"
#include <stdlib.h>
#include <string.h>

/* The GIL released: the thread state to take it back with, and whether a
** signal handler raised (its exception is then pending). */
typedef struct unlocked {
  PyThreadState *ts;
  int signalled;
} unlocked;

/* jj_interrupt: run the signal handlers; nonzero when one raised. */
static int poll_signals(void *ctx) {
  unlocked *u = ctx;
  PyEval_RestoreThread(u->ts);
  int bad = PyErr_CheckSignals();
  u->ts = PyEval_SaveThread();
  if (bad) u->signalled = 1;
  return bad;
}

/* Decompressed bytes, grown by doubling (plain malloc: no GIL here). */
typedef struct growbuf {
  char *p;
  size_t len, cap;
  int oom;
} growbuf;

static int grow_sink(void *ctx, const char *data, size_t len) {
  growbuf *b = ctx;
  if (len > b->cap - b->len) {
    size_t cap = b->cap ? b->cap : 65536;
    while (cap - b->len < len) {
      if (cap > SIZE_MAX / 2) {
        b->oom = 1;
        return 1;
      }
      cap *= 2;
    }
    char *p = realloc(b->p, cap);
    if (!p) {
      b->oom = 1;
      return 1;
    }
    b->p = p;
    b->cap = cap;
  }
  memcpy(b->p + b->len, data, len);
  b->len += len;
  return 0;
}

/* A document starts with '{' after JSON whitespace. */
static int looks_like_document(const char *p, size_t len) {
  size_t i = 0;
  while (i < len && (p[i] == ' ' || p[i] == '\t' || p[i] == '\n' || p[i] == '\r'))
    i++;
  return i < len && p[i] == '{';
}

/* Decompress p[0..n) as `kind` into src->heap within `limit`, the GIL
** released.  1 done; 0 when a guessed brotli stream was not brotli after
** all (nothing kept: parse the bytes as they are); -1 with an exception. */
static int inflate(jjpy_state *st, const char *p, size_t n,
                   jj_compression kind, int guessed, uint64_t limit,
                   jjpy_source *src) {
  growbuf b = {NULL, 0, 0, 0};
  unlocked u = {NULL, 0};
  jj_error err;
  jj_inflater *z = jj_inflate_new(kind, limit, grow_sink, &b, &err);
  if (!z) return jjpy_raise(st, &err, NULL, NULL), -1;
  jj_inflate_set_interrupt(z, poll_signals, &u);
  u.ts = PyEval_SaveThread();
  jj_code code = jj_inflate_write(z, p, n, &err);
  if (code == JJ_OK) code = jj_inflate_finish(z, &err);
  jj_inflate_free(z);
  PyEval_RestoreThread(u.ts);
  if (u.signalled || b.oom) {
    free(b.p);
    if (!u.signalled) PyErr_NoMemory();
    return -1; /* the handler's exception is pending */
  }
  int doc = looks_like_document(b.p ? b.p : "", b.len);
  if (guessed && !doc && code != JJ_ERR_LIMIT && code != JJ_ERR_NOMEM) {
    free(b.p);
    return 0;
  }
  if (code != JJ_OK) {
    free(b.p);
    return jjpy_raise(st, &err, NULL, NULL), -1;
  }
  if (!b.p && !(b.p = malloc(1))) return PyErr_NoMemory(), -1;
  src->heap = b.p;
  src->data = b.p;
  src->len = b.len;
  return 1;
}

/* Use p[0..n) (alive while `owner` is) as the document: decompressed when
** it is compressed, else in place (owner referenced) or, owner NULL, a
** copy of its own.  0 or -1. */
static int take(jjpy_state *st, PyObject *owner, const char *p, size_t n,
                const jjpy_opts *o, jjpy_source *src) {
  jj_compression kind = jj_detect_compression(p, n);
  int guessed = 0;
  if (kind == JJ_PLAIN && n > 0 && !looks_like_document(p, n)) {
    kind = JJ_BROTLI;
    guessed = 1;
  }
  if (kind != JJ_PLAIN) {
    int r = inflate(st, p, n, kind, guessed, o->max_size, src);
    if (r) return r < 0 ? -1 : 0;
  }
  if (owner) {
    src->obj = Py_NewRef(owner);
    src->data = p;
    src->len = n;
    return 0;
  }
  if (!(src->heap = malloc(n ? n : 1))) return PyErr_NoMemory(), -1;
  memcpy(src->heap, p, n);
  src->data = src->heap;
  src->len = n;
  return 0;
}

int jjpy_source_bytes(jjpy_state *st, PyObject *obj, const jjpy_opts *o,
                      jjpy_source *src) {
  memset(src, 0, sizeof *src);
  if (PyUnicode_Check(obj)) {
    Py_ssize_t n;
    const char *p = PyUnicode_AsUTF8AndSize(obj, &n);
    if (!p) {
      if (!PyErr_ExceptionMatches(PyExc_UnicodeEncodeError)) return -1;
      PyErr_Clear(); /* a lone surrogate: what the core calls bad UTF-8 */
      jjpy_raise_at(st, JJ_ERR_UTF8, 0, NULL, JJ_NO_OFFSET,
                    "the str is not valid UTF-8 (it holds a lone surrogate)");
      return -1;
    }
    src->obj = Py_NewRef(obj);
    src->data = p;
    src->len = (size_t)n;
    return 0;
  }
  if (PyBytes_Check(obj))
    return take(st, obj, PyBytes_AS_STRING(obj), (size_t)PyBytes_GET_SIZE(obj),
                o, src);
  Py_buffer view;
  if (PyObject_GetBuffer(obj, &view, PyBUF_SIMPLE) < 0) {
    if (PyErr_ExceptionMatches(PyExc_TypeError)) {
      PyErr_Clear();
      PyErr_Format(PyExc_TypeError,
                   "data must be bytes, bytearray, memoryview or str, not "
                   "%.100s",
                   Py_TYPE(obj)->tp_name);
    }
    return -1;
  }
  int rc = take(st, NULL, view.buf, (size_t)view.len, o, src);
  PyBuffer_Release(&view);
  return rc;
}

int jjpy_source_file(jjpy_state *st, const char *path, const jjpy_opts *o,
                     jjpy_source *src) {
  jj_file_opts fo;
  unlocked u = {NULL, 0};
  jj_error err;
  memset(src, 0, sizeof *src);
  memset(&fo, 0, sizeof fo);
  fo.max_size = o->max_size;
  fo.interrupt = poll_signals;
  fo.interrupt_ctx = &u;
  u.ts = PyEval_SaveThread();
  jj_code code = jj_file_open_opts(path, &fo, &src->file, &err);
  PyEval_RestoreThread(u.ts);
  if (u.signalled || code != JJ_OK) {
    jj_file_close(&src->file);
    if (!u.signalled) jjpy_raise(st, &err, NULL, NULL);
    return -1;
  }
  src->is_file = 1;
  src->data = src->file.data ? src->file.data : "";
  src->len = src->file.len;
  return 0;
}

void jjpy_source_close(jjpy_source *src) {
  if (src->is_file) jj_file_close(&src->file);
  free(src->heap);
  Py_CLEAR(src->obj);
  src->heap = NULL;
  src->is_file = 0;
  src->data = NULL;
  src->len = 0;
}
