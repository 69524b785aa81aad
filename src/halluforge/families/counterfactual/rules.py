"""Rules and checks of the ``counterfactual`` generator (RECALL), kept apart from its LLM steps.

Every LLM step of :mod:`halluforge.families.counterfactual.generator` is checked here and has a rule that
stands in for it when a small generator model's output is rejected (DESIGN §4):

- paraphrase: :func:`rule_paragraph` writes a record as one sentence per item;
- question-answer generation: :func:`rule_question` asks for one item of a record by its key,
  :func:`cloze_question` blanks a recognised value (a year, a number, a name) in a sentence of
  a description; :func:`qa_checks` validates either path (the answer occurs in the passage, the
  question does not contain it, it is short, and it is not the record's name);
- non-answer edits (QA-NA): :func:`rule_na_edits` changes recognised dates, numbers and names in
  sentences that do not hold the answer; :func:`na_checks` validates an LLM rewrite the same way
  (every answer sentence unchanged, the answer count unchanged, the counterfactual answer absent,
  at least one change outside the answer sentences, the rest of the passage close);
- :func:`word_pairs` aligns an edit's old and new words (the text kit's
  :func:`~halluforge.textkit.tokens.words`), which R-Rate counts.
"""

from __future__ import annotations

import difflib
import random
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from halluforge.families.counterfactual.sources import EventRecord
from halluforge.families.shared.answer_types import AnswerType, classify_answer, form_type, looks_like_name
from halluforge.families.shared.spans import span_replace
from halluforge.families.shared.validate import Check, draw_pool_answer, perturb_answer
from halluforge.records import Edit, EditKind, Example
from halluforge.textkit.answers import (
    answer_key,
    contains_answer,
    count_occurrences,
    normalize_answer,
)
from halluforge.textkit.dates import MONTH_NAME_PATTERN
from halluforge.textkit.sentences import split_sentences
from halluforge.textkit.stopwords import AUXILIARIES, STOP_WORDS, WH_WORDS
from halluforge.textkit.tokens import words

_PLACE_KEYS = re.compile(r"(?:^|_)(?:place|location|site|city|venue|port|country|region)(?:$|_)")
_YEAR_OR_DATE = re.compile(
    rf"\b\d{{1,2}}\s+(?:{MONTH_NAME_PATTERN})\s+\d{{3,4}}(?:\s+(?:BC|AD))?\b"
    r"|\b(?:1[0-9]{3}|20[0-9]{2})\b|\b\d{1,3}\s+(?:BC|AD)\b"
)
_NUMBER = re.compile(r"\b\d{1,3}(?:,\d{3})+\b|\b\d+(?:\.\d+)?\b")
_NAME = re.compile(r"\b[A-Z][a-z]+(?:\s+(?:[A-Z]\.\s*)*[A-Z][a-z]+){1,3}\b")


def phrase(key: str) -> str:
    """A record key as words: ``start_date`` -> ``start date``."""
    return " ".join(key.replace("-", "_").split("_")).strip().lower()


def _the(name: str) -> str:
    return name if name[:4].lower() == "the " else f"the {name}"


def rule_sentence(record: EventRecord, key: str, value: str) -> str:
    """One plain sentence stating one item of a record."""
    return f"The {phrase(key)} of {_the(record.name)} was {value}."


def rule_paragraph(record: EventRecord) -> str:
    """The record as a paragraph: what it was, then one sentence per item (the paraphrase fallback)."""
    head = f"{record.name[0].upper()}{record.name[1:]} was {record.description.rstrip('.')}."
    return " ".join([head, *(rule_sentence(record, k, v) for k, v in record.items)])


_LINKING = frozenset(("the", "of", "de", "da", "van", "von", "der", "le", "la"))


def name_like(value: str) -> bool:
    """A name of a person or a title-like name: "William the Conqueror", "Duke of Wellington"."""
    parts = value.split()
    if looks_like_name(value):
        return True
    return (
        2 <= len(parts) <= 5
        and parts[0][:1].isupper()
        and parts[-1][:1].isupper()
        and all(p[:1].isupper() or p in _LINKING for p in parts)
    )


