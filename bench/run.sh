#!/bin/sh
# run.sh [--large | --rows N] [--quick] — the whole benchmark in one command
# (also `make bench`): build the benchmark programs, generate the data,
# measure sizes and speed, and write bench/RESULTS.md and bench/chart.svg
# (bench/report.py).  See bench/README.md.
#
#   bench/run.sh            1,000 and 50,000 rows, then exports and globs at
#                           1,000,000 rows (about 15 minutes on 2 cores)
#   bench/run.sh --rows 1000000
#                           the SQLite reading tasks alone at 1,000,000 rows
#                           (native, floor, jalapenojson; about 25 minutes),
#                           kept in their own results file that RESULTS.md
#                           then shows with the default run's (`make bench-1m`)
#   bench/run.sh --large    also 1,000,000 rows for everything, and exports
#                           at 10,000,000 rows (well over an hour)
#   bench/run.sh --quick    a smoke test of the whole pipeline (one round,
#                           3 runs per process): writes
#                           bench/data/out/RESULTS-quick.md and chart-quick.svg
#                           and leaves RESULTS.md alone
#   YYJSON_DIR=/path/to/yyjson bench/run.sh
#                           include yyjson, built from that local source tree
#                           into a temporary directory (never part of this
#                           repository); without it yyjson is left out
set -eu
cd "$(dirname "$0")/.."

args=""
quick=""
while [ $# -gt 0 ]; do
  case "$1" in
    --large) args="$args --large" ;;
    --quick) args="$args --quick"; quick=--quick ;;
    --rows) [ $# -ge 2 ] || { echo "bench/run.sh: --rows needs a number" >&2; exit 2; }
            args="$args --rows $2"; shift ;;
    *) echo "usage: bench/run.sh [--large | --rows N] [--quick]" >&2; exit 2 ;;
  esac
  shift
done

tools/deps.sh bench
# `make bench` has just built everything; run on its own, build first.
if [ -z "${MAKELEVEL:-}" ]; then
  make --no-print-directory all
fi
for f in build/libjalapenojson.a jalapenojson.so; do
  [ -f "$f" ] || { echo "bench: $f is missing: run make" >&2; exit 1; }
done

# The programs, with the flags the library is built with (-O2, no -march).
B=build/bench
CC=${CC:-cc}
CFLAGS="-std=c11 -O2 -g -Wall -Wextra -pedantic -Wshadow -Wstrict-prototypes"
mkdir -p "$B"
echo "bench: building the benchmark programs into $B/"
$CC $CFLAGS bench/gen.c -o $B/gen -lm
$CC $CFLAGS bench/c_cjson.c -o $B/c_cjson -lcjson -lm
$CC $CFLAGS -Icore bench/c_jj.c -o $B/c_jj build/libjalapenojson.a -lcjson -lz -lbrotlienc -lbrotlidec -lm
$CC $CFLAGS bench/c_floor.c -o $B/c_floor -lm
$CC $CFLAGS bench/sqlite_bench.c bench/sqlite_floor.c -o $B/sqlite_bench -lsqlite3 -lcjson -lm
$CC $CFLAGS bench/export_scale.c -o $B/export_scale -lsqlite3
g++ -std=c++17 -O2 -g -Wall -Wextra bench/c_simdjson.cpp -o $B/c_simdjson -lsimdjson

yy=""
rm -f $B/c_yyjson
if [ -n "${YYJSON_DIR:-}" ]; then
  src="$YYJSON_DIR/src"
  [ -f "$src/yyjson.c" ] || src="$YYJSON_DIR"
  if [ ! -f "$src/yyjson.c" ]; then
    echo "bench: YYJSON_DIR=$YYJSON_DIR has no yyjson.c (nor src/yyjson.c)" >&2
    exit 1
  fi
  tmp=$(mktemp -d /tmp/jj-bench-yyjson.XXXXXX)
  trap 'rm -rf "$tmp"' EXIT
  $CC -O2 -c "$src/yyjson.c" -o "$tmp/yyjson.o"
  $CC $CFLAGS -I"$src" bench/c_yyjson.c "$tmp/yyjson.o" -o $B/c_yyjson -lcjson -lm
  YYJSON_VERSION=$(sed -n 's/^#define YYJSON_VERSION_STRING "\(.*\)"/\1/p' "$src/yyjson.h")
  export YYJSON_VERSION
  yy=--yyjson
  echo "bench: yyjson $YYJSON_VERSION from $YYJSON_DIR"
else
  echo "bench: YYJSON_DIR is not set: yyjson is left out (RESULTS.md says so)"
fi

# shellcheck disable=SC2086  # $args: words on purpose
/usr/bin/python3 -B bench/bench.py $args $yy
/usr/bin/python3 -B bench/report.py $quick
