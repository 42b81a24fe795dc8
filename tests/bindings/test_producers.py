#!/usr/bin/env python3
"""test_producers.py BUILD_DIR — one differential test across every producer
of documents: the same rows give the same document, byte for byte, and the
same decisions (notes), whichever way they come in.

The rows are the fixtures of tests/data/ (real data's shapes: sparse keys,
objects, nested tables, NDJSON weather records, GeoJSON-like features,
mixed numbers, dates and timestamps (zoned and local, T or SQLite's space)
as text, a cars-like file, a CSV of events, a CSV of dates in other
spellings) and 40 random tables from a fixed seed.  Each goes through:
  cli json, cli ndjson, cli csv   `jalapenojson convert` (notes: stderr)
  sql jj_from_json, jj_from_csv   the converter in SQL (notes: jj_notes())
  sql jj_group, jj_export         SQLite values (a table loaded with them)
  python encode, dump             Python values (InferenceWarning); encode
                                  also with dates and timestamps as
                                  datetime.date and aware datetime
  python from_json, from_csv      the converter in Python
  js encode, fromJSON, fromCSV    the WebAssembly module under node (onNote)
The Python and JS producers run in child processes (producers_child.py in
BUILD/venv's Python, producers_child.mjs under node).
Each row set x producer is one case, compared with the first producer that
can take the rows.  Where a host cannot express a value (SQLite has no
nested tables or booleans, CSV has no types, JS has one number type) the
pair is excluded by name with the reason, and the exclusions are counted.
JJ_QUICK=1 (tests/run.sh --quick) leaves out the JS cases, saying so;
otherwise node and js/dist (make js) are required: a missing one fails.
Prints "producers: N passed, M failed".
"""
import base64
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import jjtest
from jjtest import check, connect, extension_path

DATA = os.path.join(jjtest.ROOT, "tests", "data")
FIXTURES = ("countries.json", "users.json", "orders.json", "weather.ndjson", "features.json",
            "measurements.json", "calendar.json", "cars.json", "events.csv",
            "dates_spelled.csv")
# Fixtures with dates and timestamps in other spellings than ISO 8601: the
# converter reads them as dates (docs/convert.md, "Dates and timestamps in
# other spellings"), the row builder keeps a host's text as text.
SPELLED = ("dates_spelled.csv",)
BUILDER = ("sql jj_group", "sql jj_export", "python encode", "python encode, dates as objects",
           "python dump", "js encode")
NUMBER = re.compile(r"-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?")
INT64 = (-2 ** 63, 2 ** 63 - 1)
PRODUCERS = ("cli json", "cli ndjson", "cli csv", "sql jj_from_json", "sql jj_from_csv",
             "sql jj_group", "sql jj_export", "python encode", "python encode, dates as objects",
             "python dump",
             "python from_json", "python from_csv", "js encode", "js fromJSON", "js fromCSV")


# ---- the rows in each host's terms ----

def walk(rows):
    """Every value of the rows, nested tables' rows included, with whether
    it sits inside a JSON value (an object or an array that is not rows)."""
    for row in rows:
        for v in row.values():
            yield from walk_value(v, False)


def is_table(v):
    return isinstance(v, list) and all(isinstance(x, dict) for x in v)


def walk_value(v, inside):
    yield v, inside
    if is_table(v) and not inside:
        for row in v:
            for x in row.values():
                yield from walk_value(x, False)
    elif isinstance(v, (list, dict)):
        for x in (v.values() if isinstance(v, dict) else v):
            yield from walk_value(x, True)


def columns_of(rows):
    """Top-level names in order of first appearance."""
    seen = {}
    for row in rows:
        for k in row:
            seen.setdefault(k, None)
    return list(seen)


def csv_field(v):
    """v as a CSV field: null empty, text quoted when it must be."""
    if v is None:
        return ""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return json.dumps(v)
    if v == "" or re.search(r'[,"\r\n\t;|]', v):
        return '"' + v.replace('"', '""') + '"'
    return v


