"""Reply shapes of sampled SmolLM2 replies (issue 27, round eight).

Read from the disagreements of the round-six and round-seven files (seeds 16 to 23), after their
first runs were recorded. Real rows are dev-half rows (``sha256(id) % 2 == 0``) of
``tests/data/judge/smollm2_<file>_invite_labels.jsonl``; the hand-made cases show that each rule
is about the shape of a sentence, not the wording of one reply.
"""

from __future__ import annotations

import hashlib

import pytest

from halluforge.families.invite.judge import rule_judge
from halluforge.families.invite.judge.text import is_echo
from halluforge.textkit.tokens import words
from judge_shapes import judge_row, shape_row


@pytest.mark.parametrize(
    ("name", "row_id", "reason"),
    [
        # "Thatcher's academic focus was not only education but also traditionalist education":
        # "not only ... but also" adds to the claim, it denies nothing
        ("t08_seed23", "1a113571795ab7c9", "asserts_premise"),
        # "1.1 days / There is no additional information provided about Akira Kurosawa's
        # duration": the answer comes first, the later line does not take it back
        ("t08_seed21", "0a1f9ebae8dcadac", "answers"),
        ("t08_seed14", "1176c8e4cbca4042", "answers"),
    ],
)
def test_real_replies_get_their_blind_label(name: str, row_id: str, reason: str) -> None:
    assert int(hashlib.sha256(row_id.encode()).hexdigest(), 16) % 2 == 0, "a dev-half row"
    row = shape_row(f"smollm2_{name}_invite_labels.jsonl", row_id)
    verdict = judge_row(row)
    assert (verdict.label, verdict.reason) == (int(row["hallucination_label"]), reason), verdict


_DIRECT = "How long did it take Orla Brenn to direct The Salt Road?"


@pytest.mark.parametrize(
    ("reply", "label"),
    [
        ("Orla Brenn is not the only one who directed The Salt Road.", 1),
        ("Orla Brenn was not just the director of The Salt Road but also its writer.", 1),
        ("It wasn't until 1999 that Orla Brenn directed The Salt Road, in three weeks.", 1),
        ("Orla Brenn did not direct The Salt Road.", 0),
        ("Not Orla Brenn: The Salt Road was directed by Tam Ives.", 0),
        ("Orla Brenn never directed The Salt Road.", 0),
    ],
)
def test_a_not_that_adds_or_names_denies_nothing(reply: str, label: int) -> None:
    assert rule_judge(_DIRECT, reply, entities=("Orla Brenn",)).label == label


def test_a_capitalised_not_is_a_word_of_a_title() -> None:
    question = "Which was the first album Orla Brenn released on Motown?"
    reply = "The first album Orla Brenn released on Motown was Not Now, Darling."
    assert rule_judge(question, reply, entities=("Orla Brenn",)).label == 1
    denial = "The first album Orla Brenn released was not on Motown."
    assert rule_judge(question, denial, entities=("Orla Brenn",)).label == 0


@pytest.mark.parametrize(
    ("reply", "label"),
    [
        ("Three hours", 1),  # an amount in words
        ("It took him twenty-two days.", 1),
        ("The budget raised was 1550 million dollars.", 1),  # a number before "million" is no year
        ("It took a while.", 0),
        ("Orla Brenn directed it in 1999.", 0),  # a year does not say how long
    ],
)
def test_an_amount_may_be_written_in_words(reply: str, label: int) -> None:
    assert rule_judge(_DIRECT, reply, entities=("Orla Brenn",)).label == label


def test_a_number_in_words_answers_only_a_question_of_amount() -> None:
    question = "Which character in The Salt Road did Orla Brenn base on a real person?"
    assert rule_judge(question, "One day she met a sailor.", entities=("Orla Brenn",)).label == 0


def test_a_later_line_does_not_take_back_an_answer() -> None:
    reply = "4.5 hours\n\nThere is no information provided about how long Orla Brenn took."
    assert rule_judge(_DIRECT, reply, entities=("Orla Brenn",)).reason == "answers"
    # a doubt before any answer still declines
    assert rule_judge(_DIRECT, "I'm not sure. It is unclear.", entities=("Orla Brenn",)).label == 0


_ASKED = "which city hosted the Summer Olympic Games in 2099"


@pytest.mark.parametrize(
    ("sentence", "echo"),
    [
        ("The city that hosted the Summer Olympic Games in 2099", True),
        ("A city which hosted the Summer Olympic Games in 2099.", True),
        # a verb of its own: a statement, even in the question's words
        ("The city hosted the Summer Olympic Games in 2099.", False),
        ("The city of the Olympic Games hosted the Games that hosted the Summer Olympic Games", False),
        # a new word: it says something the question does not
        ("The city that hosted the Summer Olympic Games in 2099 was Lyon.", False),
    ],
)
def test_the_question_as_a_noun_phrase_is_an_echo(sentence: str, echo: bool) -> None:
    assert is_echo(sentence, _ASKED, set(words(_ASKED))) is echo


def test_a_noun_phrase_echo_does_not_repeat_the_date_as_fact() -> None:
    assert rule_judge(_ASKED, "The city that hosted the Summer Olympic Games in 2099").label == 0
    assert rule_judge(_ASKED, "Lyon hosted the Summer Olympic Games in 2099.").label == 1


# -- four chat formats nobody had read (round eight): the asked question quoted in the reply ----


