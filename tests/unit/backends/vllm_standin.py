"""STAND-IN for the few names of vLLM that halluforge calls; NOT vLLM.

vLLM cannot run on this project's machines (no GPU; its wheels pull a CUDA torch), so the
vllm backend's unit tests put this module in ``sys.modules["vllm"]``. It mirrors, from vLLM
0.33.0's source: ``SamplingParams`` (the fields we set and their range checks), ``LLM(model,
**engine_args)`` with ``chat`` / ``generate`` returning ``RequestOutput``-shaped objects, and
the ``VLLMValidationError`` raised for a prompt longer than ``max_model_len``. The engine
"answers" by echoing the prompt's last words; it checks our plumbing, not a model.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar


class VLLMValidationError(ValueError):
    """Mirrors vllm.exceptions.VLLMValidationError."""


@dataclass
class SamplingParams:
    max_tokens: int | None = 16
    temperature: float = 1.0
    top_p: float = 1.0
    seed: int | None = None
    stop: str | list[str] | None = None
    logprobs: int | None = None

    def __post_init__(self) -> None:
        if self.temperature < 0:
            raise ValueError(f"temperature must be non-negative, got {self.temperature}.")
        if not 0.0 < self.top_p <= 1.0:
            raise ValueError(f"top_p must be in (0, 1], got {self.top_p}.")
        if self.max_tokens is not None and self.max_tokens < 1:
            raise ValueError(f"max_tokens must be at least 1, got {self.max_tokens}.")
        if self.logprobs is not None and self.logprobs < -1:
            raise ValueError(f"logprobs must be non-negative or -1, got {self.logprobs}.")


@dataclass
class Logprob:
    logprob: float
    rank: int | None = None
    decoded_token: str | None = None


@dataclass
class CompletionOutput:
    index: int
    text: str
    token_ids: list[int]
    cumulative_logprob: float | None
    logprobs: list[dict[int, Logprob]] | None
    finish_reason: str | None = None


@dataclass
class RequestOutput:
    request_id: str
    prompt: str
    prompt_token_ids: list[int]
    outputs: list[CompletionOutput] = field(default_factory=list)


class LLM:
    instances: ClassVar[list[LLM]] = []

    def __init__(self, model: str, **kwargs: Any) -> None:
        self.model = model
        self.kwargs = kwargs
        self.calls: list[tuple[str, int]] = []
        LLM.instances.append(self)

    def _answer(self, prompt: str, params: SamplingParams, index: int) -> RequestOutput:
        words = prompt.split()
        limit = self.kwargs.get("max_model_len")
        if limit is not None and len(words) > limit:
            raise VLLMValidationError(
                f"The decoder prompt (length {len(words)}) is longer than "
                f"the maximum model length of {limit}."
            )
        out = words[-(params.max_tokens or 16) :]
        ids = [hash(w) % 1000 for w in out]
        logprobs = None
        if params.logprobs is not None:
            logprobs = [{i: Logprob(-0.5, 1, w)} for i, w in zip(ids, out, strict=True)]
        finish = "length" if len(out) == params.max_tokens else "stop"
        completion = CompletionOutput(0, " ".join(out), ids, None, logprobs, finish)
        return RequestOutput(str(index), prompt, list(range(len(words))), [completion])

    def chat(
        self,
        messages: list[list[dict[str, str]]],
        sampling_params: list[SamplingParams],
        use_tqdm: bool = True,
    ) -> list[RequestOutput]:
        self.calls.append(("chat", len(messages)))
        prompts = ["\n".join(f"{m['role']}: {m['content']}" for m in conv) for conv in messages]
        return [self._answer(p, s, i) for i, (p, s) in enumerate(zip(prompts, sampling_params, strict=True))]

    def generate(
        self, prompts: list[str], sampling_params: list[SamplingParams], use_tqdm: bool = True
    ) -> list[RequestOutput]:
        self.calls.append(("generate", len(prompts)))
        return [self._answer(p, s, i) for i, (p, s) in enumerate(zip(prompts, sampling_params, strict=True))]
