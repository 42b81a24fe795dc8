"""test_write_targets.py BUILD_DIR — what jj_write and jj_export refuse to
write, and that the refusal leaves everything as it was:

  - a jj_export whose query reaches jj_export again (a TEMP view over
    itself, the query text read from a table, through jj_group) fails with
    a message instead of overflowing the stack; the connection stays
    usable, no file is written, no temporary file left (in a child process,
    so a crash is a failed check);
  - a database file of the connection (main, attached, temp; its -wal,
    -shm and -journal names; through a symbolic link or another spelling)
    is never replaced, and the database stays intact and writable;
  - as root, a symbolic link owned by another user in a sticky
    world-writable directory is not followed (jj_write, jj_export and the
    CLI's convert; the rule of fs.protected_symlinks), while one owned by
    the caller or by the directory's owner is;
  - a target that is a pipe, reached directly (a FIFO) or through
    /proc/self/fd (an anonymous pipe), is refused without blocking, with a
    message that says it is a pipe.

Prints "write_targets: N passed, M failed".
"""
import json
import os
import shutil
import sqlite3
import stat
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import jjtest
from jjtest import check, connect, error_of, extension_path, q
from test_safety import child

DOC = jjtest.document(["a"], ["i"], [[1]])


def temp_left(d):
    return [n for n in os.listdir(d) if ".jj-tmp-" in n]


def test_nested_export(so, tmp):
    out = os.path.join(tmp, "nested.jj")
    inner = os.path.join(tmp, "inner.jj")
    cases = {
        # a TEMP view whose jj_export reads the view again
        "view": (["CREATE TEMP VIEW v AS SELECT jj_export(%s, 'SELECT * FROM "
                  "v') AS r" % q(out)],
                 "SELECT * FROM v"),
        # the query text comes from a table and names itself
        "table": (["CREATE TABLE qs(sql TEXT)",
                   "INSERT INTO qs VALUES (%s)"
                   % q("SELECT jj_export(%s, sql) AS r FROM qs" % q(out))],
                  "SELECT jj_export(%s, sql) FROM qs" % q(out)),
        # jj_export's query runs jj_group over a subquery running jj_export
        "group": (["CREATE TEMP VIEW g AS SELECT jj_group('r', r) AS doc FROM "
                   "(SELECT jj_export(%s, 'SELECT doc FROM g') AS r)"
                   % q(inner)],
                  "SELECT jj_export(%s, 'SELECT doc FROM g')" % q(out)),
    }
    for name, (setup, sql) in cases.items():
        rc, res, _, err = child(so, [sql, "SELECT 41 + 1"], setup=setup,
                                timeout=60)
        tag = "nested_export_" + name
        check(tag + "_no_crash", rc == 0 and len(res) == 2,
              f"rc={rc} {err[-300:]}")
        if rc != 0 or len(res) != 2:
            continue
        msg = res[0].get("error", "")
        check(tag + "_refused", msg.startswith("jj_export: ") and
              "jj_export again" in msg and
              not msg.startswith("jj_export: jj_export"), repr(res[0]))
        check(tag + "_usable", res[1].get("rows") == [["42"]], repr(res[1]))
        check(tag + "_nothing_written", not os.path.exists(out) and
              not os.path.exists(inner) and not temp_left(tmp),
              repr(os.listdir(tmp)))
    # One export after another (not inside one another) still works, and an
    # export in a statement's rows as well.
    conn = connect(so)
    got = conn.execute(
        "SELECT jj_export(%s || n || '.jj', 'SELECT 1 AS a') FROM "
        "(SELECT 1 AS n UNION ALL SELECT 2)" % q(os.path.join(tmp, "seq"))
    ).fetchall()
    check("sequential_exports", len(got) == 2 and
          os.path.exists(os.path.join(tmp, "seq1.jj")) and
          os.path.exists(os.path.join(tmp, "seq2.jj")), repr(got))
    conn.close()


def intact(conn, name, table, want):
    """The database answers, holds what it held and takes a write."""
    try:
        rows = conn.execute("SELECT x FROM %s ORDER BY x" % table).fetchall()
        check(name + "_intact", [r[0] for r in rows] == want, repr(rows))
        conn.execute("INSERT INTO %s VALUES (%d)" % (table, want[-1] + 1))
        conn.commit()
        rows = conn.execute("SELECT x FROM %s ORDER BY x" % table).fetchall()
    except sqlite3.Error as e:
        rows = repr(e)
    check(name + "_writable", rows == [(x,) for x in want + [want[-1] + 1]],
          repr(rows))
    want.append(want[-1] + 1)


