"""test_convert.py BUILD_DIR — the converter against Python's json and csv.

Random tables are written as JSON (an array, pretty or compact, ASCII or
raw UTF-8), as NDJSON and as CSV (random delimiter) by Python's json and csv
modules, converted by the C converter (BUILD/tests/test_convert --convert),
and read back through the SQLite extension (CREATE VIRTUAL TABLE ... USING
jj_open).  For each, the inferred types must be the ones this file infers on
its own from the rules of SPEC.md's "Converting" (an independent
implementation of them), and every value read back must equal what Python
read from the input, with that type: integers as int, floats the same bits,
text the same string, dates and timestamps their text, booleans 0/1, JSON
kept as text equal as JSON, nested tables row by row.

Then JSONTestSuite's y_ files (see test_conformance.c for where the suite
is found) as values inside NDJSON: each value read back must equal what
json.loads reads.

Prints "convert_py: N passed, M failed".  JJ_SEED picks another seed.
"""
import csv
import json
import math
import os
import random
import re
import struct
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import jjtest
from jjtest import check, connect, extension_path, q

jjtest.LINE_AT_MOST = 3000  # a failure shows whole tables


# ----------------------------------------------------------------------
# The inference rules, from SPEC.md, written again
# ----------------------------------------------------------------------

INT_RE = re.compile(r"-?(0|[1-9][0-9]*)\Z")
NUM_RE = re.compile(r"-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?\Z")
DATE_RE = re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2})\Z")
TS_RE = re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2})T([0-9]{2}):([0-9]{2}):"
                   r"([0-9]{2})(\.[0-9]{1,9})?(Z|[+-]([0-9]{2}):([0-9]{2}))\Z")
LTS_RE = re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2})([T ])([0-9]{2}):([0-9]{2}):"
                    r"([0-9]{2})(\.[0-9]{1,9})?\Z")


def leap(y):
    return y % 4 == 0 and (y % 100 != 0 or y % 400 == 0)


