"""Inputs that error while forging are named with their reason and tried again when the run resumes."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from halluforge.cli.progress import LogProgress
from halluforge.cli.run import footer_lines
from halluforge.config import load_config
from halluforge.families.answer_swap.generator import AnswerSwap
from halluforge.pipeline import run_pipeline
from halluforge.records import Skip, TestCase
from halluforge.stages.forge import StageBar
from halluforge.store import RunStore


def _config(tmp_path: Path) -> Any:
    return load_config(
        None,
        {
            "output_dir": str(tmp_path / "runs"),
            "run_id": "r",
            "models.generator": "mock/echo",
            "models.targets": ["mock/echo"],
            "select.limit": 3,
            "answer.settings": ["open_book"],
            "score.bootstrap": 20,
        },
        environ={},
    )


def test_an_errored_input_is_reported_and_forged_on_resume(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HALLUFORGE_CACHE_DIR", str(tmp_path / "cache"))
    real = AnswerSwap.forge_one
    failed: list[Any] = []

    async def flaky(self: AnswerSwap, unit: Any, ctx: Any) -> Any:
        if not failed:  # the first input forged fails once, as a missing package or a lost server would
            failed.append(unit)
            raise RuntimeError("the corpus went missing")
        return await real(self, unit, ctx)

    monkeypatch.setattr(AnswerSwap, "forge_one", flaky)
    first = run_pipeline(_config(tmp_path))
    errors = first.counts["forge_errors"]
    assert errors == {"forge:answer_swap: error: RuntimeError: the corpus went missing": 1}
    lines = footer_lines(first, 1.0)
    assert lines[0].startswith("forge errors: 1 input(s) errored; they are tried again when the run resumes")
    assert "1 x forge:answer_swap: error: RuntimeError: the corpus went missing" in lines[1]
    assert any(line.startswith("report: ") and line.endswith("report.html") for line in lines)
    assert f"browse and label: halluforge view {first.run_dir}" in lines

    second = run_pipeline(_config(tmp_path))  # the same config resumes the same run directory
    assert second.run_dir == first.run_dir
    assert second.counts["forge_errors"] == {}
    store = RunStore(second.run_dir)
    try:
        assert not [s for s in store.all(Skip) if s.reason.startswith("error:")]
        cases = [c for c in store.all(TestCase) if c.family == "answer_swap"]
        assert len(cases) == 3  # the input that errored was forged this time
    finally:
        store.close()


class Recorder:
    def __init__(self) -> None:
        self.events: list[tuple[str, ...]] = []

    def start(self, stage: str, total: int) -> None:
        self.events.append(("start", stage, str(total)))

    def update(self, stage: str, done: int, cached: int = 0, failed: int = 0) -> None:
        self.events.append(("update", stage, str(done)))

    def finish(self, stage: str) -> None:
        self.events.append(("finish", stage))


def test_a_build_gets_a_bar_of_its_own() -> None:
    recorder = Recorder()
    bar = StageBar(recorder, "index:default")
    for done in (0, 5000, 10033):
        bar(done, 10033)
    assert recorder.events == [
        ("start", "index:default", "10033"),
        ("update", "index:default", "0"),
        ("update", "index:default", "5000"),
        ("update", "index:default", "10033"),
        ("finish", "index:default"),
    ]


def test_context_enrich_opens_its_index_before_forging_with_a_bar(monkeypatch: pytest.MonkeyPatch) -> None:
    from halluforge.families.context_enrich import generator as module
    from halluforge.forge.base import PROGRESS, ForgeContext

    seen: dict[str, Any] = {}

    def fake_open(index: str, progress: Any = None) -> str:
        seen["index"] = index
        progress(10, 10)
        return "retriever"

    monkeypatch.setattr(module, "open_retriever", fake_open)
    recorder = Recorder()
    generator = module.ContextEnrich()
    monkeypatch.setattr(generator, "_judge", lambda ctx: None)
    generator.prepare(ForgeContext(llm=None, resources={PROGRESS: lambda name: StageBar(recorder, name)}))
    assert seen == {"index": "default"}
    assert recorder.events[0] == ("start", "index:default", "10")
    assert recorder.events[-1] == ("finish", "index:default")
    assert generator.retriever(ForgeContext(llm=None)) == "retriever"  # opened once, reused


def test_log_lines_for_an_index_bar(capsys: pytest.CaptureFixture[str]) -> None:
    import sys

    bar = StageBar(LogProgress([sys.stderr]), "index:default")
    bar(0, 4)
    bar(4, 4)
    err = capsys.readouterr().err
    assert "index:default: started, 4 to do" in err and "index:default: 4/4" in err
