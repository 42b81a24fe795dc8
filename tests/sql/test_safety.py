"""test_safety.py BUILD_DIR — what a hostile database file, path or document
can make the extension do, and what jj_write does to what it replaces:

  - a database file whose schema declares jj_open over a FIFO, /dev/zero or a
    decompression bomb (max_size=0 written into the schema) is opened by a
    fresh process: .schema, PRAGMA table_list / table_info and a view over
    the table finish at once, in little memory, with short messages;
  - SOURCE paths that are not regular files are refused without blocking;
  - the size limit (jj_max_size, default 1 GiB; a table's max_size only
    lowers it) applies to files, BLOBs, documents and decompressed output;
  - sqlite3_interrupt stops a long decompression;
  - a file truncated or rewritten under a typed table: no SIGBUS, no new
    values under the old declaration;
  - jj_write refuses FIFOs and devices, follows symlinks, keeps modes;
  - messages quote input only as short escaped excerpts; BLOB errors,
    x'..' literals, SQLite's column and length limits, jj_group's argument
    limit and its documented workaround.

Anything that could hang, crash or eat memory runs in a child process with
a timeout.  Prints "safety: N passed, M failed".

BUILD_DIR is the absolute build directory: the repository's build/ means
the extension ./jalapenojson.so at its root, any other directory D means
D/jalapenojson.so.
"""
import ctypes
import json
import os
import re
import sqlite3
import stat
import subprocess
import sys
import tempfile
import time
import zlib

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import jjtest
from jjtest import (check, connect, document, error_of, expect_error,
                    extension_path, python_child, q)


def short_and_clean(msg, limit=300):
    """A message that quotes input only briefly and prints cleanly."""
    return (msg is not None and len(msg) <= limit and
            all(c == "\t" or (" " <= c and c != "\x7f") for c in msg))


# ---------------------------------------------------------------------------
# Generated inputs
# ---------------------------------------------------------------------------

def gzip_zeros(mib):
    """A gzip stream of `mib` MiB of zeros, without its end: one deflate
    segment for 1 MiB (ended by a full flush, so it depends on nothing
    before it) repeated.  Built in no time, a few KB per GiB."""
    co = zlib.compressobj(9, zlib.DEFLATED, -15)
    block = co.compress(bytes(1 << 20)) + co.flush(zlib.Z_FULL_FLUSH)
    return b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff" + block * mib


def brotli_compress(chunks, quality=5):
    """Brotli through the libbrotlienc the build links (no Python module
    needed): compress an iterable of bytes, streaming."""
    lib = ctypes.CDLL("libbrotlienc.so.1")
    vp, sz = ctypes.c_void_p, ctypes.c_size_t
    lib.BrotliEncoderCreateInstance.restype = vp
    lib.BrotliEncoderCreateInstance.argtypes = [vp, vp, vp]
    lib.BrotliEncoderSetParameter.argtypes = [vp, ctypes.c_int, ctypes.c_uint32]
    lib.BrotliEncoderCompressStream.argtypes = [
        vp, ctypes.c_int, ctypes.POINTER(sz), ctypes.POINTER(vp),
        ctypes.POINTER(sz), ctypes.POINTER(vp), vp]
    lib.BrotliEncoderIsFinished.argtypes = [vp]
    lib.BrotliEncoderHasMoreOutput.argtypes = [vp]
    lib.BrotliEncoderDestroyInstance.argtypes = [vp]
    st = lib.BrotliEncoderCreateInstance(None, None, None)
    lib.BrotliEncoderSetParameter(st, 1, quality)  # BROTLI_PARAM_QUALITY
    lib.BrotliEncoderSetParameter(st, 2, 24)       # BROTLI_PARAM_LGWIN
    out = bytearray()
    obuf = ctypes.create_string_buffer(1 << 16)

    def step(op, data):
        buf = ctypes.create_string_buffer(data, len(data)) if data else None
        avail_in = sz(len(data))
        next_in = vp(ctypes.addressof(buf) if buf else None)
        while True:
            avail_out = sz(len(obuf))
            next_out = vp(ctypes.addressof(obuf))
            ok = lib.BrotliEncoderCompressStream(
                st, op, ctypes.byref(avail_in), ctypes.byref(next_in),
                ctypes.byref(avail_out), ctypes.byref(next_out), None)
            assert ok
            out.extend(obuf.raw[:len(obuf) - avail_out.value])
            if op == 2:
                if lib.BrotliEncoderIsFinished(st):
                    return
            elif avail_in.value == 0 and not lib.BrotliEncoderHasMoreOutput(st):
                return

    for c in chunks:
        step(0, c)  # BROTLI_OPERATION_PROCESS
    step(2, b"")    # BROTLI_OPERATION_FINISH
    lib.BrotliEncoderDestroyInstance(st)
    return bytes(out)


# ---------------------------------------------------------------------------
# Children: a fresh process per risky case
# ---------------------------------------------------------------------------

