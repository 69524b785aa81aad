"""Invented people: a name of the passage's nationality and gender, never a real person's.

Hand-made name stocks and tables, so each rule is seen on its own; one test reads Faker's real
lists (Faker is a core dependency).
"""

from __future__ import annotations

import random

import pytest

from halluforge.families.shared.facts import men_only, read_facts
from halluforge.families.shared.invented import (
    former_state,
    home_country,
    invented_names,
    person_era,
    person_gender,
    titled,
)
from halluforge.families.shared.mentions import age_birth, passage_pronouns
from halluforge.families.shared.nationality import countries_named, described_country
from halluforge.knowledge.names import (
    NameStock,
    borrowable,
    community_firsts,
    invent_person,
    name_origin,
    name_stocks,
    stocks_of_country,
    stocks_of_name,
)
from halluforge.knowledge.table import Entity, EntityTable


def _names(*names: str) -> tuple[tuple[str, ...], tuple[float, ...]]:
    return tuple(names), tuple(1.0 for _ in names)


NORWAY = NameStock(
    "no_NO",
    first={"male": _names("Ola", "Per"), "female": _names("Kari", "Ingrid")},
    last={"any": _names("Hansen", "Berg")},
)
KENYA = NameStock(
    "en_KE",
    first={"male": _names("Otieno"), "female": _names("Akinyi")},
    last={"any": _names("Mwangi", "Kiprop")},
)
COUNTRIES = {
    "Norway": {"region": "Europe", "iso2": "NO", "languages": ["no"]},
    "Kenya": {"region": "Africa", "subregion": "Sub-Saharan Africa", "iso2": "KE", "languages": ["en", "sw"]},
    "Uganda": {"region": "Africa", "iso2": "UG", "languages": ["en", "sw"], "borders": ["Kenya"]},
    "Zambia": {"region": "Africa", "subregion": "Sub-Saharan Africa", "iso2": "ZM", "languages": ["en"]},
    "Ethiopia": {
        "region": "Africa",
        "iso2": "ET",
        "languages": ["am"],
        "spoken": ["en"],
        "borders": ["Kenya"],
    },
    "Ghana": {"region": "Africa", "iso2": "GH", "languages": ["en"], "spoken": ["tw"]},
    "Russia": {"region": "Europe", "iso2": "RU", "languages": ["ru"]},
}


def _table(*entities: Entity) -> EntityTable:
    cities = [Entity("Bergen", "place", place_type="city", country="Norway")]
    return EntityTable.of(
        [*entities, *cities],
        countries=COUNTRIES,
        demonyms={"norwegian": "Norway", "kenyan": "Kenya", "swedish": "Sweden"},
        first_names={"kari": "female", "ola": "male"},
    )


def _home(table: EntityTable, evidence: str, gold: list[str], question: str) -> tuple[str | None, str]:
    """The names' country of a person answer, read as the invented names read it."""
    return home_country(
        read_facts(evidence, gold, question, "person", table), evidence, gold, question, table
    )


def test_a_country_counted_once_needs_a_name_its_stocks_know() -> None:
    """One mention of Honduras made Pat Gelsinger Honduran (set 19, in-sample); a name the
    country's stocks list keeps the country (Argentina here, which has a stock of its own)."""
    countries = {"Argentina": {"region": "Americas", "iso2": "AR", "languages": ["es"]}}
    table = EntityTable.of([], countries=countries)
    text = "{} became chief executive in 2021. The firm opened a plant in Argentina."
    reason = _home(table, text.format("Pat Gelsinger"), ["Pat Gelsinger"], "who became ceo")
    assert reason[0] is None and "one mention of Argentina" in reason[1]
    assert _home(table, text.format("Juan Martínez"), ["Juan Martínez"], "who became ceo")[0] == "Argentina"
    # and the skip says so
    evidence = text.format("Pat Gelsinger")
    facts = read_facts(evidence, ["Pat Gelsinger"], "who became ceo", "person", table)
    names, info = invented_names(
        facts, evidence, ["Pat Gelsinger"], "who became ceo", table, random.Random(0)
    )
    assert names == [] and "one mention of Argentina" in info["invented"]


def test_a_country_takes_its_own_locale_else_a_neighbours_else_its_subregions() -> None:
    """Own locale (in any language spoken there), a neighbour's in an official language, the subregion's."""
    twi = NameStock("tw_GH", first=KENYA.first, last=NORWAY.last)
    stocks = {"no_NO": NORWAY, "en_KE": KENYA, "tw_GH": twi}
    table = _table()
    assert stocks_of_country("Norway", table, stocks) == [NORWAY]
    assert stocks_of_country("Ghana", table, stocks) == [twi]  # its own Twi names, not Kenya's English
    assert stocks_of_country("Uganda", table, stocks) == [KENYA]  # a neighbour, English official in both
    assert stocks_of_country("Zambia", table, stocks) == [KENYA]  # English in its subregion
    # a neighbour whose language is only a lingua franca here, and a region alone, give nothing
    assert stocks_of_country("Ethiopia", table, stocks) == []
    assert stocks_of_country("Russia", table, stocks) == []  # no Latin-script names: nothing
    # a locale of its own in a second language, and its first language's next door: English wins
    french = NameStock("fr_CA", first=NORWAY.first, last=NORWAY.last)
    american = NameStock("en_US", first=KENYA.first, last=KENYA.last)
    countries = {
        "Canada": {"iso2": "CA", "languages": ["en", "fr"], "borders": ["United States"]},
        "United States": {"iso2": "US", "languages": ["en"]},
    }
    north = EntityTable.of([], countries=countries)
    both = stocks_of_country("Canada", north, {"fr_CA": french, "en_US": american})
    assert stocks_of_name(both, "") == [american]
    # the gold name may choose the community first: a Montrealer's name is French (set 47's
    # "Valérie Plante" became "Lori Lee"), else the English stock stays
    assert stocks_of_name(both, "Kari Berg") == [french]
    assert stocks_of_name(both, "Otieno Mwangi") == [american]
    assert stocks_of_name(both, "Zork Quibble") == [american]


