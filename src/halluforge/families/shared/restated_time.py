"""Restatements of time: a date the passage derives from another, and a count of days two dates give.

Part of :func:`.restatements.restatement`: a date given as an offset of another ("in 1894. Two
years later"), a year given by another year and a span of years ("crowned in 1837 ... a reign
of 63 years"), and a count of days two full dates of the passage are apart ("lasted 43 days ...
from 1 October to 12 November"). A swapped answer would break the sum, and no wrong answer
fixes it, so the seed case is skipped with the reason these return.
"""

from __future__ import annotations

import datetime
import itertools
import re
from collections.abc import Iterable, Sequence

from halluforge.families.shared.date_conflicts import DATE, date_key
from halluforge.families.shared.numbers import NUMBER_WORD, number_value
from halluforge.families.shared.passage import outside, passage_outside, sentence_of

#: a date given as an offset of another ("Two years later", "three and a half years after", "the
#: following year")
_RELATIVE = re.compile(
    rf"\b(?:(?P<count>{NUMBER_WORD}|\d+)(?P<half>\s+and\s+a\s+half)?\s+(?P<unit>years?|decades?|centur(?:y|ies))\s+"
    r"(?:later|after|earlier|before)"
    r"|the\s+(?:following|next|previous)\s+year)\b",
    re.I,
)
#: years in a unit of an offset ("two decades later": 20)
_UNIT_YEARS = {"y": 1, "d": 10, "c": 100}
_YEARS = re.compile(r"\b(1[0-9]{3}|20[0-9]{2})\b")
#: a span of time in years that another date may be counted from ("a reign of 63 years", "for 40 years")
_DURATION = re.compile(
    rf"\b((?:{NUMBER_WORD}|\d+)(?:[\s-]+(?:{NUMBER_WORD}))*)[\s-]+years?\b(?!\s+(?:later|after|earlier|before|old)\b)",
    re.I,
)

#: a count of days: "lasted 43 days", "a 35-day shutdown"
_DAYS_AFTER = re.compile(r"^[\s-]+days?\b", re.I)
_DAYS_END = re.compile(r"\bdays?$", re.I)


def days_between(evidence: str, gold: float, spans: Sequence[tuple[int, int]]) -> str | None:
    """A count of days two full dates of the passage are apart ("43 days ... 1 October to 12 November").

    A date without its year takes the year of the date before it. The count may include both
    ends, so one day more than the difference counts too.
    """
    of_days = (
        _DAYS_AFTER.match(evidence[end:]) or _DAYS_END.search(evidence[start:end]) for start, end in spans
    )
    if not any(of_days):
        return None
    dates: list[tuple[datetime.date, str]] = []
    last_year = 0
    for match in DATE.finditer(evidence):
        year, month, day = date_key(match)
        last_year = year = year or last_year
        if outside(spans, *match.span()) and year and month and day:
            try:
                dates.append((datetime.date(year, month, day), match.group()))
            except ValueError:  # "31 February": nothing to count from
                continue
    for (a, first), (b, second) in itertools.combinations(dates, 2):
        if abs((b - a).days) in (gold, gold - 1):
            return f"the passage derives the answer from {first!r} to {second!r}"
    return None


def derived_date(evidence: str, gold: str, spans: Sequence[tuple[int, int]]) -> str | None:
    """A year given by another year and a span of years ("crowned in 1837 ... a reign of 63 years").

    A wrong year would break the sum; one year of slack covers the months a span leaves out
    ("63 years and seven months").
    """
    years = [int(y) for y in _YEARS.findall(gold)]
    if not years:
        return None
    blanked = passage_outside(evidence, tuple(spans))
    for duration in _DURATION.finditer(blanked):
        length = number_value(duration.group(1))
        if not length or length >= 1000:
            continue
        other = _year_at(_YEARS.finditer(blanked), length, years[0])
        if other is not None:
            return f"the passage gives the date by {other!r} and {duration.group().strip()!r}"
    return None


