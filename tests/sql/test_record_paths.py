"""test_record_paths.py BUILD_DIR — the record form's overloaded ->, ->> and
json_extract (ext/record.c) answer exactly what SQLite's own functions
answer on the same record text.

A document with every column type (nulls, NaN and the infinities, -0.0,
floats of every magnitude, int64's ends, unicode, escapes, bytes, a nested
table, keys with dots, quotes and non-ASCII) is read through jj_open; for
each of two thousand random paths, every row's `record->P`, `record->>P`,
`json_extract(record, P)` and a two-path json_extract go through the
overload, and the same functions on CAST(record AS TEXT) (an expression,
so SQLite's own) must give the same type and value (floats bit for bit),
the same JSON subtype (seen through json_quote), or the same error.

Then the floats alone: thousands of decimals of 1 to 17 digits, among
them the ones on which strtod and SQLite's sqlite3AtoF disagree (SQLite's
JSON functions use one or the other depending on how SQLite was built).
And the forms a query takes: WHERE, GROUP BY, ORDER BY, an aggregate over
a subquery (overloaded) and over the column itself (SQLite's own), min and
max of the record text (which SQLite copies), every record valid JSON
holding its row.  Prints "record_paths: N passed, M failed".
"""
import base64
import json
import math
import os
import random
import sqlite3
import struct
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import jjtest
from jjtest import check


def rand_float(rng):
    k = rng.randrange(9)
    if k == 0:
        return rng.choice([0.0, -0.0, 29.0, 149.99, 0.1, 1e21, 1e-7, 5e-324,
                           1.7976931348623157e308, 2.5e-308, 1e22, 1e23,
                           123456789012345680.0, 0.30000000000000004])
    if k == 1:
        return struct.unpack("<d", struct.pack("<Q", rng.getrandbits(64)))[0]
    if k == 2:
        return round(rng.uniform(-1e6, 1e6), rng.randrange(0, 8))
    if k == 3:
        return rng.uniform(-1, 1) * 10 ** rng.randrange(-30, 30)
    if k == 4:
        return float(rng.randrange(-10**15, 10**15)) / 10 ** rng.randrange(0, 20)
    return round(rng.uniform(0, 1000), 2)


def float_json(v):
    if math.isnan(v):
        return '"NaN"'
    if math.isinf(v):
        return '"Infinity"' if v > 0 else '"-Infinity"'
    return repr(v)


TEXTS = ["", "plain", "Tromsø", "日本語", "a\"quote", "back\\slash",
         "line\nbreak", "tab\there", "nul\x00byte", "emoji 🎉", "[1,2]",
         "{\"a\":1}", "null", "true", "1e5", " spaced ", "\x1f", "é" * 40]


def build_doc(rng, nrows):
    cols = ["id", "f", "s", "d", "t", "b", "x", "items", "a.b", "ünï",
            "q\"k", "nul", "big"]
    types = ["i", "f", "s", "d", "t", "b", "x",
             {"columns": ["sku", "qty", "price"], "types": ["s", "i", "f"]},
             "s", "s", "s", "i", "i"]
    rows = []
    for r in range(nrows):
        def maybe(v):
            return "null" if rng.random() < 0.12 else v
        f = rand_float(rng)
        if rng.random() < 0.05:
            f = rng.choice([math.nan, math.inf, -math.inf])
        items = []
        for _ in range(rng.randrange(0, 4)):
            items.append("[%s,%d,%s]" % (json.dumps(rng.choice(TEXTS)),
                                         rng.randrange(-5, 50),
                                         float_json(rand_float(rng))))
        vals = [
            str(r + 1),
            maybe(float_json(f)),
            maybe(json.dumps(rng.choice(TEXTS), ensure_ascii=rng.random() < 0.3)),
            maybe('"%04d-%02d-%02d"' % (rng.randrange(1, 9999), rng.randrange(1, 13),
                                       rng.randrange(1, 29))),
            maybe(rng.choice(['"2024-03-01T12:30:00Z"', '"1999-12-31T23:59:59.125+05:30"'])),
            maybe(rng.choice(["true", "false"])),
            maybe(json.dumps(base64.b64encode(os.urandom(rng.randrange(0, 9))).decode())),
            maybe("[" + ",".join(items) + "]"),
            maybe(json.dumps(rng.choice(TEXTS))),
            maybe(json.dumps(rng.choice(TEXTS))),
            maybe(json.dumps(rng.choice(TEXTS))),
            "null",
            maybe(str(rng.choice([2**63 - 1, -2**63, 0, -1, 922337203685477580,
                                  -922337203685477580, rng.randrange(-2**63, 2**63)]))),
        ]
        rows.append("[" + ",".join(vals) + "]")
    head = json.dumps({"jalapenojson": 1, "columns": cols, "types": types},
                      ensure_ascii=False, separators=(",", ":"))
    return head[:-1] + ',"rows":[\n' + ",\n".join(rows) + "\n]}", cols


