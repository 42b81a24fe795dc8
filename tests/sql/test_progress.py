"""test_progress.py BUILD_DIR — SQLite's progress handler during the
extension's long work (ext/settings.c's jjx_poll, ext/scan.c, ext/export.c,
ext/source.c, ext/write.c).

For each kind of long work, a handler set with set_progress_handler(cb, N)
(sqlite3_progress_handler) must be called while it runs, and a handler
returning nonzero must stop it at that call with "interrupted", leaving the
connection usable:

  (a) a scan: a typed table's rows, the record form's rows;
  (b) jj_export of a big query (the query runs on the same connection), which
      must also leave the old file as it was and no temporary file;
  (c) the first scan's load of a big document inside xFilter, where no VM
      step of the query runs: a .gz and a .br file (typed table and record
      form), a plain file, and a gzip BLOB;
  (d) a glob over many files that have no rows (few VM steps of its own);
  (e) validate=1's check of the whole document when a scan opens it;
  (f) the first seek to a far row (rowid = N, rowid IN, OFFSET), which
      scans the rows before it;
  (g) jj_write(path, document): checking and writing (plain, .gz, .br),
      which must leave the old file and no temporary file when stopped;
  (h) CREATE of a union_by_name table over a glob, and jj_schema with
      union_by_name, which read every file's header;
  (i) jj_from_json and jj_from_csv converting a big input;
  (j) a large nested jj value of jj_export and jj_group, checked whole.

Calls during a load are counted by what the extension promises (a MiB read
or decompressed counts as 100 VM steps, a glob's file as 10), so the checks
are counts, not timings.  "Stopped at that call": a handler returning 1
from its 5th call (the 1st, the 50th for exports) gets an "interrupted"
error after that call or one more, where an unstopped run makes dozens to
hundreds; the one more is SQLite's own: on the statement's way out it checks
the statement's step counter, separate from the extension's nested probe's,
which may have crossed its N as well (vdbe.c, vdbe_return).
Prints "progress: N passed, M failed".
"""
import gzip
import os
import sqlite3
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import jjtest
from jjtest import check, q

ROWS = 330000  # ~17 MiB of document: 17 MiB read or decompressed
BIG = ("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n "
       f"WHERE i < {ROWS}) SELECT i AS id, printf('user-%08d-padding', i) AS "
       "name, i * 0.5 AS price, '2024-01-01' AS day FROM n")


class Handler:
    """A progress handler that counts its calls and returns 1 from call
    `stop_at` on (0: never)."""

    def __init__(self, conn, n, stop_at=0):
        self.calls = 0
        self.stop_at = stop_at
        conn.set_progress_handler(self, n)

    def __call__(self):
        self.calls += 1
        return 1 if self.stop_at and self.calls >= self.stop_at else 0


def run(conn, sql, params=()):
    """(error message or None, rows)."""
    try:
        return None, conn.execute(sql, params).fetchall()
    except sqlite3.Error as e:
        return str(e), None


def usable(conn, name):
    conn.set_progress_handler(None, 0)
    err, rows = run(conn, "SELECT count(*) FROM (SELECT 1 UNION ALL SELECT 2)")
    check(name + "_usable_after", err is None and rows == [(2,)],
          repr((err, rows)))


STOP_AT = 5


def ticks_and_stops(conn, name, sql, params=(), n=100, at_least=1,
                    prepare=None):
    """The handler is called at least `at_least` times while sql runs, and
    a handler returning 1 from its STOP_AT-th call stops it there (so the
    calls come while the work runs, not only around it)."""
    if prepare:
        prepare()
    h = Handler(conn, n)
    err, _ = run(conn, sql, params)
    conn.set_progress_handler(None, 0)
    check(name + "_runs", err is None, repr(err))
    check(name + "_ticks", h.calls >= at_least,
          f"{h.calls} calls, wanted at least {at_least}")
    if prepare:
        prepare()
    h = Handler(conn, n, stop_at=STOP_AT)
    err, _ = run(conn, sql, params)
    check(name + "_interrupted", err == "interrupted", repr(err))
    check(name + "_stops_at_that_call", STOP_AT <= h.calls <= STOP_AT + 1,
          f"{h.calls} calls")
    usable(conn, name)


