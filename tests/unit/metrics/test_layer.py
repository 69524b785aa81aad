"""The metric layer: derived metrics over joined rows (normalized entailment, both variants), aggregate."""

from __future__ import annotations

from typing import Any

import pytest

from halluforge.family import FAMILIES
from halluforge.metrics.aggregate import aggregate, summarize
from halluforge.metrics.joined import Joined, latest_scores
from halluforge.metrics.layer import METRICS, BothVariants, NormalizedEntailment, derive_order
from halluforge.records import Response, Score, TestCase

FAMILY_SPECS = {name: FAMILIES.get(name) for name in ("original", "answer_swap", "context_enrich")}


def case(id: str, family: str = "answer_swap", **extra: Any) -> TestCase:
    fields: dict[str, Any] = {"question": "who wrote hamlet", "expected": ["shakespeare"]}
    fields.update(extra)
    return TestCase(id=id, family=family, **fields)


def score(
    case_id: str,
    value: float | None,
    *,
    metric: str = "entail",
    family: str = "answer_swap",
    model: str = "mock/a",
    setting: str = "open_book",
    details: dict[str, Any] | None = None,
) -> Score:
    return Score(
        id=f"s-{case_id}-{metric}-{model}-{setting}",
        response_id=f"r-{case_id}-{model}-{setting}",
        test_case_id=case_id,
        model=model,
        setting=setting,
        family=family,
        metric=metric,
        value=value,
        details=details or {},
    )


def test_norm_entail_keeps_only_cases_right_before() -> None:
    cases = [case(f"o{i}", "original", parent_example=f"e{i}") for i in (1, 2, 3)]
    cases += [case(f"c{i}", parent_example=f"e{i}") for i in (1, 2, 3, 4)]
    scores = [
        score("o1", 1.0, family="original"),  # right before, by entailment
        score("o2", 0.0, family="original"),  # wrong before
        score("o3", None, family="original", details={"reason": "no NLI model"}),
        score("o3", 1.0, metric="hit", family="original"),  # entailment missing: hit decides
        score("o1", 0.0, family="original", model="mock/b"),  # other model: must not leak
        score("c1", 1.0, details={"entail_prob": 0.9}),
        score("c2", 1.0),
        score("c3", 0.0),
        score("c4", 1.0),  # its original was never answered
        score("c1", 1.0, model="mock/b"),
    ]
    joined = Joined.build(cases, [], scores)
    rows = {(s.test_case_id, s.model): s for s in NormalizedEntailment().derive(joined, FAMILY_SPECS)}
    assert rows[("c1", "mock/a")].value == 1.0
    assert rows[("c1", "mock/a")].details["entail_prob"] == 0.9
    assert rows[("c2", "mock/a")].value is None
    assert rows[("c2", "mock/a")].reason == "not correct before perturbation"
    assert rows[("c3", "mock/a")].value == 0.0
    assert rows[("c4", "mock/a")].reason == "no response to the original example"
    assert rows[("c1", "mock/b")].reason == "not correct before perturbation"
    assert all(r.metric == "norm_entail" and r.derived_by == "norm_entail" for r in rows.values())
    assert ("o1", "mock/a") not in rows  # the baseline family itself is not normalized
    # the same inputs give the same ids, so a re-derivation adds no row
    again = NormalizedEntailment().derive(joined, FAMILY_SPECS)
    assert sorted(r.id for r in again) == sorted(r.id for r in rows.values())


def test_norm_entail_says_why_when_the_response_failed() -> None:
    cases = [case("o1", "original", parent_example="e1"), case("c1", parent_example="e1")]
    failed = Response(
        id="r-c1-mock/a-open_book", test_case_id="c1", model="mock/a", setting="open_book", error="x"
    )
    scores = [score("o1", 1.0, family="original"), score("c1", None, details={"reason": "response failed"})]
    (row,) = NormalizedEntailment().derive(Joined.build(cases, [failed], scores), FAMILY_SPECS)
    assert row.value is None and row.reason == "response failed"


def ce_case(seed: str, variant: str) -> TestCase:
    return case(f"{seed}-{variant}", "context_enrich", parent_seed=seed, variant=variant)


