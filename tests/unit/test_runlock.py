"""The run-directory lock in one process: exclusive, named, released, and checked again under the lock."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from halluforge.config import RunConfig
from halluforge.errors import ConfigError, RunLockedError
from halluforge.runlock import LOCK_FILE, RunLock, check_free


def test_one_holder_at_a_time(tmp_path: Path) -> None:
    run_dir = tmp_path / "out" / "runs" / "r1"
    check_free(run_dir)  # nothing there: free, and the probe creates nothing
    assert not (tmp_path / "out").exists()
    with RunLock(run_dir) as lock:
        assert lock.held and lock.created == tmp_path / "out"
        assert (run_dir / LOCK_FILE).read_text().strip() == str(os.getpid())
        with pytest.raises(RunLockedError, match=f"PID {os.getpid()}") as info:
            RunLock(run_dir).acquire()  # another open file: refused even in the same process
        assert info.value.pid == os.getpid() and "--new" in str(info.value)
        with pytest.raises(RunLockedError):
            check_free(run_dir)
    check_free(run_dir)
    assert (run_dir / LOCK_FILE).is_file()  # the file stays; only the lock goes
    with RunLock(run_dir) as again:
        assert again.created is None  # the folder was there already


def test_discard_removes_only_what_the_lock_created(tmp_path: Path) -> None:
    (tmp_path / "runs" / "old").mkdir(parents=True)
    lock = RunLock(tmp_path / "runs" / "new").acquire()
    (lock.run_dir / "store.sqlite").write_text("x")
    lock.discard()
    assert not (tmp_path / "runs" / "new").exists() and (tmp_path / "runs" / "old").is_dir()
    kept = RunLock(tmp_path / "runs" / "old").acquire()
    kept.discard()
    assert (tmp_path / "runs" / "old").is_dir()  # it existed before: kept


def _config(tmp_path: Path, seed: int) -> RunConfig:
    return RunConfig.model_validate(
        {
            "run_id": "race",
            "seed": seed,
            "output_dir": str(tmp_path / "runs"),
            "data": [{"loader": "bundled", "limit": 2}],
            "models": {"generator": "mock/echo", "targets": ["mock/echo"]},
            "answer": {"settings": ["closed_book"]},
            "score": {"bootstrap": 0},
            "cache": {"enabled": False},
            "families": {"answer_swap": {"neighbours": False}},
        }
    )


def test_the_config_is_checked_again_under_the_lock(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two runs start together: B passes its pre-flight check, then A runs to the end before B locks.

    B must then be refused by the check under the lock, and write nothing into A's directory.
    """
    import halluforge.preflight as preflight
    from halluforge.pipeline import run_pipeline

    first, second = _config(tmp_path, seed=0), _config(tmp_path, seed=1)
    real_check_run = preflight.check_run

    def check_then_lose_the_race(config: RunConfig) -> None:
        real_check_run(config)  # B's own pre-flight check passes: no manifest yet
        monkeypatch.setattr(preflight, "check_run", real_check_run)
        run_pipeline(first)  # meanwhile A runs and finishes

    monkeypatch.setattr(preflight, "check_run", check_then_lose_the_race)
    run_dir = tmp_path / "runs" / "race"
    with pytest.raises(ConfigError, match="different config"):
        run_pipeline(second)
    manifest = (run_dir / "manifest.json").read_text()
    assert '"seed": 0' in manifest and '"status": "finished"' in manifest
    check_free(run_dir)  # B let the lock go


def test_a_run_refused_before_its_first_stage_leaves_no_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import halluforge.pipeline as pipeline

    def broken(*args: object, **kwargs: object) -> object:
        raise ConfigError("cannot open the cache")

    monkeypatch.setattr(pipeline, "open_context", broken)
    with pytest.raises(ConfigError, match="cannot open the cache"):
        pipeline.run_pipeline(_config(tmp_path, seed=0))
    assert not (tmp_path / "runs").exists()
