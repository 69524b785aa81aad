"""Tables shaped like the papers' tables, as report-model blocks.

- :func:`family_table` lays out one family like ReEval Table 1: one row per model and method
  (Closed-book, Open-book, Faithful prompt...), a Zero-shot and a Few-shot column block, each
  with the metrics the run computed. Values are percentages with the half-width of the
  bootstrap interval ("43.7 ±2.1"); "-" marks a cell the run did not produce, and a note says
  when a metric could not be computed (for example without an NLI model). Where a setting
  goes (its method row and column block) is read from the settings registry.
- :func:`count_tables` gives the counts a reader needs to trust the figures: seed buckets,
  which path made each generated field, skipped inputs by reason, failed responses by error.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any, NamedTuple

from halluforge.family import Family
from halluforge.metrics.summary import Summary, SummaryRow
from halluforge.reports.model import Table, aligned
from halluforge.settings import FEW_SHOT, SETTINGS, ZERO_SHOT

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
BLOCKS = (ZERO_SHOT, FEW_SHOT)


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
    if setting in SETTINGS:
        spec = SETTINGS.get(setting)
        return spec.method, spec.block
    return setting, ZERO_SHOT


def _method_order() -> list[str]:
    specs = sorted((SETTINGS.get(name) for name in SETTINGS.names()), key=lambda s: (s.rank, s.name))
    return list(dict.fromkeys(spec.method for spec in specs))


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


def expected_metrics(spec: Family | None) -> list[str]:
    """The metric names a family's spec promises (its scorers and single-output derived metrics)."""
    if spec is None:
        return []
    from halluforge.metrics.layer import METRICS

    derived = [m for m in spec.metrics if m in METRICS and METRICS.get(m).single_output]
    return [*spec.scorers, *derived]


def metric_notes(rows: list[SummaryRow], spec: Family | None = None) -> list[str]:
    """Note lines for metrics of a family with missing values, and expected metrics never run."""
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
    for metric in expected_metrics(spec):
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
    blocks = [block for block in BLOCKS if any(layout(row.setting)[1] == block for row in rows)]
    order = _method_order()
    methods = sorted(
        {layout(row.setting)[0] for row in rows},
        key=lambda m: ((order.index(m) if m in order else len(order)), m),
    )
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


def family_table(summary: Summary, family: str, spec: Family | None = None) -> Table:
    """One family's results shaped like ReEval Table 1, with its caption and notes."""
    grid = family_grid(summary, family)
    heads = [f"{block} {metric_label(m)}" for block in grid.blocks for m in grid.metrics]
    rows = []
    previous = None
    for model, method in grid.rows:
        rows.append([model if model != previous else "", method, *grid.values(model, method)])
        previous = model
    return Table(
        columns=["Model", "Method", *heads],
        rows=rows,
        align=aligned(2, len(heads)),
        caption=caption(summary, family),
        notes=metric_notes(summary.rows_for(family), spec),
    )


def _kv_table(title: str, head: Sequence[str], body: list[tuple[Any, ...]]) -> list[Table]:
    if not body:
        return []
    return [Table(title=title, columns=list(head), rows=[[str(v) for v in values] for values in body])]


def count_tables(counts: dict[str, Any]) -> list[Table]:
    """The run's counts: seed buckets, test cases by provenance path, skips by reason, failures, others."""
    tables: list[Table] = []
    buckets = counts.get("seed_buckets")
    if isinstance(buckets, dict) and buckets:
        tables += _kv_table("Seed cases by status bucket", ("bucket", "seed cases"), sorted(buckets.items()))
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
        tables += _kv_table(
            "Test cases by family", ("family", "test cases", "valid", "all from LLM"), per_family
        )
        paths = [
            (family, field, path, n)
            for family, info in sorted(forge.items())
            if isinstance(info, dict)
            for field, by_path in sorted(info.get("paths", {}).items())
            for path, n in sorted(by_path.items())
        ]
        tables += _kv_table("Test cases by provenance path", ("family", "field", "path", "test cases"), paths)
    skips = counts.get("skips")
    if isinstance(skips, dict) and skips:
        body = [
            (stage, reason, n)
            for stage, reasons in sorted(skips.items())
            if isinstance(reasons, dict)
            for reason, n in sorted(reasons.items(), key=lambda kv: (-kv[1], kv[0]))
        ]
        tables += _kv_table("Skipped inputs by reason", ("stage", "reason", "count"), body)
    failures = counts.get("responses_failed_by_error")
    if isinstance(failures, dict) and failures:
        ranked = sorted(failures.items(), key=lambda kv: (-kv[1], kv[0]))
        tables += _kv_table("Failed responses by error type", ("error type", "responses"), ranked)
    other = [(k, v) for k, v in sorted(counts.items()) if isinstance(v, int | float | str) and k != "forge"]
    tables += _kv_table("Other counts", ("count", "value"), other)
    return tables


__all__ = [
    "METRIC_LABELS",
    "FamilyGrid",
    "caption",
    "count_tables",
    "expected_metrics",
    "family_grid",
    "family_table",
    "format_value",
    "layout",
    "metric_label",
    "metric_notes",
    "order_metrics",
]
