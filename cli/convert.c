/*
** convert.c — `jalapenojson convert IN [OUT]`.
**
**   JSON, NDJSON, CSV, TSV  -> jalapenojson   jj_convert, two passes over
**                                             IN, streamed to OUT
**   jalapenojson -> JSON, NDJSON, CSV, TSV    jj_to_text
**   jalapenojson -> jalapenojson              re-encoded canonically
**   JSON/CSV -> JSON/CSV                      through a document in memory
**                                             (the types inferred on the way)
**
** Formats come from the names (x.csv, x.ndjson.gz) or --from/--to; an input
** whose name says nothing, and stdin, is a document when it starts like one
** and otherwise left to the converter's detection.  The summary (rows,
** columns and their types, the converter's decisions) goes to stderr
** unless --quiet; so does the progress line, on a terminal only.
*/
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char help[] =
    "usage: jalapenojson convert [OPTIONS] IN [OUT]\n"
    "\n"
    "Convert IN to OUT: JSON (an array of objects), NDJSON (one object per\n"
    "line), CSV or TSV (a header row) to jalapenojson, jalapenojson to any of\n"
    "them, or jalapenojson to jalapenojson (re-encoded canonically).  Types\n"
    "are inferred from every value of the input.  IN '-' is stdin; OUT '-' or\n"
    "no OUT is stdout.  The formats come from the names (.json, .ndjson or\n"
    ".jsonl, .csv, .tsv, .jj, each maybe followed by .gz or .br) or from\n"
    "--from/--to; stdout gets jalapenojson unless --to says otherwise.\n"
    "OUT is written to a temporary file renamed over it at the end: a\n"
    "failed conversion leaves no partial file and keeps the file it would\n"
    "replace.  An OUT that is a pipe, a device or a socket (/dev/stdout,\n"
    "/dev/null) is written straight, as a document unless --to says\n"
    "otherwise.\n"
    "\n"
    "options:\n"
    "      --from FORMAT    IN's format: json, ndjson, jsonl, csv, tsv or jj,\n"
    "                       maybe with .gz or .br (e.g. csv.gz)\n"
    "      --to FORMAT      OUT's format, the same names\n"
    "      --schema SPEC    types for some columns instead of inferring them:\n"
    "                       \"id:i,joined:d,items:{qty:f}\" (letters as in\n"
    "                       SPEC.md: i f s d t l b x j)\n"
    "      --null TEXT      CSV: an unquoted field equal to TEXT is null (and\n"
    "                       null is written as TEXT); default: the empty\n"
    "                       field; repeated, each TEXT is null (the first\n"
    "                       is written): --null '' --null NA --null .\n"
    "      --null-for COLUMN=TEXT  CSV: an unquoted field equal to TEXT is\n"
    "                       null in COLUMN only, besides --null; repeated:\n"
    "                       --null-for rate=NA --null-for rate=.\n"
    "  -d, --delimiter C    CSV: the delimiter (default: detected among\n"
    "                       , tab ; | when reading, ',' when writing); 'tab'\n"
    "      --csv-booleans   CSV: fields true and false are booleans\n"
    "      --thousands C    CSV: numbers may group digits with C: \"1,234\"\n"
    "                       is 1234 in a column of numbers; 'space' for ' '\n"
    "      --no-header      CSV: no header record; every record is a row, the\n"
    "                       columns named column_1, column_2, ...\n"
    "      --empty-is-text  CSV: an unquoted empty field is the empty text,\n"
    "                       not null\n"
    "      --bad-to-null    a value that does not fit --schema becomes null\n"
    "                       (counted in the summary) instead of an error\n"
    "      --null-padding   CSV: a row with fewer fields than the header gets\n"
    "                       nulls for the missing last ones\n"
    "      --on-error WHAT  CSV: a row that does not fit: fail (default),\n"
    "                       skip (set it aside) or null (a bad value becomes\n"
    "                       null, a row with a wrong field count is set aside)\n"
    "      --rejects FILE   write the rows set aside to FILE as NDJSON:\n"
    "                       {\"row\",\"byte\",\"column\",\"code\",\"message\"}\n"
    "      --date-format PAT  dates in another spelling than YYYY-MM-DD, as a\n"
    "                       strftime pattern (%m/%d/%Y, %d %b %Y); repeated,\n"
    "                       each is tried; replaces the spellings detected;\n"
    "                       'iso': YYYY-MM-DD only (see docs/convert.md)\n"
    "      --timestamp-format PAT  the same for timestamps (%Y/%m/%d %H:%M;\n"
    "                       with %z: t, else l)\n"
    "      --level N        compression level for .gz (1-9) or .br (0-11)\n"
    "      --max-size N     read at most N bytes of IN, decompressed, in each\n"
    "                       pass (default 1073741824, 1 GiB; 0: no limit)\n"
    "  -q, --quiet          no summary and no progress line on stderr\n"
    "  -h, --help           this text\n"
    "\n"
    "The summary on stderr: rows, the columns with their types, and each\n"
    "decision the converter made (a mixed column, a renamed header, ...).\n"
    "\n"
    "examples:\n"
    "  jalapenojson convert people.csv people.jj\n"
    "  jalapenojson convert events.ndjson.gz events.jj.br --schema at:t\n"
    "  jalapenojson convert rows.jj - --to csv | head\n"
    "  curl -s URL | jalapenojson convert --from json - out.jj\n"
    "\n"
    "exit status: 0 done, 1 the input cannot be converted (the message says\n"
    "where), 2 usage error, 3 I/O error, 130 interrupted.\n";

