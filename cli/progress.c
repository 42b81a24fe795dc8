/*
** progress.c — the progress line on stderr.
**
** Work that takes more than a second shows one line, redrawn in place
** ("\r", then erase to the end of the line):
**
**   people.csv: pass 1 of 2   41.9 MB / 120.0 MB  35%  52.3 MB/s
**
** Nothing is drawn unless the caller says so (stderr is a terminal and
** --quiet was not given), so a pipe or a log file never sees it.  The
** line is cut to the terminal's width and erased when the work ends, so
** the messages that follow start on a clean line.
*/
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

#define PROGRESS_DELAY 1.0      /* seconds before the first line */
#define PROGRESS_INTERVAL 0.125 /* seconds between two lines */

double cli_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void cli_progress_begin(cli_progress *p, int on, const char *label,
                        uint64_t total) {
  memset(p, 0, sizeof *p);
  p->on = on;
  p->label = label;
  p->total = total;
  p->unit = "";
  p->start = p->phase_start = cli_now();
}

void cli_progress_phase(cli_progress *p, const char *label, uint64_t total) {
  p->label = label;
  p->total = total;
  p->done = 0;
  p->phase_start = cli_now();
}

/* n bytes as "12.3 MB" (powers of 1000, as transfer rates are given). */
static void human(char *out, size_t cap, double n) {
  static const char *const units[] = {"B", "kB", "MB", "GB", "TB", "PB"};
  size_t u = 0;
  while (n >= 1000 && u + 1 < sizeof units / sizeof *units) {
    n /= 1000;
    u++;
  }
  if (u == 0)
    snprintf(out, cap, "%.0f B", n);
  else
    snprintf(out, cap, "%.1f %s", n, units[u]);
}

/* The terminal's width, or 80. */
static size_t term_width(void) {
  struct winsize ws;
  if (ioctl(2, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 10) return ws.ws_col;
  return 80;
}

void cli_progress_update(cli_progress *p, uint64_t done) {
  p->done = done;
  if (!p->on) return;
  double now = cli_now();
  if (now - p->start < PROGRESS_DELAY) return;
  if (p->drawn && now - p->last < PROGRESS_INTERVAL) return;
  p->last = now;
  char line[512], a[32], b[32], r[32];
  double secs = now - p->phase_start;
  size_t n;
  if (*p->unit) {
    n = (size_t)snprintf(line, sizeof line, "\r\033[K%s  %llu %s", p->label,
                         (unsigned long long)done, p->unit);
  } else {
    human(a, sizeof a, (double)done);
    human(r, sizeof r, secs > 0 ? (double)done / secs : 0);
    if (p->total) {
      human(b, sizeof b, (double)p->total);
      unsigned pct = done >= p->total
                         ? 100
                         : (unsigned)((double)done * 100 / (double)p->total);
      n = (size_t)snprintf(line, sizeof line, "\r\033[K%s  %s / %s  %u%%  %s/s",
                           p->label, a, b, pct, r);
    } else {
      n = (size_t)snprintf(line, sizeof line, "\r\033[K%s  %s  %s/s", p->label,
                           a, r);
    }
  }
  if (n >= sizeof line) n = sizeof line - 1;
  /* Cut to the width (the 4 bytes of "\r\033[K" take no room; the label
  ** is a file name and may be UTF-8, cut on a character boundary). */
  size_t width = term_width() - 1, cols = 0, k = 4;
  while (k < n) {
    unsigned char ch = (unsigned char)line[k];
    size_t step = ch < 0x80 ? 1 : ch >= 0xf0 ? 4 : ch >= 0xe0 ? 3 : 2;
    if (cols + 1 > width || k + step > n) break;
    k += step;
    cols++;
  }
  fwrite(line, 1, k, stderr);
  fflush(stderr);
  p->drawn = 1;
}

void cli_progress_end(cli_progress *p) {
  if (p->drawn) {
    fputs("\r\033[K", stderr);
    fflush(stderr);
  }
  p->drawn = 0;
}
