"""The retrieval contract: a passage corpus and retrievers over it.

A :class:`Passage` is one retrievable text with its title. A retriever answers a query with
the top-k passages and their scores. Dense (sentence-transformers + FAISS) and lexical (BM25)
retrievers implement the same protocol, so the ``context_enrich`` generator does not care
which one it gets.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol


@dataclass(frozen=True)
class Passage:
    """One retrievable text."""

    id: str
    title: str
    text: str


@dataclass(frozen=True)
class Hit:
    """A passage returned for a query, with its score (higher is closer) and rank (0-based)."""

    passage: Passage
    score: float
    rank: int


class Retriever(Protocol):
    """Answers queries with the nearest passages."""

    def search(self, query: str, k: int) -> list[Hit]:
        """Top-k passages for one query."""
        ...

    def search_many(self, queries: Sequence[str], k: int) -> list[list[Hit]]:
        """Top-k passages for each query (batched)."""
        ...


__all__ = ["Hit", "Passage", "Retriever"]
