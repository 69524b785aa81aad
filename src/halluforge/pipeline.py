"""Build the stages of a run from a RunConfig and run them: load → select → forge → answer → score → report.

Each stage reads what the previous one stored in the run store and writes its own records
under deterministic ids, so any stage can be re-run alone and an interrupted run resumes
where it stopped. Stages that call models hand results to the store in small transactions as
they finish. Progress goes to an optional :class:`Progress` sink (the CLI draws rich bars);
this module never prints.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from halluforge.backends import Backend, ModelSpec, ResponseCache, default_cache_path, open_backend
from halluforge.config import DataSource, RunConfig
from halluforge.data import LOADERS
from halluforge.errors import ConfigError, DataError, RunFailedError
from halluforge.forge import GENERATORS, ForgeContext, Generator
from halluforge.manifest import write_manifest
from halluforge.records import (
    Example,
    FieldProvenance,
    Provenance,
    SeedCase,
    Skip,
    TestCase,
    stable_id,
)
from halluforge.runner import RunnerStats
from halluforge.store import RunStore

ORIGINAL = "original"


class Progress(Protocol):
    """Where stages report progress; the CLI implements it with rich."""

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


@dataclass
class RunResult:
    """What a finished run returns: where it is, its summary and headline counts."""

    run_dir: Path
    summary: Any
    counts: dict[str, Any] = field(default_factory=dict)
    seconds: float = 0.0


def _hook(progress: Progress, stage: str, offset: int = 0) -> Any:
    def hook(stats: RunnerStats) -> None:
        progress.update(stage, offset + stats.done, stats.cached, stats.failed)

    return hook


class Pipeline:
    """One run: its config, store, backends and stages."""

    def __init__(self, config: RunConfig, progress: Progress | None = None) -> None:
        self.config = config
        self.progress: Progress = progress or NullProgress()
        self.run_dir = Path(config.output_dir) / config.resolved_run_id()
        self.store = RunStore(self.run_dir)
        self.cache = (
            ResponseCache(config.cache.path or default_cache_path()) if config.cache.enabled else None
        )
        self._backends: dict[str, Backend] = {}
        self.generators = self._build_generators()
        self.counts: dict[str, Any] = {}

    # -- setup -----------------------------------------------------------------------------

    def _build_generators(self) -> dict[str, Generator]:
        from pydantic import ValidationError

        generators: dict[str, Generator] = {}
        for family, options in self.config.families.items():
            cls = GENERATORS.get(family)
            try:
                generators[family] = cls.from_config(options or {})
            except ValidationError as exc:
                error = exc.errors()[0]
                key = ".".join(str(p) for p in error["loc"])
                raise ConfigError(
                    f"families.{family}.{key}: {error['msg']}",
                    hint=f"see docs/families/{family}.md for the options",
                ) from None
        return generators

    def backend(self, address: str) -> Backend:
        """Open each model once per run (generator and target may share one engine)."""
        if address not in self._backends:
            spec = ModelSpec.parse(address)
            options = dict(self.config.backends.get(spec.backend, {}))
            self._backends[address] = open_backend(address, options, self.cache)
        return self._backends[address]

    def open_models(self) -> None:
        """Open every model of every role up front, so a wrong address fails before any work."""
        models = self.config.models
        needs_generator = bool(self.generators)
        addresses = [*models.targets, *([models.generator] if needs_generator else [])]
        if models.judge:
            addresses.append(models.judge)
        for address in addresses:
            self.backend(address)

    async def aclose(self) -> None:
        """Release engines and files."""
        for backend in self._backends.values():
            await backend.aclose()
        self._backends.clear()
        if self.cache is not None:
            self.cache.close()
        self.store.close()

    # -- load ------------------------------------------------------------------------------

    def load(self) -> None:
        """Read every data source, apply the filters, store examples (and ready-made test cases)."""
        from halluforge.data.filters import apply_filters

        self.progress.start("load", len(self.config.data))
        examples: list[Example] = []
        ready: list[TestCase] = []
        skips: list[Skip] = []
        for index, source in enumerate(self.config.data):
            loaded = list(self._read(source))
            if source.test_cases:
                ready.extend(self._ready_case(source.test_cases, e) for e in loaded)
            else:
                kept, dropped = apply_filters(loaded, self.config.filters)
                examples.extend(kept)
                skips.extend(dropped)
            self.progress.update("load", index + 1)
        self.store.put(examples)
        self.store.put(ready)
        self.store.put(skips)
        self.progress.finish("load")
        self.counts["examples"] = len(examples)
        self.counts["ready_test_cases"] = len(ready)
        self.counts["load_skips"] = len(skips)

    def _read(self, source: DataSource) -> list[Example]:
        if source.loader != "bundled" and not source.path:
            raise ConfigError(f"data source with loader {source.loader!r} has no path", hint="add path: FILE")
        loader = LOADERS.get(source.loader)
        examples = list(loader(source))
        if not examples:
            raise DataError(
                "no examples", path=source.path or source.loader, hint="check the file and fields"
            )
        if source.limit is not None:
            examples = examples[: source.limit]
        return examples

    def _ready_case(self, family: str, example: Example) -> TestCase:
        provenance = Provenance(
            fields={
                "context": FieldProvenance(path="source", method=example.source),
                "expected": FieldProvenance(path="source", method=example.source),
            }
        )
        return TestCase(
            id=stable_id("ready", family, example.id),
            family=family,
            question=example.question,
            context=example.evidence,
            expected=list(example.answers),
            parent_example=example.id,
            provenance=provenance,
            checks={"from_source": True},
            metadata={"source": example.source, **example.metadata},
        )

    # -- select ----------------------------------------------------------------------------

    async def select(self) -> None:
        """Put every example to the generator model closed- and open-book; store seed cases."""
        from halluforge.select import seed_case_id, select_seed_cases

        if not any(g.uses_seed_cases for g in self.generators.values()):
            return
        generator = self.backend(self.config.models.generator)
        examples = self.store.all(Example)
        done = self.store.ids(SeedCase, include_failed=False)
        select_config = self.config.select
        todo = [e for e in examples if seed_case_id(e, generator.name, select_config) not in done]
        if select_config.limit is not None:
            budget = max(0, select_config.limit - len(done))
            todo = todo[:budget]
        self.progress.start("select", len(todo))

        def sink(cases: list[SeedCase]) -> None:
            self.store.put(cases)

        await select_seed_cases(
            todo,
            generator,
            select_config,
            seed=self.config.seed,
            sink=sink,
            progress=_halve(_hook(self.progress, "select")),
        )
        self.progress.finish("select")

    # -- forge -----------------------------------------------------------------------------

    async def forge(self) -> None:
        """Run each family's generator over its inputs; store test cases and skips as they come."""
        seed_cases = self.store.all(SeedCase)
        examples = self.store.all(Example)
        llm = self.backend(self.config.models.generator) if self.generators else None
        for family, generator in self.generators.items():
            ctx = ForgeContext(llm=llm, seed=self.config.seed, examples=examples, seed_cases=seed_cases)
            inputs = generator.inputs(ctx)
            stage = f"forge:{family}"
            done = self.store.done_keys(stage)
            todo = [i for i in inputs if generator.input_id(i) not in done]
            self.progress.start(stage, len(inputs))
            self.progress.update(stage, len(inputs) - len(todo))
            await self._forge_all(generator, ctx, todo, stage, len(inputs) - len(todo))
            self.progress.finish(stage)
        if self.config.answer.include_originals:
            self._add_originals(seed_cases)

    async def _forge_all(
        self, generator: Generator, ctx: ForgeContext, todo: Sequence[Any], stage: str, offset: int
    ) -> None:
        limit = asyncio.Semaphore(8)
        finished = 0

        async def one(item: Any) -> None:
            nonlocal finished
            async with limit:
                try:
                    made = await generator.forge_one(item, ctx)
                except Exception as exc:  # one failing case never kills a run
                    made = [generator.skip(item, f"error: {type(exc).__name__}: {exc}")]
            cases = [m for m in made if isinstance(m, TestCase)]
            skips = [m for m in made if isinstance(m, Skip)]
            self.store.put(cases)
            self.store.put(skips)
            self.store.mark_done(stage, [generator.input_id(item)])
            finished += 1
            self.progress.update(stage, offset + finished)

        await asyncio.gather(*(one(item) for item in todo))

    def _add_originals(self, seed_cases: Sequence[SeedCase]) -> None:
        """The unperturbed example behind every forged case, answered for before/after figures."""
        by_example = {s.example.id: s.example for s in seed_cases}
        wanted = {c.parent_example for c in self.store.iter(TestCase) if c.family != ORIGINAL}
        originals = [
            TestCase(
                id=stable_id(ORIGINAL, example.id),
                family=ORIGINAL,
                question=example.question,
                context=example.evidence,
                expected=list(example.answers),
                parent_example=example.id,
                checks={"from_source": True},
                provenance=Provenance(fields={"context": FieldProvenance(path="source")}),
            )
            for example_id, example in by_example.items()
            if example_id in wanted
        ]
        self.store.put(originals)

    # -- answer ----------------------------------------------------------------------------

    async def answer(self) -> None:
        """Put every valid test case to every target under every applicable setting."""
        from halluforge.answer import answer_stage

        await answer_stage(self)

    async def run_all(self) -> Any:
        """Every stage in order, in one event loop; always releases engines and files."""
        started = time.perf_counter()
        try:
            write_manifest(self, status="running")
            self.open_models()
            self.load()
            await self.select()
            await self.forge()
            await self.answer()
            await self.score()
            summary = self.report()
            self.counts["seconds"] = round(time.perf_counter() - started, 2)
            write_manifest(self, status="finished")
            return summary
        finally:
            await self.aclose()

    # -- score and report ------------------------------------------------------------------

    async def score(self) -> None:
        """Score every response with every applicable metric (reuses stored scores)."""
        from halluforge.scoring import score_stage

        await score_stage(self)

    def report(self) -> Any:
        """Aggregate, write summary.json / summary.md / exports, and return the summary."""
        from halluforge.reporting import report_stage

        return report_stage(self)


