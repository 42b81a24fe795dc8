/*
** inspect.c — the commands that look into a document without changing it:
**
**   schema FILE        the columns and types, from the header only
**   check FILE         every value of every row checked; every error
**                      listed with its place, a count at the end
**   head [-n N] FILE   the first rows, a box table on a terminal
**
** schema and head read a prefix of the file (doubled while it is too short
** for the header or the rows), so they cost the same on a small file and
** on a large or compressed one.
*/
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

#define SCHEMA_PREFIX ((size_t)64 << 10) /* first read for a header */
#define HEAD_PREFIX ((size_t)256 << 10)  /* first read for a few rows */

/* ---------------------------------------------------------------------- */
/* schema                                                                  */
/* ---------------------------------------------------------------------- */

static const char schema_help[] =
    "usage: jalapenojson schema [OPTIONS] FILE\n"
    "\n"
    "The columns of the document FILE ('-': stdin; .gz and .br are read as\n"
    "such) and their types, read from its header only: a large or compressed\n"
    "file costs no more than a small one.  On a terminal a table, otherwise\n"
    "tab-separated lines with a header: position, name, type (the letter of\n"
    "the format, jj for a nested table), sql_type (as the SQLite extension\n"
    "declares it).  A nested table's columns follow it as 4.1, 4.2 and\n"
    "items.sku, items.qty.\n"
    "\n"
    "options:\n"
    "      --json     the header's {\"columns\":[...],\"types\":[...]} as "
    "JSON\n"
    "      --max-size N  read at most N bytes of FILE, decompressed (default\n"
    "                 1073741824, 1 GiB; 0: no limit)\n"
    "  -q, --quiet    no progress line on stderr\n"
    "  -h, --help     this text\n"
    "\n"
    "exit status: 0 done, 1 the header is bad, 2 usage error, 3 I/O error.\n";

int cli_schema(cli *app, int argc, char **argv) {
  static const cli_opt opts[] = {{"json", 0, 0, 1}, {NULL, 0, 0, 0}};
  cli_args a = {argc, argv, 1, 0};
  const char *val, *path = NULL;
  int id, json = 0;
  while ((id = cli_next(app, &a, opts, &val)) != CLI_ARG_END) {
    if (id == CLI_ARG_HELP) return fputs(schema_help, stdout), CLI_OK;
    if (id == CLI_ARG_ERROR) return CLI_USAGE;
    if (id == 1) json = 1;
    if (id == CLI_ARG_POSITIONAL && path)
      return cli_usage(app, "unexpected argument '%s'", val);
    if (id == CLI_ARG_POSITIONAL) path = val;
  }
  if (!path) return cli_usage(app, "missing FILE (a document, or - for stdin)");
  cli_doc d;
  int rc = cli_doc_open(app, &d, path, SCHEMA_PREFIX);
  if (rc == 0) {
    const jj_schema *s = jj_doc_schema(d.doc);
    cli_table t;
    if (json) {
      size_t len;
      char *text = jj_schema_to_json(s, &len);
      if (text) fwrite(text, 1, len, stdout), fputc('\n', stdout);
      jj_free(text);
      if (!text) rc = (cli_err(app, "out of memory"), CLI_IO);
    } else if (cli_table_init(&t, 4) == 0 &&
               cli_table_add(&t, "position", 8, 0) == 0 &&
               cli_table_add(&t, "name", 4, 0) == 0 &&
               cli_table_add(&t, "type", 4, 0) == 0 &&
               cli_table_add(&t, "sql_type", 8, 0) == 0 &&
               cli_schema_rows(&t, s, "", "") == 0) {
      if (app->out_tty)
        cli_table_print(&t, stdout);
      else
        cli_table_print_tsv(&t, stdout);
      cli_table_free(&t);
    } else {
      cli_table_free(&t);
      rc = (cli_err(app, "out of memory"), CLI_IO);
    }
  }
  cli_doc_close(&d);
  return rc;
}

/* ---------------------------------------------------------------------- */
/* check                                                                   */
/* ---------------------------------------------------------------------- */

