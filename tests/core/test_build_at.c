/*
** test_build_at.c — values with their columns' places (jj_builder_null_at,
** _int_at, _double_at, _text_at, and whole rows of cells, jj_builder_row;
** core/build_at.c).  Once rows are written as they come, such a value goes
** to the writer at once when it keeps to its column; every other one
** takes the general way.  The document, the notes and the errors must be
** those of the general way (jj_builder_key_at, then the value call) and
** of the builder that keeps every row (keys by name, no fixed columns),
** for the same
** values in the same order: with the surprises a long run of quick values
** meets in the middle (row 1000 of 1200 brings a float into integers, a
** NULL, a new kind of text, invalid UTF-8, a row in another order, a
** value left out), with explicit types (rows written as they come from
** the first one) and values made null, in memory and in the temporary
** file, and at the length limit.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/gen.h"
#include "../lib/test.h"
#include "jalapenojson.h"

/* What a column's values are, row by row (`at`: the row of the change). */
enum {
  Q_INTS,        /* integers */
  Q_INTS_FLOAT,  /* integers, a float at `at` (the column becomes f) */
  Q_INTS_BIG,    /* integers, 2^60+1 at `at` (not exact as a double), then
                 ** floats (the column becomes s, not f) */
  Q_INTS_NULL,   /* integers, NULL at `at` */
  Q_FLOATS,      /* floats */
  Q_FLOATS_INT,  /* floats, integers from `at` on (exact: f) */
  Q_TEXT,        /* ASCII text; now and then empty, escaped, not ASCII,
                 ** NaN or text that begins as it does */
  Q_TEXT_BAD,    /* text, invalid UTF-8 at `at` (an error) */
  Q_TEXT_INT,    /* text, an integer at `at` (s) */
  Q_TEXT_DATES,  /* text, dates and NaN from `at` on (s: kinds a note
                 ** names) */
  Q_DATES,       /* dates as text (d, or s by the schema) */
  Q_DATES_TEXT,  /* dates, a word at `at` (s) */
  Q_DATES_BAD,   /* dates, 2023-02-29 at `at` (a d column's error) */
  Q_NULLS_TEXT,  /* nulls until `at`, then text */
  Q_BOOLS,       /* no quick call: key_at and the value call */
  Q_COUNT
};

typedef struct plan {
  int kind, at;
} plan;

/* The ways of giving a value: with its place, its key's place and then
** the value, its key's name and then the value, or as a cell of its row
** (jj_builder_row; a row in another order or with values left out is
** given AT). */
enum { AT, KEY_AT, BY_NAME, ROW };

/* The row being given as cells, the way ROW: a bool is a JJ_CELL_HOST
** cell, given by the callback; text is kept here until the row is
** given. */
#define ROW_MAX 8
static jj_cell row_cells[ROW_MAX];
static int row_bools[ROW_MAX];
static char row_text[ROW_MAX][48];

static jj_code give_host(void *ctx, jj_builder *b, size_t col) {
  (void)ctx;
  return jj_builder_bool(b, row_bools[col]);
}

static void key(jj_builder *b, int col, int way) {
  char name[16];
  if (way == BY_NAME) {
    snprintf(name, sizeof name, "c%d", col);
    jj_builder_key(b, name, strlen(name));
  } else {
    jj_builder_key_at(b, (size_t)col);
  }
}

static void give_null(jj_builder *b, int col, int way) {
  if (way == ROW) row_cells[col] = (jj_cell){.kind = JJ_CELL_NULL};
  else if (way == AT) jj_builder_null_at(b, (size_t)col);
  else key(b, col, way), jj_builder_null(b);
}

static void give_int(jj_builder *b, int col, int way, int64_t v) {
  if (way == ROW) row_cells[col] = (jj_cell){.kind = JJ_CELL_INT, .u.i = v};
  else if (way == AT) jj_builder_int_at(b, (size_t)col, v);
  else key(b, col, way), jj_builder_int(b, v);
}

static void give_double(jj_builder *b, int col, int way, double v) {
  if (way == ROW) row_cells[col] = (jj_cell){.kind = JJ_CELL_DOUBLE, .u.d = v};
  else if (way == AT) jj_builder_double_at(b, (size_t)col, v);
  else key(b, col, way), jj_builder_double(b, v);
}