# The child loads the extension, runs its statements (each may fail), and
# prints one JSON line: per statement the error or row count and the time,
# and the growth of its peak RSS.  Without a sanitizer preloaded it also
# caps its address space (3 GiB more than it maps at its start), so a
# runaway read fails fast instead of eating the machine.
CHILD = r'''
import json, os, resource, sqlite3, sys, time
import jjtest
args = json.loads(sys.argv[1])
if "asan" not in os.environ.get("LD_PRELOAD", ""):
    jjtest.cap_address_space(3 << 30)
if args.get("umask") is not None:
    os.umask(args["umask"])
def peak():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
conn = jjtest.connect(args["so"], args["db"])
for s in args.get("setup", []):
    conn.execute(s)
base = peak()
out = []
for sql in args["sql"]:
    t0 = time.monotonic()
    try:
        rows = conn.execute(sql).fetchall()
        res = {"rows": [list(map(str, r)) for r in rows][:50]}
    except sqlite3.Error as e:
        res = {"error": str(e)}
    res["seconds"] = time.monotonic() - t0
    res["rss_growth"] = peak() - base
    out.append(res)
conn.close()
print(json.dumps({"results": out, "rss_growth": peak() - base}))
'''


def child(so, sql, db=":memory:", setup=(), timeout=20, umask=None):
    """Run statements in a fresh process.  Returns (returncode, results,
    rss_growth, stderr); returncode None when it timed out."""
    args = json.dumps({"so": so, "db": db, "sql": list(sql),
                       "setup": list(setup), "umask": umask})
    try:
        run = python_child(CHILD, [args], timeout)
    except subprocess.TimeoutExpired:
        return None, [], 0, "timeout"
    try:
        out = json.loads(run.stdout.strip().splitlines()[-1])
    except (IndexError, ValueError):
        return run.returncode, [], 0, run.stderr[-2000:]
    return run.returncode, out["results"], out["rss_growth"], run.stderr[-2000:]


MB = 1 << 20


def hostile_schema(so, tmp, name, source, options=""):
    """A database file whose schema declares jj_open over `source` (written
    with writable_schema, as an attacker would), and a view over it; a fresh
    process opens it the way a user looking at it would."""
    db = os.path.join(tmp, f"hostile-{name}.db")
    conn = sqlite3.connect(db)
    conn.execute("CREATE TABLE t(x)")
    conn.execute("PRAGMA writable_schema = ON")
    create = "CREATE VIRTUAL TABLE vt USING jj_open(%s%s)" % (q(source), options)
    conn.execute("INSERT INTO sqlite_schema VALUES ('table', 'vt', 'vt', 0, ?)",
                 (create,))
    conn.execute("INSERT INTO sqlite_schema VALUES ('view', 'v', 'v', 0, "
                 "'CREATE VIEW v AS SELECT * FROM vt')")
    conn.commit()
    conn.close()
    rc, res, growth, err = child(
        so, ["SELECT sql FROM sqlite_schema",
             "SELECT name FROM pragma_table_list",
             "PRAGMA table_info(vt)",
             "SELECT * FROM v",
             "SELECT count(*) FROM vt"], db=db, timeout=20)
    tag = f"hostile_schema_{name}"
    check(tag + "_finishes", rc == 0 and len(res) == 5, f"rc={rc} {err}")
    if rc != 0 or len(res) != 5:
        return res
    check(tag + "_fast", all(r["seconds"] < 2 for r in res[:4]),
          repr([r["seconds"] for r in res]))
    # Looking at the schema costs little; only the last statement, a
    # direct query the user types, reads the document (within jj_max_size).
    check(tag + "_small", res[3]["rss_growth"] < 100 * MB,
          f"peak RSS grew {res[3]['rss_growth']}")
    errors = [r.get("error") for r in res if "error" in r]
    check(tag + "_short_messages", all(short_and_clean(e) for e in errors),
          repr(errors))
    check(tag + "_schema_readable", "rows" in res[0] and "rows" in res[1],
          repr(res[:2]))
    # The view over vt (a schema object of the file) never scans it.
    check(tag + "_view_refused", "error" in res[3], repr(res[3]))
    return res


