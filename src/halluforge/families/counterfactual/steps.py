"""The generator-model steps of the ``counterfactual`` family, each with its rule fallback.

:mod:`halluforge.families.counterfactual.generator` decides what one input yields (QA-A, QA-NA, text
generation); the four steps here make the pieces. Each asks the generator model up to
``max_attempts`` times, checks the reply with :mod:`halluforge.families.counterfactual.rules` or
the shared wrong-answer checks, falls back to a rule, and returns a
:class:`~halluforge.records.FieldProvenance` that says which path ran and why the model's
replies were rejected:

1. :func:`write_paragraph`: a record or a term description as a passage;
2. :func:`make_question`: a question and its answer about the passage;
3. :func:`counterfactual_answer`: a wrong answer of the same type;
4. :func:`edit_context`: the QA-NA passage, facts other than the answer changed.
"""

from __future__ import annotations

import difflib
import random
import re
from dataclasses import dataclass
from typing import Literal, cast

from halluforge.families.counterfactual.rules import (
    cloze_candidates,
    cloze_question,
    insert_sentence,
    invented_values,
    na_checks,
    names_key,
    not_prose,
    qa_checks,
    rule_na_edits,
    rule_paragraph,
    rule_question,
    value_spans,
)
from halluforge.families.counterfactual.sources import EventRecord, TermRecord
from halluforge.families.shared.answer_types import AnswerType, classify_answer, looks_like_name
from halluforge.families.shared.facts import refusal, table_donors
from halluforge.families.shared.kinds import classify_kind
from halluforge.families.shared.real_donors import RealDonors
from halluforge.families.shared.restatements import RESTATED, restatement
from halluforge.families.shared.validate import (
    Check,
    draw_pool_answer,
    first_failure,
    parse_answer,
    parse_passage,
)
from halluforge.families.shared.wrong_answer import (
    WrongAnswer,
    ask_attempt,
    propose_answer,
)
from halluforge.forge.base import ForgeContext
from halluforge.prompts import Template
from halluforge.records import Edit, Example, FieldProvenance
from halluforge.textkit.answers import answer_key, contains_answer
from halluforge.textkit.sentences import split_sentences

Pool = dict[AnswerType, list[str]]
Donors = list[tuple[str, list[str]]]


@dataclass(frozen=True)
class Unit:
    """One input: a record, a term description or an example, with a stable id."""

    kind: Literal["record", "term", "example"]
    id: str
    record: EventRecord | None = None
    term: TermRecord | None = None
    example: Example | None = None

    @property
    def title(self) -> str:
        """What the passage is about: the event name, the term or the example's title."""
        if self.record is not None:
            return self.record.name
        if self.term is not None:
            return self.term.term
        return (self.example.title if self.example is not None else None) or ""


@dataclass(frozen=True)
class Base:
    """Steps 1-3 of one unit: the passage, the question, the answers and their provenance."""

    paragraph: str
    question: str
    gold: list[str]
    answer_type: AnswerType
    counterfactual: str
    answer_key: str | None
    fields: dict[str, FieldProvenance]
    qa: dict[str, Check]


