/*
** test_build.c — the row builder (jj_builder_*): the converter's types and
** notes for the same values, byte for byte, on hand-written cases and on
** random tables given both ways (as NDJSON to jj_convert and as values to
** the builder); explicit types, located errors, values made null, rows
** spilled to a temporary file, and misuse.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen.h"
#include "test.h"
#include "test_convert.h"

/* ---------------------------------------------------------------------- */
/* A value tree, given to both ways                                        */
/* ---------------------------------------------------------------------- */

enum { N_NULL, N_BOOL, N_INT, N_DBL, N_BIG, N_TEXT, N_ROWS, N_JSON, N_BYTES, N_DATE };

typedef struct node node;
typedef struct row {
  int n;
  const char *keys[8];
  node *vals[8];
} row;
struct node {
  int kind;
  int64_t i;
  double d;
  char text[64];
  int nrows;
  row *rows;
};

static const char *const KEYS[] = {"id", "name", "at", "price", "tags", "\xC3\xA9t\xC3\xA9", "x y", "n"};

static void node_free(node *v);
static void row_free(row *r) {
  for (int i = 0; i < r->n; i++) node_free(r->vals[i]);
}
static void node_free(node *v) {
  if (!v) return;
  for (int i = 0; i < v->nrows; i++) row_free(&v->rows[i]);
  free(v->rows);
  free(v);
}

static node *gen_node(gen_rng *r, int flavor, int depth);

/* A row of up to 6 of the keys, mostly in one order, each column of one
** flavor (the key's index at this depth) with now and then another. */
static void gen_row(gen_rng *r, row *out, int depth) {
  int order[8] = {0, 1, 2, 3, 4, 5, 6, 7};
  out->n = 0;
  if (gen_chance(r, 20))
    for (int i = 7; i > 0; i--) {
      int j = (int)gen_below(r, (uint64_t)i + 1), t = order[i];
      order[i] = order[j];
      order[j] = t;
    }
  int width = depth ? 3 : 6;
  for (int i = 0; i < width && out->n < 8; i++) {
    int k = order[i];
    if (gen_chance(r, 15)) continue; /* sparse */
    int flavor = (k + depth * 3) % 9;
    if (gen_chance(r, 8)) flavor = (int)gen_below(r, 9); /* a mixed column */
    out->keys[out->n] = KEYS[k];
    out->vals[out->n++] = gen_node(r, flavor, depth);
  }
}

static node *gen_node(gen_rng *r, int flavor, int depth) {
  node *v = calloc(1, sizeof *v);
  if (gen_chance(r, 12)) return v; /* null */
  switch (flavor) {
    case 0:
      v->kind = N_INT;
      v->i = gen_chance(r, 5) ? gen_int(r) : (int64_t)gen_below(r, 2000) - 1000;
      break;
    case 1:
      v->kind = N_TEXT;
      snprintf(v->text, sizeof v->text, "%s%u", gen_chance(r, 50) ? "caf\xC3\xA9 " : "t",
               (unsigned)gen_below(r, 100));
      break;
    case 2: { /* a date, or a timestamp, as text */
      int y, m, d;
      gen_date_parts(r, &y, &m, &d);
      v->kind = N_TEXT;
      if (gen_chance(r, 70))
        snprintf(v->text, sizeof v->text, "%04d-%02d-%02d", y, m, d);
      else
        snprintf(v->text, sizeof v->text, "%04d-%02d-%02dT%02d:%02d:%02d%s", y, m, d,
                 (int)gen_below(r, 24), (int)gen_below(r, 60), (int)gen_below(r, 60),
                 gen_chance(r, 50) ? "Z" : "+05:30");
      break;
    }
    case 3: /* floats, with integers among them now and then */
      if (gen_chance(r, 20)) {
        v->kind = N_INT;
        v->i = (int64_t)gen_below(r, 100);
      } else {
        v->kind = N_DBL;
        do v->d = gen_double(r);
        while (!isfinite(v->d));
      }
      break;
    case 4:
      if (depth < 2 && gen_chance(r, 85)) {
        v->kind = N_ROWS;
        v->nrows = (int)gen_below(r, 4);
        v->rows = calloc((size_t)v->nrows + 1, sizeof *v->rows);
        for (int i = 0; i < v->nrows; i++) gen_row(r, &v->rows[i], depth + 1);
      } else {
        v->kind = N_JSON;
        snprintf(v->text, sizeof v->text, "{\"high\":%u,\"low\":[1,\"a\"]}",
                 (unsigned)gen_below(r, 90));
      }
      break;
    case 5:
      v->kind = N_BOOL;
      v->i = (int64_t)gen_below(r, 2);
      break;
    case 6:
      v->kind = N_BIG;
      snprintf(v->text, sizeof v->text, "%s%u00000000000000000000", gen_chance(r, 30) ? "-" : "",
               (unsigned)gen_below(r, 1000) + 1);
      break;
    case 7: /* text that only looks like a date */
      v->kind = N_TEXT;
      snprintf(v->text, sizeof v->text, "%s", gen_chance(r, 50) ? "2023-02-29" : "NaN");
      break;
    default:
      v->kind = N_INT;
      v->i = (int64_t)gen_below(r, 10);
  }
  return v;
}

