"""Python's sqlite3 with the SQLite extension loaded and
detect_types=PARSE_DECLTYPES after jalapenojson.register_sqlite3(): every
declared type of a typed table; the adapters feeding jj_group; and the
property round trip between this module and the C reader and writer
(documents written by Python read by the extension, documents written by
jj_group read by Python, floats bit for bit, and encode() byte-identical
to jj_group for the same values)."""
import datetime as dt
import math
import random
import sqlite3
import struct

import pytest

import jalapenojson as jj
from test_values import EVERY, EVERY_TEXT

SEED = 20240301


def bits(x):
    return struct.pack("<d", x)


def test_every_declared_type(db, tmp_path):
    path = tmp_path / "every.jj"
    path.write_bytes(EVERY_TEXT)
    db.execute("CREATE VIRTUAL TABLE temp.t USING jj_open(%s)" % sqlite3_literal(str(path)))
    declared = [r[2] for r in db.execute("PRAGMA temp.table_info(t)")]
    assert declared == ["INTEGER", "TEXT", "REAL", "DATE", "TIMESTAMP",
                        "BOOLEAN", "BLOB", "TEXT"]
    # a timestamp reaches SQL in SQLite's form, in UTC: the same instant
    assert db.execute("SELECT at FROM t LIMIT 1").fetchone()[0].utcoffset() == dt.timedelta(0)
    db.execute("CREATE VIRTUAL TABLE temp.w USING jj_open(%s, timestamps=as_written)"
               % sqlite3_literal(str(path)))
    got = db.execute("SELECT * FROM w").fetchall()
    assert got[0][:7] == tuple(EVERY[0][k] for k in ("id", "name", "price", "day",
                                                      "at", "ok", "blob"))
    assert type(got[0][3]) is dt.date and got[0][4].utcoffset() == dt.timedelta(minutes=330)
    assert got[0][5] is True and got[1][5] is False and got[2][5] is None
    assert jj.decode(got[0][7]) == EVERY[0]["items"]        # TEXT: a document
    assert got[1][2] is None                                 # SQLite has no NaN
    assert bits(got[2][2]) == bits(-0.0)
    assert got[2][4] == dt.datetime(1970, 1, 1, tzinfo=dt.timezone.utc)


def test_timestamps_as_text_and_the_sub_microsecond_error(db):
    doc = ('{"jalapenojson":1,"columns":["t"],"types":["t"],"rows":[\n'
           '["2024-03-01T00:00:00.123456789Z"]\n]}')
    db.execute("CREATE VIRTUAL TABLE temp.t USING jj_open(%s)" % sqlite3_literal(doc))
    with pytest.raises(jj.Error, match='register_sqlite3\\(timestamps="text"\\)'):
        db.execute("SELECT t FROM t").fetchall()
    jj.register_sqlite3(timestamps="text")
    try:
        assert db.execute("SELECT t FROM t").fetchall() == [("2024-03-01 00:00:00.123456789",)]
    finally:
        jj.register_sqlite3()


def test_adapters_feed_jj_group(db):
    day = dt.date(2024, 2, 29)
    at = dt.datetime(2024, 3, 1, 10, 30, 0, 250000, dt.timezone(dt.timedelta(hours=-5)))
    doc = db.execute("SELECT jj_group('d:d', ?, 't:t', ?, 'b:b', ?)", (day, at, True)).fetchone()[0]
    assert jj.decode(doc) == [{"d": day, "t": at, "b": True}]
    # a naive datetime goes in SQLite's form, and back as a local timestamp
    naive = dt.datetime(2024, 1, 1, 23, 59, 59, 120000)
    assert db.execute("SELECT ?", (naive,)).fetchone()[0] == "2024-01-01 23:59:59.12"
    assert db.execute("SELECT ? > datetime('2024-01-01 23:59:59')", (naive,)).fetchone()[0] == 1
    doc = db.execute("SELECT jj_group('l', ?)", (naive,)).fetchone()[0]
    assert '"types":["l"]' in doc and jj.decode(doc) == [{"l": naive}]


def sqlite3_literal(s):
    return "'" + s.replace("'", "''") + "'"


# ---------------------------------------------------------------------------
# The property round trip
# ---------------------------------------------------------------------------

NAMES = ["id", "Tromsø", "名前", "a b", 'q"uote', "it's", "x:y", "😀", "n"]
KINDS = "ifsxdtlb"


