"""Markdown tables shaped like the papers' tables, and the cross-cutting analyses.

- :func:`render_family_table` lays out one family like ReEval Table 1: one row per model and
  method (Closed-book, Open-book, Faithful prompt), a Zero-shot and a Few-shot column block,
  each with the metrics the run computed. Values are percentages with the half-width of the
  bootstrap interval ("43.7 ±2.1"); "-" marks a cell the run did not produce, and a note
  says when a metric could not be computed (for example without an NLI model).
- :func:`render_summary_markdown` is the whole ``summary.md``: a section per family, then the
  notes and the counts a reader needs to trust the figures (seed buckets, which path made
  each generated field, skipped inputs by reason).
- Analyses across families and models, each returning an :class:`Analysis` (Markdown and a
  JSON-able dict): :func:`transferability_matrix` (generator model x target model, self-
  vs cross-attack, AutoDebug Tables 4-5), :func:`answer_position_breakdown` (where the
  answer sat in the evidence, ReEval Table 14) and :func:`few_shot_delta` (adversarial vs
  original demonstrations, AutoDebug Table 6).

Every string that comes from a model or a dataset is escaped for Markdown table cells.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from typing import Any, NamedTuple

from halluforge.records import Score, TestCase
from halluforge.reports.summary import Summary, SummaryRow

#: column labels of known metrics; other metrics are shown under their own name
METRIC_LABELS: dict[str, str] = {
    "em": "EM",
    "f1": "F1",
    "hit": "Hit",
    "entail": "Entail.",
    "norm_entail": "Norm. Entail.",
    "premise_judge": "Premise judge",
    "m_rate": "M-Rate",
    "r_rate": "R-Rate",
}
#: column order of known metrics (the papers' order); unknown ones follow, sorted
METRIC_ORDER = ("em", "f1", "hit", "entail", "norm_entail")
#: metric suffix of the ReEval "both variants" rule (context_enrich)
BOTH_SUFFIX = "_both"

ZERO, FEW = "Zero-shot", "Few-shot"
#: setting -> (method row label, column block)
SETTING_LAYOUT: dict[str, tuple[str, str]] = {
    "closed_book": ("Closed-book", ZERO),
    "open_book": ("Open-book", ZERO),
    "opinion": ("Faithful prompt", ZERO),
    "few_shot": ("Open-book", FEW),
    "few_shot_adversarial": ("Open-book, adversarial demos", FEW),
}
METHOD_ORDER = ("Closed-book", "Open-book", "Faithful prompt", "Open-book, adversarial demos")

FAMILY_TITLES: dict[str, str] = {
    "original": "original: the seed cases unperturbed (reference for normalised scores)",
    "answer_swap": "answer_swap: evidence with the answer swapped (AutoDebug/ReEval Category 1)",
    "context_enrich": "context_enrich: evidence enriched with related passages (AutoDebug/ReEval Category 2)",
    "false_premise": "false_premise: questions with a false premise (INVITE)",
    "invalid_date": "invalid_date: questions with an impossible date (INVITE)",
    "counterfactual": "counterfactual: edited contexts (RECALL)",
    "claims": "claims: answers checked against decomposed claims (ABCD)",
}


def cell_text(text: object) -> str:
    """Make any value safe inside a Markdown table cell (pipes, newlines)."""
    return str(text).replace("\\", "\\\\").replace("|", "\\|").replace("\r", " ").replace("\n", " ")


def metric_label(metric: str) -> str:
    """The column label of a metric ("em" -> "EM", "entail_both" -> "Entail. (both)")."""
    if metric in METRIC_LABELS:
        return METRIC_LABELS[metric]
    if metric.endswith(BOTH_SUFFIX):
        return f"{metric_label(metric[: -len(BOTH_SUFFIX)])} (both)"
    return metric


def _metric_key(metric: str) -> tuple[int, int, str]:
    base, both = metric, 0
    if metric.endswith(BOTH_SUFFIX):
        base, both = metric[: -len(BOTH_SUFFIX)], 1
    rank = METRIC_ORDER.index(base) if base in METRIC_ORDER else len(METRIC_ORDER)
    return both, rank, metric


def order_metrics(metrics: set[str]) -> list[str]:
    """Known metrics in the papers' order, their "both" variants next, the rest by name."""
    return sorted(metrics, key=_metric_key)


