"""The answer_swap generator (AutoDebug/ReEval Category 1) with the scripted mock backend."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from extra_skips import needs
from halluforge.backends import open_backend
from halluforge.backends.base import Backend
from halluforge.config import DataSource, FilterConfig
from halluforge.data.bundled import load_bundled
from halluforge.data.filters import apply_filters
from halluforge.data.qa import load_reeval
from halluforge.families.answer_swap.generator import NO_PLAUSIBLE, RESTATED, AnswerSwap, answer_position
from halluforge.families.shared.donors import build_kind_pool, example_kind
from halluforge.families.shared.kinds import is_member, lexicon
from halluforge.families.shared.numbers import numbers_close, years_close
from halluforge.families.shared.spans import span_replace
from halluforge.families.shared.validate import answer_shape
from halluforge.family import FAMILIES
from halluforge.forge.base import ForgeContext
from halluforge.records import Example, SeedCase, Skip, TestCase
from halluforge.textkit.answers import contains_answer

EVIDENCE = (
    "Jane Austen published Pride and Prejudice in 1813. The novel follows Elizabeth Bennet and her "
    "four sisters in rural England, and its sharp wit about manners and money has kept it popular."
)
AUSTEN = Example.build(
    "who wrote the novel pride and prejudice", ["Jane Austen", "Austen"], EVIDENCE, id="ex-austen"
)
OTHERS = [
    Example.build("who wrote hamlet", ["William Shakespeare"], "William Shakespeare wrote it.", id="ex-1"),
    Example.build("who painted guernica", ["Pablo Picasso"], "Pablo Picasso painted it.", id="ex-2"),
    Example.build("who discovered radium", ["Marie Curie"], "Marie Curie found it.", id="ex-3"),
    Example.build("who wrote the odyssey", ["Homer"], "Homer wrote it.", id="ex-4"),
    Example.build("what is the capital of italy", ["Rome"], "Rome is the capital.", id="ex-5"),
]
PROPOSE = "Name a different"  # a phrase of the propose template
REWRITE = "Copy the passage"  # a phrase of the rewrite template


def mock(script: Sequence[tuple[str, str]] = (), **options: Any) -> Backend:
    return open_backend("mock/script", {"script": [list(p) for p in script], "retries": 0, **options})


def context(llm: Backend | None, seed: int = 0, examples: Sequence[Example] = ()) -> ForgeContext:
    return ForgeContext(llm=llm, seed=seed, examples=list(examples) or [AUSTEN, *OTHERS])


async def forge(item: Any, ctx: ForgeContext, **options: Any) -> TestCase | Skip:
    """Forge one seed case; real donors always, as most tests here are about the donor paths
    (the default, which refuses them for people and known answers, has tests of its own)."""
    options.setdefault("real_donors", "always")
    (made,) = await AnswerSwap.from_config(options).forge_one(item, ctx)
    return made


async def test_llm_path_accepted_end_to_end() -> None:
    rewritten = EVIDENCE.replace("Jane Austen", "Mary Shelley")
    llm = mock([(PROPOSE, "Wrong answer: Mary Shelley."), (REWRITE, f"New passage: {rewritten}")])
    case = await forge(AUSTEN, context(llm))
    assert isinstance(case, TestCase)
    assert case.family == "answer_swap" and case.valid
    assert case.expected == ["Mary Shelley"]
    assert case.context == rewritten
    assert case.original_answers == ["Jane Austen", "Austen"] and case.original_context == EVIDENCE
    assert case.parent_example == "ex-austen" and case.parent_seed is None
    fields = case.provenance.fields
    assert (fields["expected"].path, fields["expected"].attempts, fields["expected"].rejected) == (
        "llm",
        1,
        [],
    )
    assert (fields["context"].path, fields["context"].method) == ("llm", "answer_swap/rewrite")
    assert case.provenance.generator_model == "mock/script"
    assert set(case.provenance.template_hashes) == {"answer_swap/propose", "answer_swap/rewrite"}
    assert case.metadata["answer_type"] == "person"
    assert case.metadata["answer_position"] == "first" and case.metadata["occurrences"] == 1
    assert case.checks == {
        "differs_from_gold": True,
        "new_answer_present": True,
        "gold_absent": True,
        "context_close": True,
        "answer_short": True,
    }


async def test_gold_alias_proposal_falls_back_to_a_same_kind_pool_answer() -> None:
    llm = mock([(PROPOSE, "Austen"), (REWRITE, "garbage")])
    case = await forge(AUSTEN, context(llm), knowledge=False)
    assert isinstance(case, TestCase) and case.valid
    prov = case.provenance.fields["expected"]
    assert (prov.path, prov.method, prov.attempts) == ("fallback", "kind_pool", 2)
    assert all("overlaps gold answer" in r for r in prov.rejected[:2])
    # six examples are too few for neighbours: the path says so
    assert prov.rejected[2].startswith("no neighbours: dataset too small for neighbours")
    (new,) = case.expected
    assert new in {"William Shakespeare", "Homer"}  # another writer of the data, not the painter
    assert case.metadata["answer_kind"] == "person:writer"
    assert not contains_answer(case.context or "", "Austen")


async def test_rewrite_that_keeps_the_old_answer_falls_back_to_span_replace() -> None:
    kept = EVIDENCE.replace("Jane Austen", "Mary Shelley") + " Austen said so."
    llm = mock([(PROPOSE, "Mary Shelley"), (REWRITE, kept)])
    case = await forge(AUSTEN, context(llm))
    assert isinstance(case, TestCase) and case.valid
    prov = case.provenance.fields["context"]
    assert (prov.path, prov.method, prov.attempts) == ("fallback", "span_replace", 1)
    assert prov.rejected == ["gold answer 'Austen' still occurs in the new evidence"]
    assert case.context == span_replace(EVIDENCE, ["Jane Austen", "Austen"], "Mary Shelley")
    assert case.provenance.fields["expected"].path == "llm"


async def test_rewrite_that_changes_too_much_is_rejected() -> None:
    llm = mock([(PROPOSE, "Mary Shelley"), (REWRITE, "Mary Shelley wrote a book.")])
    case = await forge(AUSTEN, context(llm))
    assert isinstance(case, TestCase)
    assert "similarity" in case.provenance.fields["context"].rejected[0]
    assert case.metadata["similarity"] == 1.0  # the span replacement keeps every other word


async def test_rewrite_that_drops_a_word_falls_back_to_span_replace() -> None:
    """A rewrite close enough by similarity that still lost a word ("On 14 July ..." -> "14 July ...")."""
    dropped = EVIDENCE.replace("Jane Austen published", "Mary Shelley wrote")
    llm = mock([(PROPOSE, "Mary Shelley"), (REWRITE, dropped)])
    case = await forge(AUSTEN, context(llm))
    assert isinstance(case, TestCase)
    prov = case.provenance.fields["context"]
    assert prov.method == "span_replace" and "'published'" in prov.rejected[0]
    assert case.context == span_replace(EVIDENCE, ["Jane Austen", "Austen"], "Mary Shelley")


async def test_a_passage_that_restates_the_answer_is_skipped_with_the_reason() -> None:
    """No wrong count can stand in a passage that derives the count from its parts."""
    deck = Example.build(
        "how many cards are in a standard deck",
        ["52", "fifty-two"],
        "A deck has four suits of thirteen ranks each. That gives 52 cards in all.",
        id="ex-deck",
    )
    llm = mock([(PROPOSE, "48")])
    made = await forge(deck, context(llm, examples=[deck, *OTHERS]))
    assert isinstance(made, Skip)
    assert made.reason.startswith(RESTATED) and "'four' x 'thirteen'" in made.reason
    plain = deck.model_copy(update={"evidence": "A standard deck has 52 cards, shuffled before each game."})
    case = await forge(plain, context(llm, examples=[plain, *OTHERS]))
    assert isinstance(case, TestCase) and case.expected == ["48"]


async def test_a_date_that_would_cross_another_date_of_the_passage_is_not_drawn() -> None:
    war = Example.build(
        "in what year did the war begin",
        ["1914"],
        "The war began in 1914 and lasted until the armistice of November 1918.",
        id="ex-war",
    )
    llm = mock([(PROPOSE, "1941"), (REWRITE, "garbage")])
    case = await forge(war, context(llm, examples=[war, *OTHERS]))
    assert isinstance(case, TestCase)
    prov = case.provenance.fields["expected"]
    assert "'1941' is not before 'November 1918'" in prov.rejected[0]
    assert int(case.expected[0]) < 1918


async def test_a_number_written_in_words_is_shifted_and_spelled() -> None:
    faroe = Example.build(
        "how many islands make up the faroe islands",
        ["eighteen", "18"],
        "The Faroe Islands are a North Atlantic archipelago. The group consists of eighteen main islands.",
        id="ex-faroe",
    )
    llm = mock([(PROPOSE, "banana")], default="")
    case = await forge(faroe, context(llm, examples=[faroe]))
    assert isinstance(case, TestCase) and case.valid
    assert case.provenance.fields["expected"].method == "perturb"
    new = case.expected[0]
    assert new.isalpha() and new.islower() and new != "eighteen"  # one word, as the passage writes it
    assert f"consists of {new} main islands" in case.context


async def test_proposal_of_the_wrong_type_or_commentary_is_rejected() -> None:
    example = Example.build(
        "in what year was the eiffel tower finished",
        ["1889"],
        "The Eiffel Tower was finished in 1889 for the World's Fair in Paris.",
        id="ex-eiffel",
    )
    llm = mock([(PROPOSE, "banana")], default="")
    case = await forge(example, context(llm, examples=[example, *OTHERS]))
    assert isinstance(case, TestCase) and case.valid
    prov = case.provenance.fields["expected"]
    assert prov.rejected[0] == "proposal 'banana' is not a date like the gold answer"
    assert prov.method == "perturb"  # no other year in the data: the year is shifted
    assert case.expected[0].isdigit() and case.expected[0] != "1889"
    llm = mock([(PROPOSE, "The correct answer is not a person")])
    case = await forge(AUSTEN, context(llm))
    assert isinstance(case, TestCase)
    assert "not an answer" in case.provenance.fields["expected"].rejected[0]


async def test_without_a_generator_model_rules_do_all_the_work() -> None:
    case = await forge(AUSTEN, context(None))
    assert isinstance(case, TestCase) and case.valid
    assert case.provenance.generator_model is None
    assert case.provenance.fields["expected"].rejected[0] == "no generator model"
    assert case.provenance.fields["context"].path == "fallback"


async def test_backend_failures_become_fallbacks_with_the_reason() -> None:
    llm = mock(fail=[PROPOSE, REWRITE])
    case = await forge(AUSTEN, context(llm))
    assert isinstance(case, TestCase) and case.valid
    assert case.provenance.fields["expected"].rejected[:2] == ["backend error: BackendUnavailableError"] * 2
    assert case.provenance.fields["context"].rejected == ["backend error: BackendUnavailableError"]


async def test_same_seed_same_output_and_seeds_vary_the_draw() -> None:
    llm = mock([(PROPOSE, "Austen")])
    first = await forge(AUSTEN, context(llm, seed=11))
    again = await forge(AUSTEN, context(mock([(PROPOSE, "Austen")]), seed=11))
    assert isinstance(first, TestCase) and first.model_dump() == again.model_dump()
    drawn = set()
    for seed in range(12):  # the kind pool's seeded draw (the entity table's ranking is not seeded)
        case = await forge(AUSTEN, context(llm, seed=seed), knowledge=False)
        assert isinstance(case, TestCase)
        drawn.add(case.expected[0])
    assert len(drawn) > 1  # the run seed feeds the draw


async def test_single_occurrence_option_skips_repeated_answers() -> None:
    twice = Example.build(
        "who wrote the novel pride and prejudice",
        ["Jane Austen", "Austen"],
        "Jane Austen wrote it in 1813. Later, Austen revised her early drafts at Chawton.",
        id="ex-twice",
    )
    skip = await forge(twice, context(None), require_single_occurrence=True)
    assert isinstance(skip, Skip)
    assert skip.reason == "gold answer occurs 2 times; require_single_occurrence is on"
    assert skip.stage == "forge:answer_swap" and skip.item == "ex-twice"
    case = await forge(twice, context(None))
    assert isinstance(case, TestCase) and case.metadata["occurrences"] == 2
    # the full name once, then its surname where the passage uses the surname
    surname = case.expected[0].split()[-1]
    assert case.context is not None and case.context.count(case.expected[0]) == 1
    assert f"Later, {surname} revised" in case.context


async def test_unusable_examples_are_skipped_with_a_reason() -> None:
    no_evidence = Example.build("who wrote it", ["Jane Austen"], None, id="ex-none")
    absent = Example.build("who wrote it", ["Jane Austen"], "Nobody knows who wrote it.", id="ex-absent")
    skip = await forge(no_evidence, context(None))
    assert isinstance(skip, Skip) and skip.reason == "the example has no evidence to edit"
    skip = await forge(absent, context(None))
    assert isinstance(skip, Skip) and "does not occur in the evidence" in skip.reason
    lonely = Example.build("who is the best", ["Zed Quux"], "Zed Quux is the best.", id="ex-lonely")
    skip = await forge(lonely, context(None, examples=[lonely]))
    assert isinstance(skip, Skip) and skip.reason.startswith("no plausible wrong answer of kind person")


def test_answer_position_by_thirds() -> None:
    assert [answer_position("x" * 30, i) for i in (0, 10, 19, 20, 29)] == [
        "first",
        "middle",
        "middle",
        "last",
        "last",
    ]


def test_options_and_registry() -> None:
    cls = FAMILIES.get("answer_swap").generator_class()
    assert cls is AnswerSwap
    gen = cls.from_config({"max_attempts": 1, "similarity": 0.9})
    assert gen.buckets() == ("closed_right_open_right", "closed_wrong_open_right")
    with pytest.raises(ValidationError):
        cls.from_config({"max_attempt": 1})
    with pytest.raises(ValidationError):
        cls.from_config({"similarity": 1.5})


async def test_seed_cases_in_the_buckets_are_forged_and_linked() -> None:
    def seed(example: Example, closed: bool, opened: bool) -> SeedCase:
        return SeedCase(
            id=f"seed-{example.id}",
            example=example,
            generator_model="mock/script",
            closed_book_correct=closed,
            open_book_correct=opened,
        )

    seeds = [seed(AUSTEN, True, True), seed(OTHERS[0], False, True), seed(OTHERS[1], True, False)]
    ctx = ForgeContext(llm=None, seed_cases=seeds)
    gen = AnswerSwap.from_config(
        {"real_donors": "always"}
    )  # Austen's nationality is not read: no invented name
    inputs = gen.inputs(ctx)
    assert [s.id for s in inputs] == ["seed-ex-austen", "seed-ex-1"]
    (case,) = await gen.forge_one(inputs[0], ctx)
    assert isinstance(case, TestCase)
    assert case.parent_seed == "seed-ex-austen" and case.parent_example == "ex-austen"


def test_real_donors_option_reads_a_switch_and_refuses_people_and_known_answers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``unknown`` (the default): no real donor for a person, nor for an answer the table knows;
    an answer absent from the table may take one; a date or number is never refused; ``true`` and
    ``false`` from older configs mean ``always`` and ``never``."""
    import halluforge.knowledge.table as tables
    from halluforge.families.shared.wrong_answer import WrongAnswer
    from halluforge.knowledge.table import Entity, EntityTable

    table = EntityTable.of([Entity("Cusco", "place", "City in Peru", place_type="city", country="Peru")])
    monkeypatch.setattr(tables, "entity_table", lambda: table)
    default = WrongAnswer(option_prefix="families.answer_swap")
    known = default.no_real_donor(["Cusco"], "place:city")
    assert known is not None and "the entity table knows 'Cusco'" in known
    assert default.no_real_donor(["Tham Luang"], "place:cave") is None  # absent from the table
    person = default.no_real_donor(["Ada Quist"], "person:writer")
    assert person is not None and "no real person" in person
    assert default.no_real_donor(["1914"], "date") is None and default.no_real_donor(["12"], "number") is None
    assert WrongAnswer(real_donors="always").no_real_donor(["Cusco"], "place:city") is None
    assert "real donors are off" in (
        WrongAnswer(real_donors="never").no_real_donor(["Tham Luang"], "place") or ""
    )
    assert AnswerSwap.from_config({}).opts.real_donors == "unknown"
    assert AnswerSwap.from_config({"real_donors": True}).opts.real_donors == "always"
    assert AnswerSwap.from_config({"real_donors": False}).opts.real_donors == "never"
    with pytest.raises(ValidationError):
        AnswerSwap.from_config({"real_donors": "sometimes"})