#: key words that name a person's role ("union_commander", "crowned_by"): a name-like value
#: under any other key is a thing ("play: Our American Cousin", "aircraft: Enola Gay")
_PERSON_KEY = re.compile(
    r"(?:^|_)(?:victor|leader|monarch|king|queen|emperor|empress|pope|attacker|commander|admiral|general|"
    r"captain|pilot|cosmonaut|astronaut|governor|author|writer|speaker|conspirator|assassin|successor|"
    r"scorer|designer|director|engineer|developer|premier|minister|president|chancellor|viceroy|"
    r"secretary|planner|officiant|founder|baker|organiser|organizer|victim|sponsor|archbishop|bishop|"
    r"negotiator|driver|climber|archaeologist|patron|teacher|composer|conductor|choreographer|"
    r"by|person|explorer|inventor|discoverer|scientist)(?:$|_)"
)


def person_key(key: str) -> bool:
    """Whether a record key names a person's role, so its value is asked for with "who"."""
    return bool(_PERSON_KEY.search(key.lower()))


def names_key(question: str, key: str) -> bool:
    """Whether a question asks for ``key``: it holds every word of the key ("signing date").

    "When" stands for a date or year and "where" for a place.
    """
    asked = set(words(question))
    for word in phrase(key).split():
        if word in STOP_WORDS:
            continue
        if word in ("date", "year") and "when" in asked:
            continue
        if _PLACE_KEYS.search(word) and "where" in asked:
            continue
        if word not in asked and word.rstrip("s") not in asked and f"{word}s" not in asked:
            return False
    return True


def rule_question(record: EventRecord, key: str) -> str:
    """A question whose answer is the value of ``key`` (the QA-generation fallback for records)."""
    value = record.value(key)
    name = _the(record.name)
    if form_type(value) == "date" and ("date" in key or "year" in key):
        return (
            f"When was the {phrase(key)} of {name}?"
            if key not in ("date", "year")
            else f"When did {name} happen?"
        )
    if key == "place" or key == "location":
        return f"Where did {name} take place?"
    if _PLACE_KEYS.search(key):
        return f"Where was the {phrase(key)} of {name}?"
    if form_type(value) is None and value[:1].isupper() and person_key(key):
        return f"Who was the {phrase(key)} of {name}?"
    if form_type(value) == "number":
        return (
            f"How many {phrase(key)} were there in {name}?"
            if value.replace(",", "").split()[-1].isdigit()
            else f"What was the {phrase(key)} of {name}?"
        )
    return f"What was the {phrase(key)} of {name}?"


def record_examples(records: Sequence[EventRecord]) -> list[Example]:
    """Every record item as a question-answer example, for the same-type answer pool."""
    return [
        Example.build(rule_question(r, key), [value], source="records")
        for r in records
        for key, value in r.items
    ]


def value_spans(text: str) -> list[str]:
    """Recognised values in a text, longest first: full dates and years, names, numbers."""
    found: list[str] = []
    for pattern in (_YEAR_OR_DATE, _NAME, _NUMBER):
        for match in pattern.finditer(text):
            value = match.group()
            if not any(value in f for f in found):
                found.append(value)
    return found


def invented_values(text: str, source: str) -> list[str]:
    """Recognised values in a paraphrase that its source never states (dates, numbers, names).

    A paraphrase is the *original* context every later step trusts, so a value the generator
    made up would be a false fact on the "true" side. A name may start with a capitalised
    sentence word the source lacks ("Then King Harold"): it counts when the rest of it occurs.
    """
    out = []
    for value in value_spans(text):
        if contains_answer(source, value):
            continue
        rest = re.findall(r"[A-Za-z]+", value)[1:]
        if _NAME.fullmatch(value) and all(p.lower() in _LINKING or contains_answer(source, p) for p in rest):
            continue
        out.append(value)
    return out


_LABEL = re.compile(r"(?:^|[.\s])[A-Z][A-Za-z]*(?: [A-Z][A-Za-z]*)?:\s")


