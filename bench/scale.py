#!/usr/bin/python3
"""scale.py - the measurements at scale, for RESULTS.md's "Scale"
section (bench.py calls run(); `bench/scale.py ROWS...` runs it alone and
prints the JSON):

1. Export, time and peak memory: jj_export(path, query) against
   jj_write(path, jj_group(...)) and json_group_array(json_object(...))
   written to a file, over a 7-column table of ROWS rows in a SQLite file
   (bench/data/out/scale-ROWS.db, made once: the data is deterministic).
   Each export runs in its own process (build/bench/export_scale), which
   reports its time, its resident memory before and its peak after
   (VmHWM), and checks the rows it wrote by reading them
   back.  3 runs of each, interleaved; the median time and the largest
   peak are kept.
2. Globs and the .gz second statement: bench/glob.sh at the first ROWS
   (one file against 100 files of ROWS/100 rows; a .gz document's first
   statement, second statement served by the cache, and with the cache
   off), best of 5 in one connection.
"""
import json
import os
import sqlite3
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "bench", "data", "out")
BIN = os.path.join(ROOT, "build", "bench")
METHODS = ("jj_export", "jj_group", "json")
RUNS = 3

# The repetitive set's shape (bench/README.md, "The data"), made in SQL.
SOURCE_SQL = """
CREATE TABLE t(id INTEGER, user TEXT, city TEXT, plan TEXT, seats INTEGER, price REAL, joined TEXT);
INSERT INTO t WITH RECURSIVE s(v) AS (SELECT 1 UNION ALL SELECT v + 1 FROM s WHERE v < {rows})
SELECT v, printf('u%04d', (v * 7919) % 2000),
  json_extract('["Oslo","Bergen","Tromsø","Lisbon","Porto","Austin","Lyon","Kyoto"]',
               '$[' || ((v * 31) % 8) || ']'),
  json_extract('["free","basic","pro","team"]', '$[' || ((v * 17) % 4) || ']'),
  1 + (v * 13) % 20,
  json_extract('[19.99,29,9.5,49.99,99,4.99,14.25,199]', '$[' || ((v * 7) % 8) || ']'),
  date('2015-01-01', '+' || ((v * 37) % 3650) || ' days')
FROM s;
"""


def source_db(rows):
    """bench/data/out/scale-ROWS.db with table t of ROWS rows (made once)."""
    path = os.path.join(OUT, "scale-%d.db" % rows)
    if os.path.exists(path):
        try:
            with sqlite3.connect("file:%s?mode=ro" % path, uri=True) as c:
                if c.execute("SELECT count(*) FROM t").fetchone()[0] == rows:
                    return path
        except sqlite3.Error:
            pass
        os.remove(path)
    print("bench: writing %s (%s rows)" % (os.path.relpath(path, ROOT), "{:,}".format(rows)), file=sys.stderr, flush=True)
    tmp = path + ".tmp"
    if os.path.exists(tmp):
        os.remove(tmp)
    c = sqlite3.connect(tmp)
    c.executescript(SOURCE_SQL.format(rows=rows))
    c.commit()
    c.close()
    os.replace(tmp, path)
    return path


def export_once(method, db, out, env):
    """One export process: its parsed result line, or the failure."""
    p = subprocess.run([os.path.join(BIN, "export_scale"), method, db, out], cwd=ROOT, env=env,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = p.stdout.strip().splitlines()[-1] if p.stdout.strip() else ""
    if p.returncode == 4 and line.startswith("failed "):
        head, _, error = line.partition(" error=")
        fields = dict(kv.split("=", 1) for kv in head.split()[2:])
        return {"failed": error, "ns": int(fields["ns"]), "peak_kb": int(fields["peak_kb"])}
    if p.returncode != 0 or not line.startswith("ok "):
        sys.stderr.write("bench: FAILED: export_scale %s %s\n%s%s" % (method, db, p.stdout, p.stderr))
        sys.exit(1)
    return {k: int(v) for k, v in (kv.split("=", 1) for kv in line.split()[2:])}


def export(rows, env, runs=RUNS):
    """Every method's median time and largest peak over `runs` runs."""
    db = source_db(rows)
    got = {m: [] for m in METHODS}
    with tempfile.TemporaryDirectory(prefix="jj-export-", dir=OUT) as d:
        for r in range(runs):
            for m in METHODS[r % len(METHODS):] + METHODS[:r % len(METHODS)]:   # rotated order
                got[m].append(export_once(m, db, os.path.join(d, "out." + ("json" if m == "json" else "jj")), env))
    result = {}
    for m, rs in got.items():
        ok = [x for x in rs if "failed" not in x]
        if not ok:
            result[m] = {"failed": rs[0]["failed"], "ns": sorted(x["ns"] for x in rs)[len(rs) // 2],
                         "peak_kb": max(x["peak_kb"] for x in rs)}
            continue
        ns = sorted(x["ns"] for x in ok)
        result[m] = {"ns": ns[len(ns) // 2], "ns_all": [x["ns"] for x in ok],
                     "peak_kb": max(x["peak_kb"] for x in ok), "base_kb": min(x["base_kb"] for x in ok),
                     "bytes": ok[0]["bytes"], "rows": ok[0]["rows"], "runs": len(ok)}
    return result


def globs(rows):
    """bench/glob.sh ROWS, its measurements."""
    with tempfile.NamedTemporaryFile(suffix=".json", dir=OUT) as f:
        subprocess.run([os.path.join(ROOT, "bench", "glob.sh"), str(rows), f.name], cwd=ROOT, check=True,
                       stdout=subprocess.DEVNULL)
        return json.load(open(f.name))


def run(rows_list, quick=False):
    """The scale section's data: export at every ROWS, globs at the first."""
    env = dict(os.environ, JJ_EXTENSION=os.path.join(ROOT, "jalapenojson"))
    out = {"export": {}, "glob": None}
    for rows in rows_list:
        print("bench: export at %s rows (3 ways, %d run(s) each, one process per run)"
              % ("{:,}".format(rows), 1 if quick else RUNS), file=sys.stderr, flush=True)
        out["export"][str(rows)] = export(rows, env, 1 if quick else RUNS)
    print("bench: globs and the .gz second statement at %s rows (bench/glob.sh)"
          % "{:,}".format(rows_list[0]), file=sys.stderr, flush=True)
    out["glob"] = globs(rows_list[0])
    return out


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit("usage: bench/scale.py ROWS...")
    os.makedirs(OUT, exist_ok=True)
    print(json.dumps(run([int(a) for a in sys.argv[1:]]), indent=1))
