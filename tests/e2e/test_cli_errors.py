"""Bad input gives one line naming the place and the fix, exit code 2, no traceback."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from extra_skips import require
from halluforge.cli.main import main


def _run(tmp_path: Path, capsys: pytest.CaptureFixture[str], config: dict[str, object]) -> tuple[int, str]:
    path = tmp_path / "run.yaml"
    base: dict[str, object] = {
        "output_dir": str(tmp_path / "runs"),
        "models": {"generator": "mock/echo", "targets": ["mock/echo"]},
    }
    base.update(config)
    path.write_text(yaml.safe_dump(base))
    code = main(["run", str(path), "--quiet"])
    err = capsys.readouterr().err
    return code, err


def _one_line_error(err: str) -> str:
    lines = [line for line in err.splitlines() if line.strip()]
    assert "Traceback" not in err
    assert len(lines) == 1, err
    assert lines[0].startswith("error: ")
    return lines[0]


def test_bad_json_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = tmp_path / "qa.jsonl"
    data.write_text('{"question": "q", "answers": ["a"], "evidence": "e"}\n{"question": oops}\n')
    code, err = _run(tmp_path, capsys, {"data": [{"loader": "jsonl", "path": str(data)}]})
    line = _one_line_error(err)
    assert code == 2 and f"{data}:2" in line


def test_missing_field(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = tmp_path / "qa.jsonl"
    data.write_text('{"query": "q", "answers": ["a"], "evidence": "e"}\n')
    code, err = _run(tmp_path, capsys, {"data": [{"loader": "jsonl", "path": str(data)}]})
    line = _one_line_error(err)
    assert code == 2 and "question" in line and f"{data}:1" in line


def test_empty_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = tmp_path / "qa.jsonl"
    data.write_text("")
    code, err = _run(tmp_path, capsys, {"data": [{"loader": "jsonl", "path": str(data)}]})
    line = _one_line_error(err)
    assert code == 2 and str(data) in line


def test_unknown_config_key(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, err = _run(tmp_path, capsys, {"anwser": {}})
    line = _one_line_error(err)
    assert code == 2 and "did you mean 'answer'" in line


def test_unknown_model(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, err = _run(tmp_path, capsys, {"models": {"generator": "mock/echo", "targets": ["lamacpp/x"]}})
    line = _one_line_error(err)
    assert code == 2 and "lamacpp" in line and "did you mean 'llamacpp'" in line


def test_malformed_model_address(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, err = _run(tmp_path, capsys, {"models": {"generator": "mock/echo", "targets": ["gpt4"]}})
    line = _one_line_error(err)
    assert code == 2 and "backend/model" in line


def test_missing_model_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    require("llamacpp", "llama_cpp")  # the engine is checked before the file
    missing = tmp_path / "nope.gguf"
    code, err = _run(
        tmp_path, capsys, {"models": {"generator": "mock/echo", "targets": [f"llamacpp/{missing}"]}}
    )
    line = _one_line_error(err)
    assert code == 2 and str(missing) in line


def test_missing_config_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["run", str(tmp_path / "absent.yaml"), "--quiet"])
    line = _one_line_error(capsys.readouterr().err)
    assert code == 2 and "absent.yaml" in line
