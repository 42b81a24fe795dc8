#!/usr/bin/env python3
"""open_csv.py [ROWS] [--rounds N] — a CSV file read in SQL: the typed table
jj_open makes over the .csv (the file converted whole, with a converter
option, into the connection's cache) against DuckDB's read_csv over the
same file, and against the typed table over the same rows as a .jj
document.  Writes bench/OPEN_CSV_RESULTS.md (generated: never edit it).

The file (default 1,000,000 rows): id INTEGER, x REAL with "NA" for null
every 50th row, name TEXT, day DATE, written here; the .jj is what
`jalapenojson convert --null NA` makes of it.  Three statements, each in
a fresh connection per round:

  first   CREATE VIRTUAL TABLE t USING jj_open('x.csv', null=NA) and
          SELECT count(*), sum(x) FROM t: the conversion included
          (DuckDB: the same query over read_csv(..., nullstr='NA'))
  second  the same SELECT again: from the cache (DuckDB reads the file again)
  scan    a full scan, every column read: count(*), sum(id), sum(x),
          sum(length(name)), max(day)

Every answer is checked against the others'.  DuckDB runs single-threaded
(SET threads=1) in node through bench/open_csv_duckdb.mjs, with
@duckdb/node-api from build/duckdb-node (`make duckdb-node`); without it
the DuckDB rows are left out and the file says so.  Rounds interleave the
three readers; a time is the best of the rounds (load on a shared machine
only adds time), the median beside it.  The load average is recorded at
the start and the end.
"""
import datetime
import json
import os
import platform
import sqlite3
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "bench", "data", "out")
EXT = os.path.join(ROOT, "jalapenojson")
TOOL = os.path.join(ROOT, "build", "jalapenojson")
SUM = "SELECT count(*), sum(x) FROM t"
SCAN = ("SELECT count(*), sum(id), sum(x), sum(length(name)), max(day) FROM t")


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.machine()


def load():
    with open("/proc/loadavg") as f:
        return f.read().split()[0]


def make_data(rows):
    """The CSV and its .jj, made once per row count."""
    os.makedirs(OUT, exist_ok=True)
    csv = os.path.join(OUT, "open-%d.csv" % rows)
    jj = os.path.join(OUT, "open-%d.jj" % rows)
    if not os.path.exists(csv):
        start = datetime.date(2024, 1, 1)
        days = [(start + datetime.timedelta(days=k)).isoformat() for k in range(365)]
        with open(csv + ".tmp", "w") as f:
            f.write("id,x,name,day\n")
            for i in range(1, rows + 1):
                x = "NA" if i % 50 == 0 else "%.2f" % ((i * 37 % 100000) / 100)
                f.write("%d,%s,name-%d,%s\n" % (i, x, i % 1000, days[i % 365]))
        os.replace(csv + ".tmp", csv)
    if not os.path.exists(jj):
        subprocess.run([TOOL, "convert", "-q", "--null", "NA", csv, jj], check=True)
    return csv, jj


def sqlite_run(source, options):
    """(first, second, scan seconds, the scan's answer) in a new connection."""
    conn = sqlite3.connect(":memory:")
    conn.enable_load_extension(True)
    conn.load_extension(EXT)
    t0 = time.perf_counter()
    conn.execute("CREATE VIRTUAL TABLE temp.t USING jj_open('%s'%s)"
                 % (source.replace("'", "''"), options))
    a = conn.execute(SUM).fetchone()
    t1 = time.perf_counter()
    b = conn.execute(SUM).fetchone()
    t2 = time.perf_counter()
    c = conn.execute(SCAN).fetchone()
    t3 = time.perf_counter()
    conn.close()
    if not (a == b and a[0] == c[0]):
        raise SystemExit("open_csv: %s: answers differ: %r %r %r" % (source, a, b, c))
    return t1 - t0, t2 - t1, t3 - t2, c


