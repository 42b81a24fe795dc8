/*
** output.c — where the tool's bytes go: stdout, a file written atomically
** through the library's jj_atomic_* (a temporary file renamed over the
** target at the end, removed on any failure, so the old file stays and no
** half file is left), or a pipe, device or socket named as the output,
** written straight (there is nothing to rename over); compressed through
** jj_deflate_* when the name or --to says so; a growable buffer that is a
** jj_sink; and cli_write_doc, which `cat`, `convert` and `head` share: a
** document out through jj_to_text, or copied value by value through a
** jj_writer.
**
** Signals: the temporary file is created at the first byte of output, and
** every signal whose default action ends the process (and that can be
** blocked: all but SIGKILL and SIGSTOP) is blocked from then until the
** file is renamed or removed.  The library's long operations poll
** cli_interrupted (sigpending), fail with JJ_ERR_INTERRUPTED, the caller
** removes the file, and unblocking the signal ends the process as the
** signal does (exit status 128 + the signal's number, 130 for SIGINT).
** So no global flag and no handler are needed, and no signal leaves a
** temporary file behind.  SIGPIPE and SIGXFSZ are ignored from the start
** (cli_signals_init): a write to a closed pipe then fails with EPIPE, and
** one past `ulimit -f` with EFBIG, each reported as a write error naming
** the output (a temporary file is removed as after any error).
*/
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

/* ---------------------------------------------------------------------- */
/* Signals                                                                 */
/* ---------------------------------------------------------------------- */

/* The signals that would end the process while a temporary file exists
** (besides the real-time ones, added in fatal_set).  SIGPIPE and SIGXFSZ
** are not here: they are ignored (cli_signals_init). */
static const int fatal[] = {
    SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGUSR1, SIGUSR2, SIGALRM,
#ifdef SIGVTALRM
    SIGVTALRM,
#endif
#ifdef SIGPROF
    SIGPROF,
#endif
#ifdef SIGXCPU
    SIGXCPU,
#endif
#ifdef SIGPOLL
    SIGPOLL,
#elif defined(SIGIO)
    SIGIO,
#endif
#ifdef SIGSTKFLT
    SIGSTKFLT,
#endif
#ifdef SIGPWR
    SIGPWR,
#endif
};
#define NFATAL (sizeof fatal / sizeof *fatal)

/* Every signal above, and the real-time signals (their default action
** ends the process too). */
static void fatal_set(sigset_t *set) {
  sigemptyset(set);
  for (size_t k = 0; k < NFATAL; k++) sigaddset(set, fatal[k]);
#if defined(SIGRTMIN) && defined(SIGRTMAX)
  for (int sig = SIGRTMIN; sig <= SIGRTMAX; sig++) sigaddset(set, sig);
#endif
}

/* 1 when a signal of `set` is also in `pending`. */
static int any_of(const sigset_t *set, const sigset_t *pending) {
  for (size_t k = 0; k < NFATAL; k++)
    if (sigismember(set, fatal[k]) == 1 && sigismember(pending, fatal[k]) == 1)
      return 1;
#if defined(SIGRTMIN) && defined(SIGRTMAX)
  for (int sig = SIGRTMIN; sig <= SIGRTMAX; sig++)
    if (sigismember(set, sig) == 1 && sigismember(pending, sig) == 1) return 1;
#endif
  return 0;
}

void cli_signals_init(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = SIG_IGN;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGPIPE, &sa, NULL);
#ifdef SIGXFSZ
  sigaction(SIGXFSZ, &sa, NULL);
#endif
}

