"""Two real processes on one run directory: the second is refused at once, naming the first's PID.

The first process is a real ``halluforge run`` whose mock model takes ten minutes per answer,
so it sits in the select stage holding the lock until the test kills it (by its PID). The
second process is refused with exit 2 and one ``error:`` line, whether its config is the same
(it would ask every model again) or different (its responses would mix into the store); it
writes nothing. After the first process is killed with SIGKILL the kernel has released the
lock: a third process gets the directory (the same config: ``halluforge report`` runs on it;
another config: the usual "made with a different config" refusal, no longer "in use").
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from halluforge.errors import RunLockedError
from halluforge.runlock import LOCK_FILE, check_free

#: long enough that the first run never leaves the select stage before it is killed
SLOW_S = 600


def _config(tmp_path: Path, name: str, seed: int) -> Path:
    config: dict[str, Any] = {
        "run_id": "shared",
        "seed": seed,
        "output_dir": str(tmp_path / "runs"),
        "data": [{"loader": "bundled", "limit": 2}],
        "models": {"generator": "mock/echo", "targets": ["mock/echo"]},
        "backends": {"mock": {"delay_s": SLOW_S, "batch_size": 1}},
        "answer": {"settings": ["closed_book"]},
        "score": {"bootstrap": 0},
        "families": {"answer_swap": {"neighbours": False}},
    }
    path = tmp_path / name
    path.write_text(yaml.safe_dump(config))
    return path


def _stages_finished(run_dir: Path) -> list[str]:
    try:
        manifest = json.loads((run_dir / "manifest.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):  # not written yet, or being written
        return []
    return list(manifest.get("stages_finished", []))


def _command(*args: str) -> list[str]:
    return [sys.executable, "-m", "halluforge.cli.main", *args]


def _env(tmp_path: Path) -> dict[str, str]:
    return {**os.environ, "HALLUFORGE_CACHE_DIR": str(tmp_path / "cache")}


@pytest.fixture
def holder(tmp_path: Path) -> Iterator[subprocess.Popen[bytes]]:
    """A real run of config A, started and waited for until it holds the lock; killed at the end."""
    config = _config(tmp_path, "a.yaml", seed=0)
    process = subprocess.Popen(
        _command("run", str(config), "--quiet", "--no-cache"),
        env=_env(tmp_path),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    run_dir = tmp_path / "runs" / "shared"
    try:
        deadline = time.monotonic() + 180  # a bound on waiting, not a timing assertion
        while time.monotonic() < deadline and process.poll() is None:
            try:
                check_free(run_dir)
            except RunLockedError as exc:
                if exc.pid == process.pid and "load" in _stages_finished(run_dir):
                    break  # selecting now, where it waits on the slow mock model
            time.sleep(0.05)
        else:
            err = process.stderr.read().decode() if process.stderr and process.poll() is not None else ""
            pytest.fail(f"the first run never held the lock (exit {process.poll()}): {err}")
        yield process
    finally:
        if process.poll() is None:
            os.kill(process.pid, signal.SIGKILL)
        process.wait()
        if process.stderr:
            process.stderr.close()


def _listing(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def _refused(result: subprocess.CompletedProcess[str]) -> str:
    """The one error line of a refused command (exit 2, no traceback)."""
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr
    lines = [line for line in result.stderr.splitlines() if line.startswith("error:")]
    assert len(lines) == 1, result.stderr
    return lines[0]


@pytest.mark.parametrize("second", ["same config", "different config"])
def test_a_second_process_is_refused_naming_the_holder(
    second: str, holder: subprocess.Popen[bytes], tmp_path: Path
) -> None:
    run_dir = tmp_path / "runs" / "shared"
    config = _config(tmp_path, "b.yaml", seed=0 if second == "same config" else 1)
    manifest_before = (run_dir / "manifest.json").read_text()
    names_before = set(_listing(run_dir))

    result = subprocess.run(
        _command("run", str(config), "--quiet", "--no-cache"),
        env=_env(tmp_path),
        capture_output=True,
        text=True,
        timeout=300,
    )

    line = _refused(result)
    assert f"PID {holder.pid}" in line and "in use" in line and str(run_dir) in line
    assert holder.poll() is None, "the first run must still be running"
    assert (run_dir / "manifest.json").read_text() == manifest_before  # still the first run's
    assert set(_listing(run_dir)) == names_before
    assert (run_dir / LOCK_FILE).read_text().strip() == str(holder.pid)


def test_the_lock_goes_with_a_killed_process(holder: subprocess.Popen[bytes], tmp_path: Path) -> None:
    run_dir = tmp_path / "runs" / "shared"
    other = _config(tmp_path, "b.yaml", seed=1)
    before = subprocess.run(
        _command("run", str(other), "--quiet", "--no-cache"),
        env=_env(tmp_path),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert f"PID {holder.pid}" in _refused(before)

    os.kill(holder.pid, signal.SIGKILL)
    holder.wait()
    check_free(run_dir)  # the kernel released it: no stale lock

    after = subprocess.run(
        _command("run", str(other), "--quiet", "--no-cache"),
        env=_env(tmp_path),
        capture_output=True,
        text=True,
        timeout=300,
    )
    line = _refused(after)
    assert "different config" in line and "in use" not in line
    report = subprocess.run(
        _command("report", str(run_dir)), env=_env(tmp_path), capture_output=True, text=True, timeout=300
    )
    assert report.returncode == 0, report.stderr
    assert (run_dir / "summary.json").is_file()
