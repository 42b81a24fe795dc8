/*
** range.c — one file of a scan opened, and its rows cut into byte ranges
** that DuckDB's threads read at the same time.
**
** The canonical layout (SPEC.md, "Canonical form") puts the header and
** "rows":[ on the first line and one row per line, rows ending in ",\n".
** A file that starts so, and is larger than two ranges, is cut near every
** JJD_RANGE_BYTES at a line end that ends a row (",\n" followed by "[").
** Each range is read as a document of its own: a header of the file's
** columns (without "count", which counts the whole file), the range's rows
** without the last ",", then "\n]}"; the last range keeps the file's own
** end.  The core checks each range's rows as it checks any document's.
**
** A plain file cut so is never read whole: the header comes from a prefix
** (as at bind), and each range is read from the file into its thread's
** buffer with pread, after the header, so the file's bytes are read once
** and copied nowhere else.  A gzip or brotli file is decompressed into
** memory first and cut there.  A file that is not cut (small, not laid out
** canonically, or parallel := false) is read whole, as the SQLite
** extension reads it.
**
** Why a range's rows are the file's rows: a range that starts or ends
** inside a row (a file whose rows span lines, which readers accept) cannot
** read as a document: the part of a row before the cut has an unclosed
** '[', so the document's end does not parse.  Every such case is an error,
** never other rows.  An error of a range, and a row count that differs
** from the header's "count", are then reported by the serial walk
** (jjd_locate), which reads the file from its start as one thread would
** and names the row, column and byte in the whole file, as the SQLite
** extension does; if the walk finds nothing wrong, the file is valid but
** its rows span lines where it was cut, and the error says to read it
** with parallel := false.
*/
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "jjduck.h"

void jjd_open_free(jjd_open *o) {
  jj_doc_free(o->doc);
  jj_file_close(&o->file);
  if (o->has_fd) close(o->fd);
  free(o->map);
  free(o->head);
  free(o->cuts);
  memset(o, 0, sizeof *o);
}

/* The table's columns mapped to the document's: the same columns, or
** with union_by_name each of the document's found in the union with its
** type.  0, or -1 with a message. */
static int map_columns(jjd_open *o, const jjd_bind *b, char *msg,
                       size_t cap) {
  const jj_schema *s = jj_doc_schema(o->doc);
  size_t n = jj_schema_columns(b->schema), m = jj_schema_columns(s);
  if (!(o->map = malloc((n ? n : 1) * sizeof *o->map))) {
    snprintf(msg, cap, "out of memory");
    return -1;
  }
  if (!b->union_by_name) {
    size_t col;
    if (!jj_schema_equal(b->schema, s, &col)) {
      if (col < n && col < m)
        snprintf(msg, cap, "%s: not the columns of %s: column %zu differs: "
                 "declared \"%s\" %s, found \"%s\" %s (read_jj(..., "
                 "union_by_name := true) reads files of other columns)",
                 o->path, b->files.name[0], col + 1,
                 jj_schema_name(b->schema, col, NULL),
                 jj_type_short(jj_schema_type(b->schema, col)),
                 jj_schema_name(s, col, NULL),
                 jj_type_short(jj_schema_type(s, col)));
      else
        snprintf(msg, cap, "%s: not the columns of %s: %zu columns instead "
                 "of %zu (read_jj(..., union_by_name := true) reads files of "
                 "other columns)", o->path, b->files.name[0], m, n);
      return -1;
    }
    for (size_t i = 0; i < n; i++) o->map[i] = (int)i;
    return 0;
  }
  for (size_t i = 0; i < n; i++) o->map[i] = -1;
  for (size_t c = 0; c < m; c++) {
    size_t len;
    const char *name = jj_schema_name(s, c, &len);
    int u = jjd_find_column(b->schema, name, len);
    if (u < 0) {
      snprintf(msg, cap, "%s: column \"%s\" is not a column of the table: "
               "with union_by_name its columns are those of the files found "
               "when the query was planned", o->path, name);
      return -1;
    }
    jj_type t = jj_schema_type(s, c), ut = jj_schema_type(b->schema, (size_t)u);
    if (t != ut || (t == JJ_TABLE &&
                    !jj_schema_equal(jj_schema_table(s, c),
                                     jj_schema_table(b->schema, (size_t)u),
                                     NULL))) {
      snprintf(msg, cap, "%s: column \"%s\" is %s here, %s in %s (with "
               "union_by_name a column has one type in every file)", o->path,
               name, jj_type_short(t), jj_type_short(ut), b->from[u]);
      return -1;
    }
    o->map[u] = (int)c;
  }
  return 0;
}

