"""test_glob_bounds.py BUILD_DIR — what expanding a glob may do, and what a
table of a database's schema may say when it cannot be declared.

Bounds: a tree of more directories than a glob may open fails with an error
naming the bound (and the typed table's glob_max_dirs / glob_max_files
only lower the defaults); a chain of wildcard components over symbolic
links to their own directories finishes at once; /proc, /sys and /dev are
refused, also when a database file's schema names them; a progress handler
stops a long expansion.  Each big walk runs in a child process with its
address space capped and a generous timeout.

Messages: a typed table declared by a database file over a glob that
matches a file which is no document fails without naming the file or
quoting it; the user's own CREATE VIRTUAL TABLE gets the detailed message.

Prints "glob_bounds: N passed, M failed".
"""
import json
import os
import sqlite3
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import jjtest
from jjtest import check, connect, error_of, q, extension_path

CHILD = r'''
import json, os, sqlite3, sys
import jjtest
args = json.loads(sys.argv[1])
if "asan" not in os.environ.get("LD_PRELOAD", ""):
    jjtest.cap_address_space(512 << 20)
conn = jjtest.connect(args["so"], args.get("db", ":memory:"))
calls = [0]
if args.get("stop_after"):
    def handler():
        calls[0] += 1
        return 1 if calls[0] >= args["stop_after"] else 0
    conn.set_progress_handler(handler, 1)
out = []
for sql in args["sql"]:
    try:
        out.append({"rows": [list(r) for r in conn.execute(sql).fetchall()]})
    except sqlite3.Error as e:
        out.append({"error": str(e)})
out.append({"calls": calls[0]})
print(json.dumps(out))
'''


def child(so, sql, timeout=120, **extra):
    """Statements run in a fresh process capped at 512 MiB more address
    space: its results, or a string saying how it ended otherwise."""
    args = dict(extra, so=so, sql=list(sql))
    try:
        run = jjtest.python_child(CHILD, [json.dumps(args)], timeout)
    except subprocess.TimeoutExpired:
        return "timeout"
    if run.returncode != 0:
        return f"rc={run.returncode} {run.stderr[-500:]}"
    return json.loads(run.stdout.strip().splitlines()[-1])


def doc(path):
    with open(path, "w") as f:
        f.write('{"jalapenojson":1,"columns":["x"],"types":["i"],"rows":[\n'
                '[1]\n]}')


def schema_db(tmp, name, create):
    """A database file whose schema declares `create`, written with
    writable_schema as an attacker would."""
    db = os.path.join(tmp, name + ".db")
    conn = sqlite3.connect(db)
    conn.execute("CREATE TABLE t(x)")
    conn.execute("PRAGMA writable_schema = ON")
    conn.execute("INSERT INTO sqlite_schema VALUES ('table', 'vt', 'vt', 0, ?)",
                 (create,))
    conn.commit()
    conn.close()
    return db


