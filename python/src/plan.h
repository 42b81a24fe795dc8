/*
** plan.h — what infer.c and encode.c share: the plan of a table to write
** (its columns' names, types given or inferred, nested plans), and the
** place of the value being written, for messages.
*/
#ifndef JJPY_PLAN_H
#define JJPY_PLAN_H

#include "jjpy.h"

/* The kinds of Python values, as bits (jj_group's storage classes). */
enum {
  K_NONE = 0,
  K_BOOL = 1,
  K_INT = 2,
  K_FLOAT = 4,
  K_STR = 8,
  K_BYTES = 16,
  K_DATE = 32,
  K_DATETIME = 64,
  K_TABLE = 128, /* a list or tuple of rows, or a View */
  K_OTHER = 256  /* nothing a column can hold */
};

typedef struct plan plan;

typedef struct col_plan {
  PyObject *name;  /* str */
  jj_type type;    /* given, else 0 until chosen from `kinds` */
  int given;       /* the type came from types= */
  unsigned kinds;  /* K_* seen in the values (inference) */
  plan *nested;    /* a nested table's plan (PyMem), or NULL */
} col_plan;

struct plan {
  Py_ssize_t ncol;  /* 0 until the names are known */
  col_plan *cols;   /* PyMem */
  PyObject *spec;   /* a nested table's types spec until names are known */
};

/* One encode() or dump(): the rows, the plan, where we are. */
typedef struct enc {
  jjpy_state *st;
  PyObject *rows;     /* a list or tuple of the rows */
  plan top;
  jj_schema *schema;  /* made from the plan by jjpy_plan_prepare */
  int depth;          /* nested tables around the value being written */
  struct {
    int64_t row;
    PyObject *name;   /* borrowed from the plan */
  } path[JJPY_MAX_PATH];
} enc;

/* Snapshot the rows, take the names (columns=, else the first dict's
** keys), apply types=, infer the rest from every value, build the schema.
** 0 or -1 with the exception set; jjpy_plan_free(e) in both cases. */
int jjpy_plan_prepare(enc *e, PyObject *rows, PyObject *columns,
                      PyObject *types);
void jjpy_plan_free(enc *e);

/* The kind of a value (bool before int: a bool is an int in Python). */
unsigned jjpy_kind(jjpy_state *st, PyObject *v);
/* Item i of a list or tuple (new reference), NULL without an exception
** when the list has shrunk below i meanwhile. */
PyObject *jjpy_item(PyObject *seq, Py_ssize_t i);
/* A table value (list, tuple or View) as a list or tuple, new reference. */
PyObject *jjpy_table_rows(enc *e, PyObject *v);
/* Check that row (1-based number r) fits plan p: a dict with exactly its
** names, or a sequence of one value per column.  0 or -1. */
int jjpy_row_shape(enc *e, plan *p, PyObject *row, int64_t r);
/* Column i of a row that passed jjpy_row_shape (new reference). */
PyObject *jjpy_row_value(enc *e, plan *p, PyObject *row, Py_ssize_t i,
                         int64_t r);

/* Raise Error at row r (1-based, of the current table) and column c (may
** be NULL): the path of nested tables, then "row R, column "C": ", then
** the message.  Returns -1. */
int jjpy_enc_fail(enc *e, int64_t r, const col_plan *c, jj_code code,
                  const char *fmt, ...);
/* "a str", "an int": the article and the type's name of v. */
PyObject *jjpy_a_type(PyObject *v);

#endif /* JJPY_PLAN_H */
