"""The OpenAI-compatible backend: a real llama.cpp server process, and scripted faults on the stub."""

from __future__ import annotations

import datetime
import time
from typing import Any

import pytest

from extra_skips import reason
from halluforge.backends import open_backend
from halluforge.backends.base import ModelSpec
from halluforge.errors import ConfigError, ModelError
from halluforge.records import Message, Request
from halluforge.testing.openai_stub import StubConfig, StubServer

# the base URL and key rules need no SDK: tests/unit/backends/test_openai_keys.py
pytest.importorskip("openai", reason=reason("openai", "openai"))  # a module-level skip

import httpx  # the openai SDK's own dependency

from halluforge.backends.openai_compat import create, retry_after_of


def _ask(text: str, **kw: Any) -> Request:
    return Request(id=text, messages=[Message(role="user", content=text)], **kw)


@pytest.fixture(autouse=True)
def _no_ambient_openai_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)


# -- addressing and keys -----------------------------------------------------------------------


def test_missing_key_for_openai_is_a_model_error() -> None:
    with pytest.raises(ModelError, match="set OPENAI_API_KEY"):
        create(ModelSpec.parse("openai/gpt-4o-mini"), {})
    with pytest.raises(ModelError, match="set MY_KEY"):
        create(ModelSpec.parse("openai/gpt-4o-mini"), {"api_key_env": "MY_KEY"})
    with pytest.raises(ModelError, match="set MY_KEY"):  # a named key must exist, wherever it goes
        create(ModelSpec.parse("openai@http://127.0.0.1:9/v1/m"), {"api_key_env": "MY_KEY"})


def test_bad_options_are_config_errors() -> None:
    spec = ModelSpec.parse("openai@http://127.0.0.1:9/v1/m")
    with pytest.raises(ConfigError, match="api"):
        create(spec, {"api": "responses"})
    with pytest.raises(ConfigError, match="temprature"):
        create(spec, {"temprature": 0})


def test_capabilities_follow_options() -> None:
    spec = ModelSpec.parse("openai@http://127.0.0.1:9/v1/m")
    assert create(spec, {}).capabilities.concurrency == 16
    caps = create(spec, {"concurrency": 3}).capabilities
    assert (caps.concurrency, caps.batch_size, caps.logprobs) == (3, 1, True)


# -- against the stub: plumbing and faults -----------------------------------------------------


async def test_chat_answers_in_order_with_logprobs(stub: StubServer) -> None:
    backend = create(ModelSpec.parse(f"openai@{stub.base_url}/echo"), {})
    try:
        prompts = [f"question number {i}" for i in range(12)]
        out = await backend.generate([_ask(p, logprobs=True, max_tokens=2) for p in prompts])
    finally:
        await backend.aclose()
    assert [c.text for c in out] == [" ".join(p.split()[:2]) for p in prompts]
    assert [c.request_id for c in out] == prompts
    assert all(c.token_logprobs == [0.0, 0.0] for c in out)
    sent = next(iter(stub.stats.bodies))
    assert sent["model"] == "echo" and sent["max_tokens"] == 2 and sent["temperature"] == 0.0
    assert sent["logprobs"] is True and "stop" not in sent


async def test_legacy_completions_endpoint(stub: StubServer) -> None:
    backend = create(ModelSpec.parse(f"openai@{stub.base_url}/echo"), {"api": "completions"})
    try:
        out = await backend.generate([_ask("plain prompt text", stop=["\n"])])
    finally:
        await backend.aclose()
    assert out[0].text == "plain prompt text"
    body = next(iter(stub.stats.bodies))
    assert body["prompt"] == "plain prompt text" and body["stop"] == ["\n"]


async def test_429_is_retried_then_succeeds(stub: StubServer) -> None:
    backend = open_backend(f"openai@{stub.base_url}/echo:flaky2", {"retries": 3, "backoff_s": 0.01})
    try:
        out = await backend.generate([_ask("hello there")])
    finally:
        await backend.aclose()
    assert out[0].ok and out[0].text == "hello there"
    assert stub.stats.by_status[429] == 2 and stub.stats.by_status[200] == 1


async def test_rate_limit_is_translated_without_retry() -> None:
    with StubServer() as server:
        backend = create(ModelSpec.parse(f"openai@{server.base_url}/echo:429"), {})
        out = await backend.generate([_ask("hello")])
        await backend.aclose()
        assert server.stats.requests == 1  # the SDK's own retries are off
    assert out[0].error_type == "RateLimitedError"


async def test_rate_limit_carries_the_servers_retry_after() -> None:
    with StubServer(StubConfig(retry_after_s=2.5)) as server:
        backend = create(ModelSpec.parse(f"openai@{server.base_url}/echo:429"), {})
        out = await backend.generate([_ask("hello")])
        await backend.aclose()
    assert out[0].error_type == "RateLimitedError"
    assert out[0].retry_after_s == 2.5


