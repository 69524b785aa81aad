"""Transferability, answer position and few-shot delta on small hand-built runs."""

from __future__ import annotations

import json

import pytest

from halluforge.metrics.joined import Joined
from halluforge.metrics.summary import Summary, SummaryRow
from halluforge.records import Provenance, Score, TestCase
from halluforge.reports.analyses import (
    analyses_section,
    answer_position,
    answer_position_breakdown,
    few_shot_delta,
    transferability_matrix,
)
from halluforge.reports.markdown import render_section
from halluforge.reports.model import Table


def _case(cid: str, generator: str | None = None, position: object = None) -> TestCase:
    metadata = {} if position is None else {"answer_position": position}
    return TestCase(
        id=cid,
        family="answer_swap",
        question="q?",
        expected=["a"],
        provenance=Provenance(generator_model=generator),
        metadata=metadata,
    )


def _score(
    case: str, model: str, value: float | None, *, setting: str = "open_book", metric: str = "hit"
) -> Score:
    return Score(
        id=f"{case}-{model}-{setting}-{metric}",
        response_id=f"{case}-{model}-{setting}",
        test_case_id=case,
        model=model,
        setting=setting,
        family="answer_swap",
        metric=metric,
        value=value,
    )


def _joined(scores: list[Score], cases: list[TestCase]) -> Joined:
    return Joined.build(cases, [], scores)


def test_transferability_by_hand() -> None:
    cases = [_case("a1", "A"), _case("a2", "A"), _case("b1", "B"), _case("r1", None)]
    scores = [
        # generator A: target A gets 1/2 (self), target B gets 2/2 (cross)
        _score("a1", "A", 1.0),
        _score("a2", "A", 0.0),
        _score("a1", "B", 1.0),
        _score("a2", "B", 1.0),
        # generator B: target A 0/1 (cross), target B 1/1 (self)
        _score("b1", "A", 0.0),
        _score("b1", "B", 1.0),
        # ready-made case, a missing value, another metric and another setting: all left out
        _score("r1", "A", 1.0),
        _score("a1", "A", None, metric="hit", setting="open_book").model_copy(update={"response_id": "x"}),
        _score("a1", "A", 0.0, metric="em"),
        _score("a1", "A", 0.0, setting="opinion"),
    ]
    analysis = transferability_matrix(_joined(scores, cases))
    cells = {(c["generator"], c["target"]): c for c in analysis.data["cells"]}
    assert cells[("A", "A")] == {
        "generator": "A",
        "target": "A",
        "attack": "self",
        "mean": 0.5,
        "n": 2,
        "ci_low": None,  # no bootstrap asked for
        "ci_high": None,
    }
    assert cells[("A", "B")]["attack"] == "cross" and cells[("A", "B")]["mean"] == 1.0
    assert cells[("B", "A")]["mean"] == 0.0 and cells[("B", "B")]["attack"] == "self"
    assert cells[("(no generator)", "A")]["attack"] == "none"
    # pooled: self = A/A (1, 0) + B/B (1) -> 2/3; cross = A/B (1, 1) + B/A (0) -> 2/3
    assert analysis.data["self_mean"] == pytest.approx(2 / 3) and analysis.data["self_n"] == 3
    assert analysis.data["cross_mean"] == pytest.approx(2 / 3) and analysis.data["cross_n"] == 3
    md = analysis.markdown
    assert "| A | **50.0 (n=2)** | 100.0 (n=2) |" in md
    assert "| B | 0.0 (n=1) | **100.0 (n=1)** |" in md
    assert "| (no generator) | 100.0 (n=1) | - |" in md
    assert "Bold cells are self-attacks (the target model forged the test cases)." in md
    assert "- Note: Self-attack mean: 66.7 (n=3)." in md
    assert "- Note: Cross-attack mean: 66.7 (n=3)." in md
    assert md.startswith("### Transferability: Hit (%), open_book\n")
    # scores of the right metric and setting but without a test case are counted, not used
    stray = _score("zz", "A", 1.0)
    assert transferability_matrix(_joined([*scores, stray], cases)).data["scores_without_test_case"] == 1
    json.dumps(analysis.data)  # JSON-able


def test_transferability_all_settings_and_empty() -> None:
    cases = [_case("a1", "A")]
    scores = [_score("a1", "A", 1.0), _score("a1", "A", 0.0, setting="opinion")]
    pooled = transferability_matrix(_joined(scores, cases), setting=None)
    assert pooled.data["cells"][0]["mean"] == 0.5 and pooled.data["cells"][0]["n"] == 2
    assert "all settings" in pooled.markdown
    # with a bootstrap the cells carry an interval around the mean
    boot = transferability_matrix(_joined(scores, cases), setting=None, n_boot=200, seed=1)
    cell = boot.data["cells"][0]
    assert cell["ci_low"] <= cell["mean"] == 0.5 <= cell["ci_high"]
    empty = transferability_matrix(_joined([], cases))
    assert empty.data["cells"] == [] and "No scores to compare." in empty.markdown


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("first", "first"),
        ("Middle", "middle"),
        ("end", "last"),
        (0.1, "first"),
        (0.5, "middle"),
        (1.0, "last"),
        ("nowhere", None),
        (None, None),
        (True, None),
        (2.0, None),
    ],
)
def test_answer_position_reading(raw: object, expected: str | None) -> None:
    assert answer_position(_case("c", position=raw)) == expected


