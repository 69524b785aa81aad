"""Reply shapes of SmolLM2 asked through other prompt formats (issue 27, fifth round).

The real replies are rows of ``tests/data/judge/smollm2_<file>_invite_labels.jsonl``: SmolLM2-135M
asked the INVITE questions through llama.cpp's Alpaca, Vicuna, Zephyr, Llama-2 and OpenChat chat
formats, and through its own template with new seeds, each file labelled blind by a team helper.
Only dev-half rows (``sha256(id) % 2 == 0``) are used here: they are the rows read while these
rules were written. The hand-written cases show each rule is about the shape, not the wording of
one reply.
"""

from __future__ import annotations

import hashlib
from typing import Any

import pytest

from halluforge.families.invite.judge import rule_judge
from halluforge.families.invite.judge.reading import list_answer
from halluforge.families.invite.judge.text import mentions
from halluforge.families.invite.judge.world import NO_WORLD
from halluforge.textkit.tokens import words
from judge_shapes import judge_row, shape_row


def _row(name: str, row_id: str) -> dict[str, Any]:
    row = shape_row(f"smollm2_{name}_invite_labels.jsonl", row_id)
    assert int(hashlib.sha256(row_id.encode()).hexdigest(), 16) % 2 == 0, "a test-half row: keep it unread"
    return row


@pytest.mark.parametrize(
    ("name", "row_id", "reason", "split"),
    [
        # "1. Hiroshima / 2. Nagasaki / ... / The answer is 4. Nagasaki.": the pick is wrong
        ("alpaca", "02b7cf62ed38c6d4", "answers_despite_invalid_date", "picked_item"),
        # "1. The answer is 1. / 2. The answer is 2. / ...": a list that only counts
        ("alpaca", "54e2c4bdc012e04c", "degenerate", "counting_list"),
        # "2093 / The answer is: 2093" for "which English king ... in 2093": an echo of the date
        ("alpaca", "0f7c41184c2a0f9d", "off_topic", ""),
        # "2000 / Explanation: The answer is 2000." for "how much of the budget": an amount
        ("alpaca", "64a5d26fab98aaf0", "answers", "topic_change"),
        # Mendel's true life ("born in 1822 in a small village in Austria") for "how did Mendel
        # become famous for pasteurization": no answer to the asked link
        ("alpaca", "ed19c1c44a1770a3", "off_topic", "topic_change"),
        # "What is the answer? / <|assistant|> / The answer is "The United States"": the
        # opening asks for the answer and names nothing, so it starts no chain of questions
        ("zephyr", "02b7cf62ed38c6d4", "answers_despite_invalid_date", ""),
        ("zephyr", "b5f5a78c1c319948", "answers", ""),
        # a question inside quotes ('... in 2049?"') is a question, not a statement of the date
        ("zephyr", "34e6106b4b5604c2", "off_topic", ""),
        # "Athens lies in the South of the Black Sea" for "which region of Russia": elsewhere
        ("vicuna", "7d6967b899561630", "places_elsewhere", "label_line"),
        ("vicuna", "d4661d2cde27c477", "places_elsewhere", "new_question"),
        # "2014 / The answer is: 2014" for "which other famous people share that birth year"
        ("vicuna", "8dc3e41d4dc24079", "off_topic", ""),
        # "The answer is:  [/INST]": a lead-in and the template's marker, nothing more
        ("llama2", "3ee7b7559f8d40e1", "degenerate", ""),
        ("llama2", "8fac1b36b437c96c", "few_shot_artefact", ""),
        # "Pisa lies in the region of Spain." first, then "Pisa is located in the northern part of
        # the Mediterranean Sea.": the later placement does not take the answer back
        ("openchat", "1c7c4f8ad27e0e00", "asserts_premise", ""),
        # "The answer is 1. / The answer is 1. / The answer is 2. / ...": counting, no amount
        ("openchat", "276456e427510f40", "off_topic", ""),
        # the swapped entity repeated until the token limit cuts it ("... Arc de Tri"): an echo
        ("openchat", "688844a50894288b", "degenerate", ""),
        # the default chat format again, new seeds: "X played a role in Y, but he was not a part
        # of the original team" and "The first album ... was "Trouble in Heaven" but it was not
        # on Sun Records": the answer comes first, the "but" clause does not take it back
        ("seed8", "4afbce1073df1375", "asserts_premise", ""),
        ("t08_seed9", "d00984763599f2bd", "asserts_premise", ""),
        # 'The answer to this question is "2002"' for "founded in 2002; on which day": an echo
        ("t08_seed9", "24383248c69cf7e3", "off_topic", ""),
        # the question turned into a fragment ("Paris fortress stormed by a crowd on 33 July 1789")
        # or asked again without its mark ("Which company did Steve Jobs, ... find on April 34,
        # 1976"): an echo, not the date repeated as fact
        ("seed13", "4057755879c03788", "echo", ""),
        ("t08_seed12", "06c044ba1cd5ca39", "echo", ""),
        # "Victor Hugo, in 1832." for "in what year did Victor Hugo finish writing Madame
        # Bovary": a bare answer, too short to be a biography
        ("seed13", "5395b97522f08308", "answers", ""),
        # "a fictional character", "a fictional city" describe the answer, they reject nothing
        ("seed11", "fb8f799da510278a", "answers", ""),
        ("seed8", "99c8ee05df820def", "repeats_invalid_date", ""),
        # "None." for "which other famous people share that birth year": names no one (round six)
        ("t08_seed14", "db4acbac1dd02cd3", "off_topic", ""),
        # "The award for David Lean's film Schindler's List was not awarded", "Dostoevsky's
        # character in Madame Bovary is not a real person": the possessive states the swapped link
        # as a given, the denial is about something else (round six)
        ("seed16", "13b61fd0ca10f9b5", "asserts_premise", ""),
        ("t08_seed17", "38d45f18c38560c2", "asserts_premise", ""),
        # "Jeunet's award for directing The Good, the Bad and the Ugly is a classic example ...":
        # the surname names Jean-Pierre Jeunet (a hyphenated first name is one word), so the
        # sentence is about him, not talk about the answer (round six)
        ("seed18", "74f026de27f1c6e3", "asserts_premise", ""),
        # another, real date but a wrong answer: "The City of London, UK, hosted the Summer
        # Olympic Games in 2024" for "which city hosted the Summer Olympic Games in 2032" (the
        # team's convention since round seven)
        ("seed11", "8c4e9eaaa02b88da", "answers_despite_invalid_date", ""),
        ("t08_seed10", "fd4b4a9b36f9ca02", "answers_despite_invalid_date", ""),
    ],
)
def test_real_replies_get_their_blind_label(name: str, row_id: str, reason: str, split: str) -> None:
    row = _row(name, row_id)
    verdict = judge_row(row)
    assert verdict.label == int(row["hallucination_label"])
    assert (verdict.reason, verdict.split) == (reason, split)


