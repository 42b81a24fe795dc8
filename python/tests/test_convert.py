"""encode() and the CLI converter agree: the same rows give the same
document, byte for byte, and the same decisions (encode's InferenceWarnings,
the converter's notes), on hand-written cases (json.load output with sparse
keys, nested lists of dicts, dicts as values, mixed columns, dates as text)
and on random tables.  And from_json() / from_csv(): the converter on bytes
or str."""
import datetime as dt
import json
import os
import random
import subprocess
import warnings

import pytest

import jalapenojson as jj
from conftest import ROOT

CLI = os.environ.get("JJ_CLI") or os.path.join(ROOT, "build", "jalapenojson")


def encoded(rows, **kwargs):
    """encode(rows) and its warnings' messages."""
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        doc = jj.encode(rows, **kwargs)
    return doc, [str(w.message) for w in seen if w.category is jj.InferenceWarning]


def text_of(v):
    """json.dumps's default for what JSON has no value for: the format's
    text of a date or an aware datetime."""
    if isinstance(v, dt.datetime):
        off = v.utcoffset()
        frac = (".%06d" % v.microsecond).rstrip("0") if v.microsecond else ""
        if off == dt.timedelta(0):
            zone = "Z"
        else:
            m = int(off.total_seconds()) // 60
            zone = "%s%02d:%02d" % ("-" if m < 0 else "+", abs(m) // 60, abs(m) % 60)
        return v.strftime("%Y-%m-%dT%H:%M:%S") + frac + zone
    if isinstance(v, dt.date):
        return v.isoformat()
    raise TypeError(type(v))


def ndjson(rows):
    """rows as NDJSON: json.dumps, compact (the notes show the input as
    written) and not ASCII-only (the text encode() keeps for a dict)."""
    return "".join(json.dumps(r, ensure_ascii=False, separators=(",", ":"),
                              default=text_of) + "\n" for r in rows)


def converted(rows, tmp_path, schema=None):
    """The CLI's document and notes for rows as NDJSON."""
    src = tmp_path / "in.ndjson"
    src.write_text(ndjson(rows), encoding="utf-8")
    cmd = [CLI, "convert", str(src), "-"] + (["--schema", schema] if schema else [])
    run = subprocess.run(cmd, capture_output=True)
    assert run.returncode == 0, run.stderr.decode()
    err = run.stderr.decode().splitlines()
    notes = []
    if "decisions:" in err:
        for line in err[err.index("decisions:") + 1:]:
            if not line.startswith("  "):
                break
            notes.append(line[2:])
    return run.stdout, notes


needs_cli = pytest.mark.skipif(not os.path.exists(CLI), reason="the CLI is not built (make)")

# The shapes real datasets have, as json.load gives them.
CASES = {
    "sparse keys": [{"state": "Victoria", "pop": 6.6}, {"state": "Tasmania", "commonwealth": True},
                    {"pop": 2, "state": None}],
    "nested lists of dicts": [{"id": 1, "items": [{"sku": "a", "qty": 2}, {"sku": "b"}]},
                              {"id": 2, "items": []}, {"id": 3, "items": [{"qty": 1.5, "note": "x"}]}],
    "dicts as values": [{"geo": {"lat": 1.5, "lon": -2, "tags": ["a", "é"]}},
                        {"geo": {"q": "x\"y\\z\n"}}, {"geo": None}],
    "mixed int and str": [{"zip": 2000}, {"zip": "2000a"}, {"zip": 3}],
    "ints then floats": [{"x": 1}, {"x": 2}, {"x": 2.5}, {"x": -0.0}],
    "dates as text": [{"Year": "2014-01-01", "at": "2024-03-01T10:30:00+05:30"},
                      {"Year": "2015-06-30", "at": "2024-03-01T10:30:00.25Z"}],
    "date objects": [{"d": dt.date(2024, 2, 29), "t": dt.datetime(2024, 3, 1, 12, 30, 0, 500000,
                                                                   tzinfo=dt.timezone(dt.timedelta(hours=-5)))}],
    "only nulls": [{"a": 1, "n": None}],
    "big integers": [{"b": 2**64}, {"b": -2**63 - 1}, {"b": 2**70 + 1}],
    "other lists": [{"l": [1, "a", None]}, {"l": [[1], {"a": 1}]}, {"l": [True]}],
    "bools and dates": [{"a": True, "d": "2024-01-01"}, {"a": False, "d": "not a date"}],
    "unicode and odd names": [{"été": 1, "a,b": "x", "c:d": 2, " e ": 3, "{f}": [{"g h": 1}]}],
}


@needs_cli
@pytest.mark.parametrize("name", sorted(CASES))
def test_the_same_document_as_the_converter(name, tmp_path):
    rows = CASES[name]
    doc, notes = encoded(rows)
    assert (doc, notes) == converted(rows, tmp_path)
    # and through from_json, the same (the converter in the module)
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        assert jj.from_json(ndjson(rows)) == doc
    assert [str(w.message) for w in seen] == notes


@needs_cli
def test_json_load_output(tmp_path):
    text = ('[{"id":1,"name":"a","Year":"1970-01-01","price":10},'
            '{"id":2,"Year":"1971-01-01","price":10.5,"extra":{"k":[1,2]}},'
            '{"id":"3x","name":"c","items":[{"n":1}]}]')
    rows = json.loads(text)
    doc, notes = encoded(rows)
    assert jj.view(doc).types == ("s", "s", "d", "f", "j", {"columns": ["n"], "types": ["i"]})
    assert (doc, notes) == converted(rows, tmp_path)
    assert jj.from_json(text.encode()) == doc


@needs_cli
def test_explicit_types_as_the_schema_option(tmp_path):
    rows = [{"id": 1, "at": "2024-01-01", "items": [{"q": 1}], "a,b": 2}, {"id": 2, "items": [{"q": 2}]}]
    doc, notes = encoded(rows, types={"id": "i", "items": {"columns": ["q"], "types": ["f"]}, "a,b": "s"})
    assert (doc, notes) == converted(rows, tmp_path, schema='id:i,items:{q:f},"a,b":s')


def random_value(r, flavor, depth):
    if r.random() < 0.1:
        return None
    if flavor == 0:
        return r.choice([r.randrange(-1000, 1000), r.randrange(-2**63, 2**63)])
    if flavor == 1:
        return r.choice(["t%d" % r.randrange(100), "café %d" % r.randrange(100), "", "NaN"])
    if flavor == 2:
        day = dt.date(1900, 1, 1) + dt.timedelta(days=r.randrange(80000))
        if r.random() < 0.5:
            return day.isoformat() if r.random() < 0.5 else day
        at = dt.datetime.combine(day, dt.time(r.randrange(24), r.randrange(60), r.randrange(60),
                                              r.choice([0, 250000, 123456])),
                                 tzinfo=dt.timezone(dt.timedelta(minutes=r.choice([0, 330, -300]))))
        return at if r.random() < 0.5 else text_of(at)
    if flavor == 3:
        return r.choice([r.randrange(100), r.uniform(-1e6, 1e6), r.random() * 10 ** r.randrange(-30, 30)])
    if flavor == 4:
        if depth < 2 and r.random() < 0.8:
            return [random_row(r, depth + 1) for _ in range(r.randrange(4))]
        return {"high": r.randrange(90), "low": [1, "a"]}
    if flavor == 5:
        return r.random() < 0.5
    if flavor == 6:
        return r.choice([1, -1]) * r.randrange(1, 1000) * 10**20
    return r.choice(["2023-02-29", "2024-01-01 10:00", [1, 2], r.randrange(10)])


KEYS = ["id", "name", "at", "price", "tags", "été", "x y", "n"]


def random_row(r, depth=0):
    order = list(range(len(KEYS)))
    if r.random() < 0.2:
        r.shuffle(order)
    row = {}
    for k in order[:3 if depth else 6]:
        if r.random() < 0.15:
            continue   # sparse
        flavor = (k + depth * 3) % 9
        if r.random() < 0.08:
            flavor = r.randrange(9)   # a mixed column
        row[KEYS[k]] = random_value(r, flavor, depth)
    return row


@needs_cli
def test_random_tables(tmp_path):
    r = random.Random(20240301)
    for n in range(60):
        rows = [random_row(r) for _ in range(r.randrange(1, 12))]
        if not any(rows):
            rows[0]["id"] = 1
        try:
            doc, notes = encoded(rows)
        except jj.Error as e:   # rows without keys: both refuse
            assert "no columns" in str(e), (n, rows)
            continue
        assert (doc, notes) == converted(rows, tmp_path), (n, rows)


def test_from_json():
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        doc = jj.from_json('[{"a": 1, "b": "2024-01-01"}, {"a": 2.5, "c": [{"q": 1}]}]')
    assert jj.view(doc).types == ("f", "d", {"columns": ["q"], "types": ["i"]})
    assert [str(w.message) for w in seen] == [
        'column "a": integers (row 1, 1), floats (row 2, 2.5) -> f (every integer is exact as a double)']
    assert seen[0].filename == __file__   # the caller's line
    # NDJSON too, bytes or str, a schema as the option's string or a dict
    assert jj.from_json(b'{"a":1}\n{"a":2}\n', schema="a:f") == \
        jj.from_json('{"a":1}\n{"a":2}\n', schema={"a": "f"}) == \
        b'{"jalapenojson":1,"columns":["a"],"types":["f"],"rows":[\n[1.0],\n[2.0]\n]}'
    assert jj.from_json(bytearray(b'[{"a":"x"}]'), schema={"a": "i"}, bad_to_null=True) == \
        b'{"jalapenojson":1,"columns":["a"],"types":["i"],"rows":[\n[null]\n]}'
    with pytest.raises(jj.Error) as e:
        jj.from_json('[{"a": 1}, {"a": }]')
    assert str(e.value) == 'row 2, column "a", byte 17: expected a value, found "}]"'
    assert (e.value.code, e.value.row, e.value.offset) == ("syntax", 2, 17)
    with pytest.raises(jj.Error, match="is not an integer") as e:
        jj.from_json('[{"a": "x"}]', schema="a:i")
    with pytest.raises(jj.Error, match="the schema option, at byte 2") as e:
        jj.from_json('[{"a": 1}]', schema="a:q")
    assert e.value.code == "usage"
    with pytest.raises(jj.Error, match="lone surrogate"):
        jj.from_json('[{"a": "\ud800"}]')
    with pytest.raises(TypeError):
        jj.from_json(5)
    with pytest.raises(TypeError):
        jj.from_json("[]", schema=5)
    with warnings.catch_warnings():
        warnings.simplefilter("error", jj.InferenceWarning)
        with pytest.raises(jj.InferenceWarning, match='column "a": integers'):
            jj.from_json('[{"a": 1}, {"a": "x"}]')


def test_from_csv():
    csv = "id;name;joined;ok\n1;ann;2024-01-01;true\n2;;2024-02-29;false\n"
    with pytest.warns(jj.InferenceWarning, match="read as CSV with the delimiter ';'"):
        doc = jj.from_csv(csv)
    assert jj.decode(doc) == [
        {"id": 1, "name": "ann", "joined": dt.date(2024, 1, 1), "ok": "true"},
        {"id": 2, "name": None, "joined": dt.date(2024, 2, 29), "ok": "false"}]
    doc = jj.from_csv(csv.encode(), delimiter=";", booleans=True, empty_is_text=True)
    assert jj.decode(doc)[1]["ok"] is False and jj.decode(doc)[1]["name"] == ""
    doc = jj.from_csv("a\tb\n1\tNA\n", delimiter="\t", null="NA")
    assert jj.decode(doc) == [{"a": 1, "b": None}]
    assert jj.from_csv("a,b\n1,x\n", schema="a:f", delimiter=",") == \
        b'{"jalapenojson":1,"columns":["a","b"],"types":["f","s"],"rows":[\n[1.0,"x"]\n]}'
    with pytest.raises(jj.Error) as e:
        jj.from_csv("a,b\n1,2\n3\n", delimiter=",")
    assert (e.value.code, e.value.row) == ("row", 2)
    with pytest.raises(TypeError, match="1-character"):
        jj.from_csv("a\n", delimiter=",,")
    with pytest.raises(jj.Error, match="delimiter"):
        jj.from_csv("a\n", delimiter='"')