enum {
  OPT_FROM = 1,
  OPT_TO,
  OPT_SCHEMA,
  OPT_NULL,
  OPT_DELIM,
  OPT_BOOLS,
  OPT_EMPTY,
  OPT_BAD,
  OPT_LEVEL,
  OPT_PAD,
  OPT_ON_ERROR,
  OPT_REJECTS,
  OPT_NULL_FOR,
  OPT_THOUSANDS,
  OPT_NO_HEADER,
  OPT_DATE_FMT,
  OPT_TS_FMT
};

static const cli_opt opts[] = {
    {"from", 0, 1, OPT_FROM},           {"to", 0, 1, OPT_TO},
    {"schema", 0, 1, OPT_SCHEMA},       {"null", 0, 1, OPT_NULL},
    {"delimiter", 'd', 1, OPT_DELIM},   {"csv-booleans", 0, 0, OPT_BOOLS},
    {"empty-is-text", 0, 0, OPT_EMPTY}, {"bad-to-null", 0, 0, OPT_BAD},
    {"level", 0, 1, OPT_LEVEL},         {"null-padding", 0, 0, OPT_PAD},
    {"on-error", 0, 1, OPT_ON_ERROR},   {"rejects", 0, 1, OPT_REJECTS},
    {"null-for", 0, 1, OPT_NULL_FOR},   {"thousands", 0, 1, OPT_THOUSANDS},
    {"no-header", 0, 0, OPT_NO_HEADER},
    {"date-format", 0, 1, OPT_DATE_FMT},
    {"timestamp-format", 0, 1, OPT_TS_FMT},
    {NULL, 0, 0, 0},
};

/* The converter's decisions, kept for the summary (the first NOTES_MAX). */
#define NOTES_MAX 100
typedef struct notes {
  char *v[NOTES_MAX];
  size_t n;
  size_t more; /* told but not kept */
} notes;

static void note(void *ctx, const char *msg) {
  notes *ns = ctx;
  size_t len = strlen(msg);
  char *copy = ns->n < NOTES_MAX ? malloc(len + 1) : NULL;
  if (!copy) {
    ns->more++;
    return;
  }
  memcpy(copy, msg, len + 1);
  ns->v[ns->n++] = copy;
}

static void notes_free(notes *ns) {
  for (size_t k = 0; k < ns->n; k++) free(ns->v[k]);
}

/* The jj_input callbacks over a cli_src, with the passes shown. */
typedef struct pass_ctx {
  cli_src *src;
  char label[300];
} pass_ctx;

static long in_read(void *ctx, char *buf, size_t cap) {
  return cli_src_read(((pass_ctx *)ctx)->src, buf, cap);
}

static int in_rewind(void *ctx) {
  pass_ctx *pc = ctx;
  if (cli_src_rewind(pc->src)) return -1;
  if (pc->src->prog) {
    snprintf(pc->label, sizeof pc->label, "%s: pass 2 of 2", pc->src->label);
    cli_progress_phase(pc->src->prog, pc->label, pc->src->size);
  }
  return 0;
}

