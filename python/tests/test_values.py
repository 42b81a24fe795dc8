"""Every type read and written: the value mapping of docs/python.md's
section, the options that read dates and timestamps as text, and the
values a datetime cannot hold (errors naming the option, never a silent
change)."""
import datetime as dt
import math
import struct

import pytest

import jalapenojson as jj
from conftest import document

UTC = dt.timezone.utc


def tz(minutes):
    return dt.timezone(dt.timedelta(minutes=minutes))


def bits(x):
    return struct.pack("<d", x)


def one(type_letter, text, **kw):
    """The value of a one-column, one-row document."""
    return jj.decode(document(["a"], [type_letter], "[%s]" % text), **kw)[0]["a"]


def test_integers():
    for text, value in [("0", 0), ("-0", 0), ("42", 42), ("-1", -1),
                        ("9223372036854775807", 2**63 - 1),
                        ("-9223372036854775808", -2**63)]:
        got = one("i", text)
        assert got == value and type(got) is int


def test_floats_exact():
    for text, value in [("0.1", 0.1), ("19.99", 19.99), ("1e308", 1e308),
                        ("5e-324", 5e-324), ("-0.0", -0.0), ("29", 29.0),
                        ("2.2250738585072011e-308", 2.2250738585072011e-308),
                        ('"Infinity"', math.inf), ('"-Infinity"', -math.inf)]:
        got = one("f", text)
        assert type(got) is float and bits(got) == bits(value), text
    assert math.isnan(one("f", '"NaN"'))
    assert math.copysign(1, one("f", "-0.0")) == -1


def test_text_bool_bytes_null():
    assert one("s", '"caf\u00e9 \\u0000 \\ud83d\\ude00 \\"q\\""') == 'café \x00 😀 "q"'
    assert one("b", "true") is True and one("b", "false") is False
    assert one("x", '"AAEC/w=="') == b"\x00\x01\x02\xff"
    assert one("x", '""') == b""
    for letter in "ifsdtbx":
        assert one(letter, "null") is None


def test_dates():
    assert one("d", '"2024-03-01"') == dt.date(2024, 3, 1)
    assert one("d", '"0001-01-01"') == dt.date.min
    assert one("d", '"9999-12-31"') == dt.date.max
    assert type(one("d", '"2024-02-29"')) is dt.date
    assert one("d", '"2024-03-01"', dates="text") == "2024-03-01"


def test_date_year_zero_is_an_error_naming_the_option():
    with pytest.raises(jj.Error) as e:
        one("d", '"0000-01-01"')
    assert str(e.value) == ('row 1, column "a", byte 58: "0000-01-01" is before '
                            'year 1, the first a datetime.date holds (read '
                            'dates as text: dates="text")')
    assert (e.value.code, e.value.row, e.value.column, e.value.offset) == \
        ("date", 1, "a", 58)
    assert one("d", '"0000-01-01"', dates="text") == "0000-01-01"


def test_timestamps_keep_fields_and_zone():
    got = one("t", '"2024-03-01T10:30:00.25+05:30"')
    assert got == dt.datetime(2024, 3, 1, 10, 30, 0, 250000, tz(330))
    assert got.utcoffset() == dt.timedelta(minutes=330)
    assert (got.hour, got.minute) == (10, 30)   # the fields as written
    assert one("t", '"1970-01-01T00:00:00Z"').tzinfo is UTC
    assert one("t", '"1970-01-01T00:00:00+00:00"').tzinfo is UTC
    assert one("t", '"2024-03-01T23:59:59-23:59"').utcoffset() == \
        -dt.timedelta(hours=23, minutes=59)
    assert one("t", '"9999-12-31T23:59:59.999999-01:00"') == \
        dt.datetime(9999, 12, 31, 23, 59, 59, 999999, tz(-60))


def test_timestamp_fraction_digits():
    for frac, us in [("1", 100000), ("12", 120000), ("123456", 123456),
                     ("1234560", 123456), ("123456000", 123456)]:
        assert one("t", '"2024-03-01T00:00:00.%sZ"' % frac).microsecond == us
    # digits below the microsecond that are not zero cannot be kept
    for frac in ("1234567", "123456789", "000000001"):
        text = "2024-03-01T00:00:00.%sZ" % frac
        with pytest.raises(jj.Error) as e:
            one("t", '"%s"' % text)
        assert str(e.value) == (
            'row 1, column "a", byte 58: "%s" has digits below the '
            'microsecond, which a datetime cannot hold (read timestamps as '
            'text: timestamps="text")' % text)
        assert e.value.code == "timestamp"
        assert one("t", '"%s"' % text, timestamps="text") == text


def test_timestamp_year_zero():
    with pytest.raises(jj.Error, match="before year 1"):
        one("t", '"0000-03-01T00:00:00Z"')
    assert one("t", '"0000-03-01T00:00:00Z"', timestamps="text") == \
        "0000-03-01T00:00:00Z"


