"""The human labels of forged cases stay aligned with what the forgers make (answer_swap, false_premise).

``tests/data/forge_labels.jsonl`` holds one human reading per forged case of the bundled data
(docs/families/answer_swap.md, "Human validity"). When a change alters the cases (new ids from
changed templates or seed selection, other questions, another false premise), these tests fail,
so the labels are read again rather than silently describing cases that no longer exist.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from extra_skips import needs
from halluforge.config import DataSource, FilterConfig, SelectConfig
from halluforge.data.bundled import load_bundled
from halluforge.data.filters import apply_filters
from halluforge.families.answer_swap.generator import AnswerSwap
from halluforge.families.invite.false_premise import FalsePremise
from halluforge.families.shared.donors import example_kind
from halluforge.families.shared.restatements import restatement
from halluforge.forge.base import ForgeContext
from halluforge.records import TestCase, stable_id
from halluforge.seed_cases import seed_case_id

FAMILIES = ("answer_swap", "false_premise")
LABELS = ("plausible", "wrong kind", "implausible role", "broken text")
#: the generator model of the main job, whose answer_swap cases were labelled
GENERATOR = "llamacpp/smollm2-135m"
LABEL_FILE = Path(__file__).resolve().parents[2] / "data" / "forge_labels.jsonl"


def _labels(family: str) -> list[dict[str, Any]]:
    rows = [json.loads(line) for line in LABEL_FILE.read_text(encoding="utf-8").splitlines() if line.strip()]
    return [r for r in rows if r["family"] == family]


@pytest.mark.parametrize("family", FAMILIES)
def test_label_lines_are_well_formed_and_unique(family: str) -> None:
    rows = _labels(family)
    assert rows, f"no {family} labels"
    for row in rows:
        assert set(row) == {"test_case_id", "family", "question", "original", "new", "label", "note"}
        assert row["label"] in LABELS, row
        assert row["label"] == "plausible" or row["note"], f"a non-plausible label needs a note: {row}"
    assert len({r["test_case_id"] for r in rows}) == len(rows)


def test_answer_swap_labels_match_the_bundled_sample_cases() -> None:
    """Every label names a case the main job can forge: its id, question and gold answer."""
    examples, _ = apply_filters(load_bundled(DataSource()), FilterConfig())
    hashes = AnswerSwap().template_hashes()
    by_id = {
        stable_id("answer_swap", seed_case_id(e, GENERATOR, SelectConfig()), hashes): e for e in examples
    }
    rows = _labels("answer_swap")
    # every case of the main job's run was read: 67 of its 80 seed cases (13 are skipped)
    assert len(rows) >= 0.55 * len(examples)
    for row in rows:
        example = by_id.get(row["test_case_id"])
        assert example is not None, f"label for a case the bundled sample no longer yields: {row}"
        assert (row["question"], row["original"]) == (example.question, example.answers[0])
        assert row["new"] != row["original"]
        # a seed whose passage restates its answer is skipped, so it has no case to label
        assert (
            restatement(example.evidence or "", example.answers, example_kind(example), example.question)
            is None
        ), row


@needs("kb")  # the bundled sample KB is N-Triples
async def test_false_premise_labels_match_the_forged_cases() -> None:
    """The bundled-KB cases of examples/invite.yaml (rules only), one label each, same premise."""
    gen = FalsePremise.from_config({"per_predicate": 4})
    ctx = ForgeContext(llm=None)
    gen.prepare(ctx)
    cases = [m for item in gen.inputs(ctx) for m in await gen.forge_one(item, ctx) if isinstance(m, TestCase)]
    rows = {r["test_case_id"]: r for r in _labels("false_premise")}
    assert set(rows) == {c.id for c in cases}
    for case in cases:
        row, edit = rows[case.id], case.edits[0]
        assert (row["question"], row["original"], row["new"]) == (case.question, edit.old, edit.new)


def test_label_shares_are_what_the_docs_quote() -> None:
    """docs/families/answer_swap.md quotes these counts; relabel and update both together."""
    swaps = Counter(r["label"] for r in _labels("answer_swap"))
    premises = Counter(r["label"] for r in _labels("false_premise"))
    assert swaps == {"plausible": 67}
    assert premises == {"plausible": 50, "implausible role": 26}
