from __future__ import annotations

import pytest

from extra_skips import needs
from halluforge.metrics.joined import Joined
from halluforge.records import Annotation, Response, Score, TestCase
from halluforge.reports.agreement import agreement_section, kappa, kappa_interval, response_agreement
from halluforge.reports.cases import latest_labels


@needs("report", "sklearn")  # kappa is scikit-learn's
def test_kappa_matches_the_textbook_value() -> None:
    # po = 0.75, pe = 0.5 * 0.25 + 0.5 * 0.75 = 0.5 -> kappa = 0.5
    assert kappa([1, 1, 0, 0], [1, 0, 0, 0]) == pytest.approx(0.5)
    assert kappa([1, 1, 1], [1, 1, 1]) == 1.0
    assert kappa([1, 1, 1], [0, 0, 0]) == 0.0


@needs("report", "sklearn")  # kappa is scikit-learn's
def test_kappa_interval_brackets_kappa_and_is_seeded() -> None:
    a = [1, 1, 0, 0, 1, 0, 1, 0, 1, 1, 0, 0] * 3
    b = [1, 0, 0, 0, 1, 0, 1, 1, 1, 1, 0, 0] * 3
    interval = kappa_interval(a, b, n_boot=300, seed=3)
    assert interval is not None
    assert interval[0] <= kappa(a, b) <= interval[1]
    assert interval == kappa_interval(a, b, n_boot=300, seed=3)
    assert kappa_interval([1], [1]) is None


def _joined_with_labels() -> tuple[Joined, list[Annotation]]:
    cases = [TestCase(id=f"c{i}", family="false_premise", question=f"q{i}") for i in range(4)]
    responses = [
        Response(id=f"r{i}", test_case_id=f"c{i}", model="m", setting="closed_book") for i in range(4)
    ]
    # premise_judge: 1 = went along with the false premise (a hallucination; lower is better)
    judge = [1.0, 1.0, 0.0, 0.0]
    scores = [
        Score(
            id=f"s{i}",
            response_id=f"r{i}",
            test_case_id=f"c{i}",
            model="m",
            setting="closed_book",
            family="false_premise",
            metric="premise_judge",
            value=v,
        )
        for i, v in enumerate(judge)
    ]
    humans = ["hallucinated", "faithful", "faithful", "unsure"]
    notes = [
        Annotation.build("response", f"r{i}", f"c{i}", label, who="ann", when=f"2026-01-01T00:00:0{i}")
        for i, label in enumerate(humans)
    ]
    notes.append(Annotation.build("test_case", "c0", "c0", "invalid", who="ann", when="2026-01-01T00:00:00"))
    notes.append(Annotation.build("test_case", "c0", "c0", "valid", who="ann", when="2026-01-02T00:00:00"))
    return Joined.build(cases, responses, scores), notes


@needs("report", "sklearn")  # kappa is scikit-learn's
def test_agreement_reads_each_metric_in_its_own_direction() -> None:
    joined, notes = _joined_with_labels()
    rows = response_agreement(joined, latest_labels(notes), {"premise_judge": False}, n_boot=50)
    (row,) = rows
    assert row["n"] == 3 and row["unsure"] == 1
    assert row["human_rate"] == pytest.approx(1 / 3) and row["metric_rate"] == pytest.approx(2 / 3)
    assert row["agreement"] == pytest.approx(2 / 3)
    flipped = response_agreement(joined, latest_labels(notes), {"premise_judge": True}, n_boot=50)
    assert flipped[0]["agreement"] == pytest.approx(1 / 3)


@needs("report", "sklearn")  # kappa is scikit-learn's
def test_section_counts_the_newest_case_label_only() -> None:
    joined, notes = _joined_with_labels()
    section = agreement_section(joined, notes, {"premise_judge": False}, n_boot=50)
    assert section is not None
    cases = section.data["annotations"]["test_cases"]
    assert cases == [
        {"family": "false_premise", "labelled": 1, "valid": 1, "invalid": 0, "unsure": 0, "share_valid": 1.0,
         "ci": (1.0, 1.0), "agreement_with_checks": 1.0}
    ]  # fmt: skip
    assert agreement_section(joined, [], {}) is None


def test_a_response_cannot_be_labelled_valid() -> None:
    with pytest.raises(ValueError, match="response label"):
        Annotation.build("response", "r", "c", "valid", who="a", when="t")