async def test_by_default_no_real_donor_replaces_a_person_or_a_known_answer() -> None:
    """The bundled sample with the default options and no model: every real donor (entity table,
    dataset, lexicon) replaces an answer the table does not know and no person; the seed cases it
    refuses say why."""
    examples = list(load_bundled(DataSource()))
    gen = AnswerSwap.from_config({"neighbours": False})
    made = [m for e in examples for m in await gen.forge_one(e, context(None, examples=examples))]
    cases = [m for m in made if isinstance(m, TestCase)]
    skips = [m for m in made if isinstance(m, Skip)]
    table = gen.wrong.table()
    assert table is not None
    for case in cases:
        if case.provenance.fields["expected"].method not in ("perturb", "invented"):
            assert not case.metadata["answer_kind"].startswith("person"), case.expected
            assert not any(table.lookup(a) for a in case.original_answers), case.original_answers
    reasons = " ".join(s.reason for s in skips)
    assert "no real donor for a known answer" in reasons and "no real person replaces a person" in reasons
    assert len(cases) >= 0.4 * len(examples)  # 57 of 115 on 2026-11-27 (97 with real donors always)


async def test_bundled_sample_stays_valid_when_the_llm_writes_garbage() -> None:
    examples = list(load_bundled(DataSource()))
    assert len(examples) >= 100
    llm = mock(
        [(PROPOSE, "I think it must be something else, sorry."), (REWRITE, "The passage is about things.")],
    )
    ctx = context(llm, examples=examples)
    # the main job's path without the retrieval extra, with every donor path open
    gen = AnswerSwap.from_config({"neighbours": False, "real_donors": "always"})
    made = [m for e in examples for m in await gen.forge_one(e, ctx)]
    cases = [m for m in made if isinstance(m, TestCase)]
    valid = [c for c in cases if c.valid]
    skips = [m for m in made if isinstance(m, Skip)]
    assert len(valid) + len(skips) == len(examples)
    # the only skips: passages that restate their answer, and no plausible wrong answer
    assert all(s.reason.startswith((RESTATED, NO_PLAUSIBLE)) for s in skips), [s.reason for s in skips]
    assert len(valid) >= 0.8 * len(examples)
    pool = build_kind_pool(examples)
    for case in cases:  # every swap keeps its fine kind, and numbers and dates stay near the gold one
        kind, old, new = case.metadata["answer_kind"], case.original_answers[0], case.expected[0]
        if "invented" in case.metadata:  # an invented person: a name the table does not know
            assert kind.startswith("person") and gen.wrong.table().person(new) is None  # type: ignore[union-attr]
        elif ":" in kind:  # a known member: the lexicon's, the dataset's or the entity table's
            question, evidence = case.question, case.original_context or ""
            known = gen.wrong._in_table(new, case.original_answers, kind, evidence, question)
            assert is_member(new, kind, pool) or known, (kind, old, new)
        elif kind == "number":
            assert numbers_close(old, new), (old, new)
        elif kind == "date":
            assert years_close(old, new), (old, new)
    for case in valid:
        assert not any(contains_answer(case.context or "", a) for a in case.original_answers)
        assert contains_answer(case.context or "", case.expected[0])
    methods = Counter(c.provenance.fields["expected"].method for c in cases)
    assert methods["answer_swap/propose"] == 0
    assert set(methods) <= {"neighbour", "entity_table", "kind_pool", "kind_lexicon", "perturb", "invented"}
    assert {c.provenance.fields["context"].method for c in cases} == {"span_replace"}
    types = Counter(c.metadata["answer_type"] for c in cases)
    # nine of the sample's counts are restated by their passage (4 suits x 13 ranks): skipped
    assert types["person"] >= 15 and types["date"] >= 15 and types["number"] >= 10
    # dates keep their shape: a full date is swapped for another full date, a year for a year
    dates = [c for c in cases if c.metadata["answer_type"] == "date"]
    same = [c for c in dates if answer_shape(c.expected[0]) == answer_shape(c.original_answers[0])]
    assert len(same) >= 0.9 * len(dates)


