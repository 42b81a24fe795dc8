"""test_planner.py BUILD_DIR — a differential test of the query planner.

Every query runs twice: once over jj_open (the record form
`jj_open('file')`, the typed table `rows`, its table-valued form
`rows('file')`, joins that pass another table's column as SOURCE) and once
over native SQLite tables holding the same rows.  The results must agree:
as lists when the query has a total ORDER BY, as multisets otherwise; with
a LIMIT and no total order, the rows must be as many as the native query
returns and each must be a row of the query without its LIMIT.

Whatever plan SQLite picks (rowid = ?, IN lists handed over whole, LIMIT and
OFFSET pushed down, the OR optimisation asking for one plan per OR term,
joins in either order), the rows must be the same.  Three queries whose
OR of row terms once failed to prepare with "jj_open: no SOURCE given" are
run first, by name.

The generator is seeded (PLANNER_SEED, default below) and prints its seed;
PLANNER_QUERIES sets the number of random queries (default 6000, half
of that for a sanitizer build, whose BUILD_DIR is named san).  Prints
"planner: N passed, M failed".

BUILD_DIR is the absolute build directory: the repository's build/ means
the extension ./jalapenojson.so at its root, any other directory D means
D/jalapenojson.so.
"""
import collections
import os
import random
import sqlite3
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import jjtest
from jjtest import check, connect, document, extension_path, q

jjtest.SHOW_AT_MOST = int(os.environ.get("PLANNER_SHOW", "25"))

SEED = int(os.environ.get("PLANNER_SEED", "20240607"))
NO_SOURCE = ("jj_open: no SOURCE given: use jj_open(SOURCE), or CREATE "
             "VIRTUAL TABLE ... USING jj_open(SOURCE)")


# ---------------------------------------------------------------------------
# The data: sql/data/rows.jj and a generated document with nulls
# ---------------------------------------------------------------------------

def nulls_document(rng, n):
    """A document of n rows whose every column has nulls, as text."""
    cities = ["Oslo", "Bergen", "Turku", "Malmö", "Åre"]
    rows = []
    for i in range(1, n + 1):
        def maybe(v):
            return None if rng.random() < 0.25 else v
        rows.append([
            maybe(rng.randint(-5, 30)),
            maybe(rng.choice(cities)),
            maybe(rng.choice([0.5, 1.25, -3.0, 10.0, 2.5, 99.75])),
            maybe(f"2024-0{rng.randint(1, 9)}-1{rng.randint(0, 9)}"),
            maybe(rng.choice([True, False])),
        ])
    return document(["n", "s", "f", "d", "b"], ["i", "s", "f", "d", "b"], rows)


# Per data set: the columns a WHERE or ORDER BY may use, with sample values.
ROWS_COLUMNS = {
    "id": ["1", "7", "20", "40", "41"],
    "seats": ["1", "3", "5", "8", "10"],
    "price": ["0.0", "4.99", "19.99", "20", "49.5"],
    "city": ["'Oslo'", "'Bergen'", "'Helsinki'", "'Tromsø'", "'Nowhere'"],
    "plan": ["'free'", "'pro'", "'team'", "'basic'"],
    "joined": ["'2023-06-01'", "'2024-01-01'", "'2024-06-30'"],
    "user": ["'u0919'", "'u0001'", "'u0500'"],
}
NULLS_COLUMNS = {
    "n": ["0", "5", "-2", "17", "30"],
    "s": ["'Oslo'", "'Turku'", "'Åre'", "'x'"],
    "f": ["0.5", "2.5", "-3", "10.0", "99.75"],
    "d": ["'2024-03-15'", "'2024-06-10'", "'2024-01-01'"],
    "b": ["0", "1", "true"],
}

