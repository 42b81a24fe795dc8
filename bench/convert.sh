#!/bin/sh
# convert.sh [--csv-rows] [ROWS] — the converter's benchmark: JSON -> jj and CSV -> jj at
# ROWS rows (default 1,000,000) and back, against what a user would do
# instead, all in the same run.  Writes bench/CONVERT_RESULTS.md (generated:
# never edit it by hand) and prints it.
#
#   ours    bench/convert_bench (jj_convert from the file, jj_export to a
#           file); every output is read back and validated, and the
#           JSON -> jj and CSV -> jj outputs must equal, byte for byte, the
#           document bench/gen.c writes for the same rows
#   DuckDB  read_json / read_csv, single-threaded (SET threads=1), into a
#           table (CREATE TABLE AS), the row count checked; @duckdb/node-api
#           from the npm registry, installed into $DUCKDB_DIR (default
#           /tmp/duckdb-bench), never into the repository; left out with a
#           note when node or the package cannot be had
#   sqlite3 the CLI's .import --csv into a table (CSV only)
#   Python  json.load of the file / csv.reader over it (parsing only: the
#           least a script would do)
# Each task runs 3 times, interleaved with its peers; the run with the best
# wall time is kept, and the ratios to DuckDB are given by wall time and by
# CPU seconds (on a shared, loaded machine the CPU seconds are the steadier
# of the two).  Peak RSS is the
# process's (getrusage, or /usr/bin/time for the CLIs; node's includes its
# runtime).  "stream" converts generated NDJSON through jj_input callbacks to
# a counting sink at ROWS and 10 x ROWS rows: the converter's memory alone.
#
# "CSV rows that do not fit": the cost of null padding and on_error skip
# (with a reject callback) when no row needs them, the same CSV converted
# plainly, with padding, and with padding and skip, CSV_ROWS_RUNS (default
# 7) times each, interleaved; the medians and their ratios to the plain
# path.  --csv-rows runs only these and replaces that section of
# bench/CONVERT_RESULTS.md.
set -eu
cd "$(dirname "$0")/.."
only_csv_rows=0
if [ "${1:-}" = --csv-rows ]; then only_csv_rows=1; shift; fi
rows=${1:-1000000}
csv_runs=${CSV_ROWS_RUNS:-7}
out=build/bench-convert
data=$out/data
duck=${DUCKDB_DIR:-/tmp/duckdb-bench}
mkdir -p "$data"

make --no-print-directory build/libjalapenojson.a >/dev/null
CFLAGS="-std=c11 -O2 -g -Wall -Wextra -pedantic -Wshadow -Wstrict-prototypes"
cc $CFLAGS bench/gen.c -o $out/gen -lm
cc $CFLAGS -Icore bench/convert_bench.c build/libjalapenojson.a -o $out/convert_bench \
  -lz -lbrotlienc -lbrotlidec -lm
B=$out/convert_bench

echo "convert.sh: generating $rows rows" >&2
[ -f "$data/repetitive-$rows.json" ] || $out/gen "$data" "$rows" >/dev/null
rep=$data/repetitive-$rows
ord=$data/orders-$rows
$B out csv "$rep.jj" "$rep.csv" >/dev/null
$B out ndjson "$ord.jj" "$ord.ndjson" >/dev/null

# csv_rows FILE: the CSV rows section (markdown) into FILE.
csv_rows() {
  r=$out/csv_rows.txt
  : > "$r"
  i=0
  while [ $i -lt "$csv_runs" ]; do
    i=$((i + 1))
    echo "convert.sh: CSV rows, round $i of $csv_runs" >&2
    for m in plain pad pad+skip; do
      arg=$m; [ $m = plain ] && arg=""
      line=$($B in "$rep.csv" $out/o.jj "$rep.jj" $arg | grep 'wall_s=') ||
        { echo "convert.sh: CSV rows ($m) failed" >&2; exit 1; }
      echo "$m $line" >> "$r"
    done
  done
  {
    echo "<!-- csv-rows -->"
    echo "### CSV rows that do not fit: the cost when none do"
    echo
    echo "The CSV above ($rows rows; load average $(cut -d' ' -f1 /proc/loadavg) when written), converted $csv_runs times each way, interleaved; medians, and the ratio to the plain path's median (1.00 = the same cost)."
    echo
    echo "| path | runs | median wall s | median CPU s | wall vs plain | CPU vs plain |"
    echo "|---|---:|---:|---:|---:|---:|"
    awk '
      { n = $1; for (i = 2; i <= NF; i++) { split($i, kv, "=");
          if (kv[1] == "wall_s") w[n, ++nw[n]] = kv[2];
          if (kv[1] == "cpu_s") c[n, ++nc[n]] = kv[2] } }
      function median(a, n, key,   i, j, t, v) {
        for (i = 1; i <= n; i++) v[i] = a[key, i] + 0
        for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
        return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
      }
      END {
        split("plain pad pad+skip", order, " ")
        label["plain"] = "plain"; label["pad"] = "null padding"; label["pad+skip"] = "null padding + on_error skip + reject callback"
        pw = median(w, nw["plain"], "plain"); pc = median(c, nc["plain"], "plain")
        for (k = 1; k <= 3; k++) { m = order[k]
          mw = median(w, nw[m], m); mc = median(c, nc[m], m)
          printf "| %s | %d | %.3f | %.3f | %.2f | %.2f |\n", label[m], nw[m], mw, mc, mw / pw, mc / pc }
      }' "$r"
    echo "<!-- /csv-rows -->"
  } > "$1"
}