SHARED = Path(__file__).resolve().parents[4] / ".." / "shared"


@pytest.mark.parametrize(("real_donors", "share"), [("always", 0.35), ("unknown", 0.12)])
async def test_real_realtimeqa_evidence_without_a_model(real_donors: str, share: float) -> None:
    """ReEval's 814 RealtimeQA examples, forged by the rules alone: every test case valid.

    With the default ``real_donors: unknown`` 102 of 796 seed cases yield a case, against 307
    with ``always`` (2026-11-27): known answers and people take no real donor, and with no
    generator model nothing else may name a real one (a date, a number or an invented person
    only; 168 before the rule fallbacks lost their real donors).
    """
    path = SHARED / "data" / "reeval" / "realtime_cat2_retrieve_by_query.json"
    if not path.is_file():
        pytest.skip("shared/data is not beside this checkout")
    examples, _ = apply_filters(load_reeval(DataSource(loader="reeval", path=str(path))), FilterConfig())
    ctx = context(None, examples=examples)
    # the kind path; no MiniLM in this test
    gen = AnswerSwap.from_config({"neighbours": False, "real_donors": real_donors})
    made = [m for e in examples for m in await gen.forge_one(e, ctx)]
    cases = [m for m in made if isinstance(m, TestCase)]
    skips = [m for m in made if isinstance(m, Skip)]
    assert all(c.valid for c in cases)
    # RealtimeQA answers are multiple-choice options, often not verbatim in the evidence, and
    # many have no finer kind than "other", which only a neighbour may fill: those two reasons
    # are the only skips (334 cases of 796 on 2026-11-24, docs/families/answer_swap.md)
    # ("the passage restates the gold answer" too, for the few that state it twice)
    reasons = ("does not occur in the evidence", "no plausible wrong answer of kind", RESTATED)
    assert all(any(r in s.reason for r in reasons) for s in skips)
    assert len(cases) >= share * len(examples)
    table = gen.wrong.table()
    for case in cases if real_donors == "unknown" and table is not None else []:
        if case.provenance.fields["expected"].method not in ("perturb", "invented"):
            assert not any(table.lookup(a) for a in case.original_answers), case.original_answers


