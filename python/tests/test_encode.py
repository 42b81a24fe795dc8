"""encode(): names, given types, types inferred by the core's row builder
(the converter's rules: sparse keys, ints and floats, dates as text, mixed
columns as text with an InferenceWarning, nested tables, dicts as JSON
text), and every error with its place."""
import datetime as dt
import decimal
import warnings

import pytest

import jalapenojson as jj


def types_of(doc):
    return jj.view(doc).types


def quiet(*args, **kwargs):
    """encode() with its InferenceWarnings, as (document, [messages])."""
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        doc = jj.encode(*args, **kwargs)
    return doc, [str(w.message) for w in seen if w.category is jj.InferenceWarning]


def test_inference_follows_the_converter():
    rows = [{"i": 1, "f": 1.5, "n": 1, "s": "a", "x": b"\x01", "z": None,
             "d": dt.date(2024, 1, 1), "b": True},
            {"i": 2, "f": 2.5, "n": 2.5, "s": "b", "x": bytearray(b"\x02"),
             "z": None, "d": None, "b": None}]
    doc, notes = quiet(rows)
    # int -> i, float -> f, int and float -> f, str -> s, bytes -> x,
    # only None -> s (told), date -> d, bool -> b
    assert types_of(doc) == ("i", "f", "f", "s", "x", "s", "d", "b")
    assert notes == ['column "n": integers (row 1, 1), floats (row 2, 2.5) -> f '
                     '(every integer is exact as a double)',
                     'column "z": no value but null -> s']
    assert jj.decode(doc)[0]["n"] == 1.0 and type(jj.decode(doc)[0]["n"]) is float
    assert jj.decode(doc)[1]["x"] == b"\x02"


def test_ints_in_a_float_column_must_be_exact():
    doc, notes = quiet([{"a": 2**53}, {"a": 0.5}])
    assert doc.split(b"\n")[1] == b"[9007199254740992.0],"
    # not exact: the column is text, every value as written, and told
    doc, notes = quiet([{"a": 2**53 + 1}, {"a": 0.5}])
    assert jj.decode(doc) == [{"a": "9007199254740993"}, {"a": "0.5"}]
    assert notes == ['column "a": integers (row 1, 9007199254740993), floats '
                     '(row 2, 0.5) -> s (an integer not exact as a double)']
    # given f: an error, located
    with pytest.raises(jj.Error) as e:
        jj.encode([{"a": 2**53 + 1}, {"a": 0.5}], types=["f"])
    assert str(e.value) == ('row 1, column "a": 9007199254740993 is not a float '
                            '(exactly) (the schema says a:f)')
    assert e.value.code == "range"


def test_mixed_columns_are_text_with_a_warning():
    cases = [([1, "x"], ["1", "x"], 'integers (row 1, 1), text (row 2, "x") -> s'),
             ([True, 1], ["true", "1"], "booleans (row 1, true), integers (row 2, 1) -> s"),
             ([dt.date(2024, 1, 1), "x"], ["2024-01-01", "x"],
              'dates (row 1, "2024-01-01"), text (row 2, "x") -> s')]
    for values, texts, words in cases:
        doc, notes = quiet([{"c": v} for v in values])
        assert types_of(doc) == ("s",)
        assert [r["c"] for r in jj.decode(doc)] == texts
        assert notes == ['column "c": ' + words]
    # rows, dicts or lists among other values: all JSON values, a j column
    cases = [([[{"a": 1}], 3], [[{"a": 1}], 3],
              'integers (row 2, 3), arrays of objects (row 1, [{\\"a\\":1}]) -> j '
              '(every value kept as JSON)'),
             ([{"k": [1, None]}, "x", True, 2.5, 2**70], [{"k": [1, None]}, "x", True, 2.5, 2**70],
              'booleans (row 3, true), integers beyond 64 bits (row 5, 1180591620717411303424), '
              'floats (row 4, 2.5), text (row 2, "x"), other arrays and objects '
              '(row 1, {\\"k\\":[1,null]}) -> j (every value kept as JSON)')]
    for values, back, words in cases:
        doc, notes = quiet([{"c": v} for v in values])
        assert types_of(doc) == ("j",)
        assert [r["c"] for r in jj.decode(doc)] == back
        assert notes == ['column "c": ' + words]
    # warnings made errors: the mixed column is refused
    with warnings.catch_warnings():
        warnings.simplefilter("error", jj.InferenceWarning)
        with pytest.raises(jj.InferenceWarning, match='column "c": integers'):
            jj.encode([{"c": 1}, {"c": "x"}])
        assert jj.encode([{"c": 1}, {"c": 2}]).endswith(b"[1],\n[2]\n]}")


