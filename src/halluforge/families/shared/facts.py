"""Donors that fit the sentence: the facts around the gold answer, and the checks a donor must pass.

A wrong answer of the right kind can still be one no reader believes: a novelist dead for
decades winning this year's prize, a woman winning the gentlemen's singles, a famous Andean
lake "in Ethiopia". :func:`read_facts` reads what the passage and question say around the
gold answer; :func:`fact_checks` compares a candidate with each fact the entity table
(:mod:`halluforge.knowledge`) or the context can check:

- ``role``: a known person's description names a role the words around the answer give ("the
  Danish architect"; an occupation word, or a :func:`.roles.role_groups` group), else the
  gold person's or the kind's;
- ``era``: a known person was alive and adult at the years of the sentence and question (or, with no year,
  lived at the same time as the gold person);
- ``born`` / ``died``: a known person's birth (death) year lies within ten years of the one the
  passage states for the answer ("born in 2003", "(1853–1890)", in the sentences about it);
- ``gender``: the donor's gender (the table's description, else the first name) agrees with
  the pronouns and gendered words around the answer ("she", "women's", "actress"); a silent
  context checks nothing; in a woman's role an unknown name is refused;
- ``nationality``: a known person's nationality agrees with a demonym next to the answer
  ("the Norwegian writer", "Norway's Ola Berg"); a demonym countryinfo does not map
  ("Scottish") or a description with no mapped nationality ("English writer") is compared by
  the description's words;
- ``region``: a known place's description names the region below the country that the gold
  place's description and the passage both name ("Agra, in Uttar Pradesh");
- ``place``: a known place lies in the country the sentence or the gold place names (a city on
  a river of the same country); when the sentence names the country, a donor whose country is
  unknown is refused; when only the gold place gives it, the same region is enough.

Each check is ``True`` (ran, passed), ``False`` (ran, refused) or absent (nothing to check:
an entity absent from the table gets only the checks its context words allow). The checks that
ran are recorded on each forged case; the first refusal is the reason a donor is turned down.
"""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from halluforge.families.shared.mentions import (
    BORN,
    DIED,
    WORD,
    about_answer,
    age_birth,
    answer_names,
    gender_context,
    gender_cues,
    stated_year,
)
from halluforge.families.shared.nationality import (
    WINDOW,
    country_after,
    country_apposed,
    country_before,
    demonym_after,
    demonym_apposed,
    demonym_next,
    heritage_country,
    heritage_first,
    without_languages,
)
from halluforge.families.shared.passage import sentence_of
from halluforge.families.shared.roles import role_groups
from halluforge.families.shared.spans import answer_spans
from halluforge.knowledge.table import place_types

if TYPE_CHECKING:
    from halluforge.knowledge.table import Entity, EntityTable

#: start of every refusal reason, so a skip can say which check refused the donors
REFUSED = "fact check"
#: a year, not part of a longer number ("1,791", "17912"); a comma after it ends a clause ("in 1791, only")
YEAR = re.compile(r"(?<![\d,.])(1[0-9]{3}|20[0-9]{2})(?!\d|[,.]\d)")
_FEMALE = re.compile(
    r"\b(?:she|her|hers|herself|women(?:'?s)?|woman|actress|queen|princess|empress|ladies'?|girls'?|"
    r"mother|daughter|wife|sister|duchess|heroine)\b",
    re.I,
)
_MALE = re.compile(
    r"\b(?:he|his|him|himself|men(?:'?s)?|man|gentlemen(?:'?s)?|king|prince|emperor|boys'?|father|son|"
    r"husband|brother|duke|hero)\b",
    re.I,
)
#: a men's team or event; a club competition or a national team in football, which a passage
#: calls a women's when it is one (set 87: Mamelodi Sundowns' coach, with no pronoun, took a
#: woman's name beside "the CAF Champions League" and "the FIFA Club World Cup")
_MENS = re.compile(
    r"\b(?:gentle)?men['’]?s\b|\b(?:Champions League|Club World Cup|Premier League|Copa Libertadores"
    r"|national (?:football )?team)\b",
    re.I,
)
_WOMENS = re.compile(r"\bwomen['’]?s\b", re.I)


