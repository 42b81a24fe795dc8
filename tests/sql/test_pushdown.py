"""test_pushdown.py BUILD_DIR — WHERE comparisons the typed table decides
itself (ext/pushdown.c) against SQLite deciding them.

A differential test: the same random rows in a native SQLite table whose
columns have the typed table's declared types (as PRAGMA table_info shows
them: INTEGER, REAL, TEXT, DATE, TIMESTAMP, BOOLEAN, BLOB) and in .jj
files, read by a typed table over one file, the same table's function form,
a glob table over three files and a union_by_name glob table (which
declines: it must stay right too).  Thousands of random WHERE clauses (every
operator, both operand orders, BETWEEN, IN; right-hand sides as integer,
real, text that reads as a number and text that does not, blob, NULL, as
literals and as bound parameters; int64s near 2^53 and 2^63, -0.0, the
infinities, NaN in the document (NULL in SQLite), dates and timestamps with
zones near boundaries, unicode and escaped text, text with U+0000, COLLATE
NOCASE, ANDed and ORed pairs, LIMIT/OFFSET) must select the same rows, in
row order.  Joins pass values of every affinity from another table.

Then: the comparisons are really taken (EXPLAIN QUERY PLAN's idxStr and no
comparison opcode left in EXPLAIN), what must decline does, a bad value in
a compared column fails with the message xColumn gives (and a comparison
that fails first keeps a later bad value unread, as SQLite's order does),
and a UTF-16 database keeps text comparisons with SQLite.

PUSHDOWN_SEED and PUSHDOWN_QUERIES (default 3000, a third for the
sanitizer build, whose BUILD_DIR is named san) change the random part.
Prints "pushdown: N passed, M failed".
"""
import base64
import datetime
import json
import math
import os
import random
import re
import sqlite3
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import jjtest
from jjtest import check, connect, extension_path, q

jjtest.SHOW_AT_MOST = int(os.environ.get("PUSHDOWN_SHOW", "25"))
jjtest.LINE_AT_MOST = 600

SEED = int(os.environ.get("PUSHDOWN_SEED", "20261201"))
NROWS = 240  # rows of the document; setup() writes them as three parts too

COLUMNS = ["id", "i", "f", "s", "d", "t", "b", "x"]
TYPES = ["i", "i", "f", "s", "d", "t", "b", "x"]
DECLARED = ["INTEGER", "INTEGER", "REAL", "TEXT", "DATE", "TIMESTAMP",
            "BOOLEAN", "BLOB"]

INTS = [0, 1, -1, 2, 5, 12, 30, -5, 2**53 - 1, 2**53, 2**53 + 1,
        2**62, 2**63 - 1, -2**63, -2**63 + 1, 9007199254740993,
        2024, 1000]
FLOATS = [0.0, -0.0, 0.5, 1.0, 2.0, 12.0, -3.25, 1e300, -1e300, 1e-300,
          math.inf, -math.inf, math.nan, 9007199254740992.0,
          9007199254740994.0, 9223372036854775808.0,
          -9223372036854775808.0, 2024.0, 5e-324]
TEXTS = ["", "a", "A", "ab", "abc", "b", "B", "12", "12.0", " 12", "1e3",
         "-0", "0x10", "2024", "2024-01-01", "Åre", "Malmö", "é", "€",
         "\U0001F600", "\uffff", "a\u0000b", "x\"y", "back\\slash",
         "tab\there", "line\nfeed", "zz", "~", "!"]
DATES = ["0000-01-01", "0001-01-01", "1900-01-01", "1970-01-01",
         "1999-12-31", "2000-01-01", "2000-02-29", "2023-12-31",
         "2024-01-01", "2024-01-02", "2024-02-29", "2024-12-31",
         "9999-12-31"]
STAMPS = ["2024-01-01T00:00:00Z", "2024-01-01T00:00:00+01:00",
          "2024-01-01T00:00:00-05:30", "2023-12-31T23:59:59Z",
          "2024-01-01T00:00:00.5Z", "2024-01-01T00:00:00.123456789Z",
          "1970-01-01T00:00:00Z", "2024-02-29T12:00:00+14:00",
          "9999-12-31T23:59:59.999999999Z"]