def test_hostile_schemas(so, tmp):
    fifo = os.path.join(tmp, "fifo.jj")
    os.mkfifo(fifo)
    # A table of the schema that cannot be declared says so, naming only
    # what the schema wrote (the reason is the user's own CREATE's).
    quiet = "cannot declare the table \"vt\" of the database's schema"
    res = hostile_schema(so, tmp, "fifo", fifo)
    if len(res) > 2:
        check("hostile_fifo_refused", "error" in res[2] and
              res[2]["error"].startswith(fifo + ": " + quiet), repr(res[2]))
    res = hostile_schema(so, tmp, "devzero", "/dev/zero")
    if len(res) > 2:
        check("hostile_devzero_refused", "error" in res[2] and
              res[2]["error"].startswith("/dev/zero: " + quiet),
              repr(res[2]))
    # A brotli bomb: 200 MB of zeros in a few hundred bytes, with the
    # attacker's max_size=0 in the schema.  Connecting reads the header
    # only: a few KB decompressed, then the reader's error about byte 0.
    bomb = os.path.join(tmp, "bomb.jj.br")
    with open(bomb, "wb") as f:
        f.write(brotli_compress(bytes(MB) for _ in range(200)))
    check("bomb_is_small", os.path.getsize(bomb) < 65536,
          str(os.path.getsize(bomb)))
    res = hostile_schema(so, tmp, "brotli_bomb", bomb, ", max_size=0")
    if len(res) > 2:
        check("hostile_bomb_header_error", "error" in res[2] and
              res[2]["error"].startswith(bomb + ": " + quiet) and
              "byte 0" not in res[2]["error"], repr(res[2]))
    # A valid header in front of a huge body: connecting succeeds (the
    # columns are declared) without reading the body.
    big = os.path.join(tmp, "big.jj.br")
    head = b'{"jalapenojson":1,"columns":["s"],"types":["s"],"rows":[\n'
    row = b'["' + b"x" * 1000 + b'"],\n'
    with open(big, "wb") as f:
        f.write(brotli_compress([head] + [row * 1000] * 200))
    res = hostile_schema(so, tmp, "valid_header", big, ", max_size=0")
    if len(res) > 2:
        check("hostile_valid_header_declares", res[2].get("rows", [[]])[0][1:2]
              == ["s"], repr(res[2]))
    return bomb


def test_not_regular(so, tmp):
    fifo = os.path.join(tmp, "fifo2.jj")
    os.mkfifo(fifo)
    stmts = []
    for path in (fifo, "/dev/zero", tmp, "/proc/self/status"):
        stmts += ["SELECT count(*) FROM jj_open(%s)" % q(path),
                  "SELECT count(*) FROM jj_schema(%s)" % q(path),
                  "CREATE VIRTUAL TABLE temp.t%d USING jj_open(%s)"
                  % (len(stmts), q(path))]
    rc, res, growth, err = child(so, stmts, timeout=20)
    check("not_regular_finishes", rc == 0, f"rc={rc} {err}")
    for sql, r in zip(stmts, res):
        check("not_regular_refused " + sql, "error" in r and r["seconds"] < 2,
              repr(r))
    if len(res) == len(stmts):
        kinds = [r["error"] for r in res]
        check("not_regular_names_kind", all(
            "not a regular file" in e for e in kinds[:6] + kinds[9:]) and
            all("is a directory" in e for e in kinds[6:9]), repr(kinds))
    check("not_regular_small", growth < 100 * MB, str(growth))