# Row values for row = ?, IN lists, ranges: rows that exist and rows that do
# not, and the values SQLite compares with a rowid: reals (exact and not),
# text that is a number (with spaces, as a real) or not, NULL, a blob, the
# int64 limits.
ROW_VALUES = ["1", "2", "3", "5", "17", "38", "39", "40", "41", "57", "58",
              "0", "-1", "NULL", "2.0", "2.5", "'3'", "' 3'", "'3.0'", "'x'",
              "''", "x'33'", "1e300", "9223372036854775807",
              "-9223372036854775808", "(1+1)", "+4", "CAST('6' AS INTEGER)"]


class Shape:
    """How a query names a table and its columns.  `row` is the rowid
    expression, `col(name)` a document column, `alias` the prefix."""

    def __init__(self, typed, columns, alias):
        self.typed = typed
        self.columns = columns
        self.alias = alias

    def row(self, rng):
        a = self.alias + "." if self.alias else ""
        if self.typed:
            return a + rng.choice(["rowid", "rowid", "_rowid_", "oid"])
        return a + rng.choice(["row", "row", "rowid"])

    def col(self, name):
        a = self.alias + "." if self.alias else ""
        if self.typed:
            return a + '"' + name + '"'
        return a + "record->>" + q(name)


# ---------------------------------------------------------------------------
# Random queries
# ---------------------------------------------------------------------------

def row_value(rng):
    return rng.choice(ROW_VALUES)


def in_list(rng):
    n = rng.choice([0, 1, 2, 2, 3, 4, 6])
    vals = [row_value(rng) for _ in range(n)]
    if vals and rng.random() < 0.3:
        vals.append(rng.choice(vals))  # a duplicate
    rng.shuffle(vals)
    return "(" + ", ".join(vals) + ")"


def row_atom(rng, s):
    r = s.row(rng)
    k = rng.randrange(14)
    if k < 3:
        return f"{r} = {row_value(rng)}"
    if k < 5:
        return f"{r} IN {in_list(rng)}"
    if k == 5:
        return f"{r} NOT IN {in_list(rng)}"
    if k == 6:
        return f"{r} IN (SELECT id FROM picks)"
    if k == 7:
        lo, hi = sorted([rng.randint(-2, 60), rng.randint(-2, 60)])
        return f"{r} BETWEEN {lo} AND {hi}"
    if k == 8:
        return f"{r} IS {row_value(rng)}"
    if k == 9:
        return f"{row_value(rng)} = {r}"  # the column on the right
    op = rng.choice(["<", "<=", ">", ">=", "<>"])
    return f"{r} {op} {row_value(rng)}"


def col_atom(rng, s):
    name = rng.choice(list(s.columns))
    c = s.col(name)
    v = rng.choice(s.columns[name])
    k = rng.randrange(8)
    if k == 0:
        return f"{c} IS NULL"
    if k == 1:
        return f"{c} IS NOT NULL"
    if k == 2:
        vals = rng.sample(s.columns[name], min(2, len(s.columns[name])))
        return f"{c} IN ({', '.join(vals)})"
    op = rng.choice(["=", "<", ">", "<=", ">=", "<>"])
    return f"{c} {op} {v}"


def where_expr(rng, s, depth=0):
    """A random boolean expression over the shape's rowid and columns."""
    if depth >= 3 or rng.random() < 0.35:
        return row_atom(rng, s) if rng.random() < 0.65 else col_atom(rng, s)
    k = rng.randrange(10)
    if k < 4:
        return (f"({where_expr(rng, s, depth + 1)} OR "
                f"{where_expr(rng, s, depth + 1)})")
    if k < 8:
        return (f"({where_expr(rng, s, depth + 1)} AND "
                f"{where_expr(rng, s, depth + 1)})")
    return f"NOT ({where_expr(rng, s, depth + 1)})"


def or_of_rows(rng, s):
    """Row terms joined by OR (and an AND): the shape that must not fall
    back to a full scan."""
    terms = [row_atom(rng, s) for _ in range(rng.randint(2, 4))]
    e = "(" + " OR ".join(terms) + ")"
    if rng.random() < 0.4:
        e += " AND " + (col_atom(rng, s) if rng.random() < 0.5
                        else row_atom(rng, s))
    return e


