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
sanitizer build (BUILD_DIR ending in san) the same tests load that build's
extension (`make B=build/san SAN=1 duckdb`: the extension and the core with
ASan and UBSan) into a node with the sanitizers' runtimes preloaded (leaks
not checked: node and DuckDB are not instrumented and keep memory at exit).
"""
import glob
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build")
    san = build.rstrip("/").endswith("san")
    extension = os.path.join(build, "jalapenojson.duckdb_extension")
    missing = [p for p in (extension, os.path.join(ROOT, "build/duckdb-node/node_modules/@duckdb/node-api/package.json"))
               if not os.path.exists(p)]
    if missing:
        print(f"  FAIL not built: {', '.join(missing)} (make duckdb duckdb-node)")
        print("duckdb: 0 passed, 1 failed")
        return 1
    env = {k: v for k, v in os.environ.items() if k not in ("LD_PRELOAD", "ASAN_OPTIONS", "UBSAN_OPTIONS")}
    env["JJ_DUCKDB_EXTENSION"] = os.path.abspath(extension)
    if san:
        runtimes = [subprocess.run(["gcc", f"-print-file-name={lib}"], capture_output=True, text=True,
                                   check=True).stdout.strip() for lib in ("libasan.so", "libubsan.so")]
        env["LD_PRELOAD"] = " ".join(runtimes)
        env["ASAN_OPTIONS"] = "detect_leaks=0"
        env["UBSAN_OPTIONS"] = "print_stacktrace=1:halt_on_error=1"
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
    for line in (proc.stderr or "").splitlines():
        if "ERROR: AddressSanitizer" in line or "runtime error:" in line:
            print("  " + line)
            failed += 1
    print(f"duckdb{' (ASan, UBSan)' if san else ''}: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
