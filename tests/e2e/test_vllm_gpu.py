"""vLLM on a GPU: the main job with ``vllm/<model>`` against ``hf/<model>`` (NEVER RUN HERE).

Runs only where vLLM is installed and torch sees a CUDA GPU; this project's development and CI
machines have neither, so this test has not been run by us (see docs/scaling.md). The model
is ``HALLUFORGE_GPU_MODEL`` (a hub id or local folder; default SmolLM2-135M-Instruct, the same
model the embedded llama.cpp default runs) in every role. Target: the whole main job at least 5x faster on
vLLM than on transformers, with every response answered.
"""

from __future__ import annotations

import importlib.util
import os
import time
from pathlib import Path

import pytest

from extra_skips import reason
from halluforge.config import load_config
from halluforge.pipeline import run_pipeline
from halluforge.records import Response
from halluforge.store import RunStore


def _has_gpu() -> bool:
    if importlib.util.find_spec("vllm") is None or importlib.util.find_spec("torch") is None:
        return False
    import torch

    return bool(torch.cuda.is_available())


pytestmark = [
    pytest.mark.gpu,
    pytest.mark.slow,
    pytest.mark.skipif(not _has_gpu(), reason=reason("vllm", "vllm") + ", on a machine with a CUDA GPU"),
]

MODEL = os.environ.get("HALLUFORGE_GPU_MODEL", "HuggingFaceTB/SmolLM2-135M-Instruct")


def _answer_seconds(tmp_path: Path, target: str) -> tuple[float, list[Response]]:
    config = load_config(
        None,
        {
            "run_id": target.split("/", 1)[0],
            "output_dir": str(tmp_path),
            "models": {"generator": target, "targets": [target]},  # the whole main job on one engine
            "cache": {"enabled": False},
            "score": {"bootstrap": 0},
        },
        environ={},
    )
    started = time.perf_counter()
    result = run_pipeline(config)
    seconds = time.perf_counter() - started
    store = RunStore(result.run_dir)
    responses = [r for r in store.all(Response) if r.model == target]
    store.close()
    return seconds, responses


def test_vllm_answers_the_main_job_at_least_five_times_faster_than_hf(tmp_path: Path) -> None:
    hf_seconds, hf_responses = _answer_seconds(tmp_path, f"hf/{MODEL}")
    vllm_seconds, vllm_responses = _answer_seconds(tmp_path, f"vllm/{MODEL}")
    assert vllm_responses and all(r.error is None for r in vllm_responses)
    assert len(vllm_responses) == len(hf_responses)
    ratio = (len(vllm_responses) / vllm_seconds) / (len(hf_responses) / hf_seconds)
    print(
        f"ratio={ratio:.2f} vllm_s={vllm_seconds:.1f} hf_s={hf_seconds:.1f} responses={len(vllm_responses)}"
    )
    assert ratio >= 5
