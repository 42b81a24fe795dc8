#!/usr/bin/env python3
"""test_docs.py BUILD_DIR — the documentation's examples are the test.

  - SQL: every ```sql block of README.md and docs/*.md runs, in order, in
    one sqlite3 session per page started from the repository root (where
    the pages say to run them) with the build's extension loaded; the
    output of each block must equal the plain ``` block that follows it,
    byte for byte.  Each block is read with .read from a file of its own,
    so an error's "near line N" counts the lines of that block.
  - C: every ```c block of README.md and docs/*.md is compiled against the
    build's libjalapenojson.a (with ASan and UBSan for the sanitizer build)
    and run from the root; what it prints must equal the plain block that
    follows it (after at most one ```sh block showing how it is built).
  - Links: every relative link of README.md, docs/*.md, SPEC.md,
    CONTRIBUTING.md, CHANGELOG.md (and ARCHITECTURE.md when there is one)
    points at a file that exists, and an #anchor at a heading of the page
    it names; every docs page lists its sections at the top.
  - Install: README.md's Python install block (<!-- install-python -->)
    runs as written with HOME in a temporary directory, and the module it
    installs imports from that venv; its staged-install block
    (<!-- install-stage -->) runs as written with STAGE in a temporary
    directory and must print the version.  Plain build only (BUILD_DIR
    named build): the others print a SKIPPED line.

The command-line sessions are run by tests/cli/test_cli.py, the Python
examples by python/tests/test_readme.py, the JavaScript ones by
js/test/docs.test.mjs.  Prints "docs: N passed, M failed".
"""
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import jjtest
from jjtest import ROOT, check

jjtest.LINE_AT_MOST = 6000  # a failure shows what was expected and what came

FENCE = re.compile(r"^```([\w-]*)\n(.*?)^```\n", re.S | re.M)
# Files the examples write, removed after the run.
WRITTEN = ["paid.jj.gz", "wide.jj", "people.jj.gz", "team.jj", "team.jj.gz", "sql/docs.tmp"]
# The pages whose links are checked, besides docs/*.md.
LINKED = ["README.md", "SPEC.md", "CONTRIBUTING.md", "CHANGELOG.md", "ARCHITECTURE.md"]


def read(rel):
    with open(os.path.join(ROOT, rel), encoding="utf-8") as f:
        return f.read()


def pages():
    """README.md, then docs/*.md, as paths relative to the root."""
    return ["README.md"] + sorted(os.path.relpath(p, ROOT) for p in glob.glob(os.path.join(ROOT, "docs", "*.md")))


def blocks(text):
    """(language, body, start, end) of each fenced block."""
    return [(m.group(1), m.group(2), m.start(), m.end()) for m in FENCE.finditer(text)]


def examples(text, lang, skip=()):
    """(body, expected output) for each block of `lang`: the output is the
    plain block right after it, or after one block of a language in
    `skip`; "" when there is none."""
    bs = blocks(text)
    for i, (la, body, _, end) in enumerate(bs):
        if la != lang:
            continue
        out, j = "", i + 1
        if j < len(bs) and bs[j][0] in skip and text[end:bs[j][2]].strip() == "":
            end, j = bs[j][3], j + 1
        if j < len(bs) and bs[j][0] == "" and text[end:bs[j][2]].strip() == "":
            out = bs[j][1]
        yield body, out


