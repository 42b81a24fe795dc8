/*
** cli.h — what the files of the command-line tool `jalapenojson` share.
**
**   main.c      dispatch, the option parser, messages and exit codes
**   io.c        formats by file name, --delimiter values; inputs (a file
**               or stdin '-', .gz and .br by name, gzip by its magic);
**               documents in memory
**   output.c    outputs (stdout '-', a file written atomically, or a
**               pipe or device written straight; .gz and .br by name);
**               signals while a file is written; a document written out
**               in a format (cli_write_doc)
**   progress.c  the progress line on stderr
**   table.c     aligned box tables and the display width of UTF-8; a
**               schema's columns as table rows
**   convert.c   `convert`
**   inspect.c   `schema`, `check`, `head`
**   cat.c       `cat`
**
** The tool uses only the library's public header.  Its state is one
** struct `cli` made by main() and passed down; there are no globals.
** Signals keep their default actions (SIGINT: exit status 130) except
** while an output file is being written: then every one that would end
** the process is blocked, polled through the library's interrupt
** callbacks (cli_interrupted), the temporary file is removed, and
** unblocking it ends the process as the signal would have.  SIGPIPE and
** SIGXFSZ are ignored, so that a closed pipe or `ulimit -f` is a write
** error like any other.
*/
#ifndef JJ_CLI_H
#define JJ_CLI_H

#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "jalapenojson.h"

/* Exit statuses (documented in `jalapenojson --help` and README.md). */
enum {
  CLI_OK = 0,           /* done */
  CLI_DATA = 1,         /* the data is bad: check found errors, an input
                       ** that cannot be converted or read */
  CLI_USAGE = 2,        /* a usage error: unknown option, missing argument */
  CLI_IO = 3,           /* a file cannot be opened, read or written; out of
                       ** memory */
  CLI_INTERRUPTED = 130 /* SIGINT (128 + 2) */
};

/* The most input bytes a command reads, decompressed (--max-size; the
** SQLite extension's jj_max_size default): 1 GiB. */
#define CLI_MAX_SIZE ((uint64_t)1 << 30)

/* The tool's state, made by main() and passed to every command. */
typedef struct cli {
  const char *cmd;   /* the command being run ("convert"), for messages */
  int quiet;         /* --quiet: no summary, no progress */
  uint64_t max_size; /* --max-size: input bytes, decompressed; 0: none */
  int out_tty;     /* stdout is a terminal */
  int err_tty;     /* stderr is a terminal */
} cli;

/* ---- main.c: options and messages ------------------------------------ */

/* One option of a command: "--name" or "-c"; arg is 1 when it takes a
** value ("--name V", "--name=V", "-cV", "-c V"). */
typedef struct cli_opt {
  const char *name;
  char short_name; /* 0: none */
  int arg;
  int id; /* > 0, returned by cli_next */
} cli_opt;

/* What cli_next walks: argv[i..argc). */
typedef struct cli_args {
  int argc;
  char **argv;
  int i;
  int only_positional; /* after "--" */
} cli_args;

/* cli_next's answers besides an option's id. */
#define CLI_ARG_END 0         /* no more arguments */
#define CLI_ARG_POSITIONAL -1 /* *val is a positional argument */
#define CLI_ARG_ERROR -2      /* a usage error, already printed */
#define CLI_ARG_HELP -3       /* -h or --help */

/* The next argument of a command whose options are `opts` (terminated by
** a zero entry).  -q/--quiet and --max-size N are handled here for every
** command (they set app->quiet, app->max_size); -h/--help is returned as
** CLI_ARG_HELP. */
int cli_next(cli *app, cli_args *a, const cli_opt *opts, const char **val);

