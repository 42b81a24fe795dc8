#!/bin/sh
# run.sh [--quick] BUILD_DIR... — run the suite against each build directory
# and end with one line "N passed, M failed" counting test cases:
#   - every C test program BUILD/tests/test_* (tests/core/*.c): its TESTs
#   - every Python test script tests/*/test_*.py, run as
#     `python3 SCRIPT BUILD`: its check()s as written (see tests/lib/jjtest.py)
#   - every SQL script sql/NAME.sql, its output through the sqlite3 CLI
#     compared in full with sql/NAME.expected: one case each
# then the checks of the sources themselves, once per run (one case each):
#   - core/numtables.c and .h are what tools/gen_numtables.py generates
#   - README.md lists the packages tools/deps.sh installs
# Each program also prints how many checks it made (loop iterations
# included); those lines are shown, not summed.
#
# The build directories' suites run at the same time (they share nothing
# but the files the documentation's examples and the SQL scripts write in
# the checkout, which they take turns at under a lock); each suite's output
# is printed whole when all are done.  A build directory named */san holds
# the ASan+UBSan build: the sqlite3 and python3 processes then get the
# sanitizer runtimes preloaded.  One named */portable holds the portable
# build of the core (no SWAR, no SIMD, no extension): only its C test
# programs run.  --quick leaves out the JavaScript module's tests (make
# check): test_js.py, and the JS cases of the other scripts (JJ_QUICK=1);
# and the DuckDB extension's, test_duckdb.py.
set -u
cd "$(dirname "$0")/.."
root=$(pwd)
quick=0
if [ "${1:-}" = --quick ]; then quick=1; shift; export JJ_QUICK=1; fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
lock="$work/checkout.lock"
: > "$lock"

# Add the counts of "... N passed, M failed" lines of $1 to the suite's.
tally() {
  counts=$(sed -n 's/.*: \([0-9][0-9]*\) passed, \([0-9][0-9]*\) failed$/\1 \2/p' "$1")
  if [ -z "$counts" ]; then
    echo "  $2: no summary line (crashed?)"; tail -n 20 "$1"; failed=$((failed + 1)); return
  fi
  set -- $(echo "$counts" | awk '{p += $1; f += $2} END {print p, f}')
  passed=$((passed + $1)); failed=$((failed + $2))
}

# Scripts that write into the checkout (the documentation's examples, the
# command-line sessions) run one at a time across suites.
writes_checkout() {
  case "$1" in tests/project/test_docs.py|tests/project/test_readme.py|tests/cli/test_cli.py) return 0 ;; esac
  return 1
}

