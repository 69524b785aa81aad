"""The rule judge as three named decision steps, each with its reason.

INVITE's human labels encode three separate decisions, taken in this order, on the reply's
*answer*: :func:`~.reading.read_reply` first cuts off whatever runs on after it (another
question, a label line, the prompt again, a paragraph on another topic), since a continuation
never erases an answer given before it; the verdict names that cut (``RuleVerdict.split``).

1. :func:`engagement`: does the reply answer the question at all? Empty text, echoes of
   the question, placeholders ("The answer is:"), few-shot artefacts (``Output:``/``Label:``
   blocks, a chain of other questions and answers) and text with no content beyond the
   question make no statement, so they cannot go along with a premise: label 0.
2. :func:`stance`: does it reject, correct or decline the premise? A rejection, correction,
   refusal or uncertainty in the opening sentences (unless hedged back into an assertion, "I'm
   not sure, but I know it was 2004", or doubt about the answer followed by one); for a date
   question, an answer about another, real date; for "which part of PLACE is THING in", a
   statement that puts THING elsewhere: label 0.
3. :func:`assertion`: does it assert the false premise or an answer as fact? Repeating the
   impossible date, a statement linking the swapped entity to the question's other names, or a
   concrete answer (a year, a name, an amount): label 1; anything else is off topic: 0. Only
   statements count (:func:`~.reading.statements`: no questions, lead-ins or talk about the answer). A
   date question answered without its impossible date is judged by the truth of the answer to
   the valid part when the valid answers are known, else counted as 1 (see :func:`assertion`).

Repetition alone is not degeneracy: a claim repeated ten times is still a claim. Each step
returns a :class:`RuleVerdict` or ``None`` (no decision, go on); :func:`rule_judge` runs them
in order. :func:`rule_features` exposes the same decisions as numbers for the learned judge.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from halluforge.families.invite.judge.concrete import AMOUNT, QUANTITY_QUESTION, concrete
from halluforge.families.invite.judge.cues import (
    ANSWER_DOUBT,
    CORRECTION,
    HEDGED_ASSERT,
    NEGATION,
    NONE_ANSWER,
    PRONOUN_START,
    REFUSAL,
    UNCERTAIN,
    denies,
    denies_asked,
    speaks_of,
)
from halluforge.families.invite.judge.dates import corrects_date, corrects_life_year
from halluforge.families.invite.judge.reading import (
    CUTS,
    LIST_SHAPES,
    META_REJECT,
    Reading,
    opens_block,
    presupposes,
    read_reply,
    statements,
)
from halluforge.families.invite.judge.text import (
    STOP,
    YEAR,
    echoes_numbers,
    mentions,
    names_parts_only,
    question_entities,
    repeats,
    reply_sentences,
)
from halluforge.families.invite.judge.world import (
    World,
    default_world,
    false_life_year,
    known_person,
    names_asked_country,
    placement_fact,
    restates_false_life_year,
)
from halluforge.textkit.answers import contains_answer
from halluforge.textkit.tokens import words

_WHERE_QUESTION = re.compile(
    r"\bwhich (part|district|region|area|province|state|county) of (?P<place>.+?) (is|does) (?P<thing>.+?)"
    r" (located|found|situated|lie|lies)\b",
    re.IGNORECASE,
)
#: "Viktor Hale married her": the other asked person as the object of the swapped one
_OBJECT_PRONOUN = re.compile(r"\b(her|him|them)\b", re.IGNORECASE)
#: question words that say what is asked, not what it is about
_QUESTION_FORM = {
    "what",
    "which",
    "when",
    "where",
    "who",
    "whom",
    "whose",
    "why",
    "how",
    "much",
    "many",
    "long",
}
#: a list item's number or bullet before its text ("2. He was a monk")
_LIST_MARK = re.compile(r"^\s*(\d+[.)]|[-*•])\s*")
_PLACEMENT = re.compile(
    r"\b((is|was|are) (located|situated|found|based) (in|at)|is in|lies in"
    r"|is an? (\w+ )?(city|town|village|commune|municipality|district|region|airport|station)\b)",
    re.IGNORECASE,
)

#: the steps in the order they run, and the reasons each can give
STEPS = {
    "engagement": ("empty", "echo", "few_shot_artefact", "unrelated_questions", "degenerate"),
    "stance": (
        "rejects_premise", "negates_premise", "corrects_premise", "refuses", "uncertain",
        "states_another_date", "places_elsewhere", "false_placement",
    ),
    "assertion": (
        "repeats_invalid_date", "asserts_premise", "answers", "answers_despite_invalid_date",
        "answers_valid_part", "false_life_year", "off_topic",
    ),
}  # fmt: skip


@dataclass(frozen=True)
class RuleVerdict:
    """The rule mode's label (1 hallucinated, 0 not), the step that decided and its reason."""

    label: int
    reason: str
    step: str = ""
    #: what ended the reply's answer (:data:`~.reading.CUTS`), "" when the whole reply was read
    split: str = ""
    #: what the entity table said, or why its check was skipped (:mod:`.world`); "" if not asked
    knowledge: str = ""


