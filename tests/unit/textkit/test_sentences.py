"""halluforge.textkit.sentences: the one sentence splitter, as forging and the premise judge use it."""

from __future__ import annotations

from halluforge.families.invite.judge.text import split_sentences as judge_sentences
from halluforge.textkit.sentences import clean_text, split_sentences


def test_clean_text_strips_html_and_entities() -> None:
    assert clean_text('a <a href="x">link</a> &amp; more\n text') == "a link & more text"


def test_split_sentences_keeps_abbreviations_and_strips_html() -> None:
    text = (
        "Dr. Smith met U.S. officials in Washington. They agreed! Was it late? <b>Yes</b>, at 9 p.m. Monday."
    )
    assert split_sentences(text) == [
        "Dr. Smith met U.S. officials in Washington.",
        "They agreed!",
        "Was it late?",
        "Yes, at 9 p.m. Monday.",
    ]
    assert split_sentences("") == []


def test_a_catalogue_number_stays_with_its_work() -> None:
    # "Op. 125" cut after "Op." made a fragment and a sentence opening "125, is a choral symphony"
    text = "The Symphony No. 9 in D minor, Op. 125, is a choral symphony. It was first performed in 1824."
    assert split_sentences(text) == [
        "The Symphony No. 9 in D minor, Op. 125, is a choral symphony.",
        "It was first performed in 1824.",
    ]


def test_a_question_mark_inside_a_title_does_not_end_the_sentence() -> None:
    assert split_sentences("Too Much, Too Soon? was published in 1934. It sold well.") == [
        "Too Much, Too Soon? was published in 1934.",
        "It sold well.",
    ]


def test_the_judge_reads_lines_then_the_shared_sentences() -> None:
    reply = "A: The scientist is Dr. Novikov. He won in 2077.\nQ: Who else?\nAnswer: J. D. Salinger."
    assert judge_sentences(reply) == [
        "The scientist is Dr. Novikov.",
        "He won in 2077.",
        "Who else?",
        "J. D. Salinger.",
    ]