def layout(setting: str) -> tuple[str, str]:
    """The (method row, column block) a setting fills; unknown settings get their own row."""
    if setting in SETTING_LAYOUT:
        return SETTING_LAYOUT[setting]
    return setting, FEW if setting.startswith("few_shot") else ZERO


def _method_key(method: str) -> tuple[int, str]:
    return (METHOD_ORDER.index(method) if method in METHOD_ORDER else len(METHOD_ORDER)), method


def format_value(row: SummaryRow | None) -> str:
    """A cell: "43.7 ±2.1" (percent, CI half-width), "43.7" without interval, "-" without value."""
    if row is None or row.mean is None:
        return "-"
    half = row.half_width
    if half is None:
        return f"{100 * row.mean:.1f}"
    return f"{100 * row.mean:.1f} ±{100 * half:.1f}"


def _strip_reason(reason: str) -> str:
    """Drop a leading "... not computed:" so the note does not say it twice."""
    head, sep, tail = reason.partition("not computed:")
    if sep and len(head) < 40:
        return tail.strip()
    return reason


def metric_notes(family: str, rows: list[SummaryRow]) -> list[str]:
    """Note lines for metrics of a family with missing values, and expected metrics never run."""
    from halluforge.scoring import FAMILY_METRICS

    notes = []
    present = {row.metric for row in rows}
    for metric in order_metrics(present):
        mine = [row for row in rows if row.metric == metric]
        n = sum(row.n for row in mine)
        n_missing = sum(row.n_missing for row in mine)
        reasons: Counter[str] = Counter()
        for row in mine:
            reasons.update(row.missing_reasons)
        label = metric_label(metric)
        if n == 0:
            if len(reasons) > 1:
                why = "; ".join(f"{_strip_reason(r)} ({k})" for r, k in reasons.most_common())
            else:
                why = _strip_reason(next(iter(reasons))) if reasons else "no values"
            notes.append(f"{label} not computed: {why}")
        elif n_missing:
            why = "; ".join(f"{_strip_reason(r)}: {k}" for r, k in reasons.most_common())
            notes.append(f"{label}: {n_missing} of {n + n_missing} responses have no value ({why})")
    for metric in FAMILY_METRICS.get(family, ()):
        if metric not in present:
            notes.append(f"{metric_label(metric)} not computed: no {metric} scores in this run")
    return notes


class FamilyGrid(NamedTuple):
    """One family's results laid out as the paper's table: rows (model, method), blocks x metrics."""

    metrics: list[str]
    blocks: list[str]
    rows: list[tuple[str, str]]
    cells: dict[tuple[str, str, str, str], SummaryRow]

    def values(self, model: str, method: str) -> list[str]:
        """The formatted cells of one row, block by block, metric by metric."""
        return [
            format_value(self.cells.get((model, method, block, metric)))
            for block in self.blocks
            for metric in self.metrics
        ]


def family_grid(summary: Summary, family: str) -> FamilyGrid:
    """Lay out one family: column blocks with data, metrics present, (model, method) rows with data."""
    rows = summary.rows_for(family)
    metrics = order_metrics({row.metric for row in rows})
    blocks = [block for block in (ZERO, FEW) if any(layout(row.setting)[1] == block for row in rows)]
    methods = sorted({layout(row.setting)[0] for row in rows}, key=_method_key)
    cells: dict[tuple[str, str, str, str], SummaryRow] = {}
    for row in rows:
        method, block = layout(row.setting)
        cells[(row.model, method, block, row.metric)] = row
    filled = {key[:2] for key in cells}
    grid_rows = [
        (model, method)
        for model in dict.fromkeys(row.model for row in rows)
        for method in methods
        if (model, method) in filled
    ]
    return FamilyGrid(metrics, blocks, grid_rows, cells)


