"""The Ray executor on a local Ray cluster (2 CPUs on 127.0.0.1, started and stopped here).

Kept to three tests because a Ray cluster and llama.cpp workers are heavy on a shared 2-core
machine: the main job's stages with two llama.cpp workers give the same rows as without Ray
(on the first 3 examples of the bundled sample), a worker killed mid-run costs nothing but a
resent batch, and HTTP backends never leave the driver.
"""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from extra_skips import reason, require

pytest.importorskip("ray", reason=reason("ray", "ray"))

import ray
from e2e_support import stored_responses

from halluforge.config import RunConfig, load_config
from halluforge.executor_ray import RayExecutor
from halluforge.pipeline import run_pipeline
from halluforge.records import Response, SeedCase, Skip, TestCase
from halluforge.store import RunStore


@pytest.fixture(scope="module")
def ray_cluster() -> Iterator[None]:
    if ray.is_initialized():
        pytest.skip("a Ray session is already open in this process")
    ray.init(
        address="local",
        num_cpus=2,
        include_dashboard=False,
        log_to_driver=False,
        _node_ip_address="127.0.0.1",
    )
    try:
        yield
    finally:
        ray.shutdown()


@pytest.fixture
def smollm2() -> None:
    require("llamacpp", "llama_cpp")
    from halluforge.backends.llama_cpp import smollm2_path
    from halluforge.errors import ModelError

    try:
        smollm2_path()
    except ModelError as exc:
        pytest.skip(str(exc))


def _config(out: Path, kind: str, **extra: Any) -> RunConfig:
    data: dict[str, Any] = {
        "run_id": "same",
        "output_dir": str(out),
        "score": {"bootstrap": 0},
        "cache": {"enabled": False},
        "executor": {"kind": kind, "workers": 2, "resources_per_worker": {"CPU": 1}},
    }
    data.update(extra)
    return load_config(None, data, environ={})


def _rows(run_dir: Path) -> dict[str, dict[str, dict[str, Any]]]:
    """Every stored row by kind and id, without the timings that differ from run to run."""
    store = RunStore(run_dir)
    try:
        return {
            kind.__name__: {r.id: r.model_dump(exclude={"latency_s"}) for r in store.iter(kind)}
            for kind in (SeedCase, TestCase, Skip, Response)
        }
    finally:
        store.close()


@pytest.mark.slow
@pytest.mark.llamacpp
def test_main_job_on_two_llamacpp_workers_stores_the_same_rows(
    ray_cluster: None, tmp_path: Path, smollm2: None
) -> None:
    """The main job (answer_swap on the bundled sample with SmolLM2), first 3 examples, 2 settings."""
    job = {
        "data": [{"loader": "bundled", "limit": 3}],
        # one single-thread engine per worker: two workers on two cores, and the same float order as locally
        "backends": {"llamacpp": {"workers": 1, "n_threads": 1}},
        "answer": {"settings": ["closed_book", "open_book"]},
    }
    run_pipeline(_config(tmp_path / "local", "local", **job))
    executor = RayExecutor(_config(tmp_path, "ray").executor, job["backends"])
    run_pipeline(_config(tmp_path / "ray", "ray", **job), executor=executor)
    local, remote = _rows(tmp_path / "local" / "same"), _rows(tmp_path / "ray" / "same")
    assert local["SeedCase"] and local["Response"]
    assert executor.stats.workers_started == 2
    assert executor.stats.workers_lost == 0
    for kind in local:
        assert remote[kind].keys() == local[kind].keys(), kind
        for row_id, row in local[kind].items():
            assert remote[kind][row_id] == row, (kind, row_id)


def test_killing_a_worker_mid_run_loses_nothing(ray_cluster: None, tmp_path: Path) -> None:
    """SIGKILL one worker's process during the answer stage: its batch is resent, every key once."""
    job: dict[str, Any] = {
        "data": [{"loader": "bundled", "limit": 12}],
        "models": {"generator": "mock/echo", "targets": ["mock/echo"]},
        # mock engines on the workers, slow enough that every worker always has a batch in flight
        "backends": {"mock": {"delay_s": 0.15, "batch_size": 2}},
    }
    run_pipeline(_config(tmp_path / "local", "local", **job))
    expected = _rows(tmp_path / "local" / "same")["Response"]
    assert len(expected) > 30
    config = _config(
        tmp_path / "ray",
        "ray",
        executor={
            "kind": "ray",
            "workers": 2,
            "resources_per_worker": {"CPU": 0.5},
            "engines": ["mock"],
            "slots_per_worker": 1,
        },
        **job,
    )
    executor = RayExecutor(config.executor, job["backends"])
    db = tmp_path / "ray" / "same" / "store.sqlite"
    killed: list[int] = []

    def kill_one_worker() -> None:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and stored_responses(db) < 6:
            time.sleep(0.02)
        pids = executor.worker_pids()
        if pids:
            os.kill(pids[0], signal.SIGKILL)
            killed.append(pids[0])

    killer = threading.Thread(target=kill_one_worker)
    killer.start()
    try:
        run_pipeline(config, executor=executor)
    finally:
        killer.join()
    assert killed, "no worker was running when the killer looked"
    assert executor.stats.workers_lost == 1
    assert executor.stats.batches_retried >= 1
    assert executor.stats.workers_started == 3  # two, then one replacement
    store = RunStore(db.parent)
    responses = store.all(Response)
    store.close()
    keys = [(r.test_case_id, r.model, r.setting, r.turn) for r in responses]
    assert len(keys) == len(set(keys)), "a key was answered twice"
    assert {r.id for r in responses} == set(expected), "a key is missing"
    assert all(r.error is None for r in responses)
    assert {r.id: r.text for r in responses} == {i: r["text"] for i, r in expected.items()}


def test_http_backends_stay_in_the_driver(ray_cluster: None, tmp_path: Path) -> None:
    """A run whose models are all outside ``executor.engines`` starts no worker at all."""
    job: dict[str, Any] = {
        "data": [{"loader": "bundled", "limit": 2}],
        "models": {"generator": "mock/echo", "targets": ["mock/echo"]},
    }
    config = _config(tmp_path, "ray", **job)
    executor = RayExecutor(config.executor, {})
    result = run_pipeline(config, executor=executor)
    assert result.counts["responses"] > 0
    assert executor.stats.workers_started == 0
