/*
** ext.h — what the files of the SQLite extension share: the extension API
** pointer, one error helper per error sink, resolving a SOURCE argument to
** an open document, a byte buffer on SQLite's allocator (buf.h).  A column type's
** names (SQL declared type, short name) are the core's: jj_type_sql,
** jj_type_short.
**
** Files:
**   jalapenojson.c  the entry point: registration only
**   util.c          the helpers declared here: errors, dequoting,
**                   excerpts, what a SOURCE looks like
**   buf.c           the byte buffer (buf.h)
**   settings.c      per-connection settings (jj_max_size), interrupt polling
**                   and progress ticks of long reads
**   notes.c         decisions of the writing functions: jj_notes(),
**                   sqlite3_log
**   convert_source.c  a JSON, NDJSON, CSV or TSV file as a SOURCE,
**                   converted whole and cached
**   source.c        SOURCE (BLOB, document TEXT, file path, NULL) -> jj_doc
**   header.c        ... or only its header (source_raw.h: what the two
**                   share)
**   decl.c          the SOURCE argument of CREATE VIRTUAL TABLE as written
**   glob.c          a file name with glob characters: what it is, its
**                   bounds; the filename constraints of a scan
**   glob_walk.c     a pattern -> the files it names, walked within bounds
**   cache.c         the per-connection document cache, and jj_cache (its
**                   listing, a table-valued function)
**   union.c         union_by_name: a glob's columns merged by name, and
**                   each document's columns mapped onto them
**   typed.c         the typed form's options, declaration, shape messages
**   vtab.c          the jj_open module (record form and typed tables):
**                   connecting, planning's arguments, xFilter; calls the
**                   four below it (open_table.h: what the five share)
**   scan.c          its cursor moving over rows and a glob's files
**   column.c        its values: xColumn, xRowid
**   plan.c          its xBestIndex (plan.h: the idxNum bits it shares)
**   pushdown.c      the WHERE comparisons the typed table decides itself
**   schema_vtab.c   the jj_schema table-valued function
**   build_value.c   SQLite's values into the core's row builder (the
**                   one place storage classes meet it): jj_group's and
**                   jj_export's values, nested documents as nested rows
**   group.c         the jj_group aggregate, over the row builder
**   write.c         the jj_write function
**   convert_sql.c   jj_from_json, jj_from_csv: JSON / CSV -> a document
**   convert_opts.c  the converter's options as SQL spells them (one table
**                   of keys for all of the above), the OPTIONS text
**                   (convert_opts.h: what the converter's entries share)
**   rejects.c       the rows a conversion set aside: jj_rejects
**   record.c        the record form's fast ->, ->>, json_extract
**   export.c        the jj_export function (a query streamed to a file)
**   target.c        the targets both may not replace: the connection's
**                   own database files
**
** Nothing in ext/ scans JSON bytes: every byte of a document is read by the
** core library (core/jalapenojson.h), ext/ only moves values across.
*/
#ifndef JJ_EXT_H
#define JJ_EXT_H

#include <stddef.h>
#include <stdint.h>

#include "sqlite3ext.h"
#include "jalapenojson.h"
#include "buf.h"
#include "convert_opts.h"

/* Every file but jalapenojson.c sees the API pointer that file defines. */
#ifndef JJX_ENTRY_FILE
SQLITE_EXTENSION_INIT3
#endif

/* JJX_INLINE: inline even where the compiler would not (hot paths whose
** call was measured to cost); JJX_COLD: out of line and laid out away from
** the hot code (error paths, rare types); JJX_LIKELY: the branch taken. */
#if defined(__GNUC__) || defined(__clang__)
#define JJX_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))
#define JJX_INLINE inline __attribute__((always_inline))
#define JJX_COLD __attribute__((noinline, cold))
#define JJX_LIKELY(x) __builtin_expect(!!(x), 1)
#else
#define JJX_PRINTF(fmt, args)
#define JJX_INLINE inline
#define JJX_COLD
#define JJX_LIKELY(x) (x)
#endif

/* ---------------------------------------------------------------------- */
/* Errors: one helper per sink, each frees the message it replaces.        */
/* ---------------------------------------------------------------------- */

/* The formatting helpers below use SQLite's printf (sqlite3_vmprintf): it
** has %lld, %s, %w, %Q but no %zu (its %z means "free this string"); cast
** sizes to long long. */