def men_only(evidence: str) -> str | None:
    """Say "male" for a passage about a men's team or event that says nothing of women, else None.

    Asked only when nothing about the person tells a gender: the manager of "the second
    English men's team to win all three trophies" took a woman's name in both families on set
    43, which both blind readers saw (no woman manages a top men's side). A women's team or
    event says nothing: men coach women's teams as often as women do.
    """
    return "male" if _MENS.search(evidence) and not _WOMENS.search(evidence) else None


#: a person is adult at this age: a donor born later than the event year minus this is refused
ADULT = 14


@dataclass
class Facts:
    """What the context says around the gold answer (see :func:`read_facts`)."""

    years: tuple[int, ...] = ()
    roles: frozenset[str] = frozenset()
    groups: frozenset[str] = frozenset()
    gender: str | None = None
    demonym_country: str | None = None
    #: a heritage the passage states ("to Romanian parents"): the country an invented name is of
    heritage_country: str | None = None
    #: the demonym as the sentence writes it ("Colombian"), for descriptions the table could not map
    demonym_words: tuple[str, ...] = ()
    #: regions below the country that the gold place's description and the passage both name
    regions: tuple[str, ...] = ()
    #: the answer's birth and death years as the passage states them ("born in 1978", "(1853–1890)")
    born: int | None = None
    died: int | None = None
    #: the text whose gendered words speak of a person answer, and their (female, male) counts
    gender_text: str = ""
    cues: tuple[int, int] = (0, 0)
    #: the sentences that speak of a person answer (:func:`~.mentions.about_answer`)
    about: tuple[str, ...] = ()
    countries: tuple[str, ...] = ()
    gold: Entity | None = None
    gold_place: Entity | None = None
    gold_country: str | None = None
    notes: list[str] = field(default_factory=list)


def _answer_sentence(evidence: str, gold: list[str]) -> tuple[str, int, int]:
    """The sentence holding the first gold span and the span's offsets in it."""
    spans = answer_spans(evidence, gold)
    if not spans:
        return "", 0, 0
    start, end = spans[0]
    s, e = sentence_of(evidence, start)  # the whole passage when no sentence holds it
    return evidence[s:e], start - s, min(end, e) - s


#: a donor's birth (death) year may differ from the answer's stated one by this many years
_LIFE_SLACK = 10


def read_facts(evidence: str, gold: list[str], question: str, kind: str, table: EntityTable) -> Facts:
    """The facts around the gold answer that a donor must agree with."""
    sentence, start, end = _answer_sentence(evidence, gold)
    outside = sentence[:start] + " " + sentence[end:]
    facts = Facts()
    facts.years = tuple(sorted({int(y) for y in YEAR.findall(f"{outside} {question}")}))
    # "the Lebanese-Canadian engineer" reads "the Lebanese engineer" (:func:`.nationality.heritage_first`)
    before = WORD.findall(without_languages(heritage_first(sentence[:start], table, context=evidence)))[
        -WINDOW:
    ]
    after = WORD.findall(sentence[end:])[:WINDOW]
    near = [w.lower() for w in (*before, *after)]
    if kind.startswith("person"):
        phrases = set(near) | {f"{a} {b}" for a, b in itertools.pairwise(near)}
        facts.roles = frozenset(phrases & table.occupation_words)
        facts.gold = table.person(gold[0])
        fine = kind.partition(":")[2]
        facts.groups = role_groups(" ".join(near)) or (
            role_groups(facts.gold.description) if facts.gold else frozenset()
        )
        if not facts.groups and not facts.roles:
            if facts.gold is not None:  # "English polymath": the gold's own words are the role
                facts.roles = frozenset(facts.gold.occupations)
            elif fine:
                facts.groups = frozenset({fine})
        context = gender_context(evidence, gold, question) if sentence else question
        female, male = gender_cues(_FEMALE, context), gender_cues(_MALE, context)
        facts.gender_text, facts.cues = context, (female, male)
        if female != male and (female == 0 or male == 0):
            facts.gender = "female" if female else "male"
        # a demonym next to the answer ("the Scottish physician"), or standing for it at the
        # opening of the next sentence ("The Argentine had"): mapped to its country when
        # countryinfo knows it, else kept as the word people's descriptions open with
        own = {w for g in gold for w in g.split()}
        # of two words too: "South Korean filmmaker Hwang Dong-hyuk" (set 71, in-sample: "Korean"
        # alone is no demonym, and the director took an English name); the nearest one counts
        near_words = [(w, i) for i, w in enumerate(before[-4:]) if w not in own and table.is_demonym(w)]
        near_words += [
            (f"{a} {b}", i + 1)
            for i, (a, b) in enumerate(itertools.pairwise(before[-4:]))
            if a not in own and b not in own and f"{a} {b}".lower() in table.demonyms
        ]
        words = [w for w, _ in sorted(near_words, key=lambda found: found[1])]
        apposed = sentence and (
            demonym_after(sentence[end:], table)
            or demonym_next(evidence, gold, table)
            or demonym_apposed(evidence, gold, table)
        )
        if words or apposed:
            word = words[-1] if words else str(apposed)
            facts.demonym_words = (word,)
            facts.demonym_country = table.demonyms.get(word.lower())
        elif sentence:  # "Henri Auer of Austria became ...", "Norway's Jakob Ingebrigtsen won"
            facts.demonym_country = (
                country_after(sentence[end:], table)
                or country_before(sentence[:start], table)
                or country_apposed(evidence, gold, table)
            )
        facts.about = tuple(about_answer(evidence, gold))
        facts.heritage_country = heritage_country(facts.about, table)
        facts.born, facts.died = stated_year(BORN, facts.about), stated_year(DIED, facts.about)
        if facts.born is None and facts.died is None:
            facts.born = age_birth(facts.about, answer_names(gold))
    if kind.startswith("place"):
        found: list[str] = []
        for word in WORD.findall(outside):
            country = table.demonyms.get(word.lower())
            if country is not None:
                found.append(country)
        found.extend(country for country, _ in table.countries_in(outside))
        facts.countries = tuple(dict.fromkeys(found))
        facts.gold_place = table.place(gold[0], place_types(kind))
        facts.gold_country = table.country(gold[0]) or (
            facts.gold_place.country if facts.gold_place else None
        )
        if facts.gold_place is not None and facts.gold_place.description:
            facts.regions = tuple(
                r
                for r in _containers(facts.gold_place.description)
                if table.country(r) is None and re.search(rf"\b{re.escape(r)}\b", evidence)
            )
    return facts


