"""Retrieved passages for context enrichment: open the index, keep k diverse ones.

:func:`open_retriever` opens the index the ``index`` option names; :func:`select_passages`
keeps the top-k hits from distinct titles, without the query's own text or the original
evidence, and without near-duplicates (the cosine of stored embeddings when the index has
them, :func:`passage_embedder`; token Jaccard otherwise).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from typing import Any

from halluforge.errors import ConfigError, ModelError
from halluforge.retrieval.base import Hit, Passage, Retriever
from halluforge.textkit.overlap import jaccard
from halluforge.textkit.tokens import norm

# -- retrieval -------------------------------------------------------------------------------


def _cosine_matrix(embed: Callable[[list[Passage]], Any], passages: list[Passage]) -> list[list[float]]:
    import numpy as np

    vectors = np.asarray(embed(passages), dtype="float32")
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    vectors = vectors / np.maximum(norms, 1e-12)
    matrix: list[list[float]] = (vectors @ vectors.T).tolist()
    return matrix


def select_passages(
    hits: Sequence[Hit],
    query: str,
    k: int,
    *,
    dedupe: float,
    embed: Callable[[list[Passage]], Any] | None = None,
    exclude: Sequence[str] = (),
) -> tuple[list[Passage], dict[str, int]]:
    """Top-k passages from distinct titles, without the query text and without near-duplicates.

    Returns the kept passages (best first) and counts of the dropped ones by reason. A passage
    "contains the query" when the normalised query occurs in it or it occurs in the query (the
    evidence itself, or a piece of it, found in the corpus); the same test against each text in
    ``exclude`` (the original evidence, for the question-focused variant) drops a passage as
    ``source_text``. Near-duplicates are judged by the
    cosine of the passages' embeddings when ``embed`` (passages → vectors, see
    :func:`passage_embedder`) is given, else by token Jaccard; both against ``dedupe``.
    """
    dropped = {"query_text": 0, "source_text": 0, "same_title": 0, "near_duplicate": 0}
    norm_query = norm(query)
    norm_exclude = [n for n in map(norm, exclude) if n]
    ordered = sorted(hits, key=lambda h: h.rank)
    candidates: list[Passage] = []
    for hit in ordered:
        text = norm(hit.passage.text)
        if text and norm_query and (norm_query in text or text in norm_query):
            dropped["query_text"] += 1
            continue
        if text and any(other in text or text in other for other in norm_exclude):
            dropped["source_text"] += 1
            continue
        candidates.append(hit.passage)
    cosine = _cosine_matrix(embed, candidates) if embed and candidates else None
    kept: list[int] = []
    titles: set[str] = set()
    for index, passage in enumerate(candidates):
        if len(kept) == k:
            break
        title = passage.title.strip().casefold()
        if title in titles:
            dropped["same_title"] += 1
            continue
        if cosine is not None:
            duplicate = any(cosine[index][j] > dedupe for j in kept)
        else:
            duplicate = any(jaccard(passage.text, candidates[j].text) > dedupe for j in kept)
        if duplicate:
            dropped["near_duplicate"] += 1
            continue
        kept.append(index)
        titles.add(title)
    return [candidates[i] for i in kept], dropped


def passage_embedder(retriever: Retriever) -> Callable[[list[Passage]], Any] | None:
    """Embeddings of passages from the retriever, when it has them (stored vectors first).

    A dense index exposes ``vectors_of(passages)`` (its stored vectors, no encoding) and
    ``embed(texts)``; a lexical retriever has neither, and near-duplicates fall back to Jaccard.
    """
    vectors_of = getattr(retriever, "vectors_of", None)
    if callable(vectors_of):
        return lambda passages: vectors_of(passages)
    embed = getattr(retriever, "embed", None)
    if callable(embed):
        return lambda passages: embed([p.text for p in passages])
    return None


def open_retriever(index: str, progress: Callable[[int, int], None] | None = None) -> Retriever:
    """Open the retriever named by the ``index`` option ('default' or a saved index path).

    ``progress(done, total)`` is called while the default index is built (its first use).
    """
    try:
        retrieval = importlib.import_module("halluforge.retrieval")
    except ImportError as exc:  # pragma: no cover - the package is part of halluforge
        raise ModelError(f"cannot import halluforge.retrieval: {exc}") from exc
    if index == "default":
        opener = getattr(retrieval, "default_index", None)
        args: tuple[str, ...] = ()
    else:
        opener = getattr(retrieval, "load_index", None) or getattr(retrieval, "open_index", None)
        args = (index,)
    if opener is None:
        raise ConfigError(
            f"this halluforge build cannot open the retrieval index {index!r}",
            hint='pip install "halluforge[retrieval]" and build an index with `halluforge index build`',
        )
    kwargs = {"progress": progress} if index == "default" and progress is not None else {}
    retriever: Retriever = opener(*args, **kwargs)
    return retriever


__all__ = ["open_retriever", "passage_embedder", "select_passages"]
