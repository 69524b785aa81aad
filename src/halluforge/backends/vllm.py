"""vLLM's offline engine (``vllm.LLM``) in this process, with whole batches (extra ``vllm``).

Addressed as ``vllm/<hub id or local folder>`` (``vllm/HuggingFaceTB/SmolLM2-135M-Instruct``,
``vllm//models/llama-3-8b``). The engine is created on the first call, in a worker thread,
with the options below (checked by :class:`VLLMOptions`, unknown keys rejected), and keeps
the GPU for the rest of the run. Each call hands vLLM a whole list of requests
(``batch_size``, 256 by default): vLLM schedules them with continuous batching, which is where
its throughput comes from. Chat messages go through the model's chat template
(``LLM.chat``); ``chat: false`` sends the flattened text to ``LLM.generate`` instead.

Request fields map to ``SamplingParams``: ``max_tokens``, ``temperature``, ``top_p``, ``seed``,
``stop``, and ``logprobs=0`` (the sampled token's log-probability only) when the request asks
for log-probabilities, returned as ``tokens`` / ``token_logprobs``.

Errors, mapped with a fix in the message: vLLM missing (it needs a CUDA GPU and a CUDA build
of torch: this project's CI and development machines have neither, so this backend has never
run here), model not found, out of GPU memory (at load or while generating), and a prompt
longer than ``max_model_len`` (that request alone becomes a
:class:`~halluforge.errors.ContextLengthError` completion; the rest of the batch is answered).
"""

from __future__ import annotations

import asyncio
import importlib.util
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pydantic import Field

from halluforge.backends.base import (
    Backend,
    BackendOptions,
    Capabilities,
    ModelSpec,
    error_completion,
    messages_to_prompt,
    parse_options,
)
from halluforge.errors import BackendError, ContextLengthError, HalluforgeError, ModelError
from halluforge.records import Completion, Request, Usage

_INSTALL_HINT = (
    'pip install "halluforge[vllm]" on a machine with a CUDA GPU (vLLM brings a CUDA build of torch)'
)

_OOM_PHRASES = ("out of memory", "no available memory for the cache blocks", "not enough memory")
_NOT_FOUND_PHRASES = ("not found", "does not appear to have", "is not a local folder", "no such file")
_TOO_LONG_PHRASES = ("longer than the maximum model length", "maximum context length")


class VLLMOptions(BackendOptions):
    """Options under ``backends.vllm``: the engine arguments users need, and our batching."""

    tensor_parallel_size: int = Field(default=1, ge=1, description="GPUs one engine spans")
    gpu_memory_utilization: float = Field(
        default=0.9, gt=0, le=1, description="share of GPU memory vLLM takes"
    )
    max_model_len: int | None = Field(
        default=None, ge=16, description="context length (default: the model's)"
    )
    dtype: str = Field(default="auto", description="auto, float16, bfloat16, float32")
    quantization: str | None = Field(default=None, description="awq, gptq, fp8, ... (default: none)")
    trust_remote_code: bool = False
    enforce_eager: bool = Field(default=False, description="skip CUDA graphs (less memory, slower)")
    seed: int = Field(default=0, description="the engine's seed (each request also carries its own)")
    batch_size: int = Field(default=256, ge=1, description="requests handed to vLLM per call")
    chat: bool = Field(default=True, description="apply the model's chat template (LLM.chat)")


def engine_kwargs(model: str, options: VLLMOptions) -> dict[str, Any]:
    """The keyword arguments of ``vllm.LLM(...)`` for ``model`` under ``options``."""
    kwargs: dict[str, Any] = {
        "model": model,
        "tensor_parallel_size": options.tensor_parallel_size,
        "gpu_memory_utilization": options.gpu_memory_utilization,
        "dtype": options.dtype,
        "trust_remote_code": options.trust_remote_code,
        "enforce_eager": options.enforce_eager,
        "seed": options.seed,
    }
    if options.max_model_len is not None:
        kwargs["max_model_len"] = options.max_model_len
    if options.quantization is not None:
        kwargs["quantization"] = options.quantization
    return kwargs


def sampling_params(vllm: Any, request: Request) -> Any:
    """``vllm.SamplingParams`` for one request (``vllm`` is the module, passed in so tests can check it)."""
    return vllm.SamplingParams(
        max_tokens=request.max_tokens,
        temperature=request.temperature,
        top_p=request.top_p,
        seed=request.seed,
        stop=list(request.stop) or None,
        logprobs=0 if request.logprobs else None,
    )


def load_error(exc: BaseException, model: str, options: VLLMOptions) -> ModelError:
    """What went wrong creating the engine, with the fix."""
    text = f"{type(exc).__name__}: {exc}"
    lowered = text.lower()
    if "outofmemory" in type(exc).__name__.lower() or any(p in lowered for p in _OOM_PHRASES):
        return ModelError(
            f"vLLM ran out of GPU memory loading {model}: {exc}",
            hint=(
                f"lower backends.vllm.gpu_memory_utilization (now {options.gpu_memory_utilization}) or "
                "max_model_len, use a quantized model, or raise tensor_parallel_size"
            ),
        )
    if isinstance(exc, FileNotFoundError) or any(p in lowered for p in _NOT_FOUND_PHRASES):
        return ModelError(
            f"vLLM cannot find the model {model!r}: {exc}",
            hint="give a local folder with config.json and weights, or a hub id this machine can download",
        )
    return ModelError(f"vLLM could not load {model}: {text}", hint="see vLLM's message above for the cause")


