"""The backend contract and model addressing.

A backend turns a list of :class:`~halluforge.records.Request` into a list of
:class:`~halluforge.records.Completion`, in the same order. Taking a whole list lets a local
engine batch and an HTTP backend fan out. A backend never raises for one failed request: the
failure is returned as a completion with ``error`` set, so one bad case never kills a run.
It raises only when it cannot work at all (model missing, extra not installed).

Models are addressed as ``backend/model`` (``llamacpp/smollm2-135m``, ``openai/gpt-4o-mini``,
``hf/path/to/folder``, ``mock/echo``) or, for an OpenAI-compatible server at a given address,
``openai@http://127.0.0.1:8000/v1/model-name``.
"""

from __future__ import annotations

import abc
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError

from halluforge.errors import BackendError, ConfigError
from halluforge.records import Completion, Message, Request


@dataclass(frozen=True)
class ModelSpec:
    """A parsed model address."""

    backend: str
    model: str
    base_url: str | None = None

    @property
    def address(self) -> str:
        """The address in the form the user wrote it."""
        if self.base_url:
            return f"{self.backend}@{self.base_url.rstrip('/')}/{self.model}"
        return f"{self.backend}/{self.model}"

    @classmethod
    def parse(cls, address: str) -> ModelSpec:
        """Parse ``backend/model`` or ``backend@http(s)://host[:port]/path/model``."""
        text = address.strip()
        if "@" in text.split("/", 1)[0]:
            backend, _, rest = text.partition("@")
            if not rest.startswith(("http://", "https://")):
                raise ConfigError(
                    f"model address {address!r} has '@' but no http(s) URL after it",
                    hint="write openai@http://127.0.0.1:8000/v1/MODEL",
                )
            base_url, _, model = rest.rstrip("/").rpartition("/")
            if not model or base_url.endswith(":/"):
                raise ConfigError(
                    f"model address {address!r} names no model after the URL",
                    hint="append the model name: openai@http://127.0.0.1:8000/v1/MODEL",
                )
            return cls(backend=backend, model=model, base_url=base_url)
        backend, sep, model = text.partition("/")
        if not sep or not backend or not model:
            raise ConfigError(
                f"model address {address!r} is not of the form backend/model",
                hint="for example llamacpp/smollm2-135m, openai/gpt-4o-mini or mock/echo",
            )
        return cls(backend=backend, model=model)


@dataclass(frozen=True)
class Capabilities:
    """What a backend can do; the pipeline adapts requests and batching to it.

    ``logprobs``: it returns token log-probabilities when asked; ``max_context``: its context
    length in tokens, when known; ``batch_size``: requests it takes in one call (a local engine
    batches, an HTTP API takes one); ``concurrency``: calls it serves at once.
    """

    logprobs: bool = False
    max_context: int | None = None
    batch_size: int = 1
    concurrency: int = 1


class Backend(abc.ABC):
    """Base class of every backend; subclasses implement :meth:`generate`."""

    spec: ModelSpec
    capabilities: Capabilities

    @property
    def name(self) -> str:
        """The model address, used in cache keys, the store and reports."""
        return self.spec.address

    @abc.abstractmethod
    async def generate(self, requests: Sequence[Request]) -> list[Completion]:
        """Answer every request, in order; failures are returned as completions with ``error``."""

    def output_fields(self) -> dict[str, Any]:
        """Backend settings that change outputs (engine options), folded into the cache key."""
        return {}

    def known(self, requests: Sequence[Request]) -> dict[int, Completion]:
        """Completions already at hand for some of ``requests`` (by index), without asking a model.

        A caching wrapper answers from its cache; everything else knows none. The runner asks
        first and sends only the rest, so a warm re-run reads its completions in bulk
        instead of one engine-sized batch at a time.
        """
        return {}

    async def aclose(self) -> None:  # noqa: B027 - optional hook, default is a no-op
        """Release engine resources."""


class BackendFactory(Protocol):
    """What a backend module exposes as ``create``."""

    def __call__(self, spec: ModelSpec, options: dict[str, Any]) -> Backend: ...


class BackendCheck(Protocol):
    """What a backend module exposes as ``check``: raise as ``create`` would, without loading a model."""

    def __call__(self, spec: ModelSpec, options: dict[str, Any]) -> None: ...


def check_options(backend: str, options: dict[str, Any], allowed: Sequence[str]) -> None:
    """Reject option names a backend does not read, listing the ones it does."""
    unknown = sorted(set(options) - set(allowed))
    if unknown:
        raise ConfigError(
            f"unknown {backend} option(s): {', '.join(unknown)}",
            hint=f"the {backend} backend accepts: {', '.join(allowed)}",
        )


class BackendOptions(BaseModel):
    """Base of a backend's options model: unknown keys are errors, never silently ignored.

    NaN and infinity are refused for every number (a NaN timeout would make every call fail).
    """

    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)


#: options every backend accepts, read by the wrappers before the backend sees the rest
WRAPPER_OPTIONS = "concurrency, retries, backoff_s, max_retry_after_s"

OptionsT = TypeVar("OptionsT", bound=BackendOptions)


def parse_options(backend: str, model: type[OptionsT], options: dict[str, Any]) -> OptionsT:
    """Validate ``backends.<backend>`` options; the first problem becomes a :class:`ConfigError`."""
    try:
        return model.model_validate(options)
    except ValidationError as exc:
        error = exc.errors()[0]
        where = ".".join(str(p) for p in error["loc"])
        accepted = ", ".join(model.model_fields)
        if error["type"] == "extra_forbidden":
            raise ConfigError(
                f"unknown {backend} option {where!r} (backends.{backend}.{where})",
                hint=f"the {backend} backend accepts: {accepted} (and, for every backend: {WRAPPER_OPTIONS})",
            ) from None
        raise ConfigError(
            f"backends.{backend}.{where}: {error['msg']}",
            hint=f"fix backends.{backend}.{where} in the config",
        ) from None


def error_completion(request: Request, exc: BaseException) -> Completion:
    """Turn an exception into a completion that records it (never cached)."""
    return Completion(
        request_id=request.id,
        error=str(exc) or type(exc).__name__,
        error_type=type(exc).__name__,
        retry_after_s=getattr(exc, "retry_after_s", None),
    )


def messages_to_prompt(messages: Sequence[Message]) -> str:
    """Flatten chat messages for engines without a chat template."""
    return "\n\n".join(message.content for message in messages)


__all__ = [
    "Backend",
    "BackendCheck",
    "BackendError",
    "BackendFactory",
    "BackendOptions",
    "Capabilities",
    "ModelSpec",
    "check_options",
    "error_completion",
    "messages_to_prompt",
    "parse_options",
]
