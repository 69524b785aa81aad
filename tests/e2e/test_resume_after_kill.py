"""Kill the CLI during the answer stage, run it again: it resumes without duplicates."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import yaml
from e2e_support import stored_responses

from halluforge.records import Response, TestCase
from halluforge.store import RunStore


def test_kill_during_answer_then_resume(tmp_path: Path) -> None:
    config = {
        "run_id": "killme",
        "output_dir": str(tmp_path / "runs"),
        "data": [{"loader": "bundled", "limit": 20}],
        "models": {"generator": "mock/echo", "targets": ["mock/echo"]},
        "backends": {"mock": {"delay_s": 0.02, "batch_size": 1}},
        "score": {"bootstrap": 20},
        # the test is about resuming: no MiniLM load (answer_swap neighbours) before the first response
        "families": {"answer_swap": {"neighbours": False}},
    }
    path = tmp_path / "run.yaml"
    path.write_text(yaml.safe_dump(config))
    env = {**os.environ, "HALLUFORGE_CACHE_DIR": str(tmp_path / "cache")}
    command = [sys.executable, "-m", "halluforge.cli.main", "run", str(path), "--quiet", "--no-cache"]
    db = tmp_path / "runs" / "killme" / "store.sqlite"
    process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.time() + 120
    while time.time() < deadline and stored_responses(db) < 10:
        time.sleep(0.05)
    process.send_signal(signal.SIGKILL)
    process.wait()
    partial = stored_responses(db)
    assert partial >= 10, process.stderr.read().decode() if process.stderr else ""
    finished = subprocess.run(command, env=env, capture_output=True, text=True, timeout=300)
    assert finished.returncode == 0, finished.stderr
    store = RunStore(db.parent)
    responses = store.all(Response)
    cases = [c for c in store.all(TestCase) if c.valid]
    assert partial < len(responses)
    keys = [(r.test_case_id, r.model, r.setting) for r in responses]
    assert len(keys) == len(set(keys)), "a (test case, model, setting) was answered twice"
    assert len(responses) == len(cases) * 4
    assert all(r.error is None for r in responses)