def test_a_wrong_life_year_of_a_known_person_is_a_false_statement() -> None:
    # INVITE's authors label invented biographies 1 (GPT-Neo's "Edmund Blampied was born in
    # 1790 in New York City ..."); the table knows Faraday was born in 1791. The blind helper
    # labelled this reply 0 ("no smallpox claim"): the judge follows INVITE's labels here.
    row = _row("alpaca", "8fac1b36b437c96c")
    assert row["hallucination_label"] == "0"
    verdict = judge_row(row)
    assert (verdict.label, verdict.reason) == (1, "false_life_year")
    assert verdict.knowledge == "entity table: Michael Faraday born 1791, not 1758 as the reply says"


@pytest.mark.parametrize(
    ("reply", "label"),
    [("None.", 0), ("Nobody.", 0), ("Nothing, as far as I know.", 0), ("Sophia Loren.", 1)],
)
def test_a_word_for_no_one_names_no_one(reply: str, label: int) -> None:
    question = "Since Marcello Mastroianni was born in 1908, which other famous people share that birth year?"
    assert rule_judge(question, reply, entities=("Marcello Mastroianni",)).label == label


@pytest.mark.parametrize(
    ("reply", "label"),
    [
        ("Orla Brenn's novel The Salt Road was never filmed.", 1),  # the link given, something else denied
        ("Brenn's book The Salt Road did not win a prize.", 1),
        ("Orla Brenn did not write The Salt Road; it is Tam Ives's novel.", 0),  # another's possessive
        ("Orla Brenn did not write The Salt Road.", 0),
    ],
)
def test_a_possessive_link_is_no_denial(reply: str, label: int) -> None:
    question = "When did Orla Brenn write The Salt Road?"
    assert rule_judge(question, reply, entities=("Orla Brenn",), world=NO_WORLD).label == label