def test_limits(so, tmp, bomb):
    conn = connect(so)
    got = conn.execute("SELECT jj_max_size()").fetchone()[0]
    check("max_size_default", got == 1073741824, repr(got))
    got = conn.execute("SELECT jj_max_size(5000000)").fetchone()[0]
    check("max_size_returns_previous", got == 1073741824, repr(got))
    check("max_size_set", conn.execute("SELECT jj_max_size()").fetchone()[0]
          == 5000000)
    for bad in ("-1", "1.5", "'10'", "NULL"):
        expect_error(conn, "max_size_bad_" + bad, f"SELECT jj_max_size({bad})",
                     (), "jj_max_size: expected a number of bytes >= 0 "
                     "(0: no limit)")
    check("max_size_kept_after_refused",
          conn.execute("SELECT jj_max_size()").fetchone()[0] == 5000000)
    hint = " (raise it with SELECT jj_max_size(N))"
    # A bare jj_open of the bomb stops at the connection's limit.
    expect_error(conn, "bomb_stops_at_limit",
                 "SELECT count(*) FROM jj_open(?)", (bomb,),
                 f'"{bomb}": decompressed size exceeds the limit of 5000000 '
                 "bytes" + hint)
    expect_error(conn, "schema_header_of_bomb",
                 "SELECT * FROM jj_schema(?)", (bomb,),
                 re.compile(re.escape(bomb) + r": byte 0: expected '\{'.*"))
    # BLOBs: a gzip bomb, a plain BLOB, a document TEXT.
    gz = gzip_zeros(64)
    expect_error(conn, "blob_gzip_bomb", "SELECT count(*) FROM jj_open(?)",
                 (gz,), "blob: decompressed size exceeds the limit of 5000000 "
                 "bytes" + hint)
    doc = document(["s"], ["s"], [["x" * 1000]] * 6000)
    expect_error(conn, "blob_plain_over_limit",
                 "SELECT count(*) FROM jj_open(?)", (doc.encode(),),
                 f"blob: the document is {len(doc)} bytes, over the limit of "
                 "5000000 bytes" + hint)
    expect_error(conn, "text_over_limit", "SELECT count(*) FROM jj_open(?)",
                 (doc,), f"blob: the document is {len(doc)} bytes, over the "
                 "limit of 5000000 bytes" + hint)
    plain = os.path.join(tmp, "plain.jj")
    with open(plain, "w") as f:
        f.write(doc)
    got = error_of(conn, "SELECT count(*) FROM jj_open(?)", (plain,))
    check("file_plain_over_limit", got is not None and plain in got and
          "5000000" in got and got.endswith(hint), repr(got))
    conn.execute("SELECT jj_max_size(0)")
    check("no_limit_reads", conn.execute("SELECT count(*) FROM jj_open(?)",
                                         (plain,)).fetchone()[0] == 6000)
    # A typed table's max_size only lowers the connection's limit.
    conn.execute("SELECT jj_max_size(1000)")
    conn.execute("CREATE VIRTUAL TABLE temp.lifted USING jj_open(%s, "
                 "max_size=0)" % q("sql/data/rows.jj.gz"))
    expect_error(conn, "option_cannot_lift", "SELECT count(*) FROM lifted",
                 (), '"sql/data/rows.jj.gz": decompressed size exceeds the '
                 "limit of 1000 bytes" + hint)
    conn.execute("CREATE VIRTUAL TABLE temp.high USING jj_open(%s, "
                 "max_size=1000000000)" % q("sql/data/rows.jj.gz"))
    expect_error(conn, "option_higher_no_effect", "SELECT count(*) FROM high",
                 (), '"sql/data/rows.jj.gz": decompressed size exceeds the '
                 "limit of 1000 bytes" + hint)
    conn.execute("SELECT jj_max_size(1000000)")
    check("raised_then_reads", conn.execute("SELECT count(*) FROM high")
          .fetchone()[0] == 40)
    conn.execute("CREATE VIRTUAL TABLE temp.low USING jj_open(%s, "
                 "max_size=2000)" % q("sql/data/rows.jj.gz"))
    expect_error(conn, "option_lowers", "SELECT count(*) FROM low", (),
                 '"sql/data/rows.jj.gz": decompressed size exceeds the limit '
                 "of 2000 bytes (the table's max_size option)")
    with open("sql/data/rows.jj.br", "rb") as f:
        br = f.read()
    expect_error(conn, "option_lowers_table_valued",
                 "SELECT count(*) FROM low(?)", (br,), "blob: decompressed size exceeds the limit of 2000 bytes "
                 "(the table's max_size option)")
    # Lowering the limit after a scan applies to the next one.
    check("typed_reads", conn.execute("SELECT count(*) FROM high")
          .fetchone()[0] == 40)
    conn.execute("SELECT jj_max_size(1000)")
    expect_error(conn, "lowered_after_scan", "SELECT count(*) FROM high", (),
                 '"sql/data/rows.jj.gz": decompressed size exceeds the limit '
                 "of 1000 bytes" + hint)
    # jj_max_size is direct-only: no view or trigger of a database file.
    db = os.path.join(tmp, "limits.db")
    conn.execute("ATTACH ? AS other", (db,))
    conn.execute("CREATE VIEW other.lift AS SELECT jj_max_size(0)")
    expect_error(conn, "max_size_view", "SELECT * FROM other.lift", (),
                 "unsafe use of jj_max_size()")
    conn.execute("CREATE TABLE other.log(x)")
    conn.execute("CREATE TRIGGER other.lift_t AFTER INSERT ON log BEGIN "
                 "SELECT jj_max_size(0); END")
    expect_error(conn, "max_size_trigger", "INSERT INTO other.log VALUES (1)",
                 (), "unsafe use of jj_max_size()")
    check("max_size_unchanged", conn.execute("SELECT jj_max_size()")
          .fetchone()[0] == 1000)
    conn.close()


def test_default_limit(so, tmp):
    """Without any setting, 1 GiB: a (sparse) file of 1 GiB + 1 byte with a
    valid header declares its table, and every read of it stops at once
    (the size is known before a byte is read)."""
    big = os.path.join(tmp, "default.jj")
    with open(big, "wb") as f:
        f.write(b'{"jalapenojson":1,"columns":["a"],"types":["i"],"rows":[\n')
        f.truncate((1 << 30) + 1)
    conn = connect(so)
    msg = (f'"{big}" is 1073741825 bytes, over the limit of 1073741824 bytes '
           "(raise it with SELECT jj_max_size(N))")
    conn.execute("CREATE VIRTUAL TABLE temp.huge USING jj_open(%s, "
                 "max_size=0)" % q(big))
    conn.execute("CREATE VIRTUAL TABLE temp.huge_mapped USING jj_open(%s, "
                 "mmap=1)" % q(big))
    t0 = time.monotonic()
    for name, sql in (("record", "SELECT count(*) FROM jj_open(%s)" % q(big)),
                      ("typed", "SELECT count(*) FROM huge"),
                      ("typed_mmap", "SELECT count(*) FROM huge_mapped")):
        got = error_of(conn, sql)
        check("default_limit_" + name, got == msg, repr(got))
    check("default_limit_fast", time.monotonic() - t0 < 2)
    conn.close()
    os.remove(big)


