"""view(): the lazy sequence — header, length, indexing, slices, iteration,
columns as lists or arrays, nested Views, and what keeps the bytes alive."""
import array
import gc
import gzip

import pytest

import jalapenojson as jj
from conftest import document

ROWS = [{"id": i, "name": "n%d" % i, "price": i / 4, "ok": i % 2 == 0}
        for i in range(1, 101)]
DOC = jj.encode(ROWS)


def test_header_and_length():
    v = jj.view(DOC)
    assert v.columns == ("id", "name", "price", "ok")
    assert v.types == ("i", "s", "f", "b")
    assert len(v) == 100
    assert repr(v) == "<jalapenojson.View columns=('id', 'name', 'price', 'ok')>"
    assert isinstance(v, jj.View)
    with pytest.raises(TypeError):
        jj.View()


def test_indexing_and_slices():
    v = jj.view(DOC)
    assert v[0] == ROWS[0] and v[99] == ROWS[99] and v[-1] == ROWS[-1]
    assert v[-100] == ROWS[0] and v[42] == ROWS[42] and v[3] == ROWS[3]
    for bad in (100, -101, 10**20):
        with pytest.raises(IndexError):
            v[bad]
    assert v[10:13] == ROWS[10:13]
    assert v[::-7] == ROWS[::-7]
    assert v[95:200] == ROWS[95:]
    assert v[5:5] == []
    with pytest.raises(TypeError, match="integers or slices"):
        v["id"]
    assert list(reversed(v))[0] == ROWS[-1]
    assert jj.view(DOC, rows="tuple")[1] == tuple(ROWS[1].values())


def test_iteration_is_independent_of_indexing():
    v = jj.view(DOC)
    it = iter(v)
    assert next(it) == ROWS[0]
    assert v[50] == ROWS[50]           # moves the View's own cursor only
    assert next(it) == ROWS[1]
    assert list(it) == ROWS[2:]
    assert list(it) == []
    assert [r["id"] for r in v] == list(range(1, 101))
    assert ROWS[7] in v


def test_columns_as_lists_and_arrays():
    v = jj.view(DOC)
    assert v.column("name") == [r["name"] for r in ROWS]
    assert v.column(0) == list(range(1, 101)) and v.column(-1) == [r["ok"] for r in ROWS]
    a = v.column("price", array=True)
    assert isinstance(a, array.array) and a.typecode == "d"
    assert a.tolist() == [r["price"] for r in ROWS]
    q = v.column("id", array=True)
    assert q.typecode == "q" and q.tolist() == list(range(1, 101))
    assert v.column("ok", array=True) == [r["ok"] for r in ROWS]   # no array for b
    with pytest.raises(KeyError):
        v.column("nope")
    with pytest.raises(IndexError):
        v.column(4)
    with_null = jj.view(jj.encode([{"a": 1}, {"a": None}, {"a": 3}]))
    assert with_null.column("a", array=True) == [1, None, 3]
    assert jj.view(jj.encode([], ["a"], ["f"])).column("a", array=True).tolist() == []


def test_errors_surface_where_read():
    doc = document(["a", "d"], ["i", "d"], "[1,\"2024-01-01\"]", "[2,\"2023-02-29\"]")
    v = jj.view(doc)
    assert v[0]["a"] == 1 and v.column("a") == [1, 2]
    with pytest.raises(jj.Error) as e:
        v[1]
    assert e.value.row == 2 and e.value.column == "d" and e.value.code == "date"
    with pytest.raises(jj.Error):
        v.column("d")
    it = iter(v)
    next(it)
    with pytest.raises(jj.Error):
        next(it)
    with pytest.raises(StopIteration):   # a failed iterator stays ended
        next(it)


def test_nested_views_outlive_their_parent():
    doc = jj.encode([{"id": 1, "items": [{"sku": "a", "qty": 2}, {"sku": "b", "qty": 1}]},
                     {"id": 2, "items": []}])
    v = jj.view(doc)
    items = v[0]["items"]
    assert isinstance(items, jj.View) and items.columns == ("sku", "qty")
    del v
    gc.collect()
    assert len(items) == 2 and items[1] == {"sku": "b", "qty": 1}
    assert items.column("qty", array=True).tolist() == [2, 1]
    assert jj.decode(doc)[0]["items"] == list(items)


def test_the_bytes_are_kept_or_copied():
    data = bytearray(DOC)
    v = jj.view(data)
    data[:] = b"x" * len(data)   # a bytearray is copied: the View is unmoved
    assert v[99] == ROWS[99]
    mv = memoryview(bytearray(DOC))
    v = jj.view(mv)
    mv.release()
    assert v[0] == ROWS[0]
    v = jj.view(DOC.decode())
    assert v[-1] == ROWS[-1]
    v = jj.view(gzip.compress(DOC))
    assert v[5] == ROWS[5] and len(v) == 100


def test_a_finalizer_reading_the_view_mid_read_cannot_break_it():
    """The garbage collector may run a __del__ in the middle of a row; one
    that reads the same View gets RuntimeError (reported as unraisable)
    instead of moving the cursor under the row being converted."""
    import sys
    doc = jj.encode([{"id": i, "s": "x\ty%d" % i, "items": [{"a": i}]} for i in range(300)])
    v = jj.view(doc)
    seen = []

    class Trap:
        def __init__(self):
            self.me = self          # a cycle: only the collector frees it

        def __del__(self):
            try:
                seen.append(v[7]["id"])
            except RuntimeError as e:
                seen.append(e)

    old_hook, old_threshold = sys.unraisablehook, gc.get_threshold()
    sys.unraisablehook = lambda u: seen.append(u)
    try:
        gc.set_threshold(1)
        for _ in range(3):
            for _ in range(50):
                Trap()
            rows = list(v)
            assert [r["id"] for r in rows] == list(range(300))
            assert v.column("s")[299] == "x\ty299"
    finally:
        gc.set_threshold(*old_threshold)
        sys.unraisablehook = old_hook
        gc.collect()
    assert seen and all(x == 7 or isinstance(x, RuntimeError) for x in seen)
