"""The forge stage: each configured family's generator turns its inputs into test cases.

Inputs already forged (recorded per stage in the store) are skipped, so a resumed run forges
only what is missing. Units run on the run's executor; the generator model is reached through a
:class:`~halluforge.executor.BatchingBackend`, so its calls share the answer stage's runner.
With ``answer.include_originals``, every example a case of a family with a ``baseline`` came
from is added as a case of that baseline family (the unperturbed example, the reference for
before/after figures). ``select.limit`` (``--limit``)
caps seed cases in the select stage and, for generators that forge from examples, their inputs.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from halluforge.backends.cache import default_cache_path
from halluforge.errors import DataError
from halluforge.executor import BatchingBackend
from halluforge.family import Family
from halluforge.forge.base import EMBEDDING_CACHE, PROGRESS, ForgeContext, Generator
from halluforge.records import Example, FieldProvenance, Provenance, SeedCase, Skip, TestCase, stable_id
from halluforge.stages.context import Progress, RunContext, StageCounts


class StageBar:
    """A ``(done, total)`` callback that drives a progress bar of its own (an index build)."""

    def __init__(self, progress: Progress, stage: str) -> None:
        self.progress = progress
        self.stage = stage
        self.started = False

    def __call__(self, done: int, total: int) -> None:
        """Start the bar at the first call, move it, and finish it when ``done`` reaches ``total``."""
        if not self.started:
            self.progress.start(self.stage, total)
            self.started = True
        self.progress.update(self.stage, done)
        if done >= total:
            self.progress.finish(self.stage)


async def forge_stage(ctx: RunContext) -> StageCounts:
    """Forge every family's inputs not yet done; store cases and skips as each unit finishes."""
    seed_cases = ctx.store.all(SeedCase)
    examples = ctx.store.all(Example)
    llm = BatchingBackend(ctx.models.get(ctx.config.models.generator)) if ctx.generators else None
    for name, generator in ctx.generators.items():
        # score.nli_model is handed to generators that can use it (context_enrich's grounding)
        resources: dict[str, Any] = (
            {"nli_model": ctx.config.score.nli_model} if ctx.config.score.nli_model else {}
        )
        resources[PROGRESS] = lambda name: StageBar(ctx.progress, name)
        if ctx.config.cache.enabled:  # embeddings kept next to the response cache (answer_swap's donors)
            cache_file = Path(ctx.config.cache.path or default_cache_path())
            resources[EMBEDDING_CACHE] = str(cache_file.parent / "embeddings")
        fctx = ForgeContext(
            llm=llm, seed=ctx.config.seed, examples=examples, seed_cases=seed_cases, resources=resources
        )
        generator.prepare(fctx)
        # the bar callback holds the console's lock: a context shipped to Ray workers cannot carry it
        resources.pop(PROGRESS, None)
        inputs = generator.inputs(fctx)
        limit = ctx.config.select.limit
        if limit is not None and not generator.uses_seed_cases:  # forged from examples: the limit caps them
            inputs = inputs[:limit]
        stage = f"forge:{name}"
        done = ctx.store.done_keys(stage)
        todo = [i for i in inputs if generator.input_id(i) not in done]
        # an input that errored last time was not marked done: its old error skip goes, it is tried again
        ctx.store.discard(Skip, [generator.skip(i, "").id for i in todo])
        ctx.progress.start(stage, len(inputs))
        finished = len(inputs) - len(todo)
        ctx.progress.update(stage, finished)
        spec = ctx.families[name]

        def store(
            unit: Any,
            made: list[TestCase | Skip],
            stage: str = stage,
            spec: Family = spec,
            generator: Generator = generator,
        ) -> None:
            nonlocal finished
            cases, skips = [], [m for m in made if isinstance(m, Skip)]
            for case in (m for m in made if isinstance(m, TestCase)):
                try:
                    spec.check_metadata(case)
                    cases.append(case)
                except DataError as exc:  # a malformed case is skipped with the reason, never stored
                    skips.append(generator.skip(unit, f"metadata: {exc}"))
            ctx.store.put(cases)
            ctx.store.put(skips)
            if not any(is_error(s) for s in skips):  # an input that errored is tried again on resume
                ctx.store.mark_done(stage, [generator.input_id(unit)])
            finished += 1
            ctx.progress.update(stage, finished)

        await ctx.executor.forge(generator, todo, fctx, store)
        ctx.progress.finish(stage)
    if ctx.config.answer.include_originals:
        add_originals(ctx, seed_cases)
    return {}


#: how an executor marks a skip made from an exception while forging (executor.py, executor_ray.py)
ERROR_PREFIX = "error:"


def is_error(skip: Skip) -> bool:
    """Whether a skip records an exception while forging (retried on resume) rather than a rule."""
    return skip.reason.startswith(ERROR_PREFIX)


def add_originals(ctx: RunContext, seed_cases: list[SeedCase]) -> None:
    """The unperturbed example behind every forged case, as a case of its family's baseline."""
    by_example = {s.example.id: s.example for s in seed_cases}
    wanted: dict[str, set[str]] = {}
    for case in ctx.store.iter(TestCase):
        spec = ctx.families.get(case.family)
        if spec is not None and spec.baseline and case.parent_example:
            wanted.setdefault(spec.baseline, set()).add(case.parent_example)
    ctx.store.put(
        [
            TestCase(
                id=stable_id(baseline, example.id),
                family=baseline,
                question=example.question,
                context=example.evidence,
                expected=list(example.answers),
                parent_example=example.id,
                checks={"from_source": True},
                provenance=Provenance(fields={"context": FieldProvenance(path="source")}),
            )
            for baseline, example_ids in sorted(wanted.items())
            for example_id, example in by_example.items()
            if example_id in example_ids
        ]
    )


__all__ = ["ERROR_PREFIX", "StageBar", "add_originals", "forge_stage", "is_error"]
