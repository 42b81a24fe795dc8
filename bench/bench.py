#!/usr/bin/python3
"""bench.py - run the benchmark: data, sizes, every measurement in 5 rounds.

Called by bench/run.sh after it has built the programs into build/bench/:

    bench.py [--large] [--yyjson] [--rows N] [--rounds R] [--quick]

    (default)   1,000 and 50,000 rows: everything; then the scale section
                (scale.py: globs, the .gz second statement, export time and
                memory at 1,000,000 rows); writes results.json
    --large     also 1,000,000 rows in the same run, and export at 10,000,000
    --rows N    only the SQLite reading tasks at N rows (native, floor,
                jalapenojson; json1 and the record form on sum(price)), in
                their own file results-rows-N.json, which report.py shows
                next to results.json (the SQLite tasks at 1,000,000 rows
                without the whole --large run)
    --quick     a smoke test: one round, one warm-up run and 3 measured runs
                per process (BENCH_QUICK), scale at 20,000 rows;
                writes results-quick.json (report.py --quick)

1. Generates the data (build/bench/gen, fixed seeds) into bench/data/out/.
2. Measures the sizes: raw, gzip -6, brotli -q 5 and -q 11 (Debian's tools),
   cached by the file's SHA-256 in bench/data/out/sizes.json since the data is
   deterministic.
3. Runs every measurement as its own process, 5 rounds, each round in its own
   shuffled order (seeded).  A process checks every one of its runs against
   the expected checksum; a process that fails stops the benchmark.
4. Writes bench/data/out/results.json; report.py turns it into RESULTS.md and
   chart.svg.
"""
import argparse
import concurrent.futures
import datetime
import hashlib
import json
import os
import platform
import random
import re
import subprocess
import sys
import time

sys.dont_write_bytecode = True   # no __pycache__ in bench/
import scale  # noqa: E402  (the scale section)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "bench", "data", "out")
BIN = os.path.join(ROOT, "build", "bench")
ROUNDS = 5
SHUFFLE_SEED = 20240301
SETS = ("repetitive", "entropy")       # measured for speed
SIZE_SETS = ("repetitive", "entropy", "orders")
DEFAULT_ROWS = (1000, 50000)
LARGE_ROWS = 1000000

C_TASKS = ("all", "price", "city", "middle")
SQL_TASKS = ("scan", "price", "count", "since", "row")
# jjmmap reads as jjfile does once the table is open (the same cursor over
# the same bytes): it is measured on the cold start only.
SQL_READERS = ("native", "floor", "floorlen", "json1", "jjfile", "jjblob", "jjrecord")
# jalapenojson with its row scanner forced to a narrower path than the
# widest the CPU has (c_jj's JJ_SIMD)
SIMD_PATHS = (("jjsse2", "sse2"), ("jjscalar", "off"))


def rel(path):
    return os.path.relpath(path, ROOT)


def doc(set_name, rows, ext):
    return rel(os.path.join(OUT, "%s-%d.%s" % (set_name, rows, ext)))


def c_readers(have_yyjson):
    return ("cjson", "simdjson") + (("yyjson",) if have_yyjson else ()) + ("jj",)


def measured(rows, group, task, reader, set_name):
    """What is measured at each size (README.md, "What is measured").

    50,000 rows: everything.  1,000 rows: reduced to fit the time budget
    (C: read every value, write, floor; SQLite: full scan and export).
    1,000,000 rows (--large): everything except the peers whose single run
    takes seconds (cJSON beyond read-all and write; json1 and the record
    form beyond sum(price) of the repetitive rows).
    floorlen (the floor handing text over with its length) only matters
    where length() is called: the full scan, from 50,000 rows."""
    if reader == "floorlen" and (task != "scan" or rows <= 1000):
        return False
    # Trimmed to the budget: count(*) is a virtual-table question (native,
    # floor, jalapenojson); the record form is compared on reading values.
    if task == "count" and reader in ("json1", "jjrecord"):
        return False
    if task == "since" and reader == "jjrecord":
        return False
    if reader in ("jjsse2", "jjscalar") and rows != 50000:
        return False   # the paths are compared at the main size only
    if rows <= 1000:
        if group == "c":
            return task in ("all", "write", "memchr")
        return task in ("scan", "export")
    if rows >= LARGE_ROWS:
        if reader in ("json1", "jjrecord"):
            return task == "price" and set_name == "repetitive"
        if reader == "cjson":
            return task in ("all", "write")
    return True


