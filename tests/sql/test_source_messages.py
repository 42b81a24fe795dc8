"""test_source_messages.py BUILD_DIR — a SOURCE says the same thing about the
same bytes whether they come as a BLOB or from a file: white space only is
an empty document, named by the file's name or by "blob", through jj_open,
a typed table's table-valued form and jj_schema.

Prints "source_messages: N passed, M failed".
"""
import os
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import jjtest
from jjtest import check, connect, error_of, extension_path


def main():
    so = extension_path(jjtest.build_dir(sys.argv))
    conn = connect(so)
    with tempfile.TemporaryDirectory() as tmp:
        good = os.path.join(tmp, "good.jj")
        with open(good, "w") as f:
            f.write('{"jalapenojson":1,"columns":["x"],"types":["i"],'
                    '"rows":[\n[1]\n]}')
        conn.execute("CREATE VIRTUAL TABLE temp.t USING jj_open(%s)"
                     % jjtest.q(good))
        for i, data in enumerate((b"   \n", b"\n", b" \t\r\n ", b"")):
            path = os.path.join(tmp, "blank%d.jj" % i)
            with open(path, "wb") as f:
                f.write(data)
            want = "byte %d: the document is empty" % len(data)
            for fn in ("jj_open", "t", "jj_schema"):
                sql = "SELECT * FROM %s(?)" % fn
                as_blob = error_of(conn, sql, (data,))
                as_file = error_of(conn, sql, (path,))
                check(f"blank{i}_{fn}_blob", as_blob == "blob: " + want,
                      repr(as_blob))
                check(f"blank{i}_{fn}_file", as_file == path + ": " + want,
                      repr(as_file))
    conn.close()
    return jjtest.report("source_messages")


if __name__ == "__main__":
    sys.exit(main())
