#!/bin/sh
# deps.sh — install the Debian packages this project needs, only those that
# are missing, so `make test` and `make demo` work on a fresh Debian 12.
# README.md lists the same packages (tests/run.sh checks that it does).
#   tools/deps.sh              build and test dependencies (`make deps`)
#   tools/deps.sh bench        also the benchmark's (bench/run.sh)
#   tools/deps.sh --list       print the build and test packages, install nothing
#   tools/deps.sh --list bench print the benchmark's extra packages
#   tools/deps.sh fuzz         also libFuzzer for `make fuzz` (clang's runtime)
#   tools/deps.sh browser      also Chromium for the JavaScript module's
#                              browser test (`make test`)
#   tools/deps.sh --list browser  print the browser test's extra packages
set -eu

# gcc and clang (the warnings check uses both), libc6-dev (gcc only
# recommends it), the libraries and their headers, the sqlite3 shell (SQL
# tests, demo) and python3 (tests/*.py); for the Python module (make
# python): its headers, venv, setuptools and wheel to build it offline, and
# pytest to test it.
base="gcc clang make libc6-dev zlib1g-dev libbrotli-dev libsqlite3-dev sqlite3 libcjson-dev python3"
base="$base python3-dev python3-venv python3-setuptools python3-wheel python3-pytest"
# The JavaScript module (js/, `make js`): clang's wasm32 target needs lld
# (wasm-ld), wasi-libc and the wasm32 compiler runtime; binaryen's
# wasm-opt shrinks the module; Node runs it, npm packs it.
base="$base lld wasi-libc libclang-rt-14-dev-wasm32 binaryen nodejs npm"
# Chromium runs the module in a real browser (js/test/browser.test.mjs).
browser="chromium"
# g++ and simdjson for the C++ peer, the brotli and gzip tools for the sizes,
# valgrind (callgrind) for the profiles.
bench="g++ libsimdjson-dev brotli gzip valgrind"

if [ "${1:-}" = --list ]; then
  case "${2:-}" in
    bench) echo "$bench" ;;
    browser) echo "$browser" ;;
    *) echo "$base" ;;
  esac
  exit 0
fi
pkgs=$base
if [ "${1:-}" = bench ]; then
  pkgs="$pkgs $bench"
fi
if [ "${1:-}" = fuzz ]; then
  pkgs="$pkgs libclang-rt-14-dev"
fi
if [ "${1:-}" = browser ]; then
  pkgs="$pkgs $browser"
fi

missing=""
for p in $pkgs; do
  # NodeSource's nodejs package bundles npm (and conflicts with Debian's):
  # an npm on the PATH is enough.
  if [ "$p" = npm ] && command -v npm >/dev/null 2>&1; then continue; fi
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
