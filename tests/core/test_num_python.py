#!/usr/bin/env python3
"""test_num_python.py BUILD_DIR - jj_num_format_double must print exactly what CPython's
repr(float) prints. Runs BUILD_DIR/tests/test_num --print-repr N SEED (N values of many
shapes: random bit patterns, subnormals, powers of two, integers, short decimals) and compares
every line "<hex bits> <text>" with repr(); also checks that float(text) gives the bits back.
Prints "num_python: N passed, M failed" (one check per property and seed)."""
import os
import struct
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import jjtest
from jjtest import check

N = 100000
SEEDS = (1, 2)


def main():
    exe = os.path.join(jjtest.build_dir(sys.argv), "tests", "test_num")
    for seed in SEEDS:
        try:
            out = subprocess.run([exe, "--print-repr", str(N), str(seed)], check=True,
                                 stdout=subprocess.PIPE, universal_newlines=True).stdout
        except (OSError, subprocess.CalledProcessError) as e:
            check("run %s" % exe, False, str(e))
            continue
        lines = out.splitlines()
        bad_repr = bad_back = 0
        for line in lines:
            hexbits, text = line.split(" ", 1)
            bits = int(hexbits, 16)
            v = struct.unpack("<d", struct.pack("<Q", bits))[0]
            want = repr(v)
            if text != want:
                bad_repr += 1
                if bad_repr <= 10:
                    print("FAIL repr %s: got %s want %s" % (hexbits, text, want))
            if struct.unpack("<Q", struct.pack("<d", float(text)))[0] != bits:
                bad_back += 1
                if bad_back <= 10:
                    print("FAIL float(%s) != %s" % (text, hexbits))
        check("seed %d: %d lines" % (seed, N), len(lines) == N,
              "got %d" % len(lines))
        check("seed %d: every line is repr()" % seed, bad_repr == 0,
              "%d differ" % bad_repr)
        check("seed %d: float(text) gives the bits back" % seed, bad_back == 0,
              "%d differ" % bad_back)
    return jjtest.report("num_python")


if __name__ == "__main__":
    sys.exit(main())