def test_wide_tree(so, tmp):
    # 26 * 26 * 16 = 10,816 leaf directories, more than the 10,000 a glob
    # may open; each holds a document, which glob(3) would all list.
    tree = os.path.join(tmp, "tree")
    for a in range(26):
        for b in range(26):
            for c in range(16):
                leaf = os.path.join(tree, chr(97 + a), chr(97 + b), "%02d" % c)
                os.makedirs(leaf)
                doc(os.path.join(leaf, "d.jj"))
    pat = os.path.join(tree, "*", "*", "*", "*.jj")
    res = child(so, ["SELECT count(*) FROM jj_open(%s)" % q(pat),
                     "SELECT count(*) FROM jj_open(%s)"
                     % q(os.path.join(tree, "a", "*", "*", "*.jj")),
                     "CREATE VIRTUAL TABLE temp.few USING jj_open(%s, "
                     "glob_max_dirs=100)" % q(pat),
                     "CREATE VIRTUAL TABLE temp.more USING jj_open(%s, "
                     "glob_max_dirs=1000000)" % q(pat),
                     "CREATE VIRTUAL TABLE temp.files USING jj_open(%s, "
                     "glob_max_files=3)" % q(pat),
                     "CREATE VIRTUAL TABLE temp.bytes USING jj_open(%s, "
                     "glob_max_bytes=1000)" % q(pat)])
    if not check("tree_child_finishes", isinstance(res, list), repr(res)):
        return
    err = res[0].get("error", "")
    check("tree_dirs_bounded",
          err.startswith(pat + ": names more than 10000 directories to read "
                         "(stopped at " + tree), repr(res[0]))
    check("tree_part_reads", res[1] == {"rows": [[26 * 16]]}, repr(res[1]))
    check("tree_option_lowers",
          "names more than 100 directories" in res[2].get("error", ""),
          repr(res[2]))
    check("tree_option_never_raises",
          "names more than 10000 directories" in res[3].get("error", ""),
          repr(res[3]))
    check("tree_files_bounded",
          "matches more than 3 names" in res[4].get("error", ""),
          repr(res[4]))
    check("tree_bytes_bounded",
          "add up to more than 1000 bytes" in res[5].get("error", ""),
          repr(res[5]))
    # the same tree declared by a database file: the schema is readable,
    # the table fails at once, within the bound
    db = schema_db(tmp, "tree", "CREATE VIRTUAL TABLE vt USING jj_open(%s)"
                   % q(pat))
    res = child(so, ["SELECT count(*) FROM sqlite_schema",
                     "PRAGMA table_info(vt)"], db=db)
    if check("tree_schema_child_finishes", isinstance(res, list), repr(res)):
        check("tree_schema_readable", res[0] == {"rows": [[2]]}, repr(res))
        check("tree_schema_refused", "cannot declare the table"
              in res[1].get("error", ""), repr(res[1]))
    # interrupted by the progress handler (called every VM step) long
    # before the bound: the statement itself runs a few dozen steps, the
    # walk ticks one for each directory
    res = child(so, ["SELECT count(*) FROM jj_open(%s)"
                     % q(os.path.join(tree, "*", "*", "*", "*.none"))],
                stop_after=1000)
    if check("tree_interrupt_child_finishes", isinstance(res, list),
             repr(res)):
        check("tree_interrupted", res[0] == {"error": "interrupted"} and
              1000 <= res[1]["calls"] < 1100, repr(res))


def test_symlink_loop(so, tmp):
    # every directory links back to itself twice: glob(3) would list
    # 2^24 paths for 24 wildcard components
    loop = os.path.join(tmp, "loop")
    os.mkdir(loop)
    os.symlink(".", os.path.join(loop, "a"))
    os.symlink(".", os.path.join(loop, "b"))
    os.mkdir(os.path.join(loop, "real"))
    os.symlink("..", os.path.join(loop, "real", "up"))
    doc(os.path.join(loop, "real", "d.jj"))
    pat = os.path.join(loop, *(["*"] * 24), "*.jj")
    res = child(so, ["SELECT count(*) FROM jj_open(%s)" % q(pat),
                     "SELECT DISTINCT filename FROM jj_open(%s)"
                     % q(os.path.join(loop, "*", "*.jj"))], timeout=60)
    if check("loop_child_finishes", isinstance(res, list), repr(res)):
        check("loop_not_followed", res[0] == {"rows": [[0]]}, repr(res[0]))
        # one level of a link is followed, as glob(3) does
        got = sorted(r[0] for r in res[1].get("rows", []))
        check("loop_one_level", got == [os.path.join(loop, "real", "d.jj")],
              repr(res[1]))


