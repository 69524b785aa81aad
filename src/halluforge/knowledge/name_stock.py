"""One stock of invented people's names: first names by gender and surnames, each weighted.

Its own module so that both sources of stocks build them: Faker's locales
(:mod:`halluforge.knowledge.names`) and the Wikidata name index
(:mod:`halluforge.knowledge.romanised_names`). :func:`latin_names` writes a source's names as
English texts write them, or leaves them out.
"""

from __future__ import annotations

import functools
import random
import re
import unicodedata
from dataclasses import dataclass
from typing import Any

#: a stock needs this many names of a gender (and of surnames) to be drawn from
MIN_NAMES = 20


@dataclass(frozen=True)
class NameStock:
    """One Faker locale's first names by gender and last names, each with its weight.

    ``indexed``: a country's names from the Wikidata name index
    (:func:`~halluforge.knowledge.romanised_names.index_stocks`), which
    stand for that country's people of its own community only (:func:`stocks_of_country`,
    :func:`stocks_of_name`). ``given``: every given name the index lists for the country, those
    it cannot gender too ("Hicham", 87 of Morocco's people): they tell a name's community and
    are never drawn.
    """

    locale: str
    first: dict[str, tuple[tuple[str, ...], tuple[float, ...]]]
    last: dict[str, tuple[tuple[str, ...], tuple[float, ...]]]
    indexed: bool = False
    given: frozenset[str] = frozenset()

    @property
    def country_code(self) -> str | None:
        """The locale's ISO 3166 alpha-2 country ("NO" of ``no_NO``), None for a bare language."""
        _, _, code = self.locale.partition("_")
        return code or None

    @property
    def language(self) -> str:
        """The locale's language code ("no" of ``no_NO``)."""
        return self.locale.partition("_")[0]

    def holds(self, first: str | None, last: str | None) -> int:
        """How many of a name's first and last word this stock lists (0, 1 or 2)."""
        found = 0
        if first is not None and any(first in names for names, _ in self.first.values()):
            found += 1
        if last is not None and any(last in names for names, _ in self.last.values()):
            found += 1
        return found

    @functools.cached_property
    def surnames(self) -> frozenset[str]:
        """Every last name the stock lists, of either gender."""
        return frozenset(name for names, _ in self.last.values() for name in names)

    def firsts(self, gender: str, allowed: frozenset[str] | None = None) -> list[str]:
        """The stock's first names of ``gender``, only those in ``allowed`` when given."""
        return [n for n in self.first[gender][0] if allowed is None or n in allowed]

    def invent(
        self, gender: str, rng: random.Random, allowed: frozenset[str] | None = None
    ) -> tuple[str, str]:
        """A first and a last name of ``gender`` by the locale's weights (first names in ``allowed``)."""
        names, weights = self.first[gender]
        pairs = [(n, w) for n, w in zip(names, weights, strict=True) if allowed is None or n in allowed]
        firsts, first_weights = zip(*pairs, strict=True) if pairs else (names, weights)
        lasts, last_weights = self.last.get(gender) or self.last["any"]
        first = rng.choices(firsts, weights=first_weights)[0]
        last = rng.choices(lasts, weights=last_weights)[0]
        return first, last


def _latin(name: str) -> bool:
    """A name written in Latin letters only (accents, apostrophes and hyphens allowed)."""
    letters = [c for c in name if c.isalpha()]
    return bool(letters) and all("LATIN" in unicodedata.name(c, "") for c in letters) and " " not in name


#: alphabets whose names anyascii writes as an English text would ("Смирнова" -> "Smirnova");
#: abjads (Arabic, Hebrew, Persian) lose their vowels, and Hangul ("Gim" for Kim) and Greek
#: ("Saltaoyras") come out unlike English usage, so names in those stay out
_ALPHABETS = ("CYRILLIC", "GEORGIAN", "ARMENIAN")


def _romanised(name: str) -> str | None:
    """A name of an alphabet in :data:`_ALPHABETS` in Latin letters (anyascii, ISC), else None."""
    letters = [c for c in name if c.isalpha()]
    if not letters or not all(unicodedata.name(c, "").startswith(_ALPHABETS) for c in letters):
        return None
    try:
        from anyascii import anyascii
    except ImportError:  # an install without it keeps the Latin-script locales only
        return None
    latin = anyascii(name)
    if latin.islower():  # Georgian has no capitals: "abashidze" is written "Abashidze"
        latin = latin.capitalize()
    # "Agaf'ya": a soft sign written as an apostrophe reads as a typo in running text
    return latin if re.fullmatch(r"[A-Z][a-z]+(?:-[A-Z][a-z]+)?", latin) else None


def latin_names(value: Any) -> tuple[tuple[str, ...], tuple[float, ...]]:
    """Faker's names as (names, weights): a weighted mapping keeps its weights, a list weighs 1 each."""
    if isinstance(value, dict):
        pairs = [(str(n), float(w)) for n, w in value.items()]
    elif isinstance(value, (list, tuple)):
        pairs = [(str(n[2]) if isinstance(n, tuple) else str(n), 1.0) for n in value]
    else:
        return (), ()
    # Taiwan's romanised names are upper case ("CHIA-HAO"): written as a name is in running text
    kept: dict[str, float] = {}
    for name, weight in pairs:
        latin = (name.title() if name.isupper() else name) if _latin(name) else _romanised(name)
        if latin is not None:
            # Faker writes "Mcdonald", "Mcintyre"; English texts write "McDonald" (set 36's readers)
            latin = re.sub(r"^Mc([a-z])", lambda m: "Mc" + m.group(1).upper(), latin)
            kept.setdefault(latin, weight)
    return tuple(kept), tuple(kept.values())


__all__ = ["MIN_NAMES", "NameStock", "latin_names"]