def order_by(rng, shapes):
    """ORDER BY terms, and whether they order the rows totally (the rowid
    of every table is among them)."""
    keys, have = [], set()
    for _ in range(rng.randint(1, 3)):
        s = rng.choice(shapes)
        d = rng.choice(["", " ASC", " DESC"])
        if rng.random() < 0.5:
            keys.append(s.row(rng) + d)
            have.add(id(s))
        else:
            keys.append(s.col(rng.choice(list(s.columns))) + d)
    return " ORDER BY " + ", ".join(keys), len(have) == len(shapes)


def limit_clause(rng):
    k = rng.randrange(10)
    n = rng.choice(["0", "1", "2", "3", "5", "10", "100", "-1", "(1+2)"])
    if k < 5:
        return f" LIMIT {n}"
    if k < 8:
        off = rng.choice(["0", "1", "2", "7", "39", "60", "-3"])
        return f" LIMIT {n} OFFSET {off}"
    return f" LIMIT {rng.choice(['1', '4', '35'])}, {n}"  # LIMIT offset, n


class Case:
    """One query, as text with {A} and {B} where the tables go."""

    def __init__(self, name, sql, total, limited, unlimited=None):
        self.name = name
        self.sql = sql
        self.total = total          # total ORDER BY: compare as lists
        self.limited = limited      # has a LIMIT
        self.unlimited = unlimited  # the same without its LIMIT


def make_case(rng, n, columns, typed):
    """A random single-table or join query over one data set."""
    kind = rng.choice(["single"] * 6 + ["self", "corr", "picks", "exists"])
    a = Shape(typed=typed, columns=columns, alias="a")
    b = Shape(typed=typed, columns=columns, alias="b")
    if kind == "single":
        shapes = [a]
        frm = "{A} AS a"
    elif kind == "self":
        shapes = [a, b]
        on = rng.choice([f"{b.row(rng)} = {a.row(rng)}",
                         f"{b.row(rng)} = {a.row(rng)} + 1",
                         f"{b.col(rng.choice(list(columns)))} = "
                         f"{a.col(rng.choice(list(columns)))}"])
        frm = "{A} AS a JOIN {B} AS b ON " + on
    elif kind == "corr":
        # the other table's column in the ON clause of a LEFT JOIN
        shapes = [a, b]
        frm = ("{A} AS a LEFT JOIN {B} AS b ON "
               f"{b.row(rng)} IN ({a.row(rng)}, {a.row(rng)} * 2)")
    elif kind == "picks":
        shapes = [a]
        frm = rng.choice(["picks p JOIN {A} AS a ON " + a.row(rng) + " = p.id",
                          "{A} AS a JOIN picks p ON p.id = " + a.row(rng),
                          "{A} AS a, picks p WHERE 1 AND " + a.row(rng) +
                          " = p.id"])
    else:
        shapes = [a]
        frm = ("{A} AS a WHERE EXISTS (SELECT 1 FROM {B} AS b WHERE "
               f"{b.row(rng)} = {a.row(rng)} + 1 AND "
               f"({or_of_rows(rng, b)}))")
    cond = or_of_rows(rng, a) if rng.random() < 0.4 else where_expr(rng, a)
    if len(shapes) == 2 and rng.random() < 0.5:
        cond += " AND " + where_expr(rng, b)
    where = (" AND " if " WHERE " in frm else " WHERE ") + cond
    if rng.random() < 0.1:
        where = ""
    cols = []
    for s in shapes:
        cols.append(s.row(rng))
        cols.append(s.col(rng.choice(list(columns))))
        if rng.random() < 0.3:
            cols.append(f"{s.alias}.*")
    if kind == "picks":
        cols.append("p.id")
    select = "SELECT " + ", ".join(cols)
    if rng.random() < 0.06:
        select = "SELECT count(*), sum(" + a.row(rng) + ")"
        shapes_for_order = None
    else:
        shapes_for_order = shapes
    ob, total = "", False
    if shapes_for_order and rng.random() < 0.55:
        ob, total = order_by(rng, shapes_for_order)
    if kind == "picks":
        total = False  # picks has duplicate ids: rows can tie
    lim = limit_clause(rng) if rng.random() < 0.4 and shapes_for_order else ""
    base = select + " FROM " + frm + where + ob
    return Case(f"random#{n} ({kind})", base + lim, total, bool(lim), base)


