#!/usr/bin/python3
"""python_bench.py — jalapenojson's Python module against json, on the
benchmark's own data and checksums (bench/README.md), measured as the C
benchmark is measured.  Run it with bench/python_run.sh (builds what it
needs), or with the venv's python after `make python` and bench/run.sh's
data generation:

    build/venv/bin/python bench/python_bench.py [--rows 50000] [--rounds 5]

The tasks, on the repetitive set (both files already in memory as bytes):

  all      json.loads(json)                      vs decode(jj): every value,
           dates as datetime.date objects for jalapenojson, str for json
  columns  json.loads, then one list per column  vs a view's column() each
  price    json.loads, then [r["price"] ...]      vs view(jj).column("price")
           (and column("price", array=True): array('d'))
  city     json.loads, then [r["city"] ...]       vs view(jj).column("city")
  middle   json.loads(json)[N/2]                  vs view(jj)[N/2]: row
           N/2 + 1 (1-based), on a fresh view each run
  write    json.dumps(rows).encode()              vs encode(rows): json's
           rows as json.loads gives them (dates str); jalapenojson's as
           decode gives them (dates date objects), written with their
           types inferred; also from json's rows with types={"joined":
           "d"} (dates as str, checked by the writer)

Measured as bench/README.md says: each measurement in its own process;
warm-up until the runs add up to 200 ms, then the fastest of at least 15
runs and at least 500 ms; 5 rounds, each in its own shuffled order, and
the median of the rounds.  Like timeit, the garbage collector is off during
a timed run and collects between runs (untimed), and the result is freed
after the clock stops: both sides build the same kind of objects, and a
collection landing in one run and not another is noise, not speed.  Every
run's result is checked against the set's checksums (README "Checksums";
for jalapenojson dates are checked as their isoformat() text), outside the
timed part; a mismatch stops the benchmark.  Write: jalapenojson's output
must equal the .jj file byte for byte; json's first output must load back
to the rows, and every later one have the same length and CRC-32.
"""
import argparse
import gc
import json
import os
import platform
import random
import statistics
import struct
import subprocess
import sys
import time
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
OUT = os.path.join(HERE, "data", "out")
NAMES = ["id", "user", "city", "plan", "seats", "price", "joined"]
INTS, FLOATS = ("id", "seats"), ("price",)
TEXTS = ("user", "city", "plan", "joined")
SHUFFLE_SEED = 1234

# (task, reader): the measurements
MEASUREMENTS = [("all", "json"), ("all", "jj"), ("columns", "json"), ("columns", "jj"),
                ("price", "json"), ("price", "jj"), ("price", "jj-array"),
                ("city", "json"), ("city", "jj"), ("middle", "json"), ("middle", "jj"),
                ("write", "json"), ("write", "jj"), ("write", "jj-text-dates")]
# (task, jj reader, json task it is compared with): the ratios printed.
# Reading one column or one row is also compared with json.loads alone,
# since json has no way to read less than the whole document.
RATIOS = [("all", "jj", "all"), ("columns", "jj", "columns"),
          ("price", "jj", "all"), ("price", "jj", "price"), ("price", "jj-array", "all"),
          ("city", "jj", "all"), ("city", "jj", "city"),
          ("middle", "jj", "all"), ("middle", "jj", "middle"),
          ("write", "jj", "write"), ("write", "jj-text-dates", "write")]


# ---------------------------------------------------------------------------
# Checksums (bench/README.md, "Checksums")
# ---------------------------------------------------------------------------

def expected(set_name, rows):
    sums = {}
    with open(os.path.join(OUT, "%s-%d.sum" % (set_name, rows))) as f:
        for line in f:
            k, v = line.split()
            sums[k] = v
    return sums


