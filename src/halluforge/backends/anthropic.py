"""Anthropic's Messages API through the official SDK (extra ``anthropic``).

Addresses: ``anthropic/claude-sonnet-4-6`` (Anthropic's API, or ``options["base_url"]``, or
``ANTHROPIC_BASE_URL``) and ``anthropic@http://127.0.0.1:8080/MODEL`` for a server that speaks
the same API (a gateway, a local stub). The key comes from the environment and goes only where
it belongs, by the policy every backend that sends a key shares
(:mod:`halluforge.backends.keys`): ``ANTHROPIC_API_KEY`` to Anthropic's own API
(``*.anthropic.com``) and to no other server; another server gets only the variable named by
``options["api_key_env"]`` (else the placeholder ``"EMPTY"``), and never over plain HTTP to a
host other than this machine unless ``options["allow_insecure_http"]`` is true. A needed key
that is unset fails at creation with a :class:`~halluforge.errors.ModelError` saying which
variable to set. The key is always passed to the SDK explicitly, so the SDK never falls back to
``ANTHROPIC_AUTH_TOKEN`` or a credentials profile of its own. The key never reaches a log, the
store, the cache or an error message.

Mapping from our request: system messages become the ``system`` parameter, the other messages
are sent in order, ``max_tokens`` and ``stop`` (as ``stop_sequences``) are sent as they are.
The Messages API of SDK 2.x (API version 2026-10-21) has no sampling parameters, no seed and
no token log-probabilities: ``temperature``, ``top_p`` and ``seed`` are not sent (the model's
own sampling applies) and the backend advertises ``logprobs=False``, so scorers that read
log-probabilities report "not computed" for this model.

The SDK's own retries are off (``max_retries=0``):
:class:`~halluforge.backends.wrappers.RetryingBackend` retries every backend the same way and
waits at least as long as the server asked, read from ``retry-after`` or, when that header is
missing, from the ``anthropic-ratelimit-*-reset`` time of every limit the response says is
exhausted. SDK errors are translated here with :func:`~halluforge.backends.http_errors.http_error`
(429 → rate limited, 529 "overloaded" and other 5xx → unavailable, "prompt is too long" →
context length, 404 → the model name is wrong).
"""

from __future__ import annotations

import asyncio
import os
import time
from typing import Any

from pydantic import Field, StrictBool, field_validator

from halluforge.backends.base import (
    Backend,
    BackendOptions,
    Capabilities,
    ModelSpec,
    error_completion,
    parse_options,
)
from halluforge.backends.http_errors import http_error, parse_http_date, retry_after_of
from halluforge.backends.keys import ANTHROPIC, resolve_key, scrub
from halluforge.backends.sdk import SdkClientBackend
from halluforge.errors import BackendError, ModelError
from halluforge.records import Completion, Request, Usage

ANTHROPIC_URL = "https://api.anthropic.com"

_INSTALL_HINT = 'pip install "halluforge[anthropic]"'

#: the rate limits Anthropic reports in ``anthropic-ratelimit-<limit>-remaining`` / ``-reset``
_LIMITS = ("requests", "tokens", "input-tokens", "output-tokens")


class AnthropicOptions(BackendOptions):
    """Options under ``backends.anthropic``."""

    base_url: str | None = Field(default=None, description="server root (the SDK appends /v1/messages)")
    api_key_env: str | None = Field(
        default=None,
        description="environment variable holding this server's key (default: ANTHROPIC_API_KEY, "
        "for Anthropic's own API only)",
    )
    allow_insecure_http: StrictBool = Field(
        default=False, description="send a key over plain HTTP to another machine (trusted networks only)"
    )
    timeout_s: float = Field(default=120.0, gt=0, description="seconds to wait for one answer")
    max_concurrency: int = Field(default=8, ge=1, description="calls in flight when concurrency is unset")

    @field_validator("api_key_env")
    @classmethod
    def _names_a_variable(cls, value: str | None) -> str | None:
        if value is not None and not value.strip():
            raise ValueError("must name an environment variable, for example api_key_env: MY_GATEWAY_KEY")
        return value.strip() if value is not None else None


def reset_wait_of(exc: BaseException, now: float | None = None) -> float | None:
    """Seconds until every exhausted Anthropic rate limit resets (None when no header says so)."""
    headers = getattr(getattr(exc, "response", None), "headers", None)
    if headers is None:
        return None
    waits = []
    for limit in _LIMITS:
        remaining = headers.get(f"anthropic-ratelimit-{limit}-remaining")
        reset = headers.get(f"anthropic-ratelimit-{limit}-reset")
        if remaining is None or reset is None or remaining.strip() != "0":
            continue
        wait = parse_http_date(reset, now)
        if wait is not None:
            waits.append(wait)
    return max(waits) if waits else None