static const char check_help[] =
    "usage: jalapenojson check [OPTIONS] FILE\n"
    "\n"
    "Check every value of every row of the document FILE ('-': stdin; .gz and\n"
    ".br are read as such), nested tables included, and list every error on\n"
    "stdout, each with its place:\n"
    "\n"
    "  rows.jj: row 3, column \"joined\", byte 311: \"2023-02-29\" is not a "
    "date\n"
    "  (2023 is not a leap year)\n"
    "\n"
    "A bad value does not stop the check; a row that cannot be read as one\n"
    "value per column does (the rest cannot be told apart), as does a\n"
    "broken header (reported on stderr).  The last line, on stderr, counts:\n"
    "\"rows.jj: 2 errors in 2 of 40 rows\" or \"rows.jj: ok, 40 rows, ...\".\n"
    "\n"
    "options:\n"
    "      --max-errors N   list at most N errors, count the rest (default\n"
    "                       100; 0: list all)\n"
    "      --max-size N     read at most N bytes of FILE, decompressed (default\n"
    "                       1073741824, 1 GiB; 0: no limit)\n"
    "  -q, --quiet          no count and no progress line on stderr\n"
    "  -h, --help           this text\n"
    "\n"
    "exit status: 0 every value is good, 1 errors were found, 2 usage error,\n"
    "3 I/O error, 130 interrupted.\n";

/* The state of a check. */
typedef struct chk {
  const char *label;
  uint64_t errors;  /* found */
  uint64_t max;     /* to print; 0: all */
  int64_t bad_rows; /* top-level rows with an error */
  int64_t rows;     /* top-level rows read */
  int row_bad;      /* the current top-level row has one */
} chk;

static void report(chk *k, const jj_error *err) {
  k->errors++;
  k->row_bad = 1;
  if (!k->max || k->errors <= k->max)
    printf("%s: %s\n", k->label, err->message);
}

/* Check every value of every row of doc; -1 when a top-level row cannot
** be read (the scan ends), else 0.  Nested tables are checked the same
** way, a broken nested table ending only its own scan. */
static int check_rows(chk *k, jj_doc *doc, int top, cli_progress *prog,
                      const char *base) {
  jj_error err;
  jj_cursor *c = jj_cursor_new(doc, &err);
  size_t ncol = jj_schema_columns(jj_doc_schema(doc));
  int r;
  if (!c) {
    report(k, &err);
    return -1;
  }
  while ((r = jj_cursor_next(c, &err)) == 1) {
    if (top) k->row_bad = 0, k->rows = jj_cursor_row(c);
    for (size_t col = 0; col < ncol; col++) {
      jj_value v;
      int got = jj_cursor_value(c, col, &v, &err);
      if (got < 0) {
        report(k, &err);
      } else if (got == 1 && v.type == JJ_TABLE) {
        check_rows(k, v.u.table, 0, NULL, base);
        jj_doc_free(v.u.table);
      }
    }
    if (top && k->row_bad) k->bad_rows++;
    if (prog && jj_cursor_row(c) % 1024 == 0) {
      const char *p;
      size_t len;
      for (size_t col = 0; col < ncol; col++)
        if (jj_cursor_raw(c, col, &p, &len, NULL) == 1) {
          cli_progress_update(prog, (uint64_t)(p - base));
          break;
        }
    }
  }
  if (r < 0) report(k, &err); /* counted as an error, not a bad row */
  jj_cursor_free(c);
  return r < 0 && top ? -1 : 0;
}