static void give_text(jj_builder *b, int col, int way, const char *p, size_t n) {
  if (way == ROW) {
    memcpy(row_text[col], p, n);
    row_cells[col] = (jj_cell){.kind = JJ_CELL_TEXT, .u.text = {row_text[col], n}};
  } else if (way == AT) {
    jj_builder_text_at(b, (size_t)col, p, n);
  }
  else key(b, col, way), jj_builder_text(b, p, n);
}

static void give(jj_builder *b, const plan *p, int col, int way, int row) {
  char text[48];
  int late = row >= p->at, now = row == p->at;
  switch (p->kind) {
    case Q_INTS:
      give_int(b, col, way, (int64_t)row * 7 - 50);
      break;
    case Q_INTS_FLOAT:
      if (now) give_double(b, col, way, row + 0.5);
      else give_int(b, col, way, row);
      break;
    case Q_INTS_BIG:
      if (now) give_int(b, col, way, ((int64_t)1 << 60) + 1);
      else if (late) give_double(b, col, way, row * 0.25);
      else give_int(b, col, way, -row);
      break;
    case Q_INTS_NULL:
      if (now) give_null(b, col, way);
      else give_int(b, col, way, row);
      break;
    case Q_FLOATS:
      give_double(b, col, way, row * -1.25);
      break;
    case Q_FLOATS_INT:
      if (late) give_int(b, col, way, row);
      else give_double(b, col, way, row * 0.5);
      break;
    case Q_TEXT:
      if (row % 7 == 3) snprintf(text, sizeof text, "t\xC3\xA9xt %d", row);
      else if (row % 11 == 5) snprintf(text, sizeof text, "say \"%d\"\n", row);
      else if (row % 17 == 2) snprintf(text, sizeof text, "%s", row % 2 ? "NaN" : "-Infinity");
      else if (row % 19 == 4) snprintf(text, sizeof text, "%s %d", row % 2 ? "Infinity" : "-", row);
      else snprintf(text, sizeof text, "plain text number %d", row);
      give_text(b, col, way, text, row % 13 == 1 ? 0 : strlen(text));
      break;
    case Q_TEXT_BAD:
      if (now) give_text(b, col, way, "bad \xC3\x28 byte", 10);
      else give_text(b, col, way, "word", 4);
      break;
    case Q_TEXT_INT:
      if (now) give_int(b, col, way, row);
      else give_text(b, col, way, "w", 1);
      break;
    case Q_TEXT_DATES:
      if (!late) give_text(b, col, way, "w", 1);
      else if (row % 2) give_text(b, col, way, "NaN", 3);
      else give_text(b, col, way, "2024-02-29", 10);
      break;
    case Q_DATES:
    case Q_DATES_TEXT:
    case Q_DATES_BAD:
      if (now && p->kind == Q_DATES_TEXT) {
        give_text(b, col, way, "soon", 4);
      } else if (now && p->kind == Q_DATES_BAD) {
        give_text(b, col, way, "2023-02-29", 10);
      } else {
        snprintf(text, sizeof text, "20%02d-%02d-%02d", row % 100, row % 12 + 1, row % 28 + 1);
        give_text(b, col, way, text, 10);
      }
      break;
    case Q_NULLS_TEXT:
      if (late) give_text(b, col, way, "late", 4);
      else give_null(b, col, way);
      break;
    default:
      if (way == ROW) {
        row_cells[col] = (jj_cell){.kind = JJ_CELL_HOST};
        row_bools[col] = row % 3 == 0;
        break;
      }
      key(b, col, way);
      jj_builder_bool(b, row % 3 == 0);
      break;
  }
}

typedef struct out {
  gen_buf doc, notes;
  jj_code code;
  char message[512];
} out;

/* How the rows are given besides the values. */
typedef struct shape {
  int rows;
  int reorder_at; /* this row gives its values in the reverse order */
  int leave_out;  /* every leave_out-th value of a row after the first is
                  ** left out (null); 0: none */
  const char *schema;
  unsigned flags;
  size_t memory;
  uint64_t max_length;
  int start;      /* jj_builder_start: rows written as they come when
                  ** every column is typed */
  int in_memory;  /* the document into memory (jj_builder_take), not to
                  ** a sink: the rows written ahead become it in place */
  int sink_fails; /* the sink fails from this call on; 0: never */
} shape;

