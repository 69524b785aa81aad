"""The counterfactual family end to end with scripted mock models (never the main job)."""

from __future__ import annotations

from pathlib import Path

from halluforge.config import load_config
from halluforge.pipeline import run_pipeline
from halluforge.records import Response, Score, TestCase
from halluforge.store import RunStore

FIXTURE = Path(__file__).parents[1] / "fixtures" / "rgb" / "counterfactual.jsonl"


def test_rgb_file_alone_is_answered_and_scored_with_m_rate(tmp_path: Path) -> None:
    # options are lettered A/B; "mock/const:A" always picks the first shown option
    config = load_config(
        None,
        {
            "output_dir": str(tmp_path / "runs"),
            "data": [{"loader": "rgb", "path": str(FIXTURE)}],
            "families": {},
            "models.targets": ["mock/const:A"],
            "score.metrics": ["accuracy"],
            "score.bootstrap": 20,
        },
        environ={},
    )
    result = run_pipeline(config)
    store = RunStore(result.run_dir)
    cases = store.all(TestCase)
    assert len(cases) == 4 and {c.family for c in cases} == {"counterfactual"}
    scores = store.all(Score)
    accuracy = {(s.test_case_id, s.setting): s.value for s in scores if s.metric == "accuracy"}
    first_correct = {c.id: float(c.options[0].role == "correct") for c in cases}
    for (case_id, setting), value in accuracy.items():
        assert value == first_correct[case_id], setting
    m_rate = [s for s in scores if s.metric == "m_rate" and s.setting == "open_book"]
    assert len(m_rate) == 4
    # the same letter with and without context: right-without-context cases are never misled
    assert all(s.value == 0.0 for s in m_rate if s.value is not None)
    assert any(s.value is None for s in m_rate)
    text = (result.run_dir / "summary.md").read_text(encoding="utf-8")
    assert "M-Rate" in text and "RGB" in text


def test_forged_run_reports_m_rate_and_r_rate(tmp_path: Path) -> None:
    config = load_config(
        None,
        {
            "output_dir": str(tmp_path / "runs"),
            "data": [],
            "families": {"counterfactual": {"limit": 3, "repeats": 2}},
            "models.generator": "mock/echo",
            "models.targets": ["mock/echo"],
            "answer.settings": ["closed_book", "original_context", "open_book", "self_trust"],
            "answer.include_originals": False,
            "score.metrics": ["accuracy"],
            "score.bootstrap": 20,
        },
        environ={},
    )
    result = run_pipeline(config)
    store = RunStore(result.run_dir)
    cases = store.all(TestCase)
    assert {c.variant for c in cases} == {"qa_a", "qa_na", "textgen"}
    responses = store.all(Response)
    textgen = {c.id for c in cases if c.variant == "textgen"}
    # text generation is never asked without a context
    assert not [r for r in responses if r.test_case_id in textgen and r.setting == "closed_book"]
    metrics = {s.metric for s in store.all(Score)}
    assert {"accuracy", "m_rate", "r_rate", "r_rate_norm", "error_detection"} <= metrics
    text = (result.run_dir / "summary.md").read_text(encoding="utf-8")
    assert "M-Rate" in text and "R-Rate" in text and "±" in text
    assert "following the edited context is the mistake" in text
