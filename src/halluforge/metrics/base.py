"""The scorer contract.

``ascore_batch`` (async) and ``score_batch`` take (test case, response) pairs and return
one :class:`ScoreValue` per pair.
Cheap scorers implement :meth:`Scorer.score` and inherit the loop; model-based scorers (NLI,
judge) override ``score_batch`` to batch. A scorer that needs a model receives it by role or
path in its constructor, never through a hidden download.
"""

from __future__ import annotations

import abc
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from halluforge.backends.base import Backend
from halluforge.errors import ConfigError
from halluforge.plans import ITEM_SEP, turn_kind
from halluforge.records import REASON_KEY, Response, TestCase


@dataclass
class ScoreContext:
    """What a scorer may use: the judge model (by role), an NLI model path, its own options."""

    judge: Backend | None = None
    nli_model: str | None = None
    options: dict[str, Any] = field(default_factory=dict)
    seed: int = 0


@dataclass(frozen=True)
class ScoreValue:
    """One metric value; ``None`` means not computed, and ``reason`` says why.

    ``item`` names what a per-item scorer scored (a claim id); by default it is the item of the
    turn it scored (:func:`halluforge.plans.turn_item`). ``details`` holds the scorer's own
    extra figures. A scorer written before these fields may still put ``"item"`` and
    ``"reason"`` in ``details``: they are read into the fields.
    """

    value: float | None
    details: dict[str, Any] = field(default_factory=dict)
    item: str | None = None
    reason: str | None = None

    def __post_init__(self) -> None:
        if "item" in self.details or REASON_KEY in self.details:
            details = dict(self.details)
            item, reason = details.pop("item", None), details.pop(REASON_KEY, None)
            object.__setattr__(self, "details", details)
            if self.item is None and item is not None:
                object.__setattr__(self, "item", str(item))
            if self.reason is None and reason is not None:
                object.__setattr__(self, "reason", str(reason))


class Scorer(abc.ABC):
    """Base class of every metric."""

    name: ClassVar[str]
    #: True when the scorer applies only to the families whose spec lists it (e.g. the premise
    #: judge); False when it applies to every case it can score (``applies_to``)
    owned: ClassVar[bool] = False
    higher_is_better: ClassVar[bool] = True
    #: the join fields its figures are broken down by when a section asks for them
    #: (:func:`halluforge.metrics.aggregate.breakdown`); summary rows are always by family,
    #: model, setting and metric, which is also the default
    group_by: ClassVar[tuple[str, ...]] = ("family", "model", "setting", "metric")
    #: True when it reads token log-probabilities (the answer stage then asks for them)
    needs_logprobs: ClassVar[bool] = False
    #: install extras this scorer cannot run without (checked by preflight, halluforge.requirements)
    extras: ClassVar[tuple[str, ...]] = ()
    #: which turns of an answer plan it scores: None for the first (answering) turn only, else
    #: the kind of the later turns (``"claim"`` scores every ``"claim:<id>"`` turn, one score per
    #: item; see :func:`halluforge.plans.turn_key`)
    turns: ClassVar[str | None] = None
    #: the keys it reads from ``score.options.<name>``; any other key is a config error
    option_names: ClassVar[tuple[str, ...]] = ()

    def __init__(self, ctx: ScoreContext | None = None) -> None:
        self.ctx = ctx or ScoreContext()

    @classmethod
    def check_config(cls, options: Mapping[str, Any], *, has_judge: bool) -> None:
        """Refuse options it does not read (and, in subclasses, option values it cannot use)."""
        unknown = sorted(set(options) - set(cls.option_names))
        if unknown:
            accepted = ", ".join(cls.option_names) or "no options"
            raise ConfigError(f"unknown option(s) {', '.join(unknown)}", hint=f"{cls.name} takes {accepted}")

    @classmethod
    def scores_turn(cls, turn: str) -> bool:
        """Whether it scores the response to the turn keyed ``turn`` (``""`` is the first turn)."""
        if cls.turns is None:
            return not turn
        # ``"claim:"``, the prefix form of scorers written before turn kinds, means "claim"
        return bool(turn) and turn_kind(turn) == cls.turns.removesuffix(ITEM_SEP)

    def applies_to(self, case: TestCase) -> bool:
        """Whether this metric is meaningful for the test case (by default: it has expected answers)."""
        return bool(case.expected) or self.owned

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