def _containers(description: str) -> list[str]:
    """The named places a description puts its place in: "City in Uttar Pradesh, India" -> both."""
    found = re.search(r"\bin (?:the )?([A-Z].*)$", description)
    if found is None:
        return []
    parts = re.split(r",\s*|\s+and\s+", re.sub(r"\s*\([^)]*\)", "", found.group(1)))
    return [p.strip() for p in parts if p.strip()[:1].isupper()]


def fact_checks(candidate: str, facts: Facts, kind: str, table: EntityTable) -> dict[str, bool]:
    """Each check that could run on ``candidate``: True when it agrees with the facts (module docstring)."""
    checks: dict[str, bool] = {}
    if kind.startswith("person"):
        donor = table.person(candidate)
        gender = table.gender(candidate)
        if facts.gender is not None:
            if gender is not None:
                checks["gender"] = gender == facts.gender
            elif facts.gender == "female":
                checks["gender"] = False  # a woman's role wants a known woman
        if donor is not None:
            _person_checks(donor, facts, checks)
    elif kind.startswith("place"):
        place = table.place(candidate, place_types(kind))
        country = table.country(candidate) if kind in ("place", "place:country") else None
        if place is not None or country is not None:
            _place_checks(place, country, facts, table, checks)
        elif facts.countries and _contained(kind.partition(":")[2]) and facts.gold_place is None:
            checks["place"] = False  # the sentence names its country: an unplaced donor may lie anywhere
    return checks


def adult_and_alive(born: int, died: int | None, year: int) -> bool:
    """The person was an adult (from :data:`ADULT`) in ``year`` and not yet dead a year before it.

    The year's grace after death lets a work or an award come out just after its maker died;
    ``died`` None puts no bound on the end (a living person, or a death nobody recorded).
    """
    return born + ADULT <= year and (died is None or year <= died + 1)