def test_bytes_mixed_with_anything_are_an_error():
    for values in (["x", b"y"], [b"y", 2.5]):
        with pytest.raises(jj.Error) as e:
            jj.encode([{"c": v} for v in values])
        assert 'column "c" mixes bytes with other values' in str(e.value)
        assert e.value.code == "type"


def test_a_given_type_settles_the_kinds():
    doc = jj.encode([{"c": "2024-01-01"}, {"c": dt.date(2024, 1, 2)}], types={"c": "d"})
    assert jj.decode(doc) == [{"c": dt.date(2024, 1, 1)}, {"c": dt.date(2024, 1, 2)}]
    # dates as text are dates without a type given, too
    assert types_of(jj.encode([{"c": "2024-01-01"}, {"c": dt.date(2024, 1, 2)}])) == ("d",)
    with pytest.raises(jj.Error) as e:
        jj.encode([{"c": "2023-02-29"}], types=["d"])
    assert str(e.value) == 'row 1, column "c": "2023-02-29" is not a date (2023 is not a leap year; the schema says c:d)'
    assert (e.value.code, e.value.row, e.value.column) == ("date", 1, "c")
    # without a type, text that only looks like a date is text, told
    doc, notes = quiet([{"c": "2023-02-29"}])
    assert types_of(doc) == ("s",)
    assert notes == ['column "c": YYYY-MM-DD text that is not a date (row 1, "2023-02-29") -> s']


def test_values_a_column_cannot_hold():
    for t, v, words, code in [
            ("i", "x", '"x" is not an integer (the schema says c:i)', "type"),
            ("i", True, "true is not an integer (the schema says c:i)", "type"),
            ("f", "x", '"x" is not a float (exactly) (the schema says c:f)', "type"),
            ("d", dt.datetime(2024, 1, 1, tzinfo=dt.timezone.utc),
             '"2024-01-01T00:00:00Z" is not a date (the schema says c:d)', "date"),
            ("x", "ab", '"ab" is not base64 bytes (the schema says c:x)', "base64"),
            ("b", "yes", '"yes" is not a boolean (the schema says c:b)', "type"),
            ("t", 5, "5 is not a timestamp (the schema says c:t)", "timestamp")]:
        with pytest.raises(jj.Error) as e:
            jj.encode([{"c": v}], types=[t])
        assert (str(e.value), e.value.code) == ('row 1, column "c": ' + words, code)
    # any value fits s, as its text
    assert jj.decode(jj.encode([{"c": 1}, {"c": True}], types=["s"])) == [{"c": "1"}, {"c": "true"}]
    with pytest.raises(TypeError) as e:
        jj.encode([{"a": 1}, {"a": 2, "c": decimal.Decimal("1.5")}])
    assert str(e.value).startswith('row 2, column "c": cannot write a decimal.Decimal (')
    with pytest.raises(jj.Error, match="lone surrogate") as e:
        jj.encode([{"c": "\ud800"}])
    assert (e.value.code, e.value.row, e.value.column) == ("utf8", 1, "c")
    # a naive datetime is a local timestamp (l); an aware one has a zone
    # that an l column cannot keep
    with pytest.raises(jj.Error, match="is not a local timestamp") as e:
        jj.encode([{"c": dt.datetime(2024, 1, 1, tzinfo=dt.timezone.utc)}], types=["l"])
    assert (e.value.code, e.value.row, e.value.column) == ("timestamp", 1, "c")