async def write_paragraph(
    unit: Unit,
    ctx: ForgeContext,
    record_template: Template,
    term_template: Template,
    *,
    paraphrase: bool,
    max_attempts: int,
) -> tuple[str, FieldProvenance]:
    """Step 1: a record or term paraphrased by the model (every value kept), else joined by rule."""
    if unit.record is not None:
        record = unit.record
        must = [v for _, v in record.items]
        source = record.render()
        template, values = record_template, {"record": source}
        fallback, method = rule_paragraph(record), "one_sentence_per_item"
    else:
        term = cast(TermRecord, unit.term)
        must = [term.term, *value_spans(" ".join(term.sentences))]
        template, values = term_template, {"term": term.term, "sentences": "\n".join(term.sentences)}
        fallback, method = " ".join(term.sentences), "sentences_joined"
        source = f"{term.term}. {fallback}"
    rejected: list[str] = []
    attempts = 0
    if paraphrase and ctx.llm is not None:
        for attempt in range(max_attempts):
            attempts += 1
            budget = max(64, int(len(fallback.split()) * 1.5) + 16)
            done = await ask_attempt(ctx, template, attempt, max_tokens=budget, **values)
            text = " ".join(split_sentences(parse_passage(done.text))) if done.error is None else ""
            # a closing label the model echoed ("... never observed alone. Paragraph:")
            text = re.sub(r"\s*\b[A-Z][A-Za-z]*:\s*$", "", text)
            lost = [v for v in must if not contains_answer(text, v)]
            invented = invented_values(text, source) if text else []
            loose = not_prose(text)
            if done.error is not None:
                rejected.append(f"backend error: {done.error_type or done.error}")
            elif _echoes(text, template):
                rejected.append("the reply repeats the prompt")
            elif lost:
                rejected.append(f"paraphrase lost {lost[0]!r}")
            elif invented:
                rejected.append(f"paraphrase invented {invented[0]!r}")
            elif loose is not None:
                rejected.append(loose)
            elif len(text.split()) > 3 * len(fallback.split()):
                rejected.append("paraphrase is much longer than its source")
            else:
                return text, FieldProvenance(
                    path="llm", method=template.name, attempts=attempts, rejected=rejected
                )
    elif not paraphrase:
        rejected.append("paraphrase off")
    else:
        rejected.append("no generator model")
    return fallback, FieldProvenance(path="fallback", method=method, attempts=attempts, rejected=rejected)


async def make_question(
    unit: Unit,
    paragraph: str,
    ctx: ForgeContext,
    rng: random.Random,
    template: Template,
    *,
    max_attempts: int,
) -> tuple[str, str, str | None, FieldProvenance, dict[str, Check]] | None:
    """Step 2: (question, answer, record key, provenance, checks) by the model, else by rule.

    The rule asks about one record item, or is a fill-the-blank question over a recognised value
    of a description; None when no pair passes :func:`qa_checks`.
    """
    title = unit.title
    record = unit.record
    rejected: list[str] = []
    attempts = 0
    about = " and be one of the values after a colon in the record" if record is not None else ""
    if ctx.llm is not None:
        for attempt in range(max_attempts):
            attempts += 1
            done = await ask_attempt(ctx, template, attempt, max_tokens=64, passage=paragraph, about=about)
            if done.error is not None:
                rejected.append(f"backend error: {done.error_type or done.error}")
                continue
            question, answer = _parse_qa(done.text)
            checks = qa_checks(question, answer, paragraph, title=title)
            key = None
            if record is not None:
                keys = [k for k, v in record.items if answer_key(v) == answer_key(answer)]
                key = keys[0] if keys else None
                checks["answer_is_record_value"] = (
                    key is not None,
                    f"answer {answer!r} is not a record value",
                )
                # "Who was the British commander?" answered with the American one reads wrong
                checks["question_names_key"] = (
                    key is None or names_key(question, key),
                    f"the question does not ask for the record's {key!r}",
                )
            reason = first_failure(checks)
            if reason is None:
                prov = FieldProvenance(path="llm", method=template.name, attempts=attempts, rejected=rejected)
                return question, answer, key, prov, checks
            rejected.append(reason)
    else:
        rejected.append("no generator model")
    if record is not None:
        keys = [k for k, v in record.items if contains_answer(paragraph, v) and answer_key(v)]
        rng.shuffle(keys)
        for key in keys:
            question, answer = rule_question(record, key), record.value(key)
            checks = qa_checks(question, answer, paragraph, title=title)
            if first_failure(checks) is None:
                prov = FieldProvenance(
                    path="fallback", method="item_question", attempts=attempts, rejected=rejected
                )
                return question, answer, key, prov, checks
    else:
        for sentence, value in cloze_candidates(paragraph, title):
            question = cloze_question(title, sentence, value)
            checks = qa_checks(question, value, paragraph, title=title)
            if first_failure(checks) is None:
                prov = FieldProvenance(path="fallback", method="cloze", attempts=attempts, rejected=rejected)
                return question, value, None, prov, checks
    return None