md=bench/CONVERT_RESULTS.md
if [ $only_csv_rows = 1 ]; then
  csv_rows $out/csv_rows.md
  awk -v f=$out/csv_rows.md '
    /^<!-- csv-rows -->$/ { while ((getline l < f) > 0) print l; skip = 1; done = 1; next }
    /^<!-- \/csv-rows -->$/ { skip = 0; next }
    !skip { print }
    END { if (!done) { print ""; while ((getline l < f) > 0) print l } }' "$md" > $out/md.tmp
  mv $out/md.tmp "$md"
  cat "$md"
  exit 0
fi

have_duck=0
if command -v node >/dev/null 2>&1; then
  if [ ! -d "$duck/node_modules/@duckdb/node-api" ] && command -v npm >/dev/null 2>&1; then
    echo "convert.sh: installing @duckdb/node-api into $duck" >&2
    mkdir -p "$duck" && (cd "$duck" && npm install --silent @duckdb/node-api >/dev/null 2>&1) || true
  fi
  [ -d "$duck/node_modules/@duckdb/node-api" ] && have_duck=1
fi
duck_version=$(cd "$duck" 2>/dev/null && node -e "console.log(require('@duckdb/node-api/package.json').version)" 2>/dev/null || echo none)

results=$out/results.txt
: > "$results"
# run NAME COMMAND...: one run; its "wall_s=..." line goes to $results.
run() {
  name=$1; shift
  line=$("$@" 2>$out/err.txt | grep 'wall_s=' | head -n 1) || true
  if [ -z "$line" ]; then
    echo "convert.sh: $name failed: $(head -c 400 $out/err.txt)" >&2
    echo "$name FAILED" >> "$results"
  else
    echo "$name $line" | sed 's/^\([^ ]*\) [^ ]* /\1 /' >> "$results"
  fi
}
# An outside command timed by /usr/bin/time: "x wall_s=.. cpu_s=.. rss_mb=..".
timed() {
  bytes=$1; shift
  /usr/bin/time -f "x wall_s=%e cpu_s=%U+%S rss_kb=%M" "$@" >/dev/null 2>$out/time.txt || return 1
  tail -n 1 $out/time.txt | awk -v b="$bytes" '{
    split($3, c, "="); split(c[2], u, "+"); split($4, r, "=");
    split($2, w, "=");
    printf "x wall_s=%s cpu_s=%.3f bytes=%d mb_s=%.1f rss_mb=%.1f\n", w[2], u[1] + u[2], b,
      b / 1e6 / (w[2] > 0 ? w[2] : 0.001), r[2] / 1024 }'
}
size() { stat -c %s "$1"; }

