#!/usr/bin/python3
"""report.py - bench/data/out/results.json -> bench/RESULTS.md and bench/chart.svg,
then bench/RESULTS.md -> README.md's benchmark paragraph.

    bench/report.py                 all three (bench/run.sh runs this)
    bench/report.py --quick         a smoke run's results-quick.json -> bench/data/out/RESULTS-quick.md
                                    and chart-quick.svg (README.md untouched)
    bench/report.py --readme        only README.md's paragraph, from the committed RESULTS.md
    bench/report.py --check-readme  exit 1 if README.md's paragraph is not what --readme writes

Everything in RESULTS.md is computed from the results of one run (and of a
`bench/run.sh --rows N` run for the SQLite tasks at N rows, which RESULTS.md
shows with its own date and commit): the times
(median, min and max over the rounds), throughput, the speed ratios against
each peer, the sizes, and every target of the issue marked met or not met
with the numbers it was judged on.  The chart shows the speed ratios at
50,000 rows against each peer, with the target of each comparison.

README.md quotes a few of those numbers in one paragraph between the markers
<!-- bench:begin --> and <!-- bench:end -->.  That paragraph is made from the
text of RESULTS.md (not from results.json, which is not committed), so it can
be checked against the committed RESULTS.md at any time: `make test` does.
"""
import html
import os
import re
import statistics
import sys

sys.dont_write_bytecode = True   # no __pycache__ in bench/
from chart import chart_svg  # noqa: E402
from floor_report import budget_section, issue_floor_section, least_summary, spent_section  # noqa: E402
from results import (BENCH, OUT, README, ROOT, SET_NAMES, SIZE_METHODS, TASK_NAMES,  # noqa: E402
                     READER_NAMES, Results, fmt_mbs, fmt_ratio, fmt_rows, fmt_time, fmt_times, load,
                     reader_name, size_targets, table, targets)
from values_report import values_section, values_summary  # noqa: E402

# ---------------------------------------------------------------------------
# RESULTS.md
# ---------------------------------------------------------------------------

def met_text(met):
    return "—" if met is None else ("met" if met else "**not met**")


def speed_table(res, group, set_name, rows, tasks, readers, jj_readers, floor=False):
    """One table per (set, rows): every task, every reader; with floor=True
    a last column of each reader's time ÷ the floor's (issue 13)."""
    jb, jjb = res.doc_bytes(set_name, rows, "json"), res.doc_bytes(set_name, rows, "jj")
    header = ["task", "reader", "median", "min", "max", "MB/s of JSON doc", "MB/s of jj doc"]
    header += ["%s speed ÷ this" % READER_NAMES[j] for j in jj_readers]
    if floor:
        header.append("time ÷ floor's")
    body = []
    for task in tasks:
        for r in readers:
            m = res.get(group, set_name, rows, task, r)
            if not m:
                continue
            med = statistics.median(m["best_ns"])
            row = [TASK_NAMES[(group, task)], reader_name(task, r), "**%s**" % fmt_time(med),
                   fmt_time(min(m["best_ns"])), fmt_time(max(m["best_ns"])),
                   fmt_mbs(jb, med), fmt_mbs(jjb, med)]
            for j in jj_readers:
                jm = res.median_ns(group, set_name, rows, task, j)
                row.append("-" if r in jj_readers or jm is None else fmt_ratio(med / jm))
            if floor:
                fm = res.median_ns(group, set_name, rows, task, "floor")
                row.append("-" if fm is None else fmt_times(med / fm))
            body.append(row)
    return table(header, body) if body else ""


def floor_line(res, set_name, rows):
    parts = []
    for r, label in (("floor-json", "JSON"), ("floor-jj", "jalapenojson")):
        m = res.get("c", set_name, rows, "memchr", r)
        if m:
            med = statistics.median(m["best_ns"])
            parts.append("%s document (%s bytes): %s (%s MB/s)" % (
                label, "{:,}".format(res.doc_bytes(set_name, rows, "json" if r == "floor-json" else "jj")),
                fmt_time(med), fmt_mbs(res.doc_bytes(set_name, rows, "json" if r == "floor-json" else "jj"), med)))
    return ("Floor, one memchr pass over the bytes: " + "; ".join(parts) + ".") if parts else ""