def test_the_home_country_comes_from_a_demonym_a_birthplace_or_the_question() -> None:
    table = _table()
    gold = ["Kari Lunde"]
    evidence = (
        "The prize went to Kari Lunde. Born in Bergen, she writes plays. "
        "The Swedish Academy praised her prose."
    )
    facts = read_facts(evidence, gold, "who won the prize", "person:writer", table)
    # "Swedish Academy": a demonym before a name speaks of an institution, not of her
    assert home_country(facts, evidence, gold, "who won the prize", table) == ("Norway", "passage")
    facts = read_facts("Ola Dahl ran fastest.", ["Ola Dahl"], "which kenyan ran fastest", "person", table)
    assert home_country(facts, "Ola Dahl ran fastest.", ["Ola Dahl"], "which kenyan ran fastest", table) == (
        "Kenya",
        "passage",
    )
    # else the name's own stock: "Ola Dahl" is listed by Faker's Norwegian names
    alone = read_facts("Ola Dahl ran fastest.", ["Ola Dahl"], "who ran", "person", table)
    assert home_country(alone, "Ola Dahl ran fastest.", ["Ola Dahl"], "who ran", table) == ("Norway", "name")
    nothing = read_facts("Zork Quibble ran.", ["Zork Quibble"], "who ran", "person", table)
    assert home_country(nothing, "Zork Quibble ran.", ["Zork Quibble"], "who ran", table) == (None, "unknown")


def test_a_country_the_passage_names_wins_a_tie_with_a_towns_country() -> None:
    """ "Commanded at Bergen" (a town of Norway) beside "the Republic of Kenya": Kenya, as named."""
    table = _table()
    gold = ["Daniel Mwangi"]
    evidence = "The Republic of Kenya was led by Daniel Mwangi, an officer who had commanded at Bergen."
    assert _home(table, evidence, gold, "who led it") == ("Kenya", "passage")


def test_gender_follows_a_clear_majority_of_the_words_about_the_answer() -> None:
    table = _table()
    evidence = "Kari Lunde was the first woman admitted. She trained with her father."
    gold = ["Kari Lunde"]
    facts = read_facts(evidence, gold, "who was admitted", "person", table)
    assert facts.gender is None  # "father" is a male word, so the context alone is not one-sided
    assert person_gender(facts, gold, table) == "female"


def test_invented_names_fit_country_and_gender_and_are_no_real_person() -> None:
    real = Entity("Per Hansen", "person", "Norwegian skier (born 1950)", born=1950, gender="male")
    table = _table(real)
    evidence = "The Norwegian playwright Ola Dahl won in 2023. He lives in Bergen."
    gold = ["Ola Dahl"]
    facts = read_facts(evidence, gold, "who won", "person:writer", table)
    import halluforge.knowledge.names as names

    original = names.name_stocks
    names.name_stocks.cache_clear()
    try:
        names.name_stocks = lambda: {"no_NO": NORWAY, "en_KE": KENYA}  # type: ignore[assignment]
        found, info = invented_names(facts, evidence, gold, "who won", table, random.Random(3))
    finally:
        names.name_stocks = original  # type: ignore[assignment]
    assert info == {"country": "Norway", "country_from": "demonym", "gender": "male"}
    assert found and all(n.split()[0] == "Per" or n.split()[0] == "Ola" for n in found)
    assert "Per Hansen" not in found  # a real person of the table is drawn again
    assert not any("Ola" in n for n in found)  # a word the passage holds is drawn again


def _invent_with(
    stock: NameStock, table: EntityTable, evidence: str, gold: str, seed: int = 0
) -> tuple[list[str], dict[str, str]]:
    import halluforge.knowledge.names as names

    facts = read_facts(evidence, [gold], "who wrote songs", "person", table)
    original = names.name_stocks
    try:
        names.name_stocks = lambda: {stock.locale: stock}  # type: ignore[assignment]
        return invented_names(facts, evidence, [gold], "who wrote songs", table, random.Random(seed))
    finally:
        names.name_stocks = original  # type: ignore[assignment]


def test_an_earlier_person_takes_first_names_attested_in_the_table_then() -> None:
    """A composer of 1850 gets a first name the table's earlier people of the region bore, not "Noah"."""
    earlier = [
        ("Ola", 1801),
        ("Per", 1802),
        ("Anders", 1803),
        ("Kari", 1804),
        ("Ingrid", 1805),
        ("Sigrid", 1806),
    ]
    people = [
        Entity(f"{first} Vang", "person", f"Norwegian skier ({born}–1900)", born=born, nationality="Norway")
        for first, born in earlier
    ]
    stock = NameStock(
        "no_NO",
        first={
            "male": _names("Ola", "Per", "Anders", "Noah"),
            "female": _names("Kari", "Ingrid", "Sigrid", "Emma"),
        },
        last={"any": _names("Hansen", "Berg", "Dahl")},
    )
    evidence = "The Norwegian composer Lars Vik was born in 1850. He wrote songs."
    found, info = _invent_with(stock, _table(*people), evidence, "Lars Vik")
    assert info["era"] == "names attested before 1950" and found
    assert {n.split()[0] for n in found} <= {"Ola", "Per", "Anders"}
    # with too few attested names (here none), today's names rather than no name at all
    found, info = _invent_with(stock, _table(), evidence, "Lars Vik")
    assert info["era"] == "names of today" and found
    # too few in the region, enough anywhere: the earlier people of other countries' names
    kenyans = [
        Entity(f"{first} Vang", "person", f"Kenyan runner ({born}–1900)", born=born, nationality="Kenya")
        for first, born in earlier
    ]
    found, info = _invent_with(stock, _table(*kenyans), evidence, "Lars Vik")
    assert info["era"] == "names attested before 1950"
    assert found and {n.split()[0] for n in found} <= {"Ola", "Per", "Anders"}