async def test_retry_waits_for_retry_after_before_the_next_call() -> None:
    # the first call is refused with "Retry-After: 0.3"; our own backoff alone would be ~1 ms
    with StubServer(StubConfig(retry_after_s=0.3)) as server:
        backend = open_backend(f"openai@{server.base_url}/echo:flaky1", {"retries": 2, "backoff_s": 0.001})
        start = time.perf_counter()
        out = await backend.generate([_ask("hello")])
        waited = time.perf_counter() - start
        await backend.aclose()
    assert out[0].ok
    assert waited >= 0.3


class _RefusedError(Exception):
    """An SDK-like status error: just enough of one for :func:`retry_after_of`."""

    def __init__(self, headers: dict[str, str]) -> None:
        super().__init__("refused")
        self.response = httpx.Response(429, headers=headers)


@pytest.mark.parametrize(
    ("headers", "expected"),
    [
        ({"Retry-After": "12"}, 12.0),
        ({"Retry-After": "1.5"}, 1.5),
        ({"retry-after-ms": "250", "Retry-After": "9"}, 0.25),  # the precise one wins
        ({"Retry-After": "Sat, 21 Nov 2026 10:00:30 GMT"}, 30.0),
        ({"Retry-After": "Sat, 21 Nov 2026 09:59:00 GMT"}, 0.0),  # already past
        ({"Retry-After": "-4"}, 0.0),
        ({"Retry-After": "soon"}, None),
        ({}, None),
    ],
)
def test_retry_after_header_forms(headers: dict[str, str], expected: float | None) -> None:
    now = datetime.datetime(2026, 11, 21, 10, 0, 0, tzinfo=datetime.UTC).timestamp()
    assert retry_after_of(_RefusedError(headers), now=now) == expected
    assert retry_after_of(ValueError("no response at all")) is None


async def test_500_gives_up_as_unavailable_after_retries(stub: StubServer) -> None:
    backend = open_backend(f"openai@{stub.base_url}/echo:500", {"retries": 2, "backoff_s": 0.01})
    try:
        out = await backend.generate([_ask("hello")])
    finally:
        await backend.aclose()
    assert out[0].error_type == "BackendUnavailableError"
    assert stub.stats.by_status[500] == 3


async def test_hang_times_out(stub: StubServer) -> None:
    backend = open_backend(f"openai@{stub.base_url}/echo:hang", {"timeout_s": 0.3, "retries": 0})
    started = time.perf_counter()
    try:
        out = await backend.generate([_ask("hello")])
    finally:
        await backend.aclose()
    assert out[0].error_type == "BackendTimeoutError"
    assert time.perf_counter() - started < 5


async def test_malformed_json_is_a_backend_error(stub: StubServer) -> None:
    backend = open_backend(f"openai@{stub.base_url}/echo:malformed", {"retries": 2, "backoff_s": 0.01})
    try:
        out = await backend.generate([_ask("hello")])
    finally:
        await backend.aclose()
    assert out[0].error_type == "BackendError"
    assert stub.stats.requests == 1  # not retryable


async def test_unreachable_server_is_unavailable() -> None:
    with StubServer() as server:
        url = server.base_url
    backend = create(ModelSpec.parse(f"openai@{url}/echo"), {"timeout_s": 2})
    out = await backend.generate([_ask("hello")])
    await backend.aclose()
    assert out[0].error_type == "BackendUnavailableError"


async def test_key_is_sent_but_never_in_errors(stub: StubServer, monkeypatch: pytest.MonkeyPatch) -> None:
    secret = "sk-test-secret-0123456789"
    monkeypatch.setenv("STUB_KEY", secret)
    backend = create(ModelSpec.parse(f"openai@{stub.base_url}/echo:500"), {"api_key_env": "STUB_KEY"})
    try:
        out = await backend.generate([_ask(f"echo {secret}")])
    finally:
        await backend.aclose()
    assert out[0].error is not None and secret not in out[0].error
    assert secret not in repr(backend)


# -- against a real llama.cpp OpenAI server ----------------------------------------------------


@pytest.mark.slow
@pytest.mark.network_server
async def test_real_server_answers_in_order(llama_server: str) -> None:
    backend = open_backend(f"openai@{llama_server}/smollm2", {"timeout_s": 120, "concurrency": 2})
    system = Message(role="system", content="Answer in one short sentence.")
    questions = ["What is the capital of France?", "What color is the sky on a clear day?"]
    requests = [
        Request(id=q, messages=[system, Message(role="user", content=q)], max_tokens=12) for q in questions
    ]
    try:
        out = await backend.generate(requests)
    finally:
        await backend.aclose()
    assert all(c.ok for c in out), [c.error for c in out]
    assert [c.request_id for c in out] == questions
    assert "paris" in out[0].text.lower()
    assert "paris" not in out[1].text.lower() and out[1].text
    assert out[0].usage.prompt_tokens > 10


@pytest.mark.slow
@pytest.mark.network_server
async def test_real_server_context_overflow_is_context_length_error(llama_server: str) -> None:
    backend = open_backend(f"openai@{llama_server}/smollm2", {"timeout_s": 120})
    try:
        out = await backend.generate([_ask("word " * 2100, max_tokens=4)])
    finally:
        await backend.aclose()
    assert out[0].error_type == "ContextLengthError", out[0].error
