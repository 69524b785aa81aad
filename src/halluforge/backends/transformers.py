"""Hugging Face transformers backend (``hf``): any causal LM from a folder, a hub id or a GGUF file.

Addresses: ``hf//abs/path/to/folder``, ``hf/./relative/folder``, ``hf/org/model`` (a hub id;
needs internet the first time), ``hf//abs/path/model.gguf`` or ``hf/org/repo/model.gguf``
(transformers dequantises GGUF weights; this needs the ``gguf`` package). A GGUF file can also
be named with ``options["gguf_file"]`` next to a folder or hub id.

Requests are answered in batches (``options["batch_size"]``, default 8) with left padding,
so every row ends where generation starts. Requests in one list are grouped by their decoding
options (a batch shares one ``generate`` call); greedy when ``temperature`` is 0, sampled with
the request's seed otherwise. Sampled requests are generated one per call: torch draws every
row of a batch from one random stream, so batching them would make a sample depend on its
batch mates and break reproducibility (and the response cache's promise). The tokenizer's
chat template is used when it has one; without one the messages are joined as plain text.
Stop strings are trimmed from the output after generation. The model runs in one worker
thread under a lock, so the event loop stays free.

Options (checked by :class:`TransformersOptions`, unknown keys rejected): ``batch_size``,
``dtype`` (``float32`` by default: deterministic on CPU; ``auto``, ``bfloat16``, ``float16``),
``device`` (``cpu`` by default), ``max_new_tokens`` (a cap over every request's
``max_tokens``), ``gguf_file``, ``revision``, ``trust_remote_code``.

DoLa decoding (RECALL's inference-time mitigation) is asked for per request, by the ``dola``
setting (``Request.decoding == "dola"``): such a request is decoded greedily, one at a time,
with our own DoLa module (:mod:`halluforge.backends.dola`); the other requests of the run are
decoded as usual. The options tune it: ``dola_layers`` (``high`` by default, ``low`` or a list
of layer indices), ``dola_relative_top`` (default 0.1) and ``repetition_penalty`` (default
1.0). ``dola_remote: true`` uses the hub's ``transformers-community/dola`` code instead (needs
``trust_remote_code`` and the hub, so it fails offline). Other backends reject these options,
and a run refuses the ``dola`` setting for their targets.
"""

from __future__ import annotations

import asyncio
import importlib.util
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Literal

from pydantic import Field, PositiveInt, field_validator

from halluforge.backends.base import (
    Backend,
    BackendOptions,
    Capabilities,
    ModelSpec,
    error_completion,
    messages_to_prompt,
    parse_options,
)
from halluforge.errors import ConfigError, ContextLengthError, ModelError
from halluforge.records import Completion, Request, Usage


class TransformersOptions(BackendOptions):
    """Options under ``backends.hf`` (see the module docstring for what each one changes)."""

    batch_size: PositiveInt = Field(default=8, description="requests in one generate call")
    dtype: Literal["auto", "float32", "float16", "bfloat16"] = Field(
        default="float32", description="float32 on CPU gives deterministic outputs"
    )
    device: str = Field(default="cpu", description="torch device")
    max_new_tokens: int | None = Field(default=None, description="a cap over every request's max_tokens")
    gguf_file: str | None = Field(default=None, description="a GGUF file next to a folder or hub id")
    revision: str | None = Field(default=None, description="hub revision")
    trust_remote_code: bool = False
    timeout_s: float | None = Field(default=None, gt=0, description="accepted, ignored (in-process)")
    dola_layers: Literal["low", "high"] | list[int] = Field(
        default="high", description="'low', 'high' or a list of layer indices"
    )
    dola_relative_top: float = Field(default=0.1, description="DoLa's adaptive plausibility cut")
    repetition_penalty: float = Field(default=1.0, description="DoLa's repetition penalty")
    dola_remote: bool = Field(default=False, description="use the hub's transformers-community/dola")

    @field_validator("dola_layers", mode="before")
    @classmethod
    def _layers(cls, value: Any) -> Any:
        if value in ("low", "high") or (isinstance(value, list) and all(type(i) is int for i in value)):
            return value
        raise ValueError(
            f"must be 'low', 'high' or a list of layer indices, got {value!r} "
            "(for short answers the DoLa authors suggest 'high')"
        )


