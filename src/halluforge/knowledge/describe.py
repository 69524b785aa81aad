"""Reading the facts out of a Wikipedia short description ("Spanish painter and sculptor (1881–1973)").

The wiki-offline corpus gives every entry a one-line ``description``. Its shape is regular
enough to read four facts with patterns, and nothing is guessed where the pattern does not fit:

- a **lifespan** only from a bracket that closes the description: ``(1881–1973)``,
  ``(born 1971)``, ``(c. 1450 – 1516)``, ``(356–323 BC)``. A shortened second year
  (``(1137–52)``) is refused, and an office's ``from 2009 to 2017`` is a term, never a life;
- a **nationality** from the leading demonyms ("Russian and Soviet poet": Russia);
- the **occupations**: the phrases between the demonyms and the bracket ("painter",
  "sculptor", "tennis player"), each also kept by its head word;
- a **place type** and **country** for places ("Capital and largest city of Amazonas,
  Brazil": city, Brazil; the last country named wins).

Demonyms and country names come from ``countryinfo`` (see :mod:`.table`); the functions here
take them as a mapping so that they stay pure and testable on hand-made data.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from dataclasses import dataclass

_DASH = r"\s*[–—-]\s*"
_LIFESPAN = re.compile(
    r"\((?:c\.\s*|ca\.\s*)?(\d{1,4})(\s*BC)?" + _DASH + r"(?:c\.\s*|ca\.\s*)?(\d{1,4})(\s*(?:BC|AD))?\)\s*$"
)
_BORN = re.compile(r"\((?:born|b\.)\s*(?:c\.\s*)?(\d{3,4})\)\s*$")
#: words of a description that say a person is a woman or a man (a casing-free reading)
_FEMALE_WORDS = frozenset(
    [
        "actress",
        "queen",
        "empress",
        "princess",
        "duchess",
        "countess",
        "woman",
        "women",
        "wife",
        "daughter",
        "sister",
        "mother",
        "nun",
        "ballerina",
        "businesswoman",
        "sportswoman",
        "congresswoman",
        "chairwoman",
        "heiress",
        "abbess",
        "consort",
    ]
)
_MALE_WORDS = frozenset(
    [
        "king",
        "emperor",
        "prince",
        "duke",
        "count",
        "man",
        "husband",
        "son",
        "brother",
        "father",
        "monk",
        "businessman",
        "sportsman",
        "congressman",
        "chairman",
        "pope",
        "sultan",
        "tsar",
        "pharaoh",
    ]
)
#: the head nouns of a place description ("Capital and largest city of ...")
_PLACE_HEADS = (
    "city",
    "capital",
    "town",
    "municipality",
    "metropolis",
    "village",
    "river",
    "lake",
    "mountain",
    "range",
    "island",
    "archipelago",
    "country",
    "microstate",
    "state",
    "province",
    "region",
    "sea",
    "gulf",
    "bay",
    "desert",
    "peninsula",
    "plateau",
    "volcano",
    "waterfall",
    "falls",
    "strait",
    "ocean",
    "canal",
    "park",
)
_WORD = re.compile(r"[A-Za-z][A-Za-z'’-]*")
#: a capitalised adjective of origin ("English", "Roman", "Flemish", "Burmese", "Byzantine")
ORIGIN_ADJECTIVE = re.compile(r"^[A-Z][a-z]+(?:ish|ese|an|ian|ic|ine|ch|i)$")


@dataclass(frozen=True)
class Described:
    """What one description says: lifespan, nationality, occupations, gender, place type, country."""

    born: int | None = None
    died: int | None = None
    nationality: str | None = None
    occupations: tuple[str, ...] = ()
    gender: str | None = None
    place_type: str | None = None
    country: str | None = None
    person: bool = False


def lifespan(description: str) -> tuple[int | None, int | None]:
    """``(born, died)`` from a closing bracket; BC years are negative; (None, None) when unsure."""
    match = _LIFESPAN.search(description)
    if match:
        first, first_bc, second, era = match.groups()
        if len(second) < len(first) and not era:  # "(1137–52)": a shortened year, never guessed
            return None, None
        bc = bool(first_bc) or (era or "").strip() == "BC"
        born, died = int(first), int(second)
        if bc:
            born, died = -born, -died
        if died < born or died - born > 120:
            return None, None
        return born, died
    born_match = _BORN.search(description)
    if born_match:
        return int(born_match.group(1)), None
    return None, None


def _strip_bracket(description: str) -> str:
    return re.sub(r"\s*\([^)]*\)\s*$", "", description).strip()


def nationality(description: str, demonyms: Mapping[str, str]) -> tuple[str | None, str]:
    """The country of the description's leading demonym and the rest of the text after them."""
    text = _strip_bracket(description)
    words = text.split()
    country: str | None = None
    used = 0
    i = 0
    while i < len(words):
        word = words[i].strip(",")
        hyphen = word.split("-")[0]  # "German-born", "French-American": the first
        found = demonyms.get(word.lower()) or demonyms.get(hyphen.lower())
        if found is not None:
            country = country or found
            used = i + 1
            i += 1
            continue
        if word.lower() in ("and", "or") and used == i:
            i += 1
            continue
        following = words[i + 1] if i + 1 < len(words) else ""
        if ORIGIN_ADJECTIVE.search(word) and following[:1].islower() and following not in ("of", "from"):
            used = i + 1  # "English writer", "Roman emperor": a demonym countryinfo does not list
            i += 1
            continue
        break
    return country, " ".join(words[used:])


