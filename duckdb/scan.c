/*
** scan.c — read_jj's scan: files and their byte ranges shared out to
** DuckDB's threads, their rows written into DuckDB's chunks.
**
** The global state is the list of files.  A thread that needs work takes
** the next range of the earliest open file; when no open file has one
** left it opens the next file itself (reading or decompressing it, outside
** the lock, so other threads go on with their ranges) and takes that
** file's first range; when every file is taken but one is still being
** opened, it waits for it.  So the files of a glob are read in parallel,
** and a large file's ranges too (range.c).  One thread takes the ranges in
** file and byte order, so rows come in the order of the files and of their
** rows; DuckDB keeps that order (preserve_insertion_order) by not running
** a table function without batch indexes on several threads when it must.
**
** Projection pushdown: only the columns the query asks for are selected
** (jj_cursor_select) and converted; every row's structure is still checked.
** The first error stops the scan: DuckDB reports it, and the other threads
** take no more work.
**
** A file is released when its last range is done: at most the files being
** read are in memory (and those a query that stopped early, LIMIT say, left
** open, until the scan ends).
*/
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "jjduck.h"

enum { UNOPENED, OPENING, OPEN, DONE, FAILED };

typedef struct slot {
  int state;
  jjd_open o;
  size_t next;    /* the next range to hand out */
  size_t active;  /* ranges handed out and not done */
  int64_t rows;   /* rows the done ranges read */
} slot;

typedef struct global {
  const jjd_bind *b;
  pthread_mutex_t mu;
  pthread_cond_t cv;
  slot *files;
  size_t n, next_file, lo;
  int opening, stop;
  size_t err_at;      /* the earliest file that failed, SIZE_MAX none */
  char err[1024];     /* its message */
  size_t ncols;
  size_t *cols; /* per output column: a table column; the table's column
                ** count for filename; above that none (DuckDB's row id) */
  jj_type *types;              /* per output column, its table column's */
  const jj_schema **nested;    /* and its nested schema */
} global;

enum { SRC_NULL = -1, SRC_FILENAME = -2 };

typedef struct local {
  size_t failed;   /* the file of l->msg's error */
  slot *s;         /* the range's file, NULL when none */
  size_t range;
  char *buf;       /* a range's document */
  size_t cap;
  jj_doc *doc;
  jj_cursor *c;
  int *src;        /* per output column: a document column, or SRC_* */
  size_t *sel;
  jjd_out *out;
  int64_t rows;
  char msg[1024];
} local;

static void global_free(void *p) {
  global *g = p;
  if (!g) return;
  for (size_t i = 0; i < g->n; i++) jjd_open_free(&g->files[i].o);
  free(g->files);
  free(g->cols);
  free(g->types);
  free(g->nested);
  pthread_mutex_destroy(&g->mu);
  pthread_cond_destroy(&g->cv);
  free(g);
}

/* How many threads can have work: each file, or a large file's ranges. */
static idx_t threads_for(const jjd_bind *b) {
  if (b->files.n > 1) return b->files.n < 1024 ? b->files.n : 1024;
  if (!b->parallel) return 1;
  struct stat st;
  if (stat(b->files.name[0], &st) != 0) return 1;
  uint64_t size = (uint64_t)st.st_size;
  if (jj_compression_for_path(b->files.name[0]) != JJ_PLAIN) size *= 8;
  uint64_t n = size / JJD_RANGE_BYTES + 1;
  return n < 1024 ? (idx_t)n : 1024;
}

void jjd_init_global(duckdb_init_info info) {
  const jjd_bind *b = duckdb_init_get_bind_data(info);
  global *g = calloc(1, sizeof *g);
  if (!g) {
    duckdb_init_set_error(info, "out of memory");
    return;
  }
  pthread_mutex_init(&g->mu, NULL);
  pthread_cond_init(&g->cv, NULL);
  g->b = b;
  g->n = b->files.n;
  g->err_at = SIZE_MAX;
  g->ncols = duckdb_init_get_column_count(info);
  g->files = calloc(g->n, sizeof *g->files);
  g->cols = malloc((g->ncols ? g->ncols : 1) * sizeof *g->cols);
  g->types = malloc((g->ncols ? g->ncols : 1) * sizeof *g->types);
  g->nested = malloc((g->ncols ? g->ncols : 1) * sizeof *g->nested);
  if (!g->files || !g->cols || !g->types || !g->nested) {
    global_free(g);
    duckdb_init_set_error(info, "out of memory");
    return;
  }
  for (size_t j = 0; j < g->ncols; j++) {
    g->cols[j] = duckdb_init_get_column_index(info, j);
    g->types[j] = jj_schema_type(b->schema, g->cols[j]);
    g->nested[j] = jj_schema_table(b->schema, g->cols[j]);
  }
  duckdb_init_set_init_data(info, g, global_free);
  duckdb_init_set_max_threads(info, threads_for(b));
}