async def counterfactual_answer(
    question: str,
    gold: list[str],
    answer_type: AnswerType,
    paragraph: str,
    ctx: ForgeContext,
    rng: random.Random,
    template: Template,
    pool: Pool,
    *,
    max_attempts: int,
    knowledge: bool = True,
    real_donors: RealDonors = "unknown",
) -> tuple[str | None, FieldProvenance]:
    """Step 3: a wrong answer of the same type, accepted by the shared wrong-answer checks.

    The model proposes first; then, for a person, an invented name of the gold person's
    nationality and gender (:mod:`halluforge.families.shared.invented`); for a person or a
    place, the entity table's donors of the answer's fine kind; then a date or number shifted
    a little; then a same-type value of the same shape from the pool of every input's values
    (a bare "place" or "other" answer, whose kind nothing keeps, takes none: the answer swap
    trusts only a neighbour's answer there, and RECALL has no neighbours; an "other" answer
    that is a person's name, by a known first name, is a person). A person or place must also fit
    the sentence's facts (role, era, gender, nationality, country;
    :mod:`halluforge.families.shared.facts`), and a proposed one must be a known entity.
    ``knowledge`` off skips the table, the invented names and those checks; ``real_donors``
    (:meth:`~halluforge.families.shared.wrong_answer.WrongAnswer.no_real_donor`) ``never``
    takes no table or pool answer, nor a proposal of the model, for anything but a date or a
    number; ``unknown`` (the default) none for a person or an answer the entity table knows,
    and no table or pool answer at all (a proposal of a known entity only).
    """
    judge = WrongAnswer(
        max_answer_words=6,
        option_prefix="families.counterfactual",
        knowledge=knowledge,
        real_donors=real_donors,
    )
    table = judge.table()
    roles = table.occupation_words if table is not None else frozenset()
    kind = classify_kind(
        gold[0], question, answer_type=answer_type, evidence=paragraph, aliases=gold, roles=roles
    )
    named = looks_like_name(gold[0]) and re.search(r"\bwho(?:m|se)?\b", question, re.I) is not None
    if kind == "other" and table is not None and named and table.gender(gold[0]):
        kind = "person"  # "Maria Ressa" for "who won ...": a person, by her first name
    # a paragraph that restates the answer in a form no swap changes ("Stade de France", "the
    # following year") would contradict itself: the answer swap skips it, and so does RECALL
    restated = restatement(paragraph, gold, kind, question)
    if restated is not None:
        return None, FieldProvenance(path="fallback", method="none", rejected=[f"{RESTATED}: {restated}"])
    namesake = judge.namesake(paragraph, gold, kind)  # "Percy Bysshe Shelley" beside Mary Shelley
    if namesake is not None:
        return None, FieldProvenance(path="fallback", method="none", rejected=[namesake])
    # people and places also fit the sentence's facts (the answer swap's checks, :mod:`.facts`)
    checked = kind.startswith(("person", "place"))

    def fits(candidate: str) -> str | None:
        return (
            refusal(judge.fit_checks(candidate, gold, kind, paragraph, question), candidate)
            if checked
            else None
        )

    def reject(candidate: str) -> str | None:
        # as the answer swap's proposals: a known entity, and the plausibility check every
        # fallback answer passes (a bare "1000.5" for "$787.5 million" was accepted without it)
        known = {kind: list(pool.get(answer_type, ()))}  # every input's values count as known
        reason = judge.reject_answer(
            candidate, gold, answer_type, question, paragraph, kind=kind, dataset=known
        )
        return reason or fits(candidate)

    rejected: list[str] = []
    attempts = 0
    # as in the answer swap: a proposed name is a real entity, refused where real donors are
    no_donor = judge.no_real_donor(gold, kind)
    if ctx.llm is not None and (no_donor is None or answer_type in ("date", "number")):
        candidate, attempts, rejected = await propose_answer(
            ctx,
            template,
            max_attempts,
            question=question,
            gold=gold,
            answer_type=answer_type,
            reject=reject,
        )
        if candidate is not None:
            return candidate, FieldProvenance(
                path="llm", method=template.name, attempts=attempts, rejected=rejected
            )
    facts = judge.facts(paragraph, gold, question, kind) if checked else None
    # a person nobody knows first: a real donor's own life clashes with the passage (:mod:`.invented`)
    invented = judge.invented_person(question, gold, kind, paragraph, facts, rng, [], rejected)
    if invented is not None:
        return invented, FieldProvenance(
            path="fallback", method="invented", attempts=attempts, rejected=rejected
        )
    # under the default ``unknown`` no rule fallback gives a real name either (:mod:`.real_donors`)
    no_donor = no_donor or judge.no_fallback_donor(kind)
    if checked and no_donor is None:  # the entity table's donors of the fine kind, the likeliest to fit first
        names = table_donors(kind, facts, gold, table) if facts is not None and table is not None else []
        for name in names:
            clean = judge.reject_answer(name, gold, answer_type, question, paragraph) is None
            if clean and fits(name) is None:
                prov = FieldProvenance(
                    path="fallback", method="entity_table", attempts=attempts, rejected=rejected
                )
                return name, prov
    shaped = answer_type in ("date", "number")
    method = "perturb"
    new = None
    # dates and numbers: a value shifted a little, as the answer swap shifts it (window, form,
    # the passage's other dates and figures), before an unrelated value of the same kind and size
    if shaped:
        new, why = judge.shifted(gold, answer_type, paragraph, question, rng)
        rejected.extend([why] if new is None else [])

    def plausible(candidate: str) -> str | None:
        # the answer swap's plausibility check: same fine kind, a known member where members are
        # known, written like the gold answer, no clash with the passage or its facts
        return judge.implausible(candidate, gold, kind, paragraph, shaped=shaped, question=question)

    # a bare "place" or "other" (a mission, a cave, a company nothing is known of) has no kind
    # to keep: as in the answer swap, which trusts only a neighbour's answer there, none is drawn
    if new is None and (shaped or (no_donor is None and (":" in kind or kind == "person"))):
        typed: AnswerType = "person" if kind.startswith("person") else answer_type
        like = gold[0] if shaped else None
        new = draw_pool_answer(typed, pool, gold, rng, avoid_in=paragraph, like=like, accept=plausible)
        method = "pool"
    if new is None:
        rejected.extend([no_donor] if no_donor is not None else [])
        rejected.append(f"no {answer_type} answer of kind {kind} in the pool passes the plausibility check")
    return new, FieldProvenance(path="fallback", method=method, attempts=attempts, rejected=rejected)


