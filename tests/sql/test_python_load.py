"""test_python_load.py BUILD_DIR — the extension loads into Debian's Python
sqlite3 module (conn.enable_load_extension / conn.load_extension) and works
there: every SQL entry point, values with Python types, errors as
exceptions.  Prints "python_load: N passed, M failed".

BUILD_DIR is the absolute build directory: the repository's build/ means
the extension ./jalapenojson.so at its root, any other directory D means
D/jalapenojson.so.
"""
import json
import os
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import jjtest
from jjtest import check, connect, expect_error, extension_path, q


def main():
    build = jjtest.build_dir(sys.argv)
    root = jjtest.ROOT
    rows_jj = os.path.join(root, "sql", "data", "rows.jj")

    # jjtest.connect: sqlite3.connect, enable_load_extension(True),
    # load_extension, enable_load_extension(False)
    conn = connect(extension_path(build))
    check("loads", True)

    # jj_group returns a canonical document that any JSON reader opens.
    doc = conn.execute(
        "SELECT jj_group('id', value, 'half', value / 2.0, 'name', 'n' || value) "
        "FROM (SELECT column1 AS value FROM (VALUES (1), (2), (3)))").fetchone()[0]
    check("group_returns_text", isinstance(doc, str), repr(doc))
    parsed = json.loads(doc)
    check("group_is_json", parsed["columns"] == ["id", "half", "name"]
          and parsed["types"] == ["i", "f", "s"]
          and parsed["rows"] == [[1, 0.5, "n1"], [2, 1.0, "n2"], [3, 1.5, "n3"]],
          repr(parsed))

    # The record form over a document bound as a parameter (bytes = BLOB).
    got = conn.execute("SELECT row, record FROM jj_open(?)",
                       (doc.encode(),)).fetchall()
    check("record_form_blob", got == [
        (1, '{"id":1,"half":0.5,"name":"n1"}'),
        (2, '{"id":2,"half":1.0,"name":"n2"}'),
        (3, '{"id":3,"half":1.5,"name":"n3"}')], repr(got))

    # The typed form over a file: Python sees int, float, str, bytes, None.
    conn.execute("CREATE VIRTUAL TABLE temp.rows USING jj_open(%s)"
                 % q(rows_jj))
    got = conn.execute("SELECT id, user, city, price, joined, items IS NULL "
                       "FROM rows WHERE rowid = 2").fetchone()
    check("typed_row", got == (2, "u0838", "Tromsø", 19.99, "2023-07-14", 0),
          repr(got))
    got = conn.execute("SELECT count(*), sum(seats) FROM rows").fetchone()
    check("typed_count", got == (40, 178), repr(got))
    got = [r[0] for r in conn.execute(
        "SELECT id FROM rows WHERE rowid IN (?, ?, ?)", (40, 3, 99))]
    check("typed_rowid_in", got == [3, 40], repr(got))

    expect_error(conn, "other_shape_is_an_error",
                 "SELECT * FROM rows(?)",
                 (open(os.path.join(root, "sql", "data", "types.jj"),
                       "rb").read(),),
                 'blob: column 1 differs: declared "id" i, found "n" i')
    conn.execute("CREATE VIRTUAL TABLE temp.types USING jj_open(%s)"
                 % q(os.path.join(root, "sql", "data", "types.jj")))
    got = conn.execute("SELECT n, f, s, b, x FROM types WHERE rowid = 1").fetchone()
    check("python_types", got == (9223372036854775807, 0.5,
                                  'Tromsø "quoted"\n', 1, b"\x00\x01\x02\xff"),
          repr(got))

    # jj_write writes, jj_open reads back, through a real directory.
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "out.jj.gz")
        n = conn.execute("SELECT jj_write(?, ?)", (path, doc)).fetchone()[0]
        check("write_returns_size", n == os.path.getsize(path), repr(n))
        with open(path, "rb") as f:
            check("write_gzip", f.read(2) == b"\x1f\x8b")
        got = conn.execute("SELECT count(*) FROM jj_open(?)", (path,)).fetchone()
        check("write_reads_back", got == (3,), repr(got))
        expect_error(conn, "write_refuses_bad_document",
                     "SELECT jj_write(?, 'nope')", (path,),
                     "jj_write: not a valid document: byte 0: expected '{' "
                     "to start a jalapenojson document, found \"n\"")

    # Errors reach Python as exceptions with the extension's message.
    expect_error(conn, "missing_file", "SELECT * FROM jj_open('missing.jj')",
                 (), 'cannot open "missing.jj": No such file or directory')
    expect_error(conn, "group_bad_date", "SELECT jj_group('d:d', v) FROM "
                 "(SELECT '2024-01-01' AS v UNION ALL SELECT '2023-02-29')", (),
                 'jj_group: row 2, column "d": "2023-02-29" is not a date (2023 is '
                 'not a leap year; the schema says d:d)')
    got = conn.execute("SELECT position, name, type FROM jj_schema(?)",
                       (doc,)).fetchall()
    check("schema", got == [(1, "id", "i"), (2, "half", "f"), (3, "name", "s")],
          repr(got))
    conn.close()

    return jjtest.report("python_load")


if __name__ == "__main__":
    sys.exit(main())
