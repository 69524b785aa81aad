"""context_enrich: every validator and fallback, retrieval filtering, and the generator end to end."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pytest
from pydantic import ValidationError

from extra_skips import require
from halluforge.backends import open_backend
from halluforge.backends.mock import MockBackend
from halluforge.families.context_enrich import generator as ce
from halluforge.families.context_enrich import passages
from halluforge.families.context_enrich.enrich_text import (
    check_merge,
    check_summary,
    extractive_merge,
    fallback_support,
    join_sentences,
    match_support,
    relevant_sentences,
    strip_reply,
)
from halluforge.families.context_enrich.generator import ContextEnrich, ContextEnrichOptions
from halluforge.families.context_enrich.passages import select_passages
from halluforge.family import FAMILIES
from halluforge.forge.base import ForgeContext
from halluforge.records import Example, SeedCase, Skip, TestCase, stable_id
from halluforge.retrieval.base import Hit, Passage
from halluforge.textkit.markup import strip_html
from halluforge.textkit.sentences import split_sentences
from halluforge.textkit.tokens import words

EVIDENCE = (
    'Netflix said on <a href="https://example.org/x">Monday</a> that the show will return. '
    "The hit South Korean show Squid Game is officially coming back for a second season. "
    "Its creator Hwang Dong-hyuk wrote the first season over ten years. "
    "The new season of the popular Squid Game show should be out in 2024."
)
QUESTION = "Which wildly popular show was recently green lit for a new season?"
ANSWERS = ["Squid Game"]
SUPPORT = "The hit South Korean show Squid Game is officially coming back for a second season."

PASSAGES = [
    Passage(
        "p1",
        "Television in South Korea",
        "Television in South Korea has many popular drama shows. "
        "Dramas are exported across Asia and sold to streaming services.",
    ),
    Passage(
        "p2",
        "Netflix",
        "Netflix is an American streaming service founded in 1997. "
        "It produces original films and series in many countries.",
    ),
    Passage("p3", "Netflix", "Netflix started as a DVD rental service by mail in the United States."),
    Passage(
        "p4",
        "Streaming media",
        "Netflix is an American streaming service founded in 1997. "
        "It produces original films and series in many countries!",
    ),
    Passage(
        "p5",
        "Season (television)",
        "A television season is a set of episodes of a show. "
        "A show may be renewed for a new season after strong ratings.",
    ),
    Passage("p6", "Squid", "Squid are cephalopods with eight arms and two tentacles living in oceans."),
]


class TinyRetriever:
    """A word-overlap retriever over a fixed list, implementing the Retriever protocol."""

    def __init__(self, passages: Sequence[Passage]) -> None:
        self.passages = list(passages)
        self.queries: list[str] = []

    def search(self, query: str, k: int) -> list[Hit]:
        self.queries.append(query)
        wanted = set(words(query))
        scored = sorted(self.passages, key=lambda p: (-len(wanted & set(words(p.text))), p.id))
        return [Hit(p, float(len(wanted & set(words(p.text)))), rank) for rank, p in enumerate(scored[:k])]

    def search_many(self, queries: Sequence[str], k: int) -> list[list[Hit]]:
        return [self.search(q, k) for q in queries]


def hits(passages: Sequence[Passage]) -> list[Hit]:
    return [Hit(p, 1.0 - i / 10, i) for i, p in enumerate(passages)]


def seed(evidence: str = EVIDENCE, answers: list[str] | None = None) -> SeedCase:
    example = Example.build(QUESTION, answers or ANSWERS, evidence, source="unit")
    return SeedCase(
        id=f"seed-{example.id}",
        example=example,
        generator_model="mock/script",
        closed_book_correct=False,
        open_book_correct=True,
    )


# -- text helpers -----------------------------------------------------------------------------


def test_strip_reply_removes_label_quotes_and_trailing_lines() -> None:
    assert strip_reply('Sentence: "A quoted line."\n\nExtra chatter') == "A quoted line."
    assert strip_reply("  “Curly.”  ") == "Curly."


# -- supporting sentence ----------------------------------------------------------------------


def test_match_support_accepts_exact_quoted_and_fuzzy_copies() -> None:
    sentences = split_sentences(EVIDENCE)
    assert match_support(SUPPORT, sentences, ANSWERS) == (SUPPORT, "")
    assert match_support(f'Sentence: "{SUPPORT}"', sentences, ANSWERS)[0] == SUPPORT
    typo = SUPPORT.replace("officially", "oficially").replace("second", "2nd")
    assert match_support(typo, sentences, ANSWERS)[0] == SUPPORT  # returns the evidence's own wording
    # a copy missing its last few words still matches (two thirds of the words at least)
    assert (
        match_support("The hit South Korean show Squid Game is officially coming back", sentences, ANSWERS)[0]
        == SUPPORT
    )


def test_match_support_rejects_outside_text_missing_answer_and_empty() -> None:
    sentences = split_sentences(EVIDENCE)
    text, reason = match_support("Squid Game is a Korean drama about a deadly contest.", sentences, ANSWERS)
    assert text is None and "not a sentence of the evidence" in reason
    text, reason = match_support(
        "Its creator Hwang Dong-hyuk wrote the first season over ten years.", sentences, ANSWERS
    )
    assert text is None and reason == "the sentence does not contain the answer"
    assert match_support("  ", sentences, ANSWERS) == (None, "empty reply")
    # a fragment too short to stand for the sentence is not accepted
    assert match_support("Squid Game", sentences, ANSWERS)[0] is None


def test_fallback_support_prefers_question_overlap_among_answer_sentences() -> None:
    sentences = split_sentences(EVIDENCE)
    # both the second and the last sentence contain the answer; the last shares "new season"
    assert (
        fallback_support(QUESTION, sentences, ANSWERS)
        == "The new season of the popular Squid Game show should be out in 2024."
    )
    assert fallback_support("What show is coming back?", sentences, ANSWERS) == SUPPORT
    assert fallback_support(QUESTION, sentences, ["Stranger Things"]) is None


# -- summary and merge validators -------------------------------------------------------------


def test_check_summary() -> None:
    assert check_summary("Too short.", PASSAGES[:2]) == "summary too short"
    assert "not drawn from the passages" in check_summary(
        "Penguins dance gracefully across frozen lakes during winter festivals nightly.", PASSAGES[:2]
    )
    good = (
        "Netflix is an American streaming service that makes original films, and Korean dramas are exported."
    )
    assert check_summary(good, PASSAGES[:2]) == ""
    labelled = "[1] Netflix: Netflix is an American streaming service that makes original films and series."
    assert check_summary(labelled, PASSAGES[:2]) == "summary repeats the prompt's labels"


def test_check_merge() -> None:
    summary = "Netflix is an American streaming service founded in 1997 that produces original series."
    good = f"{SUPPORT} Netflix is an American streaming service founded in 1997."
    assert check_merge(good, SUPPORT, summary, ANSWERS) == ""
    assert check_merge(summary, SUPPORT, summary, ANSWERS) == "merged text lost the answer"
    assert check_merge(SUPPORT, SUPPORT, summary, ANSWERS) == "merged text adds nothing from the summary"
    # the answer string alone is not enough: the supporting sentence's claim must stay
    claimless = "Squid Game is a show. Netflix is an American streaming service founded in 1997."
    assert check_merge(claimless, SUPPORT, summary, ANSWERS) == "merged text lost the supporting sentence"
    echo = f"Text 1: {SUPPORT} Text 2: [1] Netflix is an American streaming service founded in 1997."
    assert check_merge(echo, SUPPORT, summary, ANSWERS) == "merged text repeats the prompt's labels"
    ramble = good + " Netflix" * 200
    assert check_merge(ramble, SUPPORT, summary, ANSWERS) == "merged text is far longer than its inputs"


def test_relevant_sentences_keep_a_back_pointing_sentence_with_its_antecedent() -> None:
    passage = Passage(
        "le",
        "Le Corbusier",
        "Le Corbusier was a Swiss-French architect. He was born in Switzerland in 1887 and moved to India.",
    )
    question = "Who was born in Switzerland and moved to India in 1887?"
    # "He" comes with the sentence that says who he is
    assert relevant_sentences(question, [passage], n=2) == [
        "Le Corbusier was a Swiss-French architect.",
        "He was born in Switzerland in 1887 and moved to India.",
    ]
    # with room for one sentence only, "He" cannot have its antecedent and is left out
    assert relevant_sentences(question, [passage], n=1) == ["Le Corbusier was a Swiss-French architect."]
    # pronouns anywhere point back: an object ("called her") and a subject after an opener ("he")
    roosevelt = Passage(
        "er",
        "Eleanor Roosevelt",
        "Eleanor Roosevelt was an American diplomat and activist. "
        "President Harry S. Truman called her the First Lady of the World.",
    )
    allende = Passage(
        "sa",
        "Salvador Allende",
        "As a socialist committed to democracy, he was the first Marxist elected president in Latin America.",
    )
    chosen = relevant_sentences(
        "Who was the first president called the First Lady?", [allende, roosevelt], n=3
    )
    assert chosen == [
        "Eleanor Roosevelt was an American diplomat and activist.",
        "President Harry S. Truman called her the First Lady of the World.",
    ]  # Allende's sentence opens its passage: "he" has no antecedent there, so it is left out
    # "it" after the seventh word points back too
    whale = Passage(
        "bw",
        "Blue whale",
        "The blue whale is a baleen whale. Reaching thirty metres in length, it is the largest animal.",
    )
    assert relevant_sentences("the largest animal", [whale], n=1) == ["The blue whale is a baleen whale."]
    assert len(relevant_sentences("the largest animal", [whale], n=2)) == 2


def test_relevant_sentences_read_a_definite_kind_noun_as_pointing_back() -> None:
    """ "the group" and "the lake" stand for their passage's subject, so they bring its sentence along."""
    abba = Passage(
        "ab",
        "ABBA",
        "ABBA is a Swedish pop group formed in Stockholm in 1972. "
        "After winning a song contest in Brighton, the group sold records around the world.",
    )
    ontario = Passage("on", "Lake Ontario", "The lake drains into the Saint Lawrence River near Kingston.")
    question = "Which group sold records around the world after a song contest?"
    # one sentence of room: the group sentence cannot have its antecedent and is left out
    assert relevant_sentences(question, [abba], n=1) == [
        "ABBA is a Swedish pop group formed in Stockholm in 1972."
    ]
    assert relevant_sentences(question, [abba], n=2) == split_sentences(abba.text)
    # a passage that opens on "The lake" without a name cannot stand next to another passage
    assert relevant_sentences("Where does the lake drain?", [ontario], n=1) == []
    # a kind noun that introduces a name ("the river Thames", "the city of Lyon") points nowhere
    thames = Passage(
        "th",
        "London",
        "London is a large city. The river Thames flows through London. The city of Lyon is in France.",
    )
    assert relevant_sentences("Which river flows through London?", [thames], n=1) == [
        "The river Thames flows through London."
    ]


