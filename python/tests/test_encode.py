"""encode(): names, given types, types inferred as jj_group infers them
(and its refusal to guess across kinds), and every error with its place."""
import datetime as dt
import decimal

import pytest

import jalapenojson as jj


def types_of(doc):
    return jj.view(doc).types


def test_inference_mirrors_jj_group():
    rows = [{"i": 1, "f": 1.5, "n": 1, "s": "a", "x": b"\x01", "z": None,
             "d": dt.date(2024, 1, 1), "b": True},
            {"i": 2, "f": 2.5, "n": 2.5, "s": "b", "x": bytearray(b"\x02"),
             "z": None, "d": None, "b": None}]
    doc = jj.encode(rows)
    # int -> i, float -> f, int and float -> f, str -> s, bytes -> x,
    # only None -> s (jj_group's all-NULL column), date -> d, bool -> b
    assert types_of(doc) == ("i", "f", "f", "s", "x", "s", "d", "b")
    assert jj.decode(doc)[0]["n"] == 1.0 and type(jj.decode(doc)[0]["n"]) is float
    assert jj.decode(doc)[1]["x"] == b"\x02"


def test_ints_in_a_float_column_must_be_exact():
    assert jj.encode([{"a": 2**53}, {"a": 0.5}]).split(b"\n")[1] == b"[9007199254740992.0],"
    with pytest.raises(jj.Error) as e:
        jj.encode([{"a": 2**53 + 1}, {"a": 0.5}])
    assert str(e.value) == ('row 1, column "a": 9007199254740993 cannot be '
                            'written as a float exactly (the column is f)')
    assert e.value.code == "range"


def test_mixed_kinds_are_refused_naming_both():
    cases = [([1, "x"], "numbers and strs (this value is a str"),
             (["x", b"y"], "strs and bytes (this value is a bytes"),
             ([b"y", 2.5], "bytes and numbers (this value is a float"),
             ([dt.date(2024, 1, 1), "2024-01-02"], "dates and strs"),
             ([[{"a": 1}], 3], "nested tables and numbers")]
    for values, words in cases:
        with pytest.raises(jj.Error) as e:
            jj.encode([{"c": v} for v in values])
        assert 'row 2, column "c": the column mixes %s' % words in str(e.value)
        assert (e.value.code, e.value.row, e.value.column, e.value.offset) == \
            ("type", 2, "c", None)


def test_a_given_type_settles_the_kinds():
    doc = jj.encode([{"c": "2024-01-01"}, {"c": dt.date(2024, 1, 2)}], types={"c": "d"})
    assert jj.decode(doc) == [{"c": dt.date(2024, 1, 1)}, {"c": dt.date(2024, 1, 2)}]
    with pytest.raises(jj.Error) as e:
        jj.encode([{"c": "2023-02-29"}], types=["d"])
    assert str(e.value) == 'row 1, column "c": "2023-02-29" is not a date (2023 is not a leap year)'
    assert (e.value.code, e.value.row, e.value.column) == ("date", 1, "c")


def test_values_a_column_cannot_hold():
    for t, v, words in [("i", "1", "an integer column cannot hold a str"),
                        ("i", True, "an integer column cannot hold a bool"),
                        ("f", "1", "a float column cannot hold a str"),
                        ("s", 1, "a text column cannot hold an int"),
                        ("d", dt.datetime(2024, 1, 1, tzinfo=dt.timezone.utc),
                         "a date column cannot hold a datetime.datetime"),
                        ("x", "ab", "a bytes column cannot hold a str"),
                        ("b", "true", "a boolean column cannot hold a str"),
                        ("t", 5, "a timestamp column cannot hold an int")]:
        with pytest.raises(jj.Error) as e:
            jj.encode([{"c": v}], types=[t])
        assert str(e.value) == 'row 1, column "c": ' + words
    with pytest.raises(jj.Error, match="cannot write a decimal.Decimal"):
        jj.encode([{"c": decimal.Decimal("1.5")}])
    with pytest.raises(jj.Error, match="does not fit a 64-bit integer"):
        jj.encode([{"c": 2**63}])
    with pytest.raises(jj.Error, match="lone surrogate") as e:
        jj.encode([{"c": "\ud800"}])
    assert e.value.code == "utf8"


