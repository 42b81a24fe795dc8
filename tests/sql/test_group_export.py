#!/usr/bin/env python3
"""test_group_export.py BUILD_DIR - jj_group and jj_export over the core's
row builder: the same rows give the same document whichever way they come,
and a column of NULLs added changes nothing else.

A column 'zz', NULL in every row, is added to each query: the same query
then must give the same document with ",null" at the end of every row and
"zz" in the header, or the same error.  Over 400 random tables of every
column kind (inferred INTEGER columns that meet a REAL, float columns that
meet an INTEGER beyond 2^53, TEXT with escapes, non-ASCII and invalid UTF-8,
BLOBs, NULLs, explicit d, t, b, i, f and s columns given good and bad
values), and hand-made cases: a REAL after many rows (a float column), an
INTEGER no double holds before it (a text column, as the converter
decides), invalid UTF-8 mid-row (an error at its row, before a later bad
date), surprises at row 1000 of 1200 in columns written as they came (a
REAL, a NULL, dates and NaN after words: the converter's document of the
same rows as JSON, and jj_export's), and the length limit.  Successful
documents are also compared with jj_export's of the same rows and types,
byte for byte.
Prints "group_export: N passed, M failed".
"""
import os
import random
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import jjtest
from jjtest import check, connect, extension_path

KINDS = ("int", "real", "num", "text", "blob", "d", "t", "b", "i_text", "f", "s", "bigf")


def rand_text(rng):
    r = rng.random()
    if r < 0.5:
        return "".join(rng.choice("abcXYZ019 -_") for _ in range(rng.randrange(0, 20)))
    if r < 0.7:
        return "".join(rng.choice(['"', "\\", "\n", "\t", "\x01", "\x1f", "\x7f", "a", "/"])
                       for _ in range(rng.randrange(1, 12)))
    if r < 0.9:
        return "".join(rng.choice(["ø", "Tromsø", "€", "𝄞", "日本", "a", "\u2028", "\x00"])
                       for _ in range(rng.randrange(1, 6)))
    return "x" * rng.randrange(20, 200)


def sql_text(s):
    """s as a SQL TEXT expression (NUL by char(0): SQL text cannot hold it)."""
    return "'%s'" % s.replace("'", "''").replace("\x00", "' || char(0) || '")


def rand_value(rng, kind, bad):
    """A SQL expression for one value of a column of this kind; `bad` asks
    for a value the column may refuse ."""
    if rng.random() < 0.08:
        return "NULL"
    if kind == "int":
        if bad and rng.random() < 0.5:
            return repr(rng.uniform(-1e6, 1e6))  # a REAL: the column becomes f
        return str(rng.randrange(-2 ** 62, 2 ** 62) if rng.random() < 0.3 else rng.randrange(-999, 99999))
    if kind == "real":
        if rng.random() < 0.3:
            return str(rng.randrange(-10 ** 6, 10 ** 6))  # an exact INTEGER
        return repr(round(rng.uniform(-1e5, 1e5), rng.randrange(0, 6)))
    if kind == "bigf":  # REAL first, then integers, some not exact as doubles
        if bad and rng.random() < 0.5:
            return str(2 ** 53 + 1 + 2 * rng.randrange(0, 1000))
        return repr(rng.uniform(-10, 10))
    if kind == "num":
        return rng.choice([str(rng.randrange(-50, 50)), repr(rng.uniform(-1, 1) * 10 ** rng.randrange(-5, 20)),
                           "1e308*10", "-1e308*10"])
    if kind == "text":
        if bad and rng.random() < 0.5:
            return "CAST(x'%s' AS TEXT)" % rng.choice(["ff", "c0af", "eda080", "61e2", "f4908080"])
        return sql_text(rand_text(rng))
    if kind == "blob":
        return "x'%s'" % "".join(rng.choice("0123456789abcdef") for _ in range(2 * rng.randrange(0, 20)))
    if kind == "d":
        if bad and rng.random() < 0.5:
            return rng.choice(["'2023-02-29'", "'2024-13-01'", "'x'", "5"])
        return "'%04d-%02d-%02d'" % (rng.randrange(0, 10000), rng.randrange(1, 13), rng.randrange(1, 29))
    if kind == "t":
        if bad and rng.random() < 0.5:
            return rng.choice(["'2024-01-01T25:00:00Z'", "'2024-01-01'"])
        return "'2024-%02d-%02dT%02d:%02d:%02d%s'" % (
            rng.randrange(1, 13), rng.randrange(1, 29), rng.randrange(24), rng.randrange(60),
            rng.randrange(60), rng.choice(["Z", "+05:30", ".123Z", "-01:00"]))
    if kind == "b":
        if bad and rng.random() < 0.5:
            return rng.choice(["2", "'yes'", "0.5"])
        return rng.choice(["0", "1", "'true'", "'false'", "' 1 '"])
    if kind == "i_text":
        if bad and rng.random() < 0.5:
            return rng.choice(["'12abc'", "'1.5'", "'9007199254740993.0'", "x'00'"])
        return rng.choice(["'100'", "' 7 '", "'1e2'", "42", "'-3'"])
    if kind == "f":
        if bad and rng.random() < 0.5:
            return rng.choice(["'abc'", "x'01'", "9007199254740993"])
        return rng.choice(["'19.99'", "1", "2.5", "'1e-3'", "-0.0"])
    if kind == "s":
        if bad and rng.random() < 0.5:
            return rng.choice(["1", "2.5", "x'00'"])
        return sql_text(rand_text(rng))
    raise ValueError(kind)