/* The tree as JSON text, compact, as the builder spells its values. */
static void put_json(gen_buf *b, const node *v);
static void put_row_json(gen_buf *b, const row *r) {
  gen_buf_add(b, "{", 1);
  for (int i = 0; i < r->n; i++) {
    if (i) gen_buf_add(b, ",", 1);
    gen_buf_add(b, "\"", 1);
    gen_buf_add(b, r->keys[i], strlen(r->keys[i]));
    gen_buf_add(b, "\":", 2);
    put_json(b, r->vals[i]);
  }
  gen_buf_add(b, "}", 1);
}
static void put_json(gen_buf *b, const node *v) {
  char t[40];
  switch (v->kind) {
    case N_NULL:
      gen_buf_add(b, "null", 4);
      break;
    case N_BOOL:
      gen_buf_add(b, v->i ? "true" : "false", v->i ? 4 : 5);
      break;
    case N_INT:
      gen_buf_add(b, t, jj_int_format(v->i, t));
      break;
    case N_DBL:
      gen_buf_add(b, t, jj_double_format(v->d, t));
      break;
    case N_BIG:
    case N_JSON:
      gen_buf_add(b, v->text, strlen(v->text));
      break;
    case N_TEXT:
      gen_buf_add(b, "\"", 1);
      gen_buf_add(b, v->text, strlen(v->text));
      gen_buf_add(b, "\"", 1);
      break;
    case N_ROWS:
      gen_buf_add(b, "[", 1);
      for (int i = 0; i < v->nrows; i++) {
        if (i) gen_buf_add(b, ",", 1);
        put_row_json(b, &v->rows[i]);
      }
      gen_buf_add(b, "]", 1);
      break;
  }
}

/* The tree as builder calls. */
static jj_code give(jj_builder *bl, const node *v);
static jj_code give_row(jj_builder *bl, const row *r) {
  for (int i = 0; i < r->n; i++) {
    jj_code c = jj_builder_key(bl, r->keys[i], strlen(r->keys[i]));
    if (c || (c = give(bl, r->vals[i]))) return c;
  }
  return jj_builder_end_row(bl);
}
static jj_code give(jj_builder *bl, const node *v) {
  switch (v->kind) {
    case N_NULL:
      return jj_builder_null(bl);
    case N_BOOL:
      return jj_builder_bool(bl, (int)v->i);
    case N_INT:
      return jj_builder_int(bl, v->i);
    case N_DBL:
      return jj_builder_double(bl, v->d);
    case N_BIG:
      return jj_builder_number(bl, v->text, strlen(v->text));
    case N_JSON:
      return jj_builder_json(bl, v->text, strlen(v->text));
    case N_TEXT:
      return jj_builder_text(bl, v->text, strlen(v->text));
    case N_ROWS: {
      jj_code c = jj_builder_begin_table(bl);
      for (int i = 0; !c && i < v->nrows; i++) c = give_row(bl, &v->rows[i]);
      return c ? c : jj_builder_end_table(bl);
    }
  }
  return JJ_ERR_USAGE;
}