def machine_section(data):
    m = data["meta"]
    rows = [
        ("CPU", "%s, %d cores (%s)" % (m["cpu"], m["cores"], m.get("cpu_detail", ""))),
        ("OS", "%s, Linux %s" % (m["os"], m["kernel"])),
        ("C compiler", m["cc"]), ("C++ compiler", m["cxx"]),
        ("SQLite", m["sqlite"]), ("cJSON", "libcjson-dev " + m["cjson"]),
        ("simdjson", "libsimdjson-dev " + m["simdjson"]),
        ("yyjson", ("%s, built from a local source tree (YYJSON_DIR)" % m["yyjson"]) if m["yyjson"]
         else "left out: YYJSON_DIR was not set (see README.md)"),
        ("zlib / brotli", "zlib1g-dev %s, libbrotli-dev %s" % (m["zlib"], m["brotli"])),
        ("compressors", "%s; %s" % (m["gzip_tool"], m["brotli_tool"])),
        ("date", m["date"]), ("commit", m["commit"]),
        ("rounds", "%d (median shown; min and max too)" % data["rounds"]),
        ("duration", "%.1f min for the measurements" % m["bench_minutes"]),
    ]
    return table(["", ""], rows)


def targets_section(res):
    out = []
    rows = []
    for t in targets(res):
        measured = "-"
        time_kind = t.get("kind") == "time"
        if t["jj_ns"] is not None and t["peer_ns"] is not None:
            task = t["key"][3]
            measured = "%s %s vs %s %s: **%s**" % (
                reader_name(task, t["jj_reader"]), fmt_time(t["jj_ns"]),
                reader_name(task, t["peer"]), fmt_time(t["peer_ns"]),
                (fmt_times(t["ratio"]) + " its time") if time_kind else fmt_ratio(t["ratio"]))
        gap = "-"
        if t["met"] is False and time_kind:
            gap = "at most %s (%.2f× faster than now)" % (fmt_time(t["peer_ns"] * t["need"]),
                                                        t["ratio"] / t["need"])
        elif t["met"] is False:   # what would close it: the time jalapenojson must reach
            gap = "at most %s (%.2f× faster than now)" % (fmt_time(t["peer_ns"] / t["need"]),
                                                        t["need"] / t["ratio"])
        rows.append([t["name"], SET_NAMES[t["set"]], fmt_rows(t["rows"]), measured, t["need_text"],
                     met_text(t["met"]), gap])
    out.append(table(["target", "set", "rows", "measured (speed ratio = peer time ÷ jj time; "
                      "against the floor: jj time ÷ floor time)", "needed",
                      "result", "jalapenojson needs"], rows))
    out.append("\nThe floor is a do-nothing virtual table over the same rows, loaded from the native "
               "table when it is created, whose xColumn only hands a value over "
               "(`bench/sqlite_floor.c`): what SQLite itself spends on a virtual table. Issue 13 "
               "replaced \"within 2× of the native table\" by these targets against it.")
    out.append("\nWhere a target is missed, the profiles at the end show where jalapenojson's "
               "instructions go, and its peer's.")
    least = least_summary(res)
    if least:
        out.append("\n" + least)
    values = values_summary(res)
    if values:
        out.append("\n" + values)
    if 1000000 not in res.all_rows:
        out.append("\nThe targets at 1,000,000 rows are judged by `bench/run.sh --rows 1000000` (the "
                   "SQLite tasks) or `bench/run.sh --large` (everything); this run did not measure them.")
    srows = []
    for t in size_targets(res):
        srows.append([t["doc"], t["method"], "{:,}".format(t["json"]), "{:,}".format(t["jj"]),
                      "%.1f%%" % (100.0 * t["jj"] / t["json"]), met_text(t["met"])])
    out.append("\nSize: jalapenojson smaller than JSON, raw and compressed, on every set.\n")
    out.append(table(["document", "compression", "JSON bytes", "jj bytes", "jj ÷ JSON", "result"], srows))
    met = sum(1 for t in targets(res) if t["met"]) + sum(1 for t in size_targets(res) if t["met"])
    judged = sum(1 for t in targets(res) if t["met"] is not None) + len(size_targets(res))
    out.insert(0, "**%d of %d targets met in this run.**\n" % (met, judged))
    return "\n".join(out)


