#!/usr/bin/env python3
"""test_open_converted.py BUILD_DIR - jj_open and jj_schema over JSON,
NDJSON, CSV and TSV files (plain, .gz, .br): converted whole by the
converter and kept in the connection's cache.

Each file opened in SQL gives the typed table that the same file converted
by the command-line tool gives (declared types and every value), in both
forms of jj_open; a glob of .csv.gz files reads every one; the second
statement finds the document in the cache, and a rewritten file is
converted again; a bad row is the converter's located error; a file that
is no format says what would read it; jj_max_size bounds the document;
the converter's decisions reach jj_notes().
Prints "open_converted: N passed, M failed".
"""
import gzip
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import jjtest
from jjtest import check, connect, error_of, extension_path, q

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data")

CSV = ("id,name,joined,score,active\n"
       "1,Ada,2024-01-31,9.5,true\n"
       "2,\"Lin, Bo\",2023-12-01,,false\n"
       "3,Zoë,,7,true\n")


def table(conn, source):
    """(declared columns and types, rows) of a typed table over source."""
    conn.execute("DROP TABLE IF EXISTS temp.t")
    conn.execute("CREATE VIRTUAL TABLE temp.t USING jj_open(%s)" % q(source))
    cols = [(r[1], r[2]) for r in conn.execute("PRAGMA temp.table_info(t)")]
    rows = conn.execute("SELECT * FROM temp.t").fetchall()
    return cols, rows


def convert(build, src, out):
    r = subprocess.run([os.path.join(build, "jalapenojson"), "convert", src, out],
                       capture_output=True, text=True)
    return r.returncode == 0


