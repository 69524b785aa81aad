"""Reach every remote model server a run will call, once, before the run starts.

A target on an OpenAI-compatible server that is down used to end a run with "8 of 8
responses failed" and the cause only in ``responses.jsonl``. Preflight now sends one request
to each distinct server (``GET <base_url>/models`` for OpenAI-compatible servers, ``GET
<base_url>/v1/models`` for Anthropic) with a short timeout. Any HTTP answer, even 401 or 404,
proves the server is there (the key and model are the backend's business); only a failure to
connect, a DNS failure or a timeout is reported, as one line naming the model address, the
URL and the cause. Nothing is sent but the request line: no key, no prompt.
"""

from __future__ import annotations

import socket
import urllib.error
import urllib.request
from collections.abc import Callable, Mapping
from typing import Any

from halluforge.errors import ConfigError

#: seconds to wait for a server's first answer
PING_TIMEOUT_S = 5.0


def server_url(address: str, options: Mapping[str, Any]) -> str | None:
    """The URL a remote backend's address will call, or None for a backend that runs in-process."""
    from halluforge.backends import ModelSpec, split_options

    spec = ModelSpec.parse(address)
    _, options = split_options(spec.backend, dict(options))  # the backend's own options, no wrappers
    if spec.backend == "openai":
        from halluforge.backends.openai_compat import resolve_base_url

        return resolve_base_url(spec, options).rstrip("/") + "/models"
    if spec.backend == "anthropic":
        import os

        from halluforge.backends.anthropic import ANTHROPIC_URL

        base = (
            spec.base_url or options.get("base_url") or os.environ.get("ANTHROPIC_BASE_URL") or ANTHROPIC_URL
        )
        return str(base).rstrip("/") + "/v1/models"
    return None


def _cause(exc: BaseException) -> str:
    reason = getattr(exc, "reason", exc)
    if isinstance(reason, socket.timeout | TimeoutError):
        return f"no answer within {PING_TIMEOUT_S:g} s"
    if isinstance(reason, ConnectionRefusedError):
        return "connection refused (is the server running, on this port?)"
    if isinstance(reason, socket.gaierror):
        return "the host name does not resolve"
    text = getattr(reason, "strerror", None) or str(reason)
    return text or type(reason).__name__


def ping(url: str, timeout: float = PING_TIMEOUT_S) -> str | None:
    """None when the server at ``url`` answers (any HTTP status), else the cause in words."""
    request = urllib.request.Request(url, method="GET", headers={"User-Agent": "halluforge-preflight"})
    try:
        with urllib.request.urlopen(request, timeout=timeout):
            return None
    except urllib.error.HTTPError:
        return None  # it answered: reachable
    except (urllib.error.URLError, OSError, ValueError) as exc:
        return _cause(exc)


def check_reachable(
    addresses: Mapping[str, str],
    options: Callable[[str], Mapping[str, Any]],
    pinger: Callable[[str], str | None] = ping,
) -> list[tuple[str, ConfigError]]:
    """Each (key path, error) for a remote server that does not answer; each server pinged once.

    ``addresses`` maps key paths (``models.targets.0``) to model addresses; ``options`` gives a
    backend's options by backend name.
    """
    from halluforge.backends import ModelSpec

    seen: dict[str, str | None] = {}
    problems = []
    for key, address in addresses.items():
        backend = ModelSpec.parse(address).backend
        url = server_url(address, options(backend))
        if url is None:
            continue
        if url not in seen:
            seen[url] = pinger(url)
        cause = seen[url]
        if cause is not None:
            problems.append(
                (
                    key,
                    ConfigError(
                        f"cannot reach {address} at {url}: {cause}",
                        hint="start the server or fix the address, then run again (nothing was written)",
                    ),
                )
            )
    return problems


__all__ = ["PING_TIMEOUT_S", "check_reachable", "ping", "server_url"]