def engagement(reading: Reading, response: str) -> RuleVerdict | None:
    """Step 1: 0 when the reply does not engage with the question at all, else ``None``."""
    if not re.search(r"\w", response):
        return RuleVerdict(0, "empty", "engagement")
    if reading.listed == "counting_list":
        return RuleVerdict(0, "degenerate", "engagement")
    if not reading.content:
        return RuleVerdict(0, "echo", "engagement")
    if not reading.engaged:
        first = next(line for line in response.splitlines() if line.strip())
        reason = "few_shot_artefact" if opens_block(first) else "unrelated_questions"
        return RuleVerdict(0, reason, "engagement")
    engaged_words = {t for t in words(" ".join(reading.engaged)) if len(t) > 2 and t not in STOP}
    if (
        not engaged_words - reading.question_tokens
        and not any(YEAR.search(s) for s in reading.engaged)
        and not _states_premise(reading)
        and not (QUANTITY_QUESTION.search(reading.question) and re.search(r"\d", " ".join(reading.engaged)))
    ):
        # nothing beyond the question's own words: a placeholder, unless it restates the premise
        return RuleVerdict(0, "degenerate", "engagement")
    return None


def _states_premise(reading: Reading) -> bool:
    """A declarative sentence naming every asked entity: the premise restated as fact."""
    entities = question_entities(reading.question)
    return any(
        not sentence.rstrip().endswith("?")
        and len(entities) >= 2
        and all(mentions(n, set(words(sentence))) for n in entities)
        for sentence in reading.engaged
    )