def test_scans(conn, d):
    """(a) and (c)."""
    paths = {k: os.path.join(d, "big.jj" + k) for k in ("", ".gz", ".br")}
    for p in paths.values():
        conn.execute("SELECT jj_export(?, ?)", (p, BIG))
    mib = os.path.getsize(paths[""]) >> 20
    check("big_enough", mib >= 16, f"{mib} MiB")
    # (a) scans: the rows' own VM steps tick the handler
    conn.execute(f"CREATE VIRTUAL TABLE temp.t USING jj_open({q(paths[''])})")
    ticks_and_stops(conn, "typed_scan", "SELECT sum(price) FROM t",
                    n=1000, at_least=ROWS // 1000)
    ticks_and_stops(conn, "record_scan", "SELECT count(record) FROM "
                    "jj_open(?)", (paths[""],), n=1000, at_least=ROWS // 1000)
    # (c) a load inside xFilter: one row wanted, so the query's own VM steps
    # are a handful; every call comes from the MiB read or decompressed
    conn.execute("SELECT jj_cache_size(0)")  # every statement loads again
    # with N = 50 a MiB (100 steps) is two calls
    for kind, p in paths.items():
        label = kind.strip(".") or "plain"

        def fresh(p=p):
            conn.execute("DROP TABLE IF EXISTS temp.one")
            conn.execute(f"CREATE VIRTUAL TABLE temp.one USING "
                         f"jj_open({q(p)})")
        ticks_and_stops(conn, f"load_typed_{label}",
                        "SELECT id FROM one WHERE rowid = 5", n=50,
                        at_least=mib, prepare=fresh)
        ticks_and_stops(conn, f"load_record_{label}",
                        "SELECT record FROM jj_open(?) WHERE row = 5", (p,),
                        n=50, at_least=mib)
    h = Handler(conn, 1000)
    err, rows = run(conn, "SELECT record->>'id' FROM jj_open(?) WHERE "
                    "row = 5", (paths[".gz"],))
    conn.set_progress_handler(None, 0)
    check("point_query_alone_is_few_steps", err is None and rows == [(5,)]
          and h.calls < mib, f"{h.calls} calls (N = 1000), {err!r}")
    with open(paths[".gz"], "rb") as f:
        blob = f.read()
    check("blob_is_gzip", blob[:2] == b"\x1f\x8b")
    ticks_and_stops(conn, "load_blob_gz", "SELECT record FROM jj_open(?) "
                    "WHERE row = 5", (blob,), n=50, at_least=mib)
    conn.execute("SELECT jj_cache_size(268435456)")
    conn.execute("DROP TABLE IF EXISTS temp.one")
    conn.execute("DROP TABLE t")
    return paths


def test_export(conn, d, paths):
    """(b): the nested query's steps tick; an interrupt keeps the old file."""
    conn.execute(f"CREATE VIRTUAL TABLE temp.src USING "
                 f"jj_open({q(paths['.gz'])})")
    for suffix in ("", ".gz", ".br"):
        out = os.path.join(d, "out", "export.jj" + suffix)
        os.makedirs(os.path.dirname(out), exist_ok=True)
        old = b"the old file\n"
        with open(out, "wb") as f:
            f.write(old)
        sql = "SELECT jj_export(?, 'SELECT id, name, price FROM src')"
        h = Handler(conn, 1000)
        err, rows = run(conn, sql, (out,))
        conn.set_progress_handler(None, 0)
        name = "export" + suffix.replace(".", "_")
        check(name + "_runs", err is None and f'"rows":{ROWS}' in rows[0][0],
              repr((err, rows)))
        check(name + "_ticks", h.calls >= ROWS // 1000, f"{h.calls} calls")
        with open(out, "wb") as f:
            f.write(old)
        h = Handler(conn, 1000, stop_at=1)
        err, _ = run(conn, sql, (out,))
        check(name + "_interrupted", err == "interrupted", repr(err))
        check(name + "_stops_at_first_call", 1 <= h.calls <= 2,
              f"{h.calls} calls")
        with open(out, "rb") as f:
            check(name + "_old_file_kept", f.read() == old)
        left = [n for n in os.listdir(os.path.dirname(out)) if "jj-tmp" in n]
        check(name + "_no_temporary_file", left == [], repr(left))
        usable(conn, name)
        # interrupted later, after rows were written: still all or nothing
        late = Handler(conn, 1000, stop_at=50)
        err, _ = run(conn, sql, (out,))
        check(name + "_late_interrupted", err == "interrupted" and
              50 <= late.calls <= 51, repr((err, late.calls)))
        with open(out, "rb") as f:
            check(name + "_late_old_file_kept", f.read() == old)
        left = [n for n in os.listdir(os.path.dirname(out)) if "jj-tmp" in n]
        check(name + "_late_no_temporary_file", left == [], repr(left))
        usable(conn, name + "_late")
    conn.execute("DROP TABLE src")


def test_glob(conn, d):
    """(d): a glob of files without rows runs almost no VM steps of its own:
    each file opened counts as 10 steps."""
    g = os.path.join(d, "many")
    os.mkdir(g)
    files = 300
    for k in range(files):
        conn.execute("SELECT jj_export(?, 'SELECT 1 AS id WHERE 0', 'id:i')",
                     (os.path.join(g, f"f{k:04d}.jj" + ("", ".gz")[k % 2]),))
    pat = os.path.join(g, "*.jj*")
    err, rows = run(conn, "SELECT count(*) FROM jj_open(?)", (pat,))
    check("glob_no_rows", err is None and rows == [(0,)], repr((err, rows)))
    # N = 10: a file is at least one call
    ticks_and_stops(conn, "glob_record", "SELECT count(*) FROM jj_open(?)",
                    (pat,), n=10, at_least=files)
    conn.execute(f"CREATE VIRTUAL TABLE temp.many USING jj_open({q(pat)}, "
                 f"union_by_name=1)")
    ticks_and_stops(conn, "glob_typed", "SELECT count(*) FROM many", n=10,
                    at_least=files)
    # with rows, the rows tick as well; a gzip file among them is read
    with gzip.open(os.path.join(g, "f0001.jj.gz"), "rb") as f:
        check("glob_member_is_gzip", f.read(1) == b"{")
    conn.execute("DROP TABLE many")


def test_validate_and_seek(conn, paths):
    """(e) validate=1 checks the whole document when a scan first opens it,
    and (f) the first seek to a far row scans the rows before it: both
    inside xFilter, both tick every MiB.  mmap=1 maps the file, so the load
    itself ticks nothing and every call counted is the validation's or the
    seek's."""
    p = paths[""]
    mib = os.path.getsize(p) >> 20
    conn.execute("SELECT jj_cache_size(0)")

    def fresh(opts):
        def make():
            conn.execute("DROP TABLE IF EXISTS temp.v")
            conn.execute(f"CREATE VIRTUAL TABLE temp.v USING "
                         f"jj_open({q(p)}, mmap=1{opts})")
        return make

    # the baseline: a near row of a mapped file is a handful of calls
    fresh("")()
    h = Handler(conn, 50)
    err, rows = run(conn, "SELECT id FROM v WHERE rowid = 5")
    conn.set_progress_handler(None, 0)
    check("mapped_near_row_is_few_calls", err is None and rows == [(5,)]
          and h.calls < mib // 2, f"{h.calls} calls, {err!r}")
    # (e) validate=1: a MiB checked is two calls at N = 50
    ticks_and_stops(conn, "validate", "SELECT id FROM v WHERE rowid = 5",
                    n=50, at_least=mib, prepare=fresh(", validate=1"))
    fresh(", validate=1")()
    err, rows = run(conn, "SELECT id FROM v WHERE rowid = 5")
    check("validate_still_reads", err is None and rows == [(5,)],
          repr((err, rows)))
    # (f) the first seek to the last row passes over every row before it
    ticks_and_stops(conn, "far_rowid", f"SELECT id FROM v WHERE rowid = "
                    f"{ROWS}", n=50, at_least=mib, prepare=fresh(""))
    ticks_and_stops(conn, "far_offset", f"SELECT id FROM v LIMIT 1 OFFSET "
                    f"{ROWS - 1}", n=50, at_least=mib, prepare=fresh(""))
    ticks_and_stops(conn, "far_rowid_in", f"SELECT id FROM v WHERE rowid "
                    f"IN (3, {ROWS - 7})", n=50, at_least=mib,
                    prepare=fresh(""))
    # the record form's row = N: the load (a MiB read, two calls) and the
    # seek (a MiB passed over, two more) both tick
    ticks_and_stops(conn, "far_row_record", f"SELECT record->>'id' FROM "
                    f"jj_open(?) WHERE row = {ROWS}", (p,), n=50,
                    at_least=4 * mib - 4)
    fresh("")()
    err, rows = run(conn, f"SELECT id FROM v WHERE rowid IN (2, {ROWS}, "
                    f"{ROWS + 1})")
    check("far_rowid_right_rows", err is None and rows == [(2,), (ROWS,)],
          repr((err, rows)))
    err, rows = run(conn, f"SELECT id FROM v LIMIT 2 OFFSET {ROWS - 1}")
    check("far_offset_right_rows", err is None and rows == [(ROWS,)],
          repr((err, rows)))
    # a seek to rows already found is immediate: a cached document keeps
    # its row index, and the second far seek counts no MiB
    conn.execute("SELECT jj_cache_size(268435456)")
    conn.execute("DROP TABLE temp.v")
    conn.execute(f"CREATE VIRTUAL TABLE temp.v USING jj_open({q(p)})")
    first = Handler(conn, 50)
    err1, _ = run(conn, f"SELECT id FROM v WHERE rowid = {ROWS}")
    again = Handler(conn, 50)
    err2, rows = run(conn, f"SELECT id FROM v WHERE rowid = {ROWS}")
    conn.set_progress_handler(None, 0)
    check("known_row_seek_is_immediate", err1 is None and err2 is None and
          rows == [(ROWS,)] and first.calls >= 2 * mib and again.calls <= 1,
          f"{first.calls} then {again.calls} calls, {err1!r} {err2!r}")
    conn.execute("DROP TABLE temp.v")


def test_write(conn, d, paths):
    """(g) jj_write(path, document): checking the document and writing it
    (compressed or not) tick every MiB; an interrupt keeps the old file and
    leaves no temporary file, whether it comes while the document is
    checked or while the file is written."""
    with open(paths[""], "rb") as f:
        doc = f.read()
    mib = len(doc) >> 20
    out_dir = os.path.join(d, "written")
    os.makedirs(out_dir, exist_ok=True)
    old = b"the old file\n"
    for suffix in ("", ".gz", ".br"):
        out = os.path.join(out_dir, "w.jj" + suffix)
        name = "write" + suffix.replace(".", "_")
        sql = "SELECT jj_write(?, ?)"
        h = Handler(conn, 50)
        err, rows = run(conn, sql, (out, doc))
        conn.set_progress_handler(None, 0)
        size = os.path.getsize(out) if os.path.exists(out) else -1
        check(name + "_runs", err is None and rows == [(size,)],
              repr((err, rows, size)))
        # checked and written: two MiB of work per MiB, two calls each
        total = h.calls
        check(name + "_ticks", total >= 2 * mib, f"{total} calls")
        for when, stop_at in (("checking", STOP_AT), ("writing", total - 3)):
            with open(out, "wb") as f:
                f.write(old)
            h = Handler(conn, 50, stop_at=stop_at)
            err, _ = run(conn, sql, (out, doc))
            conn.set_progress_handler(None, 0)
            label = f"{name}_{when}"
            check(label + "_interrupted", err == "interrupted", repr(err))
            check(label + "_stops_at_that_call",
                  stop_at <= h.calls <= stop_at + 1, f"{h.calls} calls")
            with open(out, "rb") as f:
                check(label + "_old_file_kept", f.read() == old)
            left = [n for n in os.listdir(out_dir) if "jj-tmp" in n]
            check(label + "_no_temporary_file", left == [], repr(left))
            usable(conn, label)


def test_nested_values(conn, d, paths):
    """(j) a nested jj value of jj_export and jj_group is checked whole
    before it is written: that check ticks every MiB too, and stopping it
    is an interrupt (not "not a jalapenojson document"); an interrupted
    export keeps the old file and leaves no temporary file."""
    with open(paths[""], "rb") as f:
        doc = f.read()
    mib = len(doc) >> 20
    out_dir = os.path.join(d, "nested")
    os.makedirs(out_dir, exist_ok=True)
    out = os.path.join(out_dir, "n.jj")
    old = b"the old file\n"
    # jj_export's QUERY takes no parameters: the value waits in a table
    conn.execute("CREATE TEMP TABLE nested_doc(t)")
    conn.execute("INSERT INTO nested_doc VALUES (?)", (doc,))
    cases = (
        ("nested_export", "SELECT jj_export(?, 'SELECT 1 AS id, t FROM "
         "nested_doc', 'id:i,t:jj')", (out,)),
        ("nested_group", "SELECT length(jj_group('id', 1, 't:jj', ?2)) "
         "FROM (SELECT ?1)", ("unused", doc)),
    )
    for name, sql, params in cases:
        with open(out, "wb") as f:
            f.write(old)
        h = Handler(conn, 50)
        err, rows = run(conn, sql, params)
        conn.set_progress_handler(None, 0)
        check(name + "_runs", err is None and rows and rows[0][0],
              repr((err, rows and rows[0][0])))
        # the query itself is a few steps: the calls are the check's
        check(name + "_ticks", h.calls >= mib, f"{h.calls} calls, "
              f"{mib} MiB")
        with open(out, "wb") as f:
            f.write(old)
        h = Handler(conn, 50, stop_at=2)
        err, _ = run(conn, sql, params)
        conn.set_progress_handler(None, 0)
        check(name + "_interrupted", err == "interrupted", repr(err))
        check(name + "_stops_at_that_call", 2 <= h.calls <= 3,
              f"{h.calls} calls")
        if name == "nested_export":
            with open(out, "rb") as f:
                check(name + "_old_file_kept", f.read() == old)
            left = [n for n in os.listdir(out_dir) if "jj-tmp" in n]
            check(name + "_no_temporary_file", left == [], repr(left))
        usable(conn, name)
    conn.execute("DROP TABLE nested_doc")


def test_convert(conn):
    """(i) jj_from_json and jj_from_csv convert inside one VM step: every
    MiB of input ticks (100 steps)."""
    js = conn.execute("SELECT json_group_array(json_object('id', id, "
                      "'name', name, 'price', price)) FROM (" + BIG +
                      ")").fetchone()[0]
    csv = "id,name,price\n" + "".join(
        f"{i},user-{i:08d}-padding,{i * 0.5}\n" for i in range(1, ROWS + 1))
    for name, fn, text in (("from_json", "jj_from_json", js),
                           ("from_csv", "jj_from_csv", csv)):
        mib = len(text) >> 20
        ticks_and_stops(conn, name, f"SELECT length({fn}(?))", (text,),
                        n=50, at_least=mib)


def test_union_create(conn, d):
    """(h) CREATE of a union_by_name table over a glob reads every file's
    header: each after the first counts as one VM step (a header is a few
    KiB read), so with N = 1 the handler hears of each; one returning 1
    halfway through the files fails the CREATE there, and no table is left.
    jj_schema(..., 'union_by_name=1') does the same reading."""
    g = os.path.join(d, "many")
    pat = os.path.join(g, "*.jj*")
    files = len(os.listdir(g))
    create = (f"CREATE VIRTUAL TABLE temp.u USING jj_open({q(pat)}, "
              f"union_by_name=1)")
    schema = ("SELECT count(*) FROM jj_schema(?, 'union_by_name=1')", (pat,))
    for name, sql, params in (("union_create", create, ()),
                              ("union_schema",) + schema):
        conn.execute("DROP TABLE IF EXISTS temp.u")
        h = Handler(conn, 1)
        err, _ = run(conn, sql, params)
        conn.set_progress_handler(None, 0)
        check(name + "_runs", err is None, repr(err))
        check(name + "_ticks", h.calls >= files - 1, f"{h.calls} calls")
        conn.execute("DROP TABLE IF EXISTS temp.u")
        half = files // 2
        h = Handler(conn, 1, stop_at=half)
        err, _ = run(conn, sql, params)
        conn.set_progress_handler(None, 0)
        check(name + "_interrupted", err == "interrupted", repr(err))
        check(name + "_stops_at_that_call", half <= h.calls <= half + 1,
              f"{h.calls} calls")
        err, rows = run(conn, "SELECT count(*) FROM sqlite_temp_master "
                        "WHERE name = 'u'")
        check(name + "_interrupted_leaves_no_table", rows == [(0,)],
              repr((err, rows)))
        usable(conn, name)
    err, _ = run(conn, create)
    check("union_create_after_interrupt", err is None, repr(err))
    conn.execute("DROP TABLE IF EXISTS temp.u")
    # a table kept in a database file connects (reads the headers again)
    # while SQLite prepares the first statement that uses it: that ticks
    # and stops as well, and the next statement connects again
    ext = jjtest.extension_path(jjtest.build_dir(sys.argv))
    db = os.path.join(d, "kept.db")
    keep = jjtest.connect(ext, db)
    keep.execute(create.replace("temp.u", "main.u"))
    keep.close()
    other = jjtest.connect(ext, db)
    h = Handler(other, 1, stop_at=files // 2)
    err, _ = run(other, "SELECT count(*) FROM u")
    check("union_connect_interrupted", err == "interrupted" and
          files // 2 <= h.calls <= files // 2 + 1, repr((err, h.calls)))
    other.set_progress_handler(None, 0)
    err, rows = run(other, "SELECT count(*) FROM u")
    check("union_connect_after_interrupt", err is None and rows == [(0,)],
          repr((err, rows)))
    other.close()


def main():
    ext = jjtest.extension_path(jjtest.build_dir(sys.argv))
    with tempfile.TemporaryDirectory() as tmp:
        conn = jjtest.connect(ext)
        try:
            paths = test_scans(conn, tmp)
            test_export(conn, tmp, paths)
            test_glob(conn, tmp)
            test_validate_and_seek(conn, paths)
            test_write(conn, tmp, paths)
            test_nested_values(conn, tmp, paths)
            test_union_create(conn, tmp)
            test_convert(conn)
        except Exception as e:  # a crash fails the script, visibly
            check("progress", False, f"raised {e!r}")
        conn.close()
    return jjtest.report("progress")


if __name__ == "__main__":
    sys.exit(main())