def test_nested_tables_as_lists_and_tuples():
    doc = document(["id", "items"], ["i", {"columns": ["sku", "qty"], "types": ["s", "i"]}],
                   '[1,[["a",2],["b",1]]]', "[2,[]]", "[3,null]")
    assert jj.decode(doc) == [
        {"id": 1, "items": [{"sku": "a", "qty": 2}, {"sku": "b", "qty": 1}]},
        {"id": 2, "items": []}, {"id": 3, "items": None}]
    assert jj.decode(doc, rows="tuple") == [
        (1, [("a", 2), ("b", 1)]), (2, []), (3, None)]


def test_error_inside_a_nested_table_names_the_path():
    doc = document(["id", "items"], ["i", {"columns": ["day"], "types": ["d"]}],
                   '[1,[["2024-01-01"],["0000-01-01"]]]')
    with pytest.raises(jj.Error) as e:
        jj.decode(doc)
    assert str(e.value).startswith(
        'row 1, column "items", row 2, column "day", byte ')
    assert (e.value.row, e.value.column) == (1, "items")
    assert doc[e.value.offset:e.value.offset + 12] == b'"0000-01-01"'


def test_str_bytearray_memoryview_inputs():
    doc = document(["a"], ["s"], '["x"]')
    for data in (doc, doc.decode(), bytearray(doc), memoryview(doc)):
        assert jj.decode(data) == [{"a": "x"}]
    with pytest.raises(TypeError, match="data must be bytes"):
        jj.decode(12)
    with pytest.raises(jj.Error, match="lone surrogate") as e:
        jj.decode('{"jalapenojson":1 \ud800')
    assert e.value.code == "utf8"


def test_options_are_checked():
    doc = document(["a"], ["s"], '["x"]')
    for kw in ({"rows": "list"}, {"dates": "iso"}, {"timestamps": 1},
               {"max_size": -1}, {"max_depth": 5000}):
        with pytest.raises(ValueError):
            jj.decode(doc, **kw)


# ---------------------------------------------------------------------------
# Writing every type
# ---------------------------------------------------------------------------

EVERY = [
    {"id": 1, "name": "café", "price": 19.99, "day": dt.date(2024, 3, 1),
     "at": dt.datetime(2024, 3, 1, 10, 30, 0, 250000, tz(330)), "ok": True,
     "blob": b"\x00\x01\x02\xff", "items": [{"sku": "a-1", "qty": 2}, {"sku": 'b"2', "qty": 1}]},
    {"id": 2, "name": None, "price": math.nan, "day": None, "at": None,
     "ok": False, "blob": b"", "items": []},
    {"id": -3, "name": "tab\there", "price": -0.0, "day": dt.date(1, 1, 1),
     "at": dt.datetime(1970, 1, 1, tzinfo=UTC), "ok": None, "blob": None,
     "items": None},
]

EVERY_TEXT = (
    b'{"jalapenojson":1,"columns":["id","name","price","day","at","ok","blob","items"],'
    b'"types":["i","s","f","d","t","b","x",{"columns":["sku","qty"],"types":["s","i"]}],"rows":[\n'
    b'[1,"caf\xc3\xa9",19.99,"2024-03-01","2024-03-01T10:30:00.25+05:30",true,"AAEC/w==",[["a-1",2],["b\\"2",1]]],\n'
    b'[2,null,"NaN",null,null,false,"",[]],\n'
    b'[-3,"tab\\there",-0.0,"0001-01-01","1970-01-01T00:00:00Z",null,null,null]\n]}')


def test_encode_every_type_canonically():
    assert jj.encode(EVERY) == EVERY_TEXT
    back = jj.decode(EVERY_TEXT)
    for a, b in zip(back, EVERY):
        for k in a:
            if isinstance(b[k], float):
                assert bits(a[k]) == bits(b[k]) or (math.isnan(a[k]) and math.isnan(b[k]))
            else:
                assert a[k] == b[k], k


def test_encode_tuples_with_columns_and_types():
    rows = [tuple(r.values()) for r in EVERY]
    assert jj.encode(rows, columns=list(EVERY[0])) == EVERY_TEXT
    out = jj.encode([(1, "2024-03-01")], ["n", "d"], ["f", "d"])
    assert out.endswith(b'[1.0,"2024-03-01"]\n]}') and b'"types":["f","d"]' in out
    out = jj.encode([{"n": 1, "d": "2024-03-01"}], types={"d": "d"})
    assert b'"types":["i","d"]' in out


def test_encode_timestamps_fewest_digits_and_zones():
    def text(d):
        return jj.encode([{"t": d}]).split(b"\n")[1]
    assert text(dt.datetime(2024, 3, 1, 10, 30, tzinfo=UTC)) == b'["2024-03-01T10:30:00Z"]'
    assert text(dt.datetime(2024, 3, 1, 10, 30, 0, 120000, tz(-90))) == \
        b'["2024-03-01T10:30:00.12-01:30"]'
    assert text(dt.datetime(2024, 3, 1, 0, 0, 0, 1, tz(1439))) == \
        b'["2024-03-01T00:00:00.000001+23:59"]'