# ---------------------------------------------------------------------------
# Running and comparing
# ---------------------------------------------------------------------------

def run(conn, sql):
    try:
        return conn.execute(sql).fetchall(), None
    except sqlite3.Error as e:
        return None, str(e)


def compare(conn, case, jj_a, jj_b, nat_a, nat_b):
    """Run case over jj_open (A, B) and over the native tables; count one
    check."""
    sql_jj = case.sql.replace("{A}", jj_a).replace("{B}", jj_b)
    sql_nat = case.sql.replace("{A}", nat_a).replace("{B}", nat_b)
    got, err = run(conn, sql_jj)
    want, nerr = run(conn, sql_nat)
    if nerr is not None:
        check(case.name, False, f"native query failed: {nerr}: {sql_nat}")
        return
    if err is not None:
        check(case.name, False, f"error {err!r}: {sql_jj}")
        return
    if case.total:
        ok = got == want
    elif case.limited:
        full, ferr = run(conn, case.unlimited.replace("{A}", nat_a)
                         .replace("{B}", nat_b))
        ok = (ferr is None and len(got) == len(want) and
              not (collections.Counter(got) - collections.Counter(full)))
    else:
        ok = collections.Counter(got) == collections.Counter(want)
    check(case.name, ok, f"\n  query: {sql_jj}\n  got:  {got[:8]}"
          f"{' ...' if len(got) > 8 else ''} ({len(got)} rows)\n"
          f"  want: {want[:8]}{' ...' if len(want) > 8 else ''} "
          f"({len(want)} rows)")


def native_copy(conn, name, source, typed_table=None):
    """A native table with the rows of `source`: (row, record) with row the
    rowid, and for a typed table its columns with the declared types."""
    conn.execute(f"CREATE TABLE {name}(row INTEGER PRIMARY KEY, record TEXT)")
    conn.execute(f"INSERT INTO {name} SELECT row, record FROM jj_open({source})")
    if typed_table:
        cols = conn.execute(
            f"SELECT name, sql_type FROM jj_schema({source})").fetchall()
        decl = ", ".join(f'"{n}" {t}' for n, t in cols)
        names = ", ".join(f'"{n}"' for n, _ in cols)
        # no INTEGER PRIMARY KEY (it would be a column of SELECT *): the
        # rowid is given explicitly
        conn.execute(f"CREATE TABLE t{name}({decl})")
        conn.execute(f"INSERT INTO t{name}(rowid, {names}) "
                     f"SELECT rowid, * FROM {typed_table}")