_INSTALL_HINT = (
    'pip install "halluforge[hf]" (on a CPU-only machine install the CPU build of torch first: '
    "pip install torch --index-url https://download.pytorch.org/whl/cpu)"
)


def _looks_local(model: str) -> bool:
    return model.startswith(("/", "./", "../", "~")) or Path(model).expanduser().exists()


def resolve_source(model: str, gguf_option: str | None = None) -> tuple[str, str | None]:
    """Split a model name into (folder or hub id, GGUF file name or None); check local paths exist."""
    if model.lower().endswith(".gguf"):
        path = Path(model).expanduser()
        if path.is_file():
            return str(path.resolve().parent), path.name
        if _looks_local(model):
            raise ModelError(
                f"GGUF model file not found: {path}",
                hint="give an existing .gguf file: hf//abs/path/model.gguf",
            )
        repo, _, filename = model.rpartition("/")
        if not repo:
            raise ModelError(
                f"GGUF model {model!r} names neither a local file nor a hub repository",
                hint="write hf//abs/path/model.gguf or hf/org/repo/model.gguf",
            )
        return repo, filename
    if _looks_local(model):
        path = Path(model).expanduser()
        if not path.is_dir():
            raise ModelError(
                f"model folder not found: {path}",
                hint="give a folder written by save_pretrained (config.json, weights, tokenizer files)",
            )
        return str(path.resolve()), gguf_option
    return model, gguf_option


def _check_installed() -> None:
    missing = [name for name in ("transformers", "torch") if importlib.util.find_spec(name) is None]
    if missing:
        raise ModelError(f"the hf backend needs {' and '.join(missing)}, not installed", hint=_INSTALL_HINT)


def _dtype_kwargs(transformers: Any, torch: Any, dtype: str) -> dict[str, Any]:
    """The dtype argument under the name this transformers version expects."""
    value = "auto" if dtype == "auto" else getattr(torch, dtype)
    major, minor = (int(p) for p in transformers.__version__.split(".")[:2])
    return {"dtype": value} if (major, minor) >= (4, 56) else {"torch_dtype": value}


def trim_at_stop(text: str, stops: Sequence[str]) -> tuple[str, bool]:
    """Cut ``text`` at the earliest stop string; say whether one was found."""
    cuts = [i for i in (text.find(s) for s in stops if s) if i >= 0]
    if not cuts:
        return text, False
    return text[: min(cuts)], True


