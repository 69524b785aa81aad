"""The rich console view of a summary."""

from __future__ import annotations

from rich.console import Console

from halluforge.reports.console import print_summary
from halluforge.reports.summary import Summary, SummaryRow


def _render(summary: Summary) -> str:
    console = Console(record=True, width=160, color_system=None)
    print_summary(summary, console)
    return console.export_text()


def test_console_prints_table_notes_and_counts() -> None:
    rows = [
        SummaryRow(
            family="answer_swap",
            model="m[bold]x",
            setting="open_book",
            metric="em",
            n=10,
            mean=0.4,
            ci_low=0.3,
            ci_high=0.5,
        ),
        SummaryRow(family="answer_swap", model="m[bold]x", setting="few_shot", metric="em", n=10, mean=0.2),
        SummaryRow(
            family="answer_swap",
            model="m[bold]x",
            setting="open_book",
            metric="entail",
            n=0,
            n_missing=10,
            missing_reasons={"entailment not computed: no NLI model configured": 10},
        ),
    ]
    counts = {
        "seed_buckets": {"closed_wrong_open_right": 3},
        "forge": {"answer_swap": {"test_cases": 4, "valid": 3}},
        "skips": {"load": {"too_long": 2, "dup": 1}},
    }
    text = _render(
        Summary(rows=rows, notes=["em: 1 not computed - response failed"], counts=counts, confidence=0.9)
    )
    assert "m[bold]x" in text  # user text is not taken as markup
    assert "40.0 ±10.0" in text and "20.0" in text
    assert "Zero-shot" in text and "Few-shot" in text and "Open-book" in text
    assert "90% bootstrap" in text
    assert "note: Entail. not computed: no NLI model configured" in text
    assert "note: em: 1 not computed - response failed" in text
    assert "seed cases: closed_wrong_open_right 3" in text
    assert "test cases: answer_swap 3/4 valid" in text
    assert "skipped inputs: 3" in text


def test_console_without_scores() -> None:
    assert "No scores in this run." in _render(Summary())
