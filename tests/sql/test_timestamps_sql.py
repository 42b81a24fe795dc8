"""test_timestamps_sql.py BUILD_DIR — timestamps (t) and local timestamps
(l) as SQL sees them, against SQLite's own date and time functions.

A typed table gives both in SQLite's form YYYY-MM-DD HH:MM:SS[.f], a t
converted to UTC, the fraction's trailing zeros dropped (ext/column.c), so
that `WHERE ts >= datetime('now', '-1 day')`, ORDER BY and BETWEEN hold
exactly as on a TEXT column of datetime()'s output.  The native table here
holds what SQLite itself makes of each value (strftime() of the document's
text, which SQLite reads with its zone), and every predicate, with the
comparison pushed down to the table and without (`+ts`), must select the
same rows as on the native table.  Then: timestamps=as_written, the record
form (the document's text), the declared types, and the producers: jj_group,
jj_export, jj_from_csv and jj_from_json take SQLite's datetime() output and
the T form as local timestamps (a note for the space), an explicit :t takes
them as UTC (a note), both inside nested tables too.
"""
import os
import random
import sqlite3
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import jjtest
from jjtest import check, connect, extension_path, q

# Zoned values around midnight in several zones, fractions of 1 to 3
# digits (SQLite's strftime keeps milliseconds), whole seconds.
STAMPS = ["2024-03-01T00:00:00Z", "2024-03-01T00:30:00+01:00",
          "2024-02-29T23:30:00-01:00", "2024-03-01T23:59:59.5Z",
          "2024-03-02T00:59:59.25+01:00", "2024-03-01T10:30:00.100+05:30",
          "2024-03-01T05:00:00.1Z", "2023-12-31T23:00:00-01:00",
          "2024-01-01T00:00:00Z", "1970-01-01T00:00:00.001Z",
          "2024-03-01T12:00:00+14:00", "2024-03-01T12:00:00-12:00"]
LOCALS = ["2024-03-01T00:00:00", "2024-03-01T00:30:00", "2024-02-29T23:30:00",
          "2024-03-01T23:59:59.5", "2024-03-02T00:59:59.25",
          "2024-03-01T10:30:00.100", "2024-03-01T05:00:00.1",
          "2023-12-31T23:00:00", "2024-01-01T00:00:00", "1970-01-01T00:00:00.001",
          "2024-03-01T12:00:00", "2024-03-01T11:59:59.999"]


def sqlite_form(conn, text):
    """What SQLite makes of text: strftime with milliseconds, in UTC, its
    trailing zeros dropped as the table drops them."""
    return conn.execute("SELECT rtrim(rtrim(strftime('%Y-%m-%d %H:%M:%f', ?), '0'), '.')",
                        (text,)).fetchone()[0]


def setup(conn, tmp):
    rng = random.Random(20260301)
    rows = []
    for i in range(60):
        rows.append((i + 1, rng.choice(STAMPS + [None]), rng.choice(LOCALS + [None])))
    lines = ",\n".join("[%d,%s,%s]" % (i, "null" if t is None else '"%s"' % t,
                                        "null" if l is None else '"%s"' % l)
                       for i, t, l in rows)
    path = os.path.join(tmp, "ts.jj")
    with open(path, "w") as f:
        f.write('{"jalapenojson":1,"columns":["id","t","l"],"types":["i","t","l"],'
                '"rows":[\n%s\n]}' % lines)
    conn.execute("CREATE TABLE n(id INTEGER, t TEXT, l TEXT)")
    conn.executemany("INSERT INTO n VALUES (?,?,?)",
                     [(i, None if t is None else sqlite_form(conn, t),
                       None if l is None else sqlite_form(conn, l)) for i, t, l in rows])
    conn.execute("CREATE VIRTUAL TABLE temp.r USING jj_open(%s)" % q(path))
    conn.execute("CREATE VIRTUAL TABLE temp.w USING jj_open(%s, timestamps=as_written)" % q(path))
    return path, rows


