"""The source texts a generated sentence is read against: what each source sentence says.

:class:`Sources` splits the texts a summary or merge was made from into sentences once and
keeps, per sentence, its content words, names and numbers (with the antecedents a sentence that
refers back inherits), so each check of :mod:`.grounding` asks one question of it: which source
sentences a generated sentence draws on (:meth:`Sources.matches`, content-word :func:`recall`
at ``MIN_RECALL``), whether one source holds all its names and numbers
(:meth:`Sources.one_source`), whether it follows the sentence before it in its own source
(:meth:`Sources.follows`) and whether it keeps its source's he or she
(:meth:`Sources.changes_pronoun`).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field

from halluforge.families.context_enrich.enrich_text import (
    FEMININE_PRONOUNS,
    MASCULINE_PRONOUNS,
    points_back,
    refers_back,
)
from halluforge.textkit.sentences import split_sentences
from halluforge.textkit.stopwords import STOP_WORDS, content_words
from halluforge.textkit.tokens import WRITTEN_WORD, norm, words

#: content-word recall against the best source sentence below which a sentence is unsupported
MIN_RECALL = 0.75
#: words in a row that make a phrase: shared with the instructions, an echo; said twice in a sentence, a loop
PHRASE_WORDS = 4

_THOUSANDS = re.compile(r"(?<=\d),(?=\d{3}\b)")
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")


def _stem(word: str) -> str:
    """A plural-insensitive form ("plays" → "play", "stories" → "story"): enough for overlap."""
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def _content(text: str) -> set[str]:
    """Stemmed content words, with thousands separators dropped so "1,000" is one word."""
    return {_stem(w) for w in content_words(_THOUSANDS.sub("", text))}


def _names(text: str) -> set[str]:
    """Lowercased capitalised words that are not stopwords (names, roughly, first word included)."""
    return {w for t in WRITTEN_WORD.findall(text) if t[0].isupper() for w in words(t) if w not in STOP_WORDS}


def _inner_names(text: str) -> set[str]:
    """Lowercased words of the capitalised tokens after the first (names, without the sentence opener)."""
    return {w for t in WRITTEN_WORD.findall(text)[1:] if t[0].isupper() for w in words(t) if len(w) > 1}


def _with_antecedents(split_texts: Sequence[Sequence[str]]) -> list[frozenset[str]]:
    """Each source sentence's words and numbers, with its predecessor's when it points back.

    ``split_texts`` holds each source text's sentences. "In 1909 she became the first woman to
    win the Nobel Prize" is about the "Selma Lagerlöf" of the sentence before it, so a merge
    may put that name and that year in one sentence.
    """
    found: list[frozenset[str]] = []
    for text_sentences in split_texts:
        previous: frozenset[str] = frozenset()
        for sentence in text_sentences:
            own = frozenset(words(sentence)) | numbers_in(sentence)
            found.append(own | previous if points_back(sentence) else own)
            previous = own
    return found


def numbers_in(text: str) -> set[str]:
    """Digit runs without thousands separators: "1,000" and "1000" compare equal."""
    return {m.replace(",", "").rstrip(".") for m in _NUMBER.findall(text)}


def grams(tokens: Sequence[str], n: int) -> list[tuple[str, ...]]:
    """The runs of ``n`` words in a row (phrases), in order."""
    return [tuple(tokens[i : i + n]) for i in range(len(tokens) - n + 1)]


def recall(sentence: AbstractSet[str], source: AbstractSet[str]) -> float:
    """Share of a sentence's content words found in one source sentence."""
    return len(sentence & source) / len(sentence) if sentence else 1.0


