"""One key-routing policy for every backend that sends a key, checked on the wire.

A header-recording server (:class:`~halluforge.testing.recorder.Recorder`, 127.0.0.1 only)
stands in for a host on another machine: it is set as the HTTP proxy, so a request to
``http://remote.example.invalid`` arrives there in absolute form and the test sees exactly
what the client would have sent. For each backend: no key reaches a non-loopback plain-HTTP
host (without the opt-in the backend refuses before any request; the vendor's own variable
never goes to another host), and with the opt-in the recorder does see the named key, which
shows the test would catch a leak. A whole run against the recorder on loopback then shows the
key in no file the run writes: the run directory and the response cache are searched byte by
byte, also after a server echoed the key back in an error message.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml

from halluforge.backends import open_backend
from halluforge.errors import ConfigError
from halluforge.records import Completion, Message, Request
from halluforge.testing.recorder import Recorder

VENDOR_SECRET = "sk-vendor-secret-7777"
SERVER_SECRET = "sk-server-secret-8888"
REMOTE = "http://remote.example.invalid:8080"


@dataclass(frozen=True)
class Flavour:
    """One backend that sends a key: its name, its vendor's variable and its address shapes."""

    backend: str
    vendor_env: str
    sdk: str
    path: str  # what goes between the server root and the model name

    def address(self, root: str, model: str = "echo") -> str:
        return f"{self.backend}@{root}{self.path}/{model}"


FLAVOURS = [
    Flavour("openai", "OPENAI_API_KEY", "openai", "/v1"),
    Flavour("anthropic", "ANTHROPIC_API_KEY", "anthropic", ""),
]
IDS = [f.backend for f in FLAVOURS]


@pytest.fixture
def recorder() -> Iterator[Recorder]:
    with Recorder() as server:
        yield server


@pytest.fixture(autouse=True)
def _environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for flavour in FLAVOURS:
        monkeypatch.setenv(flavour.vendor_env, VENDOR_SECRET)
    monkeypatch.setenv("SERVER_KEY", SERVER_SECRET)
    for var in ("OPENAI_BASE_URL", "ANTHROPIC_BASE_URL", "ANTHROPIC_AUTH_TOKEN", "NO_PROXY", "no_proxy"):
        monkeypatch.delenv(var, raising=False)


def _proxy_through(monkeypatch: pytest.MonkeyPatch, recorder: Recorder) -> None:
    """Send every plain-HTTP request to the recorder, as a proxy: the 'remote' host is never resolved."""
    for var in ("HTTP_PROXY", "http_proxy", "ALL_PROXY", "all_proxy"):
        monkeypatch.setenv(var, recorder.url)


def _ask(address: str, options: dict[str, Any]) -> Completion:
    backend = open_backend(address, {"retries": 0, **options})

    async def go() -> list[Completion]:
        try:
            return await backend.generate(
                [Request(id="q", messages=[Message(role="user", content="hi there")])]
            )
        finally:
            await backend.aclose()

    return asyncio.run(go())[0]


@pytest.mark.parametrize("flavour", FLAVOURS, ids=IDS)
def test_no_key_reaches_a_remote_plain_http_host(
    flavour: Flavour, recorder: Recorder, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip(flavour.sdk)
    _proxy_through(monkeypatch, recorder)
    remote = flavour.address(REMOTE)
    # a named key over plain HTTP to another machine: refused before any request
    with pytest.raises(ConfigError, match="plain HTTP"):
        _ask(remote, {"api_key_env": "SERVER_KEY"})
    # the vendor's own variable never goes to another host, whatever the scheme
    with pytest.raises(ConfigError, match=f"refusing to send {flavour.vendor_env}"):
        _ask(remote, {"api_key_env": flavour.vendor_env, "allow_insecure_http": True})
    with pytest.raises(ConfigError, match=f"refusing to send {flavour.vendor_env}"):
        _ask(flavour.address("https://remote.example.invalid"), {"api_key_env": flavour.vendor_env})
    assert recorder.requests == []
    # without a named variable the remote host is asked, with the placeholder and no key
    answer = _ask(remote, {})
    assert answer.error is None, answer.error
    (request,) = recorder.requests
    assert request.host == "remote.example.invalid:8080"
    assert VENDOR_SECRET not in recorder.seen() and SERVER_SECRET not in recorder.seen()


@pytest.mark.parametrize("flavour", FLAVOURS, ids=IDS)
def test_the_recorder_sees_a_key_sent_with_the_opt_in(
    flavour: Flavour, recorder: Recorder, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The control: with ``allow_insecure_http`` the named key does travel, and the recorder shows it."""
    pytest.importorskip(flavour.sdk)
    _proxy_through(monkeypatch, recorder)
    answer = _ask(flavour.address(REMOTE), {"api_key_env": "SERVER_KEY", "allow_insecure_http": True})
    assert answer.error is None, answer.error
    assert SERVER_SECRET in recorder.seen()
    assert VENDOR_SECRET not in recorder.seen()


@pytest.mark.parametrize("flavour", FLAVOURS, ids=IDS)
def test_base_url_from_the_environment_gets_no_vendor_key(
    flavour: Flavour, recorder: Recorder, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip(flavour.sdk)
    _proxy_through(monkeypatch, recorder)
    monkeypatch.setenv(f"{flavour.backend.upper()}_BASE_URL", REMOTE + flavour.path)
    answer = _ask(f"{flavour.backend}/echo", {})
    assert answer.error is None, answer.error
    assert len(recorder.requests) == 1
    assert VENDOR_SECRET not in recorder.seen()


def _files_holding(root: Path, secret: str) -> list[str]:
    needle = secret.encode()
    return [str(p) for p in sorted(root.rglob("*")) if p.is_file() and needle in p.read_bytes()]


@pytest.mark.parametrize("flavour", FLAVOURS, ids=IDS)
def test_a_run_writes_the_key_into_no_file(
    flavour: Flavour, recorder: Recorder, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip(flavour.sdk)
    from halluforge.cli.main import main

    cache = tmp_path / "cache"
    monkeypatch.setenv("HALLUFORGE_CACHE_DIR", str(cache))
    config = {
        "output_dir": str(tmp_path / "runs"),
        "run_id": "keys",
        "data": [{"loader": "bundled", "limit": 2}],
        "models": {
            "generator": "mock/echo",
            # one server that answers, one that echoes the credentials it got in a 401
            "targets": [flavour.address(recorder.url), flavour.address(recorder.url, "reflect")],
        },
        "answer": {"settings": ["closed_book"]},
        "score": {"bootstrap": 0},
        "backends": {flavour.backend: {"api_key_env": "SERVER_KEY", "retries": 0}},
        "max_error_rate": 1.0,
    }
    path = tmp_path / "run.yaml"
    path.write_text(yaml.safe_dump(config))

    assert main(["run", str(path), "--quiet"]) == 0

    assert SERVER_SECRET in recorder.seen()  # the key was in play: loopback gets the named key
    assert VENDOR_SECRET not in recorder.seen()
    run_dir = tmp_path / "runs" / "keys"
    responses = (run_dir / "responses.jsonl").read_text(encoding="utf-8")
    assert "invalid credentials, you sent" in responses and "***" in responses  # echoed, then scrubbed
    assert any(cache.rglob("*")), "the run wrote no cache"
    for secret in (SERVER_SECRET, VENDOR_SECRET):
        assert _files_holding(run_dir, secret) == []
        assert _files_holding(cache, secret) == []
