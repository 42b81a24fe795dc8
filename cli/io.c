/*
** io.c — where the tool's bytes come from: formats by name (and the
** --delimiter option's values), inputs, and documents read into memory.
**
** Inputs (cli_src): a file, or stdin for '-'.  Compression is decided by
** the name (.gz, .br), else by gzip's magic bytes, else, for commands that
** read documents, by trying brotli when the bytes do not start like JSON
** (brotli has no magic).  A compressed input is inflated in steps of
** 16 KiB of input, so memory stays small whatever the file's size; a step
** that would hold more than 256 MiB of output is refused as a
** decompression bomb.  Each pass reads at most the size limit
** (--max-size, 1 GiB by default), counted after decompression, so
** /dev/zero, a huge file or a decompression bomb ends with an error saying
** how to raise it.  A regular file can be rewound (the converter's second
** pass); stdin from a pipe cannot, and the converter spools it.
**
** Documents (cli_doc) are read into memory: whole, or a prefix that is
** doubled while a cut-short prefix is what stops the reading (`schema`
** and `head` of a large file read only its first bytes).  Read whole, the
** header comes first: the first 64 KiB are parsed before the rest is
** read, so bytes that are not a document fail at once, with their place.
**
** Why not the core's jj_file_open_opts (core/file.c), whose
** JJ_FILE_ANY_KIND reads FIFOs, stdin as /dev/stdin and devices too: it
** loads one whole document (or one prefix) by path into memory, and the
** tool needs a stream.  `convert` reads its input in steps through the
** jj_input callbacks (two passes over a file by rewinding, a pipe spooled
** by the core), so an input larger than memory converts; `schema` and
** `head` extend a prefix by reading on from the same descriptor, which a
** pipe allows once (jj_file would reopen it and lose the bytes read); a
** brotli stream without a .br name (`jalapenojson cat - < x.br`) is found
** by trying to inflate the first bytes, where jj_file goes by the name;
** the progress line follows the bytes as they arrive; the bomb limit is
** per 16 KiB of input, not a cap on the whole document; and stdin is fd 0,
** named "stdin" in messages.  The reading itself is one read() loop; the
** core does the decompressing (jj_inflate_*).
**
** Outputs are output.c's.
*/
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

#define RAW_STEP (16u << 10)         /* compressed bytes per inflate step */
#define PEND_MAX ((size_t)256 << 20) /* output one step may hold at most */
#define PEEK_MIN 512                 /* bytes looked at to sniff */
#define HEADER_PREFIX ((size_t)64 << 10) /* first read of a whole document */
#define RAISE "(raise it with --max-size N; 0: no limit)"

/* ---------------------------------------------------------------------- */
/* Formats                                                                 */
/* ---------------------------------------------------------------------- */

static const struct {
  const char *name;
  cli_format fmt;
} format_names[] = {
    {"json", CLI_FMT_JSON},    {"ndjson", CLI_FMT_NDJSON},
    {"jsonl", CLI_FMT_NDJSON}, {"csv", CLI_FMT_CSV},
    {"tsv", CLI_FMT_TSV},      {"jj", CLI_FMT_JJ},
};

/* ASCII case-insensitive equality of p[0..len) and the NUL-terminated s. */
static int word_eq(const char *p, size_t len, const char *s, int fold) {
  if (strlen(s) != len) return 0;
  for (size_t k = 0; k < len; k++) {
    char a = p[k];
    if (fold && a >= 'A' && a <= 'Z') a = (char)(a - 'A' + 'a');
    if (a != s[k]) return 0;
  }
  return 1;
}

