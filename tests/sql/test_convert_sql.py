"""test_convert_sql.py BUILD_DIR — jj_from_json, jj_from_csv and jj_group's
TEXT-to-number affinity, from Python's sqlite3 module with the extension
loaded: round trips JSON -> jj_from_json -> jj_open with Python types, CSV
with quotes and newlines, schemas and options, located errors, NULL,
compressed BLOBs, the connection's size limit, SQLITE_LIMIT_LENGTH, an
interrupt, and a differential of jj_group's explicit i, f and b columns
against SQLite's own column affinity.  Prints "convert_sql: N passed, M
failed".

BUILD_DIR as in test_python_load.py: the repository's build/ means the
extension ./jalapenojson.so at its root, any other directory D means
D/jalapenojson.so.
"""
import csv
import gzip
import io
import json
import os
import random
import re
import sqlite3
import sys
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import jjtest
from jjtest import check, connect, error_of, expect_error, q


def records(conn, doc):
    """The rows of a document as Python dicts, through the record form."""
    return [json.loads(r) for (r,) in
            conn.execute("SELECT record FROM jj_open(?) ORDER BY row", (doc,))]


# ---------------------------------------------------------------------------
# jj_from_json / jj_from_csv
# ---------------------------------------------------------------------------

def random_text(rng):
    alphabet = "abcXYZ ,;\"'\\\n\t{}[]:é東😀"
    return "t" + "".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 12)))


def test_json_round_trip(conn, rng):
    rows = []
    for i in range(300):
        rows.append({
            "id": i,
            "big": rng.choice([0, 1, -1, 2**63 - 1, -2**63, rng.randrange(-10**12, 10**12)]),
            "price": rng.choice([0.5, -1.25, 1e300, 5e-324, rng.random() * 1000]),
            "name": None if rng.random() < 0.1 else random_text(rng),
            "ok": rng.choice([True, False, None]),
            "day": "2024-02-%02d" % rng.randrange(1, 30),
        })
    data = json.dumps(rows, ensure_ascii=rng.random() < 0.5)
    doc = conn.execute("SELECT jj_from_json(?)", (data,)).fetchone()[0]
    check("json_returns_text", isinstance(doc, str), repr(type(doc)))
    head = json.loads(doc)
    check("json_types", head["types"] == ["i", "i", "f", "s", "b", "d"], head["types"])
    check("json_round_trip", records(conn, doc) == rows)
    # as a BLOB, and as NDJSON: the same document
    ndjson = "\n".join(json.dumps(r) for r in rows)
    same = conn.execute("SELECT jj_from_json(?) = ?, jj_from_json(?) = ?",
                        (data.encode(), doc, ndjson, doc)).fetchone()
    check("json_blob_and_ndjson", same == (1, 1), repr(same))
    # the typed table gives Python types
    conn.execute("DROP TABLE IF EXISTS temp.people")
    conn.execute("CREATE VIRTUAL TABLE temp.people USING jj_open(%s)"
                 % q(doc))
    got = conn.execute("SELECT id, big, price, name, ok, day FROM people "
                       "ORDER BY rowid").fetchall()
    want = [(r["id"], r["big"], r["price"], r["name"],
             None if r["ok"] is None else int(r["ok"]), r["day"]) for r in rows]
    check("json_typed_values", got == want, repr(got[:2]))
    kinds = conn.execute("SELECT typeof(id), typeof(price), typeof(name), "
                         "typeof(day) FROM people WHERE rowid = 1").fetchone()
    check("json_typed_classes", kinds[0] == "integer" and kinds[1] == "real"
          and kinds[3] == "text", repr(kinds))
    # a schema overrides the inference
    doc2 = conn.execute("SELECT jj_from_json(?, 'id:f,day:s')", (data,)).fetchone()[0]
    check("json_schema", json.loads(doc2.split("\n")[0] + "]}")["types"]
          == ["f", "i", "f", "s", "b", "s"], doc2[:120])
    doc3 = conn.execute("SELECT jj_from_json(?, 'name:i', 'bad_to_null=1')",
                        (json.dumps([{"name": "x"}, {"name": "7"}]),)).fetchone()[0]
    # (a string that spells a number fits i, as in jj_group)
    check("json_bad_to_null", records(conn, doc3) == [{"name": None}, {"name": 7}],
          doc3)