/* The document's sink, failing from call fail_at on (0: never). */
typedef struct sink_ctx {
  gen_buf *doc;
  int calls, fail_at;
} sink_ctx;

static int failing_sink(void *ctx, const char *data, size_t len) {
  sink_ctx *sc = ctx;
  if (sc->fail_at && ++sc->calls >= sc->fail_at) return 1;
  return gen_buf_sink(sc->doc, data, len);
}

static void build(const plan *plans, int ncol, const shape *s, int way, out *o) {
  jj_build_opts bo;
  memset(&bo, 0, sizeof bo);
  memset(o, 0, sizeof *o);
  bo.schema = s->schema;
  bo.flags = s->flags | (way == BY_NAME ? 0 : JJ_BUILD_FIXED_COLUMNS);
  bo.memory = s->memory;
  bo.max_length = s->max_length;
  bo.note = gen_buf_note;
  bo.note_ctx = &o->notes;
  jj_builder *b = jj_builder_new(&bo, NULL);
  char name[16];
  for (int c = 0; c < ncol; c++) {
    snprintf(name, sizeof name, "c%d", c);
    jj_builder_column(b, name, strlen(name), 0);
  }
  int start = s->start && way != BY_NAME;
  sink_ctx sc = {&o->doc, 0, s->sink_fails};
  if (start) jj_builder_start(b, failing_sink, &sc);
  for (int r = 0; r < s->rows; r++) {
    int whole = r != s->reorder_at;
    for (int c = 0; whole && r > 0 && s->leave_out && c < ncol; c++)
      whole = (r * ncol + c) % s->leave_out != 0;
    if (way == ROW && whole) {
      for (int c = 0; c < ncol; c++) give(b, &plans[c], c, ROW, r);
      jj_builder_row(b, row_cells, (size_t)ncol, give_host, NULL);
      continue;
    }
    for (int k = 0; k < ncol; k++) {
      int c = r == s->reorder_at ? ncol - 1 - k : k;
      if (r > 0 && s->leave_out && (r * ncol + c) % s->leave_out == 0) continue;
      give(b, &plans[c], c, way == ROW ? AT : way, r);
    }
    jj_builder_end_row(b);
  }
  if (s->in_memory && !start) {
    size_t len = 0;
    char *doc = NULL;
    o->code = jj_builder_finish(b, NULL, NULL, NULL);
    if (!o->code && (doc = jj_builder_take(b, &len))) gen_buf_add(&o->doc, doc, len);
    jj_free(doc);
  } else {
    o->code = jj_builder_finish(b, start ? NULL : failing_sink, start ? NULL : &sc, NULL);
  }
  snprintf(o->message, sizeof o->message, "%s", o->code ? jj_builder_error(b)->message : "");
  jj_builder_free(b);
  if (o->code) o->doc.len = 0;
  gen_buf_add(&o->doc, "", 1);
  gen_buf_add(&o->notes, "", 1);
}

/* The four ways give the same; returns 1 when the document was made. */
static int same(const plan *plans, int ncol, const shape *s) {
  out a, k, n, w;
  long failed_before = test_failed_;
  build(plans, ncol, s, AT, &a);
  build(plans, ncol, s, KEY_AT, &k);
  build(plans, ncol, s, BY_NAME, &n);
  build(plans, ncol, s, ROW, &w);
  CHECK_EQ_INT(a.code, n.code);
  CHECK_EQ_STR(a.message, n.message);
  CHECK_EQ_STR(a.doc.p, n.doc.p);
  CHECK_EQ_STR(a.notes.p, n.notes.p);
  CHECK_EQ_INT(k.code, n.code);
  CHECK_EQ_STR(k.doc.p, n.doc.p);
  CHECK_EQ_INT(w.code, n.code);
  CHECK_EQ_STR(w.message, n.message);
  CHECK_EQ_STR(w.doc.p, n.doc.p);
  CHECK_EQ_STR(w.notes.p, n.notes.p);
  if (test_failed_ != failed_before) {
    fprintf(stderr, "     %d rows, schema %s, memory %zu, start %d, plans:", s->rows,
            s->schema ? s->schema : "-", s->memory, s->start);
    for (int c = 0; c < ncol; c++) fprintf(stderr, " %d@%d", plans[c].kind, plans[c].at);
    fprintf(stderr, "\n");
  }
  int ok = a.code == JJ_OK;
  gen_buf_free(&a.doc), gen_buf_free(&a.notes), gen_buf_free(&k.doc), gen_buf_free(&k.notes);
  gen_buf_free(&n.doc), gen_buf_free(&n.notes), gen_buf_free(&w.doc), gen_buf_free(&w.notes);
  return ok;
}

