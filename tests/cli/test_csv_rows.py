"""test_csv_rows.py BUILD_DIR — CSV rows that do not fit the header, through
`jalapenojson convert`: --null-padding, --on-error skip|null, --rejects;
and --null given more than once (tests/data/rates_na.tsv's NA, ".", NULL);
numbers as spreadsheets write them (tests/data/unemployment.tsv's .097).

The fixtures (tests/data/releases.csv, a ragged release table whose trailing
empty fields are left out; tests/data/rates_bad.csv, a numeric column with
NA, "." and a row with a field too many) are read as they are, with CRLF
line ends, with a UTF-8 byte order mark, and as TSV: each shape must give
the same rows.  What is checked against Python's csv module: every padded
row holds the record's fields then nulls; the rows set aside (--rejects,
NDJSON) and the rows written are the input's rows, each exactly once; each
rejects line carries the message the conversion without --on-error fails
with when the rows set aside before it are mended.

Prints "csv_rows: N passed, M failed".
"""
import csv
import io
import json
import os
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import jjtest
from jjtest import check, run_cli as run

jjtest.LINE_AT_MOST = 3000
ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
DATA = os.path.join(ROOT, "tests", "data")


def read(path):
    with open(path, "rb") as f:
        return f.read()


def write(path, data):
    with open(path, "wb") as f:
        f.write(data)


def shapes(raw, name):
    """(label, file name, bytes, delimiter) of the same table: as it is,
    CRLF, a byte order mark, TSV."""
    text = raw.decode()
    rows = list(csv.reader(io.StringIO(text)))
    tsv = "".join("\t".join(r) + "\n" for r in rows).encode()
    return [("plain", name + ".csv", raw, ","),
            ("crlf", name + "_crlf.csv", raw.replace(b"\n", b"\r\n"), ","),
            ("bom", name + "_bom.csv", b"\xef\xbb\xbf" + raw, ","),
            ("tsv", name + ".tsv", tsv, "\t")]


def ndjson(text):
    return [json.loads(line) for line in text.splitlines() if line]


def padding(cli, tmp):
    raw = read(os.path.join(DATA, "releases.csv"))
    records = list(csv.reader(io.StringIO(raw.decode())))
    header, body = records[0], records[1:]
    short = [i for i, r in enumerate(body) if len(r) < len(header)]
    for label, fname, data, _ in shapes(raw, "releases"):
        path = os.path.join(tmp, fname)
        write(path, data)
        rc, _, err = run(cli, ["convert", "-q", fname, "out.jj"], tmp)
        first = short[0] + 1
        check(f"{label}: ragged rows fail without --null-padding",
              rc == 1 and f"{fname}: row {first}, byte " in err and
              f"expected {len(header)} fields (as in the header), found "
              f"{len(body[short[0]])}" in err, (rc, err))
        rc, out, err = run(cli, ["convert", "--null-padding", fname, "-", "--to", "ndjson"], tmp)
        got = ndjson(out)
        check(f"{label}: padded, every row kept", rc == 0 and len(got) == len(body), (rc, err))
        want_note = (f"{len(short)} rows had fewer fields than the header (first: row "
                     f"{first}, {len(body[short[0]])} of {len(header)}): padded with nulls")
        check(f"{label}: the padding note", want_note in err, err)
        for r, g in zip(body, got):
            check(f"{label}: keys in header order", list(g) == header, g)
            check(f"{label}: missing fields are null",
                  all(g[k] is None for k in header[len(r):]), (r, g))
            check(f"{label}: present fields kept",
                  all(str(g[k]) == v or (v == "" and g[k] is None) or
                      (isinstance(g[k], float) and float(v) == g[k])
                      for k, v in zip(header, r)), (r, g))
    # a row with a field too many is still an error, named
    long_csv = raw.decode().replace("13,Trixie,trixie,2023-06-10\n",
                                    "13,Trixie,trixie,2023-06-10,,,,,x\n").encode()
    write(os.path.join(tmp, "long.csv"), long_csv)
    rc, _, err = run(cli, ["convert", "--null-padding", "long.csv", "out.jj"], tmp)
    check("a long row stays an error", rc == 1 and "long.csv: row 7, byte " in err and
          "expected 8 fields (as in the header), found 9" in err, (rc, err))


