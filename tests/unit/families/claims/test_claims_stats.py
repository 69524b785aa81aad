"""score_T, ABCD Table 1 (Welch's t-test), Table 3 and the AUROC on hand-computed toy data."""

from __future__ import annotations

import math

import pytest

from extra_skips import hide, needs
from halluforge.errors import ConfigError
from halluforge.families.claims.metrics import score_t
from halluforge.families.claims.report import detection_table
from halluforge.families.claims.stats import AnswerRow, auroc, detection, gt_vs_pred, table1
from halluforge.metrics.stats import welch_t_test


def _row(
    score: float | None, correct: float | None, gt: float | None = None, whole: float | None = None
) -> AnswerRow:
    return AnswerRow("case", "m", "closed_book", "toy", score, gt, correct, whole)


def test_score_t_leaves_out_the_type_claim() -> None:
    verdicts = {"c1": 0.0, "c2": 1.0, "c3": 0.0, "c4": 0.0}
    assert score_t(verdicts, ["c1", "c2", "c3", "c4"], "c1") == (pytest.approx(1 / 3), "")
    # the type claim's verdict changes nothing
    assert score_t({**verdicts, "c1": 1.0}, ["c1", "c2", "c3", "c4"], "c1")[0] == pytest.approx(1 / 3)


def test_score_t_is_undefined_for_one_claim_and_for_a_missing_verdict() -> None:
    value, reason = score_t({"c1": 1.0}, ["c1"], "c1")
    assert value is None and "undefined" in reason
    value, reason = score_t({"c1": 1.0, "c2": 1.0}, ["c1", "c2", "c3"], "c1")
    assert value is None and "missing" in reason


def test_idk_counts_as_not_true_and_stays_in_the_denominator() -> None:
    # c3 was IDK: scored 0.0 by the verdict scorer, still one of the two counted claims
    assert score_t({"c1": 1.0, "c2": 1.0, "c3": 0.0}, ["c1", "c2", "c3"], "c1")[0] == 0.5


def test_welch_t_test_matches_the_hand_computed_statistic() -> None:
    from scipy.stats import t as t_dist

    right, wrong = [1.0, 0.75, 0.5], [0.5, 0.25, 0.0, 0.25]
    # by hand: means 0.75 and 0.25; sample variances 0.0625 and 1/24; se^2 = 0.0625/3 + (1/24)/4 = 1/32
    se2 = 0.0625 / 3 + (1 / 24) / 4
    assert se2 == pytest.approx(1 / 32)
    t_hand = 0.5 / math.sqrt(se2)  # 2.828...
    df = se2**2 / ((0.0625 / 3) ** 2 / 2 + ((1 / 24) / 4) ** 2 / 3)  # Welch-Satterthwaite, 3.857...
    result = welch_t_test(right, wrong)
    assert result is not None
    assert result[0] == pytest.approx(t_hand) == pytest.approx(2 * math.sqrt(2))
    assert result[1] == pytest.approx(2 * t_dist.sf(t_hand, df))
    # Student's pooled variant differs
    student = welch_t_test(right, wrong, equal_var=True)
    assert student is not None and student[1] != pytest.approx(result[1])


def test_welch_t_test_is_none_when_undefined() -> None:
    assert welch_t_test([1.0], [0.0, 0.5]) is None
    assert welch_t_test([1.0, 1.0], [0.0, 0.0]) is None


def test_table1_on_toy_answers() -> None:
    rows = [_row(s, 1.0) for s in (1.0, 0.75, 0.5)] + [_row(s, 0.0) for s in (0.5, 0.25, 0.0, 0.25)]
    rows.append(_row(0.5, None))  # no correctness label: unjudged, out of both means
    t = table1(rows, n_boot=500, seed=1)
    assert (t.n, t.n_correct, t.n_incorrect, t.n_unjudged) == (8, 3, 4, 1)
    assert t.mean_correct == pytest.approx(0.75) and t.mean_incorrect == pytest.approx(0.25)
    assert t.diff == pytest.approx(0.5)
    assert t.t == pytest.approx(2 * math.sqrt(2))
    assert t.p_correct == pytest.approx(3 / 8) and t.p_incorrect == pytest.approx(4 / 8)
    assert t.p_unjudged == pytest.approx(1 / 8)
    assert t.diff_low is not None and t.diff_high is not None
    assert t.diff_low <= 0.5 <= t.diff_high
    assert t.ci_correct is not None and t.ci_correct[0] <= 0.75 <= t.ci_correct[1]
    # deterministic for a seed
    assert table1(rows, n_boot=500, seed=1) == t


def test_gt_vs_pred_counts_incorrect_answers_only() -> None:
    rows = [
        _row(0.5, 0.0, gt=1.0),  # GT > Pred
        _row(0.5, 0.0, gt=0.5),  # GT = Pred
        _row(1.0, 0.0, gt=0.5),  # GT < Pred
        _row(0.0, 0.0, gt=0.5),  # GT > Pred
        _row(0.0, 1.0, gt=1.0),  # correct: not counted
        _row(None, 0.0, gt=1.0),  # undefined score: not counted
    ]
    assert gt_vs_pred(rows) == (2, 1, 1)


@needs("claims")
def test_auroc_of_score_t_as_a_wrong_answer_detector() -> None:
    # detector 1 - score: wrong answers 0.8, 0.4; right ones 0.6, 0.1 -> 3 of 4 pairs ordered
    assert auroc([True, True, False, False], [0.2, 0.6, 0.4, 0.9]) == pytest.approx(0.75)
    assert auroc([True, True], [0.1, 0.2]) is None


@needs("claims")
def test_detection_compares_score_t_with_the_whole_question_verdict_on_the_same_answers() -> None:
    rows = [
        _row(1.0, 1.0, whole=1.0),
        _row(0.8, 1.0, whole=1.0),
        _row(0.2, 0.0, whole=1.0),
        _row(0.4, 0.0, whole=0.0),
        _row(0.9, 0.0, whole=None),  # no baseline verdict: left out of both
    ]
    n, ours, baseline = detection(rows)
    assert n == 4
    assert ours == pytest.approx(1.0)
    assert baseline == pytest.approx(0.75)


def test_without_scikit_learn_the_auroc_is_a_note_naming_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    """A core install still writes the claims report: the AUROC table says what to install."""
    hide(monkeypatch, "sklearn")
    with pytest.raises(ConfigError, match=r'pip install "halluforge\[claims\]"'):
        auroc([True, False], [0.2, 0.4])
    assert auroc([True, True], [0.1, 0.2]) is None  # one class: undefined, with or without the extra
    table = detection_table([_row(1.0, 1.0, whole=1.0), _row(0.2, 0.0, whole=0.0)])
    assert table.rows == [["m", "toy", "-", "-", "-"]]
    assert table.notes[-1] == (
        "AUROC not computed: the AUROC of self-evaluation needs scikit-learn "
        '(fix: pip install "halluforge[claims]")'
    )
