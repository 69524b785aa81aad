"""The rule judge reads the answer, not the run-on (issue 27).

Real replies of each run-on shape come from ``tests/data/judge/run_on_shapes.jsonl`` (copied
from INVITE's labelled GPT-J and GPT-Neo replies, each row naming its source and licence):
the split the judge makes and its label must match the human label. Shapes with no real reply
in the labelled files (a review with its own label lines, Q:/A: pairs, a reply that opens with
a prompt block) are written here, in our own words.
"""

from __future__ import annotations

from typing import Any

import pytest

from halluforge.families.invite.judge import read_reply, rule_judge
from halluforge.families.invite.judge.reading import CUTS
from judge_shapes import shape_rows

ROWS = shape_rows("run_on_shapes.jsonl")
Q = "When did Marta Olsen write Grey Harbour?"
SWAP = ("Marta Olsen",)


def _judge(row: dict[str, Any]) -> Any:
    from halluforge.families.invite.judge.text import swapped_span

    swapped = swapped_span(row["valid_question"], row["invalid_question"])
    return rule_judge(
        row["invalid_question"],
        row["model_response_to_invalid_question"],
        entities=(swapped,) if swapped else (),
    )


@pytest.mark.parametrize("row", ROWS, ids=[f"{r['model']}:{r['id']}:{r['shape']}" for r in ROWS])
def test_real_replies_of_each_shape(row: dict[str, Any]) -> None:
    verdict = _judge(row)
    if row["shape"] in CUTS:
        assert verdict.split == row["shape"]
    else:
        assert verdict.reason == row["shape"]
    assert verdict.label == int(row["hallucination_label"]), verdict


def test_every_cut_has_a_real_reply_but_the_q_a_pair() -> None:
    # label_line, repeated_prompt, new_question, topic_change: all on real replies above
    assert {r["shape"] for r in ROWS} >= set(CUTS)


def test_a_continuation_never_erases_the_answer_before_it() -> None:
    row = next(r for r in ROWS if r["shape"] == "new_question")
    answer = row["model_response_to_invalid_question"].split("\n\n")[0]
    whole = _judge(row)
    alone = _judge(dict(row, model_response_to_invalid_question=answer))
    assert (whole.label, whole.reason) == (alone.label, alone.reason) == (1, "asserts_premise")
    reading = read_reply(row["invalid_question"], row["model_response_to_invalid_question"])
    assert reading.engaged == [answer] and reading.continuation


@pytest.mark.parametrize(
    ("reply", "cut", "label"),
    [
        # an answer, then a product review with its own question and label lines
        (
            "Marta Olsen wrote Grey Harbour in 1961.\n\nReview:\nThis kettle boils fast and looks nice."
            "\nIs it worth the price?\nSentiment: positive",
            "label_line",
            1,
        ),
        # an answer, then Q:/A: pairs of other questions
        (
            "1961.\nQ: What is the capital of Peru?\nA: Lima.\nQ: Who painted the Mona Lisa?\nA: Leonardo.",
            "new_question",
            1,
        ),
        # an answer, then a paragraph on something else
        (
            "Marta Olsen wrote Grey Harbour in 1961.\n\nThe kettle boils fast and looks nice.",
            "topic_change",
            1,
        ),
        # a rejection, then other questions: still a rejection
        ("Marta Olsen did not write Grey Harbour.\nWhat is the capital of Peru?\nLima.", "new_question", 0),
        # the run-on rejects nothing it did not say before: the answer stands
        (
            "Marta Olsen wrote Grey Harbour in 1961.\nQ: Did Marta Olsen write Grey Harbour?\nA: No.",
            "new_question",
            1,
        ),
    ],
)
def test_written_run_on_shapes(reply: str, cut: str, label: int) -> None:
    verdict = rule_judge(Q, reply, entities=SWAP)
    assert (verdict.split, verdict.label) == (cut, label), verdict


@pytest.mark.parametrize(
    "reply",
    [
        "Review:\nThis kettle boils fast.\nSentiment: positive\nReview:\nToo loud.\nSentiment: negative",
        "Input: translate to French\nOutput: bonjour",
    ],
)
def test_a_reply_with_no_answer_at_all_does_not_engage(reply: str) -> None:
    verdict = rule_judge(Q, reply, entities=SWAP)
    assert (verdict.label, verdict.step) == (0, "engagement")


def test_an_answer_stated_first_is_not_taken_back_by_an_aside() -> None:
    reply = "Grey Harbour is a novel by Marta Olsen, published in 1961. It is set in a fictional port town."
    verdict = rule_judge(Q, reply, entities=SWAP)
    assert (verdict.label, verdict.reason) == (1, "asserts_premise")
    # the same cue up front is a rejection
    assert (
        rule_judge(Q, "Grey Harbour is fictional. Marta Olsen wrote no such book.", entities=SWAP).label == 0
    )


def test_a_request_put_as_a_statement_claims_nothing() -> None:
    question = "Which actor played Pinkie in the 2046 film of Brighton Rock?"
    reply = "I'm looking for the actor who played Pinkie in the 2046 film of Brighton Rock."
    assert rule_judge(question, reply, this_year=2026).label == 0
    assert rule_judge(question, "Pinkie was played by Tom Hale in the 2046 film.", this_year=2026).label == 1


def test_a_year_does_not_answer_how_long() -> None:
    question = "How long did Marta Olsen serve as commander of the Siege of Vell?"
    reading_year = rule_judge(
        question, "The Siege of Vell began on June 22, 1944, led by the 1st Army.", entities=SWAP
    )
    assert (reading_year.label, reading_year.reason) == (0, "off_topic")
    assert rule_judge(question, "She served for 3 years.", entities=SWAP).label == 1


def test_an_invalid_date_reply_without_an_answer_is_off_topic() -> None:
    question = "Which company, founded on 73rd July 1915 as Harbour Works Co, is it now called?"
    renamed = rule_judge(question, "Since then everyone has called the company Harbour Works Co.")
    assert (renamed.label, renamed.reason) == (0, "off_topic")
    assert rule_judge(question, "It is now called Tidewater Industries.").label == 1