def _person_checks(donor: Entity, facts: Facts, checks: dict[str, bool]) -> None:
    if (facts.roles or facts.groups) and donor.description:
        checks["role"] = holds_role(donor, facts)
    if facts.born is not None and donor.born is not None:
        checks["born"] = abs(donor.born - facts.born) <= _LIFE_SLACK
    if facts.died is not None and donor.born is not None:
        checks["died"] = donor.died is not None and abs(donor.died - facts.died) <= _LIFE_SLACK
    if donor.born is not None:
        if facts.years:
            checks["era"] = adult_and_alive(donor.born, donor.died, facts.years[0])
        elif facts.gold is not None and facts.gold.born is not None:
            gold_end = facts.gold.died if facts.gold.died is not None else 10_000
            donor_end = donor.died if donor.died is not None else 10_000
            checks["era"] = donor.born <= gold_end and facts.gold.born <= donor_end
    if facts.demonym_country is not None and donor.nationality is not None:
        checks["nationality"] = donor.nationality == facts.demonym_country
    elif facts.demonym_words and donor.description:
        # a nationality one side could not map ("the Scottish physician"; an "English writer"; an
        # office "of the United Kingdom"): the description must name the demonym or its country
        words = {*facts.demonym_words, *([facts.demonym_country] if facts.demonym_country else [])}
        checks["nationality"] = any(re.search(rf"\b{re.escape(w)}\b", donor.description) for w in words)


def holds_role(person: Entity, facts: Facts) -> bool:
    """Whether a known person holds a role the context gives: its occupation word or a role group."""
    return bool(facts.roles & set(person.occupations)) or bool(facts.groups & role_groups(person.description))


def table_member(candidate: str, kind: str, facts: Facts, table: EntityTable) -> bool:
    """Whether the table knows ``candidate`` as a member of ``kind`` (a role it holds, its place type)."""
    if kind.startswith("person"):
        donor = table.person(candidate)
        return donor is not None and holds_role(donor, facts)
    if kind == "place:country":
        return table.country(candidate) is not None
    return kind.startswith("place:") and table.place(candidate, place_types(kind)) is not None


def _place_checks(
    place: Entity | None, country: str | None, facts: Facts, table: EntityTable, checks: dict[str, bool]
) -> None:
    if country is not None:  # a country for a country: the same region as the gold one
        gold_region = table.region(facts.gold_country) if facts.gold_country else None
        if gold_region is not None and table.region(country) is not None:
            checks["place"] = table.region(country) == gold_region
        return
    assert place is not None
    if facts.gold_country and facts.gold_place is None:  # the gold answer is itself a country
        return
    if facts.regions:  # "in Agra, Uttar Pradesh": the donor's description must name the same region
        checks["region"] = all(
            re.search(rf"\b{re.escape(r)}\b", place.description or "") for r in facts.regions
        )
    containers = [c for c in (facts.gold_country, *facts.countries) if c]
    if place.country is not None and containers:
        checks["place"] = place.country in containers
        return
    if facts.countries and _contained(place.place_type):  # "the largest lake in Ethiopia"
        checks["place"] = False
        return
    region = table.place_region(place)
    regions = {table.region(c) for c in containers} - {None}
    if region is not None and regions:
        checks["place"] = region in regions


#: donors drawn from the table per seed case, best first, before the checks
TABLE_DONORS = 40


