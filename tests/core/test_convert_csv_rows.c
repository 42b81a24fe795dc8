/*
** test_convert_csv_rows.c — jj_convert on CSV rows that do not fit: short
** rows padded with nulls (JJ_CONVERT_CSV_NULL_PADDING), rows set aside or
** values made null (jj_convert_opts.on_error) with every row set aside
** given to the reject callback, the notes that tell both, and the same
** through CRLF, a byte order mark, TSV and windows cut short.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_convert.h"

/* The rows set aside, as "row R col C code: message" lines. */
static void reject_line(void *ctx, const jj_error *e, const char *col,
                        size_t col_len) {
  char line[512];
  int n = snprintf(line, sizeof line, "row %lld col %.*s %s: %s\n",
                   (long long)e->row, col ? (int)col_len : 1, col ? col : "-",
                   jj_code_name(e->code), e->message);
  tbuf_sink(ctx, line, (size_t)n);
}

static jj_code conv_rows(const char *text, const char *schema, unsigned flags,
                         jj_on_error on, conv_out *out, tbuf *rej) {
  jj_convert_opts o;
  memset(&o, 0, sizeof o);
  o.schema = schema;
  o.flags = flags;
  o.on_error = on;
  o.reject = reject_line;
  o.reject_ctx = rej;
  memset(rej, 0, sizeof *rej);
  jj_code code = conv_opts(text, strlen(text), o, out);
  if (!rej->p) tbuf_sink(rej, "", 0);
  return code;
}

static const char releases[] =
    "version,codename,release,eol,eol-lts\n"
    "1.1,Buzz,1996-06-17,1997-06-05\n"
    "7,Wheezy,2013-05-04,2016-04-26,2018-05-31\n"
    "13,Trixie\n";

TEST(short_rows_padded) {
  conv_out out;
  tbuf rej;
  CHECK_CONV_ERR(releases, NULL, 0, JJ_ERR_ROW,
                 "in: row 1, byte 37: expected 5 fields (as in the header), "
                 "found 4");
  CHECK_EQ_INT(conv_rows(releases, NULL, JJ_CONVERT_CSV_NULL_PADDING,
                         JJ_ON_ERROR_FAIL, &out, &rej),
               JJ_OK);
  CHECK_EQ_STR(body(&out),
               "\"columns\":[\"version\",\"codename\",\"release\",\"eol\","
               "\"eol-lts\"],\"types\":[\"f\",\"s\",\"d\",\"d\",\"d\"],"
               "\"rows\":[\n"
               "[1.1,\"Buzz\",\"1996-06-17\",\"1997-06-05\",null],\n"
               "[7.0,\"Wheezy\",\"2013-05-04\",\"2016-04-26\",\"2018-05-31\"],\n"
               "[13.0,\"Trixie\",null,null,null]\n]}");
  CHECK(strstr(out.notes.p,
               "2 rows had fewer fields than the header (first: row 1, 4 of "
               "5): padded with nulls\n") != NULL);
  CHECK_EQ_U64(out.res.padded, 2);
  CHECK_EQ_U64(out.res.rejected, 0);
  CHECK_EQ_STR(rej.p, "");
  conv_free(&out);
  tbuf_free(&rej);
  /* a long row is still an error with padding */
  CHECK_CONV_ERR("a,b\n1,2,3\n", NULL, JJ_CONVERT_CSV_NULL_PADDING,
                 JJ_ERR_ROW,
                 "in: row 1, byte 4: expected 2 fields (as in the header), "
                 "found 3");
  /* a padded null is a null for inference: an int column stays int */
  CHECK_CONV("a,b,c\n1,x\n2,y,3\n", NULL, JJ_CONVERT_CSV_NULL_PADDING,
             "\"columns\":[\"a\",\"b\",\"c\"],\"types\":[\"i\",\"s\",\"i\"],"
             "\"rows\":[\n[1,\"x\",null],\n[2,\"y\",3]\n]}");
  /* a forced column takes the padded null */
  CHECK_CONV("a,b\n1\n", "b:d", JJ_CONVERT_CSV_NULL_PADDING,
             "\"columns\":[\"a\",\"b\"],\"types\":[\"i\",\"d\"],"
             "\"rows\":[\n[1,null]\n]}");
}

static const char rates[] =
    "id,rate\n1,4.5\n2,NA\n3,1,extra\n4,\n5,oops\n6,7\n";