@pytest.mark.parametrize(
    ("candidate", "gold", "kind", "question", "reason"),
    [
        # replies SmolLM2-135M really gave, each rejected for what it is
        ("Who invented the wheel", "Albert Einstein", "person", "who developed relativity", "not an answer"),
        ("Sensitivity to Redemption", "Marie Curie", "person", "who found radium", "person's name"),
        ("What's the right answer", "Canberra", "place", "what is the capital of australia", "not an answer"),
        ("Instead of Mount Erebus", "Himalayas", "place", "where is everest", "not an answer"),
        ("banana", "1889", "date", "when was it built", "not a date"),
        ("1923", "Paris", "place", "where is the louvre", "is a date"),
        ("paris", "Rome", "place", "where is the colosseum", "not capitalised"),
        ("One Two Three Four Five Six", "Rome", "place", "where is it", "too long"),
        ("Jane", "Jane Austen", "person", "who wrote it", "overlaps"),
        ("Bath", "Chawton", "place", "where did she live", "already occurs in the evidence"),
        ("Flying high and far", "HMS Beagle", "other", "which ship carried darwin", "not a name"),
        ("Reply with no sentence", "yen", "other", "what is the currency of japan", "not an answer"),
    ],
)
def test_reject_answer_reasons(candidate: str, gold: str, kind: Any, question: str, reason: str) -> None:
    found = AnswerSwap().wrong.reject_answer(
        candidate, [gold], kind, question, "She lived in Bath for years."
    )
    assert found is not None and reason in found