@dataclass(frozen=True)
class Sources:
    """What a generated text may draw on: source sentences, their words, instructions.

    ``texts`` are the sources (supporting sentence, passages, summary); ``instructions`` the
    fixed wording of the prompt that produced the text (placeholders removed), so an echo of
    it can be told from a quote of a source.
    """

    sentences: tuple[str, ...]
    contents: tuple[frozenset[str], ...]
    names: tuple[frozenset[str], ...]
    vocabulary: frozenset[str]
    instruction_grams: frozenset[tuple[str, ...]]
    source_grams: frozenset[tuple[str, ...]] = field(repr=False)
    #: phrases that one source text itself says twice or more (a sentence may repeat those)
    repeated_grams: frozenset[tuple[str, ...]] = field(default=frozenset(), repr=False)
    #: each source sentence's words and numbers (where a sentence's names must all be found)
    tokens: tuple[frozenset[str], ...] = field(default=(), repr=False)
    #: words capitalised inside a source sentence (names, so a sentence's first word can be told one)
    proper: frozenset[str] = field(default=frozenset(), repr=False)
    #: the passages' titles, normalised (as the prompt lists them: "Title: text")
    titles: frozenset[str] = field(default=frozenset(), repr=False)
    #: for each source sentence, which source text it comes from (sentences are in text order)
    origins: tuple[int, ...] = field(default=(), repr=False)

    @classmethod
    def of(
        cls, texts: Sequence[str], instructions: Sequence[str] = (), titles: Sequence[str] = ()
    ) -> Sources:
        """Index ``texts`` (split with the family's sentence splitter), the instructions and titles."""
        split_texts = [split_sentences(text) for text in texts]
        sentences = tuple(s for text_sentences in split_texts for s in text_sentences)
        all_words = [words(text) for text in texts]
        source_grams = {g for tokens in all_words for g in grams(tokens, PHRASE_WORDS)}
        repeated = {
            g for tokens in all_words for g, n in Counter(grams(tokens, PHRASE_WORDS)).items() if n > 1
        }
        instruction_grams = {g for text in instructions for g in grams(words(text), PHRASE_WORDS)}
        return cls(
            sentences=sentences,
            contents=tuple(frozenset(_content(s)) for s in sentences),
            names=tuple(frozenset(_names(s)) for s in sentences),
            vocabulary=frozenset(w for tokens in all_words for w in tokens),
            instruction_grams=frozenset(instruction_grams - source_grams),
            source_grams=frozenset(source_grams),
            repeated_grams=frozenset(repeated),
            tokens=tuple(_with_antecedents(split_texts)),
            proper=frozenset(w for s in sentences for w in _inner_names(s)),
            titles=frozenset(t for t in (norm(title) for title in titles) if t),
            origins=tuple(n for n, text_sentences in enumerate(split_texts) for _ in text_sentences),
        )

    def refers_back(self, sentence: str) -> bool:
        """:func:`.enrich_text.refers_back`, first word a name if a source has it inside."""
        first = words(sentence)[:1]
        return refers_back(sentence, first_is_name=bool(first) and first[0] in self.proper)

    def matches(self, sentence: str, min_recall: float = MIN_RECALL) -> list[int]:
        """Indices of the source sentences that support ``sentence`` (recall at least ``min_recall``).

        A fact said in two sources (a passage and the summary made from it) matches both; with
        none above the threshold, the best one stands for the sentence's source.
        """
        wanted = _content(sentence)
        scores = [recall(wanted, content) for content in self.contents]
        found = [i for i, score in enumerate(scores) if score >= min_recall]
        return found or ([max(range(len(scores)), key=scores.__getitem__)] if scores else [])

    def follows(self, sentence: str, previous: str, min_recall: float = MIN_RECALL) -> bool:
        """Whether ``previous`` can stand before ``sentence``: both drawn from one source text, in order.

        A sentence that refers back ("he", "the company") is read against the sentence before
        it; it keeps its source's meaning only when that sentence comes from the same source
        text, at or before its own source sentence.
        """
        mine, theirs = self.matches(sentence, min_recall), self.matches(previous, min_recall)
        return any(self.origins[j] == self.origins[i] and j <= i for i in mine for j in theirs)

    def changes_pronoun(self, sentence: str, min_recall: float = MIN_RECALL) -> bool:
        """Whether ``sentence`` says he or she where its sources (with antecedents) say only the other."""
        tokens = set(words(sentence))
        said = frozenset().union(*(self.tokens[i] for i in self.matches(sentence, min_recall)))
        return any(
            tokens & one and not said & one and said & other
            for one, other in (
                (FEMININE_PRONOUNS, MASCULINE_PRONOUNS),
                (MASCULINE_PRONOUNS, FEMININE_PRONOUNS),
            )
        )

    def best(self, sentence: str, n: int = 1) -> list[tuple[float, str]]:
        """The ``n`` source sentences with the highest content-word recall of ``sentence``."""
        wanted = _content(sentence)
        order = sorted(range(len(self.contents)), key=lambda i: -recall(wanted, self.contents[i]))
        return [(recall(wanted, self.contents[i]), self.sentences[i]) for i in order[:n]]

    def support(self, sentence: str) -> tuple[float, tuple[frozenset[str], ...]]:
        """Content-word recall of ``sentence`` by its best source sentence joined with a second one.

        The second is the one that covers most of the words the best leaves out, among those that
        share a name with ``sentence``, so a merge that joins two source sentences into one ("X,
        while Y") is read against both, but words about one entity are not lent to another
        ("Selma Lagerlöf ... a pioneer in crystallography", from a sentence about Pierre Curie).
        Also returns the numbers of each of those source sentences: a number must come from them,
        not from anywhere in the sources ("in 1914, she ..." about the wrong person), and several
        numbers from one of them.
        """
        wanted = _content(sentence)
        if not self.contents:
            return (0.0 if wanted else 1.0), ()
        first = max(range(len(self.contents)), key=lambda i: recall(wanted, self.contents[i]))
        rest, named = wanted - self.contents[first], _names(sentence)
        seconds = [i for i, n in enumerate(self.names) if n & named and i != first]
        pair = [first, *([max(seconds, key=lambda i: len(rest & self.contents[i]))] if seconds else [])]
        covered = frozenset().union(*(self.contents[i] for i in pair))
        numbers = tuple(frozenset(numbers_in(self.sentences[i])) for i in pair)
        return recall(wanted, covered), numbers

    def one_source(self, sentence: str) -> bool:
        """Whether one source sentence holds all of ``sentence``'s names and numbers.

        A merge that takes "Dartmouth College" from one sentence and "Cambridge, Massachusetts"
        from another says what neither says; names and numbers are what tie a fact to its
        subject, so they must come together from one source sentence. The first word counts as
        a name when some source capitalises it inside a sentence; words of one letter do not.
        """
        tokens = WRITTEN_WORD.findall(sentence)
        first = [w for w in words(tokens[0]) if w in self.proper and w not in STOP_WORDS] if tokens else []
        wanted = _inner_names(sentence) - STOP_WORDS | set(first) | numbers_in(sentence)
        return len(wanted) < 2 or any(wanted <= source for source in self.tokens)


__all__ = ["MIN_RECALL", "PHRASE_WORDS", "Sources", "grams", "numbers_in", "recall"]