TEST(rows_set_aside) {
  conv_out out;
  tbuf rej;
  CHECK_EQ_INT(
      conv_rows(rates, "rate:f", 0, JJ_ON_ERROR_SKIP, &out, &rej), JJ_OK);
  CHECK_EQ_STR(body(&out),
               "\"columns\":[\"id\",\"rate\"],\"types\":[\"i\",\"f\"],"
               "\"rows\":[\n[1,4.5],\n[4,null],\n[6,7.0]\n]}");
  CHECK_EQ_STR(rej.p,
               "row 2 col rate type: in: row 2, column \"rate\", byte 16: "
               "\"NA\" is not a float (exactly) (the schema says rate:f)\n"
               "row 3 col - row: in: row 3, byte 19: expected 2 fields (as "
               "in the header), found 3\n"
               "row 5 col rate type: in: row 5, column \"rate\", byte 34: "
               "\"oops\" is not a float (exactly) (the schema says rate:f)\n");
  CHECK(strstr(out.notes.p,
               "3 rows set aside (first: in: row 2, column \"rate\", byte "
               "16: \"NA\" is not a float (exactly) (the schema says "
               "rate:f))\n") != NULL);
  CHECK_EQ_INT(out.res.rows, 3);
  CHECK_EQ_U64(out.res.rejected, 3);
  conv_free(&out);
  tbuf_free(&rej);
  /* null: the values become null, the long row is set aside */
  CHECK_EQ_INT(
      conv_rows(rates, "rate:f", 0, JJ_ON_ERROR_NULL, &out, &rej), JJ_OK);
  CHECK_EQ_STR(body(&out),
               "\"columns\":[\"id\",\"rate\"],\"types\":[\"i\",\"f\"],"
               "\"rows\":[\n[1,4.5],\n[2,null],\n[4,null],\n[5,null],\n"
               "[6,7.0]\n]}");
  CHECK_EQ_STR(rej.p,
               "row 3 col - row: in: row 3, byte 19: expected 2 fields (as "
               "in the header), found 3\n");
  CHECK_EQ_U64(out.res.nulled, 2);
  CHECK_EQ_U64(out.res.rejected, 1);
  conv_free(&out);
  tbuf_free(&rej);
  /* skip with padding: the short row padded, nothing set aside */
  CHECK_EQ_INT(conv_rows("a,b\n1\n2,3,4\n5,6\n", NULL,
                         JJ_CONVERT_CSV_NULL_PADDING, JJ_ON_ERROR_SKIP, &out,
                         &rej),
               JJ_OK);
  CHECK_EQ_STR(body(&out),
               "\"columns\":[\"a\",\"b\"],\"types\":[\"i\",\"i\"],"
               "\"rows\":[\n[1,null],\n[5,6]\n]}");
  CHECK_EQ_INT(out.res.rejected, 1);
  conv_free(&out);
  tbuf_free(&rej);
  /* a row set aside for its field count takes no part in inference (its
  ** "x\xff" would make column a text); bad UTF-8 sets a row aside too */
  CHECK_EQ_INT(conv_rows("a,b\n1,2\nx\xff,3,9\n4,5\n", NULL, 0,
                         JJ_ON_ERROR_SKIP, &out, &rej),
               JJ_OK);
  CHECK_EQ_STR(body(&out),
               "\"columns\":[\"a\",\"b\"],\"types\":[\"i\",\"i\"],"
               "\"rows\":[\n[1,2],\n[4,5]\n]}");
  conv_free(&out);
  tbuf_free(&rej);
  CHECK_EQ_INT(conv_rows("a,b\n1,2\nx\xff,3\n4,5\n", NULL, 0,
                         JJ_ON_ERROR_SKIP, &out, &rej),
               JJ_OK);
  CHECK_EQ_STR(rej.p,
               "row 2 col a utf8: in: row 2, column \"a\", byte 9: "
               "\"x\\xff\" is not valid UTF-8\n");
  CHECK_EQ_INT(out.res.rows, 2);
  conv_free(&out);
  tbuf_free(&rej);
  /* a broken quote still stops: where the row ends is not known */
  CHECK_EQ_INT(conv_rows("a,b\n\"x\"y,1\n2,3\n", NULL, 0, JJ_ON_ERROR_SKIP,
                         &out, &rej),
               JJ_ERR_SYNTAX);
  conv_free(&out);
  tbuf_free(&rej);
  /* an unknown on_error is a usage error */
  CHECK_EQ_INT(conv_rows("a\n1\n", NULL, 0, (jj_on_error)7, &out, &rej),
               JJ_ERR_USAGE);
  conv_free(&out);
  tbuf_free(&rej);
}

