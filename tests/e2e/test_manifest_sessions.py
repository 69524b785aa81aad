"""A resumed run keeps its first start and adds a session to the manifest (it overwrote them before)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from halluforge.config import load_config
from halluforge.pipeline import run_pipeline


def test_a_resume_adds_a_session_and_keeps_the_first_start(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HALLUFORGE_CACHE_DIR", str(tmp_path / "cache"))
    values: dict[str, object] = {
        "output_dir": str(tmp_path / "runs"),
        "models.generator": "mock/echo",
        "models.targets": ["mock/echo"],
        "data": [{"loader": "bundled", "limit": 3}],
        "score.bootstrap": 20,
        "run_id": "twice",
    }
    run_dir = run_pipeline(load_config(None, values, environ={})).run_dir
    first = json.loads((run_dir / "manifest.json").read_text(encoding="utf-8"))
    assert len(first["sessions"]) == 1 and first["sessions"][0]["started"] == first["started"]
    assert first["sessions"][0]["seconds"] == first["counts"]["seconds"] == first["seconds_total"]
    run_pipeline(load_config(None, values, environ={}))
    second = json.loads((run_dir / "manifest.json").read_text(encoding="utf-8"))
    assert second["started"] == first["started"] and second["status"] == "finished"
    assert len(second["sessions"]) == 2 and second["sessions"][0] == first["sessions"][0]
    total = first["seconds_total"] + second["sessions"][1]["seconds"]
    assert second["seconds_total"] == pytest.approx(total, abs=0.011)
