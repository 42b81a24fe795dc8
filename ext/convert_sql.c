/*
** convert_sql.c — jj_from_json and jj_from_csv: JSON or CSV in, a
** jalapenojson document (TEXT) out, through the core's converter
** (jj_convert), so that converting is one SQL expression:
**
**   SELECT jj_write('people.jj.gz', jj_from_json(readfile('people.json')));
**   SELECT * FROM jj_open(jj_from_csv(readfile('orders.csv'), 'delimiter=;'));
**
**   jj_from_json(data [, schema [, option ...]])   options: those that
**       apply to JSON (schema, bad_to_null)
**   jj_from_csv(data [, option ...])               options: all of the
**       converter's (convert_opts.c: schema, delimiter, null, booleans,
**       empty_is_text, bad_to_null, null_padding, on_error, ...)
**
** data is TEXT or BLOB (NULL gives NULL); a BLOB starting with gzip's magic
** bytes is gzip, one whose first bytes are not UTF-8 is tried as brotli
** (JSON and CSV are UTF-8 text; bytes that are not brotli either are
** converted as they are, and the converter says where the UTF-8 breaks).
** Each option is an argument of its own, "key=value", the value everything
** after the first '=' (so 'schema=id:i,qty:f' and 'delimiter=,' need no
** quoting); a NULL option is skipped.  null= may be given again: each
** text means null (the first as the null option alone does).
**
** Limits: the input (decompressed) holds at most jj_max_size() bytes, the
** document must fit SQLITE_LIMIT_LENGTH (the converter stops as soon as it
** would not), and sqlite3_interrupt() stops both passes.  The converter
** reads the argument in place, twice; only the document (and a
** decompressed input) is allocated, from SQLite's memory, and handed to
** SQLite without a copy.
**
** Errors are the converter's, located, after the function's name:
**   jj_from_csv: row 3, column "qty", byte 41: "12abc" is not an integer
**   (the schema says qty:i)
** The functions are pure functions of their arguments (deterministic and
** innocuous): usable in views of untrusted databases.  So they write no
** file: the CSV rows that on_error sets aside are told to jj_notes(), one
** line each ("set aside: <the error>") before the converter's summary,
** and listed by jj_rejects (rejects.c) with a NULL source.
*/
#include <string.h>

#include "ext.h"

/* ---------------------------------------------------------------------- */
/* The input: TEXT, or a BLOB maybe compressed                             */
/* ---------------------------------------------------------------------- */

/* 1 when the first 4 KiB of p[0..n) are UTF-8 text (a sequence cut by the
** 4 KiB mark counts as good): JSON and CSV are, brotli data is not. */
static int starts_as_text(const unsigned char *p, size_t n) {
  size_t end = n < 4096 ? n : 4096, i = 0;
  while (i < end) {
    if (p[i] < 0x80) {
      i++;
      continue;
    }
    size_t k = jjx_utf8_len(p + i, n - i);
    if (!k) return 0;
    i += k;
  }
  return 1;
}

/* How to lift jj_max_size's limit, for messages. */
#define RAISE "raise it with SELECT jj_max_size(N)"

/* Report a core error after the function's name: "interrupted" with
** SQLITE_INTERRUPT, out of memory as SQLite's own, a limit with its hint. */
static void report(sqlite3_context *ctx, const char *fn, const jj_error *err,
                   int hint) {
  if (err->code == JJ_ERR_NOMEM) {
    sqlite3_result_error_nomem(ctx);
  } else if (err->code == JJ_ERR_INTERRUPTED) {
    sqlite3_result_error(ctx, "interrupted", -1);
    sqlite3_result_error_code(ctx, SQLITE_INTERRUPT);
  } else if (hint) {
    jjx_ctx_err(ctx, "%s: %s (" RAISE ")", fn, err->message);
  } else {
    jjx_ctx_err(ctx, "%s: %s", fn, err->message);
  }
}

/* Decompress a BLOB p[0..n) into *out within max_size bytes (0: none),
** polling *poll.  JJ_OK; else the error (err filled). */
static jj_code decompress(jj_compression kind, const void *p, size_t n,
                          uint64_t max_size, jjx_poll *poll, jjx_buf *out,
                          jj_error *err) {
  jj_inflater *z = jj_inflate_new(kind, max_size, jjx_buf_sink, out, err);
  if (!z) return err->code;
  if (poll->db) jj_inflate_set_interrupt(z, jjx_poll_check, poll);
  jj_code code = jj_inflate_write(z, p, n, err);
  if (code == JJ_OK) code = jj_inflate_finish(z, err);
  jj_inflate_free(z);
  if (out->oom) {
    err->code = JJ_ERR_NOMEM;
    return JJ_ERR_NOMEM;
  }
  return code;
}

/* ---------------------------------------------------------------------- */
/* The document                                                            */
/* ---------------------------------------------------------------------- */