def test_csv(conn, rng):
    for delim in [",", ";", "\t", "|"]:
        rows = [{"name": random_text(rng), "note": random_text(rng),
                 "n": rng.randrange(-1000, 1000)} for _ in range(100)]
        out = io.StringIO()
        w = csv.DictWriter(out, fieldnames=["name", "note", "n"], delimiter=delim,
                           lineterminator=rng.choice(["\n", "\r\n"]))
        w.writeheader()
        w.writerows(rows)
        opt = "delimiter=" + ("tab" if delim == "\t" else delim)
        doc = conn.execute("SELECT jj_from_csv(?, ?)", (out.getvalue(), opt)).fetchone()[0]
        check("csv_round_trip " + repr(delim), records(conn, doc) == rows)
        auto = conn.execute("SELECT jj_from_csv(?) = ?", (out.getvalue(), doc)).fetchone()[0]
        check("csv_delimiter_detected " + repr(delim), auto == 1)
    data = "id;qty;ok;note\n1;NA;true;\n2;3;false;x\n"
    doc = conn.execute("SELECT jj_from_csv(?, 'delimiter=;', 'null=NA', 'booleans=1', "
                       "'empty_is_text=1', 'schema=id:i,qty:f')", (data,)).fetchone()[0]
    check("csv_options", records(conn, doc) == [
        {"id": 1, "qty": None, "ok": True, "note": ""},
        {"id": 2, "qty": 3.0, "ok": False, "note": "x"}], doc)
    doc = conn.execute("SELECT jj_from_csv(?, NULL, 'schema=\"a,b\":s')",
                       ("\"a,b\",c\n1,2\n",)).fetchone()[0]
    check("csv_schema_quoted_name", records(conn, doc) == [{"a,b": "1", "c": 2}], doc)
    rows = conn.execute("SELECT row, record->>'qty' FROM jj_open(jj_from_csv(?))",
                        ("qty\n5\n6\n",)).fetchall()
    check("csv_in_jj_open", rows == [(1, 5), (2, 6)], repr(rows))


def test_errors_and_null(conn):
    expect_error(conn, "csv_located", "SELECT jj_from_csv(?, 'schema=qty:i')",
                 ("id,qty\n1,2\n2,12abc\n",),
                 'jj_from_csv: row 2, column "qty", byte 13: "12abc" is not an '
                 'integer (the schema says qty:i)')
    msg = error_of(conn, "SELECT jj_from_json(?)", ('[{"a":1},{"a":tru}]',))
    check("json_error_located", msg is not None and msg.startswith("jj_from_json: ")
          and "byte 14" in msg, repr(msg))
    expect_error(conn, "json_not_objects", "SELECT jj_from_json('[1]')", (),
                 'jj_from_json: row 1, byte 1: expected an object (a row), found "1]"')
    expect_error(conn, "csv_unknown_option", "SELECT jj_from_csv('a', 'x=1')", (),
                 'jj_from_csv: unknown option "x=1" (known: schema, delimiter, null, '
                 'booleans, empty_is_text, bad_to_null, null_padding, on_error, null_for, '
                 'thousands, header, date_format, timestamp_format)')
    expect_error(conn, "json_input_type", "SELECT jj_from_json(1.5)", (),
                 "jj_from_json: the input must be TEXT or BLOB (JSON text, maybe gzip "
                 "or brotli), not REAL")
    got = conn.execute("SELECT jj_from_json(NULL), jj_from_csv(NULL), "
                       "jj_from_json(NULL, 'a:i')").fetchone()
    check("null_in_null_out", got == (None, None, None), repr(got))
    msg = error_of(conn, "SELECT jj_from_json(?)", (b'[{"a":"\xff"}]',))
    check("blob_not_utf8_not_brotli", msg is not None and msg.startswith("jj_from_json: ")
          and "UTF-8" in msg, repr(msg))


