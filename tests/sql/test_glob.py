"""test_glob.py BUILD_DIR — globs in jj_open's SOURCE, the hidden filename
column and its constraints, and the per-connection document cache
(jj_cache, jj_cache_size).

Globs: name order (bytewise), row within each file, filename = / LIKE /
GLOB skipping files unopened (seen in jj_cache), files of other columns
(an error naming the file), escaped names, an empty match (no rows; an
error at CREATE), .gz and .br mixed, typed tables over a glob, and a small
differential test against a native table.  The cache: a second statement
finds the document, a file touched, renamed over or resized is read again,
a small budget evicts.  Timing-free.  Prints "glob: N passed, M failed".

BUILD_DIR is the absolute build directory: the repository's build/ means
the extension ./jalapenojson.so at its root, any other directory D means
D/jalapenojson.so.
"""
import collections
import os
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import jjtest
from jjtest import check, connect, error_of, q, extension_path


def write(conn, path, cols, rows):
    """Write rows (lists) with columns cols [(name, sql expr of v)] to path
    with jj_write, v running 1..rows; returns the bytes written."""
    args = ", ".join(f"{q(n)}, {e}" for n, e in cols)
    return conn.execute(
        f"SELECT jj_write(?, (WITH RECURSIVE s(v) AS (SELECT 1 UNION ALL "
        f"SELECT v + 1 FROM s WHERE v < ?) SELECT jj_group({args}) FROM s))",
        (path, rows)).fetchone()[0]


COLS = [("id", "v"), ("tag", "'t' || v"), ("x", "v * 1.5")]


