"""test_architecture.py BUILD_DIR — ARCHITECTURE.md stays the map of the tree.

  - every tracked source file under core/, ext/, cli/, python/src/, js/
    (.c .h .js .mjs; not js/'s tests, test helpers or built files) and
    tools/ (every file) is named in ARCHITECTURE.md: by its path, or by its
    path within a folder that a heading above the name names (`lib/read.js`
    under "## js/: ...");
  - every file ARCHITECTURE.md names in backticks with a source extension
    exists, found the same two ways;
  - core/'s table ("## core/, from the bottom up") holds: for each core
    object in BUILD_DIR, the core files it calls (`nm -u` against the other
    objects' definitions) are exactly its "calls" column, and each stands
    earlier in the table (skipped when nm or the objects are missing).

One check per file, named after it, so a failure says which file to add or
remove.  Tracked files come from `git ls-files`; without git, from a walk
of the folders."""
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import jjtest
from jjtest import ROOT, check

MAP = "ARCHITECTURE.md"
# Folders whose files must be named, and the extensions that count there
# (None: every file).
COVERED = {"core/": (".c", ".h"), "ext/": (".c", ".h"), "cli/": (".c", ".h"),
           "python/src/": (".c", ".h"), "js/": (".c", ".h", ".js", ".mjs"),
           "duckdb/": None, "tools/": None}
# Inside js/: tests, their helpers and built files are not sources.
SKIP_DIRS = {"test", "tests", "testlib", "dist", "node_modules"}
# A name in backticks ending so is taken for a file of the tree.
SOURCE_EXT = (".c", ".h", ".cpp", ".js", ".mjs", ".cjs", ".ts", ".py", ".sh",
              ".sql", ".in", ".map", ".pyi")
NAME = r"[A-Za-z0-9_][A-Za-z0-9_./+-]*"
# git and nm run without the sanitizer runtimes tests/run.sh preloads.
ENV = {k: v for k, v in os.environ.items() if k != "LD_PRELOAD"}


def tracked_files():
    """Paths relative to ROOT, with '/' separators."""
    try:
        r = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, env=ENV,
                           capture_output=True, text=True, check=True)
        return [p for p in r.stdout.split("\0") if p]
    except (OSError, subprocess.CalledProcessError):
        out = []
        for top in COVERED:
            for d, dirs, files in os.walk(os.path.join(ROOT, top)):
                dirs[:] = [x for x in dirs if not x.startswith(".")]
                rel = os.path.relpath(d, ROOT).replace(os.sep, "/")
                out += [f"{rel}/{f}" for f in files if not f.startswith(".")]
        return out


def must_be_named(path):
    for top, exts in COVERED.items():
        if not path.startswith(top):
            continue
        parts = path[len(top):].split("/")
        if os.path.basename(path).startswith("."):
            return False
        if top == "js/" and any(p in SKIP_DIRS for p in parts[:-1]):
            return False
        return exts is None or path.endswith(exts)
    return False


def read_map():
    """[(heading folders, line)] for every line of ARCHITECTURE.md: the
    folders (ending in '/') that the headings above the line name."""
    with open(os.path.join(ROOT, MAP), encoding="utf-8") as f:
        lines = f.read().splitlines()
    stack = []  # (level, folders)
    out = []
    for line in lines:
        m = re.match(r"^(#+)\s+(.*)$", line)
        if m:
            level = len(m.group(1))
            stack = [s for s in stack if s[0] < level]
            stack.append((level, re.findall(r"(?<![\w/])(" + NAME + r"/)", m.group(2))))
            continue
        out.append(([f for _, fs in stack for f in fs], line))
    return out


def candidates(name, folders):
    """The tree paths a name may mean: itself, or within a heading's folder."""
    name = name.strip("/")
    return [name] + [f + name for f in folders]


def named_paths(doc):
    """Every path the map names, in backticks or not, resolved by the
    headings above it."""
    named = set()
    for folders, line in doc:
        for name in re.findall(r"(?<![\w/.])(" + NAME + r")", line):
            named.update(candidates(name, folders))
    return named


def backticked(doc):
    """(name, folders) for every `name` with a source extension."""
    for folders, line in doc:
        for text in re.findall(r"`([^`]+)`", line):
            for name in re.findall(NAME, text):
                if name.endswith(SOURCE_EXT) and not re.search(r"[*?]", name):
                    yield name, folders


def core_table(doc):
    """[(file, calls)] of core/'s table, in its order: a row may name two
    files (a .c and its header); calls are the core files' stems."""
    rows = []
    for folders, line in doc:
        if "core/" not in folders or not line.startswith("| `"):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        files = re.findall(r"`([^`]+)`", cells[0])
        calls = set() if len(cells) < 3 else {
            c.split()[0] for c in cells[2].split(",") if c.strip() and not c.strip().startswith("(")}
        rows += [(f, calls) for f in files]
    return rows


def nm_symbols(obj, *flags):
    r = subprocess.run(["nm", *flags, obj], env=ENV, capture_output=True, text=True)
    return r.stdout.splitlines() if r.returncode == 0 else None


def test_layering(build, doc):
    table = core_table(doc)
    # a .c file's place; its header may stand apart (convert.h, at the
    # bottom of the converter, under convert.c)
    order = {f[:-2]: i for i, (f, _) in enumerate(table) if f.endswith(".c")}
    objdir = os.path.join(build, "core")
    if shutil.which("nm") is None or not os.path.isdir(objdir):
        print(f"architecture: SKIPPED core/'s calls: no nm or no {objdir}")
        return
    objs = sorted(f[:-2] for f in os.listdir(objdir) if f.endswith(".o"))
    defined, undefined = {}, {}
    for stem in objs:
        path = os.path.join(objdir, stem + ".o")
        for line in nm_symbols(path, "--defined-only") or []:
            p = line.split()
            if len(p) == 3 and p[1] in "TDBRVW":
                defined.setdefault(p[2], stem)
        undefined[stem] = {line.split()[-1] for line in nm_symbols(path, "-u") or []}
    stated = {os.path.splitext(f)[0]: calls for f, calls in table if f.endswith(".c")}
    for stem in objs:
        calls = {defined[s] for s in undefined[stem] if s in defined and defined[s] != stem}
        check(f"core/{stem}.c: its calls are the table's", calls == stated.get(stem),
              f"nm finds {sorted(calls)}, ARCHITECTURE.md says "
              f"{sorted(stated.get(stem, ())) if stem in stated else 'nothing (no row)'}")
        above = sorted(c for c in calls if order.get(c, -1) >= order.get(stem, -1))
        check(f"core/{stem}.c calls only files listed before it", not above,
              f"it calls {above}, listed at or after it")


def main(argv):
    build = jjtest.build_dir(argv)
    if not check(f"{MAP} exists at the repository's root",
                 os.path.isfile(os.path.join(ROOT, MAP))):
        return jjtest.report("architecture")
    doc = read_map()
    named = named_paths(doc)
    for path in sorted(p for p in tracked_files() if must_be_named(p)):
        check(f"{path} is named in {MAP}", path in named,
              f"add it to its folder's section of {MAP}")
    for name, folders in backticked(doc):
        found = any(os.path.exists(os.path.join(ROOT, c)) for c in candidates(name, folders))
        check(f"{name} (named in {MAP}) exists", found,
              f"looked for {candidates(name, folders)}; remove or correct the name")
    test_layering(build, doc)
    return jjtest.report("architecture")


if __name__ == "__main__":
    sys.exit(main(sys.argv))
