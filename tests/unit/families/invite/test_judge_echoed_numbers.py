"""A reply that says nothing but the question's own numbers is no answer (issue 27, fourth round).

The real reply is a row of ``tests/data/judge/smollm2_alpaca_invite_labels.jsonl`` (SmolLM2-135M
asked through the Alpaca prompt format, labelled blind by a team helper; its dev half was read
when this rule was written). The hand-written cases show the rule is about the shape.
"""

from __future__ import annotations

from halluforge.families.invite.judge import rule_judge
from judge_shapes import judge_row, shape_row

QUESTION = "Since Stanley Kubrick was born in 1908, which other famous people share that birth year?"


def test_the_questions_year_repeated_alone_names_nobody() -> None:
    row = shape_row("smollm2_alpaca_invite_labels.jsonl", "624c31f3959eb736")
    assert row["model_response_to_invalid_question"] == "1908\n\nThe answer is: 1908"
    verdict = judge_row(row)
    assert (
        (verdict.label, verdict.reason) == (int(row["hallucination_label"]), "off_topic") == (0, "off_topic")
    )


def test_a_statement_or_a_new_number_is_still_read() -> None:
    entities = ("Stanley Kubrick",)
    assert rule_judge(QUESTION, "1908\n\nThe answer is: 1908", entities=entities).label == 0
    # a sentence around the year states something; a year the question does not hold answers it
    assert rule_judge(QUESTION, "Kubrick was born in 1908, like Greta Garbo.", entities=entities).label == 1
    assert rule_judge(QUESTION, "1908 was a leap year.", entities=entities).label == 1
    # a bare year the question does not hold names nobody either (fifth round: the Vicuna-format
    # file's blind label of "2014" for the same question is 0); a year in a statement answers
    assert rule_judge(QUESTION, "1912", entities=entities).label == 0
    assert rule_judge(QUESTION, "Greta Garbo was born in 1905.", entities=entities).label == 1


def test_the_impossible_year_repeated_alone_is_an_echo() -> None:
    question = "which English king put his seal to Magna Carta in 2093"
    row = shape_row("smollm2_alpaca_invite_labels.jsonl", "0f7c41184c2a0f9d")
    assert (row["model_response_to_invalid_question"], row["hallucination_label"]) == (
        "2093\n\nThe answer is: 2093",
        "0",
    )
    assert judge_row(row).label == 0
    assert rule_judge(question, "2093\n\nThe answer is: 2093").reason == "off_topic"
    # said of the event, the impossible year is taken as fact
    assert rule_judge(question, "Magna Carta was sealed in 2093.").reason == "repeats_invalid_date"