@pytest.mark.parametrize(
    ("candidate", "gold", "kind", "question"),
    [
        ("John Adams", "George Washington", "person", "who was the first president"),
        ("Moses", "Michelangelo", "person", "who carved the statue"),
        ("Chile", "Peru", "place", "where is machu picchu"),
        ("15 June 1216", "15 June 1215", "date", "when was the charter sealed"),
        ("polymer", "polypeptide", "other", "a long chain of amino acids is a"),
    ],
)
def test_reject_answer_accepts_plausible_ones(candidate: str, gold: str, kind: Any, question: str) -> None:
    assert (
        AnswerSwap().wrong.reject_answer(candidate, [gold], kind, question, "Some unrelated evidence.")
        is None
    )


def test_a_wrong_date_is_written_as_the_passage_writes_the_gold_one() -> None:
    evidence = "The bridge opened on 4 March 1890 after seven years of work."
    gold = ["March 1890", "4 March 1890"]  # the passage writes the alias with the day
    swap = AnswerSwap()
    found = swap.wrong.implausible("March 1893", gold, "date", evidence)
    assert found is not None and "'4 March 1890'" in found
    assert swap.wrong.implausible("4 March 1893", gold, "date", evidence) is None
    # where the passage writes the date as the gold answer does, the gold answer's form is the one
    plain = "The bridge opened in March 1890 after seven years of work."
    assert swap.wrong.implausible("March 1893", gold, "date", plain) is None