def test_interrupt(so, tmp):
    """sqlite3_interrupt 100 ms into a decompression of several seconds
    (4 GiB of zeros, limit lifted) stops it: a file and a BLOB."""
    bomb = os.path.join(tmp, "slow.jj.gz")
    with open(bomb, "wb") as f:
        f.write(gzip_zeros(4096))
    code = r'''
import json, sqlite3, sys, threading, time
import jjtest
so, bomb = sys.argv[1], sys.argv[2]
conn = jjtest.connect(so)
conn.execute("SELECT jj_max_size(0)")
blob = open(bomb, "rb").read()
out = []
for sql, params in (("SELECT count(*) FROM jj_open(?)", (bomb,)),
                    ("SELECT count(*) FROM jj_open(?)", (blob,))):
    timer = threading.Timer(0.1, conn.interrupt)
    t0 = time.monotonic()
    timer.start()
    try:
        conn.execute(sql, params).fetchall()
        err = None
    except sqlite3.Error as e:
        err = str(e)
    out.append({"error": err, "seconds": time.monotonic() - t0})
    timer.join()
    out.append({"after": conn.execute("SELECT 42").fetchone()[0]})
print(json.dumps(out))
'''
    try:
        run = python_child(code, [so, bomb], 60)
        out = json.loads(run.stdout.strip().splitlines()[-1])
    except (subprocess.TimeoutExpired, IndexError, ValueError) as e:
        check("interrupt_runs", False, repr(e))
        return
    for name, r, after in (("file", out[0], out[1]), ("blob", out[2], out[3])):
        check("interrupt_" + name, r["error"] == "interrupted" and
              r["seconds"] < 3, repr(r))
        check("interrupt_then_usable_" + name, after["after"] == 42)
    os.remove(bomb)


def test_blob_messages(so):
    conn = connect(so)
    doc = document(["a"], ["i"], [[1], [2]])
    br = brotli_compress([doc.encode()])
    expect_error(conn, "brotli_trailing_bytes",
                 "SELECT count(*) FROM jj_open(?)", (br + b"junk",),
                 re.compile(r"blob: brotli.*"))
    expect_error(conn, "brotli_truncated", "SELECT count(*) FROM jj_open(?)",
                 (br[:-3],), re.compile(r"blob: brotli.*"))
    check("brotli_blob_reads", conn.execute(
        "SELECT count(*) FROM jj_open(?)", (br,)).fetchone()[0] == 2)
    expect_error(conn, "blob_not_ours", "SELECT count(*) FROM jj_open(?)",
                 (b"\x00\x11garbage",), "blob: not a jalapenojson document, "
                 "gzip or brotli data (starts with 0x00 0x11)")
    expect_error(conn, "blob_not_ours_schema", "SELECT * FROM jj_schema(?)",
                 (b"PK\x03\x04",), "blob: not a jalapenojson document, gzip "
                 "or brotli data (starts with 0x50 0x4b)")
    expect_error(conn, "gzip_corrupt", "SELECT count(*) FROM jj_open(?)",
                 (zlib.compress(doc.encode(), wbits=31)[:-6],),
                 re.compile(r"blob: gzip.*"))
    # The x'..' literal of a CREATE is a BLOB source, not a file name.
    conn.execute("CREATE VIRTUAL TABLE temp.hex USING jj_open(x'%s')"
                 % doc.encode().hex())
    got = conn.execute("SELECT a, source FROM hex").fetchall()
    check("hex_literal_document", got == [(1, None), (2, None)], repr(got))
    conn.execute("CREATE VIRTUAL TABLE temp.hexbr USING jj_open(X'%s')"
                 % br.hex())
    got = conn.execute("SELECT sum(a) FROM hexbr").fetchone()
    check("hex_literal_brotli", got == (3,), repr(got))
    expect_error(conn, "hex_literal_7b7d",
                 "CREATE VIRTUAL TABLE temp.h1 USING jj_open(x'7b7d')", (),
                 'blob: byte 1: expected "jalapenojson" as the first key, '
                 'found "}"')
    # SQLite's tokenizer refuses bad literals before the module sees them.
    for bad in ("x'7b7'", "x'7g'"):
        got = error_of(conn, "CREATE VIRTUAL TABLE temp.h2 USING jj_open(%s)"
                       % bad)
        check("hex_literal_bad " + bad, got is not None and
              "unrecognized token" in got, repr(got))
    conn.close()


def test_excerpts(so, tmp):
    """A binary file as SOURCE: the message quotes a few escaped bytes."""
    binary = os.path.join(tmp, "binary.jj")
    with open("/bin/ls", "rb") as src, open(binary, "wb") as dst:
        dst.write(src.read(65536))
    conn = connect(so)
    msgs = [error_of(conn, "SELECT count(*) FROM jj_open(?)", (binary,)),
            error_of(conn, "SELECT * FROM jj_schema(?)", (binary,)),
            error_of(conn, "CREATE VIRTUAL TABLE temp.b USING jj_open(%s)"
                     % q(binary)),
            error_of(conn, "SELECT count(*) FROM jj_open(?)",
                     (b"{" + open(binary, "rb").read(),))]
    for i, m in enumerate(msgs):
        check(f"excerpt_{i}", short_and_clean(m, 200), repr(m))
    check("excerpt_escaped", "\\x7f" in (msgs[0] or ""), repr(msgs[0]))
    # Column names from a document reach messages escaped and cut.
    long_name = "n\x01" + "y" * 200
    doc = document([long_name, long_name.upper()], ["s", "s"], [])
    m = error_of(conn, "CREATE VIRTUAL TABLE temp.names USING jj_open(%s)"
                 % q(doc))
    check("excerpt_names", short_and_clean(m) and "\\x01" in m and "..." in m,
          repr(m))
    conn.close()