int cli_format_parse(const char *name, int by_name, cli_format *fmt,
                     jj_compression *comp) {
  size_t len = strlen(name);
  *fmt = CLI_FMT_UNKNOWN;
  *comp = JJ_PLAIN;
  if (len > 3 && !strcmp(name + len - 3, ".gz")) {
    *comp = JJ_GZIP;
    len -= 3;
  } else if (len > 3 && !strcmp(name + len - 3, ".br")) {
    *comp = JJ_BROTLI;
    len -= 3;
  }
  const char *word = name;
  if (by_name) { /* the last extension of the (uncompressed) name */
    size_t dot = len;
    while (dot > 0 && name[dot - 1] != '.' && name[dot - 1] != '/') dot--;
    if (dot == 0 || name[dot - 1] != '.') return -1;
    word = name + dot;
    len -= dot;
  }
  for (size_t k = 0; k < sizeof format_names / sizeof *format_names; k++)
    if (word_eq(word, len, format_names[k].name, by_name)) {
      *fmt = format_names[k].fmt;
      return 0;
    }
  return -1;
}

int cli_parse_delimiter(const char *s, char *out) {
  if (!strcmp(s, "tab") || !strcmp(s, "\\t") || !strcmp(s, "\t")) {
    *out = '\t';
    return 0;
  }
  if (strlen(s) != 1 || (unsigned char)s[0] >= 0x80 || s[0] == '"' ||
      s[0] == '\n' || s[0] == '\r')
    return -1;
  *out = s[0];
  return 0;
}

const char *cli_format_name(cli_format f) {
  switch (f) {
    case CLI_FMT_JSON:
      return "json";
    case CLI_FMT_NDJSON:
      return "ndjson";
    case CLI_FMT_CSV:
      return "csv";
    case CLI_FMT_TSV:
      return "tsv";
    case CLI_FMT_JJ:
      return "jj";
    case CLI_FMT_UNKNOWN:
      break;
  }
  return "auto";
}

jj_format cli_format_jj(cli_format f) {
  switch (f) {
    case CLI_FMT_JSON:
      return JJ_FORMAT_JSON;
    case CLI_FMT_NDJSON:
      return JJ_FORMAT_NDJSON;
    case CLI_FMT_CSV:
      return JJ_FORMAT_CSV;
    case CLI_FMT_TSV:
      return JJ_FORMAT_TSV;
    case CLI_FMT_JJ:
    case CLI_FMT_UNKNOWN:
      break;
  }
  return JJ_FORMAT_AUTO;
}

/* ---------------------------------------------------------------------- */
/* Inputs                                                                  */
/* ---------------------------------------------------------------------- */

/* Append s to the NUL-terminated message in m[0..cap), cut to fit. */
static void append(char *m, size_t cap, const char *s) {
  size_t n = strlen(m);
  while (*s && n + 1 < cap) m[n++] = *s++;
  m[n] = 0;
}

/* The input failed: "LABEL: msg" or "LABEL: msg: why". */
static void src_fail(cli_src *s, jj_code code, const char *msg,
                     const char *why) {
  s->failed = 1;
  memset(&s->err, 0, sizeof s->err);
  s->err.code = code;
  s->err.offset = JJ_NO_OFFSET;
  s->err.column = -1;
  append(s->err.message, sizeof s->err.message, s->label);
  append(s->err.message, sizeof s->err.message, ": ");
  append(s->err.message, sizeof s->err.message, msg);
  if (why) {
    append(s->err.message, sizeof s->err.message, ": ");
    append(s->err.message, sizeof s->err.message, why);
  }
}

/* Fill the read-ahead buffer to `want` raw bytes (fewer at the end). */
static int fill_peek(cli_src *s, size_t want) {
  if (want > s->peek_len && !s->raw_eof) {
    char *p = realloc(s->peek, want);
    if (!p) {
      src_fail(s, JJ_ERR_NOMEM, "out of memory", NULL);
      return -1;
    }
    s->peek = p;
  }
  while (s->peek_len < want && !s->raw_eof) {
    ssize_t n = read(s->fd, s->peek + s->peek_len, want - s->peek_len);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      src_fail(s, JJ_ERR_IO, "cannot read", strerror(errno));
      return -1;
    }
    if (n == 0) s->raw_eof = 1;
    s->peek_len += (size_t)n;
  }
  return 0;
}

