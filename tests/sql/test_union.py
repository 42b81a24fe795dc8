"""test_union.py BUILD_DIR — union_by_name: a glob whose files have different
columns, read as one table (ext/union.c, ext/scan.c).

  CREATE VIRTUAL TABLE t USING jj_open('dir/*.jj', union_by_name=1)
  SELECT record FROM jj_open('dir/*.jj', 'union_by_name=1')
  SELECT * FROM jj_schema('dir/*.jj', 'union_by_name=1')

Checked: the union's columns in order of first appearance (files in name
order) with SQL's case folding, NULL for a file's missing columns, the type
conflict error (both files, the column, both types; nested tables too),
two columns of one file that are one SQL name, the record form (each record
its own keys, exact key names, the default error pointing at the option,
the options column read back, unknown options), a typed table's files
added later (a subset is read, a new column or type is an error saying to
create the table again), filename constraints skipping files, rowid over
the union, the table-valued form, plain/.gz/.br mixed, a date and a nested
table column, hidden columns renamed for a clash, every header read at
CREATE (a bad second file is an error only with the option), and a
differential check of many queries against a native UNION ALL of the same
data.  Prints "union: N passed, M failed".
"""
import collections
import os
import random
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import jjtest
from jjtest import check, error_of, q


def write(conn, path, cols, rows):
    """Write rows v = 1..rows (none for 0) with columns cols [("name" or
    "name:T", sql expr of v)] to path with jj_export (types: T, else the
    first row's)."""
    names = [n.split(":")[0] for n, _ in cols]
    types = ",".join(n for n, _ in cols if ":" in n)
    sel = ", ".join(f"{e} AS {q(n)}" for n, (_, e) in zip(names, cols))
    query = (f"WITH RECURSIVE s(v) AS (SELECT 1 UNION ALL SELECT v + 1 FROM "
             f"s WHERE v < {rows}) SELECT {sel} FROM s WHERE v <= {rows}")
    conn.execute("SELECT jj_export(?, ?, ?)", (path, query, types or None))


def columns(conn, table):
    return conn.execute(f"SELECT name, type, hidden FROM "
                        f"pragma_table_xinfo({q(table)})").fetchall()


NESTED = ("'{\"jalapenojson\":1,\"columns\":[\"k\"],\"types\":[\"i\"],"
          "\"rows\":[[' || v || ']]}'")


