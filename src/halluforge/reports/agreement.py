"""Human labels against automatic scores: agreement, Cohen's kappa with a bootstrap interval.

People label responses (hallucinated / faithful / unsure) and forged test cases (valid /
invalid / unsure) in ``halluforge view``; the label in force is the newest per target
(:func:`halluforge.reports.cases.latest_labels`). This module turns them into a report
section:

- per family and metric that scored the labelled responses: how many (human, automatic)
  pairs, how often each side says "hallucinated", raw agreement and Cohen's kappa
  (:func:`sklearn.metrics.cohen_kappa_score`) with a percentile-bootstrap interval over the
  pairs (:func:`scipy.stats.bootstrap`). A score reads as "hallucinated" when it is on the
  wrong side of 0.5 for its metric's direction (``higher_is_better``: EM 0 is a
  hallucination, ``premise_judge`` 1 is one). "unsure" labels are counted, never paired;
- per family, the share of labelled forged test cases people judged valid (ReEval's human
  check), with its interval, and their agreement with the automatic validity checks.

As in INVITE, agreement measures the automatic judge against people; it is in-sample only
when the judge's rules were written while reading those same labels, and the report cannot
know that: say so where it matters.
"""

from __future__ import annotations

import warnings
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from halluforge.errors import ConfigError
from halluforge.metrics.joined import Joined
from halluforge.metrics.stats import bootstrap_ci, percentile_interval
from halluforge.records import Annotation
from halluforge.reports.cases import latest_labels
from halluforge.reports.model import Paragraph, Section, Table, aligned
from halluforge.reports.sections import ReportInputs
from halluforge.reports.tables import metric_label

TITLE = "Human labels"
HALLUCINATED, FAITHFUL = 1, 0


def kappa(a: Sequence[int], b: Sequence[int]) -> float:
    """Cohen's kappa of two labelings (scikit-learn); 1.0 when both are one and the same constant."""
    if len(set(a)) == 1 and set(a) == set(b):
        return 1.0
    try:
        from sklearn.metrics import cohen_kappa_score
    except ImportError as exc:
        raise ConfigError(
            "agreement figures need scikit-learn", hint="pip install 'halluforge[report]'"
        ) from exc
    return float(cohen_kappa_score(list(a), list(b)))


def kappa_interval(
    a: Sequence[int], b: Sequence[int], *, n_boot: int = 1000, confidence: float = 0.95, seed: int = 0
) -> tuple[float, float] | None:
    """Percentile-bootstrap interval of kappa over resampled pairs; None for fewer than two pairs."""
    if len(a) < 2 or n_boot < 1:
        return None
    left, right = np.asarray(a), np.asarray(b)

    def statistic(index: np.ndarray) -> float:
        picked = index.astype(int)
        return kappa(left[picked].tolist(), right[picked].tolist())

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # a degenerate resample distribution is still an answer
        return percentile_interval(
            (np.arange(len(a)),), statistic, n_boot=n_boot, confidence=confidence, seed=seed, vectorized=False
        )


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.1f}"


def _kappa_cell(value: float, interval: tuple[float, float] | None) -> str:
    if interval is None:
        return f"{value:.2f}"
    return f"{value:.2f} [{interval[0]:.2f}, {interval[1]:.2f}]"


def response_agreement(
    joined: Joined,
    labels: Mapping[tuple[str, str], Annotation],
    directions: Mapping[str, bool | None],
    *,
    n_boot: int = 1000,
    confidence: float = 0.95,
    seed: int = 0,
) -> list[dict[str, Any]]:
    """One dict per (family, metric): pairs, rates, raw agreement, kappa and its interval."""
    pairs: dict[tuple[str, str], list[tuple[int, int]]] = {}
    unsure: Counter[tuple[str, str]] = Counter()
    for score in joined.scores:
        note = labels.get(("response", score.response_id))
        if note is None or score.value is None or score.item is not None:
            continue
        key = (score.family, score.metric)
        if note.label == "unsure":
            unsure[key] += 1
            continue
        human = HALLUCINATED if note.label == "hallucinated" else FAITHFUL
        higher_is_better = directions.get(score.metric)
        high = score.value >= 0.5
        auto = HALLUCINATED if (high if higher_is_better is False else not high) else FAITHFUL
        pairs.setdefault(key, []).append((human, auto))
    out = []
    for (family, metric), found in sorted(pairs.items()):
        humans = [h for h, _ in found]
        autos = [a for _, a in found]
        out.append(
            {
                "family": family,
                "metric": metric,
                "n": len(found),
                "unsure": unsure[(family, metric)],
                "human_rate": sum(humans) / len(humans),
                "metric_rate": sum(autos) / len(autos),
                "agreement": sum(h == a for h, a in found) / len(found),
                "kappa": kappa(humans, autos),
                "kappa_ci": kappa_interval(humans, autos, n_boot=n_boot, confidence=confidence, seed=seed),
            }
        )
    return out


