#!/usr/bin/env python3
"""test_duckdb.py BUILD_DIR — the DuckDB extension's tests (tests/duckdb/),
for tests/run.sh: `node --test tests/duckdb/*.mjs` with DuckDB 1.5 from the
npm registry (@duckdb/node-api in build/duckdb-node, `make duckdb-node`)
loading build/jalapenojson.duckdb_extension (`make duckdb`) unsigned: every
type and its extremes against the core, projection of every subset of
columns, globs, filename, union_by_name, the replacement scan, a large file
read in ranges by several threads, located errors as the SQLite extension's
and the hostile inputs.  Prints the failures and one line
"duckdb: N passed, M failed".

`make test` builds what the tests need first; `make check` (tests/run.sh
--quick) leaves them out, as it leaves out the JavaScript module's.  In the
sanitizer build (BUILD_DIR ending in san) nothing runs: DuckDB and Node are
not instrumented, and the extension is built in build/ only.
"""
import glob
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build")
    if build.rstrip("/").endswith("san"):
        print("duckdb (skipped in the sanitizer build: DuckDB is not instrumented): 0 passed, 0 failed")
        return 0
    missing = [p for p in ("build/jalapenojson.duckdb_extension",
                           "build/duckdb-node/node_modules/@duckdb/node-api/package.json")
               if not os.path.exists(os.path.join(ROOT, p))]
    if missing:
        print(f"  FAIL not built: {', '.join(missing)} (make duckdb duckdb-node)")
        print("duckdb: 0 passed, 1 failed")
        return 1
    env = {k: v for k, v in os.environ.items() if k not in ("LD_PRELOAD", "ASAN_OPTIONS", "UBSAN_OPTIONS")}
    files = sorted(os.path.relpath(f, ROOT) for f in glob.glob(os.path.join(ROOT, "tests", "duckdb", "*.mjs")))
    proc = subprocess.run(["node", "--test", "--test-reporter=tap", *files], cwd=ROOT, env=env,
                          capture_output=True, text=True, check=False)
    out = proc.stdout
    counts = {k: int(v) for k, v in re.findall(r"^# (pass|fail|skipped|cancelled) (\d+)$", out, re.M)}
    for line in out.splitlines():
        s = line.strip()
        if s.startswith("not ok"):
            print("  FAIL " + s.split(" - ", 1)[-1])
    passed = counts.get("pass", 0)
    failed = counts.get("fail", 0) + counts.get("cancelled", 0)
    if not counts or proc.returncode != 0 and failed == 0:
        print("  node --test did not finish:")
        print("\n".join("    " + x for x in (proc.stderr or out).splitlines()[-30:]))
        failed += 1
    if failed:
        for block in re.findall(r"^\s*not ok .*?(?=^\s*(?:ok|not ok) |\Z)", out, re.M | re.S):
            print("\n".join("    " + x for x in block.splitlines()[:40]))
    print(f"duckdb: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
