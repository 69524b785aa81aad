"""Per-item scores and reasons travel in typed fields; rows stored by older runs read the same."""

from __future__ import annotations

from typing import ClassVar

from halluforge.metrics.base import Scorer, ScoreValue
from halluforge.plans import turn_item, turn_key, turn_kind
from halluforge.records import Response, Score, TestCase


def test_turn_keys_name_a_kind_and_an_item() -> None:
    assert turn_key("claim", "c1") == "claim:c1" and turn_key("whole") == "whole"
    assert (turn_kind("claim:c1"), turn_item("claim:c1")) == ("claim", "c1")
    assert (turn_kind("whole"), turn_item("whole")) == ("whole", None)
    assert (turn_kind(""), turn_item("")) == ("", None)


class _PerClaim(Scorer):
    name: ClassVar[str] = "per_claim"
    turns: ClassVar[str | None] = "claim"

    def score(self, case: TestCase, response: Response) -> ScoreValue:
        return ScoreValue(1.0)


class _LegacyPrefix(_PerClaim):
    turns: ClassVar[str | None] = "claim:"  # the prefix form scorers used before turn kinds


def test_a_scorer_scores_the_turns_of_its_kind() -> None:
    for cls in (_PerClaim, _LegacyPrefix):
        assert cls.scores_turn("claim:c1") and cls.scores_turn("claim:c2")
        assert not cls.scores_turn("") and not cls.scores_turn("gt:c1") and not cls.scores_turn("claims")
    assert Scorer.scores_turn("") and not Scorer.scores_turn("claim:c1")


def test_score_value_has_typed_item_and_reason() -> None:
    value = ScoreValue(None, {"extra": 1}, item="c2", reason="no answer")
    assert (value.item, value.reason, value.details) == ("c2", "no answer", {"extra": 1})
    # a scorer written before the fields put them in details: they are read into the fields
    legacy = ScoreValue(None, {"reason": "no answer", "item": "c2", "extra": 1})
    assert (legacy.item, legacy.reason, legacy.details) == ("c2", "no answer", {"extra": 1})


def _score(details: dict[str, object]) -> Score:
    return Score(
        id="s",
        response_id="r",
        test_case_id="t",
        model="m",
        setting="closed_book",
        family="f",
        metric="norm_entail",
        value=None,
        details=details,
    )


def test_score_reason_and_deriving_metric_are_typed_accessors() -> None:
    row = _score(
        Score.details_with({"p": 0.2}, reason="not correct before perturbation", derived_by="norm_entail")
    )
    assert (row.reason, row.derived_by, row.details["p"]) == (
        "not correct before perturbation",
        "norm_entail",
        0.2,
    )
    plain = _score({})
    assert plain.reason is None and plain.derived_by is None


def test_a_row_stored_by_an_older_run_reads_the_same() -> None:
    stored = (
        '{"id": "s", "response_id": "r", "test_case_id": "t", "model": "m", "setting": "closed_book",'
        ' "family": "claims", "metric": "claim_verdict", "item": "c2", "value": 0.0,'
        ' "details": {"item": "c2", "type_claim": false, "verdict": "idk", "reason": "unfilled tag(s)",'
        ' "derived": "x"}}'
    )
    row = Score.model_validate_json(stored)
    assert (row.item, row.reason, row.derived_by) == ("c2", "unfilled tag(s)", "x")
    assert Score.model_validate_json(row.model_dump_json()) == row