def rand_path(rng, cols):
    keys = cols + ["missing", "ID", "", "sku", "qty", "items2"]
    k = rng.choice(keys)
    form = rng.randrange(14)
    if form == 0:
        return k
    if form == 1:
        return '$."%s"' % k
    if form == 2:
        return "$.items[%s].%s" % (rng.choice(["0", "1", "2", "#-1", "#-2", "9"]),
                                   rng.choice(["sku", "qty", "price", "nope"]))
    if form == 3:
        return rng.choice(["$", "$.items", "$.items[0]", "$[0]", "0", "1", "[0]",
                           "$.", "$..id", "$.a.b", '$."a.b"', "$.id.x",
                           '$."q\\"k"', "$.q\"k", '$."unterminated', "$.id[0]",
                           "$.s[0]", "$ .id", "$.id ", "$.\u00fcn\u00ef"])
    if form == 4:
        return rng.randrange(-2, 4)  # an integer operand
    if form == 5:
        return None
    return "$." + k


def sig(v):
    """A comparable signature of an SQL value: type and exact value."""
    if isinstance(v, float):
        return ("real", struct.pack("<d", v))
    return (type(v).__name__, v)


def run(conn, sql, params):
    try:
        return ("ok", [tuple(sig(x) for x in row)
                       for row in conn.execute(sql, params).fetchall()])
    except sqlite3.Error as e:
        return ("error", str(e))


def compare_paths(conn, path, rng, cols):
    """Every random path: the overloads against SQLite's own functions."""
    exprs = ["{r}->:p", "{r}->>:p", "json_extract({r}, :p)",
             "json_extract({r}, :p, '$.id')", "json_quote({r}->:p)",
             "json_quote(json_extract({r}, :p))"]
    fast = ", ".join(e.format(r="record") for e in exprs)
    slow = ", ".join(e.format(r="CAST(record AS TEXT)") for e in exprs)
    paths = [rand_path(rng, cols) for _ in range(2000)]
    paths += ["$.f", "f", "$.id", "$.s", "$.big", "$.nul", "$.b", "$.x",
              "$.d", "$.t", "$.items", "$.items[0].qty", "$.items[#-1]"]
    for p in paths:
        a = run(conn, f"SELECT {fast} FROM jj_open(:src)", {"src": path, "p": p})
        b = run(conn, f"SELECT {slow} FROM jj_open(:src)", {"src": path, "p": p})
        detail = ""
        if a != b and a[0] == b[0] == "ok":
            for i, (x, y) in enumerate(zip(a[1], b[1])):
                if x != y:
                    detail = f"row {i + 1}: overload {x} / SQLite {y}"
                    break
        elif a != b:
            detail = (f"overload {a[0]} {str(a[1])[:200]} / "
                      f"SQLite {b[0]} {str(b[1])[:200]}")
        check(f"path {p!r}", a == b, detail)


def decimals(rng, n):
    """n decimal texts of 1 to 17 significant digits, some of them the
    ones on which strtod and SQLite's sqlite3AtoF disagree."""
    out = ["65.23195796113", "3.29043991911", "416.92448050502",
           "20361300.45355844684", "0.1", "29.0", "1e+16", "5e-324",
           "1.7976931348623157e+308", "-0.0", "123456789012345.67"]
    while len(out) < n:
        k = rng.randrange(1, 18)
        digits = str(rng.randrange(10 ** (k - 1), 10 ** k))
        point = rng.randrange(0, k + 1)
        text = (digits[:point] or "0") + "." + (digits[point:] or "0")
        if rng.random() < 0.1:
            text += "e%d" % rng.randrange(-30, 30)
        out.append(("-" if rng.random() < 0.3 else "") + text)
    return out


def compare_floats(conn, tmp, rng):
    """A float column of many decimals: ->> and json_extract give the
    double SQLite reads from the record's text, -> that text."""
    values = decimals(rng, 6000)
    head = '{"jalapenojson":1,"columns":["p"],"types":["f"],"rows":[\n'
    path = os.path.join(tmp, "floats.jj")
    with open(path, "w") as f:
        f.write(head + ",\n".join("[%s]" % v for v in values) + "\n]}")
    exprs = ["{r}->>'p'", "json_extract({r}, '$.p')", "{r}->'p'",
             "{r}->>'$.p'"]
    for e in exprs:
        fast = run(conn, f"SELECT {e.format(r='record')} FROM jj_open(?)", (path,))
        slow = run(conn, f"SELECT {e.format(r='CAST(record AS TEXT)')} FROM jj_open(?)",
                   (path,))
        bad = [(values[i], x, y) for i, (x, y) in
               enumerate(zip(fast[1], slow[1])) if x != y] if fast[0] == "ok" else []
        check(f"floats {e}", fast == slow and len(fast[1]) == len(values),
              f"{len(bad)} differ, first {bad[:3]} / {fast[0]} {str(fast[1])[:100]}")


