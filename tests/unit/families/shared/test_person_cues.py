"""Who a passage's person is: "which <occupation>" asks for one, "The Argentine had" names their
nationality, and a country inside a longer name ("United States Soccer Federation") is no home.

Hand-made tables; each rule on its own, and an entity absent from the table.
"""

from __future__ import annotations

from halluforge.families.shared.facts import read_facts
from halluforge.families.shared.invented import home_country
from halluforge.families.shared.kinds import classify_kind
from halluforge.families.shared.nationality import countries_named
from halluforge.families.shared.roles import asks_person
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
    # a person noun of no person ending (set 51's skips: "which judge sentenced ..."), and an
    # adjective that is one too ("general") asks for none
    assert asks_person("which judge sentenced sam bankman-fried", frozenset({"judge"}))
    assert not asks_person("which general election did labour win", frozenset({"general"}))


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
    # "British Guiana": a demonym before a country's name makes a colony's name (set 50 read
    # French Guiana in "born in Georgetown, British Guiana, now Guyana")
    guiana = EntityTable.of(
        [],
        countries={"French Guiana": {"iso2": "GF"}, "United Kingdom": {"iso2": "GB"}},
        demonyms={"british": "United Kingdom", "french": "France"},
    )
    guiana.country_names["guiana"] = "French Guiana"  # a spelling countryinfo lists for it
    assert ("French Guiana", 1) not in countries_named("born in British Guiana in 1944", guiana)
    assert ("French Guiana", 1) in countries_named("born in Cayenne, French Guiana", guiana)


def _heritage_table() -> EntityTable:
    return EntityTable.of(
        [],
        countries={
            "Canada": {"iso2": "CA"},
            "Romania": {"iso2": "RO"},
            "Russia": {"iso2": "RU"},
            "United States": {"iso2": "US"},
            "Côte d'Ivoire": {"iso2": "CI"},
        },
        demonyms={"canadian": "Canada", "romanian": "Romania", "russian": "Russia"},
    )


def test_a_stated_heritage_gives_the_invented_name_its_country() -> None:
    """A Canadian "born ... to Romanian parents" takes a Romanian name (set 35: "Dawn Knox")."""
    table = _heritage_table()
    text = (
        "Bianca Andreescu of Canada won the 2019 US Open, the first Canadian to win a major. "
        "Andreescu was born in Mississauga, Ontario, to Romanian parents."
    )
    gold = ["Bianca Andreescu", "Andreescu"]
    facts = read_facts(text, gold, "who won the 2019 us open women's singles", "person:athlete", table)
    assert facts.heritage_country == "Romania" and facts.demonym_country == "Canada"
    assert home_country(facts, text, gold, "", table) == ("Romania", "heritage")
    # a word between the demonym and the family ("to a Romanian farming family", set 53's
    # "Born in France to an American military family")
    farming = text.replace("to Romanian parents", "to a Romanian farming family")
    facts = read_facts(farming, gold, "who won", "person:athlete", table)
    assert facts.heritage_country == "Romania"
    # no heritage phrase: the country after the name
    plain = text.replace(", to Romanian parents", "")
    facts = read_facts(plain, gold, "who won", "person:athlete", table)
    assert facts.heritage_country is None
    assert home_country(facts, plain, gold, "", table) == ("Canada", "demonym")


def test_a_country_right_after_the_name_outweighs_a_rivals_demonym() -> None:
    """ "X of the United States ... She defeated Y, a former Russian minister": an American name."""
    table = _heritage_table()
    text = (
        "Doreen Bogdan-Martin of the United States was elected Secretary-General in 2022. She defeated "
        "Rashid Ismailov, a former Russian deputy minister, by a wide margin."
    )
    gold = ["Doreen Bogdan-Martin"]
    facts = read_facts(text, gold, "who was elected secretary-general of the itu", "person:leader", table)
    assert facts.demonym_country == "United States"
    assert home_country(facts, text, gold, "", table) == ("United States", "demonym")
    # a place "of" the answer that is no country gives nothing
    facts = read_facts(text.replace("of the United States", "of Arizona"), gold, "who", "person", table)
    assert facts.demonym_country is None


