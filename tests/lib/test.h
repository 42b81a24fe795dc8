/*
** test.h — the smallest harness that does the job: a test program is a
** list of cases (TEST functions, each run by RUN), a case is made of
** checks, failures print file:line and the values, and each program ends
** with
**   return test_summary("name");
** which prints "name: N checks" and then "name: N passed, N failed",
** counting cases: a case passes when every check it made passed, however
** many a loop inside it made.  tests/run.sh adds the second lines up.
**
**   TEST(reader_rejects_feb_29_in_common_year) { ... CHECK(...); }
**   int main(void) { RUN(reader_rejects_feb_29_in_common_year); return test_summary("reader"); }
**
** State lives in static variables of the one test program that includes
** this header (tests are single-threaded programs, not library code).
*/
#ifndef JJ_TEST_H
#define JJ_TEST_H

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static long test_passed_;  /* checks */
static long test_failed_;
static long test_cases_passed_;
static long test_cases_failed_;
static int test_outside_;  /* checks made outside any RUN: one more case */
static int test_in_case_;
static const char *test_current_ = "";

#define TEST(name) static void name(void)
#define RUN(name)                                    \
  do {                                               \
    long failed_before_ = test_failed_;              \
    test_current_ = #name;                           \
    test_in_case_ = 1;                               \
    name();                                          \
    test_in_case_ = 0;                               \
    if (test_failed_ == failed_before_)              \
      test_cases_passed_++;                          \
    else                                             \
      test_cases_failed_++;                          \
  } while (0)

/* Record one check; print where and why when it fails. */
static int test_check_(int ok, const char *file, int line, const char *what) {
  if (!test_in_case_) test_outside_ |= ok ? 1 : 2;
  if (ok) {
    test_passed_++;
  } else {
    test_failed_++;
    fprintf(stderr, "FAIL %s:%d in %s: %s\n", file, line, test_current_, what);
  }
  return ok;
}

#define CHECK(cond) test_check_(!!(cond), __FILE__, __LINE__, #cond)

#define CHECK_EQ_INT(a, b)                                                    \
  do {                                                                        \
    int64_t a_ = (int64_t)(a), b_ = (int64_t)(b);                             \
    if (!test_check_(a_ == b_, __FILE__, __LINE__, #a " == " #b))             \
      fprintf(stderr, "     %" PRId64 " != %" PRId64 "\n", a_, b_);           \
  } while (0)

#define CHECK_EQ_U64(a, b)                                                    \
  do {                                                                        \
    uint64_t a_ = (uint64_t)(a), b_ = (uint64_t)(b);                          \
    if (!test_check_(a_ == b_, __FILE__, __LINE__, #a " == " #b))             \
      fprintf(stderr, "     %" PRIu64 " (0x%016" PRIx64 ") != %" PRIu64       \
                      " (0x%016" PRIx64 ")\n", a_, a_, b_, b_);               \
  } while (0)

#define CHECK_EQ_STR(a, b)                                                    \
  do {                                                                        \
    const char *a_ = (a), *b_ = (b);                                          \
    int ok_ = a_ && b_ && strcmp(a_, b_) == 0;                                \
    if (!test_check_(ok_, __FILE__, __LINE__, #a " == " #b))                  \
      fprintf(stderr, "     got:  %s\n     want: %s\n", a_ ? a_ : "(null)",   \
              b_ ? b_ : "(null)");                                            \
  } while (0)

#define CHECK_EQ_MEM(a, alen, b, blen)                                        \
  do {                                                                        \
    const void *a_ = (a), *b_ = (b);                                          \
    size_t al_ = (size_t)(alen), bl_ = (size_t)(blen);                        \
    int ok_ = al_ == bl_ && (al_ == 0 || (a_ && b_ && !memcmp(a_, b_, al_))); \
    if (!test_check_(ok_, __FILE__, __LINE__, #a " == " #b))                  \
      fprintf(stderr, "     got:  %.*s (%zu bytes)\n     want: %.*s (%zu bytes)\n", \
              (int)(al_ > 200 ? 200 : al_), a_ ? (const char *)a_ : "",       \
              al_, (int)(bl_ > 200 ? 200 : bl_), b_ ? (const char *)b_ : "",  \
              bl_);                                                           \
  } while (0)

/* Print the checks, then the cases; nonzero exit status when a check
** failed. */
static int test_summary(const char *suite) {
  if (test_outside_ & 2)
    test_cases_failed_++;
  else if (test_outside_)
    test_cases_passed_++;
  printf("%s: %ld checks\n", suite, test_passed_ + test_failed_);
  printf("%s: %ld passed, %ld failed\n", suite, test_cases_passed_,
         test_cases_failed_);
  return test_failed_ ? 1 : 0;
}

#endif /* JJ_TEST_H */
