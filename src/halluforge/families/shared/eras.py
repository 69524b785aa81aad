"""Years a date must keep: spans the entity table gives what a passage names, and the question's year.

A shifted date can stay close to the gold one and still be one no reader believes, because
the rest of the passage ties it to an era: the Soviet Union dissolving in 1983 "when
Mikhail Gorbachev resigned as Soviet president", India independent in 1942 "with Jawaharlal
Nehru its first prime minister", the "2023 earthquake" dated January 2024. The entity table's
descriptions give many entities a span of years: a life ("English poet (1792–1822)"), a term
of office ("Leader of the Soviet Union from 1985 to 1991"), a state or a war ("Global
conflict from 1914 to 1918"). :func:`named_spans` finds the entities the passage names by
exact title (never by a loose partial name, as every table lookup) and :func:`era_refusal`
holds a new date to each span:

- a span that holds the gold year must hold the new year too (Gorbachev's term holds 1991,
  not 1983);
- a span that starts or ends in the gold year pins the year: the entity began or ended with
  the event ("Country in Eurasia from 1922 to 1991" for "The Soviet Union ceased to exist on
  26 December 1991"; Nehru's term from 1947 for India's independence), and the table states
  it, so no other year is believable. An entity the passage names only in passing rarely
  starts or ends in the very year of the answer; when it does, the seed case is skipped,
  never given a date that contradicts it;
- a year the question names that the gold date has ("the 2023 earthquake") stays
  (:func:`question_year_refusal`, no table needed);
- a past event is not moved into a year still to come (:func:`future_refusal`), and a weekday
  the passage writes before or just after the date stays true (:func:`weekday_refusal`: "on
  Friday 17 November" cannot become a Thursday, nor "24 April 1916, Easter Monday" a Friday),
  nor a holiday or weekday its sentence names (:mod:`.calendar_ties`: "on Easter Sunday",
  "during Friday prayers"), nor a four-yearly event's cycle or a day the sentence ties the
  date to (:mod:`.cycles`: no Summer Olympics in 1962, no "first anniversary" moved a day).

Spans are read from the description alone; a description without one gives no check, and a
passage that names nothing the table knows gives none either (the date checks of
:mod:`.conflicts` still run).
"""

from __future__ import annotations

import calendar
import datetime
import functools
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from halluforge.families.shared.calendar_ties import full_date, tie_refusal
from halluforge.families.shared.cycles import cycle_refusal, day_tie_refusal
from halluforge.families.shared.facts import YEAR
from halluforge.families.shared.passage import outside, spans_of

if TYPE_CHECKING:
    from halluforge.knowledge.table import Entity, EntityTable

_Y = r"(1[0-9]{3}|20[0-9]{2})"
#: a span in a description: "from 1985 to 1991", "(1939–1945)", "1947–1991 geopolitical rivalry"
_SPAN = re.compile(rf"\bfrom {_Y} to {_Y}\b|\({_Y}\s*[–-]\s*{_Y}\)|^{_Y}\s*[–-]\s*{_Y}\b")
#: a name as a passage writes it: capitalised words, with the small words names keep inside
_NAME = re.compile(
    r"[A-Z][\w'’.-]*(?:\s+(?:(?:of|the|de|da|del|der|di|du|la|le|van|von|bin|al)\s+)*[A-Z][\w'’.-]*)*"
)
#: the longest span a description may give before it is read as something else
_LONGEST = 150
#: the most words of a name tried as one title
_MAX_WORDS = 5


@dataclass(frozen=True)
class NamedSpan:
    """An entity the passage names and the years its description gives."""

    title: str
    start: int
    end: int


def entity_span(entity: Entity) -> tuple[int, int] | None:
    """The span of years an entity's description gives (a life, a term, a state, a war), or None."""
    if entity.born is not None and entity.died is not None:
        first, last = entity.born, entity.died
    else:
        match = _SPAN.search(entity.description)
        if match is None:
            return None
        first, last = (int(y) for y in match.groups() if y is not None)
    return (first, last) if 0 <= last - first <= _LONGEST else None


def _mentions(evidence: str, spans: tuple[tuple[int, int], ...]) -> list[str]:
    """Every run of capitalised words outside the answer, and each shorter run inside it."""
    found = []
    for match in _NAME.finditer(evidence):
        if not outside(spans, match.start(), match.end()):
            continue
        words = [(w.group(), match.start() + w.start()) for w in re.finditer(r"\S+", match.group())]
        for i in range(len(words)):
            if not words[i][0][:1].isupper():  # a name starts with a capital, not with "of"
                continue
            for j in range(i + 1, min(len(words), i + _MAX_WORDS) + 1):
                name = evidence[words[i][1] : words[j - 1][1] + len(words[j - 1][0])].rstrip(".,'’")
                found.append(name)
    return found


def named_spans(evidence: str, gold: tuple[str, ...], table: EntityTable) -> tuple[NamedSpan, ...]:
    """The entities the passage names, outside the answer, that the table gives a span of years.

    A one-word mention counts only when it is an entity's whole title ("Napoleon"), not an
    alias: a single word is too often a homonym.
    """
    return _named_spans(evidence, gold, _TableRef(table))


class _TableRef:
    """A table that hashes by identity, so the passage's spans are cached per table.

    The cache holds the reference, so a cached table is never freed and its id never reused.
    """

    def __init__(self, table: EntityTable) -> None:
        self.table = table

    def __hash__(self) -> int:
        return id(self.table)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _TableRef) and other.table is self.table


