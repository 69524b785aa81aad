"""The premise judge's world-knowledge step (issue 27, item 4): is a bare answer of the asked kind.

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
from halluforge.families.invite.cli import premise_inputs
from halluforge.families.invite.judge import rule_judge
from halluforge.families.invite.judge.world import NO_WORLD, World, asked_kind, default_world, world_of
from halluforge.knowledge.table import Entity, EntityTable

DATA = Path(__file__).resolve().parents[3] / "data" / "judge" / "world_knowledge_shapes.jsonl"
ROWS = [json.loads(line) for line in DATA.read_text(encoding="utf-8").splitlines()]


def _judge(row: dict[str, Any], world: World | None = None) -> Any:
    (item,) = premise_inputs([row])
    return rule_judge(
        item.question,
        item.response,
        entities=item.entities,
        invalid=item.invalid,
        valid_answers=item.valid_answers,
        world=world,
    )


def _full_table() -> World:
    world = default_world()
    assert world.people, world.missing
    return world


@needs("knowledge")
@pytest.mark.parametrize("row", ROWS, ids=[f"{r['id']}:{r['shape']}" for r in ROWS])
def test_real_replies_judged_with_the_table(row: dict[str, Any]) -> None:
    verdict = _judge(row, _full_table())
    assert (verdict.label, verdict.reason) == (int(row["hallucination_label"]), row["expect"]), verdict
    assert verdict.knowledge.startswith("entity table:"), verdict


def test_without_world_knowledge_the_bare_names_count_as_answers() -> None:
    # the step is what changes these verdicts: switched off, every one is a concrete answer
    for row in ROWS:
        verdict = _judge(row, NO_WORLD)
        assert (verdict.label, verdict.reason) == (1, "answers_despite_invalid_date"), row["id"]
        assert verdict.knowledge == ""


def test_without_people_in_the_table_the_check_is_skipped_and_says_so() -> None:
    row = next(r for r in ROWS if r["expect"] == "off_topic")
    bare = World(EntityTable.of([]), people=False, missing="no people in the entity table (install)")
    verdict = _judge(row, bare)
    assert verdict.label == 1
    assert verdict.knowledge == "answer-kind check skipped: no people in the entity table (install)"


# -- hand-made entities, absent from the real table ---------------------------------------------

_INVENTED = [
    Entity("Velmora Quist", "person", "Zarnish playwright (1702–1760)", occupations=("playwright",)),
    Entity("Osk Halden", "person", "Zarnish playwright (1710–1771)", occupations=("playwright",)),
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
