"""A small server that speaks Anthropic's Messages API, for tests (FastAPI + uvicorn on 127.0.0.1).

``POST /v1/messages`` answers with the last user message echoed back (cut to ``max_tokens``
words, or before the first stop sequence it contains), in the shape of the API's message
object. Faults are chosen per request by a suffix on the model name, so one server serves every
test:

- ``echo:429``: always 429 ``rate_limit_error`` with ``retry-after`` (``StubConfig.retry_after_s``);
- ``echo:ratelimit-reset``: 429 without ``retry-after`` but with exhausted
  ``anthropic-ratelimit-requests-*`` headers whose reset lies ``retry_after_s`` ahead;
- ``echo:flakyN``: the first N calls for each distinct prompt get that 429, later ones succeed;
- ``echo:529``: 529 ``overloaded_error``; ``echo:long``: 400 "prompt is too long";
- a model name the server does not know: 404 ``not_found_error``.

Every call is recorded (model, prompt, arrival time, headers, body) in :attr:`AnthropicStub.calls`,
so a test can check what was sent and how long a retry waited. Use it as a context manager::

    with AnthropicStub(StubConfig(retry_after_s=0.3)) as stub:
        backend = open_backend(f"anthropic@{stub.base_url}/echo", {})
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse


@dataclass
class StubConfig:
    """How the stub behaves: known models, a fixed delay, the wait a 429 asks for."""

    models: tuple[str, ...] = ("echo",)
    delay_s: float = 0.0
    retry_after_s: float = 0.0


@dataclass
class Call:
    """One request as the stub received it."""

    model: str
    prompt: str
    at: float
    headers: dict[str, str]
    body: dict[str, Any]


def _error(status: int, kind: str, message: str, headers: dict[str, str] | None = None) -> JSONResponse:
    body = {"type": "error", "error": {"type": kind, "message": message}}
    return JSONResponse(body, status_code=status, headers=headers)


def _prompt_of(body: dict[str, Any]) -> str:
    users = [m for m in body.get("messages", []) if isinstance(m, dict) and m.get("role") == "user"]
    content = users[-1].get("content", "") if users else ""
    if isinstance(content, list):  # content blocks
        return " ".join(str(b.get("text", "")) for b in content if isinstance(b, dict))
    return str(content)


@dataclass
class _State:
    config: StubConfig
    calls: list[Call] = field(default_factory=list)
    per_prompt: Counter[tuple[str, str]] = field(default_factory=Counter)
    lock: threading.Lock = field(default_factory=threading.Lock)


def build_app(state: _State) -> FastAPI:
    """The FastAPI app of one stub (its state is shared with the test through ``state``)."""
    app = FastAPI()

    @app.post("/v1/messages")
    async def messages(request: Request) -> JSONResponse:
        body = await request.json()
        model = str(body.get("model", ""))
        prompt = _prompt_of(body)
        with state.lock:
            state.calls.append(Call(model, prompt, time.monotonic(), dict(request.headers), body))
            state.per_prompt[(model, prompt)] += 1
            seen = state.per_prompt[(model, prompt)]
        config = state.config
        if config.delay_s:
            await asyncio.sleep(config.delay_s)
        name, _, fault = model.partition(":")
        if name not in config.models:
            return _error(404, "not_found_error", f"model: {model}")
        wait = f"{config.retry_after_s:g}"
        if fault == "429" or (fault.startswith("flaky") and seen <= int(fault[5:] or 1)):
            return _error(429, "rate_limit_error", "rate limit reached (stub)", {"retry-after": wait})
        if fault == "ratelimit-reset":
            reset = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(time.time() + config.retry_after_s + 1))
            headers = {
                "anthropic-ratelimit-requests-remaining": "0",
                "anthropic-ratelimit-requests-reset": reset,
            }
            return _error(429, "rate_limit_error", "rate limit reached (stub)", headers)
        if fault == "529":
            return _error(529, "overloaded_error", "overloaded (stub)")
        if fault == "long":
            return _error(400, "invalid_request_error", "prompt is too long: 250000 tokens > 200000 maximum")
        text, reason = prompt, "end_turn"
        for stop in body.get("stop_sequences") or []:
            if stop in text:
                text, reason = text.split(stop, 1)[0], "stop_sequence"
        words = text.split()
        limit = int(body.get("max_tokens", 0))
        if len(words) > limit:
            words, reason = words[:limit], "max_tokens"
        return JSONResponse(
            {
                "id": f"msg_stub_{len(state.calls)}",
                "type": "message",
                "role": "assistant",
                "model": model,
                "content": [{"type": "text", "text": " ".join(words)}],
                "stop_reason": reason,
                "stop_sequence": None,
                "usage": {"input_tokens": len(prompt.split()), "output_tokens": len(words)},
            }
        )

    return app


class AnthropicStub:
    """The stub served by uvicorn in a background thread on 127.0.0.1 (a free port)."""

    def __init__(self, config: StubConfig | None = None) -> None:
        self.state = _State(config or StubConfig())
        self.port = 0
        self._server: Any = None
        self._thread: threading.Thread | None = None

    @property
    def base_url(self) -> str:
        """The server root the SDK takes as ``base_url``."""
        return f"http://127.0.0.1:{self.port}"

    @property
    def calls(self) -> list[Call]:
        """Every request received so far, in arrival order."""
        with self.state.lock:
            return list(self.state.calls)

    def start(self) -> None:
        """Serve until :meth:`stop`; returns once the socket is listening."""
        import uvicorn

        config = uvicorn.Config(build_app(self.state), host="127.0.0.1", port=0, log_level="warning")
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._server.run, name="anthropic-stub", daemon=True)
        self._thread.start()
        deadline = time.monotonic() + 10
        while not self._server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the Anthropic stub did not start")
            time.sleep(0.01)
        self.port = int(self._server.servers[0].sockets[0].getsockname()[1])

    def stop(self) -> None:
        """Ask uvicorn to exit and wait for its thread."""
        if self._server is not None and self._thread is not None:
            self._server.should_exit = True
            self._thread.join(timeout=10)
        self._server = self._thread = None

    def __enter__(self) -> AnthropicStub:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


__all__ = ["AnthropicStub", "Call", "StubConfig", "build_app"]
