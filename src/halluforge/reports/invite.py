"""INVITE Table 2 as Markdown: hallucination rate per model, and per category, with bootstrap CIs.

INVITE reports one hallucination rate per model (the share of responses labelled as going along
with the false premise; e.g. GPT-3.5-Turbo 17%, GPT-J-6B 82%). Here the rate is the mean of the
``premise_judge`` scores, with a percentile-bootstrap interval from
:func:`halluforge.metrics.stats.bootstrap_ci`. The second table splits it by category: the
predicate or date kind of the test case (``details["category"]``, recorded by the scorer from
the test case), falling back to the family (``false_premise`` / ``invalid_date``). Responses the
judge could not label are counted in a separate column, never dropped silently.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from halluforge.metrics.stats import bootstrap_ci, latest_scores
from halluforge.records import Score, stable_id

METRIC = "premise_judge"


def _cell(values: Sequence[float], *, n_boot: int, confidence: float, seed: int, key: object) -> str:
    if not values:
        return "–"
    group_seed = int(stable_id("invite", seed, key, length=8), 16)
    mean, low, high = bootstrap_ci(values, n_boot=n_boot, confidence=confidence, seed=group_seed)
    return f"{100 * mean:.1f} [{100 * low:.1f}, {100 * high:.1f}]"


def _model_label(score: Score, settings: set[str]) -> str:
    return score.model if len(settings) <= 1 else f"{score.model} ({score.setting})"


def category_of(score: Score) -> str:
    """The category a score is reported under: its recorded category, else its family."""
    return str(score.details.get("category") or score.family)


def render_invite_table(
    scores: Sequence[Score],
    *,
    metric: str = METRIC,
    n_boot: int = 1000,
    confidence: float = 0.95,
    seed: int = 0,
) -> str:
    """Markdown tables shaped like INVITE Table 2 from ``premise_judge`` scores (percentages)."""
    chosen = [s for s in latest_scores(scores) if s.metric == metric]
    if not chosen:
        return f"_No {metric} scores: run the false_premise or invalid_date family with this scorer._\n"
    settings = {s.setting for s in chosen}
    per_model: dict[str, list[float]] = defaultdict(list)
    missing: dict[str, int] = defaultdict(int)
    per_category: dict[tuple[str, str], list[float]] = defaultdict(list)
    for score in chosen:
        model = _model_label(score, settings)
        if score.value is None:
            missing[model] += 1
            per_model.setdefault(model, [])
            continue
        per_model[model].append(float(score.value))
        per_category[(category_of(score), model)].append(float(score.value))
    models = sorted(per_model)
    level = f"{100 * confidence:g}%"
    lines = [
        f"**Hallucination rate (%) per model** ({metric}; {level} bootstrap CI)",
        "",
        "| model | n | hallucination rate | not judged |",
        "|---|---:|---:|---:|",
    ]
    for model in models:
        cell = _cell(per_model[model], n_boot=n_boot, confidence=confidence, seed=seed, key=model)
        lines.append(f"| {model} | {len(per_model[model])} | {cell} | {missing.get(model, 0)} |")
    categories = sorted({category for category, _ in per_category})
    lines += [
        "",
        f"**Hallucination rate (%) per category** ({level} bootstrap CI)",
        "",
        "| category | " + " | ".join(models) + " |",
        "|---|" + "---:|" * len(models),
    ]
    for category in categories:
        cells = []
        for model in models:
            values = per_category.get((category, model), [])
            cell = _cell(values, n_boot=n_boot, confidence=confidence, seed=seed, key=(category, model))
            cells.append(f"{cell} (n={len(values)})" if values else cell)
        lines.append(f"| {category} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


__all__ = ["METRIC", "category_of", "render_invite_table"]