def test_header_limit(so, tmp):
    conn = connect(so)
    for size, ok in ((600_000, True), (1_200_000, False)):
        doc = ('{"jalapenojson":1,"columns":["a"],"types":["i"],"meta":"%s",'
               '"rows":[\n[1]\n]}' % ("m" * size))
        path = os.path.join(tmp, f"meta{size}.jj.gz")
        with open(path, "wb") as f:
            f.write(zlib.compress(doc.encode(), wbits=31))
        for kind, sql in (("create", "CREATE VIRTUAL TABLE temp.m%d USING "
                           "jj_open(%s)" % (size, q(path))),
                          ("schema", "SELECT * FROM jj_schema(%s)" % q(path))):
            got = error_of(conn, sql)
            if ok:
                check(f"header_{size}_{kind}", got is None, repr(got))
            else:
                check(f"header_{size}_{kind}", got == f"{path}: the header is "
                      "larger than 1048576 bytes", repr(got))
        # The record form reads the whole document: no header limit there.
        got = conn.execute("SELECT count(*) FROM jj_open(?)", (path,)).fetchone()
        check(f"header_{size}_record_form", got == (1,), repr(got))
    conn.close()


def test_changes(so, tmp):
    """A file truncated, rewritten in place or replaced under a typed
    table, in a child that must exit normally (no SIGBUS)."""
    path = os.path.join(tmp, "changing.jj")
    rows = [[i, "u%05d" % i] for i in range(1, 50001)]
    with open(path, "w") as f:
        f.write(document(["id", "user"], ["i", "s"], rows))
    code = r'''
import json, os, re, sqlite3, sys
import jjtest
so, path = sys.argv[1], sys.argv[2]
conn = jjtest.connect(so)
def run(sql):
    try:
        return conn.execute(sql).fetchall()
    except sqlite3.Error as e:
        return "error: " + str(e)
out = {}
conn.execute("CREATE VIRTUAL TABLE temp.t0 USING jj_open('%s')" % path)
out["create_mmap"] = run("CREATE VIRTUAL TABLE temp.t1 USING jj_open('%s', "
                         "mmap=1)" % path)
out["first"] = run("SELECT count(*), max(user) FROM t0")
out["first_mmap"] = run("SELECT count(*), max(user) FROM t1")
data = open(path, "rb").read()
# Each change gets its own modification time: writes within one tick of the
# file system's clock would keep the same one (see docs/security.md).
stamp = [os.stat(path).st_mtime_ns]
def touch():
    stamp[0] += 1000000000
    os.utime(path, ns=(stamp[0], stamp[0]))
# truncated in place to half: the read copy never faults
with open(path, "r+b") as f:
    f.truncate(len(data) // 2)
touch()
# a row seen before, past the new end: a mapping would fault there (SIGBUS)
out["truncated_seek"] = run("SELECT user FROM t0 WHERE rowid = 45000")
out["truncated"] = run("SELECT count(*), max(user) FROM t0")
# rewritten in place, same size, other values
with open(path, "r+b") as f:
    f.write(re.sub(rb'"u(?=[0-9])', b'"v', data))
touch()
out["rewritten"] = run("SELECT count(*), max(user) FROM t0")
out["rewritten_mmap"] = run("SELECT count(*), max(user) FROM t1")
# a scan still reading keeps the bytes it started with; a statement that
# starts while it reads shares them; the next one sees the new file
reading = conn.execute("SELECT user FROM t0")
first = reading.fetchone()
with open(path, "r+b") as f:
    f.write(re.sub(rb'"u(?=[0-9])', b'"w', data))
touch()
out["during"] = [first[0], run("SELECT max(user) FROM t0"), reading.fetchone()[0]]
reading.fetchall()
out["after"] = run("SELECT max(user) FROM t0")
# rewritten with another column type
with open(path, "wb") as f:
    f.write(data.replace(b'"types":["i","s"]', b'"types":["i","i"]', 1))
touch()
out["retyped"] = run("SELECT count(*) FROM t0")
out["retyped_mmap"] = run("SELECT count(*) FROM t1")
# restored: the table reads again
with open(path, "wb") as f:
    f.write(data)
touch()
out["restored"] = run("SELECT count(*) FROM t0")
# removed
os.remove(path)
out["removed"] = run("SELECT count(*) FROM t0")
print(json.dumps(out))
'''
    try:
        run = python_child(code, [so, path], 60)
    except subprocess.TimeoutExpired:
        check("changes_finish", False, "timeout")
        return
    check("changes_no_crash", run.returncode == 0,
          f"rc={run.returncode} {run.stderr[-500:]}")
    if run.returncode != 0:
        return
    out = json.loads(run.stdout.strip().splitlines()[-1])
    check("changes_first", out["first"] == [[50000, "u50000"]], repr(out))
    check("changes_first_mmap", out["first_mmap"] == [[50000, "u50000"]],
          repr(out))
    check("changes_truncated_seek", out["truncated_seek"] == [] or
          out["truncated_seek"].startswith("error: " + path),
          repr(out["truncated_seek"]))
    check("changes_truncated_error", isinstance(out["truncated"], str) and
          out["truncated"].startswith("error: " + path), repr(out["truncated"]))
    check("changes_rewritten_new_values",
          out["rewritten"] == [[50000, "v50000"]], repr(out["rewritten"]))
    check("changes_rewritten_mmap", out["rewritten_mmap"] ==
          [[50000, "v50000"]], repr(out["rewritten_mmap"]))
    check("changes_during_scan", out["during"] == ["v00001", [["v50000"]],
                                                   "v00002"],
          repr(out["during"]))
    check("changes_after_scan", out["after"] == [["w50000"]], repr(out["after"]))
    want = (f"error: {path}: the file changed since the table was created: "
            'column 2 "user" differs: declared s, found i')
    check("changes_retyped", out["retyped"] == want, repr(out["retyped"]))
    check("changes_retyped_mmap", out["retyped_mmap"] == want,
          repr(out["retyped_mmap"]))
    check("changes_restored", out["restored"] == [[50000]], repr(out))
    check("changes_removed", isinstance(out["removed"], str) and
          "No such file" in out["removed"], repr(out["removed"]))


