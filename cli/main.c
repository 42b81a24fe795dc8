/*
** main.c — `jalapenojson`, the command-line tool: the commands, the
** option parser they share, messages and exit statuses.
**
**   jalapenojson convert IN [OUT]     JSON/NDJSON/CSV/TSV <-> jalapenojson
**   jalapenojson schema FILE          columns and types
**   jalapenojson check FILE           every value checked, every error
**   jalapenojson head [-n N] FILE     the first rows
**   jalapenojson cat FILE             every row as JSON, NDJSON, CSV, TSV
**
** The name: `jj` is Jujutsu's command, so the tool is called what the
** library, the SQLite extension and the pkg-config file are called.
** Data goes to stdout, messages to stderr; the exit statuses are in cli.h
** and in the help text below.
*/
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

static const char main_help[] =
    "usage: jalapenojson COMMAND [OPTIONS] ARGUMENTS\n"
    "\n"
    "Convert JSON and CSV to jalapenojson, a typed table format that is also\n"
    "JSON, and back; look into documents.\n"
    "\n"
    "commands:\n"
    "  convert IN [OUT]   JSON, NDJSON, CSV, TSV to jalapenojson and back\n"
    "  schema FILE        the columns and their types\n"
    "  check FILE         check every value, list every error\n"
    "  head [-n N] FILE   the first rows (a table on a terminal)\n"
    "  cat FILE           every row as JSON, NDJSON, CSV or TSV\n"
    "  help [COMMAND]     this text, or a command's\n"
    "\n"
    "options of every command:\n"
    "  -q, --quiet        no summary and no progress line on stderr\n"
    "      --max-size N   read at most N bytes of input, decompressed\n"
    "                     (default 1073741824, 1 GiB; 0: no limit)\n"
    "  -h, --help         the command's help\n"
    "      --version      the version (alone, before any command)\n"
    "\n"
    "A file may be '-' for stdin (IN, FILE) or stdout (OUT).  Names ending in\n"
    ".gz or .br are decompressed and compressed by name; a gzip input is also\n"
    "found by its first bytes.\n"
    "\n"
    "exit status:\n"
    "  0    success\n"
    "  1    bad data: check found errors, an input that cannot be read or\n"
    "       converted (the message says where)\n"
    "  2    usage error: unknown command or option, missing or extra argument\n"
    "  3    I/O error: a file cannot be opened, read or written; out of\n"
    "       memory\n"
    "  130  interrupted (SIGINT); an output file being written is left as it\n"
    "       was (other signals: 128 + the signal's number)\n";

/* ---------------------------------------------------------------------- */
/* Messages                                                                */
/* ---------------------------------------------------------------------- */

void cli_err(const cli *app, const char *fmt, ...) {
  va_list ap;
  (void)app;
  fflush(stdout);
  fputs("jalapenojson: ", stderr);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
}

int cli_usage(const cli *app, const char *fmt, ...) {
  va_list ap;
  const char *cmd = app->cmd ? app->cmd : "";
  fflush(stdout);
  fprintf(stderr, "jalapenojson%s%s: ", *cmd ? " " : "", cmd);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fprintf(stderr, "\ntry 'jalapenojson%s%s --help'\n", *cmd ? " " : "", cmd);
  return CLI_USAGE;
}

int cli_status(jj_code code) {
  switch (code) {
    case JJ_OK:
      return CLI_OK;
    case JJ_ERR_USAGE:
      return CLI_USAGE;
    case JJ_ERR_IO:
    case JJ_ERR_NOMEM:
      return CLI_IO;
    case JJ_ERR_INTERRUPTED:
      return CLI_INTERRUPTED;
    default:
      return CLI_DATA;
  }
}

int cli_fail(const cli *app, const jj_error *err, const char *label) {
  size_t n = label ? strlen(label) : 0;
  if (label &&
      !(strncmp(err->message, label, n) == 0 && err->message[n] == ':'))
    cli_err(app, "%s: %s", label, err->message);
  else
    cli_err(app, "%s", err->message);
  return cli_status(err->code);
}

int cli_parse_count(const char *s, uint64_t *out) {
  uint64_t v = 0;
  if (!*s) return -1;
  for (; *s; s++) {
    if (*s < '0' || *s > '9' || v > (UINT64_MAX - 9) / 10) return -1;
    v = v * 10 + (uint64_t)(*s - '0');
  }
  *out = v;
  return 0;
}

/* ---------------------------------------------------------------------- */
/* Options                                                                 */
/* ---------------------------------------------------------------------- */

