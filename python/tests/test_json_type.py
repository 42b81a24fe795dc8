"""JSON columns (type j) in Python: decode gives what json.loads gives,
encode makes j of dicts and lists that are not rows, as the converter
types the same JSON; register_sqlite3 converts the extension's JSON
columns."""
import json
import random
import sqlite3
import warnings

import pytest

import jalapenojson as jj

from conftest import extension_path


def quiet(rows, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", jj.InferenceWarning)
        return jj.encode(rows, **kw)


DOC = ('{"jalapenojson":1,"columns":["v"],"types":["j"],"rows":[\n'
       '[{"a":[1,2.50,null],"b":{"c":"é\\n"}}],\n[123456789012345678901234567890],\n'
       '[1e400],\n["text"],\n[true],\n[[]],\n[{"k":1,"k":2}],\n[ { "w" : "\\u00e9" } ],\n[null]\n]}').encode()


def test_decode_is_json_loads():
    got = [r["v"] for r in jj.decode(DOC)]
    assert got == [{"a": [1, 2.5, None], "b": {"c": "é\n"}}, 123456789012345678901234567890,
                   float("inf"), "text", True, [], {"k": 2}, {"w": "é"}, None]
    assert jj.view(DOC).types == ("j",)
    assert [r[0] for r in jj.view(DOC, rows="tuple")][1] == 123456789012345678901234567890


def test_encode_makes_j_of_dicts_and_lists():
    rows = [{"g": {"type": "Point", "coordinates": [1.5, -2]}, "l": [1, "a", [2]]},
            {"g": {"type": "LineString", "coordinates": [[0, 0], [1, 1]]}, "l": []}]
    doc = quiet(rows)
    assert jj.view(doc).types == ("j", "j")
    assert jj.decode(doc) == rows
    assert doc == jj.from_json(json.dumps(rows))  # the converter's document, byte for byte
    # given j: a str is a JSON string, numbers and booleans themselves,
    # rows their JSON
    doc = jj.encode([{"v": "x"}, {"v": 5}, {"v": True}, {"v": [{"a": 1}]}, {"v": None}],
                    types={"v": "j"})
    assert doc.endswith(b'[["x"],\n[5],\n[true],\n[[{"a":1}]],\n[null]\n]}') or \
        doc.endswith(b'["x"],\n[5],\n[true],\n[[{"a":1}]],\n[null]\n]}')
    assert [r["v"] for r in jj.decode(doc)] == ["x", 5, True, [{"a": 1}], None]
    # JSON has no NaN
    with pytest.raises(jj.Error, match=r'row 1, column "v": not valid JSON'):
        jj.encode([{"v": {"x": float("nan")}}])


def random_json(r, depth):
    k = r.randrange(7 if depth else 5)
    if k == 0:
        return r.choice([True, False, None])
    if k == 1:
        return "".join(r.choice(['"', "\\", "\n", "\x00", "é", "𝄞", "a", "/"]) for _ in range(r.randrange(5)))
    if k == 2:
        return r.choice([0, -1, 2**64, -2**70, 10**30])
    if k == 3:
        return r.choice([0.5, -2.25, 1e300, 1.5e-300])
    if k == 4:
        return "plain"
    if k == 5:
        return {r.choice(["a", "b", "", "é"]): random_json(r, depth - 1) for _ in range(r.randrange(4))}
    return [random_json(r, depth - 1) for _ in range(r.randrange(4))]


def test_random_values_round_trip():
    r = random.Random(20261206)
    for _ in range(200):
        v = random_json(r, 4)
        rows = [{"v": {"x": v}}, {"v": [v, 1]}]
        doc = quiet(rows)
        assert jj.decode(doc) == rows
        assert jj.view(doc).types == ("j",)


def test_register_sqlite3_converts_json_columns(tmp_path):
    path = tmp_path / "v.jj"
    path.write_bytes(DOC)
    jj.register_sqlite3()
    conn = sqlite3.connect(":memory:", detect_types=sqlite3.PARSE_DECLTYPES)
    conn.enable_load_extension(True)
    conn.load_extension(extension_path())
    conn.execute("CREATE VIRTUAL TABLE t USING jj_open(?)".replace("?", "'%s'" % path))
    got = [v for (v,) in conn.execute("SELECT v FROM t ORDER BY rowid")]
    assert got == [r["v"] for r in jj.decode(DOC)]
    conn.close()


def test_j_inside_nested_tables():
    rows = [{"id": 1, "items": [{"sku": "a", "attrs": {"color": "red", "size": [1, 2]}},
                                {"sku": "b", "attrs": ["x", 1]}]},
            {"id": 2, "items": []}]
    doc = quiet(rows)
    assert jj.view(doc).types == ("i", {"columns": ["sku", "attrs"], "types": ["s", "j"]})
    assert jj.decode(doc) == rows
    assert [list(r["items"]) for r in jj.view(doc)][0][0]["attrs"] == {"color": "red", "size": [1, 2]}
    assert doc == jj.from_json(json.dumps(rows))
