/*
** cat.c — `jalapenojson cat FILE`: every row of a document to stdout as
** JSON, NDJSON, CSV, TSV or the document re-encoded (cli_write_doc, in
** output.c).
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
    "      --max-size N   read at most N bytes of FILE, decompressed (default\n"
    "                     1073741824, 1 GiB; 0: no limit)\n"
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

int cli_cat(cli *app, int argc, char **argv) {
  cli_args a = {argc, argv, 1, 0};
  const char *val, *path = NULL;
  cli_format fmt = CLI_FMT_NDJSON;
  jj_compression comp = JJ_PLAIN;
  jj_to_text_opts eo;
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
        eo.flags |= JJ_TO_TEXT_CRLF;
        break;
      case OPT_NOHEAD:
        eo.flags |= JJ_TO_TEXT_NO_HEADER;
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
