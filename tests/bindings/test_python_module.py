"""test_python_module.py BUILD_DIR — the Python module's tests
(python/tests, pytest) against the module built into BUILD_DIR/venv
(`make python`; `make python-asan` for build/san), with the SQLite
extension of the same build.  Prints "python_module: N passed, M failed"
from pytest's own counts; skipped tests are listed, visibly, with why.

Under build/san tests/run.sh preloads the sanitizer runtimes into this
process, and pytest inherits them: the module's C code (the core included)
then runs under ASan+UBSan.  The leak loops see ASan's runtime and run a
tenth of their rounds there, without their RSS check.
"""
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import jjtest


def main():
    root = jjtest.ROOT
    build = os.path.abspath(jjtest.build_dir(sys.argv))
    python = os.path.join(build, "venv", "bin", "python")
    if not os.path.exists(python):
        print("FAIL %s is missing: run make python (make python-asan for build/san)" % python)
        print("python_module: 0 passed, 1 failed")
        return 1
    env = dict(os.environ)
    env["JJ_EXTENSION"] = jjtest.extension_path(build)
    # -P: the repository root holds the SQLite extension jalapenojson.so,
    # which would shadow the package if the current directory were on
    # sys.path.  -rs lists the skipped tests with their reasons.
    p = subprocess.run([python, "-P", "-m", "pytest", "-q", "-rs", "-p", "no:cacheprovider",
                        os.path.join(root, "python", "tests")],
                       cwd=root, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True)
    out = p.stdout
    last = out.strip().splitlines()[-1] if out.strip() else ""
    counts = {k: int(n) for n, k in re.findall(r"(\d+) (passed|failed|skipped|errors?)", last)}
    passed = counts.get("passed", 0)
    failed = counts.get("failed", 0) + counts.get("error", 0) + counts.get("errors", 0)
    if p.returncode not in (0, 1) or not counts:
        failed += 1   # pytest itself failed, or the interpreter crashed
    if failed:
        print(out[-6000:])
    for line in out.splitlines():
        if line.startswith("SKIPPED"):
            print("  skip: " + line)
    if counts.get("skipped"):
        print("python_module: %d skipped" % counts["skipped"])
    print("python_module: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