def env_clean(**extra):
    """The environment without the make jobserver and preloaded runtimes."""
    e = {k: v for k, v in os.environ.items()
         if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL", "LD_PRELOAD")}
    e.update(extra)
    return e


# ---- SQL -----------------------------------------------------------------

def run_sql(page, so, tmp):
    cases = list(examples(read(page), "sql"))
    script = [".bail off"]
    for n, (sql, _) in enumerate(cases, 1):
        path = os.path.join(tmp, "%s.%d.sql" % (page.replace("/", "_"), n))
        with open(path, "w", encoding="utf-8") as f:
            f.write(sql)
        script.append(".print '-- example %d'" % n)
        script.append(".read '%s'" % path)
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
    # Errors go to stderr, merged into the one pipe in order (the shell
    # flushes stdout between statements), as a terminal would show them.
    got = re.split(r"^-- example \d+\n", run.stdout, flags=re.M)[1:]
    if got:
        got[-1] = got[-1].split("-- end\n")[0]
    for n, (sql, want) in enumerate(cases, 1):
        have = got[n - 1] if n - 1 < len(got) else None
        check("%s SQL example %d:" % (page, n), have == want,
              "\n%s\n--- the page shows:\n%s--- sqlite3 printed:\n%s" % (sql, want, have),
              case=(page, n))
    return len(cases)


# ---- C -------------------------------------------------------------------

def run_c(page, build, tmp):
    san = os.path.basename(build.rstrip("/")).endswith("san")
    lib = os.path.join(build, "libjalapenojson.a")
    cases = list(examples(read(page), "c", skip=("sh",)))
    for n, (src, want) in enumerate(cases, 1):
        name = os.path.join(tmp, "%s.%d" % (page.replace("/", "_"), n))
        with open(name + ".c", "w", encoding="utf-8") as f:
            f.write(src)
        cmd = ["cc", "-std=c11", "-Wall", "-Wextra", "-pedantic", "-Wshadow", "-Wstrict-prototypes",
               "-Werror", "-I" + os.path.join(ROOT, "core"), name + ".c", lib,
               "-lz", "-lbrotlienc", "-lbrotlidec", "-lm", "-o", name]
        if san:
            cmd[1:1] = ["-fsanitize=address,undefined", "-fno-sanitize-recover=all"]
        r = subprocess.run(cmd, env=env_clean(), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if not check("%s C example %d compiles" % (page, n), r.returncode == 0, r.stdout, case=(page, n, "cc")):
            continue
        r = subprocess.run([name], cwd=ROOT, env=env_clean(), stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True, timeout=60)
        check("%s C example %d prints what the page shows" % (page, n),
              r.returncode == 0 and r.stdout == want and r.stderr == "",
              "\n--- the page shows:\n%s--- it printed (exit %d):\n%s%s" % (want, r.returncode, r.stdout, r.stderr),
              case=(page, n, "run"))
    return len(cases)


# ---- Links ---------------------------------------------------------------

def slug(heading):
    """The anchor GitHub gives a heading."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link's text
    text = text.strip().lower().replace("`", "")
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(text):
    """The anchors of a page's headings (outside code blocks)."""
    seen, out = {}, set()
    for line in FENCE.sub("", text).splitlines():
        m = re.match(r"^#{1,6} (.*?)#*\s*$", line)
        if m:
            s = slug(m.group(1))
            k = seen.get(s, 0)
            out.add(s if k == 0 else "%s-%d" % (s, k))
            seen[s] = k + 1
    return out


def strip_code(text):
    """The text without fenced blocks and inline code."""
    text = FENCE.sub("", text)
    return re.sub(r"`[^`\n]*`", "", text)


def links(text):
    """The targets of the Markdown links and images of a text."""
    return re.findall(r"!?\[[^\]]*\]\(([^)\s]+)\)", strip_code(text))


def check_links(page):
    text = read(page)
    bad = []
    for target in links(text):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target):  # https:, mailto:
            continue
        path, _, anchor = target.partition("#")
        dest = os.path.normpath(os.path.join(os.path.dirname(os.path.join(ROOT, page)), path)) if path \
            else os.path.join(ROOT, page)
        if not os.path.exists(dest):
            bad.append("%s: no such file" % target)
        elif anchor and dest.endswith(".md") and anchor not in anchors(open(dest, encoding="utf-8").read()):
            bad.append("%s: no such heading in %s" % (target, os.path.relpath(dest, ROOT)))
    check("%s: every relative link leads somewhere" % page, not bad, "\n  " + "\n  ".join(bad), case=page)


def check_contents(page):
    """A docs page lists every one of its ## sections before the first."""
    text = read(page)
    body = strip_code(text)
    first = re.search(r"^## ", body, re.M)
    head = body[:first.start()] if first else body
    listed = {t.partition("#")[2] for t in links(head) if t.startswith("#")}
    sections = [slug(h) for h in re.findall(r"^## (.*)$", body, re.M)]
    missing = [s for s in sections if s not in listed]
    check("%s lists its sections at the top" % page, sections and not missing, missing, case=page)


# ---- Install -------------------------------------------------------------

def marked_block(text, mark):
    """The body of the fenced block right after <!-- mark -->."""
    m = re.search(r"<!-- %s -->\n```\w*\n(.*?)^```\n" % re.escape(mark), text, re.S | re.M)
    return m.group(1) if m else None


def install_python(build):
    block = marked_block(read("README.md"), "install-python")
    if not check("README.md has the Python install block", block is not None):
        return
    version = re.search(r'#define JJ_VERSION_STRING "([^"]+)"', read("core/jalapenojson.h")).group(1)
    with tempfile.TemporaryDirectory() as home:
        # A plain Debian 12 shell: its PATH (python3 is /usr/bin/python3,
        # not a venv's or a version manager's) and no pip settings.
        e = {k: v for k, v in env_clean().items()
             if not k.startswith(("PIP_", "PYTHON", "VIRTUAL_ENV", "PYENV"))}
        e.update(HOME=home, PATH="/usr/local/bin:/usr/bin:/bin", JJ_PY_BUILD_BASE=os.path.join(home, "pybuild"),
                 PIP_DISABLE_PIP_VERSION_CHECK="1", PIP_NO_INDEX="1")
        r = subprocess.run(["sh", "-ec", block], cwd=ROOT, env=e, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True, timeout=900)
        check("README.md's Python install runs as written", r.returncode == 0, r.stdout[-3000:])
        pythons = glob.glob(os.path.join(home, ".venvs", "*", "bin", "python"))
        if not check("  ... and makes a venv under ~/.venvs", len(pythons) == 1, pythons):
            return
        r = subprocess.run([pythons[0], "-P", "-c", "import jalapenojson; print(jalapenojson.__version__, jalapenojson.__file__)"],
                           cwd=home, env=e, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        words = r.stdout.split()
        check("  ... whose jalapenojson imports with the header's version, from the venv",
              r.returncode == 0 and len(words) == 2 and words[0] == version and words[1].startswith(home), r.stdout)


def install_stage(build):
    block = marked_block(read("README.md"), "install-stage")
    if not check("README.md has the staged-install block", block is not None):
        return
    if not check("  ... which sets STAGE on its first line", re.match(r"STAGE=\S+\n", block or ""), block):
        return
    version = re.search(r'#define JJ_VERSION_STRING "([^"]+)"', read("core/jalapenojson.h")).group(1)
    with tempfile.TemporaryDirectory() as tmp:
        stage = os.path.join(tmp, "stage")
        script = re.sub(r"^STAGE=\S+", "STAGE=" + stage, block, count=1)
        r = subprocess.run(["sh", "-ec", script], cwd=ROOT, env=env_clean(), stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True, timeout=600)
        check("README.md's staged install builds a program with pkg-config, and it runs",
              r.returncode == 0 and r.stdout.rstrip("\n").endswith("\n" + version), r.stdout[-3000:])
        check("  ... into the staging directory only",
              os.path.exists(os.path.join(stage, "usr", "local", "include", "jalapenojson.h")))


def main():
    build = os.path.abspath(jjtest.build_dir(sys.argv))
    so = jjtest.extension_path(build)
    n_sql = n_c = 0
    with tempfile.TemporaryDirectory() as tmp:
        for page in pages():
            n_sql += run_sql(page, so, tmp)
            n_c += run_c(page, build, tmp)
    check("the pages have SQL examples (%d found)" % n_sql, n_sql >= 25)
    check("the pages have C examples (%d found)" % n_c, n_c >= 2)
    for page in pages() + [p for p in LINKED[1:] if os.path.exists(os.path.join(ROOT, p))]:
        check_links(page)
    for page in pages()[1:]:
        check_contents(page)
    if os.path.basename(build.rstrip("/")) == "build":
        install_python(build)
        install_stage(build)
    else:
        print("  SKIPPED the install blocks of README.md: they run for the plain build (build/) only")
    return jjtest.report("docs")


if __name__ == "__main__":
    sys.exit(main())
