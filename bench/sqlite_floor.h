/*
** sqlite_floor.h — the floor virtual table of the SQLite benchmark
** (sqlite_floor.c): registered in sqlite_bench's connection only.
*/
#ifndef BENCH_SQLITE_FLOOR_H
#define BENCH_SQLITE_FLOOR_H

#include <sqlite3.h>

/* Register the module "bench_floor" on db; returns SQLite's result code. */
int floor_register(sqlite3 *db);

#endif /* BENCH_SQLITE_FLOOR_H */