@pytest.mark.parametrize("candidate", ["Dr", "Sir", "the President", "Prof.", "The Writer"])
def test_a_title_or_kind_word_alone_is_no_person(candidate: str) -> None:
    found = AnswerSwap().wrong.implausible(candidate, ["Ada Brook"], "person", "Ada Brook found the comet.")
    assert found is not None and "only a title or kind word" in found


def test_a_title_with_a_name_or_a_kind_word_for_a_thing_is_an_answer() -> None:
    swap = AnswerSwap()
    assert swap.wrong.implausible("Dr Carl Sagan", ["Ada Brook"], "person", "Ada Brook found it.") is None
    # a kind word is a fine answer when the answer is not a person ("gas" for a state of matter)
    assert (
        swap.wrong.implausible("gas", ["liquid"], "other", "Water is a liquid at room temperature.") is None
    )


def _architect() -> Example:
    """A passage that calls its answer a Danish architect working in 1901 (a first name no list
    genders: not "Kim", which Faker's Danish stock lists among men)."""
    return Example.build(
        "who drew the plans of the town hall",
        ["Ravn Brook", "Brook"],
        "The town hall was planned by the young Danish architect Ravn Brook in 1901.",
        id="ex-architect",
    )


async def test_a_donor_must_fit_the_role_the_passage_gives() -> None:
    """No role in the question; the passage calls the answer an architect: a scientist is refused."""
    builder = _architect()
    swap = AnswerSwap()
    kind = example_kind(builder)
    assert kind == "person:architect"
    found = swap.wrong.implausible("Albert Einstein", builder.answers, kind, builder.evidence or "")
    assert found is not None and "not a known architect" in found
    case = await forge(builder, context(None), invent_people=False)
    assert isinstance(case, TestCase) and case.expected[0] in lexicon()["person:architect"]