/* Block them while a temporary file exists; o->blocked gets each one
** blocked here (one that was blocked already is not ours to unblock). */
static void block_signals(cli_out *o) {
  sigset_t set, old;
  fatal_set(&set);
  if (sigprocmask(SIG_BLOCK, &set, &old) != 0) return;
  o->blocked = set;
  for (size_t k = 0; k < NFATAL; k++)
    if (sigismember(&old, fatal[k]) == 1) sigdelset(&o->blocked, fatal[k]);
#if defined(SIGRTMIN) && defined(SIGRTMAX)
  for (int sig = SIGRTMIN; sig <= SIGRTMAX; sig++)
    if (sigismember(&old, sig) == 1) sigdelset(&o->blocked, sig);
#endif
  o->is_blocked = 1;
}

/* Unblock them: one that came meanwhile now ends the process. */
static void unblock_signals(cli_out *o) {
  if (!o->is_blocked) return;
  o->is_blocked = 0;
  sigprocmask(SIG_UNBLOCK, &o->blocked, NULL);
}

int cli_interrupted(void *out) {
  const cli_out *o = out;
  sigset_t set;
  if (!o || !o->is_blocked || sigpending(&set) != 0) return 0;
  return any_of(&o->blocked, &set);
}

/* ---------------------------------------------------------------------- */
/* Outputs                                                                 */
/* ---------------------------------------------------------------------- */

static void out_fail(cli_out *o, jj_code code, const char *fmt,
                     const char *why) {
  if (o->failed) return;
  o->failed = 1;
  memset(&o->err, 0, sizeof o->err);
  o->err.code = code;
  o->err.offset = JJ_NO_OFFSET;
  o->err.column = -1;
  snprintf(o->err.message, sizeof o->err.message, fmt, o->label, why);
}

/* Bytes to the file, or to the descriptor written straight. */
static int raw_sink(void *ctx, const char *p, size_t len) {
  cli_out *o = ctx;
  if (o->atomic) {
    if (jj_atomic_sink(o->atomic, p, len)) {
      o->failed = o->atomic_failed = 1; /* jj_atomic_commit says why */
      return 1;
    }
  } else {
    size_t done = 0;
    while (done < len) {
      size_t n = len - done > (1u << 30) ? (1u << 30) : len - done;
      ssize_t w = write(o->fd, p + done, n);
      if (w < 0 && errno == EINTR) continue;
      if (w <= 0) {
        out_fail(o, JJ_ERR_IO, "cannot write %s: %s",
                 w < 0 ? strerror(errno) : "no progress");
        return 1;
      }
      done += (size_t)w;
    }
  }
  o->bytes += len;
  return 0;
}

/* 1 when `path` names what stdout already is (/dev/stdout, /dev/fd/1, or
** the file stdout was redirected to). */
static int is_stdout(const struct stat *st) {
  struct stat out;
  return fstat(1, &out) == 0 && out.st_dev == st->st_dev &&
         out.st_ino == st->st_ino;
}

/* An output that exists and is not a regular file (a pipe, a character
** device such as /dev/null or a terminal, a socket) is written straight:
** there is nothing to rename over it.  So is a name for stdout itself
** (/dev/stdout, /dev/fd/1), whatever stdout is: renaming a file over what
** stdout was redirected to would cut the shell's '>>' and the rest of
** stdout off from it.  Opened without O_CREAT (it exists) and
** without O_TRUNC; a FIFO waits for its reader, as a shell's '>' does.
** Returns 1 with o->fd set, 0 when the output is a regular file or does
** not exist (written atomically), or -1 with the error printed. */
static int open_direct(cli_out *o) {
  struct stat st;
  if (stat(o->path, &st) != 0 || S_ISDIR(st.st_mode)) return 0;
  if (is_stdout(&st)) {
    o->fd = 1; /* also a socket, which open() refuses */
    return 1;
  }
  if (S_ISREG(st.st_mode) || S_ISBLK(st.st_mode)) return 0;
  int fd;
  do fd = open(o->path, O_WRONLY | O_NOCTTY);
  while (fd < 0 && errno == EINTR);
  if (fd < 0) {
    cli_err(o->app, "cannot open \"%s\" for writing: %s", o->path,
            strerror(errno));
    return -1;
  }
  /* Replaced by a regular file since the stat: that one is replaced
  ** atomically, not written over in place. */
  if (fstat(fd, &st) != 0 || S_ISREG(st.st_mode) || S_ISBLK(st.st_mode)) {
    close(fd);
    return 0;
  }
  o->fd = fd;
  o->own_fd = 1;
  return 1;
}

