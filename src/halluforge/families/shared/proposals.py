"""The seeded ask-and-check loop of every family's generator-model step that proposes an answer.

:func:`ask_attempt` makes one attempt (the first at temperature 0, later ones sampled with a
fixed seed) and turns a backend exception into an error completion; :func:`propose_answer` asks
up to ``max_attempts`` times and puts each parsed reply to a ``reject`` check. answer_swap's
proposal and RECALL's counterfactual answer share it (:mod:`.wrong_answer`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from halluforge.errors import BackendError
from halluforge.families.shared.answer_types import AnswerType, describe
from halluforge.families.shared.validate import parse_answer
from halluforge.forge.base import ForgeContext
from halluforge.prompts import Template
from halluforge.records import Completion


async def ask_attempt(
    ctx: ForgeContext, template: Template, attempt: int, *, max_tokens: int, **values: object
) -> Completion:
    """Attempt ``attempt`` of one LLM step: the first at temperature 0, later ones sampled, seeded.

    A backend that raises instead of returning an error completion is turned into one, so
    the step falls back to its rule instead of losing the seed case.
    """
    try:
        if attempt == 0:
            return await ctx.ask(template, max_tokens=max_tokens, **values)
        return await ctx.sample(
            template, values, attempt=attempt, temperature=0.8, top_p=0.95, max_tokens=max_tokens
        )
    except BackendError as exc:
        return Completion(error=str(exc), error_type=type(exc).__name__)


async def propose_answer(
    ctx: ForgeContext,
    template: Template,
    max_attempts: int,
    *,
    question: str,
    gold: Sequence[str],
    answer_type: AnswerType,
    reject: Callable[[str], str | None],
) -> tuple[str | None, int, list[str]]:
    """Ask the generator model for a wrong answer of ``answer_type`` up to ``max_attempts`` times.

    Each reply is parsed and put to ``reject`` (None: accepted). Returns the accepted answer or
    None, the attempts made, and why each earlier reply was rejected, for the provenance.
    answer_swap's proposal and RECALL's counterfactual answer share this loop.
    """
    rejected: list[str] = []
    for attempt in range(max_attempts):
        completion = await ask_attempt(
            ctx,
            template,
            attempt,
            max_tokens=24,
            question=question,
            answer=gold[0],
            answer_type=describe(answer_type),
        )
        if completion.error is not None:
            rejected.append(f"backend error: {completion.error_type or completion.error}")
            continue
        candidate = parse_answer(completion.text)
        reason = reject(candidate)
        if reason is None:
            return candidate, attempt + 1, rejected
        rejected.append(reason)
    return None, max_attempts, rejected


__all__ = ["ask_attempt", "propose_answer"]