class TransformersBackend(Backend):
    """A causal LM driven by ``model.generate`` in batches, on one worker thread."""

    def __init__(self, spec: ModelSpec, options: dict[str, Any]) -> None:
        opts = parse_options("hf", TransformersOptions, options)
        self.spec = spec
        self.source, self.gguf_file = resolve_source(spec.model, opts.gguf_file or None)
        self.dtype: str = opts.dtype
        self.device = opts.device
        self.batch_size = opts.batch_size
        self.max_new_tokens: int | None = opts.max_new_tokens
        self.revision: str | None = opts.revision or None
        self.trust_remote_code = opts.trust_remote_code
        self.dola = _dola_options(opts)
        self.capabilities = Capabilities(
            logprobs=True, max_context=None, batch_size=self.batch_size, concurrency=1
        )
        self._lock = threading.Lock()
        self._model: Any = None
        self._tokenizer: Any = None
        self._max_context: int | None = None

    def output_fields(self) -> dict[str, Any]:
        """What changes outputs besides the request: weights source, GGUF file, dtype, revision."""
        fields: dict[str, Any] = {
            "source": self.source,
            "gguf_file": self.gguf_file,
            "dtype": self.dtype,
            "revision": self.revision,
            "max_new_tokens": self.max_new_tokens,
        }
        if self.dola:
            fields["dola"] = dict(self.dola)
        weights = Path(self.source)
        if weights.is_dir():
            files = [weights / self.gguf_file] if self.gguf_file else sorted(weights.glob("*.safetensors"))
            fields["weights_bytes"] = sum(f.stat().st_size for f in files if f.is_file())
        return fields

    # -- engine (worker thread, under the lock) ------------------------------------------------

    def _load(self) -> tuple[Any, Any]:
        if self._model is not None:
            return self._model, self._tokenizer
        try:
            import torch
            import transformers
        except ImportError as exc:
            raise ModelError(f"the hf backend cannot import {exc.name}", hint=_INSTALL_HINT) from exc
        common: dict[str, Any] = {"trust_remote_code": self.trust_remote_code}
        if self.gguf_file:
            if importlib.util.find_spec("gguf") is None:
                raise ModelError(
                    "loading a GGUF file with transformers needs the gguf package", hint=_INSTALL_HINT
                )
            common["gguf_file"] = self.gguf_file
        if self.revision:
            common["revision"] = self.revision
        try:
            tokenizer: Any = transformers.AutoTokenizer.from_pretrained(self.source, **common)
            model: Any = transformers.AutoModelForCausalLM.from_pretrained(
                self.source, **common, **_dtype_kwargs(transformers, torch, self.dtype)
            )
        except (OSError, ValueError, ImportError) as exc:
            raise ModelError(
                f"transformers could not load {self.source!r}"
                + (f" (gguf_file={self.gguf_file})" if self.gguf_file else "")
                + f": {exc}",
                hint="give a local folder or .gguf file; a hub id needs internet on first use",
            ) from exc
        model.to(self.device)
        model.eval()
        tokenizer.padding_side = "left"
        if tokenizer.pad_token_id is None:
            tokenizer.pad_token = tokenizer.eos_token
        limit = getattr(model.config, "max_position_embeddings", None) or getattr(
            model.config, "n_positions", None
        )
        self._max_context = int(limit) if limit else None
        self.capabilities = Capabilities(
            logprobs=True,
            max_context=self._max_context,
            batch_size=self.batch_size,
            concurrency=1,
        )
        self._model, self._tokenizer = model, tokenizer
        return model, tokenizer

    def _prompt(self, tokenizer: Any, request: Request) -> str:
        messages = [{"role": m.role, "content": m.content} for m in request.messages]
        if getattr(tokenizer, "chat_template", None):
            return str(tokenizer.apply_chat_template(messages, tokenize=False, add_generation_prompt=True))
        return messages_to_prompt(request.messages)

    def _generate_chunk(self, requests: Sequence[Request], prompts: list[str]) -> list[Completion]:
        """One ``generate`` call for requests that share decoding options."""
        import torch

        model, tokenizer = self._model, self._tokenizer
        first = requests[0]
        started = time.perf_counter()
        encoded = tokenizer(prompts, return_tensors="pt", padding=True, add_special_tokens=False)
        encoded = {k: v.to(self.device) for k, v in encoded.items()}
        width = int(encoded["input_ids"].shape[1])
        max_new = (
            first.max_tokens if self.max_new_tokens is None else min(first.max_tokens, self.max_new_tokens)
        )
        if self._max_context is not None:
            max_new = min(max_new, self._max_context - width)
        kwargs: dict[str, Any] = {
            "max_new_tokens": max(1, max_new),
            "pad_token_id": tokenizer.pad_token_id,
            "return_dict_in_generate": True,
            "output_scores": first.logprobs,
        }
        if first.temperature > 0:
            kwargs.update(do_sample=True, temperature=first.temperature, top_p=first.top_p, top_k=0)
            torch.manual_seed(first.seed)
        else:
            kwargs.update(do_sample=False, temperature=None, top_p=None, top_k=None)
        with torch.inference_mode():
            out = model.generate(**encoded, **kwargs)
        new_tokens = out.sequences[:, width:]
        scores = None
        if first.logprobs:
            scores = model.compute_transition_scores(out.sequences, out.scores, normalize_logits=True)
        elapsed = (time.perf_counter() - started) / len(requests)
        eos_ids = _eos_ids(model, tokenizer)
        results = []
        for row, request in enumerate(requests):
            ids = [int(t) for t in new_tokens[row].tolist()]
            length = next((i for i, t in enumerate(ids) if t in eos_ids), len(ids))
            hit_eos = length < len(ids)
            ids = ids[:length]
            text, hit_stop = trim_at_stop(tokenizer.decode(ids, skip_special_tokens=True), request.stop)
            if hit_stop:
                length = _tokens_covering(tokenizer, ids, len(text))
            logprobs = [float(v) for v in scores[row][:length].tolist()] if scores is not None else None
            results.append(
                Completion(
                    request_id=request.id,
                    text=text,
                    token_logprobs=logprobs,
                    usage=Usage(
                        prompt_tokens=int(encoded["attention_mask"][row].sum()), completion_tokens=length
                    ),
                    latency_s=elapsed,
                    finish_reason="stop" if hit_eos or hit_stop else "length",
                )
            )
        return results

    def _generate_dola(self, request: Request, prompt: str) -> Completion:
        """One greedy request decoded with DoLa (ours, or the hub's code when ``dola_remote``)."""
        import torch

        from halluforge.backends.dola import dola_generate

        if request.temperature > 0:
            raise ConfigError("DoLa decoding here is greedy only", hint="set answer.temperature: 0")
        model, tokenizer = self._model, self._tokenizer
        started = time.perf_counter()
        encoded = tokenizer([prompt], return_tensors="pt", add_special_tokens=False)
        input_ids = encoded["input_ids"].to(self.device)
        max_new = (
            request.max_tokens
            if self.max_new_tokens is None
            else min(request.max_tokens, self.max_new_tokens)
        )
        eos = _eos_ids(model, tokenizer)
        layers = self.dola["layers"]
        if self.dola["remote"]:
            with torch.inference_mode():
                out = model.generate(
                    input_ids,
                    max_new_tokens=max_new,
                    do_sample=False,
                    dola_layers=layers,
                    repetition_penalty=self.dola["repetition_penalty"],
                    custom_generate="transformers-community/dola",
                    trust_remote_code=True,
                )
            ids = [int(t) for t in out[0, input_ids.shape[1] :].tolist()]
            logprobs: list[float] | None = None
        else:
            ids, logprobs, _ = dola_generate(
                model,
                input_ids,
                layers=layers,
                max_new_tokens=max(1, max_new),
                relative_top=self.dola["relative_top"],
                repetition_penalty=self.dola["repetition_penalty"],
                eos_token_ids=sorted(eos),
            )
        length = next((i for i, t in enumerate(ids) if t in eos), len(ids))
        text, hit_stop = trim_at_stop(tokenizer.decode(ids[:length], skip_special_tokens=True), request.stop)
        if hit_stop:
            length = _tokens_covering(tokenizer, ids[:length], len(text))
        tokens = [tokenizer.decode([t]) for t in ids[:length]]
        return Completion(
            request_id=request.id,
            text=text,
            tokens=tokens if request.logprobs else None,
            token_logprobs=logprobs[:length] if (request.logprobs and logprobs is not None) else None,
            usage=Usage(prompt_tokens=int(input_ids.shape[1]), completion_tokens=length),
            latency_s=time.perf_counter() - started,
            finish_reason="stop" if length < len(ids) or hit_stop else "length",
        )

    def _run(self, requests: Sequence[Request]) -> list[Completion]:
        with self._lock:
            _, tokenizer = self._load()
            results: list[Completion | None] = [None] * len(requests)
            groups: dict[tuple[Any, ...], list[tuple[int, str]]] = {}
            for index, request in enumerate(requests):
                try:
                    prompt = self._prompt(tokenizer, request)
                    count = len(tokenizer(prompt, add_special_tokens=False)["input_ids"])
                except Exception as exc:  # a template that rejects these messages fails one request
                    results[index] = error_completion(request, exc)
                    continue
                if self._max_context is not None and count >= self._max_context:
                    results[index] = error_completion(
                        request,
                        ContextLengthError(
                            f"prompt has {count} tokens but {self.spec.address} holds {self._max_context}",
                            hint="shorten the context or use a model with a longer context",
                        ),
                    )
                    continue
                if request.decoding == "dola":
                    try:
                        results[index] = self._generate_dola(request, prompt)
                    except Exception as exc:  # one failing request, not the run
                        results[index] = error_completion(request, exc)
                    continue
                key = (request.max_tokens, request.temperature, request.top_p, request.seed, request.logprobs)
                groups.setdefault(key, []).append((index, prompt))
            for key, members in groups.items():
                # torch samples every row of a batch from one random stream, so a sampled row
                # would depend on its batch mates; sampled requests go one per call, seeded
                size = 1 if key[1] > 0 else self.batch_size
                for start in range(0, len(members), size):
                    chunk = members[start : start + size]
                    chunk_requests = [requests[i] for i, _ in chunk]
                    try:
                        done = self._generate_chunk(chunk_requests, [p for _, p in chunk])
                    except Exception as exc:  # e.g. out of memory: fail this batch, keep the run
                        done = [error_completion(r, exc) for r in chunk_requests]
                    for (index, _), completion in zip(chunk, done, strict=True):
                        results[index] = completion
            return [c for c in results if c is not None]

    # -- contract ------------------------------------------------------------------------------

    async def generate(self, requests: Sequence[Request]) -> list[Completion]:
        if not requests:
            return []
        return await asyncio.to_thread(self._run, list(requests))

    async def aclose(self) -> None:
        def release() -> None:
            with self._lock:
                self._model = None
                self._tokenizer = None

        await asyncio.to_thread(release)


