"""Names of the countries Faker writes in Arabic script, from arabic-name-romanizer's Wikidata index.

One test reads the real index (the package is a core dependency); the rest use hand-made stocks
and tables, so each rule is seen on its own.
"""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest

from halluforge.families.shared import invented
from halluforge.families.shared.facts import read_facts
from halluforge.families.shared.invented import invented_names, person_gender
from halluforge.knowledge.names import NameStock, name_stocks, stocks_of_country, stocks_of_name
from halluforge.knowledge.romanised_names import (
    IndexNames,
    foreign_surnames,
    index_first_genders,
    index_names,
)
from halluforge.knowledge.table import EntityTable


def _names(*names: str) -> tuple[tuple[str, ...], tuple[float, ...]]:
    return tuple(names), tuple(1.0 for _ in names)


LEBANON = NameStock(
    "ar_LB",
    first={"male": _names("Walid", "Nawaf", "Wael"), "female": _names("Rima", "Zeina")},
    last={"any": _names("Haddad", "Salam", "Khoury")},
    indexed=True,
)
COUNTRIES = {
    "Lebanon": {"iso2": "LB", "languages": ["ar", "fr"], "spoken": ["ar"], "borders": ["Israel"]},
    "Israel": {"iso2": "IL", "languages": ["he", "ar"], "borders": ["Lebanon"]},
}


def test_the_index_gives_arabic_script_countries_gendered_names_in_their_own_spellings() -> None:
    """Faker writes Tunisia's and Iran's names in Arabic script only: both had no stock before."""
    stocks = name_stocks()
    tunisia, iran = stocks.get("ar_TN"), stocks.get("fa_IR")
    assert tunisia is not None and iran is not None and tunisia.indexed and iran.indexed
    # Tunisian usage writes "Mohamed" and "Fatma"; the gender comes from Faker's Arabic lists
    assert "Mohamed" in tunisia.firsts("male") and "Fatma" in tunisia.firsts("female")
    assert "Fatma" not in tunisia.firsts("male") and "Trabelsi" in tunisia.surnames
    assert "Fatemeh" in iran.firsts("female")
    # one word each, and no settler's surname ("López" is among Algeria's Wikidata people)
    assert all(" " not in name for stock in (tunisia, iran) for name in stock.surnames)
    algeria = stocks.get("ar_DZ")
    assert algeria is not None and "López" not in algeria.surnames


def test_a_surname_of_another_communitys_stock_is_foreign_unless_three_countries_share_it() -> None:
    """'López' of a Spanish stock among Algeria's people is a settler's; 'Hassan', listed by a
    Swedish stock too, is the index's own when three of its countries list it."""
    index = {
        f"ar_{code}": IndexNames(
            first={"male": Counter({"Mohamed": 5, "Ali": 3}), "female": Counter({"Amina": 2})},
            last=Counter({"Hassan": 1, **({"López": 1} if code == "DZ" else {})}),
        )
        for code in ("DZ", "EG", "SY")
    }
    spanish = NameStock(
        "es_ES", first={"male": _names("Pablo"), "female": _names("Lucía")}, last={"any": _names("López")}
    )
    swedish = NameStock(
        "sv_SE", first={"male": _names("Erik"), "female": _names("Anna")}, last={"any": _names("Hassan")}
    )
    # a stock whose first names are mostly the index's is its community: its surnames stay
    algerian = NameStock(
        "fr_DZ",
        first={"male": _names("Mohamed", "Ali"), "female": _names("Amina")},
        last={"any": _names("López")},
    )
    assert foreign_surnames(index, [spanish, swedish]) == {"López"}
    assert foreign_surnames(index, [algerian]) == frozenset()


def test_an_indexed_stock_is_never_lent_to_a_neighbour() -> None:
    """Arabic is official in Israel too: Lebanon's Wikidata names would clash with Israel's people."""
    table = EntityTable.of([], countries=COUNTRIES)
    stocks = {"ar_LB": LEBANON}
    assert stocks_of_country("Lebanon", table, stocks) == [LEBANON]
    assert stocks_of_country("Israel", table, stocks) == []
    lent = NameStock("ar_LB", first=LEBANON.first, last=LEBANON.last)  # a Faker stock would be
    assert stocks_of_country("Israel", table, {"ar_LB": lent}) == [lent]


def test_an_indexed_stock_stands_only_for_a_name_of_its_community() -> None:
    """It must list a word of the name, and a first name it lacks must not be Faker's: "Joseph
    Aoun" (Joseph in Faker's English stocks) is another community's; one word or a patronymic
    particle is none of its."""
    assert stocks_of_name([LEBANON], "Nawaf Salam") == [LEBANON]
    assert stocks_of_name([LEBANON], "Ghassan Salam") == [LEBANON]  # a first name Faker lacks
    assert stocks_of_name([LEBANON], "Joseph Haddad") == []
    assert stocks_of_name([LEBANON], "Hervé Renard") == []
    assert stocks_of_name([LEBANON], "Imhotep") == []
    assert stocks_of_name([LEBANON], "Walid bin Salam") == []


