"""Donor fit checks of the ``false_premise`` family: a swapped-in entity must not give itself away.

A random entity of the same predicate side makes a false premise, but often one world
knowledge alone rejects: Abraham Lincoln directing Jaws, a husband swapped for another man,
a birthplace in another country than the original one. :class:`FitChecks` compares the
candidate with the entity it replaces, using the offline entity table
(:mod:`halluforge.knowledge.table`), wherever the table knows both:

- person for person: ``era`` (their adult lives, from age :data:`~.facts.ADULT`, overlap),
  ``role`` (the candidate holds an occupation or role group of the replaced person:
  :func:`~halluforge.families.shared.facts.holds_role`; not for predicates anyone holds, such
  as a birthplace), ``gender`` (the same gender, from the table's description or the first
  name, for predicates where it matters: a spouse);
- place for place: ``place`` (the same country when both are known, else the same region);
  a country for a country: the same region;
- person and work: ``work_era`` (a person swapped in beside a dated work, or a dated work
  swapped in beside a person, must have been an adult, alive, in the work's year: "Christopher
  Nolan wrote *8½*" fails on 1963). A work's year is read from the table's description
  ("1958 film by Alfred Hitchcock", "1857 novel by Gustave Flaubert"); the wiki holds about a
  hundred such works, so most of a KB's works pass unchecked;
- ``not_true``: the table says the new fact holds (a city swapped into ``country`` that lies in
  that very country; a person swapped into ``birthYear`` born that year): not a false premise.

KB names are DBpedia resource names: ``Jaws_(film)`` is looked up as "Jaws (film)", then
"Jaws" (the KB reader already drops most such qualifiers); by exact title only, never loosely,
so "Akron, Ohio" is not "Akron". An entity the table does not know (most of a
user's KB may be unknown) passes unchecked, and the case's metadata names it. Each lookup is a
dict lookup, cached per entity id, so a draw stays O(1).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from halluforge.families.shared.facts import ADULT, Facts, holds_role, refusal
from halluforge.families.shared.kinds import role_groups
from halluforge.knowledge.table import key

if TYPE_CHECKING:
    from halluforge.knowledge.table import Entity, EntityTable

#: predicates where the swapped-in person must have the replaced one's gender
GENDERED = frozenset({"spouse"})
#: predicates any person holds (everyone has a birthplace): no shared role is asked for
ANY_ROLE = frozenset({"spouse", "birthPlace", "birthYear", "almaMater"})
#: the end year of a life with no death year (a living person)
_LIVING = 10_000
_QUALIFIER = re.compile(r"\s*\([^)]*\)$")
_YEAR = re.compile(r"-?\d{1,4}")
#: a dated work's description: its year, up to three words, then what kind of work it is
_WORK = re.compile(
    r"(\d{4})\s+(?:[\w'’-]+\s+){0,3}?(film|novel|novella|book|play|poem|opera|ballet|musical|painting"
    r"|sculpture|album|single|song|symphony|essay|treatise|mass|series)\b"
)


def titles(name: str) -> tuple[str, ...]:
    """The table titles a KB name may have: "Jaws_(film)" -> ("Jaws (film)", "Jaws")."""
    full = " ".join(name.replace("_", " ").split())
    return tuple(dict.fromkeys(t for t in (full, _QUALIFIER.sub("", full)) if t))


@dataclass(frozen=True)
class Known:
    """What the table knows of one KB entity (every field None when nothing)."""

    person: Entity | None = None
    place: Entity | None = None
    #: the canonical country when the entity is itself a country
    country: str | None = None
    #: the year of a dated work ("1958 film by Alfred Hitchcock": 1958)
    work_year: int | None = None

    @property
    def known(self) -> bool:
        """Whether the table knows it as a person, a place or a country."""
        return self.person is not None or self.place is not None or self.country is not None


class FitChecks:
    """The fit checks of one KB's entities against one table (module docstring)."""

    def __init__(self, table: EntityTable, names: Sequence[str]) -> None:
        self.table = table
        self.names = names
        self._known: dict[int, Known] = {}
        self._gender: dict[int, str | None] = {}

    def known(self, entity: int) -> Known:
        """The table's entry of the KB entity ``entity`` (an id into the names), cached."""
        found = self._known.get(entity)
        if found is None:
            found = self._look_up(self.names[entity])
            self._known[entity] = found
        return found

    def _look_up(self, name: str) -> Known:
        person = place = country = None
        work_year: int | None = None
        for title in titles(name):
            if key(title) in self.table.index:  # most KB names are unknown: one dict miss each
                person = person or self.table.person(title)
                place = place or self.table.place(title)
                work_year = work_year or _work_year(self.table.lookup(title))
            country = country or self.table.country(title)
        return Known(person=person, place=place, country=country, work_year=work_year)

    def gender(self, entity: int) -> str | None:
        """The entity's gender: the table's description, else the first name (cached; None: unknown)."""
        if entity not in self._gender:
            found = None
            for title in titles(self.names[entity]):
                found = found or self.table.gender(title)
            self._gender[entity] = found
        return self._gender[entity]

    def refusal(self, checks: dict[str, bool], candidate: int) -> str:
        """The reason a failed check gives (:func:`~halluforge.families.shared.facts.refusal`)."""
        return refusal(checks, self.names[candidate]) or ""

    def unknown(self, *entities: int) -> list[str]:
        """The names among ``entities`` the table knows as no person, place or country."""
        return [self.names[e] for e in entities if not self.known(e).known]

    def check(self, predicate: str, replaced: int, candidate: int, other: int) -> dict[str, bool]:
        """Each check that could run on ``candidate`` for ``replaced``: True when it fits.

        ``other`` is the fact's side that stays (for ``not_true``).
        """
        old, new = self.known(replaced), self.known(candidate)
        checks: dict[str, bool] = {}
        if predicate in GENDERED:
            genders = self.gender(replaced), self.gender(candidate)
            if None not in genders:
                checks["gender"] = genders[0] == genders[1]
        if predicate == "birthYear" and new.person is not None and new.person.born is not None:
            year = self.names[other]  # the new person's own birth year makes the premise true
            if _YEAR.fullmatch(year):
                checks["not_true"] = new.person.born != int(year)
        kept = self.known(other)
        if new.person is not None and kept.work_year is not None:
            _work_fit(new.person, kept.work_year, checks)
        elif new.work_year is not None and kept.person is not None:
            _work_fit(kept.person, new.work_year, checks)
        if old.person is not None and new.person is not None:
            _person_fit(old.person, new.person, predicate not in ANY_ROLE, checks)
        elif old.country is not None and new.country is not None:
            regions = self.table.region(old.country), self.table.region(new.country)
            if None not in regions:
                checks["place"] = regions[0] == regions[1]
        elif old.place is not None and new.place is not None:
            self._place_fit(old.place, new.place, self.known(other).country, checks)
        return checks

    def _place_fit(self, old: Entity, new: Entity, container: str | None, checks: dict[str, bool]) -> None:
        if container is not None and old.country == container:
            # the fact places the replaced place in a country ("Lyon, country, France"): a donor of
            # the same country makes it true; one of the same region keeps it subtle and false
            if new.country is not None:
                checks["not_true"] = new.country != container
            regions = self.table.place_region(old), self.table.place_region(new)
            if None not in regions:
                checks["place"] = regions[0] == regions[1]
            return
        if old.country is not None and new.country is not None:
            checks["place"] = old.country == new.country
            return
        regions = self.table.place_region(old), self.table.place_region(new)
        if None not in regions:
            checks["place"] = regions[0] == regions[1]


