#!/bin/sh
# run.sh BUILD_DIR... — run the whole suite against each build directory:
#   - every C test program BUILD/tests/test_*      (prints "suite: N passed, M failed")
#   - every Python test tests/test_*.py BUILD      (same line)
#   - every SQL script sql/NAME.sql, its output through the sqlite3 CLI
#     compared in full with sql/NAME.expected     (one check per script)
# then the checks of the sources themselves, once per run (one check each):
#   - core/numtables.c and .h are what tools/gen_numtables.py generates
#   - README.md lists the packages tools/deps.sh installs
# and end with the total line "N passed, M failed".  A build directory
# named */san holds the ASan+UBSan build: the sqlite3 and python3
# processes then get the sanitizer runtimes preloaded.  One named
# */portable holds the portable build of the core (no SWAR, no SIMD, no
# extension): only its C test programs run.
set -u
cd "$(dirname "$0")/.."
root=$(pwd)
passed=0
failed=0
log=$(mktemp)
trap 'rm -f "$log"' EXIT

# Add the counts from "... N passed, M failed" lines of $log.
tally() {
  counts=$(sed -n 's/.*: \([0-9][0-9]*\) passed, \([0-9][0-9]*\) failed$/\1 \2/p' "$log")
  if [ -z "$counts" ]; then
    echo "  $1: no summary line (crashed?)"; tail -n 20 "$log"; failed=$((failed + 1)); return
  fi
  echo "$counts" | { p=0; f=0; while read -r a b; do p=$((p + a)); f=$((f + b)); done; echo "$p $f" > "$log.sum"; }
  read -r p f < "$log.sum"; rm -f "$log.sum"
  passed=$((passed + p)); failed=$((failed + f))
}

for b in "$@"; do
  echo "== suite in $b"
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
    "$t" > "$log" 2>&1
    rc=$?
    grep -E 'passed, [0-9]+ failed$|^FAIL|ERROR|runtime error|SKIPPED' "$log" | sed 's/^/  /' | head -n 40
    tally "$(basename "$t")"
    [ $rc -ne 0 ] && ! grep -q ' [1-9][0-9]* failed$' "$log" && { echo "  $(basename "$t") exited $rc"; failed=$((failed + 1)); }
  done
  case "$b" in *portable) continue ;; esac
  for t in tests/test_*.py; do
    [ -f "$t" ] || continue
    # Python itself leaks by design; check only our errors under ASan there.
    LD_PRELOAD="$preload" ASAN_OPTIONS="${ASAN_OPTIONS:+detect_leaks=0}" /usr/bin/python3 "$t" "$root/$b" > "$log" 2>&1
    rc=$?
    grep -E 'passed, [0-9]+ failed$|^FAIL|ERROR|Error|SKIPPED' "$log" | sed 's/^/  /' | head -n 40
    tally "$(basename "$t")"
    [ $rc -ne 0 ] && ! grep -q ' [1-9][0-9]* failed$' "$log" && { echo "  $(basename "$t") exited $rc"; failed=$((failed + 1)); }
  done
  so="$root/$b/jalapenojson"
  [ "$b" = build ] && so="$root/jalapenojson"
  sp=0; sf=0
  for s in sql/*.sql; do
    [ -f "$s" ] || continue
    exp="${s%.sql}.expected"
    out=$(cd sql && LD_PRELOAD="$preload" sqlite3 -batch -cmd ".load $so" < "$(basename "$s")" 2>&1)
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
  passed=$((passed + sp)); failed=$((failed + sf))
done

# One check: run the command quietly, show its output when it fails.
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
