"""test_tree_words.py — the tracked files speak of the product only: no
numbered work periods, no issue numbers, no absolute paths of one
machine.  Each pattern below is one case; a match prints the file, the
line and the words, so the fix is one edit away.  History belongs in git
(commit messages are not checked here)."""
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import jjtest
from jjtest import ROOT, check

# Built from parts so that this file does not match itself.
PATTERNS = [
    ("a numbered work period", r"\b(?:" + "sess" + r"ions?|sprint|work period|round) #?[0-9]+\b"),
    ("an issue or ticket number", r"\b(?:" + "iss" + r"ue|ticket|bug) ?#?[0-9]+\b"),
    ("a tracker's item named as a reference", r"\bthe " + "iss" + r"ue'?s?\b"),
    # /work and /root begin the build machine's checkouts and tools; a path
    # inside another (/proc/*/root/...) is not one of them.
    ("an absolute path of a build machine", r"(?:^|(?<=[\s'\"`(=,:]))/(?:" + "wo" + r"rk|root)/"),
]


def tracked():
    r = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True)
    if r.returncode == 0:
        return [p for p in r.stdout.decode().split("\0") if p]
    out = []
    for d, dirs, files in os.walk(ROOT):
        dirs[:] = [x for x in dirs if x not in (".git", "build", "node_modules")]
        out += [os.path.relpath(os.path.join(d, f), ROOT) for f in files]
    return out


def main():
    files = tracked()
    texts = {}
    for p in files:
        try:
            with open(os.path.join(ROOT, p), encoding="utf-8") as f:
                texts[p] = f.read()
        except (UnicodeDecodeError, OSError):
            continue  # binary data files
    for what, pattern in PATTERNS:
        rx = re.compile(pattern, re.I)
        hits = []
        for p, text in texts.items():
            for n, line in enumerate(text.splitlines(), 1):
                m = rx.search(line)
                if m:
                    hits.append(f"{p}:{n}: {m.group(0)!r}")
        check(f"no {what} in the tracked files", not hits,
              f"({len(hits)}):\n  " + "\n  ".join(hits[:40]), case=what)
    check("the files were read", len(texts) > 100, len(texts))
    return jjtest.report("tree_words")


if __name__ == "__main__":
    sys.exit(main())
