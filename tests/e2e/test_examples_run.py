"""Every examples/*.yaml runs with the command its header gives, or exits 2 before writing anything.

Each example is run through the CLI exactly as its header's ``Run:`` line says, from the repo
root, with the models swapped for ``mock/echo`` and a ``--limit`` of 2 (what the example shows
survives: its families, settings, metrics and data; only the model's replies are scripted).
Either it exits 0 and prints the summary, or, when an extra it needs is not installed, it
exits 2 naming the install line and leaves no run folder and no cache behind.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from extra_skips import hide
from halluforge.cli.main import main
from halluforge.requirements import missing_extras

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "examples").glob("*.yaml"))
#: extras and packages each example needs beyond the core install (from its header's Needs line)
RUN_LINE = re.compile(r"Run(?: from the repo root)?:\s+halluforge (run \S+)")


def header_command(path: Path) -> list[str]:
    """The ``halluforge ...`` arguments of the example's ``Run:`` header line."""
    header = "".join(
        line[1:] for line in path.read_text(encoding="utf-8").splitlines() if line.startswith("#")
    )
    found = RUN_LINE.search(" ".join(header.split()))
    assert found, f"{path.name}: no 'Run:  halluforge run examples/...' line in its header"
    return found.group(1).split()


def needs_line(path: Path) -> str:
    header = " ".join(
        line[1:] for line in path.read_text(encoding="utf-8").splitlines() if line.startswith("#")
    )
    found = re.search(r"Needs: (pip install [^.]*?\"halluforge\[[^\]]+\]\"[^.(]*)", " ".join(header.split()))
    assert found, f"{path.name}: no 'Needs: pip install ...' line in its header"
    return found.group(1).strip()


def mock_overrides(name: str, tmp_path: Path) -> list[str]:
    """Mock models, two inputs, a short bootstrap; and what one example needs to stay offline and small."""
    args = [
        "--output-dir", str(tmp_path / "runs"),
        "--generator", "mock/echo",
        "--targets", "mock/echo",
        "--limit", "2",
        "--set", "score.bootstrap=20",
    ]  # fmt: skip
    if name == "invite.yaml":
        args += ["--set", "models.judge=mock/echo", "--set", "families.false_premise.per_predicate=1"]
    return args


def test_every_example_has_a_run_and_a_needs_line() -> None:
    for path in EXAMPLES:
        assert header_command(path) == ["run", f"examples/{path.name}"], path.name
        assert needs_line(path).startswith("pip install"), path.name


def _run(path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, extra: list[str]) -> int:
    monkeypatch.chdir(ROOT)  # headers say: run from the repo root
    monkeypatch.setenv("HALLUFORGE_CACHE_DIR", str(tmp_path / "cache"))
    return main([*header_command(path), *mock_overrides(path.name, tmp_path), *extra])


@pytest.mark.parametrize(
    "path", [p for p in EXAMPLES if p.name != "context_enrich.yaml"], ids=lambda p: p.name
)
def test_example_runs_from_its_header_command(
    path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code = _run(path, tmp_path, monkeypatch, [])
    out, err = capsys.readouterr()
    if code == 2:  # an extra is missing here: refused before anything was written, with the line
        assert "pip install" in err and not (tmp_path / "runs").exists(), err
        return
    assert code == 0, err
    assert "report: " in out and "halluforge view " in out
    assert "No scores in this run." not in out, out


def test_context_enrich_example_runs_on_a_small_index(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The example's point (retrieved passages merged into the evidence) on a 5-passage BM25 index."""
    path = ROOT / "examples" / "context_enrich.yaml"
    if missing_extras(["retrieval"]):
        code = _run(path, tmp_path, monkeypatch, [])
        assert code == 2 and 'pip install "halluforge[retrieval]"' in capsys.readouterr().err
        assert not (tmp_path / "runs").exists()
        return
    import json

    from halluforge.retrieval import build_index
    from halluforge.retrieval.corpus import Passage

    demos = ROOT / "src" / "halluforge" / "data" / "bundled" / "demos.jsonl"
    rows = [json.loads(line) for line in demos.read_text(encoding="utf-8").splitlines() if line.strip()]
    passages = [Passage(id=r["id"], title=r.get("title") or r["id"], text=r["evidence"]) for r in rows]
    build_index(passages, kind="bm25", out=tmp_path / "index")
    index = ["--set", f"families.context_enrich.index={tmp_path / 'index'}"]
    code = _run(path, tmp_path, monkeypatch, index)
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "report: " in out


def test_an_example_missing_an_extra_exits_2_before_writing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    hide(monkeypatch, "sacrebleu")  # recall.yaml scores BLEU
    code = _run(ROOT / "examples" / "recall.yaml", tmp_path, monkeypatch, [])
    err = capsys.readouterr().err
    assert code == 2
    assert "the bleu metric needs the text-metrics extra (sacrebleu not installed)" in err
    assert 'pip install "halluforge[text-metrics]"' in err
    assert "Traceback" not in err
    assert not (tmp_path / "runs").exists() and not (tmp_path / "cache").exists()