TEST(each_surprise_at_row_1000_of_1200) {
  shape s = {1200, -1, 0, NULL, 0, 0, 0, 0, 0, 0};
  for (int k = 0; k < Q_COUNT; k++) {
    /* the change alone, then among columns that keep to their kind, first
    ** and last (the values before it in its row written already) */
    plan one[1] = {{k, 1000}};
    plan last[4] = {{Q_INTS, 0}, {Q_TEXT, 0}, {Q_DATES, 0}, {k, 1000}};
    plan first[4] = {{k, 1000}, {Q_FLOATS, 0}, {Q_TEXT, 0}, {Q_INTS, 0}};
    same(one, 1, &s);
    same(last, 4, &s);
    same(first, 4, &s);
  }
}

TEST(rows_in_another_order_values_left_out_the_temporary_file) {
  plan plans[5] = {{Q_INTS, 0}, {Q_FLOATS_INT, 600}, {Q_TEXT, 0}, {Q_DATES, 0}, {Q_NULLS_TEXT, 3}};
  shape s = {1200, 1000, 0, NULL, 0, 0, 0, 0, 0, 0};
  CHECK(same(plans, 5, &s)); /* row 1000 backwards */
  s.leave_out = 17;
  CHECK(same(plans, 5, &s)); /* and values left out now and then */
  s.memory = 4096; /* the rows written ahead pass to the temporary file */
  CHECK(same(plans, 5, &s));
  plans[0].kind = Q_INTS_FLOAT; /* given up after the file: read back */
  plans[0].at = 1000;
  CHECK(same(plans, 5, &s));
}

TEST(the_document_in_memory_is_the_rows_written_ahead) {
  /* dates written as text until the end makes the column d: the header's
  ** letter changes in place; then past memory (the temporary file) and
  ** a surprise at row 1000 (read back): the document written anew */
  plan plans[4] = {{Q_INTS, 0}, {Q_DATES, 0}, {Q_TEXT, 0}, {Q_NULLS_TEXT, 5}};
  shape s = {1200, 1000, 0, NULL, 0, 0, 0, 0, 1, 0};
  CHECK(same(plans, 4, &s));
  out o;
  const char *want = "{\"jalapenojson\":1,\"columns\":[\"c0\",\"c1\",\"c2\",\"c3\"],"
                     "\"types\":[\"i\",\"d\",\"s\",\"s\"],\"rows\":[\n[-50,\"2000-01-01\",";
  build(plans, 4, &s, AT, &o);
  CHECK_EQ_MEM(o.doc.p, strlen(want), want, strlen(want));
  gen_buf_free(&o.doc), gen_buf_free(&o.notes);
  s.memory = 4096;
  CHECK(same(plans, 4, &s));
  s.memory = 0;
  plans[0].kind = Q_INTS_FLOAT;
  plans[0].at = 1000;
  CHECK(same(plans, 4, &s));
  /* the length limit counts the header once: a document of exactly the
  ** limit is made, one byte less is refused */
  plans[0].kind = Q_INTS;
  build(plans, 4, &s, AT, &o);
  s.max_length = o.doc.len - 1; /* less its NUL */
  gen_buf_free(&o.doc), gen_buf_free(&o.notes);
  CHECK(same(plans, 4, &s));
  s.max_length--;
  CHECK(!same(plans, 4, &s));
}