/* What the command line asked for. */
typedef struct job {
  const char *in, *out;
  cli_format in_fmt, out_fmt;
  int in_comp;    /* -1: by name and magic */
  int from_given; /* --from said the input's format */
  jj_compression out_comp;
  jj_convert_opts co;
  jj_to_text_opts eo;
  int level;
  const char *rejects; /* --rejects FILE */
  const char *nulls[JJ_CONVERT_MAX_NULLS]; /* --null after the first */
  /* --null-for COLUMN=TEXT, split in place at the first '=' */
  jj_convert_null_for null_for[JJ_CONVERT_MAX_NULL_FOR];
  const char *dates[JJ_CONVERT_MAX_FORMATS];  /* --date-format */
  const char *stamps[JJ_CONVERT_MAX_FORMATS]; /* --timestamp-format */
} job;

/* The rows set aside, one JSON object per line to the --rejects file. */
typedef struct rejects {
  FILE *f;
  int failed;
} rejects;

static void json_str(FILE *f, const char *p, size_t len) {
  fputc('"', f);
  for (size_t i = 0; i < len; i++) {
    unsigned char ch = (unsigned char)p[i];
    if (ch == '"' || ch == '\\')
      fprintf(f, "\\%c", ch);
    else if (ch < 0x20)
      fprintf(f, "\\u%04x", ch);
    else
      fputc(ch, f);
  }
  fputc('"', f);
}

static void reject(void *ctx, const jj_error *e, const char *col,
                   size_t col_len) {
  rejects *r = ctx;
  fprintf(r->f, "{\"row\":%lld,\"byte\":", (long long)e->row);
  if (e->offset == JJ_NO_OFFSET)
    fputs("null", r->f);
  else
    fprintf(r->f, "%zu", e->offset);
  fputs(",\"column\":", r->f);
  if (col)
    json_str(r->f, col, col_len);
  else
    fputs("null", r->f);
  fprintf(r->f, ",\"code\":\"%s\",\"message\":", jj_code_name(e->code));
  json_str(r->f, e->message, strlen(e->message));
  if (fputs("}\n", r->f) == EOF) r->failed = 1;
}

