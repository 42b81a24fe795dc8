#!/usr/bin/env python3
"""test_open_options.py BUILD_DIR - the converter's options on jj_open and
jj_schema over JSON and CSV files, jj_rejects, jj_schema's decisions.

The options in both forms (CREATE arguments, the OPTIONS text with quoted
values) convert the file as jj_from_csv does with them; the cache keeps a
file once per set of options (any order or spelling is one), and a typed
table's scans read the document its CREATE converted; options that do not
apply are errors naming them; a glob converts every file with them; the
rows set aside are jj_rejects' rows, exactly the ones missing from the
table; jj_schema shows the converter's decisions; jj_max_size and
DIRECTONLY are unchanged by options; an interrupt stops a conversion.
Prints "open_options: N passed, M failed".
"""
import gzip
import os
import sqlite3
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import jjtest
from jjtest import check, connect, error_of, extension_path, q


def write(path, text):
    with open(path, "w", encoding="utf-8", newline="") as f:
        f.write(text)
    return path


def hits(conn, path):
    """(options, hits) of every cache entry of path, sorted."""
    return sorted(conn.execute("SELECT coalesce(options, ''), hits FROM jj_cache "
                               "WHERE path = ?", (path,)).fetchall())


def main():
    build = jjtest.build_dir(sys.argv)
    conn = connect(extension_path(build))
    with tempfile.TemporaryDirectory(prefix="jj-open-opts-") as d:
        semi = write(os.path.join(d, "semi.csv"),
                     "id;qty;name\n1;2,5;a\n2;NA;b\n3;4;\n")
        # both forms give what jj_from_csv gives with the same options
        want = conn.execute(
            "SELECT row, record FROM jj_open(jj_from_csv(readfile(?), 'delimiter=;', "
            "'null=NA', 'schema=id:i,qty:s'))", (semi,)).fetchall() \
            if conn.execute("SELECT 1 FROM pragma_function_list WHERE name='readfile'"
                            ).fetchone() else None
        if want is None:  # the shell's readfile is not in Python's sqlite3
            with open(semi, encoding="utf-8") as f:
                want = conn.execute(
                    "SELECT row, record FROM jj_open(jj_from_csv(?, 'delimiter=;', "
                    "'null=NA', 'schema=id:i,qty:s'))", (f.read(),)).fetchall()
        got = conn.execute("SELECT row, record FROM jj_open(?, 'delimiter=\";\", "
                           "null=NA, schema=\"id:i,qty:s\"')", (semi,)).fetchall()
        check("the OPTIONS text: the rows jj_from_csv makes with the same options",
              got == want and len(got) == 3, "%r\n%r" % (got, want))
        conn.execute("CREATE VIRTUAL TABLE temp.s USING jj_open(%s, delimiter=';', "
                     "null=NA, schema='id:i,qty:s')" % q(semi))
        got = conn.execute("SELECT id, qty, name FROM temp.s").fetchall()
        check("CREATE arguments: the same rows, typed",
              got == [(1, "2,5", "a"), (2, None, "b"), (3, "4", "")], repr(got))
        types = [r[2] for r in conn.execute("PRAGMA temp.table_info(s)")]
        check("CREATE arguments: the schema option's types",
              types == ["INTEGER", "TEXT", "TEXT"], repr(types))

        # the cache: one entry per set of options, any order or spelling
        key = 'schema="id:i,qty:s",delimiter=;,null=NA'
        check("one entry, the record form's and the typed table's: its canonical options",
              [k for k, _ in hits(conn, semi)] == [key], repr(hits(conn, semi)))
        before = dict(hits(conn, semi))[key]
        conn.execute("SELECT count(*) FROM jj_open(?, ' null = NA , schema=\"id:i,qty:s\", "
                     "delimiter=\";\"')", (semi,)).fetchone()
        check("other order and spacing: the same entry",
              len(hits(conn, semi)) == 1 and dict(hits(conn, semi))[key] == before + 1,
              repr(hits(conn, semi)))
        conn.execute("SELECT count(*) FROM jj_open(?, 'delimiter=;, on_error=fail, "
                     "empty_is_text=no')", (semi,)).fetchone()
        conn.execute("SELECT count(*) FROM jj_open(?, 'delimiter=\";\"')", (semi,)).fetchone()
        got = hits(conn, semi)
        check("other options: another entry; defaults spelled out: none",
              got == [("delimiter=;", 1), (key, before + 1)], repr(got))
        # a typed table's CREATE converts; its first scan takes that document
        # from the cache, and the table keeps it for the next ones
        fresh = write(os.path.join(d, "fresh.csv"), "id;v\n1;NA\n2;3\n")
        conn.execute("CREATE VIRTUAL TABLE temp.f USING jj_open(%s, null=NA, "
                     "delimiter=';')" % q(fresh))
        steps = [conn.execute("SELECT hits, in_use FROM jj_cache WHERE path = ?",
                              (fresh,)).fetchall()]
        for _ in range(2):
            conn.execute("SELECT sum(v) FROM temp.f").fetchone()
            steps.append(conn.execute("SELECT hits, in_use FROM jj_cache WHERE path = ?",
                                      (fresh,)).fetchall())
        check("the typed table's scans read the document its CREATE converted",
              steps == [[(0, 0)], [(1, 1)], [(1, 1)]], repr(steps))

        # every option of the table, in any order: one canonical text
        got = conn.execute(
            "SELECT count(*) FROM jj_open(?, 'header=no, thousands=\"|\", null_for=column_2=b, "
            "null_for=\"column_1=x\", on_error=null, null_padding=on, bad_to_null=true, "
            "empty_is_text=1, booleans=yes, null=\"\", null=NA, delimiter=\";\", "
            "schema=\"column_1:s\"')", (semi,)).fetchone()
        key2 = conn.execute("SELECT options FROM jj_cache WHERE path = ? AND options LIKE "
                            "'schema=column_1%'", (semi,)).fetchone()
        check("every option, canonical: the table's order, repeats sorted, quoted values",
              got == (4,) and key2 == ('schema=column_1:s,delimiter=;,null="",null=NA,booleans=1,'
                                       'empty_is_text=1,bad_to_null=1,null_padding=1,'
                                       'on_error=null,null_for=column_1=x,null_for=column_2=b,'
                                       'thousands=|,header=0',), repr((got, key2)))

        # quoting in the OPTIONS text
        comma = write(os.path.join(d, "comma.csv"), "a,b\n1,x\n")
        got = conn.execute("SELECT record FROM jj_open(?, 'schema=''a:s,b:s''')",
                           (comma,)).fetchall()
        check("a value in single quotes (doubled in SQL)", got == [('{"a":"1","b":"x"}',)],
              repr(got))
        e = error_of(conn, "SELECT * FROM jj_open(?, 'schema=\"a:s')", (comma,))
        check("an unclosed quote", e == 'jj_open: the value of "schema" in OPTIONS has '
              'no closing "', repr(e))
        e = error_of(conn, "SELECT * FROM jj_open(?, 'on_error=skip,,')", (comma,))
        check("an empty item", e is not None and "expected key=value" in e, repr(e))

        # options that do not apply
        js = write(os.path.join(d, "a.json"), '[{"a": 1}, {"a": "x"}]')
        tsv = write(os.path.join(d, "a.tsv"), "a\tb\n1\t2\n")
        doc = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                           "sql", "data", "rows.jj")
        for name, sql, params, words in (
                ("a CSV option on a JSON file",
                 "SELECT * FROM jj_open(?, 'delimiter=;')", (js,),
                 'a.json: option "delimiter" does not apply: it applies to CSV and TSV '
                 'only, and this file is JSON'),
                ("the delimiter of a .tsv file",
                 "CREATE VIRTUAL TABLE temp.x USING jj_open(%s, delimiter=';')" % q(tsv), (),
                 'a.tsv: option "delimiter" does not apply: a .tsv file\'s delimiter is tab'),
                ("an option on a jalapenojson file",
                 "CREATE VIRTUAL TABLE temp.x USING jj_open(%s, null_padding=1)" % q(doc), (),
                 'option "null_padding" does not apply: the converter\'s options apply to '
                 'a .json, .ndjson, .jsonl, .csv or .tsv file, and this file is a '
                 'jalapenojson document'),
                ("an option on a document given as a value",
                 "SELECT * FROM jj_open(jj_from_csv('a\n1'), 'on_error=skip')", (),
                 'blob: option "on_error" does not apply'),
                ("jj_schema too", "SELECT * FROM jj_schema(?, 'booleans=1')", (js,),
                 'option "booleans" does not apply')):
            e = error_of(conn, sql, params)
            check(name, e is not None and words in e, repr(e))
        got = conn.execute("SELECT record FROM jj_open(?, 'bad_to_null=1, schema=a:i')",
                           (js,)).fetchall()
        check("JSON takes schema and bad_to_null", got == [('{"a":1}',), ('{"a":null}',)],
              repr(got))
        e = error_of(conn, "SELECT * FROM jj_open(?, 'delimiter=ab')", (comma,))
        check("a bad value names the option and what it takes",
              e == 'jj_open: option "delimiter" takes one ASCII character (not \'"\', CR '
              'or LF) or tab, not "ab"', repr(e))
        e = error_of(conn, "CREATE VIRTUAL TABLE temp.x USING jj_open(%s, on_error=skip, "
                     "on_error=null)" % q(comma))
        check("given twice", e == 'jj_open: option "on_error" given twice', repr(e))

        # a glob: every file converted with the options
        sub = os.path.join(d, "logs")
        os.mkdir(sub)
        for i in range(3):
            with gzip.open(os.path.join(sub, "day%d.csv.gz" % i), "wt") as g:
                g.write("n|v\n%d|NA\n%d|%d.5\n" % (i, i, i))
        pattern = os.path.join(sub, "*.csv.gz")
        conn.execute("CREATE VIRTUAL TABLE temp.g USING jj_open(%s, delimiter='|', "
                     "null=NA)" % q(pattern))
        got = conn.execute("SELECT n, v FROM temp.g").fetchall()
        check("a glob of .csv.gz files, each with the options",
              got == [(0, None), (0, 0.5), (1, None), (1, 1.5), (2, None), (2, 2.5)],
              repr(got))
        got = conn.execute("SELECT count(*), count(record->>'v') FROM jj_open(?, "
                           "'delimiter=|,null=NA')",
                           (pattern,)).fetchone()
        check("the record form's glob too", got == (6, 3), repr(got))

        # rejects: exactly the rows missing from the table
        lines = ["id,qty,note"]
        bad = set()
        for i in range(1, 201):
            if i % 17 == 0:
                lines.append("%d,%d.x,bad value" % (i, i)); bad.add(i)
            elif i % 23 == 0:
                lines.append("%d,%d" % (i, i)); bad.add(i)  # a field short
            else:
                lines.append("%d,%d,ok" % (i, i))
        orders = write(os.path.join(d, "orders.csv"), "\n".join(lines) + "\n")
        conn.execute("CREATE VIRTUAL TABLE temp.o USING jj_open(%s, on_error=skip, "
                     "schema='qty:i')" % q(orders))
        ids = {r[0] for r in conn.execute("SELECT id FROM temp.o")}
        rej = conn.execute("SELECT row, byte, \"column\", code, message, options FROM "
                           "jj_rejects WHERE source = ?", (orders,)).fetchall()
        rows = {r[0] for r in rej}
        check("rejects round-trip: the table and the rejects are every row, once",
              ids.isdisjoint(rows) and ids | rows == set(range(1, 201)) and rows == bad,
              "%r" % sorted(rows))
        first = next(r for r in rej if r[0] == 17)
        text = "\n".join(lines) + "\n"
        check("a reject's columns: byte, column, code, message, options",
              first[2] == "qty" and first[3] == "type" and "row 17" in first[4]
              and text[first[1]:].startswith("17.x") and first[5] == "schema=qty:i,on_error=skip",
              repr(first))
        short = next(r for r in rej if r[0] == 23)
        check("a short row: no column, code row", short[2] is None and short[3] == "row"
              and "expected 3 fields" in short[4], repr(short))
        conn.execute("SELECT count(*) FROM temp.o").fetchone()
        n = conn.execute("SELECT count(*) FROM jj_rejects WHERE source = ?", (orders,)).fetchone()
        check("a statement from the cache keeps them", n == (len(bad),), repr(n))
        notes = conn.execute("SELECT jj_notes()").fetchone()[0] or ""
        check("the 'set aside:' lines of jj_notes() stay",
              notes.count("set aside: ") == len(bad), repr(notes[:200]))
        conn.execute("SELECT count(*) FROM jj_open(?, 'on_error=null, null_padding=1')",
                     (orders,)).fetchone()
        got = conn.execute("SELECT options, count(*) FROM jj_rejects WHERE source = ? "
                           "GROUP BY 1 ORDER BY 1", (orders,)).fetchall()
        check("each set of options has its own rows (none set aside: none listed)",
              got == [("schema=qty:i,on_error=skip", len(bad))], repr(got))
        conn.execute("SELECT jj_from_csv('a,b\n1\n2,3', 'on_error=skip')").fetchone()
        got = conn.execute("SELECT source, row, code FROM jj_rejects WHERE source IS NULL"
                           ).fetchall()
        check("jj_from_csv's rows: a NULL source", got == [(None, 1, "row")], repr(got))
        # a file converted again replaces its rows
        write(orders, "id,qty,note\n1,1,ok\n2,x,bad\n")
        conn.execute("SELECT count(*) FROM temp.o").fetchone()
        got = conn.execute("SELECT row FROM jj_rejects WHERE source = ?", (orders,)).fetchall()
        check("a changed file's conversion replaces its rows", got == [(2,)], repr(got))
        many = write(os.path.join(d, "many.csv"),
                     "a,b\n" + "1\n" * 10005 + "1,2\n")
        got = conn.execute("SELECT count(*) FROM jj_open(?, 'on_error=skip')",
                           (many,)).fetchone()
        last = conn.execute("SELECT count(*), max(row), sum(code = 'not_listed'), "
                            "max(CASE WHEN row IS NULL THEN message END) FROM jj_rejects "
                            "WHERE source = ?", (many,)).fetchone()
        check("past 10,000 rows: one row counts the others",
              got == (1,) and last[:3] == (10001, 10000, 1)
              and last[3].startswith("5 more rows were set aside"), repr(last))

        # jj_schema: the converter's decisions
        mixed = write(os.path.join(d, "mixed.csv"), "k,v\n1,2\n2,two\n")
        got = conn.execute("SELECT name, note FROM jj_schema(?, 'on_error=fail')",
                           (mixed,)).fetchall()
        check("jj_schema's note: the decision about each column",
              got[0] == ("k", None) and got[1][0] == "v"
              and got[1][1].startswith('column "v": integers (row 1, 2), text (row 2, "two")')
              and got[1][1].endswith("-> s"), repr(got))
        notes = conn.execute("SELECT notes FROM jj_schema(?) LIMIT 1", (mixed,)).fetchone()[0]
        check("jj_schema's notes: every decision, the file's own too",
              "read as CSV with the delimiter ','" in notes and 'column "v"' in notes,
              repr(notes))
        got = conn.execute("SELECT count(*) FROM jj_cache WHERE path = ?", (mixed,)).fetchone()
        conn.execute("SELECT * FROM jj_schema(?)", (mixed,)).fetchall()
        again = conn.execute("SELECT note FROM jj_schema(?) WHERE name = 'v'",
                             (mixed,)).fetchone()
        check("from the cache: the same decisions", got == (1,) and again[0].endswith("-> s"),
              repr((got, again)))
        got = conn.execute("SELECT count(*), count(note), count(notes) FROM jj_schema(?)",
                           (doc,)).fetchone()
        check("a jalapenojson document: no decisions", got[0] == 8 and got[1:] == (0, 0),
              repr(got))

        # limits and DIRECTONLY are the same with options
        conn.execute("SELECT jj_max_size(20)")
        e1 = error_of(conn, "CREATE VIRTUAL TABLE temp.m USING jj_open(%s, on_error=skip)"
                      % q(mixed))
        e2 = error_of(conn, "SELECT * FROM jj_open(?, 'on_error=skip')", (mixed,))
        check("jj_max_size bounds a conversion with options, in both forms",
              e1 is not None and e1 == e2 and "jj_max_size(N)" in e1, "%r / %r" % (e1, e2))
        conn.execute("SELECT jj_max_size(1073741824)")
        conn.execute("CREATE VIEW main.vr AS SELECT * FROM jj_rejects")
        conn.execute("CREATE VIEW main.vo AS SELECT * FROM jj_open(%s, 'on_error=skip')"
                     % q(mixed))
        for view in ("vr", "vo"):
            e = error_of(conn, "SELECT * FROM main.%s" % view)
            check("not from a view: %s" % view, e is not None and "unsafe use" in e, repr(e))
        big = os.path.join(d, "big.csv")
        with open(big, "w") as f:
            f.write("a,b\n")
            f.write("1,2\n" * 600000)
        ticks = [0]

        def stop():
            ticks[0] += 1
            return 1 if ticks[0] > 3 else 0
        conn.set_progress_handler(stop, 100)
        e = error_of(conn, "SELECT count(*) FROM jj_open(?, 'null=NA, on_error=skip')", (big,))
        conn.set_progress_handler(None, 0)
        check("the progress handler stops a conversion with options",
              e == "interrupted", repr(e))
        dates_options(conn, d)
    return jjtest.report("open_options")


