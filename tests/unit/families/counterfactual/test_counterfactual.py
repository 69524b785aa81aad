"""The counterfactual generator (RECALL): every validator and rule fallback, and seeded option order."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from extra_skips import needs
from halluforge.backends.base import Backend, Capabilities
from halluforge.families.counterfactual.generator import Counterfactual, CounterfactualOptions
from halluforge.families.counterfactual.rules import (
    answer_sentence_ids,
    cloze_candidates,
    cloze_question,
    insert_sentence,
    invented_values,
    na_checks,
    names_key,
    not_prose,
    person_key,
    qa_checks,
    rule_na_edits,
    rule_paragraph,
    rule_question,
    word_pairs,
)
from halluforge.families.counterfactual.sources import EventRecord
from halluforge.families.counterfactual.steps import counterfactual_answer
from halluforge.forge.base import ForgeContext
from halluforge.records import Completion, Request, Skip, TestCase
from halluforge.textkit.sentences import split_sentences

RECORD = EventRecord(
    "r1",
    "Battle of Hastings",
    "a battle in which Norman forces defeated the English army",
    (("date", "14 October 1066"), ("place", "Hastings"), ("victor", "William the Conqueror")),
)
POOL = {
    "date": ["4 July 1776"],
    "number": ["12"],
    "person": ["Horatio Nelson"],
    "place": ["Runnymede"],
    "other": [],
}


def test_rule_paragraph_and_questions_keep_every_value() -> None:
    paragraph = rule_paragraph(RECORD)
    for _, value in RECORD.items:
        assert value in paragraph
    assert rule_question(RECORD, "victor").startswith("Who was the victor")
    assert rule_question(RECORD, "place") == "Where did the Battle of Hastings take place?"
    assert rule_question(RECORD, "date").startswith("When")


def test_qa_checks_each_reject_their_case() -> None:
    passage = rule_paragraph(RECORD)
    good = qa_checks("Who won the Battle of Hastings?", "William the Conqueror", passage, title=RECORD.name)
    assert all(ok for ok, _ in good.values())
    assert not qa_checks("Who won?", "Harold", passage, title="x")["answer_in_passage"][0]
    assert not qa_checks("Was Hastings the place?", "Hastings", passage, title="x")["answer_not_in_question"][
        0
    ]
    long = "the battle in which Norman forces defeated the English army"
    assert not qa_checks("What was it?", long, "It was " + long, title="x")["answer_short"][0]
    assert not qa_checks("What is this about?", "Battle of Hastings", passage, title=RECORD.name)[
        "answer_not_title"
    ][0]
    assert not qa_checks("Tell me the victor", "Hastings", passage, title="x")["is_question"][0]
    # a dataset's search-query question: lower case, no mark, one question word
    query = qa_checks("who won the battle of hastings", "William", passage, title="x", query_style=True)
    assert query["is_question"][0] and query["one_question"][0]
    assert not qa_checks("who won the battle of hastings", "William", passage, title="x")["is_question"][0]
    told = qa_checks("tell me the victor of the battle", "William", passage, title="x", query_style=True)
    assert not told["is_question"][0]


def test_cloze_fallback_blanks_a_value_and_falls_back_to_a_phrase() -> None:
    paragraph = "Quicksort sorts lists. Tony Hoare developed it in 1959. It is fast."
    (sentence, value), *_ = cloze_candidates(paragraph, "Quicksort")
    assert value == "1959"
    question = cloze_question("Quicksort", sentence, value)
    assert "1959" not in question and "___" in question
    plain = cloze_candidates("A hash table stores values in buckets.", "hash table")
    assert plain[-1][1] == "buckets"


def test_rule_na_edits_never_touch_the_answer_sentence() -> None:
    paragraph = rule_paragraph(RECORD)
    for seed in range(30):
        rng = random.Random(seed)
        edited, changes = rule_na_edits(
            paragraph,
            ["William the Conqueror"],
            "Harold",
            POOL,
            rng,
            known={"14 October 1066": "date", "Hastings": "place", "William the Conqueror": "person"},
            title=RECORD.name,
        )
        assert changes
        before = split_sentences(paragraph)
        kept = [before[i] for i in answer_sentence_ids(before, ["William the Conqueror"])]
        assert all(sentence in edited for sentence in kept)
        assert "Battle of Hastings" in edited  # the title is never edited
        checks = na_checks(paragraph, edited, ["William the Conqueror"], "Harold", 0.5)
        assert all(ok for ok, _ in checks.values()), checks


def test_na_checks_reject_each_failure() -> None:
    original = "Ann won the race in 1990. The race was held in Oslo. It rained."
    gold, cf = ["Ann"], "Bob"
    assert not na_checks(original, original.replace("Ann won", "Ann lost"), gold, cf, 0.5)[
        "answer_sentence_kept"
    ][0]
    assert not na_checks(original, original + " Ann was happy.", gold, cf, 0.5)["answer_count_kept"][0]
    assert not na_checks(original, original.replace("Oslo", "Bob"), gold, cf, 0.5)["counterfactual_absent"][0]
    assert not na_checks(original, original, gold, cf, 0.5)["non_answer_changed"][0]
    rewritten = "Ann won the race in 1990. Something else entirely happened far away yesterday."
    assert not na_checks(original, rewritten, gold, cf, 0.9)["close"][0]


def test_qa_na_edits_change_facts_of_the_same_type() -> None:
    """A wording-only rewrite is no QA-NA edit; a rule edit keeps a place a place, leaves 'other' alone."""
    paragraph = rule_paragraph(RECORD)
    wording = paragraph.replace("The place", "The the place").replace(" was Hastings", " were Hastings")
    checks = na_checks(paragraph, wording, ["William the Conqueror"], "Harold", 0.5)
    assert not checks["fact_changed"][0]
    dropped = paragraph.replace(" The place of the Battle of Hastings was Hastings.", "")
    dropped_checks = na_checks(paragraph, dropped, ["William the Conqueror"], "Harold", 0.5)
    assert not dropped_checks["fact_changed"][0] and not dropped_checks["nothing_dropped"][0]
    moved = paragraph.replace("was Hastings.", "was Dover.")
    assert na_checks(paragraph, moved, ["William the Conqueror"], "Harold", 0.5)["fact_changed"][0]
    pool = {**POOL, "other": ["its diameter"], "person": ["Horatio Nelson"], "place": ["Runnymede"]}
    for seed in range(10):
        _, changes = rule_na_edits(
            paragraph,
            ["14 October 1066"],
            "14 May 1066",
            pool,
            random.Random(seed),
            known={"Hastings": "place", "William the Conqueror": "person", "a battle": "other"},
            title=RECORD.name,
        )
        # Hastings is in the title, "a battle" has no clear type: only the person is changed
        assert changes == [("William the Conqueror", "Horatio Nelson", "entity")]


def test_sentence_insertion_renames_the_donor_term() -> None:
    donors = [("binary search", ["Binary search needs sorted data.", "It halves the range."])]
    paragraph, sentence = insert_sentence("Quicksort sorts.", "quicksort", donors, random.Random(0)) or (
        "",
        "",
    )
    assert sentence == "Quicksort needs sorted data." and paragraph.endswith(sentence)
    assert insert_sentence("x", "binary search", donors, random.Random(0)) is None
    # the added false sentence is the QA-NA change (RECALL's sentence-grained edit)
    checks = na_checks("Quicksort sorts.", paragraph, ["sorts"], "x", 0.3, inserted=True)
    assert checks["fact_changed"][0]
    assert not na_checks("Quicksort sorts.", paragraph, ["sorts"], "x", 0.3)["fact_changed"][0]


def test_word_pairs_align_changed_words_only() -> None:
    pairs, edited, original = word_pairs("January 9, 1431", "January 10, 1432")
    assert pairs == [("9", "10"), ("1431", "1432")]
    assert edited == ["10", "1432"] and original == ["9", "1431"]


class _Scripted(Backend):
    """Replies by template: a paraphrase, a QA pair, a counterfactual answer and a QA-NA rewrite."""

    def __init__(self, replies: dict[str, str]) -> None:
        self.replies = replies
        self.capabilities = Capabilities()
        self.spec = None  # type: ignore[assignment]

    @property
    def name(self) -> str:
        return "scripted"

    async def generate(self, requests: Sequence[Request]) -> list[Completion]:
        out = []
        for request in requests:
            prompt = request.messages[-1].content
            reply = next((r for key, r in self.replies.items() if key in prompt), "")
            out.append(Completion(request_id=request.id, text=reply))
        return out


def _forge(llm: Backend | None, **options: object) -> list[TestCase | Skip]:
    generator = Counterfactual(CounterfactualOptions.model_validate({"limit": 2, **options}))
    ctx = ForgeContext(llm=llm)
    generator.prepare(ctx)
    (unit, *_) = generator.inputs(ctx)
    return asyncio.run(generator.forge_one(unit, ctx))


def test_llm_path_is_used_when_every_check_passes() -> None:
    paragraph = (
        "The Battle of Hastings, a battle in which Norman forces defeated the English army, was fought on "
        "14 October 1066 at Hastings. William the Conqueror won and Harold Godwinson was defeated."
    )
    replies = {
        "Turn this record": paragraph,
        "write one question": "Question: Who was the victor in 1066?\nAnswer: William the Conqueror",
        "The true answer is": "Horatio Nelson",
        "Rewrite the passage": paragraph.replace(
            "14 October 1066 at Hastings", "14 October 1066 at Dover"
        ).replace("Harold Godwinson was", "Harold Godwinson was"),
    }
    # the entity table off: with it, a man born after 1066 is refused (the next test); a real
    # person is a real donor, refused by default (real_donors: unknown)
    made = _forge(_Scripted(replies), sources=["records"], knowledge=False, real_donors="always")
    cases = [c for c in made if isinstance(c, TestCase)]
    assert {c.variant for c in cases} == {"qa_a", "qa_na", "textgen"}
    qa_a = next(c for c in cases if c.variant == "qa_a")
    assert qa_a.provenance.fields["question"].path == "llm"
    assert qa_a.provenance.fields["counterfactual_answer"].path == "llm"
    assert "Horatio Nelson" in (qa_a.context or "") and "William the Conqueror" not in (qa_a.context or "")
    assert {o.role: o.text for o in qa_a.options} == {
        "correct": "William the Conqueror",
        "counterfactual": "Horatio Nelson",
    }
    assert all(c.valid for c in cases)
    # the QA-NA rewrite of the LLM leaves the answer sentence alone and changes the place
    qa_na = next(c for c in cases if c.variant == "qa_na")
    assert qa_na.provenance.fields["context"].path == "llm" and "Dover" in (qa_na.context or "")


def test_bad_llm_outputs_fall_back_to_rules_with_reasons() -> None:
    replies = {
        "Turn this record": "A battle happened.",  # loses every value
        "write one question": "Question: Who won at Hastings?\nAnswer: Hastings",  # answer in the question
        "The true answer is": "William the Conqueror",  # the true answer again
        "Rewrite the passage": "Nothing.",
    }
    cases = [c for c in _forge(_Scripted(replies), sources=["records"]) if isinstance(c, TestCase)]
    qa_a = next(c for c in cases if c.variant == "qa_a")
    fields = qa_a.provenance.fields
    assert fields["original_context"].path == "fallback" and "lost" in fields["original_context"].rejected[0]
    assert fields["question"].path == "fallback" and fields["question"].rejected
    assert fields["counterfactual_answer"].path == "fallback" and fields["counterfactual_answer"].rejected
    qa_na = next(c for c in cases if c.variant == "qa_na")
    assert qa_na.provenance.fields["context"].method == "rule_edits"
    assert all(c.valid for c in cases)


def test_paraphrase_must_not_invent_values() -> None:
    """A paraphrase is the trusted original context: a made-up year or person sends it to the rule."""
    source = RECORD.render()
    assert invented_values(rule_paragraph(RECORD), source) == []
    made_up = "In 1066 William the Conqueror beat King Harold, and 7000 men died. Then Duke Robert fled."
    assert invented_values(made_up, source) == ["King Harold", "Then Duke Robert", "7000"]
    # a capitalised sentence word before a name the record has is not an invention
    assert invented_values("Then William the Conqueror won at Hastings in 1066.", source) == []
    paragraph = (
        "The Battle of Hastings, a battle in which Norman forces defeated the English army, was fought on "
        "14 October 1066 at Hastings. William the Conqueror won and Harold Godwinson was defeated. "
        "About 10,000 soldiers died, and Pope Alexander blessed the invasion."
    )
    cases = [
        c
        for c in _forge(_Scripted({"Turn this record": paragraph}), sources=["records"])
        if isinstance(c, TestCase)
    ]
    field = cases[0].provenance.fields["original_context"]
    assert field.path == "fallback" and field.rejected == ["paraphrase invented 'Pope Alexander'"]


def test_paraphrase_must_be_sentences() -> None:
    """Key: value labels and a looping phrase passed every value check but read as nonsense."""
    assert not_prose(rule_paragraph(RECORD)) is None
    assert "labels" in (not_prose("Title: Launch of Sputnik 1 Date: 4 May 1957 Place: Baikonur") or "")
    assert "loops" in (
        not_prose("It was Sputnik 1 Synthesizer Sputnik 1 Synthesizer Sputnik 1 Synthesizer") or ""
    )


def test_llm_question_must_ask_for_its_answers_key() -> None:
    """A question about the British commander answered with the American one is rejected."""
    assert names_key("Who was the american commander at Bunker Hill?", "american_commander")
    assert not names_key("Who was the British commander of Bunker Hill?", "american_commander")
    assert not names_key("What was the founding date of the United Nations?", "signing_date")
    assert names_key("When did the Battle of Hastings happen?", "date")
    assert names_key("Where did the Battle of Hastings take place?", "place")
    two = qa_checks("Who was the king, and who was the victor?", "William the Conqueror", "x", title="t")
    assert not two["one_question"][0]
    replies = {"write one question": "Question: Who was the king in 1066?\nAnswer: William the Conqueror"}
    cases = [c for c in _forge(_Scripted(replies), sources=["records"]) if isinstance(c, TestCase)]
    field = cases[0].provenance.fields["question"]
    assert field.path == "fallback" and field.rejected == [
        "the question does not ask for the record's 'victor'"
    ]


def test_rule_question_asks_who_only_for_a_persons_role() -> None:
    """A name-like value under a thing's key ("play: Our American Cousin") is asked with "what"."""
    play = EventRecord(
        "r2", "Assassination of Abraham Lincoln", "a shooting", (("play", "Our American Cousin"),)
    )
    assert rule_question(play, "play").startswith("What was the play")
    assert person_key("union_commander") and person_key("crowned_by") and not person_key("aircraft")
    general = EventRecord("r3", "Battle of Marathon", "a battle", (("athenian_general", "Miltiades"),))
    assert rule_question(general, "athenian_general").startswith("Who was")


