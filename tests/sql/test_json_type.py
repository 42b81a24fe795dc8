#!/usr/bin/env python3
"""test_json_type.py BUILD_DIR - JSON columns (type j) in SQL, against
SQLite's own JSON functions and Python's json.

Random nested values (objects, arrays, every kind of string escape,
non-ASCII, U+0000, numbers beyond int64 and double, exponents, repeated
keys, empty objects and arrays), each written with random whitespace and
escapes, stand in a document's j column.  For every row:

  - the typed column is TEXT with the JSON subtype (json_object embeds it
    as JSON), equal by value to the text written: json.loads of both with
    exact numbers (Decimal) and repeated keys kept, and SQLite's json_tree
    of both;
  - `->`, `->>`, json_extract, json_type and json_each on the typed column
    give what SQLite's functions give on the same text, for every path the
    value has and some it has not; the record form's
    record->'v'->path too;

then bad values (bad JSON, bad UTF-8, too deep) fail with located errors,
and jj_group, jj_export and jj_from_json make j columns (inferred from
JSON-subtyped TEXT, explicit 'x:j', objects in JSON).
Prints "json_type: N passed, M failed".
"""
import json
import os
import random
import sys
import tempfile
from decimal import Decimal

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import jjtest
from jjtest import check, connect, extension_path, q

NUMBERS = ["0", "-0", "1", "-17", "2.50", "1E5", "-1.5e-10", "1e400", "-1e400", "0.1",
           "123456789012345678901234567890", "9223372036854775808", "-9223372036854775809",
           "3.141592653589793238462643383279", "1e-400", "5E+3"]
CHARS = ['"', "\\", "/", "\n", "\t", "\b", "\f", "\r", "\x00", "\x01", "\x1f", "\x7f", "a", "Z", " ",
         "é", "€", "𝄞", "日本", "\u2028", "\ufeff"]


def ws(rng):
    return rng.choice(["", "", "", " ", "\n", "\t ", "\r\n  "])


def string(rng, s):
    """s as a JSON string, each character escaped one of the ways JSON allows."""
    out = ['"']
    for ch in s:
        c = ord(ch)
        r = rng.random()
        if ch == '"' or ch == "\\" or c < 0x20 or r < 0.2:
            if c > 0xFFFF:
                c -= 0x10000
                out.append("\\u%04x\\u%04X" % (0xD800 + (c >> 10), 0xDC00 + (c & 0x3FF)))
            elif ch in "\"\\/" and r < 0.5:
                out.append("\\" + ch)
            elif ch in "\b\f\n\r\t" and r < 0.6:
                out.append({"\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t"}[ch])
            else:
                out.append(("\\u%04x" if rng.random() < 0.5 else "\\u%04X") % c)
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def value(rng, depth):
    """A random JSON value's text, spelled loosely."""
    k = rng.randrange(8 if depth > 0 else 5)
    if k == 0:
        return rng.choice(["true", "false", "null"])
    if k == 1:
        return string(rng, "".join(rng.choice(CHARS) for _ in range(rng.randrange(0, 8))))
    if k == 2:
        return rng.choice(NUMBERS)
    if k == 3:
        return str(rng.randrange(-10 ** 6, 10 ** 6))
    if k == 4:
        return string(rng, rng.choice(["", "plain", "Tromsø", "a b"]))
    if k in (5, 6):
        keys = [rng.choice(["a", "b", "", "é", "x y", "k\n", "$", "a.b"]) for _ in range(rng.randrange(0, 5))]
        return "{" + ws(rng) + ",".join(
            ws(rng) + string(rng, key) + ws(rng) + ":" + ws(rng) + value(rng, depth - 1) + ws(rng)
            for key in keys) + "}"
    return "[" + ws(rng) + ",".join(ws(rng) + value(rng, depth - 1) + ws(rng)
                                      for _ in range(rng.randrange(0, 5))) + "]"


def exact(text):
    """The value of JSON text with numbers exact and repeated keys kept."""
    return json.loads(text, parse_float=Decimal, parse_int=Decimal,
                      parse_constant=lambda c: c, object_pairs_hook=list)


def tree(conn, text):
    """Its nodes in order, as (type, atom): SQLite spells a key in fullkey
    as the text writes it, escapes included, so keys are left to exact()."""
    return conn.execute("SELECT type, quote(atom) FROM json_tree(?) ORDER BY id", (text,)).fetchall()


def rows_of(conn, sql, params=()):
    try:
        return ("ok", conn.execute(sql, params).fetchall())
    except jjtest.sqlite3.Error as e:
        return ("error", str(e))


