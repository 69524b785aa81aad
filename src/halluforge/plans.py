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
#: between a turn's kind and its item in a turn key (``"claim:c1"``)
ITEM_SEP = ":"


def turn_key(kind: str, item: str | None = None) -> str:
    """The key of a turn of ``kind`` about ``item``: ``"claim:c1"``, or ``"whole"`` without an item."""
    return f"{kind}{ITEM_SEP}{item}" if item else kind


def turn_kind(key: str) -> str:
    """The kind of a turn from its key (``"claim"`` for ``"claim:c1"``; ``""`` for the first turn)."""
    return key.partition(ITEM_SEP)[0]


def turn_item(key: str) -> str | None:
    """The item a turn asks about, from its key (``"c1"`` for ``"claim:c1"``), or None."""
    return key.partition(ITEM_SEP)[2] or None


@dataclass(frozen=True)
class Turn:
    """One request of an answer plan.

    ``key`` names the turn within the plan (``""`` for the first, answering turn; else
    :func:`turn_key` of its kind and item, e.g. ``"claim:c1"``); ``after`` is the key of the
    turn whose conversation this one continues (its messages and reply come first, unless
    ``fresh``); ``item`` is what the turn asks about (a claim id), so a per-item score can name it.
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


__all__ = ["ITEM_SEP", "REPLY_SLOT", "Plan", "Turn", "turn_item", "turn_key", "turn_kind"]
