#!/bin/sh
# python_run.sh [--rows N] [--rounds R] — the Python module's benchmark
# (bench/python_bench.py) in one command: builds the data generator and the
# data bench/run.sh uses (bench/data/out/, 1,000 and 50,000 rows) when they
# are missing, builds the module (make python: build/venv, Debian's
# python3), and runs the benchmark with the venv's python.  About 2 minutes
# on 2 cores.  The numbers are printed and kept in
# bench/data/out/python-results.json (not committed).
set -eu
cd "$(dirname "$0")/.."
mkdir -p build/bench bench/data/out
if [ ! -x build/bench/gen ]; then
  ${CC:-cc} -std=c11 -O2 -g -Wall -Wextra -pedantic bench/gen.c -o build/bench/gen -lm
fi
if [ ! -f bench/data/out/repetitive-50000.sum ]; then
  build/bench/gen bench/data/out 1000 50000
fi
make --no-print-directory python
exec build/venv/bin/python bench/python_bench.py "$@"
