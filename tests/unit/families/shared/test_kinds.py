"""Finer answer kinds: each rule on hand-made questions, and the plausibility windows."""

from __future__ import annotations

import pytest

from halluforge.families.shared.kinds import (
    FEMALE,
    classify_kind,
    has_members,
    is_member,
    kind_members,
    kind_words,
    kinds_match,
    lexicon,
    passage_kind,
    question_noun_kind,
)
from halluforge.families.shared.numbers import numbers_close, years_close
from halluforge.families.shared.roles import (
    asks_person,
    passage_role,
    question_role,
    team_answer,
    wants_female,
)


@pytest.mark.parametrize(
    ("question", "role"),
    [
        ("who wrote the canterbury tales", "writer"),
        ("who is the author of war and peace", "writer"),
        ("who painted the night watch", "painter"),
        ("who sculpted the thinker", "sculptor"),
        ("who composed the moonlight sonata", "composer"),
        ("who directed the film psycho", "director"),
        ("who discovered the electron", "scientist"),
        ("who was the first woman to win a nobel prize in physics", "scientist"),
        ("who invented the light bulb", "inventor"),
        ("who was the first person to orbit the earth in space", "astronaut"),
        ("who led the first expedition to reach the north pole", "explorer"),
        ("who wrote the wealth of nations treatise", "thinker"),
        ("who was the 16th president of the united states", "president"),
        ("who was prime minister of britain during the second world war", "prime minister"),
        ("who was the last emperor of china", "monarch"),
        ("who led the montgomery bus boycott", "activist"),
        ("who was elected mayor of london", "leader"),
        ("Which tennis player won the tournament this year?", "athlete"),
        ("Which billionaire founded the rocket company?", "business"),
        ("Which singer released the album?", "entertainer"),
        ("who is the main character of the story", None),
    ],
)
def test_person_roles_come_from_the_question(question: str, role: str | None) -> None:
    assert question_role(question) == role


@pytest.mark.parametrize(
    ("question", "kind"),
    [
        ("what is the capital of peru", "place:capital"),
        ("in which city is the leaning tower", "place:city"),
        ("in which country is the city of petra", "place:country"),  # the first noun after "which"
        ("which us state is known as the sunshine state", "place:region"),
        ("what is the longest river in europe", "place:river"),
        ("in which mountain range is k2", "place:range"),
        ("what is the highest mountain in europe", "place:mountain"),
        ("what is the smallest ocean", "place:ocean"),
        ("which sea lies between italy and croatia", "place:sea"),
        ("what is the deepest lake in the world", "place:lake"),
        ("what is the largest desert in asia", "place:desert"),
        ("which strait separates asia from north america", "place:strait"),
        ("what is the largest island in the mediterranean", "place:island"),
        ("on which continent is egypt", "place:continent"),
        ("what is the chemical symbol for silver", "thing:chemical symbol"),
        ("which element has the atomic symbol o", "thing:element"),
        ("which gas makes up most of the air", "thing:gas"),
        ("what is the softest mineral", "thing:material"),
        ("which planet is known as the red planet", "thing:planet"),
        ("what is the name of the galaxy nearest to ours", "thing:galaxy"),
        ("what is the currency of india", "thing:currency"),
        ("which organ produces insulin", "thing:organ"),
        ("what is the smallest bone in the body", "thing:bone"),
        ("which part of the cell holds its dna", "thing:organelle"),
        ("what language is spoken in mexico", "thing:language"),
        ("which ship sank in 1912", "thing:ship"),
        ("what was the name of the first satellite to orbit the moon", "thing:spacecraft"),
        ("what is the last book of the bible", "thing:book of the bible"),
        ("what sport does the ryder cup honour", "thing:sport"),
        ("what is the main ingredient of hummus", "thing:ingredient"),
        ("which company makes the playstation", "thing:company"),
        ("which agency runs the hubble telescope", "thing:organisation"),
        ("which animal is the fastest on land", "thing:animal"),
        ("which instrument has 88 keys", "thing:instrument"),
        ("what colour is a ripe lemon", "thing:colour"),
        # a cue word outside the noun asked about names the topic, not the answer
        ("The European Space Agency wants to give which celestial body its own time zone?", None),
        ("A snowstorm with lake-effect snow took aim at which state this week?", "place:region"),
        ("who wrote the novel", None),
    ],
)
def test_place_and_thing_kinds_come_from_the_noun_asked_about(question: str, kind: str | None) -> None:
    assert question_noun_kind(question) == kind