@needs("knowledge")
def test_a_proposed_person_must_have_lived_at_the_sentences_date() -> None:
    """RECALL's counterfactual answer passes the answer swap's fact checks: no Napoleon at Hastings."""
    generator = Counterfactual(CounterfactualOptions(sources=["records"], limit=3))
    paragraph = "The Battle of Hastings was fought on 14 October 1066. William the Conqueror won it."
    template = generator.templates()["counterfactual/edit_answer"]
    llm = _Scripted({"The true answer is": "Napoleon"})
    pool = {**POOL, "person": ["Napoleon", "Ada Quist"]}
    new, prov = asyncio.run(
        counterfactual_answer(
            "Who won the battle in 1066?",
            ["William the Conqueror"],
            "person",
            paragraph,
            ForgeContext(llm=llm),
            random.Random(0),
            template,
            pool,
            max_attempts=1,
            real_donors="always",  # a proposed person is a real donor, refused by default
        )
    )
    assert any("'era'" in r and "Napoleon" in r for r in prov.rejected), prov.rejected
    assert new != "Napoleon" and prov.path == "fallback"


def test_cloze_answer_is_typed_by_its_form_and_answers_are_values(tmp_path: Path) -> None:
    """A blanked name is a person (its counterfactual a person too), not "other"; a clause is no answer."""
    terms = tmp_path / "terms.jsonl"
    sentences = [
        "The derivative gives the slope of a curve.",
        "Isaac Newton developed calculus.",
        "It measures a rate of change.",
    ]
    other = ["Gottfried Wilhelm Leibniz described the machine.", "It reads a tape."]
    terms.write_text(
        json.dumps({"term": "derivative", "sentences": sentences, "definition": "A slope."})
        + "\n"
        + json.dumps({"term": "Turing machine", "sentences": other, "definition": "A model."})
        + "\n"
    )
    generator = Counterfactual(
        CounterfactualOptions.model_validate({"sources": ["terms"], "terms": str(terms), "paraphrase": False})
    )
    ctx = ForgeContext(llm=None)
    generator.prepare(ctx)
    unit, _ = generator.inputs(ctx)
    made = asyncio.run(generator.forge_one(unit, ctx))
    cases = [c for c in made if isinstance(c, TestCase)]
    assert cases, made
    qa_a = next(c for c in cases if c.variant == "qa_a")
    assert qa_a.metadata["answer_type"] == "person"
    # Newton, an "English" physicist in the entity table, is British: an invented British name
    # (no real person, Leibniz or Turing, by default)
    assert qa_a.provenance.fields["counterfactual_answer"].method == "invented"
    assert {o.role: o.text for o in qa_a.options}["counterfactual"] not in (
        "Gottfried Wilhelm Leibniz",
        "Alan Turing",
    )
    assert {o.role: o.text for o in qa_a.options}["correct"] == "Isaac Newton"
    clause = qa_checks("What is the index?", "The index is 1.33", "The index is 1.33.", title="refraction")
    assert not clause["answer_not_clause"][0]


