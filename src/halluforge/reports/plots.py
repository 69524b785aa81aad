"""Plots of a run as Vega-Lite specs, built with Altair (``pip install 'halluforge[report]'``).

Each function reads the summary or the joined rows and returns a :class:`Plot` (a title, a
caption and a Vega-Lite spec as a plain dict) or ``None`` when the run has nothing to show:

- :func:`setting_bars`: per family, mean per model x setting with the bootstrap interval as
  whiskers, one panel per metric (ReEval Table 1 as bars);
- :func:`drop_plot`: the original -> perturbed drop of each perturbed family, per model and
  setting (the fall AutoDebug and ReEval report);
- :func:`transfer_heatmap`: generator model x target model (AutoDebug Tables 4-5);
- :func:`invite_rates`: INVITE hallucination rate per category and model (INVITE Table 2);
- :func:`position_lines`: the metric by the third of the evidence that held the answer
  (ReEval Table 14).

The HTML report (:mod:`halluforge.reports.html`) embeds the specs as JSON data and renders
them offline with the Vega bundle of ``vl-convert-python``. Values are fractions in [0, 1]
shown as percentages; every spec carries its own data, so the report needs no network.
Specs are not validated against the Vega-Lite schema on every run (it costs more than
building them); the browser tests render every kind in Chromium, which is the real check.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from halluforge.errors import ConfigError
from halluforge.family import Family
from halluforge.metrics.aggregate import breakdown
from halluforge.metrics.joined import Joined
from halluforge.metrics.summary import Summary
from halluforge.reports.tables import metric_label, order_metrics

#: metrics preferred for the one-metric plots, in order
MAIN_METRICS = ("hit", "em", "f1", "entail")
INVITE_METRIC = "premise_judge"
WIDTH = 180


@dataclass(frozen=True)
class Plot:
    """One plot: a title, a caption saying what is drawn, and its Vega-Lite spec."""

    title: str
    caption: str
    spec: dict[str, Any]


def altair() -> Any:
    """Import Altair, or say which extra installs it."""
    try:
        import altair as alt
    except ImportError as exc:
        raise ConfigError(
            "plots need Altair", hint="pip install 'halluforge[report]' (altair and vl-convert-python)"
        ) from exc
    return alt


def _pct_axis(alt: Any, title: str) -> Any:
    return alt.Y("mean:Q", title=title, axis=alt.Axis(format="%"), scale=alt.Scale(domain=[0, 1], clamp=True))


def main_metric(metrics: set[str]) -> str | None:
    """The metric a one-metric plot shows: the first of :data:`MAIN_METRICS` present."""
    for metric in MAIN_METRICS:
        if metric in metrics:
            return metric
    return None


def setting_bars(summary: Summary, family: str) -> Plot | None:
    """Mean per model and setting with CI whiskers, one panel per metric of ``family``."""
    rows = [r for r in summary.rows_for(family) if r.mean is not None]
    if not rows:
        return None
    alt = altair()
    metrics = order_metrics({r.metric for r in rows})
    values = [
        {
            "model": r.model,
            "setting": r.setting,
            "metric": metric_label(r.metric),
            "mean": r.mean,
            "low": r.ci_low if r.ci_low is not None else r.mean,
            "high": r.ci_high if r.ci_high is not None else r.mean,
            "n": r.n,
        }
        for r in rows
    ]
    base = alt.Chart(alt.Data(values=values)).encode(
        x=alt.X("setting:N", title=None),
        xOffset=alt.XOffset("model:N"),
        color=alt.Color("model:N", legend=alt.Legend(orient="bottom", columns=2)),
    )
    bars = base.mark_bar().encode(
        y=_pct_axis(alt, "mean"),
        tooltip=["model:N", "setting:N", "metric:N", alt.Tooltip("mean:Q", format=".1%"), "n:Q"],
    )
    whiskers = base.mark_rule(color="black").encode(y="low:Q", y2="high:Q")
    labels = [metric_label(m) for m in metrics]
    chart = (
        alt.layer(bars, whiskers)
        .properties(width=WIDTH, height=160)
        .facet(column=alt.Column("metric:N", title=None, sort=labels))
    )
    level = f"{100 * summary.confidence:g}% " if summary.confidence else ""
    return Plot(
        title=f"{family}: mean per model and setting",
        caption=f"Bars are means; whiskers the {level}bootstrap interval. One panel per metric.",
        spec=chart.to_dict(validate=False),
    )


def drop_plot(summary: Summary, families: Mapping[str, Family]) -> Plot | None:
    """Original -> perturbed means per model and setting, one panel per perturbed family."""
    values: list[dict[str, Any]] = []
    metric_used: set[str] = set()
    for name in summary.families():
        spec = families.get(name)
        if spec is None or not spec.baseline:
            continue
        mine = {(r.model, r.setting, r.metric): r for r in summary.rows_for(name) if r.mean is not None}
        base = {
            (r.model, r.setting, r.metric): r for r in summary.rows_for(spec.baseline) if r.mean is not None
        }
        metric = main_metric({k[2] for k in mine} & {k[2] for k in base})
        if metric is None:
            continue
        metric_used.add(metric)
        for (model, setting, m), row in mine.items():
            before = base.get((model, setting, m))
            if m != metric or before is None:
                continue
            pair = f"{model} · {setting}"
            values.append({"family": name, "stage": "1 original", "mean": before.mean, "pair": pair})
            values.append({"family": name, "stage": "2 perturbed", "mean": row.mean, "pair": pair})
    if not values:
        return None
    alt = altair()
    label = " / ".join(metric_label(m) for m in sorted(metric_used))
    chart = (
        alt.Chart(alt.Data(values=values))
        .mark_line(point=True)
        .encode(
            x=alt.X("stage:O", title=None),
            y=_pct_axis(alt, label),
            color=alt.Color("pair:N", title="model · setting", legend=alt.Legend(orient="bottom", columns=2)),
            tooltip=["pair:N", "stage:O", alt.Tooltip("mean:Q", format=".1%")],
        )
        .properties(width=WIDTH, height=180)
        .facet(column=alt.Column("family:N", title=None))
    )
    return Plot(
        title=f"Original → perturbed ({label})",
        caption="Each line joins one model's mean on the unperturbed seed cases with its mean on "
        "the forged test cases, under the same setting.",
        spec=chart.to_dict(validate=False),
    )


def transfer_heatmap(data: Mapping[str, Any] | None) -> Plot | None:
    """Generator x target heat map from the transferability analysis' data."""
    cells = [c for c in (data or {}).get("cells", []) if c.get("mean") is not None]
    if not cells or data is None:
        return None
    alt = altair()
    values = [
        {
            "generator": c["generator"],
            "target": c["target"],
            "mean": c["mean"],
            "n": c["n"],
            "attack": c["attack"],
            "label": f"{100 * c['mean']:.0f}%",
        }
        for c in cells
    ]
    base = alt.Chart(alt.Data(values=values)).encode(
        x=alt.X("target:N", title="target model"), y=alt.Y("generator:N", title="generator model")
    )
    rect = base.mark_rect().encode(
        color=alt.Color(
            "mean:Q", title=metric_label(str(data.get("metric"))), scale=alt.Scale(domain=[0, 1])
        ),
        tooltip=["generator:N", "target:N", "attack:N", alt.Tooltip("mean:Q", format=".1%"), "n:Q"],
    )
    text = base.mark_text(baseline="middle").encode(text="label:N")
    chart = alt.layer(rect, text).properties(width=max(120, 90 * len({c["target"] for c in cells})))
    return Plot(
        title=f"Transferability: {metric_label(str(data.get('metric')))} by generator and target",
        caption="Diagonal cells where the target forged its own test cases are self-attacks.",
        spec=chart.to_dict(validate=False),
    )


