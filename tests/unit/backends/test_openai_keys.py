"""A key goes only where it belongs, checked with a server that records every request's headers.

``OPENAI_API_KEY`` reaches OpenAI's API only; another server gets only the variable named for
the backend (``api_key_env``); no key goes over plain HTTP to another machine without
``allow_insecure_http``.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml

from extra_skips import needs, require
from halluforge.backends.base import ModelSpec
from halluforge.backends.openai_compat import NO_KEY, create, is_loopback, resolve_api_key, resolve_base_url
from halluforge.errors import ConfigError
from halluforge.records import Message, Request
from halluforge.testing.openai_stub import StubServer

#: the tests that send requests through the openai backend (the key rules themselves are core)
OPENAI = needs("openai")

OPENAI_SECRET = "sk-openai-secret-1111"
SERVER_SECRET = "sk-server-secret-2222"


@pytest.fixture
def stub() -> Iterator[StubServer]:
    require("view", "fastapi")  # the stub is served by FastAPI and uvicorn
    require("view", "uvicorn")
    with StubServer() as server:
        yield server


@pytest.fixture(autouse=True)
def _keys(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", OPENAI_SECRET)
    monkeypatch.setenv("SERVER_KEY", SERVER_SECRET)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)


def _seen(server: StubServer) -> str:
    """Every header value the server received, as one string."""
    return "\n".join(f"{k}: {v}" for headers in server.stats.headers for k, v in headers.items())


async def _ask(address: str, options: dict[str, object]) -> None:
    backend = create(ModelSpec.parse(address), options)
    try:
        out = await backend.generate([Request(id="q", messages=[Message(role="user", content="hi there")])])
    finally:
        await backend.aclose()
    assert out[0].error is None, out[0].error


@OPENAI
async def test_openai_key_never_reaches_another_server(stub: StubServer) -> None:
    await _ask(f"openai@{stub.base_url}/echo", {})
    seen = _seen(stub)
    assert stub.stats.requests == 1
    assert OPENAI_SECRET not in seen and SERVER_SECRET not in seen
    assert f"authorization: Bearer {NO_KEY}" in seen


@OPENAI
async def test_openai_base_url_from_the_environment_gets_no_openai_key(
    stub: StubServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_BASE_URL", stub.base_url)
    await _ask("openai/echo", {})
    assert stub.stats.requests == 1
    assert OPENAI_SECRET not in _seen(stub)


@OPENAI
async def test_named_key_reaches_its_server_and_only_it(stub: StubServer) -> None:
    await _ask(f"openai@{stub.base_url}/echo", {"api_key_env": "SERVER_KEY"})
    seen = _seen(stub)
    assert f"authorization: Bearer {SERVER_SECRET}" in seen
    assert OPENAI_SECRET not in seen


@OPENAI
def test_the_backend_refuses_a_key_over_plain_http_to_another_host() -> None:
    with pytest.raises(ConfigError, match="plain HTTP"):
        create(ModelSpec.parse("openai@http://10.1.2.3:8000/v1/m"), {"api_key_env": "SERVER_KEY"})


def test_no_key_over_plain_http_to_another_host_without_opt_in() -> None:
    remote = ModelSpec.parse("openai@http://10.1.2.3:8000/v1/m")
    with pytest.raises(ConfigError, match="plain HTTP"):
        resolve_api_key("http://api.openai.com/v1", {})
    # with the opt-in the key is used; https and loopback need none
    opted_in = {"api_key_env": "SERVER_KEY", "allow_insecure_http": True}
    assert resolve_api_key(remote.base_url or "", opted_in) == SERVER_SECRET
    assert resolve_api_key("https://10.1.2.3/v1", {"api_key_env": "SERVER_KEY"}) == SERVER_SECRET
    assert resolve_api_key("http://localhost:8000/v1", {"api_key_env": "SERVER_KEY"}) == SERVER_SECRET
    # a host that is not OpenAI's, without a named key, gets the placeholder, even over plain HTTP
    assert resolve_api_key("http://10.1.2.3:8000/v1", {}) == NO_KEY


def test_openai_key_goes_to_openai() -> None:
    assert resolve_api_key("https://api.openai.com/v1", {}) == OPENAI_SECRET
    assert is_loopback("http://127.0.0.5:1/v1") and is_loopback("http://[::1]:8000/v1")
    assert not is_loopback("http://10.0.0.1/v1") and not is_loopback("http://localhost.evil.com/v1")


def test_base_url_precedence(monkeypatch: pytest.MonkeyPatch) -> None:
    at = ModelSpec.parse("openai@http://10.0.0.1:8000/v1/m")
    plain = ModelSpec.parse("openai/gpt-4o-mini")
    assert resolve_base_url(at, {"base_url": "http://other/v1"}) == "http://10.0.0.1:8000/v1"
    assert resolve_base_url(plain, {"base_url": "http://other/v1/"}) == "http://other/v1"
    monkeypatch.setenv("OPENAI_BASE_URL", "http://from-env:9000/v1")
    assert resolve_base_url(plain, {}) == "http://from-env:9000/v1"
    monkeypatch.delenv("OPENAI_BASE_URL")
    assert resolve_base_url(plain, {}) == "https://api.openai.com/v1"


def test_local_server_without_key_uses_placeholder(monkeypatch: pytest.MonkeyPatch) -> None:
    assert resolve_api_key("http://127.0.0.1:8000/v1", {}) == "EMPTY"
    monkeypatch.setenv("MY_KEY", "sk-from-named-var")
    assert resolve_api_key("https://api.openai.com/v1", {"api_key_env": "MY_KEY"}) == "sk-from-named-var"


@OPENAI
def test_a_whole_run_sends_no_key_to_a_local_server(stub: StubServer, tmp_path: Path) -> None:
    from halluforge.cli.main import main

    config = {
        "output_dir": str(tmp_path / "runs"),
        "data": [{"loader": "bundled", "limit": 3}],
        "models": {"generator": "mock/echo", "targets": [f"openai@{stub.base_url}/echo"]},
        "answer": {"settings": ["closed_book"]},
        "score": {"bootstrap": 0},
        "cache": {"enabled": False},
    }
    path = tmp_path / "run.yaml"
    path.write_text(yaml.safe_dump(config))
    assert main(["run", str(path), "--quiet"]) == 0
    assert stub.stats.requests > 0
    assert OPENAI_SECRET not in _seen(stub) and SERVER_SECRET not in _seen(stub)
