/*
** test_build_ahead.c — fixed columns whose types are inferred are written
** as rows end with the first row's types (core/build_ahead.c), and read
** back onto the tape when a later value does not keep to them.  The
** document, the notes and the errors must be those of the builder that
** keeps every row (the same values without JJ_BUILD_FIXED_COLUMNS), for
** every way a column can change: a float after integers, an inexact
** integer after floats, text after numbers, nulls first, dates that turn
** out to be text, values given out of order or left out, a change in the
** middle of a row, rows in memory and in the temporary file, explicit
** types beside inferred ones, values made null by the schema, local
** timestamps in SQLite's form (written with a T: read back at the end).
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/gen.h"
#include "../lib/test.h"
#include "jalapenojson.h"

/* What a column's values are, row by row. */
enum {
  P_INTS,          /* integers */
  P_INTS_FLOAT,    /* integers, then a float at row `at` (the column is f) */
  P_FLOATS_INTS,   /* floats, then exact integers */
  P_FLOATS_HUGE,   /* floats, then 2^60+1 at `at` (not exact: s) */
  P_TEXT,          /* text, now and then empty */
  P_DATES,         /* dates as text (d) */
  P_DATES_TEXT,    /* dates, then a word at `at` (s) */
  P_STAMPS,        /* timestamps as text (t) */
  P_LOCAL,         /* SQLite's datetime() text (l: written with a T, so
                   ** read back at the end) */
  P_TEXT_INT,      /* text, then an integer at `at` (s) */
  P_BOOLS,
  P_BYTES,
  P_NULLS_INTS,    /* nulls until `at`, then integers */
  P_NULLS,         /* only nulls */
  P_DATE_VALUES,   /* dates as days (not written ahead) */
  P_COUNT
};

typedef struct plan {
  int kind, at;
} plan;

static void give(jj_builder *b, const plan *p, int row) {
  char text[40];
  int late = row >= p->at;
  switch (p->kind) {
    case P_INTS:
      jj_builder_int(b, row * 7 - 50);
      break;
    case P_INTS_FLOAT:
      late ? jj_builder_double(b, row + 0.5) : jj_builder_int(b, row);
      break;
    case P_FLOATS_INTS:
      late ? jj_builder_int(b, row) : jj_builder_double(b, row * 0.25);
      break;
    case P_FLOATS_HUGE:
      row == p->at ? jj_builder_int(b, ((int64_t)1 << 60) + 1)
                   : jj_builder_double(b, -row * 1.5);
      break;
    case P_TEXT:
      snprintf(text, sizeof text, "t\xC3\xA9xt \"%d\"\n", row);
      jj_builder_text(b, text, row % 5 ? strlen(text) : 0); /* now and then empty */
      break;
    case P_DATES:
    case P_DATES_TEXT:
      if (p->kind == P_DATES_TEXT && row == p->at)
        jj_builder_text(b, "soon", 4);
      else
        snprintf(text, sizeof text, "20%02d-0%d-1%d", row % 100, row % 9 + 1, row % 10),
            jj_builder_text(b, text, 10);
      break;
    case P_STAMPS:
      snprintf(text, sizeof text, "2024-03-0%dT10:%02d:00.5+02:00", row % 9 + 1, row % 60);
      jj_builder_text(b, text, strlen(text));
      break;
    case P_LOCAL:
      snprintf(text, sizeof text, "2024-03-0%d 10:%02d:00", row % 9 + 1, row % 60);
      jj_builder_text(b, text, strlen(text));
      break;
    case P_TEXT_INT:
      if (row == p->at) jj_builder_int(b, row);
      else jj_builder_text(b, "w", 1);
      break;
    case P_BOOLS:
      jj_builder_bool(b, row % 3 == 0);
      break;
    case P_BYTES:
      jj_builder_bytes(b, "\x00\xff\x10", (size_t)(row % 4));
      break;
    case P_NULLS_INTS:
      late ? jj_builder_int(b, row) : jj_builder_null(b);
      break;
    case P_NULLS:
      jj_builder_null(b);
      break;
    default:
      jj_builder_date(b, row * 40);
      break;
  }
}

