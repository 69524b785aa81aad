"""Kill -9 the CLI ten times at seeded random points of every stage, then let it finish: the
store equals an uninterrupted run's (same ids, texts and scores, one row per key).

Each kill targets a stage: the test waits until the manifest lists the stage before it as
finished (a resumed run passes through finished stages quickly), waits a seeded random moment
more, and sends SIGKILL. The mock backend answers after a short delay, so every stage takes a
moment. The stages the kills landed in are read from the manifest and reported.
"""

from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import yaml

from halluforge.store import KINDS

STAGES = ("load", "select", "forge", "answer", "score", "report")
#: the stage each of the ten kills aims at (the moment is random within it)
TARGETS = ("select", "forge", "answer", "answer", "score", "forge", "answer", "score", "report", "answer")
#: fields that may differ between two runs of the same config (wall time, cache hits)
VOLATILE = {"latency_s", "cached"}


def _config(tmp_path: Path) -> Path:
    config = {
        "output_dir": str(tmp_path / "runs"),
        "data": [{"loader": "bundled", "limit": 12}],
        "models": {"generator": "mock/echo", "targets": ["mock/echo", "mock/const:Paris"]},
        "answer": {"settings": ["closed_book", "open_book"]},
        "backends": {"mock": {"delay_s": 0.05, "batch_size": 1}},
        "score": {"bootstrap": 50},
    }
    path = tmp_path / "run.yaml"
    path.write_text(yaml.safe_dump(config))
    return path


def _command(config: Path, run_id: str) -> list[str]:
    return [
        sys.executable,
        "-m",
        "halluforge.cli.main",
        "run",
        str(config),
        "--quiet",
        "--no-cache",
        "--run-id",
        run_id,
    ]


def _finished(manifest: Path) -> list[str]:
    try:
        return list(json.loads(manifest.read_text(encoding="utf-8")).get("stages_finished", []))
    except (OSError, ValueError):
        return []


def _stage_at_kill(manifest: Path) -> str:
    """The stage that was running: the one after the last finished (or load)."""
    finished = _finished(manifest)
    return STAGES[len(finished)] if len(finished) < len(STAGES) else "done"


def _rows(db: Path) -> dict[str, dict[str, Any]]:
    """Every stored record by kind and id, without volatile fields; asserts one row per id."""
    out: dict[str, dict[str, Any]] = {}
    with sqlite3.connect(db) as conn:
        for kind in KINDS:
            rows = conn.execute(f"SELECT id, data FROM {kind}").fetchall()
            ids = [row[0] for row in rows]
            assert len(ids) == len(set(ids))
            out[kind] = {
                row_id: {k: v for k, v in json.loads(data).items() if k not in VOLATILE}
                for row_id, data in rows
            }
        out["done"] = {f"{s}|{k}": {} for s, k in conn.execute("SELECT stage, key FROM done")}
    return out


def test_ten_random_kills_then_resume_equals_an_uninterrupted_run(tmp_path: Path) -> None:
    config = _config(tmp_path)
    env = {**os.environ, "HALLUFORGE_CACHE_DIR": str(tmp_path / "cache")}
    reference = subprocess.run(
        _command(config, "whole"), env=env, capture_output=True, text=True, timeout=300
    )
    assert reference.returncode == 0, reference.stderr

    rng = random.Random(20261124)
    manifest = tmp_path / "runs" / "killed" / "manifest.json"
    landed: list[str] = []
    for target in TARGETS:
        before = STAGES[STAGES.index(target) - 1]
        process = subprocess.Popen(
            _command(config, "killed"), env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        deadline = time.monotonic() + 120
        while process.poll() is None and before not in _finished(manifest) and time.monotonic() < deadline:
            time.sleep(0.01)
        time.sleep(rng.uniform(0.0, 0.1))  # well inside a stage: each model stage takes ~0.3 s or more
        if process.poll() is None:
            landed.append(_stage_at_kill(manifest))
            process.send_signal(signal.SIGKILL)
        else:
            landed.append("done")
        process.wait(timeout=30)

    final = subprocess.run(_command(config, "killed"), env=env, capture_output=True, text=True, timeout=300)
    assert final.returncode == 0, final.stderr

    whole = _rows(tmp_path / "runs" / "whole" / "store.sqlite")
    killed = _rows(tmp_path / "runs" / "killed" / "store.sqlite")
    for kind in whole:
        assert killed[kind] == whole[kind], f"{kind} differ after kills in {landed}"
    assert whole["responses"] and whole["scores"]
    responses = list(whole["responses"].values())
    keys = [(r["test_case_id"], r["model"], r["setting"], r["turn"]) for r in responses]
    assert len(keys) == len(set(keys))
    summary = [
        json.loads((tmp_path / "runs" / run / "summary.json").read_text()) for run in ("whole", "killed")
    ]
    assert summary[0]["rows"] == summary[1]["rows"]
    assert _finished(manifest) == list(STAGES)
    # the kills hit the run while it was working, in several stages
    print("kills landed in", landed)
    assert sum(stage != "done" for stage in landed) >= 8, landed
    assert len(set(landed) - {"done"}) >= 3, landed
