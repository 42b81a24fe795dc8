/*
** schema.c — jj_schema: the ordered column names and types of a table.
**
** A schema owns copies of its names and its nested schemas.  Names are found
** through a small open-addressing hash table, so adding the 65535th column
** (a duplicate check) and jj_schema_find cost O(1), not O(columns).
** The reader builds the schema of a document with jj_schema_add too, so a
** header and a hand-built schema obey exactly the same rules.
*/
#include <stdlib.h>
#include <string.h>

#include "schema.h"

/* FNV-1a over the name's bytes: cheap and good enough for column names. */
static uint32_t name_hash(const char *p, size_t len) {
  uint32_t h = 2166136261u;
  for (size_t i = 0; i < len; i++) {
    h ^= (unsigned char)p[i];
    h *= 16777619u;
  }
  return h;
}

/* Slot of name in s->hash: the slot holding it, or the empty slot where it
** would go.  s->hcap is a power of two with free slots left. */
static size_t hash_slot(const jj_schema *s, const char *p, size_t len) {
  size_t mask = s->hcap - 1, i = name_hash(p, len) & mask;
  for (;;) {
    uint32_t k = s->hash[i];
    if (k == 0) return i;
    const jj_col *c = &s->cols[k - 1];
    if (c->len == len && memcmp(c->name, p, len) == 0) return i;
    i = (i + 1) & mask;
  }
}

/* Grow the hash table to at least twice `need` slots and re-insert every
** column.  0 on success, -1 out of memory (table unchanged). */
static int hash_grow(jj_schema *s, size_t need) {
  size_t cap = 16;
  while (cap < need * 2) cap *= 2;
  uint32_t *h = calloc(cap, sizeof *h);
  if (!h) return -1;
  free(s->hash);
  s->hash = h;
  s->hcap = cap;
  for (size_t i = 0; i < s->n; i++) {
    size_t slot = hash_slot(s, s->cols[i].name, s->cols[i].len);
    s->hash[slot] = (uint32_t)(i + 1);
  }
  return 0;
}

/* Accessors: what the schema owns, borrowed by the caller (NULL-safe). */
size_t jj_schema_columns(const jj_schema *s) { return s ? s->n : 0; }

const char *jj_schema_name(const jj_schema *s, size_t col, size_t *len) {
  if (!s || col >= s->n) return NULL;
  if (len) *len = s->cols[col].len;
  return s->cols[col].name;
}

jj_type jj_schema_type(const jj_schema *s, size_t col) {
  if (!s || col >= s->n) return (jj_type)0;
  return s->cols[col].type;
}

const jj_schema *jj_schema_table(const jj_schema *s, size_t col) {
  if (!s || col >= s->n) return NULL;
  return s->cols[col].table;
}

/* Exact byte lookup through the hash table: O(1). */
int jj_schema_find(const jj_schema *s, const char *name, size_t len) {
  if (!s || s->n == 0 || !name) return -1;
  uint32_t k = s->hash[hash_slot(s, name, len)];
  return k ? (int)(k - 1) : -1;
}

/* Compare recursively; on a difference report the first differing column of
** this level (a nested difference reports the column holding the table). */
int jj_schema_equal(const jj_schema *a, const jj_schema *b, size_t *column) {
  if (!a || !b) {
    if (column) *column = 0;
    return a == b;
  }
  size_t n = a->n < b->n ? a->n : b->n;
  for (size_t i = 0; i < n; i++) {
    const jj_col *x = &a->cols[i], *y = &b->cols[i];
    if (x->type != y->type || x->len != y->len ||
        memcmp(x->name, y->name, x->len) != 0 ||
        (x->type == JJ_TABLE && !jj_schema_equal(x->table, y->table, NULL))) {
      if (column) *column = i;
      return 0;
    }
  }
  if (a->n != b->n) {
    if (column) *column = n;
    return 0;
  }
  return 1;
}

/* The caller frees the result with jj_schema_free. */
jj_schema *jj_schema_new(void) { return calloc(1, sizeof(jj_schema)); }

