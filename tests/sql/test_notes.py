#!/usr/bin/env python3
"""test_notes.py BUILD_DIR - jj_notes(): the decisions of the last jj_group,
jj_export, jj_from_json or jj_from_csv that finished on the connection.

The same rows through each of the four give the same sentences, which are
the converter's for the same values (`jalapenojson convert` of the rows as
NDJSON prints them under "decisions:"); a call that decides nothing makes it
NULL, a call that fails leaves the previous call's, and each connection
has its own.  (Each note also goes to sqlite3_log: sql/group.sql shows
that through the sqlite3 shell's .log.)
Prints "notes: N passed, M failed".
"""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import jjtest
from jjtest import check, connect, extension_path

ROWS = [(1, "2024-01-01", 3), ("x", None, 4), (2.5, "y", None)]
EXPECTED = ('column "a": integers (row 1, 1), floats (row 3, 2.5), text (row 2, "x") -> s\n'
            'column "b": dates (row 1, "2024-01-01"), text (row 3, "y") -> s')


def notes(conn):
    return conn.execute("SELECT jj_notes()").fetchone()[0]


def cli_notes(build, text, suffix):
    """The converter's notes for the same rows, from the command-line tool."""
    with tempfile.TemporaryDirectory(prefix="jj-notes-") as d:
        src = os.path.join(d, "in" + suffix)
        with open(src, "w") as f:
            f.write(text)
        r = subprocess.run([os.path.join(build, "jalapenojson"), "convert", src,
                            os.path.join(d, "out.jj")], capture_output=True, text=True)
        lines = (r.stdout + r.stderr).splitlines()
        at = lines.index("decisions:") + 1 if "decisions:" in lines else len(lines)
        return "\n".join(line[2:] for line in lines[at:] if line.startswith("  "))


def main():
    build = jjtest.build_dir(sys.argv)
    conn = connect(extension_path(build))
    conn.execute("CREATE TABLE t(a, b, c)")
    conn.executemany("INSERT INTO t VALUES (?, ?, ?)", ROWS)
    check("nothing yet: NULL", notes(conn) is None)

    conn.execute("SELECT jj_group('a', a, 'b', b, 'c', c) FROM t").fetchone()
    check("jj_group", notes(conn) == EXPECTED, repr(notes(conn)))

    ndjson = "".join(json.dumps(dict(zip("abc", r))) + "\n" for r in ROWS)
    check("the converter's sentences", cli_notes(build, ndjson, ".ndjson") == EXPECTED,
          repr(cli_notes(build, ndjson, ".ndjson")))

    conn.execute("SELECT jj_group('c', c) FROM t").fetchone()
    check("a call that decides nothing: NULL", notes(conn) is None, repr(notes(conn)))

    with tempfile.TemporaryDirectory(prefix="jj-notes-") as d:
        out = os.path.join(d, "t.jj")
        conn.execute("SELECT jj_export(?, 'SELECT * FROM t')", (out,)).fetchone()
        check("jj_export", notes(conn) == EXPECTED, repr(notes(conn)))
        conn.execute("SELECT jj_export(?, 'SELECT * FROM t', 'a:s,b:s')", (out,)).fetchone()
        check("jj_export with TYPES deciding everything: NULL", notes(conn) is None,
              repr(notes(conn)))

    conn.execute("SELECT jj_from_json(?)", (ndjson,)).fetchone()
    check("jj_from_json", notes(conn) == EXPECTED, repr(notes(conn)))

    csv = "a,b\n1,2024-01-01\nx,\n"
    conn.execute("SELECT jj_from_csv(?)", (csv,)).fetchone()
    want = cli_notes(build, csv, ".csv")
    check("jj_from_csv: the converter's CSV sentences", notes(conn) == want and want,
          "%r vs %r" % (notes(conn), want))

    try:
        conn.execute("SELECT jj_from_json(?, 'a:i')", (ndjson,)).fetchone()
        failed = False
    except jjtest.sqlite3.Error:
        failed = True
    check("a failed call leaves the last one's", failed and notes(conn) == want, repr(notes(conn)))

    conn.execute("SELECT jj_group('a', a) FROM t WHERE 0").fetchone()
    check("jj_group over no rows (NULL): no decisions", notes(conn) is None, repr(notes(conn)))

    conn.execute("SELECT jj_group('a', a) FROM t").fetchone()
    other = connect(extension_path(build))
    check("each connection its own", notes(other) is None and notes(conn) is not None)
    other.close()

    grouped = conn.execute("SELECT jj_group('a', a) FROM t GROUP BY c IS NOT NULL "
                           "ORDER BY c IS NOT NULL").fetchall()
    check("GROUP BY: the last group's", len(grouped) == 2 and
          notes(conn) == 'column "a": integers (row 1, 1), text (row 2, "x") -> s',
          repr(notes(conn)))
    return jjtest.report("notes")


if __name__ == "__main__":
    sys.exit(main())
