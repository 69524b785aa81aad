"""INVITE's premise judge: decides whether a response went along with a false premise.

INVITE (Ramakrishna et al., 2023) asks questions whose premise is false (a swapped subject or
object, an impossible or future date) and labels a response **1** when it states something
inaccurate as if the premise held, and **0** otherwise: when it rejects or flags the premise,
declines, says it does not know, or is empty or degenerate. The authors labelled by hand; this
package decides automatically, with four modes that can be combined:

``rule`` (:mod:`.steps`)
    Three named decision steps: does the reply engage with the question at all; does it
    reject, correct or decline the premise; does it assert the premise or an answer as fact.
    Each verdict carries its step and reason.
``nli``
    The response entails the reference answer (for INVITE the premise rejection, "X did not
    write Y") -> 0, else 1. Loaded by :func:`halluforge.metrics.nli.load_nli`; no model
    configured -> "not computed", never another metric in its place.
``llm`` (:mod:`.llm`)
    A judge model by role answers in a strict one-line format; for capable models only.
``learned`` (:mod:`.learned`)
    A logistic regression over the rule features and the MiniLM cosine of the question and
    the reply's answer head, trained on labelled
    JSON lines and saved with its training manifest.

:mod:`.core` combines the modes (``any``, ``majority``, ``all``, ``learned-with-rule-veto``)
and holds the ``premise_judge`` scorer; :mod:`.evaluate` measures a judge against human
labels (agreement, kappa, rates with bootstrap intervals, leave-one-model-out).
"""

from __future__ import annotations

from halluforge.families.invite.judge.base import Judgement, PremiseInput
from halluforge.families.invite.judge.core import (
    COMBINE_RULES,
    MODES,
    JudgeOptions,
    PremiseJudge,
    ajudge_premise,
    combine,
    judge_premise,
    premise_input,
)
from halluforge.families.invite.judge.llm import judge_request, parse_judge_reply
from halluforge.families.invite.judge.reading import read_reply
from halluforge.families.invite.judge.steps import (
    RuleVerdict,
    assertion,
    engagement,
    rule_judge,
    stance,
)
from halluforge.families.invite.judge.text import (
    invalid_dates,
    question_entities,
    reply_sentences,
    swapped_span,
)

__all__ = [
    "COMBINE_RULES",
    "MODES",
    "JudgeOptions",
    "Judgement",
    "PremiseInput",
    "PremiseJudge",
    "RuleVerdict",
    "ajudge_premise",
    "assertion",
    "combine",
    "engagement",
    "invalid_dates",
    "judge_premise",
    "judge_request",
    "parse_judge_reply",
    "premise_input",
    "question_entities",
    "read_reply",
    "reply_sentences",
    "rule_judge",
    "stance",
    "swapped_span",
]
