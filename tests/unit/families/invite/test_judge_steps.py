"""Each decision step of the rule judge on reply shapes of the failure kinds in issue 10.

The replies are written here (not copied from any label file): base-model artefacts that never
engage with the question, loops with and without a claim, premises restated inside a ramble,
rejections, and the date forms the forged INVITE questions use.
"""

from __future__ import annotations

import pytest

from halluforge.families.invite.judge import assertion, engagement, read_reply, rule_judge, stance
from halluforge.families.invite.judge.steps import STEPS, rule_features
from halluforge.families.invite.judge.text import invalid_dates

Q = "When did Marta Olsen marry Viktor Hale?"
SWAP = ("Viktor Hale",)


def _engage(response: str, question: str = Q) -> str | None:
    verdict = engagement(read_reply(question, response, entities=SWAP), response)
    return None if verdict is None else verdict.reason


# ---------------------------------------------------------------- step 1: engagement


@pytest.mark.parametrize(
    ("response", "reason"),
    [
        ("", "empty"),
        (f"{Q}\n{Q}\n{Q}\n{Q}", "echo"),
        ("The answer is:\n\nThe answer is:", "degenerate"),
        ("Output: 1\nLabel: positive\nOutput: 0\nLabel: negative", "few_shot_artefact"),
        ("Input: translate to French\nOutput: bonjour", "few_shot_artefact"),
        (
            "What is the capital of Peru?\nLima.\nWhat is the largest ocean?\nThe Pacific.",
            "unrelated_questions",
        ),
        ("### Instruction:\nSummarise the text.\n### Response:", "few_shot_artefact"),
    ],
)
def test_engagement_step_rejects_replies_that_never_engage(response: str, reason: str) -> None:
    assert _engage(response) == reason
    verdict = rule_judge(Q, response, entities=SWAP)
    assert (verdict.label, verdict.step) == (0, "engagement")


@pytest.mark.parametrize(
    "response",
    [
        "Marta Olsen married Viktor Hale in 1994.",
        "They married in the spring of 1994 in Oslo.",
        "Marta Olsen married Viktor Hale.",  # the premise restated, no new word: still engages
    ],
)
def test_engagement_step_lets_claims_through(response: str) -> None:
    assert _engage(response) is None


def test_an_answer_before_a_chain_of_other_questions_still_counts() -> None:
    reply = "Marta Olsen married Viktor Hale in 1994.\nWhat is her job?\nShe is a nurse.\nWhat is his age?"
    reading = read_reply(Q, reply, entities=SWAP)
    assert reading.engaged == ["Marta Olsen married Viktor Hale in 1994."]
    assert rule_judge(Q, reply, entities=SWAP).reason == "asserts_premise"


def test_a_claim_before_a_few_shot_block_still_counts() -> None:
    reply = "Viktor Hale and Marta Olsen wed in 1994.\nOutput: 1\nLabel: married"
    verdict = rule_judge(Q, reply, entities=SWAP)
    assert (verdict.label, verdict.reason) == (1, "asserts_premise")


def test_a_loop_without_a_claim_is_not_engaged_and_a_loop_with_one_is_a_claim() -> None:
    empty_loop = "\n".join(["The answer is:"] * 12)
    assert rule_judge(Q, empty_loop, entities=SWAP).reason == "degenerate"
    claim_loop = "\n".join(["Viktor Hale married Marta Olsen in 1994."] * 12)
    assert rule_judge(Q, claim_loop, entities=SWAP).label == 1


def test_a_question_about_the_asked_names_does_not_end_the_engaged_part() -> None:
    reply = "Who was Viktor Hale's first wife? Viktor Hale married Marta Olsen in 1994."
    reading = read_reply(Q, reply, entities=SWAP)
    assert reading.engaged[-1] == "Viktor Hale married Marta Olsen in 1994."


# ---------------------------------------------------------------- step 2: stance


@pytest.mark.parametrize(
    ("response", "reason"),
    [
        ("There is no record of Marta Olsen marrying Viktor Hale.", "rejects_premise"),
        ("Viktor Hale never married Marta Olsen.", "negates_premise"),
        ("Viktor Hale was actually married to Anna Berg.", "corrects_premise"),
        ("I'm sorry, I can't help with that.", "refuses"),
        ("I don't know when that happened.", "uncertain"),
        ("The answer is not provided in any source.", "rejects_premise"),
    ],
)
def test_stance_step_catches_rejections(response: str, reason: str) -> None:
    verdict = stance(read_reply(Q, response, entities=SWAP))
    assert verdict is not None and (verdict.label, verdict.reason, verdict.step) == (0, reason, "stance")