def test_a_person_of_an_earlier_century_takes_names_attested_nearer_their_time() -> None:
    """Set 58 (in-sample, both readers strict): "Arturo" for a conquistador born about 1500."""
    earlier = [
        ("Ola", 1601),
        ("Per", 1602),
        ("Anders", 1603),
        ("Kari", 1604),
        ("Ingrid", 1605),
        ("Sigrid", 1606),
    ]
    later = [("Noah", 1890), ("Emma", 1891), ("Lucas", 1892), ("Nora", 1893)]
    people = [
        Entity(f"{first} Vang", "person", f"Norwegian skier ({born}–1700)", born=born, nationality="Norway")
        for first, born in [*earlier, *later]
    ]
    stock = NameStock(
        "no_NO",
        first={
            "male": _names("Ola", "Per", "Anders", "Noah", "Lucas"),
            "female": _names("Kari", "Ingrid", "Sigrid", "Emma", "Nora"),
        },
        last={"any": _names("Hansen", "Berg", "Dahl")},
    )
    evidence = "The Norwegian composer Lars Vik was born in 1620. He wrote songs."
    found, info = _invent_with(stock, _table(*people), evidence, "Lars Vik")
    assert info["era"] == "names attested before 1700" and found  # the era whose names were drawn
    assert {n.split()[0] for n in found} <= {"Ola", "Per", "Anders"}
    # a composer of 1880 may take the later names too
    later_evidence = evidence.replace("1620", "1880")
    drawn = {
        name.split()[0]
        for seed in range(30)
        for name in _invent_with(stock, _table(*people), later_evidence, "Lars Vik", seed)[0]
    }
    assert {"Noah", "Lucas"} & drawn


def test_no_nationality_means_nothing_is_invented() -> None:
    table = _table()
    found, info = invented_names(
        read_facts("Zork Quibble won.", ["Zork Quibble"], "who won", "person", table),
        "Zork Quibble won.",
        ["Zork Quibble"],
        "who won",
        table,
        random.Random(0),
    )
    assert found == [] and "no nationality" in info["invented"]


def test_faker_stocks_are_latin_script_and_gendered() -> None:
    stocks = name_stocks()
    assert {"no_NO", "en_KE", "ja_JP", "pl_PL", "ru_RU"} <= set(stocks)
    assert "ar_AA" not in stocks and "ko_KR" not in stocks and "es" not in stocks  # abjad, Hangul; no country
    # Cyrillic names come transliterated (anyascii), a soft sign's apostrophe left out
    russian = stocks["ru_RU"]
    assert "Ivanova" in russian.last["female"][0] and all(n.isascii() for n in russian.first["female"][0])
    assert not any("'" in n for n in russian.first["female"][0])
    # Georgian has no capitals: its names come capitalised as English texts write them
    georgian = stocks["ka_GE"]
    assert "Abashidze" in georgian.surnames and all(n[:1].isupper() for n in georgian.first["male"][0])
    name, locale = invent_person([stocks["ja_JP"]], "female", random.Random(1)) or ("", "")
    assert locale == "ja_JP" and name.isascii() and len(name.split()) == 2
    assert name_origin("Wang Wei") == [stocks["zh_CN"]]  # the surname first, both listed
    assert name_origin("Zzyx Qwerty") == []
    # a name a stock lists for both genders stays only under the one it leans to: es_ES lists
    # "José" among women too, and set 83's Francina Armengol became "José Tur" beside "she"
    spanish, swedish = stocks["es_ES"], stocks["sv_SE"]
    assert "José" in spanish.firsts("male") and "José" not in spanish.firsts("female")
    assert "Ahmed" not in swedish.firsts("female") and "Kim" in swedish.firsts("female")


def test_a_place_after_a_placing_word_counts_for_the_home_country() -> None:
    """ "a pianist from Las Vegas": the two-word city the table places gives the country."""
    vegas = Entity(
        "Las Vegas", "place", "City in Nevada, United States", place_type="city", country="United States"
    )
    table = _table(vegas)
    evidence = "John Quibble won the award. The pianist from Las Vegas played twice in Las Vegas."
    facts = read_facts(evidence, ["John Quibble"], "who won", "person", table)
    assert home_country(facts, evidence, ["John Quibble"], "who won", table) == ("United States", "passage")


def test_an_invented_woman_with_a_name_no_table_knows_passes_the_gender_check() -> None:
    """A transliterated Bulgarian first name is unknown to the first-name table, yet it was drawn
    as a woman's: the woman's role the context gives does not refuse it."""
    from halluforge.families.shared.wrong_answer import WrongAnswer

    wrong = WrongAnswer()
    evidence = "The Bulgarian economist Kristalina Georgieva took office in 2019. She led the fund."
    gold = ["Kristalina Georgieva", "Georgieva"]
    reason = wrong.implausible("Ruzhka Mustakova", gold, "person", evidence, question="who", invented=True)
    assert reason is None
    # the same name as a real donor: an unknown name in a woman's role is refused
    assert wrong.implausible("Ruzhka Mustakova", gold, "person", evidence, question="who") is not None


def test_a_country_with_an_english_locale_takes_it_and_a_misspelt_proposal_is_refused() -> None:
    """Ireland's names come from en_IE, not ga_IE's Irish spellings; "Nihon Hidakyo" is no
    other organisation than "Nihon Hidankyo"."""
    from halluforge.families.shared.wrong_answer import WrongAnswer

    irish = NameStock("ga_IE", first=NORWAY.first, last=NORWAY.last)
    english = NameStock("en_IE", first=KENYA.first, last=KENYA.last)
    countries = {"Ireland": {"region": "Europe", "iso2": "IE", "languages": ["ga", "en"]}}
    table = EntityTable.of([], countries=countries)
    # names as English texts write them: Ireland's en_IE rather than ga_IE's Irish spellings
    assert stocks_of_name(stocks_of_country("Ireland", table, {"ga_IE": irish, "en_IE": english}), "") == [
        english
    ]
    wrong = WrongAnswer(knowledge=False)
    gold = ["Nihon Hidankyo"]
    reason = wrong.reject_answer("Nihon Hidakyo", gold, "other", "which group won", "Nihon Hidankyo won.")
    assert reason is not None and "misspelling" in reason


def test_a_truth_value_is_no_proposal() -> None:
    """ "False" for the opera Aida (a 135M generator's reply, blind-read as junk) is refused."""
    from halluforge.families.shared.wrong_answer import WrongAnswer

    wrong = WrongAnswer(knowledge=False)
    reason = wrong.reject_answer("False", ["Aida"], "other", "which opera", "Aida opened.")
    assert reason is not None and "not an answer" in reason


