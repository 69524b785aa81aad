"""A scripted backend for unit tests: never the main job.

Models:

- ``mock/echo``: answers with the last user message.
- ``mock/const:TEXT``: always answers ``TEXT``.
- ``mock/script``: answers from ``options["script"]``, a list of ``[substring, reply]`` pairs
  tried in order against the last user message (``options["default"]`` otherwise);
  ``options["fail"]`` is a list of substrings whose requests fail with ``error_type``
  (``options["fail_type"]``, default ``BackendUnavailableError``).

``options["delay_s"]`` makes every request take that long (for resume and progress tests).
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

from halluforge.backends.base import Backend, Capabilities, ModelSpec, check_options
from halluforge.records import Completion, Request, Usage


class MockBackend(Backend):
    """Deterministic, in-process replies; counts calls so tests can check caching."""

    def __init__(self, spec: ModelSpec, options: dict[str, Any]) -> None:
        self.spec = spec
        self.options = options
        self.capabilities = Capabilities(batch_size=int(options.get("batch_size", 8)), concurrency=4)
        self.calls = 0
        self.seen: list[Request] = []

    def _reply(self, prompt: str) -> str:
        model = self.spec.model
        if model == "echo":
            return prompt
        if model.startswith("const:"):
            return model.removeprefix("const:")
        for needle, reply in self.options.get("script", []):
            if needle in prompt:
                return str(reply)
        return str(self.options.get("default", ""))

    async def generate(self, requests: Sequence[Request]) -> list[Completion]:
        out = []
        delay = float(self.options.get("delay_s", 0.0))
        for request in requests:
            if delay:
                await asyncio.sleep(delay)
            self.calls += 1
            self.seen.append(request)
            prompt = request.messages[-1].content
            failing = [s for s in self.options.get("fail", []) if s in prompt]
            if failing:
                out.append(
                    Completion(
                        request_id=request.id,
                        error=f"scripted failure for {failing[0]!r}",
                        error_type=str(self.options.get("fail_type", "BackendUnavailableError")),
                    )
                )
                continue
            text = self._reply(prompt)
            out.append(
                Completion(
                    request_id=request.id,
                    text=text,
                    usage=Usage(prompt_tokens=len(prompt.split()), completion_tokens=len(text.split())),
                    finish_reason="stop",
                )
            )
        return out


#: options the mock backend reads
OPTIONS = ("script", "default", "fail", "fail_type", "delay_s", "batch_size")


def check(spec: ModelSpec, options: dict[str, Any]) -> None:
    """Refuse options the mock does not read."""
    check_options("mock", options, OPTIONS)


def create(spec: ModelSpec, options: dict[str, Any]) -> Backend:
    """Factory registered as ``mock``."""
    check(spec, options)
    return MockBackend(spec, options)
