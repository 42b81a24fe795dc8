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

N = 100000
SEEDS = (1, 2)


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else "build"
    exe = os.path.join(build, "tests", "test_num")
    passed = failed = 0
    for seed in SEEDS:
        try:
            out = subprocess.run([exe, "--print-repr", str(N), str(seed)], check=True,
                                 stdout=subprocess.PIPE, universal_newlines=True).stdout
        except (OSError, subprocess.CalledProcessError) as e:
            print("FAIL cannot run %s: %s" % (exe, e))
            failed += 1
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
        for ok in (len(lines) == N, bad_repr == 0, bad_back == 0):
            if ok:
                passed += 1
            else:
                failed += 1
        if len(lines) != N:
            print("FAIL expected %d lines, got %d" % (N, len(lines)))
    print("num_python: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