def test_a_demonym_of_no_known_country_gives_no_home_country() -> None:
    """ "the Flemish artist" is said but maps to no country: no guess from London further on."""
    countries = {
        "United Kingdom": {"region": "Europe", "iso2": "GB", "languages": ["en"]},
        "Belgium": {"region": "Europe", "iso2": "BE", "languages": ["nl", "fr"]},
    }
    painters = [Entity(f"Jan Peeters {i}", "person", "Flemish painter") for i in range(2)]
    ghent = Entity("Ghent", "place", place_type="city", country="Belgium")
    table = EntityTable.of([*painters, ghent], countries=countries)
    # two descriptions open with "Flemish": a nationality word, with no country behind it
    text = "The panel is by the Flemish artist Joos Smet. A museum in the United Kingdom bought the panel."
    facts = read_facts(text, ["Joos Smet"], "who painted it", "person:painter", table)
    assert facts.demonym_words == ("Flemish",) and facts.demonym_country is None
    country, why = home_country(facts, text, ["Joos Smet"], "who painted it", table)
    assert country is None and "'Flemish'" in why
    # where the sentences about him name a country ("born in ..."), that one is taken
    born = "By the Flemish artist Joos Smet, born in Ghent. A museum in the United Kingdom bought it."
    facts = read_facts(born, ["Joos Smet"], "who painted it", "person:painter", table)
    assert home_country(facts, born, ["Joos Smet"], "who painted it", table) == ("Belgium", "passage")


def test_a_communitys_stock_under_a_lingua_franca_is_not_lent_to_another_country() -> None:
    """Kenya's names are Kenyan, not English: with English stocks that share their surnames
    beside it, Uganda (a neighbour) and Zambia (the subregion) get none of Kenya's; New
    Zealand's English names still stand for Australia's, and Kenya keeps its own."""
    britain = NameStock("en_GB", first=NORWAY.first, last={"any": _names("Smith", "Jones", "Brown")})
    zealand = NameStock("en_NZ", first=NORWAY.first, last={"any": _names("Smith", "Jones", "Tui")})
    stocks = {"en_KE": KENYA, "en_GB": britain, "en_NZ": zealand}
    countries = {
        **COUNTRIES,
        "New Zealand": {"subregion": "Australia and New Zealand", "iso2": "NZ", "languages": ["en"]},
        "Australia": {"subregion": "Australia and New Zealand", "iso2": "AU", "languages": ["en"]},
    }
    table = EntityTable.of([], countries=countries)
    assert stocks_of_country("Uganda", table, stocks) == []
    assert stocks_of_country("Zambia", table, stocks) == []
    assert stocks_of_country("Kenya", table, stocks) == [KENYA]
    assert stocks_of_country("Australia", table, stocks) == [zealand]
    assert borrowable(zealand, stocks) and not borrowable(KENYA, stocks)


def test_a_person_of_a_former_state_gets_no_modern_countrys_name() -> None:
    """ "A Soviet cosmonaut" beside "the United States", the last queen of "the Kingdom of
    Hawaii" (no country today) and a king of "the Joseon dynasty" get no invented name and say
    why; "the Kingdom of Norway" is a living country's and gives Norway."""
    union = Entity("Soviet Union", "place", "Country in Eurasia from 1922 to 1991")
    table = EntityTable.of(
        [union, Entity("Hawaii", "place", "U.S. state", country="United States")],
        countries={**COUNTRIES, "United States": {"iso2": "US", "languages": ["en"]}},
        demonyms={"norwegian": "Norway", "american": "United States"},
    )
    assert former_state(["The Soviet cosmonaut flew."], table) == "Soviet Union"
    assert former_state(["She ruled the Kingdom of Hawaii."], table) == "Kingdom of Hawaii"
    assert former_state(["He was king in the Joseon dynasty."], table) == "Joseon dynasty"
    assert former_state(["She was queen of the Kingdom of Norway."], table) is None
    assert former_state(["The Soviet Union Cup was held."], table) == "Soviet Union"
    # the adjective as a noun before a clause names a person, not the state (set 79's "a
    # practising Sikh who wears a turban")
    assert former_state(["A practising Soviet who wears a badge, he won."], table) is None
    # a state that had ended before every year of the sentences is no one's home there (set 87's
    # ISRO project director: "after the Soviet Union, the United States and China")
    landed = ["She led the 2019 mission.", "It landed in 2023, after the Soviet Union and China had."]
    assert former_state(landed, table) is None
    assert former_state([*landed, "She was born in 1962."], table) == "Soviet Union"
    gold = ["Ola Dahl"]
    evidence = (
        "Ola Dahl, a Soviet cosmonaut, walked in space in 1965. "
        "Dahl later flew a joint mission with the United States."
    )
    facts = read_facts(evidence, gold, "who walked in space", "person", table)
    country, why = home_country(facts, evidence, gold, "who walked in space", table)
    assert country is None and "former state (Soviet Union)" in why
    found, info = invented_names(facts, evidence, gold, "who walked in space", table, random.Random(0))
    assert found == [] and "Soviet Union" in info["invented"]
    norway = "Ola Dahl was crowned in the Kingdom of Norway in 1957."
    facts = read_facts(norway, gold, "who was crowned", "person", table)
    assert home_country(facts, norway, gold, "who was crowned", table) == ("Norway", "passage")


def test_faker_surnames_are_capitalised_as_english_writes_them() -> None:
    """Faker lists "Mcdonald"; a passage writes "McDonald" (set 36's readers saw the former as a typo)."""
    american = name_stocks()["en_US"]
    assert "McDonald" in american.surnames
    assert not any(name.startswith("Mc") and name[2:3].islower() for name in american.surnames)


def test_a_peers_title_takes_the_new_surname_and_a_knights_the_full_name() -> None:
    """ "Lord Reed of Allermuir" becomes "Lord Allen of Allermuir", never "Phillip Allen of Allermuir"."""
    assert titled("Lord Reed of Allermuir", "Phillip Allen") == "Lord Allen of Allermuir"
    assert titled("Lord Reed", "Phillip Allen") == "Lord Allen"
    assert titled("Baroness Hale", "Wang Li", family_first=True) == "Baroness Wang"
    assert titled("Sir Ernest Shackleton", "Samuel Doyle") == "Sir Samuel Doyle"
    assert titled("Ernest Shackleton", "Samuel Doyle") == "Samuel Doyle"


