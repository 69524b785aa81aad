"""How well a premise judge agrees with human labels, measured honestly.

- :func:`agreement` gives agreement, Cohen's kappa (scikit-learn's ``cohen_kappa_score``), the
  judge's rate and the human rate, with percentile-bootstrap intervals on the rates
  (:func:`halluforge.metrics.stats.bootstrap_ci`).
- :func:`leave_one_model_out` is the protocol for anything fitted or tuned on labels: every
  model's rows are judged by a judge fitted on the *other* models' rows only, so a figure never
  comes from rows the judge saw. :func:`cross_validate` is the k-fold figure within the pooled rows
  (stratified; rows of one model can sit on both sides, so it is the weaker of the two).

A hand-written judge (the rule mode) is not fitted, so its per-model figures are the same with or
without the protocol; whether they are in-sample depends on whether its author read those labels
while writing it, which only the author can say (the docs say it for the INVITE dev labels).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from halluforge.errors import ConfigError
from halluforge.metrics.stats import bootstrap_ci

#: fit(features, labels) -> predict(features) -> labels
FitFn = Callable[[np.ndarray, Sequence[int]], Callable[[np.ndarray], Sequence[Any]]]


@dataclass(frozen=True)
class Agreement:
    """Judge against human labels over one group of rows."""

    n: int
    agreement: float
    kappa: float
    rate: float
    rate_low: float
    rate_high: float
    human_rate: float
    human_low: float
    human_high: float

    @property
    def rate_gap(self) -> float:
        """Judge rate minus human rate (positive: the judge over-counts hallucinations)."""
        return self.rate - self.human_rate


def kappa(human: Sequence[int], judged: Sequence[int]) -> float:
    """Cohen's kappa (scikit-learn); 1.0 when both label lists are the same single class."""
    if len(set(human)) == 1 and list(human) == list(judged):
        return 1.0  # undefined (0/0) for one class; identical labels are full agreement
    value = float(_sklearn_metrics().cohen_kappa_score(list(human), list(judged)))
    return 0.0 if math.isnan(value) else value


def _sklearn_metrics() -> Any:
    try:
        from sklearn import metrics
    except ImportError as exc:  # pragma: no cover - depends on the install
        raise ConfigError(
            "agreement and Cohen's kappa need scikit-learn", hint='pip install "halluforge[judge]"'
        ) from exc
    return metrics


def agreement_rate(human: Sequence[int], judged: Sequence[int]) -> float:
    """Share of rows where the judge gives the human label (scikit-learn's ``accuracy_score``)."""
    return float(_sklearn_metrics().accuracy_score(list(human), list(judged)))


def agreement(human: Sequence[int], judged: Sequence[int], *, n_boot: int = 1000, seed: int = 0) -> Agreement:
    """Agreement, kappa and both rates with bootstrap intervals (equal-length, non-empty lists)."""
    if len(human) != len(judged) or not human:
        raise ValueError("agreement needs two non-empty label lists of equal length")
    agree = agreement_rate(human, judged)
    rate, low, high = bootstrap_ci([float(v) for v in judged], n_boot=n_boot, seed=seed)
    human_rate, human_low, human_high = bootstrap_ci([float(v) for v in human], n_boot=n_boot, seed=seed)
    return Agreement(
        len(human), agree, kappa(human, judged), rate, low, high, human_rate, human_low, human_high
    )


def leave_one_model_out(
    features: np.ndarray, labels: Sequence[int], models: Sequence[str], fit: FitFn
) -> dict[str, list[Any]]:
    """For each model, its rows' labels from a judge fitted on every other model's rows.

    Needs rows of at least two models; a fold whose training rows hold one class only raises
    (the fit function's error), since a judge cannot be fitted on it.
    """
    names = sorted(set(models))
    if len(names) < 2:
        raise ValueError("leave-one-model-out needs labelled rows of at least two models")
    y = np.asarray(labels)
    out: dict[str, list[Any]] = {}
    for held in names:
        test = np.asarray([m == held for m in models])
        predict = fit(features[~test], [int(v) for v in y[~test]])
        out[held] = list(predict(features[test]))
    return out


def cross_validate(
    features: np.ndarray, labels: Sequence[int], fit: FitFn, *, folds: int = 5, seed: int = 0
) -> list[int]:
    """Stratified k-fold: each row's label from a judge fitted on the other folds."""
    from sklearn.model_selection import StratifiedKFold

    y = np.asarray(labels)
    folds = max(2, min(folds, int(np.bincount(y).min())))
    out = np.zeros(len(y), dtype=int)
    for train_idx, test_idx in StratifiedKFold(folds, shuffle=True, random_state=seed).split(features, y):
        predict = fit(features[train_idx], [int(v) for v in y[train_idx]])
        out[test_idx] = np.asarray(predict(features[test_idx]))
    return [int(v) for v in out]


def format_agreement(prefix: str, figures: Agreement) -> str:
    """One line: n, rates with intervals, agreement and kappa."""
    return (
        f"{prefix} n={figures.n} rate={figures.rate:.3f} [{figures.rate_low:.3f}, {figures.rate_high:.3f}]"
        f" human_rate={figures.human_rate:.3f} [{figures.human_low:.3f}, {figures.human_high:.3f}]"
        f" gap={figures.rate_gap:+.3f} agreement={figures.agreement:.3f} kappa={figures.kappa:.3f}"
    )
