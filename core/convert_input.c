/*
** convert_input.c — where the converter's bytes come from and where its
** messages go: the jj_input helpers, the window both passes read through,
** the spool file of an input that cannot be rewound, and the located
** error messages and notes.
**
** The window (cv_win) holds CV_WINDOW bytes of input, or more while one row
** is larger than that (it doubles, up to opts.max_row).  cv_more slides the
** unfinished row to the front and reads after it, so a row is always
** contiguous in memory; a NUL stays after the data so a scanner may look one
** byte past a token without a bounds check.
*/
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "convert.h"

/* ---------------------------------------------------------------------- */
/* The jj_input helpers                                                    */
/* ---------------------------------------------------------------------- */

static long mem_read(void *ctx, char *buf, size_t cap) {
  jj_input *in = ctx;
  size_t n = in->mem_len_ - in->mem_pos_;
  if (n > cap) n = cap;
  if (n > (size_t)0x7fffffff) n = 0x7fffffff; /* fits a long everywhere */
  if (n) memcpy(buf, in->mem_ + in->mem_pos_, n);
  in->mem_pos_ += n;
  return (long)n;
}

static int mem_rewind(void *ctx) {
  ((jj_input *)ctx)->mem_pos_ = 0;
  return 0;
}

void jj_input_memory(jj_input *in, const void *p, size_t len,
                     const char *name) {
  memset(in, 0, sizeof *in);
  in->read = mem_read;
  in->rewind = mem_rewind;
  in->ctx = in;
  in->name = name;
  in->mem_ = p;
  in->mem_len_ = p ? len : 0;
}

static long file_read(void *ctx, char *buf, size_t cap) {
  FILE *f = ((jj_input *)ctx)->file_;
  if (!f) return -1; /* jj_input_file(in, NULL, ...): a read error */
  if (cap > (size_t)0x7fffffff) cap = 0x7fffffff;
  size_t n = fread(buf, 1, cap, f);
  if (n == 0 && ferror(f)) return -1;
  return (long)n;
}

static int file_rewind(void *ctx) {
  jj_input *in = ctx;
  clearerr((FILE *)in->file_);
  return fseeko(in->file_, (off_t)in->start_, SEEK_SET) ? -1 : 0;
}

/* A stream is rewound only when it can seek: ftello fails on a pipe. */
void jj_input_file(jj_input *in, void *f, const char *name) {
  memset(in, 0, sizeof *in);
  in->read = file_read;
  in->ctx = in;
  in->name = name;
  in->file_ = f;
  off_t at = f ? ftello(f) : -1;
  if (at >= 0 && fseeko(f, at, SEEK_SET) == 0) {
    in->start_ = (long long)at;
    in->rewind = file_rewind;
  }
}

/* ---------------------------------------------------------------------- */
/* The window                                                              */
/* ---------------------------------------------------------------------- */

/* Read into the free part of the window until it is full or the input
** ends; copy to the spool in pass 1 when there is one.  0 or -1. */
static int fill(cv *c) {
  cv_win *w = &c->w;
  while (!w->eof && w->len < w->cap) {
    long n;
    if (w->from_spool) {
      size_t got = fread(w->buf + w->len, 1, w->cap - w->len, w->spool);
      if (got == 0 && ferror(w->spool))
        return cv_fail_plain(c, JJ_ERR_IO, UINT64_MAX,
                             "cannot read the temporary copy of the input"),
               -1;
      n = (long)got;
    } else {
      n = c->in->read(c->in->ctx, w->buf + w->len, w->cap - w->len);
      if (n < 0 || (size_t)n > w->cap - w->len)
        return cv_fail_plain(c, JJ_ERR_IO, UINT64_MAX, "cannot read the input"),
               -1;
      if (n > 0 && w->spool && c->pass == 1 &&
          fwrite(w->buf + w->len, 1, (size_t)n, w->spool) != (size_t)n)
        return cv_fail_plain(c, JJ_ERR_IO, UINT64_MAX,
                             "cannot write the temporary copy of the input: "
                             "%s",
                             strerror(errno)),
               -1;
    }
    if (n == 0) {
      w->eof = 1;
      break;
    }
    w->len += (size_t)n;
    w->total += (uint64_t)n;
    if (c->o.max_size && w->total > c->o.max_size)
      return cv_fail_plain(c, JJ_ERR_LIMIT, UINT64_MAX,
                           "the input exceeds the limit of %llu bytes",
                           (unsigned long long)c->o.max_size),
             -1;
    if (w->total - w->polled >= CV_WINDOW) {
      w->polled = w->total;
      if (c->o.interrupt && c->o.interrupt(c->o.interrupt_ctx))
        return cv_fail_plain(c, JJ_ERR_INTERRUPTED, UINT64_MAX, "interrupted"),
               -1;
    }
  }
  memset(w->buf + w->len, 0, CV_PAD); /* the NUL, and defined bytes after */
  return 0;
}

