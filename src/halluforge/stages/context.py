"""What every stage runs over: a frozen :class:`RunContext`, a :class:`ModelPool` and progress.

A stage is ``async run(ctx) -> StageCounts``: it reads what earlier stages stored in
``ctx.store``, writes its own records under deterministic ids, reports progress to
``ctx.progress`` and returns the counts a report shows. Stages never import the pipeline that
calls them; the context is the whole of what they may use.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from halluforge.backends import Backend, ModelSpec, ResponseCache, open_backend
from halluforge.config import RunConfig
from halluforge.executor import Executor
from halluforge.family import Family
from halluforge.forge.base import Generator
from halluforge.runner import RunnerStats
from halluforge.store import RunStore

#: counts a stage reports (merged into the run's counts and the manifest)
StageCounts = dict[str, Any]


class Progress(Protocol):
    """Where stages report progress; the CLI implements it with rich bars or log lines."""

    def start(self, stage: str, total: int) -> None:
        """A stage with ``total`` units of work begins."""

    def update(self, stage: str, done: int, cached: int = 0, failed: int = 0) -> None:
        """Absolute counts so far."""

    def finish(self, stage: str) -> None:
        """The stage ended."""


class NullProgress:
    """Progress sink that shows nothing (library default)."""

    def start(self, stage: str, total: int) -> None:
        """Ignore."""

    def update(self, stage: str, done: int, cached: int = 0, failed: int = 0) -> None:
        """Ignore."""

    def finish(self, stage: str) -> None:
        """Ignore."""


def progress_hook(progress: Progress, stage: str, offset: int = 0, per_unit: int = 1) -> Any:
    """A runner progress hook that reports ``stage`` counts, ``per_unit`` requests per unit shown."""

    def hook(stats: RunnerStats) -> None:
        progress.update(
            stage, offset + stats.done // per_unit, stats.cached // per_unit, stats.failed // per_unit
        )

    return hook


class ModelPool:
    """The run's models keyed by address, each opened once (generator and target may share one)."""

    def __init__(self, config: RunConfig, cache: ResponseCache | None) -> None:
        self._config = config
        self._cache = cache
        self._open: dict[str, Backend] = {}

    def get(self, address: str) -> Backend:
        """The backend behind ``address``, opened on first use."""
        if address not in self._open:
            spec = ModelSpec.parse(address)
            options = dict(self._config.backends.get(spec.backend, {}))
            self._open[address] = open_backend(address, options, self._cache)
        return self._open[address]

    def open_all(self, addresses: list[str]) -> None:
        """Open every address now, so a wrong one fails before any work."""
        for address in addresses:
            self.get(address)

    async def aclose(self) -> None:
        """Release every engine and the response cache."""
        for backend in self._open.values():
            await backend.aclose()
        self._open.clear()
        if self._cache is not None:
            self._cache.close()


@dataclass(frozen=True)
class RunContext:
    """Everything a stage may use for one run."""

    config: RunConfig
    store: RunStore
    models: ModelPool
    executor: Executor
    run_dir: Path
    families: Mapping[str, Family]
    generators: Mapping[str, Generator]
    progress: Progress = field(default_factory=NullProgress)

    def family(self, name: str) -> Family | None:
        """The spec of a family present in this run (None for a name no spec knows)."""
        return self.families.get(name)


__all__ = ["ModelPool", "NullProgress", "Progress", "RunContext", "StageCounts", "progress_hook"]
