"""test_record_paths.py BUILD_DIR — the record form's overloaded ->, ->> and
json_extract (ext/record.c) answer exactly what SQLite's own functions
answer on the same record text.

A document with every column type (nulls, NaN and the infinities, -0.0,
floats of every magnitude, int64's ends, unicode, escapes, bytes, a nested
table, keys with dots, quotes and non-ASCII) is read through jj_open; for
each of several hundred random paths, every row's `record->P`,
`record->>P`, `json_extract(record, P)` and a two-path json_extract go
through the overload, and the same functions on CAST(record AS TEXT) (an
expression, so SQLite's own) must give the same type and value (floats bit
for bit), the same JSON subtype (seen through json_quote), or the same
error.  Prints "record_paths: N passed, M failed".
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

passed = 0
failed = 0
shown = 0


def check(name, cond, detail=""):
    global passed, failed, shown
    if cond:
        passed += 1
    else:
        failed += 1
        if shown < 30:
            shown += 1
            print(f"FAIL {name} {detail}")


def extension_path(build):
    build = os.path.abspath(build)
    if os.path.basename(build) == "build":
        return os.path.join(os.path.dirname(build), "jalapenojson")
    return os.path.join(build, "jalapenojson")


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


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "build")
    conn = sqlite3.connect(":memory:")
    conn.enable_load_extension(True)
    conn.load_extension(extension_path(build))
    conn.enable_load_extension(False)
    rng = random.Random(20240611)
    doc, cols = build_doc(rng, 150)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "all.jj")
        with open(path, "w", encoding="utf-8") as f:
            f.write(doc)
        n = conn.execute("SELECT count(*) FROM jj_open(?)", (path,)).fetchone()[0]
        check("document reads", n == 150, f"{n} rows")
        exprs = ["{r}->:p", "{r}->>:p", "json_extract({r}, :p)",
                 "json_extract({r}, :p, '$.id')", "json_quote({r}->:p)",
                 "json_quote(json_extract({r}, :p))"]
        fast = ", ".join(e.format(r="record") for e in exprs)
        slow = ", ".join(e.format(r="CAST(record AS TEXT)") for e in exprs)
        paths = [rand_path(rng, cols) for _ in range(700)]
        paths += ["$.f", "f", "$.id", "$.s", "$.big", "$.nul", "$.b", "$.x",
                  "$.d", "$.t", "$.items", "$.items[0].qty", "$.items[#-1]"]
        for p in paths:
            a = run(conn, f"SELECT {fast} FROM jj_open(:src)", {"src": path, "p": p})
            b = run(conn, f"SELECT {slow} FROM jj_open(:src)", {"src": path, "p": p})
            if a == b:
                check(f"path {p!r}", True)
            else:
                detail = ""
                if a[0] == b[0] == "ok":
                    for i, (x, y) in enumerate(zip(a[1], b[1])):
                        if x != y:
                            detail = f"row {i + 1}: overload {x} / SQLite {y}"
                            break
                else:
                    detail = f"overload {a[0]} {str(a[1])[:200]} / SQLite {b[0]} {str(b[1])[:200]}"
                check(f"path {p!r}", False, detail)
        # The record used as text beside the overloads, a self-join, and
        # WHERE: the same answers.
        for sql, want in [
            ("SELECT count(*) FROM jj_open(:src) WHERE record->>'id' = row", 150),
            ("SELECT count(*) FROM jj_open(:src) a, jj_open(:src) b "
             "WHERE a.row = b.row AND a.record->>'id' = b.record->>'id' "
             "AND a.record = b.record", 150),
            ("SELECT count(*) FROM jj_open(:src) WHERE "
             "json(record) = CAST(record AS TEXT) AND record->>'f' IS "
             "CAST(record AS TEXT)->>'f'", 150),
        ]:
            got = conn.execute(sql, {"src": path}).fetchone()[0]
            check(sql, got == want, f"got {got}")
    print(f"record_paths: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
