"""The score stage: every applicable metric for every stored response.

Metrics are the configured ones (``score.metrics``) plus each family's own: the premise judge
for INVITE families, entailment and normalized entailment for the ReEval families (these say
"not computed" when no NLI model is configured, never substituting another metric). A score's
id hashes the response, the metric and the scorer's configuration, so re-scoring with another
NLI or judge model writes new rows instead of reusing stale ones. Responses that failed get a
``None`` score with the reason.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from halluforge.metrics import SCORERS, ScoreContext, Scorer, ScoreValue
from halluforge.records import Response, Score, TestCase, stable_id

if TYPE_CHECKING:
    from halluforge.pipeline import Pipeline

#: metrics every family gets in addition to ``score.metrics`` (when the metric is installed)
FAMILY_METRICS: dict[str, tuple[str, ...]] = {
    "answer_swap": ("entail", "norm_entail"),
    "context_enrich": ("entail", "norm_entail"),
    "original": ("entail",),
    "false_premise": ("premise_judge",),
    "invalid_date": ("premise_judge",),
}
#: metrics that need the "before perturbation" correctness map
NEEDS_BEFORE = ("norm_entail",)
CHUNK = 256


def metric_names(configured: Sequence[str], families: set[str]) -> list[str]:
    """Configured metrics plus the families' own, in a stable order, dependent ones last."""
    names = list(dict.fromkeys(configured))
    for family in sorted(families):
        for name in FAMILY_METRICS.get(family, ()):
            if name not in names and name in SCORERS:
                names.append(name)
    return [n for n in names if n not in NEEDS_BEFORE] + [n for n in names if n in NEEDS_BEFORE]


BeforeKey = tuple[str, str, str]


def before_map(cases: dict[str, TestCase], scores: Sequence[Score]) -> dict[BeforeKey, bool]:
    """Whether each target answered each original example correctly, per setting.

    Keys are ``(parent_example, model, setting)``; correctness is entailment when it was
    computed and hit otherwise.
    """
    by_metric: dict[str, dict[BeforeKey, bool]] = {"entail": {}, "hit": {}}
    for score in scores:
        case = cases.get(score.test_case_id)
        if case is None or case.family != "original" or score.value is None:
            continue
        if score.metric in by_metric:
            key = (case.parent_example or "", score.model, score.setting)
            by_metric[score.metric][key] = score.value >= 0.5
    merged = dict(by_metric["hit"])
    merged.update(by_metric["entail"])
    return merged


def _identity(name: str, ctx: ScoreContext) -> dict[str, Any]:
    return {
        "metric": name,
        "nli": ctx.nli_model,
        "judge": ctx.judge.name if ctx.judge else None,
        "options": {k: v for k, v in ctx.options.items() if k != "before"},
    }


async def _score_metric(
    pipeline: Pipeline,
    name: str,
    ctx: ScoreContext,
    cases: dict[str, TestCase],
    responses: Sequence[Response],
    existing: set[str],
) -> None:
    scorer: Scorer = SCORERS.get(name)(ctx)
    identity = _identity(name, ctx)
    todo = []
    for response in responses:
        case = cases.get(response.test_case_id)
        if case is None or not scorer.applies_to(case):
            continue
        sid = stable_id("score", response.id, identity)
        if sid not in existing:
            todo.append((sid, case, response))
    stage = f"score:{name}"
    pipeline.progress.start(stage, len(todo))
    for start in range(0, len(todo), CHUNK):
        chunk = todo[start : start + CHUNK]
        live = [(c, r) for _, c, r in chunk if r.error is None]
        values = iter(await scorer.ascore_batch(live))
        rows = []
        for sid, case, response in chunk:
            value = (
                ScoreValue(None, {"reason": "response failed"})
                if response.error is not None
                else next(values)
            )
            rows.append(
                Score(
                    id=sid,
                    response_id=response.id,
                    test_case_id=case.id,
                    model=response.model,
                    setting=response.setting,
                    family=case.family,
                    metric=name,
                    value=value.value,
                    details=value.details,
                )
            )
        pipeline.store.put(rows)
        pipeline.progress.update(stage, start + len(chunk))
    pipeline.progress.finish(stage)


async def score_stage(pipeline: Pipeline) -> None:
    """Score every response with every applicable metric."""
    config = pipeline.config
    cases = {c.id: c for c in pipeline.store.iter(TestCase)}
    responses = pipeline.store.all(Response)
    judge = pipeline.backend(config.models.judge) if config.models.judge else None
    names = metric_names(config.score.metrics, {c.family for c in cases.values()})
    for name in names:
        options: dict[str, Any] = dict(config.score.options.get(name, {}))
        if name in NEEDS_BEFORE:
            options["before"] = before_map(cases, pipeline.store.all(Score))
        ctx = ScoreContext(judge=judge, nli_model=config.score.nli_model, options=options, seed=config.seed)
        existing = pipeline.store.ids(Score)
        await _score_metric(pipeline, name, ctx, cases, responses, existing)
    pipeline.counts["scores"] = pipeline.store.count(Score)


__all__ = ["FAMILY_METRICS", "before_map", "metric_names", "score_stage"]
