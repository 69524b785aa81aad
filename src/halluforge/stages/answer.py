"""The answer stage: put test cases to target models under each setting, following answer plans.

Every (test case, target, setting) has a plan of one or more turns (see
:mod:`halluforge.settings`). Turns run in rounds: the first turns of every plan, then the turns
that continue them, each built from the stored reply it continues. Every turn's response has a
deterministic id, so a resumed run sends only what is missing (failed responses are sent
again). Invalid test cases are not answered unless ``answer.include_invalid`` is set; a
setting a case cannot take (no context) or its family does not accept is counted, not used.
Requests ask for token log-probabilities when a configured scorer reads them and the backend
returns them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from halluforge.backends import check_decoding
from halluforge.family import Family
from halluforge.limits import text_limit
from halluforge.metrics import SCORERS
from halluforge.plans import REPLY_SLOT, Plan, Turn
from halluforge.records import Completion, Message, Request, Response, TestCase, stable_id
from halluforge.settings import Demo, answer_turn, few_shot_pool, pick_demos, setting
from halluforge.stages.context import RunContext, StageCounts, progress_hook


def response_id(case_id: str, model: str, setting: str, turn: str = "") -> str:
    """The one id a (test case, model, setting, turn) response can have (the first turn's is unchanged)."""
    if not turn:
        return stable_id("response", case_id, model, setting)
    return stable_id("response", case_id, model, setting, turn)


def to_response(
    request: Request,
    completion: Completion,
    case_id: str,
    model: str,
    setting: str,
    turn: Turn,
    parent: str | None,
) -> Response:
    """Tie a backend completion to its test case, model, setting and turn."""
    text = completion.text.strip()
    messages = list(request.messages)
    if completion.ok:
        messages.append(Message(role="assistant", content=text))
    return Response(
        id=request.id,
        test_case_id=case_id,
        model=model,
        setting=setting,
        turn=turn.key,
        parent_id=parent,
        messages=messages,
        text=text,
        tokens=completion.tokens,
        token_logprobs=completion.token_logprobs,
        usage=completion.usage,
        latency_s=completion.latency_s,
        error=completion.error,
        cached=completion.cached,
    )


class DemoPools:
    """Few-shot demonstration pools, built on first use."""

    def __init__(self, ctx: RunContext, cases: list[TestCase]) -> None:
        self.ctx = ctx
        self.cases = cases
        self._pools: dict[str, list[Demo]] = {}

    def get(self, setting_name: str, family: str) -> list[Demo]:
        config = self.ctx.config.answer.few_shot
        adversarial = setting(setting_name).demos == "adversarial" or config.demos == "adversarial"
        key = f"adversarial:{family}" if adversarial else "static"
        if key not in self._pools:
            same_family = [c for c in self.cases if c.family == family]
            with text_limit(self.ctx.config.limits.max_text_chars):  # a demos file is user data
                self._pools[key] = few_shot_pool(config, adversarial, same_family)
        return self._pools[key]


@dataclass(frozen=True)
class _Slot:
    """One turn of one plan, waiting to be sent."""

    case: TestCase
    setting: str
    turn: Turn
    parent: Response | None


def _plans(
    ctx: RunContext, cases: Sequence[TestCase], pools: DemoPools, skipped: Counter[str]
) -> list[tuple[TestCase, str, Plan]]:
    config = ctx.config.answer
    plans = []
    for case in cases:
        spec: Family | None = ctx.family(case.family)
        for name in config.settings:
            how = setting(name)
            if not how.applies(case) or (spec is not None and not spec.accepts(name)):
                skipped[name] += 1
                continue
            demos: list[Demo] = []
            if how.demos != "none":
                demos = pick_demos(pools.get(name, case.family), case, config.few_shot.k, ctx.config.seed)
            first = answer_turn(name, case, demos)
            plans.append((case, name, spec.answer_plan(case, name, first) if spec is not None else (first,)))
    return plans


def _request(ctx: RunContext, slot: _Slot, rid: str, logprobs: bool) -> Request:
    config = ctx.config.answer
    prompt = slot.turn.prompt
    messages: list[Message] = []
    if slot.parent is not None:
        messages = [] if slot.turn.fresh else list(slot.parent.messages)
        spec = ctx.family(slot.case.family)
        if spec is not None:
            prompt = spec.follow_prompt(slot.case, slot.turn, slot.parent)
        else:
            prompt = prompt.replace(REPLY_SLOT, slot.parent.text)
    messages.append(Message(role="user", content=prompt))
    return Request(
        decoding=setting(slot.setting).decoding,
        id=rid,
        messages=messages,
        max_tokens=slot.turn.max_tokens or config.max_tokens,
        temperature=config.temperature,
        seed=ctx.config.seed,
        logprobs=logprobs,
    )


async def answer_stage(ctx: RunContext) -> StageCounts:
    """Answer every valid test case with every target under every applicable setting's plan."""
    config = ctx.config.answer
    all_cases = ctx.store.all(TestCase)
    cases = [c for c in all_cases if config.include_invalid or c.valid]
    not_applicable: Counter[str] = Counter()
    plans = _plans(ctx, cases, DemoPools(ctx, cases), not_applicable)
    scorers = {*ctx.config.score.metrics, *(n for spec in ctx.families.values() for n in spec.scorers)}
    wants_logprobs = any(SCORERS.get(n).needs_logprobs for n in scorers if n in SCORERS)
    rounds = max((len(plan) for _, _, plan in plans), default=0)
    for target in ctx.config.models.targets:
        backend = ctx.models.get(target)
        model = backend.name
        for name in config.settings:
            check_decoding(name, setting(name).decoding, model)
        logprobs = wants_logprobs and backend.capabilities.logprobs
        for depth in range(rounds):
            stored = {r.id: r for r in ctx.store.iter(Response)} if depth else {}
            done = (
                {rid for rid, r in stored.items() if r.error is None}
                if depth
                else ctx.store.ids(Response, include_failed=False)
            )
            requests: list[Request] = []
            slots: dict[str, _Slot] = {}
            for case, name, plan in plans:
                if depth >= len(plan):
                    continue
                turn = plan[depth]
                parent: Response | None = None
                if turn.after is not None:
                    parent = stored.get(response_id(case.id, model, name, turn.after))
                    if parent is None or parent.error is not None:
                        continue  # the turn it continues failed; a rerun retries both
                rid = response_id(case.id, model, name, turn.key)
                if rid in done:
                    continue
                slot = _Slot(case, name, turn, parent)
                slots[rid] = slot
                requests.append(_request(ctx, slot, rid, logprobs))
            stage = f"answer:{model}" if depth == 0 else f"answer:{model}:turn{depth + 1}"
            if depth and not requests:
                continue
            ctx.progress.start(stage, len(requests))

            def sink(
                results: list[tuple[Request, Completion]], model: str = model, slots: dict[str, _Slot] = slots
            ) -> None:
                rows = []
                for request, completion in results:
                    slot = slots[request.id]
                    parent_id = slot.parent.id if slot.parent is not None else None
                    rows.append(
                        to_response(
                            request, completion, slot.case.id, model, slot.setting, slot.turn, parent_id
                        )
                    )
                ctx.store.put(rows)

            await ctx.executor.generate(backend, requests, sink, progress=progress_hook(ctx.progress, stage))
            ctx.progress.finish(stage)
    return {
        "test_cases_invalid_not_answered": len(all_cases) - len(cases),
        "settings_not_applicable": {k: v * len(ctx.config.models.targets) for k, v in not_applicable.items()},
    }


__all__ = ["DemoPools", "answer_stage", "response_id", "to_response"]