/* Set the table's error message (pVtab->zErrMsg), freeing the old one, and
** return SQLITE_ERROR, so that a method can return what this returns. */
int jjx_vtab_err(sqlite3_vtab *vtab, const char *fmt, ...) JJX_PRINTF(2, 3);
/* The same for a cursor: SQLite reads cursor errors from its table. */
int jjx_cursor_err(sqlite3_vtab_cursor *cur, const char *fmt, ...)
    JJX_PRINTF(2, 3);
/* A byte-count setting's function, fn([N]) (jj_max_size, jj_cache_size):
** the result is the setting's value before the call; with N, an integer >=
** 0, *setting becomes N and 1 is returned (the caller applies it).  0 when
** there is no N, or when N is not such an integer: then the call fails
** with "<fn>: expected a number of bytes >= 0 (0: <zero>)", *setting as it
** was.  In util.c, which both settings' files use. */
int jjx_byte_setting(sqlite3_context *ctx, int argc, sqlite3_value **argv,
                     const char *fn, const char *zero, uint64_t *setting);
/* Fail a function call with a formatted message (sqlite3_result_error
** copies it; the formatted text is freed here).  Out of memory while
** formatting fails the call with SQLITE_NOMEM instead. */
void jjx_ctx_err(sqlite3_context *ctx, const char *fmt, ...) JJX_PRINTF(2, 3);
/* Hand an already formatted message (sqlite3_malloc'd, may be NULL for out
** of memory) to a table: frees the old message, takes ownership of msg.
** Returns SQLITE_NOMEM when msg is NULL, else `rc`. */
int jjx_vtab_take(sqlite3_vtab *vtab, char *msg, int rc);
/* A table of the connection's own state (jj_cache, jj_rejects): declared
** as `decl` (CREATE TABLE x(...)), direct use only, holding the settings
** (aux).  Its xDisconnect is jjx_vtab_disconnect. */
typedef struct jjx_state_table {
  sqlite3_vtab base;
  struct jjx_settings *cfg;
} jjx_state_table;
int jjx_state_connect(sqlite3 *db, void *aux, const char *decl,
                      sqlite3_vtab **ppVtab);
/* xDisconnect of a table that holds nothing it must free. */
int jjx_vtab_disconnect(sqlite3_vtab *vtab);
/* A zeroed cursor of `size` bytes (its struct begins with the base). */
int jjx_cursor_new(size_t size, sqlite3_vtab_cursor **ppCur);
/* A cursor over n rows xFilter copied (jj_cache, jj_rejects): its struct
** begins with this; its xNext, xEof and xRowid are the three below. */
typedef struct jjx_snapshot {
  sqlite3_vtab_cursor base;
  int n, i; /* rows, the current one */
} jjx_snapshot;
int jjx_snapshot_next(sqlite3_vtab_cursor *cur);
int jjx_snapshot_eof(sqlite3_vtab_cursor *cur);
int jjx_snapshot_rowid(sqlite3_vtab_cursor *cur, sqlite3_int64 *pRowid);

/* The SQLite result code for a core error code. */
/* The JSON subtype SQLite's JSON functions recognise (its json.c's
** JSON_SUBTYPE): a record carrying it is embedded by json_object('r',
** record) as an object, not a string (column.c, record.c). */
#define JSON_SUBTYPE 74

int jjx_rc(jj_code code);

/* A boolean option value in csv.c's spellings, ASCII case ignored: 1 for
** 1/yes/on/true, 0 for 0/no/off/false, -1 for anything else.  The typed
** table's options and jj_from_json/jj_from_csv's use the same words. */
int jjx_parse_bool(const char *z);
/* Remove SQL quoting ('x', "x", [x], `x`) from z[0..n), into a new string
** (sqlite3_free).  Unquoted text is copied as it is. */
char *jjx_dequote(const char *z, size_t n);

/* ---------------------------------------------------------------------- */
/* Per-connection settings (settings.c)                                    */
/* ---------------------------------------------------------------------- */

/* The default of jj_max_size(): the most document bytes a scan holds (a
** file read, a BLOB copied or anything decompressed), 1 GiB. */
#define JJX_DEFAULT_MAX_SIZE ((uint64_t)1 << 30)
/* Connecting a typed table and jj_schema read only a document's header:
** the first JJX_HEADER_FIRST bytes, doubled until the header is complete,
** at most JJX_HEADER_LIMIT bytes (decompressed), whatever the options. */
#define JJX_HEADER_FIRST ((size_t)4096)
#define JJX_HEADER_LIMIT ((size_t)1 << 20)

