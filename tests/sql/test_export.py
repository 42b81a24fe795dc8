"""test_export.py BUILD_DIR — jj_export(PATH, QUERY [, TYPES]) (ext/export.c):
round trips of every type through plain, .gz and .br files, the type rules
(TYPES, declared types, every row's values: a NULL first row, integers
then a float, a mixed column), atomic
replacement (a failure keeps the old file and leaves no temporary file),
SQLITE_DIRECTONLY, interrupts, and 2,000,000 rows exported by a child
process under an address-space limit, read back equal.
Prints "export: N passed, M failed".
"""
import json
import os
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import jjtest
from jjtest import check, connect, error_of, extension_path, python_child, q


CHILD = r"""
import sys
import jjtest
ext, path, rows, cap = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
conn = jjtest.connect(ext)
# the limit after loading: what the export may add on top
jjtest.cap_address_space(cap)
q = ("WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM s "
     "WHERE i < %d) SELECT i AS id, 'u' || (i %% 97) AS user, "
     "i / 4.0 AS price FROM s" % rows)
print(conn.execute("SELECT jj_export(?, ?)", (path, q)).fetchone()[0])
"""


def main():
    build = jjtest.build_dir(sys.argv)
    ext = extension_path(build)
    conn = connect(ext)
    conn.execute("CREATE TABLE src(i INTEGER, f REAL, s TEXT, d DATE, "
                 "t TIMESTAMP, b BOOLEAN, x BLOB, n)")
    rows = [
        (1, 2.5, "Tromsø", "2024-03-01", "2024-03-01T12:00:00Z", 1, b"\x00\xff", None),
        (-2**63, -0.0, "a\"b\\c\nd", None, None, 0, b"", None),
        (2**63 - 1, 1e300, "", "1999-12-31", "1999-12-31T23:59:59.5+05:30", None, None, None),
        (None, None, None, None, None, None, None, None),
        (0, float("inf"), "日本", "2000-02-29", None, 1, b"abc", None),
    ]
    conn.executemany("INSERT INTO src VALUES (?,?,?,?,?,?,?,?)", rows)
    with tempfile.TemporaryDirectory() as tmp:
        for suffix in ["", ".gz", ".br"]:
            path = os.path.join(tmp, "all.jj" + suffix)
            res = conn.execute("SELECT jj_export(?, 'SELECT * FROM src', 'n:s')",
                               (path,)).fetchone()[0]
            info = json.loads(res)
            check(f"result{suffix}", info["rows"] == 5 and
                  info["bytes"] == os.path.getsize(path), res)
            conn.execute("DROP TABLE IF EXISTS temp.back")
            # as written: the timestamps' text, zones and all
            conn.execute("CREATE VIRTUAL TABLE temp.back USING jj_open(%s, timestamps=as_written)" %
                         q(path))
            got = conn.execute("SELECT * FROM back ORDER BY rowid").fetchall()
            check(f"round trip{suffix}", got == rows, f"{got}")
            # by default, SQLite's form in UTC
            conn.execute("DROP TABLE IF EXISTS temp.sqlform")
            conn.execute("CREATE VIRTUAL TABLE temp.sqlform USING jj_open(%s)" % q(path))
            utc = [r[0] for r in conn.execute("SELECT t FROM sqlform ORDER BY rowid")]
            check(f"SQLite's form{suffix}", utc == ["2024-03-01 12:00:00", None,
                                                    "1999-12-31 18:29:59.5", None, None], f"{utc}")
            types = [r[2] for r in conn.execute("PRAGMA table_info(back)")]
            check(f"types{suffix}", types == ["INTEGER", "REAL", "TEXT", "DATE",
                                              "TIMESTAMP", "BOOLEAN", "BLOB", "TEXT"],
                  f"{types}")
            # a typed source streams its own types back
            again = os.path.join(tmp, "again.jj" + suffix)
            conn.execute("SELECT jj_export(?, 'SELECT * FROM back')", (again,))
            got2 = conn.execute("SELECT * FROM jj_open(?)", (again,)).fetchall()
            got1 = conn.execute("SELECT * FROM jj_open(?)", (path,)).fetchall()
            check(f"typed source{suffix}", got1 == got2)
        conn.execute("DROP TABLE temp.back")

        p = os.path.join(tmp, "x.jj")
        # the same bytes as jj_group
        conn.execute("SELECT jj_export(?, 'SELECT i, s FROM src')", (p,))
        doc = conn.execute("SELECT jj_group('i', i, 's', s) FROM src").fetchone()[0]
        check("same as jj_group", open(p, encoding="utf-8").read() == doc)
        # type rules
        # every row decides a type: a NULL first row is no problem
        conn.execute("SELECT jj_export(?, 'SELECT NULL AS z, 1 AS y UNION ALL "
                     "SELECT ''2024-03-01'', 2')", (p,))
        check("NULL first row", conn.execute("SELECT name, type FROM jj_schema(?)", (p,)).fetchall()
              == [("z", "d"), ("y", "i")] and
              conn.execute("SELECT record FROM jj_open(?)", (p,)).fetchall()
              == [('{"z":null,"y":1}',), ('{"z":"2024-03-01","y":2}',)])
        conn.execute("SELECT jj_export(?, 'SELECT NULL AS z UNION ALL SELECT 7', 'z:i')", (p,))
        check("explicit type", conn.execute("SELECT * FROM jj_open(?)", (p,)).fetchall()
              == [(1, '{"z":null}'), (2, '{"z":7}')])
        conn.execute("SELECT jj_export(?, 'SELECT 1 AS z UNION ALL SELECT 2.5')", (p,))
        check("integers then a float: f", conn.execute(
            "SELECT record FROM jj_open(?)", (p,)).fetchall() == [('{"z":1.0}',), ('{"z":2.5}',)])
        conn.execute("SELECT jj_export(?, 'SELECT 1 AS z UNION ALL SELECT ''a''')", (p,))
        check("a mixed column: text", conn.execute(
            "SELECT record FROM jj_open(?)", (p,)).fetchall() == [('{"z":"1"}',), ('{"z":"a"}',)])
        conn.execute("SELECT jj_export(?, 'SELECT 1 AS z UNION ALL SELECT 2.5', 'z:f')", (p,))
        check("int to float", conn.execute("SELECT record FROM jj_open(?)", (p,)).fetchall()
              == [('{"z":1.0}',), ('{"z":2.5}',)])
        r = conn.execute("SELECT jj_export(?, 'SELECT i FROM src WHERE 0')", (p,)).fetchone()[0]
        check("no rows", json.loads(r)["rows"] == 0 and
              conn.execute("SELECT count(*) FROM jj_schema(?)", (p,)).fetchone()[0] == 1, r)
        check("result is JSON", conn.execute(
            "SELECT jj_export(?, 'SELECT 1 AS a')->>'rows'", (p,)).fetchone()[0] == 1)
        for sql, want in [("SELECT jj_export(?, 'DELETE FROM src')", "read-only"),
                          ("SELECT jj_export(?, 'SELECT 1; SELECT 2')", "exactly one"),
                          ("SELECT jj_export(?, 'SELECT 1 AS a', 'b:i')", '"b"'),
                          ("SELECT jj_export(?, 'SELECT 1 AS a', 'a:q')", "TYPES, at byte 2: unknown type q"),
                          ("SELECT jj_export(?, 'SELECT 1 AS a, 2 AS a')", "a"),
                          ("SELECT jj_export(?, 'SELEC 1')", "syntax error")]:
            e = error_of(conn, sql, (p,))
            check(f"error {sql}", e is not None and want in e, e)
        e = error_of(conn, "SELECT jj_export('out.jj.zst', 'SELECT 1 AS a')")
        check("zst refused", e and ".zst" in e, e)

        # atomic: a failing export keeps the old file, leaves nothing behind
        conn.execute("SELECT jj_export(?, 'SELECT 1 AS a')", (p,))
        before = open(p, "rb").read()
        e = error_of(conn, "SELECT jj_export(?, 'WITH RECURSIVE s(i) AS (SELECT 1 "
                     "UNION ALL SELECT i+1 FROM s WHERE i < 100000) SELECT "
                     "CASE WHEN i < 99999 THEN i ELSE ''bad'' END AS a FROM s', 'a:i')", (p,))
        check("failure mid-way", e == 'jj_export: row 99999, column "a": "bad" is not an '
              'integer; CAST it or use a TEXT column ("a:s")', e)
        check("old file kept", open(p, "rb").read() == before)
        check("no temporary file", sorted(os.listdir(tmp)) ==
              sorted(f for f in os.listdir(tmp) if "jj-tmp" not in f))
        # an interrupt through the progress handler stops it the same way
        calls = [0]

        def stop():
            calls[0] += 1
            return 1 if calls[0] > 50 else 0
        conn.set_progress_handler(stop, 1000)
        e = error_of(conn, "SELECT jj_export(?, 'WITH RECURSIVE s(i) AS (SELECT 1 "
                     "UNION ALL SELECT i+1 FROM s WHERE i < 10000000) SELECT i FROM s')",
                     (p,))
        conn.set_progress_handler(None, 0)
        check("interrupted", e == "interrupted", e)
        check("interrupt keeps the old file", open(p, "rb").read() == before)
        check("interrupt leaves no temporary file",
              not [f for f in os.listdir(tmp) if "jj-tmp" in f], os.listdir(tmp))
        # DIRECTONLY: not from a view of the database (temp views are the
        # user's own, where SQLite allows it)
        conn.execute("CREATE VIEW v AS SELECT jj_export('%s', 'SELECT 1 AS a')" % p)
        e = error_of(conn, "SELECT * FROM v")
        check("directonly", e and "unsafe use of jj_export" in e, e)

        # 2,000,000 rows in a child process whose address space may grow by
        # at most 32 MiB once the extension is loaded (jj_group over the
        # same rows fails with MemoryError under it)
        big = os.path.join(tmp, "big.jj.gz")
        n = 2_000_000
        proc = python_child(CHILD, [ext, big, str(n), str(32 << 20)],
                            timeout=120)
        check("bounded export", proc.returncode == 0, proc.stderr[-500:])
        if proc.returncode == 0:
            info = json.loads(proc.stdout)
            check("bounded export rows", info["rows"] == n, proc.stdout)
            conn.execute("CREATE VIRTUAL TABLE temp.big USING jj_open('%s')" % big)
            got = conn.execute("SELECT count(*), sum(id), sum(price), "
                               "sum(length(user)) FROM big").fetchone()
            want = conn.execute(
                "WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM s "
                "WHERE i < %d) SELECT count(*), sum(i), sum(i / 4.0), "
                "sum(length('u' || (i %% 97))) FROM s" % n).fetchone()
            check("bounded export reads back", got == want, f"{got} {want}")
    return jjtest.report("export")


if __name__ == "__main__":
    sys.exit(main())