def test_paraphrase_loses_an_echoed_closing_label() -> None:
    paragraph = (
        "The Battle of Hastings, a battle in which Norman forces defeated the English army, was fought on "
        "14 October 1066 at Hastings. William the Conqueror won and Harold Godwinson was defeated."
    )
    made = _forge(_Scripted({"Turn this record": paragraph + " Paragraph:"}), sources=["records"])
    case = next(c for c in made if isinstance(c, TestCase))
    assert case.provenance.fields["original_context"].path == "llm"
    assert case.original_context == paragraph


def test_textgen_case_records_edited_words_and_reference() -> None:
    cases = [c for c in _forge(None, sources=["records"]) if isinstance(c, TestCase)]
    textgen = next(c for c in cases if c.variant == "textgen")
    assert textgen.format == "generation" and textgen.reference
    assert textgen.metadata["word_pairs"] and textgen.context != textgen.original_context
    (edit,) = textgen.edits
    assert textgen.context[edit.start : edit.end] == edit.new  # type: ignore[index]


@pytest.mark.parametrize("source", ["records", "terms"])
def test_option_order_is_seeded_per_repeat(source: str) -> None:
    first = [c for c in _forge(None, sources=[source], repeats=4) if isinstance(c, TestCase)]
    again = [c for c in _forge(None, sources=[source], repeats=4) if isinstance(c, TestCase)]
    orders = [[o.role for o in c.options] for c in first if c.variant == "qa_a"]
    assert orders == [[o.role for o in c.options] for c in again if c.variant == "qa_a"]
    assert len(orders) == 4 and len({tuple(o) for o in orders}) == 2  # both orders occur over 4 seeds
    assert len({c.id for c in first}) == len(first)


