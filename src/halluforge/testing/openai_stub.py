"""A small OpenAI-compatible HTTP server for tests and benchmarks, built on FastAPI + uvicorn.

It answers ``POST /v1/chat/completions`` (and the legacy ``POST /v1/completions``) with the last
user message echoed back, and ``GET /v1/models``. It does no work beyond parsing JSON, so a
benchmark that runs against it measures the client side. FastAPI and uvicorn are dev
dependencies, imported only when a server starts; halluforge itself never needs them.

Faults, for testing retries and error translation:

- ``"429"``: answer 429 with a ``Retry-After`` header;
- ``"500"``: answer 500;
- ``"hang"``: read the request and answer only when the server stops (the client must time out);
- ``"malformed"``: answer 200 with a body that is not JSON;
- ``fail_first=N``: the first N calls for each distinct prompt fail with ``fail_status``
  (429 by default), later ones succeed: a transient fault a retry recovers from.

A fault applies to the whole server (:class:`StubConfig`) or, so that one server can serve
every test, to one model: a model name ``NAME:FAULT`` (``echo:429``, ``echo:500``,
``echo:hang``, ``echo:malformed``, ``echo:flaky2`` for fail_first=2) selects it per request.
Log-probabilities, when asked for, are synthetic (0.0 per whitespace token): the stub checks
plumbing, not models. Every request's headers are recorded (:attr:`StubStats.headers`), so a
test can check which credentials a client sent.

The server binds 127.0.0.1 only. In-process it runs in a daemon thread and stops when its
``with`` block ends; as a command (``python -m halluforge.testing.openai_stub --port 8000
--delay 0.05``) it stops by itself after ``--lifetime`` seconds (default one hour)::

    with StubServer(StubConfig(delay_s=0.01)) as server:
        url = server.base_url  # http://127.0.0.1:<port>/v1
"""

from __future__ import annotations

import argparse
import asyncio
import json
import socket
import threading
import time
from collections import Counter, deque
from dataclasses import dataclass, field
from typing import Any

FAULTS = ("none", "429", "500", "hang", "malformed")
HOST = "127.0.0.1"


@dataclass
class StubConfig:
    """How the stub behaves: a fixed delay per request and an optional fault."""

    delay_s: float = 0.0
    fault: str = "none"
    fail_first: int = 0
    fail_status: int = 429
    retry_after_s: float = 0.0
    models: list[str] = field(default_factory=lambda: ["echo"])


@dataclass
class StubStats:
    """What the stub saw, for assertions in tests (only the last 1,000 bodies and headers are kept).

    ``headers`` holds each request's headers with lower-case names, in arrival order.
    """

    requests: int = 0
    by_status: Counter[int] = field(default_factory=Counter)
    in_flight: int = 0
    max_in_flight: int = 0
    bodies: deque[dict[str, Any]] = field(default_factory=lambda: deque(maxlen=1000))
    headers: deque[dict[str, str]] = field(default_factory=lambda: deque(maxlen=1000))


def _prompt_of(body: dict[str, Any]) -> str:
    messages = body.get("messages")
    if isinstance(messages, list):
        users = [m for m in messages if isinstance(m, dict) and m.get("role") == "user"]
        last = users[-1] if users else (messages[-1] if messages else {})
        content = last.get("content", "") if isinstance(last, dict) else ""
        return content if isinstance(content, str) else json.dumps(content)
    prompt = body.get("prompt", "")
    return prompt if isinstance(prompt, str) else json.dumps(prompt)


