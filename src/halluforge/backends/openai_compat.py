"""Any OpenAI-compatible server through the official SDK: OpenAI itself, vLLM, llama.cpp, TGI...

Addresses: ``openai/gpt-4o-mini`` (OpenAI, or ``options["base_url"]``, or ``OPENAI_BASE_URL``)
and ``openai@http://127.0.0.1:8000/v1/MODEL`` (the server named in the address wins).

The key comes from the environment and goes only where it belongs, by the policy every
backend that sends a key shares (:mod:`halluforge.backends.keys`): ``OPENAI_API_KEY`` to
OpenAI's own API (``*.openai.com``) and to no other server; a server elsewhere gets the
variable named by ``options["api_key_env"]`` or, when none is named, the placeholder
``"EMPTY"`` (a self-hosted server usually needs no key). A key is never sent over plain HTTP
to a host other than this machine unless ``options["allow_insecure_http"]`` is true. A needed
key that is unset is a :class:`~halluforge.errors.ModelError` raised at creation. The key is
never logged, stored or put into an error message.

The SDK's own retries are switched off (``max_retries=0``) because
:class:`~halluforge.backends.wrappers.RetryingBackend` retries every backend the same way. SDK
errors are translated here, at the boundary, into completions that carry the matching
halluforge error class name: 429 → ``RateLimitedError``, timeout → ``BackendTimeoutError``,
connection failure or 5xx → ``BackendUnavailableError``, a 400 about the context length →
``ContextLengthError``, anything else → ``BackendError``. A ``Retry-After`` (or
``retry-after-ms``) header on a 429 or 5xx travels with the error, so the retry waits as long
as the server asked.
"""

from __future__ import annotations

import asyncio
import importlib.util
import os
import time
from typing import Any, Literal

from pydantic import Field, PositiveInt, StrictBool, field_validator

from halluforge.backends.base import (
    Backend,
    BackendOptions,
    Capabilities,
    ModelSpec,
    error_completion,
    messages_to_prompt,
    parse_options,
)
from halluforge.backends.http_errors import http_error, retry_after_of
from halluforge.backends.keys import NO_KEY, OPENAI, is_loopback, resolve_key, scrub
from halluforge.backends.sdk import SdkClientBackend
from halluforge.errors import BackendError, ModelError
from halluforge.records import Completion, Request, Usage

OPENAI_URL = "https://api.openai.com/v1"


class OpenAIOptions(BackendOptions):
    """Options under ``backends.openai`` (``concurrency`` is also read by the limit wrapper)."""

    base_url: str | None = Field(default=None, description="server to call when the address names none")
    api_key_env: str | None = Field(
        default=None, description="environment variable holding this server's key (none: no key)"
    )
    allow_insecure_http: StrictBool = Field(
        default=False, description="send a key over plain HTTP to another machine (trusted networks only)"
    )
    timeout_s: float = Field(default=120.0, gt=0, description="seconds to wait for one answer")
    api: Literal["chat", "completions"] = Field(
        default="chat", description="completions only for servers that lack the chat endpoint"
    )
    concurrency: PositiveInt = Field(default=16, description="calls in flight")
    organization: str | None = Field(default=None, description="OpenAI organization id")

    @field_validator("api_key_env")
    @classmethod
    def _names_a_variable(cls, value: str | None) -> str | None:
        if value is not None and not value.strip():
            raise ValueError("must name an environment variable, for example api_key_env: MY_SERVER_KEY")
        return value.strip() if value is not None else None


_INSTALL_HINT = 'pip install "halluforge[openai]"'


def resolve_base_url(spec: ModelSpec, options: dict[str, Any] | OpenAIOptions) -> str:
    """The server to call: the address, then ``options["base_url"]``, then the environment, then OpenAI."""
    opts = options if isinstance(options, OpenAIOptions) else parse_options("openai", OpenAIOptions, options)
    url = spec.base_url or opts.base_url or os.environ.get("OPENAI_BASE_URL") or OPENAI_URL
    return str(url).rstrip("/")


def resolve_api_key(base_url: str, options: dict[str, Any] | OpenAIOptions) -> str:
    """The key to send to ``base_url``, read from the environment; ``"EMPTY"`` when none belongs there.

    The shared policy of :mod:`halluforge.backends.keys`: ``OPENAI_API_KEY`` to OpenAI's own
    API, and to any other server only the variable the user names for this backend
    (``api_key_env``). A key is never sent over plain HTTP to a host other than this machine
    unless the user opts in with ``allow_insecure_http: true``.
    """
    opts = options if isinstance(options, OpenAIOptions) else parse_options("openai", OpenAIOptions, options)
    return resolve_key(
        OPENAI, base_url, api_key_env=opts.api_key_env, allow_insecure_http=opts.allow_insecure_http
    )


def _status_code(exc: BaseException) -> int | None:
    code = getattr(exc, "status_code", None)
    return code if isinstance(code, int) else None