NAME_TYPE = {"d": ":d", "t": ":t", "b": ":b", "i_text": ":i", "f": ":f", "s": ":s"}


def run(conn, sql):
    try:
        return ("ok", conn.execute(sql).fetchone()[0])
    except Exception as e:  # sqlite3.Error subclasses
        return ("error", str(e))


def strip_zz(doc):
    """The with_zz query's document without its last column 'zz' (NULL in
    every row, so "s" and ",null" at the end of each row)."""
    lines = doc.split("\n")
    head = lines[0].replace(',"zz"],"types":[', '],"types":[', 1)
    head = head.replace(',"s"],"rows":[', '],"rows":[', 1)
    rows = []
    for row in lines[1:-1]:
        end = ",null]," if row.endswith(",null],") else ",null]"
        if not row.endswith(end):
            return None
        rows.append(row[: -len(end)] + row[-len(end) + len(",null"):])
    return "\n".join([head] + rows + lines[-1:])


def table(conn, rng, name, kinds, nrows, bad_rate):
    cols = ["c%d" % i for i in range(len(kinds))]
    conn.execute("DROP TABLE IF EXISTS %s" % name)
    conn.execute("CREATE TABLE %s(k INTEGER PRIMARY KEY, %s)" % (name, ", ".join(cols)))
    for r in range(nrows):
        vals = [rand_value(rng, k, r > 0 and rng.random() < bad_rate) for k in kinds]
        if r == 0:  # the first row types every column
            vals = [v if v != "NULL" else rand_value(rng, k, False).replace("NULL", "1")
                    for v, k in zip(vals, kinds)]
        conn.execute("INSERT INTO %s VALUES (%d, %s)" % (name, r + 1, ", ".join(vals)))
    return cols


def group_sql(name, cols, kinds, extra=""):
    args = ", ".join("'%s%s', %s" % (c, NAME_TYPE.get(k, ""), c) for c, k in zip(cols, kinds))
    return "SELECT jj_group(%s%s) FROM (SELECT * FROM %s ORDER BY k)" % (args, extra, name)


def compare(conn, label, name, cols, kinds):
    plain = run(conn, group_sql(name, cols, kinds))
    with_zz = run(conn, group_sql(name, cols, kinds, ", 'zz', NULL"))
    if plain[0] == "ok" and with_zz[0] == "ok":
        same = plain[1] is not None and strip_zz(with_zz[1]) == plain[1]
    else:
        same = plain == with_zz
    return same, plain, with_zz


def export_equal(conn, tmp, name, cols, doc):
    """jj_export of the same rows with the document's types gives the same
    bytes (another writer path: rows straight from SQLite values)."""
    head = doc.split("\n", 1)[0]
    types = head[head.index('"types":[') + 9: head.index('],"rows"')].replace('"', "").split(",")
    path = os.path.join(tmp, "e.jj")
    spec = ",".join("%s:%s" % (c, t) for c, t in zip(cols, types))
    try:
        conn.execute("SELECT jj_export(?, ?, ?)",
                     (path, "SELECT %s FROM %s ORDER BY k" % (", ".join(cols), name), spec))
    except jjtest.sqlite3.Error:
        return None  # jj_export converts no TEXT to numbers: not comparable
    with open(path, "rb") as f:
        return f.read().decode("utf-8") == doc


