"""Loaders for the user's own tables: JSON lines, CSV and Parquet, with a field mapping.

A user's columns rarely carry our names, so every loader here reads ``source.fields``: a map
from our field (``id``, ``question``, ``answers``, ``evidence``, ``title``) to the user's
column, for example ``fields: {question: query, answers: gold}``. ``answers`` may hold a list
or one string split on ``source.options["answers_sep"]`` (default ``"|"``). Columns that are
not mapped are kept in the example's metadata, so nothing the user gave is lost.

The helpers in this module (opening plain or gzipped files, reading JSON lines with the line
number of every error, turning one row into an :class:`~halluforge.records.Example`) are shared
by the other loaders in :mod:`halluforge.data`. Every error names the file, the line and the
field, and says how to fix it. Files are read only when they are regular files, and every row
within the bounds of :mod:`halluforge.limits` (no NaN, no over-long text or number, no NUL).
"""

from __future__ import annotations

import csv
import gzip
import io
import json
from collections.abc import Iterable, Iterator, Mapping
from itertools import islice
from pathlib import Path
from typing import IO, Any

from halluforge.config import DataSource
from halluforge.errors import ConfigError, DataError
from halluforge.limits import check_json_value, loads_json, regular_path
from halluforge.records import Example

#: Our fields that a user column can be mapped to.
OUR_FIELDS = ("id", "question", "answers", "evidence", "title")
#: Fields every example must have.
REQUIRED_FIELDS = ("question", "answers")
#: Set in an example's metadata when its answers are spellings of one answer, not separate answers.
ALIASES_KEY = "answers_are_aliases"


def source_path(source: DataSource) -> Path:
    """The file (or folder) a data source points at.

    A missing path is a DataError, and so is a device, FIFO or socket, also behind a symlink
    (``/dev/zero`` would be read forever).
    """
    if not source.path:
        raise DataError(
            f"data source with loader {source.loader!r} has no path", hint="add `path: <your file>`"
        )
    return regular_path(Path(source.path).expanduser(), folder_ok=True)


def source_name(source: DataSource, path: Path | None = None) -> str:
    """The label of a data source in reports: its ``name``, else the file name."""
    if source.name:
        return source.name
    if path is not None:
        return path.name
    return source.loader


def open_text(path: Path) -> IO[str]:
    """Open a text file for reading, transparently un-gzipping ``*.gz`` files."""
    if path.suffix == ".gz":
        return io.TextIOWrapper(gzip.open(path, "rb"), encoding="utf-8-sig")
    return path.open(encoding="utf-8-sig")


