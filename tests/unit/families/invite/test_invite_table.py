"""INVITE Table 2 rendering: rates per model and category with bootstrap CIs, unjudged counted."""

from __future__ import annotations

from halluforge.families.invite.report import invite_blocks, render_invite_table
from halluforge.records import Score, TestCase
from halluforge.reports.model import Paragraph, Table


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
    # the same intervals as before the report model (seeded per model label / per (category, label))
    assert "| gpt-j | 10 | 80.0 [50.0, 100.0] | 0 |" in table
    assert "| spouse | – | 60.0 [20.0, 100.0] (n=5) |" in table
    assert "| model | n | hallucination rate | not judged |\n|---|---:|---:|---:|" in table
    assert "| category | gpt-3.5 | gpt-j |\n|---|---:|---:|" in table
    # each heading is one bold line
    assert "**Hallucination rate (%) per model (premise_judge; 95% bootstrap CI)**" in table.splitlines()
    assert "**Hallucination rate (%) per category (95% bootstrap CI)**" in table.splitlines()
    assert table.index("per model") < table.index("| gpt-3.5 | 4 |") < table.index("per category")
    assert render_invite_table(scores, n_boot=200) == table  # deterministic


def test_table_without_scores_says_so() -> None:
    assert "No premise_judge scores" in render_invite_table([])
    (block,) = invite_blocks([_score(1, "m", 1.0, None, metric="bleu")])
    assert isinstance(block, Paragraph) and block.text.startswith("No premise_judge scores")


def test_several_settings_label_models_and_cases_give_the_category() -> None:
    scores = [_score(i, "m", 1.0, "writer") for i in range(3)]
    scores += [
        s.model_copy(update={"id": s.id + "o", "response_id": s.response_id + "o", "setting": "open_book"})
        for s in scores
    ]
    cases = {"c0": TestCase(id="c0", family="false_premise", question="q?", metadata={"category": "spouse"})}
    blocks = invite_blocks(scores, cases, n_boot=0)
    first, second = (b for b in blocks if isinstance(b, Table))
    assert [r[0] for r in first.rows] == ["m (closed_book)", "m (open_book)"]
    assert second.columns == ["category", "m (closed_book)", "m (open_book)"]
    # the test case's recorded category wins over the scorer's
    assert [r[0] for r in second.rows] == ["spouse", "writer"]
    assert second.rows[1][1:] == ["100.0 [100.0, 100.0] (n=2)"] * 2
