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
  ("1958 film by Alfred Hitchcock", "1857 novel by Gustave Flaubert"), else from the KB's own
  ``releaseDate`` / ``publicationDate`` facts; the wiki dates only about a hundred works;
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
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from halluforge.families.shared.facts import ADULT, Facts, adult_and_alive, holds_role, refusal
from halluforge.families.shared.roles import role_groups
from halluforge.knowledge.table import key

if TYPE_CHECKING:
    from halluforge.knowledge.table import Entity, EntityTable

#: predicates where the swapped-in person must have the replaced one's gender
GENDERED = frozenset({"spouse"})
#: predicates any person holds (everyone has a birthplace): no shared role is asked for
ANY_ROLE = frozenset({"spouse", "birthPlace", "birthYear", "almaMater"})
#: the checks that life years alone can run
_LIFE_CHECKS = frozenset({"era", "work_era"})
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
class Life:
    """A person's life years: ``end`` is the death year, :data:`_LIVING` for the living, None unknown."""

    born: int
    end: int | None


@dataclass(frozen=True)
class Known:
    """What the table (and the KB's own life years) know of one KB entity (None when nothing)."""

    person: Entity | None = None
    #: the life years: the table's, else the KB's ``birthYear`` / ``deathYear`` facts
    life: Life | None = None
    place: Entity | None = None
    #: the canonical country when the entity is itself a country
    country: str | None = None
    #: the year of a dated work ("1958 film by Alfred Hitchcock": 1958; else the KB's release date)
    work_year: int | None = None

    @property
    def known(self) -> bool:
        """Whether the table knows it as a person, a place or a country."""
        return self.person is not None or self.place is not None or self.country is not None


class FitChecks:
    """The fit checks of one KB's entities against one table (module docstring)."""

    def __init__(
        self,
        table: EntityTable,
        names: Sequence[str],
        born: Mapping[int, int] | None = None,
        died: Mapping[int, int] | None = None,
        dated: Mapping[int, int] | None = None,
    ) -> None:
        self.table = table
        self.names = names
        #: the KB's own ``birthYear`` / ``deathYear`` facts by entity id, for people the table lacks
        self.born = born or {}
        self.died = died or {}
        #: the KB's own ``releaseDate`` / ``publicationDate`` years by entity id, for works the table lacks
        self.dated = dated or {}
        self._known: dict[int, Known] = {}
        self._gender: dict[int, str | None] = {}

    def known(self, entity: int) -> Known:
        """The table's entry of the KB entity ``entity`` (an id into the names), cached."""
        found = self._known.get(entity)
        if found is None:
            found = self._look_up(self.names[entity])
            if found.life is None and entity in self.born:
                # a person the table lacks (or cannot tell from a homonym): the KB's own years; a
                # death the KB does not give is unknown, not "living"
                found = replace(found, life=Life(self.born[entity], self.died.get(entity)))
            if found.work_year is None and entity in self.dated:
                found = replace(found, work_year=self.dated[entity])
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
        life = None
        if person is not None and person.born is not None:
            life = Life(person.born, _LIVING if person.died is None else person.died)
        return Known(person=person, life=life, place=place, country=country, work_year=work_year)

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

    def checked(self, candidate: int, checks: dict[str, bool]) -> bool:
        """Whether passing ``checks`` vouch for ``candidate`` enough to take it over an unchecked draw.

        Life years alone (the KB's own, for a person the table lacks) rule out wrong eras but say
        nothing of roles: such a draw stays a fallback, as an unchecked one does, so a person the
        table can also check for a role is still preferred.
        """
        return bool(checks) and (self.known(candidate).known or any(c not in _LIFE_CHECKS for c in checks))

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
        if new.life is not None and kept.work_year is not None:
            _work_fit(new.life, kept.work_year, checks)
        elif new.work_year is not None and kept.life is not None:
            _work_fit(kept.life, new.work_year, checks)
        if (old.person is not None or old.life is not None) and (
            new.person is not None or new.life is not None
        ):
            if old.person is not None and new.person is not None and predicate not in ANY_ROLE:
                _role_fit(old.person, new.person, checks)
            if old.life is not None and new.life is not None:
                _era_fit(old.life, new.life, checks)
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


def _work_fit(life: Life, year: int, checks: dict[str, bool]) -> None:
    """``work_era``: the person was an adult and alive in the work's year (an unknown death: adult only)."""
    checks["work_era"] = adult_and_alive(life.born, life.end, year)


def _role_fit(old: Entity, new: Entity, checks: dict[str, bool]) -> None:
    """``role``: the known person ``new`` holds an occupation or role group of the known person ``old``."""
    wanted = Facts(roles=frozenset(old.occupations), groups=role_groups(old.description))
    if (wanted.roles or wanted.groups) and new.description:
        checks["role"] = holds_role(new, wanted)


def _era_fit(old: Life, new: Life, checks: dict[str, bool]) -> None:
    """``era``: the two adult lives overlap, as far as the death years known tell."""
    ends = [life.end for life in (old, new) if life.end is not None]
    if ends:
        checks["era"] = max(old.born, new.born) + ADULT <= min(ends)


__all__ = ["ANY_ROLE", "GENDERED", "FitChecks", "Known", "Life", "titles"]