def test_globs(so, tmp):
    conn = connect(so)
    d = os.path.join(tmp, "logs")
    os.mkdir(d)
    # names whose strcmp order differs from a case-folding locale's
    files = [("B-2024-02.jj.gz", 2), ("a-2024-01.jj", 3),
             ("b-2024-03.jj.br", 2), ("c-2024-03.jj", 1)]
    for name, n in files:
        write(conn, os.path.join(d, name), COLS, n)
    os.mkdir(os.path.join(d, "z-dir.jj"))  # a directory that matches
    order = sorted(n for n, _ in files)
    pat = os.path.join(d, "*.jj*")

    got = conn.execute("SELECT filename, row, record->>'id' FROM "
                       "jj_open(?)", (pat,)).fetchall()
    want = [(os.path.join(d, n), r, r)
            for n in order for r in range(1, dict(files)[n] + 1)]
    check("record_order_rows", got == want, repr(got))
    got = conn.execute("SELECT DISTINCT filename FROM jj_open(?)",
                       (pat,)).fetchall()
    check("gz_br_plain_mixed", [os.path.basename(f) for f, in got] == order,
          repr(got))

    # filename constraints skip files: only the kept ones are opened
    for op, arg, keep in (("=", os.path.join(d, "c-2024-03.jj"),
                           ["c-2024-03.jj"]),
                          ("LIKE", "%2024-03%", ["b-2024-03.jj.br",
                                                 "c-2024-03.jj"]),
                          ("GLOB", "*/[aB]-*", ["B-2024-02.jj.gz",
                                                "a-2024-01.jj"])):
        conn.execute("SELECT jj_cache_size(0)")
        conn.execute("SELECT jj_cache_size(1000000)")
        got = conn.execute(f"SELECT DISTINCT filename FROM jj_open(?) "
                           f"WHERE filename {op} ?", (pat, arg)).fetchall()
        check(f"filter_{op}", [os.path.basename(f) for f, in got] == keep,
              repr(got))
        opened = conn.execute("SELECT path FROM jj_cache ORDER BY path"
                              ).fetchall()
        check(f"filter_{op}_unopened",
              sorted(os.path.basename(p) for p, in opened) == sorted(keep),
              repr(opened))
        plan = conn.execute(f"EXPLAIN QUERY PLAN SELECT * FROM jj_open(?) "
                            f"WHERE filename {op} ?", (pat, arg)).fetchall()
        check(f"filter_{op}_plan", "filename" in repr(plan), repr(plan))
    got = conn.execute("SELECT count(*) FROM jj_open(?) WHERE filename = "
                       "NULL", (pat,)).fetchone()
    check("filter_null", got == (0,), repr(got))
    # LIKE is case-insensitive in SQLite: the filter must not drop more
    got = conn.execute("SELECT count(DISTINCT filename) FROM jj_open(?) "
                       "WHERE filename LIKE '%/b-%'", (pat,)).fetchone()
    check("filter_like_case", got == (2,), repr(got))
    # a single file and a BLOB under a filename constraint
    one = os.path.join(d, "a-2024-01.jj")
    got = conn.execute("SELECT count(*) FROM jj_open(?) WHERE filename = ?",
                       (one, one)).fetchone()
    check("filter_single_file", got == (3,), repr(got))
    got = conn.execute("SELECT count(*) FROM jj_open(?) WHERE filename "
                       "LIKE '%'", (open(one, "rb").read(),)).fetchone()
    check("filter_blob_has_no_filename", got == (0,), repr(got))

    # row = N is row N of every file; ORDER BY row sorts across files
    got = conn.execute("SELECT filename, row FROM jj_open(?) WHERE row = 2",
                       (pat,)).fetchall()
    check("row_in_each_file", [(os.path.basename(f), r) for f, r in got] ==
          [("B-2024-02.jj.gz", 2), ("a-2024-01.jj", 2),
           ("b-2024-03.jj.br", 2)], repr(got))
    got = conn.execute("SELECT row FROM jj_open(?) ORDER BY row",
                       (pat,)).fetchall()
    check("order_by_row_sorts", [r for r, in got] ==
          sorted(r for _, n in files for r in range(1, n + 1)), repr(got))
    got = conn.execute(f"SELECT row FROM jj_open({q(pat)}) ORDER BY row "
                       "LIMIT 3").fetchall()
    check("order_by_row_limit", got == [(1,), (1,), (1,)], repr(got))
    got = conn.execute("SELECT filename, row FROM jj_open(?) LIMIT 2 "
                       "OFFSET 2", (pat,)).fetchall()
    check("limit_offset_across_files",
          [(os.path.basename(f), r) for f, r in got] ==
          [("B-2024-02.jj.gz", 1), ("B-2024-02.jj.gz", 2)][:0] +
          [(os.path.basename(want[2][0]), want[2][1]),
           (os.path.basename(want[3][0]), want[3][1])], repr(got))

    # an empty match: no rows; an error at CREATE, and for jj_schema
    empty = os.path.join(d, "nothing-*.jj")
    got = conn.execute("SELECT count(*) FROM jj_open(?)", (empty,)).fetchone()
    check("empty_match_no_rows", got == (0,), repr(got))
    msg = error_of(conn, f"CREATE VIRTUAL TABLE temp.e USING "
                         f"jj_open({q(empty)})")
    check("empty_match_create", msg == f"{empty}: no file matches (escape "
          "* ? [ with \\ to name a file that has them)", repr(msg))
    msg = error_of(conn, "SELECT * FROM jj_schema(?)", (empty,))
    check("empty_match_schema", msg is not None and "no file matches" in msg,
          repr(msg))
    got = conn.execute("SELECT name FROM jj_schema(?)", (pat,)).fetchall()
    check("schema_first_file", got == [("id",), ("tag",), ("x",)], repr(got))

    # escaped glob characters name one file
    odd = os.path.join(d, "odd*name[1].jj")
    write(conn, odd, COLS, 2)
    esc = os.path.join(d, "odd\\*name\\[1].jj")
    got = conn.execute("SELECT filename, row FROM jj_open(?)",
                       (esc,)).fetchall()
    check("escaped_name", got == [(odd, 1), (odd, 2)], repr(got))
    msg = error_of(conn, "SELECT * FROM jj_open(?)",
                   (os.path.join(d, "no\\*such.jj"),))
    check("escaped_missing", msg == 'cannot open "%s": No such file or '
          'directory' % os.path.join(d, "no*such.jj"), repr(msg))
    conn.execute(f"CREATE VIRTUAL TABLE temp.oddt USING jj_open({q(esc)})")
    got = conn.execute("SELECT count(*), min(filename) FROM oddt").fetchone()
    check("escaped_typed", got == (2, odd), repr(got))
    os.remove(odd)

    # typed table over a glob
    conn.execute(f"CREATE VIRTUAL TABLE temp.t USING jj_open({q(pat)})")
    cols = conn.execute("SELECT name, hidden FROM pragma_table_xinfo('t')"
                        ).fetchall()
    check("typed_columns", cols == [("id", 0), ("tag", 0), ("x", 0),
                                    ("source", 1), ("filename", 1)],
          repr(cols))
    # rowid: the file's place in name order << 40 | the row in the file
    got = conn.execute("SELECT filename, rowid, id, tag FROM t").fetchall()
    check("typed_rows", [(f, r & (2**40 - 1), i) for f, r, i, _ in got]
          == want and [r >> 40 for _, r, _, _ in got] ==
          [order.index(os.path.basename(f)) for f, _, _ in want], repr(got))
    got = conn.execute("SELECT rowid FROM t ORDER BY rowid").fetchall()
    check("typed_order_by_rowid", [r for r, in got] == sorted(
        order.index(n) << 40 | r for n, k in files for r in range(1, k + 1)),
        repr(got))
    plan = conn.execute("EXPLAIN QUERY PLAN SELECT * FROM t ORDER BY rowid"
                        ).fetchall()
    check("typed_order_by_rowid_no_sort", "TEMP B-TREE" not in repr(plan),
          repr(plan))
    got = conn.execute("SELECT filename, id FROM t WHERE rowid IN (?, ?, ?)",
                       (2 << 40 | 2, 2, 5 << 40 | 1)).fetchall()
    check("typed_rowid_in", [(os.path.basename(f), i) for f, i in got] ==
          [("B-2024-02.jj.gz", 2), ("b-2024-03.jj.br", 2)], repr(got))
    got = conn.execute("SELECT id FROM t WHERE rowid = ?",
                       (1 << 40,)).fetchall()
    check("typed_rowid_row_0", got == [], repr(got))
    got = conn.execute("SELECT count(*) FROM t WHERE filename GLOB "
                       "'*2024-03*'").fetchone()
    check("typed_filter", got == (3,), repr(got))
    # a file added later is read; one of other columns is an error naming it
    write(conn, os.path.join(d, "d-late.jj"), COLS, 1)
    got = conn.execute("SELECT count(*) FROM t").fetchone()
    check("typed_sees_new_file", got == (9,), repr(got))
    bad = os.path.join(d, "e-bad.jj")
    write(conn, bad, [("id", "v"), ("tag", "v"), ("x", "v * 1.5")], 1)
    msg = error_of(conn, "SELECT count(*) FROM t")
    check("typed_mismatch", msg == f'{bad}: column 2 "tag" differs: '
          'declared s, found i (a table created with union_by_name=1 '
          'reads files of other columns)', repr(msg))
    msg = error_of(conn, "SELECT count(*) FROM jj_open(?)", (pat,))
    check("record_mismatch", msg == f'{bad}: not the columns of '
          f'{os.path.join(d, order[0])}: column 2 "tag" differs: '
          "declared s, found i (jj_open(SOURCE, 'union_by_name=1') reads "
          'files of other columns)', repr(msg))
    got = conn.execute("SELECT count(*) FROM t WHERE filename LIKE "
                       "'%2024%'").fetchone()
    check("mismatch_skipped_by_filter", got == (8,), repr(got))
    os.remove(bad)
    os.remove(os.path.join(d, "d-late.jj"))
    # the table-valued form of a typed table takes a glob too
    got = conn.execute("SELECT count(*) FROM t(?)", (pat,)).fetchone()
    check("typed_table_valued_glob", got == (8,), repr(got))
    conn.close()