def invite_rates(
    joined: Joined, *, confidence: float = 0.95, n_boot: int = 200, seed: int = 0
) -> Plot | None:
    """INVITE hallucination rate per category and model, with bootstrap whiskers."""
    rows = [s for s in joined.of_metric(INVITE_METRIC) if s.item is None]
    if not rows:
        return None
    groups = breakdown(
        joined,
        rows,
        ("category", "model"),
        n_boot=n_boot,
        confidence=confidence,
        seed=seed,
        namespace="invite-plot",
    )
    values = [
        {
            "category": str(g.get("category")),
            "model": str(g.get("model")),
            "mean": g.mean,
            "low": g.ci_low if g.ci_low is not None else g.mean,
            "high": g.ci_high if g.ci_high is not None else g.mean,
            "n": g.n,
        }
        for g in groups
        if g.mean is not None
    ]
    if not values:
        return None
    alt = altair()
    base = alt.Chart(alt.Data(values=values)).encode(
        y=alt.Y("category:N", title=None), yOffset=alt.YOffset("model:N"), color="model:N"
    )
    bars = base.mark_bar().encode(
        x=alt.X(
            "mean:Q", title="hallucination rate", axis=alt.Axis(format="%"), scale=alt.Scale(domain=[0, 1])
        ),
        tooltip=["category:N", "model:N", alt.Tooltip("mean:Q", format=".1%"), "n:Q"],
    )
    whiskers = base.mark_rule(color="black").encode(x="low:Q", x2="high:Q")
    return Plot(
        title="INVITE: hallucination rate per category",
        caption="Share of responses the premise judge labelled as going along with the false premise "
        "(lower is better); whiskers are bootstrap intervals.",
        spec=alt.layer(bars, whiskers).properties(width=360).to_dict(validate=False),
    )