def caption(summary: Summary, family: str) -> str:
    """The line under a family table: what the numbers are and how many responses each rests on."""
    level = f"{100 * summary.confidence:g}% " if summary.confidence else ""
    text = f"Percentages; ± is the half-width of the {level}bootstrap confidence interval."
    ns = [row.n for row in summary.rows_for(family) if row.n]
    if ns:
        text += f" Responses per cell: {min(ns)}-{max(ns)}." if min(ns) != max(ns) else f" n = {ns[0]}."
    return text


def render_family_table(summary: Summary, family: str) -> str:
    """One family's results as a Markdown table shaped like ReEval Table 1, with note lines."""
    if not summary.rows_for(family):
        return f"No scores for {cell_text(family)}.\n"
    grid = family_grid(summary, family)
    metric_heads = [f"{block} {metric_label(m)}" for block in grid.blocks for m in grid.metrics]
    header = ["Model", "Method", *metric_heads]
    lines = [
        "| " + " | ".join(header) + " |",
        "|" + "|".join(["---"] * 2 + ["---:"] * (len(header) - 2)) + "|",
    ]
    previous = None
    for model, method in grid.rows:
        first = cell_text(model) if model != previous else ""
        previous = model
        lines.append("| " + " | ".join([first, cell_text(method), *grid.values(model, method)]) + " |")
    out = "\n".join(lines) + "\n\n" + caption(summary, family) + "\n"
    notes = metric_notes(family, summary.rows_for(family))
    if notes:
        out += "\n" + "\n".join(f"- Note: {cell_text(note)}" for note in notes) + "\n"
    return out


def _kv_table(title: str, head: tuple[str, ...], body: list[tuple[Any, ...]]) -> list[str]:
    if not body:
        return []
    lines = [f"### {title}", "", "| " + " | ".join(head) + " |", "|" + "|".join("---" for _ in head) + "|"]
    lines += ["| " + " | ".join(cell_text(v) for v in values) + " |" for values in body]
    return [*lines, ""]


def render_counts(counts: dict[str, Any]) -> str:
    """The run's counts: seed buckets, test cases by provenance path, skips by reason, others."""
    lines: list[str] = []
    buckets = counts.get("seed_buckets")
    if isinstance(buckets, dict) and buckets:
        lines += _kv_table("Seed cases by status bucket", ("bucket", "seed cases"), sorted(buckets.items()))
    forge = counts.get("forge")
    if isinstance(forge, dict) and forge:
        per_family = [
            (
                family,
                info.get("test_cases", "-"),
                info.get("valid", "-"),
                info.get("all_fields_from_llm", "-"),
            )
            for family, info in sorted(forge.items())
            if isinstance(info, dict)
        ]
        lines += _kv_table(
            "Test cases by family", ("family", "test cases", "valid", "all from LLM"), per_family
        )
        paths = [
            (family, field, path, n)
            for family, info in sorted(forge.items())
            if isinstance(info, dict)
            for field, by_path in sorted(info.get("paths", {}).items())
            for path, n in sorted(by_path.items())
        ]
        lines += _kv_table("Test cases by provenance path", ("family", "field", "path", "test cases"), paths)
    skips = counts.get("skips")
    if isinstance(skips, dict) and skips:
        body = [
            (stage, reason, n)
            for stage, reasons in sorted(skips.items())
            if isinstance(reasons, dict)
            for reason, n in sorted(reasons.items(), key=lambda kv: (-kv[1], kv[0]))
        ]
        lines += _kv_table("Skipped inputs by reason", ("stage", "reason", "count"), body)
    other = [(k, v) for k, v in sorted(counts.items()) if isinstance(v, int | float | str) and k != "forge"]
    lines += _kv_table("Other counts", ("count", "value"), other)
    return "\n".join(lines)


