"""Executors: where the work units of the forge and answer stages run.

Work units are plain data (a request; a seed case, example or KB item to forge from). The
:class:`LocalExecutor` runs them on this process's event loop: requests go through
:func:`halluforge.runner.run_requests` (engine-sized batches, the backend's concurrency
limit, results streamed to the caller as they finish), and forging runs up to
``forge_concurrency`` units at once, each unit's generator-model calls gathered by a
:class:`BatchingBackend` into the same runner. A cluster executor (Ray) implements the same two
methods by shipping units to workers that hold their own engines; the driver alone writes the
run store, through the callbacks.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from halluforge.backends.base import Backend
from halluforge.forge.base import ForgeContext, Generator
from halluforge.records import Completion, Request, Skip, TestCase
from halluforge.runner import ProgressHook, ResultSink, RunnerStats, run_requests

#: forge units in flight at once on the local executor (each waits on model calls most of the time)
FORGE_CONCURRENCY = 8

UnitSink = Callable[[Any, list[TestCase | Skip]], None]


class Executor(Protocol):
    """Runs requests and forge units; results come back through callbacks, in the driver."""

    async def generate(
        self,
        backend: Backend,
        requests: Sequence[Request],
        on_results: ResultSink,
        *,
        progress: ProgressHook | None = None,
    ) -> RunnerStats:
        """Answer every request with ``backend``, streaming results to ``on_results``."""

    async def forge(
        self, generator: Generator, units: Sequence[Any], fctx: ForgeContext, on_unit: UnitSink
    ) -> None:
        """Forge every unit; ``on_unit(unit, made)`` receives each unit's cases and skips."""

    async def aclose(self) -> None:
        """Release workers at the end of a run (a later call may start them again)."""


class BatchingBackend(Backend):
    """A backend view that gathers concurrent one-request calls into batches for the runner.

    Forging makes one call per step of each unit; with many units in flight, their calls
    meet here and go to the engine together through :func:`run_requests`, so a batching
    engine (``hf``) gets full batches while forging as it does while answering.
    """

    def __init__(self, inner: Backend) -> None:
        self.inner = inner
        self.spec = inner.spec
        self.capabilities = inner.capabilities
        self._pending: list[tuple[Request, asyncio.Future[Completion]]] = []
        self._flush: asyncio.Handle | None = None
        self._tasks: set[asyncio.Task[RunnerStats]] = set()

    def output_fields(self) -> dict[str, Any]:
        return self.inner.output_fields()

    async def generate(self, requests: Sequence[Request]) -> list[Completion]:
        loop = asyncio.get_running_loop()
        futures = []
        for request in requests:
            future: asyncio.Future[Completion] = loop.create_future()
            self._pending.append((request, future))
            futures.append(future)
        if self._flush is None:
            self._flush = loop.call_soon(self._send)
        return list(await asyncio.gather(*futures))

    def _send(self) -> None:
        self._flush = None
        pending, self._pending = self._pending, []
        waiting = {id(request): future for request, future in pending}

        def resolve(results: list[tuple[Request, Completion]]) -> None:
            for request, completion in results:
                future = waiting.pop(id(request))
                if not future.done():
                    future.set_result(completion)

        async def send() -> RunnerStats:
            try:
                return await run_requests(self.inner, [r for r, _ in pending], resolve, flush_every=1)
            except BaseException as exc:  # hand the failure to every caller still waiting
                for future in waiting.values():
                    if not future.done():
                        future.set_exception(exc)
                raise

        task = asyncio.ensure_future(send())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def aclose(self) -> None:
        """The inner backend belongs to the model pool, which closes it."""


class LocalExecutor:
    """Runs every unit on this process's event loop."""

    def __init__(self, forge_concurrency: int = FORGE_CONCURRENCY) -> None:
        self.forge_concurrency = max(1, forge_concurrency)

    async def generate(
        self,
        backend: Backend,
        requests: Sequence[Request],
        on_results: ResultSink,
        *,
        progress: ProgressHook | None = None,
    ) -> RunnerStats:
        return await run_requests(backend, requests, on_results, progress=progress)

    async def forge(
        self, generator: Generator, units: Sequence[Any], fctx: ForgeContext, on_unit: UnitSink
    ) -> None:
        limit = asyncio.Semaphore(self.forge_concurrency)

        async def one(unit: Any) -> None:
            async with limit:
                try:
                    made = await generator.forge_one(unit, fctx)
                except Exception as exc:  # one failing case never kills a run
                    made = [generator.skip(unit, f"error: {type(exc).__name__}: {exc}")]
            on_unit(unit, made)

        await asyncio.gather(*(one(unit) for unit in units))

    async def aclose(self) -> None:
        """Nothing to release: the model pool owns the engines."""


__all__ = ["FORGE_CONCURRENCY", "BatchingBackend", "Executor", "LocalExecutor", "UnitSink"]
