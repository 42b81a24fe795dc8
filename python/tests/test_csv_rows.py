"""from_csv's null_padding, on_error, rejects and null as a list against the
CLI converter on the same documents (tests/data/releases.csv,
rates_bad.csv, rates_na.tsv; as they
are, CRLF, a byte order mark, TSV): the same document bytes, and the
rejects list equal to the CLI's --rejects file, the input's name aside."""
import json
import os
import subprocess
import warnings

import pytest

import jalapenojson as jj
from conftest import ROOT

CLI = os.environ.get("JJ_CLI") or os.path.join(ROOT, "build", "jalapenojson")
DATA = os.path.join(ROOT, "tests", "data")
needs_cli = pytest.mark.skipif(not os.path.exists(CLI), reason="the CLI is not built (make)")


def shapes(raw):
    return {"plain": raw, "crlf": raw.replace(b"\n", b"\r\n"),
            "bom": b"\xef\xbb\xbf" + raw, "tsv": raw.replace(b",", b"\t")}


def cli(tmp_path, data, args):
    src = tmp_path / "in.csv"
    src.write_bytes(data)
    rej = tmp_path / "rej.ndjson"
    extra = ["--rejects", str(rej)] if "--on-error" in args else []
    run = subprocess.run([CLI, "convert", "-q", "--from", "csv"] + args + extra + [str(src), "-"],
                         capture_output=True)
    assert run.returncode == 0, run.stderr
    rejects = []
    if extra:
        for line in rej.read_text().splitlines():
            r = json.loads(line)
            r["message"] = r["message"].split(": ", 1)[1]  # the input's name
            rejects.append(r)
    return run.stdout, rejects


CASES = [
    ("releases.csv", ["--null-padding"], dict(null_padding=True)),
    ("releases.csv", ["--on-error", "skip"], dict(on_error="skip")),
    ("rates_bad.csv", ["--on-error", "skip", "--schema", "rate:f"], dict(on_error="skip", schema="rate:f")),
    ("rates_bad.csv", ["--on-error", "null", "--schema", "rate:f"], dict(on_error="null", schema="rate:f")),
    ("rates_na.tsv", ["--null", "", "--null", "NA", "--null", "."], dict(null=["", "NA", "."])),
    ("rates_na.tsv", ["--null", "NA", "--null", "NULL"], dict(null=("NA", "NULL"))),
    ("unemployment.tsv", [], {}),
    ("unemployment.tsv", ["--schema", "rate:f"], dict(schema="rate:f")),
]


@needs_cli
@pytest.mark.parametrize("shape", ["plain", "crlf", "bom", "tsv"])
@pytest.mark.parametrize("name,args,kwargs", CASES)
def test_the_same_as_the_cli(tmp_path, name, args, kwargs, shape):
    with open(os.path.join(DATA, name), "rb") as f:
        data = shapes(f.read())[shape]
    want_doc, want_rejects = cli(tmp_path, data, args)
    rejects = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", jj.InferenceWarning)
        doc = jj.from_csv(data, rejects=rejects, **kwargs)
    assert doc == want_doc
    assert rejects == want_rejects
    assert len(jj.decode(doc)) + len(rejects) == data.count(b"\n") - 1


def test_rejects_and_notes():
    rejects = []
    with pytest.warns(jj.InferenceWarning, match=r"2 rows set aside \(first: row 2, column \"rate\""):
        doc = jj.from_csv("id,rate\n1,2.5\n2,NA\n3,1,x\n4,5\n", schema="rate:f",
                          on_error="skip", rejects=rejects)
    assert [r["id"] for r in jj.decode(doc)] == [1, 4]
    assert rejects == [
        {"row": 2, "byte": 16, "column": "rate", "code": "type",
         "message": 'row 2, column "rate", byte 16: "NA" is not a float (exactly) (the schema says rate:f)'},
        {"row": 3, "byte": 19, "column": None, "code": "row",
         "message": "row 3, byte 19: expected 2 fields (as in the header), found 3"}]
    # without a list the rows are still set aside, and the note says so
    with pytest.warns(jj.InferenceWarning, match="1 row set aside"):
        doc = jj.from_csv("a,b\n1,2\n3\n", on_error="skip")
    assert jj.decode(doc) == [{"a": 1, "b": 2}]
    with pytest.warns(jj.InferenceWarning, match="padded with nulls"):
        doc = jj.from_csv("a,b\n1,2\n3\n", null_padding=True)
    assert jj.decode(doc) == [{"a": 1, "b": 2}, {"a": 3, "b": None}]
    with pytest.raises(ValueError, match="on_error"):
        jj.from_csv("a\n1\n", on_error="ignore")
    with pytest.raises(TypeError, match="rejects must be a list"):
        jj.from_csv("a\n1\n", on_error="skip", rejects=())
    with pytest.raises(jj.Error) as e:
        jj.from_csv("a,b\n1,2\n3\n")
    assert (e.value.code, e.value.row) == ("row", 2)
    with pytest.raises(TypeError, match="a list holding int"):
        jj.from_csv("a\n1\n", null=["NA", 1])
    with pytest.raises(ValueError, match="1 to 17 texts"):
        jj.from_csv("a\n1\n", null=[])