def test_relevant_sentences_skip_flattened_lists_and_link_connectives_to_their_antecedent() -> None:
    """A flattened list ("include:Online ...") is no prose; "For example," needs what it follows."""
    media = Passage(
        "sm",
        "Social media",
        "Social media are online platforms for sharing content. "
        "Common features include:Online platforms let users share content with one another. "
        "For example, users post photos and share content with friends.",
    )
    chosen = relevant_sentences("Which platforms let users share content?", [media], n=3)
    assert "Common features include:Online platforms let users share content with one another." not in chosen
    # the connective sentence comes with the sentence before it (the list one is not taken)
    assert chosen == ["Social media are online platforms for sharing content."]
    plain = Passage(
        "pm", "Photo sharing", "Users share photos online. For example, users post photos with friends."
    )
    assert relevant_sentences("Where do users post photos with friends?", [plain], n=2) == split_sentences(
        plain.text
    )
    assert relevant_sentences("Where do users post photos with friends?", [plain], n=1) == [
        "Users share photos online."
    ]
    # a time or an address is no flattened list
    clock = Passage(
        "ck", "Clock", "The market opens at 10:30 every day. Its site is https://example.org today."
    )
    assert relevant_sentences("When does the market open?", [clock], n=1) == [
        "The market opens at 10:30 every day."
    ]


