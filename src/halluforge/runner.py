"""Async fan-out of requests to one backend, streaming results to a callback as they finish.

Completions the backend already knows (cache hits, see :meth:`Backend.known`) are handed over
first, in groups of :data:`KNOWN_GROUP`, without a task per batch. The other requests are split
into engine-sized batches (a local engine's ``batch_size``; 1 for HTTP);
every batch becomes a task and the backend's concurrency limit decides how many are in
flight. Finished results are handed to ``on_results`` in small groups so the caller can write
them to the run store in transactions: a killed run loses at most the last group.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from halluforge.backends.base import Backend
from halluforge.records import Completion, Request

ResultSink = Callable[[list[tuple[Request, Completion]]], None]
#: completions already known (cached) are handed to the sink in groups this large
KNOWN_GROUP = 512


@dataclass
class RunnerStats:
    """Counts for one fan-out, shown in progress bars and summaries."""

    total: int = 0
    done: int = 0
    cached: int = 0
    failed: int = 0
    seconds: float = 0.0

    def add(self, completion: Completion) -> None:
        """Count one finished completion."""
        self.done += 1
        if completion.cached:
            self.cached += 1
        if not completion.ok:
            self.failed += 1


ProgressHook = Callable[[RunnerStats], None]


async def run_requests(
    backend: Backend,
    requests: Sequence[Request],
    on_results: ResultSink,
    *,
    progress: ProgressHook | None = None,
    flush_every: int = 32,
    flush_seconds: float = 0.5,
) -> RunnerStats:
    """Send every request through ``backend`` and stream results to ``on_results``."""
    stats = RunnerStats(total=len(requests))
    if not requests:
        return stats
    started = time.perf_counter()
    known = backend.known(requests)
    if known:
        requests = _hand_over_known(requests, known, on_results, stats, progress)
        if not requests:
            stats.seconds = time.perf_counter() - started
            return stats
    size = max(1, backend.capabilities.batch_size)
    batches = [requests[i : i + size] for i in range(0, len(requests), size)]

    async def one(batch: Sequence[Request]) -> list[tuple[Request, Completion]]:
        completions = await backend.generate(batch)
        return list(zip(batch, completions, strict=True))

    pending: list[tuple[Request, Completion]] = []
    last_flush = time.perf_counter()
    tasks = [asyncio.ensure_future(one(b)) for b in batches]
    try:
        for future in asyncio.as_completed(tasks):
            for request, completion in await future:
                pending.append((request, completion))
                stats.add(completion)
            now = time.perf_counter()
            if len(pending) >= flush_every or now - last_flush >= flush_seconds:
                on_results(pending)
                pending = []
                last_flush = now
                if progress is not None:
                    progress(stats)
    finally:
        if pending:
            on_results(pending)
        for task in tasks:
            task.cancel()
    stats.seconds = time.perf_counter() - started
    if progress is not None:
        progress(stats)
    return stats


def _hand_over_known(
    requests: Sequence[Request],
    known: dict[int, Completion],
    on_results: ResultSink,
    stats: RunnerStats,
    progress: ProgressHook | None,
) -> list[Request]:
    """Give the sink every known completion, in request order; return the requests left to send."""
    done = [(requests[i], known[i]) for i in sorted(known)]
    for start in range(0, len(done), KNOWN_GROUP):
        group = done[start : start + KNOWN_GROUP]
        for _, completion in group:
            stats.add(completion)
        on_results(group)
        if progress is not None:
            progress(stats)
    return [r for i, r in enumerate(requests) if i not in known]


__all__ = ["KNOWN_GROUP", "ProgressHook", "ResultSink", "RunnerStats", "run_requests"]
