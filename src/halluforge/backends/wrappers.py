"""Wrappers that add caching, retries and concurrency limits around any backend.

They are backends themselves, so they stack: :func:`halluforge.backends.open_backend` builds
``CachedBackend(LimitedBackend(RetryingBackend(raw)))``. A cache hit never waits for a
concurrency slot, and a retry holds its slot so the server is not flooded while it recovers.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Sequence
from typing import Any

from halluforge.backends.base import Backend, Capabilities, ModelSpec
from halluforge.backends.cache import ResponseCache
from halluforge.records import Completion, Request

RETRYABLE = {"RateLimitedError", "BackendTimeoutError", "BackendUnavailableError"}


class _Wrapper(Backend):
    """Delegates identity and capabilities to the wrapped backend."""

    def __init__(self, inner: Backend) -> None:
        self.inner = inner

    @property
    def spec(self) -> ModelSpec:  # type: ignore[override]
        return self.inner.spec

    @property
    def capabilities(self) -> Capabilities:  # type: ignore[override]
        return self.inner.capabilities

    def output_fields(self) -> dict[str, Any]:
        return self.inner.output_fields()

    def known(self, requests: Sequence[Request]) -> dict[int, Completion]:
        return self.inner.known(requests)

    async def aclose(self) -> None:
        await self.inner.aclose()


class RetryingBackend(_Wrapper):
    """Retries retryable failures with exponential backoff and full jitter.

    When a failed call carries the server's ``Retry-After``, the wait is at least that long
    (the longest one among the failed calls of the batch), capped at ``max_retry_after_s`` so a
    server asking for an hour does not stall a run: the call then fails, is recorded, and a
    later resume picks it up.
    """

    def __init__(
        self,
        inner: Backend,
        *,
        retries: int = 3,
        backoff_s: float = 0.5,
        max_backoff_s: float = 30.0,
        max_retry_after_s: float = 120.0,
    ) -> None:
        super().__init__(inner)
        self.retries = retries
        self.backoff_s = backoff_s
        self.max_backoff_s = max_backoff_s
        self.max_retry_after_s = max_retry_after_s
        self._rng = random.Random(0)

    def _wait(self, attempt: int, failed: Sequence[Completion]) -> float:
        """Jittered exponential backoff, raised to the longest wait the server asked for."""
        ceiling = min(self.max_backoff_s, self.backoff_s * 2 ** (attempt - 1))
        wait = self._rng.uniform(0, ceiling)
        asked = [c.retry_after_s for c in failed if c.retry_after_s is not None]
        if asked:
            wait = max(wait, min(max(asked), self.max_retry_after_s))
        return wait

    async def generate(self, requests: Sequence[Request]) -> list[Completion]:
        results = await self.inner.generate(requests)
        for attempt in range(1, self.retries + 1):
            pending = [i for i, c in enumerate(results) if c.error_type in RETRYABLE]
            if not pending:
                break
            await asyncio.sleep(self._wait(attempt, [results[i] for i in pending]))
            again = await self.inner.generate([requests[i] for i in pending])
            for index, completion in zip(pending, again, strict=True):
                results[index] = completion
        return results


class LimitedBackend(_Wrapper):
    """Caps the number of calls in flight and splits lists into engine-sized batches."""

    def __init__(self, inner: Backend, *, concurrency: int | None = None) -> None:
        super().__init__(inner)
        limit = concurrency or inner.capabilities.concurrency
        self.semaphore = asyncio.Semaphore(max(1, limit))

    async def _one_batch(self, batch: Sequence[Request]) -> list[Completion]:
        async with self.semaphore:
            return await self.inner.generate(batch)

    async def generate(self, requests: Sequence[Request]) -> list[Completion]:
        size = max(1, self.capabilities.batch_size)
        batches = [requests[i : i + size] for i in range(0, len(requests), size)]
        if len(batches) == 1:
            return await self._one_batch(batches[0])
        done = await asyncio.gather(*(self._one_batch(b) for b in batches))
        return [c for batch in done for c in batch]


class CachedBackend(_Wrapper):
    """Serves repeated requests from a SQLite cache; errors are never cached.

    Sampled requests are cached too: every request carries a seed, and the key holds the
    seed with the temperature and top_p, so a re-run gets the sample its seed gave (what the
    local engines would compute again anyway), while another run seed asks for new samples.
    Without this a warm re-run still loaded an engine for the sampled retries of forging.

    The same request asked twice while its first copy is still being computed (two test cases
    of one run that put the same prompt, in one batch or in two batches in flight) is computed
    once and both get that answer. A local engine's greedy output can change with the batch it
    runs in, so two computations could disagree, and a re-run served from the cache would then
    give one of them a different answer from the one its run recorded.
    """

    def __init__(self, inner: Backend, cache: ResponseCache) -> None:
        super().__init__(inner)
        self.cache = cache
        self._in_flight: dict[str, asyncio.Future[Completion]] = {}

    def _keys(self, requests: Sequence[Request]) -> list[str]:
        name, engine = self.inner.name, self.inner.output_fields()  # once per list, not per request
        return [self.cache.key(name, engine, r.output_key()) for r in requests]

    def _hits(self, requests: Sequence[Request], keys: Sequence[str]) -> dict[int, Completion]:
        found = self.cache.get_many(keys)  # freshly parsed, so each is filled in, not copied
        taken: set[str] = set()
        hits: dict[int, Completion] = {}
        for index, (request, key) in enumerate(zip(requests, keys, strict=True)):
            hit = found.get(key)
            if hit is None:
                continue
            if key in taken:  # the same request twice: the second gets its own copy
                hit = hit.model_copy()
            taken.add(key)
            hit.request_id, hit.cached = request.id, True
            hits[index] = hit
        return hits

    def known(self, requests: Sequence[Request]) -> dict[int, Completion]:
        return self._hits(requests, self._keys(requests))

    async def generate(self, requests: Sequence[Request]) -> list[Completion]:
        keys = self._keys(requests)
        results: list[Completion | None] = [None] * len(requests)
        for index, hit in self._hits(requests, keys).items():
            results[index] = hit
        owned: dict[str, list[int]] = {}  # keys this call computes -> the indexes that want them
        waiting: list[tuple[int, asyncio.Future[Completion]]] = []
        for index in (i for i, c in enumerate(results) if c is None):
            key = keys[index]
            if key in owned:
                owned[key].append(index)
            elif key in self._in_flight:  # another call is computing it now
                waiting.append((index, self._in_flight[key]))
            else:
                owned[key] = [index]
                self._in_flight[key] = asyncio.get_running_loop().create_future()
        try:
            if owned:
                firsts = [indexes[0] for indexes in owned.values()]
                fresh = await self.inner.generate([requests[i] for i in firsts])
                to_store: dict[str, Completion] = {}
                for (key, indexes), completion in zip(owned.items(), fresh, strict=True):
                    self._in_flight[key].set_result(completion)
                    results[indexes[0]] = completion
                    for index in indexes[1:]:
                        results[index] = _copy_for(completion, requests[index])
                    if completion.ok:
                        to_store[key] = completion
                self.cache.put_many(to_store)
        finally:
            for key in owned:
                future = self._in_flight.pop(key)
                if not future.done():  # the inner call raised: the waiters raise too
                    future.set_exception(RuntimeError("the first copy of this request was not answered"))
        for index, future in waiting:
            results[index] = _copy_for(await asyncio.shield(future), requests[index])
        return [c for c in results if c is not None]


def _copy_for(completion: Completion, request: Request) -> Completion:
    """The answer computed for an identical request, handed to ``request`` (counted as cached)."""
    return completion.model_copy(update={"request_id": request.id, "cached": True})


__all__ = ["RETRYABLE", "CachedBackend", "LimitedBackend", "RetryingBackend"]