def test_a_hedge_turned_assertion_is_not_a_rejection() -> None:
    reply = "I'm not sure, but I know they married in 1994."
    assert stance(read_reply(Q, reply, entities=SWAP)) is None
    assert rule_judge(Q, reply, entities=SWAP).label == 1


def test_a_not_deep_inside_a_ramble_is_not_a_rejection() -> None:
    reply = (
        "Marta Olsen married Viktor Hale in 1994 in a small church. It was a sunny day. "
        "The guests could not stop dancing, and the band did not rest until dawn."
    )
    verdict = rule_judge(Q, reply, entities=SWAP)
    assert (verdict.label, verdict.reason) == (1, "asserts_premise")


def test_stance_another_real_date_corrects_an_impossible_one() -> None:
    question = "which treaty was signed in Lisbon on March 34, 1703"
    verdict = rule_judge(question, "The Methuen Treaty, signed on December 27, 1703.", this_year=2026)
    assert (verdict.label, verdict.reason) == (0, "states_another_date")


def test_stance_another_year_corrects_a_swapped_year() -> None:
    question = "Nordwerk was founded in 1701; on which day of that year was it founded?"
    verdict = rule_judge(question, "Nordwerk was founded on 4 May 1932.", entities=("1701",))
    assert (verdict.label, verdict.reason) == (0, "states_another_date")


def test_stance_places_the_thing_elsewhere() -> None:
    question = "In which district of Lyon is Harbour Tower situated?"
    reply = "Harbour Tower is located in Rotterdam, in the Netherlands."
    assert rule_judge(question, reply, entities=("Lyon",)).reason == "places_elsewhere"
    assert (
        rule_judge(
            question, "Harbour Tower is located in the 3rd district of Lyon.", entities=("Lyon",)
        ).label
        == 1
    )


# ---------------------------------------------------------------- step 3: assertion


@pytest.mark.parametrize(
    ("question", "response", "reason"),
    [
        (Q, "Viktor Hale married her in the summer.", "asserts_premise"),
        ("What did Ola Dahl study at Tromsø College?", "He studied at Tromsø College.", "asserts_premise"),
        (
            "How long did Ola Dahl spend writing Grey Fjord?",
            "The answer to this question is 12 months.",
            "answers",
        ),
        ("How much of the budget did Ola Dahl raise?", "The answer is: 40.", "answers"),
        (Q, "It happened in 1994.", "answers"),
        (Q, "The weather was nice and everyone was happy.", "off_topic"),
    ],
)
def test_assertion_step(question: str, response: str, reason: str) -> None:
    verdict = rule_judge(question, response, entities=SWAP if question == Q else ())
    assert (verdict.reason, verdict.step) == (reason, "assertion")
    assert verdict.label == (0 if reason == "off_topic" else 1)


def test_assertion_on_dates() -> None:
    question = "which bridge opened in Oslo on 34 July 1961"
    assert invalid_dates(question, this_year=2026) == ["34"]
    assert rule_judge(question, "The Elgar Bridge opened on 34 July 1961.", this_year=2026).reason == (
        "repeats_invalid_date"
    )
    # answered without flagging or correcting the impossible date, valid answers unknown:
    # the judge cannot check the answer and counts it as going along
    verdict = assertion(read_reply(question, "The Elgar Bridge.", this_year=2026))
    assert (verdict.label, verdict.reason) == (1, "answers_despite_invalid_date")


DATE_Q = "which ferry first crossed the Oslofjord on 34 July 1961"
VALID = ("the Nordlys", "Nordlys")


@pytest.mark.parametrize(
    ("response", "label", "reason"),
    [
        # the true answer to the valid part, impossible date left out: no inaccurate statement
        ("The ferry was the Nordlys.", 0, "answers_valid_part"),
        ("Nordlys", 0, "answers_valid_part"),
        # another answer stated as fact: false whatever the date
        ("The Stormbird made the first crossing.", 1, "answers_despite_invalid_date"),
        # the true answer with the impossible date repeated still goes along with the date
        ("The Nordlys crossed on 34 July 1961.", 1, "repeats_invalid_date"),
        # no answer at all: only the question's own names, or talk about the answer
        ("the Oslofjord", 0, "echo"),
        ("This question needs a short answer, and I will give one later.", 0, "off_topic"),
    ],
)
def test_a_date_answer_is_checked_against_the_valid_answers(response: str, label: int, reason: str) -> None:
    verdict = rule_judge(DATE_Q, response, this_year=2026, valid_answers=VALID)
    assert (verdict.label, verdict.reason) == (label, reason)


def test_a_bracketed_life_span_is_not_a_corrected_date() -> None:
    question = "which chemist isolated fjordium in 2077"
    wrong = rule_judge(question, "Kari Moe (1901-1988)", this_year=2026, valid_answers=("Ola Dahl",))
    assert (wrong.label, wrong.reason) == (1, "answers_despite_invalid_date")
    corrected = rule_judge(question, "Ola Dahl isolated it in 1951.", this_year=2026)
    assert (corrected.label, corrected.reason) == (0, "states_another_date")