async def edit_context(
    unit: Unit,
    base: Base,
    ctx: ForgeContext,
    rng: random.Random,
    template: Template,
    pool: Pool,
    donors: Donors,
    *,
    max_attempts: int,
    similarity: float,
    max_na_edits: int,
) -> tuple[str | None, list[Edit], FieldProvenance, dict[str, Check]]:
    """Step 4: the QA-NA passage (facts other than the answer changed), with its edits.

    The model rewrites first (:func:`na_checks`); the fallback changes up to ``max_na_edits``
    dates, numbers or names outside the answer sentences, or, for a term with nothing to change,
    inserts a sentence about another term. The passage is None when nothing could be changed.
    """
    rejected: list[str] = []
    attempts = 0
    if ctx.llm is not None:
        for attempt in range(max_attempts):
            attempts += 1
            budget = max(64, int(len(base.paragraph.split()) * 1.5) + 16)
            done = await ask_attempt(
                ctx, template, attempt, max_tokens=budget, passage=base.paragraph, answer=base.gold[0]
            )
            if done.error is not None:
                rejected.append(f"backend error: {done.error_type or done.error}")
                continue
            text = " ".join(split_sentences(parse_passage(done.text)))
            checks = na_checks(base.paragraph, text, base.gold, base.counterfactual, similarity)
            reason = first_failure(checks)
            if reason is None:
                edits = _diff_edits(base.paragraph, text)
                prov = FieldProvenance(path="llm", method=template.name, attempts=attempts, rejected=rejected)
                return text, edits, prov, checks
            rejected.append(reason)
    record = unit.record
    # a record's values are typed by their keys (a place stays a place), as in the pool
    known = (
        {v: classify_answer(v, rule_question(record, k)) for k, v in record.items}
        if record is not None
        else {}
    )
    text, changes = rule_na_edits(
        base.paragraph,
        base.gold,
        base.counterfactual,
        pool,
        rng,
        known=known,
        title=unit.title,
        max_edits=max_na_edits,
    )
    if not changes and unit.term is not None:
        inserted = insert_sentence(base.paragraph, unit.title, donors, rng)
        if inserted is not None:
            text, sentence = inserted
            checks = na_checks(
                base.paragraph, text, base.gold, base.counterfactual, similarity, inserted=True
            )
            edits = [Edit.locate("context", "fact", "", sentence, text)]
            prov = FieldProvenance(
                path="fallback", method="sentence_insert", attempts=attempts, rejected=rejected
            )
            return text, edits, prov, checks
    if not changes:
        rejected.append("no date, number or name outside the answer sentences to change")
        return (
            None,
            [],
            FieldProvenance(path="fallback", method="none", attempts=attempts, rejected=rejected),
            {},
        )
    checks = na_checks(base.paragraph, text, base.gold, base.counterfactual, similarity)
    edits = [Edit.locate("context", kind, old, new, text) for old, new, kind in changes]
    prov = FieldProvenance(path="fallback", method="rule_edits", attempts=attempts, rejected=rejected)
    return text, edits, prov, checks