def not_prose(text: str) -> str | None:
    """Why a paraphrase is not a paragraph of sentences, or None.

    Two kinds seen from a small generator: ``Key: value`` labels ("Date: 4 May 1957 Place:
    ...") and a phrase looping ("Synthesizer: Sputnik 1 Synthesizer: Sputnik 1 ...").
    """
    if len(_LABEL.findall(text)) >= 2:
        return "the paraphrase is key: value labels, not sentences"
    tokens = words(text)
    for size in range(1, 7):
        for i in range(len(tokens) - 3 * size + 1):
            run = tokens[i : i + size]
            if run == tokens[i + size : i + 2 * size] == tokens[i + 2 * size : i + 3 * size]:
                return f"the paraphrase loops on {' '.join(run)!r}"
    return None


def cloze_question(title: str, sentence: str, answer: str) -> str:
    """A fill-the-blank question about ``title`` made from one sentence (the fallback for descriptions)."""
    blank = sentence.replace(answer, "___", 1).rstrip(".")
    return f'About {title}: what fills the blank in "{blank}"?'


_TAIL = re.compile(r"((?:[a-z][a-z-]{2,}\s+)?[a-z][a-z-]{3,})\.?$")


def cloze_candidates(paragraph: str, title: str) -> list[tuple[str, str]]:
    """(sentence, value) pairs a cloze question can ask for.

    Years and dates first, then names, then numbers; a description without any of them
    falls back to the last one or two words of a sentence ("... the index of a bucket").
    """
    out = []
    tails = []
    for sentence in split_sentences(paragraph):
        for value in value_spans(sentence):
            if not contains_answer(title, value) and not contains_answer(value, title):
                out.append((sentence, value))
        tail = _TAIL.search(sentence)
        if tail and not contains_answer(title, tail.group(1)) and not contains_answer(tail.group(1), title):
            tails.append((sentence, tail.group(1)))
    rank = {"date": 0, "person": 1, "number": 2}
    return sorted(out, key=lambda p: rank.get(classify_answer(p[1]), 3)) + tails


def insert_sentence(
    paragraph: str, title: str, donors: Sequence[tuple[str, Sequence[str]]], rng: random.Random
) -> tuple[str, str] | None:
    """RECALL's sentence-grained edit: a sentence about another term, renamed, added at the end.

    ``donors`` are (other title, its sentences); a sentence that names its own title is
    preferred, with that name replaced by ``title``. Returns (new paragraph, inserted sentence).
    """
    others = [(t, s) for t, s in donors if normalize_answer(t) != normalize_answer(title) and s]
    if not others:
        return None
    other, sentences = others[rng.randrange(len(others))]
    naming = [s for s in sentences if contains_answer(s, other)]
    chosen = rng.choice(naming or list(sentences))
    sentence = span_replace(chosen, [other], title) if naming else chosen
    if sentence in paragraph:
        return None
    return f"{paragraph} {sentence}", sentence


def qa_checks(
    question: str, answer: str, passage: str, *, title: str, max_words: int = 8, query_style: bool = False
) -> dict[str, Check]:
    """The checks a question-answer pair must pass, LLM-made or rule-made.

    ``query_style`` is for a dataset's own questions: written as search queries (Natural
    Questions, ReEval's sets), they may be lower case with no question mark, and still ask one
    question when they have a question word. A model's question must end with its mark.
    """
    size = len(answer.split())
    marked = question.strip().endswith("?")
    # a search query ("off the coast of which state ...") asks with a question word anywhere, or
    # opens with an auxiliary
    asked = words(question)
    query = bool(WH_WORDS.intersection(asked)) or (bool(asked) and asked[0] in AUXILIARIES)
    asks = marked or (query_style and query)
    return {
        "answer_in_passage": (contains_answer(passage, answer), f"answer {answer!r} is not in the passage"),
        "answer_not_in_question": (
            not contains_answer(question, answer),
            f"the question gives the answer away: {question!r}",
        ),
        "answer_short": (0 < size <= max_words, f"answer has {size} words (1-{max_words} allowed)"),
        "answer_not_clause": (
            not re.search(r"\b(?:is|are|was|were)\b", answer, re.I),
            f"the answer is a clause, not a value: {answer!r}",
        ),
        "answer_not_title": (
            normalize_answer(answer) != normalize_answer(title),
            "the answer is the name of what the passage is about",
        ),
        "is_question": (asks and len(question.split()) >= 3, "not a question"),
        "one_question": (
            question.count("?") == (0 if query_style and not marked else 1)
            and not re.search(r",\s*and\s+(?:who|what|when|where|which|how)\b", question, re.I),
            "asks two questions at once",
        ),
    }