def test_relevant_sentences_keep_self_contained_sentences_alone() -> None:
    passage = Passage(
        "mc",
        "Marie Curie",
        "Marie Curie was a physicist who shared her first Nobel Prize with her husband. "
        "Radium was discovered in 1898. Polonium was named after Poland.",
    )
    # the opening names its subject before "her"; the others have no pronoun: no antecedent added
    assert relevant_sentences("When was radium discovered by Marie Curie?", [passage], n=2) == [
        "Marie Curie was a physicist who shared her first Nobel Prize with her husband.",
        "Radium was discovered in 1898.",
    ]
    assert relevant_sentences("Which element was named after Poland?", [passage], n=1) == [
        "Polonium was named after Poland."
    ]
    # a chain of sentences pointing back longer than the antecedents allowed is left out
    chain = Passage(
        "ch",
        "Chain",
        "Ada Lovelace was a mathematician. She wrote notes. They were long. Their length was rare. "
        "Her notes held the first algorithm.",
    )
    assert "Her notes held the first algorithm." not in relevant_sentences(
        "first algorithm notes", [chain], n=3
    )


def test_extractive_merge_ends_an_unterminated_support_with_a_full_stop() -> None:
    support = "The pledge commits employers to supporting employees affected by the menopause"
    merged = extractive_merge(support, "Which show was renewed for a new season?", PASSAGES[4:5])
    assert merged.startswith(f"{support}. A television season")
    # a sentence that already ends stays as it is: no second stop
    asked = "Is Squid Game coming back for a second season?"
    assert extractive_merge(asked, "Which show was renewed?", PASSAGES[4:5]).startswith(f"{asked} A ")
    assert (
        join_sentences(["It ended with a quote.\u201d", "Next one,"])
        == "It ended with a quote.\u201d Next one."
    )