def test_row_shapes():
    with pytest.raises(jj.Error) as e:
        jj.encode([{"a": 1, "b": 2}, {"a": 1}])
    assert str(e.value) == ('row 2, column "b": the row has no value (a row '
                            'has a value for each column: None for null)')
    with pytest.raises(jj.Error) as e:
        jj.encode([{"a": 1}, {"a": 1, "b": 2}])
    assert str(e.value) == ("row 2: the key 'b' is not a column (a row has a "
                            "value for each column and nothing else)")
    assert (e.value.row, e.value.column) == (2, None)
    with pytest.raises(jj.Error, match="row 2: expected 2 values, found 3"):
        jj.encode([(1, 2), (1, 2, 3)], columns=["a", "b"])
    with pytest.raises(jj.Error, match="row 1: a row must be a dict or a tuple, found an int"):
        jj.encode([5], columns=["a"])
    with pytest.raises(jj.Error, match="need columns="):
        jj.encode([(1, 2)])
    with pytest.raises(jj.Error, match="no rows and no columns"):
        jj.encode([])
    with pytest.raises(TypeError):
        jj.encode("abc")


def test_columns_and_types_arguments():
    assert jj.encode([], ["a", "b"], ["i", None]) == \
        b'{"jalapenojson":1,"columns":["a","b"],"types":["i","s"],"rows":[\n]}'
    assert jj.encode(iter([{"a": 1}])).endswith(b"[1]\n]}")   # any iterable
    with pytest.raises(jj.Error, match='unknown type \'q\' for column "a"'):
        jj.encode([], ["a"], ["q"])
    with pytest.raises(jj.Error, match="types has 1 entries for 2 columns"):
        jj.encode([], ["a", "b"], ["i"])
    with pytest.raises(jj.Error, match="types names 'c', which is not a column"):
        jj.encode([], ["a"], {"c": "i"})
    with pytest.raises(jj.Error, match='duplicate column name "a"'):
        jj.encode([], ["a", "a"])
    with pytest.raises(jj.Error, match="empty name"):
        jj.encode([{"": 1}])
    with pytest.raises(TypeError, match="column names must be str"):
        jj.encode([{1: 1}])


def test_nested_tables_inferred_given_and_from_views():
    rows = [{"id": 1, "items": [{"sku": "a", "qty": 2}]},
            {"id": 2, "items": [{"sku": "b", "qty": 1.5}, {"sku": None, "qty": 3}]},
            {"id": 3, "items": []}, {"id": 4, "items": None}]
    doc = jj.encode(rows)
    assert types_of(doc) == ("i", {"columns": ["sku", "qty"], "types": ["s", "f"]})
    assert jj.decode(doc)[1]["items"] == [{"sku": "b", "qty": 1.5}, {"sku": None, "qty": 3.0}]
    # a View's rows (its nested values are Views) encode back the same
    assert jj.encode(jj.view(doc)) == doc
    assert jj.encode(list(jj.view(doc))) == doc
    given = jj.encode([(1, [("a", 2)])], ["id", "items"],
                      ["i", {"columns": ["sku", "qty"], "types": ["s", "i"]}])
    assert types_of(given)[1] == {"columns": ["sku", "qty"], "types": ["s", "i"]}
    with pytest.raises(jj.Error, match='column "items" has no nested row'):
        jj.encode([{"items": []}])
    with pytest.raises(jj.Error, match="nested table's rows must be dicts"):
        jj.encode([{"items": [(1, 2)]}])
    with pytest.raises(jj.Error) as e:
        jj.encode([{"id": 1, "items": [{"q": 1}]}, {"id": 2, "items": [{"q": 1}, {"q": "x"}]}])
    assert str(e.value) == ('row 2, column "items", row 2, column "q": the column '
                            'mixes numbers and strs (this value is a str; give '
                            'its type with types= to write one kind)')
    assert (e.value.row, e.value.column) == (2, "items")


def test_deep_nesting_is_a_recursion_error_not_a_crash():
    value = []
    for _ in range(5000):
        value = [{"t": value}]
    with pytest.raises((RecursionError, jj.Error)):
        jj.encode([{"t": value}])