py=/usr/bin/python3
for i in 1 2 3; do
  echo "convert.sh: round $i" >&2
  run "json-ours" $B in "$rep.json" $out/o.jj "$rep.jj"
  [ $have_duck = 1 ] && run "json-duckdb" env NODE_PATH="$duck/node_modules" node bench/convert_duckdb.cjs json "$rep.json" "$rows"
  run "json-python" timed "$(size "$rep.json")" $py -c "import json,sys; json.load(open(sys.argv[1]))" "$rep.json"
  run "nested-ours" $B in "$ord.json" $out/o.jj "$ord.jj"
  [ $have_duck = 1 ] && run "nested-duckdb" env NODE_PATH="$duck/node_modules" node bench/convert_duckdb.cjs json "$ord.json" "$rows"
  run "ndjson-ours" $B in "$ord.ndjson" $out/o.jj "$ord.jj"
  run "csv-ours" $B in "$rep.csv" $out/o.jj "$rep.jj"
  [ $have_duck = 1 ] && run "csv-duckdb" env NODE_PATH="$duck/node_modules" node bench/convert_duckdb.cjs csv "$rep.csv" "$rows"
  run "csv-sqlite3" timed "$(size "$rep.csv")" sqlite3 :memory: ".import --csv $rep.csv t"
  run "csv-python" timed "$(size "$rep.csv")" $py -c "import csv,sys; sum(1 for _ in csv.reader(open(sys.argv[1], newline='')))" "$rep.csv"
  run "tojson-ours" $B out json "$rep.jj" $out/o.json
  run "tondjson-ours" $B out ndjson "$ord.jj" $out/o.ndjson
  run "tocsv-ours" $B out csv "$rep.jj" $out/o.csv
done
run "stream-1x" $B stream "$rows"
run "stream-10x" $B stream "$((rows * 10))"
csv_rows $out/csv_rows.md

# The best (lowest wall) run of each task, as a table.
{
  echo "# Converter benchmark results"
  echo
  echo "Generated by \`bench/convert.sh\`; do not edit by hand. Each row is the best (lowest wall time) of its runs."
  echo
  echo "|  |  |"
  echo "|---|---|"
  echo "| rows | $rows |"
  echo "| CPU | $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1), $(nproc) cores |"
  echo "| load average at the end | $(cut -d' ' -f1 /proc/loadavg) |"
  echo "| DuckDB | $duck_version |"
  echo "| date | $(date -u '+%Y-%m-%d %H:%M UTC') |"
  echo "| commit | $(git rev-parse HEAD 2>/dev/null || echo unknown) |"
  echo
  echo "| task | tool | input MB | best wall s | CPU s | MB/s | peak RSS MB | vs DuckDB (wall) | vs DuckDB (CPU) |"
  echo "|---|---|---:|---:|---:|---:|---:|---:|---:|"
  awk '
    $2 == "FAILED" { failed[$1] = 1; next }
    {
      n = $1; for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
      if (!(n in wall) || v["wall_s"] + 0 < wall[n] + 0) {
        wall[n] = v["wall_s"]; cpu[n] = v["cpu_s"]; mb[n] = v["bytes"] / 1e6;
        rate[n] = v["mb_s"]; rss[n] = v["rss_mb"]
      }
      if (!(n in order)) { order[n] = ++k; names[k] = n }
    }
    END {
      split("json:JSON array -> jj,nested:JSON with a nested table -> jj,ndjson:NDJSON with a nested table -> jj,csv:CSV -> jj,tojson:jj -> JSON,tondjson:jj (nested) -> NDJSON,tocsv:jj -> CSV,stream:generated NDJSON -> jj (memory)", T, ",")
      for (t in T) { split(T[t], p, ":"); title[p[1]] = p[2] }
      for (i = 1; i <= k; i++) {
        n = names[i]; split(n, p, "-"); task = p[1]; tool = p[2]
        peer = task "-duckdb"; ratio = ""; cratio = ""
        if (tool != "duckdb" && (peer in wall) && wall[n] > 0) ratio = sprintf("%.2fx", wall[peer] / wall[n])
        if (tool != "duckdb" && (peer in cpu) && cpu[n] > 0) cratio = sprintf("%.2fx", cpu[peer] / cpu[n])
        printf "| %s | %s | %.1f | %s | %s | %s | %s | %s | %s |\n", title[task], tool, mb[n], wall[n], cpu[n], rate[n], rss[n], ratio, cratio
      }
      for (n in failed) printf "| %s | FAILED | | | | | | | |\n", n
    }' "$results"
  echo
  echo "ours: jj_convert / jj_export (bench/convert_bench.c), outputs validated and equal to bench/gen.c's documents; DuckDB: CREATE TABLE AS SELECT * FROM read_json/read_csv with SET threads=1; sqlite3: .import --csv; Python: json.load / csv.reader only. stream-1x/10x: the same converter at $rows and $((rows * 10)) generated rows, peak RSS of the whole process."
  echo
  echo "Where the time of CSV -> jj goes (splitting and classifying fields, the writer, the kernel's reads and writes), and why it is not lower: [docs/performance.md](../docs/performance.md#size-and-speed-against-json)."
  echo
  cat $out/csv_rows.md
} > "$md"
cat "$md"
