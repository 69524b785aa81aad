"""The Ray executor: the forge and answer stages' work units run on Ray actors that hold engines.

Selected by ``executor: {kind: ray, address: auto | ray://head:10001, workers: N,
resources_per_worker: {CPU: 4, GPU: 1}}`` (extra ``ray``; Ray is imported only when a run
first needs a worker). Each worker is one Ray actor (:class:`EngineWorker`) that opens every
model engine it is asked for once, on first use, with the run's backend options, and then
answers whole batches of requests or forges chunks of units with that engine.

What stays in the driver:

- **the run store and the response cache.** Results come back to the driver, which streams
  them to the stages' callbacks exactly as the :class:`~halluforge.executor.LocalExecutor`
  does (the same :func:`~halluforge.runner.run_requests`, so progress bars count every
  worker's results together). Only the driver writes; ids are deterministic, so a batch that
  is sent again after a worker was lost writes the same rows.
- **HTTP backends** (``openai``, ``anthropic``): one process already fans out thousands of
  requests, so only the backends named in ``executor.engines`` (llama.cpp, hf, vLLM by
  default) run on workers.

Each engine address has a queue of worker slots (``slots_per_worker`` per live worker,
by default the backend's concurrency); a batch takes a free slot, so a faster worker takes
more batches. When a worker dies mid-batch (its process killed, its node lost), Ray fails the
call with ``RayActorError``: the worker is dropped, a replacement is started (at most
``workers`` replacements per run) and the batch is sent again to another worker, up to
``max_attempts`` tries; a batch that still fails becomes error completions (retried by the
next run) or, for forge units, skips with the reason, so one bad batch never kills a run.

Forge units are shipped in chunks of ``forge_chunk`` with the forge context (examples, seed
cases and the plain-value resources the generator prepared, put in Ray's object store once);
the worker forges them with its own engine behind a
:class:`~halluforge.executor.BatchingBackend`. Forging on workers does not read or fill the
response cache (the cache file belongs to the driver's machine); answering does.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from halluforge.backends import Backend, ModelSpec, ResponseCache, open_backend
from halluforge.backends.base import error_completion
from halluforge.backends.wrappers import CachedBackend
from halluforge.config import ExecutorConfig
from halluforge.errors import BackendUnavailableError, ConfigError, HalluforgeError
from halluforge.executor import FORGE_CONCURRENCY, BatchingBackend, LocalExecutor, UnitSink
from halluforge.forge.base import ForgeContext, Generator
from halluforge.records import Completion, Request, Skip, TestCase
from halluforge.runner import ProgressHook, ResultSink, RunnerStats, run_requests

#: seconds to wait for a new worker to come up before saying the cluster cannot place it
START_TIMEOUT_S = 180.0

_INSTALL_HINT = 'pip install "halluforge[ray]"'


def import_ray() -> Any:
    """The ``ray`` module, or a :class:`ConfigError` saying how to install it."""
    try:
        import ray
    except ImportError as exc:
        raise ConfigError(
            "executor.kind 'ray' needs Ray, which is not installed", hint=_INSTALL_HINT
        ) from exc
    return ray


class EngineWorker:
    """One Ray actor: opens each model engine once, on first use, and runs batches with it.

    It is a plain class; the executor makes it a Ray actor class with ``ray.remote`` when a
    run first needs one, so importing this module never imports Ray.
    """

    def __init__(self, backends: Mapping[str, Mapping[str, Any]], forge_concurrency: int) -> None:
        self._options = {name: dict(options) for name, options in backends.items()}
        self._forge_concurrency = forge_concurrency
        self._open: dict[str, Backend] = {}

    def pid(self) -> int:
        """The process id of this worker (the driver records it; a test kills it)."""
        return os.getpid()

    def _engine(self, address: str) -> Backend:
        if address not in self._open:
            spec = ModelSpec.parse(address)
            self._open[address] = open_backend(address, self._options.get(spec.backend, {}), None)
        return self._open[address]

    async def generate(self, address: str, requests: list[Request]) -> list[Completion]:
        """Answer one batch with this worker's engine for ``address``."""
        return await self._engine(address).generate(requests)

    async def forge(
        self, address: str, generator: Generator, fctx: ForgeContext, units: list[Any]
    ) -> list[list[TestCase | Skip]]:
        """Forge a chunk of units with this worker's engine as the generator model, in order."""
        made: dict[int, list[TestCase | Skip]] = {}
        local = dataclasses.replace(fctx, llm=BatchingBackend(self._engine(address)))
        executor = LocalExecutor(self._forge_concurrency)
        await executor.forge(generator, units, local, lambda unit, out: made.__setitem__(id(unit), out))
        return [made[id(unit)] for unit in units]


