"""Breakdowns group joined rows by named join fields; a metric's group_by is the default breakdown."""

from __future__ import annotations

from typing import Any

import pytest

from halluforge.errors import ConfigError
from halluforge.families.invite.judge import PremiseJudge
from halluforge.families.invite.report import invite_blocks
from halluforge.metrics.aggregate import aggregate, breakdown, group_by_of
from halluforge.metrics.joined import DEFAULT_GROUP, Joined
from halluforge.records import Provenance, Score, TestCase


def _case(cid: str, family: str, **meta: Any) -> TestCase:
    variant = meta.pop("variant", None)
    generator = meta.pop("generator", None)
    return TestCase(
        id=cid,
        family=family,
        question="Q?",
        variant=variant,
        metadata=meta,
        provenance=Provenance(generator_model=generator),
    )


def _score(
    cid: str, value: float | None, metric: str = "hit", model: str = "m/a", family: str = "x"
) -> Score:
    return Score(
        id=f"{cid}-{metric}-{model}",
        response_id=f"r-{cid}-{model}",
        test_case_id=cid,
        model=model,
        setting="open_book",
        family=family,
        metric=metric,
        value=value,
        details={} if value is not None else {"reason": "no value"},
    )


def test_breakdown_by_join_and_metadata_fields() -> None:
    cases = [
        _case("a", "counterfactual", domain="term", repeat=0, variant="qa_a", generator="m/a"),
        _case("b", "counterfactual", domain="term", repeat=1, variant="qa_a", generator="m/b"),
        _case("c", "counterfactual", domain="record", variant="qa_na"),
    ]
    scores = [_score("a", 1.0), _score("b", 0.0), _score("c", None)]
    joined = Joined.build(cases, [], scores)
    groups = breakdown(joined, scores, ("domain", "variant", "repeat"), n_boot=0)
    assert [(g.fields, g.n, g.mean, g.n_missing) for g in groups] == [
        ({"domain": "record", "variant": "qa_na", "repeat": 0}, 0, None, 1),
        ({"domain": "term", "variant": "qa_a", "repeat": 0}, 1, 1.0, 0),
        ({"domain": "term", "variant": "qa_a", "repeat": 1}, 1, 0.0, 0),
    ]
    assert [g.get("repeat") for g in groups] == [0, 0, 1]  # a metadata field keeps its type
    attack = breakdown(joined, scores, ("attack",), n_boot=0)
    assert {str(g.get("attack")): g.n + g.n_missing for g in attack} == {"self": 1, "cross": 1, "none": 1}


def test_breakdown_is_aggregate_over_the_named_key() -> None:
    cases = [_case(c, "x", category=k) for c, k in (("a", "p"), ("b", "p"), ("c", "q"), ("d", "q"))]
    scores = [_score("a", 1.0), _score("b", 0.0), _score("c", 1.0), _score("d", 1.0)]
    joined = Joined.build(cases, [], scores)
    named = breakdown(joined, scores, ("category", "model"), n_boot=200, seed=3)
    by_hand = aggregate(scores, lambda s: (joined.field(s, "category"), s.model), n_boot=200, seed=3)
    assert [(g.key, g.mean, g.ci_low, g.ci_high) for g in named] == [
        (g.key, g.mean, g.ci_low, g.ci_high) for g in by_hand
    ]


def test_group_by_of_reads_the_declaration() -> None:
    assert group_by_of("premise_judge") == PremiseJudge.group_by == ("category", "model", "setting")
    assert group_by_of("hit") == DEFAULT_GROUP and group_by_of("em_both") == DEFAULT_GROUP
    assert group_by_of("no_such_metric") == DEFAULT_GROUP


def test_invite_table_rows_come_from_the_judges_group_by(monkeypatch: pytest.MonkeyPatch) -> None:
    cases = {c.id: c for c in (_case("a", "false_premise", variant="birthPlace"), _case("b", "invalid_date"))}
    scores = [_score(c, 1.0, "premise_judge", family=cases[c].family) for c in cases]
    blocks = invite_blocks(scores, cases, n_boot=0)
    per_category = blocks[3]
    assert [row[0] for row in per_category.rows] == ["birthPlace", "invalid_date"]  # type: ignore[attr-defined]
    monkeypatch.setattr(PremiseJudge, "group_by", ("family", "model", "setting"))
    with pytest.raises(ConfigError, match="broken down by"):
        invite_blocks(scores, cases, n_boot=0)