int cli_out_is_stream(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && !S_ISDIR(st.st_mode) &&
         (is_stdout(&st) || (!S_ISREG(st.st_mode) && !S_ISBLK(st.st_mode)));
}

int cli_out_init(cli *app, cli_out *o, const char *path, jj_compression comp) {
  jj_error err;
  memset(o, 0, sizeof *o);
  o->app = app;
  o->comp = comp;
  o->level = -1;
  o->fd = 1;
  if (!path || !strcmp(path, "-")) {
    o->label = "stdout";
    return 0;
  }
  o->path = o->label = path;
  int direct = open_direct(o);
  if (direct < 0) return CLI_IO;
  if (direct) {
    o->path = NULL; /* no atomic file */
    if (comp != JJ_PLAIN && isatty(o->fd)) {
      cli_out_abort(o);
      return cli_usage(app, "refusing to write compressed data to a terminal");
    }
    return 0;
  }
  o->fd = -1;
  if (jj_compression_for_write(path, NULL, &err) != JJ_OK) {
    cli_fail(app, &err, NULL);
    return CLI_USAGE;
  }
  /* Fail now, not after the work, when the file cannot be written. */
  block_signals(o);
  jj_atomic *a = jj_atomic_open(path, &err);
  jj_atomic_abort(a);
  unblock_signals(o);
  if (!a) {
    cli_fail(app, &err, NULL);
    return cli_status(err.code);
  }
  return 0;
}

/* Create the file (or not, for stdout) and the compressor. */
static int out_open(cli_out *o) {
  jj_error err;
  o->opened = 1;
  if (o->path) { /* not a descriptor written straight */
    block_signals(o);
    o->atomic = jj_atomic_open(o->path, &err);
    if (!o->atomic) {
      o->failed = 1;
      o->err = err;
      return 1;
    }
  }
  if (o->comp != JJ_PLAIN) {
    o->z = jj_deflate_new(o->comp, o->level, raw_sink, o, &err);
    if (!o->z) {
      o->failed = 1;
      o->err = err;
      return 1;
    }
  }
  return 0;
}

int cli_out_sink(void *out, const char *p, size_t len) {
  cli_out *o = out;
  if (o->failed || (!o->opened && out_open(o))) return 1;
  if (o->z) {
    if (jj_deflate_sink(o->z, p, len)) {
      out_fail(o, JJ_ERR_IO, "cannot compress %s%s", "");
      return 1;
    }
    return 0;
  }
  return raw_sink(o, p, len);
}

int cli_out_finish(cli_out *o) {
  jj_error err;
  jj_code code = JJ_OK;
  if (!o->opened && out_open(o)) code = o->err.code;
  if (!code && o->z && jj_deflate_finish(o->z, &err) != JJ_OK) {
    if (!o->failed) o->err = err;
    o->failed = 1;
  }
  jj_deflate_free(o->z);
  o->z = NULL;
  if (o->atomic && o->failed && !o->atomic_failed) {
    jj_atomic_abort(o->atomic); /* never rename a file that failed */
  } else if (o->atomic) {       /* committing reports its write error */
    if (jj_atomic_commit(o->atomic, &err) != JJ_OK) {
      o->err = err;
      o->failed = 1;
    }
  }
  o->atomic = NULL;
  unblock_signals(o);
  if (o->own_fd) {
    if (close(o->fd) != 0 && !o->failed && errno != EINTR)
      out_fail(o, JJ_ERR_IO, "cannot write %s: %s", strerror(errno));
    o->own_fd = 0;
  }
  if (o->failed) {
    cli_fail(o->app, &o->err, NULL);
    return cli_status(o->err.code);
  }
  return 0;
}

