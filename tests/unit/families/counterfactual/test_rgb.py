"""The rgb loader on a fixture written from RGB's schema, and bad rows with file:line errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from halluforge.config import DataSource
from halluforge.data import ready_family
from halluforge.errors import DataError
from halluforge.families.counterfactual.rgb import load_rgb
from halluforge.family import FAMILIES
from halluforge.stages.load import ready_case

FIXTURE = Path(__file__).parents[3] / "fixtures" / "rgb" / "counterfactual.jsonl"


def test_rgb_lines_become_ready_qa_a_cases() -> None:
    source = DataSource(loader="rgb", path=str(FIXTURE))
    assert ready_family(source) == "counterfactual"
    examples = list(load_rgb(source))
    assert len(examples) == 4
    cases = [ready_case("counterfactual", e) for e in examples]
    spec = FAMILIES.get("counterfactual")
    for case in cases:
        spec.check_metadata(case)
        assert case.format == "choice" and case.variant == "qa_a" and case.expected == []
        roles = {o.role: o.text for o in case.options}
        assert roles["correct"] in case.original_answers and roles["counterfactual"] in (case.context or "")
        assert roles["correct"] not in (case.context or "") and roles["correct"] in (
            case.original_context or ""
        )
    lincoln = cases[1]
    assert lincoln.original_answers == ["Abraham Lincoln", "Lincoln"]  # nested aliases flattened
    assert {tuple(o.role for o in c.options) for c in cases} == {
        ("correct", "counterfactual"),
        ("counterfactual", "correct"),
    }


def test_rgb_examples_mode_feeds_the_generator() -> None:
    source = DataSource(loader="rgb", path=str(FIXTURE), options={"mode": "examples"})
    assert ready_family(source) is None
    (first, *_) = load_rgb(source)
    assert first.evidence and "Athens" in first.evidence and first.answers == ["Athens"]


@pytest.mark.parametrize(
    ("row", "field"),
    [
        ({"id": 9, "answer": ["x"], "fakeanswer": "y", "positive": ["x"], "positive_wrong": ["y"]}, "query"),
        (
            {
                "id": 9,
                "query": "q",
                "answer": [],
                "fakeanswer": "y",
                "positive": ["x"],
                "positive_wrong": ["y"],
            },
            "answer",
        ),
        ({"id": 9, "query": "q", "answer": ["x"], "positive": ["x"], "positive_wrong": ["y"]}, "fakeanswer"),
        ({"id": 9, "query": "q", "answer": ["x"], "fakeanswer": "y", "positive": ["x"]}, "positive_wrong"),
    ],
)
def test_bad_rows_name_file_line_and_field(tmp_path: Path, row: dict[str, object], field: str) -> None:
    path = tmp_path / "rgb.jsonl"
    good = FIXTURE.read_text(encoding="utf-8").splitlines()[0]
    path.write_text(good + "\n" + json.dumps(row) + "\n", encoding="utf-8")
    with pytest.raises(DataError, match=rf"rgb\.jsonl.*2.*{field}"):
        list(load_rgb(DataSource(loader="rgb", path=str(path))))
