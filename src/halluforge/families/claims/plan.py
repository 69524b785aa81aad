"""The ``claims`` family's answer plan: the ``self_eval`` turns and their prompts (see the spec's docstring).

:func:`plan` lists the turns a target answers for one case; :func:`follow` builds a later
turn's prompt from the reply it follows (the target's answer and tag values filled into the
claim). The spec (:mod:`halluforge.families.claims`) names both by path, so loading the spec
stays light.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from halluforge.families.claims import (
    ANSWER_TAG,
    CLAIM_TURN,
    GOLD_CLAIM_TURN,
    GOLD_TAGS_TURN,
    PROMPTS,
    TAGS_TURN,
    WHOLE_TURN,
    ClaimsMetadata,
)
from halluforge.metrics.match import strip_answer_prefix
from halluforge.plans import REPLY_SLOT, Plan, Turn, turn_key, turn_kind
from halluforge.prompts import load_template
from halluforge.records import Response, TestCase

#: max tokens of a verification reply (the paper's 64) and of a tag list
VERIFY_TOKENS, TAG_TOKENS = 64, 64
_TAG_LINE = re.compile(r"^\s*[-*]?\s*<?\s*([A-Za-z][\w -]{0,30}?)\s*>?\s*[:=\-]\s*(.+?)\s*$")


def other_tags(case: TestCase) -> list[str]:
    """The case's tags other than ``<answer>``, in order."""
    tags = ClaimsMetadata.of(case).tags or [ANSWER_TAG]
    return [t for t in tags if t != ANSWER_TAG]


def tag_lines(tags: list[str]) -> str:
    """The lines a tag prompt lists: ``novel:`` for ``<novel>``."""
    return "\n".join(f"{t.strip('<>')}:" for t in tags)


def parse_tag_reply(text: str, tags: list[str]) -> dict[str, str]:
    """Values of ``tags`` from a ``tag: value`` reply; a lone line answers a lone tag."""
    wanted = {t.strip("<>").lower(): t for t in tags}
    found: dict[str, str] = {}
    lines = [line for line in text.splitlines() if line.strip()]
    for line in lines:
        match = _TAG_LINE.match(line)
        if match and match.group(1).strip().lower() in wanted:
            found.setdefault(wanted[match.group(1).strip().lower()], match.group(2).strip())
    if not found and len(tags) == 1 and len(lines) == 1 and ":" not in lines[0]:
        found[tags[0]] = lines[0].strip()
    return {t: v for t, v in found.items() if v}


def answer_text(reply: str) -> str:
    """The target's answer as filled into ``<answer>``: its first line past any lead-in ("" if none)."""
    body = strip_answer_prefix(reply)
    first = next((line for line in body.splitlines() if line.strip()), "")
    return strip_answer_prefix(first).strip().strip('"').rstrip(" .")


def fill(claim: str, values: Mapping[str, str]) -> str:
    """The claim with each tag replaced by its value (unknown tags left as they are)."""
    for tag, value in values.items():
        claim = claim.replace(tag, value)
    return claim


def plan(case: TestCase, setting: str, first: Turn) -> Plan:
    """The ``self_eval`` plan of a case (see the module docstring)."""
    others = other_tags(case)
    verify = load_template("claims/verify", PROMPTS)
    turns: list[Turn] = [first]
    if others:
        tags = tag_lines(others)
        turns.append(
            Turn(
                load_template("claims/answer_tags", PROMPTS).render(tags=tags),
                key=TAGS_TURN,
                after="",
                max_tokens=TAG_TOKENS,
            )
        )
        gold = case.expected[0] if case.expected else ""
        turns.append(
            Turn(
                load_template("claims/gt_tags", PROMPTS).render(
                    question=case.question, answer=gold, tags=tags
                ),
                key=GOLD_TAGS_TURN,
                max_tokens=TAG_TOKENS,
            )
        )
    whole = load_template("claims/whole", PROMPTS).render(question=case.question, reply=REPLY_SLOT)
    turns.append(Turn(whole, key=WHOLE_TURN, after="", fresh=True, max_tokens=VERIFY_TOKENS))
    for claim in case.claims:
        prompt = verify.render(claim=claim.text)
        turns.append(
            Turn(
                prompt,
                key=turn_key(CLAIM_TURN, claim.id),
                after=TAGS_TURN if others else "",
                item=claim.id,
                fresh=True,
                max_tokens=VERIFY_TOKENS,
            )
        )
    gold_values = {ANSWER_TAG: case.expected[0]} if case.expected else {}
    for claim in case.claims:
        prompt = fill(verify.render(claim=claim.text), gold_values)
        turns.append(
            Turn(
                prompt,
                key=turn_key(GOLD_CLAIM_TURN, claim.id),
                after=GOLD_TAGS_TURN if others else None,
                item=claim.id,
                fresh=True,
                max_tokens=VERIFY_TOKENS,
            )
        )
    return tuple(turns)


def follow(case: TestCase, turn: Turn, parent: Response) -> str:
    """A later turn's prompt: the claim with the target's answer and tag values filled in."""
    kind = turn_kind(turn.key)
    if kind == WHOLE_TURN:
        return turn.prompt.replace(REPLY_SLOT, answer_text(parent.text))
    others = other_tags(case)
    if kind == CLAIM_TURN:
        if turn.after == TAGS_TURN:
            answers = [m.content for m in parent.messages if m.role == "assistant"]
            values = {ANSWER_TAG: answer_text(answers[0] if answers else "")}
            values.update(parse_tag_reply(parent.text, others))
        else:
            values = {ANSWER_TAG: answer_text(parent.text)}
        # no answer: <answer> stays a tag, and the verdict is "no answer" with the reason
        return fill(turn.prompt, {t: v for t, v in values.items() if v})
    if kind == GOLD_CLAIM_TURN:
        return fill(turn.prompt, parse_tag_reply(parent.text, others))
    return turn.prompt.replace(REPLY_SLOT, parent.text)


__all__ = ["answer_text", "fill", "follow", "other_tags", "parse_tag_reply", "plan", "tag_lines"]
