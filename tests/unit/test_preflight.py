"""Checks before a run: every problem at once with file:line: key.path, and resume by config hash."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from halluforge.config import load_config
from halluforge.preflight import check_run, collect_problems
from halluforge.problems import InvalidInputError

BAD = """\
models:
  generator: mock/echo
  targets: [mock/echo, lamacpp/x]
answer:
  settings: [open_book, closd_book]
families:
  answer_swapp: {}
score:
  metrics: [em, f2]
  options:
    premise_judge: {modez: [rule]}
data:
  - loader: jsonl
    path: qa.jsonl
    options: {delimter: ","}
"""


def test_every_problem_is_reported_at_once_with_its_line(tmp_path: Path) -> None:
    path = tmp_path / "run.yaml"
    path.write_text(BAD)
    config = load_config(path, {"output_dir": str(tmp_path / "runs")}, environ={})
    found = {(p.where, p.key) for p in collect_problems(config)}
    assert found == {
        (f"{path}:5", "answer.settings.1"),
        (f"{path}:7", "families.answer_swapp"),
        (f"{path}:9", "score.metrics.1"),
        (f"{path}:11", "score.options.premise_judge"),
        (f"{path}:3", "models.targets.1"),
        (f"{path}:15", "data.0.options.delimter"),
    }
    with pytest.raises(InvalidInputError) as info:
        check_run(config)
    lines = str(info.value).splitlines()
    assert lines[0] == f"6 problems in {path}; nothing was started:"
    assert all(line.startswith(f"  {path}:") for line in lines[1:])
    assert not (tmp_path / "runs").exists()


def test_schema_errors_are_all_reported_with_lines(tmp_path: Path) -> None:
    path = tmp_path / "run.yaml"
    path.write_text("seed: -1\nanswer:\n  max_tokens: 0\n  temperature: -2\nselect:\n  limt: 3\n")
    with pytest.raises(InvalidInputError) as info:
        load_config(path, environ={})
    found = {(p.where, p.key) for p in info.value.problems}
    assert found == {
        (f"{path}:1", "seed"),
        (f"{path}:3", "answer.max_tokens"),
        (f"{path}:4", "answer.temperature"),
        (f"{path}:6", "select.limt"),
    }


def _config(tmp_path: Path, **extra: object) -> Path:
    data = {
        "output_dir": str(tmp_path / "runs"),
        "run_id": "mine",
        "data": [{"loader": "bundled", "limit": 2}],
        "models": {"generator": "mock/echo", "targets": ["mock/echo"]},
        "answer": {"settings": ["closed_book"]},
        "score": {"bootstrap": 0},
        **extra,
    }
    path = tmp_path / "run.yaml"
    path.write_text(yaml.safe_dump(data))
    return path


def test_a_run_id_resumes_only_with_its_own_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from halluforge.pipeline import run_pipeline

    monkeypatch.setenv("HALLUFORGE_CACHE_DIR", str(tmp_path / "cache"))
    run_pipeline(load_config(_config(tmp_path), environ={}))
    manifest = json.loads((tmp_path / "runs" / "mine" / "manifest.json").read_text())
    assert manifest["resume_hash"]
    # the same config resumes (a different cache setting or folder label does not matter)
    check_run(load_config(_config(tmp_path, cache={"enabled": False}), environ={}))
    changed = load_config(_config(tmp_path, seed=7), environ={})
    with pytest.raises(InvalidInputError, match=r"different config.*--new"):
        check_run(changed)


def test_dola_setting_is_refused_for_targets_that_cannot_decode_with_it(tmp_path: Path) -> None:
    """Only hf targets see hidden layers; the dola setting on another backend stops the run at once."""
    from halluforge.backends import check_decoding
    from halluforge.errors import ConfigError

    path = tmp_path / "run.yaml"
    path.write_text(
        "models: {generator: mock/echo, targets: [mock/echo]}\n"
        "answer: {settings: [open_book, dola]}\n"
        "families: {answer_swap: {}}\n"
        "data: [{loader: bundled, path: sample}]\n"
    )
    config = load_config(path, {"output_dir": str(tmp_path / "runs")}, environ={})
    problems = [p for p in collect_problems(config) if p.key == "answer.settings.1"]
    assert len(problems) == 1 and problems[0].where == f"{path}:2"
    assert "decodes with dola" in problems[0].message and "mock/echo" in problems[0].message
    check_decoding("dola", "dola", "hf//models/tiny.gguf")
    check_decoding("open_book", None, "llamacpp/smollm2-135m")
    with pytest.raises(ConfigError, match="hf/"):
        check_decoding("dola", "dola", "llamacpp/smollm2-135m")
