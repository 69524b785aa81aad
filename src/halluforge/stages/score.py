"""The score stage: every applicable scorer for every stored response, then the derived metrics.

Scorers are the configured ones (``score.metrics``) plus each present family's own
(:attr:`Family.scorers`); a scorer marked ``owned`` applies only to the families that list it.
A score's id hashes the response, the item, the metric and the scorer's configuration, so
re-scoring with another NLI or judge model writes new rows instead of reusing stale ones.
Responses that failed get a ``None`` score with the reason. Derived metrics (the families'
:attr:`Family.metrics`, see :mod:`halluforge.metrics.layer`) are then computed over the joined
rows and stored, so the report only reads.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from halluforge.family import Family
from halluforge.metrics import SCORERS, ScoreContext, Scorer, ScoreValue
from halluforge.metrics.joined import Joined
from halluforge.metrics.layer import METRICS, derived_for
from halluforge.plans import turn_item
from halluforge.records import Response, Score, TestCase, id_maker
from halluforge.stages.context import RunContext, StageCounts

CHUNK = 256
FAILED = "response failed"


def scorer_names(configured: Sequence[str], families: Mapping[str, Family]) -> list[str]:
    """Configured scorers plus the present families' own, in a stable order."""
    names = list(dict.fromkeys(configured))
    for name in sorted(families):
        for scorer in families[name].scorers:
            if scorer not in names:
                names.append(scorer)
    return [n for n in names if n not in METRICS]


def _identity(name: str, ctx: ScoreContext) -> dict[str, Any]:
    return {
        "metric": name,
        "nli": ctx.nli_model,
        "judge": ctx.judge.name if ctx.judge else None,
        "options": dict(ctx.options),
    }


def _applies(scorer: Scorer, case: TestCase, response: Response, spec: Family | None) -> bool:
    if scorer.owned and (spec is None or scorer.name not in spec.scorers):
        return False
    return scorer.scores_turn(response.turn) and scorer.applies_to(case)


async def _score_metric(
    ctx: RunContext,
    scorer: Scorer,
    cases: dict[str, TestCase],
    responses: Sequence[Response],
    existing: set[str],
) -> None:
    score_id = id_maker("score", tail=(_identity(scorer.name, scorer.ctx),))
    todo = []
    for response in responses:
        case = cases.get(response.test_case_id)
        if case is None or not _applies(scorer, case, response, ctx.family(case.family)):
            continue
        sid = score_id(response.id)
        if sid not in existing:
            todo.append((sid, case, response))
    stage = f"score:{scorer.name}"
    ctx.progress.start(stage, len(todo))
    for start in range(0, len(todo), CHUNK):
        chunk = todo[start : start + CHUNK]
        live = [(c, r) for _, c, r in chunk if r.error is None]
        values = iter(await scorer.ascore_batch(live))
        rows = []
        for sid, case, response in chunk:
            value = ScoreValue(None, reason=FAILED) if response.error is not None else next(values)
            rows.append(
                Score(
                    id=sid,
                    response_id=response.id,
                    test_case_id=case.id,
                    model=response.model,
                    setting=response.setting,
                    family=case.family,
                    metric=scorer.name,
                    item=value.item or turn_item(response.turn),
                    value=value.value,
                    details=Score.details_with(value.details, reason=value.reason),
                )
            )
        ctx.store.put(rows)
        ctx.progress.update(stage, start + len(chunk))
    ctx.progress.finish(stage)


async def score_stage(ctx: RunContext) -> StageCounts:
    """Score every response with every applicable scorer, then store the derived metrics."""
    config = ctx.config
    cases = {c.id: c for c in ctx.store.iter(TestCase)}
    responses = ctx.store.all(Response)
    judge = ctx.models.get(config.models.judge) if config.models.judge else None
    present = {
        name: spec for name, spec in ctx.families.items() if any(c.family == name for c in cases.values())
    }
    for name in scorer_names(config.score.metrics, present):
        options: dict[str, Any] = dict(config.score.options.get(name, {}))
        sctx = ScoreContext(judge=judge, nli_model=config.score.nli_model, options=options, seed=config.seed)
        scorer: Scorer = SCORERS.get(name)(sctx)
        await _score_metric(ctx, scorer, cases, responses, ctx.store.ids(Score))
    derive(ctx, cases, responses, present)
    return {"scores": ctx.store.count(Score)}


def derive(
    ctx: RunContext,
    cases: dict[str, TestCase],
    responses: Sequence[Response],
    families: Mapping[str, Family],
) -> None:
    """Compute and store every derived metric the present families declare."""
    names = derived_for(ctx.config.score.metrics, families)
    if not names:
        return
    joined = Joined.build(cases.values(), responses, ctx.store.all(Score))
    for name in names:
        metric = METRICS.get(name)(ctx.config.score.options.get(name, {}))
        rows = metric.derive(joined, families)
        ctx.store.put(rows)
        joined.add(rows)


__all__ = ["derive", "score_stage", "scorer_names"]
