"""Every code of SPEC.md's error table (section 8) through the Python API:
the exact message, code, row, column and offset.  The inputs are the
table's own; where the table names a C call, the Python call that reaches
the same failure is used.  JJ_ERR_NOMEM (no input triggers it) becomes
MemoryError; JJ_ERR_INTERRUPTED is a signal handler's exception stopping a
long read (test_files.py)."""
import gzip
import os

import pytest

import jalapenojson as jj

H = '{"jalapenojson":1,"columns":["a"],"types":["%s"],'

# code name, input, keyword arguments, message, row, column, offset
TABLE = [
    ("syntax", b"", {}, "byte 0: the document is empty", None, None, 0),
    ("depth", H % "i" + '"rows":[[[[1]]]]}', {"max_depth": 1},
     'row 1, column "a", byte 58: nesting deeper than the limit', 1, "a", 58),
    ("header", "{}", {}, 'byte 1: expected "jalapenojson" as the first key, found "}"',
     None, None, 1),
    ("version", '{"jalapenojson":2}', {},
     "byte 16: version 2 is not supported (expected the integer 1)", None, None, 16),
    ("schema", '{"jalapenojson":1,"columns":[],"types":[]}', {},
     "byte 28: a table needs at least one column", None, None, 28),
    ("row", H % "i" + '"rows":[[]]}', {}, "row 1, byte 56: expected 1 value, found 0",
     1, None, 56),
    ("count", H % "i" + '"count":1,"rows":[]}', {},
     'byte 56: the header says "count":1 but there are 0 rows', None, None, 56),
    ("type", H % "i" + '"rows":[["1"]]}', {},
     'row 1, column "a", byte 57: expected an integer, found "1"', 1, "a", 57),
    ("range", H % "i" + '"rows":[[1.5]]}', {},
     'row 1, column "a", byte 57: 1.5 is not an integer', 1, "a", 57),
    ("utf8", H % "s" + '"rows":[["\\udc00"]]}', {},
     'row 1, column "a", byte 57: "\\\\udc00" is not valid UTF-8 (lone surrogate '
     '\\udc00-\\udfff (no high surrogate before it))', 1, "a", 57),
    ("date", H % "d" + '"rows":[["2023-02-29"]]}', {},
     'row 1, column "a", byte 57: "2023-02-29" is not a date (2023 is not a leap year)',
     1, "a", 57),
    ("timestamp", H % "t" + '"rows":[["2024-03-01T24:00:00Z"]]}', {},
     'row 1, column "a", byte 57: "2024-03-01T24:00:00Z" is not a timestamp '
     '(hour 24 does not exist)', 1, "a", 57),
    ("base64", H % "x" + '"rows":[["QQ="]]}', {},
     'row 1, column "a", byte 57: "QQ=" is not valid base64 (length is not a '
     'multiple of 4)', 1, "a", 57),
    ("compression", b"\x1f\x8b", {}, "gzip stream is truncated", None, None, None),
    ("limit", gzip.compress(b"abcd"), {"max_size": 3},
     "decompressed size exceeds the limit of 3 bytes", None, None, None),
]


@pytest.mark.parametrize("code,data,kw,message,row,column,offset", TABLE,
                         ids=[t[0] for t in TABLE])
def test_spec_error_table(code, data, kw, message, row, column, offset):
    for reader in (jj.decode, lambda d, **k: list(jj.view(d, **k))):
        with pytest.raises(jj.Error) as e:
            reader(data, **kw)
        err = e.value
        assert str(err) == message
        assert (err.code, err.row, err.column, err.offset) == (code, row, column, offset)
        assert isinstance(err, ValueError)


def test_usage_and_io_rows(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(jj.Error) as e:
        jj.dump([{"a": 1}], "out.jj.zst")
    assert str(e.value) == '"out.jj.zst": .zst compression is not supported (use .gz, .br or no suffix)'
    assert e.value.code == "usage" and not os.listdir(".")
    with pytest.raises(jj.Error) as e:
        jj.load("/nonexistent/missing.jj")
    assert str(e.value) == 'cannot open "/nonexistent/missing.jj": No such file or directory'
    assert (e.value.code, e.value.row, e.value.column, e.value.offset) == ("io", None, None, None)


OTHERS = [  # SPEC 8's "other messages of the same codes", a few of each kind
    ('\ufeff{}'.encode(), "byte 0: a byte order mark is not allowed"),
    ("[]", 'byte 0: expected \'{\' to start a jalapenojson document, found "["'),
    ('{"columns":1}', 'byte 1: the first key must be "jalapenojson", found "columns"'),
    ('{"jalapenojson":1,"columns":["a","a"],"types":["i","i"],"rows":[]}',
     'byte 33: duplicate column name "a"'),
    ('{"jalapenojson":1,"columns":["a"],"types":["q"],"rows":[]}',
     'byte 43: column "a" has type "q", which this reader does not know'),
    (H % "i" + '"rows":[[9223372036854775808]]}',
     'row 1, column "a", byte 57: 9223372036854775808 does not fit a 64-bit integer'),
    (H % "f" + '"rows":[[1e400]]}', 'row 1, column "a", byte 57: 1e400 is out of range for a double'),
    (H % "b" + '"rows":[[1]]}', 'row 1, column "a", byte 57: expected true or false, found 1'),
    (H % "s" + '"rows":[["a]]}', "row 1, column \"a\", byte 57: unterminated string"),
]


@pytest.mark.parametrize("data,message", OTHERS)
def test_other_messages(data, message):
    with pytest.raises(jj.Error) as e:
        jj.decode(data)
    assert str(e.value) == message


def test_error_class():
    assert issubclass(jj.Error, ValueError)
    e = jj.Error("made by hand")
    assert (e.code, e.row, e.column, e.offset) == (None, None, None, None)
    with pytest.raises(jj.Error) as caught:   # not a document, not brotli
        jj.decode(b"\x00\x01garbage")
    assert str(caught.value) == ("byte 0: expected '{' to start a jalapenojson "
                                 'document, found "\\x00"')
    assert caught.value.code == "header" and caught.value.offset == 0