@pytest.mark.parametrize(
    ("answer", "question", "kind"),
    [
        ("Jane Austen", "who wrote emma", "person:writer"),
        # the gold answer's known role wins over a question role it does not have
        ("Charles Darwin", "who wrote on the origin of species", "person:scientist"),
        ("Michelangelo", "who sculpted the pieta", "person:sculptor"),
        ("Zed Quux", "who is the best", "person"),
        ("Queen Victoria", None, "person:monarch"),  # no question: the lexicon decides
        ("New York City", "where was the ship heading", "place:city"),  # no noun: lexicon member
        ("Orinoco River", "where does the water go", "place:river"),  # no noun: the answer's form
        ("Lake Placid", "where did it happen", "place:lake"),
        ("1066", "in what year was the battle of hastings", "date"),
        ("206", "how many bones are in the body", "number"),
        # a "when" question answered with a name is about a person, not a date
        ("King George III", "Who was on the throne when the colonies declared independence?", "person"),
        ("Good vibes", "what did they bring", "other"),
    ],
)
def test_classify_kind(answer: str, question: str | None, kind: str) -> None:
    assert classify_kind(answer, question) == kind


def test_a_loaders_coarse_type_is_refined_not_replaced() -> None:
    assert classify_kind("Jupiter", "what is the largest planet", answer_type="other") == "thing:planet"
    assert (
        classify_kind("Canberra", "what is the capital of australia", answer_type="place") == "place:capital"
    )


def test_members_lexicon_and_dataset() -> None:
    assert "Ag" in lexicon()["thing:chemical symbol"]
    assert is_member("Ottawa", "place:capital") and is_member("ottawa", "place:city")  # a capital is a city
    assert not is_member("Sydney", "place:capital")
    assert kinds_match("place:city", "place:capital") and not kinds_match("place:capital", "place:city")
    assert not is_member("Zed Quux", "person:writer")
    assert is_member("Zed Quux", "person:writer", {"person:writer": ["Zed Quux"]})  # the dataset counts
    assert has_members("thing:currency") and not has_members("thing:spaceship")
    assert "Sydney" in kind_members("place:city") and "Ottawa" in kind_members("place:city")
    assert is_member("Marie Curie", FEMALE) and not is_member("Isaac Newton", FEMALE)
    assert wants_female("who was the first woman to climb everest")
    assert not wants_female("who was the first man to climb everest")


@pytest.mark.parametrize(
    ("old", "new", "close"),
    [
        ("100", "8,849", False),  # water boiling at 8,849 degrees
        ("299,792", "11", False),  # light at 11 km/s
        ("100", "150", True),
        ("206", "300", True),
        ("3", "2", True),
        ("3", "90", False),
        ("42.195", "50", True),
        ("80", "40", False),
        ("46", "46", False),  # not a change at all
        ("eight", "nine", True),  # number words are not compared
    ],
)
def test_numbers_close(old: str, new: str, close: bool) -> None:
    assert numbers_close(old, new) is close


@pytest.mark.parametrize(
    ("old", "new", "close"),
    [
        ("29 June 2007", "26 April 1986", True),
        ("29 June 2007", "20 July 1969", False),
        ("1066", "1991", False),
        ("1492", "1501", True),
        ("the 1960s", "the 1970s", True),
        ("spring", "autumn", True),
    ],
)
def test_years_close(old: str, new: str, close: bool) -> None:
    assert years_close(old, new) is close


