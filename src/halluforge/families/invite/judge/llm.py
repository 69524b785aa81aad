"""The judge-model mode: a judge model by role answers ``VERDICT: 1`` or ``VERDICT: 0``.

The prompt (:file:`prompts/judge/premise.txt`) asks for exactly one line. The reply is read
strictly (:func:`parse_judge_reply`): after dropping a reasoning block (``<think>...</think>``),
the first non-empty line must be ``VERDICT: 0``/``VERDICT: 1`` or a lone ``0``/``1``;
anything else is "not computed" with the reply kept in the notes, never guessed from words.

Use this mode with a capable instruction-following model (a served 7B+ model through
``openai@http://...``, or a hosted one). The embedded SmolLM2-135M cannot follow the
instruction: it is accepted so the path runs offline, and every judgement it makes carries a
warning (:data:`SMALL_JUDGE_WARNING`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from halluforge.families.invite import PROMPTS
from halluforge.prompts import load_template
from halluforge.records import Message, Request

if TYPE_CHECKING:
    from halluforge.backends.base import Backend
    from halluforge.families.invite.judge.base import PremiseInput

#: what every judgement by a tiny judge model carries in its notes (and the CLI prints)
SMALL_JUDGE_WARNING = (
    "the judge model is the 135M embedded default, which cannot follow the judge instruction: "
    "its verdicts are close to chance; use a capable model (e.g. openai@http://HOST/v1/MODEL)"
)
_SMALL_JUDGE = re.compile(r"smollm2?-135m|135m", re.IGNORECASE)
_VERDICT = re.compile(r"^\s*(?:\**verdict\**\s*[:=]\s*)?\**([01])\**\s*\.?\s*$", re.IGNORECASE)
_THINK = re.compile(r"<think>.*?</think>", re.IGNORECASE | re.DOTALL)


def judge_request(question: str, reference: str, response: str) -> Request:
    """The judge model's request for one response (template ``judge/premise``)."""
    prompt = load_template("judge/premise", PROMPTS).render(
        question=question, reference=reference, response=response
    )
    return Request(messages=[Message(role="user", content=prompt)], max_tokens=16, temperature=0.0)


def parse_judge_reply(text: str) -> int | None:
    """Read the verdict: the first non-empty line is ``VERDICT: 0|1`` or a lone digit, else None."""
    lines = [line for line in _THINK.sub("", text).splitlines() if line.strip()]
    if not lines:
        return None
    match = _VERDICT.match(lines[0])
    return int(match.group(1)) if match else None


def is_small_judge(name: str) -> bool:
    """True for the embedded 135M model, which is too small to judge."""
    return _SMALL_JUDGE.search(name) is not None


async def run_llm(
    inputs: Sequence[PremiseInput],
    judge: Backend | None,
    per_mode: list[dict[str, int | None]],
    notes: list[dict[str, Any]],
) -> None:
    """Fill in the ``llm`` label of every input (``None`` with the reason when not computed)."""
    if judge is None:
        for labels, note in zip(per_mode, notes, strict=True):
            labels["llm"] = None
            note["llm"] = "not computed: no judge model (set models.judge or --judge-model)"
        return
    requests = [
        judge_request(item.question, item.reference, item.response).model_copy(update={"id": str(i)})
        for i, item in enumerate(inputs)
    ]
    completions = await judge.generate(requests)
    small = is_small_judge(judge.name)
    for i, completion in enumerate(completions):
        if small:
            notes[i]["llm_warning"] = SMALL_JUDGE_WARNING
        if completion.error is not None:
            per_mode[i]["llm"], notes[i]["llm"] = None, f"not computed: judge error {completion.error}"
            continue
        label = parse_judge_reply(completion.text)
        per_mode[i]["llm"] = label
        notes[i]["llm_reply"] = completion.text[:200]
        if label is None:
            notes[i]["llm"] = "not computed: judge reply is not 'VERDICT: 0' or 'VERDICT: 1'"
