"""The select stage: the generator model answers every example closed- and open-book (seed cases)."""

from __future__ import annotations

from halluforge.records import Example, SeedCase
from halluforge.seed_cases import seed_case_id, select_seed_cases
from halluforge.stages.context import RunContext, StageCounts, progress_hook


async def select_stage(ctx: RunContext) -> StageCounts:
    """Store a seed case per example not yet selected (within ``select.limit``)."""
    if not any(g.uses_seed_cases for g in ctx.generators.values()):
        return {}
    generator = ctx.models.get(ctx.config.models.generator)
    examples = ctx.store.all(Example)
    done = ctx.store.ids(SeedCase, include_failed=False)
    config = ctx.config.select
    todo = [e for e in examples if seed_case_id(e, generator.name, config) not in done]
    if config.limit is not None:
        todo = todo[: max(0, config.limit - len(done))]
    ctx.progress.start("select", len(todo))
    await select_seed_cases(
        todo,
        generator,
        config,
        seed=ctx.config.seed,
        sink=ctx.store.put,
        executor=ctx.executor,
        progress=progress_hook(ctx.progress, "select", per_unit=2),
    )
    ctx.progress.finish("select")
    return {}


__all__ = ["select_stage"]