def date_ok(y, m, d):
    days = [31, 29 if leap(y) else 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
    return 1 <= m <= 12 and 1 <= d <= days[m - 1]


def is_date(s):
    m = DATE_RE.match(s)
    return bool(m) and date_ok(*map(int, m.groups()))


def is_ts(s):
    m = TS_RE.match(s)
    if not m:
        return False
    y, mo, d, hh, mi, ss = map(int, m.groups()[:6])
    ok = date_ok(y, mo, d) and hh <= 23 and mi <= 59 and ss <= 59
    if m.group(8) != "Z":
        ok = ok and int(m.group(9)) <= 23 and int(m.group(10)) <= 59
    return ok


def lts_kind(s):
    """"lts" (the T form), "ltssp" (SQLite's space) or None."""
    m = LTS_RE.match(s)
    if not m:
        return None
    y, mo, d = map(int, m.groups()[:3])
    hh, mi, ss = map(int, m.groups()[4:7])
    if not (date_ok(y, mo, d) and hh <= 23 and mi <= 59 and ss <= 59):
        return None
    return "lts" if m.group(4) == "T" else "ltssp"


def exact_double(n):
    """An integer n is exactly a (finite) double."""
    try:
        return float(n) == n
    except OverflowError:
        return False


def number_kind(token):
    """The kind of a number as written (JSON grammar)."""
    if INT_RE.match(token):
        n = int(token)
        if -2**63 <= n < 2**63:
            return "int"
        return "big" if exact_double(n) else "bigx"
    return "float" if math.isfinite(float(token)) else "huge"


def text_kind(s, csv_booleans=False):
    if DATE_RE.match(s):
        return "date" if is_date(s) else "text"
    if is_ts(s):
        return "ts"
    if lts_kind(s):
        return lts_kind(s)
    if s in ("NaN", "Infinity", "-Infinity"):
        return "nans"
    if csv_booleans and s in ("true", "false"):
        return "bool"
    return "text"


NUMBERS = {"int", "big", "bigx", "float", "huge"}


def decide(kinds, ints):
    """The type of a column from the kinds of its values (SPEC.md)."""
    if not kinds:
        return "s"
    if kinds == {"bool"}:
        return "b"
    if kinds == {"int"}:
        return "i"
    if kinds == {"date"}:
        return "d"
    if kinds == {"ts"}:
        return "t"
    if kinds and kinds <= {"lts", "ltssp"}:
        return "l"
    if kinds & NUMBERS and kinds <= NUMBERS | {"nans"}:
        if kinds & {"huge", "bigx"}:
            return "s"
        if "int" in kinds and not all(exact_double(n) for n in ints):
            return "s"
        return "f"
    if "table" in kinds and kinds <= {"table", "empty"}:
        return "table"
    if kinds & {"json", "empty", "table"}:
        return "j"  # every value a JSON value, kept as JSON
    return "s"


# ----------------------------------------------------------------------
# Random data
# ----------------------------------------------------------------------

TEXTS = ["a", "Tromsø", "名前", "😀", "say \"hi\"", "a,b", "x;y", "p|q",
         "tab\there", "line\nbreak", "cr\r\nlf", "back\\slash", " pad ",
         "é", "\u2028", "nul\u0000byte", "'", "NaN-ish", "true", "0.5x"]


def rand_text(rnd):
    return "".join(rnd.choice(TEXTS) for _ in range(rnd.randrange(1, 4)))


def rand_date(rnd):
    y, m = rnd.randrange(1, 10000), rnd.randrange(1, 13)
    d = rnd.randrange(1, 29)
    return "%04d-%02d-%02d" % (y, m, d)


def rand_ts(rnd):
    frac = "" if rnd.random() < 0.5 else "." + "".join(
        rnd.choice("0123456789") for _ in range(rnd.randrange(1, 10)))
    zone = rnd.choice(["Z", "+05:30", "-08:00", "+00:00"])
    return "%sT%02d:%02d:%02d%s%s" % (rand_date(rnd), rnd.randrange(24),
                                      rnd.randrange(60), rnd.randrange(60),
                                      frac, zone)


def rand_lts(rnd):
    frac = "" if rnd.random() < 0.5 else "." + "".join(
        rnd.choice("0123456789") for _ in range(rnd.randrange(1, 10)))
    return "%s%s%02d:%02d:%02d%s" % (rand_date(rnd), rnd.choice("T "), rnd.randrange(24),
                                     rnd.randrange(60), rnd.randrange(60), frac)


def rand_float(rnd):
    while True:
        f = struct.unpack("<d", struct.pack("<Q", rnd.getrandbits(64)))[0]
        if math.isfinite(f):
            return f if rnd.random() < 0.5 else round(f % 1000, 2)


# Each column kind makes values (None for null, or a Python value).
def make_column(rnd, kind, scalar_only):
    if kind == "int":
        return lambda: rnd.choice([rnd.randrange(-2**63, 2**63), rnd.randrange(-9, 10), 0])
    if kind == "bigint":
        return lambda: rnd.choice([2**64, 2**70 + 2**20, -(2**65), 2**64 + 1, 5])
    if kind == "float":
        return lambda: rand_float(rnd)
    if kind == "intfloat":
        return lambda: rnd.choice([rnd.randrange(-1000, 1000), rand_float(rnd)])
    if kind == "bool":
        return lambda: rnd.random() < 0.5
    if kind == "text":
        return lambda: rand_text(rnd)
    if kind == "date":
        return lambda: rand_date(rnd)
    if kind == "ts":
        return lambda: rand_ts(rnd)
    if kind == "lts":
        return lambda: rand_lts(rnd)
    if kind == "tslts":
        return lambda: rnd.choice([rand_ts(rnd), rand_lts(rnd)])
    if kind == "mixed":
        return lambda: rnd.choice([1, 2.5, "x", rand_date(rnd)] + ([] if scalar_only else [True]))
    if kind == "baddate":
        return lambda: rnd.choice([rand_date(rnd), "2023-02-29"])
    if kind == "nested":
        return lambda: [{"sku": rand_text(rnd), "qty": rnd.randrange(100)}
                        for _ in range(rnd.randrange(0, 3))]
    if kind == "json":
        return lambda: rnd.choice([[1, "a", None], {"k": [True, 2.5]}, [], {"a": {"b": "c"}}])
    return lambda: None  # "null"


JSON_KINDS = ["int", "bigint", "float", "intfloat", "bool", "text", "date",
              "ts", "lts", "tslts", "mixed", "baddate", "nested", "json", "null"]
CSV_KINDS = ["int", "float", "intfloat", "bool", "text", "date", "ts",
             "lts", "tslts", "mixed", "baddate", "null"]


def random_table(rnd, kinds_from, scalar_only, missing):
    ncols = rnd.randrange(1, 7)
    names = []
    while len(names) < ncols:
        n = rnd.choice(["id", "név", "price", "a b", "q\"t", "😀", "x,y",
                        "k%d" % rnd.randrange(100)])
        if n.lower() not in (m.lower() for m in names):
            names.append(n)
    kinds = [rnd.choice(kinds_from) for _ in names]
    makers = [make_column(rnd, k, scalar_only) for k in kinds]
    rows = []
    for _ in range(rnd.randrange(1, 40)):
        row = {}
        for n, mk in zip(names, makers):
            r = rnd.random()
            if missing and r < 0.1:
                continue  # a missing key
            row[n] = None if r < 0.2 else mk()
        rows.append(row)
    return names, rows


# ----------------------------------------------------------------------
# Expected values, from what Python reads
# ----------------------------------------------------------------------

def json_kind(v, tokens):
    """Kind of a Python JSON value; its number token as json.dumps wrote it."""
    if v is None:
        return None
    if isinstance(v, bool):
        return "bool"
    if isinstance(v, (int, float)):
        return number_kind(json.dumps(v))
    if isinstance(v, str):
        return text_kind(v)
    if isinstance(v, list):
        if not v:
            return "empty"
        if all(isinstance(x, dict) for x in v) and any(v):
            return "table"
        return "json"
    return "json"


def infer_json(names, rows):
    """Expected type per column (and nested schemas) for JSON rows."""
    types = {}
    for n in names:
        vals = [r.get(n) for r in rows]
        kinds = {k for k in (json_kind(v, None) for v in vals) if k}
        ints = [v for v in vals if isinstance(v, int) and not isinstance(v, bool)
                and json_kind(v, None) == "int"]
        t = decide(kinds, ints)
        if t == "table":
            sub_rows = [x for v in vals if isinstance(v, list) for x in v]
            sub_names = []
            for x in sub_rows:
                for k in x:
                    if k not in sub_names:
                        sub_names.append(k)
            if not sub_names:
                t = "j"
            else:
                t = ("table", sub_names, infer_json(sub_names, sub_rows))
        types[n] = t
    return types


def compact(v):
    return json.dumps(v, separators=(",", ":"), ensure_ascii=False)


def expect_json_value(v, t):
    """What SQLite should give for JSON value v in a column of type t."""
    if v is None:
        return None
    if t == "i":
        return v
    if t == "f":
        if isinstance(v, str):
            return None if v == "NaN" else float(v)
        return float(json.dumps(v))
    if t == "b":
        return 1 if v else 0
    if t in ("d", "t"):
        return v
    if t == "l":  # SQLite's space written as T
        return v[:10] + "T" + v[11:]
    if t == "j":
        return ("json", v)
    if isinstance(t, tuple):
        return ("table", [[expect_json_value(x.get(k), t[2][k]) for k in t[1]]
                          for x in v])
    # text
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return json.dumps(v)
    if isinstance(v, str):
        return v
    return ("json", v)


def same(got, want):
    if isinstance(want, tuple) and want[0] == "json":
        try:
            return json.loads(got) == want[1]
        except (TypeError, ValueError):
            return False
    if isinstance(want, tuple) and want[0] == "table":
        try:
            doc = json.loads(got)
        except (TypeError, ValueError):
            return False
        return len(doc["rows"]) == len(want[1]) and all(
            len(r) == len(w) and all(same_plain(a, b) for a, b in zip(r, w))
            for r, w in zip(doc["rows"], want[1]))
    return same_plain(got, want)


def same_plain(got, want):
    if isinstance(want, float) and isinstance(got, float):
        return struct.pack("<d", got) == struct.pack("<d", want)
    if isinstance(want, bool) or isinstance(got, bool):
        return int(got) == int(want) if got is not None else want is None
    return type(got) == type(want) and got == want


# ----------------------------------------------------------------------
# Running the converter and reading back
# ----------------------------------------------------------------------

def convert(build, path, out, args=()):
    exe = os.path.join(build, "tests", "test_convert")
    r = subprocess.run([exe, "--convert", path, out] + list(args),
                       capture_output=True, text=True)
    return r.returncode, r.stderr


def read_back(conn, out):
    conn.execute("DROP TABLE IF EXISTS temp.back")
    # the document's text of timestamps, as the input wrote them
    conn.execute("CREATE VIRTUAL TABLE temp.back USING jj_open(%s, timestamps=as_written)" % q(out))
    cols = [r[1] for r in conn.execute("SELECT * FROM pragma_table_info('back')")]
    names = ", ".join('"%s"' % c.replace('"', '""') for c in cols)
    rows = conn.execute("SELECT %s FROM back ORDER BY rowid" % names).fetchall()
    return cols, rows


def header_types(out):
    with open(out, encoding="utf-8") as f:
        doc = json.load(f)
    return doc["columns"], doc["types"]


def type_matches(got, want):
    if isinstance(want, tuple):
        return (isinstance(got, dict) and got["columns"] == want[1] and
                all(type_matches(g, want[2][n]) for g, n in zip(got["types"], want[1])))
    return got == want


def one_json(build, conn, rnd, case, tmp):
    names, rows = random_table(rnd, JSON_KINDS, False, True)
    form = case % 3
    path = os.path.join(tmp, "in%d.json" % case)
    ascii_ = rnd.random() < 0.5
    with open(path, "w", encoding="utf-8") as f:
        if form == 0:
            f.write(json.dumps(rows, ensure_ascii=ascii_,
                               indent=rnd.choice([None, 2])))
        else:
            for r in rows:
                f.write(json.dumps(r, ensure_ascii=ascii_) + "\n")
    want_types = infer_json(names, rows)
    # the columns in the order their keys first appear (a key missing from
    # the first rows comes after those they have)
    seen = list(dict.fromkeys(n for r in rows for n in r))
    out = path + ".jj"
    rc, err = convert(build, path, out)
    if not check("json case %d converts" % case, rc == 0, err):
        return
    cols, types = header_types(out)
    letters = [want_types[n] for n in seen]
    check("json case %d columns in first-appearance order" % case,
          cols == seen, "%r %r" % (cols, seen))
    check("json case %d types" % case,
          len(types) == len(letters) and all(type_matches(g, w) for g, w in zip(types, letters)),
          "got %r want %r\n%s" % (types, letters, err))
    _, got = read_back(conn, out)
    ok = len(got) == len(rows)
    bad = None
    for i, (g, r) in enumerate(zip(got, rows)):
        for j, n in enumerate(seen):
            w = expect_json_value(r.get(n), want_types[n])
            if not same(g[j], w):
                ok, bad = False, (i + 1, n, g[j], w)
                break
        if not ok:
            break
    check("json case %d values" % case, ok, repr(bad))


def csv_kind(s, null):
    if s == null:
        return None
    if INT_RE.match(s) or NUM_RE.match(s):
        return number_kind(s)
    return text_kind(s, True)


def one_csv(build, conn, rnd, case, tmp):
    names, rows = random_table(rnd, CSV_KINDS, True, False)
    delim = rnd.choice([",", ";", "\t", "|"])
    path = os.path.join(tmp, "in%d.csv" % case)

    def cell(v):
        if v is None:
            return ""
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, float):
            return repr(v)
        return str(v)
    with open(path, "w", encoding="utf-8", newline="") as f:
        w = csv.writer(f, delimiter=delim,
                       lineterminator=rnd.choice(["\n", "\r\n"]))
        w.writerow(names)
        for r in rows:
            w.writerow([cell(r.get(n)) for n in names])
    # what Python's csv reads: an empty field is null, except in a file of
    # one column, where csv.writer quotes it ("", so that the line is not
    # blank), which is the empty text (SPEC 10.3)
    with open(path, encoding="utf-8", newline="") as f:
        read = list(csv.reader(f, delimiter=delim))
    header, data = read[0], read[1:]
    data = [r for r in data if r != [] or len(header) == 1]
    null = None if len(header) == 1 else ""
    want = {}
    for j, n in enumerate(header):
        vals = [r[j] if r else "" for r in data]
        kinds = {k for k in (csv_kind(v, null) for v in vals) if k}
        ints = [int(v) for v in vals if v and INT_RE.match(v) and csv_kind(v, "") == "int"]
        want[n] = decide(kinds, ints)
    out = path + ".jj"
    # one column: the delimiter cannot be told from the data (a value may
    # hold any of them unquoted), so it is given
    args = ["--flags", "1"] + (["--delimiter", delim] if len(names) == 1 else [])
    rc, err = convert(build, path, out, args)
    if not check("csv case %d converts" % case, rc == 0, err):
        return
    cols, types = header_types(out)
    check("csv case %d header" % case, cols == header, "%r %r" % (cols, header))
    check("csv case %d types" % case, types == [want[n] for n in header],
          "got %r want %r" % (types, [want[n] for n in header]))
    _, got = read_back(conn, out)
    ok = len(got) == len(data)
    bad = None
    for i, (g, r) in enumerate(zip(got, data)):
        for j, n in enumerate(header):
            s = r[j] if r else ""
            t = want[n]
            w = None if s == null else (
                int(s) if t == "i" else
                (None if s == "NaN" else float(s)) if t == "f" else
                (1 if s == "true" else 0) if t == "b" else
                s[:10] + "T" + s[11:] if t == "l" else s)
            if not same_plain(g[j], w):
                ok, bad = False, (i + 1, n, g[j], w)
                break
        if not ok:
            break
    check("csv case %d values" % case, ok, repr(bad))