/* Check and append one column; see jj_schema_add's contract in the public
** header.  `table` is owned by s from the start, so every failure path
** frees it. */
jj_code jj_schema_add(jj_schema *s, const char *name, size_t len, jj_type type,
                      jj_schema *table, jj_error *err) {
  char shown[JJ_SHOW_CAP];
  jj_code rc = JJ_OK;
  if (!s || (!name && len)) {
    rc = JJ_USAGE(jj_fail(err, JJ_ERR_USAGE, NULL, "jj_schema_add needs a schema and a name"));
  } else if (type == JJ_TABLE ? !table : !jj_type_letter(type)) {
    rc = JJ_USAGE(type == JJ_TABLE
                      ? jj_fail(err, JJ_ERR_USAGE, NULL,
                                "a nested table column needs its schema")
                      : jj_fail(err, JJ_ERR_USAGE, NULL, "unknown column type %d",
                                (int)type));
  } else if (type != JJ_TABLE && table) {
    rc = JJ_USAGE(jj_fail(err, JJ_ERR_USAGE, NULL,
                          "only a nested table column takes a schema"));
  } else if (len == 0) {
    rc = jj_fail(err, JJ_ERR_SCHEMA, NULL, "column %zu has an empty name",
                 s->n + 1);
  } else if (!jj_utf8_valid(name, len, NULL)) {
    rc = jj_fail(err, JJ_ERR_UTF8, NULL, "column name %s is not valid UTF-8",
                 jj_show(shown, sizeof shown, name, len, 1));
  } else if (memchr(name, '\0', len)) {
    /* Names are also C strings (messages, SQLite column names). */
    rc = jj_fail(err, JJ_ERR_SCHEMA, NULL, "column name %s contains U+0000",
                 jj_show(shown, sizeof shown, name, len, 1));
  } else if (s->n >= JJ_MAX_COLUMNS) {
    rc = jj_fail(err, JJ_ERR_SCHEMA, NULL, "too many columns (at most %d)",
                 JJ_MAX_COLUMNS);
  } else if (jj_schema_find(s, name, len) >= 0) {
    rc = jj_fail(err, JJ_ERR_SCHEMA, NULL, "duplicate column name %s",
                 jj_show(shown, sizeof shown, name, len, 1));
  }
  if (rc != JJ_OK) {
    jj_schema_free(table);
    return rc;
  }
  if (s->n == s->cap) {
    size_t cap = s->cap ? s->cap * 2 : 8;
    jj_col *cols = realloc(s->cols, cap * sizeof *cols);
    if (!cols) goto nomem;
    s->cols = cols;
    s->cap = cap;
  }
  if ((s->n + 1) * 2 > s->hcap && hash_grow(s, s->n + 1)) goto nomem;
  char *copy = malloc(len + 1);
  if (!copy) goto nomem;
  memcpy(copy, name, len);
  copy[len] = '\0';
  s->cols[s->n] = (jj_col){copy, len, type, table};
  s->hash[hash_slot(s, copy, len)] = (uint32_t)(s->n + 1);
  s->n++;
  return JJ_OK;
nomem:
  jj_schema_free(table);
  return jj_fail(err, JJ_ERR_NOMEM, NULL, "out of memory");
}

/* Deep copy; the caller frees it with jj_schema_free. */
jj_schema *jj_schema_copy(const jj_schema *s) {
  if (!s) return NULL;
  jj_schema *c = jj_schema_new();
  if (!c) return NULL;
  for (size_t i = 0; i < s->n; i++) {
    const jj_col *col = &s->cols[i];
    jj_schema *t = NULL;
    if (col->table && !(t = jj_schema_copy(col->table))) goto fail;
    if (jj_schema_add(c, col->name, col->len, col->type, t, NULL)) goto fail;
  }
  return c;
fail:
  jj_schema_free(c);
  return NULL;
}

/* Frees the names, the nested schemas and s itself.  NULL is a no-op. */
void jj_schema_free(jj_schema *s) {
  if (!s) return;
  for (size_t i = 0; i < s->n; i++) {
    free(s->cols[i].name);
    jj_schema_free(s->cols[i].table);
  }
  free(s->cols);
  free(s->hash);
  free(s);
}

/* Append {"columns":[...],"types":[...]} for s.  0 or -1 out of memory. */
static int schema_json(jj_buf *b, const jj_schema *s) {
  if (jj_buf_append(b, "{\"columns\":[", 12)) return -1;
  for (size_t i = 0; i < s->n; i++) {
    if (i && jj_buf_append(b, ",", 1)) return -1;
    if (jj_string_escape(b, s->cols[i].name, s->cols[i].len)) return -1;
  }
  if (jj_buf_append(b, "],\"types\":[", 11)) return -1;
  for (size_t i = 0; i < s->n; i++) {
    if (i && jj_buf_append(b, ",", 1)) return -1;
    if (s->cols[i].type == JJ_TABLE) {
      if (schema_json(b, s->cols[i].table)) return -1;
    } else {
      char t[3] = {'"', jj_type_letter(s->cols[i].type), '"'};
      if (jj_buf_append(b, t, 3)) return -1;
    }
  }
  return jj_buf_append(b, "]}", 2);
}

/* The caller frees the result with jj_free. */
char *jj_schema_to_json(const jj_schema *s, size_t *len) {
  jj_buf b = {0};
  if (!s || schema_json(&b, s) || jj_buf_append(&b, "", 1)) {
    jj_buf_free(&b);
    return NULL;
  }
  if (len) *len = b.len - 1;
  return b.p;
}
