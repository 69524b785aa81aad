"""Aggregate scores into summaries: means with bootstrap confidence intervals, paired t-tests.

The papers report bare means over a few hundred to a few thousand test cases. With the small
runs halluforge makes on a laptop, a mean without its uncertainty invites over-reading, so
every summary row carries a percentile-bootstrap interval (Efron and Tibshirani, 1993):
resample the per-response values with replacement ``n_boot`` times, take the mean of each
resample, and read the interval off the quantiles of those means. :func:`scipy.stats.bootstrap`
does the resampling, vectorised and seeded, so the same scores always give the same interval.

:func:`paired_t_test` compares two settings or models on the same test cases (for example
adversarial vs original few-shot demos, AutoDebug Table 6) with :func:`scipy.stats.ttest_rel`;
:func:`welch_t_test` compares two independent groups (ABCD Table 1: score_T of correct vs
incorrect answers) with :func:`scipy.stats.ttest_ind`.

Grouping scores into summary rows is :func:`halluforge.metrics.layer.summarize`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from halluforge.errors import ConfigError, DataError

#: resampled values held in memory at once (rows x values) while bootstrapping
_BOOT_CELLS = 2_000_000


def check_options(n_boot: int, confidence: float) -> None:
    """Reject a bootstrap size below 1 or a confidence level outside (0, 1)."""
    if n_boot < 1:
        raise ConfigError(f"n_boot must be at least 1, got {n_boot}", hint="set score.bootstrap to e.g. 1000")
    if not 0 < confidence < 1:
        raise ConfigError(
            f"confidence must lie strictly between 0 and 1, got {confidence}",
            hint="set score.confidence to e.g. 0.95",
        )


def percentile_interval(
    samples: tuple[np.ndarray, ...],
    statistic: Callable[..., Any],
    *,
    n_boot: int,
    confidence: float,
    seed: int,
    vectorized: bool = True,
    batch: int | None = None,
) -> tuple[float, float] | None:
    """The seeded percentile-bootstrap interval of ``statistic`` over ``samples`` (scipy).

    Every interval halluforge reports goes through here: means, differences of means, kappa.
    ``None`` when scipy's interval is not finite (a degenerate resample distribution).
    """
    from scipy.stats import bootstrap

    result = bootstrap(
        samples,
        statistic,
        n_resamples=n_boot,
        confidence_level=confidence,
        method="percentile",
        vectorized=vectorized,
        batch=batch,
        rng=np.random.default_rng(seed),
    )
    low, high = float(result.confidence_interval.low), float(result.confidence_interval.high)
    return (low, high) if math.isfinite(low) and math.isfinite(high) else None


def bootstrap_ci(
    values: Sequence[float], *, n_boot: int = 1000, confidence: float = 0.95, seed: int = 0
) -> tuple[float, float, float]:
    """Mean of ``values`` and its percentile-bootstrap interval: ``(mean, low, high)``.

    Deterministic for a given ``seed``. The interval always contains the mean of a
    resample, and for values in [0, 1] it stays in [0, 1].
    """
    check_options(n_boot, confidence)
    data = np.asarray(values, dtype=np.float64)
    if data.ndim != 1 or data.size == 0:
        raise DataError("bootstrap_ci needs a non-empty flat list of numbers", field="values")
    if not np.all(np.isfinite(data)):
        raise DataError("bootstrap_ci got NaN or infinite values", field="values", hint="drop them first")
    mean = float(data.mean())
    if data.size == 1:  # nothing to resample (scipy needs two values)
        return mean, mean, mean
    interval = percentile_interval(
        (data,),
        np.mean,
        n_boot=n_boot,
        confidence=confidence,
        seed=seed,
        batch=max(1, _BOOT_CELLS // data.size),
    )
    low, high = interval if interval is not None else (mean, mean)
    # the percentile interval of a constant or near-constant sample can miss the mean by
    # float rounding; clamp so low <= mean <= high always holds
    return mean, min(float(low), mean), max(float(high), mean)


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
    diffs = np.asarray(a, dtype=np.float64) - np.asarray(b, dtype=np.float64)
    if float(np.var(diffs)) <= 1e-300:
        mean = float(diffs.mean())
        if mean == 0.0:
            return 0.0, 1.0
        return math.copysign(math.inf, mean), 0.0
    from scipy.stats import ttest_rel

    result = ttest_rel(np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64))
    return float(result.statistic), float(result.pvalue)


def welch_t_test(
    a: Sequence[float], b: Sequence[float], *, equal_var: bool = False
) -> tuple[float, float] | None:
    """Two-sample t-test of ``a`` against ``b`` (independent groups): ``(t, p)``, or None.

    Welch's test by default (no equal-variance assumption), Student's with ``equal_var=True``,
    both through :func:`scipy.stats.ttest_ind`; ``p`` is two-sided and ``t`` positive when ``a``
    is larger on average. None when a group has fewer than two values or both are constant
    (the test is undefined), so a caller prints "n/a" instead of a NaN.
    """
    if len(a) < 2 or len(b) < 2:
        return None
    left, right = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    if float(np.var(left)) + float(np.var(right)) <= 1e-300:
        return None
    from scipy.stats import ttest_ind

    result = ttest_ind(left, right, equal_var=equal_var)
    return float(result.statistic), float(result.pvalue)


__all__ = ["bootstrap_ci", "check_options", "paired_t_test", "percentile_interval", "welch_t_test"]
