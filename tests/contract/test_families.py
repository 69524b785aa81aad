"""Every registered family spec holds together, and the families that edit a text record the edit."""

from __future__ import annotations

import asyncio

import pytest

from extra_skips import needs
from halluforge.family import FAMILIES, CaseMetadata
from halluforge.forge.base import ForgeContext, Generator
from halluforge.metrics import SCORERS
from halluforge.metrics.layer import METRICS
from halluforge.records import Edit, TestCase
from halluforge.reports.sections import SECTIONS
from halluforge.settings import SETTINGS


@pytest.mark.parametrize("name", FAMILIES.names())
def test_family_spec_contract(name: str) -> None:
    spec = FAMILIES.get(name)
    assert spec.name == name and spec.paper and spec.title and spec.correct_means
    assert issubclass(spec.metadata, CaseMetadata)
    for setting in spec.settings or ():
        assert setting in SETTINGS, setting
    for scorer in spec.scorers:
        assert scorer in SCORERS, scorer
    for metric in spec.metrics:
        assert metric in METRICS, metric
    for section in spec.sections:
        assert section in SECTIONS, section
    if spec.baseline is not None:
        assert spec.baseline in FAMILIES
    cls = spec.generator_class()
    if cls is not None:
        assert issubclass(cls, Generator) and cls.family == name
        assert spec.build_generator({}) is not None
    else:
        assert spec.build_generator({}) is None


def _check_edit(case: TestCase, edit: Edit) -> None:
    text = {"question": case.question, "context": case.context, "reference": case.reference}[edit.field] or ""
    assert edit.old != edit.new
    assert edit.start is not None and edit.end is not None, case.id
    assert text[edit.start : edit.end] == edit.new


@needs("kb")  # the bundled sample KB is N-Triples
def test_false_premise_records_the_swapped_entity() -> None:
    generator = FAMILIES.get("false_premise").build_generator({"per_predicate": 2})
    cases = [c for c in generator.generate(seed=0) if isinstance(c, TestCase)]  # type: ignore[union-attr]
    assert cases
    for case in cases:
        (edit,) = case.edits
        assert (edit.field, edit.kind) == ("question", "entity") and edit.new == case.metadata[
            "swapped_entity"
        ]
        assert edit.old == case.metadata["replaced_entity"]
        _check_edit(case, edit)


def test_invalid_date_records_the_changed_date() -> None:
    from halluforge.config import DataSource
    from halluforge.data.bundled import load_bundled

    examples = list(load_bundled(DataSource(loader="bundled", path="dated_questions", limit=20)))
    generator = FAMILIES.get("invalid_date").build_generator({"current_year": 2026})
    assert generator is not None
    ctx = ForgeContext(llm=None, examples=examples)
    made = [m for e in generator.inputs(ctx) for m in asyncio.run(generator.forge_one(e, ctx))]
    cases = [m for m in made if isinstance(m, TestCase)]
    assert cases
    for case in cases:
        (edit,) = case.edits
        assert (edit.old, edit.new) == (case.metadata["old_text"], case.metadata["new_text"])
        assert edit.kind == "date"
        _check_edit(case, edit)
