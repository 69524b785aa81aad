"""The claims generator (ABCD): rule decomposition, parsing, validators, LLM vs fallback paths."""

from __future__ import annotations

import asyncio

import pytest

from halluforge.backends import open_backend
from halluforge.families.claims.generator import ClaimsGenerator, ClaimsOptions, parse_decomposition
from halluforge.families.claims.rules import check_claims, rule_claims, split_wh
from halluforge.forge.base import ForgeContext
from halluforge.records import Example, TestCase

QUESTION = (
    "Which French author wrote a novel in which Professor Lidenbrock climbs down into an Icelandic volcano "
    "and also created the submarine captain Nemo?"
)
GOLD = ["Jules Verne", "Verne"]


@pytest.mark.parametrize(
    ("question", "kind", "type_claim"),
    [
        ("Who painted Guernica?", "person", "<answer> is a person."),
        ("When did the Berlin Wall fall?", "date", "<answer> is a date."),
        ("Where is the Atacama Desert?", "place", "<answer> is a place."),
        ("In what year did the Berlin Wall fall?", "year", "<answer> is a year."),
        ("Which French author wrote Nemo?", "French author", "<answer> is a French author."),
        (
            "Which United States president was shot?",
            "United States president",
            "<answer> is a United States president.",
        ),
        (
            "Which basilica in Barcelona, designed by Gaudi, is unfinished?",
            "basilica",
            "<answer> is a basilica in Barcelona.",
        ),
    ],
)
def test_the_type_claim_comes_from_the_wh_phrase(question: str, kind: str, type_claim: str) -> None:
    found_kind, found_claim, _ = split_wh(question)
    assert (found_kind, found_claim) == (kind, type_claim)


def test_rule_claims_split_clauses_about_the_answer() -> None:
    rule = rule_claims(QUESTION)
    assert rule.texts == (
        "<answer> is a French author.",
        "<answer> wrote a novel in which Professor Lidenbrock climbs down into an Icelandic volcano.",
        "<answer> created the submarine captain Nemo.",
    )
    assert not check_claims(rule.texts, QUESTION, GOLD)


def test_rule_claims_keep_and_between_nouns_and_split_appositives() -> None:
    rule = rule_claims(
        "What chemical element, found by Marie and Pierre Curie in 1898, is named after Marie Curie's home "
        "country?"
    )
    assert rule.texts[1:] == (
        "<answer> was found by Marie and Pierre Curie in 1898.",
        "<answer> is named after Marie Curie's home country.",
    )
    inverted = rule_claims(
        "What instrument did Niccolo Paganini play, which has four strings tuned in fifths?"
    )
    assert inverted.texts[1:] == (
        "Niccolo Paganini did play <answer>.",
        "<answer> has four strings tuned in fifths.",
    )


def test_rule_claims_never_exceed_eight() -> None:
    clauses = " and ".join(f"won prize {i}" for i in range(12))
    rule = rule_claims(f"Which writer {clauses}?")
    assert len(rule.texts) == 8


@pytest.mark.parametrize(
    ("texts", "problem"),
    [
        (["<answer> is an author."], "1 claims"),
        ([f"<answer> did thing {i}." for i in range(9)], "9 claims"),
        (["<answer> wrote Nemo.", "<answer> is an author."], "not a type claim"),
        (["<answer> is an author.", "Nemo is a captain."], "claim 2 does not mention <answer>"),
        (["<answer> is an author.", "<answer> wrote <novel>."], "appear in one claim only"),
        (["<answer> is an author.", "<answer> wrote <The Novel!>.", "<answer> x"], "malformed"),
        (["<answer> is an author.", "<answer> is Jules Verne."], "names the gold answer"),
        (["<answer> is an author.", "<answer> made Nemo.", "<answer> made nemo."], "duplicate"),
        (
            ["<answer> is an author.", "The microscope maker Leeuwenhoek lived in the city of <answer>."],
            "claim 2 is mostly about things the question does not mention",
        ),
        (
            [
                "<answer> is an author.",
                "<answer> wrote a novel in which Professor Lidenbrock climbs down into an Icelandic volcano "
                "and also created the submarine captain Nemo.",
            ],
            "restates the whole question",
        ),
    ],
)
def test_validators_name_the_problem(texts: list[str], problem: str) -> None:
    assert any(problem in p for p in check_claims(texts, QUESTION, GOLD))


def test_shared_tags_are_valid() -> None:
    texts = [
        "<answer> is an author.",
        "<answer> wrote the novel <novel>.",
        "<novel> by <answer> has Professor Lidenbrock in a volcano.",
        "<answer> created Nemo.",
    ]
    assert check_claims(texts, QUESTION, GOLD) == []


def test_parse_decomposition_reads_the_numbered_list_and_stops_at_a_new_question() -> None:
    reply = (
        '"which French author" asks for an author, so the answer is an author.\nClaims:\n'
        "1. <answer> is an author.\n2) <answer> wrote <Novel>.\n3. <NOVEL> by <answer> has a volcano.\n\n"
        "Question: Who?\n1. <answer> is invented."
    )
    claims, kind = parse_decomposition(reply)
    assert claims == [
        "<answer> is an author.",
        "<answer> wrote <novel>.",
        "<novel> by <answer> has a volcano.",
    ]
    assert kind == "author"


def _forge(reply: str, **options: object) -> TestCase:
    llm = open_backend("mock/script", {"script": [["Break a quiz question", reply]], "default": "?"})
    example = Example.build(QUESTION, GOLD, source="toy", metadata={"category": "literature"})
    generator = ClaimsGenerator(ClaimsOptions.model_validate(options))
    (case,) = asyncio.run(generator.forge_one(example, ForgeContext(llm=llm, examples=[example])))
    assert isinstance(case, TestCase)
    return case


def test_an_accepted_decomposition_is_recorded_as_llm() -> None:
    case = _forge(
        "the answer is an author.\nClaims:\n1. <answer> is an author.\n2. <answer> wrote <novel>.\n"
        "3. <novel> by <answer> has Professor Lidenbrock in a volcano.\n4. <answer> created Nemo."
    )
    assert case.metadata["decomposition"] == "llm" and case.metadata["entity_type"] == "author"
    assert case.metadata["tags"] == ["<answer>", "<novel>"]
    assert case.valid and case.provenance.fields["claims"].path == "llm"
    assert case.metadata["category"] == "literature"


def test_a_rejected_decomposition_falls_back_to_rules_with_the_reasons() -> None:
    case = _forge("1. Jules Verne is the answer.", retries=1)
    assert case.metadata["decomposition"] == "rule" and case.valid
    path = case.provenance.fields["claims"]
    assert path.path == "fallback" and path.method == "rule_split" and path.attempts == 2
    assert len(path.rejected) == 2 and "does not mention <answer>" in path.rejected[0]
    assert case.claims[0].text == "<answer> is a French author."


def test_claims_are_fixed_per_question() -> None:
    first = _forge("nonsense")
    again = _forge("1. <answer> is an author.\n2. <answer> created Nemo.")
    # the id hashes the example only: a rerun (even with another model output) reuses the stored case
    assert first.id == again.id