def _dola_options(opts: TransformersOptions) -> dict[str, Any]:
    """The DoLa options for requests of the ``dola`` setting (defaults: ``high`` layers)."""
    if opts.dola_remote and not opts.trust_remote_code:
        raise ConfigError(
            "dola_remote runs transformers-community/dola from the model hub",
            hint="also set trust_remote_code: true (needs the hub), or drop dola_remote to use our DoLa",
        )
    return {
        "layers": opts.dola_layers,
        "relative_top": opts.dola_relative_top,
        "repetition_penalty": opts.repetition_penalty,
        "remote": opts.dola_remote,
    }


def _eos_ids(model: Any, tokenizer: Any) -> set[int]:
    ids: set[int] = set()
    for source in (getattr(model, "generation_config", None), model.config, tokenizer):
        value = getattr(source, "eos_token_id", None)
        if isinstance(value, int):
            ids.add(value)
        elif isinstance(value, list | tuple):
            ids.update(int(v) for v in value)
    if tokenizer.pad_token_id is not None:
        ids.add(int(tokenizer.pad_token_id))
    return ids


def _tokens_covering(tokenizer: Any, ids: list[int], chars: int) -> int:
    """The fewest leading tokens whose decoded text reaches ``chars`` characters."""
    for count in range(len(ids) + 1):
        if len(tokenizer.decode(ids[:count], skip_special_tokens=True)) >= chars:
            return count
    return len(ids)


def check(spec: ModelSpec, options: dict[str, Any]) -> None:
    """Raise for a missing install, an unknown option or a missing local model, without loading it."""
    _check_installed()
    opts = parse_options("hf", TransformersOptions, options)
    resolve_source(spec.model, opts.gguf_file or None)


def create(spec: ModelSpec, options: dict[str, Any]) -> Backend:
    """Factory registered as ``hf``; fails early when transformers or torch is missing."""
    _check_installed()
    return TransformersBackend(spec, options)


__all__ = ["TransformersBackend", "TransformersOptions", "check", "create", "resolve_source", "trim_at_stop"]
