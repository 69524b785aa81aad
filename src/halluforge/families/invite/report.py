"""INVITE Table 2: hallucination rate per model, and per category, with bootstrap CIs.

INVITE reports one hallucination rate per model (the share of responses labelled as going along
with the false premise; e.g. GPT-3.5-Turbo 17%, GPT-J-6B 82%). Here the rate is the mean of the
``premise_judge`` scores broken down on the metric layer
(:func:`halluforge.metrics.aggregate.breakdown`) by model and setting, and by the judge's
declared ``group_by`` (category, model, setting): the category is the predicate or date kind of
the test case, falling back to the family. Responses the judge could not label are counted in
a separate column, never dropped silently.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence

from halluforge.errors import ConfigError
from halluforge.family import Family
from halluforge.metrics.aggregate import Aggregate, breakdown, group_by_of
from halluforge.metrics.joined import Joined, latest_scores
from halluforge.records import Score, TestCase
from halluforge.reports.markdown import render_block
from halluforge.reports.model import Paragraph, Table, aligned
from halluforge.reports.sections import ReportInputs, SectionKind

METRIC = "premise_judge"
TITLE = "Hallucination rate (INVITE Table 2)"
#: the join fields Table 2 lays out (the premise judge's ``group_by``)
TABLE_FIELDS = ("category", "model", "setting")


def _cell(group: Aggregate | None) -> str:
    if group is None or group.mean is None:
        return "–"
    low = group.ci_low if group.ci_low is not None else group.mean
    high = group.ci_high if group.ci_high is not None else group.mean
    return f"{100 * group.mean:.1f} [{100 * low:.1f}, {100 * high:.1f}]"


def invite_blocks(
    scores: Iterable[Score],
    cases: dict[str, TestCase] | None = None,
    *,
    metric: str = METRIC,
    n_boot: int = 1000,
    confidence: float = 0.95,
    seed: int = 0,
) -> list[Paragraph | Table]:
    """The two INVITE tables (percentages) from the latest ``metric`` scores."""
    chosen = [s for s in latest_scores(scores) if s.metric == metric]
    if not chosen:
        text = f"No {metric} scores: run the false_premise or invalid_date family with this scorer."
        return [Paragraph(text=text)]
    by = group_by_of(metric)  # the premise judge's: category, model, setting
    if set(by) != set(TABLE_FIELDS):
        raise ConfigError(f"INVITE Table 2 needs {metric} broken down by {TABLE_FIELDS}, it declares {by}")
    joined = Joined(cases or {}, {}, chosen)
    several = len({s.setting for s in chosen}) > 1

    def label(fields: Mapping[str, Hashable]) -> str:
        model, setting = str(fields["model"]), str(fields["setting"])
        return f"{model} ({setting})" if several else model

    def category_label(fields: Mapping[str, Hashable]) -> tuple[str, str]:
        return str(fields["category"]), label(fields)

    def groups(rows: list[Score], fields: Sequence[str], seed_key: Callable[..., object]) -> list[Aggregate]:
        # seeded as INVITE tables always were: by the model label, or by (category, label)
        return breakdown(
            joined,
            rows,
            fields,
            n_boot=n_boot,
            confidence=confidence,
            seed=seed,
            namespace="invite",
            seed_key=seed_key,
        )

    per_model = {label(g.fields): g for g in groups(chosen, ("model", "setting"), label)}
    judged = [s for s in chosen if s.value is not None]
    per_category = {category_label(g.fields): g for g in groups(judged, by, category_label)}
    models = sorted(str(m) for m in per_model)
    level = f"{100 * confidence:g}%"
    first = Table(
        columns=["model", "n", "hallucination rate", "not judged"],
        align=aligned(1, 3),
        rows=[[m, str(per_model[m].n), _cell(per_model[m]), str(per_model[m].n_missing)] for m in models],
    )
    second = Table(columns=["category", *models], align=aligned(1, len(models)))
    for name in sorted({c for c, _ in per_category}):
        cells = []
        for model in models:
            group = per_category.get((name, model))
            cells.append(f"{_cell(group)} (n={group.n})" if group is not None else _cell(None))
        second.rows.append([name, *cells])
    return [
        Paragraph(text=f"Hallucination rate (%) per model ({metric}; {level} bootstrap CI)", strong=True),
        first,
        Paragraph(text=f"Hallucination rate (%) per category ({level} bootstrap CI)", strong=True),
        second,
    ]


def _section(inputs: ReportInputs, families: Mapping[str, Family | None]) -> list[Paragraph | Table]:
    return invite_blocks(
        [s for s in inputs.joined.scores if s.family in families],
        inputs.joined.cases,
        n_boot=inputs.n_boot,
        confidence=inputs.confidence,
        seed=inputs.seed,
    )


#: INVITE Table 2, one section for the run over every family that names ``invite``
SECTION = SectionKind(_section, title=TITLE)


def render_invite_table(
    scores: Sequence[Score],
    *,
    metric: str = METRIC,
    n_boot: int = 1000,
    confidence: float = 0.95,
    seed: int = 0,
) -> str:
    """The INVITE tables as Markdown (for ``halluforge judge`` and scripts)."""
    blocks = invite_blocks(scores, metric=metric, n_boot=n_boot, confidence=confidence, seed=seed)
    return "\n".join(render_block(b) for b in blocks)


__all__ = ["METRIC", "SECTION", "TITLE", "invite_blocks", "render_invite_table"]
