"""Who a passage's person is: "which <occupation>" asks for one, "The Argentine had" names their
nationality, and a country inside a longer name ("United States Soccer Federation") is no home.

Hand-made tables; each rule on its own, and an entity absent from the table.
"""

from __future__ import annotations

from halluforge.families.shared.facts import read_facts
from halluforge.families.shared.invented import countries_named, home_country
from halluforge.families.shared.kinds import asks_person, classify_kind
from halluforge.knowledge.table import Entity, EntityTable

ROLES = frozenset({"oceanographer", "activist", "team"})


def _table() -> EntityTable:
    return EntityTable.of(
        [Entity("Tottenham", "place", place_type="city", country="United Kingdom")],
        countries={"Argentina": {"iso2": "AR"}, "United States": {"iso2": "US"}, "France": {"iso2": "FR"}},
        demonyms={"argentine": "Argentina", "american": "United States", "french": "France"},
    )


def test_an_occupation_of_the_table_after_which_asks_for_a_person() -> None:
    """ "which american oceanographer": a person by the table's occupations; "which team": no person."""
    question = "which american oceanographer located the wreck of the titanic in 1985"
    assert not asks_person(question)  # no role cue: the table's occupations decide
    assert asks_person(question, ROLES)
    assert classify_kind("Robert Ballard", question, roles=ROLES).startswith("person")
    assert classify_kind("Robert Ballard", question) == "other"
    # past a demonym with a hyphen, and only nouns that name a person by their ending
    assert asks_person("which egyptian-born chemist won the 1999 nobel prize")
    assert not asks_person("which team won the 2024 stanley cup", ROLES)
    assert not asks_person("which river flows through paris", ROLES)


def test_the_next_sentence_naming_the_answer_by_nationality_gives_it() -> None:
    """ "... named Mauricio Pochettino head coach. The Argentine had previously managed ..."."""
    table = _table()
    text = (
        "In 2024 the United States Soccer Federation named Mauricio Pochettino head coach. The Argentine "
        "had previously managed Tottenham. He prepares the side for a World Cup the United States co-hosts."
    )
    gold = ["Mauricio Pochettino", "Pochettino"]
    facts = read_facts(text, gold, "who was appointed head coach of the us team", "person:coach", table)
    assert facts.demonym_country == "Argentina"
    assert home_country(facts, text, gold, "who was appointed", table) == ("Argentina", "demonym")
    # a demonym before a noun opens no sentence about the answer
    other = text.replace("The Argentine had", "The French government had")
    facts = read_facts(other, gold, "who was appointed head coach of the us team", "person:coach", table)
    assert facts.demonym_country is None


def test_a_country_inside_a_longer_name_counts_for_no_one() -> None:
    """ "the United States Soccer Federation": no weight; "the United States co-hosts": one."""
    table = _table()
    assert countries_named("the United States Soccer Federation named him", table) == [("United States", 0)]
    assert countries_named("a World Cup the United States co-hosts", table) == [("United States", 1)]
