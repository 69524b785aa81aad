"""Summary files and the Markdown tables shaped like ReEval Table 1."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from halluforge.errors import DataError
from halluforge.family import FAMILIES, Family
from halluforge.metrics.aggregate import summarize
from halluforge.metrics.joined import Joined
from halluforge.metrics.summary import Summary, SummaryRow, load_summary, write_summary
from halluforge.records import Score
from halluforge.reports.build import build_report
from halluforge.reports.markdown import cell_text, render_block, render_markdown, render_table
from halluforge.reports.model import Paragraph, Table
from halluforge.reports.sections import SECTIONS, ReportInputs
from halluforge.reports.tables import (
    count_tables,
    family_table,
    format_value,
    metric_label,
    order_metrics,
)


def _row(
    model: str, setting: str, metric: str, mean: float | None, half: float = 0.02, **kw: object
) -> SummaryRow:
    n = int(kw.pop("n", 50 if mean is not None else 0))
    low = None if mean is None else mean - half
    high = None if mean is None else mean + half
    return SummaryRow(
        family=str(kw.pop("family", "answer_swap")),
        model=model,
        setting=setting,
        metric=metric,
        n=n,
        mean=mean,
        ci_low=low,
        ci_high=high,
        **kw,  # type: ignore[arg-type]
    )


def _families() -> dict[str, Family]:
    return {name: FAMILIES.get(name) for name in FAMILIES.names()}


def render_family_table(summary: Summary, family: str) -> str:
    """One family's table as Markdown, with its spec's expected metrics (the old API's output)."""
    spec = FAMILIES.get(family) if family in FAMILIES else None
    return render_table(family_table(summary, family, spec))


def render_summary_markdown(summary: Summary) -> str:
    """The whole ``summary.md`` of a run without test cases or responses."""
    return render_markdown(build_report(ReportInputs(summary, Joined.build([], [], [])), _families()))


def render_counts(counts: dict[str, object]) -> str:
    return "\n".join(render_block(t) for t in count_tables(counts))


def _table_lines(markdown: str) -> list[list[str]]:
    rows = [line for line in markdown.splitlines() if line.startswith("|")]
    # split on pipes that are not escaped, drop the empty edges
    return [[c.strip() for c in re.split(r"(?<!\\)\|", line)[1:-1]] for line in rows]


@pytest.fixture
def summary() -> Summary:
    missing = {"entailment not computed: no NLI model configured (set score.nli_model)": 50}
    rows = [
        _row("gpt-x", "open_book", "em", 0.437, 0.021),
        _row("gpt-x", "open_book", "f1", 0.6, 0.01),
        _row("gpt-x", "open_book", "hit", 0.8),
        _row("gpt-x", "open_book", "entail", None, n_missing=50, missing_reasons=missing),
        _row("gpt-x", "opinion", "em", 0.5),
        _row("gpt-x", "few_shot", "em", 0.25, 0.05),
        _row("small", "closed_book", "em", 0.05),
        _row("small", "open_book", "em", 0.3),
        _row("small", "open_book", "hit", 0.4, n=48, n_missing=2, missing_reasons={"response failed": 2}),
    ]
    return Summary(rows=rows, notes=["entail: 50 not computed"], counts={}, confidence=0.95)


def test_write_and_load_summary_round_trip(tmp_path: Path, summary: Summary) -> None:
    path = write_summary(summary, tmp_path)
    assert path == tmp_path / "summary.json"
    data = json.loads(path.read_text())
    assert data["rows"][0]["metric"] == "em" and data["confidence"] == 0.95
    assert load_summary(tmp_path) == summary


def test_load_summary_names_file_and_field(tmp_path: Path) -> None:
    with pytest.raises(DataError, match=r"summary\.json"):
        load_summary(tmp_path)
    (tmp_path / "summary.json").write_text(json.dumps({"rows": [{"family": "x"}]}))
    with pytest.raises(DataError, match=r"summary\.json: field 'rows\.0\.model'"):
        load_summary(tmp_path)


def test_summary_row_rejects_unknown_fields() -> None:
    with pytest.raises(ValueError, match="extra"):
        SummaryRow(family="f", model="m", setting="s", metric="em", n=1, colour="red")  # type: ignore[call-arg]


def test_format_value() -> None:
    assert format_value(_row("m", "open_book", "em", 0.437, 0.021)) == "43.7 ±2.1"
    assert format_value(_row("m", "open_book", "em", None)) == "-"
    assert format_value(None) == "-"
    no_ci = SummaryRow(family="f", model="m", setting="s", metric="em", n=3, mean=1 / 3)
    assert format_value(no_ci) == "33.3"


def test_family_table_shape(summary: Summary) -> None:
    markdown = render_family_table(summary, "answer_swap")
    header, align, *body = _table_lines(markdown)
    zero = ["Zero-shot EM", "Zero-shot F1", "Zero-shot Hit", "Zero-shot Entail."]
    few = ["Few-shot EM", "Few-shot F1", "Few-shot Hit", "Few-shot Entail."]
    assert header == ["Model", "Method", *zero, *few]
    assert align[2] == "---:"
    rows = {(r[0], r[1]): r[2:] for r in body}
    # model name only on its first row, methods in the papers' order
    assert [(r[0], r[1]) for r in body] == [
        ("gpt-x", "Open-book"),
        ("", "Faithful prompt"),
        ("small", "Closed-book"),
        ("", "Open-book"),
    ]
    assert rows[("gpt-x", "Open-book")] == [
        "43.7 ±2.1",
        "60.0 ±1.0",
        "80.0 ±2.0",
        "-",
        "25.0 ±5.0",
        "-",
        "-",
        "-",
    ]
    assert rows[("", "Faithful prompt")] == ["50.0 ±2.0"] + ["-"] * 7
    assert rows[("small", "Closed-book")][0] == "5.0 ±2.0"
    assert "95% bootstrap confidence interval" in markdown
    assert "Responses per cell: 48-50." in markdown


def test_family_table_note_lines(summary: Summary) -> None:
    markdown = render_family_table(summary, "answer_swap")
    notes = [line for line in markdown.splitlines() if line.startswith("- Note:")]
    assert "- Note: Entail. not computed: no NLI model configured (set score.nli_model)" in notes
    assert "- Note: Hit: 2 of 100 responses have no value (response failed: 2)" in notes
    # the family's own metric that never ran at all is named too
    assert "- Note: Norm. Entail. not computed: no norm_entail scores in this run" in notes
    # the same notes on the report model, unprefixed, with the caption kept apart
    table = family_table(summary, "answer_swap", FAMILIES.get("answer_swap"))
    assert [f"- Note: {n}" for n in table.notes] == notes
    assert table.caption is not None and table.caption.startswith("Percentages;")
    # without a spec only the metrics the run has are noted
    assert not any("Norm. Entail." in n for n in family_table(summary, "answer_swap").notes)


def test_note_lists_every_reason_when_a_metric_has_no_value_at_all() -> None:
    reasons = {"not correct before perturbation": 6, "entailment not computed: no NLI model": 3}
    rows = [
        _row("m", "open_book", "norm_entail", None, n_missing=9, missing_reasons=reasons, family="original")
    ]
    (note,) = [
        n
        for n in render_family_table(Summary(rows=rows), "original").splitlines()
        if n.startswith("- Note: Norm")
    ]
    assert note == "- Note: Norm. Entail. not computed: not correct before perturbation (6); no NLI model (3)"


def test_family_table_without_few_shot_has_one_block() -> None:
    summary = Summary(rows=[_row("m", "open_book", "em", 0.5, family="false_premise")])
    header = _table_lines(render_family_table(summary, "false_premise"))[0]
    assert header == ["Model", "Method", "Zero-shot EM"]
    # a family that asked for a table but has no rows gets a line instead of an empty table
    inputs = ReportInputs(summary, Joined.build([], [], []))
    blocks = SECTIONS.get("table").build(inputs, {"claims": None})
    assert blocks == [Paragraph(text="No scores for claims.")]
    assert "".join(render_block(b) for b in blocks) == "No scores for claims.\n"


def test_unknown_settings_and_metrics_get_their_own_row_and_column() -> None:
    rows = [
        _row("m", "my_setting", "premise_judge", 0.7, family="false_premise"),
        _row("m", "few_shot_adversarial", "entail_both", 0.1, family="false_premise"),
        _row("m", "open_book", "zeta", 0.2, family="false_premise"),
    ]
    header, _, *body = _table_lines(render_family_table(Summary(rows=rows), "false_premise"))
    assert "Zero-shot Premise judge" in header and "Few-shot Entail. (both)" in header
    assert "Zero-shot zeta" in header
    assert [r[1] for r in body] == ["Open-book", "Open-book, adversarial demos", "my_setting"]


def test_metric_order_and_labels() -> None:
    assert order_metrics({"zeta", "entail_both", "hit", "em", "norm_entail", "f1", "entail"}) == [
        "em",
        "f1",
        "hit",
        "entail",
        "norm_entail",
        "zeta",
        "entail_both",
    ]
    assert metric_label("norm_entail") == "Norm. Entail."
    assert metric_label("em_both") == "EM (both)"


def test_cells_are_escaped() -> None:
    assert cell_text("a|b\nc") == "a\\|b c"
    rows = [_row("evil|model", "open_book", "em", 0.5)]
    # the model keeps the raw text; the Markdown renderer escapes it
    table = family_table(Summary(rows=rows), "answer_swap")
    assert isinstance(table, Table) and table.rows[0][0] == "evil|model"
    markdown = render_table(table)
    assert "evil\\|model" in markdown
    assert len(_table_lines(markdown)[2]) == 3


def test_summary_markdown_has_families_notes_and_counts(summary: Summary) -> None:
    counts = {
        "seed_buckets": {"closed_right_open_right": 4, "closed_wrong_open_right": 7},
        "forge": {
            "answer_swap": {
                "test_cases": 11,
                "valid": 10,
                "all_fields_from_llm": 3,
                "paths": {"context": {"llm": 3, "fallback:span_replace": 8}},
            }
        },
        "skips": {"load": {"answer_too_long": 2}, "forge": {"no_pool_answer": 1}},
        "responses": 88,
        "responses_failed": 2,
    }
    summary = summary.model_copy(update={"counts": counts})
    markdown = render_summary_markdown(summary)
    assert markdown.startswith("# halluforge summary\n")
    assert "## answer_swap: evidence with the answer swapped" in markdown
    assert "## Notes\n\n- entail: 50 not computed" in markdown
    assert "| closed_wrong_open_right | 7 |" in markdown
    assert "| answer_swap | context | fallback:span_replace | 8 |" in markdown
    assert "| answer_swap | 11 | 10 | 3 |" in markdown
    assert "| load | answer_too_long | 2 |" in markdown
    assert "| responses_failed | 2 |" in markdown
    assert markdown.index("## answer_swap") < markdown.index("## Notes") < markdown.index("## Counts")


def test_render_counts_empty_and_markdown_without_scores() -> None:
    assert render_counts({}) == ""
    assert "No scores in this run." in render_summary_markdown(Summary())


def test_markdown_from_real_summarize_output() -> None:
    scores = [
        Score(
            id=f"s{i}",
            response_id=f"r{i}",
            test_case_id=f"c{i}",
            model="m",
            setting="open_book",
            family="answer_swap",
            metric="hit",
            value=float(i % 2),
        )
        for i in range(10)
    ]
    summary = Summary(rows=summarize(scores, n_boot=100), confidence=0.95)
    body = _table_lines(render_family_table(summary, "answer_swap"))[2]
    assert body[:2] == ["m", "Open-book"] and body[2].startswith("50.0 ±")