def translate_error(exc: BaseException, secret: str = "") -> BackendError:
    """Map an Anthropic SDK exception to the halluforge error tree, with the key scrubbed out."""
    import anthropic

    message = scrub(str(exc) or type(exc).__name__, secret)
    status = getattr(exc, "status_code", None)
    status = status if isinstance(status, int) else None
    if status == 404:
        return BackendError(
            f"HTTP 404: {message}",
            hint="check the model name after anthropic/ (for example anthropic/claude-sonnet-4-6)",
        )
    if status in (401, 403):
        return BackendError(f"HTTP {status}: {message}", hint="check the API key in the environment")
    wait = retry_after_of(exc)
    return http_error(
        message if status is not None else f"{type(exc).__name__}: {message}",
        status=status,
        rate_limited=isinstance(exc, anthropic.RateLimitError),
        timed_out=isinstance(exc, anthropic.APITimeoutError | asyncio.TimeoutError),
        unreachable=isinstance(exc, anthropic.APIConnectionError),
        retry_after_s=wait if wait is not None else reset_wait_of(exc),
    )


class AnthropicBackend(SdkClientBackend):
    """Fans requests out to the Messages API, one HTTP call per request."""

    def __init__(self, spec: ModelSpec, options: dict[str, Any]) -> None:
        self.options = parse_options("anthropic", AnthropicOptions, options)
        self.spec = spec
        url = spec.base_url or self.options.base_url or os.environ.get("ANTHROPIC_BASE_URL") or ANTHROPIC_URL
        self.base_url = url.rstrip("/")
        self._key = resolve_key(
            ANTHROPIC,
            self.base_url,
            api_key_env=self.options.api_key_env,
            allow_insecure_http=self.options.allow_insecure_http,
        )
        self.capabilities = Capabilities(
            logprobs=False, batch_size=1, concurrency=self.options.max_concurrency
        )

    def __repr__(self) -> str:  # never show the key
        return f"AnthropicBackend({self.spec.address!r}, base_url={self.base_url!r})"

    def output_fields(self) -> dict[str, Any]:
        """The server: the same model name behind two servers is two models."""
        return {"base_url": self.base_url}

    def _new_client(self) -> Any:
        import anthropic

        return anthropic.AsyncAnthropic(
            api_key=self._key, base_url=self.base_url, max_retries=0, timeout=self.options.timeout_s
        )

    def arguments(self, request: Request) -> dict[str, Any]:
        """The Messages API arguments for one request (see the module docstring for what is left out)."""
        system = "\n\n".join(m.content for m in request.messages if m.role == "system")
        kwargs: dict[str, Any] = {
            "model": self.spec.model,
            "max_tokens": request.max_tokens,
            "messages": [
                {"role": m.role, "content": m.content} for m in request.messages if m.role != "system"
            ],
        }
        if system:
            kwargs["system"] = system
        if request.stop:
            kwargs["stop_sequences"] = list(request.stop)
        return kwargs

    async def _one(self, client: Any, request: Request) -> Completion:
        started = time.perf_counter()
        try:
            out = await client.messages.create(**self.arguments(request))
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            return error_completion(request, translate_error(exc, self._key))
        text = "".join(block.text for block in out.content if getattr(block, "type", "") == "text")
        usage = getattr(out, "usage", None)
        return Completion(
            request_id=request.id,
            text=text,
            usage=Usage(
                prompt_tokens=int(getattr(usage, "input_tokens", 0) or 0),
                completion_tokens=int(getattr(usage, "output_tokens", 0) or 0),
            ),
            finish_reason=out.stop_reason,
            latency_s=time.perf_counter() - started,
        )


def create(spec: ModelSpec, options: dict[str, Any]) -> Backend:
    """Factory registered as ``anthropic``; fails early without the SDK or without a needed key."""
    try:
        import anthropic  # noqa: F401
    except ImportError as exc:
        raise ModelError(
            "the anthropic backend needs the anthropic SDK, which is not installed", hint=_INSTALL_HINT
        ) from exc
    return AnthropicBackend(spec, options)


def check(spec: ModelSpec, options: dict[str, Any]) -> None:
    """Raise what :func:`create` would (no SDK, bad option, missing key or folder); creating loads nothing."""
    create(spec, options)


__all__ = [
    "ANTHROPIC_URL",
    "AnthropicBackend",
    "AnthropicOptions",
    "check",
    "create",
    "reset_wait_of",
    "translate_error",
]
