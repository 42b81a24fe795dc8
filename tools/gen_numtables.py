#!/usr/bin/env python3
"""Regenerate core/numtables.c and core/numtables.h (jalapenojson number tables).

Usage (from the repository root):
    python3 tools/gen_numtables.py            # writes core/numtables.c and core/numtables.h
    python3 tools/gen_numtables.py --check    # exits 1 if the checked-in files are stale

Only the standard library is used and all arithmetic is exact (Python integers),
so the output is bit-for-bit reproducible.

What is generated
-----------------
jj_pow5_128[j - JJ_POW5_MIN] = {hi, lo} for j in [JJ_POW5_MIN, JJ_POW5_MAX]:
    the 128-bit value T(j) = floor(5^j * 2^(127 - floor(log2(5^j)))), i.e. the
    leading 128 bits of 5^j, truncated (never rounded up), 2^127 <= T(j) < 2^128.
    T(j) is exact iff 0 <= j <= JJ_POW5_EXACT_MAX (5^j < 2^128).
    The parser (Eisel-Lemire) uses it as a lower bound of 5^q; the printer
    (Schubfach) derives its rounded-up 126-bit g = floor(T/4) + 1 from it.

It also emits the multiply-shift constants for floor(log2(10^e)),
floor(log10(2^q)) and floor(log10(3/4 * 2^q)), after verifying them
exhaustively over (more than) the ranges the C code uses.
"""
import os
import sys

POW5_MIN = -342   # smallest decimal exponent the parser's fast path needs
POW5_MAX = 324    # largest 5^j the printer needs (10^-k with k >= -324)
PRINT_MIN = -292  # the printer uses j = -k for k in [-324, 292]
PRINT_MAX = 324


def floor_log2(n_num, n_den=1):
    """floor(log2(n_num / n_den)) for positive integers, exactly."""
    k = n_num.bit_length() - n_den.bit_length()
    # adjust so that 2^k <= num/den < 2^(k+1)
    while (n_den << k if k >= 0 else n_den) > (n_num if k >= 0 else n_num << -k):
        k -= 1
    while (n_den << (k + 1) if k + 1 >= 0 else n_den) <= (n_num if k + 1 >= 0 else n_num << -(k + 1)):
        k += 1
    return k


def floor_log10_frac(num, den):
    """floor(log10(num / den)) for positive integers, exactly."""
    k = len(str(num)) - len(str(den))
    def ge(kk):  # num/den >= 10^kk ?
        return num * (10 ** -kk if kk < 0 else 1) >= den * (10 ** kk if kk >= 0 else 1)
    while not ge(k):
        k -= 1
    while ge(k + 1):
        k += 1
    return k


def pow5_128(j):
    """T(j): leading 128 bits of 5^j, truncated."""
    if j >= 0:
        p = 5 ** j
        b = p.bit_length()
        t = p << (128 - b) if b <= 128 else p >> (b - 128)
    else:
        p = 5 ** -j
        b = p.bit_length()
        # 2^(127+b) / 5^-j lies in (2^127, 2^128) because 2^(b-1) < 5^-j < 2^b
        t = (1 << (127 + b)) // p
    assert (1 << 127) <= t < (1 << 128)
    return t


def check_mulshift(name, fn, lo, hi, mul, shift, add):
    for q in range(lo, hi + 1):
        got = (q * mul + add) >> shift  # Python >> is a floor shift
        if got != fn(q):
            sys.exit("constant check failed for %s at %d" % (name, q))


def log_constants():
    # floor(e * log2(10)) for e in [-400, 400] (parser: [-342, 308], printer: [-324, 292])
    check_mulshift("log2_pow10", lambda e: floor_log2(10 ** e) if e >= 0 else floor_log2(1, 10 ** -e),
                   -400, 400, 108853, 15, 0)
    # floor(q * log10(2)) for q in [-1200, 1100] (printer: [-1074, 971])
    check_mulshift("log10_pow2", lambda q: floor_log10_frac(2 ** q, 1) if q >= 0 else floor_log10_frac(1, 2 ** -q),
                   -1200, 1100, 78913, 18, 0)
    # floor(log10(3/4 * 2^q)) for q in [-1200, 1100]
    check_mulshift("log10_3q_pow2",
                   lambda q: floor_log10_frac(3 * 2 ** q, 4) if q >= 0 else floor_log10_frac(3, 4 * 2 ** -q),
                   -1200, 1100, 157827, 19, -65507)
    # The printer shifts 4*c + 2 < 2^55 left by h = q + floor(log2(10^-k)) + 2 (1..5, so < 2^60)
    # and looks up 10^-k in the table.
    def fl_log2_pow10(e):
        return floor_log2(10 ** e) if e >= 0 else floor_log2(1, 10 ** -e)
    for q in range(-1074, 972):
        for k in (floor_log10_frac(2 ** q, 1) if q >= 0 else floor_log10_frac(1, 2 ** -q),
                  floor_log10_frac(3 * 2 ** q, 4) if q >= 0 else floor_log10_frac(3, 4 * 2 ** -q)):
            h = q + fl_log2_pow10(-k) + 2
            if not 1 <= h <= 5 or not PRINT_MIN <= -k <= PRINT_MAX:
                sys.exit("printer shift out of range at q=%d" % q)
    return [
        ("JJ_LOG2_POW10", 108853, 15, 0, "floor(e*log2(10)), |e| <= 400"),
        ("JJ_LOG10_POW2", 78913, 18, 0, "floor(q*log10(2)), -1200 <= q <= 1100"),
        ("JJ_LOG10_3Q_POW2", 157827, 19, -65507, "floor(log10(3/4*2^q)),\n** -1200 <= q <= 1100"),
    ]