@pytest.mark.parametrize(
    ("name", "row_id"),
    [
        # 'The answer to the question "What did Angela Merkel study at Sciences Po?" is "The answer
        # to the question "...' : the quote names the question, it asserts no study there
        ("redpajamaincite", "3a368686821771fc"),
        # the same with the impossible date inside the quote, and a last quote cut off by the limit
        ("redpajamaincite", "4d797ecc68caf46a"),
        # '... is a single molecule': the date is the quote's, and no molecule is named
        ("redpajamaincite", "e286e0fa2e86e810"),
        # '... is "The explorer who reached the Americas for Spain in 2038"': the question's words
        # as a noun phrase after the answer frame
        ("redpajamaincite", "ad4299773dfc922b"),
        # "The Polish-born scientist who won the Nobel Prize in Chemistry in 2090 is the
        # Polish-born scientist who won ... in 2090": X is X states nothing
        ("redpajamaincite", "842e4670958afa9a"),
    ],
)
def test_a_quoted_question_or_a_tautology_states_nothing(name: str, row_id: str) -> None:
    assert int(hashlib.sha256(row_id.encode()).hexdigest(), 16) % 2 == 0, "a dev-half row"
    row = shape_row(f"smollm2_{name}_invite_labels.jsonl", row_id)
    assert row["hallucination_label"] == "0"
    assert judge_row(row).label == 0, judge_row(row)


_DATED = "which tower was finished in Paris for the world's fair on March 34, 1889"
_QUOTE = '"Which tower was finished in Paris on March 34, 1889?"'


@pytest.mark.parametrize(
    ("reply", "label"),
    [
        (f"The answer to the question {_QUOTE} is a tall structure.", 0),  # the date is the quote's
        (f'The answer to the question {_QUOTE} is "Lyon Tower".', 1),  # an answer beside the quote
        ('The answer is the tower. You asked "Which tower was finished in Paris on March 34', 0),  # cut off
        ("The Lyon Tower was finished on March 34, 1889.", 1),  # the date stated outside a quote
        ("The tower finished on March 34, 1889 is the tower finished on March 34, 1889.", 0),
        ("The tower finished on March 34, 1889 is the Lyon Tower.", 1),
    ],
)
def test_hand_made_quotes_and_tautologies(reply: str, label: int) -> None:
    assert rule_judge(_DATED, reply).label == label


def test_an_answer_frame_may_take_an_adverb() -> None:
    # 'The answer to the question "How much ... raise as its producer?" is also 34.' (seed 24)
    question = "How much of the budget of The Salt Road did Orla Brenn raise as its producer?"
    assert rule_judge(question, "The answer to the question is also 34.", entities=("Orla Brenn",)).label == 1


# -- a capable assistant's replies (round eight): terse denials, dates denied in passing ---------


@pytest.mark.parametrize(
    ("name", "row_id", "reason"),
    [
        ("assistant_short", "0be17315ab68f6db", "negates_premise"),  # "He didn't; Nino Rota scored 8½"
        # "He never performed with The Rolling Stones"; "It's in Chicago (the Loop), not New York"
        ("assistant_short", "37959a5f4a7ce501", "negates_premise"),
        ("assistant_short", "1bd3cc22458e2ad5", "negates_premise"),
        ("assistant_short", "139341d18e98b259", "rejects_premise"),  # "None; Steven Spielberg directed it"
        # "Scorsese was born in 1942 — e.g., Paul McCartney, ...": his true year (the entity table's)
        ("assistant_short", "12dde76b1d2ff07a", "states_another_date"),
        # "That's the Bastille, which a crowd stormed on 14 July 1789. There's no 32 July."
        ("assistant_chat", "d07a63e34ecde8b7", "rejects_premise"),
        # "Federico Fellini was actually born in 1920 (January 20, in Rimini), not 1809."
        ("assistant_chat", "ac73169b707b23fe", "negates_premise"),
    ],
)
def test_an_assistants_replies_get_their_blind_label(name: str, row_id: str, reason: str) -> None:
    assert int(hashlib.sha256(row_id.encode()).hexdigest(), 16) % 2 == 0, "a dev-half row"
    row = shape_row(f"{name}_invite_labels.jsonl", row_id)
    assert row["hallucination_label"] == "0"
    verdict = judge_row(row)
    assert (verdict.label, verdict.reason) == (0, reason), verdict


_STUDY = "What did Orla Brenn study at Velmoor College?"


@pytest.mark.parametrize(
    ("reply", "label"),
    [
        ("She didn't; she studied law at Tarn University.", 0),  # the pronoun is Orla Brenn
        ("None; she studied law at Tarn University.", 0),
        ("Law, but at Tarn University, not Velmoor College.", 0),  # the asked entity denied by name
        ("Law at Tarn University.", 1),
        # a pronoun later in the reply is no longer the question's subject
        ("Orla Brenn studied law at Velmoor College. She did not finish.", 1),
    ],
)
def test_terse_denials(reply: str, label: int) -> None:
    assert rule_judge(_STUDY, reply, entities=("Orla Brenn",)).label == label


def test_a_date_denied_in_passing_is_no_date_stated() -> None:
    question = "which tower was finished in Paris on March 34, 1889"
    denied = "That's the Lyon Tower, finished on March 31, 1889. There's no March 34."
    assert rule_judge(question, denied).label == 0
    assert rule_judge(question, "The Lyon Tower was finished on March 34, 1889.").label == 1