def random_value(rnd, kind):
    if rnd.random() < 0.1:
        return None
    if kind == "i":
        return rnd.choice([0, 1, -1, 2**63 - 1, -2**63, rnd.randrange(-2**63, 2**63)])
    if kind == "f":
        k = rnd.randrange(4)
        if k == 0:
            return rnd.choice([0.0, -0.0, math.inf, -math.inf, 5e-324, 1.7976931348623157e308,
                               0.1, 1e16, 1.5e-05, 29.0])
        while True:   # any double by its bits, NaN aside (SQLite stores it as NULL)
            x = struct.unpack("<d", struct.pack("<Q", rnd.randrange(2**64)))[0]
            if not math.isnan(x):
                return x
    if kind == "s":
        alphabet = ["a", "é", "😀", "\x00", "\n", '"', "\\", "\x1f", "/", "名", " "]
        return "".join(rnd.choice(alphabet) for _ in range(rnd.randrange(12)))
    if kind == "x":
        return bytes(rnd.randrange(256) for _ in range(rnd.randrange(10)))
    if kind == "d":
        return dt.date.fromordinal(rnd.randrange(1, dt.date.max.toordinal() + 1))
    if kind == "l":
        day = dt.date.fromordinal(rnd.randrange(1, dt.date.max.toordinal() + 1))
        return dt.datetime(day.year, day.month, day.day, rnd.randrange(24),
                           rnd.randrange(60), rnd.randrange(60),
                           rnd.choice([0, 250000, rnd.randrange(10**6)]))
    if kind == "t":
        day = dt.date.fromordinal(rnd.randrange(1, dt.date.max.toordinal() + 1))
        zone = dt.timezone(dt.timedelta(minutes=rnd.randrange(-1439, 1440)))
        return dt.datetime(day.year, day.month, day.day, rnd.randrange(24),
                           rnd.randrange(60), rnd.randrange(60),
                           rnd.choice([0, 250000, rnd.randrange(10**6)]), zone)
    return rnd.random() < 0.5


def random_table(rnd):
    names = rnd.sample(NAMES, rnd.randrange(1, 6))
    kinds = [rnd.choice(KINDS) for _ in names]
    rows = [{n: random_value(rnd, k) for n, k in zip(names, kinds)}
            for _ in range(rnd.randrange(1, 25))]
    return names, kinds, rows


def same(a, b):
    if isinstance(a, float) and isinstance(b, float):
        return bits(a) == bits(b)
    if isinstance(a, dt.datetime):
        return a == b and a.utcoffset() == b.utcoffset()
    return a == b and type(a) is type(b)


def test_python_writes_the_c_reader_reads(db, tmp_path):
    """encode/dump -> the extension's typed table -> sqlite3 values."""
    rnd = random.Random(SEED)
    for n in range(60):
        names, kinds, rows = random_table(rnd)
        path = tmp_path / ("t%d.jj%s" % (n, rnd.choice(["", ".gz", ".br"])))
        jj.dump(rows, path, types=kinds)
        # as written: each timestamp in its zone; by default in UTC
        written = n % 2 == 0
        db.execute("CREATE VIRTUAL TABLE temp.t%d USING jj_open(%s%s)"
                   % (n, sqlite3_literal(str(path)), ", timestamps=as_written" if written else ""))
        got = db.execute("SELECT * FROM t%d" % n).fetchall()
        assert len(got) == len(rows)
        for row, back in zip(rows, got):
            for (name, value), v in zip(row.items(), back):
                if not written and isinstance(value, dt.datetime) and value.tzinfo:
                    value = value.astimezone(dt.timezone.utc)
                assert same(v, value), (n, name, value, v)


def test_c_writes_python_reads(db):
    """Random SQLite tables -> jj_group (the C writer) -> decode, and the same
    values through encode() give the same bytes."""
    rnd = random.Random(SEED + 1)
    for n in range(60):
        names, kinds, rows = random_table(rnd)
        cols = ", ".join("c%d" % i for i in range(len(names)))
        db.execute("CREATE TEMP TABLE s%d(%s)" % (n, cols))   # no affinity
        db.executemany("INSERT INTO s%d VALUES (%s)" % (n, ",".join("?" * len(names))),
                       [tuple(r.values()) for r in rows])
        # types given where jj_group needs them: d t b, and names with a
        # colon (jj_group reads "x:y" as a type otherwise)
        given = {name: k for name, k in zip(names, kinds) if k in "dtlb" or ":" in name}
        args = ", ".join("%s, c%d" % (sqlite3_literal(name + (":" + given[name] if name in given else "")), i)
                         for i, name in enumerate(names))
        doc = db.execute("SELECT jj_group(%s) FROM s%d ORDER BY rowid" % (args, n)).fetchone()[0]
        back = jj.decode(doc)
        assert len(back) == len(rows)
        for row, b in zip(rows, back):
            for name, value in row.items():
                assert same(b[name], value), (n, name, value, b[name])
        # jj_group infers as encode() does (all NULL -> s, ...)
        assert jj.encode(rows, types=given) == doc.encode(), n