def plan(rows_list, have_yyjson, sql_only=False):
    """Every measurement: a dict with its process's argv.  sql_only: the
    SQLite reading tasks only (--rows)."""
    ms = []

    def add(group, set_name, rows, task, reader, argv, env=None):
        if sql_only and (group != "sql" or task in ("export", "open")):
            return
        if measured(rows, group, task, reader, set_name):
            ms.append({"group": group, "set": set_name, "rows": rows, "task": task,
                       "reader": reader, "argv": argv})
            if env:
                ms[-1]["env"] = env

    for rows in rows_list:
        for s in SETS:
            js, jj, sm = doc(s, rows, "json"), doc(s, rows, "jj"), doc(s, rows, "sum")
            for task in C_TASKS:
                for r in c_readers(have_yyjson):
                    src = jj if r == "jj" else js
                    add("c", s, rows, task, r, [rel(os.path.join(BIN, "c_" + r)), task, r, src, sm])
            # count the rows, every row's structure checked and no value
            # read: the least any reading task costs
            for r in ("jj", "simdjson"):
                src = jj if r == "jj" else js
                add("c", s, rows, "count", r, [rel(os.path.join(BIN, "c_" + r)), "count", r, src, sm])
            # the row scanner's narrower paths, forced: what a CPU
            # without AVX2 (or without SIMD) gets
            for r, path in SIMD_PATHS:
                for task in C_TASKS + ("count",):
                    add("c", s, rows, task, r, [rel(os.path.join(BIN, "c_jj")), task, "jj", jj, sm],
                        {"JJ_SIMD": path})
            # jalapenojson's reading taken apart: every value with no
            # checksum of the text, and the price conversion alone (no row
            # checked)
            for task in ("values", "convert"):
                add("c", s, rows, task, "jj", [rel(os.path.join(BIN, "c_jj")), task, "jj", jj, sm])
            # and simdjson's every value with no checksum either, so that
            # each side's checksum time is its "all" less its "values"
            add("c", s, rows, "values", "simdjson",
                [rel(os.path.join(BIN, "c_simdjson")), "values", "simdjson", js, sm])
            # and simdjson's structural index alone (stage 1, no row walked)
            add("c", s, rows, "stage1", "simdjson",
                [rel(os.path.join(BIN, "c_simdjson")), "stage1", "simdjson", js, sm])
            add("c", s, rows, "write", "cjson", [rel(os.path.join(BIN, "c_cjson")), "write", "cjson", js, js])
            add("c", s, rows, "write", "jj", [rel(os.path.join(BIN, "c_jj")), "write", "jj", js, jj])
            add("c", s, rows, "memchr", "floor-json", [rel(os.path.join(BIN, "c_floor")), "memchr", "floor", js])
            add("c", s, rows, "memchr", "floor-jj", [rel(os.path.join(BIN, "c_floor")), "memchr", "floor", jj])
            sq = rel(os.path.join(BIN, "sqlite_bench"))
            for task in SQL_TASKS:
                for r in SQL_READERS:
                    add("sql", s, rows, task, r, [sq, task, r, js, jj, sm])
            for r in ("jj", "json1"):
                add("sql", s, rows, "export", r, [sq, "export", r, js, jj, sm])
            for r in ("jjfile", "jjmmap"):
                add("sql", s, rows, "open", r, [sq, "open", r, js, jj, sm])
    for i, m in enumerate(ms):
        m["id"] = i
    return ms


