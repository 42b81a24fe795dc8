#!/usr/bin/env python3
"""test_readme.py BUILD_DIR — README.md's SQL examples are the test.

Every ```sql block of README.md is run, in order, in one sqlite3 session
started from the repository root (where the README says to run them) with
the extension loaded; the output of each block must equal the plain ```
block that follows it in the README, byte for byte.  So the README cannot
show a result the code does not produce.

Prints "readme: N passed, M failed" (one check per example block).
"""
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import jjtest
from jjtest import ROOT, check

FENCE = re.compile(r"^```(\w*)\n(.*?)^```\n", re.S | re.M)
# Files the examples write, removed after the run.
WRITTEN = ["paid.jj.gz", "wide.jj", "people.jj.gz", "sql/readme.tmp", "team.jj"]


def examples(readme):
    """Yield (sql, expected_output) for each sql block and the block after it."""
    blocks = [(m.group(1), m.group(2), m.start(), m.end()) for m in FENCE.finditer(readme)]
    for i, (lang, body, _, end) in enumerate(blocks):
        if lang != "sql":
            continue
        out = ""
        if i + 1 < len(blocks):
            nlang, nbody, nstart, _ = blocks[i + 1]
            if nlang == "" and readme[end:nstart].strip() == "":
                out = nbody
        yield body, out


def main():
    so = jjtest.extension_path(jjtest.build_dir(sys.argv))
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
        cases = list(examples(f.read()))
    script = [".bail off"]
    for n, (sql, _) in enumerate(cases, 1):
        script.append(".print '-- example %d'" % n)
        script.append(sql.rstrip("\n"))
    script.append(".print '-- end'")
    env = dict(os.environ)
    if os.environ.get("JJ_PRELOAD"):
        env["LD_PRELOAD"] = os.environ["JJ_PRELOAD"]
    try:
        run = subprocess.run(["sqlite3", "-batch", "-cmd", ".load " + so],
                             input="\n".join(script) + "\n", cwd=ROOT, env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                             text=True, encoding="utf-8")
    finally:
        for name in WRITTEN:
            try:
                os.remove(os.path.join(ROOT, name))
            except FileNotFoundError:
                pass
    # Errors go to stderr, merged into the one pipe in order (the CLI
    # flushes stdout between statements), as a terminal would show them.
    parts = re.split(r"^-- example \d+\n", run.stdout, flags=re.M)
    got = parts[1:]
    if got:
        got[-1] = got[-1].split("-- end\n")[0]
    for n, (sql, want) in enumerate(cases, 1):
        have = got[n - 1] if n - 1 < len(got) else None
        check("README example %d:" % n, have == want,
              "\n%s\n--- README shows:\n%s--- sqlite3 printed:\n%s"
              % (sql, want, have))
    if len(cases) < 10:
        check("only %d sql examples found in README.md" % len(cases), False)
    return jjtest.report("readme")


if __name__ == "__main__":
    sys.exit(main())