def translate_error(exc: BaseException, secret: str = "") -> BackendError:
    """Map an SDK exception to the halluforge error tree, with any secret scrubbed out."""
    import openai

    message = scrub(str(exc) or type(exc).__name__, secret)
    status = _status_code(exc)
    return http_error(
        message if status is not None else f"{type(exc).__name__}: {message}",
        status=status,
        rate_limited=isinstance(exc, openai.RateLimitError),
        timed_out=isinstance(exc, openai.APITimeoutError | asyncio.TimeoutError),
        unreachable=isinstance(exc, openai.APIConnectionError),
        retry_after_s=retry_after_of(exc),
        hint_401="put the server's key in an environment variable named in backends.openai.api_key_env",
    )


class OpenAICompatBackend(SdkClientBackend):
    """Fans requests out to an OpenAI-compatible server, one HTTP call per request."""

    def __init__(self, spec: ModelSpec, options: dict[str, Any]) -> None:
        opts = parse_options("openai", OpenAIOptions, options)
        self.spec = spec
        self.base_url = resolve_base_url(spec, opts)
        self._key = resolve_api_key(self.base_url, opts)
        self.api: str = opts.api
        self.timeout_s = opts.timeout_s
        self.organization: str | None = opts.organization or None
        self.capabilities = Capabilities(
            logprobs=True, max_context=None, batch_size=1, concurrency=opts.concurrency
        )

    def __repr__(self) -> str:  # never show the key
        return f"OpenAICompatBackend({self.spec.address!r}, base_url={self.base_url!r})"

    def output_fields(self) -> dict[str, Any]:
        """The server and endpoint: the same model name on two servers is two models."""
        return {"base_url": self.base_url, "api": self.api}

    def _new_client(self) -> Any:
        import openai

        return openai.AsyncOpenAI(
            api_key=self._key,
            base_url=self.base_url,
            organization=self.organization,
            max_retries=0,
            timeout=self.timeout_s,
        )

    def _decoding(self, request: Request) -> dict[str, Any]:
        """The arguments both endpoints take: model, length, sampling, seed, stop strings."""
        kwargs: dict[str, Any] = {
            "model": self.spec.model,
            "max_tokens": request.max_tokens,
            "temperature": request.temperature,
            "top_p": request.top_p,
            "seed": request.seed,
        }
        if request.stop:
            kwargs["stop"] = list(request.stop)
        return kwargs

    async def _chat(self, client: Any, request: Request) -> Completion:
        kwargs = self._decoding(request)
        kwargs["messages"] = [{"role": m.role, "content": m.content} for m in request.messages]
        if request.logprobs:
            kwargs["logprobs"] = True
        out = await client.chat.completions.create(**kwargs)
        choice = out.choices[0]
        logprobs: list[float] | None = None
        if request.logprobs and choice.logprobs is not None and choice.logprobs.content is not None:
            logprobs = [float(t.logprob) for t in choice.logprobs.content]
        return Completion(
            request_id=request.id,
            text=choice.message.content or "",
            token_logprobs=logprobs,
            usage=_usage(out),
            finish_reason=choice.finish_reason,
        )

    async def _legacy(self, client: Any, request: Request) -> Completion:
        kwargs = self._decoding(request)
        kwargs["prompt"] = messages_to_prompt(request.messages)
        if request.logprobs:
            kwargs["logprobs"] = 1
        out = await client.completions.create(**kwargs)
        choice = out.choices[0]
        logprobs: list[float] | None = None
        if request.logprobs and choice.logprobs is not None and choice.logprobs.token_logprobs is not None:
            logprobs = [float(v) for v in choice.logprobs.token_logprobs if v is not None]
        return Completion(
            request_id=request.id,
            text=choice.text or "",
            token_logprobs=logprobs,
            usage=_usage(out),
            finish_reason=choice.finish_reason,
        )

    async def _one(self, client: Any, request: Request) -> Completion:
        started = time.perf_counter()
        try:
            call = self._chat if self.api == "chat" else self._legacy
            completion = await call(client, request)
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            return error_completion(request, translate_error(exc, self._key))
        completion.latency_s = time.perf_counter() - started  # set in place: a copy per call costs
        return completion


def _usage(out: Any) -> Usage:
    usage = getattr(out, "usage", None)
    if usage is None:
        return Usage()
    return Usage(
        prompt_tokens=int(getattr(usage, "prompt_tokens", 0) or 0),
        completion_tokens=int(getattr(usage, "completion_tokens", 0) or 0),
    )


def check(spec: ModelSpec, options: dict[str, Any]) -> None:
    """Raise what :func:`create` would (no SDK, bad option, missing or misplaced key), calling no server."""
    if importlib.util.find_spec("openai") is None:
        raise ModelError(
            "the openai backend needs the openai SDK, which is not installed", hint=_INSTALL_HINT
        )
    OpenAICompatBackend(spec, options)  # builds no client until the first request


def create(spec: ModelSpec, options: dict[str, Any]) -> Backend:
    """Factory registered as ``openai``; fails early without the SDK or without a needed key."""
    check(spec, options)
    return OpenAICompatBackend(spec, options)


__all__ = [
    "NO_KEY",
    "OPENAI_URL",
    "OpenAICompatBackend",
    "OpenAIOptions",
    "check",
    "create",
    "is_loopback",
    "resolve_api_key",
    "resolve_base_url",
    "retry_after_of",
    "translate_error",
]