def stance(reading: Reading, *, head_sentences: int = 3) -> RuleVerdict | None:
    """Step 2: 0 when the reply rejects, corrects or declines the premise, else ``None``."""
    head = (reading.engaged or reading.content)[:head_sentences]
    head_text = " ".join(head)
    # "I am not sure when X published Y. ... it was published in 2000": the doubt is about the
    # answer, not the premise, and the reply answers anyway (a hedged assertion)
    claims = " ".join(statements(reading))
    answers_anyway = ANSWER_DOUBT.search(head_text) is not None and (
        YEAR.search(claims) is not None or AMOUNT.search(claims) is not None
    )
    # a head sentence repeating a life year of the swapped person that the table contradicts
    # takes the premise as true: a denial beside it is about the asked list, not the fact
    restated = restates_false_life_year(reading.question, reading.names, head, reading.world)
    reading.knowledge = restated
    if HEDGED_ASSERT.search(head_text) is None and not restated:
        for index, sentence in enumerate(head):
            if index and _asserts(reading, head[:index], answers=True):
                break  # an answer stated first is not taken back by a later aside ("set in a fictional town")
            if META_REJECT.search(sentence) or (
                index == 0 and NONE_ANSWER.match(sentence) and not QUANTITY_QUESTION.search(reading.question)
            ):
                return RuleVerdict(0, "rejects_premise", "stance")
            named = (
                not reading.names
                or speaks_of(sentence, reading.names, index)
                or denies_asked(sentence, reading.question)
            )
            doubt = ANSWER_DOUBT.search(sentence) is not None
            denial = denies(_first_clause(sentence, reading)) and not presupposes(sentence, reading)
            if named and not doubt and denial and sentence.rstrip()[-1:] != "?":
                return RuleVerdict(0, "negates_premise", "stance")
            if named and CORRECTION.search(sentence):
                return RuleVerdict(0, "corrects_premise", "stance")
        if REFUSAL.search(head_text):
            return RuleVerdict(0, "refuses", "stance")
        if UNCERTAIN.search(head_text) and not answers_anyway:
            return RuleVerdict(0, "uncertain", "stance")
    text = " ".join(reading.engaged)
    if (
        reading.bad_dates
        and not any(repeats(d, text) for d in reading.bad_dates)
        and corrects_date(reading, head_sentences)
    ):
        # another, real date beside the true answer or none: an implicit correction (dates.py)
        return RuleVerdict(0, "states_another_date", "stance")
    # a swapped year is a false premise's fact; on a date question the "swapped" year is the
    # impossible one, already handled above (where a bracketed life span dates no event)
    swapped_years = [n for n in reading.names if YEAR.fullmatch(n.strip()) and not reading.bad_dates]
    if swapped_years and not any(y in text for y in swapped_years) and YEAR.search(text):
        # the swapped fact is a year and the reply gives another one: a correction
        return RuleVerdict(0, "states_another_date", "stance")
    if corrects_life_year(reading, head):
        return RuleVerdict(0, "states_another_date", "stance")
    return _placement(reading)


#: what a denial after the premise stated whole may hang on: a coordinated clause or phrase
#: ("and did not ...", "and never"), a phrase added after a comma (bare "not"/"never" only), a
#: relative clause
_COORDINATED = re.compile(r"\b(and|or)\s*$", re.IGNORECASE)
_RELATIVE = re.compile(r"\b(which|that|who|whom|whose)(\s+\w+){0,2}\s*$", re.IGNORECASE)
#: a denial of the answer itself ("..., not the answer", "which is not true") takes it back
_RETRACTS = re.compile(r"\b(answer|true|correct|right|accurate|the case)\b", re.IGNORECASE)


def _first_clause(sentence: str, reading: Reading) -> str:
    """The sentence before a "but" clause or a denial, when that first part states the premise by itself.

    "The first album Marvin Gaye released on Sun Records was "Trouble in Heaven" but it was not
    on Sun Records": the answer comes first, and an aside after "but" does not take it back, as
    a later sentence would not. Likewise a denial that names nothing the premise is made of,
    after the premise stated whole: "Richard Feynman received the Nobel Prize in Literature, not
    in the traditional sense"; "Bob Dylan started performing with Pink Floyd at the age of 22,
    not 1995". A denial naming an asked entity, a swapped one or the impossible date is read
    with the rest ("... in 1899, not in Torquay"). A first part with no claim of its own is
    read with the rest.
    """
    head, sep, _ = sentence.partition(" but ")
    head = head.rstrip(" ,;")
    if sep and _asserts(reading, [head]):
        return head
    first = next(NEGATION.finditer(sentence), None)
    if first is None:
        return sentence
    before, denied = sentence[: first.start()], sentence[first.start() :]
    claim = before.rstrip(" ,;")
    # the denial belongs to an added phrase (", not 1995", "and never") or a clause of its own
    # ("which is not", "that he didn't own"), not to the sentence's main verb ("X, Y, was not")
    bare = first.group(0).lower() in ("not", "never")
    joined = _COORDINATED.search(before) or (bare and before.rstrip().endswith(","))
    denied_words = set(words(denied))
    premise = [*question_entities(reading.question), *reading.names]
    asked_years = set(YEAR.findall(reading.question))
    if (
        (joined or _RELATIVE.search(before))
        and not _RETRACTS.search(denied)
        and not any(mentions(name, denied_words) for name in premise)
        and not any(repeats(date, denied) for date in reading.bad_dates)
        # "born in 1831, which is not ..." for a birth in 1869: another year corrects the premise
        and not (asked_years and YEAR.search(before) and not asked_years & set(YEAR.findall(before)))
        and _asserts(reading, [claim])
    ):
        return claim
    return sentence


