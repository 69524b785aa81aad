"""Where the answer stands in a passage, and what the passage says outside it.

The restatement rules (:mod:`.restatements`) and the per-candidate conflict checks
(:mod:`.conflicts`) both read a passage around its answer: the answer's spans
(:func:`spans_of`), the text and numbers outside them (:func:`passage_outside`,
:func:`numbers_outside`, years on one time line with BC counting down), the sentence a span
sits in, and the forms the passage writes the answer in (:func:`written_forms`).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator, Sequence

from halluforge.families.shared.numbers import NUMBER, number_value
from halluforge.families.shared.spans import answer_spans
from halluforge.textkit.dates import MONTH_NAME_PATTERN
from halluforge.textkit.sentences import sentence_spans


@functools.lru_cache(maxsize=1024)
def spans_of(evidence: str, gold: tuple[str, ...]) -> tuple[tuple[int, int], ...]:
    """The gold answer's spans, computed once per passage: ``conflict`` runs for every candidate."""
    return tuple(answer_spans(evidence, gold))


@functools.lru_cache(maxsize=1024)
def _sentences(text: str) -> tuple[tuple[int, int], ...]:
    """Offsets of the passage's sentences (the kit's splitter), computed once per passage."""
    return tuple(sentence_spans(text))


def outside(spans: Sequence[tuple[int, int]], start: int, end: int) -> bool:
    """Whether ``start:end`` overlaps none of ``spans`` (the answer's occurrences)."""
    return all(end <= s or start >= e for s, e in spans)


#: an era after a number ("356 BC", "14 CE") or before it ("AD 79") makes the number a year
_ERA_AFTER = re.compile(r"\s*(?:BCE?|CE|AD)\b")
_ERA_BEFORE = re.compile(r"\bAD\s*$")
_BC_AFTER = re.compile(r"\s*BCE?\b")


def is_year(match: re.Match[str]) -> bool:
    """A year: four digits from 1000 to 2100, or any number with its era ("356 BC", "AD 79")."""
    text = match.group()
    if not text.isdigit():
        return False
    if _ERA_AFTER.match(match.string, match.end()) or _ERA_BEFORE.search(match.string, 0, match.start()):
        return True
    return len(text) == 4 and 1000 <= int(text) <= 2100


_MONTH_AFTER = re.compile(rf"\s*(?:{MONTH_NAME_PATTERN})\b")
_MONTH_BEFORE = re.compile(rf"\b(?:{MONTH_NAME_PATTERN})\s*$")


def is_day(match: re.Match[str]) -> bool:
    """The day of a date: a number next to a month name ("10 July 2020", "July 10, 2020")."""
    return bool(
        _MONTH_AFTER.match(match.string, match.end()) or _MONTH_BEFORE.search(match.string, 0, match.start())
    )


def year_value(match: re.Match[str], value: float) -> float:
    """A year on one time line: years BC count down from zero ("356 BC" is -356)."""
    return -value if _BC_AFTER.match(match.string, match.end()) else value


def numbers_outside(
    text: str, spans: Sequence[tuple[int, int]], *, years: bool = False
) -> Iterator[tuple[float, re.Match[str]]]:
    """Numbers of ``text`` outside the answer spans, with their values (years left out unless ``years``)."""
    for match in NUMBER.finditer(text):
        value = number_value(match.group())
        if value is not None and (years or not is_year(match)) and outside(spans, match.start(), match.end()):
            yield value, match


def sentence_of(text: str, start: int) -> tuple[int, int]:
    """The offsets of the sentence that holds character ``start`` (the whole text if none does)."""
    for begin, end in _sentences(text):
        if begin <= start < end:
            return begin, end
    return 0, len(text)


def written_forms(evidence: str, gold: Sequence[str]) -> tuple[str, ...]:
    """How the passage writes the gold answer: the text of each occurrence, in order.

    Span replacement puts the wrong answer, or its year alone, in every occurrence, so a wrong
    date must have the form of each ("7 November 1917" wants a day, a month and a year, not the
    gold "November 1917"); a passage that writes the date in full and its year alone ("on 7
    November 1917 ... in 1917") gets the new date and the new year
    (:func:`.spans.planned_replacements`), never "in 7 November 1915".
    """
    return tuple(evidence[start:end] for start, end in spans_of(evidence, tuple(gold)))


def outside_text(text: str, spans: Sequence[tuple[int, int]], start: int, end: int) -> str:
    """``text[start:end]`` with the answer spans blanked out (a name in the answer is no restatement)."""
    chars = list(text[start:end])
    for s, e in spans:
        for i in range(max(s, start), min(e, end)):
            chars[i - start] = " "
    return "".join(chars)


@functools.lru_cache(maxsize=1024)
def passage_outside(evidence: str, spans: tuple[tuple[int, int], ...]) -> str:
    """The whole passage with the answer blanked out, once per passage (conflicts run per candidate)."""
    return outside_text(evidence, spans, 0, len(evidence))


__all__ = [
    "is_year",
    "numbers_outside",
    "outside",
    "outside_text",
    "passage_outside",
    "sentence_of",
    "spans_of",
    "written_forms",
    "year_value",
]