def render():
    exact_max = max(j for j in range(0, POW5_MAX + 1) if 5 ** j < (1 << 128))
    rows = []
    for j in range(POW5_MIN, POW5_MAX + 1):
        t = pow5_128(j)
        if PRINT_MIN <= j <= PRINT_MAX:
            g = (t >> 2) + 1  # Schubfach's g must stay below 2^126
            assert g < (1 << 126), j
        rows.append("    {0x%016xu, 0x%016xu}, /* 5^%d */" % (t >> 64, t & ((1 << 64) - 1), j))
    consts = log_constants()

    c_src = []
    c_src.append("/* GENERATED FILE - do not edit by hand.\n"
                 "** Regenerate with: python3 tools/gen_numtables.py (from the repository root)\n"
                 "** Leading 128 bits of 5^j (truncated) for JJ_POW5_MIN <= j <= JJ_POW5_MAX,\n"
                 "** computed with exact big-integer arithmetic. See tools/gen_numtables.py. */\n")
    c_src.append('#include "numtables.h"\n')
    c_src.append("/* jj_pow5_128[j - JJ_POW5_MIN] = {high 64 bits, low 64 bits} of\n"
                 "** floor(5^j * 2^(127 - floor(log2(5^j)))), a value in [2^127, 2^128). */")
    c_src.append("const uint64_t jj_pow5_128[JJ_POW5_COUNT][2] = {")
    c_src.extend(rows)
    c_src.append("};\n")

    h = []
    h.append("/* GENERATED FILE - do not edit by hand.\n"
             "** Regenerate with: python3 tools/gen_numtables.py (from the repository root)\n"
             "** Internal to core/numparse.c and core/numprint.c. */")
    h.append("#ifndef JJ_NUMTABLES_H\n#define JJ_NUMTABLES_H\n")
    h.append("#include <stdint.h>\n")
    h.append("#define JJ_POW5_MIN (%d)" % POW5_MIN)
    h.append("#define JJ_POW5_MAX %d" % POW5_MAX)
    h.append("#define JJ_POW5_COUNT %d" % (POW5_MAX - POW5_MIN + 1))
    h.append("/* 5^j < 2^128, so the table entry is exact, iff\n"
             "** 0 <= j <= JJ_POW5_EXACT_MAX. */")
    h.append("#define JJ_POW5_EXACT_MAX %d\n" % exact_max)
    h.append("/* Leading 128 bits of 5^j, truncated; see numtables.c. */")
    h.append("extern const uint64_t jj_pow5_128[JJ_POW5_COUNT][2];\n")
    h.append("/* floor((x * mul + add) / 2^shift) for small signed x, without relying on\n"
             "** the implementation-defined right shift of negative numbers (a bias keeps\n"
             "** it non-negative). */")
    h.append("static inline int jj_mulshift_floor(int x, int64_t mul, int shift,\n"
             "                                    int64_t add) {\n"
             "  /* |x * mul + add| < bias * 2^shift here */\n"
             "  const int64_t bias = (int64_t)1 << 12;\n"
             "  return (int)((int64_t)((uint64_t)(x * mul + add + (bias << shift)) >> shift) -\n"
             "               bias);\n"
             "}\n")
    for name, mul, shift, add, doc in consts:
        fn = name.lower()
        h.append("/* %s; constants verified exhaustively by the\n** generator. */" % doc)
        h.append("static inline int %s(int x) {\n  return jj_mulshift_floor(x, %d, %d, %d);\n}\n"
                 % (fn, mul, shift, add))
    h.append("/* 64x64 -> 128 bit product, shared by the parser and the printer: returns\n"
             "** the high half and stores the low half. */")
    h.append("#ifdef __SIZEOF_INT128__\n"
             "__extension__ typedef unsigned __int128 jj_u128;\n"
             "#endif\n"
             "static inline uint64_t jj_mul64(uint64_t a, uint64_t b, uint64_t *lo) {\n"
             "#ifdef __SIZEOF_INT128__\n"
             "  jj_u128 p = (jj_u128)a * b;\n"
             "  *lo = (uint64_t)p;\n"
             "  return (uint64_t)(p >> 64);\n"
             "#else\n"
             "  uint64_t a0 = (uint32_t)a, a1 = a >> 32, b0 = (uint32_t)b, b1 = b >> 32;\n"
             "  uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;\n"
             "  uint64_t mid = (p00 >> 32) + (uint32_t)p01 + (uint32_t)p10;\n"
             "  *lo = (mid << 32) | (uint32_t)p00;\n"
             "  return p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);\n"
             "#endif\n"
             "}\n")
    h.append("#endif /* JJ_NUMTABLES_H */")
    return "\n".join(c_src), "\n".join(h) + "\n"


def main():
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    c_text, h_text = render()
    outs = [(os.path.join(root, "core", "numtables.c"), c_text),
            (os.path.join(root, "core", "numtables.h"), h_text)]
    if "--check" in sys.argv[1:]:
        stale = [p for p, t in outs if not os.path.exists(p) or open(p).read() != t]
        for p in stale:
            print("stale: " + p)
        sys.exit(1 if stale else 0)
    for path, text in outs:
        with open(path, "w", newline="\n") as f:
            f.write(text)


if __name__ == "__main__":
    main()
