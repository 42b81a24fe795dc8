"""jjtest.py — what every Python test script of tests/ shares: the check
counter, the repository's root, the extension's path, a connection with the
extension loaded, the error a statement raises, a document's text, and a
child Python process (which can import this module too) with its address
space capped.  The test scripts of tests/*/ put tests/lib on sys.path, then
`import jjtest`.

A script makes its checks with jjtest.check(), and ends with
`return jjtest.report("name")`, which prints "name: N checks" and the one
line tests/run.sh sums ("name: N passed, M failed") and gives the exit
status.  That line counts cases, not checks: a case is one check() as
written in the source, reached by one path of calls from main() (a check
in a loop, run a thousand times, is one case; a helper's check reached
from two test functions is two), and it passes when every time it ran
passed.  A data-driven loop whose items are cases of their own (one per
pattern, per documented example) says so with check(..., case=ITEM).

Two settings a script may change after importing: jjtest.SHOW_AT_MOST (how
many failures are printed; the rest are only counted) and
jjtest.LINE_AT_MOST (a failure's line is cut to that many characters; None:
not cut), for scripts whose details can be huge.
"""
import json
import os
import re
import resource
import sqlite3
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
passed = 0  # checks
failed = 0
cases = {}  # call path -> passed every time so far
shown = 0
SHOW_AT_MOST = 50  # failures printed in full; the rest are only counted
LINE_AT_MOST = None  # characters of a failure's line; None: all


def _case():
    """The check's case: the lines of the calls that led to it, from the
    script's main() (or its top level) down, in the test scripts only."""
    here = os.path.abspath(__file__)
    path = []
    f = sys._getframe(2)
    while f is not None:
        code = f.f_code
        if code.co_filename != here:
            path.append((code.co_filename, f.f_lineno))
        if code.co_name in ("main", "<module>"):
            break
        f = f.f_back
    return tuple(path)


def check(name, cond, detail="", case=None):
    """Count one check; print a failure with what was seen."""
    global passed, failed, shown
    key = (_case(), case)
    cases[key] = cases.get(key, True) and bool(cond)
    if cond:
        passed += 1
        return True
    failed += 1
    if shown < SHOW_AT_MOST:
        shown += 1
        line = f"FAIL {name} {detail}"
        print(line if LINE_AT_MOST is None else line[:LINE_AT_MOST])
    return False


def report(label):
    """Print the checks, then 'label: N passed, M failed' of the cases;
    return the exit status."""
    ok = sum(1 for v in cases.values() if v)
    print(f"{label}: {passed + failed} checks")
    print(f"{label}: {ok} passed, {len(cases) - ok} failed")
    return 1 if failed else 0


def build_dir(argv):
    """BUILD_DIR from the command line, or the repository's build/."""
    if len(argv) > 1:
        return argv[1]
    return os.path.join(ROOT, "build")


def extension_path(build):
    """The extension's path without .so, as load_extension wants it:
    /repo/build means /repo/jalapenojson.so (what `make` builds), any other
    directory D means D/jalapenojson.so (the sanitizer and portable
    builds)."""
    build = os.path.abspath(build)
    if os.path.basename(build) == "build":
        return os.path.join(os.path.dirname(build), "jalapenojson")
    return os.path.join(build, "jalapenojson")


def connect(ext, path=":memory:", **kwargs):
    """A connection to path with the extension loaded (and loading turned
    off again, as an application would)."""
    conn = sqlite3.connect(path, **kwargs)
    conn.enable_load_extension(True)
    conn.load_extension(ext)
    conn.enable_load_extension(False)
    return conn


def error_of(conn, sql, params=()):
    """The message sql raises, or None when it runs."""
    try:
        conn.execute(sql, params).fetchall()
    except sqlite3.Error as e:
        return str(e)
    return None


def q(text):
    """text as an SQL string literal."""
    return "'" + text.replace("'", "''") + "'"


def expect_error(conn, name, sql, params, message):
    """One check: the statement fails with exactly `message` (or with a
    message the re.Pattern `message` matches in full)."""
    got = error_of(conn, sql, params)
    if isinstance(message, re.Pattern):
        ok = got is not None and message.fullmatch(got) is not None
    else:
        ok = got == message
    return check(name, ok, f"got {got!r}, want {message!r}")


def document(columns, types, rows):
    """A document's text: the header, then one compact row a line."""
    body = ",\n".join(json.dumps(r, ensure_ascii=False, separators=(",", ":"))
                      for r in rows)
    return ('{"jalapenojson":1,"columns":%s,"types":%s,"rows":[\n%s\n]}'
            % (json.dumps(columns, separators=(",", ":")),
               json.dumps(types, separators=(",", ":")), body))


def run_cli(cli, args, cwd):
    """The command-line tool with args in cwd: (exit status, stdout,
    stderr), the output decoded as UTF-8; two minutes at most."""
    p = subprocess.run([cli] + list(args), cwd=cwd, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=120)
    return p.returncode, p.stdout.decode(), p.stderr.decode()


def python_child(code, args, timeout):
    """Run `code` in a fresh Python (this interpreter) with the strings args
    as sys.argv[1:] and this directory on its path, so that it can `import
    jjtest`; the CompletedProcess, output as text.  subprocess.TimeoutExpired
    when it runs longer than timeout seconds (it is killed)."""
    env = dict(os.environ)
    here = os.path.dirname(os.path.abspath(__file__))
    env["PYTHONPATH"] = here + (os.pathsep + env["PYTHONPATH"]
                                if env.get("PYTHONPATH") else "")
    return subprocess.run([sys.executable, "-c", code] + list(args), env=env,
                          capture_output=True, text=True, timeout=timeout)


def cap_address_space(extra):
    """Cap this process's address space at what it maps now plus extra
    bytes (RLIMIT_AS): for a child process that must fail with MemoryError
    instead of eating the machine when what it runs does not stay
    bounded."""
    now = 0
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmSize:"):
                now = int(line.split()[1]) * 1024
    resource.setrlimit(resource.RLIMIT_AS, (now + extra, now + extra))