static int size_over(cli_src *s);

/* Over the limit: the message says which and how to raise it. */
static void src_fail_limit(cli_src *s, const char *what) {
  char msg[160];
  if (size_over(s)) return; /* a plain file: its size says it all */
  snprintf(msg, sizeof msg, "%s the limit of %llu bytes " RAISE, what,
           (unsigned long long)s->limit);
  src_fail(s, JJ_ERR_LIMIT, msg, NULL);
}

/* Raw bytes: the read-ahead first, then the file. */
static long raw_read(cli_src *s, char *buf, size_t cap) {
  size_t n = 0;
  if (cap > (1u << 30)) cap = 1u << 30;
  /* A plain input is the document: one byte past the limit is enough to
  ** know it is over. */
  if (s->comp == JJ_PLAIN && s->limit) {
    if (s->raw > s->limit) {
      src_fail_limit(s, "larger than");
      return -1;
    }
    if (s->limit - s->raw < cap) cap = (size_t)(s->limit - s->raw) + 1;
  }
  if (s->peek_pos < s->peek_len) {
    n = s->peek_len - s->peek_pos;
    if (n > cap) n = cap;
    memcpy(buf, s->peek + s->peek_pos, n);
    s->peek_pos += n;
  } else if (!s->raw_eof) {
    ssize_t r;
    do r = read(s->fd, buf, cap);
    while (r < 0 && errno == EINTR);
    if (r < 0) {
      src_fail(s, JJ_ERR_IO, "cannot read", strerror(errno));
      return -1;
    }
    if (r == 0) s->raw_eof = 1;
    n = (size_t)r;
  }
  s->raw += n;
  if (s->prog) cli_progress_update(s->prog, s->raw);
  if (s->comp == JJ_PLAIN && s->limit && s->raw > s->limit) {
    src_fail_limit(s, "larger than");
    return -1;
  }
  return (long)n;
}

/* The inflater's sink: decompressed bytes wait in pend. */
static int pend_sink(void *ctx, const char *p, size_t len) {
  cli_src *s = ctx;
  if (s->pend_pos == s->pend_len) s->pend_pos = s->pend_len = 0;
  size_t have = s->pend_len - s->pend_pos;
  if (s->limit && len > s->limit - s->zout) {
    src_fail_limit(s, "decompressed size exceeds");
    return 1;
  }
  s->zout += len;
  if (have + len > PEND_MAX) {
    src_fail(s, JJ_ERR_LIMIT,
             "refusing to decompress more than 256 MiB from 16 KiB of input "
             "(a decompression bomb?)",
             NULL);
    return 1;
  }
  if (s->pend_len + len > s->pend_cap) {
    if (s->pend_pos) { /* slide what is left to the front first */
      memmove(s->pend, s->pend + s->pend_pos, have);
      s->pend_len = have;
      s->pend_pos = 0;
    }
    size_t cap = s->pend_cap ? s->pend_cap : 65536;
    while (cap < s->pend_len + len) cap *= 2;
    if (cap != s->pend_cap) {
      char *q = realloc(s->pend, cap);
      if (!q) {
        src_fail(s, JJ_ERR_NOMEM, "out of memory", NULL);
        return 1;
      }
      s->pend = q;
      s->pend_cap = cap;
    }
  }
  memcpy(s->pend + s->pend_len, p, len);
  s->pend_len += len;
  return 0;
}

/* Report an inflater error under the input's name. */
static void src_fail_z(cli_src *s, const jj_error *e) {
  if (s->failed) return; /* pend_sink's own error comes first */
  src_fail(s, e->code, e->message, NULL);
}

