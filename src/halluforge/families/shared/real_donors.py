"""When a real answer may replace the gold one: the ``real_donors`` option of the answer swap and RECALL.

A real donor is any existing entity put in the gold answer's place: the entity table's, a
neighbour's, the dataset's, a member of the bundled lexicon, or a name the generator model
proposes (a proposal must be a known entity). Blind readers believed 3 of the 89 real swaps of
held-out sets 6-17, and no real person (docs/families/answer_swap.md): a real donor is known
to readers, and the passage describes the gold entity as itself (Cusco's temples, the kuna of
Croatia). Hence the default, ``unknown``: no real person (an invented name takes its place),
and no real donor for an answer the entity table knows; ``always`` keeps every path, ``never``
takes none. A date or a number is shifted, never a real donor: nothing is refused for it.

Under ``unknown`` the rule fallbacks (the entity table's, a neighbour's, the dataset's or the
lexicon's answer) take no real donor either, even for an answer the table does not know: over
the first readings of held-out sets 10-21 such fallback swaps were believed 3 times in 73
(Lyon "at the foot of Mont Blanc" for Chamonix, a rocket maker as Jensen Huang's chip
company), since nothing checks the passage's own facts about a place or a company. Only the
generator model's proposal, which reads the question, may still name a known entity there
(:func:`fallback_refusal`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import BeforeValidator

if TYPE_CHECKING:
    from halluforge.knowledge.table import EntityTable

#: when a real answer (entity table, neighbours, dataset, lexicon, a name the model proposes) may
#: replace the gold one: ``unknown`` only for no person and an answer the entity table does not
#: know, never a lexicon member (:func:`real_donor_refusal`)
RealDonors = Literal["always", "unknown", "never"]


def _real_donors(value: Any) -> Any:
    """``true``/``false`` in a config (the option was a switch before) mean ``always``/``never``."""
    if isinstance(value, bool):
        return "always" if value else "never"
    return value


#: the ``real_donors`` option of a family: one of :data:`RealDonors`, or a bool as above
RealDonorsOption = Annotated[RealDonors, BeforeValidator(_real_donors)]


def real_donor_refusal(
    mode: RealDonors, gold: list[str], kind: str, table: Callable[[], EntityTable | None], option: str
) -> str | None:
    """Why no real answer may replace ``gold`` of ``kind`` under ``mode``, or None when one may.

    ``table`` gives the entity table (None without it), asked only when the answer is to be
    looked up, so a mode or kind that needs no lookup never loads it. ``option`` is the config
    path the reason names (``families.answer_swap.real_donors``).
    """
    if kind in ("date", "number") or mode == "always":
        return None
    if mode == "never":
        return f"real donors are off ({option})"
    if kind.startswith("person"):
        return f"no real person replaces a person ({option}: unknown)"
    entities = table()
    known = [name for name in gold if entities is not None and entities.lookup(name)]
    if known:
        return f"the entity table knows {known[0]!r}: no real donor for a known answer ({option}: unknown)"
    return None


def fallback_refusal(mode: RealDonors, kind: str, option: str) -> str | None:
    """Why no rule fallback (table, neighbour, dataset, lexicon) may give a real answer of ``kind``, or None.

    Under ``unknown`` none may, for anything but a date or a number (module docstring);
    ``always`` lets every fallback run and ``never`` is refused before (:func:`real_donor_refusal`).
    """
    if mode != "unknown" or kind in ("date", "number"):
        return None
    return f"no real donor from the entity table, neighbours or pools ({option}: unknown)"


__all__ = ["RealDonors", "RealDonorsOption", "fallback_refusal", "real_donor_refusal"]