def test_compressed_and_limits(ext):
    conn = connect(ext)
    rows = [{"k": i, "v": "x" * (i % 7)} for i in range(2000)]
    data = json.dumps(rows).encode()
    plain = conn.execute("SELECT jj_from_json(?)", (data,)).fetchone()[0]
    z = gzip.compress(data)
    check("gzip_blob", conn.execute("SELECT jj_from_json(?) = ?", (z, plain)).fetchone()[0] == 1)
    zc = gzip.compress(b"k\n1\n2\n")
    check("gzip_csv", records(conn, conn.execute("SELECT jj_from_csv(?)", (zc,)).fetchone()[0])
          == [{"k": 1}, {"k": 2}])
    expect_error(conn, "gzip_truncated", "SELECT jj_from_json(?)", (z[:len(z) // 2],),
                 "jj_from_json: gzip stream is truncated")
    # jj_max_size caps the input, decompressed or not
    conn.execute("SELECT jj_max_size(1000)")
    expect_error(conn, "cap_gzip", "SELECT jj_from_json(?)", (z,),
                 "jj_from_json: decompressed size exceeds the limit of 1000 bytes "
                 "(raise it with SELECT jj_max_size(N))")
    expect_error(conn, "cap_plain", "SELECT jj_from_csv(?)", ("a\n" + "1\n" * 600,),
                 "jj_from_csv: the input is 1202 bytes, over the limit of 1000 bytes "
                 "(raise it with SELECT jj_max_size(N))")
    conn.execute("SELECT jj_max_size(0)")
    check("cap_none", conn.execute("SELECT jj_from_json(?) = ?", (z, plain)).fetchone()[0] == 1)
    # the document must fit SQLITE_LIMIT_LENGTH
    conn.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, 5000)
    z2 = gzip.compress(json.dumps([{"k": 1, "v": "xxxxxxx"}] * 2000).encode())
    check("length_limit_input_small", len(z2) < 5000, repr(len(z2)))
    expect_error(conn, "length_limit", "SELECT jj_from_json(?)", (z2,),
                 "jj_from_json: the document would be more than 5000 bytes, "
                 "SQLite's length limit (SQLITE_LIMIT_LENGTH)")
    small = conn.execute("SELECT jj_from_json(?)", (gzip.compress(b'[{"a":1}]'),)).fetchone()[0]
    check("length_limit_small_ok", small is not None and len(small) < 5000)
    conn.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, 1000000000)
    conn.close()


def test_interrupt(ext):
    """sqlite3_interrupt() stops a long conversion."""
    conn = connect(ext)
    line = b'{"id":123456,"name":"some text here","price":19.99,"day":"2024-02-29"}\n'
    data = line * 400000  # about 28 MB, read twice
    t0 = time.monotonic()
    conn.execute("SELECT length(jj_from_json(?))", (data,)).fetchone()
    full = time.monotonic() - t0
    msg = None
    for attempt in range(3):  # a busy machine may finish before the thread runs
        done = threading.Event()

        def interrupter():
            time.sleep(full / 10)
            while not done.is_set():
                conn.interrupt()
                time.sleep(0.001)

        th = threading.Thread(target=interrupter)
        th.start()
        t0 = time.monotonic()
        msg = error_of(conn, "SELECT length(jj_from_json(?))", (data,))
        took = time.monotonic() - t0
        done.set()
        th.join()
        if msg is not None:
            break
    check("interrupted", msg == "interrupted",
          f"got {msg!r} after {took:.3f}s of {full:.3f}s")
    try:
        conn.execute("SELECT 1").fetchall()
    except sqlite3.OperationalError:
        pass
    check("after_interrupt", conn.execute("SELECT jj_from_json('[{\"a\":1}]') IS NOT NULL")
          .fetchone()[0] == 1)
    conn.close()


# ---------------------------------------------------------------------------
# jj_group: TEXT for an explicit i, f or b column
# ---------------------------------------------------------------------------

def group_value(conn, name, value):
    """(value written, None) or (None, error message) for jj_group(name, value)."""
    try:
        doc = conn.execute("SELECT jj_group(?, ?)", (name, value)).fetchone()[0]
    except sqlite3.Error as e:
        return None, str(e)
    return json.loads(doc)["rows"][0][0], None


