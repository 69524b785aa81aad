"""ABCD's figures over a run's ``score_t`` rows: Table 1, Table 3 and the AUROC of self-evaluation.

- :func:`table1` (ABCD Table 1): mean score_T over correct (C) and incorrect (I) answers (each
  with a percentile-bootstrap interval, :func:`halluforge.metrics.stats.bootstrap_ci`), the
  difference C - I with a percentile-bootstrap interval (:func:`scipy.stats.bootstrap`,
  independent groups), Welch's t-test (and Student's) for C - I = 0, P(C), P(I) and the share
  that could not be judged (no correctness label), each over all answers.
- :func:`gt_vs_pred` (ABCD Table 3): over incorrect answers, how often the gold answer satisfies
  more (GT > Pred), as many or fewer claims in the target's own judgement.
- :func:`auroc` (our addition): how well a self-evaluation score separates wrong answers from
  right ones, as the area under the ROC curve of ``1 - score`` as a detector of wrong answers
  (:func:`sklearn.metrics.roc_auc_score`), for score_T and for the whole-question verdict.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from halluforge.errors import ConfigError
from halluforge.families.claims import ClaimsMetadata
from halluforge.families.claims.metrics import AnswerFigures
from halluforge.metrics.joined import Joined
from halluforge.metrics.stats import bootstrap_ci, percentile_interval, welch_t_test


@dataclass(frozen=True)
class AnswerRow:
    """One target answer of a claims case with its self-evaluation figures."""

    test_case_id: str
    model: str
    setting: str
    dataset: str
    score_t: float | None
    score_t_gt: float | None
    correct: float | None
    whole: float | None


def answer_rows(joined: Joined) -> list[AnswerRow]:
    """The answers of a run's claims cases, from their ``score_t`` and ``score_t_gt`` rows."""
    gt = {(s.response_id): s.value for s in joined.of_metric("score_t_gt")}
    rows = []
    for score in joined.of_metric("score_t"):
        case = joined.case(score)
        dataset = (ClaimsMetadata.of(case).source or score.family) if case is not None else score.family
        figures = AnswerFigures.of(score)
        rows.append(
            AnswerRow(
                test_case_id=score.test_case_id,
                model=score.model,
                setting=score.setting,
                dataset=dataset,
                score_t=score.value,
                score_t_gt=gt.get(score.response_id),
                correct=figures.correct,
                whole=figures.whole,
            )
        )
    return rows


@dataclass(frozen=True)
class Table1:
    """ABCD Table 1 for one group of answers (``None`` where a figure is undefined)."""

    n: int
    n_correct: int
    n_incorrect: int
    n_unjudged: int
    n_undefined: int
    mean_correct: float | None
    mean_incorrect: float | None
    ci_correct: tuple[float, float] | None
    ci_incorrect: tuple[float, float] | None
    diff: float | None
    diff_low: float | None
    diff_high: float | None
    t: float | None
    p_welch: float | None
    p_student: float | None
    p_correct: float
    p_incorrect: float
    p_unjudged: float


def diff_interval(
    a: Sequence[float], b: Sequence[float], *, n_boot: int, confidence: float, seed: int
) -> tuple[float, float] | None:
    """Percentile-bootstrap interval of mean(a) - mean(b), the groups resampled independently."""
    if len(a) < 2 or len(b) < 2 or n_boot < 1:
        return None

    def statistic(x: Any, y: Any, axis: int) -> Any:
        return np.mean(x, axis=axis) - np.mean(y, axis=axis)

    samples = (np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64))
    return percentile_interval(samples, statistic, n_boot=n_boot, confidence=confidence, seed=seed)


def _mean(
    values: Sequence[float], n_boot: int, confidence: float, seed: int
) -> tuple[float | None, tuple[float, float] | None]:
    """A group's mean and its percentile-bootstrap interval (none for an empty group or n_boot 0)."""
    if not values:
        return None, None
    if n_boot < 1:
        return math.fsum(values) / len(values), None
    mean, low, high = bootstrap_ci(values, n_boot=n_boot, confidence=confidence, seed=seed)
    return mean, (low, high)


