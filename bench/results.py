#!/usr/bin/python3
"""results.py - the benchmark's results as report.py and chart.py read them:
the names of readers and tasks, the number formats, and the measurements of
a run (results.json, with any `bench/run.sh --rows N` run merged in).
"""
import json
import math
import os
import re
import statistics

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BENCH = os.path.join(ROOT, "bench")
OUT = os.path.join(BENCH, "data", "out")

READER_NAMES = {
    "cjson": "cJSON", "simdjson": "simdjson (on-demand)", "yyjson": "yyjson", "jj": "jalapenojson",
    "jjsse2": "jalapenojson, SSE2 forced", "jjscalar": "jalapenojson, scalar forced",
    "native": "native table", "floor": "floor (do-nothing vtab)",
    "floorlen": "floor, text with its length", "json1": "json1 (json_each + ->>)", "jjfile": "jalapenojson, file",
    "jjmmap": "jalapenojson, file, mmap=1",
    "jjblob": "jalapenojson, blob", "jjrecord": "jalapenojson, record->>", "floor-json": "memchr, JSON doc", "floor-jj": "memchr, jj doc",
}
TASK_NAMES = {
    ("c", "all"): "read every value", ("c", "price"): "sum(price)", ("c", "city"): "CRC(city)",
    ("c", "middle"): "the middle row", ("c", "write"): "write every value",
    ("c", "count"): "count the rows (structure only)",
    ("c", "stage1"): "stage 1 alone (the structural index, no row walked)",
    ("c", "values"): "read every value, no checksum of the text",
    ("c", "convert"): "the prices' conversion alone (no row checked)",
    ("sql", "scan"): "full scan", ("sql", "price"): "sum(price)", ("sql", "count"): "count(*)",
    ("sql", "since"): "count WHERE joined >= date", ("sql", "row"): "one row by rowid",
    ("sql", "export"): "export (jj_group / json_group_array)",
    ("sql", "open"): "cold start: CREATE, first query, DROP",
}
JSON_PARSERS = ("cjson", "simdjson", "yyjson")
SET_NAMES = {"repetitive": "repetitive", "entropy": "high-entropy", "orders": "nested orders"}
SIZE_METHODS = (("raw", "raw"), ("gzip6", "gzip -6"), ("br5", "brotli -q 5"), ("br11", "brotli -q 11"))


# ---------------------------------------------------------------------------
# Reading the results
# ---------------------------------------------------------------------------

class Results:
    """The measurements of one run, indexed by (group, set, rows, task, reader).
    data["extra"] holds `--rows N` runs merged in by load(): their row
    counts are in self.all_rows (after the main run's), their raw sizes in
    self.extra_sizes."""

    def __init__(self, data):
        self.data = data
        self.by_key = {}
        self.all_rows = list(data["rows"])
        self.extra_sizes = {}
        for m in data["measurements"]:
            self.by_key[(m["group"], m["set"], m["rows"], m["task"], m["reader"])] = m
        for extra in data.get("extra", []):
            self.all_rows += [r for r in extra["rows"] if r not in self.all_rows]
            self.extra_sizes.update(extra["sizes"])
            for m in extra["measurements"]:
                self.by_key.setdefault((m["group"], m["set"], m["rows"], m["task"], m["reader"]), m)

    def get(self, group, set_name, rows, task, reader):
        return self.by_key.get((group, set_name, rows, task, reader))

    def median_ns(self, *key):
        m = self.get(*key)
        return statistics.median(m["best_ns"]) if m else None

    def doc_bytes(self, set_name, rows, fmt):
        key = "%s-%d" % (set_name, rows)
        return (self.data["sizes"].get(key) or self.extra_sizes[key])[fmt]["raw"]


def load(quick=False):
    """results.json (or results-quick.json) with every results-rows-N.json
    (-quick) whose N the main run did not measure."""
    suffix = "-quick" if quick else ""
    data = json.load(open(os.path.join(OUT, "results%s.json" % suffix)))
    data["extra"] = []
    for name in sorted(os.listdir(OUT)):
        m = re.match(r"results-rows-(\d+)%s\.json$" % suffix, name)
        if m and int(m.group(1)) not in data["rows"]:
            data["extra"].append(json.load(open(os.path.join(OUT, name))))
    return data


def reader_name(task, reader):
    """A reader's name in a table; the export task's readers are functions."""
    if task == "export":
        return {"jj": "jj_group", "json1": "json_group_array(json_object())"}[reader]
    return READER_NAMES[reader]


def table(header, rows):
    """A Markdown table."""
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
    return "\n".join(lines)


def fmt_time(ns):
    if ns is None:
        return "-"
    if ns >= 1e9:
        return "%.3g s" % (ns / 1e9)
    if ns >= 1e6:
        return "%.3g ms" % (ns / 1e6)
    if ns >= 1e3:
        return "%.3g µs" % (ns / 1e3)
    return "%.3g ns" % ns


def fmt_ratio(r):
    """A speed ratio, truncated, so that it never claims more than was
    measured: 0.68×, 9.99×, 12.3×, 1,234×."""
    if r is None:
        return "-"
    digits = 2 if r < 10 else 1 if r < 100 else 0
    v = math.floor(r * 10 ** digits) / 10 ** digits
    return "{:,.{d}f}×".format(v, d=digits)


def fmt_times(r):
    """A time ratio (jalapenojson's time ÷ a baseline's), rounded up, so
    that it never claims less time than was measured: 1.10× means at most
    1.10."""
    if r is None:
        return "-"
    digits = 2 if r < 10 else 1 if r < 100 else 0
    v = math.ceil(r * 10 ** digits - 1e-9) / 10 ** digits
    return "{:,.{d}f}×".format(v, d=digits)


def fmt_mbs(nbytes, ns):
    if not ns:
        return "-"
    v = nbytes / (ns / 1e9) / 1e6
    return "{:,.0f}".format(v) if v >= 100 else "%.3g" % v


def fmt_rows(n):
    return "{:,}".format(n)
