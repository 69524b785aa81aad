"""halluforge.textkit.sentences: the one sentence splitter, as forging and the premise judge use it."""

from __future__ import annotations

from halluforge.families.invite.judge.text import reply_sentences
from halluforge.textkit.sentences import sentence_spans, split_sentences


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
    assert reply_sentences(reply) == [
        "The scientist is Dr. Novikov.",
        "He won in 2077.",
        "Who else?",
        "J. D. Salinger.",
    ]


def test_sentence_spans_are_offsets_into_the_text_as_given() -> None:
    text = "  It rose 3.5 m in 1990. Dr. Lee left!\nThen rain.  "
    spans = sentence_spans(text)
    assert [text[s:e] for s, e in spans] == ["It rose 3.5 m in 1990.", "Dr. Lee left!", "Then rain."]


def test_a_decimal_or_an_initial_ends_no_sentence() -> None:
    # the restatement checks' own splitter cut at every full stop: "3." | "5 keys", "U." | "S. Army"
    text = "The piano has 88 keys, or 7.3 octaves. The U.S. Army bought one."
    assert split_sentences(text) == ["The piano has 88 keys, or 7.3 octaves.", "The U.S. Army bought one."]
    # the answer kinds' question reader cut after an initial: "John F." | "Kennedy take place?"
    assert split_sentences("Where did the funeral of John F. Kennedy take place?") == [
        "Where did the funeral of John F. Kennedy take place?"
    ]