/* Inflate one more step of raw input into pend (or finish the stream). */
static int inflate_step(cli_src *s) {
  char chunk[RAW_STEP];
  jj_error e;
  long n = raw_read(s, chunk, sizeof chunk);
  if (n < 0) return -1;
  if (n == 0) {
    if (jj_inflate_finish(s->z, &e) != JJ_OK) {
      src_fail_z(s, &e);
      return -1;
    }
    s->z_done = 1;
    return 0;
  }
  if (jj_inflate_write(s->z, chunk, (size_t)n, &e) != JJ_OK) {
    src_fail_z(s, &e);
    return -1;
  }
  return 0;
}

static int new_inflater(cli_src *s) {
  jj_error e;
  jj_inflate_free(s->z);
  s->z = jj_inflate_new(s->comp, 0, pend_sink, s, &e);
  s->pend_len = s->pend_pos = 0;
  s->z_done = 0;
  s->zout = 0;
  if (!s->z) {
    src_fail_z(s, &e);
    return -1;
  }
  return 0;
}

long cli_src_read(cli_src *s, char *buf, size_t cap) {
  if (s->failed) return -1;
  if (s->comp == JJ_PLAIN) return raw_read(s, buf, cap);
  while (s->pend_pos == s->pend_len) {
    if (s->z_done) return 0;
    if (inflate_step(s)) return -1;
  }
  size_t n = s->pend_len - s->pend_pos;
  if (n > cap) n = cap;
  if (n > (1u << 30)) n = 1u << 30;
  memcpy(buf, s->pend + s->pend_pos, n);
  s->pend_pos += n;
  return (long)n;
}

/* A plain regular file larger than the limit: 1 with s->err set. */
static int size_over(cli_src *s) {
  if (!s->limit || !s->seekable || s->comp != JJ_PLAIN || s->size <= s->limit)
    return 0;
  s->failed = 1;
  memset(&s->err, 0, sizeof s->err);
  s->err.code = JJ_ERR_LIMIT;
  s->err.offset = JJ_NO_OFFSET;
  s->err.column = -1;
  snprintf(s->err.message, sizeof s->err.message,
           "%.200s is %llu bytes, over the limit of %llu bytes " RAISE,
           s->label, (unsigned long long)s->size,
           (unsigned long long)s->limit);
  return 1;
}

int cli_src_check_size(cli_src *s) {
  return s->failed || size_over(s) ? -1 : 0;
}

int cli_src_rewind(cli_src *s) {
  if (!s->seekable || s->failed) return -1;
  /* The read-ahead holds the first bytes: serve them again, then go on
  ** reading after them. */
  if (lseek(s->fd, (off_t)s->peek_len, SEEK_SET) < 0) {
    src_fail(s, JJ_ERR_IO, "cannot rewind", strerror(errno));
    return -1;
  }
  s->peek_pos = 0;
  s->raw = 0;
  s->raw_eof = 0;
  s->pass++;
  if (s->comp != JJ_PLAIN && new_inflater(s)) return -1;
  return 0;
}

int cli_src_peek(cli_src *s, size_t want, const char **p, size_t *len) {
  if (s->failed) return -1;
  if (s->comp == JJ_PLAIN) {
    if (fill_peek(s, want)) return -1;
    *p = s->peek;
    *len = s->peek_len;
    return 0;
  }
  while (s->pend_len < want && !s->z_done)
    if (inflate_step(s)) return -1;
  *p = s->pend;
  *len = s->pend_len;
  return 0;
}

/* Discards what a trial inflater produces. */
static int null_sink(void *ctx, const char *p, size_t len) {
  (void)ctx, (void)p, (void)len;
  return 0;
}

/* 1 if the bytes read ahead are a valid start of a brotli stream. */
static int is_brotli_start(const cli_src *s) {
  jj_inflater *z =
      jj_inflate_new(JJ_BROTLI, (uint64_t)1 << 24, null_sink, NULL, NULL);
  jj_error e;
  e.code = JJ_ERR_USAGE;
  int ok = z && (jj_inflate_write(z, s->peek, s->peek_len, &e) == JJ_OK ||
                 e.code == JJ_ERR_LIMIT);
  /* All of the input: it must also end as a brotli stream does. */
  if (ok && e.code != JJ_ERR_LIMIT && s->raw_eof)
    ok = jj_inflate_finish(z, NULL) == JJ_OK;
  jj_inflate_free(z);
  return ok;
}