def test_write(so, tmp):
    doc = document(["a"], ["i"], [[1]])
    conn = connect(so)
    # A FIFO target is refused (without blocking) and stays a FIFO.
    fifo = os.path.join(tmp, "out-fifo.jj")
    os.mkfifo(fifo)
    rc, res, _, err = child(so, ["SELECT jj_write(%s, %s)" % (q(fifo), q(doc))],
                            timeout=20)
    check("write_fifo_refused", rc == 0 and res and "error" in res[0] and
          res[0]["error"].startswith("jj_write: "), f"rc={rc} {res} {err}")
    check("write_fifo_intact", stat.S_ISFIFO(os.lstat(fifo).st_mode))
    # A symbolic link is followed: the link stays, its target is replaced.
    target = os.path.join(tmp, "target.jj")
    with open(target, "w") as f:
        f.write("old")
    os.chmod(target, 0o640)
    link = os.path.join(tmp, "link.jj")
    os.symlink("target.jj", link)
    n = conn.execute("SELECT jj_write(?, ?)", (link, doc)).fetchone()[0]
    check("write_symlink_written", n == len(doc), repr(n))
    check("write_symlink_intact", os.path.islink(link) and
          os.readlink(link) == "target.jj")
    with open(target) as f:
        check("write_symlink_target_replaced", f.read() == doc)
    check("write_keeps_mode", stat.S_IMODE(os.stat(target).st_mode) == 0o640,
          oct(os.stat(target).st_mode))
    # A new file gets 0666 & ~umask (umask 077 in a child: 0600).
    new = os.path.join(tmp, "new-umask.jj")
    rc, res, _, err = child(so, ["SELECT jj_write(%s, %s)" % (q(new), q(doc))],
                            umask=0o077)
    check("write_umask", rc == 0 and os.path.exists(new) and
          stat.S_IMODE(os.stat(new).st_mode) == 0o600,
          f"{res} {err} {oct(os.stat(new).st_mode) if os.path.exists(new) else ''}")
    # Unknown compression suffixes are errors naming the supported ones.
    for suffix in ("zst", "xz", "bz2"):
        path = os.path.join(tmp, "out.jj." + suffix)
        got = error_of(conn, "SELECT jj_write(?, ?)", (path, doc))
        check("write_suffix_" + suffix, got is not None and
              got.startswith("jj_write: ") and ".gz" in got and ".br" in got
              and not os.path.exists(path), repr(got))
    # A directory is refused.
    got = error_of(conn, "SELECT jj_write(?, ?)", (tmp, doc))
    check("write_directory", got is not None and got.startswith("jj_write: ")
          and os.path.isdir(tmp), repr(got))
    # As root, a device node is not deleted (a char device in a temp dir).
    if os.geteuid() == 0:
        dev = os.path.join(tmp, "null-dev")
        os.mknod(dev, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
        got = error_of(conn, "SELECT jj_write(?, ?)", (dev, doc))
        check("write_device_refused", got is not None and
              got.startswith("jj_write: "), repr(got))
        check("write_device_intact", stat.S_ISCHR(os.lstat(dev).st_mode))
    else:
        print("SKIP write_device (not root: cannot mknod)")
    # No temporary file is left behind by any of these.
    left = [n for n in os.listdir(tmp) if ".jj-tmp-" in n]
    check("write_no_temp_left", not left, repr(left))
    conn.close()


def test_sqlite_limits(so, tmp):
    conn = connect(so)
    conn.setlimit(sqlite3.SQLITE_LIMIT_COLUMN, 10)
    for n, ok in ((8, True), (9, False)):
        doc = document(["c%d" % i for i in range(n)], ["i"] * n, [])
        got = error_of(conn, "CREATE VIRTUAL TABLE temp.w%d USING jj_open(%s)"
                       % (n, q(doc)))
        if ok:
            check("column_limit_fits", got is None, repr(got))
        else:
            check("column_limit", got == "blob: has 9 columns; a typed table "
                  "can have at most 8 (SQLite's SQLITE_LIMIT_COLUMN is 10 and "
                  "two columns are the hidden source and filename); the "
                  "record form reads any number", repr(got))
    got = conn.execute("SELECT count(*) FROM jj_open(?)", (document(
        ["c%d" % i for i in range(20)], ["i"] * 20, [list(range(20))]),)
    ).fetchone()
    check("column_limit_record_form", got == (1,), repr(got))
    conn.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, 1000)
    msg = ("jj_group: the document would be more than 1000 bytes, SQLite's "
           "length limit (SQLITE_LIMIT_LENGTH)")
    series = ("WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s "
              "WHERE n < %d) ")
    expect_error(conn, "group_length_ints",
                 series % 500 + "SELECT jj_group('n', n) FROM s", (), msg)
    expect_error(conn, "group_length_text",
                 series % 30 + "SELECT jj_group('t', printf('%040d', n)) "
                 "FROM s", (), msg)
    expect_error(conn, "group_length_escapes",
                 series % 10 + "SELECT jj_group('t', char(1, 2, 3, 4, 5, 6, 7,"
                 " 8, 9, 10, 11, 12, 14, 15, 16, 17, 18, 19)) FROM s", (), msg)
    got = conn.execute(series % 10 + "SELECT length(jj_group('n', n)) FROM s"
                       ).fetchone()[0]
    check("group_length_fits", got is not None and got < 1000, repr(got))
    conn.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, 1000000000)
    conn.setlimit(sqlite3.SQLITE_LIMIT_COLUMN, 2000)
    # 64 columns are 128 arguments, one more than SQLite allows.
    args = ", ".join("'c%d', %d" % (i, i) for i in range(64))
    got = error_of(conn, "SELECT jj_group(%s)" % args)
    check("group_64_columns", got is not None and "too many arguments" in got,
          repr(got))
    # docs/sql.md's workaround for wider tables: the rows with json_quote and
    # ||, the header written out, jj_write checking the whole document.
    n = 130
    cols = ["c%d" % i for i in range(n)]
    conn.execute("CREATE TABLE wide(%s)" % ", ".join(cols))
    conn.executemany("INSERT INTO wide VALUES (%s)" % ", ".join("?" * n),
                     [[r * 1000 + i for i in range(n)] for r in range(3)])
    header = ('{"jalapenojson":1,"columns":%s,"types":%s,"rows":['
              % (json.dumps(cols, separators=(",", ":")),
                 json.dumps(["i"] * n, separators=(",", ":"))))
    row = " || ',' || ".join("json_quote(%s)" % c for c in cols)
    out = os.path.join(tmp, "wide.jj")
    sql = ("SELECT jj_write(?, ? || char(10) || group_concat('[' || %s || ']', "
           "',' || char(10)) || char(10) || ']}') FROM (SELECT * FROM wide "
           "ORDER BY c0)" % row)
    got = error_of(conn, sql, (out, header))
    check("wide_workaround_writes", got is None, repr(got))
    got = conn.execute("SELECT count(*), max(record->>'c129') FROM jj_open(?)",
                       (out,)).fetchone()
    check("wide_workaround_reads", got == (3, 2129), repr(got))
    conn.close()


def main():
    build = jjtest.build_dir(sys.argv)
    os.chdir(jjtest.ROOT)
    so = extension_path(build)
    with tempfile.TemporaryDirectory() as tmp:
        bomb = os.path.join(tmp, "bomb.jj.br")
        for test in (lambda: test_hostile_schemas(so, tmp),
                     lambda: test_not_regular(so, tmp),
                     lambda: test_limits(so, tmp, bomb),
                     lambda: test_default_limit(so, tmp),
                     lambda: test_interrupt(so, tmp),
                     lambda: test_blob_messages(so),
                     lambda: test_excerpts(so, tmp),
                     lambda: test_header_limit(so, tmp),
                     lambda: test_changes(so, tmp),
                     lambda: test_write(so, tmp),
                     lambda: test_sqlite_limits(so, tmp)):
            try:
                test()
            except Exception as e:  # an unexpected error fails, the rest run
                check("unexpected_exception", False,
                      "%s: %s" % (type(e).__name__, e))
    return jjtest.report("safety")


if __name__ == "__main__":
    sys.exit(main())
