/*
** convert.c — jj_convert and jj_convert_infer: JSON or CSV in, a
** jalapenojson document out, in two passes over the input.
**
**   detect   the format from the first byte that is not whitespace ('['
**            JSON, '{' NDJSON, else CSV) and, for CSV, the delimiter;
**   pass 1   read every row: find the columns, fold every value into its
**            column (convert_value.c), check values of forced columns;
**   resolve  decide the types, build the schema, tell the notes
**            (infer_schema.c, shared with the row builder);
**   pass 2   read the input again (rewound, or its spooled copy) and write
**            every row through a jj_writer to the caller's sink.
**
** Nothing reaches the sink before pass 1 has finished, so an input that
** cannot be converted fails before a byte is written.  Memory: the window,
** the columns and the writer's buffer; none of it grows with the rows.
*/
#include <stdlib.h>
#include <string.h>

#include "convert.h"

const char *jj_format_name(jj_format f) {
  switch (f) {
    case JJ_FORMAT_AUTO:
      return "auto";
    case JJ_FORMAT_JSON:
      return "json";
    case JJ_FORMAT_NDJSON:
      return "ndjson";
    case JJ_FORMAT_CSV:
      return "csv";
    case JJ_FORMAT_TSV:
      return "tsv";
  }
  return "unknown";
}

static void cv_init(cv *c, const jj_input *in, const jj_convert_opts *o,
                    jj_error *err) {
  memset(c, 0, sizeof *c);
  ic_init(&c->x, in ? in->name : NULL, err ? err : &c->local_err);
  c->in = in;
  if (o) c->o = *o;
  if (c->o.on_error == JJ_ON_ERROR_NULL) c->o.flags |= JJ_CONVERT_BAD_TO_NULL;
  c->x.note = c->o.note;
  c->x.note_ctx = c->o.note_ctx;
}

static void cv_free(cv *c) {
  cv_win_free(&c->w);
  cv_ahead_stop(c);
  jj_writer_free(c->wr); /* before the schema it borrows */
  ic_free(&c->x);
  jj_buf_free(&c->scratch);
  jj_buf_free(&c->scratch2);
  free(c->fields);
  free(c->set_aside);
  free(c->first_aside);
  free(c->sheet);
}