def test_values_are_sqlites_own(conn, rows):
    got = conn.execute("SELECT r.id, r.t, n.t, r.l, n.l FROM r JOIN n USING (id)").fetchall()
    check("every row", len(got) == len(rows), len(got))
    for i, rt, nt, rl, nl in got:
        check("t as SQLite writes it", rt == nt, (i, rt, nt))
        check("l as SQLite writes it", rl == nl, (i, rl, nl))
    check("the declared types",
          [r[2] for r in conn.execute("PRAGMA table_info(r)")] == ["INTEGER", "TIMESTAMP", "DATETIME"])
    # 00:30 at +01:00 is the day before in UTC; 23:30 at -01:00 the day after
    back = conn.execute("SELECT count(*) FROM r WHERE t = '2024-02-29 23:30:00'").fetchone()[0]
    check("across midnight into the day before",
          back == sum(t == "2024-03-01T00:30:00+01:00" for _, t, _ in rows) and back > 0, back)
    ahead = conn.execute("SELECT count(*) FROM r WHERE t = '2024-03-01 00:30:00'").fetchone()[0]
    check("across midnight into the day after",
          ahead == sum(t == "2024-02-29T23:30:00-01:00" for _, t, _ in rows) and ahead > 0, ahead)
    written = {r[0]: r for r in conn.execute("SELECT id, t, l FROM w")}
    for i, t, l in rows:
        check("as_written gives the text", written[i][1:] == (t, l), (i, written[i], t, l))


PREDICATES = [
    "{c} >= datetime(?)", "{c} < datetime(?)", "{c} > ?", "{c} <= ?", "{c} = ?",
    "{c} <> ?", "{c} BETWEEN datetime(?) AND datetime(?, '+1 day')",
    "{c} >= datetime(?, '-1 day')", "{c} IS ?", "{c} IS NOT ?",
    "{c} > strftime('%Y-%m-%d %H:%M:%f', ?)", "{c} IS NULL",
]
RHS = ["2024-03-01", "2024-03-01 00:00:00", "2024-03-01T00:30:00+01:00",
       "2024-02-29 23:30:00", "2024-03-01 23:59:59.5", "2024-03-01 05:00:00.1",
       "2024-03-01 00:00:00.000", "2024-01-01", "1970-01-01", "2024-03-02",
       "2024-03-01T10:30:00.1+05:30", "2024-03-01 12:00:00"]


def test_predicates_agree(conn):
    rng = random.Random(7)
    for k in range(600):
        c = rng.choice(["t", "l"])
        pred = rng.choice(PREDICATES).format(c=c)
        nparam = pred.count("?")
        params = [rng.choice(RHS) for _ in range(nparam)]
        if nparam == 2:
            params[1] = params[0]
        order = rng.choice(["id", c + ", id", c + " DESC, id"])
        sql = "SELECT id FROM %s WHERE %s ORDER BY %s"
        want = conn.execute(sql % ("n", pred, order), params).fetchall()
        pushed = conn.execute(sql % ("r", pred, order), params).fetchall()
        plain = conn.execute(sql % ("r", pred.replace(c, "+" + c, 1), order), params).fetchall()
        check("pushed down as SQLite decides", pushed == want, (pred, params, pushed, want))
        check("not pushed down as SQLite decides", plain == want, (pred, params, plain, want))
    plan = " | ".join(r[3] for r in conn.execute(
        "EXPLAIN QUERY PLAN SELECT id FROM r WHERE t >= datetime('2024-03-01')"))
    check("the comparison is the table's", ">=" in plan, plan)
    # the last day, as the docs' example asks it
    got = conn.execute("SELECT count(*) FROM r WHERE t >= datetime('2024-03-02', '-1 day')").fetchone()
    want = conn.execute("SELECT count(*) FROM n WHERE t >= datetime('2024-03-02', '-1 day')").fetchone()
    check("the last day", got == want and got[0] > 0, (got, want))


def test_record_form(conn, path, rows):
    recs = [r[0] for r in conn.execute("SELECT record FROM jj_open(%s)" % q(path))]
    for rec, (i, t, l) in zip(recs, rows):
        check("the record holds the text as written",
              rec == '{"id":%d,"t":%s,"l":%s}' % (i, "null" if t is None else '"%s"' % t,
                                                  "null" if l is None else '"%s"' % l), rec)
    got = conn.execute("SELECT record->>'l' FROM jj_open(%s) WHERE record->>'l' IS NOT NULL LIMIT 1"
                       % q(path)).fetchone()[0]
    check("->> on the record: as written", "T" in got, got)


def test_ends_of_the_calendar(conn):
    doc = ('{"jalapenojson":1,"columns":["t"],"types":["t"],"rows":[["0000-01-01T00:30:00+01:00"],'
           '["9999-12-31T23:30:00-01:00"],["0000-01-01T01:30:00+01:00"]]}')
    conn.execute("CREATE VIRTUAL TABLE temp.ends USING jj_open(%s)" % q(doc))
    got = [r[0] for r in conn.execute("SELECT t FROM ends")]
    check("an instant outside 0000-9999 in UTC reads as written",
          got == ["0000-01-01T00:30:00+01:00", "9999-12-31T23:30:00-01:00", "0000-01-01 00:30:00"], got)
    for pred in ["t >= '0000-01-01 00:00:00'", "t < '9999-01-01'", "t = '0000-01-01 00:30:00'"]:
        a = conn.execute("SELECT rowid FROM ends WHERE " + pred).fetchall()
        b = conn.execute("SELECT rowid FROM ends WHERE +" + pred).fetchall()
        check("the ends: pushed down as not", a == b, (pred, a, b))


