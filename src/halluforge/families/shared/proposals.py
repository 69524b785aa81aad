"""The seeded ask-and-check loop of every family's generator-model step that proposes an answer.

:func:`ask_attempt` makes one attempt (the first at temperature 0, later ones sampled with a
fixed seed) and turns a backend exception into an error completion; :func:`propose_answer` asks
up to ``max_attempts`` times and puts each parsed reply to a ``reject`` check, which starts with
:func:`form_refusal` (a proposal is an answer of the gold one's form). answer_swap's proposal and
RECALL's counterfactual answer share it (:mod:`.wrong_answer`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from halluforge.errors import BackendError
from halluforge.families.shared.answer_types import (
    AnswerType,
    classify_answer,
    describe,
    form_type,
    is_title,
    looks_like_name,
)
from halluforge.families.shared.validate import check_differs, near_copy, parse_answer
from halluforge.forge.base import ForgeContext
from halluforge.prompts import Template
from halluforge.records import Completion
from halluforge.textkit.answers import answer_key, contains_answer, normalize_answer

#: words that show a proposal is commentary, not an answer
_META = re.compile(
    r"\b(?:wrong answer|correct answer|the answer|question|sorry|as an ai|i cannot|i can't|i don't|"
    r"not sure|unknown|none|n/a|must be|you've|i'll|i'm|instead|reply|sentence|in this case)\b|"
    r"^(?:not|no|yes|true|false|it|this|that|there|who|what|what's|when|where|which|why|how|maybe|perhaps|"
    r"i|my|we|you)\b",
    re.I,
)


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


def form_refusal(
    candidate: str,
    gold: Sequence[str],
    answer_type: AnswerType,
    question: str,
    evidence: str,
    *,
    max_words: int,
) -> str | None:
    """Why a generator model's proposal is not an answer of the gold one's form, or None.

    No commentary, at most ``max_words`` words, not a gold alias or a misspelling of one, the
    gold answer's type and casing, not already in the evidence.
    """
    if not answer_key(candidate):
        return "empty proposal"
    words = len(candidate.split())
    if words > max_words:
        return f"proposal too long ({words} words > {max_words})"
    ok, reason = check_differs(candidate, gold)
    if not ok:
        return reason
    if _META.search(candidate) or normalize_answer(candidate) == normalize_answer(question):
        return f"proposal {candidate!r} is not an answer"
    if answer_type not in ("date", "number") and near_copy(candidate, gold):
        return f"proposal {candidate!r} is a misspelling of the gold answer, not another one"
    form = form_type(candidate)
    if answer_type in ("date", "number"):
        # the question's wh-word alone would call anything a date ("when ...? banana")
        found = classify_answer(candidate, question) if form is not None else "other"
        if found != answer_type:
            return f"proposal {candidate!r} is not a {answer_type} like the gold answer"
    else:
        if form is not None:
            return f"proposal {candidate!r} is a {form}, the gold answer a {answer_type}"
        found = classify_answer(candidate, question)
        if answer_type != "other" and found != answer_type:
            return f"proposal {candidate!r} is a {found}, the gold answer a {answer_type}"
        if gold[0][:1].isupper() and not candidate[:1].isupper():
            return f"proposal {candidate!r} is not capitalised like the gold answer {gold[0]!r}"
        if is_title(gold[0]) and not is_title(candidate):
            return f"proposal {candidate!r} is not a name like the gold answer {gold[0]!r}"
        if answer_type == "person" and not looks_like_name(candidate, single=True):
            return f"proposal {candidate!r} does not look like a person's name"
    if contains_answer(evidence, candidate):
        return f"proposal {candidate!r} already occurs in the evidence"
    return None


__all__ = ["ask_attempt", "form_refusal", "propose_answer"]