def paths_section(res):
    """jalapenojson's C tasks with the row scanner forced to SSE2 and to the
    portable scalar code (c_jj's JJ_SIMD) beside its default, each against
    simdjson: issue 13 asks that the widest path not be the only fast one."""
    body = []
    for rows in res.data["rows"]:
        for s in ("repetitive", "entropy"):
            for task in ("all", "price", "city", "middle", "count"):
                sj = res.median_ns("c", s, rows, task, "simdjson")
                row = [SET_NAMES[s], fmt_rows(rows), TASK_NAMES[("c", task)]]
                for r in ("jj", "jjsse2", "jjscalar"):
                    t = res.median_ns("c", s, rows, task, r)
                    row.append("-" if t is None else "%s (%s)" % (
                        fmt_time(t), "-" if sj is None else fmt_ratio(sj / t)))
                if row[-1] != "-" or row[-2] != "-":
                    body.append(row)
    if not body:
        return ""
    return ("jalapenojson's C tasks with its row scanner forced to SSE2 and to the portable "
            "scalar code (`JJ_SIMD=sse2`, `JJ_SIMD=off`) beside its default, the widest this CPU "
            "has (see the machine above), each with its speed ratio against simdjson of the same "
            "run in brackets. The targets are judged on the default.\n\n" +
            table(["set", "rows", "task", "jalapenojson (default)", "SSE2 forced", "scalar forced"], body))


def reference_section(res):
    """The issue's reference measurements next to this run's (50,000
    repetitive rows; the data here is not byte-identical to the issue's)."""
    refs = [("yyjson, read every value", ("c", "all", "yyjson"), 8.7e6),
            ("simdjson on-demand, read every value", ("c", "all", "simdjson"), 14.5e6),
            ("cJSON, read every value", ("c", "all", "cjson"), 52e6),
            ("simdjson, sum(price)", ("c", "price", "simdjson"), 2.3e6),
            ("simdjson, the middle row", ("c", "middle", "simdjson"), 1.25e6),
            ("SQLite native table, sum(price)", ("sql", "price", "native"), 2.4e6),
            ("SQLite json_each with ->>, sum(price)", ("sql", "price", "json1"), 54e6)]
    rows = []
    for label, (g, task, r), ref in refs:
        here = res.median_ns(g, "repetitive", 50000, task, r)
        rows.append([label, fmt_time(ref), fmt_time(here)])
    m = res.get("c", "repetitive", 50000, "memchr", "floor-jj")
    rows.append(["one pass over the jj document (issue: summing bytes; here: memchr)", fmt_time(0.28e6),
                 fmt_time(statistics.median(m["best_ns"])) if m else "-"])
    sz = res.data["sizes"].get("repetitive-50000")
    if sz:
        rows.append(["JSON document size", "5.6 MB", "%.2f MB" % (sz["json"]["raw"] / 1e6)])
        rows.append(["jalapenojson document size", "3.1 MB", "%.2f MB" % (sz["jj"]["raw"] / 1e6)])
    return table(["50,000 repetitive rows", "issue's reference", "this run"], rows)


def sizes_section(res):
    out = []
    for s in ("repetitive", "entropy", "orders"):
        rows = []
        for r in res.data["rows"]:
            e = res.data["sizes"]["%s-%d" % (s, r)]
            row = [fmt_rows(r)]
            for method, _ in SIZE_METHODS:
                row += ["{:,}".format(e["json"][method]), "{:,}".format(e["jj"][method]),
                        "%.1f%%" % (100.0 * e["jj"][method] / e["json"][method])]
            rows.append(row)
        header = ["rows"]
        for _, label in SIZE_METHODS:
            header += ["JSON, " + label, "jj, " + label, "jj ÷ JSON"]
        out.append("### %s\n\n%s\n" % (SET_NAMES[s], table(header, rows)))
    return "\n".join(out)


