"""test_csv_opts.py BUILD_DIR — `jalapenojson convert`'s options for CSV as
people keep it, on tests/data/unemployment_grouped.tsv (labour figures
with thousands separators, rates written as spreadsheets write them, NA
for a missing figure):

  - --thousands ,: the grouped columns are integers, equal to what Python
    reads with the separators taken out; a note per column; without it
    they are text, as written;
  - --null-for COLUMN=TEXT: NA is null in the columns named and text in
    the others, counted in a note per column; a column not in the header,
    a malformed argument, too many: usage errors;
  - --no-header: the same file without its header row gives the same
    rows under the names column_1 ... column_5, with a note, as CSV and
    TSV, with the field counts checked against the first record.

Prints "csv_opts: N passed, M failed".
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

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
FIXTURE = os.path.join(ROOT, "tests", "data", "unemployment_grouped.tsv")


def ndjson(text):
    return [json.loads(line) for line in text.splitlines() if line]


def records():
    with open(FIXTURE, encoding="utf-8") as f:
        return list(csv.reader(f, delimiter="\t"))


def expected(header, body, nulls):
    """The rows as the options should read them: the grouped columns and
    the rates as numbers, NA null where named."""
    out = []
    for r in body:
        row = {}
        for name, v in zip(header, r):
            if v == "NA" and name in nulls:
                row[name] = None
            elif name in ("labor_force", "unemployed") and v != "NA":
                row[name] = int(v.replace(",", ""))
            elif name == "rate" and v != "NA":
                row[name] = float(v)
            else:
                row[name] = v
        out.append(row)
    return out


def thousands_and_nulls(cli, tmp):
    header, *body = records()
    args = ["--thousands", ",", "--null-for", "unemployed=NA", "--null-for", "rate=NA"]
    rc, out, err = run(cli, ["convert"] + args + [FIXTURE, "-", "--to", "ndjson"], tmp)
    check("thousands and nulls: converts", rc == 0, err)
    check("thousands and nulls: the rows", ndjson(out) == expected(header, body, {"unemployed", "rate"}),
          out)
    for line in ("  labor_force  i  INTEGER", "  unemployed   i  INTEGER", "  rate         f  REAL",
                 'column "labor_force": 7 numbers with thousands separators (first: row 1, "25,957") '
                 "read as integers",
                 'column "unemployed": 3 numbers with thousands separators (first: row 1, "1,324") '
                 "read as integers",
                 'column "rate": 1 field read as null by its null markers ("NA"; first: row 5)',
                 'column "unemployed": 1 field read as null by its null markers ("NA"; first: row 5)'):
        check(f"the summary says {line!r}", line in err, err)
    # NA named for rate only: unemployed keeps it, so it is text
    rc, out, err = run(cli, ["convert", "-q", "--thousands", ",", "--null-for", "rate=NA",
                             FIXTURE, "-", "--to", "ndjson"], tmp)
    got = ndjson(out)
    check("NA for rate only: unemployed is text",
          rc == 0 and [g["unemployed"] for g in got] == [r[3] for r in body], (out, err))
    check("NA for rate only: rate null there", got[4]["rate"] is None and got[0]["rate"] == 0.051, got)
    # without --thousands the grouped numbers are text, as written
    rc, out, err = run(cli, ["convert", "--null-for", "rate=NA", FIXTURE, "-", "--to", "ndjson"], tmp)
    got = ndjson(out)
    check("no --thousands: text as written",
          rc == 0 and [g["labor_force"] for g in got] == [r[2] for r in body], (out, err))
    check("no --thousands: no note", "thousands" not in err, err)
    # --schema reads them too; a space as the separator
    spaced = os.path.join(tmp, "spaced.csv")
    with open(spaced, "w", encoding="utf-8") as f:
        f.write("n,m\n1 234,12 345.5\n7,8\n")
    rc, out, err = run(cli, ["convert", "-q", "--thousands", "space", "--schema", "n:i,m:f",
                             spaced, "-", "--to", "ndjson"], tmp)
    check("--thousands space with --schema", rc == 0 and ndjson(out) == [{"n": 1234, "m": 12345.5},
                                                                           {"n": 7, "m": 8.0}], (out, err))


def usage(cli, tmp):
    for args, says in ((["--null-for", "nope=NA"], 'column "nope" has a null marker but is not in the header'),
                       (["--null-for", "NA"], "--null-for takes COLUMN=TEXT"),
                       (["--null-for", "=NA"], "--null-for takes COLUMN=TEXT"),
                       (["--null-for", "rate=NA"] * 65, "--null-for may be given at most 64 times"),
                       (["--thousands", "."], "--thousands takes one ASCII character"),
                       (["--thousands", "ab"], "--thousands takes one ASCII character"),
                       (["--thousands", "-"], "--thousands takes one ASCII character")):
        rc, _, err = run(cli, ["convert"] + args + [FIXTURE, "/dev/null"], tmp)
        check(f"{args[:2]}: a usage error", rc == 2 and says in err, (rc, err))
    doc = os.path.join(tmp, "u.jj")
    rc, _, err = run(cli, ["convert", "-q", FIXTURE, doc], tmp)
    for args in (["--thousands", ","], ["--null-for", "a=b"], ["--no-header"]):
        rc, _, err = run(cli, ["convert"] + args + [doc, "/dev/null"], tmp)
        check(f"{args[0]} on a document: a usage error", rc == 2 and "are for JSON and CSV input" in err,
              (rc, err))


def no_header(cli, tmp):
    header, *body = records()
    names = [f"column_{k + 1}" for k in range(len(header))]
    text = "".join("\t".join(r) + "\n" for r in body)
    for label, name, data in (("tsv", "headless.tsv", text),
                              ("csv", "headless.csv",
                               "".join(",".join(f'"{v}"' if "," in v else v for v in r) + "\n" for r in body))):
        path = os.path.join(tmp, name)
        with open(path, "w", encoding="utf-8") as f:
            f.write(data)
        rc, out, err = run(cli, ["convert", "--no-header", "--thousands", ",", "--null-for", "column_4=NA",
                                 "--null-for", "column_5=NA", path, "-", "--to", "ndjson"], tmp)
        want = [dict(zip(names, r.values())) for r in expected(header, body, {"unemployed", "rate"})]
        check(f"{label}: the rows under column_N", rc == 0 and ndjson(out) == want, (out, err))
        check(f"{label}: the note", "no header record: the 5 columns are named column_1 to column_5, "
              "the first record is row 1" in err, err)
        check(f"{label}: every record a row", f": {len(body)} rows, 5 columns" in err, err)
    ragged = os.path.join(tmp, "ragged.csv")
    with open(ragged, "w", encoding="utf-8") as f:
        f.write("1,2,3\n4,5\n")
    rc, _, err = run(cli, ["convert", "--no-header", ragged, "/dev/null"], tmp)
    check("a short record: located, against the first record",
          rc == 1 and "row 2, byte 6: expected 3 fields (as in the first record), found 2" in err, err)
    rc, out, err = run(cli, ["convert", "-q", "--no-header", "--null-padding", ragged, "-", "--to", "csv"], tmp)
    check("--null-padding without a header", rc == 0 and out == "column_1,column_2,column_3\n1,2,3\n4,5,\n",
          (out, err))


def main():
    cli = os.path.join(os.path.abspath(jjtest.build_dir(sys.argv)), "jalapenojson")
    with tempfile.TemporaryDirectory() as tmp:
        thousands_and_nulls(cli, tmp)
        usage(cli, tmp)
        no_header(cli, tmp)
    return jjtest.report("csv_opts")


if __name__ == "__main__":
    sys.exit(main())