def test_a_demonym_before_an_occupation_outweighs_one_before_a_thing() -> None:
    """ "the Italian executive" of "the French carmaker": an Italian name, by the person's demonym."""
    countries = {
        "Italy": {"region": "Europe", "iso2": "IT", "languages": ["it"]},
        "France": {"region": "Europe", "iso2": "FR", "languages": ["fr"]},
    }
    executive = Entity("Ada Conti", "person", "Italian business executive", occupations=("executive",))
    table = EntityTable.of(
        [executive], countries=countries, demonyms={"italian": "Italy", "french": "France"}
    )
    gold = ["Luca Moro"]
    evidence = (
        "Luca Moro became chief executive of the French carmaker Vireo in July 2020. The French "
        "company had lost money in France for two years. The Italian executive had run a French brand."
    )
    assert _home(table, evidence, gold, "who became chief executive of vireo") == (
        "Italy",
        "passage",
    )


def test_a_demonym_as_subject_names_the_person_and_one_before_a_name_does_not() -> None:
    """Set 49: "The South Korean had been appointed" (he coached Indonesia) and "married to the
    American journalist and historian Anne Applebaum" (a Pole born in Bydgoszcz)."""
    countries = {
        "Indonesia": {"region": "Asia", "iso2": "ID"},
        "South Korea": {"region": "Asia", "iso2": "KR"},
        "Poland": {"region": "Europe", "iso2": "PL"},
        "United States": {"region": "Americas", "iso2": "US"},
        "United Kingdom": {"region": "Europe", "iso2": "GB"},
    }
    journalist = Entity("Ada Vale", "person", "American journalist", occupations=("journalist",))
    demonyms = {"south korean": "South Korea", "american": "United States", "british": "United Kingdom"}
    table = EntityTable.of([journalist], countries=countries, demonyms=demonyms)
    coach = (
        "Kim Dae-ho was dismissed as head coach of the Indonesia national team in January 2025. "
        "The South Korean had been appointed in 2019 and took Indonesia to the Asian Cup."
    )
    assert _home(table, coach, ["Kim Dae-ho"], "who was sacked as indonesia coach") == (
        "South Korea",
        "passage",
    )
    # "The British had" is the people, not one person
    people = coach.replace("The South Korean had", "The British had")
    assert described_country(people, table) is None
    minister = (
        "Jan Nowak became Poland's foreign minister in December 2023. He is married to the "
        "American journalist and historian Ada Vale."
    )
    assert _home(table, minister, ["Jan Nowak"], "who became poland's foreign minister") == (
        "Poland",
        "passage",
    )


def test_a_persons_era_is_their_birth_else_a_generation_before_their_deeds() -> None:
    table = _table()
    gold = ["Kari Lunde"]
    # the year in a later sentence about her, not the answer's own
    deeds = "Kari Lunde was a zoologist. She founded the research centre in 1967 and wrote a book in 1983."
    facts = read_facts(deeds, gold, "who founded it", "person", table)
    assert person_era(facts) == 1967 - 25  # names attested before 1950, not today's
    born = "Kari Lunde, born in 1972, founded the research centre in 1967."
    assert person_era(read_facts(born, gold, "who founded it", "person", table)) == 1972


def test_a_demonym_of_two_words_names_its_country() -> None:
    """ "a South African singer": South Africa, not the United States she worked in."""
    countries = {"South Africa": {"iso2": "ZA"}, "United States": {"iso2": "US"}}
    table = EntityTable.of(
        [], countries=countries, demonyms={"south african": "South Africa", "american": "United States"}
    )
    text = "Mira Dube was a South African singer. In the United States she worked with a band."
    assert ("South Africa", 2) in countries_named(text, table)
    facts = read_facts(text, ["Mira Dube"], "which south african singer recorded it", "person", table)
    assert (
        home_country(facts, text, ["Mira Dube"], "which south african singer recorded it", table)[0]
        == "South Africa"
    )


def test_a_birthplace_outweighs_the_firm_and_a_role_of_the_question_names_the_country() -> None:
    """ "Born in Sweden ... the first from outside Germany to lead the German group": Swedish,
    since "the German group" is a body, not the person; "president of kenya" counts for Kenya over
    an office "at Bergen"."""
    countries = {
        **COUNTRIES,
        "Sweden": {"region": "Europe", "iso2": "SE", "languages": ["sv"]},
        "Germany": {"region": "Europe", "iso2": "DE", "languages": ["de"]},
    }
    executive = Entity("Ada Krug", "person", "German business executive", occupations=("executive", "group"))
    table = EntityTable.of(
        [executive, Entity("Bergen", "place", place_type="city", country="Norway")],
        countries=countries,
        demonyms={"german": "Germany", "swedish": "Sweden", "kenyan": "Kenya"},
    )
    gold = ["Ola Berg"]
    evidence = (
        "Ola Berg became chairman of Vireo AG in May 2019, succeeding Max Adler, who had led the "
        "German group since 2006. Born in Sweden in 1969, Berg was the first person from outside "
        "Germany to lead the company."
    )
    assert _home(table, evidence, gold, "who became chairman of vireo") == ("Sweden", "passage")
    gold = ["Joseph Kamau"]
    evidence = "Joseph Kamau was sworn in as president. He had served as director of an office at Bergen."
    question = "who became president of kenya in 2019"
    facts = read_facts(evidence, gold, question, "person", table)
    assert home_country(facts, evidence, gold, question, table) == ("Kenya", "passage")


def test_a_mens_team_or_event_makes_a_silent_person_a_man() -> None:
    """The manager of "the second English men's team to win all three trophies", with no pronoun
    near him, takes a man's name; a women's team says nothing, nor a passage with both."""
    table = _table()
    evidence = (
        "Vireo became only the second men's team to win all three trophies. It was a third "
        "title for the Norwegian manager Ola Dahl, hired in 2016."
    )
    assert men_only(evidence) == "male"
    assert men_only("The women's team won. Kari Lunde was the coach.") is None
    # a football club competition or national team is a men's unless called a women's (set 87)
    assert men_only("The club won the CAF Champions League under coach Pitso Dahl.") == "male"
    assert men_only("Dahl once coached the South Africa national team.") == "male"
    assert men_only("The club won the UEFA Women's Champions League under Kari Dahl.") is None
    assert men_only("Both the men's and the women's teams won under Ola Dahl.") is None
    found, info = _invent_with(NORWAY, table, evidence, "Ola Dahl")
    assert info["gender"] == "male" and found
    assert all(name.split()[0] in NORWAY.firsts("male") for name in found)


