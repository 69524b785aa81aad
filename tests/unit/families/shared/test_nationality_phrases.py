"""Where a person comes from: phrases the readers of set 71 found misread (in-sample there).

Hand-made tables, so each phrase is seen on its own.
"""

from __future__ import annotations

from halluforge.families.shared.facts import read_facts
from halluforge.families.shared.invented import home_country
from halluforge.families.shared.nationality import countries_named, country_apposed
from halluforge.knowledge.table import Entity, EntityTable

COUNTRIES = {
    "South Korea": {"iso2": "KR"},
    "United Kingdom": {"iso2": "GB"},
    "Norway": {"iso2": "NO"},
    "Italy": {"iso2": "IT"},
}
TABLE = EntityTable.of(
    [],
    countries=COUNTRIES,
    demonyms={"south korean": "South Korea", "english": "United Kingdom", "italian": "Italy"},
)


def _home(text: str, gold: list[str], question: str) -> str | None:
    facts = read_facts(text, gold, question, "person", TABLE)
    return home_country(facts, text, gold, question, TABLE)[0]


def test_a_demonym_of_two_words_before_the_name_is_the_persons() -> None:
    """ "South Korean filmmaker Hwang Dong-hyuk": "Korean" alone is no demonym."""
    text = "South Korean filmmaker Min-su Park won the award in 2022. He directed the series."
    facts = read_facts(text, ["Min-su Park"], "who won the award", "person", TABLE)
    assert facts.demonym_words == ("South Korean",) and facts.demonym_country == "South Korea"


def test_a_demonym_joined_to_language_names_a_language() -> None:
    """ "a non-English-language series" says nothing of where anyone comes from."""
    text = "It was the first win for a non-English-language series. The English actor spoke."
    assert countries_named(text, TABLE) == [("United Kingdom", 2)]
    assert (
        _home(
            "Min-su Park directed the non-English-language series, filmed in 2021.",
            ["Min-su Park"],
            "who directed it",
        )
        != "United Kingdom"
    )


def test_a_country_as_the_adjective_of_a_role_after_a_later_mention() -> None:
    """ "Solbakken, a former Norway midfielder": Norway, not Italy of the match in Milan."""
    text = (
        "Norway qualified under head coach Jon Berg with a win over Italy in 2025. "
        "Berg, a former Norway midfielder born in 1968, was appointed in 2020."
    )
    assert country_apposed(text, ["Jon Berg"], TABLE) == "Norway"
    assert _home(text, ["Jon Berg"], "who coached norway") == "Norway"
    assert country_apposed("Berg, a former Italian midfielder, left.", ["Jon Berg"], TABLE) is None


def test_a_month_after_a_placing_word_is_no_place() -> None:
    """ "on the final weekend in March" (set 77): March is a town in Cambridgeshire too, and a
    French coach took a British name from it."""
    march = Entity(
        "March", "place", "Town in Cambridgeshire, England", place_type="town", country="United Kingdom"
    )
    bergen = Entity("Bergen", "place", "City in Norway", place_type="city", country="Norway")
    table = EntityTable.of([march, bergen], countries=COUNTRIES)
    assert countries_named("The team won in Bergen on the final weekend in March.", table) == [("Norway", 1)]


def test_a_demonym_before_a_group_or_a_states_deed_counts_once() -> None:
    """Set 78: "resisted French colonial expansion", "captured by French troops" made the
    Mandinka leader Samori Touré French; "the Italian executive" still counts twice."""
    table = EntityTable.of(
        [], countries=COUNTRIES, demonyms={"italian": "Italy", "english": "United Kingdom"}
    )
    assert countries_named("He resisted Italian colonial expansion.", table) == [("Italy", 1)]
    assert countries_named("He was captured by Italian troops.", table) == [("Italy", 1)]
    assert countries_named("The Italian executive had run it.", table) == [("Italy", 2)]


def test_a_demonym_the_passage_writes_as_a_name_in_the_question_says_nothing() -> None:
    """ "who won the 2023 australian open": the passage's "Australian Open" is a tournament,
    and the Belarusian winner was read as Australian."""
    question = "who won the 2022 italian open women's singles"
    text = (
        "Min-su Park won the 2022 Italian Open women's singles title in Rome. It was the first title "
        "for the South Korean, who beat the defending champion in the final."
    )
    assert _home(text, ["Min-su Park"], question) == "South Korea"
    # the same demonym before a word the passage does not write as a name still counts
    plain = "Min-su Park won the 2022 open title. It was her first title."
    assert _home(plain, ["Min-su Park"], "which italian player won the 2022 open") == "Italy"


def test_a_hyphened_pair_of_demonyms_takes_the_birthplaces_country() -> None:
    """ "French-Moroccan novelist Leïla Slimani ... Born in Rabat" (set 79): Moroccan by birth;
    without a birthplace the first word is the heritage, as in "Lebanese-Canadian"."""
    table = EntityTable.of(
        [Entity("Bergen", "place", "City in Norway", place_type="city", country="Norway")],
        countries=COUNTRIES,
        demonyms={"italian": "Italy", "norwegian": "Norway"},
    )
    text = "Italian-Norwegian novelist Kari Dahl won the prize in 2016. Born in Bergen in 1981, she wrote."
    assert _home_in(table, text, ["Kari Dahl"]) == "Norway"
    assert _home_in(table, text.replace("Born in Bergen", "Raised abroad"), ["Kari Dahl"]) == "Italy"


def _home_in(table: EntityTable, text: str, gold: list[str]) -> str | None:
    facts = read_facts(text, gold, "who won the prize", "person", table)
    return home_country(facts, text, gold, "who won the prize", table)[0]