def test_basics(conn, d):
    a, b, c = (os.path.join(d, n) for n in ("a.jj", "b.jj.gz", "c.jj.br"))
    write(conn, a, [("id", "v"), ("tag", "'a' || v")], 2)
    write(conn, b, [("id", "10 + v"), ("score", "v * 0.5"),
                    ("joined:d", "'2024-01-0' || v")], 3)
    write(conn, c, [("TAG", "'c' || v"), ("ID", "20 + v"), ("extra", "v"),
                    ("items:jj", NESTED)], 1)
    pat = os.path.join(d, "*.jj*")
    conn.execute(f"CREATE VIRTUAL TABLE temp.u USING jj_open({q(pat)}, "
                 f"union_by_name=1)")
    got = columns(conn, "u")
    check("order_of_first_appearance", got == [
        ("id", "INTEGER", 0), ("tag", "TEXT", 0), ("score", "REAL", 0),
        ("joined", "DATE", 0), ("extra", "INTEGER", 0), ("items", "TEXT", 0),
        ("source", "", 1), ("filename", "", 1)], repr(got))
    got = conn.execute("SELECT filename, rowid, id, tag, score, joined, "
                       "extra, items->>'$[0].k' FROM u").fetchall()
    want = [(a, 1, 1, "a1", None, None, None, None),
            (a, 2, 2, "a2", None, None, None, None),
            (b, 1 << 40 | 1, 11, None, 0.5, "2024-01-01", None, None),
            (b, 1 << 40 | 2, 12, None, 1.0, "2024-01-02", None, None),
            (b, 1 << 40 | 3, 13, None, 1.5, "2024-01-03", None, None),
            (c, 2 << 40 | 1, 21, "c1", None, None, 1, None)]
    check("null_fill", got == want, repr(got))
    got = conn.execute("SELECT items FROM u WHERE extra = 1").fetchone()
    check("nested_column", got is not None and got[0].startswith(
        '{"jalapenojson":1,"columns":["k"]') and '\n[1]\n' in got[0],
          repr(got))
    got = conn.execute("SELECT position, name, type FROM jj_schema(?, "
                       "'union_by_name=1')", (pat,)).fetchall()
    check("jj_schema_union", got == [
        (1, "id", "i"), (2, "tag", "s"), (3, "score", "f"),
        (4, "joined", "d"), (5, "extra", "i"), (6, "items", "jj")],
        repr(got))
    got = conn.execute("SELECT name FROM jj_schema(?)", (pat,)).fetchall()
    check("jj_schema_default_first_file", got == [("id",), ("tag",)],
          repr(got))
    got = conn.execute("SELECT options FROM jj_schema(?, 'union_by_name=1') "
                       "LIMIT 1", (pat,)).fetchall()
    check("jj_schema_options_column", got == [("union_by_name=1",)],
          repr(got))
    # filename constraints skip files; the others' columns are NULL
    conn.execute("SELECT jj_cache_size(0), jj_cache_size(268435456)")
    got = conn.execute("SELECT id, tag, score FROM u WHERE filename LIKE "
                       "'%.gz' AND id > 11").fetchall()
    check("filename_filter", got == [(12, None, 1.0), (13, None, 1.5)],
          repr(got))
    got = conn.execute("SELECT path FROM jj_cache").fetchall()
    check("filename_filter_opens_one", got == [(b,)], repr(got))
    got = conn.execute("SELECT id, extra FROM u WHERE rowid = ?",
                       (2 << 40 | 1,)).fetchall()
    check("rowid_in_union", got == [(21, 1)], repr(got))
    # the table-valued form maps another glob and a single source by name
    e = os.path.join(d, "other", "e.jj")
    os.mkdir(os.path.dirname(e))
    write(conn, e, [("extra", "100 + v"), ("Id", "v")], 2)
    got = conn.execute("SELECT id, tag, extra FROM u(?)",
                       (os.path.join(d, "other", "*.jj"),)).fetchall()
    check("table_valued_glob", got == [(1, None, 101), (2, None, 102)],
          repr(got))
    got = conn.execute("SELECT id, extra, filename FROM u(?)",
                       (e,)).fetchall()
    check("table_valued_file", got == [(1, 101, e), (2, 102, e)], repr(got))
    # explicitly off is the default: the first file's columns
    conn.execute(f"CREATE VIRTUAL TABLE temp.plain USING jj_open({q(pat)}, "
                 f"union_by_name=0)")
    msg = error_of(conn, "SELECT count(*) FROM plain")
    check("off_is_strict", msg == f'{b}: column 2 differs: declared "tag" s, '
          'found "score" f (a table created with union_by_name=1 reads '
          'files of other columns)', repr(msg))
    return a, b, c, pat