def run(argv, **kw):
    return subprocess.run(argv, cwd=ROOT, check=True, stdout=subprocess.PIPE, text=True, **kw).stdout


def first_line(argv):
    try:
        return run(argv, stderr=subprocess.STDOUT).splitlines()[0].strip()
    except (OSError, subprocess.CalledProcessError, IndexError):
        return "unknown"


def dpkg_version(pkg):
    try:
        return run(["dpkg-query", "-W", "-f=${Version}", pkg], stderr=subprocess.DEVNULL).strip()
    except (OSError, subprocess.CalledProcessError):
        return "not installed"


def machine_info(have_yyjson):
    """The header of RESULTS.md: machine, OS, compilers, libraries, commit."""
    lscpu = run(["lscpu"])
    model = re.search(r"Model name:\s*(.+)", lscpu)
    os_name = "unknown"
    if os.path.exists("/etc/os-release"):
        m = re.search(r'PRETTY_NAME="?([^"\n]+)', open("/etc/os-release").read())
        os_name = m.group(1) if m else os_name
    commit = first_line(["git", "rev-parse", "HEAD"])
    # The run's own outputs do not make the measured code "uncommitted".
    dirty = run(["git", "status", "--porcelain", "--untracked-files=no", "--", ".",
                 ":!bench/RESULTS.md", ":!bench/chart.svg"]).strip() != ""
    def field(name):
        f = re.search(r"^%s:\s*(.+)$" % re.escape(name), lscpu, re.M)
        return f.group(1).strip() if f else None

    flags = (field("Flags") or "").split()
    detail = ["family %s model %s" % (field("CPU family"), field("Model"))]
    detail += [x for x in ("avx2", "avx512f") if x in flags]
    detail += ["%s %s" % (c, field(c + " cache")) for c in ("L2", "L3") if field(c + " cache")]
    if field("Hypervisor vendor"):
        detail.append("virtual machine (%s)" % field("Hypervisor vendor"))
    info = {
        "cpu": model.group(1).strip() if model else platform.processor(),
        "cpu_detail": ", ".join(detail),
        "cores": os.cpu_count(),
        "os": os_name,
        "kernel": platform.release(),
        "cc": first_line(["gcc", "--version"]),
        "cxx": first_line(["g++", "--version"]),
        "sqlite": run([os.path.join(BIN, "sqlite_bench"), "version"]).strip(),
        "cjson": dpkg_version("libcjson-dev"),
        "simdjson": dpkg_version("libsimdjson-dev"),
        "zlib": dpkg_version("zlib1g-dev"),
        "brotli": dpkg_version("libbrotli-dev"),
        "gzip_tool": first_line(["gzip", "--version"]),
        "brotli_tool": first_line(["brotli", "--version"]),
        "yyjson": os.environ.get("YYJSON_VERSION", "") if have_yyjson else "",
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "commit": commit + (" (with uncommitted changes)" if dirty else ""),
    }
    return info