def test_answer_position_breakdown_by_hand() -> None:
    cases = [
        _case("f1", position="first"),
        _case("f2", position="first"),
        _case("m1", position="middle"),
        _case("l1", position="last"),
        _case("u1"),
    ]
    scores = [
        _score("f1", "M", 1.0),
        _score("f2", "M", 0.0),
        _score("m1", "M", 1.0),
        _score("l1", "M", 0.0),
        _score("u1", "M", 1.0),  # no position: left out
        _score("f1", "M", 1.0, setting="few_shot"),
        _score("f1", "M", 0.0, setting="closed_book"),  # setting not asked for
    ]
    analysis = answer_position_breakdown(_joined(scores, cases))
    cells = {(c["model"], c["setting"], c["position"]): (c["mean"], c["n"]) for c in analysis.data["cells"]}
    assert cells == {
        ("M", "few_shot", "first"): (1.0, 1),
        ("M", "open_book", "first"): (0.5, 2),
        ("M", "open_book", "middle"): (1.0, 1),
        ("M", "open_book", "last"): (0.0, 1),
    }
    assert analysis.data["test_cases_by_position"] == {"first": 2, "middle": 1, "last": 1, "unknown": 1}
    assert analysis.data["shares"]["first"] == 0.5
    md = analysis.markdown
    assert "| M | open_book | 50.0 (n=2) | 100.0 (n=1) | 0.0 (n=1) |" in md
    assert "| M | few_shot | 100.0 (n=1) | - | - |" in md
    assert "- Note: Test cases by answer position: first 2 (50.0%), middle 1 (25.0%), last 1 (25.0%)." in md
    assert "- Note: 1 test cases have no recorded answer position and are left out." in md
    json.dumps(analysis.data)


def _row(
    model: str, setting: str, metric: str, mean: float | None, family: str = "answer_swap"
) -> SummaryRow:
    return SummaryRow(family=family, model=model, setting=setting, metric=metric, n=10, mean=mean)


def test_few_shot_delta_by_hand() -> None:
    rows = [
        _row("A", "few_shot", "em", 0.40),
        _row("A", "few_shot_adversarial", "em", 0.466),
        _row("A", "few_shot", "f1", 0.50),
        _row("A", "few_shot_adversarial", "f1", 0.45),
        _row("A", "few_shot", "hit", 0.5),  # no adversarial counterpart: no delta
        _row("B", "few_shot", "em", 0.2),
        _row("B", "few_shot_adversarial", "em", None),  # not computed: no delta
        _row("A", "few_shot", "em", 0.3, family="context_enrich"),
        _row("A", "few_shot_adversarial", "em", 0.1, family="context_enrich"),
    ]
    analysis = few_shot_delta(Summary(rows=rows))
    deltas = {(d["family"], d["model"], d["metric"]): d["delta"] for d in analysis.data["deltas"]}
    assert deltas == pytest.approx(
        {
            ("answer_swap", "A", "em"): 0.066,
            ("answer_swap", "A", "f1"): -0.05,
            ("context_enrich", "A", "em"): -0.2,
        }
    )
    md = analysis.markdown
    assert "| Model | Δ EM | Δ F1 |" in md
    assert "| A | +6.6 | -5.0 |" in md
    assert "| A | -20.0 |" in md
    # one titled table per family, families sorted
    title = "### Few-shot delta: few_shot_adversarial minus few_shot (percentage points)"
    assert md.index(f"{title}: answer_swap") < md.index(f"{title}: context_enrich")
    tables = [b for b in analysis.blocks if isinstance(b, Table)]
    assert [t.rows for t in tables] == [[["A", "+6.6", "-5.0"]], [["A", "-20.0"]]]
    json.dumps(analysis.data)


def test_few_shot_delta_without_pairs() -> None:
    analysis = few_shot_delta(Summary(rows=[_row("A", "few_shot", "em", 0.4)]))
    assert analysis.data["deltas"] == []
    assert "No model was run under both few_shot and few_shot_adversarial." in analysis.markdown


def test_render_analyses_includes_only_what_the_run_has() -> None:
    cases = [_case("a1", "A", position="first"), _case("a2", "A", position="last")]
    scores = [_score("a1", "A", 1.0), _score("a2", "A", 0.0), _score("a1", "B", 1.0)]
    summary = Summary(rows=[_row("A", "few_shot", "em", 0.4), _row("A", "few_shot_adversarial", "em", 0.5)])
    section = analyses_section(_joined(scores, cases), summary)
    assert section is not None
    assert set(section.data) == {"transferability", "answer_position", "few_shot_delta"}
    markdown = render_section(section)
    assert markdown.startswith("## Analyses\n")
    assert "### Transferability" in markdown and "| A | +10.0 |" in markdown
    assert markdown.index("### Transferability") < markdown.index("### Answer position")
    assert markdown.index("### Answer position") < markdown.index("### Few-shot delta")
    ready_made = [_case("r1")]
    assert analyses_section(_joined([_score("r1", "A", 1.0)], ready_made), Summary()) is None
