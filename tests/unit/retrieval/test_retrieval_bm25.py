import json
from pathlib import Path

import pytest

from extra_skips import hide, require
from halluforge.errors import DataError, ModelError
from halluforge.retrieval.base import Passage
from halluforge.retrieval.bm25 import BM25Index

PASSAGES = [
    Passage("p0", "Mona Lisa", "The Mona Lisa is a portrait painted by Leonardo da Vinci in Florence."),
    Passage(
        "p1", "Mount Everest", "Mount Everest is the highest mountain above sea level, in the Himalayas."
    ),
    Passage("p2", "Python", "Python is a programming language created by Guido van Rossum in 1991."),
    Passage("p3", "Jazz", "Jazz is a music genre that began in New Orleans with blues and ragtime roots."),
]


@pytest.fixture
def index() -> BM25Index:
    require("retrieval", "bm25s")  # test_missing_extra_is_a_model_error runs without it
    return BM25Index.build(PASSAGES, corpus_name="tiny")


def test_each_passage_text_finds_itself_first(index: BM25Index) -> None:
    results = index.search_many([p.text for p in PASSAGES], k=2)
    assert [hits[0].passage for hits in results] == PASSAGES
    assert all(hits[0].rank == 0 and hits[0].score > 0 for hits in results)


def test_query_terms_rank_passages(index: BM25Index) -> None:
    hits = index.search("who painted the Mona Lisa portrait", 3)
    assert hits[0].passage.title == "Mona Lisa"
    assert all(h.score > 0 for h in hits)


def test_no_shared_term_means_no_hit(index: BM25Index) -> None:
    assert index.search("zebra quantum", 3) == []
    assert index.search("the of and", 3) == []  # stop words only
    assert len(index.search("Python", 50)) == 1  # k clamped, zero scores dropped
    assert index.search_many([], 3) == []


def test_save_load_round_trip_and_manifest(index: BM25Index, tmp_path: Path) -> None:
    index.save(tmp_path / "idx")
    manifest = json.loads((tmp_path / "idx" / "manifest.json").read_text())
    assert manifest["kind"] == "bm25" and manifest["count"] == 4 and manifest["corpus"] == "tiny"
    assert len(manifest["corpus_hash"]) == 64 and manifest["format"] == 1
    loaded = BM25Index.load(tmp_path / "idx")
    query = "highest mountain Himalayas"
    assert [(h.passage, round(h.score, 5)) for h in loaded.search(query, 2)] == [
        (h.passage, round(h.score, 5)) for h in index.search(query, 2)
    ]


def test_loading_a_dense_folder_as_bm25_is_refused(index: BM25Index, tmp_path: Path) -> None:
    folder = index.save(tmp_path / "idx")
    manifest = json.loads((folder / "manifest.json").read_text())
    (folder / "manifest.json").write_text(json.dumps({**manifest, "kind": "dense"}))
    with pytest.raises(DataError, match="not a BM25 one"):
        BM25Index.load(folder)


def test_missing_extra_is_a_model_error(monkeypatch: pytest.MonkeyPatch) -> None:
    hide(monkeypatch, "bm25s")
    with pytest.raises(ModelError) as info:
        BM25Index.build(PASSAGES)
    assert 'pip install "halluforge[retrieval]"' in str(info.value)