def test_pseudo(so, tmp):
    conn = connect(so)
    for pat in ("/proc/*/root/etc/*.conf", "/sys/*/*", "/dev/*",
                "/proc/self/root/etc/*"):
        err = error_of(conn, "SELECT count(*) FROM jj_open(?)", (pat,)) or ""
        check("pseudo_refused " + pat,
              err.endswith("is a /proc, /sys or /dev directory, which a glob "
                           "does not read"), repr(err))
    # the walk recurses once a component: their number is bounded
    err = error_of(conn, "SELECT count(*) FROM jj_open(?)",
                   ("a/" * 300 + "*.jj",)) or ""
    check("deep_pattern_refused", err.endswith(
        "a pattern of more than 256 components names no file this reads"),
        err)
    err = error_of(conn, "CREATE VIRTUAL TABLE temp.p USING jj_open("
                   "'/proc/*/root/etc/*', union_by_name=1)") or ""
    check("pseudo_create_refused", err == "/proc/*/root/etc/*: /proc is a "
          "/proc, /sys or /dev directory, which a glob does not read", err)
    # a link to /proc is no way around it
    os.symlink("/proc", os.path.join(tmp, "p"))
    pat = os.path.join(tmp, "p", "*", "status")
    err = error_of(conn, "SELECT count(*) FROM jj_open(?)", (pat,)) or ""
    check("pseudo_link_refused", "/proc, /sys or /dev directory" in err, err)
    conn.close()
    db = schema_db(tmp, "proc", "CREATE VIRTUAL TABLE vt USING jj_open("
                   "'/proc/*/root/*/*/*/*', union_by_name=1)")
    res = child(so, ["SELECT sql FROM sqlite_schema WHERE name = 'vt'",
                     "PRAGMA table_info(vt)", "SELECT * FROM vt"], db=db,
                timeout=60)
    if check("pseudo_schema_child_finishes", isinstance(res, list),
             repr(res)):
        check("pseudo_schema_readable", "rows" in res[0], repr(res[0]))
        for i in (1, 2):
            check(f"pseudo_schema_refused_{i}",
                  res[i].get("error", "").startswith(
                      "/proc/*/root/*/*/*/*: cannot declare the table \"vt\""),
                  repr(res[i]))


def test_schema_messages(so, tmp):
    keys = os.path.join(tmp, "keys")
    os.mkdir(keys)
    secret = "{\"token-8f3a9c\":\"hunter2\"}\n"
    with open(os.path.join(keys, "id_ed25519"), "w") as f:
        f.write(secret)
    doc(os.path.join(keys, "a.jj"))
    # the first file's header is read, or with union_by_name every one's
    for name, pat, opts in (("first", os.path.join(keys, "i*"), ""),
                            ("union", os.path.join(keys, "[ai]*"),
                             ", union_by_name=1")):
        create = "CREATE VIRTUAL TABLE vt USING jj_open(%s%s)" % (q(pat), opts)
        db = schema_db(tmp, "keys-" + name, create)
        conn = connect(so, db)
        for sql in ("PRAGMA table_info(vt)", "SELECT * FROM vt"):
            err = error_of(conn, sql) or ""
            check(f"schema_{name}_{sql.split()[0]}_refused",
                  err.startswith(pat + ": cannot declare the table \"vt\" of "
                                 "the database's schema"), err)
            check(f"schema_{name}_{sql.split()[0]}_no_file",
                  "id_ed25519" not in err and "a.jj" not in err, err)
            check(f"schema_{name}_{sql.split()[0]}_no_content",
                  "token" not in err and "hunter" not in err, err)
        conn.close()
        # the user's own CREATE: the detailed message
        conn = connect(so)
        err = error_of(conn, create.replace(" vt ", " temp.mine ")) or ""
        check(f"own_{name}_detailed", "id_ed25519" in err and
              "token" in err, err)
        conn.close()


def main():
    build = jjtest.build_dir(sys.argv)
    so = extension_path(build)
    with tempfile.TemporaryDirectory() as tmp:
        for test in (test_wide_tree, test_symlink_loop, test_pseudo,
                     test_schema_messages):
            sub = os.path.join(tmp, test.__name__)
            os.mkdir(sub)
            try:
                test(so, sub)
            except Exception as e:  # a crash of one part fails it, visibly
                check(test.__name__, False, f"raised {e!r}")
    return jjtest.report("glob_bounds")


if __name__ == "__main__":
    sys.exit(main())
