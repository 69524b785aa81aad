"""Seed selection reads correctness the way the scorers do, so buckets and scores agree."""

from __future__ import annotations

import pytest

from halluforge.metrics.match import ExactMatch
from halluforge.records import Response, TestCase
from halluforge.seed_cases import is_correct


@pytest.mark.parametrize(
    ("output", "em", "hit"),
    [
        ("Paris", True, True),
        ("Answer: Paris", True, True),
        ("The answer is Paris.", True, True),
        ("Paris, the capital of France", False, True),
        ("Lyon", False, False),
    ],
)
def test_selection_agrees_with_the_em_scorer(output: str, em: bool, hit: bool) -> None:
    assert is_correct(output, ["Paris"], "em") is em
    assert is_correct(output, ["Paris"], "hit") is hit
    case = TestCase(id="c", family="original", question="Capital of France?", expected=["Paris"])
    response = Response(id="r", test_case_id="c", model="m", setting="closed_book", text=output)
    assert (ExactMatch().score(case, response).value == 1.0) is em