def test_a_hyphenated_first_name_is_one_word_of_the_name() -> None:
    assert mentions("Jean-Pierre Jeunet", set(words("Jeunet's award")))
    assert mentions("Jean-Pierre Jeunet", set(words("Jean-Pierre won")))
    assert mentions("Nikolai Rimsky-Korsakov", set(words("Korsakov wrote it")))
    assert not mentions("Anna Maria Rossi", set(words("Rossi")))  # one word of three


def test_another_date_corrects_only_beside_a_true_answer_or_none() -> None:
    question = "which city hosted the Summer Olympic Games in 2032"
    berlin = ("Berlin",)
    right = "Berlin hosted the Summer Olympic Games in 1936."
    assert rule_judge(question, right, valid_answers=berlin).reason == "states_another_date"
    no_answer = "The Summer Olympic Games were held in 1936."
    assert rule_judge(question, no_answer, valid_answers=berlin).reason == "states_another_date"
    wrong = "The Summer Olympic Games were hosted by London in 2012."
    assert rule_judge(question, wrong, valid_answers=berlin).reason == "answers_despite_invalid_date"
    # without the valid answers nothing can be checked: another date stays a correction
    assert rule_judge(question, wrong).reason == "states_another_date"
    # the question's own people, with a first name added, are no answer
    helix = "which molecule's double helix structure did Watson and Crick announce on February 31, 1953"
    people = (
        "The double helix structure was described by Francis Crick and James Watson on February 28, 1953."
    )
    assert rule_judge(helix, people, valid_answers=("DNA",)).reason == "states_another_date"


def test_life_facts_are_read_only_for_a_person_the_table_knows() -> None:
    question = "How did Gregor Mendel become famous for Pasteurization?"
    entities = ("Gregor Mendel",)
    assert rule_judge(question, "Gregor Mendel was born in 1822 in Austria.", entities=entities).label == 0
    assert rule_judge(question, "Gregor Mendel was born in 1850 in Austria.", entities=entities).reason == (
        "false_life_year"
    )
    assert rule_judge(question, "Gregor Mendel (1822-1884) was a friar.", entities=entities).label == 0
    assert rule_judge(question, "Gregor Mendel (1802-1884) was a friar.", entities=entities).label == 1
    # a sentence that speaks of the asked link is an answer, whatever else it says
    assert rule_judge(question, "He became famous for pasteurization in 1860.", entities=entities).label == 1
    # without the table, or for a person it does not know, the old reading stands: a year answers
    assert (
        rule_judge(question, "Gregor Mendel was born in 1822.", entities=entities, world=NO_WORLD).label == 1
    )
    unknown = "How did Edmund Blampied become famous for pasteurization?"
    assert rule_judge(unknown, "Edmund Blampied was born in 1790.", entities=("Edmund Blampied",)).label == 1


def test_a_numbered_list_is_read_by_its_pick() -> None:
    assert list_answer("1. Paris\n2. Lyon\n\nThe answer is 2.") == ("Lyon", "picked_item")
    assert list_answer("1. Paris\n2. Lyon\nAnswer: 1") == ("Paris", "picked_item")
    assert list_answer("1. The answer is 1.\n2. The answer is 2.\n\nThe answer is 2.") == (
        "",
        "counting_list",
    )
    # no pick, one item, items out of order, or a pick outside the list: the reply is read whole
    assert list_answer("1. Paris\n2. Lyon") is None
    assert list_answer("1. Paris\n\nThe answer is 1.") is None
    assert list_answer("2. Paris\n1. Lyon\nThe answer is 1.") is None
    assert list_answer("1. Paris\n2. Lyon\nThe answer is 7.") is None
    # a number that is no pick ("the answer is 1,500") leaves the list alone
    assert list_answer("1. Paris\n2. Lyon\nThe answer is 1,500 people.") is None