int cli_next(cli *app, cli_args *a, const cli_opt *opts, const char **val) {
  for (;;) {
    if (a->i >= a->argc) return CLI_ARG_END;
    const char *s = a->argv[a->i++];
    *val = s;
    if (a->only_positional || s[0] != '-' || !strcmp(s, "-"))
      return CLI_ARG_POSITIONAL;
    if (!strcmp(s, "--")) {
      a->only_positional = 1;
      continue;
    }
    if (!strcmp(s, "-h") || !strcmp(s, "--help")) return CLI_ARG_HELP;
    if (!strcmp(s, "-q") || !strcmp(s, "--quiet")) {
      app->quiet = 1;
      continue;
    }
    if (!strncmp(s, "--max-size", 10) && (!s[10] || s[10] == '=')) {
      const char *v = s[10] ? s + 11 : a->i < a->argc ? a->argv[a->i++] : NULL;
      if (!v)
        return cli_usage(app, "option '--max-size' needs a value"),
               CLI_ARG_ERROR;
      if (cli_parse_count(v, &app->max_size))
        return cli_usage(app,
                         "--max-size takes a count of bytes (0: no limit), "
                         "not '%s'",
                         v),
               CLI_ARG_ERROR;
      continue;
    }
    const cli_opt *o = NULL;
    const char *inline_val = NULL;
    if (s[1] == '-') { /* --name or --name=value */
      const char *eq = strchr(s + 2, '=');
      size_t n = eq ? (size_t)(eq - s - 2) : strlen(s + 2);
      for (const cli_opt *k = opts; k->name; k++)
        if (strlen(k->name) == n && !strncmp(k->name, s + 2, n)) o = k;
      if (o && eq) inline_val = eq + 1;
      if (o && eq && !o->arg)
        return cli_usage(app, "option '--%s' takes no value", o->name),
               CLI_ARG_ERROR;
    } else { /* -c, or -cVALUE */
      for (const cli_opt *k = opts; k->name; k++)
        if (k->short_name && k->short_name == s[1]) o = k;
      if (o && s[2]) {
        if (!o->arg)
          return cli_usage(app, "option '-%c' takes no value", s[1]),
                 CLI_ARG_ERROR;
        inline_val = s + 2;
      }
    }
    if (!o) return cli_usage(app, "unknown option '%s'", s), CLI_ARG_ERROR;
    if (o->arg && !inline_val) {
      if (a->i >= a->argc)
        return cli_usage(app, "option '%s' needs a value", s), CLI_ARG_ERROR;
      inline_val = a->argv[a->i++];
    }
    *val = inline_val;
    return o->id;
  }
}

/* ---------------------------------------------------------------------- */
/* Dispatch                                                                */
/* ---------------------------------------------------------------------- */

typedef struct command {
  const char *name;
  int (*run)(cli *app, int argc, char **argv);
} command;

static const command commands[] = {
    {"convert", cli_convert}, {"schema", cli_schema}, {"check", cli_check},
    {"head", cli_head},       {"cat", cli_cat},
};

static const command *find(const char *name) {
  for (size_t k = 0; k < sizeof commands / sizeof *commands; k++)
    if (!strcmp(commands[k].name, name)) return &commands[k];
  return NULL;
}

int main(int argc, char **argv) {
  cli app;
  memset(&app, 0, sizeof app);
  app.out_tty = isatty(1);
  app.err_tty = isatty(2);
  app.max_size = CLI_MAX_SIZE;
  cli_signals_init();
  int i = 1;
  /* Options before the command: --quiet, --help, --version. */
  for (; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
    if (!strcmp(argv[i], "-q") || !strcmp(argv[i], "--quiet")) {
      app.quiet = 1;
    } else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
      fputs(main_help, stdout);
      return CLI_OK;
    } else if (!strcmp(argv[i], "--version")) {
      printf("jalapenojson %s (format version %d)\n", jj_version(),
             JJ_FORMAT_VERSION);
      return CLI_OK;
    } else {
      return cli_usage(&app, "unknown option '%s'", argv[i]);
    }
  }
  if (i == argc) {
    fputs(main_help, stderr);
    return CLI_USAGE;
  }
  const char *name = argv[i];
  if (!strcmp(name, "help")) {
    if (i + 1 == argc) {
      fputs(main_help, stdout);
      return CLI_OK;
    }
    if (i + 2 < argc) return cli_usage(&app, "help takes one command");
    const command *c = find(argv[i + 1]);
    if (!c) return cli_usage(&app, "unknown command '%s'", argv[i + 1]);
    char help[] = "--help";
    char *args[] = {argv[i + 1], help, NULL};
    app.cmd = c->name;
    return c->run(&app, 2, args);
  }
  const command *c = find(name);
  if (!c) return cli_usage(&app, "unknown command '%s'", name);
  app.cmd = c->name;
  int rc = c->run(&app, argc - i, argv + i);
  if (fflush(stdout) != 0 && rc == CLI_OK) {
    cli_err(&app, "cannot write stdout");
    rc = CLI_IO;
  }
  return rc;
}