# suite BUILD_DIR: run one build's tests; prints its lines, and "P F" last.
suite() {
  b=$1
  passed=0; failed=0
  log="$work/$(echo "$b" | tr / _).log"
  preload=""
  case "$b" in
    *san*)
      export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:halt_on_error=1
      export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
      preload="$(gcc -print-file-name=libasan.so) $(gcc -print-file-name=libubsan.so)" ;;
    *) unset ASAN_OPTIONS UBSAN_OPTIONS 2>/dev/null ;;
  esac
  for t in "$b"/tests/test_*; do
    [ -x "$t" ] || continue
    case "$t" in *.c|*.o) continue ;; esac
    "$t" > "$log" 2>&1
    rc=$?
    grep -E 'passed, [0-9]+ failed$|[0-9]+ checks$|^FAIL|ERROR|runtime error|SKIPPED' "$log" | sed 's/^/  /' | head -n 40
    tally "$log" "$(basename "$t")"
    [ $rc -ne 0 ] && ! grep -q ' [1-9][0-9]* failed$' "$log" && { echo "  $(basename "$t") exited $rc"; failed=$((failed + 1)); }
  done
  case "$b" in *portable) echo "$passed $failed"; return ;; esac
  for t in tests/*/test_*.py; do
    [ -f "$t" ] || continue
    [ $quick = 1 ] && [ "$t" = tests/bindings/test_js.py ] && continue
    [ $quick = 1 ] && [ "$t" = tests/bindings/test_duckdb.py ] && continue
    lockit=""
    writes_checkout "$t" && lockit="flock $lock"
    # Python itself leaks by design; check only our errors under ASan there.
    LD_PRELOAD="$preload" ASAN_OPTIONS="${ASAN_OPTIONS:+detect_leaks=0}" $lockit /usr/bin/python3 "$t" "$root/$b" > "$log" 2>&1
    rc=$?
    grep -E 'passed, [0-9]+ failed$|[0-9]+ checks$|^FAIL|ERROR|Error|SKIPPED' "$log" | sed 's/^/  /' | head -n 40
    tally "$log" "$(basename "$t")"
    [ $rc -ne 0 ] && ! grep -q ' [1-9][0-9]* failed$' "$log" && { echo "  $(basename "$t") exited $rc"; failed=$((failed + 1)); }
  done
  so="$root/$b/jalapenojson"
  [ "$b" = build ] && so="$root/jalapenojson"
  sp=0; sf=0
  for s in sql/*.sql; do
    [ -f "$s" ] || continue
    exp="${s%.sql}.expected"
    out=$(cd sql && LD_PRELOAD="$preload" flock "$lock" sqlite3 -batch -cmd ".load $so" < "$(basename "$s")" 2>&1)
    if [ -f "$exp" ] && [ "$out" = "$(cat "$exp")" ]; then
      sp=$((sp + 1))
    else
      sf=$((sf + 1))
      echo "  FAIL $s (output differs from $exp):"
      printf '%s\n' "$out" > "$log"
      diff "$exp" "$log" | head -n 30 | sed 's/^/    /'
    fi
  done
  [ $((sp + sf)) -gt 0 ] && echo "  sql: $sp passed, $sf failed"
  echo "$((passed + sp)) $((failed + sf))"
}

for b in "$@"; do
  suite "$b" > "$work/suite.$(echo "$b" | tr / _)" 2>&1 &
done
wait

passed=0
failed=0
for b in "$@"; do
  out="$work/suite.$(echo "$b" | tr / _)"
  echo "== suite in $b"
  sed '$d' "$out"
  set -- $(tail -n 1 "$out")
  case "${1:-}" in
    ''|*[!0-9]*) echo "  the suite did not finish"; failed=$((failed + 1)) ;;
    *) passed=$((passed + $1)); failed=$((failed + $2)) ;;
  esac
done

# One check: run the command quietly, show its output when it fails.
log="$work/check.log"
check() {
  name=$1; shift
  if "$@" > "$log" 2>&1; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "  FAIL $name:"; sed 's/^/    /' "$log" | head -n 20
  fi
}
# The words between <!-- NAME --> and <!-- /NAME --> in README.md, as a
# sorted list, against the same from a command's output.
same_words() {
  a=$(sed -n "s|.*<!-- $1 -->\(.*\)<!-- /$1 -->.*|\1|p" README.md | tr -d '`' | tr -s ' ' '\n' | sort)
  shift
  b=$("$@" | tr -s ' ' '\n' | sort)
  [ -n "$a" ] && [ "$a" = "$b" ] && return 0
  echo "README.md lists: $(echo $a)"; echo "$* gives: $(echo $b)"; return 1
}
echo "== source checks"
sp=$passed; sf=$failed
check "core/numtables.c/.h are stale: run python3 tools/gen_numtables.py" \
  /usr/bin/python3 -B tools/gen_numtables.py --check
check "README.md's package list differs from tools/deps.sh" same_words deps tools/deps.sh --list
check "README.md's benchmark package list differs from tools/deps.sh" same_words deps-bench tools/deps.sh --list bench
echo "  sources: $((passed - sp)) passed, $((failed - sf)) failed"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