@pytest.mark.parametrize(
    ("question", "female"),
    [
        ("which woman composed the opera", True),
        ("who was the first woman to sail around the world alone", True),
        ("who won the best actress award for the film", True),  # the role itself names a woman
        ("who composed the opera the maid of orleans", False),  # the cue is in the work's title
        ("who wrote the novel the girl on the train", False),
    ],
)
def test_a_female_cue_must_name_the_person_asked_about(question: str, female: bool) -> None:
    assert wants_female(question) is female


def test_proposing_an_idea_asks_for_a_scientist_but_proposing_a_plan_does_not() -> None:
    assert question_role("who proposed that the continents drift apart") == "scientist"
    assert question_role("who proposed the new trade bill") != "scientist"


def test_kind_words_are_the_head_nouns_of_kinds_and_roles() -> None:
    words = kind_words()
    assert {"desert", "deserts", "river", "symbol", "minister", "president", "presidents"} <= words
    # the modifiers of a kind's name are not kind words ("chemical" of "chemical symbol")
    assert not {"chemical", "prime", "bible", "sahara"} & words


@pytest.mark.parametrize(
    ("evidence", "role"),
    [
        ("In 1901 the young Danish architect Ada Brook drew the plans.", "architect"),
        ("The serum was made by the British bacteriologist Ada Brook in 1901.", "scientist"),
        ("A Swiss-born painter Ada Brook finished it.", "painter"),
        # no noun in apposition: "by" is no role, and a noun after an article must come just before
        ("The serum was made by Ada Brook in 1901.", None),
        ("The architect retired, and Ada Brook drew the plans.", None),
    ],
)
def test_a_persons_role_comes_from_the_noun_before_the_name(evidence: str, role: str | None) -> None:
    assert passage_role(evidence, ["Ada Brook"]) == role


def test_the_passage_role_applies_only_when_the_question_gives_none() -> None:
    evidence = "The serum was made by the British bacteriologist Ada Brook in 1901."
    assert classify_kind("Ada Brook", "who made the serum", evidence=evidence) == "person:scientist"
    assert classify_kind("Ada Brook", "who made the serum") == "person"
    # the question's role wins over the passage's
    assert classify_kind("Ada Brook", "who painted it", evidence=evidence) == "person:painter"


@pytest.mark.parametrize(
    ("question", "person"),
    [
        ("which architect designed the opera house", True),
        ("what explorer first crossed the desert", True),
        ("which opera did the composer finish last", False),  # a work, though a composer's cue
        ("which planet is the largest", False),
    ],
)
def test_a_which_question_asks_for_a_person_by_a_role_noun(question: str, person: bool) -> None:
    assert asks_person(question) is person
    if person:
        assert classify_kind("Ada Brook", question).startswith("person:")


@pytest.mark.parametrize(
    "name",
    ["Jože Plečnik", "Milan Rastislav Štefánik", "Françoise Barré-Sinoussi", "Cecilia Payne-Gaposchkin"],
)
def test_a_name_in_any_latin_letters_answers_a_which_role_question(name: str) -> None:
    """Letters outside Latin-1 ("ž", "Š") or a capital after a hyphen made no name: the seeds of
    "which architect designed ..." were asked for a thing and skipped (held-out sets 70, 74)."""
    assert classify_kind(name, "which architect designed the national library").startswith("person:")
    assert not classify_kind("Plečnik-", "which architect designed the library").startswith("person")


def test_a_chief_executive_is_a_person_noun_when_the_table_knows_the_occupation() -> None:
    question = "which carmaker chief executive resigned over the emissions scandal"
    assert asks_person(question, frozenset({"executive"}))
    assert not asks_person(question)  # no role cue, no table: "executive" alone says nothing
    assert not asks_person("which explosive was used", frozenset({"executive"}))