/* The converter's sink: the document in SQLite's memory, refused as soon
** as it would pass SQLITE_LIMIT_LENGTH. */
typedef struct doc_out {
  jjx_buf b;
  size_t limit;
  int too_long;
} doc_out;

static int doc_sink(void *ctx, const char *p, size_t n) {
  doc_out *o = ctx;
  if (n > o->limit || o->b.len > o->limit - n) {
    o->too_long = 1;
    return 1;
  }
  return jjx_buf_append(&o->b, p, n);
}

/* Convert argv[0] with the options given and return the document. */
static void convert(sqlite3_context *ctx, const char *fn, sqlite3_value *data,
                    jj_format from, const jjx_copts *given) {
  jjx_settings *settings = sqlite3_user_data(ctx);
  sqlite3 *db = sqlite3_context_db_handle(ctx);
  uint64_t max_size = settings->max_size;
  jjx_buf plain;
  doc_out out;
  jjx_poll poll;
  jj_error err;
  jj_input in;
  jjx_notes notes;
  jjx_reject_run rejects;
  jj_convert_opts co = given->co, *o = &co;
  co.from = from;
  jjx_notes_begin(&notes, fn);
  jjx_rejects_begin(&rejects, &notes);
  o->note = jjx_note;
  o->note_ctx = &notes;
  o->reject = jjx_reject_cb;
  o->reject_ctx = &rejects;
  memset(&plain, 0, sizeof plain);
  memset(&out, 0, sizeof out);
  int st = sqlite3_value_type(data);
  const void *p = st == SQLITE_BLOB ? sqlite3_value_blob(data)
                                    : (const void *)sqlite3_value_text(data);
  size_t n = (size_t)sqlite3_value_bytes(data);
  if (!p && n) {
    sqlite3_result_error_nomem(ctx);
    return;
  }
  jjx_poll_begin(&poll, db);
  if (st == SQLITE_BLOB && n > 0) {
    jj_compression kind = jj_detect_compression(p, n);
    int guessed = kind == JJ_PLAIN && !starts_as_text(p, n);
    if (guessed) kind = JJ_BROTLI;
    if (kind != JJ_PLAIN) {
      jj_code code = decompress(kind, p, n, max_size, &poll, &plain, &err);
      if (code == JJ_OK) {
        p = plain.p ? plain.p : "";
        n = plain.len;
      } else if (!guessed || code == JJ_ERR_LIMIT || code == JJ_ERR_NOMEM ||
                 code == JJ_ERR_INTERRUPTED) {
        report(ctx, fn, &err, code == JJ_ERR_LIMIT);
        goto done;
      } /* else not brotli: the bytes as they are */
    }
  }
  if (max_size && n > max_size) {
    jjx_ctx_err(ctx, "%s: the input is %llu bytes, over the limit of %llu "
                     "bytes (" RAISE ")",
                fn, (unsigned long long)n, (unsigned long long)max_size);
    goto done;
  }
  jj_input_memory(&in, p, n, NULL);
  o->max_size = max_size;
  if (poll.db) {
    o->interrupt = jjx_poll_check;
    o->interrupt_ctx = &poll;
  }
  out.limit = (size_t)sqlite3_limit(db, SQLITE_LIMIT_LENGTH, -1);
  jj_convert_result res;
  memset(&res, 0, sizeof res);
  jj_code code = jj_convert(&in, o, doc_sink, &out, &res, &err);
  jj_schema_free(res.schema);
  if (out.too_long) {
    jjx_ctx_err(ctx, "%s: the document would be more than %lld bytes, "
                     "SQLite's length limit (SQLITE_LIMIT_LENGTH)",
                fn, (long long)out.limit);
  } else if (out.b.oom) {
    sqlite3_result_error_nomem(ctx);
  } else if (code != JJ_OK) {
    report(ctx, fn, &err, 0);
  } else {
    /* no copy: SQLite takes the buffer (sqlite3_realloc64 memory) */
    sqlite3_result_text64(ctx, out.b.p, out.b.len, sqlite3_free, SQLITE_UTF8);
    out.b.p = NULL;
    jjx_notes_publish(&notes, settings);
    jjx_rejects_publish(&rejects, settings, NULL, given->key);
  }
done:
  jjx_rejects_discard(&rejects);
  jjx_notes_discard(&notes);
  jjx_poll_end(&poll);
  jjx_buf_free(&out.b);
  jjx_buf_free(&plain);
}

