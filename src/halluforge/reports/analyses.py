"""Analyses across families and models, as report sections built on the metric layer.

Each analysis breaks joined rows down by named join fields
(:func:`halluforge.metrics.aggregate.breakdown`) and returns an
:class:`Analysis`: report-model blocks plus the same figures as a JSON-able dict.

- :func:`transferability_matrix`: generator model x target model, self- vs cross-attack
  (AutoDebug Tables 4-5);
- :func:`answer_position_breakdown`: where the answer sat in the evidence (ReEval Table 14);
- :func:`few_shot_delta`: adversarial vs original demonstrations (AutoDebug Table 6).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any, NamedTuple

from halluforge.family import metadata_of
from halluforge.metrics.aggregate import breakdown
from halluforge.metrics.joined import POSITIONS, Joined, answer_third, attack_of
from halluforge.metrics.summary import Summary
from halluforge.records import Score, TestCase
from halluforge.reports.markdown import render_block
from halluforge.reports.model import Paragraph, Section, Table, aligned
from halluforge.reports.tables import metric_label, order_metrics


class Analysis(NamedTuple):
    """One analysis: its report blocks and the same figures as a JSON-able dict."""

    blocks: list[Paragraph | Table]
    data: dict[str, Any]

    @property
    def markdown(self) -> str:
        """The blocks as Markdown (for scripts and tests that want text)."""
        return "\n".join(render_block(b) for b in self.blocks)


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.1f}"


def _usable(joined: Joined, metric: str, settings: Sequence[str] | None, family: str | None) -> list[Score]:
    """Latest score per response for one metric, some settings, one family, with a value."""
    return [
        s
        for s in joined.of_metric(metric)
        if s.value is not None
        and s.item is None
        and (settings is None or s.setting in settings)
        and (family is None or s.family == family)
    ]


#: the join fields of the transferability matrix: generator model x target model
TRANSFER_FIELDS = ("generator", "model")
#: the join fields of the answer-position breakdown
POSITION_FIELDS = ("model", "setting", "position")


def transferability_matrix(
    joined: Joined,
    *,
    metric: str = "hit",
    setting: str | None = "open_book",
    family: str | None = None,
    n_boot: int = 0,
    seed: int = 0,
) -> Analysis:
    """Mean ``metric`` per generator model (rows) x target model (columns).

    A cell is a self-attack when the target is the model that forged the test cases, a
    cross-attack otherwise (AutoDebug §4.3: self-attacks hurt most, yet attacks transfer).
    Test cases without a generator model (ready-made ones) form a row of their own.
    ``setting=None`` pools every setting. With ``n_boot`` the cells carry bootstrap intervals.
    """
    rows = _usable(joined, metric, None if setting is None else (setting,), family)
    matched = [s for s in rows if joined.case(s) is not None]
    cells: list[dict[str, Any]] = [
        {
            "generator": str(group.get("generator")),
            "target": str(group.get("model")),
            "attack": attack_of(str(group.get("generator")), str(group.get("model"))),
            "mean": group.mean,
            "n": group.n,
            "ci_low": group.ci_low,
            "ci_high": group.ci_high,
        }
        for group in breakdown(joined, matched, TRANSFER_FIELDS, n_boot=n_boot, seed=seed)
    ]
    pooled = {str(g.get("attack")): g for g in breakdown(joined, matched, ("attack",), n_boot=0)}
    generators = sorted({c["generator"] for c in cells})
    targets = sorted({c["target"] for c in cells})
    by_key = {(c["generator"], c["target"]): c for c in cells}
    where = f"{setting}" if setting else "all settings"
    title = f"Transferability: {metric_label(metric)} (%), {where}"
    blocks: list[Paragraph | Table] = []
    if not cells:
        blocks.append(Paragraph(text="No scores to compare."))
    else:
        table = Table(
            title=title,
            columns=["Generator \\ Target", *targets],
            align=aligned(1, len(targets)),
        )
        for r, generator in enumerate(generators):
            row = [generator]
            for c, target in enumerate(targets, start=1):
                cell = by_key.get((generator, target))
                row.append("-" if cell is None else f"{_pct(cell['mean'])} (n={cell['n']})")
                if cell is not None and cell["attack"] == "self":
                    table.strong.append((r, c))
            table.rows.append(row)
        table.notes.append("Bold cells are self-attacks (the target model forged the test cases).")
        for attack in ("self", "cross"):
            if attack in pooled:
                found = pooled[attack]
                table.notes.append(f"{attack.capitalize()}-attack mean: {_pct(found.mean)} (n={found.n}).")
        blocks.append(table)
    data: dict[str, Any] = {
        "metric": metric,
        "setting": setting,
        "family": family,
        "cells": cells,
        "self_mean": pooled["self"].mean if "self" in pooled else None,
        "self_n": pooled["self"].n if "self" in pooled else 0,
        "cross_mean": pooled["cross"].mean if "cross" in pooled else None,
        "cross_n": pooled["cross"].n if "cross" in pooled else 0,
        "scores_without_test_case": len(rows) - len(matched),
    }
    return Analysis(blocks, data)


def answer_position(case: TestCase) -> str | None:
    """The third of the evidence holding the answer: "first", "middle", "last", or None.

    Reads the case's ``answer_position`` (:class:`~halluforge.family.CaseMetadata`): one of those
    words, or a relative offset in [0, 1] (:func:`~halluforge.metrics.joined.answer_third`).
    """
    return answer_third(metadata_of(case).answer_position)


def answer_position_breakdown(
    joined: Joined,
    *,
    metric: str = "hit",
    settings: Sequence[str] = ("open_book", "few_shot"),
    family: str | None = None,
) -> Analysis:
    """Mean ``metric`` per model and setting by where the answer sat in the evidence.

    ReEval §4.4 / Table 14: is a model sensitive to the answer being in the first, middle or
    last third of the evidence? Test cases without a known position are counted, not used.
    """
    cases = {i: c for i, c in joined.cases.items() if family is None or c.family == family}
    position_counts: Counter[str] = Counter(answer_position(c) or "unknown" for c in cases.values())
    placed = [s for s in _usable(joined, metric, settings, family) if joined.field(s, "position")]
    cells: list[dict[str, Any]] = [
        {**g.fields, "mean": g.mean, "n": g.n} for g in breakdown(joined, placed, POSITION_FIELDS, n_boot=0)
    ]
    known = sum(position_counts[p] for p in POSITIONS)
    shares = {p: (position_counts[p] / known if known else None) for p in POSITIONS}
    title = f"Answer position: {metric_label(metric)} (%) by third of the evidence"
    blocks: list[Paragraph | Table] = []
    pairs = list(dict.fromkeys((c["model"], c["setting"]) for c in cells))
    table = Table(
        title=title,
        columns=["Model", "Setting", "First third", "Middle third", "Last third"],
        align=aligned(2, 3),
    )
    if not pairs:
        blocks.append(Paragraph(text="No scored test cases with a known answer position."))
    else:
        by_key = {(c["model"], c["setting"], c["position"]): c for c in cells}
        for model, setting in pairs:
            row = [str(model), str(setting)]
            for where in POSITIONS:
                cell = by_key.get((model, setting, where))
                row.append("-" if cell is None else f"{_pct(cell['mean'])} (n={cell['n']})")
            table.rows.append(row)
        blocks.append(table)
    if known:
        share_text = ", ".join(f"{p} {position_counts[p]} ({_pct(shares[p])}%)" for p in POSITIONS)
        table.notes.append(f"Test cases by answer position: {share_text}.")
    if position_counts["unknown"]:
        table.notes.append(
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
    return Analysis(blocks, data)


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
    title = f"Few-shot delta: {adversarial} minus {original} (percentage points)"
    blocks: list[Paragraph | Table] = []
    if not deltas:
        blocks.append(Paragraph(text=f"No model was run under both {original} and {adversarial}."))
    for family in sorted({d["family"] for d in deltas}):
        mine = [d for d in deltas if d["family"] == family]
        metrics = order_metrics({d["metric"] for d in mine})
        by_key = {(d["model"], d["metric"]): d for d in mine}
        table = Table(
            title=f"{title}: {family}",
            columns=["Model", *(f"Δ {metric_label(m)}" for m in metrics)],
            align=aligned(1, len(metrics)),
        )
        for model in dict.fromkeys(d["model"] for d in mine):
            found = [by_key.get((model, m)) for m in metrics]
            table.rows.append([model, *("-" if d is None else f"{100 * d['delta']:+.1f}" for d in found)])
        blocks.append(table)
    data: dict[str, Any] = {"original": original, "adversarial": adversarial, "deltas": deltas}
    return Analysis(blocks, data)


def analyses_section(joined: Joined, summary: Summary, *, metric: str = "hit") -> Section | None:
    """Every analysis the run has data for, as one "Analyses" section (None when there is none).

    Transferability needs forged test cases with a generator model, the position breakdown
    needs cases with an ``answer_position``, the few-shot delta needs both few-shot settings.
    """
    section = Section(title="Analyses")
    cases = list(joined.cases.values())
    if any(c.provenance.generator_model for c in cases):
        transfer = transferability_matrix(joined, metric=metric)
        if transfer.data["cells"]:
            section.blocks += transfer.blocks
            section.data["transferability"] = transfer.data
    if any(answer_position(c) for c in cases):
        position = answer_position_breakdown(joined, metric=metric)
        if position.data["cells"]:
            section.blocks += position.blocks
            section.data["answer_position"] = position.data
    delta = few_shot_delta(summary)
    if delta.data["deltas"]:
        section.blocks += delta.blocks
        section.data["few_shot_delta"] = delta.data
    return section if section.blocks else None


__all__ = [
    "POSITIONS",
    "POSITION_FIELDS",
    "TRANSFER_FIELDS",
    "Analysis",
    "analyses_section",
    "answer_position",
    "answer_position_breakdown",
    "few_shot_delta",
    "transferability_matrix",
]
