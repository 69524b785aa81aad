"""The public Python API: forge without targets, resume to answer, answer held cases, read records."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import halluforge as hf
from halluforge.config import RunConfig
from halluforge.errors import ConfigError, DataError
from halluforge.records import TestCase


def _config(root: Path, run_id: str, **extra: object) -> RunConfig:
    values: dict[str, object] = {
        "output_dir": str(root / "runs"),
        "models.generator": "mock/echo",
        "models.targets": ["mock/echo"],
        "data": [{"loader": "bundled", "limit": 6}],
        "score.bootstrap": 20,
        "run_id": run_id,
        "cache.path": str(root / "cache.sqlite"),
    }
    values.update(extra)
    return hf.load_config(None, values)


def test_forge_asks_no_target_and_running_the_config_resumes_at_the_answer_stage(tmp_path: Path) -> None:
    config = _config(tmp_path, "api")
    cases = hf.forge_cases(config)
    assert cases and all(isinstance(c, TestCase) for c in cases)
    assert {c.family for c in cases} == {"answer_swap", "original"}
    run_dir = tmp_path / "runs" / "api"
    manifest = json.loads((run_dir / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["status"] == "forged"
    assert manifest["stages_finished"] == ["load", "select", "forge"]
    records = hf.load_records(run_dir)
    assert records.responses == [] and records.scores == []

    result = hf.run(config)
    records = hf.load_records(result.run_dir)
    assert sorted(c.id for c in records.test_cases) == sorted(c.id for c in cases)
    assert records.responses and records.scores and records.joined
    assert {r.test_case_id for r in records.responses} <= set(records.cases_by_id())
    # the suite rendered from the forged cases holds the prompts the run then sent
    fresh = hf.suite(cases, config)
    sent = hf.suite(run_dir)
    assert {s.id: s.prompt for s in fresh.entries} == {s.id: s.prompt for s in sent.entries}


def test_answer_puts_held_cases_to_the_targets_in_a_new_run(tmp_path: Path) -> None:
    cases = hf.forge_cases(_config(tmp_path, "source"))
    chosen = [c for c in cases if c.family == "answer_swap"][:2]
    config = _config(tmp_path, "held", **{"models.targets": ["mock/const:Paris"]})
    result = hf.answer(chosen, config)
    records = hf.load_records(result.run_dir)
    assert {c.id for c in records.test_cases} == {c.id for c in chosen}
    assert {r.test_case_id for r in records.responses} == {c.id for c in chosen}
    assert {r.text for r in records.responses} == {"Paris"}
    assert {s.metric for s in records.scores} >= {"em", "f1", "hit"}
    with pytest.raises(ConfigError, match="already holds a run"):
        hf.answer(chosen, config)
    with pytest.raises(DataError, match="no test cases"):
        hf.answer([], _config(tmp_path, "empty"))


def test_load_records_refuses_a_folder_that_is_no_run_and_the_package_names_the_api(tmp_path: Path) -> None:
    with pytest.raises(DataError, match="not a run directory"):
        hf.load_records(tmp_path)
    assert hf.forge_cases.__module__ == "halluforge.api"
    with pytest.raises(AttributeError, match="no attribute 'forge_case'"):
        hf.forge_case  # noqa: B018