int cv_more(cv *c, size_t keep) {
  cv_win *w = &c->w;
  if (w->eof) return 0;
  if (keep > w->len) keep = w->len;
  if (keep > 0) {
    memmove(w->buf, w->buf + keep, w->len - keep);
    w->len -= keep;
    w->base += keep;
  }
  if (w->len == w->cap) { /* one row fills the window: double it */
    size_t limit = c->o.max_row ? c->o.max_row : CV_DEFAULT_MAX_ROW;
    if (w->cap >= limit) {
      cv_fail(c, JJ_ERR_LIMIT, w->base,
              "a row larger than the limit of %zu bytes", limit);
      return -1;
    }
    size_t cap = w->cap * 2 > limit ? limit : w->cap * 2;
    char *p = realloc(w->buf, cap + CV_PAD);
    if (!p) return cv_nomem(c), -1;
    w->buf = p;
    w->cap = cap;
  }
  size_t before = w->len;
  if (fill(c)) return -1;
  return w->len > before ? 1 : 0;
}

jj_code cv_start_pass(cv *c) {
  cv_win *w = &c->w;
  if (!w->buf) { /* never more than max_row, which it doubles up to */
    size_t limit = c->o.max_row ? c->o.max_row : CV_DEFAULT_MAX_ROW;
    w->cap = limit < CV_WINDOW ? limit : CV_WINDOW;
    if (!(w->buf = malloc(w->cap + CV_PAD))) return cv_nomem(c), c->x.err->code;
  }
  w->len = 0;
  w->base = 0;
  w->eof = 0;
  w->total = 0;
  w->polled = 0;
  if (c->pass == 1) {
    if (!c->in->rewind && !(w->spool = tmpfile()))
      return cv_fail_plain(c, JJ_ERR_IO, UINT64_MAX,
                           "cannot create a temporary copy of the input: %s",
                           strerror(errno)),
             c->x.err->code;
  } else if (w->spool) {
    if (fflush(w->spool) || fseeko(w->spool, 0, SEEK_SET))
      return cv_fail_plain(c, JJ_ERR_IO, UINT64_MAX,
                           "cannot read the temporary copy of the input"),
             c->x.err->code;
    w->from_spool = 1;
  } else if (c->in->rewind(c->in->ctx)) {
    return cv_fail_plain(c, JJ_ERR_IO, UINT64_MAX,
                         "cannot rewind the input for the second pass"),
           c->x.err->code;
  }
  return fill(c) ? c->x.err->code : JJ_OK;
}

void cv_win_free(cv_win *w) {
  free(w->buf);
  if (w->spool) fclose(w->spool);
  memset(w, 0, sizeof *w);
}

/* ---------------------------------------------------------------------- */
/* Messages                                                                */
/* ---------------------------------------------------------------------- */

int cv_fail(cv *c, jj_code code, uint64_t off, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  ic_vfail(&c->x, code, off, 1, fmt, ap);
  va_end(ap);
  return CV_FAIL;
}

int cv_fail_plain(cv *c, jj_code code, uint64_t off, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  ic_vfail(&c->x, code, off, 0, fmt, ap);
  va_end(ap);
  return CV_FAIL;
}

int cv_nomem(cv *c) { return ic_nomem(&c->x); }
