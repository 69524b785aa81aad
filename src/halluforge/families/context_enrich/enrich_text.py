"""Sentence-level text helpers, validators and fallbacks of ``context_enrich``.

Kept apart from the generator so each check can be read and tested on its own: the generator
(:mod:`halluforge.families.context_enrich.generator`) asks the LLM, then calls :func:`match_support`,
:func:`check_summary` and :func:`check_merge` on its replies, and falls back to
:func:`fallback_support` and :func:`extractive_merge` when they are rejected. All comparisons
go through the text kit's words (:func:`halluforge.textkit.tokens.norm`: lowercase words,
punctuation of any script dropped), so curly quotes, HTML and spacing never decide a match;
overlap counts :func:`halluforge.textkit.stopwords.content_words`.
"""

from __future__ import annotations

import difflib
import functools
import re
from collections.abc import Sequence

from halluforge.families.shared.kinds import kind_words
from halluforge.retrieval.base import Passage
from halluforge.textkit.answers import contains_answer
from halluforge.textkit.sentences import split_sentences
from halluforge.textkit.stopwords import STOP_WORDS, content_words
from halluforge.textkit.tokens import WRITTEN_WORD, norm, words

#: fuzzy-match ratio above which an LLM reply counts as a copy of an evidence sentence
SUPPORT_MATCH_RATIO = 0.8
#: how many retrieved sentences the extractive fallbacks keep
EXTRACT_SENTENCES = 3
#: share of the supporting sentence's content words a merge must keep (its claim, not just the answer)
SUPPORT_KEPT = 0.75

_SPACE = re.compile(r"\s+")
_LEAD = re.compile(r"^\s*(?:sentence|answer|paragraph|new passage|passage)\s*:\s*", re.IGNORECASE)
#: prompt scaffolding that a reply should not repeat ("Text 1:", "[2]", "Paragraph:")
_SCAFFOLD = re.compile(r"\b(?:text \d|paragraph|passage|sentence)\s*:|\[\d+\]", re.IGNORECASE)
_QUOTES = "\"'“”‘’`"


# -- text helpers ----------------------------------------------------------------------------


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
#: third-person pronouns that point back wherever they stand: subject, object or possessive
#: ("As a socialist, he ...", "Truman called her ...", "their plan", "Reaching 30 m, it is ...")
PERSONAL_PRONOUNS = frozenset(
    {"he", "she", "it", "they", "him", "her", "them", "his", "hers", "its", "their", "theirs"}
    | {"himself", "herself", "itself", "themselves"}
)
#: pronouns of a person, by grammatical gender (a rewrite may not swap one set for the other)
FEMININE_PRONOUNS = frozenset({"she", "her", "hers", "herself"})
MASCULINE_PRONOUNS = frozenset({"he", "him", "his", "himself"})
PERSON_PRONOUNS = FEMININE_PRONOUNS | MASCULINE_PRONOUNS
#: openers that link a sentence to the one before it ("However, ...", "For instance, ...")
_CONNECTIVE = re.compile(
    r"^\W*(?:however|also|moreover|furthermore|therefore|thus|hence|instead|meanwhile|similarly|"
    r"additionally|nevertheless|consequently|otherwise|besides|for (?:instance|example)|"
    r"in (?:addition|contrast|turn|particular)|as a result|by contrast|on the other hand)\b",
    re.I,
)
#: a list flattened into a sentence ("Common features include:Online platforms ...") or cut at its colon
_FLATTENED_LIST = re.compile(r":(?=[^\s\d/])|:\s*$")
#: sentences of its passage that a back-pointing sentence may bring along as its antecedent
MAX_ANTECEDENT = 2
#: nouns that, after "the", stand for a thing the passage named before ("the band", "the river"),
#: beside the kind and role words of the swap lexicon (:func:`halluforge.families.shared.kinds.kind_words`)
REFERRING_NOUNS = frozenset(
    {"band", "group", "film", "movie", "album", "song", "series", "show", "team", "club", "party"}
    | {"firm", "town", "village", "province", "state", "building", "church", "temple", "game"}
    | {"novel", "species", "disease", "university", "school", "station", "airport", "festival"}
    | {"war", "battle", "treaty", "law", "bill", "court", "agency", "network", "brand", "vehicle"}
)