@dataclass
class _Worker:
    """The driver's handle on one actor."""

    actor: Any
    pid: int
    alive: bool = True


@dataclass
class RayStats:
    """What happened to the workers during a run (shown by benchmarks, checked by tests)."""

    workers_started: int = 0
    workers_lost: int = 0
    batches_retried: int = 0
    batches_failed: int = 0


class _RemoteEngine(Backend):
    """The driver's view of a model whose engine lives on the workers: a batch goes to a free slot."""

    def __init__(self, executor: RayExecutor, local: Backend) -> None:
        self._executor = executor
        self._local = local
        self.spec = local.spec
        self.capabilities = local.capabilities

    def output_fields(self) -> dict[str, Any]:
        return self._local.output_fields()

    async def generate(self, requests: Sequence[Request]) -> list[Completion]:
        try:
            out: list[Completion] = await self._executor.call(self._local, "generate", list(requests))
        except BackendUnavailableError as exc:
            return [error_completion(request, exc) for request in requests]
        return out


class RayExecutor:
    """Runs engine work on Ray actors; results come back to the driver, which alone writes."""

    def __init__(
        self,
        config: ExecutorConfig,
        backends: Mapping[str, Mapping[str, Any]] | None = None,
        cache: ResponseCache | None = None,
        *,
        forge_concurrency: int = FORGE_CONCURRENCY,
    ) -> None:
        self.config = config
        self.backends = {name: dict(options) for name, options in (backends or {}).items()}
        self.cache = cache
        self.stats = RayStats()
        self._local = LocalExecutor(forge_concurrency)
        self._workers: list[_Worker] = []
        self._queues: dict[str, tuple[asyncio.Queue[_Worker], int]] = {}
        self._actor_class: Any = None
        self._started_ray = False
        self._replacements = config.workers
        self._starting: asyncio.Lock | None = None

    # -- the executor interface --------------------------------------------------------------

    def runs_remotely(self, backend: Backend) -> bool:
        """True when ``backend``'s engine runs on the workers (``executor.engines``)."""
        return backend.spec.backend in self.config.engines

    async def generate(
        self,
        backend: Backend,
        requests: Sequence[Request],
        on_results: ResultSink,
        *,
        progress: ProgressHook | None = None,
    ) -> RunnerStats:
        if not self.runs_remotely(backend):
            return await self._local.generate(backend, requests, on_results, progress=progress)
        front: Backend = _RemoteEngine(self, backend)
        if self.cache is not None:
            front = CachedBackend(front, self.cache)
        return await run_requests(front, requests, on_results, progress=progress)

    async def forge(
        self, generator: Generator, units: Sequence[Any], fctx: ForgeContext, on_unit: UnitSink
    ) -> None:
        llm = fctx.llm
        if llm is None or not units or not self.runs_remotely(llm):
            await self._local.forge(generator, units, fctx, on_unit)
            return
        await self._ensure_started()
        shipped = import_ray().put(dataclasses.replace(fctx, llm=None))
        size = self.config.forge_chunk

        async def one(chunk: list[Any]) -> None:
            try:
                made: list[list[TestCase | Skip]] = await self.call(llm, "forge", generator, shipped, chunk)
            except BackendUnavailableError as exc:
                made = [[generator.skip(unit, f"error: {type(exc).__name__}: {exc}")] for unit in chunk]
            for unit, out in zip(chunk, made, strict=True):
                on_unit(unit, out)

        await asyncio.gather(*(one(list(units[i : i + size])) for i in range(0, len(units), size)))

    async def aclose(self) -> None:
        """Stop every worker (and Ray itself when this executor started it); a later call restarts."""
        if self._workers:
            ray = import_ray()
            for worker in self._workers:
                with contextlib.suppress(Exception):
                    ray.kill(worker.actor, no_restart=True)
        self._workers.clear()
        self._queues.clear()
        self._replacements = self.config.workers
        if self._started_ray:
            import_ray().shutdown()
            self._started_ray = False

    def worker_pids(self) -> list[int]:
        """Process ids of the live workers."""
        return [w.pid for w in self._workers if w.alive]

    # -- workers -----------------------------------------------------------------------------

    async def _ensure_started(self) -> None:
        if self._starting is None:
            self._starting = asyncio.Lock()
        async with self._starting:
            if self._workers:
                return
            ray = import_ray()
            if not ray.is_initialized():
                ray.init(address=self.config.address, include_dashboard=False, log_to_driver=False)
                self._started_ray = True
            self._actor_class = ray.remote(EngineWorker)
            started = await asyncio.gather(*(self._spawn() for _ in range(self.config.workers)))
            self._workers.extend(started)

    def _actor_options(self) -> dict[str, Any]:
        wanted = dict(self.config.resources_per_worker)
        options: dict[str, Any] = {
            "num_cpus": wanted.pop("CPU", 1.0),
            "num_gpus": wanted.pop("GPU", 0.0),
            "max_restarts": 0,  # the driver replaces a lost worker itself and resends its batch
            "max_concurrency": 1000,  # slots are counted in the driver
        }
        if "memory" in wanted:
            options["memory"] = wanted.pop("memory")
        if wanted:
            options["resources"] = wanted
        return options

    async def _spawn(self) -> _Worker:
        """Start one actor and wait until its process answers."""
        ray = import_ray()
        actor = self._actor_class.options(**self._actor_options()).remote(
            self.backends, self._local.forge_concurrency
        )
        try:
            pid = await asyncio.wait_for(actor.pid.remote(), START_TIMEOUT_S)
        except TimeoutError:
            with contextlib.suppress(Exception):
                ray.kill(actor, no_restart=True)
            raise ConfigError(
                f"the Ray cluster could not start a worker with {self.config.resources_per_worker} "
                f"in {START_TIMEOUT_S:g} s (free: {ray.available_resources()})",
                hint="lower executor.resources_per_worker or executor.workers, or add nodes to the cluster",
            ) from None
        self.stats.workers_started += 1
        return _Worker(actor=actor, pid=int(pid))

    def _queue(self, local: Backend) -> asyncio.Queue[_Worker]:
        """The slot queue of one engine address, filled on first use."""
        address = local.spec.address
        if address not in self._queues:
            options = self.backends.get(local.spec.backend, {})
            slots = self.config.slots_per_worker or int(
                options.get("concurrency") or local.capabilities.concurrency
            )
            queue: asyncio.Queue[_Worker] = asyncio.Queue()
            for worker in self._workers:
                for _ in range(max(1, slots)):
                    queue.put_nowait(worker)
            self._queues[address] = (queue, max(1, slots))
        return self._queues[address][0]

    async def _take(self, queue: asyncio.Queue[_Worker]) -> _Worker:
        while True:
            if not any(w.alive for w in self._workers):
                raise BackendUnavailableError(
                    "every Ray worker of this run is gone",
                    hint="check the cluster (`ray status`) and run again: the run resumes where it stopped",
                )
            worker = await queue.get()
            if worker.alive:
                return worker

    async def _lose(self, worker: _Worker) -> None:
        """Drop a dead worker and start a replacement while any are left."""
        if not worker.alive:
            return
        worker.alive = False
        self.stats.workers_lost += 1
        with contextlib.suppress(Exception):
            import_ray().kill(worker.actor, no_restart=True)
        if self._replacements > 0:
            self._replacements -= 1
            with contextlib.suppress(HalluforgeError):
                fresh = await self._spawn()
                self._workers.append(fresh)
                for queue, slots in self._queues.values():
                    for _ in range(slots):
                        queue.put_nowait(fresh)
        if not any(w.alive for w in self._workers):
            for queue, _ in self._queues.values():  # wake every waiter so it sees no one is left
                queue.put_nowait(worker)

    async def call(self, local: Backend, method: str, *args: Any) -> Any:
        """Run ``method`` on a free worker's engine for ``local``'s address; resend when the worker dies."""
        await self._ensure_started()
        ray = import_ray()
        queue = self._queue(local)
        lost: BaseException | None = None
        for attempt in range(self.config.max_attempts):
            if attempt:
                self.stats.batches_retried += 1
            worker = await self._take(queue)
            try:
                return await getattr(worker.actor, method).remote(local.spec.address, *args)
            except ray.exceptions.RayActorError as exc:
                lost = exc
                await self._lose(worker)
            except ray.exceptions.RayTaskError as exc:  # our own error inside the worker: show it as ours
                if isinstance(exc.cause, HalluforgeError):
                    raise exc.cause from None
                raise
            finally:
                if worker.alive:
                    queue.put_nowait(worker)
        self.stats.batches_failed += 1
        raise BackendUnavailableError(
            f"{self.config.max_attempts} Ray workers were lost while running one batch ({lost})",
            hint="check the workers' logs (memory, GPU); run again to retry the batch",
        )


__all__ = ["START_TIMEOUT_S", "EngineWorker", "RayExecutor", "RayStats", "import_ray"]
