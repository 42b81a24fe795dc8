#!/usr/bin/python3
"""report.py - bench/data/out/results.json -> bench/RESULTS.md and bench/chart.svg.

    bench/report.py          RESULTS.md and chart.svg (bench/run.sh runs this)
    bench/report.py --quick  a smoke run's results-quick.json ->
                             bench/data/out/RESULTS-quick.md and chart-quick.svg

Everything in RESULTS.md is computed from the results of one run (and of a
`bench/run.sh --rows N` run for the SQLite tasks at N rows, which RESULTS.md
shows with its own date and commit): the times (median, min and max over
the rounds), throughput, the ratios against each peer and the sizes.
"""
import html
import os
import statistics
import sys

sys.dont_write_bytecode = True   # no __pycache__ in bench/
from chart import chart_svg  # noqa: E402
from results import (BENCH, JSON_PARSERS, OUT, ROOT, SET_NAMES, SIZE_METHODS, TASK_NAMES,  # noqa: E402
                     READER_NAMES, Results, fmt_mbs, fmt_ratio, fmt_rows, fmt_time, fmt_times, load,
                     reader_name, table)

# ---------------------------------------------------------------------------
# RESULTS.md
# ---------------------------------------------------------------------------

def speed_table(res, group, set_name, rows, tasks, readers, jj_readers, floor=False):
    """One table per (set, rows): every task, every reader; with floor=True
    a last column of each reader's time ÷ the floor's."""
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


# The comparisons the summary table shows, at 50,000 rows and more: C
# tasks against the JSON parsers, the typed table against the floor (time
# ratio) and against json1, and the export.
FLOOR_TASKS = (("scan", "full scan"), ("price", "sum(price)"), ("count", "count(*)"),
               ("since", "WHERE joined >= date"))


def summary_rows(res):
    """(comparison, group, set, rows, task, jj reader, peer, time ratio?)
    for every comparison this run measured both sides of."""
    out = []
    for rows in [r for r in res.all_rows if r >= 50000]:
        for s in ("repetitive", "entropy"):
            if rows in res.data["rows"]:   # a --rows run measures SQLite only
                measured = [(res.median_ns("c", s, rows, "all", p), p) for p in JSON_PARSERS
                            if res.median_ns("c", s, rows, "all", p) is not None]
                fastest = min(measured)[1] if measured else "simdjson"
                out += [("C, read every value, against the fastest JSON parser measured", "c", s, rows,
                         "all", "jj", fastest, False),
                        ("C, one number column (sum of price)", "c", s, rows, "price", "jj", "simdjson", False),
                        ("C, one text column (CRC-32 of city)", "c", s, rows, "city", "jj", "simdjson", False),
                        ("C, the middle row", "c", s, rows, "middle", "jj", "simdjson", False),
                        ("C, write every value", "c", s, rows, "write", "jj", "cjson", False)]
            for task, label in FLOOR_TASKS:
                for jr in ("jjfile", "jjblob"):
                    out.append(("SQLite, %s, against the floor" % label, "sql", s, rows, task, jr, "floor", True))
            for task, label in FLOOR_TASKS[:2]:
                for jr in ("jjfile", "jjblob"):
                    out.append(("SQLite, %s, against json1" % label, "sql", s, rows, task, jr, "json1", False))
            out.append(("SQLite, export", "sql", s, rows, "export", "jj", "json1", False))
    return [r for r in out if res.get(*r[1:6]) and res.get(*(r[1:5] + (r[6],)))]


def summary_section(res):
    body = []
    for name, group, s, rows, task, jr, peer, time_ratio in summary_rows(res):
        jj = res.median_ns(group, s, rows, task, jr)
        p = res.median_ns(group, s, rows, task, peer)
        ratio = (fmt_times(jj / p) + " its time") if time_ratio else fmt_ratio(p / jj)
        body.append([name, SET_NAMES[s], fmt_rows(rows), "%s %s vs %s %s: **%s**" % (
            reader_name(task, jr), fmt_time(jj), reader_name(task, peer), fmt_time(p), ratio)])
    return table(["comparison", "set", "rows", "medians (speed ratio = peer time ÷ jj time; "
                  "against the floor: jj time ÷ floor time)"], body)


def paths_section(res):
    """jalapenojson's C tasks with the row scanner forced to SSE2 and to the
    portable scalar code (c_jj's JJ_SIMD) beside its default, each against
    simdjson."""
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
            "run in brackets.\n\n" +
            table(["set", "rows", "task", "jalapenojson (default)", "SSE2 forced", "scalar forced"], body))


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


def fmt_mb(kb):
    return "{:,.1f} MB".format(kb * 1024 / 1e6)


def scale_section(res):
    """The record form against the typed table and json_each at 1,000,000
    rows, globs and the .gz second statement
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
    """The WebAssembly modules' sizes, as built when the run ran."""
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
             "What is compared, on what data and how is in [README.md](README.md).\n",
             "## Machine and versions\n", machine_section(data), "",
             "## Summary\n",
             "The medians of the tables below, side by side: a speed ratio is the peer's time ÷ "
             "jalapenojson's (above 1× jalapenojson is faster); against the floor, a do-nothing "
             "virtual table over the same rows (`bench/sqlite_floor.c`: what SQLite itself spends "
             "on any virtual table), the ratio is jalapenojson's time ÷ the floor's (1× would be "
             "the least a virtual table can cost).\n",
             summary_section(res), "",
             "![speed ratios of jalapenojson against each peer](chart.svg)\n",
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
              "## WebAssembly module sizes\n", wasm_section(data), ""]
    return "\n".join(parts).rstrip() + "\n"


def main():
    if sys.argv[1:] not in ([], ["--quick"]):
        sys.exit("usage: bench/report.py [--quick]")
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
    if quick:
        text = text.replace("(chart.svg)", "(chart-quick.svg)")
    with open(md, "w") as f:
        f.write(text)
    with open(svg, "w") as f:
        f.write(chart_svg(data))
    print("bench: wrote %s and %s" % (os.path.relpath(md, ROOT), os.path.relpath(svg, ROOT)))


if __name__ == "__main__":
    main()
