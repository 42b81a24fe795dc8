/*
** types.c — everything the library says about a column type, in one table:
** its letter in a header's "types", its names in messages, its SQL declared
** type, the short name tools spell it with, what its JSON value must look
** like, and the writer call that writes it.
**
** Adding a type: a row here (and a case in `row_of`, which -Wswitch points
** at), a member of jj_value's union, and one case in each consumer's switch
** over jj_value (object.c, copy.c, validate.c, the SQLite extension), each
** again pointed at by -Wswitch.
**
** Nothing here allocates; every string is static.
*/
#include <string.h>

#include "internal.h"

/* One row of the table. */
typedef struct type_info {
  jj_type type;
  char letter;           /* in "types"; 0 for JJ_TABLE (an object there) */
  const char *short_name; /* "i" .. "x", "jj": how tools spell the type */
  const char *words;     /* the type in messages: "a date" (column) */
  const char *sql;       /* the SQL declared type of such a column */
  const char *expect;    /* the JSON value a column of it holds, in words */
  const char *writer;    /* the writer call for a value of it */
} type_info;

enum { T_INT, T_FLOAT, T_TEXT, T_DATE, T_TIMESTAMP, T_LOCAL, T_BOOL, T_BYTES, T_JSON, T_TABLE, T_COUNT };

/* A build for size that only reads (JJ_SMALL: the reader-only WebAssembly
** module) asks only for letters and what a column holds (jj_type_expect),
** and leaves the other text out of the table: jj_type_short, jj_type_name,
** jj_type_sql and jj_type_writer give NULL there (nothing in that build
** calls them). */
#ifdef JJ_SMALL
#define SHORT(name) NULL
#define WORDS(name) NULL
#define SQL(name) NULL
#define WRITER(call) NULL
#else
#define SHORT(name) name
#define WORDS(name) name
#define SQL(name) name
#define WRITER(call) call
#endif

static const type_info table[T_COUNT] = {
    [T_INT] = {JJ_INT, 'i', SHORT("i"), WORDS("an integer"), SQL("INTEGER"), "an integer", WRITER("jj_writer_int")},
    [T_FLOAT] = {JJ_FLOAT, 'f', SHORT("f"), WORDS("a float"), SQL("REAL"), "a number", WRITER("jj_writer_double")},
    [T_TEXT] = {JJ_TEXT, 's', SHORT("s"), WORDS("a text"), SQL("TEXT"), "a string", WRITER("jj_writer_text")},
    [T_DATE] = {JJ_DATE, 'd', SHORT("d"), WORDS("a date"), SQL("DATE"), "a date string", WRITER("jj_writer_date")},
    [T_TIMESTAMP] = {JJ_TIMESTAMP, 't', SHORT("t"), WORDS("a timestamp"), SQL("TIMESTAMP"), "a timestamp string",
                     WRITER("jj_writer_timestamp")},
    /* DATETIME: a date and time without zone, as in SQL's usage */
    [T_LOCAL] = {JJ_LOCAL_TIMESTAMP, 'l', SHORT("l"), WORDS("a local timestamp"), SQL("DATETIME"),
                 "a local timestamp string", WRITER("jj_writer_local_timestamp")},
    [T_BOOL] = {JJ_BOOL, 'b', SHORT("b"), WORDS("a boolean"), SQL("BOOLEAN"), "true or false", WRITER("jj_writer_bool")},
    [T_BYTES] = {JJ_BYTES, 'x', SHORT("x"), WORDS("a bytes"), SQL("BLOB"), "a base64 string", WRITER("jj_writer_bytes")},
    /* SQL reads a JSON value as its text (with SQLite's JSON subtype) */
    [T_JSON] = {JJ_JSON, 'j', SHORT("j"), WORDS("a JSON"), SQL("JSON"), "a JSON value", WRITER("jj_writer_json")},
    /* a nested table reads in SQL as its document's JSON text */
    [T_TABLE] = {JJ_TABLE, 0, SHORT("jj"), WORDS("a nested table"), SQL("TEXT"), "an array of rows",
                 WRITER("jj_writer_begin_table")},
};

/* The row of type t, or NULL when t is no type.  No default: a type added
** to jj_type and not here is a -Wswitch warning. */
static const type_info *row_of(jj_type t) {
  switch (t) {
    case JJ_INT: return &table[T_INT];
    case JJ_FLOAT: return &table[T_FLOAT];
    case JJ_TEXT: return &table[T_TEXT];
    case JJ_DATE: return &table[T_DATE];
    case JJ_TIMESTAMP: return &table[T_TIMESTAMP];
    case JJ_LOCAL_TIMESTAMP: return &table[T_LOCAL];
    case JJ_BOOL: return &table[T_BOOL];
    case JJ_BYTES: return &table[T_BYTES];
    case JJ_JSON: return &table[T_JSON];
    case JJ_TABLE: return &table[T_TABLE];
  }
  return NULL;
}

char jj_type_letter(jj_type t) {
  const type_info *r = row_of(t);
  return r ? r->letter : 0;
}

/* A linear search: ten rows, and only headers ask. */
jj_type jj_type_from_letter(int letter) {
  if (letter == 0) return (jj_type)0; /* JJ_TABLE's row holds 0: no letter */
  for (size_t i = 0; i < T_COUNT; i++)
    if (table[i].letter == letter) return table[i].type;
  return (jj_type)0;
}

const char *jj_type_name(jj_type t) {
  const type_info *r = row_of(t);
  return r ? r->words : NULL;
}

const char *jj_type_sql(jj_type t) {
  const type_info *r = row_of(t);
  return r ? r->sql : NULL;
}

const char *jj_type_short(jj_type t) {
  const type_info *r = row_of(t);
  return r ? r->short_name : NULL;
}

jj_type jj_type_from_short(const char *p, size_t len) {
  for (size_t i = 0; p && i < T_COUNT; i++)
    if (strlen(table[i].short_name) == len && memcmp(table[i].short_name, p, len) == 0)
      return table[i].type;
  return (jj_type)0;
}

/* Internal (internal.h): only the core's own messages use these, always
** with a type taken from a schema, so "?" never shows. */
const char *jj_type_expect(jj_type t) {
  const type_info *r = row_of(t);
  return r ? r->expect : "?";
}

const char *jj_type_writer(jj_type t) {
  const type_info *r = row_of(t);
  return r ? r->writer : "?";
}