def _year_at(others: Iterable[re.Match[str]], offset: float, year: int) -> str | None:
    """The first of ``others`` that lies ``offset`` years before or after ``year``, within a year."""
    for other in others:
        if any(abs(int(other.group()) + sign * offset - year) <= 1 for sign in (1, -1)):
            return other.group()
    return None


def relative_date(evidence: str, gold: str, spans: Sequence[tuple[int, int]]) -> str | None:
    """A passage that dates the answer as an offset of another year ("in 1894. Two years later ... 1896").

    The offset must link the answer's year to a year the passage states (within a year: "three
    and a half years after the June 2016 vote" for 2020); an offset between two other events
    ("annexed in 1898, five years after the overthrow") leaves the answer free.
    """
    years = [int(y) for y in _YEARS.findall(gold)]
    if not years:
        return None
    others = [m for m in _YEARS.finditer(evidence) if outside(spans, *m.span())]
    for relative in _RELATIVE.finditer(evidence):
        count = number_value(relative.group("count")) if relative.group("count") else 1.0
        if count is None:
            continue
        unit = (relative.group("unit") or "y")[0].lower()
        offset = (count + (0.5 if relative.group("half") else 0)) * _UNIT_YEARS[unit]
        other = _year_at(others, offset, years[0])
        if other is not None:
            return f"the passage dates the answer from {other!r} ({relative.group()!r})"
    return None


#: an anniversary the passage counts: "the 50th anniversary of", "the centenary of"
_ANNIVERSARY = re.compile(
    r"\b(?:(\d+)(?:st|nd|rd|th)\s+anniversary|(centenary|centennial|bicentenary|bicentennial))\b", re.I
)
_CENTURIES = {"centenary": 100, "centennial": 100, "bicentenary": 200, "bicentennial": 200}


def anniversary(evidence: str, gold: str, spans: Sequence[tuple[int, int]]) -> str | None:
    """A date the passage gives as an anniversary of another, of the anniversary's sentence.

    "the 50th anniversary of the 23 August 1939 pact": set 54's Baltic Way moved to 9 August
    1989 beside it, which both blind readers refused (in-sample).
    """
    old = DATE.search(gold)
    if old is None:
        return None
    year, month, day = date_key(old)
    for cue in _ANNIVERSARY.finditer(evidence):
        count = int(cue.group(1)) if cue.group(1) else _CENTURIES[cue.group(2).lower()]
        for match in DATE.finditer(evidence, *sentence_of(evidence, cue.start())):
            other = date_key(match)
            if not outside(spans, *match.span()) or other[0] + count != year:
                continue
            if (month and other[1] and other[1] != month) or (day and other[2] and other[2] != day):
                continue
            return f"the passage gives the answer as the {cue.group()!r} of {match.group()!r}"
    return None


def two_calendars(evidence: str, spans: Sequence[tuple[int, int]]) -> str | None:
    """Two occurrences of the answer that are different full dates: one day in two calendars.

    "signed on 26 February 1658 in the Julian calendar, which corresponds to 8 March 1658 in the
    Gregorian" (set 84, hard to both blind readers; in-sample): both are aliases of the answer,
    so the swap wrote one new date for both, and no single date fits two calendars.
    """
    full = set()
    for start, end in spans:
        match = DATE.fullmatch(evidence, start, end)
        key = date_key(match) if match else None
        if key is not None and all(key):
            full.add(key)
    if len(full) > 1:
        return "the passage gives the answer in two calendars (two full dates)"
    return None


def year_number(evidence: str, gold: float, spans: Sequence[tuple[int, int]]) -> str | None:
    """A number the passage also writes as a year.

    "a main span of 2,023 metres, chosen to mark the republic's centenary in 2023" (set 55, both
    blind readers, in-sample).
    """
    if not (1000 <= gold <= 2100 and gold == int(gold)):
        return None
    for match in _YEARS.finditer(evidence):
        if outside(spans, *match.span()) and int(match.group()) == gold:
            return f"the passage writes the answer as the year {match.group()!r}"
    return None


__all__ = ["anniversary", "days_between", "derived_date", "relative_date", "two_calendars", "year_number"]