def table1(
    rows: Sequence[AnswerRow], *, n_boot: int = 1000, confidence: float = 0.95, seed: int = 0
) -> Table1:
    """ABCD Table 1 over ``rows`` (see the module docstring)."""
    judged = [r for r in rows if r.correct is not None]
    right = [r.score_t for r in judged if r.correct and r.correct >= 0.5 and r.score_t is not None]
    wrong = [r.score_t for r in judged if not (r.correct and r.correct >= 0.5) and r.score_t is not None]
    n_correct = sum(1 for r in judged if r.correct is not None and r.correct >= 0.5)
    n = len(rows)
    mean_c, ci_c = _mean(right, n_boot, confidence, seed)
    mean_i, ci_i = _mean(wrong, n_boot, confidence, seed)
    diff = mean_c - mean_i if mean_c is not None and mean_i is not None else None
    interval = diff_interval(right, wrong, n_boot=n_boot, confidence=confidence, seed=seed)
    welch = welch_t_test(right, wrong)
    student = welch_t_test(right, wrong, equal_var=True)
    share = (lambda k: k / n) if n else (lambda k: 0.0)
    return Table1(
        n=n,
        n_correct=n_correct,
        n_incorrect=len(judged) - n_correct,
        n_unjudged=n - len(judged),
        n_undefined=sum(1 for r in rows if r.score_t is None),
        mean_correct=mean_c,
        mean_incorrect=mean_i,
        ci_correct=ci_c,
        ci_incorrect=ci_i,
        diff=diff,
        diff_low=interval[0] if interval else None,
        diff_high=interval[1] if interval else None,
        t=welch[0] if welch else None,
        p_welch=welch[1] if welch else None,
        p_student=student[1] if student else None,
        p_correct=share(n_correct),
        p_incorrect=share(len(judged) - n_correct),
        p_unjudged=share(n - len(judged)),
    )


def gt_vs_pred(rows: Sequence[AnswerRow]) -> tuple[int, int, int]:
    """ABCD Table 3 over the incorrect answers with both scores: (GT > Pred, GT = Pred, GT < Pred)."""
    pairs = [
        (r.score_t_gt, r.score_t)
        for r in rows
        if r.correct is not None and r.correct < 0.5 and r.score_t is not None and r.score_t_gt is not None
    ]
    above = sum(1 for gt, pred in pairs if gt > pred + 1e-9)
    below = sum(1 for gt, pred in pairs if gt < pred - 1e-9)
    return above, len(pairs) - above - below, below


def auroc(wrong: Sequence[bool], scores: Sequence[float]) -> float | None:
    """AUROC of ``1 - score`` as a detector of wrong answers; None with only one class."""
    if len(set(wrong)) < 2:
        return None
    try:
        from sklearn.metrics import roc_auc_score
    except ImportError as exc:
        raise ConfigError(
            "the AUROC of self-evaluation needs scikit-learn", hint='pip install "halluforge[claims]"'
        ) from exc
    return float(roc_auc_score([int(w) for w in wrong], [1.0 - s for s in scores]))


def detection(rows: Sequence[AnswerRow]) -> tuple[int, float | None, float | None]:
    """(answers used, AUROC of score_T, AUROC of the whole-question verdict) over the same answers."""
    used = [r for r in rows if r.correct is not None and r.score_t is not None and r.whole is not None]
    wrong = [bool(r.correct is not None and r.correct < 0.5) for r in used]
    return (
        len(used),
        auroc(wrong, [r.score_t or 0.0 for r in used]),
        auroc(wrong, [r.whole or 0.0 for r in used]),
    )


__all__ = [
    "AnswerRow",
    "Table1",
    "answer_rows",
    "auroc",
    "detection",
    "diff_interval",
    "gt_vs_pred",
    "table1",
]
