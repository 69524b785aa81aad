"""Days a date is tied to by name: a public holiday or a weekday the date's sentence names.

A date a sentence ties to a named day can move only to another occurrence of that day. Blind
readers of sets 34 and 35 checked the calendar: "on Easter Sunday, 21 April 2019" moved to 14
April (Palm Sunday), "during Friday prayers on 15 March 2019" moved to Thursday 7 March, the
World Cup final "on Qatar National Day, 18 December 2022" moved to the 19th, and the attack
"on the Simchat Torah holiday, 7 October 2023" moved to 1 October. :mod:`.eras` already kept a
weekday written beside the date ("Friday 17 November"); this module reads the whole sentence.

- **Holidays** come from the ``holidays`` package (MIT), which knows each country's public
  holidays by year, with English names: a holiday that falls on the gold date in some country
  and whose name the passage holds, in any sentence ("Easter Sunday", "Simchat Torah", "The
  date was also Qatar's National Day"), ties the date to it; a new date must be the same
  holiday of one of those countries, in another year (:func:`tied_dates` offers those dates
  first, nearest years first).
- **Weekdays**: a weekday the date's sentence or the next names ("Friday prayers", "on a
  Sunday") that the gold date falls on ties its weekday; a new date must fall on it too (a
  week or two away first).

A date with no day (a year, a month) ties nothing; a holiday the package does not list
(Halloween is no public holiday) is not read.
"""

from __future__ import annotations

import calendar
import datetime
import functools
import json
import re
import warnings
from dataclasses import dataclass
from pathlib import Path

from halluforge.families.shared.date_conflicts import DATE, date_key
from halluforge.families.shared.numbers import NEAR_YEARS
from halluforge.families.shared.passage import sentence_of, spans_of
from halluforge.knowledge.table import write_cached

_WEEKDAYS = tuple(calendar.day_name)  # Monday first, as datetime.date.weekday() counts
#: the shortest holiday name read ("Eid", "Tet" are not written alone often enough to trust less)
_SHORTEST = 3
#: years tried, nearest first, for another occurrence of a holiday
_NEAR = (1, -1, 2, -2, 3, -3)
#: what the package adds to a name that a passage does not write
_NOTE = re.compile(r"\s*\((?:estimated|observed|in lieu)[^)]*\)|^(?:Day Before|Day After)\s.*$", re.I)


@dataclass(frozen=True)
class Tie:
    """What a date's sentence ties it to: a holiday of some countries, or a weekday (Monday 0)."""

    gold: datetime.date
    holiday: str | None = None
    countries: tuple[str, ...] = ()
    weekday: int | None = None


def full_date(text: str) -> datetime.date | None:
    """The full date in ``text`` ("21 April 2019", "April 21, 2019"), or None."""
    found = DATE.search(text)
    year, month, day = date_key(found) if found else (0, 0, 0)
    if not (year and month and day):
        return None
    try:
        return datetime.date(year, month, day)
    except ValueError:  # "31 February"
        return None


def full_date_refusal(gold: str, candidate: str) -> str | None:
    """Why ``candidate`` moves the full date ``gold`` too far, or None (either not a full date: None).

    A passage that gives a day names the people, offices and events of its time: "President
    François Hollande extended the state of emergency" after 14 July 2016, which both blind
    readers of set 45 refused as 14 July 2022 (a generator's proposal). A full date's year moves
    at most :data:`~.numbers.NEAR_YEARS`, as the first shifted draws do; those further went to
    plain years only.
    """
    old, new = full_date(gold), full_date(candidate)
    if old is None or new is None or abs(new.year - old.year) <= NEAR_YEARS:
        return None
    return f"{candidate!r} moves the full date {gold!r} by more than {NEAR_YEARS} years"