def dates_options(conn, d):
    """date_format and timestamp_format: patterns read in the order given,
    part of the cache key in that order, on JSON and CSV, and a pattern that
    does not compile is the converter's usage error."""
    days = write(os.path.join(d, "days.csv"),
                 "id,day,at\n1,01/02/2015,2015/01/02 03:04\n2,03/04/2016,2016/12/31 23:59\n")
    conn.execute("CREATE VIRTUAL TABLE temp.dm USING jj_open(%s, date_format='%%m/%%d/%%Y', "
                 "timestamp_format='%%Y/%%m/%%d %%H:%%M')" % q(days))
    got = conn.execute("SELECT id, day, at FROM temp.dm ORDER BY id").fetchall()
    check("date_format m/d/Y: the dates in ISO", got == [
        (1, "2015-01-02", "2015-01-02 03:04:00"), (2, "2016-03-04", "2016-12-31 23:59:00")],
        repr(got))
    types = conn.execute("SELECT name, type FROM jj_schema(?, "
                         "'date_format=\"%m/%d/%Y\", timestamp_format=\"%Y/%m/%d %H:%M\"')",
                         (days,)).fetchall()
    check("date_format on jj_schema: d and l", types == [("id", "i"), ("day", "d"), ("at", "l")],
          repr(types))
    dm = conn.execute("SELECT record->>'day' FROM jj_open(?, 'date_format=%d/%m/%Y') "
                      "ORDER BY row",
                      (days,)).fetchall()
    check("date_format d/m/Y reads the same days otherwise",
          dm == [("2015-02-01",), ("2016-04-03",)], repr(dm))
    # both orders of two patterns that both read 01/02/2015: the first wins
    one = conn.execute("SELECT record->>'day' FROM jj_open(?, 'date_format=%m/%d/%Y, "
                       "date_format=%d/%m/%Y') WHERE row = 1", (days,)).fetchone()
    two = conn.execute("SELECT record->>'day' FROM jj_open(?, 'date_format=%d/%m/%Y, "
                       "date_format=%m/%d/%Y') WHERE row = 1", (days,)).fetchone()
    check("patterns are tried in the order given", (one, two) == (("2015-01-02",),
                                                                  ("2015-02-01",)),
          repr((one, two)))
    keys = [k for k, _ in hits(conn, days) if "date_format" in k]
    check("the cache key keeps the patterns' order", any(
        k.startswith("date_format=%m/%d/%Y,date_format=%d/%m/%Y") for k in keys) and any(
        k.startswith("date_format=%d/%m/%Y,date_format=%m/%d/%Y") for k in keys), repr(keys))
    iso = conn.execute("SELECT name, type FROM jj_schema(?, 'date_format=iso')",
                       (days,)).fetchall()
    check("date_format=iso: the other spellings stay text", ("day", "s") in iso, repr(iso))
    js = write(os.path.join(d, "days.json"), '[{"d": "Jan 2 2015"}, {"d": "Feb 28 2016"}]')
    got = conn.execute("SELECT record->>'d' FROM jj_open(?, 'date_format=%b %d %Y') "
                       "ORDER BY row", (js,)).fetchall()
    check("date_format on a JSON file", got == [("2015-01-02",), ("2016-02-28",)], repr(got))
    e = error_of(conn, "SELECT * FROM jj_open(?, 'date_format=%q')", (days,))
    check("a pattern that does not compile: the converter's words",
          e is not None and 'the date format "%q"' in e and "unknown directive %q" in e, repr(e))
    e = error_of(conn, "SELECT jj_from_csv('a', 'date_format=')")
    check("an empty pattern is refused", e is not None and 'option "date_format" takes' in e,
          repr(e))
    got = conn.execute("SELECT record FROM jj_open(jj_from_json(?, NULL, "
                       "'timestamp_format=%Y/%m/%d %H:%M%z')) ORDER BY row",
                       ('[{"t": "2015/01/02 03:04+0100"}]',)).fetchall()
    check("jj_from_json: timestamp_format with %z gives t", got == [
        ('{"t":"2015-01-02T03:04:00+01:00"}',)], repr(got))


if __name__ == "__main__":
    sys.exit(main())
