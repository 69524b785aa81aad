"""JSONL, CSV, Parquet and Hugging Face loaders: field mapping, answers splitting, errors."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from extra_skips import require
from halluforge.config import DataSource
from halluforge.data import LOADERS
from halluforge.data.tabular import load_csv, load_jsonl, load_parquet
from halluforge.errors import ConfigError, DataError

ROWS = [
    {
        "qid": "r1",
        "query": "who wrote hamlet",
        "gold": "William Shakespeare|Shakespeare",
        "passage": "Hamlet was written by William Shakespeare around 1600.",
        "page": "Hamlet",
        "difficulty": "easy",
    },
    {
        "qid": "r2",
        "query": "capital of france",
        "gold": "Paris",
        "passage": "Paris is the capital of France.",
        "page": "France",
        "difficulty": "easy",
    },
]
MAPPING = {"id": "qid", "question": "query", "answers": "gold", "evidence": "passage", "title": "page"}


def write_jsonl(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def write_csv(path: Path, rows: list[dict], delimiter: str = ",") -> Path:
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]), delimiter=delimiter)
        writer.writeheader()
        writer.writerows(rows)
    return path


def check_mapped(examples: list) -> None:
    assert [e.question for e in examples] == ["who wrote hamlet", "capital of france"]
    first = examples[0]
    assert first.answers == ["William Shakespeare", "Shakespeare"]
    assert first.evidence == "Hamlet was written by William Shakespeare around 1600."
    assert first.title == "Hamlet"
    assert first.metadata["source_id"] == "r1"
    assert first.metadata["difficulty"] == "easy"  # unmapped columns are kept


def test_jsonl_with_field_mapping(tmp_path: Path) -> None:
    path = write_jsonl(tmp_path / "mine.jsonl", ROWS)
    check_mapped(list(load_jsonl(DataSource(loader="jsonl", path=str(path), fields=MAPPING))))


def test_jsonl_answers_as_list_and_custom_separator(tmp_path: Path) -> None:
    rows = [{"question": "q1", "answers": ["a", "b", "a"]}, {"question": "q2", "answers": "x;y"}]
    path = write_jsonl(tmp_path / "d.jsonl", rows)
    examples = list(load_jsonl(DataSource(loader="jsonl", path=str(path), options={"answers_sep": ";"})))
    assert [e.answers for e in examples] == [["a", "b"], ["x", "y"]]
    assert examples[0].evidence is None


def test_csv_and_tsv_with_field_mapping(tmp_path: Path) -> None:
    path = write_csv(tmp_path / "mine.csv", ROWS)
    check_mapped(list(LOADERS.get("csv")(DataSource(loader="csv", path=str(path), fields=MAPPING))))
    tsv = write_csv(tmp_path / "mine.tsv", ROWS, delimiter="\t")
    check_mapped(list(load_csv(DataSource(loader="csv", path=str(tsv), fields=MAPPING))))


def test_parquet_with_field_mapping(tmp_path: Path) -> None:
    pa = require("data", "pyarrow")
    pq = require("data", "pyarrow.parquet")
    path = tmp_path / "mine.parquet"
    table = pa.Table.from_pylist([{**r, "gold": r["gold"].split("|")} for r in ROWS])
    pq.write_table(table, path)
    check_mapped(list(load_parquet(DataSource(loader="parquet", path=str(path), fields=MAPPING))))


def test_parquet_without_pyarrow_names_the_extra(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "x.parquet"
    path.write_bytes(b"PAR1")
    monkeypatch.setitem(__import__("sys").modules, "pyarrow.parquet", None)
    with pytest.raises(ConfigError, match=r'pip install "halluforge\[data\]"'):
        load_parquet(DataSource(loader="parquet", path=str(path)))


def test_limit(tmp_path: Path) -> None:
    path = write_jsonl(tmp_path / "mine.jsonl", ROWS)
    assert len(list(load_jsonl(DataSource(loader="jsonl", path=str(path), fields=MAPPING, limit=1)))) == 1


def test_bad_json_line_names_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "d.jsonl"
    path.write_text('{"question": "q", "answers": ["a"]}\n\n{"question": "q2", answers}\n', encoding="utf-8")
    with pytest.raises(
        DataError, match=r"d\.jsonl:3: not valid JSON .*fix: each line must hold one JSON object"
    ):
        list(load_jsonl(DataSource(loader="jsonl", path=str(path))))


def test_missing_field_names_line_field_and_mapping(tmp_path: Path) -> None:
    path = write_jsonl(
        tmp_path / "d.jsonl", [{"question": "q", "answers": "a"}, {"query": "q2", "answers": "b"}]
    )
    with pytest.raises(DataError) as info:
        list(load_jsonl(DataSource(loader="jsonl", path=str(path))))
    message = str(info.value)
    assert "d.jsonl:2: field 'question'" in message
    assert "fields: {question: <your column>}" in message
    assert "query" in message  # the columns that are there
    assert "\n" not in message
    path = write_jsonl(tmp_path / "e.jsonl", [{"question": "q", "answers": " | "}])
    with pytest.raises(DataError, match=r"e\.jsonl:1: field 'answers'.*fields: \{answers: <your column>\}"):
        list(load_jsonl(DataSource(loader="jsonl", path=str(path))))


def test_missing_field_in_csv_reports_the_file_line(tmp_path: Path) -> None:
    path = tmp_path / "d.csv"
    path.write_text("question,answers\nq1,a\nq2,\n", encoding="utf-8")
    with pytest.raises(DataError, match=r"d\.csv:3: field 'answers'"):
        list(load_csv(DataSource(loader="csv", path=str(path))))


def test_empty_and_missing_files(tmp_path: Path) -> None:
    empty = tmp_path / "empty.jsonl"
    empty.write_text("\n", encoding="utf-8")
    with pytest.raises(DataError, match=r"empty\.jsonl: no examples"):
        list(load_jsonl(DataSource(loader="jsonl", path=str(empty))))
    header_only = tmp_path / "h.csv"
    header_only.write_text("question,answers\n", encoding="utf-8")
    with pytest.raises(DataError, match="no examples"):
        list(load_csv(DataSource(loader="csv", path=str(header_only))))
    with pytest.raises(DataError, match=r"nope\.jsonl: file not found"):
        load_jsonl(DataSource(loader="jsonl", path=str(tmp_path / "nope.jsonl")))


def test_unknown_field_in_mapping_is_a_config_error(tmp_path: Path) -> None:
    path = write_jsonl(tmp_path / "d.jsonl", ROWS)
    with pytest.raises(ConfigError, match="unknown field 'questoin'"):
        list(load_jsonl(DataSource(loader="jsonl", path=str(path), fields={"questoin": "query"})))


def test_hf_load_from_disk(tmp_path: Path) -> None:
    datasets = require("data", "datasets")
    folder = tmp_path / "saved"
    rows = [{**r, "gold": r["gold"].split("|")} for r in ROWS]
    datasets.Dataset.from_list(rows).save_to_disk(str(folder))
    loader = LOADERS.get("hf")
    check_mapped(list(loader(DataSource(loader="hf", path=str(folder), fields=MAPPING))))
    split_folder = tmp_path / "dict"
    datasets.DatasetDict(
        {"train": datasets.Dataset.from_list(rows), "test": datasets.Dataset.from_list(rows[:1])}
    ).save_to_disk(str(split_folder))
    test_split = list(loader(DataSource(loader="hf", path=str(split_folder), fields=MAPPING, split="test")))
    assert len(test_split) == 1
    with pytest.raises(ConfigError, match="several splits"):
        loader(DataSource(loader="hf", path=str(split_folder), fields=MAPPING))
    with pytest.raises(DataError, match=r"saved:1: field 'question'"):
        list(loader(DataSource(loader="hf", path=str(folder))))
