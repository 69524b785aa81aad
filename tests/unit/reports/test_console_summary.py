"""The console view of a report: rich tables on a terminal, the Markdown text anywhere else."""

from __future__ import annotations

import re

import pytest
from rich.console import Console

from halluforge.family import FAMILIES, Family
from halluforge.metrics.joined import Joined
from halluforge.metrics.summary import Summary, SummaryRow
from halluforge.reports.build import build_report
from halluforge.reports.console import print_report
from halluforge.reports.markdown import render_markdown
from halluforge.reports.sections import ReportInputs


def _families() -> dict[str, Family]:
    return {name: FAMILIES.get(name) for name in FAMILIES.names()}


def _render(summary: Summary, *, terminal: bool) -> str:
    console = Console(record=True, width=160, color_system=None, force_terminal=terminal)
    assert console.is_terminal is terminal
    report = build_report(ReportInputs(summary, Joined.build([], [], [])), _families())
    print_report(report, console)
    return console.export_text()


def _rows(text: str) -> list[list[str]]:
    """The cells of every table row, rich (│) or Markdown (unescaped |)."""
    out = []
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("│") or line.startswith("|"):
            out.append([c.strip() for c in re.split(r"│|(?<!\\)\|", line)[1:-1]])
    return out


def _summary() -> Summary:
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
    return Summary(rows=rows, notes=["em: 1 not computed - response failed"], counts=counts, confidence=0.9)


@pytest.mark.parametrize("terminal", [True, False])
def test_console_prints_table_notes_and_counts(terminal: bool) -> None:
    text = _render(_summary(), terminal=terminal)
    assert "m[bold]x" in text  # user text is not taken as markup
    assert "40.0 ±10.0" in text and "20.0" in text
    assert "Zero-shot" in text and "Few-shot" in text and "Open-book" in text
    assert "90% bootstrap" in text
    rows = _rows(text)
    assert ["m[bold]x", "Open-book", "40.0 ±10.0", "-", "20.0", "-"] in rows
    # table notes: "note: ..." lines on a terminal, "- Note: ..." lines in the Markdown
    prefix = "note: " if terminal else "- Note: "
    assert f"{prefix}Entail. not computed: no NLI model configured" in text
    assert f"{prefix}Norm. Entail. not computed: no norm_entail scores in this run" in text
    # the run's own notes, in their section
    assert "- em: 1 not computed - response failed" in text
    # counts: seed buckets, test cases per family (valid of all), skipped inputs by reason
    assert ["closed_wrong_open_right", "3"] in rows
    assert ["answer_swap", "4", "3", "-"] in rows
    assert rows.index(["load", "too_long", "2"]) + 1 == rows.index(["load", "dup", "1"])  # 3 skipped
    order = ["Seed cases by status bucket", "Test cases by family", "Skipped inputs by reason"]
    assert [text.index(title) for title in order] == sorted(text.index(title) for title in order)


def test_console_off_a_terminal_prints_the_markdown() -> None:
    summary = _summary()
    report = build_report(ReportInputs(summary, Joined.build([], [], [])), _families())
    assert _render(summary, terminal=False).rstrip("\n") == render_markdown(report).rstrip("\n")


@pytest.mark.parametrize("terminal", [True, False])
def test_console_without_scores(terminal: bool) -> None:
    assert "No scores in this run." in _render(Summary(), terminal=terminal)


def _wide_summary() -> Summary:
    rows = [
        SummaryRow(
            family="answer_swap",
            model="llamacpp/smollm2-135m",
            setting=setting,
            metric=metric,
            n=15,
            # narrow cells ("0.0 ±0.0") under wide headers: a part must not rely on wrapping them
            mean=0.8 if setting != "few_shot" else 0.0,
            ci_low=0.6 if setting != "few_shot" else 0.0,
            ci_high=1.0 if setting != "few_shot" else 0.0,
        )
        for setting in ("closed_book", "open_book", "opinion", "few_shot")
        for metric in ("em", "f1", "hit")
    ]
    rows.append(
        SummaryRow(
            family="answer_swap",
            model="llamacpp/smollm2-135m",
            setting="open_book",
            metric="entail",
            n=0,
            n_missing=15,
            missing_reasons={"entailment not computed: no NLI model configured (set score.nli_model)": 15},
        )
    )
    notes = [
        "entail: 15 not computed - entailment not computed: no NLI model configured (set score.nli_model)"
    ]
    return Summary(rows=rows, notes=notes, counts={"seed_buckets": {"closed_wrong_open_right": 15}})


@pytest.mark.parametrize("width", [80, 120])
def test_first_screen_fits_the_terminal_and_cuts_no_name(width: int) -> None:
    from halluforge.reports.console import first_screen

    console = Console(record=True, width=width, color_system=None, force_terminal=True)
    report = build_report(ReportInputs(_wide_summary(), Joined.build([], [], [])), _families())
    print_report(first_screen(report), console)
    text = console.export_text()
    assert max(len(line) for line in text.splitlines()) <= width
    for label in ("llamacpp/smollm2-135m", "Closed-book", "Faithful prompt", "Zero-shot Hit", "Few-shot Hit"):
        assert label in text, label
    assert "Entail." not in text.replace("Entail. not computed", "")  # the empty column is left off
    assert text.count("no NLI model configured") == 1  # said once, not under every metric
    assert "Seed cases by status bucket" not in text  # counts wait in summary.md when there are scores


def test_first_screen_without_scores_says_why_and_keeps_the_counts() -> None:
    from halluforge.reports.console import first_screen

    summary = Summary(counts={"seed_buckets": {"closed_right": 2}})
    report = build_report(ReportInputs(summary, Joined.build([], [], [])), _families())
    text = render_markdown(first_screen(report))
    assert "No scores in this run." in text and "select.match" in text
    assert "Seed cases by status bucket" in text