/* What one connection's registrations share (their pAux / user data).
** Allocated by the entry point; every registration holds a reference and
** releases it in its destructor, the last one frees it, so the settings
** live as long as any module, table or function that can see them. */
/* The default of jj_cache_size(): the most document bytes the connection's
** cache keeps for later statements, 256 MiB. */
#define JJX_DEFAULT_CACHE_SIZE ((uint64_t)256 << 20)

/* The document cache (cache.c): files opened by scans, decompressed and
** parsed, with their row index, kept for the next statement while the file
** is unchanged (jj_file_changed: one stat per open).  An entry is shared by
** the sources reading it (refs); one evicted or replaced while in use is
** detached (cache NULL) and freed by its last reader. */
typedef struct jjx_centry jjx_centry;
typedef struct jjx_cache {
  jjx_centry *head, *tail; /* most recently used first */
  uint64_t used;           /* document bytes of the entries listed */
  uint64_t budget;         /* jj_cache_size(): 0 disables the cache */
} jjx_cache;
struct jjx_centry {
  jjx_centry *prev, *next; /* the cache's list */
  jjx_cache *cache;        /* NULL once detached */
  char *path;              /* as opened; sqlite3_free */
  char *conv;              /* a converted file: its converter options'
                           ** canonical text (NULL: none); sqlite3_free */
  char *notes;             /* a converted file: the converter's decisions,
                           ** one a line, for jj_schema; sqlite3_free */
  unsigned parse_flags;    /* how doc was parsed (JJ_PARSE_VALIDATE) */
  jj_file file;            /* the bytes */
  jj_doc *doc;             /* reads file.data; keeps its row index */
  int refs;                /* sources reading it */
  int64_t hits;            /* statements that found it here */
};

/* Take a valid entry for path (parsed with `flags`, converted with the
** options `conv` (canonical text, NULL: none), at most max_size bytes, 0:
** any) with a reference, or NULL (an entry of a changed file is dropped
** on the way). */
jjx_centry *jjx_cache_get(jjx_cache *c, const char *path, unsigned flags,
                          const char *conv, uint64_t max_size);
/* Wrap an opened file and its document (both taken over, *f zeroed) into an
** entry with one reference, kept by the cache when it fits its budget
** (least recently used entries not in use are evicted to make room), else
** detached.  NULL when out of memory (then f and doc are released). */
jjx_centry *jjx_cache_put(jjx_cache *c, const char *path, unsigned flags,
                          const char *conv, jj_file *f, jj_doc *doc);
void jjx_cache_release(jjx_centry *e);
/* Evict until `used` fits the budget (entries in use are detached). */
void jjx_cache_trim(jjx_cache *c, uint64_t budget);

/* What one connection's registrations share (their pAux / user data).
** Allocated by the entry point; every registration holds a reference and
** releases it in its destructor, the last one frees it, so the settings
** live as long as any module, table or function that can see them. */
typedef struct jjx_settings {
  int refs;          /* registrations holding it (changed under the db mutex) */
  uint64_t max_size; /* jj_max_size(): 0 means no limit */
  jjx_cache cache;   /* documents kept between statements */
  int exporting;     /* a jj_export is running its query (export.c): one
                     ** reached again from that query is refused */
  char *notes;       /* jj_notes(): the last call's decisions; sqlite3_free */
  int notes_lost;    /* ... or they did not fit in memory */
  struct jjx_reject_set *rejects; /* jj_rejects (rejects.c), newest first */
  int rejects_lost;  /* rows set aside did not fit in memory */
} jjx_settings;

jjx_settings *jjx_settings_new(void);
/* Take / drop a reference; the destructor passed to SQLite is unref. */
void *jjx_settings_ref(jjx_settings *s);
void jjx_settings_unref(void *s);
/* jj_max_size([N]), SQLITE_DIRECTONLY. */
void jjx_max_size_func(sqlite3_context *ctx, int argc, sqlite3_value **argv);

/* Decisions of type inference (notes.c): a jjx_notes collects one call's
** (jjx_note is the core's note callback, ctx the jjx_notes); when the call
** succeeds, jjx_notes_publish makes them what jj_notes() returns, else
** jjx_notes_discard drops them.  Either frees what was collected. */
typedef struct jjx_notes {
  const char *fn;    /* the function, for sqlite3_log */
  sqlite3_str *text; /* the sentences, one a line; NULL before the first */
  int count;
  int lost;          /* one did not fit in memory */
} jjx_notes;
void jjx_notes_begin(jjx_notes *n, const char *fn);
void jjx_note(void *ctx, const char *msg);
void jjx_notes_publish(jjx_notes *n, jjx_settings *s);
void jjx_notes_discard(jjx_notes *n);
/* jj_notes(). */
void jjx_notes_func(sqlite3_context *ctx, int argc, sqlite3_value **argv);