TEST(explicit_types_rows_written_from_the_first) {
  plan plans[5] = {{Q_INTS, 0}, {Q_FLOATS, 0}, {Q_TEXT, 0}, {Q_DATES, 0}, {Q_INTS_NULL, 1000}};
  shape s = {1200, 1000, 0, "c0:i,c1:f,c2:s,c3:d,c4:i", 0, 0, 0, 1, 0, 0};
  CHECK(same(plans, 5, &s));
  s.start = 0; /* the same types, written ahead */
  CHECK(same(plans, 5, &s));
  s.start = 1;
  s.leave_out = 9;
  CHECK(same(plans, 5, &s));
  /* values that do not fit: an error at their row, or null and a note */
  plan bad[3] = {{Q_INTS_FLOAT, 1000}, {Q_DATES_BAD, 1000}, {Q_TEXT_INT, 1000}};
  shape e = {1200, -1, 0, "c0:i,c1:d,c2:s", 0, 0, 0, 1, 0, 0};
  CHECK(!same(bad, 3, &e));
  e.flags = JJ_BUILD_BAD_TO_NULL;
  CHECK(same(bad, 3, &e));
  /* dates typed s: written as text; text typed d: checked, not quick */
  plan dates[2] = {{Q_DATES, 0}, {Q_DATES_TEXT, 1000}};
  shape d = {1200, -1, 0, "c0:s,c1:d", JJ_BUILD_BAD_TO_NULL, 0, 0, 1, 0, 0};
  CHECK(same(dates, 2, &d));
}

TEST(the_first_error_is_the_general_ways) {
  plan bad[2] = {{Q_INTS, 0}, {Q_TEXT_BAD, 1000}};
  shape s = {1200, -1, 0, NULL, 0, 0, 0, 0, 0, 0};
  CHECK(!same(bad, 2, &s));
  out o;
  build(bad, 2, &s, AT, &o);
  CHECK_EQ_INT(o.code, JJ_ERR_UTF8);
  CHECK(strstr(o.message, "row 1001") != NULL);
  gen_buf_free(&o.doc), gen_buf_free(&o.notes);
  /* a column given twice in a row, quick the first time */
  jj_build_opts bo;
  memset(&bo, 0, sizeof bo);
  bo.flags = JJ_BUILD_FIXED_COLUMNS;
  jj_builder *b = jj_builder_new(&bo, NULL);
  jj_builder_column(b, "a", 1, 0);
  jj_builder_column(b, "b", 1, 0);
  for (int r = 0; r < 3; r++) {
    CHECK_EQ_INT(jj_builder_int_at(b, 0, r), JJ_OK);
    CHECK_EQ_INT(jj_builder_text_at(b, 1, "x", 1), JJ_OK);
    CHECK_EQ_INT(jj_builder_end_row(b), JJ_OK);
  }
  CHECK_EQ_INT(jj_builder_int_at(b, 0, 1), JJ_OK);
  CHECK_EQ_INT(jj_builder_text_at(b, 1, "x", 1), JJ_OK);
  CHECK_EQ_INT(jj_builder_int_at(b, 0, 2), JJ_ERR_SCHEMA);
  CHECK_EQ_STR(jj_builder_error(b)->message,
               "row 4, column \"a\": the key is given twice in one row");
  CHECK_EQ_INT(jj_builder_null_at(b, 1), JJ_ERR_SCHEMA); /* sticky */
  jj_builder_free(b);
  /* given twice, kept the first time (out of order), then in its place */
  b = jj_builder_new(&bo, NULL);
  jj_builder_column(b, "a", 1, 0);
  jj_builder_column(b, "b", 1, 0);
  for (int r = 0; r < 3; r++) {
    jj_builder_int_at(b, 0, r);
    jj_builder_text_at(b, 1, "x", 1);
    jj_builder_end_row(b);
  }
  CHECK_EQ_INT(jj_builder_text_at(b, 1, "y", 1), JJ_OK);
  CHECK_EQ_INT(jj_builder_int_at(b, 0, 7), JJ_OK);
  CHECK_EQ_INT(jj_builder_text_at(b, 1, "z", 1), JJ_ERR_SCHEMA);
  CHECK_EQ_STR(jj_builder_error(b)->message,
               "row 4, column \"b\": the key is given twice in one row");
  jj_builder_free(b);
  /* a place beyond the columns, a NULL builder */
  b = jj_builder_new(&bo, NULL);
  jj_builder_column(b, "a", 1, 0);
  CHECK_EQ_INT(jj_builder_double_at(b, 1, 1.5), JJ_ERR_USAGE);
  jj_builder_free(b);
  CHECK_EQ_INT(jj_builder_text_at(NULL, 0, "x", 1), JJ_ERR_USAGE);
}