def _echoes(text: str, template: Template) -> bool:
    """Whether a reply repeats its prompt's instruction or labels instead of answering."""
    first = " ".join(template.text.partition("{")[0].split()[:5]).lower()
    return first in text.lower() or bool(re.search(r"(?m)^\s*(?:name|description|paragraph)\s*:", text, re.I))


def _parse_qa(raw: str) -> tuple[str, str]:
    """(question, answer) from a "Question: ... / Answer: ..." reply; empty strings when absent."""
    question = answer = ""
    for line in raw.splitlines():
        head, _, rest = line.partition(":")
        if head.strip().lower() == "question" and not question:
            question = rest.strip()
        elif head.strip().lower() == "answer" and not answer:
            answer = parse_answer(rest)
    return question, answer


def _diff_edits(original: str, edited: str) -> list[Edit]:
    """The replaced word runs between two passages, as typed edits ("fact" unless a date or name)."""
    a, b = original.split(), edited.split()
    edits: list[Edit] = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(a=a, b=b, autojunk=False).get_opcodes():
        if op == "equal":
            continue
        old, new = " ".join(a[i1:i2]).strip(".,;"), " ".join(b[j1:j2]).strip(".,;")
        if not new:
            continue
        kind = classify_answer(new)
        edits.append(
            Edit.locate(
                "context",
                "date" if kind == "date" else "entity" if kind in ("person", "place") else "fact",
                old,
                new,
                edited,
            )
        )
    return edits


__all__ = ["Base", "Unit", "counterfactual_answer", "edit_context", "make_question", "write_paragraph"]