def main():
    build = jjtest.build_dir(sys.argv)
    rows_jj = os.path.join(jjtest.ROOT, "sql", "data", "rows.jj")
    rows_gz = rows_jj + ".gz"
    san = os.path.basename(os.path.normpath(build)) == "san"
    count = int(os.environ.get("PLANNER_QUERIES", "3000" if san else "6000"))
    print(f"planner: seed {SEED}, {count} random queries")
    rng = random.Random(SEED)

    tmp = tempfile.mkdtemp(prefix="jj-planner-")
    nulls_jj = os.path.join(tmp, "nulls.jj")
    with open(nulls_jj, "w", encoding="utf-8") as f:
        f.write(nulls_document(rng, 57))

    conn = connect(extension_path(build))

    conn.execute(f"CREATE VIRTUAL TABLE temp.rows USING jj_open({q(rows_jj)})")
    conn.execute(f"CREATE VIRTUAL TABLE temp.nulls USING jj_open({q(nulls_jj)})")
    native_copy(conn, "nrows", q(rows_jj), "rows")
    native_copy(conn, "nnulls", q(nulls_jj), "nulls")
    # ids to join with: duplicates, rows past the end, NULL, text, reals
    conn.execute("CREATE TABLE picks(id)")
    conn.executemany("INSERT INTO picks VALUES (?)",
                     [(v,) for v in (1, 3, 3, 7, 40, 41, 0, None, "5", 2.0,
                                     2.5, 12, 38)])
    # one document per row, for jj_open(x.src)
    conn.execute("CREATE TABLE srcs(name TEXT, src)")
    with open(nulls_jj, "rb") as f:
        nulls_blob = f.read()
    conn.executemany("INSERT INTO srcs VALUES (?, ?)", [
        ("file", rows_jj), ("gz", rows_gz), ("blob", nulls_blob),
        ("none", None)])
    conn.execute("CREATE TABLE nsrcs(name TEXT, row INTEGER, record TEXT, "
                 "PRIMARY KEY(name, row))")
    conn.execute("INSERT INTO nsrcs SELECT s.name, r.row, r.record "
                 "FROM srcs s, jj_open(s.src) r")
    conn.execute("CREATE TABLE tsrcs(name TEXT, src)")
    with open(rows_jj, "rb") as f:
        rows_blob = f.read()
    conn.executemany("INSERT INTO tsrcs VALUES (?, ?)", [
        ("file", rows_jj), ("gz", rows_gz), ("br", rows_jj + ".br"),
        ("blob", rows_blob)])

    # -- the planner's reference queries, by name -----------------------
    src = q(rows_jj)
    named = [
        # (the record form's query, the typed table's)
        ("SELECT * FROM {A} WHERE row = 1 OR row = 3",
         "SELECT rowid, * FROM {A} WHERE rowid = 1 OR rowid = 3"),
        ("SELECT * FROM {A} WHERE row IN (1,2) OR row > 38",
         "SELECT rowid, * FROM {A} WHERE rowid IN (1,2) OR rowid > 38"),
        ("SELECT * FROM {A} WHERE (row=1 OR row=3) AND record->>'seats' > 3",
         "SELECT rowid, * FROM {A} WHERE (rowid=1 OR rowid=3) AND seats > 3"),
        ("SELECT row FROM {A} WHERE (row=1 OR row=3) AND (row=3 OR row=5)",
         "SELECT rowid FROM {A} WHERE (rowid=1 OR rowid=3) AND "
         "(rowid=3 OR rowid=5)"),
        ("SELECT row, record FROM {A} WHERE row = 2 OR "
         "record->>'city' = 'Oslo'",
         "SELECT rowid, id FROM {A} WHERE rowid = 2 OR city = 'Oslo'"),
        ("SELECT row FROM {A} WHERE row = 1 OR row = 3 LIMIT 1",
         "SELECT rowid FROM {A} WHERE rowid = 1 OR rowid = 3 LIMIT 1"),
        ("SELECT row FROM {A} WHERE row = 1 OR row > 38 LIMIT 2 OFFSET 1",
         "SELECT rowid FROM {A} WHERE rowid = 1 OR rowid > 38 "
         "LIMIT 2 OFFSET 1"),
        ("SELECT row FROM {A} WHERE row < 3 OR row IN (39, 40, 41) "
         "ORDER BY row DESC",
         "SELECT rowid FROM {A} WHERE rowid < 3 OR rowid IN (39, 40, 41) "
         "ORDER BY rowid DESC"),
    ]
    for i, (sql, tsql) in enumerate(named):
        total, limited = "ORDER BY" in sql, "LIMIT" in sql
        compare(conn, Case(f"named#{i}", sql, total, limited,
                           sql.split(" LIMIT")[0]),
                f"jj_open({src})", "", "nrows", "")
        # and over the typed table and its table-valued form
        compare(conn, Case(f"named#{i} typed", tsql, total, limited,
                           tsql.split(" LIMIT")[0]),
                "rows", "", "tnrows", "")
        compare(conn, Case(f"named#{i} typed tvf", tsql, total, limited,
                           tsql.split(" LIMIT")[0]),
                f"rows({q(rows_gz)})", "", "tnrows", "")

    # The OR plans are costed, not refused: they read the rows they name.
    def eqp(sql):
        rows, err = run(conn, "EXPLAIN QUERY PLAN " + sql)
        return err or " ".join(r[3] for r in rows)
    plan = eqp(f"SELECT * FROM jj_open({src}) WHERE row = 1 OR row > 38")
    check("an OR of row terms: a scan of the source", plan.endswith(
        "VIRTUAL TABLE INDEX 1:source"), plan)
    plan = eqp(f"SELECT * FROM jj_open({src}) WHERE row = 7")
    check("row = ? still goes to the row", "source,row=" in plan, plan)
    plan = eqp(f"SELECT * FROM jj_open({src}) WHERE row = 1 OR row = 3")
    check("an OR of rows is an IN list", "source,row in" in plan, plan)
    plan = eqp(f"SELECT * FROM jj_open({src}) WHERE row = 1 OR row > 38 "
               "LIMIT 1")
    check("an OR keeps the LIMIT in SQLite", "limit" not in plan, plan)

    # A typed table's query that reads some of its columns, not all, tells
    # the cursor which ("read" and their numbers, counting from 0:
    # jj_cursor_select); every column, none (count(*)) or a union_by_name
    # table: no "read".  The random queries below compare the results.
    for sql, want in [
            ("SELECT sum(price) FROM rows", "read 5"),
            ("SELECT city FROM rows WHERE seats > 3", "read 2 4"),
            ("SELECT user, items FROM rows WHERE rowid = 2", "row=,read 1 7"),
            ("SELECT * FROM rows", None),
            ("SELECT count(*) FROM rows", None),
            ("SELECT id, user, city, plan, seats, price, joined, items "
             "FROM rows", None)]:
        plan = eqp(sql)
        got = plan.split(":", 1)[-1] if "INDEX" in plan else plan
        check(f"columns read: {sql}",
              ("read" not in got) if want is None else got.endswith(want),
              plan)
    got, err = run(conn, "SELECT sum(price), count(city) FROM rows")
    nat, nerr = run(conn, "SELECT sum(price), count(city) FROM tnrows")
    check("columns read: the same sums", err is None and got == nat,
          f"{err} {got} {nat}")

    # Without a SOURCE, planning succeeds and the scan fails with the
    # message that says what to write, whatever the WHERE clause.
    for sql in ["SELECT * FROM jj_open",
                "SELECT * FROM jj_open WHERE row = 1 OR row = 3",
                "SELECT row FROM jj_open WHERE row IN (1,2) OR row > 38",
                "SELECT * FROM jj_open LIMIT 1",
                "SELECT * FROM jj_open WHERE source IS NULL"]:
        rows, err = run(conn, sql)
        check(f"no source: {sql}", err == NO_SOURCE, f"got {err!r} {rows!r}")
    # A correlated SOURCE in the ON clause of a LEFT JOIN, a NULL SOURCE.
    got, err = run(conn, "SELECT s.name, count(r.row) FROM srcs s LEFT JOIN "
                   "jj_open(s.src) r ON r.row = 2 OR r.row > 38 "
                   "GROUP BY s.name ORDER BY s.name")
    check("left join with or", err is None and got == [
        ("blob", 20), ("file", 3), ("gz", 3), ("none", 0)],
        f"{err} {got}")

    # -- random queries over the record form, the typed table and joins ---
    forms = [
        # (name, columns, jj A, jj B, native A, native B, typed)
        ("record rows.jj", ROWS_COLUMNS, f"jj_open({src})", f"jj_open({src})",
         "nrows", "nrows", False),
        ("record nulls blob", NULLS_COLUMNS,
         "jj_open((SELECT src FROM srcs WHERE name = 'blob'))",
         f"jj_open({q(nulls_jj)})", "nnulls", "nnulls", False),
        ("typed rows", ROWS_COLUMNS, "rows", "rows", "tnrows", "tnrows", True),
        ("typed nulls", NULLS_COLUMNS, "nulls", f"nulls({q(nulls_jj)})",
         "tnnulls", "tnnulls", True),
        ("typed tvf", ROWS_COLUMNS, f"rows({q(rows_gz)})", "rows",
         "tnrows", "tnrows", True),
    ]
    for name, columns, jj_a, jj_b, nat_a, nat_b, typed in forms:
        for n in range(count // len(forms) + 1):
            case = make_case(rng, n, columns, typed)
            case.name = f"{name} {case.name}"
            compare(conn, case, jj_a, jj_b, nat_a, nat_b)

    # -- one document per row of another table: jj_open(x.src), rows(x.src)
    for n in range(count // 10 + 1):
        s = Shape(typed=False, columns=NULLS_COLUMNS, alias="r")
        cond = or_of_rows(rng, s) if rng.random() < 0.5 else where_expr(rng, s)
        ob, total = "", False
        if rng.random() < 0.5:
            ob, total = " ORDER BY x.name, r.row" + rng.choice(["", " DESC"]), True
        order = rng.choice(["FROM srcs x, jj_open(x.src) r",
                            "FROM jj_open(x.src) r, srcs x",
                            "FROM srcs x JOIN jj_open(x.src) r ON 1",
                            "FROM srcs x LEFT JOIN jj_open(x.src) r ON 1"])
        left = "LEFT" in order
        sql_jj = f"SELECT x.name, r.row, r.record {order} WHERE {cond}{ob}"
        nat = ("FROM srcs x LEFT JOIN nsrcs r ON r.name = x.name" if left
               else "FROM srcs x JOIN nsrcs r ON r.name = x.name")
        # nsrcs's rowid is not the row number: name the column
        sql_nat = (f"SELECT x.name, r.row, r.record {nat} WHERE {cond}{ob}"
                   .replace("r.rowid", "r.row"))
        got, err = run(conn, sql_jj)
        want, nerr = run(conn, sql_nat)
        ok = err is None and nerr is None and (
            got == want if total else
            collections.Counter(got) == collections.Counter(want))
        check(f"srcs#{n}", ok, f"\n  query: {sql_jj}\n  error: {err or nerr}"
              f"\n  got:  {(got or [])[:6]} ({len(got or [])} rows)"
              f"\n  want: {(want or [])[:6]} ({len(want or [])} rows)")
        # the typed table over sources of its own shape
        t = Shape(typed=True, columns=ROWS_COLUMNS, alias="r")
        cond_t = or_of_rows(rng, t) if rng.random() < 0.5 else where_expr(rng, t)
        sql_jj = (f"SELECT x.name, r.rowid, r.id, r.city FROM tsrcs x, "
                  f"rows(x.src) r WHERE {cond_t}{ob.replace('r.row', 'r.rowid')}")
        sql_nat = (f"SELECT x.name, r.rowid, r.id, r.city FROM tsrcs x, "
                   f"tnrows r WHERE {cond_t}{ob.replace('r.row', 'r.rowid')}")
        got, err = run(conn, sql_jj)
        want, nerr = run(conn, sql_nat)
        ok = err is None and nerr is None and (
            got == want if total else
            collections.Counter(got) == collections.Counter(want))
        check(f"tsrcs#{n}", ok, f"\n  query: {sql_jj}\n  error: {err or nerr}"
              f"\n  got:  {(got or [])[:6]} ({len(got or [])} rows)"
              f"\n  want: {(want or [])[:6]} ({len(want or [])} rows)")

    conn.close()
    os.unlink(nulls_jj)
    os.rmdir(tmp)
    return jjtest.report("planner")


if __name__ == "__main__":
    sys.exit(main())
