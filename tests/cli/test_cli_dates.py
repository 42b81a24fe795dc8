"""test_cli_dates.py BUILD_DIR — dates and timestamps in other spellings
through `jalapenojson convert`: tests/data/dates_spelled.csv (the spellings
01/31/2015, Jan 1 2000, 2015/01/01 01:00:00 and 2001/01/01 00:47 in columns
of their own) detected, as CSV and as JSON; --date-format and
--timestamp-format (repeated, "iso"), --schema x:d reading a pattern, a
value that does not fit located, a pattern that does not compile (exit 2),
and the options refused for a document input.

Prints "cli_dates: N passed, M failed".
"""
import json
import os
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import jjtest
from jjtest import check, run_cli as run

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
DATA = os.path.join(ROOT, "tests", "data")


def head_and_rows(doc):
    lines = doc.split("\n")
    head = json.loads(lines[0] + "]}")
    return head["types"], [json.loads(x.rstrip(",")) for x in lines[1:-1]]


def detected(cli, tmp):
    src = os.path.join(DATA, "dates_spelled.csv")
    rc, out, err = run(cli, ["convert", src, "-"], tmp)
    check("the fixture converts", rc == 0, err)
    types, rows = head_and_rows(out)
    check("its types", types == ["i", "d", "d", "l", "l", "s"], types)
    check("its values in ISO 8601", rows == [
        [1, "2015-01-31", "2000-01-01", "2015-01-01T01:00:00", "2001-01-01T00:47:00", "first"],
        [2, "2016-12-25", "1998-06-12", "2016-02-29T23:59:59", "2001-01-01T13:05:00", "Jan 1, or so"],
        [3, None, "2003-03-03", None, "2020-12-31T00:00:00", None],
        [4, "2020-02-01", "1999-12-31", "2020-02-01T00:00:00", None, "03/04/2015"]], rows)
    for note in ['column "signed": dates written as %m/%d/%Y (row 1, "01/31/2015") -> d '
                 '(written as 2015-01-31)',
                 'column "opened": dates written as %b %d %Y (row 1, "Jan 1 2000") -> d '
                 '(written as 2000-01-01)',
                 'column "logged": timestamps written as %Y/%m/%d %H:%M:%S (row 1, '
                 '"2015/01/01 01:00:00") -> l (written as 2015-01-01T01:00:00)',
                 'column "seen": timestamps written as %Y/%m/%d %H:%M (row 1, '
                 '"2001/01/01 00:47") -> l (written as 2001-01-01T00:47:00)']:
        check("the note: " + note[:40], "  " + note + "\n" in err, err)
    # the same rows as JSON give the same document
    rc2, js, _ = run(cli, ["convert", src, os.path.join(tmp, "d.json")], tmp)
    rc3, out3, err3 = run(cli, ["convert", "d.json", "-"], tmp)
    check("as JSON: the same document", rc2 == 0 and rc3 == 0 and out3 == out, err3)
    # detection off, kind by kind
    rc, out, err = run(cli, ["convert", "--date-format", "iso", src, "-"], tmp)
    check("--date-format iso", rc == 0 and head_and_rows(out)[0] == ["i", "s", "s", "l", "l", "s"], out)
    rc, out, err = run(cli, ["convert", "--date-format", "iso", "--timestamp-format", "iso",
                             src, "-"], tmp)
    check("both iso: text as written", rc == 0 and head_and_rows(out)[0] == ["i"] + ["s"] * 5
          and head_and_rows(out)[1][0][1] == "01/31/2015", out)


def given(cli, tmp):
    path = os.path.join(tmp, "eu.csv")
    with open(path, "w") as f:
        f.write("id,day,at\n1,01.02.2015,01.02.2015 10:30\n2,03.04.2015,03.04.2015 23:00\n")
    rc, out, err = run(cli, ["convert", "--date-format", "%m/%d/%Y", "--date-format", "%d.%m.%Y",
                             "--timestamp-format", "%d.%m.%Y %H:%M", "eu.csv", "-"], tmp)
    check("repeated patterns: the first that reads every value",
          rc == 0 and head_and_rows(out) == (["i", "d", "l"], [
              [1, "2015-02-01", "2015-02-01T10:30:00"], [2, "2015-04-03", "2015-04-03T23:00:00"]]),
          (out, err))
    rc, out, err = run(cli, ["convert", "--schema", "day:d", "--date-format", "%d.%m.%Y",
                             "eu.csv", "-", "--to", "ndjson"], tmp)
    check("--schema day:d reads the pattern", rc == 0 and '"day":"2015-02-01"' in out, err)
    with open(path, "w") as f:
        f.write("id,day\n1,02.03.2015\n2,2015/01/31\n")
    rc, out, err = run(cli, ["convert", "--schema", "day:d", "--date-format", "%m.%d.%Y",
                             "eu.csv", "-"], tmp)
    check("a value that does not fit: located, the patterns named",
          rc == 1 and err == 'jalapenojson: eu.csv: row 2, column "day", byte 22: "2015/01/31" '
          'is not a date (expected YYYY-MM-DD or %m.%d.%Y; the schema says day:d)\n', (rc, err))
    with open(path, "w") as f:
        f.write("id,day\n1,02.30.2015\n")
    rc, out, err = run(cli, ["convert", "--schema", "day:d", "--date-format", "%m.%d.%Y",
                             "eu.csv", "-"], tmp)
    check("an invalid date: located, with the calendar's reason",
          rc == 1 and err == 'jalapenojson: eu.csv: row 1, column "day", byte 9: "02.30.2015" '
          'is not a date (February 2015 has 28 days; the schema says day:d)\n', (rc, err))
    rc, out, err = run(cli, ["convert", "--date-format", "%d/%q/%Y", "eu.csv", "-"], tmp)
    check("a pattern that does not compile: a usage error",
          rc == 2 and err == 'jalapenojson: eu.csv: the date format "%d/%q/%Y", at byte 3: '
          'unknown directive %q\n', (rc, err))
    rc, out, err = run(cli, ["convert"] + ["--date-format", "%Y"] * 17 + ["eu.csv", "-"], tmp)
    check("17 patterns: a usage error",
          rc == 2 and "--date-format may be given at most 16 times" in err, (rc, err))
    run(cli, ["convert", "eu.csv", "eu.jj"], tmp)
    rc, out, err = run(cli, ["convert", "--date-format", "%d.%m.%Y", "eu.jj", "-"], tmp)
    check("refused for a document input", rc == 2 and "--date-format" in err, (rc, err))


def main():
    cli = os.path.join(os.path.abspath(jjtest.build_dir(sys.argv)), "jalapenojson")
    with tempfile.TemporaryDirectory() as tmp:
        detected(cli, tmp)
        given(cli, tmp)
    return jjtest.report("cli_dates")


if __name__ == "__main__":
    sys.exit(main())