/* The header each range is read with: {"jalapenojson":1, the document's
** columns and types, "rows":[ and a newline.  0, or -1 out of memory. */
static int make_head(jjd_open *o) {
  size_t len;
  char *cols = jj_schema_to_json(jj_doc_schema(o->doc), &len);
  if (!cols) return -1;
  static const char first[] = "{\"jalapenojson\":1,", last[] = ",\"rows\":[\n";
  /* cols is {"columns":[...],"types":[...]}: its inside, between the
  ** header's first key and "rows". */
  o->head_len = sizeof first - 1 + (len - 2) + sizeof last - 1;
  o->head = malloc(o->head_len);
  if (o->head) {
    memcpy(o->head, first, sizeof first - 1);
    memcpy(o->head + sizeof first - 1, cols + 1, len - 2);
    memcpy(o->head + sizeof first - 1 + len - 2, last, sizeof last - 1);
  }
  jj_free(cols);
  return o->head ? 0 : -1;
}

/* The bytes of the document at [at, at + n) into p: from memory, or read
** from the file.  The count read (fewer at the end), -1 on a read error. */
static long bytes_at(const jjd_open *o, uint64_t at, char *p, size_t n) {
  if (!o->has_fd) {
    if (at >= o->size) return 0;
    if (n > o->size - at) n = (size_t)(o->size - at);
    memcpy(p, o->file.data + at, n);
    return (long)n;
  }
  size_t got = 0;
  while (got < n) {
    ssize_t r = pread(o->fd, p + got, n - got, (off_t)(at + got));
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) return -1;
    if (r == 0) break;
    got += (size_t)r;
  }
  return (long)got;
}

/* The first line end at or after p that ends a row and starts another
** (",\n" then "["): the offset just after it, 0 when there is none. */
static uint64_t next_cut(const jjd_open *o, uint64_t p) {
  char win[65536];
  while (p < o->size) {
    long n = bytes_at(o, p - 1, win, sizeof win);
    if (n < 3) return 0;
    /* win[i] is byte p - 1 + i: a '\n' at i >= 1 has its ',' at i - 1
    ** and its '[' at i + 1 in this window. */
    for (long i = 1; i + 1 < n; i++) {
      const char *e = memchr(win + i, '\n', (size_t)(n - 1 - i));
      if (!e) break;
      i = e - win;
      if (win[i - 1] == ',' && win[i + 1] == '[') return p - 1 + (uint64_t)i + 1;
    }
    p += (uint64_t)n - 2;
  }
  return 0;
}

/* Cut the rows, from `at`, into ranges of about JJD_RANGE_BYTES.  0, or
** -1 out of memory. */
static int cut(jjd_open *o, uint64_t at) {
  size_t cap = (size_t)((o->size - at) / JJD_RANGE_BYTES) + 2, n = 0;
  size_t *cuts = malloc((cap + 1) * sizeof *cuts);
  if (!cuts) return -1;
  cuts[n++] = (size_t)at;
  while (n < cap && o->size - at > JJD_RANGE_BYTES + JJD_RANGE_BYTES / 2) {
    uint64_t p = next_cut(o, at + JJD_RANGE_BYTES);
    if (!p) break;
    cuts[n++] = (size_t)(at = p);
  }
  cuts[n] = (size_t)o->size;
  if (n < 2) {
    free(cuts);
    return 0;
  }
  free(o->cuts);
  o->cuts = cuts;
  o->ncuts = n;
  return make_head(o);
}

