"""The ``claims`` family (ABCD, Balepur et al. 2023): fine-grained self-evaluation over decomposed claims.

A hard question is decomposed once into claims about ``<answer>``
(:mod:`halluforge.families.claims.generator`). Its answer plan, the ``self_eval`` plan of ABCD §3.2, asks
the target, all at the run's temperature (0 by default):

- ``""``: the question, closed-book (the answer the correctness scorers read);
- ``tags`` (only when the claims share other entities): in the same conversation, one
  ``tag: value`` line per tag (``<novel>: ...``) for the target's own answer;
- ``claim:<id>``: for every claim, a fresh "True or False: <claim>" with ``<answer>`` and the
  tags filled in from the target's replies;
- ``whole``: the whole-question baseline (Kadavath et al. 2022), a fresh "is <answer> the
  correct answer to <question>? True or False";
- ``gt_tags`` and ``gt:<id>``: the ground-truth variant (ABCD Table 3): the *same* claims with
  ``<answer>`` filled with the gold answer and the other tags filled by the same target given
  that answer (the paper does not say how it filled them; this is our choice, recorded here).

A tag the target did not name (or an empty answer, such as a bare "The answer is:") stays in the
claim as ``<tag>``; the verdict scorer then records "no answer" (counted as not true) with the
reason.
"""

from __future__ import annotations

from pydantic import Field

from halluforge.family import CaseMetadata, Components, Family
from halluforge.prompts import family_prompts

#: this family's prompt templates (``<name>.txt``; names ``claims/<name>``)
PROMPTS = family_prompts(__file__)

NAME = "claims"
#: the tag every claim carries, filled with an answer before a claim is judged
ANSWER_TAG = "<answer>"
#: the kinds of the later turns of the plan (keys ``"claim:<id>"``, ``"gt:<id>"``, ``"whole"``...)
CLAIM_TURN, GOLD_CLAIM_TURN, WHOLE_TURN, TAGS_TURN, GOLD_TAGS_TURN = "claim", "gt", "whole", "tags", "gt_tags"
_HERE = "halluforge.families.claims"


class ClaimsMetadata(CaseMetadata):
    """What the claims generator records about each case."""

    tags: list[str] = Field(default_factory=lambda: [ANSWER_TAG])
    entity_type: str | None = None
    type_claim: str = "c1"
    decomposition: str = "rule"
    problems: list[str] = Field(default_factory=list)
    source: str | None = None


FAMILY = Family(
    name=NAME,
    paper="ABCD (Balepur et al. 2023)",
    title="claims: fine-grained self-evaluation over decomposed claims (ABCD)",
    correct_means="gives the gold answer; score_t is the share of its claims the target judges true",
    generator=f"{_HERE}.generator:ClaimsGenerator",
    settings=("closed_book",),
    scorers=("hit", "claim_verdict", "gt_claim_verdict", "whole_verdict"),
    metrics=("score_t",),
    sections=("table", "claims"),
    metadata=ClaimsMetadata,
    plan=f"{_HERE}.plan:plan",
    follow=f"{_HERE}.plan:follow",
    brings=Components(
        scorers={
            "claim_verdict": f"{_HERE}.metrics:ClaimVerdict",
            "gt_claim_verdict": f"{_HERE}.metrics:GroundTruthClaimVerdict",
            "whole_verdict": f"{_HERE}.metrics:WholeVerdict",
        },
        metrics={"score_t": f"{_HERE}.metrics:ScoreT"},
        sections={"claims": f"{_HERE}.report:SECTION"},
        # the AUROC of self-evaluation (sklearn's roc_auc_score), computed for every claims run
        extras=("claims",),
    ),
)

__all__ = [
    "ANSWER_TAG",
    "CLAIM_TURN",
    "FAMILY",
    "GOLD_CLAIM_TURN",
    "GOLD_TAGS_TURN",
    "NAME",
    "PROMPTS",
    "TAGS_TURN",
    "WHOLE_TURN",
    "ClaimsMetadata",
]