async def test_a_person_is_swapped_for_an_invented_name_of_the_passage_nationality() -> None:
    """The Danish architect becomes a person nobody knows with a Danish name, recorded on the case."""
    from halluforge.knowledge.names import name_stocks
    from halluforge.knowledge.table import entity_table

    case = await forge(_architect(), context(None))
    assert isinstance(case, TestCase) and case.provenance.fields["expected"].method == "invented"
    new = case.expected[0]
    info = case.metadata["invented"]
    assert {k: info[k] for k in ("country", "country_from", "era")} == {
        "country": "Denmark",
        "country_from": "demonym",
        "era": "names attested before 1950",  # the passage's 1901
    }
    # no gendered word, and 1901: drawn by the table's earlier Europeans, not evenly
    assert info["gender"] in ("female", "male") and "born before 1950" in info["gender_from"]
    first, last = new.split()
    assert name_stocks()["da_DK"].holds(first, last) == 2
    assert entity_table().person(new) is None and case.context is not None
    assert case.context == f"The town hall was planned by the young Danish architect {new} in 1901."


async def test_a_group_the_passage_names_takes_only_its_members_or_skips() -> None:
    wolf = Example.build(
        "which animal is the largest wild canine",
        ["grey wolf", "the grey wolf", "grey wolves"],
        "The grey wolf is the largest wild member of the dog family. Grey wolves hunt in packs.",
        id="ex-wolf",
    )
    case = await forge(wolf, context(None))
    assert isinstance(case, TestCase) and case.metadata["answer_kind"] == "thing:dog family"
    new = case.expected[0]
    assert new in lexicon()["thing:dog family"] and case.context is not None
    assert case.context.startswith(f"The {new} is the largest")
    swap = AnswerSwap()
    found = swap.wrong.implausible("giraffe", wolf.answers, "thing:dog family", wolf.evidence or "")
    assert found is not None and "not a known dog family" in found
    # a group nothing is known of: no donor passes, so the seed case is skipped with the reason
    mole = Example.build(
        "which animal digs the longest burrows",
        ["mole", "the mole"],
        "The mole is a digger of the talpid family, and it eats worms.",
        id="ex-mole",
    )
    skip = await forge(mole, context(None))
    assert isinstance(skip, Skip) and "no plausible wrong answer of kind thing:talpid family" in skip.reason


