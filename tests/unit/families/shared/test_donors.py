"""Donor answers for the answer swap: the kind pool and the neighbour donors, on hand-made data."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence
from typing import Any

import numpy as np
import pytest

from extra_skips import needs
from halluforge.errors import ModelError
from halluforge.families.answer_swap.generator import AnswerSwap
from halluforge.families.shared.donors import (
    CachedEncoder,
    NeighbourIndex,
    build_kind_pool,
    build_neighbours,
    draw_kind,
    draw_ranked,
    example_kind,
)
from halluforge.families.shared.kinds import is_member
from halluforge.forge.base import ForgeContext
from halluforge.records import Example, TestCase

WRITERS = ["Jane Austen", "Charles Dickens", "Leo Tolstoy", "Mark Twain", "Virginia Woolf", "Homer", "Ovid"]
PAINTERS = ["Claude Monet", "Pablo Picasso", "Rembrandt", "Titian", "Edgar Degas", "Raphael"]
CAPITALS = ["Paris", "Rome", "Madrid", "Lisbon", "Vienna", "Athens", "Oslo"]


def _examples() -> list[Example]:
    out = []
    for i, name in enumerate(WRITERS):
        out.append(
            Example.build(f"who wrote book {i}?", [name], f"Book {i} was written by {name}.", id=f"w{i}")
        )
    for i, name in enumerate(PAINTERS):
        out.append(Example.build(f"who painted picture {i}?", [name], f"{name} painted it.", id=f"p{i}"))
    for i, name in enumerate(CAPITALS):
        out.append(
            Example.build(f"what is the capital of land {i}?", [name], f"{name} is the capital.", id=f"c{i}")
        )
    return out


def fake_encoder(texts: Sequence[str]) -> Any:
    """Topic features and per-text noise: "who wrote" questions sit near writers, and so on.

    The dataset's own answers carry their topic fully, the lexicon's other members weakly, so
    a neighbour's answer is the best rival here; the noise keeps two writers from being aliases.
    """
    rows = []
    for text in texts:
        if text == "Jane Austen's ghost":  # a near-duplicate of a gold answer
            text = "Jane Austen"
        weight = 1.0 if "?" in text or text in (*WRITERS, *PAINTERS, *CAPITALS) else 0.4
        vec = np.zeros(7, dtype=np.float32)
        vec[0] = ("wrote" in text or is_member(text, "person:writer")) * weight
        vec[1] = ("painted" in text or is_member(text, "person:painter")) * weight
        vec[2] = ("capital" in text or is_member(text, "place:capital")) * weight
        seed = int(hashlib.sha256(text.encode()).hexdigest()[:8], 16)
        vec[3:] = np.random.default_rng(seed).uniform(-0.5, 0.5, size=4)
        rows.append(vec / np.linalg.norm(vec))
    return np.stack(rows)


def test_kind_pool_groups_the_datasets_answers_by_fine_kind() -> None:
    pool = build_kind_pool(_examples())
    assert pool["person:writer"] == sorted(WRITERS)
    assert pool["person:painter"] == sorted(PAINTERS)
    assert pool["place:capital"] == sorted(CAPITALS)
    assert example_kind(_examples()[0]) == "person:writer"


def test_a_dataset_too_small_gets_no_neighbours_and_says_why() -> None:
    index = build_neighbours(_examples()[:5], encoder=fake_encoder)
    assert index.rivals == {}
    assert index.reason == "dataset too small for neighbours (5 usable examples < 20)"


def test_neighbours_rank_same_kind_rivals_from_similar_questions_first() -> None:
    examples = _examples()
    index = build_neighbours(examples, encoder=fake_encoder, min_examples=20, k=6)
    assert index.reason is None and set(index.rivals) == {e.id for e in examples}
    ranked = index.ranked("w0")  # "who wrote book 0" -> Jane Austen
    assert ranked and all(r[0] in WRITERS or r[1] == "kind_lexicon" for r in ranked)
    assert {r[0] for r in ranked if r[1] == "neighbour"} <= set(WRITERS) - {"Jane Austen"}
    assert ranked[0][1] == "neighbour"  # a neighbour's answer beats the lexicon's at equal fit
    assert not any(r[0] in PAINTERS or r[0] in CAPITALS for r in ranked)
    assert [r[3] for r in ranked] == sorted((r[3] for r in ranked), reverse=True)
    capitals = index.ranked("c0")
    assert capitals[0][0] in CAPITALS and capitals[0][1] == "neighbour"


def test_aliases_and_non_rivals_are_filtered_by_answer_similarity() -> None:
    examples = [*_examples(), Example.build("who wrote book 99?", ["Jane Austen's ghost"], "x", id="w99")]
    index = build_neighbours(examples, encoder=fake_encoder, min_examples=20, max_alias=0.9)
    assert "Jane Austen's ghost" not in [r[0] for r in index.ranked("w0")]  # too close: an alias
    strict = build_neighbours(examples, encoder=fake_encoder, min_examples=20, min_rival=0.99)
    assert strict.ranked("w1") == []  # nothing is that close a rival


def test_an_encoder_that_cannot_load_leaves_a_reason() -> None:
    def broken(texts: Sequence[str]) -> Any:
        raise ModelError("dense retrieval needs sentence-transformers")

    index = build_neighbours(_examples(), encoder=broken)
    assert index.rivals == {}
    assert index.reason is not None and "sentence-transformers" in index.reason


def test_draws_take_the_first_acceptable_candidate() -> None:
    ranked = [["Homer", "neighbour", 0.5, 1.2], ["Ovid", "kind_pool", 0.4, 1.0]]
    assert draw_ranked(ranked, lambda a: None) == ("Homer", "neighbour", [])
    assert draw_ranked(ranked, lambda a: "no" if a == "Homer" else None) == ("Ovid", "kind_pool", ["no"])
    assert draw_ranked(ranked, lambda a: "no")[0] is None
    pool = build_kind_pool(_examples())
    answer, path = draw_kind("person:writer", pool, random.Random(0), lambda a: None)
    assert answer in WRITERS and path == "kind_pool"
    answer, path = draw_kind(
        "person:writer", pool, random.Random(0), lambda a: None if a == "Mark Twain" else "x"
    )
    assert (answer, path) == ("Mark Twain", "kind_pool")
    # nothing in the dataset passes: the lexicon's writers
    answer, path = draw_kind("person:writer", pool, random.Random(0), lambda a: "x" if a in WRITERS else None)
    assert path == "kind_lexicon" and answer not in WRITERS


async def test_forge_records_the_neighbour_path_and_the_small_data_fallback() -> None:
    examples = _examples()
    # the entity table off: with it, a known gold writer takes the table's contemporaries first
    # real donors always: by default no real writer replaces a person
    gen = AnswerSwap.from_config({"neighbour_min_examples": 20, "knowledge": False, "real_donors": "always"})
    ctx = ForgeContext(llm=None, examples=examples)
    ctx.resources[gen.wrong.donors_key()] = (
        build_kind_pool(examples),
        build_neighbours(examples, encoder=fake_encoder),
    )
    (case,) = await gen.forge_one(examples[0], ctx)
    assert isinstance(case, TestCase)
    prov = case.provenance.fields["expected"]
    assert prov.method == "neighbour" and case.expected[0] in set(WRITERS) - {"Jane Austen"}
    small = ForgeContext(llm=None, examples=examples[:4])
    (case,) = await gen.forge_one(examples[0], small)
    assert isinstance(case, TestCase)
    prov = case.provenance.fields["expected"]
    assert prov.method == "kind_pool" and case.expected[0] in WRITERS[1:4]
    assert any(r.startswith("no neighbours: dataset too small") for r in prov.rejected)
    assert isinstance(small.resources[gen.wrong.donors_key()][1], NeighbourIndex)


@needs("retrieval", "sentence_transformers")
async def test_real_minilm_neighbours_give_a_writer_for_a_writer() -> None:
    """The bundled MiniLM on hand-made questions: the rival of a writer is a writer, by its question."""
    examples = _examples()
    index = build_neighbours(examples, min_examples=20)
    if index.reason is not None and "no embeddings" in index.reason:
        pytest.skip(index.reason)
    for example in examples:
        best = index.ranked(example.id)[0]
        group = next(g for g in (WRITERS, PAINTERS, CAPITALS) if example.answers[0] in g)
        assert best[0] in group or best[1] == "kind_lexicon", (example.question, best)


def test_donor_embeddings_are_kept_so_a_warm_rerun_loads_no_encoder(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With a cache folder, MiniLM is loaded only for texts it has not embedded before."""
    loads: list[str] = []

    def counting_loader(model: str = "all-MiniLM-L6-v2") -> Any:
        loads.append(model)
        return fake_encoder

    monkeypatch.setattr("halluforge.families.shared.donors.minilm_encoder", counting_loader)
    examples = _examples()
    cold = build_neighbours(examples, min_examples=20, cache_dir=tmp_path)
    assert loads == ["all-MiniLM-L6-v2"] and cold.reason is None
    files = sorted(tmp_path.glob("*.npy"))
    assert len(files) == 2  # the questions and the candidate answers
    warm = build_neighbours(examples, min_examples=20, cache_dir=tmp_path)
    assert loads == ["all-MiniLM-L6-v2"]  # nothing loaded the second time
    assert warm.rivals == cold.rivals
    # other texts are a miss; an unreadable entry is computed again and replaced
    build_neighbours(examples[1:], min_examples=5, cache_dir=tmp_path)
    assert len(loads) == 2
    files[0].write_bytes(b"not an array")
    encoder = CachedEncoder(tmp_path, "all-MiniLM-L6-v2", lambda: fake_encoder)
    again = build_neighbours(examples, min_examples=20, encoder=encoder)
    assert again.rivals == cold.rivals and encoder.misses == 1 and encoder.hits == 1
    assert not list(tmp_path.glob("*.tmp"))
