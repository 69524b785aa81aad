"""The vllm backend's mapping of requests, options, outputs and errors.

vLLM cannot run here (no GPU, CUDA wheels). Two kinds of check:

- against vLLM's own code when the ``vllm`` package can be imported (its ``SamplingParams``
  and the parameter names of ``LLM.__init__``, read from its source): skipped otherwise;
- against ``vllm_standin`` (a STAND-IN module mirroring the few names we call, labelled as
  such) for the batching, output and error paths that need an engine.

The GPU throughput test is ``tests/e2e/test_vllm_gpu.py``.
"""

from __future__ import annotations

import ast
import asyncio
import importlib.util
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
import vllm_standin  # the STAND-IN beside this file (pytest puts this folder on sys.path)

from extra_skips import reason
from halluforge.backends import open_backend
from halluforge.backends.base import ModelSpec
from halluforge.backends.vllm import (
    VLLMOptions,
    create,
    engine_kwargs,
    load_error,
    request_error,
    sampling_params,
)
from halluforge.errors import ConfigError, ModelError
from halluforge.records import Completion, Message, Request

REAL_VLLM = importlib.util.find_spec("vllm") is not None and sys.modules.get("vllm") is not vllm_standin
NO_VLLM = reason("vllm", "vllm") + ", on a machine with a CUDA GPU"


def _ask(text: str, **kw: Any) -> Request:
    return Request(id=text[:20], messages=[Message(role="user", content=text)], **kw)


@pytest.fixture
def standin(monkeypatch: pytest.MonkeyPatch) -> Iterator[ModuleType]:
    """Put the STAND-IN in place of vLLM for one test."""
    monkeypatch.setitem(sys.modules, "vllm", vllm_standin)
    vllm_standin.LLM.instances.clear()
    yield vllm_standin


# -- against vLLM's own code (only where vLLM is installed) ------------------------------------


@pytest.mark.skipif(not REAL_VLLM, reason=NO_VLLM)
def test_sampling_params_are_vllms_own() -> None:
    import vllm
    from vllm import SamplingParams

    greedy = sampling_params(
        vllm, _ask("q", max_tokens=12, temperature=0.0, seed=7, stop=["\n"], logprobs=True)
    )
    assert isinstance(greedy, SamplingParams)
    assert (greedy.max_tokens, greedy.temperature, greedy.seed, greedy.stop, greedy.logprobs) == (
        12,
        0.0,
        7,
        ["\n"],
        0,
    )
    sampled = sampling_params(vllm, _ask("q", temperature=0.7, top_p=0.9))
    assert (sampled.temperature, sampled.top_p, sampled.logprobs) == (0.7, 0.9, None)


def _class_node(path: Path, name: str) -> ast.ClassDef:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    (node,) = (n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == name)
    return node


@pytest.mark.skipif(not REAL_VLLM, reason=NO_VLLM)
def test_engine_kwargs_are_arguments_vllms_llm_accepts() -> None:
    """Each name is a parameter of ``LLM.__init__`` or a field of ``EngineArgs`` (its ``**kwargs``)."""
    spec = importlib.util.find_spec("vllm")
    assert spec is not None and spec.origin is not None
    root = Path(spec.origin).parent
    (init,) = (
        n for n in _class_node(root / "entrypoints" / "llm.py", "LLM").body
        if isinstance(n, ast.FunctionDef) and n.name == "__init__"
    )  # fmt: skip
    engine_args = _class_node(root / "engine" / "arg_utils.py", "EngineArgs")
    names = {a.arg for a in init.args.args + init.args.kwonlyargs}
    names |= {
        n.target.id
        for n in engine_args.body
        if isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name)
    }
    options = VLLMOptions(max_model_len=4096, quantization="awq", tensor_parallel_size=2)
    assert set(engine_kwargs("m", options)) <= names


# -- against the STAND-IN --------------------------------------------------------------------


