"""false_premise and invalid_date through the whole pipeline offline (bundled KB and sample, mock models)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from extra_skips import needs
from halluforge.cli.main import main
from halluforge.config import load_config
from halluforge.pipeline import run_pipeline
from halluforge.records import Response, Score, Skip, TestCase
from halluforge.store import RunStore


def _config(tmp_path: Path, trivia: Path) -> object:
    return load_config(
        None,
        {
            "output_dir": str(tmp_path / "runs"),
            "models.generator": "mock/echo",
            "models.targets": ["mock/echo"],
            "data": [{"loader": "triviaqa", "path": str(trivia)}],
            "filters.require_evidence": False,
            "filters.min_evidence_words": None,
            "families": {
                "false_premise": {"per_predicate": 2, "predicates": ["spouse", "director", "birthPlace"]},
                "invalid_date": {"current_year": 2026},
            },
            "answer.settings": ["closed_book"],
            "answer.include_originals": False,
            "score.metrics": ["premise_judge"],
            "score.bootstrap": 20,
        },
        environ={},
    )


def _trivia(tmp_path: Path) -> Path:
    path = tmp_path / "trivia.json"
    questions = [
        "Which state joined the union on May 29, 1790?",
        "From which club did Liverpool sign Alan Hansen in 1977?",
        "Who painted the Mona Lisa?",
    ]
    data = {
        "Data": [
            {"QuestionId": f"q{i}", "Question": q, "Answer": {"Value": "x", "Aliases": ["x", "y"]}}
            for i, q in enumerate(questions)
        ]
    }
    path.write_text(json.dumps(data))
    return path


@needs("kb")  # false_premise reads the bundled N-Triples KB
def test_invite_families_forge_answer_and_score(tmp_path: Path) -> None:
    config = _config(tmp_path, _trivia(tmp_path))
    result = run_pipeline(config)  # type: ignore[arg-type]
    store = RunStore(result.run_dir)
    cases = store.all(TestCase)
    by_family: dict[str, list[TestCase]] = {}
    for case in cases:
        by_family.setdefault(case.family, []).append(case)
    assert len(by_family["false_premise"]) == 6
    assert {c.variant for c in by_family["invalid_date"]} == {"invalid_day", "future_year"}
    skips = store.all(Skip)
    assert any("no date found" in s.reason for s in skips)
    responses = store.all(Response)
    assert len(responses) == len(cases)
    scores = store.all(Score)
    assert {s.family for s in scores} == {"false_premise", "invalid_date"}
    assert all(s.value in (0.0, 1.0, None) for s in scores)
    ids = sorted(c.id for c in cases)
    store.close()
    again = run_pipeline(config)  # type: ignore[arg-type]
    store = RunStore(again.run_dir)
    assert sorted(c.id for c in store.all(TestCase)) == ids
    store.close()


def test_without_the_kb_extra_a_run_ends_on_one_error_line_naming_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A core install reads the bundled N-Triples KB only with pyoxigraph: it says so, no traceback."""
    monkeypatch.setitem(sys.modules, "pyoxigraph", None)
    config = tmp_path / "run.yaml"
    config.write_text(
        f"output_dir: {tmp_path / 'runs'}\ndata: []\n"
        "models: {generator: mock/echo, targets: [mock/echo]}\n"
        "families: {false_premise: {per_predicate: 1}}\n"
    )
    assert main(["run", str(config), "--quiet"]) == 2
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err + captured.out
    errors = [line for line in captured.err.splitlines() if line.startswith("error:")]
    assert len(errors) == 1 and "pyoxigraph" in errors[0] and 'pip install "halluforge[kb]"' in errors[0]