/* Print "jalapenojson: " and the message to stderr. */
void cli_err(const cli *app, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* A usage error: "jalapenojson CMD: message" and "try 'jalapenojson CMD
** --help'" on stderr; returns CLI_USAGE. */
int cli_usage(const cli *app, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Report a library error (label: prefixed when not NULL and the message
** does not begin with it) and return its exit status. */
int cli_fail(const cli *app, const jj_error *err, const char *label);
/* The exit status of an error code. */
int cli_status(jj_code code);
/* Parse a non-negative decimal integer (all of s); 0 on success. */
int cli_parse_count(const char *s, uint64_t *out);

/* ---- progress.c ---------------------------------------------------- */

/* A progress line on stderr: "LABEL  12.3 MB / 50.0 MB  45%  31.0 MB/s",
** drawn only when `on` (stderr a terminal, not --quiet) and the work has
** taken more than a second, redrawn at most 8 times a second, erased by
** cli_progress_end. */
typedef struct cli_progress {
  int on;
  int drawn;         /* a line is on the screen */
  const char *label; /* borrowed */
  uint64_t total;    /* 0: unknown */
  uint64_t done;
  double start;       /* when the work began (seconds, monotonic) */
  double phase_start; /* when this phase began, for the rate */
  double last;        /* the last draw */
  const char *unit;   /* "" for bytes, else e.g. "rows" */
} cli_progress;

/* Start: on decides whether anything is ever drawn. */
void cli_progress_begin(cli_progress *p, int on, const char *label,
                        uint64_t total);
/* A new phase (a second pass): the label, total and rate start again. */
void cli_progress_phase(cli_progress *p, const char *label, uint64_t total);
/* Work done so far in this phase. */
void cli_progress_update(cli_progress *p, uint64_t done);
/* Erase the line if one was drawn. */
void cli_progress_end(cli_progress *p);
/* Seconds on the monotonic clock. */
double cli_now(void);

/* ---- io.c: inputs ---------------------------------------------------- */

/* The formats the tool reads and writes: the converter's, and the
** document format itself. */
typedef enum cli_format {
  CLI_FMT_UNKNOWN = 0,
  CLI_FMT_JSON,
  CLI_FMT_NDJSON,
  CLI_FMT_CSV,
  CLI_FMT_TSV,
  CLI_FMT_JJ
} cli_format;

/* A format and a compression spelled as a name ("csv", "jj.gz") or taken
** from a file name's ending ("x.csv.gz").  by_name: 1 for a file name (the
** extension decides), 0 for a --from/--to value (the whole word).
** Returns 0, or -1 when the name says nothing known (*fmt UNKNOWN; for a
** file name that is not an error, the content decides). */
int cli_format_parse(const char *name, int by_name, cli_format *fmt,
                     jj_compression *comp);
/* Parse a --delimiter value: one ASCII character, or "tab" / "\t". */
int cli_parse_delimiter(const char *s, char *out);
/* "json", "ndjson", "csv", "tsv", "jj"; "auto" for UNKNOWN. */
const char *cli_format_name(cli_format f);
/* The converter's format of a cli_format (JJ_FORMAT_AUTO for JJ and
** UNKNOWN). */
jj_format cli_format_jj(cli_format f);

/* An input: a file or stdin, decompressed (gzip by its name or magic,
** brotli by its name, or, with sniff_brotli, when it does not look like
** a document), read in chunks with progress, each pass at most
** app->max_size bytes (decompressed; JJ_ERR_LIMIT beyond, saying how to
** raise it).  Its read and rewind are a jj_input's. */
typedef struct cli_src {
  cli *app;
  const char *label; /* for messages: the path, or "stdin" */
  int fd;
  int own_fd;    /* close fd at the end */
  int seekable;  /* a regular file: rewinding is lseek */
  uint64_t size; /* a regular file's size (compressed), else 0 */
  uint64_t raw;  /* raw bytes read in this pass */
  jj_compression comp;
  jj_inflater *z;
  char *pend; /* decompressed bytes not yet handed out */
  size_t pend_len, pend_pos, pend_cap;
  int raw_eof; /* the raw input is at its end */
  int z_done;  /* the inflater finished */
  char *peek;  /* raw bytes read ahead (from offset 0), served
                        ** before the file descriptor */
  size_t peek_len, peek_pos;
  int failed; /* err holds what went wrong */
  jj_error err;
  uint64_t limit;     /* the most bytes one pass reads (decompressed);
                      ** 0: none (app->max_size) */
  uint64_t zout;      /* bytes decompressed in this pass */
  cli_progress *prog; /* may be NULL */
  int pass;           /* 1, then 2 after a rewind */
} cli_src;

/* Open `path` ("-": stdin).  comp: the compression to assume, or -1 to
** decide by name and magic.  Opening never reads more than a few KiB.
** Returns 0, or the exit status with the error printed. */
int cli_src_open(cli *app, cli_src *s, const char *path, int comp,
                 int sniff_brotli);
/* Up to cap decompressed bytes: the count, 0 at the end, -1 on an error
** (s->err). */
long cli_src_read(cli_src *s, char *buf, size_t cap);
/* -1 with s->err when s is a plain regular file larger than the limit:
** what would read it whole fails before reading it. */
int cli_src_check_size(cli_src *s);
/* Back to the start (only when seekable); 0 or -1. */
int cli_src_rewind(cli_src *s);
/* At least `want` decompressed bytes from the start, without consuming
** them (fewer at the end of the input): 0 with *p, *len set, or -1. */
int cli_src_peek(cli_src *s, size_t want, const char **p, size_t *len);
void cli_src_close(cli_src *s);
/* 1 if bytes look like a jalapenojson document: '{' then "jalapenojson"
** as the first key, after JSON whitespace (and ignoring a cut-short
** prefix that could still be one when it is all there is). */
int cli_looks_like_doc(const char *p, size_t len);

/* A document read into memory, all of it or a prefix (for a header or
** the first rows). */
typedef struct cli_doc {
  cli_src src;
  char *data; /* NUL-terminated */
  size_t len, cap;
  int complete; /* data is the whole input */
  jj_doc *doc;  /* parsed from data, or NULL */
  cli_progress prog;
} cli_doc;

/* Open `path` and read it whole (prefix 0) or its first `prefix` bytes,
** then parse the header, reading more (doubling) while a cut-short prefix
** is what stops the parse.  Read whole, the header is parsed from the
** first 64 KiB (doubled as needed) before the rest is read, so an input
** that is not a document fails at once, and a plain file over the size
** limit fails before its rest is read.  Returns 0, or the exit status with
** the error printed. */
int cli_doc_open(cli *app, cli_doc *d, const char *path, size_t prefix);
/* The same for a d whose d->src the caller opened (d zeroed before). */
int cli_doc_load(cli *app, cli_doc *d, size_t prefix);
/* Read more (twice as much, or all with prefix 0) and parse again: 0,
** or the exit status.  d->doc is a new document: cursors on the old one
** must be gone. */
int cli_doc_more(cli *app, cli_doc *d, size_t prefix);
/* 1 when err, from reading d's prefix, may be due to the prefix being cut
** short: reading more could change it. */
int cli_doc_cut_short(const cli_doc *d, const jj_error *err);
void cli_doc_close(cli_doc *d);

/* ---- io.c: outputs --------------------------------------------------- */

/* An output: stdout, a file written atomically (a temporary file renamed
** over it at the end, removed on failure), or a pipe, device or socket
** written straight; compressed or not.  The file is created at the first
** byte; the signals that would end the process are blocked from then
** until it is committed or removed. */
typedef struct cli_out {
  cli *app;
  const char *path;  /* the file written atomically; NULL: fd */
  int fd;            /* written straight when not path (1: stdout) */
  int own_fd;        /* close fd at the end */
  const char *label; /* for messages */
  jj_compression comp;
  int level; /* compression level, -1 default */
  int opened;
  int failed;        /* err holds what went wrong (unless atomic_failed) */
  int atomic_failed; /* writing the file failed: jj_atomic_commit says
                       ** why (and removes the temporary file) */
  jj_error err;
  jj_atomic *atomic;
  jj_deflater *z;
  uint64_t bytes; /* bytes that reached the file or stdout */
  sigset_t blocked; /* the signals blocked by us (output.c) */
  int is_blocked;   /* blocked is in effect */
} cli_out;

/* Prepare an output (path NULL or "-": stdout; an existing pipe, character
** device or socket, or a name of stdout itself: opened now and written
** straight).  A file's name is checked
** (.zst and the like refused) and a temporary file made and removed, so
** that an output that cannot be written fails before any work.  Returns 0
** or the exit status, printed. */
int cli_out_init(cli *app, cli_out *o, const char *path, jj_compression comp);
/* 1 when cli_out_init would write `path` straight (a pipe, a character
** device, a socket, a name of stdout itself), not through a temporary
** file. */
int cli_out_is_stream(const char *path);
/* A jj_sink: bytes through the compressor, if any, to the output. */
int cli_out_sink(void *out, const char *p, size_t len);
/* Finish: flush the compressor, rename the file into place.  0 or the
** exit status, printed. */
int cli_out_finish(cli_out *o);
/* Give up: the temporary file is removed, the old file stays. */
void cli_out_abort(cli_out *o);

/* Ignore SIGPIPE and SIGXFSZ (called once by main): writing to a closed
** pipe or past `ulimit -f` then fails with EPIPE or EFBIG, reported as a
** write error, and a temporary file is removed as after any error. */
void cli_signals_init(void);

/* The interrupt callback for the library, with a cli_out as its context:
** 1 when a signal is pending that is blocked because the output's file is
** open (see cli_out_sink); 0 for NULL. */
int cli_interrupted(void *out);

/* A growable byte buffer usable as a jj_sink. */
typedef struct cli_buf {
  char *p;
  size_t len, cap;
} cli_buf;
int cli_buf_sink(void *buf, const char *p, size_t len);
void cli_buf_free(cli_buf *b);

/* Write every row of `doc` to `out` as `fmt` (JJ: re-encoded canonically)
** and finish `out` (or abort it on an error).  *rows (may be NULL) gets
** the rows written.  Returns 0 or the exit status, printed; errors are
** prefixed with `label`. */
int cli_write_doc(cli *app, jj_doc *doc, cli_format fmt,
                  const jj_to_text_opts *eo, cli_out *out, int64_t *rows,
                  const char *label);

/* ---- table.c --------------------------------------------------------- */

/* Columns of display width: 2 for East Asian wide and fullwidth
** characters, 0 for combining marks, else 1; control characters and bytes
** that are not UTF-8 are counted as cli_cell_escape shows them. */
size_t cli_display_width(const char *p, size_t len);

/* A cell's text made printable: control characters as \n \t \r \xNN
** (\u0085-style for C1), bytes that are not UTF-8 as \xNN; cut to at most
** `max` display columns (0: no limit) with a trailing "…".  Appends to b;
** 0 or -1 (out of memory). */
int cli_cell_escape(cli_buf *b, const char *p, size_t len, size_t max);

/* A table of text cells, printed with box-drawing lines like sqlite3's
** `.mode box`. */
typedef struct cli_table {
  size_t ncol;
  char **cells; /* row-major, the header first; each NUL-terminated */
  size_t ncells, cap;
  unsigned char *right; /* per column: 1 to align right (numbers) */
} cli_table;

int cli_table_init(cli_table *t, size_t ncol);
/* Append a cell (copied, escaped and cut to `max` columns); 0 or -1. */
int cli_table_add(cli_table *t, const char *p, size_t len, size_t max);
/* Print with box lines (header centred, then one line per row). */
int cli_table_print(const cli_table *t, FILE *f);
/* Print as lines of tab-separated cells (header included). */
int cli_table_print_tsv(const cli_table *t, FILE *f);
/* Print aligned with two spaces between columns, each line indented,
** without the header. */
int cli_table_print_plain(const cli_table *t, FILE *f, const char *indent);
void cli_table_free(cli_table *t);
/* Add a schema's columns to t (4 columns: position, name, type, sql_type),
** nested tables' columns after their column as "4.1" and "items.sku";
** 0 or -1 (out of memory). */
int cli_schema_rows(cli_table *t, const jj_schema *s, const char *pos,
                    const char *name);

/* ---- the commands ---------------------------------------------------- */

int cli_convert(cli *app, int argc, char **argv);
int cli_schema(cli *app, int argc, char **argv);
int cli_check(cli *app, int argc, char **argv);
int cli_head(cli *app, int argc, char **argv);
int cli_cat(cli *app, int argc, char **argv);


#endif /* JJ_CLI_H */