/* Where the rows start when the header and "rows":[ end the first line
** of data[0..len), the canonical layout; else 0. */
static size_t rows_start(const char *data, size_t len) {
  static const char rows[] = "\"rows\":[";
  const char *nl = len ? memchr(data, '\n', len) : NULL;
  if (!nl || (size_t)(nl - data) < sizeof rows - 1 ||
      memcmp(nl - (sizeof rows - 1), rows, sizeof rows - 1) != 0)
    return 0;
  return (size_t)(nl - data) + 1;
}

/* The file's header from a prefix; 1 when the file is then to be read in
** ranges from the file (o->fd open, o->size its size, *at where its rows
** start), 0 when it is to be read whole (nothing kept), -1 with a
** message. */
static int open_prefix(jjd_open *o, const jjd_bind *b, size_t *at, char *msg,
                       size_t cap) {
  jj_error err;
  jj_file_opts opts;
  memset(&opts, 0, sizeof opts);
  opts.max_size = b->max_size;
  opts.prefix = 65536;
  if (jj_file_open_opts(o->path, &opts, &o->file, &err) != JJ_OK) {
    snprintf(msg, cap, "%s%s", err.message,
             err.code == JJ_ERR_LIMIT ? " (read_jj's max_size option raises "
                                        "the limit; 0 is none)" : "");
    return -1;
  }
  struct stat st;
  if (o->file.complete || o->file.compression != JJ_PLAIN ||
      !(o->doc = jj_parse(o->file.data, o->file.len, NULL)) ||
      !(*at = rows_start(o->file.data, o->file.len)) ||
      (o->fd = open(o->path, O_RDONLY | O_CLOEXEC)) < 0 ||
      !(o->has_fd = 1) || fstat(o->fd, &st) != 0 || !S_ISREG(st.st_mode) ||
      (uint64_t)st.st_size - *at < 2 * JJD_RANGE_BYTES) {
    jj_doc_free(o->doc);
    o->doc = NULL;
    jj_file_close(&o->file);
    if (o->has_fd) close(o->fd);
    o->has_fd = 0;
    return 0;
  }
  o->size = (uint64_t)st.st_size;
  return 1;
}

/* The first file before file i (in the glob's order) whose header does not
** have the table's columns, or i.  Threads open files out of order: a
** query over files of other columns names this one whichever thread
** meets a misfit first, so the error is the same on every run. */
static size_t first_misfit(const jjd_bind *b, size_t i) {
  for (size_t j = 1; j < i; j++) {
    /* the header as the bind read the first file's: from as long a
    ** prefix as it takes */
    int64_t count;
    uint64_t size;
    char msg[64];
    jj_schema *s = jjd_read_header(b->files.name[j], &count, &size, msg,
                                   sizeof msg);
    if (!s) continue; /* its own error comes when it is read */
    int differs = !jj_schema_equal(b->schema, s, NULL);
    jj_schema_free(s);
    if (differs) return j;
  }
  return i;
}