def main():
    conn = connect(extension_path(jjtest.build_dir(sys.argv)))
    rng = random.Random(16)
    tmp = tempfile.mkdtemp(prefix="jj-group-export-")
    ok_docs = errors = differ = export_differ = exported = 0
    for t in range(400):
        kinds = [rng.choice(KINDS) for _ in range(rng.randrange(1, 9))]
        cols = table(conn, rng, "r", kinds, rng.randrange(1, 60), rng.choice([0.0, 0.0, 0.02, 0.1]))
        same, plain, with_zz = compare(conn, "random %d" % t, "r", cols, kinds)
        if not same:
            differ += 1
            if differ <= 5:
                print("FAIL table %d %s:\n  plain   %r\n  with_zz %r" % (t, kinds, plain[1][:300], with_zz[1][:300]))
            continue
        if plain[0] == "ok":
            ok_docs += 1
            same_export = export_equal(conn, tmp, "r", cols, plain[1])
            exported += same_export is not None
            if same_export is False:
                export_differ += 1
                if export_differ <= 3:
                    print("FAIL export differs, table %d %s" % (t, kinds))
        else:
            errors += 1
    check("400 random tables: plain == with_zz", differ == 0, "%d differ" % differ)
    print("group_export: %d documents, %d errors, %d compared with jj_export" % (ok_docs, errors, exported))
    check("both outcomes covered", ok_docs >= 100 and errors >= 50, "%d documents, %d errors" % (ok_docs, errors))
    check("documents equal jj_export's", export_differ == 0 and exported >= 50,
          "%d of %d differ" % (export_differ, exported))

    # Cases by hand: the columns late values change, errors, the limit.
    series = "WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < %d) "
    cases = {
        # an INTEGER column's first REAL after 1000 rows: every row a float
        "real_late": series % 1500 + "SELECT jj_group('n', CASE WHEN n = 1200 THEN 0.5 ELSE n END, "
                     "'t', 'x' || n%s) FROM s",
        # and one INTEGER that a float cannot hold, before the REAL
        "real_late_inexact": series % 1500 + "SELECT jj_group('n', CASE WHEN n = 1200 THEN 0.5 "
                             "WHEN n = 7 THEN 9007199254740993 ELSE n END%s) FROM s",
        # invalid UTF-8 mid-row, then a bad date later: the first is the error
        "utf8_then_date": series % 300 + "SELECT jj_group('a', n, 't', CASE WHEN n = 100 THEN "
                          "CAST(x'ff' AS TEXT) ELSE 'ok' END, 'd:d', CASE WHEN n = 200 THEN "
                          "'2023-02-30' ELSE '2024-01-01' END%s) FROM s",
        # invalid UTF-8 alone: the writer's message at the end
        "utf8_alone": series % 300 + "SELECT jj_group('a', n, 't', CASE WHEN n = 100 THEN "
                      "CAST(x'c0af' AS TEXT) ELSE 'ok' END%s) FROM s",
    }
    for label, sql in cases.items():
        plain = run(conn, sql % "")
        with_zz = run(conn, sql % ", 'zz', NULL")
        if plain[0] == "ok" and with_zz[0] == "ok":
            same = strip_zz(with_zz[1]) == plain[1]
        else:
            same = plain == with_zz
        check("with zz: %s" % label, same, "%r / %r" % (plain[1][:200], with_zz[1][:200]))
    check("real_late is a float column", run(conn, cases["real_late"] % "")[1].startswith(
        '{"jalapenojson":1,"columns":["n","t"],"types":["f","s"]'))
    check("real_late_inexact is a text column", run(conn, cases["real_late_inexact"] % "")[1]
          .startswith('{"jalapenojson":1,"columns":["n"],"types":["s"]'))
    got = run(conn, cases["utf8_then_date"] % "")[1]
    check("utf8_then_date: the first bad value, at its row", "row 100" in got and "UTF-8" in got,
          got)
    check("utf8_alone: not UTF-8", "row 100" in run(conn, cases["utf8_alone"] % "")[1] and
          "UTF-8" in run(conn, cases["utf8_alone"] % "")[1])

    # Row 1000 of 1200 surprises columns whose values went to the document
    # as they came: a REAL among INTEGERs (the rows so far are read back),
    # a NULL, text that is a date or NaN after words, the names of a date
    # column; jj_group, jj_export (the same query, types inferred) and the
    # converter over the same rows as JSON give the same document.
    rows = (series % 1200 + ", r(n, i, t, m, d) AS (SELECT n, CASE WHEN n = 1000 THEN 0.5 "
            "ELSE n END, CASE WHEN n = 1000 THEN NULL ELSE 'w' || n END, CASE WHEN n < 1000 THEN "
            "'x' WHEN n % 2 = 0 THEN '2024-02-29' ELSE 'NaN' END, printf('2024-01-%02d', "
            "n % 28 + 1) FROM s) ")
    group = run(conn, rows + "SELECT jj_group('n', n, 'i', i, 't', t, 'm', m, 'd', d) FROM r")
    conv = run(conn, rows + "SELECT jj_from_json(json_group_array(json_object('n', n, 'i', i, "
                            "'t', t, 'm', m, 'd', d))) FROM r")
    path = os.path.join(tmp, "surprise.jj")
    conn.execute("SELECT jj_export(?, ?)", (path, rows + "SELECT n, i, t, m, d FROM r"))
    with open(path, "rb") as f:
        exported = f.read().decode("utf-8")
    check("surprises at row 1000: jj_group gives the converter's document",
          group[0] == "ok" and group == conv, "%r / %r" % (group[1][:300], conv[1][:300]))
    check("  ... and jj_export's", group[1] == exported, exported[:300])
    check("  ... i is f, m is s, d is d", group[1].startswith(
        '{"jalapenojson":1,"columns":["n","i","t","m","d"],"types":["i","f","s","s","d"]'),
          group[1][:200])
    check("  ... row 1000 as it was given", '\n[1000,0.5,null,"2024-02-29","2024-01-21"],\n'
          in group[1], group[1][:200])

    # The length limit: the rows' lower bound stops xStep as soon as it
    # passes; until then a bad value is the error; the document itself
    # stops at the row that passes the limit.
    conn.setlimit(jjtest.sqlite3.SQLITE_LIMIT_LENGTH, 5000)
    too_long = ("jj_group: the document would be more than 5000 bytes, SQLite's length limit "
                "(SQLITE_LIMIT_LENGTH)")
    text = "printf('%030d', n)"
    got = run(conn, series % 300 + "SELECT jj_group('t', %s) FROM s" % text)
    check("limit: too long", got == ("error", too_long), repr(got))
    # escapes make the document 6 bytes a character, the bound counts 1:
    # the document passes 5000 bytes near row 30, the bound near row 200.
    # Rows are written as they end (their types held), so the document's
    # own length stops it near row 30: a bad date at row 100 is not
    # reached, one at row 10 is the error
    esc = "char(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 14, 15, 16, 17, 18, 19, 20, 21)"
    sql = (series % 400 + "SELECT jj_group('t', %s, 'd:d', CASE WHEN n = %%d THEN '2023-02-30' "
           "ELSE '2024-01-01' END) FROM s" % esc)
    got = run(conn, sql % 100)
    check("limit: the document's length, before a later bad value", got == ("error", too_long),
          repr(got))
    got = run(conn, sql % 10)
    check("limit: an earlier bad value wins", got[0] == "error" and "row 10" in got[1] and
          "2023-02-30" in got[1], repr(got))
    sql = (series % 400 + "SELECT jj_group('t', %s, 'n', CASE WHEN n = 390 THEN 0.5 ELSE n END%%s) FROM s" % esc)
    got = run(conn, sql % "")
    check("limit: too long, a float column", got == ("error", too_long), repr(got))
    got = run(conn, series % 20 + "SELECT length(jj_group('t', %s)) FROM s" % esc)
    check("limit: fits", got[0] == "ok" and got[1] is not None and got[1] <= 5000, repr(got))
    conn.setlimit(jjtest.sqlite3.SQLITE_LIMIT_LENGTH, 1000000000)
    return jjtest.report("group_export")


if __name__ == "__main__":
    sys.exit(main())