def test_record_form(conn, d, a, b, c, pat):
    msg = error_of(conn, "SELECT count(*) FROM jj_open(?)", (pat,))
    check("record_default_points_at_option",
          msg == f'{b}: not the columns of {a}: column 2 differs: declared '
          '"tag" s, found "score" f (jj_open(SOURCE, \'union_by_name=1\') '
          'reads files of other columns)', repr(msg))
    got = conn.execute("SELECT filename, row, record, options FROM "
                       "jj_open(?, 'union_by_name=1')", (pat,)).fetchall()
    opt = "union_by_name=1"
    check("record_own_keys", got == [
        (a, 1, '{"id":1,"tag":"a1"}', opt), (a, 2, '{"id":2,"tag":"a2"}', opt),
        (b, 1, '{"id":11,"score":0.5,"joined":"2024-01-01"}', opt),
        (b, 2, '{"id":12,"score":1.0,"joined":"2024-01-02"}', opt),
        (b, 3, '{"id":13,"score":1.5,"joined":"2024-01-03"}', opt),
        (c, 1, '{"TAG":"c1","ID":21,"extra":1,"items":[{"k":1}]}', opt)],
        repr(got))
    got = conn.execute("SELECT count(*), sum(record->>'id') FROM jj_open(?, "
                       "' union_by_name = true ')", (pat,)).fetchone()
    check("record_option_spelling", got == (6, 39), repr(got))
    got = conn.execute("SELECT count(*) FROM jj_open(?, NULL) WHERE "
                       "filename = ?", (pat, a)).fetchone()
    check("record_null_options", got == (2,), repr(got))
    msg = error_of(conn, "SELECT * FROM jj_open(?, 'mmap=1')", (pat,))
    check("record_unknown_option", msg == 'jj_open: unknown option "mmap=1" '
          "in OPTIONS (known: union_by_name; the converter's: schema, delimiter, "
          "null, booleans, empty_is_text, bad_to_null, null_padding, on_error, null_for, "
          "thousands, header, date_format, timestamp_format; "
          "the others are a typed table's)", repr(msg))
    msg = error_of(conn, "SELECT * FROM jj_open(?, 'union_by_name')", (pat,))
    check("record_option_needs_value", msg == "jj_open: expected key=value "
          'in OPTIONS, got "union_by_name"', repr(msg))
    msg = error_of(conn, "SELECT * FROM jj_open(?, 'union_by_name=2')",
                   (pat,))
    check("record_option_bad_value", msg == 'jj_open: bad value in '
          '"union_by_name=2": expected 1 or 0', repr(msg))
    # records of a glob's later files are their own (row numbers restart)
    same = os.path.join(d, "same")
    os.mkdir(same)
    for k in range(3):
        write(conn, os.path.join(same, f"s{k}.jj"), [("v", f"v + {k * 10}")],
              2)
    got = conn.execute("SELECT record FROM jj_open(?)",
                       (os.path.join(same, "*.jj"),)).fetchall()
    check("record_per_file", [r for r, in got] == [
        '{"v":1}', '{"v":2}', '{"v":11}', '{"v":12}', '{"v":21}',
        '{"v":22}'], repr(got))
    # the record form: keys are exact, types must agree
    rec = os.path.join(d, "rec")
    os.mkdir(rec)
    r1, r2, r3 = (os.path.join(rec, n) for n in ("1.jj", "2.jj", "3.jj"))
    write(conn, r1, [("k", "v")], 1)
    write(conn, r2, [("K", "'x'")], 1)
    got = conn.execute("SELECT record FROM jj_open(?, 'union_by_name=1')",
                       (os.path.join(rec, "*.jj"),)).fetchall()
    check("record_keys_exact", got == [('{"k":1}',), ('{"K":"x"}',)],
          repr(got))
    write(conn, r3, [("k", "'one'")], 1)
    msg = error_of(conn, "SELECT record FROM jj_open(?, 'union_by_name=1')",
                   (os.path.join(rec, "*.jj"),))
    check("record_type_conflict", msg == f'{r3}: column "k" is s here, i in '
          f'{r1} (with union_by_name a column has one type in every file)',
          repr(msg))


def test_conflicts(conn, d):
    x, y = os.path.join(d, "x.jj"), os.path.join(d, "y.jj")
    write(conn, x, [("id", "v"), ("tag", "'t'")], 1)
    write(conn, y, [("tag", "v"), ("id", "v")], 1)
    pat = os.path.join(d, "*.jj")
    sql = f"CREATE VIRTUAL TABLE temp.bad USING jj_open({q(pat)}, " \
          f"union_by_name=1)"
    msg = error_of(conn, sql)
    check("type_conflict_at_create", msg == f'{y}: column "tag" is i here, s '
          f'in {x} (with union_by_name a column has one type in every file)',
          repr(msg))
    msg = error_of(conn, "SELECT * FROM jj_schema(?, 'union_by_name=1')",
                   (pat,))
    check("type_conflict_jj_schema", msg is not None and
          msg.startswith(f'{y}: column "tag" is i here'), repr(msg))
    write(conn, y, [("Tag", "'u'"), ("items:jj", NESTED)], 1)
    z = os.path.join(d, "z.jj")
    write(conn, z, [("items:jj", "'{\"jalapenojson\":1,\"columns\":[\"k\"],"
                     "\"types\":[\"s\"],\"rows\":[]}'")], 1)
    msg = error_of(conn, sql)
    check("nested_conflict", msg == f'{z}: column "items" is '
          '{"columns":["k"],"types":["s"]} here, {"columns":["k"],"types":'
          f'["i"]}} in {y} (with union_by_name a column has one type in '
          'every file)', repr(msg))
    os.remove(z)
    write(conn, y, [("Tag", "'u'"), ("TAG", "'v'")], 1)
    msg = error_of(conn, sql)
    check("twins_in_one_file", msg == f'{y}: columns 1 "Tag" and 2 "TAG" '
          'have the same name in SQL (names are compared ignoring ASCII '
          'case)', repr(msg))
    # every header is read at CREATE: a bad second file is an error only
    # with the option (without it only the first file's header is read)
    with open(y, "w") as f:
        f.write('{"jalapenojson":1,"columns":["a"],"types":["q"],"rows":[]}')
    msg = error_of(conn, sql)
    check("bad_second_header", msg is not None and msg.startswith(y + ":"),
          repr(msg))
    check("bad_second_header_default", error_of(
        conn, f"CREATE VIRTUAL TABLE temp.ok USING jj_open({q(pat)})") is None)
    # a clash with a hidden column's name renames the hidden one
    os.remove(y)
    write(conn, y, [("source", "'s'"), ("filename", "'f'")], 1)
    conn.execute(sql)
    got = columns(conn, "bad")
    check("hidden_renamed", got == [
        ("id", "INTEGER", 0), ("tag", "TEXT", 0), ("source", "TEXT", 0),
        ("filename", "TEXT", 0), ("source_2", "", 1),
        ("filename_2", "", 1)], repr(got))
    got = conn.execute("SELECT id, source, filename, filename_2 FROM bad "
                       "WHERE filename_2 = ?", (y,)).fetchall()
    check("hidden_renamed_rows", got == [(None, "s", "f", y)], repr(got))


