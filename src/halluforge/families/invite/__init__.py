"""The INVITE families (Ramakrishna et al. 2023): questions a model should refuse to answer.

- ``false_premise``: a question built from a KB fact whose subject or object was swapped for a
  same-type entity the KB does not link (:mod:`halluforge.families.invite.false_premise`);
- ``invalid_date``: a question whose date cannot exist or lies in the future
  (:mod:`halluforge.families.invite.invalid_date`).

A correct response rejects or corrects the premise. The ``premise_judge`` scorer gives 1 when a
response goes along with it, so its mean is the hallucination rate (lower is better), reported
per model and per category (predicate or date kind) as in INVITE Table 2.
"""

from __future__ import annotations

from dataclasses import replace

from pydantic import Field

from halluforge.family import CaseMetadata, Components, Family
from halluforge.prompts import family_prompts

#: this family's prompt templates (``<name>.txt``; names ``invite/<name>``)
PROMPTS = family_prompts(__file__)

_PAPER = "INVITE (Ramakrishna et al. 2023)"
#: the premise judge, INVITE Table 2 and ``halluforge judge``, shared by both families
_BRINGS = Components(
    scorers={"premise_judge": "halluforge.families.invite.judge:PremiseJudge"},
    sections={"invite": "halluforge.families.invite.report:SECTION"},
    commands=("halluforge.families.invite.cli",),
)


class FalsePremiseMetadata(CaseMetadata):
    """What the false-premise generator records about each case."""

    predicate: str | None = None
    valid_question: str | None = None
    invalid_question: str | None = None
    swapped_side: str | None = None
    swapped_entity: str | None = None
    replaced_entity: str | None = None
    new_entity_links: list[str] = Field(default_factory=list)
    new_entity_link_count: int | None = None


class InvalidDateMetadata(CaseMetadata):
    """What the invalid-date generator records about each case."""

    original_question: str | None = None
    invalid_question: str | None = None
    old_text: str | None = None
    new_text: str | None = None
    source: str | None = None


FALSE_PREMISE = Family(
    name="false_premise",
    paper=_PAPER,
    title="false_premise: questions with a false premise (INVITE)",
    correct_means="rejects or corrects the false premise (premise_judge 0)",
    generator="halluforge.families.invite.false_premise:FalsePremise",
    scorers=("premise_judge",),
    sections=("table", "invite"),
    metadata=FalsePremiseMetadata,
    # the knowledge base is read with pyoxigraph (N-Triples and SPARQL)
    brings=replace(_BRINGS, extras=("kb",)),
)

INVALID_DATE = Family(
    name="invalid_date",
    paper=_PAPER,
    title="invalid_date: questions with an impossible date (INVITE)",
    correct_means="rejects the impossible or future date (premise_judge 0)",
    generator="halluforge.families.invite.invalid_date:InvalidDate",
    scorers=("premise_judge",),
    sections=("table", "invite"),
    metadata=InvalidDateMetadata,
    brings=_BRINGS,
)

__all__ = [
    "FALSE_PREMISE",
    "INVALID_DATE",
    "PROMPTS",
    "FalsePremiseMetadata",
    "InvalidDateMetadata",
]