TEST(the_length_limit_with_quick_values) {
  plan plans[2] = {{Q_INTS, 0}, {Q_TEXT, 0}};
  shape s = {1200, -1, 0, NULL, 0, 0, 2000, 0, 0, 0};
  CHECK(!same(plans, 2, &s)); /* written ahead */
  s.schema = "c0:i,c1:s";
  s.start = 1;
  CHECK(!same(plans, 2, &s)); /* written as they come */
  out o;
  build(plans, 2, &s, AT, &o);
  CHECK_EQ_INT(o.code, JJ_ERR_LIMIT);
  gen_buf_free(&o.doc), gen_buf_free(&o.notes);
}

TEST(a_sink_that_fails_with_quick_values) {
  /* rows beyond the writer's first flush (64 KiB), written as they come
  ** and written ahead: the same error, whichever way the values came */
  plan plans[5] = {{Q_INTS, 0}, {Q_FLOATS, 0}, {Q_TEXT, 0}, {Q_DATES, 0}, {Q_INTS_NULL, 7}};
  shape s = {4000, -1, 0, "c0:i,c1:f,c2:s,c3:d,c4:i", 0, 0, 0, 1, 0, 1};
  for (int fails = 1; fails <= 2; fails++) {
    s.sink_fails = fails;
    for (s.start = 1; s.start >= 0; s.start--) {
      CHECK(!same(plans, 5, &s));
      out o;
      build(plans, 5, &s, ROW, &o);
      CHECK_EQ_INT(o.code, JJ_ERR_IO);
      CHECK_EQ_STR(o.message, "write failed");
      gen_buf_free(&o.doc), gen_buf_free(&o.notes);
    }
  }
}

static jj_code give_nothing(void *ctx, jj_builder *b, size_t col) {
  (void)ctx, (void)b, (void)col;
  return JJ_OK;
}

/* A builder of columns a (inferred) and b (b typed as the schema says),
** rows written ahead or as they come, three rows given whole already. */
static jj_builder *three_rows(const char *schema, int start, gen_buf *doc) {
  jj_build_opts bo;
  memset(&bo, 0, sizeof bo);
  bo.flags = JJ_BUILD_FIXED_COLUMNS;
  bo.schema = schema;
  jj_builder *b = jj_builder_new(&bo, NULL);
  jj_builder_column(b, "a", 1, 0);
  jj_builder_column(b, "b", 1, 0);
  if (start) jj_builder_start(b, gen_buf_sink, doc);
  for (int r = 0; r < 3; r++) {
    jj_cell row[2] = {{.kind = JJ_CELL_INT, .u.i = r}, {.kind = JJ_CELL_TEXT, .u.text = {"x", 1}}};
    CHECK_EQ_INT(jj_builder_row(b, row, 2, NULL, NULL), JJ_OK);
  }
  return b;
}

/* jj_builder_row of cells[0..n) after three rows refused as a misuse,
** with a message that holds `says`. */
static void misuse(const jj_cell *cells, size_t n, jj_cell_host host,
                   const char *says) {
  jj_builder *b = three_rows(NULL, 0, NULL);
  long failed_before = test_failed_;
  CHECK_EQ_INT(jj_builder_row(b, cells, n, host, NULL), JJ_ERR_USAGE);
  CHECK(strstr(jj_builder_error(b)->message, says) != NULL);
  if (test_failed_ != failed_before) fprintf(stderr, "     the misuse that says \"%s\"\n", says);
  jj_builder_free(b);
}

