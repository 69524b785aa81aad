"""What an HTTP API's failure means in halluforge's error tree, shared by every SDK-based backend.

The vendor SDKs (OpenAI, Anthropic) raise their own exception classes; each backend reads
from its exception the few facts that matter (status code, whether it was a rate limit, a
timeout or a connection failure, the wait the server asked for) and :func:`http_error` turns
them into the matching :class:`~halluforge.errors.BackendError` subclass, so the retry wrapper
treats every vendor alike. :func:`retry_after_of` reads the server's ``Retry-After`` (or
``retry-after-ms``) from any exception that carries an HTTP response.
"""

from __future__ import annotations

import datetime
import email.utils
import time

from halluforge.errors import (
    BackendError,
    BackendTimeoutError,
    BackendUnavailableError,
    ContextLengthError,
    RateLimitedError,
)

#: phrases servers use when a prompt does not fit (OpenAI, Anthropic, vLLM, llama.cpp, TGI)
CONTEXT_PHRASES = (
    "context length",
    "context_length",
    "context window",
    "maximum context",
    "too many tokens",
    "reduce the length",
    "input is too long",
    "prompt is too long",
)


def parse_http_date(value: str, now: float | None = None) -> float | None:
    """Seconds from now until an HTTP date or RFC 3339 time (0 when past; None when unreadable)."""
    when: datetime.datetime | None = None
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        try:
            when = datetime.datetime.fromisoformat(value.replace("Z", "+00:00"))
        except ValueError:
            return None
    if when.tzinfo is None:  # an HTTP date is GMT by definition
        when = when.replace(tzinfo=datetime.UTC)
    current = time.time() if now is None else now
    return max(0.0, when.timestamp() - current)


def retry_after_of(exc: BaseException, now: float | None = None) -> float | None:
    """Seconds the server asked us to wait, from ``retry-after-ms`` or ``Retry-After``.

    ``Retry-After`` is either a number of seconds or an HTTP date (RFC 9110 §10.2.3); a date in
    the past means "now" (0). A missing or unreadable header gives ``None``.
    """
    response = getattr(exc, "response", None)
    headers = getattr(response, "headers", None)
    if headers is None:
        return None
    millis = headers.get("retry-after-ms")
    if millis is not None:
        try:
            return max(0.0, float(millis) / 1000)
        except ValueError:
            pass
    value = headers.get("retry-after")
    if value is None:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        return parse_http_date(value, now)


def http_error(
    message: str,
    *,
    status: int | None,
    rate_limited: bool = False,
    timed_out: bool = False,
    unreachable: bool = False,
    retry_after_s: float | None = None,
    hint_401: str | None = None,
) -> BackendError:
    """The halluforge error for one failed HTTP call.

    429 → :class:`RateLimitedError`, timeout → :class:`BackendTimeoutError`, connection
    failure or 5xx → :class:`BackendUnavailableError` (all retried), a 400/413 about the
    prompt's length → :class:`ContextLengthError`, anything else → :class:`BackendError`
    (a 401 with ``hint_401``: how this backend is told its key).
    """
    if rate_limited or status == 429:
        return RateLimitedError(
            f"rate limited: {message}", hint="lower concurrency or wait", retry_after_s=retry_after_s
        )
    if timed_out:
        return BackendTimeoutError(
            f"no answer in time: {message}", hint="raise timeout_s or lower concurrency"
        )
    if unreachable:
        return BackendUnavailableError(f"cannot reach the server: {message}", hint="check that it is running")
    if status is not None and status >= 500:
        return BackendUnavailableError(
            f"server error {status}: {message}",
            hint="check the server's logs",
            retry_after_s=retry_after_s,  # 503 may carry one too
        )
    lowered = message.lower()
    if (status == 400 or status == 413) and any(p in lowered for p in CONTEXT_PHRASES):
        return ContextLengthError(
            f"prompt too long: {message}", hint="shorten the context or use a bigger model"
        )
    if status is not None:
        return BackendError(f"HTTP {status}: {message}", hint=hint_401 if status == 401 else None)
    return BackendError(message)


__all__ = ["CONTEXT_PHRASES", "http_error", "parse_http_date", "retry_after_of"]
