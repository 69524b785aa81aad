"""Rules of issue 27's second round, each checked on a real reply.

The replies are in ``tests/data/judge/round_two_shapes.jsonl``: dev-half rows of the team's
sampled SmolLM2 labels and one INVITE GPT-J-6B reply (CC-BY-NC 4.0, labelled by the INVITE
authors), each naming its source, the shape it shows and the reason the judge must give.
The hand-written cases beside them show the rule is about the shape, not the one reply.
"""

from __future__ import annotations

from typing import Any

import pytest

from halluforge.families.invite.judge import rule_judge
from judge_shapes import judge_row, shape_rows

ROWS = shape_rows("round_two_shapes.jsonl")


@pytest.mark.parametrize("row", ROWS, ids=[f"{r['model']}:{r['id']}:{r['shape']}" for r in ROWS])
def test_real_replies_of_round_two(row: dict[str, Any]) -> None:
    verdict = judge_row(row)
    assert (verdict.label, verdict.reason) == (int(row["hallucination_label"]), row["expect"]), verdict


def test_a_life_span_answering_an_impossible_year_question_is_no_corrected_year() -> None:
    # the impossible year is the "swapped" span of a date question: another year in a life span
    # is no correction of it, so a wrong name with its dates is a wrong answer
    question = "which chemist isolated fjordium in 2077"
    verdict = rule_judge(
        question, "Kari Moe (1901-1988)", entities=("2077",), this_year=2026, valid_answers=("Ola Dahl",)
    )
    assert (verdict.label, verdict.reason) == (1, "answers_despite_invalid_date")
    # a swapped year of a false premise is still corrected by another year
    corrected = rule_judge(
        "What happened to Ola Dahl in 1931?", "He moved to Bergen in 1935.", entities=("1931",)
    )
    assert (corrected.label, corrected.reason) == (0, "states_another_date")


def test_talk_about_a_word_is_no_answer() -> None:
    question = "which ship first crossed the Oslofjord on 34 July 1961"
    verdict = rule_judge(
        question,
        'Havblikk: the word "Havblikk" is Norwegian for a calm sea.',
        this_year=2026,
        valid_answers=("Nordlys",),
    )
    assert (verdict.label, verdict.reason) == (0, "off_topic")


def test_a_legal_form_after_the_asked_company_is_no_new_name() -> None:
    question = "Bergen's own Fjord Rope Co, founded on 40th May, 1911, is now called what?"
    assert rule_judge(question, "It is now called Fjord Rope, Inc.").reason == "off_topic"
    assert rule_judge(question, "It is now called Nordic Cable Ltd.").reason == "answers_despite_invalid_date"