def sizes(rows_list):
    """Raw and compressed sizes of every document, cached by content hash."""
    cache_path = os.path.join(OUT, "sizes.json")
    try:
        cache = json.load(open(cache_path))
    except (OSError, ValueError):
        cache = {}
    methods = {"gzip6": ["gzip", "-6", "-n", "-c"], "br5": ["brotli", "-q", "5", "-c"],
               "br11": ["brotli", "-q", "11", "-c"]}
    jobs, result = [], {}
    for rows in rows_list:
        for s in SIZE_SETS:
            for fmt in ("json", "jj"):
                path = os.path.join(OUT, "%s-%d.%s" % (s, rows, fmt))
                digest = hashlib.sha256(open(path, "rb").read()).hexdigest()
                entry = result.setdefault("%s-%d" % (s, rows), {}).setdefault(fmt, {})
                entry["raw"] = os.path.getsize(path)
                for name, argv in methods.items():
                    key = "%s:%s" % (digest, " ".join(argv))
                    if key in cache:
                        entry[name] = cache[key]
                    else:
                        jobs.append((entry, name, key, argv + [path]))

    def compress(job):
        entry, name, key, argv = job
        n = len(subprocess.run(argv, check=True, stdout=subprocess.PIPE).stdout)
        return entry, name, key, n

    if jobs:
        print("bench: compressing %d documents (gzip -6, brotli -q 5 and 11; cached afterwards)"
              % (len(jobs) // 3), flush=True)
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        for entry, name, key, n in pool.map(compress, jobs):
            entry[name] = n
            cache[key] = n
    with open(cache_path, "w") as f:
        json.dump(cache, f, indent=0, sort_keys=True)
    return result


def estimate(ms, rounds, results_path):
    """The time the rounds will take: from the previous run's process times
    where it measured the same thing, else 0.9 s per process (0.7 s of runs
    at least, plus start-up, setup and untimed freeing)."""
    previous = {}
    try:
        for m in json.load(open(results_path))["measurements"]:
            if "wall_s" in m:
                previous[" ".join(m["argv"])] = sorted(m["wall_s"])[len(m["wall_s"]) // 2]
    except (OSError, ValueError, KeyError):
        pass
    known = sum(1 for m in ms if " ".join(m["argv"]) in previous)
    per_round = sum(previous.get(" ".join(m["argv"]), 0.9) for m in ms)
    return "estimated %.1f min (%s)" % (
        per_round * rounds / 60,
        "from the previous run's process times" if known == len(ms) else
        "each process takes at least 0.7 s: 200 ms warm-up, then 500 ms and 15 runs")


def measure_once(m, env):
    """Run one measurement's process (with the measurement's own
    environment on top of env); stop the benchmark if it fails."""
    t0 = time.time()
    p = subprocess.run(m["argv"], cwd=ROOT, env=dict(env, **m.get("env", {})), stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True)
    wall = time.time() - t0
    line = p.stdout.strip().splitlines()[-1] if p.stdout.strip() else ""
    if p.returncode != 0 or not line.startswith("ok "):
        sys.stderr.write("bench: FAILED: %s\n%s%s" % (" ".join(m["argv"]), p.stdout, p.stderr))
        sys.exit(1)
    fields = dict(kv.split("=", 1) for kv in line.split()[3:])
    return int(fields["best_ns"]), int(fields["runs"]), int(fields["warm_runs"]), wall


def wasm_sizes():
    """The WebAssembly modules' sizes: bytes, gzip -9, brotli
    -q 11, or None for a module that is not built (`make js`)."""
    out = {}
    for name in ("jalapenojson-reader.wasm", "jalapenojson.wasm"):
        path = os.path.join(ROOT, "js", "dist", name)
        if not os.path.exists(path):
            out[name] = None
            continue
        data = open(path, "rb").read()
        sizes_of = {"raw": len(data)}
        for key, argv in (("gzip9", ["gzip", "-9", "-n", "-c"]), ("br11", ["brotli", "-q", "11", "-c"])):
            sizes_of[key] = len(subprocess.run(argv, input=data, check=True, stdout=subprocess.PIPE).stdout)
        out[name] = sizes_of
    return out


def run_rounds(ms, rounds, env):
    """Every measurement once per round, each round in its own seeded
    order; stores best_ns, runs, warm_runs and wall_s lists in each m."""
    results = {m["id"]: [] for m in ms}
    for rnd in range(rounds):
        order = list(ms)
        random.Random(SHUFFLE_SEED + rnd).shuffle(order)
        t0 = time.time()
        for i, m in enumerate(order):
            results[m["id"]].append(measure_once(m, env))
            if sys.stdout.isatty():
                print("\r  round %d/%d: %d/%d" % (rnd + 1, rounds, i + 1, len(order)), end="", flush=True)
        took = time.time() - t0
        print("\rbench: round %d/%d done in %.0f s%s" % (
            rnd + 1, rounds, took,
            "; about %.1f min to go" % (took * (rounds - rnd - 1) / 60) if rnd + 1 < rounds else ""),
            flush=True)
    for m in ms:
        r = results[m["id"]]
        m["best_ns"] = [x[0] for x in r]
        m["runs"] = [x[1] for x in r]
        m["warm_runs"] = [x[2] for x in r]
        m["wall_s"] = [round(x[3], 3) for x in r]


def raw_sizes(rows_list):
    """Only the raw sizes (--rows: the compressed sizes are not its job)."""
    return {"%s-%d" % (s, rows): {fmt: {"raw": os.path.getsize(os.path.join(OUT, "%s-%d.%s" % (s, rows, fmt)))}
                                  for fmt in ("json", "jj")}
            for rows in rows_list for s in SETS}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--large", action="store_true", help="add 1,000,000 rows (and export at 10,000,000)")
    ap.add_argument("--rows", type=int, help="only the SQLite reading tasks, at this many rows")
    ap.add_argument("--rounds", type=int, default=ROUNDS, help="rounds (default %d)" % ROUNDS)
    ap.add_argument("--quick", action="store_true", help="smoke test: 1 round, 3 runs per process")
    ap.add_argument("--yyjson", action="store_true", help="build/bench/c_yyjson exists")
    args = ap.parse_args()
    env = dict(os.environ, JJ_EXTENSION=os.path.join(ROOT, "jalapenojson"))
    rounds = args.rounds
    if args.quick:
        env["BENCH_QUICK"] = "1"
        rounds = 1
    if args.rows:
        rows_list, sql_only = (args.rows,), True
        name = "results-rows-%d%s.json" % (args.rows, "-quick" if args.quick else "")
    else:
        rows_list, sql_only = DEFAULT_ROWS + ((LARGE_ROWS,) if args.large else ()), False
        name = "results-quick.json" if args.quick else "results.json"
    results_path = os.path.join(OUT, name)
    os.makedirs(OUT, exist_ok=True)
    started = time.time()

    print("bench: generating data: %s rows" % ", ".join("{:,}".format(r) for r in rows_list), flush=True)
    subprocess.run([os.path.join(BIN, "gen"), OUT] + [str(r) for r in rows_list], check=True)
    if sql_only:
        size_table = raw_sizes(rows_list)
    else:
        for rows in rows_list:   # the nested set is for size only; check it reads right once
            run([os.path.join(BIN, "c_jj"), "nested", "jj", doc("orders", rows, "jj"), doc("orders", rows, "sum")])
        size_table = sizes(rows_list)

    ms = plan(rows_list, args.yyjson, sql_only)
    print("bench: %d measurements x %d rounds = %d processes; %s"
          % (len(ms), rounds, len(ms) * rounds, estimate(ms, rounds, results_path)), flush=True)
    run_rounds(ms, rounds, env)

    data = {"meta": machine_info(args.yyjson), "rounds": rounds, "rows": list(rows_list),
            "sizes": size_table, "measurements": ms, "quick": args.quick,
            "sql_only": sql_only}
    if not sql_only:
        data["wasm"] = wasm_sizes()
        scale_rows = [20000] if args.quick else [LARGE_ROWS] + ([10 * LARGE_ROWS] if args.large else [])
        data["scale"] = scale.run(scale_rows, quick=args.quick)
    data["meta"]["bench_minutes"] = round((time.time() - started) / 60, 1)
    with open(results_path, "w") as f:
        json.dump(data, f, indent=1)
    print("bench: %.1f min in all; results in %s" % ((time.time() - started) / 60, rel(results_path)),
          flush=True)


if __name__ == "__main__":
    main()
