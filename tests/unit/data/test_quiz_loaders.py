"""ObscureQA and HotpotQA loaders (their JSON and Hugging Face forms), and TriviaQA's HF form."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from extra_skips import needs, require
from halluforge.config import DataSource, FilterConfig
from halluforge.data import LOADERS
from halluforge.data.filters import apply_filters
from halluforge.errors import ConfigError, DataError
from halluforge.records import Example

#: the tests that write Parquet files; the JSON ones run in a core install
PARQUET = needs("data", "pyarrow")

OBSCURE = [
    {
        "question": "What author wrote a novel with a flying saucer?",
        "answer": "Kurt Vonnegut",
        "category": "Literature",
        "subcategory": "American",
    },
    {
        "question": "What composer wrote an opera set in a lighthouse?",
        "answer": "Peter Maxwell Davies",
        "category": "Music",
        "subcategory": "Opera",
    },
]


def _load(source: DataSource) -> list[Example]:
    return list(LOADERS.get(source.loader)(source))


def _parquet(rows: list[dict[str, object]], path: Path) -> Path:
    pa, pq = require("data", "pyarrow"), require("data", "pyarrow.parquet")
    pq.write_table(pa.Table.from_pylist(rows), path)
    return path


def _shards(folder: Path, rows: list[dict[str, object]]) -> Path:
    (folder / "data").mkdir(parents=True)
    for split in ("train", "valid", "test"):
        _parquet(rows, folder / "data" / f"{split}-00000-of-00001.parquet")
    return folder


@PARQUET
def test_obscureqa_reads_one_split_of_the_hub_shards(tmp_path: Path) -> None:
    folder = _shards(tmp_path / "ObscureQA", OBSCURE)
    examples = _load(DataSource(loader="obscureqa", path=str(folder), split="valid"))
    assert [e.answers for e in examples] == [["Kurt Vonnegut"], ["Peter Maxwell Davies"]]
    assert (
        examples[0].metadata["category"] == "Literature" and examples[0].metadata["subcategory"] == "American"
    )
    assert examples[0].source == "obscureqa:valid" and examples[0].evidence is None
    with pytest.raises(ConfigError, match="several splits"):
        _load(DataSource(loader="obscureqa", path=str(folder)))
    with pytest.raises(ConfigError, match="no split 'validation'"):
        _load(DataSource(loader="obscureqa", path=str(folder), split="validation"))


@PARQUET
def test_obscureqa_maps_other_column_names_and_lists_the_columns_when_none_fit(tmp_path: Path) -> None:
    renamed = [{"Question": r["question"], "Answers": [r["answer"]], "topic": r["category"]} for r in OBSCURE]
    path = tmp_path / "valid.parquet"
    _parquet(renamed, path)
    examples = _load(DataSource(loader="obscureqa", path=str(path)))
    assert examples[1].question.startswith("What composer") and examples[1].metadata["topic"] == "Music"
    odd = tmp_path / "odd.parquet"
    _parquet([{"clue": "x", "solution": "y"}], odd)
    with pytest.raises(DataError, match=r"no question column \(columns found: clue, solution\)"):
        _load(DataSource(loader="obscureqa", path=str(odd)))
    mapped = _load(
        DataSource(loader="obscureqa", path=str(odd), fields={"question": "clue", "answers": "solution"})
    )
    assert mapped[0].question == "x" and mapped[0].answers == ["y"]


def test_obscureqa_reads_a_save_to_disk_folder(tmp_path: Path) -> None:
    datasets = require("data", "datasets")
    folder = tmp_path / "saved"
    datasets.DatasetDict({"valid": datasets.Dataset.from_list(OBSCURE)}).save_to_disk(str(folder))
    examples = _load(DataSource(loader="obscureqa", path=str(folder), split="valid"))
    assert len(examples) == 2 and examples[0].metadata["category"] == "Literature"


HOTPOT_JSON = [
    {
        "_id": "5a8b57f25542995d1e6f1371",
        "question": "Which magazine was started first, Arthur's Magazine or First for Women?",
        "answer": "Arthur's Magazine",
        "type": "comparison",
        "level": "medium",
        "supporting_facts": [["Arthur's Magazine", 0]],
        "context": [["Arthur's Magazine", ["Arthur's Magazine (1844-1846) was an American periodical."]]],
    },
    {
        "_id": "5a8c7595554299585d9e36b6",
        "question": "The director of the romantic comedy Big Stone Gap is based in what New York city?",
        "answer": "Greenwich Village, New York City",
        "type": "bridge",
        "level": "easy",
        "supporting_facts": [["Big Stone Gap (film)", 0], ["Adriana Trigiani", 1]],
        "context": [
            ["Adriana Trigiani", ["Adriana Trigiani is a writer.", "She is based in Greenwich Village."]],
            ["Big Stone Gap (film)", ["Big Stone Gap is a film directed by Adriana Trigiani."]],
        ],
    },
]


def test_hotpotqa_json_keeps_type_and_level_and_filters_count_what_they_drop(tmp_path: Path) -> None:
    path = tmp_path / "hotpot_train_v1.1.json"
    path.write_text(json.dumps(HOTPOT_JSON), encoding="utf-8")
    examples = _load(DataSource(loader="hotpotqa", path=str(path)))
    bridge = examples[1]
    assert bridge.metadata == {"type": "bridge", "level": "easy", "source_id": "5a8c7595554299585d9e36b6"}
    assert (
        bridge.evidence
        == "Big Stone Gap is a film directed by Adriana Trigiani. She is based in Greenwich Village."
    )
    assert bridge.title == "Big Stone Gap (film)"
    config = FilterConfig(require_evidence=False, where={"type": ["bridge"], "level": ["easy", "medium"]})
    kept, dropped = apply_filters(examples, config)
    assert [e.id for e in kept] == [bridge.id]
    assert [s.reason for s in dropped] == ["where_type"]


@PARQUET
def test_hotpotqa_hf_form(tmp_path: Path) -> None:
    row = HOTPOT_JSON[1]
    hf_row = {
        "id": row["_id"],
        "question": row["question"],
        "answer": row["answer"],
        "type": "bridge",
        "level": "easy",
        "supporting_facts": {"title": ["Adriana Trigiani"], "sent_id": [1]},
        "context": {
            "title": ["Adriana Trigiani"],
            "sentences": [["Adriana Trigiani is a writer.", "She lives there."]],
        },
    }
    path = tmp_path / "train.parquet"
    _parquet([hf_row], path)
    (example,) = _load(DataSource(loader="hotpotqa", path=str(path)))
    assert example.evidence == "She lives there." and example.metadata["source_id"] == row["_id"]


def test_hotpotqa_missing_field_is_named(tmp_path: Path) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps([{"question": "Who?"}]), encoding="utf-8")
    with pytest.raises(DataError, match="entry 0: missing or empty") as info:
        _load(DataSource(loader="hotpotqa", path=str(broken)))
    assert info.value.field == "answer"


@PARQUET
def test_triviaqa_reads_the_hugging_face_parquet_form(tmp_path: Path) -> None:
    row = {
        "question_id": "tc_1",
        "question": "Which Lloyd Webber musical premiered in the US on 10 December 1993?",
        "answer": {"value": "Sunset Boulevard", "aliases": ["Sunset Boulevard", "Sunset Blvd"]},
    }
    path = tmp_path / "validation-00000-of-00001.parquet"
    _parquet([row], path)
    (example,) = _load(DataSource(loader="triviaqa", path=str(path)))
    assert (
        example.answers == ["Sunset Boulevard", "Sunset Blvd"] and example.metadata["question_id"] == "tc_1"
    )