def rejects(cli, tmp):
    raw = read(os.path.join(DATA, "rates_bad.csv"))
    records = list(csv.reader(io.StringIO(raw.decode())))
    header, body = records[0], records[1:]
    ids = [r[0] for r in body]
    for label, fname, data, delim in shapes(raw, "rates_bad"):
        write(os.path.join(tmp, fname), data)
        rc, out, err = run(cli, ["convert", "--on-error", "skip", "--rejects", "rej.ndjson",
                                 "--schema", "rate:f", fname, "-", "--to", "ndjson"], tmp)
        kept = ndjson(out)
        rej = ndjson(read(os.path.join(tmp, "rej.ndjson")).decode())
        check(f"{label}: skip converts", rc == 0, (rc, err))
        kept_ids = [str(g["id"]) for g in kept]
        rej_ids = [body[r["row"] - 1][0] for r in rej]
        check(f"{label}: rejects + output = input, each once",
              sorted(kept_ids + rej_ids, key=int) == ids and
              not set(kept_ids) & set(rej_ids), (kept_ids, rej_ids))
        check(f"{label}: the rows set aside", [r["row"] for r in rej] == [2, 3, 4, 6], rej)
        check(f"{label}: columns and codes",
              [(r["column"], r["code"]) for r in rej] ==
              [("rate", "type"), (None, "row"), ("rate", "type"), ("rate", "type")], rej)
        check(f"{label}: the summary counts them",
              f"{len(rej)} rows set aside" in err and
              f"4 rows set aside (first: {fname}: row 2, column \"rate\", byte " in err, err)
        # each line's message is the one the conversion without --on-error
        # fails with once the rows set aside before it are mended in place
        # (the same bytes long, so rows and bytes stay where they were)
        lines = data.split(b"\n")
        first_line = 1  # lines[0] is the header
        for k, r in enumerate(rej):
            mended = list(lines)
            for earlier in rej[:k]:
                i = first_line + earlier["row"] - 1
                f = mended[i].rstrip(b"\r").decode().split(delim)
                fixed = delim.join(f[:1] + ["1" * len(f[1])] + ["_".join(f[2:])])
                mended[i] = fixed.encode() + (b"\r" if mended[i].endswith(b"\r") else b"")
            one = "mended" + fname[-4:]
            write(os.path.join(tmp, one), b"\n".join(mended))
            rc1, _, err1 = run(cli, ["convert", "-q", "--schema", "rate:f", one, "out.jj"], tmp)
            check(f"{label}: row {r['row']}: the message of the failure",
                  rc1 == 1 and err1 == "jalapenojson: " + r["message"].replace(fname, one) + "\n",
                  (r["message"], err1))
        # on_error null: bad values null, the long row set aside
        rc, out, err = run(cli, ["convert", "--on-error", "null", "--rejects", "rej.ndjson",
                                 "--schema", "rate:f", fname, "-", "--to", "ndjson"], tmp)
        got = ndjson(out)
        rej = ndjson(read(os.path.join(tmp, "rej.ndjson")).decode())
        check(f"{label}: null keeps the rows that fit the header",
              rc == 0 and [g["id"] for g in got] == [1, 2, 4, 5, 6, 7] and
              [g["rate"] for g in got] == [4.5, None, None, 6.25, None, 3.0], (rc, got, err))
        check(f"{label}: null sets the long row aside",
              [(r["row"], r["code"]) for r in rej] == [(3, "row")], rej)
        check(f"{label}: null says both", "3 values made null" in err and
              "1 row set aside" in err, err)
    # the rejects file reads back through the converter itself
    rc, out, err = run(cli, ["convert", "rej.ndjson", "-", "--to", "csv"], tmp)
    check("rejects round trip", rc == 0 and out.startswith("row,byte,column,code,message\n")
          and "\n3,36,,row," in out, (rc, out, err))
    # usage
    rc, _, err = run(cli, ["convert", "--rejects", "r.ndjson", "rates_bad.csv", "o.jj"], tmp)
    check("--rejects alone is a usage error", rc == 2 and "--on-error" in err, (rc, err))
    rc, _, err = run(cli, ["convert", "--on-error", "maybe", "rates_bad.csv", "o.jj"], tmp)
    check("--on-error maybe is a usage error", rc == 2 and "fail, skip or null" in err, (rc, err))
    # fail (the default) stops at the first bad row
    rc, _, err = run(cli, ["convert", "--schema", "rate:f", "rates_bad.csv", "o.jj"], tmp)
    check("fail names the first bad row", rc == 1 and "row 2, column \"rate\"" in err, (rc, err))