def csv_text(rows):
    cols = columns_of(rows)
    lines = [",".join(csv_field(c) for c in cols)]
    for row in rows:
        lines.append(",".join(csv_field(row.get(c)) for c in cols))
    return "\n".join(lines) + "\n"


def csv_reason(rows, booleans):
    if not columns_of(rows):
        return "CSV has a header: no columns is not CSV"
    for v, _ in walk(rows):
        if isinstance(v, (list, dict)):
            return "CSV has no nested tables, arrays or objects"
        if isinstance(v, bytes):
            return "CSV has no bytes"
        if isinstance(v, str) and NUMBER.fullmatch(v):
            return "CSV has no types: the text %r reads as a number" % v
        if isinstance(v, str) and booleans and v in ("true", "false"):
            return "CSV with booleans: the text %r reads as a boolean" % v
    return None


def json_reason(rows):
    if any(isinstance(v, bytes) for v, _ in walk(rows)):
        return "JSON has no bytes"
    return None


def sql_reason(rows, producer):
    if not columns_of(rows):
        return "a query and an aggregate have at least one column"
    if producer == "sql jj_group" and not rows:
        return "an aggregate over no rows gives NULL, not a document"
    if producer == "sql jj_group" and any(":" in c for c in columns_of(rows)):
        return "jj_group reads a type after a name's last colon"
    for v, _ in walk(rows):
        if is_table(v):
            return "SQLite has no nested tables as values (a jj column takes a typed document)"
        if isinstance(v, (list, dict)):
            return "SQLite has no arrays or objects: their JSON text is TEXT, another kind"
        if isinstance(v, bool):
            return "SQLite has no booleans (true is the INTEGER 1)"
        if isinstance(v, int) and not INT64[0] <= v <= INT64[1]:
            return "SQLite's INTEGER has 64 bits: %d does not fit" % v
    return None


def integer_like(k):
    return re.fullmatch(r"0|[1-9][0-9]*", k) is not None and int(k) < 2 ** 32 - 1


def js_reason(rows):
    for v, inside in walk(rows):
        if isinstance(v, float) and v == v and v not in (float("inf"), float("-inf")):
            # a safe integer is an integer in JS; -0 and larger ones are floats
            if v == int(v) and str(v) != "-0.0" and abs(v) <= 2 ** 53 - 1:
                return "JS has one number type: %r is the integer %d" % (v, int(v))
            if inside and (abs(v) < 1e-4 or abs(v) >= 1e16):
                return "JSON.stringify spells %r in an object otherwise" % v
        if inside and isinstance(v, int) and not isinstance(v, bool) and abs(v) > 2 ** 53 - 1:
            return "JS numbers round %d in an object" % v
        if isinstance(v, dict) and any(integer_like(k) for k in v):
            return "JS objects put integer-like keys first"
    for row in rows:
        if any(integer_like(k) for k in row):
            return "JS objects put integer-like keys first"
    return None


def reason(case, producer):
    """Why the producer cannot take the case's rows, or None."""
    rows = case["rows"]
    if producer in BUILDER and case["name"] in SPELLED:
        return ("the row builder reads ISO 8601 dates only: a host's text such as "
                "01/31/2015 stays text, which the converter reads as a date")
    if producer == "cli ndjson" and not rows:
        return "NDJSON of no rows is an empty file, another input"
    if producer.startswith(("python encode", "python dump")) and not rows:
        return "no rows: the module asks for columns= (it can write a table without rows)"
    if producer in ("cli json", "cli ndjson", "sql jj_from_json", "python from_json",
                    "js fromJSON"):
        return json_reason(rows)
    if producer.endswith("csv") or producer.endswith("CSV"):
        return case["csv_reason"]
    if producer in ("sql jj_group", "sql jj_export"):
        return sql_reason(rows, producer)
    if producer == "js encode":
        return js_reason(rows)
    return None