def _halve(hook: Any) -> Any:
    """Selection sends two requests per example; show progress in examples."""

    def inner(stats: RunnerStats) -> None:
        hook(
            RunnerStats(
                total=stats.total // 2,
                done=stats.done // 2,
                cached=stats.cached // 2,
                failed=stats.failed // 2,
            )
        )

    return inner


def config_of_run(run_dir: str | Path, overrides: dict[str, Any] | None = None) -> RunConfig:
    """The config a run directory was made with (from its manifest), plus overrides."""
    import json

    from halluforge.config import load_config

    path = Path(run_dir)
    manifest = path / "manifest.json"
    if not manifest.is_file():
        raise ConfigError(f"{path} is not a run directory (no manifest.json)", hint="pass runs/<run-id>")
    data = json.loads(manifest.read_text(encoding="utf-8"))["config"]
    data.update({"run_id": path.name, "output_dir": str(path.parent)})
    merged = dict(data)
    for dotted, value in (overrides or {}).items():
        node = merged
        *parents, last = dotted.split(".")
        for part in parents:
            node = node.setdefault(part, {})
        node[last] = value
    return load_config(None, merged, environ={})


async def _rescore(pipeline: Pipeline, with_scores: bool) -> Any:
    try:
        if with_scores:
            await pipeline.score()
        return pipeline.report()
    finally:
        await pipeline.aclose()


