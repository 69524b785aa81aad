"""Structured inputs of the ``counterfactual`` family: event records and term descriptions.

RECALL (Liu et al. 2023, §2.2) builds its cases from two kinds of source that are not QA
examples:

- **event records**, flat key-value rows such as EventKG events: a ``name``, a
  ``description`` and any number of other items (dates, places, people, numbers);
- **term descriptions**, such as UJ-CS/Math/Phy: a ``term``, a few ``sentences`` about it and,
  optionally, its one-sentence ``definition`` (the text-generation target).

Both are read from JSON lines, CSV/TSV or Parquet (chosen by the file's extension). In CSV a
term's ``sentences`` are one cell split on ``|``. Every error names the file, the line (row
number for Parquet) and the field, and says how to fix it. The package ships a sample of each,
written for this project in our own words (62 events, 40 terms): :func:`bundled_path`.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from halluforge.data.tabular import _csv_rows, _parquet_rows, iter_json_lines, parquet_file
from halluforge.errors import DataError
from halluforge.records import stable_id

#: bundled files by the name an option may give instead of a path
BUNDLED = {"events": "events.jsonl", "terms": "terms.jsonl"}
#: keys of an event record that are not items a question may ask about
RECORD_META = ("id", "name", "description")


@dataclass(frozen=True)
class EventRecord:
    """One key-value record: what it is called, what it is, and its items in file order."""

    id: str
    name: str
    description: str
    items: tuple[tuple[str, str], ...]
    source: str = ""
    line: int = 0

    def value(self, key: str) -> str:
        """The value of one item (KeyError when absent)."""
        return dict(self.items)[key]

    def render(self, items: tuple[tuple[str, str], ...] | None = None) -> str:
        """The record as ``key: value`` lines (the source text of the text-generation task)."""
        lines = [f"name: {self.name}", f"description: {self.description}"]
        lines += [f"{key}: {value}" for key, value in (items if items is not None else self.items)]
        return "\n".join(lines)


@dataclass(frozen=True)
class TermRecord:
    """One term with the sentences that describe it and, when given, its definition."""

    id: str
    term: str
    sentences: tuple[str, ...]
    definition: str | None = None
    domain: str = ""
    source: str = ""
    line: int = 0


def bundled_path(name: str) -> Path:
    """The path of a bundled sample file (``events`` or ``terms``)."""
    return Path(str(resources.files("halluforge.families.counterfactual").joinpath("data", BUNDLED[name])))


def resolve(path: str, kind: str) -> Path:
    """A user path, or the bundled sample when ``path`` is ``bundled``; a missing file is an error."""
    if path == "bundled":
        return bundled_path(kind)
    found = Path(path).expanduser()
    if not found.is_file():
        raise DataError("file not found", path=str(found), hint="check the path, relative to where you run")
    return found


def read_rows(path: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    """(line, row) pairs of a JSON-lines, CSV/TSV or Parquet file, chosen by extension."""
    name = path.name.removesuffix(".gz")
    if name.endswith((".jsonl", ".json", ".ndjson")):
        return iter_json_lines(path)
    if name.endswith((".csv", ".tsv")):
        return _csv_rows(path, "\t" if name.endswith(".tsv") else ",")
    if name.endswith(".parquet"):
        return _parquet_rows(parquet_file(path))
    raise DataError(
        "unknown file type", path=str(path), hint="use .jsonl, .csv, .tsv or .parquet (optionally .gz)"
    )


def _cell(value: Any) -> str | None:
    """A scalar cell as text (numbers written plainly), None for empty cells."""
    if value is None or isinstance(value, bool):
        return None if value is None else str(value).lower()
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, int | float | str):
        text = " ".join(str(value).split())
        return text or None
    return None


def _required(row: Mapping[str, Any], key: str, path: Path, line: int, what: str) -> str:
    text = _cell(row.get(key))
    if text is None:
        columns = ", ".join(sorted(map(str, row))[:12]) or "none"
        raise DataError(
            f"missing or empty {key!r} (columns here: {columns})",
            path=str(path),
            line=line,
            field=key,
            hint=f"every {what} needs a non-empty {key!r}",
        )
    return text


def load_event_records(path: str | Path, *, limit: int | None = None) -> list[EventRecord]:
    """Every event record of a file: ``name``, ``description`` and at least one other item.

    Item values must be text or numbers (a list or an object is an error naming the key); an
    empty cell is left out of the record, as EventKG leaves unknown attributes out.
    """
    file = Path(path)
    records: list[EventRecord] = []
    for line, row in read_rows(file):
        name = _required(row, "name", file, line, "event record")
        description = _required(row, "description", file, line, "event record")
        items: list[tuple[str, str]] = []
        for key, raw in row.items():
            if key in RECORD_META:
                continue
            text = _cell(raw)
            if text is None and raw is not None and str(raw).strip():
                raise DataError(
                    f"value of {key!r} is a {type(raw).__name__}, not text or a number",
                    path=str(file),
                    line=line,
                    field=str(key),
                    hint="flatten it into one value per key, e.g. participant_1, participant_2",
                )
            if text is not None:
                items.append((str(key), text))
        if not items:
            raise DataError(
                "no items besides name and description",
                path=str(file),
                line=line,
                hint="add at least one item such as date, place or a participant",
            )
        record_id = _cell(row.get("id")) or stable_id("event", file.name, name, items)
        records.append(EventRecord(record_id, name, description, tuple(items), file.name, line))
        if limit is not None and len(records) >= limit:
            break
    if not records:
        raise DataError("no event records", path=str(file), hint="the file is empty; check the path")
    return records


def _sentences(raw: Any, file: Path, line: int) -> tuple[str, ...]:
    if isinstance(raw, str):
        parts: list[Any] = raw.split("|")
    elif isinstance(raw, list | tuple) or hasattr(raw, "tolist"):
        parts = list(raw.tolist() if hasattr(raw, "tolist") else raw)
    else:
        parts = []
    out = tuple(t for t in (_cell(p) for p in parts) if t)
    if not out:
        raise DataError(
            "missing or empty 'sentences'",
            path=str(file),
            line=line,
            field="sentences",
            hint="give a list of sentences (in CSV: one cell with the sentences separated by |)",
        )
    return out


def load_terms(path: str | Path, *, limit: int | None = None) -> list[TermRecord]:
    """Every term description of a file: ``term``, ``sentences`` and optionally ``definition``."""
    file = Path(path)
    terms: list[TermRecord] = []
    for line, row in read_rows(file):
        term = _required(row, "term", file, line, "term description")
        sentences = _sentences(row.get("sentences"), file, line)
        term_id = _cell(row.get("id")) or stable_id("term", file.name, term, sentences)
        terms.append(
            TermRecord(
                term_id,
                term,
                sentences,
                _cell(row.get("definition")),
                _cell(row.get("domain")) or "",
                file.name,
                line,
            )
        )
        if limit is not None and len(terms) >= limit:
            break
    if not terms:
        raise DataError("no term descriptions", path=str(file), hint="the file is empty; check the path")
    return terms


__all__ = [
    "BUNDLED",
    "EventRecord",
    "TermRecord",
    "bundled_path",
    "load_event_records",
    "load_terms",
    "read_rows",
    "resolve",
]