def fallbacks(conn, sql, params):
    """The rows of sql and how many statements record.c ran on SQLite's
    function to answer (seen through the connection's trace callback)."""
    seen = []
    conn.set_trace_callback(seen.append)
    try:
        rows = conn.execute(sql, params).fetchall()
    finally:
        conn.set_trace_callback(None)
    nested = [t for t in seen if t.startswith("-- SELECT ?1")]
    return rows, len(nested)


def compare_query_forms(conn, path):
    """The forms a query takes give SQLite's answers, and the overload
    answers them without asking SQLite (no nested statement) wherever
    SQLite offers it: not inside an aggregate's arguments."""
    src = {"src": path}
    same = [
        ("SELECT count(*) FROM jj_open(:src) WHERE record->>'id' = row",
         "SELECT count(*) FROM jj_open(:src) WHERE CAST(record AS TEXT)->>'id' = row"),
        ("SELECT record->>'b', count(*) FROM jj_open(:src) GROUP BY 1 ORDER BY 1",
         "SELECT CAST(record AS TEXT)->>'b', count(*) FROM jj_open(:src) GROUP BY 1 ORDER BY 1"),
        ("SELECT row FROM jj_open(:src) ORDER BY record->>'big', row",
         "SELECT row FROM jj_open(:src) ORDER BY CAST(record AS TEXT)->>'big', row"),
        ("SELECT total(v), count(v), max(v) FROM "
         "(SELECT record->>'id' v FROM jj_open(:src) LIMIT -1)",
         "SELECT total(CAST(record AS TEXT)->>'id'), count(CAST(record AS TEXT)->>'id'), "
         "max(CAST(record AS TEXT)->>'id') FROM jj_open(:src)"),
        ("SELECT total(record->>'id'), count(record->>'d') FROM jj_open(:src)",
         "SELECT total(CAST(record AS TEXT)->>'id'), count(CAST(record AS TEXT)->>'d') "
         "FROM jj_open(:src)"),
        ("SELECT max(record), min(record) FROM jj_open(:src)",
         "SELECT max(CAST(record AS TEXT)), min(CAST(record AS TEXT)) FROM jj_open(:src)"),
    ]
    for fast, slow in same:
        a = run(conn, fast, src)
        b = run(conn, slow, src)
        check(f"same answer: {fast}", a == b and a[0] == "ok",
              f"{str(a)[:200]} / {str(b)[:200]}")
    # Whether SQLite offered the overload: with a nested path the overload
    # asks SQLite's function in a nested statement, once per call, and
    # SQLite's own ->> runs none; with a simple key the overload answers
    # alone (none either).  {k} is the key.
    forms = [
        ("WHERE", "SELECT count(*) FROM jj_open(:src) WHERE record->>{k} IS NOT row", True),
        ("SELECT list", "SELECT record->>{k} FROM jj_open(:src)", True),
        ("GROUP BY", "SELECT record->>{k}, count(*) FROM jj_open(:src) GROUP BY 1", True),
        ("ORDER BY", "SELECT row FROM jj_open(:src) ORDER BY record->>{k}", True),
        ("subquery of an aggregate", "SELECT total(v) FROM "
         "(SELECT record->>{k} v FROM jj_open(:src) LIMIT -1)", True),
        ("aggregate argument", "SELECT total(record->>{k}) FROM jj_open(:src)", False),
    ]
    rows = conn.execute("SELECT count(*) FROM jj_open(:src)", src).fetchone()[0]
    for name, sql, offered in forms:
        _, nested = fallbacks(conn, sql.format(k="'$.items[0].qty'"), src)
        want = rows if offered else 0
        check(f"overload offered in {name}: {offered}", nested == want,
              f"{nested} nested statements for {rows} rows")
        _, nested = fallbacks(conn, sql.format(k="'id'"), src)
        check(f"a simple key in {name} needs no nested statement", nested == 0,
              f"{nested} nested statements")


def check_records(conn, path, cols):
    """Every record is one JSON object with the row's keys in order (no
    NUL or anything else cuts it short: SQLite takes it as NUL-terminated
    text)."""
    n = 0
    for (rec,) in conn.execute("SELECT record FROM jj_open(?)", (path,)):
        try:
            obj = json.loads(rec)
            ok = list(obj) == cols
        except ValueError:
            ok = False
        n += 1
        check("record is the row's object", ok, rec[:200])
    check("every row has a record", n > 0, f"{n}")


def main():
    conn = jjtest.connect(jjtest.extension_path(jjtest.build_dir(sys.argv)))
    rng = random.Random(20240611)
    doc, cols = build_doc(rng, 150)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "all.jj")
        with open(path, "w", encoding="utf-8") as f:
            f.write(doc)
        n = conn.execute("SELECT count(*) FROM jj_open(?)", (path,)).fetchone()[0]
        check("document reads", n == 150, f"{n} rows")
        compare_paths(conn, path, rng, cols)
        compare_floats(conn, tmp, rng)
        compare_query_forms(conn, path)
        check_records(conn, path, cols)
    return jjtest.report("record_paths")


if __name__ == "__main__":
    sys.exit(main())