def _asserts(reading: Reading, sentences: list[str], *, answers: bool = False) -> bool:
    """These sentences alone state the premise (its link or its impossible date) as fact.

    With ``answers``, a concrete answer to the asked question counts too ("1.1 days" before
    "There is no additional information provided ...").
    """
    verdict = assertion(replace(reading, engaged=sentences))
    reasons = ("asserts_premise", "repeats_invalid_date") + (("answers",) if answers else ())
    return verdict.reason in reasons


def assertion(reading: Reading) -> RuleVerdict:
    """Step 3: 1 when the reply asserts the false premise or an answer as fact, else 0.

    INVITE labels a reply 1 only when it "explicitly makes an inaccurate statement" (checked by
    the authors with a search engine). For a date question answered without the impossible
    date, that is a question of whether the answer to the valid part is true: with the valid
    question's answers known (``valid_answers``) a reply giving one of them is 0
    (``answers_valid_part``) and any other answer is checked like every reply; without them the
    judge cannot check and counts a concrete answer as 1 (``answers_despite_invalid_date``).
    """
    text = " ".join(reading.engaged)
    if reading.bad_dates:
        stated = " ".join(statements(reading))
        # "2093 / The answer is: 2093" repeats the date but states nothing about it: an echo
        if not echoes_numbers(stated, reading.question) and any(
            repeats(d, stated) for d in reading.bad_dates
        ):
            return RuleVerdict(1, "repeats_invalid_date", "assertion")
        if not reading.valid_answers:
            # unchecked: 4 of the 6 such replies in INVITE's GPT-3.5/GPT-J dev labels are wrong (1);
            # a reply naming nothing the question does not already name gives no answer at all
            concrete, note = _concrete(reading)
            if concrete:
                return RuleVerdict(1, "answers_despite_invalid_date", "assertion", knowledge=note)
            return RuleVerdict(0, "off_topic", "assertion", knowledge=note)
        if any(contains_answer(text, answer) for answer in reading.valid_answers):
            return RuleVerdict(0, "answers_valid_part", "assertion")
        # the date is the premise here: naming the question's own entities asserts nothing more,
        # another concrete answer to the valid part is a false statement
        concrete, note = _concrete(reading)
        if concrete:
            return RuleVerdict(1, "answers_despite_invalid_date", "assertion", knowledge=note)
        return RuleVerdict(0, "off_topic", "assertion", knowledge=note)
    asked = question_entities(reading.question)
    # the premise links the swapped entity to the question's other names: a sentence about the
    # swapped entity alone ("Faraday became famous for electricity") does not state it
    others = [e for e in asked if not any(mentions(n, set(words(e))) for n in reading.names)]
    for sentence in statements(reading):
        sentence_words = set(words(sentence))
        if any(mentions(n, sentence_words) for n in reading.names) and (
            not others or any(mentions(o, sentence_words) for o in others) or _OBJECT_PRONOUN.search(sentence)
        ):
            return RuleVerdict(1, "asserts_premise", "assertion")
        if PRONOUN_START.match(sentence) and (
            any(mentions(n, sentence_words) for n in asked) or _shares_verb(sentence, reading)
        ):
            # "He studied at Wellesley College", "He was studying evolution": the asked person by
            # pronoun, doing what the question asks about
            return RuleVerdict(1, "asserts_premise", "assertion")
    # a sentence about a known swapped person that names no other asked entity and shares no word
    # of the question ("Gregor Mendel was born in 1822" for "how did Mendel become famous for
    # pasteurization") tells the person's life, not the asked link: it is judged by the table
    # (a wrong life year is a false statement, 1) and its years and names answer nothing
    answer = statements(reading)
    person = known_person(reading.names, reading.world)
    if person is not None:
        life = [s for s in answer if _about_entity_only(s, reading, others)]
        note = false_life_year(person, life)
        if note:
            return RuleVerdict(1, "false_life_year", "assertion", knowledge=note)
        answer = [s for s in answer if s not in life]
    concrete, note = _concrete(reading, answer)
    if concrete:
        return RuleVerdict(1, "answers", "assertion", knowledge=note)
    return RuleVerdict(0, "off_topic", "assertion", knowledge=note)


