"""A lexical passage index: BM25 scoring with the ``bm25s`` library.

A cheap alternative to the dense index when no encoder is wanted, or as a baseline for it.
It implements the same :class:`~halluforge.retrieval.base.Retriever` protocol. Texts are
lower-cased, split on word characters and stripped of English stop words (no stemming, so
no extra dependency). Passages with a score of 0 share no query term with it and are not
returned, so a query may get fewer than k hits.

An index folder holds bm25s's own arrays (memory-mapped on load), ``passages.jsonl`` and
``manifest.json``, the same manifest fields as the dense index except the model.
"""

from __future__ import annotations

import importlib.metadata
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from halluforge.errors import DataError, ModelError
from halluforge.retrieval.base import Hit, Passage
from halluforge.retrieval.corpus import (
    INDEX_FORMAT,
    PASSAGES_FILE,
    corpus_hash,
    read_index_folder,
    utc_now,
    write_manifest,
    write_passages,
)
from halluforge.retrieval.dense import ProgressFn

_STOPWORDS = "en"
_BM25_DIR = "bm25"


def _bm25s() -> Any:
    try:
        import bm25s
    except ImportError as exc:
        raise ModelError("BM25 retrieval needs bm25s", hint='pip install "halluforge[retrieval]"') from exc
    return bm25s


def _tokenize(texts: Sequence[str]) -> list[list[str]]:
    tokens: list[list[str]] = _bm25s().tokenize(
        list(texts), stopwords=_STOPWORDS, return_ids=False, show_progress=False
    )
    return tokens


class BM25Index:
    """Passages and a bm25s index over their texts; a Retriever."""

    kind = "bm25"

    def __init__(
        self, passages: Sequence[Passage], engine: Any, *, manifest: dict[str, Any] | None = None
    ) -> None:
        self.passages = list(passages)
        self.engine = engine
        self.manifest: dict[str, Any] = manifest or {}

    def __len__(self) -> int:
        return len(self.passages)

    @classmethod
    def build(
        cls,
        passages: Sequence[Passage],
        *,
        k1: float = 1.5,
        b: float = 0.75,
        method: str = "lucene",
        progress: ProgressFn | None = None,
        corpus_name: str = "",
    ) -> BM25Index:
        """Tokenize and index every passage's text (``progress`` is called before and after)."""
        if not passages:
            raise DataError("cannot build an index over an empty corpus", hint="give at least one passage")
        bm25s = _bm25s()
        total = len(passages)
        if progress is not None:
            progress(0, total)
        tokens = bm25s.tokenize(
            [passage.text for passage in passages], stopwords=_STOPWORDS, show_progress=False
        )
        engine = bm25s.BM25(k1=k1, b=b, method=method)
        engine.index(tokens, show_progress=False)
        if progress is not None:
            progress(total, total)
        manifest = {
            "format": INDEX_FORMAT,
            "kind": cls.kind,
            "count": total,
            "corpus": corpus_name,
            "corpus_hash": corpus_hash(passages),
            "k1": k1,
            "b": b,
            "method": method,
            "tokenizer": f"lowercase words, stop words {_STOPWORDS!r}, no stemming",
            "created": utc_now(),
            "version": _version("halluforge"),
            "libraries": {"bm25s": _version("bm25s")},
        }
        return cls(passages, engine, manifest=manifest)

    def save(self, folder: str | Path) -> Path:
        """Write the index folder; ``manifest.json`` goes last so a partial folder is detectable."""
        folder = Path(folder)
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "manifest.json").unlink(missing_ok=True)
        self.engine.save(str(folder / _BM25_DIR))
        write_passages(self.passages, folder / PASSAGES_FILE)
        write_manifest(folder, self.manifest)
        return folder

    @classmethod
    def load(cls, folder: str | Path, *, mmap: bool = True) -> BM25Index:
        """Open a saved index; bm25s's score arrays are memory-mapped unless ``mmap=False``."""
        folder = Path(folder)
        manifest, passages = read_index_folder(folder, cls.kind, "BM25")
        try:
            engine = _bm25s().BM25.load(str(folder / _BM25_DIR), mmap=mmap, show_progress=False)
        except (OSError, ValueError) as exc:
            raise DataError(
                f"cannot read the BM25 arrays ({exc})", path=str(folder), hint="rebuild the index"
            ) from exc
        return cls(passages, engine, manifest=manifest)

    def search(self, query: str, k: int) -> list[Hit]:
        """Top-k passages sharing terms with the query, best BM25 score first."""
        return self.search_many([query], k)[0]

    def search_many(self, queries: Sequence[str], k: int) -> list[list[Hit]]:
        """Top-k passages for each query (one bm25s call for all of them)."""
        if not queries:
            return []
        k = min(int(k), len(self.passages))
        if k <= 0:
            return [[] for _ in queries]
        rows, scores = self.engine.retrieve(_tokenize(queries), k=k, show_progress=False, n_threads=0)
        rows = np.asarray(rows)
        scores = np.asarray(scores)
        return [
            [
                Hit(passage=self.passages[row], score=float(score), rank=rank)
                for rank, (row, score) in enumerate(zip(row_ids.tolist(), row_scores.tolist(), strict=True))
                if score > 0
            ]
            for row_ids, row_scores in zip(rows, scores, strict=True)
        ]


def _version(package: str) -> str | None:
    try:
        return importlib.metadata.version(package)
    except importlib.metadata.PackageNotFoundError:
        return None


__all__ = ["BM25Index"]
