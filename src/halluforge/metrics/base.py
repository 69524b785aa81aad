"""The scorer contract.

``ascore_batch`` (async) and ``score_batch`` take (test case, response) pairs and return
one :class:`ScoreValue` per pair.
Cheap scorers implement :meth:`Scorer.score` and inherit the loop; model-based scorers (NLI,
judge) override ``score_batch`` to batch. A scorer that needs a model receives it by role or
path in its constructor, never through a hidden download.
"""

from __future__ import annotations

import abc
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from halluforge.backends.base import Backend
from halluforge.records import Response, TestCase


@dataclass
class ScoreContext:
    """What a scorer may use: the judge model (by role), an NLI model path, its own options."""

    judge: Backend | None = None
    nli_model: str | None = None
    options: dict[str, Any] = field(default_factory=dict)
    seed: int = 0


@dataclass(frozen=True)
class ScoreValue:
    """One metric value; ``None`` means not computed, and ``details`` says why."""

    value: float | None
    details: dict[str, Any] = field(default_factory=dict)


class Scorer(abc.ABC):
    """Base class of every metric."""

    name: ClassVar[str]
    #: families this metric applies to; None means every family with expected answers
    families: ClassVar[tuple[str, ...] | None] = None

    def __init__(self, ctx: ScoreContext | None = None) -> None:
        self.ctx = ctx or ScoreContext()

    def applies_to(self, case: TestCase) -> bool:
        """Whether this metric is meaningful for the test case."""
        if self.families is not None:
            return case.family in self.families
        return bool(case.expected)

    def score(self, case: TestCase, response: Response) -> ScoreValue:
        """Score one response (override this or :meth:`score_batch`)."""
        raise NotImplementedError

    def score_batch(self, pairs: Sequence[tuple[TestCase, Response]]) -> list[ScoreValue]:
        """Score many responses; the default loops over :meth:`score`."""
        return [self.score(case, response) for case, response in pairs]

    async def ascore_batch(self, pairs: Sequence[tuple[TestCase, Response]]) -> list[ScoreValue]:
        """Async entry point used by the pipeline; judges that call a model override it."""
        return self.score_batch(pairs)


__all__ = ["ScoreContext", "ScoreValue", "Scorer"]
