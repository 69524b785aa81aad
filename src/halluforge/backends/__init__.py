"""Model backends behind one batched async contract, plus the wrappers around them.

``open_backend("llamacpp/smollm2-135m", options, cache)`` parses the address, looks the
backend up in :data:`BACKENDS` (lazy, so heavy engines import only when used), creates it, and
wraps it in retry, concurrency-limit and cache layers.
"""

from __future__ import annotations

from typing import Any

from halluforge.backends.base import Backend, BackendFactory, Capabilities, ModelSpec
from halluforge.backends.cache import ResponseCache, default_cache_path
from halluforge.backends.wrappers import CachedBackend, LimitedBackend, RetryingBackend
from halluforge.registry import Registry

BACKENDS: Registry[BackendFactory] = Registry(
    "backends",
    {
        "llamacpp": "halluforge.backends.llama_cpp:create",
        "openai": "halluforge.backends.openai_compat:create",
        "hf": "halluforge.backends.transformers:create",
        "mock": "halluforge.backends.mock:create",
    },
)


def open_backend(
    address: str,
    options: dict[str, Any] | None = None,
    cache: ResponseCache | None = None,
) -> Backend:
    """Create the backend for ``address`` and wrap it in retry, limit and cache layers."""
    spec = ModelSpec.parse(address)
    factory = BACKENDS.get(spec.backend)
    opts = dict(options or {})
    concurrency = opts.pop("concurrency", None)
    retries = int(opts.pop("retries", 3))
    backoff_s = float(opts.pop("backoff_s", 0.5))
    max_retry_after_s = float(opts.pop("max_retry_after_s", 120.0))
    raw = factory(spec, opts)
    backend: Backend = RetryingBackend(
        raw, retries=retries, backoff_s=backoff_s, max_retry_after_s=max_retry_after_s
    )
    backend = LimitedBackend(backend, concurrency=concurrency)
    if cache is not None:
        backend = CachedBackend(backend, cache)
    return backend


__all__ = [
    "BACKENDS",
    "Backend",
    "CachedBackend",
    "Capabilities",
    "LimitedBackend",
    "ModelSpec",
    "ResponseCache",
    "RetryingBackend",
    "default_cache_path",
    "open_backend",
]
