"""The papers' source-data filters (ReEval §4.1), with every drop counted and its reason kept.

ReEval builds its seed data from the MRQA version of Natural Questions and from RealtimeQA by
(1) keeping one copy of each duplicated question-evidence-answer triplet, (2) removing evidence
shorter than 10 words, (3) removing answers longer than 5 words and (4), for questions with
several answers, keeping one when the answers overlap (their example: "1871" and "1871 A.D.")
and removing the question otherwise. Their reported counts after filtering were 7,189 NQ and
1,380 RealtimeQA examples. We apply the same steps in a fixed order, deterministically:

1. ``strip_html``: evidence loses its HTML tags and has its entities unescaped (RealtimeQA
   and the ReEval files keep ``<a href>`` anchors around the answer;
   :func:`halluforge.textkit.markup.strip_html`);
2. ``dedupe``: one example per (question, evidence, answers), compared after whitespace and
   case folding; later copies are dropped as ``duplicate``;
3. ``require_evidence``: examples without evidence are dropped as ``no_evidence``;
4. ``min_evidence_words``: shorter evidence is dropped as ``evidence_too_short``;
5. ``max_answer_words``: only the long answers are removed; an example with none left is
   dropped as ``answer_too_long``;
6. ``overlapping_answers: keep_one``: several answers overlap when the shortest (after
   the normalisation exact match uses, :func:`halluforge.textkit.answers.normalize_answer`:
   lower case, no punctuation or articles) appears as a run of words inside
   every other one; then only the shortest is kept (the paper keeps a random one; the shortest
   is what every answer shares, and the choice is reproducible). Otherwise the example is
   dropped as ``non_overlapping_answers``. Examples whose metadata marks their answers as
   spellings of one answer (``answers_are_aliases``, set by the bundled sample) keep them all,
   and ``keep_all`` turns the step off.

Before step 3, ``where`` keeps only examples whose metadata fields take one of the listed values
(HotpotQA's ``type: [bridge]``, ``level: [easy, medium]`` for ABCD); others are dropped as
``where_<field>``.

Each drop becomes a :class:`~halluforge.records.Skip` with ``stage="load"``, a short reason
code and the example id, so the report can say what was left out and why.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence

from halluforge.config import FilterConfig
from halluforge.data.tabular import ALIASES_KEY
from halluforge.records import Example, Skip, stable_id
from halluforge.textkit.answers import normalize_answer
from halluforge.textkit.markup import strip_html

#: The reason codes a load-stage skip can carry.
REASONS = (
    "duplicate",
    "no_evidence",
    "evidence_too_short",
    "no_answer",
    "answer_too_long",
    "non_overlapping_answers",
)

_SPACES = re.compile(r"\s+")


def _contains_words(outer: Sequence[str], inner: Sequence[str]) -> bool:
    """True when ``inner`` appears as a contiguous run of words inside ``outer``."""
    size = len(inner)
    return any(list(outer[i : i + size]) == list(inner) for i in range(len(outer) - size + 1))


def overlapping_core(answers: Sequence[str]) -> str | None:
    """The answer all others contain (the shortest after normalisation), or None if there is none."""
    if not answers:
        return None
    normalised = [normalize_answer(a).split() for a in answers]
    shortest = min(range(len(answers)), key=lambda i: (len(" ".join(normalised[i])), i))
    core = normalised[shortest]
    if all(_contains_words(words, core) for words in normalised):
        return answers[shortest]
    return None


def _fold(text: str | None) -> str:
    return _SPACES.sub(" ", text or "").strip().lower()


def _skip(reason: str, example: Example, position: int) -> Skip:
    return Skip(
        id=stable_id("skip", "load", reason, example.id, position),
        stage="load",
        reason=reason,
        item=example.id,
    )


def _answers_to_keep(example: Example, config: FilterConfig) -> tuple[list[str], str | None]:
    """The answers left after the length and overlap rules, or the reason the example goes."""
    answers = [a for a in example.answers if a.strip()]
    if not answers:
        return ([], None) if not config.require_answers else ([], "no_answer")
    if config.max_answer_words is not None:
        answers = [a for a in answers if len(a.split()) <= config.max_answer_words]
        if not answers:
            return [], "answer_too_long"
    one_answer = config.overlapping_answers == "keep_one" and not example.metadata.get(ALIASES_KEY)
    if len(answers) > 1 and one_answer:
        core = overlapping_core(answers)
        if core is None:
            return [], "non_overlapping_answers"
        answers = [core]
    return answers, None


def apply_filters(examples: Iterable[Example], config: FilterConfig) -> tuple[list[Example], list[Skip]]:
    """Clean and filter examples as ReEval §4.1 does; return the kept ones and one skip per drop."""
    kept: list[Example] = []
    skips: list[Skip] = []
    seen: set[tuple[str, str, tuple[str, ...]]] = set()
    for position, original in enumerate(examples):
        example = original
        if config.strip_html and example.evidence is not None:
            cleaned = strip_html(example.evidence)
            if cleaned != example.evidence:
                example = example.model_copy(update={"evidence": cleaned or None})
        if config.dedupe:
            key = (_fold(example.question), _fold(example.evidence), tuple(_fold(a) for a in example.answers))
            if key in seen:
                skips.append(_skip("duplicate", example, position))
                continue
            seen.add(key)
        outside = [k for k, allowed in config.where.items() if str(example.metadata.get(k)) not in allowed]
        if outside:
            skips.append(_skip(f"where_{outside[0]}", example, position))
            continue
        evidence = (example.evidence or "").strip()
        if not evidence:
            if config.require_evidence:
                skips.append(_skip("no_evidence", example, position))
                continue
        elif config.min_evidence_words is not None and len(evidence.split()) < config.min_evidence_words:
            skips.append(_skip("evidence_too_short", example, position))
            continue
        answers, reason = _answers_to_keep(example, config)
        if reason is not None:
            skips.append(_skip(reason, example, position))
            continue
        if answers != example.answers:
            metadata = {**example.metadata, "answers_before_filter": list(example.answers)}
            example = example.model_copy(update={"answers": answers, "metadata": metadata})
        kept.append(example)
    return kept, skips


def count_reasons(skips: Iterable[Skip]) -> dict[str, int]:
    """How many examples each reason removed, most frequent first."""
    return dict(Counter(s.reason for s in skips).most_common())


__all__ = [
    "REASONS",
    "apply_filters",
    "count_reasons",
    "overlapping_core",
]