typedef struct out {
  gen_buf doc, notes;
  jj_code code;
  char message[512];
} out;

/* The table built with fixed columns (written ahead) or without (every
** row kept), the same values in the same order. */
static void build(const plan *plans, int ncol, int rows, const char *schema, unsigned flags,
                  int fixed, size_t memory, int start, gen_rng *order, out *o) {
  jj_build_opts bo;
  memset(&bo, 0, sizeof bo);
  memset(o, 0, sizeof *o);
  bo.schema = schema;
  bo.flags = flags | (fixed ? JJ_BUILD_FIXED_COLUMNS : 0);
  bo.memory = memory;
  bo.note = gen_buf_note;
  bo.note_ctx = &o->notes;
  jj_builder *b = jj_builder_new(&bo, NULL);
  char name[16];
  for (int c = 0; c < ncol; c++) {
    snprintf(name, sizeof name, "c%d", c);
    jj_builder_column(b, name, strlen(name), 0);
  }
  if (start) jj_builder_start(b, gen_buf_sink, &o->doc);
  for (int r = 0; r < rows; r++) {
    int cols[8];
    for (int c = 0; c < ncol; c++) cols[c] = c;
    if (gen_chance(order, 10)) { /* a row in another order */
      for (int c = ncol - 1; c > 0; c--) {
        int k = (int)gen_below(order, (uint64_t)c + 1), t = cols[c];
        cols[c] = cols[k], cols[k] = t;
      }
    }
    for (int k = 0; k < ncol; k++) {
      if (r > 0 && gen_chance(order, 4)) continue; /* left out: null */
      if (fixed) jj_builder_key_at(b, (size_t)cols[k]);
      else snprintf(name, sizeof name, "c%d", cols[k]), jj_builder_key(b, name, strlen(name));
      give(b, &plans[cols[k]], r);
    }
    jj_builder_end_row(b);
  }
  o->code = jj_builder_finish(b, start ? NULL : gen_buf_sink, start ? NULL : &o->doc, NULL);
  snprintf(o->message, sizeof o->message, "%s", o->code ? jj_builder_error(b)->message : "");
  jj_builder_free(b);
  if (o->code) o->doc.len = 0;
  gen_buf_add(&o->doc, "", 1);
  gen_buf_add(&o->notes, "", 1);
}

static int same(const plan *plans, int ncol, int rows, const char *schema, unsigned flags,
                size_t memory, int start, uint64_t seed) {
  out a, b;
  gen_rng r1, r2;
  long failed_before = test_failed_;
  gen_seed(&r1, seed);
  gen_seed(&r2, seed);
  build(plans, ncol, rows, schema, flags, 1, memory, start, &r1, &a);
  build(plans, ncol, rows, schema, flags, 0, memory, 0, &r2, &b);
  CHECK_EQ_INT(a.code, b.code);
  CHECK_EQ_STR(a.message, b.message);
  CHECK_EQ_STR(a.doc.p, b.doc.p);
  CHECK_EQ_STR(a.notes.p, b.notes.p);
  if (test_failed_ != failed_before) {
    fprintf(stderr, "     %d rows, schema %s, memory %zu, start %d, plans:", rows,
            schema ? schema : "-", memory, start);
    for (int c = 0; c < ncol; c++) fprintf(stderr, " %d@%d", plans[c].kind, plans[c].at);
    fprintf(stderr, "\n");
  }
  int ok = a.code == JJ_OK;
  gen_buf_free(&a.doc), gen_buf_free(&a.notes), gen_buf_free(&b.doc), gen_buf_free(&b.notes);
  return ok;
}