def tagged(v):
    """v for a child process's JSON: bytes and integers JS cannot hold
    tagged."""
    if isinstance(v, bytes):
        return {"$bytes": base64.b64encode(v).decode()}
    if isinstance(v, int) and not isinstance(v, bool) and abs(v) > 2 ** 53 - 1:
        return {"$bigint": str(v)}
    if isinstance(v, list) and is_table(v):
        return [{k: tagged(x) for k, x in r.items()} for r in v]
    return v


# ---- the cases: fixtures and random tables ----

def csv_rows(text):
    """A CSV file's rows as the converter reads them (booleans on): numbers,
    booleans, null for an empty field, text."""
    import csv
    import io
    records = list(csv.reader(io.StringIO(text, newline="")))
    head, rows = records[0], []
    for rec in records[1:]:
        row = {}
        for k, f in zip(head, rec):
            if f == "":
                v = None
            elif f in ("true", "false"):
                v = f == "true"
            elif NUMBER.fullmatch(f):
                v = json.loads(f)
                assert json.dumps(v) == f, "%s: spell numbers as they are printed" % f
            else:
                v = f
            row[k] = v
        rows.append(row)
    return rows


def make_case(name, rows, json_text=None, ndjson_text=None, csv_src=None):
    booleans = any(isinstance(v, bool) for v, _ in walk(rows))
    why = None if csv_src is not None else csv_reason(rows, booleans)
    bad = json_reason(rows)
    return {
        "name": name, "rows": rows, "booleans": booleans,
        "json": json_text if json_text is not None else None if bad else
        json.dumps(rows, ensure_ascii=False),
        "ndjson": ndjson_text if ndjson_text is not None else None if bad else
        "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows),
        "csv": csv_src if csv_src is not None else None if why else csv_text(rows),
        "csv_reason": why,
    }


def fixture_cases():
    cases = []
    for f in FIXTURES:
        with open(os.path.join(DATA, f), encoding="utf-8") as fh:
            text = fh.read()
        if f.endswith(".csv"):
            cases.append(make_case(f, csv_rows(text), csv_src=text))
        elif f.endswith(".ndjson"):
            rows = [json.loads(line) for line in text.splitlines() if line.strip()]
            cases.append(make_case(f, rows, ndjson_text=text))
        else:
            cases.append(make_case(f, json.loads(text), json_text=text))
    return cases


NAMES = ["id", "name", "Name", "NAME", "größe", "Größe", "日本", "naïve", "a b", 'say "hi"',
         "x", "X", "value", "when", "price", "tags", "Ω", "emoji😀", "back\\slash", "n-1"]
TEXTS = ["", "a", "Oslo", "Tromsø", "日本語", "😀", "tab\there", "line\nbreak", 'q"uote',
         "back\\slash", "\x01ctl", "\u2028", "007", "NaN", "true", "x" * 60, " padded ",
         "2024-02-30", "1.5e3", "-", "{not json}"]
KINDS = ("int", "float", "int_float", "text", "date", "ts", "date_ts", "bool", "mixed",
         "bytes", "table", "object", "big", "nulls", "int", "float", "text", "date", "table",
         "whole_float", "local_ts", "local_mixed")
FLAT = ("int", "float", "int_float", "text", "date", "ts", "date_ts", "nulls", "flat_mixed",
        "local_ts", "local_mixed")