void cli_out_abort(cli_out *o) {
  jj_deflate_free(o->z);
  o->z = NULL;
  jj_atomic_abort(o->atomic);
  o->atomic = NULL;
  unblock_signals(o);
  if (o->own_fd) close(o->fd);
  o->own_fd = 0;
}

/* ---------------------------------------------------------------------- */
/* Buffers                                                                 */
/* ---------------------------------------------------------------------- */

int cli_buf_sink(void *buf, const char *p, size_t len) {
  cli_buf *b = buf;
  if (len > b->cap - b->len) {
    size_t cap = b->cap ? b->cap : 4096;
    while (cap - b->len < len) {
      if (cap > SIZE_MAX / 2) return 1;
      cap *= 2;
    }
    char *q = realloc(b->p, cap);
    if (!q) return 1;
    b->p = q;
    b->cap = cap;
  }
  if (len) memcpy(b->p + b->len, p, len);
  b->len += len;
  return 0;
}

void cli_buf_free(cli_buf *b) {
  free(b->p);
  memset(b, 0, sizeof *b);
}

/* Copy the rows value by value (jj_writer_copy re-encodes canonically),
** polling the signals (cli_interrupted) between rows. */
static jj_code copy_doc(jj_doc *doc, cli_out *out, int64_t *rows,
                        jj_error *err) {
  const jj_schema *s = jj_doc_schema(doc);
  size_t ncol = jj_schema_columns(s);
  jj_cursor *c = jj_cursor_new(doc, err);
  jj_writer *w = c ? jj_writer_new(s, cli_out_sink, out, err) : NULL;
  jj_code code = w ? JJ_OK : err->code;
  int r = 0;
  while (!code && (r = jj_cursor_next(c, err)) == 1) {
    for (size_t k = 0; k < ncol && !code; k++) code = jj_writer_copy(w, c, k);
    if (!code) code = jj_writer_end_row(w);
    if (code) {
      *err = *jj_writer_error(w); /* a reader error, located */
    } else if (jj_cursor_row(c) % 4096 == 0 && cli_interrupted(out)) {
      memset(err, 0, sizeof *err);
      err->code = code = JJ_ERR_INTERRUPTED;
      err->offset = JJ_NO_OFFSET;
      snprintf(err->message, sizeof err->message, "interrupted");
    }
  }
  if (!code && r < 0) code = err->code;
  if (!code && (code = jj_writer_finish(w)) != JJ_OK)
    *err = *jj_writer_error(w);
  if (rows) *rows = w ? jj_writer_rows(w) : 0;
  jj_writer_free(w);
  jj_cursor_free(c);
  return code;
}

/* Count the rows of an exported document, for the summary. */
static int64_t count_rows(jj_doc *doc) {
  int64_t n = jj_doc_rows(doc, NULL);
  return n < 0 ? 0 : n;
}

int cli_write_doc(cli *app, jj_doc *doc, cli_format fmt,
                  const jj_to_text_opts *eo, cli_out *out, int64_t *rows,
                  const char *label) {
  jj_error err;
  jj_code code;
  if (fmt == CLI_FMT_JJ) {
    code = copy_doc(doc, out, rows, &err);
  } else {
    jj_to_text_opts o = *eo;
    o.interrupt = cli_interrupted;
    o.interrupt_ctx = out;
    code = jj_to_text(doc, cli_format_jj(fmt), &o, cli_out_sink, out, &err);
    if (!code && rows) *rows = count_rows(doc);
  }
  if (code == JJ_OK) return cli_out_finish(out);
  if (out->failed) return cli_out_finish(out); /* the output's own error */
  int rc = cli_fail(app, &err, label); /* before a pending signal ends us */
  cli_out_abort(out);
  return rc;
}