TEST(each_kind_of_column_alone_and_changing_mid_row) {
  for (int k = 0; k < P_COUNT; k++) {
    for (int at = 0; at < 3; at++) {
      int when = at == 0 ? 0 : at == 1 ? 1 : 37;
      plan one[1] = {{k, when}};
      same(one, 1, 60, NULL, 0, 0, 0, 1);
      /* the change in the last column, after values written at once */
      plan three[3] = {{P_INTS, 0}, {P_TEXT, 0}, {k, when}};
      same(three, 3, 60, NULL, 0, 0, 1, 2);
      /* and in the first, the others after it kept on the tape */
      plan first[3] = {{k, when}, {P_DATES, 0}, {P_FLOATS_INTS, 5}};
      same(first, 3, 60, NULL, 0, 0, 0, 3);
    }
  }
}

TEST(random_tables_in_memory_and_in_the_temporary_file) {
  gen_rng r;
  int ok = 0, n = 300;
  gen_seed(&r, gen_seed_from_env(0xa4ead));
  for (int t = 0; t < n; t++) {
    plan plans[8];
    int ncol = (int)gen_below(&r, 6) + 1, rows = (int)gen_below(&r, 400);
    for (int c = 0; c < ncol; c++) {
      plans[c].kind = (int)gen_below(&r, P_COUNT);
      plans[c].at = (int)gen_below(&r, 500);
    }
    /* memory 1: every row goes to the temporary file at once */
    size_t memory = t % 3 == 0 ? 1 : t % 3 == 1 ? 300 : 0;
    ok += same(plans, ncol, rows, NULL, 0, memory, t % 2, gen_next(&r));
  }
  printf("build_ahead: %d of %d random tables built, the rest failed alike\n", ok, n);
}

TEST(explicit_types_beside_inferred_and_values_made_null) {
  plan plans[4] = {{P_TEXT_INT, 20}, {P_INTS_FLOAT, 30}, {P_DATES_TEXT, 40}, {P_NULLS_INTS, 3}};
  same(plans, 4, 80, "c0:s,c2:d", 0, 0, 0, 4);
  same(plans, 4, 80, "c0:s,c2:d", JJ_BUILD_BAD_TO_NULL, 0, 1, 5);
  same(plans, 4, 80, "c1:i", JJ_BUILD_BAD_TO_NULL, 100, 0, 6);
  same(plans, 4, 80, "c1:i", 0, 0, 0, 7); /* an error at row 30 */
  same(plans, 4, 80, "c3:b", 0, 0, 1, 8); /* an error at row 3 */
  plan local[2] = {{P_LOCAL, 0}, {P_STAMPS, 0}};
  same(local, 2, 80, "c0:l", 0, 0, 0, 9);
  same(local, 2, 80, "c1:l", JJ_BUILD_BAD_TO_NULL, 0, 1, 10); /* zones made null */
}

TEST(the_length_limit_is_found_at_the_row_that_passes_it) {
  jj_build_opts o;
  memset(&o, 0, sizeof o);
  o.flags = JJ_BUILD_FIXED_COLUMNS;
  o.max_length = 300;
  jj_builder *b = jj_builder_new(&o, NULL);
  jj_builder_column(b, "n", 1, 0);
  jj_code code = JJ_OK;
  int r = 0;
  for (; r < 1000 && !code; r++) {
    jj_builder_key_at(b, 0);
    jj_builder_int(b, 1000000 + r);
    code = jj_builder_end_row(b);
  }
  CHECK_EQ_INT(code, JJ_ERR_LIMIT);
  CHECK(r < 40); /* about 10 bytes a row */
  CHECK_EQ_STR(jj_builder_error(b)->message, "the document would be longer than 300 bytes");
  jj_builder_free(b);
}

int main(void) {
  RUN(each_kind_of_column_alone_and_changing_mid_row);
  RUN(random_tables_in_memory_and_in_the_temporary_file);
  RUN(explicit_types_beside_inferred_and_values_made_null);
  RUN(the_length_limit_is_found_at_the_row_that_passes_it);
  return test_summary("build_ahead");
}
