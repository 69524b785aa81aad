"""Model backends behind one batched async contract, plus the wrappers around them.

``open_backend("llamacpp/smollm2-135m", options, cache)`` parses the address, looks the
backend up in :data:`BACKENDS` (lazy, so heavy engines import only when used), creates it, and
wraps it in retry, concurrency-limit and cache layers.
"""

from __future__ import annotations

import math
from typing import Any

from halluforge.backends.base import Backend, BackendCheck, BackendFactory, Capabilities, ModelSpec
from halluforge.backends.cache import ResponseCache, default_cache_path
from halluforge.backends.wrappers import CachedBackend, LimitedBackend, RetryingBackend
from halluforge.errors import ConfigError
from halluforge.registry import Registry

BACKENDS: Registry[BackendFactory] = Registry(
    "backends",
    {
        "llamacpp": "halluforge.backends.llama_cpp:create",
        "openai": "halluforge.backends.openai_compat:create",
        "hf": "halluforge.backends.transformers:create",
        "mock": "halluforge.backends.mock:create",
        "anthropic": "halluforge.backends.anthropic:create",
        "vllm": "halluforge.backends.vllm:create",
    },
)

#: cheap checks of an address and its options (no engine loaded), by backend name
CHECKS: Registry[BackendCheck] = Registry(
    "backend_checks",
    {
        "llamacpp": "halluforge.backends.llama_cpp:check",
        "openai": "halluforge.backends.openai_compat:check",
        "hf": "halluforge.backends.transformers:check",
        "mock": "halluforge.backends.mock:check",
        "anthropic": "halluforge.backends.anthropic:check",
        "vllm": "halluforge.backends.vllm:check",
    },
)


#: decoding methods a setting may ask for (:attr:`halluforge.settings.Setting.decoding`), and
#: the backends that can do them: DoLa contrasts the model's hidden layers, which only ``hf`` sees
DECODINGS: dict[str, tuple[str, ...]] = {"dola": ("hf",)}


def check_decoding(setting: str, decoding: str | None, address: str) -> None:
    """Refuse a setting whose decoding method the target's backend cannot do."""
    if decoding is None:
        return
    able = DECODINGS.get(decoding, ())
    backend = ModelSpec.parse(address).backend
    if backend not in able:
        raise ConfigError(
            f"setting {setting!r} decodes with {decoding}, which needs the model's hidden layers; "
            f"target {address} ({backend} backend) cannot do it",
            hint=f"put {setting!r} only to {' or '.join(f'{b}/' for b in able) or 'no'} targets "
            f"(e.g. hf//abs/path/model.gguf), or drop it from answer.settings",
        )


def _wrapper_option(backend: str, name: str, value: Any, *, minimum: float = 0, whole: bool = False) -> float:
    """A wrapper option (read before the backend sees the rest) as a number, or a clear error."""
    kind = "a whole number" if whole else "a finite number"
    try:
        number = float(value)
    except (TypeError, ValueError):
        number = float("nan")
    finite = math.isfinite(number)  # a NaN or infinite wait or count would never end
    if isinstance(value, bool) or not finite or not number >= minimum or (whole and not number.is_integer()):
        raise ConfigError(
            f"backends.{backend}.{name} must be {kind} of at least {minimum:g}, got {value!r}",
            hint=f"set backends.{backend}.{name} to {kind} >= {minimum:g}",
        )
    return number


def split_options(backend: str, options: dict[str, Any] | None) -> tuple[dict[str, Any], dict[str, Any]]:
    """(the wrappers' options as checked numbers, the options left for the backend itself)."""
    opts = dict(options or {})
    concurrency = opts.pop("concurrency", None)
    wrappers: dict[str, Any] = {"concurrency": None}
    if concurrency is not None:
        limit = _wrapper_option(backend, "concurrency", concurrency, minimum=1, whole=True)
        wrappers["concurrency"] = int(limit)
    wrappers["retries"] = int(_wrapper_option(backend, "retries", opts.pop("retries", 3), whole=True))
    wrappers["backoff_s"] = _wrapper_option(backend, "backoff_s", opts.pop("backoff_s", 0.5))
    wrappers["max_retry_after_s"] = _wrapper_option(
        backend, "max_retry_after_s", opts.pop("max_retry_after_s", 120.0)
    )
    return wrappers, opts


def check_backend(address: str, options: dict[str, Any] | None = None) -> None:
    """Check a model address without loading the model: its backend, options, key and model file.

    Raises the error :func:`open_backend` would raise for the same input, but loads no engine,
    so a run can refuse a wrong model before it writes anything.
    """
    spec = ModelSpec.parse(address)
    BACKENDS.get(spec.backend)
    _, opts = split_options(spec.backend, options)
    if spec.backend in CHECKS:
        CHECKS.get(spec.backend)(spec, opts)


def open_backend(
    address: str,
    options: dict[str, Any] | None = None,
    cache: ResponseCache | None = None,
) -> Backend:
    """Create the backend for ``address`` and wrap it in retry, limit and cache layers."""
    spec = ModelSpec.parse(address)
    factory = BACKENDS.get(spec.backend)
    wrappers, opts = split_options(spec.backend, options)
    raw = factory(spec, opts)
    backend: Backend = RetryingBackend(
        raw,
        retries=wrappers["retries"],
        backoff_s=wrappers["backoff_s"],
        max_retry_after_s=wrappers["max_retry_after_s"],
    )
    backend = LimitedBackend(backend, concurrency=wrappers["concurrency"])
    if cache is not None:
        backend = CachedBackend(backend, cache)
    return backend


__all__ = [
    "BACKENDS",
    "CHECKS",
    "DECODINGS",
    "Backend",
    "CachedBackend",
    "Capabilities",
    "LimitedBackend",
    "ModelSpec",
    "ResponseCache",
    "RetryingBackend",
    "check_backend",
    "check_decoding",
    "default_cache_path",
    "open_backend",
    "split_options",
]