def test_relevant_sentences_and_extractive_merge_keep_passage_order() -> None:
    chosen = relevant_sentences("Which show was renewed for a new season on Netflix?", PASSAGES[:5], n=3)
    # best first would be renewed (4 words), television season (2), then the earliest Netflix one (1);
    # they come back in passage order
    assert chosen == [
        "Netflix is an American streaming service founded in 1997.",
        "A television season is a set of episodes of a show.",
        "A show may be renewed for a new season after strong ratings.",
    ]
    merged = extractive_merge(SUPPORT, "Which show was renewed for a new season?", PASSAGES[:5])
    assert merged.startswith(SUPPORT)
    assert "A show may be renewed for a new season after strong ratings." in merged
    assert len(split_sentences(merged)) == 4


# -- retrieval filtering ----------------------------------------------------------------------


def test_select_passages_distinct_titles_query_text_and_jaccard_duplicates() -> None:
    query_passage = Passage("q", "Source", f"Prefix. {QUESTION} Suffix.")
    found = hits([query_passage, *PASSAGES])
    kept, dropped = select_passages(found, QUESTION, k=3, dedupe=0.85)
    assert [p.id for p in kept] == ["p1", "p2", "p5"]
    assert dropped == {
        "query_text": 1,
        "source_text": 0,
        "same_title": 1,
        "near_duplicate": 1,
    }  # p3 title, p4 copy of p2
    assert [p.id for p in select_passages(found, QUESTION, k=1, dedupe=0.85)[0]] == ["p1"]
    # a passage that is part of the original evidence is dropped for any query
    kept, dropped = select_passages(found, QUESTION, k=3, dedupe=0.85, exclude=[f"Intro. {PASSAGES[0].text}"])
    assert [p.id for p in kept] == ["p2", "p5", "p6"] and dropped["source_text"] == 1


def test_select_passages_uses_embeddings_when_given() -> None:
    def embed(passages: list[Passage]) -> np.ndarray:
        # p1 and p5 point the same way: a near-duplicate by cosine although their words differ
        table = {"p1": [1.0, 0.0], "p2": [0.0, 1.0], "p5": [2.0, 0.1], "p6": [0.6, 0.8]}
        return np.array([table[p.id] for p in passages])

    found = hits([PASSAGES[0], PASSAGES[1], PASSAGES[4], PASSAGES[5]])
    kept, dropped = select_passages(found, "unrelated query", k=3, dedupe=0.85, embed=embed)
    assert [p.id for p in kept] == ["p1", "p2", "p6"]
    assert dropped["near_duplicate"] == 1


def test_passage_embedder_prefers_stored_vectors() -> None:
    class Dense(TinyRetriever):
        def vectors_of(self, passages: Sequence[Passage]) -> np.ndarray:
            return np.ones((len(passages), 2))

        def embed(self, texts: Sequence[str]) -> np.ndarray:
            raise AssertionError("should use the stored vectors")

    embed = passages.passage_embedder(Dense(PASSAGES))
    assert embed is not None and embed(PASSAGES[:2]).shape == (2, 2)
    assert passages.passage_embedder(TinyRetriever(PASSAGES)) is None


