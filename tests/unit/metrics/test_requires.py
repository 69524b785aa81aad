"""A derived metric's requirements are checked: preflight refuses a scorer nobody runs, and the
report says which requirement the stored rows do not meet instead of a metric that yields nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from halluforge.config import load_config
from halluforge.families.claims.metrics import ScoreT
from halluforge.family import FAMILIES
from halluforge.metrics.joined import Joined
from halluforge.metrics.layer import NormalizedEntailment, missing_scorers, unmet_notes
from halluforge.preflight import collect_problems
from halluforge.records import Score, TestCase

SPECS = {name: FAMILIES.get(name) for name in ("original", "answer_swap", "claims")}


def _case(cid: str, family: str) -> TestCase:
    return TestCase(id=cid, family=family, question="Q?", expected=["x"], parent_example="e1")


def _score(cid: str, metric: str, family: str) -> Score:
    return Score(
        id=f"{cid}-{metric}",
        response_id=f"r-{cid}",
        test_case_id=cid,
        model="m",
        setting="open_book",
        family=family,
        metric=metric,
        value=1.0,
    )


def test_norm_entail_without_baseline_cases_is_noted_with_the_reason() -> None:
    joined = Joined.build([_case("a", "answer_swap")], [], [_score("a", "entail", "answer_swap")])
    assert NormalizedEntailment().unmet(joined, SPECS) == [
        "needs original test cases for answer_swap (its baseline), and this run has none"
    ]
    assert unmet_notes(joined, SPECS) == [
        "norm_entail: not derived - needs original test cases for answer_swap (its baseline), "
        "and this run has none"
    ]
    met = Joined.build(
        [_case("a", "answer_swap"), _case("o", "original")],
        [],
        [_score("a", "entail", "answer_swap"), _score("o", "entail", "original")],
    )
    assert NormalizedEntailment().unmet(met, SPECS) == [] and unmet_notes(met, SPECS) == []


def test_a_required_score_absent_from_the_run_is_noted() -> None:
    joined = Joined.build([_case("c", "claims")], [], [_score("c", "claim_verdict", "claims")])
    notes = unmet_notes(joined, SPECS, options={"score_t": {"correct_by": "em"}})
    assert notes == [
        "score_t: not derived - needs gt_claim_verdict scores, and this run has none",
        "score_t: not derived - needs em scores, and this run has none",
    ]


def test_score_t_requires_the_scorer_its_options_name() -> None:
    assert "score:hit" in ScoreT().requirements()
    assert "score:em" in ScoreT({"correct_by": "em"}).requirements()
    claims = ["hit", "claim_verdict", "gt_claim_verdict", "whole_verdict"]
    assert missing_scorers(claims, ["score_t"]) == []
    assert missing_scorers(claims, ["score_t"], {"score_t": {"correct_by": "em"}}) == [("score_t", "em")]


def test_preflight_refuses_a_required_scorer_nobody_runs(tmp_path: Path) -> None:
    overrides = {
        "output_dir": str(tmp_path / "runs"),
        "models.generator": "mock/echo",
        "models.targets": ["mock/echo"],
        "data": [{"loader": "bundled", "limit": 2}],
        "families": {"claims": {}},
        "score.metrics": ["hit"],
    }
    good = load_config(None, overrides, environ={})
    assert not [p for p in collect_problems(good) if p.key == "score.metrics"]
    bad = load_config(None, {**overrides, "score.options": {"score_t": {"correct_by": "em"}}}, environ={})
    (problem,) = [p for p in collect_problems(bad) if p.key == "score.metrics"]
    assert "score_t needs em scores" in problem.message and "add em to score.metrics" in (problem.hint or "")


@pytest.mark.parametrize("include", [True, False])
def test_a_run_without_originals_says_why_norm_entail_is_missing(tmp_path: Path, include: bool) -> None:
    from halluforge.pipeline import run_pipeline

    config = load_config(
        None,
        {
            "output_dir": str(tmp_path / "runs"),
            "models.generator": "mock/echo",
            "models.targets": ["mock/echo"],
            "data": [{"loader": "bundled", "limit": 3}],
            "answer.settings": ["open_book"],
            "answer.include_originals": include,
            "score.bootstrap": 0,
        },
        environ={},
    )
    result = run_pipeline(config)
    noted = [n for n in result.summary.notes if n.startswith("norm_entail: not derived")]
    if include:
        assert noted == []
    else:
        assert noted == [
            "norm_entail: not derived - needs original test cases for answer_swap (its baseline), "
            "and this run has none"
        ]
        assert noted[0] in (result.run_dir / "summary.md").read_text(encoding="utf-8")
