"""When an invented person's first names come from: the entity table's people born before their era.

Faker's first names are today's: a zoologist born in 1932 named "Kayla", a Belgian judge born in
1954 "Joren". A person born before :data:`TODAY` takes first names the table's people of their
subregion or region bore then (:func:`attested`), and a person the passage gives no gender, born
before :data:`MODERN`, a gender drawn by the shares of the region's people then
(:func:`earlier_gender`). Used by :mod:`.invented`.
"""

from __future__ import annotations

import functools
import random
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from halluforge.knowledge.table import EntityTable

#: a person born (or a sentence dated) before this year gets only first names attested then:
#: 1930 let "Kayla" name a zoologist born in 1932, which a blind reader of set 38 called a
#: modern name; Faker's lists are today's names
MODERN = 1950
#: and one born before this year, first names attested before it: Faker's are today's names, and
#: "Niklas" for an Austrian born in 1944 (his era read from his deeds), "Joren" for a Belgian
#: judge born in 1954, "Ronaldo" for a Roman banker born in 1963 and "Igor" for a Portuguese
#: mayor born in 1970 were strict clashes to both blind readers of sets 71 and 73 (in-sample)
TODAY = 1980


def attested(
    table: EntityTable, country: str, era: int | None = None, *, everywhere: bool = True
) -> tuple[tuple[int, frozenset[str]], ...]:
    """First names borne by the table's people born before :data:`TODAY`, nearest first, with the era's end.

    Those of ``country``'s subregion, then of its region: the table holds too few earlier
    people per country, a region still keeps "Isaac" and "Ada" apart from the Western names an
    Indian locale lists, and a subregion also keeps Southern Europe's "Claudio" from a German
    composer of 1813. Last, those of the whole table: Oceania has three earlier people, and
    today's names in their place gave a suffragist born in 1847 the name "Sharon", which both
    blind readers of set 36 saw. Within each, the names of people born before the first of
    :data:`_ERAS` after ``era`` come first: a conquistador born about 1500 took "Arturo", the
    name of a conductor born in 1867 (set 58, both readers, strict; in-sample). Without
    ``everywhere``, the whole table's names are left out.
    """
    by_group = _attested(table)
    groups = (table.subregion(country), table.region(country), *([_EVERYWHERE] if everywhere else []))
    eras = [cut for cut in _ERAS if era is None or cut > era] or [TODAY]
    keys = [(group, cut) for group in dict.fromkeys(groups) for cut in eras]
    return tuple((key[1], by_group[key]) for key in keys if key in by_group)


#: the group of every earlier person of the table, whatever their country
_EVERYWHERE = "*"
#: the years before which the table's people are counted as having borne a name, earliest first
_ERAS = (1700, 1850, MODERN, TODAY)


@functools.lru_cache(maxsize=2)
def _attested(table: EntityTable) -> dict[tuple[str, int], frozenset[str]]:
    """Per subregion, per region and over the table, and per era, the first names of earlier people."""
    found: dict[tuple[str, int], set[str]] = {}
    for person in table.people():
        words = person.title.split()
        if person.born is None or person.born >= TODAY or len(words) < 2 or not words[0].isalpha():
            continue
        for group in (table.subregion(person.nationality), table.region(person.nationality), _EVERYWHERE):
            for cut in _ERAS:
                if group is not None and person.born < cut:
                    found.setdefault((group, cut), set()).add(words[0])
    return {key: frozenset(names) for key, names in found.items()}


def earlier_gender(table: EntityTable, country: str, rng: random.Random) -> str | None:
    """A gender drawn by the shares of the table's people born before :data:`MODERN` in ``country``'s region.

    A passage of 1434 that says nothing of the painter's gender reads as a man's story to most
    readers; an even draw gave half such people women's names. None when the region's earlier
    people have no known gender.
    """
    counts = _earlier_genders(table).get(table.region(country) or "", {})
    if not counts:
        return None
    genders = sorted(counts)
    return rng.choices(genders, weights=[counts[g] for g in genders])[0]


@functools.lru_cache(maxsize=2)
def _earlier_genders(table: EntityTable) -> dict[str, dict[str, int]]:
    """Per region, how many of the table's people born before :data:`MODERN` are women and men."""
    found: dict[str, dict[str, int]] = {}
    for person in table.people():
        region = table.region(person.nationality)
        gender = table.gender(person.title)
        if person.born is not None and person.born < MODERN and region is not None and gender is not None:
            by_gender = found.setdefault(region, {})
            by_gender[gender] = by_gender.get(gender, 0) + 1
    return found


__all__ = ["MODERN", "TODAY", "attested", "earlier_gender"]