_CLOSED = re.compile(r"[.!?][\"'”’)\]]*$")


def ends_sentence(text: str) -> bool:
    """Whether ``text`` ends with closing punctuation (a full stop, "?" or "!", maybe quoted)."""
    return bool(_CLOSED.search(text.strip()))


def join_sentences(sentences: Sequence[str]) -> str:
    """Sentences joined by spaces, each ended with a full stop when it has no closing punctuation.

    An evidence that is one unterminated sentence ("... employees affected by the menopause")
    would otherwise run into the next one ("... the menopause A parliament is ...").
    """
    ended = [s.strip() if ends_sentence(s) else s.strip().rstrip(",;:–—- ") + "." for s in sentences]
    return " ".join(s for s in ended if s != ".")


def points_back(sentence: str) -> bool:
    """Whether ``sentence`` refers to something said before it, so it cannot stand alone.

    It does when it opens with a back-pointing word or a connective ("He", "This", "Such",
    "However", "For instance"), has a third-person pronoun anywhere (subject, object or
    possessive: "As a socialist committed to democracy, he ...", "Truman called her ...",
    "their plan", "Since 2000, it has hosted") or a definite kind noun that stands for the
    passage's subject ("Founded by Kurt Cobain ..., the band went through ...", "In Mexico the
    river is called ..."; see :func:`_definite_reference`). A reference that resolves inside
    the sentence ("The club moved its ground") is read as pointing back too: keeping the
    sentence before it costs a sentence, not a false statement.
    """
    tokens = words(sentence)
    if not tokens:
        return False
    return (
        tokens[0] in BACK_POINTING
        or not PERSONAL_PRONOUNS.isdisjoint(tokens)
        or _CONNECTIVE.match(sentence) is not None
        or _definite_reference(sentence)
    )


def refers_back(sentence: str, first_is_name: bool = False) -> bool:
    """Whether ``sentence`` leans on the one before it for whom or what it is about.

    Narrower than :func:`points_back`, for text a model wrote from sources: it opens with a
    back-pointing word ("He", "This innovation"), names its subject only by a kind ("After the
    company's board fired him"), or has a personal pronoun (he, she) and no name at all. A
    connective ("Meanwhile,") links without carrying a referent, and a pronoun in a sentence
    that names someone most often means that name ("... convince himself ..., the coach, Tom
    Coughlin, had to"). The first word counts as a name only when ``first_is_name`` (a
    sentence's opening word is capitalised whatever it is). The extractive path keeps the
    stricter :func:`points_back`, since an extra antecedent sentence costs it nothing false.
    """
    tokens = words(sentence)
    if not tokens:
        return False
    if tokens[0] in BACK_POINTING or _definite_reference(sentence):
        return True
    names = [
        token
        for position, token in enumerate(WRITTEN_WORD.findall(sentence))
        if token[0].isupper() and norm(token) not in STOP_WORDS and (position > 0 or first_is_name)
    ]
    return not names and not PERSON_PRONOUNS.isdisjoint(tokens)


@functools.lru_cache(maxsize=1)
def _definite_pattern() -> re.Pattern[str]:
    """The pattern of "the" and a referring noun that introduces no name (not "the river Thames")."""
    nouns = sorted(REFERRING_NOUNS | {w for w in kind_words() if not w.endswith("s")}, key=len, reverse=True)
    return re.compile(rf"\b[Tt]he\s+({'|'.join(nouns)})\b(?!\s+(?:of|in|at|on|called|named|known|[A-Z]))")


def _definite_reference(sentence: str) -> bool:
    """Whether ``sentence`` names its subject only by a kind ("the band", "the river", "the company").

    In a passage such a phrase stands for the thing the passage is about; moved next to another
    passage's sentence it reads as that one ("The Beach Boys are a rock band ... Founded by Kurt
    Cobain, the band ..."). A phrase that introduces a name ("the river Thames", "the city of
    Lyon") refers to nothing before it.
    """
    return _definite_pattern().search(sentence) is not None


