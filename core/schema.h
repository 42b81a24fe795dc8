/*
** schema.h — the struct behind jj_schema, shared by schema.c, which builds
** it, and by the files that read columns straight from it on their hot
** paths (doc.h: the cursor keeps a pointer to the columns).  Nothing
** outside core/ sees it.
*/
#ifndef JJ_SCHEMA_H
#define JJ_SCHEMA_H

#include <stddef.h>
#include <stdint.h>

#include "internal.h"

/* Most columns a table may have (and least: 1). */
#define JJ_MAX_COLUMNS 65535

/* One column of a schema. */
typedef struct jj_col {
  char *name;       /* NUL-terminated copy, freed by jj_schema_free */
  size_t len;       /* bytes in name, without the NUL */
  jj_type type;
  jj_schema *table; /* JJ_TABLE: the nested schema, owned; else NULL */
} jj_col;

struct jj_schema {
  jj_col *cols;     /* n columns in order, capacity cap */
  size_t n, cap;
  uint32_t *hash;   /* open addressing over names: column index + 1, 0 =
                    ** empty; hcap slots (a power of two, >= 2n) */
  size_t hcap;
};

#endif /* JJ_SCHEMA_H */
