/*
** cat.c — `jalapenojson cat FILE`: every row of a document to stdout as
** JSON, NDJSON, CSV, TSV or the document re-encoded; and cli_write_doc,
** which `convert` and `head` share: a document out through jj_export, or
** copied value by value through a jj_writer.
*/
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char help[] =
    "usage: jalapenojson cat [OPTIONS] FILE\n"
    "\n"
    "Write every row of the document FILE ('-': stdin; .gz and .br are read\n"
    "as such) to stdout.  Every value is checked as it is written: a bad one\n"
    "stops the output with its place and exit status 1.  Rows become objects\n"
    "keyed by column name: floats shortest, dates and timestamps as text,\n"
    "bytes as base64, nested tables as arrays of objects.\n"
    "\n"
    "options:\n"
    "  -t, --to FORMAT    ndjson (the default), jsonl, json, csv, tsv, or jj\n"
    "                     (the document re-encoded); with .gz or .br the\n"
    "                     output is compressed (not to a terminal)\n"
    "      --null TEXT    CSV/TSV: null as TEXT (default: an empty field)\n"
    "  -d, --delimiter C  CSV: the delimiter (default ','); 'tab'\n"
    "      --crlf         CSV/TSV: end records with CRLF\n"
    "      --no-header    CSV/TSV: no header record\n"
    "  -q, --quiet        no progress line on stderr\n"
    "  -h, --help         this text\n"
    "\n"
    "examples:\n"
    "  jalapenojson cat rows.jj | jq .price\n"
    "  jalapenojson cat rows.jj.gz --to csv > rows.csv\n"
    "\n"
    "exit status: 0 done, 1 the document is bad, 2 usage error, 3 I/O error,\n"
    "130 interrupted.\n";

enum { OPT_TO = 1, OPT_NULL, OPT_DELIM, OPT_CRLF, OPT_NOHEAD };

static const cli_opt opts[] = {
    {"to", 't', 1, OPT_TO},           {"null", 0, 1, OPT_NULL},
    {"delimiter", 'd', 1, OPT_DELIM}, {"crlf", 0, 0, OPT_CRLF},
    {"no-header", 0, 0, OPT_NOHEAD},  {NULL, 0, 0, 0},
};

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
                  const jj_export_opts *eo, cli_out *out, int64_t *rows,
                  const char *label) {
  jj_error err;
  jj_code code;
  if (fmt == CLI_FMT_JJ) {
    code = copy_doc(doc, out, rows, &err);
  } else {
    jj_export_opts o = *eo;
    o.interrupt = cli_interrupted;
    o.interrupt_ctx = out;
    code = jj_export(doc, cli_format_jj(fmt), &o, cli_out_sink, out, &err);
    if (!code && rows) *rows = count_rows(doc);
  }
  if (code == JJ_OK) return cli_out_finish(out);
  if (out->failed) return cli_out_finish(out); /* the output's own error */
  int rc = cli_fail(app, &err, label); /* before a pending signal ends us */
  cli_out_abort(out);
  return rc;
}

int cli_cat(cli *app, int argc, char **argv) {
  cli_args a = {argc, argv, 1, 0};
  const char *val, *path = NULL;
  cli_format fmt = CLI_FMT_NDJSON;
  jj_compression comp = JJ_PLAIN;
  jj_export_opts eo;
  int id;
  memset(&eo, 0, sizeof eo);
  while ((id = cli_next(app, &a, opts, &val)) != CLI_ARG_END) {
    switch (id) {
      case CLI_ARG_HELP:
        fputs(help, stdout);
        return CLI_OK;
      case CLI_ARG_ERROR:
        return CLI_USAGE;
      case CLI_ARG_POSITIONAL:
        if (path) return cli_usage(app, "unexpected argument '%s'", val);
        path = val;
        break;
      case OPT_TO:
        if (cli_format_parse(val, 0, &fmt, &comp))
          return cli_usage(app,
                           "unknown format '%s' for --to (ndjson, "
                           "jsonl, json, csv, tsv, jj)",
                           val);
        break;
      case OPT_NULL:
        eo.null_text = val;
        break;
      case OPT_DELIM:
        if (cli_parse_delimiter(val, &eo.delimiter))
          return cli_usage(app,
                           "--delimiter takes one ASCII character or "
                           "'tab', not '%s'",
                           val);
        break;
      case OPT_CRLF:
        eo.flags |= JJ_EXPORT_CRLF;
        break;
      case OPT_NOHEAD:
        eo.flags |= JJ_EXPORT_NO_HEADER;
        break;
    }
  }
  if (!path) return cli_usage(app, "missing FILE (a document, or - for stdin)");
  if (comp != JJ_PLAIN && app->out_tty)
    return cli_usage(app, "refusing to write compressed data to a terminal");
  cli_doc d;
  cli_out out;
  int rc = cli_doc_open(app, &d, path, 0);
  if (rc == 0 && (rc = cli_out_init(app, &out, NULL, comp)) == 0)
    rc = cli_write_doc(app, d.doc, fmt, &eo, &out, NULL, d.src.label);
  cli_doc_close(&d);
  return rc;
}