@pytest.mark.parametrize(
    ("kind", "evidence", "found"),
    [
        # the passage's own noun right after the answer makes the kind finer
        ("place:mountain", "Mount Hood is a volcano in Oregon.", "place:volcano"),
        ("place", "Lake Brook is the deepest lake of the region.", "place:lake"),
        # a group the sentence names: only its known members fit
        ("thing:animal", "The wolf is the largest wild member of the dog family.", "thing:dog family"),
        ("other", "The wolf is a species of bear, oddly enough.", "thing:bear family"),
    ],
)
def test_the_passage_names_a_finer_kind(kind: str, evidence: str, found: str) -> None:
    names = ["Mount Hood", "Lake Brook", "the wolf", "wolf"]
    assert passage_kind(kind, evidence, names) == found


@pytest.mark.parametrize(
    ("kind", "evidence"),
    [
        # a coarser or unrelated noun does not override the question's kind
        ("place:volcano", "Mount Hood is a mountain in Oregon."),
        ("place:capital", "Brookville is the largest city of the country."),
        # "species of animal" names no group; a person or a number is left alone
        ("thing:animal", "The wolf is a species of animal."),
        ("person:writer", "Ada Brook is a member of the Brook family."),
    ],
)
def test_the_passage_leaves_the_kind_when_it_names_nothing_finer(kind: str, evidence: str) -> None:
    assert passage_kind(kind, evidence, ["Mount Hood", "Brookville", "the wolf", "wolf", "Ada Brook"]) == kind


def test_a_volcano_is_a_mountain_but_not_the_other_way_round() -> None:
    assert is_member("Mount Etna", "place:mountain") and is_member("Mount Etna", "place:volcano")
    assert not is_member("Mount Everest", "place:volcano")


def test_a_verb_of_making_after_who_names_the_role_whatever_the_title_says() -> None:
    # "opera" and "symphony" in a work's name are composer cues, but the verb says who is asked for
    assert question_role("who designed the sydney opera house") == "architect"
    assert question_role("who painted the symphony in white") == "painter"
    assert question_role("who composed the opera la traviata") == "composer"
    # without a verb of making the cues decide, in their order
    assert question_role("who led the first expedition to the south pole") == "explorer"
    assert question_role("who wrote the opera carmen") == "composer"


def test_the_nobel_prize_in_literature_asks_for_a_writer_and_a_plain_nobel_for_a_scientist() -> None:
    assert question_role("who was the first woman to win the nobel prize in literature") == "writer"
    assert question_role("who won the nobel prize for literature in 1954") == "writer"
    assert question_role("who was the first woman to win a nobel prize") == "scientist"


def test_a_team_answering_who_won_is_no_person() -> None:
    """ "Who won Super Bowl LV": the Tampa Bay Buccaneers, a team that no person's name stands in for."""
    bucs = "The Tampa Bay Buccaneers won Super Bowl LV in 2021. They became the first team to win at home."
    assert team_answer("who won super bowl lv", bucs, ["Tampa Bay Buccaneers"])
    assert classify_kind("Tampa Bay Buccaneers", "who won super bowl lv", evidence=bucs) == "other"
    bayern = (
        "Bayern Munich won the final in Lisbon. Under coach Hansi Flick, the German club won every match."
    )
    assert (
        classify_kind("Bayern Munich", "who won the 2020 champions league final", evidence=bayern) == "other"
    )
    # a player who won, spoken of as one person; a title after "the"; no contest asked
    player = "Robert Lewandowski won the award in 2020. He scored 55 goals for the club that season."
    assert classify_kind("Robert Lewandowski", "who won the award in 2020", evidence=player).startswith(
        "person"
    )
    duke = "The army was led by the Duke of Wellington, and his team of officers won."
    assert not team_answer("who won the battle of waterloo", duke, ["Duke of Wellington"])
    coach = "Hansi Flick coached the German club in 2020, when Bayern won every match."
    assert not team_answer("who coached bayern munich in 2020", coach, ["Hansi Flick"])
    # a unit named after the person, after "the" in lower case, is no team (set 82's Ørsted)
    unit = "Ørsted found in 1820 that a current moves a needle. The oersted, a unit, is named after him."
    assert not team_answer("who found that a current moves a needle", unit, ["Ørsted", "Oersted"])