/* The format and delimiter, from the options or the first bytes. */
static jj_code detect(cv *c) {
  jj_format f = c->o.from;
  const char *p;
  size_t at = 0;
  if (c->w.len >= 3 && !memcmp(c->w.buf, "\xEF\xBB\xBF", 3)) {
    cv_note(c, "skipped a UTF-8 byte order mark at the start");
    at = 3;
  }
  if (f == JJ_FORMAT_AUTO || f == JJ_FORMAT_JSON || f == JJ_FORMAT_NDJSON) {
    for (;;) { /* the first byte that is not whitespace */
      p = c->w.buf + at;
      while (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t') p++;
      if (p < c->w.buf + c->w.len || c->w.eof) break;
      if (cv_more(c, 0) < 0) return c->x.err->code;
    }
    if (p == c->w.buf + c->w.len)
      return cv_fail_plain(c, JJ_ERR_SYNTAX, UINT64_MAX, "the input is empty");
    if (*p == '[' || *p == '{' || f != JJ_FORMAT_AUTO) {
      c->fmt = *p == '[' ? JJ_FORMAT_JSON : JJ_FORMAT_NDJSON;
      if (f == JJ_FORMAT_AUTO)
        cv_note(c, "read as %s (its first character is '%c')",
                c->fmt == JJ_FORMAT_JSON ? "a JSON array of objects"
                                         : "JSON objects one after another",
                *p);
      return JJ_OK;
    }
  }
  c->fmt = f == JJ_FORMAT_TSV ? JJ_FORMAT_TSV : JJ_FORMAT_CSV;
  c->delim = f == JJ_FORMAT_TSV ? '\t' : c->o.delimiter;
  if (!c->delim) {
    cv_csv_detect(c);
    cv_note(c,
            "read as CSV with the delimiter '%s' (detected among , tab ; "
            "| from the first records)",
            c->delim == '\t'  ? "\\t"
            : c->delim == ',' ? ","
            : c->delim == ';' ? ";"
                              : "|");
  }
  if (c->delim == '"' || c->delim == '\n' || c->delim == '\r' || !c->delim)
    return cv_fail_plain(c, JJ_ERR_USAGE, UINT64_MAX,
                         "the delimiter cannot be a quote or a line end");
  return JJ_OK;
}

static int pass(cv *c) {
  c->rows = 0;
  c->records = 0;
  c->next_aside = 0;
  c->x.top.in_row = 0;
  c->x.top.col = (size_t)-1;
  return c->fmt == JJ_FORMAT_CSV || c->fmt == JJ_FORMAT_TSV ? cv_csv_pass(c)
                                                            : cv_json_pass(c);
}

/* What pass 1 did to CSV rows that did not fit: padded, set aside. */
static void csv_notes(cv *c) {
  if (c->padded)
    cv_note(c,
            "%llu row%s had fewer fields than the header (first: row %lld, "
            "%zu of %zu): padded with nulls",
            (unsigned long long)c->padded, c->padded == 1 ? "" : "s",
            (long long)c->padded_row, c->padded_fields, c->header_cols);
  if (c->n_aside)
    cv_note(c, "%zu row%s set aside (first: %s)", c->n_aside,
            c->n_aside == 1 ? "" : "s",
            c->first_aside ? c->first_aside : "?");
}

/* The date and timestamp patterns compiled (datefmt.c), or a usage error
** naming the one that does not compile and its byte. */
static int formats(cv *c) {
  df_mistake m;
  char shown[JJ_SHOW_CAP];
  if (!df_set_build(&c->dates, c->o.date_formats, c->o.n_date_formats,
                    c->o.timestamp_formats, c->o.n_timestamp_formats, &m)) {
    c->x.dates = &c->dates;
    return 0;
  }
  const char *const *given =
      m.timestamp ? c->o.timestamp_formats : c->o.date_formats;
  size_t n = m.timestamp ? c->o.n_timestamp_formats : c->o.n_date_formats;
  const char *kind = m.timestamp ? "timestamp" : "date";
  if (m.index >= n || !given || !given[m.index])
    return cv_fail_plain(c, JJ_ERR_USAGE, UINT64_MAX, "the %s formats: %s", kind,
                         m.why);
  return cv_fail_plain(c, JJ_ERR_USAGE, UINT64_MAX,
                       "the %s format %s, at byte %zu: %s", kind,
                       jj_show(shown, sizeof shown, given[m.index],
                               strlen(given[m.index]), 1),
                       m.at, m.why);
}

/* Options check, pass 1 and the schema. */
static jj_code infer(cv *c) {
  if (!c->in || !c->in->read)
    return cv_fail_plain(c, JJ_ERR_USAGE, UINT64_MAX,
                         "jj_convert needs an input with a read function");
  if (c->o.schema && ic_schema_parse(&c->x, c->o.schema)) return c->x.err->code;
  if (formats(c)) return c->x.err->code;
  c->pass = 1;
  if (c->o.on_error > JJ_ON_ERROR_NULL)
    return cv_fail_plain(c, JJ_ERR_USAGE, UINT64_MAX,
                         "on_error is fail, skip or null");
  unsigned char sep = (unsigned char)c->o.thousands;
  if (sep && ((sep < 0x20 && sep != '\t') || sep >= 0x7F || sep == '.' ||
              sep == '+' || sep == '-' || sep == 'e' || sep == 'E' ||
              sep == '"' || (sep >= '0' && sep <= '9')))
    return cv_fail_plain(c, JJ_ERR_USAGE, UINT64_MAX,
                         "the thousands separator cannot be a digit, a "
                         "sign, the decimal point '.', 'e', a quote, a "
                         "control byte (but tab) or a byte beyond ASCII");
  if (cv_start_pass(c) || detect(c) || pass(c)) return c->x.err->code;
  csv_notes(c);
  c->x.rows = c->rows;
  jj_code code = ic_resolve(&c->x);
  if (code == JJ_OK) cv_csv_sheet_notes(c);
  return code;
}

static void result(cv *c, jj_convert_result *res, int64_t rows) {
  if (!res) return;
  res->rows = rows;
  res->schema = c->x.schema;
  c->x.schema = NULL;
  res->format = c->fmt;
  res->delimiter =
      c->fmt == JJ_FORMAT_CSV || c->fmt == JJ_FORMAT_TSV ? c->delim : 0;
  res->bytes = c->w.total;
  res->nulled = c->nulled;
  res->rejected = c->n_aside;
  res->padded = c->padded;
  res->decisions = c->x.decisions;
}

jj_code jj_convert(const jj_input *in, const jj_convert_opts *opts,
                   jj_sink sink, void *sink_ctx, jj_convert_result *res,
                   jj_error *err) {
  cv c;
  jj_code code;
  cv_init(&c, in, opts, err);
  if (res) memset(res, 0, sizeof *res);
  if (!sink) {
    cv_fail_plain(&c, JJ_ERR_USAGE, UINT64_MAX, "jj_convert needs a sink");
    code = c.x.err->code;
    goto done;
  }
  c.want_ahead = 1;
  if ((code = infer(&c))) goto done;
  int64_t rows = c.rows;
  int written = cv_ahead_finish(&c, sink, sink_ctx);
  if (written == CV_FAIL) {
    code = c.x.err->code;
    goto done;
  }
  if (!written && !(c.wr = jj_writer_new(c.x.schema, sink, sink_ctx, c.x.err))) {
    code = c.x.err->code;
    goto done;
  }
  c.pass = 2;
  if (!written && (cv_start_pass(&c) || pass(&c))) {
    code = c.x.err->code;
    goto done;
  }
  if (c.rows != rows) {
    cv_fail_plain(&c, JJ_ERR_ROW, UINT64_MAX,
                  "the second pass read %lld rows, the first %lld (did the "
                  "input change between the passes?)",
                  (long long)c.rows, (long long)rows);
    code = c.x.err->code;
    goto done;
  }
  if ((code = jj_writer_finish(c.wr))) {
    cv_fail_plain(&c, code, UINT64_MAX, "%s", jj_writer_error(c.wr)->message);
    goto done;
  }
  ic_nulled_notes(&c.x, &c.x.top);
  result(&c, res, rows);
done:
  cv_free(&c);
  return code;
}

jj_code jj_convert_infer(const jj_input *in, const jj_convert_opts *opts,
                         jj_convert_result *res, jj_error *err) {
  cv c;
  jj_code code;
  cv_init(&c, in, opts, err);
  if (!res) {
    cv_fail_plain(&c, JJ_ERR_USAGE, UINT64_MAX,
                  "jj_convert_infer needs a result");
    code = c.x.err->code;
  } else {
    memset(res, 0, sizeof *res);
    if (!(code = infer(&c))) result(&c, res, c.rows);
  }
  cv_free(&c);
  return code;
}
