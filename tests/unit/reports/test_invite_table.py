"""INVITE Table 2 rendering: rates per model and category with bootstrap CIs, unjudged counted."""

from __future__ import annotations

from halluforge.records import Score
from halluforge.reports.invite import render_invite_table


def _score(
    i: int, model: str, value: float | None, category: str | None, metric: str = "premise_judge"
) -> Score:
    return Score(
        id=f"s{i}{model}{metric}",
        response_id=f"r{i}{model}",
        test_case_id=f"c{i}",
        model=model,
        setting="closed_book",
        family="false_premise",
        metric=metric,
        value=value,
        details={"category": category} if category else {},
    )


def test_table_rates_cis_and_categories() -> None:
    scores = [_score(i, "gpt-j", 1.0 if i < 8 else 0.0, "writer" if i < 5 else "spouse") for i in range(10)]
    scores += [_score(i, "gpt-3.5", 0.0, "writer") for i in range(4)] + [_score(9, "gpt-3.5", None, "writer")]
    scores.append(_score(1, "gpt-j", 0.5, "writer", metric="bleu"))  # other metrics are ignored
    table = render_invite_table(scores, n_boot=200)
    assert "| gpt-3.5 | 4 | 0.0 [0.0, 0.0] | 1 |" in table
    row = next(line for line in table.splitlines() if line.startswith("| gpt-j |"))
    rate, low, high = (
        float(x) for x in row.split("|")[3].replace("[", "").replace("]", "").replace(",", "").split()
    )
    assert rate == 80.0 and low <= rate <= high and high <= 100.0
    assert "| writer | 0.0 [0.0, 0.0] (n=4) | 100.0 [100.0, 100.0] (n=5) |" in table
    assert "| spouse | – |" in table
    assert render_invite_table(scores, n_boot=200) == table  # deterministic


def test_table_without_scores_says_so() -> None:
    assert "No premise_judge scores" in render_invite_table([])