def render_summary_markdown(summary: Summary) -> str:
    """The whole ``summary.md``: a table per family, then the notes and the counts."""
    parts = ["# halluforge summary", ""]
    families = summary.families()
    if not families:
        parts += ["No scores in this run.", ""]
    for family in families:
        parts += [
            f"## {cell_text(FAMILY_TITLES.get(family, family))}",
            "",
            render_family_table(summary, family),
        ]
    if summary.notes:
        parts += ["## Notes", "", *(f"- {cell_text(note)}" for note in summary.notes), ""]
    counts = render_counts(summary.counts)
    if counts:
        parts += ["## Counts", "", counts]
    return "\n".join(parts).rstrip() + "\n"


class Analysis(NamedTuple):
    """One analysis: Markdown for ``summary.md`` and the same figures as a JSON-able dict."""

    markdown: str
    data: dict[str, Any]


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.1f}"


def _mean(values: Sequence[float]) -> float | None:
    return sum(values) / len(values) if values else None


def _usable(
    scores: Sequence[Score], metric: str, settings: Sequence[str] | None, family: str | None
) -> list[Score]:
    """Latest score per (response, metric), for one metric, some settings, one family, with a value."""
    from halluforge.metrics.stats import latest_scores

    return [
        s
        for s in latest_scores(scores)
        if s.metric == metric
        and s.value is not None
        and (settings is None or s.setting in settings)
        and (family is None or s.family == family)
    ]


NO_GENERATOR = "(no generator)"


def transferability_matrix(
    scores: Sequence[Score],
    test_cases: Sequence[TestCase],
    *,
    metric: str = "hit",
    setting: str | None = "open_book",
    family: str | None = None,
) -> Analysis:
    """Mean ``metric`` per generator model (rows) x target model (columns).

    A cell is a self-attack when the target is the model that forged the test cases, a
    cross-attack otherwise (AutoDebug §4.3: self-attacks hurt most, yet attacks transfer).
    Test cases without a generator model (ready-made ones) form a row of their own.
    ``setting=None`` pools every setting.
    """
    cases = {c.id: c for c in test_cases}
    groups: dict[tuple[str, str], list[float]] = defaultdict(list)
    unmatched = 0
    for score in _usable(scores, metric, None if setting is None else (setting,), family):
        case = cases.get(score.test_case_id)
        if case is None:
            unmatched += 1
            continue
        generator = case.provenance.generator_model or NO_GENERATOR
        groups[(generator, score.model)].append(float(score.value or 0.0))
    generators = sorted({g for g, _ in groups})
    targets = sorted({t for _, t in groups})
    cells: list[dict[str, Any]] = []
    pooled: dict[str, list[float]] = defaultdict(list)
    for (generator, target), values in sorted(groups.items()):
        attack = "none" if generator == NO_GENERATOR else ("self" if generator == target else "cross")
        pooled[attack] += values
        cells.append(
            {
                "generator": generator,
                "target": target,
                "attack": attack,
                "mean": _mean(values),
                "n": len(values),
            }
        )
    by_key = {(c["generator"], c["target"]): c for c in cells}
    where = f"{setting}" if setting else "all settings"
    lines = [f"### Transferability: {metric_label(metric)} (%), {where}", ""]
    if not cells:
        lines.append("No scores to compare.")
    else:
        lines += [
            "| Generator \\ Target | " + " | ".join(cell_text(t) for t in targets) + " |",
            "|---|" + "---:|" * len(targets),
        ]
        for generator in generators:
            row = []
            for target in targets:
                cell = by_key.get((generator, target))
                if cell is None:
                    row.append("-")
                    continue
                text = f"{_pct(cell['mean'])} (n={cell['n']})"
                row.append(f"**{text}**" if cell["attack"] == "self" else text)
            lines.append(f"| {cell_text(generator)} | " + " | ".join(row) + " |")
        lines += ["", "Bold cells are self-attacks (the target model forged the test cases)."]
        for attack in ("self", "cross"):
            if pooled[attack]:
                mean = _pct(_mean(pooled[attack]))
                lines.append(f"{attack.capitalize()}-attack mean: {mean} (n={len(pooled[attack])}).")
    data: dict[str, Any] = {
        "metric": metric,
        "setting": setting,
        "family": family,
        "cells": cells,
        "self_mean": _mean(pooled["self"]),
        "self_n": len(pooled["self"]),
        "cross_mean": _mean(pooled["cross"]),
        "cross_n": len(pooled["cross"]),
        "scores_without_test_case": unmatched,
    }
    return Analysis("\n".join(lines) + "\n", data)