def profile_pairs(data):
    """One line per profiled target: both sides' instructions a row and
    their ratio next to the time ratio of the same run (the median times),
    so that a side's instructions per unit of time can be compared."""
    res = Results(data)
    prof = data["profiles"]
    rows = []
    for t in targets(res):
        if t["met"] is not False or t["rows"] != 50000 or t["jj_ns"] is None or t["peer_ns"] is None:
            continue
        g, set_name, n, task, jj = t["key"]
        a = prof.get("%s %s %s/%s" % (g, set_name, task, jj))
        b = prof.get("%s %s %s/%s" % (g, set_name, task, t["peer"]))
        if not a or not b:
            continue
        rows.append([t["name"], set_name, "%.0f" % (a["total_ir"] / n),
                     "%s: %.0f" % (reader_name(task, t["peer"]), b["total_ir"] / n),
                     "%.2f" % (b["total_ir"] / a["total_ir"]), "%.2f" % (t["peer_ns"] / t["jj_ns"])])
    if not rows:
        return ""
    return ("Each missed target's two sides, instructions a row (the whole run under callgrind "
            "÷ the rows) and the peer's instructions and time each over jalapenojson's: where "
            "the instruction ratio is above the time ratio, jalapenojson runs fewer instructions "
            "a nanosecond than its peer.\n\n" +
            table(["target", "set", "jalapenojson", "peer", "peer ÷ jj, instructions",
                   "peer ÷ jj, time"], rows))


def profiles_section(data):
    if not data.get("profiles"):
        return "No jalapenojson target was missed at 50,000 rows, so nothing was profiled."
    out = ["Instructions counted by callgrind for one run of each missed target's two sides, "
           "jalapenojson's and its peer's (the floor, or the JSON parser; 50,000 rows of the "
           "target's data set, `repetitive` or `entropy`; the file form of the table; loading the "
           "input and setting up tables not counted): the functions with the most instructions of "
           "their own, and with the most including what they call. Instructions are not time, but "
           "they show where the work is.\n"]
    out.append(profile_pairs(data) + "\n")
    for key, p in data["profiles"].items():
        out.append("#### %s\n\n`%s`: %s instructions in all\n" % (
            key, " ".join(p["argv"]), "{:,}".format(p["total_ir"])))
        for kind, label in (("self", "own instructions"), ("inclusive", "including callees")):
            rows = [[html.escape(f["fn"]), "{:,}".format(f["ir"]), "%.1f%%" % f["pct"]] for f in p.get(kind, [])]
            if rows:
                out.append(table(["function (%s)" % label, "instructions", "share"], rows) + "\n")
    return "\n".join(out)


def fmt_mb(kb):
    return "{:,.1f} MB".format(kb * 1024 / 1e6)


