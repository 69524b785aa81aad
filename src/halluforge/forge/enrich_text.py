"""Sentence-level text helpers, validators and fallbacks of ``context_enrich``.

Kept apart from the generator so each check can be read and tested on its own: the generator
(:mod:`halluforge.forge.context_enrich`) asks the LLM, then calls :func:`match_support`,
:func:`check_summary` and :func:`check_merge` on its replies, and falls back to
:func:`fallback_support` and :func:`extractive_merge` when they are rejected. All comparisons
go through :func:`norm` (lowercase words, punctuation of any script dropped), so curly quotes,
HTML and spacing never decide a match.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence

from halluforge.retrieval.base import Passage
from halluforge.sentences import clean_text as clean_text  # re-exported: the family's callers import it here
from halluforge.sentences import split_sentences as split_sentences
from halluforge.text import contains_answer

#: fuzzy-match ratio above which an LLM reply counts as a copy of an evidence sentence
SUPPORT_MATCH_RATIO = 0.8
#: how many retrieved sentences the extractive fallbacks keep
EXTRACT_SENTENCES = 3
#: share of the supporting sentence's content words a merge must keep (its claim, not just the answer)
SUPPORT_KEPT = 0.75

_SPACE = re.compile(r"\s+")
_WORD = re.compile(r"[^\W_]+")
_LEAD = re.compile(r"^\s*(?:sentence|answer|paragraph|new passage|passage)\s*:\s*", re.IGNORECASE)
#: prompt scaffolding that a reply should not repeat ("Text 1:", "[2]", "Paragraph:")
_SCAFFOLD = re.compile(r"\b(?:text \d|paragraph|passage|sentence)\s*:|\[\d+\]", re.IGNORECASE)
_QUOTES = "\"'“”‘’`"
STOPWORDS = frozenset(
    {
        *("a", "an", "the", "of", "in", "on", "at", "to", "for", "from", "by", "with", "and", "or", "but"),
        *("is", "are", "was", "were", "be", "been", "being", "it", "its", "this", "that", "these", "those"),
        *("which", "who", "whom", "what", "when", "where", "why", "how", "did", "do", "does", "has", "have"),
        *("had", "as", "into", "than", "then", "there", "their", "they", "he", "she", "his", "her", "we"),
        *("you", "i", "not", "no"),
    }
)


# -- text helpers ----------------------------------------------------------------------------


def words(text: str) -> list[str]:
    """Lowercase runs of letters and digits: punctuation of any script (curly quotes too) dropped."""
    return _WORD.findall(text.casefold())


def norm(text: str) -> str:
    """``text`` as its words joined by single spaces (the form every comparison here uses)."""
    return " ".join(words(text))


def content_words(text: str) -> set[str]:
    """Words of ``text`` without stopwords (for overlap and relevance)."""
    return {w for w in words(text) if w not in STOPWORDS}


def jaccard(a: str, b: str) -> float:
    """Token Jaccard similarity of two texts (the near-duplicate test without embeddings)."""
    left, right = set(words(a)), set(words(b))
    if not left or not right:
        return 0.0
    return len(left & right) / len(left | right)


def has_answer(text: str, answers: Sequence[str]) -> bool:
    """Whether any gold answer occurs in ``text`` (normalised containment)."""
    return any(contains_answer(text, a) for a in answers if a.strip())


def strip_reply(text: str) -> str:
    """An LLM reply without a leading label (``Sentence:``), wrapping quotes or extra lines."""
    reply = _LEAD.sub("", text.strip())
    reply = reply.strip().split("\n\n")[0].strip()
    if len(reply) >= 2 and reply[0] in _QUOTES and reply[-1] in _QUOTES:
        reply = reply[1:-1].strip()
    return _SPACE.sub(" ", reply)


# -- validators and fallbacks ----------------------------------------------------------------


def match_support(reply: str, sentences: Sequence[str], answers: Sequence[str]) -> tuple[str | None, str]:
    """Validate an LLM supporting sentence: the evidence sentence it copies, or None and why.

    The reply must match one sentence of the evidence (normalised equality, containment either
    way when the shorter side has at least two thirds of the words, or a fuzzy ratio of at least
    :data:`SUPPORT_MATCH_RATIO`) and that sentence must contain a gold answer. The evidence's
    own wording is returned so the test case never carries the LLM's typos.
    """
    text = norm(strip_reply(reply))
    if not text:
        return None, "empty reply"
    best, best_ratio = None, 0.0
    for sentence in sentences:
        target = norm(sentence)
        if not target:
            continue
        if target == text:
            ratio = 1.0
        elif text in target or target in text:
            short, long = sorted((len(text.split()), len(target.split())))
            ratio = 0.95 if short * 3 >= long * 2 else 0.0
        else:
            ratio = difflib.SequenceMatcher(None, text, target, autojunk=False).ratio()
        if ratio > best_ratio:
            best, best_ratio = sentence, ratio
    if best is None or best_ratio < SUPPORT_MATCH_RATIO:
        return None, f"not a sentence of the evidence (best match {best_ratio:.2f})"
    if not has_answer(best, answers):
        return None, "the sentence does not contain the answer"
    return best, ""


def fallback_support(question: str, sentences: Sequence[str], answers: Sequence[str]) -> str | None:
    """The evidence sentence containing the answer with the most question words (first on ties)."""
    wanted = content_words(question)
    best, best_overlap = None, -1
    for sentence in sentences:
        if not has_answer(sentence, answers):
            continue
        overlap = len(wanted & content_words(sentence))
        if overlap > best_overlap:
            best, best_overlap = sentence, overlap
    return best


def check_summary(summary: str, passages: Sequence[Passage]) -> str:
    """Why an LLM summary is rejected ('' when accepted): too short, echoing the prompt, or ungrounded."""
    words = content_words(summary)
    if len(words) < 5:
        return "summary too short"
    if _SCAFFOLD.search(summary):
        return "summary repeats the prompt's labels"
    source = set().union(*(content_words(p.text) for p in passages)) if passages else set()
    grounded = len(words & source) / len(words)
    if grounded < 0.5:
        return f"summary not drawn from the passages ({grounded:.0%} of its words are)"
    return ""


def check_merge(merged: str, support: str, summary: str, answers: Sequence[str]) -> str:
    """Why an LLM merge is rejected ('' when accepted).

    It must keep the answer span and :data:`SUPPORT_KEPT` of the supporting sentence's content
    words (the claim that makes it the answer, e.g. "the first woman to receive a Nobel Prize"),
    not echo the prompt's labels, add at least a few words of the summary beyond the supporting
    sentence, and stay within twice the length of its two inputs (no rambling or loops).
    """
    if not has_answer(merged, answers):
        return "merged text lost the answer"
    wanted = content_words(support)
    if wanted and len(wanted & content_words(merged)) < SUPPORT_KEPT * len(wanted):
        return "merged text lost the supporting sentence"
    if _SCAFFOLD.search(merged):
        return "merged text repeats the prompt's labels"
    added = (content_words(summary) - content_words(support)) & content_words(merged)
    if len(added) < min(3, len(content_words(summary) - content_words(support))):
        return "merged text adds nothing from the summary"
    limit = 2 * (len(support.split()) + len(summary.split())) + 10
    if len(merged.split()) > limit:
        return "merged text is far longer than its inputs"
    return ""


#: words that open a sentence by pointing back at the one before it ("He", "It", "This")
BACK_POINTING = frozenset(
    {"it", "its", "he", "she", "his", "her", "they", "them", "their", "this", "these", "those", "such"}
)


_SUBJECT_PRONOUNS = frozenset({"it", "he", "she", "they"})


def relevant_sentences(question: str, passages: Sequence[Passage], n: int = EXTRACT_SENTENCES) -> list[str]:
    """The ``n`` retrieved sentences sharing most words with the question, in passage order.

    A sentence that opens by pointing back ("He was born in Switzerland", "Since 2000, it has
    hosted") is left out: out of its passage, "He" would read as whoever came before it in the
    new text.
    """
    wanted = content_words(question)
    scored: list[tuple[int, int, str]] = []
    position = 0
    for passage in passages:
        for sentence in split_sentences(passage.text):
            head = words(sentence)[:6]
            if set(head[:1]) & BACK_POINTING or set(head) & _SUBJECT_PRONOUNS:
                position += 1
                continue
            scored.append((len(wanted & content_words(sentence)), -position, sentence))
            position += 1
    top = sorted(scored, reverse=True)[:n]
    return [s for _, _, s in sorted(top, key=lambda t: -t[1])]


def extractive_merge(support: str, question: str, passages: Sequence[Passage]) -> str:
    """Fallback merge: the supporting sentence, then the most question-relevant retrieved sentences."""
    extra = [s for s in relevant_sentences(question, passages) if norm(s) != norm(support)]
    return " ".join([support, *extra])
