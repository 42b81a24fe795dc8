"""Type stubs for jalapenojson (the C module jalapenojson._jalapenojson)."""
import datetime
import os
from array import array as _Array
from typing import (Any, Iterable, Iterator, Literal, Mapping, Sequence,
                    Union, overload)

__version__: str

# One value of a row, as decode() and view() give it.
Value = Union[None, int, float, str, bool, bytes, datetime.date,
              datetime.datetime, list[Any], "View"]
# What encode() takes for a value.
InValue = Union[None, int, float, str, bool, bytes, bytearray, memoryview,
                datetime.date, datetime.datetime, Sequence[Any],
                Mapping[str, Any], "View"]
Row = Union[dict[str, Any], tuple[Any, ...]]
# A column type: a letter (i f s d t b x), "jj" (a nested table whose
# columns come from its rows), a nested schema, or None (inferred).
TypeSpec = Union[None, str, Mapping[str, Any]]
Data = Union[bytes, bytearray, memoryview, str]
PathLike = Union[str, bytes, os.PathLike[str], os.PathLike[bytes]]
Rows = Literal["dict", "tuple"]
Dates = Literal["date", "text"]
Timestamps = Literal["datetime", "text"]


class Error(ValueError):
    """A document, file or value that cannot be read or written."""
    code: str | None
    row: int | None
    column: str | None
    offset: int | None


class InferenceWarning(UserWarning):
    """A decision of type inference that is not obvious (the converter's
    note)."""


class View:
    """A lazy, read-only sequence of a document's rows."""
    @property
    def columns(self) -> tuple[str, ...]: ...
    @property
    def types(self) -> tuple[str | dict[str, Any], ...]: ...
    def __len__(self) -> int: ...
    @overload
    def __getitem__(self, index: int) -> Row: ...
    @overload
    def __getitem__(self, index: slice) -> list[Row]: ...
    def __iter__(self) -> Iterator[Row]: ...
    @overload
    def column(self, column: str | int) -> list[Value]: ...
    @overload
    def column(self, column: str | int, *,
               array: bool) -> list[Value] | _Array[Any]: ...


def decode(data: Data, *, rows: Rows = ..., dates: Dates = ...,
           timestamps: Timestamps = ..., max_size: int | None = ...,
           max_depth: int = ...) -> list[Row]: ...
def view(data: Data, *, rows: Rows = ..., dates: Dates = ...,
         timestamps: Timestamps = ..., max_size: int | None = ...,
         max_depth: int = ...) -> View: ...
def load(path: PathLike, *, rows: Rows = ..., dates: Dates = ...,
         timestamps: Timestamps = ..., max_size: int | None = ...,
         max_depth: int = ...) -> list[Row]: ...
def encode(rows: Iterable[Row] | View,
           columns: Sequence[str] | None = ...,
           types: Sequence[TypeSpec] | Mapping[str, TypeSpec] | None = ...
           ) -> bytes: ...
def dump(rows: Iterable[Row] | View, path: PathLike,
         columns: Sequence[str] | None = ...,
         types: Sequence[TypeSpec] | Mapping[str, TypeSpec] | None = ...,
         *, level: int = ...) -> None: ...
def from_json(data: Data, *, schema: str | Mapping[str, TypeSpec] | None = ...,
              bad_to_null: bool = ...,
              date_format: str | Sequence[str] | None = ...,
              timestamp_format: str | Sequence[str] | None = ...) -> bytes: ...
def from_csv(data: Data, *, schema: str | Mapping[str, TypeSpec] | None = ...,
             delimiter: str | None = ...,
             null: str | Sequence[str] | Mapping[str, str | Sequence[str]] | None = ...,
             booleans: bool = ..., empty_is_text: bool = ...,
             bad_to_null: bool = ..., null_padding: bool = ...,
             on_error: Literal["fail", "skip", "null"] = ...,
             rejects: list[dict[str, Any]] | None = ...,
             thousands: str | None = ..., header: bool = ...,
             date_format: str | Sequence[str] | None = ...,
             timestamp_format: str | Sequence[str] | None = ...) -> bytes: ...
def register_sqlite3(*, timestamps: Timestamps = ...) -> None: ...