/* jj_version(): the library's version string (version.c). */
void jjx_version_func(sqlite3_context *ctx, int argc, sqlite3_value **argv);
/* jj_cache_size([N]), SQLITE_DIRECTONLY. */
void jjx_cache_size_func(sqlite3_context *ctx, int argc, sqlite3_value **argv);

/* Interrupt polling and progress ticks for long reads.  SQLite calls the
** progress handler only between virtual machine steps of the statement
** running, and a load inside xFilter (reading, decompressing a document)
** runs none: jjx_poll_tick runs steps of a nested "SELECT 1, 2, ..., 40"
** on the same connection.  Its VM-step counter accumulates across steps (SQLite keeps
** it through sqlite3_reset), so the handler runs every N of those steps,
** as for any statement; a handler returning nonzero makes the step fail
** with SQLITE_INTERRUPT, and so does sqlite3_interrupt().  The statement
** is prepared at the first tick (a short read never prepares it) and
** lives until jjx_poll_end: one left prepared would keep sqlite3_close()
** from closing the connection (a scan's lives as long as its cursor). */
#define JJX_TICK_MIB 100 /* VM steps a MiB read or decompressed counts as */
#define JJX_TICK_FILE 10 /* VM steps a glob's file opened counts as */
#define JJX_TICK_HEADER 1 /* ... and one whose header only is read (CREATE
                          ** of union_by_name, jj_schema): a few KiB read,
                          ** where 10 steps would cost ~5% more */
typedef struct jjx_poll {
  sqlite3 *db;         /* NULL: never interrupted, no ticks */
  sqlite3_stmt *probe; /* "SELECT 1, 2, ..., 40", or NULL */
  int tried;           /* the probe's prepare was tried */
  int owed;            /* steps counted minus steps the probe ran (<= 0
                       ** after a tick: it runs ahead, never behind) */
} jjx_poll;
void jjx_poll_begin(jjx_poll *p, sqlite3 *db);
/* Count `steps` VM steps toward the progress handler: 1 when the
** connection is interrupted or the handler asked to stop, else 0. */
int jjx_poll_tick(jjx_poll *p, int steps);
/* The jj_interrupt callback (the core calls it about every MiB of work):
** jjx_poll_tick(poll, JJX_TICK_MIB). */
int jjx_poll_check(void *poll);
void jjx_poll_end(jjx_poll *p);
/* The document at p[0..n) parsed with jj_parse_opts `flags`; with
** JJ_PARSE_VALIDATE its every value is then checked (what the flag checks)
** through `poll`: its connection's interrupt polled and its progress
** handler ticked JJX_TICK_MIB steps every MiB checked (poll NULL or its db
** NULL: neither).  The caller's poll, so that ticks add up with the rest of
** its read (a scan's, or jj_write's whose writing follows) and the caller
** ends it.  Returns the document (the caller frees it with jj_doc_free;
** it borrows p), or NULL with *err set; stopped by the handler or
** sqlite3_interrupt(), err->code is JJ_ERR_INTERRUPTED. */
jj_doc *jjx_parse_polled(const char *p, size_t n, unsigned flags,
                         jjx_poll *poll, jj_error *err);
/* jjx_parse_polled(p, n, JJ_PARSE_VALIDATE) with a poll of its own on db
** (NULL: no polling): a nested jj value of jj_group or jj_export, which
** can be as large as a value may be. */
jj_doc *jjx_parse_checked(sqlite3 *db, const char *p, size_t n,
                          jj_error *err);

/* ---------------------------------------------------------------------- */
/* Sources (source.c, header.c)                                            */
/* ---------------------------------------------------------------------- */

/* What a glob's expansion may do (below, with glob.c's). */
typedef struct jjx_glob_limits jjx_glob_limits;

/* How a scan opens a SOURCE. */
typedef struct jjx_limits {
  uint64_t max_size;    /* the most document bytes to hold; 0: no limit */
  int by_option;        /* max_size is the typed table's own option (it
                        ** only lowers jj_max_size()), for messages */
  unsigned parse_flags; /* jj_parse_opts flags (JJ_PARSE_VALIDATE) */
  unsigned file_flags;  /* jj_file_opts flags (JJ_FILE_MMAP) */
  sqlite3 *db;          /* poll this connection's interrupt; NULL: none */
  jjx_poll *poll;       /* poll through this one (a scan's, which keeps
                        ** its probe); NULL: one of the read's own */
  jjx_cache *cache;     /* keep and reuse files here; NULL: no cache (a
                        ** mapped file, JJ_FILE_MMAP, never is) */
  jjx_settings *cfg;    /* the connection's: jj_notes() of a converted
                        ** file; NULL: none */
  const jjx_copts *conv; /* the converter's options for a JSON or CSV
                        ** file (NULL: none given, the defaults); any
                        ** other SOURCE refuses them */
} jjx_limits;