def test_files_added_later(conn, d):
    p, r = os.path.join(d, "p.jj"), os.path.join(d, "r.jj.gz")
    write(conn, p, [("id", "v"), ("a", "'a'")], 2)
    write(conn, r, [("id", "v"), ("b", "v * 2")], 1)
    pat = os.path.join(d, "*.jj*")
    conn.execute(f"CREATE VIRTUAL TABLE temp.late USING jj_open({q(pat)}, "
                 f"union_by_name=1)")
    s = os.path.join(d, "s.jj.br")  # a subset of the columns: read
    write(conn, s, [("b", "7")], 1)
    got = conn.execute("SELECT id, a, b FROM late").fetchall()
    check("later_subset", got == [(1, "a", None), (2, "a", None),
                                  (1, None, 2), (None, None, 7)], repr(got))
    t = os.path.join(d, "t.jj")  # a new column: create the table again
    write(conn, t, [("id", "v"), ("c", "'new'")], 1)
    msg = error_of(conn, "SELECT count(*) FROM late")
    check("later_new_column", msg == f'{t}: column "c" is not a column of '
          'the table: with union_by_name its columns are those of the files '
          'it found when it was created (create it again to read "c")',
          repr(msg))
    got = conn.execute("SELECT count(*) FROM late WHERE filename GLOB "
                       "'*/[prs].jj*'").fetchone()
    check("later_skipped_by_filter", got == (4,), repr(got))
    conn.execute("DROP TABLE late")
    conn.execute(f"CREATE VIRTUAL TABLE temp.late USING jj_open({q(pat)}, "
                 f"union_by_name=1)")
    got = conn.execute("SELECT name FROM pragma_table_info('late')").fetchall()
    check("recreated_has_it", got == [("id",), ("a",), ("b",), ("c",)],
          repr(got))
    write(conn, t, [("a", "v")], 1)  # another type for a known column
    msg = error_of(conn, "SELECT count(*) FROM late")
    check("later_type_conflict", msg == f'{t}: column "a" is i here, s in '
          f'{p} (with union_by_name a column has one type in every file)',
          repr(msg))
    # a single declared file: its columns may change to a subset
    one = os.path.join(d, "one", "only.jj")
    os.mkdir(os.path.dirname(one))
    write(conn, one, [("x", "v"), ("y", "'y'")], 1)
    conn.execute(f"CREATE VIRTUAL TABLE temp.single USING jj_open({q(one)}, "
                 f"union_by_name=1)")
    got = conn.execute("SELECT x, y FROM single").fetchall()
    check("single_file", got == [(1, "y")], repr(got))
    os.remove(one)
    write(conn, one, [("y", "'z'")], 2)
    got = conn.execute("SELECT x, y FROM single").fetchall()
    check("single_file_changed_subset", got == [(None, "z"), (None, "z")],
          repr(got))


