"""test_csv_rows_sql.py BUILD_DIR — jj_from_csv's null_padding and on_error
options, and null= given more than once (several texts that mean null),
against the command-line converter on the same documents: the rows
read back through jj_open equal the rows `jalapenojson convert` writes as
NDJSON, and the "set aside:" lines of jj_notes() are the messages of its
--rejects file, in order (without the file name the command line puts
first).  The inputs: tests/data/releases.csv and rates_bad.csv as they
are, with CRLF line ends, with a byte order mark, and as TSV; rates_na.tsv
with NA, "." and NULL for null.  Prints
"csv_rows_sql: N passed, M failed".
"""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import jjtest
from jjtest import check, connect, error_of

jjtest.LINE_AT_MOST = 3000
ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
DATA = os.path.join(ROOT, "tests", "data")


def shapes(raw):
    tsv = raw.replace(b",", b"\t")  # the fixtures hold no quoted fields
    return [("plain", raw), ("crlf", raw.replace(b"\n", b"\r\n")),
            ("bom", b"\xef\xbb\xbf" + raw), ("tsv", tsv)]


def cli_rows(cli, tmp, data, args):
    path = os.path.join(tmp, "in.csv")
    with open(path, "wb") as f:
        f.write(data)
    rej = os.path.join(tmp, "rej.ndjson")
    if os.path.exists(rej):
        os.remove(rej)
    extra = ["--rejects", rej] if "--on-error" in args else []
    p = subprocess.run([cli, "convert", "-q", "--from", "csv"] + args + extra +
                       [path, "-", "--to", "ndjson"],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)
    rows = [json.loads(x) for x in p.stdout.decode().splitlines()]
    msgs = []
    if extra:
        with open(rej) as f:
            msgs = [json.loads(x)["message"].split(": ", 1)[1] for x in f]
    return p.returncode, rows, msgs, p.stderr.decode()


def sql_rows(conn, data, opts):
    doc = conn.execute("SELECT jj_from_csv(?%s)" % (", ?" * len(opts)),
                       (data.decode(),) + tuple(opts)).fetchone()[0]
    rows = [json.loads(r) for (r,) in
            conn.execute("SELECT record FROM jj_open(?) ORDER BY row", (doc,))]
    notes = conn.execute("SELECT jj_notes()").fetchone()[0] or ""
    aside = [n[len("set aside: "):] for n in notes.split("\n") if n.startswith("set aside: ")]
    return rows, aside, notes


def main():
    build = jjtest.build_dir(sys.argv)
    cli = os.path.join(os.path.abspath(build), "jalapenojson")
    conn = connect(jjtest.extension_path(build))
    cases = [
        ("releases.csv", ["--null-padding"], ["null_padding=1"]),
        ("releases.csv", ["--null-padding", "--on-error", "skip"],
         ["null_padding=yes", "on_error=skip"]),
        ("releases.csv", ["--on-error", "skip"], ["on_error=skip"]),
        ("rates_bad.csv", ["--on-error", "skip", "--schema", "rate:f"],
         ["on_error=skip", "schema=rate:f"]),
        ("rates_bad.csv", ["--on-error", "null", "--schema", "rate:f"],
         ["on_error=null", "schema=rate:f"]),
        ("rates_bad.csv", ["--on-error", "skip"], ["on_error=skip"]),
        ("rates_na.tsv", ["--null", "", "--null", "NA", "--null", "."],
         ["null=", "null=NA", "null=."]),
        ("rates_na.tsv", ["--null", "NA", "--null", "NULL"], ["null=NA", "null=NULL"]),
        ("unemployment.tsv", [], []),
        ("unemployment.tsv", ["--schema", "rate:f"], ["schema=rate:f"]),
    ]
    with tempfile.TemporaryDirectory() as tmp:
        for name, cli_args, sql_opts in cases:
            with open(os.path.join(DATA, name), "rb") as f:
                raw = f.read()
            for label, data in shapes(raw):
                case = f"{name} {label} {' '.join(sql_opts)}"
                rc, want, want_aside, err = cli_rows(cli, tmp, data, cli_args)
                check(f"{case}: the command line converts", rc == 0, err)
                got, aside, notes = sql_rows(conn, data, sql_opts)
                check(f"{case}: the same rows", got == want, (got, want))
                check(f"{case}: the same rows set aside", aside == want_aside,
                      (aside, want_aside))
                if want_aside:
                    check(f"{case}: the summary note",
                          f"{len(want_aside)} row{'s' if len(want_aside) > 1 else ''} "
                          f"set aside (first: {want_aside[0]})" in notes, notes)
    # options misspelled or misused
    err = error_of(conn, "SELECT jj_from_csv('a', 'on_error=ignore')", ())
    check("on_error=ignore", err == 'jj_from_csv: option "on_error" takes fail, skip or '
          'null, not "ignore"', err)
    err = error_of(conn, "SELECT jj_from_csv('a', 'null_padding=2')", ())
    check("null_padding=2", err is not None and "takes 1 or 0" in err, err)
    # fail is the default: the first bad row's error
    err = error_of(conn, "SELECT jj_from_csv(?)", ("a,b\n1\n",))
    check("a short row fails by default",
          err == "jj_from_csv: row 1, byte 4: expected 2 fields (as in the header), found 1", err)
    return jjtest.report("csv_rows_sql")


if __name__ == "__main__":
    sys.exit(main())
