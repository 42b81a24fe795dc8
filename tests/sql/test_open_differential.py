#!/usr/bin/env python3
"""test_open_differential.py BUILD_DIR - jj_open over a JSON or CSV file
with the converter's options against the document the command-line tool
makes with the same options.

For each fixture (a ragged CSV with null_padding, a bad row in the middle
with on_error=skip, NA and . as null markers, CRLF line ends with another
delimiter, a byte order mark with booleans, TSV with empty_is_text,
thousands separators with per-column null markers, no header, dates and
timestamps by pattern and detected in other spellings, NDJSON with
sparse keys and nested objects, a JSON array with nested arrays of
objects, a gzipped CSV), `jalapenojson convert` with the options as flags
makes a .jj file; the typed table CREATEd over the source with the options
as arguments, and the record form with them as its OPTIONS text, give the
declared types and every row of the same over the .jj file.
Prints "open_differential: N passed, M failed".
"""
import gzip
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import jjtest
from jjtest import check, connect, extension_path, q

ROWS = "".join("%d,item %d,%d.25\n" % (i, i, i) for i in range(1, 40))

# name, text (written as bytes), SQL options (CREATE arguments), CLI flags
FIXTURES = [
    ("ragged.csv", "id,name,qty\n1,a,2\n2,b\n3\n4,d,5\n",
     ["null_padding=1"], ["--null-padding"]),
    ("badrow.csv", "id,name,qty\n" + ROWS.replace("20,item 20,20.25", "20,item 20,oops")
     + "40,last,1\n",
     ["on_error=skip", "schema='qty:f'"], ["--on-error", "skip", "--schema", "qty:f"]),
    ("short.csv", "id,name,qty\n1,a,1\n2,b\n3,c,x\n4,d,4\n",
     ["on_error=null", "schema='qty:i'"], ["--on-error", "null", "--schema", "qty:i"]),
    ("markers.csv", "id,score,tag\n1,NA,x\n2,.,y\n3,7.5,NA\n4,2,.\n",
     ["null=NA", "null='.'"], ["--null", "NA", "--null", "."]),
    ("crlf.csv", "id;name;when\r\n1;\"Lin; Bo\";2024-01-02\r\n2;Ada;2024-02-03\r\n",
     ["delimiter=';'"], ["-d", ";"]),
    ("bom.csv", "\ufeffid,ok,note\n1,true,a\n2,false,\n3,true,c\n",
     ["booleans=1"], ["--csv-booleans"]),
    ("data.tsv", "id\tnote\tn\n1\t\t5\n2\tx\t\n3\t\"q\"\t7\n",
     ["empty_is_text=1"], ["--empty-is-text"]),
    ("sparse.ndjson",
     '{"id": 1, "user": {"name": "a", "age": 30}}\n'
     '{"id": 2, "extra": true}\n'
     '{"id": 3, "user": {"name": "c"}, "score": "n/a"}\n'
     '{"id": 4, "score": 2.5}\n',
     ["schema='score:f'", "bad_to_null=1"], ["--schema", "score:f", "--bad-to-null"]),
    ("nested.json",
     '[{"order": 1, "items": [{"sku": "a", "qty": 2}, {"sku": "b", "qty": 1}]},\n'
     ' {"order": 2, "items": []},\n'
     ' {"order": 3, "items": [{"sku": "c", "qty": 5, "note": "gift"}]}]\n',
     ["schema='order:i'"], ["--schema", "order:i"]),
    ("grouped.csv", 'id,amount,rate\n1,"1,234.5",NA\n2,"2,000",.\n3,7,4.5\n',
     ["thousands=','", "null_for='rate=NA'", "null_for='rate=.'"],
     ["--thousands", ",", "--null-for", "rate=NA", "--null-for", "rate=."]),
    ("noheader.csv", "1,a,2024-01-01\n2,b,2024-02-01\n3,,2024-03-01\n",
     ["header=0"], ["--no-header"]),
    ("spelled.csv", "id,day,at\n1,01/31/2015,2015/01/31 01:00\n2,,2016/02/29 23:59\n"
     "3,12/01/2016,\n",
     ["date_format='%m/%d/%Y'", "timestamp_format='%Y/%m/%d %H:%M'"],
     ["--date-format", "%m/%d/%Y", "--timestamp-format", "%Y/%m/%d %H:%M"]),
    ("detected.json", '[{"d": "Jan 1 2000", "t": "2001/01/01 00:47"},'
     ' {"d": "Jun 12 1998", "t": null}]\n', [], []),
    ("events.csv.gz", "at,kind,value\n2024-05-01T10:00:00Z,a,NA\n"
     "2024-05-01T11:30:00Z,b,3\n2024-05-02T09:15:00Z,NA,4\n",
     ["null=NA"], ["--null", "NA"]),
]


def typed(conn, source, args):
    """(declared (name, type) pairs, rows) of a typed table."""
    conn.execute("DROP TABLE IF EXISTS temp.t")
    conn.execute("CREATE VIRTUAL TABLE temp.t USING jj_open(%s)"
                 % ", ".join([q(source)] + args))
    cols = [(r[1], r[2]) for r in conn.execute("PRAGMA temp.table_info(t)")]
    return cols, conn.execute("SELECT * FROM temp.t").fetchall()


def option_text(args):
    """CREATE arguments as one OPTIONS text: quoted values in double quotes."""
    items = []
    for a in args:
        k, v = a.split("=", 1)
        if v.startswith("'") and v.endswith("'"):
            v = '"%s"' % v[1:-1].replace('"', '""')
        items.append("%s=%s" % (k, v))
    return ", ".join(items)


def main():
    build = jjtest.build_dir(sys.argv)
    tool = os.path.join(build, "jalapenojson")
    conn = connect(extension_path(build))
    with tempfile.TemporaryDirectory(prefix="jj-open-diff-") as d:
        for name, text, args, flags in FIXTURES:
            src = os.path.join(d, name)
            data = text.encode("utf-8")
            if name.endswith(".gz"):
                data = gzip.compress(data)
            with open(src, "wb") as f:
                f.write(data)
            out = os.path.join(d, name + ".jj")
            r = subprocess.run([tool, "convert", "-q"] + flags + [src, out],
                               capture_output=True, text=True)
            if not check("%s: the tool converts it with %s" % (name, " ".join(flags)),
                         r.returncode == 0, r.stderr):
                continue
            want = typed(conn, out, [])
            got = typed(conn, src, args)
            check("%s: declared types, as the tool's document" % name, got[0] == want[0],
                  "%r\n%r" % (got[0], want[0]))
            check("%s: every row, as the tool's document" % name,
                  got[1] == want[1] and len(want[1]) > 0, "%r\n%r" % (got[1], want[1]))
            rec = conn.execute("SELECT row, record FROM jj_open(?, ?)",
                               (src, option_text(args))).fetchall()
            rec_want = conn.execute("SELECT row, record FROM jj_open(?)", (out,)).fetchall()
            check("%s: the record form with the OPTIONS text too" % name, rec == rec_want,
                  "%r\n%r" % (rec[:3], rec_want[:3]))
        # the options matter: without them the same files differ
        plain = typed(conn, os.path.join(d, "markers.csv"), [])
        marked = typed(conn, os.path.join(d, "markers.csv"), ["null=NA", "null='.'"])
        check("without the options the table differs (the fixtures test them)",
              plain != marked and plain[0][1] == ("score", "TEXT")
              and marked[0][1] == ("score", "REAL"), "%r / %r" % (plain[0], marked[0]))
    return jjtest.report("open_differential")


if __name__ == "__main__":
    sys.exit(main())