# -- options and registry ---------------------------------------------------------------------


def test_options_defaults_and_unknown_keys() -> None:
    options = ContextEnrichOptions()
    assert options.buckets == ["closed_wrong_open_right"]
    assert options.k == 3 and options.retrieval == ["question", "evidence"]
    assert options.dedupe_cosine == 0.85 and options.index == "default"
    with pytest.raises(ValidationError):
        ContextEnrich.from_config({"kk": 3})
    with pytest.raises(ValidationError):
        ContextEnrich.from_config({"retrieval": ["title"]})
    assert FAMILIES.get("context_enrich").generator_class() is ContextEnrich


# -- the generator end to end -----------------------------------------------------------------

SUMMARY = "Korean drama shows are exported across Asia, and a show may be renewed for a new season."
MERGED = f"{SUPPORT} Korean drama shows are exported across Asia, and a show may be renewed for a new season."


def script_backend(script: list[list[str]], default: str = "") -> MockBackend:
    backend = open_backend("mock/script", {"script": script, "default": default})
    inner = backend
    while not isinstance(inner, MockBackend):
        inner = inner.inner  # type: ignore[attr-defined]
    return inner


async def forge(
    backend: Any, retriever: Any, item: SeedCase | None = None, **options: Any
) -> list[TestCase | Skip]:
    generator = ContextEnrich(ContextEnrichOptions(**options))
    ctx = ForgeContext(llm=backend, resources={"retriever": retriever})
    return await generator.forge_one(item or seed(), ctx)


async def test_generator_llm_path_makes_two_variants() -> None:
    backend = script_backend(
        [
            ["Copy the one sentence", f'"{SUPPORT}"'],
            ["short texts", SUMMARY],
            ["Combine the two texts", MERGED],
        ]
    )
    retriever = TinyRetriever(PASSAGES)
    made = await forge(backend, retriever)
    cases = [m for m in made if isinstance(m, TestCase)]
    assert [c.variant for c in cases] == ["question", "evidence"]
    assert retriever.queries == [QUESTION, strip_html(EVIDENCE)]
    first, second = cases
    assert first.parent_seed == second.parent_seed and first.id != second.id
    assert (
        first.family == "context_enrich" and first.expected == ANSWERS and first.original_answers == ANSWERS
    )
    assert first.context == MERGED and first.valid
    assert first.metadata["support"] == SUPPORT
    for name in ("support", "summary", "context"):
        assert first.provenance.fields[name].path == "llm"
        assert first.provenance.fields[name].attempts == 1
    assert first.provenance.generator_model == "mock/script"
    assert set(first.provenance.template_hashes) == set(ContextEnrich.template_names)
    assert len(first.metadata["passages"]) == 3
    assert len({p["title"] for p in first.metadata["passages"]}) == 3
    assert first.metadata["grounding"] == {
        "summary": {"outcome": "llm", "sentences": 1, "dropped": {}},
        "context": {"outcome": "llm", "sentences": 2, "dropped": {}},
    }
    FAMILIES.get("context_enrich").check_metadata(first)


async def test_generator_trims_unsupported_sentences_and_records_why() -> None:
    invented = "Squid Game won 14 Emmy awards in 2019."
    loop = "A television season is a set of episodes of a show."
    backend = script_backend(
        [
            ["Copy the one sentence", SUPPORT],
            ["short texts", f"{SUMMARY} Here is the summary of the texts. {loop} {loop}"],
            ["Combine the two texts", f"{MERGED} {invented}"],
        ]
    )
    (case,) = await forge(backend, TinyRetriever(PASSAGES), retrieval=["question"])
    assert isinstance(case, TestCase)
    assert case.metadata["summary"] == f"{SUMMARY} {loop}"
    assert case.context == MERGED and invented not in case.context
    assert case.provenance.fields["context"].path == "llm"
    grounding = case.metadata["grounding"]
    assert grounding["summary"] == {
        "outcome": "trimmed",
        "sentences": 4,
        "dropped": {"prompt_label": 1, "repeated_sentence": 1},
    }
    assert grounding["context"] == {
        "outcome": "trimmed",
        "sentences": 3,
        "dropped": {"unsupported_number": 1},
    }
    FAMILIES.get("context_enrich").check_metadata(case)