def _names(raw: str) -> list[str]:
    """The holiday names in one of the package's entries ("Bak Full Moon Poya Day; Good Friday")."""
    names = []
    for part in raw.split(";"):
        name = _NOTE.sub("", part).strip()
        if "/" in name:  # "Africa/Heroes Day": two names sharing a last word, or two spellings
            first, _, second = name.partition("/")
            last = second.split()[-1] if second.split() else ""
            name = second.strip()
            names.append(f"{first.strip()} {last}" if len(first.split()) == 1 else first.strip())
        words = name.split()
        # "Qatar National Day" is written "Qatar's National Day" too: the name past its first
        # word, when it is a name itself ("Declaration of Independence" gives no "of Independence")
        names.extend([name, " ".join(words[1:])] if len(words) > 2 and words[1][:1].isupper() else [name])
    return [
        n
        for n in dict.fromkeys(names)
        # "Day off (substituted from 12/28/2019)": a note, not a name
        if len(n) >= _SHORTEST and n not in _WEEKDAYS and n[:1].isupper() and not re.search(r"[\d()]", n)
    ]


#: the year whose holiday names stand for every year's in :func:`_may_name_holiday`
_NAMES_YEAR = 2020
#: bumped when :func:`_names` reads the package's entries differently (the cache file's name)
_NAMES_FORMAT = 2


@functools.lru_cache(maxsize=1024)
def _country_holidays(country: str, year: int) -> dict[datetime.date, tuple[str, ...]]:
    import holidays  # the core install has it; imported here, as only dates need it

    with warnings.catch_warnings():  # "available only from 2001 to 2035": what it has is enough
        warnings.simplefilter("ignore")
        listed = holidays.country_holidays(country, years=year, language="en_US", observed=False)
    return {day: tuple(_names(str(name))) for day, name in listed.items()}


@functools.lru_cache(maxsize=1)
def _countries() -> tuple[str, ...]:
    import holidays

    return tuple(code for code in holidays.list_supported_countries() if len(code) == 2)


def _names_path() -> Path:
    """The user-cache file of :func:`_holiday_names`, by the package's version."""
    from importlib.metadata import version

    from halluforge.knowledge.table import cache_folder

    return cache_folder() / f"holiday-names-v{_NAMES_FORMAT}-{version('holidays')}-{_NAMES_YEAR}.json"


@functools.lru_cache(maxsize=1)
def _holiday_names() -> tuple[str, ...]:
    """Every holiday name some country has in :data:`_NAMES_YEAR`, longest first.

    Listing every country's holidays of a year takes about 0.7 s, so the names are kept in the
    user cache beside the entity table (a few kB), per version of the package.
    """
    path = _names_path()
    try:
        return tuple(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError):
        pass  # not built yet, or unreadable: built below
    names = {
        name
        for country in _countries()
        for day in _country_holidays(country, _NAMES_YEAR).values()
        for name in day
    }
    ordered = sorted(names, key=lambda n: (-len(n), n))
    write_cached(path, ordered)
    return tuple(ordered)


@functools.lru_cache(maxsize=1)
def _holiday_words() -> re.Pattern[str]:
    """Any name of :func:`_holiday_names`, as one pattern.

    A passage naming none of them skips the per-year scan of every country's holidays in
    :func:`_holidays_on`. Names are by and large the same every year (a moving feast moves its
    date, not its name).
    """
    alternatives = "|".join(re.escape(n) for n in _holiday_names())
    return re.compile(rf"(?<!\w)(?:{alternatives})(?!\w)")


def _may_name_holiday(text: str) -> bool:
    return _holiday_words().search(text) is not None


@functools.lru_cache(maxsize=256)
def _holidays_on(day: datetime.date) -> tuple[tuple[str, str], ...]:
    """Every (country, holiday name) that falls on ``day``."""
    return tuple(
        (country, name)
        for country in _countries()
        for name in _country_holidays(country, day.year).get(day, ())
    )


def _named(name: str, sentence: str) -> bool:
    """Whether the sentence writes the holiday's name as a name ("a national day of mourning" is none)."""
    return re.search(rf"(?<!\w){re.escape(name)}(?!\w)", sentence) is not None


def _without(evidence: str, spans: tuple[tuple[int, int], ...], start: int, end: int) -> str:
    """``evidence[start:end]`` with the answer's spans blanked."""
    text = evidence[start:end]
    for s, e in spans:
        if start <= s and e <= end:
            text = text[: s - start] + " " * (e - s) + text[e - start :]
    return text