/* An open SOURCE: the bytes of one document and the document reading them.
** All fields are owned by the source and released by jjx_source_close;
** a zeroed struct is a valid "closed" source. */
typedef struct jjx_source {
  char *label;      /* "blob", or the path as the user wrote it; sqlite3_free */
  int is_file;      /* file: `file` is open (jj_file_close) */
  jj_file file;     /* the file read (or mapped, or decompressed) */
  char *heap;       /* bytes we own (a copy of the argument, or the
                    ** decompressed blob); sqlite3_free */
  const char *data; /* the document bytes: file.data, heap, or a bound
                    ** BLOB parameter's own bytes (source.c open_bytes) */
  size_t len;
  jj_doc *doc;      /* reads data; jj_doc_free; NULL for a NULL source */
  jjx_centry *entry;/* a cached file: file, doc and data are the entry's
                    ** (is_file 1, file unused); jjx_cache_release */
} jjx_source;

/* A SOURCE as the CREATE VIRTUAL TABLE argument wrote it, kept by the
** typed table so that the document itself is read only by a scan. */
enum { JJX_DECL_PATH = 1, JJX_DECL_TEXT, JJX_DECL_BLOB };
typedef struct jjx_decl {
  int kind;    /* JJX_DECL_*: a file name, a document, a BLOB literal */
  char *label; /* the path (unescaped, see glob.c), or "blob"; sqlite3_free */
  char *bytes; /* TEXT, BLOB: the literal's bytes; sqlite3_free */
  size_t len;
  int glob;    /* PATH: label is a glob pattern */
} jjx_decl;

/* union_by_name (union.c): the union of documents' columns, matched by
** name, in order of first appearance.  Zeroed: empty. */
typedef struct jjx_union {
  jj_schema *schema; /* the columns (jj_schema_free); NULL while empty */
  jj_schema *index;  /* fold: the names in ASCII lower case, column i of
                     ** schema at i, for jj_schema_find; else NULL */
  char **from;       /* per column: the document that brought it, for
                     ** messages (sqlite3_free each, and the array) */
  size_t n, cap;     /* columns; entries of from[] allocated */
  int fold;          /* 1: names match as SQL's (ASCII case folded); 0:
                     ** exactly (JSON keys) */
} jjx_union;
/* Add a document's columns (label names it in messages): a new name is
** appended, a known one must have the same type (a nested table: the same
** columns), and no two of its columns may be one name.  SQLITE_OK, or an
** error in *pzErr naming both documents, the column and both types (the
** union may then be half updated: drop it). */
int jjx_union_add(jjx_union *u, const char *label, const jj_schema *s,
                  char **pzErr);
/* Map a document's columns onto the union: map[i] (u->n entries) is its
** column that is union column i, or -1 when it has none (NULL); *identity
** is 1 when the document has exactly the union's columns in order.  A
** column the union lacks or of another type is an error in *pzErr. */
int jjx_union_map(const jjx_union *u, const char *label, const jj_schema *s,
                  int *map, int *identity, char **pzErr);
void jjx_union_free(jjx_union *u);

/* A document's header, read without its rows. */
typedef struct jjx_header {
  jj_schema *schema; /* a copy (jj_schema_free); NULL for a NULL source */
  int64_t count;     /* the header's "count", or -1 */
  int64_t est_rows;  /* the count, else an estimate from the size */
  char *label;       /* as jjx_source.label */
  int is_file;
  int nfiles;        /* a glob: the files it matched (the header read is
                     ** the first one's, or every one's with
                     ** union_by_name); else 1 */
  jjx_union uni;     /* union_by_name: the union of the headers read
                     ** (schema is a copy of uni.schema); else zeroed */
  char *notes;       /* a converted file (the first of a glob): the
                     ** converter's decisions, one a line; else NULL */
} jjx_header;

