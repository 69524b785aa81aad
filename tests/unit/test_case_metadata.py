"""Outside forging, a test case's metadata is read through its family's typed model."""

from __future__ import annotations

import re
from pathlib import Path

from halluforge.families.claims import ClaimsMetadata
from halluforge.families.counterfactual import CounterfactualMetadata
from halluforge.family import CaseMetadata, metadata_of
from halluforge.records import TestCase

SRC = Path(__file__).resolve().parents[2] / "src" / "halluforge"


def _case(family: str, metadata: dict[str, object], variant: str | None = None) -> TestCase:
    return TestCase(id="t", family=family, question="Q?", metadata=metadata, variant=variant)


def test_metadata_of_reads_the_family_model() -> None:
    meta = metadata_of(_case("counterfactual", {"domain": "term", "repeat": 2, "word_pairs": [["a", "b"]]}))
    assert isinstance(meta, CounterfactualMetadata)
    assert (meta.domain, meta.repeat, meta.word_pairs, meta.edited_words) == ("term", 2, [["a", "b"]], [])
    # an unknown family (an old or foreign run) reads as the base model, extra keys kept
    foreign = metadata_of(_case("not_a_family", {"category": "x", "other": 1}))
    assert type(foreign) is CaseMetadata and foreign.category == "x" and foreign.model_extra == {"other": 1}


def test_a_family_reads_its_own_model_with_its_defaults() -> None:
    meta = ClaimsMetadata.of(_case("claims", {"tags": ["<answer>", "<novel>"], "source": "hard_trivia"}))
    assert (meta.tags, meta.type_claim, meta.decomposition, meta.source) == (
        ["<answer>", "<novel>"],
        "c1",
        "rule",
        "hard_trivia",
    )


def test_reading_is_lenient_where_the_forge_check_is_strict() -> None:
    case = _case("counterfactual", {"repeat": "not a number", "domain": "term"})
    meta = CounterfactualMetadata.of(case)  # a report still opens the run
    assert meta.domain == "term" and meta.repeat == "not a number"


def test_the_generic_fields_category_and_answer_position() -> None:
    assert metadata_of(_case("claims", {"category": 7})).category == "7"
    assert metadata_of(_case("claims", {"category": ""})).category is None
    assert metadata_of(_case("answer_swap", {"answer_position": 0.4})).answer_position == 0.4
    assert metadata_of(_case("answer_swap", {"answer_position": True})).answer_position is None


#: modules that read test cases after forging: metrics, reports, stages, the viewer and each family's
#: scorers, sections, plans and judge (generators and loaders read examples' raw metadata)
READERS = [
    *SRC.glob("metrics/*.py"),
    *SRC.glob("reports/*.py"),
    *SRC.glob("stages/*.py"),
    *SRC.glob("viewer/*.py"),
    *SRC.glob("families/*/metrics.py"),
    *SRC.glob("families/*/report.py"),
    *SRC.glob("families/*/plan.py"),
    *SRC.glob("families/*/stats.py"),
    *SRC.glob("families/invite/judge/core.py"),
]


def test_no_raw_metadata_reads_outside_forging() -> None:
    raw = re.compile(r"\.metadata(\.get\(|\[)")
    found = [
        f"{path.relative_to(SRC)}:{n}"
        for path in READERS
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if raw.search(line) and not line.lstrip().startswith("#")
    ]
    assert len(READERS) > 20 and found == []