int cli_check(cli *app, int argc, char **argv) {
  static const cli_opt opts[] = {{"max-errors", 0, 1, 1}, {NULL, 0, 0, 0}};
  cli_args a = {argc, argv, 1, 0};
  const char *val, *path = NULL;
  int id;
  chk k;
  memset(&k, 0, sizeof k);
  k.max = 100;
  while ((id = cli_next(app, &a, opts, &val)) != CLI_ARG_END) {
    if (id == CLI_ARG_HELP) return fputs(check_help, stdout), CLI_OK;
    if (id == CLI_ARG_ERROR) return CLI_USAGE;
    if (id == 1 && cli_parse_count(val, &k.max))
      return cli_usage(app, "--max-errors takes a count, not '%s'", val);
    if (id == CLI_ARG_POSITIONAL && path)
      return cli_usage(app, "unexpected argument '%s'", val);
    if (id == CLI_ARG_POSITIONAL) path = val;
  }
  if (!path) return cli_usage(app, "missing FILE (a document, or - for stdin)");
  cli_doc d;
  int rc = cli_doc_open(app, &d, path, 0);
  if (rc) {
    cli_doc_close(&d);
    return rc;
  }
  k.label = d.src.label;
  char label[300];
  snprintf(label, sizeof label, "%s: checking", k.label);
  cli_progress_begin(&d.prog, app->err_tty && !app->quiet, label, d.len);
  int stopped = check_rows(&k, d.doc, 1, &d.prog, d.data);
  cli_progress_end(&d.prog);
  int64_t rows = k.rows;
  size_t ncol = jj_schema_columns(jj_doc_schema(d.doc));
  fflush(stdout);
  if (!app->quiet) {
    if (k.max && k.errors > k.max)
      fprintf(stderr, "%s: %llu more error%s not listed (--max-errors)\n",
              k.label, (unsigned long long)(k.errors - k.max),
              k.errors - k.max == 1 ? "" : "s");
    if (k.errors == 0)
      fprintf(stderr, "%s: ok, %lld row%s, %zu column%s, every value checked\n",
              k.label, (long long)rows, rows == 1 ? "" : "s", ncol,
              ncol == 1 ? "" : "s");
    else if (stopped)
      fprintf(stderr,
              "%s: %llu error%s in %lld of %lld row%s; the scan "
              "stopped after row %lld (what follows cannot be read)\n",
              k.label, (unsigned long long)k.errors, k.errors == 1 ? "" : "s",
              (long long)k.bad_rows, (long long)rows, rows == 1 ? "" : "s",
              (long long)rows);
    else
      fprintf(stderr, "%s: %llu error%s in %lld of %lld row%s\n", k.label,
              (unsigned long long)k.errors, k.errors == 1 ? "" : "s",
              (long long)k.bad_rows, (long long)rows, rows == 1 ? "" : "s");
  }
  cli_doc_close(&d);
  return k.errors ? CLI_DATA : CLI_OK;
}

/* ---------------------------------------------------------------------- */
/* head                                                                    */
/* ---------------------------------------------------------------------- */

static const char head_help[] =
    "usage: jalapenojson head [OPTIONS] FILE\n"
    "\n"
    "The first rows of the document FILE ('-': stdin; .gz and .br are read\n"
    "as such), reading only as much of the file as they need.  On a\n"
    "terminal a table with box lines (numbers right-aligned, null empty,\n"
    "bytes as base64, nested tables as compact JSON, control characters\n"
    "escaped, cells cut to --width columns); otherwise tab-separated values\n"
    "with a header, or the format --to names.\n"
    "\n"
    "options:\n"
    "  -n, --rows N       the number of rows (default 10)\n"
    "  -t, --to FORMAT    tsv, csv, json, ndjson, jsonl, or jj (a document of\n"
    "                     those rows); also on a terminal\n"
    "  -w, --width N      on a terminal, cut cells to N columns (default 40;\n"
    "                     0: no limit)\n"
    "      --max-size N   read at most N bytes of FILE, decompressed (default\n"
    "                     1073741824, 1 GiB; 0: no limit)\n"
    "  -q, --quiet        no progress line on stderr\n"
    "  -h, --help         this text\n"
    "\n"
    "exit status: 0 done, 1 a bad header or a bad value in those rows,\n"
    "2 usage error, 3 I/O error.\n";

