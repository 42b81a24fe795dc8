"""test_bound_blob.py — a document given as a bound BLOB parameter is read
where it lies (ext/source.c open_bytes), every other BLOB is copied first.

What must hold either way, and what would break if the bound bytes were
held past their lifetime (the sanitizer run of this script catches a read
of freed memory): statements rebound between runs, two statements over
different bound documents stepped in turns, a statement reset half way
and rerun with new bytes, a bound document scanned again for each row of
an outer loop, BLOBs that are not parameters (a table's column, a
function's result), a gzip BLOB, and the byte limit, which applies to a
bound BLOB exactly as to a copied one.
"""
import gzip
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import jjtest
from jjtest import check


def doc(tag, n):
    """n rows of (i, text naming tag and i, a float) as document bytes."""
    rows = [[i, f"{tag}-{i}", i / 8] for i in range(n)]
    return jjtest.document(["i", "s", "x"], ["i", "s", "f"],
                           rows).encode()


def want(tag, n):
    return [(i, f"{tag}-{i}", i / 8) for i in range(n)]


def main():
    conn = jjtest.connect(jjtest.extension_path(jjtest.build_dir(sys.argv)))
    a, b = doc("a", 300), doc("b", 200)
    # A typed table declared by an empty document of the same shape; its
    # table-valued form r(?) reads the bound documents.
    conn.execute("CREATE VIRTUAL TABLE temp.r USING jj_open(%s)"
                 % jjtest.q(doc("none", 0).decode()))
    sql = "SELECT i, s, x FROM r(?)"

    # Rebound between runs (Python reuses the prepared statement).
    for k, (d, tag, n) in enumerate([(a, "a", 300), (b, "b", 200),
                                     (a, "a", 300)]):
        got = conn.execute(sql, (d,)).fetchall()
        check(f"rebound run {k}", got == want(tag, n), repr(got[:2]))

    # Two statements over different bound documents, stepped in turns.
    ca, cb = conn.cursor(), conn.cursor()
    ca.execute(sql, (a,))
    cb.execute(sql + " WHERE i >= 0", (b,))
    got_a, got_b = [], []
    while True:
        ra, rb = ca.fetchmany(7), cb.fetchmany(5)
        got_a += ra
        got_b += rb
        if not ra and not rb:
            break
    check("interleaved a", got_a == want("a", 300), repr(got_a[:2]))
    check("interleaved b", got_b == want("b", 200), repr(got_b[:2]))

    # Reset half way, then run again with other bytes.
    c = conn.cursor()
    c.execute(sql, (a,))
    first = c.fetchmany(10)
    check("half way", first == want("a", 10), repr(first))
    c.execute(sql, (b,))
    got = c.fetchall()
    check("rerun after a reset", got == want("b", 200), repr(got[:2]))

    # The bound document scanned once per outer row (xFilter again and
    # again on one cursor).
    got = conn.execute("WITH o(k) AS (VALUES (1),(2),(3)) "
                       "SELECT k, count(*), sum(i) FROM o, r(?) "
                       "GROUP BY k", (b,)).fetchall()
    check("outer loop", got == [(k, 200, 19900) for k in (1, 2, 3)],
          repr(got))

    # BLOBs that are not parameters are copied: a column, in a join that
    # gives the scan a new BLOB for each outer row, and a function result.
    conn.execute("CREATE TEMP TABLE d(tag, body)")
    conn.executemany("INSERT INTO d VALUES (?, ?)", [("a", a), ("b", b)])
    got = conn.execute("SELECT tag, count(*), max(s) FROM d, r(d.body) "
                       "GROUP BY tag ORDER BY tag").fetchall()
    check("column BLOBs", got == [("a", 300, "a-99"), ("b", 200, "b-99")],
          repr(got))
    got = conn.execute("SELECT i, s, x FROM r(coalesce(?, NULL))",
                       (b,)).fetchall()
    check("function result BLOB", got == want("b", 200), repr(got[:2]))

    # Text values outlive the scan that produced them: SQLite keeps the
    # best so far of min()/max() and the sorter's records.
    got = conn.execute("SELECT min(s), max(s) FROM r(?)",
                       (a,)).fetchone()
    check("min/max text", got == ("a-0", "a-99"), repr(got))
    got = conn.execute("SELECT s FROM r(?) ORDER BY x DESC LIMIT 3",
                       (a,)).fetchall()
    check("sorted text", got == [("a-299",), ("a-298",), ("a-297",)],
          repr(got))

    # The record form reads a bound BLOB the same way.
    got = conn.execute("SELECT row, record->>'s' FROM jj_open(?) "
                       "WHERE row % 50 = 1", (b,)).fetchall()
    check("record form", got == [(r, f"b-{r - 1}") for r in range(1, 201, 50)],
          repr(got))

    # A gzip BLOB is decompressed into memory the scan owns.
    got = conn.execute(sql, (gzip.compress(a),)).fetchall()
    check("gzip BLOB", got == want("a", 300), repr(got[:2]))

    # The byte limit holds for a bound BLOB as for a copied one.
    conn.execute("SELECT jj_max_size(1000)")
    err = jjtest.error_of(conn, sql, (a,))
    check("limit on a bound BLOB",
          err is not None and err.startswith(f"blob: the document is {len(a)} "
                                             "bytes, over the limit of 1000 "
                                             "bytes"), repr(err))
    err2 = jjtest.error_of(conn, "SELECT i FROM r(coalesce(?, NULL))",
                           (a,))
    check("same limit error for a copied BLOB", err2 == err, repr(err2))
    conn.execute("SELECT jj_max_size(0)")
    got = conn.execute(sql, (a,)).fetchall()
    check("limit lifted", got == want("a", 300), repr(got[:2]))
    return jjtest.report("test_bound_blob")


if __name__ == "__main__":
    sys.exit(main())