/* Build rows with options; the document, notes and error into o. */
static jj_code build_rows(const row *rows, int n, const char *schema, unsigned flags,
                          size_t memory, conv_out *o) {
  jj_build_opts bo;
  memset(&bo, 0, sizeof bo);
  memset(o, 0, sizeof *o);
  bo.schema = schema;
  bo.flags = flags;
  bo.name = "in";
  bo.memory = memory;
  bo.note = tbuf_note;
  bo.note_ctx = &o->notes;
  jj_builder *bl = jj_builder_new(&bo, &o->err);
  if (!bl) return o->code = o->err.code;
  jj_code c = JJ_OK;
  for (int i = 0; !c && i < n; i++) c = give_row(bl, &rows[i]);
  if (!c) c = jj_builder_finish(bl, tbuf_sink, &o->doc, NULL);
  o->err = *jj_builder_error(bl);
  o->code = c;
  jj_builder_free(bl);
  if (!o->doc.p) tbuf_sink(&o->doc, "", 0);
  if (!o->notes.p) tbuf_sink(&o->notes, "", 0);
  return c;
}

/* Both ways for rows; checks they agree.  Returns 1 when both succeeded. */
static int both_ways(const row *rows, int n, const char *schema, unsigned flags, size_t memory) {
  gen_buf json = {0};
  conv_out a, b;
  long failed_before = test_failed_;
  for (int i = 0; i < n; i++) {
    put_row_json(&json, &rows[i]);
    gen_buf_add(&json, "\n", 1);
  }
  jj_convert_opts co;
  memset(&co, 0, sizeof co);
  co.schema = schema;
  co.flags = flags;
  co.from = JJ_FORMAT_NDJSON;
  conv_opts(json.p ? json.p : "", json.len, co, &a);
  build_rows(rows, n, schema, flags, memory, &b);
  CHECK_EQ_INT(b.code, a.code);
  if (a.code == b.code && a.code) CHECK_EQ_STR(b.err.message, a.err.message);
  CHECK_EQ_STR(b.doc.p, a.doc.p);
  /* the converter's first note says how it read the input */
  const char *an = a.notes.p;
  if (!strncmp(an, "read as ", 8) && strchr(an, '\n')) an = strchr(an, '\n') + 1;
  CHECK_EQ_STR(b.notes.p, an);
  int ok = a.code == JJ_OK && b.code == JJ_OK;
  if (test_failed_ != failed_before && json.p) fprintf(stderr, "     input:\n%.2000s\n", json.p);
  conv_free(&a);
  conv_free(&b);
  gen_buf_free(&json);
  return ok;
}

/* ---------------------------------------------------------------------- */
/* Cases                                                                   */
/* ---------------------------------------------------------------------- */

#define RANDOM_TABLES 400

TEST(random_tables_give_the_converters_documents_and_notes) {
  gen_rng r;
  int ok = 0;
  gen_seed(&r, gen_seed_from_env(0xb11d));
  for (int t = 0; t < RANDOM_TABLES; t++) {
    int n = (int)gen_below(&r, 12) + 1;
    row *rows = calloc((size_t)n + 1, sizeof *rows);
    for (int i = 0; i < n; i++) gen_row(&r, &rows[i], 0);
    /* every tenth spills its rows to the temporary file at once */
    ok += both_ways(rows, n, NULL, 0, t % 10 == 5 ? 1 : 0);
    for (int i = 0; i < n; i++) row_free(&rows[i]);
    free(rows);
  }
  printf("build: %d of %d random tables converted both ways (the rest failed "
         "alike)\n", ok, RANDOM_TABLES);
  CHECK(ok > RANDOM_TABLES / 2);
}

/* One row of values given as parallel arrays, for the hand cases. */
static row mkrow(int n, const char *const *keys, node **vals) {
  row rr;
  memset(&rr, 0, sizeof rr);
  rr.n = n;
  for (int i = 0; i < n; i++) rr.keys[i] = keys[i], rr.vals[i] = vals[i];
  return rr;
}
static node *nv(int kind, int64_t i, double d, const char *text) {
  node *v = calloc(1, sizeof *v);
  v->kind = kind;
  v->i = i;
  v->d = d;
  if (text) snprintf(v->text, sizeof v->text, "%s", text);
  return v;
}