@functools.lru_cache(maxsize=512)
def _named_spans(evidence: str, gold: tuple[str, ...], ref: _TableRef) -> tuple[NamedSpan, ...]:
    spans = spans_of(evidence, gold)
    found: dict[str, NamedSpan] = {}
    for name in _mentions(evidence, spans):
        if name in found:
            continue
        for entity in ref.table.lookup(name):
            if " " not in name and entity.title != name:
                continue
            years = entity_span(entity)
            if years is not None:
                found[name] = NamedSpan(entity.title, years[0], years[1])
                break
    return tuple(found.values())


def _year(text: str) -> int | None:
    match = YEAR.search(text)
    return int(match.group(1)) if match else None


def era_refusal(evidence: str, gold: list[str], new: str, table: EntityTable) -> str | None:
    """Why the date ``new`` breaks a span of an entity the passage names (module docstring), or None."""
    old_year, new_year = _year(gold[0]), _year(new)
    if old_year is None or new_year is None or old_year == new_year:
        return None
    for named in named_spans(evidence, tuple(gold), table):
        if not named.start <= old_year <= named.end:
            continue
        if old_year in (named.start, named.end):
            return (
                f"the entity table dates {named.title!r} {named.start}–{named.end}: "
                f"it pins the gold year {old_year}"
            )
        if not named.start <= new_year <= named.end:
            return (
                f"{new!r} falls outside {named.title!r} ({named.start}–{named.end} in the entity table), "
                f"which the gold year {old_year} lies in"
            )
    return None


def date_refusal(
    question: str, gold: list[str], new: str, evidence: str, table: EntityTable | None
) -> str | None:
    """Why the date ``new`` breaks the question's year or a span the table gives (None: it keeps both).

    Without the entity table only the question's year is checked.
    """
    return (
        question_year_refusal(question, gold, new)
        or future_refusal(gold, new)
        or weekday_refusal(evidence, gold, new)
        or tie_refusal(evidence, gold, new)
        or cycle_refusal(question, evidence, gold, new)
        or day_tie_refusal(evidence, gold, new)
        or (era_refusal(evidence, gold, new, table) if table is not None else None)
    )


def future_refusal(gold: list[str], new: str, *, this_year: int | None = None) -> str | None:
    """Why ``new`` puts a past event in a year still to come ("fired in November 2033"), or None.

    A shift of a recent date can cross today; a gold date already in the future (a plan, a
    forecast) may move anywhere.
    """
    this_year = this_year or datetime.date.today().year
    old_year, new_year = _year(gold[0]), _year(new)
    if old_year is None or new_year is None or old_year > this_year or new_year <= this_year:
        return None
    return f"{new!r} is after this year ({this_year}), and the gold date {gold[0]!r} is not"


_WEEKDAYS = tuple(calendar.day_name)  # Monday first, as datetime.date.weekday() counts
_WEEKDAY_BEFORE = re.compile(rf"\b({'|'.join(_WEEKDAYS)}),?\s+(?:the\s+)?$")
#: a weekday in apposition after the date: "on 24 April 1916, Easter Monday", "(a Sunday)"
_WEEKDAY_AFTER = re.compile(rf"^,?\s*\(?(?:a\s+|an\s+|the\s+)?(?:[A-Z][a-z]+\s+)?({'|'.join(_WEEKDAYS)})\b")


#: a weekday the passage names: "Black Saturday", "the Good Friday earthquake", "on Sunday"
_WEEKDAY_NAMED = re.compile(rf"\b({'|'.join(_WEEKDAYS)})\b")


def _weekday(text: str) -> int | None:
    """The weekday (Monday 0) of the full date in ``text`` ("15 April 1912", "April 15, 1912"), or None."""
    day = full_date(text)
    return day.weekday() if day is not None else None


def weekday_refusal(evidence: str, gold: list[str], new: str) -> str | None:
    """Why ``new`` breaks the weekday the passage gives the date, or None.

    Before the date ("Friday 17 November") or just after it ("24 April 1916, Easter Monday").
    Blind readers checked the calendar: "on Friday 17 November 2016" is a Thursday, the Good
    Friday Agreement cannot be signed on a Tuesday, and 24 April 1908 was no Easter Monday.
    """
    new_day = _weekday(new)
    if new_day is None:
        return None
    for start, end in spans_of(evidence, tuple(gold)):
        named = _WEEKDAY_BEFORE.search(evidence[max(0, start - 20) : start])
        named = named or _WEEKDAY_AFTER.search(evidence[end : end + 24])
        if named is not None and _WEEKDAYS.index(named.group(1)) != new_day:
            return f"the passage calls the date a {named.group(1)}, and {new!r} is a {_WEEKDAYS[new_day]}"
    # a weekday the passage names anywhere that the gold date falls on: "the Black Saturday
    # bushfires" of 7 February 2009 moved to a Tuesday (set 90, a case of the code before issue
    # 26 that both blind readers refused: the rules of the day had not moved it yet)
    old_day = _weekday(gold[0])
    for named in _WEEKDAY_NAMED.finditer(evidence):
        day = _WEEKDAYS.index(named.group(1))
        if day == old_day != new_day:
            weekday = _WEEKDAYS[new_day]
            return f"the passage names a {named.group(1)}, the answer's weekday, and {new!r} is a {weekday}"
    return None


def question_year_refusal(question: str, gold: list[str], new: str) -> str | None:
    """Why ``new`` drops a year the question names and the gold date has ("the 2023 earthquake"), or None."""
    old_year = _year(gold[0])
    if old_year is None or old_year not in {int(y) for y in YEAR.findall(question)}:
        return None
    if _year(new) == old_year:
        return None
    return f"{new!r} is not in {old_year}, the year the question names"


__all__ = [
    "NamedSpan",
    "date_refusal",
    "entity_span",
    "era_refusal",
    "future_refusal",
    "named_spans",
    "question_year_refusal",
    "weekday_refusal",
]