static int parse(cli *app, int argc, char **argv, job *j) {
  cli_args a = {argc, argv, 1, 0};
  const char *val, *from = NULL, *to = NULL;
  int id;
  uint64_t n;
  memset(j, 0, sizeof *j);
  j->in_comp = -1;
  j->level = -1;
  while ((id = cli_next(app, &a, opts, &val)) != CLI_ARG_END) {
    switch (id) {
      case CLI_ARG_HELP:
        fputs(help, stdout);
        return -1;
      case CLI_ARG_ERROR:
        return CLI_USAGE;
      case CLI_ARG_POSITIONAL:
        if (!j->in)
          j->in = val;
        else if (!j->out)
          j->out = val;
        else
          return cli_usage(app, "unexpected argument '%s'", val);
        break;
      case OPT_FROM:
        from = val;
        break;
      case OPT_TO:
        to = val;
        break;
      case OPT_SCHEMA:
        j->co.schema = val;
        break;
      case OPT_NULL:
        if (!j->co.null_text) {
          j->co.null_text = j->eo.null_text = val;
        } else if (j->co.n_null_texts == JJ_CONVERT_MAX_NULLS) {
          return cli_usage(app, "--null may be given at most %d times",
                           JJ_CONVERT_MAX_NULLS + 1);
        } else {
          j->nulls[j->co.n_null_texts++] = val;
          j->co.null_texts = j->nulls;
        }
        break;
      case OPT_DELIM:
        if (cli_parse_delimiter(val, &j->co.delimiter))
          return cli_usage(app,
                           "--delimiter takes one ASCII character or "
                           "'tab', not '%s'",
                           val);
        j->eo.delimiter = j->co.delimiter;
        break;
      case OPT_BOOLS:
        j->co.flags |= JJ_CONVERT_CSV_BOOLEANS;
        break;
      case OPT_EMPTY:
        j->co.flags |= JJ_CONVERT_CSV_EMPTY_IS_TEXT;
        break;
      case OPT_BAD:
        j->co.flags |= JJ_CONVERT_BAD_TO_NULL;
        break;
      case OPT_PAD:
        j->co.flags |= JJ_CONVERT_CSV_NULL_PADDING;
        break;
      case OPT_ON_ERROR:
        if (!strcmp(val, "fail"))
          j->co.on_error = JJ_ON_ERROR_FAIL;
        else if (!strcmp(val, "skip"))
          j->co.on_error = JJ_ON_ERROR_SKIP;
        else if (!strcmp(val, "null"))
          j->co.on_error = JJ_ON_ERROR_NULL;
        else
          return cli_usage(app, "--on-error takes fail, skip or null, not '%s'",
                           val);
        break;
      case OPT_REJECTS:
        j->rejects = val;
        break;
      case OPT_NULL_FOR: {
        char *eq = strchr(val, '=');
        if (!eq || eq == val)
          return cli_usage(app,
                           "--null-for takes COLUMN=TEXT (the first '=' "
                           "ends the name), not '%s'",
                           val);
        if (j->co.n_null_for == JJ_CONVERT_MAX_NULL_FOR)
          return cli_usage(app, "--null-for may be given at most %d times",
                           JJ_CONVERT_MAX_NULL_FOR);
        *eq = '\0'; /* argv is ours to split */
        j->null_for[j->co.n_null_for].column = val;
        j->null_for[j->co.n_null_for++].text = eq + 1;
        j->co.null_for = j->null_for;
        break;
      }
      case OPT_THOUSANDS: {
        char sep = !strcmp(val, "space") ? ' ' : val[0];
        if ((strlen(val) != 1 && strcmp(val, "space")) || sep == '.' ||
            (sep >= '0' && sep <= '9') || strchr("+-eE\"", sep) ||
            (unsigned char)sep < 0x20 || (unsigned char)sep >= 0x7F)
          return cli_usage(app,
                           "--thousands takes one ASCII character that is "
                           "not a digit, a sign, '.', 'e' or a quote (',', "
                           "'_', \"'\", 'space'), not '%s'",
                           val);
        j->co.thousands = sep;
        break;
      }
      case OPT_NO_HEADER:
        j->co.flags |= JJ_CONVERT_CSV_NO_HEADER;
        break;
      case OPT_DATE_FMT:
      case OPT_TS_FMT: {
        int ts = id == OPT_TS_FMT;
        size_t *k = ts ? &j->co.n_timestamp_formats : &j->co.n_date_formats;
        if (*k == JJ_CONVERT_MAX_FORMATS)
          return cli_usage(app, "--%s-format may be given at most %d times",
                           ts ? "timestamp" : "date", JJ_CONVERT_MAX_FORMATS);
        (ts ? j->stamps : j->dates)[(*k)++] = val;
        j->co.date_formats = j->dates;
        j->co.timestamp_formats = j->stamps;
        break;
      }
      case OPT_LEVEL:
        if (cli_parse_count(val, &n) || n > 11)
          return cli_usage(app, "--level takes 0 to 11, not '%s'", val);
        j->level = (int)n;
        break;
    }
  }
  if (!j->in) return cli_usage(app, "missing IN (a file, or - for stdin)");
  if (j->rejects && j->co.on_error == JJ_ON_ERROR_FAIL)
    return cli_usage(app, "--rejects needs --on-error skip or null");
  if (j->out && !strcmp(j->out, "-")) j->out = NULL;
  jj_compression c;
  jj_error err;
  if (j->out && jj_compression_for_write(j->out, NULL, &err) != JJ_OK)
    return cli_usage(app, "%s", err.message); /* .zst and the like */
  if (from) {
    if (cli_format_parse(from, 0, &j->in_fmt, &c))
      return cli_usage(app,
                       "unknown format '%s' for --from (json, ndjson, "
                       "jsonl, csv, tsv, jj; maybe with .gz or .br)",
                       from);
    if (c != JJ_PLAIN) j->in_comp = (int)c;
    j->from_given = 1;
  } else if (strcmp(j->in, "-")) {
    cli_format_parse(j->in, 1, &j->in_fmt, &c); /* unknown: the content */
  }
  jj_compression by_name = JJ_PLAIN;
  cli_format name_fmt = CLI_FMT_UNKNOWN;
  if (j->out) cli_format_parse(j->out, 1, &name_fmt, &by_name);
  if (to) {
    if (cli_format_parse(to, 0, &j->out_fmt, &j->out_comp))
      return cli_usage(app,
                       "unknown format '%s' for --to (json, ndjson, "
                       "jsonl, csv, tsv, jj; maybe with .gz or .br)",
                       to);
    if (j->out_comp == JJ_PLAIN) j->out_comp = by_name;
  } else if (j->out && name_fmt == CLI_FMT_UNKNOWN && cli_out_is_stream(j->out)) {
    j->out_fmt = CLI_FMT_JJ; /* /dev/stdout, a pipe: as stdout gets */
  } else if (j->out) {
    if (name_fmt == CLI_FMT_UNKNOWN)
      return cli_usage(app,
                       "cannot tell the format of '%s' from its name "
                       "(use --to)",
                       j->out);
    j->out_fmt = name_fmt;
    j->out_comp = by_name;
  } else {
    j->out_fmt = CLI_FMT_JJ;
  }
  if (!j->out && j->out_comp != JJ_PLAIN && app->out_tty)
    return cli_usage(app, "refusing to write compressed data to a terminal");
  if (j->level >= 0 && j->out_comp == JJ_PLAIN)
    return cli_usage(app, "--level is for compressed output (.gz, .br)");
  if (j->level >= 0 && j->out_comp == JJ_GZIP && (j->level < 1 || j->level > 9))
    return cli_usage(app, "--level for gzip is 1 to 9");
  if (j->out_fmt == CLI_FMT_TSV) j->eo.delimiter = 0;
  return 0;
}

