"""A run's records as JSON lines, CSV, Parquet or a Hugging Face ``datasets`` folder.

``halluforge export RUN_DIR --format jsonl|csv|parquet|hf`` writes four tables, and two more
when people labelled anything in ``halluforge view``: ``annotations`` (every label with who
and when, history included) and ``labels`` (each response's label in force in INVITE's
format, which ``halluforge judge premise`` reads):

- ``test_cases``: the forged test cases alone, a dataset another harness can consume
  (question, context, expected answers, edits, provenance...);
- ``responses`` and ``scores``: one row per response, one per score;
- ``joined``: one row per score with its response and test case beside it, the table most
  analyses start from.

JSON lines keep every value as it is stored. The tabular formats have flat columns: text,
numbers and booleans as themselves, lists of strings (``expected``) as lists in Parquet and
``hf``, and every other nested value (edits, provenance, messages, metadata) as a JSON string.
CSV writes lists as JSON too and an empty cell for a missing value, so it cannot tell an
empty text from a missing one in nullable columns; the other formats can. :func:`read_table`
reads any format back into the same rows. No export holds an API key: records never store
one (keys stay in the environment).

CSV is made safe to open in a spreadsheet: dataset text and model replies are untrusted, and a
cell that starts with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return is run as a formula
(``=HYPERLINK(...)``). Such a text cell gets a leading single quote, as OWASP's CSV-injection
guidance advises, so the spreadsheet shows it as text (:func:`csv_cell`); a text that itself
starts with a quote gets one more, so :func:`read_table` can take exactly one off and read
every cell back as it was. Numbers are written as numbers and never quoted.
"""

from __future__ import annotations

import csv
import json
import types
import typing
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from halluforge.errors import ConfigError, DataError
from halluforge.metrics.joined import latest_scores
from halluforge.records import Annotation, Record, Response, Score, TestCase
from halluforge.store import RunStore

Format = Literal["jsonl", "csv", "parquet", "hf"]
FORMATS: tuple[Format, ...] = ("jsonl", "csv", "parquet", "hf")
SUFFIX = {"jsonl": ".jsonl", "csv": ".csv", "parquet": ".parquet", "hf": ""}
#: first characters that make a spreadsheet read a cell as a formula (OWASP: CSV injection)
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
#: the prefix that makes a spreadsheet show a cell as text
TEXT_PREFIX = "'"


def csv_cell(value: Any) -> Any:
    """A value as a CSV cell that a spreadsheet shows and never runs.

    Text that could start a formula, or that starts with the quote itself, gets a leading
    single quote; numbers and other values are kept as they are.
    """
    if isinstance(value, str) and value.startswith((*FORMULA_STARTS, TEXT_PREFIX)):
        return TEXT_PREFIX + value
    return value


def csv_text(cell: str) -> str:
    """A CSV cell written by :func:`csv_cell` read back as the text it was."""
    return cell[len(TEXT_PREFIX) :] if cell.startswith(TEXT_PREFIX) else cell


class JoinedRow(BaseModel):
    """One score with its response and test case beside it (the ``joined`` table)."""

    model_config = ConfigDict(extra="forbid")

    score_id: str
    metric: str
    item: str | None = None
    value: float | None = None
    reason: str | None = None
    response_id: str
    model: str
    setting: str
    turn: str = ""
    reply: str = ""
    error: str | None = None
    test_case_id: str
    family: str
    variant: str | None = None
    question: str = ""
    context: str | None = None
    expected: list[str] = []
    valid: bool | None = None
    generator_model: str | None = None


class LabelRow(BaseModel):
    """One human label of a response in force, in INVITE's format (the ``labels`` table).

    ``halluforge judge premise labels.jsonl`` reads it as is: ``hallucination_label`` is "1"
    (hallucinated), "0" (faithful) or empty (unsure), beside the question and the reply.
    """

    model_config = ConfigDict(extra="forbid")

    invalid_question: str
    model_response_to_invalid_question: str
    hallucination_label: Literal["0", "1"] | None = None
    model: str
    category: str
    family: str
    setting: str
    response_id: str
    test_case_id: str
    label: str
    note: str = ""
    who: str
    when: str


TABLES: dict[str, type[BaseModel]] = {
    "test_cases": TestCase,
    "responses": Response,
    "scores": Score,
    "joined": JoinedRow,
    "annotations": Annotation,
    "labels": LabelRow,
}
#: tables written only when the run has human labels (unless asked for by name)
HUMAN_TABLES = ("annotations", "labels")