def test_affinity_rules(conn):
    cases = [
        ("n:i", "100", 100), ("n:i", " 100 ", 100), ("n:i", "\t-7\n", -7),
        ("n:i", "1e2", 100), ("n:i", "100.0", 100), ("n:i", "+5", 5),
        ("n:i", "-0.0", 0), ("n:i", "9223372036854775807", 2**63 - 1),
        ("n:i", "-9223372036854775808", -2**63), ("n:i", "9007199254740991.0", 2**53 - 1),
        ("f:f", "19.99", 19.99), ("f:f", "1", 1.0), ("f:f", " 2.5e1 ", 25.0),
        ("f:f", ".5", 0.5), ("f:f", "1e999", "Infinity"), ("f:f", "-1e999", "-Infinity"),
        ("b:b", "1", True), ("b:b", "0", False), ("b:b", "true", True),
        ("b:b", "false", False), ("b:b", "1.0", True),
        ("d:d", "2024-02-29", "2024-02-29"), ("t:t", "2024-02-29T12:00:00Z",
                                               "2024-02-29T12:00:00Z"),
    ]
    for name, text, want in cases:
        got, err = group_value(conn, name, text)
        check(f"affinity {name} {text!r}", err is None and got == want
              and type(got) is type(want), f"got {got!r} {err!r}")

    def refused(name, value, message):
        got, err = group_value(conn, name, value)
        check(f"refused {name} {value!r}", err == message, f"got {got!r} {err!r}")

    refused("qty:i", "12abc", 'jj_group: row 1, column "qty": "12abc" is not an integer; '
            'CAST it or use a TEXT column ("qty:s")')
    for text in ["1.5", "0x10", "", " ", "1e", "abc", "١"]:
        refused("n:i", text, 'jj_group: row 1, column "n": %s is not an integer; CAST it '
                'or use a TEXT column ("n:s")' % json.dumps(text, ensure_ascii=False))
    refused("n:i", "9007199254740993.0", 'jj_group: row 1, column "n": "9007199254740993.0" '
            'is not exactly an integer (beyond 2^53 a point or an exponent may have '
            'rounded it); CAST it or use a TEXT column ("n:s")')
    refused("n:i", "9223372036854775808", 'jj_group: row 1, column "n": '
            '"9223372036854775808" is beyond the range of a 64-bit integer; CAST it or '
            'use a TEXT column ("n:s")')
    refused("n:i", b"1", 'jj_group: row 1, column "n": x\'31\' is not an integer (the schema '
            'says n:i)')
    refused("n:i", 2.0, 'jj_group: row 1, column "n": 2.0 is not an integer (the schema says n:i)')
    refused("p:f", "x", 'jj_group: row 1, column "p": "x" is not a number; CAST it or '
            'use a TEXT column ("p:s")')
    refused("p:f", "9007199254740993", 'jj_group: row 1, column "p": 9007199254740993 '
            'is not a float (exactly) (the schema says p:f)')
    for text in ["2", "yes", "TRUE", "True", " true"]:
        refused("ok:b", text, 'jj_group: row 1, column "ok": %s is not a boolean (0, 1, '
                '"true" or "false"); use a TEXT column ("ok:s")' % json.dumps(text))
    # base64 TEXT for bytes, as the converter takes it
    got, err = group_value(conn, "x:x", "AAEC")
    check("x:x takes base64 TEXT", got == "AAEC" and err is None, f"{got!r} {err!r}")
    refused("x:x", "AAE", 'jj_group: row 1, column "x": "AAE" is not base64 bytes (the schema '
            'says x:x)')
    refused("d:d", "2023-02-29", 'jj_group: row 1, column "d": "2023-02-29" is not a date '
            '(2023 is not a leap year; the schema says d:d)')
    # a column mixing converted TEXT and numbers, and the row named
    got = conn.execute("SELECT jj_group('n:i', v) FROM (SELECT column1 AS v FROM "
                       "(VALUES ('1'), (2), (' 3'), (NULL)))").fetchone()[0]
    check("affinity_mixed", json.loads(got)["rows"] == [[1], [2], [3], [None]], got)
    err = error_of(conn, "SELECT jj_group('qty:i', v) FROM (SELECT column1 AS v FROM "
                   "(VALUES ('1'), ('2'), ('12abc')))")
    check("affinity_row", err == 'jj_group: row 3, column "qty": "12abc" is not an '
          'integer; CAST it or use a TEXT column ("qty:s")', repr(err))
    # the argument itself is not changed: a TEXT column stays TEXT for SQL
    got = conn.execute("SELECT typeof(v), json_extract(jj_group('n:i', v), '$.rows[0][0]') "
                       "FROM (SELECT '100' AS v)").fetchone()
    check("affinity_no_side_effect", got == ("text", 100), repr(got))


