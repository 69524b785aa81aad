"""Build a run from a RunConfig and run its stages: load → select → forge → answer → score → report.

Each stage (``halluforge.stages``) is ``async run(ctx) -> counts`` over one frozen
:class:`~halluforge.stages.context.RunContext`: it reads what the previous stage stored in the
run store and writes its own records under deterministic ids, so any stage can be re-run alone
and an interrupted run resumes where it stopped. This module only assembles the context,
calls the stages in order, merges their counts and writes the manifest; it never prints.

A run holds its run directory's lock (:class:`~halluforge.runlock.RunLock`) from before its
first write to its end, and checks again under the lock that the directory is its own to
resume: a second process on the same directory is refused, naming the holder's PID.
"""

from __future__ import annotations

import asyncio
import gc
import time
from collections.abc import Awaitable, Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from halluforge.backends import ResponseCache, default_cache_path
from halluforge.config import RunConfig
from halluforge.errors import ConfigError, RunFailedError
from halluforge.executor import Executor, LocalExecutor
from halluforge.family import FAMILIES, Family
from halluforge.forge.base import Generator
from halluforge.manifest import write_manifest
from halluforge.metrics.summary import Summary
from halluforge.records import TestCase
from halluforge.reports.model import Report
from halluforge.runlock import RunLock
from halluforge.stages.answer import answer_stage
from halluforge.stages.context import ModelPool, NullProgress, Progress, RunContext, StageCounts
from halluforge.stages.forge import forge_stage
from halluforge.stages.load import load_stage
from halluforge.stages.report import report_stage
from halluforge.stages.score import score_stage
from halluforge.stages.select import select_stage
from halluforge.store import RunStore

Stage = Callable[[RunContext], Awaitable[StageCounts]]
#: the stages of a full run, in order
STAGES: tuple[tuple[str, Stage], ...] = (
    ("load", load_stage),
    ("select", select_stage),
    ("forge", forge_stage),
    ("answer", answer_stage),
    ("score", score_stage),
)


@dataclass
class RunResult:
    """What a finished run returns: where it is, its summary and headline counts."""

    run_dir: Path
    summary: Summary
    report: Report
    counts: dict[str, Any] = field(default_factory=dict)
    seconds: float = 0.0


def run_families(config: RunConfig, stored: Iterable[str] = ()) -> dict[str, Family]:
    """The specs of every family a run touches: configured, ready-made, original, and stored ones.

    A stored family no spec knows (a run made by a plugin that is not installed now) is left
    out; its rows are still reported, under its bare name.
    """
    from halluforge.data import ready_family

    ready = {ready_family(s) for s in config.data}
    names = set(config.families) | {name for name in ready if name} | set(stored)
    if config.answer.include_originals:  # the baseline family of each configured one (``original``)
        names |= {b for n in config.families if n in FAMILIES and (b := FAMILIES.get(n).baseline)}
    return {name: FAMILIES.get(name) for name in sorted(names) if name in FAMILIES or name in config.families}


def build_generators(config: RunConfig, families: dict[str, Family]) -> dict[str, Generator]:
    """One generator per configured family, built from its options (errors name the key)."""
    generators: dict[str, Generator] = {}
    for name, options in config.families.items():
        generator = families[name].build_generator(options or {})
        if generator is not None:
            generators[name] = generator
    return generators


def executor_for(config: RunConfig, cache: ResponseCache | None) -> Executor:
    """The executor ``config.executor`` asks for (Ray is imported only when a run first needs it)."""
    if config.executor.kind == "ray":
        from halluforge.executor_ray import RayExecutor

        return RayExecutor(config.executor, config.backends, cache)
    return LocalExecutor()


def open_context(
    config: RunConfig, progress: Progress | None = None, executor: Executor | None = None
) -> RunContext:
    """Check the config's names and build the run's context (creates the run directory)."""
    for source in config.data:
        if source.test_cases:
            FAMILIES.get(source.test_cases)
    for name in config.families:
        FAMILIES.get(name)
    run_dir = Path(config.output_dir) / config.resolved_run_id()
    store = RunStore(run_dir)
    stored = {c.family for c in store.iter(TestCase)}
    families = run_families(config, stored)
    cache = ResponseCache(config.cache.path or default_cache_path()) if config.cache.enabled else None
    return RunContext(
        config=config,
        store=store,
        models=ModelPool(config, cache),
        executor=executor or executor_for(config, cache),
        run_dir=run_dir,
        families=families,
        generators=build_generators(config, families),
        progress=progress or NullProgress(),
    )


def model_addresses(ctx: RunContext) -> list[str]:
    """Every model the run will ask, by role."""
    models = ctx.config.models
    return [
        *models.targets,
        *([models.generator] if ctx.generators else []),
        *([models.judge] if models.judge else []),
    ]


#: the cyclic garbage collector's first threshold during a run (Python's default is 700)
GC_THRESHOLD = 50_000