/* The summary on stderr: what was read, the columns, the decisions. */
static void summary(const cli *app, const job *j, const jj_schema *schema,
                    int64_t rows, const char *from_label, const notes *ns,
                    const jj_convert_result *res) {
  cli_table t;
  if (app->quiet) return;
  fprintf(stderr, "%s -> %s: %lld row%s, %zu column%s", from_label,
          j->out ? j->out : "stdout", (long long)rows, rows == 1 ? "" : "s",
          jj_schema_columns(schema), jj_schema_columns(schema) == 1 ? "" : "s");
  if (res) {
    fprintf(stderr, " (read as %s", jj_format_name(res->format));
    if (res->delimiter == '\t' && res->format == JJ_FORMAT_CSV)
      fprintf(stderr, ", delimiter tab");
    else if (res->delimiter && res->format == JJ_FORMAT_CSV)
      fprintf(stderr, ", delimiter '%c'", res->delimiter);
    if (res->nulled)
      fprintf(stderr, "; %llu value%s made null",
              (unsigned long long)res->nulled, res->nulled == 1 ? "" : "s");
    if (res->rejected)
      fprintf(stderr, "; %llu row%s set aside",
              (unsigned long long)res->rejected,
              res->rejected == 1 ? "" : "s");
    fputc(')', stderr);
  }
  fputc('\n', stderr);
  if (cli_table_init(&t, 4) == 0 && cli_table_add(&t, "", 0, 0) == 0 &&
      cli_table_add(&t, "", 0, 0) == 0 && cli_table_add(&t, "", 0, 0) == 0 &&
      cli_table_add(&t, "", 0, 0) == 0 &&
      cli_schema_rows(&t, schema, "", "") == 0)
    cli_table_print_plain(&t, stderr, "  ");
  cli_table_free(&t);
  if (ns && ns->n) {
    fputs("decisions:\n", stderr);
    for (size_t k = 0; k < ns->n; k++) fprintf(stderr, "  %s\n", ns->v[k]);
    if (ns->more) fprintf(stderr, "  ... and %zu more\n", ns->more);
  }
}