def null_markers(cli, tmp):
    """--null given more than once: every field equal to one of the texts
    is null, as Python's csv module reads the file; the first is the one
    written back."""
    raw = read(os.path.join(DATA, "rates_na.tsv"))
    records = list(csv.reader(io.StringIO(raw.decode()), delimiter="\t"))
    header, body = records[0], records[1:]
    for markers in (["", "NA", "."], ["NA", "NULL"], ["NA", ".", "NULL", ""]):
        args = [a for m in markers for a in ("--null", m)]
        for label, fname, data, _ in shapes(raw.replace(b"\t", b","), "rates_na")[:3]:
            write(os.path.join(tmp, fname), data)
            rc, out, err = run(cli, ["convert", "-q"] + args + [fname, "-", "--to", "ndjson"], tmp)
            got = ndjson(out)
            check(f"{label} {markers}: converts", rc == 0 and len(got) == len(body), (rc, err))
            for r, g in zip(body, got):
                want = [None if v in markers else v for v in r]
                seen = [None if g[k] is None else str(g[k]) for k in header]
                check(f"{label} {markers}: the markers are null", seen == want, (r, g))
        rc, out, err = run(cli, ["convert", "-q"] + args + ["rates_na_crlf.csv", "-", "--to", "csv"], tmp)
        bergen = out.splitlines()[2].split(",")  # its rate is NA
        check(f"{markers}: null written as the first", rc == 0 and bergen[2] == markers[0],
              (out, err))
    rc, _, err = run(cli, ["convert"] + ["--null", "x"] * 18 + ["rates_na.csv", "o.jj"], tmp)
    check("--null 18 times: a usage error", rc == 2 and "at most 17 times" in err, (rc, err))


def sheet_numbers(cli, tmp):
    """.097 and 5. in a column of numbers: floats, with the note."""
    raw = read(os.path.join(DATA, "unemployment.tsv"))
    records = list(csv.reader(io.StringIO(raw.decode()), delimiter="\t"))
    for label, fname, data, _ in shapes(raw.replace(b"\t", b","), "unemployment")[:3]:
        write(os.path.join(tmp, fname), data)
        for args in ([], ["--schema", "rate:f"]):
            rc, out, err = run(cli, ["convert"] + args + [fname, "-", "--to", "ndjson"], tmp)
            got = [g["rate"] for g in ndjson(out)]
            check(f"{label} {args}: the rates are floats",
                  rc == 0 and got == [float(r[2]) for r in records[1:]], (got, err))
            check(f"{label} {args}: the note", "  rate  f  REAL" in err and
                  'column "rate": 4 numbers written as spreadsheets write them '
                  '(first: row 1, ".051") read as floats' in err, err)


def main():
    cli = os.path.join(os.path.abspath(jjtest.build_dir(sys.argv)), "jalapenojson")
    with tempfile.TemporaryDirectory() as tmp:
        padding(cli, tmp)
        rejects(cli, tmp)
        null_markers(cli, tmp)
        sheet_numbers(cli, tmp)
    return jjtest.report("csv_rows")


if __name__ == "__main__":
    sys.exit(main())
