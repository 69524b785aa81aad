"""First names of a person born from 1950 to 1980: attested then where the region has many.

Hand-made stocks and tables (``families.shared.name_eras``, used by ``invented``).
"""

from __future__ import annotations

import random

import pytest

from halluforge.families.shared import invented
from halluforge.families.shared.facts import read_facts
from halluforge.families.shared.invented import invented_names
from halluforge.knowledge.names import NameStock
from halluforge.knowledge.table import Entity, EntityTable

OLD_MEN = [f"Old{c}" for c in "ABCDEFGHIJKL"]
OLD_WOMEN = [f"Olda{c}" for c in "abcdefghijkl"]
NEW_MEN = [f"New{c}" for c in "ABCDEFGHIJKL"]
NEW_WOMEN = [f"Newa{c}" for c in "abcdefghijkl"]


def _names(*names: str) -> tuple[tuple[str, ...], tuple[float, ...]]:
    return tuple(names), tuple(1.0 for _ in names)


def _stock(indexed: bool = False) -> NameStock:
    return NameStock(
        "no_NO",
        first={"male": _names(*OLD_MEN, *NEW_MEN), "female": _names(*OLD_WOMEN, *NEW_WOMEN)},
        last={"any": _names("Hansen", "Berg", "Dahl")},
        indexed=indexed,
    )


def _table(born: int, men: list[str], women: list[str], nationality: str = "Norway") -> EntityTable:
    people = [
        Entity(f"{first} Vang", "person", f"skier ({born}–2020)", born=born, nationality=nationality)
        for first in [*men, *women]
    ]
    countries = {
        "Norway": {"iso2": "NO", "languages": ["no"], "region": "Europe", "subregion": "Northern Europe"},
        "Kenya": {"iso2": "KE", "languages": ["en"], "region": "Africa", "subregion": "Eastern Africa"},
    }
    return EntityTable.of(people, countries=countries, demonyms={"norwegian": "Norway"})


def _drawn(
    table: EntityTable, stock: NameStock, monkeypatch: pytest.MonkeyPatch, gold: str = "Lars Vik"
) -> tuple[set[str], str]:
    monkeypatch.setattr(invented, "stocks_of_country", lambda country, table: [stock])
    evidence = f"The Norwegian judge {gold} was born in 1963. He led the court from 2015."
    facts = read_facts(evidence, [gold], "who led the court", "person", table)
    firsts: set[str] = set()
    era = ""
    for seed in range(30):
        names, info = invented_names(facts, evidence, [gold], "who led the court", table, random.Random(seed))
        firsts |= {n.split()[0] for n in names}
        era = info.get("era", "") if names else era
    return firsts, era


def test_a_person_born_in_1963_takes_names_the_regions_people_bore_then(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Set 71 and 73's readers: "Ronaldo" for a banker born in Rome in 1963, "Joren" in 1954."""
    firsts, era = _drawn(_table(1940, OLD_MEN, OLD_WOMEN), _stock(), monkeypatch)
    assert firsts and firsts <= set(OLD_MEN) and era == "names attested before 1980"


def test_only_the_regions_names_and_only_when_they_are_many(monkeypatch: pytest.MonkeyPatch) -> None:
    """Three names of elsewhere gave a Turkish economist born in 1967 "Oliver": today's names then."""
    firsts, era = _drawn(_table(1940, OLD_MEN[:3], OLD_WOMEN[:3]), _stock(), monkeypatch)
    assert era == "names of today" and firsts & set(NEW_MEN)
    firsts, era = _drawn(_table(1940, OLD_MEN, OLD_WOMEN, nationality="Kenya"), _stock(), monkeypatch)
    assert era == "names of today" and firsts & set(NEW_MEN)


def test_the_name_index_is_already_names_of_then(monkeypatch: pytest.MonkeyPatch) -> None:
    """Its names are Wikidata's people's, not today's baby names: no narrowing after 1950."""
    # a gold name of the stock's community ("NewB Dahl"), as an indexed stock requires
    firsts, era = _drawn(_table(1940, OLD_MEN, OLD_WOMEN), _stock(indexed=True), monkeypatch, "NewB Dahl")
    assert era == "names of today" and firsts & set(NEW_MEN)