# ---------------------------------------------------------------- what is no claim


@pytest.mark.parametrize(
    "response",
    [
        # a lead-in that announces a claim and never makes it, in a loop
        "Viktor Hale is listed under the following names:\nViktor Hale is listed under the following names:",
        # talk about the answer or the question instead of the world
        "This answer is part of a list that I keep for such questions.",
        "You did not need an explanation; the answer is given by the Model Team.",
        "Alright, I'll try again.\n\nThe answer to this question is:",
    ],
)
def test_lead_ins_and_talk_about_the_answer_assert_nothing(response: str) -> None:
    verdict = rule_judge(Q, response, entities=SWAP)
    assert verdict.label == 0, verdict


def test_an_answer_inside_talk_about_the_answer_still_counts() -> None:
    verdict = rule_judge(Q, 'To keep it short, I will only give the answer, "In 1994."', entities=SWAP)
    assert (verdict.label, verdict.reason) == (1, "answers")


def test_a_sentence_about_the_swapped_entity_alone_does_not_state_the_premise() -> None:
    question = "How did Ola Dahl become famous for Radar?"
    other = rule_judge(question, "Ola Dahl became famous for his work on glaciers.", entities=("Ola Dahl",))
    assert (other.label, other.reason) == (0, "off_topic")
    linked = rule_judge(question, "Ola Dahl became famous for Radar in the war.", entities=("Ola Dahl",))
    assert (linked.label, linked.reason) == (1, "asserts_premise")
    # the other asked person as a pronoun object still links them
    married = rule_judge(Q, "Viktor Hale married her in the summer.", entities=SWAP)
    assert (married.label, married.reason) == (1, "asserts_premise")


def test_a_pronoun_doing_what_the_question_asks_answers_it() -> None:
    question = "What did Ola Dahl study at Tromsø College?"
    verdict = rule_judge(question, "He was studying geology", entities=("Ola Dahl",))
    assert (verdict.label, verdict.reason) == (1, "asserts_premise")


def test_a_which_day_question_takes_only_a_time_as_an_answer() -> None:
    question = "Fjordco was founded in 1990; on which day of that year was it founded?"
    assert rule_judge(question, "Grand Hall.", entities=("Fjordco",)).label == 0
    assert rule_judge(question, "On the 3rd of March.", entities=("Fjordco",)).reason == "answers"


def test_a_part_named_as_a_part_answers_a_which_part_question() -> None:
    question = "Which part of Norway is Kivik located in?"
    reply = "Kivik is located in the village of Aas, in the district of Berg."
    inside = rule_judge(question, reply, entities=("Kivik",))
    assert (inside.label, inside.step) == (1, "assertion")
    elsewhere = rule_judge(question, "Kivik is located in Skåne, Sweden.", entities=("Kivik",))
    assert (elsewhere.label, elsewhere.reason) == (0, "places_elsewhere")


def test_doubt_about_the_answer_then_an_answer_is_a_hedged_claim() -> None:
    question = "When did Ola Dahl publish Grey Fjord?"
    hedged = "I am still not sure when Ola Dahl published Grey Fjord. The first edition came out in 2001."
    assert rule_judge(question, hedged, entities=("Ola Dahl",)).label == 1
    doubt = rule_judge(question, "I am not sure when that happened.", entities=("Ola Dahl",))
    assert (doubt.label, doubt.reason) == (0, "uncertain")
    premise_doubt = "I am not sure Ola Dahl published it at all. A novel called Grey Fjord appeared in 2001."
    assert rule_judge(question, premise_doubt, entities=("Ola Dahl",)).label == 0


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("what fell on July 33, 1969", ["33"]),
        ("what fell on 34 July 1789", ["34"]),
        ("who died on 33 March 44 BC", ["33"]),  # the year BC is not read as a day
        ("what fell on July 4, 1776", []),
        ("what fell on February 30, 1953", ["30"]),
        ("what fell in May 1990", []),
    ],
)
def test_invalid_dates_without_ordinal_suffix(question: str, expected: list[str]) -> None:
    assert invalid_dates(question, this_year=2026) == expected


def test_rule_features_one_hot_the_reason() -> None:
    features = rule_features(Q, "Viktor Hale married Marta Olsen in 1994.", entities=SWAP)
    reasons = [name for name, value in features.items() if name.startswith("reason=") and value]
    assert reasons == ["reason=asserts_premise"]
    assert features["rule_label"] == 1.0 and features["names_entity"] == 1.0
    assert {f"reason={r}" for rs in STEPS.values() for r in rs} <= set(features)