def rand_value(rng, kind, row):
    if kind == "int":
        return rng.choice([0, -1, 7, rng.randrange(-10 ** 6, 10 ** 6), 2 ** 63 - 1, -2 ** 63])
    if kind == "float":
        x = round(rng.uniform(-1e4, 1e4), rng.randrange(1, 6))
        if x == int(x):
            x += 0.5
        return rng.choice([x, x, 1e-05, 1.5e+300, -0.0, 0.1])
    if kind == "int_float":  # integers first, then floats
        return row * 3 if row < 3 else row + 0.25
    if kind == "text":
        return rng.choice(TEXTS)
    if kind == "date":
        return "%04d-%02d-%02d" % (rng.randrange(1, 10000), rng.randrange(1, 13), rng.randrange(1, 29))
    if kind == "ts":
        return "2024-%02d-%02dT%02d:%02d:%02d%s" % (
            rng.randrange(1, 13), rng.randrange(1, 29), rng.randrange(24), rng.randrange(60),
            rng.randrange(60), rng.choice(["Z", "+05:30", ".125Z", "-01:00", ".123456789Z"]))
    if kind == "date_ts":
        return rand_value(rng, rng.choice(["date", "ts"]), row)
    if kind == "local_ts":  # a timestamp without zone, T or SQLite's space
        return "%04d-%02d-%02d%s%02d:%02d:%02d%s" % (
            rng.randrange(1, 10000), rng.randrange(1, 13), rng.randrange(1, 29),
            rng.choice("T "), rng.randrange(24), rng.randrange(60), rng.randrange(60),
            rng.choice(["", "", ".5", ".125", ".123456789"]))
    if kind == "local_mixed":  # local timestamps with dates or zoned ones
        return rand_value(rng, rng.choice(["local_ts", "local_ts", "date", "ts"]), row)
    if kind == "bool":
        return rng.random() < 0.5
    if kind in ("mixed", "flat_mixed"):
        return rand_value(rng, rng.choice(["int", "float", "text", "date"] +
                                          ["bool"] * (kind == "mixed")), row)
    if kind == "bytes":
        return bytes(rng.randrange(256) for _ in range(rng.randrange(0, 6)))
    if kind == "table":
        return [{k: rand_value(rng, rng.choice(["int", "text", "date"]), row)
                 for k in rng.sample(["sku", "qty", "Qty", "when"], rng.randrange(0, 4))}
                for _ in range(rng.randrange(0, 3))] or rng.choice([[], [{"sku": "z"}]])
    if kind == "object":
        return rng.choice([{"a": 1, "b": [1, "x", None]}, {"nested": {"deep": True}}, [1, 2, 3],
                           ["a", {"b": "ø"}], {}, [], {"k": "line\nbreak"}])
    if kind == "big":
        return rng.choice([2 ** 64, -2 ** 70, 2 ** 53 + 1, 12])
    if kind == "whole_float":
        return rng.choice([2.0, -3.0, 0.5])
    return None


def random_cases(n, seed=20261206):
    rng = random.Random(seed)
    cases = []
    for i in range(n):
        # two tables without rows, one of rows without keys, one column in 7
        nrows = 0 if i % 20 == 4 else rng.randrange(1, 9)
        ncols = 0 if i == 17 or nrows == 0 else 1 if i % 6 == 3 else rng.randrange(1, 7)
        names = rng.sample(NAMES, ncols)
        # every third table of values SQLite and CSV hold too
        kinds = [rng.choice(FLAT if i % 3 == 0 else KINDS) for _ in names]
        present = [rng.choice([1.0, 1.0, 0.7, 0.4]) for _ in names]
        lead = [rng.choice([0, 0, 1, 3]) for _ in names]  # nulls first
        rows = []
        for r in range(nrows):
            row = {}
            order = list(range(ncols))
            if rng.random() < 0.3:
                rng.shuffle(order)
            for c in order:
                if rng.random() >= present[c]:
                    continue  # a sparse key
                if kinds[c] == "bytes":  # bytes mix with nothing but nulls
                    row[names[c]] = rand_value(rng, "bytes", r) if rng.random() < 0.8 else None
                    continue
                null = r < lead[c] or rng.random() < 0.1
                row[names[c]] = None if null else rand_value(rng, kinds[c], r)
            rows.append(row)
        label = ", ".join(kinds) if ncols else "rows without keys" if rows else "no rows"
        cases.append(make_case("random %d (%s)" % (i, label), rows))
    return cases


# ---- the producers ----