def _kind(annotation: Any) -> str:
    """'scalar', 'strings' (a list of str) or 'nested' for a field's type."""
    origin = typing.get_origin(annotation)
    if origin in (typing.Union, types.UnionType):
        kinds = {_kind(a) for a in typing.get_args(annotation) if a is not type(None)}
        return kinds.pop() if len(kinds) == 1 else "nested"
    if origin is Literal or annotation in (str, int, float, bool):
        return "scalar"
    if origin is list and typing.get_args(annotation) == (str,):
        return "strings"
    return "nested"


def column_kinds(model: type[BaseModel]) -> dict[str, str]:
    """Each field of a record model with how its column is stored."""
    return {name: _kind(info.annotation) for name, info in model.model_fields.items()}


def _nullable(model: type[BaseModel], name: str) -> bool:
    annotation = model.model_fields[name].annotation
    return typing.get_origin(annotation) in (typing.Union, types.UnionType) and type(None) in typing.get_args(
        annotation
    )


def joined_rows(store: RunStore) -> Iterator[JoinedRow]:
    """The ``joined`` table: every latest score with its response and test case."""
    cases = {c.id: c for c in store.iter(TestCase)}
    responses = {r.id: r for r in store.iter(Response)}
    for score in latest_scores(store.iter(Score)):
        response = responses.get(score.response_id)
        case = cases.get(score.test_case_id)
        reason = score.details.get("reason")
        yield JoinedRow(
            score_id=score.id,
            metric=score.metric,
            item=score.item,
            value=score.value,
            reason=None if reason is None else str(reason),
            response_id=score.response_id,
            model=score.model,
            setting=score.setting,
            turn=response.turn if response else "",
            reply=response.text if response else "",
            error=response.error if response else None,
            test_case_id=score.test_case_id,
            family=score.family,
            variant=case.variant if case else None,
            question=case.question if case else "",
            context=case.context if case else None,
            expected=list(case.expected) if case else [],
            valid=case.valid if case else None,
            generator_model=case.provenance.generator_model if case else None,
        )


def label_rows(store: RunStore) -> Iterator[LabelRow]:
    """The ``labels`` table: each response's label in force beside its question and reply."""
    from halluforge.reports.cases import latest_labels

    labels = latest_labels(store.iter(Annotation))
    wanted = {target_id for target, target_id in labels if target == "response"}
    cases = {c.id: c for c in store.iter(TestCase)}
    for response in store.iter(Response):
        if response.id not in wanted:
            continue
        note = labels[("response", response.id)]
        case = cases.get(response.test_case_id)
        code = {"hallucinated": "1", "faithful": "0"}.get(note.label)
        yield LabelRow(
            invalid_question=case.question if case else "",
            model_response_to_invalid_question=response.text,
            hallucination_label=code,  # type: ignore[arg-type]
            model=response.model,
            category=str((case.metadata.get("category") or case.variant or case.family) if case else ""),
            family=case.family if case else "",
            setting=response.setting,
            response_id=response.id,
            test_case_id=response.test_case_id,
            label=note.label,
            note=note.note,
            who=note.who,
            when=note.when,
        )


def table_rows(store: RunStore, table: str) -> list[dict[str, Any]]:
    """One table's rows as JSON-ready dicts."""
    if table == "joined":
        return [row.model_dump(mode="json") for row in joined_rows(store)]
    if table == "labels":
        return [row.model_dump(mode="json") for row in label_rows(store)]
    record: type[Record] = TABLES[table]  # type: ignore[assignment]
    return [r.model_dump(mode="json") for r in store.iter(record)]


def flatten(model: type[BaseModel], row: dict[str, Any], *, lists: bool) -> dict[str, Any]:
    """A row with nested values as JSON strings (and lists of strings too unless ``lists``)."""
    out: dict[str, Any] = {}
    for name, kind in column_kinds(model).items():
        value = row.get(name)
        if kind == "nested" or (kind == "strings" and not lists):
            out[name] = None if value is None else json.dumps(value, ensure_ascii=False)
        else:
            out[name] = value
    return out


def unflatten(model: type[BaseModel], row: dict[str, Any], *, from_csv: bool = False) -> dict[str, Any]:
    """A flat row read back as the record's JSON dict (validated by the record model)."""
    data: dict[str, Any] = {}
    for name, kind in column_kinds(model).items():
        if name not in row:
            continue
        value = row[name]
        if from_csv and value == "" and _nullable(model, name):
            value = None
        elif isinstance(value, str) and (kind == "nested" or (kind == "strings" and from_csv)):
            value = json.loads(value)
        data[name] = value
    return model.model_validate(data).model_dump(mode="json")


