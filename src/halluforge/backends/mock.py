"""A scripted backend for unit tests: never the main job.

Models:

- ``mock/echo``: answers with the last user message.
- ``mock/const:TEXT``: always answers ``TEXT``.
- ``mock/script``: answers from ``options["script"]``, a list of ``[substring, reply]`` pairs
  tried in order against the last user message (``options["default"]`` otherwise);
  ``options["fail"]`` is a list of substrings whose requests fail with ``error_type``
  (``options["fail_type"]``, default ``BackendUnavailableError``).

``options["delay_s"]`` makes every request take that long (for resume and progress tests).
The options are checked by :class:`MockOptions` (unknown keys rejected).
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

from pydantic import Field

from halluforge.backends.base import Backend, BackendOptions, Capabilities, ModelSpec, parse_options
from halluforge.records import Completion, Request, Usage


class MockOptions(BackendOptions):
    """Options under ``backends.mock``."""

    script: list[tuple[str, Any]] = Field(
        default_factory=list, description="[substring, reply] pairs tried in order (mock/script)"
    )
    default: Any = Field(default="", description="the reply when no script entry matches")
    fail: list[str] = Field(default_factory=list, description="substrings whose requests fail")
    fail_type: str = Field(default="BackendUnavailableError", description="error class of those failures")
    delay_s: float = Field(default=0.0, ge=0, description="seconds every request takes")
    batch_size: int = Field(default=8, ge=1, description="requests per call")


class MockBackend(Backend):
    """Deterministic, in-process replies; counts calls so tests can check caching."""

    def __init__(self, spec: ModelSpec, options: dict[str, Any]) -> None:
        self.spec = spec
        self.options = parse_options("mock", MockOptions, options)
        self.capabilities = Capabilities(batch_size=self.options.batch_size, concurrency=4)
        self.calls = 0
        self.seen: list[Request] = []

    def _reply(self, prompt: str) -> str:
        model = self.spec.model
        if model == "echo":
            return prompt
        if model.startswith("const:"):
            return model.removeprefix("const:")
        for needle, reply in self.options.script:
            if needle in prompt:
                return str(reply)
        return str(self.options.default)

    async def generate(self, requests: Sequence[Request]) -> list[Completion]:
        out = []
        delay = self.options.delay_s
        for request in requests:
            if delay:
                await asyncio.sleep(delay)
            self.calls += 1
            self.seen.append(request)
            prompt = request.messages[-1].content
            failing = [s for s in self.options.fail if s in prompt]
            if failing:
                out.append(
                    Completion(
                        request_id=request.id,
                        error=f"scripted failure for {failing[0]!r}",
                        error_type=self.options.fail_type,
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


def check(spec: ModelSpec, options: dict[str, Any]) -> None:
    """Refuse options the mock does not read, and values of the wrong kind."""
    parse_options("mock", MockOptions, options)


def create(spec: ModelSpec, options: dict[str, Any]) -> Backend:
    """Factory registered as ``mock``."""
    check(spec, options)
    return MockBackend(spec, options)