def test_a_country_within_a_state_and_a_demonym_born_birthplace_name_the_home() -> None:
    """ "Southgate managed England" is British although the passage also says "in Russia"
    (set 45: "Ruben Arkhipov" was England's manager), and "The English-born coach had taken
    charge of Canada" is English, not Canadian (set 45: in-sample, found after forging)."""
    countries = {
        **COUNTRIES,
        "United Kingdom": {"region": "Europe", "iso2": "GB", "languages": ["en"]},
        "Russia": {"region": "Europe", "iso2": "RU", "languages": ["ru"]},
        "Canada": {"region": "Americas", "iso2": "CA", "languages": ["en", "fr"]},
    }
    england = Entity("England", "place", "Country within the United Kingdom", country="United Kingdom")
    table = EntityTable.of(
        [england, Entity("Moscow", "place", place_type="city", country="Russia")],
        countries=countries,
        demonyms={"english": "United Kingdom", "russian": "Russia", "canadian": "Canada"},
    )
    gold = ["Tom Hale"]
    evidence = (
        "Tom Hale managed England at the tournament. Hale, a former England defender, had led "
        "the side to the semi-finals in Russia."
    )
    assert _home(table, evidence, gold, "who managed the team") == ("United Kingdom", "passage")
    # a country within a state is counted only as that state: "England Rugby" is part of a name
    assert all(weight == 0 for _, weight in countries_named("England Rugby named him.", table))
    gold = ["Amy Hale"]
    evidence = (
        "Amy Hale coached Canada's women to the title. The English-born coach had taken charge of "
        "Canada only in 2020."
    )
    assert _home(table, evidence, gold, "who coached the team") == ("United Kingdom", "passage")


def test_an_owner_before_the_name_a_born_demonym_and_another_persons_role_phrase() -> None:
    """Set 45's RECALL (in-sample, found after forging): "Norway's Jakob Ingebrigtsen" took a
    Kenyan name from "Kenya's world champion Timothy Cheruiyot", and the "Japanese-born
    American climate scientist Syukuro Manabe" an American one."""
    countries = {
        **COUNTRIES,
        "Japan": {"region": "Asia", "iso2": "JP", "languages": ["ja"]},
        "United States": {"region": "Americas", "iso2": "US", "languages": ["en"]},
        "Germany": {"region": "Europe", "iso2": "DE", "languages": ["de"]},
    }
    people = [Entity("Eva Lind", "person", "German oceanographer", occupations=("oceanographer",))]
    demonyms = {"kenyan": "Kenya", "japanese": "Japan", "american": "United States", "german": "Germany"}
    table = EntityTable.of(people, countries=countries, demonyms=demonyms)
    # a role phrase followed by its holder's name speaks of that holder only
    assert ("Germany", 0) in countries_named("with the German oceanographer Eva Lind.", table)
    assert ("Germany", 2) in countries_named("the German oceanographer had sailed.", table)
    # a country owning a role whose holder is named right after: a plain mention, not two
    assert ("Kenya", 1) in countries_named("He beat Kenya's oceanographer Eva Lind.", table)
    assert ("Kenya", 2) in countries_named("He beat Kenya's oceanographer in the final.", table)
    gold = ["Ola Berg"]
    evidence = "Norway's Ola Berg won the race. The 20-year-old beat Kenya's favourite in the final."
    assert _home(table, evidence, gold, "who won the race") == ("Norway", "demonym")
    gold = ["Taro Abe"]
    evidence = "Japanese-born American climate scientist Taro Abe won the prize. He was 90."
    assert _home(table, evidence, gold, "who won the prize") == ("Japan", "heritage")


def test_a_communitys_stock_draws_its_own_first_names_unless_the_gold_ones_is_shared() -> None:
    """ "Rohit Sharma" became "Robert Peri" from en_IN's Western first names (set 45, in-sample):
    a community's stock draws the first names its language's other stocks lack, unless the gold
    first name is one they share ("Victor Osimhen"); a common stock draws from all."""
    own = tuple(f"Rohan{i}" for i in range(25))
    shared = ("Robert", "Victor", "Mary")
    india = NameStock(
        "en_IN",
        first={"male": _names(*own, *shared), "female": _names(*own, *shared)},
        last={"any": _names("Sharma", "Peri", "Rao")},
    )
    britain = NameStock(
        "en_GB",
        first={"male": _names(*shared), "female": _names(*shared)},
        last={"any": _names("Smith", "Jones", "Brown")},
    )
    stocks = {"en_IN": india, "en_GB": britain}
    allowed = community_firsts(india, "Rohit Sharma", stocks)
    assert allowed == frozenset(own)
    rng = random.Random(0)
    assert all(india.invent("male", rng, allowed)[0] in own for _ in range(30))
    assert community_firsts(india, "Victor Osimhen", stocks) is None
    assert community_firsts(britain, "Rohit Sharma", stocks) is None


def test_no_name_is_invented_for_a_person_of_the_first_millennium() -> None:
    """ "Around AD 60" anywhere in the passage dates it: Boudica got "Kim Mitchell" (set 44,
    in-sample, read after forging); a year with its era counts, BC as negative."""
    table = _table()
    gold = ["Kari Lunde"]
    evidence = "Kari Lunde was a queen of a tribe near Bergen. Around AD 60 she led a revolt."
    facts = read_facts(evidence, gold, "who led the revolt", "person:monarch", table)
    assert person_era(facts, evidence) == 60 - 25
    found, info = invented_names(facts, evidence, gold, "who led the revolt", table, random.Random(0))
    assert found == [] and "before 1000" in info["invented"]
    assert person_era(facts, "Kari Lunde ruled from 44 BC.") == -44 - 25
    # a passage with a later year may name an ancient city's modern mayor: the era year waits
    modern = "Kari Lunde, mayor since 2019, leads a city founded around 3000 BC near Bergen."
    later = read_facts(modern, gold, "who is the mayor", "person", table)
    assert person_era(later, modern) == 2019 - 25