def position_lines(data: Mapping[str, Any] | None) -> Plot | None:
    """The metric by answer position (first, middle, last third), one line per model and setting."""
    cells = [c for c in (data or {}).get("cells", []) if c.get("mean") is not None]
    if not cells or data is None:
        return None
    alt = altair()
    order = ["first", "middle", "last"]
    values = [{**c, "line": f"{c['model']} · {c['setting']}"} for c in cells]
    chart = (
        alt.Chart(alt.Data(values=values))
        .mark_line(point=True)
        .encode(
            x=alt.X("position:O", sort=order, title="third of the evidence holding the answer"),
            y=_pct_axis(alt, metric_label(str(data.get("metric")))),
            color=alt.Color("line:N", title="model · setting", legend=alt.Legend(orient="bottom", columns=2)),
            tooltip=["line:N", "position:O", alt.Tooltip("mean:Q", format=".1%"), "n:Q"],
        )
        .properties(width=260, height=180)
    )
    return Plot(
        title="Answer position",
        caption="Mean by where the answer sat in the evidence (ReEval Table 14).",
        spec=chart.to_dict(validate=False),
    )


def run_plots(
    summary: Summary, joined: Joined, families: Mapping[str, Family], analyses: Mapping[str, Any]
) -> list[Plot]:
    """Every plot the run has data for, in reading order."""
    plots: list[Plot | None] = [setting_bars(summary, name) for name in summary.families()]
    plots.append(drop_plot(summary, families))
    plots.append(transfer_heatmap(analyses.get("transferability")))
    plots.append(invite_rates(joined, confidence=summary.confidence or 0.95))
    plots.append(position_lines(analyses.get("answer_position")))
    return [p for p in plots if p is not None]


__all__ = [
    "MAIN_METRICS",
    "Plot",
    "altair",
    "drop_plot",
    "invite_rates",
    "main_metric",
    "position_lines",
    "run_plots",
    "setting_bars",
    "transfer_heatmap",
]