@functools.lru_cache(maxsize=512)
def _tie(evidence: str, gold: tuple[str, ...]) -> Tie | None:
    spans = spans_of(evidence, gold)
    whole = _without(evidence, spans, 0, len(evidence))
    for start, end in spans:
        day = full_date(evidence[start:end]) or full_date(gold[0])
        if day is None:
            continue
        # a holiday falling on the very date is tied to it wherever the passage names it ("The
        # date was also Qatar's National Day"); a weekday only in the date's sentence or the next
        found: dict[str, list[str]] = {}
        for country, name in _holidays_on(day) if _may_name_holiday(whole) else ():
            if _named(name, whole):
                found.setdefault(name, []).append(country)
        if found:  # the longest name the passage holds: "Easter Sunday" over "Easter"
            name = max(found, key=len)
            return Tie(day, holiday=name, countries=tuple(found[name]))
        s, e = sentence_of(evidence, start)
        e = sentence_of(evidence, e + 1)[1] if e + 1 < len(evidence) else e
        weekday = _WEEKDAYS[day.weekday()]
        if re.search(rf"\b{weekday}s?\b", _without(evidence, spans, s, e)):
            return Tie(day, weekday=day.weekday())
    return None


def date_tie(evidence: str, gold: list[str]) -> Tie | None:
    """What the sentence of a gold date ties it to (module docstring), or None."""
    return _tie(evidence, tuple(gold))


def _is_holiday(day: datetime.date, tie: Tie) -> bool:
    return any(tie.holiday in _country_holidays(c, day.year).get(day, ()) for c in tie.countries)


def tie_refusal(evidence: str, gold: list[str], new: str) -> str | None:
    """Why the date ``new`` breaks the holiday or weekday its sentence names, or None."""
    tie = date_tie(evidence, gold)
    day = full_date(new)
    if tie is None or day is None:
        return None
    if tie.holiday is not None and not _is_holiday(day, tie):
        written = f"{tie.gold.day} {tie.gold:%B %Y}"
        return f"the passage ties the date to {tie.holiday} ({written}), which {new!r} is not"
    if tie.weekday is not None and day.weekday() != tie.weekday:
        named = _WEEKDAYS[tie.weekday]
        new_day = _WEEKDAYS[day.weekday()]
        return f"the sentence names {named}, the gold date's weekday, and {new!r} is a {new_day}"
    return None


def redate(written: str, day: datetime.date) -> str | None:
    """``written`` ("21 April 2019", "April 21, 2019") with its day, month and year set to ``day``."""
    found = DATE.search(written)
    if found is None or not (found.group(1) or found.group(3)) or not found.group(4):
        return None
    parts = [(found.span(2), day.strftime("%B")), (found.span(4), str(day.year))]
    parts.append((found.span(1) if found.group(1) else found.span(3), str(day.day)))
    out = written
    for (start, end), text in sorted(parts, reverse=True):
        out = out[:start] + text + out[end:]
    return out


def tied_dates(evidence: str, gold: list[str], written: str) -> list[str]:
    """Dates that keep the tie, written as ``written`` (empty when nothing ties the date).

    The holiday in the nearest other years, or the same weekday one and two weeks away.
    """
    tie = date_tie(evidence, gold)
    if tie is None:
        return []
    days: list[datetime.date] = []
    if tie.holiday is not None:
        for step in _NEAR:
            year = tie.gold.year + step
            for country in tie.countries:
                listed = _country_holidays(country, year)
                match = sorted(d for d, names in listed.items() if tie.holiday in names)
                if match:
                    days.append(match[0])
                    break
    else:
        days = [tie.gold + datetime.timedelta(days=7 * w) for w in (-1, 1, -2, 2)]
    return [d for d in (redate(written, day) for day in days) if d is not None and d != written]


__all__ = [
    "Tie",
    "date_tie",
    "full_date",
    "full_date_refusal",
    "redate",
    "tie_refusal",
    "tied_dates",
]