def test_a_birthplace_with_accents_is_read_whole() -> None:
    """ "born in Gijón" placed nobody in Spain: the word reader split "Gijón" (set 47, in-sample;
    the Spaniard took a French name from the Paris club he coached)."""
    countries = {**COUNTRIES, "Spain": {"region": "Europe", "iso2": "ES", "languages": ["es"]}}
    gijon = Entity("Gijón", "place", place_type="city", country="Spain")
    table = EntityTable.of([gijon], countries=countries, demonyms={"french": "France"})
    gold = ["Leo Ortiz"]
    evidence = (
        "Leo Ortiz was the head coach of Vireo when the French club won the cup. "
        "Leo Ortiz, born in Gijón in 1970, played for Vireo too."
    )
    assert _home(table, evidence, gold, "who coached the club") == ("Spain", "passage")


def test_a_communitys_own_first_names_outrank_the_eras_attested_ones(monkeypatch: pytest.MonkeyPatch) -> None:
    """An architect born in Pune in 1927 became "Benjamin Anne" (set 47, in-sample): the names
    attested before 1950 were the table's Western ones. Another community's name is a plain
    clash, today's name of his own a small one, so his own community's first names win."""
    import halluforge.knowledge.names as names

    own = tuple(f"Rohan{i}" for i in range(25))
    western = ("Peter", "John", "David", "Mary", "Anne", "Ruth")
    india = NameStock(
        "en_IN",
        first={"male": _names(*own, *western), "female": _names(*own, *western)},
        last={"any": _names("Rao", "Peri", "Hegde")},
    )
    britain = NameStock(
        "en_GB", first={"male": _names(*western), "female": _names(*western)}, last={"any": _names("Hill")}
    )
    monkeypatch.setattr(names, "name_stocks", lambda: {"en_IN": india, "en_GB": britain})
    countries = {**COUNTRIES, "India": {"region": "Asia", "iso2": "IN", "languages": ["en", "hi"]}}
    elders = [
        Entity(f"{first} Hill", "person", "Indian engineer", born=1900, nationality="India", gender=gender)
        for first, gender in zip(western, ("male", "male", "male", "female", "female", "female"), strict=True)
    ]
    pune = Entity("Pune", "place", place_type="city", country="India")
    table = EntityTable.of([*elders, pune], countries=countries, demonyms={"indian": "India"})
    gold = ["Ravi Rao"]
    evidence = "Ravi Rao was born in Pune in 1927. He designed the hall, and he won the prize."
    facts = read_facts(evidence, gold, "who designed the hall", "person:architect", table)
    found, info = invented_names(facts, evidence, gold, "who designed the hall", table, random.Random(0))
    assert found and all(name.split()[0] in own for name in found)
    assert info["era"] == "names of today"


def test_a_passage_with_no_gendered_word_takes_the_first_names_lean() -> None:
    """Set 55: "Senior coach Chris Fagan" and no pronoun; Faker lists Chris for men 8 times to 1."""
    table = _table()
    evidence = "Senior coach Chris Fagan guided Brisbane to the 2024 premiership. Fagan took over in 2017."
    gold = ["Chris Fagan", "Fagan"]
    facts = read_facts(evidence, gold, "who coached brisbane", "person", table)
    assert person_gender(facts, gold, table) == "male"
    # a passage that says something of gender decides, whatever the first name
    woman = evidence + " She was the first woman to coach the club."
    facts = read_facts(woman, gold, "who coached brisbane", "person", table)
    assert person_gender(facts, gold, table) == "female"


def test_one_word_against_a_gendered_name_is_another_persons() -> None:
    """Set 57 (in-sample): "Judge Aileen Cannon dismissed the case accusing Trump of mishandling
    documents at his estate": one "his" against a name the table reads female."""
    table = _table()
    evidence = "Judge Kari Lunde dismissed the case accusing the minister of hiding papers at his estate."
    gold = ["Kari Lunde", "Lunde"]
    facts = read_facts(evidence, gold, "which judge dismissed the case", "person", table)
    assert facts.gender == "male" and person_gender(facts, gold, table) == "female"
    # two words against the name decide
    two = evidence + " He ruled again in May."
    facts = read_facts(two, gold, "which judge dismissed the case", "person", table)
    assert facts.gender == "male" and person_gender(facts, gold, table) == "male"


def test_a_rank_among_women_outweighs_a_predecessors_pronouns() -> None:
    """Set 59 (in-sample): "making her the second woman to lead" beside a predecessor's "his"."""
    table = _table()
    evidence = (
        "The assembly approved Vaira Ozola as premier, making her the second woman to lead a "
        "government. Ozola succeeds her colleague Janis Berzs, who resigned after disputes within "
        "his coalition. Ozola joined the cabinet when Berzs formed his second government."
    )
    gold = ["Vaira Ozola", "Ozola"]
    facts = read_facts(evidence, gold, "who became premier", "person", table)
    assert facts.gender is None and facts.cues == (3, 2)  # mixed, and no two-to-one majority
    assert person_gender(facts, gold, table) == "female"
    # a rank of both genders decides nothing
    both = evidence.replace("second government", "second government as the first man to do so")
    facts = read_facts(both, gold, "who became premier", "person", table)
    assert person_gender(facts, gold, table) is None


def test_pronouns_later_in_the_passage_give_the_gender_when_nothing_near_the_answer_does() -> None:
    """'She became the second woman to lead the court', sentences after the answer: an invented
    man stood beside it (set 45's Tomoko Akane, a first name no list genders); pronouns of both
    sides say nothing."""
    table = _table()
    text = (
        "Norwegian judge Ylvane Dahl was elected president of the court in 2024, succeeding Piotr "
        "Nowak. Dahl, a former prosecutor, had been a judge since 2018. Piotr Nowak had led the "
        "court since 2021. She became the second woman to lead the court, after Silvia Gomez. Her "
        "election came a year after a ruling in Bergen."
    )
    for seed in range(8):
        names, info = _invent_with(NORWAY, table, text, "Ylvane Dahl", seed)
        assert info["gender"] == "female" and all(n.split()[0] in ("Kari", "Ingrid") for n in names)
    assert passage_pronouns(text) == "female"
    assert passage_pronouns(text + " His deputy stays.") is None
    assert passage_pronouns("Dahl won. She left.") == "female"  # one pronoun is enough (set 85)
    assert passage_pronouns("Dahl won. She left with him.") is None
    assert passage_pronouns("Dahl won. He left. His son stayed.") == "male"