TEST(whole_rows_and_their_misuse) {
  gen_buf doc = {0};
  jj_cell two[2] = {{.kind = JJ_CELL_INT, .u.i = 7}, {.kind = JJ_CELL_TEXT, .u.text = {"y", 1}}};
  /* fewer cells than columns: the rest are null, as values left out */
  jj_builder *b = three_rows("b:s", 1, &doc);
  CHECK_EQ_INT(jj_builder_row(b, two, 1, NULL, NULL), JJ_OK);
  CHECK_EQ_INT(jj_builder_finish(b, NULL, NULL, NULL), JJ_OK);
  gen_buf_add(&doc, "", 1);
  CHECK(strstr(doc.p, "[7,null]") != NULL);
  jj_builder_free(b);
  /* more cells than columns */
  jj_cell three[3] = {two[0], two[1], {.kind = JJ_CELL_NULL}};
  b = three_rows(NULL, 0, NULL);
  CHECK_EQ_INT(jj_builder_row(b, three, 3, NULL, NULL), JJ_ERR_USAGE);
  CHECK_EQ_STR(jj_builder_error(b)->message, "row 4: column 2 is not named (2 are)");
  jj_builder_free(b);
  /* inside a row; NULL cells; a host cell without a callback, or whose
  ** callback gives no value; a cell of no kind */
  b = three_rows(NULL, 0, NULL);
  CHECK_EQ_INT(jj_builder_int_at(b, 0, 1), JJ_OK);
  CHECK_EQ_INT(jj_builder_row(b, two, 2, NULL, NULL), JJ_ERR_USAGE);
  CHECK(strstr(jj_builder_error(b)->message, "inside a row") != NULL);
  jj_builder_free(b);
  misuse(NULL, 2, NULL, "a row of NULL cells");
  jj_cell host[2] = {two[0], {.kind = JJ_CELL_HOST}};
  misuse(host, 2, NULL, "without a host callback");
  misuse(host, 2, give_nothing, "gave no value for column 1");
  jj_cell odd[2] = {two[0], {.kind = (jj_cell_kind)99}};
  misuse(odd, 2, NULL, "unknown kind 99");
  CHECK_EQ_INT(jj_builder_row(NULL, two, 2, NULL, NULL), JJ_ERR_USAGE);
  /* a whole row whose second value does not keep to its column: the row
  ** goes on the general way (its place on the tape given then), and the
  ** document is the builder's that kept every row */
  b = three_rows(NULL, 0, NULL);
  jj_cell turn[2] = {two[0], {.kind = JJ_CELL_INT, .u.i = 5}};
  CHECK_EQ_INT(jj_builder_row(b, turn, 2, NULL, NULL), JJ_OK);
  CHECK_EQ_INT(jj_builder_row(b, two, 2, NULL, NULL), JJ_OK);
  char *d = NULL;
  size_t len = 0;
  CHECK_EQ_INT(jj_builder_finish(b, NULL, NULL, NULL), JJ_OK);
  CHECK((d = jj_builder_take(b, &len)) != NULL);
  CHECK(d && strstr(d, "\"types\":[\"i\",\"s\"]") != NULL);
  CHECK(d && strstr(d, "[2,\"x\"],\n[7,\"5\"],\n[7,\"y\"]\n]}") != NULL);
  jj_free(d);
  jj_builder_free(b);
  gen_buf_free(&doc);
}

TEST(random_tables) {
  gen_rng r;
  int ok = 0, n = 120;
  gen_seed(&r, gen_seed_from_env(0xb11d));
  for (int t = 0; t < n; t++) {
    plan plans[6];
    int ncol = (int)gen_below(&r, 6) + 1;
    shape s = {(int)gen_below(&r, 300), (int)gen_below(&r, 300), (int)gen_below(&r, 20), NULL,
               0, t % 3 == 0 ? 1 : t % 3 == 1 ? 500 : 0, 0, t % 2, t % 4 == 2, 0};
    for (int c = 0; c < ncol; c++) {
      plans[c].kind = (int)gen_below(&r, Q_COUNT);
      plans[c].at = (int)gen_below(&r, 320);
    }
    ok += same(plans, ncol, &s);
  }
  printf("build_at: %d of %d random tables built, the rest failed alike\n", ok, n);
}

int main(void) {
  RUN(each_surprise_at_row_1000_of_1200);
  RUN(rows_in_another_order_values_left_out_the_temporary_file);
  RUN(the_document_in_memory_is_the_rows_written_ahead);
  RUN(explicit_types_rows_written_from_the_first);
  RUN(the_first_error_is_the_general_ways);
  RUN(the_length_limit_with_quick_values);
  RUN(a_sink_that_fails_with_quick_values);
  RUN(whole_rows_and_their_misuse);
  RUN(random_tables);
  return test_summary("build_at");
}