/* The first n rows of d as a document of their own (in *out, to free
** with jj_free): their values checked and re-encoded.  0, 1 when the
** prefix read was too short (read more and try again), or -1 with *err. */
static int first_rows(cli_doc *d, int64_t n, char **out, size_t *len,
                      jj_error *err) {
  const jj_schema *s = jj_doc_schema(d->doc);
  size_t ncol = jj_schema_columns(s);
  jj_cursor *c = jj_cursor_new(d->doc, err);
  jj_writer *w = c ? jj_writer_new(s, NULL, NULL, err) : NULL;
  int rc = w ? 0 : -1;
  while (!rc && jj_cursor_row(c) < n) {
    int r = jj_cursor_next(c, err);
    if (r <= 0) {
      rc = r < 0 ? -1 : 0;
      break;
    }
    for (size_t k = 0; k < ncol && !rc; k++)
      if (jj_writer_copy(w, c, k) != JJ_OK) rc = -1, *err = *jj_writer_error(w);
    if (!rc && jj_writer_end_row(w) != JJ_OK)
      rc = -1, *err = *jj_writer_error(w);
  }
  if (!rc && jj_writer_finish(w) != JJ_OK) rc = -1, *err = *jj_writer_error(w);
  if (!rc) *out = jj_writer_take(w, len);
  if (!rc && !*out) rc = -1, err->code = JJ_ERR_NOMEM;
  if (rc && err->code != JJ_ERR_NOMEM && cli_doc_cut_short(d, err)) rc = 1;
  jj_writer_free(w);
  jj_cursor_free(c);
  return rc;
}

/* One value as a cell's text (into b). */
static int cell_text(jj_cursor *c, size_t col, cli_buf *b, jj_error *err) {
  jj_value v;
  const char *p;
  size_t len;
  char num[32];
  int r = jj_cursor_value(c, col, &v, err);
  if (r <= 0) return r;
  switch (v.type) {
    case JJ_INT:
      len = (size_t)snprintf(num, sizeof num, "%" PRId64, v.u.i);
      return cli_buf_sink(b, num, len) ? -1 : 1;
    case JJ_BOOL:
      return cli_buf_sink(b, v.u.b ? "true" : "false", v.u.b ? 4 : 5) ? -1 : 1;
    case JJ_TEXT:
    case JJ_DATE:
    case JJ_TIMESTAMP:
    case JJ_LOCAL_TIMESTAMP:
      return cli_buf_sink(b, v.u.text.p, v.u.text.len) ? -1 : 1;
    case JJ_JSON: /* its JSON text */
      return cli_buf_sink(b, v.u.json.p, v.u.json.len) ? -1 : 1;
    case JJ_FLOAT: /* as written (canonical: shortest); "NaN" unquoted */
    case JJ_BYTES: /* the base64 text */
      jj_cursor_raw(c, col, &p, &len, err);
      if (len >= 2 && p[0] == '"') p++, len -= 2;
      return cli_buf_sink(b, p, len) ? -1 : 1;
    case JJ_TABLE: { /* compact JSON: an array of objects */
      jj_cursor *n = jj_cursor_new(v.u.table, err);
      int rr, first = 1, rc = n ? 1 : -1;
      rc = rc > 0 && cli_buf_sink(b, "[", 1) ? -1 : rc;
      while (rc > 0 && (rr = jj_cursor_next(n, err)) != 0) {
        if (rr < 0 || (!first && cli_buf_sink(b, ",", 1)) ||
            jj_cursor_object(n, cli_buf_sink, b, err) != JJ_OK)
          rc = -1;
        first = 0;
      }
      if (rc > 0 && cli_buf_sink(b, "]", 1)) rc = -1;
      jj_cursor_free(n);
      jj_doc_free(v.u.table);
      return rc;
    }
  }
  return 1;
}

