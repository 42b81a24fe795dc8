"""jalapenojson: read and write jalapenojson documents (a typed table that is
also one JSON text) with the C library of this repository.

    import jalapenojson as jj

    rows = jj.decode(data)              # list of dicts, like json.loads
    v = jj.view(data)                   # lazy: v.columns, v.types, len(v),
    v[25000], v[10:20], v.column("price", array=True), for row in v: ...
    data = jj.encode(rows)              # bytes; types inferred or given
    data = jj.from_json(text)           # the converter: JSON or CSV in
    jj.dump(rows, "out.jj.gz")          # atomic; .gz and .br by the name
    rows = jj.load("out.jj.gz")

Values: int, float (NaN, infinities and -0.0 exact), str, bool, None,
bytes, datetime.date, aware datetime.datetime (a fixed-offset timezone),
nested tables as lists of rows (a View inside a View).  Every failure is a
jalapenojson.Error (a ValueError) with code, row, column and offset; each
decision of type inference (a mixed column written as text ...) is a
jalapenojson.InferenceWarning.

register_sqlite3() makes Python's sqlite3 module read the SQLite
extension's typed tables with detect_types=sqlite3.PARSE_DECLTYPES.
"""
from . import _jalapenojson as _c
from ._jalapenojson import (Error, InferenceWarning, View, decode, dump,
                            encode, from_csv, from_json, load, view)

__all__ = ["Error", "InferenceWarning", "View", "decode", "dump", "encode",
           "from_csv", "from_json", "load", "view", "register_sqlite3"]
__version__ = _c.__version__  # core/jalapenojson.h's JJ_VERSION_STRING


def _convert_bool(value):
    """The BOOLEAN converter: SQLite's 1 and 0 (as sqlite3 hands them over,
    bytes) to True and False; anything else is an error, not a guess."""
    if value == b"1":
        return True
    if value == b"0":
        return False
    raise Error("a BOOLEAN column holds 1 or 0, not %r" % (value,))


def register_sqlite3(*, timestamps="datetime"):
    """Register sqlite3 converters and adapters for the declared types of the
    extension's typed tables (nothing is registered on import):

      DATE       b'2024-03-01' -> datetime.date (checked, as the format does)
      TIMESTAMP  SQLite's form 'YYYY-MM-DD HH:MM:SS[.fff]' (a typed table's
                 t column, in UTC) or the format's text -> aware
                 datetime.datetime; with timestamps="text" the text itself
                 (sub-microsecond digits are an error otherwise, never
                 dropped)
      DATETIME   a local timestamp (l), SQLite's form or the format's ->
                 naive datetime.datetime (or the text, as TIMESTAMP)
      BOOLEAN    1 / 0 -> True / False
      JSON       a JSON column's text -> what json.loads gives (dict, list,
                 str, int, float, bool)

    and the other way, datetime.date -> 'YYYY-MM-DD', an aware
    datetime.datetime -> 'YYYY-MM-DDTHH:MM:SS[.ffffff](Z|+HH:MM)' and a
    naive one -> SQLite's 'YYYY-MM-DD HH:MM:SS[.ffffff]', the text
    jj_group's ':d', ':t' and ':l' columns take.  INTEGER, REAL, TEXT and BLOB
    need nothing (a nested table is TEXT: decode() it).  This replaces
    Python's own "date" and "timestamp" converters, which expect a space
    between date and time and fail on the format's timestamps.
    """
    import datetime
    import json
    import sqlite3

    if timestamps not in ("datetime", "text"):
        raise ValueError('timestamps must be "datetime" or "text", not %r'
                         % (timestamps,))
    if timestamps == "text":
        def convert_timestamp(value):
            return _c._parse_timestamp(value, text=True)

        def convert_local(value):
            return _c._parse_local_timestamp(value, text=True)
    else:
        convert_timestamp = _c._parse_timestamp
        convert_local = _c._parse_local_timestamp
    # the declared types as the extension spells them (the core's jj_type_sql)
    sqlite3.register_converter(_c._SQL_TYPES["d"], _c._parse_date)
    sqlite3.register_converter(_c._SQL_TYPES["t"], convert_timestamp)
    sqlite3.register_converter(_c._SQL_TYPES["l"], convert_local)
    sqlite3.register_converter(_c._SQL_TYPES["b"], _convert_bool)
    sqlite3.register_converter(_c._SQL_TYPES["j"], json.loads)
    sqlite3.register_adapter(datetime.date, _c._format_date)
    sqlite3.register_adapter(datetime.datetime, _c._format_timestamp)
