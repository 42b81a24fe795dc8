"""producers_child.py MANIFEST TMPDIR — the Python producers of
test_producers.py, run by the Python that has the module (BUILD/venv):
for each case of MANIFEST (JSON: rows, their JSON and CSV text, the
producers to run), the document and the InferenceWarnings of encode,
dump, from_json and from_csv; printed as one JSON list.

"python encode, dates as objects" gives encode the same rows with each
text that is a date a datetime.date, and each timestamp whose text a
datetime writes back unchanged an aware datetime: the module's own kinds
for them, which must make the same document as the text does.
"""
import base64
import datetime
import json
import re
import sys
import warnings

import jalapenojson as jj

# A timestamp as encode writes an aware datetime: the fewest fraction
# digits that hold its microseconds, Z for UTC.
TS = re.compile(r"(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)(?:\.(\d{0,5}[1-9]))?"
                r"(Z|[+-](?!00:00)\d\d:\d\d)")


def as_object(v):
    """A date's or timestamp's text as the datetime it spells, else v."""
    if not isinstance(v, str):
        return v
    if re.fullmatch(r"\d{4}-\d\d-\d\d", v):
        try:
            return datetime.date.fromisoformat(v)
        except ValueError:
            return v
    m = TS.fullmatch(v)
    if not m:
        return v
    y, mo, d, h, mi, s = (int(x) for x in m.group(1, 2, 3, 4, 5, 6))
    micro = int((m.group(7) or "").ljust(6, "0"))
    zone = m.group(8)
    tz = datetime.timezone.utc if zone == "Z" else datetime.timezone(
        (1 if zone[0] == "+" else -1) * datetime.timedelta(hours=int(zone[1:3]),
                                                           minutes=int(zone[4:6])))
    try:
        return datetime.datetime(y, mo, d, h, mi, s, micro, tzinfo=tz)
    except ValueError:
        return v


def revive(v, dates):
    if isinstance(v, dict) and len(v) == 1 and "$bytes" in v:
        return base64.b64decode(v["$bytes"])
    if isinstance(v, dict) and len(v) == 1 and "$bigint" in v:
        return int(v["$bigint"])
    if isinstance(v, list) and all(isinstance(x, dict) for x in v):
        return [row(r, dates) for r in v]
    return as_object(v) if dates else v


def row(r, dates):
    return {k: revive(v, dates) for k, v in r.items()}


def run(f):
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        try:
            doc = f()
        except Exception as e:
            return {"error": str(e)}
    return {"doc": doc.decode("utf-8"),
            "notes": [str(w.message) for w in seen if issubclass(w.category, jj.InferenceWarning)]}


def dump(rows, path):
    jj.dump(rows, path)
    with open(path, "rb") as f:
        return f.read()


def main():
    with open(sys.argv[1], encoding="utf-8") as f:
        manifest = json.load(f)
    out = []
    for c in manifest:
        rows = [row(r, False) for r in c["rows"]]
        got = {}
        for p in c["producers"]:
            if p == "python encode":
                got[p] = run(lambda: jj.encode(rows))
            elif p == "python encode, dates as objects":
                dated = [row(r, True) for r in c["rows"]]
                got[p] = run(lambda: jj.encode(dated))
            elif p == "python dump":
                got[p] = run(lambda: dump(rows, sys.argv[2] + "/dump.jj"))
            elif p == "python from_json":
                got[p] = run(lambda: jj.from_json(c["json"]))
            elif p == "python from_csv":
                got[p] = run(lambda: jj.from_csv(c["csv"], delimiter=",", booleans=c["booleans"]))
        out.append(got)
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
