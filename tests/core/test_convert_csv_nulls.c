/*
** test_convert_csv_nulls.c — jj_convert's texts that mean null in CSV:
** null_text and null_texts together ("NA", ".", "-", "NULL"), the empty
** field kept or not, quoted fields never null, the markers against
** JJ_CONVERT_CSV_EMPTY_IS_TEXT, and the options' bad uses.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_convert.h"

static jj_code conv_nulls(const char *text, const char *first,
                          const char *const *more, size_t n, unsigned flags,
                          conv_out *out) {
  jj_convert_opts o;
  memset(&o, 0, sizeof o);
  o.null_text = first;
  o.null_texts = more;
  o.n_null_texts = n;
  o.flags = flags;
  return conv_opts(text, strlen(text), o, out);
}

static const char input[] =
    "rate,note\n4.5,ok\nNA,\n.,NA\n6.25,\".\"\nNULL,NULL\n";

TEST(null_markers) {
  static const char *const more[] = {".", "NULL"};
  static const char *const with_empty[] = {"NA", ".", "NULL"};
  conv_out out;
  /* NA, . and NULL are null; the empty field is then text, as with one
  ** null_text; a quoted "." is text */
  CHECK_EQ_INT(conv_nulls(input, "NA", more, 2, 0, &out), JJ_OK);
  CHECK_EQ_STR(body(&out),
               "\"columns\":[\"rate\",\"note\"],\"types\":[\"f\",\"s\"],"
               "\"rows\":[\n[4.5,\"ok\"],\n[null,\"\"],\n[null,null],\n"
               "[6.25,\".\"],\n[null,null]\n]}");
  conv_free(&out);
  /* "" first keeps the empty field null */
  CHECK_EQ_INT(conv_nulls(input, "", with_empty, 3, 0, &out), JJ_OK);
  CHECK_EQ_STR(body(&out),
               "\"columns\":[\"rate\",\"note\"],\"types\":[\"f\",\"s\"],"
               "\"rows\":[\n[4.5,\"ok\"],\n[null,null],\n[null,null],\n"
               "[6.25,\".\"],\n[null,null]\n]}");
  conv_free(&out);
  /* only the list, no null_text: the list alone */
  CHECK_EQ_INT(conv_nulls(input, NULL, with_empty, 3, 0, &out), JJ_OK);
  CHECK_EQ_STR(body(&out),
               "\"columns\":[\"rate\",\"note\"],\"types\":[\"f\",\"s\"],"
               "\"rows\":[\n[4.5,\"ok\"],\n[null,\"\"],\n[null,null],\n"
               "[6.25,\".\"],\n[null,null]\n]}");
  conv_free(&out);
  /* empty is text wins over "" among the markers */
  CHECK_EQ_INT(conv_nulls(input, "", with_empty, 3,
                          JJ_CONVERT_CSV_EMPTY_IS_TEXT, &out),
               JJ_OK);
  CHECK(strstr(body(&out), "[null,\"\"],\n") != NULL);
  conv_free(&out);
  /* without markers the column of NA and . is text, as before */
  CHECK_EQ_INT(conv_nulls(input, NULL, NULL, 0, 0, &out), JJ_OK);
  CHECK(strstr(body(&out), "\"types\":[\"s\",\"s\"]") != NULL);
  conv_free(&out);
  /* TSV with CRLF and a BOM: the same */
  CHECK_EQ_INT(conv_nulls("\xEF\xBB\xBFr\tn\r\n.\tx\r\n1\tNULL\r\n", "NA",
                          more, 2, 0, &out),
               JJ_OK);
  CHECK_EQ_STR(body(&out),
               "\"columns\":[\"r\",\"n\"],\"types\":[\"i\",\"s\"],"
               "\"rows\":[\n[null,\"x\"],\n[1,null]\n]}");
  conv_free(&out);
}

TEST(null_markers_misused) {
  static const char *const holes[] = {"NA", NULL};
  static const char *many[JJ_CONVERT_MAX_NULLS + 1];
  conv_out out;
  CHECK_EQ_INT(conv_nulls(input, NULL, holes, 2, 0, &out), JJ_ERR_USAGE);
  CHECK_EQ_STR(out.err.message, "in: null text 2 is NULL");
  conv_free(&out);
  for (size_t k = 0; k < JJ_CONVERT_MAX_NULLS + 1; k++) many[k] = "x";
  CHECK_EQ_INT(conv_nulls(input, NULL, many, JJ_CONVERT_MAX_NULLS + 1, 0,
                          &out),
               JJ_ERR_USAGE);
  CHECK_EQ_STR(out.err.message, "in: at most 16 null texts");
  conv_free(&out);
  CHECK_EQ_INT(conv_nulls(input, NULL, many, JJ_CONVERT_MAX_NULLS, 0, &out),
               JJ_OK);
  conv_free(&out);
}

int main(void) {
  RUN(null_markers);
  RUN(null_markers_misused);
  return test_summary("convert_csv_nulls");
}
