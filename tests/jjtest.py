"""jjtest.py — what every Python test script of tests/ shares: the check
counter, the extension's path, a connection with the extension loaded and
the error a statement raises.  Imported as `import jjtest` by the scripts
beside it (tests/run.sh runs them with tests/ as the script's directory,
which Python puts first on sys.path).

A script counts its checks with jjtest.check(), and ends with
`return jjtest.report("name")`, which prints the one line tests/run.sh
sums ("name: N passed, M failed") and gives the exit status.
"""
import os
import sqlite3

passed = 0
failed = 0
shown = 0
SHOW_AT_MOST = 50  # failures printed in full; the rest are only counted


def check(name, cond, detail=""):
    """Count one check; print a failure with what was seen."""
    global passed, failed, shown
    if cond:
        passed += 1
        return True
    failed += 1
    if shown < SHOW_AT_MOST:
        shown += 1
        print(f"FAIL {name} {detail}")
    return False


def report(label):
    """Print 'label: N passed, M failed'; return the exit status."""
    print(f"{label}: {passed} passed, {failed} failed")
    return 1 if failed else 0


def build_dir(argv):
    """BUILD_DIR from the command line, or the repository's build/."""
    if len(argv) > 1:
        return argv[1]
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "..",
                        "build")


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
