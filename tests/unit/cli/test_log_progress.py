"""Progress without a terminal: plain lines on stderr every few seconds, and ``--log-file``."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
import yaml

from halluforge.cli.main import main
from halluforge.cli.progress import LogProgress


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_lines_every_interval_with_rate_and_eta() -> None:
    stream, clock = io.StringIO(), Clock()
    progress = LogProgress([stream], interval_s=5.0, clock=clock)
    progress.start("answer", 100)
    clock.now = 1.0
    progress.update("answer", 10)  # too soon: no line
    clock.now = 5.0
    progress.update("answer", 50, cached=5, failed=2)
    clock.now = 6.0
    progress.update("answer", 60)  # too soon again
    clock.now = 8.0
    progress.finish("answer")
    lines = [re.sub(r"^\[\d\d:\d\d:\d\d\] ", "", line) for line in stream.getvalue().splitlines()]
    assert lines == [
        "answer: started, 100 to do",
        # the rate counts computed items only (45 in 5 s): the 50 left take 50 / 9 s
        "answer: 50/100 cached 5 failed 2 rate 9.0/s eta 6s",
        "answer: 100/100 cached 0 failed 0 rate 12.5/s, done in 8.0s",
    ]


def test_eta_leaves_out_cached_and_resumed_items() -> None:
    stream, clock = io.StringIO(), Clock()
    progress = LogProgress([stream], interval_s=5.0, clock=clock)
    progress.start("forge:x", 100)
    progress.update("forge:x", 40)  # at once: 40 inputs were done before this process (a resume)
    clock.now = 10.0
    progress.update("forge:x", 70, cached=20)  # 10 computed in 10 s: 30 left take 30 s
    lines = [re.sub(r"^\[\d\d:\d\d:\d\d\] ", "", line) for line in stream.getvalue().splitlines()]
    assert lines[-1] == "forge:x: 70/100 cached 20 failed 0 rate 1.0/s eta 30s"


def test_eta_is_unknown_until_something_is_computed() -> None:
    from halluforge.cli.progress import eta_seconds

    assert eta_seconds(100, 30, 30, 0, 12.0) is None  # only cache hits so far
    assert eta_seconds(100, 100, 90, 0, 12.0) == 0.0
    assert eta_seconds(100, 50, 0, 0, 10.0) == 10.0


def test_bars_on_a_terminal_draw_an_eta_over_computed_work() -> None:
    from rich.console import Console

    from halluforge.cli.progress import RichProgress

    console = Console(record=True, width=120, force_terminal=True, color_system=None)
    with RichProgress(console) as bars:
        bars.start("forge:x", 10)
        bars.bars.refresh()  # drawn before any count: no resumed count yet, the ETA is unknown
        bars.update("forge:x", 4)  # at once: 4 done before this process
        bars.update("forge:x", 6, cached=1)
        bars.bars.refresh()
    text = console.export_text()
    assert "forge:x" in text and "eta" in text


def test_run_without_a_terminal_logs_lines_and_writes_the_log_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HALLUFORGE_CACHE_DIR", str(tmp_path / "cache"))
    config = {
        "output_dir": str(tmp_path / "runs"),
        "data": [{"loader": "bundled", "limit": 3}],
        "models": {"generator": "mock/echo", "targets": ["mock/echo", "mock/<b>x</b>|y"]},
        "answer": {"settings": ["closed_book"]},
        "score": {"bootstrap": 0},
    }
    path = tmp_path / "run.yaml"
    path.write_text(yaml.safe_dump(config))
    log = tmp_path / "run.log"
    assert main(["run", str(path), "--log-file", str(log)]) == 0
    captured = capsys.readouterr()
    stages = re.findall(r"^\[\d\d:\d\d:\d\d\] (\w+)\S*: started", captured.err, flags=re.MULTILINE)
    assert list(dict.fromkeys(stages)) == ["load", "select", "forge", "answer", "score"]
    assert re.search(r"answer:mock/echo: \d+/\d+ cached \d+ failed 0 rate [\d.]+/s, done in", captured.err)
    # the summary goes to stdout as Markdown, not cut at 80 columns, cells escaped
    table_lines = [line for line in captured.out.splitlines() if line.startswith("| mock/")]
    assert table_lines and all(line.endswith("|") for line in table_lines)
    assert any("&lt;b&gt;x&lt;/b&gt;\\|y" in line for line in table_lines)
    text = log.read_text(encoding="utf-8")
    assert "answer:mock/echo: started" in text and "# halluforge summary" in text and "run directory:" in text


def test_log_file_in_a_missing_folder_is_refused_before_anything(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["run", "--log-file", str(tmp_path / "no" / "run.log"), "--output-dir", str(tmp_path / "r")])
    assert code == 2
    assert "--log-file" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []
