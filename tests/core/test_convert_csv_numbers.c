/*
** test_convert_csv_numbers.c — CSV numbers as spreadsheets write them
** (".097", "-.5", "5.", "+5"): numbers in a column of numbers, with a
** note naming the first and the count; the field as it is in a column of
** text; read by an explicit i or f schema; quoted or not, as any number.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_convert.h"

TEST(sheet_numbers_inferred) {
  conv_out out;
  CHECK_EQ_INT(conv("area\trate\tn\nA\t.097\t+5\nB\t5.\t7\nC\t-.5\t-2\n"
                    "D\t1.5e3\t+0\n",
                    NULL, 0, &out),
               JJ_OK);
  CHECK_EQ_STR(body(&out),
               "\"columns\":[\"area\",\"rate\",\"n\"],\"types\":[\"s\",\"f\","
               "\"i\"],\"rows\":[\n[\"A\",0.097,5],\n[\"B\",5.0,7],\n"
               "[\"C\",-0.5,-2],\n[\"D\",1500.0,0]\n]}");
  CHECK(strstr(out.notes.p,
               "column \"rate\": 3 numbers written as spreadsheets write "
               "them (first: row 1, \".097\") read as floats\n") != NULL);
  CHECK(strstr(out.notes.p,
               "column \"n\": 2 numbers written as spreadsheets write them "
               "(first: row 1, \"+5\") read as integers\n") != NULL);
  conv_free(&out);
  /* in a column of text they stay as written, with no such note */
  CHECK_EQ_INT(conv("a\n.5\nx\n+5\n", NULL, 0, &out), JJ_OK);
  CHECK_EQ_STR(body(&out),
               "\"columns\":[\"a\"],\"types\":[\"s\"],\"rows\":[\n"
               "[\".5\"],\n[\"x\"],\n[\"+5\"]\n]}");
  CHECK(strstr(out.notes.p, "spreadsheets") == NULL);
  conv_free(&out);
  /* not numbers: leading zeros, a lone point, two signs; quoting only
  ** tells null from "", as for any number */
  CHECK_EQ_INT(conv("a,b,c,d\n007,.,+-1,\".5\"\n", NULL, 0, &out), JJ_OK);
  CHECK_EQ_STR(body(&out),
               "\"columns\":[\"a\",\"b\",\"c\",\"d\"],\"types\":[\"s\",\"s\","
               "\"s\",\"f\"],\"rows\":[\n[\"007\",\".\",\"+-1\",0.5]\n]}");
  conv_free(&out);
}

TEST(sheet_numbers_schema) {
  conv_out out;
  CHECK_EQ_INT(conv("rate,n\n.097,+5\n5.,3\n", "rate:f,n:i", 0, &out), JJ_OK);
  CHECK_EQ_STR(body(&out),
               "\"columns\":[\"rate\",\"n\"],\"types\":[\"f\",\"i\"],"
               "\"rows\":[\n[0.097,5],\n[5.0,3]\n]}");
  CHECK(strstr(out.notes.p, "column \"rate\": 2 numbers written as "
                            "spreadsheets write them (first: row 1, "
                            "\".097\") read as floats\n") != NULL);
  conv_free(&out);
  /* "5." is not an integer: the error shows it as written */
  CHECK_CONV_ERR("n\n5.\n", "n:i", 0, JJ_ERR_TYPE,
                 "in: row 1, column \"n\", byte 2: \"5.\" is not an "
                 "integer (the schema says n:i)");
  /* a text schema keeps them as written */
  CHECK_EQ_INT(conv("rate\n.097\n", "rate:s", 0, &out), JJ_OK);
  CHECK_EQ_STR(body(&out), "\"columns\":[\"rate\"],\"types\":[\"s\"],"
                           "\"rows\":[\n[\".097\"]\n]}");
  conv_free(&out);
}

int main(void) {
  RUN(sheet_numbers_inferred);
  RUN(sheet_numbers_schema);
  return test_summary("convert_csv_numbers");
}