def test_pool_types_term_values_by_form() -> None:
    generator = Counterfactual(CounterfactualOptions(sources=["terms"]))
    ctx = ForgeContext(llm=None)
    generator.prepare(ctx)
    pool = ctx.resources["counterfactual:pool"]
    assert "Grace Hopper" in pool["person"] and "Grace Hopper" not in pool["other"]
    assert "1959" in pool["date"]


def _other_answer(pool: dict[str, list[str]], gold: str, question: str) -> tuple[str | None, Any]:
    generator = Counterfactual(CounterfactualOptions(sources=["records"], limit=3))
    template = generator.templates()["counterfactual/edit_answer"]
    return asyncio.run(
        counterfactual_answer(
            question,
            [gold],
            "other",
            "text",
            ForgeContext(llm=None),
            random.Random(0),
            template,
            pool,
            max_attempts=1,
        )
    )


def test_a_bare_other_answer_takes_nothing_from_the_pool_and_a_name_is_a_person(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A thing nothing is known of (a cave, a mission) keeps no kind, so the pool gives it nothing
    (before: a volcano for a payments company); an "other" answer with a known first name is a
    person and gets an invented name of the passage's nationality."""
    import halluforge.knowledge.table as tables
    from halluforge.knowledge.table import Entity, EntityTable

    table = EntityTable.of(
        [Entity("Roger Federer", "person", "Swiss tennis player (born 1981)")],
        countries={"Kenya": {"region": "Africa", "iso2": "KE", "languages": ["en", "sw"]}},
        demonyms={"kenyan": "Kenya"},
        first_names={"maria": "female"},
    )
    monkeypatch.setattr(tables, "entity_table", lambda: table)
    pool = {**POOL, "other": ["Roger Federer", "Hunga Tonga", "Tham Luang"]}
    new, prov = _other_answer(pool, "Zhurong", "What was the name of the rover that landed?")
    assert new is None and any("no other answer of kind other" in r for r in prov.rejected)
    new, prov = _other_answer(pool, "Maria Wanjiru", "Who was the Kenyan judge sworn in?")
    assert prov.method == "invented" and new is not None and new.split()[0] != "Maria"


def test_a_proposed_amount_passes_the_plausibility_check_of_every_wrong_answer() -> None:
    """ "$787.5 million" edited to a bare "1000.5" (set 35, both readers): refused, a shift taken."""
    generator = Counterfactual(CounterfactualOptions(sources=["records"], limit=3))
    template = generator.templates()["counterfactual/edit_answer"]
    paragraph = (
        "In April 2023 Fox agreed to pay $787.5 million to settle the lawsuit. "
        "Dominion had sued for $1.6 billion."
    )
    new, prov = asyncio.run(
        counterfactual_answer(
            "How much did Fox agree to pay Dominion?",
            ["$787.5 million"],
            "number",
            paragraph,
            ForgeContext(llm=_Scripted({"The true answer is": "1000.5"})),
            random.Random(0),
            template,
            POOL,
            max_attempts=1,
        )
    )
    assert any("1000.5" in r for r in prov.rejected), prov.rejected
    assert new is not None and new != "1000.5" and new.endswith(" million") and prov.path == "fallback"
