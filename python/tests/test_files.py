"""load() and dump(): plain, gzip and brotli by name, atomic replacement,
the file reader's limits and refusals, and a signal stopping a long read
(SPEC's JJ_ERR_INTERRUPTED: the handler's exception propagates)."""
import datetime as dt
import gzip
import os
import pathlib
import signal

import warnings

import pytest

import jalapenojson as jj

ROWS = [{"id": i, "name": "row %d" % i, "price": i * 0.5} for i in range(1, 301)]


@pytest.mark.parametrize("name", ["rows.jj", "rows.jj.gz", "rows.jj.br"])
def test_dump_and_load(tmp_path, name):
    path = tmp_path / name
    assert jj.dump(ROWS, path) is None
    raw = path.read_bytes()
    if name.endswith(".gz"):
        assert raw[:2] == b"\x1f\x8b" and gzip.decompress(raw) == jj.encode(ROWS)
    elif name.endswith(".br"):
        assert raw != jj.encode(ROWS) and len(raw) < len(jj.encode(ROWS))
    else:
        assert raw == jj.encode(ROWS)
    assert jj.load(path) == ROWS
    assert jj.load(str(path)) == ROWS and jj.load(os.fsencode(path)) == ROWS
    assert jj.decode(raw) == ROWS          # gzip by magic, brotli by trying
    assert jj.view(raw)[-1] == ROWS[-1]
    assert os.listdir(tmp_path) == [name]  # no temporary file left


def test_dump_levels(tmp_path):
    jj.dump(ROWS, tmp_path / "a.gz", level=1)
    jj.dump(ROWS, tmp_path / "a.br", level=11)
    assert jj.load(tmp_path / "a.gz") == ROWS == jj.load(tmp_path / "a.br")
    with pytest.raises(jj.Error, match=r"gzip level 10 is out of range \(1-9, or -1 for 6\)"):
        jj.dump(ROWS, tmp_path / "b.gz", level=10)
    assert sorted(os.listdir(tmp_path)) == ["a.br", "a.gz"]


def test_dump_is_atomic(tmp_path):
    path = tmp_path / "rows.jj"
    jj.dump(ROWS, path)
    before = path.read_bytes()
    odd = dt.timezone(dt.timedelta(seconds=30))
    bad = ROWS + [{"id": 1, "name": "x", "price": dt.datetime(2024, 1, 1, tzinfo=odd)}]   # fails at the end
    with pytest.raises(jj.Error, match="with seconds"):
        jj.dump(bad, path)
    bad = ROWS + [{"id": 1, "name": b"x", "price": 1.0}]   # fails inferring
    with pytest.raises(jj.Error, match="mixes bytes"):
        jj.dump(bad, path, types=None)
    with warnings.catch_warnings():   # a warning made an error
        warnings.simplefilter("error", jj.InferenceWarning)
        with pytest.raises(jj.InferenceWarning, match='column "id": integers'):
            jj.dump(ROWS + [{"id": "x", "name": "x", "price": 1.0}], path)
    with pytest.raises(jj.Error, match="is not a date"):
        jj.dump([{"d": "2023-02-29"}], path, types=["d"])
    assert path.read_bytes() == before and os.listdir(tmp_path) == ["rows.jj"]


def test_dump_refusals(tmp_path):
    with pytest.raises(jj.Error, match='is a directory') as e:
        jj.dump(ROWS, tmp_path)
    assert e.value.code == "io"
    with pytest.raises(jj.Error, match="cannot create a temporary file"):
        jj.dump(ROWS, tmp_path / "missing" / "rows.jj")
    with pytest.raises(jj.Error, match=r"\.xz compression is not supported"):
        jj.dump(ROWS, tmp_path / "rows.jj.xz")
    if hasattr(os, "mkfifo"):
        os.mkfifo(tmp_path / "fifo")
        with pytest.raises(jj.Error, match="not a regular file"):
            jj.dump(ROWS, tmp_path / "fifo")
        with pytest.raises(jj.Error, match=r"is not a regular file \(a FIFO\)"):
            jj.load(tmp_path / "fifo")


