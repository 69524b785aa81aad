"""Aggregate scores into summaries: means with bootstrap confidence intervals, paired t-tests.

The papers report bare means over a few hundred to a few thousand test cases. With the small
runs halluforge makes on a laptop, a mean without its uncertainty invites over-reading, so
every summary row carries a percentile-bootstrap interval (Efron and Tibshirani, 1993):
resample the per-response values with replacement ``n_boot`` times, take the mean of each
resample, and read the interval off the quantiles of those means. Resampling is vectorised
with numpy and seeded, so the same scores always give the same interval.

:func:`paired_t_test` compares two settings or models on the same test cases (for example
adversarial vs original few-shot demos, AutoDebug Table 6). It is written with :mod:`math`
(Student's t distribution through the regularised incomplete beta function) so scipy stays
an optional dependency.

A response re-scored with another model (say a new NLI model) has several scores for one
metric in the store; :func:`latest_scores` keeps the last one, and :func:`summarize` applies
it so nothing is counted twice.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Sequence

import numpy as np

from halluforge.errors import ConfigError, DataError
from halluforge.records import Score, stable_id
from halluforge.reports.summary import SummaryRow

#: resampled values held in memory at once (rows x values) while bootstrapping
_BOOT_CELLS = 2_000_000

GroupKey = tuple[str, str, str, str]


def _check_options(n_boot: int, confidence: float) -> None:
    if n_boot < 1:
        raise ConfigError(f"n_boot must be at least 1, got {n_boot}", hint="set score.bootstrap to e.g. 1000")
    if not 0 < confidence < 1:
        raise ConfigError(
            f"confidence must lie strictly between 0 and 1, got {confidence}",
            hint="set score.confidence to e.g. 0.95",
        )


def bootstrap_ci(
    values: Sequence[float], *, n_boot: int = 1000, confidence: float = 0.95, seed: int = 0
) -> tuple[float, float, float]:
    """Mean of ``values`` and its percentile-bootstrap interval: ``(mean, low, high)``.

    Deterministic for a given ``seed``. The interval always contains the mean of a
    resample, and for values in [0, 1] it stays in [0, 1].
    """
    _check_options(n_boot, confidence)
    data = np.asarray(values, dtype=np.float64)
    if data.ndim != 1 or data.size == 0:
        raise DataError("bootstrap_ci needs a non-empty flat list of numbers", field="values")
    if not np.all(np.isfinite(data)):
        raise DataError("bootstrap_ci got NaN or infinite values", field="values", hint="drop them first")
    n = int(data.size)
    mean = float(data.mean())
    rng = np.random.default_rng(seed)
    boot_means = np.empty(n_boot, dtype=np.float64)
    step = max(1, _BOOT_CELLS // n)
    for start in range(0, n_boot, step):
        rows = min(step, n_boot - start)
        idx = rng.integers(0, n, size=(rows, n))
        boot_means[start : start + rows] = data[idx].mean(axis=1)
    alpha = (1.0 - confidence) / 2.0
    low, high = np.quantile(boot_means, [alpha, 1.0 - alpha])
    # the percentile interval of a constant or near-constant sample can miss the mean by
    # float rounding; clamp so low <= mean <= high always holds
    return mean, min(float(low), mean), max(float(high), mean)


def _betacf(a: float, b: float, x: float) -> float:
    """Continued fraction of the incomplete beta function (modified Lentz evaluation)."""
    tiny = 1e-300
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c = 1.0
    d = 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 500):
        m2 = 2 * m
        for numerator in (
            m * (b - m) * x / ((qam + m2) * (a + m2)),
            -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2)),
        ):
            d = 1.0 + numerator * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + numerator / c
            c = c if abs(c) > tiny else tiny
            h *= d * c
        if abs(d * c - 1.0) < 1e-15:
            break
    return h


def regularized_beta(a: float, b: float, x: float) -> float:
    """The regularised incomplete beta function I_x(a, b) for a, b > 0 and 0 <= x <= 1."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    log_front = math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    front = math.exp(log_front)
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _betacf(a, b, x) / a
    return 1.0 - front * _betacf(b, a, 1.0 - x) / b