int cli_src_open(cli *app, cli_src *s, const char *path, int comp,
                 int sniff_brotli) {
  struct stat st;
  memset(s, 0, sizeof *s);
  s->app = app;
  s->pass = 1;
  s->limit = app->max_size;
  if (!strcmp(path, "-")) {
    s->label = "stdin";
    s->fd = 0;
  } else {
    s->label = path;
    do s->fd = open(path, O_RDONLY | O_NOCTTY);
    while (s->fd < 0 && errno == EINTR);
    if (s->fd < 0) {
      cli_err(app, "cannot open \"%s\": %s", path, strerror(errno));
      return CLI_IO;
    }
    s->own_fd = 1;
  }
  if (fstat(s->fd, &st) == 0 && S_ISDIR(st.st_mode)) {
    cli_err(app, "\"%s\" is a directory", s->label);
    return CLI_IO;
  }
  /* A regular file (also as redirected stdin, when it is at its start)
  ** can be rewound. */
  if (S_ISREG(st.st_mode) && lseek(s->fd, 0, SEEK_CUR) == 0) {
    s->seekable = 1;
    s->size = (uint64_t)st.st_size;
  }
  if (comp >= 0) {
    s->comp = (jj_compression)comp;
  } else {
    s->comp = strcmp(path, "-") ? jj_compression_for_path(path) : JJ_PLAIN;
    if (s->comp == JJ_PLAIN) {
      if (fill_peek(s, PEEK_MIN)) goto fail;
      size_t k = 0;
      while (k < s->peek_len && (s->peek[k] == ' ' || s->peek[k] == '\n' ||
                                 s->peek[k] == '\r' || s->peek[k] == '\t'))
        k++;
      if (jj_detect_compression(s->peek, s->peek_len) == JJ_GZIP)
        s->comp = JJ_GZIP;
      else if (sniff_brotli && k < s->peek_len && s->peek[k] != '{' &&
               s->peek[k] != '[' && is_brotli_start(s))
        s->comp = JJ_BROTLI;
    }
  }
  if (s->comp != JJ_PLAIN && new_inflater(s)) goto fail;
  return 0;
fail:
  cli_fail(app, &s->err, NULL);
  return cli_status(s->err.code);
}

void cli_src_close(cli_src *s) {
  if (s->own_fd) close(s->fd);
  jj_inflate_free(s->z);
  free(s->pend);
  free(s->peek);
  memset(s, 0, sizeof *s);
}

int cli_looks_like_doc(const char *p, size_t len) {
  static const char key[] = "\"jalapenojson\"";
  size_t k = 0, n = sizeof key - 1;
  while (k < len &&
         (p[k] == ' ' || p[k] == '\n' || p[k] == '\r' || p[k] == '\t'))
    k++;
  if (k == len || p[k] != '{') return 0;
  k++;
  while (k < len &&
         (p[k] == ' ' || p[k] == '\n' || p[k] == '\r' || p[k] == '\t'))
    k++;
  size_t m = len - k < n ? len - k : n;
  return m > 0 && memcmp(p + k, key, m) == 0;
}

/* ---------------------------------------------------------------------- */
/* Documents in memory                                                     */
/* ---------------------------------------------------------------------- */