def test_a_given_name_the_index_cannot_gender_still_tells_the_community() -> None:
    """Faker's Arabic lists lack "Hicham", which 87 of Morocco's Wikidata people bear: the runner
    Hicham El Guerrouj was skipped (set 74). An ungendered given name is the country's own when
    at most one Faker stock lists it (``fr_BE``'s emigrants), never drawn; "Joseph", of nineteen
    Faker stocks, stays another community's."""
    morocco = NameStock(
        "ar_MA",
        first={"male": _names("Youssef", "Rachid"), "female": _names("Khadija", "Zineb")},
        last={"any": _names("Benani", "Alaoui")},
        indexed=True,
        given=frozenset({"Youssef", "Rachid", "Khadija", "Zineb", "Hicham", "Hassiba", "Joseph"}),
    )
    assert stocks_of_name([morocco], "Hicham El Guerrouj") == [morocco]
    assert stocks_of_name([morocco], "Hassiba Boulmerka") == [morocco]  # in no Faker stock
    assert stocks_of_name([morocco], "Joseph Guerrouj") == []
    assert stocks_of_name([morocco], "Karim Guerrouj") == []  # listed nowhere in the country
    assert "Hicham" not in morocco.firsts("male") + morocco.firsts("female")
    real = name_stocks().get("ar_MA")
    assert real is not None and "Hicham" in real.given and "Hicham" not in real.firsts("male")


def test_the_skip_names_the_community_when_the_index_holds_none_of_the_name() -> None:
    table = EntityTable.of([], countries=COUNTRIES, demonyms={"lebanese": "Lebanon"})
    evidence = "Joseph Haddad, a Lebanese army commander, was elected president in 2025. He took office."
    gold, question = ["Joseph Haddad"], "who was elected president of lebanon"
    facts = read_facts(evidence, gold, question, "person", table)
    names, info = invented_names(facts, evidence, gold, question, table, random.Random(0))
    assert names == [] and "Lebanon" in info["invented"] and "community" in info["invented"]


def test_an_invented_name_never_repeats_a_word(monkeypatch: pytest.MonkeyPatch) -> None:
    """Patronymic surnames are given names too: "Muhammad Muhammad" read as a placeholder (set 68)."""
    stock = NameStock(
        "ar_LB",
        first={"male": _names("Muhammad", "Walid"), "female": _names("Rima", "Zeina")},
        last={"any": _names("Muhammad", "Haddad")},
    )
    monkeypatch.setattr(invented, "stocks_of_country", lambda country, table: [stock])
    table = EntityTable.of([], countries=COUNTRIES, demonyms={"lebanese": "Lebanon"})
    evidence = "Nawaf Salam, a Lebanese judge, was named prime minister in 2025. He took office."
    gold, question = ["Nawaf Salam"], "who was named prime minister of lebanon"
    facts = read_facts(evidence, gold, question, "person", table)
    drawn = set()
    for seed in range(20):
        names, _ = invented_names(facts, evidence, gold, question, table, random.Random(seed))
        drawn.update(names)
    assert drawn and "Muhammad Muhammad" not in drawn


def test_the_index_names_are_cached_and_read_back_unchanged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The second process reads the cached file; a damaged file is read again from the index."""
    monkeypatch.setenv("HALLUFORGE_CACHE_DIR", str(tmp_path))
    first = index_names()
    files = list((tmp_path / "knowledge").glob("index-names-*.json"))
    assert first and len(files) == 1
    again = index_names()
    assert {k: (v.first, v.last) for k, v in again.items()} == {
        k: (v.first, v.last) for k, v in first.items()
    }
    files[0].write_text("{not json", encoding="utf-8")
    assert index_names().keys() == first.keys()


def test_a_first_name_only_the_index_genders_gives_the_gender_of_a_silent_passage() -> None:
    """Set 79's Saudi chairman "Yasir Al-Rumayyan": no gendered word in the passage and no
    "Yasir" in Faker's Latin lists, so a woman's name ("Aseel") could be drawn."""
    assert index_first_genders()["yasir"] == "male" and "alaa" not in index_first_genders()
    table = EntityTable.of([], countries=COUNTRIES)
    evidence = "Yasir Haddad was named chairman of the club in 2021. The deal was worth 305 million."
    facts = read_facts(evidence, ["Yasir Haddad"], "who was named chairman", "person", table)
    assert facts.cues == (0, 0) and person_gender(facts, ["Yasir Haddad"], table) == "male"
