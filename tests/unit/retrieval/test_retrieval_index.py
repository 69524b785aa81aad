"""build_index / open_index / default_index: the package's entry points."""

import json
from pathlib import Path
from typing import Any

import pytest

import halluforge.retrieval as retrieval
from extra_skips import require
from halluforge.errors import ConfigError, DataError
from halluforge.retrieval import build_index, default_index, default_index_path, open_index
from halluforge.retrieval.base import Passage
from halluforge.retrieval.corpus import Corpus

PASSAGES = [
    Passage("a", "Ostra", "The Ostra is a slow river that flows through the town of Belcamp."),
    Passage("b", "Glass harp", "A glass harp is played by rubbing wet fingers on the rims of glasses."),
    Passage("c", "Volcano", "A volcano is a rupture in a planet's crust where lava and gases escape."),
]


def _jsonl(path: Path) -> Path:
    path.write_text("".join(json.dumps(p.__dict__) + "\n" for p in PASSAGES), encoding="utf-8")
    return path


def test_build_bm25_from_a_file_saves_and_reopens(tmp_path: Path) -> None:
    require("retrieval", "bm25s")
    built = build_index(_jsonl(tmp_path / "c.jsonl"), kind="bm25", out=tmp_path / "idx")
    assert len(built) == 3
    opened = open_index(tmp_path / "idx")
    assert type(opened).__name__ == "BM25Index"
    assert opened.search("rubbing glasses", 1)[0].passage.id == "b"
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".idx")]  # no staging left


def test_rebuilding_replaces_an_index_but_never_a_foreign_folder(tmp_path: Path) -> None:
    require("retrieval", "bm25s")
    build_index(PASSAGES, kind="bm25", out=tmp_path / "idx")
    build_index(PASSAGES[:2], kind="bm25", out=tmp_path / "idx")
    assert len(open_index(tmp_path / "idx")) == 2
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "notes.txt").write_text("keep me")
    with pytest.raises(ConfigError, match="not an index folder"):
        build_index(PASSAGES, kind="bm25", out=tmp_path / "mine")
    assert (tmp_path / "mine" / "notes.txt").read_text() == "keep me"


def test_unknown_kind_and_non_index_folder(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="unknown index kind"):
        build_index(PASSAGES, kind="sparse")  # type: ignore[arg-type]
    with pytest.raises(DataError, match=r"no manifest\.json"):
        open_index(tmp_path)


def test_default_index_path_respects_the_cache_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HALLUFORGE_CACHE_DIR", str(tmp_path))
    assert default_index_path() == tmp_path / "indexes" / "wiki-offline-minilm"
    assert default_index_path(tmp_path / "x") == tmp_path / "x" / "indexes" / "wiki-offline-minilm"


@pytest.mark.slow
def test_default_index_is_built_once_then_reopened(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The real MiniLM over a stand-in corpus (the 10k summaries take minutes to embed)."""
    require("retrieval", "sentence_transformers")
    require("retrieval", "faiss")
    tiny = Corpus("wiki-offline", list(PASSAGES))
    monkeypatch.setattr(retrieval, "load_corpus", lambda spec: tiny)
    monkeypatch.setattr(retrieval, "_OPENED", {})
    builds: list[Any] = []
    real_build = retrieval.build_index

    def counting_build(*args: Any, **kwargs: Any) -> Any:
        builds.append(args)
        return real_build(*args, **kwargs)

    monkeypatch.setattr(retrieval, "build_index", counting_build)
    first = default_index(tmp_path)
    assert len(builds) == 1
    assert (tmp_path / "indexes" / "wiki-offline-minilm" / "manifest.json").is_file()
    assert default_index(tmp_path) is first  # reused within the process
    monkeypatch.setattr(retrieval, "_OPENED", {})
    reopened = default_index(tmp_path)
    assert len(builds) == 1  # reopened from disk, not rebuilt
    assert reopened.search("lava from the crust", 1)[0].passage.id == "c"
    # a changed corpus (new package version) makes the cache stale: rebuilt
    monkeypatch.setattr(retrieval, "_OPENED", {})
    monkeypatch.setattr(retrieval, "load_corpus", lambda spec: Corpus("wiki-offline", list(PASSAGES[:2])))
    assert len(default_index(tmp_path).search("anything", 5)) == 2  # type: ignore[arg-type]
    assert len(builds) == 2