async def test_the_passages_kind_noun_picks_a_volcano_not_a_mountain() -> None:
    hood = Example.build(
        "which mountain towers over portland",
        ["Mount Hood", "Hood"],
        "Mount Hood is a volcano in Oregon, east of Portland. Hood last erupted in the 1860s.",
        id="ex-hood",
    )
    case = await forge(hood, context(None))
    assert isinstance(case, TestCase) and case.metadata["answer_kind"] == "place:volcano"
    assert case.expected[0] in lexicon()["place:volcano"]


@needs("knowledge")
def test_a_known_architect_must_have_lived_at_the_sentences_date() -> None:
    """The entity table's lifespans: Christopher Wren (died 1723) cannot plan a town hall in 1901."""
    builder = _architect()
    swap = AnswerSwap()
    kind = example_kind(builder)
    # a Catalan architect is no Danish one (nationality)
    catalan = swap.wrong.implausible("Antoni Gaudi", builder.answers, kind, builder.evidence or "")
    assert catalan is not None and "'nationality'" in catalan
    # one dead before 1901 does not fit either (era)
    found = swap.wrong.implausible("Christopher Wren", builder.answers, kind, builder.evidence or "")
    assert found is not None and "'era'" in found


async def test_without_real_donors_a_thing_is_skipped_and_a_person_still_invented() -> None:
    """`real_donors: false`: no lexicon animal for the grey wolf (the seed case is skipped with
    the reason), while a person still gets an invented name and a date its shift."""
    wolf = Example.build(
        "which animal is the largest wild canine",
        ["grey wolf", "the grey wolf", "grey wolves"],
        "The grey wolf is the largest wild member of the dog family. Grey wolves hunt in packs.",
        id="ex-wolf-real",
    )
    skipped = await forge(wolf, context(None), real_donors=False)
    assert isinstance(skipped, Skip)
    assert "real donors are off (families.answer_swap.real_donors)" in skipped.reason
    case = await forge(_architect(), context(None), real_donors=False)
    assert isinstance(case, TestCase) and case.provenance.fields["expected"].method == "invented"