def suite_dir():
    here = os.path.dirname(os.path.abspath(__file__))
    for d in (os.environ.get("JJ_JSONTESTSUITE"),
              os.path.join(here, "..", "..", "..", "shared", "conformance",
                           "JSONTestSuite", "test_parsing")):
        if d and os.path.isdir(d):
            return d
    return None


def y_files(build, conn, tmp):
    d = suite_dir()
    if not d:
        if os.environ.get("CI") in ("true", "1"):
            check("JSONTestSuite present under CI=true", False,
                  "set JJ_JSONTESTSUITE=/path/to/JSONTestSuite/test_parsing")
        else:
            print("convert_py: SKIPPED \u2014 JSONTestSuite not found; set "
                  "JJ_JSONTESTSUITE=/path/to/JSONTestSuite/test_parsing")
        return
    for name in sorted(os.listdir(d)):
        if not name.startswith("y_"):
            continue
        with open(os.path.join(d, name), "rb") as f:
            raw = f.read()
        text = raw.decode("utf-8")
        path = os.path.join(tmp, name + ".ndjson")
        with open(path, "wb") as f:
            f.write(b'{"v":' + raw + b'}\n')
        out = path + ".jj"
        rc, err = convert(build, path, out)
        if not check("y_ %s converts" % name, rc == 0, err):
            continue
        want = json.loads(text)
        t = json_kind(want, None)
        letter = decide({t} if t else set(), [want] if t == "int" else [])
        _, got = read_back(conn, out)
        w = expect_json_value(want, letter)
        if isinstance(w, str) and isinstance(want, (list, dict)):
            w = ("json", want)
        check("y_ %s value" % name, len(got) == 1 and same(got[0][0], w),
              "%r %r" % (got, w))


def main():
    build = jjtest.build_dir(sys.argv)
    seed = int(os.environ.get("JJ_SEED", "20241201"))
    rnd = random.Random(seed)
    conn = connect(extension_path(build))
    keep = os.environ.get("JJ_KEEP")  # a directory to keep the files in
    with tempfile.TemporaryDirectory() as tmp:
        tmp = keep or tmp
        for case in range(150):
            one_json(build, conn, rnd, case, tmp)
        for case in range(150):
            one_csv(build, conn, rnd, case, tmp)
        y_files(build, conn, tmp)
    conn.close()
    return jjtest.report("convert_py")


if __name__ == "__main__":
    sys.exit(main())
