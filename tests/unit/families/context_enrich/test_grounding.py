"""Grounding of summaries and merges: each rule on sentences written here, and the NLI option."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from halluforge.families.context_enrich import PROMPTS
from halluforge.families.context_enrich.grounding import (
    MIN_RECALL,
    REASONS,
    Entails,
    Sources,
    ground,
    instructions_of,
)
from halluforge.prompts import load_template

if TYPE_CHECKING:
    from halluforge.metrics.nli import NLIModel

SOURCES = [
    "Selma Lagerlöf was a Swedish author and teacher.",
    "In 1909 she became the first woman to win the Nobel Prize in Literature.",
    "Romeo and Juliet is a tragedy written by William Shakespeare early in his career.",
    "A Midsummer Night's Dream is a comedy written by William Shakespeare in about 1595 or 1596.",
    "Yuri Gagarin was a Soviet pilot and cosmonaut who became the first human to journey into outer space.",
]
MERGE = load_template("context_enrich/merge", PROMPTS)


@pytest.fixture(scope="module")
def sources() -> Sources:
    # the two Lagerlöf sentences are one passage: "she" there is Selma Lagerlöf
    return Sources.of([" ".join(SOURCES[:2]), *SOURCES[2:]], instructions_of(MERGE.text))


def reasons(text: str, sources: Sources) -> list[str]:
    return [c.reason for c in ground(text, sources).checks]


def test_supported_sentences_are_kept_including_a_merge_of_two(sources: Sources) -> None:
    text = (
        "Selma Lagerlöf, a Swedish author and teacher, became the first woman to win the Nobel "
        "Prize in Literature in 1909. Romeo and Juliet is a tragedy that William Shakespeare "
        "wrote early in his career."
    )
    verdict = ground(text, sources)
    assert [c.reason for c in verdict.checks] == ["", ""]
    assert not verdict.trimmed and verdict.text == text and verdict.dropped == {}
    assert all(c.recall >= MIN_RECALL for c in verdict.checks)


def test_unsupported_number_is_dropped(sources: Sources) -> None:
    # the year is invented (the sources say 1909)
    text = "In 1903, Selma Lagerlöf was the first woman to win the Nobel Prize in Literature."
    assert reasons(text, sources) == ["unsupported_number"]
    # a number of the sources, but of another sentence (a year moved from one play to a prize)
    moved = "Selma Lagerlöf became the first woman to win the Nobel Prize in Literature in 1596."
    assert reasons(moved, sources) == ["unsupported_number"]
    # thousands separators do not decide: 1,909 and 1909 are the same number
    assert reasons("Selma Lagerlöf won the Nobel Prize in Literature in 1,909.", sources) == [""]
    # two numbers of two source sentences joined in one claim: a year moved between events
    phelps = Sources.of(
        [
            "At the 2004 Summer Olympics in Athens, Phelps tied the record of eight medals at one Games.",
            "When he won eight gold medals at the 2008 Beijing Games, Phelps broke the record of seven.",
        ]
    )
    fused = "At the 2004 Summer Olympics in Athens, Phelps won eight gold medals at the 2008 Beijing Games."
    assert reasons(fused, phelps) == ["unsupported_number"]
    assert reasons("At the 2008 Beijing Games, Phelps won eight gold medals.", phelps) == [""]


def test_unsupported_name_is_dropped(sources: Sources) -> None:
    assert reasons("Romeo and Juliet is a tragedy written by Christopher Marlowe.", sources) == [
        "unsupported_name"
    ]
    # the first word of a sentence is capitalised anyway and is not read as a name
    assert reasons(
        "Early in his career William Shakespeare wrote the tragedy Romeo and Juliet.", sources
    ) == [""]


def test_one_entity_does_not_borrow_another_entitys_words() -> None:
    # every word is in the sources, but crystallography belongs to Pierre Curie's sentence
    sources = Sources.of(
        [
            "Selma Lagerlöf was a Swedish writer.",
            "Pierre Curie was a French physicist and a pioneer in crystallography and magnetism.",
        ]
    )
    chimera = "Selma Lagerlöf, a Swedish writer, was a pioneer in crystallography and magnetism."
    assert [c.reason for c in ground(chimera, sources).checks] == ["low_overlap"]
    # a merge of two sentences that names both subjects takes its names from two: not kept
    joined = "Selma Lagerlöf was a Swedish writer, and Pierre Curie was a pioneer in crystallography."
    assert [c.reason for c in ground(joined, sources).checks] == ["mixed_sources"]


def test_names_and_numbers_come_from_one_source_sentence() -> None:
    sources = Sources.of(
        [
            "Dartmouth College announced on Tuesday it was eliminating student loans for undergraduates.",
            "Harvard University is a private research university in Cambridge, Massachusetts. "
            "It was founded in 1636 and is the oldest university in the United States.",
        ]
    )
    # Harvard's city given to Dartmouth: every word is in a source, the names are from two
    stitched = "Dartmouth College, a private research university in Cambridge, Massachusetts, announced it."
    assert reasons(stitched, sources) == ["mixed_sources"]
    # a name of one sentence and a year of another
    moved = "Dartmouth College announced in 1636 it was eliminating student loans for undergraduates."
    assert reasons(moved, sources) == ["unsupported_number"]
    # all names from one sentence, other words from another: kept
    assert reasons("Harvard University in Cambridge, Massachusetts, is a private university.", sources) == [
        ""
    ]
    # a sentence that points back brings its predecessor's names ("It" is Harvard University)
    assert reasons("Harvard University was founded in 1636 in the United States.", sources) == [""]
    # one name alone is never stitched
    assert reasons("Dartmouth College is eliminating student loans for undergraduates.", sources) == [""]


def test_the_prompts_passage_listing_copied_in_is_dropped() -> None:
    sources = Sources.of(
        ["Yuzuru Hanyu is a Japanese figure skater.", "Joey Chestnut ate 63 hot dogs in 10 minutes."],
        titles=["Yuzuru Hanyu", "Joey Chestnut"],
    )
    assert reasons("Yuzuru Hanyu: Yuzuru Hanyu is a Japanese figure skater.", sources) == ["listing_echo"]
    assert reasons("Joey Chestnut: Chestnut ate 63 hot dogs in 10 minutes.", sources) == ["listing_echo"]
    # without titles, a label said again after its colon is still the listing
    untitled = Sources.of(["Yuzuru Hanyu is a Japanese figure skater."])
    assert reasons("Yuzuru Hanyu: Yuzuru Hanyu is a Japanese figure skater.", untitled) == ["listing_echo"]
    # a colon inside prose is not a listing
    assert reasons("Joey Chestnut ate 63 hot dogs in 10 minutes: a record.", sources) == [""]
    assert reasons("Yuzuru Hanyu is a Japanese figure skater.", sources) == [""]


def test_low_overlap_is_dropped(sources: Sources) -> None:
    verdict = ground("She was a brilliant and courageous leader of her people.", sources)
    assert [c.reason for c in verdict.checks] == ["low_overlap"]
    assert verdict.checks[0].recall < MIN_RECALL


def test_list_marker_is_dropped(sources: Sources) -> None:
    # the example: a list marker copied in, two plays fused
    text = (
        'The play "1. Romeo and Juliet: A Midsummer Night\'s Dream" is a comedy play written by '
        "William Shakespeare between the years 1594 and 1596."
    )
    assert "list_marker" in reasons(text, sources)
    assert ground(text, sources).kept == []
    assert reasons("- Romeo and Juliet is a tragedy written by William Shakespeare.", sources) == [
        "list_marker"
    ]
    assert reasons("2) Romeo and Juliet is a tragedy written by William Shakespeare.", sources) == [
        "list_marker"
    ]


def test_prompt_labels_and_preambles_are_dropped(sources: Sources) -> None:
    assert reasons("Text 2: Romeo and Juliet is a tragedy written by William Shakespeare.", sources) == [
        "prompt_label"
    ]
    assert reasons("[1] Romeo and Juliet is a tragedy written by William Shakespeare.", sources) == [
        "prompt_label"
    ]
    assert reasons("Here is the paragraph about Romeo and Juliet by William Shakespeare.", sources) == [
        "prompt_label"
    ]


def test_prompt_echo_is_dropped(sources: Sources) -> None:
    text = "Combine the two texts into one paragraph about William Shakespeare and his tragedy."
    assert reasons(text, sources) == ["instruction_echo"]
    assert reasons("Keep every word of the answer in it, as asked.", sources) == ["instruction_echo"]


def test_repetition_loop_is_dropped(sources: Sources) -> None:
    line = "Yuri Gagarin was a Soviet pilot and cosmonaut."
    verdict = ground(" ".join([line] * 7), sources)
    assert [c.reason for c in verdict.checks] == [""] + ["repeated_sentence"] * 6
    assert verdict.text == line and verdict.dropped == {"repeated_sentence": 6}
    # a phrase said twice inside one sentence, which no source repeats
    looped = (
        "The first person to reach the Moon was Yuri Gagarin, a Soviet cosmonaut who became the "
        "first person to reach the Moon."
    )
    assert reasons(looped, sources) == ["repeated_phrase"]
    # a loop built of a true source sentence: the sources have the phrase, but never twice
    siphon = Sources.of(["The siphon is used for respiration and locomotion. Octopuses have three hearts."])
    twice = (
        "The siphon is used for respiration and locomotion, and the siphon is used for respiration "
        "and locomotion."
    )
    assert reasons(twice, siphon) == ["repeated_phrase"]
    # a phrase a source itself says twice may be said twice
    echo = Sources.of(["The band played the song again and again, and the band played the song again."])
    assert reasons("The band played the song again, and the band played the song again.", echo) == [""]


def test_incomplete_sentence_and_dangling_reference(sources: Sources) -> None:
    # a reply cut by the token budget ends without punctuation
    assert reasons("Yuri Gagarin was a Soviet pilot and cosmonaut who became the first", sources) == [
        "incomplete"
    ]
    text = (
        "Romeo and Juliet is a tragedy written by Christopher Marlowe. "
        "It was written early in his career. "
        "Selma Lagerlöf was a Swedish author and teacher."
    )
    verdict = ground(text, sources)
    assert [c.reason for c in verdict.checks] == ["unsupported_name", "dangling", ""]
    assert verdict.record() == {"sentences": 3, "dropped": {"unsupported_name": 1, "dangling": 1}}
    assert verdict.summary() == "2 of 3 sentences dropped (1 dangling, 1 unsupported_name)"


# the support sentence, then two passages: a pronoun's sentence must follow its own passage's
MOVED = [
    "The job cuts are about 5% of the workforce, according to Microsoft chief executive Satya Nadella.",
    "Steve Jobs co-founded Apple in 1976. After the company's board fired him in 1985, he founded NeXT. "
    "He returned to Apple in 1997.",
    "François Mitterrand was President of France from 1981 to 1995. "
    "He was the first left-wing politician to hold the presidency under the Fifth Republic.",
]


def test_a_sentence_that_refers_back_must_follow_its_own_passage() -> None:
    sources = Sources.of(MOVED)
    jobs = "After the company's board fired him in 1985, he founded NeXT. He returned to Apple in 1997."
    moved = f"{MOVED[0]} {jobs}"
    assert reasons(moved, sources) == ["", "moved_reference", "dangling"]
    # after the sentence it followed in its passage, the same sentences keep their meaning
    kept = f"{MOVED[0]} {MOVED[1]}"
    assert reasons(kept, sources) == ["", "", "", ""]
    # out of order within one passage is moved too: "he" would precede who he is
    assert (
        reasons(f"{MOVED[0]} He returned to Apple in 1997. Steve Jobs co-founded Apple in 1976.", sources)[1]
        == "moved_reference"
    )
    # a sentence that names someone reads its pronouns as that name's, wherever it stands
    text = f"{MOVED[0]} François Mitterrand was President of France from 1981 to 1995."
    assert reasons(text, sources) == ["", ""]


def test_a_pronoun_of_the_other_gender_than_the_sources_is_dropped() -> None:
    sources = Sources.of(MOVED)
    text = (
        "François Mitterrand was President of France from 1981 to 1995. "
        "She was the first left-wing politician to hold the presidency under the Fifth Republic."
    )
    assert reasons(text, sources) == ["", "changed_pronoun"]
    assert reasons(text.replace("She was", "He was"), sources) == ["", ""]


def test_every_reason_is_documented(sources: Sources) -> None:
    texts = [
        "In 1903, Selma Lagerlöf won.",
        "Selma Lagerlöf met Christopher Marlowe there.",
        "She was a brilliant and courageous leader.",
        "Text 1: a line.",
        "Yuri Gagarin was a Soviet pilot. Yuri Gagarin was a Soviet pilot.",
        f"{MOVED[0]} After the board fired him in 1985, he founded NeXT.",
    ]
    seen = {c.reason for text in texts for c in ground(text, sources).checks if c.reason}
    assert seen <= set(REASONS)


def test_no_sources_keeps_nothing() -> None:
    assert ground("Yuri Gagarin was a Soviet pilot.", Sources.of([])).kept == []


# -- NLI option -------------------------------------------------------------------------------


def test_entailment_judge_drops_what_no_premise_entails(sources: Sources) -> None:
    seen: list[tuple[str, str]] = []

    def judge(pairs: Sequence[tuple[str, str]]) -> list[bool]:
        seen.extend(pairs)
        return ["moon" not in hypothesis for _, hypothesis in pairs]

    # lexically supported (every word is in the sources), but a false claim
    text = (
        "Yuri Gagarin was a Soviet pilot and cosmonaut who became the first human to journey into "
        "outer space. Yuri Gagarin was the first human Soviet cosmonaut to journey to the moon."
    )
    no_nli = ground(text, Sources.of([*SOURCES, "The moon is far."]))
    assert [c.reason for c in no_nli.checks] == ["", ""]
    verdict = ground(text, Sources.of([*SOURCES, "The moon is far."]), entails=judge)
    assert [c.reason for c in verdict.checks] == ["", "not_entailed"]
    # premises: the three best source sentences one by one, then joined
    assert len(seen) == 2 * 4
    assert seen[3][0] == " ".join(p for p, _ in seen[:3])


def test_entailment_with_a_tiny_nli_model(tmp_path: Path, sources: Sources) -> None:
    from tests.unit.metrics.test_nli import build_tiny_nli  # skips without torch and transformers

    from halluforge.metrics.nli import load_nli

    order = {0: "contradiction", 1: "entailment", 2: "neutral"}
    always = load_nli(str(build_tiny_nli(tmp_path / "always", order, bias=[0.0, 6.0, 0.0])))
    never = load_nli(str(build_tiny_nli(tmp_path / "never", order, bias=[6.0, 0.0, 0.0])))
    text = "Selma Lagerlöf was a Swedish author and teacher."

    def judge(model: NLIModel) -> Entails:
        return lambda pairs: [ok for ok, _ in model.entails(pairs)]

    assert ground(text, sources, entails=judge(always)).kept == [text]
    assert [c.reason for c in ground(text, sources, entails=judge(never)).checks] == ["not_entailed"]