/* Open a SOURCE given as an SQL value, completely, within *lim: BLOB =
** document bytes (gzip by its magic, brotli tried when the bytes are not
** JSON), TEXT starting with '{' after whitespace = document, other TEXT =
** file path (a regular file only: jj_file_open_opts reads it, gzip by magic,
** brotli by a .br name), NULL = no document (s->doc stays NULL,
** SQLITE_OK).  A BLOB or TEXT argument is copied once (or decompressed):
** SQLite promises an argument only for the duration of the call that
** received it.  On error returns an SQLite code with *pzErr set to
** "<label>: <message>" (sqlite3_free; "interrupted" with SQLITE_INTERRUPT)
** and the source closed. */
int jjx_source_open_value(jjx_source *s, sqlite3_value *v,
                          const jjx_limits *lim, char **pzErr);
/* The same for a typed table's declared SOURCE. */
int jjx_source_open_decl(jjx_source *s, const jjx_decl *d,
                         const jjx_limits *lim, char **pzErr);
/* Release everything the source owns; the struct is zeroed. */
void jjx_source_close(jjx_source *s);

/* Read only the header of a SOURCE: a file or compressed bytes are read
** (decompressed) JJX_HEADER_FIRST bytes at first, doubling until jj_parse
** succeeds, up to JJX_HEADER_LIMIT; nothing blocks (regular files only) and
** the rows are never looked at.  Errors as jjx_source_open_value.
** union_by_name: read every header of a glob (else the first file's) and
** merge them (union.c, names folded as SQL does) into h->uni.
** db (may be NULL): tick its progress handler and poll its interrupt for
** every file of a glob whose header is read ("interrupted" when stopped).
** cfg (may be NULL): a JSON, NDJSON, CSV or TSV file is converted whole to
** know its columns, with the options conv (may be NULL), within cfg's
** jj_max_size, and kept in cfg's cache; options that do not apply to the
** SOURCE are an error. */
int jjx_header_value(jjx_header *h, sqlite3_value *v, int union_by_name,
                     const jjx_copts *conv, sqlite3 *db, jjx_settings *cfg,
                     char **pzErr);
/* A declared SOURCE's header; a glob is expanded within `glob` (the
** table's options; NULL: the defaults). */
int jjx_header_decl(jjx_header *h, const jjx_decl *d, int union_by_name,
                    const jjx_glob_limits *glob, const jjx_copts *conv,
                    sqlite3 *db, jjx_settings *cfg, char **pzErr);
void jjx_header_free(jjx_header *h);

/* Open one file by name (label = the path), as a SOURCE naming it. */
int jjx_source_open_path(jjx_source *s, const char *path,
                         const jjx_limits *lim, char **pzErr);

/* 1 if p[0..len) starts with '{' after JSON whitespace: a document
** (util.c; decl.c, plan.c and source.c tell a document from a name). */
int jjx_looks_like_document(const char *p, size_t len);

/* Parse a CREATE VIRTUAL TABLE SOURCE argument z[0..n) as written (trimmed)
** (decl.c):
** x'hex' is a BLOB literal, a quoted string is dequoted, a bare word is
** taken as it is; the text is a document when it starts with '{', else a
** file name.  SQLITE_OK, or an error with *pzErr set. */
int jjx_decl_parse(jjx_decl *d, const char *z, size_t n, char **pzErr);
void jjx_decl_free(jjx_decl *d);

/* An estimate of the rows in a document of `bytes` bytes when its header
** has no "count": about 60 bytes a row, at least 1 (util.c; the planner's
** estimates, and the typed table's: scan.c, source.c). */
int64_t jjx_estimate_rows(uint64_t bytes);
/* Row estimates for the planner (plan.c).  Estimate the rows of a SOURCE value known at planning time (a literal
** argument): the declared count is not read (that would open the file);
** a path's size comes from stat().  -1 when unknown. */
int64_t jjx_estimate_value(sqlite3_value *v);

/* Append p[0..len) to a message as a short excerpt: in double quotes, at
** most 40 bytes, printable ASCII and valid UTF-8 as they are, '"' and '\'
** escaped, every other byte as \xNN, "..." when cut.  Text that came from
** a document or a file never reaches a message any other way. */
void jjx_show(sqlite3_str *out, const char *p, size_t len);
/* The length of the valid UTF-8 sequence starting at p[0] (p[0..n), n >= 1:
** overlong forms, surrogates and code points past U+10FFFF are not), or 0
** (util.c; jjx_show and convert_sql.c's check that a BLOB is text). */
size_t jjx_utf8_len(const unsigned char *p, size_t n);

/* ---------------------------------------------------------------------- */
/* Globs and the filename filter (glob.c)                                  */
/* ---------------------------------------------------------------------- */

