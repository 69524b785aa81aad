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


@dataclass(frozen=True)
class ReliabilityBin:
    """One bin of a reliability table: predicted probabilities in [low, high) against what happened."""

    low: float
    high: float
    n: int
    mean_probability: float
    observed_rate: float


def reliability(
    probabilities: Sequence[float], labels: Sequence[int], *, bins: int = 5
) -> list[ReliabilityBin]:
    """Equal-width bins of P(label 1) with the observed share of 1s: a calibrated judge's match.

    Empty bins are left out; the last bin includes 1.0.
    """
    if len(probabilities) != len(labels):
        raise ValueError("reliability needs one label per probability")
    edges = np.linspace(0.0, 1.0, bins + 1)
    p = np.asarray(probabilities, dtype=float)
    y = np.asarray(labels, dtype=float)
    out = []
    for i in range(bins):
        inside = (p >= edges[i]) & ((p < edges[i + 1]) if i < bins - 1 else (p <= edges[i + 1]))
        if inside.any():
            out.append(
                ReliabilityBin(
                    float(edges[i]), float(edges[i + 1]), int(inside.sum()), float(p[inside].mean()),
                    float(y[inside].mean()),
                )
            )  # fmt: skip
    return out


def expected_calibration_error(bins: Sequence[ReliabilityBin]) -> float:
    """The bins' |mean probability − observed rate|, weighted by their rows."""
    total = sum(b.n for b in bins)
    return sum(b.n * abs(b.mean_probability - b.observed_rate) for b in bins) / total if total else 0.0


def confusion_by_step(
    decisions: Sequence[tuple[str, str]], human: Sequence[int], judged: Sequence[int]
) -> dict[tuple[str, str], dict[str, int]]:
    """For each (step, reason) of the rule judge: how often it agreed and how it erred.

    Counts per decision: ``n``, ``agree``, ``false_1`` (judge 1, human 0) and ``false_0``
    (judge 0, human 1); ordered by the step order of the rows given.
    """
    out: dict[tuple[str, str], dict[str, int]] = {}
    for decision, h, j in zip(decisions, human, judged, strict=True):
        cell = out.setdefault(decision, {"n": 0, "agree": 0, "false_1": 0, "false_0": 0})
        cell["n"] += 1
        if h == j:
            cell["agree"] += 1
        elif j == 1:
            cell["false_1"] += 1
        else:
            cell["false_0"] += 1
    return out