def test_both_variants_needs_every_variant_right() -> None:
    cases = [ce_case(s, v) for s in ("s1", "s2", "s3", "s4") for v in ("question", "evidence")]
    cases.append(case("other"))

    def ce(case_id: str, value: float | None, **extra: Any) -> Score:
        return score(case_id, value, family="context_enrich", metric=extra.pop("metric", "em"), **extra)

    scores = [
        ce("s1-question", 1.0),
        ce("s1-evidence", 1.0),
        ce("s2-question", 1.0),
        ce("s2-evidence", 0.0),
        ce("s3-evidence", 1.0),  # the question variant has no score
        ce("s4-question", 0.5, metric="f1"),
        ce("s4-evidence", 0.8, metric="f1"),
        ce("s1-question", 0.0, model="mock/b"),
        ce("s1-evidence", None, model="mock/b"),
        score("other", 1.0, metric="em"),
    ]
    joined = Joined.build(cases, [], scores)
    merged = {
        (m.details["parent_seed"], m.model, m.metric): m for m in BothVariants().derive(joined, FAMILY_SPECS)
    }
    assert set(merged) == {
        ("s1", "mock/a", "em_both"),
        ("s2", "mock/a", "em_both"),
        ("s3", "mock/a", "em_both"),
        ("s4", "mock/a", "f1_both"),
        ("s1", "mock/b", "em_both"),
    }
    assert merged[("s1", "mock/a", "em_both")].value == 1.0
    assert merged[("s2", "mock/a", "em_both")].value == 0.0
    assert merged[("s2", "mock/a", "em_both")].details["variants"] == {"question": 1.0, "evidence": 0.0}
    assert merged[("s3", "mock/a", "em_both")].value is None
    assert "question" in (merged[("s3", "mock/a", "em_both")].reason or "")
    assert merged[("s4", "mock/a", "f1_both")].value == 0.5
    assert merged[("s1", "mock/b", "em_both")].value is None
    first = merged[("s1", "mock/a", "em_both")]
    assert first.family == "context_enrich" and first.setting == "open_book"
    assert first.test_case_id == "s1-question"
    assert first.details["test_case_ids"] == ["s1-question", "s1-evidence"]
    # its own rows are never merged again
    joined.add(list(merged.values()))
    again = BothVariants().derive(joined, FAMILY_SPECS)
    assert sorted(m.id for m in again) == sorted(m.id for m in merged.values())


def test_derived_metrics_run_after_what_they_read() -> None:
    assert derive_order(["both_variants", "norm_entail", "both_variants"]) == ["norm_entail", "both_variants"]
    assert set(METRICS.names()) >= {"norm_entail", "both_variants"}
    assert NormalizedEntailment.requires and "*" in BothVariants.requires


def test_latest_score_per_response_metric_and_item_wins() -> None:
    old, new = score("c1", 0.0), score("c1", 1.0).model_copy(update={"id": "newer"})
    item = score("c1", 1.0).model_copy(update={"id": "per-claim", "item": "claim-1"})
    assert latest_scores([old, new, item]) == [new, item]
    (row,) = summarize([old, new], n_boot=10)
    assert row.n == 1 and row.mean == 1.0


def test_aggregate_groups_by_any_key_with_reasons_and_seeded_intervals() -> None:
    rows = [score(f"c{i}", float(i % 2), setting="open_book" if i < 6 else "closed_book") for i in range(10)]
    rows.append(score("c99", None, details={"reason": "response failed"}))
    groups = aggregate(rows, lambda s: (s.setting,), n_boot=200, seed=3)
    by_setting = {g.key: g for g in groups}
    assert by_setting[("open_book",)].n == 6 and by_setting[("open_book",)].n_missing == 1
    assert by_setting[("open_book",)].missing_reasons == {"response failed": 1}
    low, high = by_setting[("closed_book",)].ci_low, by_setting[("closed_book",)].ci_high
    assert low is not None and high is not None and low <= 0.5 <= high
    assert aggregate(rows, lambda s: (s.setting,), n_boot=200, seed=3) == groups
    with pytest.raises(Exception, match="n_boot"):
        aggregate(rows, lambda s: (), n_boot=-1)


def test_aggregate_interval_does_not_depend_on_the_order_rows_were_stored_in() -> None:
    import random

    rows = [score(f"c{i:02d}", float(i % 3 == 0) + i / 100) for i in range(30)]
    shuffled = list(rows)
    random.Random(7).shuffle(shuffled)
    assert shuffled != rows
    ordered = aggregate(rows, lambda s: (s.setting,), n_boot=300, seed=1)
    assert aggregate(shuffled, lambda s: (s.setting,), n_boot=300, seed=1) == ordered
    assert ordered[0].ci_low is not None and ordered[0].ci_low < ordered[0].mean < ordered[0].ci_high
