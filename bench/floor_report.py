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


# The typed table's time beyond the floor taken apart, from the same run:
# the row check (C `count`), locating the value with the cursor's call a
# row, converting it (C `convert`: the prices alone; for the full scan C
# `values` less the check: all seven located and converted), and the rest,
# the table around the cursor (SQLite's calls beyond the floor's, the
# values handed over, text copied).  The least is what checking the rows
# and converting the values alone take.
SPENT = tuple(t for t in FLOOR_TARGETS if t[0] in FLOOR_WORK)


def spent(res):
    """Each floor target of SPENT taken apart (ns for the whole run):
    dicts of task, label, times, set, rows, left, beyond, check, locate
    (None for the full scan), conv, around, least."""
    out = []
    for rows in res.data["rows"]:   # the C tasks run at the main run's sizes only
        if rows < 50000:
            continue
        for s in ("repetitive", "entropy"):
            for task, label, times in SPENT:
                floor = res.median_ns("sql", s, rows, task, "floor")
                typed = res.median_ns("sql", s, rows, task, "jjfile")
                check = res.median_ns("c", s, rows, "count", "jj")
                read = res.median_ns("c", s, rows, "values" if task == "scan" else "price", "jj")
                conv = (res.median_ns("c", s, rows, "convert", "jj") if task == "price"
                        else None if read is None or check is None else read - check)
                if None in (floor, typed, check, read, conv):
                    continue
                out.append({"task": task, "label": label, "times": times, "set": s, "rows": rows,
                            "left": floor * (times - 1), "beyond": typed - floor, "check": check,
                            "locate": None if task == "scan" else read - check - conv,
                            "conv": conv, "around": typed - floor - read, "least": check + conv})
    return out


def least_summary(res):
    """One sentence for the targets section: the least against what each
    missed floor target leaves, or "" when this run cannot say."""
    parts = []
    for task, label, times in SPENT:
        r = [x["least"] / x["left"] for x in spent(res) if x["task"] == task]
        if r:
            parts.append("%s what the %s target (%g×) leaves" % (
                fmt_times(min(r)) if min(r) == max(r) else "%s-%s" % (fmt_times(min(r)), fmt_times(max(r))),
                label, times))
    if not parts:
        return ""
    return ("The floor targets this run misses on the full scan and sum(price) are taken apart "
            "below (\"Where the time beyond the floor goes, and the least it can be\"): checking "
            "the rows and converting the values alone, measured at their fastest in C at 50,000 "
            "rows, take %s." % " and ".join(parts))


def spent_section(res):
    rows_out = []
    for x in spent(res):
        rows = x["rows"]

        def ns(v):
            return "%.1f ns" % (v / rows)
        if x["least"] > x["left"]:
            verdict = "%s: more than the target leaves" % fmt_times(x["least"] / x["left"])
        else:
            verdict = "%s: %s a row left for locating the value and the table's calls (now %s)" % (
                fmt_times(x["least"] / x["left"]), ns(x["left"] - x["least"]),
                ns(x["beyond"] - x["least"]))
        rows_out.append(["%s: at most %g× the floor" % (x["label"], x["times"]), SET_NAMES[x["set"]],
                         fmt_rows(rows), ns(x["left"]), ns(x["beyond"]), ns(x["check"]),
                         "-" if x["locate"] is None else ns(x["locate"]), ns(x["conv"]),
                         ns(x["around"]), ns(x["least"]), verdict])
    if not rows_out:
        return "This run has no C measurements to take the floor targets apart with."
    return "\n".join([
        "The typed table's time beyond the floor, a row, taken apart with the C tasks of the same "
        "run (each the median of its rounds, so the parts are close, not exact, and the table "
        "around the cursor is what is left when the others are taken off: it carries their noise, "
        "and a few nanoseconds below zero mean it is lost in it): the row check (`count`: every row's "
        "structure checked, which issue 13 requires before any of its values is returned), "
        "locating the value in its row with the cursor's call a row (`price` less the check and "
        "the conversion), converting it (`convert`: each price's text, found before timing, "
        "turned into its correctly rounded double in a loop that does nothing else; for the full "
        "scan, `values` less the check: all seven values located and converted, the texts' "
        "UTF-8 and the date's calendar checked, no checksum), and the table around the cursor "
        "(SQLite calling into the table beyond what its calls into the floor cost, the values "
        "handed over and, on the full scan, each text copied as SQLite needs it: ext/column.c). "
        "The least is the check and the conversion alone, what this reader cannot do without "
        "whatever else is made faster; the last column sets it against what the target leaves. "
        "Where it is more, the target cannot be met by this reader's check and conversion, "
        "the two measured at their fastest, with nothing around them.\n",
        table(["target", "set", "rows", "left beyond the floor", "the typed table beyond the floor",
               "the row check", "locating the value, the cursor's call", "converting",
               "the table around the cursor", "the least: check and conversion",
               "the least ÷ what is left"], rows_out)])
