"""What the premise judge reads and what it returns, shared by every mode."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class PremiseInput:
    """What the judge looks at for one response."""

    question: str
    response: str
    reference: str = ""
    entities: tuple[str, ...] = ()
    #: impossible date parts when known (a date edit's new text); else read from the question
    invalid: tuple[str, ...] = ()
    #: answers to the *valid* question when known (a date case's original answers): lets the
    #: judge tell a true answer to the valid part from a false one (see :func:`.steps.assertion`)
    valid_answers: tuple[str, ...] = ()


@dataclass(frozen=True)
class Judgement:
    """The combined label, each mode's label and notes (reasons, 'not computed' messages)."""

    label: int | None
    per_mode: dict[str, int | None]
    notes: dict[str, Any] = field(default_factory=dict)