def test_differential(so, tmp):
    """Queries over a glob table and a native copy agree."""
    conn = connect(so)
    d = os.path.join(tmp, "diff")
    os.mkdir(d)
    native = []
    for k in range(6):
        name = os.path.join(d, f"part-{k}.jj" + ("", ".gz", ".br")[k % 3])
        n = k * 3 + 1
        write(conn, name, [("id", "v"), ("k", str(k)), ("s", "'s' || v")], n)
        native += [(name, k << 40 | r, r, k, f"s{r}")
                   for r in range(1, n + 1)]
    conn.execute(f"CREATE VIRTUAL TABLE temp.g USING "
                 f"jj_open({q(os.path.join(d, 'part-*'))})")
    conn.execute("CREATE TABLE n(filename, rid, id, k, s)")
    conn.executemany("INSERT INTO n VALUES (?,?,?,?,?)", native)
    p3 = os.path.join(d, "part-3.jj")
    wheres = ["", "WHERE rowid = 2", "WHERE rowid IN (1, 4, 9)",
              f"WHERE filename = {q(p3)}", "WHERE filename LIKE '%-1.%'",
              "WHERE filename GLOB '*-[24]*'", "WHERE filename > " + q(p3),
              f"WHERE filename = {q(p3)} OR rowid = 3",
              "WHERE filename LIKE '%.gz' AND rowid > 2",
              "WHERE k = 4 AND filename LIKE '%part%'"]
    tails = ["", "ORDER BY rowid", "ORDER BY rowid, filename",
             "LIMIT 3", "LIMIT 4 OFFSET 5", "ORDER BY rowid LIMIT 5"]
    for w in wheres:
        for tail in tails:
            a = conn.execute(f"SELECT filename, rowid, id, k, s FROM g {w} "
                             f"{tail}").fetchall()
            b = conn.execute(f"SELECT filename, rid, id, k, s FROM n "
                             f"{w.replace('rowid', 'rid')} "
                             f"{tail.replace('rowid', 'rid')}").fetchall()
            name = f"diff [{w}] [{tail}]"
            if "LIMIT" in tail and "filename" not in tail:
                full = collections.Counter(conn.execute(
                    f"SELECT filename, rid, id, k, s FROM n "
                    f"{w.replace('rowid', 'rid')}").fetchall())
                ok = len(a) == len(b) and not (collections.Counter(a) - full)
                if "ORDER BY" in tail:
                    ok = ok and [r[1] for r in a] == [r[1] for r in b]
                check(name, ok, f"{a!r} vs {b!r}")
            elif "ORDER BY rowid, filename" in tail:
                check(name, a == b, f"{a!r} vs {b!r}")
            elif "ORDER BY" in tail:
                check(name, [r[1] for r in a] == [r[1] for r in b] and
                      collections.Counter(a) == collections.Counter(b),
                      f"{a!r} vs {b!r}")
            else:
                check(name, collections.Counter(a) == collections.Counter(b),
                      f"{a!r} vs {b!r}")
    # the record form: row is the row in its file, rowid unique
    pat = q(os.path.join(d, "part-*"))
    for w in ["row = 3", f"filename = {q(p3)} OR row = 3",
              "row IN (2, 5) OR filename LIKE '%-1.%'", "rowid = 3",
              f"rowid = {3 << 40 | 2} OR row = 1"]:
        a = conn.execute(f"SELECT filename, row, record->>'s' FROM "
                         f"jj_open({pat}) WHERE {w}").fetchall()
        b = conn.execute(f"SELECT filename, id, s FROM n WHERE "
                         f"{w.replace('rowid', 'rid').replace('row ', 'id ')}"
                         ).fetchall()
        check(f"diff_record [{w}]",
              collections.Counter(a) == collections.Counter(b),
              f"{a!r} vs {b!r}")
    conn.close()


