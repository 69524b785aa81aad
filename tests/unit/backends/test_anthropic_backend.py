"""The Anthropic backend against a local Messages-API stub (FastAPI + uvicorn on 127.0.0.1)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest

from extra_skips import reason

pytest.importorskip("anthropic", reason=reason("anthropic", "anthropic"))
# the Messages-API stub is served by FastAPI and uvicorn
pytest.importorskip("fastapi", reason=reason("view", "fastapi"))
pytest.importorskip("uvicorn", reason=reason("view", "uvicorn"))

from halluforge.backends import Backend, open_backend
from halluforge.backends.anthropic import create
from halluforge.backends.base import ModelSpec
from halluforge.errors import ConfigError, ModelError
from halluforge.records import Completion, Message, Request
from halluforge.testing.anthropic_stub import AnthropicStub, StubConfig

RETRY_AFTER_S = 0.4


@pytest.fixture(scope="module")
def stub() -> Iterator[AnthropicStub]:
    with AnthropicStub(StubConfig(retry_after_s=RETRY_AFTER_S)) as server:
        yield server


@pytest.fixture(autouse=True)
def _no_ambient_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL", "ANTHROPIC_AUTH_TOKEN"):
        monkeypatch.delenv(name, raising=False)


def _ask(text: str) -> Request:
    return Request(id=text, messages=[Message(role="user", content=text)])


def _run(backend: Backend, requests: list[Request]) -> list[Completion]:
    async def go() -> list[Completion]:
        try:
            return await backend.generate(requests)
        finally:
            await backend.aclose()

    return asyncio.run(go())


def test_missing_key_for_anthropic_names_the_variable() -> None:
    with pytest.raises(ModelError, match="set ANTHROPIC_API_KEY"):
        create(ModelSpec.parse("anthropic/claude-sonnet-4-6"), {})
    with pytest.raises(ModelError, match="set MY_KEY"):
        create(ModelSpec.parse("anthropic/claude-sonnet-4-6"), {"api_key_env": "MY_KEY"})


def test_unknown_and_bad_options_are_config_errors() -> None:
    with pytest.raises(ConfigError, match="unknown anthropic option 'temprature'") as info:
        create(ModelSpec.parse("anthropic@http://127.0.0.1:1/echo"), {"temprature": 0})
    assert "timeout_s" in str(info.value)
    with pytest.raises(ConfigError, match=r"backends\.anthropic\.timeout_s"):
        create(ModelSpec.parse("anthropic@http://127.0.0.1:1/echo"), {"timeout_s": -1})


def test_request_mapping_and_answer(stub: AnthropicStub, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-test-secret")
    # a server on this machine gets a vendor's key only when the config names it
    backend = open_backend(
        f"anthropic@{stub.base_url}/echo", {"retries": 0, "api_key_env": "ANTHROPIC_API_KEY"}
    )
    request = Request(
        id="r1",
        messages=[
            Message(role="system", content="Answer briefly."),
            Message(role="user", content="what is the capital of france STOP and more"),
        ],
        max_tokens=5,
        temperature=0.0,
        stop=["STOP"],
    )
    (completion,) = _run(backend, [request])
    assert completion.ok, completion.error
    assert completion.text == "what is the capital of"
    assert completion.finish_reason == "max_tokens"
    assert completion.usage.prompt_tokens == 9
    assert completion.usage.completion_tokens == 5
    call = stub.calls[-1]
    assert call.body["system"] == "Answer briefly."
    assert call.body["messages"] == [{"role": "user", "content": request.messages[1].content}]
    assert call.body["stop_sequences"] == ["STOP"]
    assert call.body["max_tokens"] == 5
    # the 2026-10-21 API rejects sampling parameters: none is sent
    assert not {"temperature", "top_p", "top_k", "seed"} & set(call.body)
    assert call.headers["authorization"] == "Bearer sk-ant-test-secret"
    assert "anthropic-version" in call.headers


def test_429_with_retry_after_is_waited_out_then_answered(stub: AnthropicStub) -> None:
    backend = open_backend(f"anthropic@{stub.base_url}/echo:flaky1", {"retries": 2, "backoff_s": 0.001})
    (completion,) = _run(backend, [_ask("flaky prompt one")])
    assert completion.ok, completion.error
    assert completion.text == "flaky prompt one"
    times = [c.at for c in stub.calls if c.prompt == "flaky prompt one"]
    assert len(times) == 2
    assert times[1] - times[0] >= RETRY_AFTER_S  # the wait the 429 asked for, not the 1 ms backoff


def test_persistent_429_is_a_rate_limited_completion(stub: AnthropicStub) -> None:
    backend = open_backend(f"anthropic@{stub.base_url}/echo:429", {"retries": 0})
    (completion,) = _run(backend, [_ask("always limited")])
    assert completion.error_type == "RateLimitedError"
    assert completion.retry_after_s == pytest.approx(RETRY_AFTER_S)


def test_ratelimit_reset_headers_stand_in_for_retry_after(stub: AnthropicStub) -> None:
    backend = open_backend(f"anthropic@{stub.base_url}/echo:ratelimit-reset", {"retries": 0})
    (completion,) = _run(backend, [_ask("reset headers")])
    assert completion.error_type == "RateLimitedError"
    assert completion.retry_after_s is not None
    assert RETRY_AFTER_S <= completion.retry_after_s <= RETRY_AFTER_S + 2


@pytest.mark.parametrize(
    ("model", "error_type", "text"),
    [
        ("echo:529", "BackendUnavailableError", "server error 529"),
        ("echo:long", "ContextLengthError", "prompt too long"),
        ("no-such-model", "BackendError", "check the model name"),
    ],
)
def test_vendor_errors_map_into_the_tree(stub: AnthropicStub, model: str, error_type: str, text: str) -> None:
    backend = open_backend(f"anthropic@{stub.base_url}/{model}", {"retries": 0})
    (completion,) = _run(backend, [_ask(f"error case {model}")])
    assert completion.error_type == error_type
    assert text in (completion.error or "")


def test_unreachable_server_is_unavailable() -> None:
    backend = open_backend("anthropic@http://127.0.0.1:9/echo", {"retries": 0, "timeout_s": 2})
    (completion,) = _run(backend, [_ask("nobody home")])
    assert completion.error_type == "BackendUnavailableError"


def test_key_never_appears_in_repr(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-very-secret")
    backend = create(ModelSpec.parse("anthropic/claude-sonnet-4-6"), {})
    assert "very-secret" not in repr(backend)
    assert backend.capabilities.logprobs is False