/* What expanding one pattern may do (glob_walk.c), by default; a typed
** table's glob_max_files, glob_max_dirs and glob_max_bytes options only
** lower these. */
#define JJX_GLOB_MAX_FILES 100000  /* names matched */
#define JJX_GLOB_MAX_DIRS 10000    /* directories opened */
#define JJX_GLOB_MAX_BYTES ((int64_t)16 << 20) /* bytes of names matched */
struct jjx_glob_limits {
  int64_t files, dirs, bytes; /* 0 in an option: none of its own */
};
void jjx_glob_limits_default(jjx_glob_limits *l);
/* Lower each of *l to the nonzero one of `by`. */
void jjx_glob_limits_lower(jjx_glob_limits *l, const jjx_glob_limits *by);
enum { JJX_GLOB_NONE, JJX_GLOB_PATTERN, JJX_GLOB_ESCAPED };
/* JJX_GLOB_PATTERN: p has a '*', '?' or '[' no backslash escapes;
** JJX_GLOB_ESCAPED: it has some, all escaped (one file, unescaped);
** JJX_GLOB_NONE: none at all (used as it is). */
int jjx_glob_kind(const char *p);
/* p without the backslashes that escape a character (sqlite3_free). */
char *jjx_glob_unescape(const char *p);
/* 1 when v is TEXT naming files by a pattern (not a document). */
int jjx_value_is_glob(sqlite3_value *v);

/* The files one scan reads, and its filename constraints.  Zeroed: no
** files, no filter. */
typedef struct jjx_files {
  char **name;        /* the regular files matched, sorted by strcmp */
  int n, next;        /* names; the next one to visit */
  char *eq, *like, *glob; /* filename = / LIKE / GLOB constraints, or NULL */
  int filtered;       /* one of the three is set */
  int never;          /* a constraint's value was NULL: nothing passes */
  jj_schema *shape;   /* the record form: the first file's columns, which
                      ** every other must have */
  char *shape_from;   /* that file's name */
} jjx_files;
/* Expand `pattern` into f->name (the filter is kept), within the default
** bounds lowered by `lim` (NULL: the defaults), polling the interrupt and
** ticking the progress handler through `poll` (NULL: neither).  No match
** is not an error (n = 0); a bound passed is, naming where
** (glob_walk.c). */
int jjx_files_expand(jjx_files *f, const char *pattern,
                     const jjx_glob_limits *lim, jjx_poll *poll,
                     char **pzErr);
/* Add a filename constraint (op: SQLITE_INDEX_CONSTRAINT_EQ, _LIKE or
** _GLOB) with its value.  SQLITE_OK or SQLITE_NOMEM. */
int jjx_files_filter(jjx_files *f, int op, sqlite3_value *v);
/* 1 when a file named `name` (NULL: not a file) passes the filter. */
int jjx_files_pass(const jjx_files *f, const char *name);
/* The next file that passes the filter, or NULL. */
const char *jjx_files_next(jjx_files *f);
/* Check a file's columns: against `want` (a typed table's) when given,
** else against the first file's (recorded by the first call).  SQLITE_OK,
** or an error naming the file and how it differs in *pzErr. */
int jjx_files_check(jjx_files *f, const char *label, const jj_schema *want,
                    const jj_schema *got, char **pzErr);
void jjx_files_free(jjx_files *f);

/* ---------------------------------------------------------------------- */
/* The typed form's arguments, declaration and shape (typed.c)             */
/* ---------------------------------------------------------------------- */

typedef struct jjx_options {
  uint64_t max_size; /* 0: no limit of the table's own */
  int validate;      /* check every value when the document is opened */
  int mmap;          /* map the declared plain file instead of reading it */
  int union_by_name; /* a glob's files of different columns, by name */
  int ts_as_written; /* timestamps=as_written: t and l columns read as the
                     ** document writes them, not in SQLite's form */
  jjx_glob_limits glob; /* glob_max_*: lower the defaults; 0: none */
  jjx_copts conv;    /* the converter's options: a JSON or CSV file is
                     ** converted with them (owned: jjx_copts_free) */
} jjx_options;

/* Trim SQL whitespace from both ends of z[0..*n). */
const char *jjx_trim(const char *z, size_t *n);
/* Parse argv[0..argc) ("key=value", a CREATE's arguments after SOURCE)
** into *o.  SQLITE_OK, or SQLITE_ERROR with *pzErr set (sqlite3_free). */
int jjx_parse_options(int argc, const char *const *argv, jjx_options *o,
                      char **pzErr);
