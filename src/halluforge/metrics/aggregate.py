"""Aggregation: the one grouping function, the breakdowns metrics declare, and the run's summary.

:func:`aggregate` groups score rows by a key and gives each group its mean with a
percentile-bootstrap interval, counting the rows without a value by reason. Every grouping
names its join fields (:mod:`halluforge.metrics.joined`):

- :func:`summarize`: the summary rows, by (family, model, setting, metric) over the latest
  scores, as :class:`~halluforge.metrics.summary.SummaryRow` s; :func:`missing_notes` says, per
  metric, how many responses got no value and why; :func:`run_summary` is both, with the notes
  on derived metrics whose requirements the run does not meet;
- :func:`breakdown`: joined rows by any join fields. A scorer or derived metric declares the
  fields its figures are broken down by in its ``group_by`` (:func:`group_by_of`; the premise
  judge: category, model and setting, INVITE Table 2); a table of several metrics names its
  own (RECALL's tables, the transferability matrix).

Report sections read these aggregates and lay them out; they never compute a mean themselves.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from halluforge.metrics import SCORERS, Scorer
from halluforge.metrics.joined import DEFAULT_GROUP, Joined, latest_scores, score_key
from halluforge.metrics.layer import METRICS, BothVariants, Metric, unmet_notes
from halluforge.metrics.stats import bootstrap_ci, check_options
from halluforge.metrics.summary import Summary, SummaryRow
from halluforge.records import Score, stable_id


@dataclass(frozen=True)
class Aggregate:
    """Mean of one group's values with its bootstrap interval, and what had no value.

    ``by`` names the join fields of ``key`` when the group comes from :func:`breakdown`.
    """

    key: tuple[Hashable, ...]
    n: int
    mean: float | None
    ci_low: float | None
    ci_high: float | None
    n_missing: int
    missing_reasons: dict[str, int]
    by: tuple[str, ...] = ()

    def get(self, name: str) -> Hashable:
        """The group's value of the join field ``name`` (one of ``by``)."""
        return self.key[self.by.index(name)]

    @property
    def fields(self) -> dict[str, Hashable]:
        """The group's join fields by name."""
        return dict(zip(self.by, self.key, strict=True))


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


def _declared(metric: str) -> type[Scorer] | type[Metric] | None:
    base = metric.removesuffix(BothVariants.SUFFIX)
    if base in SCORERS:
        return SCORERS.get(base)
    if base in METRICS:
        return METRICS.get(base)
    return None


def group_by_of(metric: str) -> tuple[str, ...]:
    """The join fields ``metric`` declares its figures are broken down by (the summary's by default)."""
    declared = _declared(metric)
    return declared.group_by if declared is not None else DEFAULT_GROUP


def breakdown(
    joined: Joined,
    rows: Iterable[Score],
    by: Sequence[str],
    *,
    n_boot: int = 1000,
    confidence: float = 0.95,
    seed: int = 0,
    namespace: str = "bootstrap",
    seed_key: Callable[[Mapping[str, Hashable]], object] | None = None,
) -> list[Aggregate]:
    """:func:`aggregate` of ``rows`` grouped by the join fields ``by`` (e.g. ``group_by_of(metric)``).

    ``seed_key``, when given, receives each group's fields by name and returns what seeds its
    bootstrap (a table keeps the seeds it always had when its grouping moves here).
    """
    fields = tuple(by)
    seeded = None if seed_key is None else (lambda key: seed_key(dict(zip(fields, key, strict=True))))
    found = aggregate(
        rows,
        joined.key(fields),
        n_boot=n_boot,
        confidence=confidence,
        seed=seed,
        namespace=namespace,
        seed_key=seeded,
    )
    return [replace(group, by=fields) for group in found]


def direction(metric: str) -> bool | None:
    """Whether a higher value of ``metric`` is better, as its scorer or derived metric declares."""
    declared = _declared(metric)
    return declared.higher_is_better if declared is not None else None


def summarize(
    scores: Iterable[Score], *, n_boot: int = 1000, confidence: float = 0.95, seed: int = 0
) -> list[SummaryRow]:
    """Summary rows grouped by (family, model, setting, metric) over the latest scores, sorted by that key.

    Per-item scores (``item`` set, e.g. one per claim) are pooled into their metric's row.
    """
    groups = aggregate(
        latest_scores(scores), score_key(DEFAULT_GROUP), n_boot=n_boot, confidence=confidence, seed=seed
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


def run_summary(
    joined: Joined,
    families: Mapping[str, Any],
    *,
    configured: Sequence[str] = (),
    options: Mapping[str, Mapping[str, Any]] | None = None,
    n_boot: int = 1000,
    confidence: float = 0.95,
    seed: int = 0,
) -> Summary:
    """A run's summary: its rows, and notes on what was not computed and why (no counts yet).

    ``configured`` and ``options`` are ``score.metrics`` and ``score.options``; ``families`` maps
    the run's families to their specs (for the derived metrics' requirements).
    """
    return Summary(
        rows=summarize(joined.scores, n_boot=n_boot, confidence=confidence, seed=seed),
        notes=[*missing_notes(joined.scores), *unmet_notes(joined, families, configured, options)],
        confidence=confidence,
    )


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


__all__ = [
    "Aggregate",
    "aggregate",
    "breakdown",
    "direction",
    "group_by_of",
    "missing_notes",
    "run_summary",
    "summarize",
]