def answer_sentence_ids(sentences: Sequence[str], aliases: Sequence[str]) -> set[int]:
    """Indices of the sentences that hold any alias of the answer."""
    return {
        i for i, s in enumerate(sentences) if any(contains_answer(s, a) for a in aliases if answer_key(a))
    }


def _word_ratio(a: str, b: str) -> float:
    return difflib.SequenceMatcher(a=a.split(), b=b.split(), autojunk=False).ratio()


def _facts(text: str) -> Counter[str]:
    """Capitalised words and numbers of a text: what a people/places/dates edit must change.

    A capitalised stop word ("The", "When", "He") opens a sentence and names nothing.
    """
    tokens = re.findall(r"[A-Za-z][\w'-]*|\d[\d,.]*", text)
    return Counter(
        t.rstrip(".,") for t in tokens if (t[0].isupper() or t[0].isdigit()) and t.lower() not in STOP_WORDS
    )


def na_checks(
    original: str,
    edited: str,
    gold: Sequence[str],
    counterfactual: str,
    similarity: float,
    *,
    inserted: bool = False,
) -> dict[str, Check]:
    """QA-NA checks: answer sentences intact, answer count kept, a fact changed elsewhere, passage close.

    A rewrite must change a name, place, date or number; with ``inserted`` (RECALL's
    sentence-grained edit, a false sentence added) a new sentence is the change.
    """
    before = split_sentences(original)
    kept = [before[i] for i in sorted(answer_sentence_ids(before, gold))]
    after_text = " ".join(split_sentences(edited))
    missing = [s for s in kept if s not in after_text]
    count_before = sum(count_occurrences(original, a) for a in gold)
    count_after = sum(count_occurrences(edited, a) for a in gold)
    changed = normalize_answer(original) != normalize_answer(edited)
    # a fact replaced: one name or number gone and another come (dropping a sentence is no edit)
    replaced = bool(_facts(original) - _facts(edited)) and bool(_facts(edited) - _facts(original))
    if inserted:
        replaced = any(s not in before for s in split_sentences(edited))
    ratio = _word_ratio(original, edited)
    return {
        "answer_sentence_kept": (
            bool(kept) and not missing,
            f"an answer sentence was changed: {missing[:1]}",
        ),
        "answer_count_kept": (
            count_before == count_after,
            f"answer occurs {count_after}x, was {count_before}x",
        ),
        "counterfactual_absent": (
            not contains_answer(edited, counterfactual),
            f"the counterfactual answer {counterfactual!r} appears in the context",
        ),
        "non_answer_changed": (changed, "nothing outside the answer was changed"),
        "fact_changed": (
            replaced,
            "no name, place, date or number was replaced by another (only wording, or facts dropped)",
        ),
        "nothing_dropped": (
            len(split_sentences(edited)) >= len(before),
            f"the rewrite has {len(split_sentences(edited))} sentences, the passage {len(before)}",
        ),
        "close": (ratio >= similarity, f"passage similarity {ratio:.2f} < {similarity}"),
    }


@dataclass(frozen=True)
class Candidate:
    """A value in a non-answer sentence that a rule may change."""

    sentence: int
    value: str
    kind: AnswerType