def iter_json_lines(path: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    """Yield ``(line number, object)`` for each non-blank line of a JSON-lines file."""
    try:
        with open_text(path) as handle:
            for number, raw in enumerate(handle, start=1):
                text = raw.strip()
                if not text:
                    continue
                try:
                    row = loads_json(text, path=str(path), line=number)
                except json.JSONDecodeError as exc:
                    raise DataError(
                        f"not valid JSON ({exc.msg}, column {exc.colno})",
                        path=str(path),
                        line=number,
                        hint="each line must hold one JSON object; fix or delete this line",
                    ) from None
                if not isinstance(row, dict):
                    raise DataError(
                        f"expected a JSON object, got {type(row).__name__}",
                        path=str(path),
                        line=number,
                        hint='each line must hold one JSON object such as {"question": ...}',
                    )
                yield number, row
    except (OSError, EOFError, UnicodeDecodeError) as exc:
        raise DataError(
            f"cannot read the file ({exc})", path=str(path), hint="check that it is UTF-8 text or gzip"
        ) from exc


def check_fields(source: DataSource) -> dict[str, str]:
    """The column for each of our fields: the user's mapping, else our own name."""
    for ours in source.fields:
        if ours not in OUR_FIELDS:
            raise ConfigError(
                f"data source {source.path or source.loader!r}: unknown field {ours!r} in `fields`",
                hint=f"map only our fields ({', '.join(OUR_FIELDS)}) to your columns",
            )
    return {ours: source.fields.get(ours, ours) for ours in OUR_FIELDS}


def split_answers(value: Any, sep: str) -> list[str]:
    """Answers from a list or a ``sep``-joined string, stripped, empties and exact repeats dropped."""
    if value is None:
        return []
    if isinstance(value, str):
        parts: Iterable[Any] = value.split(sep) if sep else [value]
    elif isinstance(value, list | tuple):
        parts = value
    elif hasattr(value, "tolist"):  # numpy arrays from pyarrow / datasets
        parts = value.tolist()
    else:
        parts = [value]
    answers: list[str] = []
    for part in parts:
        if part is None:
            continue
        text = str(part).strip()
        if text and text not in answers:
            answers.append(text)
    return answers


def _text(value: Any) -> str | None:
    if value is None:
        return None
    text = str(value).strip()
    return text or None


def _type_name(value: Any) -> str:
    return {bool: "a boolean", dict: "an object", list: "a list"}.get(type(value), type(value).__name__)


def _cell_text(row: Mapping[str, Any], field: str, column: str, path: str, line: int) -> str | None:
    """A text field of a row; an object, list or boolean is an error, never turned into its repr."""
    value = row.get(column)
    if isinstance(value, bool | dict | list | tuple):
        raise DataError(
            f"expected text, got {_type_name(value)}",
            path=path,
            line=line,
            field=field,
            hint=f"write {field} as a string (column {column!r})",
        )
    return _text(value)


def _check_answers(value: Any, column: str, path: str, line: int) -> None:
    """Answers are a string or a list of strings/numbers; objects and booleans are errors."""
    parts = value if isinstance(value, list | tuple) else [value]
    for part in parts:
        if isinstance(part, bool | dict | list | tuple):
            raise DataError(
                f"expected text or a list of texts, got {_type_name(part)}",
                path=path,
                line=line,
                field="answers",
                hint=f'write the answers (column {column!r}) as a string or a list like ["Paris"]',
            )


def _missing(field: str, column: str, row: Mapping[str, Any], path: str, line: int) -> DataError:
    columns = ", ".join(sorted(str(k) for k in row)[:12]) or "none"
    return DataError(
        f"missing or empty (looked for column {column!r}; columns here: {columns})",
        path=path,
        line=line,
        field=field,
        hint=f"map your column with `fields: {{{field}: <your column>}}` in the data source",
    )


def row_to_example(
    row: Mapping[str, Any],
    *,
    columns: Mapping[str, str],
    name: str,
    path: str,
    line: int,
    answers_sep: str = "|",
    aliases: bool = False,
) -> Example:
    """Build one example from one row, using ``columns`` (our field -> the row's key).

    Unmapped keys go into the metadata; the row's own id, if any, is kept as ``source_id``.
    """
    question = _cell_text(row, "question", columns["question"], path, line)
    if question is None:
        raise _missing("question", columns["question"], row, path, line)
    _check_answers(row.get(columns["answers"]), columns["answers"], path, line)
    answers = split_answers(row.get(columns["answers"]), answers_sep)
    if not answers:
        raise _missing("answers", columns["answers"], row, path, line)
    used = set(columns.values())
    metadata: dict[str, Any] = {k: _jsonable(v) for k, v in row.items() if k not in used}
    source_id = _cell_text(row, "id", columns["id"], path, line)
    if source_id is not None:
        metadata["source_id"] = source_id
    if aliases:
        metadata[ALIASES_KEY] = True
    return Example.build(
        question,
        answers,
        _cell_text(row, "evidence", columns["evidence"], path, line),
        source=name,
        title=_cell_text(row, "title", columns["title"], path, line),
        metadata=metadata,
    )


def _jsonable(value: Any) -> Any:
    """Make a cell JSON-friendly (numpy scalars and arrays from Parquet become Python values)."""
    if hasattr(value, "tolist"):
        return value.tolist()
    if hasattr(value, "isoformat"):
        return value.isoformat()
    return value


def limited(examples: Iterator[Example], source: DataSource) -> Iterator[Example]:
    """Honour ``source.limit``: stop after the first N examples."""
    if source.limit is None:
        return examples
    return islice(examples, source.limit)


def _rows_to_examples(
    rows: Iterable[tuple[int, Mapping[str, Any]]],
    source: DataSource,
    path: Path,
    empty_hint: str = "the file is empty; check the path",
) -> Iterator[Example]:
    columns = check_fields(source)
    sep = str(source.options.get("answers_sep", "|"))
    aliases = bool(source.options.get(ALIASES_KEY, False))
    name = source_name(source, path)
    count = 0
    for line, row in rows:
        yield row_to_example(
            row, columns=columns, name=name, path=str(path), line=line, answers_sep=sep, aliases=aliases
        )
        count += 1
    if count == 0:
        raise DataError("no examples", path=str(path), hint=empty_hint)


def load_jsonl(source: DataSource) -> Iterator[Example]:
    """Read a JSON-lines file (plain or ``.gz``), one example per line."""
    path = source_path(source)
    return limited(_rows_to_examples(iter_json_lines(path), source, path), source)


def _csv_rows(path: Path, delimiter: str) -> Iterator[tuple[int, dict[str, Any]]]:
    reader: Any = None
    try:
        with open_text(path) as handle:
            reader = csv.DictReader(handle, delimiter=delimiter)
            for row in reader:
                if None in row:
                    raise DataError(
                        f"more cells than the {len(reader.fieldnames or [])} header columns",
                        path=str(path),
                        line=reader.line_num,
                        hint="quote cells that contain the delimiter",
                    )
                if not any((v or "").strip() for v in row.values()):
                    continue
                check_json_value(row, path=str(path), line=reader.line_num)
                yield reader.line_num, row
    except csv.Error as exc:
        where = reader.line_num if reader is not None and reader.line_num else None
        raise DataError(f"not valid CSV ({exc})", path=str(path), line=where, hint="check quoting") from None
    except (OSError, EOFError, UnicodeDecodeError) as exc:
        raise DataError(f"cannot read the file ({exc})", path=str(path), hint="check it is UTF-8") from exc


def load_csv(source: DataSource) -> Iterator[Example]:
    """Read a CSV file with a header row (``options.delimiter``, default ``,``; ``.tsv`` uses tab)."""
    path = source_path(source)
    default = "\t" if path.name.removesuffix(".gz").endswith(".tsv") else ","
    delimiter = str(source.options.get("delimiter", default))
    hint = "a CSV needs a header line, then one row per example; this file has no rows"
    return limited(_rows_to_examples(_csv_rows(path, delimiter), source, path, hint), source)


def parquet_file(path: Path) -> Any:
    """Open a Parquet file; a missing pyarrow is a ConfigError naming the extra to install."""
    try:
        import pyarrow.parquet as pq
    except ImportError as exc:
        raise ConfigError("reading Parquet needs pyarrow", hint='pip install "halluforge[data]"') from exc
    try:
        return pq.ParquetFile(path)
    except Exception as exc:  # pyarrow raises several unrelated types for a bad file
        raise DataError(f"not a readable Parquet file ({exc})", path=str(path), hint="check it") from exc


def _parquet_rows(
    parquet: Any, path: Path | str = "the Parquet file"
) -> Iterator[tuple[int, dict[str, Any]]]:
    number = 0
    for batch in parquet.iter_batches():
        for row in batch.to_pylist():
            number += 1
            check_json_value(row, path=str(path), line=number)
            yield number, row


def load_parquet(source: DataSource) -> Iterator[Example]:
    """Read a Parquet file; "line" in errors is the 1-based row number."""
    path = source_path(source)
    parquet = parquet_file(path)
    return limited(_rows_to_examples(_parquet_rows(parquet, path), source, path), source)


__all__ = [
    "ALIASES_KEY",
    "OUR_FIELDS",
    "REQUIRED_FIELDS",
    "check_fields",
    "iter_json_lines",
    "limited",
    "load_csv",
    "load_jsonl",
    "load_parquet",
    "open_text",
    "parquet_file",
    "row_to_example",
    "source_name",
    "source_path",
    "split_answers",
]
