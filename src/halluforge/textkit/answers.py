"""Answer-text helpers shared by loading, selection, forging and scoring.

:func:`normalize_answer` is the one answer normaliser: SQuAD's, used for exact match, F1 and
the data filter's overlapping answers (lowercase, no punctuation, no articles, single spaces).
Punctuation is ASCII punctuation *and* every Unicode punctuation character, so curly quotes,
dashes and guillemets go the way their ASCII forms go ("“Squid Game”" and '"Squid Game"' both
give ``squid game``; "Paris’" gives ``paris``). SQuAD's own script drops ASCII punctuation
only; the data filter used to drop four curly quotes and two dashes besides, so the filter and
EM could disagree about an answer written with a curly apostrophe.

:func:`find_answer_spans` locates an answer inside a passage *by the same normalisation*, but
token by token (the kit's :data:`~.tokens.WORD`) and with character offsets, so that "is the
answer still in the passage?" (:func:`contains_answer`) and "replace the answer in the passage"
(``families.shared.spans.span_replace``) always agree about what counts as an occurrence.

Matching rules, and why:

- tokens are runs of letters and digits; case and accents are folded; the articles a/an/the
  are ignored, as in SQuAD, when they stand between spaces (the "A" of "A.D." or of
  "Chick-fil-A" counts);
- an answer matches a run of whole passage tokens whose concatenation equals the answer's
  concatenated tokens, so ``"1,000"`` matches ``"1000"``, ``"U.S."`` matches ``"US"`` and
  ``"Paris"`` matches inside ``"Paris-based"`` or ``"Paris's"``, but never inside ``"Parisian"``;
- tokens of one match may be separated only by spaces and up to four characters of light
  punctuation (dashes, dots, quotes, brackets), never by a line break.

Limits: no stemming or synonyms ("Einstein" does not match "Albert Einstein's theory" in
reverse), and since articles are ignored "Vitamin A" matches "vitamin" alone.
"""

from __future__ import annotations

import functools
import re
import string
import unicodedata

from halluforge.textkit.stopwords import ARTICLES
from halluforge.textkit.tokens import WORD

_ARTICLES_RE = re.compile(rf"\b(?:{'|'.join(sorted(ARTICLES))})\b")
_ASCII_PUNCT = frozenset(string.punctuation)
#: what may separate two tokens of one match: spaces and light punctuation, no line break
_GAP = re.compile(r"[ \t\-‐–—.,'’\"“”/&:()\[\]]{0,4}")


@functools.lru_cache(maxsize=65536)
def normalize_answer(text: str) -> str:
    """SQuAD normalisation: lowercase, drop punctuation and articles, collapse spaces."""
    lowered = text.lower()
    no_punct = "".join(ch for ch in lowered if not _is_punctuation(ch))
    no_articles = _ARTICLES_RE.sub(" ", no_punct)
    return " ".join(no_articles.split())


def _is_punctuation(char: str) -> bool:
    """ASCII punctuation (``string.punctuation``, symbols such as ``$`` included) or Unicode punctuation."""
    return char in _ASCII_PUNCT or unicodedata.category(char).startswith("P")


def strip_accents(text: str) -> str:
    """``text`` decomposed with its combining marks left out, case kept ("Itō" -> "Ito")."""
    return "".join(ch for ch in unicodedata.normalize("NFKD", text) if not unicodedata.combining(ch))


def _fold(token: str) -> str:
    """Lowercase and strip accents so that "Pelé" and "Pele" compare equal."""
    return strip_accents(token.lower())


def _tokens(text: str) -> list[tuple[str, int, int]]:
    """Folded tokens of ``text`` with their character offsets; articles fold to ``""``."""
    out = []
    for match in WORD.finditer(text):
        folded = _fold(match.group())
        # an article is a word of its own: the "A" of "A.D." or "Vitamin A." is not one
        alone = (match.start() == 0 or text[match.start() - 1].isspace()) and text[
            match.end() : match.end() + 1
        ].isspace()
        article = folded in ARTICLES and alone
        out.append(("" if article else folded, match.start(), match.end()))
    return out


@functools.lru_cache(maxsize=65536)
def answer_key(answer: str) -> str:
    """The answer's folded tokens concatenated: what a passage span must spell out."""
    return "".join(token for token, _, _ in _tokens(answer))


def find_answer_spans(text: str, answer: str) -> list[tuple[int, int]]:
    """Character spans of every non-overlapping occurrence of ``answer`` in ``text``.

    A span covers whole tokens only, from the first letter or digit of the first token to
    the last of the final token (surrounding punctuation such as a possessive 's stays out).
    An answer with no tokens (empty, or only an article) occurs nowhere.
    """
    key = answer_key(answer)
    if not key:
        return []
    tokens = _tokens(text)
    spans: list[tuple[int, int]] = []
    i = 0
    while i < len(tokens):
        if not tokens[i][0] or not key.startswith(tokens[i][0]):  # never start on an article
            i += 1
            continue
        built = ""
        j = i
        end = -1
        while j < len(tokens) and len(built) < len(key):
            if j > i and not _GAP.fullmatch(text[tokens[j - 1][2] : tokens[j][1]]):
                break
            built += tokens[j][0]
            if not key.startswith(built):
                break
            if built == key:
                end = j
                break
            j += 1
        if end >= 0:
            spans.append((tokens[i][1], tokens[end][2]))
            i = end + 1
        else:
            i += 1
    return spans


def contains_answer(text: str, answer: str) -> bool:
    """True when ``answer`` occurs in ``text`` as whole tokens, after normalisation."""
    return bool(find_answer_spans(text, answer))


def count_occurrences(text: str, answer: str) -> int:
    """How many non-overlapping times ``answer`` occurs in ``text`` (see :func:`find_answer_spans`)."""
    return len(find_answer_spans(text, answer))


__all__ = [
    "answer_key",
    "contains_answer",
    "count_occurrences",
    "find_answer_spans",
    "normalize_answer",
    "strip_accents",
]
