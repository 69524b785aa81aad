"""The one English stop-word list, the articles, and content words.

:data:`STOP_WORDS` holds the function words that say nothing about what a text is about:
articles, common prepositions and conjunctions, forms of "be", "do" and "have", modal verbs,
personal and demonstrative pronouns, wh-words, "not"/"no" and a few empty adverbs. It is the
union of the four lists the tree used to keep (context enrichment 58 words, the premise judge
64, claim validation 45, claim verdicts 21), without the judge's reply words ("answer",
"question", "first", "time", "year"), which are no function words and stay in the judge
(:data:`halluforge.families.invite.judge.text.REPLY_WORDS`). A negation is a stop word: who
needs to know whether a text negates another checks that apart (claims' ``_negates``).

:func:`content_words` is what every overlap measure counts: the :func:`~.tokens.words` of a
text that are not stop words.
"""

from __future__ import annotations

from halluforge.textkit.tokens import words

#: the English articles (SQuAD's normalisation drops them; a swap may change one)
ARTICLES = frozenset({"a", "an", "the"})

#: the words that ask: a search-query question without its mark still has one ("who won ...")
WH_WORDS = frozenset({"which", "who", "whom", "whose", "what", "when", "where", "why", "how"})
#: the forms of "be", "do", "have" and the modals that open a yes/no question ("was it ...")
AUXILIARIES = frozenset(
    {"is", "are", "was", "were", "do", "does", "did", "has", "have", "had", "will", "would", "can", "could"}
)

STOP_WORDS = (
    ARTICLES
    | WH_WORDS
    | AUXILIARIES
    | frozenset(
        {
            # prepositions and conjunctions
            *("of", "in", "on", "at", "to", "for", "from", "by", "with", "into", "as", "than"),
            *("and", "or", "but", "so"),
            # the forms of be that open no question (the others are AUXILIARIES)
            *("be", "been", "being"),
            # pronouns and determiners
            *("i", "me", "my", "you", "we", "he", "she", "it", "they", "his", "her", "its", "their"),
            *("this", "that", "these", "those", "there", "then"),
            # negation and empty adverbs
            *("not", "no", "also", "very"),
        }
    )
)


def content_words(text: str) -> set[str]:
    """The words of ``text`` that are not stop words (what overlap and relevance count)."""
    return {word for word in words(text) if word not in STOP_WORDS}


__all__ = ["ARTICLES", "AUXILIARIES", "STOP_WORDS", "WH_WORDS", "content_words"]