def test_a_birthplace_is_read_within_a_few_words_of_born() -> None:
    """Set 79: "born in 1966, had served as housing minister ... while his predecessor received
    medical treatment in Germany" gave Egypt's prime minister German names."""
    table = _table()
    question = "who was appointed prime minister of norway"
    evidence = (
        "Ola Dahl was appointed prime minister of Norway in 2018. Dahl, an urban planner born in "
        "1966, had served as housing minister since 2014 while his predecessor received medical "
        "treatment in Kenya."
    )
    assert _home(table, evidence, ["Ola Dahl"], question)[0] == "Norway"
    born = "Ola Dahl, born in Kenya, was appointed prime minister of Norway in 2018."
    assert _home(table, born, ["Ola Dahl"], question)[0] == "Kenya"  # a birthplace still outweighs


def test_a_family_first_gold_name_with_a_macron_gets_family_first_names() -> None:
    """Set 82: Faker's romanised Japanese surnames write "Ito", so "Itō Hirobumi" read given
    name first, and his later "Itō" became the new given name "Tsubasa"."""
    japan = NameStock(
        "ja_JP",
        first={"male": _names("Yuki", "Ryohei", "Kenji"), "female": _names("Aiko", "Naoko")},
        last={"any": _names("Ito", "Yamazaki", "Ikeda")},
    )
    table = EntityTable.of(
        [], countries={"Japan": {"iso2": "JP", "languages": ["ja"]}}, demonyms={"japanese": "Japan"}
    )
    evidence = "The Japanese statesman Itō Hirobumi became prime minister in 1885. Itō was born in 1841."
    names, _ = _invent_with(japan, table, evidence, "Itō Hirobumi")
    assert names and all(name.split()[0] in ("Yamazaki", "Ikeda") for name in names)


def test_the_drawn_stock_genders_a_first_name_no_list_does() -> None:
    """Set 87: "Mikheil", in the Georgian stock's men's names only, was no gender anywhere else,
    and Georgia's president, a former footballer with no pronoun, became "Elena Peradze"."""
    table = _table()
    text = "Norwegian footballer Zorvan Dahl was elected president of the club in 2024."
    stock = NameStock(
        "no_NO",
        first={"male": _names("Zorvan", "Per"), "female": _names("Kari", "Ingrid")},
        last={"any": _names("Hansen", "Berg")},
    )
    for seed in range(8):
        names, info = _invent_with(stock, table, text, "Zorvan Dahl", seed)
        assert info["gender"] == "male" and all(n.split()[0] == "Per" for n in names)
    # a first name on both of the stock's lists tells nothing
    both = NameStock(
        "no_NO", first={"male": _names("Zorvan", "Per"), "female": _names("Zorvan", "Kari")}, last=stock.last
    )
    genders = {_invent_with(both, table, text, "Zorvan Dahl", seed)[1]["gender"] for seed in range(8)}
    assert genders != {"male"}


def test_an_age_at_a_dated_event_gives_the_birth_year() -> None:
    """Set 87: "won the run-off on 28 October 2018 ... Bolsonaro, then 63": born 1955, so his
    names are of his era, not of today's ("Cauã")."""
    table = _table()
    text = (
        "Ola Dahl won the run-off on 28 October 2018. Dahl, then 63, had been stabbed at a rally "
        "on 6 September 2018."
    )
    facts = read_facts(text, ["Ola Dahl"], "who won the run-off", "person", table)
    assert facts.born == 1955
    assert (
        age_birth(["The 53-year-old footballer was elected in 2024."], ["Ola Dahl"]) is None
    )  # no date before
    dated = ["On 14 December 2024 the college elected Ola Dahl.", "The 53-year-old footballer was sworn in."]
    assert age_birth(dated, ["Ola Dahl"]) == 1971
    # the latest date before the age: a dateline, not the deed of 2000 the report tells of
    report = [
        "OSLO, 6 October 2021 - Ola Dahl won.",
        "He showed in 2000 that it works.",
        "Dahl, a 53-year-old chemist, rests.",
    ]
    assert age_birth(report, ["Ola Dahl"]) == 1968
    # another person's age says nothing of the answer's
    other = [
        "Ola Dahl won on 4 May 2019.",
        "His attacker, a 27-year-old man, was held.",
        "Kylian Dahlberg, then 19, scored.",
    ]
    assert age_birth(other, ["Ola Dahl"]) is None


def test_a_neighbours_stock_in_a_second_language_names_only_its_own_community() -> None:
    """Set 89: Kazakhstan borrows Russia's names (Russian is its second official language), and
    its prime minister Olzhas Bektenov became "Prokofiy Davydov"; a name of the lent stock keeps it."""
    russia = NameStock(
        "ru_RU",
        first={"male": _names("Ivan", "Petr"), "female": _names("Olga", "Irina")},
        last={"any": _names("Davydov", "Petrov")},
    )
    countries = {
        **COUNTRIES,
        "Kazakhstan": {"region": "Asia", "iso2": "KZ", "languages": ["kk", "ru"], "borders": ["Russia"]},
    }
    table = EntityTable.of([], countries=countries, demonyms={"kazakh": "Kazakhstan"})
    text = "Kazakh economist Olzhas Bektenov was appointed prime minister in 2024. He had led the agency."
    names, info = _invent_with(russia, table, text, "Olzhas Bektenov")
    assert names == [] and "second language (ru_RU)" in info["invented"]
    names, info = _invent_with(
        russia, table, text.replace("Olzhas Bektenov", "Ivan Bektenov"), "Ivan Bektenov"
    )
    assert names and info["country"] == "Kazakhstan"