def test_big_integers_are_numbers():
    doc, notes = quiet([{"c": 2**63}, {"c": -2**63}])
    assert jj.decode(doc) == [{"c": 9.223372036854776e18}, {"c": -9.223372036854776e18}]
    assert notes and "integers beyond 64 bits" in notes[0]
    doc, notes = quiet([{"c": 2**64 + 1}])
    assert jj.decode(doc) == [{"c": "18446744073709551617"}]
    with pytest.raises(jj.Error, match="is not an integer") as e:
        jj.encode([{"c": 2**63}], types=["i"])
    assert e.value.code == "range"


def test_sparse_keys_and_key_order():
    doc, notes = quiet([{"a": 1}, {"b": "x", "a": 2}, {}, {"c": None}])
    assert jj.view(doc).columns == ("a", "b", "c")
    assert jj.decode(doc, rows="tuple") == [(1, None, None), (2, "x", None),
                                            (None, None, None), (None, None, None)]
    assert notes == ['column "c": no value but null -> s']


def test_row_shapes():
    # columns= fixes the order; a missing key is null, another key an error
    assert jj.decode(jj.encode([{"b": 2, "a": 1}, {"a": 3}], ["a", "b"]), rows="tuple") == \
        [(1, 2), (3, None)]
    with pytest.raises(jj.Error) as e:
        jj.encode([{"a": 1}, {"a": 1, "b": 2}], columns=["a"])
    assert str(e.value) == ("row 2: the key 'b' is not a column (the columns "
                            "are given: ('a',))")
    assert (e.value.row, e.value.column, e.value.code) == (2, None, "row")
    with pytest.raises(jj.Error, match="row 2: expected 2 values, found 3"):
        jj.encode([(1, 2), (1, 2, 3)], columns=["a", "b"])
    with pytest.raises(jj.Error, match="row 1: a row must be a dict or a tuple, found an int"):
        jj.encode([5], columns=["a"])
    with pytest.raises(jj.Error, match="need columns="):
        jj.encode([(1, 2)])
    with pytest.raises(jj.Error, match="row 2: rows that are not dicts need columns="):
        jj.encode([{"a": 1}, (1,)])
    with pytest.raises(jj.Error, match="no rows and no columns"):
        jj.encode([])
    with pytest.raises(TypeError):
        jj.encode("abc")


def test_columns_and_types_arguments():
    doc, notes = quiet([], ["a", "b"], ["i", None])
    assert doc == b'{"jalapenojson":1,"columns":["a","b"],"types":["i","s"],"rows":[\n]}'
    assert notes == ['column "b": no value but null -> s']
    assert jj.encode(iter([{"a": 1}])).endswith(b"[1]\n]}")   # any iterable
    with pytest.raises(jj.Error, match='unknown type \'q\' for column "a"'):
        jj.encode([], ["a"], ["q"])
    with pytest.raises(jj.Error, match="types has 1 entries for 2 columns"):
        jj.encode([], ["a", "b"], ["i"])
    with pytest.raises(jj.Error, match="types names 'c', which is not a column"):
        jj.encode([], ["a"], {"c": "i"})
    # without columns=: a name no row has is the builder's error
    with pytest.raises(jj.Error, match='the schema names column "c", which the input does not have'):
        jj.encode([{"a": 1}], types={"c": "i"})
    # by position without columns=: the first row's keys
    assert types_of(jj.encode([{"a": 1, "b": 2}], types=["f", None])) == ("f", "i")
    with pytest.raises(jj.Error, match='column "a" is named twice'):
        jj.encode([], ["a", "a"])
    with pytest.raises(jj.Error, match="an empty key cannot be a column name"):
        jj.encode([{"": 1}])
    with pytest.raises(TypeError, match="column names must be str"):
        jj.encode([{1: 1}])
    # names that the schema string quotes
    odd = ['a,b', 'c:d', '{e}', 'f"g', ' h ', 'i\\j', 'k l']
    doc = jj.encode([tuple(range(len(odd)))], odd, ["f"] * len(odd))
    assert jj.view(doc).columns == tuple(odd) and types_of(doc) == ("f",) * len(odd)