def test_naive_datetimes_are_local_timestamps():
    naive = [dt.datetime(2024, 3, 1), dt.datetime(2024, 3, 1, 23, 59, 59, 250000),
             dt.datetime(1, 1, 1, 0, 0, 0, 1), dt.datetime(9999, 12, 31, 23, 59, 59, 999999)]
    doc = jj.encode([{"t": v} for v in naive])
    assert doc == (b'{"jalapenojson":1,"columns":["t"],"types":["l"],"rows":[\n'
                   b'["2024-03-01T00:00:00"],\n["2024-03-01T23:59:59.25"],\n'
                   b'["0001-01-01T00:00:00.000001"],\n["9999-12-31T23:59:59.999999"]\n]}')
    back = jj.decode(doc)
    assert [r["t"] for r in back] == naive
    assert all(r["t"].tzinfo is None for r in back)
    assert jj.decode(doc, timestamps="text")[1] == {"t": "2024-03-01T23:59:59.25"}

    class Stamp(dt.datetime):   # as pandas' Timestamp: a datetime subclass
        pass
    assert jj.encode([{"t": Stamp(2024, 3, 1, 10, 30)}]) == \
        b'{"jalapenojson":1,"columns":["t"],"types":["l"],"rows":[\n["2024-03-01T10:30:00"]\n]}'
    # aware ones stay t; both in one column are text, with a note
    with pytest.warns(jj.InferenceWarning, match="with and without a zone"):
        mixed = jj.encode([{"t": naive[0]}, {"t": dt.datetime(2024, 3, 1, tzinfo=UTC)}])
    assert b'"types":["s"]' in mixed
    # an explicit t column takes a naive datetime as UTC, with a note
    with pytest.warns(jj.InferenceWarning, match="taken as UTC"):
        utc = jj.encode([{"t": naive[0]}], types=["t"])
    assert jj.decode(utc) == [{"t": dt.datetime(2024, 3, 1, tzinfo=UTC)}]
    # inside a nested table
    nested = jj.encode([{"o": 1, "items": [{"at": naive[1]}, {"at": naive[0]}]}])
    assert b'{"columns":["at"],"types":["l"]}' in nested
    assert jj.decode(nested)[0]["items"] == [{"at": naive[1]}, {"at": naive[0]}]
    # text in SQLite's form is a local timestamp too, written with a T
    with pytest.warns(jj.InferenceWarning, match="written with T for the space"):
        spaced = jj.encode([{"t": "2024-03-01 10:30:00.5"}])
    assert jj.decode(spaced) == [{"t": dt.datetime(2024, 3, 1, 10, 30, 0, 500000)}]


def test_encode_datetime_errors():
    with pytest.raises(jj.Error) as e:
        jj.encode([{"t": dt.datetime(2024, 3, 1, tzinfo=UTC)}], types=["l"])
    assert str(e.value) == ('row 1, column "t": "2024-03-01T00:00:00Z" is not a '
                            'local timestamp (the schema says t:l)')
    assert (e.value.code, e.value.row, e.value.column) == ("timestamp", 1, "t")
    odd = dt.timezone(dt.timedelta(seconds=30))
    with pytest.raises(jj.Error, match="with seconds"):
        jj.encode([{"t": dt.datetime(2024, 3, 1, tzinfo=odd)}])


def test_encode_zoneinfo_offsets():
    zoneinfo = pytest.importorskip("zoneinfo")
    try:
        oslo = zoneinfo.ZoneInfo("Europe/Oslo")
    except zoneinfo.ZoneInfoNotFoundError:
        pytest.skip("no time zone data (tzdata)")
    out = jj.encode([{"t": dt.datetime(2024, 7, 1, 12, 0, tzinfo=oslo)},
                     {"t": dt.datetime(2024, 1, 1, 12, 0, tzinfo=oslo)}])
    assert b'"2024-07-01T12:00:00+02:00"' in out and b'"2024-01-01T12:00:00+01:00"' in out


def test_bool_is_not_an_int_and_datetime_is_not_a_date():
    assert b'"types":["b"]' in jj.encode([{"a": True}, {"a": False}])
    assert b'"types":["t"]' in jj.encode([{"a": dt.datetime(2024, 1, 1, tzinfo=UTC)}])
    # mixed: text, told (a bool is not a number, a datetime is not a date)
    with pytest.warns(jj.InferenceWarning, match=r"booleans \(row 1, true\), integers \(row 2, 1\) -> s"):
        assert jj.decode(jj.encode([{"a": True}, {"a": 1}])) == [{"a": "true"}, {"a": "1"}]
    with pytest.warns(jj.InferenceWarning, match=r"dates .* timestamps .* -> s"):
        doc = jj.encode([{"a": dt.date(2024, 1, 1)}, {"a": dt.datetime(2024, 1, 1, tzinfo=UTC)}])
    assert jj.decode(doc) == [{"a": "2024-01-01"}, {"a": "2024-01-01T00:00:00Z"}]
    # explicit b takes sqlite3's 0 and 1
    assert jj.encode([{"a": 1}, {"a": 0}], types=["b"]).endswith(b"[true],\n[false]\n]}")
    with pytest.raises(jj.Error, match=r"2 is not a boolean \(the schema says a:b\)"):
        jj.encode([{"a": 2}], types=["b"])