BLOBS = [b"", b"\x00", b"a", b"ab", b"\xff", b"12", b"\x00\x01",
         b"\xff\xfe\xfd"]

# Right-hand sides beyond the column values themselves.
NUMERIC_TEXTS = ["12", " 12 ", "12.0", "1e3", "-0", "0x10", "2024", "+5",
                 ".5", "5.", "1e", "9223372036854775807",
                 "9223372036854775808", "-9223372036854775809",
                 "9007199254740993", "1e999", "-0.0", "0.5"]
OTHER_TEXTS = ["", "a", "abc", "Åre", "2024-01-01", "2023-12-31",
               "2024-01-01T00:00:00Z", "2024-01-01T00:00:00+01:00",
               "2024-01-01T", "a\u0000b", "\U0001F600", "\uffff", "1999",
               "true", "~", " "]


def pick_row(rng, n):
    """One row's values (the id is n), each column null a tenth of the
    time."""
    def maybe(pool):
        return None if rng.random() < 0.1 else rng.choice(pool)
    return [n, maybe(INTS), maybe(FLOATS), maybe(TEXTS), maybe(DATES),
            maybe(STAMPS), maybe([True, False]), maybe(BLOBS)]


def json_value(v, ascii_only):
    """A row value as the document's JSON."""
    if isinstance(v, float):
        if math.isnan(v):
            return '"NaN"'
        if math.isinf(v):
            return '"Infinity"' if v > 0 else '"-Infinity"'
        return repr(v)
    if isinstance(v, bytes):
        return json.dumps(base64.b64encode(v).decode())
    return json.dumps(v, ensure_ascii=ascii_only)


def write_document(path, rows):
    """rows as a .jj file; every other row's text escaped as \\uXXXX."""
    lines = ["[" + ",".join(json_value(v, k % 2 == 0) for v in r) + "]"
             for k, r in enumerate(rows)]
    with open(path, "w", encoding="utf-8") as f:
        f.write('{"jalapenojson":1,"columns":%s,"types":%s,"rows":[\n%s\n]}'
                % (json.dumps(COLUMNS), json.dumps(TYPES),
                   ",\n".join(lines)))