def test_load_limits_and_messages(tmp_path):
    path = tmp_path / "rows.jj"
    jj.dump(ROWS, path)
    size = path.stat().st_size
    with pytest.raises(jj.Error) as e:
        jj.load(path, max_size=100)
    assert str(e.value) == '"%s" is %d bytes, over the limit of 100 bytes' % (path, size)
    assert e.value.code == "limit"
    jj.dump(ROWS, tmp_path / "rows.jj.gz")
    with pytest.raises(jj.Error, match="decompressed size exceeds the limit of 100 bytes"):
        jj.load(tmp_path / "rows.jj.gz", max_size=100)
    assert jj.load(path, max_size=None) == ROWS == jj.load(path, max_size=0)
    bad = tmp_path / "bad.jj"
    bad.write_bytes(b'{"jalapenojson":1,"columns":["a"],"types":["d"],"rows":[["2023-02-29"]]}')
    with pytest.raises(jj.Error) as e:
        jj.load(bad)
    assert str(e.value) == ('%s: row 1, column "a", byte 57: "2023-02-29" is not a '
                            'date (2023 is not a leap year)' % bad)
    assert (e.value.row, e.value.column, e.value.offset) == (1, "a", 57)
    with pytest.raises(ValueError):
        jj.load("a\0b")
    with pytest.raises(TypeError):
        jj.load(5)


class Stop(Exception):
    pass


def _interrupted(call, timer=0.002):
    """Run call() with a SIGALRM handler that raises Stop; True when Stop
    came out of it (the read was stopped), False when call() finished
    first."""
    def handler(signum, frame):
        raise Stop()
    old = signal.signal(signal.SIGALRM, handler)
    try:
        signal.setitimer(signal.ITIMER_REAL, timer)
        try:
            call()
            return False
        except Stop:
            return True
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


@pytest.mark.skipif(not hasattr(signal, "setitimer"), reason="no setitimer")
def test_a_signal_stops_a_long_read(tmp_path):
    """The reads run without the GIL and poll for signals every MiB: a
    handler's exception stops them (as Ctrl-C's KeyboardInterrupt does)."""
    head = b'{"jalapenojson":1,"columns":["a"],"types":["i"],"rows":[\n'
    for mib in (32, 128, 512):   # bigger until the read outlasts the timer
        doc = head + b"[1],\n" * ((mib << 20) // 5) + b"[1]\n]}"
        data = gzip.compress(doc, compresslevel=1)
        del doc
        path = tmp_path / "big.jj.gz"
        path.write_bytes(data)
        if _interrupted(lambda: jj.load(path, max_size=0)) and \
                _interrupted(lambda: jj.view(data, max_size=0)):
            return
    pytest.fail("a 512 MiB read was never interrupted")


def test_pathlike(tmp_path):
    jj.dump(ROWS, pathlib.PurePath(tmp_path / "p.jj"))
    assert jj.load(pathlib.Path(tmp_path / "p.jj")) == ROWS


@pytest.mark.parametrize("name", ["big.jj", "big.jj.gz"])
def test_a_failed_file_write_says_why_and_leaves_nothing(tmp_path, name):
    """A write the file system refuses (here: over RLIMIT_FSIZE, in a child
    process) reaches the writer as "write failed"; dump reports the real
    reason kept by the atomic file, removes its temporary file and leaves
    the old file as it was."""
    import subprocess
    import sys
    path = tmp_path / name
    jj.dump(ROWS[:3], path)
    before = path.read_bytes()
    child = """
import resource, signal, sys
import jalapenojson as jj
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))
rows = [{"id": i, "text": "%08d" % (i * 7919 % 10**8) * 8} for i in range(100000)]
try:
    jj.dump(rows, sys.argv[1], level=1)
except jj.Error as e:
    print(e.code, "|", e)
"""
    out = subprocess.run([sys.executable, "-P", "-c", child, str(path)], check=True,
                         stdout=subprocess.PIPE, text=True).stdout.strip()
    assert out.startswith("io | cannot write ") and out.endswith(": File too large"), out
    assert path.read_bytes() == before and os.listdir(tmp_path) == [name]
