"""Reference counts and memory: 100,000 decodes (and encodes, views,
failures) leave nothing behind.

Two measures: sys.getallocatedblocks(), the blocks CPython's allocator
holds (a leaked reference keeps its object's block: what regrtest -R
checks), and the process's resident memory (a leaked C buffer of the core
or the module never shows in the first; not under ASan, whose quarantine
holds freed memory).  Each loop runs once to warm
caches, then is measured.  Under ASan the loops are a tenth as long; ASan's own leak checker is off for Python (Python's interned and
cached objects look like leaks to it), so these counts are what checks
leaks there too.
"""
import datetime as dt
import gc
import sys
import warnings

import jalapenojson as jj
from conftest import UNDER_ASAN, document, rounds
from test_values import EVERY, EVERY_TEXT


def rss_kib():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * 4


def leaked(fn, n):
    """(blocks, KiB of RSS) gained over n calls of fn after a warm-up."""
    for _ in range(max(100, n // 10)):
        fn()
    gc.collect()
    blocks, rss = sys.getallocatedblocks(), rss_kib()
    for _ in range(n):
        fn()
    gc.collect()
    return sys.getallocatedblocks() - blocks, rss_kib() - rss


def check(fn, n=100_000):
    n = rounds(n)
    blocks, rss = leaked(fn, n)
    # A leak of one object per call would be >= n blocks, of 16 bytes per
    # call n/64 KiB; a few hundred blocks come and go with the free lists.
    assert blocks < max(50, min(1000, n // 10)), blocks
    # ASan keeps freed memory in quarantine: RSS means nothing there
    if not UNDER_ASAN:
        assert rss < max(1024, n // 64), rss


def test_the_check_sees_a_leak():
    kept = []
    try:
        check(lambda: kept.append(object()), 10_000)
    except AssertionError:
        return
    raise AssertionError("a leak of one object per call went unseen")


def test_decode_every_type():
    check(lambda: jj.decode(EVERY_TEXT.replace(b'"NaN"', b"1.0")))
    check(lambda: jj.decode(EVERY_TEXT, rows="tuple", timestamps="text", dates="text"))


def test_encode_every_type():
    check(lambda: jj.encode(EVERY))
    rows = [tuple(r.values()) for r in EVERY]
    check(lambda: jj.encode(rows, list(EVERY[0])), 50_000)


def test_encode_sparse_nested_mixed_with_warnings():
    rows = [{"a": 1, "o": {"k": [1, 2]}, "l": [{"q": 1}]},
            {"b": "2024-01-01", "a": "x", "l": [{"q": 2.5, "r": None}]}]

    def run():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", jj.InferenceWarning)
            jj.encode(rows)
    check(run, 20_000)


def test_converter():
    text = '[{"a":1,"b":"2024-01-01","c":[{"q":1}]},{"a":2.5,"d":{"x":1}}]'
    csv = "a,b\n1,2024-01-01\n2,x\n"

    def run():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", jj.InferenceWarning)
            jj.from_json(text)
            jj.from_json(text.encode(), schema={"a": "f"})
            jj.from_csv(csv, delimiter=",", null="NA")
            jj.from_csv(csv, null={"column_1": ["NA", "."], "*": ""}, thousands=",", header=False)
    check(run, 20_000)


def test_views():
    doc = jj.encode([{"n": i, "x": i / 2, "d": dt.date(2024, 1, 1 + i % 28),
                      "t": [{"a": i}]} for i in range(20)])

    def use():
        v = jj.view(doc)
        len(v)
        v[3]
        v[-1]["t"][0]
        v[2:9:3]
        for _ in v:
            pass
        v.column("x", array=True)
        v.column("n")
        v.column("t")
    check(use, 20_000)


def test_failures():
    bad_date = document(["a", "b"], ["i", "d"], '[1,"2024-01-01"]', '[2,"2023-02-29"]')
    year0 = document(["a"], ["d"], '["0000-01-01"]')

    def fail(call):
        def run():
            try:
                call()
            except (jj.Error, TypeError):
                pass
        return run
    check(fail(lambda: jj.decode(bad_date)))
    check(fail(lambda: jj.decode(year0)))
    check(fail(lambda: jj.decode(b"\x1f\x8b")))
    check(fail(lambda: jj.view(bad_date)[1]))
    check(fail(lambda: jj.encode([{"a": 1}, {"a": b"x"}])))
    check(fail(lambda: jj.encode([{"a": 1}, {"b": {"c": dt.date(2024, 1, 1)}}])))
    check(fail(lambda: jj.encode([{"a": [{"b": 1}, {"b": "x"}]}], types={"a": {"columns": ["b"], "types": ["i"]}})))
    check(fail(lambda: jj.from_json(b'[{"a":1},{"a":}]')))
    check(fail(lambda: jj.from_csv("a,b\n1\n")))
    check(fail(lambda: jj.from_csv("a,b\n1,2\n", null={"a": "x", "c": ["y"]})))
    check(fail(lambda: jj.from_csv("a,b\n1,2\n", null={"a": "x", "b": [5]})))
    check(fail(lambda: jj.encode([{"a": dt.datetime(2024, 1, 1)}])))
    check(fail(lambda: jj.encode([{"a": 1}], types=["q"])))
    check(fail(lambda: jj.decode(5)))


def test_files(tmp_path):
    path = tmp_path / "x.jj.gz"

    def round_trip():
        jj.dump(EVERY, path)
        jj.load(path)
    check(round_trip, 300)   # each dump syncs the file to disk
