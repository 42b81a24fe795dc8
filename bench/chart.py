#!/usr/bin/python3
"""chart.py - bench/chart.svg from one run's results (report.py writes it):
the speed ratios of jalapenojson against each peer at 50,000 rows (log
scale), and a second panel of the SQLite tasks' times against the floor:
native table, floor and jalapenojson side by side.
"""
import html
import math

from results import JSON_PARSERS, READER_NAMES, SET_NAMES, TASK_NAMES, Results, fmt_ratio, fmt_rows, fmt_times

SET_COLORS = {"repetitive": "#3b6ea5", "entropy": "#d08a2c"}
FLOOR_TASKS = (("scan", "full scan"), ("price", "sum(price)"), ("count", "count(*)"),
               ("since", "WHERE joined >= date"))

def chart_rows(res, rows):
    """(label, [(set, ratio)]) per comparison at `rows` rows: the speed
    ratio of jalapenojson against one peer on each row set."""
    sets = ("repetitive", "entropy")
    peers_c = [p for p in JSON_PARSERS if any(res.get("c", s, rows, "all", p) for s in sets)]
    comps = []  # (label, group, task, jj reader, peer)
    for task in ("all", "price", "city", "middle"):
        for p in peers_c:
            comps.append(("C %s vs %s" % (TASK_NAMES[("c", task)], READER_NAMES[p].split(" (")[0]),
                          "c", task, "jj", p))
    comps.append(("C write every value vs cJSON", "c", "write", "jj", "cjson"))
    for task in ("scan", "price", "since", "row"):   # against the floor: the second panel
        comps.append(("SQLite %s vs json1" % TASK_NAMES[("sql", task)], "sql", task, "jjfile", "json1"))
    comps.append(("SQLite export vs json_group_array", "sql", "export", "jj", "json1"))
    out = []
    for label, g, task, jr, p in comps:
        bars = []
        for s in sets:
            jj, peer = res.median_ns(g, s, rows, task, jr), res.median_ns(g, s, rows, task, p)
            if jj and peer:
                bars.append((s, peer / jj))
        if bars:
            out.append((label, bars))
    return out


FLOOR_READERS = (("native", "native table", "#5c7fa3"), ("floor", "floor (do-nothing vtab)", "#555555"),
                 ("jjfile", "jalapenojson, file", "#2e7d32"), ("jjblob", "jalapenojson, blob", "#6aa86e"))


def floor_chart_rows(res, rows):
    """(label, [(reader, time ÷ floor's time)]) per SQLite task and row
    set: native, floor and jalapenojson side by side."""
    out = []
    for task, label in FLOOR_TASKS:
        for s in ("repetitive", "entropy"):
            f = res.median_ns("sql", s, rows, task, "floor")
            if not f:
                continue
            bars = []
            for r, _, _ in FLOOR_READERS:
                m = res.median_ns("sql", s, rows, task, r)
                if m:
                    bars.append((r, m / f))
            out.append(("%s, %s" % (label, SET_NAMES[s]), bars))
    return out


def floor_panel(groups, top, left, width, rows):
    """The chart's second panel: SQLite times ÷ the floor's, linear scale."""
    e = html.escape
    hi = max([r for _, bars in groups for _, r in bars] + [2.0]) * 1.08
    bar_h = 9

    def x(v):
        return left + width * v / hi

    svg = ['<text x="10" y="%d" font-size="15" font-weight="bold">SQLite, %s rows: time ÷ the floor\'s time '
           '(lower is faster; the floor = 1)</text>' % (top - 22, fmt_rows(rows)),
           '<text x="10" y="%d" fill="#444">blue: native table; dark grey: the floor (a do-nothing virtual '
           'table over the same rows); green: jalapenojson, file and blob</text>' % (top - 6)]
    bottom = top + 8 + len(groups) * (len(FLOOR_READERS) * bar_h + 10)
    t = 0.0
    while t <= hi:
        svg.append('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="%s"/>' % (
            x(t), top + 2, x(t), bottom - 6, "#888" if t == 1 else "#e4e4e4"))
        svg.append('<text x="%.1f" y="%d" text-anchor="middle" fill="#555">%g×</text>' % (x(t), bottom + 8, t))
        t += 0.5 if hi <= 4 else 1.0 if hi <= 10 else 2.0
    y = top + 8
    for label, bars in groups:
        svg.append('<text x="%d" y="%d" text-anchor="end">%s</text>' % (left - 8, y + 2 * bar_h + 3, e(label)))
        for i, (r, v) in enumerate(bars):
            by = y + i * bar_h
            color = dict((k, c) for k, _, c in FLOOR_READERS)[r]
            svg.append('<rect x="%.1f" y="%d" width="%.1f" height="%d" fill="%s"><title>%s, %s: %s</title></rect>' % (
                x(0), by, max(x(v) - x(0), 1), bar_h - 1, color, e(label), e(READER_NAMES[r]), fmt_times(v)))
            tx = x(v)
            svg.append('<text x="%.1f" y="%d" font-size="9" fill="#222">%s %s</text>' % (
                tx + 3, by + bar_h - 1, fmt_times(v), e(READER_NAMES[r].split(" (")[0])))
        y += len(FLOOR_READERS) * bar_h + 10
    return svg


