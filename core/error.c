/*
** error.c — the one error value of the library: codes, messages, and the
** rendering of input that messages quote.
**
** Messages follow SQLite's voice: lowercase, no trailing period, the place
** first, then what is wrong with the offending input quoted:
**   row 1042, column "joined", byte 65123: "2023-02-29" is not a date
**   (2023 is not a leap year)
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* Static names of the codes, in enum order: one string, a NUL after each
** and one more at the end, walked name by name (no table of pointers:
** 0.04 KB of the reader-only WebAssembly module gzipped; only messages
** ask).  A code past the last name finds the final NUL: "unknown". */
const char *jj_code_name(jj_code code) {
  static const char names[] =
      "ok\0out of memory\0usage\0io\0compression\0syntax\0depth\0header\0"
      "version\0schema\0row\0count\0type\0range\0utf8\0date\0timestamp\0"
      "base64\0limit\0interrupted\0";
  const char *p = names;
  for (unsigned i = 0; i < (unsigned)code && *p; i++) p += strlen(p) + 1;
  return *p ? p : "unknown";
}

void jj_free(void *p) { free(p); }

void jj_error_clear(jj_error *err) {
  if (!err) return;
  err->code = JJ_OK;
  err->offset = JJ_NO_OFFSET;
  err->row = 0;
  err->column = -1;
  err->message[0] = '\0';
}

/* Append to a fixed message buffer, never overflowing it: snprintf
** truncates, and `used` saturates at the capacity. */
static void msg_append(char *msg, size_t cap, size_t *used, const char *fmt,
                       ...) JJ_PRINTF(4, 5);
static void msg_append(char *msg, size_t cap, size_t *used, const char *fmt,
                       ...) {
  va_list ap;
  if (*used + 1 >= cap) return;
  va_start(ap, fmt);
  int n = vsnprintf(msg + *used, cap - *used, fmt, ap);
  va_end(ap);
  if (n < 0) return;
  *used += (size_t)n;
  if (*used >= cap) *used = cap - 1;
}

jj_code jj_vfail(jj_error *err, jj_code code, const jj_where *where,
                 const char *fmt, va_list ap) {
  if (!err) return code;
  size_t used = 0, cap = sizeof err->message;
  const char *sep = "";
  err->code = code;
  err->offset = JJ_NO_OFFSET;
  err->row = 0;
  err->column = -1;
  err->message[0] = '\0';
  if (where) {
    err->offset = where->offset;
    if (where->path) {
      err->row = where->outer_row;
      err->column = where->outer_column;
      msg_append(err->message, cap, &used, "%s", where->path);
    } else {
      err->row = where->row;
      err->column = where->column;
    }
    if (where->row > 0) {
      msg_append(err->message, cap, &used, "row %lld", (long long)where->row);
      sep = ", ";
    }
    if (where->column_name) {
      msg_append(err->message, cap, &used, "%scolumn \"%s\"", sep,
                 where->column_name);
      sep = ", ";
    } else if (where->column >= 0) {
      msg_append(err->message, cap, &used, "%scolumn %d", sep,
                 where->column + 1);
      sep = ", ";
    }
    if (where->offset != JJ_NO_OFFSET) {
      msg_append(err->message, cap, &used, "%sbyte %zu", sep, where->offset);
      sep = ", ";
    }
    if (*sep) msg_append(err->message, cap, &used, ": ");
  }
  if (used + 1 < cap) {
    int n = vsnprintf(err->message + used, cap - used, fmt, ap);
    (void)n;
  }
  return code;
}

jj_code jj_fail(jj_error *err, jj_code code, const jj_where *where,
                const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  jj_vfail(err, code, where, fmt, ap);
  va_end(ap);
  return code;
}

/* Render input for a message, cut after `limit` bytes of it.  Printable
** ASCII and valid multibyte UTF-8 are shown as they are; everything else as
** \xHH, so a message is always valid, printable UTF-8 whatever the input
** was. */
static char *show(char *out, size_t cap, const char *p, size_t len, int quote,
                  size_t limit) {
  size_t o = 0, i = 0;
  if (cap < 16) {
    if (cap) out[0] = '\0';
    return out;
  }
  cap -= 6; /* room for the closing quote, "..." and NUL */
  if (quote) out[o++] = '"';
  while (i < len && i < limit && o + 4 < cap) {
    unsigned char c = (unsigned char)p[i];
    if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\') {
      out[o++] = (char)c;
      i++;
      continue;
    }
    if (c >= 0x80) {
      size_t n = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 1;
      if (n > 1 && i + n <= len && jj_utf8_valid(p + i, n, NULL) &&
          o + n < cap) {
        memcpy(out + o, p + i, n);
        o += n;
        i += n;
        continue;
      }
    }
    if (c == '"' || c == '\\') {
      out[o++] = '\\';
      out[o++] = (char)c;
    } else {
      static const char hex[] = "0123456789abcdef";
      out[o++] = '\\';
      out[o++] = 'x';
      out[o++] = hex[c >> 4];
      out[o++] = hex[c & 15];
    }
    i++;
  }
  if (quote) out[o++] = '"';
  if (i < len) {
    memcpy(out + o, "...", 3);
    o += 3;
  }
  out[o] = '\0';
  return out;
}

/* See internal.h: values are cut short, names of files less so. */
char *jj_show(char *out, size_t cap, const char *p, size_t len, int quote) {
  return show(out, cap, p, len, quote, 40);
}

const char *jj_show_path(char *out, const char *path) {
  return show(out, JJ_PATH_CAP, path, strlen(path), 1, JJ_PATH_SHOWN);
}

/* See internal.h: the value as a message quotes it. */
const char *jj_show_value(char *out, const char *p, size_t len) {
  if (len >= 2 && p[0] == '"') return jj_show(out, JJ_SHOW_CAP, p + 1, len - 2, 1);
  if (len && p[0] == '[') return strcpy(out, "an array");
  if (len && p[0] == '{') return strcpy(out, "an object");
  return jj_show(out, JJ_SHOW_CAP, p, len, 0);
}
