#!/usr/bin/env python3
"""test_json_type.py BUILD_DIR - JSON columns (type j) through the
command-line tool: GeoJSON-shaped and API-payload-shaped inputs
(tests/data/geojson.json, tests/data/api_payload.ndjson) convert to j
columns and back to JSON equal by value (json.loads both sides, numbers
exact, repeated keys kept); the GeoJSON document is no larger than the
minified JSON; cat writes j values as JSON to JSON and NDJSON and as their
text to CSV; head and check read them; CSV takes JSON text with --schema
x:j and never infers j.  Prints "json_type_cli: N passed, M failed".
"""
import csv
import io
import json
import os
import subprocess
import sys
import tempfile
from decimal import Decimal

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import jjtest
from jjtest import ROOT, check

DATA = os.path.join(ROOT, "tests", "data")


def exact(text):
    return json.loads(text, parse_float=Decimal, object_pairs_hook=list)


def run(exe, *args, stdin=None):
    r = subprocess.run([exe] + list(args), capture_output=True, input=stdin, timeout=60)
    return r.returncode, r.stdout, r.stderr.decode("utf-8", "replace")


def header(path):
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    return doc["columns"], doc["types"]


def main():
    build = jjtest.build_dir(sys.argv)
    exe = os.path.join(build, "jalapenojson")
    with tempfile.TemporaryDirectory() as tmp:
        # GeoJSON-shaped: an array of Features
        src = os.path.join(DATA, "geojson.json")
        out = os.path.join(tmp, "features.jj")
        rc, _, err = run(exe, "convert", src, out)
        check("features convert", rc == 0, err)
        cols, types = header(out)
        check("geometry and properties are j", dict(zip(cols, types)) == {
            "type": "s", "id": "i", "geometry": "j", "properties": "j"}, repr((cols, types)))
        check("the decision is told", "-> j (kept as JSON)" in err, err)
        with open(src, encoding="utf-8") as f:
            original = f.read()
        minified = json.dumps(json.loads(original), ensure_ascii=False, separators=(",", ":")).encode()
        size = os.path.getsize(out)
        check("the document is no larger than the minified JSON", size <= len(minified),
              "%d > %d" % (size, len(minified)))
        rc, back, err = run(exe, "cat", "--to", "json", out)
        check("cat --to json", rc == 0, err)
        check("JSON -> jj -> JSON equal by value (features)", exact(back) == exact(original),
              back[:300])
        # an object stays an object, not a string of one
        first = json.loads(back)[0]
        check("geometry comes back an object", isinstance(first["geometry"], dict), repr(first))
        rc, text, err = run(exe, "cat", "--to", "csv", out)
        rows = list(csv.reader(io.StringIO(text.decode("utf-8"))))
        check("CSV: a j value is its JSON text", rc == 0 and rows[0] == cols and
              json.loads(rows[1][2]) == json.loads(original)[0]["geometry"], repr(rows[:2]))
        rc, text, err = run(exe, "head", "-n", "2", "--to", "ndjson", out)
        check("head --to ndjson", rc == 0 and [json.loads(l) for l in text.splitlines()] ==
              json.loads(original)[:2], err)
        rc, _, err = run(exe, "check", out)
        check("check: every j value read", rc == 0 and "every value checked" in err, err)
        rc, schema, err = run(exe, "schema", out)
        check("schema: j and JSON", rc == 0 and b"geometry" in schema and b"JSON" in schema, schema)

        # API-payload-shaped NDJSON: objects, mixed values, nested tables
        src = os.path.join(DATA, "api_payload.ndjson")
        out = os.path.join(tmp, "api.jj")
        rc, _, err = run(exe, "convert", src, out)
        check("payload converts", rc == 0, err)
        cols, types = header(out)
        kinds = dict(zip(cols, types))
        check("user and payload are j, items a nested table",
              kinds["user"] == "j" and kinds["payload"] == "j" and isinstance(kinds["items"], dict),
              repr(types))
        rc, back, err = run(exe, "cat", out)
        with open(src, encoding="utf-8") as f:
            lines = [exact(l) for l in f if l.strip()]
        check("JSON -> jj -> NDJSON equal by value (payloads)",
              rc == 0 and [exact(l) for l in back.decode().splitlines()] == lines, err)
        big = [l for l in back.decode().splitlines() if "123456789012345678901234567890" in l]
        check("a number beyond doubles kept exactly", big != [], back[:200])

        # a pretty, escaped document reads as the canonical one
        pretty = os.path.join(tmp, "pretty.jj")
        with open(pretty, "w", encoding="utf-8") as f:
            f.write('{"jalapenojson":1,"columns":["v"],"types":["j"],"rows":[\n'
                    '[ { "a" : "\\u00e9\\/" , "b" : [ 1 , 2.50 ] } ]\n]}')
        rc, text, err = run(exe, "convert", pretty, "-")
        check("a pretty j value is written canonically",
              rc == 0 and text.decode().endswith('[{"a":"é/","b":[1,2.50]}]\n]}'), text)

        # CSV: never inferred, taken with --schema
        csvin = os.path.join(tmp, "in.csv")
        with open(csvin, "w", encoding="utf-8") as f:
            f.write('id,v\n1,"{""a"": [1, 2]}"\n2,5\n3,\n')
        rc, text, err = run(exe, "convert", "--to", "jj", csvin, "-")
        check("CSV is never inferred j", rc == 0 and b'"types":["i","s"]' in text, text)
        rc, text, err = run(exe, "convert", "--schema", "v:j", csvin, "-")
        check("CSV with --schema v:j", rc == 0 and text.decode().endswith(
            '[1,{"a":[1,2]}],\n[2,5],\n[3,null]\n]}'), text + err.encode())
        with open(csvin, "w", encoding="utf-8") as f:
            f.write('id,v\n1,{oops}\n')
        rc, text, err = run(exe, "convert", "--schema", "v:j", csvin, "-")
        check("CSV: a field that is no JSON text is a located error",
              rc == 1 and 'row 1, column "v"' in err and "is not JSON text (the schema says v:j)" in err, err)
    return jjtest.report("json_type_cli")


if __name__ == "__main__":
    sys.exit(main())