def differential(conn, tmp, rng):
    texts = []
    while len(texts) < 300:
        t = ws(rng) + value(rng, rng.randrange(1, 5)) + ws(rng)
        if t.strip() != "null":
            texts.append(t)
    path = os.path.join(tmp, "v.jj")
    with open(path, "w", encoding="utf-8") as f:
        f.write('{"jalapenojson":1,"columns":["id","v"],"types":["i","j"],"rows":[\n')
        f.write(",\n".join("[%d,%s]" % (i + 1, t) for i, t in enumerate(texts)))
        f.write("\n]}")
    conn.execute("CREATE VIRTUAL TABLE v USING jj_open(%s)" % q(path))
    funcs = ["v -> ?2", "v ->> ?2", "json_extract(v, ?2)", "json_type(v, ?2)", "quote(v ->> ?2)"]
    for i, raw in enumerate(texts, 1):
        got, typ, sub = conn.execute("SELECT v, typeof(v), json_object('k', v) ->> '$.k' FROM v WHERE id = ?",
                                     (i,)).fetchone()
        check("a j value is TEXT", typ == "text", repr((i, typ)))
        check("equal by value (Python, exact numbers, repeated keys)", exact(got) == exact(raw),
              repr((i, raw, got)))
        check("equal by value (SQLite's json_tree)", tree(conn, got) == tree(conn, raw), repr((i, raw, got)))
        check("no whitespace outside strings", got == conn.execute("SELECT json(?)", (got,)).fetchone()[0]
              or "\\" in got, repr(got))
        check("json_object embeds it as JSON (the subtype)",
              conn.execute("SELECT json_type(json_object('k', v), '$.k') FROM v WHERE id = ?",
                           (i,)).fetchone()[0] == conn.execute("SELECT json_type(?)", (got,)).fetchone()[0],
              repr(got))
        paths = [p for (p,) in conn.execute("SELECT fullkey FROM json_tree(?)", (got,))]
        paths += ["$.missing", "$[7]", "$.a.b"]
        for p in rng.sample(paths, min(len(paths), 6)):
            for f in funcs:
                mine = rows_of(conn, "SELECT %s FROM v WHERE id = ?1" % f, (i, p))
                theirs = rows_of(conn, "SELECT %s FROM (SELECT ?3 AS v)" % f, (i, p, got))
                check("%s on the column is SQLite's on its text" % f, mine == theirs,
                      repr((i, p, got, mine, theirs)))
            rec = rows_of(conn, "SELECT record -> 'v' -> ?2, record -> 'v' ->> ?2 FROM jj_open(%s) "
                          "WHERE rowid = ?1" % q(path), (i, p))
            typed = rows_of(conn, "SELECT v -> ?2, v ->> ?2 FROM v WHERE id = ?1", (i, p))
            check("the record form embeds it", rec == typed, repr((i, p, rec, typed)))
        each = rows_of(conn, "SELECT key, value, type FROM v, json_each(v.v) WHERE v.id = ?1", (i,))
        theirs = rows_of(conn, "SELECT key, value, type FROM json_each(?2)", (i, got))
        check("json_each", each == theirs, repr((i, each, theirs)))


def errors(conn, tmp):
    cases = [
        ('[{"a":}]', 'row 1, column "v", byte 63: unexpected character'),
        ('[01]', 'row 1, column "v", byte 58: not valid JSON: invalid number'),
        ('["\\ud800"]', 'row 1, column "v", byte 59: not valid JSON: lone surrogate \\ud800-\\udbff '
                        '(no low surrogate after it)'),
        ('[' + "[" * 70 + "]" * 70 + ']', 'row 1, column "v", byte 122: nesting deeper than the limit'),
    ]
    for n, (row, want) in enumerate(cases):
        path = os.path.join(tmp, "bad%d.jj" % n)
        with open(path, "w", encoding="utf-8") as f:
            f.write('{"jalapenojson":1,"columns":["v"],"types":["j"],"rows":[\n' + row + "\n]}")
        conn.execute("CREATE VIRTUAL TABLE bad%d USING jj_open(%s)" % (n, q(path)))
        got = rows_of(conn, "SELECT v FROM bad%d" % n)
        check("a bad value is a located error", got[0] == "error" and got[1].endswith(want),
              repr((row[:30], got, want)))
    with open(os.path.join(tmp, "badutf8.jj"), "wb") as f:
        f.write(b'{"jalapenojson":1,"columns":["v"],"types":["j"],"rows":[\n["\xff"]\n]}')
    conn.execute("CREATE VIRTUAL TABLE badutf8 USING jj_open(%s)" % q(os.path.join(tmp, "badutf8.jj")))
    got = rows_of(conn, "SELECT v FROM badutf8")
    check("bad UTF-8 is a located error",
          got[0] == "error" and got[1].endswith('row 1, column "v", byte 59: not valid JSON: invalid UTF-8 in a string'),
          repr(got))