TEST(sparse_keys_mixed_numbers_dates_and_nulls_first_as_the_converter) {
  const char *k1[] = {"id"}, *k2[] = {"id", "price", "joined"}, *k3[] = {"joined", "price", "note"};
  node *v1[] = {nv(N_NULL, 0, 0, NULL)};
  node *v2[] = {nv(N_INT, 2, 0, NULL), nv(N_INT, 3, 0, NULL), nv(N_TEXT, 0, 0, "2024-02-29")};
  node *v3[] = {nv(N_TEXT, 0, 0, "2024-03-01"), nv(N_DBL, 0, 2.5, NULL), nv(N_INT, 7, 0, NULL)};
  row rows[4] = {mkrow(1, k1, v1), mkrow(3, k2, v2), mkrow(3, k3, v3), {0}};
  CHECK(both_ways(rows, 4, NULL, 0, 0));
  conv_out o;
  build_rows(rows, 4, NULL, 0, 0, &o);
  CHECK_EQ_STR(body(&o), "\"columns\":[\"id\",\"price\",\"joined\",\"note\"],"
                         "\"types\":[\"i\",\"f\",\"d\",\"i\"],\"rows\":[\n"
                         "[null,null,null,null],\n[2,3.0,\"2024-02-29\",null],\n"
                         "[null,2.5,\"2024-03-01\",7],\n[null,null,null,null]\n]}");
  CHECK(strstr(o.notes.p, "column \"price\": integers (row 2, 3), floats (row 3, 2.5) -> f") != NULL);
  conv_free(&o);
  for (int i = 0; i < 3; i++) row_free(&rows[i]);
}

TEST(an_explicit_schema_checks_each_value_where_it_is_given) {
  const char *k[] = {"id", "joined"};
  node *a[] = {nv(N_INT, 1, 0, NULL), nv(N_TEXT, 0, 0, "2024-01-01")};
  node *b[] = {nv(N_TEXT, 0, 0, "12"), nv(N_TEXT, 0, 0, "2023-02-29")};
  row rows[2] = {mkrow(2, k, a), mkrow(2, k, b)};
  conv_out o;
  CHECK_EQ_INT(build_rows(rows, 2, "joined:d", 0, 0, &o), JJ_ERR_DATE);
  CHECK_EQ_STR(o.err.message, "in: row 2, column \"joined\": \"2023-02-29\" is not a date "
                              "(2023 is not a leap year; the schema says joined:d)");
  CHECK_EQ_INT(o.err.row, 2);
  CHECK_EQ_INT(o.err.column, 1);
  CHECK_EQ_STR(o.doc.p, "");
  conv_free(&o);
  /* made null instead, counted and told */
  CHECK_EQ_INT(build_rows(rows, 2, "joined:d,id:i", JJ_BUILD_BAD_TO_NULL, 0, &o), JJ_OK);
  CHECK_EQ_STR(body(&o), "\"columns\":[\"id\",\"joined\"],\"types\":[\"i\",\"d\"],\"rows\":[\n"
                         "[1,\"2024-01-01\"],\n[12,null]\n]}");
  CHECK_EQ_STR(o.notes.p, "column \"joined\": 1 value that did not fit the schema's d became "
                          "null (the first: row 2, \"2023-02-29\")\n");
  conv_free(&o);
  /* a schema column no row has */
  CHECK_EQ_INT(build_rows(rows, 2, "when:t", 0, 0, &o), JJ_ERR_SCHEMA);
  CHECK_EQ_STR(o.err.message, "in: the schema names column \"when\", which the input does not have");
  conv_free(&o);
  for (int i = 0; i < 2; i++) row_free(&rows[i]);
}