def test_a_language_community_the_person_speaks_for_is_a_heritage() -> None:
    """Set 61 (in-sample): "Kõlvart, one of the best-known Russian-speaking politicians in
    Estonia" took an Estonian name; Russian is his community's."""
    base = _heritage_table()
    politician = Entity("Ana Pop", "person", "Romanian politician", occupations=("politician",))
    table = EntityTable.of([politician], countries=base.countries, demonyms=base.demonyms)
    text = (
        "Ivan Petrov was elected mayor of Toronto in 2019. Petrov, one of the best-known "
        "Romanian-speaking politicians in Canada, later led his party."
    )
    gold = ["Ivan Petrov", "Petrov"]
    facts = read_facts(text, gold, "who was elected mayor", "person:leader", table)
    assert facts.heritage_country == "Romania"
    assert home_country(facts, text, gold, "", table) == ("Romania", "heritage")
    # a language's world is no community of the person ("the Spanish-speaking world" of a prize)
    world = text.replace("Romanian-speaking politicians in Canada", "Romanian-speaking world's mayors")
    assert read_facts(world, gold, "who was elected mayor", "person:leader", table).heritage_country is None


def test_parents_who_came_from_a_country_are_a_heritage() -> None:
    """Set 63 (in-sample, both readers strict): Anita Anand, "born in Kentville, Nova Scotia, to
    parents who emigrated from India", took "Michelle Thornton"."""
    table = _heritage_table()
    text = (
        "Ana Lupu was sworn in as minister. Born in Halifax to parents who emigrated from Romania, "
        "Lupu taught law."
    )
    gold = ["Ana Lupu", "Lupu"]
    facts = read_facts(text, gold, "who became minister", "person:leader", table)
    assert facts.heritage_country == "Romania"
    assert home_country(facts, text, gold, "", table) == ("Romania", "heritage")
    # parents from a place that is no country give nothing
    town = text.replace("from Romania", "from Halifax")
    assert read_facts(town, gold, "who became minister", "person:leader", table).heritage_country is None


def test_a_country_as_a_roles_adjective_in_apposition_is_the_persons() -> None:
    """Set 59 (in-sample): "Desiree Ellis, a former South Africa captain," beside a final "in
    Accra, Ghana" took a Ghanaian name."""
    table = _heritage_table()
    text = (
        "Head coach Ana Lupu, a former Romania captain, led the team four years after the final in "
        "Abidjan, Côte d'Ivoire. Both finalists had qualified for the tournament in Canada."
    )
    gold = ["Ana Lupu", "Lupu"]
    facts = read_facts(text, gold, "who coached the team", "person:coach", table)
    assert facts.demonym_country == "Romania"
    assert home_country(facts, text, gold, "", table) == ("Romania", "demonym")
    # a club's name in the same place is no country
    club = text.replace("a former Romania captain", "a former Dinamo Bucharest captain")
    assert read_facts(club, gold, "who coached the team", "person:coach", table).demonym_country is None


def test_a_country_written_with_accents_is_found_in_a_passage() -> None:
    """ "Côte d'Ivoire" and "Türkiye" are keyed without accents; the passage keeps them."""
    table = _heritage_table()
    assert countries_named("She was born in Abidjan, Côte d'Ivoire, in 1990.", table) == [
        ("Côte d'Ivoire", 1)
    ]
    # offsets still point into the original text, so "côte" in lower case is no proper noun
    assert countries_named("a côte d'ivoire dish", table) == []


def test_a_demonym_apposed_to_a_later_mention_names_the_person() -> None:
    """Set 57 (in-sample): "Anderson, an American, joined from Roche" after Bayer's Leverkusen."""
    table = EntityTable.of(
        [],
        countries={"United States": {"iso2": "US"}, "Germany": {"iso2": "DE"}},
        demonyms={"american": "United States", "german": "Germany"},
    )
    text = (
        "LEVERKUSEN, Germany - Bill Anderson took over as chief executive of Bayer, the German group. "
        "Anderson, an American, joined from Roche."
    )
    gold = ["Bill Anderson", "Anderson"]
    facts = read_facts(text, gold, "who became ceo of bayer", "person:business", table)
    assert facts.demonym_country == "United States"
    # a demonym before another name after the comma is that name's ("Anderson, the German Hans Vogel")
    other = text.replace("Anderson, an American, joined", "Anderson met the German banker Hans Vogel")
    assert read_facts(other, gold, "who became ceo", "person:business", table).demonym_country is None
    # set 65 (in-sample): "Jacobsen, a former Danish international wing," beside a German club
    former = text.replace("Anderson, an American, joined", "Anderson, a former American banker, joined")
    assert (
        read_facts(former, gold, "who became ceo", "person:business", table).demonym_country
        == "United States"
    )
