"""Bootstrap intervals, the paired t-test and grouping scores into summary rows."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from halluforge.errors import ConfigError, DataError
from halluforge.metrics.aggregate import summarize
from halluforge.metrics.joined import latest_scores
from halluforge.metrics.stats import bootstrap_ci, paired_t_test
from halluforge.records import Score


def test_bootstrap_contains_mean_and_is_deterministic() -> None:
    values = [1.0, 0.0, 1.0, 1.0, 0.0, 1.0, 0.0, 1.0]
    mean, low, high = bootstrap_ci(values, n_boot=500, seed=3)
    assert mean == pytest.approx(5 / 8)
    assert 0.0 <= low < mean < high <= 1.0
    assert bootstrap_ci(values, n_boot=500, seed=3) == (mean, low, high)
    # the seed matters (continuous values, so quantiles do not land on the same grid point)
    floats = [0.13, 0.92, 0.47, 0.05, 0.66, 0.31, 0.88, 0.24]
    assert bootstrap_ci(floats, n_boot=500, seed=3) == bootstrap_ci(floats, n_boot=500, seed=3)
    assert bootstrap_ci(floats, n_boot=500, seed=3) != bootstrap_ci(floats, n_boot=500, seed=4)


def test_bootstrap_narrows_with_more_values() -> None:
    rng = random.Random(0)
    small = [float(rng.random() < 0.5) for _ in range(20)]
    large = [float(rng.random() < 0.5) for _ in range(2000)]
    _, lo_s, hi_s = bootstrap_ci(small, seed=1)
    _, lo_l, hi_l = bootstrap_ci(large, seed=1)
    assert hi_l - lo_l < (hi_s - lo_s) / 4  # width shrinks roughly as 1/sqrt(n): 10x fewer -> ~3.2x


def test_bootstrap_width_matches_normal_approximation() -> None:
    # 1000 values with mean 0.3: standard error sqrt(.3*.7/1000) = 0.0145, 95% half-width ~ 0.0284
    values = [1.0] * 300 + [0.0] * 700
    mean, low, high = bootstrap_ci(values, n_boot=2000, seed=0)
    assert mean == pytest.approx(0.3)
    assert (high - low) / 2 == pytest.approx(1.96 * math.sqrt(0.3 * 0.7 / 1000), rel=0.1)


def test_bootstrap_constant_and_single_values() -> None:
    assert bootstrap_ci([1.0]) == (1.0, 1.0, 1.0)
    mean, low, high = bootstrap_ci([0.1] * 7)
    assert low <= mean <= high and high - low < 1e-12


def test_bootstrap_rejects_bad_input() -> None:
    with pytest.raises(DataError, match="non-empty"):
        bootstrap_ci([])
    with pytest.raises(DataError, match="NaN"):
        bootstrap_ci([1.0, math.nan])
    with pytest.raises(ConfigError, match="confidence"):
        bootstrap_ci([1.0], confidence=1.5)
    with pytest.raises(ConfigError, match="n_boot"):
        bootstrap_ci([1.0], n_boot=0)


def test_paired_t_p_values_closed_forms() -> None:
    # the p-value closed forms the hand-written t distribution was checked against, now through
    # paired_t_test: df = 1 is the Cauchy distribution, P(|T| > 1) = 0.5
    t, p = paired_t_test([1.0, 3.0], [0.0, 0.0])  # diffs 1, 3: mean 2, sd sqrt(2), t = 2 / 1 = 2
    assert t == pytest.approx(2.0)
    assert p == pytest.approx(1 - 2 * math.atan(2.0) / math.pi)
    t, p = paired_t_test([0.0, 2.0], [0.0, 0.0])  # diffs 0, 2: mean 1, se 1, t = 1
    assert t == pytest.approx(1.0) and p == pytest.approx(0.5)
    # df = 2: p = 1 - t / sqrt(2 + t^2); diffs 0, 1, 2: mean 1, se 1 / sqrt(3), t = sqrt(3)
    t, p = paired_t_test([0.0, 1.0, 2.0], [0.0, 0.0, 0.0])
    assert t == pytest.approx(math.sqrt(3))
    assert p == pytest.approx(1 - math.sqrt(3) / math.sqrt(5))
    # a zero mean difference with spread: t = 0, p = 1
    t, p = paired_t_test([1.0, 0.0, 2.0], [0.0, 1.0, 2.0])
    assert t == pytest.approx(0.0) and p == pytest.approx(1.0)


def test_paired_t_test_by_hand() -> None:
    a = [3.0, 5.0, 4.0, 6.0]
    b = [1.0, 2.0, 3.0, 2.0]
    # diffs 2, 3, 1, 4: mean 2.5, sample variance 5/3, t = 2.5 / sqrt((5/3)/4) = 3.873
    t, p = paired_t_test(a, b)
    assert t == pytest.approx(2.5 / math.sqrt((5 / 3) / 4))
    assert 0.02 < p < 0.04  # two-sided, df = 3 (tables: t_0.975,3 = 3.182, t_0.99,3 = 4.541)
    t_rev, p_rev = paired_t_test(b, a)
    assert t_rev == pytest.approx(-t) and p_rev == pytest.approx(p)


def test_paired_t_test_matches_scipy_when_installed() -> None:
    scipy_stats = pytest.importorskip("scipy.stats")
    rng = np.random.default_rng(7)
    for n in (3, 12, 80):
        a = rng.normal(size=n)
        b = a + rng.normal(0.2, 1.0, size=n)
        t, p = paired_t_test(list(a), list(b))
        ref = scipy_stats.ttest_rel(a, b)
        assert t == pytest.approx(float(ref.statistic), rel=1e-9)
        assert p == pytest.approx(float(ref.pvalue), rel=1e-7)


def test_paired_t_test_degenerate_and_bad_input() -> None:
    assert paired_t_test([1.0, 1.0], [1.0, 1.0]) == (0.0, 1.0)
    t, p = paired_t_test([2.0, 3.0], [1.0, 2.0])
    assert t == math.inf and p == 0.0
    with pytest.raises(DataError, match="equally long"):
        paired_t_test([1.0, 2.0], [1.0])
    with pytest.raises(DataError, match="two pairs"):
        paired_t_test([1.0], [1.0])


def _score(
    response: str,
    value: float | None,
    *,
    model: str = "m1",
    setting: str = "open_book",
    metric: str = "em",
    family: str = "answer_swap",
    reason: str | None = None,
) -> Score:
    return Score(
        id=f"{response}-{metric}-{value}",
        response_id=response,
        test_case_id=f"case-{response}",
        model=model,
        setting=setting,
        family=family,
        metric=metric,
        value=value,
        details={"reason": reason} if reason else {},
    )


def test_summarize_groups_counts_and_missing_reasons() -> None:
    scores = [
        _score("r1", 1.0),
        _score("r2", 0.0),
        _score("r3", 1.0),
        _score("r4", None, reason="response failed"),
        _score("r1", 0.5, metric="f1"),
        _score("r5", 0.0, model="m2"),
        _score("r6", None, model="m2", metric="entail", reason="no NLI model configured"),
        _score("r7", None, model="m2", metric="entail", reason="no NLI model configured"),
    ]
    rows = summarize(scores, n_boot=200, seed=1)
    keys = [(r.family, r.model, r.setting, r.metric) for r in rows]
    assert keys == sorted(keys)
    by_key = {(r.model, r.metric): r for r in rows}
    em = by_key[("m1", "em")]
    assert (em.n, em.n_missing, em.missing_reasons) == (3, 1, {"response failed": 1})
    assert em.mean == pytest.approx(2 / 3)
    assert em.ci_low is not None and em.ci_high is not None
    assert em.ci_low <= em.mean <= em.ci_high
    assert by_key[("m1", "f1")].mean == 0.5 and by_key[("m1", "f1")].n == 1
    entail = by_key[("m2", "entail")]
    assert (entail.n, entail.mean, entail.ci_low, entail.n_missing) == (0, None, None, 2)
    assert entail.missing_reasons == {"no NLI model configured": 2}
    assert summarize(scores, n_boot=200, seed=1) == rows  # deterministic


def test_summarize_without_bootstrap_gives_mean_only() -> None:
    rows = summarize([_score("r1", 1.0), _score("r2", 0.0)], n_boot=0)
    assert rows[0].mean == 0.5 and rows[0].ci_low is None and rows[0].half_width is None


def test_summarize_keeps_the_latest_score_of_a_rescored_response() -> None:
    before = _score("r1", None, metric="entail", reason="no NLI model configured")
    after = _score("r1", 1.0, metric="entail")
    assert latest_scores([before, after]) == [after]
    (row,) = summarize([before, after], n_boot=10)
    assert (row.n, row.n_missing, row.mean) == (1, 0, 1.0)