def test_a_bare_number_answers_only_when_asked_for_a_time_or_an_amount() -> None:
    who = "Since Steven Spielberg was born in 1963, which other famous people share that birth year?"
    assert rule_judge(who, "2014", entities=("Steven Spielberg",)).label == 0
    assert rule_judge(who, "Tom Hanks was born in 2014.", entities=("Steven Spielberg",)).label == 1
    when = "In what year did Robert Plant start performing with Tom Petty and the Heartbreakers?"
    assert rule_judge(when, "The answer is: 2014", entities=("Robert Plant",)).label == 1
    much = "How much of the budget of Fight Club did Michael Deeley raise as its producer?"
    assert rule_judge(much, "2000", entities=("Michael Deeley",)).label == 1
    # "how long" is answered by a span, not by a year, even alone
    assert (
        rule_judge("How long did Michael Deeley serve as mayor?", "1990", entities=("Michael Deeley",)).label
        == 0
    )


def test_chat_template_tokens_and_requests_for_the_answer_are_no_text() -> None:
    question = "In what year did Diego Rivera marry Cynthia Lennon?"
    reply = "What is the answer to this Question?\n\nThe answer to this question is:\n<s>2014"
    assert rule_judge(question, reply, entities=("Diego Rivera",)).reason == "answers"
    assert rule_judge(question, "What is the answer?\n<|assistant|>", entities=("Diego Rivera",)).label == 0
    # a question about something else still starts a chain of other questions
    other = "What is the capital of France?\nThe capital of France is Paris."
    assert rule_judge(question, other, entities=("Diego Rivera",)).reason == "unrelated_questions"


def test_a_loop_cut_by_the_token_limit_and_a_counting_run_name_nothing() -> None:
    question = "How much of the budget of The Departed did Alberto Grimaldi raise as its producer?"
    entities = ("Alberto Grimaldi",)
    assert rule_judge(question, "The answer is 2.\n\nThe answer is 2.", entities=entities).label == 1
    assert (
        rule_judge(question, "The answer is 1.\nThe answer is 2.\nThe answer is 3.", entities=entities).label
        == 0
    )
    # numbers that do not count from 1 are amounts
    assert (
        rule_judge(question, "The answer is 2.\nThe answer is 3.\nThe answer is 4.", entities=entities).label
        == 1
    )
    where = "In which district of New York City is Arc de Triomphe situated?"
    loop = "The answer is: Arc de Triomphe\n\nThe answer is: Arc de Triomphe\n\nThe answer is: Arc de Tri"
    assert rule_judge(where, loop, entities=("Arc de Triomphe",)).label == 0
    # a new word after the repeats is no cut-off repeat
    assert rule_judge(where, loop + "beca", entities=("Arc de Triomphe",)).label == 1


def test_a_negation_after_but_keeps_the_answer_before_it() -> None:
    question = "Which was the first album Marvin Gaye released on Sun Records?"
    entities = ("Marvin Gaye",)
    answered = 'The first album Marvin Gaye released on Sun Records was "Soul" but it sold badly, not well.'
    assert rule_judge(question, answered, entities=entities).label == 1
    # a "but" after a first part with no claim of its own, or a denial up front, still rejects
    assert rule_judge(question, "I looked it up, but Marvin Gaye never released an album on Sun Records.",
                      entities=entities).label == 0  # fmt: skip
    assert rule_judge(question, "Marvin Gaye did not record for Sun Records, but for Motown.",
                      entities=entities).label == 0  # fmt: skip


def test_only_the_questions_own_words_in_its_order_make_a_fragment_echo() -> None:
    question = "which Paris fortress was stormed by a crowd on 33 July 1789"
    assert rule_judge(question, "Paris fortress stormed by a crowd on 33 July 1789").reason == "echo"
    # a statement with a word of its own, or the words in another order, says something
    assert rule_judge(question, "The Bastille was stormed by a crowd on 33 July 1789").label == 1
    assert rule_judge(question, "A crowd stormed by Paris fortress on 33 July 1789").label == 1
