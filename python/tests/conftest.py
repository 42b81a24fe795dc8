"""Shared fixtures of the module's tests (pytest, Debian's python3-pytest).

Run from the repository root after `make python`:
    build/venv/bin/python -m pytest -q python/tests
`make test` runs them through tests/bindings/test_python_module.py, which also sets
JJ_EXTENSION (the SQLite extension to load, without .so) for the build it
tests.  Under ASan the leak loops run a tenth of their rounds.
"""
import os
import sqlite3

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def extension_path():
    """The SQLite extension: $JJ_EXTENSION, else the plain build's."""
    return os.environ.get("JJ_EXTENSION") or os.path.join(ROOT, "jalapenojson")


def under_asan():
    """True when AddressSanitizer's runtime is loaded (make python-asan's
    module, run with the runtime preloaded)."""
    try:
        with open("/proc/self/maps") as f:
            return "libasan" in f.read()
    except OSError:
        return False


UNDER_ASAN = under_asan()


def rounds(n):
    """n, or a tenth under ASan ($JJ_PY_ROUNDS: another divisor)."""
    return max(1, n // int(os.environ.get("JJ_PY_ROUNDS", "10" if UNDER_ASAN else "1")))


def header(columns, types):
    """The first line of a document: '{"jalapenojson":1,...,"rows":['."""
    import json
    return ('{"jalapenojson":1,"columns":%s,"types":%s,"rows":['
            % (json.dumps(columns, separators=(",", ":"), ensure_ascii=False),
               json.dumps(types, separators=(",", ":")))).encode()


def document(columns, types, *rows):
    """A document of raw row texts (each row's JSON as written)."""
    body = b",\n".join(r if isinstance(r, bytes) else r.encode() for r in rows)
    return header(columns, types) + b"\n" + body + (b"\n" if rows else b"") + b"]}"


@pytest.fixture
def db():
    """An in-memory SQLite connection with the extension loaded and
    detect_types=PARSE_DECLTYPES, after jalapenojson.register_sqlite3()."""
    import jalapenojson
    path = extension_path()
    if not os.path.exists(path + ".so"):
        pytest.skip("the SQLite extension %s.so is not built (run make)" % path)
    jalapenojson.register_sqlite3()
    conn = sqlite3.connect(":memory:", detect_types=sqlite3.PARSE_DECLTYPES)
    conn.enable_load_extension(True)
    conn.load_extension(path)
    conn.enable_load_extension(False)
    yield conn
    conn.close()
