"""The project's one sentence splitter, shared by forging and judging.

:func:`split_sentences` cuts plain text at ``.``, ``!`` or ``?`` (closing quotes and brackets
included) when the next sentence opens with a capital or a digit, and never after a common
abbreviation or an initial ("Dr. Watson", "J. R. R. Tolkien", "U.S. Army", "Op. 125"), so that
a name or a title never becomes a sentence of its own. HTML tags and entities are removed first
(:func:`clean_text`): retrieved passages and dataset evidence often carry them.

Callers: ``context_enrich`` and its grounding checks (supporting sentence, retrieved
sentences, the sentences of a summary or merge), RECALL's counterfactual rules, and the
premise judge, which splits a response into lines first and reads each line's sentences.
"""

from __future__ import annotations

import html
import re

_TAG = re.compile(r"<[^>]+>")
_SPACE = re.compile(r"\s+")
_BOUNDARY = re.compile(r"(?<=[.!?])[\"'”’)\]]*\s+(?=[\"'“‘(\[]?[A-Z0-9])")
_ABBREVIATION = re.compile(
    r"(?:\b[A-Za-z]|\b(?:Mr|Mrs|Ms|Dr|St|Jr|Sr|Prof|Gen|Gov|Sen|Rep|vs|No|Nos|Op|Vol|Fig|Mt|ca|Inc|Ltd|Co))\.$"
)


def clean_text(text: str) -> str:
    """Plain text: HTML tags removed, entities decoded, spaces collapsed."""
    return _SPACE.sub(" ", html.unescape(_TAG.sub("", text))).strip()


def split_sentences(text: str) -> list[str]:
    """Split plain text into sentences at ``.!?`` followed by a capital, sparing abbreviations."""
    text = clean_text(text)
    if not text:
        return []
    sentences: list[str] = []
    start = 0
    for match in _BOUNDARY.finditer(text):
        head = text[start : match.start()].rstrip("\"'”’)]")
        if _ABBREVIATION.search(head):
            continue
        sentences.append(text[start : match.end()].strip())
        start = match.end()
    sentences.append(text[start:].strip())
    return [s for s in sentences if s]


__all__ = ["clean_text", "split_sentences"]
