"""Joined rows: a run's test cases, responses and latest scores, and the fields rows group by.

Scorers give one value per (test case, response); everything that reads more than one value
(derived metrics, summaries, report sections) reads :class:`Joined` rows. A score row is
grouped by named *join fields* (:meth:`Joined.field`):

- its own ``family``, ``model``, ``setting``, ``metric`` and ``item``;
- its test case's ``category`` (recorded category or variant, else the family), ``generator``
  (the model that forged it), ``attack`` (``self`` when that model is the row's model,
  ``cross`` when another, ``none`` for a ready-made case), ``variant`` and ``position`` (the
  third of the evidence that holds the answer);
- any field of the case's family metadata model (RECALL's ``domain`` and ``repeat``).

A metric's ``group_by`` names the join fields its figures are broken down by
(:func:`halluforge.metrics.aggregate.breakdown`).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass, field

from halluforge.family import CaseMetadata, known_family, metadata_of
from halluforge.records import Response, Score, TestCase

#: the fields of the score row itself
SCORE_FIELDS = ("family", "model", "setting", "metric", "item")
#: the join fields every row has; a family metadata field is one too
JOIN_FIELDS = (*SCORE_FIELDS, "category", "generator", "attack", "variant", "position")
#: the summary's grouping: one row per family, model, setting and metric
DEFAULT_GROUP = ("family", "model", "setting", "metric")
#: the ``generator`` of a ready-made test case (no model forged it)
NO_GENERATOR = "(no generator)"
#: thirds of the evidence, for the ``position`` field
POSITIONS = ("first", "middle", "last")
_POSITION_ALIASES = {"start": "first", "begin": "first", "mid": "middle", "end": "last"}


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


def answer_third(raw: object) -> str | None:
    """The third of the evidence an ``answer_position`` names: "first", "middle", "last", or None.

    ``raw`` is one of those words (or start/begin, mid, end), or a relative offset in [0, 1].
    """
    if isinstance(raw, str):
        word = _POSITION_ALIASES.get(raw.strip().lower(), raw.strip().lower())
        return word if word in POSITIONS else None
    if isinstance(raw, int | float) and not isinstance(raw, bool) and 0 <= raw <= 1:
        return POSITIONS[min(2, int(raw * 3))]
    return None


def attack_of(generator: str, model: str) -> str:
    """``self`` when ``model`` forged the case, ``cross`` when another did, ``none`` for a ready-made case."""
    return "none" if generator == NO_GENERATOR else ("self" if generator == model else "cross")


def score_key(by: Sequence[str]) -> Callable[[Score], tuple[Hashable, ...]]:
    """The grouping key of fields of the score row itself (:data:`SCORE_FIELDS`), no join needed."""
    unknown = [name for name in by if name not in SCORE_FIELDS]
    if unknown:
        raise ValueError(f"not a field of the score row: {unknown} (join the rows to group by them)")
    fields = tuple(by)
    return lambda s: tuple((s.item or "") if name == "item" else str(getattr(s, name)) for name in fields)


@dataclass
class Joined:
    """Test cases, responses and the latest scores of a run, joined by id."""

    cases: dict[str, TestCase]
    responses: dict[str, Response] = field(default_factory=dict)
    scores: list[Score] = field(default_factory=list)
    _metadata: dict[str, CaseMetadata] = field(default_factory=dict, init=False, repr=False, compare=False)

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

    def metadata(self, case: TestCase) -> CaseMetadata:
        """The case's metadata as its family's model (:func:`~halluforge.family.metadata_of`), read once."""
        found = self._metadata.get(case.id)
        if found is None:
            found = self._metadata[case.id] = metadata_of(case)
        return found

    def field(self, score: Score, name: str) -> Hashable:
        """One join field of a score row (see the module docstring); ``""`` where it has none.

        The fields of the row and of its case are strings; a metadata field keeps its type
        (RECALL's ``repeat`` is a number).
        """
        if name in SCORE_FIELDS:
            return (score.item or "") if name == "item" else str(getattr(score, name))
        case = self.case(score)
        if name == "category":
            return category_of(case, score)
        if name == "generator":
            return (case.provenance.generator_model if case else None) or NO_GENERATOR
        if name == "attack":
            return attack_of(str(self.field(score, "generator")), score.model)
        if name == "variant":
            return (case.variant if case else None) or ""
        if name == "position":
            return (answer_third(self.metadata(case).answer_position) if case else None) or ""
        return self._metadata_field(case, score.family, name)

    def _metadata_field(self, case: TestCase | None, family: str, name: str) -> Hashable:
        if case is not None:
            meta = self.metadata(case)
        else:  # a score whose case is gone: the family model's defaults
            spec = known_family(family)
            meta = (spec.metadata if spec is not None else CaseMetadata).model_construct()
        declared = name in type(meta).model_fields
        value = getattr(meta, name) if declared else (meta.model_extra or {}).get(name)
        if value is None:
            return ""
        return tuple(value) if isinstance(value, list) else value

    def key(self, by: Sequence[str]) -> Callable[[Score], tuple[Hashable, ...]]:
        """The grouping key of the join fields ``by``."""
        fields = tuple(by)
        return lambda s: tuple(self.field(s, name) for name in fields)

    def add(self, derived: Sequence[Score]) -> None:
        """Append derived rows so later metrics can read them."""
        self.scores = latest_scores([*self.scores, *derived])


__all__ = [
    "DEFAULT_GROUP",
    "JOIN_FIELDS",
    "NO_GENERATOR",
    "POSITIONS",
    "SCORE_FIELDS",
    "Joined",
    "answer_third",
    "attack_of",
    "category_of",
    "latest_scores",
    "score_key",
]