def t_two_sided_p(t: float, df: float) -> float:
    """Two-sided p-value of Student's t statistic with ``df`` degrees of freedom."""
    if math.isinf(t):
        return 0.0
    return min(1.0, max(0.0, regularized_beta(df / 2.0, 0.5, df / (df + t * t))))


def paired_t_test(a: Sequence[float], b: Sequence[float]) -> tuple[float, float]:
    """Paired t-test of ``a`` against ``b`` (same test cases, same order): ``(t, p)``.

    ``t`` is positive when ``a`` is larger on average; ``p`` is two-sided. When every
    difference is identical the test is degenerate: ``(0.0, 1.0)`` for no difference and
    ``(±inf, 0.0)`` for a constant non-zero one.
    """
    if len(a) != len(b):
        raise DataError(
            f"paired_t_test needs equally long lists, got {len(a)} and {len(b)}",
            field="b",
            hint="pair the values by test case before testing",
        )
    if len(a) < 2:
        raise DataError("paired_t_test needs at least two pairs", field="a")
    diffs = [float(x) - float(y) for x, y in zip(a, b, strict=True)]
    n = len(diffs)
    mean = math.fsum(diffs) / n
    var = math.fsum((d - mean) ** 2 for d in diffs) / (n - 1)
    if var <= 1e-300:
        if mean == 0.0:
            return 0.0, 1.0
        return math.copysign(math.inf, mean), 0.0
    t = mean / math.sqrt(var / n)
    return t, t_two_sided_p(t, n - 1)


def latest_scores(scores: Sequence[Score]) -> list[Score]:
    """One score per (response, metric): the last one given, in first-seen order.

    The store yields scores in insertion order, so after a re-score the newest value wins.
    """
    latest: dict[tuple[str, str], Score] = {}
    for score in scores:
        latest[(score.response_id, score.metric)] = score
    return list(latest.values())


def summarize(
    scores: Sequence[Score], *, n_boot: int = 1000, confidence: float = 0.95, seed: int = 0
) -> list[SummaryRow]:
    """Summary rows grouped by (family, model, setting, metric), sorted by that key.

    ``n_boot=0`` skips the bootstrap (rows get no interval). Scores whose value is None are
    counted in ``n_missing`` with their ``details["reason"]``.
    """
    if n_boot != 0:
        _check_options(n_boot, confidence)
    values: dict[GroupKey, list[float]] = defaultdict(list)
    missing: dict[GroupKey, Counter[str]] = defaultdict(Counter)
    for score in latest_scores(scores):
        key = (score.family, score.model, score.setting, score.metric)
        if score.value is None:
            missing[key][str(score.details.get("reason", "not computed"))] += 1
        else:
            values[key].append(float(score.value))
    rows = []
    for key in sorted(set(values) | set(missing)):
        family, model, setting, metric = key
        found = values.get(key, [])
        reasons = missing.get(key, Counter())
        mean = low = high = None
        if found:
            if n_boot:
                group_seed = int(stable_id("bootstrap", seed, key, length=8), 16)
                mean, low, high = bootstrap_ci(found, n_boot=n_boot, confidence=confidence, seed=group_seed)
            else:
                mean = math.fsum(found) / len(found)
        rows.append(
            SummaryRow(
                family=family,
                model=model,
                setting=setting,
                metric=metric,
                n=len(found),
                mean=mean,
                ci_low=low,
                ci_high=high,
                n_missing=sum(reasons.values()),
                missing_reasons=dict(reasons.most_common()),
            )
        )
    return rows


__all__ = [
    "bootstrap_ci",
    "latest_scores",
    "paired_t_test",
    "regularized_beta",
    "summarize",
    "t_two_sided_p",
]
