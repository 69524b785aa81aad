"""Aggregation: the one grouping function, and the run's summary rows built with it.

:func:`aggregate` groups score rows by a key and gives each group its mean with a
percentile-bootstrap interval, counting the rows without a value by reason.
:func:`summarize` is that grouping by (family, model, setting, metric) over the latest scores,
as :class:`~halluforge.metrics.summary.SummaryRow` s; :func:`missing_notes` says, per metric,
how many responses got no value and why. Report sections read these rows (and group joined
rows with :func:`aggregate` for their own tables); they never compute a mean themselves.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass

from halluforge.metrics import SCORERS
from halluforge.metrics.joined import latest_scores
from halluforge.metrics.layer import METRICS, BothVariants
from halluforge.metrics.stats import bootstrap_ci, check_options
from halluforge.metrics.summary import SummaryRow
from halluforge.records import Score, stable_id


@dataclass(frozen=True)
class Aggregate:
    """Mean of one group's values with its bootstrap interval, and what had no value."""

    key: tuple[Hashable, ...]
    n: int
    mean: float | None
    ci_low: float | None
    ci_high: float | None
    n_missing: int
    missing_reasons: dict[str, int]


def aggregate(
    rows: Iterable[Score],
    key: Callable[[Score], tuple[Hashable, ...]],
    *,
    n_boot: int = 1000,
    confidence: float = 0.95,
    seed: int = 0,
    namespace: str = "bootstrap",
    seed_key: Callable[[tuple[Hashable, ...]], object] | None = None,
) -> list[Aggregate]:
    """Group rows by ``key`` and give each group's mean and percentile-bootstrap interval.

    ``n_boot=0`` skips the bootstrap (no interval). Each group's resampling is seeded with a
    hash of (``namespace``, ``seed``, the group key or ``seed_key(key)``), and its values are
    resampled in the order of their response ids, not the order they were stored in (which
    follows when each answer came back), so the same rows always give the same interval. Rows
    whose value is None are counted with their reason.
    """
    if n_boot != 0:
        check_options(n_boot, confidence)
    values: dict[tuple[Hashable, ...], list[tuple[str, str, float]]] = defaultdict(list)
    missing: dict[tuple[Hashable, ...], Counter[str]] = defaultdict(Counter)
    for score in rows:
        group = key(score)
        if score.value is None:
            missing[group][score.reason or "not computed"] += 1
        else:
            values[group].append((score.response_id, score.item or "", float(score.value)))
    out = []
    for group in sorted(set(values) | set(missing), key=lambda k: tuple(map(str, k))):
        found = [value for _, _, value in sorted(values.get(group, []))]
        reasons = missing.get(group, Counter())
        mean = low = high = None
        if found:
            if n_boot:
                label = seed_key(group) if seed_key is not None else group
                group_seed = int(stable_id(namespace, seed, label, length=8), 16)
                mean, low, high = bootstrap_ci(found, n_boot=n_boot, confidence=confidence, seed=group_seed)
            else:
                mean = math.fsum(found) / len(found)
        out.append(
            Aggregate(group, len(found), mean, low, high, sum(reasons.values()), dict(reasons.most_common()))
        )
    return out


def direction(metric: str) -> bool | None:
    """Whether a higher value of ``metric`` is better, as its scorer or derived metric declares."""
    base = metric.removesuffix(BothVariants.SUFFIX)
    if base in SCORERS:
        return SCORERS.get(base).higher_is_better
    if base in METRICS:
        return METRICS.get(base).higher_is_better
    return None


def summarize(
    scores: Iterable[Score], *, n_boot: int = 1000, confidence: float = 0.95, seed: int = 0
) -> list[SummaryRow]:
    """Summary rows grouped by (family, model, setting, metric) over the latest scores, sorted by that key.

    Per-item scores (``item`` set, e.g. one per claim) are pooled into their metric's row.
    """
    groups = aggregate(
        latest_scores(scores),
        lambda s: (s.family, s.model, s.setting, s.metric),
        n_boot=n_boot,
        confidence=confidence,
        seed=seed,
    )
    return [
        SummaryRow(
            family=str(g.key[0]),
            model=str(g.key[1]),
            setting=str(g.key[2]),
            metric=str(g.key[3]),
            n=g.n,
            mean=g.mean,
            ci_low=g.ci_low,
            ci_high=g.ci_high,
            n_missing=g.n_missing,
            missing_reasons=g.missing_reasons,
            higher_is_better=direction(str(g.key[3])),
        )
        for g in groups
    ]


def missing_notes(scores: Iterable[Score]) -> list[str]:
    """One line per metric that was not computed for some responses, with the reason."""
    reasons: dict[str, Counter[str]] = defaultdict(Counter)
    for score in scores:
        if score.value is None:
            reasons[score.metric][score.reason or "not computed"] += 1
    return [
        f"{metric}: {n} not computed - {reason}"
        for metric, counter in sorted(reasons.items())
        for reason, n in counter.most_common()
    ]


__all__ = ["Aggregate", "aggregate", "direction", "missing_notes", "summarize"]