TEST(host_values_bytes_dates_timestamps_and_their_mixes) {
  jj_builder *b = jj_builder_new(NULL, NULL);
  jj_timestamp ts = {86400 * 365, 500000000, 330, 1};
  CHECK(b != NULL);
  CHECK_EQ_INT(jj_builder_key(b, "raw", 3), JJ_OK);
  CHECK_EQ_INT(jj_builder_bytes(b, "\x00\xff", 2), JJ_OK);
  CHECK_EQ_INT(jj_builder_key(b, "day", 3), JJ_OK);
  CHECK_EQ_INT(jj_builder_date(b, 19782), JJ_OK);
  CHECK_EQ_INT(jj_builder_key(b, "at", 2), JJ_OK);
  CHECK_EQ_INT(jj_builder_timestamp(b, &ts), JJ_OK);
  CHECK_EQ_INT(jj_builder_key(b, "mixed", 5), JJ_OK);
  CHECK_EQ_INT(jj_builder_date(b, 0), JJ_OK);
  CHECK_EQ_INT(jj_builder_end_row(b), JJ_OK);
  CHECK_EQ_INT(jj_builder_key(b, "mixed", 5), JJ_OK);
  CHECK_EQ_INT(jj_builder_double(b, 0.1), JJ_OK);
  CHECK_EQ_INT(jj_builder_key(b, "day", 3), JJ_OK);
  CHECK_EQ_INT(jj_builder_text(b, "1970-01-02", 10), JJ_OK);
  CHECK_EQ_INT(jj_builder_end_row(b), JJ_OK);
  CHECK_EQ_INT(jj_builder_finish(b, NULL, NULL, NULL), JJ_OK);
  size_t len;
  char *doc = jj_builder_take(b, &len);
  CHECK(doc && strstr(doc, "\"columns\":[\"raw\",\"day\",\"at\",\"mixed\"],"
                           "\"types\":[\"x\",\"d\",\"t\",\"s\"],\"rows\":[\n"
                           "[\"AP8=\",\"2024-02-29\",\"1971-01-01T05:30:00.5+05:30\",\"1970-01-01\"],\n"
                           "[null,\"1970-01-02\",null,\"0.1\"]\n]}"));
  jj_free(doc);
  jj_builder_free(b);
  /* bytes with anything else: an error that names both */
  b = jj_builder_new(NULL, NULL);
  jj_builder_key(b, "raw", 3);
  jj_builder_bytes(b, "ab", 2);
  jj_builder_end_row(b);
  jj_builder_key(b, "raw", 3);
  jj_builder_text(b, "ab", 2);
  jj_builder_end_row(b);
  CHECK_EQ_INT(jj_builder_finish(b, NULL, NULL, NULL), JJ_ERR_TYPE);
  CHECK_EQ_STR(jj_builder_error(b)->message,
               "column \"raw\" mixes bytes with other values: text (row 2, \"ab\"), bytes "
               "(row 1, x'6162') (give it a type, or make every value bytes)");
  jj_builder_free(b);
}

TEST(rows_spilled_to_the_temporary_file_give_the_same_document) {
  gen_rng r;
  gen_seed(&r, 77);
  row rows[300];
  for (int i = 0; i < 300; i++) gen_row(&r, &rows[i], 0);
  conv_out a, b;
  CHECK_EQ_INT(build_rows(rows, 300, NULL, 0, 0, &a), build_rows(rows, 300, NULL, 0, 256, &b));
  CHECK_EQ_STR(a.doc.p, b.doc.p);
  CHECK_EQ_STR(a.notes.p, b.notes.p);
  CHECK(a.doc.len > 10000);
  conv_free(&a);
  conv_free(&b);
  for (int i = 0; i < 300; i++) row_free(&rows[i]);
}

TEST(misuse_is_a_usage_error_and_sticks) {
  jj_builder *b = jj_builder_new(NULL, NULL);
  CHECK_EQ_INT(jj_builder_int(b, 1), JJ_ERR_USAGE);
  CHECK_EQ_STR(jj_builder_error(b)->message, "a value without a key before it");
  CHECK_EQ_INT(jj_builder_key(b, "a", 1), JJ_ERR_USAGE); /* it sticks */
  jj_builder_free(b);
  b = jj_builder_new(NULL, NULL);
  jj_builder_key(b, "a", 1);
  jj_builder_int(b, 1);
  CHECK_EQ_INT(jj_builder_key(b, "a", 1), JJ_ERR_SCHEMA);
  CHECK_EQ_STR(jj_builder_error(b)->message, "row 1, column \"a\": the key is given twice in one row");
  jj_builder_free(b);
  /* given twice around a nested table: still the same row */
  b = jj_builder_new(NULL, NULL);
  jj_builder_key(b, "a", 1);
  jj_builder_int(b, 1);
  jj_builder_key(b, "t", 1);
  jj_builder_begin_table(b);
  jj_builder_key(b, "a", 1);
  jj_builder_int(b, 2);
  jj_builder_end_row(b);
  jj_builder_end_table(b);
  CHECK_EQ_INT(jj_builder_key(b, "a", 1), JJ_ERR_SCHEMA);
  jj_builder_free(b);
  b = jj_builder_new(NULL, NULL);
  CHECK_EQ_INT(jj_builder_key(b, "", 0), JJ_ERR_SCHEMA);
  jj_builder_free(b);
  b = jj_builder_new(NULL, NULL);
  jj_builder_key(b, "a", 1);
  jj_builder_begin_table(b);
  CHECK_EQ_INT(jj_builder_finish(b, NULL, NULL, NULL), JJ_ERR_USAGE);
  jj_builder_free(b);
  b = jj_builder_new(NULL, NULL);
  CHECK_EQ_INT(jj_builder_finish(b, NULL, NULL, NULL), JJ_ERR_SCHEMA);
  CHECK_EQ_STR(jj_builder_error(b)->message, "the input has no columns (it has no rows)");
  jj_builder_free(b);
  jj_error err;
  jj_build_opts o = {0};
  o.schema = "a:q";
  CHECK(jj_builder_new(&o, &err) == NULL);
  CHECK_EQ_INT(err.code, JJ_ERR_USAGE);
  CHECK_EQ_INT(jj_builder_finish(NULL, NULL, NULL, NULL), JJ_ERR_USAGE);
  jj_builder_free(NULL);
}