def rescore_run(
    run_dir: str | Path,
    overrides: dict[str, Any] | None = None,
    *,
    scores: bool = True,
    progress: Progress | None = None,
) -> RunResult:
    """Re-run the score and report stages (or only report) of an existing run; no model is asked to answer."""
    started = time.perf_counter()
    pipeline = Pipeline(config_of_run(run_dir, overrides), progress)
    summary = asyncio.run(_rescore(pipeline, scores))
    return RunResult(
        run_dir=pipeline.run_dir,
        summary=summary,
        counts=pipeline.counts,
        seconds=time.perf_counter() - started,
    )


def run_pipeline(config: RunConfig | None = None, progress: Progress | None = None) -> RunResult:
    """Run every stage of ``config`` (the embedded default when None)."""
    from halluforge.settings import check_settings

    config = config or RunConfig()
    check_settings(config.answer.settings)
    for address in [config.models.generator, *config.models.targets]:
        ModelSpec.parse(address)
    started = time.perf_counter()
    pipeline = Pipeline(config, progress)
    summary = asyncio.run(pipeline.run_all())
    seconds = time.perf_counter() - started
    result = RunResult(run_dir=pipeline.run_dir, summary=summary, counts=pipeline.counts, seconds=seconds)
    failed = pipeline.counts.get("responses_failed", 0)
    total = pipeline.counts.get("responses", 0)
    if total and failed / total > config.max_error_rate:
        raise RunFailedError(
            f"{failed} of {total} responses failed, above max_error_rate={config.max_error_rate}",
            hint=f"see the errors in {pipeline.run_dir / 'responses.jsonl'}; rerun to retry them",
        )
    return result


__all__ = [
    "NullProgress",
    "Pipeline",
    "Progress",
    "RunResult",
    "config_of_run",
    "rescore_run",
    "run_pipeline",
]