def request_error(exc: BaseException) -> BackendError:
    """What went wrong answering one request."""
    text = str(exc) or type(exc).__name__
    lowered = text.lower()
    if any(p in lowered for p in _TOO_LONG_PHRASES):
        return ContextLengthError(
            f"prompt too long: {text}", hint="shorten the context or raise backends.vllm.max_model_len"
        )
    if "outofmemory" in type(exc).__name__.lower() or any(p in lowered for p in _OOM_PHRASES):
        return BackendError(
            f"vLLM ran out of GPU memory: {text}",
            hint="lower backends.vllm.batch_size or max_tokens, or raise tensor_parallel_size",
        )
    return BackendError(f"{type(exc).__name__}: {text}")


def to_completion(request: Request, output: Any, started: float) -> Completion:
    """A completion from one ``vllm.RequestOutput``."""
    best = output.outputs[0]
    tokens: list[str] | None = None
    logprobs: list[float] | None = None
    if request.logprobs and best.logprobs is not None:
        tokens, logprobs = [], []
        for token_id, position in zip(best.token_ids, best.logprobs, strict=False):
            chosen = position[token_id]
            tokens.append(chosen.decoded_token or "")
            logprobs.append(float(chosen.logprob))
    return Completion(
        request_id=request.id,
        text=best.text,
        tokens=tokens,
        token_logprobs=logprobs,
        usage=Usage(prompt_tokens=len(output.prompt_token_ids or []), completion_tokens=len(best.token_ids)),
        finish_reason=best.finish_reason,
        latency_s=time.perf_counter() - started,
    )


def import_vllm() -> Any:
    """The ``vllm`` module, or a :class:`ModelError` saying what it needs."""
    try:
        import vllm
    except ImportError as exc:
        raise ModelError("the vllm backend needs vLLM, which is not installed", hint=_INSTALL_HINT) from exc
    return vllm


class VLLMBackend(Backend):
    """One ``vllm.LLM`` engine; each call is one batch on it (calls run one at a time)."""

    def __init__(self, spec: ModelSpec, options: dict[str, Any]) -> None:
        self.spec = spec
        self.options = parse_options("vllm", VLLMOptions, options)
        self.capabilities = Capabilities(
            logprobs=True,
            max_context=self.options.max_model_len,
            batch_size=self.options.batch_size,
            concurrency=1,
        )
        self._engine: Any = None
        self._lock = threading.Lock()

    def output_fields(self) -> dict[str, Any]:
        """Engine options that change outputs (precision, quantization, context, template)."""
        return {
            "dtype": self.options.dtype,
            "quantization": self.options.quantization,
            "max_model_len": self.options.max_model_len,
            "chat": self.options.chat,
        }

    def _load(self) -> Any:
        with self._lock:
            if self._engine is None:
                vllm = import_vllm()
                try:
                    self._engine = vllm.LLM(**engine_kwargs(self.spec.model, self.options))
                except HalluforgeError:
                    raise
                except Exception as exc:
                    raise load_error(exc, self.spec.model, self.options) from exc
            return self._engine

    def _run(self, engine: Any, requests: Sequence[Request]) -> list[Any]:
        vllm = import_vllm()
        params = [sampling_params(vllm, r) for r in requests]
        if self.options.chat:
            conversations = [[m.model_dump() for m in r.messages] for r in requests]
            return list(engine.chat(conversations, params, use_tqdm=False))
        prompts = [messages_to_prompt(r.messages) for r in requests]
        return list(engine.generate(prompts, params, use_tqdm=False))

    def _answer(self, requests: Sequence[Request]) -> list[Completion]:
        """Answer the batch; when vLLM rejects it, answer one by one so one bad prompt fails alone."""
        engine = self._load()
        started = time.perf_counter()
        try:
            outputs = self._run(engine, requests)
            return [to_completion(r, o, started) for r, o in zip(requests, outputs, strict=True)]
        except Exception as exc:
            if len(requests) == 1:
                return [error_completion(requests[0], request_error(exc))]
        return [c for r in requests for c in self._answer([r])]

    async def generate(self, requests: Sequence[Request]) -> list[Completion]:
        if not requests:
            return []
        return await asyncio.to_thread(self._answer, list(requests))

    async def aclose(self) -> None:
        self._engine = None


def create(spec: ModelSpec, options: dict[str, Any]) -> Backend:
    """Factory registered as ``vllm``; without vLLM, or with a missing local folder, it fails here, early."""
    backend = VLLMBackend(spec, options)
    if importlib.util.find_spec("vllm") is None:
        raise ModelError("the vllm backend needs vLLM, which is not installed", hint=_INSTALL_HINT)
    path = Path(spec.model).expanduser()
    if spec.model.startswith(("/", "./", "../", "~")) and not path.is_dir():
        raise ModelError(
            f"vLLM model folder not found: {path}",
            hint="give an existing folder with config.json and weights, or a hub id (vllm/org/name)",
        )
    return backend


def check(spec: ModelSpec, options: dict[str, Any]) -> None:
    """Raise what :func:`create` would (no SDK, bad option, missing key or folder); creating loads nothing."""
    create(spec, options)


__all__ = [
    "VLLMBackend",
    "VLLMOptions",
    "check",
    "create",
    "engine_kwargs",
    "import_vllm",
    "load_error",
    "request_error",
    "sampling_params",
    "to_completion",
]
