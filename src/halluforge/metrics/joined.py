"""Joined rows: a run's test cases, responses and latest scores, and the fields rows group by.

Scorers give one value per (test case, response); everything that reads more than one value
(derived metrics, summaries, report sections) reads :class:`Joined` rows. A score row is
grouped by *join fields* (:data:`JOIN_FIELDS`): its own ``family``, ``model``, ``setting``,
``metric`` and ``item``, and its test case's ``category``, ``generator`` (the model that
forged it) and ``variant``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from halluforge.family import metadata_of
from halluforge.records import Response, Score, TestCase

#: the join fields a row can be grouped by
JOIN_FIELDS = ("family", "model", "setting", "metric", "category", "generator", "variant", "item")
#: the summary's grouping: one row per family, model, setting and metric
DEFAULT_GROUP = ("family", "model", "setting", "metric")
#: the ``generator`` of a ready-made test case (no model forged it)
NO_GENERATOR = "(no generator)"


def latest_scores(scores: Iterable[Score]) -> list[Score]:
    """One score per (response, metric, item): the last one given, in first-seen order.

    The store yields scores in insertion order, so after a re-score the newest value wins.
    """
    latest: dict[tuple[str, str, str | None], Score] = {}
    for score in scores:
        latest[(score.response_id, score.metric, score.item)] = score
    return list(latest.values())


def category_of(case: TestCase | None, score: Score) -> str:
    """The category a row is reported under: the case's recorded category or variant, else its family.

    A score without its test case (INVITE rows judged by ``halluforge judge``) may carry its
    category in ``details``.
    """
    if case is not None:
        found = metadata_of(case).category or case.variant
        if found:
            return found
    return str(score.details.get("category") or score.family)


@dataclass
class Joined:
    """Test cases, responses and the latest scores of a run, joined by id."""

    cases: dict[str, TestCase]
    responses: dict[str, Response] = field(default_factory=dict)
    scores: list[Score] = field(default_factory=list)

    @classmethod
    def build(
        cls, cases: Iterable[TestCase], responses: Iterable[Response], scores: Iterable[Score]
    ) -> Joined:
        """Join stored records; only the latest score per (response, metric, item) is kept."""
        return cls({c.id: c for c in cases}, {r.id: r for r in responses}, latest_scores(scores))

    def case(self, score: Score) -> TestCase | None:
        """The test case a score belongs to."""
        return self.cases.get(score.test_case_id)

    def of_metric(self, *metrics: str) -> list[Score]:
        """Scores of the given metrics, in stored order."""
        return [s for s in self.scores if s.metric in metrics]

    def field(self, score: Score, name: str) -> str:
        """One join field of a score row (see :data:`JOIN_FIELDS`)."""
        case = self.case(score)
        if name == "category":
            return category_of(case, score)
        if name == "generator":
            return (case.provenance.generator_model if case else None) or NO_GENERATOR
        if name == "variant":
            return (case.variant if case else None) or ""
        if name == "item":
            return score.item or ""
        return str(getattr(score, name))

    def add(self, derived: Sequence[Score]) -> None:
        """Append derived rows so later metrics can read them."""
        self.scores = latest_scores([*self.scores, *derived])


__all__ = ["DEFAULT_GROUP", "JOIN_FIELDS", "NO_GENERATOR", "Joined", "category_of", "latest_scores"]
