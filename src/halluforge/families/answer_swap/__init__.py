"""The ``answer_swap`` family (AutoDebug / ReEval Category 1): evidence with its answer swapped.

The generator (:mod:`halluforge.families.answer_swap.generator`) replaces the gold answer everywhere in the
evidence by a plausible wrong answer. A correct response **follows the edited evidence**: it
gives the new answer. Compare RECALL's ``counterfactual`` family, where the same kind of edit
has the opposite expected answer.
"""

from __future__ import annotations

from halluforge.family import CaseMetadata, Family
from halluforge.prompts import family_prompts

#: this family's prompt templates (``<name>.txt``; names ``answer_swap/<name>``)
PROMPTS = family_prompts(__file__)


class AnswerSwapMetadata(CaseMetadata):
    """What the answer-swap generator records about each case (``answer_position`` is on the base)."""

    answer_type: str | None = None
    occurrences: int | None = None
    similarity: float | None = None


FAMILY = Family(
    name="answer_swap",
    paper="AutoDebug (Zhang et al. 2023) §3.2; ReEval (Yu et al. 2023) Category 1",
    title="answer_swap: evidence with the answer swapped (AutoDebug/ReEval Category 1)",
    correct_means="follows the edited evidence: gives the swapped-in answer",
    generator="halluforge.families.answer_swap.generator:AnswerSwap",
    scorers=("entail",),
    metrics=("norm_entail",),
    metadata=AnswerSwapMetadata,
    baseline="original",
)

__all__ = [
    "FAMILY",
    "PROMPTS",
    "AnswerSwapMetadata",
]
