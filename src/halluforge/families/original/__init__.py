"""The ``original`` family: the seed cases as they were, before any perturbation.

Every forged case points at its source example; answering that example unperturbed gives the
"before" figure that normalized entailment and the original → perturbed drop compare with.
Nothing is forged: the forge stage adds one ``original`` case per example that some forged
case came from (``answer.include_originals``).
"""

from __future__ import annotations

from halluforge.family import Family

NAME = "original"

FAMILY = Family(
    name=NAME,
    paper="AutoDebug / ReEval (reference condition)",
    title="original: the seed cases unperturbed (reference for normalised scores)",
    correct_means="gives the gold answer of the unperturbed example",
    scorers=("entail",),
)

__all__ = ["FAMILY", "NAME"]
