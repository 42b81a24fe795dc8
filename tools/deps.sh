#!/bin/sh
# deps.sh — install the Debian packages this project needs, only those that
# are missing, so `make test` and `make demo` work on a fresh Debian 12.
#   tools/deps.sh            build and test dependencies
#   tools/deps.sh bench      also the benchmark's (g++, simdjson)
#   tools/deps.sh fuzz       also libFuzzer for `make fuzz` (clang's runtime)
set -eu

pkgs="gcc clang make libc6-dev pkg-config zlib1g-dev libbrotli-dev libsqlite3-dev sqlite3 libcjson-dev python3"
if [ "${1:-}" = bench ]; then
  pkgs="$pkgs g++ libsimdjson-dev brotli gzip valgrind"
fi
if [ "${1:-}" = fuzz ]; then
  pkgs="$pkgs libclang-rt-14-dev"
fi

missing=""
for p in $pkgs; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing="$missing $p"
  fi
done
[ -z "$missing" ] && exit 0

echo "deps.sh: installing missing Debian packages:$missing"
if [ "$(id -u)" != 0 ]; then
  echo "deps.sh: not root; run as root or install them yourself: apt-get install$missing" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
# The package lists of a fresh machine may be empty or stale: update once
# if the first attempt cannot find a package.
if ! apt-get install -y --no-install-recommends $missing; then
  apt-get update
  apt-get install -y --no-install-recommends $missing
fi