class Sum:
    def __init__(self):
        self.count, self.sum_int, self.sum_float, self.crc = 0, 0, 0.0, 0

    def add(self, name, value):
        self.count += 1
        if name in INTS:
            self.sum_int += value
        elif name in FLOATS:
            self.sum_float += value
        else:
            if not isinstance(value, str):
                value = value.isoformat()   # a date object: its text
            self.crc = zlib.crc32(value.encode(), self.crc)

    def check(self, sums, prefix, what):
        got = {"count": self.count, "sum_int": self.sum_int,
               "sum_float": float.hex(self.sum_float), "crc": "%08x" % self.crc}
        want = {"count": int(sums[prefix + ".count"]), "sum_int": int(sums[prefix + ".sum_int"]),
                "sum_float": float.hex(float.fromhex(sums[prefix + ".sum_float"])),
                "crc": sums[prefix + ".crc"]}
        if got != want:
            sys.exit("python_bench: %s: wrong result %r, expected %r" % (what, got, want))


def check_rows(rows, sums, prefix, what):
    s = Sum()
    for r in rows:
        for name in NAMES:
            s.add(name, r[name])
    s.check(sums, prefix, what)


def check_columns(cols, sums, what):
    s = Sum()
    for i in range(len(cols["id"])):
        for name in NAMES:
            s.add(name, cols[name][i])
    s.check(sums, "all", what)


def check_one(values, name, sums, prefix, what):
    s = Sum()
    for v in values:
        s.add(name, v)
    s.check(sums, prefix, what)


# ---------------------------------------------------------------------------
# One measurement (one process)
# ---------------------------------------------------------------------------

def task(name, reader, J, D, nrows, jj):
    """(the function to time, a checker of its result)."""
    sums = expected("repetitive", nrows)
    mid = int(sums["middle_row"]) - 1
    what = "%s %s" % (name, reader)
    if name == "all":
        f = (lambda: json.loads(J)) if reader == "json" else (lambda: jj.decode(D))
        return f, lambda r: check_rows(r, sums, "all", what)
    if name == "columns":
        if reader == "json":
            def f():
                rows = json.loads(J)
                return {c: [r[c] for r in rows] for c in NAMES}
        else:
            def f():
                v = jj.view(D)
                return {c: v.column(c) for c in NAMES}
        return f, lambda r: check_columns(r, sums, what)
    if name in ("price", "city"):
        if reader == "json":
            f = lambda: [r[name] for r in json.loads(J)]   # noqa: E731
        elif reader == "jj":
            f = lambda: jj.view(D).column(name)            # noqa: E731
        else:
            f = lambda: jj.view(D).column(name, array=True)  # noqa: E731
        return f, lambda r: check_one(r, name, sums, name, what)
    if name == "middle":
        f = (lambda: json.loads(J)[mid]) if reader == "json" else (lambda: jj.view(D)[mid])
        return f, lambda r: check_rows([r], sums, "middle", what)
    if name == "write":
        json_rows = json.loads(J)
        if reader == "json":
            first = []

            def check(out):
                if not first:
                    if json.loads(out) != json_rows:
                        sys.exit("python_bench: %s: the output does not load back" % what)
                    first.append((len(out), zlib.crc32(out)))
                elif (len(out), zlib.crc32(out)) != first[0]:
                    sys.exit("python_bench: %s: the output changed between runs" % what)
            return (lambda: json.dumps(json_rows).encode()), check
        if reader == "jj":
            jj_rows = jj.decode(D)
            f = lambda: jj.encode(jj_rows)                 # noqa: E731
        else:
            f = lambda: jj.encode(json_rows, types={"joined": "d"})  # noqa: E731

        def same(out):
            if out != D:
                sys.exit("python_bench: %s: the output differs from the .jj file" % what)
        return f, same
    raise SystemExit("python_bench: unknown task %s" % name)


