from __future__ import annotations

import pytest

from extra_skips import reason
from halluforge.family import FAMILIES
from halluforge.metrics.joined import Joined
from halluforge.metrics.summary import Summary, SummaryRow
from halluforge.records import Score, TestCase
from halluforge.reports.plots import drop_plot, invite_rates, position_lines, setting_bars, transfer_heatmap

pytest.importorskip("altair", reason=reason("report", "altair"))


def _values(spec: dict[str, object]) -> list[dict[str, object]]:
    data = spec["data"]
    assert isinstance(data, dict)
    return list(data["values"])


def _row(family: str, model: str, setting: str, metric: str, mean: float) -> SummaryRow:
    return SummaryRow(family=family, model=model, setting=setting, metric=metric, n=10, mean=mean,
                      ci_low=mean - 0.1, ci_high=mean + 0.1)  # fmt: skip


def test_bars_carry_means_and_interval_ends() -> None:
    summary = Summary(rows=[_row("answer_swap", "m", "open_book", "em", 0.4)], confidence=0.95)
    plot = setting_bars(summary, "answer_swap")
    assert plot is not None
    (value,) = _values(plot.spec)
    assert value["mean"] == 0.4 and value["low"] == pytest.approx(0.3) and value["high"] == pytest.approx(0.5)
    assert setting_bars(summary, "original") is None


def test_drop_pairs_each_perturbed_row_with_its_original() -> None:
    rows = [_row("original", "m", "open_book", "hit", 0.9), _row("answer_swap", "m", "open_book", "hit", 0.3),
            _row("answer_swap", "other", "open_book", "hit", 0.5)]  # fmt: skip
    plot = drop_plot(Summary(rows=rows), {n: FAMILIES.get(n) for n in FAMILIES.names()})
    assert plot is not None
    values = _values(plot.spec)
    assert [(v["stage"], v["mean"]) for v in values] == [("1 original", 0.9), ("2 perturbed", 0.3)]


def test_invite_rates_group_by_category_and_model() -> None:
    cases = {
        f"c{i}": TestCase(id=f"c{i}", family="false_premise", question="q", metadata={"category": cat})
        for i, cat in enumerate(["birthPlace", "birthPlace", "spouse"])
    }
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
        for i, v in enumerate([1.0, 0.0, 1.0])
    ]
    plot = invite_rates(Joined(cases, {}, scores), n_boot=20)
    assert plot is not None
    means = {v["category"]: v["mean"] for v in _values(plot.spec)}
    assert means == {"birthPlace": 0.5, "spouse": 1.0}
    assert invite_rates(Joined(cases, {}, [])) is None


def test_analysis_plots_read_the_analyses_data() -> None:
    transfer = {
        "metric": "hit",
        "cells": [{"generator": "g", "target": "t", "attack": "cross", "mean": 0.25, "n": 4}],
    }
    heat = transfer_heatmap(transfer)
    assert heat is not None and _values(heat.spec)[0]["label"] == "25%"
    position = {
        "metric": "hit",
        "cells": [{"model": "m", "setting": "open_book", "position": "first", "mean": 1.0, "n": 2}],
    }
    lines = position_lines(position)
    assert lines is not None and _values(lines.spec)[0]["line"] == "m · open_book"
    assert transfer_heatmap(None) is None and position_lines({"cells": []}) is None