/* Read until d->len >= want or the end of the input, in reads of at most
** 4 MiB so that the progress line moves. */
static int doc_read(cli *app, cli_doc *d, size_t want) {
  while (d->len < want && !d->complete) {
    if (d->cap - d->len < 2) {
      size_t cap = d->cap ? d->cap * 2 : 65536;
      /* A plain regular file: its size at once (and 1 for the end). */
      if (d->src.comp == JJ_PLAIN && d->src.size &&
          d->src.size < SIZE_MAX / 2) {
        size_t fit = (size_t)d->src.size < want ? (size_t)d->src.size : want;
        if (fit + 2 > d->cap) cap = fit + 2;
      }
      /* Never room for more than the limit lets in (and 1 to tell). */
      uint64_t most = d->src.limit;
      if (most && most < SIZE_MAX / 2 && cap > most + 2 && most + 2 > d->cap)
        cap = (size_t)most + 2;
      char *p = cap > d->cap ? realloc(d->data, cap) : NULL;
      if (!p) {
        cli_err(app, "%s: out of memory", d->src.label);
        return CLI_IO;
      }
      d->data = p;
      d->cap = cap;
    }
    size_t room = d->cap - d->len - 1;
    if (want - d->len < room) room = want - d->len;
    if (room > ((size_t)4 << 20)) room = (size_t)4 << 20;
    long n = cli_src_read(&d->src, d->data + d->len, room);
    if (n < 0) {
      cli_fail(app, &d->src.err, NULL);
      return cli_status(d->src.err.code);
    }
    if (n == 0) d->complete = 1;
    d->len += (size_t)n;
  }
  d->data[d->len] = 0;
  return 0;
}

int cli_doc_cut_short(const cli_doc *d, const jj_error *err) {
  return !d->complete &&
         (err->offset == JJ_NO_OFFSET || err->offset + 64 > d->len ||
          strstr(err->message, "unterminated") != NULL);
}

/* Read to `want` bytes and parse, doubling while the prefix is too short.
** A prefix stops at the limit first (it may hold all that is needed);
** reading on past it, or reading whole (SIZE_MAX), fails there. */
static int doc_load(cli *app, cli_doc *d, size_t want) {
  uint64_t most = d->src.limit;
  for (;;) {
    jj_error err;
    if (most && want > most)
      want = want == SIZE_MAX || d->len >= most ? SIZE_MAX : (size_t)most;
    int rc = doc_read(app, d, want);
    if (rc) return rc;
    jj_doc_free(d->doc);
    d->doc = jj_parse(d->data, d->len, &err);
    if (d->doc) return 0;
    if (err.code == JJ_ERR_NOMEM || !cli_doc_cut_short(d, &err)) {
      cli_fail(app, &err, d->src.label);
      return cli_status(err.code);
    }
    want = want < SIZE_MAX / 2 ? want * 2 : SIZE_MAX;
  }
}

int cli_doc_load(cli *app, cli_doc *d, size_t prefix) {
  cli_progress_begin(&d->prog, app->err_tty && !app->quiet, d->src.label,
                     d->src.size);
  d->src.prog = &d->prog;
  /* Whole: the header first, then the size, then the rest. */
  int rc = doc_load(app, d, prefix ? prefix : HEADER_PREFIX);
  if (!rc && !prefix && !d->complete) {
    if (cli_src_check_size(&d->src))
      rc = (cli_fail(app, &d->src.err, NULL), cli_status(d->src.err.code));
    else
      rc = doc_load(app, d, SIZE_MAX);
  }
  cli_progress_end(&d->prog);
  return rc;
}

int cli_doc_open(cli *app, cli_doc *d, const char *path, size_t prefix) {
  memset(d, 0, sizeof *d);
  int rc = cli_src_open(app, &d->src, path, -1, 1);
  return rc ? rc : cli_doc_load(app, d, prefix);
}

int cli_doc_more(cli *app, cli_doc *d, size_t prefix) {
  size_t want = d->len * 2 > prefix ? d->len * 2 : prefix;
  int rc = doc_load(app, d, want);
  cli_progress_end(&d->prog);
  return rc;
}

void cli_doc_close(cli_doc *d) {
  jj_doc_free(d->doc);
  free(d->data);
  cli_src_close(&d->src);
  memset(d, 0, sizeof *d);
}
