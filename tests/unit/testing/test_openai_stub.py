"""The OpenAI-compatible stub (FastAPI + uvicorn): routes, keep-alive, faults, the ``python -m`` entry."""

from __future__ import annotations

import http.client
import json
import socket
import subprocess
import sys
import threading
import time
from typing import Any

import pytest

from extra_skips import needs
from halluforge.testing.openai_stub import StubConfig, StubServer

#: the stub is served by FastAPI and uvicorn (the view extra; also dev dependencies)
pytestmark = needs("view")


def _post(
    conn: http.client.HTTPConnection, body: Any, path: str = "/v1/chat/completions"
) -> tuple[int, Any, Any]:
    raw = body if isinstance(body, bytes) else json.dumps(body).encode()
    conn.request("POST", path, body=raw, headers={"Content-Type": "application/json"})
    answer = conn.getresponse()
    data = answer.read()
    return answer.status, answer, data


def _chat(content: str, model: str = "echo", **extra: Any) -> dict[str, Any]:
    return {"model": model, "messages": [{"role": "user", "content": content}], **extra}


def test_models_and_chat_over_one_keep_alive_connection() -> None:
    with StubServer() as server:
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=5)
        conn.request("GET", "/v1/models")
        models = json.loads(conn.getresponse().read())
        assert [m["id"] for m in models["data"]] == ["echo"]
        for i in range(5):
            status, _, data = _post(conn, _chat(f"hello number {i}", max_tokens=2))
            assert status == 200
            body = json.loads(data)
            assert body["choices"][0]["message"]["content"] == "hello number"
            assert body["usage"] == {"prompt_tokens": 3, "completion_tokens": 2, "total_tokens": 5}
        conn.close()
        assert server.stats.requests == 6
        assert server.stats.by_status[200] == 6


def test_bad_route_and_bad_json() -> None:
    with StubServer() as server:
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=5)
        assert _post(conn, _chat("x"), path="/v1/embeddings")[0] == 404
        assert _post(conn, b"{not json")[0] == 400
        conn.close()


def test_server_wide_429_with_retry_after() -> None:
    with StubServer(StubConfig(fault="429", retry_after_s=2)) as server:
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=5)
        status, answer, data = _post(conn, _chat("x"))
        conn.close()
    assert status == 429
    assert answer.getheader("Retry-After") == "2"
    assert json.loads(data)["error"]["type"] == "rate_limit_exceeded"


def test_fail_first_n_per_prompt() -> None:
    with StubServer(StubConfig(fail_first=2, fail_status=500)) as server:
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=5)
        statuses = [_post(conn, _chat("a"))[0] for _ in range(3)]
        other = _post(conn, _chat("b"))[0]
        conn.close()
    assert statuses == [500, 500, 200]
    assert other == 500  # counted per prompt


def test_model_suffix_selects_a_fault() -> None:
    with StubServer() as server:
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=5)
        assert _post(conn, _chat("x", model="echo:500"))[0] == 500
        status, _, data = _post(conn, _chat("x", model="echo:malformed"))
        assert status == 200
        with pytest.raises(json.JSONDecodeError):
            json.loads(data)
        conn.close()


def test_hang_never_answers_and_stop_releases_it() -> None:
    server = StubServer(StubConfig(fault="hang"))
    server.start()
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=0.3)
    with pytest.raises(TimeoutError):
        _post(conn, _chat("x"))
    conn.close()
    stopper = threading.Thread(target=server.stop)
    stopper.start()
    stopper.join(timeout=5)
    assert not stopper.is_alive()


def test_delay_is_applied_and_requests_overlap() -> None:
    with StubServer(StubConfig(delay_s=0.2)) as server:
        results: list[int] = []

        def call() -> None:
            conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=5)
            results.append(_post(conn, _chat("x"))[0])
            conn.close()

        started = time.perf_counter()
        threads = [threading.Thread(target=call) for _ in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        elapsed = time.perf_counter() - started
        assert results == [200] * 8
        assert 0.2 <= elapsed < 1.2  # eight delayed calls in parallel, not in series
        assert server.stats.max_in_flight > 1


def test_runs_as_a_module() -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    process = subprocess.Popen(
        [sys.executable, "-m", "halluforge.testing.openai_stub", "--port", str(port), "--fault", "500"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
                status = _post(conn, _chat("x"))[0]
                conn.close()
                break
            except OSError:
                if time.monotonic() > deadline or process.poll() is not None:
                    raise
                time.sleep(0.1)
        assert status == 500
    finally:
        process.terminate()
        process.wait(timeout=10)