static void local_free(void *p) {
  local *l = p;
  if (!l) return;
  jj_cursor_free(l->c);
  jj_doc_free(l->doc);
  free(l->buf);
  free(l->src);
  free(l->sel);
  free(l->out);
  free(l);
}

void jjd_init_local(duckdb_init_info info) {
  idx_t ncols = duckdb_init_get_column_count(info);
  local *l = calloc(1, sizeof *l);
  size_t n = ncols ? ncols : 1;
  if (l) {
    l->src = malloc(n * sizeof *l->src);
    l->sel = malloc(n * sizeof *l->sel);
    l->out = malloc(n * sizeof *l->out);
  }
  if (!l || !l->src || !l->sel || !l->out) {
    local_free(l);
    duckdb_init_set_error(info, "out of memory");
    return;
  }
  duckdb_init_set_init_data(info, l, local_free);
}

/* Take the next range into l->s and l->range: 1, 0 when there is no more
** work, -1 with l->msg (a file that cannot be opened). */
static int take(global *g, local *l) {
  pthread_mutex_lock(&g->mu);
  for (;;) {
    if (g->stop) break;
    while (g->lo < g->next_file &&
           (g->files[g->lo].state >= DONE ||
            (g->files[g->lo].state == OPEN &&
             g->files[g->lo].next == g->files[g->lo].o.ncuts)))
      g->lo++;
    for (size_t i = g->lo; i < g->next_file; i++) {
      slot *s = &g->files[i];
      if (s->state == OPEN && s->next < s->o.ncuts) {
        l->s = s;
        l->range = s->next++;
        s->active++;
        pthread_mutex_unlock(&g->mu);
        return 1;
      }
    }
    if (g->next_file < g->n) {
      size_t i = g->next_file++;
      slot *s = &g->files[i];
      s->state = OPENING;
      g->opening++;
      pthread_mutex_unlock(&g->mu);
      int rc = jjd_open_file(&s->o, g->b, i, l->msg, sizeof l->msg);
      pthread_mutex_lock(&g->mu);
      g->opening--;
      s->state = rc == 0 ? OPEN : FAILED;
      pthread_cond_broadcast(&g->cv);
      if (rc != 0) {
        g->stop = 1;
        l->failed = i;
        pthread_mutex_unlock(&g->mu);
        return -1;
      }
      continue;
    }
    if (g->opening == 0) break;
    pthread_cond_wait(&g->cv, &g->mu);
  }
  pthread_mutex_unlock(&g->mu);
  return 0;
}

/* Make the range l took readable: its document, cursor, columns.  0, or
** -1 with l->msg. */
static int start(global *g, local *l) {
  jj_error err;
  size_t len;
  errno = 0;
  const char *p = jjd_range_bytes(&l->s->o, l->range, &l->buf, &l->cap, &len);
  if (!p || !(l->doc = jj_parse(p, len, &err)) ||
      !(l->c = jj_cursor_new(l->doc, &err))) {
    if (p)
      snprintf(l->msg, sizeof l->msg, "%s: %s", l->s->o.path, err.message);
    else
      snprintf(l->msg, sizeof l->msg, "%s: cannot read it: %s", l->s->o.path,
               errno ? strerror(errno) : "out of memory");
    return -1;
  }
  size_t table = jj_schema_columns(g->b->schema), nsel = 0;
  for (size_t j = 0; j < g->ncols; j++) {
    size_t t = g->cols[j];
    if (t < table) {
      l->src[j] = l->s->o.map[t];
      if (l->src[j] >= 0) l->sel[nsel++] = (size_t)l->src[j];
    } else {
      l->src[j] = t == table && g->b->filename ? SRC_FILENAME : SRC_NULL;
    }
  }
  /* No column asked for (count(*)): one selected, the least work; the
  ** rows are still found and checked. */
  if (nsel == 0 && jj_schema_columns(jj_doc_schema(l->doc)) > 0)
    l->sel[nsel++] = 0;
  jj_cursor_select(l->c, l->sel, nsel, NULL);
  l->rows = 0;
  return 0;
}