/* The OPTIONS argument of jj_open(SOURCE, OPTIONS) and jj_schema(SOURCE,
** OPTIONS): "key=value" items separated by commas (jjx_option_items: a
** value quoted may hold commas), of the keys that make sense there
** (union_by_name, the converter's); NULL or "" is none.  `fn` names the
** function in messages.  SQLITE_OK, or an error with *pzErr set. */
int jjx_parse_option_text(const char *fn, const char *text, jjx_options *o,
                          char **pzErr);
/* The CREATE TABLE statement for a document's schema (sqlite3_free), or
** NULL with *pzErr set (NULL too when out of memory): names SQL cannot
** tell apart, or more columns than max_columns (SQLITE_LIMIT_COLUMN) with
** the hidden source and filename columns. */
char *jjx_declaration(const char *label, const jj_schema *s, int max_columns,
                      char **pzErr);
/* Append a nested table's schema to a message: its JSON, cut after 80
** bytes. */
void jjx_show_schema(sqlite3_str *m, const jj_schema *s);
/* "<label>: <what>column 2 differs: declared "user" s, found "joined" d"
** for schemas that differ (sqlite3_free; NULL when out of memory). */
char *jjx_shape_error(const char *label, const char *what,
                      const jj_schema *want, const jj_schema *got);


/* ---------------------------------------------------------------------- */
/* What the entry point registers (its static tables point at these)       */
/* ---------------------------------------------------------------------- */

extern const sqlite3_module jjx_open_module;   /* vtab.c */

/* The record form's fast path (record.c): the overload of ->, ->> and
** json_extract that jj_open's xFindFunction hands out, its user data the
** table.  1 with *pxFunc set for those names, else 0. */
int jjx_record_find(int nArg, const char *zName,
                    void (**pxFunc)(sqlite3_context *, int, sqlite3_value **));
/* column.c: the cursor of `table` (a record-form jjx_table) whose current
** row's record text is exactly text[0..len), or NULL (text may be NULL).
** *slots (never left unset) is the fallback statements' slots of the
** cursor that built a record last (its own until it closes), or NULL. */
#define JJX_RECORD_SLOTS 3
jj_cursor *jjx_record_match(void *table, const char *text, size_t len,
                            sqlite3_stmt ***slots);
/* column.c: where record.c keeps, for `table`, how this SQLite's JSON
** functions turn a JSON number into a double (0 until record.c asks). */
int *jjx_record_float_mode(void *table);
extern const sqlite3_module jjx_schema_module; /* schema_vtab.c */
extern const sqlite3_module jjx_cache_module;  /* cache.c */
extern const sqlite3_module jjx_rejects_module; /* rejects.c */
void jjx_group_step(sqlite3_context *ctx, int argc, sqlite3_value **argv);
void jjx_group_final(sqlite3_context *ctx);     /* group.c */
/* build_value.c: a storage class's name ("INTEGER" ... "NULL"); a value
** given to the builder as its storage class says; one given to the column
** `name` of explicit type `type` (TEXT for i, f, b converted as SQLite's
** affinity would, a jj value's document as nested rows; db polled while a
** nested document is checked); a jj value's document as nested rows.  Each
** returns the builder's code (its error says why).  build_at.h gives a
** row's values of fixed columns. */
const char *jjx_class_name(int st);
jj_code jjx_build_value(jj_builder *b, sqlite3_value *v);
jj_code jjx_build_typed(jj_builder *b, sqlite3 *db, sqlite3_value *v,
                        jj_type type, const char *name, size_t len);
jj_code jjx_build_document(jj_builder *b, sqlite3 *db, sqlite3_value *v);
void jjx_write_func(sqlite3_context *ctx, int argc, sqlite3_value **argv);
                                                /* write.c */
void jjx_from_json_func(sqlite3_context *ctx, int argc, sqlite3_value **argv);
void jjx_from_csv_func(sqlite3_context *ctx, int argc, sqlite3_value **argv);
                                                /* convert_sql.c */
void jjx_export_func(sqlite3_context *ctx, int argc, sqlite3_value **argv);
                                                /* export.c */
/* target.c: 1 when `path` is a database file of ctx's connection (main,
** temp, attached; or its -wal, -shm, -journal), with the call failed as
** "<fn>: "path" is the database file "main" of this connection; refusing
** to replace it" (or when the check itself failed); else 0. */
int jjx_refuse_db_target(sqlite3_context *ctx, const char *fn,
                         const char *path);

#endif /* JJ_EXT_H */