@contextmanager
def fewer_collections(threshold: int = GC_THRESHOLD) -> Iterator[None]:
    """Run the cyclic garbage collector less often while a run builds many records.

    A run holds tens of thousands of records (test cases, responses, scores), all tracked by
    the collector; at the default threshold it walked them again and again, about a third of
    a warm 10,000-response re-run. Reference counting still frees everything that is not in
    a cycle at once; cycles wait a little longer. The previous thresholds come back after.
    """
    before = gc.get_threshold()
    gc.set_threshold(max(threshold, before[0]), *before[1:])
    try:
        yield
    finally:
        gc.set_threshold(*before)


async def _run_stages(
    ctx: RunContext,
    stages: tuple[tuple[str, Stage], ...],
    *,
    manifest: bool = True,
    max_cases: int | None = None,
) -> tuple[Summary, Report, StageCounts]:
    """Run ``stages`` then the report; the manifest records which stages finished (a full run only)."""
    counts: StageCounts = {}
    finished: list[str] = []
    started = time.perf_counter()

    def record(status: str) -> None:
        if manifest:
            write_manifest(ctx, status=status, counts=counts, stages=finished)

    with fewer_collections():
        try:
            record("running")
            if manifest:
                ctx.models.open_all(model_addresses(ctx))
            for name, stage in stages:
                counts.update(await stage(ctx))
                finished.append(name)
                record("running")
            summary, report = await report_stage(ctx, counts, max_cases=max_cases)
            counts.update({k: v for k, v in summary.counts.items() if k != "analyses"})
            finished.append("report")
            counts["seconds"] = round(time.perf_counter() - started, 2)
            record("finished")
            return summary, report, counts
        finally:
            await ctx.executor.aclose()
            await ctx.models.aclose()
            ctx.store.close()


def run_pipeline(
    config: RunConfig | None = None, progress: Progress | None = None, executor: Executor | None = None
) -> RunResult:
    """Run every stage of ``config`` (the embedded default when None)."""
    from halluforge.preflight import check_resume, check_run

    config = config or RunConfig()
    check_run(config)  # every problem at once, before the run directory exists
    started = time.perf_counter()
    lock = RunLock(Path(config.output_dir) / config.resolved_run_id()).acquire()
    try:
        try:
            # again under the lock: another process may have written its manifest since check_run
            check_resume(config)
            ctx = open_context(config, progress, executor)
        except BaseException:
            lock.discard()  # refused before the first stage: remove the folders this run made
            raise
        summary, report, counts = asyncio.run(_run_stages(ctx, STAGES))
    finally:
        lock.release()
    seconds = time.perf_counter() - started
    result = RunResult(run_dir=ctx.run_dir, summary=summary, report=report, counts=counts, seconds=seconds)
    failed = counts.get("responses_failed", 0)
    total = counts.get("responses", 0)
    if total and failed / total > config.max_error_rate:
        raise RunFailedError(
            f"{failed} of {total} responses failed, above max_error_rate={config.max_error_rate}",
            hint=f"see the errors in {ctx.run_dir / 'responses.jsonl'}; rerun to retry them",
        )
    return result


def config_of_run(run_dir: str | Path, overrides: dict[str, Any] | None = None) -> RunConfig:
    """The config a run directory was made with (from its manifest), plus overrides."""
    import json

    from halluforge.config import load_config

    path = Path(run_dir)
    manifest = path / "manifest.json"
    if not manifest.is_file():
        raise ConfigError(f"{path} is not a run directory (no manifest.json)", hint="pass runs/<run-id>")
    try:
        data = json.loads(manifest.read_text(encoding="utf-8"))["config"]
        if not isinstance(data, dict):
            raise TypeError("config is not a mapping")
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise ConfigError(
            f"{manifest}: unreadable or without its config ({type(exc).__name__}: {exc})",
            hint="rerun `halluforge run` with the run's config to rebuild it",
        ) from None
    data.update({"run_id": path.resolve().name, "output_dir": str(path.resolve().parent)})
    return load_config(None, overrides, environ={}, stored=(str(manifest), data))


def rescore_run(
    run_dir: str | Path,
    overrides: dict[str, Any] | None = None,
    *,
    scores: bool = True,
    progress: Progress | None = None,
    max_cases: int | None = None,
) -> RunResult:
    """Re-run the score and report stages (or only report) of an existing run; no model is asked to answer.

    ``max_cases`` caps the test cases embedded in ``report.html`` (default: ``reports.cases.MAX_CASES``).
    """
    from halluforge.preflight import check_rescore

    started = time.perf_counter()
    config = config_of_run(run_dir, overrides)
    check_rescore(config)  # metric names, their options and the judge model, before the store opens
    with RunLock(Path(config.output_dir) / config.resolved_run_id()):  # no run may write beside it
        ctx = open_context(config, progress)
        stages = (("score", score_stage),) if scores else ()
        summary, report, counts = asyncio.run(_run_stages(ctx, stages, manifest=False, max_cases=max_cases))
    seconds = time.perf_counter() - started
    return RunResult(run_dir=ctx.run_dir, summary=summary, report=report, counts=counts, seconds=seconds)


__all__ = [
    "STAGES",
    "NullProgress",
    "Progress",
    "RunResult",
    "build_generators",
    "config_of_run",
    "executor_for",
    "open_context",
    "rescore_run",
    "run_families",
    "run_pipeline",
]