def refused(conn, name, path, what):
    """jj_write and jj_export both refuse path, naming `what`."""
    for fn, sql, args in (("jj_write", "SELECT jj_write(?, ?)", (path, DOC)),
                          ("jj_export", "SELECT jj_export(?, 'SELECT 1 AS a')",
                           (path,))):
        got = error_of(conn, sql, args)
        check(f"{name}_{fn}_refused", got is not None and
              got.startswith(fn + ": ") and what in got and
              "of this connection; refusing to replace it" in got, repr(got))


def test_database_files(so, tmp):
    d = os.path.join(tmp, "db")
    os.mkdir(d)
    main_db = os.path.join(d, "data.db")
    other = os.path.join(d, "other.db")
    conn = connect(so, main_db)
    conn.execute("CREATE TABLE t(x)")
    conn.execute("INSERT INTO t VALUES (1)")
    conn.commit()
    want = [1]
    refused(conn, "main", main_db, '"main"')
    intact(conn, "main", "t", want)
    # The rollback journal's name, while no journal exists.
    refused(conn, "journal", main_db + "-journal", '-journal file of the '
            'database "main"')
    check("journal_not_created", not os.path.exists(main_db + "-journal"))
    # Other spellings of the same file, and a symbolic link to it.
    refused(conn, "dotted", os.path.join(d, ".", "..", "db", "data.db"),
            '"main"')
    link = os.path.join(tmp, "link-to.db")
    os.symlink(main_db, link)
    refused(conn, "symlink", link, '"main"')
    check("symlink_kept", os.path.islink(link))
    intact(conn, "symlink", "t", want)
    # An attached database, and its journal.
    conn.execute("ATTACH ? AS o", (other,))
    conn.execute("CREATE TABLE o.u(x)")
    conn.execute("INSERT INTO o.u VALUES (1)")
    conn.commit()
    refused(conn, "attached", other, '"o"')
    refused(conn, "attached_journal", other + "-journal", '"o"')
    intact(conn, "attached", "o.u", [1])
    # WAL mode (a database of its own): the -wal and -shm files exist while
    # the connection is open.
    wal_db = os.path.join(d, "wal.db")
    wal = connect(so, wal_db)
    wal.execute("PRAGMA journal_mode=WAL")
    wal.execute("CREATE TABLE w(x)")
    wal.execute("INSERT INTO w VALUES (1)")
    wal.commit()
    check("wal_files_exist", os.path.exists(wal_db + "-wal") and
          os.path.exists(wal_db + "-shm"), repr(os.listdir(d)))
    refused(wal, "wal_main", wal_db, '"main"')
    refused(wal, "wal", wal_db + "-wal", '-wal file of the database "main"')
    refused(wal, "shm", wal_db + "-shm", '-shm file of the database "main"')
    wal_want = [1]
    intact(wal, "wal", "w", wal_want)
    wal.close()
    wal = sqlite3.connect(wal_db)
    rows = wal.execute("SELECT x FROM w ORDER BY x").fetchall()
    check("wal_reopened", [r[0] for r in rows] == wal_want, repr(rows))
    wal.close()
    # The temp database has no name to replace (SQLite's temp files are
    # anonymous): writing next to the database still works.
    conn.execute("PRAGMA temp_store=FILE")
    conn.execute("CREATE TEMP TABLE tt(x)")
    conn.execute("INSERT INTO tt VALUES (1)")
    names = {r[1]: r[2] for r in conn.execute("PRAGMA database_list")}
    check("temp_has_no_file", names.get("temp") == "", repr(names))
    fine = os.path.join(d, "fine.jj")
    n = conn.execute("SELECT jj_write(?, ?)", (fine, DOC)).fetchone()[0]
    check("other_file_written", n == len(DOC), repr(n))
    n = conn.execute("SELECT jj_export(?, 'SELECT x FROM tt')",
                     (fine,)).fetchone()[0]
    check("other_file_exported", json.loads(n)["rows"] == 1, repr(n))
    check("db_no_temp_left", not temp_left(d), repr(os.listdir(d)))
    conn.close()
    # A fresh connection finds everything written.
    conn = sqlite3.connect(main_db)
    rows = conn.execute("SELECT x FROM t ORDER BY x").fetchall()
    check("db_reopened", [r[0] for r in rows] == want, repr(rows))
    check("db_integrity", conn.execute("PRAGMA integrity_check").fetchone()
          == ("ok",))
    conn.close()


