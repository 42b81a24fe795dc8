"""from_csv's thousands, null by column (a dict) and header=False against
the CLI converter's --thousands, --null-for and --no-header on
tests/data/unemployment_grouped.tsv: the same document bytes; and the
keywords' bad values."""
import os
import subprocess
import warnings

import pytest

import jalapenojson as jj
from conftest import ROOT

CLI = os.environ.get("JJ_CLI") or os.path.join(ROOT, "build", "jalapenojson")
FIXTURE = os.path.join(ROOT, "tests", "data", "unemployment_grouped.tsv")
needs_cli = pytest.mark.skipif(not os.path.exists(CLI), reason="the CLI is not built (make)")


def raw():
    with open(FIXTURE, "rb") as f:
        return f.read()


def headless():
    return raw().split(b"\n", 1)[1]


def cli(tmp_path, data, args):
    src = tmp_path / "in.tsv"
    src.write_bytes(data)
    run = subprocess.run([CLI, "convert", "-q", "--from", "tsv"] + args + [str(src), "-"],
                         capture_output=True)
    assert run.returncode == 0, run.stderr
    return run.stdout


def quiet(data, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", jj.InferenceWarning)
        return jj.from_csv(data, delimiter="\t", **kw)


CASES = [
    (raw, ["--thousands", ","], dict(thousands=",")),
    (raw, ["--null-for", "rate=NA"], dict(null={"rate": "NA"})),
    (raw, ["--thousands", ",", "--null-for", "rate=NA", "--null-for", "unemployed=NA"],
     dict(thousands=",", null={"rate": ["NA"], "unemployed": ("NA",)})),
    (raw, ["--null", "", "--null-for", "rate=NA", "--null-for", "rate=."],
     dict(null={"*": [""], "rate": ["NA", "."]})),
    (headless, ["--no-header", "--thousands", ","], dict(header=False, thousands=",")),
    (headless, ["--no-header", "--null-for", "column_5=NA"], dict(header=False, null={"column_5": "NA"})),
]


@needs_cli
@pytest.mark.parametrize("make,args,kw", CASES)
def test_same_document_as_the_cli(tmp_path, make, args, kw):
    data = make()
    assert quiet(data, **kw) == cli(tmp_path, data, args)


def test_the_rows_and_notes():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", jj.InferenceWarning)
        rows = jj.decode(jj.from_csv(raw(), thousands=",", null={"rate": "NA", "unemployed": "NA"}))
    assert [r["labor_force"] for r in rows] == [25957, 93849, 8373, 8661, 25006, 4776, 8879]
    assert rows[4]["unemployed"] is None and rows[4]["rate"] is None
    assert rows[0]["unemployed"] == 1324 and rows[6]["rate"] == 5.0
    said = [str(w.message) for w in caught]
    assert ('column "labor_force": 7 numbers with thousands separators (first: row 1, "25,957") '
            "read as integers") in said
    assert 'column "rate": 1 field read as null by its null markers ("NA"; first: row 5)' in said


def test_without_the_options_nothing_changes():
    data = raw()
    assert quiet(data) == quiet(data, thousands=None, header=True, null=None)
    rows = jj.decode(quiet(data))
    assert rows[0]["labor_force"] == "25,957" and rows[4]["rate"] == "NA"


@pytest.mark.filterwarnings("ignore::jalapenojson.InferenceWarning")
def test_header_false():
    rows = jj.decode(jj.from_csv("1,x\n2,y\n", header=False))
    assert rows == [{"column_1": 1, "column_2": "x"}, {"column_1": 2, "column_2": "y"}]
    with pytest.raises(jj.Error) as e:
        jj.from_csv("1,2\n3\n", header=False)
    assert "expected 2 fields (as in the first record), found 1" in str(e.value)


def test_bad_values():
    with pytest.raises(jj.Error) as e:
        jj.from_csv("a,b\n1,2\n", null={"rate": "NA"})
    assert e.value.code == "usage" and 'column "rate" has a null marker but is not in the header' in str(e.value)
    with pytest.raises(jj.Error) as e:
        jj.from_csv("a\n1\n", thousands=".")
    assert e.value.code == "usage" and "thousands separator cannot be" in str(e.value)
    with pytest.raises(TypeError, match="thousands must be a 1-character ASCII str"):
        jj.from_csv("a\n1\n", thousands=",,")
    with pytest.raises(TypeError, match="null must be a str, a list of str, or a dict"):
        jj.from_csv("a\n1\n", null={"a": 5})
    with pytest.raises(TypeError, match="null's keys must be column names"):
        jj.from_csv("a\n1\n", null={1: "x"})
    with pytest.raises(ValueError, match="null takes 1 to 64 texts for a column"):
        jj.from_csv("a\n1\n", null={"a": []})
    with pytest.raises(ValueError, match="at most 64 texts for columns"):
        jj.from_csv("a\n1\n", null={"a": ["x"] * 65})