def rule_na_edits(
    paragraph: str,
    gold: Sequence[str],
    counterfactual: str,
    pool: Mapping[AnswerType, Sequence[str]],
    rng: random.Random,
    *,
    known: Mapping[str, AnswerType] | None = None,
    title: str = "",
    max_edits: int = 2,
) -> tuple[str, list[tuple[str, str, EditKind]]]:
    """Change up to ``max_edits`` values in sentences without the answer; (new text, (old, new, kind)).

    Values come from ``known`` (a record's items, with their types) when given, else from
    :func:`value_spans` typed by their form; values that overlap the answer or the ``title``
    (what the passage is about) are left alone, and so are values of no clear type ("other"):
    a phrase from another input in their place read as nonsense ("William the Conqueror" ->
    "its diameter"). Dates and numbers are shifted
    (:func:`~halluforge.families.shared.validate.perturb_answer`), people and places drawn from the
    same-type pool; each replacement goes through
    :func:`~halluforge.families.shared.spans.span_replace` inside its own sentence only, so the answer
    sentences are never touched.
    """
    sentences = split_sentences(paragraph)
    protected = answer_sentence_ids(sentences, [*gold, counterfactual])
    candidates: list[Candidate] = []
    for i, sentence in enumerate(sentences):
        if i in protected:
            continue
        found = (
            {v: t for v, t in known.items() if contains_answer(sentence, v)}
            if known
            else {v: classify_answer(v) for v in value_spans(sentence)}
        )
        for value, typed in found.items():
            if typed == "other" or any(contains_answer(value, g) or contains_answer(g, value) for g in gold):
                continue
            if title and (contains_answer(title, value) or contains_answer(value, title)):
                continue
            candidates.append(Candidate(i, value, typed))
    rng.shuffle(candidates)
    edits: list[tuple[str, str, EditKind]] = []
    touched: set[int] = set()
    for cand in candidates:
        if len(edits) >= max_edits or cand.sentence in touched:
            continue
        new = perturb_answer(cand.value, cand.kind, rng) if cand.kind in ("date", "number") else None
        if new is not None and contains_answer(paragraph, new):
            new = None
        if new is None:
            new = draw_pool_answer(
                cand.kind, pool, [cand.value, *gold, counterfactual], rng, avoid_in=paragraph
            )
        if new is None or normalize_answer(new) == normalize_answer(cand.value):
            continue
        sentences[cand.sentence] = span_replace(sentences[cand.sentence], [cand.value], new)
        touched.add(cand.sentence)
        kind: EditKind = (
            "date" if cand.kind == "date" else ("entity" if cand.kind in ("person", "place") else "fact")
        )
        edits.append((cand.value, new, kind))
    return " ".join(sentences), edits


def word_pairs(old: str, new: str) -> tuple[list[tuple[str, str]], list[str], list[str]]:
    """(aligned (original, edited) word pairs, all edited words, all original words) of one edit.

    "January 9, 1431" -> "January 10, 1432" gives pairs 9->10 and 1431->1432; words that did
    not change are dropped; a replaced run of unequal length pairs word by word as far as it
    goes (the rest count only in the edited/original word sets).
    """
    a, b = words(old), words(new)
    pairs: list[tuple[str, str]] = []
    edited: list[str] = []
    original: list[str] = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(a=a, b=b, autojunk=False).get_opcodes():
        if op == "equal":
            continue
        original.extend(a[i1:i2])
        edited.extend(b[j1:j2])
        pairs.extend(zip(a[i1:i2], b[j1:j2], strict=False))
    return pairs, edited, original


def edit_words(edits: Sequence[Edit]) -> dict[str, Any]:
    """The word pairs and word sets of every edit, as stored in a text-generation case's metadata."""
    pairs: list[list[str]] = []
    edited: list[str] = []
    original: list[str] = []
    for edit in edits:
        p, e, o = word_pairs(edit.old, edit.new)
        pairs.extend([x, y] for x, y in p)
        edited.extend(e)
        original.extend(o)
    return {"word_pairs": list(pairs), "edited_words": edited, "original_words": original}


__all__ = [
    "Candidate",
    "answer_sentence_ids",
    "cloze_candidates",
    "cloze_question",
    "edit_words",
    "insert_sentence",
    "invented_values",
    "na_checks",
    "name_like",
    "names_key",
    "not_prose",
    "person_key",
    "phrase",
    "qa_checks",
    "record_examples",
    "rule_na_edits",
    "rule_paragraph",
    "rule_question",
    "rule_sentence",
    "value_spans",
    "word_pairs",
]