TEST(declared_columns_keep_their_order) {
  jj_builder *b = jj_builder_new(NULL, NULL);
  CHECK_EQ_INT(jj_builder_column(b, "b", 1, 0), JJ_OK);
  CHECK_EQ_INT(jj_builder_column(b, "a", 1, 0), JJ_OK);
  CHECK_EQ_INT(jj_builder_column(b, "a", 1, 0), JJ_ERR_SCHEMA);
  jj_builder_free(b);
  b = jj_builder_new(NULL, NULL);
  jj_builder_column(b, "b", 1, 0);
  jj_builder_column(b, "a", 1, 0);
  jj_builder_key(b, "a", 1);
  jj_builder_int(b, 1);
  jj_builder_end_row(b);
  CHECK_EQ_INT(jj_builder_finish(b, NULL, NULL, NULL), JJ_OK);
  char *doc = jj_builder_take(b, NULL);
  CHECK(doc && strstr(doc, "\"columns\":[\"b\",\"a\"],\"types\":[\"s\",\"i\"],\"rows\":[\n[null,1]\n]}"));
  jj_free(doc);
  jj_builder_free(b);
}

TEST(typed_columns_refusals_length_limits_and_jj_in_the_schema) {
  jj_build_opts o = {0};
  o.schema = "a:f,n:jj";
  o.name = "q";
  jj_builder *b = jj_builder_new(&o, NULL);
  CHECK_EQ_INT(jj_builder_column(b, "a", 1, JJ_INT), JJ_OK); /* the option wins */
  CHECK_EQ_INT(jj_builder_column(b, "d", 1, JJ_DATE), JJ_OK);
  CHECK_EQ_INT(jj_builder_column(b, "x", 1, (jj_type)'?'), JJ_ERR_USAGE);
  jj_builder_free(b);
  b = jj_builder_new(&o, NULL);
  jj_builder_column(b, "a", 1, JJ_INT);
  jj_builder_column(b, "d", 1, JJ_DATE);
  jj_builder_key(b, "a", 1);
  jj_builder_int(b, 2);
  jj_builder_key(b, "n", 1);
  jj_builder_begin_table(b);
  jj_builder_key(b, "k", 1);
  jj_builder_text(b, "v", 1);
  jj_builder_end_row(b);
  jj_builder_end_table(b);
  CHECK_EQ_INT(jj_builder_end_row(b), JJ_OK);
  jj_builder_key(b, "d", 1);
  CHECK_EQ_INT(jj_builder_text(b, "soon", 4), JJ_ERR_DATE);
  CHECK_EQ_STR(jj_builder_error(b)->message,
               "q: row 2, column \"d\": \"soon\" is not a date (expected YYYY-MM-DD; the schema says d:d)");
  jj_builder_free(b);
  b = jj_builder_new(&o, NULL);
  jj_builder_key(b, "a", 1);
  jj_builder_int(b, 2);
  jj_builder_key(b, "n", 1);
  CHECK_EQ_INT(jj_builder_refuse(b, JJ_ERR_TYPE, "a set is no value"), JJ_ERR_TYPE);
  CHECK_EQ_STR(jj_builder_error(b)->message, "q: row 1, column \"n\": a set is no value");
  jj_builder_free(b);
  o.schema = "a:q";
  o.schema_label = "TYPES";
  jj_error err;
  CHECK(jj_builder_new(&o, &err) == NULL);
  CHECK_EQ_STR(err.message, "q: TYPES, at byte 2: unknown type q for column \"a\" (use one "
                            "of i f s d t l b x j, {...} or jj for a nested table)");
  /* the length limit: found at the row that passes it */
  memset(&o, 0, sizeof o);
  o.max_length = 200;
  b = jj_builder_new(&o, NULL);
  for (int i = 0; i < 100; i++) {
    jj_builder_key(b, "id", 2);
    jj_builder_int(b, i);
    jj_builder_end_row(b);
  }
  CHECK_EQ_INT(jj_builder_finish(b, NULL, NULL, NULL), JJ_ERR_LIMIT);
  CHECK_EQ_STR(jj_builder_error(b)->message, "the document would be longer than 200 bytes");
  jj_builder_free(b);
}

