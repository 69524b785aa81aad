"""Dates a passage ties by its words to a cycle of years or to another day.

Two ties no entity table or calendar holds, read from the words around the date:

- **a cycle of years**: the Summer Olympics, the football World Cup and the other games the
  passage or the question names are held every four years, so a year of theirs moves by four
  (:func:`cycle_refusal`). Both blind readers of set 38 saw Tokyo host "the Summer Olympic
  Games" in 1962 ("the Games are held every four years"; the passage also named 1940);
- **another day**: a date its sentence calls an anniversary ("on the first anniversary of
  Napoleon's coronation") or the first or last day of something ("the first trading day of
  the year") keeps its day and month; only its year may move (:func:`day_tie_refusal`). Set 38's
  Austerlitz moved to 4 December and set 39's first trading day to 8 January, which every
  reader of those sets faulted.

A tie read here refuses a shifted date; the seed case still takes another shift that keeps
the tie, or is skipped with the reason.
"""

from __future__ import annotations

import re

from halluforge.families.shared.answer_types import ORDINAL_WORDS
from halluforge.families.shared.calendar_ties import full_date
from halluforge.families.shared.date_conflicts import DATE
from halluforge.families.shared.facts import YEAR
from halluforge.families.shared.passage import sentence_of, spans_of
from halluforge.textkit.sentences import sentence_spans

#: events held every four years, by name: "the Summer Olympic Games", "the 2014 World Cup"
_QUADRENNIAL = re.compile(
    r"\b(?:(?:summer|winter)\s+(?:olympics?|olympic\s+games|games|paralympics?)|olympics?|olympic\s+games|"
    r"paralympics?|paralympic\s+games|world\s+cup|commonwealth\s+games|asian\s+games|pan\s+american\s+games|"
    r"european\s+championships?|euros?\s+\d{4}|copa\s+am[eé]rica)\b",
    re.I,
)
#: how many years the events of :data:`_QUADRENNIAL` come apart
CYCLE = 4
#: words that tie a date to another day: "the first anniversary of", "the first trading day of the year"
_DAY_TIE = re.compile(
    r"\banniversary\b|\b(?:first|last|final|opening|closing)\s+(?:[a-z]+\s+){0,2}day\s+of\s+(?:the\s+)?"
    r"(?:year|month|week|season|session|term)\b|\bnew\s+year['’]s\s+(?:day|eve)\b",
    re.I,
)


#: an anniversary counted in years: "the 46th anniversary", "the first anniversary", "the centenary"
_COUNTED = re.compile(
    rf"\b(?:\d+(?:st|nd|rd|th)|{'|'.join(ORDINAL_WORDS)})\s+anniversary\b"
    r"|\b(?:centenary|centennial|bicentenary|bicentennial|tercentenary)\b",
    re.I,
)


def _year(text: str) -> int | None:
    found = YEAR.search(text)
    return int(found.group()) if found else None


def _gold_sentences(evidence: str, gold: list[str]) -> list[str]:
    """The sentences that hold the gold date, once each."""
    seen = dict.fromkeys(sentence_of(evidence, start) for start, _ in spans_of(evidence, tuple(gold)))
    return [evidence[start:end] for start, end in seen]


def cycle_refusal(question: str, evidence: str, gold: list[str], new: str) -> str | None:
    """Why ``new`` moves a four-yearly event's year by other than a multiple of four, or None.

    The event is named by the question or by a sentence that holds the gold date.
    """
    old_year, new_year = _year(gold[0]), _year(new)
    if old_year is None or new_year is None or (new_year - old_year) % CYCLE == 0:
        return None
    for text in (question, *_gold_sentences(evidence, gold)):
        event = _QUADRENNIAL.search(text)
        if event is not None:
            return (
                f"{event.group()!r} is held every {CYCLE} years: {new_year} is not {old_year} "
                f"plus a multiple of {CYCLE}"
            )
    return None


def day_tie_refusal(evidence: str, gold: list[str], new: str) -> str | None:
    """Why ``new`` moves the day of a date its sentence ties to another day, or None.

    The tie is read in a sentence that holds the gold date, or in one that gives no date of
    its own. Only a full date (day, month and year) is read: a year alone has no day to keep.
    An anniversary the sentence counts ("the day after the 46th anniversary of the founding of
    the Lao People's Democratic Republic") counts the years too: 3 December 2020 made it the
    45th, which both blind readers of set 77 saw, so the year stays as well.
    """
    old_day, new_day = full_date(gold[0]), full_date(new)
    if old_day is None or new_day is None or old_day == new_day:
        return None
    same_day = (old_day.month, old_day.day) == (new_day.month, new_day.day)
    held = {sentence.strip() for sentence in _gold_sentences(evidence, gold)}
    for start, end in sentence_spans(evidence):
        sentence = evidence[start:end]
        tie = _DAY_TIE.search(sentence)
        # in the date's sentence, or in one with no date of its own ("The battle took place on
        # the first anniversary of Napoleon's coronation"), the tie is the answer's
        if tie is None or not (sentence.strip() in held or DATE.search(sentence) is None):
            continue
        counted = _COUNTED.search(sentence)
        if counted is not None:
            return f"the passage counts the years to the date ({counted.group()!r}): it may not move"
        if not same_day:
            return f"the passage ties the date to another day ({tie.group()!r}): only its year may move"
    return None


__all__ = ["CYCLE", "cycle_refusal", "day_tie_refusal"]
