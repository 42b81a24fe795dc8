#!/bin/sh
# run.sh SECONDS HARNESS... — run each libFuzzer harness (built by
# `make fuzz-build` into build/fuzz/) for SECONDS, one after another:
#   corpus     build/fuzz/corpus/NAME, seeded on the first run from
#              sql/data/* and tests/fuzz/seeds/* (fuzz_reader's first byte
#              is its depth limit: its seeds get a 0 byte in front; the
#              writer's input is a program, it starts from nothing)
#   log        build/fuzz/NAME.log (libFuzzer's output, final stats)
#   findings   build/fuzz/crashes/NAME-crash-..., -leak-..., -timeout-...
# Prints one line per harness (executions, coverage, result) and exits 1
# if any harness found something.  FUZZ_FLAGS adds libFuzzer options.
set -u
cd "$(dirname "$0")/../.."
seconds=$1
shift
out=build/fuzz
mkdir -p "$out/crashes"
status=0
for h in "$@"; do
  name=$(basename "$h")
  corpus=$out/corpus/$name
  if [ ! -d "$corpus" ]; then
    mkdir -p "$corpus"
    case "$name" in
      fuzz_writer) ;;
      fuzz_reader)
        for f in sql/data/* tests/fuzz/seeds/*; do
          printf '\000' | cat - "$f" > "$corpus/$(basename "$f")"
        done ;;
      *) cp sql/data/* tests/fuzz/seeds/* "$corpus/" ;;
    esac
  fi
  log=$out/$name.log
  # shellcheck disable=SC2086 # FUZZ_FLAGS is a list of options
  "$h" -max_total_time="$seconds" -print_final_stats=1 -timeout=30 \
    -artifact_prefix="$out/crashes/$name-" ${FUZZ_FLAGS:-} "$corpus" \
    > "$log" 2>&1
  rc=$?
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
  cov=$(grep -E '^#[0-9]+' "$log" | tail -n 1 | sed -n 's/.* cov: \([0-9]*\) ft: \([0-9]*\) corp: \([^ ]*\).*/cov \1, ft \2, corpus \3/p')
  if [ $rc -eq 0 ]; then
    echo "$name: ${runs:-?} executions in ${seconds} s, $cov, no findings"
  else
    status=1
    echo "$name: FINDING (exit $rc) after ${runs:-?} executions, $cov; see $log"
    grep -E '^==[0-9]+==ERROR|SUMMARY|^artifact_prefix|Test unit written' "$log" | head -n 5 | sed 's/^/  /'
  fi
done
exit $status