async def test_generator_falls_back_when_grounding_leaves_too_little() -> None:
    # the only sentence with the answer invents a year: what is left lost the answer
    wrong = "In 2019 the hit South Korean show Squid Game is officially coming back for a second season."
    backend = script_backend(
        [
            ["Copy the one sentence", SUPPORT],
            ["short texts", SUMMARY],
            ["Combine the two texts", f"{wrong} Korean drama shows are exported across Asia."],
        ]
    )
    (case,) = await forge(backend, TinyRetriever(PASSAGES), retrieval=["question"])
    assert isinstance(case, TestCase)
    context = case.provenance.fields["context"]
    assert context.path == "fallback" and context.method == "extractive_merge"
    assert (
        context.rejected
        == ["merged text lost the answer (1 of 2 sentences dropped (1 unsupported_number))"] * 2
    )
    assert case.metadata["grounding"]["context"] == {
        "outcome": "fallback",
        "sentences": 2,
        "dropped": {"unsupported_number": 1},
    }
    assert case.context is not None and case.context.startswith(SUPPORT) and case.checks["context_has_answer"]


async def test_generator_rejects_a_reply_that_copies_the_passage_listing() -> None:
    # the other sentences are fine; a copied "Title: text" entry still rejects the whole reply
    echo = f"{SUPPORT} Netflix: Netflix is an American streaming service founded in 1997. {SUMMARY}"
    backend = script_backend(
        [["Copy the one sentence", SUPPORT], ["short texts", SUMMARY], ["Combine the two texts", echo]]
    )
    (case,) = await forge(backend, TinyRetriever(PASSAGES), retrieval=["question"])
    assert isinstance(case, TestCase)
    context = case.provenance.fields["context"]
    assert context.path == "fallback" and context.method == "extractive_merge"
    why = "the reply copies the prompt's passage listing (Title: text)"
    why += " (1 of 3 sentences dropped (1 listing_echo))"
    assert context.rejected == [why] * 2
    assert case.metadata["grounding"]["context"]["dropped"] == {"listing_echo": 1}
    assert case.provenance.fields["summary"].path == "llm"  # the same summary without the echo is kept


async def test_generator_retries_with_the_reason_then_accepts() -> None:
    backend = script_backend(
        [
            ["not usable", SUPPORT],  # the retry prompt carries the rejection reason
            ["Copy the one sentence", "Squid Game is a deadly contest show."],
            ["short texts", SUMMARY],
            ["Combine the two texts", MERGED],
        ]
    )
    made = await forge(backend, TinyRetriever(PASSAGES), retrieval=["question"])
    (case,) = made
    assert isinstance(case, TestCase)
    support = case.provenance.fields["support"]
    assert support.path == "llm" and support.attempts == 2
    assert support.rejected and "not a sentence of the evidence" in support.rejected[0]


async def test_generator_fallbacks_when_every_llm_output_is_rejected() -> None:
    backend = script_backend([], default="I do not know.")
    made = await forge(backend, TinyRetriever(PASSAGES), max_attempts=2)
    cases = [m for m in made if isinstance(m, TestCase)]
    assert len(cases) == 2
    for case in cases:
        fields = case.provenance.fields
        assert fields["support"].path == "fallback" and fields["support"].method == "question_overlap"
        assert fields["summary"].path == "fallback" and fields["summary"].method == "relevant_sentences"
        assert fields["context"].path == "fallback" and fields["context"].method == "extractive_merge"
        assert fields["support"].attempts == 2 and len(fields["support"].rejected) == 2
        assert case.checks["context_has_answer"] and case.checks["context_enriched"]
        assert case.context is not None and case.context.startswith(case.metadata["support"])
        assert not case.provenance.used_llm_only
    # 2 support tries + per variant 2 summary + 2 merge tries
    assert backend.calls == 2 + 2 * (2 + 2)


async def test_generator_merge_that_drops_the_answer_falls_back() -> None:
    backend = script_backend(
        [
            ["Copy the one sentence", SUPPORT],
            ["short texts", SUMMARY],
            [
                "Combine the two texts",
                "Korean drama shows are exported across Asia and renewed for a new season.",
            ],
        ]
    )
    made = await forge(backend, TinyRetriever(PASSAGES), retrieval=["evidence"])
    (case,) = made
    assert isinstance(case, TestCase)
    assert case.provenance.fields["context"].rejected == ["merged text lost the answer"] * 2
    assert case.provenance.fields["context"].path == "fallback"
    assert case.checks["context_has_answer"]