def test_differential(conn, d):
    """A union table and a native UNION ALL of the same files agree."""
    rng = random.Random(7)
    pool = [("id", "i", "v"), ("name", "s", "'n' || (v % 7)"),
            ("price", "f", "v * 0.25"), ("day", "d", "'2024-02-1' || (v % 9)"),
            ("flag", "b", "v % 2"), ("qty", "i", "v % 5"),
            ("note", "s", "CASE WHEN v % 3 THEN 'x' || v END")]
    names = [n for n, _, _ in pool]
    selects = []
    for k in range(8):
        cols = [c for c in pool if rng.random() < 0.6] or [pool[0]]
        rng.shuffle(cols)
        rows = rng.randint(0, 6)
        path = os.path.join(d, f"part-{k:02d}.jj" + ("", ".gz", ".br")[k % 3])
        write(conn, path, [(f"{n}:{t}", e) for n, t, e in cols], rows)
        conn.execute(f"CREATE TABLE n{k}({', '.join(n for n, _, _ in cols)})")
        if rows:
            conn.execute(
                f"INSERT INTO n{k} WITH RECURSIVE s(v) AS (SELECT 1 UNION ALL "
                f"SELECT v + 1 FROM s WHERE v < {rows}) SELECT "
                f"{', '.join(e for _, _, e in cols)} FROM s")
        have = {n for n, _, _ in cols}
        selects.append(
            f"SELECT {q(path)} AS filename, {k} << 40 | rowid AS rid, " +
            ", ".join(n if n in have else f"NULL AS {n}" for n in names) +
            f" FROM n{k}")
    conn.execute("CREATE TEMP VIEW native AS " + " UNION ALL ".join(selects))
    pat = os.path.join(d, "part-*")
    conn.execute(f"CREATE VIRTUAL TABLE temp.g USING jj_open({q(pat)}, "
                 f"union_by_name=1)")
    order = [n for n, in conn.execute("SELECT name FROM pragma_table_info('g')")]
    check("diff_columns_known", sorted(order) == sorted(
        n for n in names if any(f" {n}" in s or f"{n}," in s
                                for s in selects if f"NULL AS {n}" not in s)),
          repr(order))
    cols = ", ".join(order)
    p3 = os.path.join(d, "part-03.jj")
    wheres = ["", "WHERE rowid = 2", "WHERE rowid IN (1, 4, 9)",
              f"WHERE filename = {q(p3)}", "WHERE filename LIKE '%.gz'",
              f"WHERE filename = {q(p3)} OR rowid = 3"]
    wheres += [f"WHERE {n} IS NULL" for n in order[:4]]
    wheres += [f"WHERE {n} IS NOT NULL AND filename GLOB '*.br'"
               for n in order[:3]]
    for w in wheres:
        for tail in ["", "ORDER BY rowid"]:
            a = conn.execute(f"SELECT filename, rowid, {cols} FROM g {w} "
                             f"{tail}").fetchall()
            b = conn.execute(f"SELECT filename, rid, {cols} FROM native "
                             f"{w.replace('rowid', 'rid')} "
                             f"{tail.replace('rowid', 'rid')}").fetchall()
            same = (a == b if tail else
                    collections.Counter(a) == collections.Counter(b))
            check(f"diff [{w}] [{tail}]", same, f"{a!r} vs {b!r}")
    for agg in [f"count({n}), count(*)" for n in order] + [
            "sum(price), min(day), max(name)", "count(DISTINCT filename)"]:
        if any(f"({n}" in agg and n not in order for n in names):
            continue
        a = conn.execute(f"SELECT {agg} FROM g").fetchall()
        b = conn.execute(f"SELECT {agg} FROM native").fetchall()
        check(f"diff_agg [{agg}]", a == b, f"{a!r} vs {b!r}")


def main():
    ext = jjtest.extension_path(jjtest.build_dir(sys.argv))
    with tempfile.TemporaryDirectory() as tmp:
        conn = jjtest.connect(ext)
        for name, fn in [("basics", None), ("conflicts", test_conflicts),
                         ("later", test_files_added_later),
                         ("differential", test_differential)]:
            d = os.path.join(tmp, name)
            os.mkdir(d)
            try:
                if fn is None:
                    a, b, c, pat = test_basics(conn, d)
                    test_record_form(conn, d, a, b, c, pat)
                else:
                    fn(conn, d)
            except Exception as e:  # a crash of one part fails it, visibly
                check(name, False, f"raised {e!r}")
        conn.close()
    return jjtest.report("union")


if __name__ == "__main__":
    sys.exit(main())
