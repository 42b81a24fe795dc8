"""JSONTestSuite's string and number parsing cases through decode() and
view(), as tests/core/test_conformance.c maps them for the C reader (simplified
to these one-value cases):

  a case starting with '[' is one row as it stands; any other case is the
  one value of a row: "[" + case + "\\n]".  The document is
      {"jalapenojson":1,"columns":["a"],"types":[T],"rows":[\\n<row>\\n]}
  with T = "s" for string cases and "f" for number cases, and a second
  document with T = "i" for integer-shaped numbers.  The newline after the
  case keeps an unterminated string unterminated.

y_ cases must read, with the value Python's json module gives (numbers:
float() of the text, bit for bit; integers: int()); n_ cases must fail
with a jalapenojson.Error; i_ cases may do either, never crash.

The cases live beside the repository (../shared/conformance/JSONTestSuite/
test_parsing; $JJ_JSONTESTSUITE overrides the directory).  When they are
missing the test is skipped, visibly, except under CI=true, where it
fails.
"""
import json
import os
import re
import struct

import pytest

import jalapenojson as jj
from conftest import ROOT

CANDIDATES = [os.path.join(ROOT, "..", "shared", "conformance", "JSONTestSuite", "test_parsing")]


def suite_dir():
    env = os.environ.get("JJ_JSONTESTSUITE")
    for d in ([env] if env else CANDIDATES):
        if os.path.isdir(d):
            return d
    msg = "JSONTestSuite not found (%s)" % (env or " or ".join(CANDIDATES))
    if os.environ.get("CI") == "true":
        pytest.fail(msg)
    pytest.skip(msg)


def cases():
    d = suite_dir()
    for name in sorted(os.listdir(d)):
        m = re.match(r"([yni])_(string|number)", name)
        if m:
            with open(os.path.join(d, name), "rb") as f:
                yield name, m.group(1), m.group(2), f.read()


def documents(kind, data):
    """(type letter, document, the value's text) for a case."""
    row = data if data.lstrip(b" \t\r\n")[:1] == b"[" else b"[" + data + b"\n]"
    head = b'{"jalapenojson":1,"columns":["a"],"types":["%s"],"rows":[\n'
    inner = data.strip(b" \t\r\n")
    if inner[:1] == b"[" and inner[-1:] == b"]":
        inner = inner[1:-1].strip(b" \t\r\n")
    docs = [(b"s" if kind == "string" else b"f", inner)]
    if kind == "number" and re.fullmatch(rb"-?\d+", inner):
        docs.append((b"i", inner))
    return [(t.decode(), head % t + row + b"\n]}", text) for t, text in docs]


def read_both(doc):
    """decode() and a View's rows must agree; either raises."""
    rows = jj.decode(doc)
    assert list(jj.view(doc)) == rows or rows != rows  # NaN != NaN
    return rows


def test_jsontestsuite_strings_and_numbers():
    counts = {"y": 0, "n": 0, "i_ok": 0, "i_err": 0}
    for name, expect, kind, data in cases():
        for t, doc, text in documents(kind, data):
            if expect == "y":
                rows = read_both(doc)
                assert len(rows) == 1, name
                got = rows[0]["a"]
                if t == "s":
                    want = json.loads(b"[" + text + b"]")[0]
                    assert got == want, name
                elif t == "f":
                    assert struct.pack("<d", got) == struct.pack("<d", float(text)), name
                else:
                    assert got == int(text) and type(got) is int, name
                counts["y"] += 1
            elif expect == "n":
                with pytest.raises(jj.Error) as e:
                    read_both(doc)
                assert str(e.value) and e.value.code, name
                counts["n"] += 1
            else:
                try:
                    read_both(doc)
                    counts["i_ok"] += 1
                except jj.Error as e:
                    assert str(e) and e.code, name
                    counts["i_err"] += 1
    print("jsontestsuite strings and numbers: %(y)d y_ read right, %(n)d n_ "
          "refused, i_: %(i_ok)d read, %(i_err)d refused" % counts)
    assert counts["y"] > 50 and counts["n"] > 50