/* Rows of typed, fixed columns given in several orders, with and without
** jj_builder_start (written as they end, or kept): the same document. */
static char *fixed_rows(int start, int order) {
  jj_build_opts o = {0};
  o.flags = JJ_BUILD_FIXED_COLUMNS;
  o.schema = "p:f";
  jj_builder *b = jj_builder_new(&o, NULL);
  jj_builder_column(b, "id", 2, JJ_INT);
  jj_builder_column(b, "day", 3, JJ_DATE);
  jj_builder_column(b, "p", 1, 0);
  if (start) jj_builder_start(b, NULL, NULL);
  for (int r = 0; r < 50; r++) {
    int cols[3] = {0, 1, 2};
    if (order == 1) cols[0] = 2, cols[2] = 0;                 /* reversed */
    if (order == 2 && r % 3 == 1) cols[0] = 1, cols[1] = 0;   /* swapped */
    for (int k = 0; k < 3; k++) {
      if (order == 2 && r % 4 == 2 && cols[k] == 1) continue; /* left out */
      jj_builder_key_at(b, (size_t)cols[k]);
      if (cols[k] == 0) jj_builder_int(b, r);
      if (cols[k] == 1) jj_builder_text(b, r % 2 ? "2024-02-29" : "1999-12-31", 10);
      if (cols[k] == 2) jj_builder_int(b, r * 3);
    }
    jj_builder_end_row(b);
  }
  char *doc = NULL;
  if (jj_builder_finish(b, NULL, NULL, NULL) == JJ_OK) doc = jj_builder_take(b, NULL);
  else fprintf(stderr, "     %s\n", jj_builder_error(b)->message);
  jj_builder_free(b);
  return doc;
}

TEST(fixed_typed_columns_written_as_rows_end_give_the_same_document) {
  char *want = fixed_rows(0, 0);
  CHECK(want && strstr(want, "\"types\":[\"i\",\"d\",\"f\"]"));
  for (int order = 0; order < 3; order++) {
    char *a = fixed_rows(1, order), *b = fixed_rows(0, order);
    CHECK(a && b && !strcmp(a, b));
    if (order < 2) CHECK(a && want && !strcmp(a, want));
    jj_free(a);
    jj_free(b);
  }
  jj_free(want);
  /* another key is an error */
  jj_build_opts o = {0};
  o.flags = JJ_BUILD_FIXED_COLUMNS;
  jj_builder *bl = jj_builder_new(&o, NULL);
  jj_builder_column(bl, "a", 1, JJ_INT);
  CHECK_EQ_INT(jj_builder_key(bl, "b", 1), JJ_ERR_SCHEMA);
  CHECK_EQ_STR(jj_builder_error(bl)->message,
               "row 1: key \"b\" is not one of the columns named");
  jj_builder_free(bl);
}

int main(void) {
  printf("build: seed %llu (set JJ_SEED to reproduce)\n",
         (unsigned long long)gen_seed_from_env(0xb11d));
  RUN(random_tables_give_the_converters_documents_and_notes);
  RUN(sparse_keys_mixed_numbers_dates_and_nulls_first_as_the_converter);
  RUN(an_explicit_schema_checks_each_value_where_it_is_given);
  RUN(host_values_bytes_dates_timestamps_and_their_mixes);
  RUN(rows_spilled_to_the_temporary_file_give_the_same_document);
  RUN(misuse_is_a_usage_error_and_sticks);
  RUN(declared_columns_keep_their_order);
  RUN(typed_columns_refusals_length_limits_and_jj_in_the_schema);
  RUN(fixed_typed_columns_written_as_rows_end_give_the_same_document);
  return test_summary("build");
}
