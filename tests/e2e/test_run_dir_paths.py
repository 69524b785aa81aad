"""A run id is a name: ``..``, absolute paths and ``a/../../b`` are refused, and nothing outside
the output folder is created or changed, by a refused run or by a good one."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from halluforge.cli.main import main


def _tree(root: Path) -> dict[str, tuple[int, int]]:
    return {str(p.relative_to(root)): (p.stat().st_size, p.stat().st_mtime_ns) for p in root.rglob("*")}


@pytest.fixture
def workspace(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """tmp/outer/work is the working folder; tmp/outer/work/runs the output folder."""
    work = tmp_path / "outer" / "work"
    work.mkdir(parents=True)
    (tmp_path / "outer" / "summary.md").write_text("the user's own file\n")
    (work / "summary.md").write_text("the user's own file\n")
    config = {
        "output_dir": "runs",
        "data": [{"loader": "bundled", "limit": 2}],
        "models": {"generator": "mock/echo", "targets": ["mock/echo"]},
        "answer": {"settings": ["closed_book"]},
        "score": {"bootstrap": 0},
        "cache": {"enabled": False},
    }
    (work / "run.yaml").write_text(yaml.safe_dump(config))
    monkeypatch.chdir(work)
    return tmp_path


@pytest.mark.parametrize("run_id", ["..", ".", "../x", "a/../../b", "a/b", "/abs", "a\\b", "..hidden", ""])
def test_path_like_run_ids_are_refused(
    run_id: str, workspace: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    if run_id == "/abs":
        run_id = str(workspace / "abs")
    before = _tree(workspace)
    code = main(["run", "run.yaml", "--quiet", "--run-id", run_id])
    err = capsys.readouterr().err
    assert code == 2 and "plain name" in err and "Traceback" not in err
    assert _tree(workspace) == before


def test_a_good_run_writes_only_inside_its_run_directory(workspace: Path) -> None:
    before = _tree(workspace)
    assert main(["run", "run.yaml", "--quiet", "--run-id", "ok.1_a-b"]) == 0
    after = _tree(workspace)
    # the working folder's own mtime changes when runs/ is made in it; nothing else outside runs/
    changed = {p for p in after if before.get(p) != after[p]} - {"outer/work"}
    assert changed and all(p.startswith("outer/work/runs") for p in changed), sorted(changed)
    assert all(p in after for p in before)  # nothing removed
