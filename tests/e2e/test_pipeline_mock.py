"""The whole pipeline offline on the bundled sample with scripted mock models."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from halluforge.config import load_config
from halluforge.pipeline import run_pipeline
from halluforge.records import Response, SeedCase, TestCase
from halluforge.store import RunStore


def _config(tmp_path: Path, **extra: object) -> object:
    overrides = {
        "output_dir": str(tmp_path / "runs"),
        "models.generator": "mock/echo",
        "models.targets": ["mock/echo", "mock/const:Paris"],
        "data": [{"loader": "bundled", "limit": 12}],
        "score.bootstrap": 50,
    }
    overrides.update(extra)
    return load_config(None, overrides, environ={})


def test_run_writes_store_summary_and_exports(tmp_path: Path) -> None:
    config = _config(tmp_path)
    result = run_pipeline(config)  # type: ignore[arg-type]
    run_dir = result.run_dir
    for name in ("manifest.json", "summary.json", "summary.md", "test_cases.jsonl", "responses.jsonl"):
        assert (run_dir / name).is_file(), name
    store = RunStore(run_dir)
    seeds = store.all(SeedCase)
    assert len(seeds) == 12
    # echo repeats the prompt: open-book contains the evidence (and the answer), closed-book not always
    assert all(s.open_book_correct for s in seeds)
    cases = store.all(TestCase)
    swaps = [c for c in cases if c.family == "answer_swap"]
    assert len(swaps) >= 11
    assert {c.family for c in cases} == {"answer_swap", "original"}
    responses = store.all(Response)
    valid = [c for c in cases if c.valid]
    assert len(responses) == len(valid) * 2 * 4
    manifest = json.loads((run_dir / "manifest.json").read_text())
    assert manifest["status"] == "finished"
    assert manifest["models"]["generator"] == "mock/echo"
    assert "settings/open_book" in manifest["templates"]
    assert "answer_swap/propose" in manifest["templates"]


def test_second_run_resumes_and_adds_nothing(tmp_path: Path) -> None:
    config = _config(tmp_path)
    first = run_pipeline(config)  # type: ignore[arg-type]
    n = RunStore(first.run_dir).count(Response)
    second = run_pipeline(config)  # type: ignore[arg-type]
    assert second.run_dir == first.run_dir
    assert RunStore(second.run_dir).count(Response) == n


def test_new_run_is_served_from_cache_and_asks_no_model(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from halluforge.backends.mock import MockBackend

    first = run_pipeline(_config(tmp_path))  # type: ignore[arg-type]
    # echo's proposals fail answer_swap's checks, so forging also sent seeded, sampled retries
    asked: list[int] = []
    real = MockBackend.generate

    async def counting(self: MockBackend, requests: Any) -> Any:
        asked.append(len(requests))
        return await real(self, requests)

    monkeypatch.setattr(MockBackend, "generate", counting)
    again = run_pipeline(_config(tmp_path, run_id="fresh"))  # type: ignore[arg-type]
    responses = RunStore(again.run_dir).all(Response)
    assert responses and all(r.cached for r in responses)
    assert asked == []  # select, forge and answer were all served from the cache
    before = {c.id: c for c in RunStore(first.run_dir).all(TestCase)}
    assert {c.id: c for c in RunStore(again.run_dir).all(TestCase)} == before


def test_ready_made_test_cases_skip_forging(tmp_path: Path) -> None:
    data = tmp_path / "cases.json"
    data.write_text(
        json.dumps(
            [
                {
                    "q_id": 0,
                    "question": "Where is the tower?",
                    "answer": "Lyon",
                    "evidence": "The iron tower stands in Lyon, built for a fair long ago.",
                    "source": "x",
                },
                {
                    "q_id": 1,
                    "question": "Who built it?",
                    "answer": "Ada",
                    "evidence": "It was built by Ada and her crew in a single hot summer.",
                    "source": "x",
                },
            ]
        )
    )
    config = _config(
        tmp_path,
        data=[{"loader": "reeval", "path": str(data), "test_cases": "answer_swap"}],
        families={},
        **{"models.targets": ["mock/const:Lyon"]},
    )
    result = run_pipeline(config)  # type: ignore[arg-type]
    store = RunStore(result.run_dir)
    assert store.count(SeedCase) == 0
    cases = store.all(TestCase)
    assert len(cases) == 2 and all(c.family == "answer_swap" for c in cases)
    rows = {(r.family, r.model, r.setting, r.metric): r for r in result.summary.rows}
    hit = rows[("answer_swap", "mock/const:Lyon", "open_book", "hit")]
    assert hit.n == 2 and hit.mean == 0.5


def test_one_failing_case_does_not_kill_the_run(tmp_path: Path) -> None:
    config = _config(
        tmp_path,
        backends={"mock": {"fail": ["Bob said"], "retries": 0}},
    )
    result = run_pipeline(config)  # type: ignore[arg-type]
    responses = RunStore(result.run_dir).all(Response)
    failed = [r for r in responses if r.error]
    assert failed and all(r.setting == "opinion" for r in failed)
    assert len(failed) < len(responses)


def test_report_and_rescore_rebuild_from_the_store(tmp_path: Path) -> None:
    from halluforge.pipeline import rescore_run

    first = run_pipeline(_config(tmp_path))  # type: ignore[arg-type]
    (first.run_dir / "summary.md").unlink()
    rebuilt = rescore_run(first.run_dir, scores=False)
    assert (first.run_dir / "summary.md").is_file()
    assert [r.mean for r in rebuilt.summary.rows] == [r.mean for r in first.summary.rows]
    rescored = rescore_run(first.run_dir, {"score.metrics": ["em"]})
    assert rescored.run_dir == first.run_dir