/* The data argument: TEXT or BLOB; 1 to go on, 0 for a NULL result or an
** error reported. */
static int check_data(sqlite3_context *ctx, const char *fn, int argc,
                      sqlite3_value **argv, const char *usage,
                      const char *what) {
  if (argc < 1) {
    jjx_ctx_err(ctx, "%s: expected %s(%s)", fn, fn, usage);
    return 0;
  }
  int st = sqlite3_value_type(argv[0]);
  if (st == SQLITE_NULL) return 0;
  if (st != SQLITE_TEXT && st != SQLITE_BLOB) {
    jjx_ctx_err(ctx, "%s: the input must be TEXT or BLOB (%s text, maybe "
                     "gzip or brotli), not %s",
                fn, what, st == SQLITE_INTEGER ? "INTEGER" : "REAL");
    return 0;
  }
  return 1;
}

/* The option arguments argv[first..argc) into *o: each TEXT "key=value",
** the value everything after the first '=' (so no quoting), NULL skipped.
** json: only the options JSON takes.  1 to go on, 0 with the error
** reported. */
static int options(sqlite3_context *ctx, const char *fn, int json, int first,
                   int argc, sqlite3_value **argv, jjx_copts *o) {
  char *msg = NULL;
  for (int i = first; i < argc; i++) {
    int st = sqlite3_value_type(argv[i]);
    if (st == SQLITE_NULL) continue;
    if (st != SQLITE_TEXT) {
      jjx_ctx_err(ctx, "%s: argument %d must be an option as TEXT "
                       "'key=value', not %s",
                  fn, i + 1,
                  st == SQLITE_INTEGER ? "INTEGER"
                  : st == SQLITE_FLOAT ? "REAL"
                                       : "BLOB");
      return 0;
    }
    const char *z = (const char *)sqlite3_value_text(argv[i]);
    if (!z) {
      sqlite3_result_error_nomem(ctx);
      return 0;
    }
    const char *eq = strchr(z, '=');
    size_t klen = eq ? (size_t)(eq - z) : strlen(z);
    const char *key = jjx_trim(z, &klen);
    int rc = eq ? jjx_copts_set(o, fn, key, klen, eq + 1, strlen(eq + 1), &msg)
                : SQLITE_NOTFOUND;
    if (rc == SQLITE_NOTFOUND) {
      char *known = jjx_copts_known(json);
      if (!known)
        sqlite3_result_error_nomem(ctx);
      else if (!eq && jjx_copts_has_key(key, klen))
        jjx_ctx_err(ctx, "%s: option \"%s\" needs a value: '%s=...'", fn, z,
                    z);
      else
        jjx_ctx_err(ctx, "%s: unknown option \"%s\" (known: %s)", fn, z,
                    known);
      sqlite3_free(known);
      return 0;
    }
    if (rc == SQLITE_OK && json && jjx_copts_first_csv(o)) {
      char *known = jjx_copts_known(1);
      jjx_ctx_err(ctx, "%s: option \"%s\" applies to CSV and TSV only (JSON "
                       "takes: %s)",
                  fn, jjx_copts_first_csv(o), known ? known : "");
      sqlite3_free(known);
      return 0;
    }
    if (rc != SQLITE_OK) {
      if (msg)
        sqlite3_result_error(ctx, msg, -1);
      else
        sqlite3_result_error_nomem(ctx);
      sqlite3_free(msg);
      return 0;
    }
  }
  if (jjx_copts_finish(o) != SQLITE_OK) {
    sqlite3_result_error_nomem(ctx);
    return 0;
  }
  return 1;
}

void jjx_from_json_func(sqlite3_context *ctx, int argc,
                        sqlite3_value **argv) {
  static const char fn[] = "jj_from_json";
  jjx_copts o;
  memset(&o, 0, sizeof o);
  if (!check_data(ctx, fn, argc, argv, "data [, schema [, option ...]]",
                  "JSON"))
    return;
  if (argc >= 2) {
    int st = sqlite3_value_type(argv[1]);
    if (st == SQLITE_TEXT) {
      const char *schema = (const char *)sqlite3_value_text(argv[1]);
      char *msg = NULL;
      if (!schema ||
          jjx_copts_set(&o, fn, "schema", 6, schema, strlen(schema), &msg)) {
        sqlite3_result_error_nomem(ctx);
        sqlite3_free(msg);
        jjx_copts_free(&o);
        return;
      }
    } else if (st != SQLITE_NULL) {
      jjx_ctx_err(ctx, "%s: the schema must be TEXT ('id:i,joined:d') or "
                       "NULL",
                  fn);
      return;
    }
  }
  if (options(ctx, fn, 1, 2, argc, argv, &o))
    convert(ctx, fn, argv[0], JJ_FORMAT_JSON, &o);
  jjx_copts_free(&o);
}

void jjx_from_csv_func(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  static const char fn[] = "jj_from_csv";
  jjx_copts o;
  memset(&o, 0, sizeof o);
  if (!check_data(ctx, fn, argc, argv, "data [, 'key=value' ...]", "CSV"))
    return;
  if (options(ctx, fn, 0, 1, argc, argv, &o))
    convert(ctx, fn, argv[0], JJ_FORMAT_CSV, &o);
  jjx_copts_free(&o);
}