def table_donors(kind: str, facts: Facts, gold: list[str], table: EntityTable) -> list[str]:
    """Candidates of the gold answer's kind from the entity table, the likeliest to fit first.

    People: those sharing a role with the context or the gold person, the demonym's (or the
    gold person's) nationality first, then the nearest birth year. Cities: the gold place's
    country's by population. Other places: the same place type in the same country or region.
    Countries: the gold country's neighbours, then its region's. Each still goes through the
    checks; this only decides who is tried.
    """
    golden = {g.casefold() for g in gold}
    names: list[str] = []
    if kind.startswith("person"):
        if not facts.roles and not facts.groups:
            return []
        home = facts.demonym_country or (facts.gold.nationality if facts.gold else None)
        ref = facts.born if facts.born is not None else (facts.gold.born if facts.gold else None)
        # a silent context checks no gender, but the gold person's is the likelier read
        like = facts.gender or table.gender(gold[0])
        if ref is None and facts.years:
            ref = facts.years[0] - 40
        year = facts.years[0] if facts.years else None
        people = [
            p
            for p in table.people()
            if holds_role(p, facts)
            and (year is None or (p.born is not None and adult_and_alive(p.born, p.died, year)))
            and (facts.gender is None or table.gender(p.title) == facts.gender)
            and (facts.demonym_country is None or p.nationality == facts.demonym_country)
        ]
        people.sort(
            key=lambda p: (
                home is not None and p.nationality != home,
                like is not None and table.gender(p.title) != like,
                not facts.roles & set(p.occupations),  # the context's own word ("physicist") first
                abs((p.born if p.born is not None else 10_000) - (ref if ref is not None else 0)),
                p.title,
            )
        )
        names = [p.title for p in people]
    elif kind.startswith("place"):
        country = facts.gold_country
        if country is not None and facts.gold_place is None and table.country(gold[0]) == country:
            info = table.countries.get(country, {})
            region = table.region(country)
            same = sorted(n for n in table.countries if n != country and table.region(n) == region)
            names = [*info.get("borders", []), *same]
        elif facts.gold_place is not None or facts.countries:
            types = place_types(kind)
            homes = {country} if country is not None else set(facts.countries)
            places = [
                e
                for e in table.entities
                if e.kind == "place" and (types is None or e.place_type in types) and e.country in homes
            ]
            places.sort(key=_place_order(gold[0], table))
            # a locality whose name the table knows as something else ("Ali", a person) reads as junk
            names = [e.title for e in places if all(x.kind == "place" for x in table.lookup(e.title))]
    out = [n for n in dict.fromkeys(names) if n.casefold() not in golden and "(" not in n]
    return out[:TABLE_DONORS]


def _place_order(gold: str, table: EntityTable) -> Callable[[Entity], tuple[Any, ...]]:
    """How place donors are tried: known names like the gold city first.

    One with an encyclopaedia entry (a suburb such as "Kirāri Sulemānnagar" for New Delhi reads
    as invented), of the gold city's own state or province, a national capital only for a
    capital, of a size like its own; without a gold city, the best described and largest.
    """
    home = next((e for e in table.lookup(gold) if e.kind == "place" and e.population), None)
    capitals = {str(i["capital"]) for i in table.countries.values() if i.get("capital")}
    capital = gold in capitals

    def order(place: Entity) -> tuple[Any, ...]:
        if home is None:
            return (not place.description, -place.population, place.title)
        size = abs(math.log10(max(place.population, 1)) - math.log10(home.population))
        known = _described(place.title, None, table)  # a wiki entry: a name readers know
        return (
            not known,
            place.admin1 != home.admin1 or place.country != home.country,
            (place.title in capitals) != capital,
            round(size, 1),
            place.title,
        )

    return order


def _described(name: str, types: frozenset[str] | None, table: EntityTable) -> bool:
    """Whether the table has an encyclopaedia entry for ``name`` as a place (of ``types``)."""
    return any(
        e.kind == "place" and e.description and (types is None or e.place_type in types)
        for e in table.lookup(name)
    )


def _contained(place_type: str | None) -> bool:
    """Whether a place of this type lies in one country (a city, a lake), unlike a sea or a strait."""
    return place_type not in (None, "", "country", "sea", "ocean", "strait", "gulf", "bay", "continent")


def refusal(checks: dict[str, bool], candidate: str) -> str | None:
    """The reason the first failed check gives, or None when every check that ran passed."""
    failed = [name for name, ok in checks.items() if not ok]
    if not failed:
        return None
    return f"{REFUSED} {failed[0]!r}: {candidate!r} does not fit the sentence's {failed[0]}"


def refused_by(reasons: list[str]) -> dict[str, int]:
    """How many donors each fact check refused, from a list of rejection reasons."""
    counts: dict[str, int] = {}
    for reason in reasons:
        match = re.match(rf"{REFUSED} '(\w+)'", reason)
        if match:
            counts[match.group(1)] = counts.get(match.group(1), 0) + 1
    return counts


def refusal_summary(reasons: list[str]) -> str:
    """``"era x41, gender x12"``: how many donors each fact check refused, most first ("" if none)."""
    counts = refused_by(reasons)
    return ", ".join(f"{name} x{n}" for name, n in sorted(counts.items(), key=lambda c: -c[1]))


__all__ = [
    "ADULT",
    "REFUSED",
    "TABLE_DONORS",
    "YEAR",
    "Facts",
    "adult_and_alive",
    "fact_checks",
    "holds_role",
    "men_only",
    "read_facts",
    "refusal",
    "refusal_summary",
    "refused_by",
    "table_donors",
    "table_member",
]
