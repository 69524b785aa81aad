"""The premise judge's world-knowledge steps (issue 27, item 4).

Is a bare answer of the asked kind; does a reply repeat a life year of the swapped person that
the table contradicts (then a denial beside it does not reject the premise); does a placement
put the asked place in its true country.

Real replies: ``tests/data/judge/world_knowledge_shapes.jsonl``, dev-half rows of the team's
SmolLM2 labels (each names its source file, the shape and the reason the judge must give);
they need the entity table with its people (the ``knowledge`` extra). The hand-made cases use
a small table of invented entities, so they run everywhere and show that a name the table
does not know never decides a verdict.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from extra_skips import needs
from halluforge.cli.main import main
from halluforge.families.invite.judge import rule_judge
from halluforge.families.invite.judge.world import NO_WORLD, World, asked_kind, default_world, world_of
from halluforge.knowledge.table import Entity, EntityTable
from judge_shapes import judge_row, shape_row, shape_rows

ROWS = shape_rows("world_knowledge_shapes.jsonl")


def _full_table() -> World:
    world = default_world()
    assert world.people, world.missing
    return world


@needs("knowledge")
@pytest.mark.parametrize("row", ROWS, ids=[f"{r['id']}:{r['shape']}" for r in ROWS])
def test_real_replies_judged_with_the_table(row: dict[str, Any]) -> None:
    verdict = judge_row(row, _full_table())
    assert (verdict.label, verdict.reason) == (int(row["hallucination_label"]), row["expect"]), verdict
    assert verdict.knowledge.startswith("entity table:"), verdict


def test_without_world_knowledge_the_verdicts_are_the_old_ones() -> None:
    # the steps are what change these verdicts: switched off, the bare names count as answers
    # and the denial as a rejection
    for row in ROWS:
        verdict = judge_row(row, NO_WORLD)
        old = (
            (0, "rejects_premise")
            if row["expect"] == "asserts_premise"
            else (1, "answers_despite_invalid_date")
        )
        assert (verdict.label, verdict.reason) == old, row["id"]
        assert verdict.knowledge == ""


def test_without_people_in_the_table_the_check_is_skipped_and_says_so() -> None:
    row = next(r for r in ROWS if r["expect"] == "off_topic")
    bare = World(EntityTable.of([]), people=False, missing="no people in the entity table (install)")
    verdict = judge_row(row, bare)
    assert verdict.label == 1
    assert verdict.knowledge == "answer-kind check skipped: no people in the entity table (install)"


# -- hand-made entities, absent from the real table ---------------------------------------------

_INVENTED = [
    Entity("Velmora Quist", "person", "Zarnish playwright (1702–1760)", occupations=("playwright",)),
    Entity("Osk Halden", "person", "Zarnish playwright (1710–1771)", occupations=("playwright",)),
    Entity("Idra Vell", "person", "Zarnish novelist (1931–2019)", born=1931, died=2019),
    Entity("Brannock", "place", "Town in Zarnia", place_type="town", country="Zarnia"),
]
_TABLE = world_of(EntityTable.of(_INVENTED, countries={"Zarnia": {"region": "Europe"}}))
_PLAYWRIGHT = "which playwright was born in Brannock on March 35, 1731"
_COUNTRY = "which country won the first Zarnish Cup on March 35, 1731"


@pytest.mark.parametrize(
    ("question", "reply", "label"),
    [
        (_PLAYWRIGHT, "Velmora Quist", 1),  # a person the table knows
        (_PLAYWRIGHT, "Tamsin Orrow", 1),  # unknown to the table: it may be a person, so it answers
        (_PLAYWRIGHT, "The Lanternwright", 0),  # an epithet behind an article names no one
        (_PLAYWRIGHT, "Daughters of Ostrel", 0),  # a title-like phrase headed by no first name
        (_COUNTRY, "Zarnia", 1),  # a country the table knows
        (_COUNTRY, "Brannock Wanderers", 0),  # nothing the table knows: no country
    ],
)
def test_hand_made_entities(question: str, reply: str, label: int) -> None:
    verdict = rule_judge(question, reply, world=_TABLE)
    assert verdict.label == label, verdict
    if label == 0:
        assert verdict.reason == "off_topic" and "no " in verdict.knowledge, verdict


def test_the_asked_kind_comes_from_the_question() -> None:
    assert asked_kind(_PLAYWRIGHT, _TABLE) == "person"
    assert asked_kind(_COUNTRY, _TABLE) == "country"
    assert asked_kind("Who founded Brannock?", _TABLE) == "person"
    assert asked_kind("Which team won the Zarnish Cup?", _TABLE) is None  # no occupation of two people
    assert asked_kind("In what year was Brannock founded?", _TABLE) is None
    # a person asked for by what a person is, not by a job (round eight: "which man led ...")
    assert asked_kind("which man led the Zarnish offensive on March 35, 1731", _TABLE) == "person"


@pytest.mark.parametrize(
    ("reply", "label"), [("The Zarnish had been losing ground.", 0), ("Tamsin Orrow", 1)]
)
def test_a_reply_naming_only_a_people_answers_no_which_man(reply: str, label: int) -> None:
    question = "which man led the offensive at Brannock on March 35, 1731"
    world = world_of(EntityTable.of(_INVENTED, countries={"Zarnia": {}}, demonyms={"zarnish": "Zarnia"}))
    assert rule_judge(question, reply, world=world).label == label


_BIRTH = "Since Idra Vell was born in 1927, which other famous people share that birth year?"


@pytest.mark.parametrize(
    ("reply", "label", "reason"),
    [
        # the wrong year repeated with her name: the premise taken as true, the denial is about the list
        (
            "There are no additional famous people who share a birth year of 1927 with Vell.",
            1,
            "asserts_premise",
        ),
        # a denial that does not repeat the wrong year stays a rejection
        ("There are no additional famous people who share her birth year.", 0, "rejects_premise"),
    ],
)
def test_a_life_year_the_table_contradicts(reply: str, label: int, reason: str) -> None:
    verdict = rule_judge(_BIRTH, reply, entities=["Idra Vell"], world=_TABLE)
    assert (verdict.label, verdict.reason) == (label, reason), verdict
    assert ("born 1931, not 1927" in verdict.knowledge) == (label == 1)


def test_a_life_year_of_a_person_absent_from_the_table_decides_nothing() -> None:
    reply = "There are no additional famous people who share a birth year of 1927 with Orrow."
    verdict = rule_judge(
        _BIRTH.replace("Idra Vell", "Tamsin Orrow"), reply, entities=["Tamsin Orrow"], world=_TABLE
    )
    assert (verdict.label, verdict.reason, verdict.knowledge) == (0, "rejects_premise", "")


@needs("knowledge")
def test_the_cli_writes_the_tables_note_beside_the_rule_reason(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    row = next(r for r in ROWS if r["id"] == "0d14f93d6b60b695")  # "Soccer: Soccer" for "which country"
    source = tmp_path / "SmolLM2.jsonl"
    source.write_text(json.dumps(row) + "\n", encoding="utf-8")
    assert main(["judge", "premise", str(source)]) == 0
    capsys.readouterr()
    (judged,) = [json.loads(x) for x in (tmp_path / "SmolLM2.judged.jsonl").read_text().splitlines()]
    assert judged["judge_label"] == 0
    assert judged["judge_notes"]["rule_reason"] == "off_topic"
    assert judged["judge_notes"]["rule_knowledge"] == "entity table: no country named ('Soccer')"


def test_a_table_that_cannot_load_leaves_the_judge_working(monkeypatch: pytest.MonkeyPatch) -> None:
    import halluforge.knowledge.table as table_module

    def broken() -> EntityTable:
        raise OSError("cache folder unreadable")

    monkeypatch.setattr(table_module, "entity_table", broken)
    default_world.cache_clear()
    try:
        row = next(r for r in ROWS if r["expect"] == "off_topic")
        verdict = judge_row(row)  # the default world: the broken table
        assert verdict.label == 1  # the judge as before round three
        assert verdict.knowledge == (
            "answer-kind check skipped: entity table unavailable (OSError: cache folder unreadable)"
        )
    finally:
        default_world.cache_clear()


# -- where a placement puts the asked place -------------------------------------------------------


@pytest.mark.parametrize(
    ("source", "row_id", "label", "reason", "note"),
    [
        # "Salzburg lies in the Italian region of Lazio", asked of France: Salzburg is Austrian,
        # so the placement elsewhere is an inaccurate statement, not a correction
        (
            "smollm2_seed15_invite_labels.jsonl",
            "f9135ea52d61e669",
            1,
            "false_placement",
            "Salzburg lies in Austria, not Italy",
        ),
        # "... in the context of China, where Osaka lies in Japan": the placement itself names
        # the true country, so it corrects the premise although China is named beside it
        (
            "smollm2_t08_seed14_invite_labels.jsonl",
            "18fe6f4930d4196f",
            0,
            "places_elsewhere",
            "Osaka lies in Japan, as the reply says",
        ),
    ],
)
def test_real_placements_judged_with_the_table(
    source: str, row_id: str, label: int, reason: str, note: str
) -> None:
    row = shape_row(source, row_id)  # dev-half rows of two round-five files
    assert int(row["hallucination_label"]) == label
    verdict = judge_row(row, default_world())
    assert (verdict.label, verdict.reason) == (label, reason), verdict
    assert note in verdict.knowledge, verdict
    # without the table the first is a placement elsewhere (0) and the second asserts the premise
    assert judge_row(row, NO_WORLD).label == 1 - label


_PLACES = world_of(
    EntityTable.of(
        [
            Entity("Brannock", "place", "Town in Zarnia", place_type="town", country="Zarnia"),
            Entity("Quellmoor", "place", "Town in Ostrelia", place_type="town", country="Ostrelia"),
        ],
        countries={"Zarnia": {"region": "Europe"}, "Ostrelia": {"region": "Europe"}, "Velland": {}},
        demonyms={"zarnish": "Zarnia", "ostrelian": "Ostrelia", "vellish": "Velland"},
    )
)


_VELLAND = "In which region of Velland does Brannock lie?"


@pytest.mark.parametrize(
    ("reply", "label", "reason"),
    [
        # its true country by name or nationality word: a correction
        ("Brannock lies in Zarnia.", 0, "places_elsewhere"),
        ("Brannock lies in the Zarnish hills.", 0, "places_elsewhere"),
        # a third country: false whatever the question asked
        ("Brannock lies in the Ostrelian north.", 1, "false_placement"),
        # the asked country by its nationality word: the premise accepted, answered as asked
        ("Brannock lies in the Vellish lowlands.", 1, "asserts_premise"),
    ],
)
def test_hand_made_placements(reply: str, label: int, reason: str) -> None:
    verdict = rule_judge(_VELLAND, reply, world=_PLACES)
    assert (verdict.label, verdict.reason) == (label, reason), verdict


@pytest.mark.parametrize(
    ("reply", "label", "reason"),
    [
        # an answer naming only the true country corrects the premise, with no verb placing Brannock
        ("The answer is: Zarnia.", 0, "places_elsewhere"),
        ("In the Zarnish lowlands, Brannock lies.", 0, "places_elsewhere"),
        # naming the asked country beside it decides nothing here
        ("The answer is: Zarnia, in the north of Velland.", 1, "asserts_premise"),
        # nor does a third country: the true one is then the place of another town
        ("Quellmoor, Ostrelia, lies in the north of Zarnia.", 1, "answers"),
    ],
)
def test_an_answer_naming_the_true_country_corrects(reply: str, label: int, reason: str) -> None:
    # round eight: "The answer is: Kenya" for "In which region of Egypt does Nairobi lie?"
    verdict = rule_judge(_VELLAND, reply, world=_PLACES)
    assert (verdict.label, verdict.reason) == (label, reason), verdict


def test_a_country_named_by_its_initials_is_named() -> None:
    # "In the European region of the UK, Sweden lies in the Baltic Sea", asked of the United
    # Kingdom: the asked country is named too, so Sweden alone does not correct the premise
    world = world_of(
        EntityTable.of(
            [Entity("Brannock", "place", "Town in Zarnia", place_type="town", country="Zarnia")],
            countries={"Zarnia": {}, "North Velland": {}},
            demonyms={},
        )
    )
    question = "In which region of North Velland does Brannock lie?"
    assert rule_judge(question, "In the east of the NV, Zarnia lies.", world=world).label == 1
    assert rule_judge(question, "In the east, Zarnia lies.", world=world).label == 0


def test_a_placement_of_a_place_absent_from_the_table_decides_nothing() -> None:
    question, reply = "In which region of Velland does Tirsk lie?", "Tirsk lies in the Ostrelian north."
    verdict = rule_judge(question, reply, world=_PLACES)
    assert verdict == rule_judge(question, reply, world=NO_WORLD)
    assert verdict.knowledge == ""
