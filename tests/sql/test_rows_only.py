#!/usr/bin/env python3
"""test_rows_only.py BUILD_DIR - a typed table's scan that reads no value
(count(*), the rowid, hidden columns only: the plan's "rows only") checks
rows ahead with jj_cursor_skip and hands them out one by one (ext/scan.c).
It must answer exactly as a scan that reads a value: the same counts, the
same rowids in the same order under LIMIT and OFFSET, over one file and a
glob, and the same error at the same place for a broken row anywhere
(before, at and after the 64-row batches' edges), with the rows before it
returned first.  The plan is checked to be taken (EXPLAIN QUERY PLAN shows
"rows only"), so the test fails if it silently stops being used.
"""
import os
import random
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import jjtest

COLUMNS = ["id", "name", "price", "day"]
TYPES = ["i", "s", "f", "d"]


def rows_of(n, rnd):
    """n rows whose lengths vary across the scanner's 64-byte windows."""
    out = []
    for i in range(n):
        name = "x" * rnd.choice([0, 1, 5, 30, 70, 130]) + ("é" if rnd.random() < 0.2 else "")
        out.append([i + 1, name, rnd.choice([0.5, 19.99, -3.25, 1e300]),
                    "2024-02-%02d" % (1 + i % 28)])
    return out


def write(path, text):
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def plan_of(conn, sql):
    return " ".join(r[-1] for r in conn.execute("EXPLAIN QUERY PLAN " + sql))


def same_answers(conn, table, n, label):
    """Rows-only statements against the same ones reading a column."""
    pairs = [
        ("SELECT count(*) FROM %s", "SELECT count(id) FROM %s"),
        ("SELECT rowid FROM %s", "SELECT rowid FROM %s WHERE id IS NOT NULL OR id IS NULL"),
        ("SELECT rowid FROM %s LIMIT 70", "SELECT rowid FROM %s WHERE length(name) >= 0 LIMIT 70"),
        ("SELECT rowid FROM %s LIMIT 5 OFFSET 63",
         "SELECT rowid FROM %s WHERE length(name) >= 0 LIMIT 5 OFFSET 63"),
        ("SELECT rowid FROM %s LIMIT -1 OFFSET 130",
         "SELECT rowid FROM %s WHERE length(name) >= 0 LIMIT -1 OFFSET 130"),
        ("SELECT count(*) FROM (SELECT rowid FROM %s LIMIT 65)",
         "SELECT count(*) FROM (SELECT id FROM %s LIMIT 65)"),
    ]
    for fast, slow in pairs:
        a, b = fast % table, slow % table
        jjtest.check(f"{label} plan {a}", "rows only" in plan_of(conn, a), plan_of(conn, a))
        jjtest.check(f"{label} not rows only {b}", "rows only" not in plan_of(conn, b),
                     plan_of(conn, b))
        ga, gb = conn.execute(a).fetchall(), conn.execute(b).fetchall()
        jjtest.check(f"{label} {a}", ga == gb, f"{ga[:8]}... vs {gb[:8]}...")
    jjtest.check(f"{label} count", conn.execute("SELECT count(*) FROM %s" % table).fetchone()[0] == n)


def one_file(conn, d, rnd):
    for n in (0, 1, 2, 63, 64, 65, 127, 128, 129, 300):
        path = os.path.join(d, "t%d.jj" % n)
        write(path, jjtest.document(COLUMNS, TYPES, rows_of(n, rnd)))
        conn.execute("DROP TABLE IF EXISTS t")
        conn.execute("CREATE VIRTUAL TABLE t USING jj_open(%s)" % jjtest.q(path))
        same_answers(conn, "t", n, "file %d" % n)
        got = [r[0] for r in conn.execute("SELECT rowid FROM t")]
        jjtest.check("file %d rowids" % n, got == list(range(1, n + 1)), str(got[:10]))


def glob(conn, d, rnd):
    sub = os.path.join(d, "g")
    os.mkdir(sub)
    sizes = [0, 70, 1, 64, 200]
    for k, n in enumerate(sizes):
        write(os.path.join(sub, "part%d.jj" % k), jjtest.document(COLUMNS, TYPES, rows_of(n, rnd)))
    conn.execute("CREATE VIRTUAL TABLE g USING jj_open(%s)" % jjtest.q(os.path.join(sub, "*.jj")))
    same_answers(conn, "g", sum(sizes), "glob")
    got = conn.execute("SELECT rowid FROM g").fetchall()
    want = [(k << 40 | r,) for k, n in enumerate(sizes) for r in range(1, n + 1)]
    jjtest.check("glob rowids name file and row", got == want, f"{got[:5]} vs {want[:5]}")


def broken(conn, d, rnd):
    """A row whose structure is broken at row r: the count fails with the
    message a scan reading a value gives, and the r - 1 rows before it come
    back first, one batch edge or another."""
    breaks = ['[1,"a",2.5]', '[1,"a",2.5,"2024-01-01",7]', '[1,"a" 2.5,"2024-01-01"]',
              '[1,"a\x01",2.5,"2024-01-01"]', '[1,+2,2.5,"2024-01-01"]', '{"id":1}',
              '[1,"a",2.5,"2024-01-01"', '[1,,2.5,"2024-01-01"]']
    for r in (1, 2, 63, 64, 65, 66, 128, 129, 200):
        for b in breaks:
            rows = rows_of(200, rnd)
            text = jjtest.document(COLUMNS, TYPES, rows)
            lines = text.split("\n")
            lines[r] = b + ("," if r < 200 else "")  # line r holds row r
            path = os.path.join(d, "b.jj")
            write(path, "\n".join(lines))
            conn.execute("DROP TABLE IF EXISTS b")
            conn.execute("CREATE VIRTUAL TABLE b USING jj_open(%s)" % jjtest.q(path))
            label = f"row {r} {b!r}"
            fast = jjtest.error_of(conn, "SELECT count(*) FROM b")
            slow = jjtest.error_of(conn, "SELECT count(id) FROM b")
            jjtest.check(f"{label}: an error", fast is not None and f"row {r}" in fast, str(fast))
            jjtest.check(f"{label}: the same error", fast == slow, f"{fast!r} vs {slow!r}")
            got = conn.execute("SELECT rowid FROM b LIMIT %d" % (r - 1)).fetchall()
            jjtest.check(f"{label}: the rows before it", got == [(i,) for i in range(1, r)],
                         str(got[-3:]))
            # Python's sqlite3 steps one row ahead, so the rows it hands
            # out before raising are compared with a scan that reads a value
            seen = {}
            for sql in ("SELECT rowid FROM b", "SELECT rowid FROM b WHERE length(name) >= 0"):
                seen[sql] = []
                try:
                    for (rowid,) in conn.execute(sql):
                        seen[sql].append(rowid)
                except Exception:
                    pass
            a, c = seen.values()
            jjtest.check(f"{label}: rows returned before the error", a == c and len(a) >= r - 2,
                         f"{len(a)} vs {len(c)} rows")


def main():
    conn = jjtest.connect(jjtest.extension_path(jjtest.build_dir(sys.argv)))
    rnd = random.Random(16)
    with tempfile.TemporaryDirectory() as d:
        one_file(conn, d, rnd)
        glob(conn, d, rnd)
        broken(conn, d, rnd)
    return jjtest.report("rows_only")


if __name__ == "__main__":
    sys.exit(main())