def _pyarrow() -> Any:
    try:
        import pyarrow
        import pyarrow.parquet
    except ImportError as exc:
        raise ConfigError("Parquet export needs pyarrow", hint="pip install 'halluforge[data]'") from exc
    return pyarrow


def _datasets() -> Any:
    try:
        import datasets
    except ImportError as exc:
        raise ConfigError("the hf export needs datasets", hint="pip install 'halluforge[data]'") from exc
    return datasets


def write_table(rows: list[dict[str, Any]], model: type[BaseModel], path: Path, fmt: Format) -> None:
    """Write one table's rows in one format at ``path``."""
    if fmt == "jsonl":
        with path.open("w", encoding="utf-8") as handle:
            for row in rows:
                handle.write(json.dumps(row, ensure_ascii=False) + "\n")
    elif fmt == "csv":
        columns = list(column_kinds(model))
        with path.open("w", encoding="utf-8", newline="") as handle:
            writer = csv.DictWriter(handle, fieldnames=columns)
            writer.writeheader()
            for row in rows:
                writer.writerow(
                    {
                        k: ("" if v is None else csv_cell(v))
                        for k, v in flatten(model, row, lists=False).items()
                    }
                )
    elif fmt == "parquet":
        pa = _pyarrow()
        flat = [flatten(model, row, lists=True) for row in rows]
        table = pa.Table.from_pylist(flat) if flat else pa.table({k: [] for k in column_kinds(model)})
        pa.parquet.write_table(table, path)
    else:
        datasets = _datasets()
        flat = [flatten(model, row, lists=True) for row in rows]
        data = (
            datasets.Dataset.from_list(flat)
            if flat
            else datasets.Dataset.from_dict({k: [] for k in column_kinds(model)})
        )
        data.save_to_disk(str(path))


def read_table(path: str | Path, table: str, fmt: Format) -> list[dict[str, Any]]:
    """Read one exported table back as the rows :func:`table_rows` gave."""
    model = TABLES[table]
    path = Path(path)
    if fmt == "jsonl":
        with path.open(encoding="utf-8") as handle:
            return [
                model.model_validate(json.loads(line)).model_dump(mode="json")
                for line in handle
                if line.strip()
            ]
    if fmt == "csv":
        with path.open(encoding="utf-8", newline="") as handle:
            return [
                unflatten(model, {k: csv_text(v) for k, v in row.items()}, from_csv=True)
                for row in csv.DictReader(handle)
            ]
    if fmt == "parquet":
        rows = _pyarrow().parquet.read_table(path).to_pylist()
    else:
        rows = list(_datasets().load_from_disk(str(path)))
    return [unflatten(model, row) for row in rows]


def export_tables(
    run_dir: str | Path, fmt: str, out: str | Path | None = None, tables: list[str] | None = None
) -> dict[str, tuple[Path, int]]:
    """Write the run's tables in ``fmt`` under ``out`` (default ``RUN_DIR/export/<fmt>``).

    Returns each table's path and row count. ``annotations`` is written only when the run has
    some, unless asked for by name.
    """
    if fmt not in FORMATS:
        raise ConfigError(f"unknown export format {fmt!r}", hint=f"use one of {', '.join(FORMATS)}")
    run = Path(run_dir)
    if not (run / "store.sqlite").is_file():
        raise DataError("not a run directory (no store.sqlite)", path=str(run), hint="pass runs/<run-id>")
    unknown = [t for t in tables or [] if t not in TABLES]
    if unknown:
        raise ConfigError(f"unknown table {unknown[0]!r}", hint=f"use some of {', '.join(TABLES)}")
    # the format's library first: a missing one must not leave an empty folder behind
    if fmt == "parquet":
        _pyarrow()
    elif fmt == "hf":
        _datasets()
    target = Path(out) if out else run / "export" / fmt
    target.mkdir(parents=True, exist_ok=True)
    store = RunStore(run)
    try:
        chosen = tables or [t for t in TABLES if t not in HUMAN_TABLES or store.count(Annotation)]
        written: dict[str, tuple[Path, int]] = {}
        for table in chosen:
            rows = table_rows(store, table)
            path = target / f"{table}{SUFFIX[fmt]}"
            write_table(rows, TABLES[table], path, fmt)
            written[table] = (path, len(rows))
        return written
    finally:
        store.close()


__all__ = [
    "FORMATS",
    "FORMULA_STARTS",
    "HUMAN_TABLES",
    "TABLES",
    "JoinedRow",
    "LabelRow",
    "column_kinds",
    "csv_cell",
    "csv_text",
    "export_tables",
    "flatten",
    "joined_rows",
    "label_rows",
    "read_table",
    "table_rows",
    "unflatten",
    "write_table",
]