def producers(conn, tmp):
    doc = conn.execute("SELECT jj_group('a', json_object('x', n, 'y', json_array(n, 'é')), 'b:j', "
                       "'[ ' || n || ' , \"\\u00e9\" ]', 'c', CASE n WHEN 1 THEN json('{\"k\":1}') ELSE n END) "
                       "FROM (SELECT 1 AS n UNION ALL SELECT 2)").fetchone()[0]
    want = ('{"jalapenojson":1,"columns":["a","b","c"],"types":["j","j","j"],"rows":[\n'
            '[{"x":1,"y":[1,"é"]},[1,"é"],{"k":1}],\n[{"x":2,"y":[2,"é"]},[2,"é"],2]\n]}')
    check("jj_group: JSON subtype inferred j, 'b:j' JSON text, j mixed with a number", doc == want,
          repr(doc))
    got = rows_of(conn, "SELECT jj_group('b:j', '{\"a\":1')")
    check("jj_group: bad JSON text for ':j' is an error naming its place",
          got[0] == "error" and 'row 1, column "b"' in got[1] and "not valid JSON: unexpected end of input" in got[1],
          repr(got))
    got = rows_of(conn, "SELECT jj_group('t', 'plain text', 'v', json('[1]'))")
    check("jj_group: plain TEXT stays s", got[0] == "ok" and '"types":["s","j"]' in got[1][0][0], repr(got))
    out = os.path.join(tmp, "e.jj")
    conn.execute("SELECT jj_export(?, 'SELECT n, json_object(''n'', n, ''s'', ''x\"y'') AS o FROM "
                 "(SELECT 1 AS n UNION ALL SELECT 2)')", (out,))
    with open(out, encoding="utf-8") as f:
        text = f.read()
    check("jj_export: a JSON-subtyped column is j",
          text == '{"jalapenojson":1,"columns":["n","o"],"types":["i","j"],"rows":[\n'
                  '[1,{"n":1,"s":"x\\"y"}],\n[2,{"n":2,"s":"x\\"y"}]\n]}', repr(text))
    # a typed table's j column through jj_group again: the same values
    conn.execute("CREATE VIRTUAL TABLE e USING jj_open(%s)" % q(out))
    again = conn.execute("SELECT jj_group('n', n, 'o', o) FROM e").fetchone()[0]
    check("jj_group of a j column gives the document back", again == text, repr(again))
    doc = conn.execute("SELECT jj_from_json('[{\"g\":{\"type\":\"Point\",\"coordinates\":[1.5,2]}},"
                       "{\"g\":[1,\"a\"]},{\"g\":5}]')").fetchone()[0]
    check("jj_from_json: objects and other arrays are j",
          doc == '{"jalapenojson":1,"columns":["g"],"types":["j"],"rows":[\n'
                 '[{"type":"Point","coordinates":[1.5,2]}],\n[[1,"a"]],\n[5]\n]}', repr(doc))
    notes = conn.execute("SELECT jj_notes()").fetchone()[0]
    check("jj_from_json: the decision is a note", "-> j (every value kept as JSON)" in (notes or ""),
          repr(notes))
    got = conn.execute("SELECT name, type, sql_type FROM jj_schema(?)", (doc,)).fetchall()
    check("jj_schema: type j, declared JSON", got == [("g", "j", "JSON")], repr(got))
    # nested tables hold j columns too
    doc = conn.execute("SELECT jj_from_json('[{\"items\":[{\"p\":{\"a\":[1]}},{\"p\":2}]}]')").fetchone()[0]
    conn.execute("CREATE VIRTUAL TABLE n USING jj_open(%s)" % q(doc))
    items = conn.execute("SELECT items FROM n").fetchone()[0]
    conn.execute("CREATE VIRTUAL TABLE n2 USING jj_open(%s)" % q(items))
    got = conn.execute("SELECT p ->> '$.a[0]', typeof(p), p FROM n2").fetchall()
    check("a j column inside a nested table", got == [(1, "text", '{"a":[1]}'), (None, "text", "2")], repr(got))


def main():
    build = jjtest.build_dir(sys.argv)
    conn = connect(extension_path(build))
    seed = int(os.environ.get("JJ_SEED", "20261206"))
    print("json_type: seed %d (set JJ_SEED to reproduce)" % seed)
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as tmp:
        differential(conn, tmp, rng)
        errors(conn, tmp)
        producers(conn, tmp)
    return jjtest.report("json_type")


if __name__ == "__main__":
    sys.exit(main())
