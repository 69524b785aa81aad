"""One exception tree for everything halluforge raises on purpose.

::

    HalluforgeError
    ├── ConfigError              a run config or CLI option is wrong (unknown key, bad value)
    ├── DataError                an input file is unreadable or malformed (names file, line, field)
    ├── RegistryError            an unknown component name (generator, scorer, backend, loader)
    ├── StoreError               the run store is unusable (wrong schema, locked, corrupt)
    │   └── RunLockedError           another process is running in the same run directory
    ├── RunFailedError           a run finished but past its allowed error rate
    ├── ModelError               a model cannot be loaded (missing file, missing extra)
    └── BackendError             a call to a model failed
        ├── RateLimitedError         the server said "slow down" (retried with backoff)
        ├── ContextLengthError       the prompt does not fit the model's context (never retried)
        ├── BackendTimeoutError      no answer in time (retried)
        └── BackendUnavailableError  server unreachable or 5xx (retried)

Every error carries a ``hint``: one sentence saying how to fix it. The CLI prints
``error: <message> (<hint>)`` on one line and exits with code 2 for user errors, without a
traceback. Vendor errors are translated at the backend boundary with ``raise ... from exc``.
"""

from __future__ import annotations


class HalluforgeError(Exception):
    """Base of every error halluforge raises on purpose."""

    exit_code = 2

    def __init__(self, message: str, *, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint

    def __str__(self) -> str:
        if self.hint:
            return f"{self.message} (fix: {self.hint})"
        return self.message


class ConfigError(HalluforgeError):
    """A run config, a config key or a CLI option is wrong."""


class DataError(HalluforgeError):
    """An input file is missing, unreadable or malformed."""

    def __init__(
        self,
        message: str,
        *,
        path: str | None = None,
        line: int | None = None,
        field: str | None = None,
        hint: str | None = None,
    ) -> None:
        where = ""
        if path is not None:
            where = str(path)
            if line is not None:
                where += f":{line}"
            where += ": "
        if field is not None:
            message = f"field {field!r}: {message}"
        super().__init__(where + message, hint=hint)
        self.path = path
        self.line = line
        self.field = field


class RegistryError(HalluforgeError):
    """An unknown component name was asked for."""


class StoreError(HalluforgeError):
    """The run store cannot be used."""


class RunLockedError(StoreError):
    """Another process holds the run directory's lock; ``pid`` is its process id when known."""

    def __init__(self, message: str, *, pid: int | None = None, hint: str | None = None) -> None:
        super().__init__(message, hint=hint)
        self.pid = pid


class RunFailedError(HalluforgeError):
    """A run finished, but more responses failed than ``max_error_rate`` allows."""

    exit_code = 1


class ModelError(HalluforgeError):
    """A model cannot be loaded: missing file, missing install extra, bad format."""


class BackendError(HalluforgeError):
    """A call to a model backend failed.

    ``retry_after_s`` is the wait the server asked for (an HTTP ``Retry-After`` header), so the
    retry wrapper can honour it instead of guessing with its own backoff.
    """

    retryable = False
    exit_code = 1

    def __init__(self, message: str, *, hint: str | None = None, retry_after_s: float | None = None) -> None:
        super().__init__(message, hint=hint)
        self.retry_after_s = retry_after_s


class RateLimitedError(BackendError):
    """The server asked us to slow down."""

    retryable = True


class ContextLengthError(BackendError):
    """The prompt does not fit the model's context window."""


class BackendTimeoutError(BackendError):
    """The backend did not answer in time."""

    retryable = True


class BackendUnavailableError(BackendError):
    """The server is unreachable or answered with a server error."""

    retryable = True


__all__ = [
    "BackendError",
    "BackendTimeoutError",
    "BackendUnavailableError",
    "ConfigError",
    "ContextLengthError",
    "DataError",
    "HalluforgeError",
    "ModelError",
    "RateLimitedError",
    "RegistryError",
    "RunFailedError",
    "RunLockedError",
    "StoreError",
]
