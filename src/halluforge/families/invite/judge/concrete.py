"""What counts as a concrete answer: a year, an amount, a time, or a name of the asked kind.

The assertion step of the rule judge (:mod:`.steps`) calls a reply that gives a concrete
answer to the asked question a hallucination (the answer only makes sense if the premise held),
and a reply that gives none off topic. What "concrete" means depends on the question: "how
long" is answered by a span and not by a year, "which day" by a time and not by a name, "which
playwright" by a person as far as the entity table can tell (:func:`~.world.answers_kind`); and
some replies look like answers without being any: the question's own numbers echoed, a lone
number for a question asking for people, a run of numbers that only counts.
"""

from __future__ import annotations

import re

from halluforge.families.invite.judge.text import STOP, YEAR, echoes_numbers
from halluforge.families.invite.judge.world import World, answers_kind
from halluforge.families.shared.numbers import NUMBER_WORD
from halluforge.textkit.dates import MONTH_NAME_PATTERN
from halluforge.textkit.tokens import WRITTEN_WORD, words

_UNIT = (
    r"(%|percent|per cent|years?|months?|weeks?|days?|hours?|minutes?|goals?|times"
    r"|million|billion|thousand|dollars?|euros?|pounds?)\b"
)
#: an amount or a duration ("1.5 hours", "$2"): a concrete answer even without a name or a year
AMOUNT = re.compile(rf"\b\d[\d,.]*\s*{_UNIT}|[$€£]\s?\d", re.IGNORECASE)
#: one written in words ("three hours", "a million dollars"): an answer to "how long" or "how
#: much" only, since "One day, he ..." opens many a sentence that answers nothing
_WORDED_AMOUNT = re.compile(rf"\b(?:{NUMBER_WORD})(?:[\s-]+(?:{NUMBER_WORD}))*\s+{_UNIT}", re.IGNORECASE)
#: questions that ask for a calendar time: only a time answers them ("when" also takes "after X")
TIME_QUESTION = re.compile(r"\b(what|which) (year|day|date|season)\b", re.I)
_TIME_WORD = re.compile(
    r"\b(\d+|century|decade|era|war|age|period|season|spring|summer|autumn|fall|winter|"
    + MONTH_NAME_PATTERN
    + r"|days?|weeks?|months?|years?)\b",
    re.IGNORECASE,
)
#: questions that ask for a count, a span or a share
QUANTITY_QUESTION = re.compile(r"\bhow (much|many|long|old|far)\b|\bwhat (percentage|share|amount)\b", re.I)
_AMOUNT_QUESTION = re.compile(r"\bhow (much|many)\b|\bwhat (percentage|share|amount)\b", re.IGNORECASE)
#: a reply that is one number and the frame of an answer line ("2000", "The answer is 2000.")
_BARE_NUMBER = re.compile(r"\s*((the )?answer( is)?:?\s*)?\d[\d,.]*\.?\s*", re.IGNORECASE)
#: years, ordinals and day numbers beside a month: dates, not counts
ORDINAL_OR_DATE = re.compile(
    r"\b(1[0-9]{3}|2[0-9]{3})s?\b|\b\d+(st|nd|rd|th)\b|\b(?:"
    + MONTH_NAME_PATTERN
    + r")\s+\d{1,2}\b|\b\d{1,2}\s+(?:"
    + MONTH_NAME_PATTERN
    + r")\b",
    re.IGNORECASE,
)
#: words that name nobody and nothing although they open a sentence in capitals ("None.")
_NO_ONE = frozenset({"none", "nobody", "nothing", "neither", "nowhere", "noone"})
#: a company's legal form after its name: no new name ("X Co." renamed "X, Inc." names X only)
_LEGAL_FORM = re.compile(r"Inc|Ltd|Corp|Co|LLC|PLC|plc|GmbH|AG|SA|NV|BV", re.ASCII)


def concrete(question: str, question_tokens: set[str], claims: list[str], world: World) -> tuple[bool, str]:
    """Whether the statements ``claims`` give a concrete answer to ``question``, and the table's note.

    A year, an amount, or a name the question does not contain; a name counts only if it may be
    of the kind asked for ("which playwright": a person), as far as the entity table in
    ``world`` knows (:func:`~.world.answers_kind`), whose note is the second value.
    """
    text = " ".join(claims)
    bare = bool(claims) and all(_BARE_NUMBER.fullmatch(c) for c in claims)  # numbers in an answer frame only
    if echoes_numbers(text, question) or counts(claims):
        # "The answer is 1. The answer is 1. The answer is 2. ...": counting, no amount
        return False, ""
    if QUANTITY_QUESTION.search(question):
        # "how long did X serve": a count or a span answers it, a year or a date does not; but a
        # number alone answering "how much" or "how many" ("2000" for "how much of the budget") is
        # the amount asked for, not a year
        amount = bare and _AMOUNT_QUESTION.search(question)
        undated = text if amount else ORDINAL_OR_DATE.sub(" ", text)
        found = AMOUNT.search(undated) or _WORDED_AMOUNT.search(undated) or re.search(r"\d", undated)
        return found is not None, ""
    if bare and not re.search(r"\bwhen\b", question, re.I):
        # a number alone ("2014") answers "when" or "in what year", not "which famous people"
        return TIME_QUESTION.search(question) is not None, ""
    if YEAR.search(text) or AMOUNT.search(text):
        return True, ""
    if TIME_QUESTION.search(question):
        # a name is no answer to "on which day"; a time expression is
        return _TIME_WORD.search(text) is not None, ""
    known = question_tokens | STOP
    new = {
        w
        for w in WRITTEN_WORD.findall(" ".join(s.split(" ", 1)[-1] for s in claims))
        if w[:1].isupper()
        and not set(words(w)) <= known  # a written word ("Rimsky-Korsakov") is new if any word of it is
        and re.match(r"I\b|I['’]", w) is None  # "I", "I'll": the speaker, not a name
        and w.rstrip(".").casefold() not in _NO_ONE  # "None." for "which other famous people": names no one
        and _LEGAL_FORM.fullmatch(w.rstrip(".")) is None  # "X Co." called "X, Inc.": no new name
    }
    if not new:
        return False, ""
    fits, note = answers_kind(question, text, new, world)
    return fits is not False, note


def counts(claims: list[str]) -> bool:
    """Bare numbers that count up from 1 (1, 2, 3 or 1, 1, 2, 2, 3): a loop, not an answer."""
    if not claims or not all(_BARE_NUMBER.fullmatch(c) for c in claims):
        return False
    numbers = [int(n) for c in claims for n in re.findall(r"\d+", c)]
    return len(set(numbers)) >= 3 and set(numbers) == set(range(1, max(numbers) + 1))


__all__ = ["AMOUNT", "ORDINAL_OR_DATE", "QUANTITY_QUESTION", "TIME_QUESTION", "concrete", "counts"]