def random_numeric_text(rng):
    """Text near the edges of what SQLite reads as a number."""
    parts = []
    if rng.random() < 0.2:
        parts.append(rng.choice([" ", "\t", "\n", "  ", "\r", "\f", "\v"]))
    if rng.random() < 0.3:
        parts.append(rng.choice(["-", "+", "--", "-+"]))
    kind = rng.random()
    if kind < 0.15:
        parts.append(str(rng.choice([2**53 - 1, 2**53, 2**53 + 1, 2**63 - 1, 2**63,
                                     2**64, 10**19, 2**62])))
    else:
        parts.append("".join(rng.choice("0123456789") for _ in range(rng.randrange(0, 6))))
    if rng.random() < 0.4:
        parts.append("." + "".join(rng.choice("0123456789")
                                   for _ in range(rng.randrange(0, 4))))
    if rng.random() < 0.25:
        parts.append(rng.choice(["e", "E", "e+", "e-"]) +
                     str(rng.choice([0, 1, 2, 5, 15, 16, 18, 19, 300, 400])))
    if rng.random() < 0.2:
        parts.append(rng.choice([" ", "\t", "\n", "  "]))
    if rng.random() < 0.08:
        parts.append(rng.choice(["abc", "x", "0x1", "١", "\u00a0", ",", "e", "."]))
    if rng.random() < 0.05:
        parts.insert(0, rng.choice(["0x", "inf", "nan", "true", "false"]))
    return "".join(parts)


def test_affinity_differential(conn, rng):
    """jj_group('v:i'|'v:f'|'v:b', t) accepts exactly what SQLite's INTEGER and
    REAL column affinity convert (i: less REAL-looking text whose value is at
    least 2^53, which may have been rounded), with SQLite's value."""
    conn.execute("CREATE TEMP TABLE aff(t TEXT, i INTEGER, r REAL)")
    texts = sorted({random_numeric_text(rng) for _ in range(3000)})
    conn.executemany("INSERT INTO aff VALUES (?1, ?1, ?1)", [(t,) for t in texts])
    bad = 0
    pure_int = re.compile(r"[ \t\n\r\f\v]*[+-]?[0-9]+[ \t\n\r\f\v]*\Z")
    for t, ti, i, tr, r in conn.execute(
            "SELECT t, typeof(i), i, typeof(r), r FROM aff").fetchall():
        # i
        want = ti == "integer" and (abs(i) < 2**53 or bool(pure_int.match(t)))
        got, err = group_value(conn, "v:i", t)
        ok = (got == i and err is None) if want else (got is None and err is not None
                                                       and 'use a TEXT column ("v:s")' in err)
        # f
        wantf = tr == "real" and (ti != "integer" or float(i) == i)
        gotf, errf = group_value(conn, "v:f", t)
        if isinstance(gotf, str):
            gotf = float(gotf.replace("Infinity", "inf"))
        okf = (gotf == r and errf is None) if wantf else (gotf is None and errf is not None)
        # b
        wantb = (ti == "integer" and i in (0, 1)) or t in ("true", "false")
        gotb, errb = group_value(conn, "v:b", t)
        okb = (gotb == (t == "true" if ti == "text" else bool(i)) and errb is None) \
            if wantb else errb is not None
        if not (ok and okf and okb):
            bad += 1
            if bad <= 10:
                print(f"  differential {t!r}: INTEGER column {ti} {i!r}, REAL column "
                      f"{tr} {r!r}; i {got!r} {err!r}; f {gotf!r} {errf!r}; b {gotb!r} {errb!r}")
    check(f"affinity_differential ({len(texts)} texts)", bad == 0, f"{bad} differ")
    n_int = conn.execute("SELECT count(*) FROM aff WHERE typeof(i) = 'integer'").fetchone()[0]
    check("differential_has_both", 100 < n_int < len(texts) - 100, repr(n_int))


def main():
    ext = jjtest.extension_path(jjtest.build_dir(sys.argv))
    rng = random.Random(20240229)
    conn = connect(ext)
    test_json_round_trip(conn, rng)
    test_csv(conn, rng)
    test_errors_and_null(conn)
    test_affinity_rules(conn)
    test_affinity_differential(conn, rng)
    conn.close()
    test_compressed_and_limits(ext)
    test_interrupt(ext)
    return jjtest.report("convert_sql")


if __name__ == "__main__":
    sys.exit(main())