class _Handler:
    """Request logic shared by every connection of one server (independent of the web framework)."""

    def __init__(self, config: StubConfig) -> None:
        self.config = config
        self.stats = StubStats()
        self.calls_per_prompt: Counter[tuple[str, str]] = Counter()
        self.stopping = threading.Event()

    def _fault_for(self, model: str) -> tuple[str, int]:
        """The fault and fail_first that apply to a request for ``model``."""
        fault, fail_first = self.config.fault, self.config.fail_first
        _, sep, suffix = model.rpartition(":")
        if sep:
            if suffix in FAULTS:
                fault = suffix
            elif suffix.startswith("flaky") and suffix[5:].isdigit():
                fail_first = int(suffix[5:])
        return fault, fail_first

    def models(self) -> dict[str, Any]:
        """The ``GET /v1/models`` answer."""
        data = [{"id": m, "object": "model", "owned_by": "stub"} for m in self.config.models]
        return {"object": "list", "data": data}

    async def complete(self, path: str, raw: bytes) -> tuple[int, dict[str, str], bytes]:
        """Build (status, headers, body) for one completion request."""
        try:
            body = json.loads(raw or b"{}")
            if not isinstance(body, dict):
                raise ValueError("body is not an object")
        except ValueError:
            return 400, {}, _error_body("request body is not a JSON object", "invalid_request_error")
        self.stats.bodies.append(body)
        model = str(body.get("model", ""))
        prompt = _prompt_of(body)
        fault, fail_first = self._fault_for(model)
        if self.config.delay_s:
            await asyncio.sleep(self.config.delay_s)
        self.calls_per_prompt[(model, prompt)] += 1
        if fail_first and self.calls_per_prompt[(model, prompt)] <= fail_first:
            fault = str(self.config.fail_status)
        if fault == "hang":
            while not self.stopping.is_set():
                await asyncio.sleep(0.05)
            return 503, {}, _error_body("the stub is stopping", "server_error")
        if fault == "429":
            headers = {"Retry-After": f"{self.config.retry_after_s:g}"}
            return 429, headers, _error_body("rate limit reached (stub)", "rate_limit_exceeded")
        if fault == "500" or fault.isdigit():
            return int(fault), {}, _error_body("internal error (stub)", "server_error")
        if fault == "malformed":
            return 200, {}, b'{"id": "broken", "choices": [ this is not json'
        return 200, {}, json.dumps(_completion_body(body, model, prompt, path)).encode()


def _error_body(message: str, kind: str) -> bytes:
    return json.dumps({"error": {"message": message, "type": kind, "code": kind}}).encode()


def _completion_body(body: dict[str, Any], model: str, prompt: str, path: str) -> dict[str, Any]:
    words = prompt.split()
    limit = body.get("max_tokens")
    if isinstance(limit, int) and limit >= 0:
        words = words[:limit]
    text = " ".join(words)
    usage = {"prompt_tokens": len(prompt.split()), "completion_tokens": len(words)}
    usage["total_tokens"] = usage["prompt_tokens"] + usage["completion_tokens"]
    created = int(time.time())
    if path.endswith("/chat/completions"):
        choice: dict[str, Any] = {
            "index": 0,
            "message": {"role": "assistant", "content": text},
            "finish_reason": "stop",
            "logprobs": None,
        }
        if body.get("logprobs"):
            choice["logprobs"] = {
                "content": [{"token": w, "logprob": 0.0, "bytes": None, "top_logprobs": []} for w in words]
            }
        return {
            "id": "chatcmpl-stub",
            "object": "chat.completion",
            "created": created,
            "model": model,
            "choices": [choice],
            "usage": usage,
        }
    legacy: dict[str, Any] = {"index": 0, "text": text, "finish_reason": "stop", "logprobs": None}
    if body.get("logprobs"):
        legacy["logprobs"] = {"tokens": words, "token_logprobs": [0.0] * len(words)}
    return {
        "id": "cmpl-stub",
        "object": "text_completion",
        "created": created,
        "model": model,
        "choices": [legacy],
        "usage": usage,
    }


def build_app(handler: _Handler) -> Any:
    """The FastAPI application serving ``handler`` (imported lazily: a dev dependency)."""
    from fastapi import FastAPI, Request
    from fastapi.responses import Response

    app = FastAPI(title="halluforge OpenAI stub", docs_url=None, redoc_url=None, openapi_url=None)
    stats = handler.stats

    def send(status: int, headers: dict[str, str], payload: bytes) -> Response:
        stats.by_status[status] += 1
        return Response(content=payload, status_code=status, headers=headers, media_type="application/json")

    def seen(request: Request) -> None:
        stats.requests += 1
        stats.headers.append({k.lower(): v for k, v in request.headers.items()})

    # plain routes (the endpoint gets the request itself): no body model, so bad JSON reaches
    # the handler and is answered the way OpenAI answers it; no middleware, which would cost
    # more per request than the endpoint itself
    async def models(request: Request) -> Response:
        seen(request)
        return send(200, {}, json.dumps(handler.models()).encode())

    async def complete(request: Request) -> Response:
        seen(request)
        stats.in_flight += 1
        stats.max_in_flight = max(stats.max_in_flight, stats.in_flight)
        try:
            return send(*await handler.complete(request.url.path, await request.body()))
        finally:
            stats.in_flight -= 1

    async def not_found(request: Request) -> Response:
        seen(request)
        return send(404, {}, _error_body(f"no such route: {request.url.path}", "not_found"))

    app.add_route("/v1/models", models, methods=["GET"])
    app.add_route("/v1/chat/completions", complete, methods=["POST"])
    app.add_route("/v1/completions", complete, methods=["POST"])
    app.add_route("/{rest:path}", not_found, methods=["GET", "POST", "PUT", "DELETE"])
    return app