def measure(name, reader, nrows):
    """Warm up for 200 ms, then the fastest of >= 15 runs and >= 500 ms."""
    import jalapenojson as jj
    J = open(os.path.join(OUT, "repetitive-%d.json" % nrows), "rb").read()
    D = open(os.path.join(OUT, "repetitive-%d.jj" % nrows), "rb").read()
    f, check = task(name, reader, J, D, nrows, jj)

    def once():
        gc.collect()
        gc.disable()
        t0 = time.perf_counter_ns()
        r = f()
        t = time.perf_counter_ns() - t0
        gc.enable()
        check(r)
        del r
        return t

    warm, warm_runs = 0, 0
    while warm < 200e6:
        warm += once()
        warm_runs += 1
    best, runs, spent = None, 0, 0
    while runs < 15 or spent < 500e6:
        t = once()
        best = t if best is None else min(best, t)
        runs += 1
        spent += t
    print("ok %s %s best_ns=%d runs=%d warm_runs=%d" % (name, reader, best, runs, warm_runs))


# ---------------------------------------------------------------------------
# The rounds
# ---------------------------------------------------------------------------

def fmt(ns):
    return "%.3g ms" % (ns / 1e6) if ns >= 1e6 else "%.3g µs" % (ns / 1e3)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=50000)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--one", nargs=2, metavar=("TASK", "READER"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.one:
        measure(args.one[0], args.one[1], args.rows)
        return
    for ext in ("json", "jj", "sum"):
        if not os.path.exists(os.path.join(OUT, "repetitive-%d.%s" % (args.rows, ext))):
            sys.exit("python_bench: no data for %d rows in %s: run bench/python_run.sh"
                     % (args.rows, OUT))
    import jalapenojson
    print("python_bench: Python %s (%s), jalapenojson from %s; %d rows, %d rounds of %d "
          "measurements" % (platform.python_version(), sys.executable,
                            os.path.dirname(jalapenojson.__file__), args.rows, args.rounds,
                            len(MEASUREMENTS)), flush=True)
    results = {m: [] for m in MEASUREMENTS}
    for rnd in range(args.rounds):
        order = list(MEASUREMENTS)
        random.Random(SHUFFLE_SEED + rnd).shuffle(order)
        for m in order:
            p = subprocess.run([sys.executable, os.path.abspath(__file__), "--rows", str(args.rows),
                                "--one", m[0], m[1]], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, cwd=HERE)
            line = p.stdout.strip().splitlines()[-1] if p.stdout.strip() else ""
            if p.returncode or not line.startswith("ok "):
                sys.exit("python_bench: FAILED %s %s:\n%s%s" % (m[0], m[1], p.stdout, p.stderr))
            fields = dict(kv.split("=") for kv in line.split()[3:])
            results[m].append(int(fields["best_ns"]))
        print("python_bench: round %d/%d done" % (rnd + 1, args.rounds), flush=True)
    med = {m: statistics.median(v) for m, v in results.items()}
    print("\n| task | reader | median | min | max |\n|---|---|---|---|---|")
    for m in MEASUREMENTS:
        v = results[m]
        print("| %s | %s | %s | %s | %s |" % (m[0], m[1], fmt(med[m]), fmt(min(v)), fmt(max(v))))
    print("\n| jalapenojson | json | json time ÷ jalapenojson time |\n|---|---|---|")
    for name, reader, peer_task in RATIOS:
        print("| %s %s: %s | %s: %s | %.2fx |" % (
            name, reader, fmt(med[(name, reader)]), peer_task, fmt(med[(peer_task, "json")]),
            med[(peer_task, "json")] / med[(name, reader)]))
    os.makedirs(OUT, exist_ok=True)
    with open(os.path.join(OUT, "python-results.json"), "w") as f:
        json.dump({"python": platform.python_version(), "rows": args.rows, "rounds": args.rounds,
                   "machine": platform.machine(), "date": time.strftime("%Y-%m-%d %H:%M"),
                   "best_ns": {"%s %s" % m: v for m, v in results.items()}}, f, indent=1)
    print("python_bench: results in %s" % os.path.relpath(os.path.join(OUT, "python-results.json"), ROOT))


if __name__ == "__main__":
    main()
