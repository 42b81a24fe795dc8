#!/usr/bin/env python3
"""test_numprint_fast.py BUILD_DIR - the printer's fast path for short decimals
(core/numprint.c, short_decimal: v = m / 10^k for k <= 8) against CPython's
repr(), through jj_group's float column, on the values where it could go
wrong: decimals with 0-9 fractional digits at every magnitude it takes
(2^-10 .. 2^51) and just outside it, their neighbours one and two ulps away
(which must fall through to Schubfach and still print their own shortest
text), powers of two (whose lower neighbour is only half an ulp away),
whole numbers near 2^50, 2^51 and 2^53, and random bit patterns.  Every
printed number must be repr(v) and read back as v.
Prints "num_fast: N passed, M failed"."""
import json
import math
import os
import random
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import jjtest
from jjtest import check, connect, extension_path


def bits(v):
    return struct.unpack("<Q", struct.pack("<d", v))[0]


def from_bits(b):
    return struct.unpack("<d", struct.pack("<Q", b))[0]


def values(rng):
    out = []
    # decimals with k fractional digits at every magnitude the fast path
    # takes and a little beyond, with their neighbours
    for k in range(0, 10):
        for digits in range(1, 18):
            for _ in range(60):
                m = rng.randrange(10 ** (digits - 1), 10 ** digits)
                v = m / 10 ** k
                out.append(v)
                if v > 0 and math.isfinite(v):
                    out.append(math.nextafter(v, math.inf))
                    out.append(math.nextafter(v, 0.0))
                    out.append(math.nextafter(math.nextafter(v, math.inf), math.inf))
    # prices and the like, the benchmark's shapes
    for _ in range(20000):
        out.append(rng.randrange(0, 10 ** 9) / 10 ** rng.randrange(0, 5))
    # powers of two and their neighbours across the fast path's range
    for e in range(-14, 56):
        p = 2.0 ** e
        for v in (p, math.nextafter(p, 0.0), math.nextafter(p, math.inf)):
            out.append(v)
            out.append(v * 10)
            out.append(v / 10)
    # whole numbers near the bounds (the width test at k = 0)
    for base in (2.0 ** 49, 2.0 ** 50, 2.0 ** 51, 2.0 ** 52, 2.0 ** 53, 1e15, 1e16):
        for d in range(-40, 41):
            out.append(base + d)
            out.append(base + d + 0.5)
            out.append(base + d + 0.25)
            out.append(base + d + 0.125)
    # the lower end: 2^-10 and 0.001 (which is below it)
    for v in (2.0 ** -10, 0.001, 0.0009765625, 0.00098, 0.000977, 0.0009766):
        out.append(v)
        out.append(math.nextafter(v, 0.0))
        out.append(math.nextafter(v, math.inf))
    # random bit patterns of finite doubles, and of doubles in the range
    while len(out) < 150000:
        b = rng.getrandbits(64)
        v = from_bits(b)
        if math.isfinite(v):
            out.append(v)
        e = rng.randrange(1023 - 12, 1023 + 53)
        out.append(from_bits((e << 52) | rng.getrandbits(52)))
    rng.shuffle(out)
    return [v for v in out if math.isfinite(v)]


def main():
    conn = connect(extension_path(jjtest.build_dir(sys.argv)))
    rng = random.Random(20261201)
    vals = values(rng)
    conn.execute("CREATE TABLE t(i INTEGER PRIMARY KEY, v REAL)")
    conn.executemany("INSERT INTO t(v) VALUES (?)", ((v,) for v in vals))
    doc = conn.execute("SELECT jj_group('v:f', v) FROM (SELECT v FROM t ORDER BY i)").fetchone()[0]
    lines = doc.split("\n")
    check("header", lines[0] == '{"jalapenojson":1,"columns":["v"],"types":["f"],"rows":[',
          lines[0][:80])
    rows = lines[1:-1]
    check("one row per value", len(rows) == len(vals), "%d rows, %d values" % (len(rows), len(vals)))
    bad_repr = bad_back = 0
    for v, row in zip(vals, rows):
        text = row[1:row.index("]")]
        if text != repr(v):
            bad_repr += 1
            if bad_repr <= 10:
                print("FAIL %r (bits %016x): printed %s" % (v, bits(v), text))
        if bits(float(text)) != bits(v):
            bad_back += 1
    check("%d values print as repr()" % len(vals), bad_repr == 0, "%d differ" % bad_repr)
    check("%d values read back bit for bit" % len(vals), bad_back == 0, "%d differ" % bad_back)
    # the same values as a document read back by the extension itself
    back = conn.execute("SELECT count(*) FROM jj_open(?) AS r JOIN t ON t.i = r.row "
                        "WHERE r.record->>'v' IS NOT t.v", (doc,)).fetchone()[0]
    check("read back by jj_open equal", back == 0, "%d differ" % back)
    # the document is also valid JSON whose numbers are the values
    parsed = json.loads(doc)["rows"]
    check("JSON numbers equal", all(bits(r[0]) == bits(v) for r, v in zip(parsed, vals)))
    return jjtest.report("numprint_fast")


if __name__ == "__main__":
    sys.exit(main())
