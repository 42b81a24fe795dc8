/*
** transcript.h — what the differential harnesses share (fuzz_scan_paths.c,
** fuzz_select.c): printf-style text appended to a jj_buf, the transcript
** two readers of one input are compared on.
*/
#ifndef JJ_FUZZ_TRANSCRIPT_H
#define JJ_FUZZ_TRANSCRIPT_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "internal.h"

/* Append printf-style text to b (out of memory aborts: a harness bug). */
static inline void add(jj_buf *b, const char *fmt, ...) JJ_PRINTF(2, 3);
static inline void add(jj_buf *b, const char *fmt, ...) {
  char line[512];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(line, sizeof line, fmt, ap);
  va_end(ap);
  if (n < 0) abort();
  if (jj_buf_append(b, line, (size_t)n < sizeof line ? (size_t)n : sizeof line - 1)) abort();
}

#endif /* JJ_FUZZ_TRANSCRIPT_H */