def sql_timestamp(v):
    """A timestamp as the typed table gives it to SQL: SQLite's own form
    YYYY-MM-DD HH:MM:SS[.f], in UTC, the fraction's trailing zeros
    dropped (worked out here with Python's datetime, apart from
    ext/column.c)."""
    m = re.fullmatch(r"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(\.\d+)?(Z|[+-]\d\d:\d\d)", v)
    at = datetime.datetime.fromisoformat(m.group(1) + (m.group(3).replace("Z", "+00:00")))
    fraction = (m.group(2) or "").rstrip("0").rstrip(".")
    return at.astimezone(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M:%S") + fraction


def native_value(v, column=None):
    """What SQLite stores for a row value: NaN is NULL; a timestamp in the
    form the typed table gives it."""
    if isinstance(v, float) and math.isnan(v):
        return None
    if column == "t" and v is not None:
        return sql_timestamp(v)
    return v


def sql_literal(v):
    """v as an SQL literal, or None when SQL has none (text with NUL)."""
    if v is None:
        return "NULL"
    if isinstance(v, bool):
        return "1" if v else "0"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if math.isinf(v):
            return "1e999" if v > 0 else "-1e999"
        return repr(v)
    if isinstance(v, bytes):
        return "x'" + v.hex() + "'"
    if "\u0000" in v:
        return None
    return q(v)


COLUMN_POOLS = {"id": INTS, "i": INTS, "f": FLOATS, "s": TEXTS, "d": DATES,
                "t": STAMPS + [sql_timestamp(s) for s in STAMPS],
                "b": [0, 1, True, False], "x": BLOBS}


def pick_rhs(rng, col):
    """A right-hand value: often one of the column's own, else anything."""
    r = rng.random()
    if r < 0.35:
        v = rng.choice(COLUMN_POOLS[col])
    elif r < 0.5:
        v = rng.choice(INTS)
    elif r < 0.6:
        v = rng.choice(FLOATS)
    elif r < 0.72:
        v = rng.choice(NUMERIC_TEXTS)
    elif r < 0.85:
        v = rng.choice(OTHER_TEXTS + TEXTS)
    elif r < 0.93:
        v = rng.choice(BLOBS)
    else:
        v = None
    if isinstance(v, float) and math.isnan(v):
        v = None
    return v


OPS = ["=", "==", "<>", "!=", "<", "<=", ">", ">=", "IS", "IS NOT"]
FLIP = {"=": "=", "==": "==", "<>": "<>", "!=": "!=", "<": ">", "<=": ">=",
        ">": "<", ">=": "<=", "IS": "IS", "IS NOT": "IS NOT"}


def operand(rng, v, params):
    """v as a literal (when SQL has one) or a bound parameter."""
    lit = sql_literal(v)
    if lit is None or rng.random() < 0.45:
        params.append(v)
        return "?"
    return lit


def pick_term(rng, params):
    """One WHERE term on a document column."""
    col = rng.choice(COLUMNS[1:] + ["id"])
    r = rng.random()
    if r < 0.06:
        return f"{col} IS NULL" if rng.random() < 0.5 else f"{col} NOTNULL"
    if r < 0.10:
        return f"{col} IS NOT NULL" if rng.random() < 0.5 else f"{col} ISNULL"
    if r < 0.15:
        a = operand(rng, pick_rhs(rng, col), params)
        b = operand(rng, pick_rhs(rng, col), params)
        return f"{col} BETWEEN {a} AND {b}"
    if r < 0.19:
        vals = [operand(rng, pick_rhs(rng, col), params)
                for _ in range(rng.randint(1, 4))]
        return f"{col} IN ({', '.join(vals)})"
    op = rng.choice(OPS)
    rhs = operand(rng, pick_rhs(rng, col), params)
    coll = ""
    if rng.random() < 0.06:
        coll = rng.choice([" COLLATE NOCASE", " COLLATE RTRIM",
                           " COLLATE BINARY"])
    if rng.random() < 0.3:
        return f"{rhs}{coll} {FLIP[op]} {col}"
    return f"{col} {op} {rhs}{coll}"


def pick_where(rng):
    """A WHERE clause (one term, or two or three joined) and its params."""
    params = []
    terms = [pick_term(rng, params) for _ in range(rng.choice([1, 1, 2, 2, 3]))]
    where = terms[0]
    for t in terms[1:]:
        where += (" OR " if rng.random() < 0.15 else " AND ") + t
    return where, params


def run(conn, sql, params=()):
    try:
        return conn.execute(sql, params).fetchall()
    except sqlite3.Error as e:
        return ("error", str(e))


def plan_of(conn, sql, params=()):
    """EXPLAIN QUERY PLAN's details, joined."""
    return " | ".join(r[3] for r in conn.execute("EXPLAIN QUERY PLAN " + sql,
                                                 params))


def opcodes(conn, sql, params=()):
    return [r[1] for r in conn.execute("EXPLAIN " + sql, params)]


def setup(conn, tmp, rows, encoding=None):
    """The native table n and the typed tables over the same rows."""
    path = os.path.join(tmp, "rows.jj")
    write_document(path, rows)
    third = len(rows) // 3
    for k, part in enumerate([rows[:third], rows[third:2 * third],
                              rows[2 * third:]]):
        write_document(os.path.join(tmp, f"part-{k}.jj"), part)
    conn.execute("CREATE TABLE n(%s)" % ", ".join(
        f"{c} {t}" for c, t in zip(COLUMNS, DECLARED)))
    conn.executemany("INSERT INTO n VALUES (%s)" % ",".join("?" * len(COLUMNS)),
                     [[native_value(v, c) for c, v in zip(COLUMNS, r)] for r in rows])
    conn.execute(f"CREATE VIRTUAL TABLE temp.r USING jj_open({q(path)})")
    glob = os.path.join(tmp, "part-*.jj")
    conn.execute(f"CREATE VIRTUAL TABLE temp.g USING jj_open({q(glob)})")
    conn.execute(f"CREATE VIRTUAL TABLE temp.u USING jj_open({q(glob)}, "
                 "union_by_name=1)")
    return path


def check_declared(conn):
    got = [(r[1], r[2]) for r in conn.execute("PRAGMA table_info(r)")]
    want = list(zip(COLUMNS, DECLARED))
    check("declared types", got == want, f"{got}")
    nat = [(r[1], r[2]) for r in conn.execute("PRAGMA table_info(n)")]
    check("native table declares the same", nat == got, f"{nat}")


def differential(conn, rng, path, count, label):
    tables = ["r", f"r({q(path)})", "g", "u"]
    for k in range(count):
        where, params = pick_where(rng)
        tail = ""
        if rng.random() < 0.1:
            tail = f" LIMIT {rng.randint(0, 5)} OFFSET {rng.randint(0, 4)}"
        want = run(conn, f"SELECT id FROM n WHERE {where} ORDER BY id{tail}",
                   params)
        for tbl in tables if k % 4 == 0 else tables[:1] + [rng.choice(tables[1:])]:
            got = run(conn, f"SELECT id FROM {tbl} WHERE {where} "
                            f"ORDER BY id{tail}", params)
            check(f"{label} {tbl}: {where} {params!r}{tail}", got == want,
                  f"got {got!r:.150} want {want!r:.150}")
        if k % 7 == 0:  # with the glob's filename filter and a rowid
            third = NROWS // 3  # part-1.jj holds rows third+1 .. 2*third
            want = run(conn, f"SELECT id FROM n WHERE ({where}) AND id > "
                             f"{third} AND id <= {2 * third} ORDER BY id",
                       params)
            got = run(conn, f"SELECT id FROM g WHERE ({where}) AND filename "
                            f"LIKE '%part-1.jj' ORDER BY id", params)
            check(f"{label} filename: {where} {params!r}", got == want,
                  f"got {got!r:.150} want {want!r:.150}")
            want = run(conn, f"SELECT id FROM n WHERE ({where}) AND "
                             f"rowid IN (3, 97, 140) ORDER BY id", params)
            got = run(conn, f"SELECT id FROM r WHERE ({where}) AND "
                            f"rowid IN (3, 97, 140) ORDER BY id", params)
            check(f"{label} rowid: {where} {params!r}", got == want,
                  f"got {got!r:.150} want {want!r:.150}")
        if k % 10 == 0:  # count(*) reads no column at all
            want = run(conn, f"SELECT count(*) FROM n WHERE {where}", params)
            got = run(conn, f"SELECT count(*) FROM r WHERE {where}", params)
            check(f"{label} count: {where} {params!r}", got == want,
                  f"got {got!r} want {want!r}")


def joins(conn, rng, count):
    """Right-hand values from another table's columns of every affinity:
    the comparison's affinity then depends on theirs."""
    conn.execute("CREATE TABLE o(oi INTEGER, ot TEXT, on_ NUMERIC, ob BLOB, "
                 "oa)")
    vals = [3, 12, -1, 2**63 - 1, 0.5, 12.0, "12", " 12", "abc", "2024-01-01",
            "2024-01-01T00:00:00Z", b"ab", None, "Åre", "", "1e3", 1]
    for _ in range(20):
        conn.execute("INSERT INTO o VALUES (?,?,?,?,?)",
                     [rng.choice(vals) for _ in range(5)])
    ocols = ["oi", "ot", "on_", "ob", "oa", "+oi", "CAST(ot AS INTEGER)",
             "CAST(oi AS TEXT)"]
    for _ in range(count):
        col = rng.choice(COLUMNS[1:])
        op = rng.choice(OPS)
        oc = rng.choice(ocols)
        cond = f"x.{col} {op} {oc}" if rng.random() < 0.7 else \
            f"{oc} {FLIP[op]} x.{col}"
        want = run(conn, f"SELECT o.rowid, x.id FROM o CROSS JOIN n AS x "
                         f"ON {cond} ORDER BY 1, 2")
        got = run(conn, f"SELECT o.rowid, x.id FROM o CROSS JOIN r AS x "
                        f"ON {cond} ORDER BY 1, 2")
        check(f"join: {cond}", got == want,
              f"got {got!r:.150} want {want!r:.150}")
        # IN a subquery: its values carry the comparison's affinity
        oc = rng.choice(ocols[:5])
        cond = f"{col} IN (SELECT {oc} FROM o{rng.choice(['', ' LIMIT 3'])})"
        want = run(conn, f"SELECT id FROM n WHERE {cond} ORDER BY 1")
        got = run(conn, f"SELECT id FROM r WHERE {cond} ORDER BY 1")
        check(f"in: {cond}", got == want,
              f"got {got!r:.150} want {want!r:.150}")


def consumed(conn):
    """The comparisons are taken (and what must decline does)."""
    cases = [  # (sql, params, idxStr part expected or None: declined)
        ("SELECT count(*) FROM r WHERE d >= ?", ["2024-01-01"], "c4>="),
        ("SELECT count(*) FROM r WHERE d >= '2024-01-01'", [], "c4>="),
        ("SELECT count(*) FROM r WHERE i = ?", [5], "c1="),
        ("SELECT count(*) FROM r WHERE ? < f", [0.5], "c2>"),
        ("SELECT count(*) FROM r WHERE t <> ?", ["x"], "c5<>"),
        ("SELECT count(*) FROM r WHERE b IS ?", [1], "c6 is"),
        ("SELECT count(*) FROM r WHERE x IS NOT ?", [b"a"], "c7 is not"),
        ("SELECT count(*) FROM r WHERE s IS NULL", [], "c3 is null"),
        ("SELECT count(*) FROM r WHERE s IS NOT NULL", [], "c3 not null"),
        ("SELECT count(*) FROM r WHERE s = 'abc'", [], "c3="),
        ("SELECT count(*) FROM r WHERE s < x'00'", [], "c3<"),
        ("SELECT count(*) FROM r WHERE i > 1 AND d < ?", ["2000-01-01"],
         "c1>,c4<"),
        ("SELECT count(*) FROM g WHERE d >= ?", ["2024-01-01"], "c4>="),
        ("SELECT id FROM r WHERE f > 0 LIMIT 2 OFFSET 1", [], "limit,offset,c2>"),
        # a pre-filter (SQLite checks again): TEXT = a value the plan does
        # not see or a number
        ("SELECT count(*) FROM r WHERE s = ?", ["abc"], "p3="),
        ("SELECT count(*) FROM r WHERE s IS ?", ["abc"], "p3 is"),
        ("SELECT count(*) FROM r WHERE s = 12", [], "p3="),
        ("SELECT id FROM r WHERE s = ? LIMIT 1", ["a"], "p3="),
        # declined: TEXT ranges against those, a collation, LIKE, union
        ("SELECT count(*) FROM r WHERE s < ?", ["abc"], None),
        ("SELECT count(*) FROM r WHERE s <> 12", [], None),
        ("SELECT count(*) FROM r WHERE s IN ('a', 'b')", [], None),
        ("SELECT count(*) FROM r WHERE s IN (SELECT 12)", [], None),
        ("SELECT * FROM r WHERE i IN (1, '2', 3.0)", [], None),
        ("SELECT * FROM r WHERE d IN (SELECT '2024-01-01')", [], None),
        ("SELECT count(*) FROM r WHERE s = 'abc' COLLATE NOCASE", [], None),
        ("SELECT count(*) FROM r WHERE d = '2024-01-01' COLLATE NOCASE", [],
         None),
        ("SELECT count(*) FROM r WHERE s LIKE 'a%'", [], None),
        ("SELECT count(*) FROM u WHERE d >= ?", ["2024-01-01"], None),
        ("SELECT count(*) FROM jj_open('%s') WHERE row > 2" % "x", [], None),
    ]
    for sql, params, want in cases:
        p = plan_of(conn, sql, params)
        m = re.search(r"VIRTUAL TABLE INDEX \d+:(.*)$", p)
        idx = m.group(1) if m else ""
        preds = ",".join(x for x in idx.split(",") if re.match(r"[cp]\d", x))
        if want is None:
            check(f"declines: {sql}", preds == "", p)
        else:
            wanted = ",".join(x for x in want.split(",")
                              if re.match(r"[cp]\d", x))
            check(f"takes: {sql}", preds == wanted and want in idx, p)
    # an OR of two comparisons is one scan, not a scan per term
    p = plan_of(conn, "SELECT * FROM r WHERE d >= ? OR i = 5", ["2024-01-01"])
    check("OR is one scan", "MULTI-INDEX" not in p, p)
    # IN stays one scan in row order, as before (not a scan per value)
    got = [r[0] for r in conn.execute("SELECT id FROM r WHERE i IN (30, 5, "
                                      "12, 2, -1) AND d IS NOT NULL")]
    check("IN keeps row order", len(got) > 2 and got == sorted(got), f"{got}")
    # No comparison and no column read left to SQLite: the row loop of
    # count(*) WHERE d >= ? has no Ge and no VColumn.
    ops = opcodes(conn, "SELECT count(*) FROM r WHERE d >= ?", ["2024-01-01"])
    check("no comparison opcode", not ({"Ge", "Gt", "Le", "Lt", "Eq", "Ne"}
                                       & set(ops)), f"{ops}")
    check("no column read", "VColumn" not in ops, f"{ops}")
    ops = opcodes(conn, "SELECT count(*) FROM r WHERE s = ?", ["abc"])
    check("a pre-filter is checked again", "VColumn" in ops and "Ne" in ops,
          f"{ops}")
    check("LIMIT stays with SQLite after a pre-filter", "limit" not in
          plan_of(conn, "SELECT id FROM r WHERE s = ? LIMIT 1", ["a"]))
    ops = opcodes(conn, "SELECT count(*) FROM r WHERE +d >= ?", ["2024-01-01"])
    check("unpushed keeps its comparison", "VColumn" in ops and
          {"Ge", "Gt", "Le", "Lt"} & set(ops), f"{ops}")


def errors(conn, tmp):
    """A bad value in a compared column: the message xColumn gives."""
    data = os.path.join(jjtest.ROOT, "sql", "data")
    conn.execute("CREATE VIRTUAL TABLE temp.bd USING jj_open(%s)"
                 % q(os.path.join(data, "bad_date.jj")))
    conn.execute("CREATE VIRTUAL TABLE temp.br USING jj_open(%s)"
                 % q(os.path.join(data, "bad_row.jj")))
    utf = os.path.join(tmp, "bad_utf8.jj")
    with open(utf, "wb") as f:
        f.write(b'{"jalapenojson":1,"columns":["id","name"],"types":["i","s"],'
                b'"rows":[\n[1,"a"],\n[2,"b\xffc"],\n[3,"d"]\n]}')
    conn.execute("CREATE VIRTUAL TABLE temp.bu USING jj_open(%s)" % q(utf))
    ts = os.path.join(tmp, "bad_ts.jj")
    with open(ts, "w") as f:
        f.write('{"jalapenojson":1,"columns":["id","at"],"types":["i","t"],'
                '"rows":[\n[1,"2024-01-01T00:00:00Z"],\n'
                '[2,"2024-03-01T24:00:00Z"]\n]}')
    conn.execute("CREATE VIRTUAL TABLE temp.bt USING jj_open(%s)" % q(ts))
    # (table, WHERE, params, strict): strict cases are the one difference
    # ext/pushdown.c documents: a term SQLite checks first rejects the row,
    # so SQLite never reads the bad value; the table reads every column it
    # compares, and fails there.
    cases = [
        ("bd", "joined >= ?", ["2000-01-01"], False),
        ("bd", "joined = '2023-03-01'", [], False),
        ("bd", "joined IS NULL", [], False),
        ("bd", "joined >= ? AND id > 3", ["2000-01-01"], False),
        ("bd", "id > 3 AND joined >= ?", ["2000-01-01"], True),
        ("bd", "id >= 3 AND joined >= ?", ["2000-01-01"], False),
        ("bd", "joined <> ? AND id <> 3", ["2000-01-01"], False),
        ("bd", "id <> 3 AND joined >= ?", ["2000-01-01"], True),
        ("bd", "id < 3 AND joined >= ?", ["2000-01-01"], True),
        ("bd", "joined >= ? AND id < 3", ["2000-01-01"], False),
        ("br", "name = 'a'", [], False),
        ("br", "id > 0", [], False),
        ("bu", "name = 'd'", [], False),
        ("bu", "name > ''", [], False),
        ("bu", "id = 2 AND name = 'x'", [], False),
        ("bu", "id = 1 AND name = 'x'", [], True),
        ("bt", "at > ?", ["2000"], False),
    ]
    for tbl, where, params, strict in cases:
        pushed = plan_of(conn, f"SELECT count(*) FROM {tbl} WHERE {where}",
                         params)
        check(f"error case is pushed: {where}",
              re.search(r"INDEX \d+:.*c\d", pushed) is not None, pushed)
        # the same query with every column behind + is decided by SQLite
        plain = re.sub(r"\b(joined|name|id|at)\b", r"+\1", where)
        for what in ("count(*)", "id"):
            got = run(conn, f"SELECT {what} FROM {tbl} WHERE {where}", params)
            want = run(conn, f"SELECT {what} FROM {tbl} WHERE {plain}", params)
            if strict:
                check(f"strict {tbl} {what}: {where}", not isinstance(want, tuple)
                      and got == run(conn, f"SELECT {what} FROM {tbl} "
                                     f"WHERE +{'joined' if tbl == 'bd' else 'name'} "
                                     f"IS NOT 'never'"),
                      f"got {got!r} want {want!r}")
            else:
                check(f"error {tbl} {what}: {where}", got == want,
                      f"got {got!r} want {want!r}")
    got = run(conn, "SELECT count(*) FROM bd WHERE joined >= '2000-01-01'")
    check("bad date message", got[0] == "error" and got[1].endswith(
        'bad_date.jj: row 3, column "joined", byte 110: "2023-02-29" is not '
        'a date (2023 is not a leap year)'), f"{got}")


def utf16(build, rng, tmp, rows):
    """In a UTF-16 database SQLite's BINARY order is UTF-16's: text
    comparisons stay with SQLite, numbers are still taken."""
    conn = sqlite3.connect(":memory:")
    conn.execute("PRAGMA encoding = 'UTF-16le'")
    conn.enable_load_extension(True)
    conn.load_extension(extension_path(build))
    sub = os.path.join(tmp, "u16")
    os.mkdir(sub)
    path = setup(conn, sub, rows)
    check("utf16 db", conn.execute("PRAGMA encoding").fetchone()[0]
          == "UTF-16le")
    p = plan_of(conn, "SELECT count(*) FROM r WHERE d >= ?", ["2024-01-01"])
    check("utf16 declines text", ":c" not in p and "c4" not in p, p)
    p = plan_of(conn, "SELECT count(*) FROM r WHERE i >= ?", [3])
    check("utf16 takes numbers", "c1>=" in p, p)
    for _ in range(150):
        a, b = rng.choice(TEXTS + OTHER_TEXTS), rng.choice(["<", ">", "="])
        where = f"s {b} ?"
        want = run(conn, f"SELECT id FROM n WHERE {where} ORDER BY id", [a])
        got = run(conn, f"SELECT id FROM r WHERE {where} ORDER BY id", [a])
        check(f"utf16: {where} {a!r}", got == want, f"{got!r:.100} {want!r:.100}")
    differential(conn, rng, path, 100, "utf16")
    conn.close()


def main():
    build = jjtest.build_dir(sys.argv)
    san = os.path.basename(os.path.normpath(build)) == "san"
    count = int(os.environ.get("PUSHDOWN_QUERIES", "1000" if san else "3000"))
    rng = random.Random(SEED)
    print(f"pushdown: seed {SEED}, {count} queries")
    rows = [pick_row(rng, n) for n in range(1, NROWS + 1)]
    # the boundaries once each, whatever the draw
    for k, pool in enumerate([INTS, FLOATS, TEXTS, DATES, STAMPS]):
        for j, v in enumerate(pool):
            rows[(k * 40 + j) % len(rows)][k + 1] = v
    with tempfile.TemporaryDirectory() as tmp:
        conn = connect(extension_path(build))
        path = setup(conn, tmp, rows)
        check_declared(conn)
        consumed(conn)
        errors(conn, tmp)
        differential(conn, rng, path, count, "diff")
        joins(conn, rng, count // 6)
        conn.close()
        utf16(build, rng, tmp, rows)
    return jjtest.report("pushdown")


if __name__ == "__main__":
    sys.exit(main())