def _bind(port: int) -> socket.socket:
    """A listening socket on 127.0.0.1 (port 0: any free port)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((HOST, port))
    sock.listen(1024)
    return sock


def _uvicorn_server(handler: _Handler) -> Any:
    import uvicorn

    config = uvicorn.Config(
        build_app(handler),
        log_level="warning",
        access_log=False,
        lifespan="off",
        timeout_graceful_shutdown=2,
        timeout_keep_alive=30,
    )
    return uvicorn.Server(config)


class StubServer:
    """The stub on 127.0.0.1, run by uvicorn in a background thread with its own event loop."""

    def __init__(self, config: StubConfig | None = None, *, host: str = HOST, port: int = 0) -> None:
        if host != HOST:
            raise ValueError(f"the stub binds {HOST} only, not {host!r}")
        self.config = config or StubConfig()
        self.host = host
        self.port = port
        self._thread: threading.Thread | None = None
        self._handler: _Handler | None = None
        self._server: Any = None
        self._error: BaseException | None = None

    @property
    def stats(self) -> StubStats:
        """What the server has seen so far."""
        if self._handler is None:
            raise RuntimeError("the stub server is not running")
        return self._handler.stats

    @property
    def base_url(self) -> str:
        """The OpenAI base URL of this server (``http://host:port/v1``)."""
        return f"http://{self.host}:{self.port}/v1"

    def start(self) -> int:
        """Start serving in a daemon thread; return the bound port once it accepts requests."""
        self._handler = _Handler(self.config)
        sock = _bind(self.port)
        self.port = int(sock.getsockname()[1])
        server = self._server = _uvicorn_server(self._handler)

        def main() -> None:
            try:
                server.run(sockets=[sock])
            except BaseException as exc:  # surfaced by start()
                self._error = exc
            finally:
                sock.close()

        self._thread = threading.Thread(target=main, name="openai-stub", daemon=True)
        self._thread.start()
        deadline = time.monotonic() + 10
        while not server.started and self._thread.is_alive() and time.monotonic() < deadline:
            time.sleep(0.01)
        if not server.started:
            self.stop()
            raise RuntimeError(f"the stub server did not start: {self._error!r}")
        return self.port

    def stop(self) -> None:
        """Release hanging requests, stop uvicorn and join the thread."""
        if self._handler is not None:
            self._handler.stopping.set()
        if self._server is not None:
            self._server.should_exit = True
        if self._thread is not None:
            self._thread.join(timeout=10)
        self._server = None
        self._thread = None

    def __enter__(self) -> StubServer:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def serve_forever(config: StubConfig, host: str, port: int, lifetime_s: float | None = None) -> None:
    """Serve until interrupted or until ``lifetime_s`` has passed (the ``python -m`` entry)."""
    server = StubServer(config, host=host, port=port)
    server.start()
    try:
        deadline = None if lifetime_s is None else time.monotonic() + lifetime_s
        while server._thread is not None and server._thread.is_alive():
            if deadline is not None and time.monotonic() >= deadline:
                break
            time.sleep(0.2)
    except KeyboardInterrupt:
        pass
    finally:
        server.stop()


def _parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m halluforge.testing.openai_stub",
        description="OpenAI-compatible echo server for tests and benchmarks (binds 127.0.0.1).",
    )
    parser.add_argument("--host", default=HOST, choices=[HOST], help="always 127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--delay", type=float, default=0.0, help="seconds to wait before each answer")
    parser.add_argument("--fault", choices=FAULTS, default="none")
    parser.add_argument("--fail-first", type=int, default=0, help="fail the first N calls of each prompt")
    parser.add_argument("--fail-status", type=int, default=429)
    parser.add_argument("--retry-after", type=float, default=0.0, help="Retry-After seconds on 429")
    parser.add_argument(
        "--lifetime", type=float, default=3600.0, help="stop by itself after this many seconds (default 3600)"
    )
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> None:
    """Command-line entry point."""
    args = _parse_args(argv)
    config = StubConfig(
        delay_s=args.delay,
        fault=args.fault,
        fail_first=args.fail_first,
        fail_status=args.fail_status,
        retry_after_s=args.retry_after,
    )
    serve_forever(config, args.host, args.port, args.lifetime)


if __name__ == "__main__":
    main()


__all__ = ["FAULTS", "StubConfig", "StubServer", "StubStats", "build_app", "main", "serve_forever"]