def notes(conn):
    return conn.execute("SELECT jj_notes()").fetchone()[0] or ""


def test_producers(conn, tmp):
    doc = conn.execute("SELECT jj_group('at', v) FROM (SELECT datetime('2024-03-01 10:30:00') AS v "
                       "UNION ALL SELECT '2024-03-01T23:59:59.5')").fetchone()[0]
    check("jj_group infers l from datetime()",
          doc == '{"jalapenojson":1,"columns":["at"],"types":["l"],"rows":[\n'
                 '["2024-03-01T10:30:00"],\n["2024-03-01T23:59:59.5"]\n]}', doc)
    check("the space is told", "written with T for the space" in notes(conn), notes(conn))
    doc = conn.execute("SELECT jj_group('at:t', datetime('2024-03-01 10:30:00'))").fetchone()[0]
    check("an explicit t takes it as UTC", '["2024-03-01T10:30:00Z"]' in doc, doc)
    check("and says so", "taken as UTC" in notes(conn), notes(conn))
    doc = conn.execute("SELECT jj_group('at:l', '2024-03-01 10:30:00.250')").fetchone()[0]
    check("an explicit l", '"types":["l"]' in doc and '["2024-03-01T10:30:00.250"]' in doc, doc)
    err = jjtest.error_of(conn, "SELECT jj_group('at:l', '2024-03-01T10:30:00Z')")
    check("a zone in an l column", err is not None and "is not a local timestamp" in err, err)
    # jj_export: a typed table's columns by their declared types
    out = os.path.join(tmp, "out.jj")
    conn.execute("SELECT jj_export(?, 'SELECT id, t, l FROM r ORDER BY id')", (out,)).fetchone()
    with open(out) as f:
        text = f.read()
    check("jj_export keeps t and l", '"types":["i","t","l"]' in text, text[:120])
    first = conn.execute("SELECT t, l FROM r WHERE t IS NOT NULL AND l IS NOT NULL ORDER BY id LIMIT 1").fetchone()
    conn.execute("CREATE VIRTUAL TABLE temp.e USING jj_open(%s)" % q(out))
    again = conn.execute("SELECT t, l FROM e WHERE t IS NOT NULL AND l IS NOT NULL ORDER BY id LIMIT 1").fetchone()
    check("the same values back", again == first, (again, first))
    # jj_from_csv and jj_from_json
    csv = "id,at\n1,2024-03-01 10:30:00\n2,2024-03-01T23:59:59.5\n3,\n"
    doc = conn.execute("SELECT jj_from_csv(?)", (csv,)).fetchone()[0]
    check("CSV of both separators is l",
          '"types":["i","l"]' in doc and '["2024-03-01T10:30:00"]' not in doc
          and '[1,"2024-03-01T10:30:00"]' in doc, doc)
    doc = conn.execute("SELECT jj_from_json(?)", (
        '[{"o":1,"items":[{"at":"2024-03-01 10:30:00"},{"at":"2024-03-02T00:00:00.5"}]}]',)).fetchone()[0]
    check("inside a nested table",
          '{"columns":["at"],"types":["l"]}' in doc and '["2024-03-01T10:30:00"]' in doc, doc)
    doc = conn.execute("SELECT jj_from_json(?, 'at:t')", ('[{"at":"2024-03-01 10:30:00"}]',)).fetchone()[0]
    check("jj_from_json with :t takes it as UTC", '["2024-03-01T10:30:00Z"]' in doc, doc)
    doc = conn.execute("SELECT jj_from_json(?)", ('[{"at":"2024-03-01 10:30:00"},{"at":"2024-03-01T10:30:00Z"}]',)).fetchone()[0]
    check("with and without a zone: text", '"types":["s"]' in doc, doc)


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else "build"
    conn = connect(extension_path(build))
    with tempfile.TemporaryDirectory() as tmp:
        path, rows = setup(conn, tmp)
        test_values_are_sqlites_own(conn, rows)
        test_predicates_agree(conn)
        test_record_form(conn, path, rows)
        test_ends_of_the_calendar(conn)
        test_producers(conn, tmp)
    return jjtest.report("timestamps_sql")


if __name__ == "__main__":
    sys.exit(main())