def _run(backend: Any, requests: list[Request]) -> list[Completion]:
    return list(asyncio.run(backend.generate(requests)))


def test_a_batch_goes_to_the_engine_in_one_call(standin: ModuleType) -> None:
    backend = open_backend(
        "vllm/org/tiny-model", {"gpu_memory_utilization": 0.5, "max_model_len": 64, "dtype": "bfloat16"}
    )
    requests = [_ask(f"question number {i} asks about rivers", max_tokens=3, logprobs=True) for i in range(5)]
    out = _run(backend, requests)
    (engine,) = standin.LLM.instances
    assert engine.model == "org/tiny-model"
    assert engine.kwargs["gpu_memory_utilization"] == 0.5
    assert engine.kwargs["max_model_len"] == 64
    assert engine.kwargs["dtype"] == "bfloat16"
    assert "quantization" not in engine.kwargs
    assert engine.calls == [("chat", 5)]
    assert [c.text for c in out] == ["asks about rivers"] * 5
    assert out[0].tokens == ["asks", "about", "rivers"]
    assert out[0].token_logprobs == [-0.5, -0.5, -0.5]
    assert out[0].finish_reason == "length"
    assert out[0].usage.completion_tokens == 3
    assert out[0].usage.prompt_tokens == 7  # "user:" plus the six words, as the stand-in counts


def test_one_prompt_too_long_fails_alone(standin: ModuleType) -> None:
    backend = open_backend("vllm/org/tiny-model", {"max_model_len": 16, "chat": False})
    requests = [_ask("short one"), _ask("word " * 40), _ask("short two")]
    out = _run(backend, requests)
    assert [c.ok for c in out] == [True, False, True]
    assert out[1].error_type == "ContextLengthError"
    assert "max_model_len" in (out[1].error or "")
    assert standin.LLM.instances[0].calls[0] == ("generate", 3)


def test_load_failures_say_how_to_fix_them(standin: ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    class OutOfMemoryError(RuntimeError):
        """Named like torch.OutOfMemoryError."""

    def boom(model: str, **kwargs: Any) -> None:
        raise OutOfMemoryError("CUDA out of memory. Tried to allocate 2.00 GiB")

    monkeypatch.setattr(standin, "LLM", boom)
    backend = open_backend("vllm/org/big-model", {})
    with pytest.raises(ModelError, match="out of GPU memory") as info:
        _run(backend, [_ask("hi")])
    assert "gpu_memory_utilization" in str(info.value)


def test_error_mapping() -> None:
    options = VLLMOptions()
    missing = load_error(
        OSError("org/nope is not a local folder and is not a valid model identifier"), "m", options
    )
    assert "cannot find the model" in str(missing)
    too_long = request_error(
        ValueError("The decoder prompt (length 9000) is longer than the maximum model length of 4096.")
    )
    assert type(too_long).__name__ == "ContextLengthError"
    assert "raise backends.vllm.max_model_len" in str(too_long)


def test_options_are_checked() -> None:
    with pytest.raises(ConfigError, match="unknown vllm option 'gpu_mem'"):
        create(ModelSpec.parse("vllm/org/m"), {"gpu_mem": 0.5})
    with pytest.raises(ConfigError, match="gpu_memory_utilization"):
        create(ModelSpec.parse("vllm/org/m"), {"gpu_memory_utilization": 1.5})


def test_missing_local_folder_or_missing_vllm_is_a_model_error(standin: ModuleType, tmp_path: Path) -> None:
    with pytest.raises(ModelError, match="model folder not found"):
        create(ModelSpec.parse(f"vllm/{tmp_path}/absent"), {})


@pytest.mark.skipif(REAL_VLLM, reason="vLLM is installed here")
def test_without_vllm_the_error_names_the_gpu_requirement() -> None:
    with pytest.raises(ModelError, match="CUDA GPU"):
        create(ModelSpec.parse("vllm/org/m"), {})