def cli(build, tmp, text, suffix, args=()):
    """`jalapenojson convert`: the document and the lines under
    "decisions:" on stderr."""
    src, out = os.path.join(tmp, "in" + suffix), os.path.join(tmp, "out.jj")
    with open(src, "w", encoding="utf-8", newline="") as f:
        f.write(text)
    r = subprocess.run([os.path.join(build, "jalapenojson"), "convert", *args, src, out],
                       capture_output=True, text=True)
    if r.returncode:
        return {"error": r.stderr.strip()}
    lines = r.stderr.split("\n")  # not splitlines(): U+2028 is no line end here
    at = lines.index("decisions:") + 1 if "decisions:" in lines else len(lines)
    with open(out, encoding="utf-8", newline="") as f:
        return {"doc": f.read(), "notes": [x[2:] for x in lines[at:] if x.startswith("  ")]}


def sql_notes(conn):
    text = conn.execute("SELECT jj_notes()").fetchone()[0]
    # the prefix a host adds to a sentence, if any
    return [re.sub(r"^jj_\w+: ", "", x) for x in text.split("\n")] if text else []


def sql_run(conn, tmp, case, producer):
    rows, cols = case["rows"], columns_of(case["rows"])
    try:
        if producer == "sql jj_from_json":
            doc = conn.execute("SELECT jj_from_json(?)", (case["json"],)).fetchone()[0]
        elif producer == "sql jj_from_csv":
            doc = conn.execute("SELECT jj_from_csv(?, 'delimiter=,', ?)",
                               (case["csv"], "booleans=%d" % case["booleans"])).fetchone()[0]
        else:
            conn.execute("DROP TABLE IF EXISTS t")
            conn.execute("CREATE TABLE t(%s)" % ", ".join("c%d" % i for i in range(len(cols))))
            conn.executemany("INSERT INTO t VALUES (%s)" % ", ".join("?" * len(cols)),
                             [tuple(r.get(c) for c in cols) for r in rows])
            if producer == "sql jj_group":
                args = ", ".join("?, c%d" % i for i in range(len(cols)))
                doc = conn.execute("SELECT jj_group(%s) FROM (SELECT * FROM t ORDER BY rowid)"
                                   % args, cols).fetchone()[0]
            else:
                path = os.path.join(tmp, "export.jj")
                query = "SELECT %s FROM t ORDER BY rowid" % ", ".join(
                    'c%d AS "%s"' % (i, c.replace('"', '""')) for i, c in enumerate(cols))
                conn.execute("SELECT jj_export(?, ?)", (path, query)).fetchone()
                with open(path, encoding="utf-8", newline="") as f:
                    doc = f.read()
    except jjtest.sqlite3.Error as e:
        return {"error": str(e)}
    return {"doc": doc, "notes": sql_notes(conn)}


def child(tmp, cmd, suffix, cases, producers):
    """Run producers_child.py or .mjs over the cases' rows with the given
    producers; a list of {producer: result}, or an error text."""
    script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "producers_child" + suffix)
    manifest = os.path.join(tmp, "manifest.json")
    with open(manifest, "w", encoding="utf-8") as f:
        json.dump([{"rows": [{k: tagged(v) for k, v in r.items()} for r in c["rows"]],
                    "json": c["json"], "csv": c["csv"], "booleans": c["booleans"],
                    "producers": [p for p in producers if p in c["todo"]]} for c in cases],
                  f, ensure_ascii=False)
    env = dict(os.environ)
    if suffix == ".mjs":  # node is not instrumented
        for k in ("LD_PRELOAD", "ASAN_OPTIONS", "UBSAN_OPTIONS"):
            env.pop(k, None)
    r = subprocess.run(cmd + [script, manifest] +
                       ([tmp] if suffix == ".py" else
                        ["file://" + os.path.join(jjtest.ROOT, "js", "jalapenojson.js")]),
                       capture_output=True, text=True, env=env, cwd=tmp)
    if r.returncode:
        return "%s exited %d: %s" % (cmd[0], r.returncode, r.stderr.strip()[-2000:])
    return json.loads(r.stdout)


def message(r):
    """A failure's message without the prefix its host adds."""
    return re.sub(r"^(jalapenojson: \S+: |jj_\w+: )", "", r["error"])