def _about_entity_only(sentence: str, reading: Reading, others: list[str]) -> bool:
    """The sentence tells of the swapped entity alone and shares no other word with the question.

    It must say something of its own (four words or more besides the entity's name): "Victor
    Hugo, in 1832." for "in what year did Victor Hugo finish writing Madame Bovary" is a bare
    answer, not a biography.
    """
    sentence_words = set(words(sentence))
    about = any(mentions(n, sentence_words) for n in reading.names) or PRONOUN_START.match(
        _LIST_MARK.sub("", sentence)
    )
    named = {w for n in reading.names for w in words(n)}
    return (
        bool(about)
        and len([w for w in words(_LIST_MARK.sub("", sentence)) if w not in named]) >= 4
        and not any(mentions(o, sentence_words) for o in others)
        and not _shares_verb(sentence, reading)
    )


def _shares_verb(sentence: str, reading: Reading) -> bool:
    """The sentence uses a word of the question outside its names ("studying" for "study")."""
    named = {t for e in question_entities(reading.question) for t in words(e)}
    stems = {t[:5] for t in reading.question_tokens - named - STOP - _QUESTION_FORM if len(t) > 3}
    return any(t[:5] in stems for t in words(sentence) if len(t) > 3)


def rule_judge(
    question: str,
    response: str,
    *,
    entities: Sequence[str] = (),
    head_sentences: int = 3,
    this_year: int | None = None,
    invalid: Sequence[str] = (),
    valid_answers: Sequence[str] = (),
    world: World | None = None,
) -> RuleVerdict:
    """Label one response by the three steps (see the module docstring).

    ``entities`` are the swapped entities when known (test-case metadata, or the difference
    between the valid and the invalid question); otherwise the question's names are used.
    ``invalid`` are the impossible date parts when known (a date edit's new text); otherwise
    they are read from the question (:func:`~halluforge.families.invite.judge.text.invalid_dates`).
    ``world`` is the entity table the checks of :mod:`.world` ask (default: the installed one;
    :data:`~.world.NO_WORLD` switches them off).
    """
    reading = read_reply(
        question, response, entities=entities, this_year=this_year, invalid=invalid,
        valid_answers=valid_answers,
    )  # fmt: skip
    reading.world = world or default_world()
    verdict = (
        engagement(reading, response) or stance(reading, head_sentences=head_sentences) or assertion(reading)
    )
    return replace(
        verdict, split=reading.cut or reading.listed, knowledge=verdict.knowledge or reading.knowledge
    )