def _names_its_subject(sentence: str) -> bool:
    """Whether a passage's opening sentence names someone before any pronoun ("Eleanor ... her husband").

    A passage opens by naming its subject, so a pronoun after such a name refers to it; a
    pronoun or a definite kind noun before any name ("He was born ...", "The lake drains into
    the Saint Lawrence") refers to the passage's title, which the new text does not carry.
    """
    definite = _definite_pattern().search(sentence)
    tokens = WRITTEN_WORD.findall(sentence[: definite.start()] if definite else sentence)
    if not tokens or norm(tokens[0]) in BACK_POINTING | PERSONAL_PRONOUNS:
        return False
    for token in tokens:
        if norm(token) in PERSONAL_PRONOUNS:
            return False
        if token[0].isupper() and norm(token) not in STOP_WORDS:
            return True
    return False


def _with_antecedent(sentences: Sequence[str], index: int) -> list[int] | None:
    """``index`` with the sentences before it that its pronouns need, or None when they cannot be had.

    A sentence that points back is kept with the sentences before it in its passage, back to
    one that does not point back (at most :data:`MAX_ANTECEDENT` of them): then "her" reads as
    whom the passage meant. A passage's first sentence stands alone only when it names its
    subject before any pronoun.
    """
    for start in range(index, max(-1, index - MAX_ANTECEDENT - 1), -1):
        sentence = sentences[start]
        if not points_back(sentence) or (start == 0 and _names_its_subject(sentence)):
            return list(range(start, index + 1))
        if start == 0:
            return None
    return None


def relevant_sentences(question: str, passages: Sequence[Passage], n: int = EXTRACT_SENTENCES) -> list[str]:
    """The ``n`` retrieved sentences sharing most words with the question, in passage order.

    A sentence that points back ("He was born in Switzerland", "Truman called her the First
    Lady", "Since 2000, it has hosted") comes with the sentences before it in its passage that
    say whom it means (:func:`_with_antecedent`), counted in the ``n``; when its passage has no
    such sentence (it opens the passage, or more than :data:`MAX_ANTECEDENT` sentences before it
    point back too), it is left out: out of its passage, "He" would read as whoever came before
    it in the new text. Keeping the antecedent rather than dropping the sentence keeps the
    question-relevant fact and reads as the passage did. A list the corpus flattened into a
    sentence ("Common features include:Online platforms ...") is no prose and is never taken.
    """
    wanted = content_words(question)
    units: list[tuple[int, int, list[int]]] = []
    texts: list[str] = []
    for passage in passages:
        sentences = split_sentences(passage.text)
        for index, sentence in enumerate(sentences):
            unit = _with_antecedent(sentences, index)
            if unit is not None and not any(_FLATTENED_LIST.search(sentences[i]) for i in unit):
                offset, score = len(texts) - index, len(wanted & content_words(sentence))
                units.append((score, -len(texts), [offset + i for i in unit]))
            texts.append(sentence)
    chosen: set[int] = set()
    for _, _, unit in sorted(units, key=lambda t: (t[0], t[1]), reverse=True):
        new = [i for i in unit if i not in chosen]
        if new and len(chosen) + len(new) <= n:
            chosen.update(new)
        if len(chosen) >= n:
            break
    return [texts[i] for i in sorted(chosen)]


def extractive_summary(question: str, passages: Sequence[Passage]) -> str:
    """Fallback summary: the most question-relevant retrieved sentences, each ended with a full stop."""
    return join_sentences(relevant_sentences(question, passages))


def extractive_merge(support: str, question: str, passages: Sequence[Passage]) -> str:
    """Fallback merge: the supporting sentence, then the most question-relevant retrieved sentences.

    Every piece ends with closing punctuation (:func:`join_sentences`), so a supporting sentence
    without a full stop does not run into the first retrieved one.
    """
    extra = [s for s in relevant_sentences(question, passages) if norm(s) != norm(support)]
    return join_sentences([support, *extra])