def _work_year(entries: Sequence[Entity]) -> int | None:
    """The year of the one dated work among ``entries``, or None."""
    years = {int(m.group(1)) for e in entries if e.kind == "other" and (m := _WORK.match(e.description))}
    return years.pop() if len(years) == 1 else None


def _work_fit(person: Entity, year: int, checks: dict[str, bool]) -> None:
    """``work_era``: the person was an adult and alive in the work's year.

    A year's grace after death, for works that came out just after their maker died.
    """
    if person.born is not None:
        end = _LIVING if person.died is None else person.died + 1
        checks["work_era"] = person.born + ADULT <= year <= end


def _person_fit(old: Entity, new: Entity, role: bool, checks: dict[str, bool]) -> None:
    """``role`` and ``era`` of a known person ``new`` standing in for the known person ``old``."""
    if role:
        wanted = Facts(roles=frozenset(old.occupations), groups=role_groups(old.description))
        if (wanted.roles or wanted.groups) and new.description:
            checks["role"] = holds_role(new, wanted)
    if old.born is not None and new.born is not None:
        start = max(old.born, new.born) + ADULT
        end = min(_LIVING if old.died is None else old.died, _LIVING if new.died is None else new.died)
        checks["era"] = start <= end


__all__ = ["ANY_ROLE", "GENDERED", "FitChecks", "Known", "titles"]