def test_nested_tables_inferred_given_and_from_views():
    rows = [{"id": 1, "items": [{"sku": "a", "qty": 2}]},
            {"id": 2, "items": [{"sku": "b", "qty": 1.5}, {"sku": None, "qty": 3}]},
            {"id": 3, "items": []}, {"id": 4, "items": None}]
    doc, notes = quiet(rows)
    assert types_of(doc) == ("i", {"columns": ["sku", "qty"], "types": ["s", "f"]})
    assert notes == ['column "items"."qty": integers (row 1, 2), floats (row 2, 1.5) '
                     '-> f (every integer is exact as a double)']
    assert jj.decode(doc)[1]["items"] == [{"sku": "b", "qty": 1.5}, {"sku": None, "qty": 3.0}]
    # a View's rows (its nested values are Views) encode back the same: a
    # View gives its columns and types
    assert jj.encode(jj.view(doc)) == doc
    assert jj.encode(jj.view(doc, rows="tuple")) == doc
    assert quiet(list(jj.view(doc)))[0] == doc
    given = jj.encode([(1, [("a", 2)])], ["id", "items"],
                      ["i", {"columns": ["sku", "qty"], "types": ["s", "i"]}])
    assert types_of(given)[1] == {"columns": ["sku", "qty"], "types": ["s", "i"]}
    # the given nested columns fix its order; a missing key is null there too
    given = jj.encode([{"items": [{"qty": 2}, {"sku": "b", "qty": 1}]}],
                      types={"items": {"columns": ["sku", "qty"]}})
    assert jj.decode(given) == [{"items": [{"sku": None, "qty": 2}, {"sku": "b", "qty": 1}]}]
    # only empty lists: JSON values (j), told
    doc, notes = quiet([{"items": []}])
    assert jj.decode(doc) == [{"items": []}] and "empty arrays" in notes[0]
    assert types_of(doc) == ("j",)
    with pytest.raises(jj.Error, match=r'row 1, column "items": \[\[1,2\]\] is not an array of objects'):
        jj.encode([{"items": [(1, 2)]}], types={"items": "jj"})
    # a list that is not all dicts: a JSON value
    assert jj.decode(quiet([{"items": [(1, 2), {"a": 1}]}])[0]) == [{"items": [[1, 2], {"a": 1}]}]
    doc, notes = quiet([{"id": 1, "items": [{"q": 1}]}, {"id": 2, "items": [{"q": 1}, {"q": "x"}]}])
    assert jj.decode(doc)[1]["items"] == [{"q": "1"}, {"q": "x"}]
    assert notes == ['column "items"."q": integers (row 1, 1), text (row 2, "x") -> s']
    with pytest.raises(jj.Error) as e:
        jj.encode([{"id": 1, "items": [{"q": 1}]}, {"id": 2, "items": [{"q": 1}, {"q": "x"}]}],
                  types={"items": {"columns": ["q"], "types": ["i"]}})
    assert str(e.value) == ('row 2, column "items", row 2, column "q": "x" is not an '
                            'integer (the schema says q:i)')
    assert (e.value.row, e.value.column) == (2, "items")


def test_dicts_and_other_lists_are_json():
    rows = [{"o": {"a": [1, "é", None], "b": {"c": 1.5}}, "l": [1, "a"]},
            {"o": {"q": "x\"y\n"}, "l": []}]
    doc, notes = quiet(rows)
    assert types_of(doc) == ("j", "j")
    assert jj.decode(doc) == rows
    assert doc.endswith(b'[{"a":[1,"\xc3\xa9",null],"b":{"c":1.5}},[1,"a"]],\n[{"q":"x\\"y\\n"},[]]\n]}')
    with pytest.raises(TypeError, match='row 1, column "o": a dict has no JSON text: '
                                        'Object of type date is not JSON serializable') as e:
        jj.encode([{"o": {"d": dt.date(2024, 1, 1)}}])
    assert isinstance(e.value.__cause__, TypeError)


def test_deep_nesting_is_a_recursion_error_not_a_crash():
    value = []
    for _ in range(5000):
        value = [{"t": value}]
    with pytest.raises((RecursionError, jj.Error)):
        jj.encode([{"t": value}])
    value = {}
    for _ in range(5000):
        value = {"t": value}
    with pytest.raises((RecursionError, TypeError, jj.Error)):
        jj.encode([{"t": value}])