def entry(conn, path):
    return conn.execute("SELECT bytes, hits, in_use FROM jj_cache WHERE "
                        "path = ?", (path,)).fetchone()


def test_cache(so, tmp):
    conn = connect(so)
    big = os.path.join(tmp, "big.jj.gz")
    write(conn, big, COLS, 2000)
    check("cache_default", conn.execute("SELECT jj_cache_size()").fetchone()
          == (268435456,))
    sql = "SELECT record->>'tag' FROM jj_open(?) WHERE row = 10"
    check("cache_first", conn.execute(sql, (big,)).fetchall() == [("t10",)])
    e1 = entry(conn, big)
    check("cache_listed", e1 is not None and e1[1] == 0 and e1[2] == 0,
          repr(e1))
    check("cache_second", conn.execute(sql, (big,)).fetchall() == [("t10",)])
    e2 = entry(conn, big)
    check("cache_hit", e2 is not None and e2[1] == 1, repr(e2))

    # same size, new content, mtime moved: read again
    st = os.stat(big)
    tmpname = big + ".new"
    write(conn, tmpname, [("id", "v"), ("tag", "'u' || v"), ("x", "v * 1.5")],
          2000)
    with open(tmpname, "rb") as f:
        new = f.read()
    os.remove(tmpname)
    with open(big, "r+b") as f:  # in place: same inode
        f.truncate(0)
        f.write(new)
    os.utime(big, ns=(st.st_atime_ns, st.st_mtime_ns + 2_000_000_000))
    check("cache_touch", conn.execute(sql, (big,)).fetchall() == [("u10",)])
    check("cache_touch_entry", entry(conn, big)[1] == 0, repr(entry(conn, big)))

    # renamed over: another inode
    other = os.path.join(tmp, "other.jj.gz")
    write(conn, other, [("id", "v"), ("tag", "'w' || v"), ("x", "v * 1.5")],
          2000)
    os.utime(other, ns=(st.st_atime_ns, os.stat(big).st_mtime_ns))
    os.rename(other, big)
    check("cache_rename", conn.execute(sql, (big,)).fetchall() == [("w10",)])

    # a different size
    write(conn, big, [("id", "v"), ("tag", "'v' || v"), ("x", "v * 1.5")], 20)
    check("cache_size_change",
          conn.execute(sql, (big,)).fetchall() == [("v10",)])

    # in use while listed; a self-join shares one entry
    got = conn.execute("SELECT count(*) FROM jj_open(?) a, jj_open(?) b "
                       "WHERE a.row = b.row", (big, big)).fetchone()
    check("cache_self_join", got == (20,), repr(got))
    got = conn.execute("SELECT c.in_use FROM jj_open(?) j, jj_cache c "
                       "WHERE j.row = 1 AND c.path = ?", (big, big)).fetchone()
    check("cache_in_use", got == (1,), repr(got))

    # budget: a small one keeps what fits, least recently used evicted
    small = []
    for i in range(4):
        p = os.path.join(tmp, f"s{i}.jj")
        small.append((p, write(conn, p, COLS, 50)))
    size = os.path.getsize(small[0][0])
    prev = conn.execute("SELECT jj_cache_size(?)", (size * 2,)).fetchone()
    check("cache_size_previous", prev == (268435456,), repr(prev))
    check("cache_trimmed", conn.execute("SELECT coalesce(sum(bytes), 0) "
                                        "FROM jj_cache").fetchone()[0] <=
          size * 2)
    for p, _ in small:
        conn.execute("SELECT count(*) FROM jj_open(?)", (p,)).fetchall()
    got = [p for p, in conn.execute("SELECT path FROM jj_cache")]
    check("cache_lru", got == [small[3][0], small[2][0]], repr(got))
    got = conn.execute("SELECT count(*) FROM jj_open(?)",
                       (small[0][0],)).fetchone()
    check("cache_evicted_still_reads", got == (50,), repr(got))
    # bigger than the budget: read, not kept
    write(conn, big, COLS, 2000)
    conn.execute("SELECT count(*) FROM jj_open(?)", (big,)).fetchall()
    check("cache_too_big_not_kept", entry(conn, big) is None)
    conn.execute("SELECT jj_cache_size(0)")
    check("cache_off", conn.execute("SELECT count(*) FROM jj_cache"
                                    ).fetchone() == (0,))
    conn.execute("SELECT count(*) FROM jj_open(?)", (small[1][0],)).fetchall()
    check("cache_off_keeps_nothing", conn.execute(
        "SELECT count(*) FROM jj_cache").fetchone() == (0,))
    msg = error_of(conn, "SELECT jj_cache_size(-1)")
    check("cache_size_negative", msg == "jj_cache_size: expected a number "
          "of bytes >= 0 (0: no cache)", repr(msg))
    # every other kind of value is refused alike, the budget left as it was
    conn.execute("SELECT jj_cache_size(123456)")
    for bad in ("1.5", "'10'", "NULL", "x'00'"):
        msg = error_of(conn, f"SELECT jj_cache_size({bad})")
        check("cache_size_bad_" + bad, msg == "jj_cache_size: expected a "
              "number of bytes >= 0 (0: no cache)", repr(msg))
    got = conn.execute("SELECT jj_cache_size(0)").fetchone()[0]
    check("cache_size_kept_after_refused", got == 123456, repr(got))
    # jj_max_size still applies to a cached document
    conn.execute("SELECT jj_cache_size(100000000)")
    conn.execute("SELECT count(*) FROM jj_open(?)", (small[1][0],)).fetchall()
    conn.execute("SELECT jj_max_size(100)")
    msg = error_of(conn, "SELECT count(*) FROM jj_open(?)", (small[1][0],))
    check("cache_max_size", msg is not None and "over the limit" in msg,
          repr(msg))
    conn.execute("SELECT jj_max_size(1073741824)")
    # direct use only
    conn.execute("CREATE TEMP VIEW v AS SELECT * FROM jj_cache")
    check("cache_view_temp_ok", error_of(conn, "SELECT * FROM v") is None)
    conn.close()
    # another connection has its own cache
    a, b = connect(so), connect(so)
    a.execute("SELECT count(*) FROM jj_open(?)", (small[2][0],)).fetchall()
    check("cache_per_connection",
          b.execute("SELECT count(*) FROM jj_cache").fetchone() == (0,))
    a.close()
    b.close()


def main():
    build = jjtest.build_dir(sys.argv)
    so = extension_path(build)
    with tempfile.TemporaryDirectory() as tmp:
        for test in (test_globs, test_differential, test_cache):
            sub = os.path.join(tmp, test.__name__)
            os.mkdir(sub)
            try:
                test(so, sub)
            except Exception as e:  # a crash of one part fails it, visibly
                check(test.__name__, False, f"raised {e!r}")
    return jjtest.report("glob")


if __name__ == "__main__":
    sys.exit(main())
