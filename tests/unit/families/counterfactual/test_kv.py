"""Event records and term descriptions: the bundled sample and file:line errors on bad rows."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from halluforge.errors import DataError
from halluforge.families.counterfactual.sources import bundled_path, load_event_records, load_terms, resolve
from halluforge.families.shared.answer_types import classify_answer


def test_bundled_sample_sizes_and_value_types() -> None:
    records = load_event_records(bundled_path("events"))
    terms = load_terms(bundled_path("terms"))
    assert len(records) >= 60 and len(terms) >= 40
    assert len({r.id for r in records}) == len(records)
    kinds = {classify_answer(v) for r in records for _, v in r.items}
    assert {"date", "number", "person"} <= kinds
    assert all(len(t.sentences) == 5 and t.definition for t in terms)


def _write(tmp_path: Path, name: str, rows: list[object]) -> Path:
    path = tmp_path / name
    path.write_text("\n".join(json.dumps(r) for r in rows) + "\n", encoding="utf-8")
    return path


def test_record_errors_name_file_line_and_field(tmp_path: Path) -> None:
    ok = {"name": "A", "description": "d", "date": "1 May 1900"}
    path = _write(tmp_path, "ev.jsonl", [ok, {"name": "B", "description": "d", "people": ["x", "y"]}])
    with pytest.raises(DataError, match=r"ev\.jsonl.*2.*people"):
        load_event_records(path)
    path = _write(tmp_path, "ev2.jsonl", [ok, {"description": "d", "date": "1900"}])
    with pytest.raises(DataError, match=r"ev2\.jsonl.*2.*name"):
        load_event_records(path)
    path = _write(tmp_path, "ev3.jsonl", [{"name": "A", "description": "d"}])
    with pytest.raises(DataError, match="no items"):
        load_event_records(path)


def test_records_from_csv_keep_numbers_and_drop_empty_cells(tmp_path: Path) -> None:
    path = tmp_path / "ev.csv"
    path.write_text("name,description,date,deaths,place\nA,an event,1 May 1900,12,\n", encoding="utf-8")
    (record,) = load_event_records(path)
    assert record.items == (("date", "1 May 1900"), ("deaths", "12"))
    assert "deaths: 12" in record.render()


def test_terms_from_csv_split_sentences_and_report_missing(tmp_path: Path) -> None:
    path = tmp_path / "t.csv"
    path.write_text("term,sentences\nX,One. | Two.\nY,\n", encoding="utf-8")
    with pytest.raises(DataError, match=r"t\.csv.*3.*sentences"):
        load_terms(path)
    path.write_text("term,sentences\nX,One. | Two.\n", encoding="utf-8")
    assert load_terms(path)[0].sentences == ("One.", "Two.")


def test_resolve_missing_file_and_unknown_type(tmp_path: Path) -> None:
    with pytest.raises(DataError, match="file not found"):
        resolve(str(tmp_path / "nope.jsonl"), "events")
    odd = tmp_path / "ev.xml"
    odd.write_text("<x/>", encoding="utf-8")
    with pytest.raises(DataError, match="unknown file type"):
        load_event_records(odd)
