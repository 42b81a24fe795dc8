"""test_cache_identity.py BUILD_DIR — a file rewritten in place with the same
size and its modification time put back (as cp -p, rsync -t and tar do) is
read again on the same connection: by the record form through the
document cache, and by a typed table over its declared file.  The change
time, which setting the times cannot restore, tells them apart.

Prints "cache_identity: N passed, M failed".
"""
import os
import re
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import jjtest
from jjtest import check, connect, document, extension_path


def rewrite_keeping_mtime(path, data):
    """Write data (the file's size) over path in place and put its access
    and modification times back, nanoseconds included; until the change
    time differs from what it was (it has the kernel clock's tick)."""
    before = os.stat(path)
    while True:
        with open(path, "r+b") as f:
            f.write(data)
        os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
        now = os.stat(path)
        if now.st_ctime_ns != before.st_ctime_ns:
            return now.st_mtime_ns == before.st_mtime_ns and \
                now.st_size == before.st_size
        time.sleep(0.01)  # the same tick: write again after it


def main():
    so = extension_path(jjtest.build_dir(sys.argv))
    with tempfile.TemporaryDirectory() as tmp:
        old = document(["id", "user"], ["i", "s"],
                       [[i, "u%03d" % i] for i in range(1, 101)]).encode()
        new = re.sub(rb'"u(?=[0-9])', b'"v', old)
        check("same_size", len(old) == len(new))
        for form in ("record", "typed"):
            path = os.path.join(tmp, form + ".jj")
            with open(path, "wb") as f:
                f.write(old)
            conn = connect(so)
            if form == "typed":
                conn.execute("CREATE VIRTUAL TABLE temp.t USING jj_open(?)"
                             .replace("?", jjtest.q(path)))
                sql, args = "SELECT max(user) FROM t", ()
            else:
                sql = "SELECT max(record->>'user') FROM jj_open(?)"
                args = (path,)
            first = conn.execute(sql, args).fetchall()
            check(form + "_first", first == [("u100",)], repr(first))
            again = conn.execute(sql, args).fetchall()
            check(form + "_cached", again == [("u100",)], repr(again))
            check(form + "_times_restored",
                  rewrite_keeping_mtime(path, new))
            after = conn.execute(sql, args).fetchall()
            check(form + "_new_values", after == [("v100",)], repr(after))
            conn.close()
    return jjtest.report("cache_identity")


if __name__ == "__main__":
    sys.exit(main())
