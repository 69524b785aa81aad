"""Answer plans: the turns a target answers for one test case under one setting.

A setting renders the first turn (:func:`halluforge.settings.answer_turn`); a family may extend
the plan (:attr:`halluforge.family.Family.plan`) with later turns that continue the
conversation after the model's first reply (answer, then "does your answer satisfy this
claim?"). A later turn's prompt may quote that reply through :data:`REPLY_SLOT`. Turns are plain
data, so they can be shipped to another process.
"""

from __future__ import annotations

from dataclasses import dataclass

#: placeholder in a later turn's prompt that is replaced by the reply it continues
REPLY_SLOT = "{reply}"


@dataclass(frozen=True)
class Turn:
    """One request of an answer plan.

    ``key`` names the turn within the plan (``""`` for the first, answering turn; e.g.
    ``"claim:c1"``); ``after`` is the key of the turn whose conversation this one continues
    (its messages and reply come first, unless ``fresh``); ``item`` is what the turn asks about
    (a claim id), so a per-item score can name it.
    """

    prompt: str
    key: str = ""
    after: str | None = None
    item: str | None = None
    max_tokens: int | None = None
    #: True to start a new conversation: the turn quotes what it needs from the reply it
    #: follows (``after``) but the model does not see that conversation (ABCD asks each
    #: "True or False" claim on its own)
    fresh: bool = False


Plan = tuple[Turn, ...]


__all__ = ["REPLY_SLOT", "Plan", "Turn"]