/* CRLF, a BOM, TSV: the same rows set aside and kept. */
TEST(shapes_agree) {
  const char *shapes[] = {
      "id,rate\r\n1,4.5\r\n2,NA\r\n3,1,extra\r\n4\r\n",
      "\xEF\xBB\xBFid,rate\n1,4.5\n2,NA\n3,1,extra\n4\n",
      "id\trate\n1\t4.5\n2\tNA\n3\t1\textra\n4\n",
  };
  for (size_t i = 0; i < sizeof shapes / sizeof *shapes; i++) {
    conv_out out;
    tbuf rej;
    CHECK_EQ_INT(conv_rows(shapes[i], "rate:f", JJ_CONVERT_CSV_NULL_PADDING,
                           JJ_ON_ERROR_SKIP, &out, &rej),
                 JJ_OK);
    CHECK_EQ_STR(body(&out),
                 "\"columns\":[\"id\",\"rate\"],\"types\":[\"i\",\"f\"],"
                 "\"rows\":[\n[1,4.5],\n[4,null]\n]}");
    CHECK(strncmp(rej.p, "row 2 col rate type: ", 21) == 0);
    CHECK(strstr(rej.p, "\nrow 3 col - row: ") != NULL);
    conv_free(&out);
    tbuf_free(&rej);
  }
}

/* Many rows set aside across window refills, through an input read a few
** bytes at a time: kept + set aside = every record. */
typedef struct slow {
  const char *p;
  size_t len, at;
} slow;

static long slow_read(void *ctx, char *buf, size_t cap) {
  slow *s = ctx;
  size_t n = s->len - s->at;
  if (n > 7) n = 7;
  if (n > cap) n = cap;
  memcpy(buf, s->p + s->at, n);
  s->at += n;
  return (long)n;
}

static int slow_rewind(void *ctx) {
  ((slow *)ctx)->at = 0;
  return 0;
}

static void count_reject(void *ctx, const jj_error *e, const char *col,
                         size_t col_len) {
  (void)col;
  (void)col_len;
  int64_t *seen = ctx;
  seen[0]++;
  seen[1] += e->row;
}

TEST(many_rows_set_aside) {
  tbuf text = {0}, doc = {0};
  int64_t want_rows = 0, want_sum = 0, seen[2] = {0, 0};
  char line[64];
  tbuf_sink(&text, "n,x\n", 4);
  for (int r = 1; r <= 3000; r++) {
    int n = r % 7 == 0   ? snprintf(line, sizeof line, "%d,%d,%d\n", r, r, r)
            : r % 5 == 0 ? snprintf(line, sizeof line, "%d\n", r)
                         : snprintf(line, sizeof line, "%d,%d\n", r, r);
    tbuf_sink(&text, line, (size_t)n);
    if (r % 7 == 0 || r % 5 == 0)
      want_sum += r;
    else
      want_rows++;
  }
  slow s = {text.p, text.len, 0};
  jj_input in;
  memset(&in, 0, sizeof in);
  in.read = slow_read;
  in.rewind = slow_rewind;
  in.ctx = &s;
  jj_convert_opts o;
  memset(&o, 0, sizeof o);
  o.on_error = JJ_ON_ERROR_SKIP;
  o.reject = count_reject;
  o.reject_ctx = seen;
  jj_convert_result res;
  jj_error err;
  CHECK_EQ_INT(jj_convert(&in, &o, tbuf_sink, &doc, &res, &err), JJ_OK);
  CHECK_EQ_INT(res.rows, want_rows);
  CHECK_EQ_INT(seen[0] + res.rows, 3000);
  CHECK_EQ_INT(seen[1], want_sum);
  CHECK_EQ_U64(res.rejected, (uint64_t)seen[0]);
  jj_schema_free(res.schema);
  tbuf_free(&text);
  tbuf_free(&doc);
}

int main(void) {
  RUN(short_rows_padded);
  RUN(rows_set_aside);
  RUN(shapes_agree);
  RUN(many_rows_set_aside);
  return test_summary("convert_csv_rows");
}