def chart_svg(data, rows=50000):
    res = Results(data)
    comps = chart_rows(res, rows)
    ratios = [r for _, bars in comps for _, r in bars]
    lo = 10 ** math.floor(math.log10(min(ratios + [0.5])))
    hi = 10 ** math.ceil(math.log10(max(ratios + [10.0])))
    left, width, bar_h, gap, top = 330, 560, 11, 10, 70
    floor_groups = floor_chart_rows(res, rows)
    floor_h = (70 + len(floor_groups) * (len(FLOOR_READERS) * 9 + 10)) if floor_groups else 0
    panel_bottom = top + len(comps) * (2 * bar_h + gap) + 15   # the first panel's axis
    height = panel_bottom + 45 + floor_h

    def x(v):
        return left + width * (math.log10(v) - math.log10(lo)) / (math.log10(hi) - math.log10(lo))

    e = html.escape
    svg = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" '
           'font-family="Helvetica, Arial, sans-serif" font-size="12">' % (left + width + 90, height,
                                                                          left + width + 90, height),
           '<rect width="100%" height="100%" fill="white"/>',
           '<text x="10" y="22" font-size="15" font-weight="bold">jalapenojson speed ÷ peer speed, '
           '%s rows (log scale; right of 1× = jalapenojson faster)</text>' % fmt_rows(rows),
           '<text x="10" y="42" fill="#444">bars: upper (blue) repetitive, lower (orange) high-entropy '
           'rows; SQLite: the table over the file</text>']
    v = lo
    while v <= hi * 1.0001:   # grid at 1, 2, 5 per decade; labels at 10^k, 2 and 0.5
        for mult in (1, 2, 5):
            t = v * mult
            if lo <= t <= hi:
                xx = x(t)
                svg.append('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="%s"/>' % (
                    xx, top - 8, xx, panel_bottom, "#888" if abs(t - 1) < 1e-9 else "#e4e4e4"))
                if mult == 1 or abs(t - 2) < 1e-9 or abs(t - 0.5) < 1e-9:
                    svg.append('<text x="%.1f" y="%d" text-anchor="middle" fill="#555">%s×</text>' % (
                        xx, panel_bottom + 15, "{:,}".format(int(t)) if t >= 1 else "%g" % t))
        v *= 10
    y = top
    for label, bars in comps:
        svg.append('<text x="%d" y="%d" text-anchor="end">%s</text>' % (left - 8, y + bar_h + 4, e(label)))
        for i, (s, r) in enumerate(bars):
            by = y + i * bar_h
            x0, x1 = x(lo), x(min(max(r, lo), hi))
            svg.append('<rect x="%.1f" y="%d" width="%.1f" height="%d" fill="%s"><title>%s, %s: %s</title></rect>' % (
                x0, by, max(x1 - x0, 1), bar_h - 1, SET_COLORS[s], e(label), SET_NAMES[s], fmt_ratio(r)))
            tx = x1
            svg.append('<text x="%.1f" y="%d" font-size="10" fill="#222">%s</text>' % (
                tx + 3, by + bar_h - 2, fmt_ratio(r)))
        y += 2 * bar_h + gap
    if floor_groups:
        svg += floor_panel(floor_groups, panel_bottom + 75, left, width, rows)
    svg.append('<text x="10" y="%d" fill="#444">Generated by bench/run.sh (%s, commit %s); '
               'numbers in RESULTS.md.</text>' % (height - 8, e(data["meta"]["date"]), e(data["meta"]["commit"][:12])))
    svg.append("</svg>")
    return "\n".join(svg) + "\n"