def case_validity(
    joined: Joined,
    labels: Mapping[tuple[str, str], Annotation],
    *,
    n_boot: int = 1000,
    confidence: float = 0.95,
    seed: int = 0,
) -> list[dict[str, Any]]:
    """Per family: labelled forged cases, the share people judged valid, agreement with the checks."""
    by_family: dict[str, list[tuple[str, bool]]] = {}
    for (target, target_id), note in labels.items():
        case = joined.cases.get(target_id)
        if target != "test_case" or case is None:
            continue
        by_family.setdefault(case.family, []).append((note.label, case.valid))
    out = []
    for family, found in sorted(by_family.items()):
        sure = [(label == "valid", auto) for label, auto in found if label != "unsure"]
        row: dict[str, Any] = {
            "family": family,
            "labelled": len(found),
            "valid": sum(1 for label, _ in found if label == "valid"),
            "invalid": sum(1 for label, _ in found if label == "invalid"),
            "unsure": sum(1 for label, _ in found if label == "unsure"),
            "share_valid": None,
            "ci": None,
            "agreement_with_checks": None,
        }
        if sure:
            values = [1.0 if human else 0.0 for human, _ in sure]
            mean, low, high = bootstrap_ci(values, n_boot=max(n_boot, 1), confidence=confidence, seed=seed)
            row.update(share_valid=mean, ci=(low, high) if n_boot else None)
            row["agreement_with_checks"] = sum(human == auto for human, auto in sure) / len(sure)
        out.append(row)
    return out


def agreement_section(
    joined: Joined,
    annotations: Iterable[Annotation],
    directions: Mapping[str, bool | None],
    *,
    n_boot: int = 1000,
    confidence: float = 0.95,
    seed: int = 0,
) -> Section | None:
    """The "Human labels" section (None when nobody labelled anything)."""
    labels = latest_labels(annotations)
    if not labels:
        return None
    section = Section(title=TITLE)
    level = f"{100 * confidence:g}%"
    responses = response_agreement(
        joined, labels, directions, n_boot=n_boot, confidence=confidence, seed=seed
    )
    if responses:
        table = Table(
            title="Agreement of human labels with automatic scores",
            columns=[
                "Family",
                "Metric",
                "Pairs",
                "Human halluc. %",
                "Metric halluc. %",
                "Agreement %",
                "Kappa",
            ],
            align=aligned(2, 5),
            caption=f"Kappa is Cohen's kappa with its {level} bootstrap interval over the labelled "
            "responses. A score counts as a hallucination on the wrong side of 0.5 for its "
            "metric's direction.",
        )
        for row in responses:
            table.rows.append(
                [
                    row["family"],
                    metric_label(row["metric"]),
                    str(row["n"]),
                    _pct(row["human_rate"]),
                    _pct(row["metric_rate"]),
                    _pct(row["agreement"]),
                    _kappa_cell(row["kappa"], row["kappa_ci"]),
                ]
            )
        unsure = sum(row["unsure"] for row in responses)
        if unsure:
            table.notes.append(f"{unsure} (response, metric) pairs labelled unsure are left out.")
        section.blocks.append(table)
    cases = case_validity(joined, labels, n_boot=n_boot, confidence=confidence, seed=seed)
    if cases:
        table = Table(
            title="Forged test cases people judged valid",
            columns=["Family", "Labelled", "Valid", "Invalid", "Unsure", "Valid %", "Agrees with checks %"],
            align=aligned(1, 6),
            caption=f"Valid % leaves unsure labels out; [low, high] is its {level} bootstrap interval.",
        )
        for row in cases:
            share = _pct(row["share_valid"])
            if row["ci"] is not None:
                share += f" [{_pct(row['ci'][0])}, {_pct(row['ci'][1])}]"
            table.rows.append(
                [
                    row["family"],
                    str(row["labelled"]),
                    str(row["valid"]),
                    str(row["invalid"]),
                    str(row["unsure"]),
                    share,
                    _pct(row["agreement_with_checks"]),
                ]
            )
        section.blocks.append(table)
    if not section.blocks:
        section.blocks.append(
            Paragraph(text="The labelled responses have no automatic scores to compare with.")
        )
    people = sorted({note.who for note in labels.values()})
    section.blocks.append(
        Paragraph(text=f"{len(labels)} labels in force from {len(people)} annotator(s): {', '.join(people)}.")
    )
    section.data["annotations"] = {"responses": responses, "test_cases": cases, "annotators": people}
    return section


def labels_section(inputs: ReportInputs) -> Section | None:
    """The "Human labels" section of a run with labels (None without), or why it has no figures."""
    if not inputs.annotations:
        return None
    directions = {row.metric: row.higher_is_better for row in inputs.summary.rows}
    try:
        section = agreement_section(
            inputs.joined,
            inputs.annotations,
            directions,
            n_boot=inputs.n_boot,
            confidence=inputs.confidence,
            seed=inputs.seed,
        )
    except ConfigError as exc:
        return Section(title=TITLE, blocks=[Paragraph(text=f"Agreement not computed: {exc}")])
    if section is None:
        return Section(title=TITLE, blocks=[Paragraph(text="No labels in force.")])
    return section


__all__ = [
    "TITLE",
    "agreement_section",
    "case_validity",
    "kappa",
    "kappa_interval",
    "labels_section",
    "response_agreement",
]