def skip(why):
    """Skip the root-only part visibly; never where CI runs as root."""
    if os.environ.get("CI") == "true" and os.geteuid() == 0:
        check("sticky_not_skipped_in_ci", False, why)
    else:
        print("SKIPPED sticky symlinks: " + why)


def test_sticky_symlinks(so, build, tmp):
    if os.geteuid() != 0:
        return skip("not root")
    if not shutil.which("useradd") or not shutil.which("userdel"):
        return skip("useradd/userdel missing")
    user = "jjtest%d" % os.getpid()
    made = subprocess.run(["useradd", "-M", "-N", "-s", "/bin/false", user],
                          capture_output=True, text=True)
    if made.returncode != 0:
        return skip("useradd failed: " + made.stderr.strip())
    try:
        import pwd
        uid = pwd.getpwnam(user).pw_uid
        sticky = os.path.join(tmp, "sticky")
        os.mkdir(sticky)
        os.chmod(sticky, 0o1777)
        victim = os.path.join(tmp, "root-owned.txt")
        with open(victim, "w") as f:
            f.write("root's file\n")
        os.chmod(victim, 0o644)
        planted = os.path.join(sticky, "out.jj")
        os.symlink(victim, planted)
        os.lchown(planted, uid, -1)
        conn = connect(so)
        for fn, sql, args in (
                ("jj_write", "SELECT jj_write(?, ?)", (planted, DOC)),
                ("jj_export", "SELECT jj_export(?, 'SELECT 1 AS a')",
                 (planted,))):
            got = error_of(conn, sql, args)
            check("sticky_" + fn + "_refused", got is not None and
                  got.startswith(fn + ": ") and "sticky world-writable" in got
                  and "uid %d" % uid in got, repr(got))
        src = os.path.join(tmp, "in.json")
        with open(src, "w") as f:
            f.write('[{"a": 1}]\n')
        cli = os.path.join(build, "jalapenojson")
        run = subprocess.run([cli, "convert", "-q", src, planted],
                             capture_output=True, text=True, timeout=60)
        check("sticky_cli_refused", run.returncode != 0 and
              "sticky world-writable" in run.stderr, repr(run))
        with open(victim) as f:
            check("sticky_victim_intact", f.read() == "root's file\n")
        check("sticky_link_kept", os.path.islink(planted) and
              os.lstat(planted).st_uid == uid)
        check("sticky_no_temp_left", not temp_left(sticky) and
              not temp_left(tmp), repr(os.listdir(sticky)))
        # A regular file created there first by another user is not
        # replaced: the new document would keep that user as its owner.
        squat = os.path.join(sticky, "squat.jj")
        with open(squat, "w") as f:
            f.write("theirs")
        os.chown(squat, uid, -1)
        os.chmod(squat, 0o666)
        for fn, sql, args in (
                ("jj_write", "SELECT jj_write(?, ?)", (squat, DOC)),
                ("jj_export", "SELECT jj_export(?, 'SELECT 1 AS a')",
                 (squat,))):
            got = error_of(conn, sql, args)
            check("sticky_foreign_file_" + fn + "_refused", got is not None and
                  "owned by another user (uid %d)" % uid in got and
                  "not replaced" in got, repr(got), case=fn)
        run = subprocess.run([cli, "convert", "-q", src, squat],
                             capture_output=True, text=True, timeout=60)
        check("sticky_foreign_file_cli_refused", run.returncode != 0 and
              "not replaced" in run.stderr, repr(run))
        with open(squat) as f:
            check("sticky_foreign_file_intact", f.read() == "theirs" and
                  os.stat(squat).st_uid == uid and not temp_left(sticky))
        # The caller's own file there is replaced as anywhere else.
        mine_there = os.path.join(sticky, "mine-there.jj")
        with open(mine_there, "w") as f:
            f.write("old")
        n = conn.execute("SELECT jj_write(?, ?)", (mine_there, DOC)).fetchone()[0]
        with open(mine_there) as f:
            check("sticky_own_file_replaced", n == len(DOC) and f.read() == DOC)
        # A link in the sticky directory owned by the caller is followed.
        mine = os.path.join(tmp, "mine.jj")
        with open(mine, "w") as f:
            f.write("old")
        own = os.path.join(sticky, "own.jj")
        os.symlink(mine, own)
        n = conn.execute("SELECT jj_write(?, ?)", (own, DOC)).fetchone()[0]
        with open(mine) as f:
            check("sticky_own_link_followed", n == len(DOC) and
                  f.read() == DOC and os.path.islink(own), repr(n))
        # So is a link owned by the directory's owner.
        theirs = os.path.join(tmp, "theirs")
        os.mkdir(theirs)
        os.chmod(theirs, 0o1777)
        os.chown(theirs, uid, -1)
        target = os.path.join(tmp, "by-owner.jj")
        with open(target, "w") as f:
            f.write("old")
        link = os.path.join(theirs, "link.jj")
        os.symlink(target, link)
        os.lchown(link, uid, -1)
        n = conn.execute("SELECT jj_write(?, ?)", (link, DOC)).fetchone()[0]
        with open(target) as f:
            check("sticky_owner_link_followed", n == len(DOC) and
                  f.read() == DOC, repr(n))
        conn.close()
    finally:
        subprocess.run(["userdel", user], capture_output=True)


