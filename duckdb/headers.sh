#!/bin/sh
# headers.sh DIR — DuckDB's C headers (duckdb.h, duckdb_extension.h) into
# DIR/include, from the npm registry's `duckdb` package, which ships
# DuckDB's source.  The extension compiles against them; they are never
# part of this repository.  A no-op when both are there.
#   duckdb/headers.sh build/duckdb-headers
set -eu
dir=${1:?usage: duckdb/headers.sh DIR}
# The C extension API is stable from DuckDB 1.2 on: headers of any later
# release declare version 1.2.0 of it as 1.2.0 has it.  This release's are
# the ones the extension is built and tested against.
version=1.4.4
if [ -f "$dir/include/duckdb.h" ] && [ -f "$dir/include/duckdb_extension.h" ]; then
  exit 0
fi
mkdir -p "$dir/include"
cd "$dir"
rm -f duckdb-*.tgz
npm pack --silent "duckdb@$version" >/dev/null
tarball=$(ls duckdb-*.tgz)
# The package holds a whole DuckDB source tree: take the two headers only,
# found by name wherever this release keeps them.
for h in duckdb.h duckdb_extension.h; do
  member=$(tar tzf "$tarball" | grep "/src/include/$h\$" | head -n 1)
  [ -n "$member" ] || { echo "headers.sh: no $h in $tarball" >&2; exit 1; }
  tar xzf "$tarball" -O "$member" > "include/$h.tmp"
  mv "include/$h.tmp" "include/$h"
done
rm -f "$tarball"
