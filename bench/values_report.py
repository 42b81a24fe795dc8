"""
values_report.py — the part of RESULTS.md that sets the C "read every
value" target beside the same reading with no checksum of the text.

"all" keeps the benchmark's CRC-32 of every text value (bench.h), the same
function on both sides; "values" reads the same values the same way and
only counts the texts and adds their lengths (c_jj.c's read_row,
c_simdjson.cpp's add_row<false>).  The difference is the checksum's time
on each side: the same bytes and function, but paid on top of each
reader's own time, so it narrows the ratio of two readers without being
either one's reading.  Called by report.py.
"""
from results import SET_NAMES, fmt_ratio, fmt_rows, fmt_time, reader_name, table, targets

def _rows(res):
    """The every-value targets of the run that have both sides' `values`:
    (target, jj all, peer all, jj values, peer values)."""
    out = []
    for t in targets(res):
        group, s, rows, task, _ = t["key"]
        if (group, task) != ("c", "all") or t["jj_ns"] is None or t["peer_ns"] is None:
            continue
        jv = res.median_ns("c", s, rows, "values", "jj")
        pv = res.median_ns("c", s, rows, "values", t["peer"])
        if jv is not None and pv is not None:
            out.append((t, t["jj_ns"], t["peer_ns"], jv, pv))
    return out


def values_summary(res):
    """One sentence for the targets section when the every-value target is
    missed and both sides were measured without the checksum, else ""."""
    missed = [r for r in _rows(res) if r[0]["met"] is False]
    if not missed:
        return ""
    parts = []
    for t, ja, pa, jv, pv in missed:
        parts.append("%s: %s with the checksum, %s with none on either side (%s), the "
                     "checksum taking %s of jalapenojson's %s" % (
                         SET_NAMES[t["set"]], fmt_ratio(pa / ja), fmt_ratio(pv / jv),
                         ("%s reached" if pv / jv >= t["need"] else "short of %s either way")
                         % t["need_text"].replace("≥ ", ""),
                         fmt_time(ja - jv), fmt_time(ja)))
    return ("The every-value target this run misses, set beside the same reading with no "
            "checksum (\"Read every value without the checksum\" below): %s." % "; ".join(parts))


def values_section(res):
    rows_out = []
    for t, ja, pa, jv, pv in _rows(res):
        rows = t["rows"]
        rows_out.append([SET_NAMES[t["set"]], fmt_rows(rows), reader_name("all", t["peer"]),
                         "%s vs %s: %s" % (fmt_time(ja), fmt_time(pa), fmt_ratio(pa / ja)),
                         "%s vs %s: %s" % (fmt_time(jv), fmt_time(pv), fmt_ratio(pv / jv)),
                         "%.1f ns (%.0f%% of its time)" % ((ja - jv) / rows, 100.0 * (ja - jv) / ja),
                         "%.1f ns (%.0f%% of its time)" % ((pa - pv) / rows, 100.0 * (pa - pv) / pa)])
    if not rows_out:
        return ""
    return "\n".join([
        "The C target \"read every value\" is judged on `all`, which sums every text value into "
        "one CRC-32 (bench.h, slice-by-8, the same function on both sides) so that each run's "
        "result is checked against the expected one. `values` reads the same values with the "
        "same calls and only counts the texts and adds their lengths: the texts are still found, "
        "unescaped where they must be and checked (jalapenojson checks the dates' calendar too), "
        "but not summed. The difference is the checksum's time, a row, on each side: one chain of "
        "table lookups through every text byte, whose loops turn as many times as each text's "
        "length asks. It is paid on top of each reader's own time, so it narrows the ratio of the "
        "two without being either one's reading; it is not the same on both sides (the same "
        "function over the same bytes, but how much of it a reader's own work hides differs). Where "
        "the target is missed, the profiles below show it in jalapenojson's run as bench.h's "
        "add_row.\n",
        table(["set", "rows", "peer", "read every value (`all`: jj vs peer, ratio)",
               "the same, no checksum (`values`)", "the checksum, jalapenojson, a row",
               "the checksum, peer, a row"], rows_out)])