int jjd_open_file(jjd_open *o, const jjd_bind *b, size_t i, char *msg,
                  size_t cap) {
  jj_error err;
  jj_file_opts opts;
  size_t at = 0;
  memset(o, 0, sizeof *o);
  o->path = b->files.name[i];
  o->max_size = b->max_size;
  int split = b->parallel ? open_prefix(o, b, &at, msg, cap) : 0;
  if (split < 0) return -1;
  if (!split) { /* the whole document in memory */
    memset(&opts, 0, sizeof opts);
    opts.max_size = b->max_size;
    if (jj_file_open_opts(o->path, &opts, &o->file, &err) != JJ_OK) {
      snprintf(msg, cap, "%s%s", err.message,
               err.code == JJ_ERR_LIMIT ? " (read_jj's max_size option "
                                          "raises the limit; 0 is none)" : "");
      return -1;
    }
    o->size = o->file.len;
    if (!(o->doc = jj_parse(o->file.data, o->file.len, &err))) {
      snprintf(msg, cap, "%s: %s", o->path, err.message);
      return -1;
    }
    at = rows_start(o->file.data, o->file.len);
  }
  if (map_columns(o, b, msg, cap) != 0) {
    size_t j = b->union_by_name ? i : first_misfit(b, i);
    if (j == i) return -1;
    jjd_open_free(o);
    return jjd_open_file(o, b, j, msg, cap); /* fails with j's message */
  }
  o->ncuts = 1;
  if (!(o->cuts = malloc(2 * sizeof *o->cuts))) {
    snprintf(msg, cap, "out of memory");
    return -1;
  }
  o->cuts[0] = 0;
  o->cuts[1] = (size_t)o->size;
  /* A compressed file, decompressed, is cut in memory as a plain one is
  ** from the file. */
  if ((split || (b->parallel && at)) && o->size - at >= 2 * JJD_RANGE_BYTES &&
      cut(o, at) != 0) {
    snprintf(msg, cap, "out of memory");
    return -1;
  }
  return 0;
}

const char *jjd_range_bytes(const jjd_open *o, size_t k, char **buf,
                            size_t *cap, size_t *len) {
  if (!o->head) {
    *len = o->file.len;
    return o->file.data;
  }
  size_t a = o->cuts[k], b = o->cuts[k + 1];
  int last = k + 1 == o->ncuts;
  size_t need = o->head_len + (b - a) + 3;
  if (need > *cap) {
    char *p = realloc(*buf, need);
    if (!p) return NULL;
    *buf = p;
    *cap = need;
  }
  memcpy(*buf, o->head, o->head_len);
  long got = bytes_at(o, a, *buf + o->head_len, b - a);
  if (got < 0) return NULL;
  *len = o->head_len + (size_t)got;
  /* A range before the last ends in ",\n": its rows without them, then the
  ** end of a document.  (A file that shrank reads short: its range then
  ** fails to read, and the walk says why.) */
  if (!last && (size_t)got == b - a) {
    *len -= 2;
    memcpy(*buf + *len, "\n]}", 3);
    *len += 3;
  }
  return *buf;
}

int jjd_locate(const jjd_open *o, const size_t *cols, size_t n, char *msg,
               size_t cap) {
  jj_error err;
  int found = 1, r = 0;
  /* The whole file, and a document of the walk's own: the scan's may be
  ** in another thread, and a file read in ranges is not in memory. */
  jj_file whole;
  jj_file_opts opts;
  memset(&opts, 0, sizeof opts);
  opts.max_size = o->max_size;
  if (jj_file_open_opts(o->path, &opts, &whole, &err) != JJ_OK) {
    snprintf(msg, cap, "%s", err.message);
    return 1;
  }
  jj_doc *doc = jj_parse(whole.data, whole.len, &err);
  jj_cursor *c = doc ? jj_cursor_new(doc, &err) : NULL;
  if (c) {
    const jj_schema *s = jj_doc_schema(doc);
    size_t all = jj_schema_columns(s);
    if (n) jj_cursor_select(c, cols, n, NULL);
    found = 0;
    while (!found && (r = jj_cursor_next(c, &err)) == 1)
      for (size_t i = 0; !found && i < (n ? n : all); i++) {
        size_t col = n ? cols[i] : i;
        found = jjd_check(c, col, jj_schema_type(s, col),
                          jj_schema_table(s, col), &err) != 0;
      }
    if (r < 0) found = 1;
  }
  if (found) snprintf(msg, cap, "%s: %s", o->path, err.message);
  jj_cursor_free(c);
  jj_doc_free(doc);
  jj_file_close(&whole);
  return found;
}