def differs(want, got):
    """What differs between two results, in a line or two: documents and
    notes, or when one fails, the messages."""
    if "error" in want or "error" in got:
        if "error" in want and "error" in got and message(want) == message(got):
            return ""
        return "error: %r vs %r" % (want.get("error"), got.get("error"))
    out = []
    if want["doc"] != got["doc"]:
        a, b = want["doc"].split("\n"), got["doc"].split("\n")
        i = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
        out.append("document line %d: %r vs %r" % (i + 1, a[i] if i < len(a) else None,
                                                    b[i] if i < len(b) else None))
    if want["notes"] != got["notes"]:
        out.append("notes: %r vs %r" % (want["notes"], got["notes"]))
    return "; ".join(out)


def main():
    build = os.path.abspath(jjtest.build_dir(sys.argv))
    jjtest.LINE_AT_MOST = 1500
    cases = fixture_cases() + random_cases(40)
    quick = bool(os.environ.get("JJ_QUICK"))
    excluded = []
    for c in cases:
        c["todo"] = []
        for p in PRODUCERS:
            if quick and p.startswith("js "):
                continue
            why = reason(c, p)
            if why:
                excluded.append((c["name"], p, why))
            else:
                c["todo"].append(p)
    for name, p, why in excluded:
        print("  excluded: %s / %s: %s" % (name, p, why))
    results = {c["name"]: {} for c in cases}
    tmp = tempfile.mkdtemp(prefix="jj-producers-")
    try:
        conn = connect(extension_path(build))
        for c in cases:
            for p in c["todo"]:
                if p.startswith("cli "):
                    fmt = p[4:]
                    args = ["-d", ",", *(["--csv-booleans"] if c["booleans"] else [])] \
                        if fmt == "csv" else []
                    results[c["name"]][p] = cli(build, tmp, c[fmt], "." + fmt, args)
                elif p.startswith("sql "):
                    results[c["name"]][p] = sql_run(conn, tmp, c, p)
        conn.close()
        python = os.path.join(build, "venv", "bin", "python")
        hosts = [("python", [python, "-P"], ".py",
                  None if os.path.exists(python) else
                  "%s is missing: run make python (make python-asan for build/san)" % python)]
        if not quick:
            dist = os.path.join(jjtest.ROOT, "js", "dist", "jalapenojson.wasm")
            hosts.append(("js", ["node"], ".mjs",
                          "node is missing" if not shutil.which("node") else
                          None if os.path.exists(dist) else "%s is missing: run make js" % dist))
        for host, cmd, suffix, missing in hosts:
            producers = [p for p in PRODUCERS if p.startswith(host + " ")]
            got = missing or child(tmp, cmd, suffix, cases, producers)
            for i, c in enumerate(cases):
                for p in producers:
                    if p in c["todo"]:
                        results[c["name"]][p] = (got[i][p] if isinstance(got, list)
                                                 else {"error": got})
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

    for c in cases:
        got = results[c["name"]]
        ref = c["todo"][0] if c["todo"] else None
        for p in c["todo"]:
            r = got[p]
            if p == ref:  # the reference: a document (or, with no columns, an error)
                ok = ("doc" in r and json.loads(r["doc"]).get("jalapenojson") == 1 or
                      "error" in r and not columns_of(c["rows"]))
                check("%s / %s (the reference)" % (c["name"], p), ok, r.get("error", ""),
                      case=(c["name"], p))
            else:
                d = differs(got[ref], r)
                check("%s / %s gives what %s gives" % (c["name"], p, ref), not d, d,
                      case=(c["name"], p))
    if quick:
        print("producers: the JS cases SKIPPED (JJ_QUICK is set: make check)")
    print("producers: %d pairs of %d excluded, each named with its reason above "
          "(SKIPPED: the host cannot express the rows)" % (
              len(excluded), len(excluded) + sum(len(c["todo"]) for c in cases)))
    return jjtest.report("producers")


if __name__ == "__main__":
    sys.exit(main())