async def test_generator_backend_errors_are_rejections_not_crashes() -> None:
    backend = script_backend([], default="x")
    backend.options.fail = ["Copy the one sentence", "short texts", "Combine"]
    backend.options.fail_type = "ContextLengthError"
    made = await forge(backend, TinyRetriever(PASSAGES), retrieval=["question"], max_attempts=1)
    (case,) = made
    assert isinstance(case, TestCase)
    assert case.provenance.fields["support"].rejected[0].startswith("backend error")
    assert case.provenance.fields["context"].path == "fallback"


async def test_generator_without_llm_uses_rules_only() -> None:
    made = await forge(None, TinyRetriever(PASSAGES))
    assert all(isinstance(m, TestCase) and m.provenance.fields["support"].attempts == 0 for m in made)
    for case in made:
        assert isinstance(case, TestCase)
        assert case.metadata["grounding"]["context"] == {"outcome": "fallback", "sentences": 0, "dropped": {}}


async def test_extractive_merge_option_copies_sentences_without_llm_steps() -> None:
    """``merge: extractive`` asks the generator for the supporting sentence only; nothing is written."""
    backend = script_backend(
        [
            ["Copy the one sentence", f'"{SUPPORT}"'],
            ["short texts", SUMMARY],
            ["Combine the two texts", MERGED],
        ]
    )
    made = await forge(backend, TinyRetriever(PASSAGES), merge="extractive")
    cases = [m for m in made if isinstance(m, TestCase)]
    assert len(cases) == 2
    prompts = [r.messages[-1].content for r in backend.seen]
    assert prompts and all("Copy the one sentence" in p for p in prompts)  # no summary, no merge
    for case in cases:
        assert case.context is not None and case.context.startswith(SUPPORT) and case.context != MERGED
        assert case.provenance.fields["context"].method == "extractive_merge"
        assert case.metadata["grounding"]["context"] == {
            "outcome": "extractive",
            "sentences": 0,
            "dropped": {},
        }
        FAMILIES.get("context_enrich").check_metadata(case)
    # the default leaves ids as they were before the option existed; the extractive ids differ
    default = ContextEnrich(ContextEnrichOptions())
    legacy = stable_id(
        "context_enrich",
        "s",
        "question",
        "g",
        default.template_hashes(),
        {k: v for k, v in default.opts.model_dump().items() if k != "merge"},
    )
    assert default.case_id("s", "question", "g") == legacy
    assert ContextEnrich(ContextEnrichOptions(merge="extractive")).case_id("s", "question", "g") != legacy


async def test_generator_nli_grounding_from_score_nli_model(tmp_path: Any) -> None:
    from tests.unit.metrics.test_nli import build_tiny_nli  # skips without torch and transformers

    from halluforge.metrics.nli import load_nli

    order = {0: "contradiction", 1: "entailment", 2: "neutral"}
    never = str(build_tiny_nli(tmp_path / "never", order, bias=[6.0, 0.0, 0.0]))
    always = str(build_tiny_nli(tmp_path / "always", order, bias=[0.0, 6.0, 0.0]))
    for path in (never, always):  # the tiny models have 64 positions; pairs are cut to fit
        load_nli(path).max_length = 64
    script = [["Copy the one sentence", SUPPORT], ["short texts", SUMMARY], ["Combine the two texts", MERGED]]

    async def run(resources: dict[str, Any], **options: Any) -> TestCase:
        generator = ContextEnrich(ContextEnrichOptions(retrieval=["question"], **options))
        ctx = ForgeContext(
            llm=script_backend(script), resources={"retriever": TinyRetriever(PASSAGES), **resources}
        )
        generator.prepare(ctx)
        (case,) = await generator.forge_one(seed(), ctx)
        assert isinstance(case, TestCase)
        return case

    plain = await run({})
    rejected = await run({"nli_model": never})  # score.nli_model, handed over by the forge stage
    assert rejected.provenance.fields["summary"].path == "fallback"
    assert rejected.provenance.fields["context"].path == "fallback"
    # against the extractive summary, "Korean" (the support) and "Asia" (a passage) come from two
    # source sentences, so the merge's second sentence goes before the NLI model reads it
    assert rejected.metadata["grounding"]["context"]["dropped"] == {"not_entailed": 1, "mixed_sources": 1}
    assert rejected.id != plain.id  # the grounding model is part of what defines the case
    accepted = await run({"nli_model": never}, nli_model=always)  # the option wins
    assert accepted.context == MERGED and accepted.metadata["grounding"]["context"]["outcome"] == "llm"