def occupations(rest: str) -> tuple[str, ...]:
    """The occupation phrases of a person's description (after the demonyms), with their head words."""
    text = re.split(r"\b(?:from|who|of|in|at|for|since|born|during|known)\b", rest, maxsplit=1)[0]
    found: list[str] = []
    for part in re.split(r",|\band\b|/|;", text):
        words = [w.lower() for w in _WORD.findall(part)]
        if not words:
            continue
        phrase = " ".join(words)
        for item in (phrase, words[-1]):
            if item not in found:
                found.append(item)
    return tuple(found)


def gender_words(description: str) -> str | None:
    """``"female"`` or ``"male"`` when the description's words say so, else None."""
    words = {w.lower() for w in _WORD.findall(description)}
    female, male = bool(words & _FEMALE_WORDS), bool(words & _MALE_WORDS)
    if female != male:
        return "female" if female else "male"
    return None


def place(description: str, countries: Mapping[str, str]) -> tuple[str | None, str | None]:
    """``(place type, country)`` of a place description; the last country named wins."""
    text = _strip_bracket(description)
    lower = text.lower()
    head = re.split(r"\b(?:in|of|on|at|that|which|between|near)\b|,", lower, maxsplit=1)[0]
    kind = next((h for h in _PLACE_HEADS if re.search(rf"\b{h}\b", head)), None)
    country: str | None = None
    for match in country_pattern(tuple(sorted(countries))).finditer(lower):
        country = countries[match.group(0)]  # the last one named wins
    return kind, country


@functools.lru_cache(maxsize=4)
def country_pattern(names: tuple[str, ...]) -> re.Pattern[str]:
    """One alternation of every country name, longest first ("South Sudan" before "Sudan")."""
    ordered = sorted(names, key=lambda n: (-len(n), n))
    return re.compile(r"\b(?:" + "|".join(re.escape(n) for n in ordered) + r")\b")


def describe(
    description: str,
    *,
    demonyms: Mapping[str, str],
    countries: Mapping[str, str],
    topic: str | None = None,
) -> Described:
    """Every fact one description gives (see the module docstring)."""
    born, died = lifespan(description)
    person = born is not None or topic == "People"
    if person:
        country, rest = nationality(description, demonyms)
        return Described(
            born=born,
            died=died,
            nationality=country,
            occupations=occupations(rest),
            gender=gender_words(description),
            person=True,
        )
    kind, country = place(description, countries)
    return Described(place_type=kind, country=country)


__all__ = [
    "ORIGIN_ADJECTIVE",
    "Described",
    "country_pattern",
    "describe",
    "gender_words",
    "lifespan",
    "nationality",
    "occupations",
    "place",
]