POSITIONS = ("first", "middle", "last")
_POSITION_ALIASES = {"start": "first", "begin": "first", "mid": "middle", "end": "last"}


def answer_position(case: TestCase) -> str | None:
    """The third of the evidence holding the answer: "first", "middle", "last", or None.

    Reads ``metadata["answer_position"]``: one of those words, or a relative offset in [0, 1].
    """
    raw = case.metadata.get("answer_position")
    if isinstance(raw, str):
        word = _POSITION_ALIASES.get(raw.strip().lower(), raw.strip().lower())
        return word if word in POSITIONS else None
    if isinstance(raw, int | float) and not isinstance(raw, bool) and 0 <= raw <= 1:
        return POSITIONS[min(2, int(raw * 3))]
    return None


def answer_position_breakdown(
    scores: Sequence[Score],
    test_cases: Sequence[TestCase],
    *,
    metric: str = "hit",
    settings: Sequence[str] = ("open_book", "few_shot"),
    family: str | None = None,
) -> Analysis:
    """Mean ``metric`` per model and setting by where the answer sat in the evidence.

    ReEval §4.4 / Table 14: is a model sensitive to the answer being in the first, middle or
    last third of the evidence? Test cases without a known position are counted, not used.
    """
    cases = {c.id: c for c in test_cases if family is None or c.family == family}
    position_counts: Counter[str] = Counter(answer_position(c) or "unknown" for c in cases.values())
    groups: dict[tuple[str, str, str], list[float]] = defaultdict(list)
    for score in _usable(scores, metric, settings, family):
        case = cases.get(score.test_case_id)
        position = answer_position(case) if case is not None else None
        if position is not None:
            groups[(score.model, score.setting, position)].append(float(score.value or 0.0))
    cells: list[dict[str, Any]] = [
        {"model": model, "setting": setting, "position": position, "mean": _mean(values), "n": len(values)}
        for (model, setting, position), values in sorted(groups.items())
    ]
    known = sum(position_counts[p] for p in POSITIONS)
    shares = {p: (position_counts[p] / known if known else None) for p in POSITIONS}
    lines = [f"### Answer position: {metric_label(metric)} (%) by third of the evidence", ""]
    pairs = list(dict.fromkeys((c["model"], c["setting"]) for c in cells))
    if not pairs:
        lines.append("No scored test cases with a known answer position.")
    else:
        by_key = {(c["model"], c["setting"], c["position"]): c for c in cells}
        lines += ["| Model | Setting | First third | Middle third | Last third |", "|---|---|---:|---:|---:|"]
        for model, setting in pairs:
            row = []
            for position in POSITIONS:
                cell = by_key.get((model, setting, position))
                row.append("-" if cell is None else f"{_pct(cell['mean'])} (n={cell['n']})")
            lines.append(f"| {cell_text(model)} | {cell_text(setting)} | " + " | ".join(row) + " |")
    if known:
        share_text = ", ".join(f"{p} {position_counts[p]} ({_pct(shares[p])}%)" for p in POSITIONS)
        lines += ["", f"Test cases by answer position: {share_text}."]
    if position_counts["unknown"]:
        lines.append(
            f"{position_counts['unknown']} test cases have no recorded answer position and are left out."
        )
    data: dict[str, Any] = {
        "metric": metric,
        "settings": list(settings),
        "family": family,
        "cells": cells,
        "test_cases_by_position": {p: position_counts[p] for p in (*POSITIONS, "unknown")},
        "shares": shares,
    }
    return Analysis("\n".join(lines) + "\n", data)