def duckdb_run(csv, rows):
    node_api = os.path.join(ROOT, "build", "duckdb-node", "node_modules", "@duckdb",
                            "node-api")
    if not os.path.isdir(node_api):
        return None
    r = subprocess.run(["node", os.path.join(ROOT, "bench", "open_csv_duckdb.mjs"), csv,
                        str(rows)], capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit("open_csv: DuckDB failed: " + r.stderr.strip())
    return json.loads(r.stdout)


def same_answer(a, b):
    return (a[0] == b[0] and a[1] == b[1] and abs(a[2] - b[2]) < 1e-6 * max(1, abs(a[2]))
            and a[3] == b[3] and str(a[4]) == str(b[4]))


def main():
    args = sys.argv[1:]
    rounds = 3
    if "--rounds" in args:
        k = args.index("--rounds")
        rounds = int(args[k + 1])
        del args[k:k + 2]
    rows = int(args[0]) if args else 1000000
    load_start = load()
    csv, jj = make_data(rows)
    times = {}  # (reader, statement) -> [seconds]
    answers = {}
    duck_version = None
    for rnd in range(rounds):
        print("open_csv: round %d of %d" % (rnd + 1, rounds), file=sys.stderr)
        order = [("jj_open over .csv", csv, ", null=NA"), ("jj_open over .jj", jj, ""),
                 ("DuckDB read_csv", csv, None)]
        order = order[rnd % 3:] + order[:rnd % 3]
        for reader, source, options in order:
            if options is None:
                d = duckdb_run(csv, rows)
                if d is None:
                    continue
                duck_version = d["version"]
                got = (d["first"], d["second"], d["scan"], tuple(d["answer"]))
            else:
                got = sqlite_run(source, options)
            for stmt, t in zip(("first", "second", "scan"), got[:3]):
                times.setdefault((reader, stmt), []).append(t)
            answers[reader] = got[3]
    readers = [r for r in ("jj_open over .csv", "jj_open over .jj", "DuckDB read_csv")
               if r in answers]
    for r in readers[1:]:
        if not same_answer(answers[readers[0]], answers[r]):
            raise SystemExit("open_csv: %s answered %r, %s %r" % (
                r, answers[r], readers[0], answers[readers[0]]))
    load_end = load()
    commit = subprocess.run(["git", "log", "-1", "--format=%H (%s)"], cwd=ROOT,
                            capture_output=True, text=True).stdout.strip()
    lines = [
        "# A CSV file in SQL: jj_open's typed table against DuckDB's read_csv",
        "",
        "Generated by `bench/open_csv.py`; do not edit by hand. A time is the best of "
        "%d rounds (the median beside it); the readers run interleaved, in an order that "
        "changes per round. The machine was shared with other work while this ran (the "
        "load averages below): compare the ratios more than the seconds." % rounds,
        "",
        "|  |  |",
        "|---|---|",
        "| rows | %d |" % rows,
        "| CSV file | %.1f MB (`id,x,name,day`, x `NA` every 50th row) |"
        % (os.path.getsize(csv) / 1e6),
        "| .jj file | %.1f MB (`jalapenojson convert --null NA`) |" % (os.path.getsize(jj) / 1e6),
        "| CPU | %s, %d cores |" % (cpu_model(), os.cpu_count()),
        "| load average (1 min) at the start, at the end | %s, %s |" % (load_start, load_end),
        "| SQLite | %s (Python's sqlite3 module) |" % sqlite3.sqlite_version,
        "| DuckDB | %s |" % (duck_version or "not run: build/duckdb-node is missing "
                             "(`make duckdb-node`)"),
        "| date | %s |" % datetime.date.today().isoformat(),
        "| commit | %s: the run's, its results committed after it |" % commit,
        "",
        "Statements: **first** = `CREATE VIRTUAL TABLE t USING jj_open('open.csv', null=NA)` "
        "then `%s` in a new connection (the conversion included; DuckDB: the query over "
        "`read_csv(..., nullstr='NA')`, threads=1); **second** = the same query again (jj_open: "
        "the converted document from the connection's cache; DuckDB reads the file again); "
        "**scan** = `%s`, every column read." % (SUM, SCAN),
        "",
        "| statement | reader | best s | median s | vs DuckDB (best) |",
        "|---|---|---:|---:|---:|",
    ]
    for stmt in ("first", "second", "scan"):
        duck = min(times[("DuckDB read_csv", stmt)]) if ("DuckDB read_csv", stmt) in times \
            else None
        for r in readers:
            ts = times[(r, stmt)]
            best = min(ts)
            ratio = "%.2fx" % (duck / best) if duck and r != "DuckDB read_csv" else ""
            lines.append("| %s | %s | %.3f | %.3f | %s |" % (
                stmt, r, best, statistics.median(ts), ratio))
    lines += ["", "A ratio above 1 is faster than DuckDB by that factor."]
    text = "\n".join(lines) + "\n"
    with open(os.path.join(ROOT, "bench", "OPEN_CSV_RESULTS.md"), "w") as f:
        f.write(text)
    print(text)


if __name__ == "__main__":
    main()