def main():
    build = jjtest.build_dir(sys.argv)
    conn = connect(extension_path(build))
    with tempfile.TemporaryDirectory(prefix="jj-open-conv-") as d:
        files = {
            "people.csv": CSV,
            "people.tsv": CSV.replace(",", "\t").replace("\"Lin\t Bo\"", "Lin, Bo"),
            "people.ndjson": None, "people.json": None,
        }
        with open(os.path.join(DATA, "cars.json"), encoding="utf-8") as f:
            cars = f.read()
        files["cars.json"] = cars
        for name, text in files.items():
            if text is not None:
                with open(os.path.join(d, name), "w", encoding="utf-8") as f:
                    f.write(text)
        # NDJSON and JSON of the CSV's rows, written by the tool itself
        for fmt in ("ndjson", "json"):
            subprocess.run([os.path.join(build, "jalapenojson"), "convert",
                            os.path.join(d, "people.csv"), os.path.join(d, "people." + fmt)],
                           check=True, capture_output=True)
        with open(os.path.join(d, "people.csv"), "rb") as f, \
                gzip.open(os.path.join(d, "people.csv.gz"), "wb") as g:
            g.write(f.read())
        subprocess.run([os.path.join(build, "jalapenojson"), "convert",
                        os.path.join(d, "people.json"), os.path.join(d, "people.json.br"),
                        "--to", "json.br"], check=True, capture_output=True)

        # each one as the command-line tool converts it
        for name in ("people.csv", "people.tsv", "people.ndjson", "people.json",
                     "people.csv.gz", "people.json.br", "cars.json"):
            src = os.path.join(d, name)
            out = os.path.join(d, name + ".jj")
            if not check("%s: the tool converts it" % name, convert(build, src, out)):
                continue
            want = table(conn, out)
            got = table(conn, src)
            check("%s: the typed table is the converted document's" % name, got == want,
                  "%r\n%r" % (got, want))
            rec = conn.execute("SELECT row, record FROM jj_open(?)", (src,)).fetchall()
            rec_want = conn.execute("SELECT row, record FROM jj_open(?)", (out,)).fetchall()
            check("%s: the record form too" % name, rec == rec_want, repr(rec[:2]))
        cols = conn.execute("SELECT name, type FROM jj_schema(?)",
                            (os.path.join(d, "people.csv"),)).fetchall()
        check("jj_schema of a CSV file: the converter's types",
              cols == [("id", "i"), ("name", "s"), ("joined", "d"), ("score", "f"),
                       ("active", "s")], repr(cols))

        # a glob of gzipped CSV files: every file, in name order
        sub = os.path.join(d, "logs")
        os.mkdir(sub)
        for i in range(3):
            with gzip.open(os.path.join(sub, "day%d.csv.gz" % i), "wt") as g:
                g.write("n,at\n%d,2024-05-0%d\n" % (i, i + 1))
        conn.execute("CREATE VIRTUAL TABLE temp.g USING jj_open(%s)"
                     % q(os.path.join(sub, "*.csv.gz")))
        got = conn.execute("SELECT n, at FROM temp.g").fetchall()
        check("a glob of .csv.gz files", got == [(0, "2024-05-01"), (1, "2024-05-02"),
                                                  (2, "2024-05-03")], repr(got))

        # the cache: the second statement finds it; a rewritten file is read again
        path = os.path.join(d, "people.csv")
        conn.execute("SELECT count(*) FROM jj_open(?)", (path,)).fetchone()
        hits = conn.execute("SELECT hits FROM jj_cache WHERE path = ?", (path,)).fetchone()
        conn.execute("SELECT count(*) FROM jj_open(?)", (path,)).fetchone()
        hits2 = conn.execute("SELECT hits FROM jj_cache WHERE path = ?", (path,)).fetchone()
        check("the second statement reads the cached document",
              hits is not None and hits2 is not None and hits2[0] == hits[0] + 1,
              "%r %r" % (hits, hits2))
        time.sleep(0.01)
        with open(path, "a", encoding="utf-8") as f:
            f.write("4,Sam,2024-02-02,1.5,false\n")
        n = conn.execute("SELECT count(*) FROM jj_open(?)", (path,)).fetchone()[0]
        check("a rewritten file is converted again", n == 4, repr(n))

        # errors: the converter's, located; a file that is no format
        bad = os.path.join(d, "bad.csv")
        with open(bad, "w") as f:
            f.write("a,b\n1,2\n3\n")
        e = error_of(conn, "SELECT * FROM jj_open(?)", (bad,))
        check("a short row: the converter's error, located",
              e is not None and "bad.csv: row 2" in e and "expected 2 fields" in e, repr(e))
        e = error_of(conn, "CREATE VIRTUAL TABLE temp.b USING jj_open(%s)" % q(bad))
        check("the same error at CREATE", e is not None and "bad.csv: row 2" in e, repr(e))
        other = os.path.join(d, "cars.txt")
        with open(other, "w", encoding="utf-8") as f:
            f.write(cars)
        for sql in ("SELECT * FROM jj_open(%s)", "CREATE VIRTUAL TABLE temp.o USING jj_open(%s)"):
            e = error_of(conn, sql % q(other))
            check("JSON under another name: what it looked like and what reads it",
                  e is not None and 'found "["' in e and ".json, .ndjson" in e and len(e) < 300
                  and "jj_from_json" in e, repr(e))

        # the size limit bounds what is read and what is made
        conn.execute("SELECT jj_max_size(100)")
        e = error_of(conn, "SELECT * FROM jj_open(?)", (os.path.join(d, "cars.json"),))
        check("jj_max_size bounds a converted file", e is not None and "100" in e, repr(e))
        e2 = error_of(conn, "CREATE VIRTUAL TABLE temp.big USING jj_open(%s)"
                      % q(os.path.join(d, "cars.json")))
        check("the same limit at CREATE, with the same words",
              e2 == e and "jj_max_size(N)" in (e2 or ""), "%r / %r" % (e2, e))
        conn.execute("SELECT jj_max_size(1073741824)")

        # decisions reach jj_notes()
        mixed = os.path.join(d, "mixed.ndjson")
        with open(mixed, "w") as f:
            f.write('{"v": 1}\n{"v": "one"}\n')
        conn.execute("SELECT count(*) FROM jj_open(?)", (mixed,)).fetchone()
        notes = conn.execute("SELECT jj_notes()").fetchone()[0]
        check("the converter's decisions in jj_notes()",
              notes is not None and 'column "v"' in notes and "-> s" in notes, repr(notes))
    return jjtest.report("open_converted")


if __name__ == "__main__":
    sys.exit(main())
