"""A tiny OpenAI-compatible HTTP server for tests and benchmarks (standard library only).

It answers ``POST /v1/chat/completions`` (and the legacy ``POST /v1/completions``) with the last
user message echoed back, and ``GET /v1/models``. It speaks HTTP/1.1 with keep-alive over
asyncio streams and does no work beyond parsing JSON, so it serves well over a thousand
requests a second on one core: a benchmark that runs against it measures the client side.

Faults, for testing retries and error translation:

- ``"429"``: answer 429 with a ``Retry-After`` header;
- ``"500"``: answer 500;
- ``"hang"``: read the request and never answer (the client must time out);
- ``"malformed"``: answer 200 with a body that is not JSON;
- ``fail_first=N``: the first N calls for each distinct prompt fail with ``fail_status``
  (429 by default), later ones succeed: a transient fault a retry recovers from.

A fault applies to the whole server (:class:`StubConfig`) or, so that one server can serve
every test, to one model: a model name ``NAME:FAULT`` (``echo:429``, ``echo:500``,
``echo:hang``, ``echo:malformed``, ``echo:flaky2`` for fail_first=2) selects it per request.
Log-probabilities, when asked for, are synthetic (0.0 per whitespace token): the stub checks
plumbing, not models.

Run it as ``python -m halluforge.testing.openai_stub --port 8000 --delay 0.05``, or in-process::

    with StubServer(StubConfig(delay_s=0.01)) as server:
        url = server.base_url  # http://127.0.0.1:<port>/v1
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import threading
import time
from collections import Counter, deque
from dataclasses import dataclass, field
from typing import Any

FAULTS = ("none", "429", "500", "hang", "malformed")

_REASONS = {
    200: "OK",
    400: "Bad Request",
    404: "Not Found",
    429: "Too Many Requests",
    500: "Internal Server Error",
}


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
    """What the stub saw, for assertions in tests (only the last 1,000 request bodies are kept)."""

    requests: int = 0
    by_status: Counter[int] = field(default_factory=Counter)
    in_flight: int = 0
    max_in_flight: int = 0
    bodies: deque[dict[str, Any]] = field(default_factory=lambda: deque(maxlen=1000))


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
    """Protocol logic shared by every connection of one server."""

    def __init__(self, config: StubConfig) -> None:
        self.config = config
        self.stats = StubStats()
        self.calls_per_prompt: Counter[tuple[str, str]] = Counter()
        self.stopping = asyncio.Event()

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

    async def respond(self, method: str, path: str, raw: bytes) -> tuple[int, dict[str, str], bytes] | None:
        """Build (status, headers, body) for one request, or None to never answer."""
        path = path.split("?", 1)[0].rstrip("/")
        if method == "GET" and path.endswith("/models"):
            data = [{"id": m, "object": "model", "owned_by": "stub"} for m in self.config.models]
            return 200, {}, json.dumps({"object": "list", "data": data}).encode()
        if method != "POST" or not path.endswith(("/chat/completions", "/completions")):
            return 404, {}, _error_body("no such route", "not_found")
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
            await self.stopping.wait()
            return None
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


async def _serve_connection(
    handler: _Handler, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
) -> None:
    """Serve requests on one keep-alive connection until the client closes it."""
    try:
        while True:
            try:
                head = await reader.readuntil(b"\r\n\r\n")
            except (asyncio.IncompleteReadError, asyncio.LimitOverrunError, ConnectionError):
                return
            lines = head.decode("latin-1").split("\r\n")
            parts = lines[0].split(" ")
            if len(parts) < 2:
                return
            method, path = parts[0], parts[1]
            headers = {}
            for line in lines[1:]:
                name, sep, value = line.partition(":")
                if sep:
                    headers[name.strip().lower()] = value.strip()
            length = int(headers.get("content-length", "0") or 0)
            raw = await reader.readexactly(length) if length else b""
            handler.stats.requests += 1
            handler.stats.in_flight += 1
            handler.stats.max_in_flight = max(handler.stats.max_in_flight, handler.stats.in_flight)
            try:
                answer = await handler.respond(method, path, raw)
            finally:
                handler.stats.in_flight -= 1
            if answer is None:
                return
            status, extra, payload = answer
            handler.stats.by_status[status] += 1
            close = headers.get("connection", "").lower() == "close"
            out = [
                f"HTTP/1.1 {status} {_REASONS.get(status, 'Error')}",
                "Content-Type: application/json",
                f"Content-Length: {len(payload)}",
                f"Connection: {'close' if close else 'keep-alive'}",
            ]
            out.extend(f"{k}: {v}" for k, v in extra.items())
            writer.write(("\r\n".join(out) + "\r\n\r\n").encode("latin-1") + payload)
            await writer.drain()
            if close:
                return
    except (ConnectionError, asyncio.IncompleteReadError):
        return
    except asyncio.CancelledError:
        # the server is stopping: end quietly (a cancelled connection task is logged as an error)
        return
    finally:
        with contextlib.suppress(Exception):
            writer.close()


class StubServer:
    """The stub on 127.0.0.1, run in a background thread with its own event loop."""

    def __init__(self, config: StubConfig | None = None, *, host: str = "127.0.0.1", port: int = 0) -> None:
        self.config = config or StubConfig()
        self.host = host
        self.port = port
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._handler: _Handler | None = None
        self._server: asyncio.Server | None = None
        self._ready = threading.Event()
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

    async def _open(self) -> None:
        self._handler = _Handler(self.config)
        handler = self._handler

        async def on_connect(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            await _serve_connection(handler, reader, writer)

        self._server = await asyncio.start_server(on_connect, self.host, self.port, backlog=1024)
        self.port = int(self._server.sockets[0].getsockname()[1])

    def _main(self) -> None:
        loop = asyncio.new_event_loop()
        self._loop = loop
        try:
            loop.run_until_complete(self._open())
        except BaseException as exc:
            self._error = exc
            self._ready.set()
            loop.close()
            return
        self._ready.set()
        try:
            loop.run_forever()
        finally:
            loop.run_until_complete(loop.shutdown_asyncgens())
            loop.close()

    def start(self) -> int:
        """Start serving in a daemon thread; return the bound port."""
        self._thread = threading.Thread(target=self._main, name="openai-stub", daemon=True)
        self._thread.start()
        self._ready.wait()
        if self._error is not None:
            raise self._error
        return self.port

    def stop(self) -> None:
        """Release hanging requests, close the listener and join the thread."""
        loop, handler, server = self._loop, self._handler, self._server
        if loop is None or handler is None or server is None:
            return

        async def shutdown() -> None:
            handler.stopping.set()
            server.close()
            current = asyncio.current_task()
            tasks = [t for t in asyncio.all_tasks() if t is not current]
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            loop.stop()

        asyncio.run_coroutine_threadsafe(shutdown(), loop)
        if self._thread is not None:
            self._thread.join(timeout=5)
        self._loop = None

    def __enter__(self) -> StubServer:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def serve_forever(config: StubConfig, host: str, port: int) -> None:
    """Serve in the current thread until interrupted (the ``python -m`` entry)."""

    async def main() -> None:
        handler = _Handler(config)

        async def on_connect(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            await _serve_connection(handler, reader, writer)

        server = await asyncio.start_server(on_connect, host, port, backlog=1024)
        async with server:
            await server.serve_forever()

    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(main())


def _parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m halluforge.testing.openai_stub",
        description="OpenAI-compatible echo server for tests and benchmarks.",
    )
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--delay", type=float, default=0.0, help="seconds to wait before each answer")
    parser.add_argument("--fault", choices=FAULTS, default="none")
    parser.add_argument("--fail-first", type=int, default=0, help="fail the first N calls of each prompt")
    parser.add_argument("--fail-status", type=int, default=429)
    parser.add_argument("--retry-after", type=float, default=0.0, help="Retry-After seconds on 429")
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
    serve_forever(config, args.host, args.port)


if __name__ == "__main__":
    main()


__all__ = ["FAULTS", "StubConfig", "StubServer", "StubStats", "main", "serve_forever"]