/* Give the range back.  Its file is released with its last range; a split
** file's rows are then counted against its header's "count".  0, or -1
** with l->msg. */
static int finish(global *g, local *l, int ok) {
  slot *s = l->s;
  jj_cursor_free(l->c);
  jj_doc_free(l->doc);
  l->c = NULL;
  l->doc = NULL;
  l->s = NULL;
  pthread_mutex_lock(&g->mu);
  s->rows += l->rows;
  s->active--;
  int last = s->next == s->o.ncuts && s->active == 0 && s->state == OPEN;
  if (last) s->state = DONE;
  pthread_mutex_unlock(&g->mu);
  if (!last) return 0;
  int rc = 0;
  int64_t count = jj_doc_declared_count(s->o.doc);
  if (ok && s->o.head && count >= 0 && count != s->rows) {
    size_t n = 0;
    for (size_t j = 0; j < g->ncols; j++)
      if (l->src[j] >= 0) l->sel[n++] = (size_t)l->src[j];
    if (!jjd_locate(&s->o, l->sel, n, l->msg, sizeof l->msg))
      snprintf(l->msg, sizeof l->msg, "%s: the header's count is %lld but "
               "the rows are %lld", s->o.path, (long long)count,
               (long long)s->rows);
    rc = -1;
  }
  jjd_open_free(&s->o);
  return rc;
}

/* The error of the range being read, err, as the user sees it: with the
** row, column and byte of the whole file.  Sets l->msg. */
static void range_error(global *g, local *l, const jj_error *err) {
  if (!l->s->o.head) {
    snprintf(l->msg, sizeof l->msg, "%s: %s", l->s->o.path, err->message);
    return;
  }
  size_t n = 0;
  for (size_t j = 0; j < g->ncols; j++)
    if (l->src[j] >= 0) l->sel[n++] = (size_t)l->src[j];
  if (!jjd_locate(&l->s->o, l->sel, n, l->msg, sizeof l->msg))
    snprintf(l->msg, sizeof l->msg, "%s: its rows span lines where it was "
             "cut for parallel reading; read it with read_jj(..., parallel "
             ":= false)", l->s->o.path);
}

/* Stop the scan with l->msg, the error of file l->failed.  When several
** threads fail at once the error of the earliest file is the one reported,
** once every earlier file being opened has been opened: files of other
** columns are reported as one thread reading them in order would report
** them, whatever the threads' timing. */
static void fail(duckdb_function_info info, global *g, local *l) {
  pthread_mutex_lock(&g->mu);
  g->stop = 1;
  if (l->failed < g->err_at) {
    g->err_at = l->failed;
    memcpy(g->err, l->msg, sizeof g->err);
  }
  for (;;) {
    int earlier = 0;
    for (size_t i = g->lo; i < g->err_at && i < g->next_file; i++)
      if (g->files[i].state == OPENING) earlier = 1;
    if (!earlier) break;
    pthread_cond_wait(&g->cv, &g->mu);
  }
  memcpy(l->msg, g->err, sizeof l->msg);
  pthread_mutex_unlock(&g->mu);
  duckdb_function_set_error(info, l->msg);
}

void jjd_scan(duckdb_function_info info, duckdb_data_chunk output) {
  global *g = duckdb_function_get_init_data(info);
  local *l = duckdb_function_get_local_init_data(info);
  idx_t cap = duckdb_vector_size(), row = 0;
  for (size_t j = 0; j < g->ncols; j++)
    jjd_out_begin(&l->out[j], duckdb_data_chunk_get_vector(output, j));
  while (row < cap) {
    if (!l->s) {
      int r = take(g, l);
      if (r == 0) break;
      if (r > 0) l->failed = (size_t)(l->s - g->files);
      if (r < 0 || start(g, l) != 0) {
        if (r > 0) finish(g, l, 0);
        fail(info, g, l);
        return;
      }
    }
    jj_error err;
    int r = jj_cursor_next(l->c, &err);
    if (r == 0) {
      if (finish(g, l, 1) != 0) {
        fail(info, g, l);
        return;
      }
      continue;
    }
    for (size_t j = 0; r > 0 && j < g->ncols; j++) {
      int src = l->src[j];
      if (src >= 0) {
        if (jjd_put(l->c, (size_t)src, g->types[j], g->nested[j], &l->out[j],
                    row, &err) != 0)
          r = -1;
      } else if (src == SRC_FILENAME) {
        duckdb_vector_assign_string_element(l->out[j].vec, row, l->s->o.path);
      } else {
        jjd_out_null(&l->out[j], row);
      }
    }
    if (r < 0) {
      range_error(g, l, &err);
      finish(g, l, 0);
      fail(info, g, l);
      return;
    }
    l->rows++;
    row++;
  }
  duckdb_data_chunk_set_size(output, row);
}
