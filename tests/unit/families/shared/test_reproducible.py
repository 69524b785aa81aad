"""Reproducible forging: the cases depend on the config and the install, never on a cache's contents.

Issue 25 item 5: with sentence-transformers absent the donors come from the kind pool, and a
MiniLM embedding file some other process left in the user cache must not switch them to
neighbour donors. A case's id covers its donor, so a changed donor is a new id.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

import pytest
from test_donors import _examples as examples
from test_donors import fake_encoder

from extra_skips import needs
from halluforge.families.answer_swap.generator import AnswerSwap
from halluforge.families.shared.donors import CachedEncoder, build_neighbours
from halluforge.forge.base import EMBEDDING_CACHE, ForgeContext
from halluforge.records import Example, TestCase


def _without_sentence_transformers(monkeypatch: pytest.MonkeyPatch) -> None:
    real = importlib.util.find_spec

    def find_spec(name: str, package: str | None = None) -> Any:
        return None if name.split(".")[0] == "sentence_transformers" else real(name, package)

    monkeypatch.setattr(importlib.util, "find_spec", find_spec)


def _fill(folder: Path, rows: list[Example]) -> None:
    """Leave MiniLM-shaped embeddings of the questions and answers in ``folder``, as a past run would."""
    encode = CachedEncoder(folder, "all-MiniLM-L6-v2", lambda: fake_encoder)
    encode([e.question for e in rows])
    encode(sorted({a for e in rows for a in e.answers}))


def test_embeddings_in_the_cache_do_not_switch_on_the_neighbour_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _without_sentence_transformers(monkeypatch)
    rows = examples()
    _fill(tmp_path / "warm", rows)
    assert any((tmp_path / "warm").iterdir())
    warm = build_neighbours(rows, cache_dir=tmp_path / "warm")
    cold = build_neighbours(rows, cache_dir=tmp_path / "cold")
    assert warm.rivals == cold.rivals == {}
    assert warm.reason == cold.reason and "sentence-transformers is not installed" in (warm.reason or "")


async def _forge(
    rows: list[Example], cache: Path, monkeypatch: pytest.MonkeyPatch, **options: Any
) -> list[Any]:
    monkeypatch.setenv("HALLUFORGE_CACHE_DIR", str(cache))
    gen = AnswerSwap.from_config({"real_donors": "always", **options})  # the writers take real donors
    ctx = ForgeContext(
        llm=None, seed=3, examples=rows, resources={EMBEDDING_CACHE: str(cache / "embeddings")}
    )
    gen.prepare(ctx)
    return [m for e in rows for m in await gen.forge_one(e, ctx)]


async def test_the_same_config_in_two_fresh_cache_folders_gives_identical_cases(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _without_sentence_transformers(monkeypatch)
    rows = examples()
    first = await _forge(rows, tmp_path / "one", monkeypatch)
    _fill(tmp_path / "two" / "embeddings", rows)  # the second folder holds another run's embeddings
    second = await _forge(rows, tmp_path / "two", monkeypatch)
    assert [m.model_dump() for m in first] == [m.model_dump() for m in second]
    assert any(isinstance(m, TestCase) for m in first)


@needs("knowledge")  # the entity table's writers are what change the donors here
async def test_a_changed_donor_gives_a_new_id(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _without_sentence_transformers(monkeypatch)
    rows = examples()
    seeded = {m.parent_example: m for m in await _forge(rows, tmp_path, monkeypatch, knowledge=False)}
    again = {m.parent_example: m for m in await _forge(rows, tmp_path, monkeypatch, knowledge=False)}
    table = {m.parent_example: m for m in await _forge(rows, tmp_path, monkeypatch)}
    compared = 0
    for parent, case in seeded.items():
        other = table.get(parent)
        if not isinstance(case, TestCase) or not isinstance(other, TestCase):
            continue
        assert again[parent].id == case.id
        assert (case.expected == other.expected) == (case.id == other.id), (case.expected, other.expected)
        compared += 1
    changed = [p for p, c in seeded.items() if isinstance(c, TestCase) and isinstance(table.get(p), TestCase)
               and c.expected != table[p].expected]  # fmt: skip
    assert compared and changed  # the entity table changed some donors, and so their ids
