"""Scorers: one metric each, registered by name in :data:`SCORERS`.

The generic scorers are listed here; a family's own scorers (the premise judge, the claim
verdicts, RECALL's accuracy) come from its spec (:attr:`halluforge.family.Family.brings`).

A scorer gives a value per response (``None`` when it cannot be computed, with the reason in
details). Metrics that read several responses (normalized entailment, the both-variants rule)
are derived over joined rows in :mod:`halluforge.metrics.layer`; :mod:`halluforge.metrics.aggregate`
groups values into summaries with bootstrap confidence intervals.
"""

from __future__ import annotations

from halluforge.family import components_of
from halluforge.metrics.base import ScoreContext, Scorer, ScoreValue
from halluforge.registry import Registry

SCORERS: Registry[type[Scorer]] = Registry(
    "scorers",
    {
        "em": "halluforge.metrics.match:ExactMatch",
        "f1": "halluforge.metrics.match:TokenF1",
        "hit": "halluforge.metrics.match:Hit",
        "bleu": "halluforge.metrics.text:Bleu",
        "bleu_disengage": "halluforge.metrics.text:BleuDisengage",
        "meteor": "halluforge.metrics.text:Meteor",
        "meteor_disengage": "halluforge.metrics.text:MeteorDisengage",
        "rouge_l": "halluforge.metrics.text:RougeL",
        "rouge_l_disengage": "halluforge.metrics.text:RougeLDisengage",
        "bertscore": "halluforge.metrics.text:BertScore",
        "bertscore_disengage": "halluforge.metrics.text:BertScoreDisengage",
        "entail": "halluforge.metrics.nli:Entailment",
    },
    source=lambda: components_of("scorers"),
)

__all__ = ["SCORERS", "ScoreContext", "ScoreValue", "Scorer"]
