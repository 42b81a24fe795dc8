#!/usr/bin/env python3
"""test_js.py BUILD_DIR — the JavaScript module's tests (js/test/), for
tests/run.sh: `node --test js/test/` (every type, SPEC.md's errors, the
JSONTestSuite cases, the round trip against C, hostile input, the memory
a view holds and a full memory (child processes of up to 2 GiB), the browser
test in headless Chromium, `npm pack`, and the reader-only module's own
run of the reading checks, its floats bit for bit against C), and the check that README.md lists
the browser test's packages as tools/deps.sh does.  Prints the skipped
tests with their reasons, the failures, and one line
"js: N passed, M failed".

`make js` builds what the tests need (js/dist/*.wasm, build/js/jjdump);
`make test` runs it first.  In the sanitizer build (BUILD_DIR ending in
san) nothing runs: Node is not instrumented, and the module does not use
the sanitizer build.
"""
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def readme_lists_browser_packages():
    """README.md's <!-- deps-browser --> list is tools/deps.sh's."""
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
        m = re.search(r"<!-- deps-browser -->(.*?)<!-- /deps-browser -->", f.read())
    listed = sorted(m.group(1).replace("`", " ").split()) if m else []
    out = subprocess.run([os.path.join(ROOT, "tools/deps.sh"), "--list", "browser"],
                         capture_output=True, text=True, check=False).stdout
    if listed and listed == sorted(out.split()):
        return True
    print("FAIL README.md's browser package list differs from tools/deps.sh --list browser: "
          f"{listed} vs {sorted(out.split())}")
    return False


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build")
    if build.rstrip("/").endswith("san"):
        print("js (skipped in the sanitizer build: Node is not instrumented): 0 passed, 0 failed")
        return 0
    env = {k: v for k, v in os.environ.items() if k not in ("LD_PRELOAD", "ASAN_OPTIONS", "UBSAN_OPTIONS")}
    proc = subprocess.run(["node", "--test", "--test-reporter=tap", "js/test/"], cwd=ROOT, env=env,
                          capture_output=True, text=True, check=False)
    out = proc.stdout
    counts = {k: int(v) for k, v in re.findall(r"^# (pass|fail|skipped|cancelled) (\d+)$", out, re.M)}
    skipped = []
    for line in out.splitlines():
        s = line.strip()
        if "# SKIP" in s:
            skipped.append(s.split("# SKIP", 1)[1].strip())
            print("  SKIPPED " + s.split(" - ", 1)[-1])
        elif s.startswith("not ok"):
            print("  FAIL " + s.split(" - ", 1)[-1])
        elif re.match(r"^# (conformance|browser|pack|reader: conformance):", s):
            print("  " + s[2:])
    passed = counts.get("pass", 0)
    failed = counts.get("fail", 0) + counts.get("cancelled", 0)
    if not counts or proc.returncode != 0 and failed == 0:
        print("  node --test did not finish:")
        print("\n".join("    " + x for x in (proc.stderr or out).splitlines()[-30:]))
        failed += 1
    if failed:
        # the failures' details, for the log
        for block in re.findall(r"^not ok .*?(?=^(?:ok|not ok) |\Z)", out, re.M | re.S):
            print("\n".join("    " + x for x in block.splitlines()[:40]))
    if readme_lists_browser_packages():
        passed += 1
    else:
        failed += 1
    # the skips in the summary line too, which tests/run.sh always shows
    note = f" ({len(skipped)} skipped: {'; '.join(skipped)})" if skipped else ""
    print(f"js{note}: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
