"""Retrieval: passage corpora, a dense index (sentence-transformers + FAISS) and BM25.

The ``context_enrich`` family (ReEval Category 2) needs passages related to a question or to
its evidence. This package builds and opens indexes over a passage corpus; every index
answers the :class:`~halluforge.retrieval.base.Retriever` protocol (``search``,
``search_many``), and the dense one also embeds texts (``DenseIndex.embed``) for
near-duplicate checks. Typical use::

    from halluforge.retrieval import build_index, default_index, open_index

    retriever = default_index()            # wiki-offline summaries + MiniLM, built once, cached
    hits = retriever.search("Who painted the Mona Lisa?", k=3)

    build_index("passages.jsonl", kind="bm25", out="idx/bm25")
    retriever = open_index("idx/bm25")

Heavy libraries (sentence-transformers, faiss, bm25s) are imported only when an index is
built, opened or queried, never when this package is imported.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import threading
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from halluforge.errors import ConfigError, DataError
from halluforge.retrieval.base import Hit, Passage, Retriever
from halluforge.retrieval.corpus import (
    MANIFEST,
    WIKI_OFFLINE,
    Corpus,
    load_corpus,
    read_manifest,
)

if TYPE_CHECKING:
    from halluforge.retrieval.bm25 import BM25Index
    from halluforge.retrieval.dense import DenseIndex, ProgressFn

#: the folder name of the default index under ``<cache>/indexes``
DEFAULT_INDEX_NAME = "wiki-offline-minilm"
DEFAULT_MODEL = "all-MiniLM-L6-v2"

_OPENED: dict[Path, Retriever] = {}
_OPENED_LOCK = threading.Lock()


def build_index(
    corpus: Corpus | Sequence[Passage] | str | Path,
    kind: Literal["dense", "bm25"] = "dense",
    model: str = DEFAULT_MODEL,
    out: str | Path | None = None,
    progress: ProgressFn | None = None,
    *,
    index_type: str = "flat",
    batch_size: int = 32,
    fields: Mapping[str, str] | None = None,
    split: str | None = None,
    device: str | None = None,
) -> DenseIndex | BM25Index:
    """Build an index over a corpus (a :class:`Corpus`, passages, or a spec for :func:`load_corpus`).

    With ``out``, the index is saved there atomically (built in a temporary sibling folder,
    then moved into place), replacing an earlier index in that folder; a non-empty folder that
    is not an index is never overwritten. ``model`` and ``index_type`` apply to dense indexes.
    """
    if isinstance(corpus, str | Path):
        corpus = load_corpus(corpus, fields=fields, split=split)
    elif not isinstance(corpus, Corpus):
        corpus = Corpus("passages", list(corpus))
    target = Path(out) if out is not None else None
    if target is not None:
        _check_writable(target)
    index: DenseIndex | BM25Index
    if kind == "dense":
        from halluforge.retrieval.dense import DenseIndex

        index = DenseIndex.build(
            corpus.passages,
            model,
            index_type=index_type,
            batch_size=batch_size,
            progress=progress,
            device=device,
            corpus_name=corpus.name,
        )
    elif kind == "bm25":
        from halluforge.retrieval.bm25 import BM25Index

        index = BM25Index.build(corpus.passages, progress=progress, corpus_name=corpus.name)
    else:
        raise ConfigError(f"unknown index kind {kind!r}", hint="use kind='dense' or kind='bm25'")
    if target is not None:
        _save_atomically(index, target)
    return index


def open_index(path: str | Path, *, mmap: bool = True) -> DenseIndex | BM25Index:
    """Open a saved index folder of either kind (read from its manifest)."""
    folder = Path(path)
    kind = read_manifest(folder)["kind"]
    if kind == "dense":
        from halluforge.retrieval.dense import DenseIndex

        return DenseIndex.load(folder, mmap=mmap)
    from halluforge.retrieval.bm25 import BM25Index

    return BM25Index.load(folder, mmap=mmap)


def default_index_path(cache_dir: str | Path | None = None) -> Path:
    """Where :func:`default_index` keeps its index: ``<cache>/indexes/wiki-offline-minilm``.

    ``<cache>`` is ``cache_dir``, else ``$HALLUFORGE_CACHE_DIR``, else ``~/.cache/halluforge``.
    """
    if cache_dir is None:
        root = os.environ.get("HALLUFORGE_CACHE_DIR")
        cache_dir = Path(root) if root else Path.home() / ".cache" / "halluforge"
    return Path(cache_dir) / "indexes" / DEFAULT_INDEX_NAME


def default_index(cache_dir: str | Path | None = None, progress: ProgressFn | None = None) -> Retriever:
    """The wiki-offline summaries embedded with MiniLM: built on first use, reopened after.

    The index is rebuilt when the installed corpus no longer matches the manifest's corpus
    hash (a new package version). Within a process the opened index is reused.
    """
    folder = default_index_path(cache_dir).resolve()
    with _OPENED_LOCK:
        cached = _OPENED.get(folder)
        if cached is not None:
            return cached
        corpus = load_corpus(WIKI_OFFLINE)
        index: DenseIndex | BM25Index | None = None
        if (folder / MANIFEST).is_file():
            try:
                manifest = read_manifest(folder)
            except DataError:
                manifest = {}
            if manifest.get("corpus_hash") == corpus.hash and manifest.get("model") == DEFAULT_MODEL:
                try:
                    index = open_index(folder)
                except DataError:
                    index = None  # a damaged cache entry: rebuild it below
        if index is None:
            index = build_index(corpus, "dense", DEFAULT_MODEL, out=folder, progress=progress)
        _OPENED[folder] = index
        return index


def _check_writable(target: Path) -> None:
    """Refuse to replace a folder that holds something other than an index."""
    if target.exists() and (
        not target.is_dir() or (any(target.iterdir()) and not (target / MANIFEST).is_file())
    ):
        raise ConfigError(
            f"{target} exists and is not an index folder; refusing to overwrite it",
            hint="choose an empty or new --out folder",
        )


def _save_atomically(index: Any, target: Path) -> None:
    """Save into a temporary sibling, then swap it in, so readers never see a half-written index."""
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{target.name}.", dir=target.parent))
    try:
        index.save(staging)
        old: Path | None = None
        if target.exists():
            old = Path(tempfile.mkdtemp(prefix=f".{target.name}.old.", dir=target.parent))
            old.rmdir()
            target.rename(old)
        try:
            staging.rename(target)
        except OSError:
            # another process swapped in its own build meanwhile: keep that one if it is complete
            if not (target / MANIFEST).is_file():
                raise
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)
    finally:
        if staging.exists():
            shutil.rmtree(staging, ignore_errors=True)


__all__ = [
    "DEFAULT_INDEX_NAME",
    "DEFAULT_MODEL",
    "Corpus",
    "Hit",
    "Passage",
    "Retriever",
    "build_index",
    "default_index",
    "default_index_path",
    "load_corpus",
    "open_index",
]
