#!/bin/sh
# demo.sh — the main job (`make demo`, which runs `make all` first).
#   1. writes build/demo/rows.jj, 3000 rows of sample data with one nested
#      column of line items, made by the extension itself (tools/sample.sql:
#      jj_group + jj_write; the same rows every run);
#   2. runs a short sqlite3 session on it, echoing each statement: both read
#      forms, a typed query with a date filter, a row by its rowid with its
#      nested line items, an export with jj_group and jj_write, read back;
#   3. the same file with the command-line tool build/jalapenojson: its
#      schema, its first rows, a check of every value, CSV out and back.
set -eu
cd "$(dirname "$0")/.."
root=$(pwd)
dir=build/demo
rows=3000
mkdir -p "$dir"
[ -f jalapenojson.so ] && [ -x build/jalapenojson ] || { echo "demo.sh: run make first" >&2; exit 1; }

# stdout line-buffered, so errors (stderr) would show where they happen
sql() { (cd "$dir" && stdbuf -oL sqlite3 -batch -cmd ".load $root/jalapenojson" "$@"); }

echo "== writing $dir/rows.jj ($rows rows, made with jj_group and jj_write)"
{
  echo ".parameter set @n $rows"
  echo ".parameter set @out 'rows.jj'"
  cat tools/sample.sql
} | sql -noheader > /dev/null
echo "   $(wc -c < "$dir/rows.jj") bytes; its first lines:"
head -n 3 "$dir/rows.jj" | cut -c 1-150 | sed 's/^/   /'
echo
echo "== a sqlite3 session in $dir (sqlite3, then .load $root/jalapenojson)"
echo
sql -echo <<'EOF'
.mode box
-- 1. No CREATE needed: one row per record, as a JSON object.
SELECT row, record->>'user' AS user, record->>'city' AS city,
       record->>'price' AS price
  FROM jj_open('rows.jj') LIMIT 3;

-- 2. The typed table: the document's own columns and types.
CREATE VIRTUAL TABLE temp.rows USING jj_open('rows.jj');
SELECT name, type FROM pragma_table_info('rows');

-- 3. A typed query with a date filter.
SELECT city, count(*) AS customers, sum(seats) AS seats,
       round(avg(price), 2) AS avg_price
  FROM rows WHERE joined >= '2024-01-01'
 GROUP BY city ORDER BY customers DESC;

-- 4. Row 1042 directly, and its nested line items as a table of their own.
SELECT r.id, r.user, r.joined, i.record->>'sku' AS sku,
       i.record->>'qty' AS qty, i.record->>'price' AS price
  FROM rows r, jj_open(r.items) i WHERE r.rowid = 1042;

-- 5. Export the paying customers of 2024, compressed, and read it back.
SELECT jj_write('paid.jj.gz',
                jj_group('id', id, 'user', user, 'joined:d', joined,
                         'plan', plan, 'price:f', price)) AS bytes_written
  FROM rows WHERE plan <> 'free' AND joined >= '2024-01-01';
SELECT * FROM jj_schema('paid.jj.gz');
CREATE VIRTUAL TABLE temp.paid USING jj_open('paid.jj.gz');
SELECT plan, count(*) AS customers, round(sum(price), 2) AS revenue
  FROM paid GROUP BY plan ORDER BY revenue DESC;

EOF

# The command-line tool, each command echoed as typed.
cli() { echo "\$ jalapenojson $*"; build/jalapenojson "$@"; }
echo
echo "== the command-line tool, build/jalapenojson (make install puts it on the PATH)"
echo
cli schema "$dir/rows.jj"
cli head -n 3 -w 30 "$dir/rows.jj"
cli check "$dir/rows.jj"
cli convert -q "$dir/rows.jj" "$dir/rows.csv.gz"
cli convert "$dir/rows.csv.gz" "$dir/from_csv.jj"