def test_generator_with_a_missing_nli_model_fails_before_forging(tmp_path: Any) -> None:
    require("nli", "transformers")
    from halluforge.errors import ModelError

    generator = ContextEnrich(ContextEnrichOptions(nli_model=str(tmp_path / "nowhere")))
    with pytest.raises(ModelError, match="cannot load the NLI model"):
        generator.prepare(ForgeContext(llm=None))


async def test_generator_skips_with_reasons() -> None:
    backend = script_backend([], default="nothing")
    made = await forge(backend, TinyRetriever(PASSAGES), seed(answers=["Stranger Things"]))
    assert len(made) == 1 and isinstance(made[0], Skip)
    assert made[0].reason == "no evidence sentence contains the gold answer"

    only_duplicates = [Passage("d", "Dup", strip_html(EVIDENCE))]
    made = await forge(backend, TinyRetriever(only_duplicates))
    assert [type(m) for m in made] == [Skip, Skip]
    assert made[0].id != made[1].id
    assert made[0].reason.startswith("question: no usable passage") and made[1].reason.startswith("evidence:")

    no_evidence = SeedCase(
        id="s", example=Example.build("q?", ["a"], None), generator_model="m", closed_book_correct=False
    )
    made = await forge(backend, TinyRetriever(PASSAGES), no_evidence)
    assert isinstance(made[0], Skip) and "no evidence" in made[0].reason


async def test_retriever_is_opened_from_options_once(monkeypatch: pytest.MonkeyPatch) -> None:
    opened: list[str] = []

    def fake_open(index: str) -> TinyRetriever:
        opened.append(index)
        return TinyRetriever(PASSAGES)

    monkeypatch.setattr(ce, "open_retriever", fake_open)
    generator = ContextEnrich(ContextEnrichOptions(index="/some/index", retrieval=["question"]))
    ctx = ForgeContext(llm=None)
    for _ in range(3):
        made = await generator.forge_one(seed(), ctx)
        assert isinstance(made[0], TestCase)
    assert opened == ["/some/index"]


def test_open_retriever_unknown_opener_is_a_config_error(monkeypatch: pytest.MonkeyPatch) -> None:
    import halluforge.retrieval as retrieval
    from halluforge.errors import ConfigError

    for name in ("default_index", "load_index", "open_index"):
        monkeypatch.delattr(retrieval, name, raising=False)
    with pytest.raises(ConfigError, match="cannot open the retrieval index"):
        passages.open_retriever("default")


async def test_forge_is_deterministic() -> None:
    def build() -> MockBackend:
        return script_backend(
            [["Copy the one sentence", SUPPORT], ["short texts", SUMMARY], ["Combine", MERGED]]
        )

    first = await forge(build(), TinyRetriever(PASSAGES))
    second = await forge(build(), TinyRetriever(PASSAGES))
    assert [m.model_dump() for m in first] == [m.model_dump() for m in second]


@pytest.mark.slow
@pytest.mark.llamacpp
async def test_the_embedded_135m_model_still_yields_valid_cases(tmp_path: Any) -> None:
    require("llamacpp", "llama_cpp")
    from halluforge.backends import ResponseCache

    backend = open_backend(
        "llamacpp/smollm2-135m", {"n_threads": 2}, ResponseCache(tmp_path / "cache.sqlite")
    )
    try:
        made = await forge(backend, TinyRetriever(PASSAGES), max_tokens=64, max_attempts=1)
    finally:
        await backend.aclose()
    cases = [m for m in made if isinstance(m, TestCase)]
    assert [c.variant for c in cases] == ["question", "evidence"]
    for case in cases:
        assert case.valid and case.checks["context_has_answer"]
        assert case.metadata["support"] in split_sentences(EVIDENCE)
        assert case.provenance.generator_model == "llamacpp/smollm2-135m"
        assert all(f.attempts == 1 for f in case.provenance.fields.values())
