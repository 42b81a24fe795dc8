"""from_json() / from_csv() with dates and timestamps in other spellings:
the spellings detected (with their InferenceWarning), the ambiguity of day
and month, date_format= and timestamp_format= (a str or a list of str,
"iso" to turn detection off), a schema's d reading them, and the errors
of a bad pattern or a bad keyword."""
import datetime as dt
import warnings

import pytest

import jalapenojson as jj

CSV = ("id,when,at,name\n"
       "1,01/31/2015,2015/01/01 01:00:00,Oslo\n"
       "2,2/1/2016,2001/01/01 00:47:00,Bergen\n")


def notes_of(call, *args, **kwargs):
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        doc = call(*args, **kwargs)
    return doc, [str(w.message) for w in seen if w.category is jj.InferenceWarning]


def test_detected_spellings_csv_and_json():
    doc, notes = notes_of(jj.from_csv, "d,t\n01/31/2015,2015/01/01 01:00:00\n"
                          "2/1/2016,2001/01/01 00:47:05\n", delimiter=",")
    assert jj.view(doc).types == ("d", "l")
    assert jj.decode(doc) == [
        {"d": dt.date(2015, 1, 31), "t": dt.datetime(2015, 1, 1, 1, 0, 0)},
        {"d": dt.date(2016, 2, 1), "t": dt.datetime(2001, 1, 1, 0, 47, 5)}]
    assert notes == [
        'column "d": dates written as %m/%d/%Y (row 1, "01/31/2015") -> d '
        '(written as 2015-01-31)',
        'column "t": timestamps written as %Y/%m/%d %H:%M:%S (row 1, '
        '"2015/01/01 01:00:00") -> l (written as 2015-01-01T01:00:00)']
    doc, notes = notes_of(jj.from_json, '[{"d": "Jan 1 2000"}, {"d": "Jun 12 1998"}]')
    assert jj.decode(doc) == [{"d": dt.date(2000, 1, 1)}, {"d": dt.date(1998, 6, 12)}]
    assert notes == ['column "d": dates written as %b %d %Y (row 1, "Jan 1 2000") -> d '
                     '(written as 2000-01-01)']


def test_ambiguous_day_and_month():
    doc, notes = notes_of(jj.from_csv, "d\n01/02/2015\n03/04/2015\n", delimiter=",")
    assert jj.view(doc).types == ("s",)
    assert notes == [
        'column "d": dates written as %m/%d/%Y or %d/%m/%Y (row 1, "01/02/2015"): '
        'no day is above 12 to tell which -> s (ambiguous; the date format option decides)']
    doc = jj.from_csv("d\n01/02/2015\n03/04/2015\n", delimiter=",", date_format="%d/%m/%Y")
    assert jj.decode(doc) == [{"d": dt.date(2015, 2, 1)}, {"d": dt.date(2015, 4, 3)}]


def test_formats_given_and_iso():
    # a list: the first that reads every value; ISO always counts
    doc = jj.from_json('[{"d": "31.01.2015"}, {"d": "2015-02-01"}]',
                       date_format=["%m/%d/%Y", "%d.%m.%Y"])
    assert jj.decode(doc) == [{"d": dt.date(2015, 1, 31)}, {"d": dt.date(2015, 2, 1)}]
    # a tuple of timestamp patterns; %z makes t
    doc = jj.from_csv("t\n2015/01/01 01:00 +0100\n", delimiter=",",
                      timestamp_format=("%Y/%m/%d %H:%M %z",))
    assert jj.view(doc).types == ("t",)
    assert jj.decode(doc)[0]["t"] == dt.datetime(2015, 1, 1, 0, 0, tzinfo=dt.timezone.utc)
    # "iso" turns detection off, kind by kind
    assert jj.view(jj.from_csv(CSV, delimiter=",")).types == ("i", "d", "l", "s")
    doc = jj.from_csv(CSV, delimiter=",", date_format="iso")
    assert jj.view(doc).types == ("i", "s", "l", "s")
    doc = jj.from_csv(CSV, delimiter=",", date_format="iso", timestamp_format="iso")
    assert jj.view(doc).types == ("i", "s", "s", "s")
    assert jj.decode(doc)[0]["when"] == "01/31/2015"


def test_schema_reads_the_patterns():
    doc = jj.from_csv("id,when\n1,01/31/2015\n", delimiter=",", schema={"when": "d"},
                      date_format="%m/%d/%Y")
    assert jj.decode(doc) == [{"id": 1, "when": dt.date(2015, 1, 31)}]
    with pytest.raises(jj.Error) as e:
        jj.from_csv("id,when\n1,02/30/2015\n", delimiter=",", schema="when:d",
                    date_format="%m/%d/%Y")
    assert str(e.value) == ('row 1, column "when", byte 10: "02/30/2015" is not a date '
                            '(February 2015 has 28 days; the schema says when:d)')
    assert (e.value.code, e.value.row, e.value.offset) == ("date", 1, 10)
    # without a pattern a forced d reads ISO 8601 only
    with pytest.raises(jj.Error, match="expected YYYY-MM-DD; the schema says when:d"):
        jj.from_csv("id,when\n1,01/31/2015\n", delimiter=",", schema="when:d")


def test_bad_patterns_and_keywords():
    with pytest.raises(jj.Error) as e:
        jj.from_json('[{"d": "x"}]', date_format="%d/%q/%Y")
    assert e.value.code == "usage"
    assert str(e.value) == 'the date format "%d/%q/%Y", at byte 3: unknown directive %q'
    with pytest.raises(jj.Error, match='the timestamp format "%d/%m/%Y", at byte 8: no hour'):
        jj.from_csv("a\n1\n", timestamp_format="%d/%m/%Y")
    with pytest.raises(TypeError, match="date_format must be a str or a list of str, not int"):
        jj.from_json("[]", date_format=5)
    with pytest.raises(TypeError, match="not a list holding bytes"):
        jj.from_csv("a\n1\n", timestamp_format=["%H", b"%M"])
    with pytest.raises(ValueError, match="date_format takes 1 to 16 patterns, not 0"):
        jj.from_csv("a\n1\n", date_format=[])
    with pytest.raises(ValueError, match="takes 1 to 16 patterns, not 17"):
        jj.from_json("[]", timestamp_format=["%Y"] * 17)
