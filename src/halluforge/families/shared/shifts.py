"""Shifting a date or a number a little, as the passage writes it, until a check accepts it.

The answer swap's and RECALL's rule fallback for dates and numbers (ReEval's "plausible wrong
answer of the same type"): a small move keeps the passage's other dates and figures true around
the new value. One loop for both families, so both write a date in its fullest form, move the
year of a date whose year alone is a gold alias, and say why every shift was refused.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import cast

from halluforge.families.shared.answer_types import AnswerType
from halluforge.families.shared.calendar_ties import tied_dates
from halluforge.families.shared.numbers import NEAR_YEARS, number_value, spell_number
from halluforge.families.shared.passage import written_forms
from halluforge.families.shared.validate import (
    YEAR_SHIFT,
    YEAR_SPREAD,
    perturb_answer,
    perturbable,
    shift_year,
)

#: shifted dates or numbers tried before giving up on the perturb fallback
PERTURB_DRAWS = 16


def shift_answer(
    gold: list[str],
    kind: str,
    evidence: str,
    accept: Callable[[str], str | None],
    rng: random.Random,
) -> tuple[str | None, str]:
    """A shifted ``kind`` ("date" or "number") that ``accept`` passes (None: why), or None and why not.

    A date is shifted as the passage writes it, in its fullest form ("7 November 1917", not the
    alias "November 1917"); one its sentence ties to a holiday or a weekday tries that day's
    other occurrences first (:func:`.calendar_ties.tied_dates`); a year by at most
    :data:`NEAR_YEARS` in the first half of the draws; a year the passage writes alone takes the new year
    (:func:`.spans.planned_replacements`); a date whose shift ``accept`` refuses (its year alone
    is a gold alias, "9 November 1989" against "1989") moves its year instead. A number in words
    the shift cannot write ("eighteen") is shifted as digits, then spelled. The reason names how
    many shifts were refused and why (the first and the last).
    """
    forms = written_forms(evidence, gold) if kind == "date" else ()
    base = max(forms, key=lambda f: len(f.split())) if forms else gold[0]
    value = None if kind == "date" or perturbable(base) else number_value(base)
    digits = str(int(value)) if value is not None and value.is_integer() else None
    refusals: list[str] = []
    # a date its sentence ties to a holiday or a weekday ("on Easter Sunday") moves to another
    # occurrence of it, which the random draws below would rarely hit
    for tied in tied_dates(evidence, gold, base) if kind == "date" else []:
        refused = accept(tied)
        if refused is None:
            return tied, ""
        refusals.append(refused)
    for draw in range(PERTURB_DRAWS):
        years = NEAR_YEARS if draw < PERTURB_DRAWS // 2 else YEAR_SPREAD
        perturbed = perturb_answer(digits or base, cast(AnswerType, kind), rng, years=years)
        if digits is not None and perturbed is not None:
            perturbed = spell_number(int(perturbed))
        refused = accept(perturbed) if perturbed is not None else f"{base!r} cannot be shifted"
        if refused is not None and kind == "date" and perturbed is not None:
            perturbed = shift_year(base, rng, max_shift=min(years, YEAR_SHIFT))
            refused = accept(perturbed) if perturbed is not None else f"{base!r} has no year"
        if refused is None and perturbed is not None:
            return perturbed, ""
        refusals.append(refused or "")
    return None, f"{len(refusals)} shifted {kind}s refused, e.g. {refusals[0]}; last: {refusals[-1]}"


__all__ = ["PERTURB_DRAWS", "shift_answer"]