/* The rows of sub as a box table on stdout. */
static int print_box(cli *app, jj_doc *sub, size_t width, const char *label) {
  const jj_schema *s = jj_doc_schema(sub);
  size_t ncol = jj_schema_columns(s);
  jj_error err;
  cli_table t;
  cli_buf b = {0};
  jj_cursor *c = jj_cursor_new(sub, &err);
  int rc = c && cli_table_init(&t, ncol) == 0 ? 0 : -1;
  for (size_t k = 0; k < ncol && !rc; k++) {
    size_t len;
    const char *name = jj_schema_name(s, k, &len);
    t.right[k] =
        jj_schema_type(s, k) == JJ_INT || jj_schema_type(s, k) == JJ_FLOAT;
    rc = cli_table_add(&t, name, len, width);
  }
  while (!rc && jj_cursor_next(c, &err) == 1)
    for (size_t k = 0; k < ncol && !rc; k++) {
      b.len = 0;
      int r = cell_text(c, k, &b, &err);
      rc = r < 0 || cli_table_add(&t, b.p ? b.p : "", b.len, width) ? -1 : 0;
    }
  if (!rc) cli_table_print(&t, stdout);
  if (c) cli_table_free(&t);
  cli_buf_free(&b);
  jj_cursor_free(c);
  if (rc && c) return cli_fail(app, &err, label);
  if (rc) return (cli_err(app, "out of memory"), CLI_IO);
  return 0;
}

int cli_head(cli *app, int argc, char **argv) {
  static const cli_opt opts[] = {{"rows", 'n', 1, 1},
                                 {"to", 't', 1, 2},
                                 {"width", 'w', 1, 3},
                                 {NULL, 0, 0, 0}};
  cli_args a = {argc, argv, 1, 0};
  const char *val, *path = NULL;
  uint64_t n = 10, width = 40;
  cli_format fmt = CLI_FMT_UNKNOWN;
  jj_compression comp = JJ_PLAIN;
  int id;
  while ((id = cli_next(app, &a, opts, &val)) != CLI_ARG_END) {
    if (id == CLI_ARG_HELP) return fputs(head_help, stdout), CLI_OK;
    if (id == CLI_ARG_ERROR) return CLI_USAGE;
    if (id == 1 && (cli_parse_count(val, &n) || n > INT64_MAX))
      return cli_usage(app, "-n takes a count of rows, not '%s'", val);
    if (id == 2 && cli_format_parse(val, 0, &fmt, &comp))
      return cli_usage(app,
                       "unknown format '%s' for --to (tsv, csv, json, "
                       "ndjson, jsonl, jj)",
                       val);
    if (id == 3 && (cli_parse_count(val, &width) || width > 100000))
      return cli_usage(app, "--width takes a count of columns, not '%s'", val);
    if (id == CLI_ARG_POSITIONAL && path)
      return cli_usage(app, "unexpected argument '%s'", val);
    if (id == CLI_ARG_POSITIONAL) path = val;
  }
  if (!path) return cli_usage(app, "missing FILE (a document, or - for stdin)");
  if (comp != JJ_PLAIN && app->out_tty)
    return cli_usage(app, "refusing to write compressed data to a terminal");
  cli_doc d;
  char *sub_bytes = NULL;
  size_t sub_len = 0;
  jj_error err;
  int rc = cli_doc_open(app, &d, path, HEAD_PREFIX), r;
  while (rc == 0 &&
         (r = first_rows(&d, (int64_t)n, &sub_bytes, &sub_len, &err)))
    rc = r > 0 ? cli_doc_more(app, &d, HEAD_PREFIX)
               : cli_fail(app, &err, d.src.label);
  jj_doc *sub = rc ? NULL : jj_parse(sub_bytes, sub_len, &err);
  if (!rc && !sub) rc = cli_fail(app, &err, d.src.label);
  if (sub && fmt == CLI_FMT_UNKNOWN && app->out_tty) {
    rc = print_box(app, sub, (size_t)width, d.src.label);
  } else if (sub) {
    cli_out out;
    jj_to_text_opts eo;
    memset(&eo, 0, sizeof eo);
    if (fmt == CLI_FMT_UNKNOWN) fmt = CLI_FMT_TSV;
    rc = cli_out_init(app, &out, NULL, comp);
    if (!rc) rc = cli_write_doc(app, sub, fmt, &eo, &out, NULL, d.src.label);
  }
  jj_doc_free(sub);
  jj_free(sub_bytes);
  cli_doc_close(&d);
  return rc;
}