def test_pipes(so, tmp):
    # A FIFO: refused without blocking (in a child with a timeout), and the
    # message says what it is.
    fifo = os.path.join(tmp, "out.fifo")
    os.mkfifo(fifo)
    rc, res, _, err = child(so, ["SELECT jj_write(%s, %s)" % (q(fifo), q(DOC)),
                                 "SELECT jj_export(%s, 'SELECT 1 AS a')"
                                 % q(fifo)], timeout=30)
    msgs = [r.get("error", "") for r in res]
    check("fifo_refused", rc == 0 and len(msgs) == 2 and
          msgs[0].startswith("jj_write: ") and
          msgs[1].startswith("jj_export: ") and
          all("not a regular file (a FIFO)" in m for m in msgs),
          f"rc={rc} {res} {err[-300:]}")
    check("fifo_kept", stat.S_ISFIFO(os.lstat(fifo).st_mode))
    # An anonymous pipe through /proc/self/fd/N: its link text "pipe:[N]"
    # names no file; the message must say it is a pipe, not that the link
    # leads nowhere.  The child writes to its own pipe's write end.
    code = r'''
import os, sqlite3, sys, json
import jjtest
conn = jjtest.connect(sys.argv[1])
r, w = os.pipe()
out = []
for path in ("/proc/self/fd/%d" % w, sys.argv[2]):
    if path != "/proc/self/fd/%d" % w:
        os.symlink("/proc/self/fd/%d" % w, path)
    try:
        conn.execute("SELECT jj_write(?, ?)", (path, sys.argv[3])).fetchall()
        out.append("written")
    except sqlite3.Error as e:
        out.append(str(e))
print(json.dumps(out))
'''
    link = os.path.join(tmp, "to-pipe.jj")
    try:
        run = jjtest.python_child(code, [so, link, DOC], 30)
        got = json.loads(run.stdout.strip().splitlines()[-1])
    except (subprocess.TimeoutExpired, IndexError, ValueError) as e:
        got = [repr(e)]
    check("proc_pipe_named", len(got) == 2 and all(
        m.startswith("jj_write: ") and "is a pipe, not a regular file" in m
        for m in got), repr(got))
    check("pipes_no_temp_left", not temp_left(tmp), repr(os.listdir(tmp)))


def main():
    build = jjtest.build_dir(sys.argv)
    so = extension_path(build)
    cli_build = build
    with tempfile.TemporaryDirectory() as tmp:
        os.chmod(tmp, 0o755)
        for name, test in (("nested", lambda d: test_nested_export(so, d)),
                           ("db", lambda d: test_database_files(so, d)),
                           ("sticky", lambda d: test_sticky_symlinks(
                               so, cli_build, d)),
                           ("pipes", lambda d: test_pipes(so, d))):
            d = os.path.join(tmp, name)
            os.mkdir(d)
            try:
                test(d)
            except Exception as e:  # a broken database, a missing file
                check(name + "_ran", False, repr(e))
    return jjtest.report("write_targets")


if __name__ == "__main__":
    sys.exit(main())
