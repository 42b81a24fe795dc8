#!/bin/sh
# bench/glob.sh [ROWS [JSON]] — globs and the document cache, timed in one
# connection of Python's sqlite3 with the extension (./jalapenojson.so,
# `make` first).  ROWS (default 1000000) rows are written once as one file
# (plain and .gz) and as 100 files of ROWS/100 rows; then, best of 5:
#   - sum(amount) over the typed table of the one file vs of the glob
#     'parts/*.jj' (first statement = cold, then warm: the single file is
#     kept by its table, the glob's files by the cache);
#   - SELECT ... FROM jj_open('one.jj.gz') WHERE row = 10: the first
#     statement, the second (cache), the second with jj_cache_size(0), and
#     the same over the plain file.
# Prints one line per measurement (milliseconds); with JSON, also writes
# them to that file as {"rows", "sizes", "ms": {name: ms}} (bench/scale.py
# puts them in RESULTS.md).
set -eu
cd "$(dirname "$0")/.."
rows=${1:-1000000}
json=${2:-}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
/usr/bin/python3 - "$PWD/jalapenojson" "$dir" "$rows" "$json" <<'EOF'
import json, os, sqlite3, sys, time

so, d, rows, json_out = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
measured = {}
per = rows // 100
conn = sqlite3.connect(":memory:")
conn.enable_load_extension(True)
conn.load_extension(so)
os.mkdir(os.path.join(d, "parts"))
conn.execute(f"""CREATE TEMP TABLE r AS WITH RECURSIVE s(v) AS (SELECT 1
  UNION ALL SELECT v + 1 FROM s WHERE v < {rows}) SELECT v AS id,
  'user' || (v % 977) AS name, v * 0.25 AS amount,
  'note ' || hex(v * 7919) AS note FROM s""")
group = "jj_group('id', id, 'name', name, 'amount', amount, 'note', note)"
one = os.path.join(d, "one.jj")
conn.execute(f"SELECT jj_write(?, (SELECT {group} FROM r))", (one,))
conn.execute(f"SELECT jj_write(?, (SELECT {group} FROM r))", (one + ".gz",))
for k in range(100):
    conn.execute(f"SELECT jj_write(?, (SELECT {group} FROM r WHERE id > ? "
                 f"AND id <= ?))", (os.path.join(d, "parts", f"part-{k:03d}.jj"),
                                   k * per, (k + 1) * per))
conn.execute("DROP TABLE r")
sizes = {"one": os.path.getsize(one), "one_gz": os.path.getsize(one + ".gz"),
         "parts": sum(os.path.getsize(os.path.join(d, "parts", f))
                      for f in os.listdir(os.path.join(d, "parts")))}
print(f"glob bench: {rows} rows; one file {sizes['one']} bytes, "
      f".gz {sizes['one_gz']} bytes; 100 files of {per} rows")


def ms(sql, args=(), runs=5, setup=None):
    best = None
    for _ in range(runs):
        if setup:
            setup()
        t = time.perf_counter()
        conn.execute(sql, args).fetchall()
        e = (time.perf_counter() - t) * 1000
        best = e if best is None or e < best else best
    return best


def report(name, v):
    measured[name] = round(v, 5)
    print(f"  {name:<62} {v:9.2f} ms")


def cold_one():
    conn.execute("DROP TABLE IF EXISTS temp.one")
    conn.execute(f"CREATE VIRTUAL TABLE temp.one USING jj_open('{one}')")


def cold_glob():
    conn.execute("SELECT jj_cache_size(0)")
    conn.execute("SELECT jj_cache_size(268435456)")


conn.execute(f"CREATE VIRTUAL TABLE temp.g USING "
             f"jj_open('{os.path.join(d, 'parts', '*.jj')}')")
report("one file: sum(amount), first statement",
       ms("SELECT sum(amount) FROM one", setup=cold_one))
report("one file: sum(amount), again", ms("SELECT sum(amount) FROM one"))
report("glob of 100 files: sum(amount), first statement (cache empty)",
       ms("SELECT sum(amount) FROM g", setup=cold_glob))
report("glob of 100 files: sum(amount), again (cached)",
       ms("SELECT sum(amount) FROM g"))
report("glob: WHERE filename LIKE '%part-042%' (cached)",
       ms("SELECT sum(amount) FROM g WHERE filename LIKE '%part-042%'"))

q = "SELECT record FROM jj_open(?) WHERE row = 10"
report("one.jj.gz WHERE row = 10, first statement (cache empty)",
       ms(q, (one + ".gz",), setup=cold_glob))
report("one.jj.gz WHERE row = 10, second statement (cached)",
       ms(q, (one + ".gz",)))
report("one.jj WHERE row = 10, second statement (cached)", ms(q, (one,)))
conn.execute("SELECT jj_cache_size(0)")
report("one.jj.gz WHERE row = 10, jj_cache_size(0)", ms(q, (one + ".gz",)))
report("one.jj WHERE row = 10, jj_cache_size(0)", ms(q, (one,)))
if json_out:
    with open(json_out, "w") as f:
        json.dump({"rows": rows, "files": 100, "sizes": sizes, "ms": measured}, f, indent=1)
EOF