def few_shot_delta(
    summary: Summary, original: str = "few_shot", adversarial: str = "few_shot_adversarial"
) -> Analysis:
    """Per family, model and metric: mean with adversarial demos minus mean with original demos.

    AutoDebug §4.4 / Table 6: a positive delta means forged test cases used as in-context
    demonstrations helped the model. Deltas are in percentage points.
    """
    deltas: list[dict[str, Any]] = []
    for row in summary.rows:
        if row.setting != original or row.mean is None:
            continue
        other = summary.get(row.family, row.model, adversarial, row.metric)
        if other is None or other.mean is None:
            continue
        deltas.append(
            {
                "family": row.family,
                "model": row.model,
                "metric": row.metric,
                "original": row.mean,
                "adversarial": other.mean,
                "delta": other.mean - row.mean,
                "n_original": row.n,
                "n_adversarial": other.n,
            }
        )
    lines = [f"### Few-shot delta: {adversarial} minus {original} (percentage points)", ""]
    if not deltas:
        lines.append(f"No model was run under both {original} and {adversarial}.")
    for family in sorted({d["family"] for d in deltas}):
        mine = [d for d in deltas if d["family"] == family]
        metrics = order_metrics({d["metric"] for d in mine})
        by_key = {(d["model"], d["metric"]): d for d in mine}
        lines += [
            f"**{cell_text(family)}**",
            "",
            "| Model | " + " | ".join(f"Δ {metric_label(m)}" for m in metrics) + " |",
            "|---|" + "---:|" * len(metrics),
        ]
        for model in dict.fromkeys(d["model"] for d in mine):
            found = [by_key.get((model, m)) for m in metrics]
            values = ["-" if d is None else f"{100 * d['delta']:+.1f}" for d in found]
            lines.append(f"| {cell_text(model)} | " + " | ".join(values) + " |")
        lines.append("")
    data: dict[str, Any] = {"original": original, "adversarial": adversarial, "deltas": deltas}
    return Analysis("\n".join(lines).rstrip() + "\n", data)


def render_analyses(
    scores: Sequence[Score], test_cases: Sequence[TestCase], summary: Summary, *, metric: str = "hit"
) -> Analysis:
    """Every analysis the run has data for, as one "## Analyses" section and one dict.

    Transferability needs forged test cases with a generator model, the position breakdown
    needs ``metadata["answer_position"]``, the few-shot delta needs both few-shot settings.
    """
    parts: list[str] = []
    data: dict[str, Any] = {}
    if any(c.provenance.generator_model for c in test_cases):
        transfer = transferability_matrix(scores, test_cases, metric=metric)
        if transfer.data["cells"]:
            parts.append(transfer.markdown)
            data["transferability"] = transfer.data
    if any(answer_position(c) for c in test_cases):
        position = answer_position_breakdown(scores, test_cases, metric=metric)
        if position.data["cells"]:
            parts.append(position.markdown)
            data["answer_position"] = position.data
    delta = few_shot_delta(summary)
    if delta.data["deltas"]:
        parts.append(delta.markdown)
        data["few_shot_delta"] = delta.data
    markdown = "## Analyses\n\n" + "\n".join(parts) if parts else ""
    return Analysis(markdown, data)


__all__ = [
    "METRIC_LABELS",
    "POSITIONS",
    "SETTING_LAYOUT",
    "Analysis",
    "FamilyGrid",
    "answer_position",
    "answer_position_breakdown",
    "caption",
    "cell_text",
    "family_grid",
    "few_shot_delta",
    "format_value",
    "layout",
    "metric_label",
    "metric_notes",
    "order_metrics",
    "render_analyses",
    "render_counts",
    "render_family_table",
    "render_summary_markdown",
    "transferability_matrix",
]
