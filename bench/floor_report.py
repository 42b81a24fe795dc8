"""
floor_report.py — the sections of RESULTS.md that set the SQLite targets
against the floor (the do-nothing virtual table of sqlite_floor.c) apart:
what each floor target leaves for reading, beside the C readers and the
structure passes of the same run, and the full scan against the floor the
issue measured.  Called by report.py.
"""
from results import FLOOR_TARGETS, SET_NAMES, fmt_rows, fmt_time, fmt_times, table


# What a target against the floor leaves for reading, next to what the C
# readers of the same run spend reading the same values with no SQLite at
# all: the full scan reads every value of a row (C: "all"), sum(price) one
# float (C: "price").  count(*) reads no value, so it has no C twin.
FLOOR_WORK = {"scan": "all", "price": "price"}


def budget_section(res):
    rows_out = []
    for rows in res.data["rows"]:   # the C tasks run at the main run's sizes only
        for s in ("repetitive", "entropy"):
            for task, label, times in FLOOR_TARGETS:
                if task not in FLOOR_WORK:
                    continue
                floor = res.median_ns("sql", s, rows, task, "floor")
                typed = res.median_ns("sql", s, rows, task, "jjfile")
                jj = res.median_ns("c", s, rows, FLOOR_WORK[task], "jj")
                simd = res.median_ns("c", s, rows, FLOOR_WORK[task], "simdjson")
                if None in (floor, typed, jj, simd) or rows < 50000:
                    continue
                left = floor * (times - 1)

                def share(ns):
                    return ("%s (%.1f ns a row): %.2f× what is left" % (fmt_time(ns), ns / rows, ns / left)
                            if ns is not None else "-")
                rows_out.append([
                    "%s: at most %g× the floor" % (label, times), SET_NAMES[s], fmt_rows(rows),
                    "%s (%.0f ns a row)" % (fmt_time(left), left / rows),
                    "%s (%.0f ns a row)" % (fmt_time(typed - floor), (typed - floor) / rows),
                    "%s: %.1f× what is left" % (fmt_time(jj), jj / left),
                    "%s: %.1f× what is left" % (fmt_time(simd), simd / left),
                    share(res.median_ns("c", s, rows, "count", "jj")),
                    share(res.median_ns("c", s, rows, "stage1", "simdjson"))])
    if not rows_out:
        return "This run has no C measurements to set against the floor targets."
    out = ["A target against the floor leaves the typed table the floor's time × (N − 1) for "
           "everything the floor does not do: check each row's structure and turn its bytes "
           "into values (the floor holds them ready). The C readers of the same run do that "
           "reading alone, with no SQLite around it: jalapenojson's core and simdjson reading "
           "the same values of the same rows (C: read every value for the full scan, one "
           "number column for sum(price)). Where both need more than the target leaves, the "
           "target asks the table to read the rows faster than the fastest C reader measured "
           "here reads them, with SQLite's own work already paid for by the floor: that time "
           "is the reading itself, not overhead the table could remove. The C tasks also keep "
           "their checksum: sum(price) only adds the doubles, but read every value takes a "
           "CRC-32 of each text value, about a quarter of jalapenojson's instructions there "
           "(callgrind, 50,000 rows, both sets), so for the full scan the C times overstate "
           "the reading by up to that much. The last two columns are the structure alone, no "
           "value read: jalapenojson checking every row (`count`, the check a row must pass "
           "before any of its values is returned; count(*)'s loop) and simdjson's stage 1 "
           "(`stage1`: `parser.iterate()` alone, the structural index of the whole document, "
           "no row walked), the least that parser spends before it can find a value. Where "
           "stage 1 alone takes more than the target leaves, the fastest JSON parser measured "
           "here cannot find where the rows' values lie in the time the target allows for "
           "finding and reading them; what jalapenojson's check leaves of the target is what "
           "remains for writing the values' spans, converting them and handing them to SQLite "
           "(bench/README.md takes sum(price) apart). count(*) reads no value; its C twin is "
           "jalapenojson's `count`, and its remaining time is the row check (profiles below).\n",
           table(["target", "set", "rows", "time left beyond the floor",
                  "the typed table (file) beyond the floor", "C: jalapenojson reads the same",
                  "C: simdjson reads the same", "C: jalapenojson only checks the rows",
                  "C: simdjson stage 1 alone"],
                 rows_out)]
    return "\n".join(out)


def issue_floor_section(res):
    """The full scan against the floor as the issue measured it: its
    do-nothing table took 2.04-2.06x the native table's time on the full
    scan, as the floor handing text over with its length (floorlen) does;
    the targets are judged against the cheaper floor (text NUL-terminated,
    SQLITE_STATIC), which no virtual table can beat."""
    rows_out = []
    for rows in res.all_rows:
        for s in ("repetitive", "entropy"):
            native = res.median_ns("sql", s, rows, "scan", "native")
            floor = res.median_ns("sql", s, rows, "scan", "floor")
            flen = res.median_ns("sql", s, rows, "scan", "floorlen")
            if None in (native, floor, flen):
                continue
            row = [SET_NAMES[s], fmt_rows(rows), fmt_times(flen / native), fmt_times(floor / native)]
            for r in ("jjfile", "jjblob"):
                jm = res.median_ns("sql", s, rows, "scan", r)
                row.append("-" if jm is None else "%s the issue's floor, %s the cheapest" % (
                    fmt_times(jm / flen), fmt_times(jm / floor)))
            rows_out.append(row)
    if not rows_out:
        return ""
    return "\n".join([
        "Issue 13 measured its floor, a do-nothing virtual table, at 2.04-2.06× the native "
        "table's time on the full scan, and set the target at 1.1× that floor (jalapenojson was "
        "then at 1.2-1.26×). That time matches what a do-nothing table costs when it hands text over with "
        "its length (`floor, text with its length` in the SQLite tables): the full scan calls "
        "`length()`, which needs terminated text, so SQLite copies each value. The targets above "
        "are judged against a cheaper floor, which hands text over NUL-terminated and "
        "SQLITE_STATIC, so nothing is copied: no virtual table can do less, but one that hands "
        "out a document's own bytes (not followed by a NUL) cannot do that either. The full scan "
        "against both (time ÷ the floor's; sum(price), count(*) and WHERE read no text, so their "
        "floor is the same either way):\n",
        table(["set", "rows", "the issue's floor ÷ native", "the cheapest floor ÷ native",
               "jalapenojson, file", "jalapenojson, blob"], rows_out)])