/* JSON or CSV in: jj_convert, straight to OUT or through memory. */
static int from_text(cli *app, job *j, cli_doc *d, cli_out *out) {
  pass_ctx pc;
  jj_input in;
  jj_convert_result res;
  jj_error err;
  notes ns;
  cli_buf mem = {0};
  rejects rj = {NULL, 0};
  int rc = 0;
  if (j->rejects) {
    if (!(rj.f = fopen(j->rejects, "w"))) {
      cli_err(app, "%s: cannot write: %s", j->rejects, strerror(errno));
      return CLI_IO;
    }
    j->co.reject = reject;
    j->co.reject_ctx = &rj;
  }
  memset(&ns, 0, sizeof ns);
  memset(&res, 0, sizeof res);
  memset(&in, 0, sizeof in);
  pc.src = &d->src;
  snprintf(pc.label, sizeof pc.label, "%s: %s", d->src.label,
           d->src.seekable ? "pass 1 of 2" : "reading");
  cli_progress_begin(&d->prog, app->err_tty && !app->quiet, pc.label,
                     d->src.size);
  d->src.prog = &d->prog;
  in.read = in_read;
  in.rewind = d->src.seekable ? in_rewind : NULL;
  in.ctx = &pc;
  in.name = d->src.label;
  j->co.from = cli_format_jj(j->in_fmt);
  j->co.note = note;
  j->co.note_ctx = &ns;
  j->co.interrupt = cli_interrupted;
  j->co.interrupt_ctx = out;
  int direct = j->out_fmt == CLI_FMT_JJ;
  jj_code code = jj_convert(&in, &j->co, direct ? cli_out_sink : cli_buf_sink,
                            direct ? (void *)out : (void *)&mem, &res, &err);
  cli_progress_end(&d->prog);
  if (code != JJ_OK) {
    if (d->src.failed)
      rc = cli_fail(app, &d->src.err, NULL);
    else if (out->failed)
      rc = cli_out_finish(out); /* says why the output failed */
    else if (code == JJ_ERR_NOMEM && !direct && !mem.p)
      rc = (cli_err(app, "out of memory"), CLI_IO);
    else
      rc = cli_fail(app, &err, d->src.label);
    cli_out_abort(out);
  } else if (direct) {
    rc = cli_out_finish(out);
  } else { /* the document in memory, exported */
    jj_doc *doc = jj_parse(mem.p, mem.len, &err);
    rc = doc ? cli_write_doc(app, doc, j->out_fmt, &j->eo, out, NULL,
                             d->src.label)
             : cli_fail(app, &err, d->src.label);
    if (!doc) cli_out_abort(out);
    jj_doc_free(doc);
  }
  if (rj.f && (fclose(rj.f) || rj.failed) && rc == 0) {
    cli_err(app, "%s: cannot write the rows set aside", j->rejects);
    rc = CLI_IO;
  }
  if (rc == 0) summary(app, j, res.schema, res.rows, d->src.label, &ns, &res);
  jj_schema_free(res.schema);
  notes_free(&ns);
  cli_buf_free(&mem);
  return rc;
}

int cli_convert(cli *app, int argc, char **argv) {
  job j;
  cli_doc d;
  cli_out out;
  int rc = parse(app, argc, argv, &j);
  if (rc) return rc < 0 ? CLI_OK : rc;
  /* The output first: one that cannot be written fails before any work. */
  if ((rc = cli_out_init(app, &out, j.out, j.out_comp)) != 0) return rc;
  out.level = j.level;
  memset(&d, 0, sizeof d);
  rc = cli_src_open(app, &d.src, j.in, j.in_comp, 0);
  if (rc) return rc;
  /* A document is read as one, whatever its name says, unless --from
  ** said otherwise; the rest is the converter's to detect. */
  const char *p;
  size_t len;
  if (j.in_fmt == CLI_FMT_UNKNOWN ||
      (j.in_fmt == CLI_FMT_JSON && !j.from_given)) {
    if (cli_src_peek(&d.src, 512, &p, &len)) {
      rc = cli_fail(app, &d.src.err, NULL);
      goto done;
    }
    if (cli_looks_like_doc(p, len)) j.in_fmt = CLI_FMT_JJ;
  }
  if (j.in_fmt == CLI_FMT_JJ &&
      (j.co.schema || j.co.flags || j.co.on_error || j.rejects ||
       j.co.n_null_for || j.co.thousands || j.co.n_date_formats ||
       j.co.n_timestamp_formats)) {
    rc = cli_usage(app,
                   "--schema, --bad-to-null, --csv-booleans, "
                   "--empty-is-text, --null-padding, --on-error, "
                   "--rejects, --null-for, --thousands, --no-header, "
                   "--date-format and --timestamp-format are for JSON and "
                   "CSV input; %s is a document",
                   d.src.label);
  } else if (j.in_fmt != CLI_FMT_JJ && cli_src_check_size(&d.src)) {
    rc = cli_fail(app, &d.src.err, NULL); /* before a pass reads it */
  } else if (j.in_fmt != CLI_FMT_JJ) {
    rc = from_text(app, &j, &d, &out);
  } else if ((rc = cli_doc_load(app, &d, 0)) == 0) {
    int64_t rows = 0;
    rc = cli_write_doc(app, d.doc, j.out_fmt, &j.eo, &out, &rows, d.src.label);
    if (rc == 0)
      summary(app, &j, jj_doc_schema(d.doc), rows, d.src.label, NULL, NULL);
  }
done:
  cli_doc_close(&d);
  return rc;
}