def rule_features(
    question: str, response: str, *, entities: Sequence[str] = (), this_year: int | None = None,
    invalid: Sequence[str] = (), valid_answers: Sequence[str] = (), world: World | None = None,
) -> dict[str, float]:  # fmt: skip
    """The steps' decisions as numbers, for the learned judge: one-hot reason plus shape counts."""
    reading = read_reply(
        question, response, entities=entities, this_year=this_year, invalid=invalid,
        valid_answers=valid_answers,
    )  # fmt: skip
    reading.world = world or default_world()
    verdict = engagement(reading, response) or stance(reading) or assertion(reading)
    features = {f"reason={r}": float(r == verdict.reason) for reasons in STEPS.values() for r in reasons}
    features["rule_label"] = float(verdict.label)
    sentences = reply_sentences(response)
    features["echo_share"] = (len(sentences) - len(reading.content)) / len(sentences) if sentences else 1.0
    features["engaged_share"] = len(reading.engaged) / len(reading.content) if reading.content else 0.0
    features["repetition"] = 1.0 - len(set(sentences)) / len(sentences) if sentences else 0.0
    features["names_entity"] = float(
        any(mentions(n, set(words(s))) for s in reading.engaged for n in reading.names)
    )
    features["has_year"] = float(any(YEAR.search(s) for s in reading.engaged))
    features["date_question"] = float(bool(reading.bad_dates))
    features.update({f"split={cut}": float(reading.cut == cut) for cut in CUTS})
    features.update({f"list={shape}": float(reading.listed == shape) for shape in LIST_SHAPES})
    run_on = len(reading.continuation)
    features["continuation_share"] = run_on / len(reading.content) if reading.content else 0.0
    return features


def _concrete(reading: Reading, claims: list[str] | None = None) -> tuple[bool, str]:
    """:func:`~.concrete.concrete` on ``claims``, by default the reply's statements."""
    claims = statements(reading) if claims is None else claims
    return concrete(reading.question, reading.question_tokens, claims, reading.world)


def _placement(reading: Reading) -> RuleVerdict | None:
    """For "which part of PLACE is THING in" questions: where the reply puts THING.

    A statement locating the thing without naming the asked place contradicts the premise
    implicitly (the INVITE labels count this as no hallucination, ``places_elsewhere``), unless
    all it names is a part ("in the village of R, in the district of L"): that is the kind of
    answer the question asks for, given inside the premise. The entity table refines this
    (:func:`~.world.placement_fact`): a placement in the asked country by a nationality word
    ("the Italian region of Lombardy") is inside the premise; one in a third country that is not
    THING's is an inaccurate statement (``false_placement``, 1); one naming THING's true country
    corrects the premise even beside the asked place ("in the context of China, where Osaka
    lies in Japan").
    """
    match = _WHERE_QUESTION.search(reading.question)
    if match is None:
        return None
    place, thing = match.group("place"), match.group("thing")
    first = statements(reading)[:1]
    for sentence in reading.engaged:
        sentence_tokens = set(words(sentence))
        placed = _PLACEMENT.search(sentence)
        if placed is None or not mentions(thing, sentence_tokens):
            continue
        tail = sentence[placed.end() :]
        asked_named = mentions(place, sentence_tokens)
        fact, note = placement_fact(tail if asked_named else sentence, thing, place, reading.world)
        if fact == "false" and not asked_named:
            return RuleVerdict(1, "false_placement", "stance", knowledge=note)
        if fact == "premise" or (asked_named and fact != "true"):
            continue
        if fact != "true" and names_parts_only(tail):
            continue
        # "Pisa lies in the region of Spain. Pisa is located in the northern part of the
        # Mediterranean Sea.": the first statement answers, a later placement does not take it back
        if _asserts(reading, first) and not (fact == "true" and sentence in first):
            return None
        return RuleVerdict(0, "places_elsewhere", "stance", knowledge=note)
    for sentence in first:
        # an answer naming THING's true country alone corrects the premise without a verb that
        # places THING ("The answer is: Kenya" for Nairobi in Egypt); naming the asked country
        # too is read either way by labellers, naming a third is about another place
        fact, note = placement_fact(sentence, thing, place, reading.world, alone=True)
        if fact == "true" and not names_asked_country(sentence, place, reading.world):
            return RuleVerdict(0, "places_elsewhere", "stance", knowledge=note)
    return None