def scale_section(res):
    """Issue 10's bench items: the record form against the typed table and
    json_each at 1,000,000 rows, globs and the .gz second statement
    (glob.sh), export time and peak memory (scale.py)."""
    data, out = res.data, []
    big = [r for r in res.all_rows if r >= 1000000]
    rows_rec = []
    for rows in big:
        for r in ("jjfile", "jjrecord", "json1"):
            m = res.median_ns("sql", "repetitive", rows, "price", r)
            if m:
                f = res.median_ns("sql", "repetitive", rows, "price", "jjfile")
                rows_rec.append([fmt_rows(rows), READER_NAMES[r], fmt_time(m), fmt_ratio(m / f) if f else "-"])
    out.append("**The record form with `->>` against the typed table and `json_each`**, `SELECT sum(price)` "
               "over the repetitive rows, measured as every SQLite task above.\n")
    if rows_rec:
        out.append(table(["rows", "reader", "median", "time ÷ the typed table's"], rows_rec) + "\n")
    else:
        out.append("Not measured at 1,000,000 rows in this run (`bench/run.sh --rows 1000000` does); "
                   "the 50,000-row tables above have all three.\n")
    sc = data.get("scale")
    if not sc:
        out.append("This run did not measure exports and globs at scale.")
        return "\n".join(out)
    out.append("**Export: time and peak memory.** One process per export (`bench/export_scale.c`), "
               "over a 7-column table of the repetitive set's shape in a SQLite file "
               "(`bench/scale.py` writes it once; SQLite keeps only its page cache in memory): "
               "`jj_export(path, query)` streams the rows into the file; `jj_write(path, jj_group(...))` "
               "builds the document in memory and then writes it; `json_group_array(json_object(...))` "
               "builds the JSON text, which is then written with fwrite. Time: the statement until the "
               "file is written; peak: the process's VmHWM; before: its resident memory just before "
               "the statement. Median time and largest peak of %d run(s); each run's output is read back "
               "and its row count checked.\n" % max(
                   [v.get("runs", 1) for e in sc["export"].values() for v in e.values()] or [1]))
    rows_x = []
    for rows, e in sorted(sc["export"].items(), key=lambda kv: int(kv[0])):
        base = e.get("jj_export", {}).get("ns")
        for mth, label in (("jj_export", "jj_export(path, query)"), ("jj_group", "jj_write(path, jj_group(...))"),
                           ("json", "json_group_array(json_object(...)) + fwrite")):
            v = e.get(mth)
            if not v:
                continue
            if "failed" in v:
                rows_x.append([fmt_rows(int(rows)), label, "fails after %s: %s%s" % (
                    fmt_time(v["ns"]), v["failed"],
                    " (the text passes SQLite's largest string, 10^9 bytes)" if "too big" in v["failed"] else ""),
                               "-", "-", fmt_mb(v["peak_kb"]), "-"])
                continue
            rows_x.append([fmt_rows(int(rows)), label, "**%s**" % fmt_time(v["ns"]),
                           fmt_ratio(v["ns"] / base) if base and "failed" not in e["jj_export"] else "-",
                           fmt_mb(v["base_kb"]), "**%s**" % fmt_mb(v["peak_kb"]), "{:,}".format(v["bytes"])])
    out.append(table(["rows", "export", "time", "time ÷ jj_export's", "memory before", "peak memory",
                      "file bytes"], rows_x) + "\n")
    g = sc.get("glob")
    if g:
        out.append("**Globs and the second statement on .gz** (`bench/glob.sh %d`: %s rows of 4 columns as "
                   "one file of %s bytes, its .gz of %s bytes, and as %d files of %s rows; one connection, "
                   "best of 5 statements):\n" % (
                       g["rows"], fmt_rows(g["rows"]), "{:,}".format(g["sizes"]["one"]),
                       "{:,}".format(g["sizes"]["one_gz"]), g["files"], fmt_rows(g["rows"] // g["files"])))
        out.append(table(["statement", "time"], [[html.escape(k, quote=False), fmt_time(v * 1e6)] for k, v in g["ms"].items()]))
    return "\n".join(out)


def wasm_section(data):
    """Issue 12: the WebAssembly modules' sizes, as built when the run ran."""
    w = data.get("wasm")
    if w is None:
        return "Not recorded by this run."
    rows = []
    for name, label in (("jalapenojson-reader.wasm", "reader only"), ("jalapenojson.wasm", "reader and writer")):
        v = w.get(name)
        rows.append(["`js/dist/%s` (%s)" % (name, label)] +
                    (["not built (`make js`)"] * 3 if not v else
                     ["{:,}".format(v["raw"]), "{:,}".format(v["gzip9"]), "{:,}".format(v["br11"])]))
    return table(["module", "bytes", "gzip -9", "brotli -q 11"], rows)


def results_md(data):
    res = Results(data)
    parts = ["# Benchmark results\n",
             "Generated by `bench/run.sh` from the run described below; do not edit by hand. "
             "What is compared, on what data and how is in [README.md](README.md); the chart of the "
             "speed ratios is [chart.svg](chart.svg).\n",
             "## Machine and versions\n", machine_section(data), "",
             "## Targets\n", targets_section(res), "",
             "### The full scan against the floor the issue measured\n", issue_floor_section(res), "",
             "### What the floor targets leave for reading\n", budget_section(res), "",
             "### Where the time beyond the floor goes, and the least it can be\n", spent_section(res), "",
             "![speed ratios of jalapenojson against each peer](chart.svg)\n",
             "### The issue's reference numbers next to this run\n", reference_section(res), "",
             "## Sizes\n", "Raw, then compressed as a server sends it (gzip -6, brotli -q 5 and -q 11). "
             "jj ÷ JSON below 100% means jalapenojson is smaller.\n", sizes_section(res),
             "## C: the core reader against the JSON parsers\n",
             "Time of one run: parse plus the task; the fastest of at least 15 runs and 500 ms "
             "after a 200 ms warm-up, median (min, max) over %d rounds, one process per number. "
             "Every run's result was checked against the expected checksum. Ratios above 1× mean "
             "jalapenojson is faster. **The JSON parsers hand dates back as unchecked strings; "
             "jalapenojson checks every date it reads (calendar included).**\n" % data["rounds"]]
    readers = ("cjson", "simdjson", "yyjson", "jj")
    for rows in data["rows"]:
        for s in ("repetitive", "entropy"):
            t = speed_table(res, "c", s, rows, ("all", "values", "price", "convert", "city", "middle", "count",
                                                    "stage1", "write"),
                            readers,
                            ("jj",))
            if t:
                parts += ["### %s, %s rows\n" % (SET_NAMES[s], fmt_rows(rows)), t, "", floor_line(res, s, rows), ""]
    values = values_section(res)
    if values:
        parts += ["### Read every value without the checksum\n", values, ""]
    paths = paths_section(res)
    if paths:
        parts += ["### The row scanner's paths\n", paths, ""]
    parts += ["## SQLite: the extension against SQLite's own ways\n",
              "One process per number; the statement is prepared before timing, a run steps it to "
              "the end reading every result column (the reset that frees is not timed). "
              "The native table, the floor and json1 run without the extension loaded. The floor "
              "hands text over NUL-terminated (length -1, SQLITE_STATIC), the cheapest way; "
              "\"floor, text with its length\" hands the same bytes over with their length, as a "
              "table handing out a document's bytes must, and SQLite then copies each text value "
              "that length() asks for (full scan only). The last column is each reader's time ÷ the "
              "floor's.\n"]
    for rows in res.all_rows:
        extra = [e for e in data.get("extra", []) if rows in e["rows"]]
        if extra:
            m = extra[0]["meta"]
            parts += ["**%s rows: measured by `bench/run.sh --rows %d`** (the SQLite reading tasks "
                      "alone), %s, commit %s, %d rounds, %.1f min%s.\n" % (
                          fmt_rows(rows), rows, m["date"], m["commit"], extra[0]["rounds"],
                          m["bench_minutes"], ", **a quick smoke run**" if extra[0].get("quick") else "")]
        for s in ("repetitive", "entropy"):
            t = speed_table(res, "sql", s, rows, ("scan", "price", "count", "since", "row"),
                            ("native", "floor", "floorlen", "json1", "jjfile", "jjmmap", "jjblob",
                             "jjrecord"),
                            ("jjfile", "jjblob"), floor=True)
            e = speed_table(res, "sql", s, rows, ("export",), ("json1", "jj"), ("jj",))
            # Reading a file into memory (the default, safe against files
            # truncated under the table) against mapping it (mmap=1).
            o = speed_table(res, "sql", s, rows, ("open",), ("jjfile", "jjmmap"), ("jjmmap",))
            if t or e or o:
                parts += ["### %s, %s rows\n" % (SET_NAMES[s], fmt_rows(rows))]
                parts += [x + "\n" for x in (t, e, o) if x]
    parts += ["## Scale: the record form, globs, the second statement on .gz, export memory\n",
              scale_section(res), "",
              "## WebAssembly module sizes\n", wasm_section(data), "",
              "## Where jalapenojson misses a target: profiles\n", profiles_section(data), ""]
    return "\n".join(parts).rstrip() + "\n"


# ---------------------------------------------------------------------------
# README.md's paragraph, from the text of RESULTS.md
# ---------------------------------------------------------------------------

README_BEGIN = "<!-- bench:begin (generated by bench/report.py from bench/RESULTS.md: do not edit) -->"
README_END = "<!-- bench:end -->"


def md_rows(text):
    """The cells of every table row of a markdown text (header rows too)."""
    for line in text.splitlines():
        if line.startswith("|") and line.endswith("|") and not line.startswith("|---"):
            yield [c.strip() for c in line[1:-1].split("|")]


def parse_time(s):
    """'653 µs', '3.37 ms', '1.2 s' (fmt_time's forms) -> nanoseconds."""
    value, unit = s.split()
    return float(value) * {"ns": 1, "µs": 1e3, "ms": 1e6, "s": 1e9}[unit]


def readme_paragraph(results_text, set_name="repetitive", rows=50000):
    """The README paragraph: RESULTS.md's numbers for `rows` rows of
    `set_name`, as RESULTS.md shows them (ratios as printed there)."""
    rows_text, set_text = fmt_rows(rows), SET_NAMES[set_name]
    measured, sizes, commit = {}, {}, None
    for cells in md_rows(results_text):
        if len(cells) == 7 and cells[1] == set_text and cells[2] == rows_text:
            m = re.match(r"(.+?) (\S+ \S+) vs (.+?) (\S+ \S+): \*\*(.+?)\*\*$", cells[3])
            if m:
                measured[(cells[0], m.group(1))] = m.groups()
        elif len(cells) == 6 and cells[0] == "%s-%d" % (set_name, rows):
            sizes[cells[1]] = cells[4]
        elif len(cells) == 2 and cells[0] == "commit":
            commit = cells[1]
    met = re.search(r"\*\*(\d+) of (\d+) targets met in this run\.\*\*", results_text)

    def target(name, jj="jalapenojson"):
        got = measured.get((name, jj))
        if not got:
            raise SystemExit("report.py: RESULTS.md has no target %r for %s %s rows" % (name, set_text, rows_text))
        return got  # (jj reader, jj time, peer, peer time, ratio)

    read = target("C, read every value: at least 2× the fastest JSON parser")
    row = target("C, one row: faster than simdjson")
    write = target("C, write every value: at least 3× cJSON's printer")
    price_json = target("SQLite, sum(price): at least 10× json_each with ->>", "jalapenojson, file")
    export = target("SQLite, export: jj_group at least 2× json_group_array(json_object())", "jj_group")
    if not (met and commit and all(k in sizes for k in ("raw", "gzip -6", "brotli -q 11"))):
        raise SystemExit("report.py: RESULTS.md lacks the commit, the targets line or the %s-%d sizes"
                         % (set_name, rows))
    floor_name = "SQLite, %s: at most %g× the floor's time"
    if (floor_name % ("full scan", 1.1), "jalapenojson, file") in measured:
        price_floor = target(floor_name % ("sum(price)", 1.5), "jalapenojson, file")
        scan_floor = target(floor_name % ("full scan", 1.1), "jalapenojson, file")
        count_floor = target(floor_name % ("count(*)", 2.0), "jalapenojson, file")
        return (
            "From the run in [bench/RESULTS.md](bench/RESULTS.md) (commit %s, %s %s rows; ratios within "
            "that one run): the document is %s of the JSON's size raw, %s after gzip -6 and %s after "
            "brotli -q 11; the C reader reads every value %s as fast as %s and the middle row %s; the "
            "writer is %s as fast as cJSON's printer; in SQLite, `sum(price)` over the typed table is %s "
            "as fast as `json_each` with `->>`; against the floor (a do-nothing virtual table over the "
            "same rows, what SQLite itself spends) it takes %s the floor's time, a full scan %s and "
            "`count(*)` %s; `jj_group` exports %s as fast as `json_group_array(json_object(...))`. %s of "
            "the %s targets are met in this run: RESULTS.md marks the missed ones, and bench/README.md "
            "says why they are missed."
            % (commit[:7], rows_text, set_text, sizes["raw"], sizes["gzip -6"], sizes["brotli -q 11"],
               read[4], read[2], row[4] + " as fast" + ("" if row[2] == read[2] else " as " + row[2]),
               write[4], price_json[4], price_floor[4].replace(" its time", ""),
               scan_floor[4].replace(" its time", ""), count_floor[4].replace(" its time", ""),
               export[4], met.group(1), met.group(2)))
    # A RESULTS.md from before the floor (issue 13): the native table.
    price_native = target("SQLite, sum(price): within 2× of the native table", "jalapenojson, file")
    scan_native = target("SQLite, full scan: within 2× of the native table", "jalapenojson, file")

    def times_slower(t):  # jalapenojson's time in units of the peer's
        return "%.1f×" % (parse_time(t[1]) / parse_time(t[3]))

    return (
        "From the run in [bench/RESULTS.md](bench/RESULTS.md) (commit %s, %s %s rows; ratios within "
        "that one run): the document is %s of the JSON's size raw, %s after gzip -6 and %s after "
        "brotli -q 11; the C reader reads every value %s as fast as %s and the middle row %s; the writer is %s as fast as cJSON's printer; in SQLite, `sum(price)` over the "
        "typed table is %s as fast as `json_each` with `->>` and takes %s the time of a native "
        "in-memory table, a full scan %s that time, and `jj_group` exports %s as fast as "
        "`json_group_array(json_object(...))`. %s of the %s targets are met in this run: RESULTS.md "
        "marks the missed ones, and bench/README.md says why they are missed."
        % (commit[:7], rows_text, set_text, sizes["raw"], sizes["gzip -6"], sizes["brotli -q 11"],
           read[4], read[2], row[4] + " as fast" + ("" if row[2] == read[2] else " as " + row[2]), write[4], price_json[4], times_slower(price_native),
           times_slower(scan_native), export[4], met.group(1), met.group(2)))


def readme_with_paragraph(readme, paragraph):
    """README.md's text with the paragraph between the markers replaced."""
    begin, end = readme.find(README_BEGIN), readme.find(README_END)
    if begin < 0 or end < begin:
        raise SystemExit("report.py: README.md has no %s ... %s markers" % (README_BEGIN, README_END))
    return readme[:begin] + README_BEGIN + "\n\n" + paragraph + "\n\n" + readme[end:]


def readme_update(check=False):
    """Write README.md's paragraph from bench/RESULTS.md, or with check=True
    only compare; returns 0 when README.md is (now) current."""
    with open(os.path.join(BENCH, "RESULTS.md"), encoding="utf-8") as f:
        paragraph = readme_paragraph(f.read())
    with open(README, encoding="utf-8") as f:
        readme = f.read()
    want = readme_with_paragraph(readme, paragraph)
    if want == readme:
        return 0
    if check:
        print("README.md's benchmark paragraph is not the one bench/RESULTS.md gives; it should be:\n"
              + paragraph + "\n(run python3 bench/report.py --readme)")
        return 1
    with open(README, "w", encoding="utf-8") as f:
        f.write(want)
    print("bench: wrote README.md's benchmark paragraph")
    return 0


def main():
    if sys.argv[1:] == ["--readme"]:
        sys.exit(readme_update())
    if sys.argv[1:] == ["--check-readme"]:
        sys.exit(readme_update(check=True))
    if sys.argv[1:] not in ([], ["--quick"]):
        sys.exit("usage: bench/report.py [--quick | --readme | --check-readme]")
    quick = sys.argv[1:] == ["--quick"]
    main_results = os.path.join(OUT, "results%s.json" % ("-quick" if quick else ""))
    if not os.path.exists(main_results):   # e.g. `make bench-1m` before any `make bench`
        print("bench: %s is missing, so RESULTS.md is left as it is; the --rows results wait in %s "
              "for the next bench/run.sh" % (os.path.relpath(main_results, ROOT), os.path.relpath(OUT, ROOT)))
        return
    data = load(quick)
    md, svg = ((os.path.join(OUT, "RESULTS-quick.md"), os.path.join(OUT, "chart-quick.svg")) if quick else
               (os.path.join(BENCH, "RESULTS.md"), os.path.join(BENCH, "chart.svg")))
    text = results_md(data)
    if quick:   # a smoke run: its paragraph is checked, README.md is left alone
        text = text.replace("(chart.svg)", "(chart-quick.svg)")
        readme_paragraph(text)
    with open(md, "w") as f:
        f.write(text)
    with open(svg, "w") as f:
        f.write(chart_svg(data))
    print("bench: wrote %s and %s" % (os.path.relpath(md, ROOT), os.path.relpath(svg, ROOT)))
    if not quick:
        readme_update()


if __name__ == "__main__":
    main()
